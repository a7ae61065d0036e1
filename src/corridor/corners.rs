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

/// A turn of an agent's path round a convex wall corner, for queries with an agent
/// radius ([`crate::PathOptions::agent_radius`] above the mesh's baked radius).
///
/// The path's corners stay a polyline: round a wall corner they are corners of a regular
/// polygon of [`crate::ARC_SEGMENTS`] sides drawn outside the circle of radius
/// [`PathArc::radius`] about [`PathArc::centre`] (at most `radius / cos(pi /
/// ARC_SEGMENTS)` from it), so the polyline never comes nearer to the wall corner than
/// the radius. An engine that steers on curves can follow the circle instead: from the
/// corner before [`PathArc::first_corner`], along the tangent onto the circle, round it,
/// and off along the tangent to the corner after [`PathArc::last_corner`].
///
/// # Example
/// ```
/// # use navstar::{glam::Vec3, MeshOptions, NavMesh};
/// # let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
/// # let vertices = [v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0), v(0.0, 1.0), v(1.0, 1.0), v(2.0, 1.0), v(0.0, 2.0), v(1.0, 2.0)];
/// # let indices = [0, 1, 4, 3, /**/ 1, 2, 5, 4, /**/ 3, 4, 7, 6];
/// # let mesh = NavMesh::from_polygons(&vertices, &indices, &[4, 4, 4], &MeshOptions::default())?;
/// // `mesh`: an L of three unit squares (y up) whose inner wall corner is (1, 0, 1).
/// use navstar::{PathOptions, Query};
///
/// let mut query = Query::new(&mesh);
/// let options = PathOptions::default().with_agent_radius(0.2);
/// let path = query.find_path(Vec3::new(1.8, 0.0, 0.5), Vec3::new(0.5, 0.0, 1.8), &options)?;
/// // One turn, round the inner corner, kept 0.2 away.
/// assert_eq!(path.arcs.len(), 1);
/// let arc = path.arcs[0];
/// assert_eq!((arc.centre, arc.radius), (Vec3::new(1.0, 0.0, 1.0), 0.2));
/// for corner in &path.corners[arc.first_corner as usize..=arc.last_corner as usize] {
///     let d = corner.distance(arc.centre);
///     assert!(d > 0.2 - 1e-5 && d < 0.2 / (std::f32::consts::PI / 8.0).cos() + 1e-5);
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PathArc {
    /// The index (in the path's corners) of the first corner placed round the wall
    /// corner.
    pub first_corner: u32,
    /// The index of the last one (at least `first_corner`).
    pub last_corner: u32,
    /// The wall corner turned round, a vertex of the mesh (world coordinates).
    pub centre: Vec3,
    /// The distance the agent's centre keeps from `centre` (world units): the query's
    /// agent radius less the mesh's baked radius (the mesh's own walls already keep the
    /// baked radius from the real ones).
    pub radius: f32,
}

/// The sum of the 3D distances between consecutive corners.
pub(crate) fn path_length(corners: &[Vec3]) -> f32 {
    corners.windows(2).map(|w| w[0].distance(w[1])).sum()
}
