//! Decoding the binary format: the header, the checksum, the records and sections, and
//! the raw arrays of a tile, which [`super::check`] then validates into a mesh.

use glam::Vec3;

use super::check::{self, Located, Tile};
use super::{
    AREAS, BinaryError, CHECKSUM_OFFSET, CORNERS, ENTRIES, FLAGS, FORMAT_VERSION, HEADER_LEN,
    HOP_STARTS, HOPS, ISLANDS, LINKS, MAGIC, NEIGHBOURS, NODES, OPTIONS, POLYGONS, PORTALS,
    Section, TILE, TWINS, VERTICES,
};
use crate::alloc::try_collect;
use crate::geometry::{Aabb, UpAxis};
use crate::mesh::MeshData;

/// Checks the header and checksum, reads the one tile record, and validates it.
pub(super) fn decode(bytes: &[u8]) -> Result<MeshData, BinaryError> {
    let payload = payload(bytes)?;
    let mut records = Reader {
        bytes: payload,
        base: HEADER_LEN as u64,
        pos: 0,
    };
    let tile_body = records.record(TILE, "tile")?;
    records.finish("tile")?;
    let mut sections = Reader {
        bytes: tile_body.bytes,
        base: tile_body.offset,
        pos: 0,
    };
    let tile = read_tile(&mut sections)?;
    sections.finish("tile")?;
    check::assemble(tile)
}

/// The payload after checking the header and the checksum.
fn payload(bytes: &[u8]) -> Result<&[u8], BinaryError> {
    if bytes.len() < HEADER_LEN {
        if !MAGIC.starts_with(&bytes[..bytes.len().min(MAGIC.len())]) {
            return Err(BinaryError::BadMagic);
        }
        return Err(BinaryError::Truncated {
            what: "header",
            offset: 0,
            needed: HEADER_LEN as u64,
            available: bytes.len() as u64,
        });
    }
    if bytes[..8] != MAGIC {
        return Err(BinaryError::BadMagic);
    }
    let word =
        |at: usize| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    let version = word(8);
    if version != FORMAT_VERSION {
        return Err(BinaryError::UnsupportedVersion {
            version,
            supported: FORMAT_VERSION,
        });
    }
    let layout = |offset: u64, reason: String| BinaryError::Layout {
        section: "header",
        offset,
        reason,
    };
    let records = word(12);
    if records != 1 {
        return Err(layout(
            12,
            format!("a mesh file holds 1 record, this one says {records}"),
        ));
    }
    let length = u64::from(word(16)) | (u64::from(word(20)) << 32);
    let available = (bytes.len() - HEADER_LEN) as u64;
    if length > available {
        return Err(BinaryError::Truncated {
            what: "payload",
            offset: HEADER_LEN as u64,
            needed: length,
            available,
        });
    }
    if length < available {
        return Err(layout(
            16,
            format!(
                "{} bytes follow the payload of {length} bytes",
                available - length
            ),
        ));
    }
    if word(28) != 0 {
        return Err(layout(28, "the reserved field is not 0".into()));
    }
    let payload = &bytes[HEADER_LEN..];
    let stored = word(CHECKSUM_OFFSET);
    let computed = crc32fast::hash(payload);
    if stored != computed {
        return Err(BinaryError::ChecksumMismatch { stored, computed });
    }
    Ok(payload)
}

/// Reads records or sections one after the other; offsets are from the file's start.
struct Reader<'a> {
    bytes: &'a [u8],
    /// File offset of `bytes[0]`.
    base: u64,
    pos: usize,
}

/// The body of a record or section.
pub(super) struct Body<'a> {
    pub bytes: &'a [u8],
    /// File offset of `bytes[0]`.
    pub offset: u64,
}

impl<'a> Reader<'a> {
    fn offset(&self) -> u64 {
        self.base + self.pos as u64
    }

