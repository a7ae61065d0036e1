//! The node pool: one node per way into a polygon (corner slot or link hop) plus the
//! root, created when the search first reaches it. Nodes live in an array that grows on
//! demand, up to a caller-set limit; a [`NodeMap`] finds a mesh element's node, so that
//! starting a search costs nothing per element of the mesh.

use std::ops::{Index, IndexMut};

use glam::Vec3;

use super::wedge::{NO_NODE, Wedge};
use crate::corridor::StepKey;
use crate::search::map::{NodeMap, Slot};

/// Marks "no parent" / "no slot".
pub(super) const NONE: u32 = u32::MAX;

/// The key of the root node (the start polygon): neither a corner slot nor a link hop.
pub(super) const ROOT_KEY: StepKey = StepKey::MAX - 1;

/// Added to a way's key to find its alternate node (see `offer.rs`): above every slot
/// and hop key (hops are below 2^33), below [`ROOT_KEY`].
const ALTERNATE: StepKey = 1 << 62;

/// The key under which the alternate node of way `key` is found in the pool.
#[inline]
pub(super) fn alternate_key(key: StepKey) -> StepKey {
    key | ALTERNATE
}

/// Per-node search state.
#[derive(Clone, Copy)]
pub(super) struct Node {
    /// The way into the polygon this node stands for: the corner slot of its entry
    /// portal (owned by the parent's polygon), the [`crate::corridor::hop_key`] of the
    /// link hop, or [`ROOT_KEY`].
    pub key: StepKey,
    pub closed: bool,
    /// The polygon this node is in ([`NONE`] until first offered).
    pub polygon: u32,
    /// Lower bound of the cost of the whole path through this node (with mixed area costs:
    /// its rank in the sampled graph, see
    /// [`AStar::offer_sampled`](super::AStar::offer_sampled)).
    pub estimate: f32,
    /// Lower bound of the cost so far, to the entry of this node (sampled graph: the
    /// cheapest arrival at it).
    pub cost: f32,
    /// Area-cost penalty of the corridor so far (see the module docs).
    pub penalty: f32,
    /// Lower bound of the length walked to the entry portal through this node's corridor
    /// ([`Wedge::reach`]); decides which route an entry's alternate node keeps.
    pub reach: f32,
    /// Another lower bound of the whole path's cost (from the landmarks; 0 without
    /// them): it only orders the open list (by the larger of it and `estimate`), while
    /// `estimate` alone decides which route a way into a polygon keeps.
    pub floor: f32,
    /// Funnel state of the corridor from the start to this node.
    pub wedge: Wedge,
    /// The index of the node this one was reached from (`NONE` for the root).
    pub parent: u32,
}

pub(super) const UNVISITED: Node = Node {
    key: ROOT_KEY,
    closed: false,
    polygon: NONE,
    estimate: f32::INFINITY,
    cost: 0.0,
    penalty: 0.0,
    reach: f32::INFINITY,
    floor: 0.0,
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

/// The nodes of one search of an [`super::AStar`].
pub(super) struct NodePool {
    nodes: Vec<Node>,
    /// From a node's key to its index in `nodes`.
    map: NodeMap<StepKey>,
    /// At most this many nodes per search.
    max_nodes: usize,
}

impl NodePool {
    /// An empty pool of at most `max_nodes` nodes per search; allocates nothing.
    pub fn new(max_nodes: usize) -> NodePool {
        NodePool {
            nodes: Vec::new(),
            map: NodeMap::default(),
            max_nodes,
        }
    }

    /// The number of nodes of the current search.
    #[inline]
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// The bytes held by the pool.
    pub fn bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<Node>() + self.map.bytes()
    }

    /// Starts a new search: no node is reached. O(1).
    pub fn clear(&mut self) {
        self.nodes.clear();
        self.map.clear();
    }

    /// The index of the node of `key`, or where it would be added.
    #[inline]
    pub fn find(&self, key: StepKey) -> Slot {
        self.map.find(key)
    }

    /// Adds an unvisited node for `key` at `slot` (from [`NodePool::find`], no other
    /// addition in between) and returns its index; `None` when the pool is at its limit
    /// or out of memory.
    #[inline]
    pub fn add(&mut self, key: StepKey, slot: Slot) -> Option<u32> {
        self.add_as(key, key, slot)
    }

    /// [`NodePool::add`] of a node found under `map_key` (an alternate node's key) whose
    /// way in is `key`.
    #[inline]
    pub fn add_as(&mut self, map_key: StepKey, key: StepKey, slot: Slot) -> Option<u32> {
        let bucket = match slot {
            Slot::Found(index) => return Some(index),
            Slot::Vacant(bucket) => bucket,
        };
        if self.nodes.len() >= self.max_nodes || self.nodes.try_reserve(1).is_err() {
            return None;
        }
        let index = self.nodes.len() as u32;
        if !self.map.insert_at(bucket, map_key, index) {
            return None;
        }
        self.nodes.push(Node { key, ..UNVISITED });
        Some(index)
    }

    /// Every node of the current search with its index.
    pub fn iter(&self) -> impl Iterator<Item = (usize, &Node)> {
        self.nodes.iter().enumerate()
    }
}

impl Index<usize> for NodePool {
    type Output = Node;
    #[inline]
    fn index(&self, index: usize) -> &Node {
        &self.nodes[index]
    }
}

impl IndexMut<usize> for NodePool {
    #[inline]
    fn index_mut(&mut self, index: usize) -> &mut Node {
        &mut self.nodes[index]
    }
}
