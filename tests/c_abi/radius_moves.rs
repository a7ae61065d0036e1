//! The agent radius on the queries for agents that move, through the C ABI:
//! `navstar_mesh_move_along_surface_for_agent`, `navstar_query_distance_to_wall_for_agent`,
//! `navstar_mesh_random_point_for_agent` and `navstar_query_random_point_around_for_agent`
//! give known answers in the room with a pillar of `radius.rs`, the Rust answers on random
//! points and radii, and every bad argument is named.

use std::ptr;

use navstar::ffi::{
    NAVSTAR_NO_POLYGON, NavstarStatus, NavstarSurfaceMove, NavstarWallDistance,
    navstar_mesh_move_along_surface_for_agent, navstar_mesh_options_default,
    navstar_mesh_random_point_for_agent, navstar_query_distance_to_wall_for_agent,
    navstar_query_random_point_around_for_agent,
};
use navstar::glam::Vec3;
use navstar::{Query, QueryFilter, SplitMix64};
use proptest::prelude::*;

use crate::assert_status;
use crate::common::proptest_config;
use crate::radius::{Handles, create, rust_mesh};

const NO_MOVE: NavstarSurfaceMove = NavstarSurfaceMove {
    point: [-1.0; 3],
    polygon: 99,
    walls: 99,
};

const NO_WALL: NavstarWallDistance = NavstarWallDistance {
    found: 7,
    distance: -1.0,
    point: [-1.0; 3],
    normal: [-1.0; 3],
    polygon: 99,
};

/// The C move: (status, answer, the visited polygons written, the count reported).
fn c_move(
    h: &Handles,
    start_polygon: u32,
    start: Vec3,
    target: Vec3,
    radius: f32,
    capacity: u32,
) -> (NavstarStatus, NavstarSurfaceMove, Vec<u32>, u32) {
    let mut moved = NO_MOVE;
    let mut visited = vec![u32::MAX; capacity as usize];
    let mut count = 12345;
    // SAFETY: mesh live; 3 readable floats each; outputs writable, `capacity` of them.
    let status = unsafe {
        navstar_mesh_move_along_surface_for_agent(
            h.0,
            start_polygon,
            start.as_ref().as_ptr(),
            target.as_ref().as_ptr(),
            ptr::null(),
            radius,
            &mut moved,
            visited.as_mut_ptr(),
            capacity,
            &mut count,
        )
    };
    visited.truncate(count.min(capacity) as usize);
    (status, moved, visited, count)
}

/// The C wall distance: (status, answer).
fn c_wall(
    h: &Handles,
    point: Vec3,
    radius: f32,
    agent: f32,
) -> (NavstarStatus, NavstarWallDistance) {
    let mut wall = NO_WALL;
    // SAFETY: query live and used by this thread only; 3 readable floats; out writable.
    let status = unsafe {
        navstar_query_distance_to_wall_for_agent(
            h.1,
            point.as_ref().as_ptr(),
            radius,
            ptr::null(),
            agent,
            &mut wall,
        )
    };
    (status, wall)
}

/// The C random point (over the mesh, or around `around` within `radius`): (status,
/// point, polygon, the generator's state after).
fn c_random(
    h: &Handles,
    around: Option<(Vec3, f32)>,
    agent: f32,
    state: u64,
) -> (NavstarStatus, [f32; 3], u32, u64) {
    let (mut point, mut polygon, mut state) = ([-1.0f32; 3], 99, state);
    // SAFETY: handles live (the query used by this thread only); 3 readable floats;
    // outputs writable.
    let status = unsafe {
        match around {
            None => navstar_mesh_random_point_for_agent(
                h.0,
                ptr::null(),
                agent,
                &mut state,
                point.as_mut_ptr(),
                &mut polygon,
            ),
            Some((center, radius)) => navstar_query_random_point_around_for_agent(
                h.1,
                center.as_ref().as_ptr(),
                radius,
                ptr::null(),
                agent,
                &mut state,
                point.as_mut_ptr(),
                &mut polygon,
            ),
        }
    };
    (status, point, polygon, state)
}

