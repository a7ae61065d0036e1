//! Random points: uniform by area over the admitted polygons (chi-square tests with fixed
//! seeds, over polygons and over parts of polygons), Detour's region around a point,
//! determinism for a seed, worlds of tiles.

use glam::Vec3;
use navstar::{NavMesh, Query, QueryError, QueryFilter, SplitMix64};

use super::world::{Map, cut};
use crate::common::{Soup, p};

/// A strip of four polygons of ground areas 1, 2, 3 and 6 (12 in all):
/// `[0,1]x[0,1]`, `[1,3]x[0,1]`, `[3,6]x[0,1]` and the pentagon `(6,0) (10,0) (10,1)
/// (8,2) (6,1)`: a 4 x 1 body under a roof of area 2.
fn strip() -> NavMesh {
    let mut soup = Soup::new();
    soup.polygon_at(&[p(0., 0.), p(1., 0.), p(1., 1.), p(0., 1.)]);
    soup.polygon_at(&[p(1., 0.), p(3., 0.), p(3., 1.), p(1., 1.)]);
    soup.polygon_at(&[p(3., 0.), p(6., 0.), p(6., 1.), p(3., 1.)]);
    soup.polygon_at(&[p(6., 0.), p(10., 0.), p(10., 1.), p(8., 2.), p(6., 1.)]);
    soup.build()
}

/// The part of the strip a point is in, with the area of each part: the first square,
/// the two halves of the second, the third, the pentagon's body and its roof.
const PARTS: [f64; 6] = [1.0, 1.0, 1.0, 3.0, 4.0, 2.0];

fn part(point: Vec3) -> usize {
    match (point.x, point.z) {
        (x, _) if x < 1.0 => 0,
        (x, _) if x < 2.0 => 1,
        (x, _) if x < 3.0 => 2,
        (x, _) if x < 6.0 => 3,
        (_, z) if z <= 1.0 => 4,
        _ => 5,
    }
}

/// Pearson's chi-square statistic of `counts` against expectations proportional to
/// `weights` (parts of weight 0 must stay empty).
fn chi_square(counts: &[u32], weights: &[f64]) -> f64 {
    let n: u32 = counts.iter().sum();
    let total: f64 = weights.iter().sum();
    let mut statistic = 0.0;
    for (&count, &weight) in counts.iter().zip(weights) {
        if weight == 0.0 {
            assert_eq!(count, 0, "a part of no weight got points: {counts:?}");
            continue;
        }
        let expected = f64::from(n) * weight / total;
        statistic += (f64::from(count) - expected).powi(2) / expected;
    }
    statistic
}

/// The chi-square critical values at p = 0.001 by degrees of freedom (1 to 5).
const CRITICAL: [f64; 5] = [10.83, 13.82, 16.27, 18.47, 20.52];

/// Checks the points are on their polygons and counts them per part.
fn count(mesh: &NavMesh, points: impl Iterator<Item = navstar::RandomPoint>) -> [u32; 6] {
    let mut counts = [0u32; 6];
    for point in points {
        let on = mesh.closest_point_on_polygon(point.polygon, point.point);
        assert!(
            on.distance(point.point) < 1e-5,
            "{point:?} is off its polygon"
        );
        counts[part(point.point)] += 1;
    }
    counts
}

#[test]
fn points_over_the_mesh_are_uniform_by_area() {
    let mesh = strip();
    let mut rng = SplitMix64::new(2024);
    let filter = QueryFilter::default();
    let draws = (0..24_000).map(|_| mesh.random_point(&filter, &mut || rng.next_u64()).unwrap());
    let counts = count(&mesh, draws);
    let statistic = chi_square(&counts, &PARTS);
    assert!(
        statistic < CRITICAL[4],
        "chi-square {statistic} for {counts:?}"
    );

    // Refusing the third polygon: it gets nothing, the rest keep their proportions.
    mesh.set_polygon_flags(2, 0b10).unwrap();
    let ones = QueryFilter::default().with_include_flags(0b01);
    let draws = (0..24_000).map(|_| mesh.random_point(&ones, &mut || rng.next_u64()).unwrap());
    let counts = count(&mesh, draws);
    let weights = [1.0, 1.0, 1.0, 0.0, 4.0, 2.0];
    let statistic = chi_square(&counts, &weights);
    assert!(
        statistic < CRITICAL[3],
        "chi-square {statistic} for {counts:?}"
    );
    // The other filters: only the refused polygon, then nothing.
    let twos = QueryFilter::default().with_include_flags(0b10);
    let only = mesh.random_point(&twos, &mut || rng.next_u64()).unwrap();
    assert_eq!(only.polygon, 2);
    let none = QueryFilter::default().with_exclude_flags(0b11);
    assert_eq!(
        mesh.random_point(&none, &mut || rng.next_u64()),
        Err(QueryError::NoAdmittedArea)
    );
}

