//! Known answers: a corridor blocked across, a room with a crate in the middle, removal
//! restoring the mesh and the path bit for bit, stale ids, references, heights, tiles
//! added after an obstacle, the baked agent radius.

use glam::{Vec2, Vec3};
use navstar::{
    MeshError, MeshOptions, NavMesh, Obstacle, ObstacleId, PathMode, PathOptions, PathStatus,
    Query, World, WorldOptions,
};

use crate::{room, v};

fn world_of(tiles: &[NavMesh]) -> World {
    let world = World::new(&WorldOptions::default()).unwrap();
    for tile in tiles {
        world.add_tile(tile).unwrap();
    }
    world
}

fn path(mesh: &NavMesh, from: Vec3, to: Vec3, mode: PathMode) -> (Vec<Vec3>, PathStatus) {
    let mut query = Query::new(mesh);
    let options = PathOptions::default().with_mode(mode);
    let path = query.find_path(from, to, &options).unwrap();
    (path.corners.to_vec(), path.status)
}

fn length(corners: &[Vec3]) -> f32 {
    corners.windows(2).map(|w| w[0].distance(w[1])).sum()
}

#[test]
fn a_crate_across_a_corridor_blocks_it() {
    // A corridor 20 x 2 of ten squares; a crate 1 x 3 across its middle.
    let world = world_of(&[room(20.0, 2.0, 10, 1)]);
    let id = world
        .add_obstacle(
            &Obstacle::rotated_box(Vec2::new(10.0, 1.0), Vec2::new(0.5, 1.5), 0.0).unwrap(),
        )
        .unwrap();
    let snapshot = world.snapshot();
    assert_eq!(snapshot.island_count(), 2);
    for mode in [PathMode::Funnel, PathMode::Optimal] {
        let (corners, status) = path(&snapshot, v(1.0, 1.0), v(19.0, 1.0), mode);
        assert_eq!(status, PathStatus::Partial, "{mode:?}");
        // It ends against the crate's near side.
        let end = corners.last().unwrap();
        assert!((end.x - 9.5).abs() < 1e-4, "{mode:?}: ends at {end}");
    }
    world.remove_obstacle(id).unwrap();
    let (_, status) = path(
        &world.snapshot(),
        v(1.0, 1.0),
        v(19.0, 1.0),
        PathMode::Funnel,
    );
    assert_eq!(status, PathStatus::Complete);
}

#[test]
fn a_path_goes_round_a_crate_in_a_room() {
    // A 10 x 10 room of 5 x 5 squares; a 2 x 2 crate in the middle.
    let world = world_of(&[room(10.0, 10.0, 5, 5)]);
    world
        .add_obstacle(&Obstacle::rotated_box(Vec2::new(5.0, 5.0), Vec2::ONE, 0.0).unwrap())
        .unwrap();
    let snapshot = world.snapshot();
    let expected = 2.0 * 10f32.sqrt() + 2.0;
    for mode in [PathMode::Funnel, PathMode::Optimal] {
        let (corners, status) = path(&snapshot, v(5.0, 1.0), v(5.0, 9.0), mode);
        assert_eq!(status, PathStatus::Complete);
        assert_eq!(corners.len(), 4, "{mode:?}: {corners:?}");
        assert!(
            (length(&corners) - expected).abs() < 1e-4,
            "{mode:?}: {corners:?}"
        );
        // Round two corners of the crate, on one side.
        let side = corners[1].x;
        assert!((side - 4.0).abs() < 1e-5 || (side - 6.0).abs() < 1e-5);
        assert_eq!(corners[1].x, corners[2].x);
    }
    // Nothing is left inside the crate: a point in it snaps to its nearest side.
    let inside = snapshot.nearest_point(v(5.2, 5.3), 10.0, None).unwrap();
    assert!(
        inside.point.distance(v(5.2, 6.0)) < 1e-5,
        "{:?}",
        inside.point
    );
}

