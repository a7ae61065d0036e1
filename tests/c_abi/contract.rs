//! The C ABI called directly from Rust (`navstar::ffi::*`), as a C caller would: known
//! answers, every rejection listed in API.md with its status and a message that names
//! the culprit, option struct versioning, handle lifetimes and sharing a mesh between
//! threads.
//!
//! Every call goes through small helpers that keep the C contract (buffer sizes match
//! the counts passed), so each `unsafe` block is sound whatever the library answers.

use std::ffi::CStr;
use std::ptr::{self, NonNull};
use std::sync::Barrier;

use navstar::ffi::{
    NAVSTAR_PATH_AUTO, NAVSTAR_PATH_FUNNEL, NAVSTAR_PATH_OPTIMAL, NAVSTAR_SEARCH_ASTAR,
    NAVSTAR_UP_Y, NAVSTAR_UP_Z, NavstarMesh, NavstarMeshOptions, NavstarPathOptions, NavstarQuery,
    NavstarStatus, navstar_find_path, navstar_mesh_create, navstar_mesh_free,
    navstar_mesh_options_default, navstar_mesh_polygon_count, navstar_path_options_default,
    navstar_query_create, navstar_query_filter_default, navstar_query_free, navstar_status_name,
    navstar_version,
};

use NavstarStatus::{
    NavstarBufferTooSmall as BUFFER_TOO_SMALL, NavstarErrorInvalidArgument as INVALID_ARGUMENT,
    NavstarErrorInvalidMesh as INVALID_MESH, NavstarErrorNoPath as NO_PATH,
    NavstarErrorNotOnMesh as NOT_ON_MESH, NavstarErrorNullArgument as NULL_ARGUMENT,
    NavstarOk as OK, NavstarPartialPath as PARTIAL_PATH,
};

use crate::{assert_status, last_error};

const TOLERANCE: f32 = 1e-4;
/// Written into output buffers beyond `capacity` to prove nothing is written there.
const SENTINEL: f32 = -777.0;

// ---------------------------------------------------------------------------------
// Helpers that keep the C contract.

/// Asserts an error status and that the message is non-empty and contains every culprit.
#[track_caller]
fn assert_error(status: NavstarStatus, want: NavstarStatus, culprits: &[&str]) {
    assert_status(status, want, culprits);
    assert!(
        !last_error().is_empty(),
        "an error ({want:?}) left no message"
    );
}

#[track_caller]
fn assert_no_message(after: &str) {
    let message = last_error();
    assert_eq!(message, "", "the message should be \"\" after {after}");
}

/// Owns a mesh handle; frees it on drop (also when a test fails).
struct Mesh(*mut NavstarMesh);

impl Drop for Mesh {
    fn drop(&mut self) {
        // SAFETY: NULL or a live mesh from navstar_mesh_create, freed only here.
        unsafe { navstar_mesh_free(self.0) }
    }
}

impl Mesh {
    /// Frees the mesh now (queries made from it stay valid).
    fn free(mut self) {
        // SAFETY: NULL or a live mesh from navstar_mesh_create; the handle is cleared so
        // that drop does not free it again.
        unsafe { navstar_mesh_free(std::mem::replace(&mut self.0, ptr::null_mut())) }
    }
}

/// Owns a query handle; frees it on drop.
struct Query(*mut NavstarQuery);

impl Drop for Query {
    fn drop(&mut self) {
        // SAFETY: NULL or a live query from navstar_query_create, freed only here, and
        // not in use by another thread (a `Query` is moved, never shared).
        unsafe { navstar_query_free(self.0) }
    }
}

// SAFETY: API.md: a query may be used by one thread at a time, from any thread. `Query`
// is not `Sync` and every call takes `&mut Query`, so only one thread uses it at once.
unsafe impl Send for Query {}

/// Mesh input as the C caller passes it: `sizes == None` means triangles.
#[derive(Clone)]
struct MeshInput {
    vertices: Vec<f32>,
    indices: Vec<u32>,
    sizes: Option<Vec<u32>>,
}

impl MeshInput {
    fn polygon_count(&self) -> u32 {
        match &self.sizes {
            Some(sizes) => sizes.len() as u32,
            None => (self.indices.len() / 3) as u32,
        }
    }

    /// Calls navstar_mesh_create. `*out_mesh` starts as a dangling non-NULL pointer, so
    /// that the call is seen to set it (to NULL on error).
    #[track_caller]
    fn create(&self, options: Option<&NavstarMeshOptions>) -> (NavstarStatus, Mesh) {
        // Keep the contract: exactly the number of floats and indices the counts imply.
        assert_eq!(self.vertices.len() % 3, 0);
        let needed: u64 = match &self.sizes {
            Some(sizes) => sizes.iter().map(|&s| u64::from(s)).sum(),
            None => 3 * u64::from(self.polygon_count()),
        };
        assert_eq!(
            needed,
            self.indices.len() as u64,
            "test bug: the indices do not match the sizes"
        );
        let mut out: *mut NavstarMesh = NonNull::dangling().as_ptr();
        // SAFETY: the Vec pointers are valid for exactly the elements the counts
        // describe (checked above; for a count of 0 the pointer is dangling, never NULL,
        // and nothing is read); `options` is NULL or a full struct; `out` is writable.
        let status = unsafe {
            navstar_mesh_create(
                self.vertices.as_ptr(),
                (self.vertices.len() / 3) as u32,
                self.indices.as_ptr(),
                self.sizes.as_ref().map_or(ptr::null(), |s| s.as_ptr()),
                self.polygon_count(),
                options.map_or(ptr::null(), |o| o as *const NavstarMeshOptions),
                &mut out,
            )
        };
        if status == OK {
            assert!(!out.is_null(), "OK but *out_mesh is NULL");
        } else {
            assert!(out.is_null(), "*out_mesh is not NULL after {status:?}");
        }
        (status, Mesh(out))
    }

    /// Creates the mesh and asserts success.
    #[track_caller]
    fn build(&self, options: Option<&NavstarMeshOptions>) -> Mesh {
        let (status, mesh) = self.create(options);
        assert_eq!(status, OK, "navstar_mesh_create failed: {}", last_error());
        assert_no_message("a successful navstar_mesh_create");
        mesh
    }

    /// Creates the mesh, asserts the error and the culprits named in the message.
    #[track_caller]
    fn reject(&self, options: Option<&NavstarMeshOptions>, want: NavstarStatus, culprits: &[&str]) {
        let (status, _mesh) = self.create(options);
        assert_error(status, want, culprits);
    }
}

#[track_caller]
fn new_query(mesh: &Mesh) -> Query {
    let mut out: *mut NavstarQuery = NonNull::dangling().as_ptr();
    // SAFETY: mesh.0 is a live mesh; out is writable.
    let status = unsafe { navstar_query_create(mesh.0, &mut out) };
    assert_eq!(status, OK, "navstar_query_create failed: {}", last_error());
    assert!(!out.is_null());
    assert_no_message("a successful navstar_query_create");
    Query(out)
}

/// The result of one navstar_find_path call.
#[derive(Debug, Clone, PartialEq)]
struct Found {
    status: NavstarStatus,
    count: u32,
    /// The points written: `min(count, capacity)` of them.
    points: Vec<[f32; 3]>,
}

/// Calls navstar_find_path with a buffer of `capacity` points (plus two sentinel points
/// after it that must stay untouched).
#[track_caller]
fn find_path(
    query: &mut Query,
    start: [f32; 3],
    goal: [f32; 3],
    options: Option<&NavstarPathOptions>,
    capacity: u32,
) -> Found {
    let mut buffer = vec![SENTINEL; 3 * (capacity as usize + 2)];
    let mut count = u32::MAX;
    // SAFETY: query.0 is a live query used by this thread only (`&mut`); start and goal
    // are 3 floats; options is NULL or a full struct; buffer has room for `capacity`
    // points; count is writable.
    let status = unsafe {
        navstar_find_path(
            query.0,
            start.as_ptr(),
            goal.as_ptr(),
            options.map_or(ptr::null(), |o| o as *const NavstarPathOptions),
            buffer.as_mut_ptr(),
            capacity,
            &mut count,
        )
    };
    let written = if (status as i32) < 0 {
        0
    } else {
        count.min(capacity) as usize
    };
    assert!(
        buffer[3 * capacity as usize..]
            .iter()
            .all(|&v| v == SENTINEL),
        "navstar_find_path wrote past the capacity {capacity}"
    );
    if (status as i32) < 0 {
        assert_eq!(count, 0, "*out_count should be 0 after an error");
    } else {
        assert_no_message("a successful navstar_find_path");
    }
    let points = buffer[..3 * written]
        .chunks_exact(3)
        .map(|c| [c[0], c[1], c[2]])
        .collect();
    Found {
        status,
        count,
        points,
    }
}

