//! The steps behind the public calls of a sliced search (`mod.rs`): beginning one with
//! the same preparation as [`Query::find_path`], a slice of the exact mode's search,
//! finishing a search early, and running work with the sliced buffers in the query's
//! place.

use super::{SlicedState, Stage, radius};
use crate::error::{Endpoint, QueryError};
use crate::mesh::{MeshData, NavMesh, NearestPoint};
use crate::query::exact_steps::{ExactBegin, ExactOn};
use crate::query::route::{route_target, search_request};
use crate::query::stats::SearchStats;
use crate::query::{PathOptions, PathStatus, Query};
use crate::search::astar::Target;
use crate::search::exact::ExactStep;
use glam::Vec3;

impl Query {
    /// [`Query::begin_path`]'s work: the state of the new search.
    pub(super) fn begin_sliced(
        &mut self,
        start: Vec3,
        goal: Vec3,
        options: &PathOptions,
    ) -> Result<SlicedState, QueryError> {
        self.stats = SearchStats::default();
        options.validate()?;
        let mesh = self.mesh.clone();
        let data = mesh.data();
        let generation = data.flags_generation();
        let (filter, snap_distance) = (&options.filter, options.max_snap_distance);
        let whole = |query: &mut Query| -> Result<SlicedState, QueryError> {
            let mut state = SlicedState::answered(&mesh, options, generation);
            let answer =
                query.on_sliced(&mut state, |q, _, _| q.path_between(start, goal, options));
            state.stage = Stage::Answered(Ok(answer?));
            Ok(state)
        };
        let erosion = data.erosion_for(options.agent_radius);
        if erosion > 0.0 {
            return self.begin_sliced_for_agent(start, goal, options, erosion);
        }
        let snapped_start = self.snap(start, Endpoint::Start, filter, snap_distance)?;
        let snapped_goal = self.snap(goal, Endpoint::Goal, filter, snap_distance)?;
        let moved = self.moved_by_filter(goal, &snapped_goal, filter);
        if moved && !options.allow_partial {
            return Err(QueryError::NoPath);
        }
        let admitted = |p: u32| filter.admits(data.flags_of(p));
        let starts = data.fans_at(snapped_start.polygon, snapped_start.point, admitted);
        let goals = data.fans_at(snapped_goal.polygon, snapped_goal.point, admitted);
        if starts.as_slice().len() != 1 || goals.as_slice().len() != 1 {
            return whole(self);
        }
        let (target, status) = route_target(data, &snapped_start, &snapped_goal, options)?;
        let mut state = SlicedState {
            start: snapped_start,
            goal: snapped_goal,
            target,
            status,
            moved,
            admits_all: self.admits_all,
            ..SlicedState::answered(&mesh, options, generation)
        };
        self.on_sliced(&mut state, |query, state, data| {
            query.path.clear();
            query.corridor.clear();
            let status = if state.moved {
                PathStatus::Partial
            } else {
                state.status
            };
            if state.options.runs_exact(data) {
                let filter = &state.options.filter;
                match query.begin_exact_path(data, &state.start, &state.target, filter) {
                    ExactBegin::Answered => {
                        state.stage = Stage::Answered(Ok(status));
                        return;
                    }
                    ExactBegin::Searching(on) => {
                        let runs = query.exact_runs(on);
                        state.stage = Stage::Exact { on, runs };
                        return;
                    }
                    ExactBegin::Fallback => {}
                }
            }
            query.begin_default(data, state);
        });
        Ok(state)
    }

    /// The default mode's part of [`Query::begin_path`] (also where the exact mode's
    /// search falls back to it, as [`Query::find_path`] does): the path without a search
    /// (answered), or the corridor search begun.
    pub(super) fn begin_default(&mut self, data: &MeshData, state: &mut SlicedState) {
        self.path.clear();
        self.corridor.clear();
        if self.route_direct(data, &state.start, &state.target, &state.options) {
            state.stage = Stage::Answered(Ok(state.final_status(state.status)));
            return;
        }
        let targets = [target_of(&state.target)];
        let request = search_request(&state.start, &targets, &state.options, self.landmarks());
        state.stage = Stage::Searching(self.start_corridor_search(data, &request));
    }

    /// A slice of the exact mode's search on `on` (see [`Query::advance_path`]): its
    /// answer when it ends, the default mode's search begun when it finds no way.
    pub(super) fn advance_exact_slice(
        &mut self,
        state: &mut SlicedState,
        on: ExactOn,
        budget: u32,
    ) -> u32 {
        self.on_sliced(state, |query, state, data| {
            let (step, used) = query.advance_exact(data, on, budget);
            match step {
                ExactStep::InProgress => {}
                ExactStep::Found => {
                    let filter = &state.options.filter;
                    query.exact_path_found(
                        data,
                        state.start.polygon,
                        Some(state.target.polygon),
                        filter,
                    );
                    state.stage = Stage::Answered(Ok(state.final_status(state.status)));
                }
                ExactStep::NotFound => query.begin_default(data, state),
            }
            used
        })
    }

