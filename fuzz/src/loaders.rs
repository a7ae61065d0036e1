//! The C loaders (`navstar_mesh_load_bytes`, `navstar_mesh_load`) against the Rust
//! loaders (`navstar::io::load_mesh`, `load_mesh_file`): the same accept or refuse, the
//! same status and message, and the same mesh (saved bytes equal), with any options
//! struct, format value and path.

use std::ffi::CString;
use std::fs::File;
use std::io::BufReader;
use std::path::Path;
use std::ptr::{self, NonNull};

use navstar::ffi::{
    NAVSTAR_FORMAT_AUTO, NAVSTAR_FORMAT_DETOUR, NAVSTAR_FORMAT_MOVINGAI_MAP,
    NAVSTAR_FORMAT_NAVSTAR, NAVSTAR_FORMAT_OBJ, NAVSTAR_FORMAT_POLYANYA_MESH, NavstarMesh,
    NavstarMeshOptions, NavstarStatus, navstar_mesh_load, navstar_mesh_load_bytes,
    navstar_mesh_save,
};
use navstar::io::{LoadError, MeshFormat, load_mesh, load_mesh_file};
use navstar::{BinaryError, MeshOptions, NavMesh};

use crate::{
    CMesh, Expect, INVALID_ARGUMENT, INVALID_MESH, MeshOpts, NULL_ARGUMENT, OK, finish_create,
    mesh_status,
};

/// The C constant of a Rust format.
pub fn c_format(format: MeshFormat) -> u32 {
    match format {
        MeshFormat::Obj => NAVSTAR_FORMAT_OBJ,
        MeshFormat::PolyanyaMesh => NAVSTAR_FORMAT_POLYANYA_MESH,
        MeshFormat::MovingAiMap => NAVSTAR_FORMAT_MOVINGAI_MAP,
        MeshFormat::Navstar => NAVSTAR_FORMAT_NAVSTAR,
        MeshFormat::Detour => NAVSTAR_FORMAT_DETOUR,
        other => panic!("no C constant for {other:?}"),
    }
}

/// The Rust format a C value other than AUTO names, if any.
pub fn rust_format(format: u32) -> Option<MeshFormat> {
    MeshFormat::ALL
        .iter()
        .copied()
        .find(|&f| c_format(f) == format)
}

/// The status the C loaders give for a Rust loader's refusal (as documented at
/// `navstar_mesh_load`).
pub fn load_status(error: &LoadError) -> NavstarStatus {
    match error {
        LoadError::Io { .. } | LoadError::UnknownFormat { .. } => INVALID_ARGUMENT,
        LoadError::Mesh(e) | LoadError::Binary(BinaryError::Mesh(e)) => mesh_status(e),
        _ => INVALID_MESH,
    }
}

/// The saved bytes of a C mesh (`navstar_mesh_save`, two calls).
pub fn c_saved(mesh: &CMesh) -> Vec<u8> {
    let mut size = 0u32;
    // SAFETY: a live mesh; NULL with capacity 0 asks for the size.
    unsafe { navstar_mesh_save(mesh.as_ptr(), ptr::null_mut(), 0, &mut size) };
    let mut bytes = vec![0u8; size as usize];
    // SAFETY: room for `size` bytes.
    let status = unsafe { navstar_mesh_save(mesh.as_ptr(), bytes.as_mut_ptr(), size, &mut size) };
    assert_eq!(status, OK, "a loaded mesh saves");
    bytes
}

/// Checks a C answer against the Rust loader's: a refusal with the same status and the
/// message `{function}: {prefix}{error}`, or the same mesh.
#[track_caller]
fn compare(
    function: &str,
    c: (NavstarStatus, Option<CMesh>),
    rust: Result<NavMesh, LoadError>,
    prefix: &str,
) {
    let (status, mesh) = c;
    let message = crate::last_error();
    match rust {
        Ok(rust) => {
            assert_eq!(status, OK, "the Rust loader accepted; C said {message}");
            let mesh = mesh.expect("a mesh with NAVSTAR_OK");
            match rust.to_bytes() {
                Ok(want) => assert_eq!(c_saved(&mesh), want, "C and Rust loaded different meshes"),
                // A Detour set loads as a world's snapshot, which has no saved form:
                // compare its counts instead.
                Err(_) => assert_eq!(
                    (mesh.polygon_count(), mesh.vertex_count()),
                    (rust.polygon_count(), rust.vertex_count()),
                    "C and Rust loaded different meshes"
                ),
            }
        }
        Err(e) => {
            assert_eq!(status, load_status(&e), "Rust said {e}; C said {message}");
            assert_eq!(message, format!("{function}: {prefix}{e}"));
        }
    }
}

