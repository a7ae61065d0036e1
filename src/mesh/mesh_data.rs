//! What the searches read of a mesh's shared data ([`MeshData`]): counts, flags, corners
//! and edges of polygons, closest points.

use std::ops::Range;
use std::sync::atomic::Ordering;

use glam::Vec3;

use super::{MeshData, NearestPoint, next_in};
use crate::error::QueryError;
use crate::geometry::closest_point_on_triangle;
use crate::sync::AtomicU32;

impl MeshData {
    /// The number of polygons (of all tiles).
    #[inline]
    pub fn polygon_count(&self) -> u32 {
        self.tiles.iter().map(|t| t.polygon_count).sum()
    }

    /// The number of vertices (of all tiles).
    pub fn vertex_count(&self) -> u32 {
        self.tiles.iter().map(|t| t.vertex_count).sum()
    }

    /// The current flags of `polygon` (one relaxed atomic load).
    #[inline]
    pub fn flags_of(&self, polygon: u32) -> u32 {
        self.flags[polygon as usize].load(Ordering::Relaxed)
    }

    /// A number that changes whenever a polygon's flags change (read it before
    /// scanning the flags, so that a change during the scan shows as a new number).
    pub fn flags_generation(&self) -> u64 {
        self.flags_generation.load(Ordering::Acquire)
    }

    /// Whether `admits` accepts the flags of every polygon.
    pub fn admits_all(&self, admits: impl Fn(u32) -> bool) -> bool {
        self.flags.iter().all(|f| admits(f.load(Ordering::Relaxed)))
    }

    /// The flags of `polygon`; an error when the mesh has no such polygon.
    pub(super) fn flag_cell(&self, polygon: u32) -> Result<&AtomicU32, QueryError> {
        self.check_polygon(polygon)?;
        Ok(&self.flags[polygon as usize])
    }

    /// The corner slots of `polygon`.
    #[inline]
    pub fn corner_range(&self, polygon: u32) -> Range<usize> {
        let p = polygon as usize;
        self.poly_start[p] as usize..self.poly_start[p + 1] as usize
    }

    /// The corner slot after `slot` in `polygon` (which owns it), wrapping round from
    /// the last corner to the first.
    #[inline]
    pub fn next_slot(&self, polygon: u32, slot: usize) -> usize {
        next_in(self.corner_range(polygon), slot)
    }

    /// The edge of corner slot `slot` of `polygon` (which owns it): its corner and the
    /// next one, as vertex indices, counter-clockwise. Its neighbour is
    /// `neighbours[slot]`.
    #[inline]
    pub fn edge(&self, polygon: u32, slot: usize) -> (u32, u32) {
        (
            self.corners[slot],
            self.corners[self.next_slot(polygon, slot)],
        )
    }

    /// The surface of a polygon is the fan of triangles from its first corner; for a
    /// planar polygon that is the polygon itself.
    pub fn closest_point_on_polygon(&self, polygon: u32, p: Vec3) -> Vec3 {
        let corners = &self.corners[self.corner_range(polygon)];
        let v0 = self.vertices[corners[0] as usize];
        let mut best = v0;
        let mut best_d = f32::INFINITY;
        for pair in corners[1..].windows(2) {
            let q = closest_point_on_triangle(
                p,
                v0,
                self.vertices[pair[0] as usize],
                self.vertices[pair[1] as usize],
            );
            let d = q.distance_squared(p);
            if d < best_d {
                best_d = d;
                best = q;
            }
        }
        best
    }

    /// Nearest point among the polygons for which `accept` holds.
    pub fn nearest_point(
        &self,
        p: Vec3,
        max_distance: f32,
        accept: impl Fn(u32) -> bool,
    ) -> Option<NearestPoint> {
        let limit = if max_distance.is_finite() {
            max_distance * max_distance
        } else {
            f32::INFINITY
        };
        self.nearest_polygon(p, limit, |poly| {
            if accept(poly) {
                Some(self.closest_point_on_polygon(poly, p))
            } else {
                None
            }
        })
        .map(|(polygon, point, _)| NearestPoint {
            polygon,
            point,
            // In f64: the squared f32 distance overflows beyond about 1.8e19.
            distance: point.as_dvec3().distance(p.as_dvec3()) as f32,
        })
        // The squared limit bounds nothing beyond about 1.8e19 (infinite in f32) and
        // admits too much below about 1e-19 (a tiny distance squared is 0): check the
        // distance itself.
        .filter(|n| !max_distance.is_finite() || n.distance <= max_distance)
    }

    /// The portal from corner slot `slot` of a polygon, as `(left, right)` vertex indices
    /// seen when walking out of the polygon through it (precomputed at build; see
    /// `build::topology::portal_of_slot`). `polygon` must own `slot`.
    #[inline]
    pub fn portal_vertices(&self, polygon: u32, slot: usize) -> (u32, u32) {
        debug_assert!(self.corner_range(polygon).contains(&slot));
        let [left, right] = self.portals[slot];
        (left, right)
    }
}
