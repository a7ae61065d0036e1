//! What several commands share: loading meshes and scenarios with errors that name the
//! file, parsing and printing points, and ground-plane geometry of polygons.

use std::fs::File;
use std::io::BufReader;
use std::path::Path;
use std::time::{Duration, Instant};

use navstar::glam::{Vec2, Vec3};
use navstar::io::{LoadError, MeshFormat, ScenarioProblem, load_mesh_file, parse_scenario};
use navstar::{MeshOptions, NavMesh, UpAxis};

use crate::args::{Args, CliError};

// ---------------------------------------------------------------------------------------
// Meshes
// ---------------------------------------------------------------------------------------

/// A mesh loaded from a file, with what the commands report about it.
pub struct LoadedMesh {
    /// The mesh.
    pub mesh: NavMesh,
    /// Its format (from the file extension).
    pub format: MeshFormat,
    /// How long reading and building took.
    pub load_time: Duration,
}

/// Parses `--up y|z` (default: the library default, Y).
///
/// # Errors
/// A usage error for anything but `y` or `z`.
pub fn up_axis(args: &Args) -> Result<UpAxis, CliError> {
    match args.value("up") {
        None => Ok(MeshOptions::default().up_axis),
        Some(v) if v.eq_ignore_ascii_case("y") => Ok(UpAxis::Y),
        Some(v) if v.eq_ignore_ascii_case("z") => Ok(UpAxis::Z),
        Some(v) => Err(args.usage(format!("invalid value '{v}' for --up: expected y or z"))),
    }
}

/// Loads the mesh file `path` with the `--up` option of `args`.
///
/// # Errors
/// A usage error for an unknown extension or a bad `--up`; a failure naming the file
/// (and the line or polygon, when the loader gives one) if it cannot be loaded.
pub fn load_mesh(args: &Args, path: &str) -> Result<LoadedMesh, CliError> {
    let up = up_axis(args)?;
    let file = Path::new(path);
    let Some(format) = MeshFormat::from_path(file) else {
        return Err(args.usage(format!(
            "cannot tell the format of '{path}' from its extension (known: {})",
            known_extensions()
        )));
    };
    let started = Instant::now();
    let mesh = load_mesh_file(file, &MeshOptions::with_up_axis(up))
        .map_err(|e| CliError::failure(load_error_message(path, &e)))?;
    Ok(LoadedMesh {
        mesh,
        format,
        load_time: started.elapsed(),
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

/// The known mesh extensions, for messages: `.obj, .mesh, .map`.
pub fn known_extensions() -> String {
    let all: Vec<String> = MeshFormat::ALL
        .iter()
        .flat_map(|f| f.extensions())
        .map(|e| format!(".{e}"))
        .collect();
    all.join(", ")
}

/// A human name of `format`.
pub fn format_name(format: MeshFormat) -> String {
    match format {
        MeshFormat::Obj => "Wavefront OBJ".into(),
        MeshFormat::PolyanyaMesh => "Polyanya mesh".into(),
        MeshFormat::MovingAiMap => "Moving AI grid map".into(),
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

/// Parses `X,Y[,Z]` for option `--{name}`: two numbers are the ground point (x, y, 0) of
/// a Z-up mesh; a Y-up mesh needs all three.
///
/// # Errors
/// A usage error explaining the expected form.
pub fn parse_point(args: &Args, name: &str, raw: &str, up: UpAxis) -> Result<Vec3, CliError> {
    let numbers: Result<Vec<f32>, _> = raw.split(',').map(|s| s.trim().parse::<f32>()).collect();
    let bad = |why: &str| args.usage(format!("invalid point '{raw}' for --{name}: {why}"));
    let numbers = numbers.map_err(|_| bad("expected numbers X,Y or X,Y,Z"))?;
    if numbers.iter().any(|v| !v.is_finite()) {
        return Err(bad("coordinates must be finite"));
    }
    match (numbers.as_slice(), up) {
        (&[x, y, z], _) => Ok(Vec3::new(x, y, z)),
        (&[x, y], UpAxis::Z) => Ok(Vec3::new(x, y, 0.0)),
        (&[_, _], UpAxis::Y) => Err(bad(
            "this mesh is Y-up (the OBJ default), so a point needs three coordinates X,Y,Z \
             with Y the height; two coordinates X,Y are accepted for Z-up meshes only \
             (2D formats, or an OBJ loaded with --up z)",
        )),
        _ => Err(bad("expected two or three comma-separated numbers")),
    }
}

/// The required option `--{name}` as a point (see [`parse_point`]).
///
/// # Errors
/// A usage error when missing or malformed.
pub fn required_point(args: &Args, name: &str, up: UpAxis) -> Result<Vec3, CliError> {
    let raw = args
        .value(name)
        .ok_or_else(|| args.usage(format!("missing --{name} X,Y[,Z]")))?;
    parse_point(args, name, raw, up)
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
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PointRule {
    /// `(x + 0.5, y + 0.5)`: the centre of grid cell `(x, y)` (Moving AI grid maps).
    Centre,
    /// `(x, y)` as written (Polyanya meshes).
    Exact,
}

/// `--points centre|exact`, defaulting to cell centres for grid maps and exact points
/// for meshes.
///
/// # Errors
/// A usage error for another value.
pub fn point_rule(args: &Args, format: MeshFormat) -> Result<PointRule, CliError> {
    match args.value("points") {
        None if is_grid(format) => Ok(PointRule::Centre),
        None => Ok(PointRule::Exact),
        Some("centre" | "center") => Ok(PointRule::Centre),
        Some("exact") => Ok(PointRule::Exact),
        Some(other) => Err(args.usage(format!(
            "invalid value '{other}' for --points: expected centre or exact"
        ))),
    }
}

impl PointRule {
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
pub fn require_z_up(args: &Args, mesh: &NavMesh, what: &str) -> Result<(), CliError> {
    if mesh.up_axis() == UpAxis::Y {
        return Err(args.usage(format!(
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
        .map(move |&v| up.ground(mesh.vertices()[v as usize]))
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
