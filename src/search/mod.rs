//! Path queries: [`Query`] holds the per-thread scratch memory and runs searches on a
//! shared [`NavMesh`].

mod astar;
mod wedge;

use glam::Vec3;

use crate::error::{Endpoint, QueryError};
use crate::filter::QueryFilter;
use crate::mesh::{Fans, NavMesh, NearestPoint, WalkEnd};
use crate::path::funnel::{Portal, string_pull};
use crate::path::optimal::OptimalSearch;
use astar::{AStar, CorridorStep, SearchOutcome, SearchRequest, corridor_portals};

/// How the polygon corridor is searched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum SearchStrategy {
    /// A* with the straight-line heuristic scaled by
    /// [`PathOptions::heuristic_weight`] (1 = classic A*).
    #[default]
    AStar,
}

/// What kind of path a query returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum PathMode {
    /// A* over the polygons, then the funnel algorithm along the corridor: fast, and
    /// usually but not always the shortest path (A* may pick a corridor whose pulled
    /// path is longer than another's).
    #[default]
    Funnel,
    /// The exact shortest path in the ground plane among all paths on the mesh: an
    /// any-angle search over intervals of polygon edges (after Polyanya, Cui, Harabor and
    /// Grastien 2017). Lengths are plain Euclidean ground-plane lengths: the mesh has no
    /// area costs, and no off-mesh links, that this mode could take into account. Walls
    /// are edges without a neighbour; polygons touching only at a vertex are not
    /// connected. Corners are mesh vertices with their heights. `strategy` and
    /// `heuristic_weight` do not apply; [`Query::corridor`] is left empty.
    Optimal,
}

/// Options of one path query. `PathOptions::default()` gives A* with weight 1,
/// unlimited snapping and partial paths allowed.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct PathOptions {
    /// The corridor search.
    pub strategy: SearchStrategy,
    /// Multiplies the A* heuristic; must be finite and >= 0. Values above 1 search fewer
    /// polygons and may return longer corridors.
    pub heuristic_weight: f32,
    /// How far (3D distance, world units) the start and goal may be from the mesh before
    /// the query fails with [`QueryError::NotOnMesh`]. Must be >= 0; infinity (the
    /// default) snaps from any distance.
    pub max_snap_distance: f32,
    /// When the goal is unreachable, return a path to the reachable point closest to it
    /// ([`PathStatus::Partial`]) instead of failing with [`QueryError::NoPath`].
    pub allow_partial: bool,
    /// Approximate ([`PathMode::Funnel`], the default) or exact
    /// ([`PathMode::Optimal`]) shortest paths.
    pub mode: PathMode,
    /// Which polygons and links may be used, and what each area costs.
    pub filter: QueryFilter,
}

impl Default for PathOptions {
    fn default() -> Self {
        PathOptions {
            strategy: SearchStrategy::AStar,
            heuristic_weight: 1.0,
            max_snap_distance: f32::INFINITY,
            allow_partial: true,
            mode: PathMode::Funnel,
            filter: QueryFilter::default(),
        }
    }
}

impl PathOptions {
    fn validate(&self) -> Result<(), QueryError> {
        if !(self.heuristic_weight.is_finite() && self.heuristic_weight >= 0.0) {
            return Err(QueryError::InvalidOption(
                "heuristic_weight must be finite and >= 0",
            ));
        }
        if self.max_snap_distance.is_nan() || self.max_snap_distance < 0.0 {
            return Err(QueryError::InvalidOption(
                "max_snap_distance must be >= 0 (infinity allowed)",
            ));
        }
        self.filter.validate()
    }
}

/// Whether a path reaches the goal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathStatus {
    /// The path ends at the (snapped) goal.
    Complete,
    /// The goal is unreachable; the path ends at the reachable point closest to it.
    Partial,
}

