//! The simulation itself: agents that walk to random targets along their
//! [`PathCorridor`]s while doors close and open, and the checks of every frame.
//!
//! Dependency-free apart from `navstar` and [`super::doors`], so that the command
//! (`navstar simulate`) and `examples/simulate.rs` run the same code: the example
//! includes this file and `doors.rs` with `#[path]`.

use std::time::Instant;

use navstar::glam::Vec3;
use navstar::{
    NavMesh, PathCorridor, PathOptions, PathStatus, Query, QueryFilter, Repair, SplitMix64,
};

use super::doors::Doors;

/// How many polygons ahead an agent checks each frame for a closed door.
const LOOK_AHEAD: usize = 32;

/// Mixed into the seed for the doors' own stream, so that the doors do not depend on
/// the number of agents.
const DOOR_STREAM: u64 = 0xD00D_5EED_0000_0001;

/// What to simulate.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Number of agents.
    pub agents: usize,
    /// Number of frames.
    pub steps: u32,
    /// Distance an agent walks per frame, in world units.
    pub step_length: f32,
    /// Seed of the agents' targets and of the doors.
    pub seed: u64,
    /// Number of doors.
    pub doors: usize,
    /// Frames a door stays open, then closed.
    pub door_period: u32,
    /// Whether to record every agent's position every frame.
    pub keep_trails: bool,
}

/// What a simulation measured and counted.
#[derive(Debug, Default)]
pub struct Report {
    /// Time of each frame (doors and all agents' steps, not the checks), microseconds.
    pub frame_micros: Vec<f64>,
    /// Time of each agent's step in each frame, microseconds.
    pub agent_micros: Vec<f64>,
    /// Targets reached.
    pub arrivals: u64,
    /// Targets given up because a path to them found them cut off by closed doors.
    pub cut_offs: u64,
    /// Paths planned (first ones, and corridors repaired after a closed door ahead).
    pub plans: u64,
    /// Repairs because a door ahead closed (part of [`Report::plans`]).
    pub replans: u64,
    /// Doors opened or closed.
    pub door_changes: u64,
    /// Total distance walked by all agents, world units.
    pub walked: f64,
    /// The door polygons.
    pub doors: Vec<u32>,
    /// Each agent's positions, one a frame (with [`Settings::keep_trails`]).
    pub trails: Vec<Vec<Vec3>>,
}

/// One agent: its corridor, whether it has a target, and the frames it has left to reach
/// it before the check fails.
struct Agent {
    corridor: PathCorridor,
    walking: bool,
    frames_left: u32,
}

/// The move of one agent's frame: from `from` in polygon `polygon` towards `towards`.
#[derive(Debug, Clone, Copy)]
struct Step {
    polygon: u32,
    from: Vec3,
    towards: Vec3,
}

/// The simulation state shared by all agents.
struct World<'m> {
    mesh: &'m NavMesh,
    query: Query,
    options: PathOptions,
    filter: QueryFilter,
    random: SplitMix64,
    step: f32,
    polygons: Vec<u32>,
    visited: Vec<u32>,
}

/// Runs the simulation on `mesh` (its flags are changed while it runs and restored at
/// the end).
///
/// # Errors
/// A message naming the frame and agent when a check fails: an agent off the mesh or in a
/// closed polygon, a move through a closed polygon, an agent that does not reach a target
/// its path reached within twice the path's frames; or when the mesh has no walkable area.
pub fn run(mesh: &NavMesh, settings: &Settings) -> Result<Report, String> {
    if !(settings.step_length.is_finite() && settings.step_length > 0.0) {
        return Err(format!(
            "the step length must be positive and finite, not {}",
            settings.step_length
        ));
    }
    let mut door_random = SplitMix64::new(settings.seed ^ DOOR_STREAM);
    let mut doors = Doors::choose(mesh, settings.doors, settings.door_period, &mut door_random);
    let result = simulate(mesh, settings, &mut doors);
    doors.open_all(mesh);
    result
}

