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
    check_distinct_corners(polygon, corners)?;
    let point = |v: u32| ground[v as usize].as_dvec2();
    let n = corners.len();
    let mut area2 = 0.0f64;
    let mut longest2 = 0.0f64;
    for i in 0..n {
        let (a, b) = (point(corners[i]), point(corners[(i + 1) % n]));
        area2 += a.perp_dot(b);
        longest2 = longest2.max((b - a).length_squared());
    }
    if area2.is_nan() || area2.abs() <= longest2 * MIN_RELATIVE_AREA {
        return Err(MeshError::DegeneratePolygon { polygon });
    }
    check_edge_lengths(polygon, corners, ground)?;
    let reversed = area2 < 0.0;
    if reversed {
        corners.reverse();
    }
    // Every turn must be a left turn (or straight on), and the turns must add up to one
    // full revolution: that rules out reflex corners and self-overlapping stars.
    let mut turning = 0.0f64;
    for i in 0..n {
        let (a, b, c) = (
            point(corners[(i + n - 1) % n]),
            point(corners[i]),
            point(corners[(i + 1) % n]),
        );
        let (e1, e2): (DVec2, DVec2) = (b - a, c - b);
        let cross = e1.perp_dot(e2);
        let scale = e1.length() * e2.length();
        if cross < -CONVEXITY_TOLERANCE * scale || scale == 0.0 {
            let corner = if reversed {
                (n - 1 - i) as u32
            } else {
                i as u32
            };
            return Err(MeshError::NonConvexPolygon {
                polygon,
                corner,
                vertex: corners[i],
            });
        }
        // A U-turn (the polygon doubles back along itself: a zero-width spike) has a
        // cross product of about 0 with either sign; count it as a half turn to the
        // left, so that a spike's two U-turns add up to a full extra revolution and the
        // polygon is rejected below instead of its U-turns cancelling out.
        let dot = e1.dot(e2);
        turning += if dot < 0.0 { cross.abs() } else { cross }.atan2(dot);
    }
    if (turning - std::f64::consts::TAU).abs() > 1e-3 {
        return Err(MeshError::NonConvexPolygon {
            polygon,
            corner: 0,
            vertex: corners[0],
        });
    }
    Ok(())
}

/// Rejects a polygon that uses a vertex twice. Sorts a copy for large polygons so that a
/// face of many corners costs O(n log n), not O(n^2).
pub(super) fn check_distinct_corners(polygon: u32, corners: &[u32]) -> Result<(), MeshError> {
    const SMALL: usize = 16;
    let repeated = if corners.len() <= SMALL {
        corners
            .iter()
            .enumerate()
            .find(|&(i, v)| corners[..i].contains(v))
            .map(|(_, &v)| v)
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

/// Rejects consecutive corners that are distinct vertices at the same ground position
/// (a zero-length edge), once the polygon is known to have an area.
fn check_edge_lengths(polygon: u32, corners: &[u32], ground: &[Vec2]) -> Result<(), MeshError> {
    let n = corners.len();
    for i in 0..n {
        let (a, b) = (corners[i], corners[(i + 1) % n]);
        if ground[a as usize] == ground[b as usize] {
            return Err(MeshError::ZeroLengthEdge { polygon, a, b });
        }
    }
    Ok(())
}
