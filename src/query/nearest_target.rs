//! The nearest of several goals by path cost, found by one search.

use glam::Vec3;

use super::route::search_request;
use super::{Path, PathMode, PathOptions, PathStatus, Query};
use crate::corridor::path_length;
use crate::error::{Endpoint, QueryError};
use crate::mesh::{Fans, NearestPoint};
use crate::search::astar::{SearchOutcome, Target};

/// The answer of [`Query::find_nearest_target`]: which target is nearest, and the path.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct NearestTarget<'a> {
    /// Index of the chosen target in the slice given.
    pub target: usize,
    /// The path to it (status [`PathStatus::Complete`]).
    pub path: Path<'a>,
}

impl Query {
    /// Of several targets (cover spots, ammo, exits), the one cheapest to walk to from
    /// `start`, and the path to it, by one search whose estimate is the distance to the
    /// nearest target.
    ///
    /// Each target is snapped like the goal of [`Query::find_path`], and like there a
    /// start or target exactly on a pinched vertex lies in every polygon round it (see
    /// [`Query::find_path`]); targets that are not finite are an error
    /// ([`Endpoint::Goal`]), targets farther than `options.max_snap_distance` from the
    /// mesh, moved by the filter (in a refused polygon: a path there would be partial) or
    /// unreachable are skipped. Ties go to the lower index. In the exact mode
    /// ([`PathMode::Optimal`]) each reachable target is searched in turn and the shortest
    /// path wins. Partial paths are not returned.
    ///
    /// # Errors
    /// [`QueryError::NonFinitePoint`] (start or a target), option errors as for
    /// [`Query::find_path`], [`QueryError::NotOnMesh`] for the start, and
    /// [`QueryError::NoPath`] when no target is reachable (or `targets` is empty). A
    /// failed query forgets the path before it.
    ///
    /// # Example
    /// ```
    /// # use navstar::{glam::Vec3, MeshOptions, NavMesh};
    /// # let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// # let vertices = [v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0), v(3.0, 0.0), v(0.0, 1.0), v(1.0, 1.0), v(2.0, 1.0), v(3.0, 1.0)];
    /// # let indices = [0, 1, 5, 4, /**/ 1, 2, 6, 5, /**/ 2, 3, 7, 6];
    /// # let mesh = NavMesh::from_polygons(&vertices, &indices, &[4, 4, 4], &MeshOptions::default())?;
    /// // `mesh`: three unit squares in a row along x, polygons 0, 1, 2 (y up).
    /// use navstar::{PathOptions, Query};
    ///
    /// let mut query = Query::new(&mesh);
    /// let targets = [Vec3::new(2.5, 0.0, 0.5), Vec3::new(0.2, 0.0, 0.5)];
    /// let nearest = query.find_nearest_target(Vec3::new(1.0, 0.0, 0.5), &targets, &PathOptions::default())?;
    /// assert_eq!(nearest.target, 1);
    /// assert_eq!(nearest.path.corners.last(), Some(&targets[1]));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "nearest_goal")]
    #[doc(alias = "closest_target")]
    pub fn find_nearest_target(
        &mut self,
        start: Vec3,
        targets: &[Vec3],
        options: &PathOptions,
    ) -> Result<NearestTarget<'_>, QueryError> {
        let outcome = self.nearest_target(start, targets, options);
        let target = self.answer(outcome)?;
        Ok(NearestTarget {
            target,
            path: self.last_path(PathStatus::Complete),
        })
    }

    /// [`Query::find_nearest_target`] into `self.path` and `self.corridor`; returns the
    /// index of the chosen goal.
    pub(super) fn nearest_target(
        &mut self,
        start: Vec3,
        goals: &[Vec3],
        options: &PathOptions,
    ) -> Result<usize, QueryError> {
        self.stats = super::SearchStats::default();
        self.path.arcs.clear();
        options.validate()?;
        if goals.iter().any(|g| !g.is_finite()) {
            return Err(QueryError::NonFinitePoint(Endpoint::Goal));
        }
        let erosion = self.mesh.data().erosion_for(options.agent_radius);
        if erosion > 0.0 {
            return self.nearest_target_with_radius(start, goals, options, erosion);
        }
        let start = self.snap(
            start,
            Endpoint::Start,
            &options.filter,
            options.max_snap_distance,
        )?;
        let handle = self.mesh.clone();
        let mesh = handle.data();
        let admitted = |p: u32| options.filter.admits(mesh.flags_of(p));
        let starts = mesh.fans_at(start.polygon, start.point, admitted);
        let on_start_island = |p: u32| {
            starts
                .as_slice()
                .iter()
                .any(|&s| mesh.island(s) == mesh.island(p))
        };
        self.targets.clear();
        self.target_goals.clear();
        for (i, &goal) in goals.iter().enumerate() {
            let Ok(snapped) = self.snap(
                goal,
                Endpoint::Goal,
                &options.filter,
                options.max_snap_distance,
            ) else {
                continue;
            };
            let fans = mesh.fans_at(snapped.polygon, snapped.point, admitted);
            if !fans.as_slice().iter().any(|&p| on_start_island(p))
                || self.moved_by_filter(goal, &snapped, &options.filter)
            {
                continue;
            }
            // A goal on a pinched vertex is a target in each of its fans.
            for &polygon in fans.as_slice().iter().filter(|&&p| on_start_island(p)) {
                self.targets.push(Target {
                    polygon,
                    point: snapped.point,
                });
                self.target_goals.push(i);
            }
        }
        if self.targets.is_empty() {
            return Err(QueryError::NoPath);
        }
        let target = if options.mode == PathMode::Optimal {
            self.nearest_by_exact_paths(&start, &starts, options)?
        } else {
            self.nearest_by_search(&start, &starts, options)?
        };
        Ok(self.target_goals[target])
    }

    /// The default mode's answer: one search from each fan of the start (one, unless
    /// the start is on a pinched vertex), the cheapest path kept in `self.path` and
    /// `self.corridor`. Returns the index of the winning target.
    fn nearest_by_search(
        &mut self,
        start: &NearestPoint,
        starts: &Fans,
        options: &PathOptions,
    ) -> Result<usize, QueryError> {
        let handle = self.mesh.clone();
        let mesh = handle.data();
        // (cost, goal, target): the cheapest wins, ties to the lower goal index.
        let mut best: Option<(f32, usize, usize)> = None;
        for &polygon in starts.as_slice() {
            let island = mesh.island(polygon);
            if !self
                .targets
                .iter()
                .any(|t| mesh.island(t.polygon) == island)
            {
                continue;
            }
            let from = NearestPoint { polygon, ..*start };
            let request = search_request(&from, &self.targets, options, self.landmarks());
            let outcome = self.search.search(mesh, &request, &mut self.corridor);
            self.stats.add(self.search.expanded());
            let SearchOutcome::Reached { target, cost } = outcome else {
                continue;
            };
            let goal = self.target_goals[target];
            if best.is_none_or(|(c, g, _)| (cost, goal) < (c, g)) {
                best = Some((cost, goal, target));
                std::mem::swap(&mut self.corridor, &mut self.best_corridor);
            }
        }
        let (_, _, target) = best.ok_or(QueryError::NoPath)?;
        std::mem::swap(&mut self.corridor, &mut self.best_corridor);
        let point = self.targets[target].point;
        self.pull_path(start.point, point, options);
        Ok(target)
    }

    /// The exact mode's answer: every target routed in turn from each fan of the start
    /// on its island, the shortest kept in `self.path`. Returns the index of the winning
    /// target.
    fn nearest_by_exact_paths(
        &mut self,
        start: &NearestPoint,
        starts: &Fans,
        options: &PathOptions,
    ) -> Result<usize, QueryError> {
        let exact = PathOptions {
            allow_partial: false,
            ..options.clone()
        };
        let handle = self.mesh.clone();
        let island = |p: u32| handle.data().island(p);
        /// The shortest path so far: it wins, as the exact mode ignores area costs in
        /// choosing paths; ties go to the lower index (targets are in goal order).
        struct Shortest {
            length: f32,
            target: usize,
            cost: f32,
        }
        let mut best: Option<Shortest> = None;
        for i in 0..self.targets.len() {
            let Target { polygon, point } = self.targets[i];
            let goal = NearestPoint {
                polygon,
                point,
                distance: 0.0,
            };
            for &s in starts.as_slice() {
                let from = NearestPoint {
                    polygon: s,
                    ..*start
                };
                if island(s) != island(polygon) || self.route(&from, &goal, &exact).is_err() {
                    continue;
                }
                let length = path_length(&self.path.corners);
                if best.as_ref().is_none_or(|b| length < b.length) {
                    best = Some(Shortest {
                        length,
                        target: i,
                        cost: self.cost,
                    });
                    std::mem::swap(&mut self.path, &mut self.best_path);
                }
            }
        }
        let best = best.ok_or(QueryError::NoPath)?;
        std::mem::swap(&mut self.path, &mut self.best_path);
        self.cost = best.cost;
        self.corridor.clear();
        Ok(best.target)
    }
}
