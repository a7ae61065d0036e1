//! Time-sliced path searches: begin a search, advance it by at most a number of node
//! expansions per call (a frame's budget), finish it (the one-shot answer, or before
//! the end the best partial path), or cancel it. Over `Query::begin_path`,
//! `advance_path`, `finish_path` and `cancel_path`.

use super::boundary::{FfiError, Out, OutCount, put, read_point, run};
use super::handle::{self, NavstarQuery};
use super::options::NavstarPathOptions;
use super::query::{forget_last_path, write_path};
use super::status::NavstarStatus;
use crate::SliceStatus;

/// `NavstarSliceProgress::state`: the search goes on.
pub const NAVSTAR_SLICE_IN_PROGRESS: u32 = 0;
/// `NavstarSliceProgress::state`: the answer is known; `navstar_query_finish_path`
/// returns it.
pub const NAVSTAR_SLICE_DONE: u32 = 1;

/// What one `navstar_query_advance_path` call did.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NavstarSliceProgress {
    /// `NAVSTAR_SLICE_IN_PROGRESS` or `NAVSTAR_SLICE_DONE`.
    pub state: u32,
    /// The node expansions this call made (at most the number asked for).
    pub expansions: u32,
    /// 1 when the mesh's polygon flags changed since `navstar_query_begin_path` (the
    /// search reads flags as it goes; begin again to search under the new flags
    /// throughout), else 0.
    pub flags_changed: u32,
}

fn slice_state(status: SliceStatus) -> u32 {
    match status {
        SliceStatus::InProgress => NAVSTAR_SLICE_IN_PROGRESS,
        SliceStatus::Done => NAVSTAR_SLICE_DONE,
    }
}

/// Begins a time-sliced path search from `start` to `goal` on `query` (a search already
/// in progress on it is cancelled, also when this call fails). Arguments as for `navstar_find_path`; the finished
/// path equals `navstar_find_path`'s for the same arguments.
///
/// * `out_state` (out): `NAVSTAR_SLICE_DONE` when the answer is known at once (no
///   search needed, or a query answered whole: an end on a pinched vertex), else
///   `NAVSTAR_SLICE_IN_PROGRESS`. Both modes are sliced (`NAVSTAR_PATH_MODE_OPTIMAL`'s
///   exact search by its expansions), with an agent radius too (on the eroded mesh,
///   whose first build for a radius and filter is part of this call).
///
/// Fails with `navstar_find_path`'s errors known before the search, and
/// `NAVSTAR_ERROR_NULL_ARGUMENT` naming `out_state` (then the last path is forgotten); the search's own `NAVSTAR_ERROR_NO_PATH` comes from
/// `navstar_query_finish_path`. The last path's read-back functions keep answering
/// about the last finished path until then. Any other search on this query before
/// `navstar_query_finish_path` interrupts the sliced one.
///
/// # Safety
/// `query` NULL or a live query not used by another thread; `start`/`goal` NULL or 3
/// readable floats; `options` NULL or a readable `NavstarPathOptions`; `out_state` NULL
/// or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_query_begin_path(
    query: *mut NavstarQuery,
    start: *const f32,
    goal: *const f32,
    options: *const NavstarPathOptions,
    out_state: *mut u32,
) -> NavstarStatus {
    run("navstar_query_begin_path", || {
        let state = handle::borrow_mut(query, "query")?;
        // Whatever fails next, the search before is over and the last path forgotten.
        state.query.cancel_path();
        let begun = (|| {
            let out_state = Out::required(out_state, "out_state")?;
            let start = read_point(start, "start")?;
            let goal = read_point(goal, "goal")?;
            let options = NavstarPathOptions::read(options)?;
            let status = state.query.begin_path(start, goal, &options)?;
            out_state.set(slice_state(status));
            Ok(NavstarStatus::NavstarOk)
        })();
        if begun.is_err() {
            state.last_path = None;
        }
        begun
    })
}

/// Goes on with the sliced path search of `query` for at most `max_expansions` node
/// expansions (>= 1). After the search has ended it does nothing and reports
/// `NAVSTAR_SLICE_DONE` again.
///
/// * `out_progress` (out): the state, the expansions made, whether flags changed.
///
/// `NAVSTAR_ERROR_INVALID_ARGUMENT` when `max_expansions` is 0, when no search is in
/// progress (never begun, or finished or cancelled), or when another search ran on the
/// query since the last slice (the sliced search is then lost).
///
/// # Safety
/// `query` NULL or a live query not used by another thread; `out_progress` NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_query_advance_path(
    query: *mut NavstarQuery,
    max_expansions: u32,
    out_progress: *mut NavstarSliceProgress,
) -> NavstarStatus {
    run("navstar_query_advance_path", || {
        let state = handle::borrow_mut(query, "query")?;
        let out_progress = Out::required(out_progress, "out_progress")?;
        if max_expansions == 0 {
            return Err(FfiError::invalid(
                "max_expansions is 0; it must be at least 1",
            ));
        }
        let progress = state.query.advance_path(max_expansions)?;
        out_progress.set(NavstarSliceProgress {
            state: slice_state(progress.status),
            expansions: progress.expansions,
            flags_changed: u32::from(progress.flags_changed),
        });
        Ok(NavstarStatus::NavstarOk)
    })
}

/// Ends the sliced path search of `query` and writes its path: once
/// `navstar_query_advance_path` reported `NAVSTAR_SLICE_DONE`, `navstar_find_path`'s
/// answer (status, points, and afterwards the read-back functions: info, details,
/// corridor); before that, the path to the best node reached so far,
/// `NAVSTAR_PARTIAL_PATH`. The search is over afterwards.
///
/// * `out_points`, `capacity`, `out_count`: as for `navstar_find_path`
///   (`NAVSTAR_BUFFER_TOO_SMALL` when the path does not fit: the first `capacity`
///   points are written and the read-back functions still give the whole path).
///
/// `NAVSTAR_ERROR_INVALID_ARGUMENT` when no search is in progress or it was
/// interrupted; `NAVSTAR_ERROR_NO_PATH` when the goal is unreachable and partial paths
/// are off. A failure forgets the last path.
///
/// # Safety
/// `query` NULL or a live query not used by another thread; `out_points` NULL or
/// `3 * capacity` writable floats; `out_count` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_query_finish_path(
    query: *mut NavstarQuery,
    out_points: *mut f32,
    capacity: u32,
    out_count: *mut u32,
) -> NavstarStatus {
    run("navstar_query_finish_path", || {
        let state = forget_last_path(query);
        let out = OutCount::new(out_points.cast::<[f32; 3]>(), capacity, out_count)?;
        let state = state?;
        let out = out.check_room("out_points")?;
        let path = state.query.finish_path()?;
        let status = path.status;
        let result = write_path(out, path.corners, status);
        state.last_path = Some(status);
        Ok(result)
    })
}

/// Cancels the sliced path search of `query`, if one is in progress (none is not an
/// error). The last path is kept.
///
/// * `out_cancelled` (out, optional): 1 when a search was cancelled, else 0.
///
/// # Safety
/// `query` NULL or a live query not used by another thread; `out_cancelled` NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_query_cancel_path(
    query: *mut NavstarQuery,
    out_cancelled: *mut u32,
) -> NavstarStatus {
    run("navstar_query_cancel_path", || {
        let state = handle::borrow_mut(query, "query")?;
        let cancelled = state.query.cancel_path();
        if !out_cancelled.is_null() {
            put(out_cancelled, u32::from(cancelled));
        }
        Ok(NavstarStatus::NavstarOk)
    })
}
