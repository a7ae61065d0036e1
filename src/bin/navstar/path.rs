//! `navstar path`: one path query, printed as status, corners and length.

use std::time::Instant;

use navstar::Query;

use clap::Args;

use crate::common::{self, format_point};
use crate::error::CliError;
use crate::options::{PathArgs, PointArg};
use crate::stats;
use crate::tiles;

/// Find a path and print its corners and length
///
/// Points are world coordinates. Two numbers X,Y mean the ground point (X, Y, 0) of a
/// Z-up mesh (.mesh and .map files, or an OBJ loaded with --up z); a Y-up mesh (an OBJ,
/// by default) needs X,Y,Z with Y the height. Both points are snapped to the nearest
/// point of the mesh first.
///
/// Output: 'status: complete' or 'status: partial' (goal unreachable; the path ends at
/// the reachable point closest to it), one corner per line as 'x y z', and the length.
#[derive(Debug, Args)]
pub struct PathCommand {
    /// The mesh file
    #[arg(value_name = "MESH")]
    mesh: String,
    /// Start point
    #[arg(long, value_name = "X,Y[,Z]", allow_hyphen_values = true)]
    from: PointArg,
    /// Goal point
    #[arg(long, value_name = "X,Y[,Z]", allow_hyphen_values = true)]
    to: PointArg,
    #[command(flatten)]
    path: PathArgs,
}

impl PathCommand {
    /// Runs `navstar path`.
    ///
    /// # Errors
    /// A usage error for points that do not fit the mesh; a failure if the mesh cannot be
    /// loaded or the query fails (point too far from the mesh, goal unreachable with
    /// `--no-partial`).
    pub fn run(&self) -> Result<(), CliError> {
        let path = &self.mesh;
        let options = self.path.options();
        let loaded = tiles::load_path_mesh(path, &self.path)?;
        let mesh_up = loaded.mesh.up_axis();
        let start = self.from.on_mesh("--from", mesh_up)?;
        let goal = self.to.on_mesh("--to", mesh_up)?;
        let mut query = Query::new(&loaded.mesh);
        let started = Instant::now();
        let found = query
            .find_path(start, goal, &options)
            .map_err(|e| CliError::failure(format!("{path}: path query failed: {e}")))?;
        let elapsed = started.elapsed();
        println!("status: {}", common::status_name(found.status));
        println!("corners: {}", found.corners.len());
        for &corner in found.corners {
            println!("  {}", format_point(corner));
        }
        println!("length: {}", common::format_number(found.length(), 4));
        println!("time: {:.1} us", stats::micros(elapsed));
        if let Some(tiling) = &loaded.tiling {
            println!("tiles: {}", tiling.describe());
        }
        Ok(())
    }
}
