//! A world's landmark tables through streaming: random sequences of tiles removed and
//! added back (the same mesh or an equal one built again, into their slot or another:
//! the lowest free one),
//! tiles replaced by an equal mesh, a tile left out of the build added, and obstacles
//! added, moved and removed, on random grid worlds. After every step the tables are
//! there (new ground, the left-out tile or ground an obstacle of the build had carved,
//! only caps the bounds near it), and every bound of the snapshot (both layers) is at
//! most the exact shortest way, measured without the table (without the cap, the new
//! ground of the left-out tile makes bounds too large: checked by hand); a tile
//! stitched again as it was gets its rows back, so a world whose tiles all came back
//! has every row of the build again.

use glam::{Vec2, Vec3};
use proptest::prelude::*;

use super::landmark_tests::check_layer;
use super::{ObstacleId, TileRef, World, WorldOptions};
use crate::mesh::{NavMesh, TileGrid};
use crate::{MeshOptions, Obstacle};

/// One step of a sequence: what, on which tile (index into the cut), where.
#[derive(Debug, Clone)]
enum Step {
    Remove(usize),
    /// The tile left out of the build added (if it is out).
    AddMissing,
    /// Added back from the same mesh (`false`) or an equal one built again (`true`).
    AddBack(usize, bool),
    Replace(usize),
    AddObstacle(f32, f32),
    MoveObstacle(usize, f32, f32),
    RemoveObstacle(usize),
}

fn step() -> impl Strategy<Value = Step> {
    let at = (0.0f32..24.0, 0.0f32..16.0);
    prop_oneof![
        3 => (0usize..24).prop_map(Step::Remove),
        1 => Just(Step::AddMissing),
        3 => (0usize..24, any::<bool>()).prop_map(|(i, f)| Step::AddBack(i, f)),
        1 => (0usize..24).prop_map(Step::Replace),
        1 => at.clone().prop_map(|(x, z)| Step::AddObstacle(x, z)),
        1 => (0usize..4, at).prop_map(|(i, (x, z))| Step::MoveObstacle(i, x, z)),
        1 => (0usize..4).prop_map(Step::RemoveObstacle),
    ]
}

/// The known and unknown portal sides of both layers of the world's snapshot, every
/// known bound checked towards `goal`.
fn check(world: &World, goal: Vec3) -> Result<(usize, usize), TestCaseError> {
    let snapshot = world.snapshot();
    let data = snapshot.data();
    let (mut known, mut unknown) = (0, 0);
    for layer in [Some(data), data.coarse().map(|c| &*c.mesh)]
        .into_iter()
        .flatten()
    {
        let (k, u) = check_layer(layer, &snapshot, goal)?;
        known += k;
        unknown += u;
    }
    Ok((known, unknown))
}

/// A world of tiles, their references, the meshes they were added as, and equal meshes
/// built again.
type GridWorld = (World, Vec<TileRef>, Vec<NavMesh>, Vec<NavMesh>);

