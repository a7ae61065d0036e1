//! The state of a world behind its writers' lock: its tiles by slot, the generations of
//! the slots, and what every snapshot shares (flags generation, obstacles, islands, the
//! wall grids of tiles taken out); and the making of a tile for a slot of it
//! ([`Tile::new`]). The changes themselves (put, take, swap) are in `compose`.

use std::sync::Arc;

use super::TileRef;
use super::border_cache::BorderCache;
use super::islands::Islands;
use super::links::TileLinks;
use super::obstacle_set::ObstacleSet;
use super::stitch::SeamRules;
use super::tile::{MergedLayer, Tile, layer_of};
use crate::error::MeshError;
use crate::mesh::{NavMesh, OffMeshLink, PolygonIndex};
use crate::sync::AtomicU64;

/// The tiles of a world and what its snapshots are made of.
pub(super) struct State {
    pub rules: SeamRules,
    pub local_bits: u32,
    max_tiles: u32,
    /// Per slot (as many as were ever used): the tile there.
    pub slots: Vec<Option<Tile>>,
    /// Per slot: the generation of the last tile put there (0: never filled).
    pub(super) generations: Vec<u32>,
    /// Shared by every snapshot of the world.
    pub(super) flags_generation: Arc<AtomicU64>,
    /// The spatial index of an empty slot.
    pub(super) empty_index: Arc<PolygonIndex>,
    /// Whether every tile's merged layer is stitched (while some tile's polygons
    /// merge).
    pub merged_layer: bool,
    /// The obstacles carved into the tiles, and the tiles as they were added.
    pub obstacles: Box<ObstacleSet>,
    /// The islands of the snapshots, as of the last one.
    pub islands: Islands,
    /// The wall grids of the last tiles taken out or replaced.
    pub(super) borders: BorderCache,
    /// Those of the merged layer, while the world keeps one.
    pub merged_islands: Option<Islands>,
    /// The slots whose joins (seams, links between tiles) may have changed since the
    /// last snapshot; see [`Islands::update`].
    pub island_dirty: Vec<u32>,
    /// The slots whose tile came, went or was replaced since the last snapshot.
    pub island_replaced: Vec<u32>,
}

impl State {
    /// The state of an empty world.
    pub fn new(rules: SeamRules, local_bits: u32, max_tiles: u32) -> Result<State, MeshError> {
        Ok(State {
            rules,
            local_bits,
            max_tiles,
            slots: Vec::new(),
            generations: Vec::new(),
            flags_generation: Arc::new(AtomicU64::new(0)),
            empty_index: Arc::new(PolygonIndex::build(&[])?),
            merged_layer: false,
            obstacles: Box::default(),
            islands: Islands::default(),
            borders: BorderCache::default(),
            merged_islands: None,
            island_dirty: Vec::new(),
            island_replaced: Vec::new(),
        })
    }

    /// Whether `slot` holds a tile.
    pub(super) fn holds(&self, slot: u32) -> bool {
        self.slots.get(slot as usize).is_some_and(Option::is_some)
    }