#[track_caller]
fn assert_points(got: &[[f32; 3]], want: &[[f32; 3]]) {
    let same = got.len() == want.len()
        && got
            .iter()
            .zip(want)
            .all(|(g, w)| g.iter().zip(w).all(|(a, b)| (a - b).abs() <= TOLERANCE));
    assert!(same, "path\n  got  {got:?}\n  want {want:?}");
}

// ---------------------------------------------------------------------------------
// The U mesh (see examples/c/navstar_example.c for the picture): unit cells at
// (0,0) (1,0) (2,0) (0,1) (2,1) (0,2) (2,2) on a 4x4 vertex grid (vertex 4z + x), and
// an island cell with vertices 16..19 at x in [5,6], z in [0,1].

const U_CELLS: [(u32, u32); 7] = [(0, 0), (1, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)];

/// A ground-plane point (x, z) at `height`, in the mesh's axis convention.
fn world(x: f32, z: f32, z_up: bool, height: f32) -> [f32; 3] {
    if z_up { [x, z, height] } else { [x, height, z] }
}

fn u_mesh(triangles: bool, z_up: bool, height: f32) -> MeshInput {
    let mut vertices = Vec::new();
    for z in 0..4 {
        for x in 0..4 {
            vertices.extend(world(x as f32, z as f32, z_up, height));
        }
    }
    for (x, z) in [(5.0, 0.0), (6.0, 0.0), (6.0, 1.0), (5.0, 1.0)] {
        vertices.extend(world(x, z, z_up, height));
    }
    let mut quads: Vec<[u32; 4]> = U_CELLS
        .iter()
        .map(|&(x, z)| {
            [
                4 * z + x,
                4 * z + x + 1,
                4 * (z + 1) + x + 1,
                4 * (z + 1) + x,
            ]
        })
        .collect();
    quads.push([16, 17, 18, 19]);
    if triangles {
        let indices = quads
            .iter()
            .flat_map(|q| [q[0], q[1], q[2], q[0], q[2], q[3]])
            .collect();
        MeshInput {
            vertices,
            indices,
            sizes: None,
        }
    } else {
        let sizes = Some(vec![4; quads.len()]);
        MeshInput {
            vertices,
            indices: quads.concat(),
            sizes,
        }
    }
}