#[track_caller]
fn assert_near(got: [f32; 3], want: [f32; 3]) {
    assert!(
        got.iter().zip(want).all(|(g, w)| (g - w).abs() <= 1e-4),
        "{got:?} is not {want:?}"
    );
}

/// The distance from ground point (x, z) to the walls of the room with a pillar.
fn wall_gap(x: f32, z: f32) -> f32 {
    let outer = x.min(z).min(6.0 - x).min(6.0 - z);
    let dx = (2.0 - x).max(x - 4.0).max(0.0);
    let dz = (2.0 - z).max(z - 4.0).max(0.0);
    outer.min((dx * dx + dz * dz).sqrt())
}

#[test]
fn known_answers_in_the_room_with_a_pillar() {
    let h = create(&navstar_mesh_options_default());
    // North at x = 1 (west of the pillar): a disc of 0.5 stops at z = 5.5; aimed
    // north-east past the wall it slides along z = 5.5.
    let (status, moved, visited, count) = c_move(
        &h,
        3,
        Vec3::new(1.0, 0.0, 3.0),
        Vec3::new(1.0, 0.0, 8.0),
        0.5,
        8,
    );
    assert_status(status, NavstarStatus::NavstarOk, &[]);
    assert_near(moved.point, [1.0, 0.0, 5.5]);
    assert_eq!((moved.polygon, moved.walls), (2, 1));
    assert_eq!((visited, count), (vec![3, 2], 2));
    let (_, moved, ..) = c_move(
        &h,
        3,
        Vec3::new(1.0, 0.0, 4.5),
        Vec3::new(2.0, 0.0, 8.0),
        0.5,
        8,
    );
    assert_near(moved.point, [2.0, 0.0, 5.5]);
    // A buffer of 1: the prefix, the full count, the full answer.
    let (status, moved, visited, count) = c_move(
        &h,
        3,
        Vec3::new(1.0, 0.0, 3.0),
        Vec3::new(1.0, 0.0, 8.0),
        0.5,
        1,
    );
    assert_status(status, NavstarStatus::NavstarBufferTooSmall, &[]);
    assert_eq!((visited, count, moved.polygon), (vec![3], 2, 2));
    // The wall distance at (0.8, 3): the eroded wall x = 0.5 is 0.3 away.
    let (status, wall) = c_wall(&h, Vec3::new(0.8, 0.0, 3.0), f32::INFINITY, 0.5);
    assert_status(status, NavstarStatus::NavstarOk, &[]);
    assert_eq!(wall.found, 1);
    assert!((wall.distance - 0.3).abs() < 1e-5, "{wall:?}");
    assert_near(wall.point, [0.5, 0.0, 3.0]);
    assert_near(wall.normal, [1.0, 0.0, 0.0]);
    assert_eq!(wall.polygon, 3);
    // Nothing within 0.2.
    let (status, wall) = c_wall(&h, Vec3::new(0.8, 0.0, 3.0), 0.2, 0.5);
    assert_status(status, NavstarStatus::NavstarOk, &[]);
    assert_eq!((wall.found, wall.polygon), (0, NAVSTAR_NO_POLYGON));
    // Random points keep 0.5 from every wall, the pillar's included; the state moves on.
    let mut state = 11;
    for k in 0..200 {
        let around = (k % 2 == 1).then_some((Vec3::new(1.0, 0.0, 1.0), 2.0));
        let (status, point, polygon, next) = c_random(&h, around, 0.5, state);
        assert_status(status, NavstarStatus::NavstarOk, &[]);
        assert!(wall_gap(point[0], point[2]) >= 0.5 - 1e-4, "{point:?}");
        assert!(polygon < 4);
        assert_ne!(next, state);
        state = next;
    }
}

