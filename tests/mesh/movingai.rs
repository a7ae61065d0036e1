//! The Moving AI formats: every shared grid map loads with the exact walkable area and
//! the right islands, through every entry point and with tiny read buffers; every
//! scenario parses and its problems lie on the mesh; errors carry their line numbers.

use std::fs::{self, File};
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::time::Instant;

use navstar::glam::Vec3;
use navstar::io::{
    GridMap, LoadError, MeshFormat, ScenarioProblem, load_mesh, load_mesh_file, parse_movingai_map,
    parse_movingai_map_bytes, parse_polyanya_mesh, parse_polyanya_mesh_bytes, parse_scenario,
    parse_scenario_bytes,
};
use navstar::{MeshError, MeshOptions, NavMesh, UpAxis};
use proptest::prelude::*;

use crate::{GRID_DIR, MESH_DIR, SMALL_V3, assert_parse_error, doubled_area};

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

/// A map of the data set: file stem, free cells and scenario problems (from the README).
struct SharedMap {
    name: &'static str,
    size: (u32, u32),
    free_cells: Option<usize>,
    problems: usize,
}

const SHARED_MAPS: [SharedMap; 14] = [
    map("arena", (49, 49), Some(2054), 160),
    map("den312d", (65, 81), Some(2445), 320),
    map("den520d", (256, 257), Some(28178), 888),
    map("brc202d", (530, 481), Some(43151), 2519),
    map("lak303d", (194, 194), Some(14784), 1060),
    map("Berlin_0_256", (256, 256), Some(48147), 930),
    map("Boston_0_1024", (1024, 1024), Some(796896), 3840),
    map("maze512-1-0", (512, 512), Some(131071), 11960),
    map("maze512-16-0", (512, 512), Some(246016), 8980),
    map("8room_000", (512, 512), None, 1940),
    map("32room_000", (512, 512), None, 1900),
    map("random512-10-0", (512, 512), None, 1670),
    map("random512-40-0", (512, 512), None, 3060),
    map("CatwalkAlley", (512, 512), Some(225934), 2640),
];

const fn map(
    name: &'static str,
    size: (u32, u32),
    free_cells: Option<usize>,
    problems: usize,
) -> SharedMap {
    SharedMap {
        name,
        size,
        free_cells,
        problems,
    }
}

fn grid_path(file: &str) -> PathBuf {
    Path::new(GRID_DIR).join(file)
}

