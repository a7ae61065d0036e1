//! Quickstart: paths on a real map.
//!
//! Loads `data/arena.mesh` (a navigation mesh of the Dragon Age: Origins map "arena",
//! from the Moving AI benchmarks, triangulated by the Polyanya authors), then runs every
//! problem of `data/arena.map.scen` and compares each path length with the benchmark's
//! reference (the shortest 8-connected grid path, which an any-angle path beats).
//!
//! Run: `cargo run --release --example quickstart`

use std::error::Error;
use std::time::Instant;

use navstar::glam::Vec3;
use navstar::io::load_mesh_file;
use navstar::{MeshOptions, PathOptions, PathStatus, Query};

/// One problem of a Moving AI scenario file: start and goal cells, reference length.
struct Problem {
    start: Vec3,
    goal: Vec3,
    reference: f32,
}

/// Reads the tab-separated scenario lines (`bucket map w h sx sy gx gy length`). A cell
/// (x, y) is the unit square [x, x+1] x [y, y+1]; problems start and end at cell centres.
fn read_scenario(text: &str) -> Result<Vec<Problem>, Box<dyn Error>> {
    let mut problems = Vec::new();
    for (number, line) in text.lines().enumerate().skip(1) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() != 9 {
            return Err(format!(
                "line {}: expected 9 fields, found {}",
                number + 1,
                fields.len()
            )
            .into());
        }
        let value = |i: usize| {
            fields[i]
                .parse::<f32>()
                .map_err(|e| format!("line {}: field {}: {e}", number + 1, i + 1))
        };
        problems.push(Problem {
            start: Vec3::new(value(4)? + 0.5, value(5)? + 0.5, 0.0),
            goal: Vec3::new(value(6)? + 0.5, value(7)? + 0.5, 0.0),
            reference: value(8)?,
        });
    }
    Ok(problems)
}

fn main() -> Result<(), Box<dyn Error>> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mesh = load_mesh_file(&root.join("data/arena.mesh"), &MeshOptions::default())?;
    println!(
        "arena.mesh: {} polygons, {} vertices, {} island(s)",
        mesh.polygon_count(),
        mesh.vertex_count(),
        mesh.island_count()
    );
    let problems = read_scenario(&std::fs::read_to_string(root.join("data/arena.map.scen"))?)?;
    let mut query = Query::new(&mesh);
    let options = PathOptions::default();

    let (mut solved, mut ratio_sum, mut worst_ratio) = (0usize, 0.0f64, 0.0f64);
    let started = Instant::now();
    for (i, problem) in problems.iter().enumerate() {
        let path = query.find_path(problem.start, problem.goal, &options)?;
        let length = path.length();
        if path.status == PathStatus::Complete {
            solved += 1;
        }
        if problem.reference > 0.0 {
            let ratio = f64::from(length / problem.reference);
            ratio_sum += ratio;
            worst_ratio = worst_ratio.max(ratio);
        }
        if i % 40 == 0 {
            let corners: Vec<String> = path
                .corners
                .iter()
                .map(|c| format!("({:.2}, {:.2})", c.x, c.y))
                .collect();
            println!(
                "problem {i:3}: length {length:7.3} (grid reference {:7.3}), {} corners: {}",
                problem.reference,
                path.corners.len(),
                corners.join(" -> ")
            );
        }
    }
    let elapsed = started.elapsed();
    println!(
        "{solved}/{} problems solved; mean length / grid reference {:.4}, max {:.4}; {:.1} us per query",
        problems.len(),
        ratio_sum / problems.len() as f64,
        worst_ratio,
        elapsed.as_secs_f64() * 1e6 / problems.len() as f64
    );
    if solved != problems.len() {
        return Err(format!("{} problems were not solved", problems.len() - solved).into());
    }
    Ok(())
}
