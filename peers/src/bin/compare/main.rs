//! Side-by-side benchmark of navstar, Detour and Polyanya on the same meshes and queries.
//!
//! ```text
//! cargo run --release -p navstar-peers --bin compare -- [--queries N] [--reps R] [--seed S] [--worst K] [MESH[=SCENARIO] ...]
//! ```
//!
//! For each mesh (`.mesh`, `.obj`, `.map`, loaded with `navstar::io::load_mesh_file`) all
//! three libraries get the same polygons and the same start/goal pairs:
//!
//! * a scenario named after `=`, or `MESH.scen` when it exists. A `*.map.scen` file holds
//!   grid cells: its points are used as cell centres `(x + 0.5, y + 0.5)` and its octile
//!   lengths are not Euclidean, so Polyanya's length is the exact reference. Any other
//!   scenario (Polyanya mesh benchmarks) holds mesh points and exact Euclidean lengths,
//!   which are then the reference. At most `--queries` problems are taken, evenly spread
//!   over the file (so every length bucket is represented).
//! * otherwise `--queries` random pairs of points, uniform over the mesh area, both on
//!   the same island; Polyanya's length is the reference.
//!
//! Each library runs every query once to warm up, then `--reps` timed passes; a query's
//! time is its fastest pass (the machine is shared and noisy), measured with `Instant`
//! around the single call (point location included for all three). Lengths are measured
//! in the ground plane. A failure is no path, or a partial one. `--worst K` lists each
//! library's K queries furthest above the reference.
//!
//! navstar runs four times: the default options (`navstar`, `PathMode::Auto`: the
//! exact mode on every mesh here, which all have equal area costs and no off-mesh
//! links), the funnel mode (`navstar-funnel`, A* and the funnel), and the funnel mode
//! with its search over the merged copy turned off (`navstar-whole`,
//! `Query::set_merged_search(false)`), and the default options with the fast lane
//! off (`navstar-search`, `Query::set_fast_lane(false)`: the exact search alone; the
//! default row answers from the fast-lane index, built on first use on meshes of at
//! least `FAST_LANE_MIN_POLYGONS` polygons). Detour runs twice: on the same polygons (cut to at most 6 corners where bigger), and
//! on Recast-style merged polygons (`navstar_peers::merge`: neighbours joined while
//! convex, at most 6 corners, as `rcBuildPolyMesh` does), the row `Detour-merged`. The
//! column "expanded" gives the search nodes each query expanded (median / mean, from
//! the warm-up pass): navstar's `Query::last_search_stats().expanded`, Detour's node
//! pool count after `findPath` (every polygon it visited); Polyanya's crate reports none.
//!
//! Last, a second table gives navstar's throughput with the default options: queries
//! per second with one `Query` per thread on every core against one thread, the mesh
//! shared (`throughput.rs`; `--reps` passes over the queries).

#![forbid(unsafe_code)]

mod throughput;
mod timing;
mod workload;

use std::process::ExitCode;
use std::time::Instant;

use navstar::{PathMode, PathOptions, PathStatus, Query};
use navstar_peers::detour::{DetourMesh, DetourQuery};
use navstar_peers::merge;
use navstar_peers::polyanya::PolyanyaMesh;
use navstar_peers::{length_2d, path_length_2d};
use timing::{Answer, Run, micros, mode_comparison, percentile, run};
use workload::{Reference, Workload, default_inputs, workload};

/// A navstar query's answer: its 2D length (None unless complete) and the nodes its
/// searches expanded.
fn navstar_answer(query: &mut Query, w: &Workload, i: usize, options: &PathOptions) -> Answer {
    let q = w.queries[i];
    let length = query
        .find_path(q.start, q.goal, options)
        .ok()
        .and_then(|path| {
            (path.status == PathStatus::Complete).then(|| {
                let corners: Vec<[f32; 3]> = path.corners.iter().map(|c| c.to_array()).collect();
                f64::from(path_length_2d(&w.mesh, &corners))
            })
        });
    (length, query.last_search_stats().expanded)
}

/// A Detour query's answer: its 2D length (None = failed or partial) and the nodes of
/// its node pool after `findPath` (the polygons it visited).
fn detour_answer(dq: &mut DetourQuery<'_>, w: &Workload, i: usize) -> Answer {
    let q = w.queries[i];
    let length = dq
        .find_path(q.start.to_array(), q.goal.to_array())
        .map(|path| f64::from(path_length_2d(&w.mesh, &path)));
    (length, dq.last_node_count() as u64)
}

