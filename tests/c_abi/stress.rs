//! Concurrency stress through the C ABI: 8 threads query one shared mesh (the bundled
//! Polyanya arena, `data/arena.mesh`) for about 3 seconds, each with its own query
//! object and in its own order, while the mesh handle is freed under them (each query
//! holds its own reference) and another thread creates, uses and frees meshes and
//! queries in a loop (valid and rejected input, polygon meshes and tile grids).
//!
//! Every answer is compared bit for bit with the single-threaded answer to the same
//! query, computed before the threads start. Every handle is released through its
//! `*_free` function, so a leak in the library shows up under LeakSanitizer or valgrind
//! (the test itself keeps all create/free pairs).
//!
//! A second test flips polygon flags (closing and opening a tenth of the polygons)
//! through the C ABI while four threads query: no query fails in a way the flags cannot
//! explain, and once the flips stop every answer is again the single-threaded one.

use std::ptr::{self, NonNull};
use std::sync::Barrier;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use glam::Vec3;
use navstar::ffi::{
    NAVSTAR_UP_Z, NavstarMesh, NavstarMeshOptions, NavstarPathOptions, NavstarQuery, NavstarStatus,
    navstar_find_path, navstar_mesh_create, navstar_mesh_create_from_grid, navstar_mesh_free,
    navstar_mesh_options_default, navstar_mesh_set_polygon_flags, navstar_path_options_default,
    navstar_query_create, navstar_query_free,
};
use navstar::io::{PolygonSoup, parse_polyanya_mesh_bytes};
use navstar::{MeshOptions, NavMesh};

use crate::common::{Rng, point_in_polygon};

use crate::last_error;

const QUERY_THREADS: u64 = 8;
const DURATION: Duration = Duration::from_secs(3);
/// Room for the longest path of the work list (checked single-threaded first).
const CAPACITY: usize = 256;

/// A mesh handle that may be shared between threads (API.md: "a `NavstarMesh` may be
/// shared by any number of threads").
#[derive(Clone, Copy)]
struct SharedMesh(*mut NavstarMesh);
// SAFETY: the C ABI allows any number of threads to use one mesh at once; only shared
// operations (navstar_query_create) are done through this handle until it is freed once.
unsafe impl Send for SharedMesh {}
// SAFETY: as above.
unsafe impl Sync for SharedMesh {}

impl SharedMesh {
    /// The handle (a method, so that closures capture the whole `Send` wrapper).
    fn get(self) -> *mut NavstarMesh {
        self.0
    }
}

/// An owned query, used by one thread at a time, freed on drop.
struct CQuery(*mut NavstarQuery);

impl Drop for CQuery {
    fn drop(&mut self) {
        // SAFETY: NULL or a live query from navstar_query_create, freed only here.
        unsafe { navstar_query_free(self.0) }
    }
}

/// The arena mesh as C arrays.
struct Arrays {
    floats: Vec<f32>,
    indices: Vec<u32>,
    sizes: Vec<u32>,
}

fn arena_soup() -> PolygonSoup {
    let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/data/arena.mesh"))
        .expect("data/arena.mesh");
    parse_polyanya_mesh_bytes(&bytes).expect("data/arena.mesh parses")
}

fn arrays(soup: &PolygonSoup) -> Arrays {
    Arrays {
        floats: soup.vertices.iter().flat_map(|v| v.to_array()).collect(),
        indices: soup.indices.clone(),
        sizes: soup.polygon_sizes.clone(),
    }
}

fn z_up() -> NavstarMeshOptions {
    NavstarMeshOptions {
        up_axis: NAVSTAR_UP_Z,
        ..navstar_mesh_options_default()
    }
}

/// Creates a mesh from the arrays; NULL with the status on failure.
fn create(a: &Arrays, options: &NavstarMeshOptions) -> (NavstarStatus, *mut NavstarMesh) {
    let mut out: *mut NavstarMesh = NonNull::dangling().as_ptr();
    // SAFETY: the slices hold exactly what the counts say; options is a full struct.
    let status = unsafe {
        navstar_mesh_create(
            a.floats.as_ptr(),
            (a.floats.len() / 3) as u32,
            a.indices.as_ptr(),
            a.sizes.as_ptr(),
            a.sizes.len() as u32,
            options,
            &mut out,
        )
    };
    (status, out)
}

