//! Shared pieces of the navstar fuzz targets.
//!
//! * Typed fuzz input ([`Coord`], [`SmallU32`], [`MeshOpts`], [`PathOpts`]) that hits the
//!   interesting values (NaN, infinities, extremes, denormals, bad `struct_size`s) often.
//! * Thin, contract-keeping wrappers over the C ABI ([`c_mesh_create`], [`CQuery`],
//!   [`c_find_path`]) that check what every call promises: a known status, never
//!   `NAVSTAR_ERROR_INTERNAL`, an empty message after success and a message naming the
//!   function after an error, `*out_mesh` NULL after an error, nothing written past
//!   `capacity` and nothing at all on error.
//! * [`check_answer`], an independent checker of a path answer against the documented
//!   invariants (validation order, snapping, first and last point, partial paths,
//!   segments on the walkable mesh), used by every target that runs queries.
//!
//! * [`grid`]: valid meshes by construction; [`input`]: meshes with areas, flags and
//!   links, filters and path options with a filter; [`buffers`]: guarded output arrays;
//!   [`calls`]: wrappers over the query entry points added after the first ones;
//!   [`readback`] and [`searches`]: C-versus-Rust comparisons and checks of the path
//!   read-back functions, reachable polygons and nearest targets; [`saved`]: the binary
//!   format's save and load functions against the Rust API; [`world`]: worlds of tiles
//!   through the C ABI; [`loaders`]: the C loaders of every format against the Rust
//!   loaders; [`mesh_readback`]: the mesh read-back functions against the Rust accessors.
//!
//! Every check panics on failure, which libFuzzer reports as a crash.

pub mod agent_calls;
pub mod agent_moves;
pub mod buffers;
pub mod calls;
pub mod grid;
pub mod input;
pub mod loaders;
pub mod mesh_readback;
pub mod radius;
pub mod readback;
pub mod saved;
pub mod searches;
pub mod world;

use std::ffi::CStr;
use std::ptr::{self, NonNull};

use arbitrary::Arbitrary;
pub use buffers::{ListAnswer, ListBuffers, call_list};
pub use grid::{Arrays, GridSpec};
pub use input::{COptions, FilterIn, MeshOps, MeshSpec, QueryOpts};
use navstar::ffi::{
    NAVSTAR_PATH_AUTO, NAVSTAR_PATH_FUNNEL, NAVSTAR_PATH_OPTIMAL, NavstarMesh, NavstarMeshOptions,
    NavstarPathOptions, NavstarQuery, NavstarStatus, navstar_find_path, navstar_last_error_message,
    navstar_mesh_create, navstar_mesh_create_from_grid, navstar_mesh_free,
    navstar_mesh_options_default, navstar_mesh_polygon_count, navstar_path_options_default,
    navstar_query_create, navstar_query_free, navstar_status_name,
};
use navstar::glam::{DVec3, Vec2, Vec3};
use navstar::io::{LoadError, PolygonSoup};
use navstar::{
    CornerDetail, CornerFlags, MeshError, MeshOptions, NavMesh, PathMode, PathOptions, PathStatus,
    Query, QueryError, SearchStrategy, UpAxis,
};

pub use NavstarStatus::{
    NavstarBufferTooSmall as BUFFER_TOO_SMALL, NavstarErrorInternal as INTERNAL,
    NavstarErrorInvalidArgument as INVALID_ARGUMENT, NavstarErrorInvalidMesh as INVALID_MESH,
    NavstarErrorNoPath as NO_PATH, NavstarErrorNotOnMesh as NOT_ON_MESH,
    NavstarErrorNullArgument as NULL_ARGUMENT, NavstarErrorOutOfMemory as OUT_OF_MEMORY,
    NavstarOk as OK, NavstarPartialNodeLimit as PARTIAL_NODE_LIMIT,
    NavstarPartialPath as PARTIAL_PATH,
};

// ---------------------------------------------------------------------------------------
// Typed input
// ---------------------------------------------------------------------------------------

/// Values a fuzzer rarely finds from random bits but that break geometry code.
const SPECIALS: [f32; 20] = [
    f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::MAX,
    f32::MIN,
    f32::MIN_POSITIVE,
    -f32::MIN_POSITIVE,
    1e-45, // the smallest denormal
    -1e-45,
    1.1754942e-38, // the largest denormal
    0.0,
    -0.0,
    1e30,
    -1e30,
    1e-30,
    16_777_216.0, // 2^24: above it, f32 has no odd integers
    -16_777_216.0,
    1e18,
    0.5,
    -0.5,
];

/// A coordinate or option value, biased towards small numbers and special values.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Coord {
    /// `whole + frac / 256`: ordinary small coordinates.
    Small(i8, u8),
    /// Any bit pattern (NaN payloads, huge, tiny).
    Raw(f32),
    /// One of a table of special values (NaN, infinities, extremes, denormals, -0).
    Special(u8),
}

impl Coord {
    /// The value as a float.
    pub fn value(self) -> f32 {
        match self {
            Coord::Small(whole, frac) => f32::from(whole) + f32::from(frac) / 256.0,
            Coord::Raw(v) => v,
            Coord::Special(i) => SPECIALS[usize::from(i) % SPECIALS.len()],
        }
    }
}

/// A `u32` that is usually small (enum values, counts), sometimes anything.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum SmallU32 {
    /// 0..=255.
    Small(u8),
    /// Any value.
    Any(u32),
}

impl SmallU32 {
    /// The value.
    pub fn value(self) -> u32 {
        match self {
            SmallU32::Small(v) => u32::from(v),
            SmallU32::Any(v) => v,
        }
    }
}

/// `struct_size` of the first published `NavstarMeshOptions` (API.md). Newer fields
/// are appended after it.
pub const MESH_OPTIONS_V1_SIZE: usize = 16;
/// The sizes of published `NavstarMeshOptions` versions older than the current one
/// (v1, then with `allow_degenerate_connectors`).
const MESH_OPTIONS_OLDER_SIZES: &[usize] = &[MESH_OPTIONS_V1_SIZE, 20];
/// `struct_size` of the first published `NavstarPathOptions`.
pub const PATH_OPTIONS_V1_SIZE: usize = 20;
/// The sizes of published `NavstarPathOptions` versions older than the current one
/// (v1, then with `mode`, then with the filter and `split_at_area_changes`, whose last 4
/// bytes were padding where `agent_radius` lies now).
const PATH_OPTIONS_OLDER_SIZES: &[usize] = &[PATH_OPTIONS_V1_SIZE, 24, 40];

/// The bytes of a `#[repr(C)]` options struct made only of `u32` and `f32` fields.
fn bytes_of<T: Copy>(value: &T) -> Vec<u8> {
    // SAFETY: the option structs are repr(C) with 4-byte fields only: no padding, every
    // byte initialised.
    unsafe { std::slice::from_raw_parts(ptr::from_ref(value).cast::<u8>(), size_of::<T>()) }
        .to_vec()
}

/// Overwrites the bytes of an options struct after its `struct_size` with `raw`
/// (repeated as needed); any bytes are valid for its `u32`/`f32` fields.
pub(crate) fn fill_after_size<T: Copy>(value: &mut T, raw: &[u8]) {
    if raw.is_empty() {
        return;
    }
    let mut bytes = bytes_of(value);
    for (i, b) in bytes[4..].iter_mut().enumerate() {
        *b = raw[i % raw.len()];
    }
    // SAFETY: as in `bytes_of`; exactly size_of::<T>() bytes are copied into `value`.
    unsafe {
        ptr::copy_nonoverlapping(
            bytes.as_ptr(),
            ptr::from_mut(value).cast::<u8>(),
            bytes.len(),
        )
    };
}

