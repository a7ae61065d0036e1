//! The corners of a pulled path and what happens at each: flags, area, link.

use glam::Vec3;

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
    /// ([`CornerFlags::LINK_END`]), as its index in the mesh's link list; `None` at a
    /// corner that is not at an off-mesh link.
    pub link: Option<u32>,
}

/// The sum of the 3D distances between consecutive corners.
pub(crate) fn path_length(corners: &[Vec3]) -> f32 {
    corners.windows(2).map(|w| w[0].distance(w[1])).sum()
}