/// (start, goal, expected corners, status) in ground coordinates.
type Case = ((f32, f32), (f32, f32), &'static [(f32, f32)], NavstarStatus);

#[rustfmt::skip]
const U_CASES: &[Case] = &[
    // U-turn around the inner corners, both ways.
    ((0.5, 2.5), (2.5, 2.5), &[(0.5, 2.5), (1.0, 1.0), (2.0, 1.0), (2.5, 2.5)], OK),
    ((2.5, 2.5), (0.5, 2.5), &[(2.5, 2.5), (2.0, 1.0), (1.0, 1.0), (0.5, 2.5)], OK),
    // L-turn, both ways.
    ((0.5, 2.5), (2.5, 0.5), &[(0.5, 2.5), (1.0, 1.0), (2.5, 0.5)], OK),
    ((2.5, 0.5), (0.5, 2.5), &[(2.5, 0.5), (1.0, 1.0), (0.5, 2.5)], OK),
    // One polygon; direct sight across three.
    ((0.2, 0.2), (0.8, 0.7), &[(0.2, 0.2), (0.8, 0.7)], OK),
    ((0.5, 0.5), (2.5, 0.6), &[(0.5, 0.5), (2.5, 0.6)], OK),
    // To a vertex of the mesh and from one.
    ((0.5, 2.5), (2.0, 1.0), &[(0.5, 2.5), (1.0, 1.0), (2.0, 1.0)], OK),
    ((1.0, 1.0), (2.5, 2.5), &[(1.0, 1.0), (2.0, 1.0), (2.5, 2.5)], OK),
    // Partial: the goal is on the island; the closest reachable point is (3, 0.5).
    ((0.5, 2.5), (5.5, 0.5), &[(0.5, 2.5), (1.0, 1.0), (3.0, 0.5)], PARTIAL_PATH),
    // Partial the other way: from the island towards (0.5, 0.5) ends at (5, 0.5).
    ((5.5, 0.5), (0.5, 0.5), &[(5.5, 0.5), (5.0, 0.5)], PARTIAL_PATH),
    // Within the island.
    ((5.2, 0.2), (5.8, 0.9), &[(5.2, 0.2), (5.8, 0.9)], OK),
];

fn check_u_cases(query: &mut Query, z_up: bool, height: f32) {
    for &((sx, sz), (gx, gz), want, status) in U_CASES {
        let start = world(sx, sz, z_up, height);
        let goal = world(gx, gz, z_up, height);
        let want: Vec<[f32; 3]> = want
            .iter()
            .map(|&(x, z)| world(x, z, z_up, height))
            .collect();
        let found = find_path(query, start, goal, None, 16);
        assert_eq!(
            found.status,
            status,
            "{start:?} -> {goal:?}: {}",
            last_error()
        );
        assert_eq!(
            found.count as usize,
            want.len(),
            "{start:?} -> {goal:?}: {:?}",
            found.points
        );
        assert_points(&found.points, &want);
    }
}

// ---------------------------------------------------------------------------------
// Basics

#[test]
fn version_matches_the_package() {
    let part = |s: &str| s.parse::<u32>().unwrap();
    let want = (part(env!("CARGO_PKG_VERSION_MAJOR")) << 16)
        | (part(env!("CARGO_PKG_VERSION_MINOR")) << 8)
        | part(env!("CARGO_PKG_VERSION_PATCH"));
    assert_eq!(navstar_version(), want);
}

#[test]
fn status_values_and_names_match_api_md() {
    let table = [
        (NavstarStatus::NavstarOk, 0, "NAVSTAR_OK"),
        (NavstarStatus::NavstarPartialPath, 1, "NAVSTAR_PARTIAL_PATH"),
        (
            NavstarStatus::NavstarBufferTooSmall,
            2,
            "NAVSTAR_BUFFER_TOO_SMALL",
        ),
        (
            NavstarStatus::NavstarPartialNodeLimit,
            3,
            "NAVSTAR_PARTIAL_NODE_LIMIT",
        ),
        (
            NavstarStatus::NavstarErrorNullArgument,
            -1,
            "NAVSTAR_ERROR_NULL_ARGUMENT",
        ),
        (
            NavstarStatus::NavstarErrorInvalidArgument,
            -2,
            "NAVSTAR_ERROR_INVALID_ARGUMENT",
        ),
        (
            NavstarStatus::NavstarErrorInvalidMesh,
            -3,
            "NAVSTAR_ERROR_INVALID_MESH",
        ),
        (
            NavstarStatus::NavstarErrorNotOnMesh,
            -4,
            "NAVSTAR_ERROR_NOT_ON_MESH",
        ),
        (
            NavstarStatus::NavstarErrorNoPath,
            -5,
            "NAVSTAR_ERROR_NO_PATH",
        ),
        (
            NavstarStatus::NavstarErrorInternal,
            -100,
            "NAVSTAR_ERROR_INTERNAL",
        ),
    ];
    assert_eq!(size_of::<NavstarStatus>(), 4);
    for (status, value, name) in table {
        assert_eq!(status as i32, value, "{name}");
        // SAFETY: navstar_status_name returns a static NUL-terminated string, never NULL.
        let got = unsafe { CStr::from_ptr(navstar_status_name(value)) };
        assert_eq!(got.to_str().unwrap(), name);
    }
    // SAFETY: as above.
    let unknown = unsafe { CStr::from_ptr(navstar_status_name(12345)) };
    assert_eq!(unknown.to_str().unwrap(), "unknown status");
}

#[test]
fn option_defaults() {
    let mesh = navstar_mesh_options_default();
    assert_eq!(mesh.struct_size as usize, size_of::<NavstarMeshOptions>());
    assert_eq!(mesh.up_axis, NAVSTAR_UP_Y);
    assert_ne!(mesh.weld_vertices, 0);
    assert_eq!(mesh.weld_distance, 0.0);
    assert_eq!(mesh.allow_degenerate_connectors, 0);
    let path = navstar_path_options_default();
    assert_eq!(path.struct_size as usize, size_of::<NavstarPathOptions>());
    assert_eq!(path.strategy, NAVSTAR_SEARCH_ASTAR);
    assert_eq!(path.heuristic_weight, 1.0);
    assert_eq!(path.max_snap_distance, f32::INFINITY);
    assert_ne!(path.allow_partial, 0);
    assert_eq!(path.mode, NAVSTAR_PATH_AUTO);
    // The C layout: u32 fields and floats, then (path options) the filter pointer.
    assert_eq!(size_of::<NavstarMeshOptions>(), 24);
    assert_eq!(size_of::<NavstarPathOptions>(), 48);
    assert_eq!(
        (mesh.agent_radius, path.agent_radius, path.reserved),
        (0.0, 0.0, 0)
    );
    assert!(path.filter.is_null());
}

#[test]
fn free_null_does_nothing() {
    // SAFETY: NULL is documented as a no-op for both.
    unsafe {
        navstar_mesh_free(ptr::null_mut());
        navstar_query_free(ptr::null_mut());
    }
    // SAFETY: NULL is accepted and answers 0.
    assert_eq!(unsafe { navstar_mesh_polygon_count(ptr::null()) }, 0);
}

// ---------------------------------------------------------------------------------
// Known answers

#[test]
fn known_paths_on_quads() {
    let mesh = u_mesh(false, false, 0.0).build(None);
    // SAFETY: a live mesh.
    assert_eq!(unsafe { navstar_mesh_polygon_count(mesh.0) }, 8);
    let mut query = new_query(&mesh);
    check_u_cases(&mut query, false, 0.0);
}

#[test]
fn known_paths_on_triangles_with_null_polygon_sizes() {
    let mesh = u_mesh(true, false, 0.0).build(None);
    // SAFETY: a live mesh.
    assert_eq!(unsafe { navstar_mesh_polygon_count(mesh.0) }, 16);
    let mut query = new_query(&mesh);
    check_u_cases(&mut query, false, 0.0);
}

#[test]
fn known_paths_z_up_and_raised() {
    let options = NavstarMeshOptions {
        up_axis: NAVSTAR_UP_Z,
        ..navstar_mesh_options_default()
    };
    for triangles in [false, true] {
        let mesh = u_mesh(triangles, true, 1.5).build(Some(&options));
        let mut query = new_query(&mesh);
        check_u_cases(&mut query, true, 1.5);
    }
    let mesh = u_mesh(false, false, -3.0).build(None);
    let mut query = new_query(&mesh);
    check_u_cases(&mut query, false, -3.0);
    // The Z-up data read with the default Y up: every polygon is a vertical wall.
    u_mesh(false, true, 0.0).reject(None, INVALID_MESH, &["polygon 0"]);
}

#[test]
fn heights_come_from_the_mesh() {
    // The U mesh tilted: y = 0.1 * z. Corners are mesh vertices with their heights;
    // the ends are the given points, which lie on the slope.
    let mut input = u_mesh(false, false, 0.0);
    for v in input.vertices.chunks_exact_mut(3) {
        v[1] = 0.1 * v[2];
    }
    let mesh = input.build(None);
    let mut query = new_query(&mesh);
    let on_slope = |x: f32, z: f32| [x, 0.1 * z, z];
    let found = find_path(&mut query, on_slope(0.5, 2.5), on_slope(2.5, 2.5), None, 8);
    assert_eq!(found.status, OK, "{}", last_error());
    assert_points(
        &found.points,
        &[
            on_slope(0.5, 2.5),
            on_slope(1.0, 1.0),
            on_slope(2.0, 1.0),
            on_slope(2.5, 2.5),
        ],
    );
    let found = find_path(&mut query, on_slope(0.5, 2.5), on_slope(5.5, 0.5), None, 8);
    assert_eq!(found.status, PARTIAL_PATH);
    assert_points(
        &found.points,
        &[on_slope(0.5, 2.5), on_slope(1.0, 1.0), on_slope(3.0, 0.5)],
    );
}

#[test]
fn points_off_the_mesh_are_snapped() {
    let mesh = u_mesh(false, false, 0.0).build(None);
    let mut query = new_query(&mesh);
    let found = find_path(&mut query, [0.5, 2.0, 2.5], [2.5, -1.0, 0.5], None, 8);
    assert_eq!(found.status, OK);
    assert_points(
        &found.points,
        &[[0.5, 0.0, 2.5], [1.0, 0.0, 1.0], [2.5, 0.0, 0.5]],
    );
    // Beside the mesh: (1.5, 0, 2) lies in the missing cell; the nearest point is on
    // the left column's edge x = 1 (distance 0.5) or the right one's x = 2 (also 0.5),
    // so only the count and the distance can be checked.
    let with_snap = NavstarPathOptions {
        max_snap_distance: 0.5001,
        ..navstar_path_options_default()
    };
    let found = find_path(
        &mut query,
        [0.5, 0.0, 0.5],
        [1.5, 0.0, 2.0],
        Some(&with_snap),
        8,
    );
    assert_eq!(found.status, OK, "{}", last_error());
    let last = found.points.last().unwrap();
    assert!(
        ((last[0] - 1.5).abs() - 0.5).abs() <= TOLERANCE && (last[2] - 2.0).abs() <= TOLERANCE,
        "{last:?}"
    );
}

#[test]
fn mesh_options_welding() {
    // Two unit quads side by side, exported with one vertex per face corner: only
    // welding makes them neighbours.
    let vertices = vec![
        0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 1.0, // quad 0
        1.0, 0.0, 0.0, 2.0, 0.0, 0.0, 2.0, 0.0, 1.0, 1.0, 0.0, 1.0, // quad 1
    ];
    let input = MeshInput {
        vertices,
        indices: (0..8).collect(),
        sizes: Some(vec![4, 4]),
    };
    let (start, goal) = ([0.5, 0.0, 0.5], [1.5, 0.0, 0.5]);

    let mesh = input.build(None);
    let found = find_path(&mut new_query(&mesh), start, goal, None, 8);
    assert_eq!(found.status, OK);
    assert_points(&found.points, &[start, goal]);

    let no_weld = NavstarMeshOptions {
        weld_vertices: 0,
        ..navstar_mesh_options_default()
    };
    let mesh = input.build(Some(&no_weld));
    let found = find_path(&mut new_query(&mesh), start, goal, None, 8);
    assert_eq!(found.status, PARTIAL_PATH);
    assert_points(&found.points, &[start, [1.0, 0.0, 0.5]]);

    // Shift quad 1 by 0.001: exact welding no longer joins them, weld_distance 0.01 does.
    let mut shifted = input.clone();
    for x in shifted.vertices[12..].iter_mut().step_by(3) {
        *x += 0.001;
    }
    let mesh = shifted.build(None);
    assert_eq!(
        find_path(&mut new_query(&mesh), start, goal, None, 8).status,
        PARTIAL_PATH
    );
    let near = NavstarMeshOptions {
        weld_distance: 0.01,
        ..navstar_mesh_options_default()
    };
    let mesh = shifted.build(Some(&near));
    assert_eq!(
        find_path(&mut new_query(&mesh), start, goal, None, 8).status,
        OK
    );
}

// ---------------------------------------------------------------------------------
// Output buffers

#[test]
fn capacity_zero_asks_for_the_count() {
    let mesh = u_mesh(false, false, 0.0).build(None);
    let mut query = new_query(&mesh);
    let (start, goal, island) = ([0.5, 0.0, 2.5], [2.5, 0.0, 2.5], [5.5, 0.0, 0.5]);
    let mut count = 0u32;
    // SAFETY: capacity 0 with NULL out_points is allowed; the other pointers are valid.
    let status = unsafe {
        navstar_find_path(
            query.0,
            start.as_ptr(),
            goal.as_ptr(),
            ptr::null(),
            ptr::null_mut(),
            0,
            &mut count,
        )
    };
    assert_eq!(status, BUFFER_TOO_SMALL);
    assert_eq!(count, 4);
    assert_no_message("BUFFER_TOO_SMALL");
    // Capacity 0 with a non-NULL buffer: the same, nothing written.
    let found = find_path(&mut query, start, goal, None, 0);
    assert_eq!((found.status, found.count), (BUFFER_TOO_SMALL, 4));
    // A partial path that does not fit is reported as BUFFER_TOO_SMALL with its count.
    let found = find_path(&mut query, start, island, None, 0);
    assert_eq!((found.status, found.count), (BUFFER_TOO_SMALL, 3));
}

#[test]
fn small_buffer_gets_the_prefix_and_the_full_count() {
    let mesh = u_mesh(false, false, 0.0).build(None);
    let mut query = new_query(&mesh);
    let (start, goal) = ([0.5, 0.0, 2.5], [2.5, 0.0, 2.5]);
    let full = [
        [0.5, 0.0, 2.5],
        [1.0, 0.0, 1.0],
        [2.0, 0.0, 1.0],
        [2.5, 0.0, 2.5],
    ];
    for capacity in 1..=3u32 {
        let found = find_path(&mut query, start, goal, None, capacity);
        assert_eq!(
            (found.status, found.count),
            (BUFFER_TOO_SMALL, 4),
            "capacity {capacity}"
        );
        assert_points(&found.points, &full[..capacity as usize]);
    }
    for capacity in [4u32, 5, 100] {
        let found = find_path(&mut query, start, goal, None, capacity);
        assert_eq!((found.status, found.count), (OK, 4), "capacity {capacity}");
        assert_points(&found.points, &full);
    }
    // The retry pattern: ask, allocate the reported count, ask again.
    let first = find_path(&mut query, start, goal, None, 1);
    let second = find_path(&mut query, start, goal, None, first.count);
    assert_eq!(second.status, OK);
    assert_points(&second.points, &full);
}

#[test]
fn start_equal_to_goal_gives_two_points() {
    // API.md: "the first is the (snapped) start, the last is the (snapped) goal ...
    // Start and goal in the same polygon, or in direct sight, give exactly 2 points."
    let mesh = u_mesh(false, false, 0.0).build(None);
    let mut query = new_query(&mesh);
    let p = [0.5, 0.0, 0.5];
    let found = find_path(&mut query, p, p, None, 8);
    assert_eq!(found.status, OK);
    assert_points(&found.points, &[p, p]);
    // Two points above and below the floor that snap to the same point.
    let found = find_path(&mut query, [0.5, 1.0, 0.5], [0.5, -1.0, 0.5], None, 8);
    assert_eq!(found.status, OK);
    assert_points(&found.points, &[p, p]);
}

// ---------------------------------------------------------------------------------
// navstar_mesh_create rejections (API.md: NULL pointers, index out of range, NaN/Inf,
// fewer than 3 vertices, repeated vertex, non-convex, edge shared by more than two
// polygons, zero polygons; bad option values)

/// A unit square (vertices 0..4) and one more vertex (4) at (2, 0, 0).
fn small_vertices() -> Vec<f32> {
    vec![
        0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 2.0, 0.0, 0.0,
    ]
}

#[test]
fn mesh_create_rejects_null_pointers() {
    let indices = [0u32, 1, 2, 3];
    let sizes = [4u32];
    let vertices = small_vertices();
    let mut out: *mut NavstarMesh = NonNull::dangling().as_ptr();
    // SAFETY: NULL vertices with a count > 0 must be rejected before any read.
    let status = unsafe {
        navstar_mesh_create(
            ptr::null(),
            4,
            indices.as_ptr(),
            sizes.as_ptr(),
            1,
            ptr::null(),
            &mut out,
        )
    };
    assert_error(
        status,
        NULL_ARGUMENT,
        &["navstar_mesh_create", "vertices is NULL"],
    );
    assert!(out.is_null(), "*out_mesh is not NULL after an error");

    out = NonNull::dangling().as_ptr();
    // SAFETY: NULL indices with one polygon of 4 must be rejected before any read.
    let status = unsafe {
        navstar_mesh_create(
            vertices.as_ptr(),
            5,
            ptr::null(),
            sizes.as_ptr(),
            1,
            ptr::null(),
            &mut out,
        )
    };
    assert_error(status, NULL_ARGUMENT, &["indices is NULL"]);
    assert!(out.is_null());

    // SAFETY: valid arrays; NULL out_mesh must be rejected.
    let status = unsafe {
        navstar_mesh_create(
            vertices.as_ptr(),
            5,
            indices.as_ptr(),
            sizes.as_ptr(),
            1,
            ptr::null(),
            ptr::null_mut(),
        )
    };
    assert_error(status, NULL_ARGUMENT, &["out_mesh is NULL"]);

    // NULL vertices with vertex_count 0 is allowed; then every index is out of range.
    out = NonNull::dangling().as_ptr();
    // SAFETY: nothing is read behind a NULL pointer with a zero count.
    let status = unsafe {
        navstar_mesh_create(
            ptr::null(),
            0,
            indices.as_ptr(),
            sizes.as_ptr(),
            1,
            ptr::null(),
            &mut out,
        )
    };
    assert_error(status, INVALID_MESH, &["polygon 0", "out of range"]);
    assert!(out.is_null());
}

#[test]
fn mesh_create_rejects_non_finite_vertices() {
    for (vertex, coordinate, value, text) in [
        (1usize, 1usize, f32::NAN, "NaN"),
        (2, 0, f32::INFINITY, "inf"),
        (3, 2, f32::NEG_INFINITY, "-inf"),
    ] {
        let mut input = MeshInput {
            vertices: small_vertices(),
            indices: vec![0, 1, 2, 3],
            sizes: Some(vec![4]),
        };
        input.vertices[3 * vertex + coordinate] = value;
        input.reject(None, INVALID_MESH, &[&format!("vertex {vertex}"), text]);
    }
    // An unused vertex is checked too.
    let mut input = MeshInput {
        vertices: small_vertices(),
        indices: vec![0, 1, 2],
        sizes: None,
    };
    input.vertices[3 * 4] = f32::NAN;
    input.reject(None, INVALID_MESH, &["vertex 4"]);
}

#[test]
fn mesh_create_rejects_index_out_of_range() {
    let input = MeshInput {
        vertices: small_vertices(),
        indices: vec![0, 1, 2, 0, 2, 3, 1, 4, 9],
        sizes: None,
    };
    input.reject(
        None,
        INVALID_MESH,
        &["polygon 2", "corner 2", "index 9", "out of range"],
    );
    let input = MeshInput {
        vertices: small_vertices(),
        indices: vec![0, 1, 2, 3, 5, 1, 4],
        sizes: Some(vec![4, 3]),
    };
    input.reject(None, INVALID_MESH, &["polygon 1", "corner 0", "index 5"]);
    let input = MeshInput {
        vertices: small_vertices(),
        indices: vec![0, 1, u32::MAX],
        sizes: None,
    };
    input.reject(None, INVALID_MESH, &["polygon 0", &u32::MAX.to_string()]);
}

#[test]
fn mesh_create_rejects_polygons_with_fewer_than_3_vertices() {
    let input = MeshInput {
        vertices: small_vertices(),
        indices: vec![0, 1, 2, 2, 3],
        sizes: Some(vec![3, 2]),
    };
    input.reject(None, INVALID_MESH, &["polygon 1", "2 vertices"]);
    let input = MeshInput {
        vertices: small_vertices(),
        indices: vec![0, 1, 2],
        sizes: Some(vec![3, 0]),
    };
    input.reject(None, INVALID_MESH, &["polygon 1", "0 vertices"]);
}

#[test]
fn mesh_create_rejects_repeated_vertices() {
    let input = MeshInput {
        vertices: small_vertices(),
        indices: vec![0, 1, 2, 1],
        sizes: Some(vec![4]),
    };
    input.reject(None, INVALID_MESH, &["polygon 0", "repeats vertex 1"]);
    // A repeat created by welding: vertex 4 moved onto vertex 2.
    let mut vertices = small_vertices();
    vertices[12..15].copy_from_slice(&[1.0, 0.0, 1.0]);
    let input = MeshInput {
        vertices,
        indices: vec![0, 1, 2, 3, 1, 4, 2],
        sizes: Some(vec![4, 3]),
    };
    input.reject(None, INVALID_MESH, &["polygon 1", "repeats vertex 2"]);
}

#[test]
fn mesh_create_rejects_non_convex_polygons() {
    // A dart (0,0) (2,1) (0,2) (1,1): the corner at vertex 3 turns the wrong way.
    let vertices = vec![0.0, 0.0, 0.0, 2.0, 0.0, 1.0, 0.0, 0.0, 2.0, 1.0, 0.0, 1.0];
    let input = MeshInput {
        vertices: vertices.clone(),
        indices: vec![0, 1, 2, 3],
        sizes: Some(vec![4]),
    };
    input.reject(None, INVALID_MESH, &["polygon 0", "not convex", "vertex 3"]);
    let input = MeshInput {
        vertices: vertices.clone(),
        indices: vec![3, 2, 1, 0],
        sizes: Some(vec![4]),
    };
    input.reject(None, INVALID_MESH, &["polygon 0", "not convex", "vertex 3"]);
    // In the U mesh: vertex 6 = (2, 1) pushed to (2.6, 0.3), inside the triangle
    // (2,0) (3,0) (3,1), makes polygon 2 reflex there (polygon 1 stays convex).
    let mut u = u_mesh(false, false, 0.0);
    u.vertices[3 * 6..3 * 6 + 3].copy_from_slice(&[2.6, 0.0, 0.3]);
    u.reject(None, INVALID_MESH, &["polygon 2", "not convex", "vertex 6"]);
    // A self-overlapping pentagram turns left at every corner but twice around.
    let star: Vec<f32> = (0..5)
        .flat_map(|k| {
            let a = std::f32::consts::TAU * (2 * k) as f32 / 5.0;
            [a.cos(), 0.0, a.sin()]
        })
        .collect();
    let input = MeshInput {
        vertices: star,
        indices: vec![0, 1, 2, 3, 4],
        sizes: Some(vec![5]),
    };
    input.reject(None, INVALID_MESH, &["polygon 0"]);
}

#[test]
fn mesh_create_rejects_degenerate_polygons() {
    // Three collinear vertices.
    let vertices = vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 2.0, 0.0, 0.0];
    let input = MeshInput {
        vertices,
        indices: vec![0, 1, 2],
        sizes: None,
    };
    input.reject(None, INVALID_MESH, &["polygon 0", "zero area"]);
}

