//! One Detour tile's data, as `dtCreateNavMeshData` lays it out (format version 7),
//! read into navstar's arrays.
//!
//! Sections, each padded to a multiple of 4 bytes, in this order: the header
//! (`dtMeshHeader`, 100 bytes), the vertices (3 floats each), the polygons (`dtPoly`, 32
//! bytes: first link, 6 corner indices, 6 neighbour codes, flags, corner count, area and
//! type), room for the run-time links (`dtLink`, 12 bytes, or 16 when Detour is built
//! with 64-bit polygon references; the two are told apart by the total size), the detail
//! sub-meshes (12 bytes each), detail vertices (12), detail triangles (4), bounding-volume
//! nodes (16) and off-mesh connections (`dtOffMeshConnection`, 36 bytes: two end points,
//! radius, polygon, direction flags, side, user id). Polygons from `offMeshBase` on are
//! the off-mesh connections' own two-corner polygons, which carry their area and flags.
//!
//! Only the header, vertices, polygons and off-mesh connections are read; the links,
//! detail mesh and tree are derived data that navstar builds its own way, so only their
//! sizes are checked.

use glam::Vec3;

use super::DetourAgent;
use super::bytes::{Bytes, DetourError};
use crate::alloc::try_vec_with_capacity;
use crate::mesh::OffMeshLink;

/// `dtMeshHeader::magic`: 'D' 'N' 'A' 'V' as a little-endian `int`.
pub(super) const TILE_MAGIC: i32 = i32::from_be_bytes(*b"DNAV");
/// The only tile format version read (`DT_NAVMESH_VERSION`).
const TILE_VERSION: i32 = 7;
/// Corner slots of a polygon (`DT_VERTS_PER_POLYGON`).
const VERTS_PER_POLYGON: usize = 6;
const HEADER_SIZE: usize = 100;
const POLY_SIZE: usize = 32;
const DETAIL_MESH_SIZE: usize = 12;
const DETAIL_VERT_SIZE: usize = 12;
const DETAIL_TRI_SIZE: usize = 4;
const BV_NODE_SIZE: usize = 16;
const OFF_MESH_SIZE: usize = 36;
/// `dtLink` with 32-bit and with 64-bit polygon references.
const LINK_SIZES: [usize; 2] = [12, 16];
/// `dtPoly` types (top two bits of `areaAndtype`).
const POLY_GROUND: u8 = 0;
const POLY_OFF_MESH: u8 = 1;
/// `dtOffMeshConnection::flags`: the connection can be taken both ways.
const OFF_MESH_BIDIRECTIONAL: u8 = 1;

/// One tile read from its bytes: positions in world units (Y up), polygons with
/// navstar's counter-clockwise winding (Detour's are the other way round).
#[derive(Debug, Clone, PartialEq)]
pub(super) struct RawTile {
    /// Where the tile's data starts in the input.
    pub offset: u64,
    /// `dtMeshHeader::x`, `y` and `layer`: the tile's place in Detour's grid.
    pub grid: [i32; 3],
    pub agent: DetourAgent,
    pub vertices: Vec<Vec3>,
    pub indices: Vec<u32>,
    pub sizes: Vec<u32>,
    pub areas: Vec<u8>,
    pub flags: Vec<u32>,
    pub links: Vec<OffMeshLink>,
}

/// The header's counts.
struct Counts {
    polys: usize,
    verts: usize,
    max_links: usize,
    detail_meshes: usize,
    detail_verts: usize,
    detail_tris: usize,
    bv_nodes: usize,
    off_mesh: usize,
    off_mesh_base: usize,
}

impl Counts {
    /// Where the vertices, polygons and off-mesh connections start, for a link record
    /// of `link_size` bytes, and the total size; `None` on overflow.
    fn layout(&self, link_size: usize) -> Option<([usize; 3], usize)> {
        let section = |count: usize, size: usize| -> Option<usize> {
            count.checked_mul(size)?.checked_add(3).map(|n| n & !3)
        };
        let verts = HEADER_SIZE;
        let polys = verts.checked_add(section(self.verts, 12)?)?;
        let mut at = polys.checked_add(section(self.polys, POLY_SIZE)?)?;
        for (count, size) in [
            (self.max_links, link_size),
            (self.detail_meshes, DETAIL_MESH_SIZE),
            (self.detail_verts, DETAIL_VERT_SIZE),
            (self.detail_tris, DETAIL_TRI_SIZE),
            (self.bv_nodes, BV_NODE_SIZE),
        ] {
            at = at.checked_add(section(count, size)?)?;
        }
        let off_mesh = at;
        let total = at.checked_add(section(self.off_mesh, OFF_MESH_SIZE)?)?;
        Some(([verts, polys, off_mesh], total))
    }
}

