//! The moving queries with an agent radius (issue 17): moving along the surface, the
//! distance to the nearest wall and random points, on a 10 x 10 room by hand and on
//! random rectangle fields against oracle B's wall distances.

use glam::{DVec2, Vec3};
use navstar::{MeshOptions, NavMesh, Query, QueryFilter, SplitMix64};

use crate::clearance_oracle::tangent::TangentOracle;
use crate::common::{Domain, Rng};
use crate::radius::outer;
use crate::scenes;

fn v(x: f32, z: f32) -> Vec3 {
    Vec3::new(x, 0.0, z)
}

/// The room `[0, 10]^2` (y up) as four 5 x 5 squares: 0 at the origin, 1 to its right
/// (+x), 2 above it (+z), 3 diagonal.
fn room() -> NavMesh {
    let mut vertices = Vec::new();
    for z in 0..3 {
        for x in 0..3 {
            vertices.push(v(5.0 * x as f32, 5.0 * z as f32));
        }
    }
    let square = |x: u32, z: u32| {
        let i = z * 3 + x;
        [i, i + 1, i + 4, i + 3]
    };
    let indices: Vec<u32> = [(0, 0), (1, 0), (0, 1), (1, 1)]
        .iter()
        .flat_map(|&(x, z)| square(x, z))
        .collect();
    NavMesh::from_polygons(&vertices, &indices, &[4; 4], &MeshOptions::default()).unwrap()
}

fn ground(mesh: &NavMesh, p: Vec3) -> DVec2 {
    mesh.up_axis().ground(p).as_dvec2()
}

fn at(mesh: &NavMesh, q: DVec2) -> Vec3 {
    mesh.up_axis().place(q.as_vec2(), 0.0)
}

#[test]
fn a_move_towards_a_wall_stops_one_short_and_slides() {
    let mesh = room();
    let filter = QueryFilter::default();
    let mut visited = Vec::new();
    // Straight at the wall z = 10 from the centre: the disc stops at z = 9.
    let moved = mesh
        .move_along_surface_for_agent(
            Some(0),
            v(5.0, 5.0),
            v(5.0, 14.0),
            &filter,
            1.0,
            &mut visited,
        )
        .unwrap();
    assert!(moved.point.distance(v(5.0, 9.0)) < 1e-4, "{moved:?}");
    assert_eq!(moved.walls, 1);
    assert!(moved.polygon == 2 || moved.polygon == 3, "{moved:?}");
    // Original polygons only, the start's first, none twice in a row.
    assert_eq!(visited.first(), Some(&0));
    assert_eq!(visited.last(), Some(&moved.polygon));
    assert!(visited.iter().all(|&p| p < 4), "{visited:?}");
    assert!(visited.windows(2).all(|w| w[0] != w[1]), "{visited:?}");
    // Aimed past the wall at an angle: stops at z = 9 and slides along it to x = 8.
    let moved = mesh
        .move_along_surface_for_agent(
            Some(0),
            v(2.0, 2.0),
            v(8.0, 14.0),
            &filter,
            1.0,
            &mut visited,
        )
        .unwrap();
    assert!(moved.point.distance(v(8.0, 9.0)) < 1e-4, "{moved:?}");
    assert_eq!((moved.polygon, moved.walls), (3, 1));
    assert_eq!(visited.first(), Some(&0));
    assert_eq!(visited.last(), Some(&3));
    // Into the corner (10, 10): stops at (9, 9).
    let moved = mesh
        .move_along_surface_for_agent(
            Some(0),
            v(5.0, 5.0),
            v(15.0, 13.0),
            &filter,
            1.0,
            &mut visited,
        )
        .unwrap();
    assert!(moved.point.distance(v(9.0, 9.0)) < 1e-4, "{moved:?}");
    assert_eq!(moved.polygon, 3);
    // A start inside the wall band moves out first: (0.3, 5) -> (1, 5).
    let moved = mesh
        .move_along_surface_for_agent(
            Some(0),
            v(0.3, 5.0),
            v(0.3, 5.0),
            &filter,
            1.0,
            &mut visited,
        )
        .unwrap();
    assert!(moved.point.distance(v(1.0, 5.0)) < 1e-4, "{moved:?}");
    // Radius 0 is the plain move.
    let mut plain = Vec::new();
    let moved = mesh
        .move_along_surface_for_agent(
            Some(0),
            v(2.0, 2.0),
            v(8.0, 14.0),
            &filter,
            0.0,
            &mut visited,
        )
        .unwrap();
    let expected = mesh
        .move_along_surface(Some(0), v(2.0, 2.0), v(8.0, 14.0), &filter, &mut plain)
        .unwrap();
    assert_eq!((moved, &visited), (expected, &plain));
}

