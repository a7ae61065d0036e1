//! Compiles and runs the C and C++ callers (`examples/c/navstar_example.c`,
//! `examples/cpp/navstar_example.cpp`, the world of two tiles in `tests/native/world.c`
//! the loaders and mesh read-back in `tests/native/load_readback.c` and the exact mode's
//! fast lane on the Iron Harvest map in `tests/native/fast_lane.c`) against the libraries that `cargo build` makes: the shared
//! library, the static library, under ASan + UBSan and under valgrind. Also compiles
//! `include/navstar.h` on its own as C99, C11, C++11 and C++17.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::{describe, lib_dir, manifest_dir, output_text, run_checked, run_ok, run_tool};

const C_EXAMPLE: &str = "examples/c/navstar_example.c";
const CPP_EXAMPLE: &str = "examples/cpp/navstar_example.cpp";
const C_WORLD: &str = "tests/native/world.c";
/// Reads `data/arena.mesh` and `README.md`: run from the package root (cargo's working
/// directory for tests).
const C_LOAD_READBACK: &str = "tests/native/load_readback.c";
/// Reads `../shared/data/mesh/scene_mp_2p_01.mesh` and its scenario: run from the
/// package root too.
const C_FAST_LANE: &str = "tests/native/fast_lane.c";

const C_WARNINGS: &[&str] = &["-Wall", "-Wextra", "-Wpedantic", "-Wundef", "-Werror"];
const CPP_WARNINGS: &[&str] = &["-Wall", "-Wextra", "-Wpedantic", "-Wundef", "-Werror"];
const SANITIZE: &[&str] = &[
    "-g",
    "-fno-omit-frame-pointer",
    "-fsanitize=address,undefined",
    "-fno-sanitize-recover=all",
];

fn include_dir() -> PathBuf {
    manifest_dir().join("include")
}

/// The output directory for compiled programs: one per test process, so that two
/// `cargo test` runs at once never run each other's half-written executables.
fn out_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("c_programs")
        .join(std::process::id().to_string());
    std::fs::create_dir_all(&dir).expect("create the output directory");
    dir
}

/// Removes an output after its test passed (a failure leaves it for inspection). The
/// process's directory stays: under `cargo test` the tests are threads of one process,
/// and removing a momentarily empty directory raced with another test's link step.
fn remove_output(path: &Path) {
    let _ = std::fs::remove_file(path);
}

#[derive(Clone, Copy)]
enum Language {
    C,
    Cpp,
}

#[derive(Clone, Copy)]
enum Link {
    Shared,
    Static,
}

/// Compiles `source` (relative to the crate root) into `out_dir()/name` and returns the
/// executable's path.
fn compile(
    language: Language,
    standard: &str,
    source: &str,
    link: Link,
    flags: &[&str],
    name: &str,
) -> PathBuf {
    let lib = lib_dir();
    let exe = out_dir().join(name);
    let _ = std::fs::remove_file(&exe);
    let (compiler, warnings) = match language {
        Language::C => ("gcc", C_WARNINGS),
        Language::Cpp => ("g++", CPP_WARNINGS),
    };
    let mut args: Vec<OsString> = vec![format!("-std={standard}").into()];
    args.extend(warnings.iter().map(OsString::from));
    args.extend(flags.iter().map(OsString::from));
    args.push("-I".into());
    args.push(include_dir().into());
    args.push(manifest_dir().join(source).into());
    match link {
        Link::Shared => {
            args.push("-L".into());
            args.push(lib.clone().into());
            args.push("-lnavstar".into());
            let mut rpath = OsString::from("-Wl,-rpath,");
            rpath.push(&lib);
            args.push(rpath);
        }
        Link::Static => {
            args.push(lib.join("libnavstar.a").into());
            args.extend(["-lpthread", "-ldl"].map(OsString::from));
        }
    }
    args.push("-lm".into());
    args.push("-o".into());
    args.push(exe.clone().into());
    let mut command = Command::new(compiler);
    command.args(&args);
    run_ok(command);
    exe
}

