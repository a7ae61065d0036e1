//! The binary format (`.navstar`): a saved mesh loads to an equal mesh that answers
//! every query bit for bit as the original, on real maps and on meshes with links, areas,
//! flags and degenerate connectors; loading is much faster than building; damaged or
//! forged bytes are refused with an error that names the section, record and offset.

use std::path::Path;
use std::time::{Duration, Instant};

use glam::Vec3;
use navstar::io::{LoadError, load_mesh_file, load_navstar_bytes};
use navstar::{
    BinaryError, MeshError, MeshInput, MeshOptions, NavMesh, OffMeshLink, PathMode, PathOptions,
    Query, QueryFilter,
};

use crate::common::{Cell, Rng, point_in_polygon, random_grid, seeded_grid};
use crate::{GRID_DIR, MESH_DIR};

/// Saves and loads `mesh`; the reload saves to the same bytes.
fn round_trip(mesh: &NavMesh) -> NavMesh {
    let bytes = mesh.to_bytes().unwrap();
    let loaded = load_navstar_bytes(&bytes).unwrap_or_else(|e| panic!("reload refused: {e}"));
    assert_eq!(
        loaded.to_bytes().unwrap(),
        bytes,
        "a reloaded mesh saves differently"
    );
    let mut written = Vec::new();
    mesh.write_to(&mut written).unwrap();
    assert_eq!(written, bytes);
    loaded
}

/// Random queries in both modes (and with `filter`) answer identically on both meshes.
fn assert_same_answers(a: &NavMesh, b: &NavMesh, queries: usize, filter: &QueryFilter) {
    assert_eq!(a.polygon_count(), b.polygon_count());
    assert_eq!(a.island_count(), b.island_count());
    assert_eq!(a.bounds(), b.bounds());
    for p in 0..a.polygon_count() {
        assert_eq!(a.polygon_vertices(p), b.polygon_vertices(p));
        assert!(a.polygon_neighbours(p).eq(b.polygon_neighbours(p)));
        assert_eq!(a.island(p), b.island(p));
        assert_eq!(a.polygon_area(p), b.polygon_area(p));
        assert_eq!(a.polygon_flags(p), b.polygon_flags(p));
    }
    let (mut qa, mut qb) = (Query::new(a), Query::new(b));
    let mut rng = Rng(0x5eed ^ a.polygon_count() as u64);
    let n = a.polygon_count();
    for i in 0..queries {
        let start = point_in_polygon(a, rng.below(n), rng.unit(), rng.unit(), rng.unit());
        let goal = point_in_polygon(a, rng.below(n), rng.unit(), rng.unit(), rng.unit());
        let mut options = PathOptions::default();
        options.filter = filter.clone();
        options.mode = if i % 2 == 0 {
            PathMode::Funnel
        } else {
            PathMode::Optimal
        };
        let pa = qa.find_path(start, goal, &options).map(|p| {
            (
                p.corners.to_vec(),
                p.details.to_vec(),
                p.status,
                p.cost.to_bits(),
            )
        });
        let pb = qb.find_path(start, goal, &options).map(|p| {
            (
                p.corners.to_vec(),
                p.details.to_vec(),
                p.status,
                p.cost.to_bits(),
            )
        });
        assert_eq!(pa, pb, "query {i}: {start} -> {goal}");
        let off = start + Vec3::new(0.3, 2.0, -0.2);
        assert_eq!(
            a.nearest_point(off, 5.0, None),
            b.nearest_point(off, 5.0, None)
        );
        assert_eq!(
            a.raycast(start, goal, filter),
            b.raycast(start, goal, filter)
        );
    }
}

/// Loads `path` and its saved copy, checks they agree, returns (build, load) times.
fn compare_file(path: &str, queries: usize) -> (Duration, Duration) {
    let options = MeshOptions::default();
    let started = Instant::now();
    let built = load_mesh_file(Path::new(path), &options).unwrap();
    let build_time = started.elapsed();
    let bytes = built.to_bytes().unwrap();
    let started = Instant::now();
    let loaded = load_navstar_bytes(&bytes).unwrap();
    let load_time = started.elapsed();
    println!(
        "{path}: {} polygons, {} bytes, build {build_time:?}, load {load_time:?}",
        built.polygon_count(),
        bytes.len()
    );
    assert_same_answers(&built, &loaded, queries, &QueryFilter::default());
    // The queries may have built the fast lane's index on both (a mesh saves the one it
    // has): the two still save alike.
    assert_eq!(loaded.to_bytes().unwrap(), built.to_bytes().unwrap());
    (build_time, load_time)
}

