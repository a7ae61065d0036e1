//! Contract-keeping wrappers over the C functions of the binary format
//! (`navstar_mesh_save`, `navstar_mesh_load_navstar_bytes`, `navstar_mesh_load_navstar`)
//! and the checks that tie them to the Rust API: the saved bytes are the Rust mesh's
//! `to_bytes`, the too-small rule holds, a load through C answers as the Rust loader.

use std::ffi::CString;
use std::path::PathBuf;
use std::ptr::{self, NonNull};

use navstar::NavMesh;
use navstar::ffi::{
    NavstarMesh, NavstarStatus, navstar_mesh_load_navstar, navstar_mesh_load_navstar_bytes,
    navstar_mesh_save,
};
use navstar::io::{LoadError, load_navstar_bytes};

use crate::{
    BUFFER_TOO_SMALL, CMesh, INVALID_MESH, NULL_ARGUMENT, OK, check_status_and_message,
    finish_create, last_error,
};

/// The byte every output buffer starts with; a written byte may equal it, so written
/// parts are compared with the expected bytes rather than with the guard.
const GUARD_BYTE: u8 = 0xa5;
/// Guard bytes after the capacity.
const GUARD: usize = 16;

/// How a save call passes its arguments.
#[derive(Debug, Clone, Copy)]
pub struct SaveCall {
    /// The capacity to pass.
    pub capacity: u32,
    /// Pass NULL as the buffer (with any capacity).
    pub buffer_null: bool,
    /// Pass NULL as `out_size`.
    pub size_null: bool,
    /// Pass NULL as the mesh.
    pub mesh_null: bool,
}

/// Calls `navstar_mesh_save` on `mesh` as `call` says and checks the answer against
/// `expected` (the Rust mesh's bytes): the statuses in their documented order, the size,
/// the first `min(capacity, size)` bytes equal to `expected`, nothing written past them
/// and nothing at all on error. Returns the status.
#[track_caller]
pub fn check_save(mesh: &CMesh, call: SaveCall, expected: &[u8]) -> NavstarStatus {
    let mut buffer = vec![GUARD_BYTE; call.capacity as usize + GUARD];
    let mut size = 0xdead_beef_u32;
    let buffer_ptr = if call.buffer_null {
        ptr::null_mut()
    } else {
        buffer.as_mut_ptr()
    };
    let size_ptr = if call.size_null {
        ptr::null_mut()
    } else {
        ptr::from_mut(&mut size)
    };
    let mesh_ptr = if call.mesh_null {
        ptr::null()
    } else {
        mesh.as_ptr()
    };
    // SAFETY: `mesh_ptr` NULL or live; the buffer NULL or `capacity + GUARD` bytes;
    // `size_ptr` NULL or writable.
    let status = unsafe { navstar_mesh_save(mesh_ptr, buffer_ptr, call.capacity, size_ptr) };
    let message = check_status_and_message("navstar_mesh_save", status);
    let fault = if call.size_null {
        Some("out_size")
    } else if call.buffer_null && call.capacity > 0 {
        Some("buffer")
    } else if call.mesh_null {
        Some("mesh")
    } else {
        None
    };
    let written = match fault {
        Some(name) => {
            assert_eq!(status, NULL_ARGUMENT, "{message}");
            assert!(message.contains(name), "{message:?} does not name {name}");
            if !call.size_null {
                assert_eq!(size, 0, "*out_size after an error");
            }
            0
        }
        None => {
            assert_eq!(size as usize, expected.len(), "*out_size");
            let fits = expected.len() <= call.capacity as usize;
            assert_eq!(status, if fits { OK } else { BUFFER_TOO_SMALL });
            if call.buffer_null {
                0
            } else {
                expected.len().min(call.capacity as usize)
            }
        }
    };
    if !call.buffer_null {
        assert_eq!(
            &buffer[..written],
            &expected[..written],
            "navstar_mesh_save wrote other bytes than NavMesh::to_bytes"
        );
        assert!(
            buffer[written..].iter().all(|&b| b == GUARD_BYTE),
            "navstar_mesh_save wrote past the {written} bytes due (capacity {})",
            call.capacity
        );
    }
    status
}

/// Saves through C with the two-call pattern (the size, then the bytes) and checks that
/// both calls give `expected`.
#[track_caller]
pub fn check_resave(mesh: &CMesh, expected: &[u8]) {
    let ask = SaveCall {
        capacity: 0,
        buffer_null: true,
        size_null: false,
        mesh_null: false,
    };
    check_save(mesh, ask, expected);
    let exact = SaveCall {
        capacity: expected.len() as u32,
        buffer_null: false,
        ..ask
    };
    assert_eq!(check_save(mesh, exact, expected), OK);
}

