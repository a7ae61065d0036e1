//! A world's fast lane (`World::prepare_fast_lane`): on meshes cut into tiles (several
//! sides, small ones with T-junction seams) the indexed exact-mode answer has the length
//! of the one-piece mesh's exact search and of the visibility-graph oracle; the index is
//! dropped by a tile change (answers stay right), kept by flag changes and by the
//! landmark build; and a snapshot has an index only with the geometry it was built for,
//! while other threads change tiles and prepare again.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use glam::{DVec2, Vec3};
use navstar::{NavMesh, PathStatus, Query, World, WorldOptions};
use proptest::prelude::*;

use super::exact::{random_mesh, random_point};
use super::fast_lane::iron_harvest_every_10th;
use super::optimal;
use crate::common::{Domain, Rng, ground_length, seeded_grid};

/// The world of `mesh` cut into tiles of side `side`, its index prepared.
fn world_of(mesh: &NavMesh, side: f32) -> World {
    let world = World::new(&WorldOptions::default().with_up_axis(mesh.up_axis())).unwrap();
    world.add_mesh_in_tiles(mesh, side).unwrap();
    assert!(world.prepare_fast_lane(), "side {side}");
    assert!(world.has_fast_lane());
    world
}

/// What one query checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Checked {
    /// The index answered, with the lengths of the search, the one-piece mesh and the
    /// oracle.
    Indexed,
    /// The search answered (the index did not), as on the one-piece mesh.
    Searched,
    /// The index's answer equals the search on the snapshot, but the world's ground
    /// differs from the one-piece mesh's there (the cutter drops slivers of degenerate
    /// cells): not compared with the one piece.
    CutDiffers,
}

/// Checks the exact path from `s` to `t` on `snapshot` (a world's, with its index)
/// against the search on the same snapshot, the one-piece `mesh`'s exact search and the
/// oracle `domain` of `mesh`.
fn check(
    snapshot: &NavMesh,
    mesh: &NavMesh,
    domain: &Domain,
    s: Vec3,
    t: Vec3,
    context: &str,
) -> Checked {
    let mut indexed = Query::new(snapshot);
    let with = indexed
        .find_path(s, t, &optimal())
        .map(|p| p.to_owned_path());
    let used = indexed.fast_lane_corners_seen().is_some();
    let mut searched = Query::new(snapshot);
    searched.set_fast_lane(false);
    let without = searched
        .find_path(s, t, &optimal())
        .map(|p| p.to_owned_path());
    let mut whole = Query::new(mesh);
    whole.set_fast_lane(false);
    let one_piece = whole.find_path(s, t, &optimal()).map(|p| p.to_owned_path());
    let up = mesh.up_axis();
    // To 1e-4, as every world test (issue 13's bound for tiled lengths): the cut puts
    // vertices a hair apart where walls cross tile borders, and a sight line grazing
    // them may pass for the sweep and not for the exact search (seen: 1.7e-5).
    let near = |a: f64, b: f64| (a - b).abs() <= 1e-4 * b.max(1e-3);
    let (with, without) = match (with, without) {
        (Ok(a), Ok(b)) => (a, b),
        (a, b) => {
            assert!(
                a.is_err() && b.is_err(),
                "{context}: {a:?} indexed, {b:?} searched"
            );
            return if one_piece.is_err() {
                Checked::Searched
            } else {
                Checked::CutDiffers
            };
        }
    };
    assert_eq!(with.status, without.status, "{context}");
    let length = ground_length(up, &with.corners);
    let searched_length = ground_length(up, &without.corners);
    assert!(
        near(length, searched_length),
        "{context}: indexed {length} {:?}, searched {searched_length} {:?}",
        with.corners,
        without.corners
    );
    let Ok(one_piece) = one_piece else {
        return Checked::CutDiffers;
    };
    let whole_length = ground_length(up, &one_piece.corners);
    if one_piece.status != without.status || !near(searched_length, whole_length) {
        return Checked::CutDiffers;
    }
    if with.status == PathStatus::Complete && !domain.pinched {
        // On the one-piece ground; inner corners are vertices of the world (a wall
        // cut at a tile border bends there by rounding, where the cut made a vertex).
        let g = |p: Vec3| -> DVec2 { up.ground(p).as_dvec2() };
        for w in with.corners.windows(2) {
            domain
                .check_segment(g(w[0]), g(w[1]))
                .unwrap_or_else(|e| panic!("{context}: {e}: {:?}", with.corners));
        }
        let vertices: Vec<Vec3> = snapshot
            .polygon_ids()
            .flat_map(|p| snapshot.polygon_vertices(p).to_vec())
            .map(|v| snapshot.vertex(v))
            .collect();
        for c in &with.corners[1..with.corners.len() - 1] {
            assert!(
                vertices.contains(c),
                "{context}: inner corner {c} is no vertex of the world: {:?}",
                with.corners
            );
        }
        let ends = (g(with.corners[0]), g(with.corners[with.corners.len() - 1]));
        let oracle = domain.shortest_length(ends.0, ends.1);
        assert!(
            near(length, oracle),
            "{context}: indexed {length}, oracle {oracle}: {:?}",
            with.corners
        );
    }
    if used {
        Checked::Indexed
    } else {
        Checked::Searched
    }
}

