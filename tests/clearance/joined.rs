//! Path searches for a disc run on the eroded mesh's pieces joined across the original
//! polygons' borders (`mesh/clearance/joined.rs`): the corridor still names the
//! original polygons, each the neighbour of the one before, from the one holding the
//! start to the one holding the goal; a flag change that closes one original polygon
//! under a joined piece is honoured at once (the eroded mesh is rebuilt for the flags'
//! new generation); the sliced search gives the same answer.

use glam::Vec3;
use navstar::{
    MeshOptions, NavMesh, PathMode, PathOptions, PathStatus, Query, QueryFilter, SliceStatus,
};

/// An L of five unit squares (Y up): 0, 1, 2 along x at z in 0..1, then 3 and 4 above
/// square 2 (x in 2..3, z in 1..2 and 2..3).
fn l_of_five() -> NavMesh {
    let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    let vertices = [
        v(0.0, 0.0),
        v(1.0, 0.0),
        v(2.0, 0.0),
        v(3.0, 0.0),
        v(0.0, 1.0),
        v(1.0, 1.0),
        v(2.0, 1.0),
        v(3.0, 1.0),
        v(2.0, 2.0),
        v(3.0, 2.0),
        v(2.0, 3.0),
        v(3.0, 3.0),
    ];
    #[rustfmt::skip]
    let indices = [
        0, 1, 5, 4, /**/ 1, 2, 6, 5, /**/ 2, 3, 7, 6,
        6, 7, 9, 8, /**/ 8, 9, 11, 10,
    ];
    NavMesh::from_polygons(&vertices, &indices, &[4; 5], &MeshOptions::default()).unwrap()
}

const START: Vec3 = Vec3::new(0.5, 0.0, 0.5);
const GOAL: Vec3 = Vec3::new(2.5, 0.0, 2.5);
const R: f32 = 0.25;

/// Asserts that `corridor` runs through neighbouring polygons of `mesh`.
#[track_caller]
fn assert_connected(mesh: &NavMesh, corridor: &[u32]) {
    for pair in corridor.windows(2) {
        let neighbours: Vec<u32> = mesh.polygon_neighbours(pair[0]).flatten().collect();
        assert!(
            neighbours.contains(&pair[1]),
            "{corridor:?}: {pair:?} are not neighbours"
        );
    }
}

#[test]
fn corridor_names_the_original_squares_in_both_searches() {
    let mesh = l_of_five();
    let mut query = Query::new(&mesh);
    let options = PathOptions::default().with_agent_radius(R);
    let path = query.find_path_vec(START, GOAL, &options).unwrap();
    assert_eq!(path.status, PathStatus::Complete);
    let corridor: Vec<u32> = query.corridor().collect();
    assert_eq!(corridor, [0, 1, 2, 3, 4]);
    // One search: over the joined pieces, its path walked across the squares (a walk
    // that failed would search the unjoined pieces again).
    assert_eq!(query.last_search_stats().searches, 1);
    assert_connected(&mesh, &corridor);
    // The corner round the inner corner (2, 1) keeps the radius from it.
    for c in &path.corners {
        assert!((c.x - 2.0).hypot(c.z - 1.0) >= R - 1e-4, "{c}");
    }
    // The sliced search: the same corners and corridor.
    let mut sliced = Query::new(&mesh);
    let mut status = sliced.begin_path(START, GOAL, &options).unwrap();
    while status == SliceStatus::InProgress {
        status = sliced.advance_path(1).unwrap().status;
    }
    let finished = sliced.finish_path().unwrap();
    assert_eq!(finished.corners, &path.corners[..]);
    assert_eq!(sliced.corridor().collect::<Vec<_>>(), corridor);
}

#[test]
fn closing_one_square_under_a_joined_piece_is_honoured_at_once() {
    let mesh = l_of_five();
    let mut query = Query::new(&mesh);
    let closed = QueryFilter::default().with_exclude_flags(2);
    for mode in [PathMode::Funnel, PathMode::Optimal] {
        let options = PathOptions::default()
            .with_agent_radius(R)
            .with_mode(mode)
            .with_filter(closed.clone());
        let open = query.find_path_vec(START, GOAL, &options).unwrap();
        assert_eq!(open.status, PathStatus::Complete, "{mode:?}");
        // Square 1, in the middle of the bottom row, closed to this filter.
        mesh.set_polygon_flags(1, 2).unwrap();
        let path = query.find_path_vec(START, GOAL, &options).unwrap();
        assert_eq!(path.status, PathStatus::Partial, "{mode:?}");
        for c in &path.corners {
            assert!(
                c.x <= 1.0 - R + 1e-4,
                "{mode:?}: {c} beyond the closed square"
            );
        }
        assert!(query.corridor().all(|p| p == 0), "{mode:?}");
        // A filter that does not refuse the flag still goes through.
        let all = PathOptions::default().with_agent_radius(R).with_mode(mode);
        let through = query.find_path_vec(START, GOAL, &all).unwrap();
        assert_eq!(through.status, PathStatus::Complete, "{mode:?}");
        // Opened again.
        mesh.set_polygon_flags(1, navstar::DEFAULT_FLAGS).unwrap();
        let again = query.find_path_vec(START, GOAL, &options).unwrap();
        assert_eq!(again, open, "{mode:?}");
    }
}
