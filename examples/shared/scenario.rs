//! What the scenario examples share (included with `#[path]`, not an example itself):
//! the problems' endpoints, a path's ground length, quantiles.

#![allow(dead_code, reason = "each example uses some of these")]

use std::error::Error;
use std::fs::File;
use std::io::BufReader;
use std::time::Instant;

use navstar::glam::Vec3;
use navstar::io::{ScenarioProblem, load_mesh_file, parse_scenario};
use navstar::{MeshOptions, NavMesh, PathOptions, PathStatus, Query, UpAxis};

/// A scenario's start and goal points.
pub type Pairs = Vec<(Vec3, Vec3)>;

/// The mesh of file `map` (a grid map `.map` with z up, else as the loader reads it) and
/// the endpoints of `count` problems of scenario file `scen` spread over it.
pub fn load(map: &str, scen: &str, count: usize) -> Result<(NavMesh, Pairs), Box<dyn Error>> {
    let options = if map.ends_with(".map") {
        MeshOptions::default().with_up_axis(UpAxis::Z)
    } else {
        MeshOptions::default()
    };
    let mesh = load_mesh_file(std::path::Path::new(map), &options)?;
    let problems = parse_scenario(BufReader::new(File::open(scen)?))?;
    Ok((mesh, spread(&problems, count)))
}

/// The start and goal of `problem`: cell centres on grid maps, the points as written on
/// meshes.
pub fn endpoints(problem: &ScenarioProblem) -> (Vec3, Vec3) {
    if problem.map_file_name().ends_with(".map") {
        (problem.grid_start(), problem.grid_goal())
    } else {
        (problem.mesh_start(), problem.mesh_goal())
    }
}

/// The endpoints of `count` problems spread evenly over `problems` (all when `count`
/// is larger).
pub fn spread(problems: &[ScenarioProblem], count: usize) -> Vec<(Vec3, Vec3)> {
    let step = (problems.len() / count.clamp(1, problems.len().max(1))).max(1);
    problems
        .iter()
        .step_by(step)
        .take(count)
        .map(endpoints)
        .collect()
}

/// The ground length of a path.
pub fn length(up: UpAxis, corners: &[Vec3]) -> f64 {
    corners
        .windows(2)
        .map(|w| (up.ground(w[1]).as_dvec2() - up.ground(w[0]).as_dvec2()).length())
        .sum()
}

/// One timed path query from `s` to `t`: microseconds, and the ground length of a
/// complete path (NaN otherwise).
pub fn timed(query: &mut Query, s: Vec3, t: Vec3, options: &PathOptions) -> (f64, f64) {
    let up = query.mesh().up_axis();
    let started = Instant::now();
    let path = query.find_path(s, t, options);
    let took = started.elapsed().as_secs_f64() * 1e6;
    let length = match path {
        Ok(p) if p.status == PathStatus::Complete => length(up, p.corners),
        _ => f64::NAN,
    };
    (took, length)
}

/// The value at fraction `q` of sorted `values`.
pub fn quantile(values: &[f64], q: f64) -> f64 {
    values[((values.len() - 1) as f64 * q).round() as usize]
}
