//! The huge-count and out-of-memory promises of the C boundary (and of the Rust
//! builders and loaders behind it).
//!
//! * Huge counts that the library must reject before reading any memory
//!   (`vertex_count = UINT32_MAX`, index totals above `UINT32_MAX`) are called with
//!   short buffers, as a careless caller would.
//! * Huge counts with *valid* pointers (billions of polygons, a 60000 x 60000 grid) are
//!   passed memory that costs nothing: read-only anonymous mappings of zero pages. In a
//!   child process whose address space is limited (`RLIMIT_AS`), the copies and tables
//!   the library needs for them cannot be allocated, and each call must return
//!   `NAVSTAR_ERROR_OUT_OF_MEMORY` (or `MeshError::OutOfMemory`) instead of aborting.
//! * Moderate meshes, grids and files are built under a ladder of address-space limits,
//!   so that each allocation of the builders and loaders is, at some rung, the one that
//!   fails: every rung must give a clean out-of-memory error or a mesh, never an abort.
//! * A query whose scratch cannot be allocated reports it as a status.
//!
//! This file is its own test binary because it installs a global allocator that fails on
//! purpose. The child-process tests need Linux (mmap, setrlimit, /proc) on x86_64 or
//! aarch64.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::ffi::CStr;
use std::process::Command;
use std::ptr::{self, NonNull};

use glam::Vec3;
use navstar::ffi::{
    NavstarMesh, NavstarStatus, navstar_last_error_message, navstar_mesh_create,
    navstar_mesh_create_from_grid, navstar_mesh_free,
};
use navstar::io::{
    LoadError, parse_movingai_map_bytes, parse_obj_bytes, parse_polyanya_mesh_bytes,
    parse_scenario_bytes,
};
use navstar::{MeshError, MeshOptions, NavMesh, TileGrid};

fn last_error() -> String {
    // SAFETY: never NULL, NUL-terminated, valid until the next call; copied at once.
    unsafe { CStr::from_ptr(navstar_last_error_message()) }
        .to_string_lossy()
        .into_owned()
}

/// Checks the rules of a failed mesh constructor: the status, `*out_mesh` set to NULL,
/// and a message naming the function and containing `culprit`.
#[track_caller]
fn assert_rejected(
    status: NavstarStatus,
    out: *mut NavstarMesh,
    want: NavstarStatus,
    culprit: &str,
) {
    let message = last_error();
    assert_eq!(status, want, "{message}");
    assert!(out.is_null(), "*out_mesh was not set to NULL");
    assert!(
        message.starts_with("navstar_mesh_create") && message.contains(culprit),
        "{message:?} does not name {culprit:?}"
    );
}

// ---------------------------------------------------------------------------------------
// Huge counts rejected before reading
// ---------------------------------------------------------------------------------------

/// `vertex_count = UINT32_MAX` with a buffer of one vertex (the caller's bug): rejected
/// by the count alone, before the buffer is read.
#[test]
fn vertex_count_uint32_max_with_a_short_buffer_is_rejected_unread() {
    let vertices = [0.0f32; 3];
    let indices = [0u32; 3];
    let mut out: *mut NavstarMesh = NonNull::dangling().as_ptr();
    // SAFETY: rejected before `vertices` is read (documented: UINT32_MAX vertices are
    // not supported); `indices` holds the one triangle asked for.
    let status = unsafe {
        navstar_mesh_create(
            vertices.as_ptr(),
            u32::MAX,
            indices.as_ptr(),
            ptr::null(),
            1,
            ptr::null(),
            &mut out,
        )
    };
    assert_rejected(
        status,
        out,
        NavstarStatus::NavstarErrorInvalidArgument,
        "vertex_count",
    );
}

