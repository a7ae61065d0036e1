//! Routing a path query between two snapped points: the exact mode where it runs, the
//! default mode's path without a search, else the corridor search and the path pulled
//! along it; where an end lies on a pinched vertex, one route per pairing of fans, the
//! best kept.

use glam::Vec3;

use super::direct::direct_cost;
use super::exact_steps::ExactBegin;
use super::{PathOptions, PathStatus, Query};
use crate::corridor::{PullRequest, pull_corridor};
use crate::error::QueryError;
use crate::mesh::{Fans, MeshData, NearestPoint};
use crate::search::astar::{SearchOutcome, SearchRequest, Target};
use crate::search::exact::ExactStep;

/// How good the path of one pairing of pinched fans is (see [`Query::route_best`]); the
/// derived order compares the fields in turn, lowest best.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
struct PairingRank {
    /// Complete paths first.
    partial: bool,
    /// Then, for partial paths, the distance from the path's end to the goal.
    miss: f32,
    /// Then the cost.
    cost: f32,
}

impl Query {
    /// Finds the path between two snapped points into `self.path` and `self.corridor`.
    pub(super) fn route(
        &mut self,
        start: &NearestPoint,
        goal: &NearestPoint,
        options: &PathOptions,
    ) -> Result<PathStatus, QueryError> {
        let (start, goal) = (*start, *goal);
        let handle = self.mesh.clone();
        let mesh = handle.data();
        let filter = &options.filter;
        let (target, status) = route_target(mesh, &start, &goal, options)?;
        self.path.clear();
        self.corridor.clear();
        if options.runs_exact(mesh) {
            let answered = match self.begin_exact_path(mesh, &start, &target, filter) {
                ExactBegin::Answered => true,
                ExactBegin::Fallback => false,
                ExactBegin::Searching(on) => {
                    self.advance_exact(mesh, on, u32::MAX).0 == ExactStep::Found && {
                        self.exact_path_found(mesh, start.polygon, Some(target.polygon), filter);
                        true
                    }
                }
            };
            if answered {
                return Ok(status);
            }
        }
        if self.route_direct(mesh, &start, &target, options) {
            return Ok(status);
        }
        // One target, not kept in `self.targets`: a nearest-target query routes its
        // goals one by one from there.
        let targets = [Target {
            polygon: target.polygon,
            point: target.point,
        }];
        let request = search_request(&start, &targets, options, self.landmarks());
        let outcome = self.search_corridor(mesh, &request);
        self.route_end(mesh, &start, &goal, target, status, outcome, options)
    }

    /// The default mode's path without a search (see [`direct_cost`]) into
    /// `self.path`; false when a search is needed.
    pub(super) fn route_direct(
        &mut self,
        mesh: &MeshData,
        start: &NearestPoint,
        target: &NearestPoint,
        options: &PathOptions,
    ) -> bool {
        let Some(cost) = direct_cost(mesh, start, target, options) else {
            return false;
        };
        let area = mesh.areas[start.polygon as usize];
        self.path.straight(start.point, target.point, area);
        self.cost = cost;
        let filter = &options.filter;
        self.corridor_from_corners(mesh, start.polygon, |p| filter.admits(mesh.flags_of(p)));
        true
    }

