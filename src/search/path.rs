//! What a path query returns: corners, per-corner details, status and cost.

use glam::Vec3;

/// `CornerDetail::link` of a corner that is not at an off-mesh link.
pub const NO_LINK: u32 = u32::MAX;

/// What happens at a path corner: a set of bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CornerFlags(u8);

impl CornerFlags {
    /// No flag.
    pub const NONE: CornerFlags = CornerFlags(0);
    /// The first corner (the snapped start).
    pub const START: CornerFlags = CornerFlags(1);
    /// The last corner (the snapped goal, or the end of a partial path).
    pub const END: CornerFlags = CornerFlags(2);
    /// The path takes an off-mesh link from this corner (its start);
    /// [`CornerDetail::link`] says which.
    pub const LINK_START: CornerFlags = CornerFlags(4);
    /// The path arrives here by an off-mesh link (its end); [`CornerDetail::link`] says
    /// which.
    pub const LINK_END: CornerFlags = CornerFlags(8);
    /// The path passes here into a polygon of another area ([`CornerDetail::area`]).
    pub const AREA_CHANGE: CornerFlags = CornerFlags(16);

    /// The bits, as the C ABI passes them (`NAVSTAR_CORNER_*`).
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// Whether every flag of `other` is set.
    pub const fn contains(self, other: CornerFlags) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether some flag of `other` is set.
    pub const fn intersects(self, other: CornerFlags) -> bool {
        self.0 & other.0 != 0
    }
}

impl std::ops::BitOr for CornerFlags {
    type Output = CornerFlags;
    fn bitor(self, rhs: CornerFlags) -> CornerFlags {
        CornerFlags(self.0 | rhs.0)
    }
}

impl std::ops::BitOrAssign for CornerFlags {
    fn bitor_assign(&mut self, rhs: CornerFlags) {
        self.0 |= rhs.0;
    }
}

/// Details of one path corner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CornerDetail {
    /// What happens here.
    pub flags: CornerFlags,
    /// The area the path walks through after this corner (for a link start: the link's
    /// area; for the last corner: the area it ends in).
    pub area: u8,
    /// The off-mesh link taken from here ([`CornerFlags::LINK_START`]) or arrived by
    /// ([`CornerFlags::LINK_END`]), as its index in the mesh's link list; [`NO_LINK`]
    /// otherwise.
    pub link: u32,
}

/// Whether a path reaches the goal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathStatus {
    /// The path ends at the (snapped) goal.
    Complete,
    /// The goal is unreachable; the path ends at the reachable point closest to it.
    /// Also when the filter moved the goal: it lies in (or above or below) a polygon the
    /// filter refuses, and the path ends at the nearest point the filter admits.
    Partial,
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

/// The sum of the 3D distances between consecutive corners.
pub(crate) fn path_length(corners: &[Vec3]) -> f32 {
    corners.windows(2).map(|w| w[0].distance(w[1])).sum()
}
