//! The writers' side of a world: its tiles, their neighbours and chunks, and the
//! snapshot composed from them.
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
//! neighbours' copies in the same way. The copies have the tiles' walls (merging
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

use std::sync::atomic::Ordering;
use std::sync::{Arc, OnceLock};

use super::TileRef;
use super::border_cache::BorderCache;
use super::islands::Islands;
use super::links::TileLinks;
use super::obstacles::ObstacleSet;
use super::restitch::Stitched;
use super::stitch::{Border, SeamRules, TileShape};
use crate::error::MeshError;
use crate::geometry::Aabb;
use crate::mesh::{NavMesh, OffMeshLink, PolygonIndex, PolygonStamps};
use crate::sync::{AtomicU32, AtomicU64};

/// Tiles are neighbours when their ground-plane bounds come within this many seam
/// tolerances of each other (see the module's documentation for why more than one).
const NEAR: f32 = 3.0;

/// A world keeps its tiles' merged layers (and its snapshots a merged copy for the
/// exact mode) while they hold at most this share of its polygons: below that, the copy
/// saves the exact search few nodes, and costs each change a second layer and each
/// exact query a second set of tables in the caches (a grid map cut into tiles merges
/// by well under 1%).
pub(super) const MERGED_SHARE: f64 = 0.9;

/// A tile in the world.
pub(super) struct Tile {
    /// The mesh it was added as (one tile: local ids).
    pub mesh: NavMesh,
    /// The generation of its slot when it was put there (that of its [`TileRef`]).
    pub generation: u32,
    /// Since which generation of the slot each polygon number names its polygon (see
    /// [`PolyRef`](super::PolyRef)); obstacles renumber carved tiles.
    pub stamps: Arc<PolygonStamps>,
    /// Its walls and bounds, for stitching: found when first needed (a merged layer
    /// that is never stitched does without), or taken from the world's
    /// [`BorderCache`] when the same mesh was in the world before.
    border: OnceLock<Arc<Border>>,
    /// The slots of the tiles near it (kept by the tile itself, not its merged layer).
    pub neighbours: Vec<u32>,
    /// The world's copy of its flags, shared by every snapshot that holds it.
    pub flags: Arc<[AtomicU32]>,
    /// `None` until the tile is first stitched into the world.
    pub stitched: Option<Stitched>,
    /// The tile's layer for the exact mode (`None` in that layer itself).
    pub merged: Option<Box<MergedLayer>>,
    /// Its off-mesh links: its own mesh's and those given with it (none in the merged
    /// layer: the exact mode takes no links).
    pub links: TileLinks,
}

/// A tile's layer for the exact mode: its merged copy, or the tile itself when its
/// polygons do not merge, stitched to the neighbours' layers like the tile.
pub(super) struct MergedLayer {
    pub tile: Tile,
    /// Per polygon of the tile (local id): the polygon of the layer holding it (global
    /// id).
    pub of_original: Arc<[u32]>,
}

impl Tile {
    /// A tile for slot `slot` of `state`'s world from `mesh` and the links `given` with
    /// it (starting on it, ending in other tiles), not yet stitched.
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
        let base = state.base(slot);
        let (copy, of_original) = match data.coarse() {
            Some(coarse) => (
                NavMesh::from_data(coarse.mesh.clone()),
                coarse.of_original.iter().map(|&m| base | m).collect(),
            ),
            None => (
                mesh.clone(),
                (0..data.polygon_count()).map(|p| base | p).collect(),
            ),
        };
        let links = TileLinks::new(mesh, given, slot, state.max_elements())?;
        let mut tile = Tile::layer(mesh, generation, links);
        tile.merged = Some(Box::new(MergedLayer {
            tile: Tile::layer(&copy, generation, TileLinks::none()),
            of_original,
        }));
        tile.reuse_border(&state.borders);
        Ok(tile)
    }

    /// A tile of `mesh` (checked) without its merged layer, not yet stitched.
    fn layer(mesh: &NavMesh, generation: u32, links: TileLinks) -> Tile {
        let data = mesh.data();
        let flags = data
            .flags
            .as_single()
            .iter()
            .map(|f| AtomicU32::new(f.load(Ordering::Relaxed)))
            .collect();
        Tile {
            mesh: mesh.clone(),
            generation,
            stamps: Arc::new(PolygonStamps::new(generation)),
            border: OnceLock::new(),
            neighbours: Vec::new(),
            flags,
            stitched: None,
            merged: None,
            links,
        }
    }

    /// The tile's walls and bounds ([`Border::of`] its mesh).
    pub fn border(&self) -> &Border {
        self.border.get_or_init(|| {
            let data = self.mesh.data();
            Arc::new(Border::of(
                data.ground.as_single(),
                data.poly_start.as_single(),
                data.corners.as_single(),
                data.neighbours.as_single(),
            ))
        })
    }

    /// Takes the grid the world kept for this tile's mesh, if any (see
    /// [`BorderCache`]), for it and its merged layer.
    fn reuse_border(&self, cache: &BorderCache) {
        let layers = std::iter::once(self).chain(self.merged.as_deref().map(|m| &m.tile));
        for tile in layers {
            if tile.border.get().is_none()
                && let Some(border) = cache.find(&tile.mesh)
            {
                let _ = tile.border.set(border);
            }
        }
    }

    /// The grid of the tile, if made or taken from the cache yet.
    #[cfg(test)]
    pub fn border_if_made(&self) -> Option<&Arc<Border>> {
        self.border.get()
    }

    /// Keeps the grids made for this tile and its merged layer in `cache`, for when
    /// the same mesh comes back.
    fn keep_border(&self, cache: &mut BorderCache) {
        let layers = std::iter::once(self).chain(self.merged.as_deref().map(|m| &m.tile));
        for tile in layers {
            if let Some(border) = tile.border.get() {
                cache.keep(&tile.mesh, Arc::clone(border));
            }
        }
    }

    /// The tile's geometry, for stitching.
    pub fn shape(&self) -> TileShape<'_> {
        let data = self.mesh.data();
        TileShape {
            vertices: data.vertices.as_single(),
            ground: data.ground.as_single(),
            poly_start: data.poly_start.as_single(),
            corners: data.corners.as_single(),
            border: self.border(),
        }
    }

    /// The tile's merged layer (a tile of the world has one).
    pub fn merged(&self) -> &MergedLayer {
        self.merged.as_deref().expect("a tile has a merged layer")
    }

    pub fn stitched(&self) -> &Stitched {
        self.stitched
            .as_ref()
            .expect("a tile in the world is stitched")
    }

    /// The world's current flags of `polygon` (local id).
    pub fn flags_of(&self, polygon: u32) -> u32 {
        self.flags[polygon as usize].load(Ordering::Relaxed)
    }

    /// Sets the world's flags of every polygon (local id) to `flags` of it (before the
    /// tile is published).
    pub fn set_flags(&self, flags: impl Fn(u32) -> u32) {
        for (p, f) in self.flags.iter().enumerate() {
            f.store(flags(p as u32), Ordering::Relaxed);
        }
    }

    /// The local island of `polygon` (local id).
    pub fn island(&self, polygon: u32) -> u32 {
        self.mesh.data().local_island.as_single()[polygon as usize]
    }
}

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

/// `tile` itself, or its merged layer.
pub(super) fn layer_of(tile: &Tile, merged: bool) -> &Tile {
    if merged { &tile.merged().tile } else { tile }
}
