//! A world of tiles: meshes added, removed and replaced while other threads query
//! snapshots of it. Layer 3b: uses `mesh/` (and the layers below it); used by `io/`,
//! `ffi/` and the command-line tool.
//!
//! A snapshot is a [`NavMesh`] whose per-element tables are stored in chunks, one per tile
//! slot (see the `Tiled` tables of `mesh/`): every query works on it unchanged. A tile's
//! chunks are built from its own mesh ([`chunks`]), its wall edges split and joined to
//! its neighbours' where they overlap ([`stitch`]). A change ([`compose`]) builds new
//! chunks for the tile and its neighbours only ([`restitch`]) and publishes a new
//! snapshot ([`snapshot`]) that shares every other chunk with the previous one.
//! [`links`] keeps each tile's off-mesh links and [`relink`] attaches the links between
//! tiles when both their tiles are present. [`refs`] holds the polygon references that
//! name their tile's generation.
//!
//! The files form layers, each using only those before it (see `docs/architecture.md`):
//! [`tile`] (a tile and what stitching made of it, [`stitched`]) below the operations
//! on tiles ([`chunks`], [`islands`], [`obstacle_set`]), those below [`state`] (the
//! world's tiles by slot), and that below the changes of the state ([`restitch`],
//! [`relink`], [`snapshot`], then [`compose`], [`obstacles`], [`cut_tiles`]).
//!
//! Writers take a `Mutex`; [`World::snapshot`] takes no lock (`arc-swap`): it returns the
//! last published snapshot, which stays whole (and keeps removed tiles alive) for as long
//! as someone holds it.

mod border_cache;
mod chunks;
mod compose;
mod cut_tiles;
mod fast_lane;
mod islands;
mod landmark_ground;
mod landmarks;
mod links;
mod numbering;
mod obstacle_set;
mod obstacles;
mod options;
mod refs;
mod relink;
mod restitch;
mod snapshot;
mod state;
pub(crate) mod stitch;
mod stitched;
mod tile;
mod tile_ref;

use std::sync::{Arc, PoisonError};

use crate::error::MeshError;
use crate::mesh::{MeshData, NavMesh, OffMeshLink};
use crate::sync::{Mutex, MutexGuard, SnapshotCell};
use fast_lane::LaneState;
use landmarks::{Change, LandmarkState};
pub use obstacles::ObstacleId;
pub use options::WorldOptions;
pub use refs::{PolyRef, WeakNavMesh};
use state::State;
use stitch::SeamRules;
use tile::Tile;
pub use tile_ref::TileRef;

