//! The portal graph the landmark distances are measured on, and Dijkstra over it.
//!
//! One node per portal (an edge between two polygons, both its corner slots sharing the
//! node) and one per end of each off-mesh link hop (a point). Each polygon joins every
//! two of the nodes on its boundary or inside it (its portals, the portals of
//! neighbours that lead into it, the hop ends in it) by an edge weighted by the
//! smallest ground-plane distance between the two (segments or points); each hop joins
//! its two ends by an edge weighted by the link's cost, both ways. Any path over the
//! mesh goes from portal to portal inside one polygon at a time (or takes a link), so
//! its length is at least the graph distance between the first and last node it
//! crosses, and the graph distance is a metric (see [`super`]).

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use glam::DVec2;

use crate::alloc::{try_filled, try_vec_with_capacity};
use crate::error::MeshError;
use crate::mesh::{MeshData, NO_NEIGHBOUR, NO_TWIN};

/// No node.
pub(super) const NONE: u32 = u32::MAX;

/// The portal graph of a one-tile mesh, in compressed rows.
pub(super) struct PortalGraph {
    /// Per corner slot: its portal's node, or [`NONE`] for a wall.
    pub node_of_slot: Vec<u32>,
    /// Per hop: the node of its arrival point.
    pub node_of_hop: Vec<u32>,
    /// Per polygon `p`: its nodes are `polygon_nodes[polygon_start[p]..polygon_start[p + 1]]`.
    pub polygon_start: Vec<u32>,
    pub polygon_nodes: Vec<u32>,
    /// Per node `n`: its edges are `edges[edge_start[n]..edge_start[n + 1]]`.
    edge_start: Vec<u32>,
    edges: Vec<(u32, f64)>,
}

/// Where a node lies in the ground plane: a segment (a point when both ends agree).
type Place = (DVec2, DVec2);

impl PortalGraph {
    /// The graph of `mesh`, which must be one tile (its slot, hop and polygon ids are
    /// then plain indices).
    pub fn of(mesh: &MeshData) -> Result<PortalGraph, MeshError> {
        let what = "landmark portal graph";
        let slots = mesh.corners.total_len();
        let polygons = mesh.polygon_count() as usize;
        let hops = mesh.links.hop_count();
        let ground = |v: u32| mesh.ground[v as usize].as_dvec2();
        let mut node_of_slot = try_filled(slots, NONE, what)?;
        let mut places: Vec<Place> = try_vec_with_capacity(slots + 2 * hops, what)?;
        // (polygon, node) for every node on or in a polygon.
        let mut members: Vec<(u32, u32)> = try_vec_with_capacity(2 * slots + 4 * hops, what)?;
        for p in 0..polygons as u32 {
            for slot in mesh.corner_range(p) {
                let neighbour = mesh.neighbours[slot];
                if neighbour == NO_NEIGHBOUR {
                    continue;
                }
                let twin = mesh.twin[slot];
                let node = if twin != NO_TWIN && node_of_slot[twin as usize] != NONE {
                    node_of_slot[twin as usize]
                } else {
                    let (u, w) = mesh.edge(p, slot);
                    places.push((ground(u), ground(w)));
                    places.len() as u32 - 1
                };
                node_of_slot[slot] = node;
                // The portal bounds both polygons (without a twin the neighbour would
                // not list it).
                members.push((p, node));
                members.push((neighbour, node));
            }
        }
        let mut node_of_hop = try_filled(hops, NONE, what)?;
        let mut hop_edges: Vec<(u32, u32, f64)> = try_vec_with_capacity(hops, what)?;
        for p in 0..polygons as u32 {
            let first = mesh.links.hop_start.get(p as usize).copied().unwrap_or(0);
            for (i, hop) in mesh.links.hops_from(p).iter().enumerate() {
                let from = mesh.up.ground(hop.from).as_dvec2();
                let to = mesh.up.ground(hop.to).as_dvec2();
                places.push((from, from));
                places.push((to, to));
                let (a, b) = (places.len() as u32 - 2, places.len() as u32 - 1);
                members.push((p, a));
                members.push((hop.to_polygon, b));
                node_of_hop[first as usize + i] = b;
                let cost = f64::from(mesh.links.cost[hop.link as usize]).max(0.0);
                hop_edges.push((a, b, cost));
            }
        }
        members.sort_unstable();
        members.dedup();
        let mut polygon_start = try_filled(polygons + 1, 0u32, what)?;
        for &(p, _) in &members {
            polygon_start[p as usize + 1] += 1;
        }
        for p in 0..polygons {
            polygon_start[p + 1] += polygon_start[p];
        }
        let polygon_nodes: Vec<u32> = members.iter().map(|&(_, n)| n).collect();
        // Edges: every pair of nodes of a polygon, and the hops; both directions.
        let node_count = places.len();
        let mut degree = try_filled(node_count + 1, 0u32, what)?;
        let pairs = |p: usize| {
            let nodes = &polygon_nodes[polygon_start[p] as usize..polygon_start[p + 1] as usize];
            (0..nodes.len())
                .flat_map(move |i| (i + 1..nodes.len()).map(move |j| (nodes[i], nodes[j])))
        };
        for p in 0..polygons {
            for (a, b) in pairs(p) {
                degree[a as usize + 1] += 1;
                degree[b as usize + 1] += 1;
            }
        }
        for &(a, b, _) in &hop_edges {
            degree[a as usize + 1] += 1;
            degree[b as usize + 1] += 1;
        }
        for n in 0..node_count {
            degree[n + 1] += degree[n];
        }
        let edge_start = degree;
        let mut fill: Vec<u32> = edge_start.clone();
        let mut edges = try_filled(edge_start[node_count] as usize, (NONE, 0.0), what)?;
        let mut add = |a: u32, b: u32, w: f64| {
            edges[fill[a as usize] as usize] = (b, w);
            fill[a as usize] += 1;
            edges[fill[b as usize] as usize] = (a, w);
            fill[b as usize] += 1;
        };
        for p in 0..polygons {
            for (a, b) in pairs(p) {
                let (pa, pb) = (places[a as usize], places[b as usize]);
                add(a, b, segment_gap(pa.0, pa.1, pb.0, pb.1));
            }
        }
        for &(a, b, w) in &hop_edges {
            add(a, b, w);
        }
        Ok(PortalGraph {
            node_of_slot,
            node_of_hop,
            polygon_start,
            polygon_nodes,
            edge_start,
            edges,
        })
    }

