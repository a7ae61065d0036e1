//! A world's landmark tables: built on a snapshot by [`World::prepare_landmarks`] (with
//! the search layer's builder: `search/world_tables.rs`), given
//! to every later snapshot while the world only loses ground (tiles removed, obstacles
//! added), dropped by any change that may add ground (see `mesh/landmarks/carry.rs` for
//! why that keeps every bound a lower bound).

use std::sync::Arc;

use super::World;
use crate::mesh::{Landmarks, MeshData};

/// Whether a change may add walkable ground (and so open a shortcut that a landmark
/// table built before it does not know).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Change {
    /// Tiles removed or carved: only ground taken away. The tables are kept.
    Shrinks,
    /// Tiles added or replaced, obstacles moved or removed. The tables are dropped.
    MayGrow,
}

/// The tables of one layer (the fine polygons, or the merged copy) as built, with the
/// portal chunks of the snapshot they were built on: a later snapshot's tile keeps its
/// part of the table while its portal chunk is the very same one.
pub(super) struct LayerTable {
    table: Landmarks,
    portals: Vec<Arc<[[u32; 2]]>>,
}

impl LayerTable {
    /// The table of `mesh`, a world's snapshot layer, built now by `build`; `None` when
    /// it gets none (off-mesh links, no portals, out of memory).
    fn build(mesh: &MeshData, build: fn(&MeshData) -> Option<Landmarks>) -> Option<LayerTable> {
        let table = build(mesh)?;
        let portals = (0..mesh.portals.chunk_count())
            .map(|t| Arc::clone(mesh.portals.chunk(t)))
            .collect();
        Some(LayerTable { table, portals })
    }

    /// Gives `mesh` (a later snapshot of the layer, nothing added since) its part of the
    /// table.
    fn attach(&self, mesh: &MeshData) {
        let kept = |t: usize| {
            t < mesh.portals.chunk_count()
                && self
                    .portals
                    .get(t)
                    .is_some_and(|built| Arc::ptr_eq(built, mesh.portals.chunk(t)))
        };
        // Out of memory leaves the snapshot without a table: slower, never wrong.
        if let Some(table) = self.table.carried(mesh, kept) {
            let _ = mesh.landmarks.set(Some(Box::new(table)));
        }
    }

    fn bytes(&self) -> usize {
        self.table.bytes()
    }
}

/// What a world keeps of its landmark tables (locked only with the writers' lock held).
#[derive(Default)]
pub(super) struct LandmarkState {
    /// The tables as built, while no change since may have added ground.
    built: Option<WorldLandmarks>,
    /// The number of changes so far that may have added ground: a build that saw
    /// another number when it began is thrown away.
    growths: u64,
}

/// The landmark tables of a world: of its fine layer and of its merged copy.
pub(super) struct WorldLandmarks {
    fine: Option<LayerTable>,
    merged: Option<LayerTable>,
}

impl WorldLandmarks {
    /// The tables of snapshot `data` (and of its merged copy), built now by `build`.
    fn build(data: &MeshData, build: fn(&MeshData) -> Option<Landmarks>) -> WorldLandmarks {
        WorldLandmarks {
            fine: LayerTable::build(data, build),
            merged: data
                .coarse()
                .and_then(|c| LayerTable::build(&c.mesh, build)),
        }
    }

    /// Whether either layer got a table.
    fn any(&self) -> bool {
        self.fine.is_some() || self.merged.is_some()
    }

    /// Gives snapshot `data` (nothing added since the build) its tables.
    pub(super) fn attach(&self, data: &MeshData) {
        if let Some(fine) = &self.fine {
            fine.attach(data);
        }
        if let (Some(merged), Some(coarse)) = (&self.merged, data.coarse()) {
            merged.attach(&coarse.mesh);
        }
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
        let (growths, data) = {
            let _state = self.lock();
            (self.landmark_tables().growths, self.current.load())
        };
        let tables = WorldLandmarks::build(&data, build);
        let mut state = self.lock();
        let mut kept = self.landmark_tables();
        if kept.growths != growths {
            // Ground may have been added meanwhile: a bound could be too large there.
            return false;
        }
        if !tables.any() {
            kept.built = None;
            return false;
        }
        // Removals and carving since the build are what the tables survive anyway.
        let fresh = state.snapshot();
        tables.attach(&fresh);
        kept.built = Some(tables);
        drop(kept);
        self.current.store(Arc::new(fresh));
        true
    }

    /// The bytes of the landmark tables [`World::prepare_landmarks`] built (0 when the
    /// world has none now: never built, or dropped by a change that may add ground).
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

    /// Gives the snapshot made after a change of kind `change` the world's tables, or
    /// drops them (called with the writers' lock held).
    pub(super) fn carry_landmarks(&self, data: &MeshData, change: Change) {
        let mut kept = self.landmark_tables();
        match change {
            Change::MayGrow => {
                kept.built = None;
                kept.growths += 1;
            }
            Change::Shrinks => {
                if let Some(tables) = kept.built.as_ref() {
                    tables.attach(data);
                }
            }
        }
    }
}
