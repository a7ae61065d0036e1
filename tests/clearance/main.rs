//! The oracle for paths of a disc-shaped agent (issue 14), tested on its own before any
//! search honours a radius: both oracles of `tests/common/clearance_oracle` against
//! lengths worked out by hand (an L turn, doors of width `2r +/- 1e-4`, a pillar beside
//! the middle of a long portal, Kallmann's disturbance), against each other on random
//! rectangle fields, monotone in the radius, and at radius 0 against navstar's exact mode
//! (the one place navstar's search is used here: as a cross-check of the oracle). A grid
//! map test prints the oracle's build and query times, to size the case counts of later
//! tests; `NAVSTAR_ORACLE_MAP` names another map of `../shared/data/grid` for it and
//! `NAVSTAR_ORACLE_RADIUS` another radius (0.5 by default).

mod agent_moves;
mod agent_queries;
mod arcs;
#[path = "../common/clearance_oracle/mod.rs"]
mod clearance_oracle;
#[path = "../common/mod.rs"]
mod common;
mod corridor_radius;
mod critical;
mod fields;
mod iron_harvest;
mod joined;
mod landmarks;
mod levels;
mod oracle;
mod radius;
mod scenes;
mod tiles;
mod unreachable;

use std::f64::consts::{FRAC_PI_2, TAU};

use glam::DVec2;
use navstar::{NavMesh, PathMode, PathOptions, PathStatus, Query, QueryFilter};

use clearance_oracle::tangent::TangentOracle;
use clearance_oracle::{ErodedBracket, JOIN_STEP, Region};
use common::{Domain, ground_length};

/// Tolerance of oracle B's exact lengths on scenes a few units wide (the mesh is `f32`,
/// the hand answers use the same `f32` corners).
const EXACT: f64 = 1e-6;
/// Tolerance of oracle A against the exact lengths on scenes a few units wide: its arcs
/// are drawn up to 4.9e-4 `r` inside the circles (`outer`) and 1.2e-4 `r` outside them
/// (`inner`); a path that wraps an arc through an angle `a` changes by less than about
/// `a` times that.
const ARC: f64 = 5e-4;

fn d(x: f64, y: f64) -> DVec2 {
    DVec2::new(x, y)
}

/// The length of a tangent from a point at distance `dist` from a circle of radius `r`.
fn tangent(dist: f64, r: f64) -> f64 {
    (dist * dist - r * r).sqrt()
}

/// The length of navstar's exact-mode path, `None` when it is not complete.
fn exact_mode_length(mesh: &NavMesh, s: DVec2, t: DVec2) -> Option<f64> {
    let options = PathOptions::default().with_mode(PathMode::Optimal);
    let at = |q: DVec2| mesh.up_axis().place(q.as_vec2(), 0.0);
    let mut query = Query::new(mesh);
    let path = query
        .find_path(at(s), at(t), &options)
        .unwrap_or_else(|e| panic!("{s} -> {t}: {e}"));
    (path.status == PathStatus::Complete).then(|| ground_length(mesh.up_axis(), path.corners))
}

/// Both oracles on one query: B's exact length, checked against A's bracket, whose ends
/// must lie within `arc` of it.
#[track_caller]
fn oracles(mesh: &NavMesh, r: f64, s: DVec2, t: DVec2, arc: f64) -> Option<f64> {
    oracles_admitting(mesh, |_| true, r, s, t, arc)
}

