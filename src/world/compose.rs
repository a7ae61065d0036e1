//! The writers' side of a world: its tiles, their neighbours and chunks, and the
//! snapshot composed from them.
//!
//! Each tile keeps the mesh it was added as and, once stitched, its wall edges split
//! against its neighbours ([`SplitTile`]) and its chunks: the per-element tables of the
//! snapshot for its slot, with global ids and its seams filled in. A change re-stitches
//! the tiles it touches (the tile and its neighbours: their splits change) and patches
//! the twins of the seam slots that tiles two steps away have towards them (their
//! geometry and splits do not change, only the slot numbers across their seams). Every
//! change is computed in full before any of it is applied, so an error leaves the world
//! as it was.
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

use glam::{Vec2, Vec3};

use super::TileRef;
use super::links::TileLinks;
use super::stitch::{
    Border, Overlap, SeamRules, SplitTile, TileShape, overlaps, seam_pairs, split_tile,
};
use crate::error::MeshError;
use crate::geometry::Aabb;
use crate::mesh::{
    CoarseMesh, ElementTables, Links, MeshData, NO_NEIGHBOUR, NO_TWIN, NavMesh, OffMeshLink,
    PolygonIndex, TileInfo, Tiled, portal_of_slot,
};
use crate::sync::{AtomicU32, AtomicU64};

/// Tiles are neighbours when their ground-plane bounds come within this many seam
/// tolerances of each other (see the module's documentation for why more than one).
const NEAR: f32 = 3.0;

/// A world keeps its tiles' merged layers (and its snapshots a merged copy for the
/// exact mode) while they hold at most this share of its polygons: below that, the copy
/// saves the exact search few nodes, and costs each change a second layer and each
/// exact query a second set of tables in the caches (a grid map cut into tiles merges
/// by well under 1%).
const MERGED_SHARE: f64 = 0.9;

/// One tile's chunks of the per-element tables that stitching changes (ids global). A
/// vertex is a wall vertex when a wall of the world ends at its point: a wall of its own
/// tile, or of a neighbour (whose vertex there is another, at the same point); where
/// seams join tiles all round a point, no wall ends there and no path bends there.
#[derive(Clone)]
struct TileChunks {
    vertices: Arc<[Vec3]>,
    ground: Arc<[Vec2]>,
    poly_start: Arc<[u32]>,
    corners: Arc<[u32]>,
    neighbours: Arc<[u32]>,
    portals: Arc<[[u32; 2]]>,
    twin: Arc<[u32]>,
    wall_vertex: Arc<[bool]>,
    dead_end: Arc<[bool]>,
}

/// What stitching made of a tile.
struct Stitched {
    split: SplitTile,
    chunks: TileChunks,
    /// `[local island, other tile's slot, its local island]` for every pair of islands
    /// joined by a seam (both directions are recorded, one by each tile).
    island_links: Vec<[u32; 3]>,
}

/// What stitching made of a tile in one layer.
type Plan = (
    Vec<SplitTile>,
    Vec<TileChunks>,
    Vec<Vec<[u32; 3]>>,
    Vec<(u32, Arc<[u32]>)>,
);

/// A tile in the world.
pub(super) struct Tile {
    /// The mesh it was added as (one tile: local ids).
    pub mesh: NavMesh,
    /// The generation of its slot.
    pub generation: u32,
    border: Border,
    /// The slots of the tiles near it (kept by the tile itself, not its merged layer).
    neighbours: Vec<u32>,
    /// The world's copy of its flags, shared by every snapshot that holds it.
    flags: Arc<[AtomicU32]>,
    /// `None` until the tile is first stitched into the world.
    stitched: Option<Stitched>,
    /// The tile's layer for the exact mode (`None` in that layer itself).
    merged: Option<Box<MergedLayer>>,
    /// Its off-mesh links: its own mesh's and those given with it (none in the merged
    /// layer: the exact mode takes no links).
    pub links: TileLinks,
}

