//! Known answers of every query on hand-made meshes (the meshes of navstar's own docs).

use super::*;
use crate::extras;
use navstar::OffMeshLink;

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

fn row_with(extras: &crate::navigator::Extras) -> Navigator {
    let mut nav = Navigator::default();
    nav.build_with(ROW_VERTICES, ROW_POLYGONS, extras, &Settings::default())
        .unwrap();
    nav
}

fn row() -> Navigator {
    row_with(&Default::default())
}

fn v(x: f32, z: f32) -> [f32; 3] {
    [x, 0.0, z]
}

#[test]
fn raycast_stops_at_the_wall() {
    let mut nav = row();
    let ray = nav
        .raycast(v(0.5, 0.5), v(0.5, 3.0), &Settings::default())
        .unwrap();
    assert_eq!((ray.t, ray.point), (0.2, Vec3::new(0.5, 0.0, 1.0)));
    assert_eq!(ray.hit.unwrap().normal, Vec3::new(0.0, 0.0, -1.0));
    assert_eq!(ray.polygon, 0);
    let clear = nav
        .raycast(v(0.5, 0.5), v(2.5, 0.5), &Settings::default())
        .unwrap();
    assert_eq!((clear.t, clear.polygon, clear.hit), (1.0, 2, None));
    assert_eq!(nav.last_error(), "");
    assert!(
        nav.raycast([f32::NAN, 0.0, 0.0], v(1.0, 1.0), &Settings::default())
            .is_err()
    );
    assert!(
        nav.last_error().contains("non-finite"),
        "{}",
        nav.last_error()
    );
}

#[test]
fn closest_point_snaps_within_the_distance() {
    let mut nav = row();
    let above = [1.5, 2.0, 0.5];
    let n = nav
        .closest_point(above, &Settings::default())
        .unwrap()
        .unwrap();
    assert_eq!(
        (n.polygon, n.point, n.distance),
        (1, Vec3::new(1.5, 0.0, 0.5), 2.0)
    );
    let near = Settings {
        max_snap_distance: 1.0,
        ..Settings::default()
    };
    assert_eq!(nav.closest_point(above, &near).unwrap(), None);
    // With the middle square closed, the filter sends the point to a neighbour's edge.
    nav.set_polygon_flags(1, 0).unwrap();
    let open = nav
        .closest_point(above, &Settings::default())
        .unwrap()
        .unwrap();
    assert_ne!(open.polygon, 1);
    assert_eq!(open.distance, 2.0f32.hypot(0.5));
    assert!(
        nav.closest_point([0.0, f32::INFINITY, 0.0], &Settings::default())
            .is_err()
    );
    assert_eq!(nav.last_error(), "the point has a non-finite coordinate");
}

#[test]
fn nearest_target_picks_the_cheapest() {
    let mut nav = row();
    let targets = [Vec3::new(2.5, 0.0, 0.5), Vec3::new(0.2, 0.0, 0.5)];
    let (target, corners) = nav
        .nearest_target(v(1.0, 0.5), &targets, &Settings::default())
        .unwrap();
    assert_eq!(target, 1);
    assert_eq!(corners, [Vec3::new(1.0, 0.0, 0.5), targets[1]]);
    assert_eq!(nav.last_corner_flags().collect::<Vec<_>>(), [1, 2]);
    assert!((nav.last_cost() - 0.8).abs() < 1e-6);
    // Nothing reachable: an error, and the details are forgotten.
    let far = [Vec3::new(0.5, 0.0, 0.5)];
    let strict = Settings {
        max_snap_distance: 0.1,
        ..Settings::default()
    };
    assert!(nav.nearest_target(v(2.5, 0.5), &[], &strict).is_err());
    assert_eq!(nav.last_corner_flags().len(), 0);
    assert_eq!(nav.last_cost(), 0.0);
    assert!(nav.nearest_target(v(2.5, 0.5), &far, &strict).is_ok());
}

#[test]
fn reachable_polygons_within_a_cost() {
    let mut nav = row();
    let r = nav
        .reachable(v(0.5, 0.5), 1.0, &Settings::default())
        .unwrap();
    assert_eq!((r.polygons, r.parents), (vec![0, 1], vec![-1, 0]));
    assert_eq!(r.costs[1], 0.5);
    let all = nav
        .reachable(v(0.5, 0.5), f32::INFINITY, &Settings::default())
        .unwrap();
    assert_eq!(all.polygons, [0, 1, 2]);
    assert!(
        nav.reachable(v(0.5, 0.5), -1.0, &Settings::default())
            .is_err()
    );
    assert!(
        nav.last_error().contains("max_cost"),
        "{}",
        nav.last_error()
    );
}

