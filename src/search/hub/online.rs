//! The fast lane's query: the corners a shortest path from the start can bend at first
//! (in sight of the start, and taut there), the same from the goal, and the best
//! `|s u| + d(u, v) + |v t|` over them without pairing every `u` with every `v`: the
//! start's side leaves, per hub, the best `|s u| + label(u, hub)` in a scratch array
//! (reset through the list of hubs touched), and the goal's side scans its own labels
//! against it. The corners between `u` and `v` come from the labels' next-node entries.
//! Everything is scratch kept between queries.

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
        // The start's side.
        let sweep = self.next_sweep(n);
        let (taken, best, best_from, touched) = (
            &mut self.taken,
            &mut self.best,
            &mut self.best_from,
            &mut self.touched,
        );
        let mut seen = 0;
        let target = (self.target_set.as_slice(), t);
        let swept = self
            .sight
            .sweep(mesh, s_polygon, s, target, max_cones, |slot| {
                let Some((c, a)) = take(lane, taken, sweep, slot, s) else {
                    return;
                };
                seen += 1;
                for l in lane.labels_of(c) {
                    let x = a + l.distance;
                    let hub = l.hub as usize;
                    if x < best[hub] {
                        if best[hub] == f64::INFINITY {
                            touched.push(l.hub);
                        }
                        best[hub] = x;
                        best_from[hub] = c;
                    }
                }
            });
        self.seen_from_start = seen;
        self.seen_from_goal = 0;
        match swept {
            Err(e) => {
                self.reset_best();
                return Err(e);
            }
            Ok(true) => {
                self.reset_best();
                return Ok(LaneAnswer::Found(s.distance(t)));
            }
            Ok(false) => {}
        }
        // The goal's side.
        let sweep = self.next_sweep(n);
        let (taken, best) = (&mut self.taken, &self.best);
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
                for l in lane.labels_of(c) {
                    let total = best[l.hub as usize] + l.distance + b;
                    if total < found.0 {
                        found = (total, l.hub, c);
                    }
                }
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
        self.seen_from_goal = seen;
        let (length, hub, goal_corner) = found;
        let start_corner = if hub == NO_CORNER {
            NO_CORNER
        } else {
            self.best_from[hub as usize]
        };
        self.reset_best();
        swept?;
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

    /// Empties the per-hub bests.
    fn reset_best(&mut self) {
        for &h in &self.touched {
            self.best[h as usize] = f64::INFINITY;
        }
        self.touched.clear();
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