/// What the boundary must make of an options struct, judged from the fields of the
/// first published version only (so that the harness keeps working when fields are
/// appended).
#[derive(Debug, Clone)]
pub enum Expect<T> {
    /// Rejected with `NAVSTAR_ERROR_INVALID_ARGUMENT` (bad `struct_size` or enum value).
    Reject,
    /// Accepted as these Rust options (out-of-range values are left to the Rust API).
    Accept(T),
    /// The bytes of fields newer than the first version differ from their defaults: the
    /// harness cannot tell the outcome, only check the general rules.
    Unknown(T),
}

/// Classifies a caller's struct: `struct_size` must be the current size or that of an
/// older published version (`older_sizes`); fields not covered keep their defaults.
/// `decode` makes the Rust options from the fields in the first `decoded` bytes (given
/// `struct_size`); fields after those that differ from their defaults make the outcome
/// unknown.
fn classify<T: Copy, R>(
    c: &T,
    defaults: &T,
    older_sizes: &[usize],
    decoded: usize,
    decode: impl FnOnce(usize) -> Option<R>,
) -> Expect<R> {
    let bytes = bytes_of(c);
    let size = u32::from_ne_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) as usize;
    if size != size_of::<T>() && !older_sizes.contains(&size) {
        return Expect::Reject;
    }
    let Some(rust) = decode(size) else {
        return Expect::Reject;
    };
    let decoded = decoded.min(size);
    if bytes[decoded..size] != bytes_of(defaults)[decoded..size] {
        Expect::Unknown(rust)
    } else {
        Expect::Accept(rust)
    }
}

/// The `options` argument of the mesh constructors.
#[derive(Arbitrary, Debug, Clone)]
pub enum MeshOpts {
    /// NULL: defaults.
    Null,
    /// `navstar_mesh_options_default()`.
    Default,
    /// Defaults with fuzzed fields (`struct_size` right).
    Fields {
        /// `up_axis`: 0 and 1 are valid.
        up_axis: SmallU32,
        /// `weld_vertices`: any non-zero value means yes.
        weld_vertices: u32,
        /// `weld_distance`: finite and >= 0 is valid.
        weld_distance: Coord,
        /// `allow_degenerate_connectors`: any non-zero value means yes.
        allow_degenerate_connectors: bool,
    },
    /// Any bytes after a fuzzed `struct_size`.
    Raw {
        /// `struct_size`: the current size and those of older versions are valid.
        struct_size: SmallU32,
        /// The bytes of the other fields (repeated to fill the struct).
        bytes: Vec<u8>,
    },
}

impl MeshOpts {
    /// The struct to pass, or `None` for NULL.
    pub fn to_c(&self) -> Option<NavstarMeshOptions> {
        let mut c = navstar_mesh_options_default();
        match self {
            MeshOpts::Null => return None,
            MeshOpts::Default => {}
            MeshOpts::Fields {
                up_axis,
                weld_vertices,
                weld_distance,
                allow_degenerate_connectors,
            } => {
                c.up_axis = up_axis.value();
                c.weld_vertices = *weld_vertices;
                c.weld_distance = weld_distance.value();
                c.allow_degenerate_connectors = u32::from(*allow_degenerate_connectors);
            }
            MeshOpts::Raw { struct_size, bytes } => {
                fill_after_size(&mut c, bytes);
                c.struct_size = struct_size.value();
            }
        }
        Some(c)
    }

    /// What the boundary makes of these options; see [`Expect`]. An invalid weld
    /// distance is left to the builder.
    pub fn expected(&self) -> Expect<MeshOptions> {
        let Some(c) = self.to_c() else {
            return Expect::Accept(MeshOptions::default());
        };
        classify(
            &c,
            &navstar_mesh_options_default(),
            MESH_OPTIONS_OLDER_SIZES,
            size_of::<NavstarMeshOptions>(),
            |size| {
                let up = match c.up_axis {
                    0 => UpAxis::Y,
                    1 => UpAxis::Z,
                    _ => return None,
                };
                let mut options = MeshOptions::default().with_up_axis(up);
                options.weld_vertices = c.weld_vertices != 0;
                options.weld_distance = c.weld_distance;
                // A struct of the first version's size has no such field.
                options.allow_degenerate_connectors =
                    size > MESH_OPTIONS_V1_SIZE && c.allow_degenerate_connectors != 0;
                // Nor one of the second's: a baked radius (checked by the builder).
                if size == size_of::<NavstarMeshOptions>() {
                    options.agent_radius = c.agent_radius;
                }
                Some(options)
            },
        )
    }
}

/// The `options` argument of `navstar_find_path`.
#[derive(Arbitrary, Debug, Clone)]
pub enum PathOpts {
    /// NULL: defaults.
    Null,
    /// `navstar_path_options_default()`.
    Default,
    /// Defaults with fuzzed fields (`struct_size` right).
    Fields {
        /// `strategy`: 0 to 4 are valid.
        strategy: SmallU32,
        /// `heuristic_weight`: finite and >= 0 is valid.
        heuristic_weight: Coord,
        /// `max_snap_distance`: >= 0 (infinity allowed) is valid.
        max_snap_distance: Coord,
        /// `allow_partial`.
        allow_partial: bool,
        /// `mode`: 0, 1 and 2 are valid.
        mode: SmallU32,
        /// `split_at_area_changes`.
        split_at_area_changes: bool,
        /// `agent_radius`: finite and >= 0 is valid.
        agent_radius: Coord,
    },
    /// Valid options with a finite snap distance, partial paths off or on, any mode.
    Snap {
        /// `max_snap_distance`.
        max_snap_distance: Coord,
        /// `allow_partial`.
        allow_partial: bool,
        /// `mode % 3`: `NAVSTAR_PATH_FUNNEL`, `NAVSTAR_PATH_OPTIMAL` or `NAVSTAR_PATH_AUTO`.
        mode: u8,
        /// `split_at_area_changes`.
        split_at_area_changes: bool,
        /// `agent_radius`: `radius % 8` tenths of a unit (0 half the time).
        radius: u8,
    },
    /// Any bytes after a fuzzed `struct_size`.
    Raw {
        /// `struct_size`: the current size and those of older versions are valid.
        struct_size: SmallU32,
        /// The bytes of the other fields (repeated to fill the struct).
        bytes: Vec<u8>,
    },
}

