//! OBJ levels: hand-made files in every corner form, the up axis from the options, the
//! shared data set's levels, faces the builder refuses, and parse errors with their line
//! numbers.

use std::fs;
use std::io::BufReader;
use std::path::Path;

use navstar::glam::Vec3;
use navstar::io::{LoadError, MeshFormat, load_mesh, parse_obj, parse_obj_bytes};
use navstar::{MeshError, MeshOptions, UpAxis};

use crate::{OBJ_DIR, assert_parse_error};

// ---------------------------------------------------------------------------------------
// OBJ
// ---------------------------------------------------------------------------------------

/// Two quads and a triangle on the y = 0 floor, in every corner form, with negative
/// indices, CRLF lines, comments and records that are skipped.
pub(crate) const FLOOR_OBJ: &str = "# a floor\r\n\
mtllib floor.mtl\n\
o floor\n\
v 0 0 0\n\
v 1 0 0 1.0\n\
v 1 0 1\r\n\
v 0 0 1\n\
vt 0 0\n\
vn 0 1 0\n\
g left\n\
usemtl stone\n\
s off\n\
f 1/1 2/1 3/1 4/1 # quad, v/vt\n\
\n\
v 2 0 0\n\
v 2 0 1\n\
f -5//1 -2//1 -1//1 -4//1\r\n\
v 3 0 0.5\n\
f 5/1/1 7/1/1 6/1/1\n\
l 1 2\n";

#[test]
fn obj_quads_slashes_and_negative_indices() {
    let soup = parse_obj(FLOOR_OBJ.as_bytes()).unwrap();
    assert_eq!(soup.vertices.len(), 7);
    assert_eq!(soup.vertices[1], Vec3::new(1.0, 0.0, 0.0));
    assert_eq!(soup.polygon_sizes, [4, 4, 3]);
    assert_eq!(soup.indices, [0, 1, 2, 3, 1, 4, 5, 2, 4, 6, 5]);
    assert_eq!(soup.up_axis, None);

    let mesh = soup.into_mesh(&MeshOptions::default()).unwrap();
    assert_eq!(mesh.polygon_count(), 3);
    assert_eq!(mesh.island_count(), 1);
    let across = |p: u32| -> Vec<u32> {
        let mut n: Vec<u32> = mesh.polygon_neighbours(p).flatten().collect();
        n.sort_unstable();
        n
    };
    assert_eq!(across(0), [1]);
    assert_eq!(across(1), [0, 2]);
    assert_eq!(across(2), [1]);
}

#[test]
fn obj_bytes_and_reader_agree() {
    assert_eq!(
        parse_obj_bytes(FLOOR_OBJ.as_bytes()).unwrap(),
        parse_obj(BufReader::with_capacity(3, FLOOR_OBJ.as_bytes())).unwrap()
    );
}

#[test]
fn obj_z_up_uses_the_options() {
    let obj = "v 0 0 5\nv 1 0 5\nv 0 1 5\nf 1 2 3\n";
    let mesh = load_mesh(
        obj.as_bytes(),
        MeshFormat::Obj,
        &MeshOptions::default().with_up_axis(UpAxis::Z),
    )
    .unwrap();
    assert_eq!(mesh.up_axis(), UpAxis::Z);
    // With Y up the same triangle is a vertical wall.
    let err = load_mesh(obj.as_bytes(), MeshFormat::Obj, &MeshOptions::default()).unwrap_err();
    assert!(
        matches!(
            err,
            LoadError::Mesh(MeshError::DegeneratePolygon { polygon: 0 })
        ),
        "{err}"
    );
}

