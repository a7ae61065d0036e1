//! Tests of stitching: the wall grid, the overlaps, the splits and the seam pairs on
//! hand-made tiles.

use std::sync::OnceLock;

use glam::{Vec2, Vec3};

use super::{Border, Overlap, SeamRules, SplitTile, TileShape, overlaps, seam_pairs, split_tile};
use crate::geometry::UpAxis;
use crate::mesh::NO_NEIGHBOUR;

/// A hand-made tile (z up): polygons counter-clockwise, neighbours inside the tile
/// found from shared edges.
struct Tile {
    vertices: Vec<Vec3>,
    ground: Vec<Vec2>,
    poly_start: Vec<u32>,
    corners: Vec<u32>,
    neighbours: Vec<u32>,
    border: OnceLock<std::sync::Arc<Border>>,
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
            let across =
                (0..polygons.len()).find(|&q| (0..polygons[q].len()).any(|j| edge(q, j) == (b, a)));
            neighbours.push(across.map_or(NO_NEIGHBOUR, |q| q as u32));
        }
    }
    Tile {
        vertices,
        ground,
        poly_start,
        corners,
        neighbours,
        border: OnceLock::new(),
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
            neighbours: &self.neighbours,
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
fn stitch(a: &Tile, b: &Tile, rules: &SeamRules) -> (Vec<(Piece, Piece)>, SplitTile, SplitTile) {
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
    let border = t.shape().border();
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
