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

use std::collections::HashMap;
use std::ops::RangeInclusive;

use glam::{DVec2, Vec2, Vec3};

use super::build::{self, Extras, MeshOptions, PolygonSizes};
use super::coarse::merge;
use super::links::OffMeshLink;
use super::{MeshData, MeshInput, NavMesh};
use crate::error::MeshError;
use crate::geometry::UpAxis;

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

/// The grid lines, as f32 values: every point made on a line has exactly its value.
struct Grid {
    /// `lines[axis][k]`: the k-th line across ground axis `axis` (0 or 1), increasing.
    lines: [Vec<f32>; 2],
}

impl Grid {
    /// The grid of squares of side `size` from `low` that covers `high`, or why not.
    fn new(size: f32, low: Vec2, high: Vec2) -> Result<Grid, String> {
        if !(size.is_finite() && size > 0.0) {
            return Err("the tile size must be a finite number > 0".into());
        }
        let size = f64::from(size);
        let extent = (high - low).as_dvec2();
        let counts = [
            (extent.x / size).ceil().max(1.0),
            (extent.y / size).ceil().max(1.0),
        ];
        let cells = counts[0] * counts[1];
        if cells > f64::from(MAX_CUT_TILES) {
            return Err(format!(
                "the grid over the mesh's bounds ({} x {}) would have {cells} tiles, more than the limit {MAX_CUT_TILES}",
                extent.x, extent.y
            ));
        }
        let largest = f64::from(low.abs().max(high.abs()).max_element());
        if size < largest * MIN_RELATIVE_TILE_SIZE {
            return Err(format!(
                "tiles finer than {} cannot be told apart at coordinates up to {largest}",
                largest * MIN_RELATIVE_TILE_SIZE
            ));
        }
        let axis_lines = |axis: usize, count: f64| {
            let start = f64::from(low[axis]);
            let line = |k: usize| (start + k as f64 * size) as f32;
            let mut count = count as usize;
            // Rounding may leave the last line short of the bounds: add a square.
            while line(count) < high[axis] {
                count += 1;
            }
            (0..=count).map(line).collect::<Vec<f32>>()
        };
        let lines = [axis_lines(0, counts[0]), axis_lines(1, counts[1])];
        if lines[0].len() as u64 * lines[1].len() as u64 > 4 * u64::from(MAX_CUT_TILES) {
            return Err("the grid lines could not be placed".into());
        }
        Ok(Grid { lines })
    }

    /// The number of squares along `axis`.
    fn count(&self, axis: usize) -> u32 {
        self.lines[axis].len() as u32 - 1
    }

    fn cell_count(&self) -> u32 {
        self.count(0) * self.count(1)
    }

    /// The squares along `axis` whose closed span meets `[lo, hi]`.
    fn cells_over(&self, axis: usize, lo: f32, hi: f32) -> RangeInclusive<u32> {
        let lines = &self.lines[axis];
        let first = lines.partition_point(|&l| l < lo).saturating_sub(1);
        let last = lines.partition_point(|&l| l <= hi).saturating_sub(1);
        first as u32..=(last as u32).min(self.count(axis) - 1)
    }

    /// The low and high corners of square `(column, row)`.
    fn square(&self, column: u32, row: u32) -> (Vec2, Vec2) {
        let (x, y) = (column as usize, row as usize);
        (
            Vec2::new(self.lines[0][x], self.lines[1][y]),
            Vec2::new(self.lines[0][x + 1], self.lines[1][y + 1]),
        )
    }

    /// The square holding the whole box `[lo, hi]`, if one does.
    fn cell_holding(&self, lo: Vec2, hi: Vec2) -> Option<u32> {
        let column = *self.cells_over(0, lo.x, hi.x).start();
        let row = *self.cells_over(1, lo.y, hi.y).start();
        let (min, max) = self.square(column, row);
        (min.cmple(lo).all() && hi.cmple(max).all()).then_some(row * self.count(0) + column)
    }

