//! Walking a straight segment across the mesh, polygon by polygon, in the ground plane.

use glam::{DVec2, Vec2};

use super::{MeshData, NO_NEIGHBOUR};

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
    /// segment exits it (Cyrus-Beck clipping). When the segment passes exactly through a
    /// vertex, an edge that leads on is preferred over a wall. The walk is conservative:
    /// numerical doubt ends it as `Blocked`, never as a false `Reached`.
    pub fn walk_straight(&self, start: u32, from: Vec2, to: Vec2) -> WalkEnd {
        let (from, to) = (from.as_dvec2(), to.as_dvec2());
        let d = to - from;
        let mut polygon = start;
        let mut previous = NO_NEIGHBOUR;
        let mut t_enter = 0.0f64;
        for _ in 0..=self.polygon_count() {
            let range = self.corner_range(polygon);
            let mut t_exit = f64::INFINITY;
            let mut exit_slot = usize::MAX;
            let mut exit_leads_on = false;
            for slot in range.clone() {
                let next = if slot + 1 == range.end {
                    range.start
                } else {
                    slot + 1
                };
                let a = self.ground[self.corners[slot] as usize].as_dvec2();
                let b = self.ground[self.corners[next] as usize].as_dvec2();
                // Outward normal of a counter-clockwise edge: to the right of a -> b.
                let edge = b - a;
                let normal = DVec2::new(edge.y, -edge.x);
                let den = normal.dot(d);
                if den <= 0.0 {
                    continue; // moving along or into this edge's half-plane
                }
                let t = normal.dot(a - from) / den;
                let neighbour = self.neighbours[slot];
                let leads_on = neighbour != NO_NEIGHBOUR && neighbour != previous;
                let tie = (t - t_exit).abs() <= 1e-9 * (1.0 + t.abs());
                if (tie && leads_on && !exit_leads_on) || (!tie && t < t_exit) {
                    t_exit = t;
                    exit_slot = slot;
                    exit_leads_on = leads_on;
                }
            }
            if exit_slot == usize::MAX || t_exit >= 1.0 {
                return WalkEnd::Reached(polygon);
            }
            let neighbour = self.neighbours[exit_slot];
            if neighbour == NO_NEIGHBOUR || t_exit < t_enter - 1e-9 {
                return WalkEnd::Blocked {
                    polygon,
                    t: t_exit.max(0.0),
                    wall_slot: exit_slot,
                };
            }
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