/// Median and mean of per-query expansions; "-" for a library that does not count them.
fn expansions(library: &str, expanded: &[u64]) -> String {
    if library == "Polyanya" || expanded.is_empty() {
        return "-".into();
    }
    let mut sorted = expanded.to_vec();
    sorted.sort_unstable();
    let mean = sorted.iter().sum::<u64>() as f64 / sorted.len() as f64;
    format!(
        "{} / {mean:.0}",
        percentile(&sorted, 0.5).expect("not empty")
    )
}

/// Detour on the mesh's polygons merged as Recast merges them (at most 6 corners, while
/// convex), with the same queries.
fn merged_detour_row(w: &Workload, n: usize, reps: usize, notes: &mut Vec<String>) -> Row {
    let library = "Detour-merged";
    let t = Instant::now();
    let merged = match merge::merged_mesh(&w.mesh, merge::MAX_MERGED_CORNERS) {
        Ok(m) => m,
        Err(e) => {
            return Row {
                library,
                note: format!("merge failed: {e}"),
                run: None,
            };
        }
    };
    let merge_time = t.elapsed();
    let detour = match DetourMesh::from_navmesh(&merged, &Default::default()) {
        Ok(d) => d,
        Err(e) => {
            return Row {
                library,
                note: format!("not built: {e}"),
                run: None,
            };
        }
    };
    let mut dq = DetourQuery::new(&detour).expect("Detour query");
    dq.half_extents = [0.5, 2.0, 0.5];
    let run = run(n, reps, |i| detour_answer(&mut dq, w, i));
    notes.push(format!(
        "{}: Detour-merged: {} polygons merged into {} in {:.1} ms ({} Detour polygons, {} tile(s))",
        w.name,
        w.mesh.polygon_count(),
        merged.polygon_count(),
        merge_time.as_secs_f64() * 1e3,
        detour.polygon_count(),
        detour.tile_count()
    ));
    Row {
        library,
        note: String::new(),
        run: Some(run),
    }
}

struct Row {
    library: &'static str,
    note: String,
    run: Option<Run>,
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let (mut max_queries, mut reps, mut seed, mut worst) = (1000usize, 3usize, 1u64, 0usize);
    let mut inputs = Vec::new();
    while let Some(arg) = args.next() {
        let mut number = |name: &str| -> Option<u64> {
            let v = args.next().and_then(|v| v.parse().ok());
            if v.is_none() {
                eprintln!("{name} needs a number");
            }
            v
        };
        match arg.as_str() {
            "--queries" => match number("--queries") {
                Some(n) if n > 0 => max_queries = n as usize,
                _ => return ExitCode::FAILURE,
            },
            "--reps" => match number("--reps") {
                Some(n) if n > 0 => reps = n as usize,
                _ => return ExitCode::FAILURE,
            },
            "--worst" => match number("--worst") {
                Some(n) => worst = n as usize,
                None => return ExitCode::FAILURE,
            },
            "--seed" => match number("--seed") {
                Some(n) => seed = n,
                None => return ExitCode::FAILURE,
            },
            "-h" | "--help" => {
                println!(
                    "usage: compare [--queries N] [--reps R] [--seed S] [--worst K] [MESH[=SCENARIO] ...]"
                );
                return ExitCode::SUCCESS;
            }
            _ => inputs.push(arg),
        }
    }
    if inputs.is_empty() {
        inputs = default_inputs();
    }

