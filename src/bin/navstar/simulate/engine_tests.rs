//! Tests of the simulation: agents on a row of squares with a door, the checks that
//! catch a bad move, the plan budget.

use super::*;
use navstar::MeshOptions;

/// Four unit squares in a row along x (y up): 0, 1, 2, 3.
fn row() -> NavMesh {
    super::super::test_meshes::row_then_up(4, 0)
}

fn world(mesh: &NavMesh) -> World<'_> {
    World {
        mesh,
        query: Query::new(mesh),
        options: PathOptions::default(),
        filter: QueryFilter::default(),
        random: SplitMix64::new(1),
        step: 0.25,
        polygons: Vec::new(),
        visited: Vec::new(),
    }
}

/// A request for a path searched at once (no planner).
fn at_once() -> Asked<'static> {
    Asked {
        index: 0,
        frame: 0,
        planner: None,
    }
}

fn settings(agents: usize, steps: u32) -> Settings {
    Settings {
        agents,
        steps,
        step_length: 0.25,
        seed: 5,
        doors: 1,
        door_period: 10,
        keep_trails: true,
        plan_budget: None,
    }
}

#[test]
fn agents_walk_the_row_and_the_doors_are_opened_at_the_end() {
    let mesh = row();
    let report = run(&mesh, &settings(4, 200)).unwrap();
    assert!(report.arrivals > 4, "{report:?}");
    assert_eq!(report.doors.len(), 1);
    // The door cuts the row in two: some targets are cut off, some paths replanned.
    assert!(report.cut_offs + report.replans > 0, "{report:?}");
    assert!(report.door_changes >= 10, "{report:?}");
    assert_eq!(report.agent_micros.len(), 4 * 200);
    assert_eq!(report.frame_micros.len(), 200);
    assert!(
        mesh.polygon_ids()
            .all(|p| mesh.polygon_flags(p) == navstar::DEFAULT_FLAGS)
    );
    // Each trail stays in the row; no step is longer than 0.25.
    for trail in &report.trails {
        assert_eq!(trail.len(), 201);
        for pair in trail.windows(2) {
            assert!(pair[0].distance(pair[1]) <= 0.25 + 1e-5);
            assert!((0.0..=4.0).contains(&pair[1].x) && (0.0..=1.0).contains(&pair[1].z));
        }
    }
    let again = run(&mesh, &settings(4, 200)).unwrap();
    assert_eq!(again.trails, report.trails, "the same seed, the same walk");
    assert!(
        run(
            &mesh,
            &Settings {
                step_length: f32::NAN,
                ..settings(1, 1)
            }
        )
        .is_err()
    );
}

#[test]
fn with_a_plan_budget_agents_wait_for_sliced_searches_and_still_arrive() {
    let mesh = row();
    let budgeted = Settings {
        plan_budget: Some(2),
        ..settings(4, 200)
    };
    let report = run(&mesh, &budgeted).unwrap();
    assert!(report.arrivals > 4, "{report:?}");
    assert_eq!(report.plan_spent.len(), 200);
    assert!(report.plan_spent.iter().all(|&n| n <= 2), "{report:?}");
    // Four agents ask in the first frame; two expansions a frame cannot answer all.
    assert!(report.plan_waits.iter().any(|&w| w > 0), "{report:?}");
    let answered = report.plan_waits.len() as u64;
    assert!(answered <= report.plans && answered > 4, "{report:?}");
    // Without a budget nothing is measured.
    let whole = run(&mesh, &settings(4, 200)).unwrap();
    assert!(whole.plan_spent.is_empty() && whole.plan_waits.is_empty());
}

#[test]
fn the_checks_catch_an_agent_in_a_closed_polygon_or_off_the_mesh() {
    let mesh = row();
    let world = world(&mesh);
    let doors = Doors::choose(&mesh, 0, 1, &mut SplitMix64::new(1));
    let agent = Agent {
        corridor: PathCorridor::new(&mesh, 1, Vec3::new(1.5, 0.0, 0.5)).unwrap(),
        walking: false,
        waiting: false,
        frames_left: 0,
    };
    let here = agent.corridor.position();
    assert!(world.check(&agent, None, &doors).is_ok());
    // A step the corridor did not take: the positions disagree.
    let step = Step {
        polygon: 1,
        from: here,
        towards: Vec3::new(2.5, 0.0, 0.5),
    };
    let error = world.check(&agent, Some(step), &doors).unwrap_err();
    assert!(error.contains("the move along the surface at"), "{error}");
    mesh.set_polygon_flags(1, 0).unwrap();
    let error = world.check(&agent, None, &doors).unwrap_err();
    assert!(error.contains("closed polygon 1"), "{error}");
}