#[test]
fn real_maps_round_trip_with_identical_answers() {
    compare_file(&format!("{MESH_DIR}/scene_mp_2p_01.mesh"), 200);
    compare_file(&format!("{MESH_DIR}/arena.mesh"), 200);
    compare_file(&format!("{GRID_DIR}/maze512-1-0.map"), 60);
}

/// A seeded grid with areas, flags, one-way and two-way links.
fn decorated_mesh(seed: u64) -> NavMesh {
    let soup = seeded_grid(seed, 14, 10);
    let probe = soup.build();
    let count = probe.polygon_count();
    let areas: Vec<u8> = (0..count).map(|p| (p % 3) as u8).collect();
    let flags: Vec<u32> = (0..count).map(|p| if p % 7 == 3 { 2 } else { 1 }).collect();
    let mut rng = Rng(seed);
    let links: Vec<OffMeshLink> = (0..6)
        .map(|i| {
            let a = point_in_polygon(&probe, rng.below(count), rng.unit(), rng.unit(), rng.unit());
            let b = point_in_polygon(&probe, rng.below(count), rng.unit(), rng.unit(), rng.unit());
            let mut link = OffMeshLink::new(a, b);
            link.bidirectional = i % 2 == 0;
            link.area = (i % 2) as u8;
            link.flags = 1 + (i % 2) as u32;
            link
        })
        .collect();
    let input = MeshInput::new(&soup.vertices, &soup.indices)
        .with_polygon_sizes(&soup.sizes)
        .with_areas(&areas)
        .with_flags(&flags)
        .with_links(&links);
    NavMesh::from_input(&input, &MeshOptions::default()).unwrap()
}

#[test]
fn links_areas_and_flags_survive_the_round_trip() {
    for seed in 1..6 {
        let mesh = decorated_mesh(seed);
        // Flags changed at run time are saved as they are.
        mesh.set_polygon_flags(0, 4).unwrap();
        mesh.set_link_flags(1, 0).unwrap();
        let loaded = round_trip(&mesh);
        assert_eq!(loaded.link_count(), mesh.link_count());
        for l in 0..mesh.link_count() {
            assert_eq!(loaded.link_flags(l), mesh.link_flags(l));
        }
        let filter = QueryFilter::default()
            .with_area_cost(1, 3.0)
            .with_area_cost(2, 0.5);
        assert_same_answers(&mesh, &loaded, 100, &filter);
        let mut excluding = filter.clone();
        excluding.exclude_flags = 2;
        assert_same_answers(&mesh, &loaded, 100, &excluding);
    }
}

#[test]
fn degenerate_connectors_survive_the_round_trip() {
    let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    let vertices = [
        v(0.0, 1.0),
        v(1.0, 1.0),
        v(2.0, 1.0),
        v(2.0, 2.0),
        v(0.0, 2.0),
        v(0.0, 0.0),
        v(1.0, 0.0),
        v(2.0, 0.0),
    ];
    let indices = [0, 2, 3, 4, 5, 6, 1, 0, 6, 7, 2, 1, 0, 1, 2];
    let mut options = MeshOptions::default();
    options.allow_degenerate_connectors = true;
    let mesh = NavMesh::from_polygons(&vertices, &indices, &[4, 4, 4, 3], &options).unwrap();
    let loaded = round_trip(&mesh);
    assert_same_answers(&mesh, &loaded, 100, &QueryFilter::default());
}

/// Rewrites the header's checksum so that validation itself is exercised.
pub(crate) fn reseal(bytes: &mut [u8]) {
    let crc = crc32(&bytes[32..]);
    bytes[24..28].copy_from_slice(&crc.to_le_bytes());
}

/// CRC-32 (IEEE), bit by bit: slow but independent of the library's.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

