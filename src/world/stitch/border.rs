//! A tile's wall edges, bucketed on a grid over the tile, so that stitching finds the
//! walls near a box without looking at the others.

use glam::Vec2;

use crate::mesh::NO_NEIGHBOUR;

/// What stitching needs to know of a tile besides its geometry, found once per tile:
/// its wall edges with their boxes, bucketed on a grid over the tile, and its bounds in
/// the ground plane.
#[derive(Debug, Clone)]
pub(crate) struct Border {
    /// The tile's wall edges.
    pub(super) walls: Vec<Wall>,
    /// Ground-plane bounds of the tile's corners: `[min, max]`.
    pub(super) bounds: [Vec2; 2],
    /// The side of a grid cell along each axis.
    cell: Vec2,
    /// Cells along each axis.
    cells: [u32; 2],
    /// The walls whose box meets cell `c` (row after row): `bucketed[bucket_start[c] ..
    /// bucket_start[c + 1]]`, indices into `walls`.
    bucket_start: Vec<u32>,
    bucketed: Vec<u32>,
}

/// A wall edge of a tile and its ground-plane box.
#[derive(Debug, Clone, Copy)]
pub(super) struct Wall {
    pub(super) slot: u32,
    pub(super) polygon: u32,
    pub(super) min: Vec2,
    pub(super) max: Vec2,
}

impl Border {
    /// The wall edges (the slots whose `neighbours` entry is [`NO_NEIGHBOUR`]: only walls
    /// can become seams) and the bounds of a tile, in one pass over its polygons, and the
    /// grid that finds the walls near a box without looking at the others.
    pub fn of(ground: &[Vec2], poly_start: &[u32], corners: &[u32], neighbours: &[u32]) -> Border {
        let wall_count = neighbours.iter().filter(|&&n| n == NO_NEIGHBOUR).count();
        let mut walls = Vec::with_capacity(wall_count);
        let mut bounds = [Vec2::INFINITY, Vec2::NEG_INFINITY];
        for p in 0..poly_start.len() - 1 {
            let (start, end) = (poly_start[p] as usize, poly_start[p + 1] as usize);
            let (corners, neighbours) = (&corners[start..end], &neighbours[start..end]);
            for (i, (&corner, &neighbour)) in corners.iter().zip(neighbours).enumerate() {
                let g = ground[corner as usize];
                bounds = [bounds[0].min(g), bounds[1].max(g)];
                if neighbour == NO_NEIGHBOUR {
                    let next = if i + 1 == corners.len() { 0 } else { i + 1 };
                    let h = ground[corners[next] as usize];
                    walls.push(Wall {
                        slot: (start + i) as u32,
                        polygon: p as u32,
                        min: g.min(h),
                        max: g.max(h),
                    });
                }
            }
        }
        // About four walls per cell, at most 64 cells a side.
        let side = ((walls.len() / 4) as f32).sqrt().ceil().clamp(1.0, 64.0) as u32;
        let extent = (bounds[1] - bounds[0]).max(Vec2::ZERO);
        let cell = Vec2::new(
            if extent.x > 0.0 {
                extent.x / side as f32
            } else {
                1.0
            },
            if extent.y > 0.0 {
                extent.y / side as f32
            } else {
                1.0
            },
        );
        let mut border = Border {
            walls,
            bounds,
            cell,
            cells: [side, side],
            bucket_start: Vec::new(),
            bucketed: Vec::new(),
        };
        // Each wall's cells, found once for both passes (`side` is at most 64).
        let reach: Vec<[u8; 4]> = border
            .walls
            .iter()
            .map(|w| {
                let ([x0, y0], [x1, y1]) = (border.cell_of(w.min), border.cell_of(w.max));
                [x0 as u8, y0 as u8, x1 as u8, y1 as u8]
            })
            .collect();
        let mut counts = vec![0u32; (side * side) as usize + 1];
        for &r in &reach {
            cells_in(r, side, |c| counts[c] += 1);
        }
        let mut total = 0;
        for count in &mut counts {
            let here = *count;
            *count = total;
            total += here;
        }
        let mut next = counts.clone();
        let mut bucketed = vec![0u32; total as usize];
        for (i, &r) in reach.iter().enumerate() {
            cells_in(r, side, |c| {
                bucketed[next[c] as usize] = i as u32;
                next[c] += 1;
            });
        }
        border.bucket_start = counts;
        border.bucketed = bucketed;
        border
    }

