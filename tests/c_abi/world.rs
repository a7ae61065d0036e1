//! The world of tiles through the C ABI: creating worlds (options, struct sizes, bad
//! values), adding, removing and replacing tiles, snapshots that every query takes and
//! that keep their tiles, paths across a seam, tile and polygon references (stale,
//! foreign, double removal), threads. Saving and loading a world: `world_saved`.
//!
//! The two tiles used throughout, seen from above (Y up, y = 0, unit cells):
//!
//! ```text
//!   z=2 +---+   +-------+
//!       | A |   |       |
//!   z=1 +---+---+   B   |
//!       | A   A |       |
//!   z=0 +-------+-------+
//!      x=0 x=1 x=2     x=4
//! ```
//!
//! Tile A is a 2 x 2 grid without its cell (1, 1); tile B a full 2 x 2 grid from x = 2.
//! They meet along x = 2 over z in [0, 1] only (a partial overlap: B's edge is longer),
//! so the path from (0.5, 1.5) to (3.5, 1.5) turns at (1, 1) and at (2, 1).

use std::ptr::{self, NonNull};

use navstar::ffi::{
    NAVSTAR_NO_POLYGON, NavstarMesh, NavstarQuery, NavstarStatus, NavstarTileRef, NavstarWorld,
    NavstarWorldOptions, navstar_find_path, navstar_mesh_create_from_grid, navstar_mesh_free,
    navstar_mesh_polygon_count, navstar_mesh_polygon_ids, navstar_mesh_polygon_ref,
    navstar_mesh_resolve_polygon_ref, navstar_query_create, navstar_query_free,
    navstar_status_name, navstar_world_add_tile, navstar_world_create, navstar_world_free,
    navstar_world_options_default, navstar_world_remove_tile, navstar_world_replace_tile,
    navstar_world_snapshot, navstar_world_tile_count, navstar_world_tiles,
};

use NavstarStatus::{
    NavstarBufferTooSmall as BUFFER_TOO_SMALL, NavstarErrorInvalidArgument as INVALID_ARGUMENT,
    NavstarErrorNullArgument as NULL_ARGUMENT, NavstarErrorStaleReference as STALE_REFERENCE,
    NavstarOk as OK,
};

use crate::{assert_status, last_error};

/// Owns a mesh handle (a tile or a snapshot); frees it on drop.
pub(crate) struct Mesh(pub(crate) *mut NavstarMesh);

impl Drop for Mesh {
    fn drop(&mut self) {
        // SAFETY: NULL or a live mesh, freed only here.
        unsafe { navstar_mesh_free(self.0) }
    }
}

impl Mesh {
    pub(crate) fn polygon_count(&self) -> u32 {
        // SAFETY: a live mesh.
        unsafe { navstar_mesh_polygon_count(self.0) }
    }

    /// `navstar_mesh_polygon_ids`, with the too-small rule checked on the way.
    pub(crate) fn polygon_ids(&self) -> Vec<u32> {
        let count = self.polygon_count();
        let mut ids = vec![u32::MAX; count as usize + 1];
        let mut got = 0u32;
        // SAFETY: a live mesh; `ids` has room for more than `count - 1` numbers.
        let status = unsafe {
            navstar_mesh_polygon_ids(self.0, ids.as_mut_ptr(), count.saturating_sub(1), &mut got)
        };
        let want = if count == 0 { OK } else { BUFFER_TOO_SMALL };
        assert_status(status, want, &[]);
        assert_eq!(got, count);
        // SAFETY: `ids` has room for `count` numbers.
        let status = unsafe { navstar_mesh_polygon_ids(self.0, ids.as_mut_ptr(), count, &mut got) };
        assert_status(status, OK, &[]);
        assert_eq!(ids[count as usize], u32::MAX, "written past the capacity");
        ids.truncate(count as usize);
        assert!(ids.windows(2).all(|w| w[0] < w[1]), "{ids:?}");
        ids
    }
}

/// Owns a world handle; frees it on drop.
pub(crate) struct World(pub(crate) *mut NavstarWorld);

impl Drop for World {
    fn drop(&mut self) {
        // SAFETY: NULL or a live world, freed only here.
        unsafe { navstar_world_free(self.0) }
    }
}

// SAFETY: a mesh may be used by any number of threads at once (API.md).
unsafe impl Send for Mesh {}
// SAFETY: as above.
unsafe impl Sync for Mesh {}