/// The world of the tiles of `walkable` cut at side 4, the cut (to add tiles back from)
/// and an equal cut built again.
fn grid_world(walkable: &[bool]) -> Option<GridWorld> {
    let grid = TileGrid {
        width: 24,
        height: 16,
        walkable,
        cell_size: 1.0,
        origin: Vec3::ZERO,
    };
    let mesh = NavMesh::from_grid(&grid, &MeshOptions::default()).ok()?;
    let cut = mesh.cut_into_tiles(4.0).ok()?;
    let again = mesh.cut_into_tiles(4.0).ok()?;
    let world = World::new(&WorldOptions::default()).ok()?;
    let tiles = world.add_tiles(&cut).ok()?;
    let meshes = cut.tiles.iter().map(|t| t.mesh.clone()).collect();
    let fresh = again.tiles.iter().map(|t| t.mesh.clone()).collect();
    Some((world, tiles, meshes, fresh))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn streamed_tables_stay_below_the_shortest_ways(
        walkable in proptest::collection::vec(prop::bool::weighted(0.8), 24 * 16),
        before in proptest::option::of((0.0f32..24.0, 0.0f32..16.0)),
        missing in proptest::option::of(0usize..24),
        steps in proptest::collection::vec(step(), 1..10),
        goals in proptest::collection::vec((0.0f32..24.0, 0.0f32..16.0), 10),
    ) {
        let Some((world, tiles, meshes, fresh)) = grid_world(&walkable) else { return Ok(()) };
        // Kept through any new ground (on this small world a new tile and its
        // neighbours are a large share), so that every step checks capped bounds.
        world.keep_landmarks_through_any_new_ground();
        // An obstacle carved before the build: taking it away (or moving it) adds
        // ground the tables do not know.
        let early = before.and_then(|(x, z)| {
            world.add_obstacle(&Obstacle::circle(Vec2::new(x, z), 0.8).unwrap()).ok()
        });
        // A tile left out of the build: adding it is new ground, which may open ways
        // far shorter than the tables know.
        let missing = missing.map(|m| m % tiles.len());
        if let Some(m) = missing {
            world.remove_tile(tiles[m]).unwrap();
        }
        if !world.prepare_landmarks() {
            return Ok(());
        }
        let goal = |i: usize| Vec3::new(goals[i % goals.len()].0, 0.0, goals[i % goals.len()].1);
        let (built_known, built_unknown) = check(&world, goal(0))?;
        prop_assert_eq!(built_unknown, 0);
        // Per tile of the cut: its slot when the tables were built (`None`: not in the
        // world then, so new ground) and its reference now.
        let mut home: Vec<Option<u32>> = tiles.iter().map(|t| Some(t.slot())).collect();
        let mut present: Vec<Option<TileRef>> = tiles.iter().map(|&t| Some(t)).collect();
        if let Some(m) = missing {
            (home[m], present[m]) = (None, None);
        }
        let mut obstacles: Vec<ObstacleId> = Vec::new();
        for (n, step) in steps.iter().enumerate() {
            let count = tiles.len();
            match *step {
                Step::Remove(i) => {
                    let i = i % count;
                    if let Some(r) = present[i].take() {
                        world.remove_tile(r).unwrap();
                    }
                }
                Step::AddBack(i, again) => {
                    let i = i % count;
                    if present[i].is_none() {
                        let held: Vec<u32> = present.iter().flatten().map(|t| t.slot()).collect();
                        let lowest = (0u32..).find(|s| !held.contains(s));
                        let mesh = if again { &fresh[i] } else { &meshes[i] };
                        let r = world.add_tile(mesh).unwrap();
                        prop_assert_eq!(Some(r.slot()), lowest);
                        present[i] = Some(r);
                    }
                }
                Step::AddMissing => {
                    if let Some(m) = missing.filter(|&m| present[m].is_none()) {
                        present[m] = Some(world.add_tile(&meshes[m]).unwrap());
                    }
                }
                Step::Replace(i) => {
                    let i = i % count;
                    if let Some(r) = present[i] {
                        present[i] = Some(world.replace_tile(r, &fresh[i]).unwrap());
                    }
                }
                Step::AddObstacle(x, z) => {
                    let disc = Obstacle::circle(Vec2::new(x, z), 0.6).unwrap();
                    if let Ok(id) = world.add_obstacle(&disc) {
                        obstacles.push(id);
                    }
                }
                Step::MoveObstacle(i, x, z) => {
                    if let Some(&id) = obstacles.get(i) {
                        let disc = Obstacle::circle(Vec2::new(x, z), 0.6).unwrap();
                        let _ = world.move_obstacle(id, &disc);
                    }
                }
                Step::RemoveObstacle(i) => {
                    if i < obstacles.len() {
                        let _ = world.remove_obstacle(obstacles.remove(i));
                    }
                }
            }
            // Every change keeps the tables (new ground only caps the bounds near it:
            // this world has fewer tiles than `MAX_NEW_GROUND_TILES`, and keeps them
            // whatever share lost its rows), and every bound stays below the shortest
            // way.
            prop_assert!(world.landmark_bytes() > 0, "step {} {:?}: tables dropped", n, step);
            prop_assert!(world.snapshot().landmark_bytes() > 0);
            check(&world, goal(n + 1))?;
        }
        let at_home = present
            .iter()
            .zip(&home)
            .all(|(p, h)| p.is_none_or(|r| Some(r.slot()) == *h));
        if early.is_some() || missing.is_some() || !at_home {
            return Ok(());
        }
        // Everything back as it was built: every row is there again.
        for id in obstacles {
            world.remove_obstacle(id).unwrap();
        }
        let mut order: Vec<usize> = (0..tiles.len()).filter(|&i| present[i].is_none()).collect();
        order.sort_by_key(|&i| tiles[i].slot());
        for i in order {
            let r = world.add_tile(&meshes[i]).unwrap();
            prop_assert_eq!(r.slot(), tiles[i].slot());
        }
        prop_assert!(world.landmark_bytes() > 0);
        prop_assert_eq!(check(&world, goal(0))?, (built_known, 0));
    }
}
