//! The distance from a point to the nearest wall, searched over the polygons near it.

use std::cell::Cell;

use glam::Vec3;

use super::Query;
use crate::error::{Endpoint, QueryError};
use crate::filter::QueryFilter;
use crate::geometry::closest_point_on_segment_2d;
use crate::mesh::NO_NEIGHBOUR;

/// The nearest wall found by [`Query::distance_to_wall`].
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct WallDistance {
    /// The ground-plane distance from the (snapped) point to the wall, world units.
    pub distance: f32,
    /// The nearest point of the wall, in world coordinates (on the wall edge, with the
    /// height of the edge there).
    pub point: Vec3,
    /// The unit normal of the wall edge in the ground plane (no up component),
    /// pointing into the walkable side. When the nearest point is a corner and the
    /// point lies behind this edge's line (the two walls meeting there are equally
    /// near, up to rounding), the unit direction from the corner to the point.
    pub normal: Vec3,
    /// The polygon whose edge the wall is.
    pub polygon: u32,
}

impl Query {
    /// The nearest wall within `radius` of `point` (Detour's `findDistanceToWall`,
    /// Unity's `FindClosestEdge`): the distance, the wall's nearest point and its
    /// normal; `None` when no wall is within `radius`.
    ///
    /// Walls are the edges of admitted polygons that have no neighbour or whose
    /// neighbour `filter` refuses. `point` is first moved to the nearest point of an
    /// admitted polygon (3D distance, any distance); distances are measured from there
    /// in the ground plane. The search walks from that polygon to neighbours across
    /// portals within the best distance so far (at first `radius`; infinity searches
    /// all of the connected walkable area), never the whole mesh: the answer is the
    /// nearest point of the boundary of the walkable area around the point, since a
    /// straight line to it crosses only portals nearer than it. Allocates nothing in
    /// steady state.
    ///
    /// # Errors
    /// [`QueryError::NonFinitePoint`], [`QueryError::InvalidOption`] for a NaN or
    /// negative radius, [`QueryError::InvalidAreaCost`] for a filter with a bad cost,
    /// [`QueryError::NotOnMesh`] when the filter admits no polygon,
    /// [`QueryError::OutOfMemory`].
    ///
    /// # Example
    /// ```
    /// # use navstar::{glam::Vec3, MeshOptions, NavMesh};
    /// # let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// # let vertices = [v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0), v(3.0, 0.0), v(0.0, 1.0), v(1.0, 1.0), v(2.0, 1.0), v(3.0, 1.0)];
    /// # let indices = [0, 1, 5, 4, /**/ 1, 2, 6, 5, /**/ 2, 3, 7, 6];
    /// # let mesh = NavMesh::from_polygons(&vertices, &indices, &[4, 4, 4], &MeshOptions::default())?;
    /// // `mesh`: three unit squares in a row along x, polygons 0, 1, 2 (y up).
    /// use navstar::{Query, QueryFilter};
    ///
    /// let mut query = Query::new(&mesh);
    /// let filter = QueryFilter::default();
    /// let wall = query.distance_to_wall(Vec3::new(1.5, 0.0, 0.25), 2.0, &filter)?.unwrap();
    /// assert_eq!((wall.distance, wall.point), (0.25, Vec3::new(1.5, 0.0, 0.0)));
    /// assert_eq!(wall.normal, Vec3::new(0.0, 0.0, 1.0));
    /// assert!(query.distance_to_wall(Vec3::new(1.5, 0.0, 0.5), 0.4, &filter)?.is_none());
    /// // Closing square 2 makes its edge x = 2 a wall.
    /// mesh.set_polygon_flags(2, 0)?;
    /// let wall = query.distance_to_wall(Vec3::new(1.9, 0.0, 0.5), 2.0, &filter)?.unwrap();
    /// assert!((wall.distance - 0.1).abs() < 1e-6);
    /// assert_eq!(wall.normal, Vec3::new(-1.0, 0.0, 0.0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "find_distance_to_wall")]
    #[doc(alias = "find_closest_edge")]
    pub fn distance_to_wall(
        &mut self,
        point: Vec3,
        radius: f32,
        filter: &QueryFilter,
    ) -> Result<Option<WallDistance>, QueryError> {
        Query::check_radius(radius)?;
        filter.validate()?;
        let start = self.snap(point, Endpoint::Start, filter, f32::INFINITY)?;
        let mesh = self.mesh.data();
        let up = mesh.up;
        let center = up.ground(start.point);
        let admitted = |p: u32| filter.admits(mesh.flags_of(p));
        let reach = Cell::new(radius);
        // (polygon, wall slot, parameter along the edge, whether the point is on its
        // walkable side) of the nearest wall so far.
        let mut best: Option<(u32, usize, f32, bool)> = None;
        self.nearby
            .walk(mesh, start.polygon, center, &reach, admitted, |polygon| {
                for slot in mesh.corner_range(polygon) {
                    let neighbour = mesh.neighbours[slot];
                    if neighbour != NO_NEIGHBOUR && admitted(neighbour) {
                        continue;
                    }
                    let (a, b) = mesh.edge(polygon, slot);
                    let (a, b) = (mesh.ground[a as usize], mesh.ground[b as usize]);
                    let (closest, t) = closest_point_on_segment_2d(center, a, b);
                    // The ends exactly, so that the walls meeting at a corner tie.
                    let closest = match t {
                        0.0 => a,
                        1.0 => b,
                        _ => closest,
                    };
                    let distance = closest.distance(center);
                    // At a corner, the wall whose walkable side holds the point.
                    let facing = (b - a).perp().dot(center - closest) >= 0.0;
                    let better = match best {
                        None => distance <= reach.get(),
                        Some((_, _, _, best_facing)) => {
                            distance < reach.get()
                                || (distance == reach.get() && facing && !best_facing)
                        }
                    };
                    if better {
                        reach.set(distance);
                        best = Some((polygon, slot, t, facing));
                    }
                }
            })?;
        Ok(best.map(|(polygon, slot, t, facing)| {
            let (a, b) = mesh.edge(polygon, slot);
            let edge = mesh.ground[b as usize] - mesh.ground[a as usize];
            let point = mesh.vertices[a as usize].lerp(mesh.vertices[b as usize], t);
            // Corners run counter-clockwise: the walkable side is left of the edge. A
            // point behind the edge's line is nearest to its end, a corner where another
            // wall meets it; when rounding kept that other wall a hair farther, the
            // direction from the corner to the point is the corner's normal.
            let away = center - up.ground(point);
            let normal = if facing || away == glam::Vec2::ZERO {
                edge.perp().normalize_or_zero()
            } else {
                away.normalize()
            };
            WallDistance {
                distance: reach.get(),
                point,
                normal: up.lift(normal),
                polygon,
            }
        }))
    }
}
