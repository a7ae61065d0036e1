//! Every `*_default()` function of the C ABI: a caller starts each struct from one of
//! these and changes the fields it needs. The values are the structs' `Default`
//! implementations, written beside each struct to match the Rust API's defaults.

use super::filter::NavstarQueryFilter;
use super::mesh_input::{NavstarMeshInput, NavstarOffMeshLink};
use super::options::{NavstarMeshOptions, NavstarPathOptions, NavstarQueryOptions};
use super::world::NavstarWorldOptions;

/// Default mesh options: Y up, welding of exactly coincident vertices.
#[unsafe(no_mangle)]
pub extern "C" fn navstar_mesh_options_default() -> NavstarMeshOptions {
    NavstarMeshOptions::default()
}

/// Default path options: A*, heuristic weight 1, unlimited snapping, partial paths
/// allowed.
#[unsafe(no_mangle)]
pub extern "C" fn navstar_path_options_default() -> NavstarPathOptions {
    NavstarPathOptions::default()
}

/// Default query options: no node limit.
#[unsafe(no_mangle)]
pub extern "C" fn navstar_query_options_default() -> NavstarQueryOptions {
    NavstarQueryOptions::default()
}

/// Default query filter: every area costs 1; polygons and links with any flag set are
/// usable.
#[unsafe(no_mangle)]
pub extern "C" fn navstar_query_filter_default() -> NavstarQueryFilter {
    NavstarQueryFilter::default()
}

/// A link with the defaults: two-way, cost = distance, area 0, flags 1, radius 1, both
/// ends at the origin.
#[unsafe(no_mangle)]
pub extern "C" fn navstar_off_mesh_link_default() -> NavstarOffMeshLink {
    NavstarOffMeshLink::default()
}

/// An empty mesh input (all counts 0, all pointers NULL) with its `struct_size` set.
#[unsafe(no_mangle)]
pub extern "C" fn navstar_mesh_input_default() -> NavstarMeshInput {
    NavstarMeshInput::default()
}

/// Default world options: Y up, room for 1024 tiles, seam tolerance 0.001, climb 0.25.
#[unsafe(no_mangle)]
pub extern "C" fn navstar_world_options_default() -> NavstarWorldOptions {
    NavstarWorldOptions::default()
}
