//! A world's landmark tables: built on a snapshot by [`World::prepare_landmarks`], given
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
    /// The table of `mesh`, a world's snapshot layer, built now; `None` when it gets
    /// none (off-mesh links, no portals, out of memory).
    fn build(mesh: &MeshData) -> Option<LayerTable> {
        let table = crate::search::landmarks::build(mesh)?;
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

/// The landmark tables of a world: of its fine layer and of its merged copy.
pub(super) struct WorldLandmarks {
    fine: Option<LayerTable>,
    merged: Option<LayerTable>,
}

impl WorldLandmarks {
    /// The tables of snapshot `data` (and of its merged copy), built now.
    pub(super) fn build(data: &MeshData) -> WorldLandmarks {
        WorldLandmarks {
            fine: LayerTable::build(data),
            merged: data.coarse().and_then(|c| LayerTable::build(&c.mesh)),
        }
    }

    /// Whether either layer got a table.
    pub(super) fn any(&self) -> bool {
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
    /// Builds landmark tables for the world as it is now and publishes a snapshot that
    /// has them; tells whether it got any. Path searches on a world's snapshots use a
    /// table only when the world made one here: a world never builds one on the query
    /// path, since a build floods the whole world (about 0.1-0.5 s per few thousand
    /// polygons) and a tile added later makes it invalid.
    ///
    /// Every later snapshot keeps the tables while the world only loses walkable ground:
    /// [`World::remove_tile`] and [`World::add_obstacle`] keep them (the tiles they
    /// change, and the neighbours stitched again, get no bound from the table; the rest
    /// keep theirs). A change that may add ground drops them, since a shortcut it opens
    /// would make a bound too large: [`World::add_tile`], [`World::replace_tile`],
    /// [`World::add_tiles`], [`World::move_obstacle`], [`World::remove_obstacle`].
    /// Call this again after such changes (after a batch of streamed tiles, say). It
    /// holds the writers' lock while it builds (other changes wait; queries never do).
    /// The tables never make an estimate exceed the true remaining length, so exact
    /// paths are the same with and without them. A world with off-mesh links gets none.
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshOptions, NavMesh, PathMode, PathOptions, Query, World, WorldOptions};
    ///
    /// let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// // Two tiles of two unit squares each, side by side along x (y up).
    /// let strip = |x: f32| {
    ///     let vertices = [v(x, 0.0), v(x + 1.0, 0.0), v(x + 2.0, 0.0), v(x + 2.0, 1.0), v(x + 1.0, 1.0), v(x, 1.0)];
    ///     NavMesh::from_polygons(&vertices, &[0, 5, 4, 1, 1, 4, 3, 2], &[4, 4], &MeshOptions::default())
    /// };
    /// let world = World::new(&WorldOptions::default())?;
    /// world.add_tile(&strip(0.0)?)?;
    /// let right = world.add_tile(&strip(2.0)?)?;
    /// assert_eq!(world.snapshot().landmark_bytes(), 0);
    /// assert!(world.prepare_landmarks());
    /// assert!(world.snapshot().landmark_bytes() > 0);
    /// let options = PathOptions::default().with_mode(PathMode::Optimal);
    /// let mut query = Query::new(&world.snapshot());
    /// query.set_landmarks(true);
    /// let path = query.find_path_vec(v(0.5, 0.5), v(3.5, 0.5), &options)?;
    /// assert!((path.length() - 3.0).abs() < 1e-5);
    /// // A removal keeps the tables; an addition drops them.
    /// world.remove_tile(right)?;
    /// assert!(world.snapshot().landmark_bytes() > 0);
    /// world.add_tile(&strip(2.0)?)?;
    /// assert_eq!(world.snapshot().landmark_bytes(), 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn prepare_landmarks(&self) -> bool {
        let mut state = self.lock();
        let data = state.snapshot();
        let tables = WorldLandmarks::build(&data);
        let any = tables.any();
        tables.attach(&data);
        *self.landmark_tables() = any.then_some(tables);
        self.current.store(Arc::new(data));
        any
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
            .as_ref()
            .map_or(0, WorldLandmarks::bytes)
    }

    /// Gives the snapshot made after a change of kind `change` the world's tables, or
    /// drops them (called with the writers' lock held).
    pub(super) fn carry_landmarks(&self, data: &MeshData, change: Change) {
        let mut tables = self.landmark_tables();
        match change {
            Change::MayGrow => *tables = None,
            Change::Shrinks => {
                if let Some(tables) = tables.as_ref() {
                    tables.attach(data);
                }
            }
        }
    }
}
