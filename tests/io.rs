//! The file loaders, through the public API: real Polyanya meshes and OBJ levels from the
//! shared data set, hand-made OBJ files, error cases with their line numbers, and
//! never-panic properties of the byte parsers.

use std::collections::BTreeMap;
use std::fs;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use navstar::glam::Vec3;
use navstar::io::{
    LoadError, MeshFormat, PolygonSoup, load_mesh, load_mesh_file, parse_obj, parse_obj_bytes,
    parse_polyanya_mesh, parse_polyanya_mesh_bytes,
};
use navstar::{MeshError, MeshOptions, NO_NEIGHBOUR, NavMesh, UpAxis};
use proptest::prelude::*;

const MESH_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/mesh");
const OBJ_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/obj");

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

/// A Polyanya file read naively (whitespace split, trusting the file), to check the
/// loader against.
struct Reference {
    version: u32,
    vertex_count: usize,
    polygon_count: usize,
    /// Per polygon: corners and neighbours (only for version 2).
    polygons: Vec<(Vec<u32>, Vec<i64>)>,
}

fn read_reference(path: &Path) -> Reference {
    let text = fs::read_to_string(path).unwrap();
    let mut words = text.split_whitespace();
    let mut next = || words.next().expect("reference: file too short");
    assert_eq!(next(), "mesh");
    let version: u32 = next().parse().unwrap();
    let vertex_count: usize = next().parse().unwrap();
    let polygon_count: usize = next().parse().unwrap();
    let mut polygons = Vec::new();
    if version == 2 {
        for _ in 0..vertex_count {
            next();
            next();
            let around: usize = next().parse().unwrap();
            for _ in 0..around {
                next();
            }
        }
        for _ in 0..polygon_count {
            let n: usize = next().parse().unwrap();
            let corners = (0..n).map(|_| next().parse().unwrap()).collect();
            let neighbours = (0..n).map(|_| next().parse().unwrap()).collect();
            polygons.push((corners, neighbours));
        }
    }
    Reference {
        version,
        vertex_count,
        polygon_count,
        polygons,
    }
}

/// Every `.mesh` file of the shared data set, sorted.
fn mesh_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in [PathBuf::from(MESH_DIR), Path::new(MESH_DIR).join("tests")] {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "mesh") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

fn version_2_files() -> Vec<PathBuf> {
    let files: Vec<PathBuf> = mesh_files()
        .into_iter()
        .filter(|f| read_reference(f).version == 2)
        .collect();
    assert!(
        files.len() >= 8,
        "expected the 8 version 2 meshes: {files:?}"
    );
    files
}

/// `{unordered edge -> polygon across it}` for one polygon, from the file's lists:
/// neighbour `i` lies across the edge from corner `i - 1` to corner `i`.
fn file_edges(corners: &[u32], neighbours: &[i64]) -> BTreeMap<(u32, u32), u32> {
    let n = corners.len();
    (0..n)
        .map(|i| {
            let (a, b) = (corners[(i + n - 1) % n], corners[i]);
            let across = u32::try_from(neighbours[i]).unwrap_or(NO_NEIGHBOUR);
            ((a.min(b), a.max(b)), across)
        })
        .collect()
}

/// The same map from navstar: neighbour `i` lies across the edge from corner `i` to
/// corner `i + 1`. Corner order may be reversed relative to the file; the map does not
/// care.
fn mesh_edges(mesh: &NavMesh, polygon: u32) -> BTreeMap<(u32, u32), u32> {
    let corners = mesh.polygon_vertices(polygon);
    let neighbours = mesh.polygon_neighbours(polygon);
    let n = corners.len();
    (0..n)
        .map(|i| {
            let (a, b) = (corners[i], corners[(i + 1) % n]);
            ((a.min(b), a.max(b)), neighbours[i])
        })
        .collect()
}

fn parse_error(result: Result<PolygonSoup, LoadError>) -> (u64, String) {
    match result {
        Err(LoadError::Parse { line, message }) => (line, message),
        other => panic!("expected a parse error, got {other:?}"),
    }
}

