//! The polygons reachable within a cost: a bounded Dijkstra flood.

use glam::Vec3;

use super::Query;
use super::options::validate_snap_distance;
use crate::error::{Endpoint, QueryError};
use crate::filter::QueryFilter;
use crate::search::astar::ReachedPolygon;

impl Query {
    /// The polygons reachable from `start` at a path cost of at most `max_cost` (what
    /// an agent can reach this turn; Detour's `findPolysAroundCircle` with a cost instead
    /// of a circle), cheapest first.
    ///
    /// Each entry gives the polygon, the cost of the cheapest way into it that the
    /// search found (from the start to the nearest point of the portal it is entered by,
    /// following the corridor's funnel; at the filter's area costs, off-mesh links
    /// included), and the polygon it is entered from (`None` for the start polygon).
    /// Only polygons and links `filter` admits are crossed. The start is snapped as by
    /// [`Query::find_path`]: to the nearest admitted point within `max_snap_distance`
    /// (world units, >= 0; infinity for any distance). The slice borrows the query.
    ///
    /// # Errors
    /// [`QueryError::NonFinitePoint`], [`QueryError::InvalidOption`] when `max_cost` or
    /// `max_snap_distance` is NaN or negative (infinity is allowed),
    /// [`QueryError::InvalidAreaCost`], and [`QueryError::NotOnMesh`].
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
    /// let reached = query.reachable_polygons(Vec3::new(0.5, 0.0, 0.5), 1.0, &QueryFilter::default(), f32::INFINITY)?;
    /// // Square 1 is entered 0.5 away, square 2 only 1.5 away: beyond the budget of 1.
    /// let listed: Vec<(u32, Option<u32>)> = reached.iter().map(|r| (r.polygon, r.parent)).collect();
    /// assert_eq!(listed, [(0, None), (1, Some(0))]);
    /// assert_eq!(reached[1].cost, 0.5);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "find_polys_around")]
    #[doc(alias = "flood")]
    pub fn reachable_polygons(
        &mut self,
        start: Vec3,
        max_cost: f32,
        filter: &QueryFilter,
        max_snap_distance: f32,
    ) -> Result<&[ReachedPolygon], QueryError> {
        self.stats = super::SearchStats::default();
        if max_cost.is_nan() || max_cost < 0.0 {
            return Err(QueryError::InvalidOption(
                "max_cost must be >= 0 (infinity allowed)",
            ));
        }
        validate_snap_distance(max_snap_distance)?;
        filter.validate()?;
        self.flood_from(start, max_cost, filter, max_snap_distance)?;
        Ok(&self.reached)
    }

    /// [`Query::reachable_polygons`] into `self.reached`, its arguments checked.
    pub(super) fn flood_from(
        &mut self,
        start: Vec3,
        max_cost: f32,
        filter: &QueryFilter,
        max_snap_distance: f32,
    ) -> Result<(), QueryError> {
        let start = self.snap(start, Endpoint::Start, filter, max_snap_distance)?;
        let mesh = self.mesh.clone();
        self.search.flood(
            mesh.data(),
            start.polygon,
            start.point,
            filter,
            max_cost,
            &mut self.reached,
        );
        self.stats.add(self.search.expanded());
        Ok(())
    }
}
