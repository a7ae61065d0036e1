//! Mesh construction: every rejection names its culprit; welding connects what should be
//! connected and nothing else.

use glam::Vec3;
use navstar::{MeshError, MeshOptions, NavMesh, PathOptions, Query};

use crate::common::{Soup, p, pillar_room_triangles};

fn build(vertices: &[Vec3], indices: &[u32], sizes: &[u32]) -> Result<NavMesh, MeshError> {
    NavMesh::from_polygons(vertices, indices, sizes, &MeshOptions::default())
}

#[track_caller]
fn rejected(result: Result<NavMesh, MeshError>) -> MeshError {
    match result {
        Ok(mesh) => panic!("mesh accepted: {mesh:?}"),
        Err(e) => e,
    }
}

#[track_caller]
fn assert_mentions(e: &MeshError, words: &[&str]) {
    let text = e.to_string();
    for w in words {
        assert!(text.contains(w), "message {text:?} does not mention {w:?}");
    }
}

/// Two unit squares side by side: vertices 0..6, polygons [0 1 4 3] and [1 2 5 4].
fn two_squares() -> (Vec<Vec3>, Vec<u32>, Vec<u32>) {
    let v = vec![
        p(0., 0.),
        p(1., 0.),
        p(2., 0.),
        p(0., 1.),
        p(1., 1.),
        p(2., 1.),
    ];
    (v, vec![0, 1, 4, 3, 1, 2, 5, 4], vec![4, 4])
}

#[test]
fn the_reference_input_is_accepted() {
    let (v, i, s) = two_squares();
    let mesh = build(&v, &i, &s).unwrap();
    assert_eq!(mesh.polygon_count(), 2);
    assert_eq!(mesh.island_count(), 1);
    assert_eq!(
        mesh.polygon_neighbours(0).collect::<Vec<_>>(),
        [None, Some(1), None, None]
    );
}

#[test]
fn zero_polygons() {
    let (v, _, _) = two_squares();
    let e = rejected(build(&v, &[], &[]));
    assert_eq!(e, MeshError::NoPolygons);
    assert_eq!(
        rejected(NavMesh::from_triangles(&v, &[], &MeshOptions::default())),
        MeshError::NoPolygons
    );
    assert_eq!(rejected(build(&[], &[], &[])), MeshError::NoPolygons);
    assert_mentions(&e, &["zero polygons"]);
}

#[test]
fn non_finite_vertex() {
    for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        let (mut v, i, s) = two_squares();
        v[4].y = bad;
        let e = rejected(build(&v, &i, &s));
        match e {
            MeshError::NonFiniteVertex { vertex, value } => {
                assert_eq!(vertex, 4);
                assert!(value.is_nan() == bad.is_nan() && (bad.is_nan() || value == bad));
            }
            other => panic!("expected NonFiniteVertex, got {other:?}"),
        }
        assert_mentions(&e, &["vertex 4"]);
    }
    // Even a vertex that no polygon uses is checked.
    let (mut v, i, s) = two_squares();
    v.push(Vec3::new(0.0, f32::NAN, 0.0));
    assert!(matches!(
        rejected(build(&v, &i, &s)),
        MeshError::NonFiniteVertex { vertex: 6, .. }
    ));
}

#[test]
fn index_out_of_range() {
    let (v, mut i, s) = two_squares();
    i[6] = 99; // polygon 1, corner 2
    let e = rejected(build(&v, &i, &s));
    assert_eq!(
        e,
        MeshError::IndexOutOfRange {
            polygon: 1,
            corner: 2,
            index: 99,
            vertex_count: 6
        }
    );
    assert_mentions(&e, &["polygon 1", "corner 2", "99"]);
    // u32::MAX as an index, in triangles.
    let e = rejected(NavMesh::from_triangles(
        &v,
        &[0, 1, 4, 0, 4, u32::MAX],
        &MeshOptions::default(),
    ));
    assert!(matches!(
        e,
        MeshError::IndexOutOfRange {
            polygon: 1,
            corner: 2,
            index: u32::MAX,
            ..
        }
    ));
}