    /// Every tile present, with its slot.
    pub(super) fn present_tiles(&self) -> impl Iterator<Item = (u32, &Tile)> + '_ {
        self.slots
            .iter()
            .enumerate()
            .filter_map(|(s, t)| Some((s as u32, t.as_ref()?)))
    }

    /// The most elements of one kind a tile may have: `2^local_bits - 1`.
    pub(super) fn max_elements(&self) -> u64 {
        (1u64 << self.local_bits) - 1
    }

    /// The tile of `slot`, which holds one.
    pub(super) fn tile(&self, slot: u32) -> &Tile {
        self.slots[slot as usize]
            .as_ref()
            .expect("a neighbour is in the world")
    }

    /// See [`State::tile`].
    pub(super) fn tile_mut(&mut self, slot: u32) -> &mut Tile {
        self.slots[slot as usize]
            .as_mut()
            .expect("a neighbour is in the world")
    }

    /// The tile of `slot` in the fine layer, or its merged layer.
    pub(super) fn layer(&self, slot: u32, merged: bool) -> &Tile {
        layer_of(self.tile(slot), merged)
    }

    pub(super) fn layer_mut(&mut self, slot: u32, merged: bool) -> &mut Tile {
        let tile = self.tile_mut(slot);
        if merged {
            &mut tile
                .merged
                .as_mut()
                .expect("a tile has a merged layer")
                .tile
        } else {
            tile
        }
    }

    /// The id of element 0 of `slot`.
    pub(super) fn base(&self, slot: u32) -> u32 {
        (u64::from(slot) << self.local_bits) as u32
    }

    /// The number of tiles present.
    pub fn tile_count(&self) -> u32 {
        self.slots.iter().flatten().count() as u32
    }

    /// Every tile present with its own mesh.
    pub fn tiles(&self) -> Vec<(TileRef, NavMesh)> {
        self.slots
            .iter()
            .enumerate()
            .filter_map(|(slot, tile)| {
                let tile = tile.as_ref()?;
                let r = TileRef {
                    slot: slot as u32,
                    generation: tile.generation,
                };
                Some((r, self.obstacles.added_mesh(slot as u32, tile).clone()))
            })
            .collect()
    }

    /// The lowest empty slot.
    ///
    /// # Errors
    /// [`MeshError::WorldFull`].
    pub fn free_slot(&mut self) -> Result<u32, MeshError> {
        if let Some(slot) = self.slots.iter().position(Option::is_none) {
            return Ok(slot as u32);
        }
        if self.slots.len() as u64 >= u64::from(self.max_tiles) {
            return Err(MeshError::WorldFull {
                max_tiles: self.max_tiles,
            });
        }
        self.slots.push(None);
        self.generations.push(0);
        Ok(self.slots.len() as u32 - 1)
    }

    /// Per slot ever used: the generation of the last tile put there (0: none yet).
    pub fn generations(&self) -> &[u32] {
        &self.generations
    }

    /// Sets the generations of the slots of an empty world, as a saved world had them,
    /// so that references into tiles removed before it was saved stay stale.
    ///
    /// # Errors
    /// [`MeshError::InvalidOption`] when the world has tiles or there are more
    /// generations than slots.
    pub fn set_generations(&mut self, generations: &[u32]) -> Result<(), MeshError> {
        if self.tile_count() > 0 || generations.len() as u64 > u64::from(self.max_tiles) {
            return Err(MeshError::InvalidOption(
                "a saved world has more slot generations than max_tiles",
            ));
        }
        self.slots = generations.iter().map(|_| None).collect();
        self.generations = generations.to_vec();
        Ok(())
    }

    /// Makes `slot` ready for a tile put back where a saved world had it: below
    /// `max_tiles` and empty.
    ///
    /// # Errors
    /// [`MeshError::InvalidOption`] when it is not.
    pub fn claim(&mut self, slot: u32) -> Result<(), MeshError> {
        if slot >= self.max_tiles {
            return Err(MeshError::InvalidOption(
                "a tile's slot is beyond the world's max_tiles",
            ));
        }
        let needed = slot as usize + 1;
        if self.slots.len() < needed {
            self.slots.resize_with(needed, || None);
            self.generations.resize(needed, 0);
        }
        if self.slots[slot as usize].is_some() {
            return Err(MeshError::InvalidOption(
                "a tile's slot already holds a tile",
            ));
        }
        Ok(())
    }

    /// The generation the next tile put into `slot` gets (never 0).
    pub fn next_generation(&self, slot: u32) -> u32 {
        self.generations[slot as usize].wrapping_add(1).max(1)
    }

    /// Makes the merged layer of every tile present that has none yet (a tile gets it
    /// only once the world may keep merged layers: making a fresh mesh's merged copy
    /// costs about as much as stitching the tile, and a world whose tiles barely merge
    /// never searches it). A mesh that was in the world before takes its copy, which the
    /// mesh keeps, and its wall grid from the world's cache.
    pub fn make_merged_layers(&mut self) {
        for slot in 0..self.slots.len() as u32 {
            let base = self.base(slot);
            if let Some(tile) = self.slots[slot as usize].as_mut()
                && tile.merged.is_none()
            {
                tile.merged = Some(MergedLayer::of(&tile.mesh, base, tile.generation));
                tile.reuse_border(&self.borders);
            }
        }
    }

    /// Whether `tile` names a tile of the world.
    ///
    /// # Errors
    /// [`MeshError::StaleTile`] when it does not.
    pub fn check(&self, tile: TileRef) -> Result<(), MeshError> {
        let current = self
            .slots
            .get(tile.slot as usize)
            .and_then(Option::as_ref)
            .map(|t| t.generation);
        if current == Some(tile.generation) {
            Ok(())
        } else {
            Err(MeshError::StaleTile {
                slot: tile.slot,
                generation: tile.generation,
                current,
            })
        }
    }
}

impl Tile {
    /// A tile for slot `slot` of `state`'s world from `mesh` and the links `given` with
    /// it (starting on it, ending in other tiles), not yet stitched, its merged layer not
    /// yet made ([`State::make_merged_layers`] makes it when the world needs it).
    ///
    /// # Errors
    /// [`MeshError::InvalidOption`] for a mesh with another up axis, a snapshot of a
    /// world, or a mesh built for another agent radius than the tiles in the other
    /// slots; errors of [`TileLinks::new`] for the links.
    pub fn new(
        mesh: &NavMesh,
        given: &[OffMeshLink],
        slot: u32,
        generation: u32,
        state: &State,
    ) -> Result<Tile, MeshError> {
        let data = mesh.data();
        if data.up != state.rules.up {
            return Err(MeshError::InvalidOption(
                "the tile's up axis is not the world's",
            ));
        }
        if data.tiles.len() != 1 || data.local_bits != 32 {
            return Err(MeshError::InvalidOption(
                "a tile must be a mesh built or loaded on its own, not a snapshot of a world",
            ));
        }
        let others = state
            .slots
            .iter()
            .enumerate()
            .filter(|&(s, _)| s != slot as usize);
        if others
            .filter_map(|(_, t)| t.as_ref())
            .any(|t| t.mesh.agent_radius() != mesh.agent_radius())
        {
            return Err(MeshError::InvalidOption(
                "the tile was built for another agent radius (MeshOptions::agent_radius) \
                 than the world's other tiles",
            ));
        }
        debug_assert!(slot < state.max_tiles);
        let links = TileLinks::new(mesh, given, slot, state.max_elements())?;
        let tile = Tile::layer(mesh, generation, links);
        tile.reuse_border(&state.borders);
        Ok(tile)
    }
}
