//! Random rectangle fields, where the two oracles check each other, and a benchmark grid
//! map, where oracle A is timed.

use std::fs::File;
use std::io::BufReader;
use std::path::Path;
use std::time::Instant;

use glam::DVec2;
use navstar::MeshOptions;
use navstar::io::{parse_movingai_map, parse_scenario};
use proptest::test_runner::RngSeed;

use crate::clearance_oracle::tangent::TangentOracle;
use crate::clearance_oracle::{ErodedBracket, Region, VisibilityOracle};
use crate::common::{Domain, Rng, proptest_config};
use crate::{ARC, EXACT, exact_mode_length, scenes};

const GRID_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/grid");

/// The ground area of a mesh, polygon by polygon.
fn mesh_area(domain: &Domain) -> f64 {
    domain
        .polygons
        .iter()
        .map(|corners| {
            let n = corners.len();
            (0..n)
                .map(|i| {
                    let (a, b) = (
                        domain.ground[corners[i] as usize],
                        domain.ground[corners[(i + 1) % n] as usize],
                    );
                    a.perp_dot(b)
                })
                .sum::<f64>()
                * 0.5
        })
        .sum()
}

/// A point where a disc of the oracle's radius fits, or `None` after 100 tries.
fn admissible_point(rng: &mut Rng, oracle: &TangentOracle) -> Option<DVec2> {
    (0..100)
        .map(|_| DVec2::new(f64::from(rng.unit()) * 10.0, f64::from(rng.unit()) * 8.0))
        .find(|&q| oracle.admissible(q))
}

/// What one field case found, for the totals.
#[derive(Debug, Default)]
struct Totals {
    cases: usize,
    reachable: usize,
    unreachable: usize,
    /// Reachable cases where both ends of A's bracket lie within `ARC` of B.
    tight: usize,
}

/// One random field, radius and query: the checks of [`rectangle_fields_both_oracles_agree`].
fn field_case(seed: u64, totals: &mut Totals) {
    let mut rng = Rng(seed);
    let mesh = scenes::rectangle_field(&mut rng);
    let domain = Domain::new(&mesh);
    let region = Region::from_mesh(&mesh, |_| true);
    let area = mesh_area(&domain);
    assert!(
        (region.area() - area).abs() <= 1e-6 * area,
        "seed {seed}: the union has area {}, the polygons {area}",
        region.area()
    );
    let r = 0.05 + 1.1 * f64::from(rng.unit());
    let oracle = TangentOracle::new(&domain, r);
    let (Some(s), Some(t)) = (
        admissible_point(&mut rng, &oracle),
        admissible_point(&mut rng, &oracle),
    ) else {
        return;
    };
    let context = format!("seed {seed}, r = {r}, {s} -> {t}");
    totals.cases += 1;
    let exact = oracle.shortest(s, t);
    let bracket = ErodedBracket::new(&region, r).shortest(s, t);
    bracket
        .check(exact, EXACT)
        .unwrap_or_else(|e| panic!("{context}: B {exact:?}, A {bracket:?}: {e}"));
    match (exact, bracket.low, bracket.high) {
        (None, _, _) => totals.unreachable += 1,
        (Some(len), Some(low), Some(high)) => {
            totals.reachable += 1;
            if (low - len).abs() <= ARC && (high - len).abs() <= ARC {
                totals.tight += 1;
            }
        }
        (Some(_), _, _) => totals.reachable += 1,
    }
    // A larger disc never has a shorter path.
    let wider = TangentOracle::new(&domain, r * 1.5);
    if wider.admissible(s) && wider.admissible(t) {
        let (len, wide) = (exact.unwrap_or(f64::INFINITY), wider.shortest(s, t));
        let wide = wide.unwrap_or(f64::INFINITY);
        assert!(wide >= len - EXACT, "{context}: {wide} at r = {}", r * 1.5);
    }
    // At radius 0, oracle A is the plain shortest path: navstar's exact mode.
    let bare = VisibilityOracle::new(&region).shortest(s, t);
    let navstar = exact_mode_length(&mesh, s, t);
    match (bare, navstar) {
        (Some(a), Some(b)) => assert!(
            (a - b).abs() <= 1e-4 * (1.0 + a),
            "{context}: A {a}, exact mode {b}"
        ),
        (a, b) => assert_eq!(
            a.is_some(),
            b.is_some(),
            "{context}: A {a:?}, exact mode {b:?}"
        ),
    }
    if let (Some(a), Some(len)) = (bare, exact) {
        assert!(
            len >= a - EXACT,
            "{context}: {len} shorter than at radius 0, {a}"
        );
    }
}

