//! Decoding the binary format: the header, the checksum, the records and sections, and
//! the raw arrays of a tile, which [`super::check`] then validates into a mesh.

use glam::Vec3;

use super::check::{self, Located, Polygons, Tile};
use super::lane::LaneTables;
use super::{
    AREAS, BinaryError, CHECKSUM_OFFSET, FLAGS, FORMAT_VERSION, HEADER_LEN, HOP_STARTS, HOPS,
    ISLANDS, LANE, LANE_CORNERS, LANE_LABELS, LANE_SLOTS, LANE_STARTS, LINKS, MAGIC, MERGED, MESH,
    OF_MERGED, OLDEST_READ_VERSION, OPTIONS, PolygonSections, Section, TILE, VERTICES,
};
use crate::geometry::{Aabb, UpAxis};
use crate::mesh::MeshData;

/// Checks the header and checksum, reads the one tile record, and validates it.
pub(super) fn decode(bytes: &[u8]) -> Result<MeshData, BinaryError> {
    let versions = OLDEST_READ_VERSION..=FORMAT_VERSION;
    let (version, _, mut records) = open(bytes, MAGIC, versions, |records| {
        (records != 1).then(|| format!("a mesh file holds 1 record, this one says {records}"))
    })?;
    let tile_body = records.record(TILE, "tile")?;
    records.finish("tile")?;
    let mut sections = Reader {
        bytes: tile_body.bytes,
        base: tile_body.offset,
        pos: 0,
    };
    let tile = read_tile(&mut sections, version)?;
    sections.finish("tile")?;
    check::assemble(tile)
}

/// Checks the header (whose first 8 bytes must be `magic`, its version one of
/// `versions`) and the checksum of a file in the navstar container layout; `bad_count`
/// says what is wrong with a record count, if anything. Returns the version, the record
/// count and a reader of the records.
pub(crate) fn open(
    bytes: &[u8],
    magic: [u8; 8],
    versions: std::ops::RangeInclusive<u32>,
    bad_count: impl FnOnce(u32) -> Option<String>,
) -> Result<(u32, u32, Reader<'_>), BinaryError> {
    let word = |at: usize| {
        bytes
            .get(at..at + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    let records = word(12);
    let payload = payload(bytes, magic, &versions, || records.and_then(bad_count))?;
    let reader = Reader {
        bytes: payload,
        base: HEADER_LEN as u64,
        pos: 0,
    };
    Ok((word(8).unwrap_or(0), records.unwrap_or(0), reader))
}

/// The payload after checking the header and the checksum.
fn payload<'a>(
    bytes: &'a [u8],
    magic: [u8; 8],
    versions: &std::ops::RangeInclusive<u32>,
    bad_count: impl FnOnce() -> Option<String>,
) -> Result<&'a [u8], BinaryError> {
    if bytes.len() < HEADER_LEN {
        if !magic.starts_with(&bytes[..bytes.len().min(magic.len())]) {
            return Err(BinaryError::BadMagic);
        }
        return Err(BinaryError::Truncated {
            what: "header",
            offset: 0,
            needed: HEADER_LEN as u64,
            available: bytes.len() as u64,
        });
    }
    if bytes[..8] != magic {
        return Err(BinaryError::BadMagic);
    }
    let word =
        |at: usize| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    let version = word(8);
    if !versions.contains(&version) {
        return Err(BinaryError::UnsupportedVersion {
            version,
            supported: *versions.end(),
        });
    }
    let layout = |offset: u64, reason: String| BinaryError::Layout {
        section: "header",
        offset,
        reason,
    };
    if let Some(reason) = bad_count() {
        return Err(layout(12, reason));
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
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
    /// File offset of `bytes[0]`.
    base: u64,
    pos: usize,
}

/// The body of a record or section.
pub(crate) struct Body<'a> {
    pub bytes: &'a [u8],
    /// File offset of `bytes[0]`.
    pub offset: u64,
}

impl<'a> Reader<'a> {
    /// The file offset of the next record.
    pub(crate) fn offset(&self) -> u64 {
        self.base + self.pos as u64
    }

    /// The next record, which must have tag `tag`.
    pub(crate) fn record(
        &mut self,
        tag: [u8; 4],
        name: &'static str,
    ) -> Result<Body<'a>, BinaryError> {
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

    /// The next section, as a [`Located`] array of `N`-byte records decoded by
    /// `decode` (`N` is the section's record size: a constant, so that decoding a
    /// section is a tight loop without bounds checks).
    fn section<const N: usize, T>(
        &mut self,
        section: Section,
        decode: impl Fn(&[u8; N]) -> T,
    ) -> Result<Located<T>, BinaryError> {
        debug_assert_eq!(N, section.record, "{}", section.name);
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
        // Straight into the shared slice the mesh keeps (one allocation, no copy).
        let items = body
            .bytes
            .chunks_exact(N)
            .map(|record| decode(record.try_into().expect("chunks of N bytes")))
            .collect();
        Ok(Located {
            items,
            section,
            offset: body.offset,
        })
    }

