//! `--tile-size`: the mesh cut into square tiles ([`navstar::NavMesh::cut_into_tiles`]),
//! the tiles joined in a [`World`], and its snapshot queried instead of the mesh, so that
//! every path command can be compared on a tiled world and on the mesh in one piece.

use std::time::Instant;

use navstar::{NavMesh, Obstacle, World, WorldOptions};

use crate::common::{LoadedMesh, Tiling, load_mesh};
use crate::error::CliError;
use crate::options::PathArgs;

/// Loads the mesh file `path` for a path-finding command: with `--tile-size S`, the mesh
/// is cut into tiles of side S, they are added to a world, and the world's snapshot is
/// the mesh the command queries.
///
/// # Errors
/// As [`load_mesh`]; a failure naming the file when the mesh cannot be cut (a tile size
/// too small for it, say) or a tile cannot join the world.
///
/// With `--obstacle`, the discs are carved out of the mesh (of the world's tiles with
/// `--tile-size`) before any query.
pub fn load_path_mesh(path: &str, args: &PathArgs) -> Result<LoadedMesh, CliError> {
    let mut loaded = load_mesh(path, args.mesh.up_axis())?;
    if let Some(tile_size) = args.tile_size {
        let (world, tiling) = join_tiles(&loaded.mesh, tile_size, &args.obstacles)
            .map_err(|e| CliError::failure(format!("{path}: {e}")))?;
        loaded.mesh = world;
        loaded.tiling = Some(tiling);
    } else if !args.obstacles.is_empty() {
        loaded.mesh = loaded
            .mesh
            .with_obstacles(&args.obstacles)
            .map_err(|e| CliError::failure(format!("{path}: --obstacle: {e}")))?;
    }
    loaded.obstacles.clone_from(&args.obstacles);
    Ok(loaded)
}

/// Cuts `mesh` into tiles of side `tile_size` and joins them in a world; its snapshot.
fn join_tiles(
    mesh: &NavMesh,
    tile_size: f32,
    obstacles: &[Obstacle],
) -> Result<(NavMesh, Tiling), String> {
    let started = Instant::now();
    let cut = mesh.cut_into_tiles(tile_size).map_err(|e| e.to_string())?;
    let bounds = mesh.bounds();
    let largest = bounds.min.abs().max(bounds.max.abs()).max_element();
    let options = WorldOptions::default()
        .with_up_axis(mesh.up_axis())
        .with_max_tiles((cut.tiles.len() as u32).next_power_of_two())
        .with_seam_tolerance(seam_tolerance(largest));
    let world = World::new(&options).map_err(|e| e.to_string())?;
    // Links whose ends fall in different tiles start in one: the world attaches their
    // far ends to whichever tile holds them.
    world
        .add_tiles(&cut)
        .map_err(|e| format!("the tiles of side {tile_size} cannot join the world: {e}"))?;
    for obstacle in obstacles {
        world
            .add_obstacle(obstacle)
            .map_err(|e| format!("--obstacle: {e}"))?;
    }
    // The world is made once and then only queried: its landmark tables pay as a
    // one-piece mesh's do, on meshes of the size where those are built by default.
    if mesh.polygon_count() >= navstar::LANDMARK_MIN_POLYGONS {
        world.prepare_landmarks();
    }
    let tiling = Tiling {
        tile_size,
        grid: (cut.columns, cut.rows),
        squares: cut.tiles.iter().map(|t| (t.min, t.max)).collect(),
        whole: mesh.clone(),
        time: started.elapsed(),
    };
    Ok((world.snapshot(), tiling))
}

/// The seam tolerance of a world of cut tiles whose coordinates reach `largest`: the
/// default, or more where f32 steps are coarse. The cutter leaves a tile border off its
/// grid line only where a polygon corner lies within 64 f32 steps of the line.
fn seam_tolerance(largest: f32) -> f32 {
    let steps = 128.0 * f32::EPSILON * largest;
    WorldOptions::default().seam_tolerance.max(steps)
}
