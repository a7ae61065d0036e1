//! Run-time polygon flags across obstacle changes and a save and load (issue 18): a
//! carved polygon's pieces take its flags, it gets them back when the obstacle goes, and
//! a saved world records every polygon of each tile as added with its flags now, however
//! the tile is carved.

use glam::Vec2;
use navstar::{NavMesh, Obstacle, World, WorldOptions};

use crate::{room, v};

/// The polygon of `mesh` under ground point `(x, z)`.
fn at(mesh: &NavMesh, x: f32, z: f32) -> u32 {
    mesh.nearest_point(v(x, z), 0.01, None).unwrap().polygon
}

/// The run-time flags of the polygon under ground point `(x, z)`.
fn flags_at(mesh: &NavMesh, x: f32, z: f32) -> u32 {
    mesh.polygon_flags(at(mesh, x, z))
}

/// Sets the flags of the polygon under ground point `(x, z)`.
fn set_at(mesh: &NavMesh, x: f32, z: f32, flags: u32) {
    mesh.set_polygon_flags(at(mesh, x, z), flags).unwrap();
}

/// A disc of radius 1 in the first of three 4 x 4 rooms.
fn disc() -> Obstacle {
    Obstacle::circle(Vec2::new(2.0, 2.0), 1.0).unwrap()
}

/// The flags of the three rooms' polygons (under their centres, the first room's at a
/// corner the disc leaves alone).
fn room_flags(mesh: &NavMesh) -> [u32; 3] {
    [
        flags_at(mesh, 0.5, 0.5),
        flags_at(mesh, 6.0, 2.0),
        flags_at(mesh, 10.0, 2.0),
    ]
}

#[test]
fn flags_set_before_a_carve_are_kept_by_the_pieces_saved_and_given_back() {
    let world = World::new(&WorldOptions::default()).unwrap();
    world.add_tile(&room(12.0, 4.0, 3, 1)).unwrap();
    let before = world.snapshot();
    set_at(&before, 2.0, 2.0, 0x20);
    set_at(&before, 6.0, 2.0, 0x10);
    let id = world.add_obstacle(&disc()).unwrap();
    let carved = world.snapshot();
    assert!(carved.polygon_count() > 3);
    assert_eq!(room_flags(&carved), [0x20, 0x10, 1]);
    // Obstacles are not saved: the loaded tile is whole, with the flags of now.
    let loaded = World::from_bytes(&world.to_bytes()).unwrap().snapshot();
    assert_eq!(loaded.polygon_count(), 3);
    assert_eq!(room_flags(&loaded), [0x20, 0x10, 1]);
    world.remove_obstacle(id).unwrap();
    assert_eq!(room_flags(&world.snapshot()), [0x20, 0x10, 1]);
}

#[test]
fn flags_of_a_tile_added_under_an_obstacle_are_saved_by_the_polygons_as_added() {
    let world = World::new(&WorldOptions::default()).unwrap();
    world.add_obstacle(&disc()).unwrap();
    world.add_tile(&room(12.0, 4.0, 3, 1)).unwrap();
    let carved = world.snapshot();
    assert!(carved.polygon_count() > 3);
    // Every piece of the first room (a polygon as added saves one value: when its
    // pieces differ, its first piece's), the middle room and the last room.
    for p in carved.polygon_ids() {
        let corners = carved.polygon_vertices(p);
        if corners.iter().all(|&c| carved.vertex(c).x <= 4.0) {
            carved.set_polygon_flags(p, 0x20).unwrap();
        }
    }
    set_at(&carved, 6.0, 2.0, 0x10);
    set_at(&carved, 10.0, 2.0, 0x40);
    let saved = world.to_bytes();
    let loaded = World::from_bytes(&saved).unwrap();
    assert_eq!(room_flags(&loaded.snapshot()), [0x20, 0x10, 0x40]);
    assert_eq!(loaded.to_bytes(), saved);
}
