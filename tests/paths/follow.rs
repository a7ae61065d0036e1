//! The corridor that follows an agent (`PathCorridor`): corners against the path query,
//! agents steered along their corridors to the goal on random meshes, trimming, closed
//! polygons ahead, and a moving target.

use glam::{DVec2, Vec3};
use navstar::{NavMesh, PathCorridor, PathOptions, PathStatus, Query, QueryError, QueryFilter};
use proptest::prelude::*;

use crate::common::{Domain, Soup, p, point_in_polygon, seeded_grid};

fn g(v: Vec3) -> DVec2 {
    DVec2::new(f64::from(v.x), f64::from(v.z))
}

/// A corridor for the path from `start` to `goal`, when the path is complete and
/// searched (a corridor to follow).
fn corridor_of(mesh: &NavMesh, start: Vec3, goal: Vec3) -> Option<(PathCorridor, Vec<Vec3>)> {
    let mut query = Query::new(mesh);
    let path = query.find_path(start, goal, &PathOptions::default()).ok()?;
    if path.status != PathStatus::Complete {
        return None;
    }
    let corners = path.corners.to_vec();
    let polygons: Vec<u32> = query.corridor().collect();
    let first = *polygons.first()?;
    let mut corridor = PathCorridor::new(mesh, first, corners[0]).unwrap();
    corridor
        .set_corridor(*corners.last().unwrap(), &polygons)
        .unwrap();
    Some((corridor, corners))
}

/// Steers the agent to the first corner by `step` per frame until it reaches the
/// target; returns the frames taken (`None` after `frames`). Each frame the agent must
/// stay on the mesh and its corridor must stay a chain from its polygon to the target;
/// when `exact` it must also get where it steered (the corners are in clear sight) and
/// stay on the corridor.
fn walk(
    corridor: &mut PathCorridor,
    domain: &Domain,
    step: f32,
    frames: u32,
    exact: bool,
) -> Option<u32> {
    let filter = QueryFilter::default();
    for frame in 0..frames {
        let Some(&next) = corridor.corners(1).first() else {
            return Some(frame);
        };
        let here = corridor.position();
        let to = next - here;
        let goal = if to.length() <= step {
            next
        } else {
            here + to.normalize() * step
        };
        let before = corridor.polygons().len();
        let on = corridor.move_position(goal, &filter).unwrap();
        assert!(
            domain.contains(g(corridor.position()), 1e-4),
            "off the mesh"
        );
        if exact {
            assert!(on, "frame {frame}: walked off the corridor towards {goal}");
            assert!(corridor.polygons().len() <= before, "the corridor grew");
            assert!(
                corridor.position().distance(goal) < 1e-3,
                "frame {frame}: stopped at {} short of {goal}",
                corridor.position()
            );
        }
    }
    None
}

#[test]
fn an_agent_follows_its_corridor_round_the_u() {
    // A U: the hole is x in 1..2, z in 1..3.
    let mesh = Soup::from_ascii(&["...", ".#.", ".#."]).build();
    let domain = Domain::new(&mesh);
    let (mut corridor, corners) = corridor_of(&mesh, p(0.5, 2.5), p(2.5, 2.5)).unwrap();
    assert_eq!(corridor.corners(8), &corners[1..]);
    assert_eq!(corridor.corners(8), [p(1.0, 1.0), p(2.0, 1.0), p(2.5, 2.5)]);
    assert_eq!(corridor.corners(1), [p(1.0, 1.0)]);
    let frames = walk(&mut corridor, &domain, 0.25, 100, true).expect("reaches the goal");
    // The path is about 1.58 + 1 + 1.58 long: 17 steps of 0.25 (one per corner more).
    assert!((15..=20).contains(&frames), "{frames} frames");
    assert_eq!(corridor.polygons().len(), 1);
    assert!(corridor.position().distance(p(2.5, 2.5)) < 1e-5);
    assert!(corridor.corners(4).is_empty());
}

