//! From a corridor (polygons and the portals or links between them) to the path an
//! agent walks: corners with details, and the path's cost under a filter.
//!
//! A corridor is cut at its off-mesh links into walkable stretches. Each stretch is
//! pulled tight with the funnel algorithm; then the pulled path is traced through the
//! stretch's portals, which tells which polygon each piece of it crosses (for area
//! costs) and where it passes from one area into another.

use glam::Vec3;

use super::corners::{CornerDetail, CornerFlags, PathArc, path_length};
use super::funnel::{Portal, string_pull};
use crate::filter::QueryFilter;
use crate::geometry::UpAxis;
use crate::mesh::{MeshData, WalkEnd};

/// One step of a corridor: a polygon and how it is left.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct CorridorStep {
    pub polygon: u32,
    /// The search node of the next step ([`StepKey`]): a corner slot of `polygon` (the
    /// portal it is left by), or [`hop_key`] of the off-mesh link hop taken;
    /// [`LAST_STEP`] for the last polygon.
    pub exit: StepKey,
}

/// How a polygon is entered or left along a corridor, and the key of a search node: a
/// corner slot id (below [`HOP_KEYS`]), an off-mesh link hop ([`hop_key`]), or
/// [`LAST_STEP`]. Slot and hop ids each use all 32 bits of an element id (`tile <<
/// local_bits | local`), so hops get their own half of a 64-bit key space: a world whose
/// last tile slot is filled cannot run its hop keys into its slot ids or past `u32`.
pub(crate) type StepKey = u64;

/// The first key of a link hop: slot ids are below it.
pub(crate) const HOP_KEYS: StepKey = 1 << 32;

/// `CorridorStep::exit` of the last step.
pub(crate) const LAST_STEP: StepKey = StepKey::MAX;

/// The key of link hop `hop` (a hop id of the mesh's link tables).
#[inline]
pub(crate) fn hop_key(hop: u32) -> StepKey {
    HOP_KEYS | StepKey::from(hop)
}

/// The hop of a key at or above [`HOP_KEYS`] (not [`LAST_STEP`]); `None` for a slot.
#[inline]
pub(crate) fn key_hop(key: StepKey) -> Option<u32> {
    (key >= HOP_KEYS).then(|| (key - HOP_KEYS) as u32)
}

/// How a corridor step is left.
enum Exit {
    Portal,
    Link(usize),
    End,
}

fn exit_of(step: &CorridorStep) -> Exit {
    match step.exit {
        LAST_STEP => Exit::End,
        e => key_hop(e).map_or(Exit::Portal, |hop| Exit::Link(hop as usize)),
    }
}

/// Reusable memory for pulling corridors.
#[derive(Debug, Clone, Default)]
pub(crate) struct PullScratch {
    portals: Vec<Portal>,
    corners: Vec<Vec3>,
    /// Per portal of a stretch: where the path crosses it (0..1 from its left end).
    crossings: Vec<f32>,
}

/// A pulled path: corners and their details, in walking order.
#[derive(Debug, Clone, Default)]
pub(crate) struct PathBuffer {
    pub corners: Vec<Vec3>,
    pub details: Vec<CornerDetail>,
    /// The turns round wall corners (paths for an agent radius only).
    pub arcs: Vec<PathArc>,
}

impl PathBuffer {
    pub fn clear(&mut self) {
        self.corners.clear();
        self.details.clear();
        self.arcs.clear();
    }

    fn push(&mut self, point: Vec3, flags: CornerFlags, area: u8, link: Option<u32>) {
        self.corners.push(point);
        self.details.push(CornerDetail { flags, area, link });
    }

    /// A straight path of two corners from `start` to `end` through area `area`.
    pub fn straight(&mut self, start: Vec3, end: Vec3, area: u8) {
        self.clear();
        self.push(start, CornerFlags::START, area, None);
        self.push(end, CornerFlags::END, area, None);
    }

    /// Plain corners (from the exact mode) with start and end flags.
    pub fn flag_plain_corners(&mut self, mesh: &MeshData, start_polygon: u32) {
        self.details.clear();
        let area = mesh.areas[start_polygon as usize];
        let n = self.corners.len();
        for i in 0..n {
            let mut flags = CornerFlags::NONE;
            if i == 0 {
                flags |= CornerFlags::START;
            }
            if i + 1 == n {
                flags |= CornerFlags::END;
            }
            self.details.push(CornerDetail {
                flags,
                area,
                link: None,
            });
        }
        self.merge_repeated_corners();
    }

