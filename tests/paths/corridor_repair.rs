//! The corridor that follows an agent, changed ahead of it: corners with their details
//! after each step, repair after polygons close (against a fresh search, and the exact
//! mode as the oracle on random meshes), shortening by visibility, and bad input.

use glam::Vec3;
use navstar::{
    CornerFlags, NavMesh, PathCorridor, PathMode, PathOptions, PathStatus, Query, QueryError,
    QueryFilter, Repair,
};
use proptest::prelude::*;

use crate::common::{Soup, p, point_in_polygon, seeded_grid};

/// The ground length of the way `from` through `corners`.
pub(crate) fn length(from: Vec3, corners: &[Vec3]) -> f32 {
    let mut at = from;
    corners
        .iter()
        .map(|&c| {
            let d = (c - at).with_y(0.0).length();
            at = c;
            d
        })
        .sum()
}

/// The corridor of the searched path from `start` to `goal`.
pub(crate) fn corridor_of(mesh: &NavMesh, start: Vec3, goal: Vec3) -> Option<PathCorridor> {
    let mut query = Query::new(mesh);
    let path = query.find_path(start, goal, &PathOptions::default()).ok()?;
    if path.status != PathStatus::Complete {
        return None;
    }
    let goal = *path.corners.last()?;
    let start = path.corners[0];
    let polygons: Vec<u32> = query.corridor().collect();
    let mut corridor = PathCorridor::new(mesh, *polygons.first()?, start).unwrap();
    corridor.set_corridor(goal, &polygons).unwrap();
    Some(corridor)
}

/// The polygon of the unit square with low corner (x, z) of a mesh from ASCII.
pub(crate) fn cell(mesh: &NavMesh, x: f32, z: f32) -> u32 {
    mesh.nearest_point(p(x + 0.5, z + 0.5), 0.1, None)
        .unwrap()
        .polygon
}

/// A corridor along the row z in 0..1 from (0.5, 0.5) to (x + 0.5, 0.5) (a straight path
/// needs no search and gives no corridor: set by hand).
pub(crate) fn along_row(mesh: &NavMesh, x: u32) -> PathCorridor {
    let polygons: Vec<u32> = (0..=x).map(|c| cell(mesh, c as f32, 0.0)).collect();
    let mut corridor = PathCorridor::new(mesh, polygons[0], p(0.5, 0.5)).unwrap();
    corridor
        .set_corridor(p(x as f32 + 0.5, 0.5), &polygons)
        .unwrap();
    corridor
}

/// Whether `polygons` is a chain of neighbours without a polygon twice (a fresh corridor
/// accepts it as it is).
pub(crate) fn is_simple_chain(mesh: &NavMesh, polygons: &[u32], target: Vec3) -> bool {
    let mut copy = PathCorridor::new(mesh, polygons[0], target).unwrap();
    let mut sorted = polygons.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    copy.set_corridor(target, polygons).is_ok() && sorted.len() == polygons.len()
}

#[test]
fn corners_with_details_after_each_step_round_the_u() {
    // A U: the hole is x in 1..2, z in 1..3.
    let mesh = Soup::from_ascii(&["...", ".#.", ".#."]).build();
    let mut corridor = corridor_of(&mesh, p(0.5, 2.5), p(2.5, 2.5)).unwrap();
    let options = PathOptions::default();
    let filter = QueryFilter::default();
    let expected: [&[Vec3]; 4] = [
        &[p(1.0, 1.0), p(2.0, 1.0), p(2.5, 2.5)],
        &[p(2.0, 1.0), p(2.5, 2.5)],
        &[p(2.5, 2.5)],
        &[],
    ];
    for (k, want) in expected.iter().enumerate() {
        let (corners, details) = corridor.corners_with_details(8, &options);
        assert_eq!(corners, *want, "step {k}");
        assert_eq!(details.len(), corners.len());
        for (i, detail) in details.iter().enumerate() {
            let end = i + 1 == details.len();
            assert_eq!(detail.flags.contains(CornerFlags::END), end, "step {k}");
            assert!(
                !detail
                    .flags
                    .intersects(CornerFlags::LINK_START | CornerFlags::LINK_END)
            );
            assert!(!detail.flags.contains(CornerFlags::START));
        }
        let plain = corridor.corners(8).to_vec();
        assert_eq!(plain, *want, "the plain corners agree");
        // At most one corner: the first.
        assert_eq!(
            corridor.corners_with_details(1, &options).0,
            &want[..want.len().min(1)]
        );
        if let Some(&next) = want.first() {
            assert!(corridor.move_position(next, &filter).unwrap());
            assert!(corridor.position().distance(next) < 1e-5);
        }
    }
}

