//! Oracle B: the exact shortest path of a disc's centre by a tangent graph (Chew 1985).
//!
//! The shortest path of a disc of radius `r > 0` among polygonal walls is made of
//! straight pieces tangent to circles of radius `r` round the convex corners of the walls
//! (or ending at start and goal), and arcs of those circles. The graph here holds every
//! such candidate: the four common tangents of each pair of circles, the two tangents
//! from start and from goal to each circle, the segment from start to goal, and the arcs
//! between consecutive tangent points of a circle. A piece is kept when every point of it
//! stays at least `r` (less a rounding tolerance) from every wall, so each path of the
//! graph is one the disc can follow, and the true shortest path is one of them: Dijkstra
//! on the graph gives its length exactly.
//!
//! The walls and corners come from the checker of `tests/common` (boundary edges counted
//! over polygons, corners where the walkable angle exceeds a half turn or walls pinch),
//! not from the union that oracle A erodes.

use std::collections::BinaryHeap;
use std::f64::consts::TAU;

use glam::DVec2;

use super::{Entry, point_segment_distance, segment_distance};
use crate::common::Domain;

/// Oracle B for one region and one radius.
pub struct TangentOracle<'a> {
    domain: &'a Domain,
    walls: Vec<(DVec2, DVec2)>,
    /// The centres of the circles: the corners where a path can bend.
    centres: Vec<DVec2>,
    r: f64,
    /// Rounding tolerance of the distance tests, relative to the region's size.
    tol: f64,
}

/// The graph of one query: points (with the circle they lie on) and weighted edges.
#[derive(Default)]
struct Graph {
    points: Vec<(Option<usize>, DVec2)>,
    edges: Vec<Vec<(usize, f64)>>,
}

impl Graph {
    fn node(&mut self, circle: Option<usize>, at: DVec2) -> usize {
        self.points.push((circle, at));
        self.edges.push(Vec::new());
        self.points.len() - 1
    }

    fn join(&mut self, a: usize, b: usize, length: f64) {
        self.edges[a].push((b, length));
        self.edges[b].push((a, length));
    }

    /// Dijkstra's distance from node `from` to node `to`.
    fn distance(&self, from: usize, to: usize) -> Option<f64> {
        let mut dist = vec![f64::INFINITY; self.points.len()];
        let mut heap = BinaryHeap::new();
        dist[from] = 0.0;
        heap.push(Entry(0.0, from));
        while let Some(Entry(d, u)) = heap.pop() {
            if u == to {
                return Some(d);
            }
            if d > dist[u] {
                continue;
            }
            for &(w, len) in &self.edges[u] {
                if d + len < dist[w] {
                    dist[w] = d + len;
                    heap.push(Entry(dist[w], w));
                }
            }
        }
        None
    }
}

/// The angle of `v` in `0..TAU`.
fn angle(v: DVec2) -> f64 {
    v.y.atan2(v.x).rem_euclid(TAU)
}