#[test]
fn mesh_create_rejects_an_edge_shared_by_three_polygons() {
    // Triangles 0 and 1 share the diagonal 0-2 from both sides; triangle 2 uses it too.
    let input = MeshInput {
        vertices: small_vertices(),
        indices: vec![0, 1, 2, 0, 2, 3, 0, 2, 4],
        sizes: None,
    };
    input.reject(
        None,
        INVALID_MESH,
        &["edge (2, 0)", "more than two polygons", "(0, 1, 2)"],
    );
    // In the U mesh: a triangle 1-5-18 reuses the edge between polygons 0 and 1.
    let mut u = u_mesh(false, false, 0.0);
    u.indices.extend([1, 5, 18]);
    u.sizes.as_mut().unwrap().push(3);
    u.reject(
        None,
        INVALID_MESH,
        &["edge (5, 1)", "more than two polygons", "(0, 1, 8)"],
    );
}

#[test]
fn mesh_create_rejects_folded_edges() {
    // Two triangles on the same side of their shared edge 0-1.
    let vertices = vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 1.0];
    let input = MeshInput {
        vertices,
        indices: vec![0, 1, 2, 0, 1, 3],
        sizes: None,
    };
    input.reject(None, INVALID_MESH, &["polygons 0 and 1", "overlap"]);
}