    /// The position of crossing `key` rounded to f32 on side `side` of its edge (see
    /// [`Clipper::note_sides`]), or `None` to keep the nearest rounding (no side asked,
    /// or the rounding lands on a grid line across).
    fn round_to_side(&self, mesh: &MeshData, key: Key, side: i8) -> Option<Vec2> {
        let Key::Crossing {
            low,
            high,
            axis,
            line,
        } = key
        else {
            return None;
        };
        if side == 0 {
            return None;
        }
        let axis = axis as usize;
        let value = self.lines[axis][line as usize];
        let (exact, _) = exact_crossing(mesh, low, high, axis, value);
        let other = 1 - axis;
        let nearest = exact[other] as f32;
        if self.lines[other]
            .binary_search_by(|l| l.total_cmp(&nearest))
            .is_ok()
        {
            return None;
        }
        let (g0, g1) = (
            mesh.ground[low as usize].as_dvec2(),
            mesh.ground[high as usize].as_dvec2(),
        );
        // Next to an end of the edge, other crossings of edges through that end may be a
        // step away: moving it could put it past them.
        let close = NEAR_STEPS * rounding_step(exact.as_vec2());
        if exact.distance(g0) <= close || exact.distance(g1) <= close {
            return None;
        }
        [nearest, next_f32(nearest, false), next_f32(nearest, true)]
            .into_iter()
            .map(|c| {
                let mut g = Vec2::ZERO;
                g[axis] = value;
                g[other] = c;
                g
            })
            .filter(|g| f64::from(side) * (g1 - g0).perp_dot(g.as_dvec2() - g0) >= 0.0)
            .min_by(|a, b| {
                let d = |g: &Vec2| (f64::from(g[other]) - exact[other]).abs();
                d(a).total_cmp(&d(b))
            })
    }

    /// The cell a link end at `point` falls in, among `cells` (those holding pieces of
    /// its polygon): the first whose square is nearest to it.
    fn end_cell(&self, cells: &[u32], point: Vec2) -> u32 {
        let columns = self.count(0);
        let gap = |cell: u32| {
            let (min, max) = self.square(cell % columns, cell / columns);
            let p = point.as_dvec2();
            (p - p.clamp(min.as_dvec2(), max.as_dvec2())).length_squared()
        };
        cells
            .iter()
            .copied()
            .min_by(|&a, &b| gap(a).total_cmp(&gap(b)))
            .unwrap_or_else(|| {
                let column = *self.cells_over(0, point.x, point.x).end();
                let row = *self.cells_over(1, point.y, point.y).end();
                row * columns + column
            })
    }
}

/// What a point of a piece is, so that the pieces on both sides of an edge name (and
/// compute) their shared points alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Key {
    /// A vertex of the mesh.
    Vertex(u32),
    /// Where the edge between mesh vertices `low < high` crosses grid line `line` across
    /// ground axis `axis`.
    Crossing {
        low: u32,
        high: u32,
        axis: u8,
        line: u32,
    },
    /// A corner of the grid inside a polygon (each polygon has its own: polygons stacked
    /// on several floors have it at their own heights).
    Corner { column: u32, row: u32, polygon: u32 },
}

/// One name for keys found at one position: each key's name is the root of its set
/// (union-find over the pairs of keys dropped for standing on one another).
struct KeyNames {
    parent: HashMap<Key, Key>,
}

impl KeyNames {
    fn new(same: &[(Key, Key)]) -> KeyNames {
        let mut names = KeyNames {
            parent: HashMap::new(),
        };
        for &(kept, dropped) in same {
            let (a, b) = (names.name(kept), names.name(dropped));
            if a != b {
                names.parent.insert(b, a);
            }
        }
        names
    }

    fn name(&self, mut key: Key) -> Key {
        while let Some(&up) = self.parent.get(&key) {
            key = up;
        }
        key
    }
}

/// The line a piece's edge lies on: a mesh edge, or a grid line.
#[derive(Debug, Clone, Copy)]
enum Support {
    Edge(u32, u32),
    Line { axis: usize, line: u32 },
}

/// A corner of a piece being clipped, with the line of the edge to the next corner.
#[derive(Debug, Clone, Copy)]
struct Point {
    key: Key,
    /// The position, rounded to f32 (a crossing's coordinate across its line is the
    /// line's own value).
    ground: Vec2,
    /// The position before rounding.
    exact: DVec2,
    height: f32,
    next: Support,
}

/// Clips one polygon of a mesh against the grid's squares.
struct Clipper<'a> {
    mesh: &'a MeshData,
    grid: &'a Grid,
    polygon: u32,
    corners: &'a [u32],
}

