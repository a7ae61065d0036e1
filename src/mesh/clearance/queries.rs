//! The mesh's own queries for a disc-shaped agent: the nearest point where the disc
//! fits, and a raycast of the disc's centre. Both run on the eroded mesh and name the
//! original polygons.

use glam::Vec3;

use super::ErodedMesh;
use crate::error::{Endpoint, QueryError};
use crate::filter::QueryFilter;
use crate::mesh::{NavMesh, NearestPoint, Raycast};
use std::sync::Arc;

impl NavMesh {
    /// The eroded copy of this mesh for an agent of `agent_radius` under `filter`
    /// (`None`: every polygon), or `None` when the radius does not exceed the baked one.
    pub(crate) fn eroded_for(
        &self,
        agent_radius: f32,
        filter: Option<&QueryFilter>,
    ) -> Result<Option<Arc<ErodedMesh>>, QueryError> {
        if !(agent_radius.is_finite() && agent_radius >= 0.0) {
            return Err(QueryError::InvalidOption(
                "agent_radius must be finite and >= 0",
            ));
        }
        let mesh = self.data();
        let erosion = mesh.erosion_for(agent_radius);
        if erosion == 0.0 {
            return Ok(None);
        }
        let all = QueryFilter::default();
        let filter = filter.unwrap_or(&all);
        filter.validate()?;
        let admits_all = mesh.admits_all(|flags| filter.admits(flags));
        mesh.eroded(erosion, filter, admits_all).map(Some)
    }

    /// Like [`NavMesh::nearest_point`], for an agent of radius `agent_radius` (world
    /// units): the nearest point where the disc fits, at least the radius from every
    /// wall (edges without a neighbour, and edges into polygons the filter refuses), and
    /// the original polygon holding it. At or below the mesh's baked radius this is
    /// [`NavMesh::nearest_point`]. The first call for a radius and filter builds the
    /// mesh's eroded copy for them (see [`PathOptions::agent_radius`](crate::PathOptions::agent_radius));
    /// each call checks the filter against every polygon's flags.
    ///
    /// # Errors
    /// [`QueryError::InvalidOption`] for a radius that is NaN, infinite or negative,
    /// [`QueryError::InvalidAreaCost`] for a bad filter, and
    /// [`QueryError::ClearanceUnavailable`] when no point of the mesh keeps that
    /// distance from its walls (or its eroded copy could not be built).
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshOptions, NavMesh};
    ///
    /// // A 4 x 4 room (y up): a disc of radius 0.5 keeps its centre 0.5 from the walls.
    /// let v = [Vec3::ZERO, Vec3::new(4.0, 0.0, 0.0), Vec3::new(4.0, 0.0, 4.0), Vec3::new(0.0, 0.0, 4.0)];
    /// let mesh = NavMesh::from_polygons(&v, &[0, 1, 2, 3], &[4], &MeshOptions::default())?;
    /// let near = mesh.nearest_point_for_agent(Vec3::new(2.0, 0.0, 0.1), f32::INFINITY, None, 0.5)?.unwrap();
    /// // (Within 1e-5: the band along the walls is drawn 1e-6 of the largest coordinate
    /// // wider than the radius, see `ARC_SEGMENTS`.)
    /// assert_eq!(near.polygon, 0);
    /// assert!(near.point.abs_diff_eq(Vec3::new(2.0, 0.0, 0.5), 1e-5));
    /// assert!((near.distance - 0.4).abs() < 1e-5);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn nearest_point_for_agent(
        &self,
        point: Vec3,
        max_distance: f32,
        filter: Option<&QueryFilter>,
        agent_radius: f32,
    ) -> Result<Option<NearestPoint>, QueryError> {
        let Some(eroded) = self.eroded_for(agent_radius, filter)? else {
            return Ok(self.nearest_point(point, max_distance, filter));
        };
        Ok(eroded
            .mesh
            .nearest_point(point, max_distance, None)
            .map(|near| NearestPoint {
                polygon: eroded.of_original[near.polygon as usize],
                ..near
            }))
    }

    /// Like [`NavMesh::raycast`], for the centre of a disc of radius `agent_radius`:
    /// the start moves to the nearest point where the disc fits, and the walk stops
    /// where the disc would touch a wall (an edge without a neighbour, or into a polygon
    /// the filter refuses). The hit's normal is that of the eroded boundary: the wall's
    /// along a straight wall, and round a convex wall corner the direction from the
    /// corner, to within `pi / ARC_SEGMENTS`. `polygon` names the original polygon. At or
    /// below the mesh's baked radius this is [`NavMesh::raycast`].
    ///
    /// # Errors
    /// As [`NavMesh::raycast`], and as [`NavMesh::nearest_point_for_agent`].
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshOptions, NavMesh, QueryFilter};
    ///
    /// // A 4 x 4 room (y up): walking towards the wall z = 4, a disc of radius 0.5 stops
    /// // with its centre at z = 3.5.
    /// let v = [Vec3::ZERO, Vec3::new(4.0, 0.0, 0.0), Vec3::new(4.0, 0.0, 4.0), Vec3::new(0.0, 0.0, 4.0)];
    /// let mesh = NavMesh::from_polygons(&v, &[0, 1, 2, 3], &[4], &MeshOptions::default())?;
    /// let ray = mesh.raycast_for_agent(Vec3::new(2.0, 0.0, 1.5), Vec3::new(2.0, 0.0, 5.5), &QueryFilter::default(), 0.5)?;
    /// // (Within 1e-5: the band along the walls is drawn 1e-6 of the largest coordinate
    /// // wider than the radius, see `ARC_SEGMENTS`.)
    /// assert_eq!(ray.polygon, 0);
    /// assert!(ray.point.abs_diff_eq(Vec3::new(2.0, 0.0, 3.5), 1e-5));
    /// assert!((ray.t - 0.5).abs() < 1e-5);
    /// assert!(ray.hit.unwrap().normal.abs_diff_eq(Vec3::new(0.0, 0.0, -1.0), 1e-6));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn raycast_for_agent(
        &self,
        start: Vec3,
        end: Vec3,
        filter: &QueryFilter,
        agent_radius: f32,
    ) -> Result<Raycast, QueryError> {
        if !start.is_finite() {
            return Err(QueryError::NonFinitePoint(Endpoint::Start));
        }
        if !end.is_finite() {
            return Err(QueryError::NonFinitePoint(Endpoint::Goal));
        }
        let Some(eroded) = self.eroded_for(agent_radius, Some(filter))? else {
            return self.raycast(start, end, filter);
        };
        let ray = eroded.mesh.raycast(start, end, &QueryFilter::default())?;
        Ok(Raycast {
            polygon: eroded.of_original[ray.polygon as usize],
            ..ray
        })
    }
}

