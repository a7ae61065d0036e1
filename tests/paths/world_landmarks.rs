//! A world's landmark tables (`World::prepare_landmarks`): kept by changes that only take
//! walkable ground away (tiles removed, obstacles added), dropped by changes that may add
//! some; on every snapshot the exact mode's lengths with the table equal those without
//! it, and those of the one-piece mesh of the cells present.

use glam::Vec2;
use navstar::{NavMesh, Obstacle, PathStatus, Query, TileRef};

use super::optimal;
use super::world::{Map, cut};
use crate::common::{Rng, ground_length};

/// The exact lengths on `snapshot` with the landmark table and without, on `pairs` random
/// pairs of walkable points of `map`; and those of `whole` (a one-piece mesh of the same
/// ground) when given. Returns the number of complete paths.
fn check(map: &Map, snapshot: &NavMesh, whole: Option<&NavMesh>, seed: u64, pairs: u32) -> u32 {
    let mut on = Query::new(snapshot);
    on.set_landmarks(true);
    let mut off = Query::new(snapshot);
    off.set_landmarks(false);
    let mut one_piece = whole.map(Query::new);
    let up = snapshot.up_axis();
    let mut rng = Rng(seed);
    let mut complete = 0;
    for i in 0..pairs {
        let (s, t) = (map.point(&mut rng), map.point(&mut rng));
        let context = format!("pair {i}: {s} -> {t}");
        let with = on.find_path(s, t, &optimal()).map(|p| p.to_owned_path());
        let without = off.find_path(s, t, &optimal()).map(|p| p.to_owned_path());
        let (with, without) = match (with, without) {
            (Ok(a), Ok(b)) => (a, b),
            (Err(a), Err(b)) if a == b => continue,
            (a, b) => panic!("{context}: {a:?} with the table, {b:?} without"),
        };
        assert_eq!(with.status, without.status, "{context}");
        let (a, b) = (
            ground_length(up, &with.corners),
            ground_length(up, &without.corners),
        );
        assert!(
            (a - b).abs() <= 1e-4 * b.max(1.0),
            "{context}: {a} with the table, {b} without"
        );
        if let Some(query) = one_piece.as_mut() {
            let expected = query.find_path(s, t, &optimal()).unwrap().to_owned_path();
            assert_eq!(with.status, expected.status, "{context}");
            let c = ground_length(up, &expected.corners);
            if expected.status == PathStatus::Complete {
                assert!(
                    (a - c).abs() <= 1e-4 * c.max(1.0),
                    "{context}: {a} on the world, {c} whole"
                );
            }
        }
        complete += u32::from(with.status == PathStatus::Complete);
    }
    complete
}

#[test]
fn removals_and_obstacles_keep_the_table_and_additions_drop_it() {
    let map = Map::random(0x1a4d, 64, 48);
    let (world, tiles) = cut(&map, &[9, 21, 30, 44, 53], &[8, 19, 27, 38]);
    let whole = map.whole();
    assert!(world.prepare_landmarks());
    assert!(world.landmark_bytes() > 0);
    let snapshot = world.snapshot();
    assert!(snapshot.landmark_bytes() > 0);
    assert!(check(&map, &snapshot, Some(&whole), 1, 150) > 50);

    let mut rng = Rng(11);
    let mut changed = map.clone();
    let mut present: Vec<Option<TileRef>> = tiles.iter().map(|t| Some(t.4)).collect();
    let mut obstacles = 0;
    let mut prepared = true;
    for round in 0..12u64 {
        let i = rng.below(tiles.len() as u32) as usize;
        let (x0, z0, w, h, _) = tiles[i];
        let cells =
            (z0..z0 + h).flat_map(|z| (x0..x0 + w).map(move |x| (z * map.width + x) as usize));
        let grows = match (present[i], round % 3) {
            (Some(r), 0 | 1) => {
                world.remove_tile(r).unwrap();
                present[i] = None;
                cells.for_each(|c| changed.walkable[c] = false);
                false
            }
            (None, _) => {
                for c in cells {
                    changed.walkable[c] = map.walkable[c];
                }
                present[i] = Some(
                    world
                        .add_tile(&changed.mesh(x0, z0, w, h).unwrap())
                        .unwrap(),
                );
                true
            }
            (Some(_), _) => {
                // A disc on a walkable cell of the tile: carved, ground taken away.
                let at = changed.point(&mut rng);
                world
                    .add_obstacle(&Obstacle::circle(Vec2::new(at.x, at.z), 0.4).unwrap())
                    .unwrap();
                obstacles += 1;
                false
            }
        };
        if grows {
            prepared = false;
        }
        let snapshot = world.snapshot();
        assert_eq!(snapshot.landmark_bytes() > 0, prepared, "round {round}");
        assert_eq!(world.landmark_bytes() > 0, prepared, "round {round}");
        // The one-piece oracle knows the cells, not the obstacles' discs.
        let whole = (obstacles == 0).then(|| changed.whole());
        check(&changed, &snapshot, whole.as_ref(), round, 60);
        if !prepared && round % 2 == 1 {
            assert!(world.prepare_landmarks());
            prepared = true;
            check(&changed, &world.snapshot(), whole.as_ref(), round + 100, 60);
        }
    }
}

