//! The landmark bounds on hand-made meshes: exact geodesic distances where they are
//! known by hand.

use glam::{DVec2, Vec3};

use super::*;
use crate::{LANDMARK_MIN_POLYGONS, MeshOptions, NavMesh};

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
fn a_strip_gets_exact_geodesic_bounds() {
    let mesh = strip(10);
    let data = mesh.data();
    let table = crate::search::landmarks::table(data).expect("a strip has portals");
    // Nine portals at x = 1..9, each shared by its two slots, and the unknown row.
    assert_eq!(table.rows.len(), 10);
    assert_eq!(table.unknown(), 9);
    let slots: Vec<u32> = (0..data.polygon_count())
        .flat_map(|p| data.corner_range(p))
        .map(|s| table.slot_node(s))
        .filter(|&n| n != NO_PORTAL)
        .collect();
    assert_eq!(slots.len(), 18);
    // The first landmark is at the far end from polygon 0: the last square's centre.
    assert_eq!(table.points[0].0, 9);
    assert_eq!(table.points[0].1, DVec2::new(9.5, 0.5));
    // Goal at the last square's centre: from the portal at x = 1 exactly 8.5 to go
    // (less the allowance), from the goal square's own portal 0.5.
    let goal = table.goal(data, [9], DVec2::new(9.5, 0.5));
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
    assert!(h <= 8.5 && h > 8.5 - 1e-3, "{h}");
    let h = table.remaining(&goal, table.slot_node(slot_at(8, 9.0)));
    assert!(h <= 0.5 && h > 0.5 - 1e-3, "{h}");
    // A goal in the middle square: from x = 1 the way is 4.4, from x = 9 it is 3.6;
    // the landmarks at both ends give 8.5 - 4.167 and 8.5 - 4.97 (the goal's upper
    // bounds go through the nearest vertex of its square).
    let goal = table.goal(data, [5], DVec2::new(5.4, 0.2));
    let h = table.remaining(&goal, table.slot_node(slot_at(0, 1.0)));
    let want = 8.5 - (12.5f32.sqrt() + 0.4f32.sqrt());
    assert!(h <= want + 1e-5 && h > want - 1e-3, "{h}, want {want}");
    let h = table.remaining(&goal, table.slot_node(slot_at(8, 9.0)));
    let want = 8.5 - (4.5f32.hypot(0.5) + 0.4f32.hypot(0.2));
    assert!(h <= want + 1e-5 && h > want - 1e-3, "{h}, want {want}");
    // Walls give nothing.
    assert_eq!(table.remaining(&goal, NO_PORTAL), 0.0);
}

