//! Regression tests for what the fuzzers (`fuzz/`, run by `scripts/fuzz`) found: every
//! input a fuzz target failed on, reduced to what matters, through the public Rust API or
//! the C ABI, named after the target and what went wrong (with the artifact name that
//! `scripts/fuzz` reported).

use std::ptr::{self, NonNull};

use glam::Vec3;
use navstar::ffi::{
    NavstarMesh, NavstarMeshOptions, NavstarStatus, navstar_mesh_create,
    navstar_mesh_create_from_grid, navstar_mesh_free, navstar_mesh_options_default,
    navstar_mesh_polygon_count, navstar_mesh_save,
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
    let corners = navstar::Query::new(&mesh)
        .find_path_vec(
            p(1.9 * s, 0.5 * s),
            p(0.5 * s, 1.9 * s),
            &navstar::PathOptions::default(),
        )
        .unwrap()
        .corners;
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
    let corners = query
        .find_path_vec(far, goal, &navstar::PathOptions::default())
        .unwrap()
        .corners;
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

/// Two unit squares (Z up), `[0,1] x [0,1]` and `[1,2] x [1,2]`, touching only at the
/// pinched vertex `(1, 1)`: two islands.
fn pinched_squares() -> NavMesh {
    let vertices = [
        (0.0, 0.0),
        (1.0, 0.0),
        (1.0, 1.0),
        (0.0, 1.0),
        (2.0, 1.0),
        (2.0, 2.0),
        (1.0, 2.0),
    ]
    .map(|(x, y)| Vec3::new(x, y, 0.0));
    let (indices, sizes) = ([0, 1, 2, 3, 2, 4, 5, 6], [4, 4]);
    let input = navstar::MeshInput::new(&vertices, &indices).with_polygon_sizes(&sizes);
    NavMesh::from_input(
        &input,
        &MeshOptions::default().with_up_axis(navstar::UpAxis::Z),
    )
    .unwrap()
}

/// `nearest_target_reachable`, fuzz/findings/nearest_target_pinched_goal.bin: a goal on
/// a vertex shared by polygons of two islands was snapped to one of them and skipped
/// when that was not the start's island, although `find_path` (which tries each polygon
/// at such a point) reaches it. Fixed in `find_nearest_target`: a goal is a target in
/// each fan of polygons round it, and a start on a pinched vertex searches from each of
/// its fans, in both path modes.
#[test]
fn nearest_target_reachable_pinched_goal_and_start() {
    let mesh = pinched_squares();
    let mut query = navstar::Query::new(&mesh);
    let z = |x: f32, y: f32| Vec3::new(x, y, 0.0);
    for mode in [navstar::PathMode::Funnel, navstar::PathMode::Optimal] {
        let mut options = navstar::PathOptions::default();
        options.mode = mode;
        // The goal on the pinch, from either island.
        for start in [z(1.5, 1.5), z(0.5, 0.5)] {
            let corners = query
                .find_path_vec(start, z(1.0, 1.0), &options)
                .unwrap()
                .corners;
            assert_eq!(corners, [start, z(1.0, 1.0)], "{mode:?}");
            let answer = query
                .find_nearest_target(start, &[z(1.0, 1.0)], &options)
                .unwrap_or_else(|e| panic!("{mode:?} from {start}: {e:?}"));
            assert_eq!(answer.target, 0);
            assert_eq!(answer.path.corners, [start, z(1.0, 1.0)], "{mode:?}");
        }
        // The start on the pinch: the nearer goal wins, whichever island it is on.
        for (goals, nearest) in [
            ([z(0.2, 0.2), z(1.6, 1.6)], 1),
            ([z(0.4, 0.4), z(1.8, 1.8)], 0),
        ] {
            let answer = query
                .find_nearest_target(z(1.0, 1.0), &goals, &options)
                .unwrap();
            assert_eq!(answer.target, nearest, "{mode:?} {goals:?}");
            assert_eq!(answer.path.corners, [z(1.0, 1.0), goals[nearest]]);
        }
    }
}

/// Three unit cells in an L (Y up): `[0,2] x [0,1]` as two cells and `[0,1] x [1,2]`.
/// The path from one end to the other needs a search, so that there is a corridor.
const L_VERTICES: [f32; 24] = [
    0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 1.0, 2.0, 0.0, 1.0, 0.0,
    0.0, 2.0, 1.0, 0.0, 2.0,
];
const L_INDICES: [u32; 12] = [0, 3, 4, 1, 1, 4, 5, 2, 3, 6, 7, 4];
const L_SIZES: [u32; 3] = [4, 4, 4];

/// fuzz/findings/null_out_count_keeps_last_path.c: `navstar_find_path` and
/// `navstar_find_nearest_target` checked `out_count` and `out_goal` before forgetting
/// the query's last path, so a call failing for them left it readable, and the
/// read-back functions answered `NAVSTAR_OK` where the docs promise
/// `NAVSTAR_ERROR_NO_PATH` after a failed path call. Fixed: a path call forgets the last
/// path first.
#[test]
fn failed_path_calls_forget_the_last_path() {
    use navstar::ffi::{
        NavstarPathInfo, navstar_find_nearest_target, navstar_find_path, navstar_query_create,
        navstar_query_free, navstar_query_path_arcs, navstar_query_path_corridor,
        navstar_query_path_details, navstar_query_path_info,
    };
    let mut mesh = ptr::null_mut();
    // SAFETY: arrays of the stated sizes; `mesh` is writable.
    let status = unsafe {
        navstar_mesh_create(
            L_VERTICES.as_ptr(),
            8,
            L_INDICES.as_ptr(),
            L_SIZES.as_ptr(),
            3,
            ptr::null(),
            &mut mesh,
        )
    };
    assert_eq!(status, NavstarStatus::NavstarOk, "{}", last_error());
    let mut query = ptr::null_mut();
    // SAFETY: a live mesh; `query` is writable.
    assert_eq!(
        unsafe { navstar_query_create(mesh, &mut query) },
        NavstarStatus::NavstarOk
    );
    let (start, goal) = ([1.8f32, 0.0, 0.5], [0.5f32, 0.0, 1.8]);
    let mut points = [0.0f32; 30];
    let (mut count, mut chosen) = (0u32, 0u32);
    // Every read-back answers `want`.
    let read_backs = |want: NavstarStatus, after: &str| {
        let mut info = NavstarPathInfo {
            point_count: 0,
            polygon_count: 0,
            status: NavstarStatus::NavstarOk,
            length: 0.0,
            cost: 0.0,
        };
        let mut n = 0;
        // SAFETY: a live query; writable outputs; capacity 0 with NULL buffers.
        let answers = unsafe {
            [
                navstar_query_path_info(query, &mut info),
                navstar_query_path_details(query, ptr::null_mut(), 0, &mut n),
                navstar_query_path_corridor(query, ptr::null_mut(), 0, &mut n),
                navstar_query_path_arcs(query, ptr::null_mut(), 0, &mut n),
            ]
        };
        for answer in answers {
            let answer = if answer == NavstarStatus::NavstarBufferTooSmall {
                NavstarStatus::NavstarOk
            } else {
                answer
            };
            assert_eq!(answer, want, "after {after}");
        }
    };
    let find_path = |out_count: *mut u32, points: &mut [f32; 30]| {
        // SAFETY: a live query; 3-float points; `points` holds 10 points.
        unsafe {
            navstar_find_path(
                query,
                start.as_ptr(),
                goal.as_ptr(),
                ptr::null(),
                points.as_mut_ptr(),
                10,
                out_count,
            )
        }
    };
    assert_eq!(find_path(&mut count, &mut points), NavstarStatus::NavstarOk);
    read_backs(NavstarStatus::NavstarOk, "a path");
    assert_eq!(
        find_path(ptr::null_mut(), &mut points),
        NavstarStatus::NavstarErrorNullArgument
    );
    read_backs(
        NavstarStatus::NavstarErrorNoPath,
        "find_path with out_count NULL",
    );
    let nearest = |out_count: *mut u32, out_goal: *mut u32, points: &mut [f32; 30]| {
        // SAFETY: a live query; one 3-float goal; `points` holds 10 points.
        unsafe {
            navstar_find_nearest_target(
                query,
                start.as_ptr(),
                goal.as_ptr(),
                1,
                ptr::null(),
                points.as_mut_ptr(),
                10,
                out_count,
                out_goal,
            )
        }
    };
    let failures: [(*mut u32, *mut u32, &str); 2] = [
        (&mut count, ptr::null_mut(), "out_goal NULL"),
        (ptr::null_mut(), &mut chosen, "out_count NULL"),
    ];
    for (out_count, out_goal, what) in failures {
        assert_eq!(
            nearest(&mut count, &mut chosen, &mut points),
            NavstarStatus::NavstarOk
        );
        read_backs(NavstarStatus::NavstarOk, "a nearest target");
        assert_eq!(
            nearest(out_count, out_goal, &mut points),
            NavstarStatus::NavstarErrorNullArgument
        );
        read_backs(
            NavstarStatus::NavstarErrorNoPath,
            &format!("find_nearest_target with {what}"),
        );
    }
    // SAFETY: live handles, freed once.
    unsafe {
        navstar_query_free(query);
        navstar_mesh_free(mesh);
    }
}

/// A path query on `(query, start, goal)` that fails; true when it did.
type FailingQuery = fn(&mut navstar::Query, Vec3, Vec3) -> bool;

/// The Rust side of the same contract: a failed path query forgets the corridor of the
/// path before it, whatever it fails on.
#[test]
fn failed_rust_path_queries_forget_the_corridor() {
    let vertices: Vec<Vec3> = L_VERTICES.chunks(3).map(Vec3::from_slice).collect();
    let input = navstar::MeshInput::new(&vertices, &L_INDICES).with_polygon_sizes(&L_SIZES);
    let mesh = NavMesh::from_input(&input, &MeshOptions::default()).unwrap();
    let mut query = navstar::Query::new(&mesh);
    let options = navstar::PathOptions::default();
    let (start, goal) = (Vec3::new(1.8, 0.0, 0.5), Vec3::new(0.5, 0.0, 1.8));
    let failures: [(&str, FailingQuery); 3] = [
        ("find_path from NaN", |q, _, goal| {
            q.find_path(Vec3::splat(f32::NAN), goal, &Default::default())
                .is_err()
        }),
        ("find_nearest_target without goals", |q, start, _| {
            q.find_nearest_target(start, &[], &Default::default())
                .is_err()
        }),
        ("find_path with a bad weight", |q, start, goal| {
            let mut options = navstar::PathOptions::default();
            options.heuristic_weight = -1.0;
            q.find_path(start, goal, &options).is_err()
        }),
    ];
    for (what, fail) in failures {
        query.find_path(start, goal, &options).unwrap();
        assert_eq!(query.corridor().len(), 3, "the L's three cells");
        assert!(fail(&mut query, start, goal), "{what} did not fail");
        assert_eq!(query.corridor().len(), 0, "after {what}");
    }
}

/// `spatial_queries`, fuzz/findings/raycast_end_point_on_slope.bin: without a hit, the
/// raycast's point was the last polygon's point nearest to `end` in 3D, which on a slope
/// with `end` above or below the surface is not at the end of the ground segment,
/// although `t` is 1. Fixed in the raycast: the end of the ground segment, with the
/// polygon's height there.
#[test]
fn spatial_queries_raycast_end_point_on_slope() {
    use navstar::ffi::{NavstarRaycastHit, navstar_mesh_raycast};
    // A ramp rising along z (height y = z) over [0,1] x [0,1], Y up.
    let vertices: [f32; 12] = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 1.0, 0.0, 1.0, 1.0];
    let vertices3: Vec<Vec3> = vertices.chunks(3).map(Vec3::from_slice).collect();
    let ramp = NavMesh::from_input(
        &navstar::MeshInput::new(&vertices3, &[0, 1, 2, 3]).with_polygon_sizes(&[4]),
        &MeshOptions::default(),
    )
    .unwrap();
    let start = Vec3::new(0.5, 0.25, 0.25);
    for (end, want) in [
        (Vec3::new(0.5, 0.0, 0.5), Vec3::new(0.5, 0.5, 0.5)),
        (Vec3::new(0.25, 2.0, 0.75), Vec3::new(0.25, 0.75, 0.75)),
    ] {
        let hit = ramp
            .raycast(start, end, &navstar::QueryFilter::default())
            .unwrap();
        assert!(hit.hit.is_none() && hit.t == 1.0, "{hit:?}");
        assert!(
            hit.point.distance(want) < 1e-6,
            "{end}: {hit:?}, not {want}"
        );
        // The same through the C ABI.
        let mut mesh = ptr::null_mut();
        // SAFETY: arrays of the stated sizes; `mesh` is writable.
        let status = unsafe {
            navstar_mesh_create(
                vertices.as_ptr(),
                4,
                [0u32, 1, 2, 3].as_ptr(),
                [4u32].as_ptr(),
                1,
                ptr::null(),
                &mut mesh,
            )
        };
        assert_eq!(status, NavstarStatus::NavstarOk, "{}", last_error());
        let mut c_hit = NavstarRaycastHit {
            hit: 9,
            t: -1.0,
            point: [0.0; 3],
            normal: [9.0; 3],
            polygon: 9,
        };
        // SAFETY: a live mesh; 3-float points; `c_hit` writable.
        let status = unsafe {
            navstar_mesh_raycast(
                mesh,
                start.to_array().as_ptr(),
                end.to_array().as_ptr(),
                ptr::null(),
                &mut c_hit,
            )
        };
        // SAFETY: a live mesh, freed once.
        unsafe { navstar_mesh_free(mesh) };
        assert_eq!(status, NavstarStatus::NavstarOk);
        assert_eq!((c_hit.hit, c_hit.t), (0, 1.0));
        assert_eq!(c_hit.point, hit.point.to_array());
    }
}