#[test]
fn a_direct_path_from_a_vertex_starts_where_the_query_started() {
    // The fan round (35, 18) of data/arena.mesh (z up) where agent 141 of
    // `simulate data/arena.mesh --agents 200 --steps 500 --doors 40 --door-period 5
    // --step-length 2 --seed 1` was stuck: 0 = (35,15) (47,15) (35,18),
    // 1 = (35,18) (47,19) (34,19), 2 = (35,18) (34,19) (34,18),
    // 3 = (35,18) (47,15) (47,19) (a door); a wall between 2 and 0. (In this order the
    // query snaps the vertex to 0, as it snapped it to 81 in the arena.)
    let v = |x: f32, y: f32| Vec3::new(x, y, 0.0);
    let vertices = [
        v(35.0, 18.0),
        v(47.0, 19.0),
        v(34.0, 19.0),
        v(34.0, 18.0),
        v(47.0, 15.0),
        v(35.0, 15.0),
    ];
    let indices = [
        5, 4, 0, /**/ 0, 1, 2, /**/ 0, 2, 3, /**/ 0, 4, 1,
    ];
    let options = MeshOptions::default().with_up_axis(navstar::UpAxis::Z);
    let mesh = NavMesh::from_polygons(&vertices, &indices, &[3; 4], &options).unwrap();
    mesh.set_polygon_flags(3, 0).unwrap();
    let mut world = world(&mesh);
    world.step = 2.0;
    let mut report = Report::default();
    // The agent stands on the vertex, its corridor in 1; its target is in 0, in
    // direct sight from the vertex (the query starts in 0), but the walk from 1 slides
    // along the closed door.
    let mut agent = Agent {
        corridor: PathCorridor::new(&mesh, 1, v(35.0, 18.0)).unwrap(),
        walking: false,
        waiting: false,
        frames_left: 0,
    };
    let target = v(35.747_906, 15.747_589);
    world.plan(&mut agent, target, &mut report).unwrap();
    assert!(agent.walking);
    assert_eq!(agent.corridor.polygons(), [0]);
    assert!(agent.corridor.target().distance(target) < 1e-5);
    let doors = Doors::choose(&mesh, 0, 1, &mut SplitMix64::new(1));
    // 2.37 to walk at 2 a frame: two moves, then the arrival.
    for _ in 0..3 {
        let step = world
            .step_agent(&mut agent, at_once(), &mut report)
            .unwrap();
        world.check(&agent, step, &doors).unwrap();
    }
    assert_eq!(report.arrivals, 1);
    let at = agent.corridor.position();
    assert!(at.distance(target) < 1e-5, "at {at}");
}

#[test]
fn an_agent_that_does_not_arrive_in_time_fails() {
    let mesh = row();
    let mut world = world(&mesh);
    let mut report = Report::default();
    let mut agent = Agent {
        corridor: PathCorridor::new(&mesh, 0, Vec3::new(0.5, 0.0, 0.5)).unwrap(),
        walking: false,
        waiting: false,
        frames_left: 0,
    };
    world
        .plan(&mut agent, Vec3::new(3.5, 0.0, 0.5), &mut report)
        .unwrap();
    assert!(agent.walking);
    // 3 units at 0.25: 12 frames and a corner, doubled, and 8 to spare.
    assert_eq!(agent.frames_left, 2 * (12 + 2) + 8);
    agent.frames_left = 1;
    assert!(world.step_agent(&mut agent, at_once(), &mut report).is_ok());
    let error = world
        .step_agent(&mut agent, at_once(), &mut report)
        .unwrap_err();
    assert!(error.contains("did not reach its target"), "{error}");
}