pub(crate) fn binary_error(bytes: &[u8]) -> BinaryError {
    match load_navstar_bytes(bytes) {
        Err(LoadError::Binary(e)) => e,
        Err(other) => panic!("not a binary error: {other}"),
        Ok(_) => panic!("damaged bytes were accepted"),
    }
}

/// The file offset of the section with `tag`.
pub(crate) fn section_offset(bytes: &[u8], tag: &[u8; 4]) -> usize {
    let mut at = 32 + 12; // the header, then the tile record's tag and length
    loop {
        let length = u64::from_le_bytes(bytes[at + 4..at + 12].try_into().unwrap()) as usize;
        if &bytes[at..at + 4] == tag {
            return at + 12;
        }
        at += 12 + length;
    }
}

#[test]
fn header_damage_is_named() {
    let bytes = decorated_mesh(3).to_bytes().unwrap();
    assert_eq!(binary_error(b"NOTNAVST"), BinaryError::BadMagic);
    assert!(matches!(
        binary_error(&bytes[..20]),
        BinaryError::Truncated { what: "header", .. }
    ));
    // Version 1 files (without the merged copy) are refused, saying which version to save.
    let mut v1 = bytes.clone();
    v1[8] = 1;
    let e = binary_error(&v1);
    assert!(
        matches!(
            e,
            BinaryError::UnsupportedVersion {
                version: 1,
                supported: 3
            }
        ),
        "{e}"
    );
    assert!(
        e.to_string().contains("version 1")
            && e.to_string().contains("versions 2 to 3")
            && e.to_string().contains("save"),
        "{e}"
    );
    // A version from the future is refused too.
    let mut v4 = bytes.clone();
    v4[8] = 4;
    assert!(matches!(
        binary_error(&v4),
        BinaryError::UnsupportedVersion { version: 4, .. }
    ));
    let mut flipped = bytes.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 0x10;
    assert!(matches!(
        binary_error(&flipped),
        BinaryError::ChecksumMismatch { .. }
    ));
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(matches!(
        binary_error(&longer),
        BinaryError::Layout {
            section: "header",
            ..
        }
    ));
    // Every prefix is refused, none panics.
    for cut in 0..bytes.len() {
        assert!(
            load_navstar_bytes(&bytes[..cut]).is_err(),
            "prefix {cut} accepted"
        );
    }
}

#[test]
fn inconsistent_tables_are_refused_naming_section_record_and_offset() {
    let mesh = decorated_mesh(2);
    let bytes = mesh.to_bytes().unwrap();
    let forge = |tag: &[u8; 4], record: usize, size: usize, value: &[u8]| {
        let mut b = bytes.clone();
        let at = section_offset(&b, tag) + record * size;
        b[at..at + value.len()].copy_from_slice(value);
        reseal(&mut b);
        (binary_error(&b), at as u64)
    };
    // A wall made a neighbour: it does not point back.
    let slot = (0..mesh.polygon_count())
        .flat_map(|p| mesh.polygon_neighbours(p))
        .position(|n| n.is_none())
        .unwrap();
    let (e, at) = forge(b"NEIB", slot, 4, &0u32.to_le_bytes());
    match e {
        BinaryError::Invalid {
            section,
            record,
            offset,
            ..
        } => {
            assert_eq!((section, record, offset), ("neighbours", slot as u64, at));
        }
        other => panic!("{other}"),
    }
    // A corner out of range.
    let (e, _) = forge(b"CORN", 5, 4, &u32::MAX.to_le_bytes());
    assert!(
        matches!(
            e,
            BinaryError::Invalid {
                section: "corners",
                record: 5,
                ..
            }
        ),
        "{e}"
    );
    // An island label that disagrees with the adjacency.
    let (e, _) = forge(b"ISLE", 0, 4, &7u32.to_le_bytes());
    assert!(
        matches!(
            e,
            BinaryError::Invalid {
                section: "islands",
                record: 0,
                ..
            }
        ),
        "{e}"
    );
    // A polygon's box in the index that is not its box.
    let (e, _) = forge(b"BVHE", 3, 28, &[0, 0, 0, 0, 0, 0, 0x80, 0x49]);
    assert!(
        matches!(
            e,
            BinaryError::Invalid {
                section: "index entries",
                ..
            }
        ),
        "{e}"
    );
    // An index node whose box misses its polygons.
    let (e, _) = forge(b"BVHN", 0, 32, &1.0e6f32.to_le_bytes());
    assert!(
        matches!(
            e,
            BinaryError::Invalid {
                section: "index nodes",
                ..
            }
        ),
        "{e}"
    );
    // A vertex moved makes a polygon non-convex or its boxes wrong: either is refused.
    let used = mesh.polygon_vertices(0)[0] as usize;
    let (e, _) = forge(b"VERT", used, 12, &1.0e6f32.to_le_bytes());
    assert!(
        matches!(e, BinaryError::Mesh(_) | BinaryError::Invalid { .. }),
        "{e}"
    );
    // A non-finite vertex is the builder's error.
    let (e, _) = forge(b"VERT", 1, 12, &f32::NAN.to_le_bytes()); // used or not
    assert!(
        matches!(
            e,
            BinaryError::Mesh(MeshError::NonFiniteVertex { vertex: 1, .. })
        ),
        "{e}"
    );
    // A link hop moved off its polygon.
    let (e, _) = forge(b"HOPS", 0, 32, &[0, 0, 0, 0, 0, 0, 0x80, 0x49]);
    assert!(
        matches!(
            e,
            BinaryError::Invalid {
                section: "link hops",
                record: 0,
                ..
            }
        ),
        "{e}"
    );
    // A section length that is not a whole number of records.
    let mut b = bytes.clone();
    let at = section_offset(&b, b"TWIN") - 8;
    let length = u64::from_le_bytes(b[at..at + 8].try_into().unwrap());
    b[at..at + 8].copy_from_slice(&(length - 1).to_le_bytes());
    reseal(&mut b);
    assert!(matches!(binary_error(&b), BinaryError::Layout { .. }));
}