#[test]
fn mesh_create_rejects_zero_polygons() {
    MeshInput {
        vertices: small_vertices(),
        indices: vec![],
        sizes: None,
    }
    .reject(None, INVALID_MESH, &["zero polygons"]);
    MeshInput {
        vertices: small_vertices(),
        indices: vec![],
        sizes: Some(vec![]),
    }
    .reject(None, INVALID_MESH, &["zero polygons"]);
    MeshInput {
        vertices: vec![],
        indices: vec![],
        sizes: None,
    }
    .reject(None, INVALID_MESH, &["zero polygons"]);
}

#[test]
fn mesh_create_rejects_counts_too_large() {
    let mut out: *mut NavstarMesh = NonNull::dangling().as_ptr();
    // SAFETY: rejected before anything is read: UINT32_MAX vertices are not supported,
    // and every pointer is NULL anyway.
    let status = unsafe {
        navstar_mesh_create(
            ptr::null(),
            u32::MAX,
            ptr::null(),
            ptr::null(),
            0,
            ptr::null(),
            &mut out,
        )
    };
    assert_error(status, INVALID_ARGUMENT, &["vertex_count"]);
    assert!(out.is_null());
    // Polygon sizes that need more than UINT32_MAX indices.
    let sizes = [u32::MAX, u32::MAX];
    out = NonNull::dangling().as_ptr();
    // SAFETY: polygon_sizes holds 2 entries; the index count is rejected before the
    // (NULL) vertices and indices would be read.
    let status = unsafe {
        navstar_mesh_create(
            ptr::null(),
            0,
            ptr::null(),
            sizes.as_ptr(),
            2,
            ptr::null(),
            &mut out,
        )
    };
    assert_error(status, INVALID_ARGUMENT, &["indices"]);
    assert!(out.is_null());
}

#[test]
fn mesh_create_rejects_bad_option_values() {
    let input = u_mesh(false, false, 0.0);
    let defaults = navstar_mesh_options_default();
    for up_axis in [2u32, 7, u32::MAX] {
        let options = NavstarMeshOptions {
            up_axis,
            ..defaults
        };
        input.reject(
            Some(&options),
            INVALID_ARGUMENT,
            &["up_axis", &format!("is {up_axis}")],
        );
    }
    for weld_distance in [-1.0, f32::NAN, f32::INFINITY] {
        let options = NavstarMeshOptions {
            weld_distance,
            ..defaults
        };
        input.reject(Some(&options), INVALID_ARGUMENT, &["weld_distance"]);
    }
    // Accepted values.
    for options in [
        defaults,
        NavstarMeshOptions {
            up_axis: NAVSTAR_UP_Y,
            ..defaults
        },
        NavstarMeshOptions {
            weld_vertices: 0,
            ..defaults
        },
        NavstarMeshOptions {
            weld_vertices: 2,
            weld_distance: 0.25,
            ..defaults
        },
    ] {
        input.build(Some(&options));
    }
}

/// An options struct followed by bytes a newer header could have added, so that any
/// `struct_size` up to its size is safe to pass.
#[repr(C)]
#[derive(Clone, Copy)]
struct Padded<T> {
    options: T,
    newer_fields: [u32; 256],
}

#[test]
fn mesh_options_struct_size() {
    let input = u_mesh(false, false, 0.0);
    let full = size_of::<NavstarMeshOptions>() as u32;
    // Sizes between published versions (16, then `full`) would cut a field.
    for struct_size in [0u32, 3, 4, 12, 17, 18, full - 1, full + 1, full + 4, 1000] {
        let padded = Padded {
            options: NavstarMeshOptions {
                struct_size,
                ..navstar_mesh_options_default()
            },
            newer_fields: [0; 256],
        };
        assert!(struct_size as usize <= size_of::<Padded<NavstarMeshOptions>>());
        let (status, _mesh) = input.create(Some(&padded.options));
        assert_error(
            status,
            INVALID_ARGUMENT,
            &["options->struct_size", &format!("is {struct_size}")],
        );
    }
    let options = NavstarMeshOptions {
        struct_size: full,
        up_axis: NAVSTAR_UP_Z,
        ..navstar_mesh_options_default()
    };
    let mesh = u_mesh(false, true, 0.0).build(Some(&options));
    check_u_cases(&mut new_query(&mesh), true, 0.0);
    // A caller built before `allow_degenerate_connectors` (16 bytes) gets its default.
    let old = NavstarMeshOptions {
        struct_size: 16,
        up_axis: NAVSTAR_UP_Z,
        allow_degenerate_connectors: 1,
        ..navstar_mesh_options_default()
    };
    let mesh = u_mesh(false, true, 0.0).build(Some(&old));
    check_u_cases(&mut new_query(&mesh), true, 0.0);
}