impl<'a> TangentOracle<'a> {
    /// The oracle of the region of `domain` for a disc of radius `r > 0`.
    pub fn new(domain: &'a Domain, r: f64) -> TangentOracle<'a> {
        assert!(
            r > 0.0,
            "the tangent graph needs a positive radius, not {r}"
        );
        let g = |v: u32| domain.ground[v as usize];
        let walls: Vec<(DVec2, DVec2)> =
            domain.boundary.iter().map(|&(a, b)| (g(a), g(b))).collect();
        let centres = domain.bend_vertices.iter().map(|&v| g(v)).collect();
        let extent = walls
            .iter()
            .flat_map(|&(a, b)| [a.abs().max_element(), b.abs().max_element()])
            .fold(0.0, f64::max);
        TangentOracle {
            domain,
            walls,
            centres,
            r,
            tol: 1e-9 * (1.0 + extent),
        }
    }

    /// The distance from `p` to the nearest wall.
    pub fn wall_distance(&self, p: DVec2) -> f64 {
        self.walls
            .iter()
            .map(|&(a, b)| point_segment_distance(p, a, b))
            .fold(f64::INFINITY, f64::min)
    }

    /// Whether the disc's centre may be at `p`: on the region and at least `r` from
    /// every wall.
    pub fn admissible(&self, p: DVec2) -> bool {
        self.domain.contains(p, self.tol) && self.wall_distance(p) >= self.r - self.tol
    }

    /// Whether every point of `a..b` keeps the radius from every wall.
    fn segment_clear(&self, a: DVec2, b: DVec2) -> bool {
        let reach = DVec2::splat(self.r);
        let (lo, hi) = (a.min(b) - reach, a.max(b) + reach);
        self.walls.iter().all(|&(u, v)| {
            u.max(v).cmplt(lo).any()
                || u.min(v).cmpgt(hi).any()
                || segment_distance(a, b, u, v) >= self.r - self.tol
        })
    }

    /// The distance between the arc of the circle round `c` from angle `from` through
    /// `sweep` counter-clockwise and the segment `u..v`.
    fn arc_segment_distance(&self, c: DVec2, from: f64, sweep: f64, u: DVec2, v: DVec2) -> f64 {
        let r = self.r;
        let on_arc = |dir: DVec2| (angle(dir) - from).rem_euclid(TAU) <= sweep;
        let at = |a: f64| c + DVec2::new(a.cos(), a.sin()) * r;
        // The ends of the arc against the segment.
        let mut best = point_segment_distance(at(from), u, v).min(point_segment_distance(
            at(from + sweep),
            u,
            v,
        ));
        // The ends of the segment against the arc, where they face it.
        for p in [u, v] {
            if on_arc(p - c) {
                best = best.min((p.distance(c) - r).abs());
            }
        }
        let e = v - u;
        let len2 = e.length_squared();
        if len2 == 0.0 {
            return best;
        }
        // Inner points of both facing each other along the segment's normal.
        let normal = e.perp() / len2.sqrt();
        for sign in [1.0, -1.0] {
            let x = c + normal * (sign * r);
            let t = (x - u).dot(e) / len2;
            if on_arc(x - c) && (0.0..=1.0).contains(&t) {
                best = best.min((u + e * t).distance(x));
            }
        }
        // Crossings of the segment and the circle on the arc.
        let f = u - c;
        let (b, k) = (f.dot(e), f.length_squared() - r * r);
        let disc = b * b - len2 * k;
        if disc >= 0.0 {
            for t in [(-b - disc.sqrt()) / len2, (-b + disc.sqrt()) / len2] {
                if (0.0..=1.0).contains(&t) && on_arc(u + e * t - c) {
                    return 0.0;
                }
            }
        }
        best
    }

    /// Whether the arc keeps the radius from every wall.
    fn arc_clear(&self, circle: usize, from: f64, sweep: f64) -> bool {
        let c = self.centres[circle];
        let reach = DVec2::splat(2.0 * self.r);
        self.walls.iter().all(|&(u, v)| {
            u.max(v).cmplt(c - reach).any()
                || u.min(v).cmpgt(c + reach).any()
                || self.arc_segment_distance(c, from, sweep, u, v) >= self.r - self.tol
        })
    }

    /// The two points where the tangents from `p` touch circle `circle`.
    fn tangents_from(&self, p: DVec2, circle: usize) -> Vec<DVec2> {
        let c = self.centres[circle];
        let d = p.distance(c);
        if d < self.r - self.tol || d == 0.0 {
            return Vec::new();
        }
        let w = (p - c) / d;
        let cos = (self.r / d).min(1.0);
        let sin = (1.0 - cos * cos).sqrt();
        [sin, -sin]
            .iter()
            .map(|&s| c + (w * cos + w.perp() * s) * self.r)
            .collect()
    }

    /// The common tangents of two circles, as pairs of touching points.
    fn tangents_between(&self, i: usize, j: usize) -> Vec<(DVec2, DVec2)> {
        let (c1, c2, r) = (self.centres[i], self.centres[j], self.r);
        let d = c1.distance(c2);
        if d == 0.0 {
            return Vec::new();
        }
        let u = (c2 - c1) / d;
        let n = u.perp();
        // Outer tangents: both circles touched on the same side.
        let mut out = vec![(c1 + n * r, c2 + n * r), (c1 - n * r, c2 - n * r)];
        // Inner tangents cross between the circles: touching points c1 + r v, c2 - r v
        // with u . v = 2r / d.
        if d >= 2.0 * r {
            let cos = 2.0 * r / d;
            let sin = (1.0 - cos * cos).max(0.0).sqrt();
            for s in [sin, -sin] {
                let v = u * cos + n * s;
                out.push((c1 + v * r, c2 - v * r));
            }
        }
        out
    }

    /// The length of the shortest path of the disc's centre from `s` to `t`; `None` when
    /// either is not admissible or no path exists.
    pub fn shortest(&self, s: DVec2, t: DVec2) -> Option<f64> {
        if !self.admissible(s) || !self.admissible(t) {
            return None;
        }
        if self.segment_clear(s, t) {
            return Some(s.distance(t));
        }
        let mut graph = Graph::default();
        let (source, target) = (graph.node(None, s), graph.node(None, t));
        for circle in 0..self.centres.len() {
            for (end, node) in [(s, source), (t, target)] {
                for x in self.tangents_from(end, circle) {
                    if self.segment_clear(end, x) {
                        let k = graph.node(Some(circle), x);
                        graph.join(node, k, end.distance(x));
                    }
                }
            }
        }
        for i in 0..self.centres.len() {
            for j in i + 1..self.centres.len() {
                for (a, b) in self.tangents_between(i, j) {
                    if self.segment_clear(a, b) {
                        let (ka, kb) = (graph.node(Some(i), a), graph.node(Some(j), b));
                        graph.join(ka, kb, a.distance(b));
                    }
                }
            }
        }
        // Arcs between the touching points of each circle, in angular order.
        let mut on_circle: Vec<Vec<(f64, usize)>> = vec![Vec::new(); self.centres.len()];
        for (k, &(circle, at)) in graph.points.iter().enumerate() {
            if let Some(circle) = circle {
                on_circle[circle].push((angle(at - self.centres[circle]), k));
            }
        }
        for (circle, mut points) in on_circle.into_iter().enumerate() {
            if points.len() < 2 {
                continue;
            }
            points.sort_by(|a, b| a.0.total_cmp(&b.0));
            for w in 0..points.len() {
                let (a, b) = (points[w], points[(w + 1) % points.len()]);
                let sweep = (b.0 - a.0).rem_euclid(TAU);
                if self.arc_clear(circle, a.0, sweep) {
                    graph.join(a.1, b.1, sweep * self.r);
                }
            }
        }
        graph.distance(source, target)
    }
}
