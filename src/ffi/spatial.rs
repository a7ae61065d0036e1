//! Queries on the mesh itself (no search): nearest point, raycast, vertex data.

use super::boundary::{FfiError, Out, non_null, put, read_array, read_point, run, write_array};
use super::filter::{NavstarQueryFilter, read_filter};
use super::handle::{self, NavstarMesh};
use super::status::NavstarStatus;
use crate::QueryError;

/// The answer of `navstar_mesh_raycast`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NavstarRaycastHit {
    /// 1 when the walk left the mesh (a wall, or a polygon the filter refuses), else 0.
    pub hit: u32,
    /// How far along the ground projection of the segment (snapped start to end) the
    /// walk got, 0 to 1; 1 when nothing was hit.
    pub t: f32,
    /// Where it stopped (xyz, with the mesh's height there).
    pub point: [f32; 3],
    /// Unit normal of the wall edge hit, in the ground plane, pointing back into the
    /// walkable side; zero when nothing was hit.
    pub normal: [f32; 3],
    /// The polygon the walk was in when it stopped.
    pub polygon: u32,
}

/// The point of the mesh nearest to `point` (3D distance) within `max_distance`, among
/// the polygons `filter` admits (Unity's SamplePosition, Detour's findNearestPoly).
///
/// * `point` (in): 3 floats.
/// * `max_distance` (in): >= 0, world units; INFINITY for any distance.
/// * `filter` (in, optional): NULL for the default filter.
/// * `out_point` (out, optional): 3 floats, the nearest point.
/// * `out_polygon`, `out_distance` (out, optional): its polygon and the distance.
///
/// `NAVSTAR_ERROR_NOT_ON_MESH` (outputs untouched) when no admitted polygon is that
/// close; the message gives the distance of the nearest one.
///
/// # Safety
/// `mesh` NULL or live; `point` NULL or 3 readable floats; `filter` NULL or readable;
/// each output NULL or writable (`out_point` 3 floats).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_mesh_nearest_point(
    mesh: *const NavstarMesh,
    point: *const f32,
    max_distance: f32,
    filter: *const NavstarQueryFilter,
    out_point: *mut f32,
    out_polygon: *mut u32,
    out_distance: *mut f32,
) -> NavstarStatus {
    run("navstar_mesh_nearest_point", || {
        let mesh = handle::borrow(mesh, "mesh")?;
        let point = read_point(point, "point")?;
        if max_distance.is_nan() || max_distance < 0.0 {
            return Err(FfiError::invalid(format!(
                "max_distance is {max_distance}; it must be >= 0 (INFINITY allowed)"
            )));
        }
        let filter = read_filter(filter, "filter")?;
        let Some(nearest) = mesh.nearest_point(point, max_distance, Some(&filter)) else {
            let distance = mesh
                .nearest_point(point, f32::INFINITY, Some(&filter))
                .map_or(f32::INFINITY, |n| n.distance);
            return Err(FfiError::new(
                NavstarStatus::NavstarErrorNotOnMesh,
                format!(
                    "no usable polygon within {max_distance} of the point; the nearest is {distance} away"
                ),
            ));
        };
        put(out_point.cast::<[f32; 3]>(), nearest.point.to_array());
        put(out_polygon, nearest.polygon);
        put(out_distance, nearest.distance);
        Ok(NavstarStatus::NavstarOk)
    })
}

/// Walks straight from `start` towards `end` along the mesh, in the ground plane
/// (Detour's raycast, Unity's NavMesh.Raycast). `start` is first moved to the nearest
/// admitted polygon. Returns `NAVSTAR_OK` whether or not something was hit; see
/// `NavstarRaycastHit`.
///
/// # Safety
/// `mesh` NULL or live; `start`, `end` NULL or 3 readable floats; `filter` NULL or
/// readable; `out_hit` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_mesh_raycast(
    mesh: *const NavstarMesh,
    start: *const f32,
    end: *const f32,
    filter: *const NavstarQueryFilter,
    out_hit: *mut NavstarRaycastHit,
) -> NavstarStatus {
    run("navstar_mesh_raycast", || {
        let out_hit = Out::required(out_hit, "out_hit")?;
        let mesh = handle::borrow(mesh, "mesh")?;
        let start = read_point(start, "start")?;
        let end = read_point(end, "end")?;
        let filter = read_filter(filter, "filter")?;
        let ray = mesh.raycast(start, end, &filter)?;
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

/// Interpolates per-vertex data at a point of the mesh: the point is moved to the
/// nearest admitted polygon, whose corner values are blended with mean value
/// coordinates (barycentric on triangles). The mesh keeps nothing.
///
/// * `values` (in): `value_count` floats, `channels` per vertex, vertex after vertex
///   in the numbering of the mesh's input (welded and unused vertices included);
///   `value_count` must be `navstar_mesh_vertex_count(mesh) * channels`.
/// * `channels` (in): >= 1.
/// * `out_values` (out): `channels` floats.
/// * `out_polygon` (out, optional): the polygon used.
///
/// # Safety
/// `mesh` NULL or live; `point` NULL or 3 readable floats; `values` NULL or
/// `value_count` readable floats; `filter` NULL or readable; `out_values` NULL or
/// `channels` writable floats; `out_polygon` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_mesh_interpolate(
    mesh: *const NavstarMesh,
    point: *const f32,
    values: *const f32,
    value_count: u32,
    channels: u32,
    filter: *const NavstarQueryFilter,
    out_values: *mut f32,
    out_polygon: *mut u32,
) -> NavstarStatus {
    run("navstar_mesh_interpolate", || {
        let mesh = handle::borrow(mesh, "mesh")?;
        let point = read_point(point, "point")?;
        if channels == 0 {
            return Err(FfiError::invalid("channels is 0; at least 1 is needed"));
        }
        let expected = u64::from(mesh.vertex_count()) * u64::from(channels);
        if u64::from(value_count) != expected {
            return Err(FfiError::invalid(format!(
                "value_count is {value_count}; the mesh has {} vertices, so {channels} channels need {expected}",
                mesh.vertex_count()
            )));
        }
        let out_values = non_null(out_values, "out_values")?.cast_mut();
        let values = read_array(values, value_count as usize, "values")?;
        let filter = read_filter(filter, "filter")?;
        let mut blended = Vec::new();
        blended
            .try_reserve_exact(channels as usize)
            .map_err(|_| FfiError::out_of_memory("no memory for the channels"))?;
        blended.resize(channels as usize, 0.0f32);
        let polygon = mesh
            .interpolate(point, &values, channels as usize, &mut blended, &filter)
            .map_err(|e: QueryError| FfiError::from(e))?;
        write_array(out_values, blended.into_iter());
        put(out_polygon, polygon);
        Ok(NavstarStatus::NavstarOk)
    })
}