#[test]
fn run_time_flags_close_a_door() {
    let mut nav = row();
    let s = Settings::default();
    assert_eq!(nav.polygon_flags(1), Ok(1));
    assert_eq!(nav.set_polygon_flags(1, 0b10), Ok(1));
    assert_eq!(nav.polygon_flags(1), Ok(2));
    // The default filter still admits flags 0b10; excluding that bit closes the door.
    let open = nav
        .find_path(v(0.5, 0.5), v(2.5, 0.5), &s)
        .unwrap()
        .to_vec();
    assert_eq!(open, [Vec3::new(0.5, 0.0, 0.5), Vec3::new(2.5, 0.0, 0.5)]);
    let closed = Settings {
        exclude_flags: 0b10,
        ..Settings::default()
    };
    let partial = nav
        .find_path(v(0.5, 0.5), v(2.5, 0.5), &closed)
        .unwrap()
        .to_vec();
    assert_eq!(partial.last(), Some(&Vec3::new(1.0, 0.0, 0.5)));
    assert!(nav.last_partial());
    // navigation_layers: only polygons sharing a bit are used.
    let layer = Settings {
        include_flags: 0b10,
        ..Settings::default()
    };
    let n = nav.closest_point(v(0.5, 0.5), &layer).unwrap().unwrap();
    assert_eq!(n.polygon, 1);
    // Bad indices and flags are named.
    assert_eq!(
        nav.set_polygon_flags(3, 1),
        Err(FindError::Setting(
            "polygon 3 is out of range (count 3)".into()
        ))
    );
    assert_eq!(nav.last_error(), "polygon 3 is out of range (count 3)");
    assert!(nav.polygon_flags(-1).is_err());
    assert!(nav.set_polygon_flags(0, 1 << 32).is_err());
    assert_eq!(nav.polygon_flags(0), Ok(1));
}

fn jump() -> OffMeshLink {
    OffMeshLink::new(Vec3::new(0.5, 0.0, 0.5), Vec3::new(2.5, 0.0, 0.5))
        .with_cost(0.5)
        .with_bidirectional(false)
}

#[test]
fn links_show_in_the_path_details_and_can_be_closed() {
    let mut nav = row_with(&extras::extras(&[], &[], vec![jump()]).unwrap());
    let s = Settings::default();
    assert_eq!(nav.link_count(), 1);
    nav.find_path(v(0.2, 0.5), v(2.8, 0.5), &s).unwrap();
    assert_eq!(nav.last_corner_flags().collect::<Vec<_>>(), [1, 4, 8, 2]);
    assert_eq!(nav.last_corner_links().collect::<Vec<_>>(), [-1, 0, 0, -1]);
    assert!((nav.last_cost() - 1.1).abs() < 1e-6);
    assert_eq!(nav.link_flags(0), Ok(1));
    assert_eq!(nav.set_link_flags(0, 0), Ok(1));
    nav.find_path(v(0.2, 0.5), v(2.8, 0.5), &s).unwrap();
    assert_eq!(nav.last_corner_flags().collect::<Vec<_>>(), [1, 2]);
    assert!((nav.last_cost() - 2.6).abs() < 1e-6);
    assert_eq!(
        nav.link_flags(1),
        Err(FindError::Setting(
            "link 1 is out of range (count 1)".into()
        ))
    );
    assert!(nav.set_link_flags(0, -5).is_err());
}

#[test]
fn area_costs_weigh_the_path() {
    let mut nav = row_with(&extras::extras(&[0, 1, 0], &[], Vec::new()).unwrap());
    assert_eq!(nav.polygon_area(1), Ok(1));
    let costs = [1.0, 5.0];
    let mud = Settings {
        area_costs: &costs,
        ..Settings::default()
    };
    nav.find_path(v(0.2, 0.5), v(2.8, 0.5), &mud).unwrap();
    assert!((nav.last_cost() - 6.6).abs() < 1e-5, "{}", nav.last_cost());
    assert_eq!(nav.last_corner_areas().collect::<Vec<_>>(), [0, 0]);
    let split = Settings {
        split_at_area_changes: true,
        ..mud
    };
    let corners = nav
        .find_path(v(0.2, 0.5), v(2.8, 0.5), &split)
        .unwrap()
        .len();
    assert_eq!(corners, 4);
    assert_eq!(nav.last_corner_flags().collect::<Vec<_>>(), [1, 16, 16, 2]);
    assert_eq!(nav.last_corner_areas().collect::<Vec<_>>(), [0, 1, 0, 0]);
    // A cost navstar refuses is reported, naming the area.
    let bad = [1.0, -2.0];
    let refused = Settings {
        area_costs: &bad,
        ..Settings::default()
    };
    assert!(nav.find_path(v(0.2, 0.5), v(2.8, 0.5), &refused).is_err());
    assert!(nav.last_error().contains('1'), "{}", nav.last_error());
}

