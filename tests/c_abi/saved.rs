//! Saving a mesh into a caller buffer (the too-small rule) and loading it back from
//! bytes and from a file through the C ABI; refusals with their statuses and messages.

use std::ffi::CString;
use std::ptr;

use navstar::ffi::{
    NavstarMesh, NavstarStatus, navstar_mesh_create, navstar_mesh_free, navstar_mesh_load_navstar,
    navstar_mesh_load_navstar_bytes, navstar_mesh_polygon_count, navstar_mesh_save,
};

use crate::assert_status;

/// Two unit squares side by side (Y up), through `navstar_mesh_create`.
pub(crate) fn two_squares() -> *mut NavstarMesh {
    let vertices: [f32; 18] = [
        0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 2.0, 0.0, 0.0, //
        0.0, 0.0, 1.0, 1.0, 0.0, 1.0, 2.0, 0.0, 1.0,
    ];
    let indices = [0u32, 1, 4, 3, 1, 2, 5, 4];
    let sizes = [4u32, 4];
    let mut mesh = ptr::null_mut();
    // SAFETY: the arrays hold the counts passed; `mesh` is writable.
    let status = unsafe {
        navstar_mesh_create(
            vertices.as_ptr(),
            6,
            indices.as_ptr(),
            sizes.as_ptr(),
            2,
            ptr::null(),
            &mut mesh,
        )
    };
    assert_status(status, NavstarStatus::NavstarOk, &[]);
    mesh
}

/// Saves `mesh` with the two-call pattern: the size first, then the bytes.
fn save(mesh: *const NavstarMesh) -> Vec<u8> {
    let mut size = 0u32;
    // SAFETY: a live mesh; capacity 0 with a NULL buffer asks for the size alone.
    let status = unsafe { navstar_mesh_save(mesh, ptr::null_mut(), 0, &mut size) };
    assert_status(status, NavstarStatus::NavstarBufferTooSmall, &[]);
    assert!(size > 32);
    // One byte short: that many are written, the size is reported again.
    let mut short = vec![0u8; size as usize - 1];
    let mut again = 0u32;
    // SAFETY: `short` has room for `capacity` bytes.
    let status = unsafe { navstar_mesh_save(mesh, short.as_mut_ptr(), size - 1, &mut again) };
    assert_status(status, NavstarStatus::NavstarBufferTooSmall, &[]);
    assert_eq!(again, size);
    let mut bytes = vec![0u8; size as usize];
    // SAFETY: `bytes` has room for `capacity` bytes.
    let status = unsafe { navstar_mesh_save(mesh, bytes.as_mut_ptr(), size, &mut again) };
    assert_status(status, NavstarStatus::NavstarOk, &[]);
    assert_eq!(&short[..], &bytes[..short.len()]);
    bytes
}

fn load_bytes(bytes: &[u8]) -> (NavstarStatus, *mut NavstarMesh) {
    let mut mesh = ptr::null_mut();
    // SAFETY: `bytes` is readable for its length; `mesh` is writable.
    let status =
        unsafe { navstar_mesh_load_navstar_bytes(bytes.as_ptr(), bytes.len() as u32, &mut mesh) };
    (status, mesh)
}

#[test]
fn save_and_load_from_bytes_and_from_a_file() {
    let mesh = two_squares();
    let bytes = save(mesh);
    let (status, loaded) = load_bytes(&bytes);
    assert_status(status, NavstarStatus::NavstarOk, &[]);
    // SAFETY: live meshes.
    unsafe {
        assert_eq!(navstar_mesh_polygon_count(loaded), 2);
        assert_eq!(save(loaded), bytes);
        navstar_mesh_free(loaded);
    }
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("c_abi_two.navstar");
    std::fs::write(&path, &bytes).unwrap();
    let c_path = CString::new(path.to_str().unwrap()).unwrap();
    let mut from_file = ptr::null_mut();
    // SAFETY: a NUL-terminated path; `from_file` is writable.
    let status = unsafe { navstar_mesh_load_navstar(c_path.as_ptr(), &mut from_file) };
    assert_status(status, NavstarStatus::NavstarOk, &[]);
    // SAFETY: live meshes, freed once.
    unsafe {
        assert_eq!(navstar_mesh_polygon_count(from_file), 2);
        navstar_mesh_free(from_file);
        navstar_mesh_free(mesh);
    }
}

#[test]
fn refused_files_name_the_problem_and_leave_no_mesh() {
    let mesh = two_squares();
    let mut bytes = save(mesh);
    // SAFETY: a live mesh, freed once.
    unsafe { navstar_mesh_free(mesh) };
    let last = bytes.len() - 1;
    bytes[last] ^= 0x40;
    let (status, out) = load_bytes(&bytes);
    assert_status(
        status,
        NavstarStatus::NavstarErrorInvalidMesh,
        &["navstar_mesh_load_navstar_bytes", "checksum"],
    );
    assert!(out.is_null());
    let (status, out) = load_bytes(&bytes[..10]);
    assert_status(
        status,
        NavstarStatus::NavstarErrorInvalidMesh,
        &["truncated"],
    );
    assert!(out.is_null());
    let mut out = ptr::null_mut();
    // SAFETY: NULL pointers must be refused before any read.
    let status = unsafe { navstar_mesh_load_navstar(ptr::null(), &mut out) };
    assert_status(status, NavstarStatus::NavstarErrorNullArgument, &["path"]);
    let missing = CString::new("/nonexistent/dir/mesh.navstar").unwrap();
    // SAFETY: a NUL-terminated path; `out` is writable.
    let status = unsafe { navstar_mesh_load_navstar(missing.as_ptr(), &mut out) };
    assert_status(
        status,
        NavstarStatus::NavstarErrorInvalidArgument,
        &["/nonexistent/dir/mesh.navstar"],
    );
    assert!(out.is_null());
    let mut size = 0u32;
    // SAFETY: a NULL mesh must be refused.
    let status = unsafe { navstar_mesh_save(ptr::null(), ptr::null_mut(), 0, &mut size) };
    assert_status(status, NavstarStatus::NavstarErrorNullArgument, &["mesh"]);
}
