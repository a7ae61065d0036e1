//! The exact search without a target: a flood from one point over the whole mesh (every
//! polygon admitted, dead ends entered), for the landmark table's geodesic distances
//! (`search/landmarks`). Every node it makes is a real way from the point to its
//! interval (a length to the root, then straight); the nodes reach every point of every
//! reachable portal along its shortest way (the search's completeness), so the smallest
//! value over a portal's nodes is the portal's exact geodesic distance.

use glam::DVec2;

use super::ExactSearch;
use super::interval::{NONE, SearchNode, distance_to_segment};
use crate::mesh::MeshData;

impl ExactSearch {
    /// Floods the mesh from `point` (strictly inside polygon `polygon`, in the ground
    /// plane) with the exact search, ignoring flags, until no node is left; the nodes
    /// made are then [`ExactSearch::flooded`]. False when the search made more than
    /// `max_nodes` nodes (the nodes so far are then an incomplete flood).
    pub(crate) fn flood(
        &mut self,
        mesh: &MeshData,
        point: DVec2,
        polygon: u32,
        max_nodes: usize,
    ) -> bool {
        self.runs = self.runs.wrapping_add(1);
        self.following = None;
        self.admits_all = true;
        self.flooding = true;
        self.start = point;
        // Far from everything: the values of nodes are set by `flooding` instead.
        self.target = DVec2::splat(f64::INFINITY);
        self.goal = None;
        self.forget_search();
        self.start_set.clear();
        self.start_set.push(polygon);
        self.target_set.clear();
        self.push_start_nodes(mesh);
        self.flush_fresh();
        let complete = self.run_flood(mesh, max_nodes);
        self.flooding = false;
        complete
    }

    /// Expands every node of the flood in order of its value.
    fn run_flood(&mut self, mesh: &MeshData, max_nodes: usize) -> bool {
        while let Some(entry) = self.open.pop() {
            let node = self.nodes[entry.node as usize];
            if node.polygon == NONE || self.pruned(&node) {
                continue;
            }
            if self.nodes.len() >= max_nodes {
                return false;
            }
            self.expand(mesh, entry.node);
            self.flush_fresh();
        }
        true
    }

    /// The nodes of the last [`ExactSearch::flood`] that lie on an edge (each: the
    /// length `g` to its root, the root's point, the interval's ends, and the corner slot
    /// of its edge in the polygon it leads into).
    pub(crate) fn flooded(&self) -> impl Iterator<Item = &SearchNode> {
        self.nodes
            .iter()
            .filter(|n| n.polygon != NONE && n.slot != NONE)
    }
}

/// The value of a flood node: its length to the closest point of its interval.
#[inline]
pub(super) fn flood_value(root: DVec2, right: DVec2, left: DVec2) -> f64 {
    distance_to_segment(root, right, left)
}