    println!(
        "Per query: fastest of {reps} timed passes after a warm-up pass. Lengths in the ground plane, relative to the reference (ref)."
    );
    println!();
    println!(
        "| mesh | polygons | queries | ref | library | median µs | p95 µs | expanded median / mean | mean len/ref | p95 len/ref | max len/ref | failures |"
    );
    println!("|---|---:|---|---|---|---:|---:|---:|---:|---:|---:|---:|");
    let mut notes = Vec::new();
    let mut throughputs = Vec::new();
    for input in &inputs {
        let w = match workload(input, max_queries, seed) {
            Ok(w) => w,
            Err(e) => {
                println!("| {input} | - | - | - | all | load failed: {e} | | | | | | |");
                continue;
            }
        };
        let n = w.queries.len();

        // navstar, default options (the exact mode here)
        let t = Instant::now();
        let mut query = Query::new(&w.mesh);
        let options = PathOptions::default();
        let navstar_build = t.elapsed();
        let navstar = run(n, reps, |i| navstar_answer(&mut query, &w, i, &options));
        // navstar, funnel mode
        let funnel_options = PathOptions::default().with_mode(PathMode::Funnel);
        let navstar_funnel = run(n, reps, |i| {
            navstar_answer(&mut query, &w, i, &funnel_options)
        });
        // navstar's funnel mode without the merged copy (the whole mesh searched).
        query.set_merged_search(false);
        let navstar_whole = run(n, reps, |i| {
            navstar_answer(&mut query, &w, i, &funnel_options)
        });
        query.set_merged_search(true);
        notes.push(mode_comparison(&w.name, &navstar_funnel, &navstar));
        // navstar's default options with the fast lane off: the exact search alone.
        query.set_fast_lane(false);
        let navstar_search = run(n, reps, |i| navstar_answer(&mut query, &w, i, &options));
        query.set_fast_lane(true);
        throughputs.push(throughput::throughput(&w, &options, reps).row(&w.name));
        notes.push(match w.mesh.fast_lane_stats() {
            Some(stats) => format!(
                "{}: fast-lane index (built on first use): {} corners, {} edges, {} labels, {} bytes ({} per polygon)",
                w.name,
                stats.corners,
                stats.edges,
                stats.labels,
                stats.bytes,
                stats.bytes / (w.mesh.polygon_count() as usize).max(1)
            ),
            None => format!("{}: no fast-lane index (too small, or over the default budget)", w.name),
        });
        let mut rows = vec![
            Row {
                library: "navstar",
                note: String::new(),
                run: Some(navstar),
            },
            Row {
                library: "navstar-funnel",
                note: String::new(),
                run: Some(navstar_funnel),
            },
            Row {
                library: "navstar-whole",
                note: String::new(),
                run: Some(navstar_whole),
            },
            Row {
                library: "navstar-search",
                note: String::new(),
                run: Some(navstar_search),
            },
        ];

        // Detour
        let t = Instant::now();
        match DetourMesh::from_navmesh(&w.mesh, &Default::default()) {
            Ok(detour) => {
                let detour_build = t.elapsed();
                let mut dq = DetourQuery::new(&detour).expect("Detour query");
                // The query points are on the mesh: a small search box is enough.
                dq.half_extents = [0.5, 2.0, 0.5];
                let run = run(n, reps, |i| detour_answer(&mut dq, &w, i));
                notes.push(format!(
                    "{}: navstar query setup {:.1} ms; Detour build {:.1} ms ({} polygons after splitting, {} tile(s), cs {}, largest vertex move {:.2e})",
                    w.name,
                    navstar_build.as_secs_f64() * 1e3,
                    detour_build.as_secs_f64() * 1e3,
                    detour.polygon_count(),
                    detour.tile_count(),
                    detour.cell_size(),
                    detour.quantisation_error()
                ));
                rows.push(Row {
                    library: "Detour",
                    note: String::new(),
                    run: Some(run),
                });
            }
            Err(e) => rows.push(Row {
                library: "Detour",
                note: format!("not built: {e}"),
                run: None,
            }),
        }

        // Detour on Recast-style merged polygons
        rows.push(merged_detour_row(&w, n, reps, &mut notes));

        // Polyanya
        let t = Instant::now();
        match PolyanyaMesh::from_navmesh(&w.mesh) {
            Ok(pm) => {
                let build = t.elapsed();
                notes.push(format!(
                    "{}: Polyanya build {:.1} ms{}",
                    w.name,
                    build.as_secs_f64() * 1e3,
                    if pm.is_flat() {
                        ""
                    } else {
                        " (with heights: points located by height)"
                    }
                ));
                let run = run(n, reps, |i| {
                    let q = w.queries[i];
                    let length =
                        pm.path(q.start.to_array(), q.goal.to_array())
                            .map(|(corners, length)| {
                                debug_assert!(
                                    (length_2d(&corners) - length).abs() < 1e-2 * length.max(1.0)
                                );
                                f64::from(length)
                            });
                    // The crate does not report its node count.
                    (length, 0)
                });
                rows.push(Row {
                    library: "Polyanya",
                    note: String::new(),
                    run: Some(run),
                });
            }
            Err(e) => rows.push(Row {
                library: "Polyanya",
                note: format!("not built: {e}"),
                run: None,
            }),
        }

        let reference: Vec<Option<f64>> = match w.reference {
            Reference::Scenario => w.queries.iter().map(|q| q.exact).collect(),
            Reference::Polyanya => rows
                .iter()
                .find(|r| r.library == "Polyanya")
                .and_then(|r| r.run.as_ref())
                .map_or(vec![None; n], |r| r.lengths.clone()),
        };
        let ref_name = match w.reference {
            Reference::Scenario => "scenario",
            Reference::Polyanya => "Polyanya",
        };
        for row in &rows {
            let Some(run) = &row.run else {
                println!(
                    "| {} | {} | {} | {ref_name} | {} | {} | | | | | | |",
                    w.name,
                    w.mesh.polygon_count(),
                    w.source,
                    row.library,
                    row.note
                );
                continue;
            };
            let mut times = run.times.clone();
            times.sort();
            let mut ratios: Vec<f64> = run
                .lengths
                .iter()
                .zip(&reference)
                .filter_map(|(l, r)| match (l, r) {
                    (Some(l), Some(r)) if *r > 1e-6 => Some(l / r),
                    _ => None,
                })
                .collect();
            ratios.sort_by(f64::total_cmp);
            let failures = run.lengths.iter().filter(|l| l.is_none()).count();
            let mean =
                (!ratios.is_empty()).then(|| ratios.iter().sum::<f64>() / ratios.len() as f64);
            let fmt_ratio = |r: Option<f64>| r.map_or("-".to_string(), |r| format!("{r:.4}"));
            println!(
                "| {} | {} | {} | {ref_name} | {} | {} | {} | {} | {} | {} | {} | {failures} |",
                w.name,
                w.mesh.polygon_count(),
                w.source,
                row.library,
                percentile(&times, 0.5).map_or("-".into(), micros),
                percentile(&times, 0.95).map_or("-".into(), micros),
                expansions(row.library, &run.expanded),
                fmt_ratio(mean),
                fmt_ratio(percentile(&ratios, 0.95)),
                fmt_ratio(ratios.last().copied()),
            );
            let is_reference = row.library == "Polyanya" && w.reference == Reference::Polyanya;
            if worst > 0 && !is_reference {
                let mut order: Vec<usize> = (0..n)
                    .filter(|&i| run.lengths[i].is_some() && reference[i].is_some())
                    .collect();
                let ratio = |i: usize| run.lengths[i].unwrap_or(0.0) / reference[i].unwrap_or(1.0);
                order.sort_by(|&a, &b| ratio(b).total_cmp(&ratio(a)));
                for &i in order.iter().take(worst) {
                    let q = w.queries[i];
                    notes.push(format!(
                        "{}: {} query {i} from {:?} to {:?}: length {:.4}, ref {:.4} (x{:.4})",
                        w.name,
                        row.library,
                        q.start.to_array(),
                        q.goal.to_array(),
                        run.lengths[i].unwrap_or(f64::NAN),
                        reference[i].unwrap_or(f64::NAN),
                        ratio(i)
                    ));
                }
            }
            if row.library == "Polyanya" {
                let bounded: Vec<(f64, f64)> = run
                    .lengths
                    .iter()
                    .zip(&w.queries)
                    .filter_map(|(l, q)| Some(((*l)?, q.octile?)))
                    .collect();
                if !bounded.is_empty() {
                    let within = bounded.iter().filter(|(l, o)| *l <= o + 1e-3).count();
                    notes.push(format!(
                        "{}: Polyanya's length is at most the octile length in {within} of {} queries",
                        w.name,
                        bounded.len()
                    ));
                }
            }
            // Below the reference by more than rounding: worth a look.
            let shorter = ratios.iter().filter(|&&r| r < 1.0 - 1e-4).count();
            if shorter > 0 {
                notes.push(format!(
                    "{}: {} of {}'s lengths are more than 1e-4 below the reference (min ratio {:.6})",
                    w.name, shorter, row.library, ratios[0]
                ));
            }
        }
    }
    println!();
    for note in notes {
        println!("- {note}");
    }
    println!();
    println!(
        "Throughput of navstar's default options, one query per thread on every core against one thread:"
    );
    println!();
    println!("{}", throughput::HEADER);
    for row in throughputs {
        println!("{row}");
    }
    ExitCode::SUCCESS
}
