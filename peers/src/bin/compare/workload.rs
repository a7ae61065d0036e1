//! The inputs of the compare benchmark: the bundled and shared meshes, and the queries
//! run on each (a scenario's problems, or random pairs of points on one island).

use std::path::{Path, PathBuf};

use navstar::glam::Vec3;
use navstar::{MeshOptions, NavMesh};
use navstar_peers::{SplitMix64, random_point_in_polygon};

fn data_dir() -> PathBuf {
    std::env::var_os("NAVSTAR_DATA").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data"),
        PathBuf::from,
    )
}

pub(crate) fn default_inputs() -> Vec<String> {
    let d = data_dir();
    let recast = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/recast");
    let mut inputs = vec![
        format!(
            "{}={}",
            d.join("mesh/arena-merged.mesh").display(),
            d.join("grid/arena.map.scen").display()
        ),
        d.join("mesh/scene_mp_2p_01.mesh").display().to_string(),
        d.join("grid/den520d.map").display().to_string(),
        d.join("grid/Berlin_0_256.map").display().to_string(),
        d.join("grid/maze512-1-0.map").display().to_string(),
    ];
    for level in [
        "dungeon",
        "nav_test",
        "undulating",
        "godot_navigation_level_mesh",
        "bridge",
    ] {
        inputs.push(
            recast
                .join(format!("{level}.navmesh.obj"))
                .display()
                .to_string(),
        );
    }
    inputs
}

/// Where the reference length of a query comes from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Reference {
    /// The scenario's optimal (exact Euclidean) length.
    Scenario,
    /// Polyanya's length.
    Polyanya,
}

/// One query: the points, and what the scenario says about its length.
#[derive(Debug, Clone, Copy)]
pub(crate) struct QuerySpec {
    pub(crate) start: Vec3,
    pub(crate) goal: Vec3,
    /// The exact (Euclidean) shortest length, from a mesh scenario.
    pub(crate) exact: Option<f64>,
    /// The octile grid length, from a grid scenario: an upper bound of the exact length.
    pub(crate) octile: Option<f64>,
}

pub(crate) struct Workload {
    pub(crate) name: String,
    pub(crate) mesh: NavMesh,
    pub(crate) queries: Vec<QuerySpec>,
    pub(crate) reference: Reference,
    pub(crate) source: String,
}

fn load_mesh(path: &Path) -> Result<NavMesh, String> {
    navstar::io::load_mesh_file(path, &MeshOptions::default()).map_err(|e| e.to_string())
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// `count` indices spread evenly over `0..len`.
fn spread(len: usize, count: usize) -> Vec<usize> {
    if len <= count {
        return (0..len).collect();
    }
    (0..count).map(|i| i * len / count).collect()
}

fn random_queries(mesh: &NavMesh, count: usize, seed: u64) -> Vec<QuerySpec> {
    let up = mesh.up_axis();
    let vertices = mesh.vertices();
    let mut cumulative = Vec::with_capacity(mesh.polygon_count() as usize);
    let mut total = 0.0f64;
    for p in 0..mesh.polygon_count() {
        let c: Vec<_> = mesh
            .polygon_vertices(p)
            .iter()
            .map(|&v| up.ground(vertices[v as usize]).as_dvec2())
            .collect();
        let area: f64 = (1..c.len() - 1)
            .map(|i| (c[i] - c[0]).perp_dot(c[i + 1] - c[0]).abs() / 2.0)
            .sum();
        total += area;
        cumulative.push(total);
    }
    let mut rng = SplitMix64::new(seed);
    let pick = |rng: &mut SplitMix64| {
        let x = f64::from(rng.next_f32()) * total;
        (cumulative.partition_point(|&c| c <= x) as u32).min(mesh.polygon_count() - 1)
    };
    let mut queries = Vec::with_capacity(count);
    while queries.len() < count {
        let a = pick(&mut rng);
        let Some(b) = (0..1000)
            .map(|_| pick(&mut rng))
            .find(|&b| mesh.island(b) == mesh.island(a))
        else {
            continue;
        };
        let start = random_point_in_polygon(mesh, a, &mut rng);
        let goal = random_point_in_polygon(mesh, b, &mut rng);
        queries.push(QuerySpec {
            start,
            goal,
            exact: None,
            octile: None,
        });
    }
    queries
}

pub(crate) fn workload(input: &str, max_queries: usize, seed: u64) -> Result<Workload, String> {
    let (mesh_path, scen_path) = match input.split_once('=') {
        Some((m, s)) => (PathBuf::from(m), Some(PathBuf::from(s))),
        None => {
            let scen = PathBuf::from(format!("{input}.scen"));
            (PathBuf::from(input), scen.exists().then_some(scen))
        }
    };
    let mesh = load_mesh(&mesh_path).map_err(|e| format!("{}: {e}", mesh_path.display()))?;
    let name = file_name(&mesh_path);
    let Some(scen_path) = scen_path else {
        return Ok(Workload {
            name,
            queries: random_queries(&mesh, max_queries, seed),
            mesh,
            reference: Reference::Polyanya,
            source: format!("{max_queries} random"),
        });
    };
    let file =
        std::fs::File::open(&scen_path).map_err(|e| format!("{}: {e}", scen_path.display()))?;
    let problems = navstar::io::parse_scenario(std::io::BufReader::new(file))
        .map_err(|e| format!("{}: {e}", scen_path.display()))?;
    let grid = file_name(&scen_path).ends_with(".map.scen");
    let picked = spread(problems.len(), max_queries);
    let queries = picked
        .iter()
        .map(|&i| {
            let p = &problems[i];
            let (start, goal) = if grid {
                (p.grid_start(), p.grid_goal())
            } else {
                (p.mesh_start(), p.mesh_goal())
            };
            QuerySpec {
                start,
                goal,
                exact: (!grid).then_some(p.optimal_length),
                octile: grid.then_some(p.optimal_length),
            }
        })
        .collect();
    Ok(Workload {
        name,
        mesh,
        queries,
        reference: if grid {
            Reference::Polyanya
        } else {
            Reference::Scenario
        },
        source: format!(
            "{} of {} in {}",
            picked.len(),
            problems.len(),
            file_name(&scen_path)
        ),
    })
}
