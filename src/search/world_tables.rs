//! Building a world's landmark tables: the world (`world/landmarks.rs`) stores them and
//! gives them to its snapshots; the floods that fill them are the search layer's
//! ([`super::landmarks::build`]).

use crate::World;

impl World {
    /// Builds landmark tables for the world as it is now and publishes a snapshot that
    /// has them; tells whether it got any. Path searches on a world's snapshots use a
    /// table only when the world made one here: a world never builds one on the query
    /// path, since a build floods the whole world (about 0.1-0.5 s per few thousand
    /// polygons).
    ///
    /// Every later snapshot keeps the tables while the world's ground lies within the
    /// ground they were measured on (every tile present is a tile of the world at the
    /// build, or a mesh with the same vertices and polygons, or a carving of one, in
    /// whatever slot):
    /// [`World::remove_tile`] and [`World::add_obstacle`] keep them, and so do
    /// [`World::add_tile`], [`World::replace_tile`], [`World::add_tiles`],
    /// [`World::move_obstacle`] and [`World::remove_obstacle`] when they bring back
    /// ground of the build (a tile streamed out and back in, a tile
    /// replaced by an equal mesh, an obstacle added after the build moved or removed).
    /// The tiles a change touches, and the neighbours stitched again, get no bound from
    /// the table until they are stitched as they were at the build (the tile and its
    /// neighbours back as they were, in their slots), when they get their bounds back;
    /// the rest keep theirs. Ground the tables do not know (a tile that was not in the
    /// world at the build, an obstacle present then moved or removed) may open
    /// shortcuts they never measured: they are kept, and every estimate towards a goal
    /// is capped at the goal's distance to the boxes of the tiles holding such ground
    /// (a path through it is at least that long), so goals far from new ground keep
    /// their estimates whole and goals in it get none from the tables. Tiles with new
    /// ground, and those stitched again to them, get no bound from the tables: when
    /// those hold more than a tenth of the world's corners, or more than 64 tiles hold
    /// new ground, the tables are dropped (they would cost more than they save). So prepare the tables on the whole world (all
    /// tiles added) and stream tiles out and in after; call this again when much new
    /// ground came (the estimates near it are weak) or after a change dropped them, on
    /// any thread: it builds on the snapshot published when it begins, without the
    /// writers' lock, so tile changes and queries go on meanwhile (ground added
    /// meanwhile caps the new tables as above; `false` if that is more than the limit).
    /// The tables never make an estimate exceed the true remaining length, so
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
    /// // A removal keeps the tables, and so does adding the same ground back (here a
    /// // mesh equal to the one removed): the tables know that ground.
    /// world.remove_tile(right)?;
    /// assert!(world.snapshot().landmark_bytes() > 0);
    /// world.add_tile(&strip(2.0)?)?;
    /// assert!(world.snapshot().landmark_bytes() > 0);
    /// let mut query = Query::new(&world.snapshot());
    /// query.set_landmarks(true);
    /// let path = query.find_path_vec(v(0.5, 0.5), v(3.5, 0.5), &options)?;
    /// assert!((path.length() - 3.0).abs() < 1e-5);
    /// // Ground the tables never saw (a third tile) would leave two of the three tiles
    /// // without bounds (the new one, and the one stitched to it): too many, so the
    /// // tables go (on a world of many tiles they would stay, capped near it).
    /// world.add_tile(&strip(4.0)?)?;
    /// assert_eq!(world.snapshot().landmark_bytes(), 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn prepare_landmarks(&self) -> bool {
        self.install_landmarks(super::landmarks::build)
    }
}
