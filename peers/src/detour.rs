//! Safe wrappers over `recastnavigation-sys`: Detour navmeshes and path queries built
//! from navstar meshes, and the Recast pipeline that builds polygon meshes from level
//! geometry. This is the only module of the crate with `unsafe` code; every `unsafe`
//! block says why it is sound.
//!
//! # From a navstar mesh to Detour tiles
//!
//! [`DetourMesh::from_navmesh`] hands all polygons of a [`NavMesh`] to Detour
//! (`dtCreateNavMeshData` per tile, `dtNavMesh::init` + `addTile`):
//!
//! * **Axes.** Detour is Y-up. A Y-up navstar mesh is used as is; a Z-up one (the 2D
//!   benchmark meshes: Polyanya `.mesh`, grid maps, with z = 0) maps `(x, y, z)` to
//!   Detour's `(x, z, y)`, so its ground point `(x, y)` is Detour's `(x, z)`.
//!   [`DetourQuery::find_path`] takes and returns navstar coordinates.
//! * **Winding.** navstar's corners run counter-clockwise in the ground plane taken as
//!   (first, second) coordinates; Detour's run the other way (Recast's polygon meshes
//!   are clockwise in (x, z), which is counter-clockwise seen from above), so every
//!   polygon is reversed on the way in. With the wrong winding Detour's funnel turns at
//!   the wrong corners.
//! * **Polygon size.** A Detour polygon has at most [`MAX_VERTS_PER_POLYGON`] (6) corners.
//!   Bigger polygons are cut along diagonals into convex pieces of at most 6 corners,
//!   never producing a zero-area piece when avoidable (grid rectangles have many
//!   collinear corners), and the neighbours of all pieces are recomputed from shared
//!   edges: the cut diagonals link sibling pieces, and an original edge links the piece
//!   of the polygon across it when navstar had a neighbour there.
//! * **Quantisation.** Detour stores polygon vertices as 16-bit cell coordinates:
//!   `bmin + index * cs` across and `bmin.y + index * ch` up. The cell size is the
//!   smallest power of two (possibly below 1) for which a tile's largest extent fits in
//!   65534 cells, and `ch = cs`; `bmin` is rounded down to a multiple of `cs`. Each vertex
//!   therefore moves by at most `cs / 2` per axis ([`DetourMesh::quantisation_error`]
//!   reports the largest actual move; about 1.5e-3 on the Recast levels, 2.7e-3 on the
//!   Iron Harvest mesh). Meshes whose coordinates are multiples of `cs` — every
//!   grid-derived mesh with integer coordinates, since `cs = 1 / 2^k` — stay exact.
//! * **Tiles.** One tile holds at most 65534 vertices and 32768 polygons (neighbour
//!   indices have 15 bits). A bigger mesh is built as a square grid of tiles whose side
//!   is a power of two: each polygon is clipped to the tiles it overlaps (crossing points
//!   computed the same way from both sides of a shared edge), the pieces are welded by
//!   quantised position, split and linked inside the tile, and edges on a tile side that
//!   were open in navstar (or made by the clipping) become portals, which Detour links to
//!   the matching edges of the next tile. Clipping adds polygons and corners along tile
//!   sides, which Detour's A* (through edge midpoints) sees as a slightly different mesh.
//! * **Detail mesh.** None is given; Detour then triangulates each polygon itself for
//!   heights. Every polygon gets flags `1` and area `0` (cost 1 with the default filter).
//!
//! # Recast
//!
//! [`build_recast_polymesh`] runs the solo-mesh Recast pipeline (rasterise, filter,
//! compact, erode, watershed regions, contours, polygon mesh) on a triangle soup, with
//! [`RecastSettings`] defaulting to RecastDemo's settings. [`TiledBake::build`] runs it
//! once per tile, with a border, as RecastDemo's tile-mesh sample does, and builds
//! Detour's tiled navmesh of the tiles (`dtNavMesh` with `maxTiles`, one
//! `dtCreateNavMeshData` per tile); the same polygons are exported per tile and as one
//! piece for navstar (see [`TiledBake`]).

#![warn(clippy::undocumented_unsafe_blocks)]

mod query;
mod recast;
mod saved;
mod split;
mod tiled;
pub use query::DetourQuery;
pub use recast::{RecastPolyMesh, RecastSettings, build_recast_polymesh};
use split::area2;
pub use split::{SplitPolygons, split_convex, split_mesh};
pub use tiled::{PolygonSet, RecastTile, TiledBake, TiledSettings};

use std::fmt;
use std::ptr::{self, NonNull};

use navstar::glam::{DVec2, Vec3};
use navstar::{NavMesh, UpAxis};

/// [`SplitPolygons::neighbours`] of an edge without a neighbour (a wall).
pub const NO_NEIGHBOUR: u32 = u32::MAX;
use recastnavigation_sys as sys;