impl PathOpts {
    /// The struct to pass, or `None` for NULL.
    pub fn to_c(&self) -> Option<NavstarPathOptions> {
        let mut c = navstar_path_options_default();
        match self {
            PathOpts::Null => return None,
            PathOpts::Default => {}
            PathOpts::Fields {
                strategy,
                heuristic_weight,
                max_snap_distance,
                allow_partial,
                mode,
                split_at_area_changes,
                agent_radius,
            } => {
                c.strategy = strategy.value();
                c.heuristic_weight = heuristic_weight.value();
                c.max_snap_distance = max_snap_distance.value();
                c.allow_partial = u32::from(*allow_partial);
                c.mode = mode.value();
                c.split_at_area_changes = u32::from(*split_at_area_changes);
                c.agent_radius = agent_radius.value();
            }
            PathOpts::Snap {
                max_snap_distance,
                allow_partial,
                mode,
                split_at_area_changes,
                radius,
            } => {
                if radius % 16 >= 8 {
                    c.agent_radius = f32::from(radius % 8) * 0.1;
                }
                c.max_snap_distance = max_snap_distance.value().abs();
                c.allow_partial = u32::from(*allow_partial);
                c.mode = [NAVSTAR_PATH_FUNNEL, NAVSTAR_PATH_OPTIMAL, NAVSTAR_PATH_AUTO]
                    [usize::from(mode % 3)];
                c.split_at_area_changes = u32::from(*split_at_area_changes);
            }
            PathOpts::Raw { struct_size, bytes } => {
                fill_after_size(&mut c, bytes);
                c.struct_size = struct_size.value();
                // A pointer made of arbitrary bytes breaks the caller contract (it must be
                // NULL or point to a filter), so the raw bytes never reach this field.
                c.filter = std::ptr::null();
            }
        }
        Some(c)
    }

    /// What the boundary makes of these options (with `filter` NULL); see [`Expect`].
    /// Out-of-range values are left to the Rust validation. Every field of the current
    /// struct is decoded; a struct of an older size gets the defaults of the fields it
    /// lacks.
    pub fn expected(&self) -> Expect<PathOptions> {
        let Some(c) = self.to_c() else {
            return Expect::Accept(PathOptions::default());
        };
        classify(
            &c,
            &navstar_path_options_default(),
            PATH_OPTIONS_OLDER_SIZES,
            size_of::<NavstarPathOptions>(),
            |size| {
                let strategy = match c.strategy {
                    0 => SearchStrategy::AStar,
                    1 => SearchStrategy::Dijkstra,
                    2 => SearchStrategy::GreedyBestFirst,
                    3 => SearchStrategy::BreadthFirst,
                    4 => SearchStrategy::DepthFirst,
                    _ => return None,
                };
                let mut options = PathOptions::default();
                options.strategy = strategy;
                options.heuristic_weight = c.heuristic_weight;
                options.max_snap_distance = c.max_snap_distance;
                options.allow_partial = c.allow_partial != 0;
                if size >= PATH_OPTIONS_OLDER_SIZES[1] {
                    options.mode = match c.mode {
                        NAVSTAR_PATH_FUNNEL => PathMode::Funnel,
                        NAVSTAR_PATH_OPTIMAL => PathMode::Optimal,
                        NAVSTAR_PATH_AUTO => PathMode::Auto,
                        _ => return None,
                    };
                }
                if size >= PATH_OPTIONS_OLDER_SIZES[2] {
                    options.split_at_area_changes = c.split_at_area_changes != 0;
                }
                if size == size_of::<NavstarPathOptions>() {
                    if c.reserved != 0 {
                        return None;
                    }
                    // Out-of-range radii are left to the Rust validation.
                    options.agent_radius = c.agent_radius;
                }
                Some(options)
            },
        )
    }
}

// ---------------------------------------------------------------------------------------
// C ABI wrappers
// ---------------------------------------------------------------------------------------

/// The thread's last error message, copied.
pub fn last_error() -> String {
    // SAFETY: never NULL, NUL-terminated, valid until the next navstar call; copied now.
    unsafe { CStr::from_ptr(navstar_last_error_message()) }
        .to_string_lossy()
        .into_owned()
}

/// Checks what every fallible call promises about its status and message: a status
/// with a name, never `NAVSTAR_ERROR_INTERNAL` (a caught panic), an empty message after
/// success and a message that starts with the function's name after an error. Returns
/// the message.
#[track_caller]
pub fn check_status_and_message(function: &str, status: NavstarStatus) -> String {
    let message = last_error();
    assert_ne!(status, INTERNAL, "{function} caught a panic: {message}");
    // SAFETY: static, NUL-terminated, never NULL.
    let name = unsafe { CStr::from_ptr(navstar_status_name(status as i32)) };
    assert_ne!(name.to_bytes(), b"unknown status", "{status:?}");
    if (status as i32) >= 0 {
        assert_eq!(
            message, "",
            "{function} succeeded ({status:?}) but left a message"
        );
    } else {
        assert!(
            message.starts_with(&format!("{function}: ")) && message.len() > function.len() + 2,
            "{function} failed ({status:?}) with message {message:?}"
        );
    }
    message
}

/// An owned mesh handle, freed on drop.
pub struct CMesh(NonNull<NavstarMesh>);

impl CMesh {
    /// The raw handle.
    pub fn as_ptr(&self) -> *const NavstarMesh {
        self.0.as_ptr()
    }

    /// `navstar_mesh_polygon_count`.
    pub fn polygon_count(&self) -> u32 {
        // SAFETY: a live mesh.
        unsafe { navstar_mesh_polygon_count(self.as_ptr()) }
    }

    /// `navstar_mesh_polygon_ids`: the polygon numbers (sparse for a world's snapshot,
    /// whose numbers encode the tile slot), checked to be increasing and as many as
    /// `navstar_mesh_polygon_count` says.
    pub fn polygon_ids(&self) -> Vec<u32> {
        let count = self.polygon_count();
        let mut ids = vec![0u32; count as usize];
        let mut written = 0u32;
        // SAFETY: a live mesh; `ids` is writable for `count` numbers.
        let status = unsafe {
            navstar::ffi::navstar_mesh_polygon_ids(
                self.as_ptr(),
                ids.as_mut_ptr(),
                count,
                &mut written,
            )
        };
        check_status_and_message("navstar_mesh_polygon_ids", status);
        assert_eq!((status, written), (OK, count));
        assert!(ids.windows(2).all(|w| w[0] < w[1]), "ids not increasing");
        ids
    }

    /// `navstar_mesh_vertex_count`.
    pub fn vertex_count(&self) -> u32 {
        // SAFETY: a live mesh.
        unsafe { navstar::ffi::navstar_mesh_vertex_count(self.as_ptr()) }
    }

    /// `navstar_mesh_link_count`.
    pub fn link_count(&self) -> u32 {
        // SAFETY: a live mesh.
        unsafe { navstar::ffi::navstar_mesh_link_count(self.as_ptr()) }
    }

    /// A new query on this mesh.
    pub fn query(&self) -> CQuery {
        let mut out: *mut NavstarQuery = NonNull::dangling().as_ptr();
        // SAFETY: a live mesh; `out` is writable.
        let status = unsafe { navstar_query_create(self.as_ptr(), &mut out) };
        check_status_and_message("navstar_query_create", status);
        assert_eq!(status, OK);
        CQuery(NonNull::new(out).expect("navstar_query_create gave NULL with NAVSTAR_OK"))
    }
}

impl Drop for CMesh {
    fn drop(&mut self) {
        // SAFETY: created by navstar_mesh_create*, freed only here.
        unsafe { navstar_mesh_free(self.0.as_ptr()) }
    }
}

/// An owned query handle, freed on drop.
pub struct CQuery(NonNull<NavstarQuery>);

impl CQuery {
    /// Takes ownership of a query made by `navstar_query_create(_ex)`.
    pub fn from_raw(query: NonNull<NavstarQuery>) -> CQuery {
        CQuery(query)
    }

