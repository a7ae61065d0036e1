//! Making meshes: the builder's validation of polygon input (every rejection names its
//! culprit, welding connects what it should) and the file loaders through the public
//! API (Polyanya meshes of versions 2 and 3, OBJ levels, Moving AI grid maps and
//! scenarios): real files of the shared data set, hand-made ones, parse errors with their
//! line numbers, and byte parsers that never panic; the binary formats of a mesh and of a
//! world of tiles.
//!
//! The data files are read from `../shared/data` (see its README); none is copied into the
//! repository. Run with `--nocapture` to see polygon counts and timings per map.

mod binary;
mod binary_lane;
#[path = "../common/mod.rs"]
mod common;
mod cut;
mod cut_world;
mod movingai;
mod never_panic;
mod obj;
mod polyanya;
mod validation;
mod world_file;

use navstar::NavMesh;
use navstar::io::LoadError;

/// The Polyanya meshes of the shared data set (their `tests/` folder holds small ones).
const MESH_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/mesh");
/// The Moving AI grid maps and their scenarios.
const GRID_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/grid");
/// The OBJ levels.
const OBJ_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/obj");

/// A small Polyanya version 3 mesh: a square of four triangles round its centre.
const SMALL_V3: &str = "mesh\n3\n5 4\n0 0\n0 10\n10 10\n10 0\n5 5\n\
    0 3 4 1 5 -4 0 -2\n1 3 1 2 5 -1 0 3\n1 3 2 3 5 2 0 4\n1 3 3 4 5 3 0 -1\n";

/// Asserts a parse error at `line` whose message contains `needle`.
#[track_caller]
fn assert_parse_error<T: std::fmt::Debug>(result: Result<T, LoadError>, line: u64, needle: &str) {
    match result {
        Err(LoadError::Parse { line: got, message }) => {
            assert_eq!(got, line, "wrong line for: {message}");
            assert!(
                message.contains(needle),
                "message {message:?} lacks {needle:?}"
            );
        }
        other => panic!("expected a parse error at line {line}, got {other:?}"),
    }
}

/// Twice the area of every polygon, summed, computed exactly: grid meshes have integer
/// coordinates.
fn doubled_area(mesh: &NavMesh) -> i64 {
    let vertices = mesh.vertices();
    (0..mesh.polygon_count())
        .map(|p| {
            let corners = mesh.polygon_vertices(p);
            (0..corners.len())
                .map(|i| {
                    let a = vertices[corners[i] as usize];
                    let b = vertices[corners[(i + 1) % corners.len()] as usize];
                    for c in [a.x, a.y, b.x, b.y] {
                        assert_eq!(c.fract(), 0.0, "grid vertex off the integer lattice");
                    }
                    a.x as i64 * b.y as i64 - b.x as i64 * a.y as i64
                })
                .sum::<i64>()
        })
        .inspect(|&area| assert!(area > 0, "polygon not counter-clockwise"))
        .sum()
}