fn assert_parse_error(result: Result<PolygonSoup, LoadError>, line: u64, needle: &str) {
    let (got_line, message) = parse_error(result);
    assert_eq!(got_line, line, "wrong line for: {message}");
    assert!(
        message.contains(needle),
        "message {message:?} lacks {needle:?}"
    );
}

// ---------------------------------------------------------------------------------------
// Polyanya meshes from the shared data set
// ---------------------------------------------------------------------------------------

#[test]
fn every_version_2_mesh_loads_with_the_header_counts() {
    for path in version_2_files() {
        let reference = read_reference(&path);
        // The caller's up axis is overridden: 2D formats are always Z-up.
        let mesh = load_mesh_file(&path, &MeshOptions::with_up_axis(UpAxis::Y))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let name = path.display();
        assert_eq!(
            mesh.vertex_count() as usize,
            reference.vertex_count,
            "{name}"
        );
        assert_eq!(
            mesh.polygon_count() as usize,
            reference.polygon_count,
            "{name}"
        );
        assert_eq!(mesh.up_axis(), UpAxis::Z, "{name}");
        assert!(mesh.vertices().iter().all(|v| v.z == 0.0), "{name}");
    }
}

#[test]
fn other_mesh_versions_are_loaded_or_cleanly_refused() {
    let mut others = 0;
    for path in mesh_files() {
        let reference = read_reference(&path);
        if reference.version == 2 {
            continue;
        }
        others += 1;
        match load_mesh_file(&path, &MeshOptions::default()) {
            // Once a later version is supported, its own tests check the contents.
            Ok(mesh) => assert!(mesh.polygon_count() > 0),
            Err(LoadError::Parse { line, message }) => {
                assert_eq!(line, 2, "{message}");
                let version = format!("version {}", reference.version);
                assert!(message.contains(&version), "{message}");
            }
            Err(e) => panic!("{}: {e}", path.display()),
        }
    }
    assert!(others >= 1, "scene_mp_2p_01.mesh (version 3) is missing");
}

#[test]
fn polygons_keep_the_file_corners() {
    for path in version_2_files() {
        let reference = read_reference(&path);
        let soup = parse_polyanya_mesh(BufReader::new(fs::File::open(&path).unwrap())).unwrap();
        assert_eq!(soup.up_axis, Some(UpAxis::Z));
        let corners: Vec<&[u32]> = soup.polygons().collect();
        let expected: Vec<&[u32]> = reference.polygons.iter().map(|(c, _)| &c[..]).collect();
        assert_eq!(corners, expected, "{}", path.display());
    }
}

#[test]
fn neighbours_agree_with_the_file_lists() {
    // arena.mesh is the main case; the hand-made test meshes (collinear corners, shared
    // vertices) are checked the same way.
    for path in version_2_files() {
        let reference = read_reference(&path);
        let mesh = load_mesh_file(&path, &MeshOptions::default()).unwrap();
        for (p, (corners, neighbours)) in reference.polygons.iter().enumerate() {
            assert_eq!(
                mesh_edges(&mesh, p as u32),
                file_edges(corners, neighbours),
                "{}: polygon {p}",
                path.display()
            );
        }
    }
}

#[test]
fn arena_is_one_island_of_120_triangles() {
    let path = Path::new(MESH_DIR).join("arena.mesh");
    let reader = BufReader::new(fs::File::open(path).unwrap());
    let mesh = load_mesh(reader, MeshFormat::PolyanyaMesh, &MeshOptions::default()).unwrap();
    assert_eq!(mesh.polygon_count(), 120);
    assert_eq!(mesh.vertex_count(), 112);
    assert_eq!(mesh.island_count(), 1);
    // Arena's first vertex is (2, 2); scenario coordinates map directly.
    assert_eq!(mesh.vertices()[0], Vec3::new(2.0, 2.0, 0.0));
    assert!(mesh.nearest_point(Vec3::new(2.5, 2.2, 0.0), 0.0).is_some());
}

// ---------------------------------------------------------------------------------------
// OBJ
// ---------------------------------------------------------------------------------------

