//! Recording a successor: which routes a way into a polygon keeps.
//!
//! A way in (an entry portal or a link hop) has a node holding one route: the one whose
//! estimate of the whole path is lowest. That estimate is a lower bound, and its error
//! depends on the route: a route whose wedge is still wide open from an apex far behind
//! may look cheaper than one already close, yet turn later round an obstacle the wedge
//! does not know of. On long portals (merged grid strips) the two routes cross the portal
//! far apart, and keeping only the first lost the short one: on Berlin_0_256 the default
//! mode went round the far side of a block, 1.43 times the shortest path.
//!
//! So a way in also has an *alternate* node, found under [`alternate_key`], holding the
//! route with the smallest [`Wedge::reach`] (the length walked to the portal) among
//! those the main node did not keep, when it reaches the portal sooner than the main
//! node's route. Neither route dominates the other then, so both are expanded. A route
//! that reaches the portal no sooner than the main node's and has no better estimate is
//! dropped, as before. The alternate is never needed for the answer's validity: it only
//! keeps a second candidate alive, and the search still ends when a measured path beats
//! every open estimate. Alternates are used by the ordered searches with areas costing
//! alike (`Context::alternates`); they count towards the node limit, but running out
//! of nodes for an alternate drops it without cutting the search.

use super::nodes::{Node, alternate_key};
use super::{AStar, Child, Context};
use crate::mesh::MeshData;
use crate::search::map::Slot;

/// How much sooner (relative) a route must reach a portal than the main node's to be
/// kept as the alternate: near ties are not worth a second expansion.
const REACH_MARGIN: f32 = 1e-3;

impl AStar {
    /// Whether way `key`'s nodes (main node `known`) cannot be improved by any route
    /// through `node`: its successors' estimates are at least `node`'s and their reaches
    /// at least `node`'s reach, so once the main node's estimate and the smaller of the
    /// two reaches are no larger, offering is wasted funnel work.
    #[inline]
    pub(super) fn settled(&self, ctx: &Context<'_>, key: u64, known: u32, node: &Node) -> bool {
        let main = &self.nodes[known as usize];
        if main.estimate > node.estimate {
            return false;
        }
        if !ctx.alternates || main.reach <= node.reach {
            return true;
        }
        match self.nodes.find(alternate_key(key)) {
            Slot::Found(alternate) => self.nodes[alternate as usize].reach <= node.reach,
            Slot::Vacant(_) => false,
        }
    }

    /// Records `child` (reached from node `parent`) unless it is no better than what the
    /// way's nodes already hold, and pushes it.
    #[inline(always)]
    pub(super) fn offer(
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
        let Some(index) = self.child_node(&child) else {
            return;
        };
        let next = self.nodes[index as usize];
        let label = Node {
            key: child.key,
            polygon: child.polygon,
            estimate,
            cost: child.cost.min(estimate),
            penalty: child.penalty,
            reach: child.reach,
            floor: child.floor,
            wedge: child.wedge,
            parent,
            ..super::UNVISITED
        };
        if estimate < next.estimate && !(next.closed && *reopen_budget == 0) {
            if next.closed {
                *reopen_budget -= 1;
            }
            // The route it displaces may still reach the portal sooner.
            if ctx.alternates && next.polygon != super::NONE && sooner(next.reach, child.reach) {
                self.keep_alternate(
                    ctx,
                    Node {
                        closed: false,
                        ..next
                    },
                    reopen_budget,
                );
            }
            self.nodes[index as usize] = label;
            self.push(ctx, index, label.cost, estimate, label.floor);
        } else if ctx.alternates && sooner(child.reach, next.reach) {
            self.keep_alternate(ctx, label, reopen_budget);
        }
    }

    /// Makes `label` (a route of way `label.key` that the main node does not hold) the
    /// way's alternate when it reaches the portal sooner than the alternate's route.
    fn keep_alternate(&mut self, ctx: &Context<'_>, label: Node, reopen_budget: &mut usize) {
        let key = alternate_key(label.key);
        let Some(index) = self.nodes.add_as(key, label.key, self.nodes.find(key)) else {
            return; // No node left for it: the main node's route stays the only one.
        };
        let held = self.nodes[index as usize];
        // A held route may have successors: estimates must not rise along parent links
        // (see `AStar::offer`), so it gives way only to a route no worse by estimate.
        let replaceable = held.polygon == super::NONE || label.estimate <= held.estimate;
        if !replaceable || !sooner(label.reach, held.reach) || (held.closed && *reopen_budget == 0)
        {
            return;
        }
        if held.closed {
            *reopen_budget -= 1;
        }
        self.nodes[index as usize] = label;
        self.push(ctx, index, label.cost, label.estimate, label.floor);
    }

    /// The index of `child`'s node, added unvisited when the search has not reached it
    /// yet; `None` (and the search marked cut) when the node limit is reached.
    #[inline]
    pub(super) fn child_node(&mut self, child: &Child) -> Option<u32> {
        let index = self.nodes.add(child.key, child.known);
        self.cut |= index.is_none();
        index
    }
}

/// Whether a route of reach `reach` gets to its portal clearly sooner than one of reach
/// `other`.
#[inline]
fn sooner(reach: f32, other: f32) -> bool {
    reach + REACH_MARGIN * (1.0 + reach.abs()) < other
}
