//! Regression tests for what the fuzzers (`fuzz/`, run by `scripts/fuzz`) found: every
//! input a fuzz target failed on, reduced to what matters, through the public Rust API or
//! the C ABI, named after the target and what went wrong (with the artifact name that
//! `scripts/fuzz` reported).

use std::ptr::{self, NonNull};

use glam::Vec3;
use navstar::ffi::{
    NavstarMesh, NavstarMeshOptions, NavstarStatus, navstar_mesh_create,
    navstar_mesh_create_from_grid, navstar_mesh_free, navstar_mesh_options_default,
    navstar_mesh_polygon_count,
};
use navstar::io::{LoadError, parse_polyanya_mesh_bytes};
use navstar::{MeshError, MeshOptions, NavMesh};

use crate::last_error;

/// Unit-square triangles `(0,0)-(1,0)-(1,1)` and `(0,0)-(1,1)-(0,1)` (Y up), as C arrays.
const SQUARE_VERTICES: [f32; 12] = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 1.0];
const SQUARE_TRIANGLES: [u32; 6] = [0, 1, 2, 0, 2, 3];

/// `mesh_create`, crash-cd702b96: a denormal weld distance (3.3e-41) made the welding
/// grid's cell of an ordinary vertex saturate at `i32::MAX`, and looking at the next
/// cell overflowed: a panic in debug builds (`NAVSTAR_ERROR_INTERNAL` at the boundary),
/// a silent wrap in release builds. Fixed in `weld_map` (wrapping neighbour cells; the
/// candidates are checked by distance anyway).
#[test]
fn mesh_create_denormal_weld_distance() {
    let options = NavstarMeshOptions {
        weld_distance: 3.3043e-41,
        ..navstar_mesh_options_default()
    };
    let mut out: *mut NavstarMesh = NonNull::dangling().as_ptr();
    // SAFETY: 4 vertices and 2 triangles as the counts say; a full options struct.
    let status = unsafe {
        navstar_mesh_create(
            SQUARE_VERTICES.as_ptr(),
            4,
            SQUARE_TRIANGLES.as_ptr(),
            ptr::null(),
            2,
            &options,
            &mut out,
        )
    };
    assert_eq!(status, NavstarStatus::NavstarOk, "{}", last_error());
    // SAFETY: a live mesh, freed once.
    unsafe {
        assert_eq!(navstar_mesh_polygon_count(out), 2);
        navstar_mesh_free(out);
    }
    let vertices: Vec<Vec3> = SQUARE_VERTICES.chunks(3).map(Vec3::from_slice).collect();
    for distance in [1e-45, 3.3043e-41, f32::MIN_POSITIVE] {
        let mut options = MeshOptions::default();
        options.weld_distance = distance;
        let mesh = NavMesh::from_triangles(&vertices, &SQUARE_TRIANGLES, &options).unwrap();
        assert_eq!(mesh.island_count(), 1, "the shared edge is still shared");
    }
}

/// `load_polyanya_mesh`, crash-fbe20ddf: a polygon that doubles back along one of its
/// sides (corners `(-1,5) (-1,4) (-1,6)`: a zero-width spike) was accepted as convex,
/// because the turning angles of its two U-turns (+pi and -pi, by the sign of a zero
/// cross product) cancelled out. Queries then gave paths off the mesh. Fixed in
/// `normalise_polygon`: a U-turn counts as a half turn to the left, so a spike adds a
/// full extra revolution and the polygon is rejected as not convex.
#[test]
fn load_polyanya_mesh_spike_polygon_is_rejected() {
    const FILE: &str = "mesh\n2\n22 7\n\n-0 0\t2   0 -1\n-0 1\t2   0 -1\n-0 2\t2   2 -1\n\
        -0 5\t2   2 -1\n-0 6\t2   4 -1\n-0 7\t2   4 -1\n\n-1 0\t3   0 1 -1\n-1 1\t3   1 0 -1\n\
        -1 2\t3   2 1 -1\n-1 6\t3   1 2 -1\n-1 4\t3   2 3 -1\n-1 5\t3   3 2 -1\n-1 6\t3   4 3 -1\n\
        -1 7\t3   3 4 -1\n\n-2 0\t3   1 5 -1\n-2 3\t3   5 1 -1\n-2 4\t3   3 6 -1\n-2 7\t3   6 3 -1\n\n\
        -3 0\t2   5 -1\n-3 3\t2   5 -1\n-3 4\t2   6 -1\n-3 7\t2   6 -1\n\n\n\
        4   6 0 1 7             1 -1 -1 -1\n\
        6   7 8 9 15 14 6       0 -1 2 -1 5 -1\n\
        6   7 2 3 11 10 9       1 -1 -1 -1 3 -1\n\
        6   11 12 13 17 16 10   2 -1 4 -1 6 -1\n\
        4   11 4 5 13           3 -1 -1 -1\n\
        4   15 19 18 14         1 -1 -1 -1\n\
        4   17 21 20 16         3 -1 -1 -1\n";
    let soup = parse_polyanya_mesh_bytes(FILE.as_bytes()).expect("the file parses");
    let result = soup.into_mesh(&MeshOptions::default());
    assert!(
        matches!(
            result,
            Err(LoadError::Mesh(MeshError::NonConvexPolygon {
                polygon: 2,
                ..
            }))
        ),
        "{result:?}"
    );
    // The spike alone, and a spike folded the other way, in both windings.
    let p = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    let spikes = [
        vec![
            p(-1.0, 1.0),
            p(0.0, 2.0),
            p(0.0, 5.0),
            p(-1.0, 5.0),
            p(-1.0, 4.0),
            p(-1.0, 6.0),
        ],
        vec![
            p(0.0, 0.0),
            p(4.0, 0.0),
            p(4.0, 4.0),
            p(4.0, 2.0),
            p(4.0, 3.0),
            p(0.0, 4.0),
        ],
    ];
    for spike in spikes {
        for reversed in [false, true] {
            let mut corners = spike.clone();
            if reversed {
                corners.reverse();
            }
            let indices: Vec<u32> = (0..corners.len() as u32).collect();
            let sizes = [corners.len() as u32];
            let result =
                NavMesh::from_polygons(&corners, &indices, &sizes, &MeshOptions::default());
            assert!(
                matches!(result, Err(MeshError::NonConvexPolygon { polygon: 0, .. })),
                "{corners:?}: {result:?}"
            );
        }
    }
    // Still accepted: collinear corners that go straight on, and a thin sliver.
    let straight = [
        p(0.0, 0.0),
        p(1.0, 0.0),
        p(2.0, 0.0),
        p(2.0, 1.0),
        p(0.0, 1.0),
    ];
    NavMesh::from_polygons(&straight, &[0, 1, 2, 3, 4], &[5], &MeshOptions::default()).unwrap();
    let sliver = [p(0.0, 0.0), p(10.0, 0.0), p(0.0, 1e-4)];
    NavMesh::from_triangles(&sliver, &[0, 1, 2], &MeshOptions::default()).unwrap();
}

