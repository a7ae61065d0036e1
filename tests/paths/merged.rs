//! The default mode's search over the merged copy (`Query::set_merged_search`): valid
//! paths whose corridors name the mesh's own polygons, the same answers' guarantees as
//! a search of the whole mesh, and the cases where the copy must not be used (flags
//! refused at run time, mixed area costs, off-mesh links) searched on the whole mesh.

use crate::funnel;
use glam::Vec3;
use navstar::{
    MeshInput, MeshOptions, NavMesh, OffMeshLink, PathMode, PathOptions, PathStatus, Query,
    QueryFilter,
};

use crate::common::{Domain, check_path_on_mesh, ground_length, point_in_polygon, seeded_grid};

/// Random pairs of points of one island of `mesh`, from `seed`.
fn pairs(mesh: &NavMesh, seed: u64, count: usize) -> Vec<(Vec3, Vec3)> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 40) as f32 / (1u64 << 24) as f32
    };
    let n = mesh.polygon_count();
    let mut out = Vec::new();
    for _ in 0..count * 20 {
        if out.len() == count {
            break;
        }
        let a = ((next() * n as f32) as u32).min(n - 1);
        let b = ((next() * n as f32) as u32).min(n - 1);
        if mesh.island(a) != mesh.island(b) {
            continue;
        }
        let start = point_in_polygon(mesh, a, next(), next(), next());
        let goal = point_in_polygon(mesh, b, next(), next(), next());
        out.push((start, goal));
    }
    out
}

/// Whether `corridor` is a chain of neighbouring polygons of `mesh`.
fn is_chain(mesh: &NavMesh, corridor: &[u32]) -> bool {
    corridor.iter().all(|&p| p < mesh.polygon_count())
        && corridor
            .windows(2)
            .all(|w| mesh.polygon_neighbours(w[0]).any(|n| n == Some(w[1])))
}

#[test]
fn merged_search_gives_valid_paths_over_the_mesh_polygons() {
    let options = funnel();
    let mut exact = funnel();
    exact.mode = PathMode::Optimal;
    let mut used = 0;
    for seed in 0..12 {
        let mesh = seeded_grid(seed, 14, 14).build();
        let domain = Domain::new(&mesh);
        let mut merged = Query::new(&mesh);
        // These meshes are below the size threshold: the copy is forced on.
        merged.set_merged_search(true);
        let mut whole = Query::new(&mesh);
        whole.set_merged_search(false);
        for (start, goal) in pairs(&mesh, seed, 25) {
            let context = format!("seed {seed}: {start} -> {goal}");
            let path = merged.find_path_vec(start, goal, &options).unwrap();
            let stats = merged.last_search_stats();
            used += usize::from(stats.searches == 2);
            let reference = whole.find_path_vec(start, goal, &options).unwrap();
            assert_eq!(path.status, PathStatus::Complete, "{context}");
            assert_eq!(reference.status, PathStatus::Complete, "{context}");
            assert!(whole.last_search_stats().searches <= 1, "{context}");
            check_path_on_mesh(&domain, &path.corners).unwrap_or_else(|e| panic!("{context}: {e}"));
            // Same ends as the whole-mesh search.
            assert_eq!(path.corners.first(), reference.corners.first(), "{context}");
            assert_eq!(path.corners.last(), reference.corners.last(), "{context}");
            let corridor: Vec<u32> = merged.corridor().collect();
            if stats.searches > 0 {
                let (s, g) = (
                    mesh.nearest_point(start, 1.0, None).unwrap().polygon,
                    mesh.nearest_point(goal, 1.0, None).unwrap().polygon,
                );
                assert_eq!(corridor.first(), Some(&s), "{context}");
                assert_eq!(corridor.last(), Some(&g), "{context}");
                assert!(is_chain(&mesh, &corridor), "{context}: {corridor:?}");
            }
            // Never shorter than the shortest path.
            let shortest = exact_length(&mesh, start, goal, &exact);
            let length = ground_length(mesh.up_axis(), &path.corners);
            assert!(
                length >= shortest - 1e-4,
                "{context}: {length} < {shortest}"
            );
        }
    }
    assert!(
        used > 100,
        "the merged copy was searched in {used} queries only"
    );
}

fn exact_length(mesh: &NavMesh, start: Vec3, goal: Vec3, exact: &PathOptions) -> f64 {
    let mut query = Query::new(mesh);
    let path = query.find_path_vec(start, goal, exact).unwrap();
    ground_length(mesh.up_axis(), &path.corners)
}

#[test]
fn merged_search_can_be_turned_off() {
    let mesh = seeded_grid(3, 14, 14).build();
    let mut query = Query::new(&mesh);
    let (start, goal) = pairs(&mesh, 3, 40)
        .into_iter()
        .find(|(s, g)| s.distance(*g) > 8.0)
        .expect("a far pair");
    query.set_merged_search(true);
    query.find_path(start, goal, &funnel()).unwrap();
    let on = query.last_search_stats();
    assert_eq!(
        on.searches, 2,
        "merged copy, then the mesh inside its corridor"
    );
    assert!(on.expanded > 0);
    query.set_merged_search(false);
    query.find_path(start, goal, &funnel()).unwrap();
    assert_eq!(query.last_search_stats().searches, 1);
}