/// An L of three unit squares, polygons 0 = [0,1]x[0,1], 1 = [1,2]x[0,1] and
/// 2 = [0,1]x[1,2]; its inner wall corner is (1, 0, 1).
fn l_shape() -> Navigator {
    let vertices = [
        v(0.0, 0.0),
        v(1.0, 0.0),
        v(2.0, 0.0),
        v(0.0, 1.0),
        v(1.0, 1.0),
        v(2.0, 1.0),
        v(0.0, 2.0),
        v(1.0, 2.0),
    ];
    let polygons: [&[i32]; 3] = [&[0, 1, 4, 3], &[1, 2, 5, 4], &[3, 4, 7, 6]];
    let mut nav = Navigator::default();
    nav.build(vertices, polygons, &Settings::default()).unwrap();
    nav
}

#[test]
fn corridor_lists_the_polygons_crossed() {
    // An L: the path must turn, so it is searched.
    let mut nav = l_shape();
    nav.find_path(v(1.8, 0.5), v(0.5, 1.8), &Settings::default())
        .unwrap();
    assert_eq!(nav.last_corridor(), [1, 0, 2]);
}

#[test]
fn interpolate_blends_vertex_data() {
    let mut nav = row();
    let xs: Vec<f32> = ROW_VERTICES.iter().map(|p| p[0]).collect();
    let out = nav
        .interpolate(v(2.25, 0.5), &xs, 1, &Settings::default())
        .unwrap();
    assert_eq!(out, [2.25]);
    assert_eq!(
        nav.interpolate(v(2.25, 0.5), &xs, 0, &Settings::default()),
        Err(FindError::Setting("channels 0 must be at least 1".into()))
    );
    assert!(
        nav.interpolate(v(2.25, 0.5), &xs[..7], 1, &Settings::default())
            .is_err()
    );
}

#[test]
fn every_query_needs_a_mesh() {
    let mut nav = Navigator::default();
    let s = Settings::default();
    let no_mesh = FindError::NoMesh.to_string();
    assert_eq!(
        nav.raycast(v(0.0, 0.0), v(1.0, 0.0), &s).unwrap_err(),
        FindError::NoMesh
    );
    assert_eq!(nav.last_error(), no_mesh);
    assert!(nav.closest_point(v(0.0, 0.0), &s).is_err());
    assert!(nav.nearest_target(v(0.0, 0.0), &[Vec3::ZERO], &s).is_err());
    assert!(nav.reachable(v(0.0, 0.0), 1.0, &s).is_err());
    assert!(nav.polygon_flags(0).is_err());
    assert!(nav.link_flags(0).is_err());
    assert_eq!(nav.link_count(), 0);
    assert!(nav.interpolate(v(0.0, 0.0), &[], 1, &s).is_err());
    assert!(nav.save_bytes().is_err());
    assert!(nav.last_corridor().is_empty());
}

#[test]
fn bad_properties_fail_the_query_by_name() {
    let mut nav = row();
    let s = Settings {
        include_flags: -1,
        ..Settings::default()
    };
    let expected = "navigation_layers -1 is out of range: flags are 32 bits (0 to 4294967295)";
    assert_eq!(
        nav.find_path(v(0.5, 0.5), v(2.5, 0.5), &s).unwrap_err(),
        FindError::Setting(expected.into())
    );
    assert_eq!(nav.last_error(), expected);
    assert!(nav.raycast(v(0.5, 0.5), v(2.5, 0.5), &s).is_err());
    assert!(nav.reachable(v(0.5, 0.5), 1.0, &s).is_err());
    assert_eq!(nav.last_error(), expected);
}

