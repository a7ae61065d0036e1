//! Queries beyond the plain path, through the Rust API: area costs, run-time flags, off-mesh links,
//! search strategies, path details, the nearest of several goals, and the bounded
//! flood. Known answers on hand-made meshes, and properties on random meshes.

/// Every segment on the mesh (with area costs, corners may lie on portals, not only at
/// vertices: the cheapest path bends where costs change).
fn check_segments_on_mesh(domain: &Domain, corners: &[Vec3]) -> Result<(), String> {
    assert!(corners.len() >= 2);
    for w in corners.windows(2) {
        domain.check_segment(domain.g(w[0]), domain.g(w[1]))?;
    }
    Ok(())
}
use glam::Vec3;
use navstar::{
    CornerFlags, MeshInput, MeshOptions, NavMesh, OffMeshLink, PathOptions, PathStatus, Query,
    QueryError, QueryFilter, SearchStrategy,
};

use crate::common::{Domain, Rng, Soup, check_path_on_mesh, p, point_in_polygon, seeded_grid};

/// A 3 x 3 floor of unit squares (x and z in 0..3), polygons numbered row by row; the
/// centre square is polygon 4.
fn three_by_three() -> Soup {
    Soup::from_ascii(&["...", "...", "..."])
}

fn mesh_with_areas(soup: &Soup, areas: &[u8]) -> NavMesh {
    let input = MeshInput::new(&soup.vertices, &soup.indices)
        .with_polygon_sizes(&soup.sizes)
        .with_areas(areas);
    NavMesh::from_input(&input, &MeshOptions::default()).unwrap()
}

fn close(a: f32, b: f32) -> bool {
    (a - b).abs() <= 1e-4 * (1.0 + a.abs().max(b.abs()))
}

fn options_with(filter: QueryFilter) -> PathOptions {
    let mut options = PathOptions::default();
    options.filter = filter;
    options
}

#[test]
fn expensive_centre_is_walked_around() {
    let mut areas = [0u8; 9];
    areas[4] = 1; // mud
    let mesh = mesh_with_areas(&three_by_three(), &areas);
    let mut query = Query::new(&mesh);
    let (start, goal) = (p(0.2, 1.5), p(2.8, 1.5));

    // Mud costing 1.05 is still worth crossing: 0.8 + 1.05 + 0.8.
    let options = options_with(QueryFilter::default().with_area_cost(1, 1.05));
    let path = query.find_path(start, goal, &options).unwrap();
    assert_eq!(path.corners, &[start, goal]);
    assert!(close(path.cost, 2.65), "cost {}", path.cost);

    // At 10 it is not: around the centre square along its edge, cost = length.
    let options = options_with(QueryFilter::default().with_area_cost(1, 10.0));
    let path = query.find_path(start, goal, &options).unwrap();
    assert_eq!(path.corners.len(), 4, "{:?}", path.corners);
    let around = 2.0 * (0.8f32 * 0.8 + 0.5 * 0.5).sqrt() + 1.0;
    assert!(close(path.cost, around), "cost {} want {around}", path.cost);
    assert!(close(path.length(), around));
    let corners = path.corners.to_vec();
    let side = corners[1].z;
    assert!(side == 1.0 || side == 2.0);
    assert_eq!(corners[1], p(1.0, side));
    assert_eq!(corners[2], p(2.0, side));
}

