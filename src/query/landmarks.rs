//! Turning the landmark heuristic of the path searches on and off per query.

use super::Query;

impl Query {
    /// Whether this query's path searches (both modes, one goal, A* with areas costing
    /// alike) sharpen their estimates with the mesh's landmark table (off by default:
    /// on the benchmark maps it saved at most 4 % of the expansions and cost 6-15 % more
    /// instructions per query, see BENCHMARKS.md "session 16"). The table is built
    /// once per mesh on the first search that uses it, unless
    /// [`crate::NavMesh::prepare_landmarks`] built it before; it never makes an
    /// estimate exceed the true remaining cost, so the exact mode's answer is the same
    /// either way and the default mode's paths differ only where the search order
    /// changes its choice among corridors. Off, the searches use the straight-line
    /// estimates alone. Meshes of several tiles (a world's snapshot) have no table.
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
        self.landmarks = on;
    }

    /// Whether the path searches use the landmark table ([`Query::set_landmarks`]).
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
        self.landmarks
    }
}