// SAFETY: a world may be used by any number of threads at once (ffi module doc).
unsafe impl Send for World {}
// SAFETY: as above.
unsafe impl Sync for World {}

/// Calls navstar_world_create; `*out_world` starts dangling so that the call is seen to
/// set it.
pub(crate) fn create(options: Option<&NavstarWorldOptions>) -> (NavstarStatus, World) {
    let mut out: *mut NavstarWorld = NonNull::dangling().as_ptr();
    // SAFETY: `options` is NULL or a whole struct of its struct_size; `out` is writable.
    let status = unsafe {
        navstar_world_create(
            options.map_or(ptr::null(), |o| o as *const NavstarWorldOptions),
            &mut out,
        )
    };
    assert_eq!(status == OK, !out.is_null(), "{status:?}: {}", last_error());
    (status, World(out))
}

pub(crate) fn new_world() -> World {
    let (status, world) = create(None);
    assert_status(status, OK, &[]);
    world
}

/// A grid tile of unit cells (`cells[z * width + x]` non-zero: walkable) with its corner
/// at (x0, 0, z0).
pub(crate) fn grid_tile(width: u32, height: u32, cells: &[u8], x0: f32, z0: f32) -> Mesh {
    assert_eq!(cells.len(), (width * height) as usize);
    let origin = [x0, 0.0, z0];
    let mut out = ptr::null_mut();
    // SAFETY: `cells` holds width * height bytes; `origin` 3 floats; `out` is writable.
    let status = unsafe {
        navstar_mesh_create_from_grid(
            cells.as_ptr(),
            width,
            height,
            1.0,
            origin.as_ptr(),
            ptr::null(),
            &mut out,
        )
    };
    assert_status(status, OK, &[]);
    Mesh(out)
}

pub(crate) fn tile_a() -> Mesh {
    grid_tile(2, 2, &[1, 1, 1, 0], 0.0, 0.0)
}

pub(crate) fn tile_b() -> Mesh {
    grid_tile(2, 2, &[1; 4], 2.0, 0.0)
}

pub(crate) fn add(world: &World, tile: &Mesh) -> (NavstarStatus, NavstarTileRef) {
    let mut out = NavstarTileRef {
        world: 9,
        slot: 9,
        generation: 9,
    };
    // SAFETY: live handles (or NULL); `out` is writable.
    let status = unsafe { navstar_world_add_tile(world.0, tile.0, &mut out) };
    if status != OK {
        assert_eq!(out, NavstarTileRef::default(), "*out_tile not zeroed");
    }
    (status, out)
}

pub(crate) fn add_ok(world: &World, tile: &Mesh) -> NavstarTileRef {
    let (status, tile) = add(world, tile);
    assert_status(status, OK, &[]);
    tile
}

pub(crate) fn remove(world: &World, tile: NavstarTileRef) -> NavstarStatus {
    // SAFETY: a live world (or NULL).
    unsafe { navstar_world_remove_tile(world.0, tile) }
}

pub(crate) fn snapshot(world: &World) -> Mesh {
    let mut out = ptr::null_mut();
    // SAFETY: a live world; `out` is writable.
    let status = unsafe { navstar_world_snapshot(world.0, &mut out) };
    assert_status(status, OK, &[]);
    Mesh(out)
}

pub(crate) fn tiles(world: &World) -> Vec<NavstarTileRef> {
    let mut count = 0u32;
    // SAFETY: capacity 0 with NULL asks for the count.
    let status = unsafe { navstar_world_tiles(world.0, ptr::null_mut(), 0, &mut count) };
    let want = if count == 0 { OK } else { BUFFER_TOO_SMALL };
    assert_status(status, want, &[]);
    let mut out = vec![NavstarTileRef::default(); count as usize];
    // SAFETY: `out` has room for `count` references.
    let status = unsafe { navstar_world_tiles(world.0, out.as_mut_ptr(), count, &mut count) };
    assert_status(status, OK, &[]);
    assert_eq!(count as usize, out.len());
    out
}

