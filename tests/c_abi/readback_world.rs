//! Reading meshes back through the C ABI beyond one hand-made mesh: snapshots of worlds
//! of tiles (polygon ids that carry their slot, vertices numbered tile after tile, a
//! neighbour across a seam, the empty world's empty box) and random grids (the read-back
//! against the Rust accessors, and the mesh rebuilt from what was read).

use std::ptr;

use navstar::ffi::{
    NAVSTAR_NO_POLYGON, NavstarMesh, NavstarStatus, NavstarWorld, navstar_mesh_create,
    navstar_mesh_free, navstar_world_add_tile, navstar_world_create, navstar_world_free,
    navstar_world_snapshot,
};
use navstar::{MeshOptions, NavMesh};
use proptest::prelude::*;

use crate::assert_status;
use crate::common::{proptest_config, seeded_grid};
use crate::readback::{bounds, polygon_points, read_back, rust_read_back};

use NavstarStatus::NavstarOk as OK;

/// A world of two 2x1 tiles side by side, joined along x = 2 (Y up), and its snapshot.
fn two_tile_snapshot() -> (*mut NavstarWorld, *mut NavstarMesh) {
    let mut world = ptr::null_mut();
    // SAFETY: default options; `world` writable.
    assert_status(
        unsafe { navstar_world_create(ptr::null(), &mut world) },
        OK,
        &[],
    );
    for x in [0.0f32, 2.0] {
        let vertices = [
            x,
            0.0,
            0.0,
            x + 1.0,
            0.0,
            0.0,
            x + 2.0,
            0.0,
            0.0, //
            x,
            0.0,
            1.0,
            x + 1.0,
            0.0,
            1.0,
            x + 2.0,
            0.0,
            1.0,
        ];
        let indices = [0u32, 3, 4, 1, 1, 4, 5, 2];
        let sizes = [4u32, 4];
        let mut tile = ptr::null_mut();
        let mut added = Default::default();
        // SAFETY: the arrays hold the counts; the handles are live.
        unsafe {
            let s = navstar_mesh_create(
                vertices.as_ptr(),
                6,
                indices.as_ptr(),
                sizes.as_ptr(),
                2,
                ptr::null(),
                &mut tile,
            );
            assert_status(s, OK, &[]);
            assert_status(navstar_world_add_tile(world, tile, &mut added), OK, &[]);
            navstar_mesh_free(tile);
        }
    }
    let mut snapshot = ptr::null_mut();
    // SAFETY: a live world.
    assert_status(
        unsafe { navstar_world_snapshot(world, &mut snapshot) },
        OK,
        &[],
    );
    (world, snapshot)
}

#[test]
fn a_snapshot_reads_back_by_polygon_ids() {
    let (world, snapshot) = two_tile_snapshot();
    let got = read_back(snapshot);
    assert_eq!(got.ids.len(), 4);
    assert!(
        got.ids[2] >= 1 << 22,
        "the second tile's ids encode its slot: {:?}",
        got.ids
    );
    assert_eq!(got.vertices.len(), 12);
    assert_eq!(got.sizes, [4, 4, 4, 4]);
    // Corners index the vertex array, and give the same points as polygon_points.
    let mut start = 0;
    for (&id, &size) in got.ids.iter().zip(&got.sizes) {
        let end = start + size as usize;
        let points: Vec<[f32; 3]> = got.corners[start..end]
            .iter()
            .map(|&v| got.vertices[v as usize])
            .collect();
        assert_eq!(points, polygon_points(snapshot, id), "polygon {id}");
        // Neighbours are polygon ids of the snapshot, or walls.
        for &n in &got.neighbours[start..end] {
            assert!(
                n == NAVSTAR_NO_POLYGON || got.ids.contains(&n),
                "neighbour {n}"
            );
        }
        start = end;
    }
    // The seam at x = 2 joins the tiles: one island, and polygon ids[1] (x in 1..2)
    // has ids[2] (x in 2..3) across it.
    assert!(got.islands.iter().all(|&i| i == got.islands[0]));
    assert!(
        got.neighbours[4..8].contains(&got.ids[2]),
        "{:?}",
        got.neighbours
    );
    assert_eq!(bounds(snapshot), ([0.0, 0.0, 0.0], [4.0, 0.0, 1.0]));
    // SAFETY: made above, freed once (the snapshot outlives the world).
    unsafe {
        navstar_world_free(world);
        navstar_mesh_free(snapshot);
    }
}

#[test]
fn an_empty_world_has_an_empty_box() {
    let mut world = ptr::null_mut();
    let mut snapshot = ptr::null_mut();
    // SAFETY: default options; the handles are live.
    unsafe {
        assert_status(navstar_world_create(ptr::null(), &mut world), OK, &[]);
        assert_status(navstar_world_snapshot(world, &mut snapshot), OK, &[]);
    }
    let got = read_back(snapshot);
    assert!(got.vertices.is_empty() && got.sizes.is_empty() && got.corners.is_empty());
    let (min, max) = bounds(snapshot);
    assert!(min.iter().all(|&m| m == f32::INFINITY) && max.iter().all(|&m| m == f32::NEG_INFINITY));
    // SAFETY: made above, freed once.
    unsafe {
        navstar_mesh_free(snapshot);
        navstar_world_free(world);
    }
}

proptest! {
    #![proptest_config(proptest_config(48))]

    /// On random grids (holes, quads, triangles, hexagons): the read-back equals the Rust
    /// accessors, and the vertices, sizes and corners build the same polygons again.
    #[test]
    fn random_meshes_read_back_and_rebuild(seed in any::<u64>(), cols in 1usize..7, rows in 1usize..7) {
        let soup = seeded_grid(seed, cols, rows);
        prop_assume!(!soup.sizes.is_empty());
        let rust = NavMesh::from_polygons(&soup.vertices, &soup.indices, &soup.sizes, &MeshOptions::default()).unwrap();
        let floats: Vec<f32> = soup.vertices.iter().flat_map(|v| v.to_array()).collect();
        let mut mesh = ptr::null_mut();
        // SAFETY: the arrays hold the counts; `mesh` is writable.
        let status = unsafe { navstar_mesh_create(floats.as_ptr(), soup.vertices.len() as u32, soup.indices.as_ptr(), soup.sizes.as_ptr(), soup.sizes.len() as u32, ptr::null(), &mut mesh) };
        assert_status(status, OK, &[]);
        let got = read_back(mesh);
        prop_assert_eq!(&got, &rust_read_back(&rust));
        for &id in got.ids.iter().take(5) {
            let want: Vec<[f32; 3]> = rust.polygon_vertices(id).iter().map(|&v| rust.vertex(v).to_array()).collect();
            prop_assert_eq!(polygon_points(mesh, id), want);
        }
        let b = rust.bounds();
        prop_assert_eq!(bounds(mesh), (b.min.to_array(), b.max.to_array()));
        // Rebuilt from the read-back: the same polygons, neighbours and islands.
        let points: Vec<_> = got.vertices.iter().map(|&v| navstar::glam::Vec3::from(v)).collect();
        let again = NavMesh::from_polygons(&points, &got.corners, &got.sizes, &MeshOptions::default()).unwrap();
        let again = rust_read_back(&again);
        prop_assert_eq!((&again.corners, &again.neighbours, &again.islands), (&got.corners, &got.neighbours, &got.islands));
        // SAFETY: made above, freed once.
        unsafe { navstar_mesh_free(mesh) };
    }
}
