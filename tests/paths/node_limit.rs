//! The query's node limit (`Query::with_max_nodes`) and its memory that follows the
//! searches, not the mesh.

use glam::Vec3;
use navstar::{PathMode, PathOptions, PathStatus, Query};

use crate::common::{point_in_polygon, seeded_grid};

/// Whether consecutive polygons of `corridor` are neighbours on `mesh`.
fn is_walkable_corridor(mesh: &navstar::NavMesh, corridor: &[u32]) -> bool {
    corridor
        .windows(2)
        .all(|w| mesh.polygon_neighbours(w[0]).any(|n| n == Some(w[1])))
}

#[test]
fn a_search_cut_by_the_node_limit_returns_a_prefix_of_the_way_marked_as_such() {
    let mesh = seeded_grid(5, 40, 40).build();
    let start = Vec3::new(0.5, 0.0, 0.5);
    let goal = Vec3::new(39.5, 0.0, 39.5);
    let options = PathOptions::default();
    let mut free = Query::new(&mesh);
    let whole = free
        .find_path(start, goal, &options)
        .expect("a path")
        .status;
    assert_eq!(whole, PathStatus::Complete);
    assert!(!free.hit_node_limit());
    for mode in [PathMode::Funnel, PathMode::Optimal] {
        let mut options = PathOptions::default();
        options.mode = mode;
        for limit in [0, 1, 5, 30] {
            let mut query = Query::new(&mesh).with_max_nodes(limit);
            assert_eq!(query.max_nodes(), limit);
            let path = query
                .find_path(start, goal, &options)
                .expect("a partial path");
            assert_eq!(path.status, PathStatus::NodeLimit, "limit {limit}");
            assert!(path.status.is_partial());
            let corners = path.corners.to_vec();
            assert!(corners.len() >= 2);
            assert!(corners[0].distance(start) < 1e-4, "starts at the start");
            let end = corners[corners.len() - 1];
            assert!(end.distance(goal) > 1.0, "ends short of the goal: {end}");
            assert!(query.hit_node_limit());
            let corridor: Vec<u32> = query.corridor().collect();
            assert!(!corridor.is_empty());
            assert_eq!(
                corridor[0],
                mesh.nearest_point(start, 0.1, None).unwrap().polygon
            );
            assert!(is_walkable_corridor(&mesh, &corridor), "{corridor:?}");
            assert!(
                corridor.len() <= limit.max(1),
                "at most one polygon per node"
            );
            // The end lies in the corridor's last polygon.
            let last = corridor[corridor.len() - 1];
            assert!(mesh.closest_point_on_polygon(last, end).distance(end) < 1e-3);
            // Without partial paths the cut search is an error.
            let mut strict = options.clone();
            strict.allow_partial = false;
            assert!(query.find_path(start, goal, &strict).is_err());
        }
    }
}

#[test]
fn a_generous_limit_answers_as_no_limit() {
    for seed in 0..6 {
        let mesh = seeded_grid(100 + seed, 20, 20).build();
        let mut free = Query::new(&mesh);
        let mut bounded = Query::new(&mesh).with_max_nodes(100_000);
        let mut rng = seed as u32 * 7919 + 1;
        let mut unit = || {
            rng ^= rng << 13;
            rng ^= rng >> 17;
            rng ^= rng << 5;
            (rng % 10_000) as f32 / 10_000.0
        };
        for k in 0..60 {
            let (a, b) = (
                (unit() * mesh.polygon_count() as f32) as u32 % mesh.polygon_count(),
                (unit() * mesh.polygon_count() as f32) as u32 % mesh.polygon_count(),
            );
            let start = point_in_polygon(&mesh, a, unit(), unit(), unit());
            let goal = point_in_polygon(&mesh, b, unit(), unit(), unit());
            let mut options = PathOptions::default();
            if k % 2 == 1 {
                options.mode = PathMode::Optimal;
            }
            let one = free.find_path_vec(start, goal, &options);
            let two = bounded.find_path_vec(start, goal, &options);
            assert_eq!(one, two, "seed {seed}, pair {k}");
            assert!(!bounded.hit_node_limit());
        }
    }
}

#[test]
fn creating_a_query_costs_nothing_per_polygon() {
    let small = seeded_grid(1, 4, 4).build();
    let large = seeded_grid(1, 40, 40).build();
    assert!(large.polygon_count() >= 50 * small.polygon_count());
    let on_small = Query::new(&small);
    let mut on_large = Query::new(&large);
    assert_eq!(on_small.scratch_bytes(), 0);
    assert_eq!(on_large.scratch_bytes(), 0);
    // Searches grow it on demand: a short path touches a few nodes, a long one more.
    let options = PathOptions::default();
    on_large
        .find_path(Vec3::new(0.5, 0.0, 0.5), Vec3::new(3.5, 0.0, 2.5), &options)
        .expect("a short path");
    let short = on_large.scratch_bytes();
    on_large
        .find_path(
            Vec3::new(0.5, 0.0, 0.5),
            Vec3::new(39.5, 0.0, 39.5),
            &options,
        )
        .expect("a long path");
    assert!(on_large.scratch_bytes() >= short);
}
