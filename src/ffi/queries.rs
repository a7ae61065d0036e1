//! Path details, the nearest of several goals, and the polygons reachable within a cost.

use glam::Vec3;

use super::boundary::{FfiError, non_null_mut, run};
use super::{
    NavstarPathOptions, NavstarQuery, NavstarStatus, read_array, read_path_options, read_point,
    write_points,
};
use crate::{PathStatus, QueryError};

/// `NavstarCornerDetail::flags`: the first corner (the snapped start).
pub const NAVSTAR_CORNER_START: u32 = 1;
/// `NavstarCornerDetail::flags`: the last corner.
pub const NAVSTAR_CORNER_END: u32 = 2;
/// `NavstarCornerDetail::flags`: the path takes an off-mesh link from here.
pub const NAVSTAR_CORNER_LINK_START: u32 = 4;
/// `NavstarCornerDetail::flags`: the path arrives here by an off-mesh link.
pub const NAVSTAR_CORNER_LINK_END: u32 = 8;
/// `NavstarCornerDetail::flags`: the path passes here into a polygon of another area.
pub const NAVSTAR_CORNER_AREA_CHANGE: u32 = 16;
/// `NavstarCornerDetail::link` of a corner that is not at a link.
pub const NAVSTAR_NO_LINK: u32 = u32::MAX;
/// `NavstarReachedPolygon::parent` of the start polygon.
pub const NAVSTAR_NO_POLYGON: u32 = u32::MAX;

/// Details of one corner of the last path.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NavstarCornerDetail {
    /// `NAVSTAR_CORNER_*` bits.
    pub flags: u32,
    /// The area walked after this corner (a link's area at a link start).
    pub area: u32,
    /// The off-mesh link taken or arrived by (index in `NavstarMeshInput::links`), or
    /// `NAVSTAR_NO_LINK`.
    pub link: u32,
}

/// Summary of the last path of a query.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NavstarPathInfo {
    /// Number of corners (points).
    pub point_count: u32,
    /// Number of polygons of its corridor (0 when answered without a search).
    pub polygon_count: u32,
    /// `NAVSTAR_OK` or `NAVSTAR_PARTIAL_PATH`.
    pub status: NavstarStatus,
    /// Its length in world units (sum of corner-to-corner distances).
    pub length: f32,
    /// Its cost under the query's filter (lengths times area costs, plus link costs).
    pub cost: f32,
}

/// A polygon reached by `navstar_query_reachable_polygons`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NavstarReachedPolygon {
    /// The polygon.
    pub polygon: u32,
    /// The polygon it is entered from, or `NAVSTAR_NO_POLYGON` for the start polygon.
    pub parent: u32,
    /// The cost of the cheapest way into it found.
    pub cost: f32,
}

/// The query's last path, or NO_PATH when its last path call failed or none was made.
fn last_path(query: &NavstarQuery) -> Result<PathStatus, FfiError> {
    query.last_path.ok_or_else(|| {
        FfiError::new(
            NavstarStatus::NavstarErrorNoPath,
            "this query has no path: its last path call failed, or none was made",
        )
    })
}

/// Writes up to `capacity` items to `out` and the full count to `out_count`;
/// BUFFER_TOO_SMALL when they do not all fit.
///
/// # Safety
/// `out` must have room for `capacity` items (NULL only with capacity 0); `out_count`
/// writable.
unsafe fn write_items<T: Copy>(
    items: impl ExactSizeIterator<Item = T>,
    out: *mut T,
    capacity: u32,
    out_count: *mut u32,
) -> NavstarStatus {
    let count = items.len();
    for (i, item) in items.take(capacity as usize).enumerate() {
        // SAFETY: i < capacity, within the caller's buffer.
        unsafe { out.add(i).write_unaligned(item) };
    }
    // SAFETY: writable by contract.
    unsafe { out_count.write_unaligned(count as u32) };
    if count > capacity as usize {
        NavstarStatus::NavstarBufferTooSmall
    } else {
        NavstarStatus::NavstarOk
    }
}

