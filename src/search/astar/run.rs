//! The path search's loop, in slices: [`AStar::start`] pushes the root,
//! [`AStar::run`] takes nodes from the open list for at most a given number of
//! expansions, [`AStar::finish`] writes the corridor; [`AStar::search`] is the three in
//! one. The state between slices (the reopening budget, the best measured path, whether
//! the search ended) lives in the `AStar`, so a search sliced any way takes its nodes in
//! the same order as one run and gives the same answer.

use super::{AStar, Context, SearchOutcome, SearchRequest, element_count};
use crate::corridor::CorridorStep;
use crate::mesh::MeshData;

impl AStar {
    /// Searches from `request.start_polygon` for the cheapest of `request.targets` and
    /// writes the corridor, start polygon first, into `corridor`: [`AStar::start`],
    /// [`AStar::run`] until it ends, [`AStar::finish`].
    pub fn search(
        &mut self,
        mesh: &MeshData,
        request: &SearchRequest<'_>,
        corridor: &mut Vec<CorridorStep>,
    ) -> SearchOutcome {
        self.start(mesh, request);
        while !self.run(mesh, request, u32::MAX) {}
        self.finish(mesh, request, corridor)
    }

    /// Begins a search for `request` (the first part of [`AStar::search`]): the root
    /// pushed, nothing expanded. The search's state stays in `self` until the next
    /// `start`, so that [`AStar::run`] can go on with it in slices; the same `request`
    /// (equal fields) must be passed to every call of one search.
    pub fn start(&mut self, mesh: &MeshData, request: &SearchRequest<'_>) {
        let ctx = Context::of(mesh, request);
        self.best = None;
        self.ended = false;
        self.begin(mesh, &ctx, request.start_polygon, request.start);
        // Each reopening strictly lowers an estimate (or, sampled, one of three arrival
        // costs), so this only guards against pathological float behaviour; past the
        // budget, closed nodes stay closed.
        self.reopen_budget = if ctx.sampled { 3 } else { 1 } * element_count(mesh);
    }

    /// The number of searches and floods started on this scratch (wrapping): a sliced search notes
    /// it to tell whether another search has used the scratch since.
    pub fn runs(&self) -> u64 {
        self.runs
    }

    /// Goes on with the current search for at most `max_expansions` expansions (nodes
    /// whose successors are offered; nodes measured at a target and stale open entries
    /// are not counted). Returns whether the search has ended. Slicing changes nothing:
    /// the nodes are taken from the open list in the same order as in one run.
    pub fn run(
        &mut self,
        mesh: &MeshData,
        request: &SearchRequest<'_>,
        max_expansions: u32,
    ) -> bool {
        if self.ended {
            return true;
        }
        let ctx = Context::of(mesh, request);
        let ordered = !ctx.first_come();
        let mut used = 0u32;
        while let Some(&entry) = self.open.peek() {
            if let Some((measured, _)) = self.best
                && (!ordered || entry.priority() >= measured.cost)
            {
                break;
            }
            if used >= max_expansions {
                return false;
            }
            self.open.pop();
            let index = entry.node;
            let node = self.nodes[index as usize];
            if node.closed || entry.estimate != node.estimate {
                continue; // stale entry
            }
            let measured = if ctx.sampled {
                self.sampled_target_cost(mesh, &ctx, index)
            } else {
                self.measure_targets(mesh, index, request)
            };
            if let Some(measured) = measured {
                if self.best.is_none_or(|(b, _)| measured.cost < b.cost) {
                    self.best = Some((measured, index));
                }
                // One target: a path leaving its polygon and coming back is never
                // better than another entry into it. Several: others may lie beyond.
                if request.targets.len() == 1 || !ordered {
                    self.nodes[index as usize].closed = true;
                    continue;
                }
            }
            self.nodes[index as usize].closed = true;
            self.expanded = self.expanded.saturating_add(1);
            used += 1;
            let mut reopen_budget = self.reopen_budget;
            self.expand(mesh, &ctx, index, &mut reopen_budget);
            self.reopen_budget = reopen_budget;
            if self.cut {
                // The node limit: answer with what was found (see `Query::with_max_nodes`).
                break;
            }
        }
        self.ended = true;
        true
    }

    /// Writes the corridor of the current search into `corridor` and returns its
    /// outcome: the best path found to a target, or (none found) the way to a reached
    /// node whose polygon comes closest to the first target. Called before the search
    /// has ended, it answers with what was found so far (a path to a target found so
    /// far need not be the cheapest).
    pub fn finish(
        &mut self,
        mesh: &MeshData,
        request: &SearchRequest<'_>,
        corridor: &mut Vec<CorridorStep>,
    ) -> SearchOutcome {
        let ctx = Context::of(mesh, request);
        match self.best {
            Some((measured, end)) => {
                if ctx.sampled {
                    self.write_sampled_corridor(end, measured.sample, corridor);
                } else {
                    self.write_corridor(end, ctx.uniform, corridor);
                }
                SearchOutcome::Reached {
                    target: measured.target,
                    cost: measured.cost,
                }
            }
            None if self.nodes.len() == 0 => {
                corridor.clear();
                corridor.push(CorridorStep {
                    polygon: request.start_polygon,
                    exit: crate::corridor::LAST_STEP,
                });
                SearchOutcome::Closest(request.start_polygon)
            }
            None => {
                let end = self.closest_reached(mesh, request.targets[0].point);
                self.write_corridor(end, ctx.uniform, corridor);
                SearchOutcome::Closest(self.nodes[end as usize].polygon)
            }
        }
    }
}
