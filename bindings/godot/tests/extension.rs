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

/// Names of the `#[func]`s and `#[var]`s of `NavstarMesh`, read from the source.
fn registered_names() -> BTreeSet<String> {
    let source = read("src/lib.rs");
    let mut names = BTreeSet::new();
    let mut pending = false;
    for line in source.lines().map(str::trim) {
        if line == "#[func]" || line == "#[var]" {
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
    ] {
        assert!(
            names.contains(expected),
            "{expected} missing from {names:?}"
        );
    }

    // The variables of the sample script that hold a NavstarMesh, and `NavstarMesh.` itself.
    let script = read("sample/main.gd");
    let objects = ["NavstarMesh", "mesh", "same", "broken"];
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