impl NavMesh {
    /// The region where the centre of a disc of radius `agent_radius` (world units) may
    /// be, as a mesh of its own: what queries with that radius search (see
    /// [`PathOptions::agent_radius`](crate::PathOptions::agent_radius)), built on first
    /// use and shared with them. Its walls keep at least the radius from this mesh's
    /// walls (and from polygons `filter` refuses); its polygons have their original
    /// polygons' areas and default flags. `None` at or below the mesh's baked radius
    /// (this mesh itself serves). For drawing and debugging.
    ///
    /// # Errors
    /// As [`NavMesh::nearest_point_for_agent`].
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshOptions, NavMesh};
    ///
    /// let v = [Vec3::ZERO, Vec3::new(4.0, 0.0, 0.0), Vec3::new(4.0, 0.0, 4.0), Vec3::new(0.0, 0.0, 4.0)];
    /// let mesh = NavMesh::from_polygons(&v, &[0, 1, 2, 3], &[4], &MeshOptions::default())?;
    /// let region = mesh.agent_region(0.5, None)?.unwrap();
    /// // The 4 x 4 room less a band of 0.5 (and a hair: 1e-6 of the largest coordinate):
    /// // a 3 x 3 square.
    /// assert!(region.bounds().min.abs_diff_eq(Vec3::new(0.5, 0.0, 0.5), 1e-5));
    /// assert!(region.bounds().max.abs_diff_eq(Vec3::new(3.5, 0.0, 3.5), 1e-5));
    /// assert!(mesh.agent_region(0.0, None)?.is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn agent_region(
        &self,
        agent_radius: f32,
        filter: Option<&QueryFilter>,
    ) -> Result<Option<NavMesh>, QueryError> {
        Ok(self
            .eroded_for(agent_radius, filter)?
            .map(|eroded| eroded.mesh.clone()))
    }
}
