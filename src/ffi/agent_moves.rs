//! The queries for agents that move, for a disc-shaped agent: moving along the surface,
//! the distance to the nearest wall and random points where the disc fits
//! (`NavMesh::move_along_surface_for_agent`, `Query::distance_to_wall_for_agent`,
//! `NavMesh::random_point_for_agent`, `Query::random_point_around_for_agent`).

use super::agents::{
    NavstarSurfaceMove, NavstarWallDistance, SurfaceMoveArgs, check_radius, random_point_answer,
    surface_move, wall_answer,
};
use super::boundary::{Out, read_point, run};
use super::clearance::read_agent_radius;
use super::filter::{NavstarQueryFilter, read_filter};
use super::handle::{self, NavstarMesh, NavstarQuery};
use super::status::NavstarStatus;

/// As `navstar_mesh_move_along_surface`, for the centre of a disc of radius
/// `agent_radius` (world units, finite, >= 0; the agent's whole radius, the mesh's baked
/// radius included): the move slides along the boundary of the region where the disc
/// fits (the walls moved in by the radius; round a convex wall corner a polygon of 8
/// sides round the corner's circle), so the disc never overlaps a wall. `start` first
/// moves to the nearest point where the disc fits in `start_polygon` (anywhere with
/// `NAVSTAR_NO_POLYGON`); when the disc fits nowhere in `start_polygon`, the move is the
/// plain one (so that the agent can walk out of a narrow place). The polygons reported (`out_move->polygon`, `out_visited`) are the mesh's
/// own. At or below the mesh's baked radius this is `navstar_mesh_move_along_surface`.
/// The first call for a radius and filter builds the mesh's eroded copy for them.
///
/// Arguments as `navstar_mesh_move_along_surface`, and `agent_radius` (in).
///
/// `NAVSTAR_BUFFER_TOO_SMALL` when the visited polygons do not fit: the first `capacity`
/// are written, and `out_move` is still the full answer.
/// `NAVSTAR_ERROR_INVALID_ARGUMENT` for a NaN, infinite or negative `agent_radius`, a
/// `start_polygon` that is not a polygon of the mesh or that the filter refuses, or
/// when no point of the mesh keeps that distance from its walls.
///
/// # Safety
/// As `navstar_mesh_move_along_surface`.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn navstar_mesh_move_along_surface_for_agent(
    mesh: *const NavstarMesh,
    start_polygon: u32,
    start: *const f32,
    target: *const f32,
    filter: *const NavstarQueryFilter,
    agent_radius: f32,
    out_move: *mut NavstarSurfaceMove,
    out_visited: *mut u32,
    capacity: u32,
    out_count: *mut u32,
) -> NavstarStatus {
    surface_move(
        "navstar_mesh_move_along_surface_for_agent",
        SurfaceMoveArgs {
            mesh,
            start_polygon,
            start,
            target,
            filter,
            agent_radius: Some(agent_radius),
        },
        out_move,
        (out_visited, capacity, out_count),
    )
}

/// As `navstar_query_distance_to_wall`, for a disc of radius `agent_radius` (world
/// units, finite, >= 0): how far its centre may still go before the disc touches a wall.
/// `point` first moves to the nearest point where the disc fits; `distance` is measured
/// from there to the boundary of that region (the walls moved in by the radius: the
/// distance to the walls less the radius along a straight wall, up to 0.0049
/// `agent_radius` less round a convex wall corner), `point` lies on that boundary (not on
/// the wall), `normal` is the boundary's and `polygon` the mesh's polygon holding it.
/// `radius` bounds the search in the same units. At or below the mesh's baked radius this
/// is `navstar_query_distance_to_wall`.
///
/// `NAVSTAR_ERROR_INVALID_ARGUMENT` for a NaN or negative `radius`, a NaN, infinite or
/// negative `agent_radius`, or when no point of the mesh keeps that distance from its
/// walls.
///
/// # Safety
/// As `navstar_query_distance_to_wall`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_query_distance_to_wall_for_agent(
    query: *mut NavstarQuery,
    point: *const f32,
    radius: f32,
    filter: *const NavstarQueryFilter,
    agent_radius: f32,
    out_wall: *mut NavstarWallDistance,
) -> NavstarStatus {
    run("navstar_query_distance_to_wall_for_agent", || {
        let out_wall = Out::required(out_wall, "out_wall")?;
        let state = handle::borrow_mut(query, "query")?;
        let point = read_point(point, "point")?;
        check_radius(radius)?;
        let agent_radius = read_agent_radius(agent_radius)?;
        let filter = read_filter(filter, "filter")?;
        let wall = state
            .query
            .distance_to_wall_for_agent(point, radius, &filter, agent_radius)?;
        out_wall.set(wall_answer(wall));
        Ok(NavstarStatus::NavstarOk)
    })
}

