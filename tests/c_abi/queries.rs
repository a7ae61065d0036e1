//! The C ABI's queries beyond the plain path, called as a C program would: meshes with
//! areas, flags and off-mesh links, filters through `options->filter`, run-time flags,
//! path details, the nearest of several goals and the reachable polygons. Known answers
//! and every rejection with its status and message.

use std::ptr;

use navstar::ffi::*;

use crate::{assert_status, path_info};

/// Two unit squares at x 0..1 and 3..4 (z 0..1), Y up, and a third square at 1..2
/// (polygon 2) that touches the first: polygons 0 = [0,1], 1 = [3,4], 2 = [1,2].
const VERTICES: [f32; 30] = [
    0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 1.0, // square 0: 0..3
    3.0, 0.0, 0.0, 4.0, 0.0, 0.0, 4.0, 0.0, 1.0, 3.0, 0.0, 1.0, // square 1: 4..7
    2.0, 0.0, 0.0, 2.0, 0.0, 1.0, // square 2 adds 8, 9 (shares 1, 2)
];
const INDICES: [u32; 12] = [0, 1, 2, 3, 4, 5, 6, 7, 1, 8, 9, 2];
const SIZES: [u32; 3] = [4, 4, 4];

fn link(start: [f32; 3], end: [f32; 3]) -> NavstarOffMeshLink {
    NavstarOffMeshLink {
        start,
        end,
        ..navstar_off_mesh_link_default()
    }
}

/// Builds the mesh with the given areas and links; returns the status and the handle.
fn create(areas: Option<&[u8]>, links: &[NavstarOffMeshLink]) -> (NavstarStatus, *mut NavstarMesh) {
    let mut input = navstar_mesh_input_default();
    input.vertices = VERTICES.as_ptr();
    input.vertex_count = 10;
    input.indices = INDICES.as_ptr();
    input.polygon_sizes = SIZES.as_ptr();
    input.polygon_count = 3;
    input.areas = areas.map_or(ptr::null(), |a| a.as_ptr());
    input.links = if links.is_empty() {
        ptr::null()
    } else {
        links.as_ptr()
    };
    input.link_count = links.len() as u32;
    let mut mesh = ptr::null_mut();
    // SAFETY: every array holds the counts given.
    let status = unsafe { navstar_mesh_create_ex(&input, ptr::null(), &mut mesh) };
    (status, mesh)
}

