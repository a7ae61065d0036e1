//! Fuzzes the world file loader (`navstar_world_load_bytes`, and `World::from_bytes`
//! behind it).
//!
//! Two kinds of input: arbitrary bytes, and a fuzzed world (grid tiles on a lattice,
//! some removed so that slots have gaps and later generations, the first given links
//! to other tiles through the Rust API) saved with `navstar_world_save`, then damaged by byte flips, with the checksum left as it is or
//! recomputed (so that the checks behind the checksum are exercised too).
//!
//! Checks: no panic and only documented statuses, whatever the bytes; the C loader
//! accepts exactly what `World::from_bytes` accepts; flips without a new checksum are
//! refused; the undamaged file loads; any bytes that load give a world that saves to
//! exactly those bytes (a file of the older version 2 saves in the current version,
//! which saves to itself), whose snapshot answers paths between its polygons.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use navstar::glam::Vec3;
use navstar::{NavMesh, OffMeshLink, World};
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
    /// Links given with the first tile (at most 4): from a polygon of it (pick), to a
    /// polygon (pick) of a tile (pick), two-way or not.
    links: Vec<(u8, u8, u8, bool)>,
}

/// The centre of polygon `pick % count` of `mesh`.
fn centre(mesh: &NavMesh, pick: u8) -> Vec3 {
    let polygon = u32::from(pick) % mesh.polygon_count();
    let corners = mesh.polygon_vertices(polygon);
    let vertices = mesh.vertices();
    corners.iter().map(|&v| vertices[v as usize]).sum::<Vec3>() / corners.len() as f32
}

/// The world of `saved` with its first tile given `links` (see `Input::links`), saved.
fn with_links(saved: &[u8], links: &[(u8, u8, u8, bool)]) -> Option<Vec<u8>> {
    let world = World::from_bytes(saved).expect("a saved world loads");
    let tiles = world.tiles();
    let (first, mesh) = tiles.first()?;
    let links: Vec<OffMeshLink> = links
        .iter()
        .take(4)
        .map(|&(from, to, pick, two_way)| {
            let (_, target) = &tiles[usize::from(to) % tiles.len()];
            OffMeshLink::new(centre(mesh, from), centre(target, pick)).with_bidirectional(two_way)
        })
        .collect();
    world
        .replace_tile_with_links(*first, mesh, &links)
        .expect("links from the tile's own polygons");
    Some(world.to_bytes())
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
    if bytes[8..12] == 2u32.to_le_bytes() {
        // A version 2 file (before links between tiles were saved) saves in the
        // current version, which loads and saves to itself.
        let current = rust.to_bytes();
        assert_eq!(c.save(), current);
        assert_eq!(
            current[8..12],
            navstar::io::WORLD_FORMAT_VERSION.to_le_bytes()
        );
        let again = World::from_bytes(&current).expect("a saved world loads");
        assert_eq!(again.to_bytes(), current);
    } else {
        assert_eq!(c.save(), bytes, "a loaded world saves differently");
        assert_eq!(rust.to_bytes(), bytes);
    }
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
    // A tile lying on another one on one level (an edge joining two tiles at once) is
    // refused; the lattice can make one.
    let overlap = |status| {
        status == navstar_fuzz::INVALID_ARGUMENT
            && navstar_fuzz::last_error().contains("must not overlap")
    };
    for spec in input.tiles.iter().take(8) {
        let (status, tile) = world.add(&spec.build());
        if overlap(status) {
            continue;
        }
        assert_eq!(status, navstar_fuzz::OK);
        added.push(tile);
    }
    for (k, tile) in added.iter().enumerate() {
        if input.removed & (1 << k) != 0 {
            assert_eq!(world.remove(*tile), navstar_fuzz::OK);
        }
    }
    if let Some(spec) = input.tiles.get(8) {
        let status = world.add(&spec.build()).0;
        assert!(status == navstar_fuzz::OK || overlap(status), "{status:?}");
    }
    let mut saved = world.save();
    assert!(load(&saved, &input.picks), "the saved world was refused");
    if !input.links.is_empty()
        && let Some(linked) = with_links(&saved, &input.links)
    {
        assert!(
            load(&linked, &input.picks),
            "a world with links was refused"
        );
        saved = linked;
    }
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