/// Reads one tile's data: `data` is all of it (its length must be the size its header
/// announces), at offset `data.base` of the input.
pub(super) fn read_tile(data: Bytes<'_>) -> Result<RawTile, DetourError> {
    let magic = data.i32(0, &"dtMeshHeader::magic")?;
    if magic != TILE_MAGIC {
        return Err(data.error(0, "dtMeshHeader::magic is not 'DNAV': not Detour tile data"));
    }
    let version = data.i32(4, &"dtMeshHeader::version")?;
    if version != TILE_VERSION {
        return Err(data.error(
            4,
            format!("dtMeshHeader::version is {version}; only version {TILE_VERSION} is read"),
        ));
    }
    let grid = [
        data.i32(8, &"dtMeshHeader::x")?,
        data.i32(12, &"dtMeshHeader::y")?,
        data.i32(16, &"dtMeshHeader::layer")?,
    ];
    let counts = Counts {
        polys: data.count(24, &"dtMeshHeader::polyCount")?,
        verts: data.count(28, &"dtMeshHeader::vertCount")?,
        max_links: data.count(32, &"dtMeshHeader::maxLinkCount")?,
        detail_meshes: data.count(36, &"dtMeshHeader::detailMeshCount")?,
        detail_verts: data.count(40, &"dtMeshHeader::detailVertCount")?,
        detail_tris: data.count(44, &"dtMeshHeader::detailTriCount")?,
        bv_nodes: data.count(48, &"dtMeshHeader::bvNodeCount")?,
        off_mesh: data.count(52, &"dtMeshHeader::offMeshConCount")?,
        off_mesh_base: data.count(56, &"dtMeshHeader::offMeshBase")?,
    };
    if counts.off_mesh_base.checked_add(counts.off_mesh) != Some(counts.polys) {
        return Err(data.error(
            56,
            format!(
                "dtMeshHeader::offMeshBase ({}) plus offMeshConCount ({}) is not polyCount ({})",
                counts.off_mesh_base, counts.off_mesh, counts.polys
            ),
        ));
    }
    if counts.detail_meshes > counts.polys {
        return Err(data.error(
            36,
            format!(
                "dtMeshHeader::detailMeshCount ({}) is above polyCount ({})",
                counts.detail_meshes, counts.polys
            ),
        ));
    }
    let agent = DetourAgent {
        height: data.non_negative(60, &"dtMeshHeader::walkableHeight")?,
        radius: data.non_negative(64, &"dtMeshHeader::walkableRadius")?,
        climb: data.non_negative(68, &"dtMeshHeader::walkableClimb")?,
    };
    let [verts_at, polys_at, off_mesh_at] = section_starts(data, &counts)?;

    let mut vertices = reserve(data, counts.verts, "Detour vertices")?;
    for v in 0..counts.verts {
        let at = verts_at + 12 * v;
        let mut p = [0.0f32; 3];
        for (axis, value) in p.iter_mut().enumerate() {
            *value = data.finite(at + 4 * axis, &format_args!("vertex {v} coordinate {axis}"))?;
        }
        vertices.push(Vec3::from(p));
    }

    let ground = counts.off_mesh_base;
    let mut tile = RawTile {
        offset: data.base,
        grid,
        agent,
        vertices,
        indices: reserve(data, ground * 3, "Detour polygon corners")?,
        sizes: reserve(data, ground, "Detour polygons")?,
        areas: reserve(data, ground, "Detour polygon areas")?,
        flags: reserve(data, ground, "Detour polygon flags")?,
        links: reserve(data, counts.off_mesh, "Detour off-mesh connections")?,
    };
    for p in 0..ground {
        read_ground_polygon(data, polys_at + POLY_SIZE * p, p, counts.verts, &mut tile)?;
    }
    for c in 0..counts.off_mesh {
        let link = read_off_mesh(data, off_mesh_at + OFF_MESH_SIZE * c, c, polys_at, &counts)?;
        tile.links.push(link);
    }
    Ok(tile)
}

/// An empty vector with room for `n` items (bounded by the data's size, which the
/// header's counts were checked against); running out of memory is an error.
fn reserve<T>(data: Bytes<'_>, n: usize, what: &'static str) -> Result<Vec<T>, DetourError> {
    try_vec_with_capacity(n, what).map_err(|e| data.error(0, e.to_string()))
}

