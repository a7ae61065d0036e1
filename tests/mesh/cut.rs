//! Cutting a mesh into square tiles (`NavMesh::cut_into_tiles`): the tiles cover exactly
//! the mesh (same ground area, each tile inside its square, heights on the surface),
//! keep areas, flags and links, leave T-junctions on the borders of grid maps, and bad
//! tile sizes are errors naming the value.

use std::collections::BTreeSet;
use std::path::Path;

use navstar::glam::{Vec2, Vec3};
use navstar::io::load_mesh_file;
use navstar::{
    MAX_CUT_TILES, MeshError, MeshInput, MeshOptions, NavMesh, OffMeshLink, TileCut, UpAxis, World,
    WorldOptions,
};

use proptest::prelude::*;

use crate::common::{Soup, p, random_grid, seeded_grid};
use crate::{GRID_DIR, MESH_DIR};

/// Recast's navigation meshes of the shared OBJ levels, bundled with the repository.
const RECAST_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/recast");

/// The ground area of a mesh, summed in f64.
fn ground_area(mesh: &NavMesh) -> f64 {
    let up = mesh.up_axis();
    let vertices = mesh.vertices();
    (0..mesh.polygon_count())
        .map(|poly| {
            let corners = mesh.polygon_vertices(poly);
            let g = |i: usize| {
                up.ground(vertices[corners[i % corners.len()] as usize])
                    .as_dvec2()
            };
            (0..corners.len())
                .map(|i| g(i).perp_dot(g(i + 1)))
                .sum::<f64>()
                / 2.0
        })
        .sum()
}

