//! Fuzzes the Polyanya `.mesh` loader, versions 2 and 3
//! (`navstar::io::parse_polyanya_mesh_bytes`), with arbitrary bytes.
//!
//! Checks: no panic; the same result when the streaming parser is fed a few bytes at a
//! time; parse errors name an existing line; an accepted soup has polygons of at least 3
//! corners, indices in range, increasing source positions (version 3) and is Z-up with
//! z = 0; building it with the Rust loader and through `navstar_mesh_create` agrees; and
//! queries on the mesh are valid; and the C loader (`navstar_mesh_load_bytes`) answers as
//! the Rust loader (`navstar_fuzz::loaders`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use navstar::UpAxis;
use navstar::ffi::NAVSTAR_FORMAT_POLYANYA_MESH;
use navstar::io::{parse_polyanya_mesh, parse_polyanya_mesh_bytes};
use navstar_fuzz::loaders::check_load_bytes;
use navstar_fuzz::{
    MeshOpts, build_and_query, check_parse_result, check_soup, parse_in_pieces, picks,
};

fuzz_target!(|data: &[u8]| {
    let parsed = parse_polyanya_mesh_bytes(data);
    check_parse_result(data, &parsed, &parse_in_pieces(data, parse_polyanya_mesh));
    if let Ok(soup) = parsed {
        check_soup(&soup, Some(UpAxis::Z));
        build_and_query(soup, picks(data));
    }
    check_load_bytes(data, NAVSTAR_FORMAT_POLYANYA_MESH, &MeshOpts::Null);
});
