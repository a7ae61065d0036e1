//! Integration tests of the `navstar` command-line tool: they run the built binary on
//! the bundled data and on small files written to a temporary directory, and check its
//! real output and exit codes.
//!
//! The binary needs the `cli` feature, so these tests only exist with it:
//! `cargo test --features cli`.

#![cfg(feature = "cli")]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The bundled Polyanya mesh of the Moving AI map `arena.map`.
const ARENA_MESH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/arena.mesh");
/// The Moving AI scenario of `arena.map` (160 problems).
const ARENA_SCEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/arena.map.scen");
/// The shared benchmark grid maps.
const GRID_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/grid");

/// The L-shaped floor of the crate documentation: three unit squares, Y up.
const L_SHAPE_OBJ: &str = "\
v 0 0 0\nv 1 0 0\nv 2 0 0\nv 0 0 1\nv 1 0 1\nv 2 0 1\nv 0 0 2\nv 1 0 2
f 1 2 5 4\nf 2 3 6 5\nf 4 5 8 7
";

/// The same floor in the z = 0 plane, for `--up z`.
const L_SHAPE_OBJ_Z_UP: &str = "\
v 0 0 0\nv 1 0 0\nv 2 0 0\nv 0 1 0\nv 1 1 0\nv 2 1 0\nv 0 2 0\nv 1 2 0
f 1 2 5 4\nf 2 3 6 5\nf 4 5 8 7
";

/// Runs the binary with `args`.
fn navstar(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_navstar"))
        .args(args)
        .output()
        .expect("the navstar binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Asserts the exit code, showing the output on failure.
fn assert_exit(output: &Output, code: i32) {
    assert_eq!(
        output.status.code(),
        Some(code),
        "stdout:\n{}\nstderr:\n{}",
        stdout(output),
        stderr(output)
    );
}

/// A fresh directory for one test's files.
fn temp_dir() -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "cli-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes `contents` to `name` in a fresh temporary directory; returns the path.
fn temp_file(name: &str, contents: &str) -> String {
    let path = temp_dir().join(name);
    std::fs::write(&path, contents).unwrap();
    path.to_str().unwrap().to_string()
}

/// The value after `key` on the line starting with `key`, e.g. `polygons:   120`.
fn field<'a>(text: &'a str, key: &str) -> &'a str {
    text.lines()
        .find_map(|line| line.strip_prefix(key))
        .unwrap_or_else(|| panic!("no line '{key}' in:\n{text}"))
        .trim()
}

#[test]
fn info_reports_counts_of_arena() {
    let output = navstar(&["info", ARENA_MESH]);
    assert_exit(&output, 0);
    let text = stdout(&output);
    assert_eq!(field(&text, "vertices:"), "112");
    assert_eq!(field(&text, "polygons:"), "120");
    assert_eq!(field(&text, "islands:"), "1");
    assert!(
        field(&text, "format:").starts_with("Polyanya mesh (Z-up)"),
        "{text}"
    );
    assert_eq!(field(&text, "bounds:"), "min 1 1 0");
    // All 120 polygons are triangles.
    assert!(text.contains("     3:      120 100.0%"), "{text}");
    assert!(text.contains("validation:\n  ok:"), "{text}");
}

#[test]
fn info_names_the_polygon_of_a_rejected_mesh() {
    // Polygon 0 turns inwards at its third corner.
    let obj = temp_file(
        "bad.obj",
        "v 0 0 0\nv 2 0 0\nv 1 0 0.2\nv 2 0 2\nv 0 0 2\nf 1 2 3 4 5\n",
    );
    let output = navstar(&["info", &obj]);
    assert_exit(&output, 1);
    let message = stderr(&output);
    assert!(message.contains("bad.obj"), "{message}");
    assert!(message.contains("polygon 0 is not convex"), "{message}");
}

#[test]
fn info_names_the_line_of_a_parse_error() {
    let obj = temp_file("parse.obj", "v 0 0 0\nv 1 0 0\nv 1 0 x\nf 1 2 3\n");
    let output = navstar(&["info", &obj]);
    assert_exit(&output, 1);
    let message = stderr(&output);
    assert!(message.contains("parse.obj: line 3:"), "{message}");
}

