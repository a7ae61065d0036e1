//! Tile grids to navigation meshes: passable cells merged into rectangles.
//!
//! The walkable area is exactly the union of the passable cells. Cells are merged
//! greedily into rectangles (extend right, then down), so open areas become a few large
//! polygons rather than two triangles per cell. Where a rectangle's side meets several
//! rectangles on the other side, the side gets a (collinear) corner at every point where
//! the neighbour changes, so that neighbours share whole edges. Cells that touch only at
//! a corner share a vertex but no edge, so they are not connected.

use glam::Vec3;

use super::NavMesh;
use super::build::MeshOptions;
use crate::alloc::{try_filled, try_vec_with_capacity};
use crate::error::MeshError;
use crate::geometry::UpAxis;

/// A rectangular grid of cells, row after row (`walkable[y * width + x]`).
#[derive(Debug, Clone, Copy)]
pub struct TileGrid<'a> {
    /// Cells per row.
    pub width: u32,
    /// Number of rows.
    pub height: u32,
    /// `true` for a passable cell; `width * height` entries.
    pub walkable: &'a [bool],
    /// Side of a cell, in world units (> 0).
    pub cell_size: f32,
    /// World position of the corner of cell (0, 0). Cell (x, y) covers
    /// `origin + [x, x+1] * cell_size` along the ground plane's first axis and
    /// `[y, y+1] * cell_size` along its second: world x and z when Y is up, x and y when
    /// Z is up (see [`MeshOptions::up_axis`]).
    pub origin: Vec3,
}

const NONE: u32 = u32::MAX;

/// An axis-aligned block of cells `[x0, x1) x [y0, y1)`.
#[derive(Debug, Clone, Copy)]
struct Block {
    x0: u32,
    y0: u32,
    x1: u32,
    y1: u32,
}

impl NavMesh {
    /// Builds a mesh whose walkable area is the union of a grid's passable cells.
    /// Polygon `i` is the `i`-th rectangle in row-major order of its first cell.
    ///
    /// # Errors
    /// [`MeshError::InvalidOption`] for a bad size, cell size or origin,
    /// [`MeshError::NoPolygons`] when no cell is passable, or any builder error.
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshOptions, NavMesh, TileGrid};
    ///
    /// // 3 x 2 cells, the middle of the first row blocked:  . # .
    /// //                                                      . . .
    /// let walkable = [true, false, true, true, true, true];
    /// let grid = TileGrid { width: 3, height: 2, walkable: &walkable, cell_size: 1.0, origin: Vec3::ZERO };
    /// let mesh = NavMesh::from_grid(&grid, &MeshOptions::default())?;
    /// assert_eq!(mesh.island_count(), 1);
    /// assert!(mesh.nearest_point(Vec3::new(1.5, 0.0, 0.5), 0.1, None).is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_grid(grid: &TileGrid<'_>, options: &MeshOptions) -> Result<NavMesh, MeshError> {
        let cells = (grid.width as u64) * (grid.height as u64);
        if grid.walkable.len() as u64 != cells {
            return Err(MeshError::InvalidOption(
                "walkable must hold width * height cells",
            ));
        }
        if !(grid.cell_size.is_finite() && grid.cell_size > 0.0) {
            return Err(MeshError::InvalidOption("cell_size must be finite and > 0"));
        }
        if !grid.origin.is_finite() {
            return Err(MeshError::InvalidOption("origin must be finite"));
        }
        if (u64::from(grid.width) + 1) * (u64::from(grid.height) + 1) >= u64::from(u32::MAX) {
            return Err(MeshError::TooLarge("the grid has more than 2^32 corners"));
        }
        let (blocks, owner) = merge_cells(grid)?;
        let mut corner_vertex = try_filled(
            (grid.width as usize + 1) * (grid.height as usize + 1),
            NONE,
            "grid corners",
        )?;
        let oom = |_| MeshError::OutOfMemory("grid polygons");
        let mut vertices = Vec::new();
        let mut indices = Vec::new();
        let mut sizes = try_vec_with_capacity(blocks.len(), "grid polygons")?;
        for block in &blocks {
            let before = indices.len();
            let outline = block_outline(grid, &owner, block)?;
            vertices.try_reserve(outline.len()).map_err(oom)?;
            indices.try_reserve(outline.len()).map_err(oom)?;
            for (x, y) in outline {
                let slot = &mut corner_vertex[y as usize * (grid.width as usize + 1) + x as usize];
                if *slot == NONE {
                    *slot = vertices.len() as u32;
                    vertices.push(world_position(grid, options.up_axis, x, y));
                }
                indices.push(*slot);
            }
            sizes.push((indices.len() - before) as u32);
        }
        let mut exact = options.clone();
        exact.weld_vertices = false; // corners are already shared exactly
        NavMesh::from_polygons(&vertices, &indices, &sizes, &exact)
    }
}

fn world_position(grid: &TileGrid<'_>, up: UpAxis, x: u32, y: u32) -> Vec3 {
    let (u, v) = (x as f32 * grid.cell_size, y as f32 * grid.cell_size);
    grid.origin
        + match up {
            UpAxis::Y => Vec3::new(u, 0.0, v),
            UpAxis::Z => Vec3::new(u, v, 0.0),
        }
}