impl<'a> Clipper<'a> {
    fn new(mesh: &'a MeshData, grid: &'a Grid, polygon: u32) -> Clipper<'a> {
        Clipper {
            mesh,
            grid,
            polygon,
            corners: &mesh.corners[mesh.corner_range(polygon)],
        }
    }

    fn ground(&self, v: u32) -> Vec2 {
        self.mesh.ground[v as usize]
    }

    fn height(&self, v: u32) -> f32 {
        self.mesh.up.height(self.mesh.vertices[v as usize])
    }

    /// The polygon's box in the ground plane.
    fn ground_box(&self) -> (Vec2, Vec2) {
        self.corners.iter().fold(
            (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY)),
            |(lo, hi), &v| (lo.min(self.ground(v)), hi.max(self.ground(v))),
        )
    }

    /// What is clipped of the polygon: the polygon itself when it is planar, else the
    /// triangles of its surface (the fan from its first corner), so that the pieces keep
    /// the surface exactly. Fan triangles without area are left out.
    fn parts(&self) -> Vec<Vec<u32>> {
        let point = |v: u32| self.mesh.vertices[v as usize].as_dvec3();
        let corners = self.corners;
        let v0 = point(corners[0]);
        let extent = corners
            .iter()
            .map(|&v| (point(v) - v0).length())
            .fold(0.0, f64::max);
        let mut normal = glam::DVec3::ZERO;
        for pair in corners[1..].windows(2) {
            normal += (point(pair[0]) - v0).cross(point(pair[1]) - v0);
        }
        let normal = normal.normalize_or_zero();
        let planar = corners
            .iter()
            .all(|&v| normal.dot(point(v) - v0).abs() <= PLANAR_TOLERANCE * extent);
        if planar || corners.len() == 3 {
            return vec![corners.to_vec()];
        }
        corners[1..]
            .windows(2)
            .map(|pair| vec![corners[0], pair[0], pair[1]])
            .filter(|t| {
                let g: Vec<DVec2> = t.iter().map(|&v| self.ground(v).as_dvec2()).collect();
                doubled_area(&g) > 0.0
            })
            .collect()
    }

    /// Whether the polygon has no area in the ground plane (a degenerate connector).
    fn is_connector(&self) -> bool {
        let points: Vec<DVec2> = self
            .corners
            .iter()
            .map(|&v| self.ground(v).as_dvec2())
            .collect();
        doubled_area(&points) <= 0.0
    }

    /// The piece of the polygon inside square `(column, row)`, counter-clockwise, or
    /// `None` when it has no area there.
    /// Points dropped for standing where another point of the piece stands are
    /// reported in `same`, as (kept, dropped).
    fn clip(
        &self,
        part: &[u32],
        column: u32,
        row: u32,
        same: &mut Vec<(Key, Key)>,
    ) -> Option<Vec<Point>> {
        let n = part.len();
        let mut piece: Vec<Point> = (0..n)
            .map(|i| {
                let v = part[i];
                Point {
                    key: Key::Vertex(v),
                    ground: self.ground(v),
                    exact: self.ground(v).as_dvec2(),
                    height: self.height(v),
                    next: Support::Edge(v, part[(i + 1) % n]),
                }
            })
            .collect();
        for (axis, line, keep_above) in [
            (0, column, true),
            (0, column + 1, false),
            (1, row, true),
            (1, row + 1, false),
        ] {
            piece = self.clip_by(&piece, axis, line, keep_above);
            if piece.len() < 3 {
                return None;
            }
        }
        // Points made from different edges may round to one position (next to a
        // vertex outside the square): keep one, and name both alike in every piece.
        let mut i = 0;
        while piece.len() > 1 && i < piece.len() {
            let j = (i + 1) % piece.len();
            if piece[i].ground == piece[j].ground {
                same.push((piece[i].key, piece[j].key));
                piece.remove(j);
            } else {
                i += 1;
            }
        }
        collapse_crossings_at_vertices(&mut piece);
        is_solid(&piece).then_some(piece)
    }

    /// Notes, for each crossing of `piece` next to an end of its edge where the piece
    /// turns almost straight on (so that rounding the crossing to the wrong side of its
    /// edge would make the corner turn the wrong way), the side of the edge the piece
    /// lies on: `sides[key]` is 1 for the left of the edge from its lower vertex to its
    /// higher, -1 for the right, 0 when pieces on both sides need it.
    fn note_sides(&self, piece: &[Point], sides: &mut HashMap<Key, i8>) {
        let n = piece.len();
        for (i, c) in piece.iter().enumerate() {
            let Key::Crossing { low, high, .. } = c.key else {
                continue;
            };
            for after in [true, false] {
                // `o, v, c` when the crossing comes after the vertex, `c, v, o` before.
                let (j, k) = if after {
                    ((i + n - 1) % n, (i + n - 2) % n)
                } else {
                    ((i + 1) % n, (i + 2) % n)
                };
                let Key::Vertex(v) = piece[j].key else {
                    continue;
                };
                if v != low && v != high {
                    continue;
                }
                let (vp, op, cp) = (piece[j].exact, piece[k].exact, c.exact);
                let (first, second) = if after {
                    (vp - op, cp - vp)
                } else {
                    (vp - cp, op - vp)
                };
                let sine = first.perp_dot(second) / (first.length() * second.length());
                let step = rounding_step(c.ground);
                if sine >= 4.0 * step / vp.distance(cp) + 1e-6 {
                    continue;
                }
                // The piece lies left of the way it walks the edge.
                let walks_up = (v == low) == after;
                let side = if walks_up { 1 } else { -1 };
                sides
                    .entry(c.key)
                    .and_modify(|s| {
                        if *s != side {
                            *s = 0;
                        }
                    })
                    .or_insert(side);
            }
        }
    }

    /// One step of Sutherland-Hodgman: the part of `piece` on the kept side of grid line
    /// `line` across `axis` (the points on the line are kept).
    fn clip_by(&self, piece: &[Point], axis: usize, line: u32, keep_above: bool) -> Vec<Point> {
        let value = self.grid.lines[axis][line as usize];
        let side = |p: &Point| {
            // -0.0 and 0.0 compare equal here, as they must.
            let s = p.ground[axis].partial_cmp(&value).map_or(0, |o| o as i8);
            if keep_above { s } else { -s }
        };
        let on_line = Support::Line { axis, line };
        let n = piece.len();
        let mut out = Vec::with_capacity(n + 2);
        for i in 0..n {
            let (current, next) = (piece[i], piece[(i + 1) % n]);
            let (sc, sn) = (side(&current), side(&next));
            if sc >= 0 {
                if sn < 0 && sc == 0 {
                    out.push(Point {
                        next: on_line,
                        ..current
                    });
                } else {
                    out.push(current);
                    if sn < 0 {
                        out.push(Point {
                            next: on_line,
                            ..self.crossing(current.next, axis, line)
                        });
                    }
                }
            } else if sn > 0 {
                out.push(Point {
                    next: current.next,
                    ..self.crossing(current.next, axis, line)
                });
            }
        }
        out
    }

    /// Where an edge on `support` crosses grid line `line` across `axis`.
    fn crossing(&self, support: Support, axis: usize, line: u32) -> Point {
        let value = self.grid.lines[axis][line as usize];
        match support {
            Support::Edge(a, b) => {
                // From the whole edge, its ends in a fixed order: the polygon across it
                // computes the same point.
                let (low, high) = (a.min(b), a.max(b));
                let (exact, t) = exact_crossing(self.mesh, low, high, axis, value);
                let mut ground = exact.as_vec2();
                ground[axis] = value;
                let (h0, h1) = (f64::from(self.height(low)), f64::from(self.height(high)));
                Point {
                    key: Key::Crossing {
                        low,
                        high,
                        axis: axis as u8,
                        line,
                    },
                    ground,
                    exact,
                    height: (h0 + (h1 - h0) * t) as f32,
                    next: support,
                }
            }
            Support::Line {
                axis: other,
                line: other_line,
            } => {
                debug_assert_ne!(other, axis, "parallel grid lines do not cross");
                let (column, row) = if axis == 0 {
                    (line, other_line)
                } else {
                    (other_line, line)
                };
                let ground = Vec2::new(
                    self.grid.lines[0][column as usize],
                    self.grid.lines[1][row as usize],
                );
                Point {
                    key: Key::Corner {
                        column,
                        row,
                        polygon: self.polygon,
                    },
                    ground,
                    exact: ground.as_dvec2(),
                    height: self.surface_height(ground),
                    next: support,
                }
            }
        }
    }

    /// The height of the polygon's surface (the fan of triangles from its first corner)
    /// at `ground`, from the triangle that holds it best.
    fn surface_height(&self, ground: Vec2) -> f32 {
        let p = ground.as_dvec2();
        let v0 = self.corners[0];
        let (g0, h0) = (self.ground(v0).as_dvec2(), f64::from(self.height(v0)));
        let mut best = (f64::NEG_INFINITY, h0);
        for pair in self.corners[1..].windows(2) {
            let (g1, g2) = (
                self.ground(pair[0]).as_dvec2(),
                self.ground(pair[1]).as_dvec2(),
            );
            let area = (g1 - g0).perp_dot(g2 - g0);
            if area <= 0.0 {
                continue;
            }
            let w1 = (p - g0).perp_dot(g2 - g0) / area;
            let w2 = (g1 - g0).perp_dot(p - g0) / area;
            let w0 = 1.0 - w1 - w2;
            let worst = w0.min(w1).min(w2);
            if worst > best.0 {
                let (h1, h2) = (
                    f64::from(self.height(pair[0])),
                    f64::from(self.height(pair[1])),
                );
                best = (worst, w0 * h0 + w1 * h1 + w2 * h2);
            }
        }
        best.1 as f32
    }
}

