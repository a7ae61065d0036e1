//! In steady state a query allocates nothing: after one warm-up pass over a set of
//! queries, running the same set again makes zero heap allocations. This file is its own
//! test binary because it installs a counting global allocator.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use common::{Rng, Soup, p, seeded_grid};
use glam::Vec3;
use navstar::{NavMesh, PathOptions, Query};

/// Counts the allocations made by a thread while its `COUNTING` flag is set.
struct Counting;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    // Per thread: tests run in parallel, and one test's allocations must not show up in
    // another's count.
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn note_allocation() {
    if COUNTING.with(Cell::get) {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
    }
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note_allocation();
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note_allocation();
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note_allocation();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Runs `f` and returns how many allocations this thread made meanwhile.
fn allocations_in(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.with(Cell::get);
    COUNTING.with(|c| c.set(true));
    f();
    COUNTING.with(|c| c.set(false));
    ALLOCATIONS.with(Cell::get) - before
}

#[test]
fn the_counter_sees_allocations() {
    let n = allocations_in(|| {
        let v: Vec<u64> = std::hint::black_box(vec![1, 2, 3]);
        drop(v);
    });
    assert_eq!(n, 1);
}

fn workload(mesh: &NavMesh, count: usize) -> Vec<(Vec3, Vec3, PathOptions)> {
    let mut rng = Rng(42);
    let bounds = mesh.bounds();
    (0..count)
        .map(|k| {
            let point = |rng: &mut Rng| {
                if rng.below(6) == 0 {
                    let (lo, hi) = (bounds.min - Vec3::ONE, bounds.max + Vec3::ONE);
                    Vec3::new(
                        lo.x + (hi.x - lo.x) * rng.unit(),
                        0.5 * rng.unit(),
                        lo.z + (hi.z - lo.z) * rng.unit(),
                    )
                } else {
                    let poly = rng.below(mesh.polygon_count());
                    common::point_in_polygon(mesh, poly, rng.unit(), rng.unit(), rng.unit())
                }
            };
            let (s, g) = (point(&mut rng), point(&mut rng));
            let mut o = PathOptions::default();
            match k % 6 {
                0 => o.allow_partial = false,
                1 => o.max_snap_distance = 0.25,
                _ => {}
            }
            (s, g, o)
        })
        .collect()
}

fn run(query: &mut Query, work: &[(Vec3, Vec3, PathOptions)]) -> usize {
    let mut corners = 0;
    for (s, g, o) in work {
        if let Ok(path) = query.find_path(*s, *g, o) {
            corners += path.corners.len();
        }
    }
    corners
}

#[test]
fn steady_state_queries_do_not_allocate() {
    for mesh in [
        seeded_grid(11, 30, 30).build(),
        Soup::from_ascii(&["......", "#####.", "....#.", ".##.#.", ".####.", "......"]).build(),
    ] {
        let mut work = workload(&mesh, 400);
        // Errors must not allocate either.
        work.push((Vec3::NAN, p(0.5, 0.5), PathOptions::default()));
        // With and without the search over the merged copy.
        for merged in [true, false] {
            let mut query = Query::new(&mesh);
            query.set_merged_search(merged);
            let warm = run(&mut query, &work);
            assert!(warm > 2 * work.len(), "the workload should have real paths");
            let mut again = 0;
            let n = allocations_in(|| again = run(&mut query, &work));
            assert_eq!(again, warm);
            assert_eq!(
                n, 0,
                "{n} allocations in steady state (merged search {merged})"
            );
        }
        // The nearest-point query allocates nothing either.
        let n = allocations_in(|| {
            for (s, _, _) in &work {
                std::hint::black_box(mesh.nearest_point(*s, f32::INFINITY, None));
            }
        });
        assert_eq!(n, 0);
    }
}

#[test]
fn steady_state_optimal_queries_do_not_allocate() {
    // First searched, then answered from the fast-lane index (`prepare_fast_lane`,
    // built once; the query's scratch grows on its first uses).
    for mesh in [
        seeded_grid(12, 30, 30).build(),
        Soup::from_ascii(&["......", "#####.", "....#.", ".##.#.", ".####.", "......"]).build(),
    ] {
        let mut work = workload(&mesh, 400);
        for (_, _, o) in &mut work {
            o.mode = navstar::PathMode::Optimal;
        }
        for indexed in [false, true] {
            assert_eq!(indexed, indexed && mesh.prepare_fast_lane());
            let mut query = Query::new(&mesh);
            // Off, the query searches even where the mesh has an index (or would build
            // one on first use).
            query.set_fast_lane(indexed);
            let warm = run(&mut query, &work);
            assert!(warm > 2 * work.len(), "the workload should have real paths");
            // With the index, it answered many of them (others: in sight, not snapped).
            let answered = work
                .iter()
                .filter(|(s, g, o)| {
                    query.find_path(*s, *g, o).is_ok() && query.fast_lane_corners_seen().is_some()
                })
                .count();
            assert_eq!(
                indexed,
                answered > work.len() / 4,
                "{answered} answered by the index"
            );
            let mut again = 0;
            let n = allocations_in(|| again = run(&mut query, &work));
            assert_eq!(again, warm);
            assert_eq!(
                n, 0,
                "{n} allocations in steady state (optimal mode, index {indexed})"
            );
        }
    }
}

#[test]
fn steady_state_queries_with_landmarks_do_not_allocate() {
    // The table is built once per mesh (the first search using it, or
    // `prepare_landmarks`); after that, queries of both modes allocate nothing.
    let mesh = seeded_grid(13, 30, 30).build();
    assert!(mesh.prepare_landmarks());
    for mode in [navstar::PathMode::Funnel, navstar::PathMode::Optimal] {
        let mut work = workload(&mesh, 400);
        for (_, _, o) in &mut work {
            o.mode = mode;
        }
        let mut query = Query::new(&mesh);
        query.set_landmarks(true);
        let warm = run(&mut query, &work);
        assert!(warm > 2 * work.len(), "the workload should have real paths");
        let mut again = 0;
        let n = allocations_in(|| again = run(&mut query, &work));
        assert_eq!(again, warm);
        assert_eq!(
            n, 0,
            "{n} allocations in steady state ({mode:?}, landmarks)"
        );
    }
}

#[test]
fn steady_state_queries_of_a_grown_or_limited_query_do_not_allocate() {
    let mesh = seeded_grid(13, 30, 30).build();
    let mut work = workload(&mesh, 300);
    for (k, (_, _, o)) in work.iter_mut().enumerate() {
        if k % 2 == 1 {
            o.mode = navstar::PathMode::Optimal;
        }
    }
    for limit in [40, Query::DEFAULT_MAX_NODES] {
        // Created with no search memory: it must grow during the warm-up.
        let mut query = Query::new(&mesh).with_max_nodes(limit);
        assert_eq!(query.scratch_bytes(), 0);
        let warm = run(&mut query, &work);
        assert!(query.scratch_bytes() > 0, "the searches grew the scratch");
        let mut again = 0;
        let n = allocations_in(|| again = run(&mut query, &work));
        assert_eq!(again, warm);
        assert_eq!(n, 0, "{n} allocations in steady state (limit {limit})");
    }
}

#[test]
fn steady_state_agent_queries_do_not_allocate() {
    let mesh = seeded_grid(23, 30, 30).build();
    let work = workload(&mesh, 300);
    let filter = navstar::QueryFilter::default();
    let mut query = Query::new(&mesh);
    let mut visited = Vec::new();
    let mut rng = navstar::SplitMix64::new(8);
    let mut pass = |query: &mut Query, visited: &mut Vec<u32>| {
        let mut answers = 0usize;
        for (s, g, _) in &work {
            if let Ok(moved) = mesh.move_along_surface(None, *s, *g, &filter, visited) {
                answers += visited.len();
                // Per frame: from the polygon of the last move.
                let next = *g + Vec3::new(0.3, 0.0, -0.2);
                let again = mesh.move_along_surface(
                    Some(moved.polygon),
                    moved.point,
                    next,
                    &filter,
                    visited,
                );
                answers += usize::from(again.is_ok());
            }
            if let Ok(Some(wall)) = query.distance_to_wall(*s, 2.0, &filter) {
                answers += usize::from(wall.distance >= 0.0);
            }
            if query
                .random_point_around(*s, 1.5, &filter, &mut || rng.next_u64())
                .is_ok()
            {
                answers += 1;
            }
            answers += usize::from(mesh.random_point(&filter, &mut || rng.next_u64()).is_ok());
        }
        answers
    };
    let warm = pass(&mut query, &mut visited);
    assert!(warm > work.len(), "the workload should have answers");
    let n = allocations_in(|| {
        std::hint::black_box(pass(&mut query, &mut visited));
    });
    assert_eq!(n, 0, "{n} allocations in steady state");
}

#[test]
fn steady_state_corridor_following_does_not_allocate() {
    let mesh =
        Soup::from_ascii(&["......", "#####.", "....#.", ".##.#.", ".####.", "......"]).build();
    let (start, goal) = (p(0.5, 0.5), p(0.5, 2.5));
    let mut query = Query::new(&mesh);
    query
        .find_path(start, goal, &PathOptions::default())
        .unwrap();
    let there: Vec<u32> = query.corridor().collect();
    assert!(there.len() > 10, "a long winding corridor");
    let back: Vec<u32> = there.iter().rev().copied().collect();
    let filter = navstar::QueryFilter::default();
    // Steers the agent along `polygons` to `to`; returns the frames taken.
    let follow = |corridor: &mut navstar::PathCorridor, to: Vec3, polygons: &[u32]| {
        corridor.set_corridor(to, polygons).unwrap();
        let mut frames = 0;
        while let Some(&next) = corridor.corners(2).first() {
            let here = corridor.position();
            let step = (next - here).clamp_length_max(0.3);
            corridor.move_position(here + step, &filter).unwrap();
            std::hint::black_box(corridor.is_valid(8, &filter));
            frames += 1;
            assert!(frames < 1000, "the agent gets there");
        }
        frames
    };
    let mut corridor = navstar::PathCorridor::new(&mesh, there[0], start).unwrap();
    let warm = follow(&mut corridor, goal, &there);
    assert!(warm > 10);
    assert_eq!(corridor.polygons(), [back[0]]);
    follow(&mut corridor, start, &back);
    let mut again = 0;
    let n = allocations_in(|| again = follow(&mut corridor, goal, &there));
    assert_eq!(again, warm);
    assert_eq!(n, 0, "{n} allocations in steady state");
    // The same for a disc of radius 0.2: its moves and corners run on the eroded mesh.
    query
        .find_path(start, goal, &PathOptions::default().with_agent_radius(0.2))
        .unwrap();
    let there: Vec<u32> = query.corridor().collect();
    let back: Vec<u32> = there.iter().rev().copied().collect();
    let mut corridor = navstar::PathCorridor::new(&mesh, there[0], start).unwrap();
    corridor.set_agent_radius(0.2).unwrap();
    let warm = follow(&mut corridor, goal, &there);
    assert!(warm > 10);
    follow(&mut corridor, start, &back);
    let mut again = 0;
    let n = allocations_in(|| again = follow(&mut corridor, goal, &there));
    assert_eq!(again, warm);
    assert_eq!(n, 0, "{n} allocations in steady state (agent radius)");
}

#[test]
fn steady_state_queries_with_an_agent_radius_do_not_allocate() {
    // The first queries build the eroded mesh; after that both modes, nearest targets,
    // floods, wall distances, random points and moves for the disc allocate nothing.
    let mesh = seeded_grid(14, 20, 20).build();
    let mut work = workload(&mesh, 200);
    for (k, (_, _, o)) in work.iter_mut().enumerate() {
        o.agent_radius = 0.3;
        if k % 2 == 1 {
            o.mode = navstar::PathMode::Optimal;
        }
    }
    let mut query = Query::new(&mesh);
    let filter = navstar::QueryFilter::default();
    let mut visited = Vec::new();
    let mut rng = navstar::SplitMix64::new(5);
    let mut others = |query: &mut Query| {
        for (s, g, o) in work.iter().take(40) {
            let _ = std::hint::black_box(query.find_nearest_target(*s, &[*g, *s], o));
            let _ = std::hint::black_box(query.reachable_polygons_for_agent(
                *s,
                3.0,
                &filter,
                f32::INFINITY,
                0.3,
            ));
            let _ = std::hint::black_box(query.distance_to_wall_for_agent(*s, 2.0, &filter, 0.3));
            let _ = std::hint::black_box(query.random_point_around_for_agent(
                *s,
                2.0,
                &filter,
                0.3,
                &mut || rng.next_u64(),
            ));
            let _ = std::hint::black_box(
                mesh.random_point_for_agent(&filter, 0.3, &mut || rng.next_u64()),
            );
            let _ = std::hint::black_box(mesh.move_along_surface_for_agent(
                None,
                *s,
                *g,
                &filter,
                0.3,
                &mut visited,
            ));
        }
    };
    // Two rounds: the exact search's tables settle after the second (they follow the
    // nodes touched, and this workload alternates the modes on two meshes).
    let warm = run(&mut query, &work);
    others(&mut query);
    assert_eq!(run(&mut query, &work), warm);
    others(&mut query);
    assert!(warm > 2 * work.len(), "the workload should have real paths");
    let mut again = 0;
    let n = allocations_in(|| again = run(&mut query, &work));
    assert_eq!(again, warm);
    assert_eq!(
        n, 0,
        "{n} allocations in steady state (agent radius, paths)"
    );
    let n = allocations_in(|| others(&mut query));
    assert_eq!(n, 0, "{n} allocations in steady state (agent radius)");
}

/// The workload as sliced searches of `slice` expansions per call, some finished early
/// (partial) and some cancelled; returns the corners of the paths finished.
fn run_sliced(query: &mut Query, work: &[(Vec3, Vec3, PathOptions)], slice: u32) -> usize {
    let mut corners = 0;
    for (k, (s, g, o)) in work.iter().enumerate() {
        if query.begin_path(*s, *g, o).is_err() {
            continue;
        }
        let mut calls = 0;
        while query.advance_path(slice).map(|p| p.status) == Ok(navstar::SliceStatus::InProgress) {
            calls += 1;
            if k % 7 == 3 && calls == 2 {
                break;
            }
        }
        if k % 11 == 5 {
            query.cancel_path();
            continue;
        }
        if let Ok(path) = query.finish_path() {
            corners += path.corners.len();
        }
    }
    corners
}

#[test]
fn steady_state_sliced_searches_do_not_allocate() {
    let mesh = seeded_grid(31, 30, 30).build();
    let mut work = workload(&mesh, 300);
    work.push((Vec3::NAN, p(0.5, 0.5), PathOptions::default()));
    // A third in the exact mode, sliced too (finished early: its partial path).
    for (k, (_, _, o)) in work.iter_mut().enumerate() {
        if k % 3 == 2 {
            o.mode = navstar::PathMode::Optimal;
        }
    }
    for (merged, slice) in [(true, 3), (false, 1), (true, 40)] {
        let mut query = Query::new(&mesh);
        query.set_merged_search(merged);
        let warm = run_sliced(&mut query, &work, slice);
        assert!(
            warm > 2 * work.len() / 2,
            "the workload should have real paths"
        );
        let mut again = 0;
        let n = allocations_in(|| again = run_sliced(&mut query, &work, slice));
        assert_eq!(again, warm);
        assert_eq!(
            n, 0,
            "{n} allocations in steady state (sliced by {slice}, merged {merged})"
        );
    }
}
