//! The options several commands share, each declared once: the mesh's up axis
//! ([`MeshArgs`]), the path options of every path-finding command ([`PathArgs`]: `--mode`,
//! `--weight`, `--snap`, `--no-partial`, `--radius`, `--tile-size`, `--obstacle`), how scenario coordinates become points
//! ([`ScenarioArgs`]) and the `X,Y[,Z]` form of a point ([`PointArg`]).

use std::str::FromStr;

use clap::{Args, ValueEnum};
use navstar::glam::{Vec2, Vec3};
use navstar::{Obstacle, PathMode, PathOptions, UpAxis};

use crate::common::PointRule;
use crate::error::CliError;

/// An up axis, as `--up` takes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Up {
    /// Y is the height (the OBJ convention)
    Y,
    /// Z is the height
    Z,
}

/// How a mesh file is loaded.
#[derive(Debug, Args)]
pub struct MeshArgs {
    /// Up axis of an OBJ file; the 2D formats (.mesh, .map) are always Z-up
    #[arg(long, value_name = "AXIS", value_enum, ignore_case = true, default_value_t = Up::Y)]
    pub up: Up,
}

impl MeshArgs {
    /// The up axis to load an OBJ file with.
    pub fn up_axis(&self) -> UpAxis {
        match self.up {
            Up::Y => UpAxis::Y,
            Up::Z => UpAxis::Z,
        }
    }
}

/// How paths are computed (`--mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum Mode {
    /// The exact mode where it answers what was asked (equal area costs, no off-mesh
    /// links), A* and the funnel otherwise
    #[default]
    Auto,
    /// A* over the polygons, then the funnel algorithm along the corridor
    Funnel,
    /// The exact any-angle shortest path (interval search over the mesh)
    Optimal,
}

impl Mode {
    /// The library path mode of this mode.
    pub fn path_mode(self) -> PathMode {
        match self {
            Mode::Auto => PathMode::Auto,
            Mode::Funnel => PathMode::Funnel,
            Mode::Optimal => PathMode::Optimal,
        }
    }

    /// The mode's name, as `--mode` takes it.
    pub fn name(self) -> String {
        self.to_possible_value()
            .map_or_else(String::new, |value| value.get_name().to_owned())
    }
}

/// The path options of `path`, `scen`, `bench` and `svg`, and the mesh they load.
#[derive(Debug, Args)]
pub struct PathArgs {
    /// Search mode
    #[arg(long, value_enum, ignore_case = true, default_value_t = Mode::Auto)]
    pub mode: Mode,
    /// A* heuristic weight, >= 0; above 1 searches less but paths may be longer
    #[arg(
        long,
        value_name = "W",
        default_value_t = PathOptions::default().heuristic_weight,
        value_parser = parse_weight,
        allow_negative_numbers = true
    )]
    pub weight: f32,
    /// Fail when a point is farther than D from the mesh (default: no limit)
    #[arg(long, value_name = "D", value_parser = parse_snap, allow_negative_numbers = true)]
    pub snap: Option<f32>,
    /// Treat an unreachable goal as a failure instead of returning a partial path (to the
    /// reachable point closest to the goal)
    #[arg(long)]
    pub no_partial: bool,
    /// The agent's radius R (world units, >= 0): paths keep R from every wall, on the
    /// mesh eroded by R (built once per run)
    #[arg(
        long,
        value_name = "R",
        default_value_t = 0.0,
        value_parser = parse_radius,
        allow_negative_numbers = true
    )]
    pub radius: f32,
    /// Cut the mesh into square tiles of side S (world units), merge the polygons of each
    /// tile on their own, and answer on a world of those tiles
    #[arg(long, value_name = "S", value_parser = parse_tile_size, allow_negative_numbers = true)]
    pub tile_size: Option<f32>,
    /// A disc of radius R at ground point A,B (x,y for .mesh and .map files, x,z for a
    /// Y-up OBJ), carved out of the mesh before the queries (repeatable)
    #[arg(long = "obstacle", value_name = "A,B,R", value_parser = parse_obstacle, allow_hyphen_values = true)]
    pub obstacles: Vec<Obstacle>,
    #[command(flatten)]
    pub mesh: MeshArgs,
}

impl PathArgs {
    /// The library's path options for these arguments.
    pub fn options(&self) -> PathOptions {
        let mut options = PathOptions::default();
        options.mode = self.mode.path_mode();
        options.heuristic_weight = self.weight;
        if let Some(snap) = self.snap {
            options.max_snap_distance = snap;
        }
        options.allow_partial = !self.no_partial;
        options.agent_radius = self.radius;
        options
    }
}

/// `--obstacle A,B,R`: a disc of radius R > 0 at the ground point (A, B).
fn parse_obstacle(raw: &str) -> Result<Obstacle, String> {
    let parts: Vec<&str> = raw.split(',').collect();
    let [a, b, r] = parts.as_slice() else {
        return Err(format!("'{raw}' is not A,B,R (three numbers)"));
    };
    let number = |text: &str| -> Result<f32, String> {
        text.trim()
            .parse::<f32>()
            .map_err(|e| format!("'{text}' in '{raw}': {e}"))
    };
    Obstacle::circle(Vec2::new(number(a)?, number(b)?), number(r)?)
        .map_err(|e| format!("'{raw}': {e}"))
}

/// `--weight`: a finite number >= 0.
fn parse_weight(raw: &str) -> Result<f32, String> {
    let weight: f32 = raw.parse().map_err(|e| format!("{e}"))?;
    if weight.is_finite() && weight >= 0.0 {
        Ok(weight)
    } else {
        Err("the weight must be finite and >= 0".into())
    }
}