/// The f32 next to finite `x`, above it when `up`, else below.
fn next_f32(x: f32, up: bool) -> f32 {
    if x == 0.0 {
        let tiny = f32::from_bits(1);
        return if up { tiny } else { -tiny };
    }
    let bits = x.to_bits();
    // Away from zero, the bits of the magnitude count up.
    f32::from_bits(if (x > 0.0) == up { bits + 1 } else { bits - 1 })
}

/// The spacing of f32 values near `p`.
fn rounding_step(p: Vec2) -> f64 {
    f64::from(p.abs().max_element().max(f32::MIN_POSITIVE)) * f64::from(f32::EPSILON)
}

/// Where the edge between mesh vertices `low` and `high` crosses the line `axis` =
/// `value`, unrounded, and how far along the edge (0 at `low`).
fn exact_crossing(mesh: &MeshData, low: u32, high: u32, axis: usize, value: f32) -> (DVec2, f64) {
    let (g0, g1) = (
        mesh.ground[low as usize].as_dvec2(),
        mesh.ground[high as usize].as_dvec2(),
    );
    let t = ((f64::from(value) - g0[axis]) / (g1[axis] - g0[axis])).clamp(0.0, 1.0);
    let mut exact = g0 + (g1 - g0) * t;
    exact[axis] = f64::from(value);
    (exact, t)
}

