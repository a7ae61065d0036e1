//! The corridor of a path known only by its corners: the polygons it crosses, in order.
//!
//! The exact mode finds its path as corners (searching intervals of edges, often on the
//! mesh's merged copy), and a straight path in direct sight needs no search at all; the
//! polygons such a path crosses are found afterwards by walking it over this query's
//! mesh, segment by segment, from the start's polygon ([`MeshData::walk_straight_through`]).
//! A shortest path bends only at vertices, and a walk that starts exactly on a vertex
//! may point out of the polygon it stands in: before each segment the walk first turns
//! round the vertex, through the polygons sharing it, to the one whose angle there holds
//! the segment's direction (the shorter way round; across tile seams the vertex is
//! matched by position). A segment along an edge may walk on the edge's wrong side
//! into a wall at the edge's end; the walk then turns round that vertex the same way
//! and goes on. Every polygon listed is the neighbour of the one before it.
//! Allocates nothing in steady state.

use glam::{DVec2, Vec2};

use super::Query;
use crate::corridor::{CorridorStep, LAST_STEP};
use crate::mesh::{MeshData, NO_NEIGHBOUR, WalkEnd};

/// At most this many polygons are passed while turning round one vertex (a vertex
/// shared by more is not turned round: the walk fails there).
const MAX_TURN: usize = 64;

/// How many of the last steps a polygon entered is looked for, to cut a loop.
const LOOP_WINDOW: usize = 16;

/// At most this many times a walk along one segment stops at a vertex (the segment
/// runs along an edge and the walk stood on its wrong side) and goes on from there.
const MAX_RESUMES: usize = 64;

/// Which way to turn round a vertex: across each polygon's edge leaving the vertex
/// (clockwise), or across its edge arriving at it (counter-clockwise).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Turn {
    AcrossLeaving,
    AcrossArriving,
}

impl Query {
    /// Sets `self.corridor` for the path in `self.path.corners` as
    /// [`Query::corridor_from_corners`] does, except while only the corridor's ends are
    /// needed (`corridor_ends_only`) and the path is known to end in `end_polygon`: the
    /// corridor is then the start's and the end's polygons alone, not neighbours (the
    /// caller walks the path again over other polygons). False when the walk fails.
    pub(super) fn corridor_of_path(
        &mut self,
        mesh: &MeshData,
        start_polygon: u32,
        end_polygon: Option<u32>,
        passable: impl Fn(u32) -> bool,
    ) -> bool {
        match end_polygon.filter(|_| self.corridor_ends_only) {
            Some(end) => {
                self.corridor.clear();
                for polygon in [start_polygon, end] {
                    if self.corridor.last().is_none_or(|s| s.polygon != polygon) {
                        self.corridor.push(CorridorStep {
                            polygon,
                            exit: LAST_STEP,
                        });
                    }
                }
                true
            }
            None => self.corridor_from_corners(mesh, start_polygon, passable),
        }
    }

    /// Sets `self.corridor` to the polygons that the path in `self.path.corners` crosses,
    /// walked over `mesh` (this query's mesh) from `start_polygon` (which holds the
    /// first corner) through polygons `passable` admits, and links its exits. False
    /// when the walk fails (numerical doubt at a vertex or a wall in the way: the
    /// corridor is then cleared); a path of one point has the start polygon alone.
    pub(super) fn corridor_from_corners(
        &mut self,
        mesh: &MeshData,
        start_polygon: u32,
        passable: impl Fn(u32) -> bool,
    ) -> bool {
        let corners = &self.path.corners;
        let corridor = &mut self.corridor;
        corridor.clear();
        // A polygon met again within the last few steps (a turn or a graze that went
        // one polygon too far and back) closes a loop: the steps after its first visit
        // go, so the corridor stays a simple chain of neighbours.
        let mut note = |polygon: u32| {
            let recent = corridor.len().saturating_sub(LOOP_WINDOW);
            match corridor[recent..]
                .iter()
                .rposition(|s| s.polygon == polygon)
            {
                Some(at) => corridor.truncate(recent + at + 1),
                None => corridor.push(CorridorStep {
                    polygon,
                    exit: LAST_STEP,
                }),
            }
        };
        note(start_polygon);
        let mut at = Some(start_polygon);
        for pair in corners.windows(2) {
            let (from, to) = (mesh.up.ground(pair[0]), mesh.up.ground(pair[1]));
            if let Some(polygon) = at.filter(|_| from != to) {
                at = walk_segment(mesh, polygon, from, to, &passable, &mut note);
            }
        }
        if at.is_none() {
            self.corridor.clear();
            return false;
        }
        self.link_exits_on(mesh);
        true
    }
}

