//! The exact mode's corridor: the polygons its path crosses, start polygon first, each
//! the neighbour of the one before. Checked by following it: the shortest way through
//! the corridor ([`PathCorridor::corners`], the funnel over its portals) must be the
//! exact path itself (any polygon missed would make the funnel's way longer, any wrong
//! one could not make it shorter than the shortest path).

use std::fs::File;
use std::io::BufReader;
use std::path::Path;

use glam::Vec3;
use navstar::io::parse_movingai_map;
use navstar::{MeshOptions, NavMesh, PathCorridor, PathOptions, PathStatus, Query};

use crate::common::{Rng, ground_length};
use crate::exact::{GRID_DIR, MESH_DIR, random_mesh, random_point, read_polyanya, read_scenario};
use crate::optimal;

/// Checks the corridor of the last path `query` found (from `corners[0]` to its last
/// corner, `length` long in the ground plane) as the module says.
fn check_corridor(mesh: &NavMesh, query: &Query, corners: &[Vec3], length: f64, context: &str) {
    let corridor: Vec<u32> = query.corridor().collect();
    assert!(!corridor.is_empty(), "{context}: no corridor");
    let (first, last) = (corners[0], corners[corners.len() - 1]);
    let tolerance = 1e-4 * first.abs().max(last.abs()).max_element().max(1.0);
    let held = |polygon: u32, point: Vec3| {
        mesh.closest_point_on_polygon(polygon, point)
            .distance(point)
            <= tolerance
    };
    assert!(
        held(corridor[0], first),
        "{context}: {corridor:?} does not start at {first}"
    );
    assert!(
        held(*corridor.last().unwrap(), last),
        "{context}: {corridor:?} does not end at {last}"
    );
    let mut follow = PathCorridor::new(mesh, corridor[0], first).unwrap();
    follow
        .set_corridor(last, &corridor)
        .unwrap_or_else(|e| panic!("{context}: {corridor:?}: {e}"));
    let mut walked = vec![follow.position()];
    walked.extend_from_slice(follow.corners(usize::MAX));
    let pulled = ground_length(mesh.up_axis(), &walked);
    assert!(
        (pulled - length).abs() <= 1e-4 * length.max(1.0),
        "{context}: the funnel through the corridor {corridor:?} is {pulled} long, the exact path {length}: {corners:?} vs {walked:?}"
    );
}

/// Finds the exact path from `s` to `t` and checks its corridor when it is complete;
/// returns whether it was.
fn exact_and_corridor(mesh: &NavMesh, query: &mut Query, s: Vec3, t: Vec3, context: &str) -> bool {
    let path = query
        .find_path(s, t, &optimal())
        .unwrap_or_else(|e| panic!("{context}: {e}"));
    if path.status != PathStatus::Complete {
        return false;
    }
    let corners = path.corners.to_vec();
    let length = ground_length(mesh.up_axis(), &corners);
    check_corridor(mesh, query, &corners, length, context);
    true
}

#[test]
fn the_exact_corridor_leads_the_funnel_along_the_exact_path_on_random_meshes() {
    let mut rng = Rng(0x5eed_c0de);
    let mut checked = 0;
    for m in 0..1500 {
        let Some(mesh) = random_mesh(&mut rng) else {
            continue;
        };
        let mut query = Query::new(&mesh);
        for q in 0..4 {
            let (s, t) = (random_point(&mesh, &mut rng), random_point(&mesh, &mut rng));
            let context = format!("mesh {m} query {q}: {s} -> {t}");
            checked += usize::from(exact_and_corridor(&mesh, &mut query, s, t, &context));
        }
    }
    assert!(checked > 3000, "only {checked} complete paths checked");
}

#[test]
fn the_exact_corridor_on_the_benchmark_maps() {
    for name in ["den520d", "Berlin_0_256", "den312d"] {
        let path = Path::new(GRID_DIR).join(format!("{name}.map"));
        let map = parse_movingai_map(BufReader::new(File::open(&path).unwrap())).unwrap();
        let mesh = map.to_mesh(&MeshOptions::default()).unwrap();
        let problems = read_scenario(&Path::new(GRID_DIR).join(format!("{name}.map.scen")));
        let mut query = Query::new(&mesh);
        for (i, problem) in problems.iter().enumerate().step_by(3) {
            let context = format!("{name} problem {i}");
            let (s, t) = (problem.grid_start(), problem.grid_goal());
            assert!(
                exact_and_corridor(&mesh, &mut query, s, t, &context),
                "{context}"
            );
        }
    }
    let mesh = read_polyanya(&Path::new(MESH_DIR).join("scene_mp_2p_01.mesh"));
    let problems = read_scenario(&Path::new(MESH_DIR).join("scene_mp_2p_01.mesh.scen"));
    let mut query = Query::new(&mesh);
    for (i, problem) in problems.iter().enumerate().step_by(5) {
        let context = format!("scene_mp_2p_01 problem {i}");
        let (s, t) = (problem.mesh_start(), problem.mesh_goal());
        assert!(
            exact_and_corridor(&mesh, &mut query, s, t, &context),
            "{context}"
        );
    }
}

/// A start and a goal in sight of each other: the straight path's corridor is the
/// polygons under it.
#[test]
fn a_straight_exact_path_has_the_polygons_under_it() {
    let mut rng = Rng(0x57a1);
    for m in 0..300 {
        let Some(mesh) = random_mesh(&mut rng) else {
            continue;
        };
        let mut query = Query::new(&mesh);
        let s = random_point(&mesh, &mut rng);
        let Some(hit) = mesh
            .raycast(
                s,
                random_point(&mesh, &mut rng),
                &PathOptions::default().filter,
            )
            .ok()
        else {
            continue;
        };
        let context = format!("mesh {m}: {s} -> {}", hit.point);
        let path = query.find_path(s, hit.point, &optimal()).unwrap();
        if path.corners.len() == 2 && path.status == PathStatus::Complete {
            let corners = path.corners.to_vec();
            let length = ground_length(mesh.up_axis(), &corners);
            check_corridor(&mesh, &query, &corners, length, &context);
        }
    }
}

/// On a world of tiles the walk crosses seams (vertices matched by position): the
/// snapshot's corridor leads the funnel along the exact path as on one piece.
#[test]
fn the_exact_corridor_crosses_tile_seams() {
    let map = crate::world::Map::random(0xc0_441d, 40, 30);
    let (world, _) = crate::world::cut(&map, &[7, 13, 20, 31], &[5, 11, 19, 24]);
    let snapshot = world.snapshot();
    let mut query = Query::new(&snapshot);
    let mut rng = Rng(0x5ea5);
    let mut checked = 0;
    for q in 0..300 {
        let (s, t) = (map.point(&mut rng), map.point(&mut rng));
        let context = format!("query {q}: {s} -> {t}");
        checked += usize::from(exact_and_corridor(&snapshot, &mut query, s, t, &context));
    }
    assert!(checked > 100, "only {checked} complete paths checked");
}
