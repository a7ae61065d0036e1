//! The exact search, for the exact mode ([`crate::PathMode::Optimal`]): exact Euclidean
//! shortest paths in the ground plane, by an any-angle search over intervals of polygon
//! edges (after the idea of Polyanya, Cui, Harabor and Grastien, IJCAI 2017). It reads
//! the mesh and the edge tables the mesh derives once (`MeshData::twin`, `wall_vertex`,
//! `dead_end`) and keeps only per-query scratch. May use `mesh`, `filter`, `geometry`.
//!
//! A search node is a root (the start, or a mesh vertex where the path bends) and an
//! interval of an edge that the root sees in a straight line (see [`interval`]). Its
//! successors come from projecting the interval through the polygon beyond it
//! (see [`successors`]): the part of that polygon's boundary the root still sees gives
//! nodes with the same root ("observable"); when an end of the interval is a vertex on a
//! wall, the parts hidden from the root but seen from that vertex give nodes rooted at
//! it ("non-observable"). A node's value is the length to its root plus the straight or
//! bent distance from the root through the interval to the target (the target mirrored
//! across the edge when it lies behind it), a lower bound; when a node whose polygon
//! holds the target is expanded, a final node with the exact length is queued, and the
//! search ends when such a node is the cheapest in the open list.
//!
//! Walls are edges without a neighbour and edges into polygons the query's filter
//! refuses; polygons that touch only at a vertex are not connected (an interval never
//! has zero length, and a path enters a polygon only through an edge). Lengths are plain
//! ground-plane Euclidean lengths: area costs and off-mesh links do not apply (see
//! [`crate::PathMode::Optimal`]). Corners get the heights of their mesh vertices, the
//! ends the heights of the snapped start and goal.
//!
//! A path can bend only at a vertex where a wall ends. Vertices on the mesh's own walls are
//! found once per mesh, at build (`MeshData::wall_vertex`); a vertex inside the mesh
//! becomes such a corner when the filter refuses one of the polygons round it, which is
//! looked up (and remembered for the query) the first time an interval ends there.
//!
//! The per-vertex best length to each root ("root-level pruning") keeps the number of
//! nodes small; all memory is kept between queries.

mod flood;
mod interval;
mod slices;
mod successors;

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use glam::{DVec2, Vec3};

use crate::geometry::point_near_segment as near_segment;
use crate::mesh::{GoalBounds, MeshData, NO_NEIGHBOUR, NO_TWIN, TileView};
use crate::search::map::{NodeMap, Slot};
use interval::{NONE, START, SearchNode, orient, within_collinear};
use successors::{Edge, Projection};

pub(crate) use slices::ExactStep;

/// At most this many polygons hold one point (a vertex where many polygons meet).
const MAX_POINT_POLYGONS: usize = 64;
/// At most this many polygons are visited going round one vertex.
const MAX_FAN: usize = 1024;

/// An open-list entry: the node with the lowest value pops first.
#[derive(Debug, Clone, Copy)]
struct Open {
    f: f64,
    /// Prefer deeper nodes on ties (target nodes sort first among equals).
    g: f64,
    node: u32,
}

