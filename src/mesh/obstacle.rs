//! Obstacles carved into a mesh at run time (see `carve.rs`): a convex footprint in the
//! ground plane and the range of heights it stands in. This file checks and shapes them;
//! it knows nothing of meshes.

use std::f64::consts::TAU;

use glam::{DVec2, Vec2};

use crate::error::MeshError;

/// Corners of the polygon [`Obstacle::circle`] draws, and of the disc the mesh's baked
/// agent radius adds round a footprint: a regular polygon drawn outside the circle (its
/// sides touch it, its corners lie at `r / cos(pi / CIRCLE_SEGMENTS)`), so the cut holds
/// the whole disc.
pub const CIRCLE_SEGMENTS: usize = 16;

/// The most corners a footprint may have.
pub const MAX_FOOTPRINT_CORNERS: usize = 256;

/// Coordinates of a footprint must lie within this (as mesh vertices do).
const MAX_COORDINATE: f32 = 1e18;

/// Something standing on the mesh that agents go round: a convex footprint in the
/// ground plane (`x, z` when Y is up, `x, y` when Z is up) and the heights it stands
/// in. Carved into a mesh with [`crate::NavMesh::with_obstacles`] or
/// [`crate::World::add_obstacle`]: the polygons it overlaps within its height range lose
/// the footprint grown by the mesh's baked agent radius.
///
/// # Example
/// ```
/// use navstar::{glam::Vec2, Obstacle};
///
/// let crate_box = Obstacle::rotated_box(Vec2::new(5.0, 5.0), Vec2::new(1.0, 0.5), 0.3)?;
/// assert_eq!(crate_box.footprint().len(), 4);
/// let barrel = Obstacle::circle(Vec2::new(2.0, 3.0), 0.5)?.with_height_range(0.0, 1.2)?;
/// assert_eq!(barrel.height_range(), (0.0, 1.2));
/// assert!(Obstacle::new(&[Vec2::ZERO, Vec2::X]).is_err()); // too few corners
/// # Ok::<(), navstar::MeshError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Obstacle {
    /// Counter-clockwise in the ground plane, strictly convex.
    footprint: Vec<Vec2>,
    bottom: f32,
    top: f32,
}