    /// The raw handle.
    pub fn as_ptr(&self) -> *mut NavstarQuery {
        self.0.as_ptr()
    }
}

impl Drop for CQuery {
    fn drop(&mut self) {
        // SAFETY: created by navstar_query_create, freed only here, used by this thread.
        unsafe { navstar_query_free(self.0.as_ptr()) }
    }
}

/// Checks the out-parameter rules of a mesh constructor and wraps the handle: non-NULL
/// after success, NULL after an error (it started as a dangling non-NULL pointer).
#[track_caller]
pub(crate) fn finish_create(
    function: &str,
    status: NavstarStatus,
    out: *mut NavstarMesh,
) -> Option<CMesh> {
    check_status_and_message(function, status);
    assert!(
        matches!(
            status,
            OK | NULL_ARGUMENT | INVALID_ARGUMENT | INVALID_MESH | OUT_OF_MEMORY
        ),
        "{function} returned {status:?}"
    );
    if status == OK {
        Some(CMesh(
            NonNull::new(out).expect("NAVSTAR_OK with a NULL mesh"),
        ))
    } else {
        assert!(out.is_null(), "{function} failed but *out_mesh is not NULL");
        None
    }
}

/// Calls `navstar_mesh_create` and checks its out-parameter and message rules.
///
/// The slices must hold what the counts promise (the caller's side of the contract),
/// except for counts the library rejects before reading: `vertex_count == UINT32_MAX`
/// and index totals above `UINT32_MAX`. `None` passes NULL.
#[track_caller]
pub fn c_mesh_create(
    vertices: Option<&[f32]>,
    vertex_count: u32,
    indices: Option<&[u32]>,
    sizes: Option<&[u32]>,
    polygon_count: u32,
    options: Option<&NavstarMeshOptions>,
) -> (NavstarStatus, Option<CMesh>) {
    let needed: u64 = match sizes {
        Some(s) => s[..polygon_count as usize]
            .iter()
            .map(|&x| u64::from(x))
            .sum(),
        None => 3 * u64::from(polygon_count),
    };
    if let Some(s) = sizes {
        assert!(s.len() >= polygon_count as usize, "harness bug: sizes");
    }
    if vertex_count != u32::MAX && needed <= u64::from(u32::MAX) {
        if let Some(v) = vertices {
            assert!(v.len() as u64 >= 3 * u64::from(vertex_count), "harness bug");
        }
        if let Some(i) = indices {
            assert!(i.len() as u64 >= needed, "harness bug: indices");
        }
    }
    let mut out: *mut NavstarMesh = NonNull::dangling().as_ptr();
    // SAFETY: every non-NULL pointer covers what its count promises (checked above), or
    // the count is one the library rejects before reading; `options` is NULL or a full
    // struct; `out` is writable.
    let status = unsafe {
        navstar_mesh_create(
            vertices.map_or(ptr::null(), <[f32]>::as_ptr),
            vertex_count,
            indices.map_or(ptr::null(), <[u32]>::as_ptr),
            sizes.map_or(ptr::null(), <[u32]>::as_ptr),
            polygon_count,
            options.map_or(ptr::null(), ptr::from_ref),
            &mut out,
        )
    };
    (status, finish_create("navstar_mesh_create", status, out))
}

/// Calls `navstar_mesh_create_from_grid` and checks its out-parameter and message rules.
/// `cells` must hold `width * height` bytes unless `None` (NULL).
#[track_caller]
pub fn c_grid_create(
    cells: Option<&[u8]>,
    width: u32,
    height: u32,
    cell_size: f32,
    origin: Option<&[f32; 3]>,
    options: Option<&NavstarMeshOptions>,
) -> (NavstarStatus, Option<CMesh>) {
    if let Some(c) = cells {
        assert!(
            c.len() as u64 >= u64::from(width) * u64::from(height),
            "harness bug"
        );
    }
    let mut out: *mut NavstarMesh = NonNull::dangling().as_ptr();
    // SAFETY: `cells` covers width * height bytes or is NULL; `origin` is NULL or 3
    // floats; `options` NULL or a full struct; `out` writable.
    let status = unsafe {
        navstar_mesh_create_from_grid(
            cells.map_or(ptr::null(), <[u8]>::as_ptr),
            width,
            height,
            cell_size,
            origin.map_or(ptr::null(), |o| o.as_ptr()),
            options.map_or(ptr::null(), ptr::from_ref),
            &mut out,
        )
    };
    (
        status,
        finish_create("navstar_mesh_create_from_grid", status, out),
    )
}

/// The status the C boundary gives for a builder error.
pub fn mesh_status(error: &MeshError) -> NavstarStatus {
    NavstarStatus::from(error)
}

/// The status the C boundary gives for a query error.
pub fn query_status(error: &QueryError) -> NavstarStatus {
    NavstarStatus::from(error)
}

/// What `navstar_find_path` answered.
#[derive(Debug)]
pub struct CAnswer {
    /// The status.
    pub status: NavstarStatus,
    /// `*out_count`.
    pub count: u32,
    /// The points written (the first `min(count, capacity)`).
    pub points: Vec<Vec3>,
}

/// Checks the points a path call wrote (all finite) and makes the answer.
#[track_caller]
pub fn path_answer(function: &str, list: ListAnswer<[f32; 3]>) -> CAnswer {
    for (i, p) in list.items.iter().enumerate() {
        assert!(
            p.iter().all(|v| v.is_finite()),
            "{function}: point {i} is not finite: {p:?}"
        );
    }
    CAnswer {
        status: list.status,
        count: list.count,
        points: list.items.iter().map(|&p| Vec3::from(p)).collect(),
    }
}

/// Calls `navstar_find_path` and checks the buffer and message rules: `*out_count` is 0
/// and nothing is written on error; on success at most `capacity` points are written,
/// exactly `min(count, capacity)`, all finite, and the status is
/// `NAVSTAR_BUFFER_TOO_SMALL` exactly when `count > capacity`. `None` points pass NULL;
/// `out_points_null` passes NULL for `out_points` (with any `capacity`).
#[track_caller]
pub fn c_find_path(
    query: &mut CQuery,
    start: Option<[f32; 3]>,
    goal: Option<[f32; 3]>,
    options: Option<&NavstarPathOptions>,
    capacity: u32,
    out_points_null: bool,
) -> CAnswer {
    let list = call_list(
        "navstar_find_path",
        ListBuffers {
            capacity,
            out_null: out_points_null,
            count_null: false,
        },
        |out: *mut [f32; 3], capacity, count| {
            // SAFETY: the query is live and used by this thread only; the points are NULL
            // or 3 floats; `options` NULL or a full struct whose filter is NULL or a
            // filter; the buffer holds `capacity` points (plus a guard) or is NULL;
            // `count` is writable.
            unsafe {
                navstar_find_path(
                    query.as_ptr(),
                    opt_ptr(&start),
                    opt_ptr(&goal),
                    options.map_or(ptr::null(), ptr::from_ref),
                    out.cast::<f32>(),
                    capacity,
                    count,
                )
            }
        },
    );
    path_answer("navstar_find_path", list)
}

/// The pointer to an optional point (NULL for `None`).
pub fn opt_ptr(point: &Option<[f32; 3]>) -> *const f32 {
    point.as_ref().map_or(ptr::null(), |p| p.as_ptr())
}

