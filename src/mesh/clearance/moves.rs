//! The mesh's moving queries for a disc-shaped agent: moving along the surface (the
//! disc's centre slides along the eroded boundary, so the disc never overlaps a wall)
//! and random points where the disc fits. Both run on the eroded mesh and name the
//! original polygons.

use glam::Vec3;

use super::ErodedMesh;
use crate::error::{Endpoint, QueryError};
use crate::filter::QueryFilter;
use crate::mesh::{NavMesh, RandomPoint, SurfaceMove};

impl NavMesh {
    /// Like [`NavMesh::move_along_surface`], for the centre of a disc of radius
    /// `agent_radius` (world units, the whole radius, the mesh's baked radius included):
    /// the move slides along the boundary of the region where the disc fits (its centre
    /// at least the radius from every wall: edges without a neighbour and edges into
    /// polygons `filter` refuses), so the disc never overlaps a wall. Along a straight
    /// wall that is the wall moved in by the radius; round a convex wall corner, the
    /// polygon of [`ARC_SEGMENTS`](crate::ARC_SEGMENTS) sides drawn round the corner's
    /// circle. At or below the mesh's baked radius this is [`NavMesh::move_along_surface`].
    ///
    /// `start` first moves to the nearest point where the disc fits in `start_polygon`
    /// (anywhere when `start_polygon` is `None`). When the disc fits nowhere in
    /// `start_polygon` (an agent pushed into a narrow place), the move is the plain
    /// [`NavMesh::move_along_surface`], so that the agent can walk out of it along its
    /// corridor; the disc may then overlap a wall. `visited` receives the original
    /// polygons walked through (the polygons of this mesh, never those of its eroded
    /// copy), in order, none twice in a row; the answer's `polygon` is an original one,
    /// to pass back as `start_polygon` of the next move. `walls` counts the eroded
    /// boundary's edges met (a turn round a convex corner may meet several). The first
    /// call for a radius and filter builds the eroded copy (see
    /// [`PathOptions::agent_radius`](crate::PathOptions::agent_radius)); each call checks
    /// the filter against every polygon's flags. No allocation in steady state once
    /// `visited` has grown.
    ///
    /// # Errors
    /// As [`NavMesh::move_along_surface`], and [`QueryError::InvalidOption`] for a
    /// radius that is NaN, infinite or negative, [`QueryError::InvalidAreaCost`] for a bad
    /// filter, [`QueryError::ClearanceUnavailable`] when no point of the mesh keeps that
    /// distance from its walls.
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshOptions, NavMesh, QueryFilter};
    ///
    /// // A 10 x 10 room (y up): a disc of radius 1 walking from the centre towards the
    /// // wall z = 10 stops 1 from it; aimed past it, it slides along it.
    /// let v = [Vec3::ZERO, Vec3::new(10.0, 0.0, 0.0), Vec3::new(10.0, 0.0, 10.0), Vec3::new(0.0, 0.0, 10.0)];
    /// let mesh = NavMesh::from_polygons(&v, &[0, 1, 2, 3], &[4], &MeshOptions::default())?;
    /// let filter = QueryFilter::default();
    /// let mut visited = Vec::new();
    /// let moved = mesh.move_along_surface_for_agent(Some(0), Vec3::new(5.0, 0.0, 5.0), Vec3::new(5.0, 0.0, 12.0), &filter, 1.0, &mut visited)?;
    /// assert!(moved.point.distance(Vec3::new(5.0, 0.0, 9.0)) < 1e-4);
    /// assert_eq!((moved.polygon, moved.walls), (0, 1));
    /// assert_eq!(visited, [0]);
    /// let moved = mesh.move_along_surface_for_agent(Some(0), Vec3::new(5.0, 0.0, 5.0), Vec3::new(7.0, 0.0, 12.0), &filter, 1.0, &mut visited)?;
    /// assert!(moved.point.distance(Vec3::new(7.0, 0.0, 9.0)) < 1e-4);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn move_along_surface_for_agent(
        &self,
        start_polygon: Option<u32>,
        start: Vec3,
        target: Vec3,
        filter: &QueryFilter,
        agent_radius: f32,
        visited: &mut Vec<u32>,
    ) -> Result<SurfaceMove, QueryError> {
        visited.clear();
        self.move_along_surface_for_agent_with(
            start_polygon,
            start,
            target,
            filter,
            agent_radius,
            |p| visited.push(p),
        )
    }

    /// As [`NavMesh::move_along_surface_for_agent`], giving each original polygon
    /// walked through to `visit` (in order, never the same twice in a row) instead of a
    /// vector: for callers with buffers of their own.
    ///
    /// # Errors
    /// As [`NavMesh::move_along_surface_for_agent`].
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshOptions, NavMesh, QueryFilter};
    ///
    /// let v = [Vec3::ZERO, Vec3::new(10.0, 0.0, 0.0), Vec3::new(10.0, 0.0, 10.0), Vec3::new(0.0, 0.0, 10.0)];
    /// let mesh = NavMesh::from_polygons(&v, &[0, 1, 2, 3], &[4], &MeshOptions::default())?;
    /// let mut crossed = 0;
    /// // A start in the wall band moves out to where the disc fits first.
    /// let moved = mesh.move_along_surface_for_agent_with(None, Vec3::new(0.2, 0.0, 5.0), Vec3::new(4.0, 0.0, 5.0), &QueryFilter::default(), 1.0, |_| crossed += 1)?;
    /// assert!(moved.point.distance(Vec3::new(4.0, 0.0, 5.0)) < 1e-4);
    /// assert_eq!((moved.polygon, moved.walls, crossed), (0, 0, 1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn move_along_surface_for_agent_with(
        &self,
        start_polygon: Option<u32>,
        start: Vec3,
        target: Vec3,
        filter: &QueryFilter,
        agent_radius: f32,
        mut visit: impl FnMut(u32),
    ) -> Result<SurfaceMove, QueryError> {
        if !start.is_finite() {
            return Err(QueryError::NonFinitePoint(Endpoint::Start));
        }
        if !target.is_finite() {
            return Err(QueryError::NonFinitePoint(Endpoint::Goal));
        }
        if let Some(polygon) = start_polygon {
            let mesh = self.data();
            mesh.check_polygon(polygon)?;
            let flags = mesh.flags_of(polygon);
            if !filter.admits(flags) {
                return Err(QueryError::RefusedPolygon { polygon, flags });
            }
        }
        let Some(eroded) = self.eroded_for(agent_radius, Some(filter))? else {
            return self.move_along_surface_with(start_polygon, start, target, filter, visit);
        };
        let Some(piece) = start_piece(&eroded, start_polygon, start) else {
            return self.move_along_surface_with(start_polygon, start, target, filter, visit);
        };
        let mut last = None;
        let moved = eroded.mesh.move_along_surface_with(
            Some(piece),
            start,
            target,
            &QueryFilter::default(),
            |p| {
                let original = eroded.of_original[p as usize];
                if last != Some(original) {
                    last = Some(original);
                    visit(original);
                }
            },
        )?;
        // The height of the original polygon's surface there, as without a radius (the
        // eroded pieces' heights may differ a little where the polygon is not flat).
        let polygon = eroded.of_original[moved.polygon as usize];
        let mesh = self.data();
        Ok(SurfaceMove {
            point: mesh.point_over(polygon, mesh.up.ground(moved.point)),
            polygon,
            ..moved
        })
    }

    /// Like [`NavMesh::random_point`], for an agent of radius `agent_radius` (world
    /// units): a random point where the disc fits (its centre at least the radius from
    /// every wall: edges without a neighbour and edges into polygons `filter` refuses),
    /// uniform by ground-plane area over that region, and the original polygon holding
    /// it. The region is the mesh's eroded copy for the radius and filter (built on first
    /// use, see [`PathOptions::agent_radius`](crate::PathOptions::agent_radius)); the
    /// draws are those of [`NavMesh::random_point`] on it (four per point). At or below the
    /// mesh's baked radius this is [`NavMesh::random_point`].
    ///
    /// # Errors
    /// As [`NavMesh::random_point`], and [`QueryError::InvalidOption`] for a radius that
    /// is NaN, infinite or negative, [`QueryError::InvalidAreaCost`] for a bad filter,
    /// [`QueryError::ClearanceUnavailable`] when the disc fits nowhere.
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshOptions, NavMesh, QueryFilter, SplitMix64};
    ///
    /// // A 10 x 10 room (y up): the centre of a disc of radius 1 stays in [1, 9]^2.
    /// let v = [Vec3::ZERO, Vec3::new(10.0, 0.0, 0.0), Vec3::new(10.0, 0.0, 10.0), Vec3::new(0.0, 0.0, 10.0)];
    /// let mesh = NavMesh::from_polygons(&v, &[0, 1, 2, 3], &[4], &MeshOptions::default())?;
    /// let mut rng = SplitMix64::new(7);
    /// for _ in 0..100 {
    ///     let p = mesh.random_point_for_agent(&QueryFilter::default(), 1.0, &mut || rng.next_u64())?;
    ///     assert_eq!(p.polygon, 0);
    ///     assert!((1.0..=9.0).contains(&p.point.x) && (1.0..=9.0).contains(&p.point.z));
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn random_point_for_agent(
        &self,
        filter: &QueryFilter,
        agent_radius: f32,
        random: &mut impl FnMut() -> u64,
    ) -> Result<RandomPoint, QueryError> {
        let Some(eroded) = self.eroded_for(agent_radius, Some(filter))? else {
            return self.random_point(filter, random);
        };
        let point = eroded.mesh.random_point(&QueryFilter::default(), random)?;
        let polygon = eroded.of_original[point.polygon as usize];
        let mesh = self.data();
        Ok(RandomPoint {
            point: mesh.point_over(polygon, mesh.up.ground(point.point)),
            polygon,
        })
    }
}

/// The polygon of `eroded` a move from `start` begins in: the piece of `polygon` (an
/// original polygon) nearest `start`, or without a polygon the nearest piece of all;
/// `None` when the disc fits nowhere in `polygon`.
fn start_piece(eroded: &ErodedMesh, polygon: Option<u32>, start: Vec3) -> Option<u32> {
    let mesh = eroded.mesh.data();
    let near = match polygon {
        Some(polygon) => mesh.nearest_point(start, f32::INFINITY, |p| {
            eroded.of_original[p as usize] == polygon
        }),
        None => mesh.nearest_point(start, f32::INFINITY, |_| true),
    };
    near.map(|near| near.polygon)
}
