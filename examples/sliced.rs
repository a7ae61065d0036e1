//! Time-sliced path searches: each search of the arena map's scenario spread over frames,
//! at most `BUDGET` node expansions per frame, as a game keeps a path search inside a
//! frame's time. Each finished path is checked to equal the one-shot `find_path` answer
//! bit for bit; the program reports how many frames the searches took.
//!
//! Run: `cargo run --release --example sliced`

use std::error::Error;
use std::fs::File;
use std::io::BufReader;
use std::path::Path;

use navstar::io::{load_mesh_file, parse_scenario};
use navstar::{MeshOptions, PathOptions, Query, SliceStatus};

/// Node expansions per frame.
const BUDGET: u32 = 16;

fn main() -> Result<(), Box<dyn Error>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mesh = load_mesh_file(&root.join("data/arena.mesh"), &MeshOptions::default())?;
    let scenario = BufReader::new(File::open(root.join("data/arena.map.scen"))?);
    let problems = parse_scenario(scenario)?;
    let options = PathOptions::default();
    let mut query = Query::new(&mesh);
    let mut reference = Query::new(&mesh);
    let (mut frames, mut most, mut expansions) = (0u64, 0u32, 0u64);
    for problem in &problems {
        let (start, goal) = (problem.grid_start(), problem.grid_goal());
        let mut status = query.begin_path(start, goal, &options)?;
        let mut used = 0;
        // One slice per frame; between frames the game does everything else.
        while status == SliceStatus::InProgress {
            let progress = query.advance_path(BUDGET)?;
            assert!(progress.expansions <= BUDGET);
            expansions += u64::from(progress.expansions);
            status = progress.status;
            used += 1;
        }
        frames += u64::from(used);
        most = most.max(used);
        let sliced = query.finish_path()?.to_owned_path();
        let one_shot = reference.find_path_vec(start, goal, &options)?;
        if sliced != one_shot {
            return Err(format!(
                "{start} -> {goal}: the sliced path differs from the one-shot path"
            )
            .into());
        }
    }
    println!(
        "{} searches at most {BUDGET} expansions per frame: {expansions} expansions in {frames} frames \
         ({:.1} per search, at most {most}); every path equals the one-shot path",
        problems.len(),
        frames as f64 / problems.len().max(1) as f64
    );
    Ok(())
}
