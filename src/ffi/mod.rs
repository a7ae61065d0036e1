//! The C ABI: a thin skin over the Rust API. `include/navstar.h` is generated from this
//! module by cbindgen.
//!
//! Rules every function here keeps (see also `../shared/API.md` in the project):
//! * No panic crosses the boundary: each body runs inside `boundary::run`.
//! * Every fallible function returns a [`NavstarStatus`]; errors also set a thread-local
//!   message readable with [`navstar_last_error_message`].
//! * No pointer passed in by the caller is kept after the call returns.
//! * A [`NavstarMesh`] may be used by any number of threads at once; a [`NavstarQuery`]
//!   by one thread at a time.

mod boundary;
mod filter;
mod mesh_input;
mod options;
mod queries;
mod spatial;
mod status;

use std::ffi::c_char;

use glam::Vec3;

use crate::{NavMesh, PathStatus, Query};
use boundary::{FfiError, non_null, non_null_mut, run, run_void};
pub use filter::{NAVSTAR_MAX_AREAS, NavstarQueryFilter, navstar_query_filter_default};
pub use mesh_input::{
    NAVSTAR_LINK_COST_DISTANCE, NavstarMeshInput, NavstarOffMeshLink, navstar_mesh_create_ex,
    navstar_mesh_input_default, navstar_mesh_link_count, navstar_mesh_polygon_info,
    navstar_mesh_set_link_flags, navstar_mesh_set_polygon_flags, navstar_off_mesh_link_default,
};
pub use options::{
    NAVSTAR_PATH_FUNNEL, NAVSTAR_PATH_OPTIMAL, NAVSTAR_SEARCH_ASTAR, NAVSTAR_SEARCH_BREADTH_FIRST,
    NAVSTAR_SEARCH_DEPTH_FIRST, NAVSTAR_SEARCH_DIJKSTRA, NAVSTAR_SEARCH_GREEDY, NAVSTAR_UP_Y,
    NAVSTAR_UP_Z, NavstarMeshOptions, NavstarPathOptions,
};
pub use queries::{
    NAVSTAR_CORNER_AREA_CHANGE, NAVSTAR_CORNER_END, NAVSTAR_CORNER_LINK_END,
    NAVSTAR_CORNER_LINK_START, NAVSTAR_CORNER_START, NAVSTAR_NO_LINK, NAVSTAR_NO_POLYGON,
    NavstarCornerDetail, NavstarPathInfo, NavstarReachedPolygon, navstar_find_nearest_target,
    navstar_query_path_corridor, navstar_query_path_details, navstar_query_path_info,
    navstar_query_reachable_polygons,
};
pub use spatial::{
    NavstarRaycastHit, navstar_mesh_interpolate, navstar_mesh_nearest_point, navstar_mesh_raycast,
};
pub use status::NavstarStatus;

/// An immutable navigation mesh, shared by any number of threads. Create with
/// `navstar_mesh_create`, release with `navstar_mesh_free`.
pub struct NavstarMesh {
    mesh: NavMesh,
}

/// Per-thread path query state over one mesh. Use from one thread at a time. Holds its
/// own reference to the mesh, so the mesh may be freed first.
pub struct NavstarQuery {
    query: Query,
    /// The status of the last path query on this handle, when it gave a path.
    last_path: Option<PathStatus>,
}

/// Sizes of the earlier published versions of each options struct, accepted besides
/// the current size: `NavstarMeshOptions` before `allow_degenerate_connectors`.
const MESH_OPTIONS_OLDER_SIZES: &[usize] = &[16];
/// `NavstarPathOptions` up to `allow_partial` (v1), then with `mode`; the filter and
/// `split_at_area_changes` came after.
const PATH_OPTIONS_OLDER_SIZES: &[usize] = &[20, 24];

/// The library version as `(major << 16) | (minor << 8) | patch`.
#[unsafe(no_mangle)]
pub extern "C" fn navstar_version() -> u32 {
    const fn parse(s: &str) -> u32 {
        let bytes = s.as_bytes();
        let mut value = 0u32;
        let mut i = 0;
        while i < bytes.len() {
            value = value * 10 + (bytes[i] - b'0') as u32;
            i += 1;
        }
        value
    }
    const VERSION: u32 = (parse(env!("CARGO_PKG_VERSION_MAJOR")) << 16)
        | (parse(env!("CARGO_PKG_VERSION_MINOR")) << 8)
        | parse(env!("CARGO_PKG_VERSION_PATCH"));
    VERSION
}

