//! Fuzzes the corridor that follows an agent through the C ABI (`navstar_corridor_*`):
//! a corridor made from a straight walk, a fuzzed polygon list or a path query's
//! corridor (`navstar_corridor_create_from_query`), then random
//! sequences of moves of the agent and the target, flag changes (doors closing and
//! opening), repairs, shortening by sight, corner reads and agent radii
//! (`navstar_corridor_set_agent_radius`: bad ones refused naming `agent_radius`; with one
//! above the baked radius the unsplit corners are the Rust `PathCorridor::corners`, every
//! one but the target unflagged, and a move ends at least the radius from every wall).
//!
//! After every operation the C corridor must equal the Rust `PathCorridor` given the
//! same operations (status, polygons, position, target, corners and their flags), and
//! keep its invariants, checked independently: the polygons are a chain of neighbours
//! without a polygon twice, the agent stands on the first polygon, the target on the
//! last; after a successful repair every polygon is admitted. Buffers too small get the
//! prefix and the full count.
#![no_main]

use std::ptr;

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use navstar::ffi::*;
use navstar::glam::Vec3;
use navstar::{NavMesh, PathCorridor, PathOptions, Query, QueryFilter, Repair};
use navstar_fuzz::PointIn;
use navstar_fuzz::input::MeshOps;
use navstar_fuzz::radius::{distance_to_walls, wall_tolerance, walls};

#[derive(Arbitrary, Debug)]
enum Op {
    MovePosition(PointIn),
    MoveTarget(PointIn),
    /// Closes (flags 0) or opens (flags 1) polygon `n % polygon count`.
    Flags(u16, bool),
    Repair,
    Optimize(PointIn),
    /// `capacity % 8` corners.
    Corners(u8, bool),
    IsValid(u8),
    /// 255: NaN, 254: -1, 253: infinity, else `n % 16` tenths.
    AgentRadius(u8),
}

fn radius_of(n: u8) -> f32 {
    match n {
        255 => f32::NAN,
        254 => -1.0,
        253 => f32::INFINITY,
        n => f32::from(n % 16) * 0.1,
    }
}

#[derive(Arbitrary, Debug)]
struct Start {
    start: PointIn,
    target: PointIn,
    /// Replaces the walk's polygon list (usually refused: not a chain, or out of range).
    list: Option<Vec<u32>>,
    /// Makes the corridor from a path query's corridor instead
    /// (`navstar_corridor_create_from_query`), refused when the path has none.
    via_query: bool,
}

/// The C corridor, freed on drop.
struct CCorridor(*mut NavstarCorridor);

impl Drop for CCorridor {
    fn drop(&mut self) {
        // SAFETY: made by navstar_corridor_create, freed only here.
        unsafe { navstar_corridor_free(self.0) }
    }
}

fn c_polygons(corridor: &CCorridor, mesh: &NavMesh) -> Vec<u32> {
    let room = mesh.polygon_count() as usize + 2;
    let mut out = vec![0u32; room];
    let mut count = 0;
    // SAFETY: room for `room` polygons, a writable count.
    let status =
        unsafe { navstar_corridor_polygons(corridor.0, out.as_mut_ptr(), room as u32, &mut count) };
    assert_eq!(status, NavstarStatus::NavstarOk);
    out.truncate(count as usize);
    out
}

fn c_position(corridor: &CCorridor) -> (Vec3, Vec3) {
    let (mut position, mut target) = ([0f32; 3], [0f32; 3]);
    // SAFETY: 3 writable floats each.
    let status = unsafe {
        navstar_corridor_position(corridor.0, position.as_mut_ptr(), target.as_mut_ptr())
    };
    assert_eq!(status, NavstarStatus::NavstarOk);
    (Vec3::from(position), Vec3::from(target))
}

/// The invariants, and C == Rust.
fn check(c: &CCorridor, rust: &PathCorridor, mesh: &NavMesh) {
    let polygons = c_polygons(c, mesh);
    assert_eq!(polygons, rust.polygons());
    assert_eq!(c_position(c), (rust.position(), rust.target()));
    assert!(!polygons.is_empty());
    let mut sorted = polygons.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(
        sorted.len(),
        polygons.len(),
        "a polygon twice: {polygons:?}"
    );
    for pair in polygons.windows(2) {
        assert!(
            mesh.polygon_neighbours(pair[0]).any(|n| n == Some(pair[1])),
            "not neighbours: {pair:?} in {polygons:?}"
        );
    }
    let tol = 1e-3 * rust.position().abs().max_element().max(1.0);
    let on = mesh.closest_point_on_polygon(polygons[0], rust.position());
    assert!(
        on.distance(rust.position()) <= tol,
        "the agent {} is off its polygon {}",
        rust.position(),
        polygons[0]
    );
    let last = *polygons.last().unwrap();
    let on = mesh.closest_point_on_polygon(last, rust.target());
    assert!(
        on.distance(rust.target()) <= tol,
        "the target is off its polygon"
    );
}