/// Triangle counts whose index total exceeds `UINT32_MAX`, with short buffers: rejected
/// by the count alone.
#[test]
fn triangle_counts_beyond_uint32_max_indices_are_rejected_unread() {
    let vertices = [0.0f32, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0];
    let indices = [0u32, 1, 2];
    for polygon_count in [u32::MAX / 3 + 1, 2_000_000_000, u32::MAX] {
        let mut out: *mut NavstarMesh = NonNull::dangling().as_ptr();
        // SAFETY: 3 * polygon_count > UINT32_MAX indices are rejected before `indices`
        // is read; `vertices` holds its 3 vertices.
        let status = unsafe {
            navstar_mesh_create(
                vertices.as_ptr(),
                3,
                indices.as_ptr(),
                ptr::null(),
                polygon_count,
                ptr::null(),
                &mut out,
            )
        };
        assert_rejected(
            status,
            out,
            NavstarStatus::NavstarErrorInvalidArgument,
            "indices",
        );
    }
}

/// A grid whose cell count does not even fit in the address space: the copy of the cells
/// cannot be allocated, which is reported, not an abort. (The caller's buffer is too
/// short, but the library never gets as far as reading it.)
#[test]
fn grid_larger_than_the_address_space_is_out_of_memory() {
    let cells = [1u8; 4];
    let mut out: *mut NavstarMesh = NonNull::dangling().as_ptr();
    // SAFETY: the copy of UINT32_MAX^2 bytes fails to allocate (more than isize::MAX)
    // before `cells` is read; origin and options are NULL (defaults).
    let status = unsafe {
        navstar_mesh_create_from_grid(
            cells.as_ptr(),
            u32::MAX,
            u32::MAX,
            1.0,
            ptr::null(),
            ptr::null(),
            &mut out,
        )
    };
    assert_eq!(
        status,
        NavstarStatus::NavstarErrorOutOfMemory,
        "{}",
        last_error()
    );
    assert!(out.is_null());
    assert!(last_error().contains("cells"), "{}", last_error());
}

// ---------------------------------------------------------------------------------------
// Allocation failures on purpose
// ---------------------------------------------------------------------------------------

/// The system allocator, except that on a thread with a limit set (see
/// [`with_alloc_limit`]) every allocation or reallocation larger than the limit fails.
/// Other threads (the other tests of this binary) are not affected.
struct LimitedAllocator;

thread_local! {
    static ALLOC_LIMIT: Cell<usize> = const { Cell::new(usize::MAX) };
}

fn alloc_limit() -> usize {
    ALLOC_LIMIT.try_with(Cell::get).unwrap_or(usize::MAX)
}

// SAFETY: forwards to the system allocator, or fails (returns NULL) before calling it.
unsafe impl GlobalAlloc for LimitedAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.size() > alloc_limit() {
            return ptr::null_mut();
        }
        // SAFETY: the caller's contract, forwarded.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if layout.size() > alloc_limit() {
            return ptr::null_mut();
        }
        // SAFETY: the caller's contract, forwarded.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, forwarded.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > alloc_limit() {
            return ptr::null_mut();
        }
        // SAFETY: the caller's contract, forwarded.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: LimitedAllocator = LimitedAllocator;

/// Runs `body` on this thread with every allocation larger than `bytes` failing.
fn with_alloc_limit<R>(bytes: usize, body: impl FnOnce() -> R) -> R {
    ALLOC_LIMIT.with(|limit| limit.set(bytes));
    let result = body();
    ALLOC_LIMIT.with(|limit| limit.set(usize::MAX));
    result
}

