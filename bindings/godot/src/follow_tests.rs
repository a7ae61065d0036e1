//! Known answers of the corridor on hand-made meshes, and equality with navstar's own
//! `PathCorridor` driven the same way.

use super::*;
use navstar::QueryFilter;

/// An L of three unit squares: 0 = [0,1]x[0,1], 1 = [1,2]x[0,1], 2 = [0,1]x[1,2].
const L_VERTICES: [[f32; 3]; 8] = [
    [0.0, 0.0, 0.0],
    [1.0, 0.0, 0.0],
    [2.0, 0.0, 0.0],
    [0.0, 0.0, 1.0],
    [1.0, 0.0, 1.0],
    [2.0, 0.0, 1.0],
    [0.0, 0.0, 2.0],
    [1.0, 0.0, 2.0],
];
const L_POLYGONS: [&[i32]; 3] = [&[0, 1, 4, 3], &[1, 2, 5, 4], &[3, 4, 7, 6]];

fn l_floor() -> Navigator {
    let mut nav = Navigator::default();
    nav.build(L_VERTICES, L_POLYGONS, &Settings::default())
        .unwrap();
    nav
}

/// Two rows of three unit squares: 0 1 2 along z in [0,1], 3 4 5 above.
fn grid() -> Navigator {
    let vertices: Vec<[f32; 3]> = (0..3)
        .flat_map(|z| (0..4).map(move |x| [x as f32, 0.0, z as f32]))
        .collect();
    let polygons: Vec<[i32; 4]> = (0..2)
        .flat_map(|r| {
            (0..3).map(move |c| {
                let a = r * 4 + c;
                [a, a + 1, a + 5, a + 4]
            })
        })
        .collect();
    let mut nav = Navigator::default();
    nav.build(
        vertices,
        polygons.iter().map(|p| p.as_slice()),
        &Settings::default(),
    )
    .unwrap();
    nav
}

fn p(x: f32, z: f32) -> Vec3 {
    Vec3::new(x, 0.0, z)
}

#[test]
fn follows_the_last_path_round_the_corner() {
    let mut nav = l_floor();
    let s = Settings::default();
    let (start, goal) = (p(1.8, 0.5), p(0.5, 1.8));
    nav.find_path(start.to_array(), goal.to_array(), &s)
        .unwrap();
    let mut follower = nav.corridor_from_last_path(&s).unwrap();
    assert_eq!(nav.last_error(), "");
    assert_eq!(follower.polygons(), [1, 0, 2]);
    assert_eq!((follower.position(), follower.target()), (start, goal));
    let (corners, flags) = follower.corners(4).unwrap();
    assert_eq!(corners, [p(1.0, 1.0), goal]);
    assert_eq!(flags, [0, 2]);
    assert_eq!(follower.corners(1).unwrap().0, [p(1.0, 1.0)]);

    // navstar's corridor driven the same way gives the same answers.
    let mesh = nav.mesh().unwrap().clone();
    let mut core = PathCorridor::new(&mesh, 1, start).unwrap();
    core.set_corridor(goal, &[1, 0, 2]).unwrap();
    let filter = QueryFilter::default();

    assert!(follower.move_position([0.9, 0.0, 0.9]).unwrap());
    assert!(core.move_position(p(0.9, 0.9), &filter).unwrap());
    assert_eq!(follower.polygons(), [0, 2]);
    assert_eq!(follower.position(), core.position());
    assert_eq!(follower.corners(4).unwrap().0, [goal]);
    assert_eq!(follower.corners(4).unwrap().0, core.corners(4));
    assert!(follower.is_valid(8).unwrap());

    mesh.set_polygon_flags(2, 0).unwrap();
    assert!(!follower.is_valid(8).unwrap());
    assert!(follower.is_valid(1).unwrap());
    // Square 2 holds the target: no way to it is left.
    assert_eq!(follower.repair().unwrap(), REPAIR_CUT_OFF);
    assert_eq!(follower.polygons(), [0]);
}

#[test]
fn a_path_without_a_search_gets_the_straight_walks_polygons() {
    let mut nav = grid();
    let s = Settings::default();
    // Start and goal in sight: the path needs no search; its corridor is the polygons
    // under it.
    nav.find_path([0.5, 0.0, 0.5], [2.5, 0.0, 0.5], &s).unwrap();
    assert_eq!(nav.last_corridor(), [0, 1, 2]);
    let mut follower = nav.corridor_from_last_path(&s).unwrap();
    assert_eq!(follower.polygons(), [0, 1, 2]);
    assert_eq!(follower.repair().unwrap(), REPAIR_VALID);

    // Square 1 closes: the corridor goes round it through the upper row.
    nav.set_polygon_flags(1, 0).unwrap();
    assert_eq!(follower.repair().unwrap(), REPAIR_REPAIRED);
    assert_eq!(follower.polygons(), [0, 3, 4, 5, 2]);
    assert_eq!(follower.target(), p(2.5, 0.5));

    // Open again, the agent sees the target straight ahead: back to the short way.
    nav.set_polygon_flags(1, 1).unwrap();
    assert!(follower.optimize_visibility([2.5, 0.0, 0.5]).unwrap());
    assert_eq!(follower.polygons(), [0, 1, 2]);
    assert!(!follower.optimize_visibility([2.5, 0.0, 0.5]).unwrap());
}

