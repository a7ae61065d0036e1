//! Random points on the mesh, uniform by ground-plane area: over the whole mesh here
//! ([`NavMesh::random_point`]), and the per-polygon part that the query near a point
//! (`Query::random_point_around`) shares.

use glam::{DVec2, Vec2, Vec3};

use super::{MeshData, NavMesh};
use crate::error::QueryError;
use crate::filter::QueryFilter;
use crate::random::unit_f64;

/// A random point on the mesh.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct RandomPoint {
    /// The point, in world coordinates, on its polygon's surface.
    pub point: Vec3,
    /// The polygon that holds it.
    pub polygon: u32,
}

impl NavMesh {
    /// A random point of the polygons `filter` admits, uniform by ground-plane area
    /// (every admitted square metre of ground is as likely as any other; Detour's
    /// `findRandomPoint`, Unity's wander targets).
    ///
    /// `random` gives 64 random bits per call: a closure over any generator, or over
    /// the crate's [`crate::SplitMix64`] for answers that repeat for a seed (the C
    /// ABI's `navstar_mesh_random_point` runs that one, so a C and a Rust caller with the
    /// same seed get the same points). Each point takes exactly four draws: the
    /// polygon, the triangle of its fan from its first corner, and two for the place in
    /// that triangle. The point's height is that of the polygon's surface.
    ///
    /// Cost: O(polygons) per call, two passes over the polygons' flags and areas, no
    /// allocation (no table to rebuild when flags change at run time; for many points
    /// of one region use [`crate::Query::random_point_around`]).
    ///
    /// # Errors
    /// [`QueryError::NoAdmittedArea`] when the filter admits no polygon with an area.
    ///
    /// # Example
    /// ```
    /// # use navstar::{glam::Vec3, MeshOptions, NavMesh};
    /// # let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// # let vertices = [v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0), v(3.0, 0.0), v(0.0, 1.0), v(1.0, 1.0), v(2.0, 1.0), v(3.0, 1.0)];
    /// # let indices = [0, 1, 5, 4, /**/ 1, 2, 6, 5, /**/ 2, 3, 7, 6];
    /// # let mesh = NavMesh::from_polygons(&vertices, &indices, &[4, 4, 4], &MeshOptions::default())?;
    /// // `mesh`: three unit squares in a row along x, polygons 0, 1, 2 (y up).
    /// use navstar::{QueryFilter, SplitMix64};
    ///
    /// let mut rng = SplitMix64::new(42);
    /// // Close squares 0 and 1: every point falls in square 2.
    /// mesh.set_polygon_flags(0, 0)?;
    /// mesh.set_polygon_flags(1, 0)?;
    /// for _ in 0..100 {
    ///     let p = mesh.random_point(&QueryFilter::default(), &mut || rng.next_u64())?;
    ///     assert_eq!(p.polygon, 2);
    ///     assert!((2.0..=3.0).contains(&p.point.x) && (0.0..=1.0).contains(&p.point.z));
    /// }
    /// // The same seed, the same point.
    /// let (mut first, mut second) = (SplitMix64::new(5), SplitMix64::new(5));
    /// let a = mesh.random_point(&QueryFilter::default(), &mut || first.next_u64())?;
    /// let b = mesh.random_point(&QueryFilter::default(), &mut || second.next_u64())?;
    /// assert_eq!(a, b);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "find_random_point")]
    pub fn random_point(
        &self,
        filter: &QueryFilter,
        random: &mut impl FnMut() -> u64,
    ) -> Result<RandomPoint, QueryError> {
        let mesh = self.data();
        let admitted = |p: u32| filter.admits(mesh.flags_of(p));
        let total: f64 = mesh
            .polygon_ids()
            .filter(|&p| admitted(p))
            .map(|p| mesh.ground_area(p))
            .sum();
        let polygon = pick_by_area(
            mesh,
            mesh.polygon_ids().filter(|&p| admitted(p)),
            total,
            unit_f64(random()),
        )
        .ok_or(QueryError::NoAdmittedArea)?;
        Ok(mesh.random_point_in(polygon, random))
    }
}

/// The polygon of `polygons` (whose ground areas sum to `total`) where the cumulative
/// area first exceeds `u * total`; the last one with an area when rounding (or a flag
/// changed between the passes) leaves the sum short. `None` when none has an area.
pub(crate) fn pick_by_area(
    mesh: &MeshData,
    polygons: impl Iterator<Item = u32>,
    total: f64,
    u: f64,
) -> Option<u32> {
    let goal = u * total;
    let mut sum = 0.0;
    let mut last = None;
    for polygon in polygons {
        let area = mesh.ground_area(polygon);
        if area <= 0.0 {
            continue;
        }
        sum += area;
        last = Some(polygon);
        if sum > goal {
            break;
        }
    }
    last
}

impl MeshData {
    /// The ground-plane area of `polygon` (0 for a degenerate connector).
    pub(crate) fn ground_area(&self, polygon: u32) -> f64 {
        let corners = &self.corners[self.corner_range(polygon)];
        let first = self.ground[corners[0] as usize].as_dvec2();
        corners[1..]
            .windows(2)
            .map(|pair| {
                let b = self.ground[pair[0] as usize].as_dvec2();
                let c = self.ground[pair[1] as usize].as_dvec2();
                triangle_area(first, b, c)
            })
            .sum()
    }

    /// A point of `polygon` uniform by ground area, from three draws of `random`: the
    /// fan triangle (from the first corner) by area, then a uniform point in it.
    pub(crate) fn random_point_in(
        &self,
        polygon: u32,
        random: &mut impl FnMut() -> u64,
    ) -> RandomPoint {
        let corners = &self.corners[self.corner_range(polygon)];
        let at = |i: usize| self.ground[corners[i] as usize].as_dvec2();
        let first = at(0);
        let goal = unit_f64(random()) * self.ground_area(polygon);
        let mut triangle = (at(1), at(2));
        let mut sum = 0.0;
        for i in 1..corners.len() - 1 {
            let (b, c) = (at(i), at(i + 1));
            let area = triangle_area(first, b, c);
            if area <= 0.0 {
                continue;
            }
            sum += area;
            triangle = (b, c);
            if sum > goal {
                break;
            }
        }
        // A uniform point of the triangle (first, b, c): the square root spreads the
        // first draw over the triangle's area rather than its height.
        let (b, c) = triangle;
        let r = unit_f64(random()).sqrt();
        let s = unit_f64(random());
        let ground: DVec2 = first * (1.0 - r) + b * (r * (1.0 - s)) + c * (r * s);
        RandomPoint {
            point: self.point_over(polygon, Vec2::new(ground.x as f32, ground.y as f32)),
            polygon,
        }
    }
}

/// The area of triangle `a, b, c` (counter-clockwise, so not negative on a valid mesh).
fn triangle_area(a: DVec2, b: DVec2, c: DVec2) -> f64 {
    ((b - a).perp_dot(c - a) * 0.5).max(0.0)
}
