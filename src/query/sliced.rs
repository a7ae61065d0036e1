//! Time-sliced path searches (Detour's `initSlicedFindPath`, `updateSlicedFindPath`,
//! `finalizeSlicedFindPath(Partial)`): [`Query::begin_path`] does what
//! [`Query::find_path`] does before its corridor search, [`Query::advance_path`] goes on
//! with that search for at most a given number of node expansions, and
//! [`Query::finish_path`] writes the path: the one-shot answer once the search has
//! ended, bit for bit (the A* state stays in the query's scratch between calls, and the
//! nodes are taken in the same order however the search is sliced), or before that the
//! path to the best node reached so far ([`PathStatus::Partial`]).
//!
//! The default mode's corridor search is sliced in all its passes (the merged copy,
//! the mesh's own polygons inside that corridor, and the whole mesh when either pass
//! finds no way). Three kinds of query are answered whole by `begin_path` instead (it
//! then reports [`SliceStatus::Done`]): the exact mode ([`crate::PathMode::Optimal`]:
//! its interval search is not sliced yet; its loop could be cut the same way between
//! open-list pops, with the node of a chain being followed kept between calls), an agent
//! radius above the baked one (the query moves onto the eroded mesh for the whole
//! query), and an end exactly on a pinched vertex (one search per pairing of fans). For
//! these a frame's budget is not kept.
//!
//! The search holds the mesh it began on (a world snapshot stays alive until it is
//! finished or cancelled, whatever [`Query::set_mesh`] does meanwhile). Run-time polygon
//! and link flags are read as the search goes: each expansion sees the flags of its
//! moment. [`SliceProgress::flags_changed`] tells when the polygon flags changed since
//! `begin_path` (the answer may then differ from a one-shot search under either set of
//! flags; begin again to search under the new flags throughout).

use super::merged::{CorridorPass, coarse_request, coarse_target, within_request};
use super::stats::SearchStats;
use super::{PathOptions, PathStatus, Query, route_target, search_request};
use crate::corridor::{CorridorStep, PathBuffer, PullRequest, pull_corridor, walked_cost};
use crate::error::{Endpoint, QueryError};
use crate::mesh::{MeshData, NavMesh, NearestPoint};
use crate::search::astar::{SearchOutcome, Target};
use glam::Vec3;

/// Whether a sliced path search has its answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SliceStatus {
    /// The search goes on: call [`Query::advance_path`] again (or take the best partial
    /// path with [`Query::finish_path`]).
    InProgress,
    /// The answer is known: [`Query::finish_path`] returns it.
    Done,
}

/// What one call of [`Query::advance_path`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct SliceProgress {
    /// Whether the search has its answer now.
    pub status: SliceStatus,
    /// The node expansions this call made (at most the number asked for): the unit of
    /// [`crate::SearchStats::expanded`], whose total over the slices equals that of the
    /// one-shot query.
    pub expansions: u32,
    /// Whether the mesh's polygon flags changed since [`Query::begin_path`] (see the
    /// module documentation of `sliced`: the search reads flags as it goes).
    pub flags_changed: bool,
}

/// The sliced path search of a [`Query`]: its state while one is in progress, and the
/// buffers its answer is written to until [`Query::finish_path`] hands it over (kept
/// between searches, so that a search allocates nothing in steady state).
#[derive(Default)]
pub(crate) struct Sliced {
    state: Option<SlicedState>,
    path: PathBuffer,
    corridor: Vec<CorridorStep>,
    cost: f32,
}

impl Sliced {
    /// The bytes of the answer's buffers (see [`Query::scratch_bytes`]).
    pub(super) fn bytes(&self) -> usize {
        self.path.corners.capacity() * std::mem::size_of::<Vec3>()
            + self.path.details.capacity() * std::mem::size_of::<crate::corridor::CornerDetail>()
            + self.corridor.capacity() * std::mem::size_of::<CorridorStep>()
    }

    /// Forgets the search in progress, if any.
    pub(super) fn cancel(&mut self) -> bool {
        self.state.take().is_some()
    }
}

