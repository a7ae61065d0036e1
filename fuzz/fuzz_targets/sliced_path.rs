//! Fuzzes the time-sliced path searches (`navstar_query_begin_path`, `_advance_path`,
//! `_finish_path`, `_cancel_path`) on meshes with areas, flags and off-mesh links.
//!
//! A `Search` runs one query three ways: the C one-shot call (checked against the Rust
//! API by `compare_query`), the C sliced calls with fuzzed slice sizes (1 to 50
//! expansions), and the Rust sliced calls with the same slices. Run to the end, the C
//! sliced answer equals the C one-shot answer (status, points bit for bit, the corridor
//! read back), and the Rust sliced answer equals the Rust one-shot answer (corners,
//! details, status, cost, corridor). Finished early, it is a partial path from the
//! snapped start. The slices' expansions add up to the one-shot search's.
//!
//! The other operations call the four functions in any order, against a model of the
//! query's sliced search (none, in progress, done, maybe interrupted by another
//! search): advancing or finishing with none is `NAVSTAR_ERROR_INVALID_ARGUMENT`
//! naming `begin_path`, 0 expansions names `max_expansions`, advancing when done
//! reports done with 0 expansions, cancelling says whether there was a search.
#![no_main]

use std::ptr;

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use navstar::ffi::{
    NAVSTAR_SLICE_DONE, NAVSTAR_SLICE_IN_PROGRESS, NavstarSliceProgress, NavstarStatus,
    navstar_query_advance_path, navstar_query_begin_path, navstar_query_cancel_path,
    navstar_query_finish_path,
};
use navstar::{Query, SliceStatus};
use navstar_fuzz::calls::c_path_corridor;
use navstar_fuzz::{
    BUFFER_TOO_SMALL, CQuery, Expect as Expected, INVALID_ARGUMENT, ListBuffers, MeshOps, OK,
    OptionsIn, PointIn, QueryOpts, RustPath, c_find_path, call_list, check_same_path, last_error,
    opt_ptr, path_answer,
};

#[derive(Arbitrary, Debug)]
enum Op {
    /// One query the three ways.
    Search {
        start: PointIn,
        goal: PointIn,
        options: QueryOpts,
        /// Each: `1 + s % 50` expansions.
        slices: Vec<u8>,
        /// Finish when the slices run out, done or not.
        early: bool,
        capacity: u8,
    },
    /// The calls one at a time, in any order.
    Begin {
        start: PointIn,
        goal: PointIn,
        options: QueryOpts,
    },
    Advance(u8),
    Finish(u8),
    Cancel,
    /// Another search on the same query.
    OneShot {
        start: PointIn,
        goal: PointIn,
    },
}

/// What the harness knows of the C query's sliced search.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Model {
    None,
    InProgress,
    Done,
    /// In progress, and another query ran since: interrupted if it searched.
    MaybeInterrupted,
}

/// `navstar_query_begin_path`: the status and the state written.
fn c_begin(
    query: &mut CQuery,
    start: Option<[f32; 3]>,
    goal: Option<[f32; 3]>,
    options: &QueryOpts,
) -> (NavstarStatus, u32) {
    let c_options = options.c_options();
    let mut state = u32::MAX;
    // SAFETY: a live query used by this thread; points NULL or 3 floats; options NULL
    // or a full struct with its filter; `state` writable.
    let status = unsafe {
        navstar_query_begin_path(
            query.as_ptr(),
            opt_ptr(&start),
            opt_ptr(&goal),
            c_options.get().map_or(ptr::null(), ptr::from_ref),
            &mut state,
        )
    };
    if status == OK {
        assert!(
            state == NAVSTAR_SLICE_IN_PROGRESS || state == NAVSTAR_SLICE_DONE,
            "state {state}"
        );
    }
    (status, state)
}

/// `navstar_query_advance_path`: the status, the message and the progress.
fn c_advance(query: &mut CQuery, max: u32) -> (NavstarStatus, String, NavstarSliceProgress) {
    let mut progress = NavstarSliceProgress {
        state: u32::MAX,
        expansions: u32::MAX,
        flags_changed: u32::MAX,
    };
    // SAFETY: a live query used by this thread; `progress` writable.
    let status = unsafe { navstar_query_advance_path(query.as_ptr(), max, &mut progress) };
    let message = if status == OK {
        String::new()
    } else {
        last_error()
    };
    if status == OK {
        assert!(progress.expansions <= max, "{progress:?} for {max}");
        assert_eq!(progress.flags_changed, 0, "no flags change here");
    }
    (status, message, progress)
}

