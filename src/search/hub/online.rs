//! The fast lane's query: the corners a shortest path from the start can bend at first
//! (in sight of the start, and taut there), the same from the goal, and the best
//! `|s u| + d(u, v) + |v t|` over them without pairing every `u` with every `v`: the
//! start's side leaves, per hub, the best `|s u| + label(u, hub)` in a scratch array
//! (reset through the list of hubs touched), and the goal's side scans its own labels
//! against it. Bounds keep the work down: the start corner whose straight way on to
//! the goal is shortest goes first, which gives an upper bound of the way during the
//! goal's sweep; that sweep goes past no edge whose distances to both ends already sum
//! to the bound, and only the corners whose straight ways beat it are joined after. The
//! corners between `u` and `v` come from the labels' next-node entries. Everything is
//! scratch kept between queries.

use std::cell::Cell;

use glam::DVec2;

use super::sight::{Sight, TooManyCones};
use crate::geometry::closest_point_on_segment_2d_f64;
use crate::mesh::MeshData;
use crate::mesh::fast_lane::{FastLane, HubLabel, NO_CORNER};
use crate::search::exact::polygons_at;

/// The fast lane's answer for two points not in sight of each other.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum LaneAnswer {
    /// The shortest path's length; its corners (vertices of the searched mesh, from
    /// the start's side) are in the output list.
    Found(f64),
    /// No way between the two (not connected).
    NoWay,
}

/// Scratch of the fast lane's queries.
#[derive(Debug, Default)]
pub(crate) struct LaneScratch {
    sight: Sight,
    /// Per corner: the number of the last sweep that took it.
    taken: Vec<u32>,
    sweep: u32,
    /// Per hub: the best length from the start through a corner to the hub, and that
    /// corner.
    best: Vec<f64>,
    best_from: Vec<u32>,
    touched: Vec<u32>,
    /// The corners of the goal's side, from the goal's side corner to the hub.
    back: Vec<u32>,
    /// The polygons whose closed area holds the goal.
    target_set: Vec<u32>,
    /// The corners taken from the start and from the goal, with their distances.
    start_side: Vec<(u32, f64)>,
    goal_side: Vec<(u32, f64)>,
    /// What the last query saw: corners taken from the start and from the goal.
    pub seen_from_start: usize,
    pub seen_from_goal: usize,
}

impl LaneScratch {
    /// The bytes held.
    pub fn bytes(&self) -> usize {
        self.sight.bytes()
            + (self.taken.capacity()
                + self.best_from.capacity()
                + self.touched.capacity()
                + self.back.capacity()
                + self.target_set.capacity())
                * 4
            + self.best.capacity() * 8
            + (self.start_side.capacity() + self.goal_side.capacity()) * 16
    }

    /// A fresh sweep number (every corner's mark older).
    fn next_sweep(&mut self, corners: usize) -> u32 {
        if self.taken.len() != corners {
            self.taken.clear();
            self.taken.resize(corners, 0);
            self.best.clear();
            self.best.resize(corners, f64::INFINITY);
            self.best_from.clear();
            self.best_from.resize(corners, NO_CORNER);
            self.sweep = 0;
        }
        self.sweep = self.sweep.wrapping_add(1);
        if self.sweep == 0 {
            self.taken.fill(0);
            self.sweep = 1;
        }
        self.sweep
    }

