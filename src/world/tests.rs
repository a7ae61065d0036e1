//! The world's bookkeeping: snapshots keep the mesh invariants across seams, and a
//! change gives the same tables as stitching every tile again (the tile operations'
//! references, flags and errors are in `operation_tests.rs`).

use glam::Vec3;

use super::{TileRef, World, WorldOptions};
use crate::mesh::{MeshData, NO_NEIGHBOUR, NO_TWIN, NavMesh};
use crate::{MeshOptions, TileGrid};

/// A tile of the cells marked `.` (rows along +z, top row first) with its cell (0, 0)
/// at `(x, z)`.
pub(super) fn grid_tile(x: f32, z: f32, rows: &[&str]) -> NavMesh {
    let walkable: Vec<bool> = rows
        .iter()
        .flat_map(|r| r.bytes().map(|c| c == b'.'))
        .collect();
    let grid = TileGrid {
        width: rows[0].len() as u32,
        height: rows.len() as u32,
        walkable: &walkable,
        cell_size: 1.0,
        origin: Vec3::new(x, 0.0, z),
    };
    NavMesh::from_grid(&grid, &MeshOptions::default()).unwrap()
}

/// Checks what every mesh must hold, across seams too: twins are mutual and walk the
/// same edge the other way (within the seam tolerance), neighbours across an edge share
/// an island, a dead end has at most one neighbouring polygon, each slot's portal is
/// the one its polygon's corners and neighbours give, and both ends of every wall are
/// wall vertices.
pub(super) fn check_invariants(mesh: &MeshData, tolerance: f32) {
    for p in mesh.polygon_ids() {
        let mut across = Vec::new();
        let range = mesh.corner_range(p);
        let corners: Vec<u32> = range.clone().map(|s| mesh.corners[s]).collect();
        let neighbours: Vec<u32> = range.clone().map(|s| mesh.neighbours[s]).collect();
        for (i, slot) in range.enumerate() {
            assert_eq!(
                mesh.portals[slot],
                crate::mesh::portal_of_slot(&corners, &neighbours, i),
                "portal of polygon {p} slot {slot}"
            );
            let n = mesh.neighbours[slot];
            let t = mesh.twin[slot];
            if n == NO_NEIGHBOUR {
                assert_eq!(t, NO_TWIN, "polygon {p} slot {slot}");
                let next = corners[(i + 1) % corners.len()];
                for v in [corners[i], next] {
                    assert!(mesh.wall_vertex[v as usize], "wall end {v} of polygon {p}");
                }
                continue;
            }
            assert!(mesh.contains_polygon(n), "polygon {p} slot {slot}: {n}");
            assert!(mesh.corner_range(n).contains(&(t as usize)));
            assert_eq!(mesh.twin[t as usize] as usize, slot, "twin of slot {slot}");
            assert_eq!(mesh.neighbours[t as usize], p);
            let (a, b) = mesh.edge(p, slot);
            let (c, d) = mesh.edge(n, t as usize);
            let g = |v: u32| mesh.ground[v as usize];
            assert!(g(a).distance(g(d)) <= tolerance && g(b).distance(g(c)) <= tolerance);
            assert_eq!(mesh.island(p), mesh.island(n));
            if !across.contains(&n) {
                across.push(n);
            }
        }
        assert_eq!(mesh.dead_end[p as usize], across.len() <= 1, "polygon {p}");
    }
}

/// Whether two meshes have the same tables over the same element ids, and so have
/// their merged copies.
pub(super) fn same_tables(a: &MeshData, b: &MeshData) -> bool {
    fn coarse(m: &MeshData) -> Option<&crate::mesh::CoarseMesh> {
        m.coarse.get().and_then(Option::as_deref)
    }
    let same_copies = match (coarse(a), coarse(b)) {
        (None, None) => true,
        (Some(x), Some(y)) => {
            same_layer(&x.mesh, &y.mesh)
                && x.of_original.chunk_count() == y.of_original.chunk_count()
                && (0..x.of_original.chunk_count())
                    .all(|t| x.of_original.chunk(t)[..] == y.of_original.chunk(t)[..])
        }
        _ => false,
    };
    same_copies && same_layer(a, b)
}

