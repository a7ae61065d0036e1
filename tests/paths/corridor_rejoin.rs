//! Repair that rejoins the corridor (issue 17): after polygons close, the repair searches
//! from the agent to the first polygon of the old corridor past the last closed one and
//! keeps the corridor's tail from there. Known answers where the fresh search keeps the
//! old tail (the same length), several closed stretches, and on random meshes: a valid
//! corridor, never through a closed polygon, no shorter than the exact path and no longer
//! than the stated bound: the way to the rejoin point plus the old tail's way from it.

use glam::Vec3;
use navstar::{NavMesh, PathCorridor, PathMode, PathOptions, PathStatus, Query, Repair};
use proptest::prelude::*;

use crate::common::{Soup, p, point_in_polygon, seeded_grid};
use crate::corridor_repair::{along_row, cell, corridor_of, is_simple_chain, length};

/// The middle of the portal from `from` into `to` (neighbours) of `mesh`.
fn portal_middle(mesh: &NavMesh, from: u32, to: u32) -> Vec3 {
    let slot = mesh
        .polygon_neighbours(from)
        .position(|n| n == Some(to))
        .expect("neighbours");
    let corners = mesh.polygon_vertices(from);
    let (a, b) = (corners[slot], corners[(slot + 1) % corners.len()]);
    (mesh.vertex(a) + mesh.vertex(b)) * 0.5
}

#[test]
fn repair_rejoins_past_the_closed_square_and_keeps_the_tail() {
    // Two rows of ten unit squares; the agent walks along the first row to x = 9.5.
    let mesh = Soup::from_ascii(&["..........", ".........."]).build();
    let goal = p(9.5, 0.5);
    let mut corridor = along_row(&mesh, 9);
    let old = corridor.polygons().to_vec();
    let door = cell(&mesh, 3.0, 0.0);
    mesh.set_polygon_flags(door, 0).unwrap();
    let options = PathOptions::default();
    let mut query = Query::new(&mesh);
    assert_eq!(
        corridor.repair(&mut query, &options).unwrap(),
        Repair::Repaired { kept: 1 }
    );
    // The old corridor from the square past the door on is kept as it was.
    let polygons = corridor.polygons().to_vec();
    assert!(polygons.ends_with(&old[4..]), "{polygons:?} after {old:?}");
    assert!(!polygons.contains(&door));
    assert!(is_simple_chain(&mesh, &polygons, goal));
    assert_eq!(corridor.target(), goal);
    // The fresh search keeps that tail too: the same way, over the two corners of the
    // door's top.
    let corners = corridor.corners(16).to_vec();
    assert_eq!(corners, [p(3.0, 1.0), p(4.0, 1.0), goal]);
    let exact = query
        .find_path(
            p(0.5, 0.5),
            goal,
            &options.clone().with_mode(PathMode::Optimal),
        )
        .unwrap();
    let (repaired, fresh) = (
        length(p(0.5, 0.5), &corners),
        length(p(0.5, 0.5), &exact.corners[1..]),
    );
    assert!((repaired - fresh).abs() < 1e-4, "{repaired} vs {fresh}");
}

#[test]
fn repair_past_two_closed_stretches_rejoins_after_the_last() {
    let mesh = Soup::from_ascii(&["..........", ".........."]).build();
    let goal = p(9.5, 0.5);
    let mut corridor = along_row(&mesh, 9);
    let old = corridor.polygons().to_vec();
    let doors = [cell(&mesh, 2.0, 0.0), cell(&mesh, 6.0, 0.0)];
    for door in doors {
        mesh.set_polygon_flags(door, 0).unwrap();
    }
    let options = PathOptions::default();
    let mut query = Query::new(&mesh);
    assert!(matches!(
        corridor.repair(&mut query, &options).unwrap(),
        Repair::Repaired { .. }
    ));
    let polygons = corridor.polygons().to_vec();
    assert!(polygons.ends_with(&old[7..]), "{polygons:?}");
    assert!(doors.iter().all(|d| !polygons.contains(d)));
    assert!(corridor.is_valid(usize::MAX, &options.filter));
    assert!(is_simple_chain(&mesh, &polygons, goal));
    // Up round the first door, along the second row past both, and down.
    assert_eq!(corridor.corners(16), [p(2.0, 1.0), p(7.0, 1.0), goal]);
}