fn run_plain(exe: &Path) -> String {
    let stdout = run_checked(Command::new(exe));
    remove_output(exe);
    stdout
}

fn run_sanitized(exe: &Path) -> String {
    let mut command = Command::new(exe);
    command
        .env(
            "ASAN_OPTIONS",
            "detect_leaks=1:abort_on_error=0:halt_on_error=1",
        )
        .env("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1");
    let stdout = run_checked(command);
    remove_output(exe);
    stdout
}

fn run_valgrind(exe: &Path) -> String {
    let mut command = Command::new("valgrind");
    command.args([
        "-q",
        "--error-exitcode=99",
        "--leak-check=full",
        "--errors-for-leak-kinds=definite,indirect",
    ]);
    command.arg(exe);
    let stdout = run_checked(command);
    remove_output(exe);
    stdout
}

#[test]
fn c_against_shared_library() {
    let exe = compile(Language::C, "c99", C_EXAMPLE, Link::Shared, &[], "c_shared");
    run_plain(&exe);
}

#[test]
fn c_against_static_library() {
    let exe = compile(Language::C, "c11", C_EXAMPLE, Link::Static, &[], "c_static");
    run_plain(&exe);
}

#[test]
fn cpp_against_shared_library() {
    let exe = compile(
        Language::Cpp,
        "c++17",
        CPP_EXAMPLE,
        Link::Shared,
        &[],
        "cpp_shared",
    );
    run_plain(&exe);
}

#[test]
fn cpp_against_static_library() {
    let exe = compile(
        Language::Cpp,
        "c++17",
        CPP_EXAMPLE,
        Link::Static,
        &[],
        "cpp_static",
    );
    run_plain(&exe);
}

#[test]
fn cpp_without_exceptions_and_rtti() {
    let exe = compile(
        Language::Cpp,
        "c++17",
        CPP_EXAMPLE,
        Link::Shared,
        &["-fno-exceptions", "-fno-rtti"],
        "cpp_no_exceptions",
    );
    run_plain(&exe);
}

#[test]
fn c_under_address_and_undefined_sanitizers() {
    let exe = compile(
        Language::C,
        "c99",
        C_EXAMPLE,
        Link::Shared,
        SANITIZE,
        "c_asan",
    );
    run_sanitized(&exe);
}

#[test]
fn cpp_under_address_and_undefined_sanitizers() {
    let exe = compile(
        Language::Cpp,
        "c++17",
        CPP_EXAMPLE,
        Link::Shared,
        SANITIZE,
        "cpp_asan",
    );
    run_sanitized(&exe);
}

#[test]
fn c_under_valgrind() {
    let version = run_tool({
        let mut command = Command::new("valgrind");
        command.arg("--version");
        command
    });
    assert!(
        version.status.success(),
        "`valgrind --version` failed:\n{}",
        output_text(&version)
    );
    let exe = compile(
        Language::C,
        "c99",
        C_EXAMPLE,
        Link::Shared,
        &["-g"],
        "c_valgrind",
    );
    run_valgrind(&exe);
}

#[test]
fn c_world_of_two_tiles_against_the_static_library() {
    let exe = compile(
        Language::C,
        "c99",
        C_WORLD,
        Link::Static,
        &[],
        "c_world_static",
    );
    run_plain(&exe);
}

#[test]
fn c_world_of_two_tiles_under_sanitizers_and_valgrind() {
    let exe = compile(
        Language::C,
        "c99",
        C_WORLD,
        Link::Shared,
        SANITIZE,
        "c_world_asan",
    );
    run_sanitized(&exe);
    let exe = compile(
        Language::C,
        "c99",
        C_WORLD,
        Link::Shared,
        &["-g"],
        "c_world_valgrind",
    );
    run_valgrind(&exe);
}

#[test]
fn c_load_and_read_back_against_the_static_library() {
    let exe = compile(
        Language::C,
        "c99",
        C_LOAD_READBACK,
        Link::Static,
        &[],
        "c_load_static",
    );
    run_plain(&exe);
}

