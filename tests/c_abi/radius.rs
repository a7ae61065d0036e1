//! The agent radius through the C ABI: `NavstarPathOptions::agent_radius` gives the Rust
//! answer (corners, status) in both modes and for the reachable polygons, bad values
//! and a non-zero `reserved` are rejected by name, a struct of the previous size (40
//! bytes) gets radius 0 whatever follows it, and the mesh's baked radius is read from
//! `NavstarMeshOptions::agent_radius`.

use std::ptr;

use navstar::ffi::{
    NAVSTAR_PATH_OPTIMAL, NavstarMesh, NavstarMeshOptions, NavstarPathArc, NavstarPathOptions,
    NavstarQuery, NavstarReachedPolygon, NavstarStatus, navstar_find_path, navstar_mesh_create,
    navstar_mesh_free, navstar_mesh_options_default, navstar_path_options_default,
    navstar_query_create, navstar_query_free, navstar_query_path_arcs,
    navstar_query_reachable_polygons,
};
use navstar::glam::Vec3;
use navstar::{MeshOptions, NavMesh, PathMode, PathOptions, PathStatus, Query};

use crate::assert_status;
use crate::common::Rng;

/// A 6 x 6 room with a 2 x 2 pillar in the middle, y up, as four quads round it.
pub(crate) fn room() -> (Vec<f32>, Vec<u32>, Vec<u32>) {
    let xz = [
        (0.0, 0.0),
        (6.0, 0.0),
        (6.0, 6.0),
        (0.0, 6.0),
        (2.0, 2.0),
        (4.0, 2.0),
        (4.0, 4.0),
        (2.0, 4.0),
    ];
    let vertices = xz.iter().flat_map(|&(x, z)| [x, 0.0, z]).collect();
    let indices = vec![0, 1, 5, 4, 1, 2, 6, 5, 2, 3, 7, 6, 3, 0, 4, 7];
    (vertices, indices, vec![4; 4])
}

pub(crate) struct Handles(pub(crate) *mut NavstarMesh, pub(crate) *mut NavstarQuery);

impl Drop for Handles {
    fn drop(&mut self) {
        // SAFETY: both were made by the create functions and are freed once.
        unsafe {
            navstar_query_free(self.1);
            navstar_mesh_free(self.0);
        }
    }
}

pub(crate) fn create(options: &NavstarMeshOptions) -> Handles {
    let (vertices, indices, sizes) = room();
    let mut mesh = ptr::null_mut();
    let mut query = ptr::null_mut();
    // SAFETY: arrays of the sizes given; options a full struct; outputs writable.
    unsafe {
        let status = navstar_mesh_create(
            vertices.as_ptr(),
            (vertices.len() / 3) as u32,
            indices.as_ptr(),
            sizes.as_ptr(),
            sizes.len() as u32,
            options,
            &mut mesh,
        );
        assert_status(status, NavstarStatus::NavstarOk, &[]);
        assert_status(
            navstar_query_create(mesh, &mut query),
            NavstarStatus::NavstarOk,
            &[],
        );
    }
    Handles(mesh, query)
}

pub(crate) fn rust_mesh(baked: f32) -> NavMesh {
    let (vertices, indices, sizes) = room();
    let vertices: Vec<Vec3> = vertices.chunks(3).map(Vec3::from_slice).collect();
    NavMesh::from_polygons(
        &vertices,
        &indices,
        &sizes,
        &MeshOptions::default().with_agent_radius(baked),
    )
    .unwrap()
}

/// The C path: status and corners.
fn c_path(
    handles: &Handles,
    s: Vec3,
    g: Vec3,
    options: &NavstarPathOptions,
) -> (NavstarStatus, Vec<Vec3>) {
    let mut out = vec![0.0f32; 3 * 256];
    let mut count = 0;
    // SAFETY: a live query used by this thread; 3 floats each; room for 256 points.
    let status = unsafe {
        navstar_find_path(
            handles.1,
            s.as_ref().as_ptr(),
            g.as_ref().as_ptr(),
            options,
            out.as_mut_ptr(),
            256,
            &mut count,
        )
    };
    let corners = out[..3 * count.min(256) as usize]
        .chunks(3)
        .map(Vec3::from_slice)
        .collect();
    (status, corners)
}

