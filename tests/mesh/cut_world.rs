//! A whole mesh added to a world in tiles (`World::add_mesh_in_tiles`, `World::add_tiles`):
//! the world answers as the mesh in one piece (exact-mode lengths, islands), links
//! between tiles attach, a reader never sees part of the mesh, and a refusal leaves the
//! world as it was.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use navstar::glam::Vec3;
use navstar::io::load_mesh_file;
use navstar::{
    MeshError, MeshInput, MeshOptions, NavMesh, OffMeshLink, PathMode, PathOptions, PathStatus,
    Query, UpAxis, World, WorldOptions,
};

use crate::common::{Rng, Soup, p, point_in_polygon};

const RECAST_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/recast");

fn dungeon() -> NavMesh {
    let path = format!("{RECAST_DIR}/dungeon.navmesh.obj");
    load_mesh_file(
        Path::new(&path),
        &MeshOptions::default().with_up_axis(UpAxis::Y),
    )
    .unwrap()
}

/// A random point of a random polygon of `mesh`.
fn random_point(mesh: &NavMesh, rng: &mut Rng) -> Vec3 {
    let ids: Vec<u32> = mesh.polygon_ids().collect();
    let polygon = ids[rng.below(ids.len() as u32) as usize];
    point_in_polygon(mesh, polygon, rng.unit(), rng.unit(), rng.unit())
}

#[test]
fn a_mesh_added_in_tiles_answers_as_the_mesh_in_one_piece() {
    let mesh = dungeon();
    let exact = PathOptions::default().with_mode(PathMode::Optimal);
    for size in [3.0, 7.0] {
        let world = World::new(&WorldOptions::default()).unwrap();
        let tiles = world.add_mesh_in_tiles(&mesh, size).unwrap();
        assert_eq!(tiles.len(), mesh.cut_into_tiles(size).unwrap().tiles.len());
        assert_eq!(world.tile_count() as usize, tiles.len());
        for tile in &tiles {
            assert!(world.tile_links(*tile).is_ok(), "{tile:?} is in the world");
        }
        let snapshot = world.snapshot();
        assert_eq!(snapshot.island_count(), mesh.island_count(), "side {size}");
        let (mut on_mesh, mut on_world) = (Query::new(&mesh), Query::new(&snapshot));
        let mut rng = Rng(size as u64);
        for _ in 0..60 {
            let (s, t) = (random_point(&mesh, &mut rng), random_point(&mesh, &mut rng));
            let whole = on_mesh
                .find_path(s, t, &exact)
                .map(|p| (p.status, p.length()));
            let tiled = on_world
                .find_path(s, t, &exact)
                .map(|p| (p.status, p.length()));
            match (whole, tiled) {
                (Ok((a, x)), Ok((b, y))) => {
                    assert_eq!(a, b, "{s} -> {t} at side {size}");
                    assert!((x - y).abs() <= 1e-4 * x.max(1.0), "{s} -> {t}: {x} vs {y}");
                }
                (whole, tiled) => assert_eq!(whole.is_ok(), tiled.is_ok(), "{s} -> {t}"),
            }
        }
    }
}

#[test]
fn links_between_the_tiles_attach() {
    // Two rooms 1 apart, joined only by a jump; each room falls in its own tile.
    let mut soup = Soup::new();
    soup.polygon_at(&[p(0.0, 0.0), p(2.0, 0.0), p(2.0, 1.0), p(0.0, 1.0)]);
    soup.polygon_at(&[p(3.0, 0.0), p(5.0, 0.0), p(5.0, 1.0), p(3.0, 1.0)]);
    let jump = [OffMeshLink::new(p(1.5, 0.5), p(3.5, 0.5))];
    let input = MeshInput::new(&soup.vertices, &soup.indices)
        .with_polygon_sizes(&soup.sizes)
        .with_links(&jump);
    let mesh = NavMesh::from_input(&input, &MeshOptions::default()).unwrap();
    assert_eq!(mesh.island_count(), 1);
    let world = World::new(&WorldOptions::default()).unwrap();
    assert_eq!(world.add_mesh_in_tiles(&mesh, 2.5).unwrap().len(), 2);
    let snapshot = world.snapshot();
    assert_eq!((snapshot.island_count(), snapshot.link_count()), (1, 1));
    let mut query = Query::new(&snapshot);
    let path = query
        .find_path(p(0.5, 0.5), p(4.5, 0.5), &PathOptions::default())
        .unwrap();
    assert_eq!(path.status, PathStatus::Complete);
    assert!(path.details.iter().any(|corner| corner.link.is_some()));
}

