//! A world of tiles: meshes added, removed and replaced while other threads query
//! snapshots of it. Layer 3b: uses `mesh/` (and the layers below it); used by `io/`,
//! `ffi/` and the command-line tool.
//!
//! [`stitch`] joins the wall edges of neighbouring tiles where they overlap.

#[cfg_attr(not(test), allow(dead_code))]
pub(crate) mod stitch;
