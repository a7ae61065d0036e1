//! A world's landmark tables (`World::prepare_landmarks`): kept through tiles removed,
//! obstacles added, tiles added back, and ground they do not know (a tile that was out
//! at the build, which caps their bounds near it, or drops them when many slots lost
//! their rows);
//! on every snapshot the exact mode's lengths with the table equal those
//! without it, and those of the one-piece mesh of the cells present; after a tile is
//! added back, long queries still expand fewer nodes with the table than without.

use glam::Vec2;
use navstar::{NavMesh, Obstacle, PathMode, PathOptions, PathStatus, Query, TileRef};

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
fn the_table_is_kept_through_ground_of_the_build_and_new_ground() {
    let map = Map::random(0x1a4d, 64, 48);
    let (world, tiles) = cut(&map, &[9, 21, 30, 44, 53], &[8, 19, 27, 38]);
    let mut rng = Rng(11);
    let mut changed = map.clone();
    let mut present: Vec<Option<TileRef>> = tiles.iter().map(|t| Some(t.4)).collect();
    let cells_of = |i: usize| {
        let (x0, z0, w, h, _) = tiles[i];
        (z0..z0 + h).flat_map(move |z| (x0..x0 + w).map(move |x| (z * map.width + x) as usize))
    };
    // One tile left out of the build: adding it later is new ground.
    let out = tiles.len() / 2;
    world.remove_tile(tiles[out].4).unwrap();
    present[out] = None;
    cells_of(out).for_each(|c| changed.walkable[c] = false);
    assert!(world.prepare_landmarks());
    assert!(world.landmark_bytes() > 0);
    let snapshot = world.snapshot();
    assert!(snapshot.landmark_bytes() > 0);
    assert!(check(&changed, &snapshot, Some(&changed.whole()), 1, 150) > 50);

    // Per tile: whether it was in the world when the tables were last built.
    let mut built: Vec<bool> = present.iter().map(Option::is_some).collect();
    let mut obstacles = 0;
    let (mut kept_adds, mut new_ground_adds) = (0, 0);
    for round in 0..24u64 {
        let mut i = rng.below(tiles.len() as u32) as usize;
        if round % 4 == 3 {
            // Every fourth round, the tile left out of the first build, if it is out.
            if present[out].is_none() {
                i = out;
            }
        }
        let (x0, z0, w, h, _) = tiles[i];
        match (present[i], round % 3) {
            (Some(r), 0 | 1) => {
                world.remove_tile(r).unwrap();
                present[i] = None;
                cells_of(i).for_each(|c| changed.walkable[c] = false);
            }
            (None, _) => {
                for c in cells_of(i) {
                    changed.walkable[c] = map.walkable[c];
                }
                // A mesh built again from the same cells, into the lowest free slot:
                // ground of the build when the tile was there at the build.
                present[i] = Some(
                    world
                        .add_tile(&changed.mesh(x0, z0, w, h).unwrap())
                        .unwrap(),
                );
                if built[i] {
                    kept_adds += 1;
                } else {
                    new_ground_adds += 1;
                }
            }
            (Some(_), _) => {
                // A disc on a walkable cell of the tile: carved, ground taken away.
                let at = changed.point(&mut rng);
                world
                    .add_obstacle(&Obstacle::circle(Vec2::new(at.x, at.z), 0.4).unwrap())
                    .unwrap();
                obstacles += 1;
            }
        }
        // Known ground keeps the tables; new ground keeps them while few slots lost
        // their rows (capped near it), else drops them.
        let snapshot = world.snapshot();
        assert_eq!(snapshot.landmark_bytes() > 0, world.landmark_bytes() > 0);
        if built.iter().zip(&present).all(|(b, p)| *b || p.is_none()) {
            assert!(world.landmark_bytes() > 0, "round {round}");
        }
        // The one-piece oracle knows the cells, not the obstacles' discs.
        let whole = (obstacles == 0).then(|| changed.whole());
        check(&changed, &snapshot, whole.as_ref(), round, 60);
        if round % 8 == 7 || world.landmark_bytes() == 0 {
            // Built again now: what is present is the ground of the build.
            assert!(world.prepare_landmarks());
            built = present.iter().map(Option::is_some).collect();
            check(&changed, &world.snapshot(), whole.as_ref(), round + 100, 60);
        }
    }
    assert!(
        kept_adds > 0 && new_ground_adds > 0,
        "{kept_adds} adds of known ground, {new_ground_adds} of new ground"
    );
}

/// The nodes the exact mode expands on `pairs` far pairs of `map` (at least half the
/// map's width apart) on `snapshot`, with the landmark table and without; and the
/// number of pairs.
fn expanded(map: &Map, snapshot: &NavMesh, seed: u64, pairs: u32) -> (u64, u64, u32) {
    let options = PathOptions::default().with_mode(PathMode::Optimal);
    let mut rng = Rng(seed);
    let (mut on, mut off) = (Query::new(snapshot), Query::new(snapshot));
    on.set_landmarks(true);
    off.set_landmarks(false);
    let (mut with, mut without, mut far) = (0u64, 0u64, 0);
    while far < pairs {
        let (s, t) = (map.point(&mut rng), map.point(&mut rng));
        if (s.x - t.x).abs() < map.width as f32 / 2.0 {
            continue;
        }
        let a = on.find_path(s, t, &options).unwrap().length();
        with += on.last_search_stats().expanded;
        let b = off.find_path(s, t, &options).unwrap().length();
        without += off.last_search_stats().expanded;
        assert!(
            (a - b).abs() <= 1e-4 * b.max(1.0),
            "{s} -> {t}: {a} with, {b} without"
        );
        far += 1;
    }
    (with, without, far)
}

#[test]
fn a_tile_streamed_out_and_back_in_keeps_the_table_and_its_fewer_expansions() {
    let map = Map::random(0x77a1, 64, 48);
    let (world, tiles) = cut(&map, &[9, 21, 30, 44, 53], &[8, 19, 27, 38]);
    assert!(world.prepare_landmarks());
    let (built_with, built_without, _) = expanded(&map, &world.snapshot(), 5, 40);
    assert!(
        built_with < built_without,
        "{built_with} with, {built_without} without"
    );
    // Two tiles in the middle out and back in, the second from a mesh built again.
    for &i in &[tiles.len() / 2, tiles.len() / 2 + 1] {
        let (x0, z0, w, h, r) = tiles[i];
        world.remove_tile(r).unwrap();
        let again = world.add_tile(&map.mesh(x0, z0, w, h).unwrap()).unwrap();
        assert_eq!(again.slot(), r.slot());
        assert!(world.landmark_bytes() > 0);
        assert!(world.snapshot().landmark_bytes() > 0);
    }
    check(&map, &world.snapshot(), Some(&map.whole()), 2, 80);
    // Stitched as they were, the tiles have every row back: the same expansions.
    let (with, without, _) = expanded(&map, &world.snapshot(), 5, 40);
    assert_eq!((with, without), (built_with, built_without));
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