#[test]
fn cheap_road_attracts_the_path() {
    // The bottom row (z in 0..1) is a road costing 0.2.
    let areas = [2u8, 2, 2, 0, 0, 0, 0, 0, 0];
    let mesh = mesh_with_areas(&three_by_three(), &areas);
    let mut query = Query::new(&mesh);
    let (start, goal) = (p(0.5, 1.5), p(2.5, 1.5));
    let options = options_with(QueryFilter::default().with_area_cost(2, 0.2));
    let path = query.find_path(start, goal, &options).unwrap();
    // Straight costs 2. Cheapest: down to the road's edge, along it, and up again,
    // meeting the edge where the sine of the angle from its normal is 0.2 (Snell's law
    // with costs 1 and 0.2): 0.5 * tan(asin(0.2)) = 0.5 * 0.2 / sqrt(0.96) from x = 0.5.
    let run = 0.5 * 0.2 / 0.96f32.sqrt();
    let slant = (run * run + 0.25).sqrt();
    let expected = 2.0 * slant + 0.2 * (2.0 - 2.0 * run);
    assert_eq!(path.corners.len(), 4, "{:?}", path.corners);
    assert!(
        path.corners[1].distance(p(0.5 + run, 1.0)) < 1e-4,
        "{:?}",
        path.corners
    );
    assert!(
        path.corners[2].distance(p(2.5 - run, 1.0)) < 1e-4,
        "{:?}",
        path.corners
    );
    assert!(
        close(path.cost, expected),
        "cost {} want {expected}",
        path.cost
    );
    // Dijkstra agrees.
    let mut dijkstra = options.clone();
    dijkstra.strategy = SearchStrategy::Dijkstra;
    let other = query.find_path(start, goal, &dijkstra).unwrap();
    assert!(close(other.cost, expected));
}

#[test]
fn area_changes_become_corners_on_request() {
    let mut areas = [0u8; 9];
    areas[4] = 3;
    let mesh = mesh_with_areas(&three_by_three(), &areas);
    let mut query = Query::new(&mesh);
    let (start, goal) = (p(0.2, 1.5), p(2.8, 1.2));
    let plain = query
        .find_path(start, goal, &PathOptions::default())
        .unwrap()
        .corners
        .to_vec();
    assert_eq!(plain, vec![start, goal]);
    let mut options = PathOptions::default();
    options.split_at_area_changes = true;
    let path = query.find_path(start, goal, &options).unwrap();
    assert_eq!(path.corners.len(), 4, "{:?}", path.corners);
    let flags: Vec<CornerFlags> = path.details.iter().map(|d| d.flags).collect();
    assert_eq!(flags[0], CornerFlags::START);
    assert_eq!(flags[1], CornerFlags::AREA_CHANGE);
    assert_eq!(flags[2], CornerFlags::AREA_CHANGE);
    assert_eq!(flags[3], CornerFlags::END);
    // Where the straight line crosses x = 1 and x = 2, in the areas it enters.
    let at = |x: f32| start.lerp(goal, (x - start.x) / (goal.x - start.x));
    assert!(path.corners[1].distance(at(1.0)) < 1e-5);
    assert!(path.corners[2].distance(at(2.0)) < 1e-5);
    assert_eq!(path.details[1].area, 3);
    assert_eq!(path.details[2].area, 0);
    assert!(close(path.length(), start.distance(goal)));
}

#[test]
fn closed_door_is_avoided_and_reopened() {
    let mesh = three_by_three().build();
    let mut query = Query::new(&mesh);
    let (start, goal) = (p(0.2, 1.5), p(2.8, 1.5));
    let options = PathOptions::default();
    assert_eq!(
        query
            .find_path(start, goal, &options)
            .unwrap()
            .corners
            .len(),
        2
    );
    assert_eq!(mesh.set_polygon_flags(4, 0), Ok(1));
    let path = query.find_path(start, goal, &options).unwrap();
    assert_eq!(path.corners.len(), 4);
    assert!(!query.corridor().any(|polygon| polygon == 4));
    // A goal inside the closed polygon snaps out of it, to the middle of one of its sides.
    let path = query.find_path(start, p(1.5, 1.5), &options).unwrap();
    let end = *path.corners.last().unwrap();
    let sides = [p(1.5, 1.0), p(1.5, 2.0), p(1.0, 1.5), p(2.0, 1.5)];
    assert!(sides.iter().any(|s| s.distance(end) < 1e-6), "{end}");
    mesh.set_polygon_flags(4, 1).unwrap();
    assert_eq!(
        query
            .find_path(start, goal, &options)
            .unwrap()
            .corners
            .len(),
        2
    );
    assert_eq!(
        mesh.set_polygon_flags(9, 0),
        Err(QueryError::IndexOutOfRange {
            what: "polygon",
            index: 9,
            count: 9
        })
    );
}

