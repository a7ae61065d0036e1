//! `navstar simulate`: agents walking to random targets along their path corridors while
//! doors close and open, with the time per frame and per agent and checks every frame.
//!
//! The simulation lives in [`engine`] and [`doors`], which use nothing but `navstar`:
//! `examples/simulate.rs` includes those two files with `#[path]`, so the command and
//! the example run the same code without adding a simulation to the library's public
//! API (it is a demonstration and a check of the agent queries, not a crowd module).

pub mod doors;
pub mod engine;
pub mod planner;
#[cfg(test)]
mod test_meshes;

use clap::Args;
use clap::builder::RangedU64ValueParser;
use navstar::UpAxis;

use crate::common::{self, format_number};
use crate::error::CliError;
use crate::options::MeshArgs;
use crate::stats;
use crate::svg::picture::{EdgeDetail, Picture};
use engine::Settings;

/// Simulate agents walking to random targets while doors close and open
///
/// Places N agents at random points of the mesh. Each frame every agent without a target
/// draws a random point and plans a path to it, follows the path's corridor one step
/// towards its next corner (a move along the surface), and repairs the corridor when a
/// polygon ahead has closed (a search from the last open polygon before it only). A few polygons of narrow passages (chosen from the seed) are doors:
/// each closes for --door-period frames, then opens for as many, but only closes when
/// nobody stands in it.
///
/// Every frame it checks that each agent stands on an open polygon of the mesh, that its
/// move walked through open polygons only, and that an agent with a path arrives within
/// twice the frames the path needs; a failed check fails the command, naming the frame
/// and the agent. It prints the time per frame and per agent step (median and p95), the
/// arrivals, and the targets given up because closed doors cut them off.
#[derive(Debug, Args)]
pub struct SimulateCommand {
    /// The mesh file
    #[arg(value_name = "MESH")]
    mesh: String,
    /// Number of agents (1 to 1000000)
    #[arg(long, value_name = "N", default_value_t = 100,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=1_000_000))]
    agents: usize,
    /// Number of frames (1 to 1000000)
    #[arg(long, value_name = "S", default_value_t = 200,
          value_parser = RangedU64ValueParser::<u32>::new().range(1..=1_000_000))]
    steps: u32,
    /// Distance an agent walks per frame, in world units (positive)
    #[arg(
        long,
        value_name = "L",
        default_value_t = 0.5,
        allow_hyphen_values = true
    )]
    step_length: f32,
    /// Seed of the agents' places and targets and of the doors
    #[arg(long, value_name = "X", default_value_t = 1)]
    seed: u64,
    /// Number of doors (0 to 10000)
    #[arg(long, value_name = "D", default_value_t = 8,
          value_parser = RangedU64ValueParser::<usize>::new().range(0..=10_000))]
    doors: usize,
    /// Frames a door stays open, then closed (1 to 1000000)
    #[arg(long, value_name = "F", default_value_t = 40,
          value_parser = RangedU64ValueParser::<u32>::new().range(1..=1_000_000))]
    door_period: u32,
    /// Plan new paths by time-sliced searches that spend at most N node expansions per
    /// frame in all (agents wait, standing, for theirs), instead of each path searched
    /// whole when asked for (1 to 100000000)
    #[arg(long, value_name = "N", allow_hyphen_values = true,
          value_parser = RangedU64ValueParser::<u32>::new().range(1..=100_000_000))]
    plan_budget: Option<u32>,
    /// Write an SVG picture of the agents' trails and the doors
    #[arg(long, value_name = "OUT.svg")]
    svg: Option<String>,
    #[command(flatten)]
    load: MeshArgs,
}

impl SimulateCommand {
    /// Runs `navstar simulate`.
    ///
    /// # Errors
    /// A usage error for a step length that is not positive and finite; a failure if the
    /// mesh cannot be loaded, a check fails, or the picture cannot be written.
    pub fn run(&self) -> Result<(), CliError> {
        if !(self.step_length.is_finite() && self.step_length > 0.0) {
            return Err(CliError::usage(format!(
                "invalid value '{}' for '--step-length <L>': must be positive and finite",
                self.step_length
            )));
        }
        let path = &self.mesh;
        let loaded = common::load_mesh(path, self.load.up_axis())?;
        let mesh = &loaded.mesh;
        let settings = Settings {
            agents: self.agents,
            steps: self.steps,
            step_length: self.step_length,
            seed: self.seed,
            doors: self.doors,
            door_period: self.door_period,
            keep_trails: self.svg.is_some(),
            plan_budget: self.plan_budget,
        };
        let report = engine::run(mesh, &settings)
            .map_err(|e| CliError::failure(format!("{path}: check failed: {e}")))?;
        let mut frames = report.frame_micros.clone();
        frames.sort_by(f64::total_cmp);
        let mut steps = report.agent_micros.clone();
        steps.sort_by(f64::total_cmp);
        println!("mesh:         {path} ({} polygons)", mesh.polygon_count());
        println!(
            "agents:       {} for {} frames, {} per frame",
            self.agents,
            self.steps,
            format_number(self.step_length, 4)
        );
        println!(
            "doors:        {} (open and closed every {} frames)",
            report.doors.len(),
            self.door_period
        );
        println!("door changes: {}", report.door_changes);
        println!("checks:       passed");
        println!("arrivals:     {}", report.arrivals);
        println!("cut off:      {}", report.cut_offs);
        println!(
            "plans:        {} ({} corridors repaired after a door closed ahead)",
            report.plans, report.replans
        );
        println!("walked:       {}", format_number(report.walked as f32, 1));
        if let Some(budget) = self.plan_budget {
            let mut spent: Vec<f64> = report.plan_spent.iter().map(|&n| f64::from(n)).collect();
            spent.sort_by(f64::total_cmp);
            let mut waits: Vec<f64> = report.plan_waits.iter().map(|&n| f64::from(n)).collect();
            waits.sort_by(f64::total_cmp);
            println!(
                "planning:     at most {budget} expansions per frame: spent median {}, max {}; \
                 {} paths answered, waited median {} frames, p95 {}; {} unanswered at the end",
                stats::median(&spent),
                spent.last().copied().unwrap_or(0.0),
                waits.len(),
                stats::median(&waits),
                stats::quantile(&waits, 0.95),
                report.plan_unanswered
            );
        }
        println!(
            "frame time:   median {:.1} us, p95 {:.1} us",
            stats::median(&frames),
            stats::quantile(&frames, 0.95)
        );
        println!(
            "agent time:   median {:.2} us, p95 {:.2} us, mean {:.2} us",
            stats::median(&steps),
            stats::quantile(&steps, 0.95),
            stats::mean(&steps)
        );
        if let Some(out) = &self.svg {
            let y_up = mesh.up_axis() == UpAxis::Z;
            let picture = Picture::new(mesh, 800, y_up, EdgeDetail::Auto)
                .with_trails(&report.trails)
                .with_doors(&report.doors);
            let svg = picture.render(path, None);
            std::fs::write(out, &svg)
                .map_err(|e| CliError::failure(format!("cannot write '{out}': {e}")))?;
            println!("wrote {out} ({} bytes)", svg.len());
        }
        Ok(())
    }
}