    /// The next record, which must have tag `tag`.
    fn record(&mut self, tag: [u8; 4], name: &'static str) -> Result<Body<'a>, BinaryError> {
        let rest = &self.bytes[self.pos..];
        if rest.len() < 12 {
            return Err(BinaryError::Truncated {
                what: name,
                offset: self.offset(),
                needed: 12,
                available: rest.len() as u64,
            });
        }
        if rest[..4] != tag {
            return Err(BinaryError::Layout {
                section: name,
                offset: self.offset(),
                reason: format!(
                    "expected tag {:?}, found {:?}",
                    String::from_utf8_lossy(&tag),
                    String::from_utf8_lossy(&rest[..4])
                ),
            });
        }
        let mut length = [0u8; 8];
        length.copy_from_slice(&rest[4..12]);
        let length = u64::from_le_bytes(length);
        let available = (rest.len() - 12) as u64;
        if length > available {
            return Err(BinaryError::Truncated {
                what: name,
                offset: self.offset() + 12,
                needed: length,
                available,
            });
        }
        let body = Body {
            bytes: &rest[12..12 + length as usize],
            offset: self.offset() + 12,
        };
        self.pos += 12 + length as usize;
        Ok(body)
    }

    /// The next section, as a [`Located`] array of records decoded by `decode`.
    fn section<T>(
        &mut self,
        section: Section,
        decode: impl Fn(&[u8]) -> T,
    ) -> Result<Located<T>, BinaryError> {
        let body = self.record(section.tag, section.name)?;
        if body.bytes.len() % section.record != 0 {
            return Err(BinaryError::Layout {
                section: section.name,
                offset: body.offset,
                reason: format!(
                    "length {} is not a whole number of {}-byte records",
                    body.bytes.len(),
                    section.record
                ),
            });
        }
        let count = body.bytes.len() / section.record;
        let items = try_collect(
            count,
            body.bytes.chunks_exact(section.record).map(decode),
            section.name,
        )?;
        Ok(Located {
            items,
            section,
            offset: body.offset,
        })
    }

    /// Refuses bytes left after the last record.
    fn finish(&self, name: &'static str) -> Result<(), BinaryError> {
        if self.pos == self.bytes.len() {
            return Ok(());
        }
        Err(BinaryError::Layout {
            section: name,
            offset: self.offset(),
            reason: format!(
                "{} bytes follow its last section",
                self.bytes.len() - self.pos
            ),
        })
    }
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn f32_at(b: &[u8], at: usize) -> f32 {
    f32::from_bits(u32_at(b, at))
}

fn vec3_at(b: &[u8], at: usize) -> Vec3 {
    Vec3::new(f32_at(b, at), f32_at(b, at + 4), f32_at(b, at + 8))
}

fn aabb_at(b: &[u8], at: usize) -> Aabb {
    Aabb {
        min: vec3_at(b, at),
        max: vec3_at(b, at + 12),
    }
}

/// The options record: up axis, whether connectors are allowed, island count.
pub(super) struct TileOptions {
    pub up: UpAxis,
    pub connectors: bool,
    pub island_count: u32,
}

fn read_tile(r: &mut Reader<'_>) -> Result<Tile, BinaryError> {
    let options = r.section(OPTIONS, |b| b.to_vec())?;
    let [raw] = &options.items[..] else {
        return Err(BinaryError::Layout {
            section: OPTIONS.name,
            offset: options.offset,
            reason: format!("holds {} records instead of 1", options.items.len()),
        });
    };
    let bad = |at: u64, reason: &str| BinaryError::Invalid {
        section: OPTIONS.name,
        record: 0,
        offset: options.offset + at,
        reason: reason.into(),
    };
    let up = match raw[0] {
        0 => UpAxis::Y,
        1 => UpAxis::Z,
        _ => return Err(bad(0, "the up axis is neither 0 (Y) nor 1 (Z)")),
    };
    if raw[1] > 1 {
        return Err(bad(1, "the connectors flag is neither 0 nor 1"));
    }
    if raw[2] != 0 || raw[3] != 0 || u32_at(raw, 8) != 0 {
        return Err(bad(2, "a reserved field is not 0"));
    }
    let options = TileOptions {
        up,
        connectors: raw[1] == 1,
        island_count: u32_at(raw, 4),
    };
    let u32s = |b: &[u8]| u32_at(b, 0);
    Ok(Tile {
        options,
        vertices: r.section(VERTICES, |b| vec3_at(b, 0))?,
        poly_start: r.section(POLYGONS, u32s)?,
        corners: r.section(CORNERS, u32s)?,
        areas: r.section(AREAS, |b| b[0])?,
        flags: r.section(FLAGS, u32s)?,
        neighbours: r.section(NEIGHBOURS, u32s)?,
        twin: r.section(TWINS, u32s)?,
        portals: r.section(PORTALS, |b| [u32_at(b, 0), u32_at(b, 4)])?,
        island: r.section(ISLANDS, u32s)?,
        nodes: r.section(NODES, |b| (aabb_at(b, 0), u32_at(b, 24), u32_at(b, 28)))?,
        entries: r.section(ENTRIES, |b| (u32_at(b, 0), aabb_at(b, 4)))?,
        links: r.section(LINKS, |b| {
            (f32_at(b, 0), b[4], [b[5], b[6], b[7]], u32_at(b, 8))
        })?,
        hop_start: r.section(HOP_STARTS, u32s)?,
        hops: r.section(HOPS, |b| {
            (u32_at(b, 0), vec3_at(b, 4), vec3_at(b, 16), u32_at(b, 28))
        })?,
    })
}
