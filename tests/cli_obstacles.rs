//! The command-line tool's `--obstacle A,B,R`: discs carved out of the mesh before the
//! queries of `path`, `scen` and `svg` (on the mesh in one piece and on a world of
//! tiles), the library's answers, the discs drawn, bad values named.
//! Needs the `cli` feature: `cargo test --features cli --test cli_obstacles`.

#![cfg(feature = "cli")]

mod cli_common;

use navstar::glam::{Vec2, Vec3};
use navstar::{MeshOptions, Obstacle, PathOptions, Query, UpAxis};

use cli_common::{ARENA_MESH, ARENA_SCEN, field, navstar, success};

/// The library's length of the path from (1.5, 4.5) to (44.5, 45.5) round the discs.
fn library_length(discs: &[(f32, f32, f32)]) -> f32 {
    let options = MeshOptions::default().with_up_axis(UpAxis::Z);
    let mesh = navstar::io::load_mesh_file(std::path::Path::new(ARENA_MESH), &options).unwrap();
    let obstacles: Vec<Obstacle> = discs
        .iter()
        .map(|&(a, b, r)| Obstacle::circle(Vec2::new(a, b), r).unwrap())
        .collect();
    let carved = mesh.with_obstacles(&obstacles).unwrap();
    Query::new(&carved)
        .find_path_vec(
            Vec3::new(1.5, 4.5, 0.0),
            Vec3::new(44.5, 45.5, 0.0),
            &PathOptions::default(),
        )
        .unwrap()
        .length()
}

#[test]
fn path_goes_round_the_discs_as_the_library_does() {
    let ends = ["--from", "1.5,4.5", "--to", "44.5,45.5"];
    let length = |text: &str| -> f32 { field(text, "length:").parse().unwrap() };
    let free = success(&[&["path", ARENA_MESH][..], &ends].concat());
    let one = success(&[&["path", ARENA_MESH, "--obstacle", "20,20,3"][..], &ends].concat());
    let two = success(
        &[
            &[
                "path",
                ARENA_MESH,
                "--obstacle",
                "20,20,3",
                "--obstacle",
                "30,30,2",
            ][..],
            &ends,
        ]
        .concat(),
    );
    assert_eq!(field(&two, "status:"), "complete");
    assert!(length(&one) > length(&free), "{one}\n{free}");
    assert!(
        (length(&one) - library_length(&[(20.0, 20.0, 3.0)])).abs() < 1e-3,
        "{one}"
    );
    assert!(
        (length(&two) - library_length(&[(20.0, 20.0, 3.0), (30.0, 30.0, 2.0)])).abs() < 1e-3,
        "{two}"
    );
    // On a world of tiles, the same length (the disc crosses tile borders).
    let tiled = success(
        &[
            &[
                "path",
                ARENA_MESH,
                "--obstacle",
                "20,20,3",
                "--tile-size",
                "16",
            ][..],
            &ends,
        ]
        .concat(),
    );
    assert!(
        (length(&tiled) - length(&one)).abs() < 1e-3,
        "{tiled}\n{one}"
    );
    // A disc over the goal: the goal snaps out of it, onto its edge.
    let blocked = success(
        &[
            &["path", ARENA_MESH, "--obstacle", "44.5,45.5,1"][..],
            &ends,
        ]
        .concat(),
    );
    let last: Vec<f32> = blocked
        .lines()
        .rfind(|l| l.starts_with("  "))
        .unwrap()
        .split_whitespace()
        .map(|v| v.parse().unwrap())
        .collect();
    let away = Vec2::new(last[0] - 44.5, last[1] - 45.5).length();
    assert!((0.999..1.03).contains(&away), "{blocked}");
}

#[test]
fn scen_and_svg_take_obstacles() {
    let scen = success(&["scen", ARENA_MESH, ARENA_SCEN, "--obstacle", "25,25,4"]);
    assert!(scen.contains("problems"), "{scen}");
    let out = std::env::temp_dir().join(format!("navstar-obstacles-{}.svg", std::process::id()));
    let out = out.to_str().unwrap();
    success(&[
        "svg",
        ARENA_MESH,
        "--from",
        "1.5,4.5",
        "--to",
        "44.5,45.5",
        "--obstacle",
        "20,20,3",
        "-o",
        out,
    ]);
    let svg = std::fs::read_to_string(out).unwrap();
    let _ = std::fs::remove_file(out);
    assert!(svg.contains("obstacles"), "the discs are drawn");
}

#[test]
fn bad_obstacles_are_named() {
    for (value, culprit) in [
        ("20,20", "A,B,R"),
        ("a,1,1", "'a'"),
        ("1,1,-1", "radius"),
        ("1,1,nan", "radius"),
    ] {
        let output = navstar(&[
            "path",
            ARENA_MESH,
            "--from",
            "1.5,4.5",
            "--to",
            "44.5,45.5",
            "--obstacle",
            value,
        ]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{value}: {stderr}");
        assert!(
            stderr.contains("--obstacle") && stderr.contains(culprit),
            "{value}: {stderr}"
        );
    }
}
