//! Path details, the nearest of several goals, and the polygons reachable within a cost.

use super::boundary::{FfiError, Out, OutCount, OutSlice, read_point, read_points, run};
use super::handle::{self, NavstarQuery, QueryState};
use super::options::NavstarPathOptions;
use super::query::{forget_last_path, write_path};
use super::status::NavstarStatus;
use crate::{CornerFlags, PathStatus, QueryError};

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

const _: () = {
    assert!(NAVSTAR_CORNER_START == CornerFlags::START.bits() as u32);
    assert!(NAVSTAR_CORNER_END == CornerFlags::END.bits() as u32);
    assert!(NAVSTAR_CORNER_LINK_START == CornerFlags::LINK_START.bits() as u32);
    assert!(NAVSTAR_CORNER_LINK_END == CornerFlags::LINK_END.bits() as u32);
    assert!(NAVSTAR_CORNER_AREA_CHANGE == CornerFlags::AREA_CHANGE.bits() as u32);
};

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
    /// Number of polygons of its corridor (0 only when rounding defeated the walk of a
    /// path found without a search or by the exact mode over the mesh).
    pub polygon_count: u32,
    /// `NAVSTAR_OK`, `NAVSTAR_PARTIAL_PATH` or `NAVSTAR_PARTIAL_NODE_LIMIT`: what the
    /// path call returned when the path fitted.
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

/// The handle prologue of the path read-back functions: the query behind `query` and
/// the status of its last path; NO_PATH when its last path call failed or none was made.
fn last_path<'a>(query: *const NavstarQuery) -> Result<(&'a QueryState, PathStatus), FfiError> {
    let state = handle::borrow(query, "query")?;
    let status = state.last_path.ok_or_else(|| {
        FfiError::new(
            NavstarStatus::NavstarErrorNoPath,
            "this query has no path: its last path call failed, or none was made",
        )
    })?;
    Ok((state, status))
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
        let out_info = Out::required(out_info, "out_info")?;
        let (state, status) = last_path(query)?;
        let (corners, _, cost) = state.query.last_corners();
        out_info.set(NavstarPathInfo {
            point_count: corners.len() as u32,
            polygon_count: state.query.corridor().len() as u32,
            status: status.into(),
            length: corners.windows(2).map(|w| w[0].distance(w[1])).sum(),
            cost,
        });
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
        let out = OutSlice::new(out_details, capacity, out_count, "out_details")?;
        let (state, _) = last_path(query)?;
        let (_, details, _) = state.query.last_corners();
        Ok(out.write(details.iter().map(|d| NavstarCornerDetail {
            flags: u32::from(d.flags.bits()),
            area: u32::from(d.area),
            link: d.link.unwrap_or(NAVSTAR_NO_LINK),
        })))
    })
}

/// A turn of the last path round a convex wall corner (paths for an agent radius above
/// the mesh's baked radius; see `navstar_query_path_arcs`).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NavstarPathArc {
    /// The index (among the path's points) of the first point placed round the wall
    /// corner.
    pub first_point: u32,
    /// The index of the last one (at least `first_point`).
    pub last_point: u32,
    /// The wall corner turned round, a vertex of the mesh (world coordinates).
    pub centre: [f32; 3],
    /// The distance the agent's centre keeps from `centre` (world units): the agent
    /// radius less the mesh's baked radius.
    pub radius: f32,
}

/// The turns of the last path round convex wall corners, in path order: none unless the
/// path call had an agent radius above the mesh's baked radius. The points from
/// `first_point` to `last_point` lie on a regular polygon of 8 sides drawn round the
/// circle of `radius` about `centre`, so the polyline keeps `radius` from it; an agent
/// may follow the circle instead.
///
/// * `out_arcs` (out): room for `capacity` entries; NULL only with `capacity` 0.
/// * `out_count` (out): the number of turns.
///
/// Buffers and statuses as for `navstar_query_path_details`.
///
/// # Safety
/// As `navstar_query_path_details`, with `out_arcs` room for `capacity` entries.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_query_path_arcs(
    query: *const NavstarQuery,
    out_arcs: *mut NavstarPathArc,
    capacity: u32,
    out_count: *mut u32,
) -> NavstarStatus {
    run("navstar_query_path_arcs", || {
        let out = OutSlice::new(out_arcs, capacity, out_count, "out_arcs")?;
        let (state, _) = last_path(query)?;
        Ok(
            out.write(state.query.last_arcs().iter().map(|a| NavstarPathArc {
                first_point: a.first_corner,
                last_point: a.last_corner,
                centre: a.centre.to_array(),
                radius: a.radius,
            })),
        )
    })
}

