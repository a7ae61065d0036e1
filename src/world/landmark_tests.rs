//! A world's landmark bounds are lower bounds on every snapshot that keeps them: from
//! points all along every portal of the snapshot (its fine layer and its merged copy),
//! the bound towards a random goal never exceeds the exact mode's shortest way there
//! (measured without the table), after tiles were removed and obstacles carved; the
//! tiles those changes touched get the unknown row, the others keep theirs.

use glam::{Vec2, Vec3};
use proptest::prelude::*;

use super::{World, WorldOptions};
use crate::mesh::{MeshData, NavMesh, TileGrid};
use crate::{MeshOptions, Obstacle, PathMode, PathOptions, PathStatus, Query};

/// The exact shortest length from `a` to `b` on `snapshot`, without the table;
/// infinite when there is none.
fn exact(query: &mut Query, a: Vec3, b: Vec3) -> f32 {
    let options = PathOptions::default().with_mode(PathMode::Optimal);
    match query.find_path_vec(a, b, &options) {
        Ok(path) if path.status == PathStatus::Complete => path.length(),
        _ => f32::INFINITY,
    }
}

/// Checks every portal of `data` (a layer of `snapshot`) against the shortest ways to
/// `goal`; returns how many portal sides had a known row and how many the unknown one.
pub(super) fn check_layer(
    data: &MeshData,
    snapshot: &NavMesh,
    goal: Vec3,
) -> Result<(usize, usize), TestCaseError> {
    let Some(table) = crate::search::landmarks::table(data) else {
        return Ok((0, 0));
    };
    let Some(near) = data.nearest_point(goal, f32::INFINITY, |_| true) else {
        return Ok((0, 0));
    };
    let point = Vec2::new(near.point.x, near.point.z).as_dvec2();
    let bounds = table.goal(data, [near.polygon], point);
    let mut walk = Query::new(snapshot);
    walk.set_landmarks(false);
    let (mut known, mut unknown) = (0, 0);
    for p in data.polygon_ids() {
        for slot in data.corner_range(p) {
            let node = table.slot_node(slot);
            if node == crate::mesh::landmarks::NO_PORTAL {
                continue;
            }
            if node == table.unknown() {
                unknown += 1;
                prop_assert_eq!(table.remaining(&bounds, node), 0.0);
                continue;
            }
            known += 1;
            let (u, w) = data.edge(p, slot);
            let (a, b) = (data.vertices[u as usize], data.vertices[w as usize]);
            let h = table.remaining(&bounds, node);
            if h == 0.0 {
                continue;
            }
            let shortest = [0.02, 0.5, 0.98]
                .iter()
                .map(|&t| exact(&mut walk, a.lerp(b, t), near.point))
                .fold(f32::INFINITY, f32::min);
            prop_assert!(
                h <= shortest + 1e-4 * (1.0 + shortest),
                "portal {node} of polygon {p}: bound {h} above the shortest way {shortest} to {goal}"
            );
        }
    }
    Ok((known, unknown))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn kept_bounds_stay_below_the_shortest_ways(
        walkable in proptest::collection::vec(prop::bool::weighted(0.8), 24 * 16),
        removed in proptest::collection::vec(0usize..24, 1..3),
        disc in (0.0f32..24.0, 0.0f32..16.0),
        goals in proptest::collection::vec((0.0f32..24.0, 0.0f32..16.0), 2),
    ) {
        let grid = TileGrid {
            width: 24,
            height: 16,
            walkable: &walkable,
            cell_size: 1.0,
            origin: Vec3::ZERO,
        };
        let Ok(mesh) = NavMesh::from_grid(&grid, &MeshOptions::default()) else { return Ok(()) };
        let world = World::new(&WorldOptions::default()).unwrap();
        let Ok(cut) = mesh.cut_into_tiles(4.0) else { return Ok(()) };
        let tiles = world.add_tiles(&cut).unwrap();
        if !world.prepare_landmarks() {
            return Ok(());
        }
        for &r in &removed {
            if let Some(&tile) = tiles.get(r % tiles.len().max(1)) {
                let _ = world.remove_tile(tile);
            }
        }
        let obstacle = Obstacle::circle(Vec2::new(disc.0, disc.1), 0.7).unwrap();
        let _ = world.add_obstacle(&obstacle).unwrap();
        prop_assert!(world.landmark_bytes() > 0);
        let snapshot = world.snapshot();
        let data = snapshot.data();
        let (mut known, mut unknown) = (0, 0);
        for &(x, z) in &goals {
            let goal = Vec3::new(x, 0.0, z);
            for layer in [Some(data), data.coarse().map(|c| &*c.mesh)].into_iter().flatten() {
                let (k, u) = check_layer(layer, &snapshot, goal)?;
                known += k;
                unknown += u;
            }
        }
        // The removal re-stitched its neighbours: some sides are unknown, most are not.
        prop_assert!(known > 0 && unknown > 0, "{known} known, {unknown} unknown");
    }
}

