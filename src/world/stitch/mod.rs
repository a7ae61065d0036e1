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
//!
//! The work is split by job: `border.rs` finds a tile's wall edges near a box (a grid
//! over the tile), `overlap.rs` finds the wall edges of two tiles that join, and
//! `split.rs` splits the edges at the overlaps' ends and pairs the pieces. This file
//! holds what they share: the rules, a tile's shape and its edges as segments.

mod border;
mod overlap;
mod split;
#[cfg(test)]
mod tests;

use std::sync::{Arc, OnceLock};

use glam::{Vec2, Vec3};

use crate::geometry::{UpAxis, signed_area2};

pub(crate) use border::Border;
pub(crate) use overlap::{Overlap, overlaps};
pub(crate) use split::{SplitTile, seam_pairs, split_tile};

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
    /// Per slot: the polygon across its edge, or `NO_NEIGHBOUR` for a wall.
    pub neighbours: &'a [u32],
    /// The tile's walls and bounds, made on first use ([`TileShape::border`]): a tile
    /// with no neighbour to stitch to never needs them.
    pub border: &'a OnceLock<Arc<Border>>,
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

impl<'a> TileShape<'a> {
    /// The tile's walls and bounds ([`Border::of`] the tile), made the first time they
    /// are asked for and kept in the tile.
    pub fn border(&self) -> &'a Border {
        self.border.get_or_init(|| {
            Arc::new(Border::of(
                self.ground,
                self.poly_start,
                self.corners,
                self.neighbours,
            ))
        })
    }

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
