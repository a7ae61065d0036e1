//! Worlds of tiles, Godot's regions in navstar's terms: tiles added, replaced and removed
//! at run time, joined along matching wall edges, queried as one mesh (the world's
//! latest snapshot). A tile is named by an integer id (its `TileRef`: generation in the
//! high 32 bits, slot in the low 32), stale once the tile is removed or replaced.

use navstar::{NavMesh, Query, TileRef, World, WorldOptions};

use crate::convert;
use crate::navigator::{Extras, Navigator, Settings, make_mesh};

/// A tile reference as a Godot integer.
pub fn tile_id(tile: TileRef) -> i64 {
    (i64::from(tile.generation()) << 32) | i64::from(tile.slot())
}

/// A Godot integer as a tile reference.
///
/// # Errors
/// A negative id, naming it.
pub fn tile_ref(id: i64) -> Result<TileRef, String> {
    u64::try_from(id)
        .map(|bits| TileRef::from_parts(bits as u32, (bits >> 32) as u32))
        .map_err(|_| format!("tile {id} is not a tile id (ids are never negative)"))
}

impl Navigator {
    /// Adds a tile built from per-polygon index arrays (starting a world, with navstar's
    /// default world options, if the mesh is not one yet: a mesh built or loaded whole is
    /// replaced). Returns the tile's id.
    ///
    /// # Errors
    /// The tile's build error, or the world's (full, tile too large...); the mesh is then
    /// unchanged, apart from the first tile, whose failure leaves an empty world.
    pub fn add_tile<'a>(
        &mut self,
        vertices: impl IntoIterator<Item = [f32; 3]>,
        polygons: impl IntoIterator<Item = &'a [i32]>,
        extras: &Extras,
        settings: &Settings,
    ) -> Result<i64, String> {
        let tile = self.tile_mesh(vertices, polygons, extras, settings);
        self.change_world(|world| Ok(tile_id(world.add_tile(&tile?).map_err(|e| e.to_string())?)))
    }

    /// Replaces tile `id` by a new mesh; returns the new tile's id (the old one is stale).
    ///
    /// # Errors
    /// A stale or malformed id, the tile's build error or the world's.
    pub fn replace_tile<'a>(
        &mut self,
        id: i64,
        vertices: impl IntoIterator<Item = [f32; 3]>,
        polygons: impl IntoIterator<Item = &'a [i32]>,
        extras: &Extras,
        settings: &Settings,
    ) -> Result<i64, String> {
        let tile = self.tile_mesh(vertices, polygons, extras, settings);
        self.change_world(|world| {
            let old = tile_ref(id)?;
            let new = world.replace_tile(old, &tile?).map_err(|e| e.to_string())?;
            Ok(tile_id(new))
        })
    }

    /// Removes tile `id`; its neighbours' seams become walls again.
    ///
    /// # Errors
    /// A stale or malformed id.
    pub fn remove_tile(&mut self, id: i64) -> Result<(), String> {
        self.change_world(|world| world.remove_tile(tile_ref(id)?).map_err(|e| e.to_string()))
    }

    /// Cuts the mesh built or loaded whole into square tiles of side `tile_size` (world
    /// units, in the ground plane) and makes it a world of those tiles, which answers as
    /// the whole mesh did; returns the number of tiles. Later obstacles then rebuild the
    /// tiles they touch, not the whole mesh, and tiles can be replaced or removed one by
    /// one.
    ///
    /// # Errors
    /// No mesh, a mesh that is a world of tiles already, or navstar's refusal (a tile size
    /// that is not finite and > 0, or too fine for the mesh); the mesh is then unchanged.
    pub fn split_into_tiles(&mut self, tile_size: f32) -> Result<i64, String> {
        if self.world.is_some() {
            return self.fail("the mesh is a world of tiles already".to_owned());
        }
        let Some(mesh) = self.mesh().cloned() else {
            return self.fail("no mesh: build or load one before splitting it".to_owned());
        };
        let world =
            World::new(&WorldOptions::default().with_up_axis(mesh.up_axis())).and_then(|world| {
                world
                    .add_mesh_in_tiles(&mesh, tile_size)
                    .map(|t| (world, t))
            });
        match world {
            Ok((world, tiles)) => {
                self.install_world(world);
                self.last_error.clear();
                Ok(i64::try_from(tiles.len()).unwrap_or(i64::MAX))
            }
            Err(e) => self.fail(e.to_string()),
        }
    }

    /// The number of tiles (0 when the mesh is not a world).
    pub fn tile_count(&self) -> i64 {
        self.world
            .as_ref()
            .map_or(0, |w| convert::count(w.tile_count()))
    }

    /// Replaces the mesh by `world` (loaded from bytes), queried through its snapshot.
    pub(crate) fn install_world(&mut self, world: World) {
        self.set_mesh(Ok(world.snapshot())).ok();
        self.world = Some(world);
    }

    fn tile_mesh<'a>(
        &self,
        vertices: impl IntoIterator<Item = [f32; 3]>,
        polygons: impl IntoIterator<Item = &'a [i32]>,
        extras: &Extras,
        settings: &Settings,
    ) -> Result<NavMesh, String> {
        let list = convert::polygons(polygons).map_err(|e| e.to_string());
        make_mesh(&convert::vertices(vertices), list, extras, settings)
    }

    /// Runs `change` on the world (made first if needed), then moves the query onto the
    /// new snapshot and keeps or clears the error.
    pub(crate) fn change_world<T>(
        &mut self,
        change: impl FnOnce(&World) -> Result<T, String>,
    ) -> Result<T, String> {
        if self.world.is_none() {
            match World::new(&WorldOptions::default()) {
                Ok(world) => {
                    // A whole mesh built or loaded before gives way to the world.
                    self.query = None;
                    self.forget_path();
                    self.world = Some(world);
                }
                Err(e) => return self.fail(e.to_string()),
            }
        }
        let Some(world) = self.world.as_ref() else {
            return self.fail("no world".to_owned());
        };
        let outcome = change(world);
        let snapshot = world.snapshot();
        match self.query.as_mut() {
            Some(query) => query.set_mesh(&snapshot),
            None => self.query = Some(Query::new(&snapshot)),
        }
        // The last path was found on the old snapshot (whose corridor the query forgot).
        self.forget_path();
        match outcome {
            Ok(value) => {
                self.last_error.clear();
                Ok(value)
            }
            Err(message) => self.fail(message),
        }
    }

    fn fail<T>(&mut self, message: String) -> Result<T, String> {
        self.last_error.clone_from(&message);
        Err(message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use navstar::glam::Vec3;

    /// A unit square at `x` (y up), as per-polygon arrays.
    fn square(x: f32) -> ([[f32; 3]; 4], [&'static [i32]; 1]) {
        (
            [
                [x, 0.0, 0.0],
                [x + 1.0, 0.0, 0.0],
                [x + 1.0, 0.0, 1.0],
                [x, 0.0, 1.0],
            ],
            [&[0, 1, 2, 3]],
        )
    }

    fn add(nav: &mut Navigator, x: f32) -> Result<i64, String> {
        let (v, p) = square(x);
        nav.add_tile(v, p, &Extras::default(), &Settings::default())
    }

    #[test]
    fn ids_round_trip() {
        let tile = TileRef::from_parts(7, 3);
        assert_eq!(tile_id(tile), (3 << 32) | 7);
        assert_eq!(tile_ref(tile_id(tile)), Ok(tile));
        assert_eq!(
            tile_ref(-1).unwrap_err(),
            "tile -1 is not a tile id (ids are never negative)"
        );
    }

    #[test]
    fn tiles_join_and_leave() {
        let mut nav = Navigator::default();
        let a = add(&mut nav, 0.0).unwrap();
        let b = add(&mut nav, 1.0).unwrap();
        assert_ne!(a, b);
        assert_eq!(
            (nav.tile_count(), nav.polygon_count(), nav.island_count()),
            (2, 2, 1)
        );
        let s = Settings::default();
        let path = nav
            .find_path([0.5, 0.0, 0.5], [1.5, 0.0, 0.5], &s)
            .unwrap()
            .to_vec();
        assert_eq!(path, [Vec3::new(0.5, 0.0, 0.5), Vec3::new(1.5, 0.0, 0.5)]);
        assert!(!nav.last_partial());

        // The far tile leaves: the goal snaps to the near one.
        nav.remove_tile(b).unwrap();
        assert_eq!((nav.tile_count(), nav.polygon_count()), (1, 1));
        let path = nav
            .find_path([0.5, 0.0, 0.5], [1.5, 0.0, 0.5], &s)
            .unwrap()
            .to_vec();
        assert_eq!(path.last(), Some(&Vec3::new(1.0, 0.0, 0.5)));

        // A stale id is refused and the world is unchanged.
        assert!(nav.remove_tile(b).is_err());
        assert!(!nav.last_error().is_empty());
        assert_eq!(nav.tile_count(), 1);

        // Replacing gives a new id; the old one is stale.
        let (v, p) = square(5.0);
        let c = nav.replace_tile(a, v, p, &Extras::default(), &s).unwrap();
        assert_ne!(c, a);
        assert!(nav.remove_tile(a).is_err());
        let n = nav.closest_point([5.5, 1.0, 0.5], &s).unwrap().unwrap();
        assert_eq!(n.point, Vec3::new(5.5, 0.0, 0.5));
        assert_eq!(nav.last_error(), "");
    }

    #[test]
    fn corridors_follow_paths_of_the_current_snapshot_only() {
        let mut nav = Navigator::default();
        let s = Settings::default();
        for x in [0.0, 1.0, 2.0] {
            add(&mut nav, x).unwrap();
        }
        nav.find_path([0.5, 0.0, 0.5], [2.5, 0.0, 0.5], &s).unwrap();
        let mut follower = nav.corridor_from_last_path(&s).unwrap();
        assert_eq!(follower.polygons().len(), 3);
        let (corners, _) = follower.corners(4).unwrap();
        assert_eq!(corners, [Vec3::new(2.5, 0.0, 0.5)]);

        // A tile change makes a new snapshot: the last path (and its details) is
        // forgotten, so no corridor is made from a path of the old one.
        add(&mut nav, 3.0).unwrap();
        assert_eq!(nav.last_cost(), 0.0);
        assert!(nav.corridor_from_last_path(&s).is_err());
        assert!(
            nav.last_error().starts_with("no last path"),
            "{}",
            nav.last_error()
        );
        // The corridor made before keeps its own snapshot.
        assert!(follower.move_position([1.5, 0.0, 0.5]).unwrap());
        assert_eq!(follower.polygons().len(), 2);
    }

    #[test]
    fn a_bad_tile_leaves_the_world_unchanged() {
        let mut nav = Navigator::default();
        add(&mut nav, 0.0).unwrap();
        let bad: [&[i32]; 1] = [&[0, 1, 9]];
        let err = nav
            .add_tile(square(1.0).0, bad, &Extras::default(), &Settings::default())
            .unwrap_err();
        assert!(err.contains("vertex index 9"), "{err}");
        assert_eq!(nav.last_error(), err);
        assert_eq!((nav.tile_count(), nav.polygon_count()), (1, 1));
    }

    #[test]
    fn worlds_save_and_load_as_bytes_and_files() {
        let mut nav = Navigator::default();
        add(&mut nav, 0.0).unwrap();
        let b = add(&mut nav, 1.0).unwrap();
        let bytes = nav.save_bytes().unwrap();
        assert!(bytes.starts_with(b"NAVWORLD"));
        let s = Settings::default();
        let mut back = Navigator::default();
        back.load_bytes(&bytes, "", &s).unwrap();
        assert_eq!(
            (back.tile_count(), back.polygon_count(), back.island_count()),
            (2, 2, 1)
        );
        let path = back
            .find_path([0.5, 0.0, 0.5], [1.5, 0.0, 0.5], &s)
            .unwrap()
            .to_vec();
        assert_eq!(path, [Vec3::new(0.5, 0.0, 0.5), Vec3::new(1.5, 0.0, 0.5)]);
        // Tile ids survive the round trip.
        back.remove_tile(b).unwrap();
        assert_eq!(back.tile_count(), 1);

        // As .navstar files: a world and a whole mesh, told apart by their first bytes.
        let dir = std::env::temp_dir().join(format!("navstar-godot-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let world_file = dir.join("world.navstar");
        std::fs::write(&world_file, &bytes).unwrap();
        let mut from_file = Navigator::default();
        from_file
            .load_file(world_file.to_str().unwrap(), &s)
            .unwrap();
        assert_eq!(from_file.tile_count(), 2);
        let (v, p) = square(0.0);
        let mut whole = Navigator::default();
        whole.build(v, p, &s).unwrap();
        let mesh_file = dir.join("mesh.navstar");
        std::fs::write(&mesh_file, whole.save_bytes().unwrap()).unwrap();
        from_file
            .load_file(mesh_file.to_str().unwrap(), &s)
            .unwrap();
        assert_eq!((from_file.tile_count(), from_file.polygon_count()), (0, 1));
        let missing = dir.join("missing.navstar");
        let err = from_file
            .load_file(missing.to_str().unwrap(), &s)
            .unwrap_err();
        assert!(err.contains("missing.navstar"), "{err}");
        assert_eq!(from_file.polygon_count(), 0);
        std::fs::remove_dir_all(&dir).unwrap();

        // Damaged world bytes leave no mesh and say why.
        assert!(back.load_bytes(&bytes[..bytes.len() - 3], "", &s).is_err());
        assert_eq!((back.tile_count(), back.polygon_count()), (0, 0));
        assert!(!back.last_error().is_empty());
    }

    #[test]
    fn a_whole_mesh_split_into_tiles_answers_as_before() {
        let mut nav = crate::test_meshes::room();
        let s = Settings::default();
        let before: Vec<Vec3> = nav
            .find_path([1.0, 0.0, 1.0], [9.0, 0.0, 8.0], &s)
            .unwrap()
            .to_vec();
        assert!(
            nav.split_into_tiles(f32::NAN)
                .unwrap_err()
                .contains("tile size")
        );
        assert_eq!((nav.tile_count(), nav.polygon_count()), (0, 4));
        assert_eq!(nav.split_into_tiles(4.0), Ok(9));
        assert!(nav.last_error().is_empty());
        assert_eq!(nav.tile_count(), 9);
        let after = nav.find_path([1.0, 0.0, 1.0], [9.0, 0.0, 8.0], &s).unwrap();
        assert_eq!(
            (after.first(), after.last()),
            (before.first(), before.last())
        );
        assert_eq!(
            after.len(),
            2,
            "a straight line across the seams: {after:?}"
        );
        // A world is not split again, and nothing is there to split without a mesh.
        assert!(nav.split_into_tiles(4.0).unwrap_err().contains("already"));
        assert!(
            Navigator::default()
                .split_into_tiles(4.0)
                .unwrap_err()
                .contains("no mesh")
        );
    }

    #[test]
    fn building_a_whole_mesh_ends_the_world() {
        let mut nav = Navigator::default();
        add(&mut nav, 0.0).unwrap();
        let (v, p) = square(3.0);
        nav.build(v, p, &Settings::default()).unwrap();
        assert_eq!((nav.tile_count(), nav.polygon_count()), (0, 1));
        // The next tile starts a new world, without the whole mesh.
        add(&mut nav, 0.0).unwrap();
        assert_eq!((nav.tile_count(), nav.polygon_count()), (1, 1));
    }
}