fn query_for(mesh: *const NavstarMesh) -> CQuery {
    let mut out = ptr::null_mut();
    // SAFETY: `mesh` is a live mesh; `out` is writable.
    let status = unsafe { navstar_query_create(mesh, &mut out) };
    assert_eq!(status, NavstarStatus::NavstarOk, "{}", last_error());
    CQuery(out)
}

/// One query of the work list.
#[derive(Debug, Clone)]
struct Work {
    start: [f32; 3],
    goal: [f32; 3],
    options: NavstarPathOptions,
}

/// Status, `*out_count` and the bits of the points written.
type Answer = (NavstarStatus, u32, Vec<u32>);

fn ask(query: &mut CQuery, w: &Work) -> Answer {
    let mut points = [0.0f32; 3 * CAPACITY];
    let mut count = 0u32;
    // SAFETY: a live query used by this thread only; 3 floats per point; a full options
    // struct; `points` holds CAPACITY points; `count` is writable.
    let status = unsafe {
        navstar_find_path(
            query.0,
            w.start.as_ptr(),
            w.goal.as_ptr(),
            &w.options,
            points.as_mut_ptr(),
            CAPACITY as u32,
            &mut count,
        )
    };
    let written = 3 * (count as usize).min(CAPACITY);
    (
        status,
        count,
        points[..written].iter().map(|f| f.to_bits()).collect(),
    )
}

/// Random queries on the arena: mostly points of polygons, some anywhere around the
/// mesh (off it, far from it), with default, no-partial, short-snap and weighted options.
fn work_list(mesh: &NavMesh, count: usize) -> Vec<Work> {
    let mut rng = Rng(0x57e55);
    let bounds = mesh.bounds();
    let point = |rng: &mut Rng| -> [f32; 3] {
        if rng.below(6) == 0 {
            let (lo, hi) = (bounds.min - Vec3::splat(5.0), bounds.max + Vec3::splat(5.0));
            [
                lo.x + (hi.x - lo.x) * rng.unit(),
                lo.y + (hi.y - lo.y) * rng.unit(),
                rng.unit() - 0.5,
            ]
        } else {
            let poly = rng.below(mesh.polygon_count());
            point_in_polygon(mesh, poly, rng.unit(), rng.unit(), rng.unit()).to_array()
        }
    };
    (0..count)
        .map(|_| {
            let (start, goal) = (point(&mut rng), point(&mut rng));
            let mut options = navstar_path_options_default();
            match rng.below(8) {
                0 => options.allow_partial = 0,
                1 => options.max_snap_distance = 0.5,
                2 => options.heuristic_weight = 1.5,
                _ => {}
            }
            Work {
                start,
                goal,
                options,
            }
        })
        .collect()
}

