//! The C ABI called from Rust (`navstar::ffi::*`) exactly as a C program calls it:
//!
//! * `agents`: moving along the surface, the distance to walls, random points;
//!   `radius_moves`: the same for a disc-shaped agent, and a corridor with a radius;
//! * `corridor`: the corridor that follows an agent (`navstar_corridor_*`) against the
//!   Rust `PathCorridor`, its buffers and rejections;
//! * `contract`: known answers, every rejection listed in API.md with its status and a
//!   message that names the culprit, output buffers, option struct versioning, handle
//!   lifetimes and sharing a mesh between threads;
//! * `fast_lane`: building the exact mode's fast-lane index and turning it on or off per
//!   query, against the search and the Iron Harvest scenarios;
//! * `landmarks`: building the landmark table and choosing it per query;
//! * `load`: loading every file format from bytes and from files, against the Rust
//!   loaders, and the refusals with their line numbers;
//! * `node_limit`: queries with options (`navstar_query_create_ex`): the node limit,
//!   partial paths it cuts, the query's scratch memory;
//! * `queries`: meshes with areas, flags and off-mesh links, filters, run-time flags,
//!   path details, the nearest of several goals, the reachable polygons, and the mesh
//!   queries (nearest point, raycast, interpolation);
//! * `readback`: reading a mesh back (vertices, corners, neighbours, areas, flags,
//!   islands, bounds) from a hand-made mesh; `readback_world`: from snapshots of worlds
//!   and random grids;
//! * `regressions`: the inputs the fuzzers failed on;
//! * `saved`: saving a mesh into a caller buffer and loading the binary format;
//! * `sliced`: time-sliced path searches against the one-shot path call;
//! * `stress`: many threads on one mesh while handles come and go and flags change;
//! * `world`: worlds of tiles: tile operations, snapshots, paths across a seam, stale
//!   and foreign references; `world_saved`: saving and loading a world.
//!
//! miri runs the `contract` tests (`scripts/test`).

mod agents;
#[path = "../common/mod.rs"]
mod common;
mod contract;
mod corridor;
mod fast_lane;
mod landmarks;
mod load;
mod node_limit;
mod obstacles;
mod queries;
mod radius;
mod radius_moves;
mod radius_spatial;
mod readback;
mod readback_world;
mod regressions;
mod saved;
mod sliced;
mod stress;
mod world;
mod world_cut;
mod world_saved;

use std::ffi::CStr;

use navstar::ffi::{
    NavstarPathInfo, NavstarQuery, NavstarStatus, navstar_last_error_message,
    navstar_query_path_info,
};

/// The thread's last error message, copied.
fn last_error() -> String {
    // SAFETY: navstar_last_error_message never returns NULL; the text is NUL-terminated
    // and valid until the next navstar call on this thread. It is copied at once.
    unsafe { CStr::from_ptr(navstar_last_error_message()) }
        .to_string_lossy()
        .into_owned()
}

/// Asserts the status, and that the thread's message names every culprit.
#[track_caller]
fn assert_status(status: NavstarStatus, want: NavstarStatus, culprits: &[&str]) {
    let message = last_error();
    assert_eq!(status, want, "wrong status; message: {message:?}");
    for culprit in culprits {
        assert!(
            message.contains(culprit),
            "message {message:?} does not name {culprit:?}"
        );
    }
}

/// `navstar_query_path_info` of a live query, asserting success.
#[track_caller]
fn path_info(query: *const NavstarQuery) -> NavstarPathInfo {
    let mut info = NavstarPathInfo {
        point_count: 0,
        polygon_count: 0,
        status: NavstarStatus::NavstarErrorInternal,
        length: 0.0,
        cost: 0.0,
    };
    // SAFETY: the caller passes a live query used by this thread; `info` is writable.
    let status = unsafe { navstar_query_path_info(query, &mut info) };
    assert_status(status, NavstarStatus::NavstarOk, &[]);
    info
}
