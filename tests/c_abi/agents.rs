//! The agent queries through the C ABI: moving along the surface, the distance to the
//! nearest wall and random points. Known answers equal to the Rust API's, the output
//! buffer rules, and every rejection with its status and message.

use std::ptr;

use glam::Vec3;
use navstar::ffi::*;
use navstar::{MeshOptions, NavMesh, Query, QueryFilter, SplitMix64};

use crate::assert_status;

/// The L of three unit squares (Y up): polygons 0 = x 0..1, 1 = x 1..2 (both z 0..1)
/// and 2 = x 0..1, z 1..2.
const VERTICES: [f32; 24] = [
    0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 2.0, 0.0, 0.0, // 0, 1, 2: z = 0
    0.0, 0.0, 1.0, 1.0, 0.0, 1.0, 2.0, 0.0, 1.0, // 3, 4, 5: z = 1
    0.0, 0.0, 2.0, 1.0, 0.0, 2.0, // 6, 7: z = 2
];
const INDICES: [u32; 12] = [0, 1, 4, 3, 1, 2, 5, 4, 3, 4, 7, 6];
const SIZES: [u32; 3] = [4, 4, 4];

struct Handles {
    mesh: *mut NavstarMesh,
    query: *mut NavstarQuery,
    rust: NavMesh,
}

impl Drop for Handles {
    fn drop(&mut self) {
        // SAFETY: created by this test, freed once.
        unsafe {
            navstar_query_free(self.query);
            navstar_mesh_free(self.mesh);
        }
    }
}

fn handles() -> Handles {
    let mut mesh = ptr::null_mut();
    // SAFETY: the arrays hold the counts given.
    let status = unsafe {
        navstar_mesh_create(
            VERTICES.as_ptr(),
            8,
            INDICES.as_ptr(),
            SIZES.as_ptr(),
            3,
            ptr::null(),
            &mut mesh,
        )
    };
    assert_status(status, NavstarStatus::NavstarOk, &[]);
    let mut query = ptr::null_mut();
    // SAFETY: a live mesh and a writable out pointer.
    let status = unsafe { navstar_query_create(mesh, &mut query) };
    assert_status(status, NavstarStatus::NavstarOk, &[]);
    let vertices: Vec<Vec3> = VERTICES.chunks(3).map(Vec3::from_slice).collect();
    let rust =
        NavMesh::from_polygons(&vertices, &INDICES, &SIZES, &MeshOptions::default()).unwrap();
    Handles { mesh, query, rust }
}

/// `navstar_mesh_move_along_surface` with a buffer of `capacity` polygons.
fn slide(
    h: &Handles,
    start_polygon: u32,
    start: [f32; 3],
    target: [f32; 3],
    filter: *const NavstarQueryFilter,
    capacity: u32,
) -> (NavstarStatus, NavstarSurfaceMove, Vec<u32>, u32) {
    let mut moved = NavstarSurfaceMove {
        point: [f32::NAN; 3],
        polygon: 99,
        walls: 99,
    };
    let mut visited = vec![77u32; capacity as usize];
    let mut count = 99;
    // SAFETY: live mesh, 3 floats per point, buffers of the sizes given.
    let status = unsafe {
        navstar_mesh_move_along_surface(
            h.mesh,
            start_polygon,
            start.as_ptr(),
            target.as_ptr(),
            filter,
            &mut moved,
            if capacity == 0 {
                ptr::null_mut()
            } else {
                visited.as_mut_ptr()
            },
            capacity,
            &mut count,
        )
    };
    (status, moved, visited, count)
}