#[test]
fn repair_after_closing_a_door_goes_round_it_as_a_fresh_search() {
    // Three rows of four unit squares; the agent walks along the first row.
    let mesh = Soup::from_ascii(&["....", "....", "...."]).build();
    let goal = p(3.5, 0.5);
    let mut corridor = along_row(&mesh, 3);
    let options = PathOptions::default();
    let mut query = Query::new(&mesh);
    assert_eq!(
        corridor.repair(&mut query, &options).unwrap(),
        Repair::Valid
    );
    // A step, then the door at x in 2..3 (on the corridor) closes.
    assert!(
        corridor
            .move_position(p(1.2, 0.5), &options.filter)
            .unwrap()
    );
    let door = cell(&mesh, 2.0, 0.0);
    assert!(corridor.polygons().contains(&door));
    mesh.set_polygon_flags(door, 0).unwrap();
    assert!(!corridor.is_valid(usize::MAX, &options.filter));
    let before = corridor.polygons().to_vec();
    let Repair::Repaired { kept } = corridor.repair(&mut query, &options).unwrap() else {
        panic!("the target is still reachable");
    };
    assert!(kept >= 1 && corridor.polygons()[..kept] == before[..kept]);
    assert!(corridor.is_valid(usize::MAX, &options.filter));
    assert!(is_simple_chain(&mesh, corridor.polygons(), goal));
    assert_eq!(corridor.target(), goal);
    let repaired = corridor.corners(16).to_vec();
    assert_eq!(repaired, [p(2.0, 1.0), p(3.0, 1.0), goal]);
    // The same length as a fresh search from where the agent stands.
    let here = corridor.position();
    let fresh = query.find_path(here, goal, &options).unwrap();
    let fresh_length = length(here, &fresh.corners[1..]);
    assert!((length(here, &repaired) - fresh_length).abs() < 1e-4);
    // Walked along, the agent gets there through open polygons only.
    for _ in 0..40 {
        let Some(&next) = corridor.corners(1).first() else {
            break;
        };
        let to = next - corridor.position();
        let step = corridor.position() + to * (0.3 / to.length()).min(1.0);
        corridor.move_position(step, &options.filter).unwrap();
        assert_ne!(corridor.polygons()[0], door);
    }
    assert!(corridor.position().distance(goal) < 1e-4);
}

#[test]
fn repair_reports_a_target_cut_off_and_refuses_what_it_cannot_mend() {
    // A row of four squares: closing the third cuts the fourth off.
    let mesh = Soup::from_ascii(&["...."]).build();
    let mut corridor = along_row(&mesh, 3);
    let options = PathOptions::default();
    let mut query = Query::new(&mesh);
    let door = cell(&mesh, 2.0, 0.0);
    mesh.set_polygon_flags(door, 0).unwrap();
    assert!(matches!(
        corridor.repair(&mut query, &options).unwrap(),
        Repair::CutOff { .. }
    ));
    // The corridor now ends at the wall of the door, the target moved there.
    assert!(corridor.is_valid(usize::MAX, &options.filter));
    assert!(
        (corridor.target().x - 2.0).abs() < 1e-4,
        "{}",
        corridor.target()
    );
    // The agent's own polygon closed: nothing to keep.
    let first = corridor.polygons()[0];
    mesh.set_polygon_flags(first, 0).unwrap();
    let before = corridor.polygons().to_vec();
    assert!(matches!(
        corridor.repair(&mut query, &options),
        Err(QueryError::RefusedPolygon { polygon, .. }) if polygon == first
    ));
    assert_eq!(corridor.polygons(), before, "unchanged on error");
    // A query of another mesh.
    let other = Soup::from_ascii(&["...."]).build();
    let mut elsewhere = Query::new(&other);
    assert!(matches!(
        corridor.repair(&mut elsewhere, &options),
        Err(QueryError::InvalidOption(_))
    ));
}

#[test]
fn a_repair_whose_way_takes_an_off_mesh_link_ends_at_the_link() {
    // A row of four unit squares 0 1 2 3 along x, and a link from 0 to 3.
    let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    let vertices: Vec<Vec3> = (0..5)
        .map(|x| v(x as f32, 0.0))
        .chain((0..5).map(|x| v(x as f32, 1.0)))
        .collect();
    let indices: Vec<u32> = (0..4).flat_map(|i| [i, i + 1, i + 6, i + 5]).collect();
    let links = [navstar::OffMeshLink::new(v(0.5, 0.5), v(3.5, 0.5))];
    let input = navstar::MeshInput::new(&vertices, &indices)
        .with_polygon_sizes(&[4; 4])
        .with_links(&links);
    let mesh = NavMesh::from_input(&input, &navstar::MeshOptions::default()).unwrap();
    let mut corridor = PathCorridor::new(&mesh, 0, v(0.5, 0.5)).unwrap();
    corridor.set_corridor(v(3.5, 0.5), &[0, 1, 2, 3]).unwrap();
    mesh.set_polygon_flags(1, 0).unwrap();
    let options = PathOptions::default();
    let mut query = Query::new(&mesh);
    // The only way left is the link, which a corridor does not follow: it ends where the
    // link starts, in 0, and the target moves onto 0.
    assert_eq!(
        corridor.repair(&mut query, &options).unwrap(),
        Repair::CutOff { kept: 1 }
    );
    assert_eq!(corridor.polygons(), [0]);
    assert!(
        corridor.target().distance(v(1.0, 0.5)) < 1e-5,
        "{}",
        corridor.target()
    );
    assert!(corridor.is_valid(usize::MAX, &options.filter));
}