#[test]
fn random_flips_with_a_resealed_checksum_load_equal_or_fail() {
    let mesh = decorated_mesh(4);
    let bytes = mesh.to_bytes().unwrap();
    let mut rng = Rng(77);
    let mut refused = 0;
    for _ in 0..400 {
        let mut b = bytes.clone();
        let at = 32 + rng.below((b.len() - 32) as u32) as usize;
        b[at] ^= 1 << rng.below(8);
        assert!(
            load_navstar_bytes(&b).is_err(),
            "a flip passed the checksum"
        );
        reseal(&mut b);
        match load_navstar_bytes(&b) {
            Err(_) => refused += 1,
            // Some flips are harmless (a flag, a link cost): the mesh still answers.
            Ok(loaded) => {
                let mut query = Query::new(&loaded);
                let (s, g) = (loaded.vertices()[0], loaded.vertices()[3]);
                let _ = query.find_path(s, g, &PathOptions::default());
                assert_eq!(loaded.to_bytes().unwrap(), b);
            }
        }
    }
    assert!(refused > 200, "only {refused} of 400 forged files refused");
}

#[test]
fn loading_is_much_faster_than_building() {
    // Timings in a debug build say little; the release figures are in the CLI's
    // `info` output. Here: loading at least beats building on the largest map.
    let (build, load) = compare_file(&format!("{GRID_DIR}/maze512-1-0.map"), 0);
    assert!(load < build, "load {load:?} vs build {build:?}");
}

#[test]
fn a_two_way_link_inside_one_polygon_round_trips() {
    // Found by the load_navstar fuzz target: both hops of such a link leave from the
    // same polygon, with the same link number.
    let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    let vertices = [v(0.0, 0.0), v(4.0, 0.0), v(4.0, 4.0), v(0.0, 4.0)];
    let links = [OffMeshLink::new(v(1.0, 1.0), v(3.0, 3.0))];
    let input = MeshInput::new(&vertices, &[0, 1, 2, 3])
        .with_polygon_sizes(&[4])
        .with_links(&links);
    let mesh = NavMesh::from_input(&input, &MeshOptions::default()).unwrap();
    let loaded = round_trip(&mesh);
    assert_same_answers(&mesh, &loaded, 20, &QueryFilter::default());
}

/// A unit grid of `cols x rows` squares, each cut into two triangles: its merged copy
/// has far fewer polygons.
fn triangulated_grid(cols: usize, rows: usize) -> NavMesh {
    let cells = vec![Cell::DiagonalA; cols * rows];
    random_grid(
        cols,
        rows,
        &cells,
        &vec![(0.0, 0.0); (cols + 1) * (rows + 1)],
        0.0,
    )
    .build()
}