#[test]
fn move_along_surface_answers_as_rust_and_fills_the_buffer() {
    let h = handles();
    let (start, target) = ([1.8, 0.0, 0.6], [0.4, 0.0, 1.4]);
    let (status, moved, visited, count) =
        slide(&h, NAVSTAR_NO_POLYGON, start, target, ptr::null(), 8);
    assert_status(status, NavstarStatus::NavstarOk, &[]);
    let mut rust_visited = Vec::new();
    let rust = h
        .rust
        .move_along_surface(
            None,
            Vec3::from(start),
            Vec3::from(target),
            &QueryFilter::default(),
            &mut rust_visited,
        )
        .unwrap();
    assert_eq!(moved.point, rust.point.to_array());
    assert_eq!((moved.polygon, moved.walls), (rust.polygon, rust.walls));
    assert_eq!((moved.polygon, moved.walls, count), (0, 1, 2));
    assert_eq!(&visited[..2], &rust_visited[..]);
    assert_eq!(&visited[..3], &[1, 0, 77]);
    // From the polygon: the same answer.
    let (status, again, _, _) = slide(&h, 1, start, target, ptr::null(), 8);
    assert_status(status, NavstarStatus::NavstarOk, &[]);
    assert_eq!(again, moved);
    // One slot: the prefix, the full count, the whole answer.
    let (status, short, visited, count) = slide(&h, 1, start, target, ptr::null(), 1);
    assert_status(status, NavstarStatus::NavstarBufferTooSmall, &[]);
    assert_eq!((short, visited, count), (moved, vec![1], 2));
    // Count only.
    let (status, counted, _, count) = slide(&h, 1, start, target, ptr::null(), 0);
    assert_status(status, NavstarStatus::NavstarBufferTooSmall, &[]);
    assert_eq!((counted, count), (moved, 2));
    // A filter that refuses square 2 (flags 2) makes its edge a wall.
    let mut flags = 0;
    // SAFETY: live mesh, writable out pointer.
    let status = unsafe { navstar_mesh_set_polygon_flags(h.mesh, 2, 2, &mut flags) };
    assert_status(status, NavstarStatus::NavstarOk, &[]);
    let mut filter = navstar_query_filter_default();
    filter.include_flags = 1;
    let (status, moved, _, _) = slide(&h, 1, [1.4, 0.0, 0.5], [0.4, 0.0, 1.5], &filter, 4);
    assert_status(status, NavstarStatus::NavstarOk, &[]);
    assert_eq!((moved.polygon, moved.walls), (0, 1));
    assert!((moved.point[2] - 1.0).abs() < 1e-5 && (moved.point[0] - 0.4).abs() < 1e-5);
}

#[test]
fn move_along_surface_rejections() {
    let h = handles();
    let (start, target) = ([0.5f32, 0.0, 0.5], [1.5f32, 0.0, 0.5]);
    let mut moved = NavstarSurfaceMove {
        point: [0.0; 3],
        polygon: 0,
        walls: 0,
    };
    let mut buffer = [0u32; 4];
    let mut count = 0;
    let call = |mesh: *const NavstarMesh,
                polygon: u32,
                start: *const f32,
                target: *const f32,
                filter: *const NavstarQueryFilter,
                out: *mut NavstarSurfaceMove,
                visited: *mut u32,
                capacity: u32,
                count: *mut u32| {
        // SAFETY: every pointer is NULL or valid for what it is given as.
        unsafe {
            navstar_mesh_move_along_surface(
                mesh, polygon, start, target, filter, out, visited, capacity, count,
            )
        }
    };
    let null = NavstarStatus::NavstarErrorNullArgument;
    let invalid = NavstarStatus::NavstarErrorInvalidArgument;
    let (s, t, m, b) = (
        start.as_ptr(),
        target.as_ptr(),
        &raw mut moved,
        buffer.as_mut_ptr(),
    );
    let f = ptr::null();
    assert_status(
        call(ptr::null(), 0, s, t, f, m, b, 4, &mut count),
        null,
        &["mesh"],
    );
    assert_status(
        call(h.mesh, 0, ptr::null(), t, f, m, b, 4, &mut count),
        null,
        &["start"],
    );
    assert_status(
        call(h.mesh, 0, s, ptr::null(), f, m, b, 4, &mut count),
        null,
        &["target"],
    );
    assert_status(
        call(h.mesh, 0, s, t, f, ptr::null_mut(), b, 4, &mut count),
        null,
        &["out_move"],
    );
    assert_status(
        call(h.mesh, 0, s, t, f, m, b, 4, ptr::null_mut()),
        null,
        &["out_count"],
    );
    assert_status(
        call(h.mesh, 0, s, t, f, m, ptr::null_mut(), 4, &mut count),
        null,
        &["out_visited"],
    );
    let nan = [f32::NAN, 0.0, 0.0];
    assert_status(
        call(h.mesh, 0, nan.as_ptr(), t, f, m, b, 4, &mut count),
        invalid,
        &["start"],
    );
    assert_status(
        call(h.mesh, 0, s, nan.as_ptr(), f, m, b, 4, &mut count),
        invalid,
        &["target"],
    );
    assert_status(
        call(h.mesh, 3, s, t, f, m, b, 4, &mut count),
        invalid,
        &["start_polygon 3", "3 polygons"],
    );
    let mut refusing = navstar_query_filter_default();
    refusing.include_flags = 2;
    assert_status(
        call(h.mesh, 0, s, t, &refusing, m, b, 4, &mut count),
        invalid,
        &["start_polygon 0", "refused"],
    );
    assert_eq!(count, 0, "the count is 0 after an error");
    // No polygon admitted at all, with the start to snap.
    assert_status(
        call(
            h.mesh,
            NAVSTAR_NO_POLYGON,
            s,
            t,
            &refusing,
            m,
            b,
            4,
            &mut count,
        ),
        NavstarStatus::NavstarErrorNotOnMesh,
        &[],
    );
    let mut bad = navstar_query_filter_default();
    bad.struct_size = 3;
    assert_status(
        call(h.mesh, 0, s, t, &bad, m, b, 4, &mut count),
        invalid,
        &["filter"],
    );
}