/// Whether two meshes have the same tables over the same element ids.
fn same_layer(a: &MeshData, b: &MeshData) -> bool {
    fn chunks<T: PartialEq>(x: &crate::mesh::Tiled<T>, y: &crate::mesh::Tiled<T>) -> bool {
        x.chunk_count() == y.chunk_count()
            && (0..x.chunk_count()).all(|t| x.chunk(t)[..] == y.chunk(t)[..])
    }
    chunks(&a.vertices, &b.vertices)
        && chunks(&a.poly_start, &b.poly_start)
        && chunks(&a.corners, &b.corners)
        && chunks(&a.neighbours, &b.neighbours)
        && chunks(&a.twin, &b.twin)
        && chunks(&a.portals, &b.portals)
        && chunks(&a.wall_vertex, &b.wall_vertex)
        && chunks(&a.dead_end, &b.dead_end)
        && a.island_count == b.island_count
        && a.polygon_ids().all(|p| a.island(p) == b.island(p))
}

/// A 4 x 3 arrangement of tiles of different sizes and shapes, each with a hole or a
/// blocked corner, so that seams have T-junctions and partial overlaps.
pub(super) fn patchwork(tile: fn(f32, f32, &[&str]) -> NavMesh) -> Vec<NavMesh> {
    let mut tiles = Vec::new();
    let columns = [(0.0, 3), (3.0, 5), (8.0, 2), (10.0, 4)];
    let rows = [(0.0, 4), (4.0, 3), (7.0, 5)];
    for (i, &(z, h)) in rows.iter().enumerate() {
        for (j, &(x, w)) in columns.iter().enumerate() {
            let cells: Vec<String> = (0..h)
                .map(|r| {
                    (0..w)
                        .map(|c| {
                            if (r * 7 + c * 3 + i + j) % 5 == 0 {
                                '#'
                            } else {
                                '.'
                            }
                        })
                        .collect()
                })
                .collect();
            let rows: Vec<&str> = cells.iter().map(String::as_str).collect();
            tiles.push(tile(x, z, &rows));
        }
    }
    tiles
}

/// The cells marked `.` as [`grid_tile`] places them, each cut into two triangles: the
/// tile's merged copy joins them into larger polygons.
pub(super) fn triangle_tile(x: f32, z: f32, rows: &[&str]) -> NavMesh {
    let width = rows[0].len() as u32;
    let vertices: Vec<Vec3> = (0..=rows.len() as u32)
        .flat_map(|r| (0..=width).map(move |c| Vec3::new(x + c as f32, 0.0, z + r as f32)))
        .collect();
    let at = |c: u32, r: u32| r * (width + 1) + c;
    let mut indices = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        for (c, cell) in row.bytes().enumerate() {
            let (c, r) = (c as u32, r as u32);
            if cell == b'.' {
                indices.extend([at(c, r), at(c + 1, r + 1), at(c + 1, r)]);
                indices.extend([at(c, r), at(c, r + 1), at(c + 1, r + 1)]);
            }
        }
    }
    NavMesh::from_triangles(&vertices, &indices, &MeshOptions::default()).unwrap()
}

/// Checks the merged copy of a snapshot: the mesh invariants across seams, each
/// polygon inside the merged polygon it is mapped to, fewer polygons, and the islands
/// of the snapshot.
fn check_merged_copy(snapshot: &NavMesh, tolerance: f32) {
    let data = snapshot.data();
    let coarse = data.coarse().expect("triangles merge");
    let merged = &coarse.mesh;
    check_invariants(merged, tolerance);
    assert!(merged.polygon_ids().count() < data.polygon_ids().count());
    assert_eq!(merged.island_count, data.island_count);
    for p in data.polygon_ids() {
        let m = coarse.of_original[p as usize];
        assert!(merged.contains_polygon(m), "polygon {p}: {m}");
        assert_eq!(data.split_id(p).0, merged.split_id(m).0, "same tile");
        let corners = &data.corners[data.corner_range(p)];
        let centre = corners
            .iter()
            .map(|&v| data.vertices[v as usize])
            .sum::<Vec3>()
            / corners.len() as f32;
        let closest = merged.closest_point_on_polygon(m, centre);
        assert!(closest.distance(centre) < 1e-4, "polygon {p} not in {m}");
        assert_eq!(merged.island(m), data.island(p));
    }
}

