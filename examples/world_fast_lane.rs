//! The exact mode's fast lane on a world of tiles against the one-piece mesh: for each
//! layout (the mesh in one piece, or a world of its tiles of a side), with the index
//! (`NavMesh::prepare_fast_lane`, `World::prepare_fast_lane`) or without it (the exact
//! search): the index's build time and size, then per query the time of every layout,
//! interleaved in one run (each problem timed on every layout in turn, the order
//! rotating, over several passes; the fastest pass per problem and layout counts), with
//! the lengths checked equal to the first layout's.
//!
//! Layouts: `0` the one piece, `S` a world of tiles of side S, each with the index; a
//! trailing `s` (`0s`, `64s`) the same without it (the fast lane off).
//!
//! Run: `cargo run --release --example world_fast_lane -- MAP SCEN LAYOUTS [COUNT
//! [PASSES]]`, LAYOUTS comma-separated (`0,32,64,128,64s`), COUNT problems spread over
//! the scenario (all by default), 5 passes. For instruction counts, one layout, each
//! query once: `valgrind --tool=callgrind --toggle-collect='*find_path*'
//! target/release/examples/world_fast_lane MAP SCEN 64 COUNT once`.

#[path = "shared/scenario.rs"]
mod scenario;

use std::error::Error;
use std::time::Instant;

use navstar::{NavMesh, PathMode, PathOptions, PathStatus, Query, World, WorldOptions};

/// One layout: its name, the mesh queried (the piece or a world's snapshot), whether
/// the fast lane is on, and the world (kept alive).
struct Layout {
    name: String,
    mesh: NavMesh,
    lane: bool,
    _world: Option<World>,
}

/// The layout named `name` of `piece`, its index built (the build timed and reported).
fn layout(piece: &NavMesh, name: &str) -> Result<Layout, Box<dyn Error>> {
    let lane = !name.ends_with('s');
    let side: f32 = name.trim_end_matches('s').parse()?;
    let started = Instant::now();
    let (mesh, world, tiles) = if side == 0.0 {
        piece.prepare_landmarks();
        (piece.clone(), None, 1)
    } else {
        // The seam tolerance of the CLI's `--tile-size`: more where f32 steps are coarse.
        let bounds = piece.bounds();
        let largest = bounds.min.abs().max(bounds.max.abs()).max_element();
        let tolerance = WorldOptions::default()
            .seam_tolerance
            .max(128.0 * f32::EPSILON * largest);
        let options = WorldOptions::default()
            .with_up_axis(piece.up_axis())
            .with_max_tiles(1 << 16)
            .with_seam_tolerance(tolerance);
        let world = World::new(&options)?;
        let tiles = world.add_mesh_in_tiles(piece, side)?.len();
        world.prepare_landmarks();
        (world.snapshot(), Some(world), tiles)
    };
    let made = started.elapsed();
    let mut mesh = mesh;
    if lane {
        let started = Instant::now();
        let built = match &world {
            Some(world) => {
                let built = world.prepare_fast_lane();
                mesh = world.snapshot();
                built
            }
            None => mesh.prepare_fast_lane(),
        };
        let took = started.elapsed();
        if !built {
            return Err(format!("layout {name}: no fast-lane index").into());
        }
        let stats = mesh.fast_lane_stats().ok_or("no stats")?;
        println!(
            "{name}: {tiles} tiles, {} polygons (made in {:.3} s); index built in {:.3} s: \
             {} corners, {} graph edges, {} labels, {} bytes ({:.0} per polygon)",
            mesh.polygon_count(),
            made.as_secs_f64(),
            took.as_secs_f64(),
            stats.corners,
            stats.edges,
            stats.labels,
            stats.bytes,
            stats.bytes as f64 / f64::from(mesh.polygon_count())
        );
    } else {
        println!(
            "{name}: {tiles} tiles, {} polygons, the fast lane off",
            mesh.polygon_count()
        );
    }
    Ok(Layout {
        name: name.to_string(),
        mesh,
        lane,
        _world: world,
    })
}

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "MAP SCEN LAYOUTS [COUNT [PASSES | once]]";
    let [map, scen, names, rest @ ..] = args.as_slice() else {
        return Err(usage.into());
    };
    let count: usize = rest.first().map_or(Ok(usize::MAX), |s| s.parse())?;
    let (piece, pairs) = scenario::load(map, scen, count)?;
    let options = PathOptions::default().with_mode(PathMode::Optimal);
    let up = piece.up_axis();
    let layouts = names
        .split(',')
        .map(|name| layout(&piece, name))
        .collect::<Result<Vec<_>, _>>()?;
    let mut queries: Vec<Query> = layouts
        .iter()
        .map(|l| {
            let mut query = Query::new(&l.mesh);
            query.set_landmarks(true);
            query.set_fast_lane(l.lane);
            query
        })
        .collect();
    if rest.get(1).is_some_and(|s| s == "once") {
        let query = &mut queries[0];
        let (mut total, mut answered) = (0.0, 0);
        for &(s, t) in &pairs {
            if let Ok(path) = query.find_path(s, t, &options)
                && path.status == PathStatus::Complete
            {
                total += scenario::length(up, path.corners);
            }
            answered += usize::from(query.fast_lane_corners_seen().is_some());
        }
        println!(
            "{}: {} queries, {answered} from the index, summed length {total:.3}",
            layouts[0].name,
            pairs.len()
        );
        return Ok(());
    }
    let passes: usize = rest.get(1).map_or(Ok(5), |s| s.parse())?;
    let (n, k) = (pairs.len(), layouts.len());
    let mut best = vec![vec![f64::INFINITY; n]; k];
    let mut lengths = vec![vec![f64::NAN; n]; k];
    let mut answered = vec![0usize; k];
    for pass in 0..passes {
        for (i, &(s, t)) in pairs.iter().enumerate() {
            for j in 0..k {
                let side = (j + i + pass) % k;
                let query = &mut queries[side];
                let (took, length) = scenario::timed(query, s, t, &options);
                best[side][i] = best[side][i].min(took);
                lengths[side][i] = length;
                if pass == 0 {
                    answered[side] += usize::from(query.fast_lane_corners_seen().is_some());
                }
            }
        }
    }
    let first_median = {
        let mut times = best[0].clone();
        times.sort_by(f64::total_cmp);
        scenario::quantile(&times, 0.5)
    };
    for (j, l) in layouts.iter().enumerate() {
        let differ = (0..n)
            .filter(|&i| {
                let (a, b) = (lengths[j][i], lengths[0][i]);
                let both_none = a.is_nan() && b.is_nan();
                let equal = (a - b).abs() <= 1e-4 * b.max(1.0);
                !both_none && !equal
            })
            .count();
        let times = &mut best[j];
        times.sort_by(f64::total_cmp);
        let median = scenario::quantile(times, 0.5);
        println!(
            "{}: median {median:.1} us ({:.2}x the first), p95 {:.1} us, mean {:.1} us; \
             {} of {n} from the index; lengths differ from the first on {differ}",
            l.name,
            median / first_median,
            scenario::quantile(times, 0.95),
            times.iter().sum::<f64>() / n as f64,
            answered[j],
        );
    }
    println!("{n} queries, {passes} passes");
    Ok(())
}