#[test]
fn include_and_exclude_masks_choose_polygons() {
    // Polygon flags: 1 walkable everywhere, the centre also 2 ("water").
    let soup = three_by_three();
    let mut flags = [1u32; 9];
    flags[4] = 1 | 2;
    let input = MeshInput::new(&soup.vertices, &soup.indices)
        .with_polygon_sizes(&soup.sizes)
        .with_flags(&flags);
    let mesh = NavMesh::from_input(&input, &MeshOptions::default()).unwrap();
    let mut query = Query::new(&mesh);
    let (start, goal) = (p(0.2, 1.5), p(2.8, 1.5));
    let filter = QueryFilter::default().with_exclude_flags(2);
    let path = query.find_path(start, goal, &options_with(filter)).unwrap();
    assert_eq!(path.corners.len(), 4);
    let filter = QueryFilter::default().with_include_flags(2);
    // Only the centre is usable: both points snap onto it.
    let path = query.find_path(start, goal, &options_with(filter)).unwrap();
    assert_eq!(path.corners, &[p(1.0, 1.5), p(2.0, 1.5)]);
}

#[test]
fn blocking_everything_between_gives_a_partial_path() {
    let mesh = Soup::from_ascii(&["....."]).build();
    mesh.set_polygon_flags(2, 0).unwrap();
    let mut query = Query::new(&mesh);
    let path = query
        .find_path(p(0.5, 0.5), p(4.5, 0.5), &PathOptions::default())
        .unwrap();
    assert_eq!(path.status, PathStatus::Partial);
    assert_eq!(*path.corners.last().unwrap(), p(2.0, 0.5));
    let mut options = PathOptions::default();
    options.allow_partial = false;
    assert_eq!(
        query
            .find_path(p(0.5, 0.5), p(4.5, 0.5), &options)
            .unwrap_err(),
        QueryError::NoPath
    );
}

#[test]
fn flags_flip_under_contention_and_every_answer_is_one_of_the_two() {
    let mesh = three_by_three().build();
    let (start, goal) = (p(0.2, 1.5), p(2.8, 1.5));
    let open_len = start.distance(goal);
    let closed_len = 2.0 * (0.8f32 * 0.8 + 0.5 * 0.5).sqrt() + 1.0;
    let stop = std::sync::atomic::AtomicBool::new(false);
    let (mut open_seen, mut closed_seen) = (0, 0);
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..3)
            .map(|_| {
                let mesh = mesh.clone();
                let stop = &stop;
                scope.spawn(move || {
                    let mut query = Query::new(&mesh);
                    let domain = Domain::new(&mesh);
                    let (mut open, mut closed, mut rounds) = (0, 0, 0);
                    while !stop.load(std::sync::atomic::Ordering::Relaxed) || rounds < 100 {
                        rounds += 1;
                        let path = query
                            .find_path(start, goal, &PathOptions::default())
                            .unwrap();
                        assert_eq!(path.status, PathStatus::Complete);
                        check_path_on_mesh(&domain, path.corners).unwrap();
                        // A query that runs while the door flips may read it open at
                        // one step and shut at another: its path is still on the mesh,
                        // and never longer than the way round nor shorter than straight.
                        let length = path.length();
                        assert!(length >= open_len - 1e-4 && length <= closed_len + 1e-4);
                        if close(length, open_len) {
                            open += 1;
                        } else if close(length, closed_len) {
                            closed += 1;
                        }
                    }
                    (open, closed)
                })
            })
            .collect();
        // Flip the door for a second, holding each state for about a millisecond.
        let began = std::time::Instant::now();
        let mut i = 0u32;
        while began.elapsed() < std::time::Duration::from_secs(1) {
            mesh.set_polygon_flags(4, i % 2).unwrap();
            i += 1;
            let held = std::time::Instant::now();
            while held.elapsed() < std::time::Duration::from_millis(1) {
                std::thread::yield_now();
            }
        }
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        for worker in workers {
            let (open, closed) = worker.join().unwrap();
            open_seen += open;
            closed_seen += closed;
        }
    });
    assert!(open_seen + closed_seen >= 300);
    assert!(
        open_seen > 0 && closed_seen > 0,
        "{open_seen} open, {closed_seen} closed"
    );
}