    /// Merges each run of equal consecutive corners (a start exactly on an off-mesh
    /// link's start, a goal exactly on its end, one link ending where the next starts)
    /// into one corner with all their flags, the area of the last (the one walked
    /// through after it) and the link of the last that names one (the link taken from
    /// there when there is one). A path from a point to itself keeps its two corners.
    fn merge_repeated_corners(&mut self) {
        let mut kept = 0;
        for i in 1..self.corners.len() {
            let remaining = self.corners.len() - i;
            if self.corners[i] == self.corners[kept] && kept + remaining >= 2 {
                let (earlier, later) = (self.details[kept], self.details[i]);
                self.details[kept] = CornerDetail {
                    flags: earlier.flags | later.flags,
                    area: later.area,
                    link: later.link.or(earlier.link),
                };
            } else {
                kept += 1;
                self.corners[kept] = self.corners[i];
                self.details[kept] = self.details[i];
            }
        }
        self.corners.truncate(kept + 1);
        self.details.truncate(kept + 1);
    }
}

/// The cost under `filter` of walking straight from corner to corner of a path that
/// stays on polygons the filter admits (the exact mode's): each piece of a segment
/// costs its 3D length times the cost of the area of the polygon it crosses. With one
/// cost for every area that is the length times it. Otherwise each segment is walked
/// across the mesh both ways from its middle (its ends are often vertices that several
/// polygons share; its middle lies in the one it crosses); a walk that rounding stops
/// early charges the rest of its half at the cost of the polygon it stopped in.
pub(crate) fn walked_cost(mesh: &MeshData, corners: &[Vec3], filter: &QueryFilter) -> f32 {
    if filter.is_uniform() {
        return filter.cost(0) * path_length(corners);
    }
    let admitted = |p: u32| filter.admits(mesh.flags_of(p));
    let cost_of = |p: u32| f64::from(filter.cost(mesh.areas[p as usize]));
    let mut total = 0.0f64;
    for pair in corners.windows(2) {
        let middle = pair[0].lerp(pair[1], 0.5);
        let Some(at) = mesh.nearest_point(middle, f32::INFINITY, admitted) else {
            continue;
        };
        let half = f64::from(pair[0].distance(pair[1])) * 0.5;
        for end in pair {
            let (mut cost, mut walked) = (0.0f64, 0.0f64);
            let (from, to) = (mesh.up.ground(middle), mesh.up.ground(*end));
            let stop = mesh.walk_straight_through(at.polygon, from, to, admitted, |p, t| {
                cost += (t - walked) * cost_of(p);
                walked = t;
            });
            let last = match stop {
                WalkEnd::Reached(p) | WalkEnd::Blocked { polygon: p, .. } => p,
            };
            cost += (1.0 - walked) * cost_of(last);
            total += cost * half;
        }
    }
    total as f32
}

/// What to produce besides the cost.
#[derive(Clone, Copy)]
pub(crate) struct PullRequest<'a> {
    pub start: Vec3,
    pub target: Vec3,
    pub filter: &'a QueryFilter,
    /// Insert a corner wherever the path passes into a polygon of another area.
    pub split_at_area_changes: bool,
    /// Trace the path through its portals for corner areas and area changes even when
    /// the filter is uniform (wanted for the returned path, not when measuring).
    pub trace: bool,
}

/// Pulls `corridor` tight from `request.start` to `request.target` into `out` and
/// returns the path's cost: each piece's length times its area's cost, plus each link's
/// cost times its area's cost.
pub(crate) fn pull_corridor(
    mesh: &MeshData,
    corridor: &[CorridorStep],
    request: &PullRequest<'_>,
    scratch: &mut PullScratch,
    out: &mut PathBuffer,
) -> f32 {
    out.clear();
    let filter = request.filter;
    let mut cost = 0.0;
    let mut from = request.start;
    let mut first = 0;
    let mut arrived_by = None;
    for (i, step) in corridor.iter().enumerate() {
        let (to, link) = match exit_of(step) {
            Exit::Portal => continue,
            Exit::End => (request.target, None),
            Exit::Link(hop) => {
                let hop = &mesh.links.hops[hop];
                (hop.from, Some(hop))
            }
        };
        cost += pull_stretch(
            mesh,
            &corridor[first..=i],
            (from, to),
            request,
            arrived_by,
            scratch,
            out,
        );
        if let Some(hop) = link {
            let last = out.details.len() - 1;
            out.details[last].flags |= CornerFlags::LINK_START;
            out.details[last].link = Some(hop.link);
            out.details[last].area = mesh.links.area[hop.link as usize];
            let area = mesh.links.area[hop.link as usize];
            cost += mesh.links.cost[hop.link as usize] * filter.cost(area);
            from = hop.to;
            arrived_by = Some(hop.link);
            first = i + 1;
        }
    }
    let last = out.details.len() - 1;
    out.details[last].flags |= CornerFlags::END;
    out.merge_repeated_corners();
    cost
}

