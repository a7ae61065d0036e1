//! The C ABI: a thin skin over the Rust API, from which cbindgen generates
//! `include/navstar.h`. It turns C arguments into Rust values, calls the Rust API, and
//! turns the answer back into statuses, messages and the caller's output buffers; it
//! decides nothing about meshes or paths itself. It uses only what the crate root
//! re-exports (`crate::NavMesh`, `crate::Query`, the option and error types, ...).
//!
//! Rules every function here keeps (see also `../shared/API.md` in the project):
//! * No panic crosses the boundary: each body runs inside `boundary::run`.
//! * Every fallible function returns a [`NavstarStatus`]; errors also set a thread-local
//!   message readable with [`navstar_last_error_message`].
//! * No pointer passed in by the caller is kept after the call returns.
//! * A [`NavstarMesh`] may be used by any number of threads at once; a [`NavstarQuery`]
//!   by one thread at a time; a [`NavstarWorld`] by any number of threads (its changes
//!   are made one at a time, its snapshots taken without waiting).
//!
//! The plumbing: `boundary` (the panic net, errors, reading the caller's memory and
//! writing outputs) and `handle` (typed ownership of the opaque handles). The files with
//! exports are declared in the order of the generated header, which follows it.

mod boundary;
mod handle;

mod status;

mod defaults;

mod filter;

mod mesh;

mod query;

mod mesh_input;

mod options;

mod queries;

mod sliced;
// The landmark table: built at load time, used or not per query.
mod landmarks;
// The exact mode's fast lane: built at load time, used or not per query.
mod fast_lane;
// A world's fast-lane index, built on request.
mod world_fast_lane;

mod spatial;

mod clearance;

mod agents;

mod agent_moves;

mod corridor;

mod world;

mod obstacles;

mod saved;

mod load;

mod readback;

