//! The fast lane (`NavMesh::prepare_fast_lane`) against the exact search on one map's
//! scenarios, in the exact mode: build time, index sizes, and per query the time with
//! and without the index, interleaved in one run (each problem timed on both sides in
//! turn, alternating which goes first, over several passes; the fastest pass per problem
//! and side counts), with the two lengths checked equal.
//!
//! Run: `cargo run --release --example fast_lane -- MAP SCEN [COUNT [PASSES]]` (all
//! problems, 5 passes by default). For instruction counts, one side only, once per
//! problem: `valgrind --tool=callgrind --toggle-collect='*find_path*'
//! target/release/examples/fast_lane MAP SCEN COUNT on|off`.

#[path = "shared/scenario.rs"]
mod scenario;

use std::error::Error;
use std::time::Instant;

use navstar::{PathMode, PathOptions, PathStatus, Query};

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "MAP SCEN [COUNT [PASSES | on | off]]";
    let [map, scen, rest @ ..] = args.as_slice() else {
        return Err(usage.into());
    };
    let count: usize = rest.first().map_or(Ok(usize::MAX), |s| s.parse())?;
    let (mesh, pairs) = scenario::load(map, scen, count)?;
    mesh.prepare_landmarks();
    let options = PathOptions::default().with_mode(PathMode::Optimal);
    let up = mesh.up_axis();
    let started = Instant::now();
    if !mesh.prepare_fast_lane() {
        return Err("no fast-lane index for this mesh".into());
    }
    let build = started.elapsed();
    let stats = mesh.fast_lane_stats().ok_or("no stats")?;
    let mut on = Query::new(&mesh);
    on.set_landmarks(true);
    let mut off = Query::new(&mesh);
    off.set_landmarks(true);
    off.set_fast_lane(false);
    if let Some(side) = rest.get(1).filter(|s| *s == "on" || *s == "off") {
        let query = if side == "on" { &mut on } else { &mut off };
        let mut total = 0.0;
        for &(s, t) in &pairs {
            if let Ok(path) = query.find_path(s, t, &options)
                && path.status == PathStatus::Complete
            {
                total += scenario::length(up, path.corners);
            }
        }
        println!("{side}: {} queries, summed length {total:.3}", pairs.len());
        return Ok(());
    }
    let passes: usize = rest.get(1).map_or(Ok(5), |s| s.parse())?;
    println!(
        "{map}: {} polygons; index built in {:.3} s: {} corners, {} graph edges, {} labels \
         ({:.1} per corner), {} bytes ({:.0} per polygon)",
        mesh.polygon_count(),
        build.as_secs_f64(),
        stats.corners,
        stats.edges,
        stats.labels,
        stats.labels as f64 / stats.corners.max(1) as f64,
        stats.bytes,
        stats.bytes as f64 / f64::from(mesh.polygon_count())
    );
    let n = pairs.len();
    let mut best = [vec![f64::INFINITY; n], vec![f64::INFINITY; n]];
    let mut lengths = [vec![0.0; n], vec![0.0; n]];
    let (mut seen, mut answered) = ((0usize, 0usize), 0usize);
    for pass in 0..passes {
        for (i, &(s, t)) in pairs.iter().enumerate() {
            for k in 0..2 {
                let side = (k + i + pass) % 2;
                let query = if side == 0 { &mut on } else { &mut off };
                let (took, length) = scenario::timed(query, s, t, &options);
                best[side][i] = best[side][i].min(took);
                lengths[side][i] = length;
            }
            if pass == 0
                && let Some((a, b)) = on.fast_lane_corners_seen()
            {
                seen = (seen.0 + a, seen.1 + b);
                answered += 1;
            }
        }
    }
    let mut worst = 0.0f64;
    let mut differ = 0;
    for (i, (&a, &b)) in lengths[0].iter().zip(&lengths[1]).enumerate() {
        let gap = if a.is_nan() && b.is_nan() {
            0.0
        } else {
            (a - b).abs() / b.max(1e-9)
        };
        if gap.is_nan() || gap > 1e-5 {
            if differ < 8 {
                println!("differs: problem {i}: indexed {a:.4}, exact search {b:.4}");
            }
            differ += 1;
        }
        worst = worst.max(if gap.is_nan() { f64::INFINITY } else { gap });
    }
    let [indexed, searched] = &mut best;
    for (name, times) in [("indexed", indexed), ("exact search", searched)] {
        times.sort_by(f64::total_cmp);
        println!(
            "{name}: median {:.1} us, p95 {:.1} us, mean {:.1} us",
            scenario::quantile(times, 0.5),
            scenario::quantile(times, 0.95),
            times.iter().sum::<f64>() / n as f64
        );
    }
    println!(
        "{n} queries, {passes} passes; lengths differ (> 1e-5 relative) on {differ}, largest \
         relative gap {worst:.2e}; corners taken per query (over the queries the index \
         answered): {:.1} from the start, {:.1} from the goal",
        seen.0 as f64 / answered.max(1) as f64,
        seen.1 as f64 / answered.max(1) as f64
    );
    Ok(())
}
