//! The state behind one `NavstarCorridor` object, in plain Rust: navstar's
//! `PathCorridor` for one agent, made from a `NavstarMesh`'s last path, with its own
//! query (for repairs) and the path options of the mesh object when it was made.
//! `corridor_class.rs` holds the thin Godot adapters.

use navstar::glam::Vec3;
use navstar::{NavMesh, PathCorridor, PathOptions, Query, QueryError, Repair};

use crate::navigator::{FindError, Navigator, Settings};

/// What [`Follower::repair`] did, as the integer scripts see: nothing was refused.
pub const REPAIR_VALID: i64 = 0;
/// The corridor was replanned after the break and still reaches the target.
pub const REPAIR_REPAIRED: i64 = 1;
/// The corridor was replanned, but the target is cut off: it was moved to the nearest
/// reachable point (or to the polygon of an off-mesh link the new way takes).
pub const REPAIR_CUT_OFF: i64 = 2;

/// One agent's corridor: navstar's [`PathCorridor`], a query on the same mesh for
/// [`Follower::repair`], and the options (filter, area costs, split at area changes)
/// every call uses. One owner, one thread.
#[derive(Debug)]
pub struct Follower {
    corridor: PathCorridor,
    query: Query,
    options: PathOptions,
}

impl Navigator {
    /// A corridor along the last path (`find_path`, `find_nearest_target` or
    /// `finish_path`): from its first corner to its last, through the polygons it
    /// crosses (`Query::corridor`). A path answered without a search (one polygon, or
    /// start and goal in sight) has no corridor; its polygons are then those of the
    /// straight walk from start to end. The corridor keeps the settings as they are now
    /// and the mesh as it is now (a world's snapshot: later tile changes are not seen).
    ///
    /// # Errors
    /// No mesh, bad settings, no last path, or a path the corridor cannot follow: one
    /// through an off-mesh link, or (rarely) one whose corners could not be walked over
    /// the mesh and whose ends are not in straight sight.
    pub fn corridor_from_last_path(&mut self, settings: &Settings) -> Result<Follower, FindError> {
        let options = settings.path_options().map_err(FindError::Setting);
        let outcome = match (self.query.as_ref(), options, self.last_ends) {
            (None, _, _) => Err(FindError::NoMesh),
            (_, Err(e), _) => Err(e),
            (Some(_), Ok(_), None) => Err(FindError::Setting(
                "no last path: find one first (find_path, find_nearest_target or finish_path)"
                    .to_owned(),
            )),
            (Some(query), Ok(options), Some((start, end))) => {
                let mut polygons: Vec<u32> = query.corridor().collect();
                let mesh = query.mesh().clone();
                if polygons.is_empty() {
                    polygons = straight_walk(&mesh, start, end, &options)?;
                }
                Follower::new(&mesh, &polygons, start, end, options)
            }
        };
        self.keep(outcome)
    }
}

/// The polygons of the straight walk from `start` to `end` (both on the mesh).
fn straight_walk(
    mesh: &NavMesh,
    start: Vec3,
    end: Vec3,
    options: &PathOptions,
) -> Result<Vec<u32>, FindError> {
    let mut polygons = Vec::new();
    let moved = mesh
        .move_along_surface(None, start, end, &options.filter, &mut polygons)
        .map_err(FindError::Query)?;
    if moved.walls != 0 {
        return Err(FindError::Setting(
            "the last path has no corridor (rounding defeated the walk of its corners \
             over the mesh) and its ends are not in straight sight: find it again with \
             path_mode = 0 (funnel) to follow it"
                .to_owned(),
        ));
    }
    Ok(polygons)
}

impl Follower {
    /// A corridor through `polygons` (a chain of neighbours) from `start` to `target`.
    ///
    /// # Errors
    /// An empty or broken chain (such as a path through an off-mesh link), an unknown
    /// polygon, or a non-finite point.
    pub fn new(
        mesh: &NavMesh,
        polygons: &[u32],
        start: Vec3,
        target: Vec3,
        options: PathOptions,
    ) -> Result<Follower, FindError> {
        let first = *polygons
            .first()
            .ok_or_else(|| FindError::Setting("the corridor has no polygon".to_owned()))?;
        let mut corridor = PathCorridor::new(mesh, first, start).map_err(FindError::Query)?;
        corridor
            .set_corridor(target, polygons)
            .map_err(|e| match e {
                QueryError::InvalidOption(why) => FindError::Setting(format!(
                    "the last path cannot be followed: {why} (a path through an off-mesh \
                     link is followed one stretch at a time)"
                )),
                e => FindError::Query(e),
            })?;
        Ok(Follower {
            corridor,
            query: Query::new(mesh),
            options,
        })
    }