#[test]
fn path_options_struct_size() {
    let mesh = u_mesh(false, false, 0.0).build(None);
    let mut query = new_query(&mesh);
    let full = size_of::<NavstarPathOptions>() as u32;
    let (start, goal) = ([0.5, 0.0, 2.5], [2.5, 0.0, 2.5]);
    // 20 (v1) and 24 (with `mode`) are earlier versions; 28 would cut the filter
    // pointer in half on 64-bit targets.
    for struct_size in [0u32, 3, 16, 19, 22, 28, full - 4, full + 1, full + 4] {
        let padded = Padded {
            options: NavstarPathOptions {
                struct_size,
                ..navstar_path_options_default()
            },
            newer_fields: [0; 256],
        };
        let found = find_path(&mut query, start, goal, Some(&padded.options), 8);
        assert_error(
            found.status,
            INVALID_ARGUMENT,
            &["options->struct_size", &format!("is {struct_size}")],
        );
    }
    let options = NavstarPathOptions {
        struct_size: full,
        ..navstar_path_options_default()
    };
    assert_eq!(
        find_path(&mut query, start, goal, Some(&options), 8).count,
        4
    );
    // A caller built against the first version (20 bytes, no `mode`) gets the default
    // mode whatever follows its struct in memory.
    let old = NavstarPathOptions {
        struct_size: 20,
        mode: 77,
        ..navstar_path_options_default()
    };
    assert_eq!(find_path(&mut query, start, goal, Some(&old), 8).count, 4);
    // One built with `mode` but before the filter (24 bytes): the filter pointer after
    // it is not read.
    let mut excluding = navstar_query_filter_default();
    excluding.include_flags = 0;
    let with_mode = NavstarPathOptions {
        struct_size: 24,
        filter: &excluding,
        ..navstar_path_options_default()
    };
    assert_eq!(
        find_path(&mut query, start, goal, Some(&with_mode), 8).status,
        NavstarStatus::NavstarOk
    );
}

#[test]
fn path_options_mode() {
    let mesh = u_mesh(false, false, 0.0).build(None);
    let mut query = new_query(&mesh);
    let (start, goal) = ([0.5, 0.0, 2.5], [2.5, 0.0, 2.5]);
    let optimal = NavstarPathOptions {
        mode: NAVSTAR_PATH_OPTIMAL,
        ..navstar_path_options_default()
    };
    let found = find_path(&mut query, start, goal, Some(&optimal), 8);
    assert_eq!(found.status, NavstarStatus::NavstarOk);
    assert_eq!(found.count, 4);
    // The default (auto) runs the exact mode here (no area costs, no links): the same
    // path; the funnel mode is asked for by name.
    for mode in [NAVSTAR_PATH_AUTO, NAVSTAR_PATH_FUNNEL] {
        let asked = NavstarPathOptions {
            mode,
            ..navstar_path_options_default()
        };
        let found = find_path(&mut query, start, goal, Some(&asked), 8);
        assert_eq!(found.status, NavstarStatus::NavstarOk);
        assert_eq!(found.count, 4);
    }
    let bad = NavstarPathOptions {
        mode: 3,
        ..navstar_path_options_default()
    };
    let found = find_path(&mut query, start, goal, Some(&bad), 8);
    assert_error(found.status, INVALID_ARGUMENT, &["options->mode", "is 3"]);
}

// ---------------------------------------------------------------------------------
// navstar_query_create and navstar_find_path rejections

#[test]
fn query_create_rejects_null_pointers() {
    let mesh = u_mesh(false, false, 0.0).build(None);
    let mut out: *mut NavstarQuery = NonNull::dangling().as_ptr();
    // SAFETY: NULL mesh must be rejected; out is writable.
    let status = unsafe { navstar_query_create(ptr::null(), &mut out) };
    assert_error(
        status,
        NULL_ARGUMENT,
        &["navstar_query_create", "mesh is NULL"],
    );
    assert!(out.is_null(), "*out_query is not NULL after an error");
    // SAFETY: a live mesh; NULL out_query must be rejected.
    let status = unsafe { navstar_query_create(mesh.0, ptr::null_mut()) };
    assert_error(status, NULL_ARGUMENT, &["out_query is NULL"]);
}

#[test]
fn find_path_rejects_null_pointers() {
    let mesh = u_mesh(false, false, 0.0).build(None);
    let query = new_query(&mesh);
    let (start, goal) = ([0.5f32, 0.0, 2.5], [2.5f32, 0.0, 2.5]);
    let mut points = [0.0f32; 3 * 8];
    let mut count = 99u32;
    // One raw pointer each, made once, so that no later borrow invalidates them.
    let points: *mut f32 = points.as_mut_ptr();
    let count: *mut u32 = &mut count;
    type Call<'a> = (
        *mut NavstarQuery,
        *const f32,
        *const f32,
        *mut f32,
        u32,
        *mut u32,
        &'a str,
    );
    let calls: [Call; 6] = [
        (
            ptr::null_mut(),
            start.as_ptr(),
            goal.as_ptr(),
            points,
            8,
            count,
            "query is NULL",
        ),
        (
            query.0,
            ptr::null(),
            goal.as_ptr(),
            points,
            8,
            count,
            "start is NULL",
        ),
        (
            query.0,
            start.as_ptr(),
            ptr::null(),
            points,
            8,
            count,
            "goal is NULL",
        ),
        (
            query.0,
            start.as_ptr(),
            goal.as_ptr(),
            ptr::null_mut(),
            8,
            count,
            "out_points",
        ),
        (
            query.0,
            start.as_ptr(),
            goal.as_ptr(),
            ptr::null_mut(),
            u32::MAX,
            count,
            "out_points",
        ),
        (
            query.0,
            start.as_ptr(),
            goal.as_ptr(),
            points,
            8,
            ptr::null_mut(),
            "out_count is NULL",
        ),
    ];
    for (q, s, g, out, capacity, out_count, culprit) in calls {
        if !out_count.is_null() {
            // SAFETY: points to the local count, which is not borrowed otherwise.
            unsafe { *out_count = 99 };
        }
        // SAFETY: every non-NULL pointer is valid for the described size; each call has
        // exactly one required pointer NULL (or NULL out_points with capacity > 0), which
        // must be rejected before any access.
        let status = unsafe { navstar_find_path(q, s, g, ptr::null(), out, capacity, out_count) };
        assert_error(status, NULL_ARGUMENT, &["navstar_find_path", culprit]);
        if !out_count.is_null() {
            // SAFETY: as above.
            assert_eq!(unsafe { *out_count }, 0, "*out_count after {culprit}");
        }
    }
}

#[test]
fn find_path_rejects_non_finite_points() {
    let mesh = u_mesh(false, false, 0.0).build(None);
    let mut query = new_query(&mesh);
    let good = [0.5, 0.0, 0.5];
    for bad in [
        [f32::NAN, 0.0, 0.5],
        [0.5, f32::INFINITY, 0.5],
        [0.5, 0.0, f32::NEG_INFINITY],
    ] {
        let found = find_path(&mut query, bad, good, None, 8);
        assert_error(
            found.status,
            INVALID_ARGUMENT,
            &["start has a non-finite coordinate"],
        );
        let found = find_path(&mut query, good, bad, None, 8);
        assert_error(
            found.status,
            INVALID_ARGUMENT,
            &["goal has a non-finite coordinate"],
        );
    }
}