#[test]
fn binary_round_trip_keeps_mesh_and_flags() {
    let mut nav = row_with(&extras::extras(&[0, 2, 0], &[], vec![jump()]).unwrap());
    nav.set_polygon_flags(2, 6).unwrap();
    let bytes = nav.save_bytes().unwrap();
    let mut back = Navigator::default();
    back.load_bytes(&bytes, "", &Settings::default()).unwrap();
    assert_eq!(
        (back.polygon_count(), back.vertex_count(), back.link_count()),
        (3, 8, 1)
    );
    assert_eq!(
        (back.polygon_flags(2), back.polygon_area(1)),
        (Ok(6), Ok(2))
    );
    let a = nav
        .find_path(v(0.2, 0.5), v(2.8, 0.5), &Settings::default())
        .unwrap()
        .to_vec();
    let b = back
        .find_path(v(0.2, 0.5), v(2.8, 0.5), &Settings::default())
        .unwrap()
        .to_vec();
    assert_eq!(a, b);
    assert!(
        back.load_bytes(&bytes, "navstar", &Settings::default())
            .is_ok()
    );
    // Damaged bytes leave no mesh and say why.
    assert!(
        back.load_bytes(&bytes[..bytes.len() / 2], "", &Settings::default())
            .is_err()
    );
    assert_eq!(back.polygon_count(), 0);
    assert!(!back.last_error().is_empty());
}

#[test]
fn text_formats_and_files_load() {
    let mut nav = Navigator::default();
    let obj = b"v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nf 1 2 3 4\n";
    nav.load_bytes(obj, "OBJ", &Settings::default()).unwrap();
    assert_eq!((nav.polygon_count(), nav.vertex_count()), (1, 4));
    let err = nav
        .load_bytes(obj, "xyz", &Settings::default())
        .unwrap_err();
    assert!(
        err.starts_with("unknown mesh format \"xyz\" (known: "),
        "{err}"
    );
    assert!(err.contains("obj") && err.contains("navstar"), "{err}");
    assert_eq!(nav.polygon_count(), 0);

    let arena = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/arena.mesh");
    nav.load_file(arena, &Settings::default()).unwrap();
    assert!(nav.polygon_count() > 0);
    let missing = nav
        .load_file("/nonexistent/x.obj", &Settings::default())
        .unwrap_err();
    assert!(missing.contains("/nonexistent/x.obj"), "{missing}");
}

#[test]
fn two_d_polygons_give_ground_paths() {
    let mut nav = Navigator::default();
    let flat = ROW_VERTICES.map(|p| crate::convert::lift([p[0], p[2]]));
    nav.build(flat, ROW_POLYGONS, &Settings::default()).unwrap();
    let path = nav
        .find_path(
            crate::convert::lift([0.5, 0.5]),
            crate::convert::lift([2.5, 0.8]),
            &Settings::default(),
        )
        .unwrap();
    let points: Vec<[f32; 2]> = path
        .iter()
        .map(|p| crate::convert::ground(p.to_array()))
        .collect();
    assert_eq!(points, [[0.5, 0.5], [2.5, 0.8]]);
}

#[test]
fn agent_radius_keeps_paths_off_the_walls() {
    // The row is 1 wide (z from 0 to 1): a disc of radius 0.3 keeps its centre within
    // z 0.3..0.7 and x 0.3..2.7, so a path from a point near one wall to a point near the
    // other starts and ends moved off them, and every corner keeps the radius.
    let mut nav = row();
    let s = Settings {
        agent_radius: 0.3,
        ..Settings::default()
    };
    let corners = nav
        .find_path(v(0.1, 0.1), v(2.9, 0.9), &s)
        .unwrap()
        .to_vec();
    assert!(corners.len() >= 2);
    for c in &corners {
        assert!(
            (0.3 - 1e-4..=0.7 + 1e-4).contains(&c.z) && (0.3 - 1e-4..=2.7 + 1e-4).contains(&c.x),
            "corner {c} is within the radius of a wall"
        );
    }
    // A disc wider than the row fits nowhere: an error, named by the option.
    let wide = Settings {
        agent_radius: 0.6,
        ..Settings::default()
    };
    assert!(nav.find_path(v(0.5, 0.5), v(2.5, 0.5), &wide).is_err());
    assert!(!nav.last_error().is_empty());
    // Reachable polygons honour the radius too: at 0.3 every square is still reachable.
    let r = nav.reachable(v(0.5, 0.5), f32::INFINITY, &s).unwrap();
    assert_eq!(r.polygons, [0, 1, 2]);
}

