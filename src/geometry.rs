//! Pure geometry on glam types: orientation tests, closest points, bounding boxes.
//!
//! Nothing here knows about meshes. "Ground plane" means the plane perpendicular to the
//! up axis; 2D vectors are points in it.

use glam::{DVec2, DVec3, Vec2, Vec3};

/// Which world axis points up. Path geometry is computed in the plane perpendicular to it.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum UpAxis {
    /// Y is up (Detour, Unity, Godot): the ground plane is (x, z).
    #[default]
    Y,
    /// Z is up (Unreal, 2D games that pass z = 0): the ground plane is (x, y).
    Z,
}

impl UpAxis {
    /// Projects a world point onto the ground plane.
    #[inline]
    pub fn ground(self, p: Vec3) -> Vec2 {
        match self {
            UpAxis::Y => Vec2::new(p.x, p.z),
            UpAxis::Z => Vec2::new(p.x, p.y),
        }
    }

    /// The height of a world point along the up axis.
    #[inline]
    pub fn height(self, p: Vec3) -> f32 {
        match self {
            UpAxis::Y => p.y,
            UpAxis::Z => p.z,
        }
    }

    /// The world point at ground-plane position `ground` and height `height`.
    #[inline]
    pub fn place(self, ground: Vec2, height: f32) -> Vec3 {
        match self {
            UpAxis::Y => Vec3::new(ground.x, height, ground.y),
            UpAxis::Z => Vec3::new(ground.x, ground.y, height),
        }
    }

    /// A ground-plane direction as a world vector (no component along the up axis).
    #[inline]
    pub fn lift(self, d: Vec2) -> Vec3 {
        match self {
            UpAxis::Y => Vec3::new(d.x, 0.0, d.y),
            UpAxis::Z => Vec3::new(d.x, d.y, 0.0),
        }
    }
}

/// Twice the signed area of triangle `a, b, c`: positive when the corners turn
/// counter-clockwise, negative when clockwise, zero when collinear.
#[inline]
pub fn signed_area2(a: Vec2, b: Vec2, c: Vec2) -> f32 {
    (b - a).perp_dot(c - a)
}

/// The point of segment `a..b` closest to `p` (works in any dimension glam offers).
#[inline]
pub fn closest_point_on_segment(p: Vec3, a: Vec3, b: Vec3) -> Vec3 {
    let ab = b - a;
    let len2 = ab.length_squared();
    if len2 <= 0.0 {
        return a;
    }
    let t = ((p - a).dot(ab) / len2).clamp(0.0, 1.0);
    a + ab * t
}

/// The 2D point of segment `a..b` closest to `p`, and its parameter along the segment.
#[inline]
pub fn closest_point_on_segment_2d(p: Vec2, a: Vec2, b: Vec2) -> (Vec2, f32) {
    let ab = b - a;
    let len2 = ab.length_squared();
    if len2 <= 0.0 {
        return (a, 0.0);
    }
    let t = ((p - a).dot(ab) / len2).clamp(0.0, 1.0);
    (a + ab * t, t)
}

/// The distance between segments `a0..a1` and `b0..b1` that do not cross each other
/// (two edges of one convex polygon, for instance): then the closest pair of points has
/// an endpoint of one segment, so the smallest of the four endpoint-to-segment
/// distances is exact. Segments that touch or overlap give 0.
#[inline]
pub fn gap_between_segments_2d(a0: Vec2, a1: Vec2, b0: Vec2, b1: Vec2) -> f32 {
    let to_b = |p: Vec2| closest_point_on_segment_2d(p, b0, b1).0.distance(p);
    let to_a = |p: Vec2| closest_point_on_segment_2d(p, a0, a1).0.distance(p);
    to_b(a0).min(to_b(a1)).min(to_a(b0)).min(to_a(b1))
}