/// The turns of the last C path, read with a buffer of `capacity` entries: the status
/// and the entries written, and the count reported.
fn c_arcs(handles: &Handles, capacity: u32) -> (NavstarStatus, Vec<NavstarPathArc>, u32) {
    let empty = NavstarPathArc {
        first_point: 0,
        last_point: 0,
        centre: [0.0; 3],
        radius: 0.0,
    };
    let mut out = vec![empty; capacity as usize];
    let mut count = u32::MAX;
    let buffer = if capacity == 0 {
        ptr::null_mut()
    } else {
        out.as_mut_ptr()
    };
    // SAFETY: a live query used by this thread; room for `capacity` entries.
    let status = unsafe { navstar_query_path_arcs(handles.1, buffer, capacity, &mut count) };
    out.truncate(count.min(capacity) as usize);
    (status, out, count)
}

#[test]
fn paths_with_a_radius_are_the_rust_ones() {
    for baked in [0.0f32, 0.2] {
        let handles = create(&NavstarMeshOptions {
            agent_radius: baked,
            ..navstar_mesh_options_default()
        });
        let mesh = rust_mesh(baked);
        let mut query = Query::new(&mesh);
        let mut rng = Rng(5);
        let mut turns = 0;
        for k in 0..60 {
            let point = |rng: &mut Rng| Vec3::new(rng.unit() * 6.0, 0.0, rng.unit() * 6.0);
            let (s, g) = (point(&mut rng), point(&mut rng));
            let radius = [0.0, 0.1, 0.3, 0.9][k % 4];
            let optimal = k % 2 == 1;
            let c_options = NavstarPathOptions {
                agent_radius: radius,
                mode: if optimal { NAVSTAR_PATH_OPTIMAL } else { 0 },
                ..navstar_path_options_default()
            };
            let options = PathOptions::default()
                .with_agent_radius(radius)
                .with_mode(if optimal {
                    PathMode::Optimal
                } else {
                    PathMode::Funnel
                });
            let (status, corners) = c_path(&handles, s, g, &c_options);
            let path = query.find_path(s, g, &options).unwrap();
            let want = match path.status {
                PathStatus::Complete => NavstarStatus::NavstarOk,
                _ => NavstarStatus::NavstarPartialPath,
            };
            assert_eq!(
                (status, corners.as_slice()),
                (want, path.corners),
                "{s} -> {g}, r = {radius}"
            );
            // The turns round the pillar's corners, as Rust gives them; a buffer one
            // short gets the first ones and the full count.
            let want: Vec<NavstarPathArc> = path
                .arcs
                .iter()
                .map(|a| NavstarPathArc {
                    first_point: a.first_corner,
                    last_point: a.last_corner,
                    centre: a.centre.to_array(),
                    radius: a.radius,
                })
                .collect();
            if radius <= baked {
                assert!(want.is_empty(), "{s} -> {g}: no turns without erosion");
            }
            turns += want.len();
            let n = want.len() as u32;
            assert_eq!(
                c_arcs(&handles, 8),
                (NavstarStatus::NavstarOk, want.clone(), n)
            );
            if n > 0 {
                let short = c_arcs(&handles, n - 1);
                assert_eq!(
                    short,
                    (
                        NavstarStatus::NavstarBufferTooSmall,
                        want[..n as usize - 1].to_vec(),
                        n
                    )
                );
            }
        }
        assert!(turns > 0, "no path turned round the pillar");
    }
}

