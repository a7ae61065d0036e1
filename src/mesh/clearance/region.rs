//! The region a disc's centre may occupy on one layer (see [`super::layers`]), in the
//! ground plane: the layer's polygons less a band of width `r` along every wall. A wall
//! is an edge of an admitted polygon with no neighbour, or whose neighbour the filter
//! refuses; an edge into another layer (a seam) is not one. The bands of the walls of
//! other levels found beyond the seams are cut to the points within `r` of a seam (a
//! capsule round each, drawn outside the circle) before they are taken away. The band is the union of a
//! rectangle on the walkable side of each wall and, at every wall vertex where the
//! walkable region is not convex, a regular polygon of [`ARC_SEGMENTS`] sides drawn
//! round the disc of radius `r` (its sides touch the circle, its corners lie at
//! `r / cos(pi / ARC_SEGMENTS)`). So the region is a subset of the exact free space:
//! every point of it keeps at least `r` from every wall, exactly `r` along straight
//! walls, and at most `r (1 / cos(pi / ARC_SEGMENTS) - 1)` more round a convex wall
//! corner. The booleans run on `i_overlay`, whose integer-snapped sweep stays exact
//! where polygons share edges.
//!
//! The band is drawn [`BAND_MARGIN`] (relative to the layer's largest coordinate) wider
//! than `r`: where two walls lie exactly `2r` apart (a corridor one cell wide on a grid
//! map, eroded by half a cell), bands of exactly `r` would touch along a line, and
//! `i_overlay` 4.5's contour extraction loops on such a difference, allocating without
//! bound (den520d at radius 0.5 grew past 23 GB). With the margin the bands overlap, and
//! the region, a hair smaller, still keeps at least `r` from every wall. A gap narrower
//! than `2r` plus twice the margin closes: at most a sliver that the partition's
//! tolerance ([`CLOSE_POINTS`]) would flatten anyway.

use std::collections::HashMap;
use std::f64::consts::TAU;

use glam::DVec2;
use i_overlay::core::fill_rule::FillRule;
use i_overlay::core::overlay_rule::OverlayRule;
use i_overlay::float::overlay::FloatOverlay;

use super::ARC_SEGMENTS;
use super::layers::LayerInput;
use crate::mesh::partition::{CLOSE_POINTS, Region};

/// How much wider than `r` the band along the walls is drawn, relative to the layer's
/// largest coordinate (at least 1): the partition's tolerance for close points, well
/// above `i_overlay`'s snapping grid, so that bands of walls exactly `2r` apart
/// overlap instead of touching (see the module comment).
const BAND_MARGIN: f64 = CLOSE_POINTS;

/// The walls meeting at one point.
#[derive(Default)]
struct Joint {
    arriving: Vec<DVec2>,
    leaving: Vec<DVec2>,
    /// Whether one of them is a wall of the layer itself.
    own: bool,
}

/// A regular polygon of [`ARC_SEGMENTS`] sides round `centre`, its corners at `reach`,
/// counter-clockwise.
fn round(centre: DVec2, reach: f64) -> Vec<[f64; 2]> {
    (0..ARC_SEGMENTS)
        .map(|k| {
            let angle = TAU * (k as f64 + 0.5) / ARC_SEGMENTS as f64;
            (centre + DVec2::new(angle.cos(), angle.sin()) * reach).to_array()
        })
        .collect()
}

/// The points within `reach` of the segment `a, b` (at least), as a rectangle and two
/// round ends, counter-clockwise.
fn capsule(a: DVec2, b: DVec2, reach: f64) -> Vec<Vec<[f64; 2]>> {
    let along = b - a;
    let mut parts = vec![round(a, reach), round(b, reach)];
    if along.length_squared() > 0.0 {
        let side = along.perp().normalize() * reach;
        parts.push(vec![
            (a - side).to_array(),
            (b - side).to_array(),
            (b + side).to_array(),
            (a + side).to_array(),
        ]);
    }
    parts
}

