//! The islands a world keeps from one snapshot to the next equal those found from
//! scratch: after every step of random adds, removes and replaces (tiles of several
//! islands each, links between tiles, layers that merge), a search over the snapshot's
//! polygons (edges and link hops) finds the same sets of polygons as the snapshot's
//! islands, in both layers.

use std::collections::{HashMap, VecDeque};

use glam::Vec3;
use proptest::prelude::*;

use super::tests::{grid_tile, patchwork, triangle_tile};
use super::{TileRef, World, WorldOptions};
use crate::mesh::{MeshData, NO_NEIGHBOUR, NavMesh, OffMeshLink};

/// The islands of `mesh` found by a breadth-first search over its polygons, joined by
/// shared edges and by link hops (either way): per polygon (in the order of
/// `polygon_ids`), its island numbered in the order first met; and their number.
fn islands_from_scratch(mesh: &MeshData) -> (Vec<usize>, usize) {
    let ids: Vec<u32> = mesh.polygon_ids().collect();
    let index: HashMap<u32, usize> = ids.iter().enumerate().map(|(i, &p)| (p, i)).collect();
    let mut adjacent: Vec<Vec<usize>> = vec![Vec::new(); ids.len()];
    for (i, &p) in ids.iter().enumerate() {
        let across = mesh
            .corner_range(p)
            .map(|slot| mesh.neighbours[slot])
            .filter(|&n| n != NO_NEIGHBOUR);
        let hops = mesh.links.hops_from(p).iter().map(|hop| hop.to_polygon);
        for other in across.chain(hops).collect::<Vec<_>>() {
            let j = index[&other];
            adjacent[i].push(j);
            adjacent[j].push(i);
        }
    }
    let mut island = vec![usize::MAX; ids.len()];
    let mut count = 0;
    for first in 0..ids.len() {
        if island[first] != usize::MAX {
            continue;
        }
        island[first] = count;
        let mut queue = VecDeque::from([first]);
        while let Some(i) = queue.pop_front() {
            for &j in &adjacent[i] {
                if island[j] == usize::MAX {
                    island[j] = count;
                    queue.push_back(j);
                }
            }
        }
        count += 1;
    }
    (island, count)
}

/// Checks that the islands of `mesh` are those found from scratch: as many, numbered
/// below their count, and two polygons share one exactly when the search puts them on
/// the same.
fn check_islands(mesh: &MeshData, what: &str) {
    let (expected, count) = islands_from_scratch(mesh);
    assert_eq!(mesh.island_count as usize, count, "{what}: island count");
    let mut island_of = vec![u32::MAX; count];
    let mut found_of = vec![usize::MAX; count];
    for (p, &found) in mesh.polygon_ids().zip(&expected) {
        let island = mesh.island(p);
        assert!(
            (island as usize) < count,
            "{what}: polygon {p} island {island}"
        );
        if island_of[found] == u32::MAX {
            assert_eq!(
                found_of[island as usize],
                usize::MAX,
                "{what}: polygon {p} is on island {island} with polygons not connected to it"
            );
            island_of[found] = island;
            found_of[island as usize] = found;
        } else {
            assert_eq!(
                island_of[found], island,
                "{what}: polygon {p} is cut off the island of polygons connected to it"
            );
        }
    }
}

/// A tile of vertical strips the size of `rows`: its even columns walkable, each its
/// own island, joined only through the tiles above and below and the strips of the
/// tiles beside it that touch, so islands split and join as tiles come and go.
fn strips(x: f32, z: f32, rows: &[&str]) -> NavMesh {
    let row: String = (0..rows[0].len())
        .map(|c| if c % 2 == 1 { '#' } else { '.' })
        .collect();
    grid_tile(x, z, &vec![row.as_str(); rows.len()])
}