impl PartialEq for Open {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Open {}
impl PartialOrd for Open {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Open {
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .f
            .total_cmp(&self.f)
            .then(self.g.total_cmp(&other.g))
            .then(other.node.cmp(&self.node))
    }
}

/// The scratch memory of exact searches: it follows the vertices, polygons and nodes a
/// search touches, not the mesh (the per-vertex and per-polygon state lives in
/// [`NodeMap`]s, emptied in O(1) per search).
pub(crate) struct ExactSearch {
    /// Per vertex inside the mesh met so far: whether the current filter refuses a
    /// polygon round it (1) or not (0).
    refused_round: NodeMap,
    /// The flag masks of the current query's filter (unused when `admits_all`).
    include_flags: u32,
    exclude_flags: u32,
    /// The current search admits every polygon: no flag checks.
    admits_all: bool,
    /// Per vertex root: its index in `root_g`.
    root_index: NodeMap,
    /// The best length from the start found so far to each root of `root_index`.
    root_g: Vec<f64>,
    /// Per polygon: its index in `fan`.
    fan_index: NodeMap,
    /// The point of the vertex root that last saw a polygon of `fan_index` whole (from
    /// one of its corners), at which length.
    fan: Vec<(DVec2, f64)>,
    /// At most this many nodes per search.
    max_nodes: usize,
    nodes: Vec<SearchNode>,
    open: BinaryHeap<Open>,
    /// Nodes made by the current expansion, not yet in `open`.
    fresh: Vec<u32>,
    /// The smallest value of a target node made so far in this search.
    best_final: f64,
    start_set: Vec<u32>,
    target_set: Vec<u32>,
    /// The ends of the current search, in the ground plane and in the world.
    start: DVec2,
    target: DVec2,
    start_world: Vec3,
    target_world: Vec3,
    /// The node of a chain of single successors to expand next, when a slice ended
    /// while following it (see [`ExactSearch::advance`]).
    following: Option<u32>,
    /// Searches begun with this scratch (a sliced search checks that no other search
    /// ran on it between its slices).
    runs: u64,
    /// The goal's bounds in the mesh's landmark table, when the search uses it.
    goal: Option<GoalBounds>,
    /// A flood without a target is running ([`ExactSearch::flood`]): node values are
    /// the distance to the interval, dead ends are entered.
    flooding: bool,
}

impl std::fmt::Debug for ExactSearch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ExactSearch").finish_non_exhaustive()
    }
}

impl ExactSearch {
    /// Scratch for searches of at most `max_nodes` nodes each; allocates nothing.
    pub fn new(max_nodes: usize) -> ExactSearch {
        ExactSearch {
            refused_round: NodeMap::default(),
            include_flags: u32::MAX,
            exclude_flags: 0,
            admits_all: false,
            root_index: NodeMap::default(),
            root_g: Vec::new(),
            fan_index: NodeMap::default(),
            fan: Vec::new(),
            max_nodes,
            nodes: Vec::new(),
            open: BinaryHeap::new(),
            fresh: Vec::new(),
            best_final: f64::INFINITY,
            start_set: Vec::new(),
            target_set: Vec::new(),
            start: DVec2::ZERO,
            target: DVec2::ZERO,
            start_world: Vec3::ZERO,
            target_world: Vec3::ZERO,
            following: None,
            runs: 0,
            goal: None,
            flooding: false,
        }
    }

    /// The bytes of memory held.
    pub fn bytes(&self) -> usize {
        self.refused_round.bytes()
            + self.root_index.bytes()
            + self.fan_index.bytes()
            + self.root_g.capacity() * std::mem::size_of::<f64>()
            + self.fan.capacity() * std::mem::size_of::<(DVec2, f64)>()
            + self.nodes.capacity() * std::mem::size_of::<SearchNode>()
            + self.open.capacity() * std::mem::size_of::<Open>()
            + (self.fresh.capacity() + self.start_set.capacity() + self.target_set.capacity())
                * std::mem::size_of::<u32>()
    }

    /// Whether a popped node is beaten by a shorter way to its root found since it was
    /// made (root-level pruning).
    #[inline]
    fn pruned(&self, node: &SearchNode) -> bool {
        if node.root >= START {
            return false;
        }
        self.root_index
            .get(node.root)
            .is_some_and(|i| self.root_g[i as usize] < node.g - 1e-9 * (1.0 + node.g))
    }

    /// Moves the nodes made since the last call into the open list.
    fn flush_fresh(&mut self) {
        for &index in &self.fresh {
            let node = &self.nodes[index as usize];
            self.open.push(Open {
                f: node.f,
                g: if node.polygon == NONE {
                    f64::INFINITY
                } else {
                    node.g
                },
                node: index,
            });
        }
        self.fresh.clear();
    }

