//! A world's landmark tables: built on a snapshot by [`World::prepare_landmarks`] (with
//! the search layer's builder: `search/world_tables.rs`) and given to every later
//! snapshot while the world's ground lies within the ground they were measured on
//! (`landmark_ground.rs`): through removals and carving, and through additions that
//! bring back ground the tables know (a tile streamed out and back in, replaced by an
//! equal mesh, an obstacle added after the build moved or removed). A tile whose
//! stitched tables are again those of the build gets its rows back; the other changed
//! tiles get the row that bounds nothing. Ground the tables do not know (a tile never
//! measured) keeps them too, each bound capped by the goal's distance to the boxes of
//! the tiles that hold it, while at most [`MAX_NEW_GROUND_TILES`] tiles do; beyond
//! that they are dropped (see `mesh/landmarks/carry.rs` for why every bound stays a
//! lower bound).

use std::sync::Arc;

use glam::{DVec2, Vec2};

use super::World;
pub(super) use super::landmark_ground::Change;
use super::landmark_ground::Reference;
use super::state::State;
use crate::mesh::landmarks::UnknownChunks;
use crate::mesh::{Landmarks, MeshData};

/// The most tiles of ground a world's landmark tables were not measured on that they
/// are kept through (each caps the bounds towards goals near it, and every goal's
/// bounds look at each once); a change that leaves more drops them.
pub(crate) const MAX_NEW_GROUND_TILES: usize = 64;

/// Through new ground, the tables are kept only while at most this share of the fine
/// layer's corner slots lie in tiles without rows (new ground, and the tiles stitched
/// again around it): with more, the capped bounds cost more than they save (den520d in
/// 16 tiles, 2 of them new: 6-9 % more instructions per query than without tables,
/// BENCHMARKS.md "Session 22: a world's landmark tables through new ground").
const MAX_UNKNOWN_SHARE: f64 = 0.1;

/// The chunks of one tile slot of a layer that say which slots, corners, positions and
/// portals it has (what a row of the table was measured for).
#[derive(Clone)]
struct SlotChunks {
    poly_start: Arc<[u32]>,
    corners: Arc<[u32]>,
    neighbours: Arc<[u32]>,
    portals: Arc<[[u32; 2]]>,
    ground: Arc<[Vec2]>,
}

impl SlotChunks {
    /// Those of tile slot `t` of `mesh`.
    fn of(mesh: &MeshData, t: usize) -> SlotChunks {
        SlotChunks {
            poly_start: Arc::clone(mesh.poly_start.chunk(t)),
            corners: Arc::clone(mesh.corners.chunk(t)),
            neighbours: Arc::clone(mesh.neighbours.chunk(t)),
            portals: Arc::clone(mesh.portals.chunk(t)),
            ground: Arc::clone(mesh.ground.chunk(t)),
        }
    }

    /// Whether both are the very same chunks.
    fn same(&self, other: &SlotChunks) -> bool {
        Arc::ptr_eq(&self.poly_start, &other.poly_start)
            && Arc::ptr_eq(&self.corners, &other.corners)
            && Arc::ptr_eq(&self.neighbours, &other.neighbours)
            && Arc::ptr_eq(&self.portals, &other.portals)
            && Arc::ptr_eq(&self.ground, &other.ground)
    }

    /// Whether both hold the same slots, corners, positions, neighbours and portals.
    fn equal(&self, other: &SlotChunks) -> bool {
        self.poly_start == other.poly_start
            && self.corners == other.corners
            && self.neighbours == other.neighbours
            && self.portals == other.portals
            && self.ground == other.ground
    }
}

/// The table of one layer (the fine polygons, or the merged copy) as built, with the
/// chunks of each tile slot it was built on: a later snapshot's tile keeps its part of
/// the table while its chunks are those (the very same, or equal ones: a tile stitched
/// again as it was).
pub(super) struct LayerTable {
    table: Landmarks,
    /// Per tile slot of the snapshot the table was built on: its chunks (replaced by
    /// equal ones found later, so that the next change finds them by address).
    built: Vec<SlotChunks>,
    /// Per tile slot: the address of the last portal chunk found unlike the built one
    /// (not compared again; a chunk at a reused address is only taken as unlike).
    unlike: Vec<usize>,
    /// The chunks of unknown rows made so far, reused by later snapshots.
    unknown: UnknownChunks,
}