#[test]
fn bad_arguments_are_named() {
    let h = create(&navstar_mesh_options_default());
    let p = Vec3::new(1.0, 0.0, 3.0);
    for radius in [f32::NAN, -0.5, f32::INFINITY] {
        let (status, moved, _, count) = c_move(&h, 3, p, p + Vec3::Z, radius, 4);
        assert_status(
            status,
            NavstarStatus::NavstarErrorInvalidArgument,
            &["navstar_mesh_move_along_surface_for_agent", "agent_radius"],
        );
        assert_eq!(
            (moved, count),
            (NO_MOVE, 0),
            "the move untouched, the count 0"
        );
        let (status, wall) = c_wall(&h, p, 1.0, radius);
        assert_status(
            status,
            NavstarStatus::NavstarErrorInvalidArgument,
            &["navstar_query_distance_to_wall_for_agent", "agent_radius"],
        );
        assert_eq!(wall, NO_WALL);
        for around in [None, Some((p, 1.0))] {
            let (status, point, polygon, state) = c_random(&h, around, radius, 5);
            assert_status(
                status,
                NavstarStatus::NavstarErrorInvalidArgument,
                &["agent_radius"],
            );
            assert_eq!(
                (point, polygon, state),
                ([-1.0; 3], 99, 5),
                "outputs untouched"
            );
        }
    }
    // A disc that fits nowhere in the room.
    let (status, ..) = c_move(&h, 3, p, p + Vec3::Z, 3.5, 4);
    assert_status(
        status,
        NavstarStatus::NavstarErrorInvalidArgument,
        &["agent_radius"],
    );
    let (status, _, _, state) = c_random(&h, None, 3.5, 5);
    assert_status(
        status,
        NavstarStatus::NavstarErrorInvalidArgument,
        &["agent_radius"],
    );
    assert_eq!(state, 5);
    // The search radius, the start polygon, NULL handles and outputs.
    let (status, _) = c_wall(&h, p, f32::NAN, 0.5);
    assert_status(
        status,
        NavstarStatus::NavstarErrorInvalidArgument,
        &["radius"],
    );
    let (status, ..) = c_random(&h, Some((p, -1.0)), 0.5, 5);
    assert_status(
        status,
        NavstarStatus::NavstarErrorInvalidArgument,
        &["radius"],
    );
    let (status, ..) = c_move(&h, 4, p, p + Vec3::Z, 0.5, 4);
    assert_status(
        status,
        NavstarStatus::NavstarErrorInvalidArgument,
        &["start_polygon 4"],
    );
    let (status, ..) = c_move(&h, 3, Vec3::new(f32::NAN, 0.0, 0.0), p, 0.5, 4);
    assert_status(
        status,
        NavstarStatus::NavstarErrorInvalidArgument,
        &["start"],
    );
    // SAFETY: NULL handles and outputs are refused before anything is read.
    unsafe {
        let status = navstar_query_distance_to_wall_for_agent(
            ptr::null_mut(),
            p.as_ref().as_ptr(),
            1.0,
            ptr::null(),
            0.5,
            &mut NO_WALL.clone(),
        );
        assert_status(status, NavstarStatus::NavstarErrorNullArgument, &["query"]);
        let status = navstar_query_distance_to_wall_for_agent(
            h.1,
            p.as_ref().as_ptr(),
            1.0,
            ptr::null(),
            0.5,
            ptr::null_mut(),
        );
        assert_status(
            status,
            NavstarStatus::NavstarErrorNullArgument,
            &["out_wall"],
        );
        let mut state = 1;
        let status = navstar_mesh_random_point_for_agent(
            ptr::null(),
            ptr::null(),
            0.5,
            &mut state,
            [0.0f32; 3].as_mut_ptr(),
            ptr::null_mut(),
        );
        assert_status(status, NavstarStatus::NavstarErrorNullArgument, &["mesh"]);
        let status = navstar_mesh_move_along_surface_for_agent(
            h.0,
            3,
            p.as_ref().as_ptr(),
            ptr::null(),
            ptr::null(),
            0.5,
            &mut NO_MOVE.clone(),
            ptr::null_mut(),
            0,
            &mut 0,
        );
        assert_status(status, NavstarStatus::NavstarErrorNullArgument, &["target"]);
    }
}