    /// The nodes from the start: every edge of a polygon holding the start that leads
    /// to a polygon not holding it, seen whole.
    fn push_start_nodes(&mut self, mesh: &MeshData) {
        let s = self.start;
        for i in 0..self.start_set.len() {
            let polygon = self.start_set[i];
            let view = mesh.tile_view(polygon);
            for slot in view.corner_range(polygon) {
                let edge = Edge::of(&view, polygon, slot);
                if edge.neighbour == NO_NEIGHBOUR
                    || edge.twin == NO_TWIN
                    || self.start_set.contains(&edge.neighbour)
                {
                    continue;
                }
                if near_segment(s, edge.pu, edge.pw) {
                    continue;
                }
                let from = Projection {
                    root: START,
                    root_point: s,
                    g: 0.0,
                };
                self.emit(mesh, &view, NONE, &edge, 0.0, 1.0, from);
            }
        }
    }

    /// Stores a new node; it enters the open list at the next [`Self::flush_fresh`].
    #[inline]
    fn push(&mut self, node: SearchNode) {
        if node.polygon == NONE {
            self.best_final = self.best_final.min(node.f);
        } else if node.f >= self.best_final {
            // Never cheaper than a way to the target already found: never expanded.
            return;
        }
        self.fresh.push(self.nodes.len() as u32);
        self.nodes.push(node);
    }

    /// Follows the parents of target node `last` and writes the corners.
    fn write_path(
        &self,
        mesh: &MeshData,
        last: u32,
        start: Vec3,
        target: Vec3,
        out: &mut Vec<Vec3>,
    ) {
        let world = |root: u32| {
            if root == START {
                start
            } else {
                mesh.vertices[root as usize]
            }
        };
        out.clear();
        out.push(target);
        let end = self.nodes[last as usize];
        if end.slot != NONE {
            out.push(mesh.vertices[end.slot as usize]);
        }
        let mut previous = NONE;
        let mut at = last;
        while at != NONE {
            let node = &self.nodes[at as usize];
            if node.root != previous {
                out.push(world(node.root));
                previous = node.root;
            }
            at = node.parent;
        }
        if previous != START {
            // The first node was rooted at a vertex in line with the start.
            out.push(start);
        }
        out.reverse();
        // A corner equal to its neighbour (a start on a vertex) adds nothing.
        out.dedup();
        if out.len() < 2 {
            out.push(target);
        }
    }

    /// Whether `polygon` is seen whole from a corner root at point `root` at length `g`
    /// for the first time (or now at a shorter length); records it. Roots are told apart
    /// by their points, not their vertex ids: two vertices at one point (the two sides of
    /// a seam between tiles of a world) are one corner, and going round the fan from
    /// each in turn would never end.
    #[inline]
    fn first_fan_visit(&mut self, polygon: u32, root: DVec2, g: f64) -> bool {
        match self.fan_index.find(polygon) {
            Slot::Found(i) => {
                let fan = &mut self.fan[i as usize];
                if fan.0 == root && fan.1 <= g + 1e-9 * (1.0 + g) {
                    return false;
                }
                *fan = (root, g);
            }
            Slot::Vacant(bucket) => {
                // Out of memory for the table: the visit counts as a first one (more
                // nodes, same answer).
                if self
                    .fan_index
                    .insert_at(bucket, polygon, self.fan.len() as u32)
                {
                    self.fan.push((root, g));
                }
            }
        }
        true
    }

    /// Empties what a search leaves behind (nodes, roots, fans, the open list, the best
    /// final cost), keeping the buffers' capacity: the first step of every search.
    pub(super) fn forget_search(&mut self) {
        self.best_final = f64::INFINITY;
        self.refused_round.clear();
        self.root_index.clear();
        self.root_g.clear();
        self.fan_index.clear();
        self.fan.clear();
        self.nodes.clear();
        self.open.clear();
        self.fresh.clear();
    }

    /// Whether the current filter admits `polygon`.
    #[inline]
    pub(super) fn admitted(&self, mesh: &MeshData, polygon: u32) -> bool {
        self.admits_all || admits(mesh, self.include_flags, self.exclude_flags, polygon)
    }

    /// Whether the current filter admits `polygon`, whose tile is `view`.
    #[inline]
    pub(super) fn admitted_in(&self, view: &TileView<'_>, polygon: u32) -> bool {
        self.admits_all || {
            let flags = view.flags_of(polygon);
            flags & self.include_flags != 0 && flags & self.exclude_flags == 0
        }
    }

