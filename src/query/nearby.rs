//! The polygons near a point: a breadth-first walk over admitted neighbours that crosses
//! only the portals a caller's test lets through (within a radius of the point), with
//! scratch memory kept by the query. Used by [`Query::distance_to_wall`] and
//! [`Query::random_point_around`].

use std::cell::Cell;

use glam::Vec2;

use super::Query;
use crate::error::QueryError;
use crate::geometry::closest_point_on_segment_2d;
use crate::mesh::{MeshData, NO_NEIGHBOUR};
use crate::search::map::NodeMap;

/// Scratch memory of the walks near a point: the polygons found, in the order found,
/// and the set of them. Kept by a [`Query`]: after the first few calls it allocates
/// nothing.
#[derive(Default)]
pub(crate) struct Nearby {
    /// The polygons found so far, in breadth-first order.
    pub found: Vec<u32>,
    seen: NodeMap<u32>,
}

impl Nearby {
    /// Walks from `start` over the edges into polygons `admitted` accepts whose ground
    /// segment comes within `reach` of `center` (`reach` read before each edge, so a
    /// caller may shrink it while walking), calling `visit` with each polygon found
    /// (`start` first). Afterwards `found` lists them.
    ///
    /// # Errors
    /// [`QueryError::OutOfMemory`] when the scratch memory cannot grow.
    pub fn walk(
        &mut self,
        mesh: &MeshData,
        start: u32,
        center: Vec2,
        reach: &Cell<f32>,
        admitted: impl Fn(u32) -> bool,
        mut visit: impl FnMut(u32),
    ) -> Result<(), QueryError> {
        self.found.clear();
        self.seen.clear();
        self.add(start)?;
        let mut next = 0;
        while next < self.found.len() {
            let polygon = self.found[next];
            next += 1;
            visit(polygon);
            for slot in mesh.corner_range(polygon) {
                let neighbour = mesh.neighbours[slot];
                if neighbour == NO_NEIGHBOUR || self.seen.get(neighbour).is_some() {
                    continue;
                }
                let (a, b) = mesh.edge(polygon, slot);
                let (a, b) = (mesh.ground[a as usize], mesh.ground[b as usize]);
                let (closest, _) = closest_point_on_segment_2d(center, a, b);
                if closest.distance(center) > reach.get() || !admitted(neighbour) {
                    continue;
                }
                self.add(neighbour)?;
            }
        }
        Ok(())
    }

    fn add(&mut self, polygon: u32) -> Result<(), QueryError> {
        self.found
            .try_reserve(1)
            .map_err(|_| QueryError::OutOfMemory)?;
        if !self.seen.insert(polygon, 0) {
            return Err(QueryError::OutOfMemory);
        }
        self.found.push(polygon);
        Ok(())
    }
}

impl Query {
    /// Checks a search radius: not NaN, not negative (infinity allowed).
    pub(super) fn check_radius(radius: f32) -> Result<(), QueryError> {
        if radius.is_nan() || radius < 0.0 {
            Err(QueryError::InvalidOption(
                "radius must be >= 0 (infinity allowed)",
            ))
        } else {
            Ok(())
        }
    }
}
