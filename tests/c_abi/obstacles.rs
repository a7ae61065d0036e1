//! Obstacles of a world through the C ABI: the three shapes, paths round and blocked,
//! removal restoring the polygons, moving, every bad input named (NULL, struct size,
//! unknown shape, too few or too many points, NaN, a non-convex footprint, bad radius and
//! heights), stale and foreign references; and the C answer equal to the Rust one.

use std::ptr;

use glam::Vec2;
use navstar::ffi::{
    NAVSTAR_OBSTACLE_BOX, NAVSTAR_OBSTACLE_CIRCLE, NAVSTAR_OBSTACLE_POLYGON, NavstarObstacle,
    NavstarObstacleRef, NavstarStatus, navstar_obstacle_default, navstar_world_add_obstacle,
    navstar_world_move_obstacle, navstar_world_obstacle_count, navstar_world_remove_obstacle,
};

use NavstarStatus::{
    NavstarErrorInvalidArgument as INVALID_ARGUMENT, NavstarErrorNullArgument as NULL_ARGUMENT,
    NavstarErrorStaleReference as STALE_REFERENCE, NavstarOk as OK,
    NavstarPartialPath as PARTIAL_PATH,
};

use crate::assert_status;
use crate::world::{World, add_ok, grid_tile, new_world, path, snapshot};

fn add(world: &World, obstacle: Option<&NavstarObstacle>) -> (NavstarStatus, NavstarObstacleRef) {
    let mut out = NavstarObstacleRef {
        world: 9,
        reserved: 9,
        id: 9,
    };
    // SAFETY: a live world; `obstacle` NULL or a whole struct whose points (if any) are
    // readable; `out` is writable.
    let status = unsafe {
        navstar_world_add_obstacle(
            world.0,
            obstacle.map_or(ptr::null(), |o| o as *const _),
            &mut out,
        )
    };
    if status != OK {
        assert_eq!(
            out,
            NavstarObstacleRef::default(),
            "*out_obstacle not zeroed"
        );
    }
    (status, out)
}

fn count(world: &World) -> u32 {
    // SAFETY: a live world.
    unsafe { navstar_world_obstacle_count(world.0) }
}

fn circle(x: f32, z: f32, r: f32) -> NavstarObstacle {
    NavstarObstacle {
        shape: NAVSTAR_OBSTACLE_CIRCLE,
        center: [x, z],
        radius: r,
        ..navstar_obstacle_default()
    }
}

/// A 10 x 4 corridor of unit cells from the origin.
fn corridor(world: &World) {
    add_ok(world, &grid_tile(10, 4, &[1; 40], 0.0, 0.0));
}

#[test]
fn a_box_across_blocks_and_removal_restores() {
    let world = new_world();
    corridor(&world);
    let before = snapshot(&world).polygon_count();
    let wall = NavstarObstacle {
        shape: NAVSTAR_OBSTACLE_BOX,
        center: [5.0, 2.0],
        half_extents: [0.5, 3.0],
        ..navstar_obstacle_default()
    };
    let (status, id) = add(&world, Some(&wall));
    assert_status(status, OK, &[]);
    assert_eq!((id.id, count(&world)), (1, 1));
    let (status, points) = path(&snapshot(&world), [1.0, 0.0, 2.0], [9.0, 0.0, 2.0]);
    assert_status(status, PARTIAL_PATH, &[]);
    assert!((points.last().unwrap()[0] - 4.5).abs() < 1e-4, "{points:?}");
    // SAFETY: a live world.
    assert_status(
        unsafe { navstar_world_remove_obstacle(world.0, id) },
        OK,
        &[],
    );
    assert_eq!(snapshot(&world).polygon_count(), before);
    let (status, _) = path(&snapshot(&world), [1.0, 0.0, 2.0], [9.0, 0.0, 2.0]);
    assert_status(status, OK, &[]);
    // Removed: stale, once and again.
    // SAFETY: a live world.
    let status = unsafe { navstar_world_remove_obstacle(world.0, id) };
    assert_status(status, STALE_REFERENCE, &["obstacle 1"]);
}

