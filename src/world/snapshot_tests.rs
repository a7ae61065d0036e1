//! What a snapshot of several tiles answers where a mesh of one piece has whole-mesh
//! arrays: saving is an error, vertices are per tile, a polygon soup and interpolation
//! number the vertices tile after tile, and cutting is an error. Nothing panics.

use glam::Vec3;

use super::{World, WorldOptions};
use crate::error::MeshError;
use crate::io::PolygonSoup;
use crate::mesh::NavMesh;
use crate::{MeshOptions, QueryFilter};

/// A unit square (y up) at `x`.
fn square(x: f32) -> NavMesh {
    let v = [
        Vec3::new(x, 0.0, 0.0),
        Vec3::new(x + 1.0, 0.0, 0.0),
        Vec3::new(x + 1.0, 0.0, 1.0),
        Vec3::new(x, 0.0, 1.0),
    ];
    NavMesh::from_polygons(&v, &[0, 3, 2, 1], &[4], &MeshOptions::default()).unwrap()
}

fn two_tiles() -> NavMesh {
    let world = World::new(&WorldOptions::default()).unwrap();
    world.add_tile(&square(0.0)).unwrap();
    world.add_tile(&square(5.0)).unwrap();
    world.snapshot()
}

#[test]
fn a_snapshot_of_tiles_is_not_saved_as_a_mesh() {
    let snapshot = two_tiles();
    assert!(matches!(
        snapshot.to_bytes(),
        Err(MeshError::InvalidOption(m)) if m.contains("save the world")
    ));
    let error = snapshot.write_to(Vec::new()).unwrap_err();
    assert_eq!(error.kind(), std::io::ErrorKind::InvalidInput);
    // An empty world of one slot has nothing to save.
    let empty = World::new(&WorldOptions::default().with_max_tiles(1)).unwrap();
    assert!(empty.snapshot().to_bytes().is_err());
    // A mesh of one piece saves and loads.
    let bytes = square(0.0).to_bytes().unwrap();
    assert_eq!(
        NavMesh::from_navstar_bytes(&bytes).unwrap().polygon_count(),
        1
    );
}

#[test]
fn a_snapshot_of_tiles_gives_its_vertices_per_tile() {
    let snapshot = two_tiles();
    assert!(snapshot.vertices().is_empty());
    assert_eq!(snapshot.tile_vertices(0), square(0.0).vertices());
    assert_eq!(snapshot.tile_vertices(1), square(5.0).vertices());
    assert!(snapshot.tile_vertices(2).is_empty());
    let second = snapshot.polygon_ids().nth(1).unwrap();
    let corners: Vec<Vec3> = snapshot
        .polygon_vertices(second)
        .iter()
        .map(|&v| snapshot.vertex(v))
        .collect();
    assert!(corners.contains(&Vec3::new(6.0, 0.0, 1.0)));
    // One piece: vertices() is every vertex.
    assert_eq!(square(0.0).vertices().len(), 4);
}

#[test]
fn a_soup_and_interpolation_number_the_vertices_tile_after_tile() {
    let snapshot = two_tiles();
    let soup = PolygonSoup::from_mesh(&snapshot);
    assert_eq!(
        (soup.vertices.len(), soup.polygon_sizes.clone()),
        (8, vec![4, 4])
    );
    let again = soup.into_mesh(&MeshOptions::default()).unwrap();
    assert_eq!((again.polygon_count(), again.island_count()), (2, 2));
    let xs: Vec<f32> = again
        .polygon_vertices(1)
        .iter()
        .map(|&v| again.vertex(v).x)
        .collect();
    assert!(xs.iter().all(|&x| (5.0..=6.0).contains(&x)), "{xs:?}");
    // Per-vertex values in that numbering: each vertex's x.
    let values: Vec<f32> = (0..2u32)
        .flat_map(|slot| snapshot.tile_vertices(slot).iter().map(|v| v.x))
        .collect();
    assert_eq!(values.len(), snapshot.vertex_count() as usize);
    let mut out = [0.0f32];
    let at = Vec3::new(5.25, 0.0, 0.5);
    let polygon = snapshot
        .interpolate(at, &values, 1, &mut out, &QueryFilter::default())
        .unwrap();
    assert_eq!(polygon, snapshot.polygon_ids().nth(1).unwrap());
    assert!((out[0] - 5.25).abs() < 1e-5, "{}", out[0]);
}

#[test]
fn a_snapshot_of_tiles_is_not_cut() {
    assert!(matches!(
        two_tiles().cut_into_tiles(1.0),
        Err(MeshError::TileCut { reason, .. }) if reason.contains("snapshot")
    ));
}
