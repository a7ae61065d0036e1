//! Fuzzes the world file loader (`navstar_world_load_bytes`, and `World::from_bytes`
//! behind it).
//!
//! Two kinds of input: arbitrary bytes, and a fuzzed world (grid tiles on a lattice,
//! some removed so that slots have gaps and later generations) saved with
//! `navstar_world_save`, then damaged by byte flips, with the checksum left as it is or
//! recomputed (so that the checks behind the checksum are exercised too).
//!
//! Checks: no panic and only documented statuses, whatever the bytes; the C loader
//! accepts exactly what `World::from_bytes` accepts; flips without a new checksum are
//! refused; the undamaged file loads; any bytes that load give a world that saves to
//! exactly those bytes, whose snapshot answers paths between its polygons.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use navstar::World;
use navstar_fuzz::damage;
use navstar_fuzz::world::{
    TileSpec, c_world_create, c_world_load, check_snapshot_paths, world_options,
};

#[derive(Arbitrary, Debug)]
struct Input {
    /// Bytes to load as they are (when `tiles` is empty).
    raw: Vec<u8>,
    /// The tiles of a world to save, then damage; bit `k` of `removed`: tile `k` is
    /// removed after all are added.
    tiles: Vec<TileSpec>,
    removed: u8,
    /// (position, xor mask) pairs applied to the saved bytes.
    flips: Vec<(u32, u8)>,
    /// Recompute the checksum after the flips.
    reseal: bool,
    /// Query picks.
    picks: [u8; 32],
}

/// Loads `bytes` with the C ABI and the Rust API, which must agree; a world that loads
/// saves to the same bytes and answers valid queries.
fn load(bytes: &[u8], picks: &[u8]) -> bool {
    let c = c_world_load(bytes);
    let rust = World::from_bytes(bytes);
    assert_eq!(c.is_some(), rust.is_ok(), "{:?}", rust.as_ref().err());
    let (Some(c), Ok(rust)) = (c, rust) else {
        return false;
    };
    assert_eq!(c.save(), bytes, "a loaded world saves differently");
    assert_eq!(rust.to_bytes(), bytes);
    let snapshot = rust.snapshot();
    assert_eq!(c.snapshot().polygon_count(), snapshot.polygon_count());
    check_snapshot_paths(&snapshot, picks);
    true
}

fuzz_target!(|input: Input| {
    if input.tiles.is_empty() {
        load(&input.raw, &input.picks);
        return;
    }
    let world = c_world_create(&world_options(8, 1.0 / 64.0, 0.25)).expect("a world");
    let mut added = Vec::new();
    for spec in input.tiles.iter().take(8) {
        let (status, tile) = world.add(&spec.build());
        assert_eq!(status, navstar_fuzz::OK);
        added.push(tile);
    }
    for (k, tile) in added.iter().enumerate() {
        if input.removed & (1 << k) != 0 {
            assert_eq!(world.remove(*tile), navstar_fuzz::OK);
        }
    }
    if let Some(spec) = input.tiles.get(8) {
        assert_eq!(world.add(&spec.build()).0, navstar_fuzz::OK);
    }
    let saved = world.save();
    assert!(load(&saved, &input.picks), "the saved world was refused");
    let (bytes, changed_payload) = damage(&saved, &input.flips, input.reseal);
    if load(&bytes, &input.picks) {
        assert!(
            input.reseal || !changed_payload,
            "a damaged payload passed the checksum"
        );
    } else {
        assert!(bytes != saved, "the saved world was refused");
    }
});
