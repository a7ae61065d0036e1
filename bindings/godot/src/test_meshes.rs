//! Hand-made meshes shared by the unit tests (y up, as Godot's 3D nodes).

use crate::navigator::{Navigator, Settings};

/// Two unit squares that do not touch, at x 0..1 and 3..4 (z 0..1): two islands.
pub const TWO_SQUARES: [[f32; 3]; 8] = [
    [0.0, 0.0, 0.0],
    [1.0, 0.0, 0.0],
    [1.0, 0.0, 1.0],
    [0.0, 0.0, 1.0],
    [3.0, 0.0, 0.0],
    [4.0, 0.0, 0.0],
    [4.0, 0.0, 1.0],
    [3.0, 0.0, 1.0],
];

/// The polygons of [`TWO_SQUARES`].
pub const TWO_SQUARE_POLYGONS: [&[i32]; 2] = [&[0, 1, 2, 3], &[4, 5, 6, 7]];

/// A square room `[0, 10] x [0, 10]` as four 5 x 5 polygons.
pub fn room() -> Navigator {
    let mut vertices = Vec::new();
    for z in [0.0, 5.0, 10.0] {
        for x in [0.0, 5.0, 10.0] {
            vertices.push([x, 0.0, z]);
        }
    }
    let polygons: [&[i32]; 4] = [&[0, 1, 4, 3], &[1, 2, 5, 4], &[3, 4, 7, 6], &[4, 5, 8, 7]];
    let mut nav = Navigator::default();
    nav.build(vertices, polygons, &Settings::default()).unwrap();
    nav
}
