//! Reading a mesh back through the C ABI: vertices, polygon sizes, corners, neighbours,
//! areas, flags, islands, bounds and one polygon's corner points, on a mesh built from
//! arrays; the too-small rule with sentinels; rejections. The helpers here also serve
//! `readback_world` (snapshots of worlds, random grids).

use std::ptr;

use navstar::NavMesh;
use navstar::ffi::{
    NAVSTAR_NO_POLYGON, NavstarMesh, NavstarMeshInput, NavstarStatus, navstar_mesh_bounds,
    navstar_mesh_create_ex, navstar_mesh_free, navstar_mesh_input_default,
    navstar_mesh_island_count, navstar_mesh_polygon_areas, navstar_mesh_polygon_corners,
    navstar_mesh_polygon_flags, navstar_mesh_polygon_ids, navstar_mesh_polygon_islands,
    navstar_mesh_polygon_neighbours, navstar_mesh_polygon_points, navstar_mesh_polygon_sizes,
    navstar_mesh_set_polygon_flags, navstar_mesh_vertex_count, navstar_mesh_vertices,
};

use crate::assert_status;

use NavstarStatus::{
    NavstarBufferTooSmall as TOO_SMALL, NavstarErrorInvalidArgument as INVALID,
    NavstarErrorNullArgument as NULL, NavstarOk as OK,
};

/// A read-back export over a buffer of `T`: (mesh, items, capacity, out_count).
type ReadFn<T> = unsafe extern "C" fn(*const NavstarMesh, *mut T, u32, *mut u32) -> NavstarStatus;

/// Calls `read` twice: for the count alone (NULL buffer, capacity 0), then with room
/// for every item plus a guard of sentinels, which must stay untouched. Returns the
/// items.
#[track_caller]
pub(crate) fn read_all<T: Copy + PartialEq + std::fmt::Debug>(
    read: ReadFn<T>,
    mesh: *const NavstarMesh,
    sentinel: T,
) -> Vec<T> {
    let mut count = u32::MAX;
    // SAFETY: a live mesh; NULL with capacity 0 asks for the count alone.
    let status = unsafe { read(mesh, ptr::null_mut(), 0, &mut count) };
    let want = if count == 0 { OK } else { TOO_SMALL };
    assert_status(status, want, &[]);
    let mut items = vec![sentinel; count as usize + 3];
    let mut again = u32::MAX;
    // SAFETY: `items` has room for `count` items (and the guard).
    let status = unsafe { read(mesh, items.as_mut_ptr(), count, &mut again) };
    assert_status(status, OK, &[]);
    assert_eq!(again, count);
    assert!(
        items[count as usize..].iter().all(|&x| x == sentinel),
        "written past capacity"
    );
    items.truncate(count as usize);
    items
}

/// Calls `read` with room for `capacity` items (fewer than there are): the prefix is
/// written, nothing after it, and the full count is reported.
#[track_caller]
fn check_too_small<T: Copy + PartialEq + std::fmt::Debug>(
    read: ReadFn<T>,
    mesh: *const NavstarMesh,
    sentinel: T,
    full: &[T],
    capacity: u32,
) {
    let mut items = vec![sentinel; full.len()];
    let mut count = 0u32;
    // SAFETY: `items` has room for at least `capacity` items.
    let status = unsafe { read(mesh, items.as_mut_ptr(), capacity, &mut count) };
    assert_status(status, TOO_SMALL, &[]);
    assert_eq!(count as usize, full.len());
    assert_eq!(&items[..capacity as usize], &full[..capacity as usize]);
    assert!(items[capacity as usize..].iter().all(|&x| x == sentinel));
}

/// Every read-back of a mesh, through the C ABI.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ReadBack {
    pub vertices: Vec<[f32; 3]>,
    pub sizes: Vec<u32>,
    pub corners: Vec<u32>,
    pub neighbours: Vec<u32>,
    pub areas: Vec<u8>,
    pub flags: Vec<u32>,
    pub islands: Vec<u32>,
    pub ids: Vec<u32>,
}

const NO_POINT: [f32; 3] = [-7.5; 3];

/// `navstar_mesh_vertices` with its xyz triples as `[f32; 3]` items.
///
/// # Safety
/// As `navstar_mesh_vertices`.
unsafe extern "C" fn vertex_points(
    mesh: *const NavstarMesh,
    out: *mut [f32; 3],
    capacity: u32,
    out_count: *mut u32,
) -> NavstarStatus {
    // SAFETY: `capacity` points are `3 * capacity` floats; the rest is the caller's.
    unsafe { navstar_mesh_vertices(mesh, out.cast(), capacity, out_count) }
}

