//! Builds and runs the engine bindings against the libraries that `cargo build` makes:
//!
//! * C++ (`bindings/cpp`, `examples/cmake`): the CMake package installed into a temporary
//!   prefix, moved elsewhere (it must be relocatable) and found with `find_package`, and
//!   the same project used through `add_subdirectory`; each with the shared and the
//!   static library. The example compiles navstar.hpp with `-fno-exceptions -fno-rtti
//!   -Wall -Wextra -Wpedantic -Wconversion -Wshadow -Werror` (C++17, and C++20 once), and
//!   its programs check themselves (`N passed, 0 failed`).
//! * C# (`bindings/csharp`): the binding compiled alone with Mono's `mcs -langversion:7.2`
//!   (the language level Unity accepts), and its test program run under `mono`, once
//!   plain and once with `UNITY_5_3_OR_NEWER` against a stand-in `UnityEngine.dll`.
//! * The Unity package's files: every asset has a `.meta`, the version is the crate's.

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::{lib_dir, manifest_dir, run_checked, run_ok};

/// A fresh directory for one test's build, unique per test and process.
fn work_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("bindings")
        .join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create the work directory");
    dir
}

// ---------------------------------------------------------------------------------
// C++ through CMake

#[derive(Clone, Copy, PartialEq)]
enum Use {
    /// `cmake --install` into a prefix, moved, then `find_package(navstar)`.
    FindPackage,
    /// `add_subdirectory(bindings/cpp)`, with the libraries named by NAVSTAR_LIBRARY_DIR.
    AddSubdirectoryLibraryDir,
    /// `add_subdirectory(bindings/cpp)`, with the libraries found from CARGO_TARGET_DIR and
    /// NAVSTAR_CARGO_PROFILE (the default route).
    AddSubdirectoryProfile,
}

#[derive(Clone, Copy, PartialEq)]
enum Link {
    Shared,
    Static,
}

fn cmake(args: &[OsString]) -> String {
    let mut command = Command::new("cmake");
    command.args(args);
    run_ok(command)
}

/// Configures bindings/cpp over `lib_dir()`, installs it into `<dir>/staging`, and moves
/// that to `<dir>/prefix`, which it returns.
fn install_package(dir: &Path) -> PathBuf {
    let build = dir.join("navstar-package");
    cmake(&[
        "-S".into(),
        manifest_dir().join("bindings/cpp").into(),
        "-B".into(),
        build.clone().into(),
        format!("-DNAVSTAR_LIBRARY_DIR={}", lib_dir().display()).into(),
    ]);
    let staging = dir.join("staging");
    cmake(&[
        "--install".into(),
        build.into(),
        "--prefix".into(),
        staging.clone().into(),
    ]);
    let prefix = dir.join("prefix");
    std::fs::rename(&staging, &prefix).expect("move the installed prefix");
    for file in [
        "include/navstar.h",
        "include/navstar.hpp",
        "lib/libnavstar.so",
        "lib/libnavstar.a",
        "lib/cmake/navstar/navstarConfig.cmake",
        "lib/cmake/navstar/navstarConfigVersion.cmake",
    ] {
        assert!(
            prefix.join(file).is_file(),
            "the install lacks {file} (in {})",
            prefix.display()
        );
    }
    prefix
}

/// The dynamic section of an executable: (NEEDED entries, RUNPATH/RPATH text).
fn dynamic_section(exe: &Path) -> (Vec<String>, String) {
    let mut command = Command::new("readelf");
    command.arg("-d").arg(exe);
    let text = run_ok(command);
    let mut needed = Vec::new();
    let mut runpath = String::new();
    for line in text.lines() {
        let value = line
            .split_once('[')
            .and_then(|(_, rest)| rest.split_once(']'))
            .map(|(value, _)| value.to_string());
        if let Some(value) = value {
            if line.contains("(NEEDED)") {
                needed.push(value);
            } else if line.contains("(RUNPATH)") || line.contains("(RPATH)") {
                runpath = value;
            }
        }
    }
    (needed, runpath)
}