#[test]
fn polygons_with_fewer_than_three_vertices() {
    let (v, _, _) = two_squares();
    for size in [0u32, 1, 2] {
        let mut indices = vec![0, 1, 4, 3];
        indices.extend((0..size).map(|k| [1, 2][k as usize % 2]));
        let e = rejected(build(&v, &indices, &[4, size]));
        assert_eq!(e, MeshError::TooFewVertices { polygon: 1, size });
        assert_mentions(&e, &["polygon 1", &format!("{size} vertices")]);
    }
}

#[test]
fn sizes_and_indices_must_agree() {
    let (v, i, _) = two_squares();
    assert!(matches!(
        rejected(build(&v, &i, &[4, 3])),
        MeshError::IndexCountMismatch {
            needed: 7,
            given: 8
        }
    ));
    assert!(matches!(
        rejected(build(&v, &i, &[4, 4, 3])),
        MeshError::IndexCountMismatch {
            needed: 11,
            given: 8
        }
    ));
    assert!(matches!(
        rejected(NavMesh::from_triangles(
            &v,
            &[0, 1, 4, 0],
            &MeshOptions::default()
        )),
        MeshError::IndexCountMismatch { given: 4, .. }
    ));
}

#[test]
fn repeated_vertex() {
    let (v, _, _) = two_squares();
    let e = rejected(build(&v, &[0, 1, 4, 3, 1, 2, 2, 5, 4], &[4, 5]));
    assert_eq!(
        e,
        MeshError::RepeatedVertex {
            polygon: 1,
            vertex: 2
        }
    );
    assert_mentions(&e, &["polygon 1", "vertex 2"]);
    // Not adjacent in the corner list.
    let e = rejected(build(&v, &[0, 1, 4, 1, 3], &[5]));
    assert_eq!(
        e,
        MeshError::RepeatedVertex {
            polygon: 0,
            vertex: 1
        }
    );
    // After welding: vertex 6 is a copy of vertex 1, so polygon 0 uses vertex 1 twice.
    let (mut v, _, _) = two_squares();
    v.push(v[1]);
    let e = rejected(build(&v, &[0, 1, 6, 4, 3], &[5]));
    assert_eq!(
        e,
        MeshError::RepeatedVertex {
            polygon: 0,
            vertex: 1
        }
    );
    // Without welding, the two copies make a zero-length edge instead.
    let mut o = MeshOptions::default();
    o.weld_vertices = false;
    let e = rejected(NavMesh::from_polygons(&v, &[0, 1, 6, 4, 3], &[5], &o));
    assert_eq!(
        e,
        MeshError::ZeroLengthEdge {
            polygon: 0,
            a: 1,
            b: 6
        }
    );
    assert_mentions(&e, &["polygon 0", "1", "6"]);
}

#[test]
fn vertical_edge_is_a_zero_length_edge_in_the_ground_plane() {
    // Vertices 1 and 4 are at the same ground position (1, 0), one above the other.
    let v = [
        p(0., 0.),
        p(1., 0.),
        p(1., 1.),
        p(0., 1.),
        Vec3::new(1.0, 2.0, 0.0),
    ];
    let e = rejected(build(&v, &[0, 1, 4, 2, 3], &[5]));
    assert_eq!(
        e,
        MeshError::ZeroLengthEdge {
            polygon: 0,
            a: 1,
            b: 4
        }
    );
}

#[test]
fn non_convex_polygon_names_the_reflex_corner() {
    // A dart: corner 3 (vertex 3 at (1.5, 0.5)) turns the wrong way.
    let v = [p(0., 0.), p(2., 0.), p(2., 2.), p(1.5, 0.5), p(0., 2.)];
    let e = rejected(build(&v, &[0, 1, 2, 3, 4], &[5]));
    assert_eq!(
        e,
        MeshError::NonConvexPolygon {
            polygon: 0,
            corner: 3,
            vertex: 3
        }
    );
    assert_mentions(&e, &["polygon 0", "corner 3", "vertex 3"]);
    // The same dart listed clockwise: the corner number is in the caller's order.
    let e = rejected(build(&v, &[4, 3, 2, 1, 0], &[5]));
    assert_eq!(
        e,
        MeshError::NonConvexPolygon {
            polygon: 0,
            corner: 1,
            vertex: 3
        }
    );
    // As the second polygon of a mesh.
    let (mut v2, mut i2, mut s2) = two_squares();
    let base = v2.len() as u32;
    v2.extend_from_slice(&v);
    i2.extend((0..5).map(|k| base + k));
    s2.push(5);
    assert!(matches!(
        rejected(build(&v2, &i2, &s2)),
        MeshError::NonConvexPolygon {
            polygon: 2,
            corner: 3,
            ..
        }
    ));
}

