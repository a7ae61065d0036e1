//! The writers' side of a world: putting, taking and swapping the tiles of its state
//! (`state`; a tile and what stitching made of it are in `tile` and `stitched`), their
//! neighbours recorded, their seams stitched again and links attached again.
//!
//! Each tile keeps the mesh it was added as and, once stitched, its wall edges split
//! against its neighbours (`SplitTile`) and its chunks (`chunks`): the per-element
//! tables of the snapshot for its slot, with global ids and its seams filled in. A
//! change re-stitches the tiles whose seams it changes (`restitch`: the changed tile and
//! the neighbours it overlaps) and patches the twins of the seam slots that other tiles
//! have towards them (their geometry and splits do not change, only the slot numbers
//! across their seams). Every change is computed in full before any of it is applied,
//! so an error leaves the world as it was. A snapshot (`snapshot`) shares every tile's
//! chunks (one `Arc` per table and slot); its islands, kept between snapshots, come
//! from `islands`: a change marks the slots whose islands it may have changed
//! (`island_dirty`, `island_replaced`).
//!
//! Each tile has a second layer for the exact mode: its merged copy (see
//! `mesh::coarse`; the tile itself when its polygons do not merge), stitched to the
//! neighbours' copies in the same way. It is made only once the world may keep merged
//! layers (`State::make_merged_layers`, called by `restitch`). The copies have the tiles' walls (merging
//! removes only edges between two polygons, and keeps every corner), so they split and
//! pair where the tiles do; each snapshot composes them into its own merged copy, so
//! that the exact mode searches merged polygons on a world as on one piece.
//!
//! Why the tiles two steps away keep their splits: a tile is the neighbour of another
//! when their ground-plane bounds come within [`NEAR`] seam tolerances of each other. A
//! cut made by tile X lies within a tolerance of X's bounds; it could only fall inside a
//! seam with tile U if it were also within a tolerance of U's bounds, which makes U a
//! neighbour of X. So the seams of a tile that is not X's neighbour are cut where they
//! were, and pair with the same pieces.

use std::sync::Arc;

use super::state::State;
use super::tile::Tile;
use crate::error::MeshError;
use crate::geometry::Aabb;
use crate::mesh::PolygonStamps;

/// Tiles are neighbours when their ground-plane bounds come within this many seam
/// tolerances of each other (see the module's documentation for why more than one).
const NEAR: f32 = 3.0;

impl State {
    /// Puts `tile` into the empty `slot` and joins it to its neighbours.
    pub fn put(&mut self, slot: u32, mut tile: Tile) -> Result<(), MeshError> {
        // Never lower: a tile put back from a saved world keeps its reference's
        // generation, which may be below the slot's (obstacles carved since), and its
        // polygon numbers count from the slot's generation. A world saved while the
        // tile was carved recorded the slot one generation on
        // (`World::saved_generations`), so the references made on the carved polygons,
        // which are not put back, are stale; loading and saving again gives the same
        // generations.
        let generation = tile.generation.max(self.generations[slot as usize]);
        if tile.stamps.since != generation {
            tile.stamps = Arc::new(PolygonStamps::new(generation));
        }
        let regions = [tile.mesh.data().bounds];
        let mut touched = self.link(slot, tile);
        touched.push(slot);
        match self.change(&touched, &[slot], &regions, None) {
            Ok(()) => {
                self.generations[slot as usize] = generation;
                Ok(())
            }
            Err(error) => {
                self.unlink(slot);
                Err(error)
            }
        }
    }

    /// Removes the tile of `slot` (which holds one); its neighbours' seams with it
    /// become walls, and the links between it and other tiles detach.
    pub fn take(&mut self, slot: u32) -> Result<(), MeshError> {
        let old = self.unlink(slot);
        let regions = [old.mesh.data().bounds];
        match self.change(&old.neighbours.clone(), &[slot], &regions, Some(&old)) {
            Ok(()) => {
                old.keep_border(&mut self.borders);
                Ok(())
            }
            Err(error) => {
                self.link(slot, old);
                Err(error)
            }
        }
    }

    /// Replaces the tile of `slot` (which holds one) by `tile`; the slot's generation
    /// (that of its polygon references) becomes `generation`.
    pub fn swap(&mut self, slot: u32, tile: Tile, generation: u32) -> Result<(), MeshError> {
        let old = self.unlink(slot);
        let regions = [old.mesh.data().bounds, tile.mesh.data().bounds];
        let mut touched = self.link(slot, tile);
        touched.extend(old.neighbours.iter().copied());
        touched.push(slot);
        touched.sort_unstable();
        touched.dedup();
        match self.change(&touched, &[slot], &regions, Some(&old)) {
            Ok(()) => {
                self.generations[slot as usize] = generation;
                old.keep_border(&mut self.borders);
                Ok(())
            }
            Err(error) => {
                self.unlink(slot);
                self.link(slot, old);
                Err(error)
            }
        }
    }

    /// After the tiles of `changed` came, went or were replaced (`regions`: their bounds
    /// before and after; `gone`: the tile taken out), stitches `touched` again and
    /// re-attaches the links near the change. Nothing changes on error.
    fn change(
        &mut self,
        touched: &[u32],
        changed: &[u32],
        regions: &[Aabb],
        gone: Option<&Tile>,
    ) -> Result<(), MeshError> {
        let plan = self.plan_links(changed, regions, gone)?;
        self.restitch(touched, changed)?;
        self.apply_links(plan);
        self.island_replaced.extend_from_slice(changed);
        Ok(())
    }

    /// Puts `tile` into the empty `slot` and records it as the neighbour of the tiles
    /// near it, and they as its; returns them.
    fn link(&mut self, slot: u32, mut tile: Tile) -> Vec<u32> {
        let margin = NEAR * self.rules.tolerance;
        let near: Vec<u32> = (0..self.slots.len() as u32)
            .filter(|&s| {
                s != slot
                    && self.slots[s as usize]
                        .as_ref()
                        .is_some_and(|other| other.border().near(tile.border(), margin))
            })
            .collect();
        for &n in &near {
            self.tile_mut(n).neighbours.push(slot);
        }
        tile.neighbours.clone_from(&near);
        self.slots[slot as usize] = Some(tile);
        near
    }

    /// Takes the tile out of `slot` and out of its neighbours' lists (its own list is
    /// kept).
    fn unlink(&mut self, slot: u32) -> Tile {
        let tile = self.slots[slot as usize]
            .take()
            .expect("the slot holds a tile");
        for &n in &tile.neighbours {
            self.tile_mut(n).neighbours.retain(|&s| s != slot);
        }
        tile
    }
}
