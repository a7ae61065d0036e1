//! Shared helpers of the integration tests: mesh builders (ASCII grids, random jittered
//! grids) and an independent checker of paths.
//!
//! The checker knows nothing of the library's own walk, A* or funnel. It reads the mesh
//! only through the public accessors (vertices and polygon corners), works in `f64`, and
//! computes everything else itself: boundary edges by counting edge uses, islands, point
//! containment, segment validity, the true shortest path (visibility graph + Dijkstra)
//! and the best "midpoint polyline" through any corridor (Dijkstra over portal midpoints).

#![allow(dead_code)]

use std::collections::HashMap;

use glam::{DVec2, Vec3};
use navstar::{MeshError, MeshOptions, NavMesh, UpAxis};
use proptest::test_runner::{Config as ProptestConfig, RngSeed};

// ---------------------------------------------------------------------------------------
// Property tests
// ---------------------------------------------------------------------------------------

/// The configuration of a property test of `cases` cases, drawn from a seed that a
/// failure can be replayed with. The seed is `PROPTEST_RNG_SEED` when set, else a new
/// random one each run (so that runs keep exploring); either way it is printed, and the
/// test's output shows it on failure: `PROPTEST_RNG_SEED=<seed> cargo nextest run ...
/// <test>` replays the run case for case, shrinking included. `PROPTEST_CASES`
/// overrides `cases` (for long local runs). Nothing is written to disk.
pub fn proptest_config(cases: u32) -> ProptestConfig {
    // The defaults hold what the `PROPTEST_*` variables set.
    let defaults = ProptestConfig::default();
    let seed = match defaults.rng_seed {
        RngSeed::Fixed(seed) => seed,
        RngSeed::Random => {
            use std::hash::BuildHasher;
            std::collections::hash_map::RandomState::new().hash_one(std::time::SystemTime::now())
        }
    };
    eprintln!("proptest seed {seed}: replay with PROPTEST_RNG_SEED={seed}");
    // `PROPTEST_CASES`, when set, wins over the count the test asks for.
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(cases);
    ProptestConfig {
        cases,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(seed),
        ..defaults
    }
}

// ---------------------------------------------------------------------------------------
// Mesh input
// ---------------------------------------------------------------------------------------

/// Mesh input in the form `NavMesh::from_polygons` takes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Soup {
    pub vertices: Vec<Vec3>,
    pub indices: Vec<u32>,
    pub sizes: Vec<u32>,
}

/// A point of the ground plane at height 0 (Y up): `(x, 0, z)`.
pub fn p(x: f32, z: f32) -> Vec3 {
    Vec3::new(x, 0.0, z)
}

impl Soup {
    pub fn new() -> Soup {
        Soup::default()
    }

    /// Adds a vertex and returns its index.
    pub fn vertex(&mut self, v: Vec3) -> u32 {
        self.vertices.push(v);
        (self.vertices.len() - 1) as u32
    }

    /// Adds a vertex unless one with exactly this position exists; returns its index.
    pub fn shared_vertex(&mut self, v: Vec3) -> u32 {
        match self.vertices.iter().position(|&w| w == v) {
            Some(i) => i as u32,
            None => self.vertex(v),
        }
    }

    /// Adds a polygon from vertex indices.
    pub fn polygon(&mut self, corners: &[u32]) -> &mut Soup {
        self.indices.extend_from_slice(corners);
        self.sizes.push(corners.len() as u32);
        self
    }

    /// Adds a polygon from positions, sharing vertices with equal positions.
    pub fn polygon_at(&mut self, corners: &[Vec3]) -> &mut Soup {
        let ids: Vec<u32> = corners.iter().map(|&c| self.shared_vertex(c)).collect();
        self.polygon(&ids)
    }

    pub fn try_build(&self, options: &MeshOptions) -> Result<NavMesh, MeshError> {
        NavMesh::from_polygons(&self.vertices, &self.indices, &self.sizes, options)
    }

    pub fn build(&self) -> NavMesh {
        self.try_build(&MeshOptions::default())
            .unwrap_or_else(|e| panic!("mesh rejected: {e}"))
    }

    /// The same mesh with every polygon listed in the other winding.
    pub fn reversed_winding(&self) -> Soup {
        let mut out = self.clone();
        let mut start = 0usize;
        for &n in &self.sizes {
            out.indices[start..start + n as usize].reverse();
            start += n as usize;
        }
        out
    }