/// A tile's layer for the exact mode: its merged copy, or the tile itself when its
/// polygons do not merge, stitched to the neighbours' layers like the tile.
struct MergedLayer {
    tile: Tile,
    /// Per polygon of the tile (local id): the polygon of the layer holding it (global
    /// id).
    of_original: Arc<[u32]>,
}

impl Tile {
    /// A tile for slot `slot` of `state`'s world from `mesh` and the links `given` with
    /// it (starting on it, ending in other tiles), not yet stitched.
    ///
    /// # Errors
    /// [`MeshError::InvalidOption`] for a mesh with another up axis or a snapshot of a
    /// world; errors of [`TileLinks::new`] for the links.
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
        Ok(tile)
    }

    /// A tile of `mesh` (checked) without its merged layer, not yet stitched.
    fn layer(mesh: &NavMesh, generation: u32, links: TileLinks) -> Tile {
        let data = mesh.data();
        let border = Border::of(
            data.ground.as_single(),
            data.poly_start.as_single(),
            data.corners.as_single(),
            data.neighbours.as_single(),
        );
        let flags = data
            .flags
            .as_single()
            .iter()
            .map(|f| AtomicU32::new(f.load(Ordering::Relaxed)))
            .collect();
        Tile {
            mesh: mesh.clone(),
            generation,
            border,
            neighbours: Vec::new(),
            flags,
            stitched: None,
            merged: None,
            links,
        }
    }

    /// The tile's geometry, for stitching.
    fn shape(&self) -> TileShape<'_> {
        let data = self.mesh.data();
        TileShape {
            vertices: data.vertices.as_single(),
            ground: data.ground.as_single(),
            poly_start: data.poly_start.as_single(),
            corners: data.corners.as_single(),
            border: &self.border,
        }
    }

    /// The tile's merged layer (a tile of the world has one).
    fn merged(&self) -> &MergedLayer {
        self.merged.as_deref().expect("a tile has a merged layer")
    }

    fn stitched(&self) -> &Stitched {
        self.stitched
            .as_ref()
            .expect("a tile in the world is stitched")
    }

    /// The local island of `polygon` (local id).
    fn island(&self, polygon: u32) -> u32 {
        self.mesh.data().local_island.as_single()[polygon as usize]
    }
}

/// A seam slot of a tile: its local slot (after splitting) and the polygon that owns it
/// (local id), the polygon across it and that polygon's slot (global ids).
#[derive(Debug, Clone, Copy)]
struct Seam {
    slot: u32,
    owner: u32,
    polygon: u32,
    twin: u32,
}

/// The tiles of a world and what its snapshots are made of.
pub(super) struct State {
    rules: SeamRules,
    local_bits: u32,
    max_tiles: u32,
    /// Per slot (as many as were ever used): the tile there.
    slots: Vec<Option<Tile>>,
    /// Per slot: the generation of the last tile put there (0: never filled).
    generations: Vec<u32>,
    /// Shared by every snapshot of the world.
    flags_generation: Arc<AtomicU64>,
    /// The spatial index of an empty slot.
    empty_index: Arc<PolygonIndex>,
    /// Whether every tile's merged layer is stitched (while some tile's polygons
    /// merge).
    merged_layer: bool,
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
    fn layer(&self, slot: u32, merged: bool) -> &Tile {
        layer_of(self.tile(slot), merged)
    }

    fn layer_mut(&mut self, slot: u32, merged: bool) -> &mut Tile {
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
                Some((r, tile.mesh.clone()))
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
    pub fn put(&mut self, slot: u32, tile: Tile) -> Result<(), MeshError> {
        let generation = tile.generation;
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
            Ok(()) => Ok(()),
            Err(error) => {
                self.link(slot, old);
                Err(error)
            }
        }
    }