/// `navstar_mesh_load_bytes(bytes, format, options)` against `load_mesh`.
pub fn check_load_bytes(bytes: &[u8], format: u32, options: &MeshOpts) {
    let c_options = options.to_c();
    let mut out: *mut NavstarMesh = NonNull::dangling().as_ptr();
    // SAFETY: `bytes` is readable for its length; the options are NULL or a whole struct.
    let status = unsafe {
        navstar_mesh_load_bytes(
            bytes.as_ptr(),
            bytes.len() as u32,
            format,
            c_options.as_ref().map_or(ptr::null(), ptr::from_ref),
            &mut out,
        )
    };
    let function = "navstar_mesh_load_bytes";
    let c = (status, finish_create(function, status, out));
    let Some(options) = options_or_refused(function, c.0, options) else {
        return;
    };
    let Some(rust_format) = rust_format(format) else {
        assert_eq!(c.0, INVALID_ARGUMENT);
        assert!(crate::last_error().contains("format is"));
        return;
    };
    compare(function, c, load_mesh(bytes, rust_format, &options), "");
}

/// The options the C call ran with: `None` (after checking the refusal, or for options
/// whose outcome the harness cannot tell) when they are not known to be valid.
fn options_or_refused(
    function: &str,
    status: NavstarStatus,
    options: &MeshOpts,
) -> Option<MeshOptions> {
    match options.expected() {
        Expect::Reject => {
            assert_eq!(status, INVALID_ARGUMENT, "{function}: bad options accepted");
            assert!(crate::last_error().contains("options"));
            None
        }
        Expect::Unknown(_) => None,
        Expect::Accept(options) => Some(options),
    }
}

/// `navstar_mesh_load(path, format, options)` against `load_mesh_file` (`AUTO`) or
/// `load_mesh` on the opened file; `path` NULL when `None`.
pub fn check_load_file(path: Option<&Path>, format: u32, options: &MeshOpts) {
    let c_options: Option<NavstarMeshOptions> = options.to_c();
    let c_path = path.map(|p| CString::new(p.as_os_str().as_encoded_bytes()).expect("no NUL"));
    let mut out: *mut NavstarMesh = NonNull::dangling().as_ptr();
    // SAFETY: the path is NULL or NUL-terminated; the options NULL or a whole struct.
    let status = unsafe {
        navstar_mesh_load(
            c_path.as_ref().map_or(ptr::null(), |p| p.as_ptr()),
            format,
            c_options.as_ref().map_or(ptr::null(), ptr::from_ref),
            &mut out,
        )
    };
    let function = "navstar_mesh_load";
    let c = (status, finish_create(function, status, out));
    let Some(options) = options_or_refused(function, c.0, options) else {
        return;
    };
    let Some(path) = path else {
        assert_eq!(c.0, NULL_ARGUMENT);
        assert_eq!(crate::last_error(), "navstar_mesh_load: path is NULL");
        return;
    };
    let shown = format!("'{}': ", path.display());
    if format == NAVSTAR_FORMAT_AUTO {
        let rust = load_mesh_file(path, &options);
        let prefix = match &rust {
            Err(LoadError::Io { .. } | LoadError::UnknownFormat { .. }) | Ok(_) => "",
            Err(_) => &shown,
        };
        return compare(function, c, rust, prefix);
    }
    let Some(rust_format) = rust_format(format) else {
        assert_eq!(c.0, INVALID_ARGUMENT);
        assert!(crate::last_error().contains("format is"));
        return;
    };
    let rust = File::open(path)
        .map_err(LoadError::from)
        .and_then(|file| load_mesh(BufReader::new(file), rust_format, &options));
    match rust {
        Err(LoadError::Io { source, .. }) => {
            assert_eq!(c.0, INVALID_ARGUMENT);
            let want = format!("{function}: cannot read '{}': {source}", path.display());
            assert_eq!(crate::last_error(), want);
        }
        rust => compare(function, c, rust, &shown),
    }
}
