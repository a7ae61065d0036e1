//! The fast lane (`NavMesh::prepare_fast_lane`): the exact mode answered from the corner
//! index gives the visibility-graph oracle's length and the exact search's length, on
//! random meshes and on hand-made scenes; its paths lie on the mesh.

use glam::{DVec2, Vec3};
use navstar::{NavMesh, PathStatus, Query};

use crate::common::{Domain, Rng, check_path_on_mesh, ground_length};
use crate::exact::{random_mesh, random_point};
use crate::optimal;

/// Checks one query on `mesh` (with a prepared index) against the exact search and the
/// oracle; returns whether the index answered it.
fn check(mesh: &NavMesh, domain: &Domain, s: Vec3, t: Vec3, context: &str) -> bool {
    let mut indexed = Query::new(mesh);
    let mut searched = Query::new(mesh);
    searched.set_fast_lane(false);
    let with = indexed
        .find_path(s, t, &optimal())
        .unwrap_or_else(|e| panic!("{context}: {e}"));
    let (status, corners) = (with.status, with.corners.to_vec());
    let used = indexed.fast_lane_corners_seen().is_some();
    let without = searched.find_path(s, t, &optimal()).unwrap();
    assert_eq!(status, without.status, "{context}");
    check_path_on_mesh(domain, &corners).unwrap_or_else(|e| panic!("{context}: {e}: {corners:?}"));
    let up = mesh.up_axis();
    let (length, searched_length) = (
        ground_length(up, &corners),
        ground_length(up, without.corners),
    );
    assert!(
        (length - searched_length).abs() <= 1e-5 * searched_length.max(1e-3),
        "{context}: indexed {length} {corners:?}, searched {searched_length} {:?}",
        without.corners
    );
    if status == PathStatus::Complete && !domain.pinched {
        let g = |p: Vec3| -> DVec2 { up.ground(p).as_dvec2() };
        let oracle = domain.shortest_length(g(corners[0]), g(corners[corners.len() - 1]));
        assert!(
            (length - oracle).abs() <= 1e-5 * oracle.max(1e-3),
            "{context}: indexed {length}, oracle {oracle}: {corners:?}"
        );
    }
    used
}

#[test]
fn equals_the_oracle_and_the_search_on_random_meshes() {
    let mut rng = Rng(0xfa57_u64);
    let mut used = 0;
    for m in 0..600 {
        let Some(mesh) = random_mesh(&mut rng) else {
            continue;
        };
        assert!(mesh.prepare_fast_lane(), "mesh {m}");
        let domain = Domain::new(&mesh);
        for q in 0..6 {
            let (s, t) = (random_point(&mesh, &mut rng), random_point(&mesh, &mut rng));
            let context = format!("mesh {m} query {q}: {s} -> {t}");
            used += usize::from(check(&mesh, &domain, s, t, &context));
        }
    }
    assert!(used > 500, "the index answered only {used} queries");
}