/// Pulls one stretch (no links inside) and appends its corners; returns its cost.
///
/// The funnel gives the shortest path through the stretch. When its polygons cost the
/// same, that is also the cheapest, and (unless corner areas are asked for) the cost is
/// the length times that cost. Otherwise the path is traced through the portals, and
/// where costs differ the crossing points are moved along their portals to the
/// cheapest path through the stretch: the cost is a sum of weighted distances between
/// consecutive crossing points, each an affine function of the crossing parameters, so
/// it is convex in them and descent one crossing at a time reaches its minimum (a path
/// that skirts a costly polygon along its edge instead of cutting through it).
fn pull_stretch(
    mesh: &MeshData,
    steps: &[CorridorStep],
    (from, to): (Vec3, Vec3),
    request: &PullRequest<'_>,
    arrived_by: Option<u32>,
    scratch: &mut PullScratch,
    out: &mut PathBuffer,
) -> f32 {
    stretch_portals(mesh, steps, from, to, &mut scratch.portals);
    string_pull(&scratch.portals, &mut scratch.corners);
    let area_of = |s: usize| mesh.areas[steps[s].polygon as usize];
    let cost_of = |s: usize| request.filter.cost(area_of(s));
    let first_flags = if arrived_by.is_none() {
        CornerFlags::START
    } else {
        CornerFlags::LINK_END
    };
    let first_cost = cost_of(0);
    let uniform = (1..steps.len()).all(|s| cost_of(s) == first_cost);
    if uniform && !request.split_at_area_changes {
        // The funnel's corners are the path. A corner's area is that of the polygon
        // after the last portal it ends (found in one pass), when asked for.
        out.push(scratch.corners[0], first_flags, area_of(0), arrived_by);
        let portals = &scratch.portals;
        let ends = |j: usize, c: Vec3| portals[j].left_world == c || portals[j].right_world == c;
        let mut j = 1;
        let mut length = 0.0;
        let last = scratch.corners.len() - 1;
        for (k, pair) in scratch.corners.windows(2).enumerate() {
            length += pair[0].distance(pair[1]);
            let corner = pair[1];
            let area = if !request.trace {
                area_of(0)
            } else if k + 1 == last {
                area_of(steps.len() - 1)
            } else {
                while j + 1 < portals.len() && !ends(j, corner) {
                    j += 1;
                }
                while j + 2 < portals.len() && ends(j + 1, corner) {
                    j += 1;
                }
                area_of(j.min(steps.len() - 1))
            };
            out.push(corner, CornerFlags::NONE, area, None);
        }
        return length * cost_of(0);
    }
    crossings_of_funnel(
        mesh.up,
        &scratch.portals,
        &scratch.corners,
        &mut scratch.crossings,
    );
    if !uniform {
        cheapest_crossings(&scratch.portals, &mut scratch.crossings, cost_of);
    }
    // The walk: the start, each crossing, the end; crossings where it goes straight on
    // are not corners, unless they mark an area change that was asked for.
    let portals = &scratch.portals;
    let point = |j: usize| match j {
        0 => from,
        j if j == portals.len() - 1 => to,
        j => portal_point(&portals[j], scratch.crossings[j]),
    };
    // With one cost the funnel's corners are the path's; the next one to meet.
    let mut next_funnel_corner = 1;
    out.push(from, first_flags, area_of(0), arrived_by);
    let mut cost = 0.0;
    let mut last_corner = from;
    let mut walked_from = from;
    for j in 1..portals.len() {
        let here = point(j);
        cost += walked_from.distance(here) * cost_of(j - 1);
        walked_from = here;
        if j == portals.len() - 1 {
            // The end; a crossing there already (an end on a portal) is the same corner.
            if here != last_corner || out.corners.len() < 2 {
                out.push(here, CornerFlags::NONE, area_of(j - 1), None);
            }
            break;
        }
        let area_changes = area_of(j) != area_of(j - 1);
        let turns = if uniform {
            let inner = next_funnel_corner + 1 < scratch.corners.len();
            let corner = inner && scratch.corners[next_funnel_corner] == here;
            if corner {
                next_funnel_corner += 1;
            }
            corner || here == last_corner
        } else {
            !goes_straight(mesh.up, last_corner, here, point(j + 1))
        };
        if turns || (area_changes && request.split_at_area_changes) {
            let flags = if area_changes && request.split_at_area_changes {
                CornerFlags::AREA_CHANGE
            } else {
                CornerFlags::NONE
            };
            if here == last_corner {
                // Two crossings at one vertex: one corner, in the later area.
                let last = out.details.len() - 1;
                out.details[last].flags |= flags;
                out.details[last].area = area_of(j);
            } else {
                out.push(here, flags, area_of(j), None);
                last_corner = here;
            }
        }
    }
    cost
}

