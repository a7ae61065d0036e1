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
//!
//! **Area costs.** With a filter whose areas cost differently, a node also carries a
//! *penalty*: for each polygon of its corridor, (its cost - the smallest cost) times the
//! distance between the portals the corridor enters and leaves it by, which no path
//! through that polygon can beat. Its estimate is then the smallest cost times the
//! wedge's length plus the penalty: still a lower bound of the path's cost, so A* stays
//! exact with any positive costs (costs below 1 lower the smallest cost, which only
//! weakens the estimates). Such bounds often tie (a path may clip a costly triangle at
//! a vertex), so which of two corridors a node keeps is decided by a rough arrival cost
//! instead: the cheapest way over three points (ends and middle) of each portal.
//!
//! **Off-mesh links.** Each direction of a link (a hop) is one more way into a polygon,
//! so it has a node too. Taking it restarts the wedge at the link's end, after the cost
//! to its start (a lower bound from the wedge) plus the link's own cost.
//!
//! **Strategies.** Only the order of the open list differs: by estimate (A*, weighted by
//! the heuristic weight), by cost so far (Dijkstra), by the heuristic alone (greedy best
//! first), first in first out (breadth first) or last in first out (depth first). A* and
//! Dijkstra end when the best exactly measured path costs no more than any open entry;
//! the others end at the first node in a target polygon.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use glam::{Vec2, Vec3};

use super::SearchStrategy;
use super::corridor::{
    CorridorStep, LAST_STEP, PathBuffer, PullRequest, PullScratch, pull_corridor,
};
use super::wedge::{NO_NODE, Side, Step, TaggedPortal, Wedge};
use crate::filter::QueryFilter;
use crate::geometry::gap_between_segments_2d;
use crate::mesh::{MeshData, NO_NEIGHBOUR};

/// Marks "no parent" / "no slot".
const NONE: u32 = u32::MAX;

/// Per-node search state. Valid only while `stamp` equals the search's generation, so
/// nothing needs clearing between searches.
#[derive(Clone, Copy)]
struct Node {
    stamp: u32,
    closed: bool,
    /// The polygon this node is in.
    polygon: u32,
    /// Lower bound of the cost of the whole path through this node (with mixed area
    /// costs: its rank in the sampled graph, see [`AStar::offer_sampled`]).
    estimate: f32,
    /// Lower bound of the cost so far, to the entry of this node (sampled graph: the
    /// cheapest arrival at it).
    cost: f32,
    /// Area-cost penalty of the corridor so far (see the module docs).
    penalty: f32,
    /// Funnel state of the corridor from the start to this node.
    wedge: Wedge,
    /// The node this one was reached from (`NONE` for the root).
    parent: u32,
}

const UNVISITED: Node = Node {
    stamp: 0,
    closed: false,
    polygon: NONE,
    estimate: f32::INFINITY,
    cost: 0.0,
    penalty: 0.0,
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

/// An open-list entry, ordered so that `BinaryHeap` pops the lowest key first.
#[derive(Clone, Copy)]
struct OpenEntry {
    /// Priority; for the ordered strategies the bits of the priority value (high half)
    /// then of the estimate (low half), for the others a sequence number.
    key: u64,
    /// The node's estimate when the entry was pushed (detects stale entries).
    estimate: f32,
    node: u32,
}

impl OpenEntry {
    /// The priority value of an entry of an ordered strategy.
    fn priority(&self) -> f32 {
        f32::from_bits((self.key >> 32) as u32)
    }
}

impl PartialEq for OpenEntry {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
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
        other.key.cmp(&self.key)
    }
}

/// The key of an ordered entry. Priorities and estimates are sums of lengths and costs,
/// never negative or NaN, and the bits of non-negative floats order like their values,
/// so one integer comparison orders by priority, then estimate.
#[inline]
fn ordered_key(priority: f32, estimate: f32) -> u64 {
    // `+ 0.0` turns a -0.0 into 0.0, whose bits sort first.
    (u64::from((priority + 0.0).to_bits()) << 32) | u64::from((estimate + 0.0).to_bits())
}