/// Checks the data's length against the header's counts; returns where the vertices,
/// polygons and off-mesh connections start.
fn section_starts(data: Bytes<'_>, counts: &Counts) -> Result<[usize; 3], DetourError> {
    let len = data.bytes.len();
    let mut expected = None;
    for link_size in LINK_SIZES {
        match counts.layout(link_size) {
            Some((starts, total)) if total == len => return Ok(starts),
            Some((_, total)) => expected = expected.or(Some(total)),
            None => {}
        }
    }
    let message = match expected {
        Some(total) => format!(
            "the tile data is {len} bytes, but its header's counts make {total} bytes \
             (with 32-bit polygon references)"
        ),
        None => "the header's counts make a size too large to address".to_string(),
    };
    Err(data.error(24, message))
}

/// Reads ground polygon `p` (a `dtPoly` at `at`) into `tile`.
fn read_ground_polygon(
    data: Bytes<'_>,
    at: usize,
    p: usize,
    vert_count: usize,
    tile: &mut RawTile,
) -> Result<(), DetourError> {
    let flags = data.u16(at + 28, &format_args!("poly {p} flags"))?;
    let corners = usize::from(data.u8(at + 30, &format_args!("poly {p} vertCount"))?);
    let area_and_type = data.u8(at + 31, &format_args!("poly {p} areaAndtype"))?;
    if area_and_type >> 6 != POLY_GROUND {
        return Err(data.error(
            at + 31,
            format!(
                "poly {p} is below offMeshBase but its type is {}, not ground",
                area_and_type >> 6
            ),
        ));
    }
    if !(3..=VERTS_PER_POLYGON).contains(&corners) {
        return Err(data.error(
            at + 30,
            format!(
                "poly {p} vertCount is {corners}; a ground polygon has 3 to {VERTS_PER_POLYGON}"
            ),
        ));
    }
    let first = tile.indices.len();
    for k in 0..corners {
        let field_at = at + 4 + 2 * k;
        let v = data.u16(field_at, &format_args!("poly {p} verts[{k}]"))?;
        if usize::from(v) >= vert_count {
            return Err(data.error(
                field_at,
                format!("poly {p} verts[{k}] is {v}, not a vertex (vertCount is {vert_count})"),
            ));
        }
        tile.indices.push(u32::from(v));
    }
    // Detour winds polygons clockwise seen as (x, z); navstar counter-clockwise.
    tile.indices[first..].reverse();
    tile.sizes.push(corners as u32);
    tile.areas.push(area_and_type & 0x3f);
    tile.flags.push(u32::from(flags));
    Ok(())
}

/// Reads off-mesh connection `c` (at `at`) as a link, with the area and flags of its
/// polygon.
fn read_off_mesh(
    data: Bytes<'_>,
    at: usize,
    c: usize,
    polys_at: usize,
    counts: &Counts,
) -> Result<OffMeshLink, DetourError> {
    let mut pos = [0.0f32; 6];
    for (i, value) in pos.iter_mut().enumerate() {
        *value = data.finite(
            at + 4 * i,
            &format_args!("off-mesh connection {c} pos[{i}]"),
        )?;
    }
    let radius = data.non_negative(at + 24, &format_args!("off-mesh connection {c} rad"))?;
    let poly = usize::from(data.u16(at + 28, &format_args!("off-mesh connection {c} poly"))?);
    if !(counts.off_mesh_base..counts.polys).contains(&poly) {
        return Err(data.error(
            at + 28,
            format!(
                "off-mesh connection {c} poly is {poly}, not an off-mesh polygon ({} to {})",
                counts.off_mesh_base,
                counts.polys - 1
            ),
        ));
    }
    let direction = data.u8(at + 30, &format_args!("off-mesh connection {c} flags"))?;
    let poly_at = polys_at + POLY_SIZE * poly;
    let area_and_type = data.u8(poly_at + 31, &format_args!("poly {poly} areaAndtype"))?;
    if area_and_type >> 6 != POLY_OFF_MESH {
        return Err(data.error(
            poly_at + 31,
            format!(
                "poly {poly} is an off-mesh connection's, but its type is {}",
                area_and_type >> 6
            ),
        ));
    }
    let flags = data.u16(poly_at + 28, &format_args!("poly {poly} flags"))?;
    let start = Vec3::new(pos[0], pos[1], pos[2]);
    let end = Vec3::new(pos[3], pos[4], pos[5]);
    let cost = start.distance(end);
    if !cost.is_finite() {
        return Err(data.error(
            at,
            format!("off-mesh connection {c} is too long to measure"),
        ));
    }
    Ok(OffMeshLink::new(start, end)
        .with_bidirectional(direction & OFF_MESH_BIDIRECTIONAL != 0)
        .with_cost(cost)
        .with_area(area_and_type & 0x3f)
        .with_flags(u32::from(flags))
        .with_radius(radius))
}
