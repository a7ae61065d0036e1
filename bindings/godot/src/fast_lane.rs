//! The exact mode's fast-lane index built at load time (`NavMesh::prepare_fast_lane`);
//! whether a path uses it is the `fast_lane` setting, applied by `Navigator::begin`.

use crate::navigator::{FindError, Navigator};

impl Navigator {
    /// Builds the current mesh's fast-lane index now, with no size limit, rather than on
    /// the first exact-mode path (which builds it only on meshes of at least
    /// `navstar::FAST_LANE_MIN_POLYGONS` polygons, within a budget); true when the mesh
    /// has one after the call. A mesh with off-mesh links gets none: `Ok(false)`. For a
    /// world of tiles it builds the index of the world as it is
    /// (`World::prepare_fast_lane`, publishing a snapshot with it; the query moves onto
    /// it, the last path forgotten); any later tile or obstacle change drops it, and a
    /// world never builds one by itself. Exact paths have the same
    /// lengths with and without it. Not safe to call while another thread uses this
    /// object (as every `&mut self` method).
    ///
    /// # Errors
    /// [`FindError::NoMesh`] without a mesh or world, kept for [`Navigator::last_error`].
    pub fn prepare_fast_lane(&mut self) -> Result<bool, FindError> {
        if self.world.is_some() {
            // change_world only clears the error here: the world exists and the change
            // cannot fail.
            return self
                .change_world(|world| Ok(world.prepare_fast_lane()))
                .map_err(FindError::Mesh);
        }
        self.on_mesh(|mesh| Ok(mesh.prepare_fast_lane()))
    }
}

#[cfg(test)]
mod tests {
    use navstar::OffMeshLink;
    use navstar::glam::Vec3;

    use crate::navigator::{Extras, FindError, Navigator, Settings};
    use crate::options::PATH_MODE_OPTIMAL;
    use crate::test_meshes::{TWO_SQUARE_POLYGONS, TWO_SQUARES};

