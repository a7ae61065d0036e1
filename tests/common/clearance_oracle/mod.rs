//! The test oracle for a disc-shaped agent (issue 14): where the centre of a disc of
//! radius `r` may go on a mesh, and the length of its Euclidean shortest path. It is
//! independent of navstar's search: it reads a mesh only through the public accessors
//! (vertices, polygon corners, up axis) and computes everything else in `f64`.
//!
//! Two oracles that share no code beyond the mesh accessors, so that each checks the other:
//!
//! * **A, the eroded region** ([`ErodedBracket`], [`visibility`]): the walkable region
//!   ([`Region`]: the union of the admitted polygons in the ground plane, as polygons with
//!   holes) eroded by `r` with round joins, then the exact shortest path inside that
//!   polygon by a visibility graph of its reflex vertices and Dijkstra. The round joins are
//!   chords whose vertices lie on the arcs, so the eroded polygon (`outer`) holds a little
//!   more than the true free space F_r: its length is a lower bound. Cutting from it, at
//!   every convex wall corner, the sector of a polygon drawn round the circle (`inner`)
//!   leaves a little less than F_r, exact along straight walls: an upper bound. The two
//!   bracket the exact length. A works on any region, large grid maps included, and at
//!   `r = 0`.
//! * **B, the tangent graph** ([`tangent`]): exact, after Chew (1985): circles of radius
//!   `r` round the convex corners of the walls, the common tangents of every pair of
//!   circles and the tangents from start and goal, kept when they stay at least `r` from
//!   every wall, joined by the arcs of the circles that do too. Nothing is approximated;
//!   it is cubic in the number of corners, so it is for small scenes (a few hundred
//!   corners), and needs `r > 0`. Its walls are the mesh's boundary edges as the checker
//!   of `tests/common` finds them, not A's union.
//!
//! **Why `geo` for A.** An expert writing this oracle needs two robust operations: the
//! union of thousands of polygons that share edges exactly (every navmesh), and an
//! inward offset with round joins of a polygon with holes. `geo`'s `BooleanOps` and
//! `Buffer` (JTS semantics, the georust standard) run both on `i_overlay`, whose sweep
//! snaps to an integer grid and so never fails on shared or collinear edges, where a
//! floating-point clipper does. `i_overlay` alone would do the same work, but its API
//! changes between majors; `geo` is the stable face of it, and the lock file already holds
//! it. `clipper2` would need a C++ build; `cavalier_contours` offsets with true arcs but
//! unions only pairs of shapes. The snapping grid is 2^-k with about 30 bits over the
//! region's extent (1e-7 on a 512-cell map), far below the tolerances used here.
//!
//! **Arc tolerance.** `i_overlay` clamps the angle of a round join's chords to at least
//! [`JOIN_STEP`] = pi / 100 and splits a join of angle `a` into `floor(a / JOIN_STEP)`
//! chords (one chord, a bevel, when `a <= JOIN_STEP`): every chord spans less than
//! `2 JOIN_STEP` and stays within `r (1 - cos(JOIN_STEP))` = 4.9e-4 `r` of its arc. That is
//! how far `outer` may reach into the discs round the corners, so a gap between two corners
//! narrower than `2r` by less than twice that may stay open in it. `inner` cuts sectors of
//! polygons whose chords span [`SECTOR_STEP`] = pi / 100 and touch the circle from
//! outside, at most `r (1 / cos(pi / 200) - 1)` = 1.2e-4 `r` away from it; elsewhere its
//! boundary is the exact offset (up to the snapping grid), so a straight passage of width
//! `2r + 1e-4` stays open in it.

//! **Widths of exactly `2r`.** F_r is closed: a passage exactly `2r` wide lets the disc
//! through along its middle line, and B finds that path. The erosion of A drops such a
//! passage (a part of zero area), so at exactly critical widths A's `outer` is not a
//! superset of F_r. Grid maps are full of them at `r = 0.5` (corridors one cell wide): on
//! maze512-16-0, 22 of 41 sampled problems are unreachable for A at 0.5, none at 0.4999,
//! 28 at 0.5001, while B reaches the one checked at 0.5. Use radii off those widths
//! (0.4999 for "half a cell") or B there.

