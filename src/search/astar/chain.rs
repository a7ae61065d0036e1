//! Walking parent links back from a node: the corridor it stands for, and the portals
//! after a corner, replayed when the funnel restarts there.

use super::wedge::{Side, TaggedPortal, Wedge};
use super::{AStar, NONE};
use crate::corridor::{CorridorStep, LAST_STEP};
use crate::mesh::MeshData;

impl AStar {
    /// The funnel state after `portal` when it lies beyond `side` of the wedge of node
    /// `from`: the bounding point on that side is a corner, and the funnel restarts there
    /// over the entry portals of the nodes after the one holding the corner (found by
    /// walking up the parent links), then `portal`.
    ///
    /// If the corner's node is no longer on the parent chain (an ancestor was reopened
    /// since), the restart uses `portal` alone: a wider wedge, still a usable estimate.
    pub(super) fn restart(
        &mut self,
        mesh: &MeshData,
        from: u32,
        wedge: &Wedge,
        side: Side,
        portal: TaggedPortal,
    ) -> Wedge {
        let (corner, corner_node) = wedge.bound(side);
        let corner_cost = wedge.apex_cost + wedge.apex.distance(corner);
        self.replay.clear();
        self.replay.push(portal);
        let mut index = from;
        let mut found = false;
        let corner_count = mesh.corners.len() as u32;
        for _ in 0..self.nodes.len() {
            let node = &self.nodes[index as usize];
            // Portals are tagged with node keys, unique within a search.
            if node.key == corner_node {
                found = true;
                break;
            }
            // The root and link hops start a wedge afresh: the corner lies after them.
            if node.parent == NONE || node.key >= corner_count {
                break;
            }
            // A node's key is the slot of its entry portal, owned by its parent's polygon.
            let parent_polygon = self.nodes[node.parent as usize].polygon;
            let (left, right) = mesh.portal_vertices(parent_polygon, node.key as usize);
            self.replay.push(TaggedPortal {
                left: mesh.vertices[left as usize],
                right: mesh.vertices[right as usize],
                node: node.key,
            });
            index = node.parent;
        }
        if !found {
            self.replay.truncate(1);
        }
        self.replay.reverse();
        Wedge::through_all(mesh.up, corner, corner_cost, &self.replay)
    }

    /// Follows parent links back from node `end` and writes the corridor in walking
    /// order. A node's key is how its polygon was entered: the corner slot of the
    /// parent's polygon, or a link hop.
    pub(super) fn write_corridor(&self, end: u32, corridor: &mut Vec<CorridorStep>) {
        self.write_chain(end, 0, corridor, |index, _| {
            Some((self.nodes[index as usize].parent, 0))
        });
    }

    /// Writes the corridor ending at node `end` (state `state`), stepping back with
    /// `back` (the previous node and state, or `None`) until a node without a parent.
    pub(super) fn write_chain(
        &self,
        end: u32,
        state: u8,
        corridor: &mut Vec<CorridorStep>,
        back: impl Fn(u32, u8) -> Option<(u32, u8)>,
    ) {
        corridor.clear();
        let (mut index, mut state) = (end, state);
        let mut exit = LAST_STEP;
        // Parent links cannot form a cycle (estimates never decrease along them), but the
        // walk is bounded anyway so that a bug cannot hang a game.
        for _ in 0..self.nodes.len() {
            let node = &self.nodes[index as usize];
            corridor.push(CorridorStep {
                polygon: node.polygon,
                exit,
            });
            if node.parent == NONE {
                break;
            }
            let Some(previous) = back(index, state) else {
                break;
            };
            exit = node.key;
            (index, state) = previous;
        }
        corridor.reverse();
    }
}
