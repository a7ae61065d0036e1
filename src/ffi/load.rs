//! Loading a mesh from a file or from a byte buffer in any format the Rust loaders read
//! (`crate::io`): Wavefront OBJ, Polyanya `.mesh` (versions 2 and 3), Moving AI grid
//! maps, navstar's binary format and Recast/Detour navmeshes. The format is named by a `NAVSTAR_FORMAT_*`
//! constant, or for files told by the extension (`NAVSTAR_FORMAT_AUTO`).

use std::ffi::{CStr, c_char};
use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use super::boundary::{FfiError, non_null, read_array};
use super::handle::NavstarMesh;
use super::mesh::create_mesh;
use super::options::NavstarMeshOptions;
use super::status::NavstarStatus;
use crate::BinaryError;
use crate::io::{LoadError, MeshFormat, load_mesh, load_mesh_file};

/// `navstar_mesh_load`: the format is told by the file name's extension (any case):
/// `.obj`, `.mesh`, `.map`, `.navstar` or `.bin` (Detour). Not accepted by `navstar_mesh_load_bytes`.
pub const NAVSTAR_FORMAT_AUTO: u32 = 0;
/// Wavefront OBJ: 3D polygons (`v` and `f` lines), built with the options' up axis.
pub const NAVSTAR_FORMAT_OBJ: u32 = 1;
/// Polyanya navigation mesh (`.mesh`, versions 2 and 3): 2D convex polygons, built Z up
/// with z = 0 whatever the options' up axis.
pub const NAVSTAR_FORMAT_POLYANYA_MESH: u32 = 2;
/// Moving AI grid map (`.map`): passable cells merged into rectangles, unit cells, built
/// Z up with z = 0 whatever the options' up axis; cell (x, y) covers [x, x+1] * [y, y+1].
pub const NAVSTAR_FORMAT_MOVINGAI_MAP: u32 = 3;
/// navstar's binary format (`.navstar`, `navstar_mesh_save`): the file fixes every
/// option, so the options argument is ignored (but still checked).
pub const NAVSTAR_FORMAT_NAVSTAR: u32 = 4;
/// Recast/Detour navmesh (`.bin`): one tile's data as `dtCreateNavMeshData` makes it, or
/// RecastDemo's multi-tile set file (its tiles stitched into one mesh, a world's
/// snapshot); built Y up whatever the options' up axis. Areas, 16-bit flags and off-mesh
/// connections are kept. Errors name the field and byte offset.
pub const NAVSTAR_FORMAT_DETOUR: u32 = 5;

/// Loads a mesh from the file `path` in the format `format`.
///
/// * `path` (in): a NUL-terminated file path (UTF-8 on Windows; any bytes elsewhere, as
///   the file system takes them).
/// * `format` (in): a `NAVSTAR_FORMAT_*` constant; `NAVSTAR_FORMAT_AUTO` tells it from
///   the extension.
/// * `options` (in, optional): NULL for defaults; see the format constants for what
///   each format takes from them.
/// * `out_mesh` (out): the new mesh on success, NULL on any error. Release it with
///   `navstar_mesh_free`.
///
/// The file is read once, streaming, and closed before the call returns. Errors:
/// `NAVSTAR_ERROR_INVALID_ARGUMENT` for an unknown format value, an extension `AUTO`
/// does not know, or a file that cannot be opened or read (the message names the file
/// and the system's reason); `NAVSTAR_ERROR_INVALID_MESH` for text that does not follow
/// the format (the message gives the file and the 1-based line: `'a.obj': line 7:
/// ...`), polygons the builder refuses (the message names the polygon, counted from 0
/// in file order) or a refused binary file (section, record and byte offset);
/// `NAVSTAR_ERROR_OUT_OF_MEMORY` when the mesh does not fit in memory.
///
/// # Safety
/// `path` must be NULL or a NUL-terminated string; `options` NULL or a readable struct
/// of its `struct_size`; `out_mesh` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_mesh_load(
    path: *const c_char,
    format: u32,
    options: *const NavstarMeshOptions,
    out_mesh: *mut *mut NavstarMesh,
) -> NavstarStatus {
    create_mesh("navstar_mesh_load", options, out_mesh, |options| {
        let path = c_path(path)?;
        let loaded = match format {
            NAVSTAR_FORMAT_AUTO => load_mesh_file(&path, &options),
            other => {
                let format = known_format(other)?;
                File::open(&path)
                    .map_err(LoadError::from)
                    .and_then(|file| load_mesh(BufReader::new(file), format, &options))
            }
        };
        loaded.map_err(|e| load_error(e, Some(&path)))
    })
}

