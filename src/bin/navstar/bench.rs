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

use clap::Args;
use clap::builder::RangedU64ValueParser;

use crate::common::{self, PointRule};
use crate::error::CliError;
use crate::options::{PathArgs, ScenarioArgs};
use crate::stats;
use crate::tiles;

/// Time path queries
///
/// Runs every query once to warm up, then times each query separately for R rounds and
/// prints the median and 95th percentile time per query in microseconds (one thread).
/// The queries are random pairs of points on the mesh (--random, the default) or the
/// problems of a scenario file (--queries).
#[derive(Debug, Args)]
pub struct BenchCommand {
    /// The mesh file
    #[arg(value_name = "MESH")]
    mesh: String,
    /// N random pairs of points on the mesh (default 1000): random points of the bounding
    /// box, each snapped to the nearest point of the mesh
    #[arg(
        long,
        value_name = "N",
        conflicts_with = "queries",
        value_parser = RangedU64ValueParser::<usize>::new().range(1..)
    )]
    random: Option<usize>,
    /// Seed of the random points; same seed, same points
    #[arg(
        long,
        value_name = "S",
        default_value_t = 1,
        conflicts_with = "queries"
    )]
    seed: u64,
    /// The problems of a Moving AI scenario file instead (grid maps: cell centres;
    /// meshes: the points as written; see --points)
    #[arg(long, value_name = "SCEN")]
    queries: Option<String>,
    /// Timed rounds over all queries
    #[arg(
        long,
        value_name = "R",
        default_value_t = 5,
        value_parser = RangedU64ValueParser::<usize>::new().range(1..)
    )]
    rounds: usize,
    #[command(flatten)]
    scenario: ScenarioArgs,
    #[command(flatten)]
    path: PathArgs,
}

impl BenchCommand {
    /// Runs `navstar bench`.
    ///
    /// # Errors
    /// Usage errors for files that do not fit; failures for unreadable files.
    pub fn run(&self) -> Result<(), CliError> {
        let options = self.path.options();
        let (rounds, seed) = (self.rounds, self.seed);
        let mesh_path = &self.mesh;
        let loaded = tiles::load_path_mesh(mesh_path, &self.path)?;
        let (pairs, source) = match &self.queries {
            Some(scen) => {
                let problems = common::load_scenario(scen)?;
                common::require_z_up(&loaded.mesh, "a scenario file")?;
                let rule = PointRule::or_default(self.scenario.points, loaded.format, &problems);
                let pairs: Vec<(Vec3, Vec3)> = problems.iter().map(|p| rule.endpoints(p)).collect();
                if pairs.is_empty() {
                    return Err(CliError::failure(format!("{scen}: no problems to run")));
                }
                let source = format!("{} problems of {scen} ({})", pairs.len(), rule.describe());
                (pairs, source)
            }
            None => {
                let count = self.random.unwrap_or(1000);
                // On tiles, the points of the mesh in one piece: the same as without.
                let whole = loaded.tiling.as_ref().map_or(&loaded.mesh, |t| &t.whole);
                (
                    random_pairs(whole, count, seed),
                    format!("{count} random pairs of points on the mesh (seed {seed})"),
                )
            }
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
        if let Some(tiling) = &loaded.tiling {
            println!("tiles:      {}", tiling.describe());
        }
        println!("queries:    {source}");
        println!(
            "mode:       {} (weight {})",
            self.path.mode.name(),
            options.heuristic_weight
        );
        println!(
            "paths:      {} complete, {} partial, {} errors",
            counts.complete, counts.partial, counts.errors
        );
        println!(
            "length:     mean {:.6} over the complete paths",
            counts.length / counts.complete.max(1) as f64
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
}

/// `count` pairs of random points of the bounding box, each snapped to the mesh.
pub fn random_pairs(mesh: &NavMesh, count: usize, seed: u64) -> Vec<(Vec3, Vec3)> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let bounds = mesh.bounds();
    let mut point = || {
        let t = Vec3::new(rng.f32(), rng.f32(), rng.f32());
        let p = bounds.min + (bounds.max - bounds.min) * t;
        mesh.nearest_point(p, f32::INFINITY, None)
            .map_or(p, |nearest| nearest.point)
    };
    (0..count).map(|_| (point(), point())).collect()
}

/// How the queries ended.
struct Counts {
    complete: usize,
    partial: usize,
    errors: usize,
    /// The summed length of the complete paths.
    length: f64,
}

/// Runs every query once (and at least 1000 queries in all), counting the outcomes of
/// the first pass.
fn warm_up(query: &mut Query, pairs: &[(Vec3, Vec3)], options: &PathOptions) -> Counts {
    let mut counts = Counts {
        complete: 0,
        partial: 0,
        errors: 0,
        length: 0.0,
    };
    for &(start, goal) in pairs {
        match query
            .find_path(start, goal, options)
            .map(|p| (p.status, p.length()))
        {
            Ok((PathStatus::Complete, length)) => {
                counts.complete += 1;
                counts.length += f64::from(length);
            }
            Ok((PathStatus::Partial | PathStatus::NodeLimit, _)) => counts.partial += 1,
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

#[cfg(test)]
mod tests {
    use navstar::MeshOptions;

    use super::*;

    #[test]
    fn random_pairs_follow_the_seed_and_lie_on_the_mesh() {
        // Two unit squares side by side in the z = 0 plane, Z up.
        let vertices = [
            (0.0, 0.0),
            (1.0, 0.0),
            (2.0, 0.0),
            (0.0, 1.0),
            (1.0, 1.0),
            (2.0, 1.0),
        ]
        .map(|(x, y)| Vec3::new(x, y, 0.0));
        let options = MeshOptions::default().with_up_axis(navstar::UpAxis::Z);
        let mesh = NavMesh::from_polygons(&vertices, &[0, 1, 4, 3, 1, 2, 5, 4], &[4, 4], &options)
            .unwrap();
        let pairs = random_pairs(&mesh, 20, 7);
        assert_eq!(pairs, random_pairs(&mesh, 20, 7));
        assert_ne!(pairs, random_pairs(&mesh, 20, 8));
        for (a, b) in pairs {
            for p in [a, b] {
                assert!(
                    (0.0..=2.0).contains(&p.x) && (0.0..=1.0).contains(&p.y),
                    "{p}"
                );
                assert_eq!(p.z, 0.0);
            }
        }
    }
}
