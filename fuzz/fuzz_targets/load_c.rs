//! Fuzzes the C loaders (`navstar_mesh_load_bytes`, `navstar_mesh_load`) against the
//! Rust loaders, in every format, from bytes and from files: arbitrary bytes, any
//! format value (valid, AUTO, unknown), any options struct, file names with each known
//! extension (any case), an unknown one or none, missing files and NULL paths.
//!
//! Checks: the C and Rust loaders accept and refuse alike, with the same status and
//! message (a file's errors after its quoted name), and build the same mesh (its saved
//! bytes are equal); bad options and format values are refused by name; `*out_mesh` is
//! NULL after every error; no call panics.
#![no_main]

use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use navstar_fuzz::loaders::{check_load_bytes, check_load_file};
use navstar_fuzz::{MeshOpts, SmallU32};

#[derive(Arbitrary, Debug)]
enum Source {
    /// `navstar_mesh_load_bytes`.
    Bytes,
    /// `navstar_mesh_load` of a file holding the bytes, named `name`.
    File(Name),
    /// `navstar_mesh_load` of a file that does not exist.
    Missing(Name),
    /// `navstar_mesh_load` with a NULL path.
    NullPath,
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Name {
    Obj,
    Mesh,
    Map,
    Navstar,
    UpperObj,
    Unknown,
    NoExtension,
}

impl Name {
    fn file_name(self) -> &'static str {
        match self {
            Name::Obj => "level.obj",
            Name::Mesh => "level.mesh",
            Name::Map => "level.map",
            Name::Navstar => "level.navstar",
            Name::UpperObj => "LEVEL.OBJ",
            Name::Unknown => "level.txt",
            Name::NoExtension => "level",
        }
    }
}

#[derive(Arbitrary, Debug)]
struct Input {
    /// The format value: `Small(0..=4)` are the constants.
    format: SmallU32,
    options: MeshOpts,
    source: Source,
    bytes: Vec<u8>,
}

/// A fresh directory of this process for each file (so that runs never see each
/// other's files).
fn scratch(name: &str) -> PathBuf {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed) % 4;
    let dir = std::env::temp_dir().join(format!("navstar-fuzz-load-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir.join(name)
}

fuzz_target!(|input: Input| {
    let format = match input.format {
        SmallU32::Small(v) => u32::from(v % 6),
        SmallU32::Any(v) => v,
    };
    match input.source {
        Source::Bytes => check_load_bytes(&input.bytes, format, &input.options),
        Source::File(name) => {
            let path = scratch(name.file_name());
            std::fs::write(&path, &input.bytes).expect("a scratch file");
            check_load_file(Some(&path), format, &input.options);
            let _ = std::fs::remove_file(&path);
        }
        Source::Missing(name) => {
            let path =
                scratch(name.file_name()).with_file_name(format!("missing-{}", name.file_name()));
            check_load_file(Some(&path), format, &input.options);
        }
        Source::NullPath => check_load_file(None, format, &input.options),
    }
});
