//! What several commands share: loading meshes and scenarios with errors that name the
//! file, parsing and printing points, and ground-plane geometry of polygons.

use std::fs::File;
use std::io::BufReader;
use std::path::Path;
use std::time::{Duration, Instant};

use clap::ValueEnum;
use navstar::glam::{Vec2, Vec3};
use navstar::io::{LoadError, MeshFormat, ScenarioProblem, load_mesh_file, parse_scenario};
use navstar::{MeshOptions, NavMesh, PathStatus, UpAxis};

use crate::error::CliError;

// ---------------------------------------------------------------------------------------
// Meshes
// ---------------------------------------------------------------------------------------

/// A mesh cut into square tiles and joined again as a world (`--tile-size`).
pub struct Tiling {
    /// The side of a tile, in world units.
    pub tile_size: f32,
    /// The grid's columns and rows.
    pub grid: (u32, u32),
    /// The squares of the tiles that hold polygons: low and high corners in the ground
    /// plane.
    pub squares: Vec<(Vec2, Vec2)>,
    /// The mesh as loaded, in one piece.
    pub whole: NavMesh,
    /// How long cutting and joining took.
    pub time: Duration,
}

impl Tiling {
    /// One line for reports: `58 tiles of side 32 (8 x 8 grid), cut and joined in 12.3 ms`.
    pub fn describe(&self) -> String {
        format!(
            "{} tiles of side {} ({} x {} grid), cut and joined in {:.1} ms",
            self.squares.len(),
            self.tile_size,
            self.grid.0,
            self.grid.1,
            self.time.as_secs_f64() * 1e3
        )
    }
}

/// A mesh loaded from a file, with what the commands report about it.
pub struct LoadedMesh {
    /// The mesh.
    pub mesh: NavMesh,
    /// Its format (from the file extension).
    pub format: MeshFormat,
    /// How long reading and building took.
    pub load_time: Duration,
    /// With `--tile-size`: how the mesh was cut into tiles (`mesh` is then the snapshot
    /// of a world of those tiles).
    pub tiling: Option<Tiling>,
    /// With `--obstacle`: the discs carved out of `mesh`.
    pub obstacles: Vec<navstar::Obstacle>,
}

/// Loads the mesh file `path` (OBJ files with `up` as the up axis).
///
/// # Errors
/// A usage error for an unknown extension; a failure naming the file (and the line or
/// polygon, when the loader gives one) if it cannot be loaded.
pub fn load_mesh(path: &str, up: UpAxis) -> Result<LoadedMesh, CliError> {
    let file = Path::new(path);
    let Some(format) = MeshFormat::from_path(file) else {
        let unknown = LoadError::UnknownFormat {
            path: file.to_path_buf(),
        };
        return Err(CliError::usage(unknown.to_string()));
    };
    let started = Instant::now();
    let mesh = load_mesh_file(file, &MeshOptions::default().with_up_axis(up))
        .map_err(|e| CliError::failure(load_error_message(path, &e)))?;
    Ok(LoadedMesh {
        mesh,
        format,
        load_time: started.elapsed(),
        tiling: None,
        obstacles: Vec::new(),
    })
}

/// `error` as a message that names `path`: `file: line 3: ...`, `file: invalid mesh: ...`.
pub fn load_error_message(path: &str, error: &LoadError) -> String {
    match error {
        // These already name the file.
        LoadError::Io { path: Some(_), .. } | LoadError::UnknownFormat { .. } => error.to_string(),
        _ => format!("{path}: {error}"),
    }
}

/// A human name of `format`.
pub fn format_name(format: MeshFormat) -> String {
    match format {
        MeshFormat::Obj => "Wavefront OBJ".into(),
        MeshFormat::PolyanyaMesh => "Polyanya mesh".into(),
        MeshFormat::MovingAiMap => "Moving AI grid map".into(),
        MeshFormat::Navstar => "navstar binary".into(),
        MeshFormat::Detour => "Recast/Detour navmesh".into(),
        other => format!("{other:?}"),
    }
}

/// Whether scenario points in `format` name grid cells (so the cell centre is meant).
pub fn is_grid(format: MeshFormat) -> bool {
    format == MeshFormat::MovingAiMap
}

/// `"Y"` or `"Z"`.
pub fn axis_name(up: UpAxis) -> &'static str {
    match up {
        UpAxis::Y => "Y",
        UpAxis::Z => "Z",
    }
}

// ---------------------------------------------------------------------------------------
// Points
// ---------------------------------------------------------------------------------------

/// How a path's status is printed: `complete`, `partial` or `partial (node limit)`.
pub fn status_name(status: PathStatus) -> &'static str {
    match status {
        PathStatus::Complete => "complete",
        PathStatus::Partial => "partial",
        PathStatus::NodeLimit => "partial (node limit)",
    }
}

