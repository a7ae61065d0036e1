//! The default mode's search over the mesh's merged copy: A* first over the merged
//! polygons (fewer, larger: fewer nodes to expand), then again over the mesh's own
//! polygons, kept to those inside the merged corridor. The second pass gives the
//! corridor, corners and details in the mesh's own polygon ids, as a search of the
//! whole mesh would; it expands only the polygons of a narrow region.
//!
//! The merged copy is the one the exact mode searches (`mesh/coarse.rs`, built once
//! per mesh or composed per world snapshot from its tiles' copies). It has no flags,
//! areas or off-mesh links of its own, so it is used only when it cannot change what
//! is allowed or what things cost: the filter admits every polygon (checked against the
//! flags' generation, so run-time flag changes are seen), every area costs the same,
//! the mesh has no off-mesh links, and the search is plain A* towards one target; by
//! default also only on meshes of at least [`crate::MERGED_SEARCH_MIN_POLYGONS`]
//! polygons, where the two passes cost less than one over the whole mesh. In
//! every other case, or when either pass finds no way, the whole mesh is searched as
//! before, so answers never depend on the copy for their validity.

use super::Query;
use crate::mesh::{CoarseMesh, MeshData};
use crate::search::astar::{SearchOutcome, SearchRequest, SearchStrategy, Target, Within};
use crate::search::map::{NodeMap, Slot};

/// The fewest polygons a mesh must have for the default mode to search its merged
/// copy first, unless [`Query::set_merged_search`] says otherwise.
///
/// On smaller meshes the two passes (the merged copy, then the mesh inside its
/// corridor) cost more than one pass over the whole mesh: the first pass saves few
/// expansions there, and the second one repeats most of them (BENCHMARKS.md,
/// "session 15"). The value was chosen from those measurements.
///
/// # Example
/// ```
/// assert_eq!(navstar::MERGED_SEARCH_MIN_POLYGONS, 1000);
/// ```
pub const MERGED_SEARCH_MIN_POLYGONS: u32 = 1000;

