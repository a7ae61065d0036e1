//! Off-mesh links in a world: links between tiles attach and detach as tiles come and
//! go, islands join through them, their flags are shared by snapshots, and hops in the
//! last tile slot keep their own search keys.

use glam::Vec3;

use super::{World, WorldOptions};
use crate::error::MeshError;
use crate::mesh::{MeshData, MeshInput, NavMesh, OffMeshLink};
use crate::{CornerFlags, MeshOptions, PathOptions, PathStatus, Query};

/// A `width` x 1 floor of unit squares (y up) from `(x, 0, 0)`, with `links`.
fn floor(x: f32, width: u32, links: &[OffMeshLink]) -> NavMesh {
    let mut vertices = Vec::new();
    for i in 0..=width {
        vertices.push(Vec3::new(x + i as f32, 0.0, 0.0));
        vertices.push(Vec3::new(x + i as f32, 0.0, 1.0));
    }
    let mut indices = Vec::new();
    for i in 0..width {
        let (a, b) = (2 * i, 2 * i + 2);
        indices.extend([a, a + 1, b + 1, b]);
    }
    let sizes = vec![4; width as usize];
    let input = MeshInput::new(&vertices, &indices)
        .with_polygon_sizes(&sizes)
        .with_links(links);
    NavMesh::from_input(&input, &MeshOptions::default()).unwrap()
}

fn at(x: f32) -> Vec3 {
    Vec3::new(x, 0.0, 0.5)
}

/// The status of a default-mode path from `from` to `to` on `mesh` (`None` when a point
/// is off the mesh), and whether it takes a link.
fn path(mesh: &NavMesh, from: f32, to: f32) -> Option<(PathStatus, bool)> {
    let mut query = Query::new(mesh);
    let path = query
        .find_path(at(from), at(to), &PathOptions::default())
        .ok()?;
    let linked = path
        .details
        .iter()
        .any(|d| d.flags.contains(CornerFlags::LINK_START));
    Some((path.status, linked))
}

fn hops(mesh: &NavMesh) -> usize {
    mesh.data().links.hop_count()
}

/// Tile A (x 0..3) holds the start of a two-way jump to tile B (x 10..13); tile C
/// (x 3..6) touches A.
fn jump() -> OffMeshLink {
    OffMeshLink::new(at(2.5), at(10.5))
}

#[test]
fn a_link_between_tiles_attaches_when_both_are_present_and_detaches_when_one_leaves() {
    let world = World::new(&WorldOptions::default()).unwrap();
    let a = world
        .add_tile_with_links(&floor(0.0, 3, &[]), &[jump()])
        .unwrap();
    let alone = world.snapshot();
    assert_eq!((alone.link_count(), hops(&alone)), (1, 0));
    let b = world.add_tile(&floor(10.0, 3, &[])).unwrap();
    let linked = world.snapshot();
    assert_eq!((linked.island_count(), hops(&linked)), (1, 2));
    assert_eq!(path(&linked, 0.5, 12.5), Some((PathStatus::Complete, true)));
    assert_eq!(path(&linked, 12.5, 0.5), Some((PathStatus::Complete, true)));
    let c = world.add_tile(&floor(3.0, 3, &[])).unwrap();
    let three = world.snapshot();
    assert_eq!(three.island_count(), 1);
    assert_eq!(path(&three, 5.5, 12.5), Some((PathStatus::Complete, true)));

    // B leaves: the link leads nowhere, A and C stay one island; old snapshots keep B.
    world.remove_tile(b).unwrap();
    let without = world.snapshot();
    assert_eq!((without.island_count(), hops(&without)), (1, 0));
    // (The goal snaps to the nearest point left, at the end of C.)
    assert_eq!(
        path(&without, 5.5, 12.5),
        Some((PathStatus::Complete, false))
    );
    assert_eq!(path(&three, 5.5, 12.5), Some((PathStatus::Complete, true)));

    // B comes back (in the slot it left): the link attaches again.
    let b = world.add_tile(&floor(10.0, 3, &[])).unwrap();
    let back = world.snapshot();
    assert_eq!((back.island_count(), hops(&back)), (1, 2));
    assert_eq!(path(&back, 5.5, 12.5), Some((PathStatus::Complete, true)));

    // A, which owns the link, leaves: B loses its way back, and C and B are apart.
    world.remove_tile(a).unwrap();
    let split = world.snapshot();
    assert_eq!(
        (split.island_count(), split.link_count(), hops(&split)),
        (2, 0, 0)
    );
    assert_eq!(path(&split, 12.5, 5.5), Some((PathStatus::Partial, false)));
    assert_ne!(split.island(split.polygon_ids().next().unwrap()), {
        let last = split.polygon_ids().last().unwrap();
        split.island(last)
    });
    let _ = (b, c);
}

