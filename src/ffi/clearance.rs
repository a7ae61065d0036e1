//! The mesh's own queries for a disc-shaped agent (no search): the nearest point where
//! the disc fits, and a raycast of the disc's centre (`NavMesh::nearest_point_for_agent`,
//! `NavMesh::raycast_for_agent`).

use super::boundary::{FfiError, Out, put, read_point, run};
use super::filter::{NavstarQueryFilter, read_filter};
use super::handle::{self, NavstarMesh};
use super::spatial::NavstarRaycastHit;
use super::status::NavstarStatus;

/// The query radius, checked before any work: finite and >= 0.
pub(super) fn read_agent_radius(agent_radius: f32) -> Result<f32, FfiError> {
    if agent_radius.is_finite() && agent_radius >= 0.0 {
        Ok(agent_radius)
    } else {
        Err(FfiError::invalid(format!(
            "agent_radius is {agent_radius}; it must be finite and >= 0"
        )))
    }
}

/// As `navstar_mesh_nearest_point`, for an agent of radius `agent_radius` (world units,
/// finite, >= 0; the agent's whole radius, the mesh's baked radius included): the
/// nearest point where the disc fits, at least the radius from every wall (edges without
/// a neighbour, and edges into polygons `filter` refuses), and the polygon of the mesh
/// holding it. At or below the mesh's baked radius this is `navstar_mesh_nearest_point`.
/// The first call for a radius and filter builds the mesh's eroded copy for them (kept
/// for later queries with that radius).
///
/// * `point` (in): 3 floats.
/// * `max_distance` (in): >= 0, world units; INFINITY for any distance.
/// * `filter` (in, optional): NULL for the default filter.
/// * `agent_radius` (in): the agent's radius.
/// * `out_point` (out, optional): 3 floats, the nearest point.
/// * `out_polygon`, `out_distance` (out, optional): its polygon and the distance.
///
/// `NAVSTAR_ERROR_NOT_ON_MESH` (outputs untouched) when no such point is that close;
/// `NAVSTAR_ERROR_INVALID_ARGUMENT` for a NaN, infinite or negative `agent_radius`, or
/// when no point of the mesh keeps that distance from its walls.
///
/// # Safety
/// `mesh` NULL or live; `point` NULL or 3 readable floats; `filter` NULL or readable;
/// each output NULL or writable (`out_point` 3 floats).
#[allow(clippy::too_many_arguments)] // the C signature: one argument per input and output
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_mesh_nearest_point_for_agent(
    mesh: *const NavstarMesh,
    point: *const f32,
    max_distance: f32,
    filter: *const NavstarQueryFilter,
    agent_radius: f32,
    out_point: *mut f32,
    out_polygon: *mut u32,
    out_distance: *mut f32,
) -> NavstarStatus {
    run("navstar_mesh_nearest_point_for_agent", || {
        let mesh = handle::borrow(mesh, "mesh")?;
        let point = read_point(point, "point")?;
        if max_distance.is_nan() || max_distance < 0.0 {
            return Err(FfiError::invalid(format!(
                "max_distance is {max_distance}; it must be >= 0 (INFINITY allowed)"
            )));
        }
        let agent_radius = read_agent_radius(agent_radius)?;
        let filter = read_filter(filter, "filter")?;
        let Some(nearest) =
            mesh.nearest_point_for_agent(point, max_distance, Some(&filter), agent_radius)?
        else {
            let distance = mesh
                .nearest_point_for_agent(point, f32::INFINITY, Some(&filter), agent_radius)?
                .map_or(f32::INFINITY, |n| n.distance);
            return Err(FfiError::new(
                NavstarStatus::NavstarErrorNotOnMesh,
                format!(
                    "no point where an agent of radius {agent_radius} fits within {max_distance} of the point; \
                     the nearest is {distance} away"
                ),
            ));
        };
        put(out_point.cast::<[f32; 3]>(), nearest.point.to_array());
        put(out_polygon, nearest.polygon);
        put(out_distance, nearest.distance);
        Ok(NavstarStatus::NavstarOk)
    })
}

/// As `navstar_mesh_raycast`, for the centre of a disc of radius `agent_radius` (world
/// units, finite, >= 0): `start` moves to the nearest point where the disc fits, and the
/// walk stops where the disc would touch a wall (an edge without a neighbour, or into a
/// polygon `filter` refuses). The hit's normal is that of the eroded boundary: the
/// wall's along a straight wall, round a convex wall corner the direction from the
/// corner (to within pi / 32). `polygon` is the mesh's polygon. At or below the mesh's
/// baked radius this is `navstar_mesh_raycast`. Returns `NAVSTAR_OK` whether or not
/// something was hit.
///
/// `NAVSTAR_ERROR_INVALID_ARGUMENT` for a NaN, infinite or negative `agent_radius`, or
/// when no point of the mesh keeps that distance from its walls.
///
/// # Safety
/// `mesh` NULL or live; `start`, `end` NULL or 3 readable floats; `filter` NULL or
/// readable; `out_hit` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_mesh_raycast_for_agent(
    mesh: *const NavstarMesh,
    start: *const f32,
    end: *const f32,
    filter: *const NavstarQueryFilter,
    agent_radius: f32,
    out_hit: *mut NavstarRaycastHit,
) -> NavstarStatus {
    run("navstar_mesh_raycast_for_agent", || {
        let out_hit = Out::required(out_hit, "out_hit")?;
        let mesh = handle::borrow(mesh, "mesh")?;
        let start = read_point(start, "start")?;
        let end = read_point(end, "end")?;
        let agent_radius = read_agent_radius(agent_radius)?;
        let filter = read_filter(filter, "filter")?;
        let ray = mesh.raycast_for_agent(start, end, &filter, agent_radius)?;
        out_hit.set(NavstarRaycastHit {
            hit: u32::from(ray.hit.is_some()),
            t: ray.t,
            point: ray.point.to_array(),
            normal: ray.hit.map_or([0.0; 3], |wall| wall.normal.to_array()),
            polygon: ray.polygon,
        });
        Ok(NavstarStatus::NavstarOk)
    })
}
