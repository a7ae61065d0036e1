//! The agent radius on the mesh's own queries through the C ABI:
//! `navstar_mesh_nearest_point_for_agent` and `navstar_mesh_raycast_for_agent` give
//! known answers in the room with a pillar of `radius.rs`, the Rust answers
//! (`NavMesh::nearest_point_for_agent`, `raycast_for_agent`) on random points and
//! radii, and every bad argument is named.

use std::ptr;

use navstar::ffi::{
    NavstarMesh, NavstarMeshOptions, NavstarQueryFilter, NavstarRaycastHit, NavstarStatus,
    navstar_mesh_nearest_point_for_agent, navstar_mesh_options_default,
    navstar_mesh_raycast_for_agent, navstar_query_filter_default,
};
use navstar::glam::Vec3;
use navstar::{NearestPoint, QueryFilter};
use proptest::prelude::*;

use crate::assert_status;
use crate::common::proptest_config;
use crate::radius::{create, rust_mesh};

const NO_HIT: NavstarRaycastHit = NavstarRaycastHit {
    hit: 7,
    t: -1.0,
    point: [-1.0; 3],
    normal: [-1.0; 3],
    polygon: 99,
};

/// The C nearest point: (status, point, polygon, distance).
fn c_nearest(
    mesh: *const NavstarMesh,
    point: Vec3,
    max_distance: f32,
    filter: *const NavstarQueryFilter,
    radius: f32,
) -> (NavstarStatus, Vec3, u32, f32) {
    let mut out = [-1.0f32; 3];
    let mut polygon = 99;
    let mut distance = -1.0;
    // SAFETY: mesh live or NULL; 3 readable floats; outputs writable.
    let status = unsafe {
        navstar_mesh_nearest_point_for_agent(
            mesh,
            point.as_ref().as_ptr(),
            max_distance,
            filter,
            radius,
            out.as_mut_ptr(),
            &mut polygon,
            &mut distance,
        )
    };
    (status, Vec3::from_array(out), polygon, distance)
}

/// The C raycast: (status, hit).
fn c_raycast(
    mesh: *const NavstarMesh,
    start: Vec3,
    end: Vec3,
    filter: *const NavstarQueryFilter,
    radius: f32,
) -> (NavstarStatus, NavstarRaycastHit) {
    let mut hit = NO_HIT;
    // SAFETY: mesh live or NULL; 3 readable floats each; out_hit writable.
    let status = unsafe {
        navstar_mesh_raycast_for_agent(
            mesh,
            start.as_ref().as_ptr(),
            end.as_ref().as_ptr(),
            filter,
            radius,
            &mut hit,
        )
    };
    (status, hit)
}

/// Equal within rounding (the eroded mesh's vertices are computed in f32).
#[track_caller]
fn assert_near(got: [f32; 3], want: [f32; 3]) {
    assert!(
        got.iter().zip(want).all(|(g, w)| (g - w).abs() <= 1e-5),
        "{got:?} is not {want:?}"
    );
}

