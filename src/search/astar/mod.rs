//! A* over the polygon graph, with one search node per way into a polygon: the search
//! loop and the successors of a node (here), the node pool ([`nodes`]), the open list and
//! its strategies ([`open`]), the funnel-state estimate ([`wedge`]), the sampled graph
//! for mixed area costs ([`sampled`]), walks up the parent links ([`chain`]), arrival at
//! the targets ([`target`]) and the reachability flood ([`flood`]). May use
//! `search::map`, `corridor` (to measure candidate corridors), `mesh`, `filter`,
//! `geometry`.
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

mod chain;
mod flood;
mod nodes;
mod offer;
mod open;
mod run;
mod sampled;
mod target;
mod wedge;

use glam::{Vec2, Vec3};

use crate::corridor::{CorridorStep, PathBuffer, PullScratch};
use crate::corridor::{StepKey, hop_key, key_hop};
use crate::filter::QueryFilter;
use crate::geometry::gap_between_segments_2d;
use crate::mesh::{GoalBounds, Landmarks, MeshData, NO_NEIGHBOUR, TileView, Tiled};
use crate::search::map::{NodeMap, Slot};
pub use flood::ReachedPolygon;
use nodes::{NONE, Node, NodePool, ROOT_KEY, UNVISITED};
use open::OpenList;
pub use open::SearchStrategy;
use sampled::{SampledOffer, Samples};
use target::Measured;
use wedge::{Step, TaggedPortal, Wedge};

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
    /// When set, only the polygons inside this region may be entered (on top of the
    /// filter): the second pass of the search over the merged copy.
    pub within: Option<Within<'a>>,
    /// Whether the estimates may use the mesh's landmark table (built on first use;
    /// single-target searches of one-tile meshes only).
    pub landmarks: bool,
}

/// A region of the mesh a search keeps to: the polygons whose merged polygon (in the
/// mesh's merged copy) is listed in `merged`.
#[derive(Clone, Copy)]
pub(crate) struct Within<'a> {
    /// Per polygon of the mesh: its merged polygon.
    pub of_original: &'a Tiled<u32>,
    /// The merged polygons of the region (any value).
    pub merged: &'a NodeMap,
}

impl Within<'_> {
    /// Whether polygon `p` of the mesh lies in the region.
    #[inline(always)]
    fn holds(&self, p: u32) -> bool {
        self.merged.get(self.of_original[p as usize]).is_some()
    }
}

impl std::fmt::Debug for Within<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Within").finish_non_exhaustive()
    }
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
    /// The region the search keeps to, if any.
    within: Option<Within<'a>>,
    /// Whether a way in may hold a second route, its alternate node (see `offer.rs`):
    /// ordered searches towards targets with areas costing alike.
    alternates: bool,
    /// The landmark table and the goal's bounds, when the estimates use them.
    landmarks: Option<(&'a Landmarks, GoalBounds)>,
}