impl LayerTable {
    /// The table of `mesh`, a world's snapshot layer, built now by `build`; `None` when
    /// it gets none (off-mesh links, no portals, out of memory).
    fn build(mesh: &MeshData, build: fn(&MeshData) -> Option<Landmarks>) -> Option<LayerTable> {
        let table = build(mesh)?;
        let slots = mesh.portals.chunk_count();
        Some(LayerTable {
            table,
            built: (0..slots).map(|t| SlotChunks::of(mesh, t)).collect(),
            unlike: vec![0; slots],
            unknown: UnknownChunks::default(),
        })
    }

    /// Whether tile slot `t` of `mesh` has the slots and portals the table was built
    /// for.
    fn kept(&mut self, mesh: &MeshData, t: usize) -> bool {
        let Some(built) = self.built.get_mut(t) else {
            return false;
        };
        let now = SlotChunks::of(mesh, t);
        if built.same(&now) {
            return true;
        }
        let address = Arc::as_ptr(&now.portals).cast::<u8>() as usize;
        if self.unlike[t] == address {
            return false;
        }
        if built.equal(&now) {
            *built = now;
            return true;
        }
        self.unlike[t] = address;
        false
    }

    /// Gives `mesh` (a later snapshot of the layer, its ground within the ground the
    /// table was built on but for the boxes of `new_ground`) its part of the table;
    /// none while it has off-mesh links (given with a tile added back, or in an equal
    /// mesh's own links): they could be shorter than the ground the table measured.
    fn attach(&mut self, mesh: &MeshData, new_ground: &Arc<[[DVec2; 2]]>) {
        if mesh.links.hop_count() > 0 {
            return;
        }
        let kept: Vec<bool> = (0..mesh.portals.chunk_count())
            .map(|t| self.kept(mesh, t))
            .collect();
        // Out of memory leaves the snapshot without a table: slower, never wrong.
        if let Some(table) = self.table.carried(
            mesh,
            |t| kept.get(t).copied().unwrap_or(false),
            &mut self.unknown,
            Arc::clone(new_ground),
        ) {
            let _ = mesh.landmarks.set(Some(Box::new(table)));
        }
    }

    fn bytes(&self) -> usize {
        self.table.bytes()
    }

    /// Whether at most `share` of the corner slots of `mesh` (a later snapshot of the
    /// layer) lie in tiles that lost their rows.
    fn mostly_kept(&mut self, mesh: &MeshData, share: f64) -> bool {
        let unknown: usize = (0..mesh.corners.chunk_count())
            .filter(|&t| !self.kept(mesh, t))
            .map(|t| mesh.corners.chunk(t).len())
            .sum();
        unknown as f64 <= share * mesh.corners.total_len() as f64
    }
}

/// What a world keeps of its landmark tables (locked only with the writers' lock held).
pub(super) struct LandmarkState {
    /// The tables as built, while the world's ground lies within the ground they were
    /// built on, or not much else (see [`MAX_UNKNOWN_SHARE`]).
    built: Option<WorldLandmarks>,
    /// The share of slots without rows up to which new ground keeps the tables
    /// ([`MAX_UNKNOWN_SHARE`]; tests raise it to keep them whatever the share).
    unknown_share: f64,
}

impl Default for LandmarkState {
    fn default() -> Self {
        LandmarkState {
            built: None,
            unknown_share: MAX_UNKNOWN_SHARE,
        }
    }
}

/// The landmark tables of a world: of its fine layer and of its merged copy, and the
/// ground they were measured on. They hold the build's tile meshes and stitched chunks,
/// so the memory of tiles removed or changed since stays taken until the tables are
/// dropped or built again.
pub(super) struct WorldLandmarks {
    fine: Option<LayerTable>,
    merged: Option<LayerTable>,
    reference: Reference,
}

impl WorldLandmarks {
    /// The tables of snapshot `data` (and of its merged copy) of the world of
    /// `reference`, built now by `build`.
    fn build(
        data: &MeshData,
        build: fn(&MeshData) -> Option<Landmarks>,
        reference: Reference,
    ) -> WorldLandmarks {
        WorldLandmarks {
            fine: LayerTable::build(data, build),
            merged: data
                .coarse()
                .and_then(|c| LayerTable::build(&c.mesh, build)),
            reference,
        }
    }

    /// Whether either layer got a table.
    fn any(&self) -> bool {
        self.fine.is_some() || self.merged.is_some()
    }