#[test]
fn merged_copies_of_the_tiles_are_stitched_into_the_snapshots_copy() {
    let tiles = patchwork(triangle_tile);
    let world = World::new(&WorldOptions::default()).unwrap();
    let refs: Vec<TileRef> = tiles.iter().map(|t| world.add_tile(t).unwrap()).collect();
    check_merged_copy(&world.snapshot(), world.options.seam_tolerance);
    // Tiles whose polygons do not merge: the snapshot has no copy, until one does.
    let grids = patchwork(grid_tile);
    for (r, grid) in refs.iter().zip(&grids) {
        world.replace_tile(*r, grid).unwrap();
    }
    assert!(world.snapshot().data().coarse().is_none());
    let r = world.tiles()[5].0;
    world.replace_tile(r, &tiles[5]).unwrap();
    let snapshot = world.snapshot();
    let coarse = snapshot.data().coarse().expect("one tile merges");
    check_invariants(&coarse.mesh, world.options.seam_tolerance);
    let full = {
        let mut state = world.lock();
        state.restitch_all().unwrap();
        state.snapshot()
    };
    assert!(same_tables(snapshot.data(), &full));
}

#[test]
fn changes_give_the_tables_of_stitching_every_tile_again() {
    // Every other tile in triangles, so that the snapshots have merged copies.
    let mut tiles = patchwork(grid_tile);
    for (tile, triangles) in tiles.iter_mut().zip(patchwork(triangle_tile)).step_by(2) {
        *tile = triangles;
    }
    let world = World::new(&WorldOptions::default()).unwrap();
    let mut refs: Vec<Option<TileRef>> = vec![None; tiles.len()];
    // A fixed shuffle of adds, removes and replaces.
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut with_copy = 0;
    for step in 0..120 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let i = (seed % tiles.len() as u64) as usize;
        refs[i] = match refs[i] {
            None => Some(world.add_tile(&tiles[i]).unwrap()),
            Some(r) if step % 3 == 0 => Some(world.replace_tile(r, &tiles[i]).unwrap()),
            Some(r) => {
                world.remove_tile(r).unwrap();
                None
            }
        };
        let snapshot = world.snapshot();
        check_invariants(snapshot.data(), world.options.seam_tolerance);
        let expected: u32 = refs
            .iter()
            .zip(&tiles)
            .filter(|(r, _)| r.is_some())
            .map(|(_, t)| t.polygon_count())
            .sum();
        assert_eq!(snapshot.polygon_count(), expected, "step {step}");
        let full = {
            let mut state = world.lock();
            state.restitch_all().unwrap();
            state.snapshot()
        };
        assert!(same_tables(snapshot.data(), &full), "step {step}");
        if let Some(coarse) = snapshot.data().coarse() {
            check_invariants(&coarse.mesh, world.options.seam_tolerance);
            with_copy += 1;
        }
    }
    // Most steps have a tile in triangles, some none.
    assert!(
        (60..120).contains(&with_copy),
        "{with_copy} snapshots with a copy"
    );
}

#[test]
fn a_world_of_one_tile_has_the_tiles_own_tables() {
    // Nothing to stitch: composing the slot must give what building the mesh gave
    // (slot 0, so the ids are the mesh's own), whatever the tile's polygons.
    let rows = ["......", "......", "..#...", "......", ".....#"];
    let mut inner_vertices = 0;
    for tile in [grid_tile(0.0, 0.0, &rows), triangle_tile(0.0, 0.0, &rows)] {
        let world = World::new(&WorldOptions::default()).unwrap();
        world.add_tile(&tile).unwrap();
        let snapshot = world.snapshot();
        let (own, composed) = (tile.data(), snapshot.data());
        assert_eq!(composed.polygon_count(), own.polygon_count());
        assert_eq!(
            composed.poly_start.chunk(0)[..],
            own.poly_start.chunk(0)[..]
        );
        assert_eq!(composed.corners.chunk(0)[..], own.corners.chunk(0)[..]);
        assert_eq!(
            composed.neighbours.chunk(0)[..],
            own.neighbours.chunk(0)[..]
        );
        assert_eq!(composed.twin.chunk(0)[..], own.twin.chunk(0)[..]);
        assert_eq!(composed.portals.chunk(0)[..], own.portals.chunk(0)[..]);
        assert_eq!(
            composed.wall_vertex.chunk(0)[..],
            own.wall_vertex.chunk(0)[..]
        );
        assert_eq!(composed.dead_end.chunk(0)[..], own.dead_end.chunk(0)[..]);
        inner_vertices += own.wall_vertex.chunk(0).iter().filter(|&&w| !w).count();
    }
    assert!(inner_vertices > 0, "vertices where no wall ends");
}

