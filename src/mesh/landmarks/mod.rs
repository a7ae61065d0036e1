//! The landmark ("differential") heuristic: per portal, its distance to a few landmark
//! portals in a graph of lower bounds ([`graph`]), from which a search gets a lower
//! bound of the length still to go from any point of a portal to the goal.
//!
//! **Why it is a lower bound.** `δ(a, b)` is the distance between portals `a` and `b`
//! in the portal graph: at most the length of any walk over the mesh from a point of
//! `a` to a point of `b` (and at most any search's cost of it divided by the filter's
//! smallest cost: links are charged their cost times their area's cost, walks their
//! length times at least the smallest cost). A path from a point of portal `a` to the
//! goal `g` in polygon `G` ends by crossing one of `G`'s nodes `p` (a portal of `G` or
//! the arrival of a link in `G`), so it is at least `min_p δ(a, p)`, and by the
//! triangle inequality `δ(a, p) >= |δ(L, a) - δ(L, p)|` for every landmark `L`. With
//! `lo_L` and `hi_L` the smallest and largest `δ(L, p)` over `G`'s nodes, the bound is
//! `max_L max(δ(L, a) - hi_L, lo_L - δ(L, a), 0)`.
//!
//! **What keeps it valid.** Only the geometry and the links' costs enter the graph, and
//! the graph joins every portal and link whatever their flags: closing polygons or
//! links, filters, and area costs (scaled by the smallest one) only make real paths
//! longer. A mesh's geometry never changes (a carved or re-tiled mesh is a new mesh
//! with a table of its own), so a table never meets a shortcut it does not know of.
//!
//! **Cost.** Built once per mesh on the first search that uses it (or by
//! [`crate::NavMesh::prepare_landmarks`]): `LANDMARKS + 2` Dijkstra runs over the
//! portal graph. Memory: `4 * LANDMARKS` bytes per node (portal or link end) plus
//! 4 bytes per corner slot and per hop and 8 bytes per polygon (see
//! [`Landmarks::bytes`]). Only one-tile meshes get a table (a world's snapshot has
//! none: its searches use the straight-line estimates alone).

#[cfg(test)]
mod admissible_tests;
mod graph;
#[cfg(test)]
mod tests;

use std::collections::BinaryHeap;

use crate::mesh::MeshData;
use graph::{NONE, PortalGraph};

/// The number of landmarks per table.
pub(crate) const LANDMARKS: usize = 8;

/// Relative rounding allowance of stored distances (they are `f32`, measured in `f64`).
const ROUNDING: f32 = 4.0 * f32::EPSILON;

/// The landmark table of one mesh.
pub(crate) struct Landmarks {
    graph: PortalGraph,
    /// Per node `n`: `δ(L, n)` for the landmarks at `distances[n * LANDMARKS..]`; 0 where
    /// the landmark's component does not reach (any finite value is a valid bound there:
    /// no path leads from such a node to a goal in the landmark's component, nor the
    /// other way).
    distances: Vec<f32>,
    /// The landmarks' nodes (for tests and diagnostics).
    landmarks: Vec<u32>,
}

/// What a search towards one goal needs from a table: per landmark the smallest and
/// largest distance to the goal polygon's nodes, and the rounding allowance.
#[derive(Debug, Clone, Copy)]
pub(crate) struct GoalBounds {
    lo: [f32; LANDMARKS],
    hi: [f32; LANDMARKS],
    slack: f32,
}

impl Landmarks {
    /// The table of `mesh`, or `None` for a world's snapshot, a mesh without portals, or
    /// when memory runs out.
    pub(crate) fn build(mesh: &MeshData) -> Option<Landmarks> {
        // A plain mesh (one tile, ids are indices); a world's snapshot has none, even of
        // one tile: a table per snapshot would be rebuilt after every change.
        if mesh.tiles.len() != 1 || mesh.local_bits != 32 {
            return None;
        }
        let graph = PortalGraph::of(mesh).ok()?;
        let n = graph.node_count();
        if n == 0 {
            return None;
        }
        let mut distances = vec![0.0f32; n.checked_mul(LANDMARKS)?];
        let landmarks = choose_and_measure(&graph, &mut distances);
        Some(Landmarks {
            graph,
            distances,
            landmarks,
        })
    }

