//! The path to the best node so far of a default-mode sliced search finished early.

use super::SlicedState;
use super::steps::target_of;
use crate::corridor::{PullRequest, pull_corridor, walked_cost};
use crate::mesh::MeshData;
use crate::query::Query;
use crate::query::merged::{CorridorPass, coarse_request, coarse_target, within_request};
use crate::query::route::search_request;
use crate::search::astar::SearchOutcome;

impl Query {
    /// The path to the best node reached so far by the search in `pass` (see
    /// [`Query::finish_path`]) into `self.path`, `self.corridor` and `self.cost`.
    pub(super) fn partial_path(
        &mut self,
        mesh: &MeshData,
        state: &SlicedState,
        pass: CorridorPass,
    ) {
        let targets = [target_of(&state.target)];
        let request = search_request(&state.start, &targets, &state.options, self.landmarks());
        let goal = state.goal.point;
        let end = |on: &MeshData, outcome: SearchOutcome| match outcome {
            SearchOutcome::Reached { .. } => state.target.point,
            SearchOutcome::Closest(polygon) => on.closest_point_on_polygon(polygon, goal),
        };
        if pass != CorridorPass::Merged {
            let outcome = match pass {
                CorridorPass::Within => {
                    let coarse = mesh
                        .coarse()
                        .expect("the merged pass began with the merged copy");
                    let within = within_request(coarse, &self.merged_region, &request);
                    self.search.finish(mesh, &within, &mut self.corridor)
                }
                _ => self.search.finish(mesh, &request, &mut self.corridor),
            };
            self.pull_path(state.start.point, end(mesh, outcome), &state.options);
            return;
        }
        let coarse = mesh
            .coarse()
            .expect("the merged pass began with the merged copy");
        let coarse_targets = coarse_target(coarse, &request);
        let merged = coarse_request(coarse, &request, &coarse_targets);
        let outcome = self
            .search
            .finish(&coarse.mesh, &merged, &mut self.merged_corridor);
        let pull = PullRequest {
            start: state.start.point,
            target: end(&coarse.mesh, outcome),
            filter: &state.options.filter,
            split_at_area_changes: false,
            trace: false,
        };
        pull_corridor(
            &coarse.mesh,
            &self.merged_corridor,
            &pull,
            &mut self.pull,
            &mut self.path,
        );
        self.path.flag_plain_corners(mesh, state.start.polygon);
        self.cost = walked_cost(mesh, &self.path.corners, &state.options.filter);
        self.corridor.clear();
    }
}