impl Obstacle {
    /// An obstacle of any height with the convex `footprint` (ground-plane points, either
    /// winding, at most [`MAX_FOOTPRINT_CORNERS`]).
    ///
    /// # Errors
    /// [`MeshError::InvalidObstacle`] naming the corner at fault: fewer than 3 corners or
    /// more than [`MAX_FOOTPRINT_CORNERS`], a coordinate that is not finite or beyond
    /// +-1e18, two corners at one point, a corner where the footprint is not strictly
    /// convex (or three on a line), a footprint that winds more than once.
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec2, MeshError, Obstacle};
    ///
    /// let square = [Vec2::ZERO, Vec2::new(0.0, 1.0), Vec2::ONE, Vec2::X]; // clockwise is fine
    /// assert_eq!(Obstacle::new(&square)?.footprint()[0], Vec2::X); // stored counter-clockwise
    /// let dart = [Vec2::ZERO, Vec2::new(2.0, 0.0), Vec2::new(1.0, 0.5), Vec2::new(1.0, 2.0)];
    /// assert!(matches!(Obstacle::new(&dart), Err(MeshError::InvalidObstacle { corner: Some(2), .. })));
    /// # Ok::<(), MeshError>(())
    /// ```
    pub fn new(footprint: &[Vec2]) -> Result<Obstacle, MeshError> {
        let invalid = |corner: Option<usize>, reason| MeshError::InvalidObstacle {
            corner: corner.map(|c| c as u32),
            reason,
        };
        let n = footprint.len();
        if n < 3 {
            return Err(invalid(None, "a footprint needs at least 3 corners"));
        }
        if n > MAX_FOOTPRINT_CORNERS {
            return Err(invalid(None, "a footprint has at most 256 corners"));
        }
        for (i, q) in footprint.iter().enumerate() {
            if !q.is_finite() {
                return Err(invalid(Some(i), "a coordinate is NaN or infinite"));
            }
            if q.abs().max_element() > MAX_COORDINATE {
                return Err(invalid(Some(i), "a coordinate is beyond +-1e18"));
            }
        }
        let point = |i: usize| footprint[i % n].as_dvec2();
        let area: f64 = (0..n).map(|i| point(i).perp_dot(point(i + 1))).sum();
        let sign = if area < 0.0 { -1.0 } else { 1.0 };
        for i in 0..n {
            if point(i) == point(i + 1) {
                return Err(invalid(Some(i), "two consecutive corners are at one point"));
            }
        }
        // Strictly convex: every turn the same way as the whole footprint, and one
        // winding (the edge directions go round once).
        let mut turned = 0.0;
        for i in 0..n {
            let (a, b, c) = (point(i + n - 1), point(i), point(i + 1));
            let turn = (b - a).perp_dot(c - b) * sign;
            if turn <= 0.0 {
                return Err(invalid(
                    Some(i),
                    "the footprint is not strictly convex at this corner",
                ));
            }
            turned += (b - a).angle_to(c - b).abs();
        }
        if turned > TAU * 1.0001 {
            return Err(invalid(None, "the footprint winds round more than once"));
        }
        let mut footprint = footprint.to_vec();
        if sign < 0.0 {
            footprint.reverse();
        }
        Ok(Obstacle {
            footprint,
            bottom: f32::NEG_INFINITY,
            top: f32::INFINITY,
        })
    }

    /// A disc of `radius` round `center`, drawn as a regular polygon of
    /// [`CIRCLE_SEGMENTS`] corners outside the circle (its sides touch it), so the cut
    /// holds the whole disc.
    ///
    /// # Errors
    /// [`MeshError::InvalidObstacle`] when `center` is not finite or `radius` is not
    /// finite and > 0.
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec2, Obstacle, CIRCLE_SEGMENTS};
    ///
    /// let disc = Obstacle::circle(Vec2::new(1.0, 2.0), 0.5)?;
    /// assert_eq!(disc.footprint().len(), CIRCLE_SEGMENTS);
    /// assert!(disc.footprint().iter().all(|q| q.distance(Vec2::new(1.0, 2.0)) >= 0.5));
    /// assert!(Obstacle::circle(Vec2::ZERO, f32::NAN).is_err());
    /// # Ok::<(), navstar::MeshError>(())
    /// ```
    pub fn circle(center: Vec2, radius: f32) -> Result<Obstacle, MeshError> {
        if !(radius.is_finite() && radius > 0.0) {
            return Err(MeshError::InvalidObstacle {
                corner: None,
                reason: "a circle's radius must be finite and > 0",
            });
        }
        if !center.is_finite() {
            return Err(MeshError::InvalidObstacle {
                corner: None,
                reason: "a circle's center is NaN or infinite",
            });
        }
        let corners = regular_polygon(f64::from(radius))
            .map(|q| (center.as_dvec2() + q).as_vec2())
            .collect::<Vec<_>>();
        Obstacle::new(&corners)
    }

    /// A box of `half_extents` (both > 0) round `center`, turned by `angle` radians
    /// counter-clockwise in the ground plane (from the first ground axis towards the
    /// second).
    ///
    /// # Errors
    /// [`MeshError::InvalidObstacle`] when a value is not finite or a half extent is not
    /// > 0.
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec2, Obstacle};
    ///
    /// let b = Obstacle::rotated_box(Vec2::ZERO, Vec2::new(2.0, 1.0), std::f32::consts::FRAC_PI_2)?;
    /// // Turned a quarter: 2 along the second axis, 1 along the first.
    /// let max_x = b.footprint().iter().map(|q| q.x).fold(f32::MIN, f32::max);
    /// assert!((max_x - 1.0).abs() < 1e-6);
    /// # Ok::<(), navstar::MeshError>(())
    /// ```
    pub fn rotated_box(
        center: Vec2,
        half_extents: Vec2,
        angle: f32,
    ) -> Result<Obstacle, MeshError> {
        if !(half_extents.is_finite() && half_extents.min_element() > 0.0) {
            return Err(MeshError::InvalidObstacle {
                corner: None,
                reason: "a box's half extents must be finite and > 0",
            });
        }
        if !(center.is_finite() && angle.is_finite()) {
            return Err(MeshError::InvalidObstacle {
                corner: None,
                reason: "a box's center or angle is NaN or infinite",
            });
        }
        let (sin, cos) = f64::from(angle).sin_cos();
        let (hx, hy) = (f64::from(half_extents.x), f64::from(half_extents.y));
        let corners: Vec<Vec2> = [(-hx, -hy), (hx, -hy), (hx, hy), (-hx, hy)]
            .iter()
            .map(|&(x, y)| {
                (center.as_dvec2() + DVec2::new(x * cos - y * sin, x * sin + y * cos)).as_vec2()
            })
            .collect();
        Obstacle::new(&corners)
    }

    /// This obstacle standing from height `bottom` to `top` only (default: every
    /// height): it cuts the polygons whose heights meet that range, so an obstacle on
    /// a bridge leaves the floor under it alone.
    ///
    /// # Errors
    /// [`MeshError::InvalidObstacle`] when a bound is NaN or `bottom > top`.
    pub fn with_height_range(self, bottom: f32, top: f32) -> Result<Obstacle, MeshError> {
        if bottom.is_nan() || top.is_nan() || bottom > top {
            return Err(MeshError::InvalidObstacle {
                corner: None,
                reason: "the height range must have bottom <= top, neither NaN",
            });
        }
        Ok(Obstacle {
            bottom,
            top,
            ..self
        })
    }

    /// The footprint, counter-clockwise in the ground plane.
    #[must_use]
    pub fn footprint(&self) -> &[Vec2] {
        &self.footprint
    }

    /// `(bottom, top)`: the heights it stands in (infinite by default).
    #[must_use]
    pub fn height_range(&self) -> (f32, f32) {
        (self.bottom, self.top)
    }

    /// Whether a polygon whose heights run from `low` to `high` meets the height range.
    pub(crate) fn meets_heights(&self, low: f32, high: f32) -> bool {
        low <= self.top && high >= self.bottom
    }

    /// The footprint grown by a disc of `radius >= 0` (the polygon of
    /// [`CIRCLE_SEGMENTS`] corners drawn outside it): their Minkowski sum, convex,
    /// counter-clockwise.
    pub(crate) fn grown(&self, radius: f32) -> Vec<DVec2> {
        let footprint = self.footprint.iter().map(|q| q.as_dvec2());
        if radius <= 0.0 {
            return footprint.collect();
        }
        let disc: Vec<DVec2> = regular_polygon(f64::from(radius)).collect();
        let sums: Vec<DVec2> = footprint
            .flat_map(|q| disc.iter().map(move |&d| q + d))
            .collect();
        convex_hull(sums)
    }
}

