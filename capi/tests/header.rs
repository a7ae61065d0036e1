//! The committed C header, `include/navstar.h`, must be what cbindgen generates from
//! `src/ffi` with `cbindgen.toml`. The header is generated here, into memory, only when
//! this test runs; no build writes into the source tree.
//!
//! When the C ABI changed, regenerate the header and commit it:
//!
//! ```sh
//! NAVSTAR_BLESS=1 cargo test -p navstar-capi --test header
//! ```

use std::path::{Path, PathBuf};

/// The command that rewrites the header; also named in cbindgen.toml's autogen warning.
const BLESS: &str = "NAVSTAR_BLESS=1 cargo test -p navstar-capi --test header";

/// The root of the `navstar` crate, which holds `src/ffi`, `cbindgen.toml` and `include/`.
fn navstar_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("capi/ sits inside the navstar crate's directory")
        .to_path_buf()
}

/// The header that cbindgen generates from the sources now.
fn generate() -> Vec<u8> {
    let dir = navstar_dir();
    let config =
        cbindgen::Config::from_file(dir.join("cbindgen.toml")).expect("read cbindgen.toml");
    let bindings = cbindgen::Builder::new()
        .with_crate(&dir)
        .with_config(config)
        .generate()
        .expect("cbindgen could not generate the header from src/ffi");
    let mut text = Vec::new();
    bindings.write(&mut text);
    text
}

/// Where two texts first differ: the line number and both lines.
fn first_difference(committed: &str, generated: &str) -> String {
    let mut committed_lines = committed.lines();
    let mut generated_lines = generated.lines();
    for number in 1.. {
        match (committed_lines.next(), generated_lines.next()) {
            (Some(a), Some(b)) if a == b => continue,
            (None, None) => break,
            (a, b) => {
                return format!(
                    "line {number}:\n  committed: {}\n  generated: {}",
                    a.unwrap_or("(end of file)"),
                    b.unwrap_or("(end of file)")
                );
            }
        }
    }
    "the line endings".to_string()
}

#[test]
fn header_is_up_to_date() {
    let path = navstar_dir().join("include/navstar.h");
    let generated = generate();
    let committed = std::fs::read(&path).unwrap_or_default();
    if committed == generated {
        return;
    }
    if std::env::var_os("NAVSTAR_BLESS").is_some_and(|value| value == "1") {
        std::fs::write(&path, &generated)
            .unwrap_or_else(|error| panic!("cannot write {}: {error}", path.display()));
        eprintln!("rewrote {}", path.display());
        return;
    }
    panic!(
        "{} is not what cbindgen generates from src/ffi; first difference at {}\n\
         Regenerate it with `{BLESS}` and commit it.",
        path.display(),
        first_difference(
            &String::from_utf8_lossy(&committed),
            &String::from_utf8_lossy(&generated)
        ),
    );
}