/// `navstar_query_finish_path` with room for `capacity` points (buffer rules checked).
fn c_finish(query: &mut CQuery, capacity: u32) -> navstar_fuzz::CAnswer {
    let list = call_list(
        "navstar_query_finish_path",
        ListBuffers::room(capacity),
        |out: *mut [f32; 3], capacity, count| {
            // SAFETY: a live query used by this thread; room for `capacity` points;
            // `count` writable.
            unsafe { navstar_query_finish_path(query.as_ptr(), out.cast(), capacity, count) }
        },
    );
    path_answer("navstar_query_finish_path", list)
}

fn c_cancel(query: &mut CQuery) -> bool {
    let mut cancelled = u32::MAX;
    // SAFETY: a live query used by this thread; `cancelled` writable.
    let status = unsafe { navstar_query_cancel_path(query.as_ptr(), &mut cancelled) };
    assert_eq!(status, OK);
    assert!(cancelled <= 1);
    cancelled == 1
}

/// The Rust sliced answer with the same slices (run to the end).
fn rust_sliced(
    query: &mut Query,
    start: [f32; 3],
    goal: [f32; 3],
    options: &navstar::PathOptions,
    slices: &[u8],
) -> Result<(RustPath, u64), navstar::QueryError> {
    let begun = query.begin_path(start.into(), goal.into(), options)?;
    let mut total = 0u64;
    for k in 0.. {
        let max = 1 + u32::from(slices.get(k).copied().unwrap_or(49) % 50);
        let progress = query.advance_path(max).expect("a begun search advances");
        assert!(progress.expansions <= max);
        total += u64::from(progress.expansions);
        if progress.status == SliceStatus::Done {
            break;
        }
        assert_eq!(begun, SliceStatus::InProgress);
    }
    let path = query.finish_path()?;
    let path = RustPath::new(&path, Vec::new());
    Ok((
        RustPath {
            corridor: query.corridor().collect(),
            ..path
        },
        total,
    ))
}

#[allow(clippy::too_many_arguments)]
fn search(
    built: &navstar_fuzz::input::Built,
    cquery: &mut CQuery,
    start: &PointIn,
    goal: &PointIn,
    options: &QueryOpts,
    slices: &[u8],
    early: bool,
    capacity: u32,
) {
    let mesh = &built.rust;
    let (start, goal) = (start.resolve(mesh), goal.resolve(mesh));
    let mut rquery = Query::new(mesh);
    let one_shot =
        navstar_fuzz::compare_query(cquery, &mut rquery, start, goal, options, 64, false);
    let one_shot_stats = rquery.last_search_stats();
    let c_corridor = one_shot
        .as_ref()
        .map(|_| c_path_corridor(Some(cquery), ListBuffers::room(1024)).items);
    // The Rust one-shot answer on a fresh query (compare_query's is the same).
    let (Some(s), Some(g), Expected::Accept(rust_options)) = (start, goal, options.expected())
    else {
        // NULL points or rejected options: begin_path rejects them as find_path did.
        let one = c_find_path(cquery, start, goal, options.c_options().get(), 64, false);
        let (status, _) = c_begin(cquery, start, goal, options);
        assert_eq!(status, one.status, "begin_path and find_path disagree");
        return;
    };
    let mut fresh = Query::new(mesh);
    let rust_one = fresh
        .find_path(s.into(), g.into(), &rust_options)
        .map(|p| RustPath::new(&p, Vec::new()))
        .map(|p| RustPath {
            corridor: fresh.corridor().collect(),
            ..p
        });
    // Rust: sliced == one-shot, bit for bit.
    let mut sliced_query = Query::new(mesh);
    match (
        rust_sliced(&mut sliced_query, s, g, &rust_options, slices),
        &rust_one,
    ) {
        (Ok((path, total)), Ok(one)) => {
            assert_eq!(path.corners, one.corners, "sliced corners");
            assert_eq!(path.details, one.details, "sliced details");
            assert_eq!(path.status, one.status, "sliced status");
            assert_eq!(path.cost.to_bits(), one.cost.to_bits(), "sliced cost");
            assert_eq!(path.corridor, one.corridor, "sliced corridor");
            let stats = sliced_query.last_search_stats();
            assert_eq!(stats.expanded, one_shot_stats.expanded);
            assert!(total <= stats.expanded);
        }
        (Err(e), Err(one)) => assert_eq!(&e, one),
        (sliced, one) => panic!("sliced {sliced:?} but one-shot {one:?}"),
    }
    // C: sliced == one-shot.
    let (status, state) = c_begin(cquery, start, goal, options);
    let Ok(one) = &rust_one else {
        if status == OK {
            // The search's own failure comes at the end.
            while c_advance(cquery, 50).2.state == NAVSTAR_SLICE_IN_PROGRESS {}
            let answer = c_finish(cquery, capacity);
            check_same_path(&answer, &rust_one, capacity);
        } else {
            check_same_path(
                &navstar_fuzz::CAnswer {
                    status,
                    count: 0,
                    points: Vec::new(),
                },
                &rust_one,
                capacity,
            );
        }
        return;
    };
    assert_eq!(status, OK, "{}", last_error());
    let mut done = state == NAVSTAR_SLICE_DONE;
    let mut k = 0;
    while !done {
        if early && k == slices.len() {
            break;
        }
        let max = 1 + u32::from(slices.get(k).copied().unwrap_or(49) % 50);
        k += 1;
        let (status, message, progress) = c_advance(cquery, max);
        assert_eq!(status, OK, "{message}");
        done = progress.state == NAVSTAR_SLICE_DONE;
    }
    let answer = c_finish(cquery, capacity);
    if done {
        check_same_path(&answer, &rust_one, capacity);
        if answer.status != BUFFER_TOO_SMALL || capacity > 0 {
            let corridor = c_path_corridor(Some(cquery), ListBuffers::room(1024)).items;
            assert_eq!(Some(corridor), c_corridor, "the corridor read back");
        }
    } else {
        assert!(
            answer.status == navstar_fuzz::PARTIAL_PATH || answer.status == BUFFER_TOO_SMALL,
            "finished early: {:?}",
            answer.status
        );
        assert!(answer.count >= 2);
        if let Some(first) = answer.points.first() {
            assert_eq!(
                first.to_array(),
                one.corners[0].to_array(),
                "from the snapped start"
            );
        }
    }
}