/// Two unit squares 2 apart (x in 0..1 and 3..4), joined only by `link`.
fn islands_with(link: OffMeshLink) -> NavMesh {
    let soup = Soup::from_ascii(&[".  ."]);
    let links = [link];
    let input = MeshInput::new(&soup.vertices, &soup.indices)
        .with_polygon_sizes(&soup.sizes)
        .with_links(&links);
    NavMesh::from_input(&input, &MeshOptions::default()).unwrap()
}

#[test]
fn a_link_joins_two_islands_and_is_flagged_in_the_path() {
    let mesh = islands_with(OffMeshLink::new(p(0.9, 0.5), p(3.1, 0.5)));
    assert_eq!(mesh.island_count(), 1);
    assert_eq!(mesh.link_count(), 1);
    let mut query = Query::new(&mesh);
    let (start, goal) = (p(0.1, 0.5), p(3.9, 0.5));
    let path = query
        .find_path(start, goal, &PathOptions::default())
        .unwrap();
    assert_eq!(path.status, PathStatus::Complete);
    assert_eq!(path.corners, &[start, p(0.9, 0.5), p(3.1, 0.5), goal]);
    let flags: Vec<CornerFlags> = path.details.iter().map(|d| d.flags).collect();
    assert_eq!(
        flags,
        [
            CornerFlags::START,
            CornerFlags::LINK_START,
            CornerFlags::LINK_END,
            CornerFlags::END
        ]
    );
    assert_eq!(path.details[0].link, None);
    assert_eq!(path.details[1].link, Some(0));
    assert_eq!(path.details[2].link, Some(0));
    assert!(close(path.cost, 0.8 + 2.2 + 0.8), "cost {}", path.cost);
    assert_eq!(query.corridor().collect::<Vec<_>>(), vec![0, 1]);
    // Two-way by default.
    let back = query
        .find_path(goal, start, &PathOptions::default())
        .unwrap();
    assert_eq!(back.corners, &[goal, p(3.1, 0.5), p(0.9, 0.5), start]);
    // Disabled at run time: the far side is out of reach.
    mesh.set_link_flags(0, 0).unwrap();
    let path = query
        .find_path(start, goal, &PathOptions::default())
        .unwrap();
    assert_eq!(path.status, PathStatus::Partial);
}

#[test]
fn one_way_links_and_link_costs() {
    let mut link = OffMeshLink::new(p(0.9, 0.5), p(3.1, 0.5));
    link.bidirectional = false;
    link.area = 5;
    link.cost = 1.0;
    let mesh = islands_with(link);
    let mut query = Query::new(&mesh);
    let (start, goal) = (p(0.1, 0.5), p(3.9, 0.5));
    let options = options_with(QueryFilter::default().with_area_cost(5, 3.0));
    let path = query.find_path(start, goal, &options).unwrap();
    assert!(close(path.cost, 0.8 + 3.0 + 0.8), "cost {}", path.cost);
    assert_eq!(path.details[1].area, 5);
    let back = query.find_path(goal, start, &options).unwrap();
    assert_eq!(back.status, PathStatus::Partial);
    assert!(back.corners.iter().all(|c| c.x >= 3.0));
}