/// Crossings a few f32 steps from an end of their edge in the piece: the short edge
/// between them has no reliable direction, so the crossing is left out (the piece runs
/// from the vertex straight on). Every piece holding both points decides alike.
fn collapse_crossings_at_vertices(piece: &mut Vec<Point>) {
    let mut i = 0;
    while piece.len() > 3 && i < piece.len() {
        let n = piece.len();
        let near_end = match piece[i].key {
            Key::Crossing { low, high, .. } => [(i + n - 1) % n, (i + 1) % n].iter().any(|&j| {
                matches!(piece[j].key, Key::Vertex(v) if v == low || v == high)
                    && piece[j].exact.distance(piece[i].exact)
                        <= NEAR_STEPS * rounding_step(piece[i].ground)
            }),
            _ => false,
        };
        if near_end {
            piece.remove(i);
        } else {
            i += 1;
        }
    }
}

/// Whether a piece has at least 3 corners, no two consecutive ones at one position, an
/// area (it is no sliver, see [`MIN_RELATIVE_PIECE_AREA`]), and a size: a crumb a few
/// f32 steps across (a polygon reaching past a grid corner by next to nothing) could
/// join no neighbouring tile and would stand alone as an island of its own.
fn is_solid(piece: &[Point]) -> bool {
    let n = piece.len();
    if n < 3 || (0..n).any(|i| piece[i].ground == piece[(i + 1) % n].ground) {
        return false;
    }
    let points: Vec<DVec2> = piece.iter().map(|p| p.ground.as_dvec2()).collect();
    let (lo, hi) = points.iter().fold(
        (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY)),
        |(lo, hi), &p| (lo.min(p), hi.max(p)),
    );
    if (hi - lo).max_element() <= CRUMB_STEPS * rounding_step(piece[0].ground) {
        return false;
    }
    let longest = (0..n)
        .map(|i| points[i].distance_squared(points[(i + 1) % n]))
        .fold(0.0, f64::max);
    doubled_area(&points) > longest * MIN_RELATIVE_PIECE_AREA
}

