//! The visibility wedge of a partial corridor: how A* estimates path lengths.
//!
//! Classic navmesh A* places a node at the midpoint of the portal it was entered by and
//! charges the distance between midpoints. On meshes with long portals (merged grid
//! rectangles, large open polygons) that estimate is far from the length of the pulled
//! path, so A* can prefer a corridor whose pulled path is several times longer than the
//! best one. Instead, each node carries one step of the funnel algorithm: an apex (the
//! last corner the path must turn around, or the start), the path length up to it, and
//! the two rays from it that bound what is visible through the corridor so far.
//!
//! Advancing through a portal narrows the wedge; when the portal lies entirely on one
//! side of it, that side's bounding point becomes the new apex (a corner of the path)
//! and the wedge restarts from there through the new portal. Unlike the full funnel,
//! the restarted wedge does not re-examine the portals between the new apex and the
//! current one, so it can be wider than the truth; the estimate stays a close,
//! cheap (O(1) per expansion) approximation, and the final path is pulled by the
//! exact funnel anyway.

use glam::Vec3;

use crate::geometry::{UpAxis, closest_point_on_segment, point_on_segment_2d, signed_area2};

/// The funnel state carried by an A* node. Points are world positions; the side
/// tests use their ground-plane projections.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Wedge {
    /// The last corner of the path so far (the start, or a mesh vertex).
    pub apex: Vec3,
    /// Length of the path from the start to `apex`, in world units.
    pub apex_cost: f32,
    /// The point bounding the visible wedge on the walker's left (equal to `apex`
    /// while the wedge is still unconstrained on that side).
    pub left: Vec3,
    /// The point bounding the visible wedge on the walker's right.
    pub right: Vec3,
}

impl Wedge {
    /// The wedge at the start point: nothing constrains it yet.
    pub fn at(start: Vec3) -> Wedge {
        Wedge {
            apex: start,
            apex_cost: 0.0,
            left: start,
            right: start,
        }
    }

    /// The wedge after walking through the portal `left..right` (as seen by the walker).
    pub fn through(self, up: UpAxis, left: Vec3, right: Vec3) -> Wedge {
        let g = |p: Vec3| up.ground(p);
        let apex = g(self.apex);
        let (portal_left, portal_right) = (g(left), g(right));
        if g(self.left) == apex && g(self.right) == apex {
            // A portal through the apex (a start on an edge or vertex) constrains
            // nothing: the apex sees all of the convex polygon beyond it, and a
            // 180-degree wedge would make the side tests ambiguous.
            if point_on_segment_2d(apex, portal_left, portal_right) {
                return self;
            }
            return Wedge {
                left,
                right,
                ..self
            };
        }
        let mut wedge = self;
        // The portal's right end narrows the right side unless it lies right of it.
        if signed_area2(apex, g(wedge.right), portal_right) >= 0.0 {
            if g(wedge.right) == apex || signed_area2(apex, g(wedge.left), portal_right) <= 0.0 {
                wedge.right = right;
            } else {
                // The whole portal is left of the wedge: the path turns around `left`.
                return self.turn_at(self.left, left, right);
            }
        }
        if signed_area2(apex, g(wedge.left), portal_left) <= 0.0 {
            if g(wedge.left) == apex || signed_area2(apex, g(wedge.right), portal_left) >= 0.0 {
                wedge.left = left;
            } else {
                return self.turn_at(self.right, left, right);
            }
        }
        wedge
    }

    /// A new wedge from `corner` through the portal `left..right`.
    fn turn_at(self, corner: Vec3, left: Vec3, right: Vec3) -> Wedge {
        Wedge {
            apex: corner,
            apex_cost: self.apex_cost + self.apex.distance(corner),
            left,
            right,
        }
    }

    /// Estimated length of the shortest path from the start to `target` that follows the
    /// corridor so far: to the apex, then straight to the target if it is inside the
    /// wedge, else around the bounding point on the target's side.
    pub fn length_to(self, up: UpAxis, target: Vec3) -> f32 {
        let g = |p: Vec3| up.ground(p);
        let (apex, t) = (g(self.apex), g(target));
        let left_of_left = g(self.left) != apex && signed_area2(apex, g(self.left), t) > 0.0;
        let right_of_right = g(self.right) != apex && signed_area2(apex, g(self.right), t) < 0.0;
        let via = |corner: Vec3| self.apex.distance(corner) + corner.distance(target);
        let remaining = match (left_of_left, right_of_right) {
            (false, false) => self.apex.distance(target),
            (true, false) => via(self.left),
            (false, true) => via(self.right),
            (true, true) => via(self.left).min(via(self.right)),
        };
        self.apex_cost + remaining
    }

    /// Length of the path from the start to the nearest point of the portal
    /// `left..right`, going straight from the apex: what the walk has cost so far.
    pub fn length_to_portal(self, left: Vec3, right: Vec3) -> f32 {
        self.apex_cost
            + self
                .apex
                .distance(closest_point_on_segment(self.apex, left, right))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f32, z: f32) -> Vec3 {
        Vec3::new(x, 0.0, z)
    }

    #[test]
    fn straight_corridor_keeps_the_apex() {
        // Walking +x; with Y up the ground is (x, z) and the walker's left is +z.
        let w = Wedge::at(p(0.0, 0.0))
            .through(UpAxis::Y, p(1.0, 1.0), p(1.0, -1.0))
            .through(UpAxis::Y, p(2.0, 1.0), p(2.0, -1.0));
        assert_eq!(w.apex, p(0.0, 0.0));
        assert_eq!(w.length_to(UpAxis::Y, p(3.0, 0.0)), 3.0);
    }

    #[test]
    fn portal_beside_the_wedge_turns_at_its_corner() {
        // A left turn around (1, 1): the second portal lies left of the first wedge.
        let w = Wedge::at(p(0.0, 0.5))
            .through(UpAxis::Y, p(1.0, 1.0), p(1.0, 0.0))
            .through(UpAxis::Y, p(0.0, 3.0), p(1.0, 3.0));
        assert_eq!(w.apex, p(1.0, 1.0));
        assert!((w.apex_cost - p(0.0, 0.5).distance(p(1.0, 1.0))).abs() < 1e-6);
    }

    #[test]
    fn target_outside_the_wedge_is_reached_around_its_bound() {
        let w = Wedge::at(p(0.0, 0.0)).through(UpAxis::Y, p(1.0, 1.0), p(1.0, -1.0));
        let expected = p(0.0, 0.0).distance(p(1.0, 1.0)) + p(1.0, 1.0).distance(p(1.0, 5.0));
        assert!((w.length_to(UpAxis::Y, p(1.0, 5.0)) - expected).abs() < 1e-6);
    }
}
