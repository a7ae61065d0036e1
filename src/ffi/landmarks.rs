//! The landmark heuristic through the C ABI: building a mesh's table at load time, and
//! a query's choice of whether its searches use it (`Query::set_landmarks`).

use super::boundary::{FfiError, put, run};
use super::handle::{self, NavstarMesh, NavstarQuery, NavstarWorld};
use super::status::NavstarStatus;

/// `navstar_query_set_landmarks`: the table on meshes of at least 500 polygons (the
/// default, `LANDMARK_MIN_POLYGONS`).
pub const NAVSTAR_LANDMARKS_BY_SIZE: u32 = 0;
/// `navstar_query_set_landmarks`: always (where the mesh has a table).
pub const NAVSTAR_LANDMARKS_ON: u32 = 1;
/// `navstar_query_set_landmarks`: never; the searches use straight-line estimates.
pub const NAVSTAR_LANDMARKS_OFF: u32 = 2;

/// Builds the mesh's landmark table now, if it has none yet (geodesic distances from 8
/// landmark points that sharpen both path modes' estimates, valid under flag changes,
/// filters and area costs; see the README's "Landmark heuristic"). Otherwise the first
/// search that uses it builds it, on that query's thread: about 0.1-1.3 s on meshes of
/// thousands of polygons, so call this at load time. Safe to call from any thread, also
/// while other threads query the mesh.
///
/// * `out_has_table` (out, optional): 1 when the mesh has a table now, 0 when it gets
///   none (a mesh with off-mesh links, or without portals).
///
/// # Safety
/// `mesh` NULL or a live mesh; `out_has_table` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_mesh_prepare_landmarks(
    mesh: *const NavstarMesh,
    out_has_table: *mut u32,
) -> NavstarStatus {
    run("navstar_mesh_prepare_landmarks", || {
        let mesh = handle::borrow(mesh, "mesh")?;
        put(out_has_table, u32::from(mesh.prepare_landmarks()));
        Ok(NavstarStatus::NavstarOk)
    })
}

/// Builds landmark tables for `world` as it is now and publishes a snapshot that has
/// them (`World::prepare_landmarks`). A world never builds them on the query path: its
/// snapshots have tables only from this call. Later snapshots keep them while the world's
/// ground lies within the ground they were built on: through removals and added
/// obstacles (`navstar_world_remove_tile`, `navstar_world_add_obstacle`), and through
/// changes that bring that ground back (a tile removed and added back, in whatever slot,
/// a tile replaced by an equal mesh, an obstacle added after the build moved or
/// removed). Ground they never saw (a tile that was not in the world at the build, an
/// obstacle present at the build moved or removed) keeps them too, every bound towards a
/// goal capped at the goal's distance to the tiles holding that ground; they are dropped
/// when the tiles without bounds (new ones, and those stitched again to them) hold more
/// than a tenth of the world's corners, or more than 64 tiles hold new ground: call this again then (prepare on the whole world,
/// then stream tiles out and in). It builds without the world's writer lock (tile
/// changes and queries go on meanwhile; about 0.1-0.5 s per few thousand polygons);
/// ground added meanwhile caps the new tables the same way. Snapshots taken before this call stay without tables: queries use the
/// tables on snapshots taken after it (`navstar_world_snapshot`).
///
/// * `out_has_table` (out, optional): 1 when the world has tables now, 0 when it gets
///   none (no portals; a world with off-mesh links gets tables for its merged copy
///   only, which the exact mode searches without links).
///
/// # Safety
/// `world` NULL or a live world; `out_has_table` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_world_prepare_landmarks(
    world: *const NavstarWorld,
    out_has_table: *mut u32,
) -> NavstarStatus {
    run("navstar_world_prepare_landmarks", || {
        let state = handle::borrow(world, "world")?;
        put(out_has_table, u32::from(state.world.prepare_landmarks()));
        Ok(NavstarStatus::NavstarOk)
    })
}

/// Chooses whether `query`'s path searches use the mesh's landmark table:
/// `NAVSTAR_LANDMARKS_BY_SIZE` (the default: on meshes of at least 500 polygons),
/// `NAVSTAR_LANDMARKS_ON` or `NAVSTAR_LANDMARKS_OFF`. The exact mode's answers are the
/// same either way; the default mode's may differ where the search order changes its
/// choice among corridors. `NAVSTAR_ERROR_INVALID_ARGUMENT` naming `mode` for another
/// value (the query is unchanged).
///
/// # Safety
/// `query` NULL or a live query not used by another thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_query_set_landmarks(
    query: *mut NavstarQuery,
    mode: u32,
) -> NavstarStatus {
    run("navstar_query_set_landmarks", || {
        let state = handle::borrow_mut(query, "query")?;
        match mode {
            NAVSTAR_LANDMARKS_BY_SIZE => state.query.set_landmarks_by_size(),
            NAVSTAR_LANDMARKS_ON => state.query.set_landmarks(true),
            NAVSTAR_LANDMARKS_OFF => state.query.set_landmarks(false),
            _ => {
                return Err(FfiError::invalid(format!(
                    "mode must be NAVSTAR_LANDMARKS_BY_SIZE (0), ON (1) or OFF (2), not {mode}"
                )));
            }
        }
        Ok(NavstarStatus::NavstarOk)
    })
}