#[test]
fn a_one_way_link_between_tiles_is_walked_one_way() {
    let world = World::new(&WorldOptions::default()).unwrap();
    let one_way = jump().with_bidirectional(false);
    world
        .add_tile_with_links(&floor(0.0, 3, &[]), &[one_way])
        .unwrap();
    world.add_tile(&floor(10.0, 3, &[])).unwrap();
    let snapshot = world.snapshot();
    assert_eq!((snapshot.island_count(), hops(&snapshot)), (1, 1));
    assert_eq!(
        path(&snapshot, 0.5, 12.5),
        Some((PathStatus::Complete, true))
    );
    assert_eq!(
        path(&snapshot, 12.5, 0.5).map(|p| p.0),
        Some(PathStatus::Partial)
    );
}

#[test]
fn link_ids_follow_the_tile_slot_and_their_flags_outlive_the_snapshot() {
    let world = World::new(&WorldOptions::default()).unwrap();
    world.add_tile(&floor(20.0, 1, &[])).unwrap();
    // Slot 1: a tile with a link of its own (id `1 << 22 | 0`) and one to B (`| 1`).
    let inner = OffMeshLink::new(at(0.5), at(2.5)).with_flags(3);
    let a = world
        .add_tile_with_links(&floor(0.0, 3, &[inner]), &[jump()])
        .unwrap();
    assert_eq!(a.slot(), 1);
    world.add_tile(&floor(10.0, 3, &[])).unwrap();
    let first = world.snapshot();
    let (own, given) = (1 << 22, 1 << 22 | 1);
    assert_eq!(first.link_count(), 2);
    assert_eq!((first.link_flags(own), first.link_flags(given)), (3, 1));
    assert!(first.set_link_flags(2, 0).is_err());
    assert_eq!(first.set_link_flags(given, 0), Ok(1));
    assert_eq!(
        path(&first, 0.5, 12.5).map(|p| p.0),
        Some(PathStatus::Partial)
    );
    // A later snapshot, after another change, sees the closed link.
    world.add_tile(&floor(30.0, 1, &[])).unwrap();
    let later = world.snapshot();
    assert_eq!(later.link_flags(given), 0);
    assert_eq!(
        path(&later, 0.5, 12.5).map(|p| p.0),
        Some(PathStatus::Partial)
    );
    later.set_link_flags(given, 1).unwrap();
    assert_eq!(path(&first, 0.5, 12.5), Some((PathStatus::Complete, true)));
    // The inner link works on its own.
    let hop_from_start = later
        .data()
        .links
        .hops_from(later.polygon_ids().nth(1).unwrap());
    assert_eq!(hop_from_start.len(), 1);
    assert_eq!(hop_from_start[0].link, own);
}

#[test]
fn hops_of_the_last_tile_slot_have_keys_of_their_own() {
    // Two slots: the last one's ids start at 2^31, so its hop ids do too; numbering hops
    // after the slot ids would run past u32.
    let world = World::new(&WorldOptions::default().with_max_tiles(2)).unwrap();
    world.add_tile(&floor(10.0, 3, &[])).unwrap();
    let inner = OffMeshLink::new(at(0.5), at(2.5)).with_cost(0.0);
    let a = world
        .add_tile_with_links(&floor(0.0, 3, &[inner]), &[jump()])
        .unwrap();
    assert_eq!(a.slot(), 1);
    let snapshot = world.snapshot();
    let data: &MeshData = snapshot.data();
    let first_hop = data.links.hop_start[(1usize << 31) + 1];
    assert!(first_hop >= 1 << 31);
    assert_eq!(
        path(&snapshot, 0.5, 12.5),
        Some((PathStatus::Complete, true))
    );
    assert_eq!(
        path(&snapshot, 12.5, 0.5),
        Some((PathStatus::Complete, true))
    );
    // The free inner link is taken from the first square to the third.
    assert_eq!(
        path(&snapshot, 0.5, 2.5),
        Some((PathStatus::Complete, true))
    );
    // Full: a third tile is refused, and the world is unchanged.
    assert!(matches!(
        world.add_tile(&floor(5.0, 1, &[])),
        Err(MeshError::WorldFull { max_tiles: 2 })
    ));
}

