//! Composing a snapshot of a world: every table gathered from the tiles' chunks (one
//! `Arc` per table and slot, shared with the tiles and the other snapshots), and the
//! islands brought up to date (`islands`).

use std::sync::{Arc, OnceLock};

use super::islands::Islands;
use super::state::State;
use super::stitched::TileChunks;
use super::tile::{Tile, layer_of};
use crate::geometry::Aabb;
use crate::mesh::{CoarseMesh, ElementTables, Links, MeshData, TileInfo, Tiled};

impl State {
    /// The world as it is now, sharing every tile's chunks: the fine layer, and the
    /// merged copy for the exact mode while the world keeps merged layers (none when no
    /// tile's polygons merge: the exact mode then searches the tiles themselves). Brings
    /// the islands up to date with the changes made since the last snapshot.
    pub fn snapshot(&mut self) -> MeshData {
        self.update_islands();
        let mut data = self.snapshot_layer(false);
        let coarse = self.merged_layer.then(|| {
            let count = data.tiles.len();
            let tiles: Vec<Option<&Tile>> = (0..count)
                .map(|s| self.slots.get(s).and_then(Option::as_ref))
                .collect();
            let of_original = gather(&tiles, count, self.local_bits, |t| {
                t.merged().of_original.clone()
            });
            Box::new(CoarseMesh {
                mesh: Arc::new(self.snapshot_layer(true)),
                of_original,
            })
        });
        data.coarse = OnceLock::from(coarse);
        data
    }

    /// The agent radius the world's tiles were built for (0 for an empty world).
    fn baked_radius(&self) -> f32 {
        self.slots
            .iter()
            .flatten()
            .next()
            .map_or(0.0, |t| t.mesh.agent_radius())
    }

    /// The snapshot of one layer of the world (see [`State::snapshot`]), without a
    /// merged copy.
    fn snapshot_layer(&self, merged: bool) -> MeshData {
        let count = self
            .slots
            .iter()
            .rposition(Option::is_some)
            .map_or(1, |last| last + 1);
        let slots = &self.slots[..count.min(self.slots.len())];
        let shift = self.local_bits;
        // Each slot's layer looked up once for the 17 tables gathered from it.
        let layers: Vec<Option<&Tile>> = (0..count)
            .map(|s| {
                slots
                    .get(s)
                    .and_then(Option::as_ref)
                    .map(|t| layer_of(t, merged))
            })
            .collect();
        let chunks = |pick: fn(&TileChunks) -> Arc<[u32]>| {
            gather(&layers, count, shift, |t| pick(chunks_of(t)))
        };
        fn data(t: &Tile) -> &MeshData {
            t.mesh.data()
        }
        fn chunks_of(t: &Tile) -> &TileChunks {
            &t.stitched().chunks
        }
        let tables = ElementTables {
            vertices: gather(&layers, count, shift, |t| chunks_of(t).vertices.clone()),
            ground: gather(&layers, count, shift, |t| chunks_of(t).ground.clone()),
            poly_start: chunks(|c| c.poly_start.clone()),
            corners: chunks(|c| c.corners.clone()),
            neighbours: chunks(|c| c.neighbours.clone()),
            local_island: gather(&layers, count, shift, |t| {
                data(t).local_island.chunk(0).clone()
            }),
            portals: gather(&layers, count, shift, |t| chunks_of(t).portals.clone()),
            twin: chunks(|c| c.twin.clone()),
            wall_vertex: gather(&layers, count, shift, |t| chunks_of(t).wall_vertex.clone()),
            dead_end: gather(&layers, count, shift, |t| chunks_of(t).dead_end.clone()),
            areas: gather(&layers, count, shift, |t| data(t).areas.chunk(0).clone()),
            flags: gather(&layers, count, shift, |t| t.flags.clone()),
        };
        let links = Links {
            hop_start: gather(&layers, count, shift, |t| t.links.hop_start.clone()),
            hops: gather(&layers, count, shift, |t| t.links.hops.clone()),
            cost: gather(&layers, count, shift, |t| t.links.cost.clone()),
            area: gather(&layers, count, shift, |t| t.links.area.clone()),
            flags: gather(&layers, count, shift, |t| t.links.flags.clone()),
        };
        let islands = if merged {
            self.merged_islands
                .as_ref()
                .expect("islands of the merged layer")
        } else {
            &self.islands
        };
        let tiles = (0..count)
            .map(|s| {
                let generation = self.generations.get(s).copied().unwrap_or(0);
                match layers[s] {
                    Some(tile) => {
                        let own = &tile.mesh.data().tiles[0];
                        let chunks = &tile.stitched().chunks;
                        TileInfo {
                            bounds: own.bounds,
                            index: own.index.clone(),
                            polygon_count: own.polygon_count,
                            vertex_count: chunks.vertices.len() as u32,
                            slot_count: chunks.corners.len() as u32,
                            generation,
                            island_map: islands.map(s),
                            stamps: tile.stamps.clone(),
                        }
                    }
                    None => TileInfo {
                        bounds: Aabb::EMPTY,
                        index: self.empty_index.clone(),
                        polygon_count: 0,
                        vertex_count: 0,
                        slot_count: 0,
                        generation,
                        island_map: Arc::from(Vec::new()),
                        stamps: Arc::default(),
                    },
                }
            })
            .collect();
        let mut data = MeshData::from_tiles(
            self.rules.up,
            shift,
            tables,
            tiles,
            islands.count(),
            links,
            self.flags_generation.clone(),
        );
        // Every tile was built for the same agent radius (checked by `Tile::new`).
        data.clearance.baked_radius = self.baked_radius();
        data
    }

    /// Brings the islands of both layers up to date with the changes recorded since the
    /// last snapshot (`island_dirty`, `island_replaced`). A merged layer stitched anew
    /// (kept again after a time without) gets its islands from scratch.
    fn update_islands(&mut self) {
        let dirty = std::mem::take(&mut self.island_dirty);
        let replaced = std::mem::take(&mut self.island_replaced);
        self.islands.update(&self.slots, false, &dirty, &replaced);
        if !self.merged_layer {
            self.merged_islands = None;
            return;
        }
        match &mut self.merged_islands {
            Some(islands) => islands.update(&self.slots, true, &dirty, &replaced),
            None => {
                let all: Vec<u32> = self.present_tiles().map(|(s, _)| s).collect();
                let mut islands = Islands::default();
                islands.update(&self.slots, true, &[], &all);
                self.merged_islands = Some(islands);
            }
        }
    }
}

/// A table of `count` chunks: `pick` of each slot's tile (in the layer gathered), an
/// empty chunk for an empty slot.
fn gather<T>(
    layers: &[Option<&Tile>],
    count: usize,
    shift: u32,
    pick: impl Fn(&Tile) -> Arc<[T]>,
) -> Tiled<T> {
    debug_assert_eq!(layers.len(), count);
    let chunks = layers
        .iter()
        .map(|layer| match layer {
            Some(tile) => pick(tile),
            None => Arc::from(Vec::new()),
        })
        .collect();
    Tiled::from_chunks(chunks, shift)
}
