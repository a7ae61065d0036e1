//! Fuzzes the Recast/Detour loader (`navstar::io::load_detour_bytes`): single-tile data
//! and RecastDemo set files.
//!
//! Two kinds of input: arbitrary bytes, and a valid grid of square polygons (with an
//! off-mesh connection), as one tile or a set of tiles, damaged by byte flips (so that
//! the checks behind the magic and the sizes are reached).
//!
//! Checks: no panic, whatever the bytes; what loads is a mesh with polygons whose
//! queries are valid (on each tile); loading the same bytes again gives the same polygons, vertices,
//! areas, flags and link count; the undamaged input always loads; the C loader
//! (`navstar_mesh_load_bytes` with `NAVSTAR_FORMAT_DETOUR`) answers as the Rust loader.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use navstar::MeshOptions;
use navstar::ffi::NAVSTAR_FORMAT_DETOUR;
use navstar::io::{DetourData, PolygonSoup, load_detour_bytes};
use navstar_fuzz::loaders::check_load_bytes;
use navstar_fuzz::{MeshOpts, run_queries};

#[derive(Arbitrary, Debug)]
struct Input {
    /// Bytes to load as they are (when `grid` is `None`).
    raw: Vec<u8>,
    /// Columns and rows of unit squares (each 1 to 4), and whether to wrap the tile in
    /// a set file (two tiles side by side).
    grid: Option<(u8, u8, bool)>,
    /// (position, xor mask) pairs applied to the encoded bytes.
    flips: Vec<(u32, u8)>,
    /// Query picks.
    picks: [u8; 32],
}

fn put(out: &mut Vec<u8>, bytes: [u8; 4]) {
    out.extend_from_slice(&bytes);
}

/// A tile of `w * h` unit squares from x = `x0`, in Detour's layout (no detail mesh, no
/// tree), with one two-way off-mesh connection across it.
fn encode_tile(w: usize, h: usize, x0: f32) -> Vec<u8> {
    let mut verts: Vec<[f32; 3]> = Vec::new();
    for z in 0..=h {
        for x in 0..=w {
            verts.push([x0 + x as f32, 0.0, z as f32]);
        }
    }
    let ground = verts.len();
    verts.push([x0 + 0.5, 0.0, 0.5]);
    verts.push([x0 + w as f32 - 0.5, 0.0, h as f32 - 0.5]);
    let at = |x: usize, z: usize| (z * (w + 1) + x) as u16;
    let mut polys: Vec<(Vec<u16>, u8)> = Vec::new();
    for z in 0..h {
        for x in 0..w {
            // Clockwise seen as (x, z), as Detour winds them.
            polys.push((
                vec![at(x, z), at(x, z + 1), at(x + 1, z + 1), at(x + 1, z)],
                0,
            ));
        }
    }
    let off_mesh_base = polys.len();
    polys.push((vec![ground as u16, ground as u16 + 1], 1 << 6));
    let mut out = Vec::new();
    put(&mut out, *b"VAND");
    for v in [
        7,
        0,
        0,
        0,
        0,
        polys.len(),
        verts.len(),
        0,
        0,
        0,
        0,
        0,
        1,
        off_mesh_base,
    ] {
        put(&mut out, (v as i32).to_le_bytes());
    }
    for v in [
        2.0f32,
        0.5,
        0.5,
        x0,
        0.0,
        0.0,
        x0 + w as f32,
        1.0,
        h as f32,
        1.0,
    ] {
        put(&mut out, v.to_le_bytes());
    }
    for v in verts.iter().flatten() {
        put(&mut out, v.to_le_bytes());
    }
    for (corners, area_and_type) in &polys {
        put(&mut out, u32::MAX.to_le_bytes());
        for k in 0..6 {
            out.extend_from_slice(&corners.get(k).copied().unwrap_or(0xffff).to_le_bytes());
        }
        out.extend_from_slice(&[0; 12]);
        out.extend_from_slice(&1u16.to_le_bytes());
        out.push(corners.len() as u8);
        out.push(*area_and_type);
    }
    for v in verts[ground].iter().chain(&verts[ground + 1]).chain(&[0.5]) {
        put(&mut out, v.to_le_bytes());
    }
    out.extend_from_slice(&(off_mesh_base as u16).to_le_bytes());
    out.extend_from_slice(&[1, 0, 0, 0, 0, 0]);
    out
}

fn encode_set(tiles: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::new();
    put(&mut out, *b"TESM");
    for v in [1, tiles.len() as i32, 0, 0, 0, 0, 0, 4, 64] {
        put(&mut out, v.to_le_bytes());
    }
    for (i, tile) in tiles.iter().enumerate() {
        put(&mut out, (i as i32 + 1).to_le_bytes());
        put(&mut out, (tile.len() as i32).to_le_bytes());
        out.extend_from_slice(tile);
    }
    out
}

/// What two loads are compared by.
/// (Link ids of a world's snapshot are `tile << bits | local`, not `0..link_count`, so
/// links are compared by count.)
fn fingerprint(mesh: &navstar::NavMesh) -> (PolygonSoup, Vec<(u8, u32)>, u32) {
    let polygons = mesh
        .polygon_ids()
        .map(|p| (mesh.polygon_area(p), mesh.polygon_flags(p)))
        .collect();
    (PolygonSoup::from_mesh(mesh), polygons, mesh.link_count())
}

fuzz_target!(|input: Input| {
    let options = MeshOptions::default();
    let bytes = match input.grid {
        None => input.raw,
        Some((w, h, set)) => {
            let (w, h) = (usize::from(w % 4 + 1), usize::from(h % 4 + 1));
            let mut bytes = if set {
                encode_set(&[encode_tile(w, h, 0.0), encode_tile(w, h, w as f32)])
            } else {
                encode_tile(w, h, 0.0)
            };
            assert!(
                load_detour_bytes(&bytes, &options).is_ok(),
                "the undamaged input loads"
            );
            let len = bytes.len();
            for &(at, mask) in &input.flips {
                bytes[at as usize % len] ^= mask;
            }
            bytes
        }
    };
    if let Ok(data) = load_detour_bytes(&bytes, &options) {
        let mesh = data.mesh();
        assert!(mesh.polygon_count() > 0);
        let again = load_detour_bytes(&bytes, &options).expect("the same bytes load again");
        assert_eq!(
            fingerprint(&again.mesh()),
            fingerprint(&mesh),
            "two loads differ"
        );
        // The shared query runner picks points by plain polygon and vertex numbers,
        // which a world's snapshot does not have: run it on single tiles, and on each
        // tile of a set.
        match &data {
            DetourData::Tile(tile) => run_queries(&tile.mesh, &input.picks),
            DetourData::Set(set) => {
                for (_, tile) in set.world.tiles() {
                    run_queries(&tile, &input.picks);
                }
            }
        }
    }
    check_load_bytes(&bytes, NAVSTAR_FORMAT_DETOUR, &MeshOpts::Null);
});