#[test]
fn equals_the_one_piece_mesh_and_the_oracle_on_cut_random_meshes() {
    let mut rng = Rng(0x7a11_u64);
    let (mut used, mut tiled, mut differs, mut queries) = (0, 0, 0, 0);
    for m in 0..300 {
        let Some(mesh) = random_mesh(&mut rng) else {
            continue;
        };
        let domain = Domain::new(&mesh);
        let side = [0.7, 1.3, 2.0, 3.1][rng.below(4) as usize];
        let world = world_of(&mesh, side);
        let snapshot = world.snapshot();
        tiled += usize::from(world.tile_count() > 1);
        for q in 0..5 {
            let (s, t) = (random_point(&mesh, &mut rng), random_point(&mesh, &mut rng));
            let context = format!("mesh {m} side {side} query {q}: {s} -> {t}");
            match check(&snapshot, &mesh, &domain, s, t, &context) {
                Checked::Indexed => used += 1,
                Checked::Searched => {}
                Checked::CutDiffers => differs += 1,
            }
            queries += 1;
        }
    }
    assert!(tiled > 200, "only {tiled} meshes in several tiles");
    assert!(
        differs * 50 < queries,
        "the cut world differs on {differs} of {queries} queries"
    );
    assert!(
        used > 200,
        "the index answered only {used} of {queries} queries ({differs} differ)"
    );
}

proptest! {
    #![proptest_config(crate::common::proptest_config(120))]

    /// Larger jittered grids with holes, cut at several sides (merged inside each tile,
    /// so that neighbouring tiles' borders meet in T-junctions).
    #[test]
    fn equals_the_one_piece_mesh_and_the_oracle_on_larger_cut_grids(
        seed in any::<u64>(),
        cols in 4usize..15,
        rows in 4usize..15,
        side in prop::sample::select(vec![1.0f32, 1.5, 2.5, 4.0, 6.0]),
        ends in proptest::collection::vec(any::<u64>(), 6),
    ) {
        let Ok(mesh) = seeded_grid(seed, cols, rows).try_build(&Default::default()) else {
            return Ok(());
        };
        let domain = Domain::new(&mesh);
        let world = world_of(&mesh, side);
        let snapshot = world.snapshot();
        for (q, pair) in ends.chunks(2).enumerate() {
            let (mut a, mut b) = (Rng(pair[0]), Rng(pair[1]));
            let (s, t) = (random_point(&mesh, &mut a), random_point(&mesh, &mut b));
            let context = format!("seed {seed} {cols}x{rows} side {side} query {q}: {s} -> {t}");
            // Jittered grids without degenerate cells: the cut keeps the ground.
            let checked = check(&snapshot, &mesh, &domain, s, t, &context);
            prop_assert_ne!(checked, Checked::CutDiffers, "{}", context);
        }
    }
}