pub(crate) fn read_back(mesh: *const NavstarMesh) -> ReadBack {
    ReadBack {
        vertices: read_all(vertex_points, mesh, NO_POINT),
        sizes: read_all(navstar_mesh_polygon_sizes, mesh, 0),
        corners: read_all(navstar_mesh_polygon_corners, mesh, u32::MAX - 1),
        neighbours: read_all(navstar_mesh_polygon_neighbours, mesh, u32::MAX - 1),
        areas: read_all(navstar_mesh_polygon_areas, mesh, 255),
        flags: read_all(navstar_mesh_polygon_flags, mesh, 0xdead_beef),
        islands: read_all(navstar_mesh_polygon_islands, mesh, u32::MAX),
        ids: read_all(navstar_mesh_polygon_ids, mesh, u32::MAX),
    }
}

/// The same arrays from the Rust accessors.
pub(crate) fn rust_read_back(mesh: &NavMesh) -> ReadBack {
    let ids: Vec<u32> = mesh.polygon_ids().collect();
    let slots = 1u32 << 16;
    ReadBack {
        vertices: (0..slots)
            .flat_map(|s| mesh.tile_vertices(s).iter().map(|v| v.to_array()))
            .collect(),
        sizes: ids
            .iter()
            .map(|&p| mesh.polygon_vertices(p).len() as u32)
            .collect(),
        corners: ids
            .iter()
            .flat_map(|&p| {
                mesh.polygon_vertices(p)
                    .iter()
                    .map(|&v| mesh.vertex_index(v))
            })
            .collect(),
        neighbours: ids
            .iter()
            .flat_map(|&p| {
                mesh.polygon_neighbours(p)
                    .map(|n| n.unwrap_or(NAVSTAR_NO_POLYGON))
            })
            .collect(),
        areas: ids.iter().map(|&p| mesh.polygon_area(p)).collect(),
        flags: ids.iter().map(|&p| mesh.polygon_flags(p)).collect(),
        islands: ids.iter().map(|&p| mesh.island(p)).collect(),
        ids,
    }
}

/// `navstar_mesh_polygon_points` of one polygon, asserting success.
pub(crate) fn polygon_points(mesh: *const NavstarMesh, polygon: u32) -> Vec<[f32; 3]> {
    let mut points = vec![NO_POINT; 16];
    let mut count = 0u32;
    // SAFETY: room for 16 points.
    let status = unsafe {
        navstar_mesh_polygon_points(mesh, polygon, points.as_mut_ptr().cast(), 16, &mut count)
    };
    assert_status(status, OK, &[]);
    points.truncate(count as usize);
    points
}

/// `navstar_mesh_bounds`, asserting success.
pub(crate) fn bounds(mesh: *const NavstarMesh) -> ([f32; 3], [f32; 3]) {
    let (mut min, mut max) = ([0.0f32; 3], [0.0f32; 3]);
    // SAFETY: 3 writable floats each.
    let status = unsafe { navstar_mesh_bounds(mesh, min.as_mut_ptr(), max.as_mut_ptr()) };
    assert_status(status, OK, &[]);
    (min, max)
}

/// Two unit squares side by side and a triangle apart from them (Y up), with areas 1,
/// 2, 3 and flags 1, 2, 4; vertex 7 is used by no polygon.
fn squares_and_triangle() -> *mut NavstarMesh {
    let vertices: [f32; 27] = [
        0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 2.0, 0.0, 0.0, //
        0.0, 0.0, 1.0, 1.0, 0.0, 1.0, 2.0, 0.0, 1.0, //
        5.0, 1.0, 5.0, 9.0, 9.0, 9.0, 6.0, 1.0, 5.0,
    ];
    let indices = [0u32, 3, 4, 1, 1, 4, 5, 2, 6, 8, 3];
    let sizes = [4u32, 4, 3];
    let areas = [1u8, 2, 3];
    let flags = [1u32, 2, 4];
    // The triangle shares vertex 3 with the first square but no edge: its own island.
    let mut input = navstar_mesh_input_default();
    input.vertices = vertices.as_ptr();
    input.vertex_count = 9;
    input.indices = indices.as_ptr();
    input.polygon_sizes = sizes.as_ptr();
    input.polygon_count = 3;
    input.areas = areas.as_ptr();
    input.flags = flags.as_ptr();
    create_ex(&input)
}

fn create_ex(input: &NavstarMeshInput) -> *mut NavstarMesh {
    let mut mesh = ptr::null_mut();
    // SAFETY: the input's arrays hold its counts; `mesh` is writable.
    let status = unsafe { navstar_mesh_create_ex(input, ptr::null(), &mut mesh) };
    assert_status(status, OK, &[]);
    mesh
}

