//! `navstar info`: what a mesh file holds, and whether it is valid.
//!
//! Loading validates the mesh (convex polygons, consistent shared edges, ...): a rejected
//! mesh is reported with the loader's error, which names the line or polygon, and exit
//! code 1. For an accepted mesh the report adds the non-fatal findings: unused vertices,
//! polygons of (almost) no area, islands of one polygon.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use navstar::NavMesh;

use clap::Args;

use crate::common::{self, LoadedMesh, format_number, format_point};
use crate::error::CliError;
use crate::options::MeshArgs;
use crate::stats;

/// Describe and validate a mesh file: format, counts, bounds, polygon and island
/// statistics
///
/// Prints the format, vertex/polygon/island counts, the bounding box, a histogram of
/// polygon sizes, island sizes and a validation report. Loading validates the mesh; a
/// rejected mesh is reported with the line or polygon at fault and exit code 1.
#[derive(Debug, Args)]
pub struct InfoCommand {
    /// The mesh file
    #[arg(value_name = "MESH")]
    mesh: String,
    /// Also build the mesh's eroded copy for an agent of radius R (world units, > 0)
    /// and report its size, memory and build time
    #[arg(long, value_name = "R")]
    radius: Option<f32>,
    #[command(flatten)]
    load: MeshArgs,
}

impl InfoCommand {
    /// Runs `navstar info`.
    ///
    /// # Errors
    /// A usage error for an unknown extension; a failure if the file cannot be loaded
    /// (the message names it).
    pub fn run(&self) -> Result<(), CliError> {
        let loaded = common::load_mesh(&self.mesh, self.load.up_axis())?;
        print!("{}", report(&self.mesh, &loaded));
        if let Some(radius) = self.radius {
            if !(radius.is_finite() && radius > 0.0) {
                return Err(CliError::usage(format!(
                    "--radius is {radius}; it must be finite and > 0"
                )));
            }
            let mesh = &loaded.mesh;
            let clock = std::time::Instant::now();
            let region = mesh
                .agent_region(radius, None)
                .map_err(|e| CliError::failure(format!("{}: {e}", self.mesh)))?;
            let built = clock.elapsed();
            if let Some(region) = region {
                println!(
                    "radius {radius}: eroded copy of {} polygons, {} vertices, {} islands, {} bytes, built in {:.2} ms",
                    region.polygon_count(),
                    region.vertex_count(),
                    region.island_count(),
                    mesh.eroded_bytes(),
                    built.as_secs_f64() * 1e3
                );
            }
        }
        Ok(())
    }
}

/// The full report on a loaded mesh.
fn report(path: &str, loaded: &LoadedMesh) -> String {
    let mesh = &loaded.mesh;
    let mut out = String::new();
    let bounds = mesh.bounds();
    let size = bounds.max - bounds.min;
    let _ = writeln!(out, "file:       {path}");
    let _ = writeln!(
        out,
        "format:     {} ({}-up)",
        common::format_name(loaded.format),
        common::axis_name(mesh.up_axis())
    );
    let _ = writeln!(
        out,
        "loaded in:  {:.2} ms",
        loaded.load_time.as_secs_f64() * 1e3
    );
    let _ = writeln!(out, "vertices:   {}", mesh.vertex_count());
    let _ = writeln!(out, "polygons:   {}", mesh.polygon_count());
    let _ = writeln!(out, "islands:    {}", mesh.island_count());
    let _ = match mesh.fast_lane_stats() {
        Some(lane) => writeln!(
            out,
            "fast lane:  loaded with the file ({} corners, {} labels, {} bytes)",
            lane.corners, lane.labels, lane.bytes
        ),
        None => writeln!(out, "fast lane:  none yet (built on request or first use)"),
    };
    let _ = writeln!(out, "bounds:     min {}", format_point(bounds.min));
    let _ = writeln!(out, "            max {}", format_point(bounds.max));
    let _ = writeln!(out, "            size {}", format_point(size));
    let edges = edge_counts(mesh);
    let areas: Vec<f64> = (0..mesh.polygon_count())
        .map(|p| common::polygon_area(mesh, p))
        .collect();
    let total_area: f64 = areas.iter().sum();
    let _ = writeln!(out, "area:       {total_area:.4} (ground plane)");
    let _ = writeln!(
        out,
        "edges:      {} shared (portals), {} boundary (walls)",
        edges.shared, edges.boundary
    );
    out.push('\n');
    out.push_str(&size_histogram(mesh));
    out.push('\n');
    out.push_str(&island_report(mesh));
    out.push('\n');
    out.push_str(&validation(mesh, &areas, total_area));
    out
}