    /// The same mesh for a Z-up world: `(x, y, z) -> (x, z, y)`.
    pub fn to_z_up(&self) -> Soup {
        let mut out = self.clone();
        for v in &mut out.vertices {
            *v = y_to_z(*v);
        }
        out
    }

    /// One polygon per input polygon but every corner its own vertex (a "triangle soup"
    /// as exporters write it): only welding can connect the polygons again.
    pub fn unwelded(&self) -> Soup {
        let mut out = Soup::new();
        for &i in &self.indices {
            out.vertex(self.vertices[i as usize]);
        }
        out.indices = (0..self.indices.len() as u32).collect();
        out.sizes = self.sizes.clone();
        out
    }

    /// Builds a floor from an ASCII map: row `r` spans z in `r..r + 1`, column `c` spans
    /// x in `c..c + 1`; every `.` (or any char but `#` and space) is a unit quad.
    /// Vertices are shared, so the quads are connected.
    pub fn from_ascii(rows: &[&str]) -> Soup {
        let mut soup = Soup::new();
        let mut ids: HashMap<(i32, i32), u32> = HashMap::new();
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                if ch == '#' || ch == ' ' {
                    continue;
                }
                let (x, z) = (c as i32, r as i32);
                let quad = [(x, z), (x + 1, z), (x + 1, z + 1), (x, z + 1)];
                let corners: Vec<u32> = quad
                    .iter()
                    .map(|&(vx, vz)| {
                        *ids.entry((vx, vz))
                            .or_insert_with(|| soup.vertex(p(vx as f32, vz as f32)))
                    })
                    .collect();
                soup.polygon(&corners);
            }
        }
        soup
    }
}

/// A 6 x 6 room round a 2 x 2 pillar (ground x, z in 0..6, the pillar in 2..4) as eight
/// triangles.
pub fn pillar_room_triangles() -> Soup {
    let mut s = Soup::new();
    let (o0, o1, o2, o3) = (p(0., 0.), p(6., 0.), p(6., 6.), p(0., 6.));
    let (i0, i1, i2, i3) = (p(2., 2.), p(4., 2.), p(4., 4.), p(2., 4.));
    for (a, b, c, d) in [
        (o0, o1, i1, i0),
        (o1, o2, i2, i1),
        (o2, o3, i3, i2),
        (o3, o0, i0, i3),
    ] {
        s.polygon_at(&[a, b, c]).polygon_at(&[a, c, d]);
    }
    s
}

pub fn y_to_z(v: Vec3) -> Vec3 {
    Vec3::new(v.x, v.z, v.y)
}

// ---------------------------------------------------------------------------------------
// Random meshes
// ---------------------------------------------------------------------------------------