#[test]
fn closing_a_polygon_ahead_invalidates_and_walking_off_is_reported() {
    let mesh = Soup::from_ascii(&["...", ".#.", ".#."]).build();
    let (mut corridor, _) = corridor_of(&mesh, p(0.5, 2.5), p(2.5, 2.5)).unwrap();
    let filter = QueryFilter::default();
    let ahead = corridor.polygons()[3];
    assert!(corridor.is_valid(usize::MAX, &filter));
    mesh.set_polygon_flags(ahead, 0).unwrap();
    assert!(!corridor.is_valid(usize::MAX, &filter));
    assert!(
        corridor.is_valid(3, &filter),
        "the look-ahead stops before it"
    );
    mesh.set_polygon_flags(ahead, 1).unwrap();
    // Sideways into the hole's wall: the agent slides and stays on the corridor.
    assert!(corridor.move_position(p(1.5, 2.5), &filter).unwrap());
    assert!((corridor.position().x - 1.0).abs() < 1e-5);
    // Errors leave the corridor as it was.
    let before = corridor.polygons().to_vec();
    assert!(matches!(
        corridor.set_corridor(p(0.5, 0.5), &[before[1]]),
        Err(QueryError::InvalidOption(_))
    ));
    assert!(matches!(
        corridor.set_corridor(p(0.5, 0.5), &[before[0], before[2]]),
        Err(QueryError::InvalidOption(_))
    ));
    assert!(matches!(
        corridor.set_corridor(p(0.5, 0.5), &[before[0], 99]),
        Err(QueryError::IndexOutOfRange { index: 99, .. })
    ));
    assert!(matches!(
        corridor.set_corridor(Vec3::NAN, &before),
        Err(QueryError::NonFinitePoint(_))
    ));
    assert_eq!(corridor.polygons(), before);
}

#[test]
fn a_moving_target_extends_and_trims_the_end() {
    // A row of five unit squares.
    let mesh = Soup::from_ascii(&["....."]).build();
    let filter = QueryFilter::default();
    // (A straight path needs no search and gives no corridor: set it by hand.)
    let mut corridor = PathCorridor::new(&mesh, 0, p(0.5, 0.5)).unwrap();
    corridor.set_corridor(p(2.5, 0.5), &[0, 1, 2]).unwrap();
    assert_eq!(corridor.corners(4), [p(2.5, 0.5)]);
    assert!(!corridor.move_target(p(4.5, 0.5), &filter).unwrap());
    assert_eq!(corridor.polygons(), [0, 1, 2, 3, 4]);
    assert_eq!(corridor.corners(4), [p(4.5, 0.5)]);
    assert!(corridor.move_target(p(1.5, 0.5), &filter).unwrap());
    assert_eq!(corridor.polygons(), [0, 1]);
    assert_eq!(corridor.target(), p(1.5, 0.5));
}

/// The fan round the vertex (35, 18) of `data/arena.mesh` where `navstar simulate`'s agent
/// 141 was stuck (z up): 0 = (35,18) (47,19) (34,19), 1 = (35,18) (34,19) (34,18),
/// 2 = (35,18) (47,15) (47,19) (the door), 3 = (35,15) (47,15) (35,18); a wall between 1
/// and 3, so with the door closed 0 and 3 touch only at the vertex.
fn door_fan() -> NavMesh {
    let v = |x: f32, y: f32| Vec3::new(x, y, 0.0);
    let vertices = [
        v(35.0, 18.0),
        v(47.0, 19.0),
        v(34.0, 19.0),
        v(34.0, 18.0),
        v(47.0, 15.0),
        v(35.0, 15.0),
    ];
    let indices = [
        0, 1, 2, /**/ 0, 2, 3, /**/ 0, 4, 1, /**/ 5, 4, 0,
    ];
    let options = navstar::MeshOptions::default().with_up_axis(navstar::UpAxis::Z);
    NavMesh::from_polygons(&vertices, &indices, &[3; 4], &options).unwrap()
}

