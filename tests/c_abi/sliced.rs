//! Time-sliced path searches through the C ABI (`navstar_query_begin_path`,
//! `_advance_path`, `_finish_path`, `_cancel_path`): the finished answer equals
//! `navstar_find_path`'s (points, status, info, details, corridor) for every slice size,
//! partial answers before the end, the output buffer rules, and every rejection with its
//! status and message.

use std::ptr;

use navstar::ffi::*;

use crate::{assert_status, path_info};
use NavstarStatus::{
    NavstarBufferTooSmall as BUFFER_TOO_SMALL, NavstarErrorInvalidArgument as INVALID_ARGUMENT,
    NavstarErrorNoPath as NO_PATH, NavstarErrorNullArgument as NULL_ARGUMENT, NavstarOk as OK,
    NavstarPartialPath as PARTIAL_PATH,
};

/// A 9x9 serpentine of unit cells (Y up): rows 0, 2, 4, 6, 8 open, joined by one cell
/// at alternating ends, so that the way from row 0 to row 8 winds through every row.
struct Handles {
    mesh: *mut NavstarMesh,
    query: *mut NavstarQuery,
}

impl Drop for Handles {
    fn drop(&mut self) {
        // SAFETY: made by this test, freed once, on this thread.
        unsafe {
            navstar_query_free(self.query);
            navstar_mesh_free(self.mesh);
        }
    }
}

fn serpentine() -> Handles {
    let mesh = crate::node_limit::create_serpentine();
    let mut query = ptr::null_mut();
    // SAFETY: a live mesh and a writable out pointer.
    let status = unsafe { navstar_query_create(mesh, &mut query) };
    assert_status(status, OK, &[]);
    Handles { mesh, query }
}

const START: [f32; 3] = [0.5, 0.0, 0.5];
const GOAL: [f32; 3] = [0.5, 0.0, 8.5];

/// What a path call left: its status, points, info, details and corridor.
#[derive(Debug, PartialEq)]
struct Answer {
    status: NavstarStatus,
    points: Vec<[f32; 3]>,
    info: Option<NavstarPathInfo>,
    details: Vec<NavstarCornerDetail>,
    corridor: Vec<u32>,
}

/// The read-back of the last path after a call that returned `status` with `points`.
fn answer(query: *mut NavstarQuery, status: NavstarStatus, points: Vec<[f32; 3]>) -> Answer {
    if !matches!(status, OK | PARTIAL_PATH | BUFFER_TOO_SMALL) {
        return Answer {
            status,
            points,
            info: None,
            details: Vec::new(),
            corridor: Vec::new(),
        };
    }
    let info = path_info(query);
    let mut details = vec![
        NavstarCornerDetail {
            flags: 0,
            area: 0,
            link: 0
        };
        info.point_count as usize
    ];
    let mut corridor = vec![0u32; info.polygon_count as usize];
    let mut count = 0;
    // SAFETY: room for the counts the info gave; `count` writable.
    unsafe {
        assert_status(
            navstar_query_path_details(query, details.as_mut_ptr(), info.point_count, &mut count),
            OK,
            &[],
        );
        assert_status(
            navstar_query_path_corridor(
                query,
                corridor.as_mut_ptr(),
                info.polygon_count,
                &mut count,
            ),
            OK,
            &[],
        );
    }
    Answer {
        status,
        points,
        info: Some(info),
        details,
        corridor,
    }
}

fn find_path(query: *mut NavstarQuery, options: &NavstarPathOptions) -> Answer {
    let mut points = vec![[0.0f32; 3]; 64];
    let mut count = 0;
    // SAFETY: 3 floats each for start and goal; a full options struct; room for 64 points.
    let status = unsafe {
        navstar_find_path(
            query,
            START.as_ptr(),
            GOAL.as_ptr(),
            options,
            points.as_mut_ptr().cast(),
            64,
            &mut count,
        )
    };
    points.truncate(count as usize);
    answer(query, status, points)
}

fn begin(query: *mut NavstarQuery, options: &NavstarPathOptions) -> u32 {
    let mut state = u32::MAX;
    // SAFETY: 3 floats each; a full options struct; `state` writable.
    let status = unsafe {
        navstar_query_begin_path(query, START.as_ptr(), GOAL.as_ptr(), options, &mut state)
    };
    assert_status(status, OK, &[]);
    state
}

fn advance(query: *mut NavstarQuery, max_expansions: u32) -> (NavstarStatus, NavstarSliceProgress) {
    let mut progress = NavstarSliceProgress {
        state: u32::MAX,
        expansions: u32::MAX,
        flags_changed: u32::MAX,
    };
    // SAFETY: `progress` writable.
    let status = unsafe { navstar_query_advance_path(query, max_expansions, &mut progress) };
    (status, progress)
}

fn finish(query: *mut NavstarQuery, capacity: u32) -> (NavstarStatus, u32, Vec<[f32; 3]>) {
    let mut points = vec![[0.0f32; 3]; capacity as usize];
    let mut count = u32::MAX;
    // SAFETY: room for `capacity` points; `count` writable.
    let status = unsafe {
        navstar_query_finish_path(query, points.as_mut_ptr().cast(), capacity, &mut count)
    };
    points.truncate(count.min(capacity) as usize);
    (status, count, points)
}

