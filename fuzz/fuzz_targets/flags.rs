//! Fuzzes the flag setters (`navstar_mesh_set_polygon_flags`,
//! `navstar_mesh_set_link_flags`) and `navstar_mesh_polygon_info` between queries, on
//! meshes with areas, flags and off-mesh links: every query must honour the flags as
//! they are at the time of the call.
//!
//! The harness keeps a model of every polygon's and link's flags. A setter returns the
//! previous flags of the model (out-of-range indices give
//! `NAVSTAR_ERROR_INVALID_ARGUMENT` naming the polygon or link; a NULL mesh
//! `NAVSTAR_ERROR_NULL_ARGUMENT`), `navstar_mesh_polygon_info` gives the model's flags
//! and the area the mesh was built with. One C query, created before any change, answers
//! paths, reachable polygons and nearest points with any filter; each answer equals the
//! Rust API's on a mesh built from the same arrays with the same flag changes, and none
//! uses a refused polygon or link: the corridor and the reached polygons are admitted,
//! every path segment lies on admitted polygons, every link taken is admitted, the
//! nearest point is on an admitted polygon. The C query's landmark choice
//! (`navstar_query_set_landmarks`) and fast-lane choice (`navstar_query_set_fast_lane`;
//! values other than 0 and 1 refused naming `on`) are mirrored on the Rust queries, and
//! an exact-mode path is as long as one without landmarks and without the fast lane: the
//! table (built at any time by `navstar_mesh_prepare_landmarks`, which agrees with Rust
//! on whether the mesh has one) stays a lower bound whatever the flags, and the fast-lane
//! index (built at any time by `navstar_mesh_prepare_fast_lane`, which agrees with Rust
//! likewise) answers only what the search would.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use navstar::ffi::{
    NAVSTAR_CORNER_LINK_START, NAVSTAR_LANDMARKS_BY_SIZE, NAVSTAR_LANDMARKS_OFF,
    NAVSTAR_LANDMARKS_ON, NavstarMesh, NavstarQuery, NavstarStatus, navstar_mesh_prepare_fast_lane,
    navstar_mesh_prepare_landmarks, navstar_query_set_fast_lane, navstar_query_set_landmarks,
};
use navstar::{NavMesh, Query};
use navstar_fuzz::calls::{
    FlagTarget, NullOuts, c_nearest_point, c_path_corridor, c_path_details, c_set_flags,
    check_faults, null_fault, polygon_info_checked,
};
use navstar_fuzz::input::{Built, CFilter};
use navstar_fuzz::readback::{check_corridor, check_details};
use navstar_fuzz::searches::{ReachIn, compare_reachable};
use navstar_fuzz::{
    FilterIn, INVALID_ARGUMENT, ListBuffers, MeshOps, OK, PointIn, QueryOpts, SmallU32,
    check_status_and_message, compare_query,
};

#[derive(Arbitrary, Debug)]
enum Op {
    Set {
        link: bool,
        index: SmallU32,
        /// 4 flag bits.
        flags: u8,
        previous_null: bool,
        mesh_null: bool,
    },
    Info {
        polygon: SmallU32,
    },
    Path {
        start: PointIn,
        goal: PointIn,
        options: QueryOpts,
    },
    Reach(ReachIn),
    Nearest {
        point: PointIn,
        filter: FilterIn,
    },
    /// `navstar_query_set_landmarks` (modes above 2 are refused).
    Landmarks {
        mode: u8,
        query_null: bool,
    },
    /// `navstar_mesh_prepare_landmarks`.
    Prepare {
        mesh_null: bool,
        out_null: bool,
    },
    /// `navstar_query_set_fast_lane` (values above 1 are refused).
    FastLane {
        on: u8,
        query_null: bool,
    },
    /// `navstar_mesh_prepare_fast_lane`.
    PrepareFastLane {
        mesh_null: bool,
        out_null: bool,
    },
}