/// Most corners a Detour polygon can have (`DT_VERTS_PER_POLYGON`).
pub const MAX_VERTS_PER_POLYGON: usize = sys::DT_VERTS_PER_POLYGON as usize;
/// Most polygons in one tile: neighbour indices are 16-bit with the top bit reserved.
pub const MAX_TILE_POLYGONS: usize = 0x8000;
/// Most vertices in one tile (vertex indices are 16-bit, `0xffff` means none).
pub const MAX_TILE_VERTICES: usize = 0xfffe;
/// Size of the polygon corridor and straight-path buffers of a [`DetourQuery`].
pub const MAX_PATH: usize = 65536;
/// Search nodes of a [`DetourQuery`]: the largest count Detour accepts (node indices are
/// 16-bit).
pub const MAX_NODES: i32 = 65535;

const NULL_INDEX: u16 = 0xffff;

/// Why a Detour or Recast mesh could not be built.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum DetourError {
    /// More vertices than one tile holds.
    TooManyVertices(usize),
    /// More polygons (after splitting) than one tile holds.
    TooManyPolygons(usize),
    /// The mesh is too large for 16-bit coordinates with the requested cell size.
    CellSizeTooSmall {
        /// The requested cell size.
        cell_size: f32,
        /// The largest extent of the mesh.
        extent: f32,
    },
    /// A non-finite vertex or setting.
    NonFinite,
    /// `dtCreateNavMeshData` refused the data.
    CreateDataFailed,
    /// A Detour call failed with this status.
    Status(&'static str, u32),
    /// A Detour or Recast allocation failed.
    OutOfMemory(&'static str),
    /// A Recast build step failed.
    Recast(&'static str),
}

impl fmt::Display for DetourError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DetourError::TooManyVertices(n) => write!(
                f,
                "{n} vertices: one Detour tile holds at most {MAX_TILE_VERTICES}"
            ),
            DetourError::TooManyPolygons(n) => write!(
                f,
                "{n} polygons (after splitting to {MAX_VERTS_PER_POLYGON} corners): one Detour tile holds at most {MAX_TILE_POLYGONS}"
            ),
            DetourError::CellSizeTooSmall { cell_size, extent } => write!(
                f,
                "cell size {cell_size} is too small for an extent of {extent} (65535 cells at most)"
            ),
            DetourError::NonFinite => write!(f, "non-finite vertex or setting"),
            DetourError::CreateDataFailed => write!(f, "dtCreateNavMeshData failed"),
            DetourError::Status(call, status) => write!(f, "{call} failed (status {status:#x})"),
            DetourError::OutOfMemory(what) => write!(f, "out of memory allocating {what}"),
            DetourError::Recast(step) => write!(f, "Recast step {step} failed"),
        }
    }
}

impl std::error::Error for DetourError {}

/// Options of [`DetourMesh::from_navmesh`].
#[derive(Debug, Clone, PartialEq)]
pub struct DetourSettings {
    /// Quantisation cell size (`cs`, also used as `ch`); `None` picks the smallest power
    /// of two that fits the mesh in 65535 cells.
    pub cell_size: Option<f32>,
    /// Agent height stored in the tile header (Detour does not use it for paths).
    pub agent_height: f32,
    /// Agent radius stored in the tile header.
    pub agent_radius: f32,
    /// Agent climb stored in the tile header.
    pub agent_max_climb: f32,
    /// Most polygons per tile (at most [`MAX_TILE_POLYGONS`], the default); a mesh with
    /// more is built as a grid of tiles. Lower it to test tiling.
    pub max_tile_polygons: usize,
}

impl Default for DetourSettings {
    /// Automatic cell size and RecastDemo's agent (height 2, radius 0.6, climb 0.9).
    fn default() -> Self {
        DetourSettings {
            cell_size: None,
            agent_height: 2.0,
            agent_radius: 0.6,
            agent_max_climb: 0.9,
            max_tile_polygons: MAX_TILE_POLYGONS,
        }
    }
}

/// Navstar world coordinates to Detour's (Y up).
fn to_detour(up: UpAxis, p: [f32; 3]) -> [f32; 3] {
    match up {
        UpAxis::Y => p,
        UpAxis::Z => [p[0], p[2], p[1]],
    }
}

/// Detour coordinates back to navstar's.
fn from_detour(up: UpAxis, p: [f32; 3]) -> [f32; 3] {
    // Swapping y and z is its own inverse.
    to_detour(up, p)
}

/// A Detour navigation mesh of one or more tiles, owned (freed on drop).
pub struct DetourMesh {
    nav: NonNull<sys::dtNavMesh>,
    up: UpAxis,
    cell_size: f32,
    polygon_count: usize,
    quantisation_error: f32,
    tile_count: usize,
    /// Each tile's data as `dtCreateNavMeshData` made it, with its tile reference, and
    /// the grid parameters: what [`DetourMesh::set_file`] writes.
    saved: saved::SavedTiles,
}

impl fmt::Debug for DetourMesh {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DetourMesh")
            .field("polygons", &self.polygon_count)
            .field("tiles", &self.tile_count)
            .field("cell_size", &self.cell_size)
            .field("up", &self.up)
            .finish()
    }
}

impl Drop for DetourMesh {
    fn drop(&mut self) {
        // SAFETY: `nav` came from `dtAllocNavMesh` (constructed, so freeing is valid even
        // if `init` failed) and is freed only here; queries borrow the `DetourMesh`, so
        // none outlives it.
        unsafe { sys::dtFreeNavMesh(self.nav.as_ptr()) };
    }
}

