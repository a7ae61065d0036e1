//! Integration tests of `navstar simulate`: agents on the bundled arena mesh, the report's
//! numbers, the SVG of their trails, and the command line's errors.
//!
//! The binary needs the `cli` feature: `cargo test --features cli --test cli_simulate`.

#![cfg(feature = "cli")]

use std::path::PathBuf;
use std::process::{Command, Output};

/// The bundled Polyanya mesh of the Moving AI map `arena.map`.
const ARENA_MESH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/arena.mesh");

fn navstar(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_navstar"))
        .args(args)
        .output()
        .expect("the navstar binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Asserts the exit code, showing the output on failure; returns standard output.
fn expect_exit(output: &Output, code: i32) -> String {
    assert_eq!(
        output.status.code(),
        Some(code),
        "stdout:\n{}\nstderr:\n{}",
        text(&output.stdout),
        text(&output.stderr)
    );
    text(&output.stdout)
}

/// The text after `key` on the line starting with it.
fn field<'a>(report: &'a str, key: &str) -> &'a str {
    report
        .lines()
        .find_map(|line| line.strip_prefix(key))
        .unwrap_or_else(|| panic!("no '{key}' in:\n{report}"))
        .trim()
}

/// The first number of `key`'s line (`arrivals:  12` gives 12).
fn number(report: &str, key: &str) -> f64 {
    let value = field(report, key);
    value
        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .find(|s| !s.is_empty())
        .unwrap_or_else(|| panic!("no number in '{key}' {value}"))
        .parse()
        .unwrap()
}