proptest! {
    #![proptest_config(proptest_config(64))]

    #[test]
    fn c_answers_are_the_rust_answers(
        x in 0.0f32..6.0, z in 0.0f32..6.0, tx in -1.0f32..7.0, tz in -1.0f32..7.0,
        radius in prop_oneof![Just(0.0f32), 0.05f32..0.9], seed in any::<u64>(),
    ) {
        let h = create(&navstar_mesh_options_default());
        let mesh = rust_mesh(0.0);
        let filter = QueryFilter::default();
        let (s, t) = (Vec3::new(x, 0.0, z), Vec3::new(tx, 0.0, tz));
        let mut visited = Vec::new();
        let rust = mesh.move_along_surface_for_agent(None, s, t, &filter, radius, &mut visited).unwrap();
        let (status, moved, c_visited, _) = c_move(&h, NAVSTAR_NO_POLYGON, s, t, radius, 16);
        prop_assert_eq!(status, NavstarStatus::NavstarOk);
        prop_assert_eq!(moved.point.map(f32::to_bits), rust.point.to_array().map(f32::to_bits));
        prop_assert_eq!((moved.polygon, moved.walls), (rust.polygon, rust.walls));
        prop_assert_eq!(&c_visited, &visited);
        prop_assert!(wall_gap(rust.point.x, rust.point.z) >= radius - 1e-3, "{:?}", rust);
        let wall = Query::new(&mesh).distance_to_wall_for_agent(s, f32::INFINITY, &filter, radius).unwrap().unwrap();
        let (_, c) = c_wall(&h, s, f32::INFINITY, radius);
        prop_assert_eq!((c.found, c.distance.to_bits(), c.polygon), (1, wall.distance.to_bits(), wall.polygon));
        prop_assert_eq!(c.point.map(f32::to_bits), wall.point.to_array().map(f32::to_bits));
        let mut rng = SplitMix64::new(seed);
        let point = mesh.random_point_for_agent(&filter, radius, &mut || rng.next_u64()).unwrap();
        let (_, c_point, c_polygon, state) = c_random(&h, None, radius, seed);
        prop_assert_eq!((c_point.map(f32::to_bits), c_polygon, state), (point.point.to_array().map(f32::to_bits), point.polygon, rng.state));
        let mut rng = SplitMix64::new(seed);
        let point = Query::new(&mesh).random_point_around_for_agent(s, 1.5, &filter, radius, &mut || rng.next_u64()).unwrap();
        let (_, c_point, c_polygon, state) = c_random(&h, Some((s, 1.5)), radius, seed);
        prop_assert_eq!((c_point.map(f32::to_bits), c_polygon, state), (point.point.to_array().map(f32::to_bits), point.polygon, rng.state));
        prop_assert!(wall_gap(point.point.x, point.point.z) >= radius - 1e-3, "{:?}", point);
    }
}

/// The C corridor's corners and flags (split_at_area_changes 0).
fn c_corners(corridor: *mut navstar::ffi::NavstarCorridor) -> (Vec<[f32; 3]>, Vec<u32>) {
    let mut points = vec![[0.0f32; 3]; 128];
    let mut flags = vec![99u32; 128];
    let mut count = 0;
    // SAFETY: a live corridor used by this thread; outputs of 128 items.
    let status = unsafe {
        navstar::ffi::navstar_corridor_corners(
            corridor,
            ptr::null(),
            0,
            points.as_mut_ptr().cast(),
            flags.as_mut_ptr(),
            128,
            &mut count,
        )
    };
    assert_status(status, NavstarStatus::NavstarOk, &[]);
    points.truncate(count as usize);
    flags.truncate(count as usize);
    (points, flags)
}

