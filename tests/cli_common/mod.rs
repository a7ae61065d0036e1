//! What the command-line tests share: the bundled arena files and running the `navstar`
//! binary. Included by the `cli_*` test files with `mod cli_common;`.

#![allow(dead_code)]

use std::process::{Command, Output};

/// The bundled Polyanya arena mesh.
pub const ARENA_MESH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/arena.mesh");
/// Its scenario.
pub const ARENA_SCEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/arena.map.scen");

/// Runs the `navstar` binary with `args`.
pub fn navstar(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_navstar"))
        .args(args)
        .output()
        .expect("the navstar binary runs")
}

/// Runs `args` expecting success; its standard output.
pub fn success(args: &[&str]) -> String {
    let output = navstar(args);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The rest of the first line of `text` that starts with `key`, trimmed.
pub fn field<'a>(text: &'a str, key: &str) -> &'a str {
    text.lines()
        .find_map(|l| l.strip_prefix(key))
        .unwrap_or_else(|| panic!("no '{key}' in:\n{text}"))
        .trim()
}