/// `median X us, p95 Y us` of `key`'s line.
fn median_and_p95(report: &str, key: &str) -> (f64, f64) {
    let value = field(report, key);
    let after = |word: &str| -> f64 {
        let rest = &value[value.find(word).unwrap_or_else(|| panic!("{value}")) + word.len()..];
        rest.trim_start()
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    (after("median"), after("p95"))
}

fn temp_path(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("cli-simulate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Checks that `svg` is well-formed XML as far as elements go: every tag is closed in
/// order, attributes are quoted, one root; returns the names of the elements, in order.
fn elements(svg: &str) -> Vec<String> {
    let mut open: Vec<String> = Vec::new();
    let mut names = Vec::new();
    let mut rest = svg;
    let mut roots = 0;
    while let Some(start) = rest.find('<') {
        let end = rest[start..].find('>').expect("a tag is closed with '>'") + start;
        let tag = &rest[start + 1..end];
        assert_eq!(
            tag.matches('"').count() % 2,
            0,
            "unbalanced quotes in <{tag}>"
        );
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(
                open.pop().as_deref(),
                Some(name),
                "</{name}> closes another element"
            );
        } else {
            let name: String = tag
                .chars()
                .take_while(|c| !c.is_whitespace() && *c != '/')
                .collect();
            assert!(!name.is_empty(), "an empty tag");
            if open.is_empty() {
                roots += 1;
            }
            names.push(name.clone());
            if !tag.ends_with('/') {
                open.push(name);
            }
        }
        rest = &rest[end + 1..];
    }
    assert!(open.is_empty(), "unclosed elements {open:?}");
    assert_eq!(roots, 1, "one root element");
    names
}

#[test]
fn the_run_that_stuck_an_agent_on_a_vertex_passes() {
    // Agent 141 stood on the vertex (35, 18) from frame 231 with a door closed beside it
    // and went back and forth until its time ran out at frame 247: its direct path was
    // walked from the wrong polygon round the vertex, and the corridor kept the loop.
    let output = navstar(&[
        "simulate",
        ARENA_MESH,
        "--agents",
        "200",
        "--steps",
        "500",
        "--doors",
        "40",
        "--door-period",
        "5",
        "--step-length",
        "2",
        "--seed",
        "1",
    ]);
    let report = expect_exit(&output, 0);
    assert_eq!(field(&report, "checks:"), "passed");
    assert!(number(&report, "arrivals:") > 1000.0, "{report}");
    assert!(number(&report, "cut off:") > 0.0, "{report}");
}

#[test]
fn agents_on_arena_pass_the_checks_and_draw_their_trails() {
    let svg_path = temp_path("trails.svg");
    let output = navstar(&[
        "simulate",
        ARENA_MESH,
        "--agents",
        "12",
        "--steps",
        "150",
        "--step-length",
        "0.5",
        "--seed",
        "3",
        "--doors",
        "6",
        "--door-period",
        "20",
        "--svg",
        svg_path.to_str().unwrap(),
    ]);
    let report = expect_exit(&output, 0);
    assert_eq!(field(&report, "checks:"), "passed");
    assert_eq!(number(&report, "doors:"), 6.0, "{report}");
    assert!(
        field(&report, "mesh:").ends_with("(120 polygons)"),
        "{report}"
    );
    // 150 frames of 20 open then 20 closed: each door changes at least 5 times (a busy
    // doorway may delay a closing by a few frames).
    let changes = number(&report, "door changes:");
    assert!((30.0..=6.0 * 8.0).contains(&changes), "{report}");
    // Every agent plans at least once; every arrival or cut-off ends a plan.
    let (arrivals, cut_offs, plans) = (
        number(&report, "arrivals:"),
        number(&report, "cut off:"),
        number(&report, "plans:"),
    );
    assert!(
        arrivals >= 12.0,
        "the arena is open: most agents arrive\n{report}"
    );
    assert!(plans >= 12.0 && arrivals + cut_offs <= plans, "{report}");
    // No more than 12 agents x 150 frames x 0.5 was walked, and most of it.
    let walked = number(&report, "walked:");
    assert!(
        (12.0 * 150.0 * 0.5 * 0.5..=900.0).contains(&walked),
        "{report}"
    );
    for key in ["frame time:", "agent time:"] {
        let (median, p95) = median_and_p95(&report, key);
        assert!(median > 0.0 && p95 >= median, "{key} {report}");
    }
    let (frame, _) = median_and_p95(&report, "frame time:");
    let (agent, _) = median_and_p95(&report, "agent time:");
    assert!(frame >= agent, "a frame holds 12 agent steps\n{report}");

    let svg = std::fs::read_to_string(&svg_path).unwrap();
    assert!(report.contains(&format!(
        "wrote {} ({} bytes)",
        svg_path.display(),
        svg.len()
    )));
    let names = elements(&svg);
    assert_eq!(names[0], "svg");
    let trails: Vec<&str> = svg
        .lines()
        .filter(|l| l.starts_with("<polyline class=\"trail\""))
        .collect();
    assert_eq!(trails.len(), 12);
    for trail in trails {
        let points = trail
            .split("points=\"")
            .nth(1)
            .unwrap()
            .trim_end_matches("\"/>");
        // The start and one point per frame, as "x y" pairs.
        assert_eq!(points.split(' ').count(), 2 * 151, "{trail}");
    }
    assert!(svg.contains("class=\"doors\""));
    assert!(svg.contains("class=\"walls\""));
}

#[test]
fn the_same_seed_gives_the_same_simulation() {
    let run = |seed: &str| {
        let output = navstar(&[
            "simulate", ARENA_MESH, "--agents", "8", "--steps", "80", "--seed", seed,
        ]);
        let report = expect_exit(&output, 0);
        [
            "arrivals:",
            "cut off:",
            "plans:",
            "walked:",
            "door changes:",
        ]
        .map(|key| field(&report, key).to_string())
    };
    assert_eq!(run("11"), run("11"));
}

#[test]
fn a_plan_budget_slices_the_searches_and_the_agents_still_arrive() {
    let output = navstar(&[
        "simulate",
        ARENA_MESH,
        "--agents",
        "60",
        "--steps",
        "300",
        "--plan-budget",
        "40",
        "--seed",
        "3",
    ]);
    let report = expect_exit(&output, 0);
    assert_eq!(field(&report, "checks:"), "passed");
    assert!(number(&report, "arrivals:") > 30.0, "{report}");
    let planning = field(&report, "planning:");
    assert!(
        planning.starts_with("at most 40 expansions per frame"),
        "{planning}"
    );
    let max = planning
        .split("max ")
        .nth(1)
        .and_then(|rest| rest.split(';').next())
        .and_then(|n| n.parse::<f64>().ok())
        .unwrap_or_else(|| panic!("no max in {planning}"));
    assert!(max <= 40.0 && max > 0.0, "{planning}");
    // Sixty agents ask at once and forty expansions a frame cannot answer them all.
    let waited = planning
        .split("waited median ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse::<f64>().ok())
        .unwrap_or_else(|| panic!("no wait in {planning}"));
    assert!(waited >= 1.0, "{planning}");
}

#[test]
fn bad_arguments_are_usage_errors_naming_the_option() {
    for (args, culprit) in [
        (&["--step-length", "0"][..], "--step-length"),
        (&["--step-length", "NaN"][..], "--step-length"),
        (&["--step-length", "-1"][..], "--step-length"),
        (&["--agents", "0"][..], "--agents"),
        (&["--steps", "0"][..], "--steps"),
        (&["--door-period", "0"][..], "--door-period"),
        (&["--plan-budget", "0"][..], "--plan-budget"),
        (&["--plan-budget", "-5"][..], "--plan-budget"),
    ] {
        let mut all = vec!["simulate", ARENA_MESH];
        all.extend_from_slice(args);
        let output = navstar(&all);
        expect_exit(&output, 2);
        assert!(
            text(&output.stderr).contains(culprit),
            "{args:?}: {}",
            text(&output.stderr)
        );
    }
    let output = navstar(&["simulate", "/no/such/file.mesh"]);
    expect_exit(&output, 1);
    assert!(text(&output.stderr).contains("/no/such/file.mesh"));
}
