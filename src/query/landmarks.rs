//! Turning the landmark heuristic of the path searches on and off per query.

use super::Query;

/// When a query's path searches use the landmark table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LandmarkUse {
    /// On meshes of at least [`LANDMARK_MIN_POLYGONS`] polygons (the default).
    BySize,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// The smallest mesh (in polygons) whose path searches use the landmark table by
/// default: on the benchmark maps of 635 polygons and more it saves 1-48 % of the
/// instructions per query (BENCHMARKS.md "session 17"); on small meshes searches are
/// short and the table's build (one exact flood per landmark) would not pay back.
///
/// # Example
/// ```
/// assert_eq!(navstar::LANDMARK_MIN_POLYGONS, 500);
/// ```
pub const LANDMARK_MIN_POLYGONS: u32 = 500;

impl Query {
    /// Whether this query's path searches (both modes, one goal, A* with areas costing
    /// alike) sharpen their estimates with the mesh's landmark table: geodesic
    /// distances from 8 landmark points (on by default for meshes of at least
    /// [`LANDMARK_MIN_POLYGONS`] polygons: there it saves 20-56 % of the
    /// expansions, BENCHMARKS.md "session 17"). The table is built once per mesh
    /// (and per merged copy searched, and per eroded copy that agent-radius queries
    /// search: by default whatever the copy's size) on the first search that uses it,
    /// unless [`crate::NavMesh::prepare_landmarks`] built it before: call that at load
    /// time, the build takes about 0.1-0.5 s on a mesh of a few thousand polygons. It
    /// never makes an estimate exceed the true remaining cost, so the exact mode's
    /// answer is the same either way and the default mode's paths differ only where the
    /// search order changes its choice among corridors. Off, the searches use the
    /// straight-line estimates alone. Meshes with off-mesh links have no table; a
    /// world's snapshot has one only when its world built it
    /// ([`crate::World::prepare_landmarks`]), never on a search.
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshOptions, NavMesh, PathMode, PathOptions, Query};
    ///
    /// let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// // A U: down the left column, across the bottom, up the right column (y up).
    /// let vertices = [v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0), v(3.0, 0.0), v(0.0, 1.0),
    ///     v(1.0, 1.0), v(2.0, 1.0), v(3.0, 1.0), v(0.0, 3.0), v(1.0, 3.0), v(2.0, 3.0), v(3.0, 3.0)];
    /// let indices = [0, 1, 5, 4, /**/ 1, 2, 6, 5, /**/ 2, 3, 7, 6, /**/ 4, 5, 9, 8, /**/ 6, 7, 11, 10];
    /// let mesh = NavMesh::from_polygons(&vertices, &indices, &[4; 5], &MeshOptions::default())?;
    /// let (from, to) = (v(0.5, 2.5), v(2.5, 2.5));
    /// let options = PathOptions::default().with_mode(PathMode::Optimal);
    /// let mut query = Query::new(&mesh);
    /// // Off by default on a mesh this small.
    /// assert!(!query.landmarks());
    /// let without = query.find_path_vec(from, to, &options)?;
    /// query.set_landmarks(true);
    /// let with = query.find_path_vec(from, to, &options)?;
    /// assert!(mesh.landmark_bytes() > 0);
    /// // Round the two inner corners either way.
    /// assert_eq!(with.corners, without.corners);
    /// assert_eq!(with.corners, [from, v(1.0, 1.0), v(2.0, 1.0), to]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_landmarks(&mut self, on: bool) {
        self.landmarks = if on {
            LandmarkUse::Always
        } else {
            LandmarkUse::Never
        };
    }

    /// Back to the default choice of [`Query::set_landmarks`]: the landmark table only
    /// on meshes of at least [`LANDMARK_MIN_POLYGONS`] polygons.
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshOptions, NavMesh, Query};
    ///
    /// let v = [Vec3::ZERO, Vec3::X, Vec3::Z];
    /// let mesh = NavMesh::from_triangles(&v, &[0, 1, 2], &MeshOptions::default())?;
    /// let mut query = Query::new(&mesh);
    /// query.set_landmarks(true);
    /// query.set_landmarks_by_size();
    /// // One polygon: below the size.
    /// assert!(!query.landmarks());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_landmarks_by_size(&mut self) {
        self.landmarks = LandmarkUse::BySize;
    }

    /// Whether the path searches on this query's mesh use the landmark table
    /// ([`Query::set_landmarks`]; by default whether the mesh has at least
    /// [`LANDMARK_MIN_POLYGONS`] polygons).
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshOptions, NavMesh, Query};
    ///
    /// let v = [Vec3::ZERO, Vec3::X, Vec3::Z];
    /// let mesh = NavMesh::from_triangles(&v, &[0, 1, 2], &MeshOptions::default())?;
    /// let mut query = Query::new(&mesh);
    /// assert!(!query.landmarks());
    /// query.set_landmarks(true);
    /// assert!(query.landmarks());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn landmarks(&self) -> bool {
        match self.landmarks {
            LandmarkUse::BySize => self.mesh.polygon_count() >= LANDMARK_MIN_POLYGONS,
            LandmarkUse::Always => true,
            LandmarkUse::Never => false,
        }
    }
}
