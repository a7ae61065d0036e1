//! Making and releasing query handles, and `navstar_find_path`.

use glam::Vec3;

use super::boundary::{FfiError, OutCount, OutSlice, read_point, run, run_void};
use super::handle::{self, HandleOut, NavstarMesh, NavstarQuery, QueryState};
use super::options::{NavstarPathOptions, NavstarQueryOptions};
use super::status::NavstarStatus;
use crate::{PathStatus, Query};

/// Creates a query (per-thread search state) for `mesh`, with no node limit: as
/// `navstar_query_create_ex` with NULL options.
///
/// # Safety
/// `mesh` must be NULL or a live mesh; `out_query` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_query_create(
    mesh: *const NavstarMesh,
    out_query: *mut *mut NavstarQuery,
) -> NavstarStatus {
    run("navstar_query_create", || {
        create(mesh, std::ptr::null(), out_query)
    })
}

/// Creates a query (per-thread search state) for `mesh`, with options.
///
/// * `mesh` (in): the mesh to search; the query keeps its own reference to it.
/// * `options` (in, optional): NULL for defaults (no node limit); otherwise its
///   `struct_size` must be set (`navstar_query_options_default()`).
/// * `out_query` (out): receives the query, or NULL on error. Release it with
///   `navstar_query_free`.
///
/// Creation allocates no search memory, whatever the size of the mesh: the searches
/// grow it as they touch nodes, up to `options->max_nodes` nodes per search
/// (`navstar_query_scratch_bytes` tells how much the query holds).
///
/// # Safety
/// `mesh` must be NULL or a live mesh; `options` NULL or a readable struct of the size
/// its `struct_size` says; `out_query` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_query_create_ex(
    mesh: *const NavstarMesh,
    options: *const NavstarQueryOptions,
    out_query: *mut *mut NavstarQuery,
) -> NavstarStatus {
    run("navstar_query_create_ex", || {
        create(mesh, options, out_query)
    })
}

/// The body of both query constructors.
fn create(
    mesh: *const NavstarMesh,
    options: *const NavstarQueryOptions,
    out_query: *mut *mut NavstarQuery,
) -> Result<NavstarStatus, FfiError> {
    let out_query = HandleOut::new(out_query, "out_query")?;
    let mesh = handle::borrow(mesh, "mesh")?;
    let max_nodes = NavstarQueryOptions::read_max_nodes(options)?;
    out_query.give(QueryState {
        query: Query::try_new(mesh)?.with_max_nodes(max_nodes),
        last_path: None,
    });
    Ok(NavstarStatus::NavstarOk)
}

/// The bytes of search memory `query` holds now: it grows with the largest searches
/// made (bounded by the query's node limit), not with the size of the mesh. 0 for NULL.
///
/// # Safety
/// `query` must be NULL or a live query not used by another thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_query_scratch_bytes(query: *const NavstarQuery) -> u64 {
    handle::get(query).map_or(0, |state| state.query.scratch_bytes() as u64)
}

/// The search nodes the last query on `query` expanded (path, nearest target or
/// reachable-polygons query, a sliced search as far as it went): in the default mode a
/// node is a way into a polygon (close to Detour's count of polygons visited), in the
/// exact mode an interval of a polygon's edge; all passes of a search summed. For budgets
/// and profiling: it grows with the work a query did. 0 for NULL, before the first
/// query, and after a path call refused before its search (a bad argument).
///
/// # Safety
/// `query` must be NULL or a live query not used by another thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_query_nodes_expanded(query: *const NavstarQuery) -> u64 {
    handle::get(query).map_or(0, |state| state.query.last_search_stats().expanded)
}

/// Releases a query. NULL does nothing.
///
/// # Safety
/// `query` must be NULL or a pointer returned by `navstar_query_create(_ex)` that was not
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
/// `NAVSTAR_PARTIAL_PATH` the reachable point closest to the goal (for
/// `NAVSTAR_PARTIAL_NODE_LIMIT`, the search stopped at the query's node limit: the
/// point closest to the goal of the polygons it reached). Start and goal in
/// one polygon or in direct sight give exactly 2 points. When the path has more than
/// `capacity` points, the first `capacity` are written and the call returns
/// `NAVSTAR_BUFFER_TOO_SMALL` (also when the path is partial; call again with a bigger
/// buffer, or `navstar_query_path_info`, to learn that). In steady state the call allocates no memory.
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

/// The state behind `query` with its last path and its search counts forgotten: the
/// first step of a path call, so that the read-back functions answer
/// `NAVSTAR_ERROR_NO_PATH` (and `navstar_query_nodes_expanded` 0) after it fails,
/// whatever argument it fails on. A NULL `query` is the error, for the call to report
/// in its turn.
pub(crate) fn forget_last_path<'a>(
    query: *mut NavstarQuery,
) -> Result<&'a mut QueryState, FfiError> {
    let state = handle::borrow_mut(query, "query")?;
    state.last_path = None;
    state.query.forget_search_stats();
    Ok(state)
}

/// Writes a path's corners to an output array of points: `NAVSTAR_BUFFER_TOO_SMALL`
/// when they do not all fit, else OK, PARTIAL_PATH or PARTIAL_NODE_LIMIT by `status`.
pub(crate) fn write_path(
    out: OutSlice<[f32; 3]>,
    corners: &[Vec3],
    status: PathStatus,
) -> NavstarStatus {
    match out.write(corners.iter().map(|c| c.to_array())) {
        NavstarStatus::NavstarOk => status.into(),
        written => written,
    }
}
