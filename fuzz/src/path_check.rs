//! [`check_answer`]: an independent checker of a path answer against the documented
//! invariants, with the geometry it needs (brute-force distances, the mesh in its
//! ground plane, points inside polygons).

use arbitrary::Arbitrary;
use navstar::glam::{DVec3, Vec2, Vec3};
use navstar::{
    CornerDetail, CornerFlags, NavMesh, PathOptions, PathStatus, Query, QueryError, UpAxis,
};

use crate::{Arrays, Coord};

/// The answer of `Query::find_path_vec`: the corners and the status.
pub type Answer = Result<(Vec<Vec3>, PathStatus), QueryError>;

/// Largest mesh whose path segments are checked sample by sample (the check is brute
/// force: samples times polygons).
const MAX_SEGMENT_CHECK_POLYGONS: u32 = 600;

/// Checks a path answer against the documented invariants, independently of how the
/// library computes it:
///
/// * options are validated first (weight finite and >= 0, snap distance >= 0, area costs
///   finite and > 0), then the start, then the goal (finite, and within the snap distance of the mesh; with the
///   default unlimited snap distance a finite point is never "not on mesh");
/// * a path has at least 2 finite corners, no point twice in a row (but for a path from
///   a point to itself); the first is a point of the mesh as far from
///   the start as the nearest point of the mesh is; a complete path ends likewise at the
///   goal's nearest point; a partial path (only when allowed) ends on the mesh no nearer
///   to the goal than that;
/// * start and goal snapped into one polygon give exactly 2 corners;
/// * every segment lies on the walkable mesh (ground plane, sampled), for meshes small
///   enough to check by brute force.
///
/// "The mesh" is the polygons `options.filter` admits under the mesh's current flags.
pub fn check_answer(
    mesh: &NavMesh,
    start: Vec3,
    goal: Vec3,
    options: &PathOptions,
    answer: &Answer,
) {
    check_path(mesh, start, goal, options, answer, &[]);
}

