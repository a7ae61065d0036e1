//! Builds Recast navmeshes of level geometry and writes them as OBJ navmeshes.
//!
//! ```text
//! cargo run --release -p navstar-peers --bin recast_navmesh -- [--out DIR] [--scale F] [--tile-size CELLS] [LEVEL.obj ...]
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
//!
//! With `--tile-size CELLS` it bakes each level in tiles of that many cells instead
//! (`navstar_peers::detour::TiledBake`: Recast once per tile, with a border, as
//! RecastDemo's tile-mesh sample) and writes `<name>.tiles<CELLS>.navmesh.obj`: one
//! `o tile_X_Z` object per tile, each with its own vertices, so a corner that two tiles
//! share is written twice at the same position (navstar's loader welds them: the file
//! loads as the one piece). It checks that every tile builds as a navstar mesh.

#![forbid(unsafe_code)]

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use navstar::MeshOptions;
use navstar_peers::detour::{
    RecastPolyMesh, RecastSettings, TiledBake, TiledSettings, build_recast_polymesh,
};
use navstar_peers::formats::{RECAST_LEVELS, TriangleSoup, read_obj_triangles, shared_data_dir};

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

/// The comment lines at the top of a written file: what it holds, from what, and how.
fn header(what: &str, source: &str, scale: f32, settings: &RecastSettings, counts: &str) -> String {
    let s = settings;
    let scaled = if scale == 1.0 {
        String::new()
    } else {
        format!(" scaled by {scale}")
    };
    let mut text = String::new();
    let _ = writeln!(
        text,
        "# {what} of {source}{scaled} (Y up, world coordinates, 1-based polygon faces)"
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
        "# {counts}. See README.md in this folder for source and licence."
    );
    text
}

/// Appends `v` lines for `vertices` and `f` lines for `polygons`, whose indices count
/// from `first` (the vertices written before these).
fn push_polygons(text: &mut String, vertices: &[[f32; 3]], polygons: &[Vec<u32>], first: usize) {
    for v in vertices {
        let _ = writeln!(text, "v {} {} {}", v[0], v[1], v[2]);
    }
    for p in polygons {
        text.push('f');
        for &v in p {
            let _ = write!(text, " {}", first + v as usize + 1);
        }
        text.push('\n');
    }
}

fn to_obj(mesh: &RecastPolyMesh, source: &str, scale: f32, settings: &RecastSettings) -> String {
    let counts = format!(
        "{} vertices, {} polygons",
        mesh.vertices.len(),
        mesh.polygons.len()
    );
    let mut text = header("Recast polygon mesh", source, scale, settings, &counts);
    push_polygons(&mut text, &mesh.vertices, &mesh.polygons, 0);
    text
}

/// A tiled bake as OBJ: one `o tile_X_Z` object per tile with its own vertices (a corner
/// two tiles share is written by both, at the same position).
fn to_tiled_obj(bake: &TiledBake, source: &str, scale: f32) -> String {
    let what = format!(
        "Recast tiled bake (tiles of {} cells, one object per tile)",
        bake.settings.tile_size
    );
    let counts = format!(
        "{} tiles (grid {} x {}), {} polygons",
        bake.tiles.len(),
        bake.grid.0,
        bake.grid.1,
        bake.polygon_count()
    );
    let mut text = header(&what, source, scale, &bake.settings.recast, &counts);
    let mut first = 0;
    for tile in &bake.tiles {
        let _ = writeln!(text, "o tile_{}_{}", tile.x, tile.z);
        let set = &tile.polygons;
        push_polygons(&mut text, &set.vertices, &set.polygons, first);
        first += set.vertices.len();
    }
    text
}

/// The navstar mesh of a written file, as a table cell.
fn load_back(path: &Path) -> Result<String, String> {
    match navstar::io::load_mesh_file(path, &MeshOptions::default()) {
        Ok(nav) => Ok(format!(
            "ok: {} polygons, {} islands",
            nav.polygon_count(),
            nav.island_count()
        )),
        Err(e) => Err(format!("FAILED: {e}")),
    }
}