/// The centre of polygon 0 of `mesh`: a point on the mesh.
fn on(mesh: &NavMesh) -> Vec3 {
    let corners = mesh.polygon_vertices(0);
    corners
        .iter()
        .map(|&v| mesh.vertices()[v as usize])
        .sum::<Vec3>()
        / corners.len() as f32
}

/// The three kinds of each tile of the patchwork: cells (do not merge), triangles
/// (merge), strips (several islands).
fn kinds() -> [Vec<NavMesh>; 3] {
    [
        patchwork(grid_tile),
        patchwork(triangle_tile),
        patchwork(strips),
    ]
}

/// One step: the tile (of the patchwork), what to do with it (`kind` picks the mesh
/// put, `linked` whether a link to another tile goes with it).
#[derive(Debug, Clone)]
struct Step {
    tile: usize,
    kind: usize,
    linked: bool,
    remove: bool,
}

fn step() -> impl Strategy<Value = Step> {
    (0..12usize, 0..3usize, any::<bool>(), any::<bool>()).prop_map(
        |(tile, kind, linked, remove)| Step {
            tile,
            kind,
            linked,
            remove,
        },
    )
}

/// Applies `steps` to a world of the patchwork's tiles, checking the islands of every
/// snapshot (and of its merged copy) against a search from scratch.
fn run(steps: &[Step]) {
    let kinds = kinds();
    let world = World::new(&WorldOptions::default()).unwrap();
    let mut refs: Vec<Option<TileRef>> = vec![None; 12];
    for (n, step) in steps.iter().enumerate() {
        let mesh = &kinds[step.kind][step.tile];
        // A link to a tile three places on (present or not: it waits).
        let target = on(&kinds[0][(step.tile + 3) % 12]);
        let links = if step.linked {
            vec![OffMeshLink::new(on(mesh), target).with_bidirectional(step.tile % 2 == 0)]
        } else {
            Vec::new()
        };
        refs[step.tile] = match refs[step.tile] {
            None => Some(world.add_tile_with_links(mesh, &links).unwrap()),
            Some(r) if step.remove => {
                world.remove_tile(r).unwrap();
                None
            }
            Some(r) => Some(world.replace_tile_with_links(r, mesh, &links).unwrap()),
        };
        let snapshot = world.snapshot();
        check_islands(snapshot.data(), &format!("step {n}"));
        if let Some(coarse) = snapshot.data().coarse() {
            check_islands(&coarse.mesh, &format!("step {n}, merged copy"));
        }
    }
}