/// Greedy rectangle cover: from each uncovered passable cell in row-major order, extend
/// right while passable and uncovered, then down while the whole run is. Returns the
/// blocks and, per cell, its block (or `NONE`).
fn merge_cells(grid: &TileGrid<'_>) -> Result<(Vec<Block>, Vec<u32>), MeshError> {
    let (w, h) = (grid.width as usize, grid.height as usize);
    let mut owner = try_filled(w * h, NONE, "grid cells")?;
    let mut blocks = Vec::new();
    let free =
        |owner: &[u32], x: usize, y: usize| grid.walkable[y * w + x] && owner[y * w + x] == NONE;
    for y in 0..h {
        for x in 0..w {
            if !free(&owner, x, y) {
                continue;
            }
            let mut x1 = x + 1;
            while x1 < w && free(&owner, x1, y) {
                x1 += 1;
            }
            let mut y1 = y + 1;
            while y1 < h && (x..x1).all(|cx| free(&owner, cx, y1)) {
                y1 += 1;
            }
            let id = blocks.len() as u32;
            for row in owner[y * w..y1 * w].chunks_mut(w) {
                row[x..x1].fill(id);
            }
            blocks
                .try_reserve(1)
                .map_err(|_| MeshError::OutOfMemory("grid blocks"))?;
            blocks.push(Block {
                x0: x as u32,
                y0: y as u32,
                x1: x1 as u32,
                y1: y1 as u32,
            });
        }
    }
    Ok((blocks, owner))
}

/// The corners of a block, counter-clockwise (x right, y up), including a corner at
/// every point of its sides where the block across the side changes.
fn block_outline(
    grid: &TileGrid<'_>,
    owner: &[u32],
    b: &Block,
) -> Result<Vec<(u32, u32)>, MeshError> {
    let (w, h) = (grid.width as i64, grid.height as i64);
    let across = |x: i64, y: i64| {
        if x < 0 || y < 0 || x >= w || y >= h {
            NONE
        } else {
            owner[(y * w + x) as usize]
        }
    };
    // At most one corner per cell side along the perimeter: the pushes below never
    // reallocate.
    let perimeter = 2 * (b.x1 - b.x0) as usize + 2 * (b.y1 - b.y0) as usize;
    let mut outline = try_vec_with_capacity(perimeter, "grid polygons")?;
    // Bottom side, left to right: the cells below are in row y0 - 1.
    outline.push((b.x0, b.y0));
    for x in b.x0 + 1..b.x1 {
        if across(x as i64 - 1, b.y0 as i64 - 1) != across(x as i64, b.y0 as i64 - 1) {
            outline.push((x, b.y0));
        }
    }
    // Right side, bottom to top: the cells to the right are in column x1.
    outline.push((b.x1, b.y0));
    for y in b.y0 + 1..b.y1 {
        if across(b.x1 as i64, y as i64 - 1) != across(b.x1 as i64, y as i64) {
            outline.push((b.x1, y));
        }
    }
    // Top side, right to left: the cells above are in row y1.
    outline.push((b.x1, b.y1));
    for x in (b.x0 + 1..b.x1).rev() {
        if across(x as i64 - 1, b.y1 as i64) != across(x as i64, b.y1 as i64) {
            outline.push((x, b.y1));
        }
    }
    // Left side, top to bottom: the cells to the left are in column x0 - 1.
    outline.push((b.x0, b.y1));
    for y in (b.y0 + 1..b.y1).rev() {
        if across(b.x0 as i64 - 1, y as i64 - 1) != across(b.x0 as i64 - 1, y as i64) {
            outline.push((b.x0, y));
        }
    }
    Ok(outline)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid_from(rows: &[&str]) -> (u32, u32, Vec<bool>) {
        // Rows are given top to bottom as in a map file; row 0 of the text is y = 0.
        let w = rows[0].len() as u32;
        let walkable = rows
            .iter()
            .flat_map(|r| r.bytes().map(|c| c == b'.'))
            .collect();
        (w, rows.len() as u32, walkable)
    }

    fn mesh(rows: &[&str]) -> NavMesh {
        let (width, height, walkable) = grid_from(rows);
        let grid = TileGrid {
            width,
            height,
            walkable: &walkable,
            cell_size: 1.0,
            origin: Vec3::ZERO,
        };
        NavMesh::from_grid(&grid, &MeshOptions::default().with_up_axis(UpAxis::Z)).unwrap()
    }

    #[test]
    fn open_room_is_one_rectangle() {
        let m = mesh(&["....", "....", "...."]);
        assert_eq!(m.polygon_count(), 1);
        assert_eq!(m.polygon_vertices(0).len(), 4);
    }

    #[test]
    fn t_junctions_are_split_so_neighbours_share_edges() {
        // A wide row above two narrower blocks separated by a wall cell.
        let m = mesh(&["....", "..#.", "..#."]);
        assert_eq!(m.island_count(), 1);
        let linked: usize = (0..m.polygon_count())
            .map(|p| m.polygon_neighbours(p).flatten().count())
            .sum();
        assert_eq!(linked, 4, "two shared edges, counted from both sides");
    }

    #[test]
    fn diagonal_cells_are_not_connected() {
        let m = mesh(&[".#", "#."]);
        assert_eq!(m.polygon_count(), 2);
        assert_eq!(m.island_count(), 2);
    }

    #[test]
    fn rejects_bad_sizes() {
        let walkable = [true; 3];
        let grid = TileGrid {
            width: 2,
            height: 2,
            walkable: &walkable,
            cell_size: 1.0,
            origin: Vec3::ZERO,
        };
        assert!(matches!(
            NavMesh::from_grid(&grid, &MeshOptions::default()),
            Err(MeshError::InvalidOption(_))
        ));
    }
}
