//! Hand-made meshes of the simulation's tests (y up, unit squares).

use navstar::glam::Vec3;
use navstar::{MeshOptions, NavMesh};

/// `squares` unit squares in a row along x (polygons 0 to `squares - 1`), then `up` more
/// going up in z from the last one (polygons `squares` to `squares + up - 1`): an L when
/// `up > 0`, so that a path round its corner needs a search.
pub fn row_then_up(squares: u32, up: u32) -> NavMesh {
    let v = |x: u32, z: u32| Vec3::new(x as f32, 0.0, z as f32);
    let width = squares + 1;
    let mut vertices: Vec<Vec3> = (0..width)
        .map(|x| v(x, 0))
        .chain((0..width).map(|x| v(x, 1)))
        .collect();
    let mut indices: Vec<u32> = (0..squares)
        .flat_map(|i| [i, i + 1, i + width + 1, i + width])
        .collect();
    // The column stands on the top edge of the last square: (squares - 1, 1) to (squares, 1).
    let (mut left, mut right) = (2 * width - 2, 2 * width - 1);
    for z in 2..up + 2 {
        let next = vertices.len() as u32;
        vertices.extend([v(squares - 1, z), v(squares, z)]);
        indices.extend([left, right, next + 1, next]);
        (left, right) = (next, next + 1);
    }
    let sizes = vec![4; (squares + up) as usize];
    NavMesh::from_polygons(&vertices, &indices, &sizes, &MeshOptions::default())
        .expect("a valid test mesh")
}
