//! The same scenario queries on a one-piece mesh or on a world of its tiles, one side and
//! one path mode per run, for counting instructions (callgrind) rather than timing: the
//! queries run once each, and everything before them (loading, cutting, the landmark
//! tables) sits outside `Query::find_path`, so `--toggle-collect` on it counts the queries
//! alone. Prints the nodes expanded and the summed ground length, so that two runs can be
//! checked to have searched the same.
//!
//! Run: `cargo run --release --example world_instructions -- MAP SCEN
//! piece|world|world-new|world-bare funnel|exact [TILE_SIDE [COUNT]]` (tile side 64, 100
//! problems spread over the scenario). `world` has tables built on the whole world,
//! `world-new` tables built with the middle tile of the cut left out, added after (new
//! ground, which caps the bounds near it), `world-bare` none. Under callgrind:
//! `valgrind --tool=callgrind --toggle-collect='*find_path*'
//! target/release/examples/world_instructions MAP SCEN world exact`.

#[path = "shared/scenario.rs"]
mod scenario;

use std::error::Error;
use std::fs::File;
use std::io::BufReader;

use navstar::io::{load_mesh_file, parse_scenario};
use navstar::{
    MeshOptions, NavMesh, PathMode, PathOptions, PathStatus, Query, World, WorldOptions,
};

/// Which landmark tables a world gets (see the usage line).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Tables {
    /// Built on the whole world.
    Whole,
    /// Built with the middle tile of the cut left out, which is added after as new
    /// ground.
    NewGround,
    /// None.
    Bare,
}

/// The snapshot of a world of `mesh` cut into tiles of side `side`, with the landmark
/// tables `tables` says.
fn world_of(mesh: &NavMesh, side: f32, tables: Tables) -> Result<NavMesh, Box<dyn Error>> {
    let cut = mesh.cut_into_tiles(side)?;
    let options = WorldOptions::default()
        .with_up_axis(mesh.up_axis())
        .with_max_tiles(1024);
    let world = World::new(&options)?;
    let middle = cut.tiles.len() / 2;
    let late = |i: usize| tables == Tables::NewGround && i == middle;
    for (i, tile) in cut.tiles.iter().enumerate() {
        if !late(i) {
            world.add_tile(&tile.mesh)?;
        }
    }
    if tables != Tables::Bare && !world.prepare_landmarks() {
        return Err("the world's landmark tables were not built".into());
    }
    for (i, tile) in cut.tiles.iter().enumerate() {
        if late(i) {
            world.add_tile(&tile.mesh)?;
        }
    }
    if tables != Tables::Bare && world.landmark_bytes() == 0 {
        return Err("the world dropped its landmark tables".into());
    }
    Ok(world.snapshot())
}

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "MAP SCEN piece|world|world-new|world-bare funnel|exact [TILE_SIDE [COUNT]]";
    let [map, scen, side_name, mode_name, rest @ ..] = args.as_slice() else {
        return Err(usage.into());
    };
    let tile_side: f32 = rest.first().map_or(Ok(64.0), |s| s.parse())?;
    let count: usize = rest.get(1).map_or(Ok(100), |s| s.parse())?;
    let mode = match mode_name.as_str() {
        "funnel" => PathMode::Funnel,
        "exact" => PathMode::Optimal,
        _ => return Err(usage.into()),
    };
    let piece = load_mesh_file(std::path::Path::new(map), &MeshOptions::default())?;
    let mesh = match side_name.as_str() {
        "piece" => {
            piece.prepare_landmarks();
            piece
        }
        "world" => world_of(&piece, tile_side, Tables::Whole)?,
        "world-new" => world_of(&piece, tile_side, Tables::NewGround)?,
        "world-bare" => world_of(&piece, tile_side, Tables::Bare)?,
        _ => return Err(usage.into()),
    };
    let problems = parse_scenario(BufReader::new(File::open(scen)?))?;
    let pairs = scenario::spread(&problems, count);
    let mut options = PathOptions::default();
    options.mode = mode;
    let mut query = Query::new(&mesh);
    query.set_landmarks(true);
    let up = mesh.up_axis();
    let (mut nodes, mut length) = (0u64, 0.0f64);
    for &(s, t) in &pairs {
        if let Ok(path) = query.find_path(s, t, &options)
            && path.status == PathStatus::Complete
        {
            length += path
                .corners
                .windows(2)
                .map(|w| (up.ground(w[1]).as_dvec2() - up.ground(w[0]).as_dvec2()).length())
                .sum::<f64>();
        }
        nodes += query.last_search_stats().expanded;
    }
    println!(
        "{side_name} {mode_name}: {} queries, {nodes} nodes expanded, summed length {length:.3}",
        pairs.len()
    );
    Ok(())
}