/// Path options as the fuzzer gives them: the C struct to pass and what the boundary
/// must make of it.
pub trait OptionsIn {
    /// The C options (and the filter they point to).
    fn c_options(&self) -> COptions;
    /// The Rust options the boundary must read, or a rejection.
    fn expected(&self) -> Expect<PathOptions>;
}

impl OptionsIn for PathOpts {
    fn c_options(&self) -> COptions {
        COptions::without_filter(self.to_c())
    }

    fn expected(&self) -> Expect<PathOptions> {
        PathOpts::expected(self)
    }
}

impl OptionsIn for QueryOpts {
    fn c_options(&self) -> COptions {
        self.to_c()
    }

    fn expected(&self) -> Expect<PathOptions> {
        QueryOpts::expected(self)
    }
}

/// A path found by the Rust API, owned.
#[derive(Debug, Clone)]
pub struct RustPath {
    /// The corners.
    pub corners: Vec<Vec3>,
    /// One per corner.
    pub details: Vec<CornerDetail>,
    /// Complete or partial.
    pub status: PathStatus,
    /// Its cost under the filter.
    pub cost: f32,
    /// Its length.
    pub length: f32,
    /// The query's corridor after it.
    pub corridor: Vec<u32>,
    /// The turns round wall corners.
    pub arcs: Vec<navstar::PathArc>,
}

impl RustPath {
    /// Copies a path and the query's corridor.
    pub fn new(path: &navstar::Path<'_>, corridor: Vec<u32>) -> RustPath {
        RustPath {
            corners: path.corners.to_vec(),
            details: path.details.to_vec(),
            arcs: path.arcs.to_vec(),
            status: path.status,
            cost: path.cost,
            length: path.length(),
            corridor,
        }
    }
}

/// Checks that a path call's C answer is what the contract derives from the Rust
/// answer: the status (`NAVSTAR_BUFFER_TOO_SMALL` when the corners do not fit, else by
/// the path's status), the count, and the points written, bit for bit.
#[track_caller]
pub fn check_same_path(answer: &CAnswer, rust: &Result<RustPath, QueryError>, capacity: u32) {
    match rust {
        Err(e) => assert_eq!(answer.status, query_status(e), "Rust said {e}"),
        Ok(path) => {
            assert_eq!(answer.count as usize, path.corners.len());
            let want = if path.corners.len() > capacity as usize {
                BUFFER_TOO_SMALL
            } else {
                NavstarStatus::from(path.status)
            };
            assert_eq!(answer.status, want);
            for (c, r) in answer.points.iter().zip(&path.corners) {
                assert_eq!(
                    c.to_array().map(f32::to_bits),
                    r.to_array().map(f32::to_bits),
                    "the C ABI and the Rust API disagree: {:?} vs {:?}",
                    answer.points,
                    path.corners
                );
            }
        }
    }
}

/// Runs one query through the C ABI and through the Rust API on a mesh built from the
/// same input, and checks that the C answer is what the contract derives from the Rust
/// answer (statuses in the documented order, points bit for bit), then checks the Rust
/// answer itself with [`check_path`]. Returns the Rust path when the C call must have
/// found it (for checks of what the query reads back after it).
#[allow(clippy::too_many_arguments)]
pub fn compare_query(
    cquery: &mut CQuery,
    rquery: &mut Query,
    start: Option<[f32; 3]>,
    goal: Option<[f32; 3]>,
    options: &impl OptionsIn,
    capacity: u32,
    out_points_null: bool,
) -> Option<RustPath> {
    let c_options = options.c_options();
    let answer = c_find_path(
        cquery,
        start,
        goal,
        c_options.get(),
        capacity,
        out_points_null,
    );
    let point_status = |p: Option<[f32; 3]>| match p {
        None => Some(NULL_ARGUMENT),
        Some(p) if !Vec3::from(p).is_finite() => Some(INVALID_ARGUMENT),
        Some(_) => None,
    };
    let early = point_status(start)
        .or_else(|| point_status(goal))
        .or_else(|| (out_points_null && capacity > 0).then_some(NULL_ARGUMENT));
    if let Some(expected) = early {
        assert_eq!(answer.status, expected, "{}", last_error());
        return None;
    }
    let (s, g) = (Vec3::from(start.unwrap()), Vec3::from(goal.unwrap()));
    let rust_options = match options.expected() {
        Expect::Reject => {
            assert_eq!(answer.status, INVALID_ARGUMENT, "options rejected");
            return None;
        }
        Expect::Accept(o) => o,
        Expect::Unknown(mut o) => {
            // Newer option fields set to non-default values: the path, if any, must
            // still keep every general promise. (A newer field may make the heuristic
            // weight irrelevant, so it is not judged.)
            o.heuristic_weight = 1.0;
            let complete = (answer.count as usize) <= answer.points.len();
            match answer.status {
                OK | PARTIAL_PATH | PARTIAL_NODE_LIMIT if complete => {
                    let status = match answer.status {
                        OK => PathStatus::Complete,
                        PARTIAL_PATH => PathStatus::Partial,
                        _ => PathStatus::NodeLimit,
                    };
                    check_answer(rquery.mesh(), s, g, &o, &Ok((answer.points, status)));
                }
                OK | PARTIAL_PATH | PARTIAL_NODE_LIMIT | BUFFER_TOO_SMALL | INVALID_ARGUMENT
                | NOT_ON_MESH | NO_PATH => {}
                other => panic!("{other:?} with unknown options"),
            }
            return None;
        }
    };
    let rust = rquery.find_path(s, g, &rust_options).map(|p| {
        (
            p.corners.to_vec(),
            p.details.to_vec(),
            p.arcs.to_vec(),
            p.status,
            p.cost,
            p.length(),
        )
    });
    let rust = rust.map(|(corners, details, arcs, status, cost, length)| RustPath {
        corners,
        details,
        status,
        cost,
        length,
        corridor: rquery.corridor().collect(),
        arcs,
    });
    check_same_path(&answer, &rust, capacity);
    // SAFETY: a live query used by this thread.
    let c_expanded = unsafe { navstar::ffi::navstar_query_nodes_expanded(cquery.as_ptr()) };
    assert_eq!(
        c_expanded,
        rquery.last_search_stats().expanded,
        "navstar_query_nodes_expanded differs from the Rust query's count"
    );
    let plain = rust
        .as_ref()
        .map(|p| (p.corners.clone(), p.status))
        .map_err(Clone::clone);
    let details = rust.as_ref().map_or(&[][..], |p| &p.details[..]);
    if radius::applies(rquery.mesh(), &rust_options) {
        radius::check_clearance(rquery.mesh(), &rust_options, &plain);
    } else {
        check_path(rquery.mesh(), s, g, &rust_options, &plain, details);
    }
    rust.ok()
}

// ---------------------------------------------------------------------------------------
// The path checker
// ---------------------------------------------------------------------------------------

/// The answer of `Query::find_path_vec`: the corners and the status.
pub type Answer = Result<(Vec<Vec3>, PathStatus), QueryError>;

/// Largest mesh whose path segments are checked sample by sample (the check is brute
/// force: samples times polygons).
const MAX_SEGMENT_CHECK_POLYGONS: u32 = 600;

