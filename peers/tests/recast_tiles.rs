//! Recast's tiled bakes of the level OBJs of the shared data set (three tile sizes), as
//! Detour tiled navmeshes and as navstar meshes: one per Detour tile, and all tiles as
//! one piece.
//!
//! * Every tile builds as a navstar mesh, with the polygon count Detour holds for it; the
//!   tile and polygon counts are the ones recorded below, and the bake covers the same
//!   ground as the solo bake of the level (within 10 %). The committed files of the
//!   bakes with tiles of 32 cells (`data/recast/*.tiles32.navmesh.obj`) load as the same
//!   one piece.
//! * In the one piece, no two wall edges of neighbouring tiles overlap along a tile side
//!   (the split at T-junctions joined them all).
//! * Detour's tiled navmesh finds a full path between random points of the largest island
//!   of the one piece; navstar's exact mode on the one piece is never longer than
//!   Detour's path, and its default mode finds a complete path.

use std::path::Path;

use navstar::glam::Vec3;
use navstar::io::load_mesh_file;
use navstar::{MeshOptions, NavMesh, PathMode, PathOptions, PathStatus, Query};
use navstar_peers::detour::{
    DetourQuery, PolygonSet, RecastSettings, TiledBake, TiledSettings, build_recast_polymesh,
};
use navstar_peers::formats::{RECAST_LEVELS, read_level};
use navstar_peers::{SplitMix64, path_length_2d, random_point_in_polygon};

/// The tile sizes (cells) every level is baked with.
const TILE_SIZES: [i32; 3] = [16, 32, 64];

/// The grid of a bake (tiles across and down), its non-empty tiles and the polygons of
/// all its tiles.
type Counts = ((i32, i32), usize, usize);

/// [`Counts`] per level (in [`RECAST_LEVELS`] order) and tile size (in [`TILE_SIZES`]
/// order), as Recast (recastnavigation-sys 1.0.3) bakes them with RecastDemo's settings.
const EXPECTED: [[Counts; 3]; 5] = [
    [((16, 21), 126, 230), ((8, 11), 41, 143), ((4, 6), 12, 111)],
    [((20, 17), 224, 458), ((10, 9), 66, 272), ((5, 5), 18, 204)],
    [
        ((21, 21), 441, 694),
        ((11, 11), 121, 357),
        ((6, 6), 36, 273),
    ],
    [((5, 4), 14, 46), ((3, 2), 4, 38), ((2, 1), 1, 31)],
    [((1, 9), 9, 9), ((1, 5), 5, 5), ((1, 3), 3, 5)],
];

fn bake(level: &str, scale: f32, tile_size: i32) -> TiledBake {
    let soup = read_level(level, scale).expect("level reads");
    let settings = TiledSettings {
        tile_size,
        ..Default::default()
    };
    TiledBake::build(&soup, &settings).expect("tiled bake")
}

/// The ground-plane area of all polygons of `mesh` (Y up).
fn area(mesh: &NavMesh) -> f64 {
    (0..mesh.polygon_count())
        .map(|p| {
            let corners = mesh.polygon_vertices(p);
            let g = |i: usize| {
                let v = mesh.vertices()[corners[i % corners.len()] as usize];
                (f64::from(v.x), f64::from(v.z))
            };
            let twice: f64 = (0..corners.len())
                .map(|i| {
                    let (a, b) = (g(i), g(i + 1));
                    a.0 * b.1 - b.0 * a.1
                })
                .sum();
            twice.abs() / 2.0
        })
        .sum()
}