/// `p` with up to 4 decimals and no trailing zeros, as `x y z`.
pub fn format_point(p: Vec3) -> String {
    format!(
        "{} {} {}",
        format_number(p.x, 4),
        format_number(p.y, 4),
        format_number(p.z, 4)
    )
}

/// `value` rounded to `decimals` places, without trailing zeros or a negative zero.
pub fn format_number(value: f32, decimals: usize) -> String {
    let text = format!("{value:.decimals$}");
    let text = if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.')
    } else {
        &text
    };
    if text == "-0" {
        "0".into()
    } else {
        text.into()
    }
}

// ---------------------------------------------------------------------------------------
// Scenarios
// ---------------------------------------------------------------------------------------

/// How scenario coordinates become points (`--points`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PointRule {
    /// (x + 0.5, y + 0.5): the centre of grid cell (x, y), as in grid scenarios
    #[value(alias = "center")]
    Centre,
    /// (x, y) as written, as in Polyanya mesh scenarios
    Exact,
}

impl PointRule {
    /// The rule `given` on the command line, or by default the one of `format`: cell
    /// centres for grid maps, the points as written for meshes. A saved mesh
    /// (`.navstar`) does not know where it came from: the scenario's map name tells
    /// (cell centres when its first problem names a `.map` file).
    pub fn or_default(
        given: Option<PointRule>,
        format: MeshFormat,
        problems: &[ScenarioProblem],
    ) -> PointRule {
        let grid = if format == MeshFormat::Navstar {
            problems.first().is_some_and(|p| {
                MeshFormat::from_path(Path::new(p.map_file_name())) == Some(MeshFormat::MovingAiMap)
            })
        } else {
            is_grid(format)
        };
        given.unwrap_or(if grid {
            PointRule::Centre
        } else {
            PointRule::Exact
        })
    }

    /// The start and goal of `problem` under this rule (z = 0).
    pub fn endpoints(self, problem: &ScenarioProblem) -> (Vec3, Vec3) {
        match self {
            PointRule::Centre => (problem.grid_start(), problem.grid_goal()),
            PointRule::Exact => (problem.mesh_start(), problem.mesh_goal()),
        }
    }

    /// The rule's name, for reports.
    pub fn describe(self) -> &'static str {
        match self {
            PointRule::Centre => "cell centres (x+0.5, y+0.5)",
            PointRule::Exact => "points as written",
        }
    }
}

/// Reads the scenario file `path`.
///
/// # Errors
/// A failure naming the file (and line) if it cannot be read or parsed.
pub fn load_scenario(path: &str) -> Result<Vec<ScenarioProblem>, CliError> {
    let file =
        File::open(path).map_err(|e| CliError::failure(format!("cannot read '{path}': {e}")))?;
    parse_scenario(BufReader::new(file))
        .map_err(|e| CliError::failure(load_error_message(path, &e)))
}

/// Fails with an explanation when scenario points need a Z-up mesh and `mesh` is Y-up.
///
/// # Errors
/// A usage error for a Y-up mesh.
pub fn require_z_up(mesh: &NavMesh, what: &str) -> Result<(), CliError> {
    if mesh.up_axis() == UpAxis::Y {
        return Err(CliError::usage(format!(
            "{what} has 2D points (x, y, 0) but the mesh is Y-up; load an OBJ with --up z"
        )));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Geometry
// ---------------------------------------------------------------------------------------

/// The ground-plane corners of `polygon`.
pub fn ground_polygon(mesh: &NavMesh, polygon: u32) -> impl Iterator<Item = Vec2> + '_ {
    let up = mesh.up_axis();
    mesh.polygon_vertices(polygon)
        .iter()
        .map(move |&v| up.ground(mesh.vertex(v)))
}

/// The area of `polygon` in the ground plane.
pub fn polygon_area(mesh: &NavMesh, polygon: u32) -> f64 {
    let corners: Vec<Vec2> = ground_polygon(mesh, polygon).collect();
    let mut twice = 0.0f64;
    for (i, a) in corners.iter().enumerate() {
        let b = corners[(i + 1) % corners.len()];
        twice += f64::from(a.x) * f64::from(b.y) - f64::from(b.x) * f64::from(a.y);
    }
    twice.abs() / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_trimmed() {
        assert_eq!(format_number(1.0, 4), "1");
        assert_eq!(format_number(-0.00001, 4), "0");
        assert_eq!(format_number(2.5, 4), "2.5");
        assert_eq!(format_number(1.0 / 3.0, 2), "0.33");
    }
}