/// The sliced answer: begin, advance by `slice` until done, finish.
fn sliced(query: *mut NavstarQuery, options: &NavstarPathOptions, slice: u32) -> (Answer, u32) {
    let begun = begin(query, options);
    let mut total = 0;
    loop {
        let (status, progress) = advance(query, slice);
        assert_status(status, OK, &[]);
        assert!(progress.expansions <= slice);
        assert_eq!(progress.flags_changed, 0);
        total += progress.expansions;
        if progress.state == NAVSTAR_SLICE_DONE {
            break;
        }
        assert_eq!(
            (begun, progress.state),
            (NAVSTAR_SLICE_IN_PROGRESS, NAVSTAR_SLICE_IN_PROGRESS)
        );
    }
    let (status, _, points) = finish(query, 64);
    (answer(query, status, points), total)
}

#[test]
fn sliced_answers_equal_the_one_shot_answers() {
    let h = serpentine();
    let mut exact = navstar_path_options_default();
    exact.mode = NAVSTAR_PATH_OPTIMAL;
    let mut dijkstra = navstar_path_options_default();
    dijkstra.strategy = NAVSTAR_SEARCH_DIJKSTRA;
    for options in [navstar_path_options_default(), exact, dijkstra] {
        let expected = find_path(h.query, &options);
        assert_eq!(expected.status, OK);
        assert!(expected.points.len() > 4, "the way winds");
        for slice in [1, 2, 3, 7, 50, u32::MAX] {
            let (got, total) = sliced(h.query, &options, slice);
            assert_eq!(got, expected, "slice {slice}");
            if options.mode != NAVSTAR_PATH_OPTIMAL {
                assert!(total > 4, "a search through every row: {total} expansions");
            }
        }
    }
}

#[test]
fn finishing_early_gives_a_partial_path_and_short_buffers_keep_the_rules() {
    let h = serpentine();
    // The funnel mode (the default runs the exact mode here, which has its own test).
    let options = NavstarPathOptions {
        mode: navstar::ffi::NAVSTAR_PATH_FUNNEL,
        ..navstar_path_options_default()
    };
    let whole = find_path(h.query, &options);
    // Two expansions: the path ends short of the goal.
    assert_eq!(begin(h.query, &options), NAVSTAR_SLICE_IN_PROGRESS);
    let (status, progress) = advance(h.query, 2);
    assert_status(status, OK, &[]);
    assert_eq!(
        (progress.state, progress.expansions),
        (NAVSTAR_SLICE_IN_PROGRESS, 2)
    );
    let (status, count, points) = finish(h.query, 64);
    assert_eq!(status, PARTIAL_PATH);
    assert_eq!(points[0], START);
    assert_eq!(count as usize, points.len());
    assert!(points.last() != whole.points.last());
    assert_eq!(path_info(h.query).status, PARTIAL_PATH);
    // A short buffer: the prefix, the full count, and the read-back of the whole path.
    begin(h.query, &options);
    while advance(h.query, 5).1.state == NAVSTAR_SLICE_IN_PROGRESS {}
    let (status, count, points) = finish(h.query, 2);
    assert_eq!(status, BUFFER_TOO_SMALL);
    assert_eq!(count as usize, whole.points.len());
    assert_eq!(points, whole.points[..2]);
    let info = path_info(h.query);
    assert_eq!(
        (info.point_count as usize, info.status),
        (whole.points.len(), OK)
    );
    // The count alone.
    begin(h.query, &options);
    advance(h.query, 1000);
    let (status, count, _) = finish(h.query, 0);
    assert_eq!(
        (status, count as usize),
        (BUFFER_TOO_SMALL, whole.points.len())
    );
}