fn wall(h: &Handles, point: [f32; 3], radius: f32) -> (NavstarStatus, NavstarWallDistance) {
    let mut out = NavstarWallDistance {
        found: 7,
        distance: f32::NAN,
        point: [f32::NAN; 3],
        normal: [f32::NAN; 3],
        polygon: 7,
    };
    // SAFETY: live query, 3 floats, writable output.
    let status = unsafe {
        navstar_query_distance_to_wall(h.query, point.as_ptr(), radius, ptr::null(), &mut out)
    };
    (status, out)
}

#[test]
fn distance_to_wall_answers_as_rust_and_rejects_bad_arguments() {
    let h = handles();
    let (status, found) = wall(&h, [1.5, 0.0, 0.75], 2.0);
    assert_status(status, NavstarStatus::NavstarOk, &[]);
    let mut query = Query::new(&h.rust);
    let rust = query
        .distance_to_wall(Vec3::new(1.5, 0.0, 0.75), 2.0, &QueryFilter::default())
        .unwrap()
        .unwrap();
    assert_eq!(
        (
            found.found,
            found.distance,
            found.point,
            found.normal,
            found.polygon
        ),
        (
            1,
            rust.distance,
            rust.point.to_array(),
            rust.normal.to_array(),
            rust.polygon
        )
    );
    assert_eq!((found.distance, found.point), (0.25, [1.5, 0.0, 1.0]));
    assert_eq!(found.normal, [0.0, 0.0, -1.0]);
    let (status, none) = wall(&h, [1.5, 0.0, 0.75], 0.2);
    assert_status(status, NavstarStatus::NavstarOk, &[]);
    assert_eq!(
        (none.found, none.distance, none.polygon),
        (0, f32::INFINITY, NAVSTAR_NO_POLYGON)
    );
    for radius in [f32::NAN, -1.0] {
        let (status, _) = wall(&h, [1.5, 0.0, 0.75], radius);
        assert_status(
            status,
            NavstarStatus::NavstarErrorInvalidArgument,
            &["radius"],
        );
    }
    let (status, _) = wall(&h, [f32::INFINITY, 0.0, 0.75], 1.0);
    assert_status(
        status,
        NavstarStatus::NavstarErrorInvalidArgument,
        &["point"],
    );
    let mut out = NavstarWallDistance {
        found: 0,
        distance: 0.0,
        point: [0.0; 3],
        normal: [0.0; 3],
        polygon: 0,
    };
    let point = [0.5f32, 0.0, 0.5];
    // SAFETY: each call passes NULL for one pointer, valid ones otherwise.
    unsafe {
        let status = navstar_query_distance_to_wall(
            ptr::null_mut(),
            point.as_ptr(),
            1.0,
            ptr::null(),
            &mut out,
        );
        assert_status(status, NavstarStatus::NavstarErrorNullArgument, &["query"]);
        let status =
            navstar_query_distance_to_wall(h.query, ptr::null(), 1.0, ptr::null(), &mut out);
        assert_status(status, NavstarStatus::NavstarErrorNullArgument, &["point"]);
        let status = navstar_query_distance_to_wall(
            h.query,
            point.as_ptr(),
            1.0,
            ptr::null(),
            ptr::null_mut(),
        );
        assert_status(
            status,
            NavstarStatus::NavstarErrorNullArgument,
            &["out_wall"],
        );
    }
}