/// Runs the test `name` (its full path in this binary) again in a child process, where
/// `body` runs. An abort (what these tests are about) then fails the test with the
/// child's output instead of killing the whole test binary.
fn in_child(name: &str, body: impl FnOnce()) {
    const CHILD: &str = "NAVSTAR_LIMITS_CHILD";
    if std::env::var(CHILD).as_deref() == Ok(name) {
        body();
        return;
    }
    let output = Command::new(std::env::current_exe().expect("the test binary"))
        .args([name, "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD, name)
        .env("RUST_BACKTRACE", "0")
        .output()
        .expect("run the test binary again");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        output.status.success() && text.contains("1 passed"),
        "the child process failed ({}):\n{text}",
        output.status
    );
}

/// A long strip of `n` triangles (Y up), 1 unit wide: vertices and indices.
fn strip(n: usize) -> (Vec<Vec3>, Vec<u32>) {
    let columns = n / 2 + 1;
    let mut vertices = Vec::new();
    for i in 0..=columns {
        vertices.push(Vec3::new(i as f32, 0.0, 0.0));
        vertices.push(Vec3::new(i as f32, 0.0, 1.0));
    }
    let mut indices = Vec::new();
    for i in 0..n as u32 {
        let c = i / 2;
        let (b0, t0, b1, t1) = (2 * c, 2 * c + 1, 2 * c + 2, 2 * c + 3);
        if i % 2 == 0 {
            indices.extend([b0, b1, t1]);
        } else {
            indices.extend([b0, t1, t0]);
        }
    }
    (vertices, indices)
}

// ---------------------------------------------------------------------------------------
// Huge counts with valid pointers (zero pages), on Linux
// ---------------------------------------------------------------------------------------

#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
mod huge {
    use std::ffi::c_void;
    use std::marker::PhantomData;

    use navstar::{MeshError, MeshOptions, NavMesh, TileGrid};

    use super::*;

    unsafe extern "C" {
        fn mmap(
            addr: *mut c_void,
            len: usize,
            prot: i32,
            flags: i32,
            fd: i32,
            off: i64,
        ) -> *mut c_void;
        fn munmap(addr: *mut c_void, len: usize) -> i32;
    }

    const PROT_READ: i32 = 1;
    const MAP_PRIVATE: i32 = 0x02;
    const MAP_ANONYMOUS: i32 = 0x20;
    const MAP_NORESERVE: i32 = 0x4000;
    const MAP_FAILED: *mut c_void = !0usize as *mut c_void;
    const GIB: usize = 1 << 30;

    /// Read-only zero memory: a private anonymous mapping whose pages all map the
    /// kernel's zero page when read, so it costs address space, not RAM.
    struct Zeros<T> {
        ptr: *mut c_void,
        bytes: usize,
        _type: PhantomData<T>,
    }

    impl<T> Zeros<T> {
        fn new(bytes: usize) -> Zeros<T> {
            // SAFETY: a fresh anonymous mapping; no existing memory is touched.
            let ptr = unsafe {
                mmap(
                    ptr::null_mut(),
                    bytes,
                    PROT_READ,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                    -1,
                    0,
                )
            };
            assert!(ptr != MAP_FAILED, "mmap of {bytes} bytes failed");
            Zeros {
                ptr,
                bytes,
                _type: PhantomData,
            }
        }

        /// The first `len` elements as a slice of `U`.
        ///
        /// # Safety
        /// All-zero bytes must be a valid `U` (integers, floats, `bool`, glam vectors).
        unsafe fn slice<U>(&self, len: usize) -> &[U] {
            assert!(len * size_of::<U>() <= self.bytes);
            // SAFETY: readable, zero-filled, page-aligned memory that lives as long as
            // `self`; all-zero bytes are a valid U (caller contract).
            unsafe { std::slice::from_raw_parts(self.ptr.cast::<U>(), len) }
        }
    }

    impl<T> Drop for Zeros<T> {
        fn drop(&mut self) {
            // SAFETY: the mapping made in `new`, unmapped once.
            unsafe { munmap(self.ptr, self.bytes) };
        }
    }

    /// Billions of polygons, billions of vertices and a 60000 x 60000 grid, all behind
    /// valid pointers (64 GiB of zero pages), while no allocation above 256 MiB can
    /// succeed: every call fails with an out-of-memory error, nothing aborts.
    #[test]
    fn huge_counts_with_valid_pointers_are_out_of_memory() {
        in_child(
            "huge::huge_counts_with_valid_pointers_are_out_of_memory",
            || {
                let zeros: Zeros<u8> = Zeros::new(64 * GIB);
                with_alloc_limit(256 << 20, || {
                    huge_c_calls(&zeros);
                    huge_rust_calls(&zeros);
                });
            },
        );
    }

    fn huge_c_calls(zeros: &Zeros<u8>) {
        let as_u32 = zeros.ptr.cast::<u32>().cast_const();
        let vertices = [0.0f32, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0];
        let oom = NavstarStatus::NavstarErrorOutOfMemory;
        // Three billion polygon sizes (12 GB), read from valid memory.
        let mut out: *mut NavstarMesh = NonNull::dangling().as_ptr();
        // SAFETY: 64 GiB are readable: 3e9 sizes and as many indices as they could ask
        // for; the vertices hold 3.
        let status = unsafe {
            navstar_mesh_create(
                vertices.as_ptr(),
                3,
                as_u32,
                as_u32,
                3_000_000_000,
                ptr::null(),
                &mut out,
            )
        };
        assert_rejected(status, out, oom, "polygon_sizes");
        // UINT32_MAX / 3 triangles: 4294967295 indices (17 GB).
        out = NonNull::dangling().as_ptr();
        // SAFETY: as above.
        let status = unsafe {
            navstar_mesh_create(
                vertices.as_ptr(),
                3,
                as_u32,
                ptr::null(),
                u32::MAX / 3,
                ptr::null(),
                &mut out,
            )
        };
        assert_rejected(status, out, oom, "indices");
        // UINT32_MAX - 1 vertices: 51 GB of coordinates.
        out = NonNull::dangling().as_ptr();
        // SAFETY: 3 * (2^32 - 2) floats fit in the 64 GiB.
        let status = unsafe {
            navstar_mesh_create(
                as_u32.cast::<f32>(),
                u32::MAX - 1,
                as_u32,
                ptr::null(),
                1,
                ptr::null(),
                &mut out,
            )
        };
        assert_rejected(status, out, oom, "vertices");
        // A 60000 x 60000 grid: 3.6 GB of cells.
        out = NonNull::dangling().as_ptr();
        // SAFETY: 3.6e9 readable bytes; NULL origin and options.
        let status = unsafe {
            navstar_mesh_create_from_grid(
                zeros.ptr.cast::<u8>(),
                60_000,
                60_000,
                1.0,
                ptr::null(),
                ptr::null(),
                &mut out,
            )
        };
        assert_eq!(status, oom, "{}", last_error());
        assert!(out.is_null());
    }

    fn huge_rust_calls(zeros: &Zeros<u8>) {
        let vertices = [Vec3::ZERO, Vec3::X, Vec3::Z];
        let options = MeshOptions::default();
        let is_oom = |r: &Result<NavMesh, MeshError>| matches!(r, Err(MeshError::OutOfMemory(_)));
        // SAFETY (all slices below): zero bytes are valid u32, bool and Vec3 values.
        let sizes: &[u32] = unsafe { zeros.slice(2_000_000_000) };
        let r = NavMesh::from_polygons(&vertices, &[], sizes, &options);
        assert!(is_oom(&r), "{r:?}");
        let indices: &[u32] = unsafe { zeros.slice(3_000_000_000) };
        let r = NavMesh::from_triangles(&vertices, indices, &options);
        assert!(is_oom(&r), "{r:?}");
        // 40 million vertices at the origin (480 MB), welded or not.
        let many: &[Vec3] = unsafe { zeros.slice(40_000_000) };
        for weld in [true, false] {
            let mut options = MeshOptions::default();
            options.weld_vertices = weld;
            let r = NavMesh::from_triangles(many, &[0, 1, 2], &options);
            assert!(is_oom(&r), "weld {weld}: {r:?}");
        }
        let walkable: &[bool] = unsafe { zeros.slice(3_600_000_000) };
        let grid = TileGrid {
            width: 60_000,
            height: 60_000,
            walkable,
            cell_size: 1.0,
            origin: Vec3::ZERO,
        };
        let r = NavMesh::from_grid(&grid, &options);
        assert!(is_oom(&r), "{r:?}");
    }
}

// ---------------------------------------------------------------------------------------
// Every allocation of the builders and loaders failing in turn
// ---------------------------------------------------------------------------------------

/// Moderate inputs (meshes of some 10^4 polygons, their OBJ, Polyanya and Moving AI
/// files, a tile grid, a scenario file) built and parsed with every allocation above a
/// limit failing, for limits from 4 KiB up to 64 MiB: each attempt gives the mesh (or
/// soup) or a clean out-of-memory error, never an abort. Without a limit each succeeds.
///
/// Not covered: `Query::new` / `navstar_query_create` (the search scratch is allocated
/// infallibly), and allocations below 4 KiB (error messages, small scratch), which a
/// process out of memory cannot make anyway.
#[test]
fn allocation_failures_in_builders_and_loaders_are_errors() {
    in_child(
        "allocation_failures_in_builders_and_loaders_are_errors",
        allocation_ladder,
    );
}

/// Whether a loader error is the out-of-memory one.
fn load_oom(e: &LoadError) -> bool {
    matches!(e, LoadError::Mesh(MeshError::OutOfMemory(_)))
}

/// Runs `attempt` under limits 4 KiB, 8 KiB, ... 16 MiB and then without one. Each
/// limited attempt must succeed or fail with out of memory (`is_oom`); the unlimited one
/// must succeed. Returns how many attempts ran out of memory.
fn ladder<T, E: std::fmt::Debug>(
    what: &str,
    attempt: impl Fn() -> Result<T, E>,
    is_oom: impl Fn(&E) -> bool,
) -> usize {
    let mut failures = 0;
    for shift in 12..=24 {
        eprintln!("{what}: allocations above {} bytes fail", 1usize << shift);
        match with_alloc_limit(1 << shift, &attempt) {
            Ok(_) => {}
            Err(e) if is_oom(&e) => failures += 1,
            Err(e) => panic!("{what} with a {} byte limit: {e:?}", 1usize << shift),
        }
    }
    if let Err(e) = attempt() {
        panic!("{what} without a limit: {e:?}");
    }
    failures
}

fn allocation_ladder() {
    let (vertices, indices) = strip(6_000);
    let mut failures = 0;

    let options = MeshOptions::default();
    failures += ladder(
        "from_triangles",
        || NavMesh::from_triangles(&vertices, &indices, &options),
        |e| matches!(e, MeshError::OutOfMemory(_)),
    );
    let mut near = MeshOptions::default();
    near.weld_distance = 0.01;
    failures += ladder(
        "from_triangles welding within 0.01",
        || NavMesh::from_triangles(&vertices, &indices, &near),
        |e| matches!(e, MeshError::OutOfMemory(_)),
    );

    let floats: Vec<f32> = vertices.iter().flat_map(|v| v.to_array()).collect();
    failures += ladder(
        "navstar_mesh_create",
        || {
            let mut out: *mut NavstarMesh = NonNull::dangling().as_ptr();
            // SAFETY: the arrays hold what the counts say; NULL options.
            let status = unsafe {
                navstar_mesh_create(
                    floats.as_ptr(),
                    vertices.len() as u32,
                    indices.as_ptr(),
                    ptr::null(),
                    (indices.len() / 3) as u32,
                    ptr::null(),
                    &mut out,
                )
            };
            if status == NavstarStatus::NavstarOk {
                // SAFETY: a live mesh, freed once.
                unsafe { navstar_mesh_free(out) };
                Ok(())
            } else {
                assert!(out.is_null());
                Err((status, last_error()))
            }
        },
        |(status, message)| {
            *status == NavstarStatus::NavstarErrorOutOfMemory
                && message.starts_with("navstar_mesh_create: ")
        },
    );

    let (w, h) = (120u32, 120u32);
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    let walkable: Vec<bool> = (0..w * h)
        .map(|_| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng % 4 != 0
        })
        .collect();
    let grid = TileGrid {
        width: w,
        height: h,
        walkable: &walkable,
        cell_size: 1.0,
        origin: Vec3::ZERO,
    };
    failures += ladder(
        "from_grid",
        || NavMesh::from_grid(&grid, &options),
        |e| matches!(e, MeshError::OutOfMemory(_)),
    );

    let mut obj = String::new();
    for v in &vertices {
        obj += &format!("v {} {} {}\n", v.x, v.y, v.z);
    }
    for t in indices.chunks(3) {
        obj += &format!("f {} {} {}\n", t[0] + 1, t[1] + 1, t[2] + 1);
    }
    failures += ladder(
        "OBJ",
        || parse_obj_bytes(obj.as_bytes())?.into_mesh(&options),
        load_oom,
    );

    // Polyanya version 2: vertices without their polygon lists, triangles without
    // neighbours (navstar finds neighbours itself).
    let mut text = format!("mesh\n2\n{} {}\n", vertices.len(), indices.len() / 3);
    for v in &vertices {
        text += &format!("{} {} 0\n", v.x, v.z);
    }
    for t in indices.chunks(3) {
        text += &format!("3 {} {} {} -1 -1 -1\n", t[0], t[1], t[2]);
    }
    failures += ladder(
        "Polyanya mesh",
        || parse_polyanya_mesh_bytes(text.as_bytes())?.into_mesh(&options),
        load_oom,
    );

    let mut map = format!("type octile\nheight {h}\nwidth {w}\nmap\n");
    for row in walkable.chunks(w as usize) {
        map.extend(row.iter().map(|&c| if c { '.' } else { '@' }));
        map.push('\n');
    }
    failures += ladder(
        "Moving AI map",
        || parse_movingai_map_bytes(map.as_bytes())?.to_mesh(&options),
        load_oom,
    );
    failures += ladder(
        "Moving AI map as cell squares",
        || {
            parse_movingai_map_bytes(map.as_bytes())?
                .to_cell_soup()?
                .into_mesh(&options)
        },
        load_oom,
    );

    let mut scen = String::from("version 1\n");
    for i in 0..6_000 {
        scen += &format!(
            "{}\tmaps/a.map\t200\t200\t{}\t1\t2\t3\t4.5\n",
            i % 10,
            i % 200
        );
    }
    failures += ladder(
        "scenario",
        || parse_scenario_bytes(scen.as_bytes()),
        load_oom,
    );
    assert!(failures > 20, "only {failures} attempts ran out of memory");
}

