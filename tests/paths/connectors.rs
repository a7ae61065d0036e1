//! Degenerate connectors (`MeshOptions::allow_degenerate_connectors`): zero-area
//! triangles that join walk areas along a line. Known paths on hand-made meshes, in
//! both path modes and through every query that walks the mesh; the errors by default,
//! after welding, and for neighbours on the wrong sides.
//!
//! The meshes (ground plane x, z; Y up; all at y = 0):
//!
//! ```text
//!   z=2  D-----------C
//!        |  upper    |          the upper room's lower edge is A-B (one edge);
//!   z=1  A-----M-----B          the lower rooms' upper edges are A-M and M-B:
//!        | left|right|          a T-junction at M, stitched by the connector A, M, B
//!   z=0  E-----F-----G
//!       x=0   x=1   x=2
//! ```

use std::collections::HashMap;

use glam::Vec3;
use navstar::{MeshError, MeshOptions, NavMesh, PathOptions, PathStatus, Query};

use crate::common::{Domain, Rng, check_path_on_mesh};
use crate::{length, optimal};

fn v(x: f32, z: f32) -> Vec3 {
    Vec3::new(x, 0.0, z)
}

fn connectors() -> MeshOptions {
    let mut options = MeshOptions::default();
    options.allow_degenerate_connectors = true;
    options
}

/// The T-junction mesh; with `stitch`, polygon 3 is the connector A, M, B.
fn t_junction(stitch: bool, options: &MeshOptions) -> Result<NavMesh, MeshError> {
    // A0 M1 B2 C3 D4 E5 F6 G7
    let vertices = [
        v(0.0, 1.0),
        v(1.0, 1.0),
        v(2.0, 1.0),
        v(2.0, 2.0),
        v(0.0, 2.0),
        v(0.0, 0.0),
        v(1.0, 0.0),
        v(2.0, 0.0),
    ];
    let mut indices = vec![0, 2, 3, 4, 5, 6, 1, 0, 6, 7, 2, 1];
    let mut sizes = vec![4, 4, 4];
    if stitch {
        indices.extend([0, 1, 2]);
        sizes.push(3);
    }
    NavMesh::from_polygons(&vertices, &indices, &sizes, options)
}

fn assert_near(got: Vec3, want: Vec3, what: &str) {
    assert!(got.distance(want) < 1e-5, "{what}: {got} (want {want})");
}

#[test]
fn a_degenerate_triangle_is_an_error_by_default() {
    let err = t_junction(true, &MeshOptions::default()).unwrap_err();
    assert_eq!(err, MeshError::DegeneratePolygon { polygon: 3 });
}

#[test]
fn the_connector_stitches_a_t_junction() {
    // Without it the upper room is an island of its own.
    let open = t_junction(false, &connectors()).unwrap();
    assert_eq!(open.island_count(), 2);
    let mut query = Query::new(&open);
    let path = query
        .find_path(v(0.5, 0.5), v(1.8, 1.5), &PathOptions::default())
        .unwrap();
    assert_eq!(path.status, PathStatus::Partial);

    let mesh = t_junction(true, &connectors()).unwrap();
    assert_eq!(mesh.island_count(), 1);
    assert_eq!(mesh.polygon_count(), 4);
    let mut query = Query::new(&mesh);
    for options in [PathOptions::default(), optimal()] {
        // Straight across the line (it crosses at x = 1.15, right of M).
        let path = query.find_path(v(0.5, 0.5), v(1.8, 1.5), &options).unwrap();
        assert_eq!(path.status, PathStatus::Complete, "{options:?}");
        assert_eq!(path.corners.len(), 2, "{:?}", path.corners);
        // Round nothing: from the left room to the right room through the upper one
        // would be longer than through M, where the lower rooms touch the line.
        let path = query.find_path(v(0.2, 0.9), v(1.8, 0.9), &options).unwrap();
        assert_eq!(path.status, PathStatus::Complete);
        assert_eq!(path.corners.len(), 2, "{:?}", path.corners);
        // Along the line itself.
        let path = query.find_path(v(0.1, 1.0), v(1.9, 1.0), &options).unwrap();
        assert_eq!(path.corners.len(), 2);
        assert!((length(path.corners) - 1.8).abs() < 1e-5);
    }
}

