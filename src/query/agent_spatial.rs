//! The queries near a point for a disc-shaped agent: the distance from the disc's
//! centre to the boundary of the region where it fits, and a random point of that region
//! within walking distance. Both run on the mesh's eroded copy (`mesh/clearance`) and
//! name the original polygons.

use glam::Vec3;

use super::clearance::eroded_options;
use super::{PathOptions, Query, WallDistance};
use crate::error::QueryError;
use crate::filter::QueryFilter;
use crate::mesh::RandomPoint;

impl Query {
    /// Like [`Query::distance_to_wall`], for an agent of radius `agent_radius` (world
    /// units, the whole radius, the mesh's baked radius included): how far the disc's
    /// centre may still go before the disc touches a wall. `point` is first moved to the
    /// nearest point where the disc fits (as [`crate::NavMesh::nearest_point_for_agent`]
    /// does); the answer is measured from there to the boundary of that region (the
    /// walls, edges without a neighbour and edges into polygons `filter` refuses, moved
    /// in by the radius): `distance` is the distance to the original walls less the
    /// radius along a straight wall (round a convex wall corner up to
    /// `0.0049 * agent_radius` less, the corner's circle being drawn as a polygon of
    /// [`ARC_SEGMENTS`](crate::ARC_SEGMENTS) sides outside it), `point` lies on that eroded
    /// boundary (not on the wall itself), `normal` is the eroded boundary's and
    /// `polygon` the original polygon holding that point. `radius` bounds the search as in
    /// [`Query::distance_to_wall`], in the same units as `distance`. At or below the
    /// mesh's baked radius this is [`Query::distance_to_wall`]. Allocates nothing in
    /// steady state once the eroded copy is built.
    ///
    /// # Errors
    /// As [`Query::distance_to_wall`], [`QueryError::InvalidOption`] for an
    /// `agent_radius` that is NaN, infinite or negative, and
    /// [`QueryError::ClearanceUnavailable`] when the disc fits nowhere.
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshOptions, NavMesh, Query, QueryFilter};
    ///
    /// // A 10 x 10 room (y up): from its centre, a disc of radius 1 may go 4 before it
    /// // touches a wall.
    /// let v = [Vec3::ZERO, Vec3::new(10.0, 0.0, 0.0), Vec3::new(10.0, 0.0, 10.0), Vec3::new(0.0, 0.0, 10.0)];
    /// let mesh = NavMesh::from_polygons(&v, &[0, 1, 2, 3], &[4], &MeshOptions::default())?;
    /// let mut query = Query::new(&mesh);
    /// let filter = QueryFilter::default();
    /// let wall = query.distance_to_wall_for_agent(Vec3::new(5.0, 0.0, 5.0), f32::INFINITY, &filter, 1.0)?.unwrap();
    /// assert!((wall.distance - 4.0).abs() < 1e-4);
    /// assert_eq!(wall.polygon, 0);
    /// // Nearer the wall x = 0: the point on the eroded boundary x = 1.
    /// let wall = query.distance_to_wall_for_agent(Vec3::new(2.5, 0.0, 5.0), f32::INFINITY, &filter, 1.0)?.unwrap();
    /// assert!((wall.distance - 1.5).abs() < 1e-4);
    /// assert!(wall.point.distance(Vec3::new(1.0, 0.0, 5.0)) < 1e-4);
    /// assert!(wall.normal.abs_diff_eq(Vec3::new(1.0, 0.0, 0.0), 1e-6));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn distance_to_wall_for_agent(
        &mut self,
        point: Vec3,
        radius: f32,
        filter: &QueryFilter,
        agent_radius: f32,
    ) -> Result<Option<WallDistance>, QueryError> {
        let Some(options) = self.agent_options(filter, agent_radius)? else {
            return self.distance_to_wall(point, radius, filter);
        };
        Query::check_radius(radius)?;
        let erosion = self.mesh.data().erosion_for(agent_radius);
        let eroded = self.eroded_mesh(erosion, &options)?;
        let inner = eroded_options(&options);
        let wall = self.on_mesh(&eroded.mesh, |query| {
            query.distance_to_wall(point, radius, &inner.filter)
        })?;
        Ok(wall.map(|wall| WallDistance {
            polygon: eroded.of_original[wall.polygon as usize],
            ..wall
        }))
    }

    /// Like [`Query::random_point_around`], for an agent of radius `agent_radius` (world
    /// units): a random point where the disc fits (its centre at least the radius from
    /// every wall: edges without a neighbour and edges into polygons `filter` refuses),
    /// reachable by the disc from `center`. `center` is first moved to the nearest point
    /// where the disc fits; the region then grows, as in [`Query::random_point_around`],
    /// over the pieces of the mesh's eroded copy whose portals come within `radius` of the
    /// moved center, and the point is uniform by area over those pieces (so it may lie
    /// outside the circle, up to the size of the pieces at its rim). `polygon` names the
    /// original polygon. At or below the mesh's baked radius this is
    /// [`Query::random_point_around`]. Allocates nothing in steady state once the eroded
    /// copy is built.
    ///
    /// # Errors
    /// As [`Query::random_point_around`], [`QueryError::InvalidOption`] for an
    /// `agent_radius` that is NaN, infinite or negative, and
    /// [`QueryError::ClearanceUnavailable`] when the disc fits nowhere.
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshOptions, NavMesh, Query, QueryFilter, SplitMix64};
    ///
    /// // A 10 x 10 room (y up): the centre of a disc of radius 1 stays in [1, 9]^2.
    /// let v = [Vec3::ZERO, Vec3::new(10.0, 0.0, 0.0), Vec3::new(10.0, 0.0, 10.0), Vec3::new(0.0, 0.0, 10.0)];
    /// let mesh = NavMesh::from_polygons(&v, &[0, 1, 2, 3], &[4], &MeshOptions::default())?;
    /// let mut query = Query::new(&mesh);
    /// let mut rng = SplitMix64::new(3);
    /// for _ in 0..100 {
    ///     let p = query.random_point_around_for_agent(Vec3::new(0.0, 0.0, 0.0), f32::INFINITY, &QueryFilter::default(), 1.0, &mut || rng.next_u64())?;
    ///     assert_eq!(p.polygon, 0);
    ///     assert!((1.0..=9.0).contains(&p.point.x) && (1.0..=9.0).contains(&p.point.z));
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn random_point_around_for_agent(
        &mut self,
        center: Vec3,
        radius: f32,
        filter: &QueryFilter,
        agent_radius: f32,
        random: &mut impl FnMut() -> u64,
    ) -> Result<RandomPoint, QueryError> {
        let Some(options) = self.agent_options(filter, agent_radius)? else {
            return self.random_point_around(center, radius, filter, random);
        };
        Query::check_radius(radius)?;
        let erosion = self.mesh.data().erosion_for(agent_radius);
        let eroded = self.eroded_mesh(erosion, &options)?;
        let inner = eroded_options(&options);
        let point = self.on_mesh(&eroded.mesh, |query| {
            query.random_point_around(center, radius, &inner.filter, random)
        })?;
        let polygon = eroded.of_original[point.polygon as usize];
        let mesh = self.mesh.data();
        Ok(RandomPoint {
            point: mesh.point_over(polygon, mesh.up.ground(point.point)),
            polygon,
        })
    }

    /// The path options carrying `filter` and `agent_radius`, validated; `None` when the
    /// radius does not exceed the mesh's baked one (the plain query answers).
    fn agent_options(
        &self,
        filter: &QueryFilter,
        agent_radius: f32,
    ) -> Result<Option<PathOptions>, QueryError> {
        let options = PathOptions::default()
            .with_filter(filter.clone())
            .with_agent_radius(agent_radius);
        options.validate()?;
        Ok((self.mesh.data().erosion_for(agent_radius) > 0.0).then_some(options))
    }
}