#[test]
fn a_mesh_reads_back_as_it_was_built() {
    let mesh = squares_and_triangle();
    let got = read_back(mesh);
    // SAFETY: a live mesh.
    assert_eq!(unsafe { navstar_mesh_vertex_count(mesh) }, 9);
    assert_eq!(got.vertices.len(), 9);
    assert_eq!(
        got.vertices[7],
        [9.0, 9.0, 9.0],
        "an unused vertex is listed too"
    );
    assert_eq!(got.vertices[4], [1.0, 0.0, 1.0]);
    assert_eq!(got.sizes, [4, 4, 3]);
    assert_eq!(got.ids, [0, 1, 2]);
    assert_eq!(got.areas, [1, 2, 3]);
    assert_eq!(got.flags, [1, 2, 4]);
    // The corners of each polygon: the input's, in some rotation and either direction
    // (counter-clockwise from above, whatever the input's winding).
    let polygons = [&got.corners[0..4], &got.corners[4..8], &got.corners[8..11]];
    let inputs: [&[u32]; 3] = [&[0, 3, 4, 1], &[1, 4, 5, 2], &[6, 8, 3]];
    for (corners, input) in polygons.into_iter().zip(inputs) {
        let reversed: Vec<u32> = input.iter().rev().copied().collect();
        let rotation_of = |want: &[u32]| {
            (0..want.len()).any(|r| {
                corners
                    .iter()
                    .zip(want.iter().cycle().skip(r))
                    .all(|(a, b)| a == b)
            })
        };
        assert!(
            rotation_of(input) || rotation_of(&reversed),
            "{corners:?} is not {input:?}"
        );
    }
    // Neighbours: the edge between vertices 1 and 4 joins the squares; every other edge
    // is a wall (the triangle only touches vertex 3).
    let offsets = [0usize, 4, 8, 11];
    for polygon in 0..3 {
        let (start, end) = (offsets[polygon], offsets[polygon + 1]);
        for slot in start..end {
            let next = if slot + 1 == end { start } else { slot + 1 };
            let mut edge = [got.corners[slot], got.corners[next]];
            edge.sort();
            let want = match (polygon, edge) {
                (0, [1, 4]) => 1,
                (1, [1, 4]) => 0,
                _ => NAVSTAR_NO_POLYGON,
            };
            assert_eq!(
                got.neighbours[slot], want,
                "polygon {polygon}, edge {edge:?}"
            );
        }
    }
    assert_eq!(got.islands[0], got.islands[1]);
    assert_ne!(got.islands[0], got.islands[2]);
    // SAFETY: a live mesh.
    assert_eq!(unsafe { navstar_mesh_island_count(mesh) }, 2);
    assert_eq!(
        bounds(mesh),
        ([0.0, 0.0, 0.0], [6.0, 1.0, 5.0]),
        "vertex 7 is unused"
    );
    let triangle = polygon_points(mesh, 2);
    assert_eq!(triangle.len(), 3);
    for p in [[5.0, 1.0, 5.0], [6.0, 1.0, 5.0], [0.0, 0.0, 1.0]] {
        assert!(triangle.contains(&p), "{triangle:?} lacks {p:?}");
    }
    // Flags read back as they are now.
    // SAFETY: a live mesh.
    let status = unsafe { navstar_mesh_set_polygon_flags(mesh, 1, 0x80, ptr::null_mut()) };
    assert_status(status, OK, &[]);
    assert_eq!(
        read_all(navstar_mesh_polygon_flags, mesh, 0xdead_beef),
        [1, 0x80, 4]
    );
    // SAFETY: made above, freed once.
    unsafe { navstar_mesh_free(mesh) };
}

#[test]
fn too_small_buffers_get_the_prefix_and_the_full_count() {
    let mesh = squares_and_triangle();
    let got = read_back(mesh);
    check_too_small(navstar_mesh_polygon_sizes, mesh, 0, &got.sizes, 2);
    check_too_small(
        navstar_mesh_polygon_corners,
        mesh,
        u32::MAX - 1,
        &got.corners,
        5,
    );
    check_too_small(
        navstar_mesh_polygon_neighbours,
        mesh,
        u32::MAX - 1,
        &got.neighbours,
        1,
    );
    check_too_small(navstar_mesh_polygon_areas, mesh, 255, &got.areas, 1);
    check_too_small(navstar_mesh_polygon_flags, mesh, 0xdead_beef, &got.flags, 2);
    check_too_small(
        navstar_mesh_polygon_islands,
        mesh,
        u32::MAX,
        &got.islands,
        2,
    );
    let mut floats = [-7.5f32; 27];
    let mut count = 0;
    // SAFETY: room for 9 points; 4 asked.
    let status = unsafe { navstar_mesh_vertices(mesh, floats.as_mut_ptr(), 4, &mut count) };
    assert_status(status, TOO_SMALL, &[]);
    assert_eq!(count, 9);
    assert_eq!(
        floats[..12]
            .chunks(3)
            .map(|c| [c[0], c[1], c[2]])
            .collect::<Vec<_>>(),
        got.vertices[..4]
    );
    assert!(floats[12..].iter().all(|&f| f == -7.5));
    let mut points = [-7.5f32; 12];
    // SAFETY: room for 4 points; 2 asked.
    let status =
        unsafe { navstar_mesh_polygon_points(mesh, 0, points.as_mut_ptr(), 2, &mut count) };
    assert_status(status, TOO_SMALL, &[]);
    assert_eq!(count, 4);
    assert!(points[6..].iter().all(|&f| f == -7.5));
    // SAFETY: made above, freed once.
    unsafe { navstar_mesh_free(mesh) };
}

