//! The corner visibility graph: an edge between two corners in straight sight of each
//! other when the segment between them leaves, at both ends, the corner's two walls on
//! one side (otherwise no shortest path runs along it: it would bend the wrong way
//! round a corner). Weights are ground-plane lengths. Corners are then renumbered in
//! the hub order of the labels (`order.rs`).

use glam::DVec2;

use super::corners::Corners;
use super::sight::{Sight, TooManyCones};
use crate::mesh::MeshData;
use crate::mesh::fast_lane::NO_CORNER;

/// An undirected weighted graph in compressed rows: node `u`'s edges are
/// `start[u]..start[u + 1]` of `target` and `weight`.
pub(super) struct Graph {
    pub start: Vec<u32>,
    pub target: Vec<u32>,
    pub weight: Vec<f64>,
}

impl Graph {
    /// The number of nodes.
    pub fn node_count(&self) -> usize {
        self.start.len() - 1
    }

    /// The edges of node `u`: `(neighbour, weight)`.
    pub fn edges(&self, u: u32) -> impl Iterator<Item = (u32, f64)> + '_ {
        let range = self.start[u as usize] as usize..self.start[u as usize + 1] as usize;
        self.target[range.clone()]
            .iter()
            .copied()
            .zip(self.weight[range].iter().copied())
    }

    /// The graph of `n` nodes with these directed edges.
    pub fn from_edges(n: usize, mut edges: Vec<(u32, u32, f64)>) -> Graph {
        edges.sort_by_key(|e| (e.0, e.1));
        edges.dedup_by(|x, y| x.0 == y.0 && x.1 == y.1);
        let mut start = vec![0u32; n + 1];
        for &(u, _, _) in &edges {
            start[u as usize + 1] += 1;
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        Graph {
            start,
            target: edges.iter().map(|e| e.1).collect(),
            weight: edges.iter().map(|e| e.2).collect(),
        }
    }
}

/// Whether a segment from `from` to corner `c` leaves both walls of `c` on one side.
fn taut(corners: &Corners, c: u32, from: DVec2) -> bool {
    crate::mesh::fast_lane::taut(corners.point[c as usize], corners.walls[c as usize], from)
}

/// The visibility graph of `corners` on `mesh`: one sweep per corner, at most
/// `max_cones` cones each.
pub(super) fn build(
    mesh: &MeshData,
    corners: &Corners,
    sight: &mut Sight,
    max_cones: usize,
) -> Result<Graph, TooManyCones> {
    let n = corners.vertex.len();
    let mut stamp = vec![u32::MAX; n];
    let mut edges = Vec::new();
    for u in 0..n as u32 {
        let pu = corners.point[u as usize];
        sight.sweep(
            mesh,
            corners.polygon[u as usize],
            pu,
            (&[], pu),
            max_cones,
            |slot| {
                let w = corners.node_of_slot[slot];
                if w == NO_CORNER || w <= u || stamp[w as usize] == u {
                    return;
                }
                stamp[w as usize] = u;
                let pw = corners.point[w as usize];
                if taut(corners, u, pw) && taut(corners, w, pu) {
                    let d = pu.distance(pw);
                    edges.push((u, w, d));
                    edges.push((w, u, d));
                }
            },
        )?;
    }
    Ok(Graph::from_edges(n, edges))
}

/// `graph` with node `u` renamed `rank[u]`.
pub(super) fn renumbered(graph: &Graph, rank: &[u32]) -> Graph {
    let n = graph.node_count();
    let mut edges = Vec::with_capacity(graph.target.len());
    for u in 0..n as u32 {
        for (w, d) in graph.edges(u) {
            edges.push((rank[u as usize], rank[w as usize], d));
        }
    }
    Graph::from_edges(n, edges)
}
