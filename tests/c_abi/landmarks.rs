//! The landmark table through the C ABI: `navstar_mesh_prepare_landmarks` builds it
//! (and says whether the mesh has one), `navstar_query_set_landmarks` chooses per query
//! (by size, on, off; other modes refused by name); the exact mode's paths are the same
//! length either way and equal Rust's.

use std::ptr;

use navstar::ffi::{
    NAVSTAR_LANDMARKS_BY_SIZE, NAVSTAR_LANDMARKS_OFF, NAVSTAR_LANDMARKS_ON, NAVSTAR_PATH_OPTIMAL,
    NavstarPathOptions, NavstarStatus, navstar_find_path, navstar_mesh_create_from_grid,
    navstar_mesh_free, navstar_mesh_prepare_landmarks, navstar_path_options_default,
    navstar_query_create, navstar_query_free, navstar_query_set_landmarks,
};
use navstar::glam::Vec3;
use navstar::{
    LANDMARK_MIN_POLYGONS, MeshOptions, NavMesh, PathMode, PathOptions, PathStatus, Query, TileGrid,
};

use crate::assert_status;
use crate::common::Rng;

const SIDE: u32 = 64;

/// A 64 x 64 grid with about a third of its cells blocked: over 500 rectangles, so the
/// table is used by default.
fn cells() -> Vec<u8> {
    let mut rng = Rng(0x1a4d);
    (0..SIDE * SIDE)
        .map(|_| u8::from(rng.below(3) != 0))
        .collect()
}

/// The exact-mode path through the C query: status and length.
fn c_length(
    query: *mut navstar::ffi::NavstarQuery,
    s: [f32; 3],
    g: [f32; 3],
) -> (NavstarStatus, f32) {
    let options = NavstarPathOptions {
        mode: NAVSTAR_PATH_OPTIMAL,
        ..navstar_path_options_default()
    };
    let mut points = vec![0.0f32; 3 * 512];
    let mut count = 0;
    // SAFETY: a live query of this thread; 3-float points; room for 512 points.
    let status = unsafe {
        navstar_find_path(
            query,
            s.as_ptr(),
            g.as_ptr(),
            &options,
            points.as_mut_ptr(),
            512,
            &mut count,
        )
    };
    let corners: Vec<[f32; 3]> = points[..3 * count.min(512) as usize]
        .chunks(3)
        .map(|c| [c[0], c[1], c[2]])
        .collect();
    let length = corners
        .windows(2)
        .map(|w| Vec3::from(w[0]).distance(w[1].into()))
        .sum();
    (status, length)
}

