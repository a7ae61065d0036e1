//! Contract-keeping wrappers over the query entry points added after the first ones
//! (path read-back, nearest target, reachable polygons, mesh queries, flags). Each
//! passes NULL where asked, guards every output, and checks the status and message
//! rules, the buffer rules and "outputs untouched on error" where documented.

use std::ptr;

use navstar::ffi::{
    NavstarCornerDetail, NavstarPathArc, NavstarPathInfo, NavstarRaycastHit, NavstarReachedPolygon,
    navstar_find_nearest_target, navstar_mesh_interpolate, navstar_mesh_nearest_point,
    navstar_mesh_polygon_info, navstar_mesh_raycast, navstar_mesh_set_link_flags,
    navstar_mesh_set_polygon_flags, navstar_query_path_arcs, navstar_query_path_corridor,
    navstar_query_path_details, navstar_query_path_info, navstar_query_reachable_polygons,
};

use crate::buffers::{Guarded, ListAnswer, ListBuffers, Words, call_list};
use crate::input::{CFilter, COptions};
use crate::{
    CAnswer, CMesh, CQuery, FilterIn, INVALID_ARGUMENT, NavstarStatus, check_status_and_message,
    opt_ptr, path_answer,
};
use navstar::QueryFilter;

/// An argument fault the harness injected: the status it must cause and a word the
/// error message must contain (the argument's name).
pub type Fault = (NavstarStatus, &'static str);

/// The fault a filter argument injects, and the filter otherwise.
pub fn filter_fault(filter: &FilterIn, faults: &mut Vec<Fault>) -> Option<QueryFilter> {
    match filter.checked() {
        Ok(f) => Some(f),
        Err(status) => {
            faults.push((status, "filter"));
            None
        }
    }
}

/// The fault a search radius injects (NaN or negative; INFINITY is allowed).
pub fn radius_fault(radius: f32) -> Option<Fault> {
    (radius.is_nan() || radius < 0.0).then_some((INVALID_ARGUMENT, "radius"))
}

/// The faults of the filter and of an agent radius (finite and >= 0); the filter when
/// it is valid.
pub fn agent_faults(
    filter: &FilterIn,
    agent_radius: f32,
    faults: &mut Vec<Fault>,
) -> Option<QueryFilter> {
    if !(agent_radius.is_finite() && agent_radius >= 0.0) {
        faults.push((INVALID_ARGUMENT, "agent_radius"));
    }
    filter_fault(filter, faults)
}

/// When faults were injected, checks that the call failed with one of them (any one:
/// the order of the checks is not documented) and returns `true`; `false` when none
/// was.
#[track_caller]
pub fn check_faults(
    function: &str,
    status: NavstarStatus,
    message: &str,
    faults: &[Fault],
) -> bool {
    if faults.is_empty() {
        return false;
    }
    assert!(
        faults
            .iter()
            .any(|&(s, word)| status == s && message.contains(word)),
        "{function}: {status:?} ({message:?}) for the faults {faults:?}"
    );
    true
}

/// An optional output of one item: guarded, or NULL.
pub(crate) struct Out<T: Words>(Guarded<T>);

impl<T: Words> Out<T> {
    pub(crate) fn new(count: u32, null: bool) -> Self {
        Out(Guarded::new(count, null))
    }

    pub(crate) fn ptr(&mut self) -> *mut T {
        self.0.as_mut_ptr()
    }

    /// After the call: written (when not NULL) on success, untouched on error.
    #[track_caller]
    pub(crate) fn get(&self, success: bool, function: &str) -> Option<Vec<T>> {
        let due = if success {
            self.0.capacity() as usize
        } else {
            0
        };
        let items = self.0.written(due, function).to_vec();
        (success && !items.is_empty()).then_some(items)
    }
}

/// The handle of an optional mesh (NULL for `None`).
pub(crate) fn mesh_ptr(mesh: Option<&CMesh>) -> *const navstar::ffi::NavstarMesh {
    mesh.map_or(ptr::null(), CMesh::as_ptr)
}

/// The handle of an optional query (NULL for `None`).
fn query_ptr(query: Option<&CQuery>) -> *mut navstar::ffi::NavstarQuery {
    query.map_or(ptr::null_mut(), CQuery::as_ptr)
}

/// What `navstar_query_path_info` answered.
#[derive(Debug)]
pub struct InfoAnswer {
    /// The status.
    pub status: NavstarStatus,
    /// The message.
    pub message: String,
    /// The summary, after success.
    pub info: Option<NavstarPathInfo>,
}

/// Calls `navstar_query_path_info` (NULL for `None` / `out_null`).
pub fn c_path_info(query: Option<&CQuery>, out_null: bool) -> InfoAnswer {
    let unset = NavstarPathInfo {
        point_count: 0xdead_beef,
        polygon_count: 0xdead_beef,
        status: crate::INTERNAL,
        length: f32::NAN,
        cost: f32::NAN,
    };
    let mut info = unset;
    let out = if out_null {
        ptr::null_mut()
    } else {
        ptr::from_mut(&mut info)
    };
    // SAFETY: the query is NULL or live and used by this thread only; `out` NULL or
    // writable.
    let status = unsafe { navstar_query_path_info(query_ptr(query), out) };
    let message = check_status_and_message("navstar_query_path_info", status);
    let success = (status as i32) >= 0;
    if !success {
        let bits = |i: &NavstarPathInfo| {
            (
                i.point_count,
                i.polygon_count,
                i.status,
                i.length.to_bits(),
                i.cost.to_bits(),
            )
        };
        assert_eq!(
            bits(&info),
            bits(&unset),
            "navstar_query_path_info wrote after {status:?}"
        );
    }
    InfoAnswer {
        status,
        message,
        info: success.then_some(info),
    }
}

/// Calls `navstar_query_path_details`.
pub fn c_path_details(
    query: Option<&CQuery>,
    buffers: ListBuffers,
) -> ListAnswer<NavstarCornerDetail> {
    call_list(
        "navstar_query_path_details",
        buffers,
        |out, capacity, count| {
            // SAFETY: the query is NULL or live; `out` NULL or room for `capacity`
            // entries; `count` NULL or writable.
            unsafe { navstar_query_path_details(query_ptr(query), out, capacity, count) }
        },
    )
}

/// Calls `navstar_query_path_arcs`.
pub fn c_path_arcs(query: Option<&CQuery>, buffers: ListBuffers) -> ListAnswer<NavstarPathArc> {
    call_list(
        "navstar_query_path_arcs",
        buffers,
        |out, capacity, count| {
            // SAFETY: as in `c_path_details`.
            unsafe { navstar_query_path_arcs(query_ptr(query), out, capacity, count) }
        },
    )
}

/// Calls `navstar_query_path_corridor`.
pub fn c_path_corridor(query: Option<&CQuery>, buffers: ListBuffers) -> ListAnswer<u32> {
    call_list(
        "navstar_query_path_corridor",
        buffers,
        |out, capacity, count| {
            // SAFETY: as in `c_path_details`.
            unsafe { navstar_query_path_corridor(query_ptr(query), out, capacity, count) }
        },
    )
}

/// What `navstar_find_nearest_target` answered.
#[derive(Debug)]
pub struct TargetAnswer {
    /// The path output.
    pub path: CAnswer,
    /// The message.
    pub message: String,
    /// `*out_goal` after success.
    pub goal: Option<u32>,
}

/// Calls `navstar_find_nearest_target`. `goals` must hold `3 * goal_count` floats unless
/// it is `None` (NULL).
#[allow(clippy::too_many_arguments)]
pub fn c_find_nearest_target(
    query: Option<&CQuery>,
    start: Option<[f32; 3]>,
    goals: Option<&[f32]>,
    goal_count: u32,
    options: &COptions,
    buffers: ListBuffers,
    goal_null: bool,
) -> TargetAnswer {
    if let Some(g) = goals {
        assert!(g.len() as u64 >= 3 * u64::from(goal_count), "harness bug");
    }
    let mut goal = Out::<u32>::new(1, goal_null);
    let list = call_list(
        "navstar_find_nearest_target",
        buffers,
        |out: *mut [f32; 3], capacity, count| {
            // SAFETY: the query is NULL or live and used by this thread only; `start` NULL
            // or 3 floats; `goals` NULL or 3 * goal_count floats; `options` NULL or a
            // full struct whose filter is NULL or live; the outputs NULL or writable for
            // their counts.
            unsafe {
                navstar_find_nearest_target(
                    query_ptr(query),
                    opt_ptr(&start),
                    goals.map_or(ptr::null(), <[f32]>::as_ptr),
                    goal_count,
                    options.as_ptr(),
                    out.cast::<f32>(),
                    capacity,
                    count,
                    goal.ptr(),
                )
            }
        },
    );
    let success = (list.status as i32) >= 0;
    let message = list.message.clone();
    let goal = goal
        .get(success, "navstar_find_nearest_target")
        .map(|g| g[0]);
    TargetAnswer {
        path: path_answer("navstar_find_nearest_target", list),
        message,
        goal,
    }
}

/// Calls `navstar_query_reachable_polygons`.
pub fn c_reachable(
    query: Option<&CQuery>,
    start: Option<[f32; 3]>,
    max_cost: f32,
    options: &COptions,
    buffers: ListBuffers,
) -> ListAnswer<NavstarReachedPolygon> {
    call_list(
        "navstar_query_reachable_polygons",
        buffers,
        |out, capacity, count| {
            // SAFETY: the query is NULL or live and used by this thread only; `start` NULL
            // or 3 floats; `options` NULL or a full struct; `out` NULL or room for
            // `capacity` entries; `count` NULL or writable.
            unsafe {
                navstar_query_reachable_polygons(
                    query_ptr(query),
                    opt_ptr(&start),
                    max_cost,
                    options.as_ptr(),
                    out,
                    capacity,
                    count,
                )
            }
        },
    )
}

/// Which optional outputs of a mesh query are NULL.
#[derive(Debug, Clone, Copy, Default, arbitrary::Arbitrary)]
pub struct NullOuts {
    /// The first output.
    pub a: bool,
    /// The second output.
    pub b: bool,
    /// The third output.
    pub c: bool,
}

/// What `navstar_mesh_nearest_point` answered (each output `None` when NULL or after an
/// error).
#[derive(Debug)]
pub struct NearestAnswer {
    /// The status.
    pub status: NavstarStatus,
    /// The message.
    pub message: String,
    /// `out_point`.
    pub point: Option<[f32; 3]>,
    /// `out_polygon`.
    pub polygon: Option<u32>,
    /// `out_distance`.
    pub distance: Option<f32>,
}

/// Calls `navstar_mesh_nearest_point`; outputs are untouched after an error.
pub fn c_nearest_point(
    mesh: Option<&CMesh>,
    point: Option<[f32; 3]>,
    max_distance: f32,
    filter: &CFilter,
    nulls: NullOuts,
) -> NearestAnswer {
    const F: &str = "navstar_mesh_nearest_point";
    let mut out_point = Out::<f32>::new(3, nulls.a);
    let mut out_polygon = Out::<u32>::new(1, nulls.b);
    let mut out_distance = Out::<f32>::new(1, nulls.c);
    // SAFETY: the mesh NULL or live; `point` NULL or 3 floats; `filter` NULL or a
    // filter; each output NULL or writable (3 floats for the point).
    let status = unsafe {
        navstar_mesh_nearest_point(
            mesh_ptr(mesh),
            opt_ptr(&point),
            max_distance,
            filter.as_ptr(),
            out_point.ptr(),
            out_polygon.ptr(),
            out_distance.ptr(),
        )
    };
    let message = check_status_and_message(F, status);
    let ok = (status as i32) >= 0;
    NearestAnswer {
        status,
        message,
        point: out_point.get(ok, F).map(|p| [p[0], p[1], p[2]]),
        polygon: out_polygon.get(ok, F).map(|p| p[0]),
        distance: out_distance.get(ok, F).map(|d| d[0]),
    }
}

/// What a mesh query with one output answered.
#[derive(Debug)]
pub struct OneAnswer<T> {
    /// The status.
    pub status: NavstarStatus,
    /// The message.
    pub message: String,
    /// The output, after success (and when not NULL).
    pub value: Option<T>,
}

/// Calls `navstar_mesh_raycast`; `out_hit` is untouched after an error.
pub fn c_raycast(
    mesh: Option<&CMesh>,
    start: Option<[f32; 3]>,
    end: Option<[f32; 3]>,
    filter: &CFilter,
    out_null: bool,
) -> OneAnswer<NavstarRaycastHit> {
    const F: &str = "navstar_mesh_raycast";
    let mut hit = Out::<NavstarRaycastHit>::new(1, out_null);
    // SAFETY: the mesh NULL or live; points NULL or 3 floats; `filter` NULL or a filter;
    // `out_hit` NULL or writable.
    let status = unsafe {
        navstar_mesh_raycast(
            mesh_ptr(mesh),
            opt_ptr(&start),
            opt_ptr(&end),
            filter.as_ptr(),
            hit.ptr(),
        )
    };
    let message = check_status_and_message(F, status);
    let ok = (status as i32) >= 0;
    OneAnswer {
        status,
        message,
        value: hit.get(ok, F).map(|h| h[0]),
    }
}

/// Checks a C raycast's answer against the Rust API's for the same call, bit for bit:
/// the same error status, or `NAVSTAR_OK` with the same hit, fraction, point, wall
/// normal (zero without a hit) and polygon. Returns the Rust hit when both succeeded.
pub fn same_raycast_hit(
    answer: &OneAnswer<NavstarRaycastHit>,
    rust: Result<navstar::Raycast, navstar::QueryError>,
) -> Option<navstar::Raycast> {
    let hit = match rust {
        Err(err) => {
            assert_eq!(answer.status, crate::query_status(&err), "Rust said {err}");
            return None;
        }
        Ok(hit) => hit,
    };
    assert_eq!(answer.status, crate::OK, "{}", answer.message);
    let c = answer
        .value
        .expect("a raycast that succeeded wrote its hit");
    assert_eq!(c.hit, u32::from(hit.hit.is_some()));
    assert_eq!(c.t.to_bits(), hit.t.to_bits());
    assert_eq!(
        c.point.map(f32::to_bits),
        hit.point.to_array().map(f32::to_bits)
    );
    assert_eq!(
        c.normal.map(f32::to_bits),
        hit.hit
            .map_or([0.0; 3], |wall| wall.normal.to_array())
            .map(f32::to_bits)
    );
    assert_eq!(c.polygon, hit.polygon);
    Some(hit)
}

/// What `navstar_mesh_interpolate` answered.
#[derive(Debug)]
pub struct InterpolateAnswer {
    /// The status.
    pub status: NavstarStatus,
    /// The message.
    pub message: String,
    /// `out_values` after success.
    pub values: Option<Vec<f32>>,
    /// `out_polygon` after success (when not NULL).
    pub polygon: Option<u32>,
}

/// Calls `navstar_mesh_interpolate`. `values` must hold `value_count` floats unless it
/// is `None` (NULL); `out_values` gets room for `channels` floats unless `out_null`.
#[allow(clippy::too_many_arguments)]
pub fn c_interpolate(
    mesh: Option<&CMesh>,
    point: Option<[f32; 3]>,
    values: Option<&[f32]>,
    value_count: u32,
    channels: u32,
    filter: &CFilter,
    out_null: bool,
    polygon_null: bool,
) -> InterpolateAnswer {
    const F: &str = "navstar_mesh_interpolate";
    if let Some(v) = values {
        assert!(v.len() >= value_count as usize, "harness bug");
    }
    let mut out = Out::<f32>::new(channels, out_null);
    let mut polygon = Out::<u32>::new(1, polygon_null);
    // SAFETY: the mesh NULL or live; `point` NULL or 3 floats; `values` NULL or
    // `value_count` floats; `filter` NULL or a filter; `out` NULL or `channels` floats;
    // `polygon` NULL or writable.
    let status = unsafe {
        navstar_mesh_interpolate(
            mesh_ptr(mesh),
            opt_ptr(&point),
            values.map_or(ptr::null(), <[f32]>::as_ptr),
            value_count,
            channels,
            filter.as_ptr(),
            out.ptr(),
            polygon.ptr(),
        )
    };
    let message = check_status_and_message(F, status);
    let ok = (status as i32) >= 0;
    InterpolateAnswer {
        status,
        message,
        values: out.get(ok, F),
        polygon: polygon.get(ok, F).map(|p| p[0]),
    }
}

/// Which flag setter to call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlagTarget {
    /// `navstar_mesh_set_polygon_flags`.
    Polygon,
    /// `navstar_mesh_set_link_flags`.
    Link,
}

