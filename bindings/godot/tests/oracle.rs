//! The binding's plain-Rust layer gives navstar's own answers: on random grids of unit
//! squares with random areas, flags and holes, every query through `Navigator` (with the
//! class's properties as `Settings`) equals the same query made directly on a `NavMesh`
//! and `Query` with options built independently here, for a point agent and for discs
//! of a few radii (`agent_radius`).

use navstar::glam::Vec3;
use navstar::{MeshInput, MeshOptions, NavMesh, PathMode, PathOptions, Query, QueryFilter};
use navstar_godot::extras;
use navstar_godot::navigator::{Navigator, Settings};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

const W: usize = 5;
const H: usize = 4;

/// A random case: which cells exist, their areas and flags, the filter and two points.
#[derive(Debug, Clone)]
struct Case {
    cells: Vec<bool>,
    areas: Vec<u8>,
    flags: Vec<u32>,
    include: u32,
    exclude: u32,
    costs: Vec<f32>,
    optimal: bool,
    from: [f32; 3],
    to: [f32; 3],
    max_cost: f32,
    radius: f32,
}

fn case() -> impl Strategy<Value = Case> {
    let point = (0.0f32..W as f32, 0.0f32..H as f32).prop_map(|(x, z)| [x, 0.0, z]);
    (
        prop::collection::vec(prop::bool::weighted(0.8), W * H),
        prop::collection::vec(0u8..3, W * H),
        prop::collection::vec(0u32..4, W * H),
        1u32..4,
        0u32..3,
        prop::collection::vec(0.5f32..4.0, 0..3),
        any::<bool>(),
        point.clone(),
        point,
        0.0f32..6.0,
        prop_oneof![Just(0.0f32), Just(0.2f32), Just(0.35f32)],
    )
        .prop_map(
            |(
                cells,
                areas,
                flags,
                include,
                exclude,
                costs,
                optimal,
                from,
                to,
                max_cost,
                radius,
            )| Case {
                cells,
                areas,
                flags,
                include,
                exclude,
                costs,
                optimal,
                from,
                to,
                max_cost,
                radius,
            },
        )
}

/// A grid in the shapes GDScript hands over.
struct Grid {
    vertices: Vec<[f32; 3]>,
    polygons: Vec<Vec<i32>>,
    areas: Vec<i32>,
    flags: Vec<i32>,
}

/// The grid's vertices (all lattice points) and the squares of the cells present, with
/// their areas and flags.
fn grid(case: &Case) -> Grid {
    let vertices = (0..=H)
        .flat_map(|z| (0..=W).map(move |x| [x as f32, 0.0, z as f32]))
        .collect();
    let id = |x: usize, z: usize| (z * (W + 1) + x) as i32;
    let (mut polygons, mut areas, mut flags) = (Vec::new(), Vec::new(), Vec::new());
    for z in 0..H {
        for x in 0..W {
            let cell = z * W + x;
            if case.cells[cell] {
                polygons.push(vec![id(x, z), id(x + 1, z), id(x + 1, z + 1), id(x, z + 1)]);
                areas.push(i32::from(case.areas[cell]));
                flags.push(case.flags[cell] as i32);
            }
        }
    }
    Grid {
        vertices,
        polygons,
        areas,
        flags,
    }
}

