//! The first try of a repair: a bounded search from the agent to the old corridor beyond
//! the part that was closed, keeping the rest of the corridor (Detour's replanning of
//! a crowd agent's corridor takes the same idea).

use super::PathCorridor;
use super::loops::{cut_loops, has_repeats};
use crate::error::QueryError;
use crate::query::{PathOptions, PathStatus, Query, SliceStatus};

/// The node expansions the search towards the old corridor may make (as counted by
/// [`crate::SearchStats::expanded`]); beyond them the repair searches to the target.
pub(super) const REJOIN_EXPANSIONS: u32 = 256;

impl PathCorridor {
    /// Searches from the agent (in the corridor's first polygon, admitted) to the first
    /// polygon after the last one `options.filter` refuses: to the middle of its portal
    /// into the next (moved a hair inside it), or to the target when it is the last. The
    /// search is [`Query::begin_path`] given [`REJOIN_EXPANSIONS`]; when it ends in time
    /// with a complete path over neighbours (no off-mesh link) that ends on the old
    /// corridor's tail, the corridor becomes the agent's polygon, the polygons found,
    /// and the old tail after the polygon the search ended in. Returns the polygons kept
    /// at the start (1, the agent's), or `None` (the corridor unchanged) when the search
    /// did not rejoin: the target's polygon itself refused, no way in time, or an error
    /// (which the search to the target then reports).
    ///
    /// # Errors
    /// Never but from the straight walk of a search answered without a corridor (the
    /// errors of [`crate::NavMesh::move_along_surface_for_agent`]).
    pub(super) fn rejoin(
        &mut self,
        query: &mut Query,
        options: &PathOptions,
    ) -> Result<Option<usize>, QueryError> {
        let filter = &options.filter;
        let Some(last_refused) = self
            .polygons
            .iter()
            .rposition(|&p| !filter.admits(self.mesh.polygon_flags(p)))
        else {
            return Ok(None);
        };
        let rejoin = last_refused + 1;
        let Some(&rejoin_polygon) = self.polygons.get(rejoin) else {
            return Ok(None);
        };
        let goal = match self.polygons.get(rejoin + 1) {
            None => self.target,
            Some(&next) => {
                let portal = self
                    .portal(rejoin_polygon, next)
                    .expect("the corridor is a chain of neighbours");
                self.inside(
                    rejoin_polygon,
                    (portal.left_world + portal.right_world) * 0.5,
                )
            }
        };
        let start = self.inside(self.polygons[0], self.position);
        let Ok(mut status) = query.begin_path(start, goal, options) else {
            return Ok(None);
        };
        let mut used = 0;
        while status == SliceStatus::InProgress && used < REJOIN_EXPANSIONS {
            let Ok(progress) = query.advance_path(REJOIN_EXPANSIONS - used) else {
                return Ok(None);
            };
            used += progress.expansions.max(1);
            status = progress.status;
        }
        if status != SliceStatus::Done {
            query.cancel_path();
            return Ok(None);
        }
        let end = match query.finish_path() {
            Ok(path) if path.status == PathStatus::Complete => {
                *path.corners.last().expect("a path has corners")
            }
            _ => return Ok(None),
        };
        self.found_corridor(query, 0, start, end, filter)?;
        let over_neighbours = self.visited.windows(2).all(|pair| {
            self.mesh
                .polygon_neighbours(pair[0])
                .any(|n| n == Some(pair[1]))
        });
        let last_found = *self.visited.last().expect("a corridor has a polygon");
        let Some(k) = self.polygons[rejoin..]
            .iter()
            .position(|&p| p == last_found)
        else {
            return Ok(None);
        };
        let Ok(at) = self.joined_at(0) else {
            return Ok(None);
        };
        if !over_neighbours {
            return Ok(None);
        }
        self.polygons
            .splice(at..=rejoin + k, self.visited.iter().copied());
        if has_repeats(&self.polygons, &mut self.sorted) {
            let all = self.polygons.len();
            cut_loops(&mut self.polygons, all);
        }
        Ok(Some(at.max(1)))
    }
}
