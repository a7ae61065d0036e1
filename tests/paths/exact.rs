//! The optimal path mode (`PathMode::Optimal`): exact shortest paths.
//!
//! * Against the independent visibility-graph oracle of `tests/common` on thousands of
//!   small random meshes (jittered and exact grids, diagonals, hexagons with collinear
//!   corners, holes, slivers) and random queries, including points on vertices and
//!   edges.
//! * Against the reference lengths of the shared scenario files: the Euclidean optimum
//!   of `scene_mp_2p_01.mesh`, the Polyanya authors' test meshes, and the octile
//!   lengths of grid maps (an upper bound of the any-angle length).
//! * Every path lies on the mesh and is never longer than the default mode's.

use std::fs::File;
use std::io::BufReader;
use std::path::Path;

use glam::{DVec2, Vec3};
use navstar::io::scenario::ScenarioProblem;
use navstar::io::{parse_movingai_map, parse_polyanya_mesh, parse_scenario};
use navstar::{MeshOptions, NavMesh, PathStatus, Query};

use crate::common::{
    Cell, Domain, Rng, Soup, check_path_on_mesh, ground_length, p, point_in_polygon, random_grid,
    random_grid_sized, seeded_grid,
};
use crate::{funnel, optimal};

pub(crate) const MESH_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/mesh");
pub(crate) const GRID_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/grid");

/// A random small mesh of one of several families; `None` when the holes left no
/// polygon.
pub(crate) fn random_mesh(rng: &mut Rng) -> Option<NavMesh> {
    let cols = 2 + rng.below(5) as usize;
    let rows = 2 + rng.below(5) as usize;
    let holes = rng.below(30);
    let cells: Vec<Cell> = (0..cols * rows)
        .map(|_| {
            if rng.below(100) < holes {
                Cell::Hole
            } else {
                Cell::from_code(2 + rng.below(8) as u8)
            }
        })
        .collect();
    let offsets: Vec<(f32, f32)> = (0..(cols + 1) * (rows + 1))
        .map(|_| (rng.unit() * 2.0 - 1.0, rng.unit() * 2.0 - 1.0))
        .collect();
    let soup = match rng.below(4) {
        0 => random_grid(cols, rows, &cells, &offsets, 0.18),
        1 => random_grid(cols, rows, &cells, &offsets, 0.0),
        2 => {
            let size = |rng: &mut Rng| if rng.below(5) == 0 { 1e-3 } else { 1.0 };
            let widths: Vec<f32> = (0..cols).map(|_| size(rng)).collect();
            let heights: Vec<f32> = (0..rows).map(|_| size(rng)).collect();
            random_grid_sized(&cells, &offsets, 0.0, &widths, &heights)
        }
        _ => seeded_grid(rng.next_u64(), cols, rows),
    };
    (!soup.sizes.is_empty()).then(|| soup.build())
}

/// A point of the mesh: inside a polygon, on a vertex or on an edge.
pub(crate) fn random_point(mesh: &NavMesh, rng: &mut Rng) -> Vec3 {
    let polygon = rng.below(mesh.polygon_count());
    let corners = mesh.polygon_vertices(polygon);
    let v = mesh.vertices();
    match rng.below(8) {
        0 => v[corners[rng.below(corners.len() as u32) as usize] as usize],
        1 => {
            let i = rng.below(corners.len() as u32) as usize;
            let (a, b) = (
                v[corners[i] as usize],
                v[corners[(i + 1) % corners.len()] as usize],
            );
            a.lerp(b, [0.5, 0.25, rng.unit()][rng.below(3) as usize])
        }
        _ => point_in_polygon(mesh, polygon, rng.unit(), rng.unit(), rng.unit()),
    }
}