#[test]
fn every_rejection_is_named() {
    let h = serpentine();
    let options = navstar_path_options_default();
    let mut state = 0u32;
    let mut progress = NavstarSliceProgress {
        state: 0,
        expansions: 0,
        flags_changed: 0,
    };
    // SAFETY: every pointer NULL or valid for what it names.
    unsafe {
        let status = navstar_query_begin_path(
            ptr::null_mut(),
            START.as_ptr(),
            GOAL.as_ptr(),
            &options,
            &mut state,
        );
        assert_status(status, NULL_ARGUMENT, &["query"]);
        let status = navstar_query_begin_path(
            h.query,
            START.as_ptr(),
            GOAL.as_ptr(),
            &options,
            ptr::null_mut(),
        );
        assert_status(status, NULL_ARGUMENT, &["out_state"]);
        let status =
            navstar_query_begin_path(h.query, ptr::null(), GOAL.as_ptr(), &options, &mut state);
        assert_status(status, NULL_ARGUMENT, &["start"]);
        let status =
            navstar_query_begin_path(h.query, START.as_ptr(), ptr::null(), &options, &mut state);
        assert_status(status, NULL_ARGUMENT, &["goal"]);
        let nan = [f32::NAN, 0.0, 0.0];
        let status =
            navstar_query_begin_path(h.query, START.as_ptr(), nan.as_ptr(), &options, &mut state);
        assert_status(status, INVALID_ARGUMENT, &["goal", "non-finite"]);
        let mut bad = options;
        bad.heuristic_weight = f32::NAN;
        let status =
            navstar_query_begin_path(h.query, START.as_ptr(), GOAL.as_ptr(), &bad, &mut state);
        assert_status(status, INVALID_ARGUMENT, &["heuristic_weight"]);
        let status = navstar_query_advance_path(ptr::null_mut(), 5, &mut progress);
        assert_status(status, NULL_ARGUMENT, &["query"]);
        let status = navstar_query_advance_path(h.query, 5, ptr::null_mut());
        assert_status(status, NULL_ARGUMENT, &["out_progress"]);
        let status = navstar_query_advance_path(h.query, 0, &mut progress);
        assert_status(status, INVALID_ARGUMENT, &["max_expansions"]);
        // Nothing begun.
        let status = navstar_query_advance_path(h.query, 5, &mut progress);
        assert_status(
            status,
            INVALID_ARGUMENT,
            &["no sliced path search", "begin_path"],
        );
        let (status, count, _) = finish(h.query, 8);
        assert_status(status, INVALID_ARGUMENT, &["begin_path"]);
        assert_eq!(count, 0);
        let mut info = NavstarPathInfo {
            point_count: 0,
            polygon_count: 0,
            status: OK,
            length: 0.0,
            cost: 0.0,
        };
        assert_status(navstar_query_path_info(h.query, &mut info), NO_PATH, &[]);
        let mut points = [[0.0f32; 3]; 4];
        let status =
            navstar_query_finish_path(h.query, points.as_mut_ptr().cast(), 4, ptr::null_mut());
        assert_status(status, NULL_ARGUMENT, &["out_count"]);
        let mut count = 0;
        let status = navstar_query_finish_path(h.query, ptr::null_mut(), 4, &mut count);
        assert_status(status, NULL_ARGUMENT, &["out_points"]);
        assert_status(
            navstar_query_cancel_path(ptr::null_mut(), ptr::null_mut()),
            NULL_ARGUMENT,
            &["query"],
        );
    }
    // Interrupted by another search.
    begin(h.query, &options);
    advance(h.query, 1);
    find_path(h.query, &options);
    let (status, _) = advance(h.query, 1);
    assert_status(status, INVALID_ARGUMENT, &["interrupted"]);
    // Cancelled.
    begin(h.query, &options);
    let mut cancelled = 7u32;
    // SAFETY: a live query; `cancelled` writable.
    assert_status(
        unsafe { navstar_query_cancel_path(h.query, &mut cancelled) },
        OK,
        &[],
    );
    assert_eq!(cancelled, 1);
    // SAFETY: as above.
    assert_status(
        unsafe { navstar_query_cancel_path(h.query, &mut cancelled) },
        OK,
        &[],
    );
    assert_eq!(cancelled, 0);
    let (status, _) = advance(h.query, 1);
    assert_status(status, INVALID_ARGUMENT, &["begin_path"]);
    // Done is harmless.
    begin(h.query, &options);
    while advance(h.query, 4).1.state == NAVSTAR_SLICE_IN_PROGRESS {}
    let (status, progress) = advance(h.query, 4);
    assert_status(status, OK, &[]);
    assert_eq!(
        (progress.state, progress.expansions),
        (NAVSTAR_SLICE_DONE, 0)
    );
    assert_eq!(finish(h.query, 64).0, OK);
}

#[test]
fn an_unreachable_goal_without_partial_paths_fails_at_the_end() {
    let h = serpentine();
    let mut options = navstar_path_options_default();
    options.allow_partial = 0;
    let expected = find_path(h.query, &options);
    assert_eq!(expected.status, OK);
    // Close the cell joining rows 2 and 4 (polygon flags 0): the only way.
    let mut polygon = u32::MAX;
    let at = [0.5f32, 0.0, 3.5];
    let mut point = [0.0f32; 3];
    // SAFETY: a live mesh; 3 readable floats; writable outputs.
    let status = unsafe {
        navstar_mesh_nearest_point(
            h.mesh,
            at.as_ptr(),
            0.1,
            ptr::null(),
            point.as_mut_ptr(),
            &mut polygon,
            ptr::null_mut(),
        )
    };
    assert_status(status, OK, &[]);
    let mut previous = 0;
    // SAFETY: a live mesh; a polygon of it; `previous` writable.
    let status = unsafe { navstar_mesh_set_polygon_flags(h.mesh, polygon, 0, &mut previous) };
    assert_status(status, OK, &[]);
    let expected = find_path(h.query, &options);
    assert_eq!(expected.status, NO_PATH);
    assert_eq!(begin(h.query, &options), NAVSTAR_SLICE_IN_PROGRESS);
    while advance(h.query, 3).1.state == NAVSTAR_SLICE_IN_PROGRESS {}
    let (status, count, _) = finish(h.query, 64);
    assert_status(status, NO_PATH, &["unreachable"]);
    assert_eq!(count, 0);
}
