//! A world's fast-lane index (the exact mode's corner index, `mesh/fast_lane.rs`): built
//! on a snapshot by [`World::prepare_fast_lane`] (with the search layer's builder:
//! `search/world_lane.rs`) and given to every later snapshot whose searched tables are
//! the very chunks it was built on (the same `Arc`s, so the same geometry: publishing
//! again without a change, as the landmark build does). Any change of geometry (a tile
//! added, removed or replaced, an obstacle that carves a tile anew, a change of the
//! merged layer) makes new chunks somewhere and drops the index: its visibility graph
//! and distances are of the whole world, and no part of them is known to stay true.
//! Run-time flags are no geometry: they keep it (a query whose filter refuses a polygon
//! searches instead).

use std::sync::Arc;

use glam::Vec2;

use super::World;
use crate::mesh::MeshData;
use crate::mesh::fast_lane::FastLane;

/// The chunks of one tile slot of a layer that the index depends on.
struct SlotChunks {
    /// `poly_start`, `corners`, `neighbours` and `twin`.
    ids: [Arc<[u32]>; 4],
    ground: Arc<[Vec2]>,
    wall_vertex: Arc<[bool]>,
}

impl SlotChunks {
    /// The id tables of tile slot `t` of `mesh`, in the order of `SlotChunks::ids`.
    fn ids_of(mesh: &MeshData, t: usize) -> [&Arc<[u32]>; 4] {
        [
            mesh.poly_start.chunk(t),
            mesh.corners.chunk(t),
            mesh.neighbours.chunk(t),
            mesh.twin.chunk(t),
        ]
    }

    /// Those of tile slot `t` of `mesh`.
    fn of(mesh: &MeshData, t: usize) -> SlotChunks {
        SlotChunks {
            ids: Self::ids_of(mesh, t).map(Arc::clone),
            ground: Arc::clone(mesh.ground.chunk(t)),
            wall_vertex: Arc::clone(mesh.wall_vertex.chunk(t)),
        }
    }

    /// Whether tile slot `t` of `mesh` has these very chunks.
    fn same_in(&self, mesh: &MeshData, t: usize) -> bool {
        self.ids
            .iter()
            .zip(Self::ids_of(mesh, t))
            .all(|(a, b)| same(a, b))
            && same(&self.ground, mesh.ground.chunk(t))
            && same(&self.wall_vertex, mesh.wall_vertex.chunk(t))
    }

    /// Whether the slot is empty (no polygon).
    fn empty(&self) -> bool {
        self.ids[1].is_empty()
    }
}

/// Whether two chunks are the very same, or both empty (an empty slot gets a new empty
/// chunk in each snapshot).
fn same<T>(a: &Arc<[T]>, b: &Arc<[T]>) -> bool {
    Arc::ptr_eq(a, b) || (a.is_empty() && b.is_empty())
}

/// The chunks of every tile slot of a layer.
struct LayerChunks(Vec<SlotChunks>);

impl LayerChunks {
    fn of(mesh: &MeshData) -> LayerChunks {
        LayerChunks(
            (0..mesh.corners.chunk_count())
                .map(|t| SlotChunks::of(mesh, t))
                .collect(),
        )
    }

    /// Whether `mesh` is made of these very chunks (slots past either's last empty).
    fn same(&self, mesh: &MeshData) -> bool {
        let n = mesh.corners.chunk_count();
        self.0.iter().skip(n).all(SlotChunks::empty)
            && (self.0.len()..n).all(|t| mesh.corners.chunk(t).is_empty())
            && self
                .0
                .iter()
                .take(n)
                .enumerate()
                .all(|(t, c)| c.same_in(mesh, t))
    }
}

/// What an index was built on: the snapshot's polygons and its merged copy (with the
/// map from the polygons to the copy's).
struct Geometry {
    fine: LayerChunks,
    merged: Option<(LayerChunks, Vec<Arc<[u32]>>)>,
}