/// The smallest power of two `cs` with `extent / cs <= cells`.
fn power_of_two_cell(extent: f32, cells: f32) -> f32 {
    let mut cs = 1.0f32;
    while extent / cs > cells {
        cs *= 2.0;
    }
    while cs > f32::MIN_POSITIVE && extent / (cs * 0.5) <= cells {
        cs *= 0.5;
    }
    cs
}

/// The smallest and largest coordinates of `points`.
fn bounds(points: &[[f32; 3]]) -> ([f32; 3], [f32; 3]) {
    points
        .iter()
        .fold(([f32::MAX; 3], [f32::MIN; 3]), |(lo, hi), p| {
            (
                [lo[0].min(p[0]), lo[1].min(p[1]), lo[2].min(p[2])],
                [hi[0].max(p[0]), hi[1].max(p[1]), hi[2].max(p[2])],
            )
        })
}

/// Cell coordinates of `p` on the grid of size `cs` starting at `bmin`.
fn quantise(p: [f32; 3], bmin: [f32; 3], cs: f32) -> [u16; 3] {
    [0, 1, 2].map(|i| ((p[i] - bmin[i]) / cs).round().clamp(0.0, 65535.0) as u16)
}

/// The world position of a cell corner.
fn dequantise(cell: [u16; 3], bmin: [f32; 3], cs: f32) -> [f32; 3] {
    [0, 1, 2].map(|i| bmin[i] + f32::from(cell[i]) * cs)
}

fn distance(a: [f32; 3], b: [f32; 3]) -> f32 {
    Vec3::from_array(a).distance(Vec3::from_array(b))
}

/// Where a tile is and what it may hold.
#[derive(Debug, Clone, Copy)]
struct TileFrame {
    x: i32,
    z: i32,
    bmin: [f32; 3],
    bmax: [f32; 3],
    cs: f32,
    tile_size: f32,
    max_polygons: usize,
}

/// Welds (by cell), splits and links the polygons clipped to one tile, and returns the
/// tile with the largest vertex move; `None` when the tile holds too many polygons or
/// vertices.
fn tile_spec(polys: &[Clipped], frame: &TileFrame) -> Option<(TileSpec, f32)> {
    use std::collections::HashMap;
    let TileFrame {
        x,
        z,
        bmin,
        bmax,
        cs,
        tile_size,
        max_polygons,
    } = *frame;
    let side = (tile_size / cs).round() as u16;
    let mut ids: HashMap<[u16; 3], u32> = HashMap::new();
    let mut cells: Vec<[u16; 3]> = Vec::new();
    let mut ground: Vec<DVec2> = Vec::new();
    let mut error = 0f32;
    // Pieces with the kind of each edge.
    let mut pieces: Vec<(Vec<u32>, Vec<EdgeKind>)> = Vec::new();
    for poly in polys {
        let mut corners: Vec<u32> = Vec::new();
        let mut kinds: Vec<EdgeKind> = Vec::new();
        for (p, &kind) in poly.points.iter().zip(&poly.edges) {
            let cell = quantise(*p, bmin, cs);
            error = error.max(distance(*p, dequantise(cell, bmin, cs)));
            let id = *ids.entry(cell).or_insert_with(|| {
                cells.push(cell);
                ground.push(DVec2::new(f64::from(cell[0]), f64::from(cell[2])));
                (cells.len() - 1) as u32
            });
            if corners.last() == Some(&id) {
                // A zero-length edge: the merged corner keeps the later outgoing edge.
                *kinds.last_mut().expect("kinds follow corners") = kind;
            } else {
                corners.push(id);
                kinds.push(kind);
            }
        }
        while corners.len() > 1 && corners.last() == corners.first() {
            corners.pop();
            kinds.pop();
        }
        let mut seen = corners.clone();
        seen.sort_unstable();
        seen.dedup();
        if corners.len() < 3
            || seen.len() != corners.len()
            || area2(corners.iter().map(|&v| ground[v as usize])) <= 0.0
        {
            continue; // degenerate after quantisation
        }
        for piece in split_convex(&corners, &ground, MAX_VERTS_PER_POLYGON) {
            let piece_kinds = (0..piece.len())
                .map(|j| {
                    let (a, b) = (piece[j], piece[(j + 1) % piece.len()]);
                    let k = corners.iter().position(|&c| c == a).expect("piece corner");
                    if corners[(k + 1) % corners.len()] == b {
                        kinds[k]
                    } else {
                        EdgeKind::Open // a cut between pieces
                    }
                })
                .collect();
            pieces.push((piece, piece_kinds));
        }
    }
    if pieces.is_empty() {
        return Some((
            TileSpec {
                x,
                z,
                bmin,
                bmax,
                verts: Vec::new(),
                polys: Vec::new(),
                attributes: None,
            },
            error,
        ));
    }
    if pieces.len() > max_polygons || cells.len() > MAX_TILE_VERTICES {
        return None;
    }
    let mut edges: HashMap<(u32, u32), (u32, EdgeKind)> = HashMap::with_capacity(pieces.len() * 4);
    for (i, (piece, kinds)) in pieces.iter().enumerate() {
        for j in 0..piece.len() {
            edges.insert(
                (piece[j], piece[(j + 1) % piece.len()]),
                (i as u32, kinds[j]),
            );
        }
    }
    let mut rows = Vec::with_capacity(pieces.len() * 2 * MAX_VERTS_PER_POLYGON);
    for (piece, kinds) in &pieces {
        let links: Vec<u16> = (0..piece.len())
            .map(|j| {
                let (a, b) = (piece[j], piece[(j + 1) % piece.len()]);
                if kinds[j] == EdgeKind::Wall {
                    return WALL;
                }
                if let Some(&(other, EdgeKind::Open)) = edges.get(&(b, a)) {
                    return other as u16;
                }
                let (ca, cb) = (cells[a as usize], cells[b as usize]);
                match () {
                    () if ca[0] == 0 && cb[0] == 0 => PORTAL_X_MIN,
                    () if ca[2] == side && cb[2] == side => PORTAL_Z_MAX,
                    () if ca[0] == side && cb[0] == side => PORTAL_X_MAX,
                    () if ca[2] == 0 && cb[2] == 0 => PORTAL_Z_MIN,
                    () => WALL,
                }
            })
            .collect();
        let corners: Vec<u16> = piece.iter().map(|&v| v as u16).collect();
        push_row(&mut rows, &corners, &links);
    }
    let verts = cells.iter().flatten().copied().collect();
    Some((
        TileSpec {
            x,
            z,
            bmin,
            bmax,
            verts,
            polys: rows,
            attributes: None,
        },
        error,
    ))
}