#[test]
fn a_seed_gives_the_same_points_and_four_draws_each() {
    let mesh = strip();
    let filter = QueryFilter::default();
    let run = |seed: u64| {
        let mut rng = SplitMix64::new(seed);
        let points: Vec<_> = (0..50)
            .map(|_| mesh.random_point(&filter, &mut || rng.next_u64()).unwrap())
            .collect();
        (points, rng)
    };
    let (a, after) = run(9);
    let (b, _) = run(9);
    let (c, _) = run(10);
    assert_eq!(a, b);
    assert_ne!(a, c);
    let mut counted = SplitMix64::new(9);
    for _ in 0..200 {
        counted.next_u64();
    }
    assert_eq!(after, counted, "50 points take 200 draws");
}

#[test]
fn points_around_a_point_follow_detours_region() {
    let mesh = strip();
    let mut query = Query::new(&mesh);
    let filter = QueryFilter::default();
    let mut rng = SplitMix64::new(77);
    // Within 0.6 of (0.5, 0.5): the portal x = 1 is 0.5 away, x = 3 is 2.5 away. The
    // region is squares 0 and 1, drawn 1 : 2 by area, the second wholly, though most of
    // it lies outside the circle.
    let mut draw = |radius: f32, query: &mut Query| {
        let draws: Vec<_> = (0..12_000)
            .map(|_| {
                query
                    .random_point_around(p(0.5, 0.5), radius, &filter, &mut || rng.next_u64())
                    .unwrap()
            })
            .collect();
        count(&mesh, draws.into_iter())
    };
    let counts = draw(0.6, &mut query);
    let statistic = chi_square(&counts, &[1.0, 1.0, 1.0, 0.0, 0.0, 0.0]);
    assert!(
        statistic < CRITICAL[1],
        "chi-square {statistic} for {counts:?}"
    );
    // Radius 2.5 reaches the portal x = 3 exactly (it is included); x = 6 is out.
    let counts = draw(2.5, &mut query);
    let statistic = chi_square(&counts, &[1.0, 1.0, 1.0, 3.0, 0.0, 0.0]);
    assert!(
        statistic < CRITICAL[2],
        "chi-square {statistic} for {counts:?}"
    );
    // Radius 0: the center's polygon alone.
    let counts = draw(0.0, &mut query);
    assert_eq!(counts, [12_000, 0, 0, 0, 0, 0]);
    // A refused polygon stops the region: with square 1 closed, only square 0 is left.
    mesh.set_polygon_flags(1, 0).unwrap();
    let counts = draw(f32::INFINITY, &mut query);
    assert_eq!(counts, [12_000, 0, 0, 0, 0, 0]);
    for radius in [f32::NAN, -0.5] {
        assert!(matches!(
            query.random_point_around(p(0.5, 0.5), radius, &filter, &mut || 0),
            Err(QueryError::InvalidOption(_))
        ));
    }
    assert!(matches!(
        query.random_point_around(Vec3::NAN, 1.0, &filter, &mut || 0),
        Err(QueryError::NonFinitePoint(_))
    ));
}

#[test]
fn points_on_a_world_snapshot_are_uniform_over_its_tiles() {
    let map = Map::random(5, 20, 12);
    let (world, _) = cut(&map, &[7, 13], &[6]);
    let snapshot = world.snapshot();
    let walkable = |x0: u32, x1: u32| {
        (0..map.height)
            .flat_map(|z| (x0..x1).map(move |x| (x, z)))
            .filter(|&(x, z)| map.at(x, z))
            .count() as f64
    };
    let weights = [walkable(0, 7), walkable(7, 13), walkable(13, 20)];
    let mut rng = SplitMix64::new(3);
    let filter = QueryFilter::default();
    let mut counts = [0u32; 3];
    for _ in 0..20_000 {
        let point = snapshot
            .random_point(&filter, &mut || rng.next_u64())
            .unwrap();
        assert!(snapshot.contains_polygon(point.polygon));
        let (x, z) = (point.point.x.floor() as u32, point.point.z.floor() as u32);
        assert!(
            map.at(x.min(map.width - 1), z.min(map.height - 1)),
            "{point:?}"
        );
        counts[usize::from(point.point.x >= 7.0) + usize::from(point.point.x >= 13.0)] += 1;
    }
    let statistic = chi_square(&counts, &weights);
    assert!(
        statistic < CRITICAL[1],
        "chi-square {statistic} for {counts:?}"
    );
}
