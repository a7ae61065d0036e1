//! Polyanya meshes: every version 2 mesh of the shared data set loads with the counts,
//! corners and neighbours its file gives (checked against a naive reader), other versions
//! load or are cleanly refused, the version 3 (Shortest Path Lab) Iron Harvest mesh and its
//! scenario, and parse errors with their line numbers.

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::time::Instant;

use navstar::glam::Vec3;
use navstar::io::{
    LoadError, MeshFormat, load_mesh, load_mesh_file, parse_polyanya_mesh,
    parse_polyanya_mesh_bytes,
};
use navstar::{MeshError, MeshOptions, NavMesh, UpAxis};

use crate::movingai::read_scenario;
use crate::{MESH_DIR, assert_parse_error};

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
fn file_edges(corners: &[u32], neighbours: &[i64]) -> BTreeMap<(u32, u32), Option<u32>> {
    let n = corners.len();
    (0..n)
        .map(|i| {
            let (a, b) = (corners[(i + n - 1) % n], corners[i]);
            let across = u32::try_from(neighbours[i]).ok();
            ((a.min(b), a.max(b)), across)
        })
        .collect()
}

/// The same map from navstar: neighbour `i` lies across the edge from corner `i` to
/// corner `i + 1`. Corner order may be reversed relative to the file; the map does not
/// care.
fn mesh_edges(mesh: &NavMesh, polygon: u32) -> BTreeMap<(u32, u32), Option<u32>> {
    let corners = mesh.polygon_vertices(polygon);
    let n = corners.len();
    mesh.polygon_neighbours(polygon)
        .enumerate()
        .map(|(i, across)| {
            let (a, b) = (corners[i], corners[(i + 1) % n]);
            ((a.min(b), a.max(b)), across)
        })
        .collect()
}

// ---------------------------------------------------------------------------------------
// Polyanya meshes from the shared data set
// ---------------------------------------------------------------------------------------

#[test]
fn every_version_2_mesh_loads_with_the_header_counts() {
    for path in version_2_files() {
        let reference = read_reference(&path);
        // The caller's up axis is overridden: 2D formats are always Z-up.
        let mesh = load_mesh_file(&path, &MeshOptions::default().with_up_axis(UpAxis::Y))
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
    assert!(
        mesh.nearest_point(Vec3::new(2.5, 2.2, 0.0), 0.0, None)
            .is_some()
    );
}

// ---------------------------------------------------------------------------------------
// Error cases and their line numbers
// ---------------------------------------------------------------------------------------

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
// Polyanya version 3 (Shortest Path Lab): the Iron Harvest mesh
// ---------------------------------------------------------------------------------------

#[test]
fn iron_harvest_mesh_loads_and_its_scenario_is_on_it() {
    let path = Path::new(MESH_DIR).join("scene_mp_2p_01.mesh");
    let started = Instant::now();
    let soup = parse_polyanya_mesh(BufReader::new(File::open(&path).unwrap())).unwrap();
    assert_eq!(soup.vertices.len(), 4150);
    assert_eq!(soup.polygon_sizes.len(), 3860, "traversable faces");
    assert_eq!(soup.source_polygons.len(), 3860);
    assert!(soup.source_polygons.windows(2).all(|w| w[0] < w[1]));
    assert!(soup.source_polygons.iter().all(|&f| f < 8294));
    assert_eq!(
        soup.source_polygon(3859),
        soup.source_polygons.last().copied()
    );
    let mesh = load_mesh_file(&path, &MeshOptions::default()).unwrap();
    let loaded = started.elapsed();
    assert_eq!(mesh.polygon_count(), 3860);
    assert_eq!(mesh.up_axis(), UpAxis::Z);

    let problems = read_scenario(&Path::new(MESH_DIR).join("scene_mp_2p_01.mesh.scen"));
    assert_eq!(problems.len(), 2000);
    for (i, problem) in problems.iter().enumerate() {
        assert_eq!(problem.map, "scene_mp_2p_01.mesh");
        let mut ends = [0; 2];
        for (end, point) in ends
            .iter_mut()
            .zip([problem.mesh_start(), problem.mesh_goal()])
        {
            let nearest = mesh
                .nearest_point(point, 1.0, None)
                .unwrap_or_else(|| panic!("#{i}: {point} is off the mesh"));
            assert_eq!(nearest.distance, 0.0, "#{i}: {point} is off the mesh");
            *end = nearest.polygon;
        }
        assert_eq!(
            mesh.island(ends[0]),
            mesh.island(ends[1]),
            "#{i}: start and goal on different islands"
        );
        // The cost is an any-angle length: never shorter than the straight line.
        let straight = problem.start.distance(problem.goal);
        assert!(problem.optimal_length >= straight - 1e-6, "#{i}");
    }
    println!(
        "scene_mp_2p_01: {} polygons, {} islands, loaded in {:.1} ms, all checks {:.1} ms",
        mesh.polygon_count(),
        mesh.island_count(),
        loaded.as_secs_f64() * 1e3,
        started.elapsed().as_secs_f64() * 1e3
    );
}

#[test]
fn version_3_errors_have_line_numbers() {
    let good = "mesh\n3\n5 4\n0 0\n0 10\n10 10\n10 0\n5 5\n\
                0 3 4 1 5 -4 0 -2\n1 3 1 2 5 -1 0 3\n1 3 2 3 5 2 0 4\n1 3 3 4 5 3 0 -1\n";
    let soup = parse_polyanya_mesh_bytes(good.as_bytes()).unwrap();
    assert_eq!(soup.source_polygons, [1, 2, 3]);
    let mesh = load_mesh(
        good.as_bytes(),
        MeshFormat::PolyanyaMesh,
        &MeshOptions::default(),
    );
    assert_eq!(mesh.unwrap().polygon_count(), 3);
    assert_parse_error(
        parse_polyanya_mesh_bytes(good.replace("1 3 2 3 5", "7 3 2 3 5").as_bytes()),
        11,
        "face 3: the traversable flag is 7",
    );
    assert_parse_error(
        parse_polyanya_mesh_bytes(good.replace("1 3 2 3 5", "1 3 2 3 0").as_bytes()),
        11,
        "face 3: corner vertex 0 does not exist (vertex ids run from 1 to 5)",
    );
    assert_parse_error(
        parse_polyanya_mesh_bytes(good.replace("3 0 -1\n", "3 0 -9\n").as_bytes()),
        12,
        "face 4: neighbour entry -9 is not a face",
    );
    assert_parse_error(
        parse_polyanya_mesh_bytes(good.replace("-1 0 3", "-1 0 -3").as_bytes()),
        10,
        "face 2: the edge to face 3 is marked blocked, but both faces are traversable",
    );
    assert_parse_error(
        parse_polyanya_mesh_bytes(format!("{good}1\n").as_bytes()),
        13,
        "after the last polygon",
    );
    assert_parse_error(
        parse_polyanya_mesh_bytes(b"mesh\n4\n"),
        2,
        "only versions 2 and 3 can be read",
    );
    // Only obstacle faces: the builder has nothing to build.
    let walls = good.replace("\n1 3", "\n0 3");
    assert!(matches!(
        load_mesh(
            walls.as_bytes(),
            MeshFormat::PolyanyaMesh,
            &MeshOptions::default()
        ),
        Err(LoadError::Mesh(MeshError::NoPolygons))
    ));
}