/// One tile's input to `dtCreateNavMeshData`, in Detour's layout.
struct TileSpec {
    /// Tile column (x) and row (z).
    x: i32,
    z: i32,
    bmin: [f32; 3],
    bmax: [f32; 3],
    /// 3 cell coordinates per vertex.
    verts: Vec<u16>,
    /// 2 * MAX_VERTS_PER_POLYGON entries per polygon: corners, then neighbours.
    polys: Vec<u16>,
    /// Area id and flags of each polygon; `None` for area 0 and flags 1 everywhere.
    attributes: Option<(Vec<u8>, Vec<u16>)>,
}

impl TileSpec {
    fn poly_count(&self) -> usize {
        self.polys.len() / (2 * MAX_VERTS_PER_POLYGON)
    }
}

/// Appends one polygon row. `corners` run counter-clockwise in the ground plane and
/// `links[j]` is Detour's neighbour code for the edge from corner `j` to `j + 1`.
///
/// Detour wants the opposite winding: clockwise in the (x, z) plane taken as (first,
/// second) coordinates, which is counter-clockwise seen from above with Y up. Reversed,
/// corner `j` is `corners[len - 1 - j]` and edge `j` is edge `len - 2 - j` walked
/// backwards.
fn push_row(polys: &mut Vec<u16>, corners: &[u16], links: &[u16]) {
    let nvp = MAX_VERTS_PER_POLYGON;
    let len = corners.len();
    debug_assert!((3..=nvp).contains(&len) && links.len() == len);
    let start = polys.len();
    polys.resize(start + 2 * nvp, NULL_INDEX);
    for j in 0..len {
        polys[start + j] = corners[len - 1 - j];
        polys[start + nvp + j] = links[(2 * len - 2 - j) % len];
    }
}

/// Neighbour code of a wall edge (top bit set, low nibble 0xf).
const WALL: u16 = NULL_INDEX;
/// Neighbour codes of portal edges on the tile's x-min, z-max, x-max and z-min sides.
const PORTAL_X_MIN: u16 = 0x8000;
const PORTAL_Z_MAX: u16 = 0x8001;
const PORTAL_X_MAX: u16 = 0x8002;
const PORTAL_Z_MIN: u16 = 0x8003;

/// The tile grid of a Detour mesh: where tile (0, 0) starts, the side of a tile, and the
/// quantisation cell sizes across (`cs`) and up (`ch`).
#[derive(Debug, Clone, Copy)]
struct GridParams {
    orig: [f32; 3],
    tile_size: f32,
    cs: f32,
    ch: f32,
}

/// How an edge of a clipped polygon came about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum EdgeKind {
    /// Part of a navstar edge without a neighbour.
    Wall,
    /// Part of a navstar edge with a neighbour, or a cut between pieces of a polygon.
    Open,
}

/// A polygon (Detour coordinates, counter-clockwise in the ground plane) being clipped
/// to a tile; `edges[i]` describes the edge from `points[i]` to the next point.
#[derive(Debug, Clone, Default)]
struct Clipped {
    points: Vec<[f32; 3]>,
    edges: Vec<EdgeKind>,
}

/// The point where segment `a`-`b` crosses `axis = value`. Computed from the endpoints
/// in a fixed order, so the two polygons sharing the segment get the same point.
fn crossing(a: [f32; 3], b: [f32; 3], axis: usize, value: f32) -> [f32; 3] {
    let key = |p: [f32; 3]| (p[0].to_bits(), p[2].to_bits(), p[1].to_bits());
    let (p, q) = if key(a) <= key(b) { (a, b) } else { (b, a) };
    let t = (value - p[axis]) / (q[axis] - p[axis]);
    let mut r = [0f32; 3];
    for i in 0..3 {
        r[i] = p[i] + t * (q[i] - p[i]);
    }
    r[axis] = value;
    r
}

