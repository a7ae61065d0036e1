//! Recast's tiled bakes and Detour's tiled navmesh, as RecastDemo's tile-mesh sample
//! builds them, and the same polygons exported for navstar.
//!
//! [`TiledBake::build`] cuts the level's grid (the soup's bounds, `cs` cells across) into
//! square tiles of [`TiledSettings::tile_size`] cells and runs Recast once per tile on the
//! triangles that overlap the tile and a border of `ceil(radius / cs) + 3` cells round it
//! (so erosion and regions see past the tile's sides, and both tiles of a side put their
//! contour corners at the same cells). Each non-empty polygon mesh becomes one Detour tile
//! (`dtCreateNavMeshData` with the tile's grid position, added to one `dtNavMesh` whose
//! `maxTiles` covers the grid); Detour links the tiles itself where their border edges
//! overlap.
//!
//! The same polygons are exported in world coordinates: one [`RecastTile`] per Detour
//! tile (a navstar mesh each, [`PolygonSet::to_navmesh`]), and all of them as one piece
//! ([`TiledBake::one_piece`]) with the tiles' vertices welded by cell, so that navstar's
//! builder, which joins polygons along shared edges, links the tiles as Detour does.
//!
//! Coordinates: a vertex at cell `(x, y, z)` of tile `(tx, tz)` is at global cell
//! `(tx * tile_size + x, y, tz * tile_size + z)`, in world units `origin + (gx * cs,
//! y * ch, gz * cs)`, computed the same way for every tile (so a corner two tiles share
//! has bit-identical coordinates in both). Areas: Recast's walkable area (63) becomes
//! area 0 with flags 1, as RecastDemo's ground polygons (other areas are kept, flags 1).

use std::collections::HashMap;

use navstar::glam::Vec3;
use navstar::{MeshError, MeshInput, MeshOptions, NavMesh, UpAxis};

use super::recast::{
    CellSettings, HeightfieldFrame, RawPolyMesh, check_soup, run_recast, soup_grid,
};
use super::{
    DetourError, DetourMesh, DetourSettings, GridParams, MAX_TILE_POLYGONS, MAX_VERTS_PER_POLYGON,
    NULL_INDEX, RecastSettings, TileSpec, sys,
};
use crate::formats::TriangleSoup;

/// Options of [`TiledBake::build`].
#[derive(Debug, Clone, PartialEq)]
pub struct TiledSettings {
    /// Recast's settings, as for a solo mesh.
    pub recast: RecastSettings,
    /// Side of a tile, in cells (`cs`); RecastDemo's default is 32.
    pub tile_size: i32,
}

impl Default for TiledSettings {
    /// RecastDemo's defaults: [`RecastSettings::default`] and tiles of 32 cells.
    fn default() -> Self {
        TiledSettings {
            recast: RecastSettings::default(),
            tile_size: 32,
        }
    }
}

/// Convex polygons with their area ids and flags, in world coordinates (Y up).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PolygonSet {
    /// Vertex positions.
    pub vertices: Vec<[f32; 3]>,
    /// Corner vertex indices of each polygon, in Recast's winding (clockwise in the
    /// (x, z) plane taken as first and second coordinates).
    pub polygons: Vec<Vec<u32>>,
    /// Area id of each polygon.
    pub areas: Vec<u8>,
    /// Flags of each polygon (Detour's 16-bit flags; navstar's are wider).
    pub flags: Vec<u16>,
}

impl PolygonSet {
    /// Builds a navstar mesh of these polygons with the usual builder (Y up, exact
    /// welding), with their areas and flags.
    ///
    /// # Errors
    /// The builder's [`MeshError`].
    pub fn to_navmesh(&self) -> Result<NavMesh, MeshError> {
        let vertices: Vec<Vec3> = self.vertices.iter().map(|&v| Vec3::from(v)).collect();
        let indices: Vec<u32> = self.polygons.iter().flatten().copied().collect();
        let sizes: Vec<u32> = self.polygons.iter().map(|p| p.len() as u32).collect();
        let flags: Vec<u32> = self.flags.iter().map(|&f| u32::from(f)).collect();
        let input = MeshInput::new(&vertices, &indices)
            .with_polygon_sizes(&sizes)
            .with_areas(&self.areas)
            .with_flags(&flags);
        NavMesh::from_input(&input, &MeshOptions::default().with_up_axis(UpAxis::Y))
    }
}

