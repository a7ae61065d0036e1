//! Queries on the mesh itself: nearest point, raycast (with the awkward cases: through
//! vertices, along edges and walls, filtered polygons, heights, Z up), and per-vertex
//! data interpolation. Known answers and properties.

use glam::Vec3;
use navstar::{MeshOptions, NavMesh, QueryError, QueryFilter, UpAxis};

use crate::common::{Rng, Soup, p, y_to_z};

fn grid3() -> NavMesh {
    Soup::from_ascii(&["...", "...", "..."]).build()
}

fn cast(mesh: &NavMesh, from: Vec3, to: Vec3) -> navstar::Raycast {
    mesh.raycast(from, to, &QueryFilter::default()).unwrap()
}

fn near(a: Vec3, b: Vec3) -> bool {
    a.distance(b) < 1e-5
}

#[test]
fn rays_that_stay_on_the_mesh() {
    let mesh = grid3();
    let no_hit = |from: Vec3, to: Vec3| {
        let hit = cast(&mesh, from, to);
        assert!(hit.hit.is_none(), "{from} -> {to}: {hit:?}");
        assert_eq!(hit.t, 1.0);
        assert!(near(hit.point, to), "{from} -> {to}: {hit:?}");
    };
    // Through the vertices (1, 1) and (2, 2), shared by four squares each.
    no_hit(p(0.5, 0.5), p(2.5, 2.5));
    // Exactly along the interior edge x = 1.
    no_hit(p(1.0, 0.2), p(1.0, 2.8));
    // Along the wall z = 0, and along x = 3.
    no_hit(p(0.2, 0.0), p(2.8, 0.0));
    no_hit(p(3.0, 2.9), p(3.0, 0.1));
    // Ending exactly on a wall; starting on a vertex; zero length.
    no_hit(p(1.5, 1.5), p(1.5, 3.0));
    no_hit(p(1.0, 1.0), p(2.5, 0.5));
    no_hit(p(1.5, 1.5), p(1.5, 1.5));
}

#[test]
fn rays_that_hit_walls() {
    let mesh = grid3();
    let hit = cast(&mesh, p(1.5, 1.5), p(1.5, 4.0));
    assert!(hit.hit.is_some());
    assert!((hit.t - 0.6).abs() < 1e-6, "{hit:?}");
    assert!(near(hit.point, p(1.5, 3.0)));
    assert!(
        near(hit.hit.unwrap().normal, Vec3::new(0.0, 0.0, -1.0)),
        "{hit:?}"
    );
    assert_eq!(hit.polygon, 7);
    // Diagonally into the corner region beyond x = 3.
    let hit = cast(&mesh, p(2.5, 0.5), p(3.5, 1.5));
    assert!(hit.hit.is_some() && (hit.t - 0.5).abs() < 1e-6, "{hit:?}");
    assert!(near(hit.hit.unwrap().normal, Vec3::new(-1.0, 0.0, 0.0)));
    // A start off the mesh is snapped first: from (1.5, 5) down to the wall z = 3.
    let hit = cast(&mesh, p(1.5, 5.0), p(1.5, 0.5));
    assert!(hit.hit.is_none() && near(hit.point, p(1.5, 0.5)));
}

#[test]
fn grazing_a_hole_corner_passes_and_cutting_it_hits() {
    // A U: the hole is x in 1..2, z in 1..3.
    let mesh = Soup::from_ascii(&["...", ".#.", ".#."]).build();
    // Exactly through the hole's corner (2, 1): touches the hole at a point only.
    let graze = cast(&mesh, p(0.5, 0.25), p(2.5, 1.25));
    assert!(graze.hit.is_none(), "{graze:?}");
    // A little steeper: into the hole through its bottom edge z = 1.
    let cut = cast(&mesh, p(0.5, 0.25), p(2.5, 1.45));
    assert!(cut.hit.is_some(), "{cut:?}");
    assert!((cut.point.z - 1.0).abs() < 1e-6 && cut.point.x > 1.0 && cut.point.x < 2.0);
    assert!(
        near(cut.hit.unwrap().normal, Vec3::new(0.0, 0.0, -1.0)),
        "{cut:?}"
    );
}

