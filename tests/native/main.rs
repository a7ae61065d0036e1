//! Programs in other languages built and run against the libraries that `cargo build`
//! makes (`libnavstar.so`, `libnavstar.a`, `include/navstar.h`):
//!
//! * `c_programs`: the C and C++ example callers, against the shared and the static
//!   library, under ASan + UBSan and under valgrind, and the header compiled on its own;
//! * `bindings`: the C++ CMake package, the C# binding under Mono and the Unity package;
//! * `plugins`: the Unity package with a native library per platform, as
//!   `scripts/build-plugins` packs it (run it first, as `scripts/test` does).
//!
//! `cargo test` builds only the rlib: run `cargo build` (same profile) first, as
//! `scripts/test` does. gcc, g++, valgrind, cmake, make, readelf (binutils), mcs and mono
//! must be installed; `scripts/test` installs them. A missing tool or library fails these
//! tests; they never skip.

mod bindings;
mod c_programs;
mod plugins;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// `target/<profile>`, found from the running test binary (`target/<profile>/deps/…`),
/// after checking that `cargo build` has put both libraries there.
pub fn lib_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the path of the test binary");
    let dir = exe
        .parent()
        .and_then(Path::parent)
        .unwrap_or_else(|| panic!("cannot find target/<profile> above {}", exe.display()))
        .to_path_buf();
    for name in ["libnavstar.so", "libnavstar.a"] {
        let path = dir.join(name);
        assert!(
            path.is_file(),
            "{} is missing. `cargo test` builds only the rlib: run `cargo build` (same profile) \
             before these tests, as scripts/test does.",
            path.display()
        );
    }
    dir
}

/// The crate's root directory.
fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A command line as one string, for messages.
fn describe(command: &Command) -> String {
    let mut text = command.get_program().to_string_lossy().into_owned();
    for arg in command.get_args() {
        text.push(' ');
        text.push_str(&arg.to_string_lossy());
    }
    text
}

/// A finished command's stdout and stderr, for messages.
fn output_text(output: &Output) -> String {
    format!(
        "--- stdout ---\n{}\n--- stderr ---\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// The Debian package that provides each tool these tests run.
fn package_of(tool: &str) -> &'static str {
    match tool {
        "cmake" => "cmake",
        "mcs" => "mono-mcs",
        "mono" => "mono-runtime",
        "readelf" => "binutils",
        "valgrind" => "valgrind",
        "g++" => "g++",
        "gcc" => "gcc",
        "objdump" => "binutils",
        "aarch64-linux-gnu-objdump" => "binutils-aarch64-linux-gnu",
        "x86_64-w64-mingw32-objdump" => "binutils-mingw-w64-x86-64",
        "tar" => "tar",
        _ => "build-essential",
    }
}

/// Runs a command whose program must be installed; a missing one fails the test and
/// says how to get it.
fn run_tool(mut command: Command) -> Output {
    let what = describe(&command);
    let program = command.get_program().to_string_lossy().into_owned();
    match command.output() {
        Ok(output) => output,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => panic!(
            "`{program}` is not installed ({e}). These tests do not skip: run scripts/test, which \
             installs it (apt-get install {}), or install it yourself.\ncommand: {what}",
            package_of(&program)
        ),
        Err(e) => panic!("cannot run `{what}`: {e}"),
    }
}

/// Runs a command that must succeed; returns its stdout.
fn run_ok(command: Command) -> String {
    let what = describe(&command);
    let output = run_tool(command);
    assert!(
        output.status.success(),
        "`{what}` failed with {}\n{}",
        output.status,
        output_text(&output)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Runs a self-checking program and asserts that it succeeded and that its last line is
/// `N passed, 0 failed` with N > 0. Returns its stdout.
fn run_checked(mut command: Command) -> String {
    command.env("RUST_BACKTRACE", "0");
    let what = describe(&command);
    let output = run_tool(command);
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "`{what}` failed with {}\n{}",
        output.status,
        output_text(&output)
    );
    let last = stdout.lines().last().unwrap_or("");
    let passed = last
        .strip_suffix(" passed, 0 failed")
        .and_then(|n| n.parse::<u32>().ok())
        .unwrap_or(0);
    assert!(
        passed > 0,
        "`{what}` did not end with `N passed, 0 failed` (last line: {last:?})\n{}",
        output_text(&output)
    );
    stdout
}