#[test]
fn seams_join_islands_and_removing_a_tile_splits_them() {
    let world = World::new(&WorldOptions::default()).unwrap();
    let left = world.add_tile(&grid_tile(0.0, 0.0, &["..", ".."])).unwrap();
    world.add_tile(&grid_tile(4.0, 0.0, &["..", ".."])).unwrap();
    assert_eq!(world.snapshot().island_count(), 2);
    // A bridge of three cells whose middle row is blocked on the left: one polygon of
    // the bridge meets the left tile, the whole bridge the right one.
    let bridge = world.add_tile(&grid_tile(2.0, 0.0, &["#.", ".."])).unwrap();
    let snapshot = world.snapshot();
    assert_eq!(snapshot.island_count(), 1);
    check_invariants(snapshot.data(), 0.001);
    world.remove_tile(bridge).unwrap();
    assert_eq!(world.snapshot().island_count(), 2);
    world.remove_tile(left).unwrap();
    assert_eq!(
        (world.snapshot().island_count(), world.tile_count()),
        (1, 1)
    );
    // The old snapshot is unchanged.
    assert_eq!((snapshot.island_count(), snapshot.polygon_count()), (1, 4));
}

#[test]
fn heights_beyond_the_climb_do_not_join() {
    let world = World::new(&WorldOptions::default().with_climb(0.5)).unwrap();
    world.add_tile(&grid_tile(0.0, 0.0, &["."])).unwrap();
    let mut raised = grid_tile(1.0, 0.0, &["."]);
    let lift = |mesh: &NavMesh, dy: f32| {
        let v: Vec<Vec3> = mesh.vertices().iter().map(|&v| v + Vec3::Y * dy).collect();
        NavMesh::from_polygons(&v, mesh.polygon_vertices(0), &[4], &MeshOptions::default()).unwrap()
    };
    raised = lift(&raised, 0.6);
    let r = world.add_tile(&raised).unwrap();
    assert_eq!(world.snapshot().island_count(), 2);
    world
        .replace_tile(r, &lift(&grid_tile(1.0, 0.0, &["."]), 0.4))
        .unwrap();
    assert_eq!(world.snapshot().island_count(), 1);
}

/// The wall flags of the vertices of `mesh` at ground point `(x, z)` and height `y`.
fn walls_at(mesh: &NavMesh, x: f32, y: f32, z: f32) -> Vec<bool> {
    let data = mesh.data();
    let mut flags = Vec::new();
    for p in data.polygon_ids() {
        for slot in data.corner_range(p) {
            let v = data.corners[slot];
            if data.vertices[v as usize] == Vec3::new(x, y, z) {
                flags.push((v, data.wall_vertex[v as usize]));
            }
        }
    }
    flags.sort_unstable();
    flags.dedup();
    flags.into_iter().map(|(_, wall)| wall).collect()
}

#[test]
fn a_point_closed_all_round_by_seams_is_no_wall_vertex() {
    let world = World::new(&WorldOptions::default()).unwrap();
    let mut refs = Vec::new();
    for (x, z) in [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)] {
        refs.push(world.add_tile(&grid_tile(x, z, &["."])).unwrap());
    }
    // Four tiles round (1, 1): four vertices there, none where a wall ends.
    assert_eq!(walls_at(&world.snapshot(), 1.0, 0.0, 1.0), [false; 4]);
    // A floor above, whose walls end over that point, changes nothing below.
    let mut upper = grid_tile(1.0, 1.0, &["."]);
    let lifted: Vec<Vec3> = upper
        .vertices()
        .iter()
        .map(|&v| v + Vec3::Y * 3.0)
        .collect();
    upper = NavMesh::from_polygons(
        &lifted,
        upper.polygon_vertices(0),
        &[4],
        &MeshOptions::default(),
    )
    .unwrap();
    world.add_tile(&upper).unwrap();
    let snapshot = world.snapshot();
    assert_eq!(walls_at(&snapshot, 1.0, 0.0, 1.0), [false; 4]);
    assert_eq!(walls_at(&snapshot, 1.0, 3.0, 1.0), [true]);
    // Without one of the four, walls of its neighbours end there.
    world.remove_tile(refs[3]).unwrap();
    assert_eq!(walls_at(&world.snapshot(), 1.0, 0.0, 1.0), [true; 3]);
}
