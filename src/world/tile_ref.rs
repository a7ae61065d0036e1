//! [`TileRef`]: how callers name a tile of a [`super::World`] (its slot and the slot's
//! generation), so that a reference to a removed or replaced tile is stale.

/// A tile of a [`World`](super::World): its slot and the generation of the slot when the tile was put
/// there. The generation grows each time the slot is filled, so a reference to a tile
/// that was removed or replaced is stale, and every operation on it is
/// [`MeshError::StaleTile`](crate::MeshError::StaleTile).
///
/// # Example
/// ```
/// use navstar::{glam::Vec3, MeshOptions, NavMesh, World, WorldOptions};
///
/// let square = [Vec3::ZERO, Vec3::X, Vec3::new(1.0, 0.0, 1.0), Vec3::Z];
/// let tile = NavMesh::from_polygons(&square, &[0, 3, 2, 1], &[4], &MeshOptions::default())?;
/// let world = World::new(&WorldOptions::default())?;
/// let first = world.add_tile(&tile)?;
/// world.remove_tile(first)?;
/// // The slot is filled again: same slot, next generation.
/// let second = world.add_tile(&tile)?;
/// assert_eq!((second.slot(), second.generation()), (0, 2));
/// assert!(world.remove_tile(first).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TileRef {
    pub(super) slot: u32,
    pub(super) generation: u32,
}

impl TileRef {
    /// The tile's slot: its element ids in a snapshot are `slot << local_bits | local`.
    #[must_use]
    pub fn slot(self) -> u32 {
        self.slot
    }

    /// The generation of the slot when the tile was put there (from 1).
    #[must_use]
    pub fn generation(self) -> u32 {
        self.generation
    }

    /// A reference from its parts (for bindings that store the two numbers); whether it
    /// names a tile is checked where it is used.
    #[must_use]
    pub fn from_parts(slot: u32, generation: u32) -> TileRef {
        TileRef { slot, generation }
    }
}
