//! navstar's C ABI as the native libraries that engines link: `libnavstar.so` (cdylib)
//! and `libnavstar.a` (staticlib), in `target/<profile>/`.
//!
//! The functions themselves are `navstar::ffi`, compiled in by the `capi` feature; this
//! crate only links them. A cdylib exports every `#[no_mangle] extern "C"` function of
//! the crates it links, and a staticlib bundles their object code, so linking `navstar`
//! is all it takes. The header that declares them is the committed `include/navstar.h`,
//! checked against the sources by `tests/header.rs`.

pub use navstar::ffi;