#[test]
fn a_closed_polygon_is_a_wall_for_the_disc() {
    let mesh = room();
    // Square 1 (x 5..10, z 0..5) closed: from (2.5, 2.5) towards +x, the disc stops at
    // x = 4.
    mesh.set_polygon_flags(1, 0).unwrap();
    let filter = QueryFilter::default();
    let mut visited = Vec::new();
    let moved = mesh
        .move_along_surface_for_agent(
            Some(0),
            v(2.5, 2.5),
            v(9.0, 2.5),
            &filter,
            1.0,
            &mut visited,
        )
        .unwrap();
    assert!(moved.point.distance(v(4.0, 2.5)) < 1e-4, "{moved:?}");
    assert_eq!(visited, [0]);
    let wall = Query::new(&mesh)
        .distance_to_wall_for_agent(v(2.5, 2.5), f32::INFINITY, &filter, 1.0)
        .unwrap()
        .unwrap();
    // The bands along the walls are drawn 1e-6 of the largest coordinate wider.
    assert!((wall.distance - 1.5).abs() < 1e-4, "{wall:?}");
    // The closed square refuses a start there.
    let refused = mesh.move_along_surface_for_agent(
        Some(1),
        v(7.0, 2.0),
        v(7.0, 3.0),
        &filter,
        1.0,
        &mut visited,
    );
    assert!(
        matches!(
            refused,
            Err(navstar::QueryError::RefusedPolygon { polygon: 1, .. })
        ),
        "{refused:?}"
    );
}

#[test]
fn bad_radii_and_points_are_refused() {
    let mesh = room();
    let filter = QueryFilter::default();
    let mut query = Query::new(&mesh);
    let mut visited = Vec::new();
    let mut rng = SplitMix64::new(1);
    for r in [f32::NAN, f32::INFINITY, -1.0] {
        let is_bad = |e: navstar::QueryError| matches!(e, navstar::QueryError::InvalidOption(m) if m.contains("agent_radius"));
        assert!(is_bad(
            mesh.move_along_surface_for_agent(
                None,
                v(5.0, 5.0),
                v(6.0, 5.0),
                &filter,
                r,
                &mut visited
            )
            .unwrap_err()
        ));
        assert!(is_bad(
            query
                .distance_to_wall_for_agent(v(5.0, 5.0), 1.0, &filter, r)
                .unwrap_err()
        ));
        assert!(is_bad(
            mesh.random_point_for_agent(&filter, r, &mut || rng.next_u64())
                .unwrap_err()
        ));
        assert!(is_bad(
            query
                .random_point_around_for_agent(v(5.0, 5.0), 1.0, &filter, r, &mut || rng.next_u64())
                .unwrap_err()
        ));
    }
    assert!(
        query
            .distance_to_wall_for_agent(v(5.0, 5.0), -1.0, &filter, 1.0)
            .is_err()
    );
    assert!(
        mesh.move_along_surface_for_agent(
            Some(9),
            v(5.0, 5.0),
            v(6.0, 5.0),
            &filter,
            1.0,
            &mut visited
        )
        .is_err()
    );
    assert!(
        mesh.move_along_surface_for_agent(
            None,
            v(f32::NAN, 5.0),
            v(6.0, 5.0),
            &filter,
            1.0,
            &mut visited
        )
        .is_err()
    );
    // A disc wider than the room fits nowhere.
    assert!(matches!(
        mesh.random_point_for_agent(&filter, 5.5, &mut || rng.next_u64()),
        Err(navstar::QueryError::ClearanceUnavailable(_))
    ));
}

