//! Known answers of the agent queries on hand-made meshes (those of navstar's own docs),
//! and equality with the same calls made directly on navstar.

use super::*;
use navstar::Query;

/// Three unit squares in a row along x, polygons 0, 1, 2 (y up).
const ROW_VERTICES: [[f32; 3]; 8] = [
    [0.0, 0.0, 0.0],
    [1.0, 0.0, 0.0],
    [2.0, 0.0, 0.0],
    [3.0, 0.0, 0.0],
    [0.0, 0.0, 1.0],
    [1.0, 0.0, 1.0],
    [2.0, 0.0, 1.0],
    [3.0, 0.0, 1.0],
];
const ROW_POLYGONS: [&[i32]; 3] = [&[0, 1, 5, 4], &[1, 2, 6, 5], &[2, 3, 7, 6]];

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

fn build(vertices: [[f32; 3]; 8], polygons: [&[i32]; 3]) -> Navigator {
    let mut nav = Navigator::default();
    nav.build(vertices, polygons, &Settings::default()).unwrap();
    nav
}

fn v(x: f32, z: f32) -> [f32; 3] {
    [x, 0.0, z]
}

fn mesh(nav: &Navigator) -> NavMesh {
    nav.mesh().unwrap().clone()
}

#[test]
fn move_along_surface_goes_straight_and_slides() {
    let mut nav = build(ROW_VERTICES, ROW_POLYGONS);
    let s = Settings::default();
    let moved = nav
        .move_along_surface(v(0.5, 0.5), v(2.5, 0.5), &s)
        .unwrap();
    assert_eq!(moved.surface.point, Vec3::new(2.5, 0.0, 0.5));
    assert_eq!((moved.surface.polygon, moved.surface.walls), (2, 0));
    assert_eq!(moved.polygons, [0, 1, 2]);

    // Towards a point beyond the wall z = 1: slides along it to x = 1.5.
    let moved = nav
        .move_along_surface(v(0.5, 0.5), v(1.5, 2.0), &s)
        .unwrap();
    assert!(moved.surface.point.distance(Vec3::new(1.5, 0.0, 1.0)) < 1e-5);
    assert_eq!((moved.surface.polygon, moved.surface.walls), (1, 1));
    assert_eq!(moved.polygons, [0, 1]);

    // The same as navstar's own call from the polygon the start snaps to.
    let mut visited = Vec::new();
    let core = mesh(&nav)
        .move_along_surface(
            Some(0),
            Vec3::new(0.5, 0.0, 0.5),
            Vec3::new(1.5, 0.0, 2.0),
            &QueryFilter::default(),
            &mut visited,
        )
        .unwrap();
    assert_eq!(moved.surface, core);
    assert_eq!(nav.last_error(), "");
}

#[test]
fn move_along_surface_honours_the_filter_and_snap_distance() {
    let mut nav = build(ROW_VERTICES, ROW_POLYGONS);
    // Square 2 on layer 2 only: with navigation_layers 1 its edge x = 2 is a wall.
    nav.set_polygon_flags(2, 2).unwrap();
    let layer1 = Settings {
        include_flags: 1,
        ..Settings::default()
    };
    let moved = nav
        .move_along_surface(v(0.5, 0.5), v(2.5, 0.5), &layer1)
        .unwrap();
    assert_eq!(moved.surface.point, Vec3::new(2.0, 0.0, 0.5));
    assert_eq!((moved.surface.polygon, moved.surface.walls), (1, 1));

    // A start above the floor: moved down onto it, unless farther than the snap distance.
    let near = Settings {
        max_snap_distance: 1.0,
        ..Settings::default()
    };
    let moved = nav
        .move_along_surface([0.5, 0.5, 0.5], v(0.5, 0.5), &near)
        .unwrap();
    assert_eq!(moved.surface.point, Vec3::new(0.5, 0.0, 0.5));
    let err = nav
        .move_along_surface([0.5, 3.0, 0.5], v(0.5, 0.5), &near)
        .unwrap_err();
    assert!(matches!(
        err,
        FindError::Query(QueryError::NotOnMesh { .. })
    ));
    assert_eq!(
        nav.last_error(),
        "the start point is 3 units from the mesh, more than the snap distance 1"
    );
    assert!(
        nav.move_along_surface(v(0.5, 0.5), [f32::NAN, 0.0, 0.0], &near)
            .is_err()
    );
    assert!(
        nav.last_error().contains("non-finite"),
        "{}",
        nav.last_error()
    );
    let bad = Settings {
        include_flags: -1,
        ..Settings::default()
    };
    assert!(
        nav.move_along_surface(v(0.5, 0.5), v(1.0, 0.5), &bad)
            .is_err()
    );
    assert!(nav.last_error().starts_with("navigation_layers -1"));
    assert_eq!(
        Navigator::default().move_along_surface(v(0.5, 0.5), v(1.0, 0.5), &near),
        Err(FindError::NoMesh)
    );
}