/// A step without links, removing more often than adding: with no link between tiles
/// attached, removals take the path that searches from the cut
/// (`Islands::update_after_removal`).
fn unlinked_step() -> impl Strategy<Value = Step> {
    (0..12usize, 0..3usize, 0..3u8).prop_map(|(tile, kind, remove)| Step {
        tile,
        kind,
        linked: false,
        remove: remove > 0,
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn islands_kept_between_snapshots_equal_islands_found_from_scratch(
        steps in prop::collection::vec(step(), 1..60)
    ) {
        run(&steps);
    }

    #[test]
    fn islands_after_removals_without_links_equal_islands_found_from_scratch(
        first in prop::collection::vec(0..3usize, 12),
        steps in prop::collection::vec(unlinked_step(), 1..60)
    ) {
        // Every tile first (of the kinds drawn), so that removals cut islands apart.
        let mut all: Vec<Step> = first
            .iter()
            .enumerate()
            .map(|(tile, &kind)| Step { tile, kind, linked: false, remove: false })
            .collect();
        all.extend(steps);
        run(&all);
    }
}

#[test]
fn islands_split_and_join_as_a_bridge_tile_comes_and_goes() {
    // Every tile in strips, added in order, then the middle row of tiles removed and
    // added back one by one: each removal may split islands, each add joins them.
    let mut steps: Vec<Step> = (0..12)
        .map(|tile| Step {
            tile,
            kind: 2,
            linked: false,
            remove: false,
        })
        .collect();
    for tile in 4..8 {
        steps.push(Step {
            tile,
            kind: 2,
            linked: false,
            remove: true,
        });
    }
    for tile in 4..8 {
        steps.push(Step {
            tile,
            kind: 2,
            linked: tile % 2 == 0,
            remove: false,
        });
    }
    run(&steps);
    // Known counts: tiles 0 (x 0..3) and 1 (x 3..8) side by side, 4 and 5 above them.
    // Strips: A (x 0..1) and B (2..3) in tiles 0 and 4, C (3..4), D and E in 1 and 5;
    // B and C touch along x = 3 in each row.
    let tiles = patchwork(strips);
    let world = World::new(&WorldOptions::default()).unwrap();
    let mut counts = Vec::new();
    let count = || world.snapshot().island_count();
    let [_, t1, t4, _] = [0, 1, 4, 5].map(|i| world.add_tile(&tiles[i]).unwrap());
    counts.push(count());
    world.remove_tile(t1).unwrap();
    counts.push(count()); // B joins C through tiles 4 and 5
    world.remove_tile(t4).unwrap();
    counts.push(count()); // A, B; C, D, E
    world.add_tile(&tiles[1]).unwrap();
    counts.push(count()); // A, B + C, D, E
    assert_eq!(counts, [4, 4, 5, 4]);
}

/// Unit squares (y up) with their lower left corners at `(x, 0, 0)` for each `x`.
fn squares(xs: &[f32]) -> NavMesh {
    let vertices: Vec<Vec3> = xs
        .iter()
        .flat_map(|&x| {
            [0.0, 1.0]
                .into_iter()
                .flat_map(move |dx| [0.0, 1.0].map(|dz| Vec3::new(x + dx, 0.0, dz)))
        })
        .collect();
    // Per square: (x, 0), (x, 1), (x + 1, 0), (x + 1, 1) at 4i..4i + 4.
    let indices: Vec<u32> = (0..xs.len() as u32)
        .flat_map(|i| [4 * i, 4 * i + 1, 4 * i + 3, 4 * i + 2])
        .collect();
    let sizes = vec![4; xs.len()];
    let input = crate::mesh::MeshInput::new(&vertices, &indices).with_polygon_sizes(&sizes);
    NavMesh::from_input(&input, &crate::MeshOptions::default()).unwrap()
}

#[test]
fn a_link_into_a_replaced_tile_joins_the_new_tiles_islands() {
    // Tile A (x 0..1) holds a link to the second square of tile B, which stands apart
    // (B's local island 1). B is replaced by squares whose polygon 1 is the same square,
    // now joined to the first by a third (local island 0): the link's end attaches to
    // the same polygon at the same point, and A joins B's only island.
    // A far tile of 32 cells that touch only at corners keeps merging below the share
    // at which the world keeps merged layers, so that no other tile is stitched again.
    let link = OffMeshLink::new(Vec3::new(0.5, 0.0, 0.5), Vec3::new(12.5, 0.0, 0.5));
    let world = World::new(&WorldOptions::default()).unwrap();
    let checker: Vec<String> = (0..8)
        .map(|r| {
            (0..8)
                .map(|c| if (r + c) % 2 == 0 { '.' } else { '#' })
                .collect()
        })
        .collect();
    let checker: Vec<&str> = checker.iter().map(String::as_str).collect();
    world.add_tile(&grid_tile(20.0, 0.0, &checker)).unwrap();
    world
        .add_tile_with_links(&squares(&[0.0]), &[link])
        .unwrap();
    let b = world.add_tile(&squares(&[10.0, 12.0])).unwrap();
    let before = world.snapshot();
    check_islands(before.data(), "before");
    assert_eq!(before.island_count(), 34);
    world
        .replace_tile(b, &squares(&[10.0, 12.0, 11.0]))
        .unwrap();
    let after = world.snapshot();
    assert!(after.data().coarse().is_none());
    check_islands(after.data(), "after");
    assert_eq!(after.island_count(), 33);
}
