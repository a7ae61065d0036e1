//! The fast lane's query: the corners a shortest path from the start can bend at first
//! (in sight of the start, and taut there), the same from the goal, and the best
//! `|s u| + d(u, v) + |v t|` over them without pairing every `u` with every `v`: one
//! side leaves, per hub, the best `|s u| + label(u, hub)` in a scratch array (reset
//! through the list of hubs touched), and the other side scans its own labels against
//! it. Bounds keep the work down: a first way through the corners of the two polygons
//! holding the ends (each in sight of its end) bounds the start's sweep (its first
//! corners, joined with the goal polygon's at once, tighten the bound), which goes on
//! through no part of an edge whose distances to both ends already sum to the bound
//! (outside the ellipse of the ways as short) and looks toward the goal first (when it
//! sees the goal, it stops: the segment is the answer; the goal's sweep looks toward
//! the start first the same way). The start corners whose
//! straight ways on to the goal beat the bound are spread, then the goal's sweep
//! (bounded the same way, the bound tightening as its corners are joined) scans each
//! of its corners whose straight way from the start beats the bound once. The corners
//! between `u` and `v` come from the labels' next-node entries. Everything is scratch
//! kept between queries.

use std::cell::Cell;
use std::ops::Range;

use glam::DVec2;

use super::sight::{Sight, TooManyCones};
use crate::geometry::closest_point_on_segment_2d_f64;
use crate::mesh::MeshData;
use crate::mesh::fast_lane::{FastLane, NO_CORNER};
use crate::search::exact::polygons_at;

/// How many of the first corners the start's sweep takes are joined with the corners
/// of the goal's polygon at once, for an early bound (Berlin_0_256, instructions per
/// query: none 348 k, 4: 342 k, 10: 335 k, 24: 337 k; den520d about even).
const EARLY_JOINS: usize = 10;