#[test]
fn distance_to_wall_known_answers() {
    let mut nav = build(ROW_VERTICES, ROW_POLYGONS);
    let s = Settings::default();
    let wall = nav
        .distance_to_wall(v(1.5, 0.25), 2.0, &s)
        .unwrap()
        .unwrap();
    assert_eq!(
        (wall.distance, wall.point),
        (0.25, Vec3::new(1.5, 0.0, 0.0))
    );
    assert_eq!(wall.normal, Vec3::new(0.0, 0.0, 1.0));
    assert_eq!(nav.distance_to_wall(v(1.5, 0.5), 0.4, &s).unwrap(), None);
    assert_eq!(nav.last_error(), "");

    // Square 2 refused by the layers: its edge x = 2 is a wall.
    nav.set_polygon_flags(2, 2).unwrap();
    let layer1 = Settings {
        include_flags: 1,
        ..Settings::default()
    };
    let wall = nav
        .distance_to_wall(v(1.9, 0.5), 2.0, &layer1)
        .unwrap()
        .unwrap();
    assert!((wall.distance - 0.1).abs() < 1e-6);
    assert_eq!(wall.normal, Vec3::new(-1.0, 0.0, 0.0));
    let mut query = Query::new(&mesh(&nav));
    let filter = layer1.filter().unwrap();
    let core = query
        .distance_to_wall(Vec3::new(1.9, 0.0, 0.5), 2.0, &filter)
        .unwrap();
    assert_eq!(Some(wall), core);

    assert!(nav.distance_to_wall(v(1.5, 0.5), -1.0, &s).is_err());
    assert!(nav.last_error().contains("radius"), "{}", nav.last_error());
    assert!(
        nav.distance_to_wall([f32::INFINITY, 0.0, 0.0], 1.0, &s)
            .is_err()
    );
}

#[test]
fn random_points_are_seeded_and_filtered() {
    let mut nav = build(ROW_VERTICES, ROW_POLYGONS);
    let s = Settings::default();
    let a = nav.random_point(7, &s).unwrap();
    assert_eq!(nav.random_point(7, &s).unwrap(), a);
    // navstar's own call with the same seed, negative seeds included (their bits).
    for seed in [7_i64, -3, 0, i64::MAX] {
        let mut rng = navstar::SplitMix64::new(seed as u64);
        let core = mesh(&nav)
            .random_point(&QueryFilter::default(), &mut || rng.next_u64())
            .unwrap();
        assert_eq!(nav.random_point(seed, &s).unwrap(), core);
    }
    // Squares 0 and 1 off layer 1: every point falls in square 2.
    nav.set_polygon_flags(0, 2).unwrap();
    nav.set_polygon_flags(1, 2).unwrap();
    let layer1 = Settings {
        include_flags: 1,
        ..Settings::default()
    };
    for seed in 0..100 {
        let p = nav.random_point(seed, &layer1).unwrap();
        assert_eq!(p.polygon, 2);
        assert!((2.0..=3.0).contains(&p.point.x) && (0.0..=1.0).contains(&p.point.z));
    }
    let none = Settings {
        include_flags: 4,
        ..Settings::default()
    };
    assert_eq!(
        nav.random_point(1, &none),
        Err(FindError::Query(QueryError::NoAdmittedArea))
    );
    assert!(!nav.last_error().is_empty());
}

#[test]
fn random_points_around_stay_in_the_region() {
    let mut nav = build(ROW_VERTICES, ROW_POLYGONS);
    let s = Settings::default();
    let mut seen = [false; 3];
    for seed in 0..60 {
        // Within 0.3 of (0.8, 0.5): the circle reaches the portal x = 1, not x = 2.
        let p = nav.random_point_around(v(0.8, 0.5), 0.3, seed, &s).unwrap();
        seen[p.polygon as usize] = true;
        let mut query = Query::new(&mesh(&nav));
        let mut rng = navstar::SplitMix64::new(seed as u64);
        let core = query
            .random_point_around(
                Vec3::new(0.8, 0.0, 0.5),
                0.3,
                &QueryFilter::default(),
                &mut || rng.next_u64(),
            )
            .unwrap();
        assert_eq!(p, core);
    }
    assert_eq!(seen, [true, true, false]);
    assert!(
        nav.random_point_around(v(0.8, 0.5), f32::NAN, 1, &s)
            .is_err()
    );
    assert!(!nav.last_error().is_empty());
}