/// A navigation mesh made of tiles that are added, removed and replaced while other
/// threads query it.
///
/// A tile is a [`NavMesh`] built as usual (every check of the builder applies), with its
/// vertices in world coordinates. Tiles keep their own vertices; where a wall edge of one
/// tile overlaps a wall edge of another (collinear in the ground plane within
/// [`WorldOptions::seam_tolerance`], opposite directions, heights within
/// [`WorldOptions::climb`]), the overlap becomes a portal between them, so T-junctions
/// and partial overlaps connect. Queries run on a [`World::snapshot`]: a `NavMesh` of all
/// the tiles present when it was taken, on which every query of the library works (both
/// path modes, filters and flags, nearest point, raycast, ...). Polygon ids of a snapshot
/// name their tile; keep a [`PolyRef`] ([`NavMesh::polygon_ref`]) to find a polygon again
/// in a later snapshot.
///
/// A change costs work proportional to the tile and its neighbours, not to the world.
/// `World` is `Send + Sync`: share it (an `Arc`) between the threads that change it and
/// those that take snapshots; changes are serialized, snapshots take no lock.
///
/// The exact mode searches a snapshot's merged copy, stitched from the tiles' own merged
/// copies, as on a mesh of one piece ([`crate::PathMode::Optimal`]; it takes no off-mesh
/// links).
///
/// Off-mesh links: a tile's own mesh may have links (both ends in the tile); a link from
/// one tile to another is given with the tile its start lies on
/// ([`World::add_tile_with_links`]) and works while the tile its end lies on is present.
///
/// # Example
/// ```
/// use navstar::{glam::Vec3, MeshOptions, NavMesh, PathOptions, PathStatus, Query, World, WorldOptions};
///
/// // Two tiles side by side (y up): a 2 x 2 square, and two unit squares stacked against
/// // its right side, so the seam has a T-junction.
/// let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
/// let left = NavMesh::from_polygons(&[v(0.0, 0.0), v(2.0, 0.0), v(2.0, 2.0), v(0.0, 2.0)], &[0, 3, 2, 1], &[4], &MeshOptions::default())?;
/// let right = NavMesh::from_polygons(
///     &[v(2.0, 0.0), v(3.0, 0.0), v(3.0, 1.0), v(2.0, 1.0), v(3.0, 2.0), v(2.0, 2.0)],
///     &[0, 3, 2, 1, /**/ 3, 5, 4, 2],
///     &[4, 4],
///     &MeshOptions::default(),
/// )?;
/// let world = World::new(&WorldOptions::default())?;
/// let a = world.add_tile(&left)?;
/// let b = world.add_tile(&right)?;
/// let snapshot = world.snapshot();
/// assert_eq!((snapshot.polygon_count(), snapshot.island_count()), (3, 1));
///
/// let mut query = Query::new(&snapshot);
/// let path = query.find_path(v(0.5, 1.5), v(2.5, 0.5), &PathOptions::default())?;
/// assert_eq!(path.status, PathStatus::Complete);
///
/// // Without the right tile, its side of the world is gone.
/// world.remove_tile(b)?;
/// assert_eq!(world.snapshot().polygon_count(), 1);
/// // The old snapshot still holds both tiles.
/// assert_eq!(snapshot.polygon_count(), 3);
/// // `b` is stale now.
/// assert!(world.remove_tile(b).is_err());
/// # let _ = a;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct World {
    options: WorldOptions,
    /// The last published snapshot.
    current: SnapshotCell<MeshData>,
    /// The tiles and their chunks, as writers see them.
    state: Mutex<State>,
    /// The landmark tables of [`World::prepare_landmarks`] (locked only with `state`
    /// held).
    landmarks: Mutex<LandmarkState>,
    /// The fast-lane index of [`World::prepare_fast_lane`] (locked only with `state`
    /// held).
    fast_lane: Mutex<LaneState>,
}

impl std::fmt::Debug for World {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("World")
            .field("options", &self.options)
            .field("snapshot", &self.snapshot())
            .finish()
    }
}