    /// Replaces the tile of `slot` (which holds one) by `tile`.
    pub fn swap(&mut self, slot: u32, tile: Tile) -> Result<(), MeshError> {
        let generation = tile.generation;
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
        self.restitch(touched)?;
        self.apply_links(plan);
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
                        .is_some_and(|other| other.border.near(&tile.border, margin))
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

    /// Stitches the tiles of `touched` again (their neighbour lists are up to date), and
    /// patches the twins of the tiles that have seams with them. Nothing changes on
    /// error.
    ///
    /// # Errors
    /// [`MeshError::TileTooLarge`] when a tile, split, has more elements than a slot
    /// numbers.
    ///
    /// The merged layer is kept only while merging leaves at most [`MERGED_SHARE`] of
    /// the world's polygons (else the exact mode searches the tiles themselves, and
    /// changes cost one layer): the change that crosses that line stitches every
    /// tile's merged layer, once.
    fn restitch(&mut self, touched: &[u32]) -> Result<(), MeshError> {
        let fine = self.plan(touched, false)?;
        let (all, merged) = self.slots.iter().flatten().fold((0.0, 0.0), |(a, m), t| {
            let count = |t: &Tile| f64::from(t.mesh.polygon_count());
            (a + count(t), m + count(&t.merged().tile))
        });
        let keep = merged < all && merged <= MERGED_SHARE * all;
        let merged = match (keep, self.merged_layer) {
            (false, _) => None,
            (true, true) => Some((touched.to_vec(), self.plan(touched, true)?)),
            (true, false) => {
                let all = self.present();
                let plan = self.plan(&all, true)?;
                Some((all, plan))
            }
        };
        self.apply(touched, fine, false);
        if let Some((tiles, plan)) = merged {
            self.apply(&tiles, plan, true);
        } else if self.merged_layer {
            for tile in self.slots.iter_mut().flatten() {
                tile.merged.as_mut().expect("a merged layer").tile.stitched = None;
            }
        }
        self.merged_layer = keep;
        Ok(())
    }

    /// The slots that hold a tile.
    fn present(&self) -> Vec<u32> {
        (0..self.slots.len() as u32)
            .filter(|&s| self.slots[s as usize].is_some())
            .collect()
    }

    /// What [`State::restitch`] makes of the tiles of `touched` in one layer, and the
    /// patched twins of the tiles with seams to them.
    fn plan(&self, touched: &[u32], merged: bool) -> Result<Plan, MeshError> {
        let rules = self.rules;
        let member = |slot: u32| touched.iter().position(|&t| t == slot);
        // The overlaps of each touched tile (index `i` in `touched`) with each of its
        // neighbours `u` (index `j` when touched too), once per pair of tiles.
        let mut found: Vec<(usize, u32, Option<usize>, Vec<Overlap>)> = Vec::new();
        for (i, &t) in touched.iter().enumerate() {
            let tile = self.layer(t, merged);
            let shape = tile.shape();
            for &u in &self.tile(t).neighbours {
                let j = member(u);
                if j.is_some_and(|j| j < i) {
                    continue; // Found from `u`'s side.
                }
                found.push((
                    i,
                    u,
                    j,
                    overlaps(&shape, &self.layer(u, merged).shape(), &rules),
                ));
            }
        }
        let mut splits = Vec::with_capacity(touched.len());
        for (i, &t) in touched.iter().enumerate() {
            let tile = self.layer(t, merged);
            let own = found.iter().flat_map(|(a, _, b, list)| {
                let (is_a, is_b) = (*a == i, *b == Some(i));
                list.iter().filter_map(move |o| {
                    if is_a {
                        Some((o.a, o.ends))
                    } else {
                        is_b.then_some((o.b, o.ends))
                    }
                })
            });
            let split = split_tile(&tile.shape(), own, &rules);
            self.check_size(t, tile, &split)?;
            splits.push(split);
        }
        let split_of = |slot: u32| match member(slot) {
            Some(j) => &splits[j],
            None => &self.layer(slot, merged).stitched().split,
        };

        let mut seams: Vec<Vec<Seam>> = vec![Vec::new(); touched.len()];
        let mut island_links: Vec<Vec<[u32; 3]>> = vec![Vec::new(); touched.len()];
        // (slot of a tile not in `touched`, its local slot, the new twin).
        let mut patches: Vec<(u32, u32, u32)> = Vec::new();
        for (i, u, j, list) in &found {
            let (i, u, j) = (*i, *u, *j);
            let t = touched[i];
            let (tile, other) = (self.layer(t, merged), self.layer(u, merged));
            let pairs = seam_pairs(
                (&tile.shape(), &splits[i]),
                (&other.shape(), split_of(u)),
                list,
                &rules,
            );
            let (base_t, base_u) = (self.base(t), self.base(u));
            for pair in pairs {
                let (island_t, island_u) =
                    (tile.island(pair.a_polygon), other.island(pair.b_polygon));
                seams[i].push(Seam {
                    slot: pair.a_slot,
                    owner: pair.a_polygon,
                    polygon: base_u | pair.b_polygon,
                    twin: base_u | pair.b_slot,
                });
                island_links[i].push([island_t, u, island_u]);
                match j {
                    Some(j) => {
                        seams[j].push(Seam {
                            slot: pair.b_slot,
                            owner: pair.b_polygon,
                            polygon: base_t | pair.a_polygon,
                            twin: base_t | pair.a_slot,
                        });
                        island_links[j].push([island_u, t, island_t]);
                    }
                    None => patches.push((u, pair.b_slot, base_t | pair.a_slot)),
                }
            }
        }

        let mut chunks: Vec<TileChunks> = touched
            .iter()
            .zip(&splits)
            .zip(&seams)
            .map(|((&t, split), seams)| compose(self.layer(t, merged), split, self.base(t), seams))
            .collect();
        let across: Vec<Vec<usize>> = touched
            .iter()
            .enumerate()
            .map(|(i, &t)| {
                let tile = self.layer(t, merged);
                let mut found = Vec::new();
                let mut points = Vec::new();
                for &u in &self.tile(t).neighbours {
                    let (split, tables) = match member(u) {
                        Some(j) => (&splits[j], &chunks[j]),
                        None => {
                            let stitched = self.layer(u, merged).stitched();
                            (&stitched.split, &stitched.chunks)
                        }
                    };
                    points.clear();
                    let bounds = tile.border.bounds();
                    wall_ends(
                        self.layer(u, merged),
                        split,
                        tables,
                        bounds,
                        rules.tolerance,
                        &mut points,
                    );
                    walls_across(
                        tile,
                        &splits[i],
                        &chunks[i],
                        &mut points,
                        &rules,
                        &mut found,
                    );
                }
                found.sort_unstable();
                found.dedup();
                found
            })
            .collect();
        for (chunks, across) in chunks.iter_mut().zip(across) {
            if !across.is_empty() {
                let mut walls = chunks.wall_vertex.to_vec();
                for v in across {
                    walls[v] = true;
                }
                chunks.wall_vertex = walls.into();
            }
        }
        patches.sort_unstable();
        let mut patched: Vec<(u32, Arc<[u32]>)> = Vec::new();
        for run in patches.chunk_by(|a, b| a.0 == b.0) {
            let slot = run[0].0;
            let old = &self.layer(slot, merged).stitched().chunks;
            let mut twin = old.twin.to_vec();
            for &(_, local, new) in run {
                debug_assert_ne!(old.neighbours[local as usize], NO_NEIGHBOUR);
                twin[local as usize] = new;
            }
            patched.push((slot, twin.into()));
        }

        Ok((splits, chunks, island_links, patched))
    }

    /// Puts what [`State::plan`] made into the tiles' layer.
    fn apply(&mut self, touched: &[u32], plan: Plan, merged: bool) {
        let (splits, chunks, island_links, patched) = plan;
        for (((&t, split), chunks), mut links) in
            touched.iter().zip(splits).zip(chunks).zip(island_links)
        {
            links.sort_unstable();
            links.dedup();
            self.layer_mut(t, merged).stitched = Some(Stitched {
                split,
                chunks,
                island_links: links,
            });
        }
        for (slot, twin) in patched {
            let stitched = self
                .layer_mut(slot, merged)
                .stitched
                .as_mut()
                .expect("stitched");
            stitched.chunks.twin = twin;
        }
    }

    /// Stitches every tile again from scratch (tests compare it with what the changes
    /// made step by step).
    #[cfg(test)]
    pub fn restitch_all(&mut self) -> Result<(), MeshError> {
        self.restitch(&self.present())
    }

    /// [`MeshError::TileTooLarge`] unless the split tile's elements fit in a slot.
    fn check_size(&self, slot: u32, tile: &Tile, split: &SplitTile) -> Result<(), MeshError> {
        let max = (1u64 << self.local_bits) - 1;
        let data = tile.mesh.data();
        let counts = [
            ("polygons", u64::from(data.polygon_count())),
            (
                "vertices",
                data.vertices.as_single().len() as u64 + split.added.len() as u64,
            ),
            ("polygon corners", split.corners.len() as u64),
        ];
        for (what, count) in counts {
            if count > max {
                return Err(MeshError::TileTooLarge {
                    slot,
                    what,
                    count,
                    max,
                });
            }
        }
        Ok(())
    }

    /// The snapshot of the world: every tile's chunks and a table per slot (up to the
    /// last slot that holds a tile), islands joined across seams, and its merged copy
    /// for the exact mode composed from the tiles' merged layers (none when no tile's
    /// polygons merge: the exact mode then searches the tiles themselves).
    pub fn snapshot(&self) -> MeshData {
        let mut data = self.snapshot_layer(false);
        let coarse = self.merged_layer.then(|| {
            let slots = &self.slots[..data.tiles.len().min(self.slots.len())];
            let of_original = gather(slots, data.tiles.len(), self.local_bits, |t| {
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
        let chunks = |pick: fn(&TileChunks) -> Arc<[u32]>| {
            gather(slots, count, shift, |t| pick(chunks_of(t, merged)))
        };
        fn data(t: &Tile, merged: bool) -> &MeshData {
            layer_of(t, merged).mesh.data()
        }
        fn chunks_of(t: &Tile, merged: bool) -> &TileChunks {
            &layer_of(t, merged).stitched().chunks
        }
        let tables = ElementTables {
            vertices: gather(slots, count, shift, |t| {
                chunks_of(t, merged).vertices.clone()
            }),
            ground: gather(slots, count, shift, |t| chunks_of(t, merged).ground.clone()),
            poly_start: chunks(|c| c.poly_start.clone()),
            corners: chunks(|c| c.corners.clone()),
            neighbours: chunks(|c| c.neighbours.clone()),
            local_island: gather(slots, count, shift, |t| {
                data(t, merged).local_island.chunk(0).clone()
            }),
            portals: gather(slots, count, shift, |t| {
                chunks_of(t, merged).portals.clone()
            }),
            twin: chunks(|c| c.twin.clone()),
            wall_vertex: gather(slots, count, shift, |t| {
                chunks_of(t, merged).wall_vertex.clone()
            }),
            dead_end: gather(slots, count, shift, |t| {
                chunks_of(t, merged).dead_end.clone()
            }),
            areas: gather(slots, count, shift, |t| {
                data(t, merged).areas.chunk(0).clone()
            }),
            flags: gather(slots, count, shift, |t| layer_of(t, merged).flags.clone()),
        };
        let links = Links {
            hop_start: gather(slots, count, shift, |t| {
                layer_of(t, merged).links.hop_start.clone()
            }),
            hops: gather(slots, count, shift, |t| {
                layer_of(t, merged).links.hops.clone()
            }),
            cost: gather(slots, count, shift, |t| {
                layer_of(t, merged).links.cost.clone()
            }),
            area: gather(slots, count, shift, |t| {
                layer_of(t, merged).links.area.clone()
            }),
            flags: gather(slots, count, shift, |t| {
                layer_of(t, merged).links.flags.clone()
            }),
        };
        let (island_maps, island_count) = island_maps(slots, merged);
        let mut maps = island_maps.into_iter();
        let tiles = (0..count)
            .map(|s| {
                let generation = self.generations.get(s).copied().unwrap_or(0);
                let map = maps.next().unwrap_or_default();
                match slots.get(s).and_then(Option::as_ref) {
                    Some(tile) => {
                        let tile = layer_of(tile, merged);
                        let own = &tile.mesh.data().tiles[0];
                        let chunks = &tile.stitched().chunks;
                        TileInfo {
                            bounds: own.bounds,
                            index: own.index.clone(),
                            polygon_count: own.polygon_count,
                            vertex_count: chunks.vertices.len() as u32,
                            slot_count: chunks.corners.len() as u32,
                            generation,
                            island_map: map,
                        }
                    }
                    None => TileInfo {
                        bounds: Aabb::EMPTY,
                        index: self.empty_index.clone(),
                        polygon_count: 0,
                        vertex_count: 0,
                        slot_count: 0,
                        generation,
                        island_map: Vec::new(),
                    },
                }
            })
            .collect();
        MeshData::from_tiles(
            self.rules.up,
            shift,
            tables,
            tiles,
            island_count,
            links,
            self.flags_generation.clone(),
        )
    }
}

/// `tile` itself, or its merged layer.
fn layer_of(tile: &Tile, merged: bool) -> &Tile {
    if merged { &tile.merged().tile } else { tile }
}

/// A table of `count` chunks: `pick` of each slot's tile, an empty chunk for an empty
/// slot.
fn gather<T>(
    slots: &[Option<Tile>],
    count: usize,
    shift: u32,
    pick: impl Fn(&Tile) -> Arc<[T]>,
) -> Tiled<T> {
    let chunks = (0..count)
        .map(|s| match slots.get(s).and_then(Option::as_ref) {
            Some(tile) => pick(tile),
            None => Arc::from(Vec::new()),
        })
        .collect();
    Tiled::from_chunks(chunks, shift)
}

/// The chunks of `tile` (in the slot whose first id is `base`) after `split`, with its
/// `seams` (local slots after splitting) joined.
fn compose(tile: &Tile, split: &SplitTile, base: u32, seams: &[Seam]) -> TileChunks {
    let data = tile.mesh.data();
    let up = data.up;
    let own_vertices = data.vertices.chunk(0);
    let own_ground = data.ground.chunk(0);
    let (vertices, ground) = if split.added.is_empty() {
        (own_vertices.clone(), own_ground.clone())
    } else {
        (
            own_vertices.iter().chain(&split.added).copied().collect(),
            own_ground
                .iter()
                .copied()
                .chain(split.added.iter().map(|&v| up.ground(v)))
                .collect(),
        )
    };
    let own_neighbours = data.neighbours.as_single();
    let own_twin = data.twin.as_single();
    let slot_count = split.corners.len();
    let mut neighbours = Vec::with_capacity(slot_count);
    let mut twin = Vec::with_capacity(slot_count);
    for (slot, &origin) in split.origin.iter().enumerate() {
        let o = origin as usize;
        // Only walls are split: an edge with a neighbour in the tile is one piece.
        if own_neighbours[o] != NO_NEIGHBOUR && split.first_slot[o] as usize == slot {
            neighbours.push(base | own_neighbours[o]);
            twin.push(base | split.first_slot[own_twin[o] as usize]);
        } else {
            neighbours.push(NO_NEIGHBOUR);
            twin.push(NO_TWIN);
        }
    }
    for seam in seams {
        neighbours[seam.slot as usize] = seam.polygon;
        twin[seam.slot as usize] = seam.twin;
    }
    // The ends of the walls left after stitching (those across seams come later).
    let mut wall_vertex = vec![false; vertices.len()];
    for w in split.poly_start.windows(2) {
        for slot in w[0] as usize..w[1] as usize {
            if neighbours[slot] == NO_NEIGHBOUR {
                let next = if slot + 1 == w[1] as usize {
                    w[0] as usize
                } else {
                    slot + 1
                };
                wall_vertex[split.corners[slot] as usize] = true;
                wall_vertex[split.corners[next] as usize] = true;
            }
        }
    }
    let corners: Vec<u32> = split.corners.iter().map(|&v| base | v).collect();
    // A polygon neither split nor on a seam keeps the portals and dead-end flag of the
    // tile's own mesh.
    let own_starts = data.poly_start.as_single();
    let own_portals = data.portals.as_single();
    let own_dead_end = data.dead_end.as_single();
    let polygon_count = split.poly_start.len() - 1;
    let mut changed: Vec<bool> = (0..polygon_count)
        .map(|p| split.poly_start[p + 1] - split.poly_start[p] != own_starts[p + 1] - own_starts[p])
        .collect();
    for seam in seams {
        changed[seam.owner as usize] = true;
    }
    let mut portals = Vec::with_capacity(slot_count);
    let mut dead_end = Vec::with_capacity(polygon_count);
    for (p, &changed) in changed.iter().enumerate() {
        if !changed {
            let own = own_starts[p] as usize..own_starts[p + 1] as usize;
            portals.extend(own_portals[own].iter().map(|&[a, b]| [base | a, base | b]));
            dead_end.push(own_dead_end[p]);
            continue;
        }
        let range = split.poly_start[p] as usize..split.poly_start[p + 1] as usize;
        let (corners, neighbours) = (&corners[range.clone()], &neighbours[range]);
        portals.extend((0..corners.len()).map(|i| portal_of_slot(corners, neighbours, i)));
        let mut across = neighbours.iter().filter(|&&n| n != NO_NEIGHBOUR);
        let first = across.next();
        dead_end.push(across.all(|n| Some(n) == first));
    }
    TileChunks {
        vertices,
        ground,
        poly_start: split.poly_start.iter().map(|&s| base | s).collect(),
        corners: corners.into(),
        neighbours: neighbours.into(),
        portals: portals.into(),
        twin: twin.into(),
        wall_vertex: wall_vertex.into(),
        dead_end: dead_end.into(),
    }
}

/// Appends to `points` the points (in the ground plane, and their heights) where the
/// walls of `tile` (stitched as `split` into `chunks`) end, within `margin` of `bounds`.
/// Only pieces of the tile's own walls can be walls after stitching.
fn wall_ends(
    tile: &Tile,
    split: &SplitTile,
    chunks: &TileChunks,
    bounds: [Vec2; 2],
    margin: f32,
    points: &mut Vec<(Vec2, f32)>,
) {
    let up = tile.mesh.data().up;
    let (lo, hi) = (
        bounds[0] - Vec2::splat(margin),
        bounds[1] + Vec2::splat(margin),
    );
    let near = |&(p, _): &(Vec2, f32)| p.cmpge(lo).all() && p.cmple(hi).all();
    let corner = |slot: u32| {
        let v = split.corners[slot as usize] as usize;
        (chunks.ground[v], up.height(chunks.vertices[v]))
    };
    for (original, polygon) in tile.border.walls_near(bounds, margin) {
        let end = split.poly_start[polygon as usize + 1];
        let mut slot = split.first_slot[original as usize];
        while slot < end && split.origin[slot as usize] == original {
            if chunks.neighbours[slot as usize] == NO_NEIGHBOUR {
                let next = if slot + 1 == end {
                    split.poly_start[polygon as usize]
                } else {
                    slot + 1
                };
                points.extend([corner(slot), corner(next)].into_iter().filter(near));
            }
            slot += 1;
        }
    }
}

/// Appends to `found` the local ids of the vertices of `tile` (stitched as `split` into
/// `chunks`) that are not wall vertices of their own tile but lie at one of `points` (the
/// wall ends of one neighbour, with their heights): within twice the seam tolerance in
/// the ground plane (the two ends of a seam may each be off by the tolerance) and within
/// the climb in height. Sorts `points`.
fn walls_across(
    tile: &Tile,
    split: &SplitTile,
    chunks: &TileChunks,
    points: &mut [(Vec2, f32)],
    rules: &SeamRules,
    found: &mut Vec<usize>,
) {
    if points.is_empty() {
        return;
    }
    points.sort_by(|a, b| a.0.x.total_cmp(&b.0.x));
    let reach = 2.0 * rules.tolerance;
    let bounds = points
        .iter()
        .fold([Vec2::INFINITY, Vec2::NEG_INFINITY], |[lo, hi], &(p, _)| {
            [lo.min(p), hi.max(p)]
        });
    let at_a_point = |v: usize| {
        let (p, h) = (chunks.ground[v], rules.up.height(chunks.vertices[v]));
        let first = points.partition_point(|q| q.0.x < p.x - reach);
        points[first..]
            .iter()
            .take_while(|q| q.0.x <= p.x + reach)
            .any(|q| q.0.distance(p) <= reach && (q.1 - h).abs() <= rules.climb)
    };
    // Only the vertices of the tile's own walls can lie on a neighbour's.
    for (original, polygon) in tile.border.walls_near(bounds, reach) {
        let end = split.poly_start[polygon as usize + 1];
        let mut slot = split.first_slot[original as usize];
        while slot < end && split.origin[slot as usize] == original {
            let v = split.corners[slot as usize] as usize;
            if !chunks.wall_vertex[v] && at_a_point(v) {
                found.push(v);
            }
            slot += 1;
        }
        // The last piece's far end: the first corner of the next original slot.
        let next = if slot == end {
            split.poly_start[polygon as usize]
        } else {
            slot
        };
        let v = split.corners[next as usize] as usize;
        if !chunks.wall_vertex[v] && at_a_point(v) {
            found.push(v);
        }
    }
}

/// Per slot (up to the last tile), the island of the whole world of each of the tile's
/// own islands, and the number of islands: union-find over every tile's islands, joined
/// where seams and links between tiles join them.
fn island_maps(slots: &[Option<Tile>], merged: bool) -> (Vec<Vec<u32>>, u32) {
    let island_count =
        |tile: &Tile| layer_of(tile, merged).mesh.data().tiles[0].island_map.len() as u32;
    let mut offsets = Vec::with_capacity(slots.len());
    let mut total = 0u32;
    for tile in slots {
        offsets.push(total);
        total += tile.as_ref().map_or(0, island_count);
    }
    let mut parent: Vec<u32> = (0..total).collect();
    fn root(parent: &mut [u32], mut i: u32) -> u32 {
        while parent[i as usize] != i {
            let up = parent[parent[i as usize] as usize];
            parent[i as usize] = up;
            i = up;
        }
        i
    }
    for (slot, tile) in slots.iter().enumerate() {
        let Some(tile) = tile else { continue };
        let layer = layer_of(tile, merged);
        let local_island = |slot: u32, polygon: u32| {
            slots[slot as usize]
                .as_ref()
                .map_or(0, |t| layer_of(t, merged).island(polygon))
        };
        let joins = layer
            .links
            .island_joins(local_island, |polygon| layer.island(polygon));
        let seams = layer.stitched().island_links.iter().copied();
        for [own, other, theirs] in seams.chain(joins) {
            let a = root(&mut parent, offsets[slot] + own);
            let b = root(&mut parent, offsets[other as usize] + theirs);
            if a != b {
                parent[a.max(b) as usize] = a.min(b);
            }
        }
    }
    let mut renumber = vec![u32::MAX; total as usize];
    let mut next = 0u32;
    let maps = slots
        .iter()
        .enumerate()
        .map(|(slot, tile)| {
            let Some(tile) = tile else { return Vec::new() };
            (0..island_count(tile))
                .map(|i| {
                    let r = root(&mut parent, offsets[slot] + i) as usize;
                    if renumber[r] == u32::MAX {
                        renumber[r] = next;
                        next += 1;
                    }
                    renumber[r]
                })
                .collect()
        })
        .collect();
    (maps, next)
}