/// A U of unit squares: up a column at x in [0, 1], across the top, down a column at x
/// in [4, 5]; the straight line between the two feet is about 3.5, the way round 11.5.
#[test]
fn a_u_bound_follows_the_way_round() {
    let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    let mut vertices = Vec::new();
    let mut indices = Vec::new();
    let mut square = |x: f32, z: f32| {
        let base = vertices.len() as u32;
        vertices.extend([v(x, z), v(x + 1.0, z), v(x + 1.0, z + 1.0), v(x, z + 1.0)]);
        indices.extend([base, base + 1, base + 2, base + 3]);
    };
    for z in 0..6 {
        square(0.0, z as f32);
    }
    for x in 1..4 {
        square(x as f32, 5.0);
    }
    for z in (0..6).rev() {
        square(4.0, z as f32);
    }
    let sizes = vec![4; indices.len() / 4];
    let mesh =
        NavMesh::from_polygons(&vertices, &indices, &sizes, &MeshOptions::default()).unwrap();
    let data = mesh.data();
    let table = crate::search::landmarks::table(data).expect("portals");
    // Goal at the foot of the right column, which holds the first landmark; from the
    // portal above the left foot (z = 1, x in [0, 1]) the way bends round (1, 5) and
    // (4, 5).
    let foot = data.polygon_count() - 1;
    let goal = table.goal(data, [foot], DVec2::new(4.5, 0.5));
    let portal = data
        .corner_range(0)
        .find(|&s| data.neighbours[s] == 1)
        .map(|s| table.slot_node(s))
        .unwrap();
    let h = table.remaining(&goal, portal);
    let mut query = crate::Query::new(&mesh);
    let options = crate::PathOptions::default().with_mode(crate::PathMode::Optimal);
    let shortest = (0..=10)
        .map(|i| {
            let x = i as f32 / 10.0;
            query
                .find_path_vec(v(x, 1.0), v(4.5, 0.5), &options)
                .unwrap()
                .length()
        })
        .fold(f32::INFINITY, f32::min);
    assert!(
        h <= shortest + 1e-4,
        "bound {h} above the shortest {shortest}"
    );
    // The straight line gives about 3.5; the landmarks nearly the whole way round.
    assert!(h > 0.9 * shortest, "bound {h}, shortest {shortest}");
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
fn a_mesh_with_off_mesh_links_gets_no_table() {
    let mesh = strip(4);
    assert!(mesh.prepare_landmarks());
    let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    let mut vertices = Vec::new();
    for i in 0..=4 {
        vertices.push(v(i as f32, 0.0));
        vertices.push(v(i as f32, 1.0));
    }
    let indices: Vec<u32> = (0..4u32)
        .flat_map(|i| [2 * i, 2 * i + 2, 2 * i + 3, 2 * i + 1])
        .collect();
    let mut tris = Vec::new();
    for q in indices.chunks(4) {
        tris.extend([q[0], q[1], q[2], q[0], q[2], q[3]]);
    }
    let links = [crate::OffMeshLink::new(v(0.5, 0.5), v(3.5, 0.5))];
    let input = crate::MeshInput::new(&vertices, &tris).with_links(&links);
    let linked = NavMesh::from_input(&input, &MeshOptions::default()).unwrap();
    assert!(!linked.prepare_landmarks());
    assert_eq!(linked.landmark_bytes(), 0);
}

/// A U of `2 * arm + 3` unit squares (y up): up a column at x in [0, 1], across three
/// squares at the top, down a column at x in [4, 5]; `arm` squares per column.
fn big_u(arm: u32) -> NavMesh {
    let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    let mut vertices = Vec::new();
    let mut indices = Vec::new();
    let mut square = |x: f32, z: f32| {
        let base = vertices.len() as u32;
        vertices.extend([v(x, z), v(x + 1.0, z), v(x + 1.0, z + 1.0), v(x, z + 1.0)]);
        indices.extend([base, base + 1, base + 2, base + 3]);
    };
    for z in 0..arm {
        square(0.0, z as f32);
    }
    for x in 1..4 {
        square(x as f32, (arm - 1) as f32);
    }
    for z in (0..arm).rev() {
        square(4.0, z as f32);
    }
    let sizes = vec![4; indices.len() / 4];
    NavMesh::from_polygons(&vertices, &indices, &sizes, &MeshOptions::default()).unwrap()
}

#[test]
fn landmarks_are_on_by_default_from_the_size_on_and_can_be_turned_off() {
    use crate::{PathMode, PathOptions, Query};
    let ends = (Vec3::new(0.5, 0.0, 0.5), Vec3::new(4.5, 0.0, 0.5));
    let exact = PathOptions::default().with_mode(PathMode::Optimal);
    // 503 squares: on by default, the first search builds the table.
    let large = big_u(250);
    assert!(large.polygon_count() >= LANDMARK_MIN_POLYGONS);
    let mut on = Query::new(&large);
    // The searches build and use the table: the fast lane, which answers without one,
    // is off in this test.
    on.set_fast_lane(false);
    assert!(on.landmarks());
    let with = on.find_path_vec(ends.0, ends.1, &exact).unwrap();
    assert!(large.landmark_bytes() > 0);
    let default_with = on
        .find_path_vec(ends.0, ends.1, &PathOptions::default())
        .unwrap();
    // Turned off on another mesh of the same shape: no table, the same answers.
    let same = big_u(250);
    let mut off = Query::new(&same);
    off.set_fast_lane(false);
    off.set_landmarks(false);
    assert!(!off.landmarks());
    let without = off.find_path_vec(ends.0, ends.1, &exact).unwrap();
    assert_eq!(same.landmark_bytes(), 0);
    assert_eq!(with.corners, without.corners);
    let default_without = off
        .find_path_vec(ends.0, ends.1, &PathOptions::default())
        .unwrap();
    assert_eq!(same.landmark_bytes(), 0);
    assert!((default_with.length() - default_without.length()).abs() < 1e-3);
    // Back to the default: on again for this size.
    off.set_landmarks_by_size();
    assert!(off.landmarks());
    // Below the size: off by default.
    let small = big_u(10);
    assert!(small.polygon_count() < LANDMARK_MIN_POLYGONS);
    let mut query = Query::new(&small);
    assert!(!query.landmarks());
    query.find_path_vec(ends.0, ends.1, &exact).unwrap();
    assert_eq!(small.landmark_bytes(), 0);
}

#[test]
fn a_worlds_snapshot_gets_no_table() {
    use crate::{PathMode, PathOptions, Query, World, WorldOptions};
    let world = World::new(&WorldOptions::default()).unwrap();
    world.add_tile(&big_u(10)).unwrap();
    let snapshot = world.snapshot();
    let mut query = Query::new(&snapshot);
    query.set_landmarks(true);
    let (a, b) = (Vec3::new(0.5, 0.0, 0.5), Vec3::new(4.5, 0.0, 0.5));
    let exact = PathOptions::default().with_mode(PathMode::Optimal);
    let with = query.find_path_vec(a, b, &exact).unwrap();
    assert!(!snapshot.prepare_landmarks());
    assert_eq!(snapshot.landmark_bytes(), 0);
    // The same answer as the plain mesh with its table.
    let plain = big_u(10);
    let mut on = Query::new(&plain);
    on.set_landmarks(true);
    let want = on.find_path_vec(a, b, &exact).unwrap();
    assert!(plain.landmark_bytes() > 0);
    assert!((with.length() - want.length()).abs() < 1e-4);
}