fn simulate(mesh: &NavMesh, settings: &Settings, doors: &mut Doors) -> Result<Report, String> {
    let mut world = World {
        mesh,
        query: Query::new(mesh),
        options: PathOptions::default(),
        filter: QueryFilter::default(),
        random: SplitMix64::new(settings.seed),
        step: settings.step_length,
        polygons: Vec::new(),
        visited: Vec::new(),
    };
    let mut report = Report {
        doors: doors.polygons().to_vec(),
        ..Report::default()
    };
    let mut agents = Vec::with_capacity(settings.agents);
    for _ in 0..settings.agents {
        let random = &mut world.random;
        let start = mesh
            .random_point(&world.filter, &mut || random.next_u64())
            .map_err(|e| format!("cannot place an agent: {e}"))?;
        agents.push(Agent {
            corridor: PathCorridor::new(mesh, start.polygon, start.point)
                .map_err(|e| format!("cannot place an agent: {e}"))?,
            walking: false,
            frames_left: 0,
        });
    }
    if settings.keep_trails {
        report.trails = agents.iter().map(|a| vec![a.corridor.position()]).collect();
    }
    let total = settings.agents * settings.steps as usize;
    report.agent_micros.reserve(total);
    for frame in 0..settings.steps {
        let started = Instant::now();
        let occupied = |door: u32| agents.iter().any(|a| a.corridor.polygons()[0] == door);
        report.door_changes += u64::from(doors.update(mesh, frame, occupied)?);
        let mut frame_micros = started.elapsed().as_secs_f64() * 1e6;
        for (index, agent) in agents.iter_mut().enumerate() {
            let started = Instant::now();
            let step = world.step_agent(agent, &mut report);
            let micros = started.elapsed().as_secs_f64() * 1e6;
            let step = step.map_err(|e| format!("frame {frame}: agent {index}: {e}"))?;
            report.agent_micros.push(micros);
            frame_micros += micros;
            world
                .check(agent, step, doors)
                .map_err(|e| format!("frame {frame}: agent {index}: {e}"))?;
            if let Some(step) = step {
                report.walked += f64::from(step.from.distance(agent.corridor.position()));
            }
            if settings.keep_trails {
                report.trails[index].push(agent.corridor.position());
            }
        }
        report.frame_micros.push(frame_micros);
    }
    Ok(report)
}

