//! Path planning under a frame budget (`navstar simulate --plan-budget N`): agents that
//! need a path queue their request, and each frame one time-sliced search
//! ([`Query::begin_path`], [`Query::advance_path`], [`Query::finish_path`]) goes on for
//! at most N node expansions in all, so no frame spends more than that on planning
//! however large the map (as a crowd's path queue does in a game). An agent waits,
//! standing, until its search is done.

use std::collections::VecDeque;

use navstar::glam::Vec3;
use navstar::{NavMesh, PathOptions, PathStatus, Query, SliceStatus};

/// One agent's request for a path.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Request {
    /// The agent's index.
    pub agent: usize,
    /// Where the agent stands (it does not move while it waits).
    pub start: Vec3,
    /// Where it wants to go.
    pub target: Vec3,
    /// The frame the request was made in.
    pub frame: u32,
}

/// A finished search: what the agent needs of its path.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Planned {
    /// The request it answers.
    pub request: Request,
    /// Whether the path reaches the target.
    pub status: PathStatus,
    /// The path's last corner.
    pub goal: Vec3,
    /// The path's length, world units.
    pub length: f32,
    /// The number of corners.
    pub corners: u32,
}

/// The queue of requests and the one search in progress, with its own [`Query`] (so that
/// corridor repairs on the simulation's query never interrupt it).
pub struct Planner {
    query: Query,
    options: PathOptions,
    budget: u32,
    queue: VecDeque<Request>,
    current: Option<Request>,
    corridor: Vec<u32>,
}

impl Planner {
    /// A planner on `mesh` that spends at most `budget` (>= 1) expansions a frame; a
    /// search begun counts one.
    pub fn new(mesh: &NavMesh, options: PathOptions, budget: u32) -> Planner {
        Planner {
            query: Query::new(mesh),
            options,
            budget: budget.max(1),
            queue: VecDeque::new(),
            current: None,
            corridor: Vec::new(),
        }
    }

    /// Queues a request (answered after those queued before it).
    pub fn request(&mut self, request: Request) {
        self.queue.push_back(request);
    }

    /// Requests queued or in progress.
    pub fn pending(&self) -> usize {
        self.queue.len() + usize::from(self.current.is_some())
    }

    /// Spends this frame's budget: goes on with the search in progress, then begins the
    /// next ones while budget is left. Calls `done` with each finished search and its
    /// corridor (the polygons from the start's to the goal's). Returns the expansions
    /// spent (at most the budget).
    ///
    /// # Errors
    /// A search that fails (the request's start or target off the mesh), naming them,
    /// or the error of `done`.
    pub fn run_frame(
        &mut self,
        mut done: impl FnMut(&Planned, &[u32]) -> Result<(), String>,
    ) -> Result<u32, String> {
        let mut left = self.budget;
        while left > 0 {
            let request = match self.current {
                Some(request) => request,
                None => {
                    let Some(request) = self.queue.pop_front() else {
                        break;
                    };
                    left -= 1;
                    let begun = self
                        .query
                        .begin_path(request.start, request.target, &self.options)
                        .map_err(|e| failed(&request, &e))?;
                    self.current = Some(request);
                    if begun == SliceStatus::Done {
                        self.finish(request, &mut done)?;
                        continue;
                    }
                    if left == 0 {
                        break;
                    }
                    request
                }
            };
            let progress = self
                .query
                .advance_path(left)
                .map_err(|e| failed(&request, &e))?;
            left -= progress.expansions.min(left);
            if progress.status == SliceStatus::Done {
                self.finish(request, &mut done)?;
            } else {
                // The budget is spent: the search goes on next frame.
                break;
            }
        }
        Ok(self.budget - left)
    }

    fn finish(
        &mut self,
        request: Request,
        done: &mut impl FnMut(&Planned, &[u32]) -> Result<(), String>,
    ) -> Result<(), String> {
        self.current = None;
        let path = self.query.finish_path().map_err(|e| failed(&request, &e))?;
        let planned = Planned {
            request,
            status: path.status,
            goal: *path.corners.last().expect("a path has corners"),
            length: path.length(),
            corners: path.corners.len() as u32,
        };
        self.corridor.clear();
        self.corridor.extend(self.query.corridor());
        done(&planned, &self.corridor)
    }
}

fn failed(request: &Request, error: &navstar::QueryError) -> String {
    format!(
        "path from {} to {} failed: {error}",
        request.start, request.target
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An L of unit squares (y up): eight in a row along x (0 to 7), then three up from
    /// the last (8 to 10), so that a path round the corner needs a search.
    fn l_shape() -> NavMesh {
        super::super::test_meshes::row_then_up(8, 3)
    }

    fn request(agent: usize, from: (f32, f32), to: (f32, f32)) -> Request {
        Request {
            agent,
            start: Vec3::new(from.0, 0.0, from.1),
            target: Vec3::new(to.0, 0.0, to.1),
            frame: 0,
        }
    }

    #[test]
    fn searches_keep_to_the_budget_and_answer_as_the_one_shot_query() {
        let mesh = l_shape();
        // The funnel mode: its search takes several slices here (the exact mode's few
        // expansions would not show the budget).
        let options = PathOptions::default().with_mode(navstar::PathMode::Funnel);
        let mut planner = Planner::new(&mesh, options.clone(), 2);
        let (from, to) = ((0.5, 0.5), (7.5, 3.5));
        let mut one_shot = Query::new(&mesh);
        let start = Vec3::new(from.0, 0.0, from.1);
        let wanted = one_shot
            .find_path_vec(start, Vec3::new(to.0, 0.0, to.1), &options)
            .unwrap();
        assert_eq!(wanted.corners.len(), 3, "round the corner");
        assert!(one_shot.last_search_stats().expanded > 4);
        let wanted_corridor: Vec<u32> = one_shot.corridor().collect();
        planner.request(request(3, from, to));
        planner.request(request(4, (7.5, 0.5), (6.5, 0.5)));
        let mut answers = Vec::new();
        let mut frames = 0;
        while planner.pending() > 0 {
            let spent = planner
                .run_frame(|planned, corridor| {
                    answers.push((*planned, corridor.to_vec()));
                    Ok(())
                })
                .unwrap();
            assert!(spent <= 2, "{spent} expansions in one frame");
            frames += 1;
            assert!(frames < 100, "the planner never finishes");
        }
        assert!(
            frames >= 3,
            "{frames} frames: the budget did not slice the search"
        );
        assert_eq!(answers.len(), 2);
        let (first, corridor) = &answers[0];
        assert_eq!(first.request.agent, 3);
        assert_eq!(first.status, PathStatus::Complete);
        assert_eq!(first.goal, *wanted.corners.last().unwrap());
        assert_eq!(first.corners as usize, wanted.corners.len());
        assert_eq!(corridor, &wanted_corridor);
        assert_eq!(answers[1].0.request.agent, 4);
        // An empty queue spends nothing.
        assert_eq!(planner.run_frame(|_, _| Ok(())).unwrap(), 0);
    }

    #[test]
    fn a_failed_search_names_its_request() {
        let mesh = l_shape();
        let mut planner = Planner::new(&mesh, PathOptions::default(), 10);
        planner.request(request(0, (0.5, 0.5), (f32::NAN, 0.5)));
        let error = planner.run_frame(|_, _| Ok(())).unwrap_err();
        assert!(error.contains("to [NaN, 0, 0.5] failed"), "{error}");
    }
}