impl Geometry {
    fn of(data: &MeshData) -> Geometry {
        Geometry {
            fine: LayerChunks::of(data),
            merged: data.coarse().map(|c| {
                let of_original = (0..c.of_original.chunk_count())
                    .map(|t| Arc::clone(c.of_original.chunk(t)))
                    .collect();
                (LayerChunks::of(&c.mesh), of_original)
            }),
        }
    }

    /// Whether snapshot `data` has the very geometry of the build.
    fn same(&self, data: &MeshData) -> bool {
        if !self.fine.same(data) {
            return false;
        }
        match (&self.merged, data.coarse()) {
            (None, None) => true,
            (Some((chunks, of_original)), Some(c)) => {
                let n = c.of_original.chunk_count();
                chunks.same(&c.mesh)
                    && of_original.iter().skip(n).all(|o| o.is_empty())
                    && (of_original.len()..n).all(|t| c.of_original.chunk(t).is_empty())
                    && of_original
                        .iter()
                        .take(n)
                        .enumerate()
                        .all(|(t, o)| same(o, c.of_original.chunk(t)))
            }
            _ => false,
        }
    }
}

/// The index a world keeps for its current geometry.
struct BuiltLane {
    lane: Arc<FastLane>,
    geometry: Geometry,
}

/// What a world keeps of its fast-lane index (locked only with the writers' lock held).
#[derive(Default)]
pub(super) struct LaneState {
    built: Option<BuiltLane>,
}

impl World {
    /// Builds the index of the world as it is now with `build` (the search layer's
    /// builder) and publishes a snapshot that has it; tells whether it got one (see
    /// [`World::prepare_fast_lane`]).
    pub(crate) fn install_fast_lane(&self, build: fn(&MeshData) -> Option<FastLane>) -> bool {
        // The build sweeps the whole world: it runs on the snapshot published now,
        // without the writers' lock, while other threads go on changing tiles.
        let data = self.current.load();
        let geometry = Geometry::of(&data);
        let lane = match data.fast_lane.get() {
            // The snapshot has one already (an earlier call, or `prepare_fast_lane` on
            // the snapshot itself): kept for the later snapshots of its geometry.
            Some(Some(lane)) => Arc::clone(lane),
            _ => match build(&data) {
                Some(lane) => Arc::new(lane),
                None => return false,
            },
        };
        let mut state = self.lock();
        let fresh = state.snapshot();
        if !geometry.same(&fresh) {
            // The geometry changed meanwhile: this index is of a world gone.
            return false;
        }
        let _ = fresh.fast_lane.set(Some(Arc::clone(&lane)));
        self.lane_state().built = Some(BuiltLane { lane, geometry });
        // The landmark tables (if any) of the same ground.
        self.carry_landmarks(&state, &fresh, super::Change::Shrinks);
        self.current.store(Arc::new(fresh));
        true
    }

    /// Gives the snapshot `data` of the world the index when it has the geometry the
    /// index was built on, or drops the index (called with the writers' lock held,
    /// before `data` is published).
    pub(super) fn carry_fast_lane(&self, data: &MeshData) {
        let mut kept = self.lane_state();
        let Some(built) = kept.built.as_ref() else {
            return;
        };
        if built.geometry.same(data) {
            let _ = data.fast_lane.set(Some(Arc::clone(&built.lane)));
        } else {
            kept.built = None;
        }
    }

    /// Whether the world keeps a fast-lane index now ([`World::prepare_fast_lane`]
    /// built one, and the geometry has not changed since).
    ///
    /// # Example
    /// ```
    /// use navstar::{World, WorldOptions};
    ///
    /// let world = World::new(&WorldOptions::default())?;
    /// assert!(!world.has_fast_lane());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn has_fast_lane(&self) -> bool {
        let _state = self.lock();
        self.lane_state().built.is_some()
    }
}