#![allow(dead_code)]

pub mod tangent;
pub mod visibility;

use std::cmp::Ordering;
use std::f64::consts::TAU;

use geo::algorithm::buffer::{Buffer, BufferStyle, LineJoin};
use geo::{Area, BooleanOps, LineString, MultiPolygon, Polygon, unary_union};
use glam::DVec2;
use navstar::NavMesh;

pub use visibility::VisibilityOracle;

/// The angle of the chords of `i_overlay`'s round joins: the least it accepts, in radians.
pub const JOIN_STEP: f64 = std::f64::consts::PI / 100.0;

/// The angle of the chords of the sectors that [`Region::without_corner_discs`] cuts:
/// as fine as the erosion's, so that both regions have as many corners.
pub const SECTOR_STEP: f64 = JOIN_STEP;

/// The walkable region: the union of a mesh's admitted polygons in the ground plane.
#[derive(Debug, Clone)]
pub struct Region {
    /// The region as `geo` polygons with holes (input of the erosion).
    pub shape: MultiPolygon<f64>,
    /// Its boundary rings, open (the first vertex not repeated), each with the region
    /// on its left: outer rings counter-clockwise, holes clockwise.
    pub rings: Vec<Vec<DVec2>>,
}

/// The cross product of two plane vectors (positive when `b` is counter-clockwise of `a`).
pub fn cross(a: DVec2, b: DVec2) -> f64 {
    a.perp_dot(b)
}

/// The distance from `p` to the segment `a..b`.
pub fn point_segment_distance(p: DVec2, a: DVec2, b: DVec2) -> f64 {
    let e = b - a;
    let len2 = e.length_squared();
    let t = if len2 > 0.0 {
        ((p - a).dot(e) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (a + e * t).distance(p)
}

/// Whether the segments `a..b` and `c..d` meet (touching counts).
pub fn segments_meet(a: DVec2, b: DVec2, c: DVec2, d: DVec2) -> bool {
    let (d1, d2) = (cross(b - a, c - a), cross(b - a, d - a));
    let (d3, d4) = (cross(d - c, a - c), cross(d - c, b - c));
    if ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0))
        && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0))
    {
        return true;
    }
    [(c, a, b), (d, a, b), (a, c, d), (b, c, d)]
        .iter()
        .any(|&(p, u, v)| point_segment_distance(p, u, v) == 0.0)
}

/// The distance between the segments `a..b` and `c..d`.
pub fn segment_distance(a: DVec2, b: DVec2, c: DVec2, d: DVec2) -> f64 {
    if segments_meet(a, b, c, d) {
        return 0.0;
    }
    point_segment_distance(a, c, d)
        .min(point_segment_distance(b, c, d))
        .min(point_segment_distance(c, a, b))
        .min(point_segment_distance(d, a, b))
}

/// The signed area of a ring (positive when counter-clockwise).
fn ring_area(ring: &[DVec2]) -> f64 {
    let n = ring.len();
    (0..n)
        .map(|i| cross(ring[i], ring[(i + 1) % n]))
        .sum::<f64>()
        * 0.5
}

/// An open ring of `f64` points from a closed `geo` line string.
fn open_ring(line: &LineString<f64>) -> Vec<DVec2> {
    let mut ring: Vec<DVec2> = line.0.iter().map(|c| DVec2::new(c.x, c.y)).collect();
    if ring.len() > 1 && ring.first() == ring.last() {
        ring.pop();
    }
    ring.dedup();
    ring
}

/// A Dijkstra queue entry, smallest distance first.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Entry(pub f64, pub usize);

impl Eq for Entry {}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Entry) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Entry {
    fn cmp(&self, other: &Entry) -> Ordering {
        other.0.total_cmp(&self.0).then(other.1.cmp(&self.1))
    }
}

