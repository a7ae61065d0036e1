//! Quickstart: paths on a real map.
//!
//! Loads `data/arena.mesh` (a navigation mesh of the Dragon Age: Origins map "arena",
//! from the Moving AI benchmarks, triangulated by the Polyanya authors), then runs every
//! problem of `data/arena.map.scen` and compares each path length with the benchmark's
//! reference.
//!
//! Scenario points follow the file they were written for. This scenario was written for
//! the grid map `arena.map`, so a problem's (x, y) names a grid cell and the query runs
//! between cell centres ([`ScenarioProblem::grid_start`]); the reference is the shortest
//! 8-connected grid path between them, which an any-angle path never exceeds. A scenario
//! written for a Polyanya mesh names points, used as written
//! ([`ScenarioProblem::mesh_start`]). The mesh has the grid map's coordinates, so either
//! kind of scenario runs on it.
//!
//! Run: `cargo run --release --example quickstart`

use std::error::Error;
use std::fs::File;
use std::io::BufReader;
use std::path::Path;
use std::time::Instant;

use navstar::glam::Vec3;
use navstar::io::{ScenarioProblem, load_mesh_file, parse_scenario};
use navstar::{MeshOptions, PathOptions, PathStatus, Query};

/// The start and goal of `problem`: cell centres when the scenario names a grid map
/// (`.map`), the points themselves when it names a mesh.
fn endpoints(problem: &ScenarioProblem) -> (Vec3, Vec3) {
    if problem.map_file_name().ends_with(".map") {
        (problem.grid_start(), problem.grid_goal())
    } else {
        (problem.mesh_start(), problem.mesh_goal())
    }
}

fn main() -> Result<(), Box<dyn Error>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mesh = load_mesh_file(&root.join("data/arena.mesh"), &MeshOptions::default())?;
    println!(
        "arena.mesh: {} polygons, {} vertices, {} island(s)",
        mesh.polygon_count(),
        mesh.vertex_count(),
        mesh.island_count()
    );
    let scenario = BufReader::new(File::open(root.join("data/arena.map.scen"))?);
    let problems = parse_scenario(scenario)?;
    let mut query = Query::new(&mesh);
    let options = PathOptions::default();

    let (mut solved, mut ratios) = (0usize, Vec::with_capacity(problems.len()));
    let started = Instant::now();
    for (i, problem) in problems.iter().enumerate() {
        let (start, goal) = endpoints(problem);
        let path = query.find_path(start, goal, &options)?;
        let length = path.length();
        if path.status == PathStatus::Complete {
            solved += 1;
        }
        if problem.optimal_length > 0.0 {
            ratios.push(f64::from(length) / problem.optimal_length);
        }
        if i % 40 == 0 {
            let corners: Vec<String> = path
                .corners
                .iter()
                .map(|c| format!("({:.2}, {:.2})", c.x, c.y))
                .collect();
            println!(
                "problem {i:3}: length {length:7.3} (reference {:7.3}), {} corners: {}",
                problem.optimal_length,
                path.corners.len(),
                corners.join(" -> ")
            );
        }
    }
    let elapsed = started.elapsed();
    let mean_ratio = ratios.iter().sum::<f64>() / ratios.len().max(1) as f64;
    let max_ratio = ratios.iter().copied().fold(0.0, f64::max);
    println!(
        "{solved}/{} problems solved; length / reference over {} problems: mean {mean_ratio:.4}, \
         max {max_ratio:.4}; {:.1} us per query",
        problems.len(),
        ratios.len(),
        elapsed.as_secs_f64() * 1e6 / problems.len().max(1) as f64
    );
    if solved != problems.len() {
        return Err(format!("{} problems were not solved", problems.len() - solved).into());
    }
    Ok(())
}
