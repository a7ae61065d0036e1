//! The default mode's corridor tightened round inner vertices: on a grid map of unit
//! squares (where the search's corridor often passes an inner vertex on the side away
//! from the straight way, and the funnel alone would bend there), every default-mode
//! path bends only at wall vertices, in one call and sliced, and is never shorter than
//! the exact mode's.

use crate::funnel;
use navstar::glam::{Vec2, Vec3};
use navstar::{NavMesh, PathMode, Query, SliceStatus};

use crate::common::{Rng, p};

#[test]
fn grid_map_paths_are_no_shorter_than_exact_and_bend_at_walls() {
    // den520d-like rooms in miniature: a grid map of open rooms and walls.
    let rows = [
        "....................",
        "....................",
        "....####.......#....",
        "....####.......#....",
        "...............#....",
        "..........######....",
        "....................",
        "..#.................",
        "..#......###........",
        "..#......###........",
        "....................",
        "....................",
    ];
    let mesh = crate::common::Soup::from_ascii(&rows).build();
    let mut query = Query::new(&mesh);
    let exact = funnel().with_mode(PathMode::Optimal);
    let walls: Vec<Vec3> = wall_vertices(&mesh);
    let mut rng = Rng(0x9a1d);
    let (mut paths, mut bends) = (0, 0);
    for _ in 0..300 {
        let mut point = || p(rng.unit() * 20.0, rng.unit() * 12.0);
        let (start, goal) = (point(), point());
        let Ok(best) = query.find_path(start, goal, &exact).map(|p| p.length()) else {
            continue;
        };
        let path = query.find_path_vec(start, goal, &funnel()).unwrap();
        assert!(path.length() >= best - 1e-4, "{start} -> {goal}");
        // A bend by less than about a degree saves too little to tell from rounding (the
        // tightening keeps a swap that makes the path 1e-6 shorter, relative).
        let c = &path.corners;
        for k in 1..c.len() - 1 {
            if turn(c[k - 1], c[k], c[k + 1]) > 0.02 {
                assert!(
                    walls.contains(&c[k]),
                    "{start} -> {goal}: a bend at {}, no wall vertex: {c:?}",
                    c[k]
                );
                bends += 1;
            }
        }
        // Sliced, the same answer.
        let options = funnel();
        if query.begin_path(start, goal, &options).unwrap() == SliceStatus::InProgress {
            while query.advance_path(3).unwrap().status == SliceStatus::InProgress {}
        }
        let sliced = query.finish_path().unwrap().to_owned_path();
        assert_eq!(sliced, path, "{start} -> {goal}: sliced");
        paths += 1;
    }
    assert!(paths > 250 && bends > 100, "{paths} paths, {bends} bends");
}

/// The angle (radians) the way `a, b, c` turns by at `b`, in the ground plane.
fn turn(a: Vec3, b: Vec3, c: Vec3) -> f32 {
    let ground = |q: Vec3| Vec2::new(q.x, q.z);
    let (u, v) = (ground(b) - ground(a), ground(c) - ground(b));
    u.angle_to(v).abs()
}

/// The vertices on edges that have no neighbour.
fn wall_vertices(mesh: &NavMesh) -> Vec<Vec3> {
    let mut walls = Vec::new();
    for polygon in mesh.polygon_ids() {
        let corners = mesh.polygon_vertices(polygon);
        for (i, neighbour) in mesh.polygon_neighbours(polygon).enumerate() {
            if neighbour.is_none() {
                walls.push(mesh.vertex(corners[i]));
                walls.push(mesh.vertex(corners[(i + 1) % corners.len()]));
            }
        }
    }
    walls
}
