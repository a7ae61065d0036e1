//! Cutting a mesh into square tiles ([`NavMesh::cut_into_tiles`]): the pieces a world
//! of tiles is made of, for tests and tools that compare a tiled world with the mesh in
//! one piece.
//!
//! Every polygon is clipped against the squares of a grid laid over the mesh's bounds in
//! the ground plane (a convex polygon clipped by a square is convex). Points made by the
//! clipping are named by what made them (a polygon edge crossing a grid line, or a grid
//! corner), so the polygons on both sides of an edge get the same point, computed the same
//! way: in f64 from the whole edge, then rounded once, with the coordinate across the grid
//! line set to the line's own value. Heights are interpolated on the polygon's surface
//! (along the edge, or in the fan of triangles from its first corner); a polygon that is
//! not planar is clipped triangle by triangle of that fan, so the pieces keep its surface.
//! The pieces inside each tile are then merged on their own, greedily while convex (the
//! exact mode's merge, [`super::coarse`], kept to coplanar pieces of one area and flags),
//! and corners left straight on a wall are dropped, so neighbouring tiles' border edges
//! need not match one to one.

mod clip;
mod grid;
mod pieces;
mod points;

use std::collections::HashMap;

use glam::Vec2;

use super::NavMesh;
use super::links::OffMeshLink;
use crate::error::MeshError;
use clip::{Clipper, is_solid};
use grid::Grid;
use pieces::Pieces;
use points::{Key, KeyNames};

/// The most tiles [`NavMesh::cut_into_tiles`] makes: the grid over a mesh's bounds may
/// have at most this many squares.
pub const MAX_CUT_TILES: u32 = 1 << 16;

/// The smallest tile size, relative to the largest ground coordinate of the mesh: grid
/// lines closer than this would be a few f32 steps apart.
const MIN_RELATIVE_TILE_SIZE: f64 = 1.0 / (1u32 << 16) as f64;

/// Pieces whose area is below this fraction of their squared longest edge are slivers
/// made by rounding (a polygon that touches a grid line, or crosses it by next to
/// nothing); they are left out.
const MIN_RELATIVE_PIECE_AREA: f64 = 1e-10;

/// Points closer than this many f32 steps (at their coordinates) are "next to" each
/// other: the direction from one to the other is not reliable.
const NEAR_STEPS: f64 = 64.0;

/// Pieces at most this many f32 steps across are crumbs (see `is_solid`).
const CRUMB_STEPS: f64 = NEAR_STEPS;

/// Largest distance of a corner from the plane of its polygon, relative to the polygon's
/// size, for the polygon to be planar (cut whole, and merged with coplanar neighbours).
const PLANAR_TOLERANCE: f64 = 1e-6;

/// Largest height step, relative to the ground length of the edge it would join, of a
/// straight wall corner that is dropped.
const STRAIGHT_HEIGHT_TOLERANCE: f64 = 1e-5;

/// A mesh cut into square tiles by [`NavMesh::cut_into_tiles`].
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct TileCut {
    /// The side of a tile, in world units.
    pub tile_size: f32,
    /// The ground-plane corner of the grid (the low corner of the mesh's bounds): tile
    /// `(column, row)` covers `origin + [column, column + 1] * tile_size` along the
    /// ground plane's first axis and `[row, row + 1] * tile_size` along its second.
    pub origin: Vec2,
    /// Number of columns of the grid.
    pub columns: u32,
    /// Number of rows of the grid.
    pub rows: u32,
    /// The tiles that hold any polygon, row after row.
    pub tiles: Vec<CutTile>,
    /// The off-mesh links whose two ends fall in different tiles, each end where the
    /// mesh attached it (links with both ends in one tile are in that tile's mesh).
    pub links: Vec<OffMeshLink>,
    /// Per link of `links`: the index in `tiles` of the tile its start falls in.
    link_tiles: Vec<Option<usize>>,
}

