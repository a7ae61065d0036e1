//! The class's properties as navstar options: [`Settings`] and its checked conversion to
//! [`PathOptions`] and [`QueryFilter`].
//!
//! Godot hands integers over as `i64` and arrays of floats as `PackedFloat32Array`, so
//! flags and area costs are checked here and an out-of-range value is named by its
//! property (navstar itself checks the rest: costs must be finite and above zero).

use navstar::{MAX_AREAS, MeshOptions, PathMode, PathOptions, QueryFilter};

/// Settings exposed as properties of the Godot class, borrowed for one call.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings<'a> {
    /// Vertices closer than this are merged when a mesh is built (navstar's
    /// `MeshOptions::weld_distance`).
    pub weld_distance: f32,
    /// How far start and goal may be from the mesh (`PathOptions::max_snap_distance`).
    pub max_snap_distance: f32,
    /// Return a partial path to an unreachable goal (`PathOptions::allow_partial`).
    pub allow_partial: bool,
    /// How paths are found: [`PATH_MODE_FUNNEL`], [`PATH_MODE_OPTIMAL`] or
    /// [`PATH_MODE_AUTO`] (navstar's `PathMode`; the numbers are the C ABI's).
    pub path_mode: i64,
    /// Bits a polygon or link must share to be used (`QueryFilter::include_flags`;
    /// Godot's `navigation_layers`). 0 to `u32::MAX`.
    pub include_flags: i64,
    /// Bits that forbid a polygon or link (`QueryFilter::exclude_flags`). 0 to `u32::MAX`.
    pub exclude_flags: i64,
    /// Cost multiplier of areas `0..area_costs.len()` (at most [`MAX_AREAS`] entries);
    /// areas past the end cost 1.
    pub area_costs: &'a [f32],
    /// Add a corner where the path changes area (`PathOptions::split_at_area_changes`).
    pub split_at_area_changes: bool,
    /// Multiplier of the A* estimate (`PathOptions::heuristic_weight`).
    pub heuristic_weight: f32,
    /// When path searches use the mesh's landmark table: [`LANDMARKS_BY_SIZE`],
    /// [`LANDMARKS_ON`] or [`LANDMARKS_OFF`] (`Query::set_landmarks`; the numbers are
    /// the C ABI's).
    pub landmarks: i64,
    /// Whether exact-mode paths are answered from the mesh's fast-lane index where it
    /// has one (`Query::set_fast_lane`; on by default): the same lengths, no search.
    pub fast_lane: bool,
    /// The agent's radius in world units (`PathOptions::agent_radius`): paths, the
    /// closest point, raycasts, moves along the surface, wall distances and random points
    /// keep at least this far from every wall. 0 (the default) for a point agent.
    pub agent_radius: f32,
}

impl Default for Settings<'_> {
    fn default() -> Self {
        let path = PathOptions::default();
        Settings {
            weld_distance: MeshOptions::default().weld_distance,
            max_snap_distance: path.max_snap_distance,
            allow_partial: path.allow_partial,
            path_mode: mode_number(path.mode),
            include_flags: i64::from(path.filter.include_flags),
            exclude_flags: i64::from(path.filter.exclude_flags),
            area_costs: &[],
            split_at_area_changes: path.split_at_area_changes,
            heuristic_weight: path.heuristic_weight,
            agent_radius: path.agent_radius,
            landmarks: LANDMARKS_BY_SIZE,
            fast_lane: true,
        }
    }
}

impl Settings<'_> {
    /// The filter these settings describe.
    ///
    /// # Errors
    /// A flag mask outside `0..=u32::MAX` or more than [`MAX_AREAS`] area costs, named by
    /// the property.
    pub fn filter(&self) -> Result<QueryFilter, String> {
        if self.area_costs.len() > MAX_AREAS {
            return Err(format!(
                "area_costs has {} entries; areas are numbered 0 to {}",
                self.area_costs.len(),
                MAX_AREAS - 1
            ));
        }
        let mut filter = QueryFilter::default()
            .with_include_flags(flags("navigation_layers", self.include_flags)?)
            .with_exclude_flags(flags("excluded_layers", self.exclude_flags)?);
        for (area, &cost) in self.area_costs.iter().enumerate() {
            // MAX_AREAS fits in u8 (checked above and by the constant's value).
            filter = filter.with_area_cost(area as u8, cost);
        }
        Ok(filter)
    }

    /// The landmark choice these settings describe: `None` for navstar's default (the
    /// table on meshes of at least `navstar::LANDMARK_MIN_POLYGONS` polygons), else
    /// whether to use it.
    ///
    /// # Errors
    /// A `landmarks` value other than 0, 1 or 2, named by the property.
    pub fn landmark_use(&self) -> Result<Option<bool>, String> {
        match self.landmarks {
            LANDMARKS_BY_SIZE => Ok(None),
            LANDMARKS_ON => Ok(Some(true)),
            LANDMARKS_OFF => Ok(Some(false)),
            other => Err(format!(
                "landmarks {other} is out of range: 0 (by mesh size), 1 (on) or 2 (off)"
            )),
        }
    }

    /// The path options these settings describe.
    ///
    /// # Errors
    /// As [`Settings::filter`]. navstar checks the numbers themselves at the query.
    pub fn path_options(&self) -> Result<PathOptions, String> {
        let mode = match self.path_mode {
            PATH_MODE_FUNNEL => PathMode::Funnel,
            PATH_MODE_OPTIMAL => PathMode::Optimal,
            PATH_MODE_AUTO => PathMode::Auto,
            other => {
                return Err(format!(
                    "path_mode {other} is out of range: 0 (funnel), 1 (optimal) or 2 (auto)"
                ));
            }
        };
        Ok(PathOptions::default()
            .with_filter(self.filter()?)
            .with_max_snap_distance(self.max_snap_distance)
            .with_allow_partial(self.allow_partial)
            .with_mode(mode)
            .with_split_at_area_changes(self.split_at_area_changes)
            .with_heuristic_weight(self.heuristic_weight)
            .with_agent_radius(self.agent_radius))
    }
}