/// As `navstar_mesh_random_point`, for a disc of radius `agent_radius` (world units,
/// finite, >= 0): a point where the disc fits (at least the radius from every wall),
/// uniform by ground-plane area over that region, and the mesh's polygon holding it.
/// Same generator and 4 draws per point as `navstar_mesh_random_point`, on the mesh's
/// eroded copy; at or below the mesh's baked radius this is `navstar_mesh_random_point`.
///
/// `NAVSTAR_ERROR_INVALID_ARGUMENT` for a NaN, infinite or negative `agent_radius`, or
/// when the disc fits nowhere; `NAVSTAR_ERROR_NOT_ON_MESH` as for
/// `navstar_mesh_random_point`. On an error the state is left as it was.
///
/// # Safety
/// As `navstar_mesh_random_point`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_mesh_random_point_for_agent(
    mesh: *const NavstarMesh,
    filter: *const NavstarQueryFilter,
    agent_radius: f32,
    rng_state: *mut u64,
    out_point: *mut f32,
    out_polygon: *mut u32,
) -> NavstarStatus {
    run("navstar_mesh_random_point_for_agent", || {
        random_point_answer(rng_state, out_point, out_polygon, |rng| {
            let mesh = handle::borrow(mesh, "mesh")?;
            let agent_radius = read_agent_radius(agent_radius)?;
            let filter = read_filter(filter, "filter")?;
            Ok(mesh.random_point_for_agent(&filter, agent_radius, &mut || rng.next_u64())?)
        })
    })
}

/// As `navstar_query_random_point_around`, for a disc of radius `agent_radius` (world
/// units, finite, >= 0): `center` first moves to the nearest point where the disc fits,
/// and the point is drawn, by area, from the region where the disc fits that the disc
/// can walk to from there through portals within `radius` of it (the point may lie
/// outside the circle, as for `navstar_query_random_point_around`). `out_polygon` is the
/// mesh's polygon. At or below the mesh's baked radius this is
/// `navstar_query_random_point_around`.
///
/// `NAVSTAR_ERROR_INVALID_ARGUMENT` for a NaN or negative `radius`, a NaN, infinite or
/// negative `agent_radius`, or when the disc fits nowhere. On an error the state is left
/// as it was.
///
/// # Safety
/// As `navstar_query_random_point_around`.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn navstar_query_random_point_around_for_agent(
    query: *mut NavstarQuery,
    center: *const f32,
    radius: f32,
    filter: *const NavstarQueryFilter,
    agent_radius: f32,
    rng_state: *mut u64,
    out_point: *mut f32,
    out_polygon: *mut u32,
) -> NavstarStatus {
    run("navstar_query_random_point_around_for_agent", || {
        random_point_answer(rng_state, out_point, out_polygon, |rng| {
            let state = handle::borrow_mut(query, "query")?;
            let center = read_point(center, "center")?;
            check_radius(radius)?;
            let agent_radius = read_agent_radius(agent_radius)?;
            let filter = read_filter(filter, "filter")?;
            Ok(state.query.random_point_around_for_agent(
                center,
                radius,
                &filter,
                agent_radius,
                &mut || rng.next_u64(),
            )?)
        })
    })
}
