//! `navstar path`: one path query, printed as status, corners and length.

use std::time::Instant;

use navstar::{PathStatus, Query};

use crate::args::{Args, CliError, Spec};
use crate::common::{self, format_point};
use crate::{modes, stats};

/// Options of `navstar path`.
pub const SPEC: Spec = Spec {
    values: &["from", "to", "mode", "weight", "snap", "up"],
    flags: &["no-partial"],
    positionals: &["MESH"],
};

/// Help of `navstar path`.
pub const HELP: &str = "\
navstar path: find a path and print its corners and length

Usage: navstar path MESH --from X,Y[,Z] --to X,Y[,Z] [options]

Points are world coordinates. Two numbers X,Y mean the ground point (X, Y, 0) of a
Z-up mesh (.mesh and .map files, or an OBJ loaded with --up z); a Y-up mesh (an OBJ,
by default) needs X,Y,Z with Y the height. Both points are snapped to the nearest
point of the mesh first.

Output: 'status: complete' or 'status: partial' (goal unreachable; the path ends at
the reachable point closest to it), one corner per line as 'x y z', and the length.

Options:
  --from X,Y[,Z]  start point (required)
  --to X,Y[,Z]    goal point (required)
  --mode MODE     funnel: A* corridor + funnel (default); optimal: exact shortest path
  --weight W      A* heuristic weight, >= 0 (default 1; > 1 is faster, maybe longer)
  --snap D        fail if a point is farther than D from the mesh (default: no limit)
  --no-partial    fail (exit 1) instead of returning a partial path
  --up y|z        up axis of an OBJ file (default y)
  -h, --help      show this help
";

/// Runs `navstar path`.
///
/// # Errors
/// Usage errors for bad arguments; a failure if the mesh cannot be loaded or the query
/// fails (point too far from the mesh, goal unreachable with `--no-partial`).
pub fn run(args: &Args) -> Result<(), CliError> {
    let (_, options) = modes::path_options(args)?;
    let path = args.positional(0);
    // Missing points are reported before the (possibly slow) load; their form depends
    // on the mesh's up axis, so they are parsed after it.
    for name in ["from", "to"] {
        if args.value(name).is_none() {
            return Err(args.usage(format!("missing --{name} X,Y[,Z]")));
        }
    }
    let loaded = common::load_mesh(args, path)?;
    let mesh_up = loaded.mesh.up_axis();
    let start = common::required_point(args, "from", mesh_up)?;
    let goal = common::required_point(args, "to", mesh_up)?;
    let mut query = Query::new(&loaded.mesh);
    let started = Instant::now();
    let found = query
        .find_path(start, goal, &options)
        .map_err(|e| CliError::failure(format!("{path}: path query failed: {e}")))?;
    let elapsed = started.elapsed();
    let status = match found.status {
        PathStatus::Complete => "complete",
        PathStatus::Partial => "partial",
    };
    println!("status: {status}");
    println!("corners: {}", found.corners.len());
    for &corner in found.corners {
        println!("  {}", format_point(corner));
    }
    println!("length: {}", common::format_number(found.length(), 4));
    println!("time: {:.1} us", stats::micros(elapsed));
    Ok(())
}