    /// The bytes the table holds.
    pub(crate) fn bytes(&self) -> usize {
        self.graph.query_bytes() + 4 * self.distances.len() + 4 * self.landmarks.len()
    }

    /// The node of the portal of corner slot `slot` ([`u32::MAX`] for a wall).
    #[inline(always)]
    pub(crate) fn slot_node(&self, slot: usize) -> u32 {
        self.graph.node_of_slot[slot]
    }

    /// The node of the arrival point of link hop `hop`.
    #[inline(always)]
    pub(crate) fn hop_node(&self, hop: u32) -> u32 {
        self.graph.node_of_hop[hop as usize]
    }

    /// The bounds of a goal that lies in every polygon of `polygons` (a goal on an edge
    /// or vertex may be in several; any of them will do, all of them is tighter).
    pub(crate) fn goal(&self, polygons: impl IntoIterator<Item = u32>) -> GoalBounds {
        let mut lo = [f32::INFINITY; LANDMARKS];
        let mut hi = [0.0f32; LANDMARKS];
        for p in polygons {
            let p = p as usize;
            let nodes =
                self.graph.polygon_start[p] as usize..self.graph.polygon_start[p + 1] as usize;
            for &node in &self.graph.polygon_nodes[nodes] {
                let d = self.row(node);
                for ((lo, hi), &d) in lo.iter_mut().zip(&mut hi).zip(d) {
                    *lo = lo.min(d);
                    *hi = hi.max(d);
                }
            }
        }
        if lo[0] == f32::INFINITY {
            // A goal polygon without portals or links: no path enters it, so nothing
            // is known; 0 everywhere gives no bound beyond 0 for a node in reach.
            lo = [0.0; LANDMARKS];
        }
        let largest = hi.iter().copied().fold(0.0, f32::max);
        GoalBounds {
            lo,
            hi,
            slack: ROUNDING * largest,
        }
    }

    /// A lower bound of the length of any path from a point of node `node` (a portal or
    /// a link's arrival point) to the goal of `goal`; 0 for [`u32::MAX`].
    #[inline(always)]
    pub(crate) fn remaining(&self, goal: &GoalBounds, node: u32) -> f32 {
        if node == NONE {
            return 0.0;
        }
        let d = self.row(node);
        let mut h = 0.0f32;
        for ((&d, &lo), &hi) in d.iter().zip(&goal.lo).zip(&goal.hi) {
            h = h.max(d - hi).max(lo - d);
        }
        (h * (1.0 - ROUNDING) - goal.slack).max(0.0)
    }

    /// The distances of `node` to the landmarks.
    #[inline(always)]
    fn row(&self, node: u32) -> &[f32; LANDMARKS] {
        let start = node as usize * LANDMARKS;
        self.distances[start..start + LANDMARKS]
            .try_into()
            .expect("a row has LANDMARKS entries")
    }
}

/// Chooses the landmarks (farthest points: each next one is the node farthest from
/// those chosen, in the largest component not yet holding one while such a component
/// has at least a `1 / (2 * LANDMARKS)` share of the nodes) and writes their distances.
fn choose_and_measure(graph: &PortalGraph, distances: &mut [f32]) -> Vec<u32> {
    let n = graph.node_count();
    let (component, count) = graph.components();
    let mut size = vec![0usize; count as usize];
    for &c in &component {
        size[c as usize] += 1;
    }
    let mut covered = vec![false; count as usize];
    let mut nearest = vec![f64::INFINITY; n];
    let mut dist = vec![0.0f64; n];
    let mut heap = BinaryHeap::new();
    let mut chosen = Vec::with_capacity(LANDMARKS);
    for l in 0..LANDMARKS {
        let uncovered = (0..count as usize)
            .filter(|&c| !covered[c])
            .max_by_key(|&c| (size[c], std::cmp::Reverse(c)));
        let landmark = match uncovered {
            Some(c) if chosen.is_empty() || size[c] * 2 * LANDMARKS >= n => {
                // The node farthest from the component's first node.
                let first = component.iter().position(|&x| x as usize == c).unwrap_or(0);
                graph.distances_from(first as u32, &mut dist, &mut heap);
                covered[c] = true;
                farthest(&dist)
            }
            _ => farthest(&nearest),
        };
        graph.distances_from(landmark, &mut dist, &mut heap);
        for (node, &d) in dist.iter().enumerate() {
            if d.is_finite() {
                distances[node * LANDMARKS + l] = d as f32;
                nearest[node] = nearest[node].min(d);
            }
        }
        chosen.push(landmark);
    }
    chosen
}