/// The fast lane's answer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum LaneAnswer {
    /// The two points are in straight sight of each other (the segment is shortest).
    InSight,
    /// The shortest path's length; its corners (vertices of the searched mesh, from
    /// the start's side) are in the output list.
    Found(f64),
    /// No way found between the two (not connected), or a doubt (the goal's sweep saw
    /// the start where the start's did not see the goal): the search is to answer.
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
    /// At most the least of the per-hub bests (infinite when none): no way through
    /// them is shorter.
    least: f64,
    touched: Vec<u32>,
    /// The corners of the goal's side, from the goal's side corner to the hub.
    back: Vec<u32>,
    /// The polygons whose closed area holds the goal.
    target_set: Vec<u32>,
    /// The corners taken from the start, with their distances.
    start_side: Vec<(u32, f64)>,
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
            + self.start_side.capacity() * 16
    }

    /// A fresh sweep number (every corner's mark older).
    pub(super) fn next_sweep(&mut self, corners: usize) -> u32 {
        if self.taken.len() != corners {
            self.taken.clear();
            self.taken.resize(corners, 0);
            self.best.clear();
            self.best.resize(corners, f64::INFINITY);
            self.best_from.clear();
            self.best_from.resize(corners, NO_CORNER);
            self.touched.clear();
            self.least = f64::INFINITY;
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
    /// mesh `lane` was built on) to `t` (in `t_polygon`); its corners (vertex ids) into
    /// `corners` (none when the two are in sight of each other: the start's sweep,
    /// toward the goal first, stops when it sees it). Each sweep expands at most
    /// `max_cones` cones.
    #[allow(clippy::too_many_arguments)]
    pub fn shortest(
        &mut self,
        lane: &FastLane,
        mesh: &MeshData,
        start: (u32, DVec2),
        goal: (u32, DVec2),
        max_cones: usize,
        corners: &mut Vec<u32>,
    ) -> Result<LaneAnswer, TooManyCones> {
        if mesh.tiles.len() == 1 {
            self.shortest_on::<false>(lane, mesh, start, goal, max_cones, corners)
        } else {
            self.shortest_on::<true>(lane, mesh, start, goal, max_cones, corners)
        }
    }

    /// [`LaneScratch::shortest`] on a mesh of several tiles when `TILED`, else of one
    /// (see [`super::sight::Sight::sweep_tiled`]).
    #[allow(clippy::too_many_arguments)]
    fn shortest_on<const TILED: bool>(
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
        let sweep = self.next_sweep(n);
        // A first bound: the corners of the polygon holding the goal (each in sight of
        // it) spread over the per-hub bests, against those of the start's polygon.
        for slot in dense_slots_of(mesh, t_polygon) {
            let c = lane.node_of_slot[slot];
            if c != NO_CORNER {
                self.spread(lane, c, t.distance(lane.point[c as usize]), f64::INFINITY);
            }
        }
        let mut way = Way::NONE;
        for slot in dense_slots_of(mesh, s_polygon) {
            let c = lane.node_of_slot[slot];
            if c != NO_CORNER {
                let a = s.distance(lane.point[c as usize]);
                way.through(lane, (&self.best, &self.best_from, self.least), c, a, true);
            }
        }
        // The start's side, within the bound; its first few corners (toward the goal:
        // the sweep looks there first) taken against the goal's polygon's corners at
        // once, a tighter bound early.
        let (taken, start_side) = (&mut self.taken, &mut self.start_side);
        let bests = (self.best.as_slice(), self.best_from.as_slice(), self.least);
        start_side.clear();
        let target = (self.target_set.as_slice(), t);
        let bound = Cell::new(way.length);
        let swept = self.sight.sweep_tiled::<TILED>(
            mesh,
            s_polygon,
            s,
            target,
            max_cones,
            |slot| {
                if let Some((c, a)) = take(lane, taken, sweep, slot, s)
                    && a + lane.point[c as usize].distance(t) < bound.get()
                {
                    start_side.push((c, a));
                    if start_side.len() <= EARLY_JOINS {
                        way.through(lane, bests, c, a, true);
                        bound.set(way.length);
                    }
                }
            },
            |a, b| beyond_within(s, t, a, b, bound.get()),
        );
        self.reset_best();
        self.seen_from_start = self.start_side.len();
        self.seen_from_goal = 0;
        match swept {
            Err(e) => return Err(e),
            Ok(true) => return Ok(LaneAnswer::InSight),
            Ok(false) => {}
        }
        // The start corners whose straight way on to the goal beats the bound are
        // spread; the goal's side is swept against them all.
        for i in 0..self.start_side.len() {
            let (c, a) = self.start_side[i];
            if a + lane.point[c as usize].distance(t) < way.length {
                self.spread(lane, c, a, way.length);
            }
        }
        // The goal's sweep looks toward the start first (the corners near the straight
        // line come first: a tight bound early).
        polygons_at(mesh, &|_| true, s_polygon, s, &mut self.target_set);
        let sweep = self.next_sweep(n);
        let taken = &mut self.taken;
        let bests = (self.best.as_slice(), self.best_from.as_slice(), self.least);
        bound.set(way.length);
        let mut seen = 0;
        let swept = self.sight.sweep_tiled::<TILED>(
            mesh,
            t_polygon,
            t,
            (self.target_set.as_slice(), s),
            max_cones,
            |slot| {
                let Some((c, b)) = take(lane, taken, sweep, slot, t) else {
                    return;
                };
                seen += 1;
                if s.distance(lane.point[c as usize]) + b >= bound.get() {
                    // Not even the straight way from the start through it is shorter.
                    return;
                }
                way.through(lane, bests, c, b, false);
                bound.set(way.length);
            },
            |a, b| beyond_within(t, s, a, b, bound.get()),
        );
        if swept != Ok(false) {
            // Gave up, or saw the start the start's sweep did not see (rounding): the
            // search answers.
            self.reset_best();
            return swept.map(|_| LaneAnswer::NoWay);
        }
        self.reset_best();
        self.seen_from_goal = seen;
        if way.hub == NO_CORNER {
            return Ok(LaneAnswer::NoWay);
        }
        // From the start's corner up to the hub, then from the hub down to the goal's.
        unpack(lane, way.start, way.hub, |c| {
            corners.push(lane.vertex[c as usize])
        });
        self.back.clear();
        unpack(lane, way.goal, way.hub, |c| self.back.push(c));
        self.back.pop();
        corners.extend(self.back.iter().rev().map(|&c| lane.vertex[c as usize]));
        Ok(LaneAnswer::Found(way.length))
    }

    /// Spreads corner `c`, at `a` from its end of the way, over the per-hub bests, up
    /// to the first hub at `bound` or farther (no way through it can be shorter than a
    /// way known to be `bound` long; the labels come nearest first).
    pub(super) fn spread(&mut self, lane: &FastLane, c: u32, a: f64, bound: f64) {
        // Every entry spread is at least `a` (label distances are not negative).
        if a < self.least {
            self.least = a;
        }
        for l in lane.labels_of(c) {
            let x = a + l.distance;
            if x >= bound {
                break;
            }
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

    /// The shortest way through corner `c`, at `d` from its end, and the corners
    /// spread so far, with its hub, when shorter than `limit` (see [`meet`]).
    #[cfg(test)]
    pub(super) fn join(&self, lane: &FastLane, c: u32, d: f64, limit: f64) -> Option<(f64, u32)> {
        meet(lane, (&self.best, self.least), c, d, limit)
    }

    /// The best length spread so far from the start through a corner to `hub`.
    #[cfg(test)]
    pub(super) fn best_to(&self, hub: u32) -> f64 {
        self.best[hub as usize]
    }

    /// Empties the per-hub bests.
    fn reset_best(&mut self) {
        for &h in &self.touched {
            self.best[h as usize] = f64::INFINITY;
        }
        self.touched.clear();
        self.least = f64::INFINITY;
    }
}

/// Whether a way from `from` to `to` past edge `a b` (a sweep from `from` going on
/// through it) may be shorter than `bound`: a corner past the edge is at least as far
/// from `from`, and from `to`, as the edge is, so beyond a bound as long as the best way
/// known lies nothing.
#[inline]
pub(super) fn beyond_within(from: DVec2, to: DVec2, a: DVec2, b: DVec2, bound: f64) -> bool {
    closest_point_on_segment_2d_f64(from, a, b).distance(from)
        + closest_point_on_segment_2d_f64(to, a, b).distance(to)
        < bound
}

/// The shortest way found so far between the start and the goal through the corner
/// graph: its length, the corner it leaves the start for, its hub, and the corner it
/// reaches the goal from.
#[derive(Debug, Clone, Copy)]
struct Way {
    length: f64,
    start: u32,
    hub: u32,
    goal: u32,
}

impl Way {
    /// No way yet.
    const NONE: Way = Way {
        length: f64::INFINITY,
        start: NO_CORNER,
        hub: NO_CORNER,
        goal: NO_CORNER,
    };

    /// Corner `c`, at `d` from its end of the way (the start's when `at_start`),
    /// against the per-hub bests of the other end's side (`best`, the corner of each,
    /// and the least of them): kept when shorter.
    #[inline]
    fn through(
        &mut self,
        lane: &FastLane,
        (best, from, least): (&[f64], &[u32], f64),
        c: u32,
        d: f64,
        at_start: bool,
    ) {
        if let Some((length, hub)) = meet(lane, (best, least), c, d, self.length) {
            let other = from[hub as usize];
            let (start, goal) = if at_start { (c, other) } else { (other, c) };
            *self = Way {
                length,
                start,
                hub,
                goal,
            };
        }
    }
}

/// The shortest way through corner `c`, at `d` from its end, and the per-hub bests of
/// the other side `best` (none below `least`), with its hub, when shorter than
/// `limit`. The scan stops at the first hub too far for even the least best to make a
/// shorter way (the labels come nearest first).
#[inline]
fn meet(
    lane: &FastLane,
    (best, least): (&[f64], f64),
    c: u32,
    d: f64,
    limit: f64,
) -> Option<(f64, u32)> {
    if least == f64::INFINITY {
        return None;
    }
    let mut found = None;
    let mut shortest = limit;
    let mut reach = reach_below(shortest, least, d);
    for l in lane.labels_of(c) {
        if l.distance >= reach {
            break;
        }
        let total = best[l.hub as usize] + l.distance + d;
        if total < shortest {
            shortest = total;
            reach = reach_below(shortest, least, d);
            found = Some((total, l.hub));
        }
    }
    found
}

/// A label distance from which on no way `best + distance + d` (`best` at least
/// `least`, all three finite and not negative) is shorter than `shortest`, even as
/// rounded: `shortest - least - d` plus a margin of 1e-9 of the terms, far above the
/// few units in the last place the sums and this difference may be off by. Infinite
/// while `shortest` is.
#[inline]
fn reach_below(shortest: f64, least: f64, d: f64) -> f64 {
    (shortest - least - d) + 1e-9 * (shortest + least + d)
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
        let Some(label) = lane.labels_of(at).iter().find(|l| l.hub == hub) else {
            debug_assert!(false, "a labelled corner's next corner has the hub's label");
            return;
        };
        at = label.toward;
        each(at);
    }
}

/// The dense numbers of the corner slots of `polygon` of `mesh` (what `node_of_slot` is
/// indexed by, see [`super::sight::Sight::sweep`]), in order: its slot ids on a mesh of
/// one tile; on a mesh of several, their places in the slots numbered tile after tile,
/// the tiles before the polygon's summed once per call (not once per slot).
#[inline]
fn dense_slots_of(mesh: &MeshData, polygon: u32) -> Range<usize> {
    let slots = mesh.corner_range(polygon);
    if mesh.tiles.len() == 1 {
        return slots;
    }
    let (tile, _) = mesh.split_id(polygon);
    let before: usize = (0..tile).map(|t| mesh.corners.chunk(t).len()).sum();
    // A polygon's slots run on without a gap in its tile's local numbers.
    let first = before + mesh.split_id(slots.start as u32).1 as usize;
    first..first + slots.len()
}