/// One sliced search in progress.
struct SlicedState {
    /// The mesh it began on.
    mesh: NavMesh,
    options: PathOptions,
    start: NearestPoint,
    /// The snapped goal, and where the path may end (the goal, or on another island
    /// the nearest point of the start's).
    goal: NearestPoint,
    target: NearestPoint,
    /// The status the path has if the search reaches `target`.
    status: PathStatus,
    /// Whether the filter moved the goal (the path is partial whatever the search finds).
    moved: bool,
    stage: Stage,
    /// [`crate::search::astar::AStar::runs`] after this search's last call: another
    /// search on the scratch since then changes it.
    runs: u64,
    /// The mesh's flag generation at `begin_path`.
    generation: u64,
    /// The searches' counters, handed to [`Query::last_search_stats`] by `finish_path`.
    stats: SearchStats,
}

/// Where a sliced search is.
enum Stage {
    /// The corridor search goes on, in this pass.
    Searching(CorridorPass),
    /// The answer is in the sliced buffers (or the query failed).
    Answered(Result<PathStatus, QueryError>),
}

impl Query {
    /// Begins a time-sliced path search from `start` to `goal` (world coordinates) with
    /// `options`: snaps both ends and checks what [`Query::find_path`] checks, then
    /// stops before the corridor search. Go on with [`Query::advance_path`], get the path
    /// with [`Query::finish_path`]; the finished path equals `find_path`'s for the same
    /// arguments (corners, details, status, cost, corridor), including the default
    /// mode's search over the merged copy. A search already in progress on this query is
    /// cancelled. Queries that need no search, and those `begin_path` answers whole (the
    /// exact mode, an agent radius above the baked one, an end on a pinched vertex: see
    /// the module documentation), are [`SliceStatus::Done`] at once.
    ///
    /// The search's state lives in this query's scratch memory: any other search on this
    /// query before `finish_path` interrupts it ([`QueryError::SlicedPathInterrupted`]).
    /// It holds its own reference to the mesh (see the module documentation for flags).
    ///
    /// # Errors
    /// Those of [`Query::find_path`] that are known before the search (an invalid
    /// option or point, an end off the mesh, a goal on another island or moved by the
    /// filter without `allow_partial`); a failed `begin_path` forgets the last path, as
    /// a failed query does. The search's own [`QueryError::NoPath`] comes from
    /// `finish_path`.
    ///
    /// # Example
    /// ```
    /// # use navstar::{glam::Vec3, MeshOptions, NavMesh};
    /// # let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// # let vertices = [v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0), v(0.0, 1.0), v(1.0, 1.0), v(2.0, 1.0), v(0.0, 2.0), v(1.0, 2.0)];
    /// # let indices = [0, 1, 4, 3, /**/ 1, 2, 5, 4, /**/ 3, 4, 7, 6];
    /// # let mesh = NavMesh::from_polygons(&vertices, &indices, &[4, 4, 4], &MeshOptions::default())?;
    /// // `mesh`: an L of three unit squares (y up): 1 = [1,2]x[0,1], 0 = [0,1]x[0,1], 2 = [0,1]x[1,2].
    /// use navstar::{PathOptions, PathStatus, Query, SliceStatus};
    ///
    /// let (from, to) = (Vec3::new(1.8, 0.0, 0.5), Vec3::new(0.5, 0.0, 1.8));
    /// let mut query = Query::new(&mesh);
    /// query.set_merged_search(false);
    /// assert_eq!(query.begin_path(from, to, &PathOptions::default())?, SliceStatus::InProgress);
    /// // One expansion per call: the start square, then the middle one.
    /// let mut slices = 0;
    /// while query.advance_path(1)?.status == SliceStatus::InProgress {
    ///     slices += 1;
    /// }
    /// assert_eq!(slices, 2);
    /// let path = query.finish_path()?;
    /// assert_eq!(path.status, PathStatus::Complete);
    /// assert_eq!(path.corners, [from, Vec3::new(1.0, 0.0, 1.0), to]);
    /// // The one-shot answer, bit for bit.
    /// let sliced = path.to_owned_path();
    /// assert_eq!(query.find_path_vec(from, to, &PathOptions::default())?, sliced);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn begin_path(
        &mut self,
        start: Vec3,
        goal: Vec3,
        options: &PathOptions,
    ) -> Result<SliceStatus, QueryError> {
        self.sliced.cancel();
        let outcome = self.begin_sliced(start, goal, options);
        match self.answer(outcome) {
            Ok(state) => {
                let status = match state.stage {
                    Stage::Searching(_) => SliceStatus::InProgress,
                    Stage::Answered(_) => SliceStatus::Done,
                };
                self.sliced.state = Some(state);
                Ok(status)
            }
            Err(e) => Err(e),
        }
    }

    /// Goes on with the sliced path search begun by [`Query::begin_path`] for at most
    /// `max_expansions` node expansions (the count of [`crate::SearchStats::expanded`]:
    /// a frame's budget; the work per expansion is bounded by the polygon's corners and
    /// links, plus the measure of each way into the goal's polygon as it comes). After
    /// the search has ended it does nothing and reports [`SliceStatus::Done`] again.
    ///
    /// # Errors
    /// [`QueryError::InvalidOption`] naming `max_expansions` when it is 0;
    /// [`QueryError::NoSlicedPath`] when no search is in progress (never begun, or
    /// finished or cancelled); [`QueryError::SlicedPathInterrupted`] when another search
    /// ran on this query since the last slice (the sliced search is then lost).
    ///
    /// # Example
    /// ```
    /// # use navstar::{glam::Vec3, MeshOptions, NavMesh};
    /// # let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// # let vertices = [v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0), v(0.0, 1.0), v(1.0, 1.0), v(2.0, 1.0), v(0.0, 2.0), v(1.0, 2.0)];
    /// # let indices = [0, 1, 4, 3, /**/ 1, 2, 5, 4, /**/ 3, 4, 7, 6];
    /// # let mesh = NavMesh::from_polygons(&vertices, &indices, &[4, 4, 4], &MeshOptions::default())?;
    /// // `mesh`: an L of three unit squares (y up): 1 = [1,2]x[0,1], 0 = [0,1]x[0,1], 2 = [0,1]x[1,2].
    /// use navstar::{PathOptions, Query, QueryError, SliceStatus};
    ///
    /// let mut query = Query::new(&mesh);
    /// assert_eq!(query.advance_path(10), Err(QueryError::NoSlicedPath));
    /// query.set_merged_search(false);
    /// query.begin_path(Vec3::new(1.8, 0.0, 0.5), Vec3::new(0.5, 0.0, 1.8), &PathOptions::default())?;
    /// let progress = query.advance_path(10)?;
    /// assert_eq!((progress.status, progress.expansions), (SliceStatus::Done, 2));
    /// // Harmless once done.
    /// assert_eq!(query.advance_path(10)?.expansions, 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn advance_path(&mut self, max_expansions: u32) -> Result<SliceProgress, QueryError> {
        if max_expansions == 0 {
            return Err(QueryError::InvalidOption(
                "max_expansions must be at least 1",
            ));
        }
        let mut state = self.sliced.state.take().ok_or(QueryError::NoSlicedPath)?;
        let flags_changed = state.mesh.data().flags_generation() != state.generation;
        let Stage::Searching(mut pass) = state.stage else {
            self.sliced.state = Some(state);
            return Ok(SliceProgress {
                status: SliceStatus::Done,
                expansions: 0,
                flags_changed,
            });
        };
        if self.search.runs() != state.runs {
            return Err(QueryError::SlicedPathInterrupted);
        }
        let used = self.on_sliced(&mut state, |query, state, mesh| {
            let targets = [target_of(&state.target)];
            let request = search_request(&state.start, &targets, &state.options, query.landmarks);
            let (outcome, used) =
                query.run_corridor_search(mesh, &request, &mut pass, max_expansions);
            state.stage = match outcome {
                None => Stage::Searching(pass),
                Some(outcome) => Stage::Answered(
                    query
                        .route_end(
                            mesh,
                            &state.start,
                            &state.goal,
                            state.target,
                            state.status,
                            outcome,
                            &state.options,
                        )
                        .map(|status| {
                            if state.moved {
                                PathStatus::Partial
                            } else {
                                status
                            }
                        }),
                ),
            };
            used
        });
        let status = match state.stage {
            Stage::Searching(_) => SliceStatus::InProgress,
            Stage::Answered(_) => SliceStatus::Done,
        };
        self.sliced.state = Some(state);
        Ok(SliceProgress {
            status,
            expansions: used,
            flags_changed,
        })
    }

    /// Ends the sliced path search and returns its path, borrowed from this query like
    /// [`Query::find_path`]'s (and read back like it: [`Query::corridor`],
    /// [`Query::last_search_stats`]). Once [`Query::advance_path`] reported
    /// [`SliceStatus::Done`], it is `find_path`'s answer for the same arguments. Before
    /// that, it is the path to the best node reached so far, [`PathStatus::Partial`]:
    /// to a way into the goal's polygon when one was found (not proven the cheapest),
    /// else to the point closest to the goal of the polygon reached that comes closest
    /// (while the default mode still searches the merged copy: pulled over its
    /// polygons, with an empty corridor, as the exact mode's paths are). The search is
    /// over afterwards.
    ///
    /// # Errors
    /// [`QueryError::NoSlicedPath`], [`QueryError::SlicedPathInterrupted`] (see
    /// [`Query::advance_path`]), or the search's [`QueryError::NoPath`] when the goal is
    /// unreachable and `allow_partial` is false. A failure forgets the last path.
    ///
    /// # Example
    /// ```
    /// # use navstar::{glam::Vec3, MeshOptions, NavMesh};
    /// # let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// # let vertices = [v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0), v(0.0, 1.0), v(1.0, 1.0), v(2.0, 1.0), v(0.0, 2.0), v(1.0, 2.0)];
    /// # let indices = [0, 1, 4, 3, /**/ 1, 2, 5, 4, /**/ 3, 4, 7, 6];
    /// # let mesh = NavMesh::from_polygons(&vertices, &indices, &[4, 4, 4], &MeshOptions::default())?;
    /// // `mesh`: an L of three unit squares (y up): 1 = [1,2]x[0,1], 0 = [0,1]x[0,1], 2 = [0,1]x[1,2].
    /// use navstar::{PathOptions, PathStatus, Query, QueryError};
    ///
    /// let (from, to) = (Vec3::new(1.8, 0.0, 0.5), Vec3::new(0.5, 0.0, 1.8));
    /// let mut query = Query::new(&mesh);
    /// query.set_merged_search(false);
    /// query.begin_path(from, to, &PathOptions::default())?;
    /// query.advance_path(1)?;
    /// // Only the start square expanded: the best so far ends in the middle square,
    /// // at its point closest to the goal.
    /// let partial = query.finish_path()?;
    /// assert_eq!(partial.status, PathStatus::Partial);
    /// assert_eq!(partial.corners, [from, Vec3::new(0.5, 0.0, 1.0)]);
    /// assert_eq!(query.corridor().collect::<Vec<_>>(), [1, 0]);
    /// assert_eq!(query.finish_path().err(), Some(QueryError::NoSlicedPath));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn finish_path(&mut self) -> Result<super::Path<'_>, QueryError> {
        let outcome = self.finish_sliced();
        let status = self.answer(outcome)?;
        Ok(self.last_path(status))
    }

    /// Cancels the sliced path search in progress, if any; returns whether there was
    /// one. The last path (of the last finished query) is kept.
    ///
    /// # Example
    /// ```
    /// # use navstar::{glam::Vec3, MeshOptions, NavMesh};
    /// # let vertices = [Vec3::ZERO, Vec3::X, Vec3::new(1.0, 0.0, 1.0), Vec3::Z];
    /// # let mesh = NavMesh::from_polygons(&vertices, &[0, 1, 2, 3], &[4], &MeshOptions::default())?;
    /// use navstar::{PathOptions, Query};
    ///
    /// let mut query = Query::new(&mesh);
    /// query.begin_path(Vec3::new(0.1, 0.0, 0.1), Vec3::new(0.9, 0.0, 0.9), &PathOptions::default())?;
    /// assert!(query.path_in_progress());
    /// assert!(query.cancel_path());
    /// assert!(!query.path_in_progress() && !query.cancel_path());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn cancel_path(&mut self) -> bool {
        self.sliced.cancel()
    }

    /// Whether a sliced path search was begun and not yet finished or cancelled (it may
    /// have its answer already). See [`Query::cancel_path`] for an example.
    #[must_use]
    pub fn path_in_progress(&self) -> bool {
        self.sliced.state.is_some()
    }

    /// [`Query::begin_path`]'s work: the state of the new search.
    fn begin_sliced(
        &mut self,
        start: Vec3,
        goal: Vec3,
        options: &PathOptions,
    ) -> Result<SlicedState, QueryError> {
        self.stats = SearchStats::default();
        options.validate()?;
        let mesh = self.mesh.clone();
        let data = mesh.data();
        let generation = data.flags_generation();
        let (filter, snap_distance) = (&options.filter, options.max_snap_distance);
        let whole = |query: &mut Query| -> Result<SlicedState, QueryError> {
            let mut state = SlicedState::answered(&mesh, options, generation);
            let answer =
                query.on_sliced(&mut state, |q, _, _| q.path_between(start, goal, options));
            state.stage = Stage::Answered(Ok(answer?));
            Ok(state)
        };
        if data.erosion_for(options.agent_radius) > 0.0 || options.mode == super::PathMode::Optimal
        {
            return whole(self);
        }
        let snapped_start = self.snap(start, Endpoint::Start, filter, snap_distance)?;
        let snapped_goal = self.snap(goal, Endpoint::Goal, filter, snap_distance)?;
        let moved = self.moved_by_filter(goal, &snapped_goal, filter);
        if moved && !options.allow_partial {
            return Err(QueryError::NoPath);
        }
        let admitted = |p: u32| filter.admits(data.flags_of(p));
        let starts = data.fans_at(snapped_start.polygon, snapped_start.point, admitted);
        let goals = data.fans_at(snapped_goal.polygon, snapped_goal.point, admitted);
        if starts.as_slice().len() != 1 || goals.as_slice().len() != 1 {
            return whole(self);
        }
        let (target, status) = route_target(data, &snapped_start, &snapped_goal, options)?;
        let mut state = SlicedState {
            start: snapped_start,
            goal: snapped_goal,
            target,
            status,
            moved,
            ..SlicedState::answered(&mesh, options, generation)
        };
        self.on_sliced(&mut state, |query, state, data| {
            query.path.clear();
            query.corridor.clear();
            let status = if state.moved {
                PathStatus::Partial
            } else {
                state.status
            };
            if query.route_direct(data, &state.start, &state.target, &state.options) {
                state.stage = Stage::Answered(Ok(status));
                return;
            }
            let targets = [target_of(&state.target)];
            let request = search_request(&state.start, &targets, &state.options, query.landmarks);
            state.stage = Stage::Searching(query.start_corridor_search(data, &request));
        });
        Ok(state)
    }

    /// [`Query::finish_path`]'s work: the answer moved into the query's last path.
    fn finish_sliced(&mut self) -> Result<PathStatus, QueryError> {
        let mut state = self.sliced.state.take().ok_or(QueryError::NoSlicedPath)?;
        if let Stage::Searching(pass) = state.stage {
            if self.search.runs() != state.runs {
                return Err(QueryError::SlicedPathInterrupted);
            }
            self.on_sliced(&mut state, |query, state, mesh| {
                query.partial_path(mesh, state, pass);
            });
            state.stage = Stage::Answered(Ok(PathStatus::Partial));
        }
        // Copied, not swapped: each buffer keeps its role, so both keep the capacity
        // they grew to and steady state allocates nothing.
        let answer = &self.sliced;
        self.path.corners.clone_from(&answer.path.corners);
        self.path.details.clone_from(&answer.path.details);
        self.corridor.clone_from(&answer.corridor);
        self.cost = answer.cost;
        self.stats = state.stats;
        match state.stage {
            Stage::Answered(answer) => answer,
            Stage::Searching(_) => unreachable!("a search in progress was answered above"),
        }
    }

    /// The path to the best node reached so far by the search in `pass` (see
    /// [`Query::finish_path`]) into `self.path`, `self.corridor` and `self.cost`.
    fn partial_path(&mut self, mesh: &MeshData, state: &SlicedState, pass: CorridorPass) {
        let targets = [target_of(&state.target)];
        let request = search_request(&state.start, &targets, &state.options, self.landmarks);
        let goal = state.goal.point;
        let end = |on: &MeshData, outcome: SearchOutcome| match outcome {
            SearchOutcome::Reached { .. } => state.target.point,
            SearchOutcome::Closest(polygon) => on.closest_point_on_polygon(polygon, goal),
        };
        if pass != CorridorPass::Merged {
            let outcome = match pass {
                CorridorPass::Within => {
                    let coarse = mesh
                        .coarse()
                        .expect("the merged pass began with the merged copy");
                    let within = within_request(coarse, &self.merged_region, &request);
                    self.search.finish(mesh, &within, &mut self.corridor)
                }
                _ => self.search.finish(mesh, &request, &mut self.corridor),
            };
            self.pull_path(state.start.point, end(mesh, outcome), &state.options);
            return;
        }
        let coarse = mesh
            .coarse()
            .expect("the merged pass began with the merged copy");
        let coarse_targets = coarse_target(coarse, &request);
        let merged = coarse_request(coarse, &request, &coarse_targets);
        let outcome = self
            .search
            .finish(&coarse.mesh, &merged, &mut self.merged_corridor);
        let pull = PullRequest {
            start: state.start.point,
            target: end(&coarse.mesh, outcome),
            filter: &state.options.filter,
            split_at_area_changes: false,
            trace: false,
        };
        pull_corridor(
            &coarse.mesh,
            &self.merged_corridor,
            &pull,
            &mut self.pull,
            &mut self.path,
        );
        self.path.flag_plain_corners(mesh, state.start.polygon);
        self.cost = walked_cost(mesh, &self.path.corners, &state.options.filter);
        self.corridor.clear();
    }

    /// Runs `work` as part of the sliced search `state`: on the search's mesh (passed
    /// to it), with its counters, and with the sliced buffers as the query's last path,
    /// so that the path read back between slices stays that of the last finished query.
    fn on_sliced<T>(
        &mut self,
        state: &mut SlicedState,
        work: impl FnOnce(&mut Query, &mut SlicedState, &MeshData) -> T,
    ) -> T {
        let mesh = state.mesh.clone();
        self.swap_sliced(state);
        let answer = work(self, state, mesh.data());
        self.swap_sliced(state);
        state.runs = self.search.runs();
        answer
    }

    /// Exchanges the query's mesh, counters and last path with the sliced search's.
    fn swap_sliced(&mut self, state: &mut SlicedState) {
        std::mem::swap(&mut self.mesh, &mut state.mesh);
        std::mem::swap(&mut self.stats, &mut state.stats);
        std::mem::swap(&mut self.path, &mut self.sliced.path);
        std::mem::swap(&mut self.corridor, &mut self.sliced.corridor);
        std::mem::swap(&mut self.cost, &mut self.sliced.cost);
    }
}

impl SlicedState {
    /// A state on `mesh` with `options`, answered (with no path yet); the other
    /// fields are filled in by the caller.
    fn answered(mesh: &NavMesh, options: &PathOptions, generation: u64) -> SlicedState {
        let nowhere = NearestPoint {
            polygon: 0,
            point: Vec3::ZERO,
            distance: 0.0,
        };
        SlicedState {
            mesh: mesh.clone(),
            options: options.clone(),
            start: nowhere,
            goal: nowhere,
            target: nowhere,
            status: PathStatus::Complete,
            moved: false,
            stage: Stage::Answered(Ok(PathStatus::Complete)),
            runs: 0,
            generation,
            stats: SearchStats::default(),
        }
    }
}

/// The search target at `point`.
fn target_of(point: &NearestPoint) -> Target {
    Target {
        polygon: point.polygon,
        point: point.point,
    }
}