#[test]
fn missing_file_is_a_failure_naming_it() {
    let output = navstar(&["info", "no-such-file.mesh"]);
    assert_exit(&output, 1);
    assert!(stderr(&output).contains("no-such-file.mesh"));
}

#[test]
fn path_prints_corners_and_length() {
    let obj = temp_file("l.obj", L_SHAPE_OBJ);
    let output = navstar(&["path", &obj, "--from", "1.8,0,0.5", "--to", "0.5,0,1.8"]);
    assert_exit(&output, 0);
    let text = stdout(&output);
    assert_eq!(field(&text, "status:"), "complete");
    assert_eq!(field(&text, "corners:"), "3");
    let corners: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("corners:"))
        .skip(1)
        .take(3)
        .map(str::trim)
        .collect();
    assert_eq!(corners, ["1.8 0 0.5", "1 0 1", "0.5 0 1.8"]);
    // Two legs of length sqrt(0.8^2 + 0.5^2).
    let length: f64 = field(&text, "length:").parse().unwrap();
    assert!((length - 2.0 * 0.89f64.sqrt()).abs() < 1e-3, "{length}");
}

#[test]
fn path_needs_three_coordinates_on_a_y_up_mesh() {
    let obj = temp_file("l.obj", L_SHAPE_OBJ);
    let output = navstar(&["path", &obj, "--from", "1.8,0.5", "--to", "0.5,1.8"]);
    assert_exit(&output, 2);
    let message = stderr(&output);
    assert!(message.contains("Y-up"), "{message}");
    assert!(message.contains("three coordinates"), "{message}");
}

#[test]
fn path_takes_two_coordinates_on_a_z_up_mesh() {
    let obj = temp_file("lz.obj", L_SHAPE_OBJ_Z_UP);
    let output = navstar(&[
        "path", &obj, "--up", "z", "--from", "1.8,0.5", "--to", "0.5,1.8",
    ]);
    assert_exit(&output, 0);
    let text = stdout(&output);
    assert!(text.contains("\n  1 1 0\n"), "{text}");
}