/// One tile of a [`TiledBake`]: the polygons of one Recast run, which are also one
/// Detour tile.
#[derive(Debug, Clone, PartialEq)]
pub struct RecastTile {
    /// Column (x) of the tile in the grid.
    pub x: i32,
    /// Row (z) of the tile in the grid.
    pub z: i32,
    /// The tile's polygons, in world coordinates.
    pub polygons: PolygonSet,
    /// Global cell coordinates of each vertex (see the module docs).
    cells: Vec<[i32; 3]>,
}

/// A level baked by Recast in tiles, as a Detour tiled navmesh and as polygons for
/// navstar (see the module docs).
#[derive(Debug)]
pub struct TiledBake {
    /// The settings it was built with.
    pub settings: TiledSettings,
    /// The lowest corner of the level's bounds: where tile (0, 0) starts.
    pub origin: [f32; 3],
    /// Tiles across (x) and down (z) the grid, empty ones included.
    pub grid: (i32, i32),
    /// The non-empty tiles, row after row (z, then x).
    pub tiles: Vec<RecastTile>,
    /// Detour's navmesh of the same tiles (one Detour tile per [`RecastTile`]).
    pub detour: DetourMesh,
}

impl TiledBake {
    /// Bakes `soup` (Y up) in tiles: one Recast run per tile (with a border), one Detour
    /// tile per non-empty polygon mesh.
    ///
    /// # Errors
    /// [`DetourError::Recast`] for a bad soup, a tile size below 1, more than 6 corners
    /// per polygon, or a failed Recast step; Detour's status when it refuses a tile or
    /// the grid (more tiles and polygons per tile than its 32-bit references hold).
    pub fn build(soup: &TriangleSoup, settings: &TiledSettings) -> Result<Self, DetourError> {
        check_soup(soup)?;
        let s = &settings.recast;
        let ts = settings.tile_size;
        if ts < 1 {
            return Err(DetourError::Recast("input (tile size below 1)"));
        }
        if !(3..=MAX_VERTS_PER_POLYGON as i32).contains(&s.verts_per_poly) {
            return Err(DetourError::Recast(
                "input (verts per polygon not in 3..=6)",
            ));
        }
        let (bmin, bmax, (width, height)) = soup_grid(soup, s.cell_size);
        let grid = ((width + ts - 1) / ts, (height + ts - 1) / ts);
        let border = CellSettings::new(s).walkable_radius + 3;
        let tile_world = ts as f32 * s.cell_size;
        let pad = border as f32 * s.cell_size;
        let tri_bounds: Vec<[f32; 4]> = soup
            .tris
            .chunks_exact(3)
            .map(|t| {
                let at = |i: usize, axis: usize| soup.verts[t[i] as usize * 3 + axis];
                [
                    at(0, 0).min(at(1, 0)).min(at(2, 0)),
                    at(0, 2).min(at(1, 2)).min(at(2, 2)),
                    at(0, 0).max(at(1, 0)).max(at(2, 0)),
                    at(0, 2).max(at(1, 2)).max(at(2, 2)),
                ]
            })
            .collect();
        let mut tiles = Vec::new();
        let mut specs = Vec::new();
        for tz in 0..grid.1 {
            for tx in 0..grid.0 {
                let lo = [
                    bmin[0] + tx as f32 * tile_world - pad,
                    bmin[1],
                    bmin[2] + tz as f32 * tile_world - pad,
                ];
                let hi = [
                    bmin[0] + (tx + 1) as f32 * tile_world + pad,
                    bmax[1],
                    bmin[2] + (tz + 1) as f32 * tile_world + pad,
                ];
                let tris: Vec<i32> = soup
                    .tris
                    .chunks_exact(3)
                    .zip(&tri_bounds)
                    .filter(|(_, b)| {
                        b[0] <= hi[0] && b[2] >= lo[0] && b[1] <= hi[2] && b[3] >= lo[2]
                    })
                    .flat_map(|(t, _)| t.iter().copied())
                    .collect();
                if tris.is_empty() {
                    continue;
                }
                let frame = HeightfieldFrame {
                    bmin: lo,
                    bmax: hi,
                    width: ts + 2 * border,
                    height: ts + 2 * border,
                    border,
                };
                let raw = run_recast(soup, &tris, &frame, s)?;
                if raw.polygon_count() == 0 {
                    continue;
                }
                let (tile, spec) = Self::tile(tx, tz, bmin, &raw, settings);
                tiles.push(tile);
                specs.push(spec);
            }
        }
        let detour_settings = DetourSettings {
            cell_size: Some(s.cell_size),
            agent_height: s.agent_height,
            agent_radius: s.agent_radius,
            agent_max_climb: s.agent_max_climb,
            max_tile_polygons: MAX_TILE_POLYGONS,
        };
        let params = GridParams {
            orig: bmin,
            tile_size: tile_world,
            cs: s.cell_size,
            ch: s.cell_height,
        };
        let detour = DetourMesh::assemble(specs, params, &detour_settings, UpAxis::Y, 0.0)?;
        Ok(TiledBake {
            settings: settings.clone(),
            origin: bmin,
            grid,
            tiles,
            detour,
        })
    }