/// The node with the largest finite value of `values` (the first on ties; 0 if none).
fn farthest(values: &[f64]) -> u32 {
    let mut best = (0, -1.0);
    for (i, &v) in values.iter().enumerate() {
        if v.is_finite() && v > best.1 {
            best = (i as u32, v);
        }
    }
    best.0
}

impl MeshData {
    /// The landmark table of this mesh, built on the first call (see [`self`]); `None`
    /// when the mesh gets none.
    pub(crate) fn landmarks(&self) -> Option<&Landmarks> {
        self.landmarks
            .get_or_init(|| Landmarks::build(self).map(Box::new))
            .as_deref()
    }
}

impl super::NavMesh {
    /// Builds the mesh's landmark table now, if it has none yet (and the merged copy
    /// the searches use on large meshes, with its own table), and tells whether the
    /// mesh has one. Path searches of queries that use landmarks
    /// ([`crate::Query::set_landmarks`], off by default) build them on their first use
    /// otherwise (once per mesh, shared by every thread, on the thread of that query:
    /// call this at load time to keep the cost off the query path). The table sharpens the estimates of both path
    /// modes with distances to a few landmarks over a graph of the mesh's portals, and
    /// stays valid under flag changes, filters and area costs (see the README's "Landmark
    /// heuristic"). A mesh of several tiles (a world's snapshot) or without portals gets
    /// none; its searches use the straight-line estimates alone.
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshOptions, NavMesh};
    ///
    /// let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// // Two unit squares side by side: one portal.
    /// let vertices = [v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0), v(2.0, 1.0), v(1.0, 1.0), v(0.0, 1.0)];
    /// let mesh = NavMesh::from_polygons(&vertices, &[0, 1, 4, 5, 1, 2, 3, 4], &[4, 4], &MeshOptions::default())?;
    /// assert_eq!(mesh.landmark_bytes(), 0);
    /// assert!(mesh.prepare_landmarks());
    /// assert!(mesh.landmark_bytes() > 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn prepare_landmarks(&self) -> bool {
        if let Some(coarse) = self.data.coarse() {
            coarse.mesh.landmarks();
        }
        self.data.landmarks().is_some()
    }

    /// The bytes held by the mesh's landmark tables (its own and its merged copy's): 0
    /// until built (by the first path search of a query with landmarks on, or by
    /// [`NavMesh::prepare_landmarks`]) or when
    /// the mesh gets none. About `4 * 8` bytes per portal and link end, plus 4 per
    /// corner and link hop and 8 per polygon.
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshOptions, NavMesh};
    ///
    /// let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// // Three unit squares in a row: two portals.
    /// let vertices = [v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0), v(3.0, 0.0), v(3.0, 1.0), v(2.0, 1.0), v(1.0, 1.0), v(0.0, 1.0)];
    /// let indices = [0, 1, 6, 7, /**/ 1, 2, 5, 6, /**/ 2, 3, 4, 5];
    /// let mesh = NavMesh::from_polygons(&vertices, &indices, &[4; 3], &MeshOptions::default())?;
    /// assert_eq!(mesh.landmark_bytes(), 0);
    /// mesh.prepare_landmarks();
    /// // Two portals with 8 landmark distances each, and the lookup tables.
    /// assert!(mesh.landmark_bytes() >= 2 * 4 * 8);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn landmark_bytes(&self) -> usize {
        let of = |data: &MeshData| {
            data.landmarks
                .get()
                .and_then(|t| t.as_deref())
                .map_or(0, Landmarks::bytes)
        };
        let coarse = self
            .data
            .coarse
            .get()
            .and_then(|c| c.as_deref())
            .map_or(0, |c| of(&c.mesh));
        of(&self.data) + coarse
    }
}
