//! Corridors exactly `2r` wide, the critical width, where the bands along the two walls
//! would meet along a line: the erosion must finish (den520d at radius 0.5 once made the
//! boolean library loop, allocating without bound), keep `r` from every wall, and leave
//! the corridor closed (the region is a line there, without area).

use std::fs::File;
use std::io::BufReader;
use std::path::Path;

use glam::{DVec2, Vec3};
use navstar::io::{parse_movingai_map, parse_scenario};
use navstar::{MeshOptions, NavMesh, PathMode, PathStatus, QueryFilter};

use crate::common::Domain;
use crate::radius::{CLEARANCE, clearance, path};

const GRID_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/grid");

/// Two rooms `[0, 4] x [0, 4]` and `[5, 9] x [0, 4]` (Z up) joined by a corridor
/// `[4, 5] x [1.5, 1.5 + width]`, in five polygons (the corridor in two).
fn rooms(width: f32) -> NavMesh {
    let v = |x: f32, y: f32| Vec3::new(x, y, 0.0);
    let (lo, hi) = (1.5, 1.5 + width);
    let vertices = [
        // Left room, with the corridor's mouth on its right side.
        v(0.0, 0.0),
        v(4.0, 0.0),
        v(4.0, lo),
        v(4.0, hi),
        v(4.0, 4.0),
        v(0.0, 4.0),
        // Corridor's middle.
        v(4.5, lo),
        v(4.5, hi),
        // Right room.
        v(5.0, lo),
        v(5.0, hi),
        v(5.0, 0.0),
        v(9.0, 0.0),
        v(9.0, 4.0),
        v(5.0, 4.0),
    ];
    let indices = [
        0, 1, 2, 3, 4, 5, // left room
        2, 6, 7, 3, // corridor, left half
        6, 8, 9, 7, // corridor, right half
        10, 11, 12, 13, 9, 8, // right room
    ];
    let options = MeshOptions::default().with_up_axis(navstar::UpAxis::Z);
    NavMesh::from_polygons(&vertices, &indices, &[6, 4, 4, 6], &options).unwrap()
}

#[test]
fn corridor_of_exactly_twice_the_radius_is_closed_and_a_wider_one_open() {
    let r = 0.5;
    let (s, t) = (DVec2::new(2.0, 2.0), DVec2::new(7.0, 2.0));
    for (width, open) in [(1.0, false), (1.001, true)] {
        let mesh = rooms(width);
        let domain = Domain::new(&mesh);
        for mode in [PathMode::Funnel, PathMode::Optimal] {
            let (status, corners) = path(&mesh, r, s, t, mode, &QueryFilter::default()).unwrap();
            let context = format!("width {width}, {mode:?}: {corners:?}");
            assert_eq!(status == PathStatus::Complete, open, "{context}");
            assert!(clearance(&domain, &corners) >= r - CLEARANCE, "{context}");
            if !open {
                // The partial path ends in the left room, short of the corridor.
                let end = corners.last().unwrap();
                assert!(end.x < 4.0, "{context}");
            }
        }
    }
}

#[test]
fn den520d_at_half_a_cell_erodes_and_keeps_the_radius() {
    let path_of = Path::new(GRID_DIR).join("den520d.map");
    let map = parse_movingai_map(BufReader::new(File::open(&path_of).unwrap())).unwrap();
    let mesh = map.to_mesh(&MeshOptions::default()).unwrap();
    let region = mesh
        .agent_region(0.5, None)
        .expect("the erosion finishes")
        .expect("0.5 is above the baked radius");
    assert!(region.polygon_count() > mesh.polygon_count());
    // Some scenario paths at radius 0.5, each keeping the radius from every wall.
    let scen = Path::new(GRID_DIR).join("den520d.map.scen");
    let problems = parse_scenario(BufReader::new(File::open(&scen).unwrap())).unwrap();
    let domain = Domain::new(&mesh);
    let up = mesh.up_axis();
    let step = (problems.len() / 20).max(1);
    let mut complete = 0;
    for problem in problems.iter().step_by(step) {
        let s = up.ground(problem.grid_start()).as_dvec2();
        let t = up.ground(problem.grid_goal()).as_dvec2();
        let (status, corners) =
            path(&mesh, 0.5, s, t, PathMode::Funnel, &QueryFilter::default()).unwrap();
        assert!(
            clearance(&domain, &corners) >= 0.5 - CLEARANCE,
            "{s} -> {t}: {corners:?}"
        );
        complete += usize::from(status == PathStatus::Complete);
    }
    assert!(complete > 0);
}