/// The message of the last error on this thread: never NULL, "" when the last call
/// succeeded. The text names the function and the culprit. Valid until the next
/// navstar call on this thread; copy it to keep it.
#[unsafe(no_mangle)]
pub extern "C" fn navstar_last_error_message() -> *const c_char {
    boundary::last_error_ptr()
}

/// The name of a status constant ("NAVSTAR_OK", ...), or "unknown status" for a value
/// navstar never returns. The string is static: never freed, never NULL.
#[unsafe(no_mangle)]
pub extern "C" fn navstar_status_name(status: i32) -> *const c_char {
    use NavstarStatus::*;
    let known = [
        NavstarOk,
        NavstarPartialPath,
        NavstarBufferTooSmall,
        NavstarErrorNullArgument,
        NavstarErrorInvalidArgument,
        NavstarErrorInvalidMesh,
        NavstarErrorNotOnMesh,
        NavstarErrorNoPath,
        NavstarErrorOutOfMemory,
        NavstarErrorInternal,
    ];
    let name: &'static std::ffi::CStr = match known
        .into_iter()
        .find(|s| *s as i32 == status)
        .map(NavstarStatus::name)
    {
        Some("NAVSTAR_OK") => c"NAVSTAR_OK",
        Some("NAVSTAR_PARTIAL_PATH") => c"NAVSTAR_PARTIAL_PATH",
        Some("NAVSTAR_BUFFER_TOO_SMALL") => c"NAVSTAR_BUFFER_TOO_SMALL",
        Some("NAVSTAR_ERROR_NULL_ARGUMENT") => c"NAVSTAR_ERROR_NULL_ARGUMENT",
        Some("NAVSTAR_ERROR_INVALID_ARGUMENT") => c"NAVSTAR_ERROR_INVALID_ARGUMENT",
        Some("NAVSTAR_ERROR_INVALID_MESH") => c"NAVSTAR_ERROR_INVALID_MESH",
        Some("NAVSTAR_ERROR_NOT_ON_MESH") => c"NAVSTAR_ERROR_NOT_ON_MESH",
        Some("NAVSTAR_ERROR_NO_PATH") => c"NAVSTAR_ERROR_NO_PATH",
        Some("NAVSTAR_ERROR_OUT_OF_MEMORY") => c"NAVSTAR_ERROR_OUT_OF_MEMORY",
        Some("NAVSTAR_ERROR_INTERNAL") => c"NAVSTAR_ERROR_INTERNAL",
        _ => c"unknown status",
    };
    name.as_ptr()
}

/// Default mesh options: Y up, welding of exactly coincident vertices.
#[unsafe(no_mangle)]
pub extern "C" fn navstar_mesh_options_default() -> NavstarMeshOptions {
    NavstarMeshOptions::defaults()
}

/// Default path options: A*, heuristic weight 1, unlimited snapping, partial paths
/// allowed.
#[unsafe(no_mangle)]
pub extern "C" fn navstar_path_options_default() -> NavstarPathOptions {
    NavstarPathOptions::defaults()
}