/// Walks the segment `from -> to` (ground plane) from polygon `at`, which holds `from`,
/// `note`ing every polygon entered; returns the polygon holding `to`, or `None` when the
/// walk fails.
fn walk_segment(
    mesh: &MeshData,
    mut at: u32,
    mut from: Vec2,
    mut to: Vec2,
    passable: &impl Fn(u32) -> bool,
    note: &mut impl FnMut(u32),
) -> Option<u32> {
    let tolerance = from.abs().max(to.abs()).max_element().max(1.0) * f32::EPSILON * 8.0;
    for _ in 0..MAX_RESUMES {
        at = turn_toward(mesh, at, from, to, tolerance, passable, note)?;
        let (polygon, t, wall_slot) =
            match mesh.walk_straight_through(at, from, to, passable, |left, _| note(left)) {
                WalkEnd::Reached(polygon) => {
                    note(polygon);
                    return Some(polygon);
                }
                WalkEnd::Blocked {
                    polygon,
                    t,
                    wall_slot,
                } => (polygon, t, wall_slot),
            };
        note(polygon);
        let stop = from.as_dvec2().lerp(to.as_dvec2(), t).as_vec2();
        if stop.distance(to) <= tolerance {
            // `to` lies on the wall itself.
            return Some(polygon);
        }
        if let Some(inside) = graze(mesh, polygon, wall_slot, to, tolerance) {
            // The segment runs along the wall, `to` outside it by rounding only: walk to
            // the point just inside instead (the same polygons up to rounding).
            (at, to) = (polygon, inside);
            continue;
        }
        if stop.distance(from) <= tolerance {
            // Stopped where it began, at an edge into a polygon it may enter: `from` lies
            // on that edge, a few ulps on the far side, and the segment leaves it at a
            // grazing angle. Both polygons hold `from`: go on from the other.
            let across = mesh
                .corner_range(polygon)
                .contains(&wall_slot)
                .then(|| mesh.neighbours[wall_slot]);
            if let Some(next) = across.filter(|&n| n != NO_NEIGHBOUR && n != at && passable(n)) {
                note(next);
                at = next;
                continue;
            }
            if let Some(shift) = along_edge(mesh, polygon, wall_slot, from, to, tolerance) {
                // The segment runs along an edge (rounding put it just outside): walk
                // it moved just inside, beside the edge (the same polygons up to
                // rounding).
                (at, from, to) = (polygon, from + shift, to + shift);
                continue;
            }
        }
        // Only a stop at a vertex, past `from`, is a walk on an edge's wrong side;
        // anything else is a wall across the segment.
        let slot = vertex_slot(mesh, polygon, stop, tolerance * 8.0)?;
        let vertex = mesh.ground[mesh.corners[slot] as usize];
        if vertex.distance(from) <= tolerance {
            return None;
        }
        (at, from) = (polygon, vertex);
    }
    None
}

/// The line of the edge at `slot` of `polygon`: a point on it and its outward unit
/// normal (counter-clockwise polygons: to the edge's right); `None` when `slot` is not
/// a slot of `polygon` (`usize::MAX` for no edge).
fn edge_line(mesh: &MeshData, polygon: u32, slot: usize) -> Option<(Vec2, DVec2)> {
    if !mesh.corner_range(polygon).contains(&slot) {
        return None;
    }
    let (a, b) = mesh.edge(polygon, slot);
    let (a, b) = (mesh.ground[a as usize], mesh.ground[b as usize]);
    let edge = (b - a).as_dvec2();
    Some((
        a,
        DVec2::new(edge.y, -edge.x) / edge.length().max(f64::MIN_POSITIVE),
    ))
}

