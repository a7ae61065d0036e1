//! The fast lane's offline parts on random meshes (grids of jittered quads with random
//! holes): hub label distances equal Dijkstra's over the corner graph for every pair of
//! corners, and the labels' next-corner entries unpack into a way along graph edges of
//! exactly that length.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use glam::Vec3;
use proptest::prelude::*;

use super::graph::{self, Graph};
use super::{corners, labels, order, sight};
use crate::mesh::fast_lane::HubLabel;
use crate::{MeshOptions, NavMesh};

/// A `w x h` grid of unit quads (the inner points moved by `jitter`), without the cells
/// of `holes`.
fn grid_mesh(w: u32, h: u32, holes: &[bool], jitter: &[(f32, f32)]) -> Option<NavMesh> {
    let mut vertices = Vec::new();
    for z in 0..=h {
        for x in 0..=w {
            let (dx, dz) = jitter[(z * (w + 1) + x) as usize];
            vertices.push(Vec3::new(x as f32 + dx, 0.0, z as f32 + dz));
        }
    }
    let id = |x: u32, z: u32| z * (w + 1) + x;
    let mut indices = Vec::new();
    for z in 0..h {
        for x in 0..w {
            if !holes[(z * w + x) as usize] {
                indices.extend([id(x, z), id(x, z + 1), id(x + 1, z + 1), id(x + 1, z)]);
            }
        }
    }
    let sizes = vec![4; indices.len() / 4];
    if sizes.is_empty() {
        return None;
    }
    NavMesh::from_polygons(&vertices, &indices, &sizes, &MeshOptions::default()).ok()
}

/// Dijkstra's distances over `graph` from `from`.
fn dijkstra(graph: &Graph, from: u32) -> Vec<f64> {
    let mut distance = vec![f64::INFINITY; graph.node_count()];
    let mut heap = BinaryHeap::new();
    distance[from as usize] = 0.0;
    heap.push(Reverse((0f64.to_bits(), from)));
    while let Some(Reverse((bits, u))) = heap.pop() {
        let d = f64::from_bits(bits);
        if d > distance[u as usize] {
            continue;
        }
        for (w, weight) in graph.edges(u) {
            if d + weight < distance[w as usize] {
                distance[w as usize] = d + weight;
                heap.push(Reverse(((d + weight).to_bits(), w)));
            }
        }
    }
    distance
}

/// The length of the way from `from` to `hub` by the next-corner entries, checking
/// that each step is a graph edge.
fn unpacked_length(graph: &Graph, labels: &[&[HubLabel]], from: u32, hub: u32) -> f64 {
    let (mut at, mut length) = (from, 0.0);
    for _ in 0..=graph.node_count() {
        if at == hub {
            return length;
        }
        let label = labels[at as usize]
            .iter()
            .find(|l| l.hub == hub)
            .expect("the next corner has the hub's label");
        let weight = graph
            .edges(at)
            .find(|&(w, _)| w == label.toward)
            .map(|(_, d)| d)
            .expect("each step is an edge");
        length += weight;
        at = label.toward;
    }
    panic!("the way from {from} to hub {hub} does not end");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn label_distances_equal_dijkstra_on_random_meshes(
        (w, h, holes, jitter) in (2u32..14, 2u32..14).prop_flat_map(|(w, h)| (
            Just(w),
            Just(h),
            proptest::collection::vec(prop::bool::weighted(0.3), (w * h) as usize),
            proptest::collection::vec((-0.15f32..0.15, -0.15f32..0.15), ((w + 1) * (h + 1)) as usize),
        ))
    ) {
        let Some(mesh) = grid_mesh(w, h, &holes, &jitter) else { return Ok(()) };
        let data = mesh.data();
        let found = corners::find(data);
        let mut sweeps = sight::Sight::default();
        let graph = graph::build(data, &found, &mut sweeps, 1 << 20).expect("small mesh");
        let rank = order::hub_order(&graph);
        let graph = graph::renumbered(&graph, &rank);
        let (start, entries) = labels::build(&graph, usize::MAX).unwrap();
        let n = graph.node_count();
        // A budget below the labels' count gives none; at the count, the same labels.
        if !entries.is_empty() {
            prop_assert!(labels::build(&graph, entries.len() - 1).is_none());
            prop_assert_eq!(labels::build(&graph, entries.len()).map(|l| l.1.len()), Some(entries.len()));
        }
        let of = |u: usize| &entries[start[u] as usize..start[u + 1] as usize];
        let all: Vec<&[HubLabel]> = (0..n).map(of).collect();
        for u in 0..n {
            prop_assert!(all[u].windows(2).all(|p| p[0].hub < p[1].hub));
            let truth = dijkstra(&graph, u as u32);
            for v in 0..n {
                let by_labels = labels::query(all[u], all[v]);
                if truth[v].is_infinite() {
                    prop_assert!(by_labels.is_none(), "{u} {v} not connected");
                    continue;
                }
                let (d, hub) = by_labels.expect("connected corners share a hub");
                prop_assert!((d - truth[v]).abs() <= 1e-9 * (1.0 + truth[v]), "{u} {v}: {d} vs {}", truth[v]);
                let unpacked = unpacked_length(&graph, &all, u as u32, hub)
                    + unpacked_length(&graph, &all, v as u32, hub);
                prop_assert!((unpacked - d).abs() <= 1e-9 * (1.0 + d));
            }
        }
    }
}