    /// The cell of point `p`, clamped to the grid.
    fn cell_of(&self, p: Vec2) -> [u32; 2] {
        // Truncation is the floor once negative values are clamped to 0.
        let c = (p - self.bounds[0]) / self.cell;
        let clamp = |v: f32, n: u32| (v.max(0.0) as u32).min(n - 1);
        [clamp(c.x, self.cells[0]), clamp(c.y, self.cells[1])]
    }

    /// Calls `visit` with the index of every cell that the box `lo..hi` meets.
    fn for_cells(&self, lo: Vec2, hi: Vec2, mut visit: impl FnMut(usize)) {
        let ([x0, y0], [x1, y1]) = (self.cell_of(lo), self.cell_of(hi));
        for y in y0..=y1 {
            for x in x0..=x1 {
                visit((y * self.cells[0] + x) as usize);
            }
        }
    }

    /// The wall edges, as `(slot, polygon that owns it)`, whose box comes within
    /// `margin` of `bounds`; each once.
    pub fn walls_near(&self, bounds: [Vec2; 2], margin: f32) -> Vec<(u32, u32)> {
        let (lo, hi) = (
            bounds[0] - Vec2::splat(margin),
            bounds[1] + Vec2::splat(margin),
        );
        if self.walls.is_empty()
            || !(lo.cmple(self.bounds[1]).all() && hi.cmpge(self.bounds[0]).all())
        {
            return Vec::new();
        }
        // At most the walls bucketed in the cells searched.
        let mut most = 0;
        self.for_cells(lo, hi, |c| {
            most += (self.bucket_start[c + 1] - self.bucket_start[c]) as usize;
        });
        let mut found = Vec::with_capacity(most);
        let first = self.cell_of(lo);
        self.for_cells(lo, hi, |c| {
            let here = [c as u32 % self.cells[0], c as u32 / self.cells[0]];
            let range = self.bucket_start[c] as usize..self.bucket_start[c + 1] as usize;
            for &i in &self.bucketed[range] {
                let w = &self.walls[i as usize];
                if !(w.min.cmple(hi).all() && w.max.cmpge(lo).all()) {
                    continue;
                }
                // Report a wall from the first cell of the search that it meets.
                let own = self.cell_of(w.min);
                if [own[0].max(first[0]), own[1].max(first[1])] == here {
                    found.push((w.slot, w.polygon));
                }
            }
        });
        found
    }

    /// The ground-plane bounds of the tile, `[min, max]`.
    pub fn bounds(&self) -> [Vec2; 2] {
        self.bounds
    }

    /// Whether the ground-plane bounds of the two tiles come within `margin` of each
    /// other.
    pub fn near(&self, other: &Border, margin: f32) -> bool {
        let m = Vec2::splat(margin);
        (self.bounds[0] - m).cmple(other.bounds[1]).all()
            && (self.bounds[1] + m).cmpge(other.bounds[0]).all()
    }
}

/// Calls `visit` with the index of every cell of the block `[x0, y0, x1, y1]` (first and
/// last column and row) of a grid `side` cells wide.
fn cells_in([x0, y0, x1, y1]: [u8; 4], side: u32, mut visit: impl FnMut(usize)) {
    for y in u32::from(y0)..=u32::from(y1) {
        let row = y * side;
        for x in u32::from(x0)..=u32::from(x1) {
            visit((row + x) as usize);
        }
    }
}