/// Whether `b` lies on the straight way from `a` to `c` in the ground plane (within
/// rounding), so that it need not be a corner.
fn goes_straight(up: UpAxis, a: Vec3, b: Vec3, c: Vec3) -> bool {
    let (a, b, c) = (up.ground(a), up.ground(b), up.ground(c));
    let (ab, bc) = (b - a, c - b);
    let scale = ab.length() * bc.length();
    if scale == 0.0 {
        return b == a || b == c;
    }
    ab.perp_dot(bc).abs() <= 1e-5 * scale && ab.dot(bc) > 0.0
}

/// For each inner portal `j` of a stretch, the parameter (0 at its left end, 1 at its
/// right end) where the funnel path `corners` crosses it, into `crossings[j]`.
fn crossings_of_funnel(up: UpAxis, portals: &[Portal], corners: &[Vec3], crossings: &mut Vec<f32>) {
    crossings.clear();
    crossings.resize(portals.len(), 0.0);
    let mut tracer = Tracer {
        up,
        corners,
        segment: 0,
        t: 0.0,
        position: corners[0],
    };
    for (j, portal) in portals.iter().enumerate().take(portals.len() - 1).skip(1) {
        let crossing = tracer.cross(portal);
        tracer.position = crossing;
        crossings[j] = if crossing == portal.left_world {
            0.0
        } else if crossing == portal.right_world {
            1.0
        } else {
            parameter_on_portal(up, portal, crossing)
        };
    }
}

/// The point at parameter `t` of `portal` (world coordinates; its ends exactly at 0 and 1).
fn portal_point(portal: &Portal, t: f32) -> Vec3 {
    match t {
        0.0 => portal.left_world,
        1.0 => portal.right_world,
        t => portal.left_world.lerp(portal.right_world, t),
    }
}

/// The parameter of the point of `portal` nearest to `point`, in the ground plane.
fn parameter_on_portal(up: UpAxis, portal: &Portal, point: Vec3) -> f32 {
    let p = up.ground(point);
    let edge = portal.right - portal.left;
    let length_squared = edge.length_squared();
    if length_squared == 0.0 {
        return 0.0;
    }
    ((p - portal.left).dot(edge) / length_squared).clamp(0.0, 1.0)
}

/// Moves the crossing parameters of the inner portals to the cheapest path through them:
/// the walk from portal `j` to `j + 1` costs `cost_of(j)` per unit of length. Descent
/// over one crossing at a time, each an exact minimisation of a convex function of one
/// variable (golden-section search, in `f64`: near its minimum the cost is flat to
/// second order, so `f32` could not place it better than about 3e-4), until no crossing
/// moves by more than 1e-9 of its portal, or a sweep limit.
fn cheapest_crossings(portals: &[Portal], crossings: &mut [f32], cost_of: impl Fn(usize) -> f32) {
    const SWEEPS: usize = 64;
    let n = portals.len();
    let ends = |j: usize| {
        (
            portals[j].left_world.as_dvec3(),
            portals[j].right_world.as_dvec3(),
        )
    };
    let point = |j: usize, t: f64| {
        let (l, r) = ends(j);
        l + (r - l) * t
    };
    let mut params: Vec<f64> = crossings.iter().map(|&c| f64::from(c)).collect();
    for _ in 0..SWEEPS {
        let mut moved = 0.0f64;
        for j in 1..n - 1 {
            let before = point(j - 1, if j == 1 { 0.0 } else { params[j - 1] });
            let after = point(j + 1, if j + 1 == n - 1 { 0.0 } else { params[j + 1] });
            let (a, b) = (f64::from(cost_of(j - 1)), f64::from(cost_of(j)));
            let cost = |t: f64| {
                let x = point(j, t);
                a * before.distance(x) + b * x.distance(after)
            };
            let best = golden_section_minimum(cost);
            moved = moved.max((best - params[j]).abs());
            params[j] = best;
        }
        if moved <= 1e-9 {
            break;
        }
    }
    for (c, p) in crossings.iter_mut().zip(&params).take(n - 1).skip(1) {
        *c = *p as f32;
    }
}

