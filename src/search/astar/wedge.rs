//! The visibility wedge of a partial corridor: how A* estimates path lengths.
//!
//! Classic navmesh A* places a node at the midpoint of the portal it was entered by and
//! charges the distance between midpoints. On meshes with long portals (merged grid
//! rectangles, large open polygons) that estimate is far from the length of the pulled
//! path, so A* can prefer a corridor whose pulled path is several times longer than the
//! best one. Instead, each node carries the state of the funnel algorithm over its
//! corridor: an apex (the last corner the path must turn around, or the start), the
//! exact path length up to it, and the two points bounding what is visible from the
//! apex through the corridor so far, each tagged with the search node whose entry
//! portal it belongs to.
//!
//! Advancing through a portal narrows the wedge ([`Wedge::step`]); when the portal lies
//! entirely on one side of it, that side's bounding point is a corner of the path and
//! the funnel restarts from it over the portals that followed it
//! ([`Wedge::through_all`]), exactly as the funnel algorithm does. The estimate of a
//! node ([`Wedge::length_to`]) is then a lower bound of any path through its corridor.

use glam::Vec3;

use crate::geometry::{UpAxis, closest_point_on_segment, point_on_segment_2d, signed_area2};

/// Tags a bound that belongs to no portal (the wedge is still open on that side).
pub(crate) const NO_NODE: u32 = u32::MAX;

/// A portal of a corridor, tagged with the search node it leads into.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct TaggedPortal {
    /// Left endpoint as seen walking through, world coordinates.
    pub left: Vec3,
    /// Right endpoint, world coordinates.
    pub right: Vec3,
    /// The node entered through this portal.
    pub node: u32,
}

/// Which side of the wedge a portal fell beyond.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Side {
    /// The portal lies entirely left of the wedge: the path turns at its left bound.
    Left,
    /// The portal lies entirely right of the wedge.
    Right,
}

/// The outcome of [`Wedge::step`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Step {
    /// The wedge after the portal.
    Narrowed(Wedge),
    /// The portal is beyond one side: the path turns at that side's bounding point, and
    /// the funnel must restart from there.
    Turn(Side),
}

/// The funnel state carried by an A* node. Points are world positions; the side tests
/// use their ground-plane projections.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Wedge {
    /// The last corner of the path so far (the start, or a mesh vertex).
    pub apex: Vec3,
    /// Length of the path from the start to `apex`, in world units.
    pub apex_cost: f32,
    /// The point bounding the visible wedge on the walker's left (equal to `apex` while
    /// the wedge is still open on that side).
    pub left: Vec3,
    /// The point bounding the visible wedge on the walker's right.
    pub right: Vec3,
    /// The node whose entry portal holds `left` ([`NO_NODE`] while open).
    pub left_node: u32,
    /// The node whose entry portal holds `right`.
    pub right_node: u32,
}

impl Wedge {
    /// An open wedge at `apex`, reached after a path of length `apex_cost`.
    #[inline]
    pub fn at(apex: Vec3, apex_cost: f32) -> Wedge {
        Wedge {
            apex,
            apex_cost,
            left: apex,
            right: apex,
            left_node: NO_NODE,
            right_node: NO_NODE,
        }
    }

    /// The bounding point on `side` and the node whose portal holds it.
    #[inline]
    pub fn bound(&self, side: Side) -> (Vec3, u32) {
        match side {
            Side::Left => (self.left, self.left_node),
            Side::Right => (self.right, self.right_node),
        }
    }

    /// One step of the funnel algorithm: the wedge after walking through `portal`, or
    /// the side beyond which the portal lies.
    #[inline(always)]
    pub fn step(self, up: UpAxis, portal: &TaggedPortal) -> Step {
        let g = |p: Vec3| up.ground(p);
        let apex = g(self.apex);
        let (portal_left, portal_right) = (g(portal.left), g(portal.right));
        let (open_left, open_right) = (g(self.left) == apex, g(self.right) == apex);
        if open_left && open_right {
            // A portal through the apex (a start on an edge or vertex) constrains
            // nothing: the apex sees all of the convex polygon beyond it, and a
            // 180-degree wedge would make the side tests ambiguous.
            if point_on_segment_2d(apex, portal_left, portal_right) {
                return Step::Narrowed(self);
            }
            return Step::Narrowed(Wedge {
                left: portal.left,
                right: portal.right,
                left_node: portal.node,
                right_node: portal.node,
                ..self
            });
        }
        let mut wedge = self;
        // The portal's right end narrows the right side unless it lies right of it.
        if signed_area2(apex, g(wedge.right), portal_right) >= 0.0 {
            if open_right || signed_area2(apex, g(wedge.left), portal_right) <= 0.0 {
                wedge.right = portal.right;
                wedge.right_node = portal.node;
            } else {
                return Step::Turn(Side::Left);
            }
        }
        if signed_area2(apex, g(wedge.left), portal_left) <= 0.0 {
            if g(wedge.left) == apex || signed_area2(apex, g(wedge.right), portal_left) >= 0.0 {
                wedge.left = portal.left;
                wedge.left_node = portal.node;
            } else {
                return Step::Turn(Side::Right);
            }
        }
        Step::Narrowed(wedge)
    }

