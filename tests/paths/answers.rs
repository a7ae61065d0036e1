//! What a path query answers at the edges of its contract, as an outside probe of the
//! C ABI found them wanting: where a partial path ends when flags cut the way, the cost
//! of an exact-mode path under area costs, the status of a goal the filter moves, and no
//! point twice in a row at an off-mesh link. Each test failed before its fix. (The fifth
//! finding, the vertex count that interpolation's values are numbered by, is a C ABI
//! test: `tests/c_abi/queries.rs`.)

use glam::Vec3;
use navstar::{
    MeshOptions, NavMesh, OffMeshLink, PathMode, PathOptions, PathStatus, Query, QueryError,
    QueryFilter,
};

const MODES: [PathMode; 2] = [PathMode::Funnel, PathMode::Optimal];

fn v(x: f32, z: f32) -> Vec3 {
    Vec3::new(x, 0.0, z)
}

fn options(mode: PathMode) -> PathOptions {
    let mut options = PathOptions::default();
    options.mode = mode;
    options
}

#[track_caller]
fn assert_near(a: Vec3, b: Vec3) {
    assert!(a.distance(b) <= 1e-4, "{a} is not {b}");
}

#[track_caller]
fn assert_close(a: f32, b: f32) {
    assert!((a - b).abs() <= 1e-4 * (1.0 + b.abs()), "{a} is not {b}");
}

/// Unit squares side by side along x (`[i, i + 1] x [0, 1]` in the x/z plane), with
/// these areas; a polygon per square.
fn row_of_squares(areas: &[u8]) -> NavMesh {
    let n = areas.len() as u32;
    let vertices: Vec<Vec3> = (0..=n)
        .flat_map(|i| [v(i as f32, 0.0), v(i as f32, 1.0)])
        .collect();
    let indices: Vec<u32> = (0..n)
        .flat_map(|i| [2 * i, 2 * i + 2, 2 * i + 3, 2 * i + 1])
        .collect();
    let sizes = vec![4; areas.len()];
    let input = navstar::MeshInput::new(&vertices, &indices)
        .with_polygon_sizes(&sizes)
        .with_areas(areas);
    NavMesh::from_input(&input, &MeshOptions::default()).unwrap()
}

// ---------------------------------------------------------------------------------
// 1. A partial path ends at the reachable point closest to the goal.

/// The probe's mesh: S = [0,1] x [1,2], N = [0,1] x [0,1], a door [1,3] x [0,1] and
/// G = (3,0) (4,0) (4,2) (3,2) (3,1), with the door's flags cleared. S touches the
/// door only at a corner, so the reachable part is S and N.
fn closed_door() -> NavMesh {
    let vertices = [
        v(0.0, 0.0),
        v(1.0, 0.0),
        v(3.0, 0.0),
        v(4.0, 0.0),
        v(4.0, 2.0),
        v(3.0, 2.0),
        v(3.0, 1.0),
        v(1.0, 1.0),
        v(0.0, 1.0),
        v(0.0, 2.0),
        v(1.0, 2.0),
    ];
    #[rustfmt::skip]
    let indices = [
        0, 1, 7, 8, // N
        8, 7, 10, 9, // S
        1, 2, 6, 7, // door
        2, 3, 4, 5, 6, // G
    ];
    let mesh = NavMesh::from_polygons(&vertices, &indices, &[4, 4, 4, 5], &MeshOptions::default())
        .unwrap();
    mesh.set_polygon_flags(2, 0).unwrap();
    mesh
}

#[test]
fn partial_path_ends_at_the_reachable_point_closest_to_the_goal() {
    let mesh = closed_door();
    let mut query = Query::new(&mesh);
    let (start, goal) = (v(0.5, 1.5), v(3.5, 1.7));
    for mode in MODES {
        let path = query.find_path(start, goal, &options(mode)).unwrap();
        assert_eq!(path.status, PathStatus::Partial, "{mode:?}");
        let end = *path.corners.last().unwrap();
        // (1, 0, 1), the end of the way into N, is 2.596 from the goal; S's side is 2.5.
        assert_near(end, v(1.0, 1.7));
        assert_close(end.distance(goal), 2.5);
        assert_eq!(path.corners.len(), 2, "{mode:?}: {:?}", path.corners);
    }
}

#[test]
fn nearest_target_skips_a_goal_behind_closed_flags() {
    // The goal in G cannot be reached; the one in N can, and no partial path is given.
    let mesh = closed_door();
    let mut query = Query::new(&mesh);
    for mode in MODES {
        let goals = [v(3.5, 1.7), v(0.5, 0.5)];
        let answer = query
            .find_nearest_target(v(0.5, 1.5), &goals, &options(mode))
            .unwrap();
        assert_eq!(answer.target, 1, "{mode:?}");
        assert_eq!(answer.path.status, PathStatus::Complete);
        assert_near(*answer.path.corners.last().unwrap(), goals[1]);
    }
}

// ---------------------------------------------------------------------------------
// 2. The cost is the cost under the filter in both modes.

#[test]
fn straight_path_costs_the_same_in_both_modes() {
    // The middle square is area 1, costing 3.6: 0.5 + 3.6 + 0.5.
    let mesh = row_of_squares(&[0, 1, 0]);
    let mut query = Query::new(&mesh);
    for mode in MODES {
        let mut options = options(mode);
        options.filter = QueryFilter::default().with_area_cost(1, 3.6);
        let path = query.find_path(v(0.5, 0.5), v(2.5, 0.5), &options).unwrap();
        assert_eq!(path.corners.len(), 2, "{mode:?}");
        assert_close(path.length(), 2.0);
        assert_close(path.cost, 4.6);
    }
}

