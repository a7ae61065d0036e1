//! The open list: a binary heap with lazy deletion, whose keys encode the order of
//! each [`SearchStrategy`] in one integer.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// How the polygon corridor is searched ([`crate::PathOptions::strategy`]).
///
/// All strategies search the same graph (one node per way into a polygon, see the
/// module docs of the search) and differ only in the order they expand it, so their
/// guarantees differ.
///
/// Two more orders, breadth-first and depth-first, are kept for tests and because the
/// C ABI accepts them (`NAVSTAR_SEARCH_BREADTH_FIRST`, `NAVSTAR_SEARCH_DEPTH_FIRST`, part
/// of its fixed API); they bound nothing about the corridor's cost and are hidden from
/// these docs.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum SearchStrategy {
    /// A* with the straight-line heuristic scaled by [`crate::PathOptions::heuristic_weight`].
    /// With weight 1 (the default) the corridor is the cheapest there is, as Dijkstra's;
    /// a weight `w > 1` (weighted A*) expands fewer polygons and returns a corridor
    /// costing at most about `w` times the cheapest.
    #[default]
    AStar,
    /// Dijkstra's algorithm: expands by cost so far, ignoring the goal's direction. The
    /// cheapest corridor, like A*, after more work; the reference the others are tested
    /// against.
    Dijkstra,
    /// Greedy best-first: always expands what looks closest to the goal. Fast on open
    /// maps, no bound on how much worse than the cheapest its corridor is.
    GreedyBestFirst,
    /// Breadth-first: the corridor with the fewest polygon-to-polygon steps found first,
    /// ignoring lengths and costs. No bound on its cost. For tests and the C ABI.
    #[doc(hidden)]
    BreadthFirst,
    /// Depth-first: follows one way as deep as it goes before trying another. Finds a
    /// corridor if there is one; no bound on its cost. For tests and the C ABI.
    #[doc(hidden)]
    DepthFirst,
}

/// An open-list entry, ordered so that `BinaryHeap` pops the lowest key first.
#[derive(Clone, Copy)]
pub(super) struct OpenEntry {
    /// Priority; for the ordered strategies the bits of the priority value (high half)
    /// then of the estimate (low half), for the others a sequence number.
    key: u64,
    /// The node's estimate when the entry was pushed (detects stale entries).
    pub estimate: f32,
    /// The node it is an entry of.
    pub node: u32,
}

impl OpenEntry {
    /// The priority value of an entry of an ordered strategy.
    pub fn priority(&self) -> f32 {
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

/// The open list of one search.
#[derive(Default)]
pub(super) struct OpenList {
    heap: BinaryHeap<OpenEntry>,
    /// Push counter of the unordered strategies.
    sequence: u64,
}

impl OpenList {
    /// Empties the list for a new search.
    pub fn clear(&mut self) {
        self.heap.clear();
        self.sequence = 0;
    }

    /// Pushes an entry for `node` with cost so far `cost`, estimate `estimate` and a
    /// second lower bound `floor` (ordered by the larger; see `Node::floor`), in
    /// the order of `strategy` (A* with heuristic weight `weight`).
    #[inline]
    pub fn push(
        &mut self,
        strategy: SearchStrategy,
        weight: f32,
        node: u32,
        cost: f32,
        estimate: f32,
        floor: f32,
    ) {
        // The order uses the larger of the two lower bounds; the entry keeps `estimate`
        // to be told stale from current.
        // (Written so that a floor of 0 leaves every estimate as it is, NaN included.)
        let ranked = if floor > estimate { floor } else { estimate };
        let key = match strategy {
            SearchStrategy::AStar if weight == 1.0 => ordered_key(ranked, estimate),
            SearchStrategy::AStar => {
                ordered_key(cost + (ranked - cost).max(0.0) * weight, estimate)
            }
            SearchStrategy::Dijkstra => ordered_key(cost, estimate),
            SearchStrategy::GreedyBestFirst => ordered_key((estimate - cost).max(0.0), estimate),
            SearchStrategy::BreadthFirst => self.sequence,
            SearchStrategy::DepthFirst => u64::MAX - self.sequence,
        };
        self.sequence += 1;
        self.heap.push(OpenEntry {
            key,
            estimate,
            node,
        });
    }

    /// The bytes held by the list.
    pub fn bytes(&self) -> usize {
        self.heap.capacity() * std::mem::size_of::<OpenEntry>()
    }

    /// The entry that pops next.
    #[inline]
    pub fn peek(&self) -> Option<&OpenEntry> {
        self.heap.peek()
    }

    /// Removes and returns the entry with the lowest key.
    #[inline]
    pub fn pop(&mut self) -> Option<OpenEntry> {
        self.heap.pop()
    }
}