// ---------------------------------------------------------------------------------------
// Query scratch that cannot be allocated
// ---------------------------------------------------------------------------------------

/// A query's scratch follows the nodes its searches touch, not the mesh: creating one on
/// a 20,000-triangle mesh needs far less than 64 KiB, in Rust and through the C ABI.
#[test]
fn query_creation_needs_no_memory_per_polygon() {
    in_child("query_creation_needs_no_memory_per_polygon", || {
        let (vertices, indices) = strip(20_000);
        let mesh = NavMesh::from_triangles(&vertices, &indices, &MeshOptions::default()).unwrap();
        let rust = with_alloc_limit(64 * 1024, || navstar::Query::try_new(&mesh).map(|_| ()));
        assert_eq!(rust, Ok(()));

        let floats: Vec<f32> = vertices.iter().flat_map(|v| v.to_array()).collect();
        let mut handle: *mut navstar::ffi::NavstarMesh = ptr::null_mut();
        // SAFETY: the arrays hold the counts passed; handle is writable.
        let status = unsafe {
            navstar::ffi::navstar_mesh_create(
                floats.as_ptr(),
                vertices.len() as u32,
                indices.as_ptr(),
                ptr::null(),
                (indices.len() / 3) as u32,
                ptr::null(),
                &mut handle,
            )
        };
        assert_eq!(status, navstar::ffi::NavstarStatus::NavstarOk);
        let mut query: *mut navstar::ffi::NavstarQuery = NonNull::dangling().as_ptr();
        // SAFETY: handle is a live mesh; query is writable.
        let status = with_alloc_limit(64 * 1024, || unsafe {
            navstar::ffi::navstar_query_create(handle, &mut query)
        });
        assert_eq!(status, navstar::ffi::NavstarStatus::NavstarOk);
        assert!(!query.is_null());
        // SAFETY: query is live and freed once.
        unsafe { navstar::ffi::navstar_query_free(query) };
        // SAFETY: handle is live and freed once.
        unsafe { navstar::ffi::navstar_mesh_free(handle) };
    });
}
