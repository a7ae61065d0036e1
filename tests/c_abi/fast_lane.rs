//! The exact mode's fast lane through the C ABI: `navstar_mesh_prepare_fast_lane` builds
//! the index (and says whether the mesh has one), `navstar_query_set_fast_lane` turns it
//! on or off per query (other values and NULLs refused by name). On the Iron Harvest map
//! the exact paths with the lane on are the paths with it off (corners within 1e-5, or
//! where two ways are equally short, lengths within 1e-5) and have the scenario file's
//! lengths; a path the lane answers expands no search node, the same path searched does.
//! Preparing while other threads query the mesh gives them the same answers. A small
//! mesh gets an index only when prepared; a world's snapshot and a mesh with off-mesh
//! links get none.

use std::ffi::CString;
use std::fs::File;
use std::io::BufReader;
use std::ptr;

use navstar::ffi::*;
use navstar::io::parse_scenario;

use crate::assert_status;
use crate::world::{Mesh, add_ok, grid_tile, new_world, snapshot};

use NavstarStatus::{
    NavstarErrorInvalidArgument as INVALID_ARGUMENT, NavstarErrorNullArgument as NULL_ARGUMENT,
    NavstarOk as OK,
};

const MESH_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/mesh");

/// Room for this many path corners.
const ROOM: usize = 256;

/// Owns a query handle; frees it on drop.
struct Query(*mut NavstarQuery);

impl Query {
    fn new(mesh: &Mesh) -> Query {
        let mut query = ptr::null_mut();
        // SAFETY: a live mesh; `query` is writable.
        assert_status(unsafe { navstar_query_create(mesh.0, &mut query) }, OK, &[]);
        Query(query)
    }

    /// `navstar_query_set_fast_lane`, expected to succeed.
    fn set_fast_lane(&self, on: u32) {
        // SAFETY: a live query of this thread.
        assert_status(unsafe { navstar_query_set_fast_lane(self.0, on) }, OK, &[]);
    }

    /// The exact mode's path: status, corners and the search nodes it expanded.
    fn exact(&self, start: [f32; 3], goal: [f32; 3]) -> (NavstarStatus, Vec<[f32; 3]>, u64) {
        let options = NavstarPathOptions {
            mode: NAVSTAR_PATH_OPTIMAL,
            ..navstar_path_options_default()
        };
        let mut points = vec![0.0f32; 3 * ROOM];
        let mut count = 0u32;
        // SAFETY: a live query of this thread; 3-float points; room for ROOM points.
        let status = unsafe {
            navstar_find_path(
                self.0,
                start.as_ptr(),
                goal.as_ptr(),
                &options,
                points.as_mut_ptr(),
                ROOM as u32,
                &mut count,
            )
        };
        assert_status(status, OK, &[]);
        let corners = points[..3 * count as usize]
            .chunks_exact(3)
            .map(|c| [c[0], c[1], c[2]])
            .collect();
        // SAFETY: a live query of this thread.
        let expanded = unsafe { navstar_query_nodes_expanded(self.0) };
        (status, corners, expanded)
    }
}

impl Drop for Query {
    fn drop(&mut self) {
        // SAFETY: a live query, freed only here.
        unsafe { navstar_query_free(self.0) }
    }
}

/// `navstar_mesh_prepare_fast_lane` with an output: what it reported.
fn prepare(mesh: &Mesh) -> u32 {
    let mut has = 7u32;
    // SAFETY: a live mesh; `has` writable.
    let status = unsafe { navstar_mesh_prepare_fast_lane(mesh.0, &mut has) };
    assert_status(status, OK, &[]);
    has
}

fn length(corners: &[[f32; 3]]) -> f64 {
    corners
        .windows(2)
        .map(|w| {
            let d: Vec<f64> = (0..3).map(|k| f64::from(w[1][k] - w[0][k])).collect();
            d.iter().map(|x| x * x).sum::<f64>().sqrt()
        })
        .sum()
}

/// Whether the corners are the same, each coordinate within 1e-5.
fn same_corners(got: &[[f32; 3]], want: &[[f32; 3]]) -> bool {
    got.len() == want.len()
        && got
            .iter()
            .zip(want)
            .all(|(a, b)| (0..3).all(|k| (a[k] - b[k]).abs() <= 1e-5))
}

#[track_caller]
fn assert_same_corners(got: &[[f32; 3]], want: &[[f32; 3]], context: &str) {
    assert!(
        same_corners(got, want),
        "{context}: {got:?} against {want:?}"
    );
}

