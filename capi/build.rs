//! Gives the shared library a SONAME on Linux.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    // A Rust cdylib has no SONAME by default; give it one so that programs linked with
    // `-lnavstar` record `libnavstar.so`, not the path they were linked with.
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libnavstar.so");
    }
}