/// Mean value coordinates (Floater 2003) of `p` in the convex polygon with corners
/// `corner(0..n)` (counter-clockwise): calls `weight(i, w)` for each corner with a
/// non-negative weight, the weights summing to 1. They reproduce linear functions, equal
/// barycentric coordinates on triangles, and stay well defined with collinear corners.
/// A point on a corner gives that corner weight 1; a point on an edge (within a relative
/// 1e-12) gives only the edge's two corners weights, linear along it. `p` should lie in
/// the polygon; outside it the weights are still finite but may be negative.
pub fn mean_value_weights(
    p: DVec2,
    n: usize,
    corner: impl Fn(usize) -> DVec2,
    mut weight: impl FnMut(usize, f64),
) {
    let d = |i: usize| corner(i % n) - p;
    let scale = (0..n)
        .map(|i| d(i).length())
        .fold(0.0f64, f64::max)
        .max(f64::MIN_POSITIVE);
    // On a corner, or on an edge: the weights of that corner or edge alone.
    for i in 0..n {
        let (a, b) = (d(i), d(i + 1));
        if a.length() <= 1e-12 * scale {
            return weight(i, 1.0);
        }
        let edge = b - a;
        let cross = a.perp_dot(b);
        if cross.abs() <= 1e-12 * scale * edge.length() && a.dot(b) <= 0.0 {
            let s = (-a).dot(edge) / edge.length_squared();
            weight(i, 1.0 - s);
            weight((i + 1) % n, s);
            return;
        }
    }
    // tan(alpha / 2) of the angle at p between corners i and i + 1.
    let half_tan = |i: usize| {
        let (a, b) = (d(i), d(i + 1));
        (a.length() * b.length() - a.dot(b)) / a.perp_dot(b)
    };
    let mut total = 0.0;
    for pass in 0..2 {
        for i in 0..n {
            let w = (half_tan(i + n - 1) + half_tan(i)) / d(i).length();
            if pass == 0 {
                total += w;
            } else {
                weight(i, w / total);
            }
        }
    }
}

/// The point of triangle `a, b, c` (in 3D) closest to `p`.
///
/// Region-based method: find the Voronoi region of the triangle's features that holds `p`
/// and project onto that feature. Degenerate triangles fall back to their edges. The
/// region tests subtract products of nearly equal dot products; for a sliver (height
/// 1e-4 on a base of 1) `f32` loses the sign of the difference and moves points inside
/// the sliver onto its base, so the work is done in `f64`.
pub fn closest_point_on_triangle(p: Vec3, a: Vec3, b: Vec3, c: Vec3) -> Vec3 {
    closest_point_on_triangle_f64(p.as_dvec3(), a.as_dvec3(), b.as_dvec3(), c.as_dvec3()).as_vec3()
}

fn closest_point_on_segment_f64(p: DVec3, a: DVec3, b: DVec3) -> DVec3 {
    let ab = b - a;
    let len2 = ab.length_squared();
    if len2 <= 0.0 {
        return a;
    }
    let t = ((p - a).dot(ab) / len2).clamp(0.0, 1.0);
    a + ab * t
}