/// A path on a mesh, with the status; no points after an error.
pub(crate) fn path(mesh: &Mesh, start: [f32; 3], goal: [f32; 3]) -> (NavstarStatus, Vec<[f32; 3]>) {
    let mut query: *mut NavstarQuery = ptr::null_mut();
    // SAFETY: a live mesh; `query` is writable.
    assert_status(unsafe { navstar_query_create(mesh.0, &mut query) }, OK, &[]);
    let mut points = [0f32; 3 * 16];
    let mut count = 0u32;
    // SAFETY: a live query; 3 floats each for start and goal; room for 16 points.
    let status = unsafe {
        navstar_find_path(
            query,
            start.as_ptr(),
            goal.as_ptr(),
            ptr::null(),
            points.as_mut_ptr(),
            16,
            &mut count,
        )
    };
    // SAFETY: a live query, freed once.
    unsafe { navstar_query_free(query) };
    let n = if (status as i32) < 0 {
        0
    } else {
        count.min(16) as usize
    };
    let corners = points[..3 * n]
        .chunks_exact(3)
        .map(|c| [c[0], c[1], c[2]])
        .collect();
    (status, corners)
}

pub(crate) fn polygon_ref(mesh: &Mesh, polygon: u32) -> (NavstarStatus, u64) {
    let mut out = 7u64;
    // SAFETY: a live mesh; `out` is writable.
    let status = unsafe { navstar_mesh_polygon_ref(mesh.0, polygon, &mut out) };
    (status, out)
}

pub(crate) fn resolve(mesh: &Mesh, polygon_ref: u64) -> (NavstarStatus, u32) {
    let mut out = 7u32;
    // SAFETY: a live mesh; `out` is writable.
    let status = unsafe { navstar_mesh_resolve_polygon_ref(mesh.0, polygon_ref, &mut out) };
    (status, out)
}

/// The path across the seam between tiles A and B.
pub(crate) const ACROSS: [[f32; 3]; 4] = [
    [0.5, 0.0, 1.5],
    [1.0, 0.0, 1.0],
    [2.0, 0.0, 1.0],
    [3.5, 0.0, 1.5],
];

#[track_caller]
pub(crate) fn assert_corners(got: &[[f32; 3]], want: &[[f32; 3]]) {
    let same = got.len() == want.len()
        && got
            .iter()
            .zip(want)
            .all(|(g, w)| g.iter().zip(w).all(|(a, b)| (a - b).abs() <= 1e-4));
    assert!(same, "path\n  got  {got:?}\n  want {want:?}");
}

#[test]
fn options_defaults_sizes_and_bad_values() {
    let defaults = navstar_world_options_default();
    assert_eq!(
        defaults.struct_size as usize,
        size_of::<NavstarWorldOptions>()
    );
    assert_eq!(size_of::<NavstarWorldOptions>(), 20);
    assert_eq!(defaults.up_axis, 0);
    assert!(defaults.max_tiles.is_power_of_two());
    assert!(defaults.seam_tolerance >= 0.0 && defaults.climb >= 0.0);
    let (status, _world) = create(Some(&defaults));
    assert_status(status, OK, &[]);
    assert_eq!(last_error(), "");

    let mut bad = defaults;
    bad.struct_size = 12;
    let (status, _world) = create(Some(&bad));
    assert_status(
        status,
        INVALID_ARGUMENT,
        &[
            "navstar_world_create",
            "struct_size is 12",
            "navstar_world_options_default",
        ],
    );
    bad = defaults;
    bad.up_axis = 7;
    let (status, _world) = create(Some(&bad));
    assert_status(status, INVALID_ARGUMENT, &["up_axis is 7"]);
    for max_tiles in [0, 3, 100, u32::MAX] {
        bad = defaults;
        bad.max_tiles = max_tiles;
        let (status, _world) = create(Some(&bad));
        assert_status(status, INVALID_ARGUMENT, &["max_tiles"]);
    }
    for value in [-1.0, f32::NAN, f32::INFINITY] {
        bad = defaults;
        bad.seam_tolerance = value;
        let (status, _world) = create(Some(&bad));
        assert_status(status, INVALID_ARGUMENT, &["seam_tolerance"]);
        bad = defaults;
        bad.climb = value;
        let (status, _world) = create(Some(&bad));
        assert_status(status, INVALID_ARGUMENT, &["climb"]);
    }
    // SAFETY: a NULL out pointer must be refused before anything is made.
    let status = unsafe { navstar_world_create(ptr::null(), ptr::null_mut()) };
    assert_status(status, NULL_ARGUMENT, &["out_world"]);
    // SAFETY: NULL does nothing; a NULL world has no tiles.
    unsafe { navstar_world_free(ptr::null_mut()) };
    // SAFETY: as above.
    assert_eq!(unsafe { navstar_world_tile_count(ptr::null()) }, 0);
    // SAFETY: navstar_status_name returns a static string.
    let name = unsafe { std::ffi::CStr::from_ptr(navstar_status_name(STALE_REFERENCE as i32)) };
    assert_eq!(name.to_str().unwrap(), "NAVSTAR_ERROR_STALE_REFERENCE");
    assert_eq!(STALE_REFERENCE as i32, -7);
}

