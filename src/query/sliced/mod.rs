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
//! finds no way). The exact mode's ([`crate::PathMode::Optimal`]) interval search is
//! sliced too, by its expansions (a slice may stop inside a chain of single successors,
//! which the next goes on with), and when it finds no way the default mode's search
//! that `find_path` falls back to goes on in the next slices; finished early, it gives
//! the way to the best node so far (the cheapest way into the goal found, else the way
//! to the interval that comes closest to the goal, ending at its point closest to it),
//! its corridor walked as for a whole path. With an agent radius above the
//! baked one the search is sliced on the eroded mesh (as [`Query::find_path`] searches
//! it; its corridor is given in the mesh's own polygons), and so is the search on the
//! eroded pieces that `find_path` falls back to when that corridor cannot be walked
//! (`radius.rs`); building an eroded copy the mesh has not made yet for that radius and
//! filter is part of `begin_path`.
//! A query with an end exactly on a pinched vertex (one search per pairing of fans) is
//! answered whole by `begin_path` instead (it then reports [`SliceStatus::Done`]), and
//! a frame's budget is not kept for it.
//!
//! The search holds the mesh it began on (a world snapshot stays alive until it is
//! finished or cancelled, whatever [`Query::set_mesh`] does meanwhile). Run-time polygon
//! and link flags are read as the search goes: each expansion sees the flags of its
//! moment. [`SliceProgress::flags_changed`] tells when the polygon flags changed since
//! `begin_path` (the answer may then differ from a one-shot search under either set of
//! flags; begin again to search under the new flags throughout).

mod partial;
mod radius;
mod steps;

use super::exact_steps::ExactOn;
use super::merged::CorridorPass;
use super::route::search_request;
use super::stats::SearchStats;
use super::{AdmitsAll, PathOptions, PathStatus, Query};
use crate::corridor::{CorridorStep, PathBuffer};
use crate::error::QueryError;
use crate::mesh::{NavMesh, NearestPoint};
use glam::Vec3;
use steps::target_of;

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
    /// The query's cache of whether a filter admits every polygon, for `mesh` (swapped
    /// in with it: the query's own may be of another mesh).
    admits_all: Option<AdmitsAll>,
    /// With an agent radius above the baked one: the search runs on the eroded mesh.
    radius: Option<radius::RadiusSlice>,
}

/// Where a sliced search is.
enum Stage {
    /// The corridor search goes on, in this pass.
    Searching(CorridorPass),
    /// The exact mode's search goes on, on this mesh; `runs` is the count of searches
    /// begun on its scratch when it began (another search on it changes that).
    Exact { on: ExactOn, runs: u64 },
    /// The answer is in the sliced buffers (or the query failed).
    Answered(Result<PathStatus, QueryError>),
}

impl Query {
    /// Begins a time-sliced path search from `start` to `goal` (world coordinates) with
    /// `options`: snaps both ends and checks what [`Query::find_path`] checks, then
    /// stops before the corridor search. Go on with [`Query::advance_path`], get the path
    /// with [`Query::finish_path`]; the finished path equals `find_path`'s for the same
    /// arguments (corners, details, status, cost, corridor), including the default
    /// mode's search over the merged copy and the exact mode's search. A search already
    /// in progress on this query is cancelled. Queries that need no search, and those
    /// `begin_path` answers whole (an end on a pinched vertex: see the module
    /// documentation), are [`SliceStatus::Done`] at once. With an agent radius the
    /// search is sliced on the eroded mesh, as `find_path` searches it.
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
    /// use navstar::{PathMode, PathOptions, PathStatus, Query, SliceStatus};
    ///
    /// let (from, to) = (Vec3::new(1.8, 0.0, 0.5), Vec3::new(0.5, 0.0, 1.8));
    /// // The funnel mode (the default runs the exact mode here, in fewer expansions).
    /// let funnel = PathOptions::default().with_mode(PathMode::Funnel);
    /// let mut query = Query::new(&mesh);
    /// query.set_merged_search(false);
    /// assert_eq!(query.begin_path(from, to, &funnel)?, SliceStatus::InProgress);
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
    /// assert_eq!(query.find_path_vec(from, to, &funnel)?, sliced);
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
                    Stage::Answered(_) => SliceStatus::Done,
                    _ => SliceStatus::InProgress,
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
    /// use navstar::{PathMode, PathOptions, Query, QueryError, SliceStatus};
    ///
    /// let mut query = Query::new(&mesh);
    /// assert_eq!(query.advance_path(10), Err(QueryError::NoSlicedPath));
    /// query.set_merged_search(false);
    /// let funnel = PathOptions::default().with_mode(PathMode::Funnel);
    /// query.begin_path(Vec3::new(1.8, 0.0, 0.5), Vec3::new(0.5, 0.0, 1.8), &funnel)?;
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
        let watched = state.radius.as_ref().map_or(&state.mesh, |r| &r.original);
        let flags_changed = watched.data().flags_generation() != state.generation;
        if let Stage::Exact { on, runs } = state.stage {
            if self.exact_runs(on) != runs {
                return Err(QueryError::SlicedPathInterrupted);
            }
            let used = self.advance_exact_slice(&mut state, on, max_expansions);
            self.settle_radius(&mut state);
            let status = match state.stage {
                Stage::Answered(_) => SliceStatus::Done,
                _ => SliceStatus::InProgress,
            };
            self.sliced.state = Some(state);
            return Ok(SliceProgress {
                status,
                expansions: used,
                flags_changed,
            });
        }
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
            let request = search_request(&state.start, &targets, &state.options, query.landmarks());
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
        self.settle_radius(&mut state);
        let status = match state.stage {
            Stage::Answered(_) => SliceStatus::Done,
            _ => SliceStatus::InProgress,
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
    /// polygons, with an empty corridor); in the exact
    /// mode, the way to the best node as the module documentation says. The search is
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
    /// use navstar::{PathMode, PathOptions, PathStatus, Query, QueryError};
    ///
    /// let (from, to) = (Vec3::new(1.8, 0.0, 0.5), Vec3::new(0.5, 0.0, 1.8));
    /// let mut query = Query::new(&mesh);
    /// query.set_merged_search(false);
    /// query.begin_path(from, to, &PathOptions::default().with_mode(PathMode::Funnel))?;
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
}