/// Calls a flag setter; `value` is `*out_previous` (when not NULL) after success.
pub fn c_set_flags(
    mesh: Option<&CMesh>,
    target: FlagTarget,
    index: u32,
    flags: u32,
    previous_null: bool,
) -> OneAnswer<u32> {
    let (function, set): (&str, unsafe extern "C" fn(_, u32, u32, *mut u32) -> _) = match target {
        FlagTarget::Polygon => (
            "navstar_mesh_set_polygon_flags",
            navstar_mesh_set_polygon_flags,
        ),
        FlagTarget::Link => ("navstar_mesh_set_link_flags", navstar_mesh_set_link_flags),
    };
    let mut previous = Out::<u32>::new(1, previous_null);
    // SAFETY: the mesh NULL or live; `previous` NULL or writable.
    let status = unsafe { set(mesh_ptr(mesh), index, flags, previous.ptr()) };
    let message = check_status_and_message(function, status);
    let ok = (status as i32) >= 0;
    OneAnswer {
        status,
        message,
        value: previous.get(ok, function).map(|p| p[0]),
    }
}

/// Calls `navstar_mesh_polygon_info`; the value is `(flags, area)`, each `None` when
/// NULL or after an error (outputs untouched then).
pub fn c_polygon_info(
    mesh: Option<&CMesh>,
    polygon: u32,
    flags_null: bool,
    area_null: bool,
) -> OneAnswer<(Option<u32>, Option<u32>)> {
    const F: &str = "navstar_mesh_polygon_info";
    let mut flags = Out::<u32>::new(1, flags_null);
    let mut area = Out::<u32>::new(1, area_null);
    // SAFETY: the mesh NULL or live; each output NULL or writable.
    let status =
        unsafe { navstar_mesh_polygon_info(mesh_ptr(mesh), polygon, flags.ptr(), area.ptr()) };
    let message = check_status_and_message(F, status);
    let ok = (status as i32) >= 0;
    OneAnswer {
        status,
        message,
        value: ok.then(|| {
            (
                flags.get(ok, F).map(|f| f[0]),
                area.get(ok, F).map(|a| a[0]),
            )
        }),
    }
}

