//! Threads query a world's snapshots while another thread adds, moves and removes
//! obstacles in random order: every answer is a valid path on the snapshot it ran on
//! (checked by the independent checker of `tests/common`), and once every obstacle is
//! gone the world answers as before.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use glam::Vec2;
use navstar::{
    MeshOptions, NavMesh, Obstacle, PathOptions, PathStatus, Query, World, WorldOptions,
};

use crate::common::{Domain, Rng};
use crate::{room, v};

#[test]
fn answers_are_valid_on_the_snapshot_they_ran_on() {
    let world = Arc::new(World::new(&WorldOptions::default()).unwrap());
    // One tile of 20 x 20 in 8 x 8 squares (one tile, so that the checker, which
    // reads a plain mesh's vertex array, can read each snapshot as a mesh of its own).
    world.add_tile(&room(20.0, 20.0, 8, 8)).unwrap();
    let before = world.snapshot().polygon_count();
    let stop = Arc::new(AtomicBool::new(false));
    let readers: Vec<_> = (0..2)
        .map(|k| {
            let (world, stop) = (world.clone(), stop.clone());
            std::thread::spawn(move || {
                let mut rng = Rng(0xabc + k);
                let mut checked = 0;
                while !stop.load(Ordering::Relaxed) || checked < 40 {
                    let snapshot = world.snapshot();
                    let domain = Domain::new(&plain(&snapshot));
                    let mut query = Query::new(&snapshot);
                    for _ in 0..10 {
                        let s = v(rng.unit() * 20.0, rng.unit() * 20.0);
                        let t = v(rng.unit() * 20.0, rng.unit() * 20.0);
                        let path = query.find_path(s, t, &PathOptions::default()).unwrap();
                        assert_ne!(path.status, PathStatus::NodeLimit);
                        for w in path.corners.windows(2) {
                            let (a, b) = (domain.g(w[0]), domain.g(w[1]));
                            domain.check_segment(a, b).unwrap();
                        }
                        checked += 1;
                    }
                }
                checked
            })
        })
        .collect();
    let mut rng = Rng(7);
    let mut live = Vec::new();
    for _ in 0..60 {
        let center = Vec2::new(rng.unit() * 20.0, rng.unit() * 20.0);
        let shape = if rng.below(2) == 0 {
            Obstacle::circle(center, 0.3 + rng.unit() * 1.5).unwrap()
        } else {
            Obstacle::rotated_box(
                center,
                Vec2::new(0.2 + rng.unit(), 0.2 + rng.unit()),
                rng.unit() * 3.0,
            )
            .unwrap()
        };
        match rng.below(3) {
            0 if !live.is_empty() => {
                let id = live.swap_remove(rng.below(live.len() as u32) as usize);
                world.remove_obstacle(id).unwrap();
            }
            1 if !live.is_empty() => {
                let id = live[rng.below(live.len() as u32) as usize];
                world.move_obstacle(id, &shape).unwrap();
            }
            _ => live.push(world.add_obstacle(&shape).unwrap()),
        }
    }
    stop.store(true, Ordering::Relaxed);
    for reader in readers {
        assert!(reader.join().unwrap() >= 40);
    }
    // Every obstacle removed, in random order: the world is as it was.
    while !live.is_empty() {
        let id = live.swap_remove(rng.below(live.len() as u32) as usize);
        world.remove_obstacle(id).unwrap();
    }
    let after = world.snapshot();
    assert_eq!(after.polygon_count(), before);
    let mut query = Query::new(&after);
    let path = query
        .find_path(v(0.5, 0.5), v(19.5, 19.5), &PathOptions::default())
        .unwrap();
    assert_eq!(path.corners.len(), 2);
}

/// The one tile of a world's snapshot as a mesh built on its own (same polygons).
fn plain(snapshot: &NavMesh) -> NavMesh {
    let vertices = snapshot.tile_vertices(0);
    let mut indices = Vec::new();
    let mut sizes = Vec::new();
    for p in snapshot.polygon_ids() {
        let corners = snapshot.polygon_vertices(p);
        indices.extend(corners.iter().map(|&c| c & 0x3f_ffff));
        sizes.push(corners.len() as u32);
    }
    NavMesh::from_polygons(
        vertices,
        &indices,
        &sizes,
        &MeshOptions::default().with_weld_vertices(false),
    )
    .unwrap()
}