#[test]
fn a_rejoin_may_cost_more_than_a_fresh_search_but_no_more_than_its_bound() {
    // A 7 x 7 room round a pillar x, z in 2..5; the corridor passes below it, and the
    // squares below the pillar's middle close: the repair goes under them (along the
    // wall) and back, where a fresh search goes over the pillar.
    let mesh = Soup::from_ascii(&[
        ".......", ".......", "..###..", "..###..", "..###..", ".......", ".......",
    ])
    .build();
    let (s, t) = (p(0.5, 3.5), p(6.5, 3.5));
    let mut corridor = corridor_of(&mesh, s, t).unwrap();
    let below = corridor.polygons().contains(&cell(&mesh, 3.0, 1.0));
    let z = if below { 1.0 } else { 5.0 };
    let closed = cell(&mesh, 3.0, z);
    mesh.set_polygon_flags(closed, 0).unwrap();
    let old = corridor.polygons().to_vec();
    let at = old.iter().position(|&q| q == closed).unwrap();
    let options = PathOptions::default();
    let mut query = Query::new(&mesh);
    assert!(matches!(
        corridor.repair(&mut query, &options).unwrap(),
        Repair::Repaired { .. }
    ));
    assert!(corridor.polygons().ends_with(&old[at + 2..]));
    assert!(!corridor.polygons().contains(&closed));
    let repaired = length(s, corridor.corners(64));
    let exact = query
        .find_path(s, t, &options.clone().with_mode(PathMode::Optimal))
        .unwrap();
    let fresh = length(s, &exact.corners[1..]);
    assert!(repaired > fresh + 0.5, "{repaired} vs {fresh}");
    assert!(rejoin_bound(&mesh, &old, at + 1, s, t) >= repaired - 1e-4);
}

/// The stated bound of a repair that rejoined `old` at index `rejoin` (the first
/// polygon past the last closed one): the length of a fresh search from `here` to the
/// middle of `old[rejoin]`'s portal into the next polygon (or to `target` when it is the
/// last), plus the length of the old corridor's way from there to `target`.
fn rejoin_bound(mesh: &NavMesh, old: &[u32], rejoin: usize, here: Vec3, target: Vec3) -> f32 {
    let goal = match old.get(rejoin + 1) {
        Some(&next) => portal_middle(mesh, old[rejoin], next),
        None => target,
    };
    let mut query = Query::new(mesh);
    let local = query
        .find_path(here, goal, &PathOptions::default())
        .unwrap();
    let local = length(here, &local.corners[1..]);
    let mut tail = PathCorridor::new(mesh, old[rejoin], goal).unwrap();
    tail.set_corridor(target, &old[rejoin..]).unwrap();
    let from = tail.position();
    local + length(from, tail.corners(usize::MAX))
}

proptest! {
    #![proptest_config(crate::common::proptest_config(150))]

    #[test]
    fn a_rejoined_corridor_is_valid_and_within_its_bound(
        seed in any::<u64>(),
        cols in 3usize..10,
        rows in 3usize..10,
        ends in ((any::<u32>(), 0.0f32..1.0, 0.0f32..1.0, 0.0f32..1.0), (any::<u32>(), 0.0f32..1.0, 0.0f32..1.0, 0.0f32..1.0)),
        closed in any::<u32>(),
    ) {
        let Ok(mesh) = seeded_grid(seed, cols, rows).try_build(&Default::default()) else {
            return Ok(());
        };
        let n = mesh.polygon_count();
        let point = |(k, s, t, u): (u32, f32, f32, f32)| point_in_polygon(&mesh, k % n, s, t, u);
        let Some(mut corridor) = corridor_of(&mesh, point(ends.0), point(ends.1)) else {
            return Ok(());
        };
        let old = corridor.polygons().to_vec();
        if old.len() < 3 {
            return Ok(());
        }
        // Close a polygon strictly inside the corridor.
        let k = 1 + closed as usize % (old.len() - 2);
        let door = old[k];
        mesh.set_polygon_flags(door, 0).unwrap();
        let (here, target) = (corridor.position(), corridor.target());
        let options = PathOptions::default();
        let mut query = Query::new(&mesh);
        let outcome = corridor.repair(&mut query, &options).unwrap();
        let polygons = corridor.polygons().to_vec();
        prop_assert!(corridor.is_valid(usize::MAX, &options.filter));
        prop_assert!(!polygons.contains(&door));
        prop_assert!(is_simple_chain(&mesh, &polygons, corridor.target()));
        prop_assert_eq!(polygons[0], old[0]);
        let exact = query
            .find_path(here, target, &options.clone().with_mode(PathMode::Optimal))
            .unwrap();
        if !matches!(outcome, Repair::Repaired { .. }) {
            // Cut off: so is the target for a fresh search.
            prop_assert!(exact.status != PathStatus::Complete || exact.corners.last().unwrap().distance(target) > 1e-4);
            return Ok(());
        }
        prop_assert_eq!(corridor.target(), target);
        let repaired = length(here, corridor.corners(usize::MAX));
        let shortest = length(here, &exact.corners[1..]);
        let tolerance = 1e-3 * shortest.max(1.0);
        prop_assert!(repaired >= shortest - tolerance, "{} < {}", repaired, shortest);
        // Rejoined (the old tail past the door is kept): within the stated bound.
        if polygons.ends_with(&old[k + 2..]) && k + 1 < old.len() {
            let bound = rejoin_bound(&mesh, &old, k + 1, here, target);
            prop_assert!(repaired <= bound + tolerance, "{} > bound {}", repaired, bound);
        }
    }
}
