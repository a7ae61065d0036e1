//! Option structs of the C ABI. Each starts with `struct_size` so that fields can be
//! appended in later versions without breaking programs built against older headers.

use super::boundary::{FfiError, Versioned, read_versioned};
use super::filter::{NavstarQueryFilter, read_filter};
use crate::{MeshOptions, PathMode, PathOptions, Query, SearchStrategy, UpAxis};

/// `NavstarMeshOptions::up_axis`: Y is up (Detour, Unity, Godot). The default.
pub const NAVSTAR_UP_Y: u32 = 0;
/// `NavstarMeshOptions::up_axis`: Z is up (Unreal, 2D games passing z = 0).
pub const NAVSTAR_UP_Z: u32 = 1;

/// `NavstarPathOptions::strategy`: A* with the straight-line heuristic (weighted A* with
/// `heuristic_weight > 1`): the cheapest corridor. The default.
pub const NAVSTAR_SEARCH_ASTAR: u32 = 0;
/// `NavstarPathOptions::strategy`: Dijkstra: the cheapest corridor, more work than A*.
pub const NAVSTAR_SEARCH_DIJKSTRA: u32 = 1;
/// `NavstarPathOptions::strategy`: greedy best-first: fast, no bound on the cost.
pub const NAVSTAR_SEARCH_GREEDY: u32 = 2;
/// `NavstarPathOptions::strategy`: breadth-first: fewest polygon steps, no bound on the
/// cost.
pub const NAVSTAR_SEARCH_BREADTH_FIRST: u32 = 3;
/// `NavstarPathOptions::strategy`: depth-first: some corridor, no bound on the cost.
pub const NAVSTAR_SEARCH_DEPTH_FIRST: u32 = 4;

/// `NavstarPathOptions::mode`: A* corridor + funnel, fast and near-shortest; honours
/// area costs and off-mesh links.
pub const NAVSTAR_PATH_FUNNEL: u32 = 0;
/// `NavstarPathOptions::mode`: the exact shortest path in the ground plane over the
/// polygons the filter admits (any-angle interval search; chosen by Euclidean length:
/// area costs, off-mesh links, `strategy` and `heuristic_weight` ignored, though the
/// reported cost is under the filter's area costs; when only a link leads to the goal,
/// the answer is `NAVSTAR_PATH_FUNNEL`'s).
pub const NAVSTAR_PATH_OPTIMAL: u32 = 1;
/// `NavstarPathOptions::mode`, the default: `NAVSTAR_PATH_OPTIMAL` wherever it answers
/// what was asked (all area costs of the filter equal, no off-mesh link attached, A*
/// with heuristic weight 1, `split_at_area_changes` 0: the exact shortest path, faster
/// than the funnel's on grid maps, slower on Recast triangle levels: see BENCHMARKS.md),
/// `NAVSTAR_PATH_FUNNEL` otherwise.
/// `navstar_query_find_nearest_target` runs the funnel mode's one search.
pub const NAVSTAR_PATH_AUTO: u32 = 2;

/// Options for `navstar_mesh_create`. Get defaults from `navstar_mesh_options_default()`
/// and change the fields you need; pass NULL for all defaults.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NavstarMeshOptions {
    /// `sizeof(NavstarMeshOptions)` as the caller was compiled; set by the default
    /// constructor. Lets newer libraries accept structs from older headers.
    pub struct_size: u32,
    /// `NAVSTAR_UP_Y` (default) or `NAVSTAR_UP_Z`.
    pub up_axis: u32,
    /// Non-zero (default 1): merge vertices within `weld_distance` before finding shared
    /// edges. Needed for meshes exported with one vertex per face corner.
    pub weld_vertices: u32,
    /// Largest distance, in world units, at which vertices are merged (default 0: only
    /// vertices at exactly the same position). Finite and >= 0.
    pub weld_distance: f32,
    /// Non-zero: accept degenerate connectors, triangles of zero area (three corners on
    /// one line, two of them possibly at one position) that join the polygons along
    /// their edges as a walkable line. Default 0: such a triangle is
    /// `NAVSTAR_ERROR_INVALID_MESH`. Added after the first version: a struct of the older
    /// size gets the default.
    pub allow_degenerate_connectors: u32,
    /// The radius of the agent the mesh was baked for, in world units (default 0).
    /// Finite and >= 0. A path query's `agent_radius` is the agent's whole radius: the
    /// mesh is eroded by what it exceeds this one by. Added in the third version: a
    /// struct of an older size gets the default.
    pub agent_radius: f32,
}

