//! navstar's import of Detour's own data: two levels of the shared data set baked by
//! Recast and Detour (`recastnavigation-sys`) as one tile (`dtCreateNavMeshData`'s bytes)
//! and in tiles of 32 cells (RecastDemo's set file), loaded with `navstar::io`.
//!
//! Checks against navstar meshes built from the same Recast polygons (the bake's own
//! export): the same polygon count, areas, flags and corner positions (within Detour's
//! float rounding), the baked agent radius; between random points of the largest island
//! (most of them with a complete path), the same exact-mode statuses and ground-plane
//! lengths (single tiles; see the set test for why not on the world), and default-mode
//! paths that are complete where the exact ones are, lie on the mesh and are never
//! shorter than the exact ones.

use navstar::glam::Vec3;
use navstar::io::{DetourData, load_detour_bytes, load_detour_tile_bytes};
use navstar::{MeshOptions, NavMesh, PathMode, PathOptions, PathStatus, Query};
use navstar_peers::detour::{RecastSettings, TiledBake, TiledSettings};
use navstar_peers::formats::{RECAST_LEVELS, read_level};
use navstar_peers::{SplitMix64, path_length_2d, random_point_in_polygon};

/// The levels used (indices into [`RECAST_LEVELS`]): the small Godot level and the
/// dungeon.
const LEVELS: [usize; 2] = [3, 0];
/// Random queries per level and form.
const QUERIES: usize = 100;
/// Largest distance between a corner as Detour stores it and as the bake exports it.
const ROUNDING: f32 = 1e-3;

fn bake(level: usize, tile_size: i32) -> TiledBake {
    let (name, scale) = RECAST_LEVELS[level];
    let soup = read_level(name, scale).expect("level reads");
    let settings = TiledSettings {
        recast: RecastSettings::default(),
        tile_size,
    };
    TiledBake::build(&soup, &settings).expect("tiled bake")
}

/// Same polygons (in the same order), areas, flags and corners.
fn same_polygons(imported: &NavMesh, reference: &NavMesh) {
    assert_eq!(imported.polygon_count(), reference.polygon_count());
    for (p, q) in imported.polygon_ids().zip(reference.polygon_ids()) {
        assert_eq!(
            imported.polygon_area(p),
            reference.polygon_area(q),
            "polygon {q}"
        );
        assert_eq!(
            imported.polygon_flags(p),
            reference.polygon_flags(q),
            "polygon {q}"
        );
        let corners = |mesh: &NavMesh, p: u32| -> Vec<Vec3> {
            mesh.polygon_vertices(p)
                .iter()
                .map(|&v| mesh.vertex(v))
                .collect()
        };
        let (a, b) = (corners(imported, p), corners(reference, q));
        assert_eq!(a.len(), b.len(), "polygon {q}");
        // Both stored counter-clockwise; the first corner may differ.
        let rotated = |s: usize| {
            a.iter()
                .enumerate()
                .all(|(i, v)| v.distance(b[(i + s) % b.len()]) < ROUNDING)
        };
        assert!(
            (0..b.len()).any(rotated),
            "polygon {q}: corners {a:?} and {b:?} differ"
        );
    }
}

/// The ground-plane length of a path.
fn flat_length(mesh: &NavMesh, corners: &[Vec3]) -> f32 {
    let points: Vec<[f32; 3]> = corners.iter().map(|c| c.to_array()).collect();
    path_length_2d(mesh, &points)
}

