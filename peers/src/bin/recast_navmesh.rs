//! Builds Recast navmeshes of level geometry and writes them as OBJ navmeshes.
//!
//! ```text
//! cargo run --release -p navstar-peers --bin recast_navmesh -- [--out DIR] [LEVEL.obj ...]
//! ```
//!
//! Without arguments it builds the five levels of the shared data set
//! (`../shared/data/obj/`, or `$NAVSTAR_DATA/obj/`) into `data/recast/`, the Godot level
//! at scale 2 as its demo uses it (`--scale` sets the scale of levels named on the
//! command line). Each level is
//! fan-triangulated, run through Recast's solo-mesh pipeline with RecastDemo's default
//! settings (see `RecastSettings::default`), and the polygon mesh is written as
//! `<name>.navmesh.obj`: world coordinates (Y up), one `f` line per Recast polygon,
//! 1-based indices. Each file is then loaded back with `navstar::io::load_mesh_file` to
//! check that navstar accepts it.

#![forbid(unsafe_code)]

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use navstar::MeshOptions;
use navstar_peers::detour::{RecastPolyMesh, RecastSettings, build_recast_polymesh};
use navstar_peers::formats::read_obj_triangles;

/// The default levels and the scale each is built at. The Godot demo places its level
/// mesh at scale 2 (`LevelMesh` transform in `3d/navigation/navmesh.tscn` of
/// godot-demo-projects); at scale 1 the level is about 10 x 8 m and RecastDemo's agent
/// (radius 0.6 m, regions of at least 8 x 8 cells) leaves no polygon at all.
const LEVELS: [(&str, f32); 5] = [
    ("dungeon.obj", 1.0),
    ("nav_test.obj", 1.0),
    ("undulating.obj", 1.0),
    ("godot_navigation_level_mesh.obj", 2.0),
    ("bridge.obj", 1.0),
];

fn data_dir() -> PathBuf {
    std::env::var_os("NAVSTAR_DATA").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data"),
        PathBuf::from,
    )
}

/// Twice the signed area of a polygon in the (x, z) plane, as (first, second) axes.
fn area2_xz(mesh: &RecastPolyMesh, polygon: &[u32]) -> f64 {
    let n = polygon.len();
    let origin = mesh.vertices[polygon[0] as usize];
    let at = |i: usize| {
        let v = mesh.vertices[polygon[i % n] as usize];
        (f64::from(v[0] - origin[0]), f64::from(v[2] - origin[2]))
    };
    (0..n)
        .map(|i| {
            let (a, b) = (at(i), at(i + 1));
            a.0 * b.1 - b.0 * a.1
        })
        .sum()
}

fn to_obj(mesh: &RecastPolyMesh, source: &str, scale: f32, settings: &RecastSettings) -> String {
    let s = settings;
    let mut text = String::new();
    let scaled = if scale == 1.0 {
        String::new()
    } else {
        format!(" scaled by {scale}")
    };
    let _ = writeln!(
        text,
        "# Recast polygon mesh of {source}{scaled} (Y up, world coordinates, 1-based polygon faces)"
    );
    let _ = writeln!(
        text,
        "# Built by navstar-peers `recast_navmesh` with RecastDemo's default settings:"
    );
    let _ = writeln!(
        text,
        "# cs {} ch {} agent height {} radius {} climb {} slope {} region min {} merge {} edge len {} error {} nvp {}",
        s.cell_size,
        s.cell_height,
        s.agent_height,
        s.agent_radius,
        s.agent_max_climb,
        s.agent_max_slope,
        s.region_min_size,
        s.region_merge_size,
        s.edge_max_len,
        s.edge_max_error,
        s.verts_per_poly
    );
    let _ = writeln!(
        text,
        "# {} vertices, {} polygons. See README.md in this folder for source and licence.",
        mesh.vertices.len(),
        mesh.polygons.len()
    );
    for v in &mesh.vertices {
        let _ = writeln!(text, "v {} {} {}", v[0], v[1], v[2]);
    }
    for p in &mesh.polygons {
        text.push('f');
        for &v in p {
            let _ = write!(text, " {}", v + 1);
        }
        text.push('\n');
    }
    text
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let mut out = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/recast");
    let mut inputs = Vec::new();
    let mut scale = 1.0f32;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--scale" => match args.next().and_then(|s| s.parse::<f32>().ok()) {
                Some(s) if s.is_finite() && s > 0.0 => scale = s,
                _ => {
                    eprintln!("--scale needs a positive number");
                    return ExitCode::FAILURE;
                }
            },
            "--out" => match args.next() {
                Some(dir) => out = PathBuf::from(dir),
                None => {
                    eprintln!("--out needs a directory");
                    return ExitCode::FAILURE;
                }
            },
            "-h" | "--help" => {
                println!("usage: recast_navmesh [--out DIR] [--scale F] [LEVEL.obj ...]");
                return ExitCode::SUCCESS;
            }
            _ => inputs.push((PathBuf::from(arg), scale)),
        }
    }
    if inputs.is_empty() {
        inputs = LEVELS
            .iter()
            .map(|&(level, scale)| (data_dir().join("obj").join(level), scale))
            .collect();
    }
    if let Err(e) = std::fs::create_dir_all(&out) {
        eprintln!("cannot create {}: {e}", out.display());
        return ExitCode::FAILURE;
    }
    let settings = RecastSettings::default();
    let mut failed = false;
    println!(
        "| level | scale | triangles | grid (cells) | Recast polygons | vertices | max corners | clockwise in (x, z) | navstar load |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---|");
    for (input, scale) in &inputs {
        let name = input
            .file_stem()
            .map_or("level".into(), |s| s.to_string_lossy().into_owned());
        let soup = match read_obj_triangles(input) {
            Ok(mut soup) => {
                soup.verts.iter_mut().for_each(|c| *c *= scale);
                soup
            }
            Err(e) => {
                eprintln!("{}: {e}", input.display());
                failed = true;
                continue;
            }
        };
        let mesh = match build_recast_polymesh(&soup, &settings) {
            Ok(mesh) => mesh,
            Err(e) => {
                eprintln!("{}: {e}", input.display());
                failed = true;
                continue;
            }
        };
        let path = out.join(format!("{name}.navmesh.obj"));
        let source = input
            .file_name()
            .map_or(String::new(), |s| s.to_string_lossy().into_owned());
        if let Err(e) = std::fs::write(&path, to_obj(&mesh, &source, *scale, &settings)) {
            eprintln!("cannot write {}: {e}", path.display());
            failed = true;
            continue;
        }
        let clockwise = mesh
            .polygons
            .iter()
            .filter(|p| area2_xz(&mesh, p) < 0.0)
            .count();
        let load = match navstar::io::load_mesh_file(&path, &MeshOptions::default()) {
            Ok(nav) => format!(
                "ok: {} polygons, {} islands",
                nav.polygon_count(),
                nav.island_count()
            ),
            Err(e) => {
                failed = true;
                format!("FAILED: {e}")
            }
        };
        println!(
            "| {source} | {scale} | {} | {} x {} | {} | {} | {} | {clockwise} | {load} |",
            soup.tris.len() / 3,
            mesh.grid_size.0,
            mesh.grid_size.1,
            mesh.polygons.len(),
            mesh.vertices.len(),
            mesh.polygons.iter().map(Vec::len).max().unwrap_or(0),
        );
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
