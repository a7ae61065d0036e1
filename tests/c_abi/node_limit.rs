//! Queries with options (`navstar_query_create_ex`): the node limit and what a search
//! cut by it answers (`NAVSTAR_PARTIAL_NODE_LIMIT`), the query's scratch memory
//! (`navstar_query_scratch_bytes`), the nodes a search expanded
//! (`navstar_query_nodes_expanded`), and the options struct's contract (NULL, bad
//! `struct_size`, huge limits).

use std::ptr::{self, NonNull};

use navstar::ffi::*;

use crate::{assert_status, path_info};
use NavstarStatus::{
    NavstarBufferTooSmall as BUFFER_TOO_SMALL, NavstarErrorInvalidArgument as INVALID_ARGUMENT,
    NavstarErrorNoPath as NO_PATH, NavstarErrorNullArgument as NULL_ARGUMENT, NavstarOk as OK,
    NavstarPartialNodeLimit as PARTIAL_NODE_LIMIT,
};

/// A 9x9 serpentine of unit cells (Y up): rows 0, 2, 4, 6, 8 are open, joined by one
/// cell at alternating ends, so the way from row 0 to row 8 winds through every row
/// (no direct sight: a search is needed). The caller owns the mesh made.
pub(crate) fn create_serpentine() -> *mut NavstarMesh {
    const SIDE: u32 = 9;
    let mut cells = vec![0u8; (SIDE * SIDE) as usize];
    for y in 0..SIDE {
        for x in 0..SIDE {
            let open = y % 2 == 0 || x == if y % 4 == 1 { SIDE - 1 } else { 0 };
            cells[(y * SIDE + x) as usize] = u8::from(open);
        }
    }
    let mut mesh = ptr::null_mut();
    // SAFETY: `cells` holds width * height bytes; NULL origin and options are defaults;
    // `mesh` is writable.
    let status = unsafe {
        navstar_mesh_create_from_grid(
            cells.as_ptr(),
            SIDE,
            SIDE,
            1.0,
            ptr::null(),
            ptr::null(),
            &mut mesh,
        )
    };
    assert_status(status, OK, &[]);
    mesh
}

/// [`create_serpentine`], freed when dropped.
fn serpentine() -> Mesh {
    Mesh(create_serpentine())
}

/// From the first row's first cell to the last row's first cell.
const START: [f32; 3] = [0.5, 0.0, 0.5];
const GOAL: [f32; 3] = [0.5, 0.0, 8.5];

/// Owns a mesh handle.
struct Mesh(*mut NavstarMesh);

impl Drop for Mesh {
    fn drop(&mut self) {
        // SAFETY: a live mesh made by this test, freed once.
        unsafe { navstar_mesh_free(self.0) }
    }
}

/// Owns a query handle.
struct Query(*mut NavstarQuery);

impl Drop for Query {
    fn drop(&mut self) {
        // SAFETY: NULL or a live query made by this test, freed once, on this thread.
        unsafe { navstar_query_free(self.0) }
    }
}

/// Calls `navstar_query_create_ex`; `*out_query` starts dangling, so that the call is
/// seen to set it (NULL on error).
fn create_ex(
    mesh: *const NavstarMesh,
    options: Option<&NavstarQueryOptions>,
) -> (NavstarStatus, Query) {
    let mut out: *mut NavstarQuery = NonNull::dangling().as_ptr();
    // SAFETY: `mesh` NULL or live; `options` NULL or a full struct; `out` writable.
    let status = unsafe {
        navstar_query_create_ex(mesh, options.map_or(ptr::null(), ptr::from_ref), &mut out)
    };
    if status == OK {
        assert!(!out.is_null());
    } else {
        assert!(out.is_null(), "*out_query is not NULL after {status:?}");
    }
    (status, Query(out))
}

/// A query with a node limit (0: none).
fn limited(mesh: &Mesh, max_nodes: u32) -> Query {
    let options = NavstarQueryOptions {
        max_nodes,
        ..navstar_query_options_default()
    };
    let (status, query) = create_ex(mesh.0, Some(&options));
    assert_status(status, OK, &[]);
    query
}

/// `navstar_find_path` with room for `capacity` points: the status, the full count and
/// the points written.
fn find_path_into(
    query: &Query,
    options: Option<&NavstarPathOptions>,
    capacity: u32,
) -> (NavstarStatus, u32, Vec<[f32; 3]>) {
    let mut points = vec![[0.0f32; 3]; capacity as usize];
    let mut count = 0u32;
    // SAFETY: a live query used by this thread; 3 floats each for start and goal;
    // `options` NULL or a full struct; room for `capacity` points; `count` writable.
    let status = unsafe {
        navstar_find_path(
            query.0,
            START.as_ptr(),
            GOAL.as_ptr(),
            options.map_or(ptr::null(), ptr::from_ref),
            points.as_mut_ptr().cast(),
            capacity,
            &mut count,
        )
    };
    points.truncate(count as usize);
    (status, count, points)
}