/// The Iron Harvest map (3860 polygons, Z up) through `navstar_mesh_load`.
fn load_iron_harvest() -> Mesh {
    let path = CString::new(format!("{MESH_DIR}/scene_mp_2p_01.mesh")).unwrap();
    let mut raw = ptr::null_mut();
    // SAFETY: a NUL-terminated path; `raw` is writable.
    let status =
        unsafe { navstar_mesh_load(path.as_ptr(), NAVSTAR_FORMAT_AUTO, ptr::null(), &mut raw) };
    assert_status(status, OK, &[]);
    let mesh = Mesh(raw);
    assert!(mesh.polygon_count() >= navstar::FAST_LANE_MIN_POLYGONS);
    mesh
}

#[test]
fn the_iron_harvest_map_answers_from_the_index_as_the_search_does() {
    let mesh = load_iron_harvest();

    // NULLs and bad values are refused by name, and nothing is written.
    let lane = Query::new(&mesh);
    let search = Query::new(&mesh);
    search.set_fast_lane(0);
    // SAFETY: NULL handles are refused; `has` is writable; the queries are live.
    unsafe {
        let mut has = 7u32;
        assert_status(
            navstar_mesh_prepare_fast_lane(ptr::null(), &mut has),
            NULL_ARGUMENT,
            &["mesh", "navstar_mesh_prepare_fast_lane"],
        );
        assert_eq!(has, 7, "written after an error");
        assert_status(
            navstar_query_set_fast_lane(ptr::null_mut(), 1),
            NULL_ARGUMENT,
            &["query", "navstar_query_set_fast_lane"],
        );
        for bad in [2, 255, u32::MAX] {
            assert_status(
                navstar_query_set_fast_lane(search.0, bad),
                INVALID_ARGUMENT,
                &["on", &bad.to_string()],
            );
        }
    }
    assert_eq!(prepare(&mesh), 1, "a plain mesh of one tile gets an index");
    // SAFETY: a live mesh; a NULL output is allowed.
    let status = unsafe { navstar_mesh_prepare_fast_lane(mesh.0, ptr::null_mut()) };
    assert_status(status, OK, &[]);

    let file = File::open(format!("{MESH_DIR}/scene_mp_2p_01.mesh.scen")).unwrap();
    let problems = parse_scenario(BufReader::new(file)).unwrap();
    assert_eq!(problems.len(), 2000);
    let (mut bent, mut answered, mut ties) = (0, 0, 0);
    for (i, problem) in problems.iter().enumerate().step_by(10) {
        let (s, g) = (
            problem.mesh_start().to_array(),
            problem.mesh_goal().to_array(),
        );
        let context = format!("problem {i}: {s:?} -> {g:?}");
        let (_, with, lane_expanded) = lane.exact(s, g);
        let (_, without, searched) = search.exact(s, g);
        // Where two ways are equally short (the map is point-symmetric), the corners
        // may differ: the lengths may not.
        let (l_with, l_without) = (length(&with), length(&without));
        if !same_corners(&with, &without) {
            ties += 1;
            assert!(
                (l_with - l_without).abs() <= 1e-5 * l_without.max(1.0),
                "{context}: {with:?} ({l_with}) against {without:?} ({l_without})"
            );
        }
        let reference = problem.optimal_length;
        assert!(
            (l_with - reference).abs() <= 1e-4 * reference.max(1.0),
            "{context}: length {l_with}, the file's {reference}"
        );
        if with.len() > 2 {
            // Not in sight: the search expands nodes (the invalid values above left
            // `search` off), the index answers without.
            bent += 1;
            assert!(searched > 0, "{context}: the lane answered with it off");
            answered += usize::from(lane_expanded == 0);
        }
    }
    eprintln!("{bent} of 200 paths bend, {answered} answered by the index, {ties} ties");
    assert!(bent >= 150, "{bent} paths bend");
    assert!(
        ties * 20 <= bent,
        "{ties} of {bent} paths have other corners"
    );
    assert!(
        answered * 10 >= bent * 9,
        "the index answered {answered} of {bent} bent paths"
    );

    // Turned back on, the other query answers from the index too.
    search.set_fast_lane(1);
    let (s, g) = (problems[1999].mesh_start(), problems[1999].mesh_goal());
    let (_, corners, expanded) = search.exact(s.to_array(), g.to_array());
    assert!(corners.len() > 2, "{corners:?}");
    assert_eq!(expanded, 0, "searched with the lane back on");
}

