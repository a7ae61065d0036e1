//! Throughput: navstar's path queries per second with one `Query` per thread on every
//! core, against one thread, the threads sharing one `NavMesh` (read without locks).
//! Each thread runs the workload's queries once to warm up (its own scratch grows and the
//! mesh's lazily built indexes exist afterwards), waits for the others, then runs every
//! query `passes` times, each thread from its own offset into the list so that threads
//! do not answer the same query at the same moment; the passes are as many as fill
//! at least 0.3 s on one thread. A run's rate is all its queries divided by the time
//! from the common start until the last thread ends.

use std::sync::Barrier;
use std::time::{Duration, Instant};

use navstar::{PathOptions, Query};

use crate::workload::Workload;

/// Queries per second with one thread and with `threads` threads.
pub(crate) struct Throughput {
    pub(crate) threads: usize,
    pub(crate) one: f64,
    pub(crate) all: f64,
}

impl Throughput {
    /// A row of the throughput table for mesh `name`.
    pub(crate) fn row(&self, name: &str) -> String {
        format!(
            "| {name} | {} | {:.0} | {:.0} | {:.2} |",
            self.threads,
            self.one,
            self.all,
            self.all / self.one
        )
    }
}

/// The table's header.
pub(crate) const HEADER: &str = "| mesh | threads | queries/s, one thread | queries/s, all threads | ratio |\n|---|---:|---:|---:|---:|";

/// The shortest time each run of [`rate`] lasts, so that thread start-up and the
/// scheduler's time slices on a shared machine do not decide the figure.
const MIN_RUN: Duration = Duration::from_millis(300);

/// The throughput of `options`' path queries over `w` on one thread and on every core,
/// each run at least `passes` passes over the queries and at least [`MIN_RUN`] long.
pub(crate) fn throughput(w: &Workload, options: &PathOptions, passes: usize) -> Throughput {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    // One pass timed on this thread (after a warm-up pass) sets how many passes fill
    // the shortest run.
    let mut query = Query::new(&w.mesh);
    let mut pass = || {
        let start = Instant::now();
        for q in &w.queries {
            let status = query.find_path(q.start, q.goal, options).map(|p| p.status);
            std::hint::black_box(status).ok();
        }
        start.elapsed()
    };
    pass();
    let one_pass = pass().max(Duration::from_nanos(1));
    let needed = MIN_RUN.as_nanos().div_ceil(one_pass.as_nanos());
    let passes = passes.max(usize::try_from(needed).unwrap_or(usize::MAX));
    Throughput {
        threads,
        one: rate(w, options, 1, passes),
        all: rate(w, options, threads, passes),
    }
}

/// Queries per second of `threads` threads each running the queries `passes` times.
fn rate(w: &Workload, options: &PathOptions, threads: usize, passes: usize) -> f64 {
    let n = w.queries.len();
    if n == 0 {
        return 0.0;
    }
    let ready = Barrier::new(threads + 1);
    let elapsed: Vec<Duration> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                let ready = &ready;
                scope.spawn(move || {
                    let mut query = Query::new(&w.mesh);
                    let mut answer = |i: usize| {
                        let q = w.queries[i];
                        let status = query.find_path(q.start, q.goal, options).map(|p| p.status);
                        std::hint::black_box(status).is_ok()
                    };
                    for i in 0..n {
                        answer(i);
                    }
                    ready.wait();
                    let start = Instant::now();
                    let offset = t * n / threads;
                    for _ in 0..passes {
                        for i in 0..n {
                            answer((i + offset) % n);
                        }
                    }
                    start.elapsed()
                })
            })
            .collect();
        ready.wait();
        workers
            .into_iter()
            .map(|h| h.join().expect("a throughput thread panicked"))
            .collect()
    });
    let slowest = elapsed.into_iter().max().unwrap_or_default();
    (threads * passes * n) as f64 / slowest.as_secs_f64().max(1e-9)
}