impl Query {
    /// Whether path queries in the default mode may search the mesh's merged copy first
    /// (see [`Query::set_merged_search`]): true by default (then on meshes of at least
    /// [`crate::MERGED_SEARCH_MIN_POLYGONS`] polygons) and after
    /// `set_merged_search(true)` (then on every mesh); false after
    /// `set_merged_search(false)`.
    ///
    /// # Example
    /// ```
    /// # use navstar::{glam::Vec3, MeshOptions, NavMesh};
    /// # let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// # let vertices = [v(0.0, 0.0), v(1.0, 0.0), v(1.0, 1.0), v(0.0, 1.0)];
    /// # let mesh = NavMesh::from_polygons(&vertices, &[0, 1, 2, 0, 2, 3], &[3, 3], &MeshOptions::default())?;
    /// use navstar::Query;
    ///
    /// let mut query = Query::new(&mesh);
    /// assert!(query.merged_search());
    /// query.set_merged_search(false);
    /// assert!(!query.merged_search());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn merged_search(&self) -> bool {
        self.merged_search != MergedUse::Never
    }

    /// Turns the default mode's search over the merged copy on (for meshes of any size)
    /// or off for this query. Without a call, it is used on meshes of at least
    /// [`crate::MERGED_SEARCH_MIN_POLYGONS`] polygons only ([`Query::set_merged_search_by_size`]
    /// returns to that).
    ///
    /// When used, a default-mode path query whose filter admits every polygon, with every
    /// area at the same cost, on a mesh without off-mesh links, first finds a corridor
    /// over the mesh's merged copy (neighbouring polygons joined while convex), then
    /// searches the mesh's own polygons inside that corridor only. Paths may differ
    /// slightly from those of a search over the whole mesh (both are approximations of
    /// the shortest path; the exact mode is unaffected); corridors and details name
    /// the mesh's own polygons either way. Off, every query searches the whole mesh.
    /// The merged copy is built on first use (shared by all queries of the mesh).
    ///
    /// # Example
    /// ```
    /// # use navstar::{glam::Vec3, MeshOptions, NavMesh};
    /// # let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// # let vertices = [v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0), v(0.0, 1.0), v(1.0, 1.0), v(2.0, 1.0), v(0.0, 2.0), v(1.0, 2.0)];
    /// # let indices = [0, 1, 4, 3, /**/ 1, 2, 5, 4, /**/ 3, 4, 7, 6];
    /// # let mesh = NavMesh::from_polygons(&vertices, &indices, &[4, 4, 4], &MeshOptions::default())?;
    /// // `mesh`: an L of three unit squares (y up): 1 = [1,2]x[0,1], 0 = [0,1]x[0,1], 2 = [0,1]x[1,2].
    /// use navstar::{PathMode, PathOptions, Query};
    ///
    /// let (from, to) = (Vec3::new(1.8, 0.0, 0.5), Vec3::new(0.5, 0.0, 1.8));
    /// let funnel = PathOptions::default().with_mode(PathMode::Funnel);
    /// let mut query = Query::new(&mesh);
    /// // Three polygons: below the size threshold, the whole mesh is searched (one pass).
    /// let whole = query.find_path_vec(from, to, &funnel)?;
    /// assert_eq!(query.last_search_stats().searches, 1);
    /// // Forced on: the merged copy, then the squares inside its corridor.
    /// query.set_merged_search(true);
    /// let merged = query.find_path_vec(from, to, &funnel)?;
    /// assert_eq!(query.last_search_stats().searches, 2);
    /// // The same path round the inner corner, and the corridor in the mesh's own ids.
    /// assert_eq!(merged.corners, whole.corners);
    /// assert_eq!(query.corridor().collect::<Vec<_>>(), [1, 0, 2]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_merged_search(&mut self, on: bool) {
        self.merged_search = if on {
            MergedUse::Always
        } else {
            MergedUse::Never
        };
    }

    /// Back to the default use of the merged copy: on meshes of at least
    /// [`crate::MERGED_SEARCH_MIN_POLYGONS`] polygons (see [`Query::set_merged_search`]).
    ///
    /// # Example
    /// ```
    /// # use navstar::{glam::Vec3, MeshOptions, NavMesh};
    /// # let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// # let vertices = [v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0), v(0.0, 1.0), v(1.0, 1.0), v(2.0, 1.0), v(0.0, 2.0), v(1.0, 2.0)];
    /// # let indices = [0, 1, 4, 3, /**/ 1, 2, 5, 4, /**/ 3, 4, 7, 6];
    /// # let mesh = NavMesh::from_polygons(&vertices, &indices, &[4, 4, 4], &MeshOptions::default())?;
    /// use navstar::{PathOptions, Query};
    ///
    /// let (from, to) = (Vec3::new(1.8, 0.0, 0.5), Vec3::new(0.5, 0.0, 1.8));
    /// let mut query = Query::new(&mesh);
    /// query.set_merged_search(true);
    /// query.set_merged_search_by_size();
    /// assert!(query.merged_search());
    /// query.find_path(from, to, &PathOptions::default())?;
    /// // Three polygons are too few for the merged copy.
    /// assert_eq!(query.last_search_stats().searches, 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_merged_search_by_size(&mut self) {
        self.merged_search = MergedUse::BySize;
    }

    /// The corridor search of a default-mode path query into `self.corridor`: over the
    /// merged copy when it may be used (see the module documentation), else over the
    /// whole mesh. [`Query::start_corridor_search`], then
    /// [`Query::run_corridor_search`] until it ends.
    pub(super) fn search_corridor(
        &mut self,
        mesh: &MeshData,
        request: &SearchRequest<'_>,
    ) -> SearchOutcome {
        let mut pass = self.start_corridor_search(mesh, request);
        loop {
            if let (Some(outcome), _) = self.run_corridor_search(mesh, request, &mut pass, u32::MAX)
            {
                return outcome;
            }
        }
    }

    /// Begins the corridor search of `request` (see [`Query::search_corridor`]): the
    /// search over the merged copy when it may be used, else over the whole mesh.
    pub(super) fn start_corridor_search(
        &mut self,
        mesh: &MeshData,
        request: &SearchRequest<'_>,
    ) -> CorridorPass {
        match self.merged_copy(mesh, request) {
            Some(coarse) => {
                let targets = coarse_target(coarse, request);
                self.search
                    .start(&coarse.mesh, &coarse_request(coarse, request, &targets));
                CorridorPass::Merged
            }
            None => {
                self.search.start(mesh, request);
                CorridorPass::Whole
            }
        }
    }

    /// Goes on with the corridor search begun by [`Query::start_corridor_search`] for
    /// at most `max_expansions` expansions, over as many passes as it takes; the same
    /// `mesh` and `request` must be passed to every call. Returns the outcome once the
    /// search has ended (its corridor in `self.corridor`), and the expansions this call
    /// used.
    pub(super) fn run_corridor_search(
        &mut self,
        mesh: &MeshData,
        request: &SearchRequest<'_>,
        pass: &mut CorridorPass,
        max_expansions: u32,
    ) -> (Option<SearchOutcome>, u32) {
        let mut used = 0u32;
        loop {
            let budget = max_expansions.saturating_sub(used);
            let before = self.search.expanded();
            match *pass {
                CorridorPass::Merged => {
                    let coarse = mesh
                        .coarse()
                        .expect("the merged pass began with the merged copy");
                    let targets = coarse_target(coarse, request);
                    let merged = coarse_request(coarse, request, &targets);
                    let ended = self.search.run(&coarse.mesh, &merged, budget);
                    used += self.search.expanded() - before;
                    if !ended {
                        return (None, used);
                    }
                    self.stats.add(self.search.expanded());
                    let outcome =
                        self.search
                            .finish(&coarse.mesh, &merged, &mut self.merged_corridor);
                    if matches!(outcome, SearchOutcome::Reached { .. }) && self.note_merged_region()
                    {
                        let within = within_request(coarse, &self.merged_region, request);
                        self.search.start(mesh, &within);
                        *pass = CorridorPass::Within;
                    } else {
                        self.search.start(mesh, request);
                        *pass = CorridorPass::Whole;
                    }
                }
                CorridorPass::Within => {
                    let coarse = mesh
                        .coarse()
                        .expect("the merged pass began with the merged copy");
                    let within = within_request(coarse, &self.merged_region, request);
                    let ended = self.search.run(mesh, &within, budget);
                    used += self.search.expanded() - before;
                    if !ended {
                        return (None, used);
                    }
                    self.stats.add(self.search.expanded());
                    let outcome = self.search.finish(mesh, &within, &mut self.corridor);
                    if matches!(outcome, SearchOutcome::Reached { .. }) {
                        return (Some(outcome), used);
                    }
                    self.search.start(mesh, request);
                    *pass = CorridorPass::Whole;
                }
                CorridorPass::Whole => {
                    let ended = self.search.run(mesh, request, budget);
                    used += self.search.expanded() - before;
                    if !ended {
                        return (None, used);
                    }
                    self.stats.add(self.search.expanded());
                    let outcome = self.search.finish(mesh, request, &mut self.corridor);
                    return (Some(outcome), used);
                }
            }
        }
    }

    /// The merged copy, when the corridor search of `request` may use it (see the
    /// module documentation).
    fn merged_copy<'m>(
        &mut self,
        mesh: &'m MeshData,
        request: &SearchRequest<'_>,
    ) -> Option<&'m CoarseMesh> {
        let wanted = match self.merged_search {
            MergedUse::Always => true,
            MergedUse::Never => false,
            MergedUse::BySize => mesh.polygon_count() >= MERGED_SEARCH_MIN_POLYGONS,
        };
        let usable = wanted
            && request.within.is_none()
            && request.strategy == SearchStrategy::AStar
            && request.targets.len() == 1
            && request.filter.is_uniform()
            && mesh.links.hop_count() == 0;
        if !usable || !self.admits_every_polygon(request.filter) {
            return None;
        }
        mesh.coarse()
    }

    /// Notes the polygons of `self.merged_corridor` in `self.merged_region`; false when
    /// the region could not hold them (no memory).
    fn note_merged_region(&mut self) -> bool {
        self.merged_region.clear();
        for step in &self.merged_corridor {
            if let Slot::Vacant(bucket) = self.merged_region.find(step.polygon)
                && !self.merged_region.insert_at(bucket, step.polygon, 0)
            {
                return false;
            }
        }
        true
    }
}

