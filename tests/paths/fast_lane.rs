//! The fast lane (`NavMesh::prepare_fast_lane`): the exact mode answered from the corner
//! index gives the visibility-graph oracle's length and the exact search's length, on
//! random meshes and on hand-made scenes; its paths lie on the mesh.

use glam::{DVec2, Vec3};
use navstar::{NavMesh, PathStatus, Query};
use proptest::prelude::*;

use crate::common::{
    Domain, Rng, Soup, check_path_on_mesh, ground_length, p, pillar_room_triangles, seeded_grid,
};
use crate::exact::{random_mesh, random_point};
use crate::optimal;

/// Checks one query on `mesh` (with a prepared index) against the exact search and the
/// oracle; returns whether the index answered it.
fn check(mesh: &NavMesh, domain: &Domain, s: Vec3, t: Vec3, context: &str) -> bool {
    let mut indexed = Query::new(mesh);
    let mut searched = Query::new(mesh);
    searched.set_fast_lane(false);
    let with = indexed
        .find_path(s, t, &optimal())
        .unwrap_or_else(|e| panic!("{context}: {e}"));
    let (status, corners) = (with.status, with.corners.to_vec());
    let used = indexed.fast_lane_corners_seen().is_some();
    let without = searched.find_path(s, t, &optimal()).unwrap();
    assert_eq!(status, without.status, "{context}");
    check_path_on_mesh(domain, &corners).unwrap_or_else(|e| panic!("{context}: {e}: {corners:?}"));
    let up = mesh.up_axis();
    let (length, searched_length) = (
        ground_length(up, &corners),
        ground_length(up, without.corners),
    );
    assert!(
        (length - searched_length).abs() <= 1e-5 * searched_length.max(1e-3),
        "{context}: indexed {length} {corners:?}, searched {searched_length} {:?}",
        without.corners
    );
    if status == PathStatus::Complete && !domain.pinched {
        let g = |p: Vec3| -> DVec2 { up.ground(p).as_dvec2() };
        let oracle = domain.shortest_length(g(corners[0]), g(corners[corners.len() - 1]));
        assert!(
            (length - oracle).abs() <= 1e-5 * oracle.max(1e-3),
            "{context}: indexed {length}, oracle {oracle}: {corners:?}"
        );
    }
    used
}

#[test]
fn equals_the_oracle_and_the_search_on_random_meshes() {
    let mut rng = Rng(0xfa57_u64);
    let mut used = 0;
    for m in 0..600 {
        let Some(mesh) = random_mesh(&mut rng) else {
            continue;
        };
        assert!(mesh.prepare_fast_lane(), "mesh {m}");
        let domain = Domain::new(&mesh);
        for q in 0..6 {
            let (s, t) = (random_point(&mesh, &mut rng), random_point(&mesh, &mut rng));
            let context = format!("mesh {m} query {q}: {s} -> {t}");
            used += usize::from(check(&mesh, &domain, s, t, &context));
        }
    }
    assert!(used > 500, "the index answered only {used} queries");
}

proptest! {
    #![proptest_config(crate::common::proptest_config(400))]

    /// Larger jittered grids with holes (up to 16 x 16 cells) than the loop above, so
    /// that paths bend at several corners.
    #[test]
    fn equals_the_oracle_and_the_search_on_larger_random_grids(
        seed in any::<u64>(),
        cols in 3usize..17,
        rows in 3usize..17,
        ends in proptest::collection::vec(any::<u64>(), 4),
    ) {
        let Ok(mesh) = seeded_grid(seed, cols, rows).try_build(&Default::default()) else {
            return Ok(());
        };
        prop_assert!(mesh.prepare_fast_lane());
        let domain = Domain::new(&mesh);
        for (q, pair) in ends.chunks(2).enumerate() {
            let (mut a, mut b) = (Rng(pair[0]), Rng(pair[1]));
            let (s, t) = (random_point(&mesh, &mut a), random_point(&mesh, &mut b));
            check(&mesh, &domain, s, t, &format!("seed {seed} {cols}x{rows} query {q}: {s} -> {t}"));
        }
    }
}

/// A U of unit cells round a 1 x 2 hole (ground x in 0..3, z in 0..3; the hole x in
/// 1..2, z in 1..3).
fn u_turn() -> NavMesh {
    Soup::from_ascii(&["...", ".#.", ".#."]).build()
}

/// The indexed path from `s` to `t` on `mesh` (prepared), checked against the search
/// and the oracle, and whether the index answered it.
fn indexed(mesh: &NavMesh, s: Vec3, t: Vec3) -> (Vec<Vec3>, bool) {
    assert!(mesh.prepare_fast_lane());
    let used = check(mesh, &Domain::new(mesh), s, t, &format!("{s} -> {t}"));
    let mut query = Query::new(mesh);
    let corners = query.find_path(s, t, &optimal()).unwrap().corners.to_vec();
    (corners, used)
}