/// The C query's choices, mirrored on the Rust queries.
#[derive(Clone, Copy)]
struct Choices {
    /// `None`: landmarks by size, else on or off.
    landmarks: Option<bool>,
    fast_lane: bool,
}

/// The flags the mesh must hold.
struct Model {
    polygons: Vec<u32>,
    links: Vec<u32>,
}

fn set(
    b: &Built,
    model: &mut Model,
    target: FlagTarget,
    index: u32,
    flags: u32,
    previous_null: bool,
    mesh_null: bool,
) {
    let answer = c_set_flags(
        (!mesh_null).then_some(&b.c),
        target,
        index,
        flags,
        previous_null,
    );
    let (slots, what) = match target {
        FlagTarget::Polygon => (&mut model.polygons, "polygon"),
        FlagTarget::Link => (&mut model.links, "link"),
    };
    let mut faults: Vec<_> = null_fault(mesh_null, "mesh").into_iter().collect();
    if index as usize >= slots.len() {
        faults.push((INVALID_ARGUMENT, what));
    }
    if check_faults("flag setter", answer.status, &answer.message, &faults) {
        return;
    }
    assert_eq!(answer.status, OK, "{}", answer.message);
    let slot = &mut slots[index as usize];
    if let Some(previous) = answer.value {
        assert_eq!(previous, *slot, "the previous flags of {what} {index}");
    }
    assert_eq!(answer.value.is_none(), previous_null);
    *slot = flags;
    let rust = match target {
        FlagTarget::Polygon => b.rust.set_polygon_flags(index, flags),
        FlagTarget::Link => b.rust.set_link_flags(index, flags),
    };
    rust.expect("the Rust mesh refused a flag change the C mesh took");
}

fn info(b: &Built, model: &Model, polygon: u32) {
    if let Some((flags, area)) = polygon_info_checked(&b.c, polygon, false, NullOuts::default()) {
        assert_eq!(flags, Some(model.polygons[polygon as usize]));
        assert_eq!(area, Some(u32::from(b.input.area(polygon))));
    }
}

fn path(
    b: &Built,
    model: &Model,
    cquery: &mut navstar_fuzz::CQuery,
    (start, goal): (&PointIn, &PointIn),
    options: &QueryOpts,
    choices: Choices,
) {
    let mesh = &b.rust;
    let mut rquery = Query::new(mesh);
    if let Some(on) = choices.landmarks {
        rquery.set_landmarks(on);
    }
    rquery.set_fast_lane(choices.fast_lane);
    let Some(found) = compare_query(
        cquery,
        &mut rquery,
        start.resolve(mesh),
        goal.resolve(mesh),
        options,
        64,
        false,
    ) else {
        return;
    };
    let navstar_fuzz::Expect::Accept(options) = options.expected() else {
        unreachable!("a path with rejected options");
    };
    // Neither the landmark table nor the fast lane changes the exact mode's length.
    if options.mode == navstar::PathMode::Optimal
        && (choices.landmarks != Some(false) || choices.fast_lane)
    {
        let mut plain = Query::new(mesh);
        plain.set_landmarks(false);
        plain.set_fast_lane(false);
        let (s, g) = (start.resolve(mesh).unwrap(), goal.resolve(mesh).unwrap());
        let without = plain
            .find_path(s.into(), g.into(), &options)
            .expect("the same path without landmarks and the fast lane");
        assert_eq!(found.status, without.status, "the status without them");
        let tolerance = 1e-4 * without.length().max(1.0);
        assert!(
            (without.length() - found.length).abs() <= tolerance,
            "exact length {} with landmarks {:?} and the fast lane {}, {} without",
            found.length,
            choices.landmarks,
            choices.fast_lane,
            without.length()
        );
    }
    // What the C query reads back is the path it found under the current flags.
    let corridor = c_path_corridor(Some(cquery), ListBuffers::room(256));
    assert_eq!(corridor.items, found.corridor);
    check_corridor(mesh, &corridor.items, &options);
    let details = c_path_details(Some(cquery), ListBuffers::room(256));
    check_details(mesh, &details.items);
    for d in &details.items {
        if d.flags & NAVSTAR_CORNER_LINK_START != 0 {
            let flags = model.links[d.link as usize];
            assert!(
                options.filter.admits(flags),
                "link {} (flags {flags}) taken although the filter refuses it",
                d.link
            );
        }
    }
}