/// Two quads and a triangle on the y = 0 floor, in every corner form, with negative
/// indices, CRLF lines, comments and records that are skipped.
const FLOOR_OBJ: &str = "# a floor\r\n\
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
        let mut n: Vec<u32> = mesh
            .polygon_neighbours(p)
            .iter()
            .copied()
            .filter(|&n| n != NO_NEIGHBOUR)
            .collect();
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
        &MeshOptions::with_up_axis(UpAxis::Z),
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

#[test]
fn polyanya_truncated_file() {
    let text = fs::read_to_string(Path::new(MESH_DIR).join("tests/square.mesh")).unwrap();
    // Cut inside the last polygon line (line 12): its neighbour list is incomplete.
    let cut = text.trim_end().rsplit_once(' ').unwrap().0;
    assert_parse_error(
        parse_polyanya_mesh_bytes(cut.as_bytes()),
        12,
        "polygon 3: the file ends where a neighbour polygon was expected",
    );
    // Cut after line 5 (with its newline): vertex 4's line is missing.
    let lines: Vec<&str> = text.lines().collect();
    let head = format!("{}\n", lines[..5].join("\n"));
    assert_parse_error(
        parse_polyanya_mesh_bytes(head.as_bytes()),
        5,
        "vertex 2: the file ends where the x coordinate was expected",
    );
    assert_parse_error(parse_polyanya_mesh_bytes(b""), 1, "the word 'mesh'");
}

#[test]
fn polyanya_wrong_version_and_magic() {
    assert_parse_error(
        parse_polyanya_mesh_bytes(b"mesh\n4\n4150 8294\n"),
        2,
        "unsupported Polyanya mesh version 4",
    );
    assert_parse_error(
        parse_polyanya_mesh_bytes(b"mesh\ntwo\n"),
        2,
        "the format version (an integer)",
    );
    assert_parse_error(
        parse_polyanya_mesh_bytes(b"\n\nmsh 2\n"),
        3,
        "not a Polyanya mesh",
    );
    assert_parse_error(
        parse_polyanya_mesh_bytes(b"v 0 0 0\n"),
        1,
        "expected the word 'mesh', found \"v\"",
    );
}

#[test]
fn polyanya_bad_tokens_and_references() {
    let square = fs::read_to_string(Path::new(MESH_DIR).join("tests/square.mesh")).unwrap();
    let edit = |from: &str, to: &str| {
        assert!(square.contains(from));
        parse_polyanya_mesh_bytes(square.replacen(from, to, 1).as_bytes())
    };
    // Line 4 is "0 1 3 -1 1 0", vertex 0.
    assert_parse_error(
        edit("0 1 3 -1", "0 1e 3 -1"),
        4,
        "vertex 0: expected the y coordinate",
    );
    assert_parse_error(
        edit("0 1 3 -1", "0 1 3 -2"),
        4,
        "vertex 0: a polygon around it is -2",
    );
    assert_parse_error(edit("0 1 3 -1", "0 1 3x -1"), 4, "polygon");
    // Line 9 is "3 4 1 0 1 3 -1", polygon 0.
    assert_parse_error(
        edit("3 4 1 0 1", "3 4 1 5 1"),
        9,
        "corner vertex 5 does not exist",
    );
    assert_parse_error(
        edit("3 4 1 0 1 3 -1", "3 4 1 0 1 3 4"),
        9,
        "neighbour polygon is 4",
    );
    assert_parse_error(
        edit("3 4 1 0 1", "2 4 1 0 1"),
        9,
        "polygon 0: has 2 corners",
    );
    assert_parse_error(
        edit("5 4\n", "5 4 x\n"),
        3,
        "vertex 0: expected the x coordinate",
    );
}

#[test]
fn polyanya_non_finite_coordinates_reach_the_builder() {
    let text = "mesh 2 3 1  0 0 0  1 0 0  inf 1 0  3 0 1 2 -1 -1 -1";
    let err = load_mesh(
        text.as_bytes(),
        MeshFormat::PolyanyaMesh,
        &MeshOptions::default(),
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            LoadError::Mesh(MeshError::NonFiniteVertex { vertex: 2, .. })
        ),
        "{err}"
    );
}

