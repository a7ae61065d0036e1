//! Thin, contract-keeping wrappers over the C ABI's first entry points (mesh and query
//! handles, `navstar_find_path`) that check what every call promises, and the
//! comparison of a C answer with the Rust API's.

use std::ffi::CStr;
use std::ptr::{self, NonNull};

use navstar::ffi::{
    NavstarMesh, NavstarMeshOptions, NavstarPathOptions, NavstarQuery, NavstarStatus,
    navstar_find_path, navstar_last_error_message, navstar_mesh_create,
    navstar_mesh_create_from_grid, navstar_mesh_free, navstar_mesh_polygon_count,
    navstar_query_create, navstar_query_free, navstar_status_name,
};
use navstar::glam::Vec3;
use navstar::{CornerDetail, MeshError, PathOptions, PathStatus, Query, QueryError};

use crate::{
    BUFFER_TOO_SMALL, COptions, Expect, INTERNAL, INVALID_ARGUMENT, INVALID_MESH, ListAnswer,
    ListBuffers, NO_PATH, NOT_ON_MESH, NULL_ARGUMENT, OK, OUT_OF_MEMORY, PARTIAL_NODE_LIMIT,
    PARTIAL_PATH, PathOpts, QueryOpts, call_list, check_answer, check_path, radius,
};

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
pub struct CMesh(pub(crate) NonNull<NavstarMesh>);

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