fn cmake_example(name: &str, route: Use, link: Link, cxx_standard: u32) {
    let dir = work_dir(name);
    let lib = lib_dir();
    let build = dir.join("build");
    let mut configure: Vec<OsString> = vec![
        "-S".into(),
        manifest_dir().join("examples/cmake").into(),
        "-B".into(),
        build.clone().into(),
        "-DCMAKE_BUILD_TYPE=Debug".into(),
        format!("-DCMAKE_CXX_STANDARD={cxx_standard}").into(),
        format!(
            "-DNAVSTAR_USE_STATIC_LIBS={}",
            if link == Link::Static { "ON" } else { "OFF" }
        )
        .into(),
    ];
    let mut command = Command::new("cmake");
    // The library directory the shared-library programs must load from.
    let expected_dir = match route {
        Use::FindPackage => {
            let prefix = install_package(&dir);
            configure.push("-DNAVSTAR_EXAMPLE_MODE=find_package".into());
            configure.push(format!("-DCMAKE_PREFIX_PATH={}", prefix.display()).into());
            prefix.join("lib")
        }
        Use::AddSubdirectoryLibraryDir => {
            configure.push("-DNAVSTAR_EXAMPLE_MODE=add_subdirectory".into());
            configure.push(format!("-DNAVSTAR_LIBRARY_DIR={}", lib.display()).into());
            lib.clone()
        }
        Use::AddSubdirectoryProfile => {
            let profile = lib.file_name().expect("a profile directory name");
            let target = lib.parent().expect("the cargo target directory");
            configure.push("-DNAVSTAR_EXAMPLE_MODE=add_subdirectory".into());
            let mut profile_arg = OsString::from("-DNAVSTAR_CARGO_PROFILE=");
            profile_arg.push(profile);
            configure.push(profile_arg);
            command.env("CARGO_TARGET_DIR", target);
            lib.clone()
        }
    };
    command.args(&configure);
    run_ok(command);
    cmake(&[
        "--build".into(),
        build.clone().into(),
        "--parallel".into(),
        "2".into(),
    ]);

    for program in ["navstar_cpp_example", "navstar_c_example"] {
        let exe = build.join(program);
        let (needed, runpath) = dynamic_section(&exe);
        let links_navstar = needed.iter().any(|n| n.contains("navstar"));
        match link {
            Link::Shared => {
                assert!(
                    needed.iter().any(|n| n == "libnavstar.so"),
                    "{program} should need libnavstar.so (its SONAME), not a path: {needed:?}"
                );
                let dirs: Vec<&str> = runpath.split(':').collect();
                assert!(
                    dirs.iter().any(|d| Path::new(d) == expected_dir),
                    "{program} should load libnavstar.so from {} (runpath {runpath:?})",
                    expected_dir.display()
                );
                if route == Use::FindPackage {
                    assert!(
                        !dirs.iter().any(|d| Path::new(d) == lib),
                        "{program} should use the installed library, not {} (runpath {runpath:?})",
                        lib.display()
                    );
                }
            }
            Link::Static => assert!(
                !links_navstar,
                "{program} should contain navstar statically: {needed:?}"
            ),
        }
        run_checked(Command::new(&exe));
    }
    let _ = std::fs::remove_dir_all(&dir); // kept on failure, for inspection
}

#[test]
fn cmake_find_package_shared() {
    cmake_example("find-package-shared", Use::FindPackage, Link::Shared, 17);
}

#[test]
fn cmake_find_package_static() {
    cmake_example("find-package-static", Use::FindPackage, Link::Static, 17);
}

#[test]
fn cmake_add_subdirectory_shared_cpp20() {
    cmake_example(
        "add-subdirectory-shared",
        Use::AddSubdirectoryLibraryDir,
        Link::Shared,
        20,
    );
}

#[test]
fn cmake_add_subdirectory_static_from_cargo_profile() {
    cmake_example(
        "add-subdirectory-static",
        Use::AddSubdirectoryProfile,
        Link::Static,
        17,
    );
}

// ---------------------------------------------------------------------------------
// C# under Mono

const MCS_FLAGS: &[&str] = &["-unsafe", "-langversion:7.2", "-warnaserror", "-debug"];

fn csharp_dir() -> PathBuf {
    manifest_dir().join("bindings/csharp")
}

/// The binding's sources (the Unity package's Runtime folder), sorted.
fn runtime_sources() -> Vec<PathBuf> {
    let dir = csharp_dir().join("unity/Runtime");
    let mut sources: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "cs"))
        .collect();
    sources.sort();
    assert!(!sources.is_empty(), "no C# sources in {}", dir.display());
    sources
}

fn mcs(args: &[OsString], sources: &[PathBuf]) {
    let mut command = Command::new("mcs");
    command.args(MCS_FLAGS).args(args).args(sources);
    run_ok(command);
}