/// What a C loader answered.
pub struct LoadAnswer {
    /// The status.
    pub status: NavstarStatus,
    /// The thread's message after the call.
    pub message: String,
    /// The mesh, after success.
    pub mesh: Option<CMesh>,
}

/// Calls `navstar_mesh_load_navstar_bytes` (`None`: NULL bytes with `size`).
#[track_caller]
pub fn c_load_bytes(bytes: Option<&[u8]>, size: u32) -> LoadAnswer {
    if let Some(b) = bytes {
        assert!(b.len() >= size as usize, "harness bug");
    }
    let mut out: *mut NavstarMesh = NonNull::dangling().as_ptr();
    // SAFETY: `bytes` NULL or readable for `size` bytes; `out` writable.
    let status = unsafe {
        navstar_mesh_load_navstar_bytes(bytes.map_or(ptr::null(), <[u8]>::as_ptr), size, &mut out)
    };
    let mesh = finish_create("navstar_mesh_load_navstar_bytes", status, out);
    LoadAnswer {
        status,
        message: last_error(),
        mesh,
    }
}

/// Calls `navstar_mesh_load_navstar` (`None`: a NULL path).
#[track_caller]
pub fn c_load_file(path: Option<&CString>) -> LoadAnswer {
    let mut out: *mut NavstarMesh = NonNull::dangling().as_ptr();
    // SAFETY: `path` NULL or NUL-terminated; `out` writable.
    let status =
        unsafe { navstar_mesh_load_navstar(path.map_or(ptr::null(), |p| p.as_ptr()), &mut out) };
    let mesh = finish_create("navstar_mesh_load_navstar", status, out);
    LoadAnswer {
        status,
        message: last_error(),
        mesh,
    }
}

/// A file of this process for the path loader, removed on drop.
pub struct TempFile {
    path: PathBuf,
    c_path: CString,
}

impl TempFile {
    /// A new (empty) file name in the temporary directory, unique to this process.
    pub fn new() -> TempFile {
        let path =
            std::env::temp_dir().join(format!("navstar-fuzz-{}.navstar", std::process::id()));
        let c_path = CString::new(path.to_str().expect("a UTF-8 temporary path"))
            .expect("no NUL in the temporary path");
        TempFile { path, c_path }
    }

    /// Writes `bytes` to the file.
    pub fn write(&self, bytes: &[u8]) {
        std::fs::write(&self.path, bytes).expect("write the temporary file");
    }

    /// The path as C takes it.
    pub fn c_path(&self) -> &CString {
        &self.c_path
    }
}

impl Default for TempFile {
    fn default() -> Self {
        TempFile::new()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// The status and message the C loaders give for a refusal of the Rust loader: the
/// builder's status and message for a mesh error, else INVALID_MESH and the loader's.
fn refusal(error: &LoadError) -> (NavstarStatus, String) {
    match error {
        LoadError::Binary(navstar::BinaryError::Mesh(e)) => (NavstarStatus::from(e), e.to_string()),
        other => (INVALID_MESH, other.to_string()),
    }
}

/// Loads `bytes` through `navstar_mesh_load_navstar_bytes` and through the file loader
/// (the bytes written to `file`), and checks both against the Rust loader: the same
/// acceptance, the same status and message for a refusal, and for an accepted file a
/// mesh that saves through C to exactly `bytes` (an equal mesh) with the Rust counts.
/// Returns the Rust mesh when it loads.
#[track_caller]
pub fn check_load(bytes: &[u8], file: &TempFile) -> Option<NavMesh> {
    let rust = load_navstar_bytes(bytes);
    file.write(bytes);
    let loads = [
        (
            "navstar_mesh_load_navstar_bytes",
            c_load_bytes(Some(bytes), bytes.len() as u32),
        ),
        (
            "navstar_mesh_load_navstar",
            c_load_file(Some(file.c_path())),
        ),
    ];
    for (function, answer) in loads {
        match &rust {
            Ok(rust) => {
                assert_eq!(
                    answer.status, OK,
                    "{function} refused what Rust loads: {}",
                    answer.message
                );
                let mesh = answer.mesh.expect("a mesh with OK");
                assert_eq!(mesh.polygon_count(), rust.polygon_count());
                assert_eq!(mesh.vertex_count(), rust.vertex_count());
                assert_eq!(mesh.link_count(), rust.link_count());
                check_resave(&mesh, bytes);
            }
            Err(e) => {
                let (want, text) = refusal(e);
                assert_eq!(answer.status, want, "{function} vs Rust's {e}");
                assert_eq!(answer.message, format!("{function}: {text}"));
            }
        }
    }
    rust.ok()
}