/// Checks a path answer against the documented invariants, independently of how the
/// library computes it:
///
/// * options are validated first (weight finite and >= 0, snap distance >= 0, area costs
///   finite and > 0), then the start, then the goal (finite, and within the snap distance of the mesh; with the
///   default unlimited snap distance a finite point is never "not on mesh");
/// * a path has at least 2 finite corners, no point twice in a row (but for a path from
///   a point to itself); the first is a point of the mesh as far from
///   the start as the nearest point of the mesh is; a complete path ends likewise at the
///   goal's nearest point; a partial path (only when allowed) ends on the mesh no nearer
///   to the goal than that;
/// * start and goal snapped into one polygon give exactly 2 corners;
/// * every segment lies on the walkable mesh (ground plane, sampled), for meshes small
///   enough to check by brute force.
///
/// "The mesh" is the polygons `options.filter` admits under the mesh's current flags.
pub fn check_answer(
    mesh: &NavMesh,
    start: Vec3,
    goal: Vec3,
    options: &PathOptions,
    answer: &Answer,
) {
    check_path(mesh, start, goal, options, answer, &[]);
}

/// [`check_answer`] for a path that may take off-mesh links: `details` (one per corner,
/// or empty for none) marks the segments that are links (from a corner flagged
/// `LINK_START`), which are not on the mesh; and with links, start and goal in one
/// polygon may give more than 2 corners (a link may be cheaper).
pub fn check_path(
    mesh: &NavMesh,
    start: Vec3,
    goal: Vec3,
    options: &PathOptions,
    answer: &Answer,
    details: &[CornerDetail],
) {
    let weight_ok = options.heuristic_weight.is_finite() && options.heuristic_weight >= 0.0;
    let radius_ok = options.agent_radius.is_finite() && options.agent_radius >= 0.0;
    let snap = options.max_snap_distance;
    if !weight_ok || !radius_ok || snap.is_nan() || snap < 0.0 {
        assert!(
            matches!(answer, Err(QueryError::InvalidOption(_))),
            "options {options:?} accepted: {answer:?}"
        );
        return;
    }
    if let Err(QueryError::InvalidAreaCost { area, .. }) = options.filter.validate() {
        assert!(
            matches!(answer, Err(QueryError::InvalidAreaCost { area: a, .. }) if *a == area),
            "the cost of area {area} is bad: {answer:?}"
        );
        return;
    }
    for (point, which) in [(start, "start"), (goal, "goal")] {
        if !point.is_finite() {
            assert!(
                matches!(answer, Err(QueryError::NonFinitePoint(e)) if e.to_string() == which),
                "non-finite {which} {point}: {answer:?}"
            );
            return;
        }
    }
    let tol = tolerance(mesh, &[start, goal]);
    let filter = &options.filter;
    let admitted = |p: u32| filter.admits(mesh.polygon_flags(p));
    if !(0..mesh.polygon_count()).any(admitted) {
        assert!(
            matches!(answer, Err(QueryError::NotOnMesh { .. })),
            "the filter admits no polygon: {answer:?}"
        );
        return;
    }
    let near_start = mesh.nearest_point(start, f32::INFINITY, Some(filter));
    let near_goal = mesh.nearest_point(goal, f32::INFINITY, Some(filter));
    if snap == f32::INFINITY {
        assert!(
            !matches!(answer, Err(QueryError::NotOnMesh { .. })),
            "unlimited snapping of finite points {start} -> {goal} failed: {answer:?}"
        );
    }
    let (Some(near_start), Some(near_goal)) = (near_start, near_goal) else {
        // Only possible when distances overflow; the assertion above covers the
        // default options.
        return;
    };
    let clearly_out = |d: f32| d > snap * (1.0 + 1e-4) + tol;
    let clearly_in = |d: f32| d < snap * (1.0 - 1e-4) - tol;
    match answer {
        Err(QueryError::NotOnMesh { endpoint, .. }) => {
            let d = if endpoint.to_string() == "start" {
                near_start.distance
            } else {
                // The start is checked first, so it was within the snap distance.
                assert!(
                    !clearly_out(near_start.distance),
                    "start beyond snap: {answer:?}"
                );
                near_goal.distance
            };
            assert!(
                !clearly_in(d),
                "{endpoint} {} from the mesh is within the snap distance {snap}: {answer:?}",
                d
            );
            return;
        }
        _ => {
            assert!(
                !clearly_out(near_start.distance) && !clearly_out(near_goal.distance),
                "a point beyond the snap distance {snap} was accepted ({} / {}): {answer:?}",
                near_start.distance,
                near_goal.distance
            );
        }
    }
    let (corners, status) = match answer {
        Ok((corners, status)) => (corners, *status),
        Err(QueryError::NoPath) => {
            assert!(!options.allow_partial, "NoPath with partial paths allowed");
            return;
        }
        Err(e) => panic!("unexpected error {e:?} for {start} -> {goal} with {options:?}"),
    };
    assert!(corners.len() >= 2, "{corners:?}");
    assert!(corners.iter().all(|c| c.is_finite()), "{corners:?}");
    assert!(
        corners.len() == 2 || corners.windows(2).all(|w| w[0] != w[1]),
        "the same point twice in a row: {corners:?}"
    );
    let on_mesh = |p: Vec3| {
        mesh.nearest_point(p, f32::INFINITY, Some(filter))
            .is_some_and(|n| n.distance <= tol)
    };
    // Distances in f64 (squares of f32 distances overflow beyond 1.8e19), to the nearest
    // point found by brute force in f64 for small meshes, else by the library.
    let small = mesh.polygon_count() <= MAX_SEGMENT_CHECK_POLYGONS;
    let nearest = |p: Vec3, library: f32| {
        if small {
            brute_force_distance(mesh, p, admitted)
        } else {
            f64::from(library)
        }
    };
    let (d_start, d_goal) = (
        nearest(start, near_start.distance),
        nearest(goal, near_goal.distance),
    );
    let tol64 = f64::from(tol);
    let d = |a: Vec3, b: Vec3| a.as_dvec3().distance(b.as_dvec3());
    let first = corners[0];
    let last = *corners.last().unwrap();
    assert!(on_mesh(first), "first corner {first} is off the mesh");
    assert!(
        (d(first, start) - d_start).abs() <= tol64,
        "first corner {first} is {} from the start {start}; the mesh is {d_start} from it",
        d(first, start),
    );
    assert!(on_mesh(last), "last corner {last} is off the mesh");
    match status {
        PathStatus::Complete => assert!(
            (d(last, goal) - d_goal).abs() <= tol64,
            "last corner {last} is {} from the goal {goal}; the mesh is {d_goal} from it",
            d(last, goal),
        ),
        PathStatus::Partial | PathStatus::NodeLimit => {
            assert!(options.allow_partial, "a partial path although not allowed");
            assert!(
                d(last, goal) >= d_goal - tol64,
                "a partial path ends nearer to the goal than the mesh is"
            );
        }
    }
    if snap == f32::INFINITY
        && mesh.link_count() == 0
        && near_start.polygon == near_goal.polygon
        && status == PathStatus::Complete
    {
        assert_eq!(
            corners.len(),
            2,
            "start and goal in one polygon: {corners:?}"
        );
    }
    if mesh.polygon_count() <= MAX_SEGMENT_CHECK_POLYGONS && corners.len() <= 256 {
        let ground = GroundMesh::new(mesh, admitted);
        for (i, pair) in corners.windows(2).enumerate() {
            let link = details
                .get(i)
                .is_some_and(|d| d.flags.contains(CornerFlags::LINK_START));
            if !link {
                ground.check_segment(pair[0], pair[1], tol);
            }
        }
    }
}

