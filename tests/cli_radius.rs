//! The command-line tool's `--radius`: on `path`, `scen`, `bench` and `svg`, the
//! answers of the library for a disc of that radius, and the eroded boundary drawn.
//! Needs the `cli` feature: `cargo test --features cli --test cli_radius`.

#![cfg(feature = "cli")]

mod cli_common;

use cli_common::{ARENA_MESH, ARENA_SCEN, field, navstar, success};

#[test]
fn path_keeps_the_radius_and_the_answer_of_the_library() {
    use navstar::glam::Vec3;
    use navstar::{MeshOptions, PathOptions, Query, UpAxis};
    let ends = ["--from", "10.5,10.5", "--to", "40.5,40.5"];
    let point = success(&[&["path", ARENA_MESH][..], &ends].concat());
    let disc = success(&[&["path", ARENA_MESH, "--radius", "0.5"][..], &ends].concat());
    let length = |text: &str| -> f32 { field(text, "length:").parse().unwrap() };
    assert_eq!(field(&disc, "status:"), "complete");
    assert!(length(&disc) > length(&point), "{disc}\n{point}");
    // The same as the library's answer.
    let options = MeshOptions::default().with_up_axis(UpAxis::Z);
    let mesh = navstar::io::load_mesh_file(std::path::Path::new(ARENA_MESH), &options).unwrap();
    let path = Query::new(&mesh)
        .find_path_vec(
            Vec3::new(10.5, 10.5, 0.0),
            Vec3::new(40.5, 40.5, 0.0),
            &PathOptions::default().with_agent_radius(0.5),
        )
        .unwrap();
    assert!((length(&disc) - path.length()).abs() < 1e-3, "{disc}");
    // The same corners too: the tool's default mode is the library's (`--mode auto`).
    // (Until session 21 the tool defaulted to the funnel mode, and the two took
    // mirror-image ways round the arena's symmetric corners.)
    let printed: Vec<Vec3> = disc
        .lines()
        .filter(|line| line.starts_with("  "))
        .map(|line| {
            let xyz: Vec<f32> = line
                .split_whitespace()
                .map(|n| n.parse().unwrap())
                .collect();
            Vec3::new(xyz[0], xyz[1], xyz[2])
        })
        .collect();
    assert_eq!(
        printed.len(),
        path.corners.len(),
        "{disc} {:?}",
        path.corners
    );
    for (a, b) in printed.iter().zip(&path.corners) {
        assert!(a.distance(*b) < 1e-3, "{disc} {:?}", path.corners);
    }
    // A bad radius names the option.
    let output = navstar(&[&["path", ARENA_MESH, "--radius", "-1"][..], &ends].concat());
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--radius"));
}

#[test]
fn scen_and_bench_take_the_radius() {
    let scen = success(&["scen", ARENA_MESH, ARENA_SCEN, "--radius", "0.5"]);
    assert_eq!(field(&scen, "failed:"), "0", "{scen}");
    let bench = success(&[
        "bench", ARENA_MESH, "--random", "50", "--rounds", "1", "--radius", "0.5", "--mode",
        "optimal",
    ]);
    assert!(!bench.is_empty());
}

#[test]
fn svg_draws_the_eroded_boundary() {
    let dir = std::env::temp_dir().join(format!("navstar-cli-radius-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("arena.svg");
    let out = out.to_str().unwrap();
    let ends = ["--from", "10.5,10.5", "--to", "40.5,40.5"];
    success(
        &[
            &["svg", ARENA_MESH, "-o", out, "--radius", "0.5"][..],
            &ends,
        ]
        .concat(),
    );
    let svg = std::fs::read_to_string(out).unwrap();
    assert!(svg.contains("class=\"eroded\""), "no eroded boundary");
    success(&[&["svg", ARENA_MESH, "-o", out][..], &ends].concat());
    let svg = std::fs::read_to_string(out).unwrap();
    assert!(!svg.contains("class=\"eroded\""));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn info_reports_the_eroded_copy() {
    let text = success(&["info", ARENA_MESH, "--radius", "0.5"]);
    let line = text
        .lines()
        .find(|l| l.starts_with("radius 0.5: eroded copy of "))
        .unwrap_or_else(|| panic!("no eroded copy line in:\n{text}"));
    let bytes: usize = line
        .split(", ")
        .find_map(|part| part.strip_suffix(" bytes"))
        .and_then(|b| b.parse().ok())
        .unwrap_or_else(|| panic!("no byte count in {line}"));
    assert!(bytes > 0, "{line}");
    let output = navstar(&["info", ARENA_MESH, "--radius", "0"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--radius"));
}