#[test]
fn self_overlapping_star_is_not_convex() {
    // A pentagram: every turn is a left turn, but they add up to two revolutions.
    let v: Vec<Vec3> = (0..5)
        .map(|k| {
            let a = (90.0 + 144.0 * k as f32).to_radians();
            p(a.cos(), a.sin())
        })
        .collect();
    let e = rejected(build(&v, &[0, 1, 2, 3, 4], &[5]));
    assert!(
        matches!(e, MeshError::NonConvexPolygon { polygon: 0, .. }),
        "{e:?}"
    );
}

#[test]
fn collinear_corners_and_either_winding_are_accepted() {
    // A 2x1 rectangle with a corner in the middle of each long side, both windings.
    let v = [
        p(0., 0.),
        p(1., 0.),
        p(2., 0.),
        p(2., 1.),
        p(1., 1.),
        p(0., 1.),
    ];
    assert!(build(&v, &[0, 1, 2, 3, 4, 5], &[6]).is_ok());
    assert!(build(&v, &[5, 4, 3, 2, 1, 0], &[6]).is_ok());
    // A sliver of height 1e-4 on a base of 1 is thin, not degenerate.
    assert!(build(&[p(0., 0.), p(1., 0.), p(0.5, 1e-4)], &[0, 1, 2], &[3]).is_ok());
}

#[test]
fn zero_area_polygon() {
    // Three collinear corners.
    let v = [p(0., 0.), p(1., 0.), p(2., 0.), p(0., 1.)];
    let e = rejected(build(&v, &[0, 1, 2], &[3]));
    assert_eq!(e, MeshError::DegeneratePolygon { polygon: 0 });
    assert_mentions(&e, &["polygon 0", "zero area"]);
    // A vertical wall: no area in the ground plane (Y up) although it has area in 3D.
    let wall = [p(0., 0.), p(1., 0.), Vec3::new(0.0, 1.0, 0.0)];
    let e = rejected(build(&wall, &[0, 1, 2], &[3]));
    assert_eq!(e, MeshError::DegeneratePolygon { polygon: 0 });
    // The same triangle is fine with Z up, where (x, y) is the ground plane.
    assert!(
        NavMesh::from_polygons(
            &wall,
            &[0, 1, 2],
            &[3],
            &MeshOptions::default().with_up_axis(navstar::UpAxis::Z)
        )
        .is_ok()
    );
    // A bow tie: its signed area is zero.
    let e = rejected(build(
        &[p(0., 0.), p(1., 1.), p(1., 0.), p(0., 1.)],
        &[0, 1, 2, 3],
        &[4],
    ));
    assert!(
        matches!(
            e,
            MeshError::DegeneratePolygon { polygon: 0 }
                | MeshError::NonConvexPolygon { polygon: 0, .. }
        ),
        "{e:?}"
    );
}

#[test]
fn edge_shared_by_three_polygons() {
    // Edge (0, 1) is used by three triangles, all counter-clockwise.
    let v = [p(0., 0.), p(1., 0.), p(0.5, 1.), p(0.5, -1.), p(0.5, -2.)];
    let e = rejected(build(&v, &[0, 1, 2, 1, 0, 3, 1, 0, 4], &[3, 3, 3]));
    assert_eq!(
        e,
        MeshError::NonManifoldEdge {
            a: 1,
            b: 0,
            first: 0,
            second: 1,
            third: 2
        }
    );
    assert_mentions(&e, &["(1, 0)", "0", "1", "2"]);
}