/// Edge counts: each shared edge once, each wall once.
struct EdgeCounts {
    shared: u64,
    boundary: u64,
}

fn edge_counts(mesh: &NavMesh) -> EdgeCounts {
    let mut counts = EdgeCounts {
        shared: 0,
        boundary: 0,
    };
    for p in 0..mesh.polygon_count() {
        for n in mesh.polygon_neighbours(p) {
            match n {
                None => counts.boundary += 1,
                Some(n) if n > p => counts.shared += 1,
                Some(_) => {}
            }
        }
    }
    counts
}

/// How many polygons have each number of corners, with bars.
fn size_histogram(mesh: &NavMesh) -> String {
    let mut sizes: BTreeMap<usize, u64> = BTreeMap::new();
    for p in 0..mesh.polygon_count() {
        *sizes.entry(mesh.polygon_vertices(p).len()).or_default() += 1;
    }
    let most = sizes.values().copied().max().unwrap_or(1).max(1);
    let total = u64::from(mesh.polygon_count()).max(1);
    let mut out = String::from("polygon sizes (corners: polygons):\n");
    for (corners, count) in sizes {
        let bar = "#".repeat(((count * 40).div_ceil(most)) as usize);
        let share = 100.0 * count as f64 / total as f64;
        let _ = writeln!(out, "  {corners:>4}: {count:>8} {share:>5.1}%  {bar}");
    }
    out
}

/// Island count and size statistics (in polygons).
fn island_report(mesh: &NavMesh) -> String {
    let mut polygons = vec![0u64; mesh.island_count() as usize];
    for p in 0..mesh.polygon_count() {
        polygons[mesh.island(p) as usize] += 1;
    }
    let mut sizes = polygons.clone();
    sizes.sort_unstable();
    let mut out = format!("islands ({}), in polygons:\n", sizes.len());
    if let (Some(&smallest), Some(&largest)) = (sizes.first(), sizes.last()) {
        let as_f64: Vec<f64> = sizes.iter().map(|&s| s as f64).collect();
        let total = u64::from(mesh.polygon_count()).max(1);
        let _ = writeln!(
            out,
            "  largest {largest} ({:.1}% of all polygons), smallest {smallest}, median {}, mean {:.1}",
            100.0 * largest as f64 / total as f64,
            format_number(stats::median(&as_f64) as f32, 1),
            stats::mean(&as_f64)
        );
        let singles = sizes.iter().filter(|&&s| s == 1).count();
        if sizes.len() > 1 {
            let _ = writeln!(out, "  islands of a single polygon: {singles}");
        }
    }
    out
}

/// The validation report: what loading checked, and non-fatal findings.
fn validation(mesh: &NavMesh, areas: &[f64], total_area: f64) -> String {
    let mut out = String::from("validation:\n");
    out.push_str(
        "  ok: loaded and accepted (convex polygons, no repeated or zero-length edges,\n      \
         each edge shared by at most two polygons, no folds)\n",
    );
    let mut warnings = Vec::new();
    let mut used = vec![false; mesh.vertex_count() as usize];
    for p in 0..mesh.polygon_count() {
        for &v in mesh.polygon_vertices(p) {
            used[v as usize] = true;
        }
    }
    let unused = used.iter().filter(|&&u| !u).count();
    if unused > 0 {
        warnings.push(format!(
            "{unused} vertices are used by no polygon (unreferenced, or merged by welding)"
        ));
    }
    let tiny_limit = total_area * 1e-9;
    let tiny: Vec<usize> = (0..areas.len())
        .filter(|&p| areas[p] <= tiny_limit)
        .collect();
    if let Some(&first) = tiny.first() {
        warnings.push(format!(
            "{} polygons have almost no area (first: polygon {first}, area {:e})",
            tiny.len(),
            areas[first]
        ));
    }
    if warnings.is_empty() {
        out.push_str("  no warnings\n");
    }
    for warning in warnings {
        let _ = writeln!(out, "  warning: {warning}");
    }
    out
}