#[test]
fn known_answers_in_the_room_with_a_pillar() {
    let handles = create(&navstar_mesh_options_default());
    // Near the south wall, a disc of 0.5 is pushed to z = 0.5 (bottom quad 0).
    let (status, point, polygon, distance) = c_nearest(
        handles.0,
        Vec3::new(3.0, 0.0, 0.1),
        f32::INFINITY,
        ptr::null(),
        0.5,
    );
    assert_status(status, NavstarStatus::NavstarOk, &[]);
    assert_near(point.to_array(), [3.0, 0.0, 0.5]);
    assert_eq!(polygon, 0);
    // Within 1e-5: the band along the walls is 1e-6 of the largest coordinate wider.
    assert!((distance - 0.4).abs() < 1e-5, "{distance}");
    // Radius 0: the point itself.
    let (_, point, _, distance) = c_nearest(
        handles.0,
        Vec3::new(3.0, 0.0, 0.1),
        f32::INFINITY,
        ptr::null(),
        0.0,
    );
    assert_eq!((point, distance), (Vec3::new(3.0, 0.0, 0.1), 0.0));
    // Walking north at x = 1 (west of the pillar), a disc of 0.5 stops at z = 5.5.
    let (status, hit) = c_raycast(
        handles.0,
        Vec3::new(1.0, 0.0, 3.0),
        Vec3::new(1.0, 0.0, 8.0),
        ptr::null(),
        0.5,
    );
    assert_status(status, NavstarStatus::NavstarOk, &[]);
    assert_eq!(hit.hit, 1);
    assert_near(hit.point, [1.0, 0.0, 5.5]);
    assert_near(hit.normal, [0.0, 0.0, -1.0]);
    assert!((hit.t - 0.5).abs() < 1e-5, "{}", hit.t);
    // East along z = 1 with radius 0.5: the disc clears the pillar (z >= 2 - 0.5 = 1.5
    // would touch it) and reaches x = 5.
    let (_, hit) = c_raycast(
        handles.0,
        Vec3::new(1.0, 0.0, 1.0),
        Vec3::new(5.0, 0.0, 1.0),
        ptr::null(),
        0.5,
    );
    assert_eq!((hit.hit, hit.t), (0, 1.0));
    assert_near(hit.point, [5.0, 0.0, 1.0]);
    // With radius 0.8 the walk east along z = 1 (1 from the pillar, 1 from the south
    // wall) stops 0.8 before the east wall.
    let (_, hit) = c_raycast(
        handles.0,
        Vec3::new(1.0, 0.0, 1.0),
        Vec3::new(6.0, 0.0, 1.0),
        ptr::null(),
        0.8,
    );
    assert_eq!(hit.hit, 1);
    assert_near(hit.point, [5.2, 0.0, 1.0]);
    assert_near(hit.normal, [-1.0, 0.0, 0.0]);
}

#[test]
fn bad_arguments_are_named() {
    let handles = create(&navstar_mesh_options_default());
    let p = Vec3::new(3.0, 0.0, 1.0);
    for radius in [f32::NAN, -0.5, f32::INFINITY, f32::NEG_INFINITY] {
        let (status, point, polygon, _) = c_nearest(handles.0, p, 1.0, ptr::null(), radius);
        assert_status(
            status,
            NavstarStatus::NavstarErrorInvalidArgument,
            &["navstar_mesh_nearest_point_for_agent", "agent_radius"],
        );
        assert_eq!(
            (point, polygon),
            (Vec3::splat(-1.0), 99),
            "outputs untouched"
        );
        let (status, hit) = c_raycast(handles.0, p, p + Vec3::X, ptr::null(), radius);
        assert_status(
            status,
            NavstarStatus::NavstarErrorInvalidArgument,
            &["navstar_mesh_raycast_for_agent", "agent_radius"],
        );
        assert_eq!(hit, NO_HIT);
    }
    // A radius no point of the room fits.
    let (status, ..) = c_nearest(handles.0, p, 1.0, ptr::null(), 3.5);
    assert_status(
        status,
        NavstarStatus::NavstarErrorInvalidArgument,
        &["agent_radius"],
    );
    let (status, _) = c_raycast(handles.0, p, p + Vec3::X, ptr::null(), 3.5);
    assert_status(
        status,
        NavstarStatus::NavstarErrorInvalidArgument,
        &["agent_radius"],
    );
    // Nothing where the disc fits within max_distance.
    let (status, ..) = c_nearest(handles.0, Vec3::new(3.0, 0.0, 0.1), 0.2, ptr::null(), 0.5);
    assert_status(
        status,
        NavstarStatus::NavstarErrorNotOnMesh,
        &["radius 0.5", "0.4"],
    );
    let (status, ..) = c_nearest(handles.0, p, f32::NAN, ptr::null(), 0.5);
    assert_status(
        status,
        NavstarStatus::NavstarErrorInvalidArgument,
        &["max_distance"],
    );
    // Non-finite points, NULL pointers, a bad filter.
    let (status, ..) = c_nearest(
        handles.0,
        Vec3::new(f32::NAN, 0.0, 0.0),
        1.0,
        ptr::null(),
        0.5,
    );
    assert_status(
        status,
        NavstarStatus::NavstarErrorInvalidArgument,
        &["point"],
    );
    let (status, _) = c_raycast(
        handles.0,
        p,
        Vec3::new(0.0, f32::INFINITY, 0.0),
        ptr::null(),
        0.5,
    );
    assert_status(status, NavstarStatus::NavstarErrorInvalidArgument, &["end"]);
    let (status, ..) = c_nearest(ptr::null(), p, 1.0, ptr::null(), 0.5);
    assert_status(status, NavstarStatus::NavstarErrorNullArgument, &["mesh"]);
    let (status, _) = c_raycast(ptr::null(), p, p, ptr::null(), 0.5);
    assert_status(status, NavstarStatus::NavstarErrorNullArgument, &["mesh"]);
    // SAFETY: a live mesh; NULL point and outputs are checked by the function.
    let status = unsafe {
        navstar_mesh_nearest_point_for_agent(
            handles.0,
            ptr::null(),
            1.0,
            ptr::null(),
            0.5,
            ptr::null_mut(),
            ptr::null_mut(),
            ptr::null_mut(),
        )
    };
    assert_status(status, NavstarStatus::NavstarErrorNullArgument, &["point"]);
    // SAFETY: a live mesh; 3 readable floats each; NULL out_hit is checked.
    let status = unsafe {
        navstar_mesh_raycast_for_agent(
            handles.0,
            p.as_ref().as_ptr(),
            p.as_ref().as_ptr(),
            ptr::null(),
            0.5,
            ptr::null_mut(),
        )
    };
    assert_status(
        status,
        NavstarStatus::NavstarErrorNullArgument,
        &["out_hit"],
    );
    let mut filter = navstar_query_filter_default();
    filter.area_costs[2] = f32::NAN;
    let (status, ..) = c_nearest(handles.0, p, 1.0, &filter, 0.5);
    assert_status(
        status,
        NavstarStatus::NavstarErrorInvalidArgument,
        &["area 2"],
    );
}