    /// Refuses bytes left after the last record.
    pub(crate) fn finish(&self, name: &'static str) -> Result<(), BinaryError> {
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

#[inline(always)]
fn u32_at<const N: usize>(b: &[u8; N], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

#[inline(always)]
fn f32_at<const N: usize>(b: &[u8; N], at: usize) -> f32 {
    f32::from_bits(u32_at(b, at))
}

#[inline(always)]
fn vec3_at<const N: usize>(b: &[u8; N], at: usize) -> Vec3 {
    Vec3::new(f32_at(b, at), f32_at(b, at + 4), f32_at(b, at + 8))
}

#[inline(always)]
fn aabb_at<const N: usize>(b: &[u8; N], at: usize) -> Aabb {
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
    /// The agent radius the mesh was built for ([`crate::MeshOptions::agent_radius`]).
    pub baked_radius: f32,
}

/// The tile record of a file of format `version`.
fn read_tile(r: &mut Reader<'_>, version: u32) -> Result<Tile, BinaryError> {
    let options = r.section(OPTIONS, |b: &[u8; 12]| *b)?;
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
    if raw[2] != 0 || raw[3] != 0 {
        return Err(bad(2, "a reserved field is not 0"));
    }
    let baked_radius = f32_at(raw, 8);
    // -0.0 too: the builder never stores it, and a file must save back to its bytes.
    if !(baked_radius.is_finite() && baked_radius.is_sign_positive()) {
        return Err(bad(
            8,
            &format!("the baked agent radius {baked_radius} is not finite and >= 0"),
        ));
    }
    let options = TileOptions {
        up,
        connectors: raw[1] == 1,
        island_count: u32_at(raw, 4),
        baked_radius,
    };
    let vertices = r.section(VERTICES, |b: &[u8; 12]| vec3_at(b, 0))?;
    let polygons = read_polygons(r, &MESH)?;
    let areas = r.section(AREAS, |b: &[u8; 1]| b[0])?;
    let flags = r.section(FLAGS, u32s)?;
    let island = r.section(ISLANDS, u32s)?;
    let links = r.section(LINKS, |b: &[u8; 12]| {
        (f32_at(b, 0), b[4], [b[5], b[6], b[7]], u32_at(b, 8))
    })?;
    let hop_start = r.section(HOP_STARTS, u32s)?;
    let hops = r.section(HOPS, |b: &[u8; 32]| {
        (u32_at(b, 0), vec3_at(b, 4), vec3_at(b, 16), u32_at(b, 28))
    })?;
    let of_merged = r.section(OF_MERGED, u32s)?;
    let merged = if of_merged.items.is_empty() {
        None
    } else {
        Some(read_polygons(r, &MERGED)?)
    };
    let lane = if version >= 3 { read_lane(r)? } else { None };
    Ok(Tile {
        options,
        vertices,
        polygons,
        areas,
        flags,
        island,
        links,
        hop_start,
        hops,
        of_merged,
        merged,
        lane,
    })
}

/// The fast lane's sections: `None` when its sizes section is empty (saved without an
/// index).
fn read_lane(r: &mut Reader<'_>) -> Result<Option<LaneTables>, BinaryError> {
    let sizes = r.section(LANE, |b: &[u8; 16]| {
        let mut edges = [0u8; 8];
        edges.copy_from_slice(&b[8..16]);
        (
            [b[0], b[1], b[2], b[3]],
            u32_at(b, 4),
            u64::from_le_bytes(edges),
        )
    })?;
    if sizes.items.is_empty() {
        return Ok(None);
    }
    Ok(Some(LaneTables {
        sizes,
        node_of_slot: r.section(LANE_SLOTS, u32s)?,
        corners: r.section(LANE_CORNERS, |b: &[u8; 40]| {
            let f = |at: usize| {
                let mut x = [0u8; 8];
                x.copy_from_slice(&b[at..at + 8]);
                f64::from_le_bytes(x)
            };
            let ends = [
                glam::DVec2::new(f(8), f(16)),
                glam::DVec2::new(f(24), f(32)),
            ];
            (u32_at(b, 0), u32_at(b, 4), ends)
        })?,
        label_start: r.section(LANE_STARTS, u32s)?,
        labels: r.section(LANE_LABELS, |b: &[u8; 16]| {
            let mut x = [0u8; 8];
            x.copy_from_slice(&b[8..16]);
            (u32_at(b, 0), u32_at(b, 4), f64::from_le_bytes(x))
        })?,
    }))
}

/// A record of `u32`s.
fn u32s(b: &[u8; 4]) -> u32 {
    u32::from_le_bytes(*b)
}

/// The polygon tables in `sections`.
fn read_polygons(r: &mut Reader<'_>, sections: &PolygonSections) -> Result<Polygons, BinaryError> {
    Ok(Polygons {
        poly_start: r.section(sections.polygons, u32s)?,
        corners: r.section(sections.corners, u32s)?,
        neighbours: r.section(sections.neighbours, u32s)?,
        twin: r.section(sections.twins, u32s)?,
        portals: r.section(sections.portals, |b: &[u8; 8]| [u32_at(b, 0), u32_at(b, 4)])?,
        nodes: r.section(sections.nodes, |b: &[u8; 32]| {
            (aabb_at(b, 0), u32_at(b, 24), u32_at(b, 28))
        })?,
        entries: r.section(sections.entries, |b: &[u8; 28]| {
            (u32_at(b, 0), aabb_at(b, 4))
        })?,
    })
}