/// Creates, uses and frees meshes and queries until `stop`: the arena (whose answers
/// must match the shared mesh's), a rejected mesh, and random tile grids. Returns the
/// number of rounds.
fn churn(a: &Arrays, work: &[Work], expected: &[Answer], stop: &AtomicBool) -> u64 {
    let mut rng = Rng(0xc4u64);
    let mut rounds = 0;
    let mut bad = Arrays {
        floats: a.floats.clone(),
        indices: a.indices.clone(),
        sizes: a.sizes.clone(),
    };
    bad.floats[4] = f32::NAN;
    while !stop.load(Ordering::Relaxed) {
        // The same mesh again: free the handle first, then use the query.
        let (status, mesh) = create(a, &z_up());
        assert_eq!(status, NavstarStatus::NavstarOk, "{}", last_error());
        let mut query = query_for(mesh);
        // SAFETY: a live mesh, freed once; the query keeps its own reference.
        unsafe { navstar_mesh_free(mesh) };
        let i = rng.below(work.len() as u32) as usize;
        assert_eq!(ask(&mut query, &work[i]), expected[i], "churn, query {i}");
        drop(query);

        // Rejected input: an error status, a message, and no mesh.
        let (status, mesh) = create(&bad, &z_up());
        assert_eq!(status, NavstarStatus::NavstarErrorInvalidMesh);
        assert!(mesh.is_null());
        assert!(last_error().contains("vertex 1"), "{}", last_error());

        // A random tile grid.
        let (w, h) = (1 + rng.below(16), 1 + rng.below(16));
        let cells: Vec<u8> = (0..w * h).map(|_| u8::from(rng.below(4) != 0)).collect();
        let mut mesh = ptr::null_mut();
        // SAFETY: `cells` holds w * h bytes; NULL origin and options mean defaults.
        let status = unsafe {
            navstar_mesh_create_from_grid(
                cells.as_ptr(),
                w,
                h,
                0.5,
                ptr::null(),
                ptr::null(),
                &mut mesh,
            )
        };
        if cells.iter().any(|&c| c != 0) {
            assert_eq!(status, NavstarStatus::NavstarOk, "{}", last_error());
            let mut query = query_for(mesh);
            let centre = |c: u32| {
                [
                    (c % w) as f32 * 0.5 + 0.25,
                    0.0,
                    (c / w) as f32 * 0.5 + 0.25,
                ]
            };
            let grid_work = Work {
                start: centre(rng.below(w * h)),
                goal: centre(rng.below(w * h)),
                options: navstar_path_options_default(),
            };
            let (status, count, _) = ask(&mut query, &grid_work);
            assert!(
                (status as i32) >= 0 && count >= 2,
                "{status:?}: {}",
                last_error()
            );
            drop(query);
            // SAFETY: a live mesh, freed once.
            unsafe { navstar_mesh_free(mesh) };
        } else {
            assert_eq!(status, NavstarStatus::NavstarErrorInvalidMesh);
            assert!(mesh.is_null());
        }
        rounds += 1;
    }
    rounds
}

#[test]
fn eight_threads_share_one_mesh_while_meshes_come_and_go() {
    let soup = arena_soup();
    let arrays = arrays(&soup);
    let rust_mesh = soup
        .into_mesh(&MeshOptions::default())
        .expect("the arena builds");
    let work = work_list(&rust_mesh, 600);

    let (status, shared) = create(&arrays, &z_up());
    assert_eq!(status, NavstarStatus::NavstarOk, "{}", last_error());
    let shared = SharedMesh(shared);
    // The single-threaded answers.
    let expected: Vec<Answer> = {
        let mut query = query_for(shared.0);
        work.iter().map(|w| ask(&mut query, w)).collect()
    };
    let count = |want: fn(&Answer) -> bool| expected.iter().filter(|a| want(a)).count();
    // The work exercises every outcome, and long paths.
    assert!(count(|a| a.0 == NavstarStatus::NavstarOk && a.1 > 3) > 30);
    assert!(count(|a| a.0 == NavstarStatus::NavstarErrorNotOnMesh) > 0);
    assert!(
        count(|a| a.1 as usize > CAPACITY) == 0,
        "CAPACITY too small"
    );

    let stop = AtomicBool::new(false);
    let answered = AtomicU64::new(0);
    let ready = Barrier::new(QUERY_THREADS as usize + 1);
    let started = Instant::now();
    let churn_rounds = std::thread::scope(|scope| {
        let (work, expected, stop, answered, ready) = (&work, &expected, &stop, &answered, &ready);
        let queriers: Vec<_> = (0..QUERY_THREADS)
            .map(|t| {
                scope.spawn(move || {
                    let mut query = query_for(shared.get());
                    ready.wait(); // the main thread frees the shared handle now
                    let mut order: Vec<usize> = (0..work.len()).collect();
                    let mut rng = Rng(1000 + t);
                    for i in (1..order.len()).rev() {
                        order.swap(i, rng.below(i as u32 + 1) as usize);
                    }
                    let mut done = 0u64;
                    'run: loop {
                        for &i in &order {
                            if stop.load(Ordering::Relaxed) {
                                break 'run;
                            }
                            let got = ask(&mut query, &work[i]);
                            assert_eq!(got, expected[i], "thread {t}, query {i}: {:?}", work[i]);
                            done += 1;
                        }
                    }
                    answered.fetch_add(done, Ordering::Relaxed);
                    done
                })
            })
            .collect();
        let churner = scope.spawn({
            let arrays = &arrays;
            move || churn(arrays, work, expected, stop)
        });
        ready.wait();
        // Every querying thread holds its query; the mesh handle goes away under them.
        // SAFETY: a live mesh, freed once; nobody uses this handle any more.
        unsafe { navstar_mesh_free(shared.0) };
        std::thread::sleep(DURATION);
        stop.store(true, Ordering::Relaxed);
        for (t, q) in queriers.into_iter().enumerate() {
            let done = q.join().expect("a querying thread panicked");
            assert!(done >= 50, "thread {t} answered only {done} queries");
        }
        churner.join().expect("the churning thread panicked")
    });
    assert!(churn_rounds >= 5, "only {churn_rounds} create/free rounds");
    eprintln!(
        "stress: {} queries on {QUERY_THREADS} threads and {churn_rounds} create/free rounds in {:.1} s",
        answered.load(Ordering::Relaxed),
        started.elapsed().as_secs_f64()
    );
}

