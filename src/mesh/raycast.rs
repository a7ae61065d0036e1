//! Raycasts along the mesh surface: does a straight walk stay on the mesh, and where
//! does it hit a wall.

use glam::{Vec2, Vec3};

use super::{MeshData, NavMesh, WalkEnd};
use crate::error::{Endpoint, QueryError};
use crate::filter::QueryFilter;
use crate::geometry::barycentric_2d;

/// The answer of [`NavMesh::raycast`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RaycastHit {
    /// Whether the walk left the mesh (hit a wall, or a polygon the filter refuses).
    pub hit: bool,
    /// How far along the ground-plane projection of the segment from the (snapped)
    /// start to the end the walk got, from 0 to 1; 1 when nothing was hit.
    pub t: f32,
    /// Where the walk stopped, in world coordinates with the mesh's height there: the
    /// hit point on the wall edge, or the end of the ground segment on the surface of
    /// the last polygon when nothing was hit.
    pub point: Vec3,
    /// The unit normal of the wall edge hit, in the ground plane (no up component),
    /// pointing back into the walkable side; zero when nothing was hit.
    pub normal: Vec3,
    /// The polygon the walk was in when it stopped.
    pub polygon: u32,
}

impl NavMesh {
    /// The point of the mesh nearest to `point` (3D distance) within `max_distance`,
    /// among the polygons `filter` admits; `None` when none is that close.
    pub fn nearest_point_filtered(
        &self,
        point: Vec3,
        max_distance: f32,
        filter: &QueryFilter,
    ) -> Option<super::NearestPoint> {
        let mesh = self.data();
        mesh.nearest_point(point, max_distance, |p| filter.admits(mesh.flags_of(p)))
    }

    /// `point` moved to the nearest point of a polygon `filter` admits, at any distance:
    /// where [`NavMesh::raycast`] and [`NavMesh::interpolate`] start.
    pub(super) fn place_anywhere(
        &self,
        point: Vec3,
        filter: &QueryFilter,
    ) -> Result<super::NearestPoint, QueryError> {
        self.nearest_point_filtered(point, f32::INFINITY, filter)
            .ok_or(QueryError::NotOnMesh {
                endpoint: Endpoint::Start,
                distance: f32::INFINITY,
                max_distance: f32::INFINITY,
            })
    }

    /// Walks straight from `start` towards `end` along the mesh surface, in the ground
    /// plane (Detour's `raycast`, Unity's `NavMesh.Raycast`), through polygons `filter`
    /// admits.
    ///
    /// `start` is first moved to the nearest point of an admitted polygon (3D distance,
    /// any distance). The walk is exact on the awkward cases: a ray through a vertex
    /// shared by walkable polygons, or along an edge between two of them, goes on; a ray
    /// along a wall stays on the mesh; an edge into a refused polygon is a wall.
    ///
    /// # Errors
    /// [`QueryError::NonFinitePoint`] for a NaN or infinite point,
    /// [`QueryError::NotOnMesh`] when the filter admits no polygon at all.
    pub fn raycast(
        &self,
        start: Vec3,
        end: Vec3,
        filter: &QueryFilter,
    ) -> Result<RaycastHit, QueryError> {
        if !start.is_finite() {
            return Err(QueryError::NonFinitePoint(Endpoint::Start));
        }
        if !end.is_finite() {
            return Err(QueryError::NonFinitePoint(Endpoint::Goal));
        }
        let from = self.place_anywhere(start, filter)?;
        let mesh = self.data();
        Ok(cast(mesh, from.polygon, from.point, end, |p| {
            filter.admits(mesh.flags_of(p))
        }))
    }
}

/// The raycast from `start` (on `polygon`) towards `end`.
fn cast(
    mesh: &MeshData,
    polygon: u32,
    start: Vec3,
    end: Vec3,
    passable: impl Fn(u32) -> bool,
) -> RaycastHit {
    let up = mesh.up;
    let (from, to) = (up.ground(start), up.ground(end));
    match mesh.walk_straight(polygon, from, to, passable) {
        WalkEnd::Reached(last) => RaycastHit {
            hit: false,
            t: 1.0,
            point: mesh.point_over(last, to),
            normal: Vec3::ZERO,
            polygon: last,
        },
        WalkEnd::Blocked {
            polygon,
            t,
            wall_slot,
        } => {
            let t = t.clamp(0.0, 1.0) as f32;
            let ground = from + (to - from) * t;
            if wall_slot == usize::MAX {
                // The walk gave up (it cannot happen on a valid mesh): stop where it was.
                let here = start.lerp(end, t);
                return RaycastHit {
                    hit: true,
                    t,
                    point: mesh.closest_point_on_polygon(polygon, here),
                    normal: Vec3::ZERO,
                    polygon,
                };
            }
            let (a, b) = mesh.edge(polygon, wall_slot);
            let (a, b) = (a as usize, b as usize);
            let (ga, gb) = (mesh.ground[a], mesh.ground[b]);
            let edge = gb - ga;
            // Corners run counter-clockwise: the inside is left of a -> b.
            let inward = edge.perp().normalize_or_zero();
            let along = if edge.length_squared() > 0.0 {
                ((ground - ga).dot(edge) / edge.length_squared()).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let on_wall = mesh.vertices[a].lerp(mesh.vertices[b], along);
            RaycastHit {
                hit: true,
                t,
                point: on_wall,
                normal: up.lift(inward),
                polygon,
            }
        }
    }
}

impl MeshData {
    /// The point of `polygon`'s surface (the fan of triangles from its first corner, as
    /// in [`MeshData::closest_point_on_polygon`]) over ground-plane position `ground`:
    /// `ground` with the height of the fan triangle that holds it (or, for a position a
    /// rounding error outside, of the one it is least outside of).
    pub(crate) fn point_over(&self, polygon: u32, ground: Vec2) -> Vec3 {
        let up = self.up;
        let corners = &self.corners[self.corner_range(polygon)];
        let first = corners[0] as usize;
        // (smallest weight, height): the triangle whose smallest weight is largest holds
        // the position, or is the nearest to holding it.
        let mut best: Option<(f32, f32)> = None;
        for pair in corners[1..].windows(2) {
            let triangle = [first, pair[0] as usize, pair[1] as usize];
            let [a, b, c] = triangle.map(|v| self.ground[v]);
            let Some(weights) = barycentric_2d(ground, a, b, c) else {
                continue;
            };
            let least = weights[0].min(weights[1]).min(weights[2]);
            if best.is_none_or(|(l, _)| least > l) {
                let height = triangle
                    .iter()
                    .zip(weights)
                    .map(|(&v, w)| w * up.height(self.vertices[v]))
                    .sum();
                best = Some((least, height));
            }
        }
        match best {
            Some((_, height)) => up.place(ground, height),
            // No triangle has area in the ground plane (cannot happen on a valid mesh).
            None => self.closest_point_on_polygon(polygon, up.place(ground, 0.0)),
        }
    }
}