/// Summarises the last path found by `navstar_find_path` or `navstar_find_nearest_target`
/// on this query (also after `NAVSTAR_BUFFER_TOO_SMALL`).
///
/// * `out_info` (out): the summary.
///
/// Returns `NAVSTAR_ERROR_NO_PATH` when the last path call on this query failed or none
/// was made.
///
/// # Safety
/// `query` NULL or a live query not used by another thread; `out_info` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_query_path_info(
    query: *const NavstarQuery,
    out_info: *mut NavstarPathInfo,
) -> NavstarStatus {
    run("navstar_query_path_info", || {
        let out_info = non_null_mut(out_info, "out_info")?;
        // SAFETY: NULL or a live query (caller contract).
        let query = unsafe { query.as_ref() }.ok_or_else(|| FfiError::null("query"))?;
        let status = last_path(query)?;
        let (corners, _, cost) = query.query.last_corners();
        let info = NavstarPathInfo {
            point_count: corners.len() as u32,
            polygon_count: query.query.corridor().len() as u32,
            status: if status == PathStatus::Partial {
                NavstarStatus::NavstarPartialPath
            } else {
                NavstarStatus::NavstarOk
            },
            length: corners.windows(2).map(|w| w[0].distance(w[1])).sum(),
            cost,
        };
        // SAFETY: non-NULL and writable by contract.
        unsafe { out_info.write_unaligned(info) };
        Ok(NavstarStatus::NavstarOk)
    })
}

/// The details of each corner of the last path (flags, area, link), in corner order.
///
/// * `out_details` (out): room for `capacity` entries; NULL only with `capacity` 0.
/// * `out_count` (out): the number of corners.
///
/// `NAVSTAR_BUFFER_TOO_SMALL` when they do not fit (the first `capacity` are written);
/// `NAVSTAR_ERROR_NO_PATH` as for `navstar_query_path_info`.
///
/// # Safety
/// `query` NULL or a live query not used by another thread; `out_details` NULL or room
/// for `capacity` entries; `out_count` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_query_path_details(
    query: *const NavstarQuery,
    out_details: *mut NavstarCornerDetail,
    capacity: u32,
    out_count: *mut u32,
) -> NavstarStatus {
    run("navstar_query_path_details", || {
        let out_count = non_null_mut(out_count, "out_count")?;
        // SAFETY: writable by contract.
        unsafe { out_count.write_unaligned(0) };
        if out_details.is_null() && capacity > 0 {
            return Err(FfiError::null("out_details (with capacity > 0)"));
        }
        // SAFETY: NULL or a live query (caller contract).
        let query = unsafe { query.as_ref() }.ok_or_else(|| FfiError::null("query"))?;
        last_path(query)?;
        let (_, details, _) = query.query.last_corners();
        let items = details.iter().map(|d| NavstarCornerDetail {
            flags: u32::from(d.flags.bits()),
            area: u32::from(d.area),
            link: d.link,
        });
        // SAFETY: buffer and count as checked and promised above.
        Ok(unsafe { write_items(items, out_details, capacity, out_count) })
    })
}

/// The polygon corridor of the last path, start polygon first (empty when the path was
/// answered without a search: one polygon, direct sight, or the exact mode).
///
/// Buffers and statuses as for `navstar_query_path_details`.
///
/// # Safety
/// As `navstar_query_path_details`, with `out_polygons` room for `capacity` entries.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_query_path_corridor(
    query: *const NavstarQuery,
    out_polygons: *mut u32,
    capacity: u32,
    out_count: *mut u32,
) -> NavstarStatus {
    run("navstar_query_path_corridor", || {
        let out_count = non_null_mut(out_count, "out_count")?;
        // SAFETY: writable by contract.
        unsafe { out_count.write_unaligned(0) };
        if out_polygons.is_null() && capacity > 0 {
            return Err(FfiError::null("out_polygons (with capacity > 0)"));
        }
        // SAFETY: NULL or a live query (caller contract).
        let query = unsafe { query.as_ref() }.ok_or_else(|| FfiError::null("query"))?;
        last_path(query)?;
        // SAFETY: buffer and count as checked and promised above.
        Ok(unsafe { write_items(query.query.corridor(), out_polygons, capacity, out_count) })
    })
}