fuzz_target!(|input: (MeshOps<Op>, Start)| {
    let (input, start) = input;
    let Some(built) = input.mesh.build() else {
        return;
    };
    let mesh = &built.rust;
    let filter = QueryFilter::default();
    let (Some(from), Some(to)) = (start.start.resolve(mesh), start.target.resolve(mesh)) else {
        return;
    };
    let (from, to) = (Vec3::from(from), Vec3::from(to));
    if !from.is_finite() || !to.is_finite() {
        return;
    }
    let mut walk = Vec::new();
    if mesh
        .move_along_surface(None, from, to, &filter, &mut walk)
        .is_err()
    {
        return;
    }
    let c_query = built.c.query();
    let mut query = Query::new(mesh);
    let mut raw = ptr::null_mut();
    let (status, list) = if start.via_query {
        let (mut points, mut count) = (vec![0f32; 3 * 1024], 0);
        // SAFETY: a live query, 3 floats each point, room for 1024 points, a writable count.
        unsafe {
            navstar_find_path(
                c_query.as_ptr(),
                from.to_array().as_ptr(),
                to.to_array().as_ptr(),
                ptr::null(),
                points.as_mut_ptr(),
                1024,
                &mut count,
            );
        }
        let list: Vec<u32> = match query.find_path(from, to, &PathOptions::default()) {
            Ok(_) => query.corridor().collect(),
            Err(_) => Vec::new(),
        };
        // SAFETY: a live query, 3 floats each point, a writable out pointer.
        let status = unsafe {
            navstar_corridor_create_from_query(
                c_query.as_ptr(),
                from.to_array().as_ptr(),
                to.to_array().as_ptr(),
                &mut raw,
            )
        };
        (status, list)
    } else {
        let list = start.list.clone().unwrap_or(walk);
        // SAFETY: the list holds its length; 3 floats each point; a writable out pointer.
        let status = unsafe {
            navstar_corridor_create(
                built.c.as_ptr(),
                list.as_ptr(),
                list.len() as u32,
                from.to_array().as_ptr(),
                to.to_array().as_ptr(),
                &mut raw,
            )
        };
        (status, list)
    };
    let rust = list.first().map(|&first| {
        PathCorridor::new(mesh, first, from).and_then(|mut c| c.set_corridor(to, &list).map(|()| c))
    });
    let mut rust = match rust {
        Some(Ok(rust)) => {
            assert_eq!(status, NavstarStatus::NavstarOk);
            rust
        }
        _ => {
            assert_eq!(status, NavstarStatus::NavstarErrorInvalidArgument);
            assert!(raw.is_null());
            return;
        }
    };
    let c = CCorridor(raw);
    check(&c, &rust, mesh);
    let options = PathOptions::default();
    for op in input.ops.iter().take(24) {
        match *op {
            Op::MovePosition(point) | Op::MoveTarget(point) | Op::Optimize(point) => {
                let p = point.resolve(mesh);
                let p_ptr = p.as_ref().map_or(ptr::null(), |p| p.as_ptr());
                let mut flag = 7;
                // SAFETY: a live corridor, NULL or 3 floats, a writable output.
                let status = unsafe {
                    match op {
                        Op::MovePosition(_) => {
                            navstar_corridor_move_position(c.0, p_ptr, ptr::null(), &mut flag)
                        }
                        Op::MoveTarget(_) => {
                            navstar_corridor_move_target(c.0, p_ptr, ptr::null(), &mut flag)
                        }
                        _ => navstar_corridor_optimize(c.0, p_ptr, ptr::null(), &mut flag),
                    }
                };
                let Some(p) = p else {
                    assert_eq!(status, NavstarStatus::NavstarErrorNullArgument);
                    continue;
                };
                let p = Vec3::from(p);
                if !p.is_finite() {
                    assert_eq!(status, NavstarStatus::NavstarErrorInvalidArgument);
                    continue;
                }
                // Whether the agent stands clear of the walls before the move (then the
                // disc fits in its polygon, and the move keeps it clear).
                let erosion = f64::from(rust.agent_radius() - mesh.agent_radius());
                let admitted = |q: u32| filter.admits(mesh.polygon_flags(q));
                let walls = walls(mesh, admitted);
                let gap_at =
                    |at: Vec3| distance_to_walls(&walls, mesh.up_axis().ground(at).as_dvec2());
                let tol = wall_tolerance(&walls);
                let was_clear = erosion > 0.0 && gap_at(rust.position()) >= 1.005 * erosion + tol;
                let answer = match op {
                    Op::MovePosition(_) => rust.move_position(p, &filter),
                    Op::MoveTarget(_) => rust.move_target(p, &filter),
                    _ => rust.optimize_visibility(p, &filter),
                };
                match answer {
                    Ok(on) => {
                        assert_eq!(status, NavstarStatus::NavstarOk);
                        assert_eq!(flag, u32::from(on));
                        if was_clear && matches!(op, Op::MovePosition(_)) {
                            let gap = gap_at(rust.position());
                            assert!(
                                gap >= erosion - tol,
                                "the agent at {} is {gap} from a wall, radius {erosion}",
                                rust.position()
                            );
                        }
                    }
                    Err(_) => assert_ne!(status, NavstarStatus::NavstarOk),
                }
            }
            Op::Flags(n, closed) => {
                let polygon = u32::from(n) % mesh.polygon_count();
                let flags = u32::from(!closed);
                mesh.set_polygon_flags(polygon, flags).unwrap();
                // SAFETY: a live mesh.
                let status = unsafe {
                    navstar_mesh_set_polygon_flags(
                        built.c.as_ptr(),
                        polygon,
                        flags,
                        ptr::null_mut(),
                    )
                };
                assert_eq!(status, NavstarStatus::NavstarOk);
            }
            Op::Repair => {
                let (mut outcome, mut kept) = (7, 7);
                // SAFETY: a live corridor and query of its mesh, writable outputs.
                let status = unsafe {
                    navstar_corridor_repair(
                        c.0,
                        c_query.as_ptr(),
                        ptr::null(),
                        &mut outcome,
                        &mut kept,
                    )
                };
                match rust.repair(&mut query, &options) {
                    Ok(answer) => {
                        assert_eq!(status, NavstarStatus::NavstarOk);
                        let want = match answer {
                            Repair::Repaired { kept } => (NAVSTAR_REPAIR_REPAIRED, kept as u32),
                            Repair::CutOff { kept } => (NAVSTAR_REPAIR_CUT_OFF, kept as u32),
                            _ => (NAVSTAR_REPAIR_VALID, 0),
                        };
                        assert_eq!((outcome, kept), want);
                        assert!(rust.is_valid(usize::MAX, &filter), "repaired: all admitted");
                    }
                    Err(_) => assert_ne!(status, NavstarStatus::NavstarOk),
                }
            }
            Op::Corners(capacity, flags_null) => {
                let capacity = u32::from(capacity % 8);
                let mut points = vec![f32::NAN; 3 * capacity as usize + 3];
                let mut flags = vec![u32::MAX; capacity as usize + 1];
                let mut count = 0;
                // SAFETY: room for `capacity` corners and flags, a writable count.
                let status = unsafe {
                    navstar_corridor_corners(
                        c.0,
                        ptr::null(),
                        0,
                        points.as_mut_ptr(),
                        if flags_null {
                            ptr::null_mut()
                        } else {
                            flags.as_mut_ptr()
                        },
                        capacity,
                        &mut count,
                    )
                };
                let disc = rust.agent_radius() > mesh.agent_radius();
                let (want, details) = rust.corners_with_details(usize::MAX, &options);
                let (want, details): (Vec<Vec3>, Vec<u32>) = if disc {
                    let corners = rust.corners(usize::MAX).to_vec();
                    let end = u32::from(navstar::CornerFlags::END.bits());
                    let flags = (0..corners.len())
                        .map(|k| if k + 1 == corners.len() { end } else { 0 })
                        .collect();
                    (corners, flags)
                } else {
                    let flags = details.iter().map(|d| u32::from(d.flags.bits())).collect();
                    (want.to_vec(), flags)
                };
                assert_eq!(count as usize, want.len());
                let written = want.len().min(capacity as usize);
                assert_eq!(
                    status,
                    if want.len() > capacity as usize {
                        NavstarStatus::NavstarBufferTooSmall
                    } else {
                        NavstarStatus::NavstarOk
                    }
                );
                for k in 0..written {
                    assert_eq!(Vec3::from_slice(&points[3 * k..3 * k + 3]), want[k]);
                    if !flags_null {
                        assert_eq!(flags[k], details[k]);
                    }
                }
                assert!(points[3 * written].is_nan(), "written past the corners");
                assert_eq!(flags[written], u32::MAX, "written past the flags");
            }
            Op::AgentRadius(n) => {
                let radius = radius_of(n);
                // SAFETY: a live corridor used by this thread.
                let status = unsafe { navstar_corridor_set_agent_radius(c.0, radius) };
                let message = navstar_fuzz::check_status_and_message(
                    "navstar_corridor_set_agent_radius",
                    status,
                );
                match rust.set_agent_radius(radius) {
                    Ok(()) => assert_eq!(status, NavstarStatus::NavstarOk, "{message}"),
                    Err(_) => {
                        assert_eq!(status, NavstarStatus::NavstarErrorInvalidArgument);
                        assert!(message.contains("agent_radius"), "{message}");
                    }
                }
            }
            Op::IsValid(look_ahead) => {
                let mut valid = 7;
                // SAFETY: a live corridor, a writable output.
                let status = unsafe {
                    navstar_corridor_is_valid(c.0, u32::from(look_ahead), ptr::null(), &mut valid)
                };
                assert_eq!(status, NavstarStatus::NavstarOk);
                assert_eq!(
                    valid,
                    u32::from(rust.is_valid(usize::from(look_ahead), &filter))
                );
            }
        }
        check(&c, &rust, mesh);
    }
});