#[test]
fn sliced_path_equals_the_one_shot_path() {
    let mut nav = build(L_VERTICES, L_POLYGONS);
    let s = Settings::default();
    let (from, to) = (v(1.8, 0.5), v(0.5, 1.8));
    let whole: Vec<Vec3> = nav.find_path(from, to, &s).unwrap().to_vec();
    let (flags, cost): (Vec<i32>, f32) = (nav.last_corner_flags().collect(), nav.last_cost());
    assert_eq!(whole[1], Vec3::new(1.0, 0.0, 1.0));

    let mut status = nav.begin_path(from, to, &s).unwrap();
    let mut slices = 0;
    while status == SliceStatus::InProgress {
        status = nav.advance_path(1).unwrap().status;
        slices += 1;
        assert!(slices < 100, "the search does not end");
    }
    assert_eq!(nav.advance_path(5).unwrap().expansions, 0);
    assert_eq!(nav.finish_path().unwrap(), whole.as_slice());
    assert_eq!(nav.last_corner_flags().collect::<Vec<_>>(), flags);
    assert_eq!(nav.last_cost(), cost);
    assert!(!nav.last_partial());
    assert_eq!(nav.last_error(), "");

    // Over: no search in progress any more.
    assert_eq!(
        nav.advance_path(1),
        Err(FindError::Query(QueryError::NoSlicedPath))
    );
    assert!(nav.finish_path().is_err());
    assert!(!nav.last_error().is_empty());
    assert!(!nav.cancel_path());
}

#[test]
fn sliced_path_errors_and_cancel() {
    let mut nav = build(L_VERTICES, L_POLYGONS);
    let s = Settings::default();
    nav.begin_path(v(1.8, 0.5), v(0.5, 1.8), &s).unwrap();
    for bad in [0, -1, i64::from(u32::MAX) + 1] {
        let err = nav.advance_path(bad).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("max_expansions {bad} is out of range (1 to 4294967295)")
        );
        assert_eq!(nav.last_error(), err.to_string());
    }
    assert!(nav.cancel_path());
    assert_eq!(nav.last_error(), "");
    assert!(!nav.cancel_path());

    let near = Settings {
        max_snap_distance: 1.0,
        ..Settings::default()
    };
    let err = nav
        .begin_path([1.8, 5.0, 0.5], v(0.5, 1.8), &near)
        .unwrap_err();
    assert!(matches!(
        err,
        FindError::Query(QueryError::NotOnMesh { .. })
    ));
    assert!(nav.last_error().starts_with("the start point is 5 units"));
    let mut empty = Navigator::default();
    assert_eq!(
        empty.begin_path(v(0.0, 0.0), v(1.0, 1.0), &s),
        Err(FindError::NoMesh)
    );
    assert_eq!(empty.advance_path(1), Err(FindError::NoMesh));
    assert_eq!(empty.finish_path(), Err(FindError::NoMesh));
    assert!(!empty.cancel_path());
}

#[test]
fn sliced_path_to_an_unreachable_goal() {
    // Square 2 closed: the goal in it is unreachable.
    let mut nav = build(L_VERTICES, L_POLYGONS);
    nav.set_polygon_flags(2, 2).unwrap();
    let mut s = Settings {
        include_flags: 1,
        ..Settings::default()
    };
    let whole: Vec<Vec3> = nav
        .find_path(v(1.8, 0.5), v(0.5, 1.8), &s)
        .unwrap()
        .to_vec();
    assert!(nav.last_partial());
    nav.begin_path(v(1.8, 0.5), v(0.5, 1.8), &s).unwrap();
    while nav.advance_path(100).unwrap().status == SliceStatus::InProgress {}
    assert_eq!(nav.finish_path().unwrap(), whole.as_slice());
    assert!(nav.last_partial());

    s.allow_partial = false;
    let outcome = nav
        .begin_path(v(1.8, 0.5), v(0.5, 1.8), &s)
        .and_then(|_| nav.advance_path(100))
        .and_then(|_| nav.finish_path().map(<[Vec3]>::to_vec));
    assert!(outcome.is_err());
    assert_eq!(nav.last_error(), "the goal is unreachable from the start");
}