impl<'a> Context<'a> {
    /// The context of a path search for `request`.
    fn of(mesh: &'a MeshData, request: &SearchRequest<'a>) -> Context<'a> {
        let landmarks = match request.targets {
            // Not with mixed area costs: there nodes are ranked on a sampled graph whose
            // costs are not bounded below by the true ones (`sampled.rs`), so a true
            // lower bound would stop that graph's A* early.
            [target]
                if request.landmarks
                    && request.strategy == SearchStrategy::AStar
                    && request.filter.is_uniform() =>
            {
                crate::search::landmarks::table(mesh).map(|table| {
                    let point = mesh.up.ground(target.point).as_dvec2();
                    (table, table.goal(mesh, [target.polygon], point))
                })
            }
            _ => None,
        };
        Context {
            landmarks,
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
            within: request.within,
            alternates: request.filter.is_uniform()
                && !matches!(
                    request.strategy,
                    SearchStrategy::GreedyBestFirst
                        | SearchStrategy::BreadthFirst
                        | SearchStrategy::DepthFirst
                ),
        }
    }

    /// Whether the search may enter polygon `p`: the filter admits it, and it lies in
    /// the region the search keeps to.
    #[inline(always)]
    fn enters(&self, mesh: &MeshData, p: u32) -> bool {
        self.filter.admits(mesh.flags_of(p)) && self.within.is_none_or(|w| w.holds(p))
    }

    /// [`Context::enters`], reading the flags through `view` when `p` is in its tile.
    #[inline]
    fn enters_from(&self, mesh: &MeshData, view: &TileView<'_>, p: u32) -> bool {
        let flags = if view.holds(p) {
            view.flags_of(p)
        } else {
            mesh.flags_of(p)
        };
        self.filter.admits(flags) && self.within.is_none_or(|w| w.holds(p))
    }

    /// Whether a node, once reached, is never improved (the unordered strategies).
    fn first_come(&self) -> bool {
        matches!(
            self.strategy,
            SearchStrategy::GreedyBestFirst
                | SearchStrategy::BreadthFirst
                | SearchStrategy::DepthFirst
        )
    }

    /// The landmark bound of the cost still to go from a way in (node `node` of the
    /// table: a portal or a link's arrival) to the target, scaled by the smallest area
    /// cost; 0 without landmarks.
    #[inline(always)]
    fn landmark_ahead(&self, node: impl FnOnce(&Landmarks) -> u32) -> f32 {
        match &self.landmarks {
            Some((table, goal)) => self.scale * table.remaining(goal, node(table)),
            None => 0.0,
        }
    }

    /// A child's estimate from the landmarks: its cost to its way in (at least `scale *
    /// before + penalty`, `before` a lower bound of the length walked there) plus `ahead`
    /// ([`Context::landmark_ahead`]); 0 without landmarks.
    #[inline(always)]
    fn landmark_floor(&self, before: f32, ahead: f32, penalty: f32) -> f32 {
        if self.landmarks.is_some() {
            self.scale * before + penalty + ahead
        } else {
            0.0
        }
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

/// Reusable search memory: a node per corner slot (directed edge) or off-mesh link hop
/// the search reaches, plus the root; the open list; scratch for measuring corridors.
/// Its memory follows the nodes the searches touch, not the mesh.
pub(crate) struct AStar {
    nodes: NodePool,
    open: OpenList,
    /// Whether the current search was cut short by the node limit.
    cut: bool,
    /// Nodes expanded (successors offered) by the current search.
    expanded: u32,
    /// Scratch for measuring a candidate corridor exactly.
    corridor: Vec<CorridorStep>,
    pull: PullScratch,
    measured: PathBuffer,
    /// Scratch for replaying the funnel after a corner.
    replay: Vec<TaggedPortal>,
    /// The polygons the current flood has listed.
    listed: NodeMap,
    /// Per polygon of the corridor being written: the step of its last visit (see
    /// [`AStar::write_corridor`]).
    last_visit: NodeMap,
    /// Per node index, for searches with mixed area costs; empty until the first one.
    samples: Vec<Samples>,
    /// The state of the current search between [`AStar::run`]s: its reopening budget,
    /// the best measured path and the node it ends at, whether it has ended.
    reopen_budget: usize,
    best: Option<(Measured, u32)>,
    ended: bool,
    /// Searches started (see [`AStar::runs`]).
    runs: u64,
}

impl AStar {
    /// Scratch for searches of at most `max_nodes` nodes each; allocates nothing until
    /// the first search.
    pub fn new(max_nodes: usize) -> AStar {
        AStar {
            nodes: NodePool::new(max_nodes),
            open: OpenList::default(),
            cut: false,
            expanded: 0,
            corridor: Vec::new(),
            pull: PullScratch::default(),
            measured: PathBuffer::default(),
            replay: Vec::new(),
            listed: NodeMap::default(),
            last_visit: NodeMap::default(),
            samples: Vec::new(),
            reopen_budget: 0,
            best: None,
            ended: true,
            runs: 0,
        }
    }

    /// Whether the last search (or flood) stopped because it reached the node limit.
    pub fn was_cut(&self) -> bool {
        self.cut
    }

    /// The nodes the last search (or flood) expanded: popped from the open list and
    /// offered their successors.
    pub fn expanded(&self) -> u32 {
        self.expanded
    }

    /// The bytes of memory the search holds (nodes, tables, open list, corridors).
    pub fn bytes(&self) -> usize {
        self.nodes.bytes()
            + self.open.bytes()
            + self.listed.bytes()
            + self.last_visit.bytes()
            + self.samples.capacity() * std::mem::size_of::<Samples>()
            + (self.corridor.capacity()) * std::mem::size_of::<CorridorStep>()
            + self.replay.capacity() * std::mem::size_of::<TaggedPortal>()
    }

    /// Starts a search from `start` in `start_polygon`: no nodes, an empty open list,
    /// and the root (index 0).
    fn begin(&mut self, mesh: &MeshData, ctx: &Context<'_>, start_polygon: u32, start: Vec3) {
        self.runs = self.runs.wrapping_add(1);
        self.nodes.clear();
        self.open.clear();
        self.cut = false;
        self.expanded = 0;
        let root = match self.nodes.add(ROOT_KEY, self.nodes.find(ROOT_KEY)) {
            Some(root) => root,
            None => {
                // A limit of zero nodes (or no memory): nothing is searched.
                self.cut = true;
                return;
            }
        };
        let wedge = Wedge::at(start, 0.0);
        let estimate = ctx.estimate(mesh, &wedge, 0.0, 0.0);
        self.nodes[root as usize] = Node {
            key: ROOT_KEY,
            polygon: start_polygon,
            estimate,
            wedge,
            reach: 0.0,
            ..UNVISITED
        };
        if ctx.sampled {
            self.sample_slot(root);
            self.samples[root as usize] = Samples::START;
        }
        self.push(ctx, root, 0.0, estimate, 0.0);
    }

    /// Pushes an open entry for `node` with cost so far `cost`, estimate `estimate` and
    /// landmark bound `floor` (see [`Node::floor`]).
    #[inline]
    fn push(&mut self, ctx: &Context<'_>, node: u32, cost: f32, estimate: f32, floor: f32) {
        self.open
            .push(ctx.strategy, ctx.weight, node, cost, estimate, floor);
    }

    /// Where node `index` is entered: its entry portal, or a point (the start, or the
    /// end of a link hop), in the ground plane.
    fn entry_of(&self, mesh: &MeshData, index: u32) -> (Vec2, Vec2) {
        let node = &self.nodes[index as usize];
        if node.parent == NONE {
            let p = mesh.up.ground(node.wedge.apex);
            return (p, p);
        }
        let Some(hop) = key_hop(node.key) else {
            let parent_polygon = self.nodes[node.parent as usize].polygon;
            let (left, right) = mesh.portal_vertices(parent_polygon, node.key as usize);
            return (mesh.ground[left as usize], mesh.ground[right as usize]);
        };
        let hop = &mesh.links.hops[hop as usize];
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
        // Estimates never fall along parent links (`offer` gives a node at least its
        // parent's estimate, and a parent's estimate only drops afterwards), which rules
        // out parent cycles when nodes are reopened.
        debug_assert!(
            ctx.sampled
                || node.parent == NONE
                || self.nodes[node.parent as usize].estimate <= node.estimate,
            "the estimate of node {index} is below its parent's"
        );
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
        // The sampled cost model (mixed area costs) ranks successors by arrival costs.
        let sampled = ctx.sampled.then(|| self.sampled_parent(mesh, ctx, index));
        // The polygon's tile, looked up once: its slots, neighbours, portals and the
        // landmark nodes of its slots are all in it; a neighbour's flags and a portal's
        // points usually are (on a world of tiles, a lookup by global id decodes it).
        let view = mesh.tile_view(node.polygon);
        let slot_nodes = ctx
            .landmarks
            .as_ref()
            .map_or(&[][..], |(table, _)| table.slot_nodes_of_tile(view.tile()));
        let (portals, vertices) = (
            mesh.portals.chunk_or_first(view.tile()),
            mesh.vertices.chunk_or_first(view.tile()),
        );
        // A portal's end may be a vertex of the neighbour's tile (a seam).
        let vertex = |v: u32| match vertices.get(view.local(v as usize)) {
            Some(&point) if view.holds(v) => point,
            _ => mesh.vertices[v as usize],
        };
        let range = view.corner_range(node.polygon);
        for (slot, &neighbour) in range.clone().zip(view.neighbours(range)) {
            if neighbour == NO_NEIGHBOUR
                || neighbour == came_from
                || !ctx.enters_from(mesh, &view, neighbour)
            {
                continue;
            }
            // Estimates never fall below the parent's, so a node already reached with
            // an estimate at most this one's cannot be improved from here: skip the
            // funnel work. The unordered strategies never improve a reached node.
            let known = self.nodes.find(slot as u64);
            if let Slot::Found(known) = known
                && ((ctx.uniform && self.settled(ctx, slot as u64, known, &node))
                    || ctx.first_come())
            {
                continue;
            }
            let [left, right] = portals[view.local(slot)];
            let mut penalty = node.penalty;
            if extra > 0.0 {
                let (l, r) = (mesh.ground[left as usize], mesh.ground[right as usize]);
                penalty += extra * gap_between_segments_2d(entry.0, entry.1, l, r);
            }
            let (left, right) = (vertex(left), vertex(right));
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
            let reach = if ctx.alternates {
                wedge.reach(up, left, right).max(node.reach)
            } else {
                0.0
            };
            // Every path through the corridor to the portal passes the apex (not
            // `reach`: that is measured to the part of the portal inside the wedge).
            let ahead = ctx.landmark_ahead(|t| {
                slot_nodes
                    .get(view.local(slot))
                    .copied()
                    .unwrap_or_else(|| t.slot_node(slot))
            });
            let floor = if ctx.landmarks.is_some() {
                ctx.landmark_floor(wedge.length_to_portal(left, right), ahead, penalty)
            } else {
                0.0
            };
            let child = Child {
                key: slot as u64,
                known,
                polygon: neighbour,
                wedge,
                penalty,
                cost,
                reach,
                floor,
            };
            if let Some(parent) = &sampled {
                let offer = parent.arrive(ctx, [left, left.lerp(right, 0.5), right], 0.0);
                self.offer_sampled(ctx, index, child, offer, reopen_budget);
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
            if !ctx.filter.admits(mesh.links.flags(hop.link)) || !ctx.enters(mesh, hop.to_polygon) {
                continue;
            }
            let key = hop_key(first_hop + i as u32);
            let known = self.nodes.find(key);
            if let Slot::Found(known) = known
                && ((ctx.uniform && self.settled(ctx, key, known, &node)) || ctx.first_come())
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
            let hop_id = first_hop + i as u32;
            let beyond = ctx.landmark_ahead(|t| t.hop_node(hop_id));
            let floor = ctx.landmark_floor(walked, beyond, penalty);
            let child = Child {
                key,
                known,
                polygon: hop.to_polygon,
                wedge,
                penalty,
                cost,
                reach: walked.max(node.reach),
                floor,
            };
            if let Some(parent) = &sampled {
                let at_start = parent.arrive(ctx, [hop.from; 3], link_cost);
                let ahead = parent.arrive(ctx, [hop.to; 3], 0.0).ahead;
                let offer = SampledOffer { ahead, ..at_start };
                self.offer_sampled(ctx, index, child, offer, reopen_budget);
            } else {
                self.offer(mesh, ctx, index, &node, child, reopen_budget);
            }
        }
    }
}

/// The number of possible nodes on `mesh`: its corner slots, link hops and the root.
fn element_count(mesh: &MeshData) -> usize {
    mesh.corners.total_len() + mesh.links.hop_count() + 1
}

/// A successor being offered.
struct Child {
    /// Its way in (see [`Node::key`]).
    key: StepKey,
    /// Its node, or where the node would go (looked up once while expanding).
    known: Slot,
    polygon: u32,
    wedge: Wedge,
    penalty: f32,
    cost: f32,
    /// Lower bound of the length walked to its entry ([`Wedge::reach`]).
    reach: f32,
    /// A lower bound of the whole path's cost from the landmarks (0 without them).
    floor: f32,
}