/// Builds a navigation mesh from vertices and convex polygons.
///
/// * `vertices` (in): `3 * vertex_count` floats, xyz per vertex, world units. May be
///   NULL only when `vertex_count` is 0.
/// * `indices` (in): the polygons' corner vertex indices, polygon after polygon:
///   `3 * polygon_count` entries when `polygon_sizes` is NULL, else their sum.
/// * `polygon_sizes` (in, optional): corners per polygon (each >= 3); NULL means every
///   polygon is a triangle.
/// * `options` (in, optional): NULL for defaults.
/// * `out_mesh` (out): receives the new mesh on success, NULL on any error. Release
///   it with `navstar_mesh_free`.
///
/// Polygons must be convex in the ground plane (collinear corners allowed), either
/// winding. Rejected input gives `NAVSTAR_ERROR_INVALID_MESH` with a message naming the
/// polygon, corner, vertex or edge. Nothing is leaked on error. The arrays are copied;
/// the caller may free them when the call returns.
///
/// # Safety
/// Each non-NULL pointer must point to as many readable elements as described above.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_mesh_create(
    vertices: *const f32,
    vertex_count: u32,
    indices: *const u32,
    polygon_sizes: *const u32,
    polygon_count: u32,
    options: *const NavstarMeshOptions,
    out_mesh: *mut *mut NavstarMesh,
) -> NavstarStatus {
    let build = |options| {
        if vertex_count == u32::MAX {
            return Err(FfiError::invalid(
                "vertex_count is UINT32_MAX; at most UINT32_MAX - 1 vertices are supported",
            ));
        }
        let sizes = if polygon_sizes.is_null() {
            None
        } else {
            // SAFETY: non-NULL, and the caller promises polygon_count readable entries.
            Some(unsafe { read_array(polygon_sizes, polygon_count as usize, "polygon_sizes") }?)
        };
        let index_count: u64 = match &sizes {
            None => 3 * u64::from(polygon_count),
            Some(sizes) => sizes.iter().map(|&s| u64::from(s)).sum(),
        };
        if index_count > u64::from(u32::MAX) {
            return Err(FfiError::invalid(format!(
                "the polygons need {index_count} indices; at most UINT32_MAX are supported"
            )));
        }
        // SAFETY: the caller promises the documented element counts behind each pointer.
        let vertex_floats = unsafe { read_array(vertices, 3 * vertex_count as usize, "vertices") }?;
        // SAFETY: as above.
        let indices = unsafe { read_array(indices, index_count as usize, "indices") }?;
        let points: Vec<Vec3> = vertex_floats
            .chunks_exact(3)
            .map(Vec3::from_slice)
            .collect();
        let mesh = match &sizes {
            None => NavMesh::from_triangles(&points, &indices, &options)?,
            Some(sizes) => NavMesh::from_polygons(&points, &indices, sizes, &options)?,
        };
        Ok(mesh)
    };
    // SAFETY: forwarded from this function's contract.
    unsafe { create_mesh("navstar_mesh_create", options, out_mesh, build) }
}

/// Builds a navigation mesh from a tile grid: the walkable area is exactly the union of
/// the walkable cells, merged into large rectangles (cells touching only at a corner
/// are not connected).
///
/// * `cells` (in): `width * height` bytes, row after row (`cells[y * width + x]`);
///   non-zero means walkable. May be NULL only when the grid is empty.
/// * `cell_size` (in): side of a cell in world units, finite and > 0.
/// * `origin` (in, optional): 3 floats, the world position of the corner of cell (0, 0);
///   NULL means (0, 0, 0). Cell (x, y) covers `[x, x+1] * cell_size` along world x and
///   `[y, y+1] * cell_size` along world z (Y up) or world y (Z up, per `options`).
/// * `options`, `out_mesh`: as for `navstar_mesh_create`.
///
/// # Safety
/// Each non-NULL pointer must point to as many readable elements as described above;
/// `out_mesh` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_mesh_create_from_grid(
    cells: *const u8,
    width: u32,
    height: u32,
    cell_size: f32,
    origin: *const f32,
    options: *const NavstarMeshOptions,
    out_mesh: *mut *mut NavstarMesh,
) -> NavstarStatus {
    let build = |options| {
        let cell_count = usize::try_from(u64::from(width) * u64::from(height))
            .map_err(|_| FfiError::invalid("width * height does not fit in memory"))?;
        // SAFETY: the caller promises width * height readable bytes behind `cells`.
        let cells = unsafe { read_array(cells, cell_count, "cells") }?;
        let origin = if origin.is_null() {
            Vec3::ZERO
        } else {
            // SAFETY: non-NULL, 3 readable floats by contract.
            unsafe { read_point(origin, "origin") }?
        };
        let walkable: Vec<bool> = cells.iter().map(|&c| c != 0).collect();
        let grid = crate::TileGrid {
            width,
            height,
            walkable: &walkable,
            cell_size,
            origin,
        };
        Ok(NavMesh::from_grid(&grid, &options)?)
    };
    // SAFETY: forwarded from this function's contract.
    unsafe { create_mesh("navstar_mesh_create_from_grid", options, out_mesh, build) }
}

/// Releases a mesh. Queries made from it stay valid (they hold their own reference).
/// NULL does nothing.
///
/// # Safety
/// `mesh` must be NULL or a pointer returned by `navstar_mesh_create` that was not
/// freed yet.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_mesh_free(mesh: *mut NavstarMesh) {
    run_void("navstar_mesh_free", || {
        if !mesh.is_null() {
            // SAFETY: created by Box::into_raw in navstar_mesh_create, freed only once
            // (caller contract).
            drop(unsafe { Box::from_raw(mesh) });
        }
    })
}