/// A point to reach: the polygon holding it and the point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Target {
    pub polygon: u32,
    pub point: Vec3,
}

/// What to search for.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SearchRequest<'a> {
    /// The polygon holding `start`.
    pub start_polygon: u32,
    /// The start point (world coordinates).
    pub start: Vec3,
    /// The points to reach (at least one); the search finds the cheapest of them.
    pub targets: &'a [Target],
    /// The order of the open list.
    pub strategy: SearchStrategy,
    /// Multiplies the heuristic part of each estimate (A* only).
    pub heuristic_weight: f32,
    /// Which polygons and links may be used, and the area costs.
    pub filter: &'a QueryFilter,
}

/// The outcome of a search.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum SearchOutcome {
    /// `targets[target]` was reached, at this cost.
    Reached { target: usize, cost: f32 },
    /// No target is reachable; the corridor leads to an explored polygon that comes
    /// closest to the first target.
    Closest(u32),
}

/// A polygon reached by [`crate::Query::reachable_polygons`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReachedPolygon {
    /// The polygon.
    pub polygon: u32,
    /// The cost of the cheapest way into it found, in cost units (world length times
    /// area costs).
    pub cost: f32,
    /// The polygon it is entered from; `u32::MAX` for the start polygon.
    pub parent: u32,
}

/// A node's state in the sampled graph of a search with mixed area costs (see
/// [`AStar::offer_sampled`]), kept beside the nodes so that other searches do not carry
/// it. Valid while its node is reached in the current search.
#[derive(Clone, Copy)]
struct Samples {
    /// The cost of reaching the left end, middle and right end of the node's entry.
    arrival: [f32; 3],
    /// Per sample: the node and sample its arrival came from.
    via: [(u32, u8); 3],
}

impl Samples {
    const UNREACHED: Samples = Samples {
        arrival: [f32::INFINITY; 3],
        via: [(NONE, 0); 3],
    };
    const START: Samples = Samples {
        arrival: [0.0; 3],
        via: [(NONE, 0); 3],
    };
}

/// The fixed parts of one search.
struct Context<'a> {
    targets: &'a [Target],
    filter: &'a QueryFilter,
    strategy: SearchStrategy,
    weight: f32,
    /// The smallest area cost: what straight-line lengths are scaled by.
    scale: f32,
    /// Whether all areas cost the same (no penalties then).
    uniform: bool,
    /// Whether nodes are ranked by sampled arrival costs (areas cost differently and
    /// there is a target): see [`AStar::offer_sampled`].
    sampled: bool,
    /// Entries costing more are not pushed (the flood's bound).
    max_cost: f32,
    /// Whether the cost so far of nodes is needed: by every order but plain A*'s, and
    /// by the flood's bound (plain A* orders by the estimate alone).
    needs_cost: bool,
}

impl Context<'_> {
    /// Whether a node, once reached, is never improved (the unordered strategies).
    fn first_come(&self) -> bool {
        matches!(
            self.strategy,
            SearchStrategy::GreedyBestFirst
                | SearchStrategy::BreadthFirst
                | SearchStrategy::DepthFirst
        )
    }

    /// Lower bound of the cost of a path from the start through a corridor with funnel
    /// state `wedge` and penalty `penalty` to the nearest target; `cost` (the cost so far)
    /// when there are no targets.
    #[inline(always)]
    fn estimate(&self, mesh: &MeshData, wedge: &Wedge, penalty: f32, cost: f32) -> f32 {
        if let [target] = self.targets {
            return self.scale * wedge.length_to(mesh.up, target.point) + penalty;
        }
        if self.targets.is_empty() {
            return cost;
        }
        let mut length = f32::INFINITY;
        for target in self.targets {
            length = length.min(wedge.length_to(mesh.up, target.point));
        }
        self.scale * length + penalty
    }
}

