//! Polygon references that outlive a snapshot: a polygon id with the generation of its
//! tile, so that a reference into a tile that was removed or replaced since is reported
//! as stale instead of naming whatever polygon has that id now.

use std::sync::Weak;

use crate::error::QueryError;
use crate::mesh::{MeshData, NavMesh};

/// A polygon of a mesh or of a world, as callers keep it across snapshots (corridors,
/// reachable sets, nearest-point answers): `generation << 32 | polygon id`, where the
/// generation is that of the polygon's tile slot when the reference was made (0 for a
/// mesh built on its own). The slot's generation is [`crate::TileRef::generation`] when
/// the tile is put there, and moves on each time obstacles change the tile
/// ([`crate::World::add_obstacle`]; the tile keeps its `TileRef`). Make one with
/// [`NavMesh::polygon_ref`]; turn it back into a polygon id of a later snapshot with
/// [`NavMesh::resolve`].
///
/// What survives what:
/// - a tile removed or replaced: every reference into it is stale;
/// - an obstacle added, moved or removed: a reference to a polygon the change leaves as
///   it is (same corners, cut from the same polygon of the mesh as added) resolves to
///   that very polygon, under the same id, or under a new one when the tile shrank below
///   its number (the move is remembered, for the last 1024 moves of the tile); a
///   reference to a polygon that was cut, or to a piece that is cut again or gone, is
///   stale, never another polygon. A change cuts again the polygons its footprint
///   (grown by the mesh's baked radius, before and after a move) overlaps, and every
///   polygon an obstacle overlapping one of those overlaps too (an obstacle cuts its
///   polygons together); the others keep their pieces. A polygon given back whole when
///   its obstacle goes is new for references: references made before the obstacle came
///   are stale (its number named a piece meanwhile).
///
/// A reference is only ever resolved forward: one made on a later snapshot is stale in
/// an earlier one.
///
/// # Example
/// ```
/// use navstar::{glam::Vec3, MeshOptions, NavMesh, QueryError, World, WorldOptions};
///
/// let square = [Vec3::ZERO, Vec3::X, Vec3::new(1.0, 0.0, 1.0), Vec3::Z];
/// let tile = NavMesh::from_polygons(&square, &[0, 3, 2, 1], &[4], &MeshOptions::default())?;
/// let world = World::new(&WorldOptions::default())?;
/// let r = world.add_tile(&tile)?;
/// let kept = world.snapshot().polygon_ref(0)?;
/// assert_eq!((kept.polygon(), kept.generation()), (0, 1));
/// // The tile is replaced: the reference is stale in the new snapshot.
/// world.replace_tile(r, &tile)?;
/// let error = world.snapshot().resolve(kept).unwrap_err();
/// assert_eq!(error, QueryError::StaleReference { slot: 0, generation: 1, current: Some(2) });
///
/// // Two 4 x 4 rooms in one tile, a disc in the first: the second room's reference
/// // still names it, the first room's is stale.
/// use navstar::{glam::Vec2, Obstacle};
/// let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
/// let corners = [v(0.0, 0.0), v(4.0, 0.0), v(8.0, 0.0), v(8.0, 4.0), v(4.0, 4.0), v(0.0, 4.0)];
/// let rooms = NavMesh::from_polygons(&corners, &[0, 1, 4, 5, 1, 2, 3, 4], &[4, 4], &MeshOptions::default())?;
/// let world = World::new(&WorldOptions::default())?;
/// world.add_tile(&rooms)?;
/// let before = world.snapshot();
/// let (first, second) = (before.polygon_ref(0)?, before.polygon_ref(1)?);
/// world.add_obstacle(&Obstacle::circle(Vec2::new(2.0, 2.0), 1.0)?)?;
/// let after = world.snapshot();
/// let kept = after.resolve(second)?;
/// assert_eq!(after.polygon_vertices(kept).len(), 4);
/// assert!(after.polygon_vertices(kept).iter().all(|&c| after.vertex(c).x >= 4.0));
/// assert!(matches!(after.resolve(first), Err(QueryError::StaleReference { .. })));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PolyRef(pub u64);

impl PolyRef {
    /// The polygon id (in the snapshot the reference was made from).
    #[must_use]
    pub fn polygon(self) -> u32 {
        self.0 as u32
    }

    /// The generation of the polygon's tile slot.
    #[must_use]
    pub fn generation(self) -> u32 {
        (self.0 >> 32) as u32
    }
}