#[test]
fn huge_max_tiles_are_refused_and_the_largest_limits_tile_size() {
    let mut options = navstar_world_options_default();
    for max_tiles in [1 << 17, 1 << 31] {
        options.max_tiles = max_tiles;
        let (status, _world) = create(Some(&options));
        assert_status(status, INVALID_ARGUMENT, &["max_tiles", "65536"]);
    }
    // 65536 slots leave 16 bits per tile: 65535 elements of each kind at most.
    options.max_tiles = 1 << 16;
    let (status, world) = create(Some(&options));
    assert_status(status, OK, &[]);
    assert_eq!(add_ok(&world, &tile_a()).slot, 0);
    // A checkerboard of 256 x 256 cells: 32768 squares, 131072 corners.
    let cells: Vec<u8> = (0..256 * 256)
        .map(|k| ((k / 256 + k % 256) % 2) as u8)
        .collect();
    let large = grid_tile(256, 256, &cells, 10.0, 0.0);
    let (status, _) = add(&world, &large);
    assert_status(
        status,
        INVALID_ARGUMENT,
        &["navstar_world_add_tile", "65535"],
    );
    assert_eq!(tiles(&world).len(), 1);
}

#[test]
fn null_arguments_are_refused_by_name() {
    let world = new_world();
    let tile = tile_a();
    let null_world = World(ptr::null_mut());
    let null_mesh = Mesh(ptr::null_mut());
    let (status, _) = add(&null_world, &tile);
    assert_status(status, NULL_ARGUMENT, &["navstar_world_add_tile", "world"]);
    let (status, _) = add(&world, &null_mesh);
    assert_status(status, NULL_ARGUMENT, &["tile"]);
    // SAFETY: a NULL out pointer must be refused.
    let status = unsafe { navstar_world_add_tile(world.0, tile.0, ptr::null_mut()) };
    assert_status(status, NULL_ARGUMENT, &["out_tile"]);
    assert_eq!(
        remove(&null_world, NavstarTileRef::default()),
        NULL_ARGUMENT
    );
    let mut out = ptr::null_mut();
    // SAFETY: a NULL world must be refused; `out` is writable.
    let status = unsafe { navstar_world_snapshot(ptr::null(), &mut out) };
    assert_status(status, NULL_ARGUMENT, &["world"]);
    assert!(out.is_null());
    // SAFETY: a NULL out pointer must be refused.
    let status = unsafe { navstar_world_snapshot(world.0, ptr::null_mut()) };
    assert_status(status, NULL_ARGUMENT, &["out_mesh"]);
    let added = add_ok(&world, &tile);
    let mut replaced = added;
    // SAFETY: a NULL mesh must be refused; `replaced` is writable.
    let status = unsafe { navstar_world_replace_tile(world.0, added, ptr::null(), &mut replaced) };
    assert_status(status, NULL_ARGUMENT, &["mesh"]);
    assert_eq!(replaced, NavstarTileRef::default());
    // SAFETY: a NULL count pointer must be refused.
    let status = unsafe { navstar_world_tiles(world.0, ptr::null_mut(), 0, ptr::null_mut()) };
    assert_status(status, NULL_ARGUMENT, &["out_count"]);
    let mut count = 0;
    // SAFETY: NULL with a capacity > 0 must be refused.
    let status = unsafe { navstar_world_tiles(world.0, ptr::null_mut(), 2, &mut count) };
    assert_status(status, NULL_ARGUMENT, &["out_tiles"]);
    let snap = snapshot(&world);
    // SAFETY: NULL out pointers: refused (polygon_ref) or not wanted (resolve).
    let status = unsafe { navstar_mesh_polygon_ref(snap.0, 0, ptr::null_mut()) };
    assert_status(status, NULL_ARGUMENT, &["out_ref"]);
    let (status, reference) = polygon_ref(&snap, 0);
    assert_status(status, OK, &[]);
    // SAFETY: `out_polygon` is optional.
    let status = unsafe { navstar_mesh_resolve_polygon_ref(snap.0, reference, ptr::null_mut()) };
    assert_status(status, OK, &[]);
    let (status, _) = resolve(&null_mesh, reference);
    assert_status(status, NULL_ARGUMENT, &["mesh"]);
}