/// Erodes one layer of admitted polygons (see [`super::layers`]) by `r > 0`: the
/// layer's polygons and the boundary rings of the region eroded from them, and the
/// layer's own wall corners that a round polygon was drawn about (the centres of the
/// turns a path may take, [`super::arcs`]).
pub(super) fn erode(input: LayerInput, r: f64) -> (Region, Vec<DVec2>) {
    let scale = input
        .polygons
        .iter()
        .flat_map(|(_, corners)| corners.iter())
        .map(|q| q.abs().max_element())
        .fold(1.0, f64::max);
    // The band's width: `r` and the margin that keeps touching bands apart.
    let r = r + BAND_MARGIN * scale;
    let mut band: Vec<Vec<[f64; 2]>> = Vec::new();
    let mut near_band: Vec<Vec<[f64; 2]>> = Vec::new();
    // Per wall vertex position: the directions of the walls that arrive and leave, and
    // whether one of them is the layer's own.
    let mut joints: HashMap<(u64, u64), Joint> = HashMap::new();
    let key = |q: DVec2| (q.x.to_bits(), q.y.to_bits());
    let walls = input.walls.iter().map(|w| (w, true));
    let near_walls = input.near_walls.iter().map(|w| (w, false));
    for (&(a, b), own) in walls.chain(near_walls) {
        let along = b - a;
        if along.length_squared() == 0.0 {
            continue;
        }
        // Counter-clockwise polygons: the walkable side is on the left.
        let inward = along.perp().normalize() * r;
        let rectangle = vec![
            a.to_array(),
            b.to_array(),
            (b + inward).to_array(),
            (a + inward).to_array(),
        ];
        if own { &mut band } else { &mut near_band }.push(rectangle);
        let start = joints.entry(key(a)).or_default();
        start.leaving.push(along);
        start.own |= own;
        let end = joints.entry(key(b)).or_default();
        end.arriving.push(along);
        end.own |= own;
    }
    let reach = r / (std::f64::consts::PI / ARC_SEGMENTS as f64).cos();
    let mut centres = Vec::new();
    for ((x, y), joint) in &joints {
        let convex_or_straight = match (joint.arriving.as_slice(), joint.leaving.as_slice()) {
            ([before], [after]) => {
                let turn = before.perp_dot(*after);
                turn > 0.0 || (turn == 0.0 && before.dot(*after) > 0.0)
            }
            _ => false,
        };
        if convex_or_straight {
            // The walkable side is a wedge of at most 180 degrees here: every point of
            // it within `r` of the vertex is within `r` of one of the two walls.
            continue;
        }
        let centre = DVec2::new(f64::from_bits(*x), f64::from_bits(*y));
        let disc = round(centre, reach);
        if joint.own {
            centres.push(centre);
            band.push(disc);
        } else {
            near_band.push(disc);
        }
    }
    // The other levels' walls count within `r` of a seam only.
    if !near_band.is_empty() {
        let capsules: Vec<Vec<[f64; 2]>> = input
            .seams
            .iter()
            .flat_map(|&(a, b)| capsule(a, b, reach))
            .collect();
        let near = FloatOverlay::with_subj_and_clip(&near_band, &capsules)
            .overlay(OverlayRule::Intersect, FillRule::NonZero);
        band.extend(near.into_iter().flatten());
    }
    let polygons = input.polygons;
    let walkable: Vec<Vec<[f64; 2]>> = polygons
        .iter()
        .map(|(_, corners)| corners.iter().map(|q| q.to_array()).collect())
        .collect();
    let shapes = if band.is_empty() {
        FloatOverlay::with_subj(&walkable).overlay(OverlayRule::Subject, FillRule::NonZero)
    } else {
        FloatOverlay::with_subj_and_clip(&walkable, &band)
            .overlay(OverlayRule::Difference, FillRule::NonZero)
    };
    let rings = shapes
        .into_iter()
        .flatten()
        .map(|ring| ring.into_iter().map(DVec2::from).collect::<Vec<_>>())
        .filter(|ring| ring.len() >= 3)
        .collect();
    (Region { polygons, rings }, centres)
}
