//! The options of a path query: [`PathOptions`] and the [`PathMode`] it asks for.

use crate::error::QueryError;
use crate::filter::QueryFilter;
use crate::mesh::MeshData;
use crate::search::SearchStrategy;

/// What kind of path a query returns.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum PathMode {
    /// The default: the exact mode ([`PathMode::Optimal`]) wherever it answers what was
    /// asked, the funnel mode ([`PathMode::Funnel`]) elsewhere. The exact mode runs when
    /// the filter's area costs are all equal, no off-mesh link is attached to the mesh
    /// (or world), the search is A* with heuristic weight 1 and
    /// `split_at_area_changes` is off: its path is then the shortest one, found faster
    /// than the funnel mode's on the grid benchmark maps and slower on a Recast triangle
    /// level (1.24x the median, 1.9x the p95 in one run: BENCHMARKS.md's top table; ask
    /// for [`PathMode::Funnel`] when slow queries on such meshes matter more than the
    /// shortest path). With area costs, links or another search the funnel mode
    /// honours them. [`Query::find_nearest_target`](super::Query::find_nearest_target)
    /// runs the funnel mode's one search for all targets.
    #[default]
    Auto,
    /// A* over the polygons, then the funnel algorithm along the corridor: fast, and
    /// usually but not always the shortest path (A* may pick a corridor whose pulled
    /// path is longer than another's). Honours area costs, flags and off-mesh links.
    Funnel,
    /// The exact mode (in prose `Optimal` is always "the exact mode"): the exact
    /// shortest path in the ground plane among all paths on the mesh, by an any-angle
    /// search over intervals of polygon edges (after Polyanya, Cui, Harabor and Grastien
    /// 2017). Polygons the filter refuses are removed (edges into them are walls, and the
    /// path may bend round their corners). Area costs do not shape the path (lengths are
    /// plain Euclidean ground-plane lengths: shortest paths under area costs are the
    /// weighted-region problem, a different and much harder one), though
    /// [`Path::cost`](super::Path::cost) reports what the path costs under them. Off-mesh
    /// links are ignored too; when the goal cannot be reached over the admitted polygons
    /// alone (only a link leads there, or the filter cuts the way), the answer is the
    /// [`PathMode::Funnel`] one (a path through the link, or a partial path). Polygons
    /// touching only at a vertex are not connected. Corners are mesh vertices with their
    /// heights. `strategy` and `heuristic_weight` do not apply;
    /// [`Query::corridor`](super::Query::corridor) lists the polygons the path crosses
    /// (walked over the mesh after the search). The first exact query on
    /// a mesh builds a merged copy of it (neighbouring polygons joined while convex; about
    /// the memory of the mesh itself), shared by all threads and searched whenever the
    /// filter admits every polygon. Where the fast lane's index does not answer (a
    /// filter refusing a polygon, no index), the interval search gives up after 8 nodes
    /// per corner slot plus 65,536 and the answer is the [`PathMode::Funnel`] one: that
    /// happened on 35 of the 2,640 problems of one StarCraft map of many diagonal walls
    /// (CatwalkAlley, up to 2.8% longer; BENCHMARKS.md, session 23), never on the other
    /// benchmark maps.
    Optimal,
}