/// A path found by [`Query::find_path`]; borrows the query's memory.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Path<'a> {
    /// The corners, in world coordinates: first the snapped start, last the snapped goal
    /// (or, for a partial path, the reachable point closest to the goal). Always at least
    /// two, equal when the start is the goal.
    pub corners: &'a [Vec3],
    /// Whether the goal was reached.
    pub status: PathStatus,
}

impl Path<'_> {
    /// Total 3D length of the path, in world units.
    pub fn length(&self) -> f32 {
        self.corners.windows(2).map(|w| w[0].distance(w[1])).sum()
    }
}

/// Per-thread query state over one mesh.
///
/// A `Query` owns scratch memory sized to its mesh and a reference to the mesh (so the
/// mesh lives as long as the query). It is `Send` but is used by one thread at a time
/// (`&mut self`); make one per thread. After the first few queries it allocates nothing.
pub struct Query {
    mesh: NavMesh,
    search: AStar,
    corridor: Vec<CorridorStep>,
    portals: Vec<Portal>,
    corners: Vec<Vec3>,
    /// The best path so far while trying the fans of a pinched start or goal.
    best_corners: Vec<Vec3>,
    best_corridor: Vec<CorridorStep>,
    /// Scratch memory of [`PathMode::Optimal`], made on its first use.
    optimal: Option<Box<OptimalSearch>>,
}

impl std::fmt::Debug for Query {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Query")
            .field("mesh", &self.mesh)
            .finish_non_exhaustive()
    }
}

impl Query {
    /// Creates a query for `mesh`, holding its own reference to it. Its scratch memory
    /// is about 72 bytes per polygon corner of the mesh.
    ///
    /// # Panics
    /// When that memory cannot be allocated; [`Query::try_new`] returns an error instead.
    pub fn new(mesh: &NavMesh) -> Query {
        Query::try_new(mesh).expect("out of memory for the query's search scratch")
    }

    /// Like [`Query::new`], but a failed allocation of the scratch memory is
    /// [`QueryError::OutOfMemory`] instead of a panic.
    ///
    /// # Errors
    /// [`QueryError::OutOfMemory`].
    pub fn try_new(mesh: &NavMesh) -> Result<Query, QueryError> {
        let search = AStar::try_new(mesh.data().corners.len()).ok_or(QueryError::OutOfMemory)?;
        Ok(Query {
            mesh: mesh.clone(),
            search,
            corridor: Vec::new(),
            portals: Vec::new(),
            corners: Vec::new(),
            best_corners: Vec::new(),
            best_corridor: Vec::new(),
            optimal: None,
        })
    }

    /// The mesh this query searches.
    pub fn mesh(&self) -> &NavMesh {
        &self.mesh
    }

