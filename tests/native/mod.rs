//! Where the test binaries find the built native library (shared by the tests that
//! compile and run C, C++ and C# programs against it).

use std::path::{Path, PathBuf};

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