fn load(path: &str, up: UpAxis) -> NavMesh {
    load_mesh_file(Path::new(path), &MeshOptions::default().with_up_axis(up))
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Checks a cut against its mesh: total ground area (to `tolerance`, relative), every
/// tile vertex inside its square, tiles in row order with their squares on the grid.
#[track_caller]
fn check_cover(name: &str, mesh: &NavMesh, cut: &TileCut, tolerance: f64) {
    let up = mesh.up_axis();
    let whole = ground_area(mesh);
    let tiled: f64 = cut.tiles.iter().map(|t| ground_area(&t.mesh)).sum();
    assert!(
        (tiled - whole).abs() <= tolerance * whole,
        "{name} at {}: tiles' area {tiled}, mesh's {whole}",
        cut.tile_size
    );
    let mut previous = None;
    for tile in &cut.tiles {
        let order = (tile.row, tile.column);
        assert!(
            previous < Some(order),
            "{name}: tiles out of order at {order:?}"
        );
        previous = Some(order);
        assert!(tile.column < cut.columns && tile.row < cut.rows);
        let expected_min =
            cut.origin + Vec2::new(tile.column as f32, tile.row as f32) * cut.tile_size;
        assert!(
            (tile.min - expected_min).abs().max_element()
                <= 1e-4 * cut.tile_size.max(1.0)
                    + 8.0 * f32::EPSILON * expected_min.abs().max_element(),
            "{name}: tile {order:?} square at {} instead of {expected_min}",
            tile.min
        );
        assert_eq!(tile.mesh.up_axis(), up);
        for (v, &position) in tile.mesh.vertices().iter().enumerate() {
            let g = up.ground(position);
            assert!(
                tile.min.cmple(g).all() && g.cmple(tile.max).all(),
                "{name}: tile {order:?} vertex {v} at {g} outside [{}, {}]",
                tile.min,
                tile.max
            );
        }
    }
}

#[test]
fn tiles_cover_the_mesh_exactly_and_stay_in_their_squares() {
    let meshes = [
        (
            format!("{GRID_DIR}/den520d.map"),
            UpAxis::Y,
            vec![7.0, 32.0, 100.0, 1000.0],
        ),
        (
            format!("{GRID_DIR}/arena.map"),
            UpAxis::Y,
            vec![1.0, 4.5, 10.0],
        ),
        (
            format!("{MESH_DIR}/scene_mp_2p_01.mesh"),
            UpAxis::Y,
            vec![13.3, 50.0],
        ),
        (
            format!("{RECAST_DIR}/undulating.navmesh.obj"),
            UpAxis::Y,
            vec![0.7, 3.0, 10.0],
        ),
        (
            format!("{RECAST_DIR}/dungeon.navmesh.obj"),
            UpAxis::Y,
            vec![1.9, 8.0],
        ),
    ];
    for (path, up, sizes) in meshes {
        let mesh = load(&path, up);
        for size in sizes {
            let cut = mesh
                .cut_into_tiles(size)
                .unwrap_or_else(|e| panic!("{path} at {size}: {e}"));
            assert!(!cut.tiles.is_empty());
            check_cover(&path, &mesh, &cut, 1e-5);
            let polygons: u32 = cut.tiles.iter().map(|t| t.mesh.polygon_count()).sum();
            eprintln!(
                "{path} at {size}: {} of {} x {} tiles, {polygons} polygons (mesh: {})",
                cut.tiles.len(),
                cut.columns,
                cut.rows,
                mesh.polygon_count()
            );
        }
    }
}

#[test]
fn a_tile_larger_than_the_mesh_is_the_mesh_merged() {
    let mesh = load(&format!("{RECAST_DIR}/nav_test.navmesh.obj"), UpAxis::Y);
    let cut = mesh.cut_into_tiles(1e4).unwrap();
    assert_eq!((cut.columns, cut.rows, cut.tiles.len()), (1, 1, 1));
    let tile = &cut.tiles[0].mesh;
    // Planar polygons merge; the others keep the triangles of their surface.
    let triangles: u32 = (0..mesh.polygon_count())
        .map(|p| mesh.polygon_vertices(p).len() as u32 - 2)
        .sum();
    assert!(tile.polygon_count() <= triangles);
    assert_eq!(tile.island_count(), mesh.island_count());
    check_cover("nav_test", &mesh, &cut, 1e-5);
}

/// The wall edges of `tile` that lie on the line `axis` = `value`, as intervals along
/// the line.
fn border_edges(tile: &NavMesh, axis: usize, value: f32) -> Vec<(f32, f32)> {
    let up = tile.up_axis();
    let g = |v: u32| up.ground(tile.vertices()[v as usize]);
    let other = 1 - axis;
    let mut edges = Vec::new();
    for poly in 0..tile.polygon_count() {
        let corners = tile.polygon_vertices(poly);
        for (i, neighbour) in tile.polygon_neighbours(poly).enumerate() {
            let (a, b) = (g(corners[i]), g(corners[(i + 1) % corners.len()]));
            if neighbour.is_none() && a[axis] == value && b[axis] == value {
                edges.push((a[other].min(b[other]), a[other].max(b[other])));
            }
        }
    }
    edges
}

/// Whether an end of an edge of `ends` lies strictly inside an edge of `edges`.
fn t_junction(ends: &[(f32, f32)], edges: &[(f32, f32)]) -> bool {
    ends.iter()
        .flat_map(|&(a, b)| [a, b])
        .any(|t| edges.iter().any(|&(a, b)| a < t && t < b))
}

#[test]
fn grid_map_tiles_meet_with_t_junctions() {
    let mesh = load(&format!("{GRID_DIR}/den520d.map"), UpAxis::Y);
    let cut = mesh.cut_into_tiles(32.0).unwrap();
    let at = |column: u32, row: u32| {
        cut.tiles
            .iter()
            .find(|t| (t.column, t.row) == (column, row))
    };
    let (mut seams, mut t_junctions) = (0, 0);
    for tile in &cut.tiles {
        for (axis, other) in [
            (0, at(tile.column + 1, tile.row)),
            (1, at(tile.column, tile.row + 1)),
        ] {
            let Some(other) = other else {
                continue;
            };
            let line = tile.max[axis];
            assert_eq!(line, other.min[axis]);
            let (low, high) = (
                border_edges(&tile.mesh, axis, line),
                border_edges(&other.mesh, axis, line),
            );
            // Where both tiles have ground on the line, they meet (grid coordinates are exact).
            let overlap: f32 = low
                .iter()
                .flat_map(|&(a, b)| {
                    high.iter()
                        .map(move |&(c, d)| (b.min(d) - a.max(c)).max(0.0))
                })
                .sum();
            if overlap == 0.0 {
                continue;
            }
            seams += 1;
            if t_junction(&low, &high) || t_junction(&high, &low) {
                t_junctions += 1;
            }
        }
    }
    eprintln!("den520d at 32: {t_junctions} of {seams} seams have T-junctions");
    assert!(seams > 20, "only {seams} seams");
    assert!(t_junctions > 0, "every seam matches one to one");
}

#[test]
fn heights_of_new_corners_lie_on_the_polygon_surface() {
    // A sloped quad, y = 0.5 x + 0.25 z, and a triangle beside it on the same plane.
    let plane = |x: f32, z: f32| Vec3::new(x, 0.5 * x + 0.25 * z, z);
    let vertices = [
        plane(0.0, 0.0),
        plane(3.0, 0.0),
        plane(3.0, 2.0),
        plane(0.0, 2.0),
        plane(5.0, 1.0),
    ];
    let mesh = NavMesh::from_polygons(
        &vertices,
        &[0, 1, 2, 3, 1, 4, 2],
        &[4, 3],
        &MeshOptions::default(),
    )
    .unwrap();
    for size in [0.7, 1.0, 1.3] {
        let cut = mesh.cut_into_tiles(size).unwrap();
        check_cover("slope", &mesh, &cut, 1e-6);
        for tile in &cut.tiles {
            for v in tile.mesh.vertices() {
                let expected = plane(v.x, v.z).y;
                assert!(
                    (v.y - expected).abs() < 1e-5,
                    "{v} off the plane at tile size {size}"
                );
            }
        }
    }
}

#[test]
fn pieces_keep_their_polygon_area_and_flags() {
    // Three squares in a row: mud (area 2) between two floors, the last one closed.
    let mut soup = Soup::new();
    for x in 0..3 {
        let x = x as f32;
        soup.polygon_at(&[p(x, 0.0), p(x + 1.0, 0.0), p(x + 1.0, 1.0), p(x, 1.0)]);
    }
    let input = MeshInput::new(&soup.vertices, &soup.indices)
        .with_polygon_sizes(&soup.sizes)
        .with_areas(&[0, 2, 0]);
    let mesh = NavMesh::from_input(&input, &MeshOptions::default()).unwrap();
    mesh.set_polygon_flags(2, 0x8).unwrap();
    let cut = mesh.cut_into_tiles(0.8).unwrap();
    check_cover("three squares", &mesh, &cut, 1e-6);
    let mut seen = BTreeSet::new();
    for tile in &cut.tiles {
        let vertices = tile.mesh.vertices();
        for poly in 0..tile.mesh.polygon_count() {
            let corners = tile.mesh.polygon_vertices(poly);
            let centre =
                corners.iter().map(|&v| vertices[v as usize]).sum::<Vec3>() / corners.len() as f32;
            let original = mesh.nearest_point(centre, 1e-4, None).unwrap().polygon;
            assert_eq!(tile.mesh.polygon_area(poly), mesh.polygon_area(original));
            assert_eq!(tile.mesh.polygon_flags(poly), mesh.polygon_flags(original));
            seen.insert(original);
        }
    }
    assert_eq!(seen.len(), 3);
}

#[test]
fn links_inside_a_tile_stay_and_links_between_tiles_are_returned() {
    // A 4 x 1 floor cut into two tiles of side 2.
    let mut soup = Soup::new();
    soup.polygon_at(&[p(0.0, 0.0), p(4.0, 0.0), p(4.0, 1.0), p(0.0, 1.0)]);
    let inside = OffMeshLink::new(p(0.2, 0.5), p(1.5, 0.5))
        .with_bidirectional(false)
        .with_cost(7.0);
    let across = OffMeshLink::new(p(0.5, 0.5), p(3.5, 0.5))
        .with_area(3)
        .with_flags(0x4);
    let links = [inside, across];
    let input = MeshInput::new(&soup.vertices, &soup.indices)
        .with_polygon_sizes(&soup.sizes)
        .with_links(&links);
    let mesh = NavMesh::from_input(&input, &MeshOptions::default()).unwrap();
    let cut = mesh.cut_into_tiles(2.0).unwrap();
    assert_eq!(cut.tiles.len(), 2);
    assert_eq!(cut.tiles[0].mesh.link_count(), 1);
    assert_eq!(cut.tiles[1].mesh.link_count(), 0);
    assert_eq!(cut.links.len(), 1);
    let returned = cut.links[0];
    assert_eq!(
        (returned.area, returned.flags, returned.bidirectional),
        (3, 0x4, true)
    );
    let ends: BTreeSet<[u32; 3]> = [returned.start, returned.end]
        .iter()
        .map(|v| v.to_array().map(f32::to_bits))
        .collect();
    let expected: BTreeSet<[u32; 3]> = [across.start, across.end]
        .iter()
        .map(|v| v.to_array().map(f32::to_bits))
        .collect();
    assert_eq!(ends, expected);
    // The link kept inside the first tile joins its ends there: a path uses it.
    let tile = &cut.tiles[0].mesh;
    assert_eq!(tile.link_flags(0), navstar::DEFAULT_FLAGS);
}

#[test]
fn bad_tile_sizes_are_errors_naming_the_value() {
    let mesh = load(&format!("{GRID_DIR}/arena.map"), UpAxis::Y);
    for size in [
        0.0,
        -0.0,
        -3.0,
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        1e-3,
        1e-30,
    ] {
        match mesh.cut_into_tiles(size) {
            Err(error @ MeshError::TileCut { tile_size, .. }) => {
                assert!(tile_size.to_bits() == size.to_bits());
                let message = error.to_string();
                assert!(
                    message.contains(&size.to_string()),
                    "{message:?} does not name {size}"
                );
                eprintln!("{message}");
            }
            other => panic!("tile size {size}: {other:?}"),
        }
    }
    let too_many = mesh.cut_into_tiles(1e-3).unwrap_err().to_string();
    assert!(too_many.contains(&MAX_CUT_TILES.to_string()), "{too_many}");
    // Too fine for the coordinates: far from the origin, tiny tiles are refused even
    // though few of them would do.
    let far = |x: f32, z: f32| Vec3::new(x + 1e6, 0.0, z);
    let vertices = [
        far(0.0, 0.0),
        far(0.25, 0.0),
        far(0.25, 0.25),
        far(0.0, 0.25),
    ];
    let small =
        NavMesh::from_polygons(&vertices, &[0, 1, 2, 3], &[4], &MeshOptions::default()).unwrap();
    assert!(matches!(
        small.cut_into_tiles(0.1),
        Err(MeshError::TileCut { .. })
    ));
}

/// A random grid mesh moved by `offset` (far from the origin, f32 steps are coarse) and
/// tilted onto the plane `y = 0.3 x - 0.2 z`.
/// `None` for a grid of holes only.
fn moved_grid(seed: u64, cols: usize, rows: usize, jitter: bool, offset: f32) -> Option<NavMesh> {
    let mut soup = if jitter {
        seeded_grid(seed, cols, rows)
    } else {
        let cells: Vec<_> = (0..cols * rows)
            .map(|i| crate::common::Cell::from_code((seed >> (i % 60)) as u8 % 10))
            .collect();
        random_grid(cols, rows, &cells, &[(0.0, 0.0)], 0.0)
    };
    for v in &mut soup.vertices {
        let (x, z) = (v.x + offset, v.z + offset);
        *v = Vec3::new(x, 0.3 * v.x - 0.2 * v.z, z);
    }
    match soup.try_build(&MeshOptions::default()) {
        Ok(mesh) => Some(mesh),
        Err(MeshError::NoPolygons) => None,
        Err(e) => panic!("grid {seed}: {e}"),
    }
}

proptest! {
    #![proptest_config(crate::common::proptest_config(200))]

    /// Random grids, jittered or exact, near the origin or far from it, cut at random
    /// sizes: every cut succeeds, covers the mesh exactly, and keeps heights on the
    /// surface.
    #[test]
    fn random_grids_cut_at_random_sizes_cover_the_mesh(
        seed in any::<u64>(),
        cols in 2usize..9,
        rows in 2usize..9,
        jitter in any::<bool>(),
        offset in prop::sample::select(vec![0.0f32, 1000.37, -4096.1, 30000.0]),
        size in 0.15f32..6.0,
    ) {
        let Some(mesh) = moved_grid(seed, cols, rows, jitter, offset) else {
            return Ok(());
        };
        // Far from the origin, tiles finer than 2^-16 of the coordinates are refused.
        let size = size.max((offset.abs() + 9.0) / 65536.0 * 1.5);
        let cut = mesh.cut_into_tiles(size).unwrap_or_else(|e| panic!("{e}"));
        // Points made on grid lines are rounded to f32 steps, which are coarse far from
        // the origin: each moves the border by a step at most (a few dozen where a corner
        // lies next to the line) over a tile's side.
        let step = f64::from(f32::EPSILON) * (8.0 + f64::from(offset.abs()));
        let borders: usize = cut
            .tiles
            .iter()
            .map(|t| {
                let on_border = |g: Vec2| g.x == t.min.x || g.x == t.max.x || g.y == t.min.y || g.y == t.max.y;
                t.mesh.vertices().iter().filter(|&&v| on_border(UpAxis::Y.ground(v))).count()
            })
            .sum();
        let whole = ground_area(&mesh);
        let tolerance = 1e-6 + 32.0 * step * f64::from(size) * borders as f64 / whole;
        check_cover("random grid", &mesh, &cut, tolerance);
        for tile in &cut.tiles {
            for v in tile.mesh.vertices() {
                let (x, z) = (f64::from(v.x) - f64::from(offset), f64::from(v.z) - f64::from(offset));
                let expected = 0.3 * x - 0.2 * z;
                let scale = 1e-6 * (1.0 + f64::from(offset.abs()));
                prop_assert!((f64::from(v.y) - expected).abs() <= scale, "{v} off the plane");
            }
        }
    }
}

#[test]
fn tiles_joined_in_a_world_keep_the_islands_of_the_mesh() {
    // Points made from different edges that round to one position (next to a vertex
    // just outside a square) must be one vertex in every piece, and crumbs a few f32
    // steps across must not stand alone: either would add islands.
    for (name, sizes) in [
        ("dungeon", [2.0, 5.0, 12.0]),
        ("nav_test", [2.0, 5.0, 12.0]),
        ("undulating", [2.0, 5.0, 12.0]),
    ] {
        let mesh = load(&format!("{RECAST_DIR}/{name}.navmesh.obj"), UpAxis::Y);
        for size in sizes {
            let cut = mesh.cut_into_tiles(size).unwrap();
            let slots = (cut.tiles.len() as u32).next_power_of_two();
            let world = World::new(&WorldOptions::default().with_max_tiles(slots)).unwrap();
            for tile in &cut.tiles {
                world.add_tile(&tile.mesh).unwrap();
            }
            let islands = world.snapshot().island_count();
            assert_eq!(islands, mesh.island_count(), "{name} at {size}");
        }
    }
}