#[test]
fn bad_radius_reserved_and_older_sizes() {
    let handles = create(&navstar_mesh_options_default());
    let (s, g) = (Vec3::new(1.0, 0.0, 1.0), Vec3::new(5.0, 0.0, 5.0));
    for radius in [-1.0, f32::NAN, f32::INFINITY] {
        let options = NavstarPathOptions {
            agent_radius: radius,
            ..navstar_path_options_default()
        };
        let (status, _) = c_path(&handles, s, g, &options);
        assert_status(
            status,
            NavstarStatus::NavstarErrorInvalidArgument,
            &["options->agent_radius"],
        );
    }
    let options = NavstarPathOptions {
        reserved: 3,
        ..navstar_path_options_default()
    };
    let (status, _) = c_path(&handles, s, g, &options);
    assert_status(
        status,
        NavstarStatus::NavstarErrorInvalidArgument,
        &["options->reserved"],
    );
    // A caller built before the radius (40 bytes): what lies after its struct is not
    // read, so it gets a point's path.
    let old = NavstarPathOptions {
        struct_size: 40,
        agent_radius: 2.9,
        reserved: 7,
        ..navstar_path_options_default()
    };
    let (status, corners) = c_path(&handles, Vec3::new(0.1, 0.0, 0.1), g, &old);
    assert_eq!(status, NavstarStatus::NavstarOk);
    assert_eq!(corners[0], Vec3::new(0.1, 0.0, 0.1));
    // The baked radius must be finite and >= 0.
    let (vertices, indices, sizes) = room();
    let mut mesh = ptr::null_mut();
    let bad = NavstarMeshOptions {
        agent_radius: -0.5,
        ..navstar_mesh_options_default()
    };
    // SAFETY: arrays of the sizes given; outputs writable.
    let status = unsafe {
        navstar_mesh_create(
            vertices.as_ptr(),
            8,
            indices.as_ptr(),
            sizes.as_ptr(),
            4,
            &bad,
            &mut mesh,
        )
    };
    assert_status(
        status,
        NavstarStatus::NavstarErrorInvalidArgument,
        &["agent_radius"],
    );
    assert!(mesh.is_null());
    // A radius no point of the room fits: an error naming the option.
    let options = NavstarPathOptions {
        agent_radius: 3.5,
        ..navstar_path_options_default()
    };
    let (status, _) = c_path(&handles, s, g, &options);
    assert_status(
        status,
        NavstarStatus::NavstarErrorInvalidArgument,
        &["agent_radius"],
    );
}

#[test]
fn reachable_polygons_with_a_radius_are_the_rust_ones() {
    let handles = create(&navstar_mesh_options_default());
    let mesh = rust_mesh(0.0);
    let mut query = Query::new(&mesh);
    let start = Vec3::new(1.0, 0.0, 1.0);
    for radius in [0.0f32, 0.5, 0.9] {
        let options = NavstarPathOptions {
            agent_radius: radius,
            ..navstar_path_options_default()
        };
        let mut out = [NavstarReachedPolygon {
            polygon: 0,
            parent: 0,
            cost: 0.0,
        }; 8];
        let mut count = 0;
        // SAFETY: a live query of this thread; 3 floats; room for 8 entries.
        let status = unsafe {
            navstar_query_reachable_polygons(
                handles.1,
                start.as_ref().as_ptr(),
                6.0,
                &options,
                out.as_mut_ptr(),
                8,
                &mut count,
            )
        };
        assert_status(status, NavstarStatus::NavstarOk, &[]);
        let want = query
            .reachable_polygons_for_agent(
                start,
                6.0,
                &navstar::QueryFilter::default(),
                f32::INFINITY,
                radius,
            )
            .unwrap();
        let got: Vec<(u32, f32)> = out[..count as usize]
            .iter()
            .map(|r| (r.polygon, r.cost))
            .collect();
        let want: Vec<(u32, f32)> = want.iter().map(|r| (r.polygon, r.cost)).collect();
        assert_eq!(got, want, "r = {radius}");
    }
}