    /// The export of one Recast run and its Detour tile data.
    fn tile(
        tx: i32,
        tz: i32,
        origin: [f32; 3],
        raw: &RawPolyMesh,
        settings: &TiledSettings,
    ) -> (RecastTile, TileSpec) {
        let (cs, ch) = (settings.recast.cell_size, settings.recast.cell_height);
        let ts = settings.tile_size;
        let cells: Vec<[i32; 3]> = raw
            .verts
            .chunks_exact(3)
            .map(|v| {
                [
                    tx * ts + i32::from(v[0]),
                    i32::from(v[1]),
                    tz * ts + i32::from(v[2]),
                ]
            })
            .collect();
        let areas: Vec<u8> = raw
            .areas
            .iter()
            .map(|&a| if a == sys::RC_WALKABLE_AREA { 0 } else { a })
            .collect();
        let flags = vec![1u16; areas.len()];
        let polygons = PolygonSet {
            vertices: cells
                .iter()
                .map(|&c| cell_position(origin, c, cs, ch))
                .collect(),
            polygons: raw.polygons(),
            areas: areas.clone(),
            flags: flags.clone(),
        };
        // Detour's rows have MAX_VERTS_PER_POLYGON corners and neighbours; Recast's have
        // `nvp` of each, padded with the same null index.
        let nvp = raw.nvp;
        let mut polys = Vec::with_capacity(raw.polygon_count() * 2 * MAX_VERTS_PER_POLYGON);
        for row in raw.polys.chunks_exact(2 * nvp) {
            for half in [&row[..nvp], &row[nvp..]] {
                polys.extend_from_slice(half);
                polys.resize(polys.len() + MAX_VERTS_PER_POLYGON - nvp, NULL_INDEX);
            }
        }
        let spec = TileSpec {
            x: tx,
            z: tz,
            bmin: raw.bmin,
            bmax: raw.bmax,
            verts: raw.verts.clone(),
            polys,
            attributes: Some((areas, flags)),
        };
        let tile = RecastTile {
            x: tx,
            z: tz,
            polygons,
            cells,
        };
        (tile, spec)
    }

    /// One navstar mesh per tile, in the order of [`TiledBake::tiles`].
    ///
    /// # Errors
    /// The builder's [`MeshError`] for the first tile it refuses.
    pub fn tile_meshes(&self) -> Result<Vec<NavMesh>, MeshError> {
        self.tiles.iter().map(|t| t.polygons.to_navmesh()).collect()
    }

    /// All tiles' polygons as one piece, in the order of the tiles, with the tiles'
    /// vertices welded by cell. Recast puts the corners along a tile side at the same
    /// cells in both tiles of the side (the border makes both runs see the same
    /// heightfield there), so welding joins the tiles where Detour links them; the peer
    /// tests check that no wall edges of two tiles overlap along a side.
    pub fn one_piece(&self) -> PolygonSet {
        let s = &self.settings.recast;
        let mut ids: HashMap<[i32; 3], u32> = HashMap::new();
        let mut cells: Vec<[i32; 3]> = Vec::new();
        let mut set = PolygonSet::default();
        for tile in &self.tiles {
            for polygon in &tile.polygons.polygons {
                let welded = polygon
                    .iter()
                    .map(|&v| {
                        let cell = tile.cells[v as usize];
                        *ids.entry(cell).or_insert_with(|| {
                            cells.push(cell);
                            (cells.len() - 1) as u32
                        })
                    })
                    .collect();
                set.polygons.push(welded);
            }
            set.areas.extend_from_slice(&tile.polygons.areas);
            set.flags.extend_from_slice(&tile.polygons.flags);
        }
        set.vertices = cells
            .iter()
            .map(|&c| cell_position(self.origin, c, s.cell_size, s.cell_height))
            .collect();
        set
    }

    /// The number of polygons of all tiles.
    pub fn polygon_count(&self) -> usize {
        self.tiles.iter().map(|t| t.polygons.polygons.len()).sum()
    }
}

/// The world position of global cell `c` (see the module docs).
fn cell_position(origin: [f32; 3], c: [i32; 3], cs: f32, ch: f32) -> [f32; 3] {
    [
        origin[0] + c[0] as f32 * cs,
        origin[1] + c[1] as f32 * ch,
        origin[2] + c[2] as f32 * cs,
    ]
}