/// As [`oracles`] on the polygons for which `admit` holds, the others being obstacles.
#[track_caller]
fn oracles_admitting(
    mesh: &NavMesh,
    admit: impl Fn(u32) -> bool + Copy,
    r: f64,
    s: DVec2,
    t: DVec2,
    arc: f64,
) -> Option<f64> {
    let region = Region::from_mesh(mesh, admit);
    let domain = Domain::layer(mesh, admit);
    let exact = TangentOracle::new(&domain, r).shortest(s, t);
    let bracket = ErodedBracket::new(&region, r).shortest(s, t);
    let context = format!("r = {r}, {s} -> {t}: B {exact:?}, A {bracket:?}");
    bracket
        .check(exact, EXACT)
        .unwrap_or_else(|e| panic!("{context}: {e}"));
    if let Some(len) = exact {
        for bound in [bracket.low, bracket.high] {
            let bound = bound.unwrap_or_else(|| panic!("{context}: A finds no path"));
            assert!(
                (bound - len).abs() <= arc,
                "{context}: A is not within {arc}"
            );
        }
    }
    exact
}

#[track_caller]
fn assert_length(actual: Option<f64>, expected: f64, tol: f64) {
    let actual = actual.unwrap_or_else(|| panic!("no path, expected length {expected}"));
    assert!(
        (actual - expected).abs() <= tol,
        "length {actual}, expected {expected}"
    );
}

#[test]
fn l_turn_is_two_tangents_and_an_arc() {
    let mesh = scenes::l_turn();
    // From s = (1, 1) to t = (9, 9) round the corner c = (8, 2): |s - c| = |t - c| =
    // sqrt(50). Seen from c, s and t are 1.8546 rad = acos(-0.28) apart across the
    // block, so 2 pi - acos(-0.28) = 4.4286 rad apart across the walkable side. Each
    // tangent from s or t to the circle of radius r turns away from the centre line by
    // acos(r / sqrt(50)), so the arc spans the rest:
    //   length = 2 sqrt(50 - r^2) + r (2 pi - acos(-0.28) - 2 acos(r / sqrt(50))).
    // At r = 0.5: 2 * 7.05337 + 0.5 * (4.42859 - 2 * 1.50003) = 14.82101.
    let (s, t) = (d(1.0, 1.0), d(9.0, 9.0));
    let ds = 50f64.sqrt();
    for r in [0.25, 0.5, 0.9] {
        let arc = TAU - (-0.28f64).acos() - 2.0 * (r / ds).acos();
        let expected = 2.0 * tangent(ds, r) + r * arc;
        assert_length(oracles(&mesh, r, s, t, ARC), expected, EXACT);
    }
    assert!((oracles(&mesh, 0.5, s, t, ARC).unwrap() - 14.82101).abs() < 1e-5);
    // At radius 0 the path touches the corner: 2 sqrt(50), as the exact mode finds.
    let region = Region::from_mesh(&mesh, |_| true);
    let bare = ErodedBracket::new(&region, 0.0).shortest(s, t);
    assert_length(bare.low, 2.0 * ds, EXACT);
    assert_length(exact_mode_length(&mesh, s, t), 2.0 * ds, 1e-4);
}

#[test]
fn door_opens_at_twice_the_radius_plus_a_hair_and_closes_below() {
    // s = (2, 2) and t = (2, 6.5) face each other through the door: when the disc fits,
    // the path is the straight line, 4.5 long, 5e-5 clear of both jambs.
    let (s, t) = (d(2.0, 2.0), d(2.0, 6.5));
    for r in [0.5f32, 0.3, 1.2] {
        let open = scenes::door(2.0 * r + 1e-4);
        assert_length(oracles(&open, f64::from(r), s, t, ARC), 4.5, EXACT);
        let closed = scenes::door(2.0 * r - 1e-4);
        assert_eq!(oracles(&closed, f64::from(r), s, t, ARC), None, "r = {r}");
        // The closed door still lets a smaller disc through.
        assert_length(oracles(&closed, f64::from(r) * 0.9, s, t, ARC), 4.5, EXACT);
    }
}