fuzz_target!(|input: MeshOps<Op>| {
    let Some(built) = input.mesh.build() else {
        return;
    };
    let mut cquery = built.c.query();
    let mut model = Model::None;
    for op in input.ops.iter().take(12) {
        match op {
            Op::Search {
                start,
                goal,
                options,
                slices,
                early,
                capacity,
            } => {
                search(
                    &built,
                    &mut cquery,
                    start,
                    goal,
                    options,
                    slices,
                    *early,
                    u32::from(*capacity % 40),
                );
                model = Model::None;
            }
            Op::Begin {
                start,
                goal,
                options,
            } => {
                let mesh = &built.rust;
                let (status, state) = c_begin(
                    &mut cquery,
                    start.resolve(mesh),
                    goal.resolve(mesh),
                    options,
                );
                model = match (status, state) {
                    (OK, NAVSTAR_SLICE_DONE) => Model::Done,
                    (OK, _) => Model::InProgress,
                    _ => Model::None,
                };
            }
            Op::Advance(max) => {
                let max = u32::from(*max % 60);
                let (status, message, progress) = c_advance(&mut cquery, max);
                if max == 0 {
                    assert_eq!(status, INVALID_ARGUMENT);
                    assert!(message.contains("max_expansions"), "{message}");
                    continue;
                }
                model = match model {
                    Model::None => {
                        assert_eq!(status, INVALID_ARGUMENT);
                        assert!(message.contains("begin_path"), "{message}");
                        Model::None
                    }
                    Model::Done => {
                        assert_eq!(status, OK, "{message}");
                        assert_eq!(
                            (progress.state, progress.expansions),
                            (NAVSTAR_SLICE_DONE, 0)
                        );
                        Model::Done
                    }
                    Model::MaybeInterrupted if status != OK => {
                        assert_eq!(status, INVALID_ARGUMENT);
                        assert!(message.contains("interrupted"), "{message}");
                        Model::None
                    }
                    Model::InProgress | Model::MaybeInterrupted => {
                        assert_eq!(status, OK, "{message}");
                        if progress.state == NAVSTAR_SLICE_DONE {
                            Model::Done
                        } else {
                            Model::InProgress
                        }
                    }
                };
            }
            Op::Finish(capacity) => {
                let answer = c_finish(&mut cquery, u32::from(*capacity % 40));
                let message = last_error();
                if model == Model::None {
                    assert_eq!(answer.status, INVALID_ARGUMENT);
                    assert!(message.contains("begin_path"), "{message}");
                }
                model = Model::None;
            }
            Op::Cancel => {
                assert_eq!(c_cancel(&mut cquery), model != Model::None);
                model = Model::None;
            }
            Op::OneShot { start, goal } => {
                let mesh = &built.rust;
                c_find_path(
                    &mut cquery,
                    start.resolve(mesh),
                    goal.resolve(mesh),
                    None,
                    64,
                    false,
                );
                if model == Model::InProgress {
                    model = Model::MaybeInterrupted;
                }
            }
        }
    }
});
