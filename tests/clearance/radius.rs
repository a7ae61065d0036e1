//! navstar's paths for a disc (`PathOptions::agent_radius`) against the oracles: on the
//! hand-made scenes, random rectangle fields, a tiled world and a grid map. The checks:
//! a path exists exactly when oracle B's does (up to the arc tolerance: a gap whose
//! width lies between `2r` and `2r / cos(pi / ARC_SEGMENTS)` may be closed); every
//! segment keeps `r - 1e-4` from every wall; the exact mode's length lies between B's
//! at `r` and B's at `r / cos(pi / ARC_SEGMENTS)` (the radius of the corners drawn round
//! the circles); the default mode's is at least B's; exact lengths never shrink as the
//! radius grows.

use glam::{DVec2, Vec3};
use navstar::{
    ARC_SEGMENTS, MeshOptions, NavMesh, PathMode, PathOptions, PathStatus, Query, QueryError,
    QueryFilter, World, WorldOptions,
};

use crate::clearance_oracle::segment_distance;
use crate::clearance_oracle::tangent::TangentOracle;
use crate::common::{Domain, Rng};
use crate::{d, scenes, tangent};

/// How far a path may come closer to a wall than the radius (f32 corners).
pub const CLEARANCE: f64 = 1e-4;
/// Length tolerance of the comparisons (f32 corners on scenes a few units wide).
pub const LENGTH: f64 = 1e-4;

/// The radius of the corners of the polygons drawn round a corner's circle.
pub fn outer(r: f64) -> f64 {
    r / (std::f64::consts::PI / ARC_SEGMENTS as f64).cos()
}

/// A path of navstar for a disc of radius `r`: its status and ground corners.
pub fn path(
    mesh: &NavMesh,
    r: f64,
    s: DVec2,
    t: DVec2,
    mode: PathMode,
    filter: &QueryFilter,
) -> Result<(PathStatus, Vec<DVec2>), QueryError> {
    let up = mesh.up_axis();
    let at = |q: DVec2| up.place(q.as_vec2(), 0.0);
    let options = PathOptions::default()
        .with_mode(mode)
        .with_agent_radius(r as f32)
        .with_filter(filter.clone());
    let mut query = Query::new(mesh);
    let path = query.find_path(at(s), at(t), &options)?;
    let corners = path
        .corners
        .iter()
        .map(|&c| up.ground(c).as_dvec2())
        .collect();
    Ok((path.status, corners))
}

pub fn length(corners: &[DVec2]) -> f64 {
    corners.windows(2).map(|w| w[0].distance(w[1])).sum()
}

/// The least distance from the polyline to the walls of `domain`.
pub fn clearance(domain: &Domain, corners: &[DVec2]) -> f64 {
    let g = |v: u32| domain.ground[v as usize];
    corners
        .windows(2)
        .flat_map(|w| {
            domain
                .boundary
                .iter()
                .map(move |&(a, b)| segment_distance(w[0], w[1], g(a), g(b)))
        })
        .fold(f64::INFINITY, f64::min)
}

/// What one comparison found.
#[derive(Debug, Default, Clone, Copy)]
pub struct Tally {
    pub cases: usize,
    pub reachable: usize,
    pub unreachable: usize,
    /// Reachable at `r` but not at the outer radius: either answer is right.
    pub critical: usize,
}

/// Checks navstar against oracle B for one query whose ends are admissible at the outer
/// radius; `domain` holds the admitted polygons.
#[track_caller]
pub fn check(
    mesh: &NavMesh,
    domain: &Domain,
    filter: &QueryFilter,
    r: f64,
    s: DVec2,
    t: DVec2,
    tally: &mut Tally,
) {
    let exact = TangentOracle::new(domain, r).shortest(s, t);
    let wide = TangentOracle::new(domain, outer(r)).shortest(s, t);
    let context = format!("r = {r}, {s} -> {t}: B {exact:?}, B at the outer radius {wide:?}");
    tally.cases += 1;
    for mode in [PathMode::Funnel, PathMode::Optimal] {
        let (status, corners) = path(mesh, r, s, t, mode, filter)
            .unwrap_or_else(|e| panic!("{context}, {mode:?}: {e}"));
        let context = format!("{context}, {mode:?}: {status:?} {corners:?}");
        let gap = clearance(domain, &corners);
        assert!(gap >= r - CLEARANCE, "{context}: {gap} from a wall");
        if TangentOracle::new(domain, outer(r)).admissible(s) {
            assert!(
                corners[0].distance(s) <= LENGTH,
                "{context}: the start moved"
            );
        }
        let complete = status == PathStatus::Complete;
        match (exact, wide) {
            (None, _) => assert!(!complete, "{context}: a path where B has none"),
            (Some(_), Some(_)) => assert!(complete, "{context}: no path, B has one"),
            (Some(_), None) => {}
        }
        if !complete {
            continue;
        }
        let len = length(&corners);
        let exact = exact.expect("checked above");
        assert!(len >= exact - LENGTH, "{context}: {len} below B's {exact}");
        assert!(
            corners[corners.len() - 1].distance(t) <= LENGTH,
            "{context}"
        );
        if let (PathMode::Optimal, Some(wide)) = (mode, wide) {
            assert!(
                len <= wide + LENGTH,
                "{context}: {len} above B's outer {wide}"
            );
        }
    }
    match (exact, wide) {
        (None, _) => tally.unreachable += 1,
        (Some(_), Some(_)) => tally.reachable += 1,
        (Some(_), None) => tally.critical += 1,
    }
}