#[test]
fn paths_bend_at_the_ends_of_the_line() {
    // The upper room over the whole line; the lower rooms apart (each has its own
    // corner near F), so they touch only at M, on the line: the way from one to the
    // other runs through the connector and bends at M.
    let vertices = [
        v(0.0, 1.0), // A 0
        v(1.0, 1.0), // M 1
        v(2.0, 1.0), // B 2
        v(2.0, 2.0), // C 3
        v(0.0, 2.0), // D 4
        v(0.0, 0.0), // E 5
        v(0.9, 0.0), // F (left room) 6
        v(1.1, 0.0), // F (right room) 7
        v(2.0, 0.0), // G 8
    ];
    let indices = [0, 2, 3, 4, 5, 6, 1, 0, 7, 8, 2, 1, 0, 1, 2];
    let mesh = NavMesh::from_polygons(&vertices, &indices, &[4, 4, 4, 3], &connectors()).unwrap();
    let mut query = Query::new(&mesh);
    for options in [PathOptions::default(), optimal()] {
        // From low in the left room to low in the right room: over M, where the two
        // lower rooms touch the line.
        let path = query.find_path(v(0.3, 0.1), v(1.7, 0.1), &options).unwrap();
        assert_eq!(path.status, PathStatus::Complete);
        assert_eq!(path.corners.len(), 3, "{options:?}: {:?}", path.corners);
        assert_near(path.corners[1], v(1.0, 1.0), "bends at M");
    }
    // The corridor runs through the connector (polygon 3).
    query
        .find_path(v(0.3, 0.1), v(1.7, 0.1), &PathOptions::default())
        .unwrap();
    assert_eq!(query.corridor().collect::<Vec<_>>(), [1, 3, 2]);
}

/// Two rooms drawn apart (distinct vertices along their common side, welding off),
/// joined by a connector with two corners at one position.
fn seam(options: &MeshOptions, with_connector: bool) -> Result<NavMesh, MeshError> {
    let vertices = [
        v(0.0, 1.0), // A 0 (both rooms)
        v(2.0, 1.0), // B 1 (upper room)
        v(2.0, 2.0), // 2
        v(0.0, 2.0), // 3
        v(2.0, 1.0), // B' 4 (lower room, same position as B)
        v(2.0, 0.0), // 5
        v(0.0, 0.0), // 6
    ];
    let mut indices = vec![0, 1, 2, 3, 6, 5, 4, 0];
    let mut sizes = vec![4, 4];
    if with_connector {
        indices.extend([0, 1, 4]);
        sizes.push(3);
    }
    NavMesh::from_polygons(&vertices, &indices, &sizes, options)
}

#[test]
fn a_connector_with_two_corners_at_one_position_joins_a_seam() {
    let mut options = connectors();
    options.weld_vertices = false;
    let apart = seam(&options, false).unwrap();
    assert_eq!(apart.island_count(), 2);
    let joined = seam(&options, true).unwrap();
    assert_eq!(joined.island_count(), 1);
    let mut query = Query::new(&joined);
    for mode in [PathOptions::default(), optimal()] {
        let path = query.find_path(v(0.5, 0.5), v(1.5, 1.5), &mode).unwrap();
        assert_eq!(path.status, PathStatus::Complete);
        assert_eq!(path.corners.len(), 2);
    }
    // Welding merges B and B': the rooms share A-B and the connector has nothing left.
    let err = seam(&connectors(), true).unwrap_err();
    assert_eq!(
        err,
        MeshError::CollapsedConnector {
            polygon: 2,
            vertex: 1
        }
    );
    assert!(err.to_string().contains("weld_vertices off"), "{err}");
    // Welded without the connector the rooms are joined anyway.
    assert_eq!(seam(&connectors(), false).unwrap().island_count(), 1);
}

#[test]
fn connectors_that_cannot_be_wound_or_are_points_are_refused() {
    // The upper room over the left half only (sharing A-M from above) and the right
    // room below (sharing M-B from below): the connector's two shorter edges would have
    // neighbours on opposite sides.
    let vertices = [
        v(0.0, 1.0), // A 0
        v(1.0, 1.0), // M 1
        v(2.0, 1.0), // B 2
        v(1.0, 2.0), // 3
        v(0.0, 2.0), // 4
        v(1.0, 0.0), // 5
        v(2.0, 0.0), // 6
    ];
    let indices = [0, 1, 3, 4, 5, 6, 2, 1, 0, 1, 2];
    let err = NavMesh::from_polygons(&vertices, &indices, &[4, 4, 3], &connectors()).unwrap_err();
    assert_eq!(err, MeshError::ConnectorSides { polygon: 2 });
    // Three corners at one point are no line.
    let point = [v(0.0, 0.0), v(0.0, 0.0), v(0.0, 0.0)];
    let mut options = connectors();
    options.weld_vertices = false;
    let err = NavMesh::from_triangles(&point, &[0, 1, 2], &options).unwrap_err();
    assert_eq!(err, MeshError::DegeneratePolygon { polygon: 0 });
    // A repeated index stays what it is.
    let err = NavMesh::from_triangles(&point, &[0, 1, 1], &options).unwrap_err();
    assert_eq!(
        err,
        MeshError::RepeatedVertex {
            polygon: 0,
            vertex: 1
        }
    );
    // Larger zero-area polygons are not connectors.
    let line = [v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0), v(3.0, 0.0)];
    let err = NavMesh::from_polygons(&line, &[0, 1, 2, 3], &[4], &connectors()).unwrap_err();
    assert_eq!(err, MeshError::DegeneratePolygon { polygon: 0 });
}