/// Keeps the part of `poly` with `point[axis] >= value` (`keep_above`) or `<= value`.
/// Edges along the cut line are [`EdgeKind::Open`]: they become portals to the next tile.
fn clip(poly: &Clipped, axis: usize, value: f32, keep_above: bool) -> Clipped {
    let inside = |p: &[f32; 3]| {
        if keep_above {
            p[axis] >= value
        } else {
            p[axis] <= value
        }
    };
    let mut out = Clipped::default();
    let n = poly.points.len();
    for i in 0..n {
        let (a, b, kind) = (poly.points[i], poly.points[(i + 1) % n], poly.edges[i]);
        let (in_a, in_b) = (inside(&a), inside(&b));
        if in_a {
            out.points.push(a);
            out.edges.push(kind);
        }
        if in_a != in_b {
            out.points.push(crossing(a, b, axis, value));
            // Leaving: the outline follows the cut line until it comes back in.
            out.edges.push(if in_a { EdgeKind::Open } else { kind });
        }
    }
    out
}

/// The cell size for tiles `span` wide (or the requested one) and the grid origin: `lo`
/// rounded down to whole cells. Fails when `span` or the height range needs more than
/// 65534 cells.
fn grid_frame(
    lo: [f32; 3],
    hi: [f32; 3],
    span: f32,
    settings: &DetourSettings,
) -> Result<(f32, [f32; 3]), DetourError> {
    // One cell of slack for rounding the origin down.
    let cells = 65534.0;
    let height = hi[1] - lo[1];
    let cs = match settings.cell_size {
        Some(cs) if cs.is_finite() && cs > 0.0 => cs,
        Some(_) => return Err(DetourError::NonFinite),
        None => power_of_two_cell(span.max(height).max(f32::MIN_POSITIVE), cells),
    };
    if span.max(height) / cs > cells {
        return Err(DetourError::CellSizeTooSmall {
            cell_size: cs,
            extent: span.max(height),
        });
    }
    Ok((cs, lo.map(|c| (c / cs).floor() * cs)))
}

impl DetourMesh {
    /// Builds a Detour mesh from all polygons of `mesh` (see the module docs for axes,
    /// splitting and quantisation): one tile when the split polygons fit in one
    /// ([`MAX_TILE_POLYGONS`], [`MAX_TILE_VERTICES`]), otherwise a square grid of tiles
    /// with the polygons clipped to the tiles.
    ///
    /// # Errors
    /// [`DetourError`] when the mesh cannot be quantised or Detour refuses it.
    pub fn from_navmesh(mesh: &NavMesh, settings: &DetourSettings) -> Result<Self, DetourError> {
        let finite = [
            settings.agent_height,
            settings.agent_radius,
            settings.agent_max_climb,
        ]
        .iter()
        .all(|v| v.is_finite());
        if !finite || mesh.vertices().iter().any(|v| !v.is_finite()) {
            return Err(DetourError::NonFinite);
        }
        match Self::single_tile(mesh, settings) {
            Err(DetourError::TooManyPolygons(_) | DetourError::TooManyVertices(_)) => {
                Self::tiled(mesh, settings)
            }
            Err(DetourError::CellSizeTooSmall { .. }) if settings.cell_size.is_none() => {
                Self::tiled(mesh, settings)
            }
            other => other,
        }
    }

    /// One tile: navstar's polygons split with [`split_mesh`], linked by navstar's
    /// topology.
    fn single_tile(mesh: &NavMesh, settings: &DetourSettings) -> Result<Self, DetourError> {
        let up = mesh.up_axis();
        let split = split_mesh(mesh, MAX_VERTS_PER_POLYGON);
        if split.pieces.len() > settings.max_tile_polygons.min(MAX_TILE_POLYGONS) {
            return Err(DetourError::TooManyPolygons(split.pieces.len()));
        }
        // Only the vertices that polygons use, renumbered.
        let mut remap = vec![u32::MAX; mesh.vertices().len()];
        let mut positions: Vec<[f32; 3]> = Vec::new();
        for piece in &split.pieces {
            for &v in piece {
                if remap[v as usize] == u32::MAX {
                    remap[v as usize] = positions.len() as u32;
                    positions.push(to_detour(up, mesh.vertices()[v as usize].to_array()));
                }
            }
        }
        if positions.len() > MAX_TILE_VERTICES {
            return Err(DetourError::TooManyVertices(positions.len()));
        }
        let (lo, hi) = bounds(&positions);
        let span = (hi[0] - lo[0]).max(hi[2] - lo[2]);
        let (cs, bmin) = grid_frame(lo, hi, span, settings)?;
        let mut verts = Vec::with_capacity(positions.len() * 3);
        let mut bmax = bmin;
        let mut quantisation_error = 0.0f32;
        for p in &positions {
            let cell = quantise(*p, bmin, cs);
            let back = dequantise(cell, bmin, cs);
            quantisation_error = quantisation_error.max(distance(*p, back));
            for axis in 0..3 {
                bmax[axis] = bmax[axis].max(back[axis]);
            }
            verts.extend(cell);
        }
        let mut polys = Vec::with_capacity(split.pieces.len() * 2 * MAX_VERTS_PER_POLYGON);
        for (piece, links) in split.pieces.iter().zip(&split.neighbours) {
            let corners: Vec<u16> = piece.iter().map(|&v| remap[v as usize] as u16).collect();
            let links: Vec<u16> = links
                .iter()
                .map(|&n| if n == NO_NEIGHBOUR { WALL } else { n as u16 })
                .collect();
            push_row(&mut polys, &corners, &links);
        }
        let tile_size = (bmax[0] - bmin[0]).max(bmax[2] - bmin[2]).max(cs);
        let tile = TileSpec {
            x: 0,
            z: 0,
            bmin,
            bmax,
            verts,
            polys,
            attributes: None,
        };
        let grid = GridParams {
            orig: bmin,
            tile_size,
            cs,
            ch: cs,
        };
        Self::assemble(vec![tile], grid, settings, up, quantisation_error)
    }