#[test]
fn a_u_turn_bends_at_both_inner_corners() {
    let mesh = u_turn();
    let (s, t) = (p(0.5, 2.5), p(2.5, 2.5));
    let (corners, used) = indexed(&mesh, s, t);
    assert!(used);
    assert_eq!(corners, [s, p(1.0, 1.0), p(2.0, 1.0), t]);
    let stats = mesh.fast_lane_stats().unwrap();
    // The hole's two corners at z = 1; its others (z = 3) lie on the outer wall.
    assert_eq!(stats.corners, 2);
    assert_eq!(stats.edges, 1);
}

#[test]
fn ends_on_a_corner_bend_only_at_the_other() {
    let mesh = u_turn();
    let (corners, used) = indexed(&mesh, p(1.0, 1.0), p(2.5, 2.5));
    assert!(used);
    assert_eq!(corners, [p(1.0, 1.0), p(2.0, 1.0), p(2.5, 2.5)]);
    let (corners, used) = indexed(&mesh, p(0.5, 2.5), p(2.0, 1.0));
    assert!(used);
    assert_eq!(corners, [p(0.5, 2.5), p(1.0, 1.0), p(2.0, 1.0)]);
}

#[test]
fn a_pillar_is_passed_on_its_shorter_side() {
    let mesh = pillar_room_triangles().build();
    let (s, t) = (p(3.0, 1.0), p(3.5, 5.0));
    let (corners, used) = indexed(&mesh, s, t);
    assert!(used);
    assert_eq!(corners, [s, p(4.0, 2.0), p(4.0, 4.0), t]);
    assert_eq!(mesh.fast_lane_stats().unwrap().corners, 4);
}

#[test]
fn ends_in_one_polygon_or_in_sight_give_the_segment() {
    let mesh = u_turn();
    for (s, t) in [
        (p(0.2, 0.2), p(0.8, 0.7)),
        (p(0.5, 0.5), p(2.5, 0.5)),
        (p(0.5, 2.9), p(0.5, 0.1)),
    ] {
        let (corners, _) = indexed(&mesh, s, t);
        assert_eq!(corners, [s, t]);
    }
}

/// Open scenes where the queries' first bound (through the corners of the polygons
/// holding the two ends) is loose and the way bends round far ends: a long wall, a comb
/// of walls (U turns), a field of pillars. Every pair of points (cell centres, and
/// points by the cells' corners, so by the walls' ends) gets the oracle's length and
/// the search's: the bounds on the sweeps never cut the shortest way.
#[test]
fn the_bounds_on_the_sweeps_never_cut_the_shortest_way() {
    let scenes: [&[&str]; 3] = [
        &["............", ".##########.", "............"],
        &["...........", ".#.#.#.#.#.", ".#.#.#.#.#.", "..........."],
        &[
            ".........",
            ".#..#..#.",
            ".........",
            "..#..#..#",
            ".#.......",
        ],
    ];
    for rows in scenes {
        let mesh = Soup::from_ascii(rows).build();
        assert!(mesh.prepare_fast_lane());
        let domain = Domain::new(&mesh);
        let mut points = Vec::new();
        for (z, row) in rows.iter().enumerate() {
            for (x, cell) in row.bytes().enumerate() {
                if cell == b'.' {
                    let (x, z) = (x as f32, z as f32);
                    points.extend([p(x + 0.5, z + 0.5), p(x + 0.05, z + 0.95)]);
                }
            }
        }
        let mut used = 0;
        for &s in &points {
            for &t in &points {
                let context = format!("{rows:?}: {s} -> {t}");
                used += usize::from(check(&mesh, &domain, s, t, &context));
            }
        }
        assert!(
            used > points.len() * points.len() / 4,
            "{rows:?}: the index answered {used}"
        );
    }
}

#[test]
fn a_goal_on_another_island_gives_the_same_partial_path() {
    // Two rooms with a wall between them (x in 0..3 and 4..7), the left one a U.
    let mesh = Soup::from_ascii(&["...#...", ".#.#...", ".#.#..."]).build();
    assert!(mesh.prepare_fast_lane());
    let (s, t) = (p(0.5, 2.5), p(5.5, 2.5));
    let mut options = optimal();
    options.allow_partial = true;
    let mut with = Query::new(&mesh);
    let mut without = Query::new(&mesh);
    without.set_fast_lane(false);
    let a = with.find_path(s, t, &options).unwrap();
    let (status, corners) = (a.status, a.corners.to_vec());
    let b = without.find_path(s, t, &options).unwrap();
    assert_eq!(status, PathStatus::Partial);
    assert_eq!((status, corners.as_slice()), (b.status, b.corners));
}

