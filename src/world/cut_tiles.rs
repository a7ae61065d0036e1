//! A whole mesh added to a world as tiles: the tiles of [`NavMesh::cut_into_tiles`] put
//! into free slots under one lock, with the links between them, and published as one
//! snapshot, so that no query sees part of the mesh. For engines that hand over one large
//! baked mesh and want what tiles give: streaming it in parts later, and obstacles that
//! rebuild a tile rather than the whole mesh.

use super::{TileRef, World, obstacles};
use crate::error::MeshError;
use crate::mesh::{NavMesh, TileCut};

impl World {
    /// Adds every tile of `cut` (from [`NavMesh::cut_into_tiles`]) with the links between
    /// them ([`crate::TileCut::links_from`]), in free slots by the cut's order, and
    /// publishes one snapshot: queries see the world before or with all of them, never a
    /// part. Obstacles already in the world carve them as they come. Returns the tiles'
    /// references, one per tile of the cut, in its order.
    ///
    /// # Errors
    /// [`MeshError::WorldFull`] when fewer slots are free than the cut has tiles (checked
    /// first); otherwise as [`World::add_tile_with_links`] for the first tile refused. The
    /// world is then unchanged.
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshOptions, NavMesh, World, WorldOptions};
    ///
    /// // A 4 x 1 floor (y up), cut into tiles of side 1.5: three tiles.
    /// let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// let floor = NavMesh::from_polygons(&[v(0.0, 0.0), v(4.0, 0.0), v(4.0, 1.0), v(0.0, 1.0)], &[0, 3, 2, 1], &[4], &MeshOptions::default())?;
    /// let world = World::new(&WorldOptions::default())?;
    /// let tiles = world.add_tiles(&floor.cut_into_tiles(1.5)?)?;
    /// assert_eq!(tiles.len(), 3);
    /// let snapshot = world.snapshot();
    /// assert_eq!((snapshot.island_count(), world.tile_count()), (1, 3));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn add_tiles(&self, cut: &TileCut) -> Result<Vec<TileRef>, MeshError> {
        let mut state = self.lock();
        let free = u64::from(self.options().max_tiles) - u64::from(state.tile_count());
        if cut.tiles.len() as u64 > free {
            return Err(MeshError::WorldFull {
                max_tiles: self.options().max_tiles,
            });
        }
        let mut added: Vec<TileRef> = Vec::with_capacity(cut.tiles.len());
        for (i, tile) in cut.tiles.iter().enumerate() {
            let put = state.free_slot().and_then(|slot| {
                let generation = state.next_generation(slot);
                let links = cut.links_from(i);
                let (new, carved) =
                    obstacles::carved_tile(&state, &tile.mesh, &links, slot, generation)?;
                state.put(slot, new)?;
                state.obstacles.set_carved(slot, carved);
                Ok(TileRef { slot, generation })
            });
            match put {
                Ok(tile) => added.push(tile),
                Err(error) => {
                    // Take back the tiles put so far, last first: each was joined to
                    // those before it, so the world is as it was (nothing was published).
                    for tile in added.iter().rev() {
                        if state.take(tile.slot).is_ok() {
                            state.obstacles.set_carved(tile.slot, None);
                        }
                    }
                    return Err(error);
                }
            }
        }
        self.publish(&mut state, super::landmarks::Change::MayGrow);
        Ok(added)
    }

    /// Cuts `mesh` into square tiles of side `tile_size` ([`NavMesh::cut_into_tiles`]) and
    /// adds them all ([`World::add_tiles`]). The world's up axis must be the mesh's; its
    /// seam tolerance should be at least the default (the cutter places tile borders on
    /// one grid, so the tiles' edges meet within a few f32 steps).
    ///
    /// # Errors
    /// [`MeshError::TileCut`] naming the tile size (not finite and > 0, too fine for the
    /// mesh, a snapshot of a world), then as [`World::add_tiles`]. The world is then
    /// unchanged.
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshOptions, NavMesh, PathOptions, Query, World, WorldOptions};
    ///
    /// let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// let floor = NavMesh::from_polygons(&[v(0.0, 0.0), v(4.0, 0.0), v(4.0, 1.0), v(0.0, 1.0)], &[0, 3, 2, 1], &[4], &MeshOptions::default())?;
    /// let world = World::new(&WorldOptions::default())?;
    /// let tiles = world.add_mesh_in_tiles(&floor, 2.0)?;
    /// assert_eq!(tiles.len(), 2);
    /// // One straight path across the seam, as on the mesh in one piece.
    /// let mut query = Query::new(&world.snapshot());
    /// let path = query.find_path(v(0.5, 0.5), v(3.5, 0.5), &PathOptions::default())?;
    /// assert_eq!(path.corners.len(), 2);
    /// assert!(world.add_mesh_in_tiles(&floor, f32::NAN).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn add_mesh_in_tiles(
        &self,
        mesh: &NavMesh,
        tile_size: f32,
    ) -> Result<Vec<TileRef>, MeshError> {
        self.add_tiles(&mesh.cut_into_tiles(tile_size)?)
    }
}
