//! Timing the libraries: each query's fastest pass, percentiles, and the comparison of
//! navstar's two path modes.

use std::time::{Duration, Instant};

/// One library's answers: per query, the fastest time, the 2D length (None = failed)
/// and the search nodes it expanded.
pub(crate) struct Run {
    pub(crate) times: Vec<Duration>,
    pub(crate) lengths: Vec<Option<f64>>,
    pub(crate) expanded: Vec<u64>,
}

/// What one call answers: the 2D length (None = failed), and the search nodes expanded.
pub(crate) type Answer = (Option<f64>, u64);

pub(crate) fn run(queries: usize, reps: usize, mut call: impl FnMut(usize) -> Answer) -> Run {
    let mut lengths = Vec::with_capacity(queries);
    let mut expanded = Vec::with_capacity(queries);
    for i in 0..queries {
        let (length, nodes) = call(i);
        lengths.push(length);
        expanded.push(nodes);
    }
    let mut times = vec![Duration::MAX; queries];
    for _ in 0..reps {
        for (i, best) in times.iter_mut().enumerate() {
            let t = Instant::now();
            let answer = call(i);
            let elapsed = t.elapsed();
            std::hint::black_box(answer);
            *best = (*best).min(elapsed);
        }
    }
    Run {
        times,
        lengths,
        expanded,
    }
}

pub(crate) fn percentile<T: Copy + PartialOrd>(sorted: &[T], q: f64) -> Option<T> {
    if sorted.is_empty() {
        return None;
    }
    let i = ((sorted.len() - 1) as f64 * q).round() as usize;
    Some(sorted[i])
}

pub(crate) fn micros(d: Duration) -> String {
    let us = d.as_secs_f64() * 1e6;
    if us < 10.0 {
        format!("{us:.2}")
    } else if us < 100.0 {
        format!("{us:.1}")
    } else {
        format!("{us:.0}")
    }
}

/// How much longer the default mode's paths are than the optimal mode's, and how much
/// more time the optimal mode takes (median per query).
pub(crate) fn mode_comparison(name: &str, funnel: &Run, optimal: &Run) -> String {
    let mut ratios: Vec<f64> = funnel
        .lengths
        .iter()
        .zip(&optimal.lengths)
        .filter_map(|(f, o)| match (f, o) {
            (Some(f), Some(o)) if *o > 1e-6 => Some(f / o),
            _ => None,
        })
        .collect();
    ratios.sort_by(f64::total_cmp);
    let mean = ratios.iter().sum::<f64>() / ratios.len().max(1) as f64;
    let median = |run: &Run| {
        let mut t = run.times.clone();
        t.sort();
        percentile(&t, 0.5).map_or(f64::NAN, |d| d.as_secs_f64())
    };
    let longer = ratios.iter().filter(|&&r| r > 1.0 + 1e-5).count();
    format!(
        "{name}: funnel/optimal length ratio mean {mean:.5}, p95 {:.5}, max {:.5} ({longer} of {} paths longer); median time optimal/funnel {:.2}",
        percentile(&ratios, 0.95).unwrap_or(f64::NAN),
        ratios.last().copied().unwrap_or(f64::NAN),
        ratios.len(),
        median(optimal) / median(funnel)
    )
}
