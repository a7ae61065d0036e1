//! navstar's default or exact mode alone on one mesh's scenario (or random pairs), for
//! load-free measurements: run it under `valgrind --tool=callgrind` to count
//! instructions per query, which the shared machines' wall-clock times cannot give.
//!
//! ```text
//! cargo run --release -p navstar-peers --bin navstar_only -- MESH [--queries N] [--whole] [--optimal] [--random SEED] [--no-landmarks] [--per-query]
//! ```
//!
//! The queries are the problems of `MESH.scen`, or with `--random SEED` (meshes without a
//! scenario) random pairs of points on one island from that seed: the `N` first pairs, so
//! runs with different `N` share their first queries.
//!
//! `--whole` turns the default mode's search over the merged copy off
//! (`Query::set_merged_search(false)`); `--optimal` uses the exact mode;
//! `--no-landmarks` turns the landmark heuristic off (`Query::set_landmarks(false)`;
//! else its table is built before the queries, timed, with its memory). Prints the
//! number of queries, complete paths, nodes expanded in all (and the median and p95 per
//! query), the median and p95 of the wall-clock time per query (noisy on a shared
//! machine), and the summed 2D length; `--per-query` also prints one line per query
//! (index, nodes expanded, microseconds, straight-line distance, path length), to see
//! which queries make the tail;
//! then how long the merged copy took to build (the first query searching it, less the
//! same query again) and how much the resident memory grew over the queries (the copy
//! and the search scratch).

#![forbid(unsafe_code)]

use std::process::ExitCode;