/// The fault a point argument injects: NULL, or a non-finite coordinate.
pub fn point_fault(point: Option<[f32; 3]>, name: &'static str) -> Option<Fault> {
    match point {
        None => Some((crate::NULL_ARGUMENT, name)),
        Some(p) if !p.iter().all(|v| v.is_finite()) => Some((crate::INVALID_ARGUMENT, name)),
        Some(_) => None,
    }
}

/// The fault a handle argument injects when it is NULL.
pub fn null_fault(null: bool, name: &'static str) -> Option<Fault> {
    null.then_some((crate::NULL_ARGUMENT, name))
}

/// Calls `navstar_mesh_polygon_info` (mesh NULL when `mesh_null`) and judges the faults
/// (NULL mesh, polygon out of range); after success returns `(flags, area)`, each
/// `None` when its output was NULL.
pub fn polygon_info_checked(
    mesh: &CMesh,
    polygon: u32,
    mesh_null: bool,
    nulls: NullOuts,
) -> Option<(Option<u32>, Option<u32>)> {
    let answer = c_polygon_info((!mesh_null).then_some(mesh), polygon, nulls.a, nulls.b);
    let mut faults: Vec<Fault> = null_fault(mesh_null, "mesh").into_iter().collect();
    if polygon >= mesh.polygon_count() {
        faults.push((crate::INVALID_ARGUMENT, "polygon"));
    }
    if check_faults(
        "navstar_mesh_polygon_info",
        answer.status,
        &answer.message,
        &faults,
    ) {
        return None;
    }
    assert_eq!(answer.status, crate::OK, "{}", answer.message);
    let (flags, area) = answer.value.unwrap();
    assert_eq!((flags.is_none(), area.is_none()), (nulls.a, nulls.b));
    Some((flags, area))
}
