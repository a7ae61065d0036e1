//! The region a disc's centre may occupy, in the ground plane: the admitted polygons
//! less a band of width `r` along every wall. A wall is an edge of an admitted polygon
//! with no neighbour, or whose neighbour the filter refuses. The band is the union of a
//! rectangle on the walkable side of each wall and, at every wall vertex where the
//! walkable region is not convex, a regular polygon of [`ARC_SEGMENTS`] sides drawn
//! round the disc of radius `r` (its sides touch the circle, its corners lie at
//! `r / cos(pi / ARC_SEGMENTS)`). So the region is a subset of the exact free space:
//! every point of it keeps at least `r` from every wall, exactly `r` along straight
//! walls, and at most `r (1 / cos(pi / ARC_SEGMENTS) - 1)` more round a convex wall
//! corner. The booleans run on `i_overlay`, whose integer-snapped sweep stays exact
//! where polygons share edges.

use std::collections::HashMap;
use std::f64::consts::TAU;

use glam::DVec2;
use i_overlay::core::fill_rule::FillRule;
use i_overlay::core::overlay_rule::OverlayRule;
use i_overlay::float::overlay::FloatOverlay;

use super::ARC_SEGMENTS;
use crate::mesh::partition::Region;
use crate::mesh::{MeshData, NO_NEIGHBOUR};

/// Erodes the polygons of `mesh` for which `admitted` holds by `r > 0`: the admitted
/// polygons and the rings of the eroded region.
pub(super) fn erode(mesh: &MeshData, r: f64, admitted: impl Fn(u32) -> bool) -> Region {
    let point = |v: u32| mesh.ground[v as usize].as_dvec2();
    let mut polygons = Vec::new();
    let mut band: Vec<Vec<[f64; 2]>> = Vec::new();
    // Per wall vertex position: the directions of the walls that arrive and leave.
    let mut joints: HashMap<(u64, u64), (Vec<DVec2>, Vec<DVec2>)> = HashMap::new();
    let key = |q: DVec2| (q.x.to_bits(), q.y.to_bits());
    for poly in mesh.polygon_ids().filter(|&p| admitted(p)) {
        let range = mesh.corner_range(poly);
        let corners: Vec<DVec2> = range.clone().map(|s| point(mesh.corners[s])).collect();
        for slot in range {
            let neighbour = mesh.neighbours[slot];
            if neighbour != NO_NEIGHBOUR && admitted(neighbour) {
                continue;
            }
            let (a, b) = mesh.edge(poly, slot);
            let (a, b) = (point(a), point(b));
            let along = b - a;
            if along.length_squared() == 0.0 {
                continue;
            }
            // Counter-clockwise polygons: the walkable side is on the left.
            let inward = along.perp().normalize() * r;
            band.push(vec![
                a.to_array(),
                b.to_array(),
                (b + inward).to_array(),
                (a + inward).to_array(),
            ]);
            joints.entry(key(a)).or_default().1.push(along);
            joints.entry(key(b)).or_default().0.push(along);
        }
        polygons.push((poly, corners));
    }
    let reach = r / (std::f64::consts::PI / ARC_SEGMENTS as f64).cos();
    for ((x, y), (arriving, leaving)) in &joints {
        let convex_or_straight = match (arriving.as_slice(), leaving.as_slice()) {
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
        band.push(
            (0..ARC_SEGMENTS)
                .map(|k| {
                    let angle = TAU * (k as f64 + 0.5) / ARC_SEGMENTS as f64;
                    (centre + DVec2::new(angle.cos(), angle.sin()) * reach).to_array()
                })
                .collect(),
        );
    }
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
    Region { polygons, rings }
}