#[test]
fn a_cheap_teleporter_beats_walking_in_sight() {
    // A long open strip; a free teleporter near both ends.
    let soup = Soup::from_ascii(&[".........."]);
    let mut link = OffMeshLink::new(p(0.5, 0.5), p(9.5, 0.5));
    link.cost = 0.0;
    let links = [link];
    let input = MeshInput::new(&soup.vertices, &soup.indices)
        .with_polygon_sizes(&soup.sizes)
        .with_links(&links);
    let mesh = NavMesh::from_input(&input, &MeshOptions::default()).unwrap();
    let mut query = Query::new(&mesh);
    let path = query
        .find_path(p(0.2, 0.5), p(9.8, 0.5), &PathOptions::default())
        .unwrap();
    assert_eq!(path.corners.len(), 4, "{:?}", path.corners);
    assert!(close(path.cost, 0.6), "cost {}", path.cost);
    // Nearby points still walk straight: the link cannot help.
    let path = query
        .find_path(p(3.0, 0.5), p(5.0, 0.5), &PathOptions::default())
        .unwrap();
    assert_eq!(path.corners.len(), 2);
}

#[test]
fn a_costly_link_loses_to_the_way_round() {
    // A U: the link crosses the gap between the arms.
    let soup = Soup::from_ascii(&[".#.", ".#.", "..."]);
    let make = |cost: f32| {
        let mut link = OffMeshLink::new(p(0.9, 0.5), p(2.1, 0.5));
        link.cost = cost;
        let links = [link];
        let input = MeshInput::new(&soup.vertices, &soup.indices)
            .with_polygon_sizes(&soup.sizes)
            .with_links(&links);
        NavMesh::from_input(&input, &MeshOptions::default()).unwrap()
    };
    let (start, goal) = (p(0.5, 0.5), p(2.5, 0.5));
    let cheap = make(1.2);
    let path = Query::new(&cheap)
        .find_path(start, goal, &PathOptions::default())
        .map(|p| p.details[1].flags)
        .unwrap();
    assert_eq!(path, CornerFlags::LINK_START);
    let dear = make(50.0);
    let mut query = Query::new(&dear);
    let path = query
        .find_path(start, goal, &PathOptions::default())
        .unwrap();
    assert!(path.details.iter().all(|d| d.link.is_none()));
    assert!(path.corners.len() >= 4);
}

#[test]
fn bad_mesh_attributes_are_named() {
    let soup = three_by_three();
    let base = MeshInput::new(&soup.vertices, &soup.indices).with_polygon_sizes(&soup.sizes);
    let short = [0u8; 8];
    let err = NavMesh::from_input(&base.with_areas(&short), &MeshOptions::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "areas has 8 entries but the mesh has 9 polygons"
    );
    let mut high = [0u8; 9];
    high[7] = 64;
    let err = NavMesh::from_input(&base.with_areas(&high), &MeshOptions::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "polygon 7 has area id 64; area ids must be below 64"
    );
    let far = [OffMeshLink::new(p(0.5, 0.5), p(10.0, 0.5))];
    let err = NavMesh::from_input(&base.with_links(&far), &MeshOptions::default()).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("off-mesh link 0: its end point is 7"),
        "{err}"
    );
    let mut nan = OffMeshLink::new(p(0.5, 0.5), p(1.5, 0.5));
    nan.cost = f32::NAN;
    let err = NavMesh::from_input(&base.with_links(&[nan]), &MeshOptions::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "off-mesh link 0: cost must be finite and >= 0"
    );
    let mut options = PathOptions::default();
    options.filter.area_costs[9] = -1.0;
    let err = Query::new(&soup.build())
        .find_path(p(0.5, 0.5), p(1.5, 0.5), &options)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the filter's cost of area 9 is -1; costs must be finite and > 0"
    );
}

/// A random mesh with random areas and one random link, and a filter pricing the areas.
fn random_case(seed: u64) -> (NavMesh, QueryFilter, Rng) {
    let mut rng = Rng(seed);
    let soup = seeded_grid(seed, 4 + rng.below(5) as usize, 4 + rng.below(5) as usize);
    let areas: Vec<u8> = soup.sizes.iter().map(|_| rng.below(4) as u8).collect();
    let input = MeshInput::new(&soup.vertices, &soup.indices)
        .with_polygon_sizes(&soup.sizes)
        .with_areas(&areas);
    let mesh = NavMesh::from_input(&input, &MeshOptions::default()).unwrap();
    let mut filter = QueryFilter::default();
    for area in 0..4 {
        filter.area_costs[area] = [0.5, 1.0, 2.0, 5.0][rng.below(4) as usize];
    }
    (mesh, filter, rng)
}