fn config() -> Config {
    let defaults = Config::default();
    // A fixed seed unless PROPTEST_RNG_SEED asks for another, so failures replay.
    let seed = match defaults.rng_seed {
        RngSeed::Fixed(seed) => seed,
        RngSeed::Random => 0x6e61_7673,
    };
    Config {
        cases: 96,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        ..defaults
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn navigator_answers_as_navstar(case in case()) {
        let Grid { vertices, polygons, areas, flags } = grid(&case);
        prop_assume!(!polygons.is_empty());
        let settings = Settings {
            include_flags: i64::from(case.include),
            exclude_flags: i64::from(case.exclude),
            area_costs: &case.costs,
            path_mode: i64::from(case.optimal),
            agent_radius: case.radius,
            ..Settings::default()
        };
        let mut nav = Navigator::default();
        nav.build_with(
            vertices.iter().copied(),
            polygons.iter().map(Vec::as_slice),
            &extras::extras(&areas, &flags, Vec::new()).unwrap(),
            &settings,
        )
        .unwrap();

        // The oracle: the same mesh and options, straight from navstar.
        let points: Vec<Vec3> = vertices.iter().map(|&v| Vec3::from_array(v)).collect();
        let indices: Vec<u32> = polygons.iter().flatten().map(|&i| i as u32).collect();
        let sizes = vec![4u32; polygons.len()];
        let areas8: Vec<u8> = areas.iter().map(|&a| a as u8).collect();
        let flags32: Vec<u32> = flags.iter().map(|&f| f as u32).collect();
        let input = MeshInput::new(&points, &indices)
            .with_polygon_sizes(&sizes)
            .with_areas(&areas8)
            .with_flags(&flags32);
        let mesh = NavMesh::from_input(&input, &MeshOptions::default()).unwrap();
        let mut filter = QueryFilter::default()
            .with_include_flags(case.include)
            .with_exclude_flags(case.exclude);
        for (area, &cost) in case.costs.iter().enumerate() {
            filter = filter.with_area_cost(area as u8, cost);
        }
        let mode = if case.optimal { PathMode::Optimal } else { PathMode::Funnel };
        let options = PathOptions::default()
            .with_filter(filter.clone())
            .with_mode(mode)
            .with_agent_radius(case.radius);
        let mut query = Query::new(&mesh);
        let (from, to) = (Vec3::from_array(case.from), Vec3::from_array(case.to));

        // Paths, their details and cost.
        let expected = query.find_path(from, to, &options).map(|p| p.to_owned_path());
        let got = nav.find_path(case.from, case.to, &settings).map(<[Vec3]>::to_vec);
        match (&expected, &got) {
            (Ok(path), Ok(corners)) => {
                prop_assert_eq!(&path.corners, corners);
                let flags: Vec<i32> = path.details.iter().map(|d| i32::from(d.flags.bits())).collect();
                prop_assert_eq!(nav.last_corner_flags().collect::<Vec<_>>(), flags);
                let areas: Vec<i32> = path.details.iter().map(|d| i32::from(d.area)).collect();
                prop_assert_eq!(nav.last_corner_areas().collect::<Vec<_>>(), areas);
                prop_assert_eq!(nav.last_cost(), path.cost);
                prop_assert_eq!(nav.last_partial(), path.status.is_partial());
                let corridor: Vec<i64> = query.corridor().map(i64::from).collect();
                prop_assert_eq!(nav.last_corridor(), corridor);
                prop_assert_eq!(nav.last_error(), "");
            }
            (Err(e), Err(_)) => prop_assert_eq!(nav.last_error(), e.to_string()),
            _ => prop_assert!(false, "navstar {:?}, binding {:?}", expected, got),
        }

        // Raycast.
        let ray = mesh.raycast_for_agent(from, to, &filter, case.radius);
        prop_assert_eq!(nav.raycast(case.from, case.to, &settings).ok(), ray.ok());

        // Closest point.
        let above = from + Vec3::Y;
        let nearest = mesh.nearest_point_for_agent(above, f32::INFINITY, Some(&filter), case.radius);
        prop_assert_eq!(nav.closest_point(above.to_array(), &settings).ok(), nearest.ok());

        // Reachable polygons.
        let reached = query
            .reachable_polygons_for_agent(from, case.max_cost, &filter, f32::INFINITY, case.radius)
            .map(|r| r.iter().map(|r| (i64::from(r.polygon), r.cost, r.parent.map_or(-1, i64::from))).collect::<Vec<_>>());
        let got = nav.reachable(case.from, case.max_cost, &settings).map(|r| {
            (0..r.polygons.len()).map(|i| (r.polygons[i], r.costs[i], r.parents[i])).collect::<Vec<_>>()
        });
        prop_assert_eq!(got.ok(), reached.ok());

        // Nearest target: the two points as targets from the first.
        let targets = [to, from + Vec3::new(0.01, 0.0, 0.0)];
        let expected = query
            .find_nearest_target(from, &targets, &options)
            .map(|n| (n.target, n.path.corners.to_vec()));
        let got = nav
            .nearest_target(case.from, &targets, &settings)
            .map(|(t, c)| (t, c.to_vec()));
        prop_assert_eq!(got.ok(), expected.ok());
    }
}

/// The mesh of `case` straight from navstar, and the filter of its properties, built
/// independently of the binding.
fn oracle_mesh(case: &Case, grid: &Grid) -> (NavMesh, QueryFilter) {
    let points: Vec<Vec3> = grid.vertices.iter().map(|&v| Vec3::from_array(v)).collect();
    let indices: Vec<u32> = grid.polygons.iter().flatten().map(|&i| i as u32).collect();
    let sizes = vec![4u32; grid.polygons.len()];
    let areas8: Vec<u8> = grid.areas.iter().map(|&a| a as u8).collect();
    let flags32: Vec<u32> = grid.flags.iter().map(|&f| f as u32).collect();
    let input = MeshInput::new(&points, &indices)
        .with_polygon_sizes(&sizes)
        .with_areas(&areas8)
        .with_flags(&flags32);
    let mesh = NavMesh::from_input(&input, &MeshOptions::default()).unwrap();
    let mut filter = QueryFilter::default()
        .with_include_flags(case.include)
        .with_exclude_flags(case.exclude);
    for (area, &cost) in case.costs.iter().enumerate() {
        filter = filter.with_area_cost(area as u8, cost);
    }
    (mesh, filter)
}

proptest! {
    #![proptest_config(config())]

    /// Moves, wall distances, random points, time-sliced paths and corridors through
    /// the binding equal navstar's own calls.
    #[test]
    fn agent_queries_answer_as_navstar(case in case()) {
        let g = grid(&case);
        prop_assume!(!g.polygons.is_empty());
        let settings = Settings {
            include_flags: i64::from(case.include),
            exclude_flags: i64::from(case.exclude),
            area_costs: &case.costs,
            agent_radius: case.radius,
            ..Settings::default()
        };
        let mut nav = Navigator::default();
        nav.build_with(
            g.vertices.iter().copied(),
            g.polygons.iter().map(Vec::as_slice),
            &extras::extras(&g.areas, &g.flags, Vec::new()).unwrap(),
            &settings,
        )
        .unwrap();
        let (mesh, filter) = oracle_mesh(&case, &g);
        let options = PathOptions::default()
            .with_filter(filter.clone())
            .with_agent_radius(case.radius);
        let mut query = Query::new(&mesh);
        let (from, to) = (Vec3::from_array(case.from), Vec3::from_array(case.to));

        // A move along the surface, from the polygon nearest the start.
        let mut visited = Vec::new();
        let expected = mesh.nearest_point(from, f32::INFINITY, Some(&filter)).map(|start| {
            mesh.move_along_surface_for_agent(Some(start.polygon), from, to, &filter, settings.agent_radius, &mut visited)
                .unwrap()
        });
        let got = nav.move_along_surface(case.from, case.to, &settings).ok();
        prop_assert_eq!(got.as_ref().map(|m| m.surface), expected);
        if let Some(m) = got {
            let polygons: Vec<i64> = visited.iter().map(|&p| i64::from(p)).collect();
            prop_assert_eq!(m.polygons, polygons);
        }

        // The nearest wall within max_cost.
        let wall = query.distance_to_wall_for_agent(from, case.max_cost, &filter, settings.agent_radius);
        prop_assert_eq!(nav.distance_to_wall(case.from, case.max_cost, &settings).ok(), wall.ok());

        // Random points, seeded from the case.
        let seed = i64::from(case.from[0].to_bits()) * 31 + i64::from(case.to[2].to_bits());
        let mut rng = navstar::SplitMix64::new(seed as u64);
        let expected = mesh.random_point_for_agent(&filter, settings.agent_radius, &mut || rng.next_u64());
        prop_assert_eq!(nav.random_point(seed, &settings).ok(), expected.ok());
        let mut rng = navstar::SplitMix64::new(seed as u64);
        let expected = query.random_point_around_for_agent(from, case.max_cost, &filter, settings.agent_radius, &mut || rng.next_u64());
        prop_assert_eq!(nav.random_point_around(case.from, case.max_cost, seed, &settings).ok(), expected.ok());

        // A time-sliced path, a few expansions at a time, equals the one-shot path.
        let whole = query.find_path(from, to, &options).map(|p| p.to_owned_path());
        let sliced = nav.begin_path(case.from, case.to, &settings).and_then(|_| {
            while nav.advance_path(3)?.status == navstar::SliceStatus::InProgress {}
            nav.finish_path().map(<[Vec3]>::to_vec)
        });
        match (&whole, &sliced) {
            (Ok(path), Ok(corners)) => {
                prop_assert_eq!(&path.corners, corners);
                prop_assert_eq!(nav.last_cost(), path.cost);
                prop_assert_eq!(nav.last_partial(), path.status.is_partial());
            }
            (Err(e), Err(_)) => prop_assert_eq!(nav.last_error(), e.to_string()),
            _ => prop_assert!(false, "navstar {:?}, binding {:?}", whole, sliced),
        }

        // A corridor along that path: its corners (cheapest under the area costs) equal
        // navstar's corridor's, before and after a step towards the first corner.
        if let Ok(path) = &whole {
            let polygons: Vec<u32> = query.corridor().collect();
            if let (Ok(mut follower), false) = (nav.corridor_from_last_path(&settings), polygons.is_empty()) {
                let (start, end) = (path.corners[0], *path.corners.last().unwrap());
                let mut core = navstar::PathCorridor::new(&mesh, polygons[0], start).unwrap();
                core.set_corridor(end, &polygons).unwrap();
                let (corners, _) = follower.corners(8).unwrap();
                prop_assert_eq!(corners.as_slice(), core.corners_with_details(8, &options).0);
                if let Some(&next) = corners.first() {
                    let step = start.lerp(next, 0.5);
                    prop_assert_eq!(follower.move_position(step.to_array()).ok(), core.move_position(step, &filter).ok());
                    prop_assert_eq!(follower.position(), core.position());
                    let (after, _) = follower.corners(8).unwrap();
                    prop_assert_eq!(after.as_slice(), core.corners_with_details(8, &options).0);
                }
            }
        }
    }
}