#[test]
fn exact_path_round_a_corner_costs_each_piece_at_its_area() {
    // An L: B = [1,3] x [0,1] (area 1), A = [0,1] x [0,1] (area 0), C = [0,1] x [1,2]
    // (area 2). From B to C the shortest path bends at (1, 1): the first leg lies in B,
    // the second in C.
    let vertices = [
        v(0.0, 0.0),
        v(1.0, 0.0),
        v(3.0, 0.0),
        v(3.0, 1.0),
        v(1.0, 1.0),
        v(0.0, 1.0),
        v(0.0, 2.0),
        v(1.0, 2.0),
    ];
    let indices = [0, 1, 4, 5, 1, 2, 3, 4, 5, 4, 7, 6];
    let input = navstar::MeshInput::new(&vertices, &indices)
        .with_polygon_sizes(&[4, 4, 4])
        .with_areas(&[0, 1, 2]);
    let mesh = NavMesh::from_input(&input, &MeshOptions::default()).unwrap();
    let mut query = Query::new(&mesh);
    let mut options = options(PathMode::Optimal);
    options.filter = QueryFilter::default()
        .with_area_cost(1, 2.0)
        .with_area_cost(2, 3.0);
    let (start, goal) = (v(2.5, 0.5), v(0.5, 1.5));
    let path = query.find_path(start, goal, &options).unwrap();
    assert_eq!(path.corners.len(), 3, "{:?}", path.corners);
    assert_near(path.corners[1], v(1.0, 1.0));
    let first = start.distance(v(1.0, 1.0));
    let second = v(1.0, 1.0).distance(goal);
    assert_close(path.cost, 2.0 * first + 3.0 * second);
}

// ---------------------------------------------------------------------------------
// 3. A goal the filter moves is not reached: the path is partial.

#[test]
fn goal_inside_a_refused_polygon_gives_a_partial_path() {
    let mesh = row_of_squares(&[0, 0, 0]);
    mesh.set_polygon_flags(2, 0).unwrap();
    let mut query = Query::new(&mesh);
    let (start, goal) = (v(0.5, 0.5), v(2.5, 0.5));
    for mode in MODES {
        let path = query.find_path(start, goal, &options(mode)).unwrap();
        assert_eq!(path.status, PathStatus::Partial, "{mode:?}");
        assert_near(*path.corners.last().unwrap(), v(2.0, 0.5));
        let mut strict = options(mode);
        strict.allow_partial = false;
        assert_eq!(
            query.find_path(start, goal, &strict).unwrap_err(),
            QueryError::NoPath,
            "{mode:?}"
        );
        // A goal on the admitted side of the shared edge is reached.
        let path = query.find_path(start, v(2.0, 0.5), &options(mode)).unwrap();
        assert_eq!(path.status, PathStatus::Complete, "{mode:?}");
        // The nearest-target query skips such a goal for a reachable one farther away.
        let goals = [goal, v(0.5, 0.9)];
        let answer = query
            .find_nearest_target(v(1.9, 0.5), &goals, &options(mode))
            .unwrap();
        assert_eq!(answer.target, 1, "{mode:?}");
    }
}

// ---------------------------------------------------------------------------------
// 4. No path has the same point twice in a row.

#[track_caller]
fn assert_no_repeated_corner(corners: &[Vec3]) {
    for pair in corners.windows(2) {
        assert_ne!(pair[0], pair[1], "a point twice in {corners:?}");
    }
}

#[test]
fn a_path_starting_or_ending_on_a_link_has_no_repeated_corner() {
    // Two squares apart, joined by a link from the middle of one to the middle of the
    // other.
    let vertices = [
        v(0.0, 0.0),
        v(1.0, 0.0),
        v(1.0, 1.0),
        v(0.0, 1.0),
        v(3.0, 0.0),
        v(4.0, 0.0),
        v(4.0, 1.0),
        v(3.0, 1.0),
    ];
    let indices = [0, 1, 2, 3, 4, 5, 6, 7];
    let links = [OffMeshLink::new(v(0.5, 0.5), v(3.5, 0.5))];
    let input = navstar::MeshInput::new(&vertices, &indices)
        .with_polygon_sizes(&[4, 4])
        .with_links(&links);
    let mesh = NavMesh::from_input(&input, &MeshOptions::default()).unwrap();
    let mut query = Query::new(&mesh);
    let cases = [
        (v(0.5, 0.5), v(3.8, 0.8), 3),
        (v(0.2, 0.2), v(3.5, 0.5), 3),
        (v(0.5, 0.5), v(3.5, 0.5), 2),
    ];
    for mode in MODES {
        for (start, goal, count) in cases {
            let path = query.find_path(start, goal, &options(mode)).unwrap();
            assert_eq!(path.status, PathStatus::Complete);
            assert_no_repeated_corner(path.corners);
            assert_eq!(path.corners.len(), count, "{mode:?}: {:?}", path.corners);
            assert_eq!(path.details.len(), count);
            assert_near(path.corners[0], start);
            assert_near(*path.corners.last().unwrap(), goal);
            assert_close(path.cost, path.length());
            let first = path.details[0].flags;
            assert!(first.contains(navstar::CornerFlags::START));
            let last = path.details[count - 1].flags;
            assert!(last.contains(navstar::CornerFlags::END));
            let link_start = path
                .details
                .iter()
                .filter(|d| d.flags.contains(navstar::CornerFlags::LINK_START))
                .count();
            assert_eq!(link_start, 1, "{mode:?}: {:?}", path.details);
        }
    }
}
