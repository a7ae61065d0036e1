//! Saving a world into a caller buffer (the too-small rule) and loading it back from bytes
//! and from a file through the C ABI: slots, generations and polygon references survive;
//! damaged and forged files are refused with their statuses and messages. The tiles are
//! those of `world` (see its picture).

use std::ffi::CString;
use std::ptr::{self, NonNull};

use navstar::ffi::{
    NAVSTAR_UP_Z, NavstarStatus, NavstarTileRef, NavstarWorld, navstar_world_load,
    navstar_world_load_bytes, navstar_world_options_default, navstar_world_save,
};

use NavstarStatus::{
    NavstarBufferTooSmall as BUFFER_TOO_SMALL, NavstarErrorInvalidArgument as INVALID_ARGUMENT,
    NavstarErrorInvalidMesh as INVALID_MESH, NavstarErrorNullArgument as NULL_ARGUMENT,
    NavstarOk as OK,
};

use crate::assert_status;
use crate::world::{
    ACROSS, World, add_ok, assert_corners, create, new_world, path, polygon_ref, remove, resolve,
    snapshot, tile_a, tile_b, tiles,
};

/// Saves with the two-call pattern: the size first, then the bytes.
fn save(world: &World) -> Vec<u8> {
    let mut size = 0u32;
    // SAFETY: a live world; capacity 0 with NULL asks for the size.
    let status = unsafe { navstar_world_save(world.0, ptr::null_mut(), 0, &mut size) };
    assert_status(status, BUFFER_TOO_SMALL, &[]);
    let mut short = vec![0u8; size as usize - 1];
    let mut again = 0u32;
    // SAFETY: `short` has room for `size - 1` bytes.
    let status = unsafe { navstar_world_save(world.0, short.as_mut_ptr(), size - 1, &mut again) };
    assert_status(status, BUFFER_TOO_SMALL, &[]);
    assert_eq!(again, size);
    let mut bytes = vec![0u8; size as usize];
    // SAFETY: `bytes` has room for `size` bytes.
    let status = unsafe { navstar_world_save(world.0, bytes.as_mut_ptr(), size, &mut again) };
    assert_status(status, OK, &[]);
    assert_eq!(&short[..], &bytes[..short.len()]);
    bytes
}

fn load_bytes(bytes: &[u8]) -> (NavstarStatus, World) {
    let mut out: *mut NavstarWorld = NonNull::dangling().as_ptr();
    // SAFETY: `bytes` is readable for its length; `out` is writable.
    let status = unsafe { navstar_world_load_bytes(bytes.as_ptr(), bytes.len() as u32, &mut out) };
    assert_eq!(status == OK, !out.is_null());
    (status, World(out))
}

#[test]
fn a_saved_world_loads_with_its_slots_generations_and_references() {
    let world = new_world();
    let ta = add_ok(&world, &tile_a());
    let tb = add_ok(&world, &tile_b());
    // A gap and a second generation: slot 0 empty, slot 1 refilled.
    assert_status(remove(&world, ta), OK, &[]);
    assert_status(remove(&world, tb), OK, &[]);
    let tb = add_ok(&world, &tile_b());
    let ta = add_ok(&world, &tile_a());
    let snap = snapshot(&world);
    let ids = snap.polygon_ids();
    let refs: Vec<u64> = ids
        .iter()
        .map(|&p| {
            let (status, r) = polygon_ref(&snap, p);
            assert_status(status, OK, &[]);
            r
        })
        .collect();
    let bytes = save(&world);
    let (status, loaded) = load_bytes(&bytes);
    assert_status(status, OK, &[]);
    let listed = tiles(&loaded);
    assert_eq!(listed.len(), 2);
    let key = |t: &NavstarTileRef| (t.slot, t.generation);
    let mut want = vec![key(&ta), key(&tb)];
    want.sort();
    assert_eq!(listed.iter().map(key).collect::<Vec<_>>(), want);
    assert_ne!(listed[0].world, ta.world, "references carry their world");
    assert_eq!(save(&loaded), bytes);
    let loaded_snap = snapshot(&loaded);
    assert_eq!(loaded_snap.polygon_count(), snap.polygon_count());
    assert_eq!(loaded_snap.polygon_ids(), ids);
    for (p, r) in ids.iter().zip(&refs) {
        assert_eq!(resolve(&loaded_snap, *r), (OK, *p));
    }
    let (status, corners) = path(&loaded_snap, ACROSS[0], ACROSS[3]);
    assert_status(status, OK, &[]);
    assert_corners(&corners, &ACROSS);
    // From a file.
    let file = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("c_abi_world.navstar");
    std::fs::write(&file, &bytes).unwrap();
    let c_path = CString::new(file.to_str().unwrap()).unwrap();
    let mut from_file = ptr::null_mut();
    // SAFETY: a NUL-terminated path; `from_file` is writable.
    let status = unsafe { navstar_world_load(c_path.as_ptr(), &mut from_file) };
    assert_status(status, OK, &[]);
    let from_file = World(from_file);
    assert_eq!(save(&from_file), bytes);
}

