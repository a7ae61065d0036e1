//! Seams between tiles: where a wall edge of one tile overlaps a wall edge of another,
//! the two become one portal.
//!
//! Tiles keep their own vertices. Two wall edges `e` (of tile X) and `f` (of tile Y)
//! join where they overlap: collinear in the ground plane within the tolerance (both ends
//! of the shorter within it of the longer's line), opposite directions, overlapping by
//! more than the tolerance, and with heights at both ends of the overlap within `climb` of
//! each other. The overlap's ends are vertices of `e` or `f`.
//!
//! Portals must be one-to-one (a slot has one neighbour and one twin), so every edge is
//! split at each overlap end that lies strictly inside it (more than the tolerance from
//! both of its ends): a collinear corner is inserted there, its height interpolated
//! along the edge ([`split_tile`]). After splitting, the part of `e` inside an overlap is
//! one sub-edge, and so is the part of `f`: [`seam_pairs`] pairs them.
//!
//! Everything here is a pure function of the tiles' geometry; the world (`super`) decides
//! which tiles are neighbours and composes the results into a snapshot.

use glam::{Vec2, Vec3};

use crate::geometry::{UpAxis, signed_area2};
use crate::mesh::NO_NEIGHBOUR;

/// When two wall edges of different tiles join.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SeamRules {
    /// The up axis of every tile.
    pub up: UpAxis,
    /// Largest distance, in the ground plane, between two edges that still join; also the
    /// shortest overlap that joins, and the shortest piece an edge is split into.
    pub tolerance: f32,
    /// Largest difference of height at the ends of an overlap.
    pub climb: f32,
}

/// What stitching needs to know of a tile besides its geometry, found once per tile:
/// its wall edges with their boxes, bucketed on a grid over the tile, and its bounds in
/// the ground plane.
#[derive(Debug, Clone)]
pub(crate) struct Border {
    /// The tile's wall edges.
    walls: Vec<Wall>,
    /// Ground-plane bounds of the tile's corners: `[min, max]`.
    bounds: [Vec2; 2],
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
struct Wall {
    slot: u32,
    polygon: u32,
    min: Vec2,
    max: Vec2,
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

/// The geometry of one tile that stitching reads, borrowed from the tile's own mesh
/// (local ids: vertex `v` is `vertices[v]`, polygon `p` owns corner slots
/// `poly_start[p]..poly_start[p + 1]`).
pub(crate) struct TileShape<'a> {
    /// World positions.
    pub vertices: &'a [Vec3],
    /// `vertices` in the ground plane.
    pub ground: &'a [Vec2],
    /// Polygon offsets into `corners`, one more than the polygon count.
    pub poly_start: &'a [u32],
    /// Corner vertex ids, counter-clockwise in the ground plane.
    pub corners: &'a [u32],
    /// The tile's walls and bounds ([`Border::of`] the same tile).
    pub border: &'a Border,
}

/// One edge in the ground plane with the heights of its ends.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Segment {
    from: Vec2,
    to: Vec2,
    from_height: f32,
    to_height: f32,
}

impl Segment {
    /// The segment's box in the ground plane, `[min, max]`.
    fn bounds(&self) -> [Vec2; 2] {
        [self.from.min(self.to), self.from.max(self.to)]
    }

    fn length(&self) -> f32 {
        self.from.distance(self.to)
    }

    /// The parameter (0 at `from`, 1 at `to`) of the projection of `p` on the line.
    fn param(&self, p: Vec2) -> f32 {
        let d = self.to - self.from;
        (p - self.from).dot(d) / d.length_squared()
    }

    /// The height of the line at parameter `t`.
    fn height_at(&self, t: f32) -> f32 {
        self.from_height + (self.to_height - self.from_height) * t
    }

    /// The distance from `p` to the (infinite) line of the segment.
    fn line_distance(&self, p: Vec2) -> f32 {
        signed_area2(self.from, self.to, p).abs() / self.length()
    }

    /// An order on segments that does not depend on which tile asks: by length, then by
    /// coordinates.
    fn is_before(&self, other: &Segment) -> bool {
        let key = |s: &Segment| [s.length(), s.from.x, s.from.y, s.to.x, s.to.y];
        key(self) < key(other)
    }
}