    /// A square grid of tiles, twice as many per side each time a tile overflows: every
    /// polygon is clipped to the tiles it overlaps, welded by quantised position, split to
    /// at most 6 corners, and linked inside its tile by shared edges; edges on a tile side
    /// that were open in navstar (or cut by the tile) become portals, which Detour links
    /// to the polygons of the next tile.
    fn tiled(mesh: &NavMesh, settings: &DetourSettings) -> Result<Self, DetourError> {
        let up = mesh.up_axis();
        let positions: Vec<[f32; 3]> = mesh
            .vertices()
            .iter()
            .map(|v| to_detour(up, v.to_array()))
            .collect();
        let used: Vec<[f32; 3]> = (0..mesh.polygon_count())
            .flat_map(|p| {
                mesh.polygon_vertices(p)
                    .iter()
                    .map(|&v| positions[v as usize])
            })
            .collect();
        let (lo, hi) = bounds(&used);
        let span = (hi[0] - lo[0]).max(hi[2] - lo[2]);
        let mut per_side = 2u32;
        loop {
            if per_side > 256 {
                return Err(DetourError::TooManyPolygons(mesh.polygon_count() as usize));
            }
            // A power-of-two tile size keeps tile sides on whole cells (and on integers
            // for grid meshes).
            let tile_size = power_of_two_cell(span.max(f32::MIN_POSITIVE) / per_side as f32, 1.0);
            let (cs, orig) = grid_frame(lo, hi, tile_size, settings)?;
            if tile_size < cs {
                return Err(DetourError::CellSizeTooSmall {
                    cell_size: cs,
                    extent: span,
                });
            }
            let count = |extent: f32| ((extent / tile_size).ceil() as i32).max(1);
            let (nx, nz) = (count(hi[0] - orig[0]), count(hi[2] - orig[2]));
            let mut clipped: Vec<Vec<Clipped>> = vec![Vec::new(); (nx * nz) as usize];
            for p in 0..mesh.polygon_count() {
                let corners = mesh.polygon_vertices(p);
                let links = mesh.polygon_neighbours(p);
                let poly = Clipped {
                    points: corners.iter().map(|&v| positions[v as usize]).collect(),
                    edges: links
                        .map(|n| match n {
                            None => EdgeKind::Wall,
                            Some(_) => EdgeKind::Open,
                        })
                        .collect(),
                };
                let (plo, phi) = bounds(&poly.points);
                let cell =
                    |v: f32, o: f32, n: i32| (((v - o) / tile_size).floor() as i32).clamp(0, n - 1);
                for tz in cell(plo[2], orig[2], nz)..=cell(phi[2], orig[2], nz) {
                    for tx in cell(plo[0], orig[0], nx)..=cell(phi[0], orig[0], nx) {
                        let (x0, z0) = (
                            orig[0] + tx as f32 * tile_size,
                            orig[2] + tz as f32 * tile_size,
                        );
                        let mut piece = clip(&poly, 0, x0, true);
                        piece = clip(&piece, 0, x0 + tile_size, false);
                        piece = clip(&piece, 2, z0, true);
                        piece = clip(&piece, 2, z0 + tile_size, false);
                        if piece.points.len() >= 3 {
                            clipped[(tz * nx + tx) as usize].push(piece);
                        }
                    }
                }
            }
            let mut tiles = Vec::new();
            let mut quantisation_error = 0.0f32;
            let mut overflow = false;
            for tz in 0..nz {
                for tx in 0..nx {
                    let polys = &clipped[(tz * nx + tx) as usize];
                    if polys.is_empty() {
                        continue;
                    }
                    let bmin = [
                        orig[0] + tx as f32 * tile_size,
                        orig[1],
                        orig[2] + tz as f32 * tile_size,
                    ];
                    let bmax = [
                        bmin[0] + tile_size,
                        hi[1].max(orig[1] + cs),
                        bmin[2] + tile_size,
                    ];
                    let frame = TileFrame {
                        x: tx,
                        z: tz,
                        bmin,
                        bmax,
                        cs,
                        tile_size,
                        max_polygons: settings.max_tile_polygons.min(MAX_TILE_POLYGONS),
                    };
                    match tile_spec(polys, &frame) {
                        Some((tile, error)) => {
                            quantisation_error = quantisation_error.max(error);
                            tiles.push(tile);
                        }
                        None => overflow = true,
                    }
                }
            }
            if overflow {
                per_side *= 2;
                continue;
            }
            let grid = GridParams {
                orig,
                tile_size,
                cs,
                ch: cs,
            };
            return Self::assemble(tiles, grid, settings, up, quantisation_error);
        }
    }

