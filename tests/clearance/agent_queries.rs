//! The other queries with an agent radius: nearest point, raycast, nearest target and
//! reachable polygons, against oracle B's wall distances and hand answers.

use glam::{DVec2, Vec3};
use navstar::{NavMesh, PathMode, PathOptions, Query, QueryFilter};

use crate::clearance_oracle::tangent::TangentOracle;
use crate::common::{Domain, Rng};
use crate::{d, scenes};

fn at(mesh: &NavMesh, q: DVec2) -> Vec3 {
    mesh.up_axis().place(q.as_vec2(), 0.0)
}

fn ground(mesh: &NavMesh, p: Vec3) -> DVec2 {
    mesh.up_axis().ground(p).as_dvec2()
}

/// The radius of the corners of the polygons drawn round a corner's circle.
fn outer(r: f64) -> f64 {
    r / (std::f64::consts::PI / navstar::ARC_SEGMENTS as f64).cos()
}

#[test]
fn nearest_points_fit_the_disc_and_are_nearest() {
    let config = crate::common::proptest_config(40);
    let proptest::test_runner::RngSeed::Fixed(base) = config.rng_seed else {
        unreachable!("proptest_config fixes the seed")
    };
    for case in 0..u64::from(config.cases) {
        let seed = base.wrapping_add(case);
        let mut rng = Rng(seed);
        let mesh = scenes::rectangle_field(&mut rng);
        let domain = Domain::new(&mesh);
        let r = 0.05 + 0.6 * f64::from(rng.unit());
        let oracle = TangentOracle::new(&domain, r);
        let wide = TangentOracle::new(&domain, outer(r) + 1e-6);
        let fits: Vec<DVec2> = (0..400)
            .map(|_| DVec2::new(f64::from(rng.unit()) * 10.0, f64::from(rng.unit()) * 8.0))
            .filter(|&q| wide.admissible(q))
            .collect();
        for _ in 0..10 {
            let q = DVec2::new(f64::from(rng.unit()) * 10.0, f64::from(rng.unit()) * 8.0);
            let context = format!("seed {seed}, r = {r}, {q}");
            let Ok(Some(near)) =
                mesh.nearest_point_for_agent(at(&mesh, q), f32::INFINITY, None, r as f32)
            else {
                // Nothing of the field fits the disc: no sample does either.
                assert!(fits.is_empty(), "{context}: no nearest point");
                continue;
            };
            let p = ground(&mesh, near.point);
            assert!(
                oracle.wall_distance(p) >= r - 1e-4,
                "{context}: {p} too close"
            );
            assert!(
                domain.polygon_contains(near.polygon as usize, p, 1e-4),
                "{context}"
            );
            let best = fits
                .iter()
                .map(|f| f.distance(q))
                .fold(f64::INFINITY, f64::min);
            assert!(
                p.distance(q) <= best + 1e-4,
                "{context}: {p} farther than a sample"
            );
            if wide.admissible(q) {
                assert!(p.distance(q) <= 1e-4, "{context}: {p} moved");
            }
        }
    }
}

#[test]
fn raycasts_stop_where_the_disc_touches() {
    let mesh = scenes::pillar_by_long_portal();
    let domain = Domain::new(&mesh);
    let filter = QueryFilter::default();
    let r = 0.5;
    let oracle = TangentOracle::new(&domain, r);
    // Up from below the pillar: the centre stops r below its bottom z = 5.2.
    let ray = mesh
        .raycast_for_agent(
            at(&mesh, d(10.0, 2.0)),
            at(&mesh, d(10.0, 9.0)),
            &filter,
            0.5,
        )
        .unwrap();
    let p = ground(&mesh, ray.point);
    assert!((p - d(10.0, 4.7)).length() < 1e-4, "{p}");
    let normal = ray.hit.unwrap().normal;
    assert!(
        normal.abs_diff_eq(Vec3::new(0.0, 0.0, -1.0), 1e-6),
        "{normal}"
    );
    assert!(domain.polygon_contains(ray.polygon as usize, p, 1e-4));
    // Rays in many directions: the walk keeps r from the walls and stops touching one.
    let mut rng = Rng(7);
    for _ in 0..200 {
        let s = d(f64::from(rng.unit()) * 20.0, f64::from(rng.unit()) * 10.0);
        let e = d(f64::from(rng.unit()) * 20.0, f64::from(rng.unit()) * 10.0);
        let ray = mesh
            .raycast_for_agent(at(&mesh, s), at(&mesh, e), &filter, r as f32)
            .unwrap();
        let p = ground(&mesh, ray.point);
        assert!(oracle.wall_distance(p) >= r - 1e-4, "{s} -> {e}: {p}");
        if ray.hit.is_some() {
            assert!(
                oracle.wall_distance(p) <= outer(r) + 1e-3,
                "{s} -> {e}: {p} hits nothing"
            );
        }
    }
}