/// Bakes one level whole, writes it and returns its table row.
fn solo(soup: &TriangleSoup, source: &str, scale: f32, path: &Path) -> Result<String, String> {
    let settings = RecastSettings::default();
    let mesh = build_recast_polymesh(soup, &settings).map_err(|e| e.to_string())?;
    std::fs::write(path, to_obj(&mesh, source, scale, &settings))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let clockwise = mesh
        .polygons
        .iter()
        .filter(|p| area2_xz(&mesh, p) < 0.0)
        .count();
    let load = load_back(path)?;
    Ok(format!(
        "| {source} | {scale} | {} | {} x {} | {} | {} | {} | {clockwise} | {load} |",
        soup.tris.len() / 3,
        mesh.grid_size.0,
        mesh.grid_size.1,
        mesh.polygons.len(),
        mesh.vertices.len(),
        mesh.polygons.iter().map(Vec::len).max().unwrap_or(0),
    ))
}

/// Bakes one level in tiles, writes it, checks that every tile builds as a navstar mesh
/// and returns its table row.
fn tiled(
    soup: &TriangleSoup,
    source: &str,
    scale: f32,
    tile_size: i32,
    path: &Path,
) -> Result<String, String> {
    let settings = TiledSettings {
        tile_size,
        ..Default::default()
    };
    let bake = TiledBake::build(soup, &settings).map_err(|e| e.to_string())?;
    std::fs::write(path, to_tiled_obj(&bake, source, scale))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let tiles = bake
        .tile_meshes()
        .map_err(|e| format!("a tile does not build: {e}"))?;
    let largest = tiles.iter().map(|t| t.polygon_count()).max().unwrap_or(0);
    let load = load_back(path)?;
    Ok(format!(
        "| {source} | {scale} | {tile_size} | {} x {} | {} | {} | {largest} | {} | {load} |",
        bake.grid.0,
        bake.grid.1,
        bake.tiles.len(),
        bake.polygon_count(),
        bake.detour.tile_count(),
    ))
}

const USAGE: &str =
    "usage: recast_navmesh [--out DIR] [--scale F] [--tile-size CELLS] [LEVEL.obj ...]";

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let mut out = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/recast");
    let mut inputs = Vec::new();
    let mut scale = 1.0f32;
    let mut tile_size = None;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--scale" => match args.next().and_then(|s| s.parse::<f32>().ok()) {
                Some(s) if s.is_finite() && s > 0.0 => scale = s,
                _ => {
                    eprintln!("--scale needs a positive number");
                    return ExitCode::FAILURE;
                }
            },
            "--tile-size" => match args.next().and_then(|s| s.parse::<i32>().ok()) {
                Some(n) if n > 0 => tile_size = Some(n),
                _ => {
                    eprintln!("--tile-size needs a positive number of cells");
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
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            _ => inputs.push((PathBuf::from(arg), scale)),
        }
    }
    if inputs.is_empty() {
        inputs = RECAST_LEVELS
            .iter()
            .map(|&(level, scale)| (shared_data_dir().join("obj").join(level), scale))
            .collect();
    }
    if let Err(e) = std::fs::create_dir_all(&out) {
        eprintln!("cannot create {}: {e}", out.display());
        return ExitCode::FAILURE;
    }
    let mut failed = false;
    if tile_size.is_some() {
        println!(
            "| level | scale | tile size (cells) | grid (tiles) | tiles | polygons | most in a tile | Detour tiles | navstar load (one piece) |"
        );
        println!("|---|---:|---:|---:|---:|---:|---:|---:|---|");
    } else {
        println!(
            "| level | scale | triangles | grid (cells) | Recast polygons | vertices | max corners | clockwise in (x, z) | navstar load |"
        );
        println!("|---|---:|---:|---:|---:|---:|---:|---:|---|");
    }
    for (input, scale) in &inputs {
        let name = input
            .file_stem()
            .map_or("level".into(), |s| s.to_string_lossy().into_owned());
        let source = input
            .file_name()
            .map_or(String::new(), |s| s.to_string_lossy().into_owned());
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
        let row = match tile_size {
            None => solo(
                &soup,
                &source,
                *scale,
                &out.join(format!("{name}.navmesh.obj")),
            ),
            Some(n) => {
                let path = out.join(format!("{name}.tiles{n}.navmesh.obj"));
                tiled(&soup, &source, *scale, n, &path)
            }
        };
        match row {
            Ok(row) => println!("{row}"),
            Err(e) => {
                eprintln!("{}: {e}", input.display());
                failed = true;
            }
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
