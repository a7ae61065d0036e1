//! The fast lane's index in the binary format: saved when the mesh has one, loaded
//! without building it again, checked for consistency; files of version 2 (without
//! its sections) still load.

use std::path::Path;

use navstar::io::{load_mesh_file, load_navstar_bytes};
use navstar::{BinaryError, MeshOptions, NavMesh, PathMode, PathOptions, PathStatus, Query};

use crate::GRID_DIR;
use crate::binary::{binary_error, flips_from, reseal, section_offset, section_records};
use crate::common::{Rng, point_in_polygon};

fn den312d() -> NavMesh {
    let path = format!("{GRID_DIR}/den312d.map");
    load_mesh_file(Path::new(&path), &MeshOptions::default()).unwrap()
}

/// The ground length of a path.
fn length(corners: &[navstar::glam::Vec3]) -> f64 {
    corners
        .windows(2)
        .map(|w| f64::from(w[0].x - w[1].x).hypot(f64::from(w[0].z - w[1].z)))
        .sum()
}

/// Exact-mode lengths of `queries` random pairs on `loaded` (from its index, which the
/// query must not build: it has one) against the exact search on `reference` without an
/// index; with `tolerance` relative. Returns how many bend round a corner.
fn assert_exact_lengths(loaded: &NavMesh, reference: &NavMesh, queries: u32, tolerance: f64) {
    let options = PathOptions::default().with_mode(PathMode::Optimal);
    let mut from_index = Query::new(loaded);
    let mut searched = Query::new(reference);
    searched.set_fast_lane(false);
    let mut rng = Rng(0x1a4e);
    let n = loaded.polygon_count();
    let mut bent = 0;
    for i in 0..queries {
        let s = point_in_polygon(loaded, rng.below(n), rng.unit(), rng.unit(), rng.unit());
        let g = point_in_polygon(loaded, rng.below(n), rng.unit(), rng.unit(), rng.unit());
        let a = from_index
            .find_path(s, g, &options)
            .map(|p| (p.status, length(p.corners), p.corners.len()));
        let b = searched
            .find_path(s, g, &options)
            .map(|p| (p.status, length(p.corners)));
        match (a, b) {
            (Ok((sa, la, corners)), Ok((sb, lb))) => {
                assert_eq!(sa, sb, "query {i}: {s} -> {g}");
                assert!(
                    (la - lb).abs() <= tolerance * (1.0 + lb),
                    "query {i}: {s} -> {g}: {la} from the index, {lb} searched"
                );
                if sa == PathStatus::Complete && corners > 2 {
                    bent += 1;
                    assert_eq!(from_index.last_search_stats().expanded, 0, "query {i}");
                }
            }
            (a, b) => assert_eq!(a.is_err(), b.is_err(), "query {i}: {s} -> {g}"),
        }
    }
    assert!(bent > queries / 4, "only {bent} of {queries} paths bend");
}

#[test]
fn the_index_is_saved_and_loaded_without_building_it() {
    let mesh = den312d();
    let plain = mesh.to_bytes().unwrap();
    assert_eq!(section_records(&plain, b"LANE", 16), 0);
    assert_eq!(load_navstar_bytes(&plain).unwrap().fast_lane_stats(), None);
    assert!(mesh.prepare_fast_lane());
    let bytes = mesh.to_bytes().unwrap();
    assert_eq!(section_records(&bytes, b"LANE", 16), 1);
    let loaded = load_navstar_bytes(&bytes).unwrap();
    // Loaded with its index, before any query could build one.
    let stats = loaded.fast_lane_stats().expect("an index");
    assert_eq!(Some(stats), mesh.fast_lane_stats());
    assert!(stats.corners > 100 && stats.labels > stats.corners);
    assert_eq!(loaded.to_bytes().unwrap(), bytes);
    assert_exact_lengths(&loaded, &den312d(), 300, 1e-9);
}

/// `bytes` (of a mesh saved without an index) as version 2 wrote it: without the empty
/// index section that ends the tile, the lengths fixed and the checksum resealed.
fn as_version_2(bytes: &[u8]) -> Vec<u8> {
    assert_eq!(section_offset(bytes, b"LANE") + 12, bytes.len() + 12);
    let mut b = bytes[..bytes.len() - 12].to_vec();
    b[8..12].copy_from_slice(&2u32.to_le_bytes());
    let payload = (b.len() - 32) as u64;
    b[16..24].copy_from_slice(&payload.to_le_bytes());
    b[36..44].copy_from_slice(&(payload - 12).to_le_bytes());
    reseal(&mut b);
    b
}

#[test]
fn a_version_2_file_loads_without_an_index() {
    let mesh = den312d();
    let bytes = mesh.to_bytes().unwrap();
    assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), 3);
    let old = as_version_2(&bytes);
    let loaded = load_navstar_bytes(&old).unwrap();
    assert_eq!(loaded.fast_lane_stats(), None);
    // Saved again, it is a version 3 file with an empty index section.
    assert_eq!(loaded.to_bytes().unwrap(), bytes);
    // A version 3 file must have the section.
    let mut cut = old.clone();
    cut[8..12].copy_from_slice(&3u32.to_le_bytes());
    reseal(&mut cut);
    assert!(matches!(
        binary_error(&cut),
        BinaryError::Truncated {
            what: "fast-lane index",
            ..
        }
    ));
}