/// When the segment `from -> to` runs along the line of the edge at `wall_slot` of
/// `polygon` (both ends within `tolerance` of it): a shift that moves it just inside the
/// polygon's side of that line.
fn along_edge(
    mesh: &MeshData,
    polygon: u32,
    wall_slot: usize,
    from: Vec2,
    to: Vec2,
    tolerance: f32,
) -> Option<Vec2> {
    let (a, normal) = edge_line(mesh, polygon, wall_slot)?;
    let off = |p: Vec2| normal.dot((p - a).as_dvec2()).abs();
    let tolerance = f64::from(tolerance);
    (off(from) <= tolerance && off(to) <= tolerance).then(|| (-normal * tolerance * 4.0).as_vec2())
}

/// When `to` lies outside the line of the edge at `wall_slot` of `polygon` by at most
/// `tolerance`: `to` moved just inside it.
fn graze(
    mesh: &MeshData,
    polygon: u32,
    wall_slot: usize,
    to: Vec2,
    tolerance: f32,
) -> Option<Vec2> {
    let (a, normal) = edge_line(mesh, polygon, wall_slot)?;
    let outside = normal.dot((to - a).as_dvec2());
    let tolerance = f64::from(tolerance);
    (outside > 0.0 && outside <= tolerance)
        .then(|| (to.as_dvec2() - normal * (outside + tolerance)).as_vec2())
}

/// The polygon to walk the segment `from -> to` (ground plane) in, when the walk stands
/// in `at`: `at` itself unless `from` is one of its vertices and the segment leaves its
/// angle there (by more than `tolerance`, a distance of `to` from the angle's sides);
/// else the polygon round that vertex whose angle holds it, reached the shorter way
/// round through polygons `passable` admits (or, when rounding puts the segment in no
/// angle, the polygon whose angle it misses least), each polygon passed `note`d in
/// order. `None` when no polygon round the vertex can be reached.
fn turn_toward(
    mesh: &MeshData,
    at: u32,
    from: Vec2,
    to: Vec2,
    tolerance: f32,
    passable: &impl Fn(u32) -> bool,
    note: &mut impl FnMut(u32),
) -> Option<u32> {
    let Some(slot) = vertex_slot(mesh, at, from, tolerance) else {
        return Some(at);
    };
    let segment = (to - from).as_dvec2();
    let tolerance = f64::from(tolerance);
    let here = angle_margin(mesh, at, slot, segment);
    if here >= -tolerance {
        return Some(at);
    }
    // Each way round: the best stop (held, fewer steps first / larger margin) and the
    // polygons passed up to the last one visited, in order. The second way needs no
    // more steps than the first way's held angle: at as many it would lose.
    let mut passed = [[NO_NEIGHBOUR; MAX_TURN]; 2];
    let mut limit = MAX_TURN;
    let mut best: [Option<(bool, usize, f64)>; 2] = [None; 2];
    for (way, turn) in [Turn::AcrossLeaving, Turn::AcrossArriving]
        .into_iter()
        .enumerate()
    {
        let (found, list) = (&mut best[way], &mut passed[way]);
        let round = Round {
            at,
            slot,
            point: from,
            turn,
            max_steps: limit,
        };
        turn_round(
            mesh,
            &round,
            tolerance,
            passable,
            &mut |steps, polygon, slot| {
                list[steps - 1] = polygon;
                let margin = angle_margin(mesh, polygon, slot, segment);
                let held = margin >= -tolerance;
                let better = match *found {
                    None => true,
                    Some((true, _, _)) => false,
                    Some((false, _, m)) => held || margin > m,
                };
                if better {
                    *found = Some((held, steps, margin));
                }
                held
            },
        );
        if let Some((true, steps, _)) = *found {
            limit = steps - 1;
        }
    }
    // Held angles rank above missed ones; among held the fewest steps, among missed
    // the smallest miss. Staying in `at` (0 steps, missed by `here`) is the last resort.
    let rank = |(held, steps, margin): (bool, usize, f64)| {
        (held, if held { -(steps as f64) } else { margin })
    };
    let mut choice = (0, (false, 0, here));
    for (way, found) in best.into_iter().enumerate() {
        if let Some(found) = found.filter(|&f| rank(f) > rank(choice.1)) {
            choice = (way, found);
        }
    }
    let (way, (_, steps, _)) = choice;
    if steps == 0 {
        return Some(at);
    }
    let polygons = &passed[way][..steps];
    polygons.iter().for_each(|&polygon| note(polygon));
    polygons.last().copied()
}

/// A turn round the vertex at `point` (ground plane), starting in polygon `at` whose
/// corner `slot` it is.
struct Round {
    at: u32,
    slot: usize,
    point: Vec2,
    turn: Turn,
    /// At most this many polygons are entered (at most [`MAX_TURN`]).
    max_steps: usize,
}