/// A tile of two unit squares side by side along x from `x0` (y up).
fn strip(x0: f32) -> NavMesh {
    let v = |x: f32, z: f32| Vec3::new(x0 + x, 0.0, z);
    let vertices = [
        v(0.0, 0.0),
        v(1.0, 0.0),
        v(2.0, 0.0),
        v(2.0, 1.0),
        v(1.0, 1.0),
        v(0.0, 1.0),
    ];
    NavMesh::from_polygons(
        &vertices,
        &[0, 5, 4, 1, 1, 4, 3, 2],
        &[4, 4],
        &MeshOptions::default(),
    )
    .unwrap()
}

/// The tile to add while a build runs, and the world to add it to (see
/// [`build_while_adding`]).
static ADD_DURING_BUILD: std::sync::Mutex<Option<(&'static World, NavMesh)>> =
    std::sync::Mutex::new(None);

/// The search layer's builder, adding the tile of [`ADD_DURING_BUILD`] to its world
/// before it returns: a change that adds ground while the build runs.
fn build_while_adding(mesh: &MeshData) -> Option<crate::mesh::Landmarks> {
    let table = crate::search::landmarks::build(mesh);
    let pending = ADD_DURING_BUILD.lock().unwrap().take();
    if let Some((world, tile)) = pending {
        world.add_tile(&tile).unwrap();
    }
    table
}

#[test]
fn a_build_that_an_addition_overtakes_lands_capped_near_the_new_ground() {
    let world: &'static World = Box::leak(Box::new(World::new(&WorldOptions::default()).unwrap()));
    world.keep_landmarks_through_any_new_ground();
    world.add_tile(&strip(0.0)).unwrap();
    let right = world.add_tile(&strip(2.0)).unwrap();
    // An addition during the build: the tables could miss its shortcuts, so bounds
    // towards goals near it are capped by the distance to it.
    *ADD_DURING_BUILD.lock().unwrap() = Some((world, strip(4.0)));
    assert!(world.install_landmarks(build_while_adding));
    assert!(world.snapshot().landmark_bytes() > 0);
    assert_eq!(world.tile_count(), 3);
    // A goal inside the new tile gets no bound, and paths into it stay exact.
    assert_eq!(
        bound_from_first_portal(world, Vec3::new(5.5, 0.0, 0.5)),
        0.0
    );
    let mut query = Query::new(&world.snapshot());
    query.set_landmarks(true);
    let options = PathOptions::default().with_mode(PathMode::Optimal);
    let path = query
        .find_path_vec(Vec3::new(0.5, 0.0, 0.5), Vec3::new(5.5, 0.0, 0.5), &options)
        .unwrap();
    assert!((path.length() - 5.0).abs() < 1e-4);
    // A quiet build lands, a removal keeps its tables, and the next build lands too.
    assert!(world.install_landmarks(crate::search::landmarks::build));
    assert!(world.snapshot().landmark_bytes() > 0);
    world.remove_tile(right).unwrap();
    assert!(world.snapshot().landmark_bytes() > 0);
    assert!(world.install_landmarks(crate::search::landmarks::build));
    assert!(world.snapshot().landmark_bytes() > 0);
}

#[test]
fn ground_added_back_with_a_link_gets_no_table_on_the_layer_that_takes_links() {
    let world = World::new(&WorldOptions::default()).unwrap();
    world.add_tile(&strip(0.0)).unwrap();
    let right = world.add_tile(&strip(2.0)).unwrap();
    assert!(world.prepare_landmarks());
    let fine = |world: &World| {
        let snapshot = world.snapshot();
        crate::search::landmarks::table(snapshot.data()).is_some()
    };
    assert!(fine(&world));
    world.remove_tile(right).unwrap();
    // The same ground back, with a link from its far end to the near tile's start (a
    // link may cost less than any way over the ground the table measured).
    let jump =
        crate::OffMeshLink::new(Vec3::new(3.9, 0.0, 0.5), Vec3::new(0.1, 0.0, 0.5)).with_cost(0.5);
    let back = world.add_tile_with_links(&strip(2.0), &[jump]).unwrap();
    assert_eq!(back.slot(), right.slot());
    assert!(world.landmark_bytes() > 0);
    assert!(!fine(&world));
    let mut query = Query::new(&world.snapshot());
    query.set_landmarks(true);
    let path = query
        .find_path_vec(
            Vec3::new(3.9, 0.0, 0.5),
            Vec3::new(0.1, 0.0, 0.5),
            &PathOptions::default().with_mode(PathMode::Funnel),
        )
        .unwrap();
    assert!(path.details.iter().any(|corner| corner.link.is_some()));
    // Without the link again, the table is back.
    world.replace_tile(back, &strip(2.0)).unwrap();
    assert!(fine(&world));
}

/// The bound from the portal inside the first strip (at x = 1) towards `goal`, on the
/// world's snapshot.
fn bound_from_first_portal(world: &World, goal: Vec3) -> f32 {
    let snapshot = world.snapshot();
    let data = snapshot.data();
    let table = crate::search::landmarks::table(data).expect("a table");
    let near = data.nearest_point(goal, f32::INFINITY, |_| true).unwrap();
    let bounds = table.goal(
        data,
        [near.polygon],
        Vec2::new(near.point.x, near.point.z).as_dvec2(),
    );
    let portal = data
        .polygon_ids()
        .flat_map(|p| data.corner_range(p).map(move |slot| (p, slot)))
        .find(|&(p, slot)| {
            let (u, w) = data.edge(p, slot);
            let (a, b) = (data.vertices[u as usize], data.vertices[w as usize]);
            a.x == 1.0 && b.x == 1.0 && a.z != b.z
        })
        .map(|(_, slot)| table.slot_node(slot))
        .expect("the first strip's inner portal");
    table.remaining(&bounds, portal)
}

#[test]
fn new_ground_caps_bounds_only_near_it_and_many_tiles_of_it_drop_the_tables() {
    // Eight strips in a row, x from 0 to 16; the tables are built on them (and kept
    // through new ground whatever share of the world loses its rows).
    let world = World::new(&WorldOptions::default()).unwrap();
    world.keep_landmarks_through_any_new_ground();
    for i in 0..8 {
        world.add_tile(&strip(2.0 * i as f32)).unwrap();
    }
    assert!(world.prepare_landmarks());
    let (far, near) = (Vec3::new(5.5, 0.0, 0.5), Vec3::new(13.5, 0.0, 0.5));
    let far_before = bound_from_first_portal(&world, far);
    let near_before = bound_from_first_portal(&world, near);
    // The ways from x = 1 are 4.5 and 12.5 long; the landmarks bound most of them.
    assert!(far_before > 3.0 && far_before <= 4.5, "{far_before}");
    assert!(near_before > 10.0 && near_before <= 12.5, "{near_before}");
    // A ninth strip from x = 16: ground the tables never measured, 2.5 from the near
    // goal (whose bounds it caps at 2.5) and 10.5 from the far one (whose bound, 4.5 at
    // most, it leaves whole). The eighth strip is stitched again (no rows); the goals'
    // strips keep theirs.
    world.add_tile(&strip(16.0)).unwrap();
    assert!(world.landmark_bytes() > 0);
    assert_eq!(bound_from_first_portal(&world, far), far_before);
    let near_after = bound_from_first_portal(&world, near);
    assert!(near_after > 2.0 && near_after <= 2.5, "{near_after}");
    // Every estimate stays below the true way, and the exact path is the same.
    let options = PathOptions::default().with_mode(PathMode::Optimal);
    let mut query = Query::new(&world.snapshot());
    query.set_landmarks(true);
    let path = query
        .find_path_vec(
            Vec3::new(0.5, 0.0, 0.5),
            Vec3::new(17.5, 0.0, 0.5),
            &options,
        )
        .unwrap();
    assert!((path.length() - 17.0).abs() < 1e-4);
    // More tiles of new ground than the limit: the tables are dropped.
    for i in 9..(9 + super::landmarks::MAX_NEW_GROUND_TILES) {
        world.add_tile(&strip(2.0 * i as f32)).unwrap();
    }
    assert_eq!(world.landmark_bytes(), 0);
    assert_eq!(world.snapshot().landmark_bytes(), 0);
}

#[test]
fn new_ground_keeps_the_tables_only_while_few_slots_lost_their_rows() {
    // Three strips: a fourth (new ground) and the third stitched again are half the
    // world without rows, more than `MAX_UNKNOWN_SHARE`: the tables go.
    let small = World::new(&WorldOptions::default()).unwrap();
    for i in 0..3 {
        small.add_tile(&strip(2.0 * i as f32)).unwrap();
    }
    assert!(small.prepare_landmarks());
    small.add_tile(&strip(6.0)).unwrap();
    assert_eq!(small.landmark_bytes(), 0);
    // Forty strips: the new one and its neighbour are 2 of 41, under the share: kept,
    // and an exact path across the world with them is as long as without.
    let large = World::new(&WorldOptions::default()).unwrap();
    for i in 0..40 {
        large.add_tile(&strip(2.0 * i as f32)).unwrap();
    }
    assert!(large.prepare_landmarks());
    large.add_tile(&strip(80.0)).unwrap();
    assert!(large.landmark_bytes() > 0);
    let options = PathOptions::default().with_mode(PathMode::Optimal);
    let mut query = Query::new(&large.snapshot());
    query.set_landmarks(true);
    let (from, to) = (Vec3::new(0.5, 0.0, 0.5), Vec3::new(81.5, 0.0, 0.5));
    let path = query.find_path_vec(from, to, &options).unwrap();
    assert!((path.length() - 81.0).abs() < 1e-3, "{}", path.length());
    // A goal far from the new ground keeps its bound (39.5 long), up to the cap.
    assert!(bound_from_first_portal(&large, Vec3::new(40.5, 0.0, 0.5)) > 30.0);
}
