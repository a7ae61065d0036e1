//! The queries a user asks: [`Query`] holds the per-thread scratch memory of both
//! searches and answers path queries from A to B (here), to the nearest of several goals
//! ([`nearest_target`]) and the polygons within a cost ([`reachable`]); snapping the
//! ends onto the mesh, answering without a search when it can ([`direct`]), choosing
//! between the searches, and writing the corners with the corridor layer. [`options`] holds what a query is asked with and [`path`] what it
//! returns. May use `search`, `corridor`, `mesh`, `filter`, `geometry`, `error`.

mod agent_spatial;
mod arc_turns;
mod clearance;
mod direct;
mod eroded_corridor;
#[cfg(test)]
mod eroded_corridor_tests;
mod exact_steps;
mod fast_lane;
mod follow;
mod landmarks;
mod merged;
mod nearby;
mod nearest_target;
mod options;
mod path;
mod reachable;
mod route;
mod sliced;
mod stats;
mod tighten;
mod walked_corridor;
mod wall;
mod wander;

use glam::Vec3;

#[cfg(feature = "capi")]
use crate::corridor::CornerDetail;
use crate::corridor::{CorridorStep, PathBuffer, PullScratch};
use crate::error::{Endpoint, QueryError};
use crate::filter::QueryFilter;
use crate::mesh::{NavMesh, NearestPoint};
use crate::search::astar::{AStar, ReachedPolygon, Target};
use crate::search::exact::ExactSearch;
use crate::search::map::NodeMap;
pub use fast_lane::FAST_LANE_MIN_POLYGONS;
pub use follow::{PathCorridor, Repair};
pub use landmarks::LANDMARK_MIN_POLYGONS;
pub use merged::MERGED_SEARCH_MIN_POLYGONS;
pub use nearest_target::NearestTarget;
pub use options::{PathMode, PathOptions};
pub use path::{OwnedPath, Path, PathStatus};
pub use sliced::{SliceProgress, SliceStatus};
pub use stats::SearchStats;
pub use wall::WallDistance;

/// Per-thread query state over one mesh.
///
/// A `Query` owns scratch memory and a reference to the mesh (so the mesh lives as long
/// as the query). Its memory follows the search nodes its searches touch, not the size of
/// the mesh: creating one allocates no search memory, and searches grow it on demand, up
/// to the node limit ([`Query::with_max_nodes`]). It is `Send` but is used by one thread
/// at a time (`&mut self`); make one per thread. After the first few queries it
/// allocates nothing.
pub struct Query {
    pub(super) mesh: NavMesh,
    /// The node limit of each search.
    pub(super) max_nodes: usize,
    pub(super) search: AStar,
    pub(super) corridor: Vec<CorridorStep>,
    /// The last path found.
    pub(super) path: PathBuffer,
    pub(super) cost: f32,
    pub(super) pull: PullScratch,
    /// The best path so far while trying the fans of a pinched start or goal, or the
    /// goals of a nearest-target query in the exact mode.
    pub(super) best_path: PathBuffer,
    pub(super) best_corridor: Vec<CorridorStep>,
    /// The goals of the current nearest-target query.
    pub(super) targets: Vec<Target>,
    /// Which goal each target stands for (nearest-target queries).
    pub(super) target_goals: Vec<usize>,
    /// The answer of the last [`Query::reachable_polygons`].
    pub(super) reached: Vec<ReachedPolygon>,
    /// Scratch memory of [`PathMode::Optimal`] on the mesh itself, made on its first use.
    pub(super) exact: Option<Box<ExactSearch>>,
    /// The same on the mesh's merged copy (used when the filter admits every polygon).
    pub(super) exact_coarse: Option<Box<ExactSearch>>,
    /// Whether the last filter of an exact query admitted every polygon.
    pub(super) admits_all: Option<AdmitsAll>,
    /// The same for the last eroded copy a radius query ran on ([`Query::on_mesh`]),
    /// and that copy (weak: it does not keep the copy alive), so that each radius
    /// query does not scan the copy's flags again.
    pub(super) copy_admits_all: Option<(std::sync::Weak<crate::mesh::MeshData>, AdmitsAll)>,
    /// Scratch of the walks near a point (distance to wall, random points around).
    pub(super) nearby: nearby::Nearby,
    /// Scratch of the queries with an agent radius (`clearance`): the goals kept and
    /// their indices, and per polygon of the eroded mesh its parent in a flood.
    pub(super) agent: clearance::AgentScratch,
    /// What the searches of the last query did.
    pub(super) stats: SearchStats,
    /// When the default mode searches the merged copy first ([`Query::set_merged_search`]).
    pub(super) merged_search: merged::MergedUse,
    /// Whether the path searches use the mesh's landmark table ([`Query::set_landmarks`]).
    pub(super) landmarks: landmarks::LandmarkUse,
    /// The corridor over the merged copy, and its polygons as a set.
    pub(super) merged_corridor: Vec<CorridorStep>,
    pub(super) merged_region: NodeMap,
    /// The time-sliced path search ([`Query::begin_path`]) and its answer's buffers.
    pub(super) sliced: sliced::Sliced,
    /// Scratch of the default mode's tightening round inner vertices.
    pub(super) tighten: tighten::Tighten,
    /// Whether the exact mode answers from the mesh's fast-lane index, and its scratch.
    pub(super) fast_lane: fast_lane::FastLaneUse,
    /// Whether the exact mode's answers on this query's mesh need only their corridor's
    /// two end polygons ([`Query::corridor_of_path`]): set while a radius query runs on
    /// an eroded joined copy, whose corridor is walked again across the original
    /// polygons afterwards (`query/eroded_corridor.rs`).
    pub(super) corridor_ends_only: bool,
}