#[test]
fn corridor_with_a_radius_keeps_it_from_the_pillar() {
    use navstar::ffi::{
        navstar_corridor_create, navstar_corridor_free, navstar_corridor_move_position,
        navstar_corridor_position, navstar_corridor_set_agent_radius,
    };
    let h = create(&navstar_mesh_options_default());
    // South quad 0, then east quad 1, round the pillar's corner (4, 2).
    let (start, target) = (Vec3::new(1.0, 0.0, 1.0), Vec3::new(5.0, 0.0, 5.0));
    let polygons = [0u32, 1];
    let mut corridor = ptr::null_mut();
    // SAFETY: a live mesh; 2 polygons; 3 floats each; out writable.
    let status = unsafe {
        navstar_corridor_create(
            h.0,
            polygons.as_ptr(),
            2,
            start.as_ref().as_ptr(),
            target.as_ref().as_ptr(),
            &mut corridor,
        )
    };
    assert_status(status, NavstarStatus::NavstarOk, &[]);
    let (plain, _) = c_corners(corridor);
    assert_eq!(
        plain.len(),
        2,
        "{plain:?}: the pillar's corner, then the target"
    );
    // SAFETY: a live corridor used by this thread.
    for bad in [f32::NAN, -0.5, f32::INFINITY, 3.5] {
        let status = unsafe { navstar_corridor_set_agent_radius(corridor, bad) };
        assert_status(
            status,
            NavstarStatus::NavstarErrorInvalidArgument,
            &["agent_radius"],
        );
    }
    // SAFETY: NULL is refused.
    let status = unsafe { navstar_corridor_set_agent_radius(ptr::null_mut(), 0.5) };
    assert_status(
        status,
        NavstarStatus::NavstarErrorNullArgument,
        &["corridor"],
    );
    assert_eq!(
        c_corners(corridor).0,
        plain,
        "a refused radius changes nothing"
    );
    // SAFETY: a live corridor used by this thread.
    let status = unsafe { navstar_corridor_set_agent_radius(corridor, 0.5) };
    assert_status(status, NavstarStatus::NavstarOk, &[]);
    let (corners, flags) = c_corners(corridor);
    // More corners than without the radius: the turn round the corner's octagon.
    assert!(
        corners.len() > plain.len(),
        "{corners:?}: round the corner's circle"
    );
    for c in &corners {
        assert!(wall_gap(c[0], c[2]) >= 0.5 - 1e-4, "{c:?} too near a wall");
    }
    assert_near(*corners.last().unwrap(), [5.0, 0.0, 5.0]);
    let end = u32::from(navstar::CornerFlags::END.bits());
    assert!(flags[..flags.len() - 1].iter().all(|&f| f == 0) && flags.last() == Some(&end));
    // The Rust corridor, the same steps: the same corners.
    let mesh = rust_mesh(0.0);
    let mut rust = navstar::PathCorridor::new(&mesh, 0, start).unwrap();
    rust.set_corridor(target, &polygons).unwrap();
    rust.set_agent_radius(0.5).unwrap();
    let want: Vec<[f32; 3]> = rust.corners(128).iter().map(|c| c.to_array()).collect();
    assert_eq!(corners, want);
    // A move into the south wall stops 0.5 short of it.
    let mut on = 7;
    let mut position = [0.0f32; 3];
    let mut target_out = [0.0f32; 3];
    // SAFETY: a live corridor used by this thread; 3 floats; outputs writable.
    unsafe {
        let status = navstar_corridor_move_position(
            corridor,
            [1.0f32, 0.0, -2.0].as_ptr(),
            ptr::null(),
            &mut on,
        );
        assert_status(status, NavstarStatus::NavstarOk, &[]);
        let status =
            navstar_corridor_position(corridor, position.as_mut_ptr(), target_out.as_mut_ptr());
        assert_status(status, NavstarStatus::NavstarOk, &[]);
        navstar_corridor_free(corridor);
    }
    assert_near(position, [1.0, 0.0, 0.5]);
    assert_near(target_out, [5.0, 0.0, 5.0]);
}

/// The C corridor's polygons.
fn c_polygons(corridor: *mut navstar::ffi::NavstarCorridor) -> Vec<u32> {
    let mut polygons = vec![0u32; 64];
    let mut count = 0;
    // SAFETY: a live corridor; room for 64 polygons.
    let status = unsafe {
        navstar::ffi::navstar_corridor_polygons(corridor, polygons.as_mut_ptr(), 64, &mut count)
    };
    assert_status(status, NavstarStatus::NavstarOk, &[]);
    polygons.truncate(count as usize);
    polygons
}