/// `landmarks`, the default: the landmark table on meshes of at least
/// `navstar::LANDMARK_MIN_POLYGONS` polygons.
pub const LANDMARKS_BY_SIZE: i64 = 0;
/// `landmarks`: the landmark table on every mesh that has one.
pub const LANDMARKS_ON: i64 = 1;
/// `landmarks`: straight-line estimates only.
pub const LANDMARKS_OFF: i64 = 2;

/// `path_mode`: A* and the funnel (`PathMode::Funnel`).
pub const PATH_MODE_FUNNEL: i64 = 0;
/// `path_mode`: exact shortest paths (`PathMode::Optimal`).
pub const PATH_MODE_OPTIMAL: i64 = 1;
/// `path_mode`, the default: exact shortest paths wherever they answer what was asked,
/// A* and the funnel otherwise (`PathMode::Auto`).
pub const PATH_MODE_AUTO: i64 = 2;

/// The `path_mode` number of `mode`.
fn mode_number(mode: PathMode) -> i64 {
    match mode {
        PathMode::Funnel => PATH_MODE_FUNNEL,
        PathMode::Optimal => PATH_MODE_OPTIMAL,
        _ => PATH_MODE_AUTO,
    }
}

/// A Godot integer as 32 flag bits.
///
/// # Errors
/// When `value` is negative or above `u32::MAX`, naming `what`.
pub fn flags(what: &str, value: i64) -> Result<u32, String> {
    u32::try_from(value)
        .map_err(|_| format!("{what} {value} is out of range: flags are 32 bits (0 to 4294967295)"))
}

/// A Godot integer as an index (polygon, link, area...) below `count`.
///
/// # Errors
/// When `value` is negative or not below `count`, naming `what`.
pub fn index(what: &str, value: i64, count: u32) -> Result<u32, String> {
    u32::try_from(value)
        .ok()
        .filter(|&i| i < count)
        .ok_or_else(|| format!("{what} {value} is out of range (count {count})"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_navstars() {
        let options = Settings::default().path_options().unwrap();
        assert_eq!(options, PathOptions::default());
    }

    #[test]
    fn properties_reach_the_options() {
        let costs = [1.0, 5.0, 0.5];
        let s = Settings {
            path_mode: PATH_MODE_OPTIMAL,
            include_flags: 0b101,
            exclude_flags: 0b100,
            area_costs: &costs,
            split_at_area_changes: true,
            heuristic_weight: 2.0,
            agent_radius: 0.25,
            max_snap_distance: 3.0,
            allow_partial: false,
            ..Settings::default()
        };
        let o = s.path_options().unwrap();
        assert_eq!(o.mode, PathMode::Optimal);
        assert_eq!((o.filter.include_flags, o.filter.exclude_flags), (5, 4));
        assert_eq!(
            (o.filter.cost(0), o.filter.cost(1), o.filter.cost(2)),
            (1.0, 5.0, 0.5)
        );
        assert_eq!(o.filter.cost(3), 1.0);
        assert!(o.split_at_area_changes && !o.allow_partial);
        assert_eq!((o.heuristic_weight, o.max_snap_distance), (2.0, 3.0));
        assert_eq!(o.agent_radius, 0.25);
    }

    #[test]
    fn bad_properties_are_named() {
        let s = Settings {
            path_mode: 3,
            ..Settings::default()
        };
        assert_eq!(
            s.path_options().unwrap_err(),
            "path_mode 3 is out of range: 0 (funnel), 1 (optimal) or 2 (auto)"
        );
        assert_eq!(Settings::default().path_mode, PATH_MODE_AUTO);
        let s = Settings {
            landmarks: -1,
            ..Settings::default()
        };
        assert_eq!(
            s.landmark_use().unwrap_err(),
            "landmarks -1 is out of range: 0 (by mesh size), 1 (on) or 2 (off)"
        );
        assert_eq!(Settings::default().landmark_use(), Ok(None));
        let s = Settings {
            include_flags: -1,
            ..Settings::default()
        };
        assert_eq!(
            s.filter().unwrap_err(),
            "navigation_layers -1 is out of range: flags are 32 bits (0 to 4294967295)"
        );
        let s = Settings {
            exclude_flags: 1 << 32,
            ..Settings::default()
        };
        assert!(
            s.filter()
                .unwrap_err()
                .starts_with("excluded_layers 4294967296")
        );
        let many = [1.0; MAX_AREAS + 1];
        let s = Settings {
            area_costs: &many,
            ..Settings::default()
        };
        assert_eq!(
            s.path_options().unwrap_err(),
            "area_costs has 65 entries; areas are numbered 0 to 63"
        );
        // Exactly MAX_AREAS is fine; bad values are left to navstar's own check.
        let all = [2.0; MAX_AREAS];
        let s = Settings {
            area_costs: &all,
            ..Settings::default()
        };
        assert_eq!(s.filter().unwrap().cost(63), 2.0);
    }

    #[test]
    fn indices_are_checked() {
        assert_eq!(index("polygon", 2, 3), Ok(2));
        assert_eq!(
            index("polygon", 3, 3).unwrap_err(),
            "polygon 3 is out of range (count 3)"
        );
        assert_eq!(
            index("link", -1, 3).unwrap_err(),
            "link -1 is out of range (count 3)"
        );
        assert_eq!(flags("flags", 4_294_967_295), Ok(u32::MAX));
    }
}