#[test]
fn equals_the_visibility_graph_oracle_on_random_meshes() {
    let mut rng = Rng(0x0971_u64);
    let (mut exact, mut bounded) = (0usize, 0usize);
    for m in 0..2500 {
        let Some(mesh) = random_mesh(&mut rng) else {
            continue;
        };
        let domain = Domain::new(&mesh);
        let mut query = Query::new(&mesh);
        // Every other mesh with the landmark heuristic: the answer must not change.
        query.set_landmarks(m % 2 == 1);
        for q in 0..4 {
            let (s, t) = (random_point(&mesh, &mut rng), random_point(&mesh, &mut rng));
            let context = format!("mesh {m} query {q}: {s} -> {t}");
            let path = query
                .find_path(s, t, &optimal())
                .unwrap_or_else(|e| panic!("{context}: {e}"));
            let status = path.status;
            let corners = path.corners.to_vec();
            check_path_on_mesh(&domain, &corners).unwrap_or_else(|e| panic!("{context}: {e}"));
            let funnel = query.find_path(s, t, &funnel()).unwrap();
            assert_eq!(funnel.status, status, "{context}");
            let (first, last) = (corners[0], corners[corners.len() - 1]);
            let up = mesh.up_axis();
            let length = ground_length(up, &corners);
            let funnel_length = ground_length(up, funnel.corners);
            assert!(
                length <= funnel_length + 1e-4,
                "{context}: optimal {length} longer than funnel {funnel_length}: {corners:?} vs {:?}",
                funnel.corners
            );
            if status != PathStatus::Complete {
                continue;
            }
            let g = |p: Vec3| -> DVec2 { up.ground(p).as_dvec2() };
            let oracle = domain.shortest_length(g(first), g(last));
            if domain.pinched {
                // The oracle may squeeze through a pinch: it is only a lower bound.
                assert!(
                    length >= oracle * (1.0 - 1e-5) - 1e-9,
                    "{context}: {length} below the oracle's {oracle}"
                );
                bounded += 1;
            } else {
                assert!(
                    (length - oracle).abs() <= 1e-5 * oracle.max(1e-3),
                    "{context}: optimal {length}, oracle {oracle}: {corners:?}"
                );
                exact += 1;
            }
        }
    }
    assert!(
        exact > 4000,
        "only {exact} exact comparisons ({bounded} bounded)"
    );
}

/// Polygons the filter refuses are holes: the optimal path equals the oracle's shortest
/// path over the admitted polygons alone, bending round the refused polygons' corners.
#[test]
fn refused_polygons_are_holes_for_the_oracle() {
    let mut rng = Rng(0x0f17_u64);
    let mut options = optimal();
    options.filter.exclude_flags = 2;
    let (mut exact, mut bent_at_refused) = (0usize, 0usize);
    for m in 0..2500 {
        let Some(mesh) = random_mesh(&mut rng).filter(|mesh| mesh.polygon_count() >= 3) else {
            continue;
        };
        let share = 5 + rng.below(30);
        for polygon in 0..mesh.polygon_count() {
            let flags = if rng.below(100) < share { 3 } else { 1 };
            mesh.set_polygon_flags(polygon, flags).unwrap();
        }
        let admitted = |p: u32| mesh.polygon_flags(p) & 2 == 0;
        if !(0..mesh.polygon_count()).any(admitted) {
            continue;
        }
        let domain = Domain::layer(&mesh, admitted);
        let wall_vertices = Domain::new(&mesh);
        let mut query = Query::new(&mesh);
        query.set_landmarks(m % 2 == 1);
        for q in 0..4 {
            let (s, t) = (random_point(&mesh, &mut rng), random_point(&mesh, &mut rng));
            let context = format!("mesh {m} query {q}: {s} -> {t}");
            let path = query
                .find_path(s, t, &options)
                .unwrap_or_else(|e| panic!("{context}: {e}"));
            if path.status != PathStatus::Complete {
                continue;
            }
            let corners = path.corners.to_vec();
            check_path_on_mesh(&domain, &corners).unwrap_or_else(|e| {
                let refused: Vec<u32> = (0..mesh.polygon_count())
                    .filter(|&p| !admitted(p))
                    .collect();
                let polys: Vec<Vec<u32>> = (0..mesh.polygon_count())
                    .map(|p| mesh.polygon_vertices(p).to_vec())
                    .collect();
                panic!(
                    "{context}: {e}\n{corners:?}\nrefused {refused:?}\n{polys:?}\n{:?}",
                    mesh.vertices()
                )
            });
            let up = mesh.up_axis();
            let g = |p: Vec3| -> DVec2 { up.ground(p).as_dvec2() };
            let length = ground_length(up, &corners);
            let oracle = domain.shortest_length(g(corners[0]), g(corners[corners.len() - 1]));
            if domain.pinched {
                assert!(
                    length >= oracle * (1.0 - 1e-5) - 1e-9,
                    "{context}: {length} below the oracle's {oracle}"
                );
            } else {
                assert!(
                    (length - oracle).abs() <= 1e-5 * oracle.max(1e-3),
                    "{context}: optimal {length}, oracle {oracle}: {corners:?}"
                );
                exact += 1;
            }
            // Count paths that bend where only a refused polygon makes a corner.
            let inner = &corners[1..corners.len() - 1];
            if inner.iter().any(|&c| !wall_vertices.is_wall_vertex(g(c))) {
                bent_at_refused += 1;
            }
        }
    }
    assert!(exact > 2500, "only {exact} exact comparisons");
    eprintln!("{exact} exact comparisons, {bent_at_refused} paths bend round refused polygons");
    assert!(
        bent_at_refused > 100,
        "only {bent_at_refused} paths bend round a refused polygon ({exact} exact)"
    );
}

