//! One mesh shared by several threads, each with its own `Query`: every thread gets
//! exactly (bit for bit) the answers of a single-threaded run, whatever the order of
//! its queries.

use glam::Vec3;
use navstar::{NavMesh, PathOptions, PathStatus, Query, QueryError};

use crate::common::{Rng, p, seeded_grid};

type Answer = Result<(Vec<[u32; 3]>, PathStatus), QueryError>;

fn queries(mesh: &NavMesh, count: usize, seed: u64) -> Vec<(Vec3, Vec3, PathOptions)> {
    let mut rng = Rng(seed);
    let bounds = mesh.bounds();
    let point = |rng: &mut Rng| {
        if rng.below(5) == 0 {
            // Anywhere around the mesh, possibly off it or above it.
            let (lo, hi) = (bounds.min - Vec3::ONE, bounds.max + Vec3::ONE);
            Vec3::new(
                lo.x + (hi.x - lo.x) * rng.unit(),
                rng.unit(),
                lo.z + (hi.z - lo.z) * rng.unit(),
            )
        } else {
            let poly = rng.below(mesh.polygon_count());
            crate::common::point_in_polygon(mesh, poly, rng.unit(), rng.unit(), rng.unit())
        }
    };
    (0..count)
        .map(|_| {
            let (s, g) = (point(&mut rng), point(&mut rng));
            let mut o = PathOptions::default();
            match rng.below(8) {
                0 => o.allow_partial = false,
                1 => o.max_snap_distance = 0.3,
                2 => o.heuristic_weight = 1.5,
                _ => {}
            }
            (s, g, o)
        })
        .collect()
}

fn answer(query: &mut Query, (s, g, o): &(Vec3, Vec3, PathOptions)) -> Answer {
    query.find_path(*s, *g, o).map(|p| {
        (
            p.corners
                .iter()
                .map(|c| c.to_array().map(f32::to_bits))
                .collect(),
            p.status,
        )
    })
}

#[test]
fn threads_agree_with_a_single_thread() {
    // A 24 x 24 jittered grid with holes, and a separate room beside it.
    let mut soup = seeded_grid(0x5eed, 24, 24);
    soup.polygon_at(&[p(26.0, 2.0), p(30.0, 2.0), p(30.0, 8.0), p(26.0, 8.0)]);
    let mesh = soup.build();
    assert!(mesh.island_count() >= 2);
    let work = queries(&mesh, 500, 7);
    let expected: Vec<Answer> = {
        let mut q = Query::new(&mesh);
        work.iter().map(|w| answer(&mut q, w)).collect()
    };
    // The work must exercise all outcomes.
    assert!(
        expected
            .iter()
            .any(|a| matches!(a, Ok((_, PathStatus::Complete))))
    );
    assert!(
        expected
            .iter()
            .any(|a| matches!(a, Ok((c, _)) if c.len() > 3))
    );
    assert!(
        expected
            .iter()
            .any(|a| matches!(a, Err(QueryError::NotOnMesh { .. })))
    );
    assert!(
        expected
            .iter()
            .any(|a| matches!(a, Err(QueryError::NoPath)))
    );
    assert!(
        expected
            .iter()
            .any(|a| matches!(a, Ok((_, PathStatus::Partial))))
    );

    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..6u64)
            .map(|t| {
                let (mesh, work) = (&mesh, &work);
                // Half the threads borrow the mesh, half own a clone of the handle.
                let owned = (t % 2 == 1).then(|| mesh.clone());
                scope.spawn(move || {
                    let mut query = Query::new(owned.as_ref().unwrap_or(mesh));
                    // Each thread visits the queries in its own order, twice.
                    let mut order: Vec<usize> = (0..work.len()).collect();
                    let mut rng = Rng(100 + t);
                    for i in (1..order.len()).rev() {
                        order.swap(i, rng.below(i as u32 + 1) as usize);
                    }
                    let mut got = vec![None; work.len()];
                    for _ in 0..2 {
                        for &i in &order {
                            let a = answer(&mut query, &work[i]);
                            if let Some(previous) = &got[i] {
                                assert_eq!(previous, &a, "query {i} changed on repetition");
                            }
                            got[i] = Some(a);
                        }
                    }
                    got.into_iter().map(Option::unwrap).collect::<Vec<Answer>>()
                })
            })
            .collect();
        for (t, h) in handles.into_iter().enumerate() {
            let got = h.join().expect("thread panicked");
            for (i, (a, b)) in got.iter().zip(&expected).enumerate() {
                assert_eq!(a, b, "thread {t}, query {i}: {:?}", work[i]);
            }
        }
    });
}

#[test]
fn mesh_and_query_can_cross_threads() {
    fn send_sync<T: Send + Sync>() {}
    fn send<T: Send>() {}
    send_sync::<NavMesh>();
    send::<Query>();
    // A query made on one thread, used on another, after its mesh handle was dropped.
    let mesh = seeded_grid(3, 6, 6).build();
    let mut query = Query::new(&mesh);
    let (s, g) = (
        crate::common::point_in_polygon(&mesh, 0, 0.3, 0.3, 0.3),
        crate::common::point_in_polygon(&mesh, mesh.polygon_count() - 1, 0.6, 0.2, 0.2),
    );
    let expected = query.find_path_vec(s, g, &PathOptions::default());
    drop(mesh);
    let got = std::thread::spawn(move || query.find_path_vec(s, g, &PathOptions::default()))
        .join()
        .unwrap();
    assert_eq!(got, expected);
}