use navstar::glam::Vec3;
use navstar::{MeshOptions, NavMesh, PathMode, PathOptions, PathStatus, Query};
use navstar_peers::{SplitMix64, path_length_2d, random_point_in_polygon};

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let (mut mesh_path, mut queries, mut whole, mut optimal) = (None, 1000usize, false, false);
    let mut landmarks = true;
    let mut random = None;
    let mut per_query_lines = false;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--queries" => match args.next().and_then(|n| n.parse().ok()) {
                Some(n) => queries = n,
                None => {
                    eprintln!("--queries needs a number");
                    return ExitCode::FAILURE;
                }
            },
            "--random" => match args.next().and_then(|n| n.parse().ok()) {
                Some(seed) => random = Some(seed),
                None => {
                    eprintln!("--random needs a seed (a number)");
                    return ExitCode::FAILURE;
                }
            },
            "--whole" => whole = true,
            "--optimal" => optimal = true,
            "--no-landmarks" => landmarks = false,
            "--per-query" => per_query_lines = true,
            _ => mesh_path = Some(arg),
        }
    }
    let Some(mesh_path) = mesh_path else {
        eprintln!(
            "usage: navstar_only MESH [--queries N] [--whole] [--optimal] [--random SEED] [--no-landmarks] [--per-query]"
        );
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
    let pairs = match random {
        Some(seed) => random_pairs(&mesh, queries, seed),
        None => match scenario_pairs(&mesh_path, queries) {
            Ok(pairs) => pairs,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        },
    };
    let count = pairs.len();
    let options = PathOptions::default().with_mode(if optimal {
        PathMode::Optimal
    } else {
        PathMode::Funnel
    });
    let mut query = Query::new(&mesh);
    query.set_merged_search(!whole);
    query.set_landmarks(landmarks);
    if landmarks {
        let t = std::time::Instant::now();
        let built = mesh.prepare_landmarks();
        println!(
            "landmark table {}: {:.2} ms, {} bytes ({:.1} per polygon)",
            if built { "built" } else { "not built" },
            t.elapsed().as_secs_f64() * 1e3,
            mesh.landmark_bytes(),
            mesh.landmark_bytes() as f64 / f64::from(mesh.polygon_count().max(1))
        );
    }
    let (mut complete, mut expanded, mut length) = (0usize, 0u64, 0.0f64);
    let mut per_query = Vec::with_capacity(pairs.len());
    let mut micros = Vec::with_capacity(pairs.len());
    // The corridor's length in polygons: what an ideal estimate would expand.
    let mut corridors = Vec::with_capacity(pairs.len());
    let rss_before = resident_kib();
    // The first query that searches the merged copy builds it (once per mesh): its time
    // against the same query again.
    let mut copy_build = None;
    for (i, &(start, goal)) in pairs.iter().enumerate() {
        let t = std::time::Instant::now();
        let found = query.find_path(start, goal, &options);
        let elapsed = t.elapsed();
        let mut this_length = f64::NAN;
        if let Ok(path) = found
            && path.status == PathStatus::Complete
        {
            complete += 1;
            let corners: Vec<[f32; 3]> = path.corners.iter().map(|c| c.to_array()).collect();
            this_length = f64::from(path_length_2d(&mesh, &corners));
            length += this_length;
        }
        let stats = query.last_search_stats();
        expanded += stats.expanded;
        per_query.push(stats.expanded);
        micros.push(elapsed.as_secs_f64() * 1e6);
        if per_query_lines {
            let straight = path_length_2d(&mesh, &[start.to_array(), goal.to_array()]);
            println!(
                "query {i} expanded {} us {:.1} straight {straight:.2} length {this_length:.2}",
                stats.expanded,
                elapsed.as_secs_f64() * 1e6
            );
        }
        corridors.push(query.corridor().len() as u64);
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
    per_query.sort_unstable();
    let at = |q: f64| {
        per_query
            .get(((per_query.len() as f64 - 1.0) * q).round() as usize)
            .copied()
            .unwrap_or(0)
    };
    println!(
        "expanded per query: median {}, p95 {}, max {}",
        at(0.5),
        at(0.95),
        at(1.0)
    );
    micros.sort_unstable_by(f64::total_cmp);
    let at_time = |q: f64| {
        micros
            .get(((micros.len() as f64 - 1.0) * q).round() as usize)
            .copied()
            .unwrap_or(0.0)
    };
    println!(
        "microseconds per query (wall clock): median {:.1}, p95 {:.1} ({:.2}x the median)",
        at_time(0.5),
        at_time(0.95),
        at_time(0.95) / at_time(0.5).max(f64::MIN_POSITIVE)
    );
    if !optimal {
        let total: u64 = corridors.iter().sum();
        corridors.sort_unstable();
        println!(
            "corridor polygons per query: mean {:.1}, median {}, p95 {}",
            total as f64 / corridors.len().max(1) as f64,
            corridors.get(corridors.len() / 2).copied().unwrap_or(0),
            corridors
                .get(((corridors.len() as f64 - 1.0) * 0.95).round() as usize)
                .copied()
                .unwrap_or(0)
        );
    }
    ExitCode::SUCCESS
}

/// `count` problems of the scenario `MESH.scen`, spread evenly over it.
fn scenario_pairs(mesh_path: &str, count: usize) -> Result<Vec<(Vec3, Vec3)>, String> {
    let scen = format!("{mesh_path}.scen");
    let problems = std::fs::File::open(&scen)
        .map_err(|e| e.to_string())
        .and_then(|f| {
            navstar::io::parse_scenario(std::io::BufReader::new(f)).map_err(|e| e.to_string())
        })
        .map_err(|e| format!("{scen}: {e}"))?;
    let grid = scen.ends_with(".map.scen");
    let count = count.min(problems.len());
    Ok((0..count)
        .map(|i| {
            let p = &problems[i * problems.len() / count];
            if grid {
                (p.grid_start(), p.grid_goal())
            } else {
                (p.mesh_start(), p.mesh_goal())
            }
        })
        .collect())
}

/// `count` random pairs of points in polygons of one island (polygons picked uniformly),
/// from `seed`.
fn random_pairs(mesh: &NavMesh, count: usize, seed: u64) -> Vec<(Vec3, Vec3)> {
    let mut rng = SplitMix64::new(seed);
    let n = mesh.polygon_count();
    let mut pairs = Vec::with_capacity(count);
    while pairs.len() < count && n > 0 {
        let a = rng.below(n);
        let Some(b) = (0..1000)
            .map(|_| rng.below(n))
            .find(|&b| mesh.island(b) == mesh.island(a))
        else {
            continue;
        };
        let start = random_point_in_polygon(mesh, a, &mut rng);
        pairs.push((start, random_point_in_polygon(mesh, b, &mut rng)));
    }
    pairs
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
