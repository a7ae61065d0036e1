//! Finds a path with points of glam 0.33 (Bevy 0.20's `Vec3`) handed to navstar as they
//! are: the program compiles only if navstar's `Vec3` is that very type.

use glam::Vec3;
use navstar::{MeshOptions, NavMesh, PathOptions, PathStatus, Query};

fn main() {
    // Two 4 x 4 squares side by side, joined along x = 4 (Y up, as in Bevy).
    let vertices: [Vec3; 6] = [
        Vec3::new(0.0, 0.0, 0.0),
        Vec3::new(4.0, 0.0, 0.0),
        Vec3::new(4.0, 0.0, 4.0),
        Vec3::new(0.0, 0.0, 4.0),
        Vec3::new(8.0, 0.0, 0.0),
        Vec3::new(8.0, 0.0, 4.0),
    ];
    let mesh = NavMesh::from_polygons(
        &vertices,
        &[0, 3, 2, 1, 1, 2, 5, 4],
        &[4, 4],
        &MeshOptions::default(),
    )
    .expect("the mesh builds");
    let mut query = Query::new(&mesh);
    let start: Vec3 = Vec3::new(1.0, 0.0, 1.0);
    let goal: Vec3 = Vec3::new(7.0, 0.0, 3.0);
    let path = query
        .find_path(start, goal, &PathOptions::default())
        .expect("a path");
    assert_eq!(path.status, PathStatus::Complete);
    let corners: Vec<Vec3> = path.corners.to_vec();
    assert_eq!(corners.first(), Some(&start));
    assert_eq!(corners.last(), Some(&goal));
    let length = path.length();
    assert!((length - start.distance(goal)).abs() < 1e-5, "{length}");
    println!("glam 0.33 path: {corners:?}, length {length}");
    println!("1 passed, 0 failed");
}