/// SplitMix64: a tiny deterministic generator for tests that need many numbers.
#[derive(Debug, Clone)]
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0.0..1.0`.
    pub fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    pub fn below(&mut self, n: u32) -> u32 {
        (self.next_u64() % u64::from(n)) as u32
    }
}

/// What one cell of a random grid becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    Hole,
    Quad,
    /// Two triangles split along the diagonal from corner (0, 0) to (1, 1).
    DiagonalA,
    /// Two triangles split along the other diagonal.
    DiagonalB,
    /// Merged with the next cell of the row into one hexagon with two collinear corners
    /// (only on an unjittered grid; falls back to `Quad` otherwise or at the row's end).
    MergeRight,
}

impl Cell {
    pub fn from_code(code: u8) -> Cell {
        match code % 10 {
            0 | 1 => Cell::Hole,
            2 | 3 => Cell::Quad,
            4 | 5 => Cell::DiagonalA,
            6 | 7 => Cell::DiagonalB,
            _ => Cell::MergeRight,
        }
    }
}

/// A grid of `cols x rows` unit cells whose inner points are moved by up to `jitter`
/// (< 0.2 keeps every quad convex). `jitter == 0` gives an exact grid with collinear
/// vertices everywhere, where `MergeRight` cells become hexagons.
pub fn random_grid(
    cols: usize,
    rows: usize,
    cells: &[Cell],
    offsets: &[(f32, f32)],
    jitter: f32,
) -> Soup {
    random_grid_sized(cells, offsets, jitter, &vec![1.0; cols], &vec![1.0; rows])
}

/// As [`random_grid`], with column widths and row heights given (thin ones make slivers).
/// The jitter of a point is relative to the smallest cell around it.
pub fn random_grid_sized(
    cells: &[Cell],
    offsets: &[(f32, f32)],
    jitter: f32,
    widths: &[f32],
    heights: &[f32],
) -> Soup {
    let (cols, rows) = (widths.len(), heights.len());
    assert_eq!(cells.len(), cols * rows);
    let mut soup = Soup::new();
    let index = |x: usize, z: usize| (z * (cols + 1) + x) as u32;
    let at = |sizes: &[f32], i: usize| sizes[..i].iter().sum::<f32>();
    let around = |sizes: &[f32], i: usize| {
        let before = if i > 0 { sizes[i - 1] } else { f32::INFINITY };
        let after = sizes.get(i).copied().unwrap_or(f32::INFINITY);
        before.min(after)
    };
    for z in 0..=rows {
        for x in 0..=cols {
            let (dx, dz) = offsets[(z * (cols + 1) + x) % offsets.len().max(1)];
            let scale = around(widths, x).min(around(heights, z)) * jitter;
            soup.vertex(p(at(widths, x) + dx * scale, at(heights, z) + dz * scale));
        }
    }
    for z in 0..rows {
        let mut x = 0;
        while x < cols {
            let (a, b, c, d) = (
                index(x, z),
                index(x + 1, z),
                index(x + 1, z + 1),
                index(x, z + 1),
            );
            match cells[z * cols + x] {
                Cell::Hole => {}
                Cell::Quad => {
                    soup.polygon(&[a, b, c, d]);
                }
                Cell::DiagonalA => {
                    soup.polygon(&[a, b, c]).polygon(&[a, c, d]);
                }
                Cell::DiagonalB => {
                    soup.polygon(&[a, b, d]).polygon(&[b, c, d]);
                }
                Cell::MergeRight => {
                    if jitter == 0.0 && x + 1 < cols {
                        let (e, f) = (index(x + 2, z), index(x + 2, z + 1));
                        soup.polygon(&[a, b, e, f, c, d]);
                        x += 1;
                    } else {
                        soup.polygon(&[a, b, c, d]);
                    }
                }
            }
            x += 1;
        }
    }
    soup
}

/// A random `cols x rows` jittered grid from a seed, with about 15 % holes.
pub fn seeded_grid(seed: u64, cols: usize, rows: usize) -> Soup {
    let mut rng = Rng(seed);
    let cells: Vec<Cell> = (0..cols * rows)
        .map(|_| {
            if rng.below(100) < 15 {
                Cell::Hole
            } else {
                Cell::from_code(2 + rng.below(6) as u8)
            }
        })
        .collect();
    let offsets: Vec<(f32, f32)> = (0..(cols + 1) * (rows + 1))
        .map(|_| (rng.unit() * 2.0 - 1.0, rng.unit() * 2.0 - 1.0))
        .collect();
    random_grid(cols, rows, &cells, &offsets, 0.18)
}

/// A point of polygon `polygon` from two numbers in `0..1` (a point of one of its fan
/// triangles, chosen by `s`).
pub fn point_in_polygon(mesh: &NavMesh, polygon: u32, s: f32, t: f32, u: f32) -> Vec3 {
    let corners = mesh.polygon_vertices(polygon);
    let v = mesh.vertices();
    let fan = corners.len() - 2;
    let k = ((s * fan as f32) as usize).min(fan - 1);
    let (a, b, c) = (
        v[corners[0] as usize],
        v[corners[k + 1] as usize],
        v[corners[k + 2] as usize],
    );
    let (mut t, mut u) = (t, u);
    if t + u > 1.0 {
        (t, u) = (1.0 - t, 1.0 - u);
    }
    a + (b - a) * t + (c - a) * u
}

// ---------------------------------------------------------------------------------------
// The independent checker
// ---------------------------------------------------------------------------------------

/// Geometric tolerance of the checker, in world units (test meshes are a few units wide).
pub const EPS: f64 = 1e-4;

/// The walkable region of a mesh seen by the checker, in `f64` ground coordinates.
pub struct Domain {
    pub up: UpAxis,
    pub world: Vec<Vec3>,
    pub ground: Vec<DVec2>,
    /// Corners of each polygon, counter-clockwise (the checker orients them itself).
    pub polygons: Vec<Vec<u32>>,
    /// Edges used by exactly one polygon.
    pub boundary: Vec<(u32, u32)>,
    /// Edges used by two polygons: vertices and the two polygons.
    pub portals: Vec<(u32, u32, usize, usize)>,
    /// Connected components over shared edges.
    pub island: Vec<usize>,
    /// Boundary vertices where a shortest path can bend: reflex, or pinched.
    pub bend_vertices: Vec<u32>,
    /// Whether some vertex is pinched (walkable wedges touching only at a point). The
    /// oracle lets paths through such points, which the library does not.
    pub pinched: bool,
}

fn cross(a: DVec2, b: DVec2) -> f64 {
    a.perp_dot(b)
}

/// How far the library may round a path's points with ends `a` and `b`: 8 `f32` ulps
/// of the largest coordinate (at least 1), as its geometry tests allow.
fn rounding_allowance(a: DVec2, b: DVec2) -> f64 {
    8.0 * f64::from(f32::EPSILON) * a.abs().max(b.abs()).max_element().max(1.0)
}

/// Signed distance of `p` from the line through `a -> b` (positive on the left).
fn side(a: DVec2, b: DVec2, p: DVec2) -> f64 {
    let e = b - a;
    let len = e.length();
    if len == 0.0 {
        return (p - a).length();
    }
    cross(e, p - a) / len
}

impl Domain {
    pub fn new(mesh: &NavMesh) -> Domain {
        Domain::layer(mesh, |_| true)
    }

    /// The checker's view of the polygons for which `keep` holds (one floor of a
    /// multi-storey mesh: the checker works in the ground plane only).
    pub fn layer(mesh: &NavMesh, keep: impl Fn(u32) -> bool) -> Domain {
        Domain::restricted(mesh, keep, |_, _| true)
    }

    /// The sleeve of a corridor: its polygons, where only consecutive ones are joined
    /// (an edge between two polygons of the corridor that do not follow each other is a
    /// wall). The shortest path in the sleeve is what string pulling must find.
    pub fn sleeve(mesh: &NavMesh, corridor: &[u32]) -> Domain {
        let position = |poly: u32| corridor.iter().position(|&c| c == poly);
        Domain::restricted(
            mesh,
            |poly| position(poly).is_some(),
            |a, b| match (position(a as u32), position(b as u32)) {
                (Some(i), Some(j)) => i.abs_diff(j) == 1,
                _ => false,
            },
        )
    }

    fn restricted(
        mesh: &NavMesh,
        keep: impl Fn(u32) -> bool,
        joined: impl Fn(usize, usize) -> bool,
    ) -> Domain {
        let up = mesh.up_axis();
        let world = mesh.vertices().to_vec();
        let ground: Vec<DVec2> = world.iter().map(|&w| up.ground(w).as_dvec2()).collect();
        let mut polygons = Vec::new();
        let mut mesh_index = Vec::new();
        for poly in (0..mesh.polygon_count()).filter(|&poly| keep(poly)) {
            mesh_index.push(poly as usize);
            let mut corners = mesh.polygon_vertices(poly).to_vec();
            let n = corners.len();
            let area: f64 = (0..n)
                .map(|i| {
                    cross(
                        ground[corners[i] as usize],
                        ground[corners[(i + 1) % n] as usize],
                    )
                })
                .sum();
            if area < 0.0 {
                corners.reverse();
            }
            polygons.push(corners);
        }
        let mut uses: HashMap<(u32, u32), Vec<usize>> = HashMap::new();
        for (pi, corners) in polygons.iter().enumerate() {
            let n = corners.len();
            for i in 0..n {
                let (a, b) = (corners[i], corners[(i + 1) % n]);
                uses.entry((a.min(b), a.max(b))).or_default().push(pi);
            }
        }
        let mut boundary = Vec::new();
        let mut portals = Vec::new();
        for (&(a, b), users) in &uses {
            match users.len() {
                1 => boundary.push((a, b)),
                2 if joined(mesh_index[users[0]], mesh_index[users[1]]) => {
                    portals.push((a, b, users[0], users[1]));
                }
                2 => {
                    boundary.push((a, b));
                    boundary.push((a, b));
                }
                n => panic!("edge ({a}, {b}) used by {n} polygons"),
            }
        }
        boundary.sort_unstable();
        portals.sort_unstable();
        // Islands by union-find over portals.
        let mut parent: Vec<usize> = (0..polygons.len()).collect();
        fn find(parent: &mut [usize], mut x: usize) -> usize {
            while parent[x] != x {
                parent[x] = parent[parent[x]];
                x = parent[x];
            }
            x
        }
        for &(_, _, p1, p2) in &portals {
            let (r1, r2) = (find(&mut parent, p1), find(&mut parent, p2));
            parent[r1] = r2;
        }
        let island = (0..polygons.len()).map(|i| find(&mut parent, i)).collect();
        // Bend vertices: the walkable angle around a boundary vertex exceeds pi, or the
        // vertex is pinched (more than two boundary edges meet there).
        let mut angle = vec![0.0f64; world.len()];
        for corners in &polygons {
            let n = corners.len();
            for i in 0..n {
                let v = ground[corners[i] as usize];
                let prev = ground[corners[(i + n - 1) % n] as usize] - v;
                let next = ground[corners[(i + 1) % n] as usize] - v;
                angle[corners[i] as usize] += cross(next, prev).atan2(next.dot(prev)).abs();
            }
        }
        let mut boundary_degree = vec![0u32; world.len()];
        for &(a, b) in &boundary {
            boundary_degree[a as usize] += 1;
            boundary_degree[b as usize] += 1;
        }
        let pinched = boundary_degree.iter().any(|&d| d > 2);
        let bend_vertices = (0..world.len())
            .filter(|&v| {
                let pi = std::f64::consts::PI;
                boundary_degree[v] > 2 || (boundary_degree[v] > 0 && angle[v] > pi + 1e-6)
            })
            .map(|v| v as u32)
            .collect();
        Domain {
            up,
            world,
            ground,
            polygons,
            boundary,
            portals,
            island,
            bend_vertices,
            pinched,
        }
    }

    pub fn g(&self, v: Vec3) -> DVec2 {
        self.up.ground(v).as_dvec2()
    }

    /// Whether `q` is (within 1e-6) an end of a boundary edge.
    pub fn is_wall_vertex(&self, q: DVec2) -> bool {
        self.boundary
            .iter()
            .any(|&(a, b)| self.corner(a).distance(q) <= 1e-6 || self.corner(b).distance(q) <= 1e-6)
    }

    fn corner(&self, v: u32) -> DVec2 {
        self.ground[v as usize]
    }

    /// Whether `q` lies in polygon `poly` or within distance `eps` of it. (Not "within
    /// `eps` of every edge line": at a sliver's sharp corner that would reach far out.)
    pub fn polygon_contains(&self, poly: usize, q: DVec2, eps: f64) -> bool {
        self.strictly_inside(poly, q) || self.closest_in_polygon(poly, q).1 <= eps
    }

    fn strictly_inside(&self, poly: usize, q: DVec2) -> bool {
        let c = &self.polygons[poly];
        let n = c.len();
        (0..n).all(|i| side(self.corner(c[i]), self.corner(c[(i + 1) % n]), q) >= 0.0)
    }

    /// The polygons holding `q` (within `eps`).
    pub fn polygons_at(&self, q: DVec2, eps: f64) -> Vec<usize> {
        (0..self.polygons.len())
            .filter(|&poly| self.polygon_contains(poly, q, eps))
            .collect()
    }

    pub fn contains(&self, q: DVec2, eps: f64) -> bool {
        (0..self.polygons.len()).any(|poly| self.polygon_contains(poly, q, eps))
    }

    /// The islands (as the checker numbers them) holding `q`.
    pub fn islands_at(&self, q: DVec2, eps: f64) -> Vec<usize> {
        let mut v: Vec<usize> = self
            .polygons_at(q, eps)
            .into_iter()
            .map(|poly| self.island[poly])
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// The point of polygon `poly` closest to `q`, and the distance (ground plane).
    pub fn closest_in_polygon(&self, poly: usize, q: DVec2) -> (DVec2, f64) {
        if self.strictly_inside(poly, q) {
            return (q, 0.0);
        }
        let c = &self.polygons[poly];
        let n = c.len();
        let mut best = (q, f64::INFINITY);
        for i in 0..n {
            let (a, b) = (self.corner(c[i]), self.corner(c[(i + 1) % n]));
            let e = b - a;
            let t = ((q - a).dot(e) / e.length_squared()).clamp(0.0, 1.0);
            let r = a + e * t;
            let d = (q - r).length();
            if d < best.1 {
                best = (r, d);
            }
        }
        best
    }

    /// Ground distance from `q` to the nearest polygon accepted by `accept`.
    pub fn distance_to(&self, q: DVec2, accept: impl Fn(usize) -> bool) -> f64 {
        (0..self.polygons.len())
            .filter(|&poly| accept(poly))
            .map(|poly| self.closest_in_polygon(poly, q).1)
            .fold(f64::INFINITY, f64::min)
    }

    /// Whether `a..b` properly crosses boundary edge `(c, d)`: each segment has one end
    /// strictly (by more than `eps`) on each side of the other's line.
    fn properly_crosses(&self, a: DVec2, b: DVec2, c: DVec2, d: DVec2, eps: f64) -> bool {
        let (s1, s2) = (side(c, d, a), side(c, d, b));
        let (s3, s4) = (side(a, b, c), side(a, b, d));
        ((s1 > eps && s2 < -eps) || (s1 < -eps && s2 > eps))
            && ((s3 > eps && s4 < -eps) || (s3 < -eps && s4 > eps))
    }

    /// Checks a path segment: it never properly crosses a boundary edge (by more than
    /// the library's rounding allowance, 8 `f32` ulps of the coordinates' size), and 64
    /// sample points along it (ends included) lie in some polygon.
    pub fn check_segment(&self, a: DVec2, b: DVec2) -> Result<(), String> {
        let rounding = rounding_allowance(a, b);
        for &(c, d) in &self.boundary {
            let (cp, dp) = (self.corner(c), self.corner(d));
            if self.properly_crosses(a, b, cp, dp, rounding) {
                return Err(format!(
                    "segment {a} -> {b} crosses boundary edge ({c}, {d}) = {cp} -> {dp}"
                ));
            }
        }
        for k in 0..=64 {
            let q = a.lerp(b, f64::from(k) / 64.0);
            if !self.contains(q, EPS) {
                return Err(format!("segment {a} -> {b}: sample {q} is off the mesh"));
            }
        }
        Ok(())
    }

    /// Exact-ish visibility for the shortest-path oracle: no proper crossing, and the
    /// pieces between boundary vertices touched by the segment all lie on the mesh.
    ///
    /// Up to the library's rounding allowance (8 `f32` ulps of the coordinates' size,
    /// at least 1e-6): an end that far outside the region, or a wall corner cut by as
    /// little, does not block the sight.
    pub fn visible(&self, a: DVec2, b: DVec2) -> bool {
        let eps = rounding_allowance(a, b).max(1e-6);
        let (lo, hi) = (a.min(b) - DVec2::splat(EPS), a.max(b) + DVec2::splat(EPS));
        let mut cuts = vec![0.0, 1.0];
        let ab = b - a;
        let len2 = ab.length_squared();
        for &(c, d) in &self.boundary {
            let (cp, dp) = (self.corner(c), self.corner(d));
            if cp.max(dp).cmplt(lo).any() || cp.min(dp).cmpgt(hi).any() {
                continue;
            }
            if self.properly_crosses(a, b, cp, dp, eps) {
                return false;
            }
            if len2 > 0.0 {
                for q in [cp, dp] {
                    let t = (q - a).dot(ab) / len2;
                    if t > 0.0 && t < 1.0 && (a + ab * t - q).length() <= eps {
                        cuts.push(t);
                    }
                }
            }
        }
        cuts.sort_by(f64::total_cmp);
        cuts.windows(2)
            .all(|w| w[1] - w[0] < 1e-12 || self.contains(a + ab * ((w[0] + w[1]) * 0.5), eps))
    }

    /// The length of the shortest path from `a` to `b` inside the (closed) walkable
    /// region: Dijkstra over the visibility graph of the bend vertices.
    pub fn shortest_length(&self, a: DVec2, b: DVec2) -> f64 {
        if self.visible(a, b) {
            return (b - a).length();
        }
        let mut nodes = vec![a, b];
        nodes.extend(self.bend_vertices.iter().map(|&v| self.corner(v)));
        let n = nodes.len();
        let mut dist = vec![f64::INFINITY; n];
        let mut done = vec![false; n];
        dist[0] = 0.0;
        loop {
            let Some(u) = (0..n)
                .filter(|&i| !done[i] && dist[i].is_finite())
                .min_by(|&i, &j| dist[i].total_cmp(&dist[j]))
            else {
                return f64::INFINITY;
            };
            if u == 1 {
                return dist[1];
            }
            done[u] = true;
            for w in 1..n {
                if done[w] {
                    continue;
                }
                let d = dist[u] + (nodes[w] - nodes[u]).length();
                if d < dist[w] && self.visible(nodes[u], nodes[w]) {
                    dist[w] = d;
                }
            }
        }
    }

    /// Whether `a -> b` is a line of sight that no rounding can spoil: visible, passing no
    /// vertex at a distance between 0 and `margin` (a near miss), and no boundary vertex
    /// at all (touching a wall corner, or squeezing through a pinch). It may pass exactly
    /// through inner vertices, and its ends may be vertices.
    pub fn clear_sight(&self, a: DVec2, b: DVec2, margin: f64) -> bool {
        if !self.visible(a, b) {
            return false;
        }
        let ab = b - a;
        let len2 = ab.length_squared();
        if len2 == 0.0 {
            return true;
        }
        let on_boundary: std::collections::HashSet<u32> =
            self.boundary.iter().flat_map(|&(c, d)| [c, d]).collect();
        let mut vertices: Vec<u32> = self.polygons.iter().flatten().copied().collect();
        vertices.sort_unstable();
        vertices.dedup();
        vertices.into_iter().all(|v| {
            let q = self.corner(v);
            if (q - a).length() <= 1e-9 || (q - b).length() <= 1e-9 {
                return true;
            }
            let t = ((q - a).dot(ab) / len2).clamp(0.0, 1.0);
            let d = (a + ab * t - q).length();
            d >= margin || (d <= 1e-9 && !on_boundary.contains(&v))
        })
    }

    /// The point of the whole mesh nearest to `q` in the ground plane, and its distance.
    pub fn nearest(&self, q: DVec2) -> (DVec2, f64) {
        (0..self.polygons.len())
            .map(|poly| self.closest_in_polygon(poly, q))
            .min_by(|x, y| x.1.total_cmp(&y.1))
            .expect("mesh is not empty")
    }

    /// Whether `q` is (bit for bit) one of the mesh vertices.
    pub fn is_vertex(&self, q: Vec3) -> bool {
        self.world.contains(&q)
    }
}

/// Length of a path in the ground plane.
pub fn ground_length(up: UpAxis, corners: &[Vec3]) -> f64 {
    corners
        .windows(2)
        .map(|w| (up.ground(w[1]).as_dvec2() - up.ground(w[0]).as_dvec2()).length())
        .sum()
}

/// Whether the library's adjacency agrees with the checker's boundary/portal split.
pub fn check_adjacency(mesh: &NavMesh, domain: &Domain) -> Result<(), String> {
    let mut walls = 0;
    let mut links = 0;
    for poly in 0..mesh.polygon_count() {
        let corners = mesh.polygon_vertices(poly);
        let n = corners.len();
        for (i, neighbour) in mesh.polygon_neighbours(poly).enumerate() {
            let (a, b) = (corners[i], corners[(i + 1) % n]);
            let key = (a.min(b), a.max(b));
            let Some(other) = neighbour else {
                walls += 1;
                if domain.boundary.binary_search(&key).is_err() {
                    return Err(format!("polygon {poly} edge {key:?} marked as a wall"));
                }
                continue;
            };
            {
                links += 1;
                let other = other as usize;
                let ok = domain.portals.iter().any(|&(u, v, p1, p2)| {
                    (u, v) == key
                        && ((p1 == poly as usize && p2 == other)
                            || (p2 == poly as usize && p1 == other))
                });
                if !ok {
                    return Err(format!("polygon {poly} edge {key:?} links to {other}"));
                }
            }
        }
    }
    if walls != domain.boundary.len() || links != 2 * domain.portals.len() {
        return Err(format!(
            "{walls} walls / {links} links, checker has {} / {}",
            domain.boundary.len(),
            2 * domain.portals.len()
        ));
    }
    Ok(())
}

/// Checks the geometric invariants every path must keep: each segment on the mesh,
/// and every corner but the ends a mesh vertex.
pub fn check_path_on_mesh(domain: &Domain, corners: &[Vec3]) -> Result<(), String> {
    if corners.len() < 2 {
        return Err(format!("a path needs at least 2 corners: {corners:?}"));
    }
    for w in corners.windows(2) {
        domain.check_segment(domain.g(w[0]), domain.g(w[1]))?;
    }
    for &c in &corners[1..corners.len() - 1] {
        if !domain.is_vertex(c) {
            return Err(format!("inner corner {c} is not a mesh vertex"));
        }
    }
    Ok(())
}
