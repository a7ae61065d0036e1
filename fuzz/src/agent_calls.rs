//! Contract-keeping wrappers over the mesh queries for a disc-shaped agent
//! (`navstar_mesh_nearest_point_for_agent`, `navstar_mesh_raycast_for_agent`), as
//! `calls.rs` wraps the plain ones: NULL where asked, every output guarded, the status
//! and message rules checked, outputs untouched after an error.

use navstar::ffi::{
    NavstarRaycastHit, navstar_mesh_nearest_point_for_agent, navstar_mesh_raycast_for_agent,
};

use crate::calls::{NearestAnswer, NullOuts, OneAnswer, Out, mesh_ptr};
use crate::input::CFilter;
use crate::{CMesh, check_status_and_message, opt_ptr};

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
