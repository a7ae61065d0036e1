//! Generates `include/navstar.h` from the `extern "C"` items in `src/ffi`.

use std::path::PathBuf;

fn main() {
    let dir =
        PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    println!("cargo:rerun-if-changed=src/ffi");
    println!("cargo:rerun-if-changed=cbindgen.toml");
    // A Rust cdylib has no SONAME by default; give it one so that programs linked with
    // `-lnavstar` record `libnavstar.so`, not the path they were linked with.
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libnavstar.so");
    }
    let config =
        cbindgen::Config::from_file(dir.join("cbindgen.toml")).expect("read cbindgen.toml");
    cbindgen::Builder::new()
        .with_crate(&dir)
        .with_config(config)
        .generate()
        .expect("cbindgen could not generate include/navstar.h")
        .write_to_file(dir.join("include/navstar.h"));
}
