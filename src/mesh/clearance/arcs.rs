//! The wall corners a disc's path turns round: the centres of the regular polygons drawn
//! round convex wall corners by the erosion ([`super::region`]), kept with the eroded
//! mesh so that a path found on it can say, per corner, which wall corner it goes round
//! ([`crate::PathArc`], made in `query/arc_turns.rs`).
//!
//! A path on the eroded mesh bends only at corners of the eroded region that stick into
//! the walkable side: a corner of the polygon round a wall corner (at
//! `r / cos(pi / ARC_SEGMENTS)` from it) or a point where that polygon meets the band of
//! a straight wall (between `r` and that distance). So a bending path corner goes round
//! the wall corner that lies within that distance of it, on the inner side of the bend;
//! where several do, the nearest in 3D (which also tells the levels of a multi-level mesh
//! apart).

use std::collections::HashMap;

use glam::{DVec2, Vec2, Vec3};

use super::ARC_SEGMENTS;
use crate::geometry::UpAxis;
use crate::mesh::MeshData;
use crate::mesh::partition::CLOSE_POINTS;

/// The wall corners of an eroded mesh, by cell of a uniform grid of the ground plane
/// over their bounds.
#[derive(Debug, Default)]
pub(crate) struct ArcCentres {
    /// The wall corners (world coordinates), cell after cell (columns of cells along
    /// the first ground axis, each from the least second coordinate up).
    points: Vec<Vec3>,
    /// Per cell (`column * rows + row`), then one more: where its points start.
    cell_start: Vec<u32>,
    /// The ground point where cell (0, 0) starts.
    origin: Vec2,
    /// The grid's columns and rows.
    columns: i64,
    rows: i64,
    /// The grid's cell side (world units): at least the farthest a corner lies from its
    /// wall corner, so that the 3 x 3 cells round a corner hold every candidate, and
    /// larger when that would make more cells than about twice the points.
    side: f32,
    /// The farthest a bending corner lies from its wall corner (world units).
    reach: f32,
    /// The erosion radius (world units).
    radius: f32,
    /// How much nearer than `radius` a bending corner may lie (rounding; world units).
    slack: f32,
    up: UpAxis,
}

impl ArcCentres {
    /// The wall corners at ground positions `grounds` of one layer whose polygons are
    /// `polygons` (original ids and ground corners), appended as 3D points of `mesh`.
    /// A ground position that is no polygon corner of the layer is skipped.
    pub fn lift_layer(
        mesh: &MeshData,
        polygons: &[(u32, Vec<DVec2>)],
        grounds: &[DVec2],
        out: &mut Vec<Vec3>,
    ) {
        if grounds.is_empty() {
            return;
        }
        let key = |q: DVec2| (q.x.to_bits(), q.y.to_bits());
        let mut vertex_at: HashMap<(u64, u64), u32> = HashMap::new();
        for (id, corners) in polygons {
            let slots = mesh.corner_range(*id);
            for (corner, slot) in corners.iter().zip(slots) {
                vertex_at.entry(key(*corner)).or_insert(mesh.corners[slot]);
            }
        }
        out.extend(
            grounds
                .iter()
                .filter_map(|q| vertex_at.get(&key(*q)))
                .map(|&v| mesh.vertices[v as usize]),
        );
    }

