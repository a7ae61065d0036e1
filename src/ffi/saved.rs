//! Saving a mesh in navstar's binary format (`.navstar`), or a world in the world format,
//! into the caller's buffer, and loading one from a file or a byte buffer.

use std::ffi::c_char;

use super::boundary::{FfiError, OutCount, OutSlice, read_array, run};
use super::handle::{self, HandleOut, NavstarMesh, NavstarWorld, WorldState};
use super::load::c_path;
use super::status::NavstarStatus;
use crate::io::{LoadError, load_navstar_bytes};
use crate::{BinaryError, FORMAT_VERSION, NavMesh, World};

/// The version of the binary format that `navstar_mesh_save` writes (bytes 8 to 11 of
/// a `.navstar` file, little endian); the loaders read it and version 2 (files without
/// the fast lane's index).
pub const NAVSTAR_FORMAT_VERSION: u32 = 3;
const _: () = assert!(NAVSTAR_FORMAT_VERSION == FORMAT_VERSION);

/// Writes a mesh in navstar's binary format (`.navstar`: polygons, areas, current flags,
/// off-mesh links and the tables derived from them) into `buffer`.
///
/// * `mesh` (in): the mesh.
/// * `buffer` (out): room for `capacity` bytes; may be NULL when `capacity` is 0 (to
///   ask for the size alone).
/// * `out_size` (out): the full size of the saved mesh, in bytes.
///
/// Returns `NAVSTAR_BUFFER_TOO_SMALL` when the bytes do not fit: the first `capacity`
/// bytes were written and `*out_size` holds the size needed (call again with that
/// capacity). A mesh of more than 4 GiB is `NAVSTAR_ERROR_INVALID_ARGUMENT`.
///
/// # Safety
/// `mesh` must be NULL or a live mesh; `buffer` NULL or writable for `capacity` bytes;
/// `out_size` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_mesh_save(
    mesh: *const NavstarMesh,
    buffer: *mut u8,
    capacity: u32,
    out_size: *mut u32,
) -> NavstarStatus {
    run("navstar_mesh_save", || {
        let out = OutCount::named(buffer, capacity, out_size, "out_size")?.check_room("buffer")?;
        let mesh = handle::borrow(mesh, "mesh")?;
        write_saved(out, mesh.to_bytes()?, "mesh")
    })
}

/// Loads a mesh saved by `navstar_mesh_save` (or `navstar save`) from the file `path`.
///
/// * `path` (in): a NUL-terminated file path (UTF-8 on Windows; bytes elsewhere).
/// * `out_mesh` (out): the new mesh on success, NULL on any error. Release it with
///   `navstar_mesh_free`.
///
/// The bytes are never trusted: every table is checked against the polygons. A file
/// that cannot be read is `NAVSTAR_ERROR_INVALID_ARGUMENT`; a refused file is
/// `NAVSTAR_ERROR_INVALID_MESH` with a message naming the section, record and byte
/// offset.
///
/// # Safety
/// `path` must be NULL or a NUL-terminated string; `out_mesh` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_mesh_load_navstar(
    path: *const c_char,
    out_mesh: *mut *mut NavstarMesh,
) -> NavstarStatus {
    run("navstar_mesh_load_navstar", || {
        let out_mesh = HandleOut::new(out_mesh, "out_mesh")?;
        out_mesh.give(load(&read_file(path)?)?);
        Ok(NavstarStatus::NavstarOk)
    })
}

/// Loads a mesh saved by `navstar_mesh_save` from `size` bytes at `bytes` (which the
/// caller keeps; they are not used after the call).
///
/// * `bytes` (in): may be NULL only when `size` is 0 (which is refused as truncated).
/// * `out_mesh` (out): as for `navstar_mesh_load_navstar`.
///
/// # Safety
/// `bytes` must be NULL or readable for `size` bytes; `out_mesh` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_mesh_load_navstar_bytes(
    bytes: *const u8,
    size: u32,
    out_mesh: *mut *mut NavstarMesh,
) -> NavstarStatus {
    run("navstar_mesh_load_navstar_bytes", || {
        let out_mesh = HandleOut::new(out_mesh, "out_mesh")?;
        let bytes = read_array(bytes, size as usize, "bytes")?;
        out_mesh.give(load(&bytes)?);
        Ok(NavstarStatus::NavstarOk)
    })
}

/// Writes a saved mesh or world (`what`) into the caller's buffer.
fn write_saved(out: OutSlice<u8>, bytes: Vec<u8>, what: &str) -> Result<NavstarStatus, FfiError> {
    if u32::try_from(bytes.len()).is_err() {
        return Err(FfiError::invalid(format!(
            "the saved {what} is larger than 4 GiB"
        )));
    }
    Ok(out.write(bytes.into_iter()))
}