/// Exact lengths equal on both meshes (when `exact_on_imported`); default paths on the
/// imported one complete where the reference's exact path is, on the mesh, and never
/// shorter than it.
fn same_paths(imported: &NavMesh, reference: &NavMesh, seed: u64, exact_on_imported: bool) {
    // Polygons of the reference's largest island.
    let mut sizes = vec![0usize; reference.island_count() as usize];
    for q in reference.polygon_ids() {
        sizes[reference.island(q) as usize] += 1;
    }
    let largest = (0..sizes.len())
        .max_by_key(|&i| sizes[i])
        .expect("an island") as u32;
    let ids: Vec<(u32, u32)> = imported
        .polygon_ids()
        .zip(reference.polygon_ids())
        .filter(|&(_, q)| reference.island(q) == largest)
        .collect();
    let mut rng = SplitMix64::new(seed);
    let mut on_imported = Query::new(imported);
    let mut on_reference = Query::new(reference);
    let exact = PathOptions::default().with_mode(PathMode::Optimal);
    let mut complete = 0;
    for _ in 0..QUERIES {
        let (_, a) = ids[rng.below(ids.len() as u32) as usize];
        let (_, b) = ids[rng.below(ids.len() as u32) as usize];
        let start = random_point_in_polygon(reference, a, &mut rng);
        let goal = random_point_in_polygon(reference, b, &mut rng);
        let theirs = on_reference
            .find_path_vec(start, goal, &exact)
            .expect("reference path");
        if theirs.status != PathStatus::Complete {
            // A point of an upper floor may snap to the floor below.
            continue;
        }
        complete += 1;
        // Ground-plane lengths: the exact mode is shortest in the ground plane.
        let m = flat_length(reference, &theirs.corners);
        if exact_on_imported {
            let ours = on_imported
                .find_path_vec(start, goal, &exact)
                .expect("imported path");
            assert_eq!(ours.status, theirs.status, "{start} -> {goal}");
            let l = flat_length(imported, &ours.corners);
            assert!(
                (l - m).abs() <= 1e-3 * (1.0 + m),
                "{start} -> {goal}: exact {l} vs {m}"
            );
        }
        let default = on_imported
            .find_path_vec(start, goal, &PathOptions::default())
            .expect("default path");
        assert_eq!(default.status, PathStatus::Complete, "{start} -> {goal}");
        let d = flat_length(imported, &default.corners);
        assert!(
            d >= m - 1e-3 * (1.0 + m),
            "{start} -> {goal}: default {d} < exact {m}"
        );
        for &corner in &default.corners {
            let near = imported
                .nearest_point(corner, 1.0, None)
                .expect("corner near the mesh");
            assert!(
                near.distance < 1e-2,
                "{start} -> {goal}: corner {corner} off the mesh"
            );
        }
    }
    assert!(complete * 2 >= QUERIES, "only {complete} complete paths");
}

#[test]
fn single_tile_data_imports_as_the_same_mesh() {
    for level in LEVELS {
        // Tiles larger than the level: one Recast run, one Detour tile.
        let bake = bake(level, 4096);
        assert_eq!(bake.tiles.len(), 1, "level {level}");
        let data: Vec<&[u8]> = bake.detour.tile_data().collect();
        assert_eq!(data.len(), 1);
        let tile = load_detour_tile_bytes(data[0], &MeshOptions::default()).expect("imports");
        assert_eq!(tile.agent.radius, RecastSettings::default().agent_radius);
        assert_eq!(
            tile.mesh.polygon_count() as usize,
            bake.detour.polygon_count()
        );
        let reference = bake.tiles[0].polygons.to_navmesh().expect("reference");
        same_polygons(&tile.mesh, &reference);
        same_paths(&tile.mesh, &reference, level as u64, true);
    }
}

#[test]
fn tile_sets_import_as_a_world_of_the_same_polygons() {
    for level in LEVELS {
        let bake = bake(level, 32);
        assert!(bake.tiles.len() > 1, "level {level}");
        let file = bake.detour.set_file();
        let Ok(DetourData::Set(set)) = load_detour_bytes(&file, &MeshOptions::default()) else {
            panic!("level {level}: the set file does not import as a set");
        };
        assert_eq!(set.tiles.len(), bake.tiles.len());
        for (tile, recast) in set.tiles.iter().zip(&bake.tiles) {
            assert_eq!((tile.grid[0], tile.grid[1]), (recast.x, recast.z));
        }
        assert_eq!(set.baked_radius(), RecastSettings::default().agent_radius);
        let imported = set.world.snapshot();
        assert_eq!(imported.polygon_count() as usize, bake.polygon_count());
        let reference = bake.one_piece().to_navmesh().expect("reference");
        same_polygons(&imported, &reference);
        same_paths(&imported, &reference, 100 + level as u64, true);
    }
}