#[test]
fn a_reader_sees_the_world_before_or_with_every_tile() {
    let mesh = dungeon();
    let world = World::new(&WorldOptions::default()).unwrap();
    let done = AtomicBool::new(false);
    let whole = std::thread::scope(|scope| {
        let reader = scope.spawn(|| {
            let mut seen = Vec::new();
            while !done.load(Ordering::Acquire) {
                seen.push(world.snapshot().polygon_count());
            }
            seen.push(world.snapshot().polygon_count());
            seen
        });
        world.add_mesh_in_tiles(&mesh, 3.0).unwrap();
        done.store(true, Ordering::Release);
        reader.join().unwrap()
    });
    let total = world.snapshot().polygon_count();
    assert!(total > 0);
    assert!(whole.iter().all(|&n| n == 0 || n == total), "{whole:?}");
}

#[test]
fn a_refused_mesh_leaves_the_world_as_it_was() {
    let mesh = dungeon();
    let cut = mesh.cut_into_tiles(3.0).unwrap();
    assert!(cut.tiles.len() > 4);
    // Too few free slots: refused before any tile is put.
    let small = World::new(&WorldOptions::default().with_max_tiles(4)).unwrap();
    let first = small.add_tile(&cut.tiles[0].mesh).unwrap();
    let before = small.snapshot().polygon_count();
    assert!(matches!(
        small.add_tiles(&cut),
        Err(MeshError::WorldFull { max_tiles: 4 })
    ));
    assert_eq!(small.tile_count(), 1);
    assert_eq!(small.snapshot().polygon_count(), before);
    assert!(small.tile_links(first).is_ok());
    // A tile size the cutter refuses names it; the world is unchanged.
    for size in [f32::NAN, 0.0, -1.0, f32::INFINITY] {
        match small.add_mesh_in_tiles(&mesh, size) {
            Err(MeshError::TileCut { .. }) => {}
            other => panic!("tile size {size}: {other:?}"),
        }
    }
    assert_eq!(small.tile_count(), 1);
    // A world of another up axis refuses the first tile: nothing is put.
    let z_up = World::new(&WorldOptions::default().with_up_axis(UpAxis::Z)).unwrap();
    assert!(z_up.add_mesh_in_tiles(&mesh, 3.0).is_err());
    assert_eq!((z_up.tile_count(), z_up.snapshot().polygon_count()), (0, 0));
    // A snapshot of a world is not cut.
    let world = World::new(&WorldOptions::default()).unwrap();
    world.add_mesh_in_tiles(&mesh, 7.0).unwrap();
    let count = world.tile_count();
    assert!(matches!(
        world.add_mesh_in_tiles(&world.snapshot(), 3.0),
        Err(MeshError::TileCut { .. })
    ));
    assert_eq!(world.tile_count(), count);
}

#[test]
fn the_nearest_point_on_a_world_is_the_nearest_of_every_polygon() {
    // Points on, off and above the mesh, against every polygon's closest point (the
    // world searches the tile nearest the point first; its answer must not depend on it).
    let mesh = dungeon();
    let bounds = mesh.bounds();
    for size in [3.0, 7.0] {
        let world = World::new(&WorldOptions::default()).unwrap();
        world.add_mesh_in_tiles(&mesh, size).unwrap();
        let snapshot = world.snapshot();
        let ids: Vec<u32> = snapshot.polygon_ids().collect();
        let mut rng = Rng(17 + size as u64);
        for i in 0..200 {
            let p = if i % 2 == 0 {
                random_point(&mesh, &mut rng) + Vec3::new(0.0, 0.5 * rng.unit(), 0.0)
            } else {
                let margin = Vec3::splat(2.0);
                let (low, high) = (bounds.min - margin, bounds.max + margin);
                low + (high - low) * Vec3::new(rng.unit(), rng.unit(), rng.unit())
            };
            // Squared, as the search compares them.
            let nearest = |q: u32| snapshot.closest_point_on_polygon(q, p).distance_squared(p);
            let best_sq = ids
                .iter()
                .map(|&q| nearest(q))
                .fold(f32::INFINITY, f32::min);
            let best = best_sq.sqrt();
            let found = snapshot.nearest_point(p, f32::INFINITY, None).unwrap();
            assert_eq!(
                nearest(found.polygon),
                best_sq,
                "{p}: polygon {}",
                found.polygon
            );
            assert!(
                (found.distance - best).abs() <= 1e-6 * best.max(1.0),
                "{p} at {size}"
            );
            let whole = mesh.nearest_point(p, f32::INFINITY, None).unwrap();
            assert!((whole.distance - best).abs() <= 1e-5 * best.max(1.0), "{p}");
            // Within a limit below the distance: nothing; just above it: the same polygon.
            if best > 1e-3 {
                assert!(
                    snapshot.nearest_point(p, 0.99 * best, None).is_none(),
                    "{p}"
                );
                let within = snapshot.nearest_point(p, 1.01 * best, None).unwrap();
                assert_eq!(within.polygon, found.polygon, "{p}");
            }
        }
    }
}
