//! The world file (`World::to_bytes`, `World::from_bytes`): a saved world loads with the
//! same options, tiles, slots and generations, answers as the original and saves to the
//! same bytes; damaged or forged files are refused with an error naming the section and
//! a byte offset in the world file.

use glam::Vec3;
use navstar::{
    BinaryError, MeshOptions, NavMesh, PathOptions, PathStatus, Query, TileGrid, TileRef, UpAxis,
    World, WorldOptions,
};

/// A grid tile of unit cells at (x0, 0, z0), `walkable[z * width + x]`.
fn tile(width: u32, height: u32, walkable: &[bool], x0: f32, z0: f32) -> NavMesh {
    let grid = TileGrid {
        width,
        height,
        walkable,
        cell_size: 1.0,
        origin: Vec3::new(x0, 0.0, z0),
    };
    NavMesh::from_grid(&grid, &MeshOptions::default()).expect("a grid tile")
}

/// Three tiles in a row, the middle one removed and added again (a later generation),
/// then the first removed (a gap in the slots).
fn world() -> (World, Vec<TileRef>) {
    let world = World::new(&WorldOptions::default()).unwrap();
    let full = [true; 4];
    let a = world.add_tile(&tile(2, 2, &full, 0.0, 0.0)).unwrap();
    let b = world
        .add_tile(&tile(2, 2, &[true, true, true, false], 2.0, 0.0))
        .unwrap();
    let c = world.add_tile(&tile(2, 2, &full, 4.0, 0.0)).unwrap();
    world.remove_tile(b).unwrap();
    let b = world.add_tile(&tile(2, 2, &full, 2.0, 0.0)).unwrap();
    world.remove_tile(a).unwrap();
    (world, vec![b, c])
}

/// The length of the path from (2.5, 0.5) to (5.5, 1.5) on a snapshot.
fn walk(world: &World) -> f32 {
    let snapshot = world.snapshot();
    let mut query = Query::new(&snapshot);
    let path = query
        .find_path(
            Vec3::new(2.5, 0.0, 0.5),
            Vec3::new(5.5, 0.0, 1.5),
            &PathOptions::default(),
        )
        .expect("a path");
    assert_eq!(path.status, PathStatus::Complete);
    path.corners.windows(2).map(|w| w[0].distance(w[1])).sum()
}

/// The start of each record of a world file.
fn records(bytes: &[u8]) -> Vec<usize> {
    let mut at = 32;
    let mut starts = Vec::new();
    while at < bytes.len() {
        starts.push(at);
        let mut length = [0u8; 8];
        length.copy_from_slice(&bytes[at + 4..at + 12]);
        at += 12 + u64::from_le_bytes(length) as usize;
    }
    starts
}

/// Recomputes the checksum after a change to the payload.
fn reseal(bytes: &mut [u8]) {
    let crc = crc32fast::hash(&bytes[32..]);
    bytes[24..28].copy_from_slice(&crc.to_le_bytes());
}

#[test]
fn a_saved_world_loads_with_its_slots_generations_and_answers() {
    let (world, refs) = world();
    let bytes = world.to_bytes();
    let loaded = World::from_bytes(&bytes).unwrap_or_else(|e| panic!("refused: {e}"));
    let listed = |w: &World| w.tiles().into_iter().map(|(t, _)| t).collect::<Vec<_>>();
    assert_eq!(listed(&loaded), refs);
    assert_eq!(loaded.options(), world.options());
    assert_eq!(loaded.to_bytes(), bytes);
    let mut written = Vec::new();
    world.write_to(&mut written).unwrap();
    assert_eq!(written, bytes);
    assert!((walk(&loaded) - walk(&world)).abs() <= 1e-5);
    // Polygon references made before saving resolve to the same polygons.
    let (before, after) = (world.snapshot(), loaded.snapshot());
    assert_eq!(before.polygon_count(), after.polygon_count());
    for p in before.polygon_ids() {
        let reference = before.polygon_ref(p).unwrap();
        assert_eq!(after.resolve(reference), Ok(p));
    }
    // Flags changed through a snapshot are saved with the world.
    let some = before.polygon_ids().last().unwrap();
    before.set_polygon_flags(some, 6).unwrap();
    let reloaded = World::from_bytes(&world.to_bytes()).unwrap();
    assert_eq!(reloaded.snapshot().polygon_flags(some), 6);
    assert_eq!(reloaded.to_bytes(), world.to_bytes());
    // Slot 0 was emptied before saving: a reference into its old tile stays stale when
    // the slot is filled again, and so does one into a tile removed after loading.
    let snapshot = world.snapshot();
    let gone = navstar::PolyRef(1 << 32);
    assert!(snapshot.resolve(gone).is_err());
    let refilled = loaded.add_tile(&tile(2, 2, &[true; 4], 0.0, 0.0)).unwrap();
    assert_eq!((refilled.slot(), refilled.generation()), (0, 2));
    assert!(loaded.snapshot().resolve(gone).is_err());
    loaded.remove_tile(refs[0]).unwrap();
    let again = loaded.add_tile(&tile(2, 2, &[true; 4], 2.0, 0.0)).unwrap();
    assert_eq!(again.slot(), refs[0].slot());
    assert!(again.generation() > refs[0].generation());
}

#[test]
fn empty_worlds_and_options_round_trip() {
    let options = WorldOptions::default()
        .with_up_axis(UpAxis::Z)
        .with_max_tiles(4)
        .with_seam_tolerance(0.125)
        .with_climb(2.0);
    let world = World::new(&options).unwrap();
    let loaded = World::from_bytes(&world.to_bytes()).unwrap();
    assert_eq!(*loaded.options(), options);
    assert_eq!(loaded.tile_count(), 0);
    assert_eq!(loaded.to_bytes(), world.to_bytes());
}

