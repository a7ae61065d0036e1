//! A random point among the polygons near a point: where an agent may wander to.

use std::cell::Cell;

use glam::Vec3;

use super::Query;
use crate::error::{Endpoint, QueryError};
use crate::filter::QueryFilter;
use crate::mesh::{RandomPoint, pick_by_area};
use crate::random::unit_f64;

impl Query {
    /// A random point of the polygons around `center` (Detour's
    /// `findRandomPointAroundCircle`, with its semantics):
    ///
    /// 1. `center` is moved to the nearest point of a polygon `filter` admits (3D
    ///    distance, any distance); its polygon is the first of the region.
    /// 2. The region grows, breadth first, across every edge into an admitted polygon
    ///    whose ground segment comes within `radius` of the (moved) center: the polygons
    ///    connected to the first through portals that touch the circle.
    /// 3. One polygon of the region is drawn with probability proportional to its ground
    ///    area, then a point uniform by area within it.
    ///
    /// So the point is reachable from the center without leaving the region, and its
    /// polygon touches the circle, but **the point itself may lie outside the circle**,
    /// up to the size of the polygons at its rim (callers that need it inside draw
    /// again). `random` gives 64 random bits per call (see [`crate::NavMesh::random_point`]
    /// for the four draws a point takes and the seeded [`crate::SplitMix64`]); the region's
    /// order is fixed, so a seed always gives the same point. Allocates nothing in
    /// steady state; the cost follows the polygons of the region.
    ///
    /// # Errors
    /// [`QueryError::NonFinitePoint`], [`QueryError::InvalidOption`] for a NaN or
    /// negative radius (infinity takes the whole connected walkable area),
    /// [`QueryError::InvalidAreaCost`], [`QueryError::NotOnMesh`] when the filter
    /// admits no polygon, [`QueryError::NoAdmittedArea`] when the region has no area
    /// (a degenerate connector alone), [`QueryError::OutOfMemory`].
    ///
    /// # Example
    /// ```
    /// # use navstar::{glam::Vec3, MeshOptions, NavMesh};
    /// # let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// # let vertices = [v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0), v(3.0, 0.0), v(0.0, 1.0), v(1.0, 1.0), v(2.0, 1.0), v(3.0, 1.0)];
    /// # let indices = [0, 1, 5, 4, /**/ 1, 2, 6, 5, /**/ 2, 3, 7, 6];
    /// # let mesh = NavMesh::from_polygons(&vertices, &indices, &[4, 4, 4], &MeshOptions::default())?;
    /// // `mesh`: three unit squares in a row along x, polygons 0, 1, 2 (y up).
    /// use navstar::{Query, QueryFilter, SplitMix64};
    ///
    /// let mut query = Query::new(&mesh);
    /// let mut rng = SplitMix64::new(1);
    /// let filter = QueryFilter::default();
    /// for _ in 0..50 {
    ///     // Within 0.3 of (0.8, 0.5): the circle reaches the portal x = 1 but not x = 2.
    ///     let p = query.random_point_around(Vec3::new(0.8, 0.0, 0.5), 0.3, &filter, &mut || rng.next_u64())?;
    ///     assert!(p.polygon == 0 || p.polygon == 1);
    ///     // Anywhere in squares 0 and 1, even outside the circle.
    ///     assert!((0.0..=2.0).contains(&p.point.x));
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "find_random_point_around_circle")]
    pub fn random_point_around(
        &mut self,
        center: Vec3,
        radius: f32,
        filter: &QueryFilter,
        random: &mut impl FnMut() -> u64,
    ) -> Result<RandomPoint, QueryError> {
        Query::check_radius(radius)?;
        filter.validate()?;
        let start = self.snap(center, Endpoint::Start, filter, f32::INFINITY)?;
        let mesh = self.mesh.data();
        let admitted = |p: u32| filter.admits(mesh.flags_of(p));
        let reach = Cell::new(radius);
        let mut total = 0.0;
        self.nearby.walk(
            mesh,
            start.polygon,
            mesh.up.ground(start.point),
            &reach,
            admitted,
            |polygon| total += mesh.ground_area(polygon),
        )?;
        let polygon = pick_by_area(
            mesh,
            self.nearby.found.iter().copied(),
            total,
            unit_f64(random()),
        )
        .ok_or(QueryError::NoAdmittedArea)?;
        Ok(mesh.random_point_in(polygon, random))
    }
}