    /// The polygon corridor of the last successful [`Query::find_path`], start polygon
    /// first. Empty when that path was answered without a search (start and goal in one
    /// polygon or in direct sight).
    pub fn corridor(&self) -> impl ExactSizeIterator<Item = u32> + '_ {
        self.corridor.iter().map(|step| step.polygon)
    }

    /// Finds a path from `start` to `goal` (world coordinates).
    ///
    /// Both points are first moved to the nearest point of the mesh (3D distance), within
    /// `options.max_snap_distance`. The corridor is found by A* over the polygons and
    /// pulled tight with the funnel algorithm in the ground plane; corners are mesh
    /// vertices with their heights. Start and goal in one polygon, or in direct sight of
    /// each other, give exactly two corners.
    ///
    /// Polygons that touch only at a corner are not neighbours, but a point exactly on
    /// such a pinched vertex lies in all of them: the path may start (or end) on either
    /// side.
    ///
    /// # Errors
    /// [`QueryError::NonFinitePoint`], [`QueryError::InvalidOption`],
    /// [`QueryError::NotOnMesh`], or [`QueryError::NoPath`] when the goal is unreachable
    /// and `options.allow_partial` is false.
    pub fn find_path(
        &mut self,
        start: Vec3,
        goal: Vec3,
        options: &PathOptions,
    ) -> Result<Path<'_>, QueryError> {
        options.validate()?;
        let start = self.snap(start, Endpoint::Start, options)?;
        let goal = self.snap(goal, Endpoint::Goal, options)?;
        let starts = self.mesh.data().fans_at(start.polygon, start.point);
        let goals = self.mesh.data().fans_at(goal.polygon, goal.point);
        let status = if starts.as_slice().len() == 1 && goals.as_slice().len() == 1 {
            self.route(&start, &goal, options)?
        } else {
            self.route_best(&start, &starts, &goal, &goals, options)?
        };
        Ok(Path {
            corners: &self.corners,
            status,
        })
    }

    /// Finds the path between two snapped points into `self.corners` and
    /// `self.corridor`.
    fn route(
        &mut self,
        start: &NearestPoint,
        goal: &NearestPoint,
        options: &PathOptions,
    ) -> Result<PathStatus, QueryError> {
        let (start, goal) = (*start, *goal);
        let mesh = self.mesh.data();
        let mut status = PathStatus::Complete;
        let mut target = goal;
        if mesh.island[start.polygon as usize] != mesh.island[goal.polygon as usize] {
            if !options.allow_partial {
                return Err(QueryError::NoPath);
            }
            let island = mesh.island[start.polygon as usize];
            target = mesh
                .nearest_point(goal.point, f32::INFINITY, |p| {
                    mesh.island[p as usize] == island && options.filter.admits(mesh.flags_of(p))
                })
                .expect("the start polygon's island is not empty");
            status = PathStatus::Partial;
        }
        self.corners.clear();
        self.corridor.clear();
        if self.in_direct_sight(&start, &target, &options.filter) {
            self.corners.extend([start.point, target.point]);
        } else if options.mode == PathMode::Optimal
            && self
                .optimal
                .get_or_insert_with(|| Box::new(OptimalSearch::new(mesh)))
                .find(mesh, &start, &target, &mut self.corners)
        {
            // The exact path is in `self.corners`; the corridor stays empty.
        } else {
            let request = SearchRequest {
                start_polygon: start.polygon,
                start: start.point,
                target_polygon: target.polygon,
                target: target.point,
                heuristic_weight: options.heuristic_weight,
                filter: &options.filter,
            };
            let outcome = self.search.search(mesh, &request, &mut self.corridor);
            if let SearchOutcome::Closest(end) = outcome {
                // Unreachable although on the same island: cannot happen with the static
                // mesh, but handled so that future filters degrade gracefully.
                if !options.allow_partial {
                    return Err(QueryError::NoPath);
                }
                target = NearestPoint {
                    polygon: end,
                    point: mesh.closest_point_on_polygon(end, goal.point),
                    distance: 0.0,
                };
                status = PathStatus::Partial;
            }
            self.pull_string(start.point, target.point);
        }
        Ok(status)
    }

    /// A point exactly on a vertex where the mesh is pinched (two squares touching at a
    /// corner) lies in every fan of polygons round it, and the snap picked one of them
    /// at random. Routes every pairing of the start's and the goal's fans (on one island
    /// when some pairing is) and keeps the best: complete before partial, then the
    /// partial end nearest the goal, then the shortest.
    fn route_best(
        &mut self,
        start: &NearestPoint,
        starts: &Fans,
        goal: &NearestPoint,
        goals: &Fans,
        options: &PathOptions,
    ) -> Result<PathStatus, QueryError> {
        let mesh = self.mesh.clone();
        let island = |p: u32| mesh.data().island[p as usize];
        let connected = starts
            .as_slice()
            .iter()
            .any(|&s| goals.as_slice().iter().any(|&g| island(s) == island(g)));
        let mut best: Option<(PathStatus, (bool, f32, f32))> = None;
        let mut failure = QueryError::NoPath;
        for &s in starts.as_slice() {
            for &g in goals.as_slice() {
                if connected && island(s) != island(g) {
                    continue;
                }
                let from = NearestPoint {
                    polygon: s,
                    ..*start
                };
                let to = NearestPoint {
                    polygon: g,
                    ..*goal
                };
                let status = match self.route(&from, &to, options) {
                    Ok(status) => status,
                    Err(e) => {
                        failure = e;
                        continue;
                    }
                };
                let end = self.corners[self.corners.len() - 1];
                let partial = status == PathStatus::Partial;
                let rank = (
                    partial,
                    if partial {
                        end.distance(goal.point)
                    } else {
                        0.0
                    },
                    Path {
                        corners: &self.corners,
                        status,
                    }
                    .length(),
                );
                if best.is_none_or(|(_, b)| rank < b) {
                    best = Some((status, rank));
                    std::mem::swap(&mut self.corners, &mut self.best_corners);
                    std::mem::swap(&mut self.corridor, &mut self.best_corridor);
                }
            }
        }
        let (status, _) = best.ok_or(failure)?;
        std::mem::swap(&mut self.corners, &mut self.best_corners);
        std::mem::swap(&mut self.corridor, &mut self.best_corridor);
        Ok(status)
    }

    /// Like [`Query::find_path`] but copies the corners into a new `Vec`.
    ///
    /// # Errors
    /// As [`Query::find_path`].
    pub fn find_path_vec(
        &mut self,
        start: Vec3,
        goal: Vec3,
        options: &PathOptions,
    ) -> Result<(Vec<Vec3>, PathStatus), QueryError> {
        self.find_path(start, goal, options)
            .map(|p| (p.corners.to_vec(), p.status))
    }

    /// Moves `point` to the nearest point of a polygon the filter admits.
    fn snap(
        &self,
        point: Vec3,
        endpoint: Endpoint,
        options: &PathOptions,
    ) -> Result<NearestPoint, QueryError> {
        if !point.is_finite() {
            return Err(QueryError::NonFinitePoint(endpoint));
        }
        let mesh = self.mesh.data();
        let admitted = |p: u32| options.filter.admits(mesh.flags_of(p));
        let max_distance = options.max_snap_distance;
        mesh.nearest_point(point, max_distance, admitted)
            .ok_or_else(|| QueryError::NotOnMesh {
                endpoint,
                distance: mesh
                    .nearest_point(point, f32::INFINITY, admitted)
                    .map_or(f32::INFINITY, |n| n.distance),
                max_distance,
            })
    }

    fn in_direct_sight(
        &self,
        start: &NearestPoint,
        target: &NearestPoint,
        filter: &QueryFilter,
    ) -> bool {
        if start.polygon == target.polygon {
            return true;
        }
        let mesh = self.mesh.data();
        let up = mesh.up;
        match mesh.walk_straight(
            start.polygon,
            up.ground(start.point),
            up.ground(target.point),
            |p| filter.admits(mesh.flags_of(p)),
        ) {
            WalkEnd::Reached(polygon) if polygon == target.polygon => true,
            // A target on a shared edge or vertex belongs to several polygons, and the
            // walk may end in another one than the snap chose. It counts if it holds the
            // target point itself (in 3D: a polygon of another storey above or below
            // the target does not).
            WalkEnd::Reached(polygon) => {
                let scale = target.point.abs().max_element().max(1.0);
                let tolerance = scale * f32::EPSILON * 8.0;
                mesh.closest_point_on_polygon(polygon, target.point)
                    .distance_squared(target.point)
                    <= tolerance * tolerance
            }
            WalkEnd::Blocked { .. } => false,
        }
    }

    /// Builds the portal list of the current corridor and runs the funnel over it.
    fn pull_string(&mut self, start: Vec3, target: Vec3) {
        corridor_portals(
            self.mesh.data(),
            &self.corridor,
            start,
            target,
            &mut self.portals,
        );
        string_pull(&self.portals, &mut self.corners);
    }
}
