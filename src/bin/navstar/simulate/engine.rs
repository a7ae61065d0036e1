//! The simulation itself: agents that walk to random targets along their
//! [`PathCorridor`]s while doors close and open, and the checks of every frame.
//!
//! Dependency-free apart from `navstar`, [`super::doors`] and [`super::planner`], so
//! that the command (`navstar simulate`) and `examples/simulate.rs` run the same code:
//! the example includes the three files with `#[path]`.

use std::time::Instant;

use navstar::glam::Vec3;
use navstar::{
    NavMesh, PathCorridor, PathOptions, PathStatus, Query, QueryFilter, Repair, SplitMix64,
};

use super::doors::Doors;
use super::planner::{Planned, Planner, Request};

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
    /// `Some(n)`: new paths are planned by time-sliced searches that spend at most `n`
    /// node expansions per frame in all ([`Planner`]), agents waiting for theirs;
    /// `None`: each path is searched whole when asked for.
    pub plan_budget: Option<u32>,
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
    /// With [`Settings::plan_budget`]: the expansions planning spent in each frame.
    pub plan_spent: Vec<u32>,
    /// With [`Settings::plan_budget`]: for each path planned, the frames from the
    /// request to the answer (0: answered in the frame it was asked in).
    pub plan_waits: Vec<u32>,
    /// With [`Settings::plan_budget`]: requests still queued or searched at the end.
    pub plan_unanswered: usize,
}

/// One agent: its corridor, whether it has a target, and the frames it has left to reach
/// it before the check fails.
struct Agent {
    corridor: PathCorridor,
    walking: bool,
    /// Waiting for the [`Planner`] to answer its request.
    waiting: bool,
    frames_left: u32,
}

/// Who asks for a path in [`World::step_agent`]: the agent's index and the frame, and the
/// planner to queue the request with (`None`: the path is searched at once).
struct Asked<'p> {
    index: usize,
    frame: u32,
    planner: Option<&'p mut Planner>,
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
            waiting: false,
            frames_left: 0,
        });
    }
    let mut planner = settings
        .plan_budget
        .map(|budget| Planner::new(mesh, world.options.clone(), budget));
    if settings.keep_trails {
        report.trails = agents.iter().map(|a| vec![a.corridor.position()]).collect();
    }
    let total = settings.agents * settings.steps as usize;
    report.agent_micros.reserve(total);
    for frame in 0..settings.steps {
        let started = Instant::now();
        let occupied = |door: u32| agents.iter().any(|a| a.corridor.polygons()[0] == door);
        report.door_changes += u64::from(doors.update(mesh, frame, occupied)?);
        if let Some(planner) = planner.as_mut() {
            let spent = planner
                .run_frame(|planned, corridor| {
                    report.plan_waits.push(frame - planned.request.frame);
                    let agent = &mut agents[planned.request.agent];
                    agent.waiting = false;
                    world.adopt_planned(agent, planned, corridor, &mut report)
                })
                .map_err(|e| format!("frame {frame}: planning: {e}"))?;
            report.plan_spent.push(spent);
        }
        let mut frame_micros = started.elapsed().as_secs_f64() * 1e6;
        for (index, agent) in agents.iter_mut().enumerate() {
            let started = Instant::now();
            let asked = Asked {
                index,
                frame,
                planner: planner.as_mut(),
            };
            let step = world.step_agent(agent, asked, &mut report);
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
    report.plan_unanswered = planner.as_ref().map_or(0, Planner::pending);
    Ok(report)
}

impl World<'_> {
    /// One frame of `agent`: a target when it has none, a new path when a door closed
    /// ahead, then a step towards its next corner. Returns the move, if it made one.
    fn step_agent(
        &mut self,
        agent: &mut Agent,
        asked: Asked<'_>,
        report: &mut Report,
    ) -> Result<Option<Step>, String> {
        if agent.waiting {
            return Ok(None);
        }
        if !agent.walking {
            let random = &mut self.random;
            let target = self
                .mesh
                .random_point(&self.filter, &mut || random.next_u64())
                .map_err(|e| format!("no target: {e}"))?;
            if let Some(planner) = asked.planner {
                planner.request(Request {
                    agent: asked.index,
                    start: agent.corridor.position(),
                    target: target.point,
                    frame: asked.frame,
                });
                agent.waiting = true;
                return Ok(None);
            }
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
        let start = agent.corridor.position();
        let path = self
            .query
            .find_path(start, target, &self.options)
            .map_err(|e| format!("path from {start} to {target} failed: {e}"))?;
        let planned = Planned {
            request: Request {
                agent: 0,
                start,
                target,
                frame: 0,
            },
            status: path.status,
            goal: *path.corners.last().expect("a path has corners"),
            length: path.length(),
            corners: path.corners.len() as u32,
        };
        self.polygons.clear();
        self.polygons.extend(self.query.corridor());
        self.adopt(agent, &planned, report)
    }

    /// [`World::adopt`] for a path the [`Planner`] found, with its `corridor`.
    fn adopt_planned(
        &mut self,
        agent: &mut Agent,
        planned: &Planned,
        corridor: &[u32],
        report: &mut Report,
    ) -> Result<(), String> {
        self.polygons.clear();
        self.polygons.extend_from_slice(corridor);
        self.adopt(agent, planned, report)
    }

    /// Gives `agent` the path `planned` (searched from where the agent stands), whose
    /// corridor is in `self.polygons`; a target cut off by closed doors (partial path)
    /// is given up and counted.
    fn adopt(
        &mut self,
        agent: &mut Agent,
        planned: &Planned,
        report: &mut Report,
    ) -> Result<(), String> {
        report.plans += 1;
        if planned.status != PathStatus::Complete {
            report.cut_offs += 1;
            agent.walking = false;
            return Ok(());
        }
        let Planned {
            goal,
            length,
            corners,
            ..
        } = *planned;
        let start = planned.request.start;
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
#[path = "engine_tests.rs"]
mod tests;