#[test]
fn a_refused_polygon_is_a_wall() {
    let mesh = grid3();
    mesh.set_polygon_flags(4, 0).unwrap();
    let hit = cast(&mesh, p(0.5, 1.5), p(2.5, 1.5));
    assert!(hit.hit.is_some() && (hit.t - 0.25).abs() < 1e-6, "{hit:?}");
    assert!(near(hit.point, p(1.0, 1.5)));
    assert!(near(hit.hit.unwrap().normal, Vec3::new(-1.0, 0.0, 0.0)));
    let filter = QueryFilter::default().with_include_flags(2);
    assert!(matches!(
        mesh.raycast(p(0.5, 0.5), p(1.0, 1.0), &filter),
        Err(QueryError::NotOnMesh { .. })
    ));
}

#[test]
fn hit_heights_come_from_the_mesh_and_z_up_works() {
    // One square rising along x (height = x), Y up.
    let mut s = Soup::new();
    s.polygon_at(&[
        Vec3::new(0.0, 0.0, 0.0),
        Vec3::new(1.0, 1.0, 0.0),
        Vec3::new(1.0, 1.0, 1.0),
        Vec3::new(0.0, 0.0, 1.0),
    ]);
    let mesh = s.build();
    let hit = cast(&mesh, Vec3::new(0.5, 0.5, 0.5), Vec3::new(2.0, 2.0, 0.5));
    assert!(
        hit.hit.is_some() && (hit.t - 1.0 / 3.0).abs() < 1e-6,
        "{hit:?}"
    );
    assert!(near(hit.point, Vec3::new(1.0, 1.0, 0.5)), "{hit:?}");
    // A second storey above the first: a ray on the upper one stops at its own wall.
    let mut two = Soup::from_ascii(&["..."]);
    two.polygon_at(&[
        Vec3::new(0.0, 3.0, 0.0),
        Vec3::new(1.0, 3.0, 0.0),
        Vec3::new(1.0, 3.0, 1.0),
        Vec3::new(0.0, 3.0, 1.0),
    ]);
    let mesh = two.build();
    let hit = cast(&mesh, Vec3::new(0.5, 3.0, 0.5), Vec3::new(2.5, 3.0, 0.5));
    assert!(hit.hit.is_some() && (hit.t - 0.25).abs() < 1e-6, "{hit:?}");
    assert!(near(hit.point, Vec3::new(1.0, 3.0, 0.5)));
    // Z up: the same 3 x 3 floor in (x, y).
    let z = Soup::from_ascii(&["...", "...", "..."]).to_z_up();
    let mesh = z
        .try_build(&MeshOptions::default().with_up_axis(UpAxis::Z))
        .unwrap();
    let hit = cast(&mesh, y_to_z(p(1.5, 1.5)), y_to_z(p(1.5, 4.0)));
    assert!(hit.hit.is_some() && (hit.t - 0.6).abs() < 1e-6, "{hit:?}");
    assert!(
        near(hit.hit.unwrap().normal, Vec3::new(0.0, -1.0, 0.0)),
        "{hit:?}"
    );
}

#[test]
fn nearest_point_with_a_filter_and_a_range() {
    let mesh = grid3();
    let filter = QueryFilter::default();
    let n = mesh
        .nearest_point(Vec3::new(1.5, 2.0, 1.5), 5.0, Some(&filter))
        .unwrap();
    assert_eq!((n.polygon, n.point, n.distance), (4, p(1.5, 1.5), 2.0));
    assert!(
        mesh.nearest_point(Vec3::new(1.5, 2.0, 1.5), 1.0, Some(&filter))
            .is_none()
    );
    mesh.set_polygon_flags(4, 0).unwrap();
    let n = mesh
        .nearest_point(p(1.5, 1.4), f32::INFINITY, Some(&filter))
        .unwrap();
    assert!(near(n.point, p(1.5, 1.0)) && n.polygon == 1, "{n:?}");
}

/// A pentagon-like convex polygon with a collinear corner on one side, plus a triangle.
fn blend_mesh() -> NavMesh {
    let mut s = Soup::new();
    s.polygon_at(&[
        p(0.0, 0.0),
        p(1.0, 0.0),
        p(2.0, 0.0),
        p(2.5, 1.0),
        p(1.0, 2.0),
        p(-0.5, 1.0),
    ])
    .polygon_at(&[p(2.0, 0.0), p(3.0, 0.0), p(2.5, 1.0)]);
    s.build()
}

fn linear(v: Vec3) -> [f32; 2] {
    [2.0 * v.x + 3.0 * v.z + 1.0, -v.x + 0.5 * v.z]
}