#[test]
fn changes_give_the_links_of_adding_the_same_tiles_at_once() {
    let build = |steps: bool| {
        let world = World::new(&WorldOptions::default()).unwrap();
        world
            .add_tile_with_links(&floor(0.0, 3, &[]), &[jump()])
            .unwrap();
        let c = world.add_tile(&floor(3.0, 3, &[])).unwrap();
        let back = OffMeshLink::new(at(11.5), at(4.5)).with_bidirectional(false);
        world
            .add_tile_with_links(&floor(10.0, 3, &[]), &[back])
            .unwrap();
        if steps {
            world.remove_tile(c).unwrap();
            world.add_tile(&floor(3.0, 3, &[])).unwrap();
        }
        world.snapshot()
    };
    let (stepped, direct) = (build(true), build(false));
    let (x, y) = (&stepped.data().links, &direct.data().links);
    assert_eq!(x.hop_count(), 3);
    for t in 0..3 {
        assert_eq!(
            x.hop_start.chunk(t)[..],
            y.hop_start.chunk(t)[..],
            "tile {t}"
        );
        assert_eq!(x.hops.chunk(t)[..], y.hops.chunk(t)[..], "tile {t}");
    }
    assert_eq!(stepped.island_count(), 1);
    assert_eq!(
        path(&stepped, 12.5, 5.5),
        Some((PathStatus::Complete, true))
    );
}

#[test]
fn a_link_whose_start_is_off_its_tile_is_refused() {
    let world = World::new(&WorldOptions::default()).unwrap();
    let off = OffMeshLink::new(at(8.0), at(10.5));
    let error = world
        .add_tile_with_links(&floor(0.0, 3, &[]), &[jump(), off])
        .unwrap_err();
    assert!(
        matches!(
            error,
            MeshError::LinkOffMesh {
                link: 1,
                end: "start",
                ..
            }
        ),
        "{error:?}"
    );
    let bad = jump().with_cost(f32::NAN);
    assert!(matches!(
        world.add_tile_with_links(&floor(0.0, 3, &[]), &[bad]),
        Err(MeshError::InvalidLink { link: 0, .. })
    ));
    assert_eq!(world.tile_count(), 0);
    let a = world
        .add_tile_with_links(&floor(0.0, 3, &[]), &[jump()])
        .unwrap();
    assert_eq!(world.tile_links(a).unwrap(), vec![jump()]);
}

#[test]
fn a_cut_mesh_with_a_link_between_tiles_answers_as_in_one_piece() {
    // Two floors 3 apart along x joined by a jump, cut into tiles of side 2.
    let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    let vertices = [
        v(0.0, 0.0),
        v(2.5, 0.0),
        v(2.5, 1.0),
        v(0.0, 1.0),
        v(5.5, 0.0),
        v(8.0, 0.0),
        v(8.0, 1.0),
        v(5.5, 1.0),
    ];
    let links = [OffMeshLink::new(at(2.2), at(5.8)).with_radius(0.1)];
    let input = MeshInput::new(&vertices, &[0, 1, 2, 3, 4, 5, 6, 7])
        .with_polygon_sizes(&[4, 4])
        .with_links(&links);
    let whole = NavMesh::from_input(&input, &MeshOptions::default()).unwrap();
    let cut = whole.cut_into_tiles(2.0).unwrap();
    assert_eq!(cut.links.len(), 1);
    let world = World::new(&WorldOptions::default()).unwrap();
    for (i, tile) in cut.tiles.iter().enumerate() {
        world
            .add_tile_with_links(&tile.mesh, &cut.links_from(i))
            .unwrap();
    }
    let tiled = world.snapshot();
    assert_eq!((whole.island_count(), tiled.island_count()), (1, 1));
    let length = |mesh: &NavMesh| {
        let mut query = Query::new(mesh);
        let path = query
            .find_path(at(0.5), at(7.5), &PathOptions::default())
            .unwrap();
        assert_eq!(path.status, PathStatus::Complete);
        path.length()
    };
    assert!((length(&whole) - length(&tiled)).abs() < 1e-3);
}