    /// The shortest path from ground point `s` (in polygon `s_polygon` of `mesh`, the
    /// mesh `lane` was built on) to `t` (in `t_polygon`); its corners (vertex ids, none
    /// when the two are in sight of each other) into `corners`. Each sweep expands at most
    /// `max_cones` cones.
    #[allow(clippy::too_many_arguments)]
    pub fn shortest(
        &mut self,
        lane: &FastLane,
        mesh: &MeshData,
        (s_polygon, s): (u32, DVec2),
        (t_polygon, t): (u32, DVec2),
        max_cones: usize,
        corners: &mut Vec<u32>,
    ) -> Result<LaneAnswer, TooManyCones> {
        corners.clear();
        let n = lane.corner_count();
        polygons_at(mesh, &|_| true, t_polygon, t, &mut self.target_set);
        // The start's side: the corners taken, and the one whose straight way on to
        // the goal is shortest, spread first (an upper bound of the way, early).
        let sweep = self.next_sweep(n);
        let (taken, start_side) = (&mut self.taken, &mut self.start_side);
        start_side.clear();
        let target = (self.target_set.as_slice(), t);
        let swept = self
            .sight
            .sweep(mesh, s_polygon, s, target, max_cones, |slot| {
                if let Some(taken) = take(lane, taken, sweep, slot, s) {
                    start_side.push(taken);
                }
            });
        self.seen_from_start = self.start_side.len();
        self.seen_from_goal = 0;
        match swept {
            Err(e) => return Err(e),
            Ok(true) => return Ok(LaneAnswer::Found(s.distance(t))),
            Ok(false) => {}
        }
        let via = |&(c, a): &(u32, f64)| a + lane.point[c as usize].distance(t);
        let first = self
            .start_side
            .iter()
            .min_by(|x, y| via(x).total_cmp(&via(y)))
            .copied();
        if let Some((c, a)) = first {
            self.spread(lane, c, a);
        }
        // The goal's side, against that corner alone; the corners that may still
        // give a shorter way are kept.
        let sweep = self.next_sweep(n);
        let (taken, best, goal_side) = (&mut self.taken, &self.best, &mut self.goal_side);
        goal_side.clear();
        let mut found = (f64::INFINITY, NO_CORNER, NO_CORNER);
        // The length of `found`, for the bound on the edges to go past.
        let shortest = Cell::new(f64::INFINITY);
        let mut seen = 0;
        let swept = self.sight.sweep_within(
            mesh,
            t_polygon,
            t,
            (&[], t),
            max_cones,
            |slot| {
                let Some((c, b)) = take(lane, taken, sweep, slot, t) else {
                    return;
                };
                seen += 1;
                if s.distance(lane.point[c as usize]) + b >= found.0 {
                    // Not even the straight way from the start through it is shorter.
                    return;
                }
                goal_side.push((c, b));
                join(lane, best, c, b, &mut found);
                shortest.set(found.0);
            },
            // A corner past edge `a b` is at least as far from the goal, and from the
            // start, as the edge is: beyond a bound as long as the best way, nothing.
            |a, b| {
                closest_point_on_segment_2d_f64(t, a, b).distance(t)
                    + closest_point_on_segment_2d_f64(s, a, b).distance(s)
                    < shortest.get()
            },
        );
        if let Err(e) = swept {
            self.reset_best();
            return Err(e);
        }
        // The other start corners whose straight way on to the goal beats the bound,
        // then the goal's corners again against them all.
        for i in 0..self.start_side.len() {
            let (c, a) = self.start_side[i];
            if Some((c, a)) != first && via(&(c, a)) < found.0 {
                self.spread(lane, c, a);
            }
        }
        for &(c, b) in &self.goal_side {
            if s.distance(lane.point[c as usize]) + b < found.0 {
                join(lane, &self.best, c, b, &mut found);
            }
        }
        self.seen_from_goal = seen;
        let (length, hub, goal_corner) = found;
        let start_corner = if hub == NO_CORNER {
            NO_CORNER
        } else {
            self.best_from[hub as usize]
        };
        self.reset_best();
        if hub == NO_CORNER {
            return Ok(LaneAnswer::NoWay);
        }
        // From the start's corner up to the hub, then from the hub down to the goal's.
        unpack(lane, start_corner, hub, |c| {
            corners.push(lane.vertex[c as usize])
        });
        self.back.clear();
        unpack(lane, goal_corner, hub, |c| self.back.push(c));
        self.back.pop();
        corners.extend(self.back.iter().rev().map(|&c| lane.vertex[c as usize]));
        Ok(LaneAnswer::Found(length))
    }

    /// Spreads start corner `c`, at `a` from the start, over the per-hub bests.
    fn spread(&mut self, lane: &FastLane, c: u32, a: f64) {
        for l in lane.labels_of(c) {
            let x = a + l.distance;
            let hub = l.hub as usize;
            if x < self.best[hub] {
                if self.best[hub] == f64::INFINITY {
                    self.touched.push(l.hub);
                }
                self.best[hub] = x;
                self.best_from[hub] = c;
            }
        }
    }

    /// Empties the per-hub bests.
    fn reset_best(&mut self) {
        for &h in &self.touched {
            self.best[h as usize] = f64::INFINITY;
        }
        self.touched.clear();
    }
}

/// Joins goal corner `c`, at `b` from the goal, with the per-hub bests `best`: the
/// shortest way through it so far into `found` (length, hub, goal corner).
#[inline]
fn join(lane: &FastLane, best: &[f64], c: u32, b: f64, found: &mut (f64, u32, u32)) {
    for l in lane.labels_of(c) {
        let total = best[l.hub as usize] + l.distance + b;
        if total < found.0 {
            *found = (total, l.hub, c);
        }
    }
}

/// The corner of corner slot `slot` seen from `from`, and its distance, the first
/// time this sweep (number `sweep`, marked in `taken`) meets it, when a path from
/// `from` can bend there.
#[inline]
fn take(
    lane: &FastLane,
    taken: &mut [u32],
    sweep: u32,
    slot: usize,
    from: DVec2,
) -> Option<(u32, f64)> {
    let c = lane.node_of_slot[slot];
    if c == NO_CORNER || taken[c as usize] == sweep || !lane.taut_at(c, from) {
        return None;
    }
    taken[c as usize] = sweep;
    Some((c, from.distance(lane.point[c as usize])))
}

/// Calls `each` on the corners from `from` to `hub` (both included) along the labels'
/// next-node entries.
fn unpack(lane: &FastLane, from: u32, hub: u32, mut each: impl FnMut(u32)) {
    let mut at = from;
    each(at);
    // Each step gets nearer the hub along a shortest-path tree: at most one step per
    // corner.
    for _ in 0..lane.corner_count() {
        if at == hub {
            return;
        }
        let labels = lane.labels_of(at);
        let Ok(i) = labels.binary_search_by_key(&hub, |l: &HubLabel| l.hub) else {
            debug_assert!(false, "a labelled corner's next corner has the hub's label");
            return;
        };
        at = labels[i].toward;
        each(at);
    }
}
