//! Fuzzes the binary format through the C ABI: `navstar_mesh_save`,
//! `navstar_mesh_load_navstar_bytes`, `navstar_mesh_load_navstar` (through a temporary
//! file) and `navstar_version`.
//!
//! A fuzzed mesh (areas, flags, links; built through C and Rust from the same arrays)
//! is saved through C with fuzzed capacities (0, tiny, one short, exact, larger, NULL
//! buffers and outputs): the bytes are `NavMesh::to_bytes` of the Rust mesh, the
//! too-small rule holds (the prefix, the full size, nothing past the capacity, nothing
//! on error). The saved bytes, damaged by flips (the checksum left or recomputed), or
//! arbitrary bytes, are loaded through both C loaders: they accept exactly what the
//! Rust loader accepts, refuse with its status and message, and what they accept saves
//! back to the same bytes (an equal mesh). `navstar_version` is the crate's version and
//! leaves the thread's message alone.
#![no_main]

use std::ffi::CString;

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use navstar::ffi::navstar_version;
use navstar_fuzz::saved::{SaveCall, TempFile, c_load_bytes, c_load_file, check_load, check_save};
use navstar_fuzz::{INVALID_ARGUMENT, MeshSpec, NULL_ARGUMENT, last_error, run_queries};

/// A capacity for a save, relative to the saved size.
#[derive(Arbitrary, Debug, Clone, Copy)]
enum Capacity {
    /// 0 .. 255 bytes.
    Tiny(u8),
    /// The size minus 1 .. 256.
    Short(u8),
    /// The size.
    Exact,
    /// The size plus 0 .. 255.
    Larger(u8),
}

#[derive(Arbitrary, Debug)]
struct Save {
    capacity: Capacity,
    buffer_null: bool,
    size_null: bool,
    mesh_null: bool,
}

#[derive(Arbitrary, Debug)]
struct Input {
    /// Bytes to load as they are (when `mesh` is `None`).
    raw: Vec<u8>,
    /// A mesh to save, then damage.
    mesh: Option<MeshSpec>,
    /// Save calls.
    saves: Vec<Save>,
    /// (position, xor mask) pairs applied to the saved bytes.
    flips: Vec<(u32, u8)>,
    /// Recompute the checksum after the flips.
    reseal: bool,
    /// Load through NULL arguments and a missing file too.
    bad_loads: bool,
    /// Query picks for the loaded meshes.
    picks: [u8; 16],
}

/// `navstar_version` against the version in navstar's Cargo.toml.
fn check_version() {
    let manifest = include_str!("../../Cargo.toml");
    let version = manifest
        .lines()
        .find_map(|line| line.strip_prefix("version = \""))
        .and_then(|rest| rest.strip_suffix('"'))
        .expect("navstar's Cargo.toml has a version");
    let parts: Vec<u32> = version.split('.').map(|p| p.parse().unwrap()).collect();
    let before = last_error();
    assert_eq!(
        navstar_version(),
        (parts[0] << 16) | (parts[1] << 8) | parts[2]
    );
    assert_eq!(last_error(), before, "navstar_version changed the message");
}

fuzz_target!(|input: Input| {
    check_version();
    let file = TempFile::new();
    if input.bad_loads {
        let answer = c_load_bytes(None, input.raw.len() as u32);
        if input.raw.is_empty() {
            // Zero bytes are read from NULL: refused as truncated, by the loader.
            assert!(answer.mesh.is_none());
        } else {
            assert_eq!(answer.status, NULL_ARGUMENT);
            assert!(answer.message.contains("bytes"), "{}", answer.message);
        }
        let answer = c_load_file(None);
        assert_eq!(answer.status, NULL_ARGUMENT);
        assert!(answer.message.contains("path"), "{}", answer.message);
        let missing = CString::new("/nonexistent/navstar-fuzz/missing.navstar").unwrap();
        let answer = c_load_file(Some(&missing));
        assert_eq!(answer.status, INVALID_ARGUMENT);
        assert!(answer.message.contains("cannot read"), "{}", answer.message);
    }
    let Some(spec) = &input.mesh else {
        if let Some(mesh) = check_load(&input.raw, &file) {
            run_queries(&mesh, &input.picks);
        }
        return;
    };
    let Some(built) = spec.build() else {
        return;
    };
    let saved = built.rust.to_bytes().expect("a built mesh saves");
    for save in input.saves.iter().take(6) {
        let size = saved.len() as u32;
        let capacity = match save.capacity {
            Capacity::Tiny(n) => u32::from(n),
            Capacity::Short(n) => size.saturating_sub(1 + u32::from(n)),
            Capacity::Exact => size,
            Capacity::Larger(n) => size + u32::from(n),
        };
        let call = SaveCall {
            capacity,
            buffer_null: save.buffer_null,
            size_null: save.size_null,
            mesh_null: save.mesh_null,
        };
        check_save(&built.c, call, &saved);
    }
    let reloaded = check_load(&saved, &file).expect("a saved mesh loads");
    run_queries(&reloaded, &input.picks);
    let mut bytes = saved.clone();
    for &(at, mask) in input.flips.iter().take(8) {
        let len = bytes.len();
        bytes[at as usize % len] ^= mask;
    }
    if input.reseal {
        let crc = crc32fast::hash(&bytes[32..]);
        bytes[24..28].copy_from_slice(&crc.to_le_bytes());
    }
    if let Some(mesh) = check_load(&bytes, &file) {
        run_queries(&mesh, &input.picks);
    }
});
