//! The wall grids ([`Border`]) of the last tiles that left the world, kept for when the
//! same mesh comes back.
//!
//! A tile's [`Border`] (its wall edges bucketed on a grid, what stitching searches) is a
//! pure function of its mesh, and making it is a large part of adding a tile (about
//! 0.9 M instructions of 5.1 M for a maze tile of 884 polygons). Streaming worlds remove
//! tiles and add the same meshes back as the player comes and goes; the world then takes
//! the grid it had instead of making it again. The cache holds [`RECENT_BORDERS`] entries,
//! each a weak reference to the mesh and the grid: it never keeps a mesh alive (a mesh
//! the caller dropped is never found again; its `Weak` keeps the allocation, so its
//! address cannot name another mesh), and it costs nothing on the query path.

use std::sync::{Arc, Weak};

use super::stitch::Border;
use crate::mesh::{MeshData, NavMesh};

/// The number of grids kept: a few tiles' worth, the last to leave.
pub(super) const RECENT_BORDERS: usize = 8;

/// The grids of the last tiles (meshes) that left the world, most recent last.
#[derive(Default)]
pub(super) struct BorderCache {
    recent: Vec<(Weak<MeshData>, Arc<Border>)>,
}

impl BorderCache {
    /// Keeps `border`, the grid of `mesh`, dropping the oldest entry beyond
    /// [`RECENT_BORDERS`] and any entry of a mesh that no longer exists.
    pub fn keep(&mut self, mesh: &NavMesh, border: Arc<Border>) {
        let weak = Arc::downgrade(mesh.shared());
        self.recent
            .retain(|(w, _)| w.strong_count() > 0 && !w.ptr_eq(&weak));
        if self.recent.len() == RECENT_BORDERS {
            self.recent.remove(0);
        }
        self.recent.push((weak, border));
    }

    /// The grid kept for `mesh` (the same mesh, not an equal one), if any.
    pub fn find(&self, mesh: &NavMesh) -> Option<Arc<Border>> {
        let data = Arc::as_ptr(mesh.shared());
        self.recent
            .iter()
            .rev()
            .find(|(w, _)| std::ptr::eq(w.as_ptr(), data))
            .map(|(_, border)| Arc::clone(border))
    }

    /// The number of entries (for tests).
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.recent.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MeshOptions;
    use glam::Vec3;

    fn square(x: f32) -> NavMesh {
        let vertices = [
            Vec3::new(x, 0.0, 0.0),
            Vec3::new(x + 1.0, 0.0, 0.0),
            Vec3::new(x + 1.0, 0.0, 1.0),
            Vec3::new(x, 0.0, 1.0),
        ];
        NavMesh::from_polygons(&vertices, &[0, 1, 2, 3], &[4], &MeshOptions::default()).unwrap()
    }

    fn border_of(mesh: &NavMesh) -> Arc<Border> {
        let data = mesh.data();
        Arc::new(Border::of(
            data.ground.as_single(),
            data.poly_start.as_single(),
            data.corners.as_single(),
            data.neighbours.as_single(),
        ))
    }

    /// A world takes the grid of a tile that comes back (removed, or replaced, and
    /// added again as the same mesh) from the cache, and makes one for an equal mesh
    /// built again; the tables after each change equal stitching every tile again.
    #[test]
    fn a_tile_that_comes_back_takes_its_grid_again() {
        use crate::world::{World, WorldOptions};
        let world = World::new(&WorldOptions::default()).unwrap();
        let (left, right) = (square(0.0), square(1.0));
        world.add_tile(&left).unwrap();
        let r = world.add_tile(&right).unwrap();
        let border_in = |world: &World, slot: u32| {
            let state = world.lock();
            let tile = state.slots[slot as usize].as_ref().expect("a tile");
            Arc::clone(tile.border_if_made().expect("stitched, so made"))
        };
        let first = border_in(&world, r.slot);
        world.remove_tile(r).unwrap();
        let r = world.add_tile(&right).unwrap();
        assert!(
            Arc::ptr_eq(&border_in(&world, r.slot), &first),
            "taken again"
        );
        let same = world.snapshot();
        let replaced = world.replace_tile(r, &square(1.0)).unwrap();
        let fresh = border_in(&world, replaced.slot);
        assert!(!Arc::ptr_eq(&fresh, &first), "an equal mesh built again");
        assert_eq!(format!("{:?}", *fresh), format!("{:?}", *first));
        // The replaced mesh's grid was kept: putting it back takes it.
        let back = world.replace_tile(replaced, &right).unwrap();
        assert!(Arc::ptr_eq(&border_in(&world, back.slot), &first));
        let full = {
            let mut state = world.lock();
            state.restitch_all().unwrap();
            state.snapshot()
        };
        let now = world.snapshot();
        for p in now.data().polygon_ids() {
            let range = now.data().corner_range(p);
            assert_eq!(range, full.corner_range(p));
            assert_eq!(
                &now.data().neighbours[range.clone()],
                &full.neighbours[range.clone()]
            );
            assert_eq!(&now.data().twin[range.clone()], &full.twin[range]);
        }
        assert_eq!(now.polygon_count(), same.polygon_count());
    }

