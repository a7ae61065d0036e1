//! Raycasts along the mesh surface: does a straight walk stay on the mesh, and where
//! does it hit a wall.

use glam::{Vec2, Vec3};

use super::{MeshData, NavMesh, WalkEnd};
use crate::error::{Endpoint, QueryError};
use crate::filter::QueryFilter;
use crate::geometry::barycentric_2d;

/// The answer of [`NavMesh::raycast`]: how far the walk got, and the wall it hit if it
/// hit one.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct Raycast {
    /// How far along the ground-plane projection of the segment from the (snapped)
    /// start to the end the walk got, from 0 to 1; 1 when nothing was hit.
    pub t: f32,
    /// Where the walk stopped, in world coordinates with the mesh's height there: the
    /// hit point on the wall edge, or the end of the ground segment on the surface of
    /// the last polygon when nothing was hit.
    pub point: Vec3,
    /// The polygon the walk was in when it stopped.
    pub polygon: u32,
    /// The wall the walk stopped at (an edge without a neighbour, or into a polygon the
    /// filter refuses); `None` when it reached the end of the segment.
    pub hit: Option<WallHit>,
}

/// The wall a [`NavMesh::raycast`] stopped at.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct WallHit {
    /// The unit normal of the wall edge, in the ground plane (no up component), pointing
    /// back into the walkable side. Zero only when the walk could not tell which edge it
    /// left by, which floating-point rounding on a degenerate polygon may cause and a
    /// well-formed mesh does not.
    pub normal: Vec3,
}

impl NavMesh {
    /// `point` moved to the nearest point of a polygon `filter` admits, at any distance:
    /// where [`NavMesh::raycast`] and [`NavMesh::interpolate`] start.
    pub(super) fn place_anywhere(
        &self,
        point: Vec3,
        filter: &QueryFilter,
    ) -> Result<super::NearestPoint, QueryError> {
        self.nearest_point(point, f32::INFINITY, Some(filter))
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
    ///
    /// # Example
    /// ```
    /// # use navstar::{glam::Vec3, MeshOptions, NavMesh};
    /// # let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// # let vertices = [v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0), v(3.0, 0.0), v(0.0, 1.0), v(1.0, 1.0), v(2.0, 1.0), v(3.0, 1.0)];
    /// # let indices = [0, 1, 5, 4, /**/ 1, 2, 6, 5, /**/ 2, 3, 7, 6];
    /// # let mesh = NavMesh::from_polygons(&vertices, &indices, &[4, 4, 4], &MeshOptions::default())?;
    /// // `mesh`: three unit squares in a row along x, polygons 0, 1, 2 (y up).
    /// use navstar::QueryFilter;
    ///
    /// let filter = QueryFilter::default();
    /// // Along the row: nothing in the way.
    /// let ray = mesh.raycast(Vec3::new(0.5, 0.0, 0.5), Vec3::new(2.5, 0.0, 0.5), &filter)?;
    /// assert!(ray.hit.is_none() && ray.t == 1.0);
    /// // Out through the wall z = 1, a fifth of the way along.
    /// let ray = mesh.raycast(Vec3::new(0.5, 0.0, 0.5), Vec3::new(0.5, 0.0, 3.0), &filter)?;
    /// assert_eq!((ray.t, ray.point), (0.2, Vec3::new(0.5, 0.0, 1.0)));
    /// assert_eq!(ray.hit.unwrap().normal, Vec3::new(0.0, 0.0, -1.0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "line_of_sight")]
    pub fn raycast(
        &self,
        start: Vec3,
        end: Vec3,
        filter: &QueryFilter,
    ) -> Result<Raycast, QueryError> {
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
) -> Raycast {
    let up = mesh.up;
    let (from, to) = (up.ground(start), up.ground(end));
    match mesh.walk_straight(polygon, from, to, passable) {
        WalkEnd::Reached(last) => Raycast {
            t: 1.0,
            point: mesh.point_over(last, to),
            polygon: last,
            hit: None,
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
                return Raycast {
                    t,
                    point: mesh.closest_point_on_polygon(polygon, here),
                    polygon,
                    hit: Some(WallHit { normal: Vec3::ZERO }),
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
            Raycast {
                t,
                point: on_wall,
                polygon,
                hit: Some(WallHit {
                    normal: up.lift(inward),
                }),
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