fn closest_point_on_triangle_f64(p: DVec3, a: DVec3, b: DVec3, c: DVec3) -> DVec3 {
    let ab = b - a;
    let ac = c - a;
    let ap = p - a;
    let d1 = ab.dot(ap);
    let d2 = ac.dot(ap);
    if d1 <= 0.0 && d2 <= 0.0 {
        return a;
    }
    let bp = p - b;
    let d3 = ab.dot(bp);
    let d4 = ac.dot(bp);
    if d3 >= 0.0 && d4 <= d3 {
        return b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return a + ab * (d1 / (d1 - d3));
    }
    let cp = p - c;
    let d5 = ab.dot(cp);
    let d6 = ac.dot(cp);
    if d6 >= 0.0 && d5 <= d6 {
        return c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return a + ac * (d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    let denom = va + vb + vc;
    if denom.abs() <= f64::MIN_POSITIVE || !denom.is_finite() {
        // Degenerate (zero-area) triangle: the answer lies on one of its edges.
        let candidates = [
            closest_point_on_segment_f64(p, a, b),
            closest_point_on_segment_f64(p, b, c),
            closest_point_on_segment_f64(p, c, a),
        ];
        return candidates
            .into_iter()
            .min_by(|x, y| x.distance_squared(p).total_cmp(&y.distance_squared(p)))
            .unwrap_or(a);
    }
    // Inside the face: project onto the plane. Unlike summing barycentric terms, this
    // leaves the ground coordinates of a point above a level triangle bit-for-bit unchanged.
    let normal = ab.cross(ac);
    let mut q = p - normal * (normal.dot(ap) / normal.length_squared());
    // The projection rounds along the normal; solve the plane equation for the axis the
    // normal is closest to, so that a point over a level triangle gets exactly its height.
    let axis = normal.abs().max_position();
    let (i, j) = ((axis + 1) % 3, (axis + 2) % 3);
    q[axis] = a[axis] - (normal[i] * (q[i] - a[i]) + normal[j] * (q[j] - a[j])) / normal[axis];
    q
}

/// Barycentric weights of `p` in the 2D triangle `a, b, c`, or `None` when the triangle
/// has no area.
#[inline]
pub fn barycentric_2d(p: Vec2, a: Vec2, b: Vec2, c: Vec2) -> Option<[f32; 3]> {
    let area = signed_area2(a, b, c);
    if area == 0.0 || !area.is_finite() {
        return None;
    }
    let wa = signed_area2(p, b, c) / area;
    let wb = signed_area2(a, p, c) / area;
    Some([wa, wb, 1.0 - wa - wb])
}

/// Whether `p` lies on the segment `a..b`, up to the rounding of `f32` coordinates
/// (a few ulps of the largest coordinate involved).
pub fn point_on_segment_2d(p: Vec2, a: Vec2, b: Vec2) -> bool {
    point_near_segment(p.as_dvec2(), a.as_dvec2(), b.as_dvec2())
}

/// [`point_on_segment_2d`] for points already in `f64`; the tolerance is still that of
/// `f32` coordinates, since that is what the mesh stores.
pub fn point_near_segment(p: DVec2, a: DVec2, b: DVec2) -> bool {
    let tolerance = rounding_tolerance(p, a, b);
    closest_point_on_segment_2d_f64(p, a, b).distance_squared(p) <= tolerance * tolerance
}

/// The point of segment `a b` closest to `p`, in `f64`.
#[inline]
pub fn closest_point_on_segment_2d_f64(p: DVec2, a: DVec2, b: DVec2) -> DVec2 {
    let ab = b - a;
    let len2 = ab.length_squared();
    let t = if len2 > 0.0 {
        ((p - a).dot(ab) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    a + ab * t
}

/// Whether `p` lies on the line through `a` and `b` (two distinct points), up to the
/// rounding of `f32` coordinates, as [`point_near_segment`] measures it.
pub fn point_near_line(p: DVec2, a: DVec2, b: DVec2) -> bool {
    let ab = b - a;
    let length = ab.length();
    length > 0.0 && ab.perp_dot(p - a).abs() <= rounding_tolerance(p, a, b) * length
}

/// How far apart points about `p`, `a` and `b` may be and still be the same point once
/// stored as `f32`: a few ulps of the largest coordinate involved.
fn rounding_tolerance(p: DVec2, a: DVec2, b: DVec2) -> f64 {
    let scale = p.abs().max(a.abs()).max(b.abs()).max_element().max(1.0);
    scale * f64::from(f32::EPSILON) * 8.0
}

/// An axis-aligned bounding box in 3D.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Aabb {
    /// Smallest corner.
    pub min: Vec3,
    /// Largest corner.
    pub max: Vec3,
}

impl Aabb {
    /// The empty box: the identity of [`Aabb::union`].
    pub const EMPTY: Aabb = Aabb {
        min: Vec3::INFINITY,
        max: Vec3::NEG_INFINITY,
    };

    /// The smallest box holding all `points`.
    pub fn from_points(points: impl IntoIterator<Item = Vec3>) -> Aabb {
        points.into_iter().fold(Aabb::EMPTY, |b, p| Aabb {
            min: b.min.min(p),
            max: b.max.max(p),
        })
    }

    /// The smallest box holding both boxes.
    #[inline]
    pub fn union(self, other: Aabb) -> Aabb {
        Aabb {
            min: self.min.min(other.min),
            max: self.max.max(other.max),
        }
    }

    /// Centre of the box.
    #[inline]
    pub fn center(self) -> Vec3 {
        (self.min + self.max) * 0.5
    }

    /// Squared distance from `p` to the box (0 inside).
    #[inline]
    pub fn distance_squared(self, p: Vec3) -> f32 {
        let d = (self.min - p).max(p - self.max).max(Vec3::ZERO);
        d.length_squared()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orientation_signs() {
        let (a, b, c) = (Vec2::ZERO, Vec2::X, Vec2::Y);
        assert!(signed_area2(a, b, c) > 0.0);
        assert!(signed_area2(a, c, b) < 0.0);
        assert_eq!(signed_area2(a, b, Vec2::new(2.0, 0.0)), 0.0);
    }

    #[test]
    fn closest_point_on_triangle_regions() {
        let (a, b, c) = (Vec3::ZERO, Vec3::X, Vec3::Z);
        assert_eq!(
            closest_point_on_triangle(Vec3::new(0.2, 5.0, 0.2), a, b, c),
            Vec3::new(0.2, 0.0, 0.2)
        );
        assert_eq!(
            closest_point_on_triangle(Vec3::new(-1.0, 0.0, -1.0), a, b, c),
            a
        );
        assert_eq!(
            closest_point_on_triangle(Vec3::new(0.5, 0.0, -3.0), a, b, c),
            Vec3::new(0.5, 0.0, 0.0)
        );
        let q = closest_point_on_triangle(Vec3::new(1.0, 0.0, 1.0), a, b, c);
        assert!((q - Vec3::new(0.5, 0.0, 0.5)).length() < 1e-6);
    }

    #[test]
    fn closest_point_over_a_level_triangle_keeps_its_height() {
        let (a, b, c) = (
            Vec3::new(0.3, 1.5, 0.1),
            Vec3::new(2.7, 1.5, 0.4),
            Vec3::new(0.9, 1.5, 3.3),
        );
        for p in [Vec3::new(0.9, 2.275, 1.1), Vec3::new(1.2, -0.3, 0.7)] {
            let q = closest_point_on_triangle(p, a, b, c);
            assert_eq!(q, Vec3::new(p.x, 1.5, p.z));
        }
    }

    #[test]
    fn closest_point_on_degenerate_triangle_uses_edges() {
        let q =
            closest_point_on_triangle(Vec3::new(0.5, 1.0, 0.0), Vec3::ZERO, Vec3::X, Vec3::X * 2.0);
        assert_eq!(q, Vec3::new(0.5, 0.0, 0.0));
    }

    #[test]
    fn aabb_distance() {
        let b = Aabb::from_points([Vec3::ZERO, Vec3::ONE]);
        assert_eq!(b.distance_squared(Vec3::splat(0.5)), 0.0);
        assert_eq!(b.distance_squared(Vec3::new(3.0, 0.5, 0.5)), 4.0);
    }

    #[test]
    fn barycentric_weights_sum_to_one() {
        let w = barycentric_2d(Vec2::new(0.25, 0.25), Vec2::ZERO, Vec2::X, Vec2::Y).unwrap();
        assert!(
            (w[0] - 0.5).abs() < 1e-6 && (w[1] - 0.25).abs() < 1e-6 && (w[2] - 0.25).abs() < 1e-6
        );
    }
}