/// The exact mode's length, `None` when the path is not complete.
fn exact_length(mesh: &NavMesh, r: f64, s: DVec2, t: DVec2) -> Option<f64> {
    let (status, corners) =
        path(mesh, r, s, t, PathMode::Optimal, &QueryFilter::default()).unwrap();
    (status == PathStatus::Complete).then(|| length(&corners))
}

#[test]
fn l_turn_wraps_the_corner_within_the_arc_tolerance() {
    let mesh = scenes::l_turn();
    let domain = Domain::new(&mesh);
    let (s, t) = (d(1.0, 1.0), d(9.0, 9.0));
    let ds = 50f64.sqrt();
    let mut tally = Tally::default();
    for r in [0.25, 0.5, 0.9] {
        check(&mesh, &domain, &QueryFilter::default(), r, s, t, &mut tally);
        // The hand length (see the oracle's test): two tangents and an arc of `turn`.
        let hand = |r: f64| {
            let turn = std::f64::consts::TAU - (-0.28f64).acos() - 2.0 * (r / ds).acos();
            2.0 * tangent(ds, r) + r * turn
        };
        let expected = hand(r);
        let len = exact_length(&mesh, r, s, t).unwrap();
        // No shorter than the true path at r, no longer than the true one at the
        // radius of the corners of the polygon drawn round the circle.
        assert!(
            len >= expected - LENGTH && len <= hand(outer(r)) + LENGTH,
            "r = {r}: {len}, expected {expected}"
        );
    }
    assert_eq!(tally.reachable, 3);
}

#[test]
fn door_opens_at_twice_the_radius_plus_a_hair_and_closes_below() {
    let (s, t) = (d(2.0, 2.0), d(2.0, 6.5));
    for r in [0.5f32, 0.3, 1.2] {
        let open = scenes::door(2.0 * r + 1e-4);
        for mode in [PathMode::Funnel, PathMode::Optimal] {
            let (status, corners) =
                path(&open, f64::from(r), s, t, mode, &QueryFilter::default()).unwrap();
            assert_eq!(status, PathStatus::Complete, "r = {r}, {mode:?}");
            assert!((length(&corners) - 4.5).abs() <= LENGTH, "{corners:?}");
            let gap = clearance(&Domain::new(&open), &corners);
            assert!(gap >= f64::from(r) - CLEARANCE, "r = {r}: {gap}");
        }
        let closed = scenes::door(2.0 * r - 1e-4);
        for mode in [PathMode::Funnel, PathMode::Optimal] {
            let (status, corners) =
                path(&closed, f64::from(r), s, t, mode, &QueryFilter::default()).unwrap();
            assert_eq!(status, PathStatus::Partial, "r = {r}, {mode:?}");
            // The partial path ends at the reachable point closest to the goal: in the
            // doorway, touching both jambs (with the radius of the corners' polygons).
            let end = corners[corners.len() - 1];
            let half = f64::from(2.0 * r - 1e-4) / 2.0;
            let depth = |radius: f64| 4.0 - (radius * radius - half * half).sqrt();
            assert!(
                end.y >= depth(outer(f64::from(r))) - 1e-3 && end.y <= depth(f64::from(r)) + LENGTH,
                "r = {r}: {end}"
            );
            let gap = clearance(&Domain::new(&closed), &corners);
            assert!(gap >= f64::from(r) - CLEARANCE, "r = {r}: {gap}");
        }
        let mut tally = Tally::default();
        check(
            &closed,
            &Domain::new(&closed),
            &QueryFilter::default(),
            f64::from(r) * 0.9,
            s,
            t,
            &mut tally,
        );
        assert_eq!(tally.reachable, 1);
    }
}

