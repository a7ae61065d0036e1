//! Agents on a real map: 50 agents walk to random targets of `data/arena.mesh` along
//! their path corridors (`PathCorridor`, a move along the surface each frame) while a few
//! doors in narrow passages close and open, for 300 frames. Every frame checks that each
//! agent stays on an open polygon and that agents with a path arrive.
//!
//! This is the simulation of `navstar simulate` (which also draws the trails as SVG):
//! the two source files are the command's own, included here, so both run the same code.
//!
//! Run: `cargo run --release --example simulate`

#[path = "../src/bin/navstar/simulate/doors.rs"]
mod doors;
#[path = "../src/bin/navstar/simulate/engine.rs"]
mod engine;
#[path = "../src/bin/navstar/simulate/planner.rs"]
mod planner;

use std::error::Error;
use std::path::Path;

use navstar::io::load_mesh_file;
use navstar::{MeshOptions, QueryFilter};

fn main() -> Result<(), Box<dyn Error>> {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/arena.mesh");
    let mesh = load_mesh_file(&file, &MeshOptions::default())?;
    let settings = engine::Settings {
        agents: 50,
        steps: 300,
        step_length: 0.5,
        seed: 7,
        doors: 8,
        door_period: 40,
        keep_trails: true,
        plan_budget: None,
    };
    // A failed check is an error naming the frame and the agent.
    let report = engine::run(&mesh, &settings)?;
    let mut steps = report.agent_micros.clone();
    steps.sort_by(f64::total_cmp);
    let median = steps[steps.len() / 2];
    let mut frames = report.frame_micros.clone();
    frames.sort_by(f64::total_cmp);
    println!(
        "{} agents, {} frames on {} polygons: checks passed",
        settings.agents,
        settings.steps,
        mesh.polygon_count()
    );
    println!(
        "arrivals {}, cut off by closed doors {}, paths planned {} ({} corridors repaired after a door closed ahead)",
        report.arrivals, report.cut_offs, report.plans, report.replans
    );
    println!(
        "doors {:?}, opened or closed {} times",
        report.doors, report.door_changes
    );
    println!(
        "median frame {:.1} us, median agent step {median:.2} us",
        frames[frames.len() / 2]
    );
    // Every agent walked 300 frames of at most 0.5 each, and got somewhere.
    assert_eq!(report.trails.len(), 50);
    assert!(report.trails.iter().all(|t| t.len() == 301));
    assert!(report.arrivals > 0);
    assert!(report.walked > 0.0 && report.walked <= 50.0 * 300.0 * 0.5 + 1e-3);
    // The doors are open again: the mesh's flags are as they were.
    let filter = QueryFilter::default();
    assert!(
        report
            .doors
            .iter()
            .all(|&d| filter.admits(mesh.polygon_flags(d)))
    );
    Ok(())
}
