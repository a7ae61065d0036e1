//! [`BinaryError`]: why bytes in the navstar binary format were refused.

use thiserror::Error;

use crate::error::MeshError;

/// Why bytes in the navstar binary format (`.navstar`) could not be loaded.
///
/// Every variant names where the problem is: the section (by its name in the format,
/// such as `"neighbours"`), the record within it (a polygon, corner slot, node, ...) and
/// the byte offset from the start of the file.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum BinaryError {
    /// The bytes do not start with the navstar magic (`NAVSTAR` and a zero byte).
    #[error("not a navstar binary file (wrong magic)")]
    BadMagic,
    /// The format version is not one this library reads (an older file: load its source
    /// mesh and save it again).
    #[error(
        "unsupported navstar format version {version} (this library reads versions {} to \
         {supported}: build the mesh from its source and save it again)",
        super::OLDEST_READ_VERSION
    )]
    UnsupportedVersion {
        /// The version in the file.
        version: u32,
        /// The newest version this library reads (the one it writes).
        supported: u32,
    },
    /// The bytes end before a header, section or record does.
    #[error("truncated at byte {offset}: {what} needs {needed} bytes, {available} remain")]
    Truncated {
        /// What was being read.
        what: &'static str,
        /// Byte offset where it starts.
        offset: u64,
        /// How many bytes it needs.
        needed: u64,
        /// How many bytes remain.
        available: u64,
    },
    /// The checksum of the payload does not match the one in the header.
    #[error(
        "checksum mismatch: the header says {stored:#010x}, the payload gives {computed:#010x}"
    )]
    ChecksumMismatch {
        /// CRC-32 stored in the header.
        stored: u32,
        /// CRC-32 of the payload as read.
        computed: u32,
    },
    /// The file's layout is wrong: an unexpected section tag, a section length that is
    /// not a whole number of records, bytes left over, a reserved field not zero.
    #[error("section '{section}' at byte {offset}: {reason}")]
    Layout {
        /// The section (or `"header"`).
        section: &'static str,
        /// Byte offset of the problem.
        offset: u64,
        /// What is wrong.
        reason: String,
    },
    /// A record holds a value that is out of range or inconsistent with the rest of the
    /// mesh (an index beyond its table, a neighbour that does not point back, a bounding
    /// box that does not contain its polygon, ...).
    #[error("section '{section}', record {record} (byte {offset}): {reason}")]
    Invalid {
        /// The section.
        section: &'static str,
        /// The record within the section, from 0.
        record: u64,
        /// Byte offset of the record.
        offset: u64,
        /// What is wrong.
        reason: String,
    },
    /// The mesh itself fails a check of the builder (a polygon not convex, a non-finite
    /// vertex, ...); the error names the polygon or vertex.
    #[error("invalid mesh: {0}")]
    Mesh(#[from] MeshError),
}

impl BinaryError {
    /// The same error with its byte offsets moved by `base`: for a file stored at byte
    /// `base` of another (a tile of a world file).
    pub(crate) fn shifted(self, base: u64) -> BinaryError {
        match self {
            BinaryError::Truncated {
                what,
                offset,
                needed,
                available,
            } => BinaryError::Truncated {
                what,
                offset: offset + base,
                needed,
                available,
            },
            BinaryError::Layout {
                section,
                offset,
                reason,
            } => BinaryError::Layout {
                section,
                offset: offset + base,
                reason,
            },
            BinaryError::Invalid {
                section,
                record,
                offset,
                reason,
            } => BinaryError::Invalid {
                section,
                record,
                offset: offset + base,
                reason,
            },
            other => other,
        }
    }
}