/// [`check_answer`] for a path that may take off-mesh links: `details` (one per corner,
/// or empty for none) marks the segments that are links (from a corner flagged
/// `LINK_START`), which are not on the mesh; and with links, start and goal in one
/// polygon may give more than 2 corners (a link may be cheaper).
pub fn check_path(
    mesh: &NavMesh,
    start: Vec3,
    goal: Vec3,
    options: &PathOptions,
    answer: &Answer,
    details: &[CornerDetail],
) {
    let weight_ok = options.heuristic_weight.is_finite() && options.heuristic_weight >= 0.0;
    let radius_ok = options.agent_radius.is_finite() && options.agent_radius >= 0.0;
    let snap = options.max_snap_distance;
    if !weight_ok || !radius_ok || snap.is_nan() || snap < 0.0 {
        assert!(
            matches!(answer, Err(QueryError::InvalidOption(_))),
            "options {options:?} accepted: {answer:?}"
        );
        return;
    }
    if let Err(QueryError::InvalidAreaCost { area, .. }) = options.filter.validate() {
        assert!(
            matches!(answer, Err(QueryError::InvalidAreaCost { area: a, .. }) if *a == area),
            "the cost of area {area} is bad: {answer:?}"
        );
        return;
    }
    for (point, which) in [(start, "start"), (goal, "goal")] {
        if !point.is_finite() {
            assert!(
                matches!(answer, Err(QueryError::NonFinitePoint(e)) if e.to_string() == which),
                "non-finite {which} {point}: {answer:?}"
            );
            return;
        }
    }
    let tol = tolerance(mesh, &[start, goal]);
    let filter = &options.filter;
    let admitted = |p: u32| filter.admits(mesh.polygon_flags(p));
    if !(0..mesh.polygon_count()).any(admitted) {
        assert!(
            matches!(answer, Err(QueryError::NotOnMesh { .. })),
            "the filter admits no polygon: {answer:?}"
        );
        return;
    }
    let near_start = mesh.nearest_point(start, f32::INFINITY, Some(filter));
    let near_goal = mesh.nearest_point(goal, f32::INFINITY, Some(filter));
    if snap == f32::INFINITY {
        assert!(
            !matches!(answer, Err(QueryError::NotOnMesh { .. })),
            "unlimited snapping of finite points {start} -> {goal} failed: {answer:?}"
        );
    }
    let (Some(near_start), Some(near_goal)) = (near_start, near_goal) else {
        // Only possible when distances overflow; the assertion above covers the
        // default options.
        return;
    };
    let clearly_out = |d: f32| d > snap * (1.0 + 1e-4) + tol;
    let clearly_in = |d: f32| d < snap * (1.0 - 1e-4) - tol;
    match answer {
        Err(QueryError::NotOnMesh { endpoint, .. }) => {
            let d = if endpoint.to_string() == "start" {
                near_start.distance
            } else {
                // The start is checked first, so it was within the snap distance.
                assert!(
                    !clearly_out(near_start.distance),
                    "start beyond snap: {answer:?}"
                );
                near_goal.distance
            };
            assert!(
                !clearly_in(d),
                "{endpoint} {} from the mesh is within the snap distance {snap}: {answer:?}",
                d
            );
            return;
        }
        _ => {
            assert!(
                !clearly_out(near_start.distance) && !clearly_out(near_goal.distance),
                "a point beyond the snap distance {snap} was accepted ({} / {}): {answer:?}",
                near_start.distance,
                near_goal.distance
            );
        }
    }
    let (corners, status) = match answer {
        Ok((corners, status)) => (corners, *status),
        Err(QueryError::NoPath) => {
            assert!(!options.allow_partial, "NoPath with partial paths allowed");
            return;
        }
        Err(e) => panic!("unexpected error {e:?} for {start} -> {goal} with {options:?}"),
    };
    assert!(corners.len() >= 2, "{corners:?}");
    assert!(corners.iter().all(|c| c.is_finite()), "{corners:?}");
    assert!(
        corners.len() == 2 || corners.windows(2).all(|w| w[0] != w[1]),
        "the same point twice in a row: {corners:?}"
    );
    let on_mesh = |p: Vec3| {
        mesh.nearest_point(p, f32::INFINITY, Some(filter))
            .is_some_and(|n| n.distance <= tol)
    };
    // Distances in f64 (squares of f32 distances overflow beyond 1.8e19), to the nearest
    // point found by brute force in f64 for small meshes, else by the library.
    let small = mesh.polygon_count() <= MAX_SEGMENT_CHECK_POLYGONS;
    let nearest = |p: Vec3, library: f32| {
        if small {
            brute_force_distance(mesh, p, admitted)
        } else {
            f64::from(library)
        }
    };
    let (d_start, d_goal) = (
        nearest(start, near_start.distance),
        nearest(goal, near_goal.distance),
    );
    let tol64 = f64::from(tol);
    let d = |a: Vec3, b: Vec3| a.as_dvec3().distance(b.as_dvec3());
    let first = corners[0];
    let last = *corners.last().unwrap();
    assert!(on_mesh(first), "first corner {first} is off the mesh");
    assert!(
        (d(first, start) - d_start).abs() <= tol64,
        "first corner {first} is {} from the start {start}; the mesh is {d_start} from it",
        d(first, start),
    );
    assert!(on_mesh(last), "last corner {last} is off the mesh");
    match status {
        PathStatus::Complete => assert!(
            (d(last, goal) - d_goal).abs() <= tol64,
            "last corner {last} is {} from the goal {goal}; the mesh is {d_goal} from it",
            d(last, goal),
        ),
        PathStatus::Partial | PathStatus::NodeLimit => {
            assert!(options.allow_partial, "a partial path although not allowed");
            assert!(
                d(last, goal) >= d_goal - tol64,
                "a partial path ends nearer to the goal than the mesh is"
            );
        }
    }
    if snap == f32::INFINITY
        && mesh.link_count() == 0
        && near_start.polygon == near_goal.polygon
        && status == PathStatus::Complete
    {
        assert_eq!(
            corners.len(),
            2,
            "start and goal in one polygon: {corners:?}"
        );
    }
    if mesh.polygon_count() <= MAX_SEGMENT_CHECK_POLYGONS && corners.len() <= 256 {
        let ground = GroundMesh::new(mesh, admitted);
        for (i, pair) in corners.windows(2).enumerate() {
            let link = details
                .get(i)
                .is_some_and(|d| d.flags.contains(CornerFlags::LINK_START));
            if !link {
                ground.check_segment(pair[0], pair[1], tol);
            }
        }
    }
}

/// The tolerance of geometric checks involving `mesh` and `points`: 1e-4 times the
/// largest coordinate magnitude (at least 1).
pub fn tolerance(mesh: &NavMesh, points: &[Vec3]) -> f32 {
    [mesh.bounds().min, mesh.bounds().max]
        .iter()
        .chain(points)
        .map(|v| v.abs().max_element())
        .fold(1.0f32, f32::max)
        * 1e-4
}