/// Loads a mesh from `size` bytes at `bytes` (the contents of a file) in the format
/// `format`. The bytes are copied; the caller may free them when the call returns.
///
/// * `bytes` (in): may be NULL only when `size` is 0 (an empty file).
/// * `format` (in): a `NAVSTAR_FORMAT_*` constant other than `NAVSTAR_FORMAT_AUTO`.
/// * `options`, `out_mesh`: as for `navstar_mesh_load`.
///
/// Errors as for `navstar_mesh_load`; parse errors give the line without a file name
/// (`line 7: ...`). `NAVSTAR_FORMAT_AUTO` is `NAVSTAR_ERROR_INVALID_ARGUMENT`: bytes have
/// no extension.
///
/// # Safety
/// `bytes` must be NULL or readable for `size` bytes; `options` NULL or a readable
/// struct of its `struct_size`; `out_mesh` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_mesh_load_bytes(
    bytes: *const u8,
    size: u32,
    format: u32,
    options: *const NavstarMeshOptions,
    out_mesh: *mut *mut NavstarMesh,
) -> NavstarStatus {
    create_mesh("navstar_mesh_load_bytes", options, out_mesh, |options| {
        let format = known_format(format)?;
        let bytes = read_array(bytes, size as usize, "bytes")?;
        load_mesh(&bytes[..], format, &options).map_err(|e| load_error(e, None))
    })
}

/// The Rust format a `NAVSTAR_FORMAT_*` value other than `AUTO` names.
fn known_format(format: u32) -> Result<MeshFormat, FfiError> {
    match format {
        NAVSTAR_FORMAT_OBJ => Ok(MeshFormat::Obj),
        NAVSTAR_FORMAT_POLYANYA_MESH => Ok(MeshFormat::PolyanyaMesh),
        NAVSTAR_FORMAT_MOVINGAI_MAP => Ok(MeshFormat::MovingAiMap),
        NAVSTAR_FORMAT_NAVSTAR => Ok(MeshFormat::Navstar),
        NAVSTAR_FORMAT_DETOUR => Ok(MeshFormat::Detour),
        NAVSTAR_FORMAT_AUTO => Err(FfiError::invalid(
            "format is NAVSTAR_FORMAT_AUTO (0), which needs a file name; \
             name the format of the bytes",
        )),
        other => Err(FfiError::invalid(format!(
            "format is {other}; expected NAVSTAR_FORMAT_OBJ (1), NAVSTAR_FORMAT_POLYANYA_MESH \
             (2), NAVSTAR_FORMAT_MOVINGAI_MAP (3), NAVSTAR_FORMAT_NAVSTAR (4) or \
             NAVSTAR_FORMAT_DETOUR (5)"
        ))),
    }
}

/// The status and message of a loader's refusal: the message is the Rust error's, after
/// the file name when there is one (an I/O error and an unknown extension name the file
/// themselves: `cannot read 'a.obj': ...`).
pub(crate) fn load_error(error: LoadError, path: Option<&Path>) -> FfiError {
    let status = load_status(&error);
    let message = match (path, error) {
        (Some(path), LoadError::Io { path: None, source }) => LoadError::Io {
            path: Some(path.to_path_buf()),
            source,
        }
        .to_string(),
        (None, e) | (Some(_), e @ (LoadError::Io { .. } | LoadError::UnknownFormat { .. })) => {
            e.to_string()
        }
        (Some(path), e) => format!("'{}': {e}", path.display()),
    };
    FfiError::new(status, message)
}

/// The status a loader's refusal gives at the C boundary.
pub(crate) fn load_status(error: &LoadError) -> NavstarStatus {
    match error {
        LoadError::Io { .. } | LoadError::UnknownFormat { .. } => {
            NavstarStatus::NavstarErrorInvalidArgument
        }
        LoadError::Mesh(e) | LoadError::Binary(BinaryError::Mesh(e)) => e.into(),
        _ => NavstarStatus::NavstarErrorInvalidMesh,
    }
}

/// The file path a C string names; NULL is NULL_ARGUMENT naming `path`.
pub(crate) fn c_path(path: *const c_char) -> Result<PathBuf, FfiError> {
    let path = non_null(path, "path")?;
    // SAFETY: the caller promised a NUL-terminated string at `path` (non-NULL here).
    let path = unsafe { CStr::from_ptr(path) };
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