    /// The funnel algorithm from an open wedge at `apex` over `portals` in walking
    /// order, restarting at each corner: the exact funnel state after the last portal.
    pub fn through_all(up: UpAxis, apex: Vec3, apex_cost: f32, portals: &[TaggedPortal]) -> Wedge {
        let mut wedge = Wedge::at(apex, apex_cost);
        // While replaying, bounds are tagged with their position in `portals`, so a
        // restart knows where to resume; the real node tags are put back at the end.
        let mut i = 0;
        while i < portals.len() {
            let local = TaggedPortal {
                node: i as u32,
                ..portals[i]
            };
            match wedge.step(up, &local) {
                Step::Narrowed(next) => {
                    wedge = next;
                    i += 1;
                }
                Step::Turn(side) => {
                    let (corner, at) = wedge.bound(side);
                    wedge = Wedge::at(corner, wedge.apex_cost + wedge.apex.distance(corner));
                    // Resume just after the portal that holds the corner.
                    i = at as usize + 1;
                }
            }
        }
        let tag = |local: u32| {
            if local == NO_NODE {
                NO_NODE
            } else {
                portals[local as usize].node
            }
        };
        wedge.left_node = tag(wedge.left_node);
        wedge.right_node = tag(wedge.right_node);
        wedge
    }

    /// A lower bound of the length of any path from the start to `target` through the
    /// corridor so far: to the apex, then straight to the target if it is inside the
    /// wedge, else around the bounding point on the target's side.
    #[inline(always)]
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

    /// The length of the shortest walk from the start through the corridor to the part
    /// of the portal `left..right` (the one the wedge was just narrowed by, or restarted
    /// after) that the wedge sees: to the apex, then straight to the nearest point of
    /// that part. Unlike [`Wedge::length_to`] it does not depend on the target, so of two
    /// routes into one portal the one with the smaller reach gets to the points it sees
    /// sooner than the other gets to any point it sees (see `offer.rs`). It is not a
    /// lower bound of every path to the portal: a part the wedge does not see may be
    /// nearer, round a side of the funnel.
    #[inline]
    pub fn reach(self, up: UpAxis, left: Vec3, right: Vec3) -> f32 {
        let g = |p: Vec3| up.ground(p);
        let apex = g(self.apex);
        let nearest = closest_point_on_segment(self.apex, left, right);
        let n = g(nearest);
        // The side of the wedge the nearest point falls beyond, if any: its bounding ray
        // then meets the portal at the nearest point seen from the apex.
        let beyond = if g(self.left) != apex && signed_area2(apex, g(self.left), n) > 0.0 {
            Some(self.left)
        } else if g(self.right) != apex && signed_area2(apex, g(self.right), n) < 0.0 {
            Some(self.right)
        } else {
            None
        };
        let seen = match beyond {
            None => nearest,
            Some(bound) => {
                let (l, edge, ray) = (g(left), g(right) - g(left), g(bound) - apex);
                let across = edge.perp_dot(ray);
                if across.abs() <= f32::EPSILON * edge.length() * ray.length() {
                    bound
                } else {
                    let t = (edge.perp_dot(l - apex) / across).max(0.0);
                    self.apex + (bound - self.apex) * t
                }
            }
        };
        self.apex_cost + self.apex.distance(seen)
    }

    /// Length of the path from the start to the nearest point of the portal
    /// `left..right`, going straight from the apex: what the walk has cost so far.
    #[inline]
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