    /// Gives snapshot `data` of `state` its tables, after [`Reference::update`] told
    /// whether its ground lies `within` the ground of the build; false (nothing given)
    /// when more than [`MAX_NEW_GROUND_TILES`] tiles hold ground the build did not know,
    /// or, with such ground, more than `share` of the fine layer's slots lie in tiles
    /// without rows.
    pub(super) fn attach(
        &mut self,
        state: &State,
        data: &MeshData,
        within: bool,
        share: f64,
    ) -> bool {
        let new_ground: Arc<[[DVec2; 2]]> = if within {
            Arc::from([])
        } else {
            let boxes = self.reference.new_ground(state);
            if boxes.len() > MAX_NEW_GROUND_TILES
                || self
                    .fine
                    .as_mut()
                    .is_some_and(|fine| !fine.mostly_kept(data, share))
            {
                return false;
            }
            Arc::from(boxes)
        };
        if let Some(fine) = &mut self.fine {
            fine.attach(data, &new_ground);
        }
        if let (Some(merged), Some(coarse)) = (&mut self.merged, data.coarse()) {
            merged.attach(&coarse.mesh, &new_ground);
        }
        true
    }

    /// The bytes of both tables as built.
    pub(super) fn bytes(&self) -> usize {
        self.fine.as_ref().map_or(0, LayerTable::bytes)
            + self.merged.as_ref().map_or(0, LayerTable::bytes)
    }
}

impl World {
    /// Builds the tables of the world as it is now with `build` (the searches' table
    /// builder: this layer stores tables, the search layer fills them) and publishes a
    /// snapshot that has them; tells whether it got any (see
    /// [`World::prepare_landmarks`]).
    pub(crate) fn install_landmarks(&self, build: fn(&MeshData) -> Option<Landmarks>) -> bool {
        // The build floods the whole world: it runs on the snapshot published now,
        // without the writers' lock, while other threads go on changing tiles.
        let (reference, data) = {
            let state = self.lock();
            (Reference::of(&state), self.current.load())
        };
        let mut tables = WorldLandmarks::build(&data, build, reference);
        let mut state = self.lock();
        let mut kept = self.landmark_tables();
        // Ground the build did not see may have been added meanwhile: bounds near it
        // are capped.
        let within = tables.reference.update(&state, Change::MayGrow);
        if !tables.any() {
            kept.built = None;
            return false;
        }
        let fresh = state.snapshot();
        if !tables.attach(&state, &fresh, within, kept.unknown_share) {
            return false;
        }
        kept.built = Some(tables);
        drop(kept);
        self.carry_fast_lane(&fresh);
        self.current.store(Arc::new(fresh));
        true
    }

    /// The bytes of the landmark tables [`World::prepare_landmarks`] built (0 when the
    /// world has none now: never built, or dropped while more than
    /// 64 tiles held ground they do not know).
    ///
    /// # Example
    /// ```
    /// use navstar::{World, WorldOptions};
    ///
    /// let world = World::new(&WorldOptions::default())?;
    /// // An empty world has no portals: no table.
    /// assert!(!world.prepare_landmarks());
    /// assert_eq!(world.landmark_bytes(), 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn landmark_bytes(&self) -> usize {
        let _state = self.lock();
        self.landmark_tables()
            .built
            .as_ref()
            .map_or(0, WorldLandmarks::bytes)
    }

    /// Gives the snapshot `data` of `state`, made after a change of kind `change`, the
    /// world's tables, or drops them when more than [`MAX_NEW_GROUND_TILES`] tiles hold
    /// ground they were not measured on (called with the writers' lock held).
    pub(super) fn carry_landmarks(&self, state: &State, data: &MeshData, change: Change) {
        let mut kept = self.landmark_tables();
        let Some(tables) = kept.built.as_mut() else {
            return;
        };
        let within = tables.reference.update(state, change);
        let share = kept.unknown_share;
        if !kept
            .built
            .as_mut()
            .is_some_and(|t| t.attach(state, data, within, share))
        {
            kept.built = None;
        }
    }

    /// Keeps the landmark tables through new ground whatever share of the world lost
    /// its rows (tests of the bounds near new ground on small worlds).
    #[cfg(test)]
    pub(super) fn keep_landmarks_through_any_new_ground(&self) {
        self.landmark_tables().unknown_share = 1.0;
    }
}