/// Compiles and runs the C# tests; returns their output.
fn csharp_tests(name: &str, unity: bool) -> String {
    let dir = work_dir(name);
    let sources = runtime_sources();
    let mut extra: Vec<OsString> = Vec::new();
    if unity {
        let stub = dir.join("UnityEngine.dll");
        let mut out = OsString::from("-out:");
        out.push(&stub);
        mcs(
            &["-target:library".into(), out],
            &[csharp_dir().join("tests/UnityEngineStub.cs")],
        );
        extra.push("-define:UNITY_5_3_OR_NEWER".into());
        let mut reference = OsString::from("-r:");
        reference.push(&stub);
        extra.push(reference);
    }

    // The binding alone, as Unity compiles it (an assembly of its own).
    let mut out = OsString::from("-out:");
    out.push(dir.join("Navstar.Runtime.dll"));
    let mut args = vec![OsString::from("-target:library"), out];
    args.extend(extra.iter().cloned());
    mcs(&args, &sources);

    // The test program, compiled with the binding (it calls the internal P/Invoke
    // declarations with NULLs too).
    let exe = dir.join("NavstarTests.exe");
    let mut out = OsString::from("-out:");
    out.push(&exe);
    let mut args = vec![out];
    args.extend(extra);
    let mut all = sources.clone();
    all.push(csharp_dir().join("tests/NavstarTests.cs"));
    all.push(csharp_dir().join("tests/LoadReadBackTests.cs"));
    all.push(csharp_dir().join("tests/AgentTests.cs"));
    all.push(csharp_dir().join("tests/UnityIdiomTests.cs"));
    all.push(csharp_dir().join("tests/ObstacleTests.cs"));
    mcs(&args, &all);

    let mut library_path = OsString::from(lib_dir());
    if let Some(old) = std::env::var_os("LD_LIBRARY_PATH") {
        library_path.push(":");
        library_path.push(old);
    }
    let mut command = Command::new("mono");
    command
        .arg("--debug")
        .arg(&exe)
        .current_dir(&dir)
        .env("LD_LIBRARY_PATH", library_path);
    let stdout = run_checked(command);
    let _ = std::fs::remove_dir_all(&dir);
    stdout
}

#[test]
fn csharp_binding_on_mono() {
    csharp_tests("csharp", false);
}

#[test]
fn csharp_unity_overloads_on_mono() {
    let stdout = csharp_tests("csharp-unity", true);
    assert!(
        stdout.contains("-- Unity overloads") && stdout.contains("PASS: implicit conversions"),
        "the UNITY_5_3_OR_NEWER build did not run the Unity checks:\n{stdout}"
    );
}

/// Unity needs a `.meta` next to every file and folder of an immutable (git) package,
/// and the package version must follow the crate's.
#[test]
fn unity_package_is_complete() {
    let package = csharp_dir().join("unity");
    let json = std::fs::read_to_string(package.join("package.json")).expect("package.json");
    let version_field = format!("\"version\": \"{}\"", env!("CARGO_PKG_VERSION"));
    assert!(
        json.contains(&version_field),
        "package.json should have {version_field} (the crate's version)"
    );
    let asmdef = std::fs::read_to_string(package.join("Runtime/Navstar.Runtime.asmdef"))
        .expect("Runtime/Navstar.Runtime.asmdef");
    assert!(
        asmdef.contains("\"allowUnsafeCode\": true"),
        "the asmdef must allow unsafe code (the binding pins arrays)"
    );

    let mut guids = BTreeSet::new();
    let mut pending = vec![package.clone()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).expect("read the package directory") {
            let path = entry.expect("a directory entry").path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if name.ends_with(".meta") {
                let asset = path.with_extension("");
                assert!(asset.exists(), "{} has no asset next to it", path.display());
                let text = std::fs::read_to_string(&path).expect("read a .meta file");
                let guid = text
                    .lines()
                    .find_map(|line| line.strip_prefix("guid: "))
                    .unwrap_or_else(|| panic!("{} has no guid", path.display()));
                assert!(
                    guid.len() == 32 && guid.chars().all(|c| c.is_ascii_hexdigit()),
                    "{}: bad guid {guid:?}",
                    path.display()
                );
                assert!(
                    guids.insert(guid.to_string()),
                    "{}: duplicate guid {guid}",
                    path.display()
                );
                continue;
            }
            let mut meta = path.clone().into_os_string();
            meta.push(".meta");
            assert!(
                Path::new(&meta).is_file(),
                "{} has no .meta file (Unity ignores assets without one in git packages)",
                path.display()
            );
            if path.is_dir() {
                pending.push(path);
            }
        }
    }
}