/// The file offset of record `record` of the section with `tag`, `size` bytes each.
fn record_at(bytes: &[u8], tag: &[u8; 4], size: usize, record: usize) -> usize {
    assert!(record < section_records(bytes, tag, size));
    section_offset(bytes, tag) + record * size
}

fn put_u32(bytes: &mut [u8], at: usize, value: u32) {
    bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
}

/// What loading `bytes` with `change` made (and resealed) says: the section named and
/// the reason.
fn refusal(bytes: &[u8], change: impl FnOnce(&mut Vec<u8>)) -> (&'static str, String) {
    let mut b = bytes.to_vec();
    change(&mut b);
    reseal(&mut b);
    match binary_error(&b) {
        BinaryError::Invalid {
            section, reason, ..
        }
        | BinaryError::Layout {
            section, reason, ..
        } => (section, reason),
        other => panic!("unexpected error {other:?}"),
    }
}

#[test]
fn a_damaged_index_is_refused_naming_its_section() {
    let mesh = den312d();
    assert!(mesh.prepare_fast_lane());
    let bytes = mesh.to_bytes().unwrap();
    let corners = section_records(&bytes, b"LCRN", 40);
    // A corner whose vertex is not where a wall ends (vertex 0 is a corner of the
    // merged copy's first polygon only if a wall ends there: find one that is not).
    let (section, reason) = refusal(&bytes, |b| {
        let at = record_at(b, b"LCRN", 40, 0);
        put_u32(b, at, u32::MAX);
    });
    assert_eq!(section, "fast-lane corners", "{reason}");
    // The walls flag neither 0 nor 1.
    let (section, _) = refusal(&bytes, |b| {
        let at = record_at(b, b"LCRN", 40, 1) + 4;
        put_u32(b, at, 2);
    });
    assert_eq!(section, "fast-lane corners");
    // A slot naming a corner beyond the last.
    let (section, reason) = refusal(&bytes, |b| {
        let slots = section_records(b, b"LSLT", 4);
        let slot = (0..slots)
            .find(|&s| {
                let at = record_at(b, b"LSLT", 4, s);
                u32::from_le_bytes(b[at..at + 4].try_into().unwrap()) != u32::MAX
            })
            .unwrap();
        let at = record_at(b, b"LSLT", 4, slot);
        put_u32(b, at, corners as u32);
    });
    assert_eq!(section, "fast-lane corner of each slot", "{reason}");
    // Offsets that decrease.
    let (section, _) = refusal(&bytes, |b| {
        let at = record_at(b, b"LSTA", 4, 1);
        put_u32(b, at, u32::MAX);
    });
    assert_eq!(section, "fast-lane label offsets");
    // A label whose next corner is another one: its distance is no longer the step
    // plus the rest (or the next corner has no label for the hub, or the corner has
    // no label for itself).
    let labels = section_records(&bytes, b"LLAB", 16);
    let mut refused = 0;
    for i in (0..labels).step_by(labels / 40) {
        let (section, reason) = refusal(&bytes, |b| {
            let at = record_at(b, b"LLAB", 16, i) + 4;
            let toward = u32::from_le_bytes(b[at..at + 4].try_into().unwrap());
            put_u32(b, at, (toward + 1) % corners as u32);
        });
        assert!(
            section == "fast-lane labels" || section == "fast-lane label offsets",
            "{section}: {reason}"
        );
        refused += 1;
    }
    assert!(refused >= 40);
    // A distance a little off.
    let (section, reason) = refusal(&bytes, |b| {
        let at = (0..labels)
            .map(|i| record_at(b, b"LLAB", 16, i))
            .find(|&at| f64::from_le_bytes(b[at + 8..at + 16].try_into().unwrap()) > 1.0)
            .unwrap();
        let d = f64::from_le_bytes(b[at + 8..at + 16].try_into().unwrap());
        b[at + 8..at + 16].copy_from_slice(&(d * 1.001).to_le_bytes());
    });
    assert_eq!(section, "fast-lane labels", "{reason}");
}

#[test]
fn flips_in_the_index_load_equal_or_fail() {
    let mesh = den312d();
    assert!(mesh.prepare_fast_lane());
    let bytes = mesh.to_bytes().unwrap();
    let reference = den312d();
    // A flip that passes the checks (the far ends of a corner's walls, the last bits of
    // a distance, the edge count) leaves an index that answers as the exact search
    // does, up to those bits.
    let refused = flips_from(&bytes, b"LANE", 0xf11e, 150, |loaded| {
        assert_exact_lengths(loaded, &reference, 40, 1e-6);
    });
    assert!(
        refused > 60,
        "only {refused} of 150 damaged indexes refused"
    );
}