/// The bytes of the file a C path names.
fn read_file(path: *const c_char) -> Result<Vec<u8>, FfiError> {
    let path = c_path(path)?;
    std::fs::read(&path)
        .map_err(|e| FfiError::invalid(format!("cannot read '{}': {e}", path.display())))
}

/// Loads the bytes; a refusal is an [`FfiError`] with the loader's message.
fn load(bytes: &[u8]) -> Result<NavMesh, FfiError> {
    load_navstar_bytes(bytes).map_err(|e| match e {
        LoadError::Binary(BinaryError::Mesh(e)) => e.into(),
        e => FfiError::new(NavstarStatus::NavstarErrorInvalidMesh, e.to_string()),
    })
}

/// Writes a world in the world format (`World::to_bytes`: its options, and each tile's
/// slot, generation and binary image with its current flags) into `buffer`.
///
/// * `world` (in): the world.
/// * `buffer` (out): room for `capacity` bytes; may be NULL when `capacity` is 0 (to
///   ask for the size alone).
/// * `out_size` (out): the full size of the saved world, in bytes.
///
/// Returns `NAVSTAR_BUFFER_TOO_SMALL` when the bytes do not fit: the first `capacity`
/// bytes were written and `*out_size` holds the size needed (call again with that
/// capacity; a tile changed in between may change the size). A world of more than
/// 4 GiB is `NAVSTAR_ERROR_INVALID_ARGUMENT`.
///
/// # Safety
/// `world` must be NULL or a live world; `buffer` NULL or writable for `capacity`
/// bytes; `out_size` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_world_save(
    world: *const NavstarWorld,
    buffer: *mut u8,
    capacity: u32,
    out_size: *mut u32,
) -> NavstarStatus {
    run("navstar_world_save", || {
        let out = OutCount::named(buffer, capacity, out_size, "out_size")?.check_room("buffer")?;
        let state = handle::borrow(world, "world")?;
        write_saved(out, state.world.to_bytes(), "world")
    })
}

/// Loads a world saved by `navstar_world_save` from the file `path`: the same options,
/// and each tile back in its slot with its generation, so that polygon references made
/// before saving resolve in it. Tile references (`NavstarTileRef`) carry their world:
/// get the loaded world's with `navstar_world_tiles`.
///
/// * `path` (in): a NUL-terminated file path (UTF-8 on Windows; bytes elsewhere).
/// * `out_world` (out): the new world on success, NULL on any error. Release it with
///   `navstar_world_free`.
///
/// The bytes are never trusted: the checksum, every tile as strictly as
/// `navstar_mesh_load_navstar_bytes` checks a mesh, the slots and options. A file that
/// cannot be read is `NAVSTAR_ERROR_INVALID_ARGUMENT`; a refused file is
/// `NAVSTAR_ERROR_INVALID_MESH` with a message naming the section, record and byte
/// offset.
///
/// # Safety
/// `path` must be NULL or a NUL-terminated string; `out_world` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_world_load(
    path: *const c_char,
    out_world: *mut *mut NavstarWorld,
) -> NavstarStatus {
    run("navstar_world_load", || {
        let out_world = HandleOut::new(out_world, "out_world")?;
        out_world.give(load_world(&read_file(path)?)?);
        Ok(NavstarStatus::NavstarOk)
    })
}

/// Loads a world saved by `navstar_world_save` from `size` bytes at `bytes` (which the
/// caller keeps; they are not used after the call).
///
/// * `bytes` (in): may be NULL only when `size` is 0 (which is refused as truncated).
/// * `out_world` (out): as for `navstar_world_load`.
///
/// # Safety
/// `bytes` must be NULL or readable for `size` bytes; `out_world` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_world_load_bytes(
    bytes: *const u8,
    size: u32,
    out_world: *mut *mut NavstarWorld,
) -> NavstarStatus {
    run("navstar_world_load_bytes", || {
        let out_world = HandleOut::new(out_world, "out_world")?;
        let bytes = read_array(bytes, size as usize, "bytes")?;
        out_world.give(load_world(&bytes)?);
        Ok(NavstarStatus::NavstarOk)
    })
}

/// Loads a world's bytes into a new handle's state.
fn load_world(bytes: &[u8]) -> Result<WorldState, FfiError> {
    World::from_bytes(bytes)
        .map(WorldState::new)
        .map_err(|e| match e {
            BinaryError::Mesh(e) => e.into(),
            e => FfiError::new(
                NavstarStatus::NavstarErrorInvalidMesh,
                format!("invalid world file: {e}"),
            ),
        })
}