#[test]
fn a_corridor_refuses_a_bad_polygon_or_point_and_moves_its_target() {
    let mesh = Soup::from_ascii(&["...."]).build();
    assert!(matches!(
        PathCorridor::new(&mesh, 99, p(0.5, 0.5)),
        Err(QueryError::IndexOutOfRange { index: 99, .. })
    ));
    assert!(matches!(
        PathCorridor::new(&mesh, 0, Vec3::new(f32::NAN, 0.0, 0.5)),
        Err(QueryError::NonFinitePoint(_))
    ));
    let filter = QueryFilter::default();
    let mut corridor = PathCorridor::new(&mesh, 0, p(0.5, 0.5)).unwrap();
    assert!(matches!(
        corridor.optimize_visibility(Vec3::INFINITY, &filter),
        Err(QueryError::NonFinitePoint(_))
    ));
    assert!(matches!(
        corridor.move_target(Vec3::NAN, &filter),
        Err(QueryError::NonFinitePoint(_))
    ));
    assert!(!corridor.move_target(p(3.5, 0.5), &filter).unwrap());
    assert_eq!(corridor.polygons().len(), 4);
    assert_eq!(corridor.corners(4), [p(3.5, 0.5)]);
}

proptest! {
    #![proptest_config(crate::common::proptest_config(150))]

    #[test]
    fn repair_is_valid_and_no_shorter_than_the_exact_path(
        seed in any::<u64>(),
        cols in 3usize..9,
        rows in 3usize..9,
        ends in ((any::<u32>(), 0.0f32..1.0, 0.0f32..1.0, 0.0f32..1.0), (any::<u32>(), 0.0f32..1.0, 0.0f32..1.0, 0.0f32..1.0)),
        closed in any::<u32>(),
        walked in 0.0f32..1.0,
    ) {
        let Ok(mesh) = seeded_grid(seed, cols, rows).try_build(&Default::default()) else {
            return Ok(());
        };
        let n = mesh.polygon_count();
        let point = |(k, s, t, u): (u32, f32, f32, f32)| point_in_polygon(&mesh, k % n, s, t, u);
        let Some(mut corridor) = corridor_of(&mesh, point(ends.0), point(ends.1)) else {
            return Ok(());
        };
        let options = PathOptions::default();
        // Walk part of the way, then close a polygon of the corridor ahead.
        let first_corner = corridor.corners(1)[0];
        let here = corridor.position();
        corridor.move_position(here + (first_corner - here) * walked, &options.filter).unwrap();
        let len = corridor.polygons().len();
        if len < 2 {
            return Ok(());
        }
        let door = corridor.polygons()[1 + closed as usize % (len - 1)];
        mesh.set_polygon_flags(door, 0).unwrap();
        let target = corridor.target();
        let here = corridor.position();
        let mut query = Query::new(&mesh);
        let outcome = corridor.repair(&mut query, &options).unwrap();
        let exact = query
            .find_path(here, target, &PathOptions::default().with_mode(PathMode::Optimal))
            .unwrap();
        prop_assert!(corridor.is_valid(usize::MAX, &options.filter));
        prop_assert!(is_simple_chain(&mesh, corridor.polygons(), corridor.target()));
        match outcome {
            Repair::Repaired { .. } => {
                prop_assert_eq!(exact.status, PathStatus::Complete);
                prop_assert_eq!(corridor.target(), target);
                let repaired = length(here, corridor.corners(usize::MAX));
                let shortest = length(here, &exact.corners[1..]);
                prop_assert!(repaired >= shortest - 1e-3 * shortest.max(1.0), "{repaired} < {shortest}");
            }
            Repair::CutOff { .. } => {
                let end = *exact.corners.last().unwrap();
                prop_assert!(exact.status.is_partial() || end.distance(target) > 1e-4);
            }
            other => prop_assert!(false, "{other:?} after closing {door}"),
        }
        // Shortening by sight keeps the corridor valid and never makes the way longer.
        let before = length(here, corridor.corners(usize::MAX));
        let corners = corridor.corners(usize::MAX).to_vec();
        if let Some(&far) = corners.last() {
            corridor.optimize_visibility(far, &options.filter).unwrap();
            prop_assert!(corridor.is_valid(usize::MAX, &options.filter));
            prop_assert!(is_simple_chain(&mesh, corridor.polygons(), corridor.target()));
            let after = length(here, corridor.corners(usize::MAX));
            prop_assert!(after <= before + 1e-3 * before.max(1.0), "{after} > {before}");
        }
    }
}