/// The pairs of wall edges of `mesh` (the one piece of `bake`) that lie on the same tile
/// side, overlap along it by more than 1e-3 and are within the agent's climb of each
/// other in height: places where the tiles should have been joined.
fn unjoined_seams(bake: &TiledBake, mesh: &NavMesh) -> usize {
    let s = &bake.settings.recast;
    let side = bake.settings.tile_size as f32 * s.cell_size;
    // The tile side line an edge lies on: (axis, index of the line), if any.
    let line = |a: Vec3, b: Vec3| {
        [(0usize, a.x, b.x), (2, a.z, b.z)]
            .into_iter()
            .find_map(|(axis, u, v)| {
                let k = ((u - bake.origin[axis]) / side).round();
                let on = |w: f32| (w - (bake.origin[axis] + k * side)).abs() < 1e-3;
                (on(u) && on(v)).then_some((axis, k as i64))
            })
    };
    let mut walls = Vec::new();
    for p in 0..mesh.polygon_count() {
        let corners = mesh.polygon_vertices(p);
        for (i, across) in mesh.polygon_neighbours(p).enumerate() {
            let a = mesh.vertices()[corners[i] as usize];
            let b = mesh.vertices()[corners[(i + 1) % corners.len()] as usize];
            if let (None, Some(l)) = (across, line(a, b)) {
                walls.push((l, a, b));
            }
        }
    }
    let mut unjoined = 0;
    for (i, &(l, a, b)) in walls.iter().enumerate() {
        for &(m, c, d) in &walls[i + 1..] {
            let along = |v: Vec3| if l.0 == 0 { v.z } else { v.x };
            let lo = along(a).min(along(b)).max(along(c).min(along(d)));
            let hi = along(a).max(along(b)).min(along(c).max(along(d)));
            let close = (a.y - c.y).abs().min((a.y - d.y).abs()) <= s.agent_max_climb;
            if l == m && hi - lo > 1e-3 && close {
                unjoined += 1;
            }
        }
    }
    unjoined
}

#[test]
fn tiles_build_as_navstar_meshes_with_detours_counts() {
    println!(
        "| level | tile size (cells) | grid | tiles | polygons | one piece: islands | solo polygons | area / solo |"
    );
    println!("|---|---:|---|---:|---:|---:|---:|---:|");
    for ((level, scale), expected) in RECAST_LEVELS.into_iter().zip(EXPECTED) {
        let soup = read_level(level, scale).unwrap();
        let solo = build_recast_polymesh(&soup, &RecastSettings::default()).unwrap();
        let solo_polygons = solo.polygons.len();
        let solo_area = area(
            &PolygonSet {
                vertices: solo.vertices.clone(),
                areas: vec![0; solo.polygons.len()],
                flags: vec![1; solo.polygons.len()],
                polygons: solo.polygons,
            }
            .to_navmesh()
            .unwrap(),
        );
        for (tile_size, (grid, tiles, polygons)) in TILE_SIZES.into_iter().zip(expected) {
            let bake = bake(level, scale, tile_size);
            let what = format!("{level}, tiles of {tile_size}");
            let mut ours: Vec<([i32; 2], usize)> = bake
                .tiles
                .iter()
                .map(|t| ([t.x, t.z], t.polygons.polygons.len()))
                .collect();
            let mut detours = bake.detour.tile_polygon_counts();
            ours.sort_unstable();
            detours.sort_unstable();
            assert_eq!(ours, detours, "{what}: tiles and Detour's tiles");
            assert_eq!(bake.detour.polygon_count(), bake.polygon_count(), "{what}");
            let meshes = bake.tile_meshes().expect("every tile builds");
            for (mesh, tile) in meshes.iter().zip(&bake.tiles) {
                assert_eq!(mesh.polygon_count() as usize, tile.polygons.polygons.len());
                assert!(tile.polygons.areas.iter().all(|&a| a == 0), "{what}");
                for p in 0..mesh.polygon_count() {
                    assert_eq!((mesh.polygon_area(p), mesh.polygon_flags(p)), (0, 1));
                }
            }
            let one = bake.one_piece().to_navmesh().expect("the one piece builds");
            assert_eq!(one.polygon_count() as usize, bake.polygon_count(), "{what}");
            let tiles_area: f64 = meshes.iter().map(area).sum();
            assert!(
                (area(&one) - tiles_area).abs() < 1e-6 * tiles_area,
                "{what}"
            );
            let ratio = tiles_area / solo_area;
            println!(
                "| {level} | {tile_size} | {} x {} | {} | {} | {} | {} | {ratio:.4} |",
                bake.grid.0,
                bake.grid.1,
                bake.tiles.len(),
                bake.polygon_count(),
                one.island_count(),
                solo_polygons,
            );
            assert_eq!(
                (bake.grid, bake.tiles.len(), bake.polygon_count()),
                (grid, tiles, polygons),
                "{what}: grid, tiles, polygons"
            );
            assert!((ratio - 1.0).abs() < 0.1, "{what}: area ratio {ratio}");
            assert_eq!(unjoined_seams(&bake, &one), 0, "{what}");
            if tile_size == 32 {
                // The committed file of this bake (`recast_navmesh --tile-size 32`) is
                // up to date: it loads as the same one piece.
                let stem = level.trim_end_matches(".obj");
                let file = Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join(format!("../data/recast/{stem}.tiles32.navmesh.obj"));
                let loaded = load_mesh_file(&file, &MeshOptions::default()).unwrap();
                assert_eq!(
                    (loaded.polygon_count(), loaded.island_count(), area(&loaded)),
                    (one.polygon_count(), one.island_count(), area(&one)),
                    "{}",
                    file.display()
                );
            }
        }
    }
}