    fn portal(left: Vec3, right: Vec3, node: u32) -> TaggedPortal {
        TaggedPortal { left, right, node }
    }

    #[test]
    fn straight_corridor_keeps_the_apex() {
        // Walking +x; with Y up the ground is (x, z) and the walker's left is +z.
        let portals = [
            portal(p(1.0, 1.0), p(1.0, -1.0), 0),
            portal(p(2.0, 1.0), p(2.0, -1.0), 1),
        ];
        let w = Wedge::through_all(UpAxis::Y, p(0.0, 0.0), 0.0, &portals);
        assert_eq!(w.apex, p(0.0, 0.0));
        assert_eq!(w.length_to(UpAxis::Y, p(3.0, 0.0)), 3.0);
    }

    #[test]
    fn portal_beside_the_wedge_turns_at_its_corner() {
        // A left turn around (1, 1): the second portal lies left of the first wedge.
        let first = Wedge::through_all(
            UpAxis::Y,
            p(0.0, 0.5),
            0.0,
            &[portal(p(1.0, 1.0), p(1.0, 0.0), 7)],
        );
        assert_eq!(
            first.step(UpAxis::Y, &portal(p(0.0, 3.0), p(1.0, 3.0), 8)),
            Step::Turn(Side::Left)
        );
        assert_eq!(first.bound(Side::Left), (p(1.0, 1.0), 7));
        let portals = [
            portal(p(1.0, 1.0), p(1.0, 0.0), 7),
            portal(p(0.0, 3.0), p(1.0, 3.0), 8),
        ];
        let w = Wedge::through_all(UpAxis::Y, p(0.0, 0.5), 0.0, &portals);
        assert_eq!(w.apex, p(1.0, 1.0));
        assert!((w.apex_cost - p(0.0, 0.5).distance(p(1.0, 1.0))).abs() < 1e-6);
    }

    #[test]
    fn restart_re_examines_the_portals_after_the_corner() {
        // A zig-zag: after turning at (1, 1) the funnel from there must be narrowed by the
        // portal at x = 2 before the one at x = 3 is judged.
        let portals = [
            portal(p(1.0, 1.0), p(1.0, -1.0), 0),
            portal(p(2.0, 4.0), p(2.0, 3.5), 1),
            portal(p(3.0, 3.7), p(3.0, 3.6), 2),
        ];
        let w = Wedge::through_all(UpAxis::Y, p(0.0, -0.5), 0.0, &portals);
        assert_eq!(w.apex, p(2.0, 3.5));
        let expected = p(0.0, -0.5).distance(p(1.0, 1.0)) + p(1.0, 1.0).distance(p(2.0, 3.5));
        assert!((w.apex_cost - expected).abs() < 1e-5);
    }

    #[test]
    fn reach_is_measured_to_the_part_of_the_portal_seen_from_the_apex() {
        // From (0, 0) through the gap (1, -0.5)..(1, -1): the wedge looks down-right.
        let w = Wedge::through_all(
            UpAxis::Y,
            p(0.0, 0.0),
            2.0,
            &[portal(p(1.0, -0.5), p(1.0, -1.0), 0)],
        );
        // A long portal at x = 2 from z = 3 down to z = -3: its nearest point (2, 0) is
        // outside the wedge; the nearest seen is where the wedge's upper ray meets it.
        let reach = w.reach(UpAxis::Y, p(2.0, 3.0), p(2.0, -3.0));
        assert!((reach - (2.0 + p(0.0, 0.0).distance(p(2.0, -1.0)))).abs() < 1e-5);
        // A portal wholly inside the wedge: its nearest point.
        let inside = w.reach(UpAxis::Y, p(1.0, -0.6), p(1.0, -0.9));
        assert!((inside - (2.0 + p(0.0, 0.0).distance(p(1.0, -0.6)))).abs() < 1e-5);
    }

    #[test]
    fn target_outside_the_wedge_is_reached_around_its_bound() {
        let w = Wedge::through_all(
            UpAxis::Y,
            p(0.0, 0.0),
            0.0,
            &[portal(p(1.0, 1.0), p(1.0, -1.0), 0)],
        );
        let expected = p(0.0, 0.0).distance(p(1.0, 1.0)) + p(1.0, 1.0).distance(p(1.0, 5.0));
        assert!((w.length_to(UpAxis::Y, p(1.0, 5.0)) - expected).abs() < 1e-6);
    }
}