impl World<'_> {
    /// One frame of `agent`: a target when it has none, a new path when a door closed
    /// ahead, then a step towards its next corner. Returns the move, if it made one.
    fn step_agent(
        &mut self,
        agent: &mut Agent,
        report: &mut Report,
    ) -> Result<Option<Step>, String> {
        if !agent.walking {
            let random = &mut self.random;
            let target = self
                .mesh
                .random_point(&self.filter, &mut || random.next_u64())
                .map_err(|e| format!("no target: {e}"))?;
            self.plan(agent, target.point, report)?;
        } else if !agent.corridor.is_valid(LOOK_AHEAD, &self.filter) {
            report.replans += 1;
            self.repair(agent, report)?;
        }
        if !agent.walking {
            return Ok(None);
        }
        let Some(&next) = agent.corridor.corners(1).first() else {
            report.arrivals += 1;
            agent.walking = false;
            return Ok(None);
        };
        if agent.frames_left == 0 {
            return Err(format!(
                "did not reach its target {} (still at {})",
                agent.corridor.target(),
                agent.corridor.position()
            ));
        }
        agent.frames_left -= 1;
        let here = agent.corridor.position();
        let to = next - here;
        let goal = if to.length() <= self.step {
            next
        } else {
            here + to * (self.step / to.length())
        };
        let polygon = agent.corridor.polygons()[0];
        agent
            .corridor
            .move_position(goal, &self.filter)
            .map_err(|e| format!("move from {here} towards {goal} failed: {e}"))?;
        Ok(Some(Step {
            polygon,
            from: here,
            towards: goal,
        }))
    }

    /// Repairs the agent's corridor after a door closed on it: a search from the last
    /// open polygon before the door only ([`PathCorridor::repair`]), keeping the corridor
    /// up to there; a target cut off is given up and counted. A new plan from the agent
    /// when the corridor cannot be repaired (its own polygon closed).
    fn repair(&mut self, agent: &mut Agent, report: &mut Report) -> Result<(), String> {
        match agent.corridor.repair(&mut self.query, &self.options) {
            Ok(Repair::CutOff { .. }) => {
                report.plans += 1;
                report.cut_offs += 1;
                agent.walking = false;
                Ok(())
            }
            Ok(_) => {
                report.plans += 1;
                // Frames of the way left at a full step each, one more per corner, doubled.
                let here = agent.corridor.position();
                let corners = agent.corridor.corners(usize::MAX);
                let mut at = here;
                let length: f32 = corners
                    .iter()
                    .map(|&c| {
                        let d = at.distance(c);
                        at = c;
                        d
                    })
                    .sum();
                let frames = (length / self.step).ceil() as u32 + corners.len() as u32 + 1;
                agent.frames_left = frames.saturating_mul(2).saturating_add(8);
                Ok(())
            }
            Err(_) => {
                let target = agent.corridor.target();
                self.plan(agent, target, report)
            }
        }
    }

    /// Plans a path from the agent to `target` and sets its corridor; a target cut off
    /// by closed doors (partial path) is given up and counted.
    fn plan(&mut self, agent: &mut Agent, target: Vec3, report: &mut Report) -> Result<(), String> {
        report.plans += 1;
        let start = agent.corridor.position();
        let path = self
            .query
            .find_path(start, target, &self.options)
            .map_err(|e| format!("path from {start} to {target} failed: {e}"))?;
        if path.status != PathStatus::Complete {
            report.cut_offs += 1;
            agent.walking = false;
            return Ok(());
        }
        let goal = *path.corners.last().expect("a path has corners");
        let length = path.length();
        let corners = path.corners.len() as u32;
        self.polygons.clear();
        self.polygons.extend(self.query.corridor());
        let here = agent.corridor.polygons()[0];
        if self.polygons.is_empty() {
            // Answered without a search (one polygon, or in direct sight): the polygons
            // a straight walk crosses, from the polygon the query started in (the same
            // snapping: `None`). Not from the agent's polygon: an agent on a vertex is on
            // several polygons, and the one the query chose may touch the agent's only at
            // that vertex, with a closed door between them; the walk from the agent's
            // would slide along the door instead.
            self.mesh
                .move_along_surface(None, start, goal, &self.filter, &mut self.visited)
                .map_err(|e| format!("walk from {start} to {goal} failed: {e}"))?;
            self.polygons.extend_from_slice(&self.visited);
        }
        if self.polygons[0] != here {
            agent.corridor = PathCorridor::new(self.mesh, self.polygons[0], start)
                .map_err(|e| format!("corridor from {start} refused: {e}"))?;
        }
        agent
            .corridor
            .set_corridor(goal, &self.polygons)
            .map_err(|e| format!("corridor to {goal} refused: {e}"))?;
        agent.walking = true;
        // Frames of the path at a full step each, one more per corner, doubled.
        let frames = (length / self.step).ceil() as u32 + corners;
        agent.frames_left = frames.saturating_mul(2).saturating_add(8);
        Ok(())
    }

    /// The checks of one agent's frame: its move (if any) walked through open polygons
    /// only and ended where the corridor says; the agent stands on an open polygon of the
    /// mesh.
    fn check(&self, agent: &Agent, step: Option<Step>, doors: &Doors) -> Result<(), String> {
        let position = agent.corridor.position();
        let tolerance = 1e-3 * position.abs().max_element().max(1.0);
        if let Some(Step {
            polygon: first,
            from: before,
            towards: goal,
        }) = step
        {
            let mesh = self.mesh;
            let mut closed = None;
            let moved = mesh
                .move_along_surface_with(Some(first), before, goal, &self.filter, |p| {
                    if !self.filter.admits(mesh.polygon_flags(p)) {
                        closed.get_or_insert(p);
                    }
                })
                .map_err(|e| format!("check move failed: {e}"))?;
            if let Some(p) = closed {
                return Err(format!("walked through closed polygon {p}"));
            }
            if moved.point.distance(position) > tolerance {
                return Err(format!(
                    "the corridor put the agent at {position}, the move along the surface at {}",
                    moved.point
                ));
            }
        }
        let polygon = agent.corridor.polygons()[0];
        let flags = self.mesh.polygon_flags(polygon);
        if !self.filter.admits(flags) || doors.is_closed(polygon) {
            return Err(format!(
                "stands in closed polygon {polygon} (flags {flags:#x})"
            ));
        }
        let on = self.mesh.closest_point_on_polygon(polygon, position);
        if on.distance(position) > tolerance {
            return Err(format!(
                "at {position}, off its polygon {polygon} (nearest {on})"
            ));
        }
        match self
            .mesh
            .nearest_point(position, tolerance, Some(&self.filter))
        {
            Some(_) => Ok(()),
            None => Err(format!("at {position}, off the open mesh")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use navstar::MeshOptions;

    /// Four unit squares in a row along x (y up): 0, 1, 2, 3.
    fn row() -> NavMesh {
        let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
        let vertices: Vec<Vec3> = (0..5)
            .map(|x| v(x as f32, 0.0))
            .chain((0..5).map(|x| v(x as f32, 1.0)))
            .collect();
        let indices: Vec<u32> = (0..4).flat_map(|i| [i, i + 1, i + 6, i + 5]).collect();
        NavMesh::from_polygons(&vertices, &indices, &[4; 4], &MeshOptions::default()).unwrap()
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

    fn settings(agents: usize, steps: u32) -> Settings {
        Settings {
            agents,
            steps,
            step_length: 0.25,
            seed: 5,
            doors: 1,
            door_period: 10,
            keep_trails: true,
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
    fn the_checks_catch_an_agent_in_a_closed_polygon_or_off_the_mesh() {
        let mesh = row();
        let world = world(&mesh);
        let doors = Doors::choose(&mesh, 0, 1, &mut SplitMix64::new(1));
        let agent = Agent {
            corridor: PathCorridor::new(&mesh, 1, Vec3::new(1.5, 0.0, 0.5)).unwrap(),
            walking: false,
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
            let step = world.step_agent(&mut agent, &mut report).unwrap();
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
            frames_left: 0,
        };
        world
            .plan(&mut agent, Vec3::new(3.5, 0.0, 0.5), &mut report)
            .unwrap();
        assert!(agent.walking);
        // 3 units at 0.25: 12 frames and a corner, doubled, and 8 to spare.
        assert_eq!(agent.frames_left, 2 * (12 + 2) + 8);
        agent.frames_left = 1;
        assert!(world.step_agent(&mut agent, &mut report).is_ok());
        let error = world.step_agent(&mut agent, &mut report).unwrap_err();
        assert!(error.contains("did not reach its target"), "{error}");
    }
}
