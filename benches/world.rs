//! The world of tiles against the one-piece mesh, on the benchmark maps of
//! `../shared/data` (skipped when absent). Prints three tables:
//!
//! 1. Query time: the same scenario queries on the one-piece mesh and on a world of the
//!    mesh cut into tiles (`NavMesh::cut_into_tiles`), both path modes. Each query runs
//!    once to warm up, then 3 times on each mesh in turn; its time is the fastest of the
//!    3 (as the compare benchmark measures). Median and p95 per mesh and mode, their
//!    ratios, the largest difference of exact-mode lengths (relative), and the search
//!    nodes expanded by all the queries on each (`Query::last_search_stats`; also on
//!    the world without its landmark tables). The world's tables are built by
//!    `World::prepare_landmarks` after its tiles are added (its time and bytes are
//!    printed per map); the one piece builds its own on first use, before the timing.
//!    The level mesh and den520d are cut at two tile sizes (small tiles cost more
//!    seams).
//! 2. Tile changes: a world of a few hundred tiles (3 x 3 copies of maze512-1-0 cut into
//!    tiles of about 1,000 polygons); the time to remove a tile and to add it back,
//!    as a mesh already added before (its merged copy made) and as a fresh mesh.
//! 3. Query creation: time of `Query::new` and its scratch bytes, on maze512-1-0 (39,937
//!    polygons) and on the world of table 2.
//!
//! 4. Streaming (only when asked for: `-- streaming`): the world of table 2 with its
//!    landmark tables prepared, then 10 random steps (a tile removed, added back, or
//!    replaced by an equal mesh built again); the nodes expanded and the time of a fixed
//!    set of long exact-mode queries with the tables the world kept, without tables,
//!    and with tables built again on the world as it is.
//!
//! Run: `cargo bench -p navstar --bench world` (`-- --quick` for fewer queries and
//! changes; `-- queries`, `-- changes` or `-- creation` for one table; `-- --landmarks`
//! prepares the world's landmark tables before table 2's changes, which keep them;
//! `NAVSTAR_DATA=dir` reads the maps from `dir` instead).

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

// Table 4, in a file of its own (a subfolder, so that cargo does not take it for a bench).
#[path = "world/streaming.rs"]
mod streaming;

use navstar::io::{PolygonSoup, ScenarioProblem, load_mesh_file, parse_scenario};
use navstar::{
    MeshOptions, NavMesh, PathMode, PathOptions, Query, TileRef, UpAxis, World, WorldOptions,
    glam::Vec3,
};

/// A benchmark map: its file, its scenario, whether the scenario's points are grid cells,
/// and the side of the tiles it is cut into.
struct Map {
    file: &'static str,
    grid: bool,
    tile_size: f32,
}

const MAPS: &[Map] = &[
    Map {
        file: "grid/maze512-1-0.map",
        grid: true,
        tile_size: 64.0,
    },
    Map {
        file: "grid/den520d.map",
        grid: true,
        tile_size: 32.0,
    },
    Map {
        file: "grid/den520d.map",
        grid: true,
        tile_size: 64.0,
    },
    Map {
        file: "mesh/scene_mp_2p_01.mesh",
        grid: false,
        tile_size: 32.0,
    },
    Map {
        file: "mesh/scene_mp_2p_01.mesh",
        grid: false,
        tile_size: 128.0,
    },
];

/// `path` in the benchmark data: `$NAVSTAR_DATA` when set, else `../shared/data` beside
/// the crate.
fn data(path: &str) -> PathBuf {
    std::env::var_os("NAVSTAR_DATA")
        .map_or_else(
            || Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data"),
            PathBuf::from,
        )
        .join(path)
}