#[test]
fn a_filter_that_refuses_a_polygon_searches_without_the_index() {
    let mesh = u_turn();
    assert!(mesh.prepare_fast_lane());
    let (s, t) = (p(0.5, 2.5), p(2.5, 2.5));
    // Close the bottom middle cell to flag 2: refused, no way round.
    let bottom_middle = (0..mesh.polygon_count())
        .find(|&q| {
            let c = mesh
                .polygon_vertices(q)
                .iter()
                .map(|&v| mesh.vertex(v))
                .sum::<Vec3>()
                / 4.0;
            (c - p(1.5, 0.5)).length() < 1e-4
        })
        .unwrap();
    mesh.set_polygon_flags(bottom_middle, 2).unwrap();
    let mut query = Query::new(&mesh);
    let mut refusing = optimal();
    refusing.filter.exclude_flags = 2;
    refusing.allow_partial = true;
    let path = query.find_path(s, t, &refusing).unwrap();
    assert_eq!(path.status, PathStatus::Partial);
    assert_eq!(query.fast_lane_corners_seen(), None);
    // A filter that admits every polygon, whatever the flags: the index answers.
    let path = query.find_path(s, t, &optimal()).unwrap();
    assert_eq!(path.corners, [s, p(1.0, 1.0), p(2.0, 1.0), t]);
    assert!(query.fast_lane_corners_seen().is_some());
}

/// Off-mesh links: no index. A world's snapshot (several tiles) gets one when asked
/// (`NavMesh::prepare_fast_lane` on it, or `World::prepare_fast_lane`), never on a query.
#[test]
fn meshes_with_off_mesh_links_get_no_index_and_snapshots_none_on_a_query() {
    use navstar::{MeshInput, MeshOptions, OffMeshLink, World, WorldOptions};
    let soup = Soup::from_ascii(&["...", ".#.", ".#."]);
    let link = OffMeshLink::new(p(0.5, 2.5), p(2.5, 2.5));
    let input = MeshInput::new(&soup.vertices, &soup.indices)
        .with_polygon_sizes(&soup.sizes)
        .with_links(std::slice::from_ref(&link));
    let linked = NavMesh::from_input(&input, &MeshOptions::default()).unwrap();
    assert!(!linked.prepare_fast_lane());
    assert_eq!(linked.fast_lane_stats(), None);
    let world = World::new(&WorldOptions::default()).unwrap();
    for tile in &u_turn().cut_into_tiles(2.0).unwrap().tiles {
        world.add_tile(&tile.mesh).unwrap();
    }
    let snapshot = world.snapshot();
    let mut query = Query::new(&snapshot);
    query
        .find_path(p(0.5, 2.5), p(2.5, 2.5), &optimal())
        .unwrap();
    assert_eq!(query.fast_lane_corners_seen(), None);
    assert_eq!(snapshot.fast_lane_stats(), None);
    assert!(snapshot.prepare_fast_lane());
    let path = query
        .find_path(p(0.5, 2.5), p(2.5, 2.5), &optimal())
        .unwrap();
    assert_eq!(
        path.corners,
        [p(0.5, 2.5), p(1.0, 1.0), p(2.0, 1.0), p(2.5, 2.5)]
    );
    assert!(query.fast_lane_corners_seen().is_some());
}

/// A goal on a wall 0.11 from the corner at the wall's end: the segment to the corner
/// runs along the wall, off its line only by `f32` rounding (once dropped as not taut,
/// making the index's path 16 % longer).
#[test]
fn an_end_on_a_wall_keeps_the_corner_at_its_end() {
    let mesh = seeded_grid(2851958586184941646, 6, 16).build();
    let (s, t) = (p(3.081643, 14.414744), p(3.948373, 8.0589));
    let (corners, used) = indexed(&mesh, s, t);
    assert!(used);
    assert_eq!(corners[corners.len() - 2], p(3.837809, 8.07438));
}

/// The time-sliced search begins as the one-shot query does: with the index, the answer
/// is known at `begin_path` (no slices) and is the one-shot path.
#[test]
fn a_sliced_search_is_answered_by_the_index_at_once() {
    use navstar::SliceStatus;
    let mesh = seeded_grid(7, 12, 12).build();
    assert!(mesh.prepare_fast_lane());
    let mut rng = Rng(0x511c);
    let mut answered = 0;
    for _ in 0..60 {
        let (s, t) = (random_point(&mesh, &mut rng), random_point(&mesh, &mut rng));
        let mut query = Query::new(&mesh);
        let one_shot = query.find_path_vec(s, t, &optimal()).unwrap();
        let by_index = query.fast_lane_corners_seen().is_some();
        let begun = query.begin_path(s, t, &optimal()).unwrap();
        if by_index {
            assert_eq!(begun, SliceStatus::Done, "{s} -> {t}");
            answered += 1;
        }
        while query.advance_path(64).unwrap().status != SliceStatus::Done {}
        let sliced = query.finish_path().unwrap().to_owned_path();
        assert_eq!(
            (sliced.status, &sliced.corners),
            (one_shot.status, &one_shot.corners),
            "{s} -> {t}"
        );
    }
    assert!(answered > 10, "only {answered} answered by the index");
}