/// `save_load`, crash-50983357: `navstar_mesh_save` with a NULL `out_size` said
/// "out_count is NULL", naming an argument it does not have (the shared output-array
/// reader named every count output `out_count`). Fixed: the reader takes the name.
#[test]
fn save_load_null_out_size_is_named() {
    let mesh = crate::saved::two_squares();
    let mut buffer = [0u8; 8];
    // SAFETY: a live mesh; room for 8 bytes; the NULL out_size is the error tested.
    let status = unsafe { navstar_mesh_save(mesh, buffer.as_mut_ptr(), 8, ptr::null_mut()) };
    crate::assert_status(
        status,
        NavstarStatus::NavstarErrorNullArgument,
        &["navstar_mesh_save: out_size is NULL"],
    );
    assert_eq!(buffer, [0u8; 8], "nothing is written on error");
    let mut size = 7u32;
    // SAFETY: a live mesh; a NULL buffer with a capacity is the error tested.
    let status = unsafe { navstar_mesh_save(mesh, ptr::null_mut(), 8, &mut size) };
    crate::assert_status(status, NavstarStatus::NavstarErrorNullArgument, &["buffer"]);
    assert_eq!(size, 0, "*out_size is 0 on error");
    // SAFETY: a live mesh, freed once.
    unsafe { navstar_mesh_free(mesh) };
}