#[test]
fn preparing_while_other_threads_query_gives_them_the_same_answers() {
    let mesh = load_iron_harvest();
    let file = File::open(format!("{MESH_DIR}/scene_mp_2p_01.mesh.scen")).unwrap();
    let problems = parse_scenario(BufReader::new(file)).unwrap();
    let ends: Vec<([f32; 3], [f32; 3], f64)> = problems
        .iter()
        .step_by(40)
        .map(|p| {
            (
                p.mesh_start().to_array(),
                p.mesh_goal().to_array(),
                p.optimal_length,
            )
        })
        .collect();
    // Three threads query the shared mesh (their first exact path builds the index
    // lazily: 3860 polygons) while this one prepares it (whichever build starts first
    // is kept, the others wait for it); every answer has the file's length, and the
    // index answers afterwards.
    std::thread::scope(|scope| {
        for t in 0..3 {
            let (mesh, ends) = (&mesh, &ends);
            scope.spawn(move || {
                let query = Query::new(mesh);
                for (i, &(s, g, want)) in ends.iter().enumerate().skip(t) {
                    let (_, corners, _) = query.exact(s, g);
                    let got = length(&corners);
                    assert!(
                        (got - want).abs() <= 1e-4 * want.max(1.0),
                        "thread {t}, problem {}: {got} against {want}",
                        40 * i
                    );
                }
            });
        }
        assert_eq!(prepare(&mesh), 1);
    });
    let query = Query::new(&mesh);
    let (s, g, _) = ends[ends.len() - 1];
    let (_, corners, expanded) = query.exact(s, g);
    assert!(
        corners.len() > 2 && expanded == 0,
        "{corners:?}, {expanded} nodes"
    );
}

#[test]
fn a_small_mesh_uses_an_index_only_once_prepared() {
    // 8 x 8 unit cells with a wall across column 4 but for its top cell: paths from the
    // left half to the right half bend round (5, 7) and (4, 7)... the wall's end.
    let cells: Vec<u8> = (0..64)
        .map(|i| u8::from(!(i % 8 == 4 && i / 8 < 7)))
        .collect();
    let mesh = grid_tile(8, 8, &cells, 0.0, 0.0);
    assert!(mesh.polygon_count() < navstar::FAST_LANE_MIN_POLYGONS);
    let query = Query::new(&mesh);
    let (s, g) = ([1.5, 0.0, 0.5], [6.5, 0.0, 0.5]);
    let (_, searched, expanded) = query.exact(s, g);
    assert_eq!(searched, [s, [4.0, 0.0, 7.0], [5.0, 0.0, 7.0], g]);
    assert!(expanded > 0, "a small mesh builds no index by itself");

    assert_eq!(prepare(&mesh), 1);
    let (_, answered, expanded) = query.exact(s, g);
    assert_eq!(expanded, 0, "the prepared index answers");
    assert_same_corners(&answered, &searched, "prepared");
    query.set_fast_lane(0);
    let (_, off, expanded) = query.exact(s, g);
    assert!(expanded > 0, "the lane is off");
    assert_same_corners(&off, &searched, "off");
}

#[test]
fn a_snapshot_of_a_world_gets_an_index_and_meshes_with_links_none() {
    // A world of two tiles: its snapshot is a mesh of several tiles, whose index (for
    // that snapshot alone; `navstar_world_prepare_fast_lane` gives one to the world)
    // answers across the seam.
    let world = new_world();
    let tiles = [
        grid_tile(2, 2, &[1, 1, 1, 0], 0.0, 0.0),
        grid_tile(2, 2, &[1; 4], 2.0, 0.0),
    ];
    for tile in &tiles {
        add_ok(&world, tile);
    }
    let joined = snapshot(&world);
    assert_eq!(prepare(&joined), 1);

    // A tile with an off-mesh link across its two squares.
    let vertices: [f32; 18] = [
        0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 2.0, 0.0, 0.0, 2.0, 0.0, 1.0,
    ];
    let indices: [u32; 8] = [0, 1, 2, 3, 1, 4, 5, 2];
    let sizes = [4u32, 4];
    let link = NavstarOffMeshLink {
        start: [0.1, 0.0, 0.5],
        end: [1.9, 0.0, 0.5],
        ..navstar_off_mesh_link_default()
    };
    let mut input = navstar_mesh_input_default();
    input.vertices = vertices.as_ptr();
    input.vertex_count = 6;
    input.indices = indices.as_ptr();
    input.polygon_sizes = sizes.as_ptr();
    input.polygon_count = 2;
    input.links = &link;
    input.link_count = 1;
    let mut raw = ptr::null_mut();
    // SAFETY: every array holds the counts given; `raw` is writable.
    let status = unsafe { navstar_mesh_create_ex(&input, ptr::null(), &mut raw) };
    assert_status(status, OK, &[]);
    let linked = Mesh(raw);
    assert_eq!(prepare(&linked), 0);
    // Either way its queries answer, with the same path.
    let query = Query::new(&linked);
    let (s, g) = ([0.1, 0.0, 0.1], [1.9, 0.0, 0.9]);
    let (_, on, _) = query.exact(s, g);
    query.set_fast_lane(0);
    let (_, off, _) = query.exact(s, g);
    assert_eq!(on, [s, g]);
    assert_eq!(on, off);
}