#[test]
fn queries_on_a_mesh_with_a_connector() {
    let mesh = t_junction(true, &connectors()).unwrap();
    // Nearest point on the line.
    let near = mesh.nearest_point(v(1.5, 1.0), 0.1, None).unwrap();
    assert!(near.distance < 1e-6);
    // A raycast across the line, from the left room into the upper room, does not hit.
    let hit = mesh
        .raycast(v(0.5, 0.5), v(1.5, 1.8), &Default::default())
        .unwrap();
    assert!(hit.hit.is_none(), "{hit:?}");
    // One along the line reaches its end.
    let hit = mesh
        .raycast(v(0.2, 1.0), v(1.8, 1.0), &Default::default())
        .unwrap();
    assert!(hit.hit.is_none(), "{hit:?}");
    assert_near(hit.point, v(1.8, 1.0), "raycast along the line");
    // Interpolated data is continuous across the line: x + 10 z at every vertex.
    let values: Vec<f32> = mesh.vertices().iter().map(|p| p.x + 10.0 * p.z).collect();
    let mut out = [0.0f32];
    for point in [v(0.5, 1.0), v(1.5, 1.0), v(1.0, 1.0)] {
        mesh.interpolate(point, &values, 1, &mut out, &Default::default())
            .unwrap();
        assert!(
            (out[0] - (point.x + 10.0 * point.z)).abs() < 1e-4,
            "{point}: {}",
            out[0]
        );
    }
    // Flags: closing the connector cuts the upper room off again.
    mesh.set_polygon_flags(3, 0).unwrap();
    let mut query = Query::new(&mesh);
    for mode in [PathOptions::default(), optimal()] {
        let path = query.find_path(v(0.5, 0.5), v(1.8, 1.5), &mode).unwrap();
        assert_eq!(path.status, PathStatus::Partial, "{mode:?}");
    }
}

#[test]
fn paths_run_along_a_chain_of_connectors() {
    // The line A-M1-M2-B is two connectors: c1 = A, M1, M2 (its long edge A-M2 shared
    // with c2's short edge) and c2 = A, M2, B. The left room below shares A-M1, the
    // right room below M2-B; below M1-M2 there is nothing. From one room to the other
    // the path climbs to M1, runs along the line to M2 and goes down.
    let vertices = [
        v(0.0, 1.0), // A 0
        v(1.0, 1.0), // M1 1
        v(2.0, 1.0), // M2 2
        v(3.0, 1.0), // B 3
        v(0.0, 0.0), // 4
        v(1.0, 0.0), // 5
        v(2.0, 0.0), // 6
        v(3.0, 0.0), // 7
    ];
    let indices = [4, 5, 1, 0, 6, 7, 3, 2, 0, 1, 2, 0, 2, 3];
    for order in [[0usize, 1, 2, 3], [0, 1, 3, 2], [3, 2, 1, 0]] {
        // The same mesh with its polygons listed in other orders (the connectors wind
        // from their neighbours whatever comes first).
        let polygons: [&[u32]; 4] = [
            &indices[0..4],
            &indices[4..8],
            &indices[8..11],
            &indices[11..14],
        ];
        let listed: Vec<u32> = order
            .iter()
            .flat_map(|&i| polygons[i].iter().copied())
            .collect();
        let sizes: Vec<u32> = order.iter().map(|&i| polygons[i].len() as u32).collect();
        let mesh = NavMesh::from_polygons(&vertices, &listed, &sizes, &connectors()).unwrap();
        assert_eq!(mesh.island_count(), 1, "order {order:?}");
        let mut query = Query::new(&mesh);
        for options in [PathOptions::default(), optimal()] {
            let path = query.find_path(v(0.5, 0.5), v(2.5, 0.5), &options).unwrap();
            assert_eq!(path.status, PathStatus::Complete, "{order:?} {options:?}");
            assert_eq!(
                path.corners.len(),
                4,
                "{order:?} {options:?}: {:?}",
                path.corners
            );
            assert_near(path.corners[1], v(1.0, 1.0), "up to M1");
            assert_near(path.corners[2], v(2.0, 1.0), "along the line to M2");
            let want = 2.0 * 0.5f32.hypot(0.5) + 1.0;
            assert!((length(path.corners) - want).abs() < 1e-5);
        }
    }
}

/// Vertices by position, so that polygons built from positions share their corners.
#[derive(Default)]
struct Builder {
    vertices: Vec<Vec3>,
    at: HashMap<(u32, u32), u32>,
    indices: Vec<u32>,
    sizes: Vec<u32>,
}

