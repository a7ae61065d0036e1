//! The exact mode's answer from the mesh's fast-lane index (`search/hub/`), when the
//! mesh has one and the query asks exactly what it answers; turned off per query with
//! [`Query::set_fast_lane`].

use glam::Vec3;

use super::Query;
use crate::filter::QueryFilter;
use crate::mesh::{MeshData, NearestPoint};
use crate::search::hub::{self, Budget, LaneAnswer, LaneScratch, query_cone_limit};

/// The fewest polygons of a mesh on which a query builds the fast-lane index on first
/// use (see [`Query::set_fast_lane`]); smaller meshes use one only when
/// [`crate::NavMesh::prepare_fast_lane`] built it. The benchmark maps of 635 polygons
/// and more answer their scenarios 1.1-7.8x faster with it (BENCHMARKS.md "session
/// 21"); on small meshes the search is short already.
///
/// # Example
/// ```
/// assert_eq!(navstar::FAST_LANE_MIN_POLYGONS, 500);
/// ```
pub const FAST_LANE_MIN_POLYGONS: u32 = 500;

/// What the fast lane made of a path query.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum LaneUse {
    /// The path's corners are in the query's path.
    Path,
    /// The start and the goal see each other: the segment is the path.
    InSight,
    /// Not answered (no index, or a query it does not answer): the exact search runs.
    Unanswered,
}

/// A query's use of the fast lane, and its scratch.
#[derive(Debug)]
pub(crate) struct FastLaneUse {
    /// Whether the query uses the index when the mesh has one.
    pub on: bool,
    pub scratch: Option<Box<LaneScratch>>,
    /// The corners of the last answer (vertex ids of the searched mesh).
    pub corners: Vec<u32>,
    /// Whether the last path query was answered from the index.
    pub answered: bool,
}

impl Default for FastLaneUse {
    fn default() -> Self {
        FastLaneUse {
            on: true,
            scratch: None,
            corners: Vec::new(),
            answered: false,
        }
    }
}

impl FastLaneUse {
    /// The bytes held.
    pub fn bytes(&self) -> usize {
        self.scratch.as_ref().map_or(0, |s| s.bytes()) + self.corners.capacity() * 4
    }
}