/// The error loading `saved` gives once `patch` has changed it (and, with `reseal`, the
/// checksum recomputed).
fn refusal(saved: &[u8], reseal_after: bool, patch: impl FnOnce(&mut Vec<u8>)) -> BinaryError {
    let mut bytes = saved.to_vec();
    patch(&mut bytes);
    if reseal_after {
        reseal(&mut bytes);
    }
    match World::from_bytes(&bytes) {
        Ok(_) => panic!("damaged bytes were accepted"),
        Err(e) => e,
    }
}

/// Whether `e` is `Invalid` in `section`, record `record`.
fn invalid_in(e: &BinaryError, section: &str, record: u64) -> bool {
    matches!(e, BinaryError::Invalid { section: s, record: r, .. } if *s == section && *r == record)
}

/// Whether `e` is `Layout` in `section`.
fn layout_in(e: &BinaryError, section: &str) -> bool {
    matches!(e, BinaryError::Layout { section: s, .. } if *s == section)
}

#[test]
fn damaged_and_forged_files_are_refused_by_name_and_offset() {
    let (world, _) = world();
    let saved = world.to_bytes();
    // The header: magic, a mesh file, truncation, checksum.
    let mesh = tile(1, 1, &[true], 0.0, 0.0).to_bytes().unwrap();
    assert!(matches!(
        World::from_bytes(&mesh),
        Err(BinaryError::BadMagic)
    ));
    let e = refusal(&saved, false, |b| b.truncate(20));
    assert!(matches!(e, BinaryError::Truncated { .. }), "{e}");
    let e = refusal(&saved, false, |b| *b.last_mut().unwrap() ^= 1);
    assert!(matches!(e, BinaryError::ChecksumMismatch { .. }), "{e}");
    // The options record (at byte 32: tag, length, then the body at byte 44).
    let e = refusal(&saved, true, |b| b[44] = 2);
    assert!(
        matches!(
            e,
            BinaryError::Invalid {
                section: "world options",
                offset: 44,
                ..
            }
        ),
        "{e}"
    );
    let e = refusal(&saved, true, |b| {
        b[48..52].copy_from_slice(&3u32.to_le_bytes())
    });
    assert!(e.to_string().contains("max_tiles"), "{e}");
    // The records: options, generations (3 slots), then the two tiles.
    let starts = records(&saved);
    assert_eq!(starts.len(), 4);
    assert_eq!(&saved[starts[1]..starts[1] + 4], b"GENS");
    let generations = &saved[starts[1] + 12..starts[2]];
    assert_eq!(generations, &[1, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0]);
    let (first, second) = (starts[2], starts[3]);
    let e = refusal(&saved, true, |b| {
        b[first + 12..first + 16].copy_from_slice(&4000u32.to_le_bytes())
    });
    assert!(
        invalid_in(&e, "tile image", 0) && e.to_string().contains("4000"),
        "{e}"
    );
    // A generation the generations record does not have; more generations than slots.
    let e = refusal(&saved, true, |b| b[first + 16] = 7);
    assert!(e.to_string().contains("generation 7"), "{e}");
    let e = refusal(&saved, true, |b| {
        b[48..52].copy_from_slice(&2u32.to_le_bytes())
    });
    assert!(layout_in(&e, "slot generations"), "{e}");
    // Slots out of order: the second record names the first one's slot.
    let e = refusal(&saved, true, |b| {
        let first_slot = b[first + 12..first + 16].to_vec();
        b[second + 12..second + 16].copy_from_slice(&first_slot);
    });
    assert!(invalid_in(&e, "tile image", 1), "{e}");
    // Flags missing after an image (the first tile's record cut short, the last one
    // dropped, the header told).
    let e = refusal(&saved, true, |b| {
        b.truncate(second - 4);
        let length = (second - 4 - first - 12) as u64;
        b[first + 4..first + 12].copy_from_slice(&length.to_le_bytes());
        b[12] -= 1;
        let payload = (b.len() - 32) as u64;
        b[16..24].copy_from_slice(&payload.to_le_bytes());
    });
    assert!(e.to_string().contains("bytes of flags"), "{e}");
    // A damaged tile image: its own checksum catches it; a forged one (resealed inside)
    // is refused by the mesh checks, at an offset inside the world file.
    let image = first + 20;
    let e = refusal(&saved, true, |b| b[image + 40] ^= 0x10);
    assert!(matches!(e, BinaryError::ChecksumMismatch { .. }), "{e}");
    let e = refusal(&saved, true, |b| b[image + 8] = 9);
    assert!(
        matches!(e, BinaryError::UnsupportedVersion { version: 9, .. }),
        "{e}"
    );
    let e = refusal(&saved, true, |b| b[image + 28] = 1);
    let offset = (image + 28) as u64;
    assert!(
        matches!(e, BinaryError::Layout { offset: o, .. } if o == offset),
        "the offset is in the world file: {e}"
    );
    // The record count: one more tile than there are, or trailing bytes.
    let e = refusal(&saved, false, |b| b[12] += 1);
    assert!(matches!(e, BinaryError::Truncated { .. }), "{e}");
    let e = refusal(&saved, false, |b| b[12] -= 1);
    assert!(layout_in(&e, "world"), "{e}");
}

#[test]
fn a_tile_of_another_up_axis_is_refused_naming_its_record() {
    let (world, _) = world();
    // Same options but Z up: the tiles (Y up) no longer fit.
    let e = refusal(&world.to_bytes(), true, |b| {
        b[44..48].copy_from_slice(&1u32.to_le_bytes())
    });
    assert!(invalid_in(&e, "tile image", 0), "{e}");
    assert!(e.to_string().contains("up axis"), "{e}");
}
