//! The node pool: one node per way into a polygon (corner slot or link hop) plus the
//! root, each stamped with the search generation that last wrote it, so nothing needs
//! clearing between searches.

use std::ops::{Index, IndexMut};

use glam::Vec3;

use super::wedge::{NO_NODE, Wedge};

/// Marks "no parent" / "no slot".
pub(super) const NONE: u32 = u32::MAX;

/// Per-node search state. Valid only while `stamp` equals the search's generation, so
/// nothing needs clearing between searches.
#[derive(Clone, Copy)]
pub(super) struct Node {
    pub stamp: u32,
    pub closed: bool,
    /// The polygon this node is in.
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
    /// Funnel state of the corridor from the start to this node.
    pub wedge: Wedge,
    /// The node this one was reached from (`NONE` for the root).
    pub parent: u32,
}

pub(super) const UNVISITED: Node = Node {
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

/// The nodes of one [`super::AStar`], valid per search generation.
pub(super) struct NodePool {
    nodes: Vec<Node>,
    generation: u32,
}

impl NodePool {
    /// `count` unvisited nodes, or `None` when they cannot be allocated.
    pub fn try_new(count: usize) -> Option<NodePool> {
        let mut nodes = Vec::new();
        nodes.try_reserve_exact(count).ok()?;
        nodes.resize(count, UNVISITED);
        Some(NodePool {
            nodes,
            generation: 0,
        })
    }

    /// The number of nodes (reached or not).
    #[inline]
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// The current search generation: a node is reached in the current search when
    /// its `stamp` equals it.
    #[inline]
    pub fn generation(&self) -> u32 {
        self.generation
    }

    /// Starts a new search: every node becomes unvisited. Returns `true` when the
    /// generation wrapped round (once every 2^32 searches) and the stamps were wiped,
    /// so that stamps kept elsewhere must be wiped too.
    pub fn next_generation(&mut self) -> bool {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // Old stamps could alias: wipe them.
            self.nodes.fill(UNVISITED);
            self.generation = 1;
            return true;
        }
        false
    }

    /// Node `index`, reset to unvisited first when the current search has not reached it.
    #[inline]
    pub fn node(&mut self, index: u32) -> &mut Node {
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

    /// Every node with its index; those with a stale stamp are not reached.
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