#[test]
fn refused_polygons_are_obstacles() {
    // The door polygon refused by the query filter: the rooms are cut apart for every
    // radius, and at radius 0 the exact mode, with the same filter, ends its path short.
    let mesh = scenes::door(1.0);
    let filter = QueryFilter::default();
    let door = 1;
    assert!(
        mesh.polygon_vertices(door)
            .iter()
            .all(|&v| mesh.vertices()[v as usize].z >= 4.0)
    );
    let (s, t) = (d(2.0, 2.0), d(2.0, 6.5));
    assert_length(oracles(&mesh, 0.25, s, t, ARC), 4.5, EXACT);
    mesh.set_polygon_flags(door, 0).unwrap();
    let admit = |poly: u32| filter.admits(mesh.polygon_flags(poly));
    assert!(!admit(door) && admit(0) && admit(2));
    assert_eq!(oracles_admitting(&mesh, admit, 0.25, s, t, ARC), None);
    let region = Region::from_mesh(&mesh, admit);
    assert!(
        (region.area() - 32.0).abs() < 1e-6,
        "area {}",
        region.area()
    );
    assert_eq!(ErodedBracket::new(&region, 0.0).shortest(s, t).low, None);
    assert_eq!(exact_mode_length(&mesh, s, t), None);
}

#[test]
fn pillar_beside_a_long_portal_bends_the_path_below_it() {
    let mesh = scenes::pillar_by_long_portal();
    // From s = (2, 5) to t = (18, 5) along the portal: the straight line passes 0.2 below
    // the pillar's bottom corners c1 = (9.5, 5.2) and c2 = (10.5, 5.2). For r > 0.2 the
    // path runs r below them: a tangent from s to c1's circle, an arc to its lowest
    // point, 1 straight, the mirror image to t. |s - c1| = sqrt(7.5^2 + 0.2^2); seen from
    // c1, s lies acos(0.2 / |s - c1|) from straight down, and the tangent turns
    // acos(r / |s - c1|) of that away, so
    //   length = 2 sqrt(|s - c1|^2 - r^2) + 1 + 2 r (acos(0.2 / |s - c1|) - acos(r / |s - c1|)).
    // At r = 0.5: 2 * 7.48599 + 1 + 2 * 0.5 * (1.54414 - 1.50410) = 16.01201.
    let (s, t) = (d(2.0, 5.0), d(18.0, 5.0));
    let ds = (7.5f64 * 7.5 + 0.2 * 0.2).sqrt();
    for r in [0.3, 0.5, 0.9] {
        let expected = 2.0 * tangent(ds, r) + 1.0 + 2.0 * r * ((0.2 / ds).acos() - (r / ds).acos());
        assert_length(oracles(&mesh, r, s, t, ARC), expected, EXACT);
    }
    assert!((oracles(&mesh, 0.5, s, t, ARC).unwrap() - 16.01201).abs() < 1e-5);
    // Up to r = 0.2 the straight line keeps its distance: 16.
    assert_length(oracles(&mesh, 0.15, s, t, ARC), 16.0, EXACT);
    assert_length(exact_mode_length(&mesh, s, t), 16.0, 1e-4);
}