/// The 3D distance from `p` to the polygons of the mesh for which `admitted` holds, by
/// brute force in f64 over the fan triangles of each: an independent check of the
/// library's (f32, BVH) snapping.
pub fn brute_force_distance(mesh: &NavMesh, p: Vec3, admitted: impl Fn(u32) -> bool) -> f64 {
    let p = p.as_dvec3();
    let v = mesh.vertices();
    (0..mesh.polygon_count())
        .filter(|&poly| admitted(poly))
        .flat_map(|poly| {
            let c = mesh.polygon_vertices(poly);
            (1..c.len() - 1).map(move |i| {
                let at = |k: usize| v[c[k] as usize].as_dvec3();
                distance_to_triangle(p, at(0), at(i), at(i + 1))
            })
        })
        .fold(f64::INFINITY, f64::min)
}

/// The distance from `p` to triangle `abc`, in f64: the nearest of its three edges and,
/// when the triangle has an area and the projection of `p` onto its plane falls inside,
/// that projection. (Degenerate slivers, which meshes with huge coordinates produce, are
/// measured by their edges only.)
fn distance_to_triangle(p: DVec3, a: DVec3, b: DVec3, c: DVec3) -> f64 {
    fn segment(p: DVec3, a: DVec3, b: DVec3) -> f64 {
        let e = b - a;
        let len2 = e.length_squared();
        let t = if len2 > 0.0 {
            ((p - a).dot(e) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        (a + e * t).distance(p)
    }
    let mut best = segment(p, a, b).min(segment(p, b, c)).min(segment(p, c, a));
    let n = (b - a).cross(c - a);
    let nn = n.length_squared();
    if nn > 1e-20 * (b - a).length_squared() * (c - a).length_squared() && nn.is_finite() {
        let q = p - n * ((p - a).dot(n) / nn);
        let inside = (b - a).cross(q - a).dot(n) >= 0.0
            && (c - b).cross(q - b).dot(n) >= 0.0
            && (a - c).cross(q - c).dot(n) >= 0.0;
        if inside {
            best = best.min(q.distance(p));
        }
    }
    best
}

/// The polygons of a mesh in its ground plane, for containment tests.
pub struct GroundMesh {
    up: UpAxis,
    /// Corners of each polygon, counter-clockwise.
    polygons: Vec<Vec<Vec2>>,
}

impl GroundMesh {
    /// The polygons of `mesh` for which `admitted` holds.
    pub fn new(mesh: &NavMesh, admitted: impl Fn(u32) -> bool) -> GroundMesh {
        let up = mesh.up_axis();
        let polygons = (0..mesh.polygon_count())
            .filter(|&p| admitted(p))
            .map(|p| {
                let mut c: Vec<Vec2> = mesh
                    .polygon_vertices(p)
                    .iter()
                    .map(|&v| up.ground(mesh.vertices()[v as usize]))
                    .collect();
                let n = c.len();
                let area: f64 = (0..n)
                    .map(|i| f64::from(c[i].perp_dot(c[(i + 1) % n])))
                    .sum();
                if area < 0.0 {
                    c.reverse();
                }
                c
            })
            .collect();
        GroundMesh { up, polygons }
    }

    /// Whether `q` is inside some polygon or within `tol` of one.
    fn contains(&self, q: Vec2, tol: f32) -> bool {
        self.polygons.iter().any(|c| {
            let n = c.len();
            let inside = (0..n).all(|i| {
                let (a, b) = (c[i].as_dvec2(), c[(i + 1) % n].as_dvec2());
                (b - a).perp_dot(q.as_dvec2() - a) >= 0.0
            });
            inside
                || (0..n).any(|i| {
                    let (a, b) = (c[i].as_dvec2(), c[(i + 1) % n].as_dvec2());
                    let e = b - a;
                    let t = ((q.as_dvec2() - a).dot(e) / e.length_squared()).clamp(0.0, 1.0);
                    (a + e * t).distance(q.as_dvec2()) <= f64::from(tol)
                })
        })
    }

    /// Whether the ground projection of `p` is inside some polygon or within `tol` of
    /// one.
    pub fn holds(&self, p: Vec3, tol: f32) -> bool {
        self.contains(self.up.ground(p), tol)
    }

    /// Samples a segment and checks that every sample is on the mesh.
    pub fn check_segment(&self, a: Vec3, b: Vec3, tol: f32) {
        let (a, b) = (self.up.ground(a), self.up.ground(b));
        for k in 0..=8 {
            let q = a.lerp(b, k as f32 / 8.0);
            assert!(
                self.contains(q, tol),
                "segment {a} -> {b}: sample {q} is off the mesh (ground plane)"
            );
        }
    }
}

/// A point inside polygon `polygon` of `mesh`, from three numbers (any bits): a point of
/// one of the polygon's fan triangles.
pub fn point_in_polygon(mesh: &NavMesh, polygon: u32, s: u8, t: u8, u: u8) -> Vec3 {
    let corners = mesh.polygon_vertices(polygon % mesh.polygon_count());
    fan_point(corners, mesh.vertices(), s, t, u)
}

/// A point of the polygon with these corners (at least 3), from three numbers (any
/// bits): fan triangle `s % (n - 2)`, at barycentric weights `t / 255` and `u / 255`
/// (folded into the triangle).
pub fn fan_point(corners: &[u32], vertices: &[Vec3], s: u8, t: u8, u: u8) -> Vec3 {
    let fan = corners.len() - 2;
    let k = usize::from(s) % fan;
    let (a, b, c) = (
        vertices[corners[0] as usize],
        vertices[corners[k + 1] as usize],
        vertices[corners[k + 2] as usize],
    );
    let (mut t, mut u) = (f32::from(t) / 255.0, f32::from(u) / 255.0);
    if t + u > 1.0 {
        (t, u) = (1.0 - t, 1.0 - u);
    }
    a + (b - a) * t + (c - a) * u
}

/// A query end point chosen by the fuzzer.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum PointIn {
    /// A point of a polygon (mostly on the mesh).
    InPolygon(u16, u8, u8, u8),
    /// A point of a polygon moved by a small offset (off the mesh, above or below it).
    Near(u16, u8, u8, [i8; 3]),
    /// Any coordinates.
    Raw([Coord; 3]),
    /// NULL.
    Null,
}

impl PointIn {
    /// The point for `mesh`, or `None` for NULL.
    pub fn resolve(self, mesh: &NavMesh) -> Option<[f32; 3]> {
        self.resolve_with(|p, s, t, u| point_in_polygon(mesh, p, s, t, u))
    }

    /// The point for the polygons of `arrays` (before a mesh is built from them), or
    /// `None` for NULL.
    pub fn resolve_in(self, arrays: &Arrays) -> Option<[f32; 3]> {
        self.resolve_with(|p, s, t, u| arrays.point_in_polygon(p, s, t, u).unwrap_or(Vec3::ZERO))
    }

    /// The point, where `pick(polygon, s, t, u)` gives a point of a polygon.
    fn resolve_with(self, pick: impl Fn(u32, u8, u8, u8) -> Vec3) -> Option<[f32; 3]> {
        match self {
            PointIn::InPolygon(p, s, t, u) => Some(pick(u32::from(p), s, t, u).to_array()),
            PointIn::Near(p, t, u, d) => {
                let base = pick(u32::from(p), 0, t, u);
                Some((base + Vec3::from(d.map(|x| f32::from(x) / 32.0))).to_array())
            }
            PointIn::Raw(c) => Some(c.map(Coord::value)),
            PointIn::Null => None,
        }
    }
}

/// Runs a few queries between points of `mesh` with the Rust API and checks each answer,
/// link segments included (used by the loader targets on whatever mesh the file gave).
pub fn run_queries(mesh: &NavMesh, picks: &[u8]) {
    let mut query = Query::new(mesh);
    for pick in picks.chunks_exact(8).take(4) {
        let p = |i: usize| u32::from(u16::from_le_bytes([pick[i], pick[i + 1]]));
        let start = point_in_polygon(mesh, p(0), pick[2], pick[3], pick[2] ^ pick[3]);
        let goal = point_in_polygon(mesh, p(4), pick[6], pick[7], pick[6] ^ pick[7]);
        let mut options = PathOptions::default();
        options.allow_partial = pick[7] & 1 == 0;
        let answer = query.find_path_vec(start, goal, &options);
        // The loaded mesh may have off-mesh links: their segments are not on the mesh.
        let details = answer
            .as_ref()
            .map_or(Vec::new(), |path| path.details.clone());
        let answer = answer.map(|path| (path.corners, path.status));
        check_path(mesh, start, goal, &options, &answer, &details);
    }
}