/// Every 10th Iron Harvest scenario on the map cut at sides 32 and 64 with the index:
/// the status of the one-piece mesh's exact search and its length to 1e-4, most
/// answered from the index.
#[test]
fn iron_harvest_cut_into_tiles_answers_as_one_piece() {
    let (mesh, points) = iron_harvest_every_10th();
    let up = mesh.up_axis();
    let place = |x: f32, y: f32| up.place(glam::Vec2::new(x, y), 0.0);
    let mut whole = Query::new(&mesh);
    whole.set_fast_lane(false);
    let expected: Vec<_> = points
        .iter()
        .map(|&[sx, sy, gx, gy]| {
            let path = whole
                .find_path(place(sx, sy), place(gx, gy), &optimal())
                .unwrap();
            (path.status, f64::from(path.length()))
        })
        .collect();
    for side in [32.0, 64.0] {
        let world = world_of(&mesh, side);
        assert!(world.tile_count() > 4, "side {side}");
        let snapshot = world.snapshot();
        let mut indexed = Query::new(&snapshot);
        let mut answered = 0;
        for (k, &[sx, sy, gx, gy]) in points.iter().enumerate() {
            let (s, t) = (place(sx, sy), place(gx, gy));
            let path = indexed.find_path(s, t, &optimal()).unwrap();
            let (got_status, got) = (path.status, f64::from(path.length()));
            answered += usize::from(indexed.fast_lane_corners_seen().is_some());
            let (status, length) = expected[k];
            assert_eq!(got_status, status, "side {side} problem {k}: {s} -> {t}");
            assert!(
                (got - length).abs() <= 1e-4 * length.max(1.0),
                "side {side} problem {k}: {s} -> {t}: {got} vs {length}"
            );
        }
        assert!(
            answered > points.len() * 2 / 3,
            "side {side}: {answered} of {} answered from the index",
            points.len()
        );
    }
}

/// The snapshot has the world's index, its queries answer from it, and they equal the
/// search on the same snapshot.
fn answers_from_the_index(snapshot: &NavMesh, mesh: &NavMesh, domain: &Domain, seed: u64) -> usize {
    assert!(snapshot.fast_lane_stats().is_some());
    let mut rng = Rng(seed);
    (0..20)
        .map(|q| {
            let (s, t) = (random_point(mesh, &mut rng), random_point(mesh, &mut rng));
            let checked = check(
                snapshot,
                mesh,
                domain,
                s,
                t,
                &format!("query {q}: {s} -> {t}"),
            );
            assert_ne!(checked, Checked::CutDiffers);
            usize::from(checked == Checked::Indexed)
        })
        .sum()
}

#[test]
fn a_tile_change_drops_the_index_and_flags_and_landmarks_keep_it() {
    let mesh = seeded_grid(0x5eed, 26, 26).build();
    let domain = Domain::new(&mesh);
    let world = World::new(&WorldOptions::default()).unwrap();
    let tiles = world.add_mesh_in_tiles(&mesh, 5.0).unwrap();
    // A world never builds the index on a query, even on a snapshot large enough for a
    // mesh to build it on first use.
    assert!(world.snapshot().polygon_count() >= navstar::FAST_LANE_MIN_POLYGONS);
    let mut query = Query::new(&world.snapshot());
    let mut rng = Rng(2);
    for _ in 0..20 {
        let (s, t) = (random_point(&mesh, &mut rng), random_point(&mesh, &mut rng));
        let _ = query.find_path(s, t, &optimal());
        assert_eq!(query.fast_lane_corners_seen(), None);
    }
    assert!(world.snapshot().fast_lane_stats().is_none());
    assert!(world.prepare_fast_lane());
    let before = world.snapshot();
    let stats = before.fast_lane_stats().unwrap();
    assert!(stats.corners > 10, "{stats:?}");
    assert!(answers_from_the_index(&before, &mesh, &domain, 1) > 5);

    // Flags are no geometry: the snapshot keeps it; a filter refusing a polygon searches.
    let polygon = before.polygon_ids().nth(7).unwrap();
    before.set_polygon_flags(polygon, 2).unwrap();
    assert!(world.has_fast_lane());
    let mut refusing = optimal();
    refusing.filter.exclude_flags = 2;
    refusing.allow_partial = true;
    let mut rng = Rng(3);
    let mut query = Query::new(&before);
    let mut off = Query::new(&before);
    off.set_fast_lane(false);
    for _ in 0..20 {
        let (s, t) = (random_point(&mesh, &mut rng), random_point(&mesh, &mut rng));
        let a = query.find_path(s, t, &refusing).map(|p| p.to_owned_path());
        assert_eq!(query.fast_lane_corners_seen(), None, "{s} -> {t}");
        let b = off.find_path(s, t, &refusing).map(|p| p.to_owned_path());
        match (a, b) {
            (Ok(a), Ok(b)) => assert_eq!((a.status, a.corners), (b.status, b.corners)),
            (a, b) => assert_eq!(a.is_ok(), b.is_ok()),
        }
    }
    before.set_polygon_flags(polygon, 1).unwrap();

    // The landmark build publishes a snapshot of the same geometry: it keeps the index.
    assert!(world.prepare_landmarks());
    let with_tables = world.snapshot();
    assert!(with_tables.landmark_bytes() > 0 && before.landmark_bytes() == 0);
    assert_eq!(with_tables.fast_lane_stats(), Some(stats));

    // A tile removed: dropped; queries search, and answer as the changed world.
    world.remove_tile(tiles[tiles.len() / 2]).unwrap();
    assert!(!world.has_fast_lane());
    let removed = world.snapshot();
    assert!(removed.fast_lane_stats().is_none());
    let mut rng = Rng(4);
    let mut query = Query::new(&removed);
    for _ in 0..20 {
        let (s, t) = (random_point(&mesh, &mut rng), random_point(&mesh, &mut rng));
        let _ = query.find_path(s, t, &optimal());
        assert_eq!(query.fast_lane_corners_seen(), None);
    }
    // Snapshots taken before keep theirs.
    assert_eq!(before.fast_lane_stats(), Some(stats));
    // Prepared again on the changed world, then the tile back: dropped again; prepared
    // on the whole world again, the same index as before.
    assert!(world.prepare_fast_lane());
    assert!(world.snapshot().fast_lane_stats().unwrap().corners != stats.corners);
    let cut = mesh.cut_into_tiles(5.0).unwrap();
    world.add_tile(&cut.tiles[tiles.len() / 2].mesh).unwrap();
    assert_eq!(world.tile_count() as usize, tiles.len());
    assert!(!world.has_fast_lane());
    assert!(world.prepare_fast_lane());
    let again = world.snapshot();
    assert_eq!(
        again.fast_lane_stats().map(|s| s.corners),
        Some(stats.corners)
    );
    assert!(answers_from_the_index(&again, &mesh, &domain, 5) > 5);
}