/// Options of one path query. `PathOptions::default()` gives A* with weight 1,
/// unlimited snapping, partial paths allowed, [`PathMode::Auto`] and the default
/// [`QueryFilter`]; change what you need with the `with_*` methods.
///
/// # Example
/// ```
/// use navstar::{PathMode, PathOptions, QueryFilter};
///
/// let options = PathOptions::default()
///     .with_mode(PathMode::Optimal)
///     .with_filter(QueryFilter::default().with_area_cost(1, 5.0))
///     .with_allow_partial(false);
/// assert_eq!(options.mode, PathMode::Optimal);
/// assert_eq!(options.filter.cost(1), 5.0);
/// assert!(!options.allow_partial);
/// ```
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
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
    /// default) snaps from any distance (with the `serde` feature, infinity is written as
    /// `null`, which formats such as JSON can hold).
    #[cfg_attr(feature = "serde", serde(with = "unlimited_serde"))]
    pub max_snap_distance: f32,
    /// When the goal is unreachable, return a path to the reachable point closest to it
    /// ([`PathStatus::Partial`](super::PathStatus::Partial)) instead of failing with
    /// [`QueryError::NoPath`].
    pub allow_partial: bool,
    /// Exact shortest paths where they answer the question ([`PathMode::Auto`], the
    /// default), always A* and the funnel ([`PathMode::Funnel`]), or always exact
    /// ([`PathMode::Optimal`]).
    pub mode: PathMode,
    /// Which polygons and links may be used, and what each area costs.
    pub filter: QueryFilter,
    /// Add a corner wherever the path passes into a polygon of another area, flagged
    /// [`CornerFlags::AREA_CHANGE`](crate::CornerFlags::AREA_CHANGE) (default `false`), so
    /// an agent can change its gait there. The path's shape does not change.
    pub split_at_area_changes: bool,
    /// The radius of the agent, a disc in the ground plane, in world units: finite and
    /// at least 0, default 0 (a point). Above the mesh's baked radius
    /// ([`MeshOptions::agent_radius`](crate::MeshOptions::agent_radius)) the query runs
    /// on the mesh eroded by the difference (built on first use for each radius and
    /// filter, then kept): every point of the path keeps at least that distance from
    /// every wall (edges without a neighbour, and edges into polygons the filter
    /// refuses), start and goal move to the nearest point where the disc fits, and a
    /// path is found exactly when the disc can travel from one to the other. Round
    /// convex wall corners the path turns on a few corners drawn outside the circle
    /// ([`crate::ARC_SEGMENTS`]). Off-mesh links are not taken. At or below the baked
    /// radius the query is the same as with 0. See the README's "Several agent sizes on
    /// one mesh".
    pub agent_radius: f32,
}

impl Default for PathOptions {
    fn default() -> Self {
        PathOptions {
            strategy: SearchStrategy::AStar,
            heuristic_weight: 1.0,
            max_snap_distance: f32::INFINITY,
            allow_partial: true,
            mode: PathMode::Auto,
            filter: QueryFilter::default(),
            split_at_area_changes: false,
            agent_radius: 0.0,
        }
    }
}

impl PathOptions {
    /// Whether a path query with these options on `mesh` runs the exact mode: always
    /// for [`PathMode::Optimal`], never for [`PathMode::Funnel`], and for
    /// [`PathMode::Auto`] when that mode's conditions hold.
    pub(crate) fn runs_exact(&self, mesh: &MeshData) -> bool {
        match self.mode {
            PathMode::Funnel => false,
            PathMode::Optimal => true,
            PathMode::Auto => {
                self.strategy == SearchStrategy::AStar
                    && self.heuristic_weight == 1.0
                    && !self.split_at_area_changes
                    && self.filter.is_uniform()
                    && mesh.links.hop_count() == 0
            }
        }
    }

    /// These options with another corridor search ([`PathOptions::strategy`]).
    #[must_use]
    pub fn with_strategy(self, strategy: SearchStrategy) -> Self {
        PathOptions { strategy, ..self }
    }

    /// These options with another A* heuristic weight
    /// ([`PathOptions::heuristic_weight`]).
    #[must_use]
    pub fn with_heuristic_weight(self, heuristic_weight: f32) -> Self {
        PathOptions {
            heuristic_weight,
            ..self
        }
    }

    /// These options with another snapping distance
    /// ([`PathOptions::max_snap_distance`]).
    #[must_use]
    pub fn with_max_snap_distance(self, max_snap_distance: f32) -> Self {
        PathOptions {
            max_snap_distance,
            ..self
        }
    }