/// The number of records of the section with `tag`, `size` bytes each.
pub(crate) fn section_records(bytes: &[u8], tag: &[u8; 4], size: usize) -> usize {
    let at = section_offset(bytes, tag);
    u64::from_le_bytes(bytes[at - 8..at].try_into().unwrap()) as usize / size
}

/// `bytes` (of a mesh without the fast lane's index) without the merged copy: its
/// polygon map emptied and its tables dropped (only the empty index section follows
/// them), the lengths fixed and the checksum resealed.
fn without_merged_copy(bytes: &[u8]) -> Vec<u8> {
    assert_eq!(section_records(bytes, b"LANE", 16), 0);
    let at = section_offset(bytes, b"MRGD");
    let mut b = bytes[..at].to_vec();
    b[at - 8..at].copy_from_slice(&0u64.to_le_bytes());
    b.extend_from_slice(b"LANE");
    b.extend_from_slice(&0u64.to_le_bytes());
    let payload = (b.len() - 32) as u64;
    b[16..24].copy_from_slice(&payload.to_le_bytes());
    b[36..44].copy_from_slice(&(payload - 12).to_le_bytes());
    reseal(&mut b);
    b
}

#[test]
fn the_merged_copy_is_saved_and_checked() {
    let mesh = triangulated_grid(6, 4);
    let bytes = mesh.to_bytes().unwrap();
    assert_eq!(section_records(&bytes, b"MRGD", 4), 48);
    assert!(section_records(&bytes, b"MPOL", 4) <= 13, "the copy merges");
    let loaded = round_trip(&mesh);
    assert_same_answers(&mesh, &loaded, 200, &QueryFilter::default());
    // A file that leaves out the copy of a mesh that merges is refused.
    let e = binary_error(&without_merged_copy(&bytes));
    assert!(
        matches!(
            e,
            BinaryError::Layout {
                section: "merged polygon of each polygon",
                ..
            }
        ),
        "{e}"
    );
    let forge = |tag: &[u8; 4], record: usize, size: usize, value: &[u8]| {
        let mut b = bytes.clone();
        let at = section_offset(&b, tag) + record * size;
        b[at..at + value.len()].copy_from_slice(value);
        reseal(&mut b);
        binary_error(&b)
    };
    // A triangle mapped to a merged polygon that does not hold it.
    let merged = section_records(&bytes, b"MPOL", 4) as u32 - 1;
    let at = section_offset(&bytes, b"MRGD");
    let first = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    let e = forge(b"MRGD", 0, 4, &((first + 1) % merged).to_le_bytes());
    assert!(
        matches!(
            e,
            BinaryError::Invalid {
                section: "merged polygon of each polygon",
                ..
            }
        ),
        "{e}"
    );
    // A merged polygon out of range.
    let e = forge(b"MRGD", 5, 4, &merged.to_le_bytes());
    assert!(matches!(e, BinaryError::Invalid { record: 5, .. }), "{e}");
    // A merged corner moved to another vertex: the copy no longer covers its polygons
    // (or is no longer convex).
    for corner in 0..section_records(&bytes, b"MCOR", 4) {
        let at = section_offset(&bytes, b"MCOR") + corner * 4;
        let v = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
        let other = (v + 1) % mesh.vertex_count();
        let e = forge(b"MCOR", corner, 4, &other.to_le_bytes());
        assert!(
            matches!(e, BinaryError::Mesh(_) | BinaryError::Invalid { .. }),
            "{e}"
        );
    }
    // The copy's index and adjacency are checked as the mesh's.
    let e = forge(b"MBVE", 0, 28, &[0, 0, 0, 0, 0, 0, 0x80, 0x49]);
    assert!(
        matches!(
            e,
            BinaryError::Invalid {
                section: "merged index entries",
                ..
            }
        ),
        "{e}"
    );
    let e = forge(b"MNEI", 0, 4, &0u32.to_le_bytes());
    assert!(e.to_string().contains("merged"), "{e}");
}

