//! The navstar binary format (`.navstar`): a built mesh saved with the tables derived
//! from it, and its merged copy for the exact mode, so that loading checks them instead
//! of recomputing them.
//!
//! # Layout (version 3)
//!
//! All numbers are little endian; floats are IEEE-754 `f32`.
//!
//! * A 32-byte header: the magic `NAVSTAR\0`, the format version (`u32`), the number of
//!   records that follow (`u32`), the payload length in bytes (`u64`: everything after
//!   the header), the CRC-32 (IEEE) of the payload (`u32`), and a reserved `u32` (0).
//! * The payload: records, each a 4-byte tag, a `u64` body length and the body. A mesh
//!   file holds one `TILE` record; a world file will hold several, each a tile.
//! * A `TILE` body is a fixed sequence of sections, each a 4-byte tag, a `u64` length
//!   and an array of fixed-size records (the `sections!` list below): no count is stored apart
//!   from the section lengths, so nothing is allocated beyond what the bytes hold. In
//!   order: options (one 12-byte record: the up axis as a `u8`, 0 for Y and 1 for Z; the
//!   connectors flag as a `u8`; two reserved bytes, 0; the island count, `u32`; the
//!   agent radius the mesh was built for, `f32`, finite and >= 0: files written before
//!   it was kept there hold 0 in its place, which reads as radius 0), vertices, the
//!   polygon tables ([`MESH`]), areas, flags, islands,
//!   links and their hops, then the merged polygon of each polygon: empty when the mesh
//!   has no merged copy, else followed by the copy's polygon tables ([`MERGED`]); then
//!   (version 3) the fast lane's index ([`crate::NavMesh::prepare_fast_lane`]): one
//!   section of its sizes, empty when the mesh was saved without an index, else
//!   followed by the corner of each corner slot of the searched mesh (the merged copy
//!   when there is one), the corners (vertex and walls) and their hub labels (offsets,
//!   then hub, next corner and distance).
//!
//! Loading refuses anything the builder would not have produced from the same arrays:
//! every index is in range, every polygon is convex and counter-clockwise, neighbours
//! and twins point back at each other over the same edge, no edge is used by more than
//! the two polygons it joins, portals, islands and link hops match the polygons, and
//! every box of the spatial index contains what it holds. The merged copy passes the
//! same checks, and each of its polygons must be exactly the union of the polygons
//! mapped to it; a file without one must be of a mesh whose polygons do not merge.
//!
//! The index is checked for consistency, not built again (that is what saving it
//! spares): every corner is a wall vertex of the searched mesh named by the slots
//! that point at it, each corner's labels name distinct corners and include the
//! corner itself at distance 0, and each label's distance is the length of its chain
//! of next corners to the hub, which shortens at every step. So a damaged index can
//! make no query fail or loop; an index altered on purpose (with its checksum made
//! anew) may still give paths longer than the shortest.
//!
//! Version 2 (without the index's sections) loads too; version 1 (without the merged
//! copy) is refused as an unsupported version: save the mesh again.

mod check;
mod error;
mod index;
mod lane;
mod links;
mod merged;
mod read;
mod write;

pub use error::BinaryError;
pub(crate) use read::{Reader, open};
pub(crate) use write::{record, seal};

use crate::error::MeshError;
use crate::mesh::NavMesh;

/// The first 8 bytes of every navstar binary file.
pub(crate) const MAGIC: [u8; 8] = *b"NAVSTAR\0";
/// The format version written by this library (it reads this one and version 2).
pub const FORMAT_VERSION: u32 = 3;
/// The oldest format version this library reads: files without the fast lane's index.
pub(crate) const OLDEST_READ_VERSION: u32 = 2;
/// Header bytes before the payload.
pub(crate) const HEADER_LEN: usize = 32;
/// Byte offset of the payload checksum in the header.
pub(crate) const CHECKSUM_OFFSET: usize = 24;

/// The tag of a tile record.
const TILE: [u8; 4] = *b"TILE";

/// A section of a tile record: its tag, its name in error messages, and the size of
/// one record.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Section {
    tag: [u8; 4],
    name: &'static str,
    record: usize,
}

macro_rules! sections {
    ($($id:ident = $tag:literal, $name:literal, $size:expr;)*) => {
        $(
            #[doc = concat!("The `", $name, "` section.")]
            const $id: Section = Section { tag: *$tag, name: $name, record: $size };
        )*
    };
}

sections! {
    OPTIONS = b"OPTS", "options", 12;
    VERTICES = b"VERT", "vertices", 12;
    AREAS = b"AREA", "areas", 1;
    FLAGS = b"FLAG", "flags", 4;
    ISLANDS = b"ISLE", "islands", 4;
    LINKS = b"LINK", "links", 12;
    HOP_STARTS = b"HOPI", "link hop offsets", 4;
    HOPS = b"HOPS", "link hops", 32;
    OF_MERGED = b"MRGD", "merged polygon of each polygon", 4;
    LANE = b"LANE", "fast-lane index", 16;
    LANE_SLOTS = b"LSLT", "fast-lane corner of each slot", 4;
    LANE_CORNERS = b"LCRN", "fast-lane corners", 40;
    LANE_STARTS = b"LSTA", "fast-lane label offsets", 4;
    LANE_LABELS = b"LLAB", "fast-lane labels", 16;
}