/// Readers take snapshots and query them while a writer takes a tile out, prepares,
/// puts it back, prepares, and so on: a snapshot with an index has the index of its own
/// geometry (its corner count is that geometry's, and its answers equal the search on
/// the same snapshot), never one built for the other.
#[test]
fn a_snapshot_has_an_index_only_for_its_own_geometry() {
    let mesh = seeded_grid(0xab, 12, 12).build();
    let cut = mesh.cut_into_tiles(2.5).unwrap();
    let out = cut.tiles.len() / 2;
    // The corner counts of the two geometries, from worlds of their own.
    let whole = World::new(&WorldOptions::default()).unwrap();
    whole.add_tiles(&cut).unwrap();
    assert!(whole.prepare_fast_lane());
    let whole_corners = whole.snapshot().fast_lane_stats().unwrap().corners;
    let whole_polygons = whole.snapshot().polygon_count();
    let world = World::new(&WorldOptions::default()).unwrap();
    for (i, tile) in cut.tiles.iter().enumerate() {
        if i != out {
            world.add_tile(&tile.mesh).unwrap();
        }
    }
    assert!(world.prepare_fast_lane());
    let part_corners = world.snapshot().fast_lane_stats().unwrap().corners;
    assert_ne!(whole_corners, part_corners);
    let done = AtomicBool::new(false);
    let (indexed, answered) = (AtomicUsize::new(0), AtomicUsize::new(0));
    std::thread::scope(|scope| {
        for r in 0..2u64 {
            let (world, done, mesh) = (&world, &done, &mesh);
            let (indexed, answered) = (&indexed, &answered);
            scope.spawn(move || {
                let mut rng = Rng(r + 100);
                while !done.load(Ordering::Acquire) {
                    let snapshot = world.snapshot();
                    let Some(stats) = snapshot.fast_lane_stats() else {
                        continue;
                    };
                    indexed.fetch_add(1, Ordering::Relaxed);
                    let expected = if snapshot.polygon_count() == whole_polygons {
                        whole_corners
                    } else {
                        part_corners
                    };
                    assert_eq!(stats.corners, expected);
                    let mut on = Query::new(&snapshot);
                    let mut off = Query::new(&snapshot);
                    off.set_fast_lane(false);
                    for _ in 0..4 {
                        let (s, t) = (random_point(mesh, &mut rng), random_point(mesh, &mut rng));
                        let a = on
                            .find_path(s, t, &optimal())
                            .map(|p| (p.status, p.length()));
                        answered.fetch_add(
                            usize::from(on.fast_lane_corners_seen().is_some()),
                            Ordering::Relaxed,
                        );
                        let b = off
                            .find_path(s, t, &optimal())
                            .map(|p| (p.status, p.length()));
                        match (a, b) {
                            (Ok((sa, la)), Ok((sb, lb))) => {
                                assert_eq!(sa, sb, "{s} -> {t}");
                                assert!(
                                    (la - lb).abs() <= 1e-4 * lb.max(1.0),
                                    "{s} -> {t}: {la} vs {lb}"
                                );
                            }
                            (a, b) => assert_eq!(a.is_ok(), b.is_ok(), "{s} -> {t}"),
                        }
                    }
                }
            });
        }
        let mut present = None;
        for _ in 0..24 {
            match present.take() {
                None => present = Some(world.add_tile(&cut.tiles[out].mesh).unwrap()),
                Some(tile) => world.remove_tile(tile).unwrap(),
            }
            assert!(world.prepare_fast_lane());
            // Let the readers query this geometry's index for a while.
            let seen = indexed.load(Ordering::Relaxed);
            let begun = std::time::Instant::now();
            while indexed.load(Ordering::Relaxed) < seen + 3 && begun.elapsed().as_secs() < 5 {
                std::thread::yield_now();
            }
        }
        done.store(true, Ordering::Release);
    });
    assert!(
        indexed.load(Ordering::Relaxed) > 48,
        "few snapshots with an index"
    );
    assert!(
        answered.load(Ordering::Relaxed) > 10,
        "few answers from an index"
    );
}

