//! `navstar svg`: a top-down SVG picture of a mesh and, optionally, one path.
//!
//! The picture is drawn in world units of the ground plane (the `viewBox`), so grid maps
//! and meshes with integer vertices give integer coordinates; others are rounded to
//! about a tenth of a pixel (2 or 3 decimals at the default width), and path data is
//! written with relative commands ([`path_data`]). Line widths are given in world units,
//! computed from pixel widths. Elements, from bottom to top:
//!
//! * a dark background (everything that is not walkable);
//! * the polygons, one `<path>` per fill colour (islands cycle through a few light
//!   colours), then the corridor polygons of the path highlighted;
//! * all shared polygon edges in one thin `<path>`, all walls in another;
//! * the portals of the corridor (the edges between consecutive corridor polygons);
//!   these and the shared edges are left out by default when the polygons are too
//!   small to see at the picture's width;
//! * with `--tile-size`, the squares of the tiles, dashed (`<path class="tiles">`);
//! * with `--radius`, the boundary of the region the agent's centre may occupy
//!   (`<path class="eroded">`);
//! * the path as a thick `<polyline class="path">`, with start and goal circles.
//!
//! Orientation: the first ground axis points right. The second (y for Z-up meshes, z
//! for Y-up ones) points up for Z-up meshes, so +y is up as on a map, and down for
//! Y-up meshes, the view from above of right-handed coordinates; `--ground-y` overrides.

mod path_data;
pub mod picture;

use navstar::glam::Vec3;
use navstar::{PathStatus, Query, UpAxis};

use clap::builder::RangedU64ValueParser;
use clap::{Args, ValueEnum};

use crate::common::{self, format_number};
use crate::error::CliError;
use crate::options::{PathArgs, PointArg};
use crate::tiles;
use picture::{EdgeDetail, Picture};

/// Draw a mesh (and a path) as an SVG picture
///
/// Draws the polygons top-down in the ground plane (islands in different light colours on
/// a dark background). With --from and --to it also draws the path: the A* corridor
/// polygons highlighted, the corridor's portals (edges between consecutive corridor
/// polygons) in orange, the path as a thick red line, the start as a green dot and the
/// goal as a blue one. Points are given as for 'navstar path'.
#[derive(Debug, Args)]
pub struct SvgCommand {
    /// The mesh file
    #[arg(value_name = "MESH")]
    mesh: String,
    /// The SVG file to write
    #[arg(short = 'o', long, value_name = "OUT.svg")]
    output: String,
    /// Path start (with --to)
    #[arg(
        long,
        value_name = "X,Y[,Z]",
        allow_hyphen_values = true,
        requires = "to"
    )]
    from: Option<PointArg>,
    /// Path goal (with --from)
    #[arg(
        long,
        value_name = "X,Y[,Z]",
        allow_hyphen_values = true,
        requires = "from"
    )]
    to: Option<PointArg>,
    /// Picture width in pixels (16 to 100000); the height follows
    #[arg(
        long,
        value_name = "PX",
        default_value_t = 800,
        value_parser = RangedU64ValueParser::<u32>::new().range(16..=100_000)
    )]
    width: u32,
    /// Which shared polygon edges to draw
    #[arg(
        long,
        value_name = "WHICH",
        value_enum,
        ignore_case = true,
        default_value_t = EdgeDetail::Auto
    )]
    edges: EdgeDetail,
    /// Direction of the second ground axis (y for Z-up meshes, z for Y-up) in the
    /// picture (default: up for Z-up meshes, +y up as on a map; down for Y-up meshes, the
    /// view from above)
    #[arg(long, value_name = "DIR", value_enum, ignore_case = true)]
    ground_y: Option<GroundY>,
    #[command(flatten)]
    path: PathArgs,
}

/// Where the second ground axis points in the picture (`--ground-y`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GroundY {
    /// Upwards
    Up,
    /// Downwards
    Down,
}

impl SvgCommand {
    /// Runs `navstar svg`.
    ///
    /// # Errors
    /// A usage error for points that do not fit the mesh; failures if the mesh cannot be
    /// loaded, the path fails, or the file cannot be written.
    pub fn run(&self) -> Result<(), CliError> {
        let out_path = &self.output;
        let options = self.path.options();
        let mesh_path = &self.mesh;
        let loaded = tiles::load_path_mesh(mesh_path, &self.path)?;
        let mesh = &loaded.mesh;
        let y_up = match self.ground_y {
            None => mesh.up_axis() == UpAxis::Z,
            Some(direction) => direction == GroundY::Up,
        };
        let edges = self.edges;
        let mut route = None;
        if let (Some(from), Some(to)) = (&self.from, &self.to) {
            let start = from.on_mesh("--from", mesh.up_axis())?;
            let goal = to.on_mesh("--to", mesh.up_axis())?;
            let mut query = Query::new(mesh);
            let found = query
                .find_path(start, goal, &options)
                .map_err(|e| CliError::failure(format!("{mesh_path}: path query failed: {e}")))?;
            let corners = found.corners.to_vec();
            let status = found.status;
            let mut corridor: Vec<u32> = query.corridor().collect();
            if corridor.is_empty() {
                // Answered without a search: show the polygons of the two ends.
                corridor.extend(
                    [corners[0], corners[corners.len() - 1]]
                        .iter()
                        .filter_map(|&p| mesh.nearest_point(p, f32::INFINITY, None))
                        .map(|n| n.polygon),
                );
                corridor.dedup();
            }
            route = Some(Route {
                corners,
                corridor,
                status,
            });
        }
        let squares = loaded.tiling.as_ref().map_or(&[][..], |t| &t.squares);
        let eroded = mesh
            .agent_region(options.agent_radius, None)
            .map_err(|e| CliError::failure(format!("{mesh_path}: {e}")))?;
        let picture = Picture::new(mesh, self.width, y_up, edges)
            .with_tiles(squares)
            .with_eroded(eroded.as_ref())
            .with_obstacles(&loaded.obstacles);
        let svg = picture.render(mesh_path, route.as_ref());
        std::fs::write(out_path, &svg)
            .map_err(|e| CliError::failure(format!("cannot write '{out_path}': {e}")))?;
        print!(
            "wrote {out_path} ({} bytes, {} polygons",
            svg.len(),
            mesh.polygon_count()
        );
        if let Some(route) = &route {
            let length: f32 = route.corners.windows(2).map(|w| w[0].distance(w[1])).sum();
            let status = common::status_name(route.status);
            print!(
                "; {status} path of {} corners, length {}, corridor of {} polygons",
                route.corners.len(),
                format_number(length, 4),
                route.corridor.len()
            );
        }
        if let Some(tiling) = &loaded.tiling {
            print!("; {}", tiling.describe());
        }
        match picture.draws_edges() {
            (false, false) => print!(
                "; polygons too small to see: shared edges and portals left out (--edges all draws them)"
            ),
            (false, true) => print!("; shared edges left out"),
            _ => {}
        }
        println!(")");
        Ok(())
    }
}

/// A path to draw.
pub struct Route {
    /// Its corners, in world coordinates.
    pub corners: Vec<Vec3>,
    /// The polygons of its corridor, in order.
    pub corridor: Vec<u32>,
    /// Whether it reaches the goal.
    pub status: PathStatus,
}
