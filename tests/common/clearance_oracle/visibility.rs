//! Exact shortest paths inside a polygonal region with holes: a visibility graph of the
//! region's reflex vertices, built once, then Dijkstra per query with start and goal
//! joined to the vertices they see. A uniform grid of the boundary edges keeps sight
//! tests and point location near linear in the cells crossed, so that whole grid maps fit.

use std::collections::BinaryHeap;

use glam::DVec2;

use super::{Entry, Region, cross, point_segment_distance};

/// A uniform grid over the boundary edges: each cell lists the edges whose bounding box
/// (grown by a hair) meets it.
struct EdgeGrid {
    origin: DVec2,
    cell: f64,
    cols: usize,
    rows: usize,
    cells: Vec<Vec<u32>>,
}

impl EdgeGrid {
    fn new(edges: &[(DVec2, DVec2)]) -> EdgeGrid {
        let (mut lo, mut hi) = (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY));
        for &(a, b) in edges {
            lo = lo.min(a.min(b));
            hi = hi.max(a.max(b));
        }
        if edges.is_empty() {
            (lo, hi) = (DVec2::ZERO, DVec2::ONE);
        }
        let size = (hi - lo).max(DVec2::splat(1e-9));
        // About one edge per cell, at most 1024 cells a side.
        let cell = (size.x * size.y / edges.len().max(1) as f64)
            .sqrt()
            .max(size.max_element() / 1024.0);
        let cols = ((size.x / cell).ceil() as usize).max(1);
        let rows = ((size.y / cell).ceil() as usize).max(1);
        let mut grid = EdgeGrid {
            origin: lo,
            cell,
            cols,
            rows,
            cells: vec![Vec::new(); cols * rows],
        };
        let hair = DVec2::splat(1e-9 * (1.0 + size.max_element()));
        for (e, &(a, b)) in edges.iter().enumerate() {
            let (i0, j0) = grid.cell_of(a.min(b) - hair);
            let (i1, j1) = grid.cell_of(a.max(b) + hair);
            for j in j0..=j1 {
                for i in i0..=i1 {
                    grid.cells[j * cols + i].push(e as u32);
                }
            }
        }
        grid
    }

    /// The column of `x`, clamped to the grid.
    fn col(&self, x: f64) -> usize {
        (((x - self.origin.x) / self.cell).floor().max(0.0) as usize).min(self.cols - 1)
    }

    fn cell_of(&self, p: DVec2) -> (usize, usize) {
        let row =
            (((p.y - self.origin.y) / self.cell).floor().max(0.0) as usize).min(self.rows - 1);
        (self.col(p.x), row)
    }

    /// Calls `visit` with the edges of every cell that `a..b` crosses (an edge may come
    /// more than once) until it returns `false`; returns whether it never did.
    fn along(&self, a: DVec2, b: DVec2, mut visit: impl FnMut(u32) -> bool) -> bool {
        let (mut i, mut j) = self.cell_of(a);
        let end = self.cell_of(b);
        let d = b - a;
        let axis = |start: f64, dir: f64, index: usize, origin: f64| -> (f64, f64, isize) {
            if dir > 0.0 {
                let next = origin + (index + 1) as f64 * self.cell;
                ((next - start) / dir, self.cell / dir, 1)
            } else if dir < 0.0 {
                let next = origin + index as f64 * self.cell;
                ((next - start) / dir, -self.cell / dir, -1)
            } else {
                (f64::INFINITY, f64::INFINITY, 0)
            }
        };
        let (mut tx, dtx, sx) = axis(a.x, d.x, i, self.origin.x);
        let (mut ty, dty, sy) = axis(a.y, d.y, j, self.origin.y);
        loop {
            if !self.cells[j * self.cols + i].iter().all(|&e| visit(e)) {
                return false;
            }
            if (i, j) == end || tx.min(ty) > 1.0 {
                return true;
            }
            let (ni, nj) = if tx < ty {
                tx += dtx;
                (i as isize + sx, j as isize)
            } else {
                ty += dty;
                (i as isize, j as isize + sy)
            };
            if ni < 0 || nj < 0 || ni as usize >= self.cols || nj as usize >= self.rows {
                return true;
            }
            (i, j) = (ni as usize, nj as usize);
        }
    }
}

