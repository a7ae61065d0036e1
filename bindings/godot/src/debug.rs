//! Geometry for drawing a mesh in the editor or at run time: triangles for an
//! `ArrayMesh` surface and line segments for walls and for edges shared by two polygons.
//! Plain Rust over a [`NavMesh`]; the class packs the results into Godot arrays.

use navstar::NavMesh;
use navstar::glam::Vec3;

/// Triangles ready for `ArrayMesh.add_surface_from_arrays(Mesh.PRIMITIVE_TRIANGLES, ...)`:
/// each polygon fanned from its first corner, with its own copy of its corners (so a
/// per-polygon colour can be added alongside).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Triangles {
    /// Corner positions, polygon after polygon.
    pub vertices: Vec<Vec3>,
    /// Three indices into `vertices` per triangle.
    pub indices: Vec<i32>,
    /// For each entry of `vertices`, the polygon it belongs to.
    pub polygons: Vec<i64>,
}

/// The mesh's polygons as triangles (see [`Triangles`]). navstar lists corners
/// counter-clockwise in the ground plane; draw with culling disabled to see them from
/// either side.
pub fn triangles(mesh: &NavMesh) -> Triangles {
    let mut out = Triangles::default();
    for polygon in mesh.polygon_ids() {
        let first = out.vertices.len() as i32;
        let corners = mesh.polygon_vertices(polygon);
        out.vertices.extend(corners.iter().map(|&v| mesh.vertex(v)));
        out.polygons
            .extend(std::iter::repeat_n(i64::from(polygon), corners.len()));
        for i in 1..corners.len().saturating_sub(1) as i32 {
            out.indices.extend([first, first + i, first + i + 1]);
        }
    }
    out
}

/// Which edges [`edges`] lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EdgeKind {
    /// Edges with no polygon on the other side: where agents cannot go.
    Walls,
    /// Edges shared by two polygons, each listed once.
    Portals,
}

/// The mesh's edges of one kind as pairs of points (`Mesh.PRIMITIVE_LINES`).
pub fn edges(mesh: &NavMesh, kind: EdgeKind) -> Vec<Vec3> {
    let mut lines = Vec::new();
    for polygon in mesh.polygon_ids() {
        let corners = mesh.polygon_vertices(polygon);
        for (i, neighbour) in mesh.polygon_neighbours(polygon).enumerate() {
            let wanted = match (kind, neighbour) {
                (EdgeKind::Walls, None) => true,
                // Shared edges once: from the polygon with the lower id.
                (EdgeKind::Portals, Some(other)) => polygon < other,
                _ => false,
            };
            if wanted {
                let next = corners[(i + 1) % corners.len()];
                lines.extend([mesh.vertex(corners[i]), mesh.vertex(next)]);
            }
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use navstar::MeshOptions;

    /// Three unit squares in a row along x (y up).
    fn row() -> NavMesh {
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
        ];
        let indices = [0, 1, 5, 4, 1, 2, 6, 5, 2, 3, 7, 6];
        NavMesh::from_polygons(&vertices, &indices, &[4, 4, 4], &MeshOptions::default()).unwrap()
    }

    /// Sum of the ground-plane areas of the triangles.
    fn area(t: &Triangles) -> f32 {
        t.indices
            .chunks(3)
            .map(|i| {
                let [a, b, c] = [0, 1, 2].map(|k| t.vertices[i[k] as usize]);
                ((b - a).cross(c - a)).y.abs() / 2.0
            })
            .sum()
    }

    #[test]
    fn triangles_cover_each_polygon() {
        let t = triangles(&row());
        assert_eq!(t.vertices.len(), 12);
        assert_eq!(t.indices.len(), 3 * 2 * 3);
        assert_eq!(t.polygons, [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2]);
        assert!(t.indices.iter().all(|&i| (0..12).contains(&i)));
        // Each triangle stays within its polygon's corners.
        for tri in t.indices.chunks(3) {
            let p = t.polygons[tri[0] as usize];
            assert!(tri.iter().all(|&i| t.polygons[i as usize] == p));
        }
        assert!((area(&t) - 3.0).abs() < 1e-6);
    }

    #[test]
    fn walls_and_portals_split_the_edges() {
        let mesh = row();
        let walls = edges(&mesh, EdgeKind::Walls);
        let portals = edges(&mesh, EdgeKind::Portals);
        // 3 squares: 12 edges, 2 shared (listed once) and 8 walls.
        assert_eq!((walls.len(), portals.len()), (16, 4));
        let mut shared: Vec<f32> = portals.iter().map(|p| p.x).collect();
        shared.sort_by(f32::total_cmp);
        assert_eq!(shared, [1.0, 1.0, 2.0, 2.0]);
        // Total wall length: the perimeter of the 3 x 1 strip.
        let length: f32 = walls.chunks(2).map(|s| s[0].distance(s[1])).sum();
        assert!((length - 8.0).abs() < 1e-6);
    }
}
