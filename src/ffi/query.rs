//! Making and releasing query handles, and `navstar_find_path`.

use glam::Vec3;

use super::boundary::{FfiError, OutCount, OutSlice, read_point, run, run_void};
use super::handle::{self, HandleOut, NavstarMesh, NavstarQuery, QueryState};
use super::options::NavstarPathOptions;
use super::status::NavstarStatus;
use crate::{PathStatus, Query};

/// Creates a query (per-thread scratch memory) for `mesh`.
///
/// * `mesh` (in): the mesh to search; the query keeps its own reference to it.
/// * Fails with `NAVSTAR_ERROR_OUT_OF_MEMORY` when the query's scratch memory (about 72
///   bytes per polygon corner of the mesh) cannot be allocated.
/// * `out_query` (out): receives the query, or NULL on error. Release it with
///   `navstar_query_free`.
///
/// # Safety
/// `mesh` must be NULL or a live mesh; `out_query` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_query_create(
    mesh: *const NavstarMesh,
    out_query: *mut *mut NavstarQuery,
) -> NavstarStatus {
    run("navstar_query_create", || {
        let out_query = HandleOut::new(out_query, "out_query")?;
        let mesh = handle::borrow(mesh, "mesh")?;
        out_query.give(QueryState {
            query: Query::try_new(mesh)?,
            last_path: None,
        });
        Ok(NavstarStatus::NavstarOk)
    })
}

/// Releases a query. NULL does nothing.
///
/// # Safety
/// `query` must be NULL or a pointer returned by `navstar_query_create` that was not
/// freed yet, and not in use by another thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_query_free(query: *mut NavstarQuery) {
    run_void("navstar_query_free", || handle::free(query));
}

/// Finds a path from `start` to `goal`.
///
/// * `query` (in/out): the query; used by one thread at a time.
/// * `start`, `goal` (in): 3 floats each, world coordinates. Points off the mesh are
///   moved to the nearest point of the mesh (3D distance) within
///   `options->max_snap_distance`, among the polygons the filter admits. A goal the
///   filter moves (it lies in, above or below a polygon the filter refuses, nearer than
///   any admitted one) is not reached: the path to its moved point is
///   `NAVSTAR_PARTIAL_PATH` (`NAVSTAR_ERROR_NO_PATH` when partial paths are off).
/// * `options` (in, optional): NULL for defaults (A*, weight 1, partial paths allowed).
/// * `out_points` (out): room for `capacity` points (3 floats each). May be NULL only
///   when `capacity` is 0, which asks for the count alone.
/// * `out_count` (out): the number of points of the whole path (0 on error).
///
/// The first point is the snapped start, the last the snapped goal, or for
/// `NAVSTAR_PARTIAL_PATH` the reachable point closest to the goal. Start and goal in
/// one polygon or in direct sight give exactly 2 points. When the path has more than
/// `capacity` points, the first `capacity` are written and the call returns
/// `NAVSTAR_BUFFER_TOO_SMALL` (also when the path is partial; call again with a bigger
/// buffer to learn that). In steady state the call allocates no memory.
///
/// # Safety
/// `query` must be NULL or a live query not used by another thread; `start`/`goal`
/// NULL or 3 readable floats; `out_points` NULL or `3 * capacity` writable floats;
/// `out_count` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_find_path(
    query: *mut NavstarQuery,
    start: *const f32,
    goal: *const f32,
    options: *const NavstarPathOptions,
    out_points: *mut f32,
    capacity: u32,
    out_count: *mut u32,
) -> NavstarStatus {
    run("navstar_find_path", || {
        let state = forget_last_path(query);
        let out = OutCount::new(out_points.cast::<[f32; 3]>(), capacity, out_count)?;
        let state = state?;
        let start = read_point(start, "start")?;
        let goal = read_point(goal, "goal")?;
        let out = out.check_room("out_points")?;
        let options = NavstarPathOptions::read(options)?;
        let path = state.query.find_path(start, goal, &options)?;
        let status = path.status;
        let result = write_path(out, path.corners, status);
        state.last_path = Some(status);
        Ok(result)
    })
}

/// The state behind `query` with its last path forgotten: the first step of a path
/// call, so that the read-back functions answer `NAVSTAR_ERROR_NO_PATH` after it fails,
/// whatever argument it fails on. A NULL `query` is the error, for the call to report
/// in its turn.
pub(crate) fn forget_last_path<'a>(
    query: *mut NavstarQuery,
) -> Result<&'a mut QueryState, FfiError> {
    let state = handle::borrow_mut(query, "query")?;
    state.last_path = None;
    Ok(state)
}

/// Writes a path's corners to an output array of points: `NAVSTAR_BUFFER_TOO_SMALL`
/// when they do not all fit, else OK or PARTIAL_PATH by `status`.
pub(crate) fn write_path(
    out: OutSlice<[f32; 3]>,
    corners: &[Vec3],
    status: PathStatus,
) -> NavstarStatus {
    match out.write(corners.iter().map(|c| c.to_array())) {
        NavstarStatus::NavstarOk if status.is_partial() => NavstarStatus::NavstarPartialPath,
        written => written,
    }
}