/// A reflex vertex of the region: where a shortest path may bend.
#[derive(Debug, Clone, Copy)]
struct Corner {
    at: DVec2,
    /// Unit vectors along the two boundary edges at the corner.
    to_prev: DVec2,
    to_next: DVec2,
}

impl Corner {
    fn new(prev: DVec2, at: DVec2, next: DVec2) -> Corner {
        Corner {
            at,
            to_prev: (prev - at).normalize_or_zero(),
            to_next: (next - at).normalize_or_zero(),
        }
    }

    /// Whether the line from this corner towards `w` leaves both boundary edges at the
    /// corner on one side (within `tol` radians): only then can a shortest path bend here
    /// going to `w`. Written out in scalars: the graph build calls it for every pair.
    fn tangent_towards(&self, w: DVec2, tol: f64) -> bool {
        let (dx, dy) = (w.x - self.at.x, w.y - self.at.y);
        let s1 = dx * self.to_prev.y - dy * self.to_prev.x;
        let s2 = dx * self.to_next.y - dy * self.to_next.x;
        let limit = tol * tol * (dx * dx + dy * dy);
        !(s1 * s2 < 0.0 && s1 * s1 > limit && s2 * s2 > limit)
    }
}

/// Shortest paths in one polygonal region (closed: paths may run along its boundary).
pub struct VisibilityOracle {
    edges: Vec<(DVec2, DVec2)>,
    grid: EdgeGrid,
    corners: Vec<Corner>,
    /// Visibility graph between corners: neighbour and distance.
    adjacency: Vec<Vec<(u32, f64)>>,
    /// Geometric tolerance, relative to the region's size: well above the snapping grid
    /// of the union and erosion.
    eps: f64,
}

impl VisibilityOracle {
    /// Builds the visibility graph of `region`'s reflex vertices.
    pub fn new(region: &Region) -> VisibilityOracle {
        let edges: Vec<(DVec2, DVec2)> = region.walls().collect();
        let grid = EdgeGrid::new(&edges);
        let extent = grid.cell * grid.cols.max(grid.rows) as f64;
        let corners = region
            .reflex_vertices()
            .map(|(prev, at, next)| Corner::new(prev, at, next))
            .collect();
        let mut oracle = VisibilityOracle {
            edges,
            grid,
            corners,
            adjacency: Vec::new(),
            // i_overlay snaps to a grid of about 2^-29 of the extent (5e-7 on a 512-cell
            // map): a point exactly `r` from a wall, as a grid cell's centre beside a wall
            // at r = 0.5, must still count as on the eroded boundary.
            eps: 1e-8 * (1.0 + extent),
        };
        let mut adjacency = vec![Vec::new(); oracle.corners.len()];
        for i in 0..oracle.corners.len() {
            for j in i + 1..oracle.corners.len() {
                let (u, w) = (oracle.corners[i], oracle.corners[j]);
                if u.tangent_towards(w.at, 1e-12)
                    && w.tangent_towards(u.at, 1e-12)
                    && oracle.visible(u.at, w.at)
                {
                    let d = u.at.distance(w.at);
                    adjacency[i].push((j as u32, d));
                    adjacency[j].push((i as u32, d));
                }
            }
        }
        oracle.adjacency = adjacency;
        oracle
    }

    /// The number of reflex vertices (graph nodes).
    pub fn corner_count(&self) -> usize {
        self.corners.len()
    }

    /// The number of visibility edges between them.
    pub fn edge_count(&self) -> usize {
        self.adjacency.iter().map(Vec::len).sum::<usize>() / 2
    }