#[test]
fn another_path_query_interrupts_the_sliced_search() {
    // Two rows of three unit squares with the middle of the lower row refused: a path
    // along the lower row needs a search.
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
    let s = Settings {
        include_flags: 1,
        ..Settings::default()
    };
    nav.build(vertices, polygons.iter().map(|p| p.as_slice()), &s)
        .unwrap();
    nav.set_polygon_flags(1, 2).unwrap();
    let whole: Vec<Vec3> = nav
        .find_path(v(0.5, 0.5), v(2.5, 0.5), &s)
        .unwrap()
        .to_vec();
    assert!(whole.len() > 2, "{whole:?}");

    assert_eq!(
        nav.begin_path(v(0.5, 0.5), v(2.5, 0.5), &s).unwrap(),
        SliceStatus::InProgress
    );
    nav.find_path(v(0.5, 0.5), v(2.5, 0.5), &s).unwrap();
    assert_eq!(
        nav.advance_path(1),
        Err(FindError::Query(QueryError::SlicedPathInterrupted))
    );
    assert!(!nav.last_error().is_empty());
    // Begun again and left alone, it ends with the one-shot path.
    nav.begin_path(v(0.5, 0.5), v(2.5, 0.5), &s).unwrap();
    // A wall distance and a move in between use no search: no interruption.
    nav.distance_to_wall(v(0.5, 0.5), 1.0, &s).unwrap();
    nav.move_along_surface(v(0.5, 0.5), v(0.5, 1.5), &s)
        .unwrap();
    while nav.advance_path(1).unwrap().status == SliceStatus::InProgress {}
    assert_eq!(nav.finish_path().unwrap(), whole.as_slice());
}

use crate::test_meshes::room;

#[test]
fn with_an_agent_radius_moves_walls_and_random_points_keep_the_disc_off_the_walls() {
    let mut nav = room();
    let s = Settings {
        agent_radius: 1.0,
        ..Settings::default()
    };
    // Towards the wall x = 10: stops where the disc touches it, then slides along.
    let moved = nav
        .move_along_surface(v(5.0, 5.0), v(20.0, 5.0), &s)
        .unwrap();
    assert!((moved.surface.point - Vec3::new(9.0, 0.0, 5.0)).length() < 1e-4);
    let slid = nav
        .move_along_surface(v(5.0, 5.0), v(20.0, 7.0), &s)
        .unwrap();
    assert!((slid.surface.point.x - 9.0).abs() < 1e-4 && slid.surface.point.z > 5.5);
    // The same as navstar's own call.
    let m = mesh(&nav);
    let start = m
        .nearest_point(Vec3::new(5.0, 0.0, 5.0), 1.0, None)
        .unwrap();
    let direct = m
        .move_along_surface_for_agent(
            Some(start.polygon),
            Vec3::new(5.0, 0.0, 5.0),
            Vec3::new(20.0, 0.0, 7.0),
            &navstar::QueryFilter::default(),
            1.0,
            &mut Vec::new(),
        )
        .unwrap();
    assert_eq!(direct.point, slid.surface.point);
    // From the middle: 5 to the walls, 4 to where the disc touches them.
    let wall = nav
        .distance_to_wall(v(5.0, 5.0), f32::INFINITY, &s)
        .unwrap()
        .unwrap();
    assert!((wall.distance - 4.0).abs() < 1e-4, "{wall:?}");
    let plain = nav
        .distance_to_wall(v(5.0, 5.0), f32::INFINITY, &Settings::default())
        .unwrap()
        .unwrap();
    assert!((plain.distance - 5.0).abs() < 1e-4, "{plain:?}");
    // Random points only where the disc fits.
    let inside = |p: Vec3| {
        (1.0 - 1e-4..=9.0 + 1e-4).contains(&p.x) && (1.0 - 1e-4..=9.0 + 1e-4).contains(&p.z)
    };
    let mut near_wall = 0;
    for seed in 0..200 {
        let p = nav.random_point(seed, &s).unwrap();
        assert!(inside(p.point), "{p:?}");
        let q = nav
            .random_point_around(v(5.0, 5.0), f32::INFINITY, seed, &s)
            .unwrap();
        assert!(inside(q.point), "{q:?}");
        let loose = nav.random_point(seed, &Settings::default()).unwrap();
        near_wall += usize::from(!inside(loose.point));
    }
    // Without the radius, about 36% of the room lies within 1 of a wall.
    assert!(
        near_wall > 40,
        "{near_wall} of 200 point-agent samples near a wall"
    );
    // A bad radius is refused, naming it.
    let bad = Settings {
        agent_radius: f32::NAN,
        ..Settings::default()
    };
    assert!(
        nav.move_along_surface(v(5.0, 5.0), v(6.0, 5.0), &bad)
            .is_err()
    );
    assert!(
        nav.last_error().contains("agent_radius"),
        "{}",
        nav.last_error()
    );
}
