//! `navstar save`: writes a mesh in navstar's binary format, which every command (and
//! the library's loaders) then reads by its `.navstar` extension, much faster than
//! building the mesh again.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::time::Instant;

use clap::Args;
use navstar::MeshOptions;
use navstar::io::{PolygonSoup, load_navstar_bytes};

use crate::common;
use crate::error::CliError;
use crate::options::MeshArgs;

/// Save a mesh file in navstar's binary format (.navstar), to load it fast
///
/// Loads MESH (any format), writes it with its derived tables to OUT, then reports the
/// time to build the mesh from its arrays and the time to load the saved bytes.
#[derive(Debug, Args)]
pub struct SaveCommand {
    /// The mesh file to convert
    #[arg(value_name = "MESH")]
    mesh: String,
    /// The file to write (conventionally with the extension .navstar)
    #[arg(value_name = "OUT")]
    out: String,
    /// Build the exact mode's fast-lane index first and save it too, so that a mesh
    /// loaded from OUT answers from it at once (no build on first use, whatever its
    /// size)
    #[arg(long)]
    fast_lane: bool,
    #[command(flatten)]
    load: MeshArgs,
}

impl SaveCommand {
    /// Runs `navstar save`.
    ///
    /// # Errors
    /// A failure if MESH cannot be loaded or OUT cannot be written.
    pub fn run(&self) -> Result<(), CliError> {
        let loaded = common::load_mesh(&self.mesh, self.load.up_axis())?;
        let mut lane_time = None;
        if self.fast_lane {
            let started = Instant::now();
            if !loaded.mesh.prepare_fast_lane() {
                return Err(CliError::failure(format!(
                    "'{}' gets no fast-lane index (it has off-mesh links, or a sweep gave up)",
                    self.mesh
                )));
            }
            let stats = loaded.mesh.fast_lane_stats();
            lane_time = Some(started.elapsed());
            println!(
                "fast-lane index built in {:.3} s: {} corners, {} labels, {} bytes",
                started.elapsed().as_secs_f64(),
                stats.map_or(0, |s| s.corners),
                stats.map_or(0, |s| s.labels),
                stats.map_or(0, |s| s.bytes),
            );
        }
        let bytes = loaded
            .mesh
            .to_bytes()
            .map_err(|e| CliError::failure(format!("cannot save '{}': {e}", self.mesh)))?;
        let write_error =
            |e: std::io::Error| CliError::failure(format!("cannot write '{}': {e}", self.out));
        let mut out = BufWriter::new(File::create(&self.out).map_err(write_error)?);
        out.write_all(&bytes).map_err(write_error)?;
        out.flush().map_err(write_error)?;
        // Building the same polygons from arrays, for comparison.
        let mesh = &loaded.mesh;
        let soup = PolygonSoup::from_mesh(mesh);
        let started = Instant::now();
        soup.into_mesh(&MeshOptions::default())
            .map_err(|e| CliError::failure(format!("the mesh does not build again: {e}")))?;
        // With the index, building means building it too.
        let build_time = started.elapsed() + lane_time.unwrap_or_default();
        let started = Instant::now();
        load_navstar_bytes(&bytes)
            .map_err(|e| CliError::failure(format!("the saved mesh does not load back: {e}")))?;
        let load_time = started.elapsed();
        println!(
            "{}: {} polygons, {} bytes\nload {}: {:.3} ms; build from arrays{}: {:.3} ms; \
             load {}: {:.3} ms ({:.1}x faster than building)",
            self.out,
            mesh.polygon_count(),
            bytes.len(),
            self.mesh,
            loaded.load_time.as_secs_f64() * 1e3,
            if self.fast_lane { " and the index" } else { "" },
            build_time.as_secs_f64() * 1e3,
            self.out,
            load_time.as_secs_f64() * 1e3,
            build_time.as_secs_f64() / load_time.as_secs_f64().max(1e-9),
        );
        Ok(())
    }
}
