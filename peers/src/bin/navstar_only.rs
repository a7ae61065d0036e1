//! navstar's default or exact mode alone on one mesh's scenario (or random pairs), for
//! load-free measurements: run it under `valgrind --tool=callgrind` to count
//! instructions per query, which the shared machines' wall-clock times cannot give.
//!
//! ```text
//! cargo run --release -p navstar-peers --bin navstar_only -- MESH [--queries N] [--whole] [--optimal]
//! ```
//!
//! `--whole` turns the default mode's search over the merged copy off
//! (`Query::set_merged_search(false)`); `--optimal` uses the exact mode. Prints the
//! number of queries, complete paths, nodes expanded in all, and the summed 2D length;
//! then how long the merged copy took to build (the first query searching it, less the
//! same query again) and how much the resident memory grew over the queries (the copy
//! and the search scratch).

#![forbid(unsafe_code)]

use std::process::ExitCode;

use navstar::{MeshOptions, PathMode, PathOptions, PathStatus, Query};
use navstar_peers::path_length_2d;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let (mut mesh_path, mut queries, mut whole, mut optimal) = (None, 1000usize, false, false);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--queries" => match args.next().and_then(|n| n.parse().ok()) {
                Some(n) => queries = n,
                None => {
                    eprintln!("--queries needs a number");
                    return ExitCode::FAILURE;
                }
            },
            "--whole" => whole = true,
            "--optimal" => optimal = true,
            _ => mesh_path = Some(arg),
        }
    }
    let Some(mesh_path) = mesh_path else {
        eprintln!("usage: navstar_only MESH [--queries N] [--whole] [--optimal]");
        return ExitCode::FAILURE;
    };
    let mesh = match navstar::io::load_mesh_file(
        std::path::Path::new(&mesh_path),
        &MeshOptions::default(),
    ) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{mesh_path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let scen = format!("{mesh_path}.scen");
    let problems = match std::fs::File::open(&scen)
        .map_err(|e| e.to_string())
        .and_then(|f| {
            navstar::io::parse_scenario(std::io::BufReader::new(f)).map_err(|e| e.to_string())
        }) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{scen}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let grid = scen.ends_with(".map.scen");
    let count = queries.min(problems.len());
    let mut options = PathOptions::default();
    if optimal {
        options.mode = PathMode::Optimal;
    }
    let mut query = Query::new(&mesh);
    query.set_merged_search(!whole);
    let (mut complete, mut expanded, mut length) = (0usize, 0u64, 0.0f64);
    let rss_before = resident_kib();
    // The first query that searches the merged copy builds it (once per mesh): its time
    // against the same query again.
    let mut copy_build = None;
    for i in 0..count {
        let t = std::time::Instant::now();
        let p = &problems[i * problems.len() / count];
        let (start, goal) = if grid {
            (p.grid_start(), p.grid_goal())
        } else {
            (p.mesh_start(), p.mesh_goal())
        };
        if let Ok(path) = query.find_path(start, goal, &options)
            && path.status == PathStatus::Complete
        {
            complete += 1;
            let corners: Vec<[f32; 3]> = path.corners.iter().map(|c| c.to_array()).collect();
            length += f64::from(path_length_2d(&mesh, &corners));
        }
        let elapsed = t.elapsed();
        expanded += query.last_search_stats().expanded;
        if copy_build.is_none() && !whole && !optimal && query.last_search_stats().searches == 2 {
            let again = std::time::Instant::now();
            let _ = query.find_path(start, goal, &options);
            copy_build = Some(elapsed.saturating_sub(again.elapsed()));
        }
    }
    if let Some(build) = copy_build {
        println!(
            "merged copy built in about {:.2} ms (first query using it, less the same query again)",
            build.as_secs_f64() * 1e3
        );
    }
    println!(
        "resident memory {:+} KiB after all queries (merged copy and scratch)",
        resident_kib() - rss_before
    );
    println!(
        "{count} queries, {complete} complete, {expanded} nodes expanded ({:.1} per query), length {length:.3}",
        expanded as f64 / count.max(1) as f64
    );
    ExitCode::SUCCESS
}

/// The process's resident memory in KiB (Linux `/proc/self/status`), 0 if unknown.
fn resident_kib() -> i64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}
