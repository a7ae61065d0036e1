//! The options a [`super::World`] is made with, checked once at its creation.

use crate::error::MeshError;
use crate::geometry::UpAxis;

/// Options of a [`World`](super::World): `WorldOptions::default()` (Y up, 1024 tile slots, seam
/// tolerance 0.001, climb 0.25), changed with the `with_*` methods.
///
/// # Example
/// ```
/// use navstar::{UpAxis, WorldOptions};
///
/// let options = WorldOptions::default().with_up_axis(UpAxis::Z).with_max_tiles(256);
/// assert_eq!((options.max_tiles, options.seam_tolerance), (256, 0.001));
/// ```
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct WorldOptions {
    /// Which axis is up (default [`UpAxis::Y`]); every tile must be built with it.
    pub up_axis: UpAxis,
    /// The number of tile slots, a power of two from 1 to 65536 (default 1024). Element
    /// ids of a snapshot are `slot << local_bits | local`, `local_bits = 32 -
    /// log2(max_tiles)`, so a tile holds fewer than `2^local_bits` polygons, vertices and
    /// corners (4,194,304 by default).
    pub max_tiles: u32,
    /// How far apart, in the ground plane, two wall edges of different tiles may be and
    /// still join (default 0.001 world units): both ends of the shorter edge must lie
    /// within it of the longer's line, and they must overlap by more than it. Finite and
    /// >= 0.
    pub seam_tolerance: f32,
    /// The largest difference of height between two joined edges at the ends of their
    /// overlap (default 0.25 world units). Finite and >= 0.
    pub climb: f32,
}

impl Default for WorldOptions {
    fn default() -> Self {
        WorldOptions {
            up_axis: UpAxis::Y,
            max_tiles: 1024,
            seam_tolerance: 0.001,
            climb: 0.25,
        }
    }
}

impl WorldOptions {
    /// These options with another up axis ([`WorldOptions::up_axis`]).
    #[must_use]
    pub fn with_up_axis(self, up_axis: UpAxis) -> Self {
        WorldOptions { up_axis, ..self }
    }

    /// These options with another number of tile slots ([`WorldOptions::max_tiles`]).
    #[must_use]
    pub fn with_max_tiles(self, max_tiles: u32) -> Self {
        WorldOptions { max_tiles, ..self }
    }

    /// These options with another seam tolerance ([`WorldOptions::seam_tolerance`]).
    #[must_use]
    pub fn with_seam_tolerance(self, seam_tolerance: f32) -> Self {
        WorldOptions {
            seam_tolerance,
            ..self
        }
    }

    /// These options with another climb ([`WorldOptions::climb`]).
    #[must_use]
    pub fn with_climb(self, climb: f32) -> Self {
        WorldOptions { climb, ..self }
    }

    /// The options checked; `local_bits` of the world's element ids.
    pub(super) fn check(&self) -> Result<u32, MeshError> {
        if !(self.max_tiles.is_power_of_two() && self.max_tiles <= 1 << 16) {
            return Err(MeshError::InvalidOption(
                "max_tiles must be a power of two from 1 to 65536",
            ));
        }
        if !(self.seam_tolerance.is_finite() && self.seam_tolerance >= 0.0) {
            return Err(MeshError::InvalidOption(
                "seam_tolerance must be finite and >= 0",
            ));
        }
        if !(self.climb.is_finite() && self.climb >= 0.0) {
            return Err(MeshError::InvalidOption("climb must be finite and >= 0"));
        }
        Ok(32 - self.max_tiles.trailing_zeros())
    }
}