    /// The end of [`Query::route`] once the corridor search gave `outcome` (its
    /// corridor in `self.corridor`): the path pulled to the target, or to the explored
    /// polygon closest to the goal; returns the status.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn route_end(
        &mut self,
        mesh: &MeshData,
        start: &NearestPoint,
        goal: &NearestPoint,
        mut target: NearestPoint,
        mut status: PathStatus,
        outcome: SearchOutcome,
        options: &PathOptions,
    ) -> Result<PathStatus, QueryError> {
        if let SearchOutcome::Closest(end) = outcome {
            // Unreachable although on the same island (the filter refuses the way):
            // end at the explored polygon closest to the goal.
            if !options.allow_partial {
                return Err(QueryError::NoPath);
            }
            target = NearestPoint {
                polygon: end,
                point: mesh.closest_point_on_polygon(end, goal.point),
                distance: 0.0,
            };
            status = if self.search.was_cut() {
                PathStatus::NodeLimit
            } else {
                PathStatus::Partial
            };
        }
        self.pull_path(start.point, target.point, options);
        Ok(status)
    }

    /// Pulls `self.corridor` tight into `self.path` and sets `self.cost`.
    pub(super) fn pull_path(&mut self, start: Vec3, target: Vec3, options: &PathOptions) {
        let request = PullRequest {
            start,
            target,
            filter: &options.filter,
            split_at_area_changes: options.split_at_area_changes,
            trace: true,
        };
        self.cost = pull_corridor(
            self.mesh.data(),
            &self.corridor,
            &request,
            &mut self.pull,
            &mut self.path,
        );
        self.tighten_corridor(&request);
    }

    /// A point exactly on a vertex where the mesh is pinched (two squares touching at a
    /// corner) lies in every fan of polygons round it, and the snap picked one of them
    /// at random. Routes every pairing of the start's and the goal's fans (on one island
    /// when some pairing is) and keeps the best: complete before partial, then the
    /// partial end nearest the goal, then the cheapest.
    pub(super) fn route_best(
        &mut self,
        start: &NearestPoint,
        starts: &Fans,
        goal: &NearestPoint,
        goals: &Fans,
        options: &PathOptions,
    ) -> Result<PathStatus, QueryError> {
        let mesh = self.mesh.clone();
        let island = |p: u32| mesh.data().island(p);
        let connected = starts
            .as_slice()
            .iter()
            .any(|&s| goals.as_slice().iter().any(|&g| island(s) == island(g)));
        let mut best: Option<(PathStatus, PairingRank)> = None;
        let mut failure = QueryError::NoPath;
        for &s in starts.as_slice() {
            for &g in goals.as_slice() {
                if connected && island(s) != island(g) {
                    continue;
                }
                let from = NearestPoint {
                    polygon: s,
                    ..*start
                };
                let to = NearestPoint {
                    polygon: g,
                    ..*goal
                };
                let status = match self.route(&from, &to, options) {
                    Ok(status) => status,
                    Err(e) => {
                        failure = e;
                        continue;
                    }
                };
                let end = self.path.corners[self.path.corners.len() - 1];
                let partial = status != PathStatus::Complete;
                let rank = PairingRank {
                    partial,
                    miss: if partial {
                        end.distance(goal.point)
                    } else {
                        0.0
                    },
                    cost: self.cost,
                };
                if best.is_none_or(|(_, b)| rank < b) {
                    best = Some((status, rank));
                    std::mem::swap(&mut self.path, &mut self.best_path);
                    std::mem::swap(&mut self.corridor, &mut self.best_corridor);
                }
            }
        }
        let (status, rank) = best.ok_or(failure)?;
        std::mem::swap(&mut self.path, &mut self.best_path);
        std::mem::swap(&mut self.corridor, &mut self.best_corridor);
        self.cost = rank.cost;
        Ok(status)
    }
}

/// The search for `targets` from `start` with the strategy, weight and filter of
/// `options`.
pub(super) fn search_request<'a>(
    start: &NearestPoint,
    targets: &'a [Target],
    options: &'a PathOptions,
    landmarks: bool,
) -> SearchRequest<'a> {
    SearchRequest {
        start_polygon: start.polygon,
        start: start.point,
        targets,
        strategy: options.strategy,
        heuristic_weight: options.heuristic_weight,
        filter: &options.filter,
        within: None,
        landmarks,
    }
}

/// Where a path from `start` towards `goal` can end, and its status: the goal, or on
/// another island the nearest point of the start's island the filter admits
/// ([`PathStatus::Partial`]; [`QueryError::NoPath`] when partial paths are not allowed).
pub(super) fn route_target(
    mesh: &MeshData,
    start: &NearestPoint,
    goal: &NearestPoint,
    options: &PathOptions,
) -> Result<(NearestPoint, PathStatus), QueryError> {
    if mesh.island(start.polygon) == mesh.island(goal.polygon) {
        return Ok((*goal, PathStatus::Complete));
    }
    if !options.allow_partial {
        return Err(QueryError::NoPath);
    }
    let island = mesh.island(start.polygon);
    let filter = &options.filter;
    let target = mesh
        .nearest_point(goal.point, f32::INFINITY, |p| {
            mesh.island(p) == island && filter.admits(mesh.flags_of(p))
        })
        .expect("the start polygon's island holds the start polygon");
    Ok((target, PathStatus::Partial))
}