#[test]
fn removal_restores_the_mesh_and_the_paths_bit_for_bit() {
    let tile = room(12.0, 8.0, 6, 4);
    let world = world_of(std::slice::from_ref(&tile));
    let before = world.snapshot();
    // Each straight across where the obstacles will be.
    let queries = [
        (v(1.0, 4.0), v(11.0, 4.0)),
        (v(6.0, 0.5), v(6.0, 7.5)),
        (v(1.0, 1.0), v(11.0, 7.0)),
    ];
    let answers = |mesh: &NavMesh| {
        queries
            .iter()
            .flat_map(|&(a, b)| {
                [PathMode::Funnel, PathMode::Optimal].map(|mode| {
                    let (corners, status) = path(mesh, a, b, mode);
                    (
                        corners
                            .iter()
                            .map(|c| c.to_array().map(f32::to_bits))
                            .collect::<Vec<_>>(),
                        status,
                    )
                })
            })
            .collect::<Vec<_>>()
    };
    let original = answers(&before);
    let a = world
        .add_obstacle(&Obstacle::circle(Vec2::new(6.0, 4.0), 1.5).unwrap())
        .unwrap();
    let b = world
        .add_obstacle(
            &Obstacle::rotated_box(Vec2::new(4.0, 2.8), Vec2::new(1.0, 0.3), 0.7).unwrap(),
        )
        .unwrap();
    assert_ne!(answers(&world.snapshot()), original);
    world.remove_obstacle(a).unwrap();
    assert_ne!(answers(&world.snapshot()), original);
    world.remove_obstacle(b).unwrap();
    let after = world.snapshot();
    assert_eq!(after.polygon_count(), before.polygon_count());
    assert_eq!(after.tile_vertices(0), before.tile_vertices(0));
    for p in after.polygon_ids() {
        assert_eq!(after.polygon_vertices(p), before.polygon_vertices(p));
    }
    assert_eq!(answers(&after), original);
    // The tile is the mesh it was added as.
    assert_eq!(world.tiles()[0].1.vertices(), tile.vertices());
}

#[test]
fn stale_ids_and_references() {
    // Two tiles side by side; the obstacle touches the left one only.
    let left = room(4.0, 4.0, 2, 2);
    let right = NavMesh::from_polygons(
        &[v(4.0, 0.0), v(8.0, 0.0), v(8.0, 4.0), v(4.0, 4.0)],
        &[0, 1, 2, 3],
        &[4],
        &MeshOptions::default(),
    )
    .unwrap();
    let world = world_of(&[left, right]);
    let snapshot = world.snapshot();
    let far = snapshot
        .polygon_ref(
            snapshot
                .nearest_point(v(6.0, 2.0), 1.0, None)
                .unwrap()
                .polygon,
        )
        .unwrap();
    let near = snapshot
        .polygon_ref(
            snapshot
                .nearest_point(v(1.0, 1.0), 1.0, None)
                .unwrap()
                .polygon,
        )
        .unwrap();
    let tiles_before: Vec<_> = world.tiles().into_iter().map(|(t, _)| t).collect();
    let id = world
        .add_obstacle(&Obstacle::circle(Vec2::new(1.0, 1.0), 0.5).unwrap())
        .unwrap();
    let carved = world.snapshot();
    // The untouched tile keeps its references; the carved one's are stale.
    assert!(carved.resolve(far).is_ok());
    assert!(carved.resolve(near).is_err());
    // Tiles keep their references.
    let tiles_after: Vec<_> = world.tiles().into_iter().map(|(t, _)| t).collect();
    assert_eq!(tiles_before, tiles_after);
    world.remove_obstacle(id).unwrap();
    assert_eq!(
        world.remove_obstacle(id),
        Err(MeshError::StaleObstacle { id: id.0 })
    );
    let error = world
        .move_obstacle(ObstacleId(77), &Obstacle::circle(Vec2::ONE, 1.0).unwrap())
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "obstacle 77 is not in the world (removed, or never added to it)"
    );
    assert_eq!(world.obstacle_count(), 0);
    // Ids are never given twice.
    let again = world
        .add_obstacle(&Obstacle::circle(Vec2::ONE, 0.5).unwrap())
        .unwrap();
    assert!(again.0 > id.0);
}

#[test]
fn the_height_range_picks_the_level() {
    // A floor at height 0 and a bridge at height 3 over it: two tiles.
    let floor = room(10.0, 10.0, 2, 2);
    let up = |x: f32, z: f32| Vec3::new(x, 3.0, z);
    let bridge = NavMesh::from_polygons(
        &[up(4.0, -2.0), up(6.0, -2.0), up(6.0, 12.0), up(4.0, 12.0)],
        &[0, 1, 2, 3],
        &[4],
        &MeshOptions::default(),
    )
    .unwrap();
    let world = world_of(&[floor, bridge]);
    let count = world.snapshot().polygon_count();
    // On the bridge only.
    let on_bridge = Obstacle::circle(Vec2::new(5.0, 5.0), 0.5)
        .unwrap()
        .with_height_range(2.5, 4.0)
        .unwrap();
    let id = world.add_obstacle(&on_bridge).unwrap();
    let snapshot = world.snapshot();
    let floor_point = snapshot.nearest_point(v(5.0, 5.0), 0.5, None).unwrap();
    assert_eq!(
        floor_point.point,
        v(5.0, 5.0),
        "the floor under it is untouched"
    );
    let bridge_point = snapshot.nearest_point(Vec3::new(5.0, 3.0, 5.0), 0.1, None);
    assert!(
        bridge_point.is_none(),
        "the bridge has a hole there: {bridge_point:?}"
    );
    assert!(snapshot.polygon_count() > count);
    world.remove_obstacle(id).unwrap();
    assert_eq!(world.snapshot().polygon_count(), count);
}