impl Region {
    /// The region of the polygons of `mesh` for which `admit` holds (the others, as those a
    /// query filter refuses, become obstacles).
    pub fn from_mesh(mesh: &NavMesh, admit: impl Fn(u32) -> bool) -> Region {
        let up = mesh.up_axis();
        let vertices = mesh.vertices();
        let polygons: Vec<Vec<DVec2>> = mesh
            .polygon_ids()
            .filter(|&poly| admit(poly))
            .map(|poly| {
                mesh.polygon_vertices(poly)
                    .iter()
                    .map(|&v| up.ground(vertices[v as usize]).as_dvec2())
                    .collect()
            })
            .collect();
        Region::union(&polygons)
    }

    /// The union of simple polygons (either winding).
    pub fn union(polygons: &[Vec<DVec2>]) -> Region {
        let shapes: Vec<Polygon<f64>> = polygons
            .iter()
            .map(|corners| {
                let mut ring: Vec<(f64, f64)> = corners.iter().map(|p| (p.x, p.y)).collect();
                if ring_area(corners) < 0.0 {
                    ring.reverse();
                }
                Polygon::new(LineString::from(ring), vec![])
            })
            .collect();
        Region::from_shape(unary_union(shapes.iter()))
    }

    /// The region of a `geo` multipolygon.
    pub fn from_shape(shape: MultiPolygon<f64>) -> Region {
        let mut rings = Vec::new();
        for polygon in &shape {
            for (k, line) in std::iter::once(polygon.exterior())
                .chain(polygon.interiors())
                .enumerate()
            {
                let mut ring = open_ring(line);
                if ring.len() < 3 {
                    continue;
                }
                // Outer rings counter-clockwise, holes clockwise: the region on the left.
                if (ring_area(&ring) > 0.0) != (k == 0) {
                    ring.reverse();
                }
                rings.push(ring);
            }
        }
        Region { shape, rings }
    }

    /// The region's area.
    pub fn area(&self) -> f64 {
        self.shape.unsigned_area()
    }

    /// The boundary edges, each with the region on its left.
    pub fn walls(&self) -> impl Iterator<Item = (DVec2, DVec2)> + '_ {
        self.rings
            .iter()
            .flat_map(|ring| (0..ring.len()).map(move |i| (ring[i], ring[(i + 1) % ring.len()])))
    }

    /// The region eroded by `r >= 0`: round joins split into chords of angle below
    /// `2 JOIN_STEP` whose vertices lie on the arcs (see the module comment).
    pub fn erode(&self, r: f64) -> Region {
        assert!(r >= 0.0, "erode by {r}");
        if r == 0.0 {
            return self.clone();
        }
        let style = BufferStyle::new(-r).line_join(LineJoin::Round(JOIN_STEP));
        Region::from_shape(self.shape.buffer_with_style(style))
    }

    /// The convex wall corners (reflex vertices of the region), each with the angle and
    /// counter-clockwise sweep of the arc that an erosion draws round it: from the inward
    /// normal of the edge after the corner to that of the edge before it.
    pub fn corner_arcs(&self) -> Vec<(DVec2, f64, f64)> {
        self.reflex_vertices()
            .map(|(prev, at, next)| {
                let (before, after) = ((at - prev).perp(), (next - at).perp());
                let from = after.y.atan2(after.x);
                (at, from, (before.y.atan2(before.x) - from).rem_euclid(TAU))
            })
            .collect()
    }

    /// The reflex vertices of the boundary rings (where the region turns right: the
    /// convex corners of the walls), each as `(previous, vertex, next)`.
    pub fn reflex_vertices(&self) -> impl Iterator<Item = (DVec2, DVec2, DVec2)> + '_ {
        self.rings.iter().flat_map(|ring| {
            let n = ring.len();
            (0..n)
                .map(move |i| (ring[(i + n - 1) % n], ring[i], ring[(i + 1) % n]))
                .filter(|&(prev, at, next)| cross(at - prev, next - at) < 0.0)
        })
    }

    /// This region less, at each corner of `walls` ([`Self::corner_arcs`]), the sector of
    /// the arc of radius `r` drawn as a polygon whose chords span at most [`SECTOR_STEP`]
    /// and touch the circle from outside.
    pub fn without_corner_discs(&self, walls: &Region, r: f64) -> Region {
        let sectors: Vec<Polygon<f64>> = walls
            .corner_arcs()
            .into_iter()
            .map(|(c, from, sweep)| {
                let n = (sweep / SECTOR_STEP).ceil().max(1.0) as usize;
                let step = sweep / n as f64;
                let at = |angle: f64, dist: f64| {
                    let q = c + DVec2::new(angle.cos(), angle.sin()) * dist;
                    (q.x, q.y)
                };
                // From the centre out along one normal to the circle, then chords that
                // touch the circle at their midpoints (half a step from each end the
                // chord lies along the tangent at the normal), and back along the other
                // normal: the sector holds the whole arc and the erosion's chords in it,
                // and reaches no further than `r` along the walls.
                let reach = r / (step / 2.0).cos();
                let mut ring = vec![(c.x, c.y), at(from, r)];
                ring.extend((0..n).map(|k| at(from + step * (k as f64 + 0.5), reach)));
                ring.push(at(from + sweep, r));
                Polygon::new(LineString::from(ring), vec![])
            })
            .collect();
        if sectors.is_empty() {
            return self.clone();
        }
        Region::from_shape(self.shape.difference(&unary_union(sectors.iter())))
    }
}