fn options(baked: f32) -> NavstarMeshOptions {
    NavstarMeshOptions {
        agent_radius: baked,
        ..navstar_mesh_options_default()
    }
}

proptest! {
    #![proptest_config(proptest_config(64))]

    /// Random points, radii and baked radii: C gives exactly the Rust answers.
    #[test]
    fn c_answers_are_the_rust_ones(
        baked in prop_oneof![Just(0.0f32), Just(0.2f32)],
        radius in prop_oneof![Just(0.0f32), 0.05f32..1.4],
        x0 in -1.0f32..7.0, z0 in -1.0f32..7.0, y0 in -0.5f32..0.5,
        x1 in -1.0f32..7.0, z1 in -1.0f32..7.0,
        max_distance in prop_oneof![Just(f32::INFINITY), 0.0f32..3.0],
        exclude in prop_oneof![Just(0u32), Just(1u32)],
    ) {
        let handles = create(&options(baked));
        let mesh = rust_mesh(baked);
        let start = Vec3::new(x0, y0, z0);
        let end = Vec3::new(x1, 0.0, z1);
        let mut c_filter = navstar_query_filter_default();
        c_filter.exclude_flags = exclude;
        let filter = QueryFilter::default().with_exclude_flags(exclude);

        let (status, point, polygon, distance) =
            c_nearest(handles.0, start, max_distance, &c_filter, radius);
        match mesh.nearest_point_for_agent(start, max_distance, Some(&filter), radius) {
            Ok(Some(NearestPoint { point: p, polygon: q, distance: d, .. })) => {
                prop_assert_eq!(status, NavstarStatus::NavstarOk);
                prop_assert_eq!((point, polygon, distance), (p, q, d));
            }
            Ok(None) => prop_assert_eq!(status, NavstarStatus::NavstarErrorNotOnMesh),
            Err(_) => prop_assert_eq!(status, NavstarStatus::NavstarErrorInvalidArgument),
        }

        let (status, hit) = c_raycast(handles.0, start, end, &c_filter, radius);
        match mesh.raycast_for_agent(start, end, &filter, radius) {
            Ok(ray) => {
                prop_assert_eq!(status, NavstarStatus::NavstarOk);
                prop_assert_eq!(hit.hit, u32::from(ray.hit.is_some()));
                prop_assert_eq!((hit.t, hit.point, hit.polygon), (ray.t, ray.point.to_array(), ray.polygon));
                prop_assert_eq!(hit.normal, ray.hit.map_or([0.0; 3], |w| w.normal.to_array()));
            }
            Err(navstar::QueryError::NotOnMesh { .. }) => {
                prop_assert_eq!(status, NavstarStatus::NavstarErrorNotOnMesh);
            }
            Err(_) => prop_assert_eq!(status, NavstarStatus::NavstarErrorInvalidArgument),
        }
    }
}
