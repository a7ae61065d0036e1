//! Loading meshes through the C ABI (`navstar_mesh_load`, `navstar_mesh_load_bytes`) in
//! every format, from bytes and from files (the format named or told by the extension):
//! known meshes, the same mesh as the Rust loaders, options passed through, and every
//! refusal with its status and a message naming the culprit (line numbers included).

use std::ffi::{CString, c_char};
use std::path::{Path, PathBuf};
use std::ptr;

use navstar::MeshOptions;
use navstar::ffi::{
    NAVSTAR_FORMAT_AUTO, NAVSTAR_FORMAT_MOVINGAI_MAP, NAVSTAR_FORMAT_NAVSTAR, NAVSTAR_FORMAT_OBJ,
    NAVSTAR_FORMAT_POLYANYA_MESH, NAVSTAR_UP_Z, NavstarMesh, NavstarMeshOptions, NavstarStatus,
    navstar_mesh_free, navstar_mesh_island_count, navstar_mesh_load, navstar_mesh_load_bytes,
    navstar_mesh_options_default, navstar_mesh_polygon_count, navstar_mesh_save,
    navstar_mesh_vertex_count,
};
use navstar::io::{MeshFormat, load_mesh, load_mesh_file};

use crate::assert_status;

use NavstarStatus::{
    NavstarErrorInvalidArgument as INVALID, NavstarErrorInvalidMesh as INVALID_MESH,
    NavstarErrorNullArgument as NULL, NavstarOk as OK,
};

/// Two unit squares side by side in the x-z plane, sharing the edge 2-5.
const TWO_SQUARES_OBJ: &str = "# two squares\nv 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\n\
    v 2 0 0\nv 2 0 1\nf 1 4 3 2\nf 2 3 6 5\n";
/// A Polyanya version 3 mesh: a square of four triangles round its centre.
const SMALL_V3: &str = "mesh\n3\n5 4\n0 0\n0 10\n10 10\n10 0\n5 5\n\
    0 3 4 1 5 -4 0 -2\n1 3 1 2 5 -1 0 3\n1 3 2 3 5 2 0 4\n1 3 3 4 5 3 0 -1\n";
/// A 3x2 grid map with one blocked cell.
const SMALL_MAP: &str = "type octile\nheight 2\nwidth 3\nmap\n..@\n...\n";

/// A loader's answer: its status and the mesh (NULL on error), freed on drop.
struct Loaded {
    status: NavstarStatus,
    mesh: *mut NavstarMesh,
}

impl Drop for Loaded {
    fn drop(&mut self) {
        // SAFETY: NULL or a mesh made by the loader, freed only here.
        unsafe { navstar_mesh_free(self.mesh) }
    }
}

impl Loaded {
    /// Asserts success and gives the mesh.
    #[track_caller]
    fn ok(&self) -> *const NavstarMesh {
        assert_eq!(self.status, OK, "{}", crate::last_error());
        assert!(!self.mesh.is_null());
        self.mesh
    }

    /// Asserts the refusal (status and message words) and that no mesh was made.
    #[track_caller]
    fn refused(&self, status: NavstarStatus, culprits: &[&str]) {
        assert_status(self.status, status, culprits);
        assert!(self.mesh.is_null(), "*out_mesh must be NULL after an error");
    }
}

fn from_bytes(bytes: &[u8], format: u32, options: Option<&NavstarMeshOptions>) -> Loaded {
    // Starts non-NULL: the loader must clear it on error.
    let mut mesh: *mut NavstarMesh = ptr::dangling_mut();
    // SAFETY: `bytes` is readable for its length; `options` NULL or a full struct.
    let status = unsafe {
        navstar_mesh_load_bytes(
            bytes.as_ptr(),
            bytes.len() as u32,
            format,
            options.map_or(ptr::null(), ptr::from_ref),
            &mut mesh,
        )
    };
    Loaded { status, mesh }
}

fn from_c_path(path: *const c_char, format: u32, options: Option<&NavstarMeshOptions>) -> Loaded {
    let mut mesh: *mut NavstarMesh = ptr::dangling_mut();
    // SAFETY: `path` is NULL or NUL-terminated; `options` NULL or a full struct.
    let status = unsafe {
        navstar_mesh_load(
            path,
            format,
            options.map_or(ptr::null(), ptr::from_ref),
            &mut mesh,
        )
    };
    Loaded { status, mesh }
}

