//! Building a world's fast-lane index: the world (`world/fast_lane.rs`) stores it and
//! gives it to its snapshots of the same geometry; the build is the search layer's
//! ([`super::hub::build`]).

use super::hub::{self, Budget};
use crate::World;

impl World {
    /// Builds the fast-lane index of the world as it is now (the exact mode's corner
    /// index of [`crate::NavMesh::prepare_fast_lane`], over all tiles: sight lines and
    /// distances cross seams) and publishes a snapshot that has it; tells whether the
    /// world has one now. Exact-mode queries ([`crate::PathMode::Optimal`], and
    /// [`crate::PathMode::Auto`] where it runs the exact mode) on that snapshot and on
    /// later ones of the same geometry answer from it under the same rules as on a
    /// mesh: the filter admits every polygon, no node limit, no off-mesh links (a
    /// world with links gets none), with the same lengths as the exact search.
    ///
    /// A world never builds the index on the query path (its geometry changes, and the
    /// build sweeps the whole world: about 0.02-0.2 s for a few thousand polygons; see
    /// BENCHMARKS.md, session 22): its snapshots have it only from this call. Run-time
    /// flag changes keep it (a query whose filter refuses a polygon searches instead);
    /// any change of geometry drops it: a tile added, removed or replaced, an obstacle
    /// added, moved or removed that carves a tile anew (queries then search, as
    /// before: right, slower). Call this again after such changes. It builds on the
    /// snapshot published when it begins, without the writers' lock, so tile changes
    /// and queries go on meanwhile; if the geometry changed during the build, the index
    /// is thrown away and it returns `false` (call it again). Snapshots taken before
    /// the call stay without it. Thread-safe.
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshOptions, NavMesh, PathMode, PathOptions, Query, World, WorldOptions};
    ///
    /// let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// // A U of unit cells round a 1 x 2 hole (x in 1..2, z in 1..3), cut into tiles of
    /// // side 2: the path bends at the hole's two inner corners, across seams.
    /// let cells = [(0.0, 0.0), (1.0, 0.0), (2.0, 0.0), (0.0, 1.0), (2.0, 1.0), (0.0, 2.0), (2.0, 2.0)];
    /// let mut vertices = Vec::new();
    /// for &(x, z) in &cells {
    ///     vertices.extend([v(x, z), v(x, z + 1.0), v(x + 1.0, z + 1.0), v(x + 1.0, z)]);
    /// }
    /// let indices: Vec<u32> = (0..vertices.len() as u32).collect();
    /// let mesh = NavMesh::from_polygons(&vertices, &indices, &[4; 7], &MeshOptions::default())?;
    /// let world = World::new(&WorldOptions::default())?;
    /// let tiles = world.add_mesh_in_tiles(&mesh, 2.0)?;
    /// assert!(world.prepare_fast_lane());
    /// let snapshot = world.snapshot();
    /// let mut query = Query::new(&snapshot);
    /// let options = PathOptions::default().with_mode(PathMode::Optimal);
    /// let path = query.find_path_vec(v(0.5, 2.5), v(2.5, 2.5), &options)?;
    /// assert_eq!(path.corners, [v(0.5, 2.5), v(1.0, 1.0), v(2.0, 1.0), v(2.5, 2.5)]);
    /// assert!(query.fast_lane_corners_seen().is_some());
    /// // A tile change drops the index; queries search again, with the same answers.
    /// world.remove_tile(tiles[0])?;
    /// assert!(!world.has_fast_lane());
    /// assert!(world.snapshot().fast_lane_stats().is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn prepare_fast_lane(&self) -> bool {
        self.install_fast_lane(|mesh| hub::build(mesh, Budget::Unbounded))
    }
}