impl Builder {
    /// A polygon from ground points given in half units (x2, z2).
    fn polygon(&mut self, corners: &[(u32, u32)]) {
        for &(x2, z2) in corners {
            let next = self.vertices.len() as u32;
            let index = *self.at.entry((x2, z2)).or_insert(next);
            if index == next {
                self.vertices.push(v(x2 as f32 / 2.0, z2 as f32 / 2.0));
            }
            self.indices.push(index);
        }
        self.sizes.push(corners.len() as u32);
    }

    fn build(&self) -> NavMesh {
        NavMesh::from_polygons(&self.vertices, &self.indices, &self.sizes, &connectors()).unwrap()
    }
}

/// A random grid of unit cells twice: whole (the reference), and with some cells split
/// into a left and a right half, whose upper and lower edges then meet an unsplit
/// neighbour's edge in a T-junction that a connector stitches. Both cover the same
/// ground, so the exact shortest paths must have the same lengths, and the default
/// mode's paths must stay on the mesh, reach the goal exactly when the reference's do,
/// and be no shorter than the exact ones.
#[test]
fn stitched_t_junctions_walk_like_the_whole_grid() {
    let mut rng = Rng(0xc0ec_u64);
    let mut compared = 0usize;
    let mut connector_count = 0usize;
    for m in 0..300 {
        let (cols, rows) = (2 + rng.below(5), 2 + rng.below(5));
        let walkable: Vec<bool> = (0..cols * rows).map(|_| rng.below(100) >= 20).collect();
        let split: Vec<bool> = (0..cols * rows).map(|_| rng.below(100) < 40).collect();
        let cell = |x: u32, z: u32| (z * cols + x) as usize;
        let (mut whole, mut stitched) = (Builder::default(), Builder::default());
        for z in 0..rows {
            for x in 0..cols {
                if !walkable[cell(x, z)] {
                    continue;
                }
                let (x2, z2) = (2 * x, 2 * z);
                whole.polygon(&[(x2, z2), (x2 + 2, z2), (x2 + 2, z2 + 2), (x2, z2 + 2)]);
                if split[cell(x, z)] {
                    stitched.polygon(&[(x2, z2), (x2 + 1, z2), (x2 + 1, z2 + 2), (x2, z2 + 2)]);
                    stitched.polygon(&[
                        (x2 + 1, z2),
                        (x2 + 2, z2),
                        (x2 + 2, z2 + 2),
                        (x2 + 1, z2 + 2),
                    ]);
                } else {
                    stitched.polygon(&[(x2, z2), (x2 + 2, z2), (x2 + 2, z2 + 2), (x2, z2 + 2)]);
                }
                // A connector on the upper edge where exactly one of this cell and the one
                // above is split.
                if z + 1 < rows
                    && walkable[cell(x, z + 1)]
                    && split[cell(x, z)] != split[cell(x, z + 1)]
                {
                    stitched.polygon(&[(x2, z2 + 2), (x2 + 1, z2 + 2), (x2 + 2, z2 + 2)]);
                    connector_count += 1;
                }
            }
        }
        if whole.sizes.is_empty() {
            continue;
        }
        let (reference, mesh) = (whole.build(), stitched.build());
        assert_eq!(reference.island_count(), mesh.island_count(), "mesh {m}");
        // The checker's view of the stitched mesh (the funnel may bend at a split point,
        // a corner of its corridor).
        let domain = Domain::new(&mesh);
        let (mut q_ref, mut q) = (Query::new(&reference), Query::new(&mesh));
        for k in 0..6 {
            let point = |rng: &mut Rng| v(rng.unit() * cols as f32, rng.unit() * rows as f32);
            let (s, t) = (point(&mut rng), point(&mut rng));
            let context = format!("mesh {m} query {k}: {s} -> {t}");
            let want = q_ref.find_path(s, t, &optimal()).unwrap();
            let (want_status, want_corners) = (want.status, want.corners.to_vec());
            let got = q.find_path(s, t, &optimal()).unwrap();
            assert_eq!(got.status, want_status, "{context}");
            if want_status == PathStatus::Complete {
                let (a, b) = (length(&want_corners), length(got.corners));
                assert!(
                    (a - b).abs() <= 1e-5 * a.max(1.0),
                    "{context}: {b} (want {a})"
                );
                compared += 1;
            }
            let funnel = q.find_path(s, t, &crate::funnel()).unwrap();
            assert_eq!(funnel.status, want_status, "{context}");
            check_path_on_mesh(&domain, funnel.corners)
                .unwrap_or_else(|e| panic!("{context}: {e}"));
        }
    }
    assert!(connector_count > 300, "only {connector_count} connectors");
    assert!(compared > 800, "only {compared} comparisons");
}