#[test]
fn interpolation_reproduces_linear_data() {
    let mesh = blend_mesh();
    let values: Vec<f32> = mesh.vertices().iter().flat_map(|&v| linear(v)).collect();
    let mut rng = Rng(99);
    let filter = QueryFilter::default();
    for _ in 0..500 {
        let polygon = rng.below(mesh.polygon_count());
        let at =
            crate::common::point_in_polygon(&mesh, polygon, rng.unit(), rng.unit(), rng.unit());
        let mut out = [0.0f32; 2];
        mesh.interpolate(at, &values, 2, &mut out, &filter).unwrap();
        let want = linear(at);
        assert!(
            (out[0] - want[0]).abs() < 1e-4 && (out[1] - want[1]).abs() < 1e-4,
            "{at}: {out:?} {want:?}"
        );
    }
}

#[test]
fn interpolation_on_corners_edges_and_triangles() {
    let mesh = blend_mesh();
    let n = mesh.vertex_count() as usize;
    // Data that is not linear: a different value per vertex.
    let values: Vec<f32> = (0..n).map(|i| (i * i) as f32).collect();
    let filter = QueryFilter::default();
    let value_at = |v: Vec3| {
        let mut out = [0.0f32];
        mesh.interpolate(v, &values, 1, &mut out, &filter).unwrap();
        out[0]
    };
    // At each vertex: its own value.
    for (i, &v) in mesh.vertices().iter().enumerate() {
        assert!((value_at(v) - values[i]).abs() < 1e-4, "vertex {i}");
    }
    // On an edge: the linear blend of its two ends only.
    let (a, b) = (mesh.vertices()[3], mesh.vertices()[4]);
    let mid = a.lerp(b, 0.25);
    assert!((value_at(mid) - (0.75 * values[3] + 0.25 * values[4])).abs() < 1e-4);
    // In the triangle: barycentric coordinates.
    let tri = mesh.polygon_vertices(1).to_vec();
    let (u, v) = (0.2f32, 0.3f32);
    let (pa, pb, pc) = (
        mesh.vertices()[tri[0] as usize],
        mesh.vertices()[tri[1] as usize],
        mesh.vertices()[tri[2] as usize],
    );
    let q = pa * (1.0 - u - v) + pb * u + pc * v;
    let want = values[tri[0] as usize] * (1.0 - u - v)
        + values[tri[1] as usize] * u
        + values[tri[2] as usize] * v;
    assert!(
        (value_at(q) - want).abs() < 1e-3,
        "{} vs {want}",
        value_at(q)
    );
    // Weights are a convex combination: results stay within the corners' range.
    let mut rng = Rng(5);
    for _ in 0..300 {
        let at = crate::common::point_in_polygon(&mesh, 0, rng.unit(), rng.unit(), rng.unit());
        let x = value_at(at);
        let corners = mesh.polygon_vertices(0);
        let lo = corners
            .iter()
            .map(|&c| values[c as usize])
            .fold(f32::INFINITY, f32::min);
        let hi = corners
            .iter()
            .map(|&c| values[c as usize])
            .fold(f32::NEG_INFINITY, f32::max);
        assert!(x >= lo - 1e-3 && x <= hi + 1e-3, "{x} outside {lo}..{hi}");
    }
}

#[test]
fn interpolation_errors_name_the_argument() {
    let mesh = blend_mesh();
    let filter = QueryFilter::default();
    let mut out = [0.0f32; 4];
    let values = vec![0.0f32; mesh.vertex_count() as usize * 2];
    assert_eq!(
        mesh.interpolate(p(0.5, 0.5), &values, 0, &mut out, &filter),
        Err(QueryError::InvalidOption("channels must be at least 1"))
    );
    assert_eq!(
        mesh.interpolate(p(0.5, 0.5), &values, 3, &mut out, &filter),
        Err(QueryError::InvalidOption(
            "values must hold vertex_count * channels floats"
        ))
    );
    assert_eq!(
        mesh.interpolate(p(0.5, 0.5), &values, 2, &mut out[..1], &filter),
        Err(QueryError::InvalidOption(
            "out must hold at least channels floats"
        ))
    );
    // Many channels (more than the blender's batch of 16) work too.
    let wide: Vec<f32> = (0..mesh.vertex_count() as usize * 40)
        .map(|i| (i % 40) as f32)
        .collect();
    let mut many = [0.0f32; 40];
    mesh.interpolate(p(0.5, 0.5), &wide, 40, &mut many, &filter)
        .unwrap();
    for (c, v) in many.iter().enumerate() {
        assert!((v - c as f32).abs() < 1e-4);
    }
}