/// `navstar_find_path` with room for 64 points: the status and the points.
fn find_path(
    query: &Query,
    options: Option<&NavstarPathOptions>,
) -> (NavstarStatus, Vec<[f32; 3]>) {
    let (status, _, points) = find_path_into(query, options, 64);
    (status, points)
}

fn scratch_bytes(query: &Query) -> u64 {
    // SAFETY: a live query used by this thread.
    unsafe { navstar_query_scratch_bytes(query.0) }
}

/// The distance from `point` to the mesh.
fn off_mesh(mesh: &Mesh, point: [f32; 3]) -> f32 {
    let mut distance = f32::NAN;
    // SAFETY: a live mesh; 3 floats; the optional outputs NULL but the distance.
    let status = unsafe {
        navstar_mesh_nearest_point(
            mesh.0,
            point.as_ptr(),
            f32::INFINITY,
            ptr::null(),
            ptr::null_mut(),
            ptr::null_mut(),
            &mut distance,
        )
    };
    assert_status(status, OK, &[]);
    distance
}

/// Asserts that the path starts at START and every segment lies on the mesh (sampled).
#[track_caller]
fn assert_walkable(mesh: &Mesh, points: &[[f32; 3]]) {
    assert!(points.len() >= 2, "{points:?}");
    assert_eq!(points[0], START);
    for pair in points.windows(2) {
        for i in 0..=32 {
            let t = i as f32 / 32.0;
            let p = [0, 1, 2].map(|k| pair[0][k] + t * (pair[1][k] - pair[0][k]));
            assert!(
                off_mesh(mesh, p) < 1e-4,
                "{p:?} of {points:?} is off the mesh"
            );
        }
    }
}

fn distance(a: [f32; 3], b: [f32; 3]) -> f32 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
}

#[test]
fn a_tiny_node_limit_gives_a_valid_partial_path() {
    let mesh = serpentine();
    let free = limited(&mesh, 0);
    let (status, full) = find_path(&free, None);
    assert_status(status, OK, &[]);
    assert_eq!(*full.last().unwrap(), GOAL);
    assert_walkable(&mesh, &full);

    let tiny = limited(&mesh, 3);
    let (status, partial) = find_path(&tiny, None);
    assert_status(status, PARTIAL_NODE_LIMIT, &[]);
    assert_walkable(&mesh, &partial);
    let end = *partial.last().unwrap();
    assert!(distance(end, GOAL) > 1.0, "a cut search reached {end:?}");
    let info = path_info(tiny.0);
    assert_eq!(info.status, PARTIAL_NODE_LIMIT);
    assert_eq!(info.point_count as usize, partial.len());

    // Partial paths off: the cut search is NO_PATH, and the path is forgotten.
    let no_partial = NavstarPathOptions {
        allow_partial: 0,
        ..navstar_path_options_default()
    };
    let (status, points) = find_path(&tiny, Some(&no_partial));
    assert_status(status, NO_PATH, &["navstar_find_path"]);
    assert!(points.is_empty());

    // Enough nodes: the whole path, as without a limit.
    let roomy = limited(&mesh, 10_000);
    let (status, points) = find_path(&roomy, None);
    assert_status(status, OK, &[]);
    assert_eq!(points, full);
}

#[test]
fn the_node_limit_status_gives_way_to_a_short_buffer() {
    let mesh = serpentine();
    let tiny = limited(&mesh, 3);
    let (_, partial) = find_path(&tiny, None);
    let (status, count, _) = find_path_into(&tiny, None, 1);
    assert_status(status, BUFFER_TOO_SMALL, &[]);
    assert_eq!(count as usize, partial.len());
    assert_eq!(path_info(tiny.0).status, PARTIAL_NODE_LIMIT);
}