/// The number of polygons of a mesh (0 for NULL).
///
/// # Safety
/// `mesh` must be NULL or a live mesh.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_mesh_polygon_count(mesh: *const NavstarMesh) -> u32 {
    // SAFETY: NULL or a live mesh (caller contract).
    unsafe { mesh.as_ref() }.map_or(0, |m| m.mesh.polygon_count())
}

/// The number of vertices of a mesh (0 for NULL): the `vertex_count` it was created
/// with, in the caller's numbering. Welding merges vertices at one position but keeps
/// this numbering: welded and unused input vertices still count. For a mesh made by
/// `navstar_mesh_create_from_grid`, the corners of the rectangles the grid was merged
/// into. `navstar_mesh_interpolate` takes one set of values per vertex in this
/// numbering.
///
/// # Safety
/// `mesh` must be NULL or a live mesh.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_mesh_vertex_count(mesh: *const NavstarMesh) -> u32 {
    // SAFETY: NULL or a live mesh (caller contract).
    unsafe { mesh.as_ref() }.map_or(0, |m| m.mesh.vertex_count())
}

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
        let out_query = non_null_mut(out_query, "out_query")?;
        // SAFETY: non-NULL and writable by contract.
        unsafe { out_query.write_unaligned(std::ptr::null_mut()) };
        let mesh = non_null(mesh, "mesh")?;
        // SAFETY: a live mesh by contract; only shared access is taken.
        let mesh = unsafe { &(*mesh).mesh };
        let handle = Box::into_raw(Box::new(NavstarQuery {
            query: Query::try_new(mesh)?,
            last_path: None,
        }));
        // SAFETY: as above.
        unsafe { out_query.write_unaligned(handle) };
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
    run_void("navstar_query_free", || {
        if !query.is_null() {
            // SAFETY: created by Box::into_raw in navstar_query_create, freed once.
            drop(unsafe { Box::from_raw(query) });
        }
    })
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
        let out_count = non_null_mut(out_count, "out_count")?;
        // SAFETY: non-NULL and writable by contract.
        unsafe { out_count.write_unaligned(0) };
        let query = non_null_mut(query, "query")?;
        // SAFETY: a live query used by this thread only (caller contract).
        unsafe { (*query).last_path = None };
        // SAFETY: read 3 floats from each non-NULL point (caller contract).
        let start = unsafe { read_point(start, "start") }?;
        // SAFETY: as above.
        let goal = unsafe { read_point(goal, "goal") }?;
        if out_points.is_null() && capacity > 0 {
            return Err(FfiError::null("out_points (with capacity > 0)"));
        }
        // SAFETY: options is NULL or a readable struct (caller contract).
        let options = unsafe { read_path_options(options) }?;
        // SAFETY: a live query used by this thread only (caller contract).
        let handle = unsafe { &mut *query };
        let path = handle.query.find_path(start, goal, &options)?;
        let status = path.status;
        // SAFETY: out_points has room for `capacity` points (caller contract).
        let result = unsafe { write_points(path.corners, out_points, capacity, out_count, status) };
        handle.last_path = Some(status);
        Ok(result)
    })
}

/// Writes the first `capacity` of `corners` to `out_points`, the full count to
/// `out_count`, and returns the status of a path call: `NAVSTAR_BUFFER_TOO_SMALL` when
/// they do not all fit, else OK or PARTIAL_PATH by `status`.
///
/// # Safety
/// `out_points` must have room for `3 * capacity` floats (NULL only with capacity 0);
/// `out_count` must be writable.
pub(crate) unsafe fn write_points(
    corners: &[Vec3],
    out_points: *mut f32,
    capacity: u32,
    out_count: *mut u32,
    status: PathStatus,
) -> NavstarStatus {
    let count = corners.len();
    for (i, corner) in corners.iter().take(capacity as usize).enumerate() {
        for (k, value) in corner.to_array().into_iter().enumerate() {
            // SAFETY: i < capacity, so 3 * i + k < 3 * capacity floats, writable by
            // contract; write_unaligned tolerates any alignment.
            unsafe { out_points.add(3 * i + k).write_unaligned(value) };
        }
    }
    // SAFETY: writable by contract.
    unsafe { out_count.write_unaligned(count as u32) };
    if count > capacity as usize {
        NavstarStatus::NavstarBufferTooSmall
    } else if status == PathStatus::Partial {
        NavstarStatus::NavstarPartialPath
    } else {
        NavstarStatus::NavstarOk
    }
}

