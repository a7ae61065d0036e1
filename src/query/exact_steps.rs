//! The exact mode's search in steps, shared by [`Query::find_path`] (begun and run to
//! the end at once) and the time-sliced search ([`Query::begin_path`] and
//! [`Query::advance_path`]): on the mesh's merged copy when the filter admits every
//! polygon, else on the mesh itself, each with its own scratch kept by the query.

use super::Query;
use super::direct::in_direct_sight;
use super::fast_lane::LaneUse;
use crate::corridor::walked_cost;
use crate::filter::QueryFilter;
use crate::mesh::{MeshData, NearestPoint};
use crate::search::exact::{ExactSearch, ExactStep};

/// Which mesh an exact search runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ExactOn {
    /// The mesh's merged copy (the filter admits every polygon).
    Merged,
    /// The mesh itself.
    Mesh,
}

/// How the exact mode's path began ([`Query::begin_exact_path`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ExactBegin {
    /// The path is in `self.path` (no search, or a search that ended at once).
    Answered,
    /// The exact search goes on, on this mesh.
    Searching(ExactOn),
    /// No exact way: the default mode's search answers.
    Fallback,
}

impl Query {
    /// The exact mode's path from `start` to `target` (snapped, on `mesh`, this query's
    /// mesh) begun into `self.path`: the segment when they share a polygon or see each
    /// other over admitted polygons, else the exact search begun.
    pub(super) fn begin_exact_path(
        &mut self,
        mesh: &MeshData,
        start: &NearestPoint,
        target: &NearestPoint,
        filter: &QueryFilter,
    ) -> ExactBegin {
        // In sight of each other over admitted polygons: the segment is shortest. The
        // fast lane's sweep from the start, toward the goal first, tells that too.
        let lane = if start.polygon == target.polygon {
            LaneUse::InSight
        } else {
            self.fast_lane_path(mesh, start, target, filter)
        };
        if lane == LaneUse::InSight
            || (lane == LaneUse::Unanswered
                && in_direct_sight(mesh, start, target, |p| filter.admits(mesh.flags_of(p))))
        {
            let area = mesh.areas[start.polygon as usize];
            self.path.straight(start.point, target.point, area);
            self.cost = walked_cost(mesh, &self.path.corners, filter);
            let passable = |p| filter.admits(mesh.flags_of(p));
            self.corridor_of_path(mesh, start.polygon, Some(target.polygon), passable);
            return ExactBegin::Answered;
        }
        if lane == LaneUse::Path {
            self.exact_path_found(mesh, start.polygon, Some(target.polygon), filter);
            return ExactBegin::Answered;
        }
        match self.begin_exact(mesh, start, target, filter) {
            (ExactStep::Found, _) => {
                self.exact_path_found(mesh, start.polygon, Some(target.polygon), filter);
                ExactBegin::Answered
            }
            (ExactStep::NotFound, _) => ExactBegin::Fallback,
            (ExactStep::InProgress, on) => ExactBegin::Searching(on),
        }
    }

    /// Completes the exact search's corners in `self.path` (their flags, from the
    /// start's polygon), its cost, and its corridor (the polygons the corners cross,
    /// [`Query::corridor_of_path`]; `end_polygon` holds the last corner when known: the
    /// target's, for a path that reached it).
    pub(super) fn exact_path_found(
        &mut self,
        mesh: &MeshData,
        start_polygon: u32,
        end_polygon: Option<u32>,
        filter: &QueryFilter,
    ) {
        self.path.flag_plain_corners(mesh, start_polygon);
        self.cost = walked_cost(mesh, &self.path.corners, filter);
        let passable = |p| filter.admits(mesh.flags_of(p));
        self.corridor_of_path(mesh, start_polygon, end_polygon, passable);
    }

    /// Begins the exact search from `start` to `target` (snapped, on `mesh`, this
    /// query's mesh) into `self.path.corners`; returns where it is and on which mesh.
    pub(super) fn begin_exact(
        &mut self,
        mesh: &MeshData,
        start: &NearestPoint,
        target: &NearestPoint,
        filter: &QueryFilter,
    ) -> (ExactStep, ExactOn) {
        let all = self.admits_every_polygon(filter);
        let max_nodes = self.max_nodes;
        let landmarks = self.landmarks();
        if let Some(coarse) = all.then(|| mesh.coarse()).flatten() {
            let on_coarse = |p: &NearestPoint| NearestPoint {
                polygon: coarse.of_original[p.polygon as usize],
                ..*p
            };
            let search = self
                .exact_coarse
                .get_or_insert_with(|| Box::new(ExactSearch::new(max_nodes)));
            let step = search.begin(
                &coarse.mesh,
                &on_coarse(start),
                &on_coarse(target),
                None,
                landmarks,
                &mut self.path.corners,
            );
            return (step, ExactOn::Merged);
        }
        let search = self
            .exact
            .get_or_insert_with(|| Box::new(ExactSearch::new(max_nodes)));
        let step = search.begin(
            mesh,
            start,
            target,
            (!all).then_some(filter),
            landmarks,
            &mut self.path.corners,
        );
        (step, ExactOn::Mesh)
    }

    /// Goes on with the exact search begun on `on` for at most `max_expansions`
    /// expansions (added to the query's counters); returns where it is and the
    /// expansions made.
    pub(super) fn advance_exact(
        &mut self,
        mesh: &MeshData,
        on: ExactOn,
        max_expansions: u32,
    ) -> (ExactStep, u32) {
        let (search, searched): (_, &MeshData) = match on {
            ExactOn::Merged => (
                self.exact_coarse.as_deref_mut(),
                &mesh.coarse().expect("begun on the merged copy").mesh,
            ),
            ExactOn::Mesh => (self.exact.as_deref_mut(), mesh),
        };
        let search = search.expect("an exact search was begun");
        let (step, used) = search.advance(searched, max_expansions, &mut self.path.corners);
        self.stats.add(used);
        (step, used)
    }

    /// The path to the best node reached so far by the exact search on `on` (see
    /// [`ExactSearch::partial`]) into `self.path.corners`; whether it reaches the target.
    pub(super) fn partial_exact(&mut self, mesh: &MeshData, on: ExactOn) -> bool {
        match on {
            ExactOn::Merged => self
                .exact_coarse
                .as_deref()
                .expect("an exact search was begun")
                .partial(
                    &mesh.coarse().expect("begun on the merged copy").mesh,
                    &mut self.path.corners,
                ),
            ExactOn::Mesh => self
                .exact
                .as_deref()
                .expect("an exact search was begun")
                .partial(mesh, &mut self.path.corners),
        }
    }

    /// The searches begun so far with the exact scratch for `on` (0 before the first).
    pub(super) fn exact_runs(&self, on: ExactOn) -> u64 {
        let search = match on {
            ExactOn::Merged => self.exact_coarse.as_deref(),
            ExactOn::Mesh => self.exact.as_deref(),
        };
        search.map_or(0, ExactSearch::runs)
    }
}