fn random_point(mesh: &NavMesh, rng: &mut Rng) -> Vec3 {
    let polygon = rng.below(mesh.polygon_count());
    point_in_polygon(mesh, polygon, rng.unit(), rng.unit(), rng.unit())
}

/// How the strategies' costs compare with Dijkstra's over many random queries.
#[derive(Debug, Default)]
struct Comparison {
    compared: u32,
    astar_equal: u32,
    astar_worst: f32,
    /// The smallest ratio of another strategy's cost to Dijkstra's.
    others_lowest: f32,
    /// Weighted A* (weight 2) over Dijkstra, at most.
    weighted_worst: f32,
}

/// Runs every strategy on random meshes and queries with `filter_of(case filter)`;
/// every path must be valid and complete. `merged`: whether A* may search the merged
/// copy first (`Query::set_merged_search`; the other strategies never do).
fn compare_strategies(uniform: bool, merged: bool) -> Comparison {
    let strategies = [
        SearchStrategy::AStar,
        SearchStrategy::GreedyBestFirst,
        SearchStrategy::BreadthFirst,
        SearchStrategy::DepthFirst,
    ];
    let mut c = Comparison {
        others_lowest: f32::INFINITY,
        astar_worst: 0.0,
        weighted_worst: 0.0,
        ..Default::default()
    };
    for seed in 1..=150u64 {
        let (mesh, random_filter, mut rng) = random_case(seed);
        let filter = if uniform {
            QueryFilter::default()
        } else {
            random_filter
        };
        let domain = Domain::new(&mesh);
        let mut query = Query::new(&mesh);
        query.set_merged_search(merged);
        for _ in 0..4 {
            let (start, goal) = (random_point(&mesh, &mut rng), random_point(&mesh, &mut rng));
            let mut options = options_with(filter.clone());
            options.strategy = SearchStrategy::Dijkstra;
            let best = query.find_path(start, goal, &options).unwrap();
            if best.status != PathStatus::Complete {
                continue;
            }
            let best_cost = best.cost.max(1e-6);
            check_segments_on_mesh(&domain, best.corners).unwrap();
            for strategy in strategies {
                options.strategy = strategy;
                let path = query.find_path(start, goal, &options).unwrap();
                assert_eq!(path.status, PathStatus::Complete);
                let check = if uniform {
                    check_path_on_mesh
                } else {
                    check_segments_on_mesh
                };
                check(&domain, path.corners)
                    .unwrap_or_else(|e| panic!("seed {seed} {strategy:?}: {e}"));
                let ratio = path.cost / best_cost;
                if strategy == SearchStrategy::AStar {
                    c.compared += 1;
                    c.astar_equal += u32::from((ratio - 1.0).abs() <= 1e-4);
                    c.astar_worst = c.astar_worst.max(ratio);
                } else {
                    c.others_lowest = c.others_lowest.min(ratio);
                }
            }
            options.strategy = SearchStrategy::AStar;
            options.heuristic_weight = 2.0;
            let weighted = query.find_path(start, goal, &options).unwrap();
            c.weighted_worst = c.weighted_worst.max(weighted.cost / best_cost);
        }
    }
    eprintln!("{c:?}");
    assert!(c.compared >= 300, "{c:?}");
    c
}

#[test]
fn strategies_against_dijkstra_with_one_cost() {
    // Corridors are compared by the exact lengths of their pulled paths: A* and Dijkstra
    // agree, and no other strategy finds a shorter corridor than Dijkstra.
    let c = compare_strategies(true, false);
    assert!(c.astar_equal * 100 >= c.compared * 98, "{c:?}");
    assert!(c.astar_worst <= 1.01, "{c:?}");
    // One node per way into a polygon keeps one funnel state; an unordered strategy can
    // happen on a corridor that state ruled out, a few per cent shorter.
    assert!(c.others_lowest >= 0.9, "{c:?}");
    assert!(c.weighted_worst <= 2.0 * 1.001, "{c:?}");
}