/// Whether a filter with these flag masks admitted every polygon when the mesh's flags
/// had this generation (scanning all the flags again is needed only when either
/// changes).
#[derive(Debug, Clone, Copy)]
pub(super) struct AdmitsAll {
    generation: u64,
    include_flags: u32,
    exclude_flags: u32,
    answer: bool,
}

impl std::fmt::Debug for Query {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Query")
            .field("mesh", &self.mesh)
            .finish_non_exhaustive()
    }
}

impl Query {
    /// The default node limit ([`Query::with_max_nodes`]): none. A search then touches
    /// at most one node per corner slot and link hop of the mesh (the exact mode: a
    /// bounded multiple of that), so answers are those of an unbounded search, and memory
    /// still follows what the searches touch.
    pub const DEFAULT_MAX_NODES: usize = usize::MAX;

    /// Creates a query for `mesh`, holding its own reference to it. O(1) in the size of
    /// the mesh: search memory is allocated by the searches, as they need it.
    ///
    /// # Panics
    /// Never for want of memory today (creation allocates no search memory); kept for
    /// symmetry with [`Query::try_new`].
    ///
    /// # Example
    /// ```
    /// # use navstar::{glam::Vec3, MeshOptions, NavMesh};
    /// # let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// # let vertices = [v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0), v(3.0, 0.0), v(0.0, 1.0), v(1.0, 1.0), v(2.0, 1.0), v(3.0, 1.0)];
    /// # let indices = [0, 1, 5, 4, /**/ 1, 2, 6, 5, /**/ 2, 3, 7, 6];
    /// # let mesh = NavMesh::from_polygons(&vertices, &indices, &[4, 4, 4], &MeshOptions::default())?;
    /// // `mesh`: three unit squares in a row along x, polygons 0, 1, 2 (y up).
    /// use navstar::Query;
    ///
    /// let query = Query::new(&mesh);
    /// assert_eq!(query.mesh().polygon_count(), 3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn new(mesh: &NavMesh) -> Query {
        Query::try_new(mesh).expect("out of memory for the query's search scratch")
    }

    /// Like [`Query::new`], but a failed allocation is [`QueryError::OutOfMemory`]
    /// instead of a panic.
    ///
    /// # Errors
    /// [`QueryError::OutOfMemory`].
    pub fn try_new(mesh: &NavMesh) -> Result<Query, QueryError> {
        Ok(Query {
            mesh: mesh.clone(),
            max_nodes: Query::DEFAULT_MAX_NODES,
            search: AStar::new(Query::DEFAULT_MAX_NODES),
            corridor: Vec::new(),
            path: PathBuffer::default(),
            cost: 0.0,
            pull: PullScratch::default(),
            best_path: PathBuffer::default(),
            best_corridor: Vec::new(),
            targets: Vec::new(),
            target_goals: Vec::new(),
            reached: Vec::new(),
            exact: None,
            exact_coarse: None,
            stats: SearchStats::default(),
            merged_search: merged::MergedUse::BySize,
            landmarks: landmarks::LandmarkUse::BySize,
            merged_corridor: Vec::new(),
            merged_region: NodeMap::default(),
            admits_all: None,
            copy_admits_all: None,
            nearby: nearby::Nearby::default(),
            agent: clearance::AgentScratch::default(),
            sliced: sliced::Sliced::default(),
            tighten: tighten::Tighten::default(),
            fast_lane: fast_lane::FastLaneUse::default(),
            corridor_ends_only: false,
        })
    }

    /// Limits each search of this query to `max_nodes` nodes (Detour's `maxNodes`):
    /// the default mode's A* nodes (one per way into a polygon), the exact mode's
    /// interval nodes, the reachability flood's nodes. A search that reaches the limit
    /// stops: a path query then returns the path to the reached polygon closest to the
    /// goal with [`PathStatus::NodeLimit`] (or the path to the goal found so far, with
    /// [`PathStatus::Complete`], when one was already found); the exact mode, cut,
    /// falls back to the default mode under the same limit; [`Query::reachable_polygons`]
    /// lists the polygons found so far. A limit of 0 searches nothing. Default:
    /// [`Query::DEFAULT_MAX_NODES`] (no limit).
    #[must_use]
    pub fn with_max_nodes(mut self, max_nodes: usize) -> Query {
        self.max_nodes = max_nodes;
        self.search = AStar::new(max_nodes);
        self.exact = None;
        self.exact_coarse = None;
        self.sliced.cancel();
        self
    }

    /// Moves this query onto another mesh, keeping its scratch memory: what a thread does
    /// with each new [`crate::World::snapshot`]. O(1); the next query searches `mesh`.
    /// The corridor of the last path ([`Query::corridor`]) named polygons of the old mesh:
    /// it is forgotten.
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshOptions, NavMesh, Query, World, WorldOptions};
    ///
    /// let square = |x: f32| {
    ///     let v = [Vec3::new(x, 0.0, 0.0), Vec3::new(x + 1.0, 0.0, 0.0), Vec3::new(x + 1.0, 0.0, 1.0), Vec3::new(x, 0.0, 1.0)];
    ///     NavMesh::from_polygons(&v, &[0, 3, 2, 1], &[4], &MeshOptions::default())
    /// };
    /// let world = World::new(&WorldOptions::default())?;
    /// world.add_tile(&square(0.0)?)?;
    /// let mut query = Query::new(&world.snapshot());
    /// world.add_tile(&square(1.0)?)?;
    /// query.set_mesh(&world.snapshot());
    /// assert_eq!(query.mesh().polygon_count(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_mesh(&mut self, mesh: &NavMesh) {
        self.mesh = mesh.clone();
        self.corridor.clear();
        // Remembered per mesh: whether the last filter admitted every polygon.
        self.admits_all = None;
    }

    /// The node limit of each search (see [`Query::with_max_nodes`]).
    pub fn max_nodes(&self) -> usize {
        self.max_nodes
    }

    /// Whether the last search stopped at the node limit (see
    /// [`Query::with_max_nodes`]): after [`Query::reachable_polygons`], whether the
    /// list may be incomplete.
    pub fn hit_node_limit(&self) -> bool {
        self.search.was_cut()
    }

    /// The bytes of search scratch memory this query holds now (it grows with the
    /// largest searches made, not with the mesh).
    pub fn scratch_bytes(&self) -> usize {
        let exact = |e: &Option<Box<ExactSearch>>| e.as_ref().map_or(0, |e| e.bytes());
        self.search.bytes()
            + exact(&self.exact)
            + exact(&self.exact_coarse)
            + self.merged_region.bytes()
            + self.sliced.bytes()
            + self.fast_lane.bytes()
            + (self.corridor.capacity()
                + self.best_corridor.capacity()
                + self.merged_corridor.capacity())
                * std::mem::size_of::<CorridorStep>()
    }

    /// The mesh this query searches.
    #[must_use]
    pub fn mesh(&self) -> &NavMesh {
        &self.mesh
    }

    /// The polygon corridor of the last path query, start polygon first, each polygon
    /// the neighbour of the one before (or joined to it by an off-mesh link). Empty when
    /// that query failed (it forgets the path before it). A path found by the A*
    /// search lists the corridor it searched; a path answered without a search (start
    /// and goal in one polygon or in direct sight) or by the exact mode lists the
    /// polygons it crosses, walked over the mesh afterwards (empty only if rounding
    /// defeats that walk, which the tests never saw). When all areas cost the same, no
    /// polygon is listed twice unless an off-mesh link lies between its two visits.
    ///
    /// # Example
    /// ```
    /// # use navstar::{glam::Vec3, MeshOptions, NavMesh};
    /// # let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// # let vertices = [v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0), v(0.0, 1.0), v(1.0, 1.0), v(2.0, 1.0), v(0.0, 2.0), v(1.0, 2.0)];
    /// # let indices = [0, 1, 4, 3, /**/ 1, 2, 5, 4, /**/ 3, 4, 7, 6];
    /// # let mesh = NavMesh::from_polygons(&vertices, &indices, &[4, 4, 4], &MeshOptions::default())?;
    /// // `mesh`: an L of three unit squares (y up): 1 = [1,2]x[0,1], 0 = [0,1]x[0,1], 2 = [0,1]x[1,2].
    /// use navstar::{PathOptions, Query};
    ///
    /// let mut query = Query::new(&mesh);
    /// query.find_path(Vec3::new(1.8, 0.0, 0.5), Vec3::new(0.5, 0.0, 1.8), &PathOptions::default())?;
    /// assert_eq!(query.corridor().collect::<Vec<_>>(), [1, 0, 2]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn corridor(&self) -> impl ExactSizeIterator<Item = u32> + '_ {
        self.corridor.iter().map(|step| step.polygon)
    }

    /// The corners, corner details and cost of the last path query (empty before the
    /// first one and after a failed one). For the C ABI's read-back functions.
    #[cfg(feature = "capi")]
    pub(crate) fn last_corners(&self) -> (&[Vec3], &[CornerDetail], f32) {
        (&self.path.corners, &self.path.details, self.cost)
    }

    /// The turns round wall corners of the last path query (see [`Path::arcs`]). For the
    /// C ABI's read-back functions.
    #[cfg(feature = "capi")]
    pub(crate) fn last_arcs(&self) -> &[crate::PathArc] {
        &self.path.arcs
    }

    /// The last path found, borrowed from this query.
    pub(super) fn last_path(&self, status: PathStatus) -> Path<'_> {
        Path {
            corners: &self.path.corners,
            details: &self.path.details,
            arcs: &self.path.arcs,
            status,
            cost: self.cost,
        }
    }

    /// The answer of a path query: on success the path it left in this query; on
    /// failure the error, with the path before it forgotten, so that no read-back
    /// ([`Query::corridor`], the C ABI's path info) shows a path the query did not find.
    pub(super) fn answer<T>(&mut self, outcome: Result<T, QueryError>) -> Result<T, QueryError> {
        if outcome.is_err() {
            self.path.clear();
            self.corridor.clear();
            self.cost = 0.0;
        }
        outcome
    }

    /// Finds a path from `start` to `goal` (world coordinates).
    ///
    /// Both points are first moved to the nearest point of a polygon the filter admits
    /// (3D distance), within `options.max_snap_distance`. A goal that the filter moves
    /// (a polygon it refuses is nearer to the goal than any it admits: the goal lies in,
    /// above or below a refused polygon) cannot be reached: the path to its snapped
    /// point is [`PathStatus::Partial`], or [`QueryError::NoPath`] when partial paths are
    /// not allowed. A start is moved the same way without that effect. The corridor is
    /// found by the
    /// chosen strategy (A* by default) over the polygons and off-mesh links the filter
    /// admits, at the filter's area costs, and pulled tight with the funnel algorithm in
    /// the ground plane; corners are mesh vertices with their heights. Start and goal in
    /// one polygon, or in direct sight of each other over polygons of the cheapest area,
    /// give exactly two corners, unless an off-mesh link offers a cheaper way.
    ///
    /// Polygons that touch only at a corner are not neighbours, but a point exactly on
    /// such a pinched vertex lies in all of them: the path may start (or end) on either
    /// side.
    ///
    /// # Errors
    /// [`QueryError::NonFinitePoint`], [`QueryError::InvalidOption`],
    /// [`QueryError::InvalidAreaCost`], [`QueryError::NotOnMesh`], or
    /// [`QueryError::NoPath`] when the goal is unreachable (or moved by the filter) and
    /// `options.allow_partial` is false. A failed query forgets the path before it.
    ///
    /// # Example
    /// ```
    /// # use navstar::{glam::Vec3, MeshOptions, NavMesh};
    /// # let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// # let vertices = [v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0), v(0.0, 1.0), v(1.0, 1.0), v(2.0, 1.0), v(0.0, 2.0), v(1.0, 2.0)];
    /// # let indices = [0, 1, 4, 3, /**/ 1, 2, 5, 4, /**/ 3, 4, 7, 6];
    /// # let mesh = NavMesh::from_polygons(&vertices, &indices, &[4, 4, 4], &MeshOptions::default())?;
    /// // `mesh`: an L of three unit squares (y up): 1 = [1,2]x[0,1], 0 = [0,1]x[0,1], 2 = [0,1]x[1,2].
    /// use navstar::{CornerFlags, PathOptions, PathStatus, Query};
    ///
    /// let mut query = Query::new(&mesh);
    /// let path = query.find_path(Vec3::new(1.8, 0.0, 0.5), Vec3::new(0.5, 0.0, 1.8), &PathOptions::default())?;
    /// assert_eq!(path.status, PathStatus::Complete);
    /// // Round the inner corner of the L.
    /// assert_eq!(path.corners, [Vec3::new(1.8, 0.0, 0.5), Vec3::new(1.0, 0.0, 1.0), Vec3::new(0.5, 0.0, 1.8)]);
    /// assert!(path.details[0].flags.contains(CornerFlags::START));
    /// assert!((path.length() - path.cost).abs() < 1e-6);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "find_straight_path")]
    #[doc(alias = "calculate_path")]
    pub fn find_path(
        &mut self,
        start: Vec3,
        goal: Vec3,
        options: &PathOptions,
    ) -> Result<Path<'_>, QueryError> {
        let outcome = self.path_between(start, goal, options);
        let status = self.answer(outcome)?;
        Ok(self.last_path(status))
    }

    /// [`Query::find_path`] into `self.path` and `self.corridor`; returns the status.
    fn path_between(
        &mut self,
        start: Vec3,
        goal: Vec3,
        options: &PathOptions,
    ) -> Result<PathStatus, QueryError> {
        self.stats = SearchStats::default();
        self.fast_lane.answered = false;
        self.path.arcs.clear();
        options.validate()?;
        let erosion = self.mesh.data().erosion_for(options.agent_radius);
        if erosion > 0.0 {
            return self.path_with_radius(start, goal, options, erosion);
        }
        let (filter, snap_distance) = (&options.filter, options.max_snap_distance);
        let start = self.snap(start, Endpoint::Start, filter, snap_distance)?;
        let asked = goal;
        let goal = self.snap(goal, Endpoint::Goal, filter, snap_distance)?;
        let moved = self.moved_by_filter(asked, &goal, &options.filter);
        if moved && !options.allow_partial {
            return Err(QueryError::NoPath);
        }
        let handle = self.mesh.clone();
        let mesh = handle.data();
        let admitted = |p: u32| options.filter.admits(mesh.flags_of(p));
        let starts = mesh.fans_at(start.polygon, start.point, admitted);
        let goals = mesh.fans_at(goal.polygon, goal.point, admitted);
        let status = if starts.as_slice().len() == 1 && goals.as_slice().len() == 1 {
            self.route(&start, &goal, options)?
        } else {
            self.route_best(&start, &starts, &goal, &goals, options)?
        };
        Ok(if moved { PathStatus::Partial } else { status })
    }

    /// Whether the filter moved the goal `asked` (snapped to `snapped`) away from the
    /// mesh's nearest point to it: a polygon the filter refuses lies nearer than any it
    /// admits (the goal is inside a refused polygon, or above or below one). An agent
    /// cannot get where it asked to go, so a path there is partial.
    pub(super) fn moved_by_filter(
        &mut self,
        asked: Vec3,
        snapped: &NearestPoint,
        filter: &QueryFilter,
    ) -> bool {
        let tolerance = asked.abs().max_element().max(1.0) * f32::EPSILON * 8.0;
        if snapped.distance <= tolerance || self.admits_every_polygon(filter) {
            return false;
        }
        let mesh = self.mesh.data();
        mesh.nearest_point(asked, snapped.distance - tolerance, |_| true)
            .is_some()
    }

    /// Whether `filter` admits every polygon of the mesh, remembered until the flags or
    /// the filter's masks change.
    fn admits_every_polygon(&mut self, filter: &QueryFilter) -> bool {
        let mesh = self.mesh.data();
        let generation = mesh.flags_generation();
        match self.admits_all {
            Some(known)
                if known.generation == generation
                    && known.include_flags == filter.include_flags
                    && known.exclude_flags == filter.exclude_flags =>
            {
                known.answer
            }
            _ => {
                let answer = mesh.admits_all(|flags| filter.admits(flags));
                self.admits_all = Some(AdmitsAll {
                    generation,
                    include_flags: filter.include_flags,
                    exclude_flags: filter.exclude_flags,
                    answer,
                });
                answer
            }
        }
    }

    /// Like [`Query::find_path`], but the path owns its corners and details
    /// ([`Path::to_owned_path`]): it outlives the next query.
    ///
    /// # Errors
    /// As [`Query::find_path`].
    ///
    /// # Example
    /// ```
    /// # use navstar::{glam::Vec3, MeshOptions, NavMesh};
    /// # let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// # let vertices = [v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0), v(0.0, 1.0), v(1.0, 1.0), v(2.0, 1.0), v(0.0, 2.0), v(1.0, 2.0)];
    /// # let indices = [0, 1, 4, 3, /**/ 1, 2, 5, 4, /**/ 3, 4, 7, 6];
    /// # let mesh = NavMesh::from_polygons(&vertices, &indices, &[4, 4, 4], &MeshOptions::default())?;
    /// // `mesh`: an L of three unit squares (y up): 1 = [1,2]x[0,1], 0 = [0,1]x[0,1], 2 = [0,1]x[1,2].
    /// use navstar::{PathOptions, Query};
    ///
    /// let mut query = Query::new(&mesh);
    /// let first = query.find_path_vec(Vec3::new(1.8, 0.0, 0.5), Vec3::new(0.5, 0.0, 1.8), &PathOptions::default())?;
    /// let second = query.find_path_vec(Vec3::new(0.5, 0.0, 0.5), Vec3::new(1.5, 0.0, 0.5), &PathOptions::default())?;
    /// // The first path is still there after the second query.
    /// assert_eq!((first.corners.len(), second.corners.len()), (3, 2));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn find_path_vec(
        &mut self,
        start: Vec3,
        goal: Vec3,
        options: &PathOptions,
    ) -> Result<OwnedPath, QueryError> {
        self.find_path(start, goal, options)
            .map(|path| path.to_owned_path())
    }

    /// Moves `point` to the nearest point of a polygon `filter` admits, within
    /// `max_distance`.
    pub(super) fn snap(
        &self,
        point: Vec3,
        endpoint: Endpoint,
        filter: &QueryFilter,
        max_distance: f32,
    ) -> Result<NearestPoint, QueryError> {
        if !point.is_finite() {
            return Err(QueryError::NonFinitePoint(endpoint));
        }
        let mesh = self.mesh.data();
        let admitted = |p: u32| filter.admits(mesh.flags_of(p));
        mesh.nearest_point(point, max_distance, admitted)
            .ok_or_else(|| QueryError::NotOnMesh {
                endpoint,
                distance: mesh
                    .nearest_point(point, f32::INFINITY, admitted)
                    .map_or(f32::INFINITY, |n| n.distance),
                max_distance,
            })
    }
}