/// Reusable search memory: one node per corner slot (directed edge), one per off-mesh
/// link hop, plus the root; the open list; scratch for measuring corridors.
pub(crate) struct AStar {
    nodes: Vec<Node>,
    open: BinaryHeap<OpenEntry>,
    generation: u32,
    /// Nodes below this index are corner slots; from it up to the root, link hops.
    corner_count: u32,
    /// Push counter of the unordered strategies.
    sequence: u64,
    /// Scratch for measuring a candidate corridor exactly.
    corridor: Vec<CorridorStep>,
    pull: PullScratch,
    measured: PathBuffer,
    /// Scratch for replaying the funnel after a corner.
    replay: Vec<TaggedPortal>,
    /// Per polygon: the generation in which the flood listed it.
    listed: Vec<u32>,
    /// Per node, for searches with mixed area costs; empty until the first one.
    samples: Vec<Samples>,
}

impl AStar {
    /// Scratch for a mesh with `corner_count` polygon corners and `hop_count` link hops
    /// in all, or `None` when the node array cannot be allocated.
    pub fn try_new(corner_count: usize, hop_count: usize) -> Option<AStar> {
        let count = corner_count.checked_add(hop_count)?.checked_add(1)?;
        u32::try_from(count).ok()?;
        let mut nodes = Vec::new();
        nodes.try_reserve_exact(count).ok()?;
        nodes.resize(count, UNVISITED);
        Some(AStar {
            nodes,
            open: BinaryHeap::new(),
            generation: 0,
            corner_count: corner_count as u32,
            sequence: 0,
            corridor: Vec::new(),
            pull: PullScratch::default(),
            measured: PathBuffer::default(),
            replay: Vec::new(),
            listed: Vec::new(),
            samples: Vec::new(),
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
            self.listed.fill(0);
            self.generation = 1;
        }
        self.open.clear();
        self.sequence = 0;
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

    /// Starts a search from `start` in `start_polygon`: a fresh generation and the root.
    fn begin(&mut self, mesh: &MeshData, ctx: &Context<'_>, start_polygon: u32, start: Vec3) {
        self.next_generation();
        let root = self.root();
        let wedge = Wedge::at(start, 0.0);
        let estimate = ctx.estimate(mesh, &wedge, 0.0, 0.0);
        *self.node(root) = Node {
            stamp: self.generation,
            polygon: start_polygon,
            estimate,
            wedge,
            ..UNVISITED
        };
        if ctx.sampled {
            self.samples[root as usize] = Samples::START;
        }
        self.push(ctx, root, 0.0, estimate);
    }

    /// Pushes an open entry for `node` with cost so far `cost` and estimate `estimate`.
    #[inline]
    fn push(&mut self, ctx: &Context<'_>, node: u32, cost: f32, estimate: f32) {
        let key = match ctx.strategy {
            SearchStrategy::AStar if ctx.weight == 1.0 => ordered_key(estimate, estimate),
            SearchStrategy::AStar => {
                ordered_key(cost + (estimate - cost).max(0.0) * ctx.weight, estimate)
            }
            SearchStrategy::Dijkstra => ordered_key(cost, estimate),
            SearchStrategy::GreedyBestFirst => ordered_key((estimate - cost).max(0.0), estimate),
            SearchStrategy::BreadthFirst => self.sequence,
            SearchStrategy::DepthFirst => u64::MAX - self.sequence,
        };
        self.sequence += 1;
        self.open.push(OpenEntry {
            key,
            estimate,
            node,
        });
    }

    /// Searches from `request.start_polygon` for the cheapest of `request.targets` and
    /// writes the corridor, start polygon first, into `corridor`.
    pub fn search(
        &mut self,
        mesh: &MeshData,
        request: &SearchRequest<'_>,
        corridor: &mut Vec<CorridorStep>,
    ) -> SearchOutcome {
        let ctx = Context {
            targets: request.targets,
            filter: request.filter,
            strategy: request.strategy,
            weight: request.heuristic_weight,
            scale: request.filter.min_cost(),
            uniform: request.filter.is_uniform(),
            sampled: !request.filter.is_uniform(),
            max_cost: f32::INFINITY,
            needs_cost: !(request.strategy == SearchStrategy::AStar
                && request.heuristic_weight == 1.0),
        };
        if ctx.sampled && self.samples.len() != self.nodes.len() {
            self.samples.clear();
            self.samples.resize(self.nodes.len(), Samples::UNREACHED);
        }
        self.begin(mesh, &ctx, request.start_polygon, request.start);
        // Each reopening strictly lowers an estimate (or, sampled, one of three arrival
        // costs), so this only guards against pathological float behaviour; past the
        // budget, closed nodes stay closed.
        let mut reopen_budget = if ctx.sampled { 3 } else { 1 } * self.nodes.len();
        // The best measured path: (cost, node, target, sample of the sampled graph).
        let mut best: Option<(f32, u32, usize, u8)> = None;
        let ordered = !ctx.first_come();
        while let Some(&entry) = self.open.peek() {
            if let Some((cost, _, _, _)) = best
                && (!ordered || entry.priority() >= cost)
            {
                break;
            }
            self.open.pop();
            let index = entry.node;
            let node = *self.node(index);
            if node.closed || entry.estimate != node.estimate {
                continue; // stale entry
            }
            let measured = if ctx.sampled {
                self.sampled_target_cost(mesh, &ctx, index)
            } else {
                self.measure_targets(mesh, index, request)
                    .map(|(cost, target)| (cost, target, 0))
            };
            if let Some((cost, target, sample)) = measured {
                if best.is_none_or(|(b, _, _, _)| cost < b) {
                    best = Some((cost, index, target, sample));
                }
                // One target: a path leaving its polygon and coming back is never
                // better than another entry into it. Several: others may lie beyond.
                if request.targets.len() == 1 || !ordered {
                    self.nodes[index as usize].closed = true;
                    continue;
                }
            }
            self.nodes[index as usize].closed = true;
            self.expand(mesh, &ctx, index, &mut reopen_budget);
        }
        match best {
            Some((cost, end, target, sample)) => {
                if ctx.sampled {
                    self.write_sampled_corridor(end, sample, corridor);
                } else {
                    self.write_corridor(end, corridor);
                }
                SearchOutcome::Reached { target, cost }
            }
            None => {
                let end = self.closest_reached(mesh, request.targets[0].point);
                self.write_corridor(end, corridor);
                SearchOutcome::Closest(self.nodes[end as usize].polygon)
            }
        }
    }

    /// Lists the polygons reachable from `start` (in `start_polygon`) at a cost of at most
    /// `max_cost`, cheapest first, with the cost of the cheapest way found into each (a
    /// lower bound of the walked cost, exact where the way in is straight) and the
    /// polygon it was entered from.
    pub fn flood(
        &mut self,
        mesh: &MeshData,
        start_polygon: u32,
        start: Vec3,
        filter: &QueryFilter,
        max_cost: f32,
        out: &mut Vec<ReachedPolygon>,
    ) {
        out.clear();
        let ctx = Context {
            targets: &[],
            filter,
            strategy: SearchStrategy::Dijkstra,
            weight: 0.0,
            scale: filter.min_cost(),
            uniform: filter.is_uniform(),
            sampled: false,
            max_cost,
            needs_cost: true,
        };
        if self.listed.len() != mesh.polygon_count() as usize {
            self.listed.clear();
            self.listed.resize(mesh.polygon_count() as usize, 0);
        }
        self.begin(mesh, &ctx, start_polygon, start);
        let mut reopen_budget = self.nodes.len();
        while let Some(entry) = self.open.pop() {
            let index = entry.node;
            let node = *self.node(index);
            if node.closed || entry.estimate != node.estimate {
                continue;
            }
            self.nodes[index as usize].closed = true;
            let listed = &mut self.listed[node.polygon as usize];
            if *listed != self.generation {
                *listed = self.generation;
                let parent = if node.parent == NONE {
                    NONE
                } else {
                    self.nodes[node.parent as usize].polygon
                };
                out.push(ReachedPolygon {
                    polygon: node.polygon,
                    cost: node.cost,
                    parent,
                });
            }
            self.expand(mesh, &ctx, index, &mut reopen_budget);
        }
    }

    /// When node `index` is in the polygon of one or more targets: the exact cost of the
    /// path pulled through its corridor to the cheapest of them, and which.
    fn measure_targets(
        &mut self,
        mesh: &MeshData,
        index: u32,
        request: &SearchRequest<'_>,
    ) -> Option<(f32, usize)> {
        let polygon = self.nodes[index as usize].polygon;
        let mut best: Option<(f32, usize)> = None;
        for (i, target) in request.targets.iter().enumerate() {
            if target.polygon != polygon {
                continue;
            }
            let mut corridor = std::mem::take(&mut self.corridor);
            self.write_corridor(index, &mut corridor);
            let pull = PullRequest {
                start: request.start,
                target: target.point,
                filter: request.filter,
                split_at_area_changes: false,
                trace: false,
            };
            let cost = pull_corridor(mesh, &corridor, &pull, &mut self.pull, &mut self.measured);
            self.corridor = corridor;
            if best.is_none_or(|(b, _)| cost < b) {
                best = Some((cost, i));
            }
        }
        best
    }

    /// In the sampled graph (see [`AStar::offer_sampled`]): when node `index` is in the
    /// polygon of one or more targets, the cheapest arrival cost at one of them, and
    /// which.
    fn sampled_target_cost(
        &self,
        mesh: &MeshData,
        ctx: &Context<'_>,
        index: u32,
    ) -> Option<(f32, usize, u8)> {
        let node = &self.nodes[index as usize];
        let arrival = self.samples[index as usize].arrival;
        let samples = self.entry_samples(mesh, index);
        let cost = ctx.filter.cost(mesh.areas[node.polygon as usize]);
        let mut best: Option<(f32, usize, u8)> = None;
        for (i, target) in ctx.targets.iter().enumerate() {
            if target.polygon != node.polygon {
                continue;
            }
            for (j, sample) in samples.iter().enumerate() {
                let arrival = arrival[j] + cost * sample.distance(target.point);
                if best.is_none_or(|(b, _, _)| arrival < b) {
                    best = Some((arrival, i, j as u8));
                }
            }
        }
        best
    }

    /// Where node `index` is entered: its entry portal, or a point (the start, or the
    /// end of a link hop), in the ground plane.
    fn entry_of(&self, mesh: &MeshData, index: u32) -> (Vec2, Vec2) {
        let node = &self.nodes[index as usize];
        if node.parent == NONE {
            let p = mesh.up.ground(node.wedge.apex);
            return (p, p);
        }
        if index < self.corner_count {
            let parent_polygon = self.nodes[node.parent as usize].polygon;
            let (left, right) = mesh.portal_vertices(parent_polygon, index as usize);
            return (mesh.ground[left as usize], mesh.ground[right as usize]);
        }
        let hop = &mesh.links.hops[(index - self.corner_count) as usize];
        let p = mesh.up.ground(hop.to);
        (p, p)
    }

    /// Offers the successors of node `index`: through each portal of its polygon and
    /// each link hop leaving it.
    fn expand(
        &mut self,
        mesh: &MeshData,
        ctx: &Context<'_>,
        index: u32,
        reopen_budget: &mut usize,
    ) {
        let up = mesh.up;
        let node = self.nodes[index as usize];
        let came_from = if node.parent == NONE {
            NONE
        } else {
            self.nodes[node.parent as usize].polygon
        };
        // What each length walked in this polygon costs beyond the smallest cost.
        let extra = if ctx.uniform {
            0.0
        } else {
            ctx.filter.cost(mesh.areas[node.polygon as usize]) - ctx.scale
        };
        let entry = if extra > 0.0 {
            self.entry_of(mesh, index)
        } else {
            (Vec2::ZERO, Vec2::ZERO)
        };
        let (samples, polygon_cost, node_arrival) = if !ctx.sampled {
            ([Vec3::ZERO; 3], 0.0, [0.0; 3])
        } else {
            (
                self.entry_samples(mesh, index),
                ctx.filter.cost(mesh.areas[node.polygon as usize]),
                self.samples[index as usize].arrival,
            )
        };
        // The arrival costs at `points` from this node's entry samples, and the scaled
        // straight distance from each on to the nearest target.
        let arrive = |points: [Vec3; 3], extra_cost: f32| {
            let mut arrival = [f32::INFINITY; 3];
            let mut ahead = [0.0f32; 3];
            let mut via = [0u8; 3];
            for (k, point) in points.iter().enumerate() {
                for (j, sample) in samples.iter().enumerate() {
                    let cost =
                        node_arrival[j] + polygon_cost * sample.distance(*point) + extra_cost;
                    if cost < arrival[k] {
                        arrival[k] = cost;
                        via[k] = j as u8;
                    }
                }
                let nearest = ctx
                    .targets
                    .iter()
                    .map(|t| t.point.distance(*point))
                    .fold(f32::INFINITY, f32::min);
                ahead[k] = ctx.scale * nearest;
            }
            SampledOffer {
                arrival,
                ahead,
                via,
            }
        };
        for slot in mesh.corner_range(node.polygon) {
            let neighbour = mesh.neighbours[slot];
            if neighbour == NO_NEIGHBOUR
                || neighbour == came_from
                || !ctx.filter.admits(mesh.flags_of(neighbour))
            {
                continue;
            }
            // Estimates never fall below the parent's, so a node already reached with
            // an estimate at most this one's cannot be improved from here: skip the
            // funnel work. The unordered strategies never improve a reached node.
            let known = &self.nodes[slot];
            if known.stamp == self.generation
                && ((ctx.uniform && known.estimate <= node.estimate) || ctx.first_come())
            {
                continue;
            }
            let (left, right) = mesh.portal_vertices(node.polygon, slot);
            let mut penalty = node.penalty;
            if extra > 0.0 {
                let (l, r) = (mesh.ground[left as usize], mesh.ground[right as usize]);
                penalty += extra * gap_between_segments_2d(entry.0, entry.1, l, r);
            }
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
            let cost = if ctx.needs_cost {
                (ctx.scale * wedge.length_to_portal(left, right) + penalty).max(node.cost)
            } else {
                node.cost
            };
            let child = Child {
                index: slot as u32,
                polygon: neighbour,
                wedge,
                penalty,
                cost,
            };
            if ctx.sampled {
                let sampled = arrive([left, left.lerp(right, 0.5), right], 0.0);
                self.offer_sampled(ctx, index, child, sampled, reopen_budget);
            } else {
                self.offer(mesh, ctx, index, &node, child, reopen_budget);
            }
        }
        let hops = mesh.links.hops_from(node.polygon);
        if hops.is_empty() {
            return;
        }
        let first_hop = mesh.links.hop_start[node.polygon as usize];
        for (i, hop) in hops.iter().enumerate() {
            if !ctx.filter.admits(mesh.links.flags(hop.link))
                || !ctx.filter.admits(mesh.flags_of(hop.to_polygon))
            {
                continue;
            }
            let child_index = self.corner_count + first_hop + i as u32;
            let known = &self.nodes[child_index as usize];
            if known.stamp == self.generation
                && ((ctx.uniform && known.estimate <= node.estimate) || ctx.first_come())
            {
                continue;
            }
            let mut penalty = node.penalty;
            if extra > 0.0 {
                let from = up.ground(hop.from);
                penalty += extra * gap_between_segments_2d(entry.0, entry.1, from, from);
            }
            let link_area = mesh.links.area[hop.link as usize];
            let link_cost = mesh.links.cost[hop.link as usize] * ctx.filter.cost(link_area);
            penalty += link_cost;
            let walked = node.wedge.length_to(up, hop.from);
            let wedge = Wedge::at(hop.to, walked);
            let cost = (ctx.scale * walked + penalty).max(node.cost);
            let child = Child {
                index: child_index,
                polygon: hop.to_polygon,
                wedge,
                penalty,
                cost,
            };
            if ctx.sampled {
                let at_start = arrive([hop.from; 3], link_cost);
                let ahead = arrive([hop.to; 3], 0.0).ahead;
                let sampled = SampledOffer { ahead, ..at_start };
                self.offer_sampled(ctx, index, child, sampled, reopen_budget);
            } else {
                self.offer(mesh, ctx, index, &node, child, reopen_budget);
            }
        }
    }

    /// Records `child` (reached from node `parent`) unless it is no better than what the
    /// node already holds, and pushes it.
    #[inline(always)]
    fn offer(
        &mut self,
        mesh: &MeshData,
        ctx: &Context<'_>,
        parent: u32,
        parent_node: &Node,
        child: Child,
        reopen_budget: &mut usize,
    ) {
        if child.cost > ctx.max_cost {
            return;
        }
        // Never below the parent's estimate: keeps estimates monotone along parent
        // links, which rules out parent cycles when nodes are reopened.
        let estimate = ctx
            .estimate(mesh, &child.wedge, child.penalty, child.cost)
            .max(parent_node.estimate);
        let next = *self.node(child.index);
        if estimate >= next.estimate || (next.closed && *reopen_budget == 0) {
            return;
        }
        if next.closed {
            *reopen_budget -= 1;
        }
        self.nodes[child.index as usize] = Node {
            stamp: next.stamp,
            polygon: child.polygon,
            estimate,
            cost: child.cost.min(estimate),
            penalty: child.penalty,
            wedge: child.wedge,
            parent,
            ..UNVISITED
        };
        self.push(ctx, child.index, child.cost.min(estimate), estimate);
    }

    /// `offer` when areas cost differently. Lower bounds of corridor costs then tie
    /// often (a path may clip a costly triangle at a vertex), so nodes are ranked in a
    /// graph whose vertices are three points of each portal (its ends and middle): a
    /// node keeps, per point, the cheapest arrival cost offered (walking cost between
    /// points of one polygon's portals, plus link costs), and its rank is the least
    /// arrival cost plus the scaled straight distance on to the nearest target. That
    /// heuristic is consistent, so A* and Dijkstra agree on this graph. The node keeps
    /// the corridor of the offer that gave its best rank; the path through the corridor
    /// is then pulled to its cheapest shape.
    fn offer_sampled(
        &mut self,
        ctx: &Context<'_>,
        parent: u32,
        child: Child,
        offer: SampledOffer,
        reopen_budget: &mut usize,
    ) {
        let next = *self.node(child.index);
        let reached = next.polygon != NONE;
        let index = child.index as usize;
        if !reached {
            self.samples[index] = Samples::UNREACHED;
        }
        let state = &mut self.samples[index];
        // A sample's arrival only ever drops, and along a chain of samples it never
        // drops (walking costs are >= 0), so the chains cannot form cycles.
        let mut improved = false;
        for k in 0..3 {
            if offer.arrival[k] < state.arrival[k] {
                state.arrival[k] = offer.arrival[k];
                state.via[k] = (parent, offer.via[k]);
                improved = true;
            }
        }
        if !improved || (next.closed && *reopen_budget == 0) {
            return;
        }
        if next.closed {
            *reopen_budget -= 1;
        }
        let (mut rank, mut best) = (f32::INFINITY, 0);
        for k in 0..3 {
            if state.arrival[k] + offer.ahead[k] < rank {
                rank = state.arrival[k] + offer.ahead[k];
                best = k;
            }
        }
        let node = Node {
            stamp: next.stamp,
            closed: false,
            polygon: child.polygon,
            estimate: rank,
            cost: state.arrival.iter().copied().fold(f32::INFINITY, f32::min),
            penalty: child.penalty,
            wedge: child.wedge,
            parent: state.via[best].0,
        };
        self.nodes[index] = node;
        self.push(ctx, child.index, node.cost, rank);
    }

    /// Three points of node `index`'s entry in world coordinates: the ends and middle
    /// of its entry portal, or thrice the point it starts from.
    fn entry_samples(&self, mesh: &MeshData, index: u32) -> [Vec3; 3] {
        let node = &self.nodes[index as usize];
        if node.parent == NONE {
            return [node.wedge.apex; 3];
        }
        if index < self.corner_count {
            let parent_polygon = self.nodes[node.parent as usize].polygon;
            let (left, right) = mesh.portal_vertices(parent_polygon, index as usize);
            let (left, right) = (mesh.vertices[left as usize], mesh.vertices[right as usize]);
            return [left, left.lerp(right, 0.5), right];
        }
        let hop = &mesh.links.hops[(index - self.corner_count) as usize];
        [hop.to; 3]
    }

    /// After a failed search: a reached node whose polygon comes closest to `target`
    /// (the root when none is closer). Ranking by the polygon's own closest point, not
    /// by the entry portal, finds the reachable point closest to the target even when
    /// it lies on a polygon's far side (flags can close the way beyond any edge). Scans
    /// the node array once, which only the rare failure pays for.
    fn closest_reached(&self, mesh: &MeshData, target: Vec3) -> u32 {
        let root = self.root();
        let distance = |node: &Node| {
            mesh.closest_point_on_polygon(node.polygon, target)
                .distance(target)
        };
        let mut best = (root, distance(&self.nodes[root as usize]));
        for (index, node) in self.nodes.iter().enumerate() {
            if node.stamp != self.generation || node.parent == NONE {
                continue;
            }
            let distance = distance(node);
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
            // The root and link hops start a wedge afresh: the corner lies after them.
            if node.parent == NONE || index >= self.corner_count {
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

    /// As [`AStar::write_corridor`], along the chain of samples that gave the arrival
    /// cost of sample `sample` of node `end` (see [`AStar::offer_sampled`]).
    fn write_sampled_corridor(&self, end: u32, sample: u8, corridor: &mut Vec<CorridorStep>) {
        self.write_chain(end, sample, corridor, |index, sample| {
            let (parent, from) = self.samples[index as usize].via[sample as usize];
            (parent != NONE).then_some((parent, from))
        });
    }

    /// Follows parent links back from node `end` and writes the corridor in walking
    /// order. A node's index is how its polygon was entered: the corner slot of the
    /// parent's polygon, or a link hop.
    fn write_corridor(&self, end: u32, corridor: &mut Vec<CorridorStep>) {
        self.write_chain(end, 0, corridor, |index, _| {
            Some((self.nodes[index as usize].parent, 0))
        });
    }

    /// Writes the corridor ending at node `end` (state `state`), stepping back with
    /// `back` (the previous node and state, or `None`) until a node without a parent.
    fn write_chain(
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
            exit = index;
            (index, state) = previous;
        }
        corridor.reverse();
    }
}

/// A successor being offered.
struct Child {
    index: u32,
    polygon: u32,
    wedge: Wedge,
    penalty: f32,
    cost: f32,
}

/// What a successor offers in the sampled graph (see [`AStar::offer_sampled`]).
struct SampledOffer {
    /// Arrival cost at each of the successor's three entry samples.
    arrival: [f32; 3],
    /// The scaled straight distance from each sample on to the nearest target.
    ahead: [f32; 3],
    /// Per sample: the parent's sample its arrival came from.
    via: [u8; 3],
}