    /// [`Query::finish_path`]'s work: the answer moved into the query's last path.
    pub(super) fn finish_sliced(&mut self) -> Result<PathStatus, QueryError> {
        let mut state = self.sliced.state.take().ok_or(QueryError::NoSlicedPath)?;
        if let Stage::Exact { on, runs } = state.stage {
            if self.exact_runs(on) != runs {
                return Err(QueryError::SlicedPathInterrupted);
            }
            self.on_sliced(&mut state, |query, state, mesh| {
                query.partial_exact(mesh, on);
                let filter = &state.options.filter;
                query.exact_path_found(mesh, state.start.polygon, None, filter);
            });
            state.stage = Stage::Answered(Ok(PathStatus::Partial));
        }
        if let Stage::Searching(pass) = state.stage {
            if self.search.runs() != state.runs {
                return Err(QueryError::SlicedPathInterrupted);
            }
            self.on_sliced(&mut state, |query, state, mesh| {
                query.partial_path(mesh, state, pass);
            });
            state.stage = Stage::Answered(Ok(PathStatus::Partial));
        }
        // Copied, not swapped: each buffer keeps its role, so both keep the capacity
        // they grew to and steady state allocates nothing.
        let answer = &self.sliced;
        self.path.corners.clone_from(&answer.path.corners);
        self.path.details.clone_from(&answer.path.details);
        self.corridor.clone_from(&answer.corridor);
        self.cost = answer.cost;
        self.stats = state.stats;
        self.path.arcs.clear();
        if let Some(answer) = self.finish_radius(&state) {
            return answer;
        }
        match state.stage {
            Stage::Answered(answer) => answer,
            Stage::Searching(_) | Stage::Exact { .. } => {
                unreachable!("a search in progress was answered above")
            }
        }
    }

    /// Runs `work` as part of the sliced search `state`: on the search's mesh (passed
    /// to it), with its counters, and with the sliced buffers as the query's last path,
    /// so that the path read back between slices stays that of the last finished query.
    pub(super) fn on_sliced<T>(
        &mut self,
        state: &mut SlicedState,
        work: impl FnOnce(&mut Query, &mut SlicedState, &MeshData) -> T,
    ) -> T {
        let mesh = state.mesh.clone();
        self.swap_sliced(state);
        // On an eroded copy, every slice uses landmarks as `find_path` does there.
        let landmarks = if state.radius.is_some() {
            self.landmarks_on_copy()
        } else {
            self.landmarks
        };
        // On a joined copy, the corridor is walked again across the original polygons.
        self.corridor_ends_only = state
            .radius
            .as_ref()
            .is_some_and(radius::RadiusSlice::on_joined_copy);
        let answer = work(self, state, mesh.data());
        self.corridor_ends_only = false;
        self.landmarks = landmarks;
        self.swap_sliced(state);
        state.runs = self.search.runs();
        answer
    }

    /// Exchanges the query's mesh, counters and last path with the sliced search's.
    pub(super) fn swap_sliced(&mut self, state: &mut SlicedState) {
        std::mem::swap(&mut self.mesh, &mut state.mesh);
        std::mem::swap(&mut self.admits_all, &mut state.admits_all);
        std::mem::swap(&mut self.stats, &mut state.stats);
        std::mem::swap(&mut self.path, &mut self.sliced.path);
        std::mem::swap(&mut self.corridor, &mut self.sliced.corridor);
        std::mem::swap(&mut self.cost, &mut self.sliced.cost);
    }
}

impl SlicedState {
    /// The status of a path found with `status` (partial when the filter moved the goal).
    pub(super) fn final_status(&self, status: PathStatus) -> PathStatus {
        if self.moved {
            PathStatus::Partial
        } else {
            status
        }
    }

    /// A state on `mesh` with `options`, answered (with no path yet); the other
    /// fields are filled in by the caller.
    pub(super) fn answered(mesh: &NavMesh, options: &PathOptions, generation: u64) -> SlicedState {
        let nowhere = NearestPoint {
            polygon: 0,
            point: Vec3::ZERO,
            distance: 0.0,
        };
        SlicedState {
            mesh: mesh.clone(),
            options: options.clone(),
            start: nowhere,
            goal: nowhere,
            target: nowhere,
            status: PathStatus::Complete,
            moved: false,
            stage: Stage::Answered(Ok(PathStatus::Complete)),
            runs: 0,
            generation,
            stats: SearchStats::default(),
            admits_all: None,
            radius: None,
        }
    }
}

/// The search target at `point`.
pub(super) fn target_of(point: &NearestPoint) -> Target {
    Target {
        polygon: point.polygon,
        point: point.point,
    }
}