#[test]
fn refused_door_is_a_wall() {
    let mesh = scenes::door(1.0);
    let (s, t) = (d(2.0, 2.0), d(2.0, 6.5));
    assert_eq!(exact_length(&mesh, 0.25, s, t), Some(4.5));
    mesh.set_polygon_flags(1, 0).unwrap();
    let filter = QueryFilter::default();
    for mode in [PathMode::Funnel, PathMode::Optimal] {
        let (status, corners) = path(&mesh, 0.25, s, t, mode, &filter).unwrap();
        assert_eq!(status, PathStatus::Partial, "{mode:?}");
        let end = corners[corners.len() - 1];
        assert!((end.y - 3.75).abs() < 1e-3, "{end}");
    }
    // Open again: a new flag generation, a new erosion.
    mesh.set_polygon_flags(1, 1).unwrap();
    assert_eq!(exact_length(&mesh, 0.25, s, t), Some(4.5));
}

#[test]
fn pillar_beside_a_long_portal_is_kept_at_the_radius() {
    let mesh = scenes::pillar_by_long_portal();
    let domain = Domain::new(&mesh);
    let mut tally = Tally::default();
    for (s, t) in [(d(2.0, 5.0), d(18.0, 5.0)), (d(1.5, 8.5), d(18.0, 1.5))] {
        for r in [0.15, 0.3, 0.5, 0.9] {
            check(&mesh, &domain, &QueryFilter::default(), r, s, t, &mut tally);
        }
    }
    assert_eq!(tally.reachable, 8);
}

#[test]
fn disturbance_gap_below_a_hanging_wall_decides() {
    let mesh = scenes::disturbance();
    let domain = Domain::new(&mesh);
    let (s, t) = (d(1.0, 2.0), d(11.0, 2.0));
    let mut tally = Tally::default();
    for r in [0.2, 0.45, 0.4999, 0.5001, 0.6, 1.4] {
        check(&mesh, &domain, &QueryFilter::default(), r, s, t, &mut tally);
    }
    // At 0.4999 the gap of 1 below the wall's tip is wider than the disc by less than
    // the corners' polygons reach out, so oracle B closes it at the outer radius; the
    // polygons' sides facing straight down touch the circle, so navstar keeps it open.
    assert_eq!(
        (tally.reachable + tally.critical, tally.unreachable),
        (3, 3),
        "{tally:?}"
    );
    assert!(exact_length(&mesh, 0.4999, s, t).is_some());
}

#[test]
fn exact_lengths_never_shrink_as_the_radius_grows() {
    let cases = [
        (scenes::l_turn(), d(1.0, 1.0), d(9.0, 9.0)),
        (scenes::pillar_by_long_portal(), d(2.0, 5.0), d(18.0, 5.0)),
        (scenes::disturbance(), d(1.0, 2.0), d(11.0, 2.0)),
    ];
    for (mesh, s, t) in &cases {
        let mut last = 0.0;
        for k in 1..=16 {
            let r = 0.05 * f64::from(k);
            let len = exact_length(mesh, r, *s, *t).unwrap_or(f64::INFINITY);
            assert!(
                len >= last - 1e-5,
                "{s} -> {t}: {len} at r = {r} after {last}"
            );
            last = len;
        }
    }
}

#[test]
fn radius_at_or_below_the_baked_one_is_the_plain_query() {
    let mesh = scenes::pillar_by_long_portal();
    let soup_options = MeshOptions::default().with_agent_radius(0.3);
    let vertices: Vec<Vec3> = mesh.vertices().to_vec();
    let mut indices = Vec::new();
    let mut sizes = Vec::new();
    for p in mesh.polygon_ids() {
        indices.extend_from_slice(mesh.polygon_vertices(p));
        sizes.push(mesh.polygon_vertices(p).len() as u32);
    }
    let baked = NavMesh::from_polygons(&vertices, &indices, &sizes, &soup_options).unwrap();
    assert_eq!(baked.agent_radius(), 0.3);
    let (s, t) = (d(2.0, 5.0), d(18.0, 5.0));
    let plain = path(&baked, 0.0, s, t, PathMode::Funnel, &QueryFilter::default()).unwrap();
    for r in [0.1, 0.3] {
        assert_eq!(
            path(&baked, r, s, t, PathMode::Funnel, &QueryFilter::default()).unwrap(),
            plain
        );
    }
    assert_eq!(baked.eroded_bytes(), 0);
    // 0.5 on a mesh baked for 0.3 erodes by 0.2: the straight line is still clear.
    let (status, corners) = path(
        &baked,
        0.5,
        s,
        t,
        PathMode::Optimal,
        &QueryFilter::default(),
    )
    .unwrap();
    assert_eq!(status, PathStatus::Complete);
    assert!((length(&corners) - 16.0).abs() < LENGTH, "{corners:?}");
    assert!(baked.eroded_bytes() > 0);
}