#[test]
fn find_path_rejects_bad_option_values() {
    let mesh = u_mesh(false, false, 0.0).build(None);
    let mut query = new_query(&mesh);
    let (start, goal) = ([0.5, 0.0, 2.5], [2.5, 0.0, 2.5]);
    let defaults = navstar_path_options_default();
    let cases = [
        (
            NavstarPathOptions {
                strategy: 9,
                ..defaults
            },
            "strategy is 9",
        ),
        (
            NavstarPathOptions {
                heuristic_weight: -1.0,
                ..defaults
            },
            "heuristic_weight",
        ),
        (
            NavstarPathOptions {
                heuristic_weight: f32::NAN,
                ..defaults
            },
            "heuristic_weight",
        ),
        (
            NavstarPathOptions {
                heuristic_weight: f32::INFINITY,
                ..defaults
            },
            "heuristic_weight",
        ),
        (
            NavstarPathOptions {
                max_snap_distance: -0.5,
                ..defaults
            },
            "max_snap_distance",
        ),
        (
            NavstarPathOptions {
                max_snap_distance: f32::NAN,
                ..defaults
            },
            "max_snap_distance",
        ),
    ];
    for (options, culprit) in cases {
        let found = find_path(&mut query, start, goal, Some(&options), 8);
        assert_error(found.status, INVALID_ARGUMENT, &[culprit]);
    }
    // Accepted edge values give the known answer.
    for options in [
        NavstarPathOptions {
            heuristic_weight: 0.0,
            ..defaults
        },
        NavstarPathOptions {
            heuristic_weight: 10.0,
            ..defaults
        },
        NavstarPathOptions {
            max_snap_distance: 0.0,
            ..defaults
        },
        NavstarPathOptions {
            allow_partial: 0,
            ..defaults
        },
    ] {
        let found = find_path(&mut query, start, goal, Some(&options), 8);
        assert_eq!(found.status, OK, "{options:?}: {}", last_error());
        assert_eq!(found.count, 4, "{options:?}");
    }
}

#[test]
fn find_path_not_on_mesh_beyond_the_snap_distance() {
    let mesh = u_mesh(false, false, 0.0).build(None);
    let mut query = new_query(&mesh);
    let options = NavstarPathOptions {
        max_snap_distance: 1.0,
        ..navstar_path_options_default()
    };
    let on = [0.5, 0.0, 0.5];
    let found = find_path(&mut query, [0.5, 2.0, 2.5], on, Some(&options), 8);
    assert_error(
        found.status,
        NOT_ON_MESH,
        &["start point", "2 units", "snap distance 1"],
    );
    let found = find_path(&mut query, on, [2.5, 0.0, 9.0], Some(&options), 8);
    assert_error(found.status, NOT_ON_MESH, &["goal point", "6 units"]);
    // Just inside the distance.
    let options = NavstarPathOptions {
        max_snap_distance: 2.0,
        ..options
    };
    let found = find_path(&mut query, [0.5, 2.0, 2.5], on, Some(&options), 8);
    assert_eq!(found.status, OK, "{}", last_error());
}

#[test]
fn find_path_no_path_when_partial_paths_are_not_allowed() {
    let mesh = u_mesh(false, false, 0.0).build(None);
    let mut query = new_query(&mesh);
    let options = NavstarPathOptions {
        allow_partial: 0,
        ..navstar_path_options_default()
    };
    let found = find_path(
        &mut query,
        [0.5, 0.0, 2.5],
        [5.5, 0.0, 0.5],
        Some(&options),
        8,
    );
    assert_error(found.status, NO_PATH, &["navstar_find_path", "unreachable"]);
    // Capacity 0 does not hide the error.
    let found = find_path(
        &mut query,
        [0.5, 0.0, 2.5],
        [5.5, 0.0, 0.5],
        Some(&options),
        0,
    );
    assert_error(found.status, NO_PATH, &["unreachable"]);
}

// ---------------------------------------------------------------------------------
// The error message

#[test]
fn message_is_empty_after_a_success_and_stable_until_the_next_call() {
    let input = u_mesh(false, false, 0.0);
    let bad = MeshInput {
        vertices: small_vertices(),
        indices: vec![0, 1, 9],
        sizes: None,
    };
    let (status, _none) = bad.create(None);
    assert_eq!(status, INVALID_MESH);
    let first = last_error();
    assert_eq!(
        last_error(),
        first,
        "reading the message must not change it"
    );
    // navstar_version and navstar_status_name do not touch it either.
    let _ = navstar_version();
    let _ = navstar_status_name(0);
    assert_eq!(last_error(), first);

    let mesh = input.build(None);
    assert_no_message("navstar_mesh_create");
    bad.create(None);
    let mut query = new_query(&mesh);
    assert_no_message("navstar_query_create");
    let options = NavstarPathOptions {
        strategy: 99,
        ..navstar_path_options_default()
    };
    find_path(
        &mut query,
        [0.5, 0.0, 0.5],
        [2.5, 0.0, 2.5],
        Some(&options),
        8,
    );
    assert!(!last_error().is_empty());
    find_path(&mut query, [0.5, 0.0, 0.5], [2.5, 0.0, 2.5], None, 8);
    assert_no_message("navstar_find_path");
    bad.create(None);
    find_path(&mut query, [0.5, 0.0, 0.5], [2.5, 0.0, 2.5], None, 0);
    assert_no_message("navstar_find_path giving BUFFER_TOO_SMALL");
}

#[test]
fn message_is_per_thread() {
    let bad = MeshInput {
        vertices: small_vertices(),
        indices: vec![0, 1, 9],
        sizes: None,
    };
    let (status, _none) = bad.create(None);
    assert_eq!(status, INVALID_MESH);
    let mine = last_error();
    std::thread::spawn(|| {
        assert_eq!(last_error(), "", "a new thread starts with no message");
        // SAFETY: every pointer is NULL and every count 0; NULL out_mesh is rejected.
        let status = unsafe {
            navstar_mesh_create(
                ptr::null(),
                0,
                ptr::null(),
                ptr::null(),
                0,
                ptr::null(),
                ptr::null_mut(),
            )
        };
        assert_error(status, NULL_ARGUMENT, &["out_mesh"]);
    })
    .join()
    .unwrap();
    assert_eq!(
        last_error(),
        mine,
        "another thread's error changed this thread's message"
    );
}

// ---------------------------------------------------------------------------------
// Lifetimes and threads

#[test]
fn mesh_freed_before_its_queries() {
    let mesh = u_mesh(false, false, 0.0).build(None);
    let mut first = new_query(&mesh);
    let mut second = new_query(&mesh);
    mesh.free();
    check_u_cases(&mut first, false, 0.0);
    drop(first);
    check_u_cases(&mut second, false, 0.0);
}

/// A larger mesh for the thread test: a 24 x 24 grid of unit quads with a deterministic
/// pattern of holes (which also makes several islands, so some paths are partial).
fn maze() -> MeshInput {
    const N: u32 = 24;
    let mut vertices = Vec::new();
    for z in 0..=N {
        for x in 0..=N {
            // A gentle slope, so that heights come from the mesh.
            vertices.extend([x as f32, 0.05 * z as f32, z as f32]);
        }
    }
    let v = |x: u32, z: u32| z * (N + 1) + x;
    let mut indices = Vec::new();
    for z in 0..N {
        for x in 0..N {
            let hole = (x % 4 == 2 && z % 6 != 0)
                || (z % 5 == 3 && x % 7 == 1)
                || (x == 12 && z > 3)
                // A wall around the corner x, z >= 20 makes it an island.
                || (x == 19 && z >= 19)
                || (z == 19 && x >= 19);
            if !hole {
                indices.extend([v(x, z), v(x + 1, z), v(x + 1, z + 1), v(x, z + 1)]);
            }
        }
    }
    let sizes = Some(vec![4; indices.len() / 4]);
    MeshInput {
        vertices,
        indices,
        sizes,
    }
}

/// Deterministic (start, goal) pairs over the maze's area.
fn requests(count: usize) -> Vec<([f32; 3], [f32; 3])> {
    let mut state = 0x2545_f491_u32;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        (state % 24_000) as f32 / 1000.0
    };
    (0..count)
        .map(|_| ([next(), 0.5, next()], [next(), 0.5, next()]))
        .collect()
}