#[test]
fn a_polygon_and_a_disc_are_gone_round_and_move() {
    let world = new_world();
    corridor(&world);
    // A triangle in the middle, clockwise (either winding is fine).
    let points = [4.0f32, 1.0, 5.0, 3.0, 6.0, 1.0];
    let triangle = NavstarObstacle {
        shape: NAVSTAR_OBSTACLE_POLYGON,
        points: points.as_ptr(),
        point_count: 3,
        ..navstar_obstacle_default()
    };
    let (status, t) = add(&world, Some(&triangle));
    assert_status(status, OK, &[]);
    let (status, corners) = path(&snapshot(&world), [1.0, 0.0, 2.0], [9.0, 0.0, 2.0]);
    assert_status(status, OK, &[]);
    assert!(corners.len() > 2, "goes round: {corners:?}");
    // The C answer is the Rust one (the same grid, carved by the same triangle).
    let grid = navstar::TileGrid {
        width: 10,
        height: 4,
        walkable: &[true; 40],
        cell_size: 1.0,
        origin: glam::Vec3::ZERO,
    };
    let world_rs = navstar::World::new(&navstar::WorldOptions::default()).unwrap();
    world_rs
        .add_tile(&navstar::NavMesh::from_grid(&grid, &navstar::MeshOptions::default()).unwrap())
        .unwrap();
    let footprint = [
        Vec2::new(4.0, 1.0),
        Vec2::new(5.0, 3.0),
        Vec2::new(6.0, 1.0),
    ];
    world_rs
        .add_obstacle(&navstar::Obstacle::new(&footprint).unwrap())
        .unwrap();
    let carved = world_rs.snapshot();
    let mut query = navstar::Query::new(&carved);
    let from = glam::Vec3::new(1.0, 0.0, 2.0);
    let to = glam::Vec3::new(9.0, 0.0, 2.0);
    let rust = query
        .find_path(from, to, &navstar::PathOptions::default())
        .unwrap();
    let rust: Vec<[f32; 3]> = rust.corners.iter().map(|c| c.to_array()).collect();
    assert_eq!(rust, corners);
    // Moved out of the way: straight again.
    let away = circle(8.5, 3.5, 0.3);
    // SAFETY: a live world; `away` is a whole struct.
    assert_status(
        unsafe { navstar_world_move_obstacle(world.0, t, &away) },
        OK,
        &[],
    );
    let (_, corners) = path(&snapshot(&world), [1.0, 0.0, 2.0], [9.0, 0.0, 2.0]);
    assert_eq!(corners.len(), 2);
    let (status, d) = add(&world, Some(&circle(5.0, 2.0, 0.8)));
    assert_status(status, OK, &[]);
    assert!(d.id > t.id);
    assert_eq!(count(&world), 2);
}

