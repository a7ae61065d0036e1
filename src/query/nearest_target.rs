//! The nearest of several goals by path cost, found by one search.

use glam::Vec3;

use super::{Path, PathMode, PathOptions, PathStatus, Query, search_request};
use crate::corridor::path_length;
use crate::error::{Endpoint, QueryError};
use crate::search::astar::{SearchOutcome, Target};

/// The answer of [`Query::find_nearest_target`]: which goal is nearest, and the path.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NearestTarget<'a> {
    /// Index of the chosen goal in the slice given.
    pub goal: usize,
    /// The path to it (status [`PathStatus::Complete`]).
    pub path: Path<'a>,
}

impl Query {
    /// Of several goals (cover spots, ammo, exits), the one cheapest to walk to from
    /// `start`, and the path to it, by one search whose estimate is the distance to the
    /// nearest goal.
    ///
    /// Each goal is snapped like the goal of [`Query::find_path`]; goals that are not
    /// finite are an error, goals farther than `options.max_snap_distance` from the mesh,
    /// moved by the filter (in a refused polygon: a path there would be partial) or
    /// unreachable are skipped. Ties go to the lower index. In the exact mode
    /// ([`PathMode::Optimal`]) each reachable goal is searched in turn and the shortest
    /// path wins. Partial paths are not returned.
    ///
    /// # Errors
    /// [`QueryError::NonFinitePoint`] (start or a goal), option errors as for
    /// [`Query::find_path`], [`QueryError::NotOnMesh`] for the start, and
    /// [`QueryError::NoPath`] when no goal is reachable (or `goals` is empty).
    pub fn find_nearest_target(
        &mut self,
        start: Vec3,
        goals: &[Vec3],
        options: &PathOptions,
    ) -> Result<NearestTarget<'_>, QueryError> {
        options.validate()?;
        if goals.iter().any(|g| !g.is_finite()) {
            return Err(QueryError::NonFinitePoint(Endpoint::Goal));
        }
        let start = self.snap(start, Endpoint::Start, options)?;
        let handle = self.mesh.clone();
        let mesh = handle.data();
        let island = mesh.island[start.polygon as usize];
        self.targets.clear();
        self.target_goals.clear();
        for (i, &goal) in goals.iter().enumerate() {
            let Ok(snapped) = self.snap(goal, Endpoint::Goal, options) else {
                continue;
            };
            if mesh.island[snapped.polygon as usize] == island
                && !self.moved_by_filter(goal, &snapped, &options.filter)
            {
                self.targets.push(Target {
                    polygon: snapped.polygon,
                    point: snapped.point,
                });
                self.target_goals.push(i);
            }
        }
        if self.targets.is_empty() {
            return Err(QueryError::NoPath);
        }
        let goal = if options.mode == PathMode::Optimal {
            self.nearest_by_exact_paths(&start, options)?
        } else {
            let request = search_request(&start, &self.targets, options);
            match self.search.search(mesh, &request, &mut self.corridor) {
                SearchOutcome::Reached { target, .. } => {
                    let point = self.targets[target].point;
                    self.pull_path(start.point, point, options);
                    target
                }
                SearchOutcome::Closest(_) => return Err(QueryError::NoPath),
            }
        };
        Ok(NearestTarget {
            goal: self.target_goals[goal],
            path: self.last_path(PathStatus::Complete),
        })
    }

    /// The exact mode's answer: every target routed in turn, the shortest kept in
    /// `self.path`. Returns the index of the winning target.
    fn nearest_by_exact_paths(
        &mut self,
        start: &crate::mesh::NearestPoint,
        options: &PathOptions,
    ) -> Result<usize, QueryError> {
        let exact = PathOptions {
            allow_partial: false,
            ..options.clone()
        };
        // (length, target, cost): the shortest path wins, as the exact mode ignores
        // area costs in choosing paths.
        let mut best: Option<(f32, usize, f32)> = None;
        for i in 0..self.targets.len() {
            let Target { polygon, point } = self.targets[i];
            let goal = crate::mesh::NearestPoint {
                polygon,
                point,
                distance: 0.0,
            };
            if self.route(start, &goal, &exact).is_err() {
                continue;
            }
            let length = path_length(&self.path.corners);
            if best.is_none_or(|(shortest, _, _)| length < shortest) {
                best = Some((length, i, self.cost));
                std::mem::swap(&mut self.path, &mut self.best_path);
            }
        }
        let (_, winner, cost) = best.ok_or(QueryError::NoPath)?;
        std::mem::swap(&mut self.path, &mut self.best_path);
        self.cost = cost;
        self.corridor.clear();
        Ok(winner)
    }
}