impl TileShape<'_> {
    /// The slot after `slot` in `polygon`, wrapping round.
    fn next_slot(&self, polygon: u32, slot: u32) -> u32 {
        if slot + 1 == self.poly_start[polygon as usize + 1] {
            self.poly_start[polygon as usize]
        } else {
            slot + 1
        }
    }

    /// The edge of `slot` (owned by `polygon`).
    fn segment(&self, up: UpAxis, polygon: u32, slot: u32) -> Segment {
        let a = self.corners[slot as usize] as usize;
        let b = self.corners[self.next_slot(polygon, slot) as usize] as usize;
        Segment {
            from: self.ground[a],
            to: self.ground[b],
            from_height: up.height(self.vertices[a]),
            to_height: up.height(self.vertices[b]),
        }
    }
}

/// Where two wall edges of different tiles overlap, if they join: the two ends of the
/// overlap (each a vertex of one of the edges). The answer does not depend on the order
/// of the arguments.
fn overlap(e: &Segment, f: &Segment, rules: &SeamRules) -> Option<[Vec2; 2]> {
    let (long, short) = if f.is_before(e) { (e, f) } else { (f, e) };
    let tolerance = rules.tolerance;
    if (long.to - long.from).dot(short.to - short.from) >= 0.0
        || long.length() <= tolerance
        || long.line_distance(short.from) > tolerance
        || long.line_distance(short.to) > tolerance
    {
        return None;
    }
    // The overlap on the longer edge's line: the shorter's ends, clamped to the longer.
    let clamp = |p: Vec2| {
        let t = long.param(p);
        if t <= 0.0 {
            (0.0, long.from)
        } else if t >= 1.0 {
            (1.0, long.to)
        } else {
            (t, p)
        }
    };
    let (t0, p0) = clamp(short.from);
    let (t1, p1) = clamp(short.to);
    if (t0 - t1).abs() * long.length() <= tolerance {
        return None;
    }
    let heights_meet = |t: f32, p: Vec2| {
        let s = short.param(p).clamp(0.0, 1.0);
        (long.height_at(t) - short.height_at(s)).abs() <= rules.climb
    };
    (heights_meet(t0, p0) && heights_meet(t1, p1)).then_some([p0, p1])
}

/// Two wall edges of different tiles `a` and `b` that join.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Overlap {
    /// The edge of `a`: its slot and the polygon that owns it.
    pub a: (u32, u32),
    /// The edge of `b`: its slot and the polygon that owns it.
    pub b: (u32, u32),
    /// The two ends of the overlap (each a vertex of one of the edges).
    pub ends: [Vec2; 2],
}

/// Every pair of wall edges of `a` and `b` that join.
pub(crate) fn overlaps(a: &TileShape<'_>, b: &TileShape<'_>, rules: &SeamRules) -> Vec<Overlap> {
    let mut found = Vec::new();
    let near_b = a.border.walls_near(b.border.bounds, rules.tolerance);
    if near_b.is_empty() {
        return found;
    }
    let near_a = b.border.walls_near(a.border.bounds, rules.tolerance);
    let segments: Vec<Segment> = near_a
        .iter()
        .map(|&(slot, polygon)| b.segment(rules.up, polygon, slot))
        .collect();
    // Two edges that join come within the tolerance of each other (a part of the shorter
    // projects inside the longer, within the tolerance of its line), so their boxes do
    // too: the boxes (grown by twice the tolerance, against rounding) skip the other
    // pairs before the full test. The pairs tested keep their order.
    let reach = Vec2::splat(2.0 * rules.tolerance);
    let boxes: Vec<[Vec2; 2]> = segments.iter().map(Segment::bounds).collect();
    for &(a_slot, a_polygon) in &near_b {
        let e = a.segment(rules.up, a_polygon, a_slot);
        let [lo, hi] = e.bounds();
        let (lo, hi) = (lo - reach, hi + reach);
        for ((&(b_slot, b_polygon), f), [f_lo, f_hi]) in near_a.iter().zip(&segments).zip(&boxes) {
            if !(f_lo.cmple(hi).all() && f_hi.cmpge(lo).all()) {
                continue;
            }
            if let Some(ends) = overlap(&e, f, rules) {
                found.push(Overlap {
                    a: (a_slot, a_polygon),
                    b: (b_slot, b_polygon),
                    ends,
                });
            }
        }
    }
    found
}