/// Oracle A at one radius: the shortest path in the region eroded by `r` with chords on
/// the arcs (`outer`, a little more than the free space: a lower bound) and in that
/// region less polygons drawn round the corners' circles (`inner`, a little less: an
/// upper bound).
pub struct ErodedBracket {
    /// The radius.
    pub r: f64,
    /// The region eroded by `r`.
    pub outer: VisibilityOracle,
    /// The region eroded by `r` less the corners' sectors.
    pub inner: VisibilityOracle,
}

/// What oracle A says of one query: the two lengths, `None` where the goal cannot be
/// reached (or start or goal lies outside that eroded region).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bracket {
    /// The length in the larger region: at most the exact length.
    pub low: Option<f64>,
    /// The length in the smaller region: at least the exact length.
    pub high: Option<f64>,
}

impl ErodedBracket {
    /// Erodes `region` by `r` and builds both visibility graphs.
    pub fn new(region: &Region, r: f64) -> ErodedBracket {
        let outer = region.erode(r);
        let inner = if r > 0.0 {
            outer.without_corner_discs(region, r)
        } else {
            outer.clone()
        };
        ErodedBracket {
            r,
            outer: VisibilityOracle::new(&outer),
            inner: VisibilityOracle::new(&inner),
        }
    }

    /// The bracket of the shortest length from `s` to `t`.
    pub fn shortest(&self, s: DVec2, t: DVec2) -> Bracket {
        Bracket {
            low: self.outer.shortest(s, t),
            high: self.inner.shortest(s, t),
        }
    }
}

impl Bracket {
    /// Checks that an exact answer (feasibility and length) lies in the bracket, within
    /// `tol`: reachable in the smaller region implies reachable, reachable implies
    /// reachable in the larger one, and `low <= exact <= high`.
    pub fn check(&self, exact: Option<f64>, tol: f64) -> Result<(), String> {
        match (exact, self.low, self.high) {
            (None, _, Some(high)) => Err(format!("unreachable, but the inner region has {high}")),
            (Some(len), None, _) => Err(format!("length {len}, but the outer region is cut")),
            (Some(len), Some(low), _) if low > len + tol => {
                Err(format!("length {len} below the lower bound {low}"))
            }
            (Some(len), _, Some(high)) if high < len - tol => {
                Err(format!("length {len} above the upper bound {high}"))
            }
            _ => Ok(()),
        }
    }
}