impl NavMesh {
    /// A reference to `polygon` that stays valid for as long as its tile is in the world
    /// and obstacles leave the polygon as it is: [`NavMesh::resolve`] on a later snapshot
    /// gives the polygon back, or an error if its tile was removed or replaced or the
    /// polygon was cut (see [`PolyRef`]).
    ///
    /// # Errors
    /// [`QueryError::IndexOutOfRange`] when the mesh has no polygon `polygon`.
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshOptions, NavMesh};
    ///
    /// let square = [Vec3::ZERO, Vec3::X, Vec3::new(1.0, 0.0, 1.0), Vec3::Z];
    /// let mesh = NavMesh::from_polygons(&square, &[0, 3, 2, 1], &[4], &MeshOptions::default())?;
    /// let r = mesh.polygon_ref(0)?;
    /// assert_eq!(mesh.resolve(r)?, 0);
    /// assert!(mesh.polygon_ref(1).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn polygon_ref(&self, polygon: u32) -> Result<PolyRef, QueryError> {
        let data = self.data();
        data.check_polygon(polygon)?;
        let (tile, _) = data.split_id(polygon);
        let generation = data.tiles[tile].generation;
        Ok(PolyRef(u64::from(generation) << 32 | u64::from(polygon)))
    }

    /// The polygon id of `reference` in this mesh: the same polygon, under the same id
    /// unless obstacles renumbered its tile (see [`PolyRef`]).
    ///
    /// # Errors
    /// [`QueryError::StaleReference`] when the polygon's tile slot is empty or holds
    /// another tile, the polygon was cut or is gone, or the reference was made on a later
    /// snapshot; [`QueryError::IndexOutOfRange`] when the tile has no such polygon (the
    /// reference was not made by [`NavMesh::polygon_ref`]).
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshOptions, NavMesh, PolyRef, QueryError};
    ///
    /// let square = [Vec3::ZERO, Vec3::X, Vec3::new(1.0, 0.0, 1.0), Vec3::Z];
    /// let mesh = NavMesh::from_polygons(&square, &[0, 3, 2, 1], &[4], &MeshOptions::default())?;
    /// // A mesh built on its own is generation 0.
    /// assert_eq!(mesh.resolve(PolyRef(0))?, 0);
    /// assert!(matches!(mesh.resolve(PolyRef(1 << 32)), Err(QueryError::StaleReference { .. })));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn resolve(&self, reference: PolyRef) -> Result<u32, QueryError> {
        let data = self.data();
        let polygon = reference.polygon();
        let (slot, local) = data.split_id(polygon);
        let generation = reference.generation();
        let Some(tile) = data.tiles.get(slot).filter(|t| t.polygon_count > 0) else {
            return Err(QueryError::StaleReference {
                slot: slot as u32,
                generation,
                current: None,
            });
        };
        if generation == tile.generation && local >= tile.polygon_count {
            // Not made by `polygon_ref`: no polygon had that number.
            data.check_polygon(polygon)?;
        }
        match tile
            .stamps
            .resolve(generation, local, tile.generation, tile.polygon_count)
        {
            Some(now) => Ok(data.tile_base(slot) | now),
            None => Err(QueryError::StaleReference {
                slot: slot as u32,
                generation,
                current: Some(tile.generation),
            }),
        }
    }
}

/// A reference to a mesh (a world's snapshot, a tile) that does not keep it alive: made
/// by [`NavMesh::downgrade`], it gives the mesh back while someone else still holds it.
/// For caches that must not keep removed tiles in memory, and to check that a world's
/// snapshots are freed once dropped.
///
/// # Example
/// ```
/// use navstar::{glam::Vec3, MeshOptions, NavMesh, World, WorldOptions};
///
/// let square = [Vec3::ZERO, Vec3::X, Vec3::new(1.0, 0.0, 1.0), Vec3::Z];
/// let tile = NavMesh::from_polygons(&square, &[0, 3, 2, 1], &[4], &MeshOptions::default())?;
/// let world = World::new(&WorldOptions::default())?;
/// world.add_tile(&tile)?;
/// let weak = world.snapshot().downgrade();
/// // The world holds its current snapshot.
/// assert_eq!(weak.upgrade().map(|s| s.polygon_count()), Some(1));
/// drop(world);
/// assert!(weak.upgrade().is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct WeakNavMesh(Weak<MeshData>);

impl WeakNavMesh {
    /// The mesh, if anyone still holds it.
    #[must_use]
    pub fn upgrade(&self) -> Option<NavMesh> {
        self.0.upgrade().map(NavMesh::from_data)
    }

    /// Whether anyone still holds the mesh.
    #[must_use]
    pub fn is_alive(&self) -> bool {
        self.0.strong_count() > 0
    }
}

impl NavMesh {
    /// A reference to this mesh that does not keep it alive ([`WeakNavMesh`]).
    #[must_use]
    pub fn downgrade(&self) -> WeakNavMesh {
        WeakNavMesh(std::sync::Arc::downgrade(self.shared()))
    }
}