#[test]
fn agent_radius_paths_give_their_turns_round_wall_corners() {
    // An L of three unit squares whose inner wall corner is (1, 0, 1): a disc of radius
    // 0.2 turns round it once, its turn's points between 0.2 and the octagon's reach.
    let mut nav = l_shape();
    let s = Settings {
        agent_radius: 0.2,
        ..Settings::default()
    };
    let corners = nav
        .find_path(v(1.8, 0.5), v(0.5, 1.8), &s)
        .unwrap()
        .to_vec();
    let arcs = nav.last_arcs().to_vec();
    assert_eq!(arcs.len(), 1, "{arcs:?}");
    assert_eq!(
        (arcs[0].centre, arcs[0].radius),
        (Vec3::new(1.0, 0.0, 1.0), 0.2)
    );
    let reach = 0.2 / (std::f32::consts::PI / 8.0).cos();
    for c in &corners[arcs[0].first_corner as usize..=arcs[0].last_corner as usize] {
        let d = c.distance(arcs[0].centre);
        assert!((0.2 - 1e-5..=reach + 1e-5).contains(&d), "{c} at {d}");
    }
    // Without a radius, and after a failure, there are none.
    nav.find_path(v(1.8, 0.5), v(0.5, 1.8), &Settings::default())
        .unwrap();
    assert!(nav.last_arcs().is_empty());
    nav.find_path(v(1.8, 0.5), v(0.5, 1.8), &s).unwrap();
    let wide = Settings {
        agent_radius: 0.6,
        ..Settings::default()
    };
    assert!(nav.find_path(v(1.8, 0.5), v(0.5, 1.8), &wide).is_err());
    assert!(nav.last_arcs().is_empty());
}

#[test]
fn agent_radius_moves_the_closest_point_and_stops_raycasts() {
    // The row (z 0..1, x 0..3) for a disc of radius 0.3: its centre stays in
    // x 0.3..2.7, z 0.3..0.7.
    let mut nav = row();
    let s = Settings {
        agent_radius: 0.3,
        ..Settings::default()
    };
    let n = nav.closest_point([0.1, 2.0, 0.1], &s).unwrap().unwrap();
    // Within 1e-4: the region is drawn a hair (1e-6 of the largest coordinate) smaller.
    assert_eq!(n.polygon, 0);
    assert!(
        (n.point - Vec3::new(0.3, 0.0, 0.3)).length() < 1e-4,
        "{n:?}"
    );
    assert!((n.distance - 4.08f32.sqrt()).abs() < 1e-4, "{}", n.distance);
    // Within the snap distance only: the disc's nearest point is 0.3 from (0.5, 0, 0).
    let near = Settings {
        max_snap_distance: 0.25,
        ..s
    };
    assert_eq!(nav.closest_point(v(0.5, 0.0), &near).unwrap(), None);
    // East along the row the disc stops 0.3 before the end wall, north 0.3 before z = 1.
    let ray = nav.raycast(v(0.5, 0.5), v(3.5, 0.5), &s).unwrap();
    assert!(
        (ray.point - Vec3::new(2.7, 0.0, 0.5)).length() < 1e-5,
        "{ray:?}"
    );
    assert!((ray.t - 2.2 / 3.0).abs() < 1e-5, "{ray:?}");
    assert_eq!(
        (ray.polygon, ray.hit.unwrap().normal),
        (2, Vec3::new(-1.0, 0.0, 0.0))
    );
    let ray = nav.raycast(v(0.5, 0.5), v(0.5, 3.0), &s).unwrap();
    assert!(
        (ray.point - Vec3::new(0.5, 0.0, 0.7)).length() < 1e-5,
        "{ray:?}"
    );
    assert_eq!(ray.hit.unwrap().normal, Vec3::new(0.0, 0.0, -1.0));
    // The start is moved to where the disc fits first.
    let ray = nav.raycast(v(0.05, 0.5), v(0.05, 0.6), &s).unwrap();
    assert!((ray.point.x - 0.3).abs() < 1e-5, "{ray:?}");
    assert_eq!(nav.last_error(), "");
    // A disc wider than the row fits nowhere; a NaN radius is refused: errors naming it.
    for radius in [0.6, f32::NAN, -1.0] {
        let bad = Settings {
            agent_radius: radius,
            ..Settings::default()
        };
        assert!(nav.closest_point(v(0.5, 0.5), &bad).is_err());
        assert!(
            nav.last_error().contains("agent_radius"),
            "{}",
            nav.last_error()
        );
        assert!(nav.raycast(v(0.5, 0.5), v(2.5, 0.5), &bad).is_err());
        assert!(
            nav.last_error().contains("agent_radius"),
            "{}",
            nav.last_error()
        );
    }
}