    #[test]
    fn the_same_mesh_finds_its_grid_and_no_other_does() {
        let (a, b) = (square(0.0), square(0.0));
        let mut cache = BorderCache::default();
        let border = border_of(&a);
        cache.keep(&a, Arc::clone(&border));
        let found = cache.find(&a).expect("kept");
        assert!(Arc::ptr_eq(&found, &border));
        // An equal mesh built again is another mesh.
        assert!(cache.find(&b).is_none());
        assert!(cache.find(&a.clone()).is_some(), "a clone shares the mesh");
    }

    #[test]
    fn a_dropped_mesh_is_never_found_and_the_cache_stays_small() {
        let mut cache = BorderCache::default();
        let gone = square(0.0);
        cache.keep(&gone, border_of(&gone));
        drop(gone);
        let kept: Vec<NavMesh> = (0..2 * RECENT_BORDERS)
            .map(|i| square(i as f32 * 2.0))
            .collect();
        for mesh in &kept {
            cache.keep(mesh, border_of(mesh));
            assert!(cache.len() <= RECENT_BORDERS);
        }
        // The last RECENT_BORDERS are found, the older ones are not.
        for (i, mesh) in kept.iter().enumerate() {
            assert_eq!(
                cache.find(mesh).is_some(),
                i >= kept.len() - RECENT_BORDERS,
                "mesh {i}"
            );
        }
        // Keeping a mesh again replaces its entry instead of adding one.
        let last = &kept[kept.len() - 1];
        cache.keep(last, border_of(last));
        assert_eq!(cache.len(), RECENT_BORDERS);
    }

    /// A tile with no neighbour is never stitched to one, so its wall grid is not made
    /// (an obstacle carved into a level added as one tile pays nothing for it); a
    /// neighbour added later makes it, and the seams are those of stitching all again.
    #[test]
    fn a_tile_without_neighbours_makes_no_grid() {
        use crate::mesh::Obstacle;
        use crate::world::{World, WorldOptions};
        let world = World::new(&WorldOptions::default()).unwrap();
        let room = square(0.0);
        let t = world.add_tile(&room).unwrap();
        let made = |world: &World, slot: u32| {
            let state = world.lock();
            let tile = state.slots[slot as usize].as_ref().expect("a tile");
            tile.border_if_made().is_some()
        };
        assert!(!made(&world, t.slot), "added alone");
        let id = world
            .add_obstacle(&Obstacle::circle(glam::Vec2::new(0.5, 0.5), 0.1).unwrap())
            .unwrap();
        assert!(world.snapshot().polygon_count() > 1, "carved");
        assert!(!made(&world, t.slot), "carved alone");
        let r = world.add_tile(&square(1.0)).unwrap();
        assert!(made(&world, t.slot) && made(&world, r.slot), "stitched");
        world.remove_obstacle(id).unwrap();
        let full = {
            let mut state = world.lock();
            state.restitch_all().unwrap();
            state.snapshot()
        };
        let now = world.snapshot();
        assert_eq!(now.polygon_count(), 2);
        for p in now.data().polygon_ids() {
            let range = now.data().corner_range(p);
            assert_eq!(
                &now.data().neighbours[range.clone()],
                &full.neighbours[range.clone()]
            );
            assert_eq!(&now.data().twin[range.clone()], &full.twin[range]);
        }
        // The two squares share the edge x = 1: one seam each way.
        let seams = now
            .data()
            .polygon_ids()
            .flat_map(|p| now.data().neighbours[now.data().corner_range(p)].to_vec())
            .filter(|&n| n != crate::mesh::NO_NEIGHBOUR)
            .count();
        assert_eq!(seams, 2);
    }
}