/// Calls a query setter (`name`, `call`) on the C query or, with `query_null`, on NULL;
/// `refused` names the argument it must refuse by name. True when it took the value.
fn call_setter(
    cquery: &navstar_fuzz::CQuery,
    (name, query_null): (&str, bool),
    refused: Option<&'static str>,
    call: impl FnOnce(*mut NavstarQuery) -> NavstarStatus,
) -> bool {
    let query = if query_null {
        std::ptr::null_mut()
    } else {
        cquery.as_ptr()
    };
    let status = call(query);
    let message = check_status_and_message(name, status);
    let fault = if query_null {
        Some((navstar_fuzz::NULL_ARGUMENT, "query"))
    } else {
        refused.map(|argument| (INVALID_ARGUMENT, argument))
    };
    if let Some(fault) = fault {
        assert!(check_faults(name, status, &message, &[fault]));
        return false;
    }
    assert_eq!(status, OK, "{message}");
    true
}

/// Calls `navstar_query_set_landmarks`; returns the choice it made (`Some(None)`: by
/// size), `None` when it refused.
fn set_landmarks(
    cquery: &navstar_fuzz::CQuery,
    mode: u32,
    query_null: bool,
) -> Option<Option<bool>> {
    let choice = match mode {
        NAVSTAR_LANDMARKS_BY_SIZE => Some(None),
        NAVSTAR_LANDMARKS_ON => Some(Some(true)),
        NAVSTAR_LANDMARKS_OFF => Some(Some(false)),
        _ => None,
    };
    let name = ("navstar_query_set_landmarks", query_null);
    // SAFETY: NULL or the live query of this thread.
    let call = |query| unsafe { navstar_query_set_landmarks(query, mode) };
    let taken = call_setter(cquery, name, choice.is_none().then_some("mode"), call);
    choice.filter(|_| taken)
}

/// Calls `navstar_query_set_fast_lane`; returns the choice it made, `None` when it
/// refused.
fn set_fast_lane(cquery: &navstar_fuzz::CQuery, on: u32, query_null: bool) -> Option<bool> {
    let name = ("navstar_query_set_fast_lane", query_null);
    // SAFETY: NULL or the live query of this thread.
    let call = |query| unsafe { navstar_query_set_fast_lane(query, on) };
    call_setter(cquery, name, (on > 1).then_some("on"), call).then_some(on == 1)
}

/// A `navstar_mesh_prepare_*` function: builds a structure, says whether the mesh has it.
type PrepareFn = unsafe extern "C" fn(*const NavstarMesh, *mut u32) -> NavstarStatus;

/// Calls `prepare` (named `name`) on the C mesh or, with `mesh_null`, on NULL, and
/// `rust` on the Rust mesh built from the same arrays (so that both answer alike):
/// whether the mesh has the structure agrees.
fn prepare(
    b: &Built,
    (name, prepare): (&str, PrepareFn),
    rust: fn(&NavMesh) -> bool,
    (mesh_null, out_null): (bool, bool),
) {
    let mesh = if mesh_null {
        std::ptr::null()
    } else {
        b.c.as_ptr()
    };
    let mut has = u32::MAX;
    let out = if out_null {
        std::ptr::null_mut()
    } else {
        &raw mut has
    };
    // SAFETY: NULL or the live mesh; `out` NULL or writable.
    let status = unsafe { prepare(mesh, out) };
    let message = check_status_and_message(name, status);
    if mesh_null {
        assert!(check_faults(
            name,
            status,
            &message,
            &[(navstar_fuzz::NULL_ARGUMENT, "mesh")]
        ));
        assert_eq!(has, u32::MAX, "written after an error");
        return;
    }
    assert_eq!(status, OK, "{message}");
    let rust = u32::from(rust(&b.rust));
    if !out_null {
        assert_eq!(has, rust, "{name}");
    }
}