impl Query {
    /// Whether this query answers exact-mode paths from the mesh's fast-lane index; on
    /// by default. On, a mesh of at least [`FAST_LANE_MIN_POLYGONS`] polygons gets its
    /// index on the first exact-mode query that can use it (built once per mesh and
    /// shared by every thread, on the thread of that query: 0.02-0.11 s on the
    /// benchmark maps, so call [`crate::NavMesh::prepare_fast_lane`] at load time to
    /// keep it off the query path; a mesh of more than 16,384 corners, or whose labels
    /// would take more than 128 entries per polygon, gets none that way), and a smaller
    /// mesh uses
    /// one when `prepare_fast_lane` built it. Off, or without an index, the exact
    /// search runs. Either way the path's length is the same (up to rounding); where
    /// two ways are equally short the corners may differ. With an agent radius the
    /// eroded copy the query runs on gets its own index on first use by the same rule
    /// (Iron Harvest at radius 0.5: 5x fewer instructions per query, the same answers);
    /// a query with a node limit ([`Query::with_max_nodes`]) always searches (the limit
    /// bounds its work).
    /// A world's snapshot has an index only from [`crate::World::prepare_fast_lane`]
    /// (never built on a query: a world's geometry changes).
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshOptions, NavMesh, PathMode, PathOptions, Query};
    ///
    /// let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// // A U: down the left column, across the bottom, up the right column (y up).
    /// let vertices = [v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0), v(3.0, 0.0), v(0.0, 1.0),
    ///     v(1.0, 1.0), v(2.0, 1.0), v(3.0, 1.0), v(0.0, 3.0), v(1.0, 3.0), v(2.0, 3.0), v(3.0, 3.0)];
    /// let indices = [0, 1, 5, 4, /**/ 1, 2, 6, 5, /**/ 2, 3, 7, 6, /**/ 4, 5, 9, 8, /**/ 6, 7, 11, 10];
    /// let mesh = NavMesh::from_polygons(&vertices, &indices, &[4; 5], &MeshOptions::default())?;
    /// assert!(mesh.prepare_fast_lane());
    /// let (from, to) = (v(0.5, 2.5), v(2.5, 2.5));
    /// let options = PathOptions::default().with_mode(PathMode::Optimal);
    /// let mut query = Query::new(&mesh);
    /// assert!(query.fast_lane());
    /// let with = query.find_path_vec(from, to, &options)?;
    /// query.set_fast_lane(false);
    /// let without = query.find_path_vec(from, to, &options)?;
    /// assert_eq!(with.corners, [from, v(1.0, 1.0), v(2.0, 1.0), to]);
    /// assert_eq!(with.corners, without.corners);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_fast_lane(&mut self, on: bool) {
        self.fast_lane.on = on;
    }

    /// Whether this query uses the fast-lane index (see [`Query::set_fast_lane`]).
    #[must_use]
    pub fn fast_lane(&self) -> bool {
        self.fast_lane.on
    }

    /// How many corners the fast lane took from the start's side and from the goal's
    /// side for the last path query: the corners in sight within the sweeps' bounds and
    /// taut there (from the start, only those whose straight way on to the goal beats
    /// the first bound); `None` when that query was not answered from the index. For
    /// measuring the index.
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshOptions, NavMesh, Query};
    ///
    /// let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// let mesh = NavMesh::from_polygons(&[v(0.0, 0.0), v(1.0, 0.0), v(1.0, 1.0), v(0.0, 1.0)], &[0, 1, 2, 3], &[4], &MeshOptions::default())?;
    /// assert_eq!(Query::new(&mesh).fast_lane_corners_seen(), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn fast_lane_corners_seen(&self) -> Option<(usize, usize)> {
        let scratch = self.fast_lane.scratch.as_deref()?;
        self.fast_lane.answered.then_some(())?;
        Some((scratch.seen_from_start, scratch.seen_from_goal))
    }

    /// The exact mode's path from `start` to `target` (snapped, on `mesh`, this query's
    /// mesh, in different polygons) from the fast lane into `self.path.corners`, or
    /// whether the two are in straight sight of each other (nothing written then, nor
    /// when the index does not answer).
    pub(super) fn fast_lane_path(
        &mut self,
        mesh: &MeshData,
        start: &NearestPoint,
        target: &NearestPoint,
        filter: &QueryFilter,
    ) -> LaneUse {
        if !self.fast_lane.on
            || self.max_nodes != Query::DEFAULT_MAX_NODES
            || mesh.links.hop_count() != 0
            || mesh.island(start.polygon) != mesh.island(target.polygon)
            || !self.admits_every_polygon(filter)
        {
            return LaneUse::Unanswered;
        }
        // A world's snapshot (ids with tile bits) gets its index from its world
        // (`World::prepare_fast_lane`), never on a query: its geometry changes.
        let lane = if mesh.polygon_count() >= FAST_LANE_MIN_POLYGONS && mesh.local_bits == 32 {
            mesh.fast_lane
                .get_or_init(|| hub::build(mesh, Budget::Default).map(std::sync::Arc::new))
                .as_deref()
        } else {
            mesh.fast_lane.get().and_then(|l| l.as_deref())
        };
        let Some(lane) = lane else {
            return LaneUse::Unanswered;
        };
        let (searched, s_polygon, t_polygon) = if lane.on_coarse {
            let Some(coarse) = mesh.coarse() else {
                return LaneUse::Unanswered;
            };
            (
                &*coarse.mesh,
                coarse.of_original[start.polygon as usize],
                coarse.of_original[target.polygon as usize],
            )
        } else {
            (mesh, start.polygon, target.polygon)
        };
        let ground = |p: Vec3| mesh.up.ground(p).as_dvec2();
        let scratch = self.fast_lane.scratch.get_or_insert_with(Box::default);
        let answer = scratch.shortest(
            lane,
            searched,
            (s_polygon, ground(start.point)),
            (t_polygon, ground(target.point)),
            query_cone_limit(searched.polygon_count()),
            &mut self.fast_lane.corners,
        );
        match answer {
            Ok(LaneAnswer::Found(_)) => {}
            Ok(LaneAnswer::InSight) => return LaneUse::InSight,
            Ok(LaneAnswer::NoWay) | Err(_) => return LaneUse::Unanswered,
        }
        self.fast_lane.answered = true;
        let out = &mut self.path.corners;
        out.clear();
        out.push(start.point);
        out.extend(
            self.fast_lane
                .corners
                .iter()
                .map(|&v| searched.vertices[v as usize]),
        );
        out.push(target.point);
        // A corner equal to its neighbour (an end on a corner) adds nothing.
        out.dedup();
        LaneUse::Path
    }
}
