//! Fuzzes the binary format loader (`navstar::io::load_navstar_bytes`).
//!
//! Two kinds of input: arbitrary bytes, and a fuzzed mesh (areas, flags, links; with
//! or without its fast-lane index) saved with `NavMesh::to_bytes`, then damaged by byte flips, with the checksum left as it
//! is or recomputed (so that the validation behind the checksum is exercised too).
//!
//! Checks: no panic, whatever the bytes; flips without a new checksum are refused; the
//! undamaged file loads to a mesh that saves to the same bytes and answers as the
//! original (with the same index); any bytes that load give a mesh that saves to exactly those bytes and
//! whose queries are valid; the C loader (`navstar_mesh_load_bytes`) answers every input
//! as the Rust loader does (`navstar_fuzz::loaders`).
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use navstar::MeshOptions;
use navstar::ffi::NAVSTAR_FORMAT_NAVSTAR;
use navstar::io::load_navstar_bytes;
use navstar_fuzz::input::MeshArrays;
use navstar_fuzz::loaders::check_load_bytes;
use navstar_fuzz::{MeshOpts, MeshSpec, damage, run_queries};

#[derive(Arbitrary, Debug)]
struct Input {
    /// Bytes to load as they are (when `mesh` is `None`).
    raw: Vec<u8>,
    /// A mesh to save, then damage.
    mesh: Option<MeshSpec>,
    /// (position, xor mask) pairs applied to the saved bytes.
    flips: Vec<(u32, u8)>,
    /// Recompute the checksum after the flips.
    reseal: bool,
    /// Build the mesh's fast-lane index before saving it (so that it is saved too, and
    /// the flips may damage it).
    index: bool,
    /// Query picks.
    picks: [u8; 32],
}

fuzz_target!(|input: Input| {
    let Some(spec) = &input.mesh else {
        check_load_bytes(&input.raw, NAVSTAR_FORMAT_NAVSTAR, &MeshOpts::Null);
        if let Ok(mesh) = load_navstar_bytes(&input.raw) {
            assert_eq!(
                mesh.to_bytes().expect("a loaded mesh is one tile"),
                input.raw,
                "a loaded file saves differently"
            );
            run_queries(&mesh, &input.picks);
        }
        return;
    };
    let arrays = MeshArrays::new(&spec.grid, &spec.extras);
    let Some(Ok(original)) = arrays.rust_mesh(&MeshOptions::default().with_up_axis(arrays.up_axis))
    else {
        return;
    };
    if input.index {
        original.prepare_fast_lane();
    }
    let saved = original.to_bytes().expect("a built mesh saves");
    let reloaded = load_navstar_bytes(&saved).expect("a saved mesh loads");
    assert_eq!(reloaded.to_bytes().ok(), Some(saved.clone()));
    assert_eq!(
        reloaded.fast_lane_stats(),
        original.fast_lane_stats(),
        "the index did not survive the round trip"
    );
    let (bytes, changed_payload) = damage(&saved, &input.flips, input.reseal);
    check_load_bytes(&bytes, NAVSTAR_FORMAT_NAVSTAR, &MeshOpts::Null);
    match load_navstar_bytes(&bytes) {
        Ok(mesh) => {
            assert!(
                input.reseal || !changed_payload,
                "a damaged payload passed the checksum"
            );
            assert_eq!(
                mesh.to_bytes().ok(),
                Some(bytes.clone()),
                "a loaded file saves differently"
            );
            run_queries(&mesh, &input.picks);
        }
        Err(e) => assert!(bytes != saved, "the saved mesh was refused: {e}"),
    }
});