#[test]
fn disturbance_gap_below_a_hanging_wall_decides() {
    let mesh = scenes::disturbance();
    // From s = (1, 2) to t = (11, 2) the disc must pass under the hanging wall, whose
    // tip corners c1 = (6.4, 1) and c2 = (6.6, 1) stand 1 above the floor: a disc of
    // radius r < 0.5 passes r below them, as under the pillar above; one of r > 0.5 does
    // not, though the pivot b = (5, 3) stands 3 above the floor. |s - c1| =
    // sqrt(5.4^2 + 1) and |t - c2| = sqrt(4.4^2 + 1); seen from c1, s lies
    // acos(-1 / |s - c1|) from straight down, and t likewise from c2:
    //   length = sqrt(|s - c1|^2 - r^2) + sqrt(|t - c2|^2 - r^2) + 0.2
    //            + r (acos(-1 / |s - c1|) - acos(r / |s - c1|))
    //            + r (acos(-1 / |t - c2|) - acos(r / |t - c2|)).
    // At r = 0.45: 5.47334 + 4.48971 + 0.2 + 0.45 * (1.75391 - 1.48876 + 1.79427 - 1.47090)
    // = 10.42789.
    let (s, t) = (d(1.0, 2.0), d(11.0, 2.0));
    let (ds, dt) = ((5.4f64 * 5.4 + 1.0).sqrt(), (4.4f64 * 4.4 + 1.0).sqrt());
    let side =
        |dist: f64, r: f64| tangent(dist, r) + r * ((-1.0 / dist).acos() - (r / dist).acos());
    for r in [0.2, 0.45, 0.4999] {
        let expected = side(ds, r) + side(dt, r) + 0.2;
        assert_length(oracles(&mesh, r, s, t, ARC), expected, EXACT);
    }
    assert!((oracles(&mesh, 0.45, s, t, ARC).unwrap() - 10.42789).abs() < 1e-5);
    for r in [0.5001, 0.6, 1.4] {
        assert_eq!(oracles(&mesh, r, s, t, ARC), None, "r = {r}");
    }
    // At radius 0 the path touches c1 and c2.
    let bare = ds + dt + 0.2;
    let region = Region::from_mesh(&mesh, |_| true);
    assert_length(
        ErodedBracket::new(&region, 0.0).shortest(s, t).low,
        bare,
        EXACT,
    );
    assert_length(exact_mode_length(&mesh, s, t), bare, 1e-4);
}

#[test]
fn lengths_never_shrink_as_the_radius_grows() {
    let cases = [
        (scenes::l_turn(), d(1.0, 1.0), d(9.0, 9.0)),
        (scenes::pillar_by_long_portal(), d(2.0, 5.0), d(18.0, 5.0)),
        (scenes::pillar_by_long_portal(), d(1.5, 8.5), d(18.0, 1.5)),
        (scenes::disturbance(), d(1.0, 2.0), d(11.0, 2.0)),
        (scenes::door(1.0), d(1.0, 1.2), d(3.0, 7.0)),
    ];
    for (mesh, s, t) in &cases {
        let domain = Domain::new(mesh);
        let mut last = 0.0;
        for k in 1..=40 {
            let r = 0.025 * f64::from(k);
            let oracle = TangentOracle::new(&domain, r);
            if !oracle.admissible(*s) || !oracle.admissible(*t) {
                break;
            }
            let len = oracle.shortest(*s, *t).unwrap_or(f64::INFINITY);
            assert!(
                len >= last - EXACT,
                "{s} -> {t}: {len} at r = {r} after {last}"
            );
            last = len;
        }
        assert!(last > 0.0, "{s} -> {t}: no radius tried");
    }
}

#[test]
fn the_arc_bound_is_what_the_module_says() {
    // One round join of a quarter turn, eroded by r with chords of angle below 2 step:
    // the eroded corner lies between the circle (exact) and r cos(step) from the corner.
    let room = Region::union(&[
        vec![d(0.0, 0.0), d(4.0, 0.0), d(4.0, 8.0), d(0.0, 8.0)],
        vec![d(4.0, 4.0), d(8.0, 4.0), d(8.0, 8.0), d(4.0, 8.0)],
    ]);
    assert!((room.area() - 48.0).abs() < 1e-9, "area {}", room.area());
    let r = 0.5;
    let eroded = room.erode(r);
    let corner = d(4.0, 4.0);
    let near: Vec<f64> = eroded
        .rings
        .iter()
        .flatten()
        .map(|q| q.distance(corner))
        .filter(|&dist| dist < 2.0 * r)
        .collect();
    assert!(
        near.len() > (FRAC_PI_2 / (2.0 * JOIN_STEP)) as usize,
        "{} arc points",
        near.len()
    );
    for dist in near {
        assert!(
            (dist - r).abs() < 1e-6,
            "an arc vertex {dist} from the corner"
        );
    }
}