/// The minimum of a convex function on `0..=1`, to about 1e-10; an end of the interval
/// when it is as good (up to rounding) as the inside, since a path round a corner crosses
/// a portal exactly at its end.
fn golden_section_minimum(f: impl Fn(f64) -> f64) -> f64 {
    const RATIO: f64 = 0.618_033_988_749_894_8;
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    let mut x1 = hi - RATIO * (hi - lo);
    let mut x2 = lo + RATIO * (hi - lo);
    let (mut f1, mut f2) = (f(x1), f(x2));
    for _ in 0..48 {
        if f1 <= f2 {
            hi = x2;
            x2 = x1;
            f2 = f1;
            x1 = hi - RATIO * (hi - lo);
            f1 = f(x1);
        } else {
            lo = x1;
            x1 = x2;
            f1 = f2;
            x2 = lo + RATIO * (hi - lo);
            f2 = f(x2);
        }
    }
    let mid = 0.5 * (lo + hi);
    let inside = f(mid);
    let tolerance = 1e-12 * inside.abs().max(1e-30);
    match (f(0.0) <= inside + tolerance, f(1.0) <= inside + tolerance) {
        (true, _) => 0.0,
        (_, true) => 1.0,
        _ => mid,
    }
}

/// Follows a pulled path through its portals.
struct Tracer<'a> {
    up: UpAxis,
    corners: &'a [Vec3],
    /// The corner segment being walked: `corners[segment]..corners[segment + 1]`.
    segment: usize,
    /// How far along it the walk is (0..1).
    t: f32,
    /// Where the walk is.
    position: Vec3,
}

impl Tracer<'_> {
    /// Where the path crosses `portal` (the walk's position must be the last crossing).
    fn cross(&mut self, portal: &Portal) -> Vec3 {
        let last = self.corners.len() - 1;
        // Standing on a corner (it ended the previous portals): walk on from it.
        while self.segment + 1 < last && self.position == self.corners[self.segment + 1] {
            self.segment += 1;
            self.t = 0.0;
        }
        loop {
            let b = self.corners[self.segment + 1];
            let inner = self.segment + 1 < last;
            if inner && (b == portal.left_world || b == portal.right_world) {
                // The path turns at an end of this portal: it crosses there.
                return b;
            }
            let a = self.corners[self.segment];
            let t = crossing_parameter(self.up, a, b, portal).max(self.t);
            if t >= 1.0 && inner {
                // It meets the portal past this segment's end: on a later segment.
                self.segment += 1;
                self.t = 0.0;
                continue;
            }
            self.t = t;
            return a.lerp(b, t);
        }
    }
}

/// The parameter along `a -> b` (ground plane) where it meets the line of `portal`,
/// clamped to `0..=1`; 0 when they are parallel.
fn crossing_parameter(up: UpAxis, a: Vec3, b: Vec3, portal: &Portal) -> f32 {
    let (a, b) = (up.ground(a), up.ground(b));
    let edge = portal.right - portal.left;
    let d = b - a;
    let denominator = d.perp_dot(edge);
    if denominator == 0.0 {
        return 0.0;
    }
    ((portal.left - a).perp_dot(edge) / denominator).clamp(0.0, 1.0)
}

/// The portals of one stretch: the start point, each shared edge (left and right as seen
/// walking), then the end point.
fn stretch_portals(
    mesh: &MeshData,
    steps: &[CorridorStep],
    from: Vec3,
    to: Vec3,
    portals: &mut Vec<Portal>,
) {
    let up = mesh.up;
    portals.clear();
    portals.push(Portal::point(up.ground(from), from));
    for step in &steps[..steps.len() - 1] {
        // The step's tile, looked up once (on a world of tiles a lookup by global id
        // decodes it); a portal's end may be a vertex of the neighbour's tile.
        let view = mesh.tile_view(step.polygon);
        let slot = step.exit as usize;
        debug_assert!(view.corner_range(step.polygon).contains(&slot));
        let tile = view.tile();
        let [left, right] = mesh.portals.chunk_or_first(tile)[view.local(slot)];
        let vertices = mesh.vertices.chunk_or_first(tile);
        let point = |v: u32| match vertices.get(view.local(v as usize)) {
            Some(&world) if view.holds(v) => (view.point(v), world),
            _ => (mesh.ground[v as usize], mesh.vertices[v as usize]),
        };
        let ((left, left_world), (right, right_world)) = (point(left), point(right));
        portals.push(Portal {
            left,
            right,
            left_world,
            right_world,
        });
    }
    portals.push(Portal::point(up.ground(to), to));
}