#[test]
fn bad_obstacles_are_named() {
    let world = new_world();
    corridor(&world);
    let (status, _) = add(&world, None);
    assert_status(status, NULL_ARGUMENT, &["obstacle"]);
    let mut out = NavstarObstacleRef::default();
    // SAFETY: NULL world, a whole struct, writable out.
    let status =
        unsafe { navstar_world_add_obstacle(ptr::null_mut(), &circle(1.0, 1.0, 1.0), &mut out) };
    assert_status(status, NULL_ARGUMENT, &["world"]);
    // SAFETY: a live world; NULL out.
    let status =
        unsafe { navstar_world_add_obstacle(world.0, &circle(1.0, 1.0, 1.0), ptr::null_mut()) };
    assert_status(status, NULL_ARGUMENT, &["out_obstacle"]);
    let sized = NavstarObstacle {
        struct_size: 12,
        ..circle(1.0, 1.0, 1.0)
    };
    assert_status(
        add(&world, Some(&sized)).0,
        INVALID_ARGUMENT,
        &["obstacle->struct_size", "navstar_obstacle_default"],
    );
    let shape = NavstarObstacle {
        shape: 7,
        ..circle(1.0, 1.0, 1.0)
    };
    assert_status(
        add(&world, Some(&shape)).0,
        INVALID_ARGUMENT,
        &["obstacle->shape is 7"],
    );
    let two = [0.0f32, 0.0, 1.0, 0.0];
    let few = NavstarObstacle {
        points: two.as_ptr(),
        point_count: 2,
        ..navstar_obstacle_default()
    };
    assert_status(
        add(&world, Some(&few)).0,
        INVALID_ARGUMENT,
        &["obstacle->point_count is 2"],
    );
    let many = NavstarObstacle {
        points: two.as_ptr(),
        point_count: 100_000,
        ..navstar_obstacle_default()
    };
    assert_status(
        add(&world, Some(&many)).0,
        INVALID_ARGUMENT,
        &["obstacle->point_count is 100000"],
    );
    let null_points = NavstarObstacle {
        point_count: 3,
        ..navstar_obstacle_default()
    };
    assert_status(
        add(&world, Some(&null_points)).0,
        NULL_ARGUMENT,
        &["obstacle->points"],
    );
    let nan = [0.0f32, 0.0, 1.0, 0.0, f32::NAN, 1.0];
    let with_nan = NavstarObstacle {
        points: nan.as_ptr(),
        point_count: 3,
        ..navstar_obstacle_default()
    };
    assert_status(
        add(&world, Some(&with_nan)).0,
        INVALID_ARGUMENT,
        &["obstacle->points", "corner 2", "NaN"],
    );
    let dart = [0.0f32, 0.0, 2.0, 0.0, 1.0, 0.5, 1.0, 2.0];
    let concave = NavstarObstacle {
        points: dart.as_ptr(),
        point_count: 4,
        ..navstar_obstacle_default()
    };
    assert_status(
        add(&world, Some(&concave)).0,
        INVALID_ARGUMENT,
        &["obstacle->points", "corner 2", "convex"],
    );
    assert_status(
        add(&world, Some(&circle(1.0, 1.0, 0.0))).0,
        INVALID_ARGUMENT,
        &["radius"],
    );
    assert_status(
        add(&world, Some(&circle(f32::INFINITY, 1.0, 1.0))).0,
        INVALID_ARGUMENT,
        &["center"],
    );
    let flat_box = NavstarObstacle {
        shape: NAVSTAR_OBSTACLE_BOX,
        half_extents: [1.0, -1.0],
        ..navstar_obstacle_default()
    };
    assert_status(
        add(&world, Some(&flat_box)).0,
        INVALID_ARGUMENT,
        &["half_extents"],
    );
    let heights = NavstarObstacle {
        bottom: 2.0,
        top: 1.0,
        ..circle(1.0, 1.0, 1.0)
    };
    assert_status(
        add(&world, Some(&heights)).0,
        INVALID_ARGUMENT,
        &["bottom/top"],
    );
    assert_eq!(count(&world), 0);
    // Stale and foreign references; a bad shape for a good reference.
    let (status, good) = add(&world, Some(&circle(1.0, 1.0, 0.5)));
    assert_status(status, OK, &[]);
    let other = new_world();
    // SAFETY: a live world.
    let status = unsafe { navstar_world_remove_obstacle(other.0, good) };
    assert_status(status, STALE_REFERENCE, &["made by world"]);
    let never = NavstarObstacleRef { id: 999, ..good };
    // SAFETY: a live world; a whole struct.
    let status = unsafe { navstar_world_move_obstacle(world.0, never, &circle(1.0, 1.0, 1.0)) };
    assert_status(status, STALE_REFERENCE, &["obstacle 999"]);
    // SAFETY: a live world; NULL shape.
    let status = unsafe { navstar_world_move_obstacle(world.0, good, ptr::null()) };
    assert_status(status, NULL_ARGUMENT, &["obstacle"]);
    // SAFETY: NULL world.
    assert_eq!(unsafe { navstar_world_obstacle_count(ptr::null()) }, 0);
    assert_eq!(count(&world), 1);
}

#[test]
fn an_obstacle_leaves_the_references_of_polygons_it_does_not_cut() {
    use crate::world::{polygon_ref, resolve};
    // Two 4 x 4 tiles side by side, one polygon each (slots 0 and 1; 22 local bits).
    let world = new_world();
    add_ok(&world, &grid_tile(4, 4, &[1; 16], 0.0, 0.0));
    add_ok(&world, &grid_tile(4, 4, &[1; 16], 4.0, 0.0));
    let before = snapshot(&world);
    let (status, left) = polygon_ref(&before, 0);
    assert_status(status, OK, &[]);
    let (status, right) = polygon_ref(&before, 1 << 22);
    assert_status(status, OK, &[]);
    // A disc in the left tile, and one that cuts nothing (its height range is above).
    let (status, _) = add(&world, Some(&circle(2.0, 2.0, 1.0)));
    assert_status(status, OK, &[]);
    let high = NavstarObstacle {
        bottom: 5.0,
        top: 6.0,
        ..circle(6.0, 2.0, 1.0)
    };
    let (status, _) = add(&world, Some(&high));
    assert_status(status, OK, &[]);
    let after = snapshot(&world);
    assert!(after.polygon_count() > 2);
    assert_eq!(resolve(&after, right), (OK, 1 << 22));
    let (status, polygon) = resolve(&after, left);
    assert_status(
        status,
        STALE_REFERENCE,
        &["stale polygon reference", "tile slot 0", "generation 1"],
    );
    assert_eq!(polygon, navstar::ffi::NAVSTAR_NO_POLYGON);
    // A reference made now, to a piece of the left tile, resolves; the earlier snapshot
    // still resolves its own references.
    let (status, piece) = polygon_ref(&after, 0);
    assert_status(status, OK, &[]);
    assert_eq!(resolve(&after, piece), (OK, 0));
    assert_eq!(resolve(&before, left), (OK, 0));
    // A reference made on the later snapshot is stale on the earlier one.
    assert_eq!(resolve(&before, piece).0, STALE_REFERENCE);
}
