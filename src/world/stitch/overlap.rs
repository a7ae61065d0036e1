//! Which wall edges of two tiles join: where they overlap, within the rules.

use glam::Vec2;

use super::{SeamRules, Segment, TileShape};

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
    let (border_a, border_b) = (a.border(), b.border());
    let near_b = border_a.walls_near(border_b.bounds, rules.tolerance);
    if near_b.is_empty() {
        return found;
    }
    let near_a = border_b.walls_near(border_a.bounds, rules.tolerance);
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