#[test]
fn landmarks_are_prepared_and_chosen_per_query() {
    let cells = cells();
    let mut mesh = ptr::null_mut();
    let mut query = ptr::null_mut();
    // SAFETY: `cells` holds SIDE * SIDE bytes; outputs writable; handles freed below.
    unsafe {
        let status = navstar_mesh_create_from_grid(
            cells.as_ptr(),
            SIDE,
            SIDE,
            1.0,
            ptr::null(),
            ptr::null(),
            &mut mesh,
        );
        assert_status(status, NavstarStatus::NavstarOk, &[]);
        assert_status(
            navstar_query_create(mesh, &mut query),
            NavstarStatus::NavstarOk,
            &[],
        );
    }
    let walkable: Vec<bool> = cells.iter().map(|&c| c != 0).collect();
    let grid = TileGrid {
        width: SIDE,
        height: SIDE,
        walkable: &walkable,
        cell_size: 1.0,
        origin: Vec3::ZERO,
    };
    let rust = NavMesh::from_grid(&grid, &MeshOptions::default()).unwrap();
    assert!(
        rust.polygon_count() >= LANDMARK_MIN_POLYGONS,
        "{}",
        rust.polygon_count()
    );
    // SAFETY: live handles of this thread; `has` writable.
    unsafe {
        let mut has = 7u32;
        assert_status(
            navstar_mesh_prepare_landmarks(mesh, &mut has),
            NavstarStatus::NavstarOk,
            &[],
        );
        assert_eq!(has, 1);
        assert_status(
            navstar_mesh_prepare_landmarks(mesh, ptr::null_mut()),
            NavstarStatus::NavstarOk,
            &[],
        );
        assert_status(
            navstar_mesh_prepare_landmarks(ptr::null(), &mut has),
            NavstarStatus::NavstarErrorNullArgument,
            &["mesh"],
        );
        assert_status(
            navstar_query_set_landmarks(query, 3),
            NavstarStatus::NavstarErrorInvalidArgument,
            &["mode", "3"],
        );
        assert_status(
            navstar_query_set_landmarks(ptr::null_mut(), NAVSTAR_LANDMARKS_ON),
            NavstarStatus::NavstarErrorNullArgument,
            &["query"],
        );
    }
    // Every choice gives Rust's exact length, the same with and without the table.
    let mut rquery = Query::new(&rust);
    let exact = PathOptions::default().with_mode(PathMode::Optimal);
    let mut rng = Rng(0x51de);
    let mut compared = 0;
    for k in 0..30 {
        let mode = [
            NAVSTAR_LANDMARKS_ON,
            NAVSTAR_LANDMARKS_OFF,
            NAVSTAR_LANDMARKS_BY_SIZE,
        ][k % 3];
        // SAFETY: a live query of this thread.
        assert_status(
            unsafe { navstar_query_set_landmarks(query, mode) },
            NavstarStatus::NavstarOk,
            &[],
        );
        let mut point = || [rng.unit() * SIDE as f32, 0.0, rng.unit() * SIDE as f32];
        let (s, g) = (point(), point());
        let (status, length) = c_length(query, s, g);
        rquery.set_landmarks(false);
        let Ok(path) = rquery.find_path(s.into(), g.into(), &exact) else {
            assert_ne!(status, NavstarStatus::NavstarOk);
            continue;
        };
        if path.status != PathStatus::Complete {
            continue;
        }
        assert_eq!(status, NavstarStatus::NavstarOk);
        assert!(
            (length - path.length()).abs() <= 1e-3,
            "mode {mode}: {length} against {}",
            path.length()
        );
        compared += 1;
    }
    assert!(compared > 10, "{compared} paths compared");
    // SAFETY: made above, freed once.
    unsafe {
        navstar_query_free(query);
        navstar_mesh_free(mesh);
    }
}

/// A world of four 16 x 16 tiles of the random grid, side by side in a square, and
/// their references.
fn four_tiles() -> (crate::world::World, Vec<navstar::ffi::NavstarTileRef>) {
    use crate::world::{add_ok, grid_tile, new_world};
    let cells = cells();
    let world = new_world();
    let mut tiles = Vec::new();
    for (x0, z0) in [(0u32, 0u32), (16, 0), (0, 16), (16, 16)] {
        let part: Vec<u8> = (z0..z0 + 16)
            .flat_map(|z| (x0..x0 + 16).map(move |x| (z, x)))
            .map(|(z, x)| cells[(z * SIDE + x) as usize])
            .collect();
        let tile = grid_tile(16, 16, &part, x0 as f32, z0 as f32);
        tiles.push(add_ok(&world, &tile));
    }
    (world, tiles)
}

/// A snapshot of `world` and a query on it (the caller frees both).
fn snapshot_and_query(
    world: &crate::world::World,
) -> (
    *mut navstar::ffi::NavstarMesh,
    *mut navstar::ffi::NavstarQuery,
) {
    let mut snapshot = ptr::null_mut();
    let mut query = ptr::null_mut();
    // SAFETY: a live world; outputs writable.
    unsafe {
        assert_status(
            navstar::ffi::navstar_world_snapshot(world.0, &mut snapshot),
            NavstarStatus::NavstarOk,
            &[],
        );
        assert_status(
            navstar_query_create(snapshot, &mut query),
            NavstarStatus::NavstarOk,
            &[],
        );
    }
    (snapshot, query)
}