#[test]
fn path_failures_and_partial_paths() {
    // Far from the mesh with a snap limit: the query fails (exit 1).
    let output = navstar(&[
        "path", ARENA_MESH, "--from", "-20,2", "--to", "40,40", "--snap", "0.5",
    ]);
    assert_exit(&output, 1);
    assert!(
        stderr(&output).contains("start point"),
        "{}",
        stderr(&output)
    );
    // Two squares that do not touch: the goal is unreachable.
    let obj = temp_file(
        "islands.obj",
        "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nv 3 0 0\nv 4 0 0\nv 4 0 1\nv 3 0 1\nf 1 2 3 4\nf 5 6 7 8\n",
    );
    let output = navstar(&["path", &obj, "--from", "0.5,0,0.5", "--to", "3.5,0,0.5"]);
    assert_exit(&output, 0);
    assert_eq!(field(&stdout(&output), "status:"), "partial");
    let output = navstar(&[
        "path",
        &obj,
        "--from",
        "0.5,0,0.5",
        "--to",
        "3.5,0,0.5",
        "--no-partial",
    ]);
    assert_exit(&output, 1);
    assert!(
        stderr(&output).contains("unreachable"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn scen_on_arena_mesh_with_cell_centres() {
    // arena.mesh is a mesh of the grid map arena.map, in the same coordinates, so the
    // grid scenario's cells are used through their centres (--points centre). Its
    // reference lengths are 8-connected grid distances between those centres, which an
    // any-angle path never exceeds.
    let csv = temp_dir().join("arena.csv");
    let output = navstar(&[
        "scen",
        ARENA_MESH,
        ARENA_SCEN,
        "--points",
        "centre",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_exit(&output, 0);
    let text = stdout(&output);
    assert_eq!(field(&text, "solved:"), "160 / 160");
    assert_eq!(field(&text, "failed:"), "0");
    let ratios = field(&text, "length/reference:");
    let max: f64 = ratios
        .split("max ")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .unwrap()
        .parse()
        .unwrap();
    // The file rounds lengths to 6 significant digits.
    assert!(max <= 1.0 + 1e-5 && max > 0.99, "{ratios}");
    let rows = std::fs::read_to_string(&csv).unwrap();
    let mut lines = rows.lines();
    assert_eq!(
        lines.next(),
        Some("id,sx,sy,gx,gy,reference,length,status,micros")
    );
    // Problem 0 of the file: cells (1, 11) -> (1, 12), reference 1.
    let first: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(
        &first[..8],
        ["0", "1.5", "11.5", "1.5", "12.5", "1", "1", "complete"]
    );
    assert_eq!(rows.lines().count(), 161);
}

#[test]
fn optimal_mode_in_path_and_scen() {
    // Round the corner of the L: the same two legs in both modes.
    let obj = temp_file("l.obj", L_SHAPE_OBJ);
    let output = navstar(&[
        "path",
        &obj,
        "--from",
        "1.8,0,0.5",
        "--to",
        "0.5,0,1.8",
        "--mode",
        "optimal",
    ]);
    assert_exit(&output, 0);
    let text = stdout(&output);
    assert_eq!(field(&text, "status:"), "complete");
    let length: f64 = field(&text, "length:").parse().unwrap();
    assert!((length - 2.0 * 0.89f64.sqrt()).abs() < 1e-3, "{length}");
    let output = navstar(&[
        "scen", ARENA_MESH, ARENA_SCEN, "--points", "centre", "--mode", "optimal",
    ]);
    assert_exit(&output, 0);
    let text = stdout(&output);
    assert_eq!(field(&text, "solved:"), "160 / 160");
    assert!(text.contains("optimal"), "{text}");
}

#[test]
fn scen_counts_failures_and_exits_1() {
    // A scenario whose second goal lies outside the mesh, with a snap limit.
    let scen = temp_file(
        "two.scen",
        "version 1\n0\tarena.map\t49\t49\t1\t11\t1\t12\t1\n0\tarena.map\t49\t49\t1\t11\t90\t90\t1\n",
    );
    let output = navstar(&["scen", ARENA_MESH, &scen, "--snap", "1", "--csv", "-"]);
    assert_exit(&output, 1);
    // The CSV went to standard output, the summary to standard error.
    let rows = stdout(&output);
    assert!(
        rows.lines().nth(2).unwrap().contains(",not-on-mesh,"),
        "{rows}"
    );
    let summary = stderr(&output);
    assert_eq!(field(&summary, "solved:"), "1 / 2");
    assert_eq!(field(&summary, "failed:"), "1");
}

#[test]
fn scen_rejects_a_bad_scenario_naming_its_line() {
    let scen = temp_file("bad.scen", "version 1\n0\tarena.map\t49\t49\t1\t11\t1\n");
    let output = navstar(&["scen", ARENA_MESH, &scen]);
    assert_exit(&output, 1);
    assert!(
        stderr(&output).contains("bad.scen: line 2:"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn scen_on_a_grid_map_uses_cell_centres() {
    // A 4 x 3 map with a wall in column 2 except at the bottom row.
    let map = temp_file(
        "tiny.map",
        "type octile\nheight 3\nwidth 4\nmap\n..@.\n..@.\n....\n",
    );
    let scen = temp_file(
        "tiny.map.scen",
        "version 1\n0\ttiny.map\t4\t3\t0\t0\t3\t0\t4.82843\n",
    );
    let output = navstar(&["scen", &map, &scen, "--csv", "-"]);
    assert_exit(&output, 0);
    let row = stdout(&output).lines().nth(1).unwrap().to_string();
    assert!(row.starts_with("0,0.5,0.5,3.5,0.5,4.82843,"), "{row}");
}

#[test]
fn bench_reports_median_and_p95() {
    let output = navstar(&[
        "bench", ARENA_MESH, "--random", "50", "--seed", "7", "--rounds", "2",
    ]);
    assert_exit(&output, 0);
    let text = stdout(&output);
    assert!(
        field(&text, "queries:").starts_with("50 random pairs"),
        "{text}"
    );
    assert_eq!(field(&text, "paths:"), "50 complete, 0 partial, 0 errors");
    for key in ["median:", "p95:"] {
        let micros: f64 = field(&text, key).trim_end_matches(" us").parse().unwrap();
        assert!(micros > 0.0, "{text}");
    }
    let output = navstar(&[
        "bench",
        ARENA_MESH,
        "--queries",
        ARENA_SCEN,
        "--rounds",
        "1",
    ]);
    assert_exit(&output, 0);
    assert!(field(&stdout(&output), "queries:").starts_with("160 problems"));
}

#[test]
fn svg_draws_mesh_corridor_and_path() {
    let out = temp_dir().join("arena.svg");
    let output = navstar(&[
        "svg",
        ARENA_MESH,
        "--from",
        "1.5,7.5",
        "--to",
        "47.5,46.5",
        "--width",
        "400",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_exit(&output, 0);
    let svg = std::fs::read_to_string(&out).unwrap();
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"400\""));
    assert!(svg.trim_end().ends_with("</svg>"));
    for class in [
        "island", "corridor", "edges", "walls", "portals", "start", "goal",
    ] {
        assert!(svg.contains(&format!("class=\"{class}\"")), "no {class}");
    }
    // The path polyline starts at the start point; +y is drawn upwards (y negated).
    let polyline = svg
        .lines()
        .find(|l| l.starts_with("<polyline class=\"path\""))
        .expect("a path polyline");
    assert!(polyline.contains("points=\"1.5 -7.5 "), "{polyline}");
    assert!(polyline.ends_with(" 47.5 -46.5\"/>"), "{polyline}");
    // Every opened element is closed.
    assert_eq!(svg.matches('<').count(), svg.matches('>').count());
    assert!(svg.len() < 20_000, "{} bytes", svg.len());
}

#[test]
fn usage_errors_exit_2_with_a_message() {
    let obj = temp_file("l.obj", L_SHAPE_OBJ);
    let cases: &[(&[&str], &str)] = &[
        // No command: the list of commands, on standard error.
        (&[], "Usage: navstar <COMMAND>"),
        (&["frobnicate"], "unrecognized subcommand 'frobnicate'"),
        (&["info"], "required arguments were not provided:\n  <MESH>"),
        (
            &["info", ARENA_MESH, "--bogus"],
            "unexpected argument '--bogus'",
        ),
        (
            &["info", ARENA_MESH, "--up", "x"],
            "invalid value 'x' for '--up <AXIS>'\n  [possible values: y, z]",
        ),
        (&["info", "mesh.txt"], "cannot tell the mesh format"),
        (
            &["path", ARENA_MESH, "--from", "1,1"],
            "required arguments were not provided:\n  --to <X,Y[,Z]>",
        ),
        (
            &["path", ARENA_MESH, "--from", "a,b", "--to", "1,1"],
            "invalid value 'a,b' for '--from <X,Y[,Z]>'",
        ),
        (
            &[
                "path", ARENA_MESH, "--from", "2,2", "--to", "9,9", "--mode", "fastest",
            ],
            "[possible values: auto, funnel, optimal]",
        ),
        (
            &[
                "path", ARENA_MESH, "--from", "2,2", "--to", "9,9", "--weight", "-1",
            ],
            "invalid value '-1' for '--weight <W>'",
        ),
        (&["path", &obj, "--from", "1,1", "--to", "1,1"], "Y-up"),
        (
            &["scen", ARENA_MESH],
            "required arguments were not provided:\n  <SCEN>",
        ),
        (
            &[
                "bench",
                ARENA_MESH,
                "--random",
                "5",
                "--queries",
                ARENA_SCEN,
            ],
            "'--random <N>' cannot be used with '--queries <SCEN>'",
        ),
        (
            &["bench", ARENA_MESH, "--queries", ARENA_SCEN, "--seed", "3"],
            "cannot be used with '--seed <S>'",
        ),
        (
            &["svg", ARENA_MESH],
            "required arguments were not provided:\n  --output <OUT.svg>",
        ),
        (
            &["svg", ARENA_MESH, "-o", "x.svg", "--from", "1,1"],
            "required arguments were not provided:\n  --to <X,Y[,Z]>",
        ),
        (
            &["svg", ARENA_MESH, "-o", "x.svg", "--width", "8"],
            "invalid value '8' for '--width <PX>'",
        ),
        (
            &["scen", ARENA_MESH, ARENA_SCEN, "--tile-size", "-2"],
            "invalid value '-2' for '--tile-size <S>'",
        ),
    ];
    for (args, expected) in cases {
        let output = navstar(args);
        assert_exit(&output, 2);
        let message = stderr(&output);
        assert!(message.contains(expected), "{args:?}: {message}");
        assert!(stdout(&output).is_empty(), "{args:?}");
    }
}

#[test]
fn help_is_printed_on_standard_output() {
    let output = navstar(&["--help"]);
    assert_exit(&output, 0);
    let text = stdout(&output);
    for command in ["info", "path", "scen", "bench", "svg"] {
        assert!(text.contains(&format!("  {command} ")), "{text}");
    }
    for command in ["info", "path", "scen", "bench", "svg"] {
        let output = navstar(&[command, "--help"]);
        assert_exit(&output, 0);
        let text = stdout(&output);
        assert!(
            text.contains(&format!("Usage: navstar {command} ")),
            "{text}"
        );
        assert!(text.contains("--up <AXIS>"), "{text}");
        // The path-finding commands share their path options.
        if command != "info" {
            for option in [
                "--mode <MODE>",
                "--weight <W>",
                "--snap <D>",
                "--no-partial",
            ] {
                assert!(text.contains(option), "{command}: no {option} in\n{text}");
            }
        }
    }
    let output = navstar(&["--version"]);
    assert_exit(&output, 0);
    assert_eq!(
        stdout(&output).trim(),
        concat!("navstar ", env!("CARGO_PKG_VERSION"))
    );
}

/// The rows of a `scen --csv` file without the timing column.
fn csv_answers(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|row| row.rsplit_once(',').unwrap().0.to_string())
        .collect()
}

#[test]
fn save_writes_a_navstar_file_that_scen_answers_exactly_as_the_original() {
    let dir = temp_dir();
    let saved = dir.join("arena.navstar");
    let saved = saved.to_str().unwrap();
    let output = navstar(&["save", ARENA_MESH, saved]);
    assert_exit(&output, 0);
    assert!(
        stdout(&output).contains("faster than building"),
        "{}",
        stdout(&output)
    );
    let info = navstar(&["info", saved]);
    assert_exit(&info, 0);
    assert!(field(&stdout(&info), "format:").starts_with("navstar binary"));
    assert_eq!(field(&stdout(&info), "polygons:"), {
        let original = navstar(&["info", ARENA_MESH]);
        field(&stdout(&original), "polygons:").to_string()
    });
    for mode in ["funnel", "optimal"] {
        let (a, b) = (
            dir.join(format!("in-{mode}.csv")),
            dir.join(format!("saved-{mode}.csv")),
        );
        // The original with cell centres; the saved copy by default, which takes cell
        // centres because the scenario names a grid map.
        let original = navstar(&[
            "scen",
            ARENA_MESH,
            ARENA_SCEN,
            "--points",
            "centre",
            "--mode",
            mode,
            "--csv",
            a.to_str().unwrap(),
        ]);
        assert_exit(&original, 0);
        let copy = navstar(&[
            "scen",
            saved,
            ARENA_SCEN,
            "--mode",
            mode,
            "--csv",
            b.to_str().unwrap(),
        ]);
        assert_exit(&copy, 0);
        let (want, got) = (csv_answers(&a), csv_answers(&b));
        assert_eq!(want.len(), 161);
        assert_eq!(want, got, "{mode}");
    }
    // A damaged copy is refused with the section at fault.
    let mut bytes = std::fs::read(saved).unwrap();
    bytes[40] ^= 1;
    let damaged = dir.join("damaged.navstar");
    std::fs::write(&damaged, bytes).unwrap();
    let output = navstar(&["info", damaged.to_str().unwrap()]);
    assert_exit(&output, 1);
    assert!(stderr(&output).contains("checksum"), "{}", stderr(&output));
}

#[test]
fn save_with_the_fast_lane_writes_an_index_that_answers_as_the_search() {
    let dir = temp_dir();
    let map = format!("{GRID_DIR}/den312d.map");
    let scen = format!("{GRID_DIR}/den312d.map.scen");
    let (plain, indexed) = (dir.join("plain.navstar"), dir.join("indexed.navstar"));
    let (plain, indexed) = (plain.to_str().unwrap(), indexed.to_str().unwrap());
    assert_exit(&navstar(&["save", &map, plain]), 0);
    let output = navstar(&["save", &map, indexed, "--fast-lane"]);
    assert_exit(&output, 0);
    assert!(
        stdout(&output).contains("fast-lane index built"),
        "{}",
        stdout(&output)
    );
    let info = navstar(&["info", indexed]);
    assert!(
        field(&stdout(&info), "fast lane:").starts_with("loaded with the file"),
        "{}",
        stdout(&info)
    );
    let info = navstar(&["info", plain]);
    assert!(field(&stdout(&info), "fast lane:").starts_with("none yet"));
    // The index answers every problem with the exact search's length (den312d is
    // below the size at which a query builds an index on first use, so the plain
    // file's answers are the search's).
    let csv = |file: &str, name: &str| {
        let out = dir.join(name);
        let run = navstar(&[
            "scen",
            file,
            &scen,
            "--mode",
            "optimal",
            "--csv",
            out.to_str().unwrap(),
        ]);
        assert_exit(&run, 0);
        csv_lengths(&out)
    };
    let (searched, from_index) = (csv(plain, "plain.csv"), csv(indexed, "indexed.csv"));
    assert_eq!(searched.len(), 320);
    for (i, (a, b)) in searched.iter().zip(&from_index).enumerate() {
        match (a, b) {
            (Some(a), Some(b)) => assert!((a - b).abs() <= 1e-4 * (1.0 + a), "problem {i}"),
            _ => assert_eq!(a.is_some(), b.is_some(), "problem {i}"),
        }
    }
}

/// The lengths of a `scen --csv` file, problem by problem (`None` for no path).
fn csv_lengths(path: &Path) -> Vec<Option<f64>> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .skip(1)
        .map(|row| row.split(',').nth(6).unwrap().parse().ok())
        .collect()
}

#[test]
fn scen_on_tiles_answers_as_the_mesh_in_one_piece() {
    // arena.mesh cut into tiles of two sizes (7 x 7 and 4 x 4 of them) and joined in a
    // world: exact-mode lengths as on the mesh in one piece, default-mode lengths close.
    let dir = temp_dir();
    let run = |mode: &str, tile_size: Option<&str>| {
        let csv = dir.join(format!("{mode}-{}.csv", tile_size.unwrap_or("whole")));
        let mut args = vec![
            "scen",
            ARENA_MESH,
            ARENA_SCEN,
            "--points",
            "centre",
            "--mode",
            mode,
            "--csv",
            csv.to_str().unwrap(),
        ];
        args.extend(tile_size.iter().flat_map(|size| ["--tile-size", size]));
        let output = navstar(&args);
        assert_exit(&output, 0);
        let text = stdout(&output);
        assert_eq!(field(&text, "solved:"), "160 / 160");
        if let Some(size) = tile_size {
            let tiles = field(&text, "tiles:");
            assert!(tiles.contains(&format!("of side {size} ")), "{tiles}");
        }
        let lengths: Vec<f64> = csv_lengths(&csv).into_iter().map(Option::unwrap).collect();
        assert_eq!(lengths.len(), 160);
        lengths
    };
    let mean = |lengths: &[f64]| lengths.iter().sum::<f64>() / lengths.len() as f64;
    let exact = run("optimal", None);
    let funnel = run("funnel", None);
    for size in ["7", "12.5"] {
        for (id, (&want, got)) in exact.iter().zip(run("optimal", Some(size))).enumerate() {
            assert!(
                (want - got).abs() <= 1e-4 * want.max(1.0),
                "tile size {size}, problem {id}: exact length {got} on tiles, {want} in one piece"
            );
        }
        let (want, got) = (mean(&funnel), mean(&run("funnel", Some(size))));
        assert!(
            (got / want - 1.0).abs() <= 0.005,
            "tile size {size}: mean default-mode length {got} on tiles, {want} in one piece"
        );
    }
    // A tile size too small for the mesh is a failure naming it.
    let output = navstar(&["scen", ARENA_MESH, ARENA_SCEN, "--tile-size", "0.001"]);
    assert_exit(&output, 1);
    assert!(
        stderr(&output).contains("tiles of side 0.001"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn path_bench_and_svg_on_tiles() {
    let path = navstar(&[
        "path",
        ARENA_MESH,
        "--from",
        "1.5,7.5",
        "--to",
        "47.5,46.5",
        "--mode",
        "optimal",
        "--tile-size",
        "10",
    ]);
    assert_exit(&path, 0);
    let whole = navstar(&[
        "path",
        ARENA_MESH,
        "--from",
        "1.5,7.5",
        "--to",
        "47.5,46.5",
        "--mode",
        "optimal",
    ]);
    assert_exit(&whole, 0);
    let length = |output: &Output| -> f64 { field(&stdout(output), "length:").parse().unwrap() };
    assert!(
        (length(&path) - length(&whole)).abs() <= 1e-3,
        "{}",
        stdout(&path)
    );
    assert!(field(&stdout(&path), "tiles:").starts_with("25 tiles of side 10 (5 x 5 grid)"));
    let bench = navstar(&[
        "bench",
        ARENA_MESH,
        "--random",
        "50",
        "--rounds",
        "1",
        "--tile-size",
        "10",
    ]);
    assert_exit(&bench, 0);
    let text = stdout(&bench);
    assert!(field(&text, "tiles:").starts_with("25 tiles"), "{text}");
    assert_eq!(field(&text, "paths:"), "50 complete, 0 partial, 0 errors");
    let out = temp_dir().join("tiles.svg");
    let svg = navstar(&[
        "svg",
        ARENA_MESH,
        "--tile-size",
        "10",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_exit(&svg, 0);
    assert!(
        stdout(&svg).contains("25 tiles of side 10"),
        "{}",
        stdout(&svg)
    );
    let picture = std::fs::read_to_string(&out).unwrap();
    let tiles = picture
        .lines()
        .find(|l| l.starts_with("<path class=\"tiles\""))
        .expect("tile borders");
    assert!(tiles.contains("stroke-dasharray"), "{tiles}");
}

#[test]
fn tile_size_keeps_off_mesh_links_between_tiles() {
    use navstar::glam::Vec3;
    use navstar::{MeshInput, MeshOptions, NavMesh, OffMeshLink};
    // Two unit floors 2 apart (y up), joined only by a jump from one to the other; tiles
    // of side 2 put the two ends of the jump in different tiles.
    let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    let vertices = [
        v(0.0, 0.0),
        v(1.0, 0.0),
        v(1.0, 1.0),
        v(0.0, 1.0),
        v(3.0, 0.0),
        v(4.0, 0.0),
        v(4.0, 1.0),
        v(3.0, 1.0),
    ];
    let jump = [OffMeshLink::new(v(0.5, 0.5), v(3.5, 0.5))];
    let input = MeshInput::new(&vertices, &[0, 1, 2, 3, 4, 5, 6, 7])
        .with_polygon_sizes(&[4, 4])
        .with_links(&jump);
    let mesh = NavMesh::from_input(&input, &MeshOptions::default()).unwrap();
    let file = temp_dir().join("jump.navstar");
    std::fs::write(&file, mesh.to_bytes().unwrap()).unwrap();
    let file = file.to_str().unwrap();
    let ask = |extra: &[&str]| {
        let mut args = vec!["path", file, "--from", "0.2,0,0.5", "--to", "3.8,0,0.5"];
        args.extend_from_slice(extra);
        let output = navstar(&args);
        assert_exit(&output, 0);
        let text = stdout(&output);
        let length: f64 = field(&text, "length:").parse().unwrap();
        (field(&text, "status:").to_owned(), length)
    };
    let (status, length) = ask(&[]);
    assert_eq!(status, "complete");
    // 0.3 to the jump, the jump itself (3), 0.3 from it.
    assert!((length - 3.6).abs() < 1e-4, "{length}");
    let (tiled_status, tiled_length) = ask(&["--tile-size", "2"]);
    assert_eq!(tiled_status, "complete");
    assert!(
        (tiled_length - length).abs() < 1e-4,
        "{tiled_length} vs {length}"
    );
}
