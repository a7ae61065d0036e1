//! A world's fast-lane index through the C ABI (`World::prepare_fast_lane`).

use super::boundary::{put, run};
use super::handle::{self, NavstarWorld};
use super::status::NavstarStatus;

/// Builds the fast-lane index of `world` as it is now (the exact mode's corner index,
/// over all tiles: sight lines and distances cross seams) and publishes a snapshot that
/// has it (`World::prepare_fast_lane`). Exact-mode queries (`NAVSTAR_PATH_OPTIMAL`, and
/// the default mode where it runs the exact mode) on snapshots taken after this call
/// (`navstar_world_snapshot`) answer from it when their filter admits every polygon and
/// they have no node limit, with the same lengths as the exact search. A world never
/// builds it on the query path: its snapshots have it only from this call. Flag changes
/// keep it; any change of geometry drops it (a tile added, removed or replaced, an
/// obstacle that carves a tile anew): queries then search as before (same answers,
/// slower) until this is called again. It builds without the world's writer lock (tile
/// changes and queries go on meanwhile; about 0.05-0.3 s for a few thousand polygons);
/// if the geometry changed during the build, the index is thrown away and
/// `out_has_index` is 0: call it again. Safe to call from any thread.
///
/// * `out_has_index` (out, optional): 1 when the world has an index now, 0 when it gets
///   none (a world with off-mesh links, a build that gave up, or a change meanwhile).
///
/// # Safety
/// `world` NULL or a live world; `out_has_index` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_world_prepare_fast_lane(
    world: *const NavstarWorld,
    out_has_index: *mut u32,
) -> NavstarStatus {
    run("navstar_world_prepare_fast_lane", || {
        let state = handle::borrow(world, "world")?;
        put(out_has_index, u32::from(state.world.prepare_fast_lane()));
        Ok(NavstarStatus::NavstarOk)
    })
}
