//! Obstacles carved into a world at run time, on a benchmark level: the Iron Harvest
//! mesh `mesh/scene_mp_2p_01.mesh` of `../shared/data` (or `$NAVSTAR_DATA`) cut into
//! tiles of side 32, or the bundled `data/arena.mesh` cut into tiles of side 8 when the
//! shared data is absent. Prints two tables:
//!
//! 1. Add and remove: a disc of radius 1 at a random point of the mesh is added, then
//!    removed; median and p95 of each (the touched tiles rebuilt from their meshes as
//!    added, restitched, one snapshot published), with the polygons per touched tile.
//!    Then the same on a world of one tile, the whole level: the cost of rebuilding a
//!    large tile whole.
//! 2. Queries before and after 100 obstacles: the same random default-mode paths on the
//!    snapshot without obstacles and with 100 discs carved in; median and p95.
//!
//! Run: `cargo bench -p navstar --bench obstacles` (`-- --quick` for fewer repetitions).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use navstar::glam::Vec3;
use navstar::io::load_mesh_file;
use navstar::{
    MeshOptions, NavMesh, Obstacle, PathOptions, Query, QueryFilter, SplitMix64, World,
    WorldOptions,
};

fn percentile(sorted: &[Duration], q: f64) -> Duration {
    let rank = ((sorted.len() as f64 * q).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

/// The machine's load average over the last minute (`/proc/loadavg`), printed with the
/// times: on a shared machine it says how far to trust them.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "unknown".into())
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn summary(mut times: Vec<Duration>) -> String {
    times.sort_unstable();
    format!(
        "median {:8.1} us   p95 {:8.1} us   ({} runs)",
        micros(percentile(&times, 0.5)),
        micros(percentile(&times, 0.95)),
        times.len()
    )
}

/// The level and the side of its tiles.
fn level() -> (String, NavMesh, f32) {
    let shared = std::env::var_os("NAVSTAR_DATA").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data"),
        PathBuf::from,
    );
    let iron = shared.join("mesh/scene_mp_2p_01.mesh");
    let (path, side) = if iron.exists() {
        (iron, 32.0)
    } else {
        (
            Path::new(env!("CARGO_MANIFEST_DIR")).join("data/arena.mesh"),
            8.0,
        )
    };
    let mesh = load_mesh_file(&path, &MeshOptions::default()).expect("the level loads");
    (path.display().to_string(), mesh, side)
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let (name, mesh, side) = level();
    let cut = mesh
        .cut_into_tiles(side)
        .expect("the level cuts into tiles");
    let options = WorldOptions::default()
        .with_up_axis(mesh.up_axis())
        .with_max_tiles((cut.tiles.len() as u32).next_power_of_two());
    let world = World::new(&options).expect("a world");
    for (i, tile) in cut.tiles.iter().enumerate() {
        world
            .add_tile_with_links(&tile.mesh, &cut.links_from(i))
            .expect("a tile joins");
    }
    let up = mesh.up_axis();
    let tiled = world.snapshot().polygon_count();
    let per_tile = f64::from(tiled) / cut.tiles.len() as f64;
    println!(
        "{name}: {} polygons; cut into {} tiles of side {side}: {tiled} polygons ({per_tile:.0} per tile on average); load average {}",
        mesh.polygon_count(),
        cut.tiles.len(),
        load_average()
    );
    let mut rng = SplitMix64::new(0x0b57ac1e);
    let filter = QueryFilter::default();
    let mut point = || {
        mesh.random_point(&filter, &mut || rng.next_u64())
            .expect("the level has area")
            .point
    };
    let disc = |p: Vec3| Obstacle::circle(up.ground(p), 1.0).expect("a disc");

    // 1. Add and remove.
    let runs = if quick { 40 } else { 300 };
    let (mut adds, mut removes) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        let obstacle = disc(point());
        let started = Instant::now();
        let id = world.add_obstacle(&obstacle).expect("the disc is carved");
        adds.push(started.elapsed());
        let started = Instant::now();
        world.remove_obstacle(id).expect("the disc is removed");
        removes.push(started.elapsed());
    }
    println!("add a disc of radius 1:    {}", summary(adds));
    println!("remove it:                 {}", summary(removes));

    // 1b. The same on a world of one tile: the whole level (the tile rebuilt whole).
    let single = World::new(&WorldOptions::default().with_up_axis(up)).expect("a world");
    single.add_tile(&mesh).expect("the level is a tile");
    let (mut adds, mut removes) = (Vec::new(), Vec::new());
    for _ in 0..runs / 4 {
        let obstacle = disc(point());
        let started = Instant::now();
        let id = single.add_obstacle(&obstacle).expect("the disc is carved");
        adds.push(started.elapsed());
        let started = Instant::now();
        single.remove_obstacle(id).expect("the disc is removed");
        removes.push(started.elapsed());
    }
    let mut carves = Vec::new();
    for _ in 0..runs / 4 {
        let obstacle = disc(point());
        let started = Instant::now();
        let carved = mesh
            .with_obstacles(&[obstacle])
            .expect("the disc is carved");
        carves.push(started.elapsed());
        std::hint::black_box(carved);
    }
    println!("one tile of {} polygons:", mesh.polygon_count());
    println!("  carve alone (with_obstacles): {}", summary(carves));
    println!("  add a disc:              {}", summary(adds));
    println!("  remove it:               {}", summary(removes));

    // 2. Queries before and after 100 obstacles.
    let queries: Vec<(Vec3, Vec3)> = (0..if quick { 100 } else { 1000 })
        .map(|_| (point(), point()))
        .collect();
    let time_queries = |snapshot: &NavMesh| {
        let mut query = Query::new(snapshot);
        let options = PathOptions::default();
        for &(a, b) in queries.iter().take(10) {
            let _ = query.find_path(a, b, &options);
        }
        queries
            .iter()
            .map(|&(a, b)| {
                let started = Instant::now();
                let _ =
                    std::hint::black_box(query.find_path(a, b, &options).map(|p| p.corners.len()));
                started.elapsed()
            })
            .collect::<Vec<_>>()
    };
    let before_count = world.snapshot().polygon_count();
    let before = time_queries(&world.snapshot());
    let mut ids = Vec::new();
    let started = Instant::now();
    while ids.len() < 100 {
        let obstacle = disc(point());
        if let Ok(id) = world.add_obstacle(&obstacle) {
            ids.push(id);
        }
    }
    let added = started.elapsed();
    let snapshot = world.snapshot();
    let after = time_queries(&snapshot);
    println!(
        "queries, no obstacles:     {}  ({before_count} polygons)\nqueries, 100 obstacles:    {}  ({} polygons now; the 100 added in {:.1} ms)",
        summary(before),
        summary(after),
        snapshot.polygon_count(),
        added.as_secs_f64() * 1e3
    );
}