#[test]
fn refused_flags_mixed_costs_and_links_search_the_whole_mesh() {
    let mesh = seeded_grid(5, 14, 14).build();
    let (start, goal) = pairs(&mesh, 5, 40)
        .into_iter()
        .find(|(s, g)| s.distance(*g) > 8.0)
        .expect("a far pair");
    let mut query = Query::new(&mesh);
    query.set_merged_search(true);
    let options = funnel();
    query.find_path(start, goal, &options).unwrap();
    assert_eq!(query.last_search_stats().searches, 2);
    // Refuse a polygon of that corridor at run time (not the ends): the copy knows no
    // flags, so the whole mesh is searched and the path goes round it.
    let corridor: Vec<u32> = query.corridor().collect();
    let blocked = corridor[corridor.len() / 2];
    mesh.set_polygon_flags(blocked, 2).unwrap();
    let mut filter_options = options.clone();
    filter_options.filter = QueryFilter::default().with_exclude_flags(2);
    let path = query.find_path_vec(start, goal, &filter_options).unwrap();
    assert_eq!(query.last_search_stats().searches, 1);
    assert!(
        !query.corridor().any(|p| p == blocked),
        "crossed refused {blocked}"
    );
    assert!(path.status == PathStatus::Complete || path.status == PathStatus::Partial);
    // Back to admitted: the copy is used again.
    mesh.set_polygon_flags(blocked, 1).unwrap();
    query.find_path(start, goal, &filter_options).unwrap();
    assert_eq!(query.last_search_stats().searches, 2);
    // Mixed area costs: the copy has no areas.
    let mut costly = options.clone();
    costly.filter = QueryFilter::default().with_area_cost(3, 2.0);
    query.find_path(start, goal, &costly).unwrap();
    assert_eq!(query.last_search_stats().searches, 1);
    // Off-mesh links: the copy has none.
    let soup = seeded_grid(5, 14, 14);
    let links = [OffMeshLink::new(start, goal)];
    let input = MeshInput::new(&soup.vertices, &soup.indices)
        .with_polygon_sizes(&soup.sizes)
        .with_links(&links);
    let linked = NavMesh::from_input(&input, &MeshOptions::default()).unwrap();
    let mut query = Query::new(&linked);
    query.set_merged_search(true);
    query.find_path(start, goal, &options).unwrap();
    assert!(query.last_search_stats().searches <= 1);
}

#[test]
fn merged_copy_is_used_by_default_only_on_large_meshes() {
    let options = funnel();
    for (cols, large) in [(14, false), (36, true)] {
        let mesh = seeded_grid(7, cols, cols).build();
        assert_eq!(
            mesh.polygon_count() >= navstar::MERGED_SEARCH_MIN_POLYGONS,
            large,
            "{cols} columns: {} polygons",
            mesh.polygon_count()
        );
        let domain = Domain::new(&mesh);
        let mut by_size = Query::new(&mesh);
        let mut forced = Query::new(&mesh);
        forced.set_merged_search(true);
        let mut whole = Query::new(&mesh);
        whole.set_merged_search(false);
        let mut exact_query = Query::new(&mesh);
        let exact = funnel().with_mode(PathMode::Optimal);
        let mut two_passes = 0;
        for (start, goal) in pairs(&mesh, 7, 16) {
            let context = format!("{cols} columns: {start} -> {goal}");
            let path = by_size.find_path_vec(start, goal, &options).unwrap();
            let searches = by_size.last_search_stats().searches;
            two_passes += usize::from(searches == 2);
            assert!(searches <= if large { 2 } else { 1 }, "{context}");
            assert_eq!(path.status, PathStatus::Complete, "{context}");
            check_path_on_mesh(&domain, &path.corners).unwrap_or_else(|e| panic!("{context}: {e}"));
            // Below the threshold the answer is the whole mesh's, above it the copy's.
            let reference = if large {
                forced.find_path_vec(start, goal, &options).unwrap()
            } else {
                whole.find_path_vec(start, goal, &options).unwrap()
            };
            assert_eq!(path.corners, reference.corners, "{context}");
            let shortest = exact_query.find_path_vec(start, goal, &exact).unwrap();
            let shortest = ground_length(mesh.up_axis(), &shortest.corners);
            let length = ground_length(mesh.up_axis(), &path.corners);
            assert!(
                length >= shortest - 1e-4,
                "{context}: {length} < {shortest}"
            );
        }
        assert_eq!(
            two_passes > 0,
            large,
            "{cols} columns: {two_passes} two-pass queries"
        );
    }
}