/// The shared frame of the mesh constructors, run as the body of the C function
/// `function`: sets `*out_mesh` to NULL, reads the options (NULL = defaults), calls
/// `build`, and on success stores the new mesh handle in `*out_mesh`.
///
/// # Safety
/// `options` must be NULL or point to `struct_size` readable bytes; `out_mesh` NULL or
/// writable; `build` must keep the contracts of the pointers it reads.
pub(crate) unsafe fn create_mesh(
    function: &str,
    options: *const NavstarMeshOptions,
    out_mesh: *mut *mut NavstarMesh,
    build: impl FnOnce(crate::MeshOptions) -> Result<NavMesh, FfiError>,
) -> NavstarStatus {
    run(function, || {
        let out_mesh = non_null_mut(out_mesh, "out_mesh")?;
        // SAFETY: out_mesh is non-NULL and the caller promises it is writable.
        unsafe { out_mesh.write_unaligned(std::ptr::null_mut()) };
        // SAFETY: options is NULL or points to a struct of `struct_size` bytes.
        let options = unsafe {
            options::read_versioned(
                options,
                NavstarMeshOptions::defaults(),
                MESH_OPTIONS_OLDER_SIZES,
                "options",
            )
        }?;
        let mesh = build(options.to_rust()?)?;
        let handle = Box::into_raw(Box::new(NavstarMesh { mesh }));
        // SAFETY: checked non-NULL above; writable by contract.
        unsafe { out_mesh.write_unaligned(handle) };
        Ok(NavstarStatus::NavstarOk)
    })
}

/// Reads an optional `NavstarPathOptions` argument (NULL = defaults) into Rust options.
///
/// # Safety
/// `options` must be NULL or point to a struct of `struct_size` readable bytes whose
/// `filter` is NULL or a readable filter.
pub(crate) unsafe fn read_path_options(
    options: *const NavstarPathOptions,
) -> Result<crate::PathOptions, FfiError> {
    // SAFETY: forwarded from this function's contract.
    let options = unsafe {
        options::read_versioned(
            options,
            NavstarPathOptions::defaults(),
            PATH_OPTIONS_OLDER_SIZES,
            "options",
        )
    }?;
    // SAFETY: options->filter is NULL or a readable filter (contract).
    unsafe { options.to_rust() }
}

/// Copies `count` elements from a caller's array into a Vec, failing cleanly (NULL or
/// out of memory) instead of aborting.
///
/// # Safety
/// `ptr` must be NULL or point to `count` readable elements.
pub(crate) unsafe fn read_array<T: Copy>(
    ptr: *const T,
    count: usize,
    name: &str,
) -> Result<Vec<T>, FfiError> {
    if count == 0 {
        return Ok(Vec::new());
    }
    let ptr = non_null(ptr, name)?;
    let mut out: Vec<T> = Vec::new();
    out.try_reserve_exact(count).map_err(|_| {
        FfiError::new(
            NavstarStatus::NavstarErrorOutOfMemory,
            format!("cannot allocate a copy of {count} elements of {name}"),
        )
    })?;
    // SAFETY: `count` readable elements by contract; the destination has the capacity.
    // Elements are copied bytewise, so the caller's array needs no particular alignment.
    unsafe {
        std::ptr::copy_nonoverlapping(
            ptr.cast::<u8>(),
            out.as_mut_ptr().cast::<u8>(),
            count * size_of::<T>(),
        );
        out.set_len(count);
    }
    Ok(out)
}

/// Reads an xyz point, rejecting NULL and non-finite values by name.
///
/// # Safety
/// `ptr` must be NULL or point to 3 readable floats.
pub(crate) unsafe fn read_point(ptr: *const f32, name: &str) -> Result<Vec3, FfiError> {
    // SAFETY: NULL or 3 readable floats by contract.
    let values = unsafe { read_array(ptr, 3, name) }?;
    let point = Vec3::from_slice(&values);
    if !point.is_finite() {
        return Err(FfiError::invalid(format!(
            "{name} has a non-finite coordinate ({point})"
        )));
    }
    Ok(point)
}
