//! A* over the polygon graph.
//!
//! A node is a polygon, reached through a portal from its parent. Each node carries the
//! funnel state of its partial corridor (a [`Wedge`]), from which come its cost so far
//! (the path length to the portal it was entered by) and the estimate of the whole path
//! (around the wedge to the target). The heuristic part is scaled by the weight.
//!
//! Costs depend on the route, so a polygon can be improved after it was closed; it is
//! then reopened (a bounded number of times, so a search always ends). The open list is
//! a binary heap with lazy deletion: an entry whose estimate is worse than its node's
//! current one is stale and skipped when popped.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use glam::Vec3;

use super::wedge::{NO_NODE, Side, Step, TaggedPortal, Wedge};
use crate::geometry::closest_point_on_segment;
use crate::mesh::{MeshData, NO_NEIGHBOUR};
use crate::path::funnel::{Portal, string_pull};

/// Marks "no parent" / "no slot".
const NONE: u32 = u32::MAX;

/// Per-polygon search state. Valid only while `stamp` equals the search's generation,
/// so nothing needs clearing between searches.
#[derive(Clone, Copy)]
struct Node {
    stamp: u32,
    closed: bool,
    /// `estimate` is the exact pulled length of the node's corridor (target node only).
    exact: bool,
    /// Estimated length of the whole path through this node (unweighted).
    estimate: f32,
    /// Funnel state of the corridor from the start to this node.
    wedge: Wedge,
    parent: u32,
    /// Corner slot, in the parent, of the portal this node was entered through.
    entry_slot: u32,
}

const UNVISITED: Node = Node {
    stamp: 0,
    closed: false,
    exact: false,
    estimate: 0.0,
    wedge: Wedge {
        apex: Vec3::ZERO,
        apex_cost: 0.0,
        left: Vec3::ZERO,
        right: Vec3::ZERO,
        left_node: NO_NODE,
        right_node: NO_NODE,
    },
    parent: NONE,
    entry_slot: NONE,
};

/// An open-list entry, ordered so that `BinaryHeap` pops the lowest total first.
#[derive(Clone, Copy)]
struct OpenEntry {
    /// Priority: cost so far plus the weighted heuristic.
    total: f32,
    /// The node's estimate when the entry was pushed (detects stale entries).
    estimate: f32,
    polygon: u32,
}

impl PartialEq for OpenEntry {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for OpenEntry {}
impl PartialOrd for OpenEntry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for OpenEntry {
    fn cmp(&self, other: &Self) -> Ordering {
        // Reversed for a min-heap.
        other
            .total
            .total_cmp(&self.total)
            .then(other.estimate.total_cmp(&self.estimate))
    }
}

/// One step of a corridor: a polygon and the corner slot of the portal it is left by
/// (`NONE` for the last polygon).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct CorridorStep {
    pub polygon: u32,
    pub exit_slot: u32,
}

/// What to search for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct SearchRequest {
    /// The polygon holding `start`.
    pub start_polygon: u32,
    /// The start point (world coordinates).
    pub start: Vec3,
    /// The polygon holding `target`.
    pub target_polygon: u32,
    /// The point to reach (world coordinates).
    pub target: Vec3,
    /// Multiplies the straight-line heuristic.
    pub heuristic_weight: f32,
}

/// The outcome of a search.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum SearchOutcome {
    /// The target polygon was reached.
    Reached,
    /// The target is unreachable; the corridor leads to the explored polygon whose
    /// position was closest to the target.
    Closest(u32),
}

/// Reusable search memory: one node per polygon and the open list.
pub(crate) struct AStar {
    nodes: Vec<Node>,
    open: BinaryHeap<OpenEntry>,
    generation: u32,
    /// Scratch for measuring a candidate corridor exactly.
    corridor: Vec<CorridorStep>,
    portals: Vec<Portal>,
    corners: Vec<Vec3>,
    /// Scratch for replaying the funnel after a corner.
    replay: Vec<TaggedPortal>,
}

impl AStar {
    /// Scratch for a mesh of `polygon_count` polygons.
    pub fn new(polygon_count: u32) -> AStar {
        AStar {
            nodes: vec![UNVISITED; polygon_count as usize],
            open: BinaryHeap::new(),
            generation: 0,
            corridor: Vec::new(),
            portals: Vec::new(),
            corners: Vec::new(),
            replay: Vec::new(),
        }
    }

