//! A* over the polygon graph, with one search node per way into a polygon.
//!
//! A node is "inside polygon Q, having entered it through portal s" (a directed edge of
//! the mesh), plus one root node for the start polygon. Keeping a node per entry portal
//! rather than per polygon lets two routes into the same polygon, from different sides,
//! both survive until their continuations are compared; on meshes of long thin polygons
//! (merged grid cells) a single node per polygon would keep only the route whose
//! estimate looked best at the time.
//!
//! Each node carries the funnel state of its partial corridor (a [`Wedge`]), from which
//! come its cost so far (the path length to its entry portal) and its estimate of the
//! whole path (around the wedge to the target). The heuristic part is scaled by the
//! weight. When a node in the target polygon comes first, its corridor is measured
//! exactly with the funnel and it competes again with that length; the search ends when
//! an exactly measured corridor is the best entry of the open list.
//!
//! Costs depend on the route, so a node can be improved after it was closed; it is then
//! reopened (a bounded number of times, so a search always ends). The open list is a
//! binary heap with lazy deletion: an entry whose estimate differs from its node's
//! current one is stale and skipped when popped.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use glam::Vec3;

use super::wedge::{NO_NODE, Side, Step, TaggedPortal, Wedge};
use crate::filter::QueryFilter;
use crate::geometry::closest_point_on_segment;
use crate::mesh::{MeshData, NO_NEIGHBOUR};
use crate::path::funnel::{Portal, string_pull};

/// Marks "no parent" / "no slot".
const NONE: u32 = u32::MAX;

/// Per-node search state. Valid only while `stamp` equals the search's generation, so
/// nothing needs clearing between searches.
#[derive(Clone, Copy)]
struct Node {
    stamp: u32,
    closed: bool,
    /// `estimate` is the exact pulled length of the node's corridor.
    exact: bool,
    /// The polygon this node is in.
    polygon: u32,
    /// Estimated length of the whole path through this node (unweighted).
    estimate: f32,
    /// Funnel state of the corridor from the start to this node.
    wedge: Wedge,
    /// The node this one was reached from (`NONE` for the root).
    parent: u32,
}

const UNVISITED: Node = Node {
    stamp: 0,
    closed: false,
    exact: false,
    polygon: NONE,
    estimate: f32::INFINITY,
    wedge: Wedge {
        apex: Vec3::ZERO,
        apex_cost: 0.0,
        left: Vec3::ZERO,
        right: Vec3::ZERO,
        left_node: NO_NODE,
        right_node: NO_NODE,
    },
    parent: NONE,
};

/// An open-list entry, ordered so that `BinaryHeap` pops the lowest total first.
#[derive(Clone, Copy)]
struct OpenEntry {
    /// Priority: cost so far plus the weighted heuristic.
    total: f32,
    /// The node's estimate when the entry was pushed (detects stale entries).
    estimate: f32,
    node: u32,
}

impl OpenEntry {
    #[inline]
    fn key(&self) -> u64 {
        // `+ 0.0` turns a -0.0 into 0.0, whose bits sort first.
        (u64::from((self.total + 0.0).to_bits()) << 32) | u64::from((self.estimate + 0.0).to_bits())
    }
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
        // Reversed for a min-heap. Totals and estimates are sums of lengths, never
        // negative or NaN, and the bits of non-negative floats order like their values,
        // so one integer comparison orders by total, then estimate.
        other.key().cmp(&self.key())
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
pub(crate) struct SearchRequest<'a> {
    /// The polygon holding `start`.
    pub start_polygon: u32,
    /// The start point (world coordinates).
    pub start: Vec3,
    /// The polygon holding `target`.
    pub target_polygon: u32,
    /// The point to reach (world coordinates).
    pub target: Vec3,
    /// Multiplies the heuristic part of each estimate.
    pub heuristic_weight: f32,
    /// Which polygons may be entered.
    pub filter: &'a QueryFilter,
}

/// The outcome of a search.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum SearchOutcome {
    /// The target polygon was reached.
    Reached,
    /// The target is unreachable; the corridor leads to the explored polygon whose
    /// entry portal came closest to the target.
    Closest(u32),
}

