//! Fuzzes the Wavefront OBJ loader (`navstar::io::parse_obj_bytes`) with arbitrary bytes.
//!
//! Checks: no panic; the same result when the streaming parser is fed a few bytes at a
//! time; parse errors name an existing line; an accepted soup has polygons of at least 3
//! corners, indices in range and no fixed up axis; building it with the Rust loader and
//! through `navstar_mesh_create` agrees; queries on the mesh are valid; and the C loader
//! (`navstar_mesh_load_bytes`) answers as the Rust loader (`navstar_fuzz::loaders`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use navstar::ffi::NAVSTAR_FORMAT_OBJ;
use navstar::io::{parse_obj, parse_obj_bytes};
use navstar_fuzz::loaders::check_load_bytes;
use navstar_fuzz::{
    MeshOpts, build_and_query, check_parse_result, check_soup, parse_in_pieces, picks,
};

fuzz_target!(|data: &[u8]| {
    let parsed = parse_obj_bytes(data);
    check_parse_result(data, &parsed, &parse_in_pieces(data, parse_obj));
    if let Ok(soup) = parsed {
        check_soup(&soup, None);
        build_and_query(soup, picks(data));
    }
    check_load_bytes(data, NAVSTAR_FORMAT_OBJ, &MeshOpts::Null);
});