#[test]
fn a_path_crosses_the_seam_of_two_tiles() {
    let world = new_world();
    let (a, b) = (tile_a(), tile_b());
    let ta = add_ok(&world, &a);
    let tb = add_ok(&world, &b);
    assert_eq!(last_error(), "");
    assert_ne!(ta.world, 0);
    assert_eq!(ta.world, tb.world);
    assert_ne!(ta.slot, tb.slot);
    // SAFETY: a live world.
    assert_eq!(unsafe { navstar_world_tile_count(world.0) }, 2);
    assert_eq!(tiles(&world), vec![ta, tb]);
    let snap = snapshot(&world);
    assert_eq!(snap.polygon_count(), a.polygon_count() + b.polygon_count());
    let (status, corners) = path(&snap, ACROSS[0], ACROSS[3]);
    assert_status(status, OK, &[]);
    assert_corners(&corners, &ACROSS);
    // The tiles were copied: freeing them changes nothing.
    drop((a, b));
    let (status, corners) = path(&snapshot(&world), ACROSS[3], ACROSS[0]);
    assert_status(status, OK, &[]);
    assert_eq!(corners.len(), 4);
}

#[test]
fn removed_tiles_leave_new_snapshots_and_stay_in_old_ones() {
    let world = new_world();
    let (a, b) = (tile_a(), tile_b());
    let ta = add_ok(&world, &a);
    let tb = add_ok(&world, &b);
    let before = snapshot(&world);
    assert_status(remove(&world, tb), OK, &[]);
    let after = snapshot(&world);
    assert_eq!(after.polygon_count(), a.polygon_count());
    assert_eq!(tiles(&world), vec![ta]);
    // The old snapshot still crosses; the new one cannot reach B.
    let (status, corners) = path(&before, ACROSS[0], ACROSS[3]);
    assert_status(status, OK, &[]);
    assert_corners(&corners, &ACROSS);
    // The goal, off the mesh now, snaps to the nearest point of tile A.
    let (status, corners) = path(&after, ACROSS[0], ACROSS[3]);
    assert_status(status, OK, &[]);
    assert_corners(&corners[corners.len() - 1..], &[[2.0, 0.0, 1.0]]);
    // Removing twice: stale, naming the tile and both generations.
    let status = remove(&world, tb);
    assert_status(
        status,
        STALE_REFERENCE,
        &["navstar_world_remove_tile", &format!("slot {}", tb.slot)],
    );
    assert!(last_error().contains(&format!("{}", tb.generation)));
    // The slot is filled again in a new generation; the old reference stays stale.
    let again = add_ok(&world, &b);
    assert_eq!(again.slot, tb.slot);
    assert!(again.generation > tb.generation);
    assert_status(remove(&world, tb), STALE_REFERENCE, &[]);
    let message = last_error();
    assert!(
        message.contains(&tb.generation.to_string())
            && message.contains(&again.generation.to_string()),
        "{message}"
    );
    assert_status(remove(&world, again), OK, &[]);
    assert_status(remove(&world, ta), OK, &[]);
    let empty = snapshot(&world);
    assert_eq!((empty.polygon_count(), empty.polygon_ids()), (0, vec![]));
    assert_eq!(tiles(&world), vec![]);
}

#[test]
fn foreign_and_made_up_tile_references_are_refused() {
    let (one, two) = (new_world(), new_world());
    let tile = tile_a();
    let mine = add_ok(&one, &tile);
    let theirs = add_ok(&two, &tile);
    assert_eq!(
        (mine.slot, mine.generation),
        (theirs.slot, theirs.generation)
    );
    assert_ne!(mine.world, theirs.world);
    assert_status(
        remove(&one, theirs),
        STALE_REFERENCE,
        &[&format!("world {}", theirs.world)],
    );
    assert_status(
        remove(&one, NavstarTileRef::default()),
        STALE_REFERENCE,
        &[],
    );
    let beyond = NavstarTileRef {
        slot: u32::MAX,
        ..mine
    };
    assert_status(
        remove(&one, beyond),
        STALE_REFERENCE,
        &[&format!("slot {}", u32::MAX), "empty"],
    );
    let wrong_generation = NavstarTileRef {
        generation: mine.generation + 5,
        ..mine
    };
    assert_status(remove(&one, wrong_generation), STALE_REFERENCE, &[]);
    let mut out = mine;
    // SAFETY: live handles; `out` is writable.
    let status = unsafe { navstar_world_replace_tile(one.0, theirs, tile.0, &mut out) };
    assert_status(status, STALE_REFERENCE, &["navstar_world_replace_tile"]);
    assert_eq!(out, NavstarTileRef::default());
    // Both worlds are unchanged.
    assert_eq!(tiles(&one), vec![mine]);
    assert_eq!(tiles(&two), vec![theirs]);
}

