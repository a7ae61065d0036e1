//! String pulling over a corridor's portals: the "simple stupid funnel" algorithm.
//!
//! The funnel is a wedge from the apex (the last corner placed) bounded by a left and a
//! right portal endpoint. Each portal narrows the wedge; when one side would cross the
//! other, the crossed side's endpoint is a corner of the shortest path, becomes the new
//! apex, and the scan restarts just after the portal that set it. The result is the
//! shortest path in the ground plane through the portals, in O(n) amortised per corner.

use glam::{Vec2, Vec3};

use crate::geometry::{point_on_segment_2d, signed_area2};

/// One portal of a corridor: the segment an agent crosses from one polygon to the next.
/// "Left" and "right" are as seen by the agent walking through it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Portal {
    /// Left endpoint in the ground plane.
    pub left: Vec2,
    /// Right endpoint in the ground plane.
    pub right: Vec2,
    /// Left endpoint in world coordinates (used when it becomes a corner).
    pub left_world: Vec3,
    /// Right endpoint in world coordinates.
    pub right_world: Vec3,
}

impl Portal {
    /// A portal of zero width at `point` (how the start and goal enter the funnel).
    pub fn point(ground: Vec2, world: Vec3) -> Portal {
        Portal {
            left: ground,
            right: ground,
            left_world: world,
            right_world: world,
        }
    }
}

/// Writes the corners of the shortest path through `portals` into `out` (cleared
/// first). The first and last portals must be the start and goal points. The output
/// always has at least two corners: the start first and the goal last (equal when the
/// start is the goal).
///
/// Points exactly on a side of the funnel touch it without crossing it: they narrow the
/// funnel to a ray instead of adding a corner, so that walls of collinear vertices and
/// paths through a vertex add no needless corners.
pub(crate) fn string_pull(portals: &[Portal], out: &mut Vec<Vec3>) {
    out.clear();
    let Some(first) = portals.first() else { return };
    push_corner(out, first.left_world);
    let mut apex = first.left;
    let (mut left, mut right) = (first.left, first.right);
    let (mut left_world, mut right_world) = (first.left_world, first.right_world);
    let (mut left_index, mut right_index) = (0usize, 0usize);
    let mut i = 1;
    while i < portals.len() {
        let portal = &portals[i];
        // While the funnel is still a point, a portal through the apex constrains
        // nothing: the apex is on it and sees the whole (convex) polygon beyond it. Taking
        // it would open the funnel to 180 degrees (a start on a portal), where the side
        // tests below cannot tell "ahead" from "behind".
        if left == apex
            && right == apex
            && i + 1 < portals.len()
            && point_on_segment_2d(apex, portal.left, portal.right)
        {
            i += 1;
            continue;
        }
        // The new right endpoint narrows the funnel if it is not right of the right side.
        if signed_area2(apex, right, portal.right) >= 0.0 {
            if apex == right || signed_area2(apex, left, portal.right) <= 0.0 {
                right = portal.right;
                right_world = portal.right_world;
                right_index = i;
            } else {
                // It crosses the left side: the left endpoint is a corner.
                push_corner(out, left_world);
                apex = left;
                right = left;
                right_world = left_world;
                right_index = left_index;
                i = left_index + 1;
                continue;
            }
        }
        if signed_area2(apex, left, portal.left) <= 0.0 {
            if apex == left || signed_area2(apex, right, portal.left) >= 0.0 {
                left = portal.left;
                left_world = portal.left_world;
                left_index = i;
            } else {
                push_corner(out, right_world);
                apex = right;
                left = right;
                left_world = right_world;
                left_index = right_index;
                i = right_index + 1;
                continue;
            }
        }
        i += 1;
    }
    if let Some(last) = portals.last() {
        if out.len() < 2 {
            out.push(last.left_world);
        } else {
            push_corner(out, last.left_world);
        }
    }
}

/// Appends a corner unless it repeats the previous one.
fn push_corner(out: &mut Vec<Vec3>, corner: Vec3) {
    if out.last() != Some(&corner) {
        out.push(corner);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn portal(left: (f32, f32), right: (f32, f32)) -> Portal {
        let (l, r) = (Vec2::new(left.0, left.1), Vec2::new(right.0, right.1));
        Portal {
            left: l,
            right: r,
            left_world: Vec3::new(l.x, 0.0, l.y),
            right_world: Vec3::new(r.x, 0.0, r.y),
        }
    }

    fn point(p: (f32, f32)) -> Portal {
        portal(p, p)
    }

    #[test]
    fn straight_corridor_gives_two_corners() {
        // Walking +x; the left side is +y.
        let portals = [
            point((0.0, 0.0)),
            portal((1.0, 1.0), (1.0, -1.0)),
            portal((2.0, 1.0), (2.0, -1.0)),
            point((3.0, 0.0)),
        ];
        let mut out = Vec::new();
        string_pull(&portals, &mut out);
        assert_eq!(out, vec![Vec3::ZERO, Vec3::new(3.0, 0.0, 0.0)]);
    }

    #[test]
    fn bends_around_inner_corner() {
        // L-turn to the left around (1, 1).
        let portals = [
            point((0.0, 0.5)),
            portal((1.0, 1.0), (2.0, 0.0)),
            point((1.5, 3.0)),
        ];
        let mut out = Vec::new();
        string_pull(&portals, &mut out);
        assert_eq!(
            out,
            vec![
                Vec3::new(0.0, 0.0, 0.5),
                Vec3::new(1.0, 0.0, 1.0),
                Vec3::new(1.5, 0.0, 3.0)
            ]
        );
    }

    #[test]
    fn start_on_the_first_portal_is_not_a_corner() {
        // The start lies inside the first portal, so the funnel would open to 180 degrees;
        // the next portal shares the first one's right end. The goal is in sight.
        let portals = [
            point((0.0, 0.0)),
            portal((1.0, 0.0), (-1.0, 0.0)),
            portal((0.5, -1.0), (-1.0, 0.0)),
            point((-0.5, -0.8)),
        ];
        let mut out = Vec::new();
        string_pull(&portals, &mut out);
        assert_eq!(out, vec![Vec3::ZERO, Vec3::new(-0.5, 0.0, -0.8)]);
    }

    #[test]
    fn a_point_exactly_on_a_side_touches_it_without_a_corner() {
        // The goal lies on the ray from the start through the left ends (1, 1) and (2, 2).
        let portals = [
            point((0.0, 0.0)),
            portal((1.0, 1.0), (1.0, -1.0)),
            portal((2.0, 2.0), (3.0, 0.0)),
            point((3.0, 3.0)),
        ];
        let mut out = Vec::new();
        string_pull(&portals, &mut out);
        assert_eq!(out, vec![Vec3::ZERO, Vec3::new(3.0, 0.0, 3.0)]);
    }

    #[test]
    fn start_equal_to_goal_gives_two_corners() {
        let mut out = Vec::new();
        string_pull(&[point((1.0, 2.0)), point((1.0, 2.0))], &mut out);
        assert_eq!(out, vec![Vec3::new(1.0, 0.0, 2.0); 2]);
    }

    #[test]
    fn zero_length_portal_is_a_forced_corner() {
        let portals = [
            point((0.0, 0.0)),
            portal((1.0, 1.0), (1.0, 1.0)),
            point((2.0, 0.0)),
        ];
        let mut out = Vec::new();
        string_pull(&portals, &mut out);
        assert_eq!(
            out,
            vec![
                Vec3::ZERO,
                Vec3::new(1.0, 0.0, 1.0),
                Vec3::new(2.0, 0.0, 0.0)
            ]
        );
    }
}