/// The tolerance of geometric checks involving `mesh` and `points`: 1e-4 times the
/// largest coordinate magnitude (at least 1).
pub fn tolerance(mesh: &NavMesh, points: &[Vec3]) -> f32 {
    [mesh.bounds().min, mesh.bounds().max]
        .iter()
        .chain(points)
        .map(|v| v.abs().max_element())
        .fold(1.0f32, f32::max)
        * 1e-4
}

/// The 3D distance from `p` to the polygons of the mesh for which `admitted` holds, by
/// brute force in f64 over the fan triangles of each: an independent check of the
/// library's (f32, BVH) snapping.
pub fn brute_force_distance(mesh: &NavMesh, p: Vec3, admitted: impl Fn(u32) -> bool) -> f64 {
    let p = p.as_dvec3();
    let v = mesh.vertices();
    (0..mesh.polygon_count())
        .filter(|&poly| admitted(poly))
        .flat_map(|poly| {
            let c = mesh.polygon_vertices(poly);
            (1..c.len() - 1).map(move |i| {
                let at = |k: usize| v[c[k] as usize].as_dvec3();
                distance_to_triangle(p, at(0), at(i), at(i + 1))
            })
        })
        .fold(f64::INFINITY, f64::min)
}

/// The distance from `p` to triangle `abc`, in f64: the nearest of its three edges and,
/// when the triangle has an area and the projection of `p` onto its plane falls inside,
/// that projection. (Degenerate slivers, which meshes with huge coordinates produce, are
/// measured by their edges only.)
fn distance_to_triangle(p: DVec3, a: DVec3, b: DVec3, c: DVec3) -> f64 {
    fn segment(p: DVec3, a: DVec3, b: DVec3) -> f64 {
        let e = b - a;
        let len2 = e.length_squared();
        let t = if len2 > 0.0 {
            ((p - a).dot(e) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        (a + e * t).distance(p)
    }
    let mut best = segment(p, a, b).min(segment(p, b, c)).min(segment(p, c, a));
    let n = (b - a).cross(c - a);
    let nn = n.length_squared();
    if nn > 1e-20 * (b - a).length_squared() * (c - a).length_squared() && nn.is_finite() {
        let q = p - n * ((p - a).dot(n) / nn);
        let inside = (b - a).cross(q - a).dot(n) >= 0.0
            && (c - b).cross(q - b).dot(n) >= 0.0
            && (a - c).cross(q - c).dot(n) >= 0.0;
        if inside {
            best = best.min(q.distance(p));
        }
    }
    best
}

/// The polygons of a mesh in its ground plane, for containment tests.
pub struct GroundMesh {
    up: UpAxis,
    /// Corners of each polygon, counter-clockwise.
    polygons: Vec<Vec<Vec2>>,
}

impl GroundMesh {
    /// The polygons of `mesh` for which `admitted` holds.
    pub fn new(mesh: &NavMesh, admitted: impl Fn(u32) -> bool) -> GroundMesh {
        let up = mesh.up_axis();
        let polygons = (0..mesh.polygon_count())
            .filter(|&p| admitted(p))
            .map(|p| {
                let mut c: Vec<Vec2> = mesh
                    .polygon_vertices(p)
                    .iter()
                    .map(|&v| up.ground(mesh.vertices()[v as usize]))
                    .collect();
                let n = c.len();
                let area: f64 = (0..n)
                    .map(|i| f64::from(c[i].perp_dot(c[(i + 1) % n])))
                    .sum();
                if area < 0.0 {
                    c.reverse();
                }
                c
            })
            .collect();
        GroundMesh { up, polygons }
    }

    /// Whether `q` is inside some polygon or within `tol` of one.
    fn contains(&self, q: Vec2, tol: f32) -> bool {
        self.polygons.iter().any(|c| {
            let n = c.len();
            let inside = (0..n).all(|i| {
                let (a, b) = (c[i].as_dvec2(), c[(i + 1) % n].as_dvec2());
                (b - a).perp_dot(q.as_dvec2() - a) >= 0.0
            });
            inside
                || (0..n).any(|i| {
                    let (a, b) = (c[i].as_dvec2(), c[(i + 1) % n].as_dvec2());
                    let e = b - a;
                    let t = ((q.as_dvec2() - a).dot(e) / e.length_squared()).clamp(0.0, 1.0);
                    (a + e * t).distance(q.as_dvec2()) <= f64::from(tol)
                })
        })
    }

    /// Whether the ground projection of `p` is inside some polygon or within `tol` of
    /// one.
    pub fn holds(&self, p: Vec3, tol: f32) -> bool {
        self.contains(self.up.ground(p), tol)
    }

    /// Samples a segment and checks that every sample is on the mesh.
    pub fn check_segment(&self, a: Vec3, b: Vec3, tol: f32) {
        let (a, b) = (self.up.ground(a), self.up.ground(b));
        for k in 0..=8 {
            let q = a.lerp(b, k as f32 / 8.0);
            assert!(
                self.contains(q, tol),
                "segment {a} -> {b}: sample {q} is off the mesh (ground plane)"
            );
        }
    }
}

/// A point inside polygon `polygon` of `mesh`, from three numbers (any bits): a point of
/// one of the polygon's fan triangles.
pub fn point_in_polygon(mesh: &NavMesh, polygon: u32, s: u8, t: u8, u: u8) -> Vec3 {
    let corners = mesh.polygon_vertices(polygon % mesh.polygon_count());
    fan_point(corners, mesh.vertices(), s, t, u)
}

/// A point of the polygon with these corners (at least 3), from three numbers (any
/// bits): fan triangle `s % (n - 2)`, at barycentric weights `t / 255` and `u / 255`
/// (folded into the triangle).
pub fn fan_point(corners: &[u32], vertices: &[Vec3], s: u8, t: u8, u: u8) -> Vec3 {
    let fan = corners.len() - 2;
    let k = usize::from(s) % fan;
    let (a, b, c) = (
        vertices[corners[0] as usize],
        vertices[corners[k + 1] as usize],
        vertices[corners[k + 2] as usize],
    );
    let (mut t, mut u) = (f32::from(t) / 255.0, f32::from(u) / 255.0);
    if t + u > 1.0 {
        (t, u) = (1.0 - t, 1.0 - u);
    }
    a + (b - a) * t + (c - a) * u
}

/// A query end point chosen by the fuzzer.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum PointIn {
    /// A point of a polygon (mostly on the mesh).
    InPolygon(u16, u8, u8, u8),
    /// A point of a polygon moved by a small offset (off the mesh, above or below it).
    Near(u16, u8, u8, [i8; 3]),
    /// Any coordinates.
    Raw([Coord; 3]),
    /// NULL.
    Null,
}

impl PointIn {
    /// The point for `mesh`, or `None` for NULL.
    pub fn resolve(self, mesh: &NavMesh) -> Option<[f32; 3]> {
        self.resolve_with(|p, s, t, u| point_in_polygon(mesh, p, s, t, u))
    }

    /// The point for the polygons of `arrays` (before a mesh is built from them), or
    /// `None` for NULL.
    pub fn resolve_in(self, arrays: &Arrays) -> Option<[f32; 3]> {
        self.resolve_with(|p, s, t, u| arrays.point_in_polygon(p, s, t, u).unwrap_or(Vec3::ZERO))
    }

    /// The point, where `pick(polygon, s, t, u)` gives a point of a polygon.
    fn resolve_with(self, pick: impl Fn(u32, u8, u8, u8) -> Vec3) -> Option<[f32; 3]> {
        match self {
            PointIn::InPolygon(p, s, t, u) => Some(pick(u32::from(p), s, t, u).to_array()),
            PointIn::Near(p, t, u, d) => {
                let base = pick(u32::from(p), 0, t, u);
                Some((base + Vec3::from(d.map(|x| f32::from(x) / 32.0))).to_array())
            }
            PointIn::Raw(c) => Some(c.map(Coord::value)),
            PointIn::Null => None,
        }
    }
}

/// Runs a few queries between points of `mesh` with the Rust API and checks each answer,
/// link segments included (used by the loader targets on whatever mesh the file gave).
pub fn run_queries(mesh: &NavMesh, picks: &[u8]) {
    let mut query = Query::new(mesh);
    for pick in picks.chunks_exact(8).take(4) {
        let p = |i: usize| u32::from(u16::from_le_bytes([pick[i], pick[i + 1]]));
        let start = point_in_polygon(mesh, p(0), pick[2], pick[3], pick[2] ^ pick[3]);
        let goal = point_in_polygon(mesh, p(4), pick[6], pick[7], pick[6] ^ pick[7]);
        let mut options = PathOptions::default();
        options.allow_partial = pick[7] & 1 == 0;
        let answer = query.find_path_vec(start, goal, &options);
        // The loaded mesh may have off-mesh links: their segments are not on the mesh.
        let details = answer
            .as_ref()
            .map_or(Vec::new(), |path| path.details.clone());
        let answer = answer.map(|path| (path.corners, path.status));
        check_path(mesh, start, goal, &options, &answer, &details);
    }
}

// ---------------------------------------------------------------------------------------
// Loaders
// ---------------------------------------------------------------------------------------

/// A saved file (navstar's container: a 32-byte header, then the payload) damaged by up
/// to 8 `(position, xor mask)` flips, with the payload's checksum recomputed when
/// `reseal`; and whether the payload changed.
pub fn damage(saved: &[u8], flips: &[(u32, u8)], reseal: bool) -> (Vec<u8>, bool) {
    let mut bytes = saved.to_vec();
    for &(at, mask) in flips.iter().take(8) {
        let len = bytes.len();
        bytes[at as usize % len] ^= mask;
    }
    let changed_payload = bytes[32..] != saved[32..];
    if reseal {
        let crc = crc32fast::hash(&bytes[32..]);
        bytes[24..28].copy_from_slice(&crc.to_le_bytes());
    }
    (bytes, changed_payload)
}

/// Parses `data` with a streaming parser through a reader that hands out at most a few
/// bytes at a time, so that tokens and lines straddle buffer boundaries.
pub fn parse_in_pieces<'a, T>(
    data: &'a [u8],
    parse: impl FnOnce(std::io::BufReader<&'a [u8]>) -> Result<T, LoadError>,
) -> Result<T, LoadError> {
    let piece = 1 + data.len() % 7;
    parse(std::io::BufReader::with_capacity(piece, data))
}

/// Checks a parse result that came from bytes: the same as the streaming parse in small
/// pieces (compared by `Debug` text, so NaN coordinates compare equal), never an I/O
/// error, and a parse error names a line that exists.
pub fn check_parse_result<T: std::fmt::Debug>(
    data: &[u8],
    bytes: &Result<T, LoadError>,
    pieces: &Result<T, LoadError>,
) {
    assert_eq!(
        format!("{bytes:?}"),
        format!("{pieces:?}"),
        "parsing in small pieces gave another result"
    );
    match bytes {
        Ok(_) => {}
        Err(LoadError::Parse { line, message }) => {
            let breaks = data.iter().filter(|&&b| b == b'\n' || b == b'\r').count() as u64;
            assert!(
                *line >= 1 && *line <= breaks + 1,
                "parse error at line {line} of a text with {breaks} line breaks: {message}"
            );
            assert!(!message.is_empty());
        }
        Err(e) => panic!("a bytes parser gave {e:?}"),
    }
}

/// Checks what every parser guarantees of a polygon soup: polygons of at least 3
/// corners, sizes that add up to the index count, indices in range, `source_polygons`
/// empty or one increasing file position per polygon, and the format's fixed up axis
/// (2D formats: Z up with z = 0).
pub fn check_soup(soup: &PolygonSoup, up_axis: Option<UpAxis>) {
    assert!(soup.polygon_sizes.iter().all(|&s| s >= 3));
    let total: u64 = soup.polygon_sizes.iter().map(|&s| u64::from(s)).sum();
    assert_eq!(total, soup.indices.len() as u64);
    assert!(
        soup.indices
            .iter()
            .all(|&i| (i as usize) < soup.vertices.len())
    );
    assert_eq!(soup.polygons().count(), soup.polygon_sizes.len());
    if !soup.source_polygons.is_empty() {
        assert_eq!(soup.source_polygons.len(), soup.polygon_sizes.len());
        assert!(soup.source_polygons.windows(2).all(|w| w[0] < w[1]));
    }
    assert_eq!(soup.up_axis, up_axis);
    if up_axis == Some(UpAxis::Z) {
        assert!(soup.vertices.iter().all(|v| v.z == 0.0));
    }
}

/// Builds a parsed soup with the Rust loader path ([`PolygonSoup::into_mesh`]) and with
/// the C ABI from the same arrays, checks that they agree (status and polygon count),
/// and runs a few checked queries on the mesh. `picks` chooses the query points.
pub fn build_and_query(soup: PolygonSoup, picks: &[u8]) {
    let up = soup.up_axis.unwrap_or(UpAxis::Y);
    let floats: Vec<f32> = soup.vertices.iter().flat_map(|v| v.to_array()).collect();
    let mut c_options = navstar_mesh_options_default();
    c_options.up_axis = match up {
        UpAxis::Y => navstar::ffi::NAVSTAR_UP_Y,
        UpAxis::Z => navstar::ffi::NAVSTAR_UP_Z,
    };
    let (status, cmesh) = c_mesh_create(
        Some(&floats),
        soup.vertices.len() as u32,
        Some(&soup.indices),
        Some(&soup.polygon_sizes),
        soup.polygon_sizes.len() as u32,
        Some(&c_options),
    );
    let polygons = soup.polygon_sizes.len() as u32;
    match soup.into_mesh(&MeshOptions::default()) {
        Ok(mesh) => {
            assert_eq!(status, OK, "{}", last_error());
            assert_eq!(mesh.polygon_count(), polygons);
            assert_eq!(cmesh.unwrap().polygon_count(), polygons);
            assert_eq!(mesh.up_axis(), up);
            run_queries(&mesh, picks);
        }
        Err(LoadError::Mesh(e)) => assert_eq!(status, mesh_status(&e), "{e}"),
        Err(e) => panic!("into_mesh gave {e:?}"),
    }
}

/// The last 32 bytes of `data` (or all of it): the query picks of the loader targets.
pub fn picks(data: &[u8]) -> &[u8] {
    &data[data.len().saturating_sub(32)..]
}
