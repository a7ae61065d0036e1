//! The default mode's corridor tightened round the vertices it bends at inside the
//! walkable area.
//!
//! The funnel gives the shortest path *within* the corridor the search chose. Where the
//! corridor goes round a vertex that polygons surround on every side (an inner vertex:
//! no wall meets it), the path may bend at that vertex although nothing stops it there:
//! the corridor passes the vertex on one side while the straight way lies through the
//! polygons on its other side. On grid maps, whose polygons are strips meeting at inner
//! vertices, such bends make every default-mode path that is more than 5 % longer than
//! the shortest (den520d: 97 of 97; the worst 1.161 times the shortest).
//!
//! Such a bend is taken out by swapping the corridor's polygons round the vertex for
//! those on the other side of it: the new corridor holds a shorter way (the old path cut
//! across the vertex's other side). Only polygons the filter admits, not already in the
//! corridor, are swapped in. Each round swaps every such bend whose run does not overlap
//! an earlier one's and pulls the corridor once; a round is kept only when the pulled
//! path is cheaper under the filter (so every kept round makes the path strictly
//! cheaper). Repeated until no bend is at an inner vertex (or [`MAX_ROUNDS`] rounds),
//! the path bends only at wall vertices: with uniform area costs, the shortest path of
//! its homotopy class through the polygons, not only of its corridor. What remains
//! between the default mode and the shortest path is the choice of that class (which
//! side of each obstacle the search passes).

use glam::Vec3;

use super::Query;
use crate::corridor::{CornerFlags, CorridorStep, PathBuffer, PullRequest, pull_corridor};
use crate::corridor::{LAST_STEP, StepKey, key_hop};
use crate::mesh::{MeshData, NO_NEIGHBOUR};

/// The most rounds of swaps on one path (each round costs a pull of the corridor).
const MAX_ROUNDS: usize = 8;

/// The most polygons round one vertex that a swap considers.
const MAX_FAN: usize = 32;

/// Scratch memory of the tightening, kept by the [`Query`] so that it allocates nothing
/// in steady state.
#[derive(Debug, Default)]
pub(crate) struct Tighten {
    /// The corridor with one fan swapped, and its path.
    corridor: Vec<CorridorStep>,
    path: PathBuffer,
    /// The polygons round a vertex, in order.
    fan: Vec<u32>,
    /// The swaps of a round, and the polygons they swap in.
    swaps: Vec<Swap>,
    inserted: Vec<u32>,
}

/// A swap to try: the corridor's steps `first..=last` go round the inner vertex at
/// `point`, turning `forward` (by the edges leaving it, counter-clockwise) or not; the
/// other way round from the run's first polygon to its last is the swap.
#[derive(Debug)]
struct Swap {
    first: usize,
    last: usize,
    point: Vec3,
    forward: bool,
}

impl Query {
    /// Tightens `self.corridor` (pulled into `self.path`, costing `self.cost`) round
    /// the inner vertices its path bends at (see the module documentation): in each
    /// round, every bend at an inner vertex whose swap does not overlap an earlier one's
    /// is swapped at once, and the corridor pulled again; the round is kept when the
    /// path got cheaper.
    pub(super) fn tighten_corridor(&mut self, request: &PullRequest<'_>) {
        let handle = self.mesh.clone();
        let mesh = handle.data();
        let mut scratch = std::mem::take(&mut self.tighten);
        for _ in 0..MAX_ROUNDS {
            self.find_swaps(mesh, request, &mut scratch);
            if scratch.swaps.is_empty() {
                break;
            }
            build_swapped(mesh, &self.corridor, &scratch.swaps, &mut scratch.corridor);
            let cost = pull_corridor(
                mesh,
                &scratch.corridor,
                request,
                &mut self.pull,
                &mut scratch.path,
            );
            if cost >= self.cost - 1e-6 * self.cost.abs().max(1.0) {
                break;
            }
            // Copied, not swapped: each buffer keeps its role and the capacity it grew
            // to, so steady state allocates nothing.
            self.corridor.clone_from(&scratch.corridor);
            self.path.corners.clone_from(&scratch.path.corners);
            self.path.details.clone_from(&scratch.path.details);
            self.cost = cost;
        }
        self.tighten = scratch;
    }

    /// The swaps of one round into `scratch.swaps`: one per bend of the path at an inner
    /// vertex, in path order, each after the last one's run and swapping in none of the
    /// polygons an earlier one does.
    fn find_swaps(&self, mesh: &MeshData, request: &PullRequest<'_>, scratch: &mut Tighten) {
        scratch.swaps.clear();
        scratch.inserted.clear();
        let mut cursor = 0;
        for (corner, detail) in self.path.details.iter().enumerate() {
            let inner = corner > 0 && corner + 1 < self.path.corners.len();
            let at_link = detail
                .flags
                .intersects(CornerFlags::LINK_START | CornerFlags::LINK_END);
            if !inner || at_link {
                continue;
            }
            let point = self.path.corners[corner];
            let Some((first, swap)) = self.swap_at(mesh, point, cursor, request, scratch) else {
                continue;
            };
            cursor = first;
            let Some(swap) = swap else {
                continue;
            };
            let after_last = scratch.swaps.last().is_none_or(|s| swap.first > s.last);
            let other_side = &scratch.fan[swap.last - swap.first + 1..];
            if after_last && !other_side.iter().any(|p| scratch.inserted.contains(p)) {
                scratch.inserted.extend_from_slice(other_side);
                scratch.swaps.push(swap);
            }
        }
    }