/// `grid_create`, crash-954517a3: a grid with cells of 1.3e36 units (corners near 6e37)
/// was accepted, and its paths left the mesh: the f32 geometry of paths multiplies
/// coordinate differences, which overflows beyond about 1e19. Fixed in the builder:
/// coordinates beyond +-1e18 are rejected (`MeshError::CoordinateTooLarge`,
/// `NAVSTAR_ERROR_INVALID_MESH`), for every way of building a mesh.
#[test]
fn grid_create_huge_coordinates_are_rejected() {
    let cells = [1u8; 6];
    let origin = [1.305771e36f32, 1.305771e36, 1.305771e36];
    let mut out: *mut NavstarMesh = NonNull::dangling().as_ptr();
    // SAFETY: 3 x 2 cells, 3 origin floats, NULL options.
    let status = unsafe {
        navstar_mesh_create_from_grid(
            cells.as_ptr(),
            3,
            2,
            1.305771e36,
            origin.as_ptr(),
            ptr::null(),
            &mut out,
        )
    };
    assert_eq!(
        status,
        NavstarStatus::NavstarErrorInvalidMesh,
        "{}",
        last_error()
    );
    assert!(out.is_null());
    assert!(last_error().contains("too large"), "{}", last_error());
    let p = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    let big = [p(0.0, 0.0), p(2e18, 0.0), p(0.0, 1.0)];
    let result = NavMesh::from_triangles(&big, &[0, 1, 2], &MeshOptions::default());
    assert!(
        matches!(result, Err(MeshError::CoordinateTooLarge { vertex: 1, value }) if value == 2e18),
        "{result:?}"
    );
    // Within the bound, paths are still right: an L of two squares of side 1e17.
    let s = 1e17f32;
    let l = [
        p(0.0, 0.0),
        p(s, 0.0),
        p(s, s),
        p(0.0, s),
        p(2.0 * s, 0.0),
        p(2.0 * s, s),
        p(0.0, 2.0 * s),
        p(s, 2.0 * s),
    ];
    let mesh = NavMesh::from_polygons(
        &l,
        &[0, 1, 2, 3, 1, 4, 5, 2, 3, 2, 7, 6],
        &[4, 4, 4],
        &MeshOptions::default(),
    )
    .unwrap();
    let (corners, _) = navstar::Query::new(&mesh)
        .find_path_vec(
            p(1.9 * s, 0.5 * s),
            p(0.5 * s, 1.9 * s),
            &navstar::PathOptions::default(),
        )
        .unwrap();
    assert_eq!(corners, [p(1.9 * s, 0.5 * s), p(s, s), p(0.5 * s, 1.9 * s)]);
}

/// `find_path`, crash-0578edf1 (and two like it): a start 1e30 units from the mesh. The
/// check itself was wrong there (its f32 distances overflowed), but it showed that the
/// library's squared f32 distances overflow too: a snap distance above about 1.8e19
/// was treated as unlimited, and `NotOnMesh` reported an infinite distance. Fixed in
/// `nearest_point` (the distance and the limit are checked in f64).
#[test]
fn find_path_far_points_and_huge_snap_distances() {
    let vertices: Vec<Vec3> = SQUARE_VERTICES.chunks(3).map(Vec3::from_slice).collect();
    let mesh =
        NavMesh::from_triangles(&vertices, &SQUARE_TRIANGLES, &MeshOptions::default()).unwrap();
    let mut query = navstar::Query::new(&mesh);
    let (far, goal) = (Vec3::new(-1e30, 0.0, 0.5), Vec3::new(0.5, 0.0, 0.5));
    let (corners, _) = query
        .find_path_vec(far, goal, &navstar::PathOptions::default())
        .unwrap();
    assert_eq!(
        corners[0].x, 0.0,
        "the far start snaps to the near side: {corners:?}"
    );
    let mut options = navstar::PathOptions::default();
    options.max_snap_distance = 1e20;
    match query.find_path_vec(far, goal, &options) {
        Err(navstar::QueryError::NotOnMesh { distance, .. }) => {
            assert!(distance.is_finite() && distance > 9e29, "{distance}")
        }
        other => panic!("a start 1e30 away was accepted with a snap distance of 1e20: {other:?}"),
    }
    options.max_snap_distance = 2e30;
    assert!(query.find_path_vec(far, goal, &options).is_ok());
}