    /// Whether `p` lies in the closed region (on the boundary within the tolerance).
    pub fn contains(&self, p: DVec2) -> bool {
        let (i0, j) = self.grid.cell_of(p);
        let near = self.grid.cells[j * self.grid.cols + i0].iter().any(|&e| {
            let (a, b) = self.edges[e as usize];
            point_segment_distance(p, a, b) <= self.eps
        });
        if near {
            return true;
        }
        // Even-odd count along the ray to +x, each crossing counted in the cell that
        // holds it.
        let mut inside = false;
        for i in i0..self.grid.cols {
            for &e in &self.grid.cells[j * self.grid.cols + i] {
                let (a, b) = self.edges[e as usize];
                if (a.y > p.y) != (b.y > p.y) {
                    let x = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y);
                    if x > p.x && self.grid.col(x) == i {
                        inside = !inside;
                    }
                }
            }
        }
        inside
    }

    /// Whether the segment `a..b` lies in the closed region: it crosses no boundary edge
    /// properly, and between the boundary vertices it touches it runs inside.
    pub fn visible(&self, a: DVec2, b: DVec2) -> bool {
        let ab = b - a;
        let len2 = ab.length_squared();
        let mut cuts = vec![0.0, 1.0];
        let eps = self.eps;
        let clear = self.grid.along(a, b, |e| {
            let (c, d) = self.edges[e as usize];
            let side = |u: DVec2, v: DVec2, p: DVec2| cross(v - u, p - u) / (v - u).length();
            let (s1, s2) = (side(c, d, a), side(c, d, b));
            let (s3, s4) = (side(a, b, c), side(a, b, d));
            if ((s1 > eps && s2 < -eps) || (s1 < -eps && s2 > eps))
                && ((s3 > eps && s4 < -eps) || (s3 < -eps && s4 > eps))
            {
                return false;
            }
            for q in [c, d] {
                let t = (q - a).dot(ab) / len2;
                if t > 0.0 && t < 1.0 && (a + ab * t).distance(q) <= eps {
                    cuts.push(t);
                }
            }
            true
        });
        if !clear {
            return false;
        }
        if len2 == 0.0 {
            return self.contains(a);
        }
        cuts.sort_by(f64::total_cmp);
        cuts.dedup();
        cuts.windows(2)
            .all(|w| self.contains(a + ab * ((w[0] + w[1]) * 0.5)))
    }

    /// The length of the shortest path from `s` to `t` in the closed region; `None` when
    /// either lies outside it or they are in different components.
    pub fn shortest(&self, s: DVec2, t: DVec2) -> Option<f64> {
        self.shortest_path(s, t).map(|(len, _)| len)
    }

    /// The shortest path from `s` to `t` and its length (see [`Self::shortest`]).
    pub fn shortest_path(&self, s: DVec2, t: DVec2) -> Option<(f64, Vec<DVec2>)> {
        if !self.contains(s) || !self.contains(t) {
            return None;
        }
        if self.visible(s, t) {
            return Some((s.distance(t), vec![s, t]));
        }
        // Nodes: the corners, then s, then t.
        let n = self.corners.len();
        let (source, target) = (n, n + 1);
        let at = |k: usize| match k {
            k if k == source => s,
            k if k == target => t,
            k => self.corners[k].at,
        };
        let to_goal: Vec<(u32, f64)> = (0..n)
            .filter(|&k| {
                self.corners[k].tangent_towards(t, 1e-12) && self.visible(self.corners[k].at, t)
            })
            .map(|k| (k as u32, self.corners[k].at.distance(t)))
            .collect();
        let mut into_goal = vec![None; n];
        for &(k, d) in &to_goal {
            into_goal[k as usize] = Some(d);
        }
        let mut dist = vec![f64::INFINITY; n + 2];
        let mut from = vec![usize::MAX; n + 2];
        let mut done = vec![false; n + 2];
        let mut heap = BinaryHeap::new();
        dist[source] = 0.0;
        heap.push(Entry(s.distance(t), source));
        // A* with the straight-line distance to t, which is consistent: the first time a
        // node leaves the queue its distance is final.
        while let Some(Entry(_, u)) = heap.pop() {
            if std::mem::replace(&mut done[u], true) {
                continue;
            }
            if u == target {
                let mut path = vec![t];
                let mut k = target;
                while from[k] != usize::MAX {
                    k = from[k];
                    path.push(at(k));
                }
                path.reverse();
                return Some((dist[target], path));
            }
            let mut relax = |w: usize, d: f64, heap: &mut BinaryHeap<Entry>| {
                if dist[u] + d < dist[w] {
                    dist[w] = dist[u] + d;
                    from[w] = u;
                    heap.push(Entry(dist[w] + at(w).distance(t), w));
                }
            };
            if u == source {
                for k in 0..n {
                    let c = self.corners[k];
                    if c.tangent_towards(s, 1e-12) && self.visible(s, c.at) {
                        relax(k, c.at.distance(s), &mut heap);
                    }
                }
                continue;
            }
            for &(w, d) in &self.adjacency[u] {
                relax(w as usize, d, &mut heap);
            }
            if let Some(d) = into_goal[u] {
                relax(target, d, &mut heap);
            }
        }
        None
    }
}
