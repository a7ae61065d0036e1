//! Checks of the input: polygon sizes, finite coordinates, and each polygon's shape
//! (distinct corners, an area, convex, no zero-length edge), which is also wound
//! counter-clockwise here.

use glam::{DVec2, Vec2, Vec3};

use super::PolygonSizes;
use crate::alloc::{try_collect, try_vec_with_capacity};
use crate::error::MeshError;

/// Largest coordinate magnitude accepted for a vertex. Path geometry is computed in f32;
/// within this bound, products of coordinate differences (cross products, squared
/// lengths) stay far from overflowing (`12 * (2e18)^2 < 3.4e38`).
const MAX_COORDINATE: f32 = 1e18;

/// Sine of the largest inward turn still accepted as convex (collinear corners pass).
const CONVEXITY_TOLERANCE: f64 = 1e-6;
/// Smallest |area| accepted, relative to the squared longest edge.
pub(super) const MIN_RELATIVE_AREA: f64 = 1e-12;

pub(super) fn polygon_offsets(
    index_count: usize,
    sizes: &PolygonSizes<'_>,
) -> Result<Vec<u32>, MeshError> {
    if u32::try_from(index_count).is_err() {
        return Err(MeshError::TooLarge("more than 2^32 - 1 polygon corners"));
    }
    match sizes {
        PolygonSizes::Triangles => {
            if index_count % 3 != 0 {
                return Err(MeshError::IndexCountMismatch {
                    needed: index_count.next_multiple_of(3) as u64,
                    given: index_count as u64,
                });
            }
            let mut offsets = try_vec_with_capacity(index_count / 3 + 1, "polygon offsets")?;
            offsets.extend((0..=index_count / 3).map(|p| (p * 3) as u32));
            Ok(offsets)
        }
        PolygonSizes::Listed(sizes) => {
            let mut offsets = try_vec_with_capacity(sizes.len() + 1, "polygon offsets")?;
            offsets.push(0u32);
            let mut total: u64 = 0;
            for (p, &size) in sizes.iter().enumerate() {
                if size < 3 {
                    return Err(MeshError::TooFewVertices {
                        polygon: p as u32,
                        size,
                    });
                }
                total += u64::from(size);
                if total > index_count as u64 {
                    let needed = total + sizes[p + 1..].iter().map(|&s| u64::from(s)).sum::<u64>();
                    return Err(MeshError::IndexCountMismatch {
                        needed,
                        given: index_count as u64,
                    });
                }
                offsets.push(total as u32);
            }
            if total != index_count as u64 {
                return Err(MeshError::IndexCountMismatch {
                    needed: total,
                    given: index_count as u64,
                });
            }
            Ok(offsets)
        }
    }
}

/// Rejects NaN, infinite and too large (see [`MAX_COORDINATE`]) coordinates.
pub(super) fn check_vertices_finite(vertices: &[Vec3]) -> Result<(), MeshError> {
    for (i, v) in vertices.iter().enumerate() {
        if let Some(&value) = v.to_array().iter().find(|c| !c.is_finite()) {
            return Err(MeshError::NonFiniteVertex {
                vertex: i as u32,
                value,
            });
        }
        if let Some(&value) = v.to_array().iter().find(|c| c.abs() > MAX_COORDINATE) {
            return Err(MeshError::CoordinateTooLarge {
                vertex: i as u32,
                value,
            });
        }
    }
    Ok(())
}

/// Checks one polygon (no repeated vertex, non-zero area, convex, simple) and reverses
/// it in place when it is clockwise. Works in f64 so that thin slivers are judged right.
pub(super) fn normalise_polygon(
    polygon: u32,
    corners: &mut [u32],
    ground: &[Vec2],
) -> Result<(), MeshError> {
    if check_polygon(polygon, corners, ground)? == Winding::Clockwise {
        corners.reverse();
    }
    Ok(())
}

/// The winding of a polygon in the ground plane.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Winding {
    CounterClockwise,
    Clockwise,
}

/// The checks of [`normalise_polygon`] without changing the corners: the polygon's
/// winding if it is valid either way round (the convexity checks judge it
/// counter-clockwise, so reversed when it is clockwise, and errors name corners in the
/// given order).
pub(super) fn check_polygon(
    polygon: u32,
    corners: &[u32],
    ground: &[Vec2],
) -> Result<Winding, MeshError> {
    check_distinct_corners(polygon, corners)?;
    // The corners' ground positions in f64, once each: on the stack for the usual sizes.
    const ON_STACK: usize = 16;
    let point = |v: &u32| ground[*v as usize].as_dvec2();
    if corners.len() <= ON_STACK {
        let mut points = [DVec2::ZERO; ON_STACK];
        for (p, v) in points.iter_mut().zip(corners) {
            *p = point(v);
        }
        check_shape(polygon, corners, &points[..corners.len()])
    } else {
        let points = try_collect(corners.len(), corners.iter().map(point), "polygon corners")?;
        check_shape(polygon, corners, &points)
    }
}