/// Turns `round` the vertex, polygon by polygon, calling `visit(steps, polygon, slot of
/// the vertex)` for each polygon entered until it returns true, or until a wall, a
/// refused polygon, a polygon without that vertex (within `tolerance`), the way back to
/// the start, or `max_steps` polygons come first.
fn turn_round(
    mesh: &MeshData,
    round: &Round,
    tolerance: f64,
    passable: &impl Fn(u32) -> bool,
    visit: &mut dyn FnMut(usize, u32, usize) -> bool,
) {
    let tolerance = tolerance as f32;
    let (mut polygon, mut slot) = (round.at, round.slot);
    for steps in 1..=round.max_steps.min(MAX_TURN) {
        let view = mesh.tile_view(polygon);
        let range = view.corner_range(polygon);
        let across = match round.turn {
            Turn::AcrossLeaving => slot,
            Turn::AcrossArriving => previous_in(range.start, range.end, slot),
        };
        let next = view.neighbour(across);
        if next == NO_NEIGHBOUR || next == round.at || !passable(next) {
            return;
        }
        polygon = next;
        let Some(found) = vertex_slot(mesh, polygon, round.point, tolerance) else {
            return;
        };
        slot = found;
        if visit(steps, polygon, slot) {
            return;
        }
    }
}

/// The corner slot of `polygon` whose vertex lies within `tolerance` of `point` in the
/// ground plane (the nearest such), if any.
#[inline]
fn vertex_slot(mesh: &MeshData, polygon: u32, point: Vec2, tolerance: f32) -> Option<usize> {
    // The polygon's tile looked up once (its corners and their points are all in it);
    // a plain loop over its corner slice: this runs at every corner of every exact path.
    let view = mesh.tile_view(polygon);
    let range = view.corner_range(polygon);
    // A corner farther than twice the tolerance along either axis is farther than the
    // tolerance whatever the rounding of its distance: skipped before the square root.
    let reach = tolerance * 2.0;
    let mut best: Option<(usize, f32)> = None;
    for (slot, &vertex) in range.clone().zip(view.corners(range)) {
        let offset = view.point(vertex) - point;
        if offset.x.abs() > reach || offset.y.abs() > reach {
            continue;
        }
        let distance = offset.length();
        // The first of equally near corners, as `min_by` would keep.
        if distance <= tolerance && best.is_none_or(|(_, nearest)| distance < nearest) {
            best = Some((slot, distance));
        }
    }
    best.map(|(slot, _)| slot)
}

/// How far inside the angle of `polygon` (convex, counter-clockwise) at its corner
/// `slot` the vertex plus `segment` (ground plane) lies: its least distance from the
/// lines of the angle's two sides, negative outside.
///
/// The lines alone hold the angle's opposite too, up to the tolerance a caller
/// allows: in a sliver's angle of a few hundredths of a degree, a short segment
/// pointing straight away from it lies within rounding of both lines. So a segment
/// pointing away from the angle's bisector is outside by as much as it points away.
#[inline]
fn angle_margin(mesh: &MeshData, polygon: u32, slot: usize, segment: DVec2) -> f64 {
    let view = mesh.tile_view(polygon);
    let range = view.corner_range(polygon);
    let ground = |s: usize| view.point(view.corner(s)).as_dvec2();
    let vertex = ground(slot);
    let leaving = ground(crate::mesh::next_in(range.clone(), slot)) - vertex;
    let arriving = ground(previous_in(range.start, range.end, slot)) - vertex;
    let side = |edge: DVec2, cross: f64| cross / edge.length().max(f64::MIN_POSITIVE);
    let lines =
        side(leaving, leaving.perp_dot(segment)).min(side(arriving, segment.perp_dot(arriving)));
    // A straight angle (collinear corners) has no inside direction to point away from.
    let bisector = leaving.normalize_or_zero() + arriving.normalize_or_zero();
    if bisector.length_squared() < 1e-12 {
        return lines;
    }
    lines.min(segment.dot(bisector.normalize()))
}

/// The slot before `slot` in the cyclic range `start..end`.
fn previous_in(start: usize, end: usize, slot: usize) -> usize {
    if slot == start { end - 1 } else { slot - 1 }
}