    /// Creates the tiles' data and the `dtNavMesh` holding them.
    fn assemble(
        tiles: Vec<TileSpec>,
        grid: GridParams,
        settings: &DetourSettings,
        up: UpAxis,
        quantisation_error: f32,
    ) -> Result<Self, DetourError> {
        let nvp = MAX_VERTS_PER_POLYGON;
        let max_polys = tiles
            .iter()
            .map(TileSpec::poly_count)
            .max()
            .unwrap_or(1)
            .max(1);
        let (max_x, max_z) = tiles
            .iter()
            .fold((0, 0), |(x, z), t| (x.max(t.x), z.max(t.z)));
        let GridParams {
            orig,
            tile_size,
            cs,
            ch,
        } = grid;
        let params = sys::dtNavMeshParams {
            orig,
            tileWidth: tile_size,
            tileHeight: tile_size,
            maxTiles: (max_x + 1) * (max_z + 1),
            maxPolys: max_polys as i32,
        };
        // SAFETY: plain allocation call without arguments.
        let nav = unsafe { sys::dtAllocNavMesh() };
        let nav = NonNull::new(nav).ok_or(DetourError::OutOfMemory("dtNavMesh"))?;
        // From here on the mesh is freed by Drop on every path.
        let mut out = DetourMesh {
            nav,
            up,
            cell_size: cs,
            polygon_count: tiles.iter().map(TileSpec::poly_count).sum(),
            quantisation_error,
            tile_count: tiles.len(),
            saved: saved::SavedTiles::new(params),
        };
        // SAFETY: `nav` is a fresh dtNavMesh and `params` a valid parameter block.
        let status = unsafe { sys::dtNavMesh_init(nav.as_ptr(), &params) };
        if status & sys::DT_SUCCESS == 0 {
            return Err(DetourError::Status("dtNavMesh::init", status));
        }
        for tile in &tiles {
            let count = tile.poly_count();
            let (areas, flags) = match &tile.attributes {
                Some((areas, flags)) => (areas.clone(), flags.clone()),
                None => (vec![0u8; count], vec![1u16; count]),
            };
            if areas.len() != count || flags.len() != count {
                return Err(DetourError::CreateDataFailed);
            }
            // SAFETY: `dtNavMeshCreateParams` is a plain C struct of pointers, numbers
            // and a bool, for which all-zero is a valid value (null pointers, zero
            // counts).
            let mut create: sys::dtNavMeshCreateParams = unsafe { std::mem::zeroed() };
            create.verts = tile.verts.as_ptr();
            create.vertCount = (tile.verts.len() / 3) as i32;
            create.polys = tile.polys.as_ptr();
            create.polyFlags = flags.as_ptr();
            create.polyAreas = areas.as_ptr();
            create.polyCount = count as i32;
            create.nvp = nvp as i32;
            create.tileX = tile.x;
            create.tileY = tile.z;
            create.bmin = tile.bmin;
            create.bmax = tile.bmax;
            create.walkableHeight = settings.agent_height;
            create.walkableRadius = settings.agent_radius;
            create.walkableClimb = settings.agent_max_climb;
            create.cs = cs;
            create.ch = ch;
            create.buildBvTree = true;
            let mut data: *mut u8 = ptr::null_mut();
            let mut size = 0i32;
            // SAFETY: every pointer in `create` points into a live Vec of the length the
            // counts announce (verts: 3 * vertCount, polys: 2 * nvp * polyCount, flags
            // and areas: polyCount); detail and off-mesh pointers are null with zero
            // counts, which Detour accepts. `data` and `size` are valid out-pointers.
            let created = unsafe { sys::dtCreateNavMeshData(&mut create, &mut data, &mut size) };
            if !created || data.is_null() {
                return Err(DetourError::CreateDataFailed);
            }
            // Kept before Detour owns it: the bytes a saved file holds.
            // SAFETY: dtCreateNavMeshData returned `size` initialised bytes at `data`.
            let bytes = unsafe { std::slice::from_raw_parts(data, size.max(0) as usize) }.to_vec();
            let mut tile_ref: sys::dtTileRef = 0;
            // SAFETY: `out.nav` is initialised; `data`/`size` come from
            // dtCreateNavMeshData. With DT_TILE_FREE_DATA the mesh owns `data` once the
            // tile is added and frees it itself; `tile_ref` is a valid out-pointer.
            let status = unsafe {
                sys::dtNavMesh_addTile(
                    out.nav.as_ptr(),
                    data,
                    size,
                    sys::dtTileFlags_DT_TILE_FREE_DATA as i32,
                    0,
                    &mut tile_ref,
                )
            };
            if status & sys::DT_SUCCESS == 0 {
                // SAFETY: the tile was not added, so `data` is still ours.
                unsafe { sys::dtFree(data.cast()) };
                return Err(DetourError::Status("dtNavMesh::addTile", status));
            }
            out.saved.push(tile_ref, bytes);
        }
        Ok(out)
    }