#[test]
fn replacing_a_tile_makes_references_into_the_old_one_stale() {
    let world = new_world();
    let a = tile_a();
    let tb = add_ok(&world, &tile_b());
    let ta = add_ok(&world, &a);
    let old = snapshot(&world);
    // A reference to each polygon of the old snapshot.
    let refs: Vec<(u32, u64)> = old
        .polygon_ids()
        .into_iter()
        .map(|p| {
            let (status, r) = polygon_ref(&old, p);
            assert_status(status, OK, &[]);
            assert_eq!(resolve(&old, r), (OK, p));
            (p, r)
        })
        .collect();
    // Replace A by a full 2 x 2 tile: the path no longer turns.
    let full = grid_tile(2, 2, &[1; 4], 0.0, 0.0);
    let mut new_a = NavstarTileRef::default();
    // SAFETY: live handles; `new_a` is writable.
    let status = unsafe { navstar_world_replace_tile(world.0, ta, full.0, &mut new_a) };
    assert_status(status, OK, &[]);
    assert_eq!((new_a.world, new_a.slot), (ta.world, ta.slot));
    assert!(new_a.generation > ta.generation);
    assert_status(remove(&world, ta), STALE_REFERENCE, &[]);
    let new = snapshot(&world);
    let (status, corners) = path(&new, ACROSS[0], ACROSS[3]);
    assert_status(status, OK, &[]);
    assert_eq!(corners.len(), 2);
    // References into B resolve to the same place; into the old A they are stale.
    let mut stale = 0;
    for (p, r) in refs {
        let (status, polygon) = resolve(&new, r);
        if status == OK {
            let (_, again) = polygon_ref(&new, polygon);
            assert_eq!(again, r, "polygon {p} of tile B moved");
        } else {
            assert_status(
                status,
                STALE_REFERENCE,
                &[
                    "navstar_mesh_resolve_polygon_ref",
                    &ta.generation.to_string(),
                    &new_a.generation.to_string(),
                ],
            );
            assert_eq!(polygon, NAVSTAR_NO_POLYGON);
            stale += 1;
        }
    }
    assert_eq!(stale, a.polygon_count());
    // The old snapshot still answers for the old references.
    assert_eq!(tiles(&world), vec![tb, new_a]);
    // Beyond the polygons: refused by name.
    let (status, r) = polygon_ref(&new, u32::MAX);
    assert_status(status, INVALID_ARGUMENT, &["polygon"]);
    assert_eq!(r, 0);
}

#[test]
fn threads_query_snapshots_while_a_writer_changes_the_world() {
    let world = new_world();
    let (a, b) = (tile_a(), tile_b());
    add_ok(&world, &a);
    let tb = add_ok(&world, &b);
    let (pa, pb) = (a.polygon_count(), b.polygon_count());
    std::thread::scope(|scope| {
        let writer = scope.spawn(|| {
            let mut tb = tb;
            for round in 0..40 {
                if round % 2 == 0 {
                    assert_status(remove(&world, tb), OK, &[]);
                } else {
                    tb = add_ok(&world, &b);
                }
            }
        });
        for _ in 0..3 {
            scope.spawn(|| {
                for _ in 0..40 {
                    let snap = snapshot(&world);
                    let (status, corners) = path(&snap, ACROSS[0], ACROSS[3]);
                    if snap.polygon_count() == pa + pb {
                        assert_status(status, OK, &[]);
                        assert_corners(&corners, &ACROSS);
                    } else {
                        assert_eq!(snap.polygon_count(), pa);
                        assert_status(status, OK, &[]);
                        assert_corners(&corners[corners.len() - 1..], &[[2.0, 0.0, 1.0]]);
                    }
                }
            });
        }
        writer.join().unwrap();
    });
}
