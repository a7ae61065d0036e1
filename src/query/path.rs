//! What a path query returns: the corners (borrowed from the query), their details,
//! status and cost.

use glam::Vec3;

use crate::corridor::{CornerDetail, path_length};

/// Whether a path reaches the goal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathStatus {
    /// The path ends at the (snapped) goal.
    Complete,
    /// The goal is unreachable; the path ends at the reachable point closest to it.
    /// Also when the filter moved the goal: it lies in (or above or below) a polygon the
    /// filter refuses, and the path ends at the nearest point the filter admits.
    Partial,
    /// Partial because the search stopped at the query's node limit
    /// ([`crate::Query::with_max_nodes`]): the goal may be reachable; the path ends at
    /// the point closest to the goal of the polygons reached before the limit.
    NodeLimit,
}

impl PathStatus {
    /// Whether the path ends short of the goal ([`PathStatus::Partial`] or
    /// [`PathStatus::NodeLimit`]).
    pub fn is_partial(self) -> bool {
        self != PathStatus::Complete
    }
}

/// A path found by [`crate::Query::find_path`]; borrows the query's memory.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct Path<'a> {
    /// The corners, in world coordinates: first the snapped start, last the snapped goal
    /// (or, for a partial path, the reachable point closest to the goal). Always at least
    /// two, equal when the start is the goal.
    pub corners: &'a [Vec3],
    /// One entry per corner: flags (start, end, off-mesh link, area change), area, link.
    pub details: &'a [CornerDetail],
    /// Whether the goal was reached.
    pub status: PathStatus,
    /// The cost of the path under the query's filter: each piece's length times its
    /// area's cost, plus each off-mesh link's cost times its area's cost. With the
    /// default filter and no links it equals [`Path::length`] up to rounding. The same
    /// in both modes: the exact mode ([`crate::PathMode::Optimal`]) chooses its path
    /// by length alone, and reports what that path costs under the filter.
    pub cost: f32,
}

impl Path<'_> {
    /// Total 3D length of the path, in world units: the sum of the distances between
    /// consecutive corners (an off-mesh link counts as the straight segment between its
    /// ends).
    pub fn length(&self) -> f32 {
        path_length(self.corners)
    }
}