#[test]
fn refused_world_files_name_the_problem_and_leave_no_world() {
    let mut options = navstar_world_options_default();
    options.up_axis = NAVSTAR_UP_Z;
    options.max_tiles = 4;
    let (status, world) = create(Some(&options));
    assert_status(status, OK, &[]);
    let empty = save(&world);
    let (status, loaded) = load_bytes(&empty);
    assert_status(status, OK, &[]);
    assert_eq!(save(&loaded), empty);
    let world = new_world();
    add_ok(&world, &tile_a());
    let mut bytes = save(&world);
    let last = bytes.len() - 1;
    bytes[last] ^= 0x40;
    let (status, _) = load_bytes(&bytes);
    assert_status(
        status,
        INVALID_MESH,
        &["navstar_world_load_bytes", "checksum"],
    );
    let (status, _) = load_bytes(&bytes[..20]);
    assert_status(status, INVALID_MESH, &["truncated"]);
    // A mesh file is not a world file.
    let (status, _) = load_bytes(b"NAVSTAR\0 and then some more bytes!");
    assert_status(status, INVALID_MESH, &["magic"]);
    let mut out = ptr::null_mut();
    // SAFETY: NULL pointers must be refused before any read.
    let status = unsafe { navstar_world_load(ptr::null(), &mut out) };
    assert_status(status, NULL_ARGUMENT, &["path"]);
    // SAFETY: as above.
    let status = unsafe { navstar_world_load_bytes(ptr::null(), 4, &mut out) };
    assert_status(status, NULL_ARGUMENT, &["bytes"]);
    let missing = CString::new("/nonexistent/dir/world.navstar").unwrap();
    // SAFETY: a NUL-terminated path; `out` is writable.
    let status = unsafe { navstar_world_load(missing.as_ptr(), &mut out) };
    assert_status(
        status,
        INVALID_ARGUMENT,
        &["/nonexistent/dir/world.navstar"],
    );
    assert!(out.is_null());
    let mut size = 0u32;
    // SAFETY: a NULL world must be refused.
    let status = unsafe { navstar_world_save(ptr::null(), ptr::null_mut(), 0, &mut size) };
    assert_status(status, NULL_ARGUMENT, &["world"]);
}

#[test]
fn a_world_snapshot_is_not_saved_as_a_mesh() {
    let world = new_world();
    add_ok(&world, &tile_a());
    add_ok(&world, &tile_b());
    let snapshot = snapshot(&world);
    let mut size = 7u32;
    let mut buffer = [0u8; 16];
    // SAFETY: a live snapshot; `buffer` has room for 16 bytes; `size` is writable.
    let status =
        unsafe { navstar::ffi::navstar_mesh_save(snapshot.0, buffer.as_mut_ptr(), 16, &mut size) };
    assert_status(
        status,
        INVALID_ARGUMENT,
        &["navstar_mesh_save", "snapshot of a world", "save the world"],
    );
    // The world itself saves.
    assert!(!save(&world).is_empty());
}
