//! The polygons reachable within a cost: a bounded Dijkstra flood.

use glam::Vec3;

use super::{PathOptions, Query};
use crate::error::{Endpoint, QueryError};
use crate::search::astar::ReachedPolygon;

impl Query {
    /// The polygons reachable from `start` at a path cost of at most `max_cost` (what
    /// an agent can reach this turn; Detour's `findPolysAroundCircle` with a cost instead
    /// of a circle), cheapest first.
    ///
    /// Each entry gives the polygon, the cost of the cheapest way into it that the
    /// search found (from the start to the nearest point of the portal it is entered by,
    /// following the corridor's funnel; at the filter's area costs, off-mesh links
    /// included), and the polygon it is entered from (`u32::MAX` for the start
    /// polygon). The start is snapped as by [`Query::find_path`]; `options.filter`,
    /// `max_snap_distance` apply, the other options do not. The slice borrows the query.
    ///
    /// # Errors
    /// [`QueryError::NonFinitePoint`], [`QueryError::InvalidOption`] when `max_cost` is
    /// NaN or negative (infinity is allowed), option errors as for [`Query::find_path`],
    /// and [`QueryError::NotOnMesh`].
    pub fn reachable_polygons(
        &mut self,
        start: Vec3,
        max_cost: f32,
        options: &PathOptions,
    ) -> Result<&[ReachedPolygon], QueryError> {
        options.validate()?;
        if max_cost.is_nan() || max_cost < 0.0 {
            return Err(QueryError::InvalidOption(
                "max_cost must be >= 0 (infinity allowed)",
            ));
        }
        let start = self.snap(start, Endpoint::Start, options)?;
        let mesh = self.mesh.clone();
        self.search.flood(
            mesh.data(),
            start.polygon,
            start.point,
            &options.filter,
            max_cost,
            &mut self.reached,
        );
        Ok(&self.reached)
    }
}
