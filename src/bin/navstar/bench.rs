//! `navstar bench`: time path queries on one thread.
//!
//! The queries are fixed-seed random pairs of points on the mesh (random points of the
//! bounding box, snapped to the mesh) or the problems of a scenario file. All of them
//! run once to warm up (caches, the query's scratch memory), then each is timed
//! separately for a number of rounds; the report gives the median and 95th percentile
//! of all those times.

use std::hint::black_box;
use std::time::Instant;

use navstar::glam::Vec3;
use navstar::{NavMesh, PathOptions, PathStatus, Query};

use crate::args::{Args, CliError, Spec};
use crate::common;
use crate::modes;
use crate::stats::{self, Rng};

/// Options of `navstar bench`.
pub const SPEC: Spec = Spec {
    values: &[
        "random", "seed", "queries", "rounds", "points", "mode", "weight", "up",
    ],
    flags: &[],
    positionals: &["MESH"],
};

/// Help of `navstar bench`.
pub const HELP: &str = "\
navstar bench: time path queries

Usage: navstar bench MESH [--random N] [--seed S] [options]
       navstar bench MESH --queries SCEN [options]

Runs every query once to warm up, then times each query separately for R rounds and
prints the median and 95th percentile time per query in microseconds (one thread).

Options:
  --random N      N random pairs of points on the mesh (default 1000): random points
                  of the bounding box, each snapped to the nearest point of the mesh
  --seed S        seed of the random points (default 1); same seed, same points
  --queries SCEN  the problems of a Moving AI scenario file instead (grid maps: cell
                  centres; meshes: the points as written; see --points)
  --points centre|exact
                  override how scenario coordinates become points
  --rounds R      timed rounds over all queries (default 5)
  --mode MODE     funnel: A* corridor + funnel (default); optimal: exact shortest path
  --weight W      A* heuristic weight (default 1)
  --up y|z        up axis of an OBJ file (default y)
  -h, --help      show this help
";

/// Runs `navstar bench`.
///
/// # Errors
/// Usage errors for bad or conflicting arguments; failures for unreadable files.
pub fn run(args: &Args) -> Result<(), CliError> {
    let (mode, options) = modes::path_options(args)?;
    if args.value("queries").is_some() && (args.value("random").is_some()) {
        return Err(args.usage("give either --random N or --queries SCEN, not both"));
    }
    if args.value("queries").is_some() && args.value("seed").is_some() {
        return Err(args.usage("--seed applies to --random only"));
    }
    let count: usize = args.parsed("random")?.unwrap_or(1000);
    let seed: u64 = args.parsed("seed")?.unwrap_or(1);
    let rounds: usize = args.parsed("rounds")?.unwrap_or(5);
    if count == 0 || rounds == 0 {
        return Err(args.usage("--random and --rounds must be at least 1"));
    }
    let mesh_path = args.positional(0);
    let loaded = common::load_mesh(args, mesh_path)?;
    let (pairs, source) = match args.value("queries") {
        Some(scen) => {
            let problems = common::load_scenario(scen)?;
            common::require_z_up(args, &loaded.mesh, "a scenario file")?;
            let rule = common::point_rule(args, loaded.format)?;
            let pairs: Vec<(Vec3, Vec3)> = problems.iter().map(|p| rule.endpoints(p)).collect();
            if pairs.is_empty() {
                return Err(CliError::failure(format!("{scen}: no problems to run")));
            }
            let source = format!("{} problems of {scen} ({})", pairs.len(), rule.describe());
            (pairs, source)
        }
        None => (
            random_pairs(&loaded.mesh, count, seed),
            format!("{count} random pairs of points on the mesh (seed {seed})"),
        ),
    };
    let mut query = Query::new(&loaded.mesh);
    let counts = warm_up(&mut query, &pairs, &options);
    let mut times = Vec::with_capacity(pairs.len() * rounds);
    for _ in 0..rounds {
        for &(start, goal) in &pairs {
            let started = Instant::now();
            let result = query.find_path(start, goal, &options);
            black_box(&result);
            times.push(stats::micros(started.elapsed()));
        }
    }
    times.sort_by(f64::total_cmp);
    let mean = stats::mean(&times);
    println!(
        "mesh:       {mesh_path} ({}, {} polygons)",
        common::format_name(loaded.format),
        loaded.mesh.polygon_count()
    );
    println!("queries:    {source}");
    println!(
        "mode:       {} (weight {})",
        mode.name(),
        options.heuristic_weight
    );
    println!(
        "paths:      {} complete, {} partial, {} errors",
        counts.complete, counts.partial, counts.errors
    );
    println!(
        "timing:     {rounds} rounds after a warm-up, {} timed queries",
        times.len()
    );
    println!("median:     {:.2} us", stats::median(&times));
    println!("p95:        {:.2} us", stats::quantile(&times, 0.95));
    println!(
        "mean:       {mean:.2} us ({:.0} queries/s on one thread)",
        1e6 / mean.max(1e-9)
    );
    println!("max:        {:.2} us", times.last().copied().unwrap_or(0.0));
    Ok(())
}

/// `count` pairs of random points of the bounding box, each snapped to the mesh.
pub fn random_pairs(mesh: &NavMesh, count: usize, seed: u64) -> Vec<(Vec3, Vec3)> {
    let mut rng = Rng::new(seed);
    let bounds = mesh.bounds();
    let mut point = || {
        let t = Vec3::new(rng.unit(), rng.unit(), rng.unit());
        let p = bounds.min + (bounds.max - bounds.min) * t;
        mesh.nearest_point(p, f32::INFINITY)
            .map_or(p, |nearest| nearest.point)
    };
    (0..count).map(|_| (point(), point())).collect()
}

/// How the queries ended.
struct Counts {
    complete: usize,
    partial: usize,
    errors: usize,
}

/// Runs every query once (and at least 1000 queries in all), counting the outcomes of
/// the first pass.
fn warm_up(query: &mut Query, pairs: &[(Vec3, Vec3)], options: &PathOptions) -> Counts {
    let mut counts = Counts {
        complete: 0,
        partial: 0,
        errors: 0,
    };
    for &(start, goal) in pairs {
        match query.find_path(start, goal, options).map(|p| p.status) {
            Ok(PathStatus::Complete) => counts.complete += 1,
            Ok(PathStatus::Partial) => counts.partial += 1,
            Err(_) => counts.errors += 1,
        }
    }
    for &(start, goal) in pairs
        .iter()
        .cycle()
        .take(1000usize.saturating_sub(pairs.len()))
    {
        black_box(query.find_path(start, goal, options).is_ok());
    }
    counts
}