/// Options for `navstar_query_create_ex`. Get defaults from
/// `navstar_query_options_default()` and change the fields you need; pass NULL for all
/// defaults.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NavstarQueryOptions {
    /// `sizeof(NavstarQueryOptions)` as the caller was compiled; set by the default
    /// constructor.
    pub struct_size: u32,
    /// The most search nodes each search of the query may touch (Detour's `maxNodes`);
    /// 0 (default) for no limit. A search stopped by the limit answers with what it
    /// found: a path call returns `NAVSTAR_PARTIAL_NODE_LIMIT` with the path to the
    /// reached point closest to the goal (the goal may be reachable), the reachable
    /// polygons call returns `NAVSTAR_PARTIAL_NODE_LIMIT` with the polygons found so far,
    /// and the nearest-target call chooses among the goals reached before the limit.
    /// The query's memory grows on demand up to what the limit allows; nothing is
    /// allocated for it at creation, so any value (`UINT32_MAX` included) is accepted.
    pub max_nodes: u32,
}

/// The defaults: no node limit.
impl Default for NavstarQueryOptions {
    fn default() -> Self {
        NavstarQueryOptions {
            struct_size: size_of::<NavstarQueryOptions>() as u32,
            max_nodes: 0,
        }
    }
}

// SAFETY: #[repr(C)], starts with `struct_size: u32`, and made of u32 only.
unsafe impl Versioned for NavstarQueryOptions {
    /// The first version is the current one.
    const OLDER_SIZES: &'static [usize] = &[];
    const DEFAULT_FUNCTION: &'static str = "navstar_query_options_default";
}

impl NavstarQueryOptions {
    /// Reads an optional options argument (NULL = defaults): the node limit for
    /// [`Query::with_max_nodes`].
    pub(crate) fn read_max_nodes(ptr: *const NavstarQueryOptions) -> Result<usize, FfiError> {
        let options = read_versioned(ptr, "options")?;
        Ok(match options.max_nodes {
            0 => Query::DEFAULT_MAX_NODES,
            limit => limit as usize,
        })
    }
}

/// Options for `navstar_find_path`. Get defaults from `navstar_path_options_default()`
/// and change the fields you need; pass NULL for all defaults.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NavstarPathOptions {
    /// `sizeof(NavstarPathOptions)` as the caller was compiled; set by the default
    /// constructor.
    pub struct_size: u32,
    /// The corridor search: `NAVSTAR_SEARCH_ASTAR` (default), `NAVSTAR_SEARCH_DIJKSTRA`,
    /// `NAVSTAR_SEARCH_GREEDY`, `NAVSTAR_SEARCH_BREADTH_FIRST` or
    /// `NAVSTAR_SEARCH_DEPTH_FIRST`.
    pub strategy: u32,
    /// Multiplies the A* heuristic (default 1). Finite and >= 0; above 1 is faster and
    /// may give longer paths.
    pub heuristic_weight: f32,
    /// How far (3D, world units) start and goal may be from the mesh before the call
    /// fails with `NAVSTAR_ERROR_NOT_ON_MESH`. Default `INFINITY` (snap from anywhere).
    pub max_snap_distance: f32,
    /// Non-zero (default 1): an unreachable goal gives `NAVSTAR_PARTIAL_PATH` to the
    /// reachable point closest to it; zero: it gives `NAVSTAR_ERROR_NO_PATH`.
    pub allow_partial: u32,
    /// `NAVSTAR_PATH_AUTO` (default), `NAVSTAR_PATH_FUNNEL` or `NAVSTAR_PATH_OPTIMAL`.
    /// Added after the first version: a struct of the older size (without it) gets the
    /// default.
    pub mode: u32,
    /// The query filter (which polygons and links may be used, area costs), or NULL
    /// (default) for `navstar_query_filter_default()`. Read during the call only.
    pub filter: *const NavstarQueryFilter,
    /// Non-zero: add a corner (flagged `NAVSTAR_CORNER_AREA_CHANGE`) wherever the path
    /// passes into a polygon of another area. Default 0.
    pub split_at_area_changes: u32,
    /// The radius of the agent, a disc in the ground plane, in world units (default 0:
    /// a point). Finite and >= 0. Above the mesh's baked radius the path keeps at least
    /// this distance from every wall (and from polygons the filter refuses), start and
    /// goal move to the nearest point where the disc fits, and the goal counts as
    /// reachable exactly when the disc can get there; the first query for a radius and
    /// filter builds the mesh's eroded copy for them (kept for later queries). Off-mesh
    /// links are not taken. Added in the fourth version (with `reserved`): a struct of
    /// an older size gets the default.
    pub agent_radius: f32,
    /// Must be 0 (room for a later option).
    pub reserved: u32,
}

