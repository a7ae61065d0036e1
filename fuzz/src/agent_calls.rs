//! Contract-keeping wrappers over the queries for a disc-shaped agent
//! (`navstar_mesh_nearest_point_for_agent`, `navstar_mesh_raycast_for_agent`,
//! `navstar_mesh_move_along_surface_for_agent`, `navstar_query_distance_to_wall_for_agent`,
//! `navstar_mesh_random_point_for_agent`, `navstar_query_random_point_around_for_agent`), as
//! `calls.rs` wraps the plain ones: NULL where asked, every output guarded, the status
//! and message rules checked, outputs untouched after an error.

use navstar::ffi::{
    NavstarRaycastHit, NavstarStatus, NavstarSurfaceMove, NavstarWallDistance,
    navstar_mesh_move_along_surface_for_agent, navstar_mesh_nearest_point_for_agent,
    navstar_mesh_random_point_for_agent, navstar_mesh_raycast_for_agent,
    navstar_query_distance_to_wall_for_agent, navstar_query_random_point_around_for_agent,
};

use crate::buffers::Guarded;
use crate::calls::{NearestAnswer, NullOuts, OneAnswer, Out, mesh_ptr};
use crate::input::CFilter;
use crate::{CMesh, CQuery, ListAnswer, ListBuffers, call_list, check_status_and_message, opt_ptr};

/// Calls `navstar_mesh_nearest_point_for_agent`; outputs are untouched after an error.
pub fn c_nearest_point_for_agent(
    mesh: Option<&CMesh>,
    point: Option<[f32; 3]>,
    max_distance: f32,
    filter: &CFilter,
    agent_radius: f32,
    nulls: NullOuts,
) -> NearestAnswer {
    const F: &str = "navstar_mesh_nearest_point_for_agent";
    let mut out_point = Out::<f32>::new(3, nulls.a);
    let mut out_polygon = Out::<u32>::new(1, nulls.b);
    let mut out_distance = Out::<f32>::new(1, nulls.c);
    // SAFETY: the mesh NULL or live; `point` NULL or 3 floats; `filter` NULL or a
    // filter; each output NULL or writable (3 floats for the point).
    let status = unsafe {
        navstar_mesh_nearest_point_for_agent(
            mesh_ptr(mesh),
            opt_ptr(&point),
            max_distance,
            filter.as_ptr(),
            agent_radius,
            out_point.ptr(),
            out_polygon.ptr(),
            out_distance.ptr(),
        )
    };
    let message = check_status_and_message(F, status);
    let ok = (status as i32) >= 0;
    NearestAnswer {
        status,
        message,
        point: out_point.get(ok, F).map(|p| [p[0], p[1], p[2]]),
        polygon: out_polygon.get(ok, F).map(|p| p[0]),
        distance: out_distance.get(ok, F).map(|d| d[0]),
    }
}

/// Calls `navstar_mesh_raycast_for_agent`; `out_hit` is untouched after an error.
pub fn c_raycast_for_agent(
    mesh: Option<&CMesh>,
    start: Option<[f32; 3]>,
    end: Option<[f32; 3]>,
    filter: &CFilter,
    agent_radius: f32,
    out_null: bool,
) -> OneAnswer<NavstarRaycastHit> {
    const F: &str = "navstar_mesh_raycast_for_agent";
    let mut hit = Out::<NavstarRaycastHit>::new(1, out_null);
    // SAFETY: the mesh NULL or live; points NULL or 3 floats; `filter` NULL or a filter;
    // `out_hit` NULL or writable.
    let status = unsafe {
        navstar_mesh_raycast_for_agent(
            mesh_ptr(mesh),
            opt_ptr(&start),
            opt_ptr(&end),
            filter.as_ptr(),
            agent_radius,
            hit.ptr(),
        )
    };
    let message = check_status_and_message(F, status);
    let ok = (status as i32) >= 0;
    OneAnswer {
        status,
        message,
        value: hit.get(ok, F).map(|h| h[0]),
    }
}

/// What `navstar_mesh_move_along_surface_for_agent` answered: the visited list (its
/// buffer rules checked by [`call_list`]) and the move (`None` after an error or when
/// `out_move` was NULL).
pub struct MoveAnswer {
    /// The status, message, count and polygons written.
    pub list: ListAnswer<u32>,
    /// `*out_move`.
    pub moved: Option<NavstarSurfaceMove>,
}