#[test]
fn a_world_prepares_its_tables_and_answers_the_same() {
    use crate::world::remove;
    use navstar::ffi::navstar_world_prepare_landmarks;

    let (world, tiles) = four_tiles();
    // SAFETY: a live world; `has` writable; NULL handles are refused by name.
    unsafe {
        let mut has = 7u32;
        assert_status(
            navstar_world_prepare_landmarks(world.0, &mut has),
            NavstarStatus::NavstarOk,
            &[],
        );
        assert_eq!(has, 1);
        assert_status(
            navstar_world_prepare_landmarks(world.0, ptr::null_mut()),
            NavstarStatus::NavstarOk,
            &[],
        );
        assert_status(
            navstar_world_prepare_landmarks(ptr::null(), &mut has),
            NavstarStatus::NavstarErrorNullArgument,
            &["world"],
        );
    }
    // The exact lengths with and without the tables agree, before and after a removal
    // (which keeps them).
    for round in 0..2 {
        if round == 1 {
            assert_status(remove(&world, tiles[3]), NavstarStatus::NavstarOk, &[]);
        }
        let (snapshot, query) = snapshot_and_query(&world);
        let mut rng = Rng(0x77 + round);
        let mut compared = 0;
        for _ in 0..30 {
            let mut point = || [rng.unit() * 32.0, 0.0, rng.unit() * 32.0];
            let (s, g) = (point(), point());
            let mut lengths = Vec::new();
            for mode in [NAVSTAR_LANDMARKS_ON, NAVSTAR_LANDMARKS_OFF] {
                // SAFETY: a live query of this thread.
                assert_status(
                    unsafe { navstar_query_set_landmarks(query, mode) },
                    NavstarStatus::NavstarOk,
                    &[],
                );
                lengths.push(c_length(query, s, g));
            }
            assert_eq!(lengths[0].0, lengths[1].0, "{s:?} -> {g:?}");
            if lengths[0].0 == NavstarStatus::NavstarOk {
                assert!((lengths[0].1 - lengths[1].1).abs() <= 1e-3, "{lengths:?}");
                compared += 1;
            }
        }
        assert!(compared > 10, "{compared} paths compared");
        // SAFETY: made above, freed once.
        unsafe {
            navstar_query_free(query);
            navstar_mesh_free(snapshot);
        }
    }
}

/// `navstar_world_prepare_fast_lane`: the world gets its index, a snapshot taken after
/// answers with the lengths of one taken before (no index: the search), before and
/// after a removal (which drops the index until prepared again); NULL is refused by
/// name.
#[test]
fn a_world_prepares_its_fast_lane_and_answers_the_same() {
    use crate::world::remove;
    use navstar::ffi::navstar_world_prepare_fast_lane;

    let (world, tiles) = four_tiles();
    let prepare = |world: &crate::world::World| {
        let mut has = 7u32;
        // SAFETY: a live world; `has` writable.
        let status = unsafe { navstar_world_prepare_fast_lane(world.0, &mut has) };
        assert_status(status, NavstarStatus::NavstarOk, &[]);
        has
    };
    // SAFETY: NULL handles are refused by name; a NULL output is allowed.
    unsafe {
        let mut has = 7u32;
        assert_status(
            navstar_world_prepare_fast_lane(ptr::null(), &mut has),
            NavstarStatus::NavstarErrorNullArgument,
            &["world"],
        );
        assert_eq!(has, 7);
        assert_status(
            navstar_world_prepare_fast_lane(world.0, ptr::null_mut()),
            NavstarStatus::NavstarOk,
            &[],
        );
    }
    for round in 0..2u64 {
        if round == 1 {
            assert_status(remove(&world, tiles[3]), NavstarStatus::NavstarOk, &[]);
        }
        let (before, searched) = snapshot_and_query(&world);
        assert_eq!(prepare(&world), 1);
        let (after, indexed) = snapshot_and_query(&world);
        let mut rng = Rng(0x1a + round);
        let mut compared = 0;
        for _ in 0..40 {
            let mut point = || [rng.unit() * 32.0, 0.0, rng.unit() * 32.0];
            let (s, g) = (point(), point());
            let (a, b) = (c_length(indexed, s, g), c_length(searched, s, g));
            assert_eq!(a.0, b.0, "{s:?} -> {g:?}");
            if a.0 == NavstarStatus::NavstarOk {
                assert!((a.1 - b.1).abs() <= 1e-3 * b.1.max(1.0), "{a:?} {b:?}");
                compared += 1;
            }
        }
        assert!(compared > 10, "{compared} paths compared");
        // SAFETY: made above, freed once.
        unsafe {
            navstar_query_free(searched);
            navstar_query_free(indexed);
            navstar_mesh_free(before);
            navstar_mesh_free(after);
        }
    }
}