    /// Whether a path may bend at vertex `v` (of the tile of `view`), corner slot `slot`
    /// of an admitted polygon (a slot of `v` or of its copy across a seam): a wall of
    /// the mesh ends there, or the filter refuses a polygon round it.
    #[inline(always)]
    pub(super) fn is_corner(
        &mut self,
        mesh: &MeshData,
        view: &TileView<'_>,
        v: u32,
        slot: usize,
    ) -> bool {
        if view.wall_vertex(v) {
            return true;
        }
        if self.admits_all {
            return false;
        }
        self.is_refused_corner(mesh, v, slot)
    }

    /// Whether the current filter (which does not admit every polygon) refuses a
    /// polygon round vertex `v` (corner slot `slot`), remembered per vertex.
    #[inline(never)]
    fn is_refused_corner(&mut self, mesh: &MeshData, v: u32, slot: usize) -> bool {
        match self.refused_round.find(v) {
            Slot::Found(refused) => refused != 0,
            Slot::Vacant(bucket) => {
                let refused = self.refuses_round(mesh, slot);
                self.refused_round.insert_at(bucket, v, u32::from(refused));
                refused
            }
        }
    }

    /// Goes round the vertex of corner slot `first` (no wall of the mesh ends there, so
    /// its polygons close up round it) and tells whether the filter refuses one of them.
    fn refuses_round(&self, mesh: &MeshData, first: usize) -> bool {
        let mut slot = first;
        for _ in 0..MAX_FAN {
            // The edge of `slot` leaves the vertex; its twin arrives at it in the
            // neighbour, whose next slot leaves it again.
            let (neighbour, twin) = (mesh.neighbours[slot], mesh.twin[slot]);
            if neighbour == NO_NEIGHBOUR || twin == NO_TWIN {
                return true;
            }
            if !self.admitted(mesh, neighbour) {
                return true;
            }
            slot = mesh.next_slot(neighbour, twin as usize);
            if slot == first {
                return false;
            }
        }
        true
    }

    /// Whether a node with root `root` at `g` may be created (root-level pruning), and
    /// records `g` as the root's best.
    #[inline]
    fn accept_root(&mut self, root: u32, g: f64) -> bool {
        if root >= START {
            return true;
        }
        let r = match self.root_index.find(root) {
            Slot::Found(r) => r as usize,
            Slot::Vacant(bucket) => {
                // Out of memory for the table: the root is not pruned (same answer).
                if self
                    .root_index
                    .insert_at(bucket, root, self.root_g.len() as u32)
                {
                    self.root_g.push(g);
                }
                return true;
            }
        };
        let best = self.root_g[r];
        if g > best + 1e-9 * (1.0 + best) {
            return false;
        }
        if g < best {
            self.root_g[r] = g;
        }
        true
    }
}

/// Whether a filter with these masks admits `polygon`.
#[inline]
fn admits(mesh: &MeshData, include: u32, exclude: u32, polygon: u32) -> bool {
    let flags = mesh.flags_of(polygon);
    flags & include != 0 && flags & exclude == 0
}

/// The admitted polygons whose closed area holds `p` (which lies in `polygon`):
/// `polygon` and, across edges through `p`, its neighbours (all round a vertex).
pub(crate) fn polygons_at(
    mesh: &MeshData,
    admitted: &impl Fn(u32) -> bool,
    polygon: u32,
    p: DVec2,
    set: &mut Vec<u32>,
) {
    set.clear();
    set.push(polygon);
    let mut i = 0;
    while i < set.len() && set.len() < MAX_POINT_POLYGONS {
        let polygon = set[i];
        for slot in mesh.corner_range(polygon) {
            let neighbour = mesh.neighbours[slot];
            if neighbour == NO_NEIGHBOUR
                || mesh.twin[slot] == NO_TWIN
                || set.contains(&neighbour)
                || !admitted(neighbour)
            {
                continue;
            }
            let (a, b) = mesh.edge(polygon, slot);
            let (a, b) = (
                mesh.ground[a as usize].as_dvec2(),
                mesh.ground[b as usize].as_dvec2(),
            );
            if near_segment(p, a, b) || (orient(a, b, p) == 0.0 && within_collinear(p, a, b)) {
                set.push(neighbour);
            }
        }
        i += 1;
    }
}