/// The value at fraction `q` of `sorted` (nearest rank).
fn percentile(sorted: &[Duration], q: f64) -> Duration {
    let rank = ((sorted.len() as f64 * q).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

/// The machine's load average over the last minute (`/proc/loadavg`), printed with the
/// wall-clock tables: on a shared machine it says how far to trust them.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "unknown".into())
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn ground_length(up: UpAxis, corners: &[Vec3]) -> f64 {
    corners
        .windows(2)
        .map(|w| (up.ground(w[1]).as_dvec2() - up.ground(w[0]).as_dvec2()).length())
        .sum()
}

/// A world of the tiles of `mesh` cut at `tile_size`, and its tile count.
fn world_of(mesh: &NavMesh, tile_size: f32) -> (World, usize) {
    let cut = mesh.cut_into_tiles(tile_size).expect("the map cuts");
    let options = WorldOptions::default()
        .with_up_axis(mesh.up_axis())
        .with_max_tiles(1024);
    let world = World::new(&options).expect("options");
    for tile in &cut.tiles {
        world.add_tile(&tile.mesh).expect("the tile fits");
    }
    (world, cut.tiles.len())
}

/// The fastest of 3 runs of `query` from `s` to `t` (after one to warm up), the
/// path's ground length (`None` without a complete path) and the search nodes the
/// query expanded.
fn time_query(
    query: &mut Query,
    s: Vec3,
    t: Vec3,
    options: &PathOptions,
) -> (Duration, Option<f64>, u64) {
    let up = query.mesh().up_axis();
    let length = query
        .find_path(s, t, options)
        .ok()
        .filter(|p| p.status == navstar::PathStatus::Complete)
        .map(|p| ground_length(up, p.corners));
    let expanded = query.last_search_stats().expanded;
    let best = (0..3)
        .map(|_| {
            let start = Instant::now();
            black_box(query.find_path(black_box(s), black_box(t), options).ok());
            start.elapsed()
        })
        .min()
        .expect("3 runs");
    (best, length, expanded)
}

fn queries(map: &Map, count: usize) -> Vec<(Vec3, Vec3)> {
    let scen = data(&format!("{}.scen", map.file));
    let file = std::fs::File::open(&scen).expect("the scenario opens");
    let problems: Vec<ScenarioProblem> =
        parse_scenario(std::io::BufReader::new(file)).expect("the scenario parses");
    let step = (problems.len() / count).max(1);
    problems
        .iter()
        .step_by(step)
        .take(count)
        .map(|p| {
            if map.grid {
                (p.grid_start(), p.grid_goal())
            } else {
                (p.mesh_start(), p.mesh_goal())
            }
        })
        .collect()
}

fn query_times(quick: bool) {
    println!(
        "| mesh | polygons | tiles (side) | mode | queries | median µs one piece | tiled | ratio | p95 µs one piece | tiled | ratio | max exact length difference | nodes expanded, one piece | tiled | ratio | tiled without its tables | ratio to one piece |"
    );
    println!("|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for map in MAPS {
        let path = data(map.file);
        if !path.exists() {
            eprintln!("skipping {}: not found", path.display());
            continue;
        }
        let mesh = load_mesh_file(&path, &MeshOptions::default()).expect("the map loads");
        let (world, tiles) = world_of(&mesh, map.tile_size);
        let start = Instant::now();
        let prepared = world.prepare_landmarks();
        let build = start.elapsed();
        let snapshot = world.snapshot();
        mesh.prepare_landmarks();
        eprintln!(
            "{}: world tables {} in {:.1} ms, {:.0} bytes per polygon (one piece: {:.0})",
            map.file,
            if prepared { "built" } else { "not built" },
            build.as_secs_f64() * 1e3,
            world.landmark_bytes() as f64 / f64::from(snapshot.polygon_count().max(1)),
            mesh.landmark_bytes() as f64 / f64::from(mesh.polygon_count().max(1)),
        );
        let pairs = queries(map, if quick { 100 } else { 500 });
        for mode in [PathMode::Funnel, PathMode::Optimal] {
            let mut options = PathOptions::default();
            options.mode = mode;
            let (mut one, mut tiled) = (Query::new(&mesh), Query::new(&snapshot));
            // The world without its tables: what the tables save on it.
            let mut plain = Query::new(&snapshot);
            plain.set_landmarks(false);
            // Both with their tables whatever their size.
            one.set_landmarks(true);
            tiled.set_landmarks(true);
            let (mut times_one, mut times_tiled) = (Vec::new(), Vec::new());
            let mut worst = 0.0f64;
            let (mut nodes_one, mut nodes_tiled, mut nodes_plain) = (0u64, 0u64, 0u64);
            for &(s, t) in &pairs {
                let (a, la, na) = time_query(&mut one, s, t, &options);
                let (b, lb, nb) = time_query(&mut tiled, s, t, &options);
                nodes_one += na;
                nodes_tiled += nb;
                plain.find_path(s, t, &options).ok();
                nodes_plain += plain.last_search_stats().expanded;
                times_one.push(a);
                times_tiled.push(b);
                if mode == PathMode::Optimal {
                    match (la, lb) {
                        (Some(a), Some(b)) => worst = worst.max((a - b).abs() / a.max(1.0)),
                        (None, None) => {}
                        _ => worst = f64::INFINITY,
                    }
                }
            }
            times_one.sort_unstable();
            times_tiled.sort_unstable();
            let (m1, m2) = (percentile(&times_one, 0.5), percentile(&times_tiled, 0.5));
            let (p1, p2) = (percentile(&times_one, 0.95), percentile(&times_tiled, 0.95));
            let name = Path::new(map.file).file_name().unwrap().to_string_lossy();
            println!(
                "| {name} | {} / {} | {tiles} ({}) | {} | {} | {:.1} | {:.1} | {:.2} | {:.1} | {:.1} | {:.2} | {} | {} | {} | {:.2} | {} | {:.2} |",
                mesh.polygon_count(),
                snapshot.polygon_count(),
                map.tile_size,
                if mode == PathMode::Optimal {
                    "exact"
                } else {
                    "funnel"
                },
                pairs.len(),
                micros(m1),
                micros(m2),
                m2.as_secs_f64() / m1.as_secs_f64(),
                micros(p1),
                micros(p2),
                p2.as_secs_f64() / p1.as_secs_f64(),
                if mode == PathMode::Optimal {
                    format!("{worst:.1e}")
                } else {
                    "-".into()
                },
                nodes_one,
                nodes_tiled,
                nodes_tiled as f64 / nodes_one.max(1) as f64,
                nodes_plain,
                nodes_plain as f64 / nodes_one.max(1) as f64,
            );
        }
    }
}

/// `mesh` moved by `offset`, built again from its polygons.
fn moved(mesh: &NavMesh, offset: Vec3) -> NavMesh {
    let soup = PolygonSoup::from_mesh(mesh);
    let vertices: Vec<Vec3> = soup.vertices.iter().map(|&v| v + offset).collect();
    let options = MeshOptions::default().with_up_axis(mesh.up_axis());
    NavMesh::from_polygons(&vertices, &soup.indices, &soup.polygon_sizes, &options)
        .expect("a moved tile builds")
}

/// A world, its tiles with the meshes they were added as, and the index of one tile.
type ChangeWorld = (World, Vec<(TileRef, NavMesh)>, usize);

/// The world of table 2 (3 x 3 copies of maze512-1-0 cut at side 90), its tiles with
/// the meshes they were added as, and the index of the tile of about 1,000 polygons
/// nearest its middle; `None` when the map is absent.
fn change_world() -> Option<ChangeWorld> {
    let path = data("grid/maze512-1-0.map");
    if !path.exists() {
        eprintln!("skipping tile changes: {} not found", path.display());
        return None;
    }
    let mesh = load_mesh_file(&path, &MeshOptions::default()).expect("the map loads");
    let cut = mesh.cut_into_tiles(90.0).expect("the map cuts");
    let options = WorldOptions::default()
        .with_up_axis(mesh.up_axis())
        .with_max_tiles(1024);
    let world = World::new(&options).expect("options");
    let side = 512.0;
    let mut tiles = Vec::new();
    for row in 0..3 {
        for column in 0..3 {
            let offset = Vec3::new(column as f32 * side, row as f32 * side, 0.0);
            for tile in &cut.tiles {
                let t = moved(&tile.mesh, offset);
                tiles.push((world.add_tile(&t).expect("the tile fits"), t));
            }
        }
    }
    // The tile with about 1,000 polygons nearest the middle of the world.
    let middle = tiles.len() / 2;
    let (index, _) = tiles
        .iter()
        .enumerate()
        .filter(|(_, (_, t))| t.polygon_count().abs_diff(1000) < 150)
        .min_by_key(|(i, _)| i.abs_diff(middle))
        .expect("a tile of about 1,000 polygons");
    Some((world, tiles, index))
}

/// Prepares the landmark tables of `world`, printing the time and bytes.
fn prepare(world: &World) {
    let start = Instant::now();
    assert!(world.prepare_landmarks(), "the world gets tables");
    println!(
        "Landmark tables prepared in {:.0} ms, {} bytes.",
        start.elapsed().as_secs_f64() * 1e3,
        world.landmark_bytes()
    );
}

fn tile_changes(quick: bool, landmarks: bool) -> Option<NavMesh> {
    let (world, tiles, index) = change_world()?;
    if landmarks {
        prepare(&world);
    }
    let snapshot = world.snapshot();
    let (mut tile_ref, tile) = tiles[index].clone();
    let rounds = if quick { 20 } else { 100 };
    let (mut removes, mut adds, mut fresh_adds) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..2 * rounds {
        let start = Instant::now();
        world.remove_tile(tile_ref).expect("the tile is there");
        removes.push(start.elapsed());
        let fresh = (round % 2 == 1).then(|| moved(&tile, Vec3::ZERO));
        let start = Instant::now();
        tile_ref = world
            .add_tile(fresh.as_ref().unwrap_or(&tile))
            .expect("the tile fits again");
        let took = start.elapsed();
        assert!(
            !landmarks || world.landmark_bytes() > 0,
            "the tables are kept"
        );
        if fresh.is_some() {
            fresh_adds.push(took);
        } else {
            adds.push(took);
        }
    }
    for list in [&mut removes, &mut adds, &mut fresh_adds] {
        list.sort_unstable();
    }
    println!();
    println!(
        "World of {} tiles, {} polygons; the tile changed: {} polygons, {} rounds; load average {}.",
        world.tile_count(),
        snapshot.polygon_count(),
        tile.polygon_count(),
        rounds,
        load_average()
    );
    println!();
    println!("| change | median µs | p95 µs |");
    println!("|---|---:|---:|");
    for (name, list) in [
        ("remove the tile", &removes),
        ("add it back (same mesh)", &adds),
        (
            "add it back (fresh mesh: its merged copy made)",
            &fresh_adds,
        ),
    ] {
        println!(
            "| {name} | {:.0} | {:.0} |",
            micros(percentile(list, 0.5)),
            micros(percentile(list, 0.95))
        );
    }
    Some(world.snapshot())
}

fn query_creation(world: Option<NavMesh>) {
    let path = data("grid/maze512-1-0.map");
    if !path.exists() {
        return;
    }
    let maze = load_mesh_file(&path, &MeshOptions::default()).expect("the map loads");
    // Query points: centres of polygons spread over the maze (the world's first copy of
    // it covers the same ground).
    let count = maze.polygon_count();
    let points: Vec<Vec3> = (0..200u32)
        .map(|i| {
            let corners = maze.polygon_vertices(i * 7919 % count);
            let v = maze.vertices();
            corners.iter().map(|&c| v[c as usize]).sum::<Vec3>() / corners.len() as f32
        })
        .collect();
    let mut meshes = vec![("maze512-1-0.map", maze.clone())];
    meshes.extend(world.map(|w| ("the world of tile changes", w)));
    println!();
    println!(
        "| mesh | polygons | Query::new median µs | scratch bytes after creation | after 100 default-mode queries | after 100 more exact-mode queries |"
    );
    println!("|---|---:|---:|---:|---:|---:|");
    for (name, mesh) in meshes {
        let mut times: Vec<Duration> = (0..1000)
            .map(|_| {
                let start = Instant::now();
                black_box(Query::new(black_box(&mesh)));
                start.elapsed()
            })
            .collect();
        times.sort_unstable();
        let mut query = Query::new(&mesh);
        let created = query.scratch_bytes();
        let mut exact = PathOptions::default();
        exact.mode = PathMode::Optimal;
        let mut after = [0usize; 2];
        for (k, options) in [PathOptions::default(), exact].iter().enumerate() {
            for pair in points.chunks(2) {
                black_box(query.find_path(pair[0], pair[1], options).ok());
            }
            after[k] = query.scratch_bytes();
        }
        println!(
            "| {name} | {} | {:.2} | {} | {} | {} |",
            mesh.polygon_count(),
            micros(percentile(&times, 0.5)),
            created,
            after[0],
            after[1]
        );
    }
}

fn main() {
    // `cargo bench` passes `--bench`; `--quick` runs fewer queries and changes; the
    // words `queries`, `changes` and `creation` pick tables (all without any).
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--quick");
    let landmarks = args.iter().any(|a| a == "--landmarks");
    let picked: Vec<&str> = ["queries", "changes", "creation", "streaming"]
        .into_iter()
        .filter(|t| args.iter().any(|a| a == t))
        .collect();
    let wants = |table: &str| picked.is_empty() || picked.contains(&table);
    if picked.contains(&"streaming") {
        streaming::streaming_queries(quick);
        return;
    }
    if wants("queries") {
        query_times(quick);
    }
    if wants("changes") || wants("creation") {
        let world = tile_changes(quick, landmarks);
        if wants("creation") {
            query_creation(world);
        }
    }
}