/// Calls `navstar_mesh_move_along_surface_for_agent`; `out_move` is untouched after an
/// error.
#[allow(clippy::too_many_arguments)]
pub fn c_move_for_agent(
    mesh: Option<&CMesh>,
    start_polygon: u32,
    start: Option<[f32; 3]>,
    target: Option<[f32; 3]>,
    filter: &CFilter,
    agent_radius: f32,
    buffers: ListBuffers,
    move_null: bool,
) -> MoveAnswer {
    const F: &str = "navstar_mesh_move_along_surface_for_agent";
    let mut out_move = Guarded::<NavstarSurfaceMove>::new(1, move_null);
    let list = call_list(F, buffers, |visited, capacity, count| {
        // SAFETY: the mesh NULL or live; points NULL or 3 floats; the filter NULL or a
        // filter; `out_move` NULL or one struct; `visited` NULL or `capacity` slots;
        // `count` NULL or writable.
        unsafe {
            navstar_mesh_move_along_surface_for_agent(
                mesh_ptr(mesh),
                start_polygon,
                opt_ptr(&start),
                opt_ptr(&target),
                filter.as_ptr(),
                agent_radius,
                out_move.as_mut_ptr(),
                visited,
                capacity,
                count,
            )
        }
    });
    let ok = (list.status as i32) >= 0;
    let moved = out_move.written(usize::from(ok), F).first().copied();
    MoveAnswer { list, moved }
}

/// Calls `navstar_query_distance_to_wall_for_agent`; `out_wall` is untouched after an
/// error.
pub fn c_wall_for_agent(
    query: Option<&CQuery>,
    point: Option<[f32; 3]>,
    radius: f32,
    filter: &CFilter,
    agent_radius: f32,
    out_null: bool,
) -> OneAnswer<NavstarWallDistance> {
    const F: &str = "navstar_query_distance_to_wall_for_agent";
    let mut out = Guarded::<NavstarWallDistance>::new(1, out_null);
    let query_ptr = query.map_or(std::ptr::null_mut(), CQuery::as_ptr);
    // SAFETY: the query NULL or live and used by this thread; the point NULL or 3
    // floats; the filter NULL or a filter; `out` NULL or one struct.
    let status = unsafe {
        navstar_query_distance_to_wall_for_agent(
            query_ptr,
            opt_ptr(&point),
            radius,
            filter.as_ptr(),
            agent_radius,
            out.as_mut_ptr(),
        )
    };
    let message = check_status_and_message(F, status);
    let ok = (status as i32) >= 0;
    OneAnswer {
        status,
        message,
        value: out.written(usize::from(ok), F).first().copied(),
    }
}

/// What a random point call answered.
pub struct RandomAnswer {
    /// The function called.
    pub function: &'static str,
    /// The status.
    pub status: NavstarStatus,
    /// The thread's error message after the call.
    pub message: String,
    /// `out_point` (`None` after an error).
    pub point: Option<[f32; 3]>,
    /// `*out_polygon` (`None` after an error or when NULL).
    pub polygon: Option<u32>,
}

/// Calls `navstar_mesh_random_point_for_agent` (`around` `None`, with `mesh`) or
/// `navstar_query_random_point_around_for_agent` (with `query`, around a center within a
/// radius); outputs are untouched after an error. `state` NULL when `None`.
#[allow(clippy::too_many_arguments)]
pub fn c_random_for_agent(
    mesh: Option<&CMesh>,
    query: Option<&CQuery>,
    around: Option<(Option<[f32; 3]>, f32)>,
    filter: &CFilter,
    agent_radius: f32,
    state: Option<&mut u64>,
    point_null: bool,
    polygon_null: bool,
) -> RandomAnswer {
    let state_ptr = state.map_or(std::ptr::null_mut(), std::ptr::from_mut);
    let mut out_point = Guarded::<[f32; 3]>::new(1, point_null);
    let mut out_polygon = Guarded::<u32>::new(1, polygon_null);
    let (function, status) = match around {
        // SAFETY: the mesh NULL or live; the filter NULL or a filter; the state NULL or
        // a u64; outputs NULL or one item.
        None => ("navstar_mesh_random_point_for_agent", unsafe {
            navstar_mesh_random_point_for_agent(
                mesh_ptr(mesh),
                filter.as_ptr(),
                agent_radius,
                state_ptr,
                out_point.as_mut_ptr().cast(),
                out_polygon.as_mut_ptr(),
            )
        }),
        // SAFETY: the query NULL or live and used by this thread; the center NULL or 3
        // floats; the filter NULL or a filter; the state NULL or a u64; outputs NULL or
        // one item.
        Some((center, radius)) => ("navstar_query_random_point_around_for_agent", unsafe {
            navstar_query_random_point_around_for_agent(
                query.map_or(std::ptr::null_mut(), CQuery::as_ptr),
                opt_ptr(&center),
                radius,
                filter.as_ptr(),
                agent_radius,
                state_ptr,
                out_point.as_mut_ptr().cast(),
                out_polygon.as_mut_ptr(),
            )
        }),
    };
    let message = check_status_and_message(function, status);
    let ok = usize::from((status as i32) >= 0);
    RandomAnswer {
        function,
        status,
        message,
        point: out_point.written(ok, function).first().copied(),
        polygon: out_polygon.written(ok, function).first().copied(),
    }
}