    /// The agent's position (on the corridor's first polygon).
    pub fn position(&self) -> Vec3 {
        self.corridor.position()
    }

    /// The target (on the corridor's last polygon).
    pub fn target(&self) -> Vec3 {
        self.corridor.target()
    }

    /// The polygons from the agent to the target.
    pub fn polygons(&self) -> Vec<i64> {
        self.corridor
            .polygons()
            .iter()
            .map(|&p| i64::from(p))
            .collect()
    }

    /// Moves the agent towards `position` along the surface and trims the corridor
    /// (`PathCorridor::move_position`); whether the agent is still on the corridor.
    ///
    /// # Errors
    /// A non-finite point, or the agent's polygon refused by the filter.
    pub fn move_position(&mut self, position: [f32; 3]) -> Result<bool, FindError> {
        self.corridor
            .move_position(Vec3::from_array(position), &self.options.filter)
            .map_err(FindError::Query)
    }

    /// Moves the target towards `target` along the surface
    /// (`PathCorridor::move_target`); whether its polygon was already on the corridor.
    ///
    /// # Errors
    /// As [`Follower::move_position`].
    pub fn move_target(&mut self, target: [f32; 3]) -> Result<bool, FindError> {
        self.corridor
            .move_target(Vec3::from_array(target), &self.options.filter)
            .map_err(FindError::Query)
    }

    /// The next corners (at most `max`) towards the target and their flags (navstar's
    /// `CornerFlags` bits: 2 end, 16 area change), as `corners_with_details` gives them.
    ///
    /// # Errors
    /// A negative `max`.
    pub fn corners(&mut self, max: i64) -> Result<(Vec<Vec3>, Vec<i32>), FindError> {
        let max = count("max", max)?;
        let (corners, details) = self.corridor.corners_with_details(max, &self.options);
        let flags = details.iter().map(|d| i32::from(d.flags.bits())).collect();
        Ok((corners.to_vec(), flags))
    }

    /// Whether the first `look_ahead` polygons are all still admitted by the filter.
    ///
    /// # Errors
    /// A negative `look_ahead`.
    pub fn is_valid(&self, look_ahead: i64) -> Result<bool, FindError> {
        let look_ahead = count("look_ahead", look_ahead)?;
        Ok(self.corridor.is_valid(look_ahead, &self.options.filter))
    }

    /// Replans the part of the corridor after the first refused polygon
    /// (`PathCorridor::repair`): [`REPAIR_VALID`], [`REPAIR_REPAIRED`] or
    /// [`REPAIR_CUT_OFF`].
    ///
    /// # Errors
    /// The agent's own polygon refused, or the search's errors.
    pub fn repair(&mut self) -> Result<i64, FindError> {
        match self.corridor.repair(&mut self.query, &self.options) {
            Ok(Repair::Valid) => Ok(REPAIR_VALID),
            Ok(Repair::Repaired { .. }) => Ok(REPAIR_REPAIRED),
            Ok(Repair::CutOff { .. }) => Ok(REPAIR_CUT_OFF),
            // `Repair` may grow: a new outcome is a replan too.
            Ok(_) => Ok(REPAIR_REPAIRED),
            Err(e) => Err(FindError::Query(e)),
        }
    }

    /// Shortens the corridor when the agent walks straight to `next` (a point ahead,
    /// such as a corner further on) without meeting a wall
    /// (`PathCorridor::optimize_visibility`); whether it changed.
    ///
    /// # Errors
    /// A non-finite point, or the agent's polygon refused by the filter.
    pub fn optimize_visibility(&mut self, next: [f32; 3]) -> Result<bool, FindError> {
        self.corridor
            .optimize_visibility(Vec3::from_array(next), &self.options.filter)
            .map_err(FindError::Query)
    }
}

/// A Godot integer as a count, named `what` when negative.
fn count(what: &str, value: i64) -> Result<usize, FindError> {
    usize::try_from(value)
        .map_err(|_| FindError::Setting(format!("{what} {value} must not be negative")))
}

#[cfg(test)]
#[path = "follow_tests.rs"]
mod tests;
