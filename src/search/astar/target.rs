//! Arriving at the targets: the exact cost of reaching a target from a node in its
//! polygon, and, after a failed search, the reached node closest to the target.

use glam::Vec3;

use super::nodes::Node;
use super::{AStar, NONE, SearchRequest};
use crate::corridor::{PullRequest, pull_corridor};
use crate::mesh::MeshData;

/// A way to a target found from a node in the target's polygon.
#[derive(Debug, Clone, Copy)]
pub(super) struct Measured {
    /// Its cost: of the path pulled through the node's corridor, or (sampled graph) the
    /// arrival cost at the target.
    pub cost: f32,
    /// Which target (an index into the request's targets).
    pub target: usize,
    /// Sampled graph: the node's entry sample the way leaves from (0 otherwise).
    pub sample: u8,
}

impl AStar {
    /// When node `index` is in the polygon of one or more targets: the exact cost of the
    /// path pulled through its corridor to the cheapest of them, and which.
    pub(super) fn measure_targets(
        &mut self,
        mesh: &MeshData,
        index: u32,
        request: &SearchRequest<'_>,
    ) -> Option<Measured> {
        let polygon = self.nodes[index as usize].polygon;
        let mut best: Option<Measured> = None;
        for (i, target) in request.targets.iter().enumerate() {
            if target.polygon != polygon {
                continue;
            }
            let mut corridor = std::mem::take(&mut self.corridor);
            // Measured only without the sampled graph, so areas cost alike.
            self.write_corridor(index, true, &mut corridor);
            let pull = PullRequest {
                start: request.start,
                target: target.point,
                filter: request.filter,
                split_at_area_changes: false,
                trace: false,
            };
            let cost = pull_corridor(mesh, &corridor, &pull, &mut self.pull, &mut self.measured);
            self.corridor = corridor;
            if best.is_none_or(|b| cost < b.cost) {
                best = Some(Measured {
                    cost,
                    target: i,
                    sample: 0,
                });
            }
        }
        best
    }

    /// After a failed search: a reached node whose polygon comes closest to `target`
    /// (the root when none is closer). Ranking by the polygon's own closest point, not
    /// by the entry portal, finds the reachable point closest to the target even when
    /// it lies on a polygon's far side (flags can close the way beyond any edge). Scans
    /// the node array once, which only the rare failure pays for.
    pub(super) fn closest_reached(&self, mesh: &MeshData, target: Vec3) -> u32 {
        let root = 0;
        let distance = |node: &Node| {
            mesh.closest_point_on_polygon(node.polygon, target)
                .distance(target)
        };
        let mut best = (root, distance(&self.nodes[root as usize]));
        for (index, node) in self.nodes.iter() {
            if node.parent == NONE || node.polygon == NONE {
                continue;
            }
            let distance = distance(node);
            if distance < best.1 {
                best = (index as u32, distance);
            }
        }
        best.0
    }
}
