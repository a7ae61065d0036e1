//! What a path query returns: the corners (borrowed from the query), their details,
//! status and cost.

use glam::Vec3;

use crate::corridor::{CornerDetail, PathArc, path_length};

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
///
/// # Example
/// ```
/// # use navstar::{glam::Vec3, MeshOptions, NavMesh};
/// # let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
/// # let vertices = [v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0), v(3.0, 0.0), v(0.0, 1.0), v(1.0, 1.0), v(2.0, 1.0), v(3.0, 1.0)];
/// # let indices = [0, 1, 5, 4, /**/ 1, 2, 6, 5, /**/ 2, 3, 7, 6];
/// # let mesh = NavMesh::from_polygons(&vertices, &indices, &[4, 4, 4], &MeshOptions::default())?;
/// // `mesh`: three unit squares in a row along x, polygons 0, 1, 2 (y up).
/// use navstar::{CornerFlags, MeshInput, OffMeshLink, PathOptions, Query};
///
/// // The same squares with a one-way jump from the first to the last.
/// let links = [OffMeshLink::new(Vec3::new(0.5, 0.0, 0.5), Vec3::new(2.5, 0.0, 0.5))
///     .with_cost(0.5)
///     .with_bidirectional(false)];
/// let input = MeshInput::new(&vertices, &indices).with_polygon_sizes(&[4, 4, 4]).with_links(&links);
/// let mesh = NavMesh::from_input(&input, &MeshOptions::default())?;
/// let mut query = Query::new(&mesh);
/// let path = query.find_path(Vec3::new(0.2, 0.0, 0.5), Vec3::new(2.8, 0.0, 0.5), &PathOptions::default())?;
/// // Walk to the jump, take it (link 0), walk on.
/// let flags: Vec<CornerFlags> = path.details.iter().map(|d| d.flags).collect();
/// assert_eq!(flags, [CornerFlags::START, CornerFlags::LINK_START, CornerFlags::LINK_END, CornerFlags::END]);
/// assert_eq!(path.details[1].link, Some(0));
/// assert_eq!(path.details[0].link, None);
/// // Cost: 0.3 + 0.5 + 0.3 walked or jumped; length: the jump counts as its segment.
/// assert!((path.cost - 1.1).abs() < 1e-6 && (path.length() - 2.6).abs() < 1e-6);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct Path<'a> {
    /// The corners, in world coordinates: first the snapped start, last the snapped goal
    /// (or, for a partial path, the reachable point closest to the goal). Always at least
    /// two, equal when the start is the goal.
    pub corners: &'a [Vec3],
    /// One entry per corner: flags (start, end, off-mesh link, area change), area, link.
    pub details: &'a [CornerDetail],
    /// The turns round convex wall corners, in path order: empty unless the query had an
    /// agent radius above the mesh's baked radius ([`crate::PathOptions::agent_radius`]).
    pub arcs: &'a [PathArc],
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
    /// Copies the path out of the query's memory, to keep it past the next query.
    #[must_use]
    pub fn to_owned_path(&self) -> OwnedPath {
        OwnedPath {
            corners: self.corners.to_vec(),
            details: self.details.to_vec(),
            arcs: self.arcs.to_vec(),
            status: self.status,
            cost: self.cost,
        }
    }

    /// Total 3D length of the path, in world units: the sum of the distances between
    /// consecutive corners (an off-mesh link counts as the straight segment between its
    /// ends).
    #[must_use]
    pub fn length(&self) -> f32 {
        path_length(self.corners)
    }
}

/// A path that owns its corners: [`crate::Query::find_path_vec`], or
/// [`Path::to_owned_path`] of a borrowed one. Its fields mean what [`Path`]'s do.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct OwnedPath {
    /// The corners, in world coordinates (see [`Path::corners`]).
    pub corners: Vec<Vec3>,
    /// One entry per corner (see [`Path::details`]).
    pub details: Vec<CornerDetail>,
    /// The turns round wall corners (see [`Path::arcs`]).
    pub arcs: Vec<PathArc>,
    /// Whether the goal was reached.
    pub status: PathStatus,
    /// The cost of the path under the query's filter (see [`Path::cost`]).
    pub cost: f32,
}

impl OwnedPath {
    /// Total 3D length of the path, in world units (see [`Path::length`]).
    #[must_use]
    pub fn length(&self) -> f32 {
        path_length(&self.corners)
    }
}