/// Twice the signed area of a polygon.
fn doubled_area(points: &[DVec2]) -> f64 {
    let n = points.len();
    (0..n)
        .map(|i| points[i].perp_dot(points[(i + 1) % n]))
        .sum()
}

/// The pieces that fall in one tile, as mesh input.
#[derive(Default)]
struct Pieces {
    index_of: HashMap<Key, u32>,
    vertices: Vec<Vec3>,
    indices: Vec<u32>,
    sizes: Vec<u32>,
    areas: Vec<u8>,
    flags: Vec<u32>,
    links: Vec<OffMeshLink>,
    connectors: bool,
}

impl Pieces {
    /// The tile's vertex for `key` (at `position` when new).
    fn vertex(&mut self, key: Key, position: impl FnOnce() -> Vec3) -> u32 {
        *self.index_of.entry(key).or_insert_with(|| {
            self.vertices.push(position());
            self.vertices.len() as u32 - 1
        })
    }

    fn add_piece(&mut self, mesh: &MeshData, polygon: u32, piece: &[Point]) {
        for point in piece {
            let index = self.vertex(point.key, || match point.key {
                Key::Vertex(v) => mesh.vertices[v as usize],
                _ => mesh.up.place(point.ground, point.height),
            });
            self.indices.push(index);
        }
        self.close_polygon(mesh, polygon, piece.len());
    }

    /// A degenerate connector, whole.
    fn add_connector(&mut self, mesh: &MeshData, polygon: u32) {
        let corners = &mesh.corners[mesh.corner_range(polygon)];
        for &v in corners {
            let index = self.vertex(Key::Vertex(v), || mesh.vertices[v as usize]);
            self.indices.push(index);
        }
        self.connectors = true;
        self.close_polygon(mesh, polygon, corners.len());
    }

    /// Per piece: its plane (unit normal, offset) and how far from it a point may be to
    /// lie on it.
    fn planes(&self) -> Vec<(glam::DVec3, f64, f64)> {
        let mut start = 0;
        self.sizes
            .iter()
            .map(|&n| {
                let corners = &self.indices[start..start + n as usize];
                start += n as usize;
                let point =
                    |i: usize| self.vertices[corners[i % corners.len()] as usize].as_dvec3();
                // Newell's normal: right for any planar polygon, whatever its corners.
                let mut normal = glam::DVec3::ZERO;
                let mut centre = glam::DVec3::ZERO;
                let mut extent = 0.0f64;
                for i in 0..corners.len() {
                    normal += point(i).cross(point(i + 1));
                    centre += point(i);
                    extent = extent.max(point(i).abs().max_element());
                }
                let normal = normal.normalize_or_zero();
                let centre = centre / corners.len() as f64;
                let tolerance = NEAR_STEPS * f64::from(f32::EPSILON) * extent.max(1.0);
                (normal, normal.dot(centre), tolerance)
            })
            .collect()
    }

    fn close_polygon(&mut self, mesh: &MeshData, polygon: u32, size: usize) {
        self.sizes.push(size as u32);
        self.areas.push(mesh.areas[polygon as usize]);
        self.flags.push(mesh.flags_of(polygon));
    }