/// The sections of a set of polygon tables, in file order.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PolygonSections {
    polygons: Section,
    corners: Section,
    neighbours: Section,
    twins: Section,
    portals: Section,
    nodes: Section,
    entries: Section,
}

/// The tables of the mesh's polygons.
const MESH: PolygonSections = PolygonSections {
    polygons: Section {
        tag: *b"POLY",
        name: "polygons",
        record: 4,
    },
    corners: Section {
        tag: *b"CORN",
        name: "corners",
        record: 4,
    },
    neighbours: Section {
        tag: *b"NEIB",
        name: "neighbours",
        record: 4,
    },
    twins: Section {
        tag: *b"TWIN",
        name: "twins",
        record: 4,
    },
    portals: Section {
        tag: *b"PORT",
        name: "portals",
        record: 8,
    },
    nodes: Section {
        tag: *b"BVHN",
        name: "index nodes",
        record: 32,
    },
    entries: Section {
        tag: *b"BVHE",
        name: "index entries",
        record: 28,
    },
};

/// The tables of the merged copy's polygons.
const MERGED: PolygonSections = PolygonSections {
    polygons: Section {
        tag: *b"MPOL",
        name: "merged polygons",
        record: 4,
    },
    corners: Section {
        tag: *b"MCOR",
        name: "merged corners",
        record: 4,
    },
    neighbours: Section {
        tag: *b"MNEI",
        name: "merged neighbours",
        record: 4,
    },
    twins: Section {
        tag: *b"MTWI",
        name: "merged twins",
        record: 4,
    },
    portals: Section {
        tag: *b"MPOR",
        name: "merged portals",
        record: 8,
    },
    nodes: Section {
        tag: *b"MBVN",
        name: "merged index nodes",
        record: 32,
    },
    entries: Section {
        tag: *b"MBVE",
        name: "merged index entries",
        record: 28,
    },
};

impl NavMesh {
    /// The mesh in the navstar binary format (see [`crate::io::load_navstar_bytes`]):
    /// its polygons, areas, current flags, off-mesh links and build options, with the
    /// tables derived from them (neighbours, portals, islands, the spatial index) and
    /// the merged copy of the exact mode (made now if no query has made it yet), and
    /// the exact mode's fast-lane index when it has one (call
    /// [`NavMesh::prepare_fast_lane`] first to save it: a loaded mesh then answers from
    /// it without building it), so that loading it is much faster than building it
    /// again.
    ///
    /// # Errors
    /// [`MeshError::InvalidOption`] for a snapshot of a world of tiles (its element ids
    /// name tiles, which this format has no room for: save the world,
    /// [`crate::World::to_bytes`], or its tiles instead); [`MeshError::NoPolygons`] for
    /// the snapshot of an empty world of one slot.
    pub fn to_bytes(&self) -> Result<Vec<u8>, MeshError> {
        let data = self.data();
        if data.tiles.len() != 1 || data.local_bits != 32 {
            return Err(MeshError::InvalidOption(
                "a snapshot of a world of tiles cannot be saved as one mesh: save the world",
            ));
        }
        if data.polygon_count() == 0 {
            return Err(MeshError::NoPolygons);
        }
        Ok(write::encode(data))
    }

    /// Writes [`NavMesh::to_bytes`] to `writer`.
    ///
    /// # Errors
    /// The writer's error; [`std::io::ErrorKind::InvalidInput`] for what
    /// [`NavMesh::to_bytes`] refuses.
    pub fn write_to(&self, mut writer: impl std::io::Write) -> std::io::Result<()> {
        let bytes = self
            .to_bytes()
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))?;
        writer.write_all(&bytes)
    }

    /// Loads a mesh saved by [`NavMesh::to_bytes`]. The bytes are not trusted: every
    /// table is checked against the polygons as strictly as
    /// [`NavMesh::from_input`] checks its input (a saved fast-lane index is checked
    /// for consistency instead: its corners against the mesh, each label's distance
    /// against its chain of corners; a damaged index makes no query fail or loop). Never panics, and
    /// allocates no more than a small multiple of `bytes.len()`.
    ///
    /// # Errors
    /// A [`BinaryError`] naming the section, the record and the byte offset at fault.
    pub fn from_navstar_bytes(bytes: &[u8]) -> Result<NavMesh, BinaryError> {
        let data = read::decode(bytes)?;
        Ok(NavMesh {
            data: std::sync::Arc::new(data),
        })
    }
}
