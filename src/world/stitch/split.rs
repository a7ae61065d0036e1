//! Splitting a tile's wall edges at the ends of its overlaps, and pairing the pieces of
//! two tiles into seams.

use glam::{Vec2, Vec3};

use super::{Overlap, SeamRules, TileShape};
use crate::geometry::signed_area2;

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

/// The seams between tiles `a` and `b` with their `overlaps`
/// ([`overlaps`](super::overlaps)`(a, b)`), given both tiles split by [`split_tile`] (each
/// against a set of neighbours that includes the other). Each overlap of two wall edges
/// gives one pair: the piece of each edge that holds the overlap's middle, when that piece
/// lies within the overlap (a piece that reaches beyond it, which only happens when
/// overlaps with other tiles cross each other, stays a wall). No slot is in two pairs.
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