/// The defaults, matching [`MeshOptions::default`].
impl Default for NavstarMeshOptions {
    fn default() -> Self {
        let d = MeshOptions::default();
        NavstarMeshOptions {
            struct_size: size_of::<NavstarMeshOptions>() as u32,
            up_axis: NAVSTAR_UP_Y,
            weld_vertices: u32::from(d.weld_vertices),
            weld_distance: d.weld_distance,
            allow_degenerate_connectors: u32::from(d.allow_degenerate_connectors),
            agent_radius: d.agent_radius,
        }
    }
}

// SAFETY: #[repr(C)], starts with `struct_size: u32`, and made of u32/f32 only.
unsafe impl Versioned for NavstarMeshOptions {
    /// The first version, before `allow_degenerate_connectors`; the second, before
    /// `agent_radius`.
    const OLDER_SIZES: &'static [usize] = &[16, 20];
    const DEFAULT_FUNCTION: &'static str = "navstar_mesh_options_default";
}

impl NavstarMeshOptions {
    /// Reads an optional options argument (NULL = defaults) into Rust options.
    pub(crate) fn read(ptr: *const NavstarMeshOptions) -> Result<MeshOptions, FfiError> {
        read_versioned(ptr, "options")?.to_rust()
    }

    /// Converts to the Rust options, rejecting out-of-range values by name.
    fn to_rust(self) -> Result<MeshOptions, FfiError> {
        let up_axis = match self.up_axis {
            NAVSTAR_UP_Y => UpAxis::Y,
            NAVSTAR_UP_Z => UpAxis::Z,
            other => {
                return Err(FfiError::invalid(format!(
                    "options->up_axis is {other}; expected NAVSTAR_UP_Y (0) or NAVSTAR_UP_Z (1)"
                )));
            }
        };
        Ok(MeshOptions {
            up_axis,
            weld_vertices: self.weld_vertices != 0,
            weld_distance: self.weld_distance,
            allow_degenerate_connectors: self.allow_degenerate_connectors != 0,
            agent_radius: self.agent_radius,
        })
    }
}

// SAFETY: the only pointer field, `filter`, is read (never written) during a call by the
// caller's own thread; sharing or sending the struct shares the address only, like
// sharing a `&NavstarQueryFilter`, whose target is plain old data.
unsafe impl Send for NavstarPathOptions {}
// SAFETY: as above.
unsafe impl Sync for NavstarPathOptions {}

/// The defaults, matching [`PathOptions::default`].
impl Default for NavstarPathOptions {
    fn default() -> Self {
        let d = PathOptions::default();
        NavstarPathOptions {
            struct_size: size_of::<NavstarPathOptions>() as u32,
            strategy: NAVSTAR_SEARCH_ASTAR,
            heuristic_weight: d.heuristic_weight,
            max_snap_distance: d.max_snap_distance,
            allow_partial: u32::from(d.allow_partial),
            mode: NAVSTAR_PATH_AUTO,
            filter: std::ptr::null(),
            split_at_area_changes: 0,
            agent_radius: d.agent_radius,
            reserved: 0,
        }
    }
}

