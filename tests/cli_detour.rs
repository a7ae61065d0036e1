//! The `navstar` command-line tool on Recast/Detour navmeshes (`.bin`): `info`, `path`
//! and `scen` on one tile's data, written here in Detour's layout (`dtCreateNavMeshData`:
//! header, vertices, polygons; no links, detail mesh or tree). Detour is Y-up, so `scen`
//! takes a scenario's (x, y) as the ground point (x, z).
//!
//! Needs the `cli` feature: `cargo test --features cli --test cli_detour`.

#![cfg(feature = "cli")]

use std::process::{Command, Output};

/// The L-shaped floor of three unit squares (x, z) in Detour's layout, Y up, baked for
/// an agent of radius 0.25.
fn l_shape_tile() -> Vec<u8> {
    let verts: [[f32; 2]; 8] = [
        [0.0, 0.0],
        [1.0, 0.0],
        [2.0, 0.0],
        [0.0, 1.0],
        [1.0, 1.0],
        [2.0, 1.0],
        [0.0, 2.0],
        [1.0, 2.0],
    ];
    // Clockwise seen as (x, z), as Detour winds them.
    let polys: [[u16; 4]; 3] = [[0, 3, 4, 1], [1, 4, 5, 2], [3, 6, 7, 4]];
    let mut out = Vec::new();
    out.extend_from_slice(b"VAND");
    // version, x, y, layer, userId, polyCount, vertCount, maxLinkCount, detail meshes,
    // detail vertices, detail triangles, tree nodes, off-mesh connections, offMeshBase.
    for v in [7, 0, 0, 0, 0, 3, 8, 0, 0, 0, 0, 0, 0, 3i32] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    // Agent height, radius, climb; bounds; tree quantisation.
    for v in [2.0f32, 0.25, 0.5, 0.0, 0.0, 0.0, 2.0, 0.0, 2.0, 1.0] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for [x, z] in verts {
        for c in [x, 0.0, z] {
            out.extend_from_slice(&c.to_le_bytes());
        }
    }
    for corners in polys {
        out.extend_from_slice(&[0xff; 4]);
        for k in 0..6 {
            out.extend_from_slice(&corners.get(k).copied().unwrap_or(0xffff).to_le_bytes());
        }
        out.extend_from_slice(&[0; 12]);
        out.extend_from_slice(&1u16.to_le_bytes());
        out.extend_from_slice(&[4, 0]);
    }
    out
}

fn write_tile(name: &str) -> String {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-detour");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, l_shape_tile()).unwrap();
    path.to_str().unwrap().to_string()
}

fn navstar(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_navstar"))
        .args(args)
        .output()
        .expect("the navstar binary runs")
}

fn ok_stdout(output: &Output) -> String {
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    let errors = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        output.status.code(),
        Some(0),
        "stdout:\n{text}\nstderr:\n{errors}"
    );
    text
}

fn field<'a>(text: &'a str, key: &str) -> &'a str {
    text.lines()
        .find_map(|line| line.strip_prefix(key))
        .unwrap_or_else(|| panic!("no line '{key}' in:\n{text}"))
        .trim()
}

#[test]
fn info_reads_a_detour_tile() {
    let tile = write_tile("info.bin");
    let text = ok_stdout(&navstar(&["info", &tile]));
    assert_eq!(field(&text, "polygons:"), "3");
    assert!(
        field(&text, "format:").starts_with("Recast/Detour navmesh (Y-up)"),
        "{text}"
    );
}

#[test]
fn path_on_a_detour_tile() {
    let tile = write_tile("path.bin");
    let text = ok_stdout(&navstar(&[
        "path",
        &tile,
        "--from",
        "1.8,0,0.5",
        "--to",
        "0.5,0,1.8",
    ]));
    assert_eq!(field(&text, "status:"), "complete");
    let length: f64 = field(&text, "length:").parse().unwrap();
    assert!((length - 2.0 * 0.89f64.sqrt()).abs() < 1e-3, "{length}");
}

#[test]
fn scen_takes_x_y_as_the_ground_point_x_z() {
    let tile = write_tile("scen.bin");
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-detour");
    let scen = dir.join("l.scen");
    let length = 2.0 * 0.89f64.sqrt();
    std::fs::write(
        &scen,
        format!("version 1\n0\tl.map\t2\t2\t1.8\t0.5\t0.5\t1.8\t{length}\n"),
    )
    .unwrap();
    let text = ok_stdout(&navstar(&["scen", &tile, scen.to_str().unwrap()]));
    assert_eq!(field(&text, "solved:"), "1 / 1");
}

#[test]
fn a_damaged_tile_is_refused_naming_the_field() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-detour");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.bin");
    let mut bytes = l_shape_tile();
    bytes.truncate(150);
    std::fs::write(&path, bytes).unwrap();
    let output = navstar(&["info", path.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let message = String::from_utf8_lossy(&output.stderr);
    assert!(
        message.contains("invalid Detour data: byte 24"),
        "{message}"
    );
}