/// [`check_polygon`] after the distinct corners, `points[i]` the ground position of
/// `corners[i]`. One pass takes the area, the edges and, as if the polygon were
/// counter-clockwise, its turns; a clockwise polygon has its turns taken again the
/// other way round.
fn check_shape(polygon: u32, corners: &[u32], points: &[DVec2]) -> Result<Winding, MeshError> {
    let n = corners.len();
    let next = |i: usize| if i + 1 == n { 0 } else { i + 1 };
    let mut area2 = 0.0f64;
    let mut longest2 = 0.0f64;
    // The first edge of zero length (distinct vertices at one ground position).
    let mut zero_edge = None;
    let mut turns = Turns::default();
    let mut into = points[0] - points[n - 1];
    for (i, &a) in points.iter().enumerate() {
        let b = points[next(i)];
        area2 += a.perp_dot(b);
        let edge = b - a;
        longest2 = longest2.max(edge.length_squared());
        if a == b && zero_edge.is_none() {
            zero_edge = Some(i);
        }
        turns.add(i, into, edge);
        into = edge;
    }
    if area2.is_nan() || area2.abs() <= longest2 * MIN_RELATIVE_AREA {
        return Err(MeshError::DegeneratePolygon { polygon });
    }
    if let Some(i) = zero_edge {
        let (a, b) = (corners[i], corners[next(i)]);
        return Err(MeshError::ZeroLengthEdge { polygon, a, b });
    }
    let reversed = area2 < 0.0;
    if reversed {
        // Corner `i` of the polygon wound counter-clockwise is corner `n - 1 - i`.
        let ccw = |i: usize| points[n - 1 - i];
        turns = Turns::default();
        let (mut a, mut b) = (ccw(n - 1), ccw(0));
        for i in 0..n {
            let c = ccw(next(i));
            turns.add(i, b - a, c - b);
            (a, b) = (b, c);
        }
    }
    // Every turn must be a left turn (or straight on), and the turns must add up to one
    // full revolution: that rules out reflex corners and self-overlapping stars.
    if let Some(i) = turns.right_turn {
        let corner = if reversed { n - 1 - i } else { i };
        return Err(MeshError::NonConvexPolygon {
            polygon,
            corner: corner as u32,
            vertex: corners[corner],
        });
    }
    if (turns.turning - std::f64::consts::TAU).abs() > 1e-3 {
        return Err(MeshError::NonConvexPolygon {
            polygon,
            corner: 0,
            vertex: if reversed { corners[n - 1] } else { corners[0] },
        });
    }
    Ok(if reversed {
        Winding::Clockwise
    } else {
        Winding::CounterClockwise
    })
}

/// The turns of a polygon walked counter-clockwise, corner after corner.
#[derive(Default)]
struct Turns {
    /// The sum of the turn angles before the first right turn.
    turning: f64,
    /// The first corner that turns right (beyond the tolerance), if any.
    right_turn: Option<usize>,
}

impl Turns {
    /// The turn at corner `i` from edge `e1` (into it) to edge `e2` (out of it).
    #[inline]
    fn add(&mut self, i: usize, e1: DVec2, e2: DVec2) {
        if self.right_turn.is_some() {
            return;
        }
        let cross = e1.perp_dot(e2);
        // Only a right turn needs the edge lengths: no edge has length 0 (or the
        // polygon is refused for it), so a left turn or straight on always passes.
        if cross < 0.0 {
            let scale = e1.length() * e2.length();
            if cross < -CONVEXITY_TOLERANCE * scale || scale == 0.0 {
                self.right_turn = Some(i);
                return;
            }
        }
        self.turning += turn_angle(cross, e1.dot(e2));
    }
}

/// The signed angle of a turn whose edges have cross product `cross` and dot product
/// `dot`: `atan2(cross, dot)`, except that a U-turn (the polygon doubles back along
/// itself: a zero-width spike) has a cross product of about 0 with either sign and
/// counts as a half turn to the left, so that a spike's two U-turns add up to a full
/// extra revolution and the polygon is refused instead of its U-turns cancelling out.
/// Straight on and square turns (most corners of grid meshes) skip `atan2`: for them
/// IEEE 754 (C's Annex F) fixes its value, 0 and pi/2.
#[inline]
fn turn_angle(cross: f64, dot: f64) -> f64 {
    if cross == 0.0 && dot > 0.0 {
        return cross;
    }
    if dot == 0.0 && cross > 0.0 {
        return std::f64::consts::FRAC_PI_2;
    }
    if dot < 0.0 { cross.abs() } else { cross }.atan2(dot)
}

/// Rejects a polygon that uses a vertex twice. Sorts a copy for large polygons so that a
/// face of many corners costs O(n log n), not O(n^2).
pub(super) fn check_distinct_corners(polygon: u32, corners: &[u32]) -> Result<(), MeshError> {
    const SMALL: usize = 16;
    let repeated = if corners.len() <= SMALL {
        // The first corner that repeats an earlier one (plain loops: this runs for
        // every polygon of every mesh built or loaded).
        let mut repeated = None;
        'corners: for i in 1..corners.len() {
            for j in 0..i {
                if corners[i] == corners[j] {
                    repeated = Some(corners[i]);
                    break 'corners;
                }
            }
        }
        repeated
    } else {
        let mut sorted = try_collect(corners.len(), corners.iter().copied(), "polygon corners")?;
        sorted.sort_unstable();
        sorted.windows(2).find(|w| w[0] == w[1]).map(|w| w[0])
    };
    if let Some(vertex) = repeated {
        return Err(MeshError::RepeatedVertex { polygon, vertex });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::turn_angle;

    #[test]
    fn the_shortcut_turn_angles_equal_atan2() {
        for magnitude in [1e-300, 1e-30, 1e-6, 1.0, 3.5, 1e20, 1e300] {
            for zero in [0.0f64, -0.0] {
                assert_eq!(
                    turn_angle(zero, magnitude).to_bits(),
                    zero.atan2(magnitude).to_bits()
                );
                assert_eq!(turn_angle(magnitude, zero), magnitude.atan2(zero));
            }
            assert_eq!(turn_angle(magnitude, magnitude), magnitude.atan2(magnitude));
            assert_eq!(turn_angle(-0.0, -magnitude), 0.0f64.atan2(-magnitude));
        }
    }
}
