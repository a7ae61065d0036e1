//! Walking parent links back from a node: the corridor it stands for, and the portals
//! after a corner, replayed when the funnel restarts there.

use super::wedge::{Side, TaggedPortal, Wedge};
use super::{AStar, NONE};
use crate::corridor::{CorridorStep, HOP_KEYS, LAST_STEP};
use crate::mesh::MeshData;
use crate::search::map::{NodeMap, Slot};

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
        for _ in 0..self.nodes.len() {
            let node = &self.nodes[index as usize];
            // Portals are tagged with node keys, unique within a search.
            if node.key == u64::from(corner_node) {
                found = true;
                break;
            }
            // The root and link hops start a wedge afresh: the corner lies after them.
            if node.parent == NONE || node.key >= HOP_KEYS {
                break;
            }
            // A node's key is the slot of its entry portal, owned by its parent's polygon.
            let parent_polygon = self.nodes[node.parent as usize].polygon;
            let (left, right) = mesh.portal_vertices(parent_polygon, node.key as usize);
            self.replay.push(TaggedPortal {
                left: mesh.vertices[left as usize],
                right: mesh.vertices[right as usize],
                node: node.key as u32,
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
    /// parent's polygon, or a link hop (from [`HOP_KEYS`] on).
    ///
    /// With `uniform` costs the corridor's loops are cut (see [`cut_loops`]): a chain of
    /// parent links may leave a polygon and come back into it, because each way into a
    /// polygon is a node of its own, and such a detour can take the place of a better
    /// way into the node after it when its estimate is the lower one (estimates are
    /// lower bounds, looser for some corridors than for others: a funnel state of zero
    /// width along a polygon's side ignores the portals after it).
    pub(super) fn write_corridor(
        &mut self,
        end: u32,
        uniform: bool,
        corridor: &mut Vec<CorridorStep>,
    ) {
        self.write_chain(end, 0, corridor, |index, _| {
            Some((self.nodes[index as usize].parent, 0))
        });
        if uniform {
            cut_loops(corridor, &mut self.last_visit);
        }
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
        let mut ended = false;
        for _ in 0..self.nodes.len() {
            let node = &self.nodes[index as usize];
            corridor.push(CorridorStep {
                polygon: node.polygon,
                exit,
            });
            if node.parent == NONE {
                ended = true;
                break;
            }
            let Some(previous) = back(index, state) else {
                ended = true;
                break;
            };
            exit = node.key;
            (index, state) = previous;
        }
        debug_assert!(ended, "the parent links from node {end} form a cycle");
        corridor.reverse();
    }
}

/// Cuts the loops out of `corridor`: when a polygon comes back, the steps from its
/// first visit up to its last are dropped, and the first visit leaves the polygon the way
/// the last one does. Polygons are convex, so with equal area costs the straight way
/// across the polygon is never longer than the loop: the pulled path of the cut corridor
/// is never longer. A loop through an off-mesh link (a step left by a hop, numbered from
/// [`HOP_KEYS`]) is kept: the link may be worth it. `last_visit` is scratch; should it
/// run out of memory, the loops it cannot see are kept.
fn cut_loops(corridor: &mut Vec<CorridorStep>, last_visit: &mut NodeMap) {
    // Stretch by stretch between links: the last visit of each polygon (walking the
    // stretch backwards, the first one found), then from each step on to the last
    // visit of its polygon. Written steps never overtake the ones still to be read.
    let mut kept = 0;
    let mut begin = 0;
    while begin < corridor.len() {
        let end = corridor[begin..]
            .iter()
            .position(|step| step.exit != LAST_STEP && step.exit >= HOP_KEYS)
            .map_or(corridor.len(), |i| begin + i + 1);
        last_visit.clear();
        for i in (begin..end).rev() {
            let polygon = corridor[i].polygon;
            if let Slot::Vacant(bucket) = last_visit.find(polygon) {
                last_visit.insert_at(bucket, polygon, i as u32);
            }
        }
        let mut i = begin;
        while i < end {
            let last = last_visit
                .get(corridor[i].polygon)
                .map_or(i, |v| v as usize);
            let last = last.max(i);
            corridor[kept] = corridor[last];
            kept += 1;
            i = last + 1;
        }
        begin = end;
    }
    corridor.truncate(kept);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Exits as written below: `100` and up stand for link hops (`hop_key(exit - 100)`).
    fn steps(polygons: &[u32], exits: &[u64]) -> Vec<CorridorStep> {
        polygons
            .iter()
            .zip(exits)
            .map(|(&polygon, &exit)| CorridorStep {
                polygon,
                exit: if (100..LAST_STEP).contains(&exit) {
                    crate::corridor::hop_key((exit - 100) as u32)
                } else {
                    exit
                },
            })
            .collect()
    }

    /// Exits are numbered `10 * polygon + k`: corner slots below 100, hops from 100.
    #[test]
    fn loops_are_cut_and_the_return_leaves_as_before() {
        let mut last_visit = NodeMap::default();
        let mut corridor = steps(
            &[0, 1, 2, 0, 3, 4, 5, 3, 6],
            &[1, 11, 21, 2, 31, 41, 51, 32, LAST_STEP],
        );
        cut_loops(&mut corridor, &mut last_visit);
        assert_eq!(corridor, steps(&[0, 3, 6], &[2, 32, LAST_STEP]));
        // A loop inside another is cut with it; a polygon of a cut loop may come again.
        let mut corridor = steps(
            &[0, 1, 2, 1, 3, 0, 2, 4],
            &[1, 11, 21, 12, 31, 2, 22, LAST_STEP],
        );
        cut_loops(&mut corridor, &mut last_visit);
        assert_eq!(corridor, steps(&[0, 2, 4], &[2, 22, LAST_STEP]));
        // Nothing to cut.
        let mut corridor = steps(&[5, 4, 3], &[51, 41, LAST_STEP]);
        cut_loops(&mut corridor, &mut last_visit);
        assert_eq!(corridor, steps(&[5, 4, 3], &[51, 41, LAST_STEP]));
    }

    #[test]
    fn loops_through_a_link_are_kept() {
        let mut last_visit = NodeMap::default();
        // 0 -> 1 -> (hop) -> 2 -> 0 -> 3: the loop holds the hop and stays. After the hop
        // a loop of its own is cut.
        let mut corridor = steps(
            &[0, 1, 2, 0, 3, 4, 3, 5],
            &[1, 100, 21, 2, 31, 41, 32, LAST_STEP],
        );
        cut_loops(&mut corridor, &mut last_visit);
        assert_eq!(
            corridor,
            steps(&[0, 1, 2, 0, 3, 5], &[1, 100, 21, 2, 32, LAST_STEP])
        );
    }
}