impl TileCut {
    /// The links of [`TileCut::links`] whose start falls in `tiles[tile]`: what to give
    /// [`crate::World::add_tile_with_links`] with that tile.
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshInput, MeshOptions, NavMesh, OffMeshLink};
    ///
    /// // A 4 x 1 floor (y up) with a jump from x = 0.5 to x = 3.5, cut into tiles of side 2.
    /// let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// let vertices = [v(0.0, 0.0), v(4.0, 0.0), v(4.0, 1.0), v(0.0, 1.0)];
    /// let jump = [OffMeshLink::new(v(0.5, 0.5), v(3.5, 0.5))];
    /// let input = MeshInput::new(&vertices, &[0, 1, 2, 3]).with_polygon_sizes(&[4]).with_links(&jump);
    /// let cut = NavMesh::from_input(&input, &MeshOptions::default())?.cut_into_tiles(2.0)?;
    /// assert_eq!((cut.tiles.len(), cut.links.len()), (2, 1));
    /// assert_eq!((cut.links_from(0).len(), cut.links_from(1).len()), (1, 0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn links_from(&self, tile: usize) -> Vec<OffMeshLink> {
        self.links
            .iter()
            .zip(&self.link_tiles)
            .filter(|&(_, &t)| t == Some(tile))
            .map(|(link, _)| *link)
            .collect()
    }
}

/// One tile of a [`TileCut`].
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct CutTile {
    /// Its column in the grid.
    pub column: u32,
    /// Its row in the grid.
    pub row: u32,
    /// The low corner of its square, in the ground plane.
    pub min: Vec2,
    /// The high corner of its square, in the ground plane.
    pub max: Vec2,
    /// Its polygons, vertices in world coordinates, with the areas and flags of the
    /// polygons they were cut from and the links whose ends both fall in it.
    pub mesh: NavMesh,
}

