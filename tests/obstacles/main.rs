//! Obstacles carved into meshes and worlds at run time (issue 18): known answers on
//! hand-made rooms and corridors ([`known`]), the exact mode's lengths against an
//! independent oracle on random rooms with random obstacles ([`oracle`]: the room minus
//! the obstacles computed with `geo`'s booleans, then a visibility graph), polygon
//! references across obstacle changes ([`refs`]: known cases, and kept references on
//! random rooms either naming their polygon or stale only where a change cut),
//! threads querying while another adds and removes obstacles ([`threads`]), and the
//! incremental path on one big tile against a carve from scratch ([`incremental`]).

#[path = "../common/clearance_oracle/mod.rs"]
mod clearance_oracle;
#[path = "../common/mod.rs"]
mod common;
mod flags;
mod incremental;
mod known;
mod oracle;
mod refs;
mod threads;

use glam::Vec3;
use navstar::{MeshOptions, NavMesh};

/// A ground point of a Y-up mesh.
pub fn v(x: f32, z: f32) -> Vec3 {
    Vec3::new(x, 0.0, z)
}

/// A `width` x `depth` room (Y up, corner at the origin) made of `cols` x `rows` equal
/// rectangles that share their edges.
pub fn room(width: f32, depth: f32, cols: u32, rows: u32) -> NavMesh {
    let mut vertices = Vec::new();
    for j in 0..=rows {
        for i in 0..=cols {
            vertices.push(v(
                width * i as f32 / cols as f32,
                depth * j as f32 / rows as f32,
            ));
        }
    }
    let at = |i: u32, j: u32| j * (cols + 1) + i;
    let mut indices = Vec::new();
    for j in 0..rows {
        for i in 0..cols {
            indices.extend([at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)]);
        }
    }
    let sizes = vec![4; (cols * rows) as usize];
    NavMesh::from_polygons(&vertices, &indices, &sizes, &MeshOptions::default()).unwrap()
}