struct Handles {
    mesh: *mut NavstarMesh,
    query: *mut NavstarQuery,
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

fn handles(links: &[NavstarOffMeshLink]) -> Handles {
    let (status, mesh) = create(Some(&[0, 0, 3]), links);
    assert_status(status, NavstarStatus::NavstarOk, &[]);
    let mut query = ptr::null_mut();
    // SAFETY: a live mesh and a writable out pointer.
    let status = unsafe { navstar_query_create(mesh, &mut query) };
    assert_eq!(status, NavstarStatus::NavstarOk);
    Handles { mesh, query }
}

fn path(
    h: &Handles,
    start: [f32; 3],
    goal: [f32; 3],
    options: Option<&NavstarPathOptions>,
) -> (NavstarStatus, Vec<[f32; 3]>) {
    let mut points = [0.0f32; 3 * 16];
    let mut count = 0;
    // SAFETY: live query; 16 points of room.
    let status = unsafe {
        navstar_find_path(
            h.query,
            start.as_ptr(),
            goal.as_ptr(),
            options.map_or(ptr::null(), |o| o as *const _),
            points.as_mut_ptr(),
            16,
            &mut count,
        )
    };
    let n = (count as usize).min(16);
    (
        status,
        points[..3 * n]
            .chunks(3)
            .map(|c| [c[0], c[1], c[2]])
            .collect(),
    )
}

fn details(h: &Handles) -> (NavstarStatus, Vec<NavstarCornerDetail>) {
    let mut out = [NavstarCornerDetail {
        flags: 0,
        area: 0,
        link: 0,
    }; 8];
    let mut count = 0;
    // SAFETY: live query; 8 entries of room.
    let status = unsafe { navstar_query_path_details(h.query, out.as_mut_ptr(), 8, &mut count) };
    (status, out[..(count as usize).min(8)].to_vec())
}

#[test]
fn a_path_through_a_link_reports_it() {
    let h = handles(&[link([0.9, 0.0, 0.5], [3.1, 0.0, 0.5])]);
    // SAFETY: live mesh.
    assert_eq!(unsafe { navstar_mesh_link_count(h.mesh) }, 1);
    let (status, points) = path(&h, [0.1, 0.0, 0.5], [3.9, 0.0, 0.5], None);
    assert_eq!(status, NavstarStatus::NavstarOk);
    assert_eq!(
        points,
        vec![
            [0.1, 0.0, 0.5],
            [0.9, 0.0, 0.5],
            [3.1, 0.0, 0.5],
            [3.9, 0.0, 0.5]
        ]
    );
    let (status, corners) = details(&h);
    assert_eq!(status, NavstarStatus::NavstarOk);
    let flags: Vec<u32> = corners.iter().map(|c| c.flags).collect();
    assert_eq!(
        flags,
        vec![
            NAVSTAR_CORNER_START,
            NAVSTAR_CORNER_LINK_START,
            NAVSTAR_CORNER_LINK_END,
            NAVSTAR_CORNER_END
        ]
    );
    assert_eq!(corners[1].link, 0);
    assert_eq!(corners[0].link, NAVSTAR_NO_LINK);
    let info = path_info(h.query);
    assert_eq!(info.point_count, 4);
    assert_eq!(info.polygon_count, 2);
    assert_eq!(info.status, NavstarStatus::NavstarOk);
    assert!((info.cost - 3.8).abs() < 1e-5 && (info.length - 3.8).abs() < 1e-5);
    let mut corridor = [0u32; 1];
    let mut count = 0;
    // SAFETY: one entry of room.
    let status =
        unsafe { navstar_query_path_corridor(h.query, corridor.as_mut_ptr(), 1, &mut count) };
    assert_eq!(status, NavstarStatus::NavstarBufferTooSmall);
    assert_eq!((corridor[0], count), (0, 2));
    // Disable the link: the far square is out of reach.
    let mut previous = 0;
    // SAFETY: live mesh.
    let status = unsafe { navstar_mesh_set_link_flags(h.mesh, 0, 0, &mut previous) };
    assert_eq!((status, previous), (NavstarStatus::NavstarOk, 1));
    let (status, _) = path(&h, [0.1, 0.0, 0.5], [3.9, 0.0, 0.5], None);
    assert_eq!(status, NavstarStatus::NavstarPartialPath);
    // SAFETY: live mesh.
    let status = unsafe { navstar_mesh_set_link_flags(h.mesh, 1, 0, ptr::null_mut()) };
    assert_status(
        status,
        NavstarStatus::NavstarErrorInvalidArgument,
        &["link 1 is out of range"],
    );
}

#[test]
fn flags_and_filters_change_the_way() {
    let h = handles(&[]);
    let options_with = |filter: &NavstarQueryFilter| NavstarPathOptions {
        filter,
        ..navstar_path_options_default()
    };
    // Closing polygon 2 cuts the strip: a partial path ends at its edge x = 1.
    let mut previous = 7;
    // SAFETY: live mesh.
    let status = unsafe { navstar_mesh_set_polygon_flags(h.mesh, 2, 0, &mut previous) };
    assert_eq!((status, previous), (NavstarStatus::NavstarOk, 1));
    let (mut flags, mut area) = (9, 9);
    // SAFETY: live mesh, writable outputs.
    let status = unsafe { navstar_mesh_polygon_info(h.mesh, 2, &mut flags, &mut area) };
    assert_eq!((status, flags, area), (NavstarStatus::NavstarOk, 0, 3));
    let (status, points) = path(&h, [0.5, 0.0, 0.5], [1.5, 0.0, 0.5], None);
    assert_eq!(status, NavstarStatus::NavstarPartialPath);
    // The goal snapped out of the closed polygon onto square 0's edge: not reached.
    assert_eq!(points, vec![[0.5, 0.0, 0.5], [1.0, 0.0, 0.5]]);
    // SAFETY: live mesh.
    unsafe { navstar_mesh_set_polygon_flags(h.mesh, 2, 1, ptr::null_mut()) };
    // Excluding flag 1 through a filter refuses everything.
    let filter = NavstarQueryFilter {
        exclude_flags: 1,
        ..navstar_query_filter_default()
    };
    let (status, _) = path(
        &h,
        [0.5, 0.0, 0.5],
        [1.5, 0.0, 0.5],
        Some(&options_with(&filter)),
    );
    assert_status(status, NavstarStatus::NavstarErrorNotOnMesh, &["start"]);
    // Area 3 at cost 4: the cost counts it, the way is the same (no alternative).
    let mut filter = navstar_query_filter_default();
    filter.area_costs[3] = 4.0;
    let (status, points) = path(
        &h,
        [0.5, 0.0, 0.5],
        [1.5, 0.0, 0.5],
        Some(&options_with(&filter)),
    );
    assert_eq!((status, points.len()), (NavstarStatus::NavstarOk, 2));
    let mut info = NavstarPathInfo {
        point_count: 0,
        polygon_count: 0,
        status: NavstarStatus::NavstarOk,
        length: 0.0,
        cost: 0.0,
    };
    // SAFETY: live query.
    unsafe { navstar_query_path_info(h.query, &mut info) };
    assert!(
        (info.cost - (0.5 + 4.0 * 0.5)).abs() < 1e-5,
        "{}",
        info.cost
    );
    // Bad costs are named.
    filter.area_costs[5] = f32::NAN;
    let (status, _) = path(
        &h,
        [0.5, 0.0, 0.5],
        [1.5, 0.0, 0.5],
        Some(&options_with(&filter)),
    );
    assert_status(
        status,
        NavstarStatus::NavstarErrorInvalidArgument,
        &["options->filter", "area 5"],
    );
    // After a failed call the query has no path to describe.
    let (status, _) = details(&h);
    assert_status(status, NavstarStatus::NavstarErrorNoPath, &["no path"]);
    let filter = NavstarQueryFilter {
        struct_size: 3,
        ..navstar_query_filter_default()
    };
    let (status, _) = path(
        &h,
        [0.5, 0.0, 0.5],
        [1.5, 0.0, 0.5],
        Some(&options_with(&filter)),
    );
    assert_status(
        status,
        NavstarStatus::NavstarErrorInvalidArgument,
        &["struct_size is 3"],
    );
    // SAFETY: live mesh.
    let status = unsafe { navstar_mesh_set_polygon_flags(h.mesh, 3, 0, ptr::null_mut()) };
    assert_status(
        status,
        NavstarStatus::NavstarErrorInvalidArgument,
        &["polygon 3 is out of range"],
    );
}

#[test]
fn every_strategy_is_accepted_and_finds_the_way() {
    let h = handles(&[]);
    for strategy in [
        NAVSTAR_SEARCH_ASTAR,
        NAVSTAR_SEARCH_DIJKSTRA,
        NAVSTAR_SEARCH_GREEDY,
        NAVSTAR_SEARCH_BREADTH_FIRST,
        NAVSTAR_SEARCH_DEPTH_FIRST,
    ] {
        let options = NavstarPathOptions {
            strategy,
            ..navstar_path_options_default()
        };
        let (status, points) = path(&h, [0.5, 0.0, 0.2], [1.5, 0.0, 0.8], Some(&options));
        assert_eq!(status, NavstarStatus::NavstarOk, "strategy {strategy}");
        assert_eq!(points, vec![[0.5, 0.0, 0.2], [1.5, 0.0, 0.8]]);
    }
}

#[test]
fn nearest_target_and_reachable_polygons() {
    let h = handles(&[]);
    let goals = [1.8f32, 0.0, 0.5, 0.1, 0.0, 0.5, 3.5, 0.0, 0.5];
    let start = [0.5f32, 0.0, 0.5];
    let mut points = [0.0f32; 3 * 4];
    let (mut count, mut goal) = (0, 99);
    // SAFETY: live query; arrays of the stated sizes.
    let status = unsafe {
        navstar_find_nearest_target(
            h.query,
            start.as_ptr(),
            goals.as_ptr(),
            3,
            ptr::null(),
            points.as_mut_ptr(),
            4,
            &mut count,
            &mut goal,
        )
    };
    assert_eq!((status, count, goal), (NavstarStatus::NavstarOk, 2, 1));
    assert_eq!(&points[..6], &[0.5, 0.0, 0.5, 0.1, 0.0, 0.5]);
    let bad = [f32::NAN, 0.0, 0.0];
    // SAFETY: as above.
    let status = unsafe {
        navstar_find_nearest_target(
            h.query,
            start.as_ptr(),
            bad.as_ptr(),
            1,
            ptr::null(),
            points.as_mut_ptr(),
            4,
            &mut count,
            &mut goal,
        )
    };
    assert_status(
        status,
        NavstarStatus::NavstarErrorInvalidArgument,
        &["goal 0"],
    );
    // SAFETY: as above; no goals at all.
    let status = unsafe {
        navstar_find_nearest_target(
            h.query,
            start.as_ptr(),
            ptr::null(),
            0,
            ptr::null(),
            points.as_mut_ptr(),
            4,
            &mut count,
            &mut goal,
        )
    };
    assert_status(status, NavstarStatus::NavstarErrorNoPath, &["unreachable"]);

    let mut reached = [NavstarReachedPolygon {
        polygon: 0,
        parent: 0,
        cost: 0.0,
    }; 4];
    // SAFETY: live query; 4 entries of room.
    let status = unsafe {
        navstar_query_reachable_polygons(
            h.query,
            start.as_ptr(),
            f32::INFINITY,
            ptr::null(),
            reached.as_mut_ptr(),
            4,
            &mut count,
        )
    };
    assert_eq!((status, count), (NavstarStatus::NavstarOk, 2));
    assert_eq!(
        (reached[0].polygon, reached[0].parent),
        (0, NAVSTAR_NO_POLYGON)
    );
    assert_eq!((reached[1].polygon, reached[1].parent), (2, 0));
    assert!((reached[1].cost - 0.5).abs() < 1e-6);
    // SAFETY: as above, one entry of room.
    let status = unsafe {
        navstar_query_reachable_polygons(
            h.query,
            start.as_ptr(),
            f32::INFINITY,
            ptr::null(),
            reached.as_mut_ptr(),
            1,
            &mut count,
        )
    };
    assert_eq!((status, count), (NavstarStatus::NavstarBufferTooSmall, 2));
    // SAFETY: as above.
    let status = unsafe {
        navstar_query_reachable_polygons(
            h.query,
            start.as_ptr(),
            -1.0,
            ptr::null(),
            reached.as_mut_ptr(),
            4,
            &mut count,
        )
    };
    assert_status(
        status,
        NavstarStatus::NavstarErrorInvalidArgument,
        &["max_cost is -1"],
    );
}

#[test]
fn bad_mesh_input_is_named() {
    let (status, mesh) = create(Some(&[0, 64, 0]), &[]);
    assert_status(
        status,
        NavstarStatus::NavstarErrorInvalidMesh,
        &["polygon 1 has area id 64"],
    );
    assert!(mesh.is_null());
    let (status, mesh) = create(None, &[link([0.5, 0.0, 0.5], [9.0, 0.0, 0.5])]);
    assert_status(
        status,
        NavstarStatus::NavstarErrorInvalidMesh,
        &["off-mesh link 0", "end point"],
    );
    assert!(mesh.is_null());
    let mut bad = link([0.5, 0.0, 0.5], [3.5, 0.0, 0.5]);
    bad.cost = -5.0;
    let (status, _) = create(None, &[bad]);
    assert_status(status, NavstarStatus::NavstarErrorInvalidMesh, &["cost"]);
    let mut out = ptr::null_mut();
    // SAFETY: NULL input is rejected by name.
    let status = unsafe { navstar_mesh_create_ex(ptr::null(), ptr::null(), &mut out) };
    assert_status(status, NavstarStatus::NavstarErrorNullArgument, &["input"]);
    let mut input = navstar_mesh_input_default();
    input.struct_size = 8;
    // SAFETY: the struct is readable; its size is rejected before any pointer is read.
    let status = unsafe { navstar_mesh_create_ex(&input, ptr::null(), &mut out) };
    assert_status(
        status,
        NavstarStatus::NavstarErrorInvalidArgument,
        &["struct_size is 8"],
    );
    let mut query = ptr::null_mut();
    let (_, mesh) = create(None, &[]);
    // SAFETY: live mesh.
    unsafe { navstar_query_create(mesh, &mut query) };
    let mut count = 0;
    // SAFETY: a fresh query has no path.
    let status = unsafe { navstar_query_path_details(query, ptr::null_mut(), 0, &mut count) };
    assert_status(status, NavstarStatus::NavstarErrorNoPath, &["no path"]);
    // SAFETY: created above, freed once.
    unsafe {
        navstar_query_free(query);
        navstar_mesh_free(mesh);
    }
}

#[test]
fn nearest_point_raycast_and_interpolation_through_c() {
    let h = handles(&[]);
    let (mut point, mut polygon, mut distance) = ([0.0f32; 3], 99u32, -1.0f32);
    let above = [1.5f32, 2.0, 0.5];
    // SAFETY: live mesh; 3 readable floats; writable outputs.
    let status = unsafe {
        navstar_mesh_nearest_point(
            h.mesh,
            above.as_ptr(),
            5.0,
            ptr::null(),
            point.as_mut_ptr(),
            &mut polygon,
            &mut distance,
        )
    };
    assert_eq!(status, NavstarStatus::NavstarOk);
    assert_eq!((point, polygon, distance), ([1.5, 0.0, 0.5], 2, 2.0));
    // SAFETY: as above; optional outputs may be NULL.
    let status = unsafe {
        navstar_mesh_nearest_point(
            h.mesh,
            above.as_ptr(),
            1.0,
            ptr::null(),
            ptr::null_mut(),
            ptr::null_mut(),
            ptr::null_mut(),
        )
    };
    assert_status(
        status,
        NavstarStatus::NavstarErrorNotOnMesh,
        &["within 1", "2 away"],
    );
    // SAFETY: as above.
    let status = unsafe {
        navstar_mesh_nearest_point(
            h.mesh,
            above.as_ptr(),
            f32::NAN,
            ptr::null(),
            ptr::null_mut(),
            ptr::null_mut(),
            ptr::null_mut(),
        )
    };
    assert_status(
        status,
        NavstarStatus::NavstarErrorInvalidArgument,
        &["max_distance is NaN"],
    );

    let mut hit = NavstarRaycastHit {
        hit: 9,
        t: -1.0,
        point: [0.0; 3],
        normal: [0.0; 3],
        polygon: 9,
    };
    let (from, to) = ([0.5f32, 0.0, 0.5], [2.5f32, 0.0, 0.5]);
    // SAFETY: live mesh; readable points; writable hit.
    let status =
        unsafe { navstar_mesh_raycast(h.mesh, from.as_ptr(), to.as_ptr(), ptr::null(), &mut hit) };
    assert_eq!(status, NavstarStatus::NavstarOk);
    // The strip is x in 0..2: the ray leaves through x = 2 at t = 0.75.
    assert_eq!((hit.hit, hit.polygon), (1, 2));
    assert!(
        (hit.t - 0.75).abs() < 1e-6
            && hit.point == [2.0, 0.0, 0.5]
            && hit.normal == [-1.0, 0.0, 0.0],
        "{hit:?}"
    );
    // SAFETY: NULL output is rejected by name.
    let status = unsafe {
        navstar_mesh_raycast(
            h.mesh,
            from.as_ptr(),
            to.as_ptr(),
            ptr::null(),
            ptr::null_mut(),
        )
    };
    assert_status(
        status,
        NavstarStatus::NavstarErrorNullArgument,
        &["out_hit"],
    );

    // Height-like data: value = x at every vertex, so any point gets its own x.
    let values: Vec<f32> = VERTICES.chunks(3).map(|v| v[0]).collect();
    let mut out = [0.0f32];
    let at = [1.25f32, 0.0, 0.75];
    // SAFETY: live mesh; 10 readable values; one writable output.
    let status = unsafe {
        navstar_mesh_interpolate(
            h.mesh,
            at.as_ptr(),
            values.as_ptr(),
            10,
            1,
            ptr::null(),
            out.as_mut_ptr(),
            &mut polygon,
        )
    };
    assert_eq!(status, NavstarStatus::NavstarOk);
    assert!(
        (out[0] - 1.25).abs() < 1e-5 && polygon == 2,
        "{out:?} {polygon}"
    );
    // SAFETY: as above; the count check comes before the values are read.
    let status = unsafe {
        navstar_mesh_interpolate(
            h.mesh,
            at.as_ptr(),
            values.as_ptr(),
            9,
            1,
            ptr::null(),
            out.as_mut_ptr(),
            ptr::null_mut(),
        )
    };
    assert_status(
        status,
        NavstarStatus::NavstarErrorInvalidArgument,
        &["value_count is 9", "10 vertices"],
    );
}

/// The vertex count that interpolation's values are numbered by: the input's vertices,
/// welded and unused ones included.
#[test]
fn vertex_count_through_the_c_abi_counts_input_vertices() {
    // Five input vertices: 0 and 4 are at one place (welded into one), and 3 is used by
    // no polygon. Interpolation still takes one value per input vertex.
    let points: [f32; 15] = [
        0.0, 0.0, 0.0, // 0
        1.0, 0.0, 0.0, // 1
        0.0, 0.0, 1.0, // 2
        9.0, 0.0, 9.0, // 3, unused
        0.0, 0.0, 0.0, // 4, welded into 0
    ];
    let indices: [u32; 3] = [4, 2, 1];
    let mut mesh: *mut NavstarMesh = std::ptr::null_mut();
    // SAFETY: 5 vertices of 3 floats, one triangle of 3 indices, NULL sizes and
    // options, a writable out pointer.
    let status = unsafe {
        navstar_mesh_create(
            points.as_ptr(),
            5,
            indices.as_ptr(),
            std::ptr::null(),
            1,
            std::ptr::null(),
            &mut mesh,
        )
    };
    assert_eq!(status, NavstarStatus::NavstarOk);
    // SAFETY: a live mesh, and NULL.
    let (count, of_null) = unsafe {
        (
            navstar_mesh_vertex_count(mesh),
            navstar_mesh_vertex_count(std::ptr::null()),
        )
    };
    assert_eq!(count, 5);
    assert_eq!(of_null, 0);
    let values: Vec<f32> = (0..count).map(|i| i as f32 * 10.0).collect();
    let mut out = [0.0f32];
    let point = [0.0f32, 0.0, 0.0];
    // SAFETY: a live mesh, 3 floats, `count` values for one channel, one writable float.
    let status = unsafe {
        navstar_mesh_interpolate(
            mesh,
            point.as_ptr(),
            values.as_ptr(),
            count,
            1,
            std::ptr::null(),
            out.as_mut_ptr(),
            std::ptr::null_mut(),
        )
    };
    assert_eq!(status, NavstarStatus::NavstarOk);
    // The welded corner carries the value of one of its two input vertices.
    assert!(out[0] == 0.0 || out[0] == 40.0, "{}", out[0]);
    // SAFETY: created above, freed once.
    unsafe { navstar_mesh_free(mesh) };
}
