//! The exact mode's fast lane through the C ABI: building a mesh's index at load time
//! (`NavMesh::prepare_fast_lane`), and a query's choice of whether its exact-mode paths
//! are answered from it (`Query::set_fast_lane`).

use super::boundary::{FfiError, put, run};
use super::handle::{self, NavstarMesh, NavstarQuery};
use super::status::NavstarStatus;

/// Builds the mesh's fast-lane index now, if it has none yet, with no limit on its size,
/// and says whether the mesh has one (`NavMesh::prepare_fast_lane`). The index holds the
/// wall corners where a shortest path can bend and the shortest distances between them,
/// so that exact-mode paths (`NAVSTAR_PATH_OPTIMAL`, and `NAVSTAR_PATH_AUTO` where it
/// runs the exact mode) are answered without a search, with the same lengths as the
/// search. Without this call, a query builds it on its first exact-mode path on a mesh
/// of at least 500 polygons (`FAST_LANE_MIN_POLYGONS`), on that query's thread and
/// within a size budget (0.02-0.11 s on the benchmark maps; a mesh of more than 16,384
/// corners, or whose labels would take more than 128 entries per polygon, gets none
/// that way); a smaller mesh uses one only after this call. So call it at load time,
/// before queries start: a lazy build begun first is the one kept. The index depends on
/// the geometry only: flag changes (`navstar_mesh_set_polygon_flags`) never make it
/// wrong. A query whose filter refuses a polygon or that has a node limit
/// (`navstar_query_create_ex`) searches as before; with an agent radius the eroded copy
/// gets its own index on first use, by the 500-polygon rule. Its memory grows with the
/// corners times their hub labels (16 bytes per label).
///
/// * `out_has_index` (out, optional): 1 when the mesh has an index now, 0 when it gets
///   none (a mesh with off-mesh links, or a lazy build that went over its budget
///   first). A world's snapshot gets one for itself alone; for the world's later
///   snapshots use `navstar_world_prepare_fast_lane`. Unchanged on an error.
///
/// Safe to call from any thread, also while other threads query the mesh: the index is
/// built once (the first caller builds, others wait) and read without locks.
///
/// # Safety
/// `mesh` NULL or a live mesh; `out_has_index` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_mesh_prepare_fast_lane(
    mesh: *const NavstarMesh,
    out_has_index: *mut u32,
) -> NavstarStatus {
    run("navstar_mesh_prepare_fast_lane", || {
        let mesh = handle::borrow(mesh, "mesh")?;
        put(out_has_index, u32::from(mesh.prepare_fast_lane()));
        Ok(NavstarStatus::NavstarOk)
    })
}

/// Chooses whether `query` answers exact-mode paths from the mesh's fast-lane index
/// (see `navstar_mesh_prepare_fast_lane`): `on` 1 (the default) or 0. On, a path the
/// index answers takes no search (`navstar_query_nodes_expanded` reads 0 after it); off,
/// or where the mesh has no index, the exact search runs. The path's length is the same
/// either way (up to rounding); where two ways are equally short the corners may differ.
/// `NAVSTAR_ERROR_INVALID_ARGUMENT` naming `on` for another value (the query is
/// unchanged).
///
/// # Safety
/// `query` NULL or a live query not used by another thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_query_set_fast_lane(
    query: *mut NavstarQuery,
    on: u32,
) -> NavstarStatus {
    run("navstar_query_set_fast_lane", || {
        let state = handle::borrow_mut(query, "query")?;
        let on = match on {
            0 => false,
            1 => true,
            _ => {
                return Err(FfiError::invalid(format!(
                    "on must be 0 (off) or 1 (on), not {on}"
                )));
            }
        };
        state.query.set_fast_lane(on);
        Ok(NavstarStatus::NavstarOk)
    })
}