    /// The number of nodes.
    pub fn node_count(&self) -> usize {
        self.edge_start.len() - 1
    }

    /// The distances from `source` to every node into `dist` (infinite where the graph
    /// does not lead), with `heap` as scratch.
    pub fn distances_from(&self, source: u32, dist: &mut [f64], heap: &mut BinaryHeap<Entry>) {
        dist.fill(f64::INFINITY);
        heap.clear();
        dist[source as usize] = 0.0;
        heap.push(Entry(0.0, source));
        while let Some(Entry(d, n)) = heap.pop() {
            if d > dist[n as usize] {
                continue;
            }
            let range =
                self.edge_start[n as usize] as usize..self.edge_start[n as usize + 1] as usize;
            for &(m, w) in &self.edges[range] {
                let through = d + w;
                if through < dist[m as usize] {
                    dist[m as usize] = through;
                    heap.push(Entry(through, m));
                }
            }
        }
    }

    /// Per node, the number of its connected component (in `0..count`), and the count.
    pub fn components(&self) -> (Vec<u32>, u32) {
        let mut component = vec![NONE; self.node_count()];
        let mut count = 0;
        let mut stack = Vec::new();
        for n in 0..self.node_count() {
            if component[n] != NONE {
                continue;
            }
            component[n] = count;
            stack.push(n as u32);
            while let Some(a) = stack.pop() {
                let range =
                    self.edge_start[a as usize] as usize..self.edge_start[a as usize + 1] as usize;
                for &(b, _) in &self.edges[range] {
                    if component[b as usize] == NONE {
                        component[b as usize] = count;
                        stack.push(b);
                    }
                }
            }
            count += 1;
        }
        (component, count)
    }

    /// The bytes of the tables a query reads (slot and hop maps, polygon node lists).
    pub fn query_bytes(&self) -> usize {
        4 * (self.node_of_slot.len()
            + self.node_of_hop.len()
            + self.polygon_start.len()
            + self.polygon_nodes.len())
    }
}

/// A heap entry of Dijkstra: the smallest distance pops first.
#[derive(Debug, Clone, Copy)]
pub(super) struct Entry(f64, u32);

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        other.0.total_cmp(&self.0).then(other.1.cmp(&self.1))
    }
}

/// The smallest distance between segments `a0..a1` and `b0..b1` (either may be a
/// point): 0 when they touch or cross, else the smallest of the four distances from an
/// end of one to the other segment.
pub(super) fn segment_gap(a0: DVec2, a1: DVec2, b0: DVec2, b1: DVec2) -> f64 {
    if segments_cross(a0, a1, b0, b1) {
        return 0.0;
    }
    point_segment(a0, b0, b1)
        .min(point_segment(a1, b0, b1))
        .min(point_segment(b0, a0, a1))
        .min(point_segment(b1, a0, a1))
}

/// The distance from `p` to segment `a..b`.
fn point_segment(p: DVec2, a: DVec2, b: DVec2) -> f64 {
    let d = b - a;
    let len2 = d.length_squared();
    let t = if len2 > 0.0 {
        ((p - a).dot(d) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    p.distance(a + d * t)
}

/// Whether segments `a0..a1` and `b0..b1` properly cross (each one's ends strictly on
/// both sides of the other's line); touching is caught by the end distances.
fn segments_cross(a0: DVec2, a1: DVec2, b0: DVec2, b1: DVec2) -> bool {
    let side = |p: DVec2, q0: DVec2, q1: DVec2| (q1 - q0).perp_dot(p - q0);
    let (s0, s1) = (side(a0, b0, b1), side(a1, b0, b1));
    let (t0, t1) = (side(b0, a0, a1), side(b1, a0, a1));
    s0 * s1 < 0.0 && t0 * t1 < 0.0
}