#[test]
fn moving_the_target_trims_or_extends_the_corridor() {
    let mut nav = grid();
    let s = Settings::default();
    nav.find_path([0.5, 0.0, 0.5], [2.5, 0.0, 0.5], &s).unwrap();
    let mut follower = nav.corridor_from_last_path(&s).unwrap();
    let mesh = nav.mesh().unwrap().clone();
    let mut core = PathCorridor::new(&mesh, 0, p(0.5, 0.5)).unwrap();
    core.set_corridor(p(2.5, 0.5), &[0, 1, 2]).unwrap();
    let filter = QueryFilter::default();
    for target in [p(1.5, 0.5), p(1.5, 1.5), p(2.5, 1.5), p(-4.0, 0.5)] {
        let ours = follower.move_target(target.to_array()).unwrap();
        assert_eq!(ours, core.move_target(target, &filter).unwrap());
        assert_eq!(follower.target(), core.target());
        let polygons: Vec<i64> = core.polygons().iter().map(|&q| i64::from(q)).collect();
        assert_eq!(follower.polygons(), polygons);
    }
    // Stopped at the wall x = 0 (a hair inside it, as navstar's moves stop).
    assert!(follower.target().distance(p(0.0, 0.5)) < 1e-4);
    assert_eq!(follower.polygons(), [0]);
}

#[test]
fn corridor_errors_name_the_culprit() {
    let mut nav = grid();
    let s = Settings::default();
    assert_eq!(
        Navigator::default()
            .corridor_from_last_path(&s)
            .unwrap_err(),
        FindError::NoMesh
    );
    let err = nav.corridor_from_last_path(&s).unwrap_err();
    assert!(err.to_string().starts_with("no last path"), "{err}");
    assert_eq!(nav.last_error(), err.to_string());

    // A failed path leaves none either.
    assert!(
        nav.find_path([f32::NAN, 0.0, 0.0], [0.5, 0.0, 0.5], &s)
            .is_err()
    );
    assert!(nav.corridor_from_last_path(&s).is_err());

    // An optimal path round a corner is followed through the polygons it crosses,
    // along its own corners.
    nav.set_polygon_flags(1, 0).unwrap();
    let optimal = Settings {
        path_mode: crate::options::PATH_MODE_OPTIMAL,
        ..Settings::default()
    };
    let path = nav
        .find_path([0.5, 0.0, 0.5], [2.5, 0.0, 0.5], &optimal)
        .unwrap()
        .to_vec();
    assert!(path.len() > 2);
    let mut follower = nav.corridor_from_last_path(&optimal).unwrap();
    assert_eq!(follower.polygons(), [0, 3, 4, 5, 2]);
    let (corners, _) = follower.corners(16).unwrap();
    assert_eq!(corners.len(), path.len() - 1);
    for (corner, expected) in corners.iter().zip(&path[1..]) {
        assert!(corner.distance(*expected) < 1e-5, "{corner} vs {expected}");
    }

    let bad = Settings {
        exclude_flags: -5,
        ..Settings::default()
    };
    assert!(
        nav.corridor_from_last_path(&bad)
            .unwrap_err()
            .to_string()
            .starts_with("excluded_layers -5")
    );

    nav.set_polygon_flags(1, 1).unwrap();
    nav.find_path([0.5, 0.0, 0.5], [2.5, 0.0, 0.5], &s).unwrap();
    let mut follower = nav.corridor_from_last_path(&s).unwrap();
    assert_eq!(
        follower.corners(-1).unwrap_err().to_string(),
        "max -1 must not be negative"
    );
    assert_eq!(
        follower.is_valid(-2).unwrap_err().to_string(),
        "look_ahead -2 must not be negative"
    );
    assert!(follower.move_position([f32::NAN, 0.0, 0.0]).is_err());
    assert!(
        follower
            .optimize_visibility([0.0, f32::INFINITY, 0.0])
            .is_err()
    );
    // The agent's own polygon closed: nothing to repair from.
    nav.set_polygon_flags(0, 0).unwrap();
    assert!(matches!(
        follower.repair(),
        Err(FindError::Query(QueryError::RefusedPolygon {
            polygon: 0,
            ..
        }))
    ));
}

#[test]
fn empty_chains_are_refused() {
    let nav = grid();
    let mesh = nav.mesh().unwrap().clone();
    let err =
        Follower::new(&mesh, &[], p(0.5, 0.5), p(0.5, 0.5), PathOptions::default()).unwrap_err();
    assert_eq!(err.to_string(), "the corridor has no polygon");
    let err = Follower::new(
        &mesh,
        &[0, 2],
        p(0.5, 0.5),
        p(2.5, 0.5),
        PathOptions::default(),
    )
    .unwrap_err();
    assert!(
        err.to_string().contains("chain of neighbouring polygons"),
        "{err}"
    );
}
