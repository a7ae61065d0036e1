//! The corridor walk of `eroded_corridor.rs` and its fallback, driven directly: a path
//! that leaves the mesh is refused (and the corridor cleared), the search on the
//! unjoined pieces that then answers names original polygons, each the neighbour of the
//! one before, and a walked corridor ends in a polygon under the last joined one.

use glam::Vec3;

use super::Query;
use super::clearance::eroded_options;
use crate::corridor::{CorridorStep, LAST_STEP};
use crate::filter::QueryFilter;
use crate::mesh::{MeshOptions, NavMesh};
use crate::{PathOptions, PathStatus};

/// A U of seven unit squares (Y up): 0, 1, 2 along x at z in 0..1, 3 and 4 above
/// square 2, then 5 and 6 back along x at z in 2..3 (x in 1..2 and 0..1).
fn u_of_seven() -> NavMesh {
    let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    let mut vertices = Vec::new();
    for z in 0..4 {
        for x in 0..4 {
            vertices.push(v(x as f32, z as f32));
        }
    }
    let at = |x: u32, z: u32| z * 4 + x;
    let square = |x: u32, z: u32| [at(x, z), at(x + 1, z), at(x + 1, z + 1), at(x, z + 1)];
    let cells = [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (1, 2), (0, 2)];
    let indices: Vec<u32> = cells.iter().flat_map(|&(x, z)| square(x, z)).collect();
    NavMesh::from_polygons(&vertices, &indices, &[4; 7], &MeshOptions::default()).unwrap()
}

const START: Vec3 = Vec3::new(0.5, 0.0, 0.5);
const GOAL: Vec3 = Vec3::new(0.5, 0.0, 2.5);
const R: f32 = 0.25;

#[track_caller]
fn assert_connected(mesh: &NavMesh, corridor: &[u32]) {
    for pair in corridor.windows(2) {
        assert!(
            mesh.polygon_neighbours(pair[0])
                .flatten()
                .any(|n| n == pair[1]),
            "{corridor:?}: {pair:?}"
        );
    }
}

#[test]
fn a_path_through_a_wall_is_refused_and_the_pieces_answer() {
    let mesh = u_of_seven();
    let eroded = mesh
        .data()
        .eroded(R, &QueryFilter::default(), true)
        .unwrap();
    let joined = eroded.joined.as_ref().expect("the squares' pieces join");
    let mut query = Query::new(&mesh);
    let options = PathOptions::default().with_agent_radius(R);
    query.find_path(START, GOAL, &options).unwrap();
    let walked: Vec<u32> = query.corridor().collect();
    assert_eq!(walked, [0, 1, 2, 3, 4, 5, 6]);

    // The straight line from start to goal crosses the wall between squares 0 and 6.
    query.path.clear();
    query.path.corners.extend([START, GOAL]);
    let first = joined.mesh.nearest_point(START, 1.0, None).unwrap().polygon;
    let last = joined.mesh.nearest_point(GOAL, 1.0, None).unwrap().polygon;
    query.corridor.clear();
    for polygon in [first, last] {
        query.corridor.push(CorridorStep {
            polygon,
            exit: LAST_STEP,
        });
    }
    assert!(!query.corridor_from_eroded(&eroded));
    assert_eq!(query.corridor().count(), 0);

    // The fallback: the search on the unjoined pieces, renamed to the squares.
    let inner = eroded_options(&options);
    let status = query.path_on_pieces(START, GOAL, &inner, &eroded).unwrap();
    assert_eq!(status, PathStatus::Complete);
    let on_pieces: Vec<u32> = query.corridor().collect();
    assert_eq!(on_pieces, walked);
    assert_connected(&mesh, &on_pieces);
    // Its corners keep the radius from the U's inner block (x in 0..2, z in 1..2).
    for c in &query.path.corners {
        let dx = (c.x - 2.0).max(0.0);
        let dz = (1.0 - c.z).max(c.z - 2.0).max(0.0);
        assert!(dx.hypot(dz) >= R - 1e-4, "{c}");
    }
}
