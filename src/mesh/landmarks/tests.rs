//! The landmark bounds on hand-made meshes: exact distances where the graph is a line.

use glam::Vec3;

use super::*;
use crate::{MeshOptions, NavMesh};

/// A strip of `n` unit squares along x (y up): polygon `i` is `[i, i+1] x [0, 1]`.
fn strip(n: u32) -> NavMesh {
    let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    let mut vertices = Vec::new();
    for i in 0..=n {
        vertices.push(v(i as f32, 0.0));
        vertices.push(v(i as f32, 1.0));
    }
    let mut indices = Vec::new();
    for i in 0..n {
        indices.extend([2 * i, 2 * i + 2, 2 * i + 3, 2 * i + 1]);
    }
    let sizes = vec![4; n as usize];
    NavMesh::from_polygons(&vertices, &indices, &sizes, &MeshOptions::default()).unwrap()
}

#[test]
fn a_strip_gets_exact_distances_between_its_portals() {
    let mesh = strip(10);
    let data = mesh.data();
    let table = data.landmarks().expect("a strip has portals");
    // Nine portals at x = 1..9, one unit apart: the graph is a line.
    assert_eq!(table.graph.node_count(), 9);
    // The first landmark is an end of the line.
    let ends: Vec<u32> = (0..data.polygon_count())
        .flat_map(|p| data.corner_range(p))
        .map(|s| table.slot_node(s))
        .filter(|&n| n != NONE)
        .collect();
    assert_eq!(ends.len(), 18);
    // Goal in the last square: its one portal is at x = 9; from the portal at x = 1
    // at least 8 to go, from the goal square's own portal nothing.
    let goal = table.goal([9]);
    let slot_at = |p: u32, x: f32| {
        data.corner_range(p)
            .find(|&s| {
                let (u, w) = data.edge(p, s);
                data.neighbours[s] != crate::mesh::NO_NEIGHBOUR
                    && data.ground[u as usize].x == x
                    && data.ground[w as usize].x == x
            })
            .unwrap()
    };
    let h = table.remaining(&goal, table.slot_node(slot_at(0, 1.0)));
    assert!((h - 8.0).abs() < 1e-4, "{h}");
    assert_eq!(
        table.remaining(&goal, table.slot_node(slot_at(8, 9.0))),
        0.0
    );
    // Walls give nothing.
    assert_eq!(table.remaining(&goal, NONE), 0.0);
}

#[test]
fn a_single_polygon_gets_no_table() {
    let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    let vertices = [v(0.0, 0.0), v(1.0, 0.0), v(1.0, 1.0)];
    let mesh = NavMesh::from_triangles(&vertices, &[0, 1, 2], &MeshOptions::default()).unwrap();
    assert!(!mesh.prepare_landmarks());
    assert_eq!(mesh.landmark_bytes(), 0);
}

#[test]
fn segment_gaps() {
    use glam::DVec2;
    let d = |x: f64, y: f64| DVec2::new(x, y);
    assert_eq!(
        graph::segment_gap(d(0., 0.), d(1., 0.), d(0., 2.), d(1., 2.)),
        2.0
    );
    // Crossing segments are 0 apart.
    assert_eq!(
        graph::segment_gap(d(0., 0.), d(2., 2.), d(0., 2.), d(2., 0.)),
        0.0
    );
    // A point and a segment.
    assert_eq!(
        graph::segment_gap(d(3., 0.), d(3., 0.), d(0., 0.), d(1., 0.)),
        2.0
    );
}