/// Reusable search memory: one node per corner slot (directed edge) plus the root, and
/// the open list.
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
    /// Scratch for a mesh with `corner_count` polygon corners in all, or
    /// `None` when the node array cannot be allocated.
    pub fn try_new(corner_count: usize) -> Option<AStar> {
        let mut nodes = Vec::new();
        nodes.try_reserve_exact(corner_count + 1).ok()?;
        nodes.resize(corner_count + 1, UNVISITED);
        Some(AStar {
            nodes,
            open: BinaryHeap::new(),
            generation: 0,
            corridor: Vec::new(),
            portals: Vec::new(),
            corners: Vec::new(),
            replay: Vec::new(),
        })
    }

    /// The index of the root node (the start polygon).
    fn root(&self) -> u32 {
        (self.nodes.len() - 1) as u32
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
    fn node(&mut self, index: u32) -> &mut Node {
        let generation = self.generation;
        let node = &mut self.nodes[index as usize];
        if node.stamp != generation {
            *node = Node {
                stamp: generation,
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
            filter,
        } = *request;
        self.next_generation();
        let up = mesh.up;
        let root = self.root();
        let root_wedge = Wedge::at(start, 0.0);
        let root_estimate = root_wedge.length_to(up, target);
        *self.node(root) = Node {
            stamp: self.generation,
            polygon: start_polygon,
            estimate: root_estimate,
            wedge: root_wedge,
            ..UNVISITED
        };
        self.open.push(OpenEntry {
            total: root_estimate * heuristic_weight,
            estimate: root_estimate,
            node: root,
        });
        // Each reopening strictly lowers an estimate, so this only guards against
        // pathological float behaviour; past the budget, closed nodes stay closed.
        let mut reopen_budget = self.nodes.len();
        let mut reached = None;
        while let Some(entry) = self.open.pop() {
            let index = entry.node;
            let node = *self.node(index);
            if node.closed || entry.estimate != node.estimate {
                continue; // stale entry
            }
            if node.polygon == target_polygon {
                if node.exact {
                    reached = Some(index);
                    break;
                }
                // The wedge estimate can be short of the truth; measure this corridor
                // exactly and let it compete again.
                let exact = self.pulled_length(mesh, index, request).max(node.estimate);
                let target_node = &mut self.nodes[index as usize];
                target_node.estimate = exact;
                target_node.exact = true;
                self.open.push(OpenEntry {
                    total: exact,
                    estimate: exact,
                    node: index,
                });
                continue;
            }
            self.nodes[index as usize].closed = true;
            let came_from = if node.parent == NONE {
                NONE
            } else {
                self.nodes[node.parent as usize].polygon
            };
            for slot in mesh.corner_range(node.polygon) {
                let neighbour = mesh.neighbours[slot];
                if neighbour == NO_NEIGHBOUR
                    || neighbour == came_from
                    || !filter.admits(mesh.flags_of(neighbour))
                {
                    continue;
                }
                // Estimates never fall below the parent's, so a node already reached
                // with an estimate at most this one's cannot be improved from here: skip
                // the funnel work.
                let known = &self.nodes[slot];
                if known.stamp == self.generation && known.estimate <= node.estimate {
                    continue;
                }
                let (left, right) = mesh.portal_vertices(node.polygon, slot);
                let (left, right) = (mesh.vertices[left as usize], mesh.vertices[right as usize]);
                let portal = TaggedPortal {
                    left,
                    right,
                    node: slot as u32,
                };
                let wedge = match node.wedge.step(up, &portal) {
                    Step::Narrowed(wedge) => wedge,
                    Step::Turn(side) => self.restart(mesh, index, &node.wedge, side, portal),
                };
                // Never below the parent's estimate: keeps estimates monotone along parent
                // links, which rules out parent cycles when nodes are reopened.
                let estimate = wedge.length_to(up, target).max(node.estimate);
                let next = self.node(slot as u32);
                if estimate >= next.estimate || (next.closed && reopen_budget == 0) {
                    continue;
                }
                if next.closed {
                    reopen_budget -= 1;
                }
                *next = Node {
                    stamp: next.stamp,
                    polygon: neighbour,
                    estimate,
                    wedge,
                    parent: index,
                    ..UNVISITED
                };
                // With weight 1 (the default) the priority is the estimate itself; only
                // other weights need the split into cost so far and heuristic.
                let total = if heuristic_weight == 1.0 {
                    estimate
                } else {
                    let cost = wedge.length_to_portal(left, right).min(estimate);
                    cost + (estimate - cost) * heuristic_weight
                };
                self.open.push(OpenEntry {
                    total,
                    estimate,
                    node: slot as u32,
                });
            }
        }
        let end = reached.unwrap_or_else(|| self.closest_reached(mesh, target));
        self.write_corridor(end, corridor);
        match reached {
            Some(_) => SearchOutcome::Reached,
            None => SearchOutcome::Closest(self.nodes[end as usize].polygon),
        }
    }

    /// After a failed search: the reached node whose entry portal comes closest to
    /// `target` (the root if none is closer). Scans the node array once, which only the
    /// rare failure pays for.
    fn closest_reached(&self, mesh: &MeshData, target: Vec3) -> u32 {
        let root = self.root();
        let mut best = (root, self.nodes[root as usize].wedge.apex.distance(target));
        for (index, node) in self.nodes.iter().enumerate() {
            if node.stamp != self.generation || node.parent == NONE {
                continue;
            }
            let parent_polygon = self.nodes[node.parent as usize].polygon;
            let (left, right) = mesh.portal_vertices(parent_polygon, index);
            let (left, right) = (mesh.vertices[left as usize], mesh.vertices[right as usize]);
            let distance = closest_point_on_segment(target, left, right).distance(target);
            if distance < best.1 {
                best = (index as u32, distance);
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
            // A node's index is the slot of its entry portal, owned by its parent's polygon.
            let parent_polygon = self.nodes[node.parent as usize].polygon;
            let (left, right) = mesh.portal_vertices(parent_polygon, index as usize);
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

    /// The length of the path pulled through the corridor that leads to node `end`.
    fn pulled_length(&mut self, mesh: &MeshData, end: u32, request: &SearchRequest) -> f32 {
        let mut corridor = std::mem::take(&mut self.corridor);
        self.write_corridor(end, &mut corridor);
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

    /// Follows parent links back from node `end` and writes the corridor in walking
    /// order. A node's index is the corner slot it was entered through, which is the
    /// exit slot of its parent's polygon.
    fn write_corridor(&self, end: u32, corridor: &mut Vec<CorridorStep>) {
        corridor.clear();
        let mut index = end;
        let mut exit_slot = NONE;
        // Parent links cannot form a cycle (estimates never decrease along them), but the
        // walk is bounded anyway so that a bug cannot hang a game.
        for _ in 0..self.nodes.len() {
            let node = &self.nodes[index as usize];
            corridor.push(CorridorStep {
                polygon: node.polygon,
                exit_slot,
            });
            if node.parent == NONE {
                break;
            }
            exit_slot = index;
            index = node.parent;
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