/// A tile's polygons after splitting its wall edges at the ends of its seams. Vertex ids
/// below the tile's own vertex count are the tile's; the corners added by splitting follow
/// them (`added`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SplitTile {
    /// World positions of the corners added by splitting, in id order.
    pub added: Vec<Vec3>,
    /// Polygon offsets into `corners` (the polygons keep their ids).
    pub poly_start: Vec<u32>,
    /// Corner vertex ids, counter-clockwise.
    pub corners: Vec<u32>,
    /// Per slot: the slot of the tile's own mesh whose edge this slot's edge is part of.
    pub origin: Vec<u32>,
    /// Per slot: where its edge starts along the original edge (0 at the original edge's
    /// first corner, 1 at its second).
    pub start: Vec<f32>,
    /// Per slot of the tile's own mesh: the first slot of its pieces.
    pub first_slot: Vec<u32>,
    /// Per piece added by splitting (each is a slot of its own after the pieces before
    /// it of the same original), in slot order: the slot of the tile's own mesh it is a
    /// piece of. Every other slot is its original moved on by the pieces added before
    /// it.
    pub cut_slots: Vec<u32>,
}

impl SplitTile {
    /// The slot (after splitting) of the piece of original slot `original` that holds
    /// parameter `t` along it.
    fn piece_at(&self, original: u32, t: f32) -> u32 {
        let first = self.first_slot[original as usize];
        let mut slot = first;
        while let Some(&next) = self.origin.get(slot as usize + 1)
            && next == original
            && self.start[slot as usize + 1] <= t
        {
            slot += 1;
        }
        slot
    }

    /// The parameter range, along original slot `original`, of piece `slot`.
    fn piece_range(&self, original: u32, slot: u32) -> [f32; 2] {
        let end = match self.origin.get(slot as usize + 1) {
            Some(&next) if next == original => self.start[slot as usize + 1],
            _ => 1.0,
        };
        [self.start[slot as usize], end]
    }
}

/// Splits the wall edges of `tile` at every end of an overlap with a wall edge of a
/// neighbouring tile that lies strictly inside the edge: more than the tolerance from both
/// of its ends. `overlaps` are the tile's overlaps with all its neighbours, as `(the
/// tile's edge: slot and polygon, overlap ends)`. The inserted corner lies on the edge (at
/// the other tile's vertex when that vertex is exactly on the edge's line), its height
/// interpolated along the edge.
pub(crate) fn split_tile(
    tile: &TileShape<'_>,
    overlaps: impl IntoIterator<Item = ((u32, u32), [Vec2; 2])>,
    rules: &SeamRules,
) -> SplitTile {
    // (original slot, its polygon, parameter, ground position) of every split.
    let mut cuts: Vec<(u32, u32, f32, Vec2)> = Vec::new();
    for ((slot, polygon), ends) in overlaps {
        let e = tile.segment(rules.up, polygon, slot);
        let length = e.length();
        for p in ends {
            let t = e.param(p);
            if t * length > rules.tolerance && (1.0 - t) * length > rules.tolerance {
                let on_line = if signed_area2(e.from, e.to, p) == 0.0 {
                    p
                } else {
                    e.from + (e.to - e.from) * t
                };
                cuts.push((slot, polygon, t, on_line));
            }
        }
    }
    cuts.sort_by(|x, y| x.0.cmp(&y.0).then(x.2.total_cmp(&y.2)));
    // Cuts closer than the tolerance to the previous one on the same edge are one cut.
    cuts.dedup_by(|later, kept| later.0 == kept.0 && later.3.distance(kept.3) <= rules.tolerance);

    let vertex_count = tile.vertices.len() as u32;
    let slot_count = tile.corners.len();
    let total = slot_count + cuts.len();
    let mut split = SplitTile {
        added: Vec::with_capacity(cuts.len()),
        poly_start: Vec::with_capacity(tile.poly_start.len()),
        corners: Vec::with_capacity(total),
        origin: Vec::with_capacity(total),
        start: Vec::with_capacity(total),
        first_slot: Vec::with_capacity(slot_count),
        cut_slots: cuts.iter().map(|cut| cut.0).collect(),
    };
    // Copies the slots `from..to` whole, each moved on by the `shift` cuts before it.
    let copy = |split: &mut SplitTile, from: usize, to: usize, shift: usize| {
        split
            .first_slot
            .extend((from..to).map(|k| (k + shift) as u32));
        split.corners.extend_from_slice(&tile.corners[from..to]);
        split.origin.extend(from as u32..to as u32);
        split.start.extend(std::iter::repeat_n(0.0, to - from));
    };
    // The slots between cuts are copied whole; a cut's corner follows its slot.
    let mut from = 0;
    for (i, &(slot, polygon, t, at)) in cuts.iter().enumerate() {
        let s = slot as usize;
        if s >= from {
            copy(&mut split, from, s + 1, i);
            from = s + 1;
        }
        let e = tile.segment(rules.up, polygon, slot);
        split.corners.push(vertex_count + i as u32);
        split.added.push(rules.up.place(at, e.height_at(t)));
        split.origin.push(slot);
        split.start.push(t);
    }
    copy(&mut split, from, slot_count, cuts.len());
    // A polygon starts later by the cuts in the slots before it.
    let mut before = 0;
    for &start in tile.poly_start {
        while before < cuts.len() && cuts[before].0 < start {
            before += 1;
        }
        split.poly_start.push(start + before as u32);
    }
    split
}

