//! Shared pieces of the navstar fuzz targets.
//!
//! * [`typed`]: fuzz input ([`Coord`], [`SmallU32`], [`MeshOpts`], [`PathOpts`]) that hits
//!   the interesting values (NaN, infinities, extremes, denormals, bad `struct_size`s)
//!   often.
//! * [`boundary`]: thin, contract-keeping wrappers over the C ABI ([`c_mesh_create`],
//!   [`CQuery`], [`c_find_path`]) that check what every call promises: a known status,
//!   never `NAVSTAR_ERROR_INTERNAL`, an empty message after success and a message naming
//!   the function after an error, `*out_mesh` NULL after an error, nothing written past
//!   `capacity` and nothing at all on error.
//! * [`path_check`]: [`check_answer`], an independent checker of a path answer against
//!   the documented invariants (validation order, snapping, first and last point,
//!   partial paths, segments on the walkable mesh), used by every target that runs
//!   queries.
//!
//! * [`grid`]: valid meshes by construction; [`input`]: meshes with areas, flags and
//!   links, filters and path options with a filter; [`buffers`]: guarded output arrays;
//!   [`calls`]: wrappers over the query entry points added after the first ones;
//!   [`readback`] and [`searches`]: C-versus-Rust comparisons and checks of the path
//!   read-back functions, reachable polygons and nearest targets; [`saved`]: the binary
//!   format's save and load functions against the Rust API; [`world`]: worlds of tiles
//!   through the C ABI; [`loaders`]: the C loaders of every format against the Rust
//!   loaders; [`mesh_readback`]: the mesh read-back functions against the Rust accessors.
//!
//! Every check panics on failure, which libFuzzer reports as a crash.

pub mod agent_calls;
pub mod agent_moves;
mod boundary;
pub mod buffers;
pub mod calls;
pub mod grid;
pub mod input;
pub mod loaders;
pub mod mesh_readback;
mod path_check;
pub mod radius;
pub mod readback;
pub mod saved;
pub mod searches;
mod typed;
pub mod world;

pub use buffers::{ListAnswer, ListBuffers, call_list};
pub use grid::{Arrays, GridSpec};
pub use input::{COptions, FilterIn, MeshOps, MeshSpec, QueryOpts};
use navstar::ffi::{NavstarStatus, navstar_mesh_options_default};
use navstar::io::{LoadError, PolygonSoup};
use navstar::{MeshOptions, UpAxis};

pub use NavstarStatus::{
    NavstarBufferTooSmall as BUFFER_TOO_SMALL, NavstarErrorInternal as INTERNAL,
    NavstarErrorInvalidArgument as INVALID_ARGUMENT, NavstarErrorInvalidMesh as INVALID_MESH,
    NavstarErrorNoPath as NO_PATH, NavstarErrorNotOnMesh as NOT_ON_MESH,
    NavstarErrorNullArgument as NULL_ARGUMENT, NavstarErrorOutOfMemory as OUT_OF_MEMORY,
    NavstarOk as OK, NavstarPartialNodeLimit as PARTIAL_NODE_LIMIT,
    NavstarPartialPath as PARTIAL_PATH,
};

pub use boundary::*;
pub use path_check::*;
pub use typed::*;

// ---------------------------------------------------------------------------------------
// Loaders
// ---------------------------------------------------------------------------------------

/// A saved file (navstar's container: a 32-byte header, then the payload) damaged by up
/// to 8 `(position, xor mask)` flips, with the payload's checksum recomputed when
/// `reseal`; and whether the payload changed.
pub fn damage(saved: &[u8], flips: &[(u32, u8)], reseal: bool) -> (Vec<u8>, bool) {
    let mut bytes = saved.to_vec();
    for &(at, mask) in flips.iter().take(8) {
        let len = bytes.len();
        bytes[at as usize % len] ^= mask;
    }
    let changed_payload = bytes[32..] != saved[32..];
    if reseal {
        let crc = crc32fast::hash(&bytes[32..]);
        bytes[24..28].copy_from_slice(&crc.to_le_bytes());
    }
    (bytes, changed_payload)
}