    /// Exact shortest paths, with the fast lane on or off.
    fn exact(fast_lane: bool) -> Settings<'static> {
        Settings {
            path_mode: PATH_MODE_OPTIMAL,
            fast_lane,
            ..Settings::default()
        }
    }

    /// A floor of `side` x `side` unit squares (y up), one polygon per open cell, with
    /// a wall along column `side / 2` open only in the top row.
    fn walled_floor(side: i32) -> Navigator {
        let wall = side / 2;
        let (mut indices, mut sizes) = (Vec::new(), Vec::new());
        for z in 0..side {
            for x in 0..side {
                if x == wall && z < side - 1 {
                    continue;
                }
                let corner = |x: i32, z: i32| z * (side + 1) + x;
                indices.extend([
                    corner(x, z),
                    corner(x + 1, z),
                    corner(x + 1, z + 1),
                    corner(x, z + 1),
                ]);
                sizes.push(4);
            }
        }
        let vertices = (0..=side).flat_map(|z| (0..=side).map(move |x| [x as f32, 0.0, z as f32]));
        let mut nav = Navigator::default();
        nav.build_flat(vertices, &indices, &sizes, &Settings::default())
            .unwrap();
        nav
    }

    /// The exact path and the search nodes it expanded.
    fn path(nav: &mut Navigator, from: [f32; 3], to: [f32; 3], lane: bool) -> (Vec<Vec3>, u64) {
        let corners = nav.find_path(from, to, &exact(lane)).unwrap().to_vec();
        let expanded = nav.query.as_ref().unwrap().last_search_stats().expanded;
        (corners, expanded)
    }

    #[test]
    fn a_small_mesh_answers_from_the_index_once_prepared() {
        assert_eq!(
            Navigator::default().prepare_fast_lane(),
            Err(FindError::NoMesh)
        );
        let mut nav = walled_floor(8);
        let (from, to) = ([1.5, 0.0, 0.5], [6.5, 0.0, 0.5]);
        let want = [
            Vec3::from(from),
            Vec3::new(4.0, 0.0, 7.0),
            Vec3::new(5.0, 0.0, 7.0),
            Vec3::from(to),
        ];
        let (searched, expanded) = path(&mut nav, from, to, true);
        assert_eq!(searched, want);
        assert!(expanded > 0, "a small mesh builds no index by itself");
        assert_eq!(nav.prepare_fast_lane(), Ok(true));
        assert_eq!(nav.last_error(), "");
        assert_eq!(path(&mut nav, from, to, true), (want.to_vec(), 0));
        let (off, expanded) = path(&mut nav, from, to, false);
        assert_eq!(off, want);
        assert!(expanded > 0, "the lane is off");
    }

    #[test]
    fn a_large_mesh_builds_its_index_on_the_first_exact_path() {
        let mut nav = walled_floor(24);
        assert!(nav.polygon_count() >= i64::from(navstar::FAST_LANE_MIN_POLYGONS));
        let (from, to) = ([2.5, 0.0, 0.5], [21.5, 0.0, 3.5]);
        let (on, expanded) = path(&mut nav, from, to, true);
        assert_eq!(expanded, 0, "answered from the index");
        assert_eq!(
            on[1..3],
            [Vec3::new(12.0, 0.0, 23.0), Vec3::new(13.0, 0.0, 23.0)]
        );
        let (off, expanded) = path(&mut nav, from, to, false);
        assert!(expanded > 0);
        assert_eq!(on, off);
    }

    #[test]
    fn links_get_no_index_and_a_world_gets_one_until_it_changes() {
        // Two squares joined by a link.
        let mut nav = Navigator::default();
        let extras = Extras {
            links: vec![OffMeshLink::new(
                Vec3::new(0.5, 0.0, 0.5),
                Vec3::new(3.5, 0.0, 0.5),
            )],
            ..Extras::default()
        };
        nav.build_with(
            TWO_SQUARES,
            TWO_SQUARE_POLYGONS,
            &extras,
            &Settings::default(),
        )
        .unwrap();
        assert_eq!(nav.prepare_fast_lane(), Ok(false));

        // An L of three unit squares, one tile each: the way from the bottom left
        // square to the top right one bends round the inner corner (1, 1).
        let mut world = Navigator::default();
        let mut ids = Vec::new();
        for (x0, z0) in [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0)] {
            let square = [
                [x0, 0.0, z0],
                [x0 + 1.0, 0.0, z0],
                [x0 + 1.0, 0.0, z0 + 1.0],
                [x0, 0.0, z0 + 1.0],
            ];
            let polygon: [&[i32]; 1] = [&[0, 1, 2, 3]];
            ids.push(
                world
                    .add_tile(square, polygon, &Extras::default(), &Settings::default())
                    .unwrap(),
            );
        }
        let (from, to) = ([0.5, 0.0, 0.5], [1.5, 0.0, 1.8]);
        let bend = [Vec3::from(from), Vec3::new(1.0, 0.0, 1.0), Vec3::from(to)];
        let from_index = |nav: &Navigator| {
            nav.query
                .as_ref()
                .unwrap()
                .fast_lane_corners_seen()
                .is_some()
        };
        let (searched, _) = path(&mut world, from, to, true);
        assert!(!from_index(&world), "a world builds no index by itself");
        assert_eq!(searched, bend);
        assert_eq!(world.prepare_fast_lane(), Ok(true));
        let (answered, _) = path(&mut world, from, to, true);
        assert!(from_index(&world), "the world's index answers");
        assert_eq!(answered, bend);
        // A tile change drops it: the search answers again.
        world.remove_tile(ids[2]).unwrap();
        assert!(world.mesh().is_some_and(|m| m.fast_lane_stats().is_none()));
        let (_, _) = path(&mut world, from, [1.5, 0.0, 0.5], true);
        assert!(!from_index(&world));
    }
}
