//! The corridor of a path found on an eroded mesh, in the original mesh's polygons.
//!
//! Path searches for an agent radius run on the eroded mesh's joined copy
//! (`mesh/clearance/joined.rs`), whose polygons straddle the original polygons' borders.
//! The corridor reported to the caller must name original polygons, in order, each the
//! neighbour of the one before: the path's corners are walked, segment by segment,
//! across the original mesh (in the ground plane, from the original polygon under the
//! first joined polygon that holds the start), listing every polygon the walk crosses.
//! The path lies inside the eroded region, so inside the original walkable area, and
//! keeps the radius from every wall: a walk blocked by rounding at a vertex, or ending
//! outside the last joined polygon's originals, is reported as a failure, and the caller
//! then answers by a search of the unjoined eroded mesh instead (never a wrong
//! corridor). Allocates nothing in steady state.

use glam::Vec2;

use super::Query;
use crate::corridor::{CorridorStep, LAST_STEP, StepKey};
use crate::mesh::{ErodedMesh, MeshData, WalkEnd};

impl Query {
    /// Renames the polygons of `self.corridor`, found on `eroded`'s search mesh
    /// ([`ErodedMesh::search_mesh`]) with the path in `self.path.corners`, by this
    /// query's (original) mesh's polygons. False when the path could not be walked
    /// across the original mesh (the corridor is then cleared).
    pub(super) fn corridor_from_eroded(&mut self, eroded: &ErodedMesh) -> bool {
        let Some(joined) = &eroded.joined else {
            self.corridor_to_original(&eroded.of_original);
            return true;
        };
        let (Some(first), Some(last)) = (self.corridor.first(), self.corridor.last()) else {
            return true;
        };
        let (first, last) = (first.polygon, last.polygon);
        let handle = self.mesh.clone();
        let mesh = handle.data();
        let corners = &self.path.corners;
        let Some(&start) = corners.first() else {
            self.corridor.clear();
            return false;
        };
        let ground = |p| mesh.up.ground(p);
        let Some(mut at) = deepest_holder(mesh, joined.originals(first), ground(start)) else {
            self.corridor.clear();
            return false;
        };
        let corridor = &mut self.corridor;
        corridor.clear();
        corridor.push(step(at));
        let mut note = |polygon: u32| {
            if corridor.last().is_none_or(|s| s.polygon != polygon) {
                corridor.push(step(polygon));
            }
        };
        for pair in corners.windows(2) {
            let (from, to) = (ground(pair[0]), ground(pair[1]));
            if from == to {
                continue;
            }
            match mesh.walk_straight_through(at, from, to, |_| true, |left, _| note(left)) {
                WalkEnd::Reached(polygon) => {
                    note(polygon);
                    at = polygon;
                }
                WalkEnd::Blocked { .. } => {
                    self.corridor.clear();
                    return false;
                }
            }
        }
        if joined.originals(last).binary_search(&at).is_err() {
            self.corridor.clear();
            return false;
        }
        self.link_corridor_exits();
        true
    }

    /// Sets the exit of each step of `self.corridor` (original polygons, each the
    /// neighbour of the one before) to the slot of its portal into the next step.
    pub(super) fn link_corridor_exits(&mut self) {
        let handle = self.mesh.clone();
        self.link_exits_on(handle.data());
    }

    /// [`Query::link_corridor_exits`] with this query's mesh `mesh` at hand.
    pub(super) fn link_exits_on(&mut self, mesh: &MeshData) {
        for i in 1..self.corridor.len() {
            let (from, to) = (self.corridor[i - 1].polygon, self.corridor[i].polygon);
            if let Some(slot) = mesh
                .corner_range(from)
                .find(|&slot| mesh.neighbours[slot] == to)
            {
                self.corridor[i - 1].exit = slot as StepKey;
            }
        }
    }
}

/// A corridor step in `polygon`, its exit not yet known.
fn step(polygon: u32) -> CorridorStep {
    CorridorStep {
        polygon,
        exit: LAST_STEP,
    }
}

/// The polygon of `candidates` (ids of `mesh`; `None` when there are none) that holds `point` (ground
/// plane) deepest: the largest least signed distance inside its edges (negative
/// outside), so a point on a border goes to either side and rounding never leaves it
/// without one.
fn deepest_holder(mesh: &MeshData, candidates: &[u32], point: Vec2) -> Option<u32> {
    let depth = |p: u32| {
        let range = mesh.corner_range(p);
        range
            .clone()
            .map(|slot| {
                let (a, b) = mesh.edge(p, slot);
                let (a, b) = (mesh.ground[a as usize], mesh.ground[b as usize]);
                let edge = b - a;
                edge.perp_dot(point - a) / edge.length().max(f32::MIN_POSITIVE)
            })
            .fold(f32::INFINITY, f32::min)
    };
    candidates
        .iter()
        .copied()
        .max_by(|&p, &q| depth(p).total_cmp(&depth(q)))
}