/// Parses `data` with a streaming parser through a reader that hands out at most a few
/// bytes at a time, so that tokens and lines straddle buffer boundaries.
pub fn parse_in_pieces<'a, T>(
    data: &'a [u8],
    parse: impl FnOnce(std::io::BufReader<&'a [u8]>) -> Result<T, LoadError>,
) -> Result<T, LoadError> {
    let piece = 1 + data.len() % 7;
    parse(std::io::BufReader::with_capacity(piece, data))
}

/// Checks a parse result that came from bytes: the same as the streaming parse in small
/// pieces (compared by `Debug` text, so NaN coordinates compare equal), never an I/O
/// error, and a parse error names a line that exists.
pub fn check_parse_result<T: std::fmt::Debug>(
    data: &[u8],
    bytes: &Result<T, LoadError>,
    pieces: &Result<T, LoadError>,
) {
    assert_eq!(
        format!("{bytes:?}"),
        format!("{pieces:?}"),
        "parsing in small pieces gave another result"
    );
    match bytes {
        Ok(_) => {}
        Err(LoadError::Parse { line, message }) => {
            let breaks = data.iter().filter(|&&b| b == b'\n' || b == b'\r').count() as u64;
            assert!(
                *line >= 1 && *line <= breaks + 1,
                "parse error at line {line} of a text with {breaks} line breaks: {message}"
            );
            assert!(!message.is_empty());
        }
        Err(e) => panic!("a bytes parser gave {e:?}"),
    }
}

/// Checks what every parser guarantees of a polygon soup: polygons of at least 3
/// corners, sizes that add up to the index count, indices in range, `source_polygons`
/// empty or one increasing file position per polygon, and the format's fixed up axis
/// (2D formats: Z up with z = 0).
pub fn check_soup(soup: &PolygonSoup, up_axis: Option<UpAxis>) {
    assert!(soup.polygon_sizes.iter().all(|&s| s >= 3));
    let total: u64 = soup.polygon_sizes.iter().map(|&s| u64::from(s)).sum();
    assert_eq!(total, soup.indices.len() as u64);
    assert!(
        soup.indices
            .iter()
            .all(|&i| (i as usize) < soup.vertices.len())
    );
    assert_eq!(soup.polygons().count(), soup.polygon_sizes.len());
    if !soup.source_polygons.is_empty() {
        assert_eq!(soup.source_polygons.len(), soup.polygon_sizes.len());
        assert!(soup.source_polygons.windows(2).all(|w| w[0] < w[1]));
    }
    assert_eq!(soup.up_axis, up_axis);
    if up_axis == Some(UpAxis::Z) {
        assert!(soup.vertices.iter().all(|v| v.z == 0.0));
    }
}

/// Builds a parsed soup with the Rust loader path ([`PolygonSoup::into_mesh`]) and with
/// the C ABI from the same arrays, checks that they agree (status and polygon count),
/// and runs a few checked queries on the mesh. `picks` chooses the query points.
pub fn build_and_query(soup: PolygonSoup, picks: &[u8]) {
    let up = soup.up_axis.unwrap_or(UpAxis::Y);
    let floats: Vec<f32> = soup.vertices.iter().flat_map(|v| v.to_array()).collect();
    let mut c_options = navstar_mesh_options_default();
    c_options.up_axis = match up {
        UpAxis::Y => navstar::ffi::NAVSTAR_UP_Y,
        UpAxis::Z => navstar::ffi::NAVSTAR_UP_Z,
    };
    let (status, cmesh) = c_mesh_create(
        Some(&floats),
        soup.vertices.len() as u32,
        Some(&soup.indices),
        Some(&soup.polygon_sizes),
        soup.polygon_sizes.len() as u32,
        Some(&c_options),
    );
    let polygons = soup.polygon_sizes.len() as u32;
    match soup.into_mesh(&MeshOptions::default()) {
        Ok(mesh) => {
            assert_eq!(status, OK, "{}", last_error());
            assert_eq!(mesh.polygon_count(), polygons);
            assert_eq!(cmesh.unwrap().polygon_count(), polygons);
            assert_eq!(mesh.up_axis(), up);
            run_queries(&mesh, picks);
        }
        Err(LoadError::Mesh(e)) => assert_eq!(status, mesh_status(&e), "{e}"),
        Err(e) => panic!("into_mesh gave {e:?}"),
    }
}

/// The last 32 bytes of `data` (or all of it): the query picks of the loader targets.
pub fn picks(data: &[u8]) -> &[u8] {
    &data[data.len().saturating_sub(32)..]
}
