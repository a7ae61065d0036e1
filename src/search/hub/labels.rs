//! Hub labels of the corner graph by pruned landmark labeling (after Akiba, Iwata and
//! Yoshida, SIGMOD 2013): nodes are taken in hub order (node 0 first); from each, a
//! Dijkstra search labels every node it reaches with (hub, distance, next node toward
//! the hub), except where the labels made so far already give a distance as short,
//! where the search stops. Then for any two nodes some hub in both labels lies on a
//! shortest way between them, and the next-node entries unpack it (a labelled node's
//! next node toward the hub was itself labelled by the same search).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::graph::Graph;
use crate::mesh::fast_lane::HubLabel;

/// A heap entry: distance (as ordered bits of a non-negative `f64`) and node.
type Entry = Reverse<(u64, u32)>;

/// The labels of every node of `graph`: `(start, entries)`, node `u` owning
/// `entries[start[u]..start[u + 1]]`, nearest hub first (ties in hub order: a query's
/// scan stops at the first entry too far for its bound); `None` as soon as there are
/// more than `budget` entries in all (a graph whose labels would take too much memory).
pub(super) fn build(graph: &Graph, budget: usize) -> Option<(Vec<u32>, Vec<HubLabel>)> {
    let n = graph.node_count();
    let mut made = 0usize;
    let mut labels: Vec<Vec<HubLabel>> = vec![Vec::new(); n];
    // Per hub: the root's distance to it (from the root's labels), for the pruning.
    let mut root_to = vec![f64::INFINITY; n];
    let mut distance = vec![f64::INFINITY; n];
    let mut toward = vec![u32::MAX; n];
    let mut touched = Vec::new();
    let mut heap: BinaryHeap<Entry> = BinaryHeap::new();
    for root in 0..n as u32 {
        for l in &labels[root as usize] {
            root_to[l.hub as usize] = l.distance;
        }
        distance[root as usize] = 0.0;
        toward[root as usize] = root;
        touched.push(root);
        heap.push(Reverse((0f64.to_bits(), root)));
        while let Some(Reverse((bits, u))) = heap.pop() {
            let d = f64::from_bits(bits);
            if d > distance[u as usize] {
                continue;
            }
            let known = labels[u as usize]
                .iter()
                .map(|l| root_to[l.hub as usize] + l.distance)
                .fold(f64::INFINITY, f64::min);
            if known <= d {
                continue;
            }
            labels[u as usize].push(HubLabel {
                hub: root,
                toward: toward[u as usize],
                distance: d,
            });
            made += 1;
            if made > budget {
                return None;
            }
            for (w, weight) in graph.edges(u) {
                let nd = d + weight;
                if nd < distance[w as usize] {
                    if distance[w as usize] == f64::INFINITY {
                        touched.push(w);
                    }
                    distance[w as usize] = nd;
                    toward[w as usize] = u;
                    heap.push(Reverse((nd.to_bits(), w)));
                }
            }
        }
        for l in &labels[root as usize] {
            root_to[l.hub as usize] = f64::INFINITY;
        }
        for &t in &touched {
            distance[t as usize] = f64::INFINITY;
        }
        touched.clear();
    }
    let mut start = Vec::with_capacity(n + 1);
    start.push(0u32);
    let mut entries = Vec::with_capacity(labels.iter().map(Vec::len).sum());
    for l in &mut labels {
        // Made in hub order; a stable sort keeps that order among equal distances.
        l.sort_by(|a, b| a.distance.total_cmp(&b.distance));
        entries.extend_from_slice(l);
        start.push(entries.len() as u32);
    }
    Some((start, entries))
}

/// The shortest distance between nodes `u` and `v` by their labels, with the hub it
/// goes through (the first in `labels_u`'s order of the shortest); `None` when they
/// share no hub (not connected).
#[cfg(test)]
pub(super) fn query(labels_u: &[HubLabel], labels_v: &[HubLabel]) -> Option<(f64, u32)> {
    let mut best: Option<(f64, u32)> = None;
    for a in labels_u {
        if let Some(b) = labels_v.iter().find(|b| b.hub == a.hub) {
            let d = a.distance + b.distance;
            if best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, a.hub));
            }
        }
    }
    best
}