#[test]
fn a_tiny_node_limit_cuts_the_reachable_polygons() {
    let mesh = serpentine();
    let reach = |query: &Query| {
        let mut out = [NavstarReachedPolygon {
            polygon: 0,
            parent: 0,
            cost: 0.0,
        }; 64];
        let mut count = 0u32;
        // SAFETY: a live query; 3 floats; room for 64 entries; `count` writable.
        let status = unsafe {
            navstar_query_reachable_polygons(
                query.0,
                START.as_ptr(),
                f32::INFINITY,
                ptr::null(),
                out.as_mut_ptr(),
                64,
                &mut count,
            )
        };
        (status, count)
    };
    let (status, all) = reach(&limited(&mesh, 0));
    assert_status(status, OK, &[]);
    // SAFETY: a live mesh.
    assert_eq!(all, unsafe { navstar_mesh_polygon_count(mesh.0) });
    let (status, some) = reach(&limited(&mesh, 3));
    assert_status(status, PARTIAL_NODE_LIMIT, &[]);
    assert!(some >= 1 && some < all, "{some} of {all}");
}

#[test]
fn scratch_memory_follows_the_searches_and_the_limit() {
    let mesh = serpentine();
    let free = limited(&mesh, 0);
    assert_eq!(
        scratch_bytes(&free),
        0,
        "a new query holds no search memory"
    );
    // The funnel mode's search (a node-limited exact search falls back to it, and then
    // both searches hold scratch).
    let funnel = NavstarPathOptions {
        mode: navstar::ffi::NAVSTAR_PATH_FUNNEL,
        ..navstar_path_options_default()
    };
    let _ = find_path_into(&free, Some(&funnel), 64);
    let grown = scratch_bytes(&free);
    assert!(grown > 0);
    let tiny = limited(&mesh, 3);
    let _ = find_path_into(&tiny, Some(&funnel), 64);
    let bounded = scratch_bytes(&tiny);
    assert!(bounded < grown, "limited {bounded} vs free {grown}");
    // SAFETY: NULL is accepted.
    assert_eq!(unsafe { navstar_query_scratch_bytes(ptr::null()) }, 0);
}

#[test]
fn nodes_expanded_counts_the_last_querys_search() {
    let mesh = serpentine();
    let expanded = |query: &Query| {
        // SAFETY: a live query used by this thread.
        unsafe { navstar_query_nodes_expanded(query.0) }
    };
    let free = limited(&mesh, 0);
    assert_eq!(expanded(&free), 0, "before the first query");
    let (status, _) = find_path(&free, None);
    assert_status(status, OK, &[]);
    let whole = expanded(&free);
    // The serpentine's corridor winds through every row: each is expanded at least once.
    assert!(whole >= 4, "{whole}");
    let tiny = limited(&mesh, 3);
    let (status, _) = find_path(&tiny, None);
    assert_status(status, PARTIAL_NODE_LIMIT, &[]);
    let cut = expanded(&tiny);
    assert!((1..whole).contains(&cut), "{cut} of {whole}");
    // The same search again expands as many; the count is the last query's, not a sum.
    let (status, _) = find_path(&free, None);
    assert_status(status, OK, &[]);
    assert_eq!(expanded(&free), whole);
    // SAFETY: NULL is accepted.
    assert_eq!(unsafe { navstar_query_nodes_expanded(ptr::null()) }, 0);
}

#[test]
fn query_options_contract() {
    let mesh = serpentine();
    let defaults = navstar_query_options_default();
    assert_eq!(
        defaults.struct_size as usize,
        size_of::<NavstarQueryOptions>()
    );
    assert_eq!(size_of::<NavstarQueryOptions>(), 8);
    assert_eq!(defaults.max_nodes, 0);

    // NULL options: the defaults (no limit).
    let (status, query) = create_ex(mesh.0, None);
    assert_status(status, OK, &[]);
    assert_eq!(find_path(&query, None).0, OK);

    // NULL handles.
    let (status, _) = create_ex(ptr::null(), None);
    assert_status(status, NULL_ARGUMENT, &["navstar_query_create_ex", "mesh"]);
    // SAFETY: a live mesh; NULL options; a NULL out_query is the error tested.
    let status = unsafe { navstar_query_create_ex(mesh.0, ptr::null(), ptr::null_mut()) };
    assert_status(status, NULL_ARGUMENT, &["out_query"]);

    // Sizes other than the published one.
    for size in [0u32, 4, 12, 16, 1 << 20] {
        let options = NavstarQueryOptions {
            struct_size: size,
            ..defaults
        };
        // A refused size is rejected after reading struct_size alone.
        let (status, _) = create_ex(mesh.0, Some(&options));
        assert_status(
            status,
            INVALID_ARGUMENT,
            &["options->struct_size", "navstar_query_options_default"],
        );
    }

    // A huge limit allocates nothing up front and answers as no limit.
    let huge = limited(&mesh, u32::MAX);
    assert_eq!(scratch_bytes(&huge), 0);
    let free = limited(&mesh, 0);
    assert_eq!(find_path(&huge, None), find_path(&free, None));
}
