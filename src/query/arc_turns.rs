//! The arcs of a path found on an eroded mesh: which corners go round which wall corner
//! (the wall corners are the eroded mesh's, `mesh/clearance/arcs.rs`).

use glam::Vec3;

use crate::corridor::PathArc;
use crate::mesh::ArcCentres;

/// Appends to `out` (cleared first) the turns of the path `corners` (found on the eroded
/// mesh whose wall corners are `centres`) round wall corners: each run of consecutive
/// corners that go round the same wall corner is one [`PathArc`]. The first and last
/// corners are never on one.
pub(crate) fn arc_turns(centres: &ArcCentres, corners: &[Vec3], out: &mut Vec<PathArc>) {
    out.clear();
    if centres.is_empty() {
        return;
    }
    for i in 1..corners.len().saturating_sub(1) {
        let Some(centre) = centres.centre_of(corners[i - 1], corners[i], corners[i + 1]) else {
            continue;
        };
        let index = i as u32;
        match out.last_mut() {
            Some(arc) if arc.centre == centre && arc.last_corner + 1 == index => {
                arc.last_corner = index;
            }
            _ => out.push(PathArc {
                first_corner: index,
                last_corner: index,
                centre,
                radius: centres.radius(),
            }),
        }
    }
}
