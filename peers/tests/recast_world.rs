//! A navstar world of the tiles of Recast's tiled bakes (every level of the shared data
//! set, tiles of 16, 32 and 64 cells), against Detour's tiled navmesh of the same tiles
//! and against the bake as one piece.
//!
//! For random pairs of points on the tiles, wherever Detour's tiled navmesh finds a full
//! path, the world answers in both modes: the exact mode's path is complete and never
//! longer than Detour's (+1e-3), and as long as the exact path on the one piece (1e-3);
//! the default mode's path is complete and valid (starts and ends at the snapped points,
//! every corner on the mesh). The world's seams join the tiles into as many islands as
//! the one piece has.

use navstar::glam::Vec3;
use navstar::{NavMesh, PathMode, PathOptions, PathStatus, Query, World, WorldOptions};
use navstar_peers::detour::{DetourQuery, TiledBake, TiledSettings};
use navstar_peers::formats::{RECAST_LEVELS, read_level};
use navstar_peers::{SplitMix64, path_length_2d, random_point_in_polygon};

/// The tile sizes (cells) every level is baked with.
const TILE_SIZES: [i32; 3] = [16, 32, 64];

/// Random start and goal pairs tried per bake.
const PAIRS: usize = 300;

/// The corners of a path as arrays.
fn corners(path: &[Vec3]) -> Vec<[f32; 3]> {
    path.iter().map(|c| c.to_array()).collect()
}

/// Checks that a default-mode path on `mesh` starts at the snapped start, ends at the
/// snapped goal and has every corner on the mesh.
fn check_valid(mesh: &NavMesh, path: &[Vec3], s: Vec3, g: Vec3, what: &str) {
    let snap = |p: Vec3| mesh.nearest_point(p, f32::INFINITY, None).unwrap().point;
    assert_eq!(path[0], snap(s), "{what}: start");
    assert_eq!(*path.last().unwrap(), snap(g), "{what}: goal");
    for c in path {
        let off = mesh
            .nearest_point(*c, f32::INFINITY, None)
            .unwrap()
            .distance;
        assert!(off < 1e-3, "{what}: corner {c} is {off} off the mesh");
    }
}

#[test]
fn a_world_of_recast_tiles_answers_where_detour_does() {
    let mut rng = SplitMix64::new(29);
    let exact = PathOptions::default().with_mode(PathMode::Optimal);
    let default = PathOptions::default();
    println!(
        "| level | tile size | tiles | pairs | Detour full paths | world complete (both modes) | exact - Detour (max) | exact: world - one piece (max) | default / Detour (mean) |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (level, scale) in RECAST_LEVELS {
        let soup = read_level(level, scale).unwrap();
        for tile_size in TILE_SIZES {
            let what = format!("{level}, tiles of {tile_size}");
            let settings = TiledSettings {
                tile_size,
                ..Default::default()
            };
            let bake = TiledBake::build(&soup, &settings).unwrap();
            let tiles = bake.tile_meshes().unwrap();
            // Detour joins tile sides whose heights are within the agent's climb.
            let options = WorldOptions::default()
                .with_max_tiles(tiles.len().next_power_of_two() as u32)
                .with_climb(settings.recast.agent_max_climb);
            let world = World::new(&options).unwrap();
            for tile in &tiles {
                world.add_tile(tile).unwrap();
            }
            let snapshot = world.snapshot();
            assert_eq!(world.tile_count() as usize, tiles.len(), "{what}");
            assert_eq!(snapshot.polygon_count() as usize, bake.polygon_count());
            let one = bake.one_piece().to_navmesh().unwrap();
            // The seams join the tiles as welding joins the one piece.
            assert_eq!(snapshot.island_count(), one.island_count(), "{what}");
            let mut detour = DetourQuery::new(&bake.detour).unwrap();
            // As in recast_tiles.rs: Detour's heights inside a polygon (no detail mesh)
            // are not navstar's; a narrow box keeps it on the polygon under the point.
            detour.half_extents = [0.05, 4.0, 0.05];
            let mut on_world = Query::new(&snapshot);
            let mut on_one = Query::new(&one);
            // Points on random polygons of random tiles (by polygon count).
            let polygons: Vec<(usize, u32)> = tiles
                .iter()
                .enumerate()
                .flat_map(|(t, mesh)| (0..mesh.polygon_count()).map(move |p| (t, p)))
                .collect();
            let pick = |rng: &mut SplitMix64| {
                let (t, p) = polygons[rng.below(polygons.len() as u32) as usize];
                random_point_in_polygon(&tiles[t], p, rng)
            };
            let (mut found, mut worst, mut seam, mut ratio_sum) = (0usize, f32::MIN, 0f32, 0f64);
            for i in 0..PAIRS {
                let (s, g) = (pick(&mut rng), pick(&mut rng));
                let Some(d) = detour.find_path(s.to_array(), g.to_array()) else {
                    continue;
                };
                found += 1;
                let what = format!("{what}, pair {i}: {s} -> {g}");
                let detour_length = path_length_2d(&snapshot, &d);
                let path = on_world.find_path(s, g, &exact).unwrap();
                assert_eq!(path.status, PathStatus::Complete, "{what}: exact");
                let length = path_length_2d(&snapshot, &corners(path.corners));
                assert!(
                    length <= detour_length + 1e-3,
                    "{what}: exact {length} > Detour {detour_length}"
                );
                worst = worst.max(length - detour_length);
                let whole = on_one.find_path(s, g, &exact).unwrap();
                let whole_length = path_length_2d(&one, &corners(whole.corners));
                assert!(
                    (length - whole_length).abs() <= 1e-3,
                    "{what}: exact {length} on the world, {whole_length} on the one piece"
                );
                seam = seam.max((length - whole_length).abs());
                let path = on_world.find_path(s, g, &default).unwrap();
                assert_eq!(path.status, PathStatus::Complete, "{what}: default");
                check_valid(&snapshot, path.corners, s, g, &what);
                let default_length = path_length_2d(&snapshot, &corners(path.corners));
                ratio_sum += f64::from(default_length / detour_length.max(1e-6));
            }
            assert!(found >= PAIRS / 10, "{what}: only {found} Detour paths");
            println!(
                "| {level} | {tile_size} | {} | {PAIRS} | {found} | {found} | {worst:.2e} | {seam:.2e} | {:.4} |",
                tiles.len(),
                ratio_sum / found as f64,
            );
        }
    }
}
