//! The polygons around a vertex, grouped into fans.
//!
//! A fan is a set of polygons around a vertex connected to each other by edges that end
//! at the vertex. An inner vertex has one closed fan. A boundary vertex has one open fan,
//! or several where the walkable area is pinched to a point: two squares touching at a
//! corner. Polygons of different fans are not neighbours (a path cannot squeeze through
//! a point), but a point exactly at the vertex lies on all of them, so a path may start
//! or end in any of them.

use glam::Vec3;

use super::{MeshData, NO_NEIGHBOUR};

/// The most fans a snapped point is given (a vertex pinched four times over is
/// unheard of; beyond it, the extra fans are simply not offered).
pub(crate) const MAX_FANS: usize = 4;

/// One polygon from each fan touching a snapped point; the snapped polygon first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Fans {
    polygons: [u32; MAX_FANS],
    len: usize,
}

impl Fans {
    fn one(polygon: u32) -> Fans {
        Fans {
            polygons: [polygon; MAX_FANS],
            len: 1,
        }
    }

    /// The polygons, one per fan.
    pub fn as_slice(&self) -> &[u32] {
        &self.polygons[..self.len]
    }
}

impl MeshData {
    /// One polygon of every fan that touches `point`, which the snap placed on `polygon`,
    /// among the polygons `admitted` accepts (the query's filter). Unless the point is
    /// (to rounding) a vertex of a pinched boundary, that is only `polygon`; the search
    /// for other fans runs only in that case.
    pub(crate) fn fans_at(
        &self,
        polygon: u32,
        point: Vec3,
        admitted: impl Fn(u32) -> bool,
    ) -> Fans {
        let mut fans = Fans::one(polygon);
        // Rounding in the ground plane and in height apart: a height far from 0 (f32
        // steps of 2 at 2^24) must not make points a cell apart on the ground the same.
        let (ground, height) = (self.up.ground(point), self.up.height(point));
        let tolerance = ground.abs().max_element().max(1.0) * f32::EPSILON * 8.0;
        let rise = height.abs().max(1.0) * f32::EPSILON * 8.0;
        let Some(vertex) = self.corners[self.corner_range(polygon)]
            .iter()
            .copied()
            .find(|&v| {
                let at = self.vertices[v as usize];
                self.up.ground(at).distance_squared(ground) <= tolerance * tolerance
                    && (self.up.height(at) - height).abs() <= rise
            })
        else {
            return fans;
        };
        let tolerance = tolerance.max(rise);
        if self.fan_is_closed(polygon, vertex) {
            return fans;
        }
        let reach = self.vertices[vertex as usize].distance(point) + tolerance;
        while fans.len < MAX_FANS {
            let known = fans;
            let other = self.nearest_polygon(point, reach * reach, |p| {
                let new_fan = self.has_corner(p, vertex)
                    && admitted(p)
                    && !known
                        .as_slice()
                        .iter()
                        .any(|&q| self.same_fan(q, p, vertex));
                new_fan.then(|| self.closest_point_on_polygon(p, point))
            });
            let Some((p, _, _)) = other else { break };
            fans.polygons[fans.len] = p;
            fans.len += 1;
        }
        fans
    }

    fn has_corner(&self, polygon: u32, vertex: u32) -> bool {
        self.corners[self.corner_range(polygon)].contains(&vertex)
    }

    /// The polygon across the edge of `polygon` that leaves `vertex` (`forward`, the
    /// edge from `vertex` to the next corner) or arrives at it (the edge from the
    /// previous corner). Turning always `forward` goes round the vertex one way.
    fn turn(&self, polygon: u32, vertex: u32, forward: bool) -> u32 {
        let range = self.corner_range(polygon);
        let Some(at) = self.corners[range.clone()]
            .iter()
            .position(|&v| v == vertex)
        else {
            return NO_NEIGHBOUR;
        };
        let slot = if forward {
            at
        } else {
            (at + range.len() - 1) % range.len()
        };
        self.neighbours[range.start + slot]
    }

    /// Whether turning round `vertex` from `polygon` comes back to it.
    fn fan_is_closed(&self, polygon: u32, vertex: u32) -> bool {
        let mut current = polygon;
        for _ in 0..self.polygon_count() {
            current = self.turn(current, vertex, true);
            if current == NO_NEIGHBOUR {
                return false;
            }
            if current == polygon {
                return true;
            }
        }
        false
    }

    /// Whether `a` and `b` are in the same fan round `vertex`.
    fn same_fan(&self, a: u32, b: u32, vertex: u32) -> bool {
        if a == b {
            return true;
        }
        for forward in [true, false] {
            let mut current = a;
            for _ in 0..self.polygon_count() {
                current = self.turn(current, vertex, forward);
                if current == b {
                    return true;
                }
                if current == NO_NEIGHBOUR || current == a {
                    break;
                }
            }
        }
        false
    }
}