    /// The tile: the pieces merged, straight wall corners dropped, unused vertices
    /// left out.
    fn build(self, up: UpAxis) -> Result<NavMesh, MeshError> {
        let options = MeshOptions::default()
            .with_up_axis(up)
            .with_weld_vertices(false)
            .with_allow_degenerate_connectors(self.connectors);
        let pieces = build::build(
            &self.vertices,
            &self.indices,
            PolygonSizes::Listed(&self.sizes),
            &options,
            &Extras::default(),
        )?;
        let planes = self.planes();
        let starts: Vec<usize> = self
            .sizes
            .iter()
            .scan(0, |at, &n| {
                let start = *at;
                *at += n as usize;
                Some(start)
            })
            .collect();
        let on_plane = |plane: (glam::DVec3, f64, f64), q: usize| {
            let (normal, offset, tolerance) = plane;
            self.indices[starts[q]..starts[q] + self.sizes[q] as usize]
                .iter()
                .all(|&v| {
                    (normal.dot(self.vertices[v as usize].as_dvec3()) - offset).abs() <= tolerance
                })
        };
        // Pieces of one area and flags, on one plane: the merged polygon's surface is
        // theirs.
        let same_kind = |p: u32, q: u32| {
            let (p, q) = (p as usize, q as usize);
            self.areas[p] == self.areas[q]
                && self.flags[p] == self.flags[q]
                && on_plane(planes[p], q)
                && on_plane(planes[q], p)
        };
        let (indices, sizes, of_piece) = merge(&pieces, same_kind);
        let mut areas = vec![0; sizes.len()];
        let mut flags = vec![0; sizes.len()];
        for (piece, &merged) in of_piece.iter().enumerate() {
            areas[merged as usize] = self.areas[piece];
            flags[merged as usize] = self.flags[piece];
        }
        let mut cycles = Vec::with_capacity(sizes.len());
        let mut start = 0;
        for &size in &sizes {
            cycles.push(indices[start..start + size as usize].to_vec());
            start += size as usize;
        }
        drop_straight_wall_corners(&pieces, &mut cycles);
        // Only the vertices still used, in order of first use.
        let mut new_index = vec![u32::MAX; self.vertices.len()];
        let mut vertices = Vec::new();
        let mut indices = Vec::with_capacity(indices.len());
        for &v in cycles.iter().flatten() {
            if new_index[v as usize] == u32::MAX {
                new_index[v as usize] = vertices.len() as u32;
                vertices.push(self.vertices[v as usize]);
            }
            indices.push(new_index[v as usize]);
        }
        let sizes: Vec<u32> = cycles.iter().map(|c| c.len() as u32).collect();
        let input = MeshInput::new(&vertices, &indices)
            .with_polygon_sizes(&sizes)
            .with_areas(&areas)
            .with_flags(&flags)
            .with_links(&self.links);
        NavMesh::from_input(&input, &options)
    }
}

/// Drops from `cycles` (polygons over `mesh`'s vertices, counter-clockwise) the corners
/// that only one polygon uses (both their edges are walls) and where the wall runs
/// straight on in the ground plane, its height too: after merging, the tile border's
/// corners that only joined two merged pieces. Every polygon keeps at least 3 corners.
fn drop_straight_wall_corners(mesh: &MeshData, cycles: &mut [Vec<u32>]) {
    let vertex_count = cycles.iter().flatten().max().map_or(0, |&v| v as usize + 1);
    let mut uses = vec![0u32; vertex_count];
    for &v in cycles.iter().flatten() {
        uses[v as usize] += 1;
    }
    let straight = |a: u32, v: u32, b: u32| {
        let ground = |v: u32| mesh.ground[v as usize].as_dvec2();
        let height = |v: u32| f64::from(mesh.up.height(mesh.vertices[v as usize]));
        let (ga, gv, gb) = (ground(a), ground(v), ground(b));
        let (d1, d2) = (gv - ga, gb - gv);
        if d1.perp_dot(d2) != 0.0 || d1.dot(d2) <= 0.0 {
            return false;
        }
        let length = ga.distance(gb);
        let t = d1.length() / length;
        let expected = height(a) + (height(b) - height(a)) * t;
        (height(v) - expected).abs() <= STRAIGHT_HEIGHT_TOLERANCE * length
    };
    for cycle in cycles.iter_mut() {
        let mut i = 0;
        while cycle.len() > 3 && i < cycle.len() {
            let n = cycle.len();
            let (a, v, b) = (cycle[(i + n - 1) % n], cycle[i], cycle[(i + 1) % n]);
            if uses[v as usize] == 1 && straight(a, v, b) {
                cycle.remove(i);
                // The corner before may be straight now.
                i = i.saturating_sub(1);
            } else {
                i += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::next_f32;

    #[test]
    fn next_f32_steps_one_value_either_way() {
        assert_eq!(next_f32(1.0, true), 1.0 + f32::EPSILON);
        assert_eq!(next_f32(1.0, false), 1.0 - f32::EPSILON / 2.0);
        assert_eq!(next_f32(-1.0, true), -1.0 + f32::EPSILON / 2.0);
        assert_eq!(next_f32(-1.0, false), -1.0 - f32::EPSILON);
        assert!(next_f32(0.0, true) > 0.0 && next_f32(0.0, false) < 0.0);
        assert_eq!(next_f32(next_f32(5078.452, true), false), 5078.452);
    }
}
