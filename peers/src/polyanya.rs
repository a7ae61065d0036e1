//! A wrapper over the `polyanya` crate (vleue, 0.18): exact any-angle shortest paths on a
//! navstar mesh, used as the reference length in comparisons.
//!
//! The Polyanya mesh is built from the navstar mesh's polygons, so that all libraries
//! search the same polygons: the ground-plane projection of each vertex becomes a
//! Polyanya vertex, each polygon keeps its (counter-clockwise) corners, and each vertex
//! lists the polygons around it counter-clockwise, with `u32::MAX` wherever the fan is
//! open (an obstacle or the outside). The fans are walked through navstar's neighbour
//! links, so two polygons that only touch at a vertex stay unconnected, as in navstar.
//!
//! Meshes that are not flat (Recast meshes of multi-storey levels, whose polygons overlap
//! in the ground plane) keep their vertex heights; the start and goal are then located
//! with [`::polyanya::Mesh::get_closest_point_at_height`], which picks the polygon at the
//! right height, and the search itself follows the mesh topology. Lengths are always
//! measured in the ground plane. `polyanya` uses glam 0.33; conversion happens here.

use glam33::Vec2 as PVec2;
use navstar::glam::Vec3;
use navstar::{NavMesh, UpAxis};

/// A Polyanya mesh built from a navstar mesh.
#[derive(Debug, Clone)]
pub struct PolyanyaMesh {
    mesh: ::polyanya::Mesh,
    up: UpAxis,
    flat: bool,
}

/// The polygons around each vertex, counter-clockwise, `u32::MAX` where the fan is open.
fn vertex_fans(mesh: &NavMesh) -> Vec<Vec<u32>> {
    let up = mesh.up_axis();
    let vertices = mesh.vertices();
    // (polygon, corner slot) at each vertex.
    let mut incident: Vec<Vec<(u32, usize)>> = vec![Vec::new(); vertices.len()];
    for p in 0..mesh.polygon_count() {
        for (i, &v) in mesh.polygon_vertices(p).iter().enumerate() {
            incident[v as usize].push((p, i));
        }
    }
    let mut fans = vec![Vec::new(); vertices.len()];
    for (v, around) in incident.iter().enumerate() {
        if around.is_empty() {
            continue;
        }
        // Across the edge that leaves `v` (clockwise side) and the one that arrives at
        // `v` (counter-clockwise side) of polygon `p` at corner `i`.
        let cw = |(p, i): (u32, usize)| mesh.polygon_neighbours(p).nth(i).flatten();
        let ccw = |(p, i): (u32, usize)| {
            let n = mesh.polygon_vertices(p).len();
            mesh.polygon_neighbours(p).nth((i + n - 1) % n).flatten()
        };
        let slot_of = |p: u32| around.iter().copied().find(|&(q, _)| q == p);
        let walk = |first: (u32, usize), fan: &mut Vec<u32>| {
            let mut at = first;
            for _ in 0..around.len() {
                fan.push(at.0);
                match ccw(at).and_then(slot_of) {
                    Some(next) if next != first => at = next,
                    _ => break,
                }
            }
        };
        let starts: Vec<(u32, usize)> = around
            .iter()
            .copied()
            .filter(|&c| cw(c).and_then(slot_of).is_none())
            .collect();
        if starts.is_empty() {
            // An interior vertex: one closed fan.
            walk(around[0], &mut fans[v]);
            continue;
        }
        // Several open fans (polygons touching only at this vertex): in angular order
        // of the edge each fan starts with, each followed by a gap.
        let origin = up.ground(vertices[v]);
        let angle = |(p, i): (u32, usize)| {
            let corners = mesh.polygon_vertices(p);
            let next = corners[(i + 1) % corners.len()];
            let d = up.ground(vertices[next as usize]) - origin;
            d.y.atan2(d.x)
        };
        let mut starts = starts;
        starts.sort_by(|&a, &b| angle(a).total_cmp(&angle(b)));
        for start in starts {
            walk(start, &mut fans[v]);
            fans[v].push(u32::MAX);
        }
    }
    fans
}

