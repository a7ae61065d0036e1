//! Building a world's landmark tables: the world (`world/landmarks.rs`) stores them and
//! gives them to its snapshots; the floods that fill them are the search layer's
//! ([`super::landmarks::build`]).

use crate::World;

impl World {
    /// Builds landmark tables for the world as it is now and publishes a snapshot that
    /// has them; tells whether it got any. Path searches on a world's snapshots use a
    /// table only when the world made one here: a world never builds one on the query
    /// path, since a build floods the whole world (about 0.1-0.5 s per few thousand
    /// polygons) and a tile added later makes it invalid.
    ///
    /// Every later snapshot keeps the tables while the world only loses walkable ground:
    /// [`World::remove_tile`] and [`World::add_obstacle`] keep them (the tiles they
    /// change, and the neighbours stitched again, get no bound from the table; the rest
    /// keep theirs). A change that may add ground drops them, since a shortcut it opens
    /// would make a bound too large: [`World::add_tile`], [`World::replace_tile`],
    /// [`World::add_tiles`], [`World::move_obstacle`], [`World::remove_obstacle`].
    /// Call this again after such changes (after a batch of streamed tiles, say), on any
    /// thread: it builds on the snapshot published when it begins, without the writers'
    /// lock, so tile changes and queries go on meanwhile; removals and added obstacles
    /// made during the build are allowed for as above, but if a change that may add
    /// ground came meanwhile the tables are thrown away and it returns `false` (call it
    /// again). The tables never make an estimate exceed the true remaining length, so
    /// exact paths are the same with and without them. A world with off-mesh links gets a
    /// table for its merged copy only (the exact mode's search, which does not follow
    /// links), as a one-piece mesh with links does.
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshOptions, NavMesh, PathMode, PathOptions, Query, World, WorldOptions};
    ///
    /// let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// // Two tiles of two unit squares each, side by side along x (y up).
    /// let strip = |x: f32| {
    ///     let vertices = [v(x, 0.0), v(x + 1.0, 0.0), v(x + 2.0, 0.0), v(x + 2.0, 1.0), v(x + 1.0, 1.0), v(x, 1.0)];
    ///     NavMesh::from_polygons(&vertices, &[0, 5, 4, 1, 1, 4, 3, 2], &[4, 4], &MeshOptions::default())
    /// };
    /// let world = World::new(&WorldOptions::default())?;
    /// world.add_tile(&strip(0.0)?)?;
    /// let right = world.add_tile(&strip(2.0)?)?;
    /// assert_eq!(world.snapshot().landmark_bytes(), 0);
    /// assert!(world.prepare_landmarks());
    /// assert!(world.snapshot().landmark_bytes() > 0);
    /// let options = PathOptions::default().with_mode(PathMode::Optimal);
    /// let mut query = Query::new(&world.snapshot());
    /// query.set_landmarks(true);
    /// let path = query.find_path_vec(v(0.5, 0.5), v(3.5, 0.5), &options)?;
    /// assert!((path.length() - 3.0).abs() < 1e-5);
    /// // A removal keeps the tables; an addition drops them.
    /// world.remove_tile(right)?;
    /// assert!(world.snapshot().landmark_bytes() > 0);
    /// world.add_tile(&strip(2.0)?)?;
    /// assert_eq!(world.snapshot().landmark_bytes(), 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn prepare_landmarks(&self) -> bool {
        self.install_landmarks(super::landmarks::build)
    }
}