#[test]
fn merged_search_against_dijkstra_with_one_cost() {
    // A* over the merged copy first, then over the mesh inside its corridor: the
    // corridor is chosen among fewer, larger polygons, so it is sometimes a little
    // longer than the whole mesh's best (measured: 97.6 % equal, worst 1.036).
    let c = compare_strategies(true, true);
    assert!(c.astar_equal * 100 >= c.compared * 95, "{c:?}");
    assert!(c.astar_worst <= 1.05, "{c:?}");
    assert!(c.others_lowest >= 0.9, "{c:?}");
    assert!(c.weighted_worst <= 2.0 * 1.001, "{c:?}");
}

#[test]
fn strategies_against_dijkstra_with_area_costs() {
    // With costs 0.5 to 5 per area, A* and Dijkstra search the same graph (three points
    // per portal) with a consistent heuristic and agree; the unordered strategies may
    // stumble on corridors that graph misjudges, so only validity is required of them.
    let c = compare_strategies(false, true);
    assert!(c.astar_equal * 100 >= c.compared * 97, "{c:?}");
    assert!(c.astar_worst <= 1.10, "{c:?}");
    assert!(c.weighted_worst <= 2.0 * 1.10, "{c:?}");
}

#[test]
fn nearest_target_is_the_cheapest_goal() {
    nearest_target_against_separate_searches(true, 1.01);
}

#[test]
fn nearest_target_is_the_cheapest_goal_with_area_costs() {
    // Corridors are chosen on the sampled graph (see the strategies test), and which goal
    // is cheapest is judged there too: within 25 % of the best pulled path.
    nearest_target_against_separate_searches(false, 1.25);
}

/// One search for the nearest of five goals against a Dijkstra search per goal: the
/// answer costs at most `tolerance` times the cheapest goal's cost.
fn nearest_target_against_separate_searches(uniform: bool, tolerance: f32) {
    let mut compared = 0;
    for seed in 200..=320u64 {
        let (mesh, random_filter, mut rng) = random_case(seed);
        let filter = if uniform {
            QueryFilter::default()
        } else {
            random_filter
        };
        let mut query = Query::new(&mesh);
        let options = options_with(filter);
        let start = random_point(&mesh, &mut rng);
        let goals: Vec<Vec3> = (0..5).map(|_| random_point(&mesh, &mut rng)).collect();
        let costs: Vec<Option<f32>> = goals
            .iter()
            .map(|&g| {
                let mut exact = options.clone();
                exact.allow_partial = false;
                exact.strategy = SearchStrategy::Dijkstra;
                query.find_path(start, g, &exact).ok().map(|p| p.cost)
            })
            .collect();
        let best = costs
            .iter()
            .flatten()
            .copied()
            .fold(f32::INFINITY, f32::min);
        match query.find_nearest_target(start, &goals, &options) {
            Ok(answer) => {
                compared += 1;
                let chosen = costs[answer.target].expect("the chosen goal is reachable");
                let cost = answer.path.cost;
                assert!(
                    cost <= chosen * tolerance + 1e-5,
                    "seed {seed}: {cost} {costs:?}"
                );
                assert!(
                    cost <= best * tolerance + 1e-5,
                    "seed {seed}: {cost} {costs:?}"
                );
                let end = *answer.path.corners.last().unwrap();
                let snapped = mesh
                    .nearest_point(goals[answer.target], f32::INFINITY, None)
                    .unwrap();
                assert!(end.distance(snapped.point) < 1e-4);
            }
            Err(QueryError::NoPath) => assert!(best.is_infinite(), "seed {seed}"),
            Err(e) => panic!("seed {seed}: {e}"),
        }
    }
    assert!(compared > 80);
}