/// `--snap`: a number >= 0, or `inf`.
fn parse_snap(raw: &str) -> Result<f32, String> {
    let snap: f32 = raw.parse().map_err(|e| format!("{e}"))?;
    if snap >= 0.0 {
        Ok(snap)
    } else {
        Err("the distance must be >= 0 (or inf)".into())
    }
}

/// `--radius`: a finite number >= 0.
fn parse_radius(raw: &str) -> Result<f32, String> {
    let radius: f32 = raw.parse().map_err(|e| format!("{e}"))?;
    if radius.is_finite() && radius >= 0.0 {
        Ok(radius)
    } else {
        Err("the radius must be finite and >= 0".into())
    }
}

/// `--tile-size`: a finite number > 0.
fn parse_tile_size(raw: &str) -> Result<f32, String> {
    let size: f32 = raw.parse().map_err(|e| format!("{e}"))?;
    if size.is_finite() && size > 0.0 {
        Ok(size)
    } else {
        Err("the tile size must be finite and > 0".into())
    }
}

/// How scenario coordinates become points, for `scen` and `bench`.
#[derive(Debug, Args)]
pub struct ScenarioArgs {
    /// How scenario coordinates become points (default: cell centres on a grid map, the
    /// points as written on a mesh); 'centre' suits a mesh made from the scenario's grid
    /// map
    #[arg(long, value_name = "RULE", value_enum, ignore_case = true)]
    pub points: Option<PointRule>,
}

/// A point as written on the command line, `X,Y` or `X,Y,Z`: two or three finite
/// numbers. Which form a mesh takes depends on its up axis ([`PointArg::on_mesh`]).
#[derive(Debug, Clone)]
pub struct PointArg {
    /// The text given, for messages.
    raw: String,
    /// The coordinates.
    numbers: Vec<f32>,
}

impl FromStr for PointArg {
    type Err = String;

    fn from_str(raw: &str) -> Result<PointArg, String> {
        let numbers: Vec<f32> = raw
            .split(',')
            .map(|s| s.trim().parse::<f32>())
            .collect::<Result<_, _>>()
            .map_err(|_| "expected numbers X,Y or X,Y,Z".to_string())?;
        if !(2..=3).contains(&numbers.len()) {
            return Err("expected two or three comma-separated numbers".into());
        }
        if numbers.iter().any(|v| !v.is_finite()) {
            return Err("coordinates must be finite".into());
        }
        Ok(PointArg {
            raw: raw.to_owned(),
            numbers,
        })
    }
}

impl PointArg {
    /// The point on a mesh whose up axis is `up`: three numbers are the point itself; two
    /// are the ground point (x, y, 0) of a Z-up mesh. `option` names the option for the
    /// message.
    ///
    /// # Errors
    /// A usage error for two numbers on a Y-up mesh.
    pub fn on_mesh(&self, option: &str, up: UpAxis) -> Result<Vec3, CliError> {
        match (self.numbers.as_slice(), up) {
            (&[x, y, z], _) => Ok(Vec3::new(x, y, z)),
            (&[x, y], UpAxis::Z) => Ok(Vec3::new(x, y, 0.0)),
            _ => Err(CliError::usage(format!(
                "invalid point '{}' for {option}: this mesh is Y-up (the OBJ default), so a \
                 point needs three coordinates X,Y,Z with Y the height; two coordinates X,Y \
                 are accepted for Z-up meshes only (2D formats, or an OBJ loaded with --up z)",
                self.raw
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes() {
        assert_eq!(Mode::from_str("optimal", true), Ok(Mode::Optimal));
        assert_eq!(Mode::Optimal.path_mode(), PathMode::Optimal);
        assert_eq!(Mode::Funnel.name(), "funnel");
        assert_eq!(Mode::default(), Mode::Auto);
        assert_eq!(Mode::Auto.path_mode(), PathMode::default());
    }

    /// Without `--mode` the tool answers as the library does by default.
    #[test]
    fn the_default_mode_is_the_librarys() {
        #[derive(clap::Parser)]
        struct Probe {
            #[command(flatten)]
            path: PathArgs,
        }
        let probe = <Probe as clap::Parser>::try_parse_from(["probe"]).unwrap();
        assert_eq!(probe.path.mode, Mode::Auto);
        assert_eq!(probe.path.options(), PathOptions::default());
    }

    #[test]
    fn points() {
        let two: PointArg = "1,-2".parse().unwrap();
        assert_eq!(
            two.on_mesh("--from", UpAxis::Z).unwrap(),
            Vec3::new(1.0, -2.0, 0.0)
        );
        assert!(two.on_mesh("--from", UpAxis::Y).is_err());
        let three: PointArg = "1, 2, 3".parse().unwrap();
        assert_eq!(
            three.on_mesh("--to", UpAxis::Y).unwrap(),
            Vec3::new(1.0, 2.0, 3.0)
        );
        for bad in ["1", "1,2,3,4", "a,b", "1,inf", ""] {
            assert!(bad.parse::<PointArg>().is_err(), "{bad}");
        }
    }

    #[test]
    fn weight_and_snap() {
        assert_eq!(parse_weight("1.5"), Ok(1.5));
        assert!(parse_weight("-1").is_err());
        assert!(parse_weight("inf").is_err());
        assert_eq!(parse_snap("inf"), Ok(f32::INFINITY));
        assert!(parse_snap("-0.5").is_err());
        assert!(parse_snap("nan").is_err());
        assert_eq!(parse_tile_size("2.5"), Ok(2.5));
        for bad in ["0", "-1", "inf", "nan", "x"] {
            assert!(parse_tile_size(bad).is_err(), "{bad}");
        }
    }
}