#[test]
fn detour_finds_paths_on_the_largest_island() {
    let mut rng = SplitMix64::new(13);
    let exact = PathOptions::default().with_mode(PathMode::Optimal);
    println!("| level | tile size | queries | Detour full paths | exact - Detour (max) |");
    println!("|---|---:|---:|---:|---:|");
    for (level, scale) in RECAST_LEVELS {
        for tile_size in TILE_SIZES {
            let what = format!("{level}, tiles of {tile_size}");
            let bake = bake(level, scale, tile_size);
            let one = bake.one_piece().to_navmesh().unwrap();
            let mut sizes = vec![0u32; one.island_count() as usize];
            for p in 0..one.polygon_count() {
                sizes[one.island(p) as usize] += 1;
            }
            let largest = (0..sizes.len()).max_by_key(|&i| sizes[i]).unwrap() as u32;
            let polygons: Vec<u32> = (0..one.polygon_count())
                .filter(|&p| one.island(p) == largest)
                .collect();
            let mut detour = DetourQuery::new(&bake.detour).unwrap();
            // Without a detail mesh Detour's heights inside a polygon (a fan from its
            // first corner) are not navstar's (a fan from another corner, with the
            // one piece's extra corners) and differ by more than the climb on the
            // uneven levels; a narrow box keeps Detour on the polygon under the point.
            detour.half_extents = [0.05, 4.0, 0.05];
            let mut query = Query::new(&one);
            let queries = 200;
            let mut worst = f32::NEG_INFINITY;
            for i in 0..queries {
                let pick = |rng: &mut SplitMix64| {
                    let p = polygons[rng.below(polygons.len() as u32) as usize];
                    random_point_in_polygon(&one, p, rng)
                };
                let (s, g) = (pick(&mut rng), pick(&mut rng));
                let d = detour
                    .find_path(s.to_array(), g.to_array())
                    .unwrap_or_else(|| panic!("{what}: query {i}: Detour finds no path"));
                let detour_length = path_length_2d(&one, &d);
                let path = query.find_path(s, g, &exact).unwrap();
                assert_eq!(path.status, PathStatus::Complete, "{what}: query {i}");
                let corners: Vec<[f32; 3]> = path.corners.iter().map(|c| c.to_array()).collect();
                let length = path_length_2d(&one, &corners);
                assert!(
                    length <= detour_length + 1e-3,
                    "{what}: query {i}: exact {length} > Detour {detour_length}"
                );
                worst = worst.max(length - detour_length);
                let path = query.find_path(s, g, &PathOptions::default()).unwrap();
                assert_eq!(path.status, PathStatus::Complete, "{what}: query {i}");
            }
            println!("| {level} | {tile_size} | {queries} | {queries} | {worst:.2e} |");
        }
    }
}