/// An empty world, a world with an off-mesh link between its tiles, and a world of one
/// tile: no panic; the link refuses the index (links may be shorter than the ground);
/// one tile gets it.
#[test]
fn empty_linked_and_one_tile_worlds() {
    use navstar::OffMeshLink;
    let empty = World::new(&WorldOptions::default()).unwrap();
    let _ = empty.prepare_fast_lane();
    let mut query = Query::new(&empty.snapshot());
    assert!(query.find_path(Vec3::ZERO, Vec3::X, &optimal()).is_err());

    let mesh = seeded_grid(0x11, 8, 8).build();
    let cut = mesh.cut_into_tiles(4.0).unwrap();
    let linked = World::new(&WorldOptions::default()).unwrap();
    let jump = OffMeshLink::new(Vec3::new(0.5, 0.0, 0.5), Vec3::new(7.5, 0.0, 7.5));
    linked
        .add_tile_with_links(&cut.tiles[0].mesh, std::slice::from_ref(&jump))
        .unwrap();
    for tile in &cut.tiles[1..] {
        linked.add_tile(&tile.mesh).unwrap();
    }
    assert!(linked.snapshot().link_count() > 0);
    assert!(!linked.prepare_fast_lane());
    assert!(!linked.has_fast_lane());

    let one = World::new(&WorldOptions::default()).unwrap();
    one.add_tile(&mesh).unwrap();
    assert!(one.prepare_fast_lane());
    let domain = Domain::new(&mesh);
    assert!(answers_from_the_index(&one.snapshot(), &mesh, &domain, 9) > 3);
}

/// Found by the proptest above (seed 11619380777788049135): at a corner the cut left in
/// pieces (walls of 8.6e-5 and 9.7e-4, the corner's copies in the two tiles 8.6e-5
/// apart), the index pruned the corner the shortest path bends round by the direction
/// of those pieces and answered 6.204 where the search finds 5.430. Now such a corner
/// is kept unpruned; the index bends at another copy of the cut corner than the search
/// does, so the lengths agree to the world's seam tolerance (0.001), not to 1e-4.
#[test]
fn a_corner_cut_into_tiny_wall_pieces_is_kept() {
    let mesh = seeded_grid(14_682_259_059_306_286_836, 13, 7)
        .try_build(&Default::default())
        .unwrap();
    let world = world_of(&mesh, 1.0);
    let snapshot = world.snapshot();
    let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    let (s, t) = (v(8.052_489, 2.289_760_6), v(12.613_305, 4.367_719_7));
    let mut indexed = Query::new(&snapshot);
    let mut searched = Query::new(&snapshot);
    searched.set_fast_lane(false);
    let up = mesh.up_axis();
    let with = indexed.find_path(s, t, &optimal()).unwrap().to_owned_path();
    assert_eq!(
        indexed.last_search_stats().expanded,
        0,
        "the index answered"
    );
    let without = searched
        .find_path(s, t, &optimal())
        .unwrap()
        .to_owned_path();
    assert_eq!(with.status, PathStatus::Complete);
    assert_eq!(without.status, PathStatus::Complete);
    let (a, b) = (
        ground_length(up, &with.corners),
        ground_length(up, &without.corners),
    );
    assert!((a - b).abs() <= 1e-3, "indexed {a}, searched {b}");
}
