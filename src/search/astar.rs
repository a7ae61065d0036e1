//! A* over the polygon graph.
//!
//! A node is a polygon. Its position is the point where the search entered it: the start
//! point for the start polygon, otherwise the midpoint of the portal it was entered
//! through. Moving to a neighbour costs the 3D distance between the two positions, and
//! reaching the target polygon adds the distance from its position to the target point.
//! The heuristic is the 3D straight-line distance to the target times a weight.
//!
//! Positions depend on the parent, so a polygon can be improved after it was closed;
//! it is then reopened. The open list is a binary heap with lazy deletion: an entry
//! whose cost is worse than the node's current cost is stale and skipped when popped.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use glam::Vec3;

use crate::mesh::{MeshData, NO_NEIGHBOUR};

/// Marks "no parent" / "no slot".
const NONE: u32 = u32::MAX;

/// Per-polygon search state. Valid only while `stamp` equals the search's generation,
/// so nothing needs clearing between searches.
#[derive(Clone, Copy)]
struct Node {
    stamp: u32,
    closed: bool,
    /// Cost from the start to `position`.
    cost: f32,
    position: Vec3,
    parent: u32,
    /// Corner slot, in the parent, of the portal this node was entered through.
    entry_slot: u32,
}

const UNVISITED: Node = Node {
    stamp: 0,
    closed: false,
    cost: 0.0,
    position: Vec3::ZERO,
    parent: NONE,
    entry_slot: NONE,
};

/// An open-list entry, ordered so that `BinaryHeap` pops the lowest total first.
#[derive(Clone, Copy)]
struct OpenEntry {
    total: f32,
    cost: f32,
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
        // Reversed for a min-heap; among equal totals prefer the larger cost (deeper node).
        other
            .total
            .total_cmp(&self.total)
            .then(self.cost.total_cmp(&other.cost))
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
}

impl AStar {
    /// Scratch for a mesh of `polygon_count` polygons.
    pub fn new(polygon_count: u32) -> AStar {
        AStar {
            nodes: vec![UNVISITED; polygon_count as usize],
            open: BinaryHeap::new(),
            generation: 0,
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
                cost: f32::INFINITY,
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
        let root = self.node(start_polygon);
        root.cost = 0.0;
        root.position = start;
        let mut closest = (start_polygon, start.distance(target));
        self.open.push(OpenEntry {
            total: closest.1 * heuristic_weight,
            cost: 0.0,
            polygon: start_polygon,
        });
        let mut reached = false;
        while let Some(entry) = self.open.pop() {
            let polygon = entry.polygon;
            let node = *self.node(polygon);
            if node.closed || entry.cost > node.cost {
                continue; // stale entry
            }
            if polygon == target_polygon {
                reached = true;
                break;
            }
            self.nodes[polygon as usize].closed = true;
            for slot in mesh.corner_range(polygon) {
                let neighbour = mesh.neighbours[slot];
                if neighbour == NO_NEIGHBOUR || neighbour == node.parent {
                    continue;
                }
                let (left, right) = mesh.portal_vertices(polygon, slot);
                let position = (mesh.vertices[left as usize] + mesh.vertices[right as usize]) * 0.5;
                let mut cost = node.cost + node.position.distance(position);
                let to_target = position.distance(target);
                if neighbour == target_polygon {
                    cost += to_target;
                }
                let next = self.node(neighbour);
                if cost >= next.cost {
                    continue;
                }
                *next = Node {
                    stamp: next.stamp,
                    closed: false,
                    cost,
                    position,
                    parent: polygon,
                    entry_slot: slot as u32,
                };
                let heuristic = if neighbour == target_polygon {
                    0.0
                } else {
                    to_target * heuristic_weight
                };
                self.open.push(OpenEntry {
                    total: cost + heuristic,
                    cost,
                    polygon: neighbour,
                });
                if to_target < closest.1 {
                    closest = (neighbour, to_target);
                }
            }
        }
        let end = if reached { target_polygon } else { closest.0 };
        self.write_corridor(end, corridor);
        if reached {
            SearchOutcome::Reached
        } else {
            SearchOutcome::Closest(end)
        }
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
