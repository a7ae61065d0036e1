//! The sampled graph of searches with mixed area costs (see [`AStar::offer_sampled`]):
//! per node, the cheapest arrival cost at three points of its entry, and the chains of
//! samples those arrivals came from.

use glam::Vec3;

use super::target::Measured;
use super::{AStar, Child, Context, NONE, Node};
use crate::corridor::CorridorStep;
use crate::mesh::MeshData;

/// A node's state in the sampled graph of a search with mixed area costs (see
/// [`AStar::offer_sampled`]), kept beside the nodes so that other searches do not carry
/// it. Valid while its node is reached in the current search.
#[derive(Clone, Copy)]
pub(super) struct Samples {
    /// The cost of reaching the left end, middle and right end of the node's entry.
    pub arrival: [f32; 3],
    /// Per sample: the node and sample its arrival came from.
    pub via: [(u32, u8); 3],
}

impl Samples {
    pub const UNREACHED: Samples = Samples {
        arrival: [f32::INFINITY; 3],
        via: [(NONE, 0); 3],
    };
    pub const START: Samples = Samples {
        arrival: [0.0; 3],
        via: [(NONE, 0); 3],
    };
}

/// What a successor offers in the sampled graph (see [`AStar::offer_sampled`]).
pub(super) struct SampledOffer {
    /// Arrival cost at each of the successor's three entry samples.
    pub arrival: [f32; 3],
    /// The scaled straight distance from each sample on to the nearest target.
    pub ahead: [f32; 3],
    /// Per sample: the parent's sample its arrival came from.
    pub via: [u8; 3],
}

/// What a node passes on to its successors in the sampled graph.
pub(super) struct SampledParent {
    /// The node's three entry samples (see [`AStar::entry_samples`]).
    samples: [Vec3; 3],
    /// The area cost of the node's polygon.
    polygon_cost: f32,
    /// The arrival costs at the samples.
    arrival: [f32; 3],
}

impl SampledParent {
    /// The arrival costs at `points` from the parent's entry samples (walking across
    /// its polygon, plus `extra_cost`), and the scaled straight distance from each on to
    /// the nearest target.
    #[inline]
    pub fn arrive(&self, ctx: &Context<'_>, points: [Vec3; 3], extra_cost: f32) -> SampledOffer {
        let mut arrival = [f32::INFINITY; 3];
        let mut ahead = [0.0f32; 3];
        let mut via = [0u8; 3];
        for (k, point) in points.iter().enumerate() {
            for (j, sample) in self.samples.iter().enumerate() {
                let cost =
                    self.arrival[j] + self.polygon_cost * sample.distance(*point) + extra_cost;
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
    }
}

impl AStar {
    /// What node `index` passes on to its successors in the sampled graph.
    pub(super) fn sampled_parent(
        &self,
        mesh: &MeshData,
        ctx: &Context<'_>,
        index: u32,
    ) -> SampledParent {
        SampledParent {
            samples: self.entry_samples(mesh, index),
            polygon_cost: ctx
                .filter
                .cost(mesh.areas[self.nodes[index as usize].polygon as usize]),
            arrival: self.samples[index as usize].arrival,
        }
    }

    /// In the sampled graph (see [`AStar::offer_sampled`]): when node `index` is in the
    /// polygon of one or more targets, the cheapest arrival cost at one of them, and
    /// which.
    pub(super) fn sampled_target_cost(
        &self,
        mesh: &MeshData,
        ctx: &Context<'_>,
        index: u32,
    ) -> Option<Measured> {
        let node = &self.nodes[index as usize];
        let arrival = self.samples[index as usize].arrival;
        let samples = self.entry_samples(mesh, index);
        let cost = ctx.filter.cost(mesh.areas[node.polygon as usize]);
        let mut best: Option<Measured> = None;
        for (i, target) in ctx.targets.iter().enumerate() {
            if target.polygon != node.polygon {
                continue;
            }
            for (j, sample) in samples.iter().enumerate() {
                let arrival = arrival[j] + cost * sample.distance(target.point);
                if best.is_none_or(|b| arrival < b.cost) {
                    best = Some(Measured {
                        cost: arrival,
                        target: i,
                        sample: j as u8,
                    });
                }
            }
        }
        best
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
    pub(super) fn offer_sampled(
        &mut self,
        ctx: &Context<'_>,
        parent: u32,
        child: Child,
        offer: SampledOffer,
        reopen_budget: &mut usize,
    ) {
        // An offered arrival is the parent's arrival at the sample it comes from plus
        // costs >= 0, so arrivals never drop along a chain of samples.
        debug_assert!(
            (0..3).all(|k| {
                offer.arrival[k] >= self.samples[parent as usize].arrival[offer.via[k] as usize]
            }),
            "an arrival offered to element {} drops below its parent's",
            child.key
        );
        let Some(index) = self.child_node(&child) else {
            return;
        };
        let next = self.nodes[index as usize];
        self.sample_slot(index);
        let index = index as usize;
        if next.polygon == NONE {
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
            key: child.key,
            closed: false,
            polygon: child.polygon,
            estimate: rank,
            cost: state.arrival.iter().copied().fold(f32::INFINITY, f32::min),
            penalty: child.penalty,
            reach: child.reach,
            floor: child.floor,
            wedge: child.wedge,
            parent: state.via[best].0,
        };
        self.nodes[index] = node;
        self.push(ctx, index as u32, node.cost, rank, node.floor);
    }

    /// Makes room in `samples` for node `index` (nodes are added in index order).
    #[inline]
    pub(super) fn sample_slot(&mut self, index: u32) {
        if self.samples.len() <= index as usize {
            self.samples.resize(index as usize + 1, Samples::UNREACHED);
        }
    }

    /// Three points of node `index`'s entry in world coordinates: the ends and middle
    /// of its entry portal, or thrice the point it starts from.
    pub(super) fn entry_samples(&self, mesh: &MeshData, index: u32) -> [Vec3; 3] {
        let node = &self.nodes[index as usize];
        if node.parent == NONE {
            return [node.wedge.apex; 3];
        }
        let Some(hop) = crate::corridor::key_hop(node.key) else {
            let parent_polygon = self.nodes[node.parent as usize].polygon;
            let (left, right) = mesh.portal_vertices(parent_polygon, node.key as usize);
            let (left, right) = (mesh.vertices[left as usize], mesh.vertices[right as usize]);
            return [left, left.lerp(right, 0.5), right];
        };
        let hop = &mesh.links.hops[hop as usize];
        [hop.to; 3]
    }

    /// As [`AStar::write_corridor`], along the chain of samples that gave the arrival
    /// cost of sample `sample` of node `end` (see [`AStar::offer_sampled`]).
    pub(super) fn write_sampled_corridor(
        &self,
        end: u32,
        sample: u8,
        corridor: &mut Vec<CorridorStep>,
    ) {
        self.write_chain(end, sample, corridor, |index, sample| {
            let (parent, from) = self.samples[index as usize].via[sample as usize];
            (parent != NONE).then_some((parent, from))
        });
    }
}