#[test]
fn c_load_and_read_back_under_sanitizers_and_valgrind() {
    let exe = compile(
        Language::C,
        "c99",
        C_LOAD_READBACK,
        Link::Shared,
        SANITIZE,
        "c_load_asan",
    );
    run_sanitized(&exe);
    let exe = compile(
        Language::C,
        "c99",
        C_LOAD_READBACK,
        Link::Shared,
        &["-g"],
        "c_load_valgrind",
    );
    run_valgrind(&exe);
}

#[test]
fn c_fast_lane_against_the_static_library_and_under_sanitizers() {
    // (Not under valgrind: its 400 exact paths on 3860 polygons take about a minute there.)
    let exe = compile(
        Language::C,
        "c99",
        C_FAST_LANE,
        Link::Static,
        &[],
        "c_fast_lane_static",
    );
    assert!(run_plain(&exe).contains("18 passed, 0 failed"));
    let exe = compile(
        Language::C,
        "c99",
        C_FAST_LANE,
        Link::Shared,
        SANITIZE,
        "c_fast_lane_asan",
    );
    assert!(run_sanitized(&exe).contains("18 passed, 0 failed"));
}

/// Compiles a file that includes the header (twice, to exercise the include guard) and
/// uses each type, with warnings as errors.
fn compile_header_alone(language: Language, standard: &str) {
    let (compiler, extension, warnings, size_check) = match language {
        Language::C if standard == "c99" => (
            "gcc",
            "c",
            C_WARNINGS,
            "typedef char navstar_status_is_32_bits[sizeof(NavstarStatus) == 4 ? 1 : -1];",
        ),
        Language::C => (
            "gcc",
            "c",
            C_WARNINGS,
            "_Static_assert(sizeof(NavstarStatus) == 4, \"32 bits\");",
        ),
        Language::Cpp => (
            "g++",
            "cpp",
            CPP_WARNINGS,
            "static_assert(sizeof(NavstarStatus) == 4, \"32 bits\");",
        ),
    };
    let source = out_dir().join(format!("header_{standard}.{extension}").replace('+', "p"));
    let text = format!(
        "#include \"navstar.h\"\n\
         #include \"navstar.h\"\n\
         {size_check}\n\
         int main(void) {{\n\
         \x20   NavstarStatus status = NAVSTAR_OK;\n\
         \x20   struct NavstarMeshOptions mesh_options = navstar_mesh_options_default();\n\
         \x20   NavstarPathOptions path_options = navstar_path_options_default();\n\
         \x20   NavstarMesh *mesh = NULL;\n\
         \x20   NavstarQuery *query = NULL;\n\
         \x20   NavstarWorldOptions world_options = navstar_world_options_default();\n\
         \x20   NavstarWorld *world = NULL;\n\
         \x20   NavstarTileRef tile = {{0, 0, 0}};\n\
         \x20   (void)mesh_options; (void)path_options; (void)mesh; (void)query;\n\
         \x20   (void)world_options; (void)world; (void)tile;\n\
         \x20   return status == NAVSTAR_ERROR_INTERNAL ? 1 : 0;\n\
         }}\n"
    );
    std::fs::write(&source, text).expect("write the header check source");
    let mut command = Command::new(compiler);
    command
        .arg(format!("-std={standard}"))
        .args(warnings)
        .arg("-fsyntax-only")
        .arg("-I")
        .arg(include_dir())
        .arg(&source);
    let what = describe(&command);
    let output = run_tool(command);
    assert!(
        output.status.success() && output.stderr.is_empty(),
        "the header does not compile cleanly as {standard}: {what}\n{}",
        output_text(&output)
    );
    remove_output(&source);
}

#[test]
fn header_compiles_as_c99() {
    compile_header_alone(Language::C, "c99");
}

#[test]
fn header_compiles_as_c11() {
    compile_header_alone(Language::C, "c11");
}

#[test]
fn header_compiles_as_cpp11() {
    compile_header_alone(Language::Cpp, "c++11");
}

#[test]
fn header_compiles_as_cpp17() {
    compile_header_alone(Language::Cpp, "c++17");
}