#[test]
fn folded_edge() {
    // Both triangles lie on the +z side of the edge (0, 1).
    let v = [p(0., 0.), p(1., 0.), p(0.5, 1.), p(0.5, 2.)];
    let e = rejected(build(&v, &[0, 1, 2, 0, 1, 3], &[3, 3]));
    assert_eq!(
        e,
        MeshError::FoldedEdge {
            a: 0,
            b: 1,
            first: 0,
            second: 1
        }
    );
    assert_mentions(&e, &["polygons 0 and 1", "(0, 1)"]);
    // Given clockwise, the second one is turned round first: still folded.
    let e = rejected(build(&v, &[0, 1, 2, 3, 1, 0], &[3, 3]));
    assert!(
        matches!(
            e,
            MeshError::FoldedEdge {
                first: 0,
                second: 1,
                ..
            }
        ),
        "{e:?}"
    );
}

#[test]
fn the_first_culprit_is_named() {
    // Polygon 1 is degenerate and polygon 2 out of range: polygon 1 is reported.
    let v = [p(0., 0.), p(1., 0.), p(2., 0.), p(0., 1.)];
    let e = rejected(build(&v, &[0, 1, 3, 0, 1, 2, 0, 1, 9], &[3, 3, 3]));
    assert_eq!(e, MeshError::DegeneratePolygon { polygon: 1 });
}

#[test]
fn invalid_weld_distance() {
    let (v, i, s) = two_squares();
    for bad in [-1.0, f32::NAN, f32::INFINITY] {
        let mut o = MeshOptions::default();
        o.weld_distance = bad;
        assert!(matches!(
            rejected(NavMesh::from_polygons(&v, &i, &s, &o)),
            MeshError::InvalidOption(_)
        ));
    }
}

#[test]
fn welding_connects_a_triangle_soup() {
    let shared = pillar_room_triangles();
    let soup = shared.unwelded();
    assert_eq!(soup.vertices.len(), 24);
    let welded = soup.build();
    assert_eq!(welded.island_count(), 1);
    assert_eq!(welded.polygon_count(), 8);
    // The same adjacency as the mesh built from shared vertices.
    let reference = shared.build();
    for poly in 0..8 {
        assert_eq!(
            welded.polygon_neighbours(poly).collect::<Vec<_>>(),
            reference.polygon_neighbours(poly).collect::<Vec<_>>()
        );
    }
    // And the same paths.
    let (start, goal) = (p(1.0, 2.5), p(5.0, 2.8));
    let a = Query::new(&welded)
        .find_path_vec(start, goal, &PathOptions::default())
        .unwrap();
    let b = Query::new(&reference)
        .find_path_vec(start, goal, &PathOptions::default())
        .unwrap();
    assert_eq!(a, b);
    assert_eq!(a.corners.len(), 4);
    // Welding switched off: eight separate triangles.
    let mut o = MeshOptions::default();
    o.weld_vertices = false;
    let unwelded = soup.try_build(&o).unwrap();
    assert_eq!(unwelded.island_count(), 8);
    // -0.0 and 0.0 are the same position.
    let mut signed = soup.clone();
    for v in signed.vertices.iter_mut().step_by(2) {
        if v.x == 0.0 {
            v.x = -0.0;
        }
    }
    assert_eq!(signed.build().island_count(), 1);
}

#[test]
fn weld_distance_merges_near_vertices() {
    // The soup with every copy moved by up to 1e-4: exact welding leaves it in pieces,
    // a weld distance of 1e-3 joins it.
    let mut soup = pillar_room_triangles().unwelded();
    for (k, v) in soup.vertices.iter_mut().enumerate() {
        let d = 1e-4 * ((k % 7) as f32 / 7.0);
        *v += Vec3::new(d, 0.0, -d);
    }
    assert!(soup.build().island_count() > 1);
    let mut o = MeshOptions::default();
    o.weld_distance = 1e-3;
    let mesh = soup.try_build(&o).unwrap();
    assert_eq!(mesh.island_count(), 1);
    // Vertices farther apart than the weld distance stay apart: two squares 0.01 apart.
    let mut far = Soup::new();
    far.polygon_at(&[p(0., 0.), p(1., 0.), p(1., 1.), p(0., 1.)])
        .polygon_at(&[p(1.01, 0.), p(2., 0.), p(2., 1.), p(1.01, 1.)]);
    assert_eq!(far.try_build(&o).unwrap().island_count(), 2);
    o.weld_distance = 0.02;
    assert_eq!(far.try_build(&o).unwrap().island_count(), 1);
}
