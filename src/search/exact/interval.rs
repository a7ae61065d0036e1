//! Search nodes of the exact search and the plane geometry they need, in `f64`.
//!
//! A node is a *root* (the start or a mesh vertex, the last corner of the path so far)
//! and an *interval*: a piece of one polygon edge, all of whose points the root sees in
//! a straight line. The node stands for every path that runs from the root straight
//! through the interval into the polygon beyond it.

use glam::DVec2;

/// Marks "no vertex" / "no node" / "no polygon".
pub(crate) const NONE: u32 = u32::MAX;

/// The root id of the start point (it is not a mesh vertex).
pub(crate) const START: u32 = u32::MAX - 1;

/// One search node.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SearchNode {
    /// The root: a vertex id, or [`START`].
    pub root: u32,
    /// The root's ground position.
    pub root_point: DVec2,
    /// The interval's end on the left, as seen from the root looking into `polygon`.
    pub left: DVec2,
    /// The interval's end on the right.
    pub right: DVec2,
    /// The vertex `left` is exactly, or [`NONE`].
    pub left_vertex: u32,
    /// The vertex `right` is exactly, or [`NONE`].
    pub right_vertex: u32,
    /// The polygon the interval leads into; [`NONE`] for a node that reaches the target.
    pub polygon: u32,
    /// The corner slot (of `polygon`) of the edge holding the interval; for a target
    /// node, the vertex where the path turns last towards the target ([`NONE`] if it goes
    /// straight from the root).
    pub slot: u32,
    /// Length of the path from the start to the root.
    pub g: f64,
    /// `g` plus a lower bound of the rest (exact for a target node).
    pub f: f64,
    /// The node this one was generated from, or [`NONE`].
    pub parent: u32,
}

/// Twice the signed area of `a, b, c` (positive when counter-clockwise).
#[inline]
pub(crate) fn orient(a: DVec2, b: DVec2, c: DVec2) -> f64 {
    (b - a).perp_dot(c - a)
}

/// Whether `p` is on the closed segment `a..b` for a `p` known to be on its line.
#[inline]
pub(crate) fn within_collinear(p: DVec2, a: DVec2, b: DVec2) -> bool {
    (p - a).dot(p - b) <= 0.0
}

/// Clips the parameter range `[lo, hi]` of a segment to where the linear function with
/// values `at0` (parameter 0) and `at1` (parameter 1) is `>= 0`.
#[inline]
pub(crate) fn clip(lo: &mut f64, hi: &mut f64, at0: f64, at1: f64) {
    if at0 >= 0.0 && at1 >= 0.0 {
        return;
    }
    if at0 < 0.0 && at1 < 0.0 {
        *hi = -1.0;
        *lo = 2.0;
        return;
    }
    let t = at0 / (at0 - at1);
    if at0 < 0.0 {
        *lo = lo.max(t);
    } else {
        *hi = hi.min(t);
    }
}

/// Parameters this close to an end of an edge (relative to its length) are that end.
pub(crate) const SNAP: f64 = 1e-12;

/// Relative tolerance of the side tests against rays through computed points.
pub(crate) const SIDE_TOLERANCE: f64 = 1e-10;

pub(crate) use crate::mesh::landmarks::distance_to_segment;

/// Which side of the cone from `root` through `right..left` the point `p` lies on:
/// `-1` right of the right ray, `1` left of the left ray, `0` inside (closed, with a
/// small tolerance).
#[inline]
pub(crate) fn cone_side(root: DVec2, left: DVec2, right: DVec2, p: DVec2) -> i32 {
    // `cross < -tolerance * |d| * |dp|`, compared squared (no square roots).
    const TOLERANCE2: f64 = SIDE_TOLERANCE * SIDE_TOLERANCE;
    let (dr, dl, dp) = (right - root, left - root, p - root);
    let cr = dr.perp_dot(dp);
    if cr < 0.0 && cr * cr > TOLERANCE2 * dr.length_squared() * dp.length_squared() {
        return -1;
    }
    let cl = dl.perp_dot(dp);
    if cl > 0.0 && cl * cl > TOLERANCE2 * dl.length_squared() * dp.length_squared() {
        1
    } else {
        0
    }
}

/// A lower bound of the length from `root` through the interval `right..left` (on an
/// edge with the root on its right-hand side when walking `right -> left`... i.e. behind
/// the edge) to `target`: the target is mirrored to the far side of the edge's line when
/// it is on the root's side, then the distance is taken around the interval's ends.
pub(crate) fn heuristic(root: DVec2, left: DVec2, right: DVec2, target: DVec2) -> f64 {
    let edge = left - right;
    let root_side = edge.perp_dot(root - right);
    let target_side = edge.perp_dot(target - right);
    let mut t = target;
    let len2 = edge.length_squared();
    if len2 > 0.0 && root_side * target_side > 0.0 {
        // Mirror across the line through right -> left.
        let foot = right + edge * ((target - right).dot(edge) / len2);
        t = foot * 2.0 - target;
    }
    match cone_side(root, left, right, t) {
        -1 => root.distance(right) + right.distance(t),
        1 => root.distance(left) + left.distance(t),
        _ => root.distance(t),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clip_keeps_the_non_negative_part() {
        let (mut lo, mut hi) = (0.0, 1.0);
        clip(&mut lo, &mut hi, -1.0, 3.0);
        assert_eq!((lo, hi), (0.25, 1.0));
        clip(&mut lo, &mut hi, 1.0, -1.0);
        assert_eq!((lo, hi), (0.25, 0.5));
        clip(&mut lo, &mut hi, -1.0, -1.0);
        assert!(lo > hi);
    }

    #[test]
    fn heuristic_goes_round_the_interval() {
        let root = DVec2::new(0.0, -1.0);
        let (left, right) = (DVec2::new(-1.0, 0.0), DVec2::new(1.0, 0.0));
        // Straight through.
        assert!((heuristic(root, left, right, DVec2::new(0.0, 2.0)) - 3.0).abs() < 1e-12);
        // Round the right end.
        let h = heuristic(root, left, right, DVec2::new(3.0, 0.0));
        assert!((h - (2f64.sqrt() + 2.0)).abs() < 1e-12);
        // On the root's side: mirrored.
        let h = heuristic(root, left, right, DVec2::new(0.0, -0.5));
        assert!((h - 1.5).abs() < 1e-12);
        assert_eq!(cone_side(root, left, right, DVec2::new(0.0, 1.0)), 0);
        assert_eq!(cone_side(root, left, right, DVec2::new(5.0, 0.0)), -1);
        assert_eq!(cone_side(root, left, right, DVec2::new(-5.0, 0.0)), 1);
    }
}