    /// The wall corners `points` of a mesh with up axis `up`, eroded by `radius > 0`.
    pub fn new(mut points: Vec<Vec3>, radius: f32, up: UpAxis) -> ArcCentres {
        // The erosion draws its band wider than `r` by a margin relative to the largest
        // coordinate (`region::BAND_MARGIN`), and `i_overlay` snaps to a grid finer than
        // that: allow twice the margin, and a little more, on either side.
        let scale = points
            .iter()
            .map(|&p| up.ground(p).abs().max_element())
            .fold(1.0, f32::max);
        let slack = 2.0 * CLOSE_POINTS as f32 * scale + 1e-5;
        let reach = (radius + slack) / (std::f32::consts::PI / ARC_SEGMENTS as f32).cos();
        let reach = reach * (1.0 + 1e-4) + slack;
        let grounds = || points.iter().map(|&p| up.ground(p));
        let origin = grounds().fold(Vec2::splat(f32::INFINITY), Vec2::min);
        let extent = grounds().fold(Vec2::splat(f32::NEG_INFINITY), Vec2::max) - origin;
        let (mut side, mut columns, mut rows) = (2.0 * reach, 1, 1);
        if !points.is_empty() {
            // Cells of side 2 reach, fewer (larger) when that would be many per point.
            let most = 2 * points.len() as i64 + 16;
            loop {
                let count = |e: f32| (e / side).floor() as i64 + 1;
                (columns, rows) = (count(extent.x), count(extent.y));
                if columns.saturating_mul(rows) <= most {
                    break;
                }
                side *= 1.5;
            }
        }
        let cell_of = |p: Vec3| {
            let (x, z) = cell(up.ground(p) - origin, side);
            (x.clamp(0, columns - 1) * rows + z.clamp(0, rows - 1)) as usize
        };
        points.sort_by(|a, b| {
            (cell_of(*a).cmp(&cell_of(*b)))
                .then(a.x.total_cmp(&b.x))
                .then(a.y.total_cmp(&b.y))
                .then(a.z.total_cmp(&b.z))
        });
        points.dedup();
        let cells = (columns * rows) as usize;
        let mut cell_start = vec![0u32; cells + 1];
        for &p in &points {
            cell_start[cell_of(p) + 1] += 1;
        }
        for c in 0..cells {
            cell_start[c + 1] += cell_start[c];
        }
        ArcCentres {
            points,
            cell_start,
            origin,
            columns,
            rows,
            side,
            reach,
            radius,
            slack,
            up,
        }
    }

    /// The bytes of the tables.
    pub fn bytes(&self) -> usize {
        self.points.len() * std::mem::size_of::<Vec3>() + self.cell_start.len() * 4
    }

    /// The wall corner the path bending at `corner` (from `before`, on to `after`) goes
    /// round, if any.
    pub fn centre_of(&self, before: Vec3, corner: Vec3, after: Vec3) -> Option<Vec3> {
        let up = self.up;
        let (b, q, a) = (up.ground(before), up.ground(corner), up.ground(after));
        let (inward_from, inward_to) = ((b - q).normalize_or_zero(), (a - q).normalize_or_zero());
        if inward_from.perp_dot(inward_to).abs() < 1e-6 {
            return None; // no bend
        }
        // Inside the bend: the side of the two legs' bisector.
        let inside = inward_from + inward_to;
        let least = self.radius - self.slack;
        let (cx, cz) = cell(q - self.origin, self.side);
        let mut best: Option<(f32, Vec3)> = None;
        let (z0, z1) = (
            cz.saturating_sub(1).max(0),
            cz.saturating_add(1).min(self.rows - 1),
        );
        for x in cx.saturating_sub(1).max(0)..=cx.saturating_add(1).min(self.columns - 1) {
            if z0 > z1 {
                break;
            }
            // The cells (x, z0) to (x, z1) are one run of the table.
            let run = |z: i64| self.cell_start[(x * self.rows + z) as usize] as usize;
            for &p in &self.points[run(z0)..run(z1 + 1)] {
                let towards = up.ground(p) - q;
                let d = towards.length();
                if d < least || d > self.reach || towards.dot(inside) <= 0.0 {
                    continue;
                }
                let d3 = p.distance(corner);
                if best.is_none_or(|(nearest, _)| d3 < nearest) {
                    best = Some((d3, p));
                }
            }
        }
        best.map(|(_, p)| p)
    }

    /// The distance a path keeps from the wall corners (world units).
    pub fn radius(&self) -> f32 {
        self.radius
    }

    /// Whether there is no wall corner to go round.
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }
}

/// The grid cell of ground point `q` for cells of side `side`.
fn cell(q: Vec2, side: f32) -> (i64, i64) {
    ((q.x / side).floor() as i64, (q.y / side).floor() as i64)
}
