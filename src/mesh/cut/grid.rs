//! The grid of a tile cut: its lines as f32 values, the squares over a box, and where
//! crossings round to.

use std::ops::RangeInclusive;

use glam::Vec2;

use super::super::MeshData;
use super::points::{Key, exact_crossing, next_f32, rounding_step};
use super::{MAX_CUT_TILES, MIN_RELATIVE_TILE_SIZE, NEAR_STEPS};

/// The grid lines, as f32 values: every point made on a line has exactly its value.
pub(super) struct Grid {
    /// `lines[axis][k]`: the k-th line across ground axis `axis` (0 or 1), increasing.
    pub(super) lines: [Vec<f32>; 2],
}

impl Grid {
    /// The grid of squares of side `size` from `low` that covers `high`, or why not.
    pub(super) fn new(size: f32, low: Vec2, high: Vec2) -> Result<Grid, String> {
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
    pub(super) fn count(&self, axis: usize) -> u32 {
        self.lines[axis].len() as u32 - 1
    }

    pub(super) fn cell_count(&self) -> u32 {
        self.count(0) * self.count(1)
    }

    /// The squares along `axis` whose closed span meets `[lo, hi]`.
    pub(super) fn cells_over(&self, axis: usize, lo: f32, hi: f32) -> RangeInclusive<u32> {
        let lines = &self.lines[axis];
        let first = lines.partition_point(|&l| l < lo).saturating_sub(1);
        let last = lines.partition_point(|&l| l <= hi).saturating_sub(1);
        first as u32..=(last as u32).min(self.count(axis) - 1)
    }

    /// The low and high corners of square `(column, row)`.
    pub(super) fn square(&self, column: u32, row: u32) -> (Vec2, Vec2) {
        let (x, y) = (column as usize, row as usize);
        (
            Vec2::new(self.lines[0][x], self.lines[1][y]),
            Vec2::new(self.lines[0][x + 1], self.lines[1][y + 1]),
        )
    }

    /// The square holding the whole box `[lo, hi]`, if one does.
    pub(super) fn cell_holding(&self, lo: Vec2, hi: Vec2) -> Option<u32> {
        let column = *self.cells_over(0, lo.x, hi.x).start();
        let row = *self.cells_over(1, lo.y, hi.y).start();
        let (min, max) = self.square(column, row);
        (min.cmple(lo).all() && hi.cmple(max).all()).then_some(row * self.count(0) + column)
    }

    /// The position of crossing `key` rounded to f32 on side `side` of its edge (see
    /// [`Clipper::note_sides`]), or `None` to keep the nearest rounding (no side asked,
    /// or the rounding lands on a grid line across).
    pub(super) fn round_to_side(&self, mesh: &MeshData, key: Key, side: i8) -> Option<Vec2> {
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
    pub(super) fn end_cell(&self, cells: &[u32], point: Vec2) -> u32 {
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