pub use agent_moves::{
    navstar_mesh_move_along_surface_for_agent, navstar_mesh_random_point_for_agent,
    navstar_query_distance_to_wall_for_agent, navstar_query_random_point_around_for_agent,
};
pub use agents::{
    NAVSTAR_MAX_SURFACE_LEGS, NavstarSurfaceMove, NavstarWallDistance,
    navstar_mesh_move_along_surface, navstar_mesh_random_point, navstar_query_distance_to_wall,
    navstar_query_random_point_around,
};
pub use clearance::{navstar_mesh_nearest_point_for_agent, navstar_mesh_raycast_for_agent};
pub use corridor::{
    NAVSTAR_REPAIR_CUT_OFF, NAVSTAR_REPAIR_REPAIRED, NAVSTAR_REPAIR_VALID,
    navstar_corridor_corners, navstar_corridor_create, navstar_corridor_create_from_query,
    navstar_corridor_free, navstar_corridor_is_valid, navstar_corridor_move_position,
    navstar_corridor_move_target, navstar_corridor_optimize, navstar_corridor_polygons,
    navstar_corridor_position, navstar_corridor_repair, navstar_corridor_set_agent_radius,
};
pub use defaults::{
    navstar_mesh_input_default, navstar_mesh_options_default, navstar_off_mesh_link_default,
    navstar_path_options_default, navstar_query_filter_default, navstar_query_options_default,
    navstar_world_options_default,
};
pub use fast_lane::{navstar_mesh_prepare_fast_lane, navstar_query_set_fast_lane};
pub use filter::{NAVSTAR_MAX_AREAS, NavstarQueryFilter};
pub use handle::{NavstarCorridor, NavstarMesh, NavstarQuery, NavstarWorld};
pub use landmarks::{
    NAVSTAR_LANDMARKS_BY_SIZE, NAVSTAR_LANDMARKS_OFF, NAVSTAR_LANDMARKS_ON,
    navstar_mesh_prepare_landmarks, navstar_query_set_landmarks, navstar_world_prepare_landmarks,
};
pub use load::{
    NAVSTAR_FORMAT_AUTO, NAVSTAR_FORMAT_DETOUR, NAVSTAR_FORMAT_MOVINGAI_MAP,
    NAVSTAR_FORMAT_NAVSTAR, NAVSTAR_FORMAT_OBJ, NAVSTAR_FORMAT_POLYANYA_MESH, navstar_mesh_load,
    navstar_mesh_load_bytes,
};
pub use mesh::{
    navstar_mesh_create, navstar_mesh_create_from_grid, navstar_mesh_free,
    navstar_mesh_polygon_count, navstar_mesh_vertex_count,
};
pub use mesh_input::{
    NAVSTAR_LINK_COST_DISTANCE, NavstarMeshInput, NavstarOffMeshLink, navstar_mesh_create_ex,
    navstar_mesh_link_count, navstar_mesh_polygon_info, navstar_mesh_set_link_flags,
    navstar_mesh_set_polygon_flags,
};
pub use obstacles::{
    NAVSTAR_OBSTACLE_BOX, NAVSTAR_OBSTACLE_CIRCLE, NAVSTAR_OBSTACLE_POLYGON, NavstarObstacle,
    NavstarObstacleRef, navstar_obstacle_default, navstar_world_add_obstacle,
    navstar_world_move_obstacle, navstar_world_obstacle_count, navstar_world_remove_obstacle,
};
pub use options::{
    NAVSTAR_PATH_AUTO, NAVSTAR_PATH_FUNNEL, NAVSTAR_PATH_OPTIMAL, NAVSTAR_SEARCH_ASTAR,
    NAVSTAR_SEARCH_BREADTH_FIRST, NAVSTAR_SEARCH_DEPTH_FIRST, NAVSTAR_SEARCH_DIJKSTRA,
    NAVSTAR_SEARCH_GREEDY, NAVSTAR_UP_Y, NAVSTAR_UP_Z, NavstarMeshOptions, NavstarPathOptions,
    NavstarQueryOptions,
};
pub use queries::{
    NAVSTAR_CORNER_AREA_CHANGE, NAVSTAR_CORNER_END, NAVSTAR_CORNER_LINK_END,
    NAVSTAR_CORNER_LINK_START, NAVSTAR_CORNER_START, NAVSTAR_NO_LINK, NAVSTAR_NO_POLYGON,
    NavstarCornerDetail, NavstarPathArc, NavstarPathInfo, NavstarReachedPolygon,
    navstar_find_nearest_target, navstar_query_path_arcs, navstar_query_path_corridor,
    navstar_query_path_details, navstar_query_path_info, navstar_query_reachable_polygons,
};
pub use query::{
    navstar_find_path, navstar_query_create, navstar_query_create_ex, navstar_query_free,
    navstar_query_nodes_expanded, navstar_query_scratch_bytes,
};
pub use readback::{
    navstar_mesh_bounds, navstar_mesh_island_count, navstar_mesh_polygon_areas,
    navstar_mesh_polygon_corners, navstar_mesh_polygon_flags, navstar_mesh_polygon_islands,
    navstar_mesh_polygon_neighbours, navstar_mesh_polygon_points, navstar_mesh_polygon_sizes,
    navstar_mesh_vertices,
};
pub use saved::{
    NAVSTAR_FORMAT_VERSION, navstar_mesh_load_navstar, navstar_mesh_load_navstar_bytes,
    navstar_mesh_save, navstar_world_load, navstar_world_load_bytes, navstar_world_save,
};
pub use sliced::{
    NAVSTAR_SLICE_DONE, NAVSTAR_SLICE_IN_PROGRESS, NavstarSliceProgress,
    navstar_query_advance_path, navstar_query_begin_path, navstar_query_cancel_path,
    navstar_query_finish_path,
};
pub use spatial::{
    NavstarRaycastHit, navstar_mesh_interpolate, navstar_mesh_nearest_point, navstar_mesh_raycast,
};
pub use status::{NavstarStatus, navstar_last_error_message, navstar_status_name, navstar_version};
pub use world::{
    NavstarTileRef, NavstarWorldOptions, navstar_mesh_polygon_ids, navstar_mesh_polygon_ref,
    navstar_mesh_resolve_polygon_ref, navstar_world_add_mesh_tiles, navstar_world_add_tile,
    navstar_world_create, navstar_world_free, navstar_world_remove_tile,
    navstar_world_replace_tile, navstar_world_snapshot, navstar_world_tile_count,
    navstar_world_tiles,
};
pub use world_fast_lane::navstar_world_prepare_fast_lane;
