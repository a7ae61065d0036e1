//! The world file (`World::to_bytes`, `World::from_bytes`): a saved world loads with the
//! same options, tiles, slots and generations, answers as the original and saves to the
//! same bytes; damaged or forged files are refused with an error naming the section and
//! a byte offset in the world file.

use glam::Vec3;
use navstar::{
    BinaryError, MeshOptions, NavMesh, OffMeshLink, PathOptions, PathStatus, Query, TileGrid,
    TileRef, UpAxis, World, WorldOptions,
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
    assert!(e.to_string().contains("links"), "{e}");
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

/// Two 2 x 2 tiles 2 apart along x, a third far away, and links given with the first: a
/// one-way jump to the second (cost 1.5, area 3, flags 5), a two-way teleporter to the
/// third, and one whose end lies where no tile is yet.
fn linked_world() -> (World, Vec<OffMeshLink>) {
    let world = World::new(&WorldOptions::default()).unwrap();
    let full = [true; 4];
    let links = vec![
        OffMeshLink::new(Vec3::new(1.9, 0.0, 1.0), Vec3::new(4.1, 0.0, 1.0))
            .with_bidirectional(false)
            .with_cost(1.5)
            .with_area(3)
            .with_flags(5),
        OffMeshLink::new(Vec3::new(0.5, 0.0, 0.5), Vec3::new(20.5, 0.0, 0.5)).with_radius(0.5),
        OffMeshLink::new(Vec3::new(0.5, 0.0, 1.5), Vec3::new(-10.0, 0.0, 0.5)),
    ];
    world
        .add_tile_with_links(&tile(2, 2, &full, 0.0, 0.0), &links)
        .unwrap();
    world.add_tile(&tile(2, 2, &full, 4.0, 0.0)).unwrap();
    world.add_tile(&tile(2, 2, &full, 20.0, 0.0)).unwrap();
    (world, links)
}

/// The corners and the links taken by the path from `from` to `to` on a snapshot.
fn route(world: &World, from: Vec3, to: Vec3) -> (PathStatus, Vec<Vec3>, Vec<Option<u32>>) {
    let snapshot = world.snapshot();
    let mut query = Query::new(&snapshot);
    let path = query.find_path(from, to, &PathOptions::default()).unwrap();
    let links = path.details.iter().map(|c| c.link).collect();
    (path.status, path.corners.to_vec(), links)
}

#[test]
fn links_between_tiles_and_link_flags_are_saved_with_the_world() {
    let (world, links) = linked_world();
    let (a, near, far) = (
        Vec3::new(0.5, 0.0, 1.0),
        Vec3::new(5.5, 0.0, 1.0),
        Vec3::new(21.5, 0.0, 1.5),
    );
    // The jump (link 0 of slot 0) and the teleporter (link 1) are taken.
    let (status, _, taken) = route(&world, a, near);
    assert_eq!(status, PathStatus::Complete);
    assert!(taken.contains(&Some(0)), "{taken:?}");
    let (status, _, taken) = route(&world, far, a);
    assert_eq!(status, PathStatus::Complete);
    assert!(taken.contains(&Some(1)), "{taken:?}");
    let bytes = world.to_bytes();
    assert_eq!(bytes[8..12], 3u32.to_le_bytes());
    let loaded = World::from_bytes(&bytes).unwrap_or_else(|e| panic!("refused: {e}"));
    let first = loaded.tiles()[0].0;
    assert_eq!(loaded.tile_links(first).unwrap(), links);
    assert_eq!(loaded.to_bytes(), bytes);
    for (from, to) in [(a, near), (far, a), (near, a), (a, far)] {
        assert_eq!(route(&loaded, from, to), route(&world, from, to));
    }
    assert_eq!(loaded.snapshot().island_count(), 1);
    assert_eq!(loaded.snapshot().link_count(), 3);
    assert_eq!(loaded.snapshot().link_flags(0), 5);
    // A link closed through a snapshot stays closed after saving and loading: the
    // teleporter is no longer taken, and the far tile is out of reach.
    world.snapshot().set_link_flags(1, 0).unwrap();
    let closed = World::from_bytes(&world.to_bytes()).unwrap();
    assert_eq!(closed.snapshot().link_flags(1), 0);
    let (status, _, taken) = route(&closed, far, a);
    assert_eq!(status, PathStatus::Partial);
    assert!(!taken.contains(&Some(1)), "{taken:?}");
    assert_eq!(route(&closed, far, a), route(&world, far, a));
    // The link that waited for a tile attaches when one comes, in the loaded world too.
    for w in [&world, &closed] {
        w.add_tile(&tile(2, 2, &[true; 4], -11.0, 0.0)).unwrap();
    }
    let west = Vec3::new(-10.5, 0.0, 0.5);
    let (status, _, taken) = route(&closed, a, west);
    assert_eq!(status, PathStatus::Complete);
    assert!(taken.contains(&Some(2)), "{taken:?}");
    assert_eq!(route(&closed, a, west), route(&world, a, west));
}

/// `bytes` (a version 3 world file whose tiles have no links of any kind) in the
/// version 2 layout: each tile record without the link section (a zero count), the
/// header's version, record lengths, payload length and checksum rewritten.
fn as_version_2(bytes: &[u8]) -> Vec<u8> {
    let starts = records(bytes);
    let mut out = bytes[..32].to_vec();
    for (k, &start) in starts.iter().enumerate() {
        let end = starts.get(k + 1).copied().unwrap_or(bytes.len());
        let mut record = bytes[start..end].to_vec();
        if &record[..4] == b"TIMG" {
            assert_eq!(record[record.len() - 4..], [0, 0, 0, 0]);
            record.truncate(record.len() - 4);
            let length = (record.len() - 12) as u64;
            record[4..12].copy_from_slice(&length.to_le_bytes());
        }
        out.extend_from_slice(&record);
    }
    out[8..12].copy_from_slice(&2u32.to_le_bytes());
    let payload = (out.len() - 32) as u64;
    out[16..24].copy_from_slice(&payload.to_le_bytes());
    reseal(&mut out);
    out
}

#[test]
fn version_2_world_files_load_and_other_versions_are_refused_by_name() {
    let (world, refs) = world();
    let current = world.to_bytes();
    let old = as_version_2(&current);
    let loaded = World::from_bytes(&old).unwrap_or_else(|e| panic!("refused: {e}"));
    let listed = |w: &World| w.tiles().into_iter().map(|(t, _)| t).collect::<Vec<_>>();
    assert_eq!(listed(&loaded), refs);
    assert!((walk(&loaded) - walk(&world)).abs() <= 1e-5);
    // It saves in the current version.
    assert_eq!(loaded.to_bytes(), current);
    // A version 2 file with a link section (or anything) after the flags is refused.
    let e = refusal(&current, true, |b| b[8] = 2);
    assert!(
        invalid_in(&e, "tile image", 0) && e.to_string().contains("version 2"),
        "{e}"
    );
    for version in [1u32, 4, 0x0300_0000] {
        let e = refusal(&current, false, |b| {
            b[8..12].copy_from_slice(&version.to_le_bytes())
        });
        assert!(layout_in(&e, "header"), "{e}");
        let message = e.to_string();
        assert!(
            message.contains(&format!("version {version}")) && message.contains("2 to 3"),
            "{message}"
        );
    }
}

#[test]
fn forged_links_are_refused_naming_the_tile_record() {
    let (world, _) = linked_world();
    let saved = world.to_bytes();
    let starts = records(&saved);
    // The first tile's record ends with: the link count, 3 links of 40 bytes, the
    // flags of its 3 links.
    let end = starts[3];
    let count = end - 3 * 4 - 3 * 40 - 4;
    assert_eq!(saved[count..count + 4], 3u32.to_le_bytes());
    let link = |k: usize| count + 4 + 40 * k;
    // A direction byte that is neither 0 nor 1; reserved bytes not 0.
    let e = refusal(&saved, true, |b| b[link(1) + 37] = 2);
    assert!(
        invalid_in(&e, "tile image", 0) && e.to_string().contains("link 1"),
        "{e}"
    );
    let e = refusal(&saved, true, |b| b[link(0) + 39] = 1);
    assert!(invalid_in(&e, "tile image", 0), "{e}");
    // A NaN radius: the world refuses the link as `add_tile_with_links` does.
    let e = refusal(&saved, true, |b| {
        b[link(2) + 24..link(2) + 28].copy_from_slice(&f32::NAN.to_le_bytes())
    });
    assert!(invalid_in(&e, "tile image", 0), "{e}");
    // A start off the tile.
    let e = refusal(&saved, true, |b| {
        b[link(0)..link(0) + 4].copy_from_slice(&50.0f32.to_le_bytes())
    });
    assert!(
        invalid_in(&e, "tile image", 0) && e.to_string().contains("link 0"),
        "{e}"
    );
    // A huge link count, and one link more than there are bytes for.
    for forged in [u32::MAX, 4] {
        let e = refusal(&saved, true, |b| {
            b[count..count + 4].copy_from_slice(&forged.to_le_bytes())
        });
        assert!(
            invalid_in(&e, "tile image", 0) && e.to_string().contains("links"),
            "{e}"
        );
    }
}