#[test]
fn the_wall_is_four_from_the_centre() {
    let mesh = room();
    let filter = QueryFilter::default();
    let mut query = Query::new(&mesh);
    let wall = query
        .distance_to_wall_for_agent(v(5.0, 5.0), f32::INFINITY, &filter, 1.0)
        .unwrap()
        .unwrap();
    // The bands along the walls are drawn 1e-6 of the largest coordinate wider.
    assert!((wall.distance - 4.0).abs() < 1e-4, "{wall:?}");
    let g = ground(&mesh, wall.point);
    // On the eroded boundary: one of the lines x or z = 1 or 9, 4 from the centre.
    assert!(
        [g.x, g.y]
            .iter()
            .any(|&c| (c - 1.0).abs() < 1e-4 || (c - 9.0).abs() < 1e-4),
        "{wall:?}"
    );
    assert!((g.distance(DVec2::splat(5.0)) - 4.0).abs() < 1e-4);
    // The normal points back into the region, towards the centre.
    let inward = (DVec2::splat(5.0) - g).normalize();
    assert!(ground(&mesh, wall.normal).dot(inward) > 0.999, "{wall:?}");
    // Within a search radius below 4 there is none.
    assert_eq!(
        query
            .distance_to_wall_for_agent(v(5.0, 5.0), 3.9, &filter, 1.0)
            .unwrap(),
        None
    );
    // At (8, 3): the eroded boundary x = 9 is 1 away, in square 1.
    let wall = query
        .distance_to_wall_for_agent(v(8.0, 3.0), f32::INFINITY, &filter, 1.0)
        .unwrap()
        .unwrap();
    assert!((wall.distance - 1.0).abs() < 1e-5, "{wall:?}");
    assert!(wall.point.distance(v(9.0, 3.0)) < 1e-5, "{wall:?}");
    assert_eq!(wall.polygon, 1);
    assert_eq!(wall.normal, Vec3::new(-1.0, 0.0, 0.0));
    // Radius 0 is the plain query.
    assert_eq!(
        query
            .distance_to_wall_for_agent(v(8.0, 3.0), 5.0, &filter, 0.0)
            .unwrap(),
        query.distance_to_wall(v(8.0, 3.0), 5.0, &filter).unwrap()
    );
}

/// Pearson's chi-square of `counts` against equal expected counts.
fn chi_square(counts: &[u32]) -> f64 {
    let total: u32 = counts.iter().sum();
    let expected = f64::from(total) / counts.len() as f64;
    counts
        .iter()
        .map(|&c| (f64::from(c) - expected).powi(2) / expected)
        .sum()
}

/// Counts `n` points of `draw` in the 4 x 4 cells of `[1, 9]^2`, checking each lies there.
fn cell_counts(
    mesh: &NavMesh,
    n: usize,
    mut draw: impl FnMut() -> navstar::RandomPoint,
) -> Vec<u32> {
    let mut counts = vec![0u32; 16];
    for _ in 0..n {
        let p = draw();
        let g = ground(mesh, p.point);
        assert!(
            (1.0..=9.0).contains(&g.x) && (1.0..=9.0).contains(&g.y),
            "{p:?} outside [1, 9]^2"
        );
        assert!(
            mesh.polygon_vertices(p.polygon).iter().all(|&i| {
                let c = ground(mesh, mesh.vertices()[i as usize]);
                (c.x - g.x).abs() <= 5.0 + 1e-5 && (c.y - g.y).abs() <= 5.0 + 1e-5
            }),
            "{p:?}: not its polygon"
        );
        let cell = |c: f64| (((c - 1.0) / 2.0) as usize).min(3);
        counts[cell(g.y) * 4 + cell(g.x)] += 1;
    }
    counts
}

#[test]
fn random_points_are_uniform_over_where_the_disc_fits() {
    let mesh = room();
    let filter = QueryFilter::default();
    // 15 degrees of freedom: 37.70 is the 0.999 quantile. Fixed seeds, so the test is
    // deterministic; a biased draw (the whole room, or by polygon count) fails it far.
    const LIMIT: f64 = 37.70;
    let mut rng = SplitMix64::new(2026);
    let counts = cell_counts(&mesh, 16_000, || {
        mesh.random_point_for_agent(&filter, 1.0, &mut || rng.next_u64())
            .unwrap()
    });
    assert!(chi_square(&counts) < LIMIT, "{counts:?}");
    let mut query = Query::new(&mesh);
    let counts = cell_counts(&mesh, 16_000, || {
        query
            .random_point_around_for_agent(v(0.5, 0.5), f32::INFINITY, &filter, 1.0, &mut || {
                rng.next_u64()
            })
            .unwrap()
    });
    assert!(chi_square(&counts) < LIMIT, "{counts:?}");
    // Radius 0: the plain draws, the same for a seed.
    let (mut a, mut b) = (SplitMix64::new(9), SplitMix64::new(9));
    for _ in 0..20 {
        assert_eq!(
            mesh.random_point_for_agent(&filter, 0.0, &mut || a.next_u64())
                .unwrap(),
            mesh.random_point(&filter, &mut || b.next_u64()).unwrap()
        );
    }
}