impl NavMesh {
    /// Cuts the mesh into square tiles of side `tile_size` (world units, in the ground
    /// plane) on a grid starting at the low corner of the mesh's bounds.
    ///
    /// Each polygon is clipped against the squares (a polygon that is not planar, triangle
    /// by triangle of its surface); each piece keeps its polygon's area and current flags,
    /// and new corners get heights on the polygon's surface, so the tiles' surface is the
    /// mesh's. Inside a tile, neighbouring coplanar pieces of one area and flags are
    /// merged greedily while the union stays convex, and straight corners on walls are dropped, so the border edges
    /// of two neighbouring tiles need not match one to one (a world of tiles joins them
    /// where they overlap). Off-mesh links with both ends in one tile stay in it; the
    /// others are returned in [`TileCut::links`].
    ///
    /// # Errors
    /// [`MeshError::TileCut`] naming the tile size when it is not finite and > 0, when
    /// the grid over the mesh would have more than [`MAX_CUT_TILES`] squares, when it is
    /// finer than the mesh's coordinates can tell apart, when a degenerate connector
    /// crosses a tile border, when a tile cannot be built (the message names it), or when
    /// the mesh is a snapshot of a world of tiles.
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshOptions, NavMesh};
    ///
    /// // A 4 x 1 floor (y up) of two rectangles, cut into tiles of side 1.5.
    /// let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// let vertices = [v(0.0, 0.0), v(2.0, 0.0), v(4.0, 0.0), v(0.0, 1.0), v(2.0, 1.0), v(4.0, 1.0)];
    /// let mesh = NavMesh::from_polygons(&vertices, &[0, 1, 4, 3, 1, 2, 5, 4], &[4, 4], &MeshOptions::default())?;
    /// let cut = mesh.cut_into_tiles(1.5)?;
    /// assert_eq!((cut.columns, cut.rows, cut.tiles.len()), (3, 1, 3));
    /// // The middle tile, x from 1.5 to 3, holds one merged rectangle.
    /// let middle = &cut.tiles[1].mesh;
    /// assert_eq!(middle.polygon_count(), 1);
    /// assert!(middle.vertices().iter().all(|p| (1.5..=3.0).contains(&p.x)));
    /// assert!(mesh.cut_into_tiles(0.0).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn cut_into_tiles(&self, tile_size: f32) -> Result<TileCut, MeshError> {
        let fail = |reason: String| MeshError::TileCut { tile_size, reason };
        let mesh = self.data();
        if mesh.tiles.len() != 1 || mesh.local_bits != 32 {
            return Err(fail(
                "a snapshot of a world of tiles cannot be cut; cut the mesh it was made from"
                    .to_owned(),
            ));
        }
        let up = mesh.up;
        let (low, high) = (up.ground(mesh.bounds.min), up.ground(mesh.bounds.max));
        let grid = Grid::new(tile_size, low, high).map_err(fail)?;
        let columns = grid.count(0);
        let mut tiles: Vec<Pieces> = (0..grid.cell_count()).map(|_| Pieces::default()).collect();
        let has_links = mesh.links.count() > 0;
        // Per polygon (only when there are links to place): the cells holding its pieces.
        let mut pieces = Vec::new();
        let mut sides = HashMap::new();
        let mut same = Vec::new();
        let mut cells_of: Vec<Vec<u32>> = vec![
            Vec::new();
            if has_links {
                mesh.polygon_count() as usize
            } else {
                0
            }
        ];
        for p in 0..mesh.polygon_count() {
            let clipper = Clipper::new(mesh, &grid, p);
            let (lo, hi) = clipper.ground_box();
            if clipper.is_connector() {
                let cell = grid.cell_holding(lo, hi).ok_or_else(|| {
                    fail(format!(
                        "polygon {p} is a degenerate connector across a tile border"
                    ))
                })?;
                tiles[cell as usize].add_connector(mesh, p);
                if has_links {
                    cells_of[p as usize].push(cell);
                }
                continue;
            }
            let parts = clipper.parts();
            for row in grid.cells_over(1, lo.y, hi.y) {
                for column in grid.cells_over(0, lo.x, hi.x) {
                    for part in &parts {
                        let Some(points) = clipper.clip(part, column, row, &mut same) else {
                            continue;
                        };
                        clipper.note_sides(&points, &mut sides);
                        let cell = row * columns + column;
                        pieces.push((p, cell, points));
                        if has_links {
                            cells_of[p as usize].push(cell);
                        }
                    }
                }
            }
        }
        // Crossings rounded to the side of their edge that keeps straight corners
        // convex, the same for every piece that has them.
        let nudged: HashMap<Key, Vec2> = sides
            .into_iter()
            .filter_map(|(key, side)| Some((key, grid.round_to_side(mesh, key, side)?)))
            .collect();
        let names = KeyNames::new(&same);
        for (p, cell, mut points) in pieces {
            for point in &mut points {
                point.key = names.name(point.key);
                if let Some(&ground) = nudged.get(&point.key) {
                    point.ground = ground;
                }
            }
            if is_solid(&points) {
                tiles[cell as usize].add_piece(mesh, p, &points);
            }
        }
        let mut between = Vec::new();
        for attached in mesh.links.attached(0..mesh.polygon_count()) {
            let link = OffMeshLink {
                radius: tile_size,
                ..attached.link
            };
            let start = grid.end_cell(
                &cells_of[attached.start_polygon as usize],
                up.ground(link.start),
            );
            let end = grid.end_cell(
                &cells_of[attached.end_polygon as usize],
                up.ground(link.end),
            );
            if start == end {
                tiles[start as usize].links.push(link);
            } else {
                between.push((start, link));
            }
        }
        let mut out = Vec::new();
        let mut index_of_cell = vec![None; tiles.len()];
        for (cell, pieces) in tiles.into_iter().enumerate() {
            if pieces.sizes.is_empty() {
                continue;
            }
            index_of_cell[cell] = Some(out.len());
            let (column, row) = (cell as u32 % columns, cell as u32 / columns);
            let tile = pieces
                .build(up)
                .map_err(|e| fail(format!("tile ({column}, {row}) could not be built: {e}")))?;
            let (min, max) = grid.square(column, row);
            out.push(CutTile {
                column,
                row,
                min,
                max,
                mesh: tile,
            });
        }
        Ok(TileCut {
            tile_size,
            origin: low,
            columns,
            rows: grid.count(1),
            tiles: out,
            link_tiles: between
                .iter()
                .map(|&(cell, _)| index_of_cell[cell as usize])
                .collect(),
            links: between.into_iter().map(|(_, link)| link).collect(),
        })
    }
}