    /// Where the corridor (from step `cursor` on) first holds a polygon with a corner
    /// at `point`, and the swap that would take the path's bend there out: when `point`
    /// is an inner vertex that the corridor goes round by portals, and the polygons on
    /// its other side are admitted by the filter and not in the corridor already.
    fn swap_at(
        &self,
        mesh: &MeshData,
        point: Vec3,
        cursor: usize,
        request: &PullRequest<'_>,
        scratch: &mut Tighten,
    ) -> Option<(usize, Option<Swap>)> {
        let holds = |p: u32| corner_at(mesh, p, point).is_some();
        let first = cursor
            + self.corridor[cursor..]
                .iter()
                .position(|s| holds(s.polygon))?;
        let slot = corner_at(mesh, self.corridor[first].polygon, point)?;
        if mesh.wall_vertex[mesh.corners[slot] as usize] {
            // A wall meets the vertex: the path may have to bend there.
            return Some((first, None));
        }
        let mut last = first;
        while last + 1 < self.corridor.len() && holds(self.corridor[last + 1].polygon) {
            last += 1;
        }
        let by_portals = self.corridor[first..last]
            .iter()
            .all(|s| s.exit != LAST_STEP && key_hop(s.exit).is_none());
        if last == first || !by_portals {
            return Some((first, None));
        }
        // The fan round the vertex from the corridor's first polygon there, turning the
        // way the corridor turns; it must close (no wall meets the vertex).
        let start = self.corridor[first].polygon;
        let next = self.corridor[first + 1].polygon;
        let forward =
            leaving_slot(mesh, start, point, true).map(|s| mesh.neighbours[s]) == Some(next);
        let fan = &mut scratch.fan;
        fan.clear();
        let mut polygon = start;
        loop {
            let Some(slot) = leaving_slot(mesh, polygon, point, forward) else {
                return Some((first, None));
            };
            fan.push(polygon);
            let neighbour = mesh.neighbours[slot];
            if neighbour == NO_NEIGHBOUR || fan.len() > MAX_FAN {
                return Some((first, None));
            }
            if neighbour == start {
                break;
            }
            polygon = neighbour;
        }
        // The corridor's run is the start of the fan; the other side is the rest.
        let round = last - first;
        let run_is_fan =
            round < fan.len() && (first..=last).all(|s| fan[s - first] == self.corridor[s].polygon);
        let filter = request.filter;
        let other_side_fits = run_is_fan
            && fan[round + 1..].iter().all(|&p| {
                filter.admits(mesh.flags_of(p)) && !self.corridor.iter().any(|s| s.polygon == p)
            });
        let swap = Swap {
            first,
            last,
            point,
            forward,
        };
        Some((first, other_side_fits.then_some(swap)))
    }
}

/// The corner slot of `polygon` at `point` (bit for bit), if it has one.
fn corner_at(mesh: &MeshData, polygon: u32, point: Vec3) -> Option<usize> {
    // The polygon's tile looked up once: its corners and their points are all in it.
    let view = mesh.tile_view(polygon);
    let vertices = mesh.vertices.chunk_or_first(view.tile());
    view.corner_range(polygon)
        .find(|&slot| vertices[view.local(view.corner(slot) as usize)] == point)
}

/// The slot of the edge of `polygon` that leaves its corner at `point` turning round it:
/// the edge from that corner (`forward`, counter-clockwise round the polygon), else the
/// edge into it.
fn leaving_slot(mesh: &MeshData, polygon: u32, point: Vec3, forward: bool) -> Option<usize> {
    let at = corner_at(mesh, polygon, point)?;
    if forward {
        return Some(at);
    }
    let range = mesh.corner_range(polygon);
    Some(if at == range.start {
        range.end - 1
    } else {
        at - 1
    })
}

/// `corridor` with the steps of each of `swaps` (in corridor order, apart) replaced,
/// into `out`, by the other way round its vertex: from the run's first polygon turning
/// the other way to its last, which keeps its exit.
fn build_swapped(
    mesh: &MeshData,
    corridor: &[CorridorStep],
    swaps: &[Swap],
    out: &mut Vec<CorridorStep>,
) {
    out.clear();
    let mut kept_from = 0;
    for swap in swaps {
        out.extend_from_slice(&corridor[kept_from..swap.first]);
        let end = corridor[swap.last].polygon;
        let mut polygon = corridor[swap.first].polygon;
        while polygon != end {
            let Some(exit) = leaving_slot(mesh, polygon, swap.point, !swap.forward) else {
                break;
            };
            out.push(CorridorStep {
                polygon,
                exit: exit as StepKey,
            });
            polygon = mesh.neighbours[exit];
        }
        kept_from = swap.last;
    }
    out.extend_from_slice(&corridor[kept_from..]);
}