#[test]
fn random_points_around_stay_within_walking_reach() {
    // Two rooms joined by a door 1 wide: a disc of radius 0.75 cannot pass it, so the
    // points around a centre in one room all fall in that room.
    let mesh = scenes::door(1.0);
    let filter = QueryFilter::default();
    let mut query = Query::new(&mesh);
    let mut rng = SplitMix64::new(4);
    let start = at(&mesh, DVec2::new(2.0, 2.0));
    for _ in 0..200 {
        let p = query
            .random_point_around_for_agent(start, f32::INFINITY, &filter, 0.75, &mut || {
                rng.next_u64()
            })
            .unwrap();
        assert!(ground(&mesh, p.point).y < 4.0, "{p:?} beyond the door");
    }
    // A disc of radius 0.25 passes: some points fall beyond it.
    let beyond = (0..200)
        .filter(|_| {
            let p = query
                .random_point_around_for_agent(start, f32::INFINITY, &filter, 0.25, &mut || {
                    rng.next_u64()
                })
                .unwrap();
            ground(&mesh, p.point).y > 4.5
        })
        .count();
    assert!(beyond > 0);
}

#[test]
fn answers_keep_the_radius_from_every_wall_on_random_fields() {
    let config = crate::common::proptest_config(30);
    let proptest::test_runner::RngSeed::Fixed(base) = config.rng_seed else {
        unreachable!("proptest_config fixes the seed")
    };
    let filter = QueryFilter::default();
    for case in 0..u64::from(config.cases) {
        let seed = base.wrapping_add(case);
        let mut rng = Rng(seed);
        let mesh = scenes::rectangle_field(&mut rng);
        let domain = Domain::new(&mesh);
        let r = 0.05 + 0.6 * f64::from(rng.unit());
        let oracle = TangentOracle::new(&domain, r);
        let mut query = Query::new(&mesh);
        let mut draws = SplitMix64::new(seed);
        let mut visited = Vec::new();
        let clear = |p: Vec3, what: &str| {
            let g = ground(&mesh, p);
            let gap = oracle.wall_distance(g);
            assert!(
                gap >= r - 1e-3,
                "seed {seed}, r = {r}: {what} {g} is {gap} from a wall"
            );
        };
        if mesh
            .random_point_for_agent(&filter, r as f32, &mut || draws.next_u64())
            .is_err()
        {
            // Nothing of the field fits the disc.
            continue;
        }
        for _ in 0..10 {
            let p = mesh
                .random_point_for_agent(&filter, r as f32, &mut || draws.next_u64())
                .unwrap();
            clear(p.point, "the random point");
            assert!(domain.polygon_contains(p.polygon as usize, ground(&mesh, p.point), 1e-4));
            let around = query
                .random_point_around_for_agent(p.point, 2.0, &filter, r as f32, &mut || {
                    draws.next_u64()
                })
                .unwrap();
            clear(around.point, "the point around");
            let q = DVec2::new(f64::from(rng.unit()) * 10.0, f64::from(rng.unit()) * 8.0);
            let target = at(&mesh, q);
            let moved = mesh
                .move_along_surface_for_agent(
                    Some(p.polygon),
                    p.point,
                    target,
                    &filter,
                    r as f32,
                    &mut visited,
                )
                .unwrap();
            clear(moved.point, "the move's end");
            let end = ground(&mesh, moved.point);
            assert!(domain.polygon_contains(moved.polygon as usize, end, 1e-4));
            assert_eq!(visited.first(), Some(&p.polygon), "seed {seed}");
            assert_eq!(visited.last(), Some(&moved.polygon), "seed {seed}");
            // Never farther than the straight distance.
            let walked = end.distance(ground(&mesh, p.point));
            assert!(walked <= q.distance(ground(&mesh, p.point)) + 1e-4);
            // The wall distance from the random point: the original one less r, up to
            // the corners' polygons (at most `r / cos(pi / ARC_SEGMENTS) - r` nearer).
            let wall = query
                .distance_to_wall_for_agent(p.point, f32::INFINITY, &filter, r as f32)
                .unwrap()
                .expect("a room has walls");
            let expected = oracle.wall_distance(ground(&mesh, p.point)) - r;
            let got = f64::from(wall.distance);
            assert!(
                got <= expected + 1e-4 && got >= expected - (outer(r) - r) - 1e-4,
                "seed {seed}, r = {r}: wall distance {got}, expected {expected}"
            );
            clear(wall.point, "the wall point");
        }
    }
}