fn nearest(b: &Built, model: &Model, point: Option<[f32; 3]>, filter_in: &FilterIn) {
    let c_filter = CFilter::new(filter_in);
    let answer = c_nearest_point(
        Some(&b.c),
        point,
        f32::INFINITY,
        &c_filter,
        NullOuts::default(),
    );
    if answer.status != OK {
        return; // Faults and refusals are the spatial_queries target's subject.
    }
    let filter = filter_in.checked().expect("a bad filter was accepted");
    let polygon = answer.polygon.unwrap();
    assert!(
        filter.admits(model.polygons[polygon as usize]),
        "nearest point on polygon {polygon}, which the filter refuses"
    );
    let rust = b
        .rust
        .nearest_point(point.unwrap().into(), f32::INFINITY, Some(&filter));
    assert_eq!(rust.map(|n| n.polygon), Some(polygon));
}

fuzz_target!(|input: MeshOps<Op>| {
    let Some(built) = input.mesh.build() else {
        return;
    };
    let mut model = Model {
        polygons: (0..built.rust.polygon_count())
            .map(|p| built.input.flags(p))
            .collect(),
        links: built.input.links.iter().map(|l| l.flags).collect(),
    };
    let mut cquery = built.c.query();
    // The C query's choices, navstar's defaults at first.
    let mut choices = Choices {
        landmarks: None,
        fast_lane: true,
    };
    for op in input.ops.iter().take(16) {
        match op {
            Op::Set {
                link,
                index,
                flags,
                previous_null,
                mesh_null,
            } => {
                let target = if *link {
                    FlagTarget::Link
                } else {
                    FlagTarget::Polygon
                };
                // Mostly indices in range.
                let count = match target {
                    FlagTarget::Polygon => built.rust.polygon_count(),
                    FlagTarget::Link => built.rust.link_count(),
                };
                let index = match index {
                    SmallU32::Small(i) => u32::from(*i) % (count + 2),
                    SmallU32::Any(i) => *i,
                };
                set(
                    &built,
                    &mut model,
                    target,
                    index,
                    u32::from(flags & 0x0f),
                    *previous_null,
                    *mesh_null,
                );
            }
            Op::Info { polygon } => info(&built, &model, polygon.value()),
            Op::Path {
                start,
                goal,
                options,
            } => path(&built, &model, &mut cquery, (start, goal), options, choices),
            Op::Landmarks { mode, query_null } => {
                if let Some(on) = set_landmarks(&cquery, u32::from(*mode), *query_null) {
                    choices.landmarks = on;
                }
            }
            Op::FastLane { on, query_null } => {
                if let Some(on) = set_fast_lane(&cquery, u32::from(*on), *query_null) {
                    choices.fast_lane = on;
                }
            }
            Op::PrepareFastLane {
                mesh_null,
                out_null,
            } => prepare(
                &built,
                (
                    "navstar_mesh_prepare_fast_lane",
                    navstar_mesh_prepare_fast_lane,
                ),
                NavMesh::prepare_fast_lane,
                (*mesh_null, *out_null),
            ),
            Op::Prepare {
                mesh_null,
                out_null,
            } => prepare(
                &built,
                (
                    "navstar_mesh_prepare_landmarks",
                    navstar_mesh_prepare_landmarks,
                ),
                NavMesh::prepare_landmarks,
                (*mesh_null, *out_null),
            ),
            Op::Reach(call) => compare_reachable(&cquery, &built.rust, call),
            Op::Nearest { point, filter } => {
                nearest(&built, &model, point.resolve(&built.rust), filter)
            }
        }
    }
});
