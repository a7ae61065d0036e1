//! The queries for moving agents, as plain-Rust methods of [`Navigator`]: a move along
//! the surface, the distance to the nearest wall, random points (seeded), and the
//! time-sliced path search (`begin_path`, `advance_path`, `finish_path`, `cancel_path`).
//! The class's methods in `class_agents.rs` are one-line adapters over these. Each keeps
//! the error text for `get_last_error()` and clears it on success.

use navstar::glam::Vec3;
use navstar::{
    Endpoint, NavMesh, QueryError, QueryFilter, RandomPoint, SliceProgress, SliceStatus,
    SplitMix64, SurfaceMove, WallDistance,
};

use crate::navigator::{FindError, Navigator, Settings, ends};

/// The answer of [`Navigator::move_along_surface`]: navstar's move and the polygons
/// walked through, in order (the start's first, the end's last).
#[derive(Debug, Clone, PartialEq)]
pub struct Moved {
    /// Where the move ended, its polygon and the walls met.
    pub surface: SurfaceMove,
    /// The polygons walked through (64-bit ids, as the other polygon lists).
    pub polygons: Vec<i64>,
}

/// The state [`Navigator::advance_path`] reports to scripts: the search goes on.
pub const SLICE_IN_PROGRESS: i64 = 0;
/// The state [`Navigator::advance_path`] reports to scripts: the answer is known.
pub const SLICE_DONE: i64 = 1;

/// A `SliceStatus` as the integer scripts see (0 in progress, 1 done).
pub fn slice_state(status: SliceStatus) -> i64 {
    match status {
        SliceStatus::InProgress => SLICE_IN_PROGRESS,
        SliceStatus::Done => SLICE_DONE,
    }
}

impl Navigator {
    /// Moves from `from` towards `to` along the surface, sliding along walls and along
    /// polygons the filter refuses (`NavMesh::move_along_surface`). `from` is first moved
    /// to the nearest admitted polygon within `max_snap_distance` (3D), and the move
    /// starts in that polygon. With an `agent_radius` the move is the disc's centre's
    /// (`NavMesh::move_along_surface_for_agent`): it slides where the disc touches a wall.
    ///
    /// # Errors
    /// No mesh, bad settings, a non-finite point, or `from` farther than
    /// `max_snap_distance` from every admitted polygon.
    pub fn move_along_surface(
        &mut self,
        from: [f32; 3],
        to: [f32; 3],
        settings: &Settings,
    ) -> Result<Moved, FindError> {
        self.with_filter(settings, |mesh, filter| {
            let (from, to) = (Vec3::from_array(from), Vec3::from_array(to));
            let start = place(mesh, from, filter, settings.max_snap_distance)?;
            let mut visited = Vec::new();
            let surface = mesh
                .move_along_surface_for_agent(
                    Some(start),
                    from,
                    to,
                    filter,
                    settings.agent_radius,
                    &mut visited,
                )
                .map_err(FindError::Query)?;
            let polygons = visited.into_iter().map(i64::from).collect();
            Ok(Moved { surface, polygons })
        })
    }

    /// The nearest wall within `max_radius` of `point` (`Query::distance_to_wall`;
    /// walls are edges without a neighbour or into a refused polygon); `Ok(None)` when
    /// none is that near. With an `agent_radius`, from the disc's centre to where the disc
    /// touches a wall (`Query::distance_to_wall_for_agent`).
    ///
    /// # Errors
    /// No mesh, bad settings, or navstar's error (non-finite point, bad radius, no
    /// admitted polygon).
    pub fn distance_to_wall(
        &mut self,
        point: [f32; 3],
        max_radius: f32,
        settings: &Settings,
    ) -> Result<Option<WallDistance>, FindError> {
        self.with_query(settings, |query, filter| {
            query.distance_to_wall_for_agent(
                Vec3::from_array(point),
                max_radius,
                filter,
                settings.agent_radius,
            )
        })
    }

    /// A random point of the admitted polygons, uniform by area (`NavMesh::random_point`
    /// with a `SplitMix64` started at `seed`: one seed, one point); with an
    /// `agent_radius`, uniform over where the disc fits (`NavMesh::random_point_for_agent`).
    ///
    /// # Errors
    /// No mesh, bad settings, or no admitted polygon with an area.
    pub fn random_point(
        &mut self,
        seed: i64,
        settings: &Settings,
    ) -> Result<RandomPoint, FindError> {
        self.with_filter(settings, |mesh, filter| {
            let mut rng = SplitMix64::new(seed_bits(seed));
            mesh.random_point_for_agent(filter, settings.agent_radius, &mut || rng.next_u64())
                .map_err(FindError::Query)
        })
    }

    /// A random point of the admitted polygons reachable from `center` whose ground
    /// segment comes within `max_distance` of it (`Query::random_point_around`; the
    /// point may lie outside the circle, up to the size of the polygons at its rim), from
    /// a `SplitMix64` started at `seed`; with an `agent_radius`, where the disc fits
    /// (`Query::random_point_around_for_agent`).
    ///
    /// # Errors
    /// No mesh, bad settings, or navstar's error (non-finite center, bad distance, no
    /// admitted polygon, a region without area).
    pub fn random_point_around(
        &mut self,
        center: [f32; 3],
        max_distance: f32,
        seed: i64,
        settings: &Settings,
    ) -> Result<RandomPoint, FindError> {
        self.with_query(settings, |query, filter| {
            let mut rng = SplitMix64::new(seed_bits(seed));
            query.random_point_around_for_agent(
                Vec3::from_array(center),
                max_distance,
                filter,
                settings.agent_radius,
                &mut || rng.next_u64(),
            )
        })
    }