/// The corners of a regular polygon of [`CIRCLE_SEGMENTS`] sides round the origin whose
/// sides touch the circle of `radius`, counter-clockwise.
fn regular_polygon(radius: f64) -> impl Iterator<Item = DVec2> {
    let reach = radius / (std::f64::consts::PI / CIRCLE_SEGMENTS as f64).cos();
    (0..CIRCLE_SEGMENTS).map(move |k| {
        let angle = TAU * (k as f64 + 0.5) / CIRCLE_SEGMENTS as f64;
        DVec2::new(angle.cos(), angle.sin()) * reach
    })
}

/// The convex hull of `points` (Andrew's monotone chain), counter-clockwise, without
/// collinear corners.
pub(crate) fn convex_hull(mut points: Vec<DVec2>) -> Vec<DVec2> {
    points.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    points.dedup();
    if points.len() < 3 {
        return points;
    }
    let mut hull: Vec<DVec2> = Vec::with_capacity(points.len() + 1);
    for pass in 0..2 {
        let start = hull.len();
        let ordered: Box<dyn Iterator<Item = &DVec2>> = if pass == 0 {
            Box::new(points.iter())
        } else {
            Box::new(points.iter().rev())
        };
        for &q in ordered {
            while hull.len() >= start + 2 {
                let (a, b) = (hull[hull.len() - 2], hull[hull.len() - 1]);
                if (b - a).perp_dot(q - b) > 0.0 {
                    break;
                }
                hull.pop();
            }
            hull.push(q);
        }
        hull.pop();
    }
    hull
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grown_square_reaches_the_radius_on_every_side() {
        let square = Obstacle::rotated_box(Vec2::ZERO, Vec2::ONE, 0.0).unwrap();
        let grown = square.grown(0.5);
        let reach = |dir: DVec2| grown.iter().map(|q| q.dot(dir)).fold(f64::MIN, f64::max);
        assert!((reach(DVec2::X) - 1.5).abs() < 1e-9 * 2.0 + 0.5 * 0.02);
        assert!(reach(DVec2::X) >= 1.5 - 1e-9);
        assert!(reach(DVec2::new(1.0, 1.0).normalize()) >= 2f64.sqrt() + 0.5 - 1e-9);
        // Counter-clockwise and convex.
        let n = grown.len();
        for i in 0..n {
            let (a, b, c) = (grown[i], grown[(i + 1) % n], grown[(i + 2) % n]);
            assert!((b - a).perp_dot(c - b) > 0.0);
        }
    }

    #[test]
    fn footprints_are_checked() {
        let bad = [Vec2::ZERO, Vec2::X, Vec2::new(f32::NAN, 1.0)];
        assert!(matches!(
            Obstacle::new(&bad),
            Err(MeshError::InvalidObstacle {
                corner: Some(2),
                ..
            })
        ));
        let line = [Vec2::ZERO, Vec2::X, Vec2::new(2.0, 0.0)];
        assert!(Obstacle::new(&line).is_err());
        let star: Vec<Vec2> = (0..5)
            .map(|k| {
                let a = std::f32::consts::TAU * (k as f32) * 2.0 / 5.0;
                Vec2::new(a.cos(), a.sin())
            })
            .collect();
        assert!(Obstacle::new(&star).is_err());
        assert!(Obstacle::rotated_box(Vec2::ZERO, Vec2::new(0.0, 1.0), 0.0).is_err());
        assert!(
            Obstacle::circle(Vec2::ZERO, 1.0)
                .unwrap()
                .with_height_range(2.0, 1.0)
                .is_err()
        );
    }
}
