//! Detour data written by hand (a small encoder of the layout below, test-only) and read
//! back.

use glam::Vec3;

use super::*;
use crate::{PathOptions, PathStatus, Query};

/// An off-mesh connection to encode: start, end, radius, two-way, area, flags.
type Connection = ([f32; 3], [f32; 3], f32, bool, u8, u16);

/// A tile to encode: polygons in Detour's winding (clockwise seen as (x, z)).
struct TileSpec {
    verts: Vec<[f32; 3]>,
    polys: Vec<Vec<u16>>,
    areas: Vec<u8>,
    flags: Vec<u16>,
    cons: Vec<Connection>,
    grid: [i32; 3],
    max_links: usize,
    detail_tris: usize,
}

fn pad(out: &mut Vec<u8>) {
    while out.len() % 4 != 0 {
        out.push(0);
    }
}

fn put_i32(out: &mut Vec<u8>, v: i32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put_f32(out: &mut Vec<u8>, v: f32) {
    out.extend_from_slice(&v.to_le_bytes());
}

/// Encodes `spec` as `dtCreateNavMeshData` lays data out (no detail meshes, no tree;
/// `detail_tris` zero bytes of detail triangles to exercise the padding).
fn encode(spec: &TileSpec) -> Vec<u8> {
    let ground = spec.polys.len();
    let mut verts = spec.verts.clone();
    for con in &spec.cons {
        verts.push(con.0);
        verts.push(con.1);
    }
    let poly_count = ground + spec.cons.len();
    let mut out = Vec::new();
    put_i32(&mut out, i32::from_be_bytes(*b"DNAV"));
    put_i32(&mut out, 7);
    for v in spec.grid {
        put_i32(&mut out, v);
    }
    put_i32(&mut out, 0); // userId
    for count in [
        poly_count,
        verts.len(),
        spec.max_links,
        0,
        0,
        spec.detail_tris,
        0,
    ] {
        put_i32(&mut out, count as i32);
    }
    put_i32(&mut out, spec.cons.len() as i32);
    put_i32(&mut out, ground as i32);
    for v in [2.0, 0.6, 0.9, 0.0, 0.0, 0.0, 10.0, 1.0, 10.0, 1.0] {
        put_f32(&mut out, v);
    }
    assert_eq!(out.len(), 100);
    for v in &verts {
        for &c in v {
            put_f32(&mut out, c);
        }
    }
    let mut rows: Vec<(Vec<u16>, u16, u8)> = spec
        .polys
        .iter()
        .zip(&spec.areas)
        .zip(&spec.flags)
        .map(|((p, &a), &f)| (p.clone(), f, a))
        .collect();
    for (i, con) in spec.cons.iter().enumerate() {
        let v = (spec.verts.len() + 2 * i) as u16;
        rows.push((vec![v, v + 1], con.5, con.4 | 1 << 6));
    }
    for (corners, flags, area_and_type) in rows {
        out.extend_from_slice(&u32::MAX.to_le_bytes());
        for k in 0..6 {
            let v = corners.get(k).copied().unwrap_or(0xffff);
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&[0; 12]);
        out.extend_from_slice(&flags.to_le_bytes());
        out.push(corners.len() as u8);
        out.push(area_and_type);
    }
    out.resize(out.len() + 12 * spec.max_links, 0xab);
    out.resize(out.len() + 4 * spec.detail_tris, 0);
    pad(&mut out);
    for (i, con) in spec.cons.iter().enumerate() {
        for &c in con.0.iter().chain(&con.1) {
            put_f32(&mut out, c);
        }
        put_f32(&mut out, con.2);
        out.extend_from_slice(&((ground + i) as u16).to_le_bytes());
        out.push(u8::from(con.3));
        out.push(0);
        put_i32(&mut out, 0);
    }
    out
}

/// Two unit squares side by side along x, clockwise seen as (x, z).
fn two_squares(x0: f32) -> TileSpec {
    let v = |x: f32, z: f32| [x0 + x, 0.0, z];
    TileSpec {
        verts: vec![
            v(0.0, 0.0),
            v(1.0, 0.0),
            v(2.0, 0.0),
            v(0.0, 1.0),
            v(1.0, 1.0),
            v(2.0, 1.0),
        ],
        polys: vec![vec![0, 3, 4, 1], vec![1, 4, 5, 2]],
        areas: vec![0, 5],
        flags: vec![1, 0x8001],
        cons: Vec::new(),
        grid: [0, 0, 0],
        max_links: 8,
        detail_tris: 3,
    }
}

fn encode_set(tiles: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::new();
    put_i32(&mut out, i32::from_be_bytes(*b"MSET"));
    put_i32(&mut out, 1);
    put_i32(&mut out, tiles.len() as i32);
    for v in [0.0, 0.0, 0.0, 2.0, 2.0] {
        put_f32(&mut out, v);
    }
    put_i32(&mut out, 4);
    put_i32(&mut out, 64);
    for (i, tile) in tiles.iter().enumerate() {
        put_i32(&mut out, i as i32 + 1);
        put_i32(&mut out, tile.len() as i32);
        out.extend_from_slice(tile);
    }
    out
}

fn detour_error(result: Result<impl Sized, LoadError>) -> DetourError {
    match result {
        Err(LoadError::Detour(e)) => e,
        Err(other) => panic!("not a Detour error: {other}"),
        Ok(_) => panic!("loaded"),
    }
}

#[test]
fn a_tile_loads_with_areas_flags_and_agent() {
    let bytes = encode(&two_squares(0.0));
    let tile = load_detour_tile_bytes(&bytes, &MeshOptions::default()).unwrap();
    let mesh = &tile.mesh;
    assert_eq!(mesh.polygon_count(), 2);
    assert_eq!(mesh.up_axis(), UpAxis::Y);
    assert_eq!((mesh.polygon_area(0), mesh.polygon_area(1)), (0, 5));
    assert_eq!((mesh.polygon_flags(0), mesh.polygon_flags(1)), (1, 0x8001));
    assert_eq!(
        tile.agent,
        DetourAgent {
            height: 2.0,
            radius: 0.6,
            climb: 0.9
        }
    );
    // Corners reversed to navstar's winding: Detour's [0, 3, 4, 1] is [1, 4, 3, 0].
    let corners: Vec<Vec3> = mesh
        .polygon_vertices(0)
        .iter()
        .map(|&v| mesh.vertex(v))
        .collect();
    assert_eq!(
        corners,
        [Vec3::X, Vec3::new(1.0, 0.0, 1.0), Vec3::Z, Vec3::ZERO]
    );
    let mut query = Query::new(mesh);
    let path = query
        .find_path(
            Vec3::new(0.2, 0.0, 0.5),
            Vec3::new(1.8, 0.0, 0.5),
            &PathOptions::default(),
        )
        .unwrap();
    assert_eq!(path.status, PathStatus::Complete);
    assert!((path.length() - 1.6).abs() < 1e-5);
    // The same bytes through the format dispatch give the same polygons.
    let again = load_detour_bytes(&bytes, &MeshOptions::default())
        .unwrap()
        .mesh();
    assert_eq!(again.polygon_vertices(1), mesh.polygon_vertices(1));
}

#[test]
fn off_mesh_connections_become_links() {
    let mut spec = two_squares(0.0);
    spec.cons
        .push(([0.5, 0.0, 0.5], [1.5, 0.0, 0.5], 0.25, false, 7, 4));
    let tile = load_detour_tile_bytes(&encode(&spec), &MeshOptions::default()).unwrap();
    assert_eq!(
        tile.mesh.polygon_count(),
        2,
        "the connection's polygon is not a polygon"
    );
    assert_eq!(tile.mesh.link_count(), 1);
    assert_eq!(tile.mesh.link_flags(0), 4);
}

#[test]
fn a_set_becomes_a_world_stitched_at_the_seam() {
    let mut right = two_squares(2.0);
    right.grid = [1, 0, 0];
    let bytes = encode_set(&[encode(&two_squares(0.0)), encode(&right)]);
    let set =
        load_detour_set_bytes(&bytes, &MeshOptions::default(), &WorldOptions::default()).unwrap();
    assert_eq!(set.world.tile_count(), 2);
    assert_eq!(set.tiles[1].grid, [1, 0, 0]);
    assert_eq!(set.params.max_polys, 64);
    assert_eq!(set.baked_radius(), 0.6);
    let mesh = set.world.snapshot();
    assert_eq!(mesh.polygon_count(), 4);
    let mut query = Query::new(&mesh);
    let path = query
        .find_path(
            Vec3::new(0.5, 0.0, 0.5),
            Vec3::new(3.5, 0.0, 0.5),
            &PathOptions::default(),
        )
        .unwrap();
    assert_eq!(path.status, PathStatus::Complete);
    assert!((path.length() - 3.0).abs() < 1e-5);
    assert!(matches!(
        load_detour_bytes(&bytes, &MeshOptions::default()),
        Ok(DetourData::Set(_))
    ));
}

#[test]
fn errors_name_the_field_and_offset() {
    let good = encode(&two_squares(0.0));
    let mut bad = good.clone();
    bad[4] = 6;
    let e = detour_error(load_detour_tile_bytes(&bad, &MeshOptions::default()));
    assert_eq!(e.offset, 4);
    assert!(e.message.contains("version is 6"), "{e}");

    // Poly 1's third corner (verts[2], at 100 + 6 * 12 + 32 + 4 + 4) names vertex 99.
    let at = 100 + 6 * 12 + 32 + 8;
    let mut bad = good.clone();
    bad[at..at + 2].copy_from_slice(&99u16.to_le_bytes());
    let e = detour_error(load_detour_tile_bytes(&bad, &MeshOptions::default()));
    assert_eq!(e.offset, at as u64);
    assert!(e.message.contains("poly 1 verts[2] is 99"), "{e}");

    let mut bad = good.clone();
    bad[100 + 12 + 4..100 + 12 + 8].copy_from_slice(&f32::NAN.to_le_bytes());
    let e = detour_error(load_detour_tile_bytes(&bad, &MeshOptions::default()));
    assert_eq!(
        (e.offset, e.message.contains("vertex 1 coordinate 1")),
        (116, true),
        "{e}"
    );

    let mut bad = good.clone();
    bad[28..32].copy_from_slice(&(-3i32).to_le_bytes());
    let e = detour_error(load_detour_tile_bytes(&bad, &MeshOptions::default()));
    assert!(e.message.contains("vertCount is -3"), "{e}");

    let mut bad = good.clone();
    bad.push(0);
    let e = detour_error(load_detour_tile_bytes(&bad, &MeshOptions::default()));
    assert!(e.message.contains("header's counts make"), "{e}");

    let e = detour_error(load_detour_bytes(&encode_set(&[]), &MeshOptions::default()));
    assert_eq!(e.offset, 8);
    assert!(e.message.contains("numTiles is 0"), "{e}");

    let e = detour_error(load_detour_bytes(b"MSET\0\0", &MeshOptions::default()));
    assert!(e.message.contains("neither"), "{e}");

    let mut set = encode_set(std::slice::from_ref(&good));
    set[44..48].copy_from_slice(&(good.len() as i32 + 1).to_le_bytes());
    let e = detour_error(load_detour_set_bytes(
        &set,
        &MeshOptions::default(),
        &WorldOptions::default(),
    ));
    assert_eq!(e.offset, 44);
    assert!(e.message.contains("tile 0 dataSize"), "{e}");
}

#[test]
fn every_truncation_and_byte_flip_is_refused_or_loads_a_valid_mesh() {
    let mut spec = two_squares(0.0);
    spec.cons
        .push(([0.5, 0.0, 0.5], [1.5, 0.0, 0.5], 0.25, true, 1, 2));
    let tile = encode(&spec);
    let set = encode_set(std::slice::from_ref(&tile));
    for bytes in [&tile, &set] {
        for len in 0..bytes.len() {
            assert!(
                load_detour_bytes(&bytes[..len], &MeshOptions::default()).is_err(),
                "{len}"
            );
        }
        for at in 0..bytes.len() {
            for mask in [0x01u8, 0x80, 0xff] {
                let mut flipped = bytes.clone();
                flipped[at] ^= mask;
                if let Ok(data) = load_detour_bytes(&flipped, &MeshOptions::default()) {
                    let mesh = data.mesh();
                    assert!(mesh.polygon_count() >= 1);
                    let again = load_detour_bytes(&flipped, &MeshOptions::default())
                        .unwrap()
                        .mesh();
                    assert_eq!(soup_of(&again), soup_of(&mesh));
                }
            }
        }
    }
}

/// Polygons and vertices of a mesh, for comparing two loads.
#[derive(PartialEq, Debug)]
struct PolygonSoupOf(crate::io::PolygonSoup);

fn soup_of(mesh: &NavMesh) -> PolygonSoupOf {
    PolygonSoupOf(crate::io::PolygonSoup::from_mesh(mesh))
}