#[test]
fn flags_flip_while_four_threads_query() {
    let soup = arena_soup();
    let arrays = arrays(&soup);
    let rust_mesh = soup
        .into_mesh(&MeshOptions::default())
        .expect("the arena builds");
    let work = work_list(&rust_mesh, 300);
    let (status, mesh) = create(&arrays, &z_up());
    assert_eq!(status, NavstarStatus::NavstarOk, "{}", last_error());
    let shared = SharedMesh(mesh);
    let expected: Vec<Answer> = {
        let mut query = query_for(shared.0);
        work.iter().map(|w| ask(&mut query, w)).collect()
    };
    let doors: Vec<u32> = (0..rust_mesh.polygon_count()).step_by(10).collect();
    let stop = AtomicBool::new(false);
    let flips = AtomicU64::new(0);
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..4u64)
            .map(|t| {
                let (work, stop) = (&work, &stop);
                scope.spawn(move || {
                    let mut query = query_for(shared.get());
                    let mut answered = 0u64;
                    let mut i = t as usize;
                    while !stop.load(Ordering::Relaxed) {
                        let (status, count, _) = ask(&mut query, &work[i % work.len()]);
                        // Closed doors may cut a path short, or leave an end point with
                        // no open polygon in snapping range; nothing else.
                        assert!(
                            matches!(
                                status,
                                NavstarStatus::NavstarOk
                                    | NavstarStatus::NavstarPartialPath
                                    | NavstarStatus::NavstarErrorNotOnMesh
                                    | NavstarStatus::NavstarErrorNoPath
                            ),
                            "thread {t}: {status:?} {}",
                            last_error()
                        );
                        assert!(status != NavstarStatus::NavstarOk || count >= 2);
                        answered += 1;
                        i += 7;
                    }
                    answered
                })
            })
            .collect();
        let began = Instant::now();
        let mut round = 0u32;
        while began.elapsed() < Duration::from_secs(2) {
            for &door in &doors {
                // SAFETY: a live mesh shared by all threads; flags are atomic.
                let status = unsafe {
                    navstar_mesh_set_polygon_flags(shared.get(), door, round % 2, ptr::null_mut())
                };
                assert_eq!(status, NavstarStatus::NavstarOk);
            }
            flips.fetch_add(1, Ordering::Relaxed);
            round += 1;
        }
        // Open every door again, then let the workers go.
        for &door in &doors {
            // SAFETY: as above.
            unsafe { navstar_mesh_set_polygon_flags(shared.get(), door, 1, ptr::null_mut()) };
        }
        stop.store(true, Ordering::Relaxed);
        for worker in workers {
            assert!(worker.join().unwrap() >= 20, "a worker hardly ran");
        }
    });
    assert!(flips.load(Ordering::Relaxed) >= 10);
    let mut query = query_for(shared.0);
    for (i, w) in work.iter().enumerate() {
        assert_eq!(
            ask(&mut query, w),
            expected[i],
            "after the flips, query {i}"
        );
    }
}