/// When the default mode searches the merged copy ([`Query::set_merged_search`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MergedUse {
    /// On meshes of at least [`crate::MERGED_SEARCH_MIN_POLYGONS`] polygons (the default).
    BySize,
    /// On every mesh.
    Always,
    /// Never.
    Never,
}

/// Which pass of a default-mode corridor search is running (see
/// [`Query::run_corridor_search`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum CorridorPass {
    /// Over the merged copy.
    Merged,
    /// Over the mesh's own polygons, inside the merged corridor.
    Within,
    /// Over the whole mesh.
    Whole,
}

/// The one target of `request` on the merged copy.
pub(super) fn coarse_target(coarse: &CoarseMesh, request: &SearchRequest<'_>) -> [Target; 1] {
    let goal = request.targets[0];
    [Target {
        polygon: coarse.of_original[goal.polygon as usize],
        point: goal.point,
    }]
}

/// `request` over the merged copy, towards `targets` (see [`coarse_target`]).
pub(super) fn coarse_request<'a>(
    coarse: &CoarseMesh,
    request: &SearchRequest<'a>,
    targets: &'a [Target],
) -> SearchRequest<'a> {
    SearchRequest {
        start_polygon: coarse.of_original[request.start_polygon as usize],
        targets,
        ..*request
    }
}

/// `request` kept to the polygons inside the merged corridor `region`.
pub(super) fn within_request<'a>(
    coarse: &'a CoarseMesh,
    region: &'a NodeMap,
    request: &SearchRequest<'a>,
) -> SearchRequest<'a> {
    SearchRequest {
        within: Some(Within {
            of_original: &coarse.of_original,
            merged: region,
        }),
        ..*request
    }
}