#[test]
fn nearest_target_known_answer_and_errors() {
    let mesh = Soup::from_ascii(&["....."]).build();
    let mut query = Query::new(&mesh);
    let goals = [p(4.5, 0.5), p(0.2, 0.5), p(2.9, 0.5)];
    let answer = query
        .find_nearest_target(p(2.0, 0.5), &goals, &PathOptions::default())
        .unwrap();
    assert_eq!(answer.target, 2);
    assert_eq!(answer.path.corners, &[p(2.0, 0.5), p(2.9, 0.5)]);
    assert_eq!(
        query
            .find_nearest_target(p(2.0, 0.5), &[], &PathOptions::default())
            .unwrap_err(),
        QueryError::NoPath
    );
    assert!(matches!(
        query.find_nearest_target(
            p(2.0, 0.5),
            &[Vec3::new(f32::NAN, 0.0, 0.0)],
            &PathOptions::default()
        ),
        Err(QueryError::NonFinitePoint(_))
    ));
}

#[test]
fn reachable_polygons_known_answer() {
    let mesh = Soup::from_ascii(&["....."]).build();
    let mut query = Query::new(&mesh);
    let reached = query
        .reachable_polygons(p(0.5, 0.5), 2.0, &QueryFilter::default(), f32::INFINITY)
        .unwrap()
        .to_vec();
    let polygons: Vec<u32> = reached.iter().map(|r| r.polygon).collect();
    assert_eq!(polygons, vec![0, 1, 2]);
    assert_eq!(reached[0].cost, 0.0);
    assert_eq!(reached[0].parent, None);
    assert!(close(reached[1].cost, 0.5) && reached[1].parent == Some(0));
    assert!(close(reached[2].cost, 1.5) && reached[2].parent == Some(1));
    assert!(matches!(
        query.reachable_polygons(p(0.5, 0.5), -1.0, &QueryFilter::default(), f32::INFINITY),
        Err(QueryError::InvalidOption(_))
    ));
}

#[test]
fn reachable_polygons_agree_with_paths_on_random_meshes() {
    for seed in 400..=480u64 {
        let (mesh, filter, mut rng) = random_case(seed);
        let mut query = Query::new(&mesh);
        let options = options_with(filter);
        let start = random_point(&mesh, &mut rng);
        let budget = 1.0 + rng.unit() * 6.0;
        let reached = query
            .reachable_polygons(start, budget, &options.filter, options.max_snap_distance)
            .unwrap()
            .to_vec();
        let mut listed = vec![None; mesh.polygon_count() as usize];
        for (i, r) in reached.iter().enumerate() {
            assert!(r.cost <= budget);
            assert!(listed[r.polygon as usize].is_none(), "polygon listed twice");
            if i > 0 {
                assert!(r.cost >= reached[i - 1].cost, "not cheapest first");
                let from = r.parent.expect("only the start polygon has no parent");
                let parent = listed[from as usize].expect("parent listed before");
                let _: f32 = parent;
                assert!(mesh.polygon_neighbours(from).any(|n| n == Some(r.polygon)));
            }
            listed[r.polygon as usize] = Some(r.cost);
        }
        // A path to a polygon's centre costs at least what the flood says getting into
        // it costs; a polygon whose centre is within the budget is listed.
        for polygon in 0..mesh.polygon_count() {
            let centre = point_in_polygon(&mesh, polygon, 0.5, 0.33, 0.33);
            let mut exact = options.clone();
            exact.allow_partial = false;
            exact.strategy = SearchStrategy::Dijkstra;
            let Ok(path) = query.find_path(start, centre, &exact) else {
                assert!(listed[polygon as usize].is_none());
                continue;
            };
            let cost = path.cost;
            match listed[polygon as usize] {
                Some(entry) => assert!(
                    entry <= cost * 1.0001 + 1e-4,
                    "seed {seed}: {entry} > {cost}"
                ),
                None => assert!(
                    cost > budget * 0.9999,
                    "seed {seed}: polygon {polygon} at {cost} missing"
                ),
            }
        }
    }
}