    /// Begins a time-sliced path search from `from` to `to` with the current settings
    /// (`Query::begin_path`): it checks and snaps both ends now, and searches in slices
    /// of [`Navigator::advance_path`]. A search already in progress is cancelled, and the
    /// last path is forgotten.
    ///
    /// # Errors
    /// As [`Navigator::find_path`] for what is known before the search.
    pub fn begin_path(
        &mut self,
        from: [f32; 3],
        to: [f32; 3],
        settings: &Settings,
    ) -> Result<SliceStatus, FindError> {
        let options = self.begin(settings)?;
        let outcome = match self.query.as_mut() {
            Some(query) => query
                .begin_path(Vec3::from_array(from), Vec3::from_array(to), &options)
                .map_err(FindError::Query),
            None => Err(FindError::NoMesh),
        };
        self.keep(outcome)
    }

    /// Goes on with the search for at most `max_expansions` node expansions (a frame's
    /// budget). Once done it does nothing and reports done again.
    ///
    /// # Errors
    /// No mesh; `max_expansions` below 1 or above `u32::MAX` (named); no search in
    /// progress; another search ran on this object since the last slice.
    pub fn advance_path(&mut self, max_expansions: i64) -> Result<SliceProgress, FindError> {
        let outcome = match (self.query.as_mut(), u32::try_from(max_expansions)) {
            (None, _) => Err(FindError::NoMesh),
            (Some(_), Err(_)) | (Some(_), Ok(0)) => Err(FindError::Setting(format!(
                "max_expansions {max_expansions} is out of range (1 to {})",
                u32::MAX
            ))),
            (Some(query), Ok(n)) => query.advance_path(n).map_err(FindError::Query),
        };
        self.keep(outcome)
    }

    /// Ends the search and returns its path (kept for the read-back methods, like
    /// `find_path`'s): once `advance_path` reported done, `find_path`'s answer for the
    /// same arguments; before, the best partial path so far.
    ///
    /// # Errors
    /// No mesh, no search in progress, an interrupted search, or an unreachable goal
    /// without `allow_partial`.
    pub fn finish_path(&mut self) -> Result<&[Vec3], FindError> {
        self.forget_path();
        let Navigator {
            query,
            last_error,
            last_partial,
            last_details,
            last_arcs,
            last_cost,
            last_ends,
            ..
        } = self;
        let Some(query) = query.as_mut() else {
            *last_error = FindError::NoMesh.to_string();
            return Err(FindError::NoMesh);
        };
        match query.finish_path() {
            Ok(path) => {
                last_error.clear();
                *last_partial = path.status.is_partial();
                last_details.extend_from_slice(path.details);
                last_arcs.extend_from_slice(path.arcs);
                *last_cost = path.cost;
                *last_ends = ends(path.corners);
                Ok(path.corners)
            }
            Err(e) => {
                *last_error = e.to_string();
                Err(FindError::Query(e))
            }
        }
    }

    /// Cancels the search in progress; returns whether there was one. The last path is
    /// kept.
    pub fn cancel_path(&mut self) -> bool {
        self.last_error.clear();
        self.query.as_mut().is_some_and(navstar::Query::cancel_path)
    }

    /// Runs `f` on the query with the settings' filter, keeping its error.
    fn with_query<T>(
        &mut self,
        settings: &Settings,
        f: impl FnOnce(&mut navstar::Query, &QueryFilter) -> Result<T, QueryError>,
    ) -> Result<T, FindError> {
        let filter = settings.filter().map_err(FindError::Setting);
        let outcome = match (self.query.as_mut(), filter) {
            (None, _) => Err(FindError::NoMesh),
            (_, Err(e)) => Err(e),
            (Some(query), Ok(filter)) => f(query, &filter).map_err(FindError::Query),
        };
        self.keep(outcome)
    }

    /// Keeps the error of `outcome` for `get_last_error()`, or clears the last one.
    pub(crate) fn keep<T>(&mut self, outcome: Result<T, FindError>) -> Result<T, FindError> {
        match &outcome {
            Ok(_) => self.last_error.clear(),
            Err(e) => self.last_error = e.to_string(),
        }
        outcome
    }
}

/// A script's seed (any integer) as the generator's 64 bits.
fn seed_bits(seed: i64) -> u64 {
    seed as u64
}

/// The admitted polygon nearest `point` within `max_distance` (3D).
fn place(
    mesh: &NavMesh,
    point: Vec3,
    filter: &QueryFilter,
    max_distance: f32,
) -> Result<u32, FindError> {
    if !point.is_finite() {
        return Err(FindError::Query(QueryError::NonFinitePoint(
            Endpoint::Start,
        )));
    }
    match mesh.nearest_point(point, max_distance, Some(filter)) {
        Some(nearest) => Ok(nearest.polygon),
        None => Err(FindError::Query(QueryError::NotOnMesh {
            endpoint: Endpoint::Start,
            distance: mesh
                .nearest_point(point, f32::INFINITY, Some(filter))
                .map_or(f32::INFINITY, |n| n.distance),
            max_distance,
        })),
    }
}

#[cfg(test)]
#[path = "agents_tests.rs"]
mod tests;
