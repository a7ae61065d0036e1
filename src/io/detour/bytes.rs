//! Little-endian reading of untrusted Detour bytes: every read names its field and the
//! byte offset in the whole input, and a read past the end is an error, never a panic.

use std::fmt;

/// Why Detour data was refused: the field at fault and its byte offset from the start of
/// the input (for a tile inside a set file, from the start of the file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DetourError {
    /// Byte offset of the field in the input.
    pub offset: u64,
    /// The field, named as in Detour's headers (`dtMeshHeader::polyCount`, `poly 3
    /// verts[1]`, ...), followed by what is wrong with it.
    pub message: String,
}

impl fmt::Display for DetourError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "byte {}: {}", self.offset, self.message)
    }
}

impl std::error::Error for DetourError {}

/// A window on the input: `bytes` starts at offset `base` of the whole input.
#[derive(Clone, Copy)]
pub(super) struct Bytes<'a> {
    pub bytes: &'a [u8],
    pub base: u64,
}

impl<'a> Bytes<'a> {
    /// An error about the field at `at` (relative to this window).
    pub fn error(&self, at: usize, message: impl Into<String>) -> DetourError {
        DetourError {
            offset: self.base + at as u64,
            message: message.into(),
        }
    }

    /// `N` bytes at `at`, or an error naming `field`.
    fn array<const N: usize>(
        &self,
        at: usize,
        field: &dyn fmt::Display,
    ) -> Result<[u8; N], DetourError> {
        at.checked_add(N)
            .and_then(|end| self.bytes.get(at..end))
            .and_then(|s| <[u8; N]>::try_from(s).ok())
            .ok_or_else(|| self.error(at, format!("{field}: the data ends before it")))
    }

    pub fn u8(&self, at: usize, field: &dyn fmt::Display) -> Result<u8, DetourError> {
        Ok(self.array::<1>(at, field)?[0])
    }

    pub fn u16(&self, at: usize, field: &dyn fmt::Display) -> Result<u16, DetourError> {
        Ok(u16::from_le_bytes(self.array(at, field)?))
    }

    pub fn i32(&self, at: usize, field: &dyn fmt::Display) -> Result<i32, DetourError> {
        Ok(i32::from_le_bytes(self.array(at, field)?))
    }

    /// A count: an `int` that must not be negative.
    pub fn count(&self, at: usize, field: &dyn fmt::Display) -> Result<usize, DetourError> {
        let value = self.i32(at, field)?;
        usize::try_from(value).map_err(|_| self.error(at, format!("{field} is {value}, below 0")))
    }

    /// A float that must be finite.
    pub fn finite(&self, at: usize, field: &dyn fmt::Display) -> Result<f32, DetourError> {
        let value = f32::from_le_bytes(self.array(at, field)?);
        if value.is_finite() {
            Ok(value)
        } else {
            Err(self.error(at, format!("{field} is {value}, not a finite number")))
        }
    }

    /// A float that must be finite and >= 0.
    pub fn non_negative(&self, at: usize, field: &dyn fmt::Display) -> Result<f32, DetourError> {
        let value = self.finite(at, field)?;
        if value >= 0.0 {
            Ok(value)
        } else {
            Err(self.error(at, format!("{field} is {value}, below 0")))
        }
    }
}
