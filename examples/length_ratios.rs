//! Length ratios: how much longer the default mode's paths are than the exact mode's,
//! per scenario, with the search over the merged copy on and off, and how many search
//! nodes each expanded. Lengths and node counts do not depend on the machine's load, so
//! this measures deterministically (no times are reported).
//!
//! Run: `cargo run --release --example length_ratios -- MAP_OR_MESH SCEN [MAP_OR_MESH SCEN ...]`
//!
//! For each pair it prints, per variant (merged search on, off): the mean, 95th percentile
//! and maximum of default length / exact length over the problems whose exact length is
//! positive, the median nodes expanded, and the worst problem (index and endpoints).
//! Grid scenarios (`.map`) run between cell centres, mesh scenarios between the points
//! as written.

use std::error::Error;
use std::fs::File;
use std::io::BufReader;
use std::path::Path;

use navstar::glam::Vec3;
use navstar::io::{ScenarioProblem, load_mesh_file, parse_scenario};
use navstar::{MeshOptions, PathMode, PathOptions, Query};

/// The start and goal of `problem` (see the module documentation).
fn endpoints(problem: &ScenarioProblem) -> (Vec3, Vec3) {
    if problem.map_file_name().ends_with(".map") {
        (problem.grid_start(), problem.grid_goal())
    } else {
        (problem.mesh_start(), problem.mesh_goal())
    }
}

/// The ratios and expansions of one variant over a scenario.
#[derive(Default)]
struct Variant {
    ratios: Vec<(f64, usize)>,
    expanded: Vec<u64>,
}

impl Variant {
    fn summary(mut self, problems: &[ScenarioProblem]) -> String {
        if self.ratios.is_empty() {
            return "no problems".into();
        }
        self.ratios.sort_by(|a, b| a.0.total_cmp(&b.0));
        self.expanded.sort_unstable();
        let n = self.ratios.len();
        let mean = self.ratios.iter().map(|r| r.0).sum::<f64>() / n as f64;
        let p95 = self.ratios[((n as f64 * 0.95).ceil() as usize).clamp(1, n) - 1].0;
        let (max, worst) = self.ratios[n - 1];
        let median = self.expanded[self.expanded.len() / 2];
        let (s, g) = endpoints(&problems[worst]);
        format!(
            "mean {mean:.4} p95 {p95:.4} max {max:.4} median-expanded {median} \
             worst #{worst} [{:.1}, {:.1}] -> [{:.1}, {:.1}]",
            s.x, s.y, g.x, g.y
        )
    }
}

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() || args.len() % 2 != 0 {
        return Err("usage: length_ratios MAP_OR_MESH SCEN [MAP_OR_MESH SCEN ...]".into());
    }
    let exact = PathOptions::default().with_mode(PathMode::Optimal);
    let default = PathOptions::default();
    for pair in args.chunks(2) {
        let mesh = load_mesh_file(Path::new(&pair[0]), &MeshOptions::default())?;
        let problems = parse_scenario(BufReader::new(File::open(&pair[1])?))?;
        let mut query = Query::new(&mesh);
        let mut variants = [Variant::default(), Variant::default()];
        let mut failed = 0usize;
        for (i, problem) in problems.iter().enumerate() {
            let (start, goal) = endpoints(problem);
            query.set_merged_search(true);
            let Ok(best) = query.find_path(start, goal, &exact).map(|p| p.length()) else {
                failed += 1;
                continue;
            };
            for (variant, merged) in variants.iter_mut().zip([true, false]) {
                query.set_merged_search(merged);
                let length = query.find_path(start, goal, &default)?.length();
                variant.expanded.push(query.last_search_stats().expanded);
                if best > 0.0 {
                    variant
                        .ratios
                        .push((f64::from(length) / f64::from(best), i));
                }
            }
        }
        let name = Path::new(&pair[0])
            .file_name()
            .map_or_else(|| pair[0].clone(), |n| n.to_string_lossy().into_owned());
        println!("{name} ({} problems, {failed} failed)", problems.len());
        let [on, off] = variants;
        println!("  merged on : {}", on.summary(&problems));
        println!("  merged off: {}", off.summary(&problems));
    }
    Ok(())
}