#[test]
fn a_corridor_that_loops_back_is_cut_and_the_agent_arrives() {
    // Regression (`navstar simulate data/arena.mesh --agents 200 --steps 500 --doors 40
    // --door-period 5 --step-length 2 --seed 1`, frame 247): with the door closed, a move
    // from 0 at the vertex towards 3 slides round through 1 and back into 0 along the
    // door; that walk, [0, 1, 0], set as the corridor, was kept with its loop. The agent
    // in the first 0 could never be trimmed past it: its corners led to the vertex and
    // back to the target for ever.
    let mesh = door_fan();
    let filter = QueryFilter::default();
    mesh.set_polygon_flags(2, 0).unwrap();
    let vertex = Vec3::new(35.0, 18.0, 0.0);
    let target = Vec3::new(35.747_906, 15.747_589, 0.0);
    let mut visited = Vec::new();
    let moved = mesh
        .move_along_surface(Some(0), vertex, target, &filter, &mut visited)
        .unwrap();
    assert_eq!(
        visited,
        [0, 1, 0],
        "the walk goes round the vertex and back"
    );
    assert_eq!((moved.polygon, moved.walls), (0, 2));
    let mut corridor = PathCorridor::new(&mesh, 0, vertex).unwrap();
    corridor.set_corridor(moved.point, &visited).unwrap();
    assert_eq!(corridor.polygons(), [0], "the loop is cut");
    assert_eq!(corridor.corners(4), [moved.point]);
    assert!(corridor.move_position(moved.point, &filter).unwrap());
    assert!(corridor.corners(4).is_empty(), "arrived");
    // A loop in the middle of a longer chain: 3 0 1 0 is 3 0.
    mesh.set_polygon_flags(2, 1).unwrap();
    let mut corridor = PathCorridor::new(&mesh, 2, Vec3::new(44.0, 17.0, 0.0)).unwrap();
    corridor.set_corridor(vertex, &[2, 0, 1, 0, 2, 3]).unwrap();
    assert_eq!(corridor.polygons(), [2, 3]);
}

proptest! {
    #![proptest_config(crate::common::proptest_config(200))]

    #[test]
    fn agents_reach_their_goals_through_their_corridors(
        seed in any::<u64>(),
        cols in 2usize..9,
        rows in 2usize..9,
        ends in ((any::<u32>(), 0.0f32..1.0, 0.0f32..1.0, 0.0f32..1.0), (any::<u32>(), 0.0f32..1.0, 0.0f32..1.0, 0.0f32..1.0)),
        step in 0.05f32..0.8,
    ) {
        let Ok(mesh) = seeded_grid(seed, cols, rows).try_build(&Default::default()) else {
            return Ok(());
        };
        let n = mesh.polygon_count();
        let point = |(k, s, t, u): (u32, f32, f32, f32)| point_in_polygon(&mesh, k % n, s, t, u);
        let (start, goal) = (point(ends.0), point(ends.1));
        let Some((mut corridor, corners)) = corridor_of(&mesh, start, goal) else {
            return Ok(());
        };
        let domain = Domain::new(&mesh);
        // The corners through the corridor are the path's, as long.
        let pulled: Vec<Vec3> = corridor.corners(usize::MAX).to_vec();
        let length = |from: Vec3, c: &[Vec3]| {
            let mut at = from;
            c.iter().map(|&q| { let d = g(at).distance(g(q)); at = q; d }).sum::<f64>()
        };
        let (ours, path) = (length(corners[0], &pulled), length(corners[0], &corners[1..]));
        prop_assert!((ours - path).abs() <= 1e-3 * path.max(1.0), "{ours} through the corridor, {path} by the path");
        let mut at = corners[0];
        for &q in &pulled {
            domain.check_segment(g(at), g(q)).map_err(TestCaseError::fail)?;
            at = q;
        }
        // Steered along, the agent gets there. (It may graze a wall corner it steers past
        // and slide, or cut through a polygon beside the corridor at a vertex: the corridor
        // then starts with the way back.)
        let frames = 3 * (path / f64::from(step)) as u32 + 10 * pulled.len() as u32 + 20;
        prop_assert!(walk(&mut corridor, &domain, step, frames, false).is_some(), "not there after {frames} frames");
        prop_assert!(g(corridor.position()).distance(g(goal)) < 1e-3);
    }
}
