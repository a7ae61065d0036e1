//! Saving a mesh in navstar's binary format (`.navstar`) into the caller's buffer, and
//! loading one from a file or a byte buffer.

use std::ffi::{CStr, c_char};

use super::boundary::{FfiError, OutCount, non_null, read_array, run};
use super::handle::{self, HandleOut, NavstarMesh};
use super::status::NavstarStatus;
use crate::io::{LoadError, load_navstar_bytes};
use crate::{BinaryError, FORMAT_VERSION, NavMesh};

/// The version of the binary format that `navstar_mesh_save` writes and the loaders
/// read (bytes 8 to 11 of a `.navstar` file, little endian).
pub const NAVSTAR_FORMAT_VERSION: u32 = 2;
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
        let bytes = mesh.to_bytes();
        if u32::try_from(bytes.len()).is_err() {
            return Err(FfiError::invalid("the saved mesh is larger than 4 GiB"));
        }
        Ok(out.write(bytes.into_iter()))
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
        let path = non_null(path, "path")?;
        // SAFETY: the caller promised a NUL-terminated string at `path` (non-NULL here).
        let path = unsafe { CStr::from_ptr(path) };
        let path = path_of(path)?;
        let bytes = std::fs::read(&path)
            .map_err(|e| FfiError::invalid(format!("cannot read '{}': {e}", path.display())))?;
        out_mesh.give(load(&bytes)?);
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

/// Loads the bytes; a refusal is an [`FfiError`] with the loader's message.
fn load(bytes: &[u8]) -> Result<NavMesh, FfiError> {
    match load_navstar_bytes(bytes) {
        Ok(mesh) => Ok(mesh),
        Err(LoadError::Binary(BinaryError::Mesh(e))) => Err(e.into()),
        Err(e) => Err(FfiError::new(
            NavstarStatus::NavstarErrorInvalidMesh,
            e.to_string(),
        )),
    }
}

/// The file path a C string names.
fn path_of(path: &CStr) -> Result<std::path::PathBuf, FfiError> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        Ok(std::ffi::OsStr::from_bytes(path.to_bytes()).into())
    }
    #[cfg(not(unix))]
    {
        path.to_str()
            .map(Into::into)
            .map_err(|_| FfiError::invalid("path is not UTF-8"))
    }
}
