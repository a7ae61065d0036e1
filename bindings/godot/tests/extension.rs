//! Checks of the built extension and of the files Godot reads, without a Godot engine:
//! the library Cargo built exports the GDExtension entry point, `navstar.gdextension`
//! names that entry point and the path Cargo writes the library to, and the sample
//! project calls only methods the class registers and its navigation mesh gives the path
//! docs/godot.md quotes.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};
use std::process::Command;

const ENTRY_SYMBOL: &str = "gdext_rust_init";

fn crate_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(relative: &str) -> String {
    let path = crate_dir().join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The cdylib Cargo built for this test run (integration tests build the library with all
/// its crate types, next to the test binary in `target/<profile>/deps`).
#[cfg(target_os = "linux")]
fn built_library() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let deps = exe.parent().unwrap();
    [deps, deps.parent().unwrap()]
        .iter()
        .map(|dir| dir.join("libnavstar_godot.so"))
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("libnavstar_godot.so not found in {}", deps.display()))
}

#[cfg(target_os = "linux")]
#[test]
fn library_exports_the_entry_symbol() {
    let library = built_library();
    let out = Command::new("nm")
        .args(["-D", "--defined-only"])
        .arg(&library)
        .output()
        .expect("nm (binutils) must be installed");
    assert!(out.status.success(), "nm failed: {out:?}");
    let symbols = String::from_utf8_lossy(&out.stdout);
    let entry = symbols
        .lines()
        .find(|line| line.split_whitespace().last() == Some(ENTRY_SYMBOL))
        .unwrap_or_else(|| panic!("{} does not export {ENTRY_SYMBOL}", library.display()));
    // A defined function in the text section.
    assert_eq!(entry.split_whitespace().nth(1), Some("T"), "{entry}");
}

/// `key = "value"` or `key = value` lines of one `[section]` of a Godot config file.
fn section(text: &str, name: &str) -> Vec<(String, String)> {
    let mut inside = false;
    let mut entries = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with(';') || line.starts_with('#') {
            continue;
        }
        if line.starts_with('[') {
            inside = line == format!("[{name}]");
            continue;
        }
        if inside {
            let (key, value) = line.split_once('=').expect("key = value");
            entries.push((
                key.trim().to_owned(),
                value.trim().trim_matches('"').to_owned(),
            ));
        }
    }
    entries
}