/// Of several goals, finds the one cheapest to walk to from `start`, and the path to it,
/// with one search.
///
/// * `goals` (in): `3 * goal_count` floats. Goals farther than the snap distance from
///   the mesh, moved by the filter (see `navstar_find_path`) or unreachable are
///   skipped; a non-finite one is an error.
/// * `out_goal` (out): the index of the chosen goal.
/// * The other arguments and the path output are as for `navstar_find_path`; the path
///   details are then available as after `navstar_find_path`.
///
/// `NAVSTAR_ERROR_NO_PATH` when no goal is reachable (or `goal_count` is 0).
///
/// # Safety
/// As `navstar_find_path`; `goals` NULL or `3 * goal_count` readable floats; `out_goal`
/// NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_find_nearest_target(
    query: *mut NavstarQuery,
    start: *const f32,
    goals: *const f32,
    goal_count: u32,
    options: *const NavstarPathOptions,
    out_points: *mut f32,
    capacity: u32,
    out_count: *mut u32,
    out_goal: *mut u32,
) -> NavstarStatus {
    run("navstar_find_nearest_target", || {
        let out_count = non_null_mut(out_count, "out_count")?;
        // SAFETY: writable by contract.
        unsafe { out_count.write_unaligned(0) };
        let out_goal = non_null_mut(out_goal, "out_goal")?;
        let query = non_null_mut(query, "query")?;
        // SAFETY: a live query used by this thread only (caller contract).
        let handle = unsafe { &mut *query };
        handle.last_path = None;
        // SAFETY: 3 readable floats or NULL (caller contract).
        let start = unsafe { read_point(start, "start") }?;
        // SAFETY: 3 * goal_count readable floats (caller contract).
        let floats = unsafe { read_array(goals, 3 * goal_count as usize, "goals") }?;
        if let Some(bad) = floats
            .chunks_exact(3)
            .position(|g| !Vec3::from_slice(g).is_finite())
        {
            return Err(FfiError::invalid(format!(
                "goal {bad} has a non-finite coordinate"
            )));
        }
        let goals: Vec<Vec3> = floats.chunks_exact(3).map(Vec3::from_slice).collect();
        if out_points.is_null() && capacity > 0 {
            return Err(FfiError::null("out_points (with capacity > 0)"));
        }
        // SAFETY: NULL or a readable options struct (caller contract).
        let options = unsafe { read_path_options(options) }?;
        let answer = handle.query.find_nearest_target(start, &goals, &options)?;
        // SAFETY: writable by contract.
        unsafe { out_goal.write_unaligned(answer.goal as u32) };
        // SAFETY: out_points has room for `capacity` points (caller contract).
        let status = unsafe {
            write_points(
                answer.path.corners,
                out_points,
                capacity,
                out_count,
                PathStatus::Complete,
            )
        };
        handle.last_path = Some(PathStatus::Complete);
        Ok(status)
    })
}

/// Lists the polygons reachable from `start` at a cost of at most `max_cost` (a bounded
/// Dijkstra flood, like Detour's findPolysAroundCircle with a cost), cheapest first.
///
/// * `max_cost` (in): >= 0; INFINITY lists the whole reachable part of the mesh.
/// * `options` (in, optional): its filter and snap distance apply.
/// * `out_polygons` (out): room for `capacity` entries; NULL only with `capacity` 0.
/// * `out_count` (out): how many polygons are reachable.
///
/// `NAVSTAR_BUFFER_TOO_SMALL` when they do not fit (the cheapest `capacity` are written).
///
/// # Safety
/// `query` NULL or a live query not used by another thread; `start` NULL or 3 readable
/// floats; `options` as for `navstar_find_path`; buffers as described.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_query_reachable_polygons(
    query: *mut NavstarQuery,
    start: *const f32,
    max_cost: f32,
    options: *const NavstarPathOptions,
    out_polygons: *mut NavstarReachedPolygon,
    capacity: u32,
    out_count: *mut u32,
) -> NavstarStatus {
    run("navstar_query_reachable_polygons", || {
        let out_count = non_null_mut(out_count, "out_count")?;
        // SAFETY: writable by contract.
        unsafe { out_count.write_unaligned(0) };
        let query = non_null_mut(query, "query")?;
        // SAFETY: 3 readable floats or NULL (caller contract).
        let start = unsafe { read_point(start, "start") }?;
        if max_cost.is_nan() || max_cost < 0.0 {
            return Err(FfiError::invalid(format!(
                "max_cost is {max_cost}; it must be >= 0 (INFINITY allowed)"
            )));
        }
        if out_polygons.is_null() && capacity > 0 {
            return Err(FfiError::null("out_polygons (with capacity > 0)"));
        }
        // SAFETY: NULL or a readable options struct (caller contract).
        let options = unsafe { read_path_options(options) }?;
        // SAFETY: a live query used by this thread only (caller contract).
        let handle = unsafe { &mut *query };
        let reached = handle
            .query
            .reachable_polygons(start, max_cost, &options)
            .map_err(|e: QueryError| FfiError::from(e))?;
        let items = reached.iter().map(|r| NavstarReachedPolygon {
            polygon: r.polygon,
            parent: r.parent,
            cost: r.cost,
        });
        // SAFETY: buffer and count as checked and promised above.
        Ok(unsafe { write_items(items, out_polygons, capacity, out_count) })
    })
}