fn from_file(path: &Path, format: u32) -> Loaded {
    let c = CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    from_c_path(c.as_ptr(), format, None)
}

/// Writes `bytes` to a file named `name` in the test's scratch directory.
fn scratch_file(name: &str, bytes: &[u8]) -> PathBuf {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Polygon count, vertex count and island count of a mesh handle.
fn counts(mesh: *const NavstarMesh) -> (u32, u32, u32) {
    // SAFETY: a live mesh.
    unsafe {
        (
            navstar_mesh_polygon_count(mesh),
            navstar_mesh_vertex_count(mesh),
            navstar_mesh_island_count(mesh),
        )
    }
}

/// The saved bytes of a mesh handle (two-call pattern).
fn saved(mesh: *const NavstarMesh) -> Vec<u8> {
    let mut size = 0u32;
    // SAFETY: a live mesh; NULL with capacity 0 asks for the size.
    unsafe { navstar_mesh_save(mesh, ptr::null_mut(), 0, &mut size) };
    let mut bytes = vec![0u8; size as usize];
    // SAFETY: `bytes` has room for `size` bytes.
    let status = unsafe { navstar_mesh_save(mesh, bytes.as_mut_ptr(), size, &mut size) };
    assert_status(status, OK, &[]);
    bytes
}

#[test]
fn every_format_loads_from_bytes_with_known_counts() {
    let obj = from_bytes(TWO_SQUARES_OBJ.as_bytes(), NAVSTAR_FORMAT_OBJ, None);
    assert_eq!(counts(obj.ok()), (2, 6, 1));
    let polyanya = from_bytes(SMALL_V3.as_bytes(), NAVSTAR_FORMAT_POLYANYA_MESH, None);
    assert_eq!(counts(polyanya.ok()), (3, 5, 1), "one face is an obstacle");
    // The grid: five free cells merged into rectangles, one island.
    let map = from_bytes(SMALL_MAP.as_bytes(), NAVSTAR_FORMAT_MOVINGAI_MAP, None);
    let (polygons, _, islands) = counts(map.ok());
    assert!((2..=5).contains(&polygons), "{polygons} rectangles");
    assert_eq!(islands, 1);
    // The binary format: what navstar_mesh_save wrote loads back to the same bytes.
    let bytes = saved(obj.ok());
    let navstar = from_bytes(&bytes, NAVSTAR_FORMAT_NAVSTAR, None);
    assert_eq!(saved(navstar.ok()), bytes);
}

#[test]
fn the_c_loaders_build_what_the_rust_loaders_build() {
    let cases = [
        (
            TWO_SQUARES_OBJ,
            NAVSTAR_FORMAT_OBJ,
            MeshFormat::Obj,
            "c_abi_load.obj",
        ),
        (
            SMALL_V3,
            NAVSTAR_FORMAT_POLYANYA_MESH,
            MeshFormat::PolyanyaMesh,
            "c_abi_load.mesh",
        ),
        (
            SMALL_MAP,
            NAVSTAR_FORMAT_MOVINGAI_MAP,
            MeshFormat::MovingAiMap,
            "c_abi_load.MAP",
        ),
    ];
    for (text, c_format, format, name) in cases {
        let rust = load_mesh(text.as_bytes(), format, &MeshOptions::default()).unwrap();
        let want = rust.to_bytes().unwrap();
        let path = scratch_file(name, text.as_bytes());
        assert_eq!(
            load_mesh_file(&path, &MeshOptions::default())
                .unwrap()
                .to_bytes()
                .unwrap(),
            want
        );
        for loaded in [
            from_bytes(text.as_bytes(), c_format, None),
            from_file(&path, c_format),
            from_file(&path, NAVSTAR_FORMAT_AUTO),
        ] {
            assert_eq!(saved(loaded.ok()), want, "{name}");
        }
    }
    // A saved mesh, by extension.
    let obj = from_bytes(TWO_SQUARES_OBJ.as_bytes(), NAVSTAR_FORMAT_OBJ, None);
    let bytes = saved(obj.ok());
    let path = scratch_file("c_abi_load.navstar", &bytes);
    assert_eq!(saved(from_file(&path, NAVSTAR_FORMAT_AUTO).ok()), bytes);
    // The bundled Polyanya arena, by extension.
    let arena = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/arena.mesh");
    let rust = load_mesh_file(&arena, &MeshOptions::default()).unwrap();
    let loaded = from_file(&arena, NAVSTAR_FORMAT_AUTO);
    assert_eq!(saved(loaded.ok()), rust.to_bytes().unwrap());
}

#[test]
fn options_reach_the_builder() {
    // The same squares with one vertex per face corner: welded (the default) they are
    // one island; without welding, two.
    let split = "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nv 1 0 0\nv 1 0 1\nv 2 0 1\nv 2 0 0\n\
        f 1 4 3 2\nf 5 6 7 8\n";
    let welded = from_bytes(split.as_bytes(), NAVSTAR_FORMAT_OBJ, None);
    assert_eq!(counts(welded.ok()).2, 1);
    let mut options = navstar_mesh_options_default();
    options.weld_vertices = 0;
    let apart = from_bytes(split.as_bytes(), NAVSTAR_FORMAT_OBJ, Some(&options));
    assert_eq!(counts(apart.ok()).2, 2);
    // 2D formats are Z up whatever the options say: the same mesh either way.
    options = navstar_mesh_options_default();
    options.up_axis = NAVSTAR_UP_Z;
    let z = from_bytes(
        SMALL_V3.as_bytes(),
        NAVSTAR_FORMAT_POLYANYA_MESH,
        Some(&options),
    );
    let y = from_bytes(SMALL_V3.as_bytes(), NAVSTAR_FORMAT_POLYANYA_MESH, None);
    assert_eq!(saved(z.ok()), saved(y.ok()));
    // Bad options are refused before anything is read.
    options.struct_size = 3;
    from_bytes(
        SMALL_V3.as_bytes(),
        NAVSTAR_FORMAT_POLYANYA_MESH,
        Some(&options),
    )
    .refused(
        INVALID,
        &["navstar_mesh_load_bytes", "options->struct_size is 3"],
    );
    options = navstar_mesh_options_default();
    options.up_axis = 7;
    let c = CString::new("/nonexistent.obj").unwrap();
    from_c_path(c.as_ptr(), NAVSTAR_FORMAT_OBJ, Some(&options))
        .refused(INVALID, &["navstar_mesh_load", "options->up_axis is 7"]);
}

#[test]
fn refused_bytes_name_the_line_or_the_polygon() {
    let cases: [(&[u8], u32, &[&str]); 7] = [
        (
            b"v 0 0 0\nv 1 x 0\n",
            NAVSTAR_FORMAT_OBJ,
            &["line 2: ", "bad y coordinate \"x\""],
        ),
        (
            b"v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 4\n",
            NAVSTAR_FORMAT_OBJ,
            &["line 4: ", "vertex index 4"],
        ),
        (b"v 0 0 0\nv 1 0\x00 0\n", NAVSTAR_FORMAT_OBJ, &["line 2: "]),
        (b"mesh\n2\n", NAVSTAR_FORMAT_POLYANYA_MESH, &["line "]),
        (
            b"mesh\n2\n",
            NAVSTAR_FORMAT_MOVINGAI_MAP,
            &["line 1: ", "not a Moving AI map"],
        ),
        (
            b"v 0 0 0\nv 4 0 0\nv 4 0 4\nv 2 0 1\nv 0 0 4\nf 1 2 3 4 5\n",
            NAVSTAR_FORMAT_OBJ,
            &["invalid mesh: polygon 0 is not convex"],
        ),
        (
            b"NAVSTAR?",
            NAVSTAR_FORMAT_NAVSTAR,
            &["invalid navstar file"],
        ),
    ];
    for (bytes, format, culprits) in cases {
        let loaded = from_bytes(bytes, format, None);
        let mut words = vec!["navstar_mesh_load_bytes: "];
        words.extend_from_slice(culprits);
        loaded.refused(INVALID_MESH, &words);
    }
    // An empty file: NULL is allowed with size 0, and refused by the format.
    let mut mesh: *mut NavstarMesh = ptr::dangling_mut();
    // SAFETY: NULL with size 0 reads nothing.
    let status = unsafe {
        navstar_mesh_load_bytes(ptr::null(), 0, NAVSTAR_FORMAT_OBJ, ptr::null(), &mut mesh)
    };
    Loaded { status, mesh }.refused(INVALID_MESH, &["navstar_mesh_load_bytes", "zero polygons"]);
}

#[test]
fn bad_arguments_are_refused_by_name() {
    from_bytes(b"v", 9, None).refused(INVALID, &["format is 9", "NAVSTAR_FORMAT_OBJ (1)"]);
    from_bytes(TWO_SQUARES_OBJ.as_bytes(), NAVSTAR_FORMAT_AUTO, None)
        .refused(INVALID, &["NAVSTAR_FORMAT_AUTO", "needs a file name"]);
    let mut mesh: *mut NavstarMesh = ptr::dangling_mut();
    // SAFETY: NULL pointers must be refused before any read.
    unsafe {
        let status =
            navstar_mesh_load_bytes(ptr::null(), 5, NAVSTAR_FORMAT_OBJ, ptr::null(), &mut mesh);
        Loaded { status, mesh }.refused(NULL, &["navstar_mesh_load_bytes", "bytes is NULL"]);
        let status = navstar_mesh_load_bytes(
            b"v".as_ptr(),
            1,
            NAVSTAR_FORMAT_OBJ,
            ptr::null(),
            ptr::null_mut(),
        );
        assert_status(status, NULL, &["out_mesh is NULL"]);
        let c = CString::new("x.obj").unwrap();
        let status =
            navstar_mesh_load(c.as_ptr(), NAVSTAR_FORMAT_OBJ, ptr::null(), ptr::null_mut());
        assert_status(status, NULL, &["navstar_mesh_load", "out_mesh is NULL"]);
    }
    from_c_path(ptr::null(), NAVSTAR_FORMAT_AUTO, None)
        .refused(NULL, &["navstar_mesh_load: ", "path is NULL"]);
    let c = CString::new("x.obj").unwrap();
    from_c_path(c.as_ptr(), 6, None).refused(INVALID, &["format is 6"]);
}

#[test]
fn refused_files_name_the_file() {
    from_file(Path::new("/nonexistent/dir/level.obj"), NAVSTAR_FORMAT_AUTO).refused(
        INVALID,
        &[
            "navstar_mesh_load: ",
            "cannot read '/nonexistent/dir/level.obj'",
        ],
    );
    let txt = scratch_file("c_abi_load_level.txt", TWO_SQUARES_OBJ.as_bytes());
    from_file(&txt, NAVSTAR_FORMAT_AUTO).refused(
        INVALID,
        &[
            "cannot tell the mesh format",
            "c_abi_load_level.txt",
            ".obj, .mesh, .map",
        ],
    );
    // Named explicitly, the extension does not matter.
    assert_eq!(counts(from_file(&txt, NAVSTAR_FORMAT_OBJ).ok()).0, 2);
    // A parse error names the file and the line.
    let bad = scratch_file(
        "c_abi_load_bad.obj",
        b"v 0 0 0\n\nv 1 0 0\nv 0 0 1\nf 1 2 9\n",
    );
    from_file(&bad, NAVSTAR_FORMAT_AUTO).refused(
        INVALID_MESH,
        &["c_abi_load_bad.obj': line 5: ", "vertex index 9"],
    );
    // A directory is not a mesh file.
    from_file(Path::new(env!("CARGO_TARGET_TMPDIR")), NAVSTAR_FORMAT_OBJ)
        .refused(INVALID, &["navstar_mesh_load: "]);
}

/// Non-UTF-8 paths are file names like any other where the system allows them.
#[cfg(unix)]
#[test]
fn non_utf8_paths_load_or_are_refused_clearly() {
    use std::os::unix::ffi::OsStrExt;
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let name = std::ffi::OsStr::from_bytes(b"c_abi_load_\xff.obj");
    let path = dir.join(name);
    std::fs::write(&path, TWO_SQUARES_OBJ).unwrap();
    assert_eq!(counts(from_file(&path, NAVSTAR_FORMAT_AUTO).ok()).0, 2);
    // The extension itself is not UTF-8: AUTO cannot tell the format; the message shows
    // the path with a replacement character.
    let odd = dir.join(std::ffi::OsStr::from_bytes(b"c_abi_load.\xfeobj"));
    std::fs::write(&odd, TWO_SQUARES_OBJ).unwrap();
    from_file(&odd, NAVSTAR_FORMAT_AUTO).refused(
        INVALID,
        &["cannot tell the mesh format", "c_abi_load.\u{fffd}obj"],
    );
    let missing = dir.join(std::ffi::OsStr::from_bytes(b"c_abi_missing_\xff.obj"));
    from_file(&missing, NAVSTAR_FORMAT_AUTO)
        .refused(INVALID, &["cannot read", "c_abi_missing_\u{fffd}.obj"]);
}