#[test]
fn rectangle_fields_both_oracles_agree() {
    // The seed and count follow the property tests' rules (`PROPTEST_RNG_SEED`,
    // `PROPTEST_CASES`); the seed is printed, and each failure names its case's seed.
    let config = proptest_config(300);
    let RngSeed::Fixed(base) = config.rng_seed else {
        unreachable!("proptest_config fixes the seed")
    };
    let mut totals = Totals::default();
    for case in 0..u64::from(config.cases) {
        field_case(base.wrapping_add(case), &mut totals);
    }
    eprintln!("rectangle fields: {totals:?}");
    assert!(totals.cases * 10 >= config.cases as usize * 9, "{totals:?}");
    assert!(totals.reachable * 4 >= totals.cases, "{totals:?}");
    // The bracket is tight unless a gap's width lies within the arc tolerance of 2r.
    assert!(totals.tight * 100 >= totals.reachable * 95, "{totals:?}");
}

#[test]
fn grid_map_times() {
    let name = std::env::var("NAVSTAR_ORACLE_MAP").unwrap_or_else(|_| "arena".to_string());
    let r: f64 = std::env::var("NAVSTAR_ORACLE_RADIUS").map_or(0.5, |r| r.parse().unwrap());
    let path = Path::new(GRID_DIR).join(format!("{name}.map"));
    let map = parse_movingai_map(BufReader::new(File::open(&path).unwrap())).unwrap();
    let mesh = map.to_mesh(&MeshOptions::default()).unwrap();
    let scen = Path::new(GRID_DIR).join(format!("{name}.map.scen"));
    let problems = parse_scenario(BufReader::new(File::open(&scen).unwrap())).unwrap();
    let up = mesh.up_axis();

    let clock = Instant::now();
    let region = Region::from_mesh(&mesh, |_| true);
    let union = clock.elapsed();
    let clock = Instant::now();
    let eroded = region.erode(r);
    let erode = clock.elapsed();
    let clock = Instant::now();
    let oracle = VisibilityOracle::new(&eroded);
    let graph = clock.elapsed();
    let bare = VisibilityOracle::new(&region);

    let step = (problems.len() / 40).max(1);
    let (mut queries, mut unreachable, mut query_time) = (0, 0, std::time::Duration::ZERO);
    for (i, problem) in problems.iter().enumerate().step_by(step) {
        let s = up.ground(problem.grid_start()).as_dvec2();
        let t = up.ground(problem.grid_goal()).as_dvec2();
        let context = format!("{name} problem {i}: {s} -> {t}");
        let clock = Instant::now();
        let len = oracle.shortest(s, t);
        query_time += clock.elapsed();
        queries += 1;
        let zero = bare
            .shortest(s, t)
            .unwrap_or_else(|| panic!("{context}: no path at radius 0"));
        // navstar does not squeeze through the pinches of a grid map; the region does.
        let navstar = exact_mode_length(&mesh, s, t).expect("scenario problems are solvable");
        assert!(
            zero <= navstar + 1e-4,
            "{context}: A {zero}, exact mode {navstar}"
        );
        match len {
            Some(len) => assert!(
                len >= zero - 1e-9,
                "{context}: {len} at r = {r}, {zero} at 0"
            ),
            None => unreachable += 1,
        }
    }
    eprintln!(
        "{name} at r = {r}: {} polygons; union {union:?}, erosion {erode:?}, graph {graph:?} \
         ({} reflex corners, {} edges); {queries} queries in {query_time:?} ({:?} each), \
         {unreachable} unreachable",
        mesh.polygon_count(),
        oracle.corner_count(),
        oracle.edge_count(),
        query_time / queries.max(1),
    );
    assert!(queries > 0 && oracle.corner_count() > 0);
}