impl World {
    /// An empty world.
    ///
    /// # Errors
    /// [`MeshError::InvalidOption`] when an option is out of range (see
    /// [`WorldOptions`]).
    ///
    /// # Example
    /// ```
    /// use navstar::{World, WorldOptions};
    ///
    /// let world = World::new(&WorldOptions::default())?;
    /// assert_eq!((world.tile_count(), world.snapshot().polygon_count()), (0, 0));
    /// assert!(World::new(&WorldOptions::default().with_max_tiles(1000)).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(options: &WorldOptions) -> Result<World, MeshError> {
        let local_bits = options.check()?;
        let rules = SeamRules {
            up: options.up_axis,
            tolerance: options.seam_tolerance,
            climb: options.climb,
        };
        let mut state = State::new(rules, local_bits, options.max_tiles)?;
        let first = state.snapshot();
        Ok(World {
            options: options.clone(),
            current: SnapshotCell::new(first),
            state: Mutex::new(state),
            landmarks: Mutex::new(LandmarkState::default()),
            fast_lane: Mutex::new(LaneState::default()),
        })
    }

    /// The options the world was made with.
    #[must_use]
    pub fn options(&self) -> &WorldOptions {
        &self.options
    }

    /// The world as it is now: a mesh of every tile present, on which any number of
    /// threads may query. Takes no lock; O(1). Changes made after it was taken are not
    /// seen by it (take a new one; [`crate::Query::set_mesh`] moves a query onto it),
    /// except run-time flags, which are shared by every snapshot holding the tile.
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshOptions, NavMesh, World, WorldOptions};
    ///
    /// let square = [Vec3::ZERO, Vec3::X, Vec3::new(1.0, 0.0, 1.0), Vec3::Z];
    /// let tile = NavMesh::from_polygons(&square, &[0, 3, 2, 1], &[4], &MeshOptions::default())?;
    /// let world = World::new(&WorldOptions::default())?;
    /// let before = world.snapshot();
    /// world.add_tile(&tile)?;
    /// assert_eq!((before.polygon_count(), world.snapshot().polygon_count()), (0, 1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn snapshot(&self) -> NavMesh {
        NavMesh::from_data(self.current.load())
    }

    /// The number of tiles present.
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshOptions, NavMesh, World, WorldOptions};
    ///
    /// let square = [Vec3::ZERO, Vec3::X, Vec3::new(1.0, 0.0, 1.0), Vec3::Z];
    /// let tile = NavMesh::from_polygons(&square, &[0, 3, 2, 1], &[4], &MeshOptions::default())?;
    /// let world = World::new(&WorldOptions::default())?;
    /// world.add_tile(&tile)?;
    /// assert_eq!(world.tile_count(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn tile_count(&self) -> u32 {
        self.lock().tile_count()
    }

    /// Every tile present, with the mesh it was added as (to save a world, for
    /// instance), by slot.
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshOptions, NavMesh, World, WorldOptions};
    ///
    /// let square = [Vec3::ZERO, Vec3::X, Vec3::new(1.0, 0.0, 1.0), Vec3::Z];
    /// let tile = NavMesh::from_polygons(&square, &[0, 3, 2, 1], &[4], &MeshOptions::default())?;
    /// let world = World::new(&WorldOptions::default())?;
    /// let r = world.add_tile(&tile)?;
    /// let tiles = world.tiles();
    /// assert_eq!((tiles.len(), tiles[0].0), (1, r));
    /// assert_eq!(tiles[0].1.polygon_count(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn tiles(&self) -> Vec<(TileRef, NavMesh)> {
        self.lock().tiles()
    }

    /// The links given with a tile ([`World::add_tile_with_links`]), as given.
    ///
    /// # Errors
    /// [`MeshError::StaleTile`] when `tile` is not in the world.
    pub fn tile_links(&self, tile: TileRef) -> Result<Vec<OffMeshLink>, MeshError> {
        let state = self.lock();
        state.check(tile)?;
        Ok(state.tile(tile.slot).links.given.clone())
    }

    /// Adds a tile to the world and publishes the new snapshot. The tile goes into the
    /// lowest free slot. Its flags start as the tile's flags are now; later changes go
    /// through the snapshots (the tile's own mesh keeps its flags apart).
    ///
    /// # Errors
    /// [`MeshError::InvalidOption`] when the tile's up axis is not the world's, when it is
    /// itself a snapshot of a world;
    /// [`MeshError::WorldFull`] when every slot holds a tile;
    /// [`MeshError::TileTooLarge`] when the tile, or a neighbour split along the new
    /// seams, has more elements than a slot numbers;
    /// [`MeshError::OverlappingTiles`] when the tile lies on another one on one level so
    /// that an edge would join two tiles at once. The world is unchanged.
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshOptions, NavMesh, World, WorldOptions};
    ///
    /// // Two unit squares side by side: one island once both are in.
    /// let square = |x: f32| {
    ///     let v = [Vec3::new(x, 0.0, 0.0), Vec3::new(x + 1.0, 0.0, 0.0), Vec3::new(x + 1.0, 0.0, 1.0), Vec3::new(x, 0.0, 1.0)];
    ///     NavMesh::from_polygons(&v, &[0, 3, 2, 1], &[4], &MeshOptions::default())
    /// };
    /// let world = World::new(&WorldOptions::default())?;
    /// let a = world.add_tile(&square(0.0)?)?;
    /// let b = world.add_tile(&square(1.0)?)?;
    /// assert_eq!((a.slot(), b.slot()), (0, 1));
    /// let snapshot = world.snapshot();
    /// assert_eq!((snapshot.polygon_count(), snapshot.island_count()), (2, 1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn add_tile(&self, tile: &NavMesh) -> Result<TileRef, MeshError> {
        self.add_tile_with_links(tile, &[])
    }

    /// Adds a tile with off-mesh links that start on it and end on other tiles (a jump
    /// down to the next tile, a teleporter to another part of the world), and publishes
    /// the new snapshot. Links with both ends on the tile belong in its mesh
    /// ([`crate::MeshInput::with_links`]); [`NavMesh::cut_into_tiles`] returns the others
    /// in [`crate::TileCut::links`] ([`crate::TileCut::links_from`] picks those of a tile).
    ///
    /// Each link's start is attached to the tile as when a mesh is built. Its end is
    /// attached to the nearest point of another tile present within the link's radius:
    /// when no tile is there yet, the link waits (it is in the snapshots, with its flags,
    /// but leads nowhere) and attaches as soon as a tile comes within reach; when that
    /// tile leaves, it detaches again. Links join islands while attached. In snapshots the
    /// tile's links have the ids `slot << local_bits | i`, `i` counting the links of the
    /// tile's own mesh first, then these in order; their flags are shared by every
    /// snapshot that holds the tile, like its polygons' flags.
    ///
    /// # Errors
    /// As [`World::add_tile`], plus [`MeshError::InvalidLink`] and
    /// [`MeshError::LinkOffMesh`] (for a start off the tile; the index is that in
    /// `links`), and [`MeshError::TileTooLarge`] for more links, or more hops leaving a
    /// tile, than a slot numbers. The world is unchanged.
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshOptions, NavMesh, OffMeshLink, PathOptions, PathStatus, Query, World, WorldOptions};
    ///
    /// // Two unit squares 2 apart along x (y up), each a tile; a jump from one to the other.
    /// let square = |x: f32| {
    ///     let v = [Vec3::new(x, 0.0, 0.0), Vec3::new(x + 1.0, 0.0, 0.0), Vec3::new(x + 1.0, 0.0, 1.0), Vec3::new(x, 0.0, 1.0)];
    ///     NavMesh::from_polygons(&v, &[0, 3, 2, 1], &[4], &MeshOptions::default())
    /// };
    /// let jump = OffMeshLink::new(Vec3::new(0.9, 0.0, 0.5), Vec3::new(3.1, 0.0, 0.5));
    /// let world = World::new(&WorldOptions::default())?;
    /// world.add_tile_with_links(&square(0.0)?, &[jump])?;
    /// // The far tile is not there yet: the link is in the snapshot but leads nowhere.
    /// assert_eq!(world.snapshot().link_count(), 1);
    /// let far = world.add_tile(&square(3.0)?)?;
    /// let snapshot = world.snapshot();
    /// assert_eq!(snapshot.island_count(), 1);
    /// let mut query = Query::new(&snapshot);
    /// let path = query.find_path(Vec3::new(0.5, 0.0, 0.5), Vec3::new(3.5, 0.0, 0.5), &PathOptions::default())?;
    /// assert_eq!(path.status, PathStatus::Complete);
    /// assert!(path.details.iter().any(|corner| corner.link == Some(0)));
    /// // The far tile leaves: the goal snaps to the near tile, and the jump is not taken.
    /// world.remove_tile(far)?;
    /// let mut query = Query::new(&world.snapshot());
    /// let path = query.find_path(Vec3::new(0.5, 0.0, 0.5), Vec3::new(3.5, 0.0, 0.5), &PathOptions::default())?;
    /// assert!(path.details.iter().all(|corner| corner.link.is_none()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn add_tile_with_links(
        &self,
        tile: &NavMesh,
        links: &[OffMeshLink],
    ) -> Result<TileRef, MeshError> {
        let mut state = self.lock();
        let slot = state.free_slot()?;
        let generation = state.next_generation(slot);
        let (tile, carved) = obstacles::carved_tile(&state, tile, links, slot, generation)?;
        state.put(slot, tile)?;
        state.obstacles.set_carved(slot, carved);
        self.publish(&mut state, Change::MayGrow);
        Ok(TileRef { slot, generation })
    }

    /// Removes a tile and publishes the new snapshot; the seams of its neighbours become
    /// walls again. Snapshots taken before keep it.
    ///
    /// # Errors
    /// [`MeshError::StaleTile`] when `tile` is not in the world (removed, replaced, or
    /// never there).
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshError, MeshOptions, NavMesh, World, WorldOptions};
    ///
    /// let square = [Vec3::ZERO, Vec3::X, Vec3::new(1.0, 0.0, 1.0), Vec3::Z];
    /// let tile = NavMesh::from_polygons(&square, &[0, 3, 2, 1], &[4], &MeshOptions::default())?;
    /// let world = World::new(&WorldOptions::default())?;
    /// let r = world.add_tile(&tile)?;
    /// world.remove_tile(r)?;
    /// assert_eq!(world.tile_count(), 0);
    /// assert!(matches!(world.remove_tile(r), Err(MeshError::StaleTile { slot: 0, .. })));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn remove_tile(&self, tile: TileRef) -> Result<(), MeshError> {
        let mut state = self.lock();
        state.check(tile)?;
        state.take(tile.slot)?;
        state.obstacles.set_carved(tile.slot, None);
        self.publish(&mut state, Change::Shrinks);
        Ok(())
    }

    /// Replaces a tile by another mesh in the same slot, in one step (no snapshot lacks
    /// both), and publishes the new snapshot. Returns the new tile's reference (same slot,
    /// next generation); `tile` becomes stale.
    ///
    /// # Errors
    /// [`MeshError::StaleTile`] when `tile` is not in the world; otherwise as
    /// [`World::add_tile`]. On error the world is unchanged.
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshOptions, NavMesh, World, WorldOptions};
    ///
    /// let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// let one = NavMesh::from_polygons(&[v(0.0, 0.0), v(1.0, 0.0), v(1.0, 1.0), v(0.0, 1.0)], &[0, 3, 2, 1], &[4], &MeshOptions::default())?;
    /// let two = NavMesh::from_triangles(&[v(0.0, 0.0), v(1.0, 0.0), v(1.0, 1.0), v(0.0, 1.0)], &[0, 2, 1, 0, 3, 2], &MeshOptions::default())?;
    /// let world = World::new(&WorldOptions::default())?;
    /// let old = world.add_tile(&one)?;
    /// let new = world.replace_tile(old, &two)?;
    /// assert_eq!((new.slot(), new.generation()), (old.slot(), old.generation() + 1));
    /// assert_eq!(world.snapshot().polygon_count(), 2);
    /// assert!(world.replace_tile(old, &one).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn replace_tile(&self, tile: TileRef, mesh: &NavMesh) -> Result<TileRef, MeshError> {
        self.replace_tile_with_links(tile, mesh, &[])
    }

    /// Replaces a tile by another mesh and the links that start on it (see
    /// [`World::add_tile_with_links`]), as [`World::replace_tile`] does; the links given
    /// with the old tile go with it.
    ///
    /// # Errors
    /// As [`World::replace_tile`] and [`World::add_tile_with_links`]. On error the world
    /// is unchanged.
    pub fn replace_tile_with_links(
        &self,
        tile: TileRef,
        mesh: &NavMesh,
        links: &[OffMeshLink],
    ) -> Result<TileRef, MeshError> {
        let mut state = self.lock();
        state.check(tile)?;
        let slot = tile.slot;
        let generation = state.next_generation(slot);
        let (new, carved) = obstacles::carved_tile(&state, mesh, links, slot, generation)?;
        state.swap(slot, new, generation)?;
        state.obstacles.set_carved(slot, carved);
        self.publish(&mut state, Change::MayGrow);
        Ok(TileRef { slot, generation })
    }

    /// Sets the generations of the slots of a new, empty world, as [`World::generations`]
    /// gave them ([`World::from_bytes`]).
    ///
    /// # Errors
    /// [`MeshError::InvalidOption`] when the world has tiles or there are more
    /// generations than slots.
    pub(crate) fn set_generations(&self, generations: &[u32]) -> Result<(), MeshError> {
        self.lock().set_generations(generations)
    }

    /// Every tile present, by slot, with what saving it takes ([`World::to_bytes`]), read
    /// under one lock.
    /// The slot generations a saved world records ([`World::to_bytes`]): per slot ever
    /// used, its generation now (0: never used), with a slot whose tile is carved now
    /// moved on by one. The file holds tiles as added; put back
    /// on load, such a tile numbers its polygons unlike the carved one, so the references
    /// made on the carved polygons must be stale there.
    pub(crate) fn saved_generations(&self) -> Vec<u32> {
        let state = self.lock();
        (0u32..)
            .zip(state.generations())
            .map(|(slot, &g)| {
                if state.obstacles.is_carved(slot) {
                    g.wrapping_add(1).max(1)
                } else {
                    g
                }
            })
            .collect()
    }

    pub(crate) fn saved_tiles(&self) -> Vec<SavedTile> {
        let state = self.lock();
        state
            .present_tiles()
            .map(|(slot, tile)| SavedTile {
                tile: TileRef {
                    slot,
                    generation: tile.generation,
                },
                mesh: state.obstacles.added_mesh(slot, tile).clone(),
                flags: state.obstacles.flags_as_added(slot, tile),
                links: tile.links.given.clone(),
                link_flags: tile
                    .links
                    .flags
                    .iter()
                    .map(|f| f.load(std::sync::atomic::Ordering::Relaxed))
                    .collect(),
            })
            .collect()
    }

    /// Puts `mesh` and the `links` given with it into the slot of `tile` with its
    /// generation, where a saved world had it ([`World::from_bytes`]), joins it to its
    /// neighbours and publishes the new snapshot.
    ///
    /// # Errors
    /// [`MeshError::InvalidOption`] when the slot is beyond `max_tiles` or holds a tile,
    /// or the generation is 0; otherwise as [`World::add_tile_with_links`].
    pub(crate) fn restore_tile(
        &self,
        tile: TileRef,
        mesh: &NavMesh,
        links: &[OffMeshLink],
    ) -> Result<(), MeshError> {
        if tile.generation == 0 {
            return Err(MeshError::InvalidOption("a tile's generation is 0"));
        }
        let mut state = self.lock();
        state.claim(tile.slot)?;
        let new = Tile::new(mesh, links, tile.slot, tile.generation, &state)?;
        state.put(tile.slot, new)?;
        self.publish(&mut state, Change::MayGrow);
        Ok(())
    }

    /// The writers' state (a writer that panicked left it whole: every change is computed
    /// before it is applied).
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Publishes the snapshot of `state` after a change of kind `change`, with the
    /// world's landmark tables while its ground lies within theirs (called with the writers'
    /// lock held, so snapshots are published in the order of the changes), and with its
    /// fast-lane index while its geometry is the index's.
    fn publish(&self, state: &mut State, change: Change) {
        let data = state.snapshot();
        self.carry_landmarks(state, &data, change);
        self.carry_fast_lane(&data);
        self.current.store(Arc::new(data));
    }

    /// The fast-lane index (lock `state` first).
    fn lane_state(&self) -> MutexGuard<'_, LaneState> {
        self.fast_lane
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// The landmark tables (lock `state` first).
    fn landmark_tables(&self) -> MutexGuard<'_, LandmarkState> {
        self.landmarks
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

/// A tile as a world file saves it ([`World::saved_tiles`]).
pub(crate) struct SavedTile {
    /// The tile.
    pub tile: TileRef,
    /// The mesh it was added as.
    pub mesh: NavMesh,
    /// The current run-time flags of the polygons of `mesh` (numbered as added; a
    /// carved polygon has those of its pieces).
    pub flags: Vec<u32>,
    /// The links given with it ([`World::add_tile_with_links`]), as given.
    pub links: Vec<OffMeshLink>,
    /// The current flags of its links: its own mesh's, then those given with it.
    pub link_flags: Vec<u32>,
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod link_tests;

#[cfg(test)]
mod snapshot_tests;

#[cfg(test)]
mod island_tests;

#[cfg(test)]
mod landmark_tests;

#[cfg(test)]
mod landmark_stream_tests;

#[cfg(test)]
mod operation_tests;