#[test]
fn random_points_answer_as_rust_for_a_seed() {
    let h = handles();
    let mut state = 12345u64;
    let mut rust_rng = SplitMix64::new(12345);
    let mut query = Query::new(&h.rust);
    let filter = QueryFilter::default();
    for k in 0..200 {
        let mut point = [f32::NAN; 3];
        let mut polygon = 99;
        let around = k % 2 == 1;
        let center = [0.5f32, 0.0, 0.5];
        // SAFETY: live handles, a readable and writable state, writable outputs.
        let status = unsafe {
            if around {
                navstar_query_random_point_around(
                    h.query,
                    center.as_ptr(),
                    0.6,
                    ptr::null(),
                    &mut state,
                    point.as_mut_ptr(),
                    &mut polygon,
                )
            } else {
                navstar_mesh_random_point(
                    h.mesh,
                    ptr::null(),
                    &mut state,
                    point.as_mut_ptr(),
                    &mut polygon,
                )
            }
        };
        assert_status(status, NavstarStatus::NavstarOk, &[]);
        let rust = if around {
            query
                .random_point_around(Vec3::from(center), 0.6, &filter, &mut || {
                    rust_rng.next_u64()
                })
                .unwrap()
        } else {
            h.rust
                .random_point(&filter, &mut || rust_rng.next_u64())
                .unwrap()
        };
        assert_eq!((point, polygon), (rust.point.to_array(), rust.polygon));
        assert_eq!(state, rust_rng.state, "four steps per point, as in Rust");
        if around {
            // Within 0.6 of (0.5, 0.5): squares 0, 1 and 2 all touch the circle.
            assert!(polygon < 3);
        }
    }
}

#[test]
fn random_point_rejections() {
    let h = handles();
    let mut state = 1u64;
    let mut point = [0.0f32; 3];
    let center = [0.5f32, 0.0, 0.5];
    let mut refusing = navstar_query_filter_default();
    refusing.include_flags = 2;
    // SAFETY: each call passes NULL (or a bad value) for one argument, valid ones
    // otherwise.
    unsafe {
        let p = point.as_mut_ptr();
        let null = NavstarStatus::NavstarErrorNullArgument;
        let status =
            navstar_mesh_random_point(ptr::null(), ptr::null(), &mut state, p, ptr::null_mut());
        assert_status(status, null, &["mesh"]);
        let status =
            navstar_mesh_random_point(h.mesh, ptr::null(), ptr::null_mut(), p, ptr::null_mut());
        assert_status(status, null, &["rng_state"]);
        let status = navstar_mesh_random_point(
            h.mesh,
            ptr::null(),
            &mut state,
            ptr::null_mut(),
            ptr::null_mut(),
        );
        assert_status(status, null, &["out_point"]);
        let status = navstar_mesh_random_point(h.mesh, &refusing, &mut state, p, ptr::null_mut());
        assert_status(
            status,
            NavstarStatus::NavstarErrorNotOnMesh,
            &["no polygon with an area"],
        );
        assert_eq!(state, 1, "a failed call leaves the state");
        let status = navstar_query_random_point_around(
            ptr::null_mut(),
            center.as_ptr(),
            1.0,
            ptr::null(),
            &mut state,
            p,
            ptr::null_mut(),
        );
        assert_status(status, null, &["query"]);
        let status = navstar_query_random_point_around(
            h.query,
            ptr::null(),
            1.0,
            ptr::null(),
            &mut state,
            p,
            ptr::null_mut(),
        );
        assert_status(status, null, &["center"]);
        let status = navstar_query_random_point_around(
            h.query,
            center.as_ptr(),
            -2.0,
            ptr::null(),
            &mut state,
            p,
            ptr::null_mut(),
        );
        assert_status(
            status,
            NavstarStatus::NavstarErrorInvalidArgument,
            &["radius is -2"],
        );
        let status = navstar_query_random_point_around(
            h.query,
            center.as_ptr(),
            1.0,
            &refusing,
            &mut state,
            p,
            ptr::null_mut(),
        );
        assert_status(status, NavstarStatus::NavstarErrorNotOnMesh, &[]);
        let status = navstar_query_random_point_around(
            h.query,
            center.as_ptr(),
            1.0,
            ptr::null(),
            ptr::null_mut(),
            p,
            ptr::null_mut(),
        );
        assert_status(status, null, &["rng_state"]);
        assert_eq!(state, 1);
    }
}