#[test]
fn shared_obj_levels_parse_with_the_documented_counts() {
    for (file, vertices, faces) in [
        ("dungeon.obj", 5101, 10133), // CRLF line endings
        ("nav_test.obj", 884, 792),   // quads and n-gons, v/vt/vn corners
        ("undulating.obj", 2800, 5202),
        ("godot_navigation_level_mesh.obj", 141, 138),
        ("bridge.obj", 29, 54),
    ] {
        let path = Path::new(OBJ_DIR).join(file);
        let soup = parse_obj(BufReader::new(fs::File::open(&path).unwrap()))
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(soup.vertices.len(), vertices, "{file}");
        assert_eq!(soup.polygon_sizes.len(), faces, "{file}");
        assert_eq!(
            soup.polygon_sizes
                .iter()
                .map(|&s| s as usize)
                .sum::<usize>(),
            soup.indices.len()
        );
    }
    let soup = parse_obj(
        fs::read(Path::new(OBJ_DIR).join("nav_test.obj"))
            .unwrap()
            .as_slice(),
    )
    .unwrap();
    assert_eq!(soup.polygon_sizes.iter().max(), Some(&12));
}

#[test]
fn non_convex_obj_face_is_rejected_by_the_builder() {
    // An arrow head in the x-z plane: the corner at (2, 1) turns the wrong way.
    let obj = "v 0 0 0\nv 4 0 0\nv 4 0 4\nv 2 0 1\nv 0 0 4\nf 1 2 3 4 5\n";
    let err = load_mesh(obj.as_bytes(), MeshFormat::Obj, &MeshOptions::default()).unwrap_err();
    assert!(
        matches!(
            err,
            LoadError::Mesh(MeshError::NonConvexPolygon {
                polygon: 0,
                corner: 3,
                vertex: 3
            })
        ),
        "{err}"
    );
    assert!(
        err.to_string()
            .starts_with("invalid mesh: polygon 0 is not convex")
    );
}

#[test]
fn obj_non_finite_coordinates_reach_the_builder() {
    let obj = "v 0 0 0\nv 1 0 0\nv nan 0 1\nf 1 2 3\n";
    let soup = parse_obj_bytes(obj.as_bytes()).unwrap();
    assert!(soup.vertices[2].x.is_nan());
    let err = soup.into_mesh(&MeshOptions::default()).unwrap_err();
    assert!(
        matches!(
            err,
            LoadError::Mesh(MeshError::NonFiniteVertex { vertex: 2, .. })
        ),
        "{err}"
    );
}

// ---------------------------------------------------------------------------------------
// Error cases and their line numbers
// ---------------------------------------------------------------------------------------

const TRIANGLE_VERTICES: &str = "v 0 0 0\nv 1 0 0\nv 0 0 1\n";

#[test]
fn obj_errors_name_the_line() {
    let obj = |tail: &str| format!("{TRIANGLE_VERTICES}{tail}");
    assert_parse_error(
        parse_obj_bytes(b"v 0 0 0\nv 1 x 0\n"),
        2,
        "bad y coordinate \"x\"",
    );
    assert_parse_error(parse_obj_bytes(b"v 0 0\n"), 1, "z coordinate is missing");
    assert_parse_error(
        parse_obj_bytes(obj("f 0 1 2\n").as_bytes()),
        4,
        "0 is invalid",
    );
    assert_parse_error(
        parse_obj_bytes(obj("# c\r\nf 1 2 4\n").as_bytes()),
        5,
        "vertex index 4 refers to a vertex that is not defined (3 vertices so far)",
    );
    assert_parse_error(
        parse_obj_bytes(obj("f 1 2 -4\n").as_bytes()),
        4,
        "vertex index -4",
    );
    // A face may only refer to vertices defined before it.
    assert_parse_error(
        parse_obj_bytes(format!("f 1 2 3\n{TRIANGLE_VERTICES}").as_bytes()),
        1,
        "not defined (0 vertices so far)",
    );
    assert_parse_error(
        parse_obj_bytes(obj("f 1 2\n").as_bytes()),
        4,
        "face has 2 corners",
    );
    assert_parse_error(
        parse_obj_bytes(obj("f\n").as_bytes()),
        4,
        "face has 0 corners",
    );
    assert_parse_error(
        parse_obj_bytes(obj("f 1 2/ 3/x\n").as_bytes()),
        4,
        "bad texture index",
    );
    assert_parse_error(
        parse_obj_bytes(obj("\n\nf 1 2 99999999999999999999\n").as_bytes()),
        6,
        "out of range",
    );
}