/// One seam portal: a piece of a wall edge of tile `a` and the piece of a wall edge of
/// tile `b` that covers it, walked the other way (slots after splitting).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SeamPair {
    /// The slot in `a` (after splitting).
    pub a_slot: u32,
    /// The polygon of `a` that owns `a_slot`.
    pub a_polygon: u32,
    /// The slot in `b` (after splitting).
    pub b_slot: u32,
    /// The polygon of `b` that owns `b_slot`.
    pub b_polygon: u32,
}

/// The seams between tiles `a` and `b` with their `overlaps` ([`overlaps`]`(a, b)`),
/// given both tiles split by [`split_tile`] (each against a set of neighbours that
/// includes the other). Each overlap of two wall edges gives one pair: the piece of each
/// edge that holds the overlap's middle, when that piece lies within the overlap (a piece
/// that reaches beyond it, which only happens when overlaps with other tiles cross each
/// other, stays a wall). No slot is in two pairs.
pub(crate) fn seam_pairs(
    a: (&TileShape<'_>, &SplitTile),
    b: (&TileShape<'_>, &SplitTile),
    overlaps: &[Overlap],
    rules: &SeamRules,
) -> Vec<SeamPair> {
    let mut pairs = Vec::new();
    let mut used_a = Vec::new();
    let mut used_b = Vec::new();
    // The piece of `slot` (of `polygon` in `shape`) that lies in the overlap `ends`.
    let piece = |(shape, split): (&TileShape<'_>, &SplitTile), slot, polygon, ends: [Vec2; 2]| {
        let e = shape.segment(rules.up, polygon, slot);
        let slack = rules.tolerance / e.length();
        let (t0, t1) = (e.param(ends[0]), e.param(ends[1]));
        let (lo, hi) = (t0.min(t1), t0.max(t1));
        let piece = split.piece_at(slot, (lo + hi) * 0.5);
        let [from, to] = split.piece_range(slot, piece);
        (from >= lo - slack && to <= hi + slack).then_some(piece)
    };
    for overlap in overlaps {
        let ((a_slot, a_polygon), (b_slot, b_polygon)) = (overlap.a, overlap.b);
        let (Some(a_piece), Some(b_piece)) = (
            piece(a, a_slot, a_polygon, overlap.ends),
            piece(b, b_slot, b_polygon, overlap.ends),
        ) else {
            continue;
        };
        if used_a.contains(&a_piece) || used_b.contains(&b_piece) {
            continue;
        }
        used_a.push(a_piece);
        used_b.push(b_piece);
        pairs.push(SeamPair {
            a_slot: a_piece,
            a_polygon,
            b_slot: b_piece,
            b_polygon,
        });
    }
    pairs
}

#[cfg(test)]
mod tests {
    use glam::{Vec2, Vec3};

    use super::{
        Border, Overlap, SeamRules, SplitTile, TileShape, overlaps, seam_pairs, split_tile,
    };
    use crate::geometry::UpAxis;
    use crate::mesh::NO_NEIGHBOUR;

    /// A hand-made tile (z up): polygons counter-clockwise, neighbours inside the tile
    /// found from shared edges.
    struct Tile {
        vertices: Vec<Vec3>,
        ground: Vec<Vec2>,
        poly_start: Vec<u32>,
        corners: Vec<u32>,
        border: Border,
    }

    fn tile(points: &[[f32; 3]], polygons: &[&[u32]]) -> Tile {
        let vertices: Vec<Vec3> = points.iter().map(|&p| Vec3::from(p)).collect();
        let ground: Vec<Vec2> = vertices.iter().map(|&v| UpAxis::Z.ground(v)).collect();
        let mut poly_start = vec![0];
        let mut corners = Vec::new();
        for polygon in polygons {
            corners.extend_from_slice(polygon);
            poly_start.push(corners.len() as u32);
        }
        let edge = |p: usize, i: usize| {
            let c = polygons[p];
            (c[i], c[(i + 1) % c.len()])
        };
        let mut neighbours = Vec::new();
        for p in 0..polygons.len() {
            for i in 0..polygons[p].len() {
                let (a, b) = edge(p, i);
                let across = (0..polygons.len())
                    .find(|&q| (0..polygons[q].len()).any(|j| edge(q, j) == (b, a)));
                neighbours.push(across.map_or(NO_NEIGHBOUR, |q| q as u32));
            }
        }
        let border = Border::of(&ground, &poly_start, &corners, &neighbours);
        Tile {
            vertices,
            ground,
            poly_start,
            corners,
            border,
        }
    }

    /// An axis-aligned rectangle tile of one polygon at height `z`.
    fn rectangle(x0: f32, y0: f32, x1: f32, y1: f32, z: f32) -> Tile {
        tile(
            &[[x0, y0, z], [x1, y0, z], [x1, y1, z], [x0, y1, z]],
            &[&[0, 1, 2, 3]],
        )
    }

    impl Tile {
        fn shape(&self) -> TileShape<'_> {
            TileShape {
                vertices: &self.vertices,
                ground: &self.ground,
                poly_start: &self.poly_start,
                corners: &self.corners,
                border: &self.border,
            }
        }
    }

    const RULES: SeamRules = SeamRules {
        up: UpAxis::Z,
        tolerance: 0.01,
        climb: 0.5,
    };

    /// A seam piece as (from, to) ground points and the polygon that owns it.
    type Piece = ([f32; 2], [f32; 2], u32);

    /// Position of vertex `v` of a split tile.
    fn position(tile: &Tile, split: &SplitTile, v: u32) -> Vec3 {
        let n = tile.vertices.len();
        if (v as usize) < n {
            tile.vertices[v as usize]
        } else {
            split.added[v as usize - n]
        }
    }

    fn piece(tile: &Tile, split: &SplitTile, polygon: u32, slot: u32) -> Piece {
        let range = split.poly_start[polygon as usize]..split.poly_start[polygon as usize + 1];
        assert!(
            range.contains(&slot),
            "slot {slot} not in polygon {polygon}"
        );
        let next = if slot + 1 == range.end {
            range.start
        } else {
            slot + 1
        };
        let at = |s: u32| {
            let g = UpAxis::Z.ground(position(tile, split, split.corners[s as usize]));
            [g.x, g.y]
        };
        (at(slot), at(next), polygon)
    }

    /// Splits both tiles against each other and pairs them: the seams as pieces of `a`
    /// and of `b`, sorted, and the split tiles.
    fn stitch(
        a: &Tile,
        b: &Tile,
        rules: &SeamRules,
    ) -> (Vec<(Piece, Piece)>, SplitTile, SplitTile) {
        let (sa, sb) = (a.shape(), b.shape());
        let found = overlaps(&sa, &sb, rules);
        let split_a = split_tile(&sa, found.iter().map(|o| (o.a, o.ends)), rules);
        let split_b = split_tile(&sb, found.iter().map(|o| (o.b, o.ends)), rules);
        let mut seams: Vec<(Piece, Piece)> =
            seam_pairs((&sa, &split_a), (&sb, &split_b), &found, rules)
                .iter()
                .map(|s| {
                    (
                        piece(a, &split_a, s.a_polygon, s.a_slot),
                        piece(b, &split_b, s.b_polygon, s.b_slot),
                    )
                })
                .collect();
        seams.sort_by(|x, y| x.partial_cmp(y).unwrap());
        (seams, split_a, split_b)
    }

    /// The ground positions of each polygon's corners after splitting.
    fn outlines(tile: &Tile, split: &SplitTile) -> Vec<Vec<[f32; 2]>> {
        split
            .poly_start
            .windows(2)
            .map(|w| {
                split.corners[w[0] as usize..w[1] as usize]
                    .iter()
                    .map(|&v| {
                        let g = UpAxis::Z.ground(position(tile, split, v));
                        [g.x, g.y]
                    })
                    .collect()
            })
            .collect()
    }

    /// Checks the bookkeeping of a split tile against the tile it came from.
    fn check_split(tile: &Tile, split: &SplitTile) {
        assert_eq!(split.poly_start.len(), tile.poly_start.len());
        assert_eq!(split.first_slot.len(), tile.corners.len());
        assert_eq!(split.corners.len(), tile.corners.len() + split.added.len());
        for (original, &first) in split.first_slot.iter().enumerate() {
            assert_eq!(split.origin[first as usize], original as u32);
            assert_eq!(split.start[first as usize], 0.0);
            assert_eq!(split.corners[first as usize], tile.corners[original]);
        }
    }

    #[test]
    fn walls_near_a_box_are_found_through_the_grid() {
        // 12 x 9 separate squares (every edge a wall), and boxes all over and around them.
        let mut points = Vec::new();
        let mut polygons = Vec::new();
        for j in 0..9 {
            for i in 0..12 {
                let (x, y) = (i as f32 * 1.5, j as f32);
                let first = points.len() as u32;
                points.extend([
                    [x, y, 0.0],
                    [x + 1.0, y, 0.0],
                    [x + 1.0, y + 0.5, 0.0],
                    [x, y + 0.5, 0.0],
                ]);
                polygons.push(vec![first, first + 1, first + 2, first + 3]);
            }
        }
        let polygons: Vec<&[u32]> = polygons.iter().map(Vec::as_slice).collect();
        let t = tile(&points, &polygons);
        let border = &t.border;
        assert_eq!(border.walls.len(), 4 * 12 * 9);
        let mut seed = 7u32;
        let mut next = || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) as f32 / (1 << 24) as f32 * 22.0 - 2.0
        };
        for _ in 0..500 {
            let (a, b) = (Vec2::new(next(), next()), Vec2::new(next(), next()));
            let query = [a.min(b), a.min(b) + (b - a).abs() * 0.2];
            let mut found = border.walls_near(query, 0.01);
            found.sort_unstable();
            let (lo, hi) = (query[0] - Vec2::splat(0.01), query[1] + Vec2::splat(0.01));
            let expected: Vec<(u32, u32)> = border
                .walls
                .iter()
                .filter(|w| w.min.cmple(hi).all() && w.max.cmpge(lo).all())
                .map(|w| (w.slot, w.polygon))
                .collect();
            assert_eq!(found, expected, "{query:?}");
        }
    }

    #[test]
    fn matching_edges_join_without_splits() {
        let a = rectangle(0.0, 0.0, 1.0, 1.0, 0.0);
        let b = rectangle(1.0, 0.0, 2.0, 1.0, 0.0);
        let (seams, split_a, split_b) = stitch(&a, &b, &RULES);
        assert_eq!(
            seams,
            [(([1.0, 0.0], [1.0, 1.0], 0), ([1.0, 1.0], [1.0, 0.0], 0))]
        );
        assert!(split_a.added.is_empty() && split_b.added.is_empty());
        assert_eq!(split_a.corners, a.corners);
        check_split(&a, &split_a);
    }

    #[test]
    fn t_junction_splits_the_long_edge() {
        // A 2 x 2 square against two unit squares stacked on its right side.
        let a = rectangle(0.0, 0.0, 2.0, 2.0, 0.0);
        let b = tile(
            &[
                [2.0, 0.0, 0.0],
                [3.0, 0.0, 0.0],
                [3.0, 1.0, 0.0],
                [2.0, 1.0, 0.0],
                [3.0, 2.0, 0.0],
                [2.0, 2.0, 0.0],
            ],
            &[&[0, 1, 2, 3], &[3, 2, 4, 5]],
        );
        let (seams, split_a, split_b) = stitch(&a, &b, &RULES);
        assert_eq!(
            seams,
            [
                (([2.0, 0.0], [2.0, 1.0], 0), ([2.0, 1.0], [2.0, 0.0], 0)),
                (([2.0, 1.0], [2.0, 2.0], 0), ([2.0, 2.0], [2.0, 1.0], 1)),
            ]
        );
        assert_eq!(
            outlines(&a, &split_a),
            [[[0.0, 0.0], [2.0, 0.0], [2.0, 1.0], [2.0, 2.0], [0.0, 2.0]]]
        );
        assert_eq!(split_a.origin, [0, 1, 1, 2, 3]);
        assert_eq!(split_a.first_slot, [0, 1, 3, 4]);
        assert_eq!(split_a.start, [0.0, 0.0, 0.5, 0.0, 0.0]);
        assert_eq!(split_b.corners, b.corners);
        check_split(&a, &split_a);
        check_split(&b, &split_b);
    }

    #[test]
    fn partial_overlap_splits_both_edges() {
        // Left: x in [0, 1], y in [0, 2]; right: x in [1, 2], y in [1, 3]. They share
        // x = 1 for y in [1, 2].
        let a = rectangle(0.0, 0.0, 1.0, 2.0, 0.0);
        let b = rectangle(1.0, 1.0, 2.0, 3.0, 0.0);
        let (seams, split_a, split_b) = stitch(&a, &b, &RULES);
        assert_eq!(
            seams,
            [(([1.0, 1.0], [1.0, 2.0], 0), ([1.0, 2.0], [1.0, 1.0], 0))]
        );
        assert_eq!(
            outlines(&a, &split_a),
            [[[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [1.0, 2.0], [0.0, 2.0]]]
        );
        assert_eq!(
            outlines(&b, &split_b),
            [[[1.0, 1.0], [2.0, 1.0], [2.0, 3.0], [1.0, 3.0], [1.0, 2.0]]]
        );
        check_split(&a, &split_a);
        check_split(&b, &split_b);
    }

    #[test]
    fn two_edges_of_one_tile_against_one_edge_of_the_other() {
        // The left tile's right side has a collinear corner at y = 1 (two edges); the
        // right tile's left side is one edge, split there.
        let a = tile(
            &[
                [0.0, 0.0, 0.0],
                [1.0, 0.0, 0.0],
                [1.0, 1.0, 0.0],
                [1.0, 2.0, 0.0],
                [0.0, 2.0, 0.0],
            ],
            &[&[0, 1, 2, 3, 4]],
        );
        let b = rectangle(1.0, 0.0, 2.0, 2.0, 0.0);
        let (seams, split_a, split_b) = stitch(&a, &b, &RULES);
        assert_eq!(
            seams,
            [
                (([1.0, 0.0], [1.0, 1.0], 0), ([1.0, 1.0], [1.0, 0.0], 0)),
                (([1.0, 1.0], [1.0, 2.0], 0), ([1.0, 2.0], [1.0, 1.0], 0)),
            ]
        );
        assert!(split_a.added.is_empty());
        assert_eq!(
            outlines(&b, &split_b),
            [[[1.0, 0.0], [2.0, 0.0], [2.0, 2.0], [1.0, 2.0], [1.0, 1.0]]]
        );
        // The new corner sits on b's own vertex 4 (after its four).
        assert_eq!(split_b.corners, [0, 1, 2, 3, 4]);
        assert_eq!(split_b.added, [Vec3::new(1.0, 1.0, 0.0)]);
    }

    #[test]
    fn heights_must_meet_within_climb() {
        let a = rectangle(0.0, 0.0, 1.0, 1.0, 0.0);
        // 0.6 above: beyond the climb of 0.5, no seam and no split.
        let (seams, split_a, _) = stitch(&a, &rectangle(1.0, 0.0, 2.0, 1.0, 0.6), &RULES);
        assert!(seams.is_empty() && split_a.added.is_empty());
        // 0.4 above: within it.
        let (seams, _, _) = stitch(&a, &rectangle(1.0, 0.0, 2.0, 1.0, 0.4), &RULES);
        assert_eq!(seams.len(), 1);
        // A ramp: the right tile rises from 0 at y = 0 to 2 at y = 2, so only near y = 0
        // is it within the climb of the flat left tile; both overlap ends must be.
        let ramp = tile(
            &[
                [1.0, 0.0, 0.0],
                [2.0, 0.0, 0.0],
                [2.0, 2.0, 2.0],
                [1.0, 2.0, 2.0],
            ],
            &[&[0, 1, 2, 3]],
        );
        let (seams, _, _) = stitch(&rectangle(0.0, 0.0, 1.0, 2.0, 0.0), &ramp, &RULES);
        assert!(seams.is_empty());
        // A short flat piece against the bottom of the ramp, y in [0, 0.4] (height 0.4 at
        // its top): it joins, and the ramp's edge is split at y = 0.4, with the height
        // interpolated along the ramp's edge.
        let (seams, _, split_ramp) = stitch(&rectangle(0.0, 0.0, 1.0, 0.4, 0.0), &ramp, &RULES);
        assert_eq!(
            seams,
            [(([1.0, 0.0], [1.0, 0.4], 0), ([1.0, 0.4], [1.0, 0.0], 0))]
        );
        assert_eq!(split_ramp.added.len(), 1);
        assert!(split_ramp.added[0].abs_diff_eq(Vec3::new(1.0, 0.4, 0.4), 1e-6));
    }

    #[test]
    fn parallel_but_offset_edges_do_not_join() {
        let a = rectangle(0.0, 0.0, 1.0, 1.0, 0.0);
        // A gap of 0.1 between the tiles: beyond the tolerance of 0.01.
        let b = rectangle(1.1, 0.0, 2.0, 1.0, 0.0);
        let (seams, split_a, split_b) = stitch(&a, &b, &RULES);
        assert!(seams.is_empty() && split_a.added.is_empty() && split_b.added.is_empty());
        // Within a tolerance of 0.2 they join.
        let loose = SeamRules {
            tolerance: 0.2,
            ..RULES
        };
        let (seams, _, _) = stitch(&a, &b, &loose);
        assert_eq!(
            seams,
            [(([1.0, 0.0], [1.0, 1.0], 0), ([1.1, 1.0], [1.1, 0.0], 0))]
        );
    }

    #[test]
    fn same_direction_edges_do_not_join() {
        // The second tile lies on the same side of x = 1 as the first (they overlap):
        // their edges on x = 1 both run upwards.
        let a = rectangle(0.0, 0.0, 1.0, 1.0, 0.0);
        let b = rectangle(0.5, 0.0, 1.0, 1.0, 0.0);
        let (seams, split_a, split_b) = stitch(&a, &b, &RULES);
        assert!(seams.is_empty() && split_a.added.is_empty() && split_b.added.is_empty());
    }

    #[test]
    fn overlaps_shorter_than_the_tolerance_do_not_join() {
        // The tiles share x = 1 for y in [1, 1.005] only.
        let a = rectangle(0.0, 0.0, 1.0, 1.005, 0.0);
        let b = rectangle(1.0, 1.0, 2.0, 2.0, 0.0);
        let (seams, split_a, split_b) = stitch(&a, &b, &RULES);
        assert!(seams.is_empty() && split_a.added.is_empty() && split_b.added.is_empty());
    }

    #[test]
    fn one_edge_against_two_tiles() {
        // A 2-high tile against two unit tiles on its right (a tile corner at y = 1): its
        // edge is split once, and each piece joins one tile.
        let a = rectangle(0.0, 0.0, 1.0, 2.0, 0.0);
        let b = rectangle(1.0, 0.0, 2.0, 1.0, 0.0);
        let c = rectangle(1.0, 1.0, 2.0, 2.0, 0.0);
        let (sa, sb, sc) = (a.shape(), b.shape(), c.shape());
        let (ab, ac, bc) = (
            overlaps(&sa, &sb, &RULES),
            overlaps(&sa, &sc, &RULES),
            overlaps(&sb, &sc, &RULES),
        );
        let side_a = |o: &Overlap| (o.a, o.ends);
        let side_b = |o: &Overlap| (o.b, o.ends);
        let split_a = split_tile(&sa, ab.iter().chain(&ac).map(side_a), &RULES);
        let split_b = split_tile(
            &sb,
            ab.iter().map(side_b).chain(bc.iter().map(side_a)),
            &RULES,
        );
        let split_c = split_tile(&sc, ac.iter().chain(&bc).map(side_b), &RULES);
        assert_eq!(split_a.added, [Vec3::new(1.0, 1.0, 0.0)]);
        assert!(split_b.added.is_empty() && split_c.added.is_empty());
        let ab = seam_pairs((&sa, &split_a), (&sb, &split_b), &ab, &RULES);
        let ac = seam_pairs((&sa, &split_a), (&sc, &split_c), &ac, &RULES);
        let bc = seam_pairs((&sb, &split_b), (&sc, &split_c), &bc, &RULES);
        assert_eq!(
            (
                piece(&a, &split_a, 0, ab[0].a_slot),
                piece(&b, &split_b, 0, ab[0].b_slot)
            ),
            (([1.0, 0.0], [1.0, 1.0], 0), ([1.0, 1.0], [1.0, 0.0], 0))
        );
        assert_eq!(
            (
                piece(&a, &split_a, 0, ac[0].a_slot),
                piece(&c, &split_c, 0, ac[0].b_slot)
            ),
            (([1.0, 1.0], [1.0, 2.0], 0), ([1.0, 2.0], [1.0, 1.0], 0))
        );
        assert_eq!((ab.len(), ac.len(), bc.len()), (1, 1, 1));
    }
}
