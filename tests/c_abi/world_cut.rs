//! `navstar_world_add_mesh_tiles`: a whole mesh added to a world as tiles through the C
//! ABI. The tiles answer as the mesh (a path across their seams, the tile count and
//! references), nothing is added unless every reference fits, and bad arguments are
//! refused by name with the world unchanged.

use std::ptr;

use navstar::ffi::{
    NavstarStatus, NavstarTileRef, NavstarWorldOptions, navstar_world_add_mesh_tiles,
    navstar_world_options_default, navstar_world_tile_count,
};

use NavstarStatus::{
    NavstarBufferTooSmall as BUFFER_TOO_SMALL, NavstarErrorInvalidArgument as INVALID_ARGUMENT,
    NavstarErrorNullArgument as NULL_ARGUMENT, NavstarOk as OK,
};

use crate::assert_status;
use crate::world::{Mesh, World, grid_tile, new_world, snapshot};

/// Calls navstar_world_add_mesh_tiles with room for `capacity` references (the array
/// one longer, to see that nothing is written past it).
fn add_mesh_tiles(
    world: &World,
    mesh: &Mesh,
    tile_size: f32,
    capacity: u32,
) -> (NavstarStatus, u32, Vec<NavstarTileRef>) {
    let marker = NavstarTileRef {
        world: 7,
        slot: 7,
        generation: 7,
    };
    let mut tiles = vec![marker; capacity as usize + 1];
    let mut count = u32::MAX;
    // SAFETY: live handles; `tiles` has room for `capacity` references; `count` writable.
    let status = unsafe {
        navstar_world_add_mesh_tiles(
            world.0,
            mesh.0,
            tile_size,
            tiles.as_mut_ptr(),
            capacity,
            &mut count,
        )
    };
    assert_eq!(
        tiles[capacity as usize], marker,
        "written past the capacity"
    );
    tiles.truncate(capacity as usize);
    (status, count, tiles)
}

/// The length of the default-mode path from (0.5, 0.5) to (5.5, 0.5) on `mesh`, round
/// the floor's wall.
fn length(mesh: &Mesh) -> f32 {
    let (status, corners) = crate::world::path(mesh, [0.5, 0.0, 0.5], [5.5, 0.0, 0.5]);
    assert_status(status, OK, &[]);
    corners
        .windows(2)
        .map(|w| {
            let d = [w[1][0] - w[0][0], w[1][1] - w[0][1], w[1][2] - w[0][2]];
            (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt()
        })
        .sum()
}

fn tile_count(world: &World) -> u32 {
    // SAFETY: a live world.
    unsafe { navstar_world_tile_count(world.0) }
}

/// A 6 x 3 floor of unit cells with a wall of two cells in the middle column.
fn floor() -> Mesh {
    #[rustfmt::skip]
    let cells = [
        1, 1, 1, 0, 1, 1,
        1, 1, 1, 0, 1, 1,
        1, 1, 1, 1, 1, 1,
    ];
    grid_tile(6, 3, &cells, 0.0, 0.0)
}

#[test]
fn a_floor_cut_in_tiles_gives_the_floors_path() {
    let (mesh, world) = (floor(), new_world());
    // Learn the count without changing the world.
    let mut count = 0u32;
    // SAFETY: live handles; no array with capacity 0; `count` writable.
    let status = unsafe {
        navstar_world_add_mesh_tiles(world.0, mesh.0, 2.0, ptr::null_mut(), 0, &mut count)
    };
    assert_status(status, BUFFER_TOO_SMALL, &[]);
    assert_eq!((count, tile_count(&world)), (6, 0));
    // One place short: still nothing added, nothing written.
    let (status, count, tiles) = add_mesh_tiles(&world, &mesh, 2.0, 5);
    assert_status(status, BUFFER_TOO_SMALL, &[]);
    assert_eq!(count, 6);
    assert!(tiles.iter().all(|t| t.world == 7), "written: {tiles:?}");
    assert_eq!(tile_count(&world), 0);
    // Room for all: six tiles, the references those navstar_world_tiles lists.
    let (status, count, tiles) = add_mesh_tiles(&world, &mesh, 2.0, 8);
    assert_status(status, OK, &[]);
    assert_eq!((count, tile_count(&world)), (6, 6));
    let mut written = tiles[..6].to_vec();
    written.sort_by_key(|t| t.slot);
    assert_eq!(written, crate::world::tiles(&world));
    // The path round the wall crosses seams and is as long as on the floor itself.
    let on_world = length(&snapshot(&world));
    let on_floor = length(&mesh);
    assert!(
        (on_world - on_floor).abs() < 1e-4,
        "{on_world} vs {on_floor}"
    );
    assert!(on_floor > 5.0);
}

#[test]
fn bad_arguments_are_refused_by_name_and_change_nothing() {
    let (mesh, world) = (floor(), new_world());
    for size in [f32::NAN, 0.0, -2.0, f32::INFINITY] {
        let (status, _, _) = add_mesh_tiles(&world, &mesh, size, 8);
        assert_status(status, INVALID_ARGUMENT, &["tile size"]);
    }
    let mut count = 0u32;
    let mut tiles = [NavstarTileRef::default(); 8];
    // SAFETY: NULL handles and pointers are what is tested; the rest is writable.
    unsafe {
        let status = navstar_world_add_mesh_tiles(
            ptr::null_mut(),
            mesh.0,
            2.0,
            tiles.as_mut_ptr(),
            8,
            &mut count,
        );
        assert_status(status, NULL_ARGUMENT, &["world"]);
        let status = navstar_world_add_mesh_tiles(
            world.0,
            ptr::null(),
            2.0,
            tiles.as_mut_ptr(),
            8,
            &mut count,
        );
        assert_status(status, NULL_ARGUMENT, &["mesh"]);
        let status =
            navstar_world_add_mesh_tiles(world.0, mesh.0, 2.0, ptr::null_mut(), 8, &mut count);
        assert_status(status, NULL_ARGUMENT, &["out_tiles"]);
        let status = navstar_world_add_mesh_tiles(
            world.0,
            mesh.0,
            2.0,
            tiles.as_mut_ptr(),
            8,
            ptr::null_mut(),
        );
        assert_status(status, NULL_ARGUMENT, &["out_count"]);
    }
    // A snapshot of a world is not cut.
    let (status, _, _) = add_mesh_tiles(&world, &floor(), 3.0, 8);
    assert_status(status, OK, &[]);
    let before = tile_count(&world);
    let (status, _, _) = add_mesh_tiles(&world, &snapshot(&world), 1.0, 64);
    assert_status(status, INVALID_ARGUMENT, &["snapshot"]);
    assert_eq!(tile_count(&world), before);
    // Fewer free slots than tiles.
    let options = NavstarWorldOptions {
        max_tiles: 4,
        ..navstar_world_options_default()
    };
    let (status, small) = crate::world::create(Some(&options));
    assert_status(status, OK, &[]);
    let (status, _, _) = add_mesh_tiles(&small, &mesh, 2.0, 8);
    assert_status(status, INVALID_ARGUMENT, &["4"]);
    assert_eq!(tile_count(&small), 0);
}
