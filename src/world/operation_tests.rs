//! The world's tile operations: polygon and tile references name their generation,
//! flags set through a snapshot stay with the tile, and the errors of the tile
//! operations (a change refused leaves the world as it was).

use glam::Vec3;

use super::tests::{check_invariants, grid_tile, same_tables};
use super::{TileRef, World, WorldOptions};
use crate::error::{MeshError, QueryError};
use crate::mesh::NavMesh;
use crate::{MeshOptions, UpAxis};

#[test]
fn flags_set_through_a_snapshot_stay_with_the_tile() {
    let world = World::new(&WorldOptions::default()).unwrap();
    world.add_tile(&grid_tile(0.0, 0.0, &["."])).unwrap();
    let tile = grid_tile(1.0, 0.0, &["."]);
    let r = world.add_tile(&tile).unwrap();
    let first = world.snapshot();
    let polygon = first
        .resolve(first.polygon_ref(r.slot() << 22).unwrap())
        .unwrap();
    let generation = first.data().flags_generation();
    first.set_polygon_flags(polygon, 0).unwrap();
    assert!(first.data().flags_generation() > generation);
    // Later snapshots share the flags of the tiles they keep...
    world.add_tile(&grid_tile(2.0, 0.0, &["."])).unwrap();
    let second = world.snapshot();
    assert_eq!(second.polygon_flags(polygon), 0);
    assert_eq!(
        second.data().flags_generation(),
        first.data().flags_generation()
    );
    // ...but the tile's own mesh keeps its flags, and a replaced tile starts from its
    // mesh's.
    assert_eq!(tile.polygon_flags(0), crate::DEFAULT_FLAGS);
    world.replace_tile(r, &tile).unwrap();
    assert_eq!(
        world.snapshot().polygon_flags(polygon),
        crate::DEFAULT_FLAGS
    );
}

#[test]
fn polygon_references_name_their_tile_generation() {
    let world = World::new(&WorldOptions::default().with_max_tiles(4)).unwrap();
    let a = world.add_tile(&grid_tile(0.0, 0.0, &["."])).unwrap();
    let b = world.add_tile(&grid_tile(1.0, 0.0, &[".#", ".."])).unwrap();
    let snapshot = world.snapshot();
    // Four slots: 30 bits of local ids.
    let in_b = 1 << 30 | 1;
    let kept_a = snapshot.polygon_ref(0).unwrap();
    let kept_b = snapshot.polygon_ref(in_b).unwrap();
    assert_eq!((kept_b.polygon(), kept_b.generation()), (in_b, 1));
    assert!(matches!(
        snapshot.polygon_ref(1),
        Err(QueryError::IndexOutOfRange { .. })
    ));
    assert!(snapshot.polygon_ref(2 << 30).is_err());

    let b2 = world
        .replace_tile(b, &grid_tile(1.0, 0.0, &[".."]))
        .unwrap();
    let later = world.snapshot();
    assert_eq!(later.resolve(kept_a), Ok(0));
    let stale = later.resolve(kept_b).unwrap_err();
    assert_eq!(
        stale,
        QueryError::StaleReference {
            slot: 1,
            generation: 1,
            current: Some(2)
        }
    );
    assert_eq!(
        stale.to_string(),
        "stale polygon reference: tile slot 1, generation 1; the slot holds generation 2"
    );
    world.remove_tile(b2).unwrap();
    assert_eq!(
        world.snapshot().resolve(kept_b),
        Err(QueryError::StaleReference {
            slot: 1,
            generation: 1,
            current: None
        })
    );
    // Stale and foreign tile references.
    for r in [b, b2, TileRef::from_parts(3, 1), TileRef::from_parts(99, 1)] {
        assert!(matches!(
            world.remove_tile(r),
            Err(MeshError::StaleTile { .. })
        ));
        assert!(world.replace_tile(r, &grid_tile(1.0, 0.0, &["."])).is_err());
    }
    assert_eq!(
        world.remove_tile(b2).unwrap_err().to_string(),
        "stale tile reference: tile slot 1, generation 2; the slot is empty"
    );
    world.remove_tile(a).unwrap();
    assert_eq!(world.tile_count(), 0);
}

