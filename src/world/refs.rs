//! Polygon references that outlive a snapshot: a polygon id with the generation of its
//! tile, so that a reference into a tile that was removed or replaced since is reported
//! as stale instead of naming whatever polygon has that id now.

use std::sync::Weak;

use crate::error::QueryError;
use crate::mesh::{MeshData, NavMesh};

/// A polygon of a mesh or of a world, as callers keep it across snapshots (corridors,
/// reachable sets, nearest-point answers): `generation << 32 | polygon id`, where the
/// generation is that of the polygon's tile slot (0 for a mesh built on its own). It is
/// [`crate::TileRef::generation`] until an obstacle is carved into the tile
/// ([`crate::World::add_obstacle`]): the slot's generation then moves on (the tile keeps
/// its `TileRef`), so that references into the carved tile become stale. Make one with [`NavMesh::polygon_ref`]; turn it back into a
/// polygon id of a later snapshot with [`NavMesh::resolve`].
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
    /// A reference to `polygon` that stays valid for as long as its tile is in the world:
    /// [`NavMesh::resolve`] on a later snapshot gives the polygon back, or an error if
    /// its tile was removed or replaced.
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

    /// The polygon id of `reference` in this mesh.
    ///
    /// # Errors
    /// [`QueryError::StaleReference`] when the polygon's tile slot is empty or holds
    /// another generation; [`QueryError::IndexOutOfRange`] when the tile has no such
    /// polygon (the reference was not made by [`NavMesh::polygon_ref`]).
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
        let (slot, _) = data.split_id(polygon);
        let current = data
            .tiles
            .get(slot)
            .filter(|t| t.polygon_count > 0)
            .map(|t| t.generation);
        if current != Some(reference.generation()) {
            return Err(QueryError::StaleReference {
                slot: slot as u32,
                generation: reference.generation(),
                current,
            });
        }
        data.check_polygon(polygon)?;
        Ok(polygon)
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