/// The size of the third version of [`NavstarPathOptions`] (up to
/// `split_at_area_changes`, padded to the pointer's alignment) on 64-bit targets.
const PADDED_THIRD_VERSION: usize = 40;

// SAFETY: #[repr(C)], starts with `struct_size: u32`, and made of u32/f32 and a raw
// pointer, for which any bits are a valid value.
unsafe impl Versioned for NavstarPathOptions {
    /// Up to `allow_partial` (the first version), then with `mode`, then with the
    /// filter and `split_at_area_changes` (40 bytes with the padding after them, which
    /// is why `agent_radius` came with `reserved`).
    const OLDER_SIZES: &'static [usize] = &[20, 24, PADDED_THIRD_VERSION];
    const DEFAULT_FUNCTION: &'static str = "navstar_path_options_default";
}

impl NavstarPathOptions {
    /// Reads an optional options argument (NULL = defaults) into Rust options; its
    /// `filter` is read too (NULL = the default filter).
    pub(crate) fn read(ptr: *const NavstarPathOptions) -> Result<PathOptions, FfiError> {
        let mut options = read_versioned(ptr, "options")?;
        if options.struct_size as usize <= PADDED_THIRD_VERSION {
            // The third version's last 4 bytes were padding, where `agent_radius` now
            // lies: whatever the caller's compiler left there is not a radius.
            let defaults = NavstarPathOptions::default();
            options.agent_radius = defaults.agent_radius;
            options.reserved = defaults.reserved;
        }
        options.to_rust()
    }

    /// Converts to the Rust options, rejecting out-of-range values by name.
    fn to_rust(self) -> Result<PathOptions, FfiError> {
        let strategy = match self.strategy {
            NAVSTAR_SEARCH_ASTAR => SearchStrategy::AStar,
            NAVSTAR_SEARCH_DIJKSTRA => SearchStrategy::Dijkstra,
            NAVSTAR_SEARCH_GREEDY => SearchStrategy::GreedyBestFirst,
            NAVSTAR_SEARCH_BREADTH_FIRST => SearchStrategy::BreadthFirst,
            NAVSTAR_SEARCH_DEPTH_FIRST => SearchStrategy::DepthFirst,
            other => {
                return Err(FfiError::invalid(format!(
                    "options->strategy is {other}; expected NAVSTAR_SEARCH_ASTAR (0) to NAVSTAR_SEARCH_DEPTH_FIRST (4)"
                )));
            }
        };
        if self.reserved != 0 {
            return Err(FfiError::invalid(format!(
                "options->reserved is {}; it must be 0",
                self.reserved
            )));
        }
        if !(self.agent_radius.is_finite() && self.agent_radius >= 0.0) {
            return Err(FfiError::invalid(format!(
                "options->agent_radius is {}; it must be finite and >= 0",
                self.agent_radius
            )));
        }
        let mode = match self.mode {
            NAVSTAR_PATH_FUNNEL => PathMode::Funnel,
            NAVSTAR_PATH_OPTIMAL => PathMode::Optimal,
            NAVSTAR_PATH_AUTO => PathMode::Auto,
            other => {
                return Err(FfiError::invalid(format!(
                    "options->mode is {other}; expected NAVSTAR_PATH_FUNNEL (0), NAVSTAR_PATH_OPTIMAL (1) or NAVSTAR_PATH_AUTO (2)"
                )));
            }
        };
        Ok(PathOptions {
            mode,
            strategy,
            heuristic_weight: self.heuristic_weight,
            max_snap_distance: self.max_snap_distance,
            allow_partial: self.allow_partial != 0,
            filter: read_filter(self.filter, "options->filter")?,
            split_at_area_changes: self.split_at_area_changes != 0,
            agent_radius: self.agent_radius,
        })
    }
}