#[test]
fn nearest_target_skips_targets_the_disc_cannot_reach() {
    // Start in the lower room; target 0 just through a door 0.8 wide, target 1 far in
    // the lower room. A point takes the door; a disc of radius 0.5 cannot.
    let mesh = scenes::door(0.8);
    let start = at(&mesh, d(2.0, 3.0));
    let targets = [at(&mesh, d(2.0, 5.5)), at(&mesh, d(3.5, 0.5))];
    let mut query = Query::new(&mesh);
    for mode in [PathMode::Funnel, PathMode::Optimal] {
        let point = PathOptions::default().with_mode(mode);
        assert_eq!(
            query
                .find_nearest_target(start, &targets, &point)
                .unwrap()
                .target,
            0
        );
        let disc = point.with_agent_radius(0.5);
        let nearest = query.find_nearest_target(start, &targets, &disc).unwrap();
        assert_eq!(nearest.target, 1, "{mode:?}");
        let end = *nearest.path.corners.last().unwrap();
        assert!(ground(&mesh, end).distance(d(3.5, 0.5)) < 1e-4, "{end}");
        assert!(query.corridor().all(|p| p == 0), "{mode:?}");
    }
    // No target reachable for a disc that does not fit through: the error as without
    // a radius.
    let disc = PathOptions::default().with_agent_radius(0.5);
    assert!(
        query
            .find_nearest_target(start, &targets[..1], &disc)
            .is_err()
    );
}

#[test]
fn reachable_polygons_are_those_the_disc_gets_into() {
    let mesh = scenes::door(0.8);
    let filter = QueryFilter::default();
    let mut query = Query::new(&mesh);
    let start = at(&mesh, d(2.0, 2.0));
    let listed = |reached: &[navstar::ReachedPolygon]| -> Vec<(u32, Option<u32>)> {
        reached.iter().map(|r| (r.polygon, r.parent)).collect()
    };
    // A disc of radius 0.3 gets through the door into the upper room.
    let small = query
        .reachable_polygons_for_agent(start, f32::INFINITY, &filter, f32::INFINITY, 0.3)
        .unwrap();
    assert_eq!(listed(small), [(0, None), (1, Some(0)), (2, Some(1))]);
    // One of radius 0.5 only pokes into the doorway, up to z = 4 - sqrt(0.5^2 - 0.4^2)
    // = 3.7: its centre never gets into the door polygon, which starts at z = 4.
    let large = query
        .reachable_polygons_for_agent(start, f32::INFINITY, &filter, f32::INFINITY, 0.5)
        .unwrap();
    assert_eq!(listed(large), [(0, None)]);
    // The costs are the disc centre's: from (2, 2) straight up into the door polygon.
    let small = query
        .reachable_polygons_for_agent(start, f32::INFINITY, &filter, f32::INFINITY, 0.3)
        .unwrap();
    assert!((small[1].cost - 2.0).abs() < 1e-4, "{}", small[1].cost);
    assert!(
        query
            .reachable_polygons_for_agent(start, 1.0, &filter, f32::INFINITY, f32::NAN)
            .is_err()
    );
}

#[test]
fn threads_share_the_cache_and_it_stays_bounded() {
    // Four threads ask for paths with 12 radii on one mesh at once: every answer is the
    // one a lone query gives, and at most 8 eroded copies are kept.
    let mesh = scenes::pillar_by_long_portal();
    let (s, t) = (at(&mesh, d(2.0, 5.0)), at(&mesh, d(18.0, 5.0)));
    let radii: Vec<f32> = (1..=12).map(|k| 0.05 * k as f32).collect();
    let alone: Vec<Vec<Vec3>> = radii
        .iter()
        .map(|&r| {
            let fresh = scenes::pillar_by_long_portal();
            let options = PathOptions::default().with_agent_radius(r);
            Query::new(&fresh)
                .find_path_vec(s, t, &options)
                .unwrap()
                .corners
        })
        .collect();
    std::thread::scope(|scope| {
        for k in 0..4 {
            let (mesh, radii, alone) = (&mesh, &radii, &alone);
            scope.spawn(move || {
                let mut query = Query::new(mesh);
                for round in 0..3 {
                    for i in 0..radii.len() {
                        let i = (i + 3 * k + round) % radii.len();
                        let options = PathOptions::default().with_agent_radius(radii[i]);
                        let path = query.find_path(s, t, &options).unwrap();
                        assert_eq!(path.corners, alone[i].as_slice(), "r = {}", radii[i]);
                    }
                }
            });
        }
    });
    let one = {
        let fresh = scenes::pillar_by_long_portal();
        let options = PathOptions::default().with_agent_radius(0.05);
        Query::new(&fresh).find_path(s, t, &options).unwrap();
        fresh.eroded_bytes()
    };
    assert!(mesh.eroded_bytes() > 0);
    assert!(
        mesh.eroded_bytes() <= 8 * 2 * one,
        "{} > 8 x {one}",
        mesh.eroded_bytes()
    );
}