#[test]
fn tiles_added_later_are_carved_and_flags_carry_over() {
    let world = World::new(&WorldOptions::default()).unwrap();
    world
        .add_obstacle(&Obstacle::circle(Vec2::new(2.0, 2.0), 1.0).unwrap())
        .unwrap();
    let tile = world.add_tile(&room(4.0, 4.0, 1, 1)).unwrap();
    let snapshot = world.snapshot();
    assert!(snapshot.polygon_count() > 1);
    assert!(snapshot.nearest_point(v(2.0, 2.0), 0.9, None).is_none());
    // A flag set through the snapshot stays on the pieces of its polygon after a
    // second obstacle carves the tile again.
    for p in snapshot.polygon_ids() {
        snapshot.set_polygon_flags(p, 0x4).unwrap();
    }
    world
        .add_obstacle(&Obstacle::circle(Vec2::new(0.5, 0.5), 0.2).unwrap())
        .unwrap();
    let again = world.snapshot();
    assert!(again.polygon_ids().all(|p| again.polygon_flags(p) == 0x4));
    // Replacing the tile carves the new mesh too.
    world.replace_tile(tile, &room(4.0, 4.0, 2, 2)).unwrap();
    assert!(
        world
            .snapshot()
            .nearest_point(v(2.0, 2.0), 0.9, None)
            .is_none()
    );
}

#[test]
fn the_baked_agent_radius_grows_the_cut() {
    let options = MeshOptions::default().with_agent_radius(0.5);
    let mesh = NavMesh::from_polygons(
        &[v(0.0, 0.0), v(10.0, 0.0), v(10.0, 10.0), v(0.0, 10.0)],
        &[0, 1, 2, 3],
        &[4],
        &options,
    )
    .unwrap();
    let carved = mesh
        .with_obstacles(&[Obstacle::rotated_box(Vec2::new(5.0, 5.0), Vec2::ONE, 0.0).unwrap()])
        .unwrap();
    // The cut reaches 1.5 from the centre along the axes.
    let p = carved.nearest_point(v(5.0, 5.0), 10.0, None).unwrap().point;
    assert!((p.distance(v(5.0, 5.0)) - 1.5).abs() < 1e-4, "{p}");
    assert_eq!(carved.agent_radius(), 0.5);
    // A plain mesh with nothing touched is itself; a world snapshot is refused.
    let far = Obstacle::circle(Vec2::new(50.0, 50.0), 1.0).unwrap();
    assert_eq!(
        mesh.with_obstacles(std::slice::from_ref(&far))
            .unwrap()
            .polygon_count(),
        1
    );
    let world = world_of(&[mesh]);
    assert!(matches!(
        world.snapshot().with_obstacles(&[far]),
        Err(MeshError::InvalidOption(_))
    ));
}

#[test]
fn a_saved_world_keeps_its_tiles_as_added_and_loads() {
    let world = world_of(&[room(6.0, 6.0, 3, 3)]);
    let count = world.snapshot().polygon_count();
    world
        .add_obstacle(&Obstacle::circle(Vec2::new(3.0, 3.0), 1.0).unwrap())
        .unwrap();
    assert!(world.snapshot().polygon_count() > count);
    // Obstacles are run-time state: the file holds the tiles as they were added.
    let loaded = World::from_bytes(&world.to_bytes()).unwrap();
    assert_eq!(loaded.snapshot().polygon_count(), count);
    assert_eq!(loaded.obstacle_count(), 0);
    assert_eq!(
        loaded.tiles().iter().map(|(t, _)| *t).collect::<Vec<_>>(),
        world.tiles().iter().map(|(t, _)| *t).collect::<Vec<_>>()
    );
    // Saved again, it loads again.
    assert!(World::from_bytes(&loaded.to_bytes()).is_ok());
}