/// The default: a query builds the index on first use on a mesh of at least
/// `FAST_LANE_MIN_POLYGONS` polygons and answers from it (the same length as the
/// search); a smaller mesh gets none unless prepared; a query with the fast lane off or
/// with a node limit searches.
#[test]
fn large_meshes_get_the_index_on_first_use() {
    let large = seeded_grid(21, 24, 24).build();
    let small = seeded_grid(22, 8, 8).build();
    assert!(large.polygon_count() >= navstar::FAST_LANE_MIN_POLYGONS);
    assert!(small.polygon_count() < navstar::FAST_LANE_MIN_POLYGONS);
    let (s, t) = (Vec3::new(0.5, 0.0, 0.5), Vec3::new(23.5, 0.0, 23.5));
    let (u, w) = (Vec3::new(0.5, 0.0, 0.5), Vec3::new(7.5, 0.0, 7.5));
    assert!(large.fast_lane_stats().is_none());
    let domain = Domain::new(&large);
    // `check` compares with a query whose fast lane is off (the search).
    assert!(check(&large, &domain, s, t, "large, default"));
    assert!(large.fast_lane_stats().is_some(), "built on first use");
    let mut limited = Query::new(&large).with_max_nodes(1_000_000);
    limited.find_path(s, t, &optimal()).unwrap();
    assert_eq!(
        limited.fast_lane_corners_seen(),
        None,
        "a node limit searches"
    );
    let mut query = Query::new(&small);
    query.find_path(u, w, &optimal()).unwrap();
    assert_eq!(query.fast_lane_corners_seen(), None);
    assert!(
        small.fast_lane_stats().is_none(),
        "no index on a small mesh"
    );
    assert!(small.prepare_fast_lane());
    let domain = Domain::new(&small);
    assert!(check(&small, &domain, u, w, "small, prepared"));
}

/// The Iron Harvest mesh and every 10th of its scenario problems (start and goal,
/// ground coordinates).
pub(super) fn iron_harvest_every_10th() -> (NavMesh, Vec<[f32; 4]>) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/mesh");
    let file = std::path::Path::new(dir).join("scene_mp_2p_01.mesh");
    let mesh = navstar::io::load_mesh_file(&file, &navstar::MeshOptions::default()).unwrap();
    let text = std::fs::read_to_string(file.with_extension("mesh.scen")).unwrap();
    let points: Vec<[f32; 4]> = text
        .lines()
        .skip(1)
        .step_by(10)
        .filter_map(|line| {
            let n: Vec<f32> = line
                .split_whitespace()
                .filter_map(|w| w.parse().ok())
                .collect();
            // bucket, width, height, start x y, goal x y, optimum (the map name is no number)
            (n.len() == 8).then(|| [n[3], n[4], n[5], n[6]])
        })
        .collect();
    assert!(points.len() >= 150, "{} problems read", points.len());
    (mesh, points)
}

/// With an agent radius the query searches the eroded copy, which gets its own index on
/// first use when it is large enough and within the default budget (Iron Harvest at
/// radius 0.5: a joined copy of some 3,500 polygons): every 10th scenario problem has
/// the same status and length as the search on the copy with the fast lane off, and
/// most are answered from the index.
#[test]
fn radius_queries_on_a_large_copy_equal_the_search() {
    let (mesh, points) = iron_harvest_every_10th();
    let options = optimal().with_agent_radius(0.5);
    let mut indexed = Query::new(&mesh);
    let mut searched = Query::new(&mesh);
    searched.set_fast_lane(false);
    let up = mesh.up_axis();
    let mut answered = 0;
    for (k, &[sx, sy, gx, gy]) in points.iter().enumerate() {
        let place = |x: f32, y: f32| up.place(glam::Vec2::new(x, y), 0.0);
        let (s, t) = (place(sx, sy), place(gx, gy));
        let with = indexed.find_path_vec(s, t, &options).unwrap();
        answered += usize::from(indexed.fast_lane_corners_seen().is_some());
        let without = searched.find_path_vec(s, t, &options).unwrap();
        assert_eq!(with.status, without.status, "problem {k}: {s} -> {t}");
        let (a, b) = (f64::from(with.length()), f64::from(without.length()));
        assert!(
            (a - b).abs() <= 1e-4 * b.max(1.0),
            "problem {k}: {s} -> {t}: {a} vs {b}"
        );
    }
    assert!(
        answered > points.len() / 3,
        "{answered} of {} answered from the copy's index",
        points.len()
    );
}