#[test]
fn file_errors_name_the_path() {
    let missing = Path::new(MESH_DIR).join("no-such-file.mesh");
    let err = load_mesh_file(&missing, &MeshOptions::default()).unwrap_err();
    assert!(matches!(err, LoadError::Io { path: Some(_), .. }), "{err}");
    assert!(err.to_string().contains("no-such-file.mesh"), "{err}");

    let scenario = Path::new(MESH_DIR).join("tests/square.scen");
    let err = load_mesh_file(&scenario, &MeshOptions::default()).unwrap_err();
    assert!(matches!(err, LoadError::UnknownFormat { .. }), "{err}");
    assert!(err.to_string().contains("square.scen"), "{err}");
}

// ---------------------------------------------------------------------------------------
// The byte parsers never panic
// ---------------------------------------------------------------------------------------

/// Tokens that exercise the grammars: keywords, numbers at the edges, separators.
const VOCABULARY: &[&str] = &[
    "v",
    "f",
    "vt",
    "mesh",
    "2",
    "3",
    "0",
    "1",
    "-1",
    "-2",
    "4",
    "1/2",
    "1//3",
    "-1/-1/-1",
    "/",
    "//",
    "#",
    "nan",
    "inf",
    "-0",
    "1e39",
    "0.5",
    "4294967295",
    "4294967296",
    "-9223372036854775808",
    "99999999999999999999",
    " ",
    "\t",
    "\n",
    "\r\n",
    "\r",
    "\u{e9}",
];

fn vocabulary_text() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(proptest::sample::select(VOCABULARY), 0..80)
        .prop_map(|words| words.join(" ").into_bytes())
}

/// Replaces, inserts or deletes bytes of `seed` and maybe truncates it. Half of the new
/// bytes are digits or separators, so that many mutants still parse and reach the builder.
fn mutated(seed: &'static [u8]) -> impl Strategy<Value = Vec<u8>> {
    let byte = prop_oneof![
        any::<u8>(),
        proptest::sample::select(&b"0123456789 -.\n"[..]),
    ];
    let edit = (any::<usize>(), byte, 0..3u8);
    (
        proptest::collection::vec(edit, 0..6),
        any::<usize>(),
        any::<bool>(),
    )
        .prop_map(move |(edits, cut, truncate)| {
            let mut bytes = seed.to_vec();
            for (at, byte, kind) in edits {
                let at = at % (bytes.len() + 1);
                match kind {
                    0 if at < bytes.len() => bytes[at] = byte,
                    1 => bytes.insert(at, byte),
                    _ if at < bytes.len() => {
                        bytes.remove(at);
                    }
                    _ => {}
                }
            }
            if truncate {
                bytes.truncate(cut % (bytes.len() + 1));
            }
            bytes
        })
}

const ARENA: &[u8] = include_bytes!("../../shared/data/mesh/arena-merged.mesh");
const COLLINEAR: &[u8] = include_bytes!("../../shared/data/mesh/tests/bad-collinear.mesh");

/// Parses, and builds whatever parses: neither step may panic.
fn exercise(parse: fn(&[u8]) -> Result<PolygonSoup, LoadError>, bytes: &[u8]) {
    if let Ok(soup) = parse(bytes) {
        let _ = soup.clone().into_mesh(&MeshOptions::default());
        let mut welding = MeshOptions::default();
        welding.weld_distance = 0.5;
        let _ = soup.into_mesh(&welding);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        exercise(parse_obj_bytes, &bytes);
        exercise(parse_polyanya_mesh_bytes, &bytes);
    }

    #[test]
    fn token_soup_never_panics(bytes in vocabulary_text()) {
        exercise(parse_obj_bytes, &bytes);
        exercise(parse_polyanya_mesh_bytes, &bytes);
    }

    #[test]
    fn mutated_polyanya_files_never_panic(arena in mutated(ARENA), collinear in mutated(COLLINEAR)) {
        exercise(parse_polyanya_mesh_bytes, &arena);
        exercise(parse_polyanya_mesh_bytes, &collinear);
    }

    #[test]
    fn mutated_obj_files_never_panic(bytes in mutated(FLOOR_OBJ.as_bytes())) {
        exercise(parse_obj_bytes, &bytes);
    }
}