#[test]
fn links_keep_their_ends_and_flags_and_go_with_a_cut_end() {
    use navstar::{MeshInput, OffMeshLink};
    let v3 = [v(0.0, 0.0), v(10.0, 0.0), v(10.0, 4.0), v(0.0, 4.0)];
    let jump = [OffMeshLink::new(v(1.0, 2.0), v(9.0, 2.0))];
    let input = MeshInput::new(&v3, &[0, 1, 2, 3])
        .with_polygon_sizes(&[4])
        .with_links(&jump);
    let mesh = NavMesh::from_input(&input, &MeshOptions::default()).unwrap();
    let world = world_of(&[mesh]);
    world.snapshot().set_link_flags(0, 0x8).unwrap();
    // An obstacle away from the link's ends: the link stays, with its flags.
    let away = world
        .add_obstacle(&Obstacle::circle(Vec2::new(5.0, 2.0), 0.5).unwrap())
        .unwrap();
    let snapshot = world.snapshot();
    assert_eq!(snapshot.link_count(), 1);
    assert_eq!(snapshot.link_flags(0), 0x8);
    // One over its far end: the link goes; removing it brings the link back.
    let over = world
        .add_obstacle(&Obstacle::circle(Vec2::new(9.0, 2.0), 0.5).unwrap())
        .unwrap();
    assert_eq!(world.snapshot().link_count(), 0);
    world.remove_obstacle(over).unwrap();
    world.remove_obstacle(away).unwrap();
    assert_eq!(world.snapshot().link_count(), 1);
}

#[test]
fn a_polygon_covered_whole_comes_back_open_when_its_obstacle_goes() {
    // A corridor 20 x 2 of ten squares; a crate 3 x 3 over square 5 ([10, 12] x [0, 2])
    // whole: the square has no piece left to carry its flags while the crate is there.
    // (Found by the fuzz target obstacle_sequences: it came back with flags 0, closed.)
    let world = world_of(&[room(20.0, 2.0, 10, 1)]);
    let (before, status) = path(
        &world.snapshot(),
        v(1.0, 1.0),
        v(19.0, 1.0),
        PathMode::Funnel,
    );
    assert_eq!(status, PathStatus::Complete);
    let id = world
        .add_obstacle(
            &Obstacle::rotated_box(Vec2::new(11.0, 1.0), Vec2::new(1.5, 1.5), 0.0).unwrap(),
        )
        .unwrap();
    let (_, status) = path(
        &world.snapshot(),
        v(1.0, 1.0),
        v(19.0, 1.0),
        PathMode::Funnel,
    );
    assert_eq!(status, PathStatus::Partial);
    world.remove_obstacle(id).unwrap();
    let snapshot = world.snapshot();
    let (after, status) = path(&snapshot, v(1.0, 1.0), v(19.0, 1.0), PathMode::Funnel);
    assert_eq!(status, PathStatus::Complete);
    assert_eq!(after, before);
    let flags = |mesh: &NavMesh| -> Vec<u32> {
        mesh.polygon_ids()
            .map(|id| mesh.polygon_flags(id))
            .collect()
    };
    assert_eq!(flags(&snapshot), flags(&room(20.0, 2.0, 10, 1)));
}

#[test]
fn a_disc_over_a_seam_of_the_room_leaves_no_crack() {
    // Found by the oracle test (seed 10642847941278621911): a disc over the seam between
    // the second and third of three stacked 10 x 2 rooms.
    let mesh = room(10.0, 6.0, 1, 3);
    let disc = Obstacle::circle(Vec2::new(5.489_303, 3.077_005), 0.2 + 0.401_593_74 * 1.8).unwrap();
    let carved = mesh.with_obstacles(&[disc]).unwrap();
    let (s, t) = (v(5.580_836, 4.250_662), v(9.745_04, 0.069_563_43));
    // The disc's top edge passes 1.3e-4 below the seam at z = 4: between them the
    // partition made a sliver (its third corner 1e-5 off its longest edge), which was
    // left out with nothing in its place, so a crack of walls ran from the disc to the
    // room's side and the path went round the disc's far side (7.835).
    let (corners, status) = path(&carved, s, t, PathMode::Optimal);
    assert_eq!(status, PathStatus::Complete);
    // The visibility-graph oracle's length.
    assert!(
        (length(&corners) - 5.901_868_5).abs() < 1e-3,
        "{}",
        length(&corners)
    );
    // Round the disc's near side, to the right of the start.
    assert!(
        corners[1..corners.len() - 1].iter().all(|c| c.x > 5.5),
        "{corners:?}"
    );
}