    /// These options with partial paths allowed or not ([`PathOptions::allow_partial`]).
    #[must_use]
    pub fn with_allow_partial(self, allow_partial: bool) -> Self {
        PathOptions {
            allow_partial,
            ..self
        }
    }

    /// These options with another mode ([`PathOptions::mode`]).
    #[must_use]
    pub fn with_mode(self, mode: PathMode) -> Self {
        PathOptions { mode, ..self }
    }

    /// These options with another filter ([`PathOptions::filter`]).
    #[must_use]
    pub fn with_filter(self, filter: QueryFilter) -> Self {
        PathOptions { filter, ..self }
    }

    /// These options with corners at area changes or not
    /// ([`PathOptions::split_at_area_changes`]).
    #[must_use]
    pub fn with_split_at_area_changes(self, split_at_area_changes: bool) -> Self {
        PathOptions {
            split_at_area_changes,
            ..self
        }
    }

    /// These options with another agent radius ([`PathOptions::agent_radius`]).
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshOptions, NavMesh, PathOptions, Query};
    ///
    /// // A 4 x 4 room: a disc of radius 0.5 keeps 0.5 from its walls.
    /// let v = [Vec3::ZERO, Vec3::new(4.0, 0.0, 0.0), Vec3::new(4.0, 0.0, 4.0), Vec3::new(0.0, 0.0, 4.0)];
    /// let mesh = NavMesh::from_polygons(&v, &[0, 1, 2, 3], &[4], &MeshOptions::default())?;
    /// let options = PathOptions::default().with_agent_radius(0.5);
    /// let path = Query::new(&mesh).find_path_vec(Vec3::new(0.1, 0.0, 2.0), Vec3::new(3.0, 0.0, 2.0), &options)?;
    /// // The start, 0.1 from the wall, moves to 0.5 from it.
    /// // (Within 1e-5: the band along the walls is drawn 1e-6 of the largest coordinate
    /// // wider than the radius, see `ARC_SEGMENTS`.)
    /// assert_eq!(path.corners.len(), 2);
    /// assert!(path.corners[0].abs_diff_eq(Vec3::new(0.5, 0.0, 2.0), 1e-5));
    /// assert_eq!(path.corners[1], Vec3::new(3.0, 0.0, 2.0));
    /// assert!(PathOptions::default().with_agent_radius(f32::NAN).agent_radius.is_nan());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn with_agent_radius(self, agent_radius: f32) -> Self {
        PathOptions {
            agent_radius,
            ..self
        }
    }

    pub(crate) fn validate(&self) -> Result<(), QueryError> {
        if !(self.agent_radius.is_finite() && self.agent_radius >= 0.0) {
            return Err(QueryError::InvalidOption(
                "agent_radius must be finite and >= 0",
            ));
        }
        if !(self.heuristic_weight.is_finite() && self.heuristic_weight >= 0.0) {
            return Err(QueryError::InvalidOption(
                "heuristic_weight must be finite and >= 0",
            ));
        }
        validate_snap_distance(self.max_snap_distance)?;
        self.filter.validate()
    }
}

/// Rejects a snapping distance that is NaN or negative (infinity is allowed).
pub(crate) fn validate_snap_distance(max_snap_distance: f32) -> Result<(), QueryError> {
    if max_snap_distance.is_nan() || max_snap_distance < 0.0 {
        return Err(QueryError::InvalidOption(
            "max_snap_distance must be >= 0 (infinity allowed)",
        ));
    }
    Ok(())
}

/// A distance where infinity means no limit, as `Option<f32>`: `None` for infinity.
#[cfg(feature = "serde")]
mod unlimited_serde {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(distance: &f32, s: S) -> Result<S::Ok, S::Error> {
        let limit = (*distance != f32::INFINITY).then_some(*distance);
        limit.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f32, D::Error> {
        Ok(Option::<f32>::deserialize(d)?.unwrap_or(f32::INFINITY))
    }
}