    fn next_generation(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // Once every 2^32 searches: old stamps could alias, so wipe them.
            self.nodes.fill(UNVISITED);
            self.generation = 1;
        }
        self.open.clear();
    }

    #[inline]
    fn node(&mut self, polygon: u32) -> &mut Node {
        let generation = self.generation;
        let node = &mut self.nodes[polygon as usize];
        if node.stamp != generation {
            *node = Node {
                stamp: generation,
                estimate: f32::INFINITY,
                ..UNVISITED
            };
        }
        node
    }

    /// Searches from `request.start_polygon` to `request.target_polygon` and writes the
    /// corridor, start polygon first, into `corridor`.
    pub fn search(
        &mut self,
        mesh: &MeshData,
        request: &SearchRequest,
        corridor: &mut Vec<CorridorStep>,
    ) -> SearchOutcome {
        let SearchRequest {
            start_polygon,
            start,
            target_polygon,
            target,
            heuristic_weight,
        } = *request;
        self.next_generation();
        let up = mesh.up;
        let root_wedge = Wedge::at(start, 0.0);
        let root_estimate = root_wedge.length_to(up, target);
        let root = self.node(start_polygon);
        root.wedge = root_wedge;
        root.estimate = root_estimate;
        self.open.push(OpenEntry {
            total: root_estimate * heuristic_weight,
            estimate: root_estimate,
            polygon: start_polygon,
        });
        // Each reopening strictly lowers an estimate, so this only guards against
        // pathological float behaviour; past the budget, closed nodes stay closed.
        let mut reopen_budget = self.nodes.len();
        let mut reached = false;
        while let Some(entry) = self.open.pop() {
            let polygon = entry.polygon;
            let node = *self.node(polygon);
            if node.closed || entry.estimate > node.estimate {
                continue; // stale entry
            }
            if polygon == target_polygon {
                if node.exact {
                    reached = true;
                    break;
                }
                // The wedge estimate can be short of the truth; measure this corridor
                // exactly and let it compete again. Other routes to the target may still
                // replace it if their estimates are lower.
                let exact = self.pulled_length(mesh, request).max(node.estimate);
                let target_node = &mut self.nodes[polygon as usize];
                target_node.estimate = exact;
                target_node.exact = true;
                self.open.push(OpenEntry {
                    total: exact,
                    estimate: exact,
                    polygon,
                });
                continue;
            }
            self.nodes[polygon as usize].closed = true;
            for slot in mesh.corner_range(polygon) {
                let neighbour = mesh.neighbours[slot];
                if neighbour == NO_NEIGHBOUR || neighbour == node.parent {
                    continue;
                }
                let (left, right) = mesh.portal_vertices(polygon, slot);
                let (left, right) = (mesh.vertices[left as usize], mesh.vertices[right as usize]);
                let portal = TaggedPortal {
                    left,
                    right,
                    node: neighbour,
                };
                let wedge = match node.wedge.step(up, &portal) {
                    Step::Narrowed(wedge) => wedge,
                    Step::Turn(side) => self.restart(mesh, polygon, &node.wedge, side, portal),
                };
                // Never below the parent's estimate: keeps estimates monotone along parent
                // links, which rules out parent cycles when nodes are reopened.
                let estimate = wedge.length_to(up, target).max(node.estimate);
                let next = self.node(neighbour);
                if estimate >= next.estimate || (next.closed && reopen_budget == 0) {
                    continue;
                }
                if next.closed {
                    reopen_budget -= 1;
                }
                *next = Node {
                    stamp: next.stamp,
                    closed: false,
                    exact: false,
                    estimate,
                    wedge,
                    parent: polygon,
                    entry_slot: slot as u32,
                };
                let cost = wedge.length_to_portal(left, right).min(estimate);
                let total = cost + (estimate - cost) * heuristic_weight;
                self.open.push(OpenEntry {
                    total,
                    estimate,
                    polygon: neighbour,
                });
            }
        }
        let end = if reached {
            target_polygon
        } else {
            self.closest_reached(mesh, start_polygon, target)
        };
        self.write_corridor(end, corridor);
        if reached {
            SearchOutcome::Reached
        } else {
            SearchOutcome::Closest(end)
        }
    }

    /// After a failed search: the reached polygon whose entry portal comes closest to
    /// `target` (the start polygon if none is closer). Scans the node array once, which
    /// only the rare failure pays for.
    fn closest_reached(&self, mesh: &MeshData, start_polygon: u32, target: Vec3) -> u32 {
        let start = self.nodes[start_polygon as usize].wedge.apex;
        let mut best = (start_polygon, start.distance(target));
        for (polygon, node) in self.nodes.iter().enumerate() {
            if node.stamp != self.generation || node.parent == NONE {
                continue;
            }
            let (left, right) = mesh.portal_vertices(node.parent, node.entry_slot as usize);
            let (left, right) = (mesh.vertices[left as usize], mesh.vertices[right as usize]);
            let distance = closest_point_on_segment(target, left, right).distance(target);
            if distance < best.1 {
                best = (polygon as u32, distance);
            }
        }
        best.0
    }

    /// The funnel state after `portal` when it lies beyond `side` of the wedge of node
    /// `from`: the bounding point on that side is a corner, and the funnel restarts there
    /// over the entry portals of the nodes after the one holding the corner (found by
    /// walking up the parent links), then `portal`.
    ///
    /// If the corner's node is no longer on the parent chain (an ancestor was reopened
    /// since), the restart uses `portal` alone: a wider wedge, still a usable estimate.
    fn restart(
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
            if index == corner_node {
                found = true;
                break;
            }
            let node = &self.nodes[index as usize];
            if node.parent == NONE {
                break;
            }
            let (left, right) = mesh.portal_vertices(node.parent, node.entry_slot as usize);
            self.replay.push(TaggedPortal {
                left: mesh.vertices[left as usize],
                right: mesh.vertices[right as usize],
                node: index,
            });
            index = node.parent;
        }
        if !found {
            self.replay.truncate(1);
        }
        self.replay.reverse();
        Wedge::through_all(mesh.up, corner, corner_cost, &self.replay)
    }

    /// The length of the path pulled through the corridor that currently leads to the
    /// target polygon.
    fn pulled_length(&mut self, mesh: &MeshData, request: &SearchRequest) -> f32 {
        let mut corridor = std::mem::take(&mut self.corridor);
        self.write_corridor(request.target_polygon, &mut corridor);
        corridor_portals(
            mesh,
            &corridor,
            request.start,
            request.target,
            &mut self.portals,
        );
        string_pull(&self.portals, &mut self.corners);
        self.corridor = corridor;
        self.corners.windows(2).map(|w| w[0].distance(w[1])).sum()
    }

    /// Follows parent links back from `end` and writes the corridor in walking order.
    fn write_corridor(&self, end: u32, corridor: &mut Vec<CorridorStep>) {
        corridor.clear();
        let mut polygon = end;
        let mut exit_slot = NONE;
        // Parent links cannot form a cycle (a node only takes a parent whose cost is lower
        // than its own), but the walk is bounded anyway so that a bug cannot hang a game.
        for _ in 0..self.nodes.len() {
            corridor.push(CorridorStep { polygon, exit_slot });
            let node = &self.nodes[polygon as usize];
            if node.parent == NONE {
                break;
            }
            exit_slot = node.entry_slot;
            polygon = node.parent;
        }
        corridor.reverse();
    }
}

/// Writes the portals of `corridor` into `portals`: the start point, each shared edge
/// (left and right as seen walking), then the target point.
pub(crate) fn corridor_portals(
    mesh: &MeshData,
    corridor: &[CorridorStep],
    start: Vec3,
    target: Vec3,
    portals: &mut Vec<Portal>,
) {
    let up = mesh.up;
    portals.clear();
    portals.push(Portal::point(up.ground(start), start));
    for step in &corridor[..corridor.len().saturating_sub(1)] {
        let (left, right) = mesh.portal_vertices(step.polygon, step.exit_slot as usize);
        portals.push(Portal {
            left: mesh.ground[left as usize],
            right: mesh.ground[right as usize],
            left_world: mesh.vertices[left as usize],
            right_world: mesh.vertices[right as usize],
        });
    }
    portals.push(Portal::point(up.ground(target), target));
}