#[test]
fn a_mesh_that_does_not_merge_saves_no_copy() {
    let mesh = load_mesh_file(
        Path::new(&format!("{GRID_DIR}/den520d.map")),
        &MeshOptions::default(),
    )
    .unwrap();
    let bytes = mesh.to_bytes().unwrap();
    assert_eq!(section_records(&bytes, b"MRGD", 4), 0);
    assert_eq!(without_merged_copy(&bytes), bytes);
    let loaded = round_trip(&mesh);
    assert_same_answers(&mesh, &loaded, 40, &QueryFilter::default());
}

/// Loads `flips` copies of `bytes`, each with one bit flipped from the section with
/// `tag` on and the checksum resealed; each copy that loads must save to its own bytes
/// and pass `check`. Returns how many were refused.
pub(crate) fn flips_from(
    bytes: &[u8],
    tag: &[u8; 4],
    seed: u64,
    flips: u32,
    check: impl Fn(&NavMesh),
) -> u32 {
    let start = section_offset(bytes, tag) - 12;
    let mut rng = Rng(seed);
    let mut refused = 0;
    for _ in 0..flips {
        let mut b = bytes.to_vec();
        let at = start + rng.below((b.len() - start) as u32) as usize;
        b[at] ^= 1 << rng.below(8);
        reseal(&mut b);
        match load_navstar_bytes(&b) {
            Err(_) => refused += 1,
            Ok(loaded) => {
                assert_eq!(loaded.to_bytes().unwrap(), b);
                check(&loaded);
            }
        }
    }
    refused
}

#[test]
fn flips_in_the_merged_copy_load_equal_or_fail() {
    let mesh = triangulated_grid(5, 3);
    let bytes = mesh.to_bytes().unwrap();
    let refused = flips_from(&bytes, b"MRGD", 91, 300, |loaded| {
        assert_same_answers(&mesh, loaded, 10, &QueryFilter::default());
    });
    assert!(refused > 250, "only {refused} of 300 forged copies refused");
}

#[test]
fn the_baked_agent_radius_is_saved_and_checked() {
    // An L of three 2 x 2 squares, built for agents of radius 0.25.
    let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    let vertices = [
        v(0.0, 0.0),
        v(2.0, 0.0),
        v(4.0, 0.0),
        v(0.0, 2.0),
        v(2.0, 2.0),
        v(4.0, 2.0),
        v(0.0, 4.0),
        v(2.0, 4.0),
    ];
    let indices = [0, 3, 4, 1, 1, 4, 5, 2, 3, 6, 7, 4];
    let options = MeshOptions::default().with_agent_radius(0.25);
    let mesh = NavMesh::from_polygons(&vertices, &indices, &[4; 3], &options).unwrap();
    let loaded = round_trip(&mesh);
    assert_eq!(loaded.agent_radius(), 0.25);
    // A query for a larger agent erodes the loaded mesh by the same difference (0.5):
    // the same path round the inner corner (2, 2).
    let (from, to) = (v(3.5, 1.0), v(1.0, 3.5));
    let radius = PathOptions::default().with_agent_radius(0.75);
    let original = Query::new(&mesh).find_path_vec(from, to, &radius).unwrap();
    let reloaded = Query::new(&loaded)
        .find_path_vec(from, to, &radius)
        .unwrap();
    assert_eq!(original.corners, reloaded.corners);
    assert!(original.corners.len() > 2, "{:?}", original.corners);
    // Forged radii are refused, naming the field.
    let bytes = mesh.to_bytes().unwrap();
    for bad in [f32::NAN, f32::INFINITY, -1.0, -0.0] {
        let mut b = bytes.clone();
        let at = section_offset(&b, b"OPTS") + 8;
        b[at..at + 4].copy_from_slice(&bad.to_le_bytes());
        reseal(&mut b);
        match binary_error(&b) {
            BinaryError::Invalid {
                section, reason, ..
            } => {
                assert_eq!(section, "options");
                assert!(reason.contains("baked agent radius"), "{reason}");
            }
            other => panic!("{bad}: {other}"),
        }
    }
    // A file with 0 there (as written before the radius was kept) loads as radius 0.
    let plain = NavMesh::from_polygons(&vertices, &indices, &[4; 3], &MeshOptions::default());
    assert_eq!(round_trip(&plain.unwrap()).agent_radius(), 0.0);
}