/// The polygon corridor of the last path, start polygon first, each the neighbour of
/// the one before (or joined to it by an off-mesh link): the polygons the A* search
/// chose, or, for a path found without a search (one polygon, direct sight) or by the
/// exact mode, the polygons it crosses, walked over the mesh after it.
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
        let out = OutSlice::new(out_polygons, capacity, out_count, "out_polygons")?;
        let (state, _) = last_path(query)?;
        Ok(out.write(state.query.corridor()))
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
        let state = forget_last_path(query);
        let out = OutCount::new(out_points.cast::<[f32; 3]>(), capacity, out_count)?;
        let out_goal = Out::required(out_goal, "out_goal")?;
        let state = state?;
        let start = read_point(start, "start")?;
        let goals = read_points(goals, goal_count, "goals")?;
        if let Some(bad) = goals.iter().position(|g| !g.is_finite()) {
            return Err(FfiError::invalid(format!(
                "goal {bad} has a non-finite coordinate"
            )));
        }
        let out = out.check_room("out_points")?;
        let options = NavstarPathOptions::read(options)?;
        let answer = state.query.find_nearest_target(start, &goals, &options)?;
        out_goal.set(answer.target as u32);
        let status = write_path(out, answer.path.corners, PathStatus::Complete);
        state.last_path = Some(PathStatus::Complete);
        Ok(status)
    })
}

/// Lists the polygons reachable from `start` at a cost of at most `max_cost` (a bounded
/// Dijkstra flood, like Detour's findPolysAroundCircle with a cost), cheapest first.
///
/// * `max_cost` (in): >= 0; INFINITY lists the whole reachable part of the mesh.
/// * `options` (in, optional): its filter, snap distance and `agent_radius` apply (with
///   a radius, the flood covers where the disc's centre may go, and lists each polygon
///   once).
/// * `out_polygons` (out): room for `capacity` entries; NULL only with `capacity` 0.
/// * `out_count` (out): how many polygons are reachable.
///
/// `NAVSTAR_BUFFER_TOO_SMALL` when they do not fit (the cheapest `capacity` are
/// written); else `NAVSTAR_PARTIAL_NODE_LIMIT` when the flood stopped at the query's
/// node limit (`NavstarQueryOptions::max_nodes`: the polygons found before it are
/// listed, more may be reachable within `max_cost`).
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
        let out = OutCount::new(out_polygons, capacity, out_count)?;
        let state = handle::borrow_mut(query, "query")?;
        let start = read_point(start, "start")?;
        if max_cost.is_nan() || max_cost < 0.0 {
            return Err(FfiError::invalid(format!(
                "max_cost is {max_cost}; it must be >= 0 (INFINITY allowed)"
            )));
        }
        let out = out.check_room("out_polygons")?;
        let options = NavstarPathOptions::read(options)?;
        options.validate()?;
        let reached = state
            .query
            .reachable_polygons_for_agent(
                start,
                max_cost,
                &options.filter,
                options.max_snap_distance,
                options.agent_radius,
            )
            .map_err(|e: QueryError| FfiError::from(e))?;
        let written = out.write(reached.iter().map(|r| NavstarReachedPolygon {
            polygon: r.polygon,
            parent: r.parent.unwrap_or(NAVSTAR_NO_POLYGON),
            cost: r.cost,
        }));
        Ok(match written {
            NavstarStatus::NavstarOk if state.query.hit_node_limit() => {
                NavstarStatus::NavstarPartialNodeLimit
            }
            written => written,
        })
    })
}