pub(crate) fn read_polyanya(path: &Path) -> NavMesh {
    let soup = parse_polyanya_mesh(BufReader::new(File::open(path).unwrap())).unwrap();
    soup.into_mesh(&MeshOptions::default())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

pub(crate) fn read_scenario(path: &Path) -> Vec<ScenarioProblem> {
    parse_scenario(BufReader::new(File::open(path).unwrap()))
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Runs both modes; checks that the optimal path is complete, on the mesh (when a
/// checker is given) and no longer than the default mode's; returns its ground length.
fn run_both(
    mesh: &NavMesh,
    domain: Option<&Domain>,
    query: &mut Query,
    s: Vec3,
    t: Vec3,
    context: &str,
) -> f64 {
    let up = mesh.up_axis();
    let path = query
        .find_path(s, t, &optimal())
        .unwrap_or_else(|e| panic!("{context}: {e}"));
    assert_eq!(path.status, PathStatus::Complete, "{context}");
    let corners = path.corners.to_vec();
    if let Some(domain) = domain {
        check_path_on_mesh(domain, &corners).unwrap_or_else(|e| panic!("{context}: {e}"));
    }
    let length = ground_length(up, &corners);
    let funnel = query.find_path(s, t, &funnel()).unwrap();
    let funnel_length = ground_length(up, funnel.corners);
    assert!(
        length <= funnel_length + 1e-4,
        "{context}: optimal {length} longer than funnel {funnel_length}"
    );
    length
}

#[test]
fn scene_mp_2p_01_scenarios_have_the_reference_length() {
    let mesh = read_polyanya(&Path::new(MESH_DIR).join("scene_mp_2p_01.mesh"));
    let problems = read_scenario(&Path::new(MESH_DIR).join("scene_mp_2p_01.mesh.scen"));
    assert_eq!(problems.len(), 2000);
    // The checker's segment test is linear in the mesh size per sample: every path's
    // length is checked, every 20th path's geometry.
    let domain = Domain::new(&mesh);
    let mut query = Query::new(&mesh);
    for (i, problem) in problems.iter().enumerate() {
        let context = format!("problem {i}");
        let checked = (i % 20 == 0).then_some(&domain);
        let (s, t) = (problem.mesh_start(), problem.mesh_goal());
        let length = run_both(&mesh, checked, &mut query, s, t, &context);
        let reference = problem.optimal_length;
        assert!(
            (length - reference).abs() <= 1e-4 * reference.max(1.0),
            "{context}: length {length}, reference {reference}"
        );
    }
}

#[test]
fn polyanya_test_meshes() {
    let dir = Path::new(MESH_DIR).join("tests");
    for name in [
        "bad-ambig",
        "bad-collinear",
        "bad-collinear2-rot0",
        "bad-collinear2-rot45",
        "bad-collinear2-rot90",
        "square",
    ] {
        let mesh = read_polyanya(&dir.join(format!("{name}.mesh")));
        let domain = Domain::new(&mesh);
        let mut query = Query::new(&mesh);
        let problems = read_scenario(&dir.join(format!("{name}.scen")));
        for (i, problem) in problems.iter().enumerate() {
            let context = format!("{name} problem {i}");
            let (s, t) = (problem.mesh_start(), problem.mesh_goal());
            let length = run_both(&mesh, Some(&domain), &mut query, s, t, &context);
            let reference = problem.optimal_length;
            if name == "bad-ambig" && i == 0 {
                // The file rounds this one to 4: round the pinch at (1, 1) by (1, 2),
                // (2, 2) and (2, 1), not through it.
                let exact = 2.0 + 2.0 * 0.99f64.hypot(0.01);
                assert!(
                    (length - exact).abs() <= 1e-6,
                    "{context}: length {length}, exact {exact}"
                );
            } else if reference >= 0.0 {
                // These files give lengths to about three decimals (7.414 for 7.41221).
                assert!(
                    (length - reference).abs() <= 1e-3 * reference.max(1.0),
                    "{context}: length {length}, reference {reference}"
                );
            }
            // (Polyanya marks a start or goal on the pinched vertex with -1; navstar
            // answers those, starting or ending on either side.)
            if !domain.pinched {
                let oracle = domain.shortest_length(domain.g(s), domain.g(t));
                assert!(
                    (length - oracle).abs() <= 1e-5 * oracle.max(1e-3),
                    "{context}: length {length}, oracle {oracle}"
                );
            }
        }
    }
    // The hard mesh has no scenario: random queries against the oracle.
    let mesh = read_polyanya(&dir.join("hard.mesh"));
    let domain = Domain::new(&mesh);
    let mut query = Query::new(&mesh);
    let mut rng = Rng(7);
    let mut compared = 0;
    for i in 0..200 {
        let (s, t) = (random_point(&mesh, &mut rng), random_point(&mesh, &mut rng));
        let (gs, gt) = (domain.g(s), domain.g(t));
        if domain.islands_at(gs, 1e-4) != domain.islands_at(gt, 1e-4) {
            continue;
        }
        let context = format!("hard.mesh query {i}: {s} -> {t}");
        let length = run_both(&mesh, Some(&domain), &mut query, s, t, &context);
        if !domain.pinched {
            let oracle = domain.shortest_length(gs, gt);
            assert!(
                (length - oracle).abs() <= 1e-5 * oracle.max(1e-3),
                "{context}: {length} vs oracle {oracle}"
            );
            compared += 1;
        }
    }
    assert!(compared > 0 || domain.pinched);
}

#[test]
fn grid_maps_are_no_longer_than_the_octile_reference() {
    for name in ["den312d", "arena"] {
        let path = Path::new(GRID_DIR).join(format!("{name}.map"));
        let map = parse_movingai_map(BufReader::new(File::open(&path).unwrap())).unwrap();
        let mesh = map.to_mesh(&MeshOptions::default()).unwrap();
        let problems = read_scenario(&Path::new(GRID_DIR).join(format!("{name}.map.scen")));
        let mut query = Query::new(&mesh);
        let domain = Domain::new(&mesh);
        for (i, problem) in problems.iter().enumerate() {
            let context = format!("{name} problem {i}");
            let checked = (i % 10 == 0).then_some(&domain);
            let (s, t) = (problem.grid_start(), problem.grid_goal());
            let length = run_both(&mesh, checked, &mut query, s, t, &context);
            assert!(
                length <= problem.optimal_length + 1e-4,
                "{context}: length {length} above the octile {}",
                problem.optimal_length
            );
        }
    }
}

#[test]
fn unreachable_goals_follow_the_partial_rules() {
    // Two islands: the optimal mode ends where the default mode ends.
    let mesh = Soup::from_ascii(&["...#..", "...#.."]).build();
    let mut query = Query::new(&mesh);
    let (s, t) = (p(0.5, 0.5), p(5.5, 1.5));
    let path = query.find_path(s, t, &optimal()).unwrap();
    assert_eq!(path.status, PathStatus::Partial);
    assert_eq!(*path.corners.last().unwrap(), p(3.0, 1.5));
    let mut strict = optimal();
    strict.allow_partial = false;
    assert!(query.find_path(s, t, &strict).is_err());
}

#[test]
fn bends_round_the_right_corners() {
    // Round the wall in the middle: the shortest path touches two of its corners.
    let mesh = Soup::from_ascii(&["....", ".##.", ".##.", "...."]).build();
    let mut query = Query::new(&mesh);
    let path = query
        .find_path(p(1.5, 0.5), p(1.5, 3.5), &optimal())
        .unwrap();
    assert_eq!(
        path.corners,
        &[p(1.5, 0.5), p(1.0, 1.0), p(1.0, 3.0), p(1.5, 3.5)]
    );
}

#[test]
fn start_and_goal_on_vertices_and_edges() {
    // A ring of cells round a hole; ends exactly on wall corners and on shared edges.
    let mesh = Soup::from_ascii(&["....", ".##.", ".##.", "...."]).build();
    let domain = Domain::new(&mesh);
    let mut query = Query::new(&mesh);
    let points = [
        p(1.0, 1.0),
        p(3.0, 3.0),
        p(0.0, 0.0),
        p(2.0, 0.5),
        p(1.0, 2.0),
        p(3.5, 2.0),
        p(4.0, 4.0),
    ];
    for &s in &points {
        for &t in &points {
            let context = format!("{s} -> {t}");
            let length = run_both(&mesh, Some(&domain), &mut query, s, t, &context);
            let oracle = domain.shortest_length(domain.g(s), domain.g(t));
            assert!(
                (length - oracle).abs() <= 1e-6,
                "{context}: {length} vs {oracle}"
            );
        }
    }
}

/// The optimal mode searches a merged copy of the mesh while the filter admits every
/// polygon, and the mesh itself otherwise: flags changed between the queries of one
/// `Query` switch between the two.
#[test]
fn flags_changed_between_queries_switch_the_searched_mesh() {
    // A 3 x 3 grid of unit squares, each cut into two triangles.
    let at = |x: u32, z: u32| z * 4 + x;
    let vertices: Vec<Vec3> = (0..4)
        .flat_map(|z| (0..4).map(move |x| Vec3::new(x as f32, 0.0, z as f32)))
        .collect();
    let mut indices = Vec::new();
    for z in 0..3 {
        for x in 0..3 {
            indices.extend([at(x, z), at(x + 1, z), at(x + 1, z + 1)]);
            indices.extend([at(x, z), at(x + 1, z + 1), at(x, z + 1)]);
        }
    }
    let mesh = NavMesh::from_triangles(&vertices, &indices, &MeshOptions::default()).unwrap();
    let mut query = Query::new(&mesh);
    let (s, t) = (p(0.5, 1.5), p(2.5, 1.5));
    let straight = |query: &mut Query| {
        let path = query.find_path(s, t, &optimal()).unwrap();
        assert_eq!(path.status, PathStatus::Complete);
        ground_length(mesh.up_axis(), path.corners)
    };
    assert!((straight(&mut query) - 2.0).abs() < 1e-6);
    // Close the centre square (triangles 8 and 9): round it, bending at its corners.
    mesh.set_polygon_flags(8, 0).unwrap();
    mesh.set_polygon_flags(9, 0).unwrap();
    let around = 2.0 * (0.5f64.hypot(0.5)) + 1.0;
    let length = straight(&mut query);
    assert!((length - around).abs() < 1e-5, "{length} (want {around})");
    // Open it again.
    mesh.set_polygon_flags(8, 1).unwrap();
    mesh.set_polygon_flags(9, 1).unwrap();
    assert!((straight(&mut query) - 2.0).abs() < 1e-6);
}

/// A start within the rounding tolerance of `f32` coordinates of a polygon's edge counts
/// as in that polygon too (the start set), and the search looks from the start at that
/// polygon's other edges: an edge on the same line, which the start lies a few ulps
/// beyond, is seen edge-on from the wrong side. Found on a Recast tiled bake (the peers'
/// tests: the start 6 ulps from a tile side, near a merged polygon of the next tile).
#[test]
fn start_a_few_ulps_outside_a_start_polygon() {
    let mut soup = Soup::new();
    // A = 0..1 x 0..1 holds the start near its side x = 1; B = 1..2 x 0..3 has that side
    // (and a corner at (1, 1)) on its left; C = 0..1 x 1..3 is above A; the goal is in
    // E, reached from C round the corner (0, 2). F is alone and refused, so that the
    // search runs on these polygons rather than on their merged copy.
    soup.polygon_at(&[p(0., 0.), p(1., 0.), p(1., 1.), p(0., 1.)])
        .polygon_at(&[p(1., 0.), p(2., 0.), p(2., 3.), p(1., 3.), p(1., 1.)])
        .polygon_at(&[p(0., 1.), p(1., 1.), p(1., 3.), p(0., 3.), p(0., 2.)])
        .polygon_at(&[p(-1., 2.), p(0., 2.), p(0., 3.), p(-1., 3.)])
        .polygon_at(&[p(5., 0.), p(6., 0.), p(6., 1.), p(5., 1.)]);
    let mesh = soup.build();
    mesh.set_polygon_flags(4, 3).unwrap();
    let mut options = optimal();
    options.filter.exclude_flags = 2;
    let mut query = Query::new(&mesh);
    let (corner, goal) = (p(0.0, 2.0), p(-0.5, 2.5));
    for dx in [0.0f32, 1e-7, 2e-7, 5e-7, 8e-7] {
        let s = p(1.0 - dx, 0.5);
        let path = query.find_path(s, goal, &options).unwrap();
        assert_eq!(path.status, PathStatus::Complete);
        let length = ground_length(mesh.up_axis(), path.corners);
        let want = f64::from(s.distance(corner) + corner.distance(goal));
        assert!((length - want).abs() < 1e-5, "{s}: {length} vs {want}");
    }
}