/// Tables prepared on one thread while another removes and adds tiles and two more
/// query: every snapshot a query takes answers the same exact lengths with its tables as
/// without them (a table carried past an addition, or attached to the wrong tiles,
/// would make some too long), and the preparer sees its tables thrown away only when
/// a change that may add ground came while it built.
#[test]
fn tables_prepared_while_tiles_change_keep_every_snapshot_exact() {
    use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

    let map = Map::random(0x5eed, 48, 40);
    let (world, tiles) = cut(&map, &[8, 17, 25, 33, 41], &[7, 15, 24, 31]);
    let done = AtomicBool::new(false);
    let (prepared, checked) = (AtomicU32::new(0), AtomicU32::new(0));
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let mut rng = Rng(3);
            let mut present: Vec<TileRef> = tiles.iter().map(|t| t.4).collect();
            // Rounds of a few removals (which keep the tables), a pause, and the tiles
            // added back (which drop them).
            for _ in 0..6 {
                let mut gone = Vec::new();
                for _ in 0..4 {
                    let i = rng.below(tiles.len() as u32) as usize;
                    if !gone.contains(&i) {
                        world.remove_tile(present[i]).unwrap();
                        gone.push(i);
                    }
                    std::thread::sleep(std::time::Duration::from_millis(5));
                }
                std::thread::sleep(std::time::Duration::from_millis(400));
                for i in gone {
                    let (x0, z0, w, h, _) = tiles[i];
                    present[i] = world.add_tile(&map.mesh(x0, z0, w, h).unwrap()).unwrap();
                }
            }
            done.store(true, Ordering::Release);
        });
        scope.spawn(|| {
            while !done.load(Ordering::Acquire) {
                if world.prepare_landmarks() {
                    prepared.fetch_add(1, Ordering::Relaxed);
                }
            }
        });
        for seed in 0..2u64 {
            let (done, checked, map) = (&done, &checked, &map);
            let world = &world;
            scope.spawn(move || {
                let mut round = 0;
                while !done.load(Ordering::Acquire) {
                    let snapshot = world.snapshot();
                    check(map, &snapshot, None, seed * 1000 + round, 8);
                    checked.fetch_add(u32::from(snapshot.landmark_bytes() > 0), Ordering::Relaxed);
                    round += 1;
                }
            });
        }
    });
    assert!(prepared.load(Ordering::Relaxed) > 0, "no build finished");
    assert!(
        checked.load(Ordering::Relaxed) > 0,
        "no snapshot with tables was checked"
    );
    // Quiet again: a build now always lands.
    assert!(world.prepare_landmarks());
    check(&map, &world.snapshot(), None, 99, 40);
}
