//! Interpolating per-vertex data supplied by the caller at any point of the mesh.

use glam::Vec3;

use super::NavMesh;
use crate::error::{Endpoint, QueryError};
use crate::filter::QueryFilter;
use crate::geometry::mean_value_weights;

impl NavMesh {
    /// Interpolates per-vertex data at `point` (character scale, light tint, ...).
    ///
    /// `values` holds `channels` floats per vertex of the mesh, vertex after vertex
    /// (`values[vertex * channels + c]`); the mesh keeps nothing. `point` is first moved
    /// to the nearest point of a polygon `filter` admits (3D distance), then the values
    /// of that polygon's corners are blended with mean value coordinates in the ground
    /// plane (barycentric coordinates on triangles, their generalisation on convex
    /// polygons: linear data is reproduced exactly). The result goes into
    /// `out[..channels]`. Returns the polygon used.
    ///
    /// # Errors
    /// [`QueryError::InvalidOption`] when `channels` is 0, `values` is not
    /// `vertex_count() * channels` long or `out` is shorter than `channels`;
    /// [`QueryError::NonFinitePoint`]; [`QueryError::NotOnMesh`] when the filter admits
    /// no polygon.
    ///
    /// # Example
    /// ```
    /// # use navstar::{glam::Vec3, MeshOptions, NavMesh};
    /// # let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// # let vertices = [v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0), v(3.0, 0.0), v(0.0, 1.0), v(1.0, 1.0), v(2.0, 1.0), v(3.0, 1.0)];
    /// # let indices = [0, 1, 5, 4, /**/ 1, 2, 6, 5, /**/ 2, 3, 7, 6];
    /// # let mesh = NavMesh::from_polygons(&vertices, &indices, &[4, 4, 4], &MeshOptions::default())?;
    /// // `mesh`: three unit squares in a row along x, polygons 0, 1, 2 (y up).
    /// use navstar::QueryFilter;
    ///
    /// // One channel per vertex: its x coordinate (linear data comes back exactly).
    /// let values: Vec<f32> = mesh.vertices().iter().map(|p| p.x).collect();
    /// let mut out = [0.0];
    /// let polygon = mesh.interpolate(Vec3::new(2.25, 0.0, 0.5), &values, 1, &mut out, &QueryFilter::default())?;
    /// assert_eq!((polygon, out[0]), (2, 2.25));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn interpolate(
        &self,
        point: Vec3,
        values: &[f32],
        channels: usize,
        out: &mut [f32],
        filter: &QueryFilter,
    ) -> Result<u32, QueryError> {
        if channels == 0 {
            return Err(QueryError::InvalidOption("channels must be at least 1"));
        }
        if Some(values.len()) != (self.vertex_count() as usize).checked_mul(channels) {
            return Err(QueryError::InvalidOption(
                "values must hold vertex_count * channels floats",
            ));
        }
        if out.len() < channels {
            return Err(QueryError::InvalidOption(
                "out must hold at least channels floats",
            ));
        }
        if !point.is_finite() {
            return Err(QueryError::NonFinitePoint(Endpoint::Start));
        }
        let at = self.place_anywhere(point, filter)?;
        let mesh = self.data();
        let corners = &mesh.corners[mesh.corner_range(at.polygon)];
        let ground = |i: usize| mesh.ground[corners[i] as usize].as_dvec2();
        let p = mesh.up.ground(at.point).as_dvec2();
        let mut blended = [0.0f64; 16];
        let out = &mut out[..channels];
        out.fill(0.0);
        // Blend in f64, a few channels at a time (no allocation for any channel count).
        for first in (0..channels).step_by(blended.len()) {
            let count = (channels - first).min(blended.len());
            blended[..count].fill(0.0);
            mean_value_weights(p, corners.len(), ground, |i, w| {
                let base = mesh.vertex_index(corners[i]) * channels + first;
                for (c, slot) in blended[..count].iter_mut().enumerate() {
                    *slot += w * f64::from(values[base + c]);
                }
            });
            for (o, b) in out[first..first + count].iter_mut().zip(&blended[..count]) {
                *o = *b as f32;
            }
        }
        Ok(at.polygon)
    }
}