    /// Number of Detour polygons (after splitting).
    pub fn polygon_count(&self) -> usize {
        self.polygon_count
    }

    /// The quantisation cell size `cs` (also `ch`).
    pub fn cell_size(&self) -> f32 {
        self.cell_size
    }

    /// The largest distance any vertex moved when quantised (at most `cs * sqrt(3) / 2`).
    pub fn quantisation_error(&self) -> f32 {
        self.quantisation_error
    }

    /// Number of Detour tiles (1 unless the mesh is too big for one).
    pub fn tile_count(&self) -> usize {
        self.tile_count
    }

    /// Each tile Detour holds, read back from the `dtNavMesh`: its grid position
    /// `[x, z]` and its polygon count, in Detour's tile order.
    pub fn tile_polygon_counts(&self) -> Vec<([i32; 2], usize)> {
        // SAFETY: `nav` is an initialised dtNavMesh owned by `self`.
        let max_tiles = unsafe { sys::dtNavMesh_getMaxTiles(self.nav.as_ptr()) };
        let mut out = Vec::new();
        for i in 0..max_tiles {
            // SAFETY: `i` is below getMaxTiles; the tile (a slot of the mesh) lives as
            // long as the mesh and is only read here, while `self` is borrowed.
            let tile = unsafe { sys::dtNavMesh_getTile(self.nav.as_ptr(), i) };
            // SAFETY: a non-null tile pointer from getTile points to a live dtMeshTile;
            // its header is null for an empty slot and otherwise points into the tile's
            // data, owned by the mesh.
            let header = unsafe { tile.as_ref().and_then(|t| t.header.as_ref()) };
            if let Some(h) = header {
                out.push(([h.x, h.y], h.polyCount as usize));
            }
        }
        out
    }

    /// The up axis of the navstar mesh this was built from (the axis of the points
    /// [`DetourQuery::find_path`] takes and returns).
    pub fn up_axis(&self) -> UpAxis {
        self.up
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use navstar::MeshOptions;

    fn ground(points: &[(f64, f64)]) -> Vec<DVec2> {
        points.iter().map(|&(x, y)| DVec2::new(x, y)).collect()
    }

    #[test]
    fn split_keeps_small_polygons() {
        let g = ground(&[(0.0, 0.0), (1.0, 0.0), (1.0, 1.0)]);
        assert_eq!(split_convex(&[0, 1, 2], &g, 6), vec![vec![0, 1, 2]]);
    }

    #[test]
    fn split_avoids_zero_area_pieces() {
        // A 4 x 1 rectangle with collinear corners on both long sides: 10 corners.
        let pts = [
            (0.0, 0.0),
            (1.0, 0.0),
            (2.0, 0.0),
            (3.0, 0.0),
            (4.0, 0.0),
            (4.0, 1.0),
            (3.0, 1.0),
            (2.0, 1.0),
            (1.0, 1.0),
            (0.0, 1.0),
        ];
        let g = ground(&pts);
        let corners: Vec<u32> = (0..10).collect();
        for max in [3, 4, 6] {
            let pieces = split_convex(&corners, &g, max);
            let mut total = 0.0;
            for piece in &pieces {
                assert!(piece.len() <= max && piece.len() >= 3, "{pieces:?}");
                let a = area2(piece.iter().map(|&v| g[v as usize]));
                assert!(a > 0.0, "zero-area or clockwise piece {piece:?}");
                total += a;
            }
            assert!((total - 8.0).abs() < 1e-9, "pieces cover the polygon");
        }
    }

    #[test]
    fn split_mesh_links_pieces() {
        // An octagon next to a triangle: the octagon is cut, its pieces stay linked.
        let mut vertices: Vec<Vec3> = (0..8)
            .map(|i| {
                let a = std::f32::consts::TAU * i as f32 / 8.0;
                Vec3::new(a.cos(), 0.0, a.sin())
            })
            .collect();
        vertices.push(Vec3::new(2.0, 0.0, 0.3));
        let indices = [0, 1, 2, 3, 4, 5, 6, 7, 1, 0, 8];
        let mesh =
            NavMesh::from_polygons(&vertices, &indices, &[8, 3], &MeshOptions::default()).unwrap();
        let split = split_mesh(&mesh, 6);
        assert_eq!(split.pieces.len(), 3);
        let links: usize = split
            .neighbours
            .iter()
            .flatten()
            .filter(|&&n| n != NO_NEIGHBOUR)
            .count();
        // One cut diagonal and one original shared edge, each seen from both sides.
        assert_eq!(links, 4);
        for (i, ns) in split.neighbours.iter().enumerate() {
            for &n in ns.iter().filter(|&&n| n != NO_NEIGHBOUR) {
                assert!(split.neighbours[n as usize].contains(&(i as u32)));
            }
        }
    }

    #[test]
    fn cell_size_is_a_fitting_power_of_two() {
        assert_eq!(power_of_two_cell(512.0, 65534.0), 1.0 / 64.0);
        assert_eq!(power_of_two_cell(1.0e6, 65534.0), 16.0);
        assert_eq!(power_of_two_cell(65534.0, 65534.0), 1.0);
    }
}