#[test]
fn tile_operations_refuse_what_does_not_fit() {
    for bad in [0, 3, 1 << 17] {
        assert!(matches!(
            World::new(&WorldOptions::default().with_max_tiles(bad)),
            Err(MeshError::InvalidOption(_))
        ));
    }
    for bad in [-1.0, f32::NAN, f32::INFINITY] {
        assert!(World::new(&WorldOptions::default().with_seam_tolerance(bad)).is_err());
        assert!(World::new(&WorldOptions::default().with_climb(bad)).is_err());
    }
    let world = World::new(&WorldOptions::default().with_max_tiles(2)).unwrap();
    let tile = grid_tile(0.0, 0.0, &["."]);
    world.add_tile(&tile).unwrap();
    world.add_tile(&grid_tile(1.0, 0.0, &["."])).unwrap();
    assert_eq!(
        world.add_tile(&grid_tile(2.0, 0.0, &["."])),
        Err(MeshError::WorldFull { max_tiles: 2 })
    );
    // Another up axis; a snapshot as a tile.
    let z_up = NavMesh::from_triangles(
        &[Vec3::ZERO, Vec3::X, Vec3::Y],
        &[0, 1, 2],
        &MeshOptions::default().with_up_axis(UpAxis::Z),
    )
    .unwrap();
    let other = World::new(&WorldOptions::default()).unwrap();
    assert!(matches!(
        other.add_tile(&z_up),
        Err(MeshError::InvalidOption(_))
    ));
    assert!(matches!(
        other.add_tile(&world.snapshot()),
        Err(MeshError::InvalidOption(_))
    ));

    // 65536 slots: 16 bits of local ids, so at most 65535 vertices per tile.
    let world = World::new(&WorldOptions::default().with_max_tiles(1 << 16)).unwrap();
    let count = 22_000u32;
    let vertices: Vec<Vec3> = (0..count)
        .flat_map(|i| {
            let x = (i % 200) as f32 * 2.0;
            let z = (i / 200) as f32 * 2.0;
            [
                Vec3::new(x, 0.0, z),
                Vec3::new(x, 0.0, z + 1.0),
                Vec3::new(x + 1.0, 0.0, z),
            ]
        })
        .collect();
    let indices: Vec<u32> = (0..3 * count).collect();
    let big = NavMesh::from_triangles(&vertices, &indices, &MeshOptions::default()).unwrap();
    assert_eq!(
        world.add_tile(&big),
        Err(MeshError::TileTooLarge {
            slot: 0,
            what: "vertices",
            count: 66_000,
            max: 65_535
        })
    );
    assert_eq!(
        (world.tile_count(), world.snapshot().polygon_count()),
        (0, 0)
    );
}

#[test]
fn a_failed_change_leaves_the_world_as_it_was() {
    // A tile that just fits (a rectangle and unused vertices), then a neighbour whose
    // seam would split it beyond a slot.
    let world = World::new(&WorldOptions::default().with_max_tiles(1 << 16)).unwrap();
    let mut vertices = vec![
        Vec3::new(0.0, 0.0, 0.0),
        Vec3::new(2.0, 0.0, 0.0),
        Vec3::new(2.0, 0.0, 1.0),
        Vec3::new(0.0, 0.0, 1.0),
    ];
    vertices.extend((4..65_535).map(|i| Vec3::new(i as f32, 0.0, 100.0)));
    let strip =
        NavMesh::from_polygons(&vertices, &[0, 3, 2, 1], &[4], &MeshOptions::default()).unwrap();
    let first = world.add_tile(&strip).unwrap();
    let before = world.snapshot();
    // A square below the rectangle's bottom wall, whose two corners cut it.
    let square = NavMesh::from_polygons(
        &[
            Vec3::new(0.5, 0.0, -1.0),
            Vec3::new(1.5, 0.0, -1.0),
            Vec3::new(1.5, 0.0, 0.0),
            Vec3::new(0.5, 0.0, 0.0),
        ],
        &[0, 3, 2, 1],
        &[4],
        &MeshOptions::default(),
    )
    .unwrap();
    assert!(matches!(
        world.add_tile(&square),
        Err(MeshError::TileTooLarge {
            slot: 0,
            what: "vertices",
            ..
        })
    ));
    let after = world.snapshot();
    assert!(same_tables(before.data(), after.data()));
    assert_eq!(world.tile_count(), 1);
    world.remove_tile(first).unwrap();
}

#[test]
fn a_tile_on_another_on_one_level_is_refused_where_an_edge_would_join_both() {
    let world = World::new(&WorldOptions::default()).unwrap();
    let a = world.add_tile(&grid_tile(0.0, 0.0, &["."])).unwrap();
    let b = world.add_tile(&grid_tile(1.0, 0.0, &["."])).unwrap();
    // The same square as `a`: its edge x = 1 would join `b`, whose edge there joins `a`.
    let error = world.add_tile(&grid_tile(0.0, 0.0, &["."])).unwrap_err();
    assert!(
        matches!(error, MeshError::OverlappingTiles { others, .. } if others.contains(&a.slot()) || others.contains(&b.slot())),
        "{error}"
    );
    assert!(error.to_string().contains("must not overlap"), "{error}");
    // Nothing changed: two tiles, joined at one seam.
    assert_eq!(world.tile_count(), 2);
    let snapshot = world.snapshot();
    check_invariants(snapshot.data(), 1e-3);
    assert_eq!(snapshot.island_count(), 1);
    // Replacing `b` by a square on `a` is refused the same way (the seam would join `a`
    // twice over), and keeps `b`.
    let c = world.add_tile(&grid_tile(-1.0, 0.0, &["."])).unwrap();
    assert!(matches!(
        world.replace_tile(b, &grid_tile(0.0, 0.0, &["."])),
        Err(MeshError::OverlappingTiles { .. })
    ));
    assert_eq!(world.tile_count(), 3);
    check_invariants(world.snapshot().data(), 1e-3);
    let _ = c;
}
