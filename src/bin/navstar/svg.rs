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
//! * the path as a thick `<polyline class="path">`, with start and goal circles.
//!
//! Orientation: the first ground axis points right. The second (y for Z-up meshes, z
//! for Y-up ones) points up for Z-up meshes, so +y is up as on a map, and down for
//! Y-up meshes, the view from above of right-handed coordinates; `--ground-y` overrides.

mod path_data;
mod picture;

use navstar::glam::Vec3;
use navstar::{PathStatus, Query, UpAxis};

use crate::args::{Args, CliError, Spec};
use crate::common::{self, format_number};
use crate::modes;
use picture::{EdgeDetail, Picture};

/// Options of `navstar svg`.
pub const SPEC: Spec = Spec {
    values: &[
        "from", "to", "width", "o", "output", "ground-y", "edges", "mode", "weight", "snap", "up",
    ],
    flags: &["no-partial"],
    positionals: &["MESH"],
};

/// Help of `navstar svg`.
pub const HELP: &str = "\
navstar svg: draw a mesh (and a path) as an SVG picture

Usage: navstar svg MESH -o OUT.svg [--from X,Y[,Z] --to X,Y[,Z]] [options]

Draws the polygons top-down in the ground plane (islands in different light
colours on a dark background). With --from and --to it also draws the path: the A*
corridor polygons highlighted, the corridor's portals (edges between consecutive
corridor polygons) in orange, the path as a thick red line, the start as a green
dot and the goal as a blue one. Points are given as for 'navstar path'.

Options:
  -o, --output OUT  the SVG file to write (required)
  --from X,Y[,Z]    path start
  --to X,Y[,Z]      path goal
  --width PX        picture width in pixels (default 800); the height follows
  --edges auto|all|none
                    shared polygon edges: 'auto' (default) draws them and the
                    portals unless the median polygon is narrower than 3 pixels;
                    'all' always draws both; 'none' draws no shared edges
  --ground-y up|down
                    direction of the second ground axis (y for Z-up meshes, z for
                    Y-up); default up for Z-up meshes (+y up, as on a map), down for
                    Y-up meshes (the view from above)
  --mode, --weight, --snap, --no-partial
                    path options, as for 'navstar path'
  --up y|z          up axis of an OBJ file (default y)
  -h, --help        show this help
";

/// Runs `navstar svg`.
///
/// # Errors
/// Usage errors for bad arguments; failures if the mesh cannot be loaded, the path
/// fails, or the file cannot be written.
pub fn run(args: &Args) -> Result<(), CliError> {
    let out_path = match (args.value("o"), args.value("output")) {
        (Some(_), Some(_)) => return Err(args.usage("give -o or --output, not both")),
        (Some(p), None) | (None, Some(p)) => p,
        (None, None) => return Err(args.usage("missing -o OUT.svg")),
    };
    let width: u32 = args.parsed("width")?.unwrap_or(800);
    if !(16..=100_000).contains(&width) {
        return Err(args.usage("--width must be between 16 and 100000 pixels"));
    }
    if args.value("from").is_some() != args.value("to").is_some() {
        return Err(args.usage("give both --from and --to, or neither"));
    }
    let (_, options) = modes::path_options(args)?;
    let mesh_path = args.positional(0);
    let loaded = common::load_mesh(args, mesh_path)?;
    let mesh = &loaded.mesh;
    let y_up = match args.value("ground-y") {
        None => mesh.up_axis() == UpAxis::Z,
        Some("up") => true,
        Some("down") => false,
        Some(other) => {
            return Err(args.usage(format!(
                "invalid value '{other}' for --ground-y: expected up or down"
            )));
        }
    };
    let edges = match args.value("edges") {
        None | Some("auto") => EdgeDetail::Auto,
        Some("all") => EdgeDetail::All,
        Some("none") => EdgeDetail::None,
        Some(other) => {
            return Err(args.usage(format!(
                "invalid value '{other}' for --edges: expected auto, all or none"
            )));
        }
    };
    let mut route = None;
    if args.value("from").is_some() {
        let start = common::required_point(args, "from", mesh.up_axis())?;
        let goal = common::required_point(args, "to", mesh.up_axis())?;
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
                    .filter_map(|&p| mesh.nearest_point(p, f32::INFINITY))
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
    let picture = Picture::new(mesh, width, y_up, edges);
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
        let status = match route.status {
            PathStatus::Complete => "complete",
            PathStatus::Partial => "partial",
        };
        print!(
            "; {status} path of {} corners, length {}, corridor of {} polygons",
            route.corners.len(),
            format_number(length, 4),
            route.corridor.len()
        );
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

/// A path to draw.
pub struct Route {
    /// Its corners, in world coordinates.
    pub corners: Vec<Vec3>,
    /// The polygons of its corridor, in order.
    pub corridor: Vec<u32>,
    /// Whether it reaches the goal.
    pub status: PathStatus,
}