#[test]
fn corridor_repair_and_details_keep_the_radius_through_the_c_abi() {
    use navstar::ffi::{
        NAVSTAR_REPAIR_REPAIRED, navstar_corridor_corners, navstar_corridor_create,
        navstar_corridor_free, navstar_corridor_repair, navstar_corridor_set_agent_radius,
        navstar_mesh_set_polygon_flags,
    };
    let h = create(&navstar_mesh_options_default());
    // From the south quad 0 through the east quad 1 into the north quad 2.
    let (start, target) = (Vec3::new(3.0, 0.0, 1.0), Vec3::new(3.0, 0.0, 5.0));
    let polygons = [0u32, 1, 2];
    let mut corridor = ptr::null_mut();
    // SAFETY: a live mesh; 3 polygons; 3 floats each; out writable.
    let status = unsafe {
        navstar_corridor_create(
            h.0,
            polygons.as_ptr(),
            3,
            start.as_ref().as_ptr(),
            target.as_ref().as_ptr(),
            &mut corridor,
        )
    };
    assert_status(status, NavstarStatus::NavstarOk, &[]);
    // SAFETY: a live corridor used by this thread.
    let status = unsafe { navstar_corridor_set_agent_radius(corridor, 0.5) };
    assert_status(status, NavstarStatus::NavstarOk, &[]);
    // The corners with area splits are the corners without (one area): with the radius.
    let (plain, _) = c_corners(corridor);
    let mut points = vec![[0.0f32; 3]; 128];
    let mut flags = vec![0u32; 128];
    let mut count = 0;
    // SAFETY: a live corridor; outputs of 128 items.
    let status = unsafe {
        navstar_corridor_corners(
            corridor,
            ptr::null(),
            1,
            points.as_mut_ptr().cast(),
            flags.as_mut_ptr(),
            128,
            &mut count,
        )
    };
    assert_status(status, NavstarStatus::NavstarOk, &[]);
    points.truncate(count as usize);
    assert_eq!(points, plain);
    // The east quad closes: the repair goes round the west side, keeping the radius, as
    // the Rust corridor's does.
    // SAFETY: a live mesh; out_previous may be NULL.
    let status = unsafe { navstar_mesh_set_polygon_flags(h.0, 1, 0, ptr::null_mut()) };
    assert_status(status, NavstarStatus::NavstarOk, &[]);
    let (mut outcome, mut kept) = (99u32, 99u32);
    // SAFETY: a live corridor and query of the same mesh; outputs writable.
    let status =
        unsafe { navstar_corridor_repair(corridor, h.1, ptr::null(), &mut outcome, &mut kept) };
    assert_status(status, NavstarStatus::NavstarOk, &[]);
    assert_eq!(outcome, NAVSTAR_REPAIR_REPAIRED);
    let repaired = c_polygons(corridor);
    assert_eq!(repaired, [0, 3, 2]);
    let (corners, _) = c_corners(corridor);
    for c in &corners {
        assert!(wall_gap(c[0], c[2]) >= 0.5 - 1e-4, "{c:?} too near a wall");
    }
    let mesh = rust_mesh(0.0);
    let mut rust = navstar::PathCorridor::new(&mesh, 0, start).unwrap();
    rust.set_corridor(target, &polygons).unwrap();
    rust.set_agent_radius(0.5).unwrap();
    mesh.set_polygon_flags(1, 0).unwrap();
    let mut query = Query::new(&mesh);
    rust.repair(&mut query, &navstar::PathOptions::default())
        .unwrap();
    assert_eq!(rust.polygons(), repaired);
    let want: Vec<[f32; 3]> = rust.corners(128).iter().map(|c| c.to_array()).collect();
    assert_eq!(corners, want);
    // SAFETY: made above, freed once.
    unsafe { navstar_corridor_free(corridor) };
}
