//! The order of the hubs for the labels: corners that many shortest ways pass through
//! first (smaller labels: a hub early in the order covers many pairs, and the searches
//! from later corners stop sooner). Estimated from a sample of shortest-path trees: in
//! each, a corner scores the number of corners below it (the ways from the tree's root
//! through it); ties by degree, then by number.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::graph::Graph;

/// Shortest-path trees sampled.
const SAMPLED_TREES: usize = 32;

/// The rank of each node of `graph` (0 first).
pub(super) fn hub_order(graph: &Graph) -> Vec<u32> {
    let n = graph.node_count();
    let mut score = vec![0u64; n];
    let mut distance = vec![f64::INFINITY; n];
    let mut parent = vec![u32::MAX; n];
    let mut below = vec![0u64; n];
    let mut popped = Vec::with_capacity(n);
    let mut heap = BinaryHeap::new();
    let trees = SAMPLED_TREES.min(n);
    for i in 0..trees {
        let root = (i * n / trees) as u32;
        distance.fill(f64::INFINITY);
        parent.fill(u32::MAX);
        popped.clear();
        distance[root as usize] = 0.0;
        heap.push(Reverse((0f64.to_bits(), root)));
        while let Some(Reverse((bits, u))) = heap.pop() {
            let d = f64::from_bits(bits);
            if d > distance[u as usize] {
                continue;
            }
            popped.push(u);
            for (w, weight) in graph.edges(u) {
                if d + weight < distance[w as usize] {
                    distance[w as usize] = d + weight;
                    parent[w as usize] = u;
                    heap.push(Reverse(((d + weight).to_bits(), w)));
                }
            }
        }
        // Farthest first: each corner's count is complete before its parent's.
        for &u in &popped {
            below[u as usize] = 1;
        }
        for &u in popped.iter().rev() {
            score[u as usize] += below[u as usize];
            let p = parent[u as usize];
            if p != u32::MAX {
                below[p as usize] += below[u as usize];
            }
        }
    }
    let degree = |u: u32| graph.start[u as usize + 1] - graph.start[u as usize];
    let mut order: Vec<u32> = (0..n as u32).collect();
    order.sort_by_key(|&u| (Reverse(score[u as usize]), Reverse(degree(u)), u));
    let mut rank = vec![0u32; n];
    for (r, &u) in order.iter().enumerate() {
        rank[u as usize] = r as u32;
    }
    rank
}