#[test]
fn corridor_corners_keep_the_radius_from_a_convex_corner() {
    // The L turn round the corner (8, 2): the corridor of a path for the disc, its
    // corners round the corner's circle, every leg clear of the walls by r.
    let mesh = scenes::l_turn();
    let domain = Domain::new(&mesh);
    let (s, t) = (DVec2::new(1.0, 1.0), DVec2::new(9.0, 9.0));
    for r in [0.25f32, 0.5, 0.9] {
        let oracle = TangentOracle::new(&domain, f64::from(r));
        let mut query = Query::new(&mesh);
        let options = navstar::PathOptions::default().with_agent_radius(r);
        query
            .find_path(at(&mesh, s), at(&mesh, t), &options)
            .unwrap();
        let polygons: Vec<u32> = query.corridor().collect();
        let start = mesh
            .nearest_point(at(&mesh, s), f32::INFINITY, None)
            .unwrap();
        let mut corridor = navstar::PathCorridor::new(&mesh, start.polygon, at(&mesh, s)).unwrap();
        corridor.set_corridor(at(&mesh, t), &polygons).unwrap();
        let plain = corridor.corners(64).to_vec();
        assert_eq!(plain.len(), 2, "r = 0: one corner, (8, 2), then the target");
        corridor.set_agent_radius(r).unwrap();
        assert_eq!(corridor.agent_radius(), r);
        let corners = corridor.corners(64).to_vec();
        // More corners than at r = 0: the turn round the corner's polygon.
        assert!(corners.len() > plain.len(), "r = {r}: {corners:?}");
        assert!(corners.last().unwrap().distance(at(&mesh, t)) < 1e-4);
        let mut from = s;
        let mut length = 0.0;
        for c in &corners {
            let to = ground(&mesh, *c);
            for k in 0..=20 {
                let q = from.lerp(to, f64::from(k) / 20.0);
                let gap = oracle.wall_distance(q);
                assert!(
                    gap >= f64::from(r) - 1e-4,
                    "r = {r}: {q} on {from} -> {to} is {gap} from a wall"
                );
            }
            length += from.distance(to);
            from = to;
        }
        // The exact shortest length for the disc, and the arc's chords' excess.
        let exact = oracle.shortest(s, t).unwrap();
        let excess = navstar::ARC_LENGTH_EXCESS * std::f64::consts::PI * f64::from(r);
        assert!(
            length >= exact - 1e-4 && length <= exact + excess + 1e-3,
            "r = {r}: length {length}, exact {exact}"
        );
        // A move into the wall z = 0 stops r short of it.
        corridor
            .move_position(at(&mesh, DVec2::new(1.5, -3.0)), &QueryFilter::default())
            .unwrap();
        assert!((ground(&mesh, corridor.position()).y - f64::from(r)).abs() < 1e-4);
    }
    // Bad radii are refused and change nothing.
    let mut corridor = navstar::PathCorridor::new(&mesh, 0, at(&mesh, s)).unwrap();
    for r in [f32::NAN, -1.0, f32::INFINITY] {
        assert!(corridor.set_agent_radius(r).is_err());
    }
    assert!(matches!(
        corridor.set_agent_radius(1.5),
        Err(navstar::QueryError::ClearanceUnavailable(_))
    ));
    assert_eq!(corridor.agent_radius(), 0.0);
}
