//! Walking a straight segment across the mesh, polygon by polygon, in the ground plane.

use glam::{DVec2, Vec2};

use super::{MeshData, NO_NEIGHBOUR, next_in};

/// How far (as a fraction of the edge) an exit point may lie beyond an edge's ends and
/// still count as on the edge.
const EDGE_TOLERANCE: f64 = 1e-9;

/// The parameter at which the segment `from + d * t` leaves the inner half-plane of the
/// counter-clockwise edge `a -> b`, or `None` when it runs along or into it.
#[inline]
fn exit_parameter(a: DVec2, b: DVec2, from: DVec2, d: DVec2) -> Option<f64> {
    // Outward normal of a counter-clockwise edge: to the right of a -> b.
    let edge = b - a;
    let normal = DVec2::new(edge.y, -edge.x);
    let den = normal.dot(d);
    (den > 0.0).then(|| normal.dot(a - from) / den)
}

/// Where a straight walk ended.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum WalkEnd {
    /// The segment's end lies in this polygon, reached without leaving the mesh.
    Reached(u32),
    /// The segment leaves the mesh through a wall at parameter `t` (0..1) of the segment.
    Blocked {
        polygon: u32,
        t: f64,
        wall_slot: usize,
    },
}

impl MeshData {
    /// Follows the segment `from -> to` (ground plane) from polygon `start`, which must
    /// hold `from`. Each step leaves the current convex polygon through the edge where the
    /// segment exits it (Cyrus-Beck clipping). Collinear corners make several edges share
    /// one line and so one exit parameter: the exit is the edge whose extent holds the
    /// exit point. When the segment passes exactly through a vertex, an edge that leads
    /// on is preferred over a wall. The walk is conservative: numerical doubt ends it as
    /// `Blocked`, never as a false `Reached`.
    ///
    /// An edge into a polygon for which `passable` is false counts as a wall.
    pub fn walk_straight(
        &self,
        start: u32,
        from: Vec2,
        to: Vec2,
        passable: impl Fn(u32) -> bool,
    ) -> WalkEnd {
        self.walk_straight_through(start, from, to, passable, |_, _| {})
    }

    /// As [`MeshData::walk_straight`], calling `left(polygon, t)` each time the walk
    /// leaves a polygon for the next one, at parameter `t` (0..1, never decreasing) of
    /// the segment.
    pub fn walk_straight_through(
        &self,
        start: u32,
        from: Vec2,
        to: Vec2,
        passable: impl Fn(u32) -> bool,
        mut left: impl FnMut(u32, f64),
    ) -> WalkEnd {
        let (from, to) = (from.as_dvec2(), to.as_dvec2());
        let d = to - from;
        // How far back (as a parameter of the segment) an exit may lie before the entry:
        // the ends are f32 points, snapped onto edges up to rounding, so a start on a
        // portal may sit a few ulps outside its polygon.
        let scale = from.abs().max(to.abs()).max_element().max(1.0);
        let slack = scale * f64::from(f32::EPSILON) * 8.0 / d.length().max(f64::MIN_POSITIVE);
        let mut polygon = start;
        let mut previous = NO_NEIGHBOUR;
        let mut t_enter = 0.0f64;
        for _ in 0..=self.polygon_count() {
            // The polygon's tile, looked up once: its corners, points and neighbours
            // are all in it (on a world of tiles, a lookup by global id decodes it).
            let view = self.tile_view(polygon);
            let range = view.corner_range(polygon);
            let edge_at = |slot: usize| {
                let next = next_in(range.clone(), slot);
                (
                    view.point(view.corner(slot)).as_dvec2(),
                    view.point(view.corner(next)).as_dvec2(),
                )
            };
            // The exit parameter: the first edge half-plane the segment leaves.
            let mut t_exit = f64::INFINITY;
            for slot in range.clone() {
                let (a, b) = edge_at(slot);
                if let Some(t) = exit_parameter(a, b, from, d) {
                    t_exit = t_exit.min(t);
                }
            }
            if t_exit >= 1.0 {
                return WalkEnd::Reached(polygon);
            }
            // The exit edge: among the edges leaving at (about) `t_exit`, the one holding
            // the exit point, preferring one that leads on when the point is a vertex.
            let exit_point = from + d * t_exit;
            let mut exit_slot = usize::MAX;
            let mut best = (true, true, f64::INFINITY);
            for slot in range.clone() {
                let (a, b) = edge_at(slot);
                let Some(t) = exit_parameter(a, b, from, d) else {
                    continue;
                };
                if (t - t_exit).abs() > 1e-9 * (1.0 + t_exit.abs()) {
                    continue;
                }
                let edge = b - a;
                let s = (exit_point - a).dot(edge) / edge.length_squared();
                let outside = (-s).max(s - 1.0).max(0.0);
                let neighbour = view.neighbour(slot);
                let leads_on =
                    neighbour != NO_NEIGHBOUR && neighbour != previous && passable(neighbour);
                let key = (outside > EDGE_TOLERANCE, !leads_on, outside);
                if key < best {
                    best = key;
                    exit_slot = slot;
                }
            }
            let neighbour = view.neighbour(exit_slot);
            if neighbour == NO_NEIGHBOUR || !passable(neighbour) || t_exit < t_enter - slack {
                return WalkEnd::Blocked {
                    polygon,
                    t: t_exit.max(0.0),
                    wall_slot: exit_slot,
                };
            }
            left(polygon, t_exit.max(t_enter).clamp(0.0, 1.0));
            t_enter = t_exit;
            previous = polygon;
            polygon = neighbour;
        }
        WalkEnd::Blocked {
            polygon,
            t: t_enter,
            wall_slot: usize::MAX,
        }
    }
}