impl PolyanyaMesh {
    /// Builds the Polyanya mesh of `mesh`'s polygons (see the module docs).
    ///
    /// # Errors
    /// Polyanya's error if it rejects the mesh.
    pub fn from_navmesh(mesh: &NavMesh) -> Result<Self, ::polyanya::MeshError> {
        let up = mesh.up_axis();
        let fans = vertex_fans(mesh);
        let mut remap = vec![u32::MAX; mesh.vertices().len()];
        let mut vertices = Vec::new();
        let mut heights = Vec::new();
        for (v, fan) in fans.into_iter().enumerate() {
            if fan.is_empty() {
                continue;
            }
            let p = mesh.vertices()[v];
            let g = up.ground(p);
            remap[v] = vertices.len() as u32;
            vertices.push(::polyanya::Vertex::new(PVec2::new(g.x, g.y), fan));
            heights.push(up.height(p));
        }
        let polygons = (0..mesh.polygon_count())
            .map(|p| {
                let corners = mesh
                    .polygon_vertices(p)
                    .iter()
                    .map(|&v| remap[v as usize])
                    .collect();
                let links = mesh.polygon_neighbours(p).flatten().count();
                ::polyanya::Polygon::new(corners, links <= 1)
            })
            .collect();
        let flat = heights.iter().all(|&h| h == heights[0]);
        let mut pmesh = ::polyanya::Mesh::new(vertices, polygons)?;
        if !flat {
            pmesh.layers[0].set_heights(heights)?;
        }
        Ok(PolyanyaMesh {
            mesh: pmesh,
            up,
            flat,
        })
    }

    /// The underlying Polyanya mesh.
    pub fn mesh(&self) -> &::polyanya::Mesh {
        &self.mesh
    }

    /// Whether all vertices have the same height (then points are located in 2D only).
    pub fn is_flat(&self) -> bool {
        self.flat
    }

    /// The shortest path from `start` to `goal` (navstar world coordinates), in the
    /// ground plane: the corners, starting with the start's ground point (as Polyanya
    /// located it) and ending with the goal's, and Polyanya's length.
    ///
    /// `None` when a point is not on the mesh or the goal is unreachable.
    pub fn path(&self, start: [f32; 3], goal: [f32; 3]) -> Option<(Vec<[f32; 2]>, f32)> {
        let locate = |p: [f32; 3]| {
            let p = Vec3::from_array(p);
            let g = self.up.ground(p);
            let g = PVec2::new(g.x, g.y);
            if self.flat {
                Some(::polyanya::Coords::on_mesh(g))
            } else {
                self.mesh.get_closest_point_at_height(g, self.up.height(p))
            }
        };
        let from = locate(start)?;
        let to = locate(goal)?;
        let path = self.mesh.path(from, to)?;
        let mut corners = Vec::with_capacity(path.path.len() + 1);
        corners.push(from.position().to_array());
        corners.extend(path.path.iter().map(|p| p.to_array()));
        Some((corners, path.length))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use navstar::MeshOptions;

    #[test]
    fn fans_of_a_square_split_in_four() {
        // Centre vertex 4 is interior; the corners are open fans.
        let vertices = [
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(2.0, 0.0, 0.0),
            Vec3::new(2.0, 2.0, 0.0),
            Vec3::new(0.0, 2.0, 0.0),
            Vec3::new(1.0, 1.0, 0.0),
        ];
        let indices = [0, 1, 4, 1, 2, 4, 2, 3, 4, 3, 0, 4];
        let mesh = NavMesh::from_triangles(
            &vertices,
            &indices,
            &MeshOptions::default().with_up_axis(UpAxis::Z),
        )
        .unwrap();
        let fans = vertex_fans(&mesh);
        let mut centre = fans[4].clone();
        assert_eq!(centre.len(), 4, "{fans:?}");
        // Counter-clockwise: 0, 1, 2, 3 up to rotation.
        let start = centre.iter().position(|&p| p == 0).unwrap();
        centre.rotate_left(start);
        assert_eq!(centre, [0, 1, 2, 3]);
        // Corner 1 = (2, 0) is shared by triangles 1 (angles 90..135 degrees around it)
        // and 0 (135..180): counter-clockwise 1 then 0, then the outside.
        assert_eq!(fans[1], [1, 0, u32::MAX]);
    }

    #[test]
    fn diagonal_touch_is_two_open_fans() {
        // Two unit squares touching only at (1, 1).
        let vertices = [
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(1.0, 1.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
            Vec3::new(2.0, 1.0, 0.0),
            Vec3::new(2.0, 2.0, 0.0),
            Vec3::new(1.0, 2.0, 0.0),
        ];
        let indices = [0, 1, 2, 3, 2, 4, 5, 6];
        let mesh = NavMesh::from_polygons(
            &vertices,
            &indices,
            &[4, 4],
            &MeshOptions::default().with_up_axis(UpAxis::Z),
        )
        .unwrap();
        let fans = vertex_fans(&mesh);
        assert_eq!(fans[2].len(), 4);
        assert_eq!(fans[2].iter().filter(|&&p| p == u32::MAX).count(), 2);
        let pm = PolyanyaMesh::from_navmesh(&mesh).unwrap();
        assert!(pm.path([0.5, 0.5, 0.0], [1.5, 1.5, 0.0]).is_none());
    }
}