fn lexically_normal(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::ParentDir => {
                assert!(out.pop(), "{} leaves the file system root", path.display());
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

#[test]
fn gdextension_file_matches_the_build() {
    let text = read("sample/navstar.gdextension");
    let configuration = section(&text, "configuration");
    let get = |key: &str| {
        configuration
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
            .unwrap_or_else(|| panic!("[configuration] has no {key}"))
    };
    assert_eq!(get("entry_symbol"), ENTRY_SYMBOL);

    // The minimum Godot version is the API level the crate is built against.
    let minimum = get("compatibility_minimum");
    let feature = format!("\"api-{}\"", minimum.replace('.', "-"));
    assert!(
        read("Cargo.toml").contains(&feature),
        "compatibility_minimum {minimum} but Cargo.toml does not enable the godot feature {feature}"
    );

    // Every library path is the workspace's cargo output for that platform: res:// is the
    // sample project directory.
    let libraries = section(&text, "libraries");
    assert!(libraries.len() >= 2, "{libraries:?}");
    let workspace = lexically_normal(&crate_dir().join("../.."));
    let sample = crate_dir().join("sample");
    for (key, value) in &libraries {
        let profile = if key.contains(".debug") {
            "debug"
        } else {
            "release"
        };
        let file = if key.starts_with("windows") {
            "navstar_godot.dll"
        } else if key.starts_with("macos") {
            "libnavstar_godot.dylib"
        } else {
            "libnavstar_godot.so"
        };
        let relative = value
            .strip_prefix("res://")
            .unwrap_or_else(|| panic!("{key}: {value} is not a res:// path"));
        assert_eq!(
            lexically_normal(&sample.join(relative)),
            workspace.join("target").join(profile).join(file),
            "{key}"
        );
    }

    // The file name Cargo gives the library is the one the Linux entries use.
    #[cfg(target_os = "linux")]
    assert_eq!(built_library().file_name().unwrap(), "libnavstar_godot.so");
}

/// The source files of `NavstarMesh` (main and secondary `#[godot_api]` blocks).
const MESH_SOURCES: [&str; 4] = [
    "src/lib.rs",
    "src/class_queries.rs",
    "src/class_agents.rs",
    "src/class_obstacles.rs",
];

/// Names of the `#[func]`s and `#[var]`s of `NavstarMesh`, read from the source.
fn registered_names() -> BTreeSet<String> {
    MESH_SOURCES.iter().flat_map(|f| names_in(f)).collect()
}

/// Names of the `#[func]`s, `#[var]`s and `#[export]`s of one source file.
fn names_in(file: &str) -> BTreeSet<String> {
    let source = read(file);
    let mut names = BTreeSet::new();
    let mut pending = false;
    for line in source.lines().map(str::trim) {
        if line == "#[func]" || line == "#[var]" || line == "#[export]" {
            pending = true;
        } else if pending && !line.starts_with("#[") {
            let name = line
                .trim_start_matches("fn ")
                .split(['(', ':'])
                .next()
                .unwrap()
                .trim();
            names.insert(name.to_owned());
            pending = false;
        }
    }
    names
}

#[test]
fn sample_project_uses_only_registered_methods() {
    let names = registered_names();
    for expected in [
        "build_from_polygons",
        "build_from_flat",
        "build_from_navigation_mesh",
        "from_polygons",
        "from_navigation_mesh",
        "find_path",
        "get_last_error",
        "is_last_path_partial",
        "get_polygon_count",
        "get_vertex_count",
        "get_island_count",
        "max_snap_distance",
        "allow_partial",
        "weld_distance",
        "path_mode",
        // Filters, area costs and path options.
        "navigation_layers",
        "excluded_layers",
        "area_costs",
        "split_at_area_changes",
        "heuristic_weight",
        "agent_radius",
        // Building with areas, flags and links; 2D; loading and saving.
        "build_with",
        "build_from_polygons_2d",
        "build_from_navigation_polygon",
        "load_file",
        "load_bytes",
        "save_to_bytes",
        // The queries.
        "find_path_2d",
        "get_last_path_corner_flags",
        "get_last_path_areas",
        "get_last_path_links",
        "get_last_path_cost",
        "get_last_path_corridor",
        "raycast",
        "get_closest_point",
        "get_closest_point_info",
        "get_closest_point_2d",
        "find_nearest_target",
        "get_reachable_polygons",
        "get_polygon_flags",
        "set_polygon_flags",
        "get_polygon_area",
        "get_link_count",
        "get_link_flags",
        "set_link_flags",
        "interpolate",
        "get_debug_wall_lines",
        "get_debug_portal_lines",
        "get_debug_mesh",
        // Worlds of tiles.
        "add_tile",
        "replace_tile",
        "remove_tile",
        "split_into_tiles",
        "get_tile_count",
        // The landmark table.
        "landmarks",
        "prepare_landmarks",
        // The fast lane.
        "fast_lane",
        "prepare_fast_lane",
        // Obstacles.
        "add_obstacle",
        "move_obstacle",
        "remove_obstacle",
        "get_obstacle_count",
        // Moving agents.
        "move_along_surface",
        "get_distance_to_wall",
        "get_random_point",
        "get_random_point_around",
        "begin_path",
        "advance_path",
        "finish_path",
        "cancel_path",
        "create_corridor",
    ] {
        assert!(
            names.contains(expected),
            "{expected} missing from {names:?}"
        );
    }

    // The variables of the sample script that hold a NavstarMesh, and `NavstarMesh.` itself.
    let script = read("sample/main.gd");
    let objects = ["NavstarMesh", "mesh", "same", "broken", "doors", "reloaded"];
    let mut used = BTreeSet::new();
    for object in objects {
        let pattern = format!("{object}.");
        for (at, _) in script.match_indices(&pattern) {
            let before = script[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue; // e.g. `navmesh.` is not `mesh.`
            }
            let member: String = script[at + pattern.len()..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            used.insert(member);
        }
    }
    assert!(used.contains("find_path"), "{used:?}");
    for member in &used {
        assert!(
            member == "new" || names.contains(member),
            "sample/main.gd uses NavstarMesh.{member}, which the class does not register"
        );
    }

    // The scene runs the script, and the project runs the scene.
    assert!(read("sample/main.tscn").contains("path=\"res://main.gd\""));
    assert!(read("sample/project.godot").contains("run/main_scene=\"res://main.tscn\""));
}

#[test]
fn resource_class_registers_its_members() {
    let names = names_in("src/resource.rs");
    for expected in [
        "data",
        "from_mesh",
        "from_navigation_mesh",
        "from_navigation_polygon",
        "create_mesh",
        "has_data",
    ] {
        assert!(
            names.contains(expected),
            "{expected} missing from {names:?}"
        );
    }
    assert_eq!(
        names.len(),
        6,
        "a new member needs a line here and in docs/godot.md: {names:?}"
    );
}

#[test]
fn corridor_class_registers_its_members() {
    let names = names_in("src/corridor_class.rs");
    let expected = [
        "move_position",
        "move_target",
        "get_corners",
        "get_last_corner_flags",
        "is_valid",
        "repair",
        "optimize_visibility",
        "get_position",
        "get_target",
        "get_polygons",
        "get_last_error",
    ];
    for name in expected {
        assert!(names.contains(name), "{name} missing from {names:?}");
    }
    assert_eq!(
        names.len(),
        expected.len(),
        "a new member needs a line here and in docs/godot.md: {names:?}"
    );
}

/// Every registered member of the classes is described in docs/godot.md's reference
/// tables (as `` `name(...`` for a method, `` `name: type`` for a property).
#[test]
fn every_member_is_documented() {
    let doc = read("../../docs/godot.md");
    let mut names = registered_names();
    names.extend(names_in("src/resource.rs"));
    names.extend(names_in("src/corridor_class.rs"));
    for name in names {
        assert!(
            ["`", "`static "].iter().any(|prefix| {
                doc.contains(&format!("{prefix}{name}("))
                    || doc.contains(&format!("{prefix}{name}: "))
            }),
            "docs/godot.md has no reference row for {name}"
        );
    }
}

/// The numbers inside `Name(...)` right after `prefix` on the line that starts with it.
fn numbers_after(text: &str, prefix: &str) -> Vec<f32> {
    let line = text
        .lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no line starts with {prefix}"));
    let inside = &line[prefix.len()..];
    let inside = &inside[inside.find('(').unwrap() + 1..inside.rfind(')').unwrap()];
    inside
        .split(',')
        .map(|n| n.trim().parse().unwrap())
        .collect()
}

#[test]
fn sample_scene_mesh_gives_the_documented_path() {
    use navstar_godot::navigator::{Navigator, Settings};

    // The NavigationMesh of sample/main.tscn, as the script reads it.
    let scene = read("sample/main.tscn");
    let vertices: Vec<[f32; 3]> = numbers_after(&scene, "vertices = ")
        .chunks(3)
        .map(|c| [c[0], c[1], c[2]])
        .collect();
    let polygons_line = scene
        .lines()
        .find(|l| l.starts_with("polygons = ["))
        .unwrap();
    let polygons: Vec<Vec<i32>> = polygons_line
        .split("PackedInt32Array(")
        .skip(1)
        .map(|p| {
            p[..p.find(')').unwrap()]
                .split(',')
                .map(|n| n.trim().parse().unwrap())
                .collect()
        })
        .collect();
    assert_eq!((vertices.len(), polygons.len()), (8, 3));

    let script = read("sample/main.gd");
    let point = |prefix: &str| {
        let n = numbers_after(&script, prefix);
        [n[0], n[1], n[2]]
    };
    let (from, to) = (point("@export var from := "), point("@export var to := "));

    let mut nav = Navigator::default();
    nav.build(
        vertices,
        polygons.iter().map(Vec::as_slice),
        &Settings::default(),
    )
    .unwrap();
    assert_eq!(nav.polygon_count(), 3);
    assert_eq!(nav.island_count(), 1);
    let path: Vec<[f32; 3]> = nav
        .find_path(from, to, &Settings::default())
        .unwrap()
        .iter()
        .map(|c| c.to_array())
        .collect();
    // docs/godot.md quotes this path.
    assert_eq!(path, [[7.5, 0.0, 2.0], [4.0, 0.0, 4.0], [2.0, 0.0, 7.5]]);
}

/// What `_filters_flags_and_links` in sample/main.gd does, on the sample scene's mesh, with
/// the answers docs/godot.md quotes.
#[test]
fn sample_filters_flags_and_links_give_the_documented_answers() {
    use navstar::OffMeshLink;
    use navstar::glam::Vec3;
    use navstar_godot::extras;
    use navstar_godot::navigator::{Navigator, Settings};

    let script = read("sample/main.gd");
    for call in [
        "build_with(",
        "set_link_flags(0, 0)",
        "set_polygon_flags(0, 2)",
        "navigation_layers = 1",
        "raycast(Vector3(6.0, 0.0, 2.0), Vector3(6.0, 0.0, 10.0))",
        "get_closest_point(Vector3(6.0, 0.0, 5.0))",
        "PackedInt32Array([1, 0, 0])",
        "PackedFloat32Array([1.0, 3.0])",
        "\"start_position\": Vector3(6.0, 0.0, 3.5), \"end_position\": Vector3(3.5, 0.0, 6.0)",
        "\"bidirectional\": false, \"cost\": 1.0",
        "NavstarMeshResource.from_mesh(doors)",
    ] {
        assert!(
            script.contains(call),
            "sample/main.gd no longer calls {call}"
        );
    }

    let v = |x: f32, z: f32| [x, 0.0, z];
    let vertices = [
        v(0.0, 0.0),
        v(4.0, 0.0),
        v(8.0, 0.0),
        v(0.0, 4.0),
        v(4.0, 4.0),
        v(8.0, 4.0),
        v(0.0, 8.0),
        v(4.0, 8.0),
    ];
    let polygons: [&[i32]; 3] = [&[0, 1, 4, 3], &[1, 2, 5, 4], &[3, 4, 7, 6]];
    let jump = OffMeshLink::new(Vec3::new(6.0, 0.0, 3.5), Vec3::new(3.5, 0.0, 6.0))
        .with_bidirectional(false)
        .with_cost(1.0);
    let mut nav = Navigator::default();
    nav.build_with(
        vertices,
        polygons,
        &extras::extras(&[1, 0, 0], &[], vec![jump]).unwrap(),
        &Settings::default(),
    )
    .unwrap();
    let costs = [1.0, 3.0];
    let mud = Settings {
        area_costs: &costs,
        ..Settings::default()
    };
    let (start, goal) = (v(7.5, 2.0), v(2.0, 7.5));
    let jumped: Vec<[f32; 3]> = nav
        .find_path(start, goal, &mud)
        .unwrap()
        .iter()
        .map(|c| c.to_array())
        .collect();
    assert_eq!(jumped, [v(7.5, 2.0), v(6.0, 3.5), v(3.5, 6.0), v(2.0, 7.5)]);
    assert_eq!(nav.last_corner_links().collect::<Vec<_>>(), [-1, 0, 0, -1]);
    let expected_cost = 2.0 * 1.5f32.hypot(1.5) + 1.0;
    assert!(
        (nav.last_cost() - expected_cost).abs() < 1e-5,
        "{}",
        nav.last_cost()
    );

    nav.set_link_flags(0, 0).unwrap();
    nav.set_polygon_flags(0, 2).unwrap();
    let layer1 = Settings {
        include_flags: 1,
        ..mud
    };
    let cut: Vec<[f32; 3]> = nav
        .find_path(start, goal, &layer1)
        .unwrap()
        .iter()
        .map(|c| c.to_array())
        .collect();
    assert_eq!(cut, [v(7.5, 2.0), v(4.0, 4.0)]);
    assert!(nav.last_partial());

    let ray = nav.raycast(v(6.0, 2.0), v(6.0, 10.0), &mud).unwrap();
    assert_eq!((ray.point, ray.t), (Vec3::new(6.0, 0.0, 4.0), 0.25));
    assert_eq!(ray.hit.unwrap().normal, Vec3::new(0.0, 0.0, -1.0));
    let closest = nav.closest_point(v(6.0, 5.0), &mud).unwrap().unwrap();
    assert_eq!(closest.point, Vec3::new(6.0, 0.0, 4.0));

    let mut reloaded = Navigator::default();
    reloaded
        .load_bytes(&nav.save_bytes().unwrap(), "", &Settings::default())
        .unwrap();
    assert_eq!(
        (reloaded.polygon_count(), reloaded.link_flags(0)),
        (3, Ok(0))
    );
}

/// What `_follow` in sample/main.gd does, on the sample scene's mesh, with the answers
/// docs/godot.md quotes.
#[test]
fn sample_corridor_and_move_give_the_documented_answers() {
    use navstar::glam::Vec3;
    use navstar_godot::navigator::{Navigator, Settings};

    let script = read("sample/main.gd");
    for call in [
        "_follow(mesh)",
        "mesh.create_corridor()",
        "corridor.get_corners(1)",
        "corridor.move_position(here + (next[0] - here).limit_length(1.0))",
        "while steps < 100:",
        "mesh.move_along_surface(Vector3(6.0, 0.0, 2.0), Vector3(9.0, 0.0, 6.0))",
    ] {
        assert!(
            script.contains(call),
            "sample/main.gd no longer calls {call}"
        );
    }
    // Every `corridor.` member the script uses is registered by NavstarCorridor.
    let names = names_in("src/corridor_class.rs");
    for (at, _) in script.match_indices("corridor.") {
        let member: String = script[at + "corridor.".len()..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        assert!(
            names.contains(&member),
            "sample/main.gd uses NavstarCorridor.{member}, which the class does not register"
        );
    }

    let v = |x: f32, z: f32| [x, 0.0, z];
    let vertices = [
        v(0.0, 0.0),
        v(4.0, 0.0),
        v(8.0, 0.0),
        v(0.0, 4.0),
        v(4.0, 4.0),
        v(8.0, 4.0),
        v(0.0, 8.0),
        v(4.0, 8.0),
    ];
    let polygons: [&[i32]; 3] = [&[0, 1, 4, 3], &[1, 2, 5, 4], &[3, 4, 7, 6]];
    let s = Settings::default();
    let mut nav = Navigator::default();
    nav.build(vertices, polygons, &s).unwrap();
    nav.find_path(v(7.5, 2.0), v(2.0, 7.5), &s).unwrap();
    let mut corridor = nav.corridor_from_last_path(&s).unwrap();
    let mut steps = 0;
    while steps < 100 {
        let (next, _) = corridor.corners(1).unwrap();
        let Some(&next) = next.first() else { break };
        let here = corridor.position();
        let step = (next - here).clamp_length_max(1.0);
        corridor.move_position((here + step).to_array()).unwrap();
        steps += 1;
    }
    assert_eq!(steps, 10);
    assert!(corridor.position().distance(Vec3::new(2.0, 0.0, 7.5)) < 1e-5);
    let slide = nav
        .move_along_surface(v(6.0, 2.0), v(9.0, 6.0), &s)
        .unwrap();
    assert_eq!(slide.surface.walls, 2);
    assert!(
        slide.surface.point.distance(Vec3::new(8.0, 0.0, 4.0)) < 1e-4,
        "{:?}",
        slide.surface.point
    );
}