#[test]
fn rejections_name_the_argument() {
    let mesh = squares_and_triangle();
    let mut count = 7u32;
    let mut one = [0u32; 1];
    let reads: [(ReadFn<u32>, &str, &str); 6] = [
        (
            navstar_mesh_polygon_sizes,
            "navstar_mesh_polygon_sizes",
            "out_sizes",
        ),
        (
            navstar_mesh_polygon_corners,
            "navstar_mesh_polygon_corners",
            "out_corners",
        ),
        (
            navstar_mesh_polygon_neighbours,
            "navstar_mesh_polygon_neighbours",
            "out_neighbours",
        ),
        (
            navstar_mesh_polygon_flags,
            "navstar_mesh_polygon_flags",
            "out_flags",
        ),
        (
            navstar_mesh_polygon_islands,
            "navstar_mesh_polygon_islands",
            "out_islands",
        ),
        (
            navstar_mesh_polygon_ids,
            "navstar_mesh_polygon_ids",
            "out_ids",
        ),
    ];
    for (read, function, buffer) in reads {
        // SAFETY: every pointer is NULL or valid for what is passed.
        unsafe {
            assert_status(
                read(ptr::null(), one.as_mut_ptr(), 1, &mut count),
                NULL,
                &[function, "mesh is NULL"],
            );
            assert_eq!(count, 0, "out_count is 0 on error");
            assert_status(
                read(mesh, one.as_mut_ptr(), 1, ptr::null_mut()),
                NULL,
                &["out_count is NULL"],
            );
            assert_status(
                read(mesh, ptr::null_mut(), 1, &mut count),
                NULL,
                &[buffer, "capacity > 0"],
            );
        }
    }
    let mut areas = [0u8; 1];
    let mut floats = [0f32; 3];
    // SAFETY: as above.
    unsafe {
        assert_status(
            navstar_mesh_polygon_areas(ptr::null(), areas.as_mut_ptr(), 1, &mut count),
            NULL,
            &["mesh is NULL"],
        );
        assert_status(
            navstar_mesh_polygon_areas(mesh, ptr::null_mut(), 1, &mut count),
            NULL,
            &["out_areas"],
        );
        assert_status(
            navstar_mesh_vertices(ptr::null(), floats.as_mut_ptr(), 1, &mut count),
            NULL,
            &["mesh is NULL"],
        );
        assert_status(
            navstar_mesh_vertices(mesh, ptr::null_mut(), 1, &mut count),
            NULL,
            &["out_vertices"],
        );
        assert_status(
            navstar_mesh_polygon_points(mesh, 3, floats.as_mut_ptr(), 1, &mut count),
            INVALID,
            &["navstar_mesh_polygon_points", "polygon 3"],
        );
        assert_status(
            navstar_mesh_polygon_points(mesh, u32::MAX, floats.as_mut_ptr(), 1, &mut count),
            INVALID,
            &["polygon 4294967295"],
        );
        assert_status(
            navstar_mesh_polygon_points(ptr::null(), 0, floats.as_mut_ptr(), 1, &mut count),
            NULL,
            &["mesh is NULL"],
        );
        assert_status(
            navstar_mesh_polygon_points(mesh, 0, ptr::null_mut(), 1, &mut count),
            NULL,
            &["out_points"],
        );
        assert_status(
            navstar_mesh_bounds(ptr::null(), floats.as_mut_ptr(), floats.as_mut_ptr()),
            NULL,
            &["mesh is NULL"],
        );
        assert_status(
            navstar_mesh_bounds(mesh, ptr::null_mut(), floats.as_mut_ptr()),
            NULL,
            &["out_min is NULL"],
        );
        assert_status(
            navstar_mesh_bounds(mesh, floats.as_mut_ptr(), ptr::null_mut()),
            NULL,
            &["out_max is NULL"],
        );
        assert_eq!(navstar_mesh_island_count(ptr::null()), 0);
        navstar_mesh_free(mesh);
    }
}