fn read_map(path: &Path) -> GridMap {
    let file = File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parse_movingai_map(BufReader::new(file)).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

pub(crate) fn read_scenario(path: &Path) -> Vec<ScenarioProblem> {
    let file = File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parse_scenario(BufReader::new(file)).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// 4-connected components of the passable cells: a label per cell (`u32::MAX` for a
/// blocked one) and the number of components.
fn components(map: &GridMap) -> (Vec<u32>, u32) {
    let (w, h) = (map.width as usize, map.height as usize);
    let mut label = vec![u32::MAX; w * h];
    let mut count = 0;
    let mut stack = Vec::new();
    for start in 0..w * h {
        if !map.walkable[start] || label[start] != u32::MAX {
            continue;
        }
        label[start] = count;
        stack.push(start);
        while let Some(cell) = stack.pop() {
            let (x, y) = (cell % w, cell / w);
            let mut visit = |next: usize| {
                if map.walkable[next] && label[next] == u32::MAX {
                    label[next] = count;
                    stack.push(next);
                }
            };
            if x > 0 {
                visit(cell - 1);
            }
            if x + 1 < w {
                visit(cell + 1);
            }
            if y > 0 {
                visit(cell - w);
            }
            if y + 1 < h {
                visit(cell + w);
            }
        }
        count += 1;
    }
    (label, count)
}

/// Checks that the mesh's islands are exactly the 4-connected components of the cells:
/// the same count, and each island holds the cells of exactly one component.
fn check_islands(map: &GridMap, mesh: &NavMesh) -> u32 {
    let (label, count) = components(map);
    assert_eq!(
        mesh.island_count(),
        count,
        "islands vs 4-connected components"
    );
    let mut component_of_island = vec![u32::MAX; count as usize];
    let mut island_of_component = vec![u32::MAX; count as usize];
    for p in 0..mesh.polygon_count() {
        // The vertex average of a convex polygon is strictly inside it.
        let corners = mesh.polygon_vertices(p);
        let sum: Vec3 = corners.iter().map(|&v| mesh.vertices()[v as usize]).sum();
        let centre = sum / corners.len() as f32;
        let cell = centre.y.floor() as usize * map.width as usize + centre.x.floor() as usize;
        let component = label[cell];
        assert_ne!(component, u32::MAX, "polygon {p} covers a blocked cell");
        let island = mesh.island(p);
        for (slot, value) in [
            (&mut component_of_island[island as usize], component),
            (&mut island_of_component[component as usize], island),
        ] {
            assert!(
                *slot == u32::MAX || *slot == value,
                "polygon {p}: islands and components differ"
            );
            *slot = value;
        }
    }
    count
}

/// Loads a shared map, checks its mesh and its scenario; prints counts and timings.
fn check_shared_map(expected: &SharedMap) {
    let name = expected.name;
    let map_path = grid_path(&format!("{name}.map"));

    let started = Instant::now();
    let map = read_map(&map_path);
    let parsed = started.elapsed();
    let mesh = load_mesh_file(&map_path, &MeshOptions::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let loaded = started.elapsed();

    assert_eq!((map.width, map.height), expected.size, "{name}");
    let free = map.walkable_count();
    if let Some(expected_free) = expected.free_cells {
        assert_eq!(free, expected_free, "{name}: free cells");
    }
    assert_eq!(mesh.up_axis(), UpAxis::Z);
    assert_eq!(
        doubled_area(&mesh),
        2 * free as i64,
        "{name}: area != free cells"
    );
    let islands = check_islands(&map, &mesh);
    let polygons = mesh.polygon_count() as usize;
    assert!(polygons <= free, "{name}");
    if free >= 10_000 {
        assert!(
            polygons * 2 < free,
            "{name}: {polygons} polygons for {free} cells is not much of a merge"
        );
    }

    let problems = read_scenario(&grid_path(&format!("{name}.map.scen")));
    assert_eq!(problems.len(), expected.problems, "{name}: problem count");
    for (i, problem) in problems.iter().enumerate() {
        assert_eq!(
            problem.map_file_name(),
            format!("{name}.map"),
            "{name} #{i}"
        );
        assert_eq!(
            (problem.map_width, problem.map_height),
            expected.size,
            "{name} #{i}"
        );
        let mut ends = [0; 2];
        for (end, point) in ends
            .iter_mut()
            .zip([problem.grid_start(), problem.grid_goal()])
        {
            let cell = (point.x.floor() as u32, point.y.floor() as u32);
            assert!(
                map.is_walkable(cell.0, cell.1),
                "{name} #{i}: {point} on a blocked cell"
            );
            let nearest = mesh
                .nearest_point(point, 1.0, None)
                .unwrap_or_else(|| panic!("{name} #{i}: {point} is off the mesh"));
            assert_eq!(
                nearest.distance, 0.0,
                "{name} #{i}: {point} is off the mesh"
            );
            assert_eq!(nearest.point, point, "{name} #{i}");
            *end = nearest.polygon;
        }
        assert_eq!(
            mesh.island(ends[0]),
            mesh.island(ends[1]),
            "{name} #{i}: start and goal on different islands"
        );
    }
    let total = started.elapsed();
    println!(
        "{name:>15}: {w:>4} x {h:<4} {cells:>8} cells {free:>7} free {polygons:>6} polygons \
         ({ratio:>5.1} cells/polygon) {islands:>5} islands | parse {parse:>6.1} ms, \
         load_mesh_file {load:>7.1} ms, all checks {total:>7.1} ms",
        w = map.width,
        h = map.height,
        cells = map.walkable.len(),
        ratio = free as f64 / polygons as f64,
        parse = parsed.as_secs_f64() * 1e3,
        load = (loaded - parsed).as_secs_f64() * 1e3,
        total = total.as_secs_f64() * 1e3,
    );
}

/// A map from rows of text (row 0 first).
fn map_text(rows: &[&str]) -> String {
    format!(
        "type octile\nheight {}\nwidth {}\nmap\n{}\n",
        rows.len(),
        rows[0].len(),
        rows.join("\n")
    )
}

// ---------------------------------------------------------------------------------------
// Grid maps
// ---------------------------------------------------------------------------------------

#[test]
fn the_data_set_has_the_expected_maps() {
    let mut names: Vec<String> = fs::read_dir(GRID_DIR)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter_map(|f| f.strip_suffix(".map").map(str::to_string))
        .collect();
    names.sort();
    let mut expected: Vec<String> = SHARED_MAPS.iter().map(|m| m.name.to_string()).collect();
    expected.sort();
    assert_eq!(names, expected);
}

macro_rules! shared_map_tests {
    ($($test:ident => $index:expr),* $(,)?) => {
        $(
            #[test]
            fn $test() {
                check_shared_map(&SHARED_MAPS[$index]);
            }
        )*
    };
}

shared_map_tests! {
    shared_map_arena => 0,
    shared_map_den312d => 1,
    shared_map_den520d => 2,
    shared_map_brc202d => 3,
    shared_map_lak303d => 4,
    shared_map_berlin_0_256 => 5,
    shared_map_boston_0_1024 => 6,
    shared_map_maze512_1_0 => 7,
    shared_map_maze512_16_0 => 8,
    shared_map_8room_000 => 9,
    shared_map_32room_000 => 10,
    shared_map_random512_10_0 => 11,
    shared_map_random512_40_0 => 12,
    shared_map_catwalk_alley => 13,
}

#[test]
fn diagonal_contacts_are_not_connected() {
    // Row 0 is the first row; cell (x, y) covers [x, x+1] x [y, y+1].
    let text = map_text(&[".@.@", "@.@.", ".@..", "TWO@"]);
    let map = parse_movingai_map_bytes(text.as_bytes()).unwrap();
    assert!(map.is_walkable(0, 0) && map.is_walkable(1, 1) && !map.is_walkable(1, 0));
    assert!(
        !map.is_walkable(0, 3) && !map.is_walkable(1, 3),
        "T and W are blocked"
    );
    let mesh = map.to_mesh(&MeshOptions::default()).unwrap();
    // (0,0), (2,0), (1,1) and (0,2) touch their free neighbours only at corners; (3,1),
    // (3,2) and (2,2) form an L whose cells share edges: 5 islands of 7 cells.
    assert_eq!(check_islands(&map, &mesh), 5);
    assert_eq!(mesh.island_count(), 5);
    assert_eq!(doubled_area(&mesh), 2 * 7);
    // The diagonal neighbours share a vertex but no edge.
    let at = |x: f32, y: f32| {
        mesh.nearest_point(Vec3::new(x, y, 0.0), 0.1, None)
            .unwrap()
            .polygon
    };
    let (a, b) = (at(0.5, 0.5), at(1.5, 1.5));
    assert_ne!(mesh.island(a), mesh.island(b));
    assert!(mesh.polygon_neighbours(a).all(|n| n.is_none()));
    let shared = mesh
        .polygon_vertices(a)
        .iter()
        .filter(|v| mesh.polygon_vertices(b).contains(v))
        .count();
    assert_eq!(shared, 1, "one shared corner");
    // The L of three cells is one island.
    assert_eq!(mesh.island(at(3.5, 1.5)), mesh.island(at(2.5, 2.5)));
}

#[test]
fn map_loads_through_every_entry_point() {
    let text = map_text(&["..@", "@..", "S.G"]);
    let options = MeshOptions::default();
    let map = parse_movingai_map_bytes(text.as_bytes()).unwrap();
    let direct = map.to_mesh(&options).unwrap();
    let loaded = load_mesh(text.as_bytes(), MeshFormat::MovingAiMap, &options).unwrap();
    assert_eq!(loaded.polygon_count(), direct.polygon_count());
    assert_eq!(loaded.vertices(), direct.vertices());
    // The generic parse gives one square per cell, with the same area and islands.
    let soup = MeshFormat::MovingAiMap.parse(text.as_bytes()).unwrap();
    assert_eq!(soup.polygon_sizes, vec![4; 7]);
    let cells = soup.into_mesh(&options).unwrap();
    assert_eq!(doubled_area(&cells), doubled_area(&direct));
    assert_eq!(cells.island_count(), direct.island_count());
    assert_eq!(
        MeshFormat::from_path(Path::new("x/arena.MAP")),
        Some(MeshFormat::MovingAiMap)
    );
}

#[test]
fn tiny_read_buffers_give_the_same_results() {
    // Berlin has CRLF line endings; a 1-byte buffer splits every line ending.
    for file in ["Berlin_0_256.map", "arena.map"] {
        let bytes = fs::read(grid_path(file)).unwrap();
        let slow = parse_movingai_map(BufReader::with_capacity(1, &bytes[..])).unwrap();
        assert_eq!(slow, parse_movingai_map_bytes(&bytes).unwrap(), "{file}");
    }
    let bytes = fs::read(grid_path("Berlin_0_256.map.scen")).unwrap();
    let slow = parse_scenario(BufReader::with_capacity(3, &bytes[..])).unwrap();
    assert_eq!(slow, parse_scenario_bytes(&bytes).unwrap());
    let slow = parse_polyanya_mesh(BufReader::with_capacity(2, SMALL_V3.as_bytes())).unwrap();
    assert_eq!(
        slow,
        parse_polyanya_mesh_bytes(SMALL_V3.as_bytes()).unwrap()
    );
}

#[test]
fn map_errors_have_line_numbers() {
    let good = map_text(&["..@", "@..", "S.G"]);
    assert!(parse_movingai_map_bytes(good.as_bytes()).is_ok());
    assert_parse_error(
        parse_movingai_map_bytes(good.replace("type octile", "type square").as_bytes()),
        1,
        "unsupported map type \"square\"",
    );
    assert_parse_error(
        parse_movingai_map_bytes(b"mesh\n2\n"),
        1,
        "not a Moving AI map",
    );
    assert_parse_error(
        parse_movingai_map_bytes(good.replace("width 3", "width -3").as_bytes()),
        3,
        "expected 'width N' with N between 1 and",
    );
    assert_parse_error(
        parse_movingai_map_bytes(good.replace("map\n", "").as_bytes()),
        4,
        "expected the line 'map', found \"..@\"",
    );
    assert_parse_error(
        parse_movingai_map_bytes(good.replace("@..", "@...").as_bytes()),
        6,
        "row 1 has more than 3 cells",
    );
    assert_parse_error(
        parse_movingai_map_bytes(good.replace("@..", "@.").as_bytes()),
        6,
        "row 1 has 2 cells, expected 3",
    );
    assert_parse_error(
        parse_movingai_map_bytes(good.replace("S.G", "S\0G").as_bytes()),
        7,
        "row 2, column 1: byte 0x00",
    );
    assert_parse_error(
        parse_movingai_map_bytes(good.replace("\nS.G\n", "\n").as_bytes()),
        6,
        "the map ends after 2 of its 3 rows",
    );
    assert_parse_error(
        parse_movingai_map_bytes(format!("{good}\n\n@@@\n").as_bytes()),
        10,
        "unexpected text after the last row",
    );
    assert_parse_error(
        parse_movingai_map_bytes(b"type octile\nheight 65536\nwidth 65536\nmap\n"),
        4,
        "the map is too large",
    );
    // Unknown printable characters are blocked cells, not errors.
    let odd = parse_movingai_map_bytes(good.replace("S.G", "S?G").as_bytes()).unwrap();
    assert!(!odd.is_walkable(1, 2));
    // A map without a passable cell parses but has no mesh.
    let walls = parse_movingai_map_bytes(map_text(&["@T", "WO"]).as_bytes()).unwrap();
    assert!(matches!(
        walls.to_mesh(&MeshOptions::default()),
        Err(LoadError::Mesh(MeshError::NoPolygons))
    ));
    // load_mesh_file names the file.
    let missing = grid_path("no-such-map.map");
    let err = load_mesh_file(&missing, &MeshOptions::default()).unwrap_err();
    assert!(err.to_string().contains("no-such-map.map"), "{err}");
}

// ---------------------------------------------------------------------------------------
// Scenarios
// ---------------------------------------------------------------------------------------

#[test]
fn mesh_test_scenarios_parse_and_lie_on_their_meshes() {
    let cases = [
        ("square", 1),
        ("bad-ambig", 4),
        ("bad-collinear", 1),
        ("bad-collinear2-rot0", 1),
        ("bad-collinear2-rot45", 1),
        ("bad-collinear2-rot90", 1),
    ];
    for (name, count) in cases {
        let dir = Path::new(MESH_DIR).join("tests");
        let problems = read_scenario(&dir.join(format!("{name}.scen")));
        assert_eq!(problems.len(), count, "{name}");
        let mesh = load_mesh_file(&dir.join(format!("{name}.mesh")), &MeshOptions::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        for problem in &problems {
            assert_eq!(problem.map_file_name(), format!("{name}.mesh"));
            for point in [problem.mesh_start(), problem.mesh_goal()] {
                let nearest = mesh.nearest_point(point, 1.0, None).unwrap();
                // The 45-degree case has irrational coordinates, rounded in the files.
                assert!(nearest.distance <= 1e-6, "{name}: {point} is off the mesh");
            }
        }
    }
    // rot0 separates its fields with a mix of tabs and a space.
    let rot0 = read_scenario(&Path::new(MESH_DIR).join("tests/bad-collinear2-rot0.scen"));
    assert_eq!(rot0[0].goal, navstar::glam::DVec2::new(4.0, 3.0));
    assert_eq!(rot0[0].optimal_length, 6.0);
}

#[test]
fn scenario_errors_have_line_numbers() {
    let good = "version 1\n0\tmaps/dao/arena.map\t49\t49\t1\t11\t1\t12\t1\n";
    assert_eq!(parse_scenario_bytes(good.as_bytes()).unwrap().len(), 1);
    assert_parse_error(
        parse_scenario_bytes(b"type octile\n"),
        1,
        "expected 'version X' on the first line",
    );
    assert_parse_error(
        parse_scenario_bytes(format!("{good}0 arena.map 49 49 1 11 1\n").as_bytes()),
        3,
        "expected 9 fields",
    );
    assert_parse_error(
        parse_scenario_bytes(format!("{good}\n\nx arena.map 49 49 1 11 1 12 1\n").as_bytes()),
        5,
        "the bucket \"x\"",
    );
    assert_parse_error(
        parse_scenario_bytes(good.replace("\t12\t", "\t1e999\t").as_bytes()),
        2,
        "the goal y \"1e999\" is not a finite number",
    );
    // A map name with spaces is everything between the bucket and the seven numbers.
    let spaced = good.replace("maps/dao/arena.map", "my maps/the  arena.map");
    let problems = parse_scenario_bytes(spaced.as_bytes()).unwrap();
    assert_eq!(problems[0].map, "my maps/the  arena.map");
    assert_eq!(problems[0].map_file_name(), "the  arena.map");
    assert_eq!(problems[0].grid_goal(), Vec3::new(1.5, 12.5, 0.0));
    assert_eq!(problems[0].mesh_goal(), Vec3::new(1.0, 12.0, 0.0));
}

proptest! {
    #![proptest_config(crate::common::proptest_config(300))]

    /// Random small grids: the mesh covers exactly the passable cells, and its islands
    /// are the 4-connected components.
    #[test]
    fn random_grids_give_exact_area_and_islands(
        width in 1usize..10,
        cells in prop::collection::vec(prop::sample::select(b"..@GTSW".to_vec()), 90),
        height in 1usize..10,
    ) {
        let rows: Vec<String> = cells[..width * height]
            .chunks(width)
            .map(|row| String::from_utf8(row.to_vec()).unwrap())
            .collect();
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        let map = parse_movingai_map_bytes(map_text(&rows).as_bytes()).unwrap();
        let free = map.walkable_count();
        match map.to_mesh(&MeshOptions::default()) {
            Ok(mesh) => {
                prop_assert_eq!(doubled_area(&mesh), 2 * free as i64);
                check_islands(&map, &mesh);
            }
            Err(LoadError::Mesh(MeshError::NoPolygons)) => prop_assert_eq!(free, 0),
            Err(e) => return Err(TestCaseError::fail(e.to_string())),
        }
    }
}