#[test]
fn bad_radii_are_errors_naming_the_option() {
    let mesh = scenes::l_turn();
    for r in [-0.1, f64::NAN, f64::INFINITY] {
        let e = path(
            &mesh,
            r,
            d(1.0, 1.0),
            d(9.0, 9.0),
            PathMode::Funnel,
            &QueryFilter::default(),
        )
        .unwrap_err();
        assert!(e.to_string().contains("agent_radius"), "{e}");
    }
    let e = MeshOptions::default().with_agent_radius(-1.0);
    let err =
        NavMesh::from_polygons(&[Vec3::ZERO, Vec3::X, Vec3::Z], &[0, 1, 2], &[3], &e).unwrap_err();
    assert!(err.to_string().contains("agent_radius"), "{err}");
    // A radius no point of the room fits: an error that says so.
    let e = path(
        &mesh,
        5.0,
        d(1.0, 1.0),
        d(9.0, 9.0),
        PathMode::Funnel,
        &QueryFilter::default(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("agent_radius"), "{e}");
}

/// A point admissible for oracle `oracle`, or `None` after 100 tries.
fn admissible_point(rng: &mut Rng, oracle: &TangentOracle) -> Option<DVec2> {
    (0..100)
        .map(|_| DVec2::new(f64::from(rng.unit()) * 10.0, f64::from(rng.unit()) * 8.0))
        .find(|&q| oracle.admissible(q))
}

/// One random rectangle field, radius and query (see [`check`]).
pub fn field_case(seed: u64, tally: &mut Tally) {
    let mut rng = Rng(seed);
    let mesh = scenes::rectangle_field(&mut rng);
    let domain = Domain::new(&mesh);
    let r = 0.05 + 1.1 * f64::from(rng.unit());
    let wide = TangentOracle::new(&domain, outer(r) + 1e-6);
    let (Some(s), Some(t)) = (
        admissible_point(&mut rng, &wide),
        admissible_point(&mut rng, &wide),
    ) else {
        return;
    };
    check(&mesh, &domain, &QueryFilter::default(), r, s, t, tally);
}

#[test]
fn rectangle_fields_agree_with_the_oracle() {
    let config = crate::common::proptest_config(300);
    let proptest::test_runner::RngSeed::Fixed(base) = config.rng_seed else {
        unreachable!("proptest_config fixes the seed")
    };
    let mut tally = Tally::default();
    for case in 0..u64::from(config.cases) {
        let seed = base.wrapping_add(case);
        let result = std::panic::catch_unwind(|| {
            let mut one = Tally::default();
            field_case(seed, &mut one);
            one
        });
        match result {
            Ok(one) => {
                tally.cases += one.cases;
                tally.reachable += one.reachable;
                tally.unreachable += one.unreachable;
                tally.critical += one.critical;
            }
            Err(e) => std::panic::resume_unwind(Box::new(format!(
                "seed {seed}: {}",
                e.downcast_ref::<String>().cloned().unwrap_or_default()
            ))),
        }
    }
    eprintln!("rectangle fields with a radius: {tally:?}");
    assert!(tally.cases * 10 >= config.cases as usize * 8, "{tally:?}");
    assert!(tally.reachable * 4 >= tally.cases, "{tally:?}");
    assert!(tally.unreachable > 0, "{tally:?}");
}

#[test]
fn tiled_world_snapshot_erodes_across_tile_borders() {
    // The pillar scene cut into tiles 3 wide: the long portal and the pillar's corners
    // fall on tile borders, and the snapshot's paths are those of the one-piece mesh.
    let mesh = scenes::pillar_by_long_portal();
    let cut = mesh.cut_into_tiles(3.0).unwrap();
    let world = World::new(
        &WorldOptions::default().with_max_tiles((cut.tiles.len() as u32).next_power_of_two()),
    )
    .unwrap();
    for tile in &cut.tiles {
        world.add_tile(&tile.mesh).unwrap();
    }
    let snapshot = world.snapshot();
    assert!(snapshot.polygon_count() > mesh.polygon_count());
    let domain = Domain::new(&mesh);
    for (s, t) in [(d(2.0, 5.0), d(18.0, 5.0)), (d(1.5, 8.5), d(18.0, 1.5))] {
        for r in [0.3, 0.5, 0.9] {
            let whole = exact_length(&mesh, r, s, t).unwrap();
            let tiled = exact_length(&snapshot, r, s, t).unwrap();
            assert!(
                (whole - tiled).abs() < LENGTH,
                "r = {r}: {whole} vs {tiled}"
            );
            let (status, corners) = path(
                &snapshot,
                r,
                s,
                t,
                PathMode::Funnel,
                &QueryFilter::default(),
            )
            .unwrap();
            assert_eq!(status, PathStatus::Complete);
            assert!(clearance(&domain, &corners) >= r - CLEARANCE, "{corners:?}");
        }
    }
}

#[test]
fn arena_grid_map_at_half_a_cell() {
    // The Moving AI map "arena" as triangulated by the Polyanya authors (data/), at
    // radius 0.5: corridors one cell wide are exactly 2r, the critical width, where
    // either answer is right. Oracle A brackets the rest: no path in its larger region
    // at r means none for navstar, a path in its smaller region at the outer radius
    // means navstar finds one no longer than that.
    use crate::clearance_oracle::{ErodedBracket, Region};
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let options = MeshOptions::default().with_up_axis(navstar::UpAxis::Z);
    let mesh = navstar::io::load_mesh_file(&root.join("data/arena.mesh"), &options).unwrap();
    let up = mesh.up_axis();
    let domain = Domain::new(&mesh);
    let region = Region::from_mesh(&mesh, |_| true);
    let r = 0.5;
    let larger = ErodedBracket::new(&region, r).outer;
    let smaller = ErodedBracket::new(&region, outer(r) + 1e-6).inner;
    let bounds = mesh.bounds();
    let (lo, hi) = (
        up.ground(bounds.min).as_dvec2(),
        up.ground(bounds.max).as_dvec2(),
    );
    let proptest::test_runner::RngSeed::Fixed(seed) = crate::common::proptest_config(1).rng_seed
    else {
        unreachable!("proptest_config fixes the seed")
    };
    let mut rng = Rng(seed);
    let mut sample = || {
        (0..1000)
            .map(|_| lo + (hi - lo) * DVec2::new(f64::from(rng.unit()), f64::from(rng.unit())))
            .find(|&q| smaller.contains(q))
            .expect("the map has room for the disc")
    };
    let (mut compared, mut found) = (0, 0);
    for i in 0..40 {
        let (s, t) = (sample(), sample());
        compared += 1;
        let low = larger.shortest(s, t);
        let high = smaller.shortest(s, t);
        for mode in [PathMode::Funnel, PathMode::Optimal] {
            let (status, corners) = path(&mesh, r, s, t, mode, &QueryFilter::default()).unwrap();
            let context = format!("problem {i}, {mode:?}: {s} -> {t}, A {low:?} .. {high:?}");
            let gap = clearance(&domain, &corners);
            assert!(gap >= r - CLEARANCE, "{context}: {gap} from a wall");
            assert!(
                corners[0].distance(s) <= LENGTH,
                "{context}: the start moved"
            );
            let complete = status == PathStatus::Complete;
            if low.is_none() {
                assert!(
                    !complete,
                    "{context}: a path A's larger region does not have"
                );
            }
            if high.is_some() {
                assert!(complete, "{context}: no path, A's smaller region has one");
            }
            if !complete {
                continue;
            }
            found += 1;
            let len = length(&corners);
            let low = low.expect("checked above");
            assert!(len >= low - LENGTH, "{context}: {len}");
            if let (PathMode::Optimal, Some(high)) = (mode, high) {
                assert!(len <= high + LENGTH, "{context}: {len}");
            }
        }
    }
    eprintln!("arena at r = {r}: {compared} problems compared, {found} paths found");
    assert!(compared >= 20 && found >= compared, "{compared}, {found}");
}