#[test]
fn four_threads_share_one_mesh() {
    let mesh = maze().build(None);
    let work = requests(300);
    let mut single = new_query(&mesh);
    let expected: Vec<Found> = work
        .iter()
        .map(|&(s, g)| find_path(&mut single, s, g, None, 256))
        .collect();
    drop(single);
    assert!(
        expected.iter().any(|f| f.status == PARTIAL_PATH),
        "the maze should have several islands"
    );
    assert!(
        expected.iter().any(|f| f.count > 4),
        "some paths should turn several times"
    );
    assert!(
        expected
            .iter()
            .all(|f| f.status == OK || f.status == PARTIAL_PATH)
    );

    /// The mesh handle, shared by reference with the worker threads.
    struct Shared(*const NavstarMesh);
    // SAFETY: API.md: "a NavstarMesh may be shared by any number of threads". It is only
    // read (navstar_query_create) while the main thread keeps it alive.
    unsafe impl Sync for Shared {}
    let shared = Shared(mesh.0);
    let queries_made = Barrier::new(5);
    let mesh_freed = Barrier::new(5);
    let results: Vec<Vec<Found>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..4)
            .map(|t| {
                let (shared, work, queries_made, mesh_freed) =
                    (&shared, &work, &queries_made, &mesh_freed);
                scope.spawn(move || {
                    let mut out: *mut NavstarQuery = ptr::null_mut();
                    // SAFETY: the mesh is live until both barriers have been passed.
                    let status = unsafe { navstar_query_create(shared.0, &mut out) };
                    let mut query = Query(out);
                    queries_made.wait();
                    mesh_freed.wait();
                    assert_eq!(status, OK);
                    // Each thread walks the requests from a different offset, twice.
                    let mut found = vec![None; work.len()];
                    for round in 0..2 {
                        for k in 0..work.len() {
                            let i = (k + 75 * t + round) % work.len();
                            let (s, g) = work[i];
                            let f = find_path(&mut query, s, g, None, 256);
                            if let Some(previous) = &found[i] {
                                assert_eq!(
                                    previous, &f,
                                    "one thread, same request, different answers"
                                );
                            }
                            found[i] = Some(f);
                        }
                    }
                    found.into_iter().map(Option::unwrap).collect()
                })
            })
            .collect();
        queries_made.wait();
        // Every thread holds its query now: free the mesh while they work.
        mesh.free();
        mesh_freed.wait();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for (t, found) in results.iter().enumerate() {
        for (i, (got, want)) in found.iter().zip(&expected).enumerate() {
            assert_eq!(got, want, "thread {t}, request {i}: {:?}", work[i]);
        }
    }
}

#[test]
fn a_query_may_move_between_threads() {
    let mesh = u_mesh(false, false, 0.0).build(None);
    let mut query = new_query(&mesh);
    check_u_cases(&mut query, false, 0.0);
    let mut query = std::thread::spawn(move || {
        check_u_cases(&mut query, false, 0.0);
        query
    })
    .join()
    .unwrap();
    drop(mesh);
    check_u_cases(&mut query, false, 0.0);
}

// ---------------------------------------------------------------------------------
// Tile grids.

/// Calls navstar_mesh_create_from_grid and wraps the result.
fn grid_mesh(
    cells: &[u8],
    width: u32,
    height: u32,
    cell_size: f32,
    origin: Option<[f32; 3]>,
) -> (NavstarStatus, Mesh) {
    let mut out: *mut NavstarMesh = NonNull::dangling().as_ptr();
    let origin_ptr = origin.as_ref().map_or(ptr::null(), |o| o.as_ptr());
    // SAFETY: cells holds width * height bytes (asserted by the callers' literals),
    // origin is NULL or 3 floats, options NULL, out writable.
    let status = unsafe {
        navstar::ffi::navstar_mesh_create_from_grid(
            if cells.is_empty() {
                ptr::null()
            } else {
                cells.as_ptr()
            },
            width,
            height,
            cell_size,
            origin_ptr,
            ptr::null(),
            &mut out,
        )
    };
    if status != OK {
        assert!(out.is_null(), "*out_mesh is not NULL after {status:?}");
    }
    (status, Mesh(out))
}

#[test]
fn grid_mesh_paths_bend_around_walls() {
    // 3x3 cells, y rows from the first: a wall at the centre and at (1, 0) leaves a U.
    #[rustfmt::skip]
    let cells = [
        1, 0, 1,
        1, 0, 1,
        1, 1, 1,
    ];
    let (status, mesh) = grid_mesh(&cells, 3, 3, 2.0, Some([10.0, 5.0, 20.0]));
    assert_eq!(status, OK, "{}", last_error());
    let mut query = new_query(&mesh);
    // Cell size 2, origin (10, 5, 20), Y up: cell (x, y) covers x in 10 + 2[x, x+1],
    // z in 20 + 2[y, y+1]; from the centre of cell (0, 0) to the centre of cell (2, 0)
    // the path turns at the wall's corners (12, 24) and (14, 24).
    let found = find_path(&mut query, [11.0, 5.0, 21.0], [15.0, 5.0, 21.0], None, 8);
    assert_eq!(found.status, OK);
    assert_points(
        &found.points,
        &[
            [11.0, 5.0, 21.0],
            [12.0, 5.0, 24.0],
            [14.0, 5.0, 24.0],
            [15.0, 5.0, 21.0],
        ],
    );
}

#[test]
fn grid_mesh_rejects_bad_input() {
    let cells = [1u8; 4];
    let (status, _) = grid_mesh(&cells, 2, 2, 0.0, None);
    assert_error(status, INVALID_ARGUMENT, &["cell_size"]);
    let (status, _) = grid_mesh(&cells, 2, 2, 1.0, Some([f32::NAN, 0.0, 0.0]));
    assert_error(status, INVALID_ARGUMENT, &["origin"]);
    let (status, _) = grid_mesh(&[], 2, 2, 1.0, None);
    assert_error(status, NULL_ARGUMENT, &["cells"]);
    let (status, _) = grid_mesh(&[0u8; 4], 2, 2, 1.0, None);
    assert_error(status, INVALID_MESH, &["zero polygons"]);
}

#[test]
fn header_names_only_navstar_items() {
    // API.md: functions navstar_*, types Navstar*, constants NAVSTAR_*. Items of the
    // Rust API must not leak into the C header.
    let header =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/include/navstar.h")).unwrap();
    for line in header.lines() {
        if let Some(name) = line
            .strip_prefix("#define ")
            .map(|r| r.split_whitespace().next().unwrap_or(""))
        {
            assert!(
                name.starts_with("NAVSTAR_"),
                "unprefixed macro {name} in navstar.h"
            );
        }
        if let Some(rest) = line.strip_prefix("typedef struct ") {
            assert!(
                rest.starts_with("Navstar"),
                "unprefixed type in navstar.h: {line}"
            );
        }
    }
}

/// The T-junction of tests/paths/connectors.rs: an upper room over A-B, two lower rooms
/// under A-M and M-B, and the connector A, M, B (polygon 3).
fn t_junction() -> MeshInput {
    MeshInput {
        vertices: vec![
            0.0, 0.0, 1.0, 1.0, 0.0, 1.0, 2.0, 0.0, 1.0, 2.0, 0.0, 2.0, 0.0, 0.0, 2.0, 0.0, 0.0,
            0.0, 1.0, 0.0, 0.0, 2.0, 0.0, 0.0,
        ],
        indices: vec![0, 2, 3, 4, 5, 6, 1, 0, 6, 7, 2, 1, 0, 1, 2],
        sizes: Some(vec![4, 4, 4, 3]),
    }
}

#[test]
fn degenerate_connectors_through_the_c_abi() {
    let input = t_junction();
    input.reject(None, INVALID_MESH, &["polygon 3", "zero area"]);
    let allow = NavstarMeshOptions {
        allow_degenerate_connectors: 1,
        ..navstar_mesh_options_default()
    };
    let mesh = input.build(Some(&allow));
    let mut query = new_query(&mesh);
    let found = find_path(&mut query, [0.5, 0.0, 0.5], [1.8, 0.0, 1.5], None, 8);
    assert_eq!(found.status, OK);
    assert_eq!(found.count, 2);
    // A caller built before the option existed (16 bytes) cannot have asked for it.
    let old = NavstarMeshOptions {
        struct_size: 16,
        ..allow
    };
    input.reject(Some(&old), INVALID_MESH, &["polygon 3"]);
}
