//! Fuzzes the agent queries: `navstar_mesh_move_along_surface`,
//! `navstar_query_distance_to_wall`, `navstar_mesh_random_point` and
//! `navstar_query_random_point_around`, on meshes with areas and flags, with any filter,
//! start polygon, radius, seed and buffer.
//!
//! Each answer must equal the Rust API's for the same input, bit for bit (the random
//! points for the same SplitMix64 seed, the state advanced as in Rust), and keep what the
//! docs promise, checked independently: a move ends on an admitted polygon, on the
//! admitted area, no farther (in the ground plane) from its start than the target, its
//! visited polygons a chain of neighbours from the start polygon to the end polygon; a
//! move that meets no wall ends at the target, as a raycast does; the visited buffer
//! takes the first `capacity` polygons and the full count (`NAVSTAR_BUFFER_TOO_SMALL`
//! beyond). A wall is within the radius, on an admitted polygon's edge that has no
//! admitted neighbour, no nearer than the nearest such edge of the whole mesh, with a
//! unit normal in the ground plane. A random point lies on its admitted polygon. NULL
//! arguments, NaN/infinite points, bad radii, bad start polygons and filters give the
//! documented error with a message naming the argument; no output is written past its
//! size or after an error, and a failed random call leaves the state alone.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use navstar::ffi::{
    NAVSTAR_NO_POLYGON, NavstarSurfaceMove, NavstarWallDistance, navstar_mesh_move_along_surface,
    navstar_mesh_random_point, navstar_query_distance_to_wall, navstar_query_random_point_around,
};
use navstar::glam::Vec3;
use navstar::{NavMesh, Query, QueryError, SplitMix64};
use navstar_fuzz::buffers::Guarded;
use navstar_fuzz::calls::{
    Fault, check_faults, filter_fault, null_fault, point_fault, radius_fault,
};
use navstar_fuzz::input::{Built, CFilter};
use navstar_fuzz::{
    BUFFER_TOO_SMALL, Coord, FilterIn, GroundMesh, INVALID_ARGUMENT, ListBuffers, MeshOps, OK,
    PointIn, SmallU32, call_list, check_status_and_message, opt_ptr, query_status, tolerance,
};

#[derive(Arbitrary, Debug)]
enum Op {
    Move {
        /// `None`: `NAVSTAR_NO_POLYGON` (snap the start).
        start_polygon: Option<SmallU32>,
        start: PointIn,
        target: PointIn,
        filter: FilterIn,
        /// `capacity % 8` polygons.
        capacity: u8,
        visited_null: bool,
        count_null: bool,
        move_null: bool,
        mesh_null: bool,
    },
    Wall {
        point: PointIn,
        /// `None`: infinity.
        radius: Option<Coord>,
        filter: FilterIn,
        out_null: bool,
        query_null: bool,
    },
    Random {
        seed: u64,
        /// `None`: over the whole mesh; else around a center within a radius (`None`:
        /// infinity).
        around: Option<(PointIn, Option<Coord>)>,
        filter: FilterIn,
        state_null: bool,
        point_null: bool,
        polygon_null: bool,
        handle_null: bool,
    },
}

#[allow(clippy::too_many_arguments)]
fn move_along(
    b: &Built,
    start_polygon: u32,
    start: Option<[f32; 3]>,
    target: Option<[f32; 3]>,
    filter_in: &FilterIn,
    buffers: ListBuffers,
    move_null: bool,
    mesh_null: bool,
) {
    const F: &str = "navstar_mesh_move_along_surface";
    let mesh = &b.rust;
    let c_filter = CFilter::new(filter_in);
    let mut out_move = Guarded::<NavstarSurfaceMove>::new(1, move_null);
    let answer = call_list(F, buffers, |visited, capacity, count| {
        let mesh_ptr = if mesh_null {
            std::ptr::null()
        } else {
            b.c.as_ptr()
        };
        // SAFETY: the mesh NULL or live; points NULL or 3 floats; the filter NULL or a
        // filter; `out_move` NULL or one struct; `visited` NULL or `capacity` slots;
        // `count` NULL or writable.
        unsafe {
            navstar_mesh_move_along_surface(
                mesh_ptr,
                start_polygon,
                opt_ptr(&start),
                opt_ptr(&target),
                c_filter.as_ptr(),
                out_move.as_mut_ptr(),
                visited,
                capacity,
                count,
            )
        }
    });
    let ok = (answer.status as i32) >= 0;
    let moved = out_move.written(usize::from(ok), F).first().copied();
    let mut faults: Vec<Fault> = [
        null_fault(buffers.count_null, "out_count"),
        null_fault(move_null, "out_move"),
        null_fault(mesh_null, "mesh"),
        point_fault(start, "start"),
        point_fault(target, "target"),
        null_fault(buffers.out_null && buffers.capacity > 0, "out_visited"),
    ]
    .into_iter()
    .flatten()
    .collect();
    if start_polygon != NAVSTAR_NO_POLYGON && !mesh.contains_polygon(start_polygon) {
        faults.push((INVALID_ARGUMENT, "start_polygon"));
    }
    let filter = filter_fault(filter_in, &mut faults);
    if check_faults(F, answer.status, &answer.message, &faults) {
        return;
    }
    let (s, t, filter) = (
        Vec3::from(start.unwrap()),
        Vec3::from(target.unwrap()),
        filter.unwrap(),
    );
    let polygon = (start_polygon != NAVSTAR_NO_POLYGON).then_some(start_polygon);
    let mut visited = Vec::new();
    let rust = match mesh.move_along_surface(polygon, s, t, &filter, &mut visited) {
        Err(err) => {
            assert_eq!(answer.status, query_status(&err), "Rust said {err}");
            if let QueryError::RefusedPolygon { .. } = err {
                assert!(
                    answer.message.contains("start_polygon"),
                    "{}",
                    answer.message
                );
            }
            return;
        }
        Ok(rust) => rust,
    };
    let fits = visited.len() <= buffers.capacity as usize;
    assert_eq!(
        answer.status,
        if fits { OK } else { BUFFER_TOO_SMALL },
        "{}",
        answer.message
    );
    assert_eq!(answer.count as usize, visited.len());
    assert_eq!(answer.items, visited[..answer.items.len()]);
    let c = moved.expect("out_move written");
    assert_eq!(
        c.point.map(f32::to_bits),
        rust.point.to_array().map(f32::to_bits)
    );
    assert_eq!((c.polygon, c.walls), (rust.polygon, rust.walls));
    // Independent checks.
    let admitted = |q: u32| filter.admits(mesh.polygon_flags(q));
    assert!(admitted(rust.polygon), "{rust:?}: a refused polygon");
    assert!(rust.walls <= navstar::MAX_SURFACE_LEGS as u32);
    let from = match polygon {
        Some(p) => mesh.closest_point_on_polygon(p, s),
        None => {
            mesh.nearest_point(s, f32::INFINITY, Some(&filter))
                .unwrap()
                .point
        }
    };
    let tol = tolerance(mesh, &[s, t]);
    let up = mesh.up_axis();
    let (g0, g1, end) = (up.ground(from), up.ground(t), up.ground(rust.point));
    assert!(
        f64::from(g0.distance(end)) <= f64::from(g0.distance(g1)) + f64::from(tol),
        "{rust:?} is farther from {from} than the target {t}"
    );
    assert!(
        mesh.closest_point_on_polygon(rust.polygon, rust.point)
            .distance(rust.point)
            <= tol * 4.0,
        "{rust:?} is off its polygon"
    );
    if mesh.polygon_count() <= 600 {
        assert!(
            GroundMesh::new(mesh, admitted).holds(rust.point, tol),
            "{rust:?} is off the admitted area"
        );
    }
    assert_eq!(visited.last(), Some(&rust.polygon));
    for pair in visited.windows(2) {
        assert!(
            mesh.polygon_neighbours(pair[0]).any(|n| n == Some(pair[1])),
            "{visited:?}: {} and {} are not neighbours",
            pair[0],
            pair[1]
        );
        assert!(admitted(pair[1]));
    }
    if let Some(p) = polygon {
        assert_eq!(visited.first(), Some(&p));
    }
    if rust.walls == 0 {
        assert!(
            end.distance(g1) <= tol * 4.0,
            "{rust:?}: no wall met, but the target {t} is not reached"
        );
    }
}

fn wall(
    b: &Built,
    query: &mut Query,
    point: Option<[f32; 3]>,
    radius: f32,
    filter_in: &FilterIn,
    out_null: bool,
    query_null: bool,
) {
    const F: &str = "navstar_query_distance_to_wall";
    let mesh = &b.rust;
    let c_query = b.c.query();
    let c_filter = CFilter::new(filter_in);
    let mut out = Guarded::<NavstarWallDistance>::new(1, out_null);
    let query_ptr = if query_null {
        std::ptr::null_mut()
    } else {
        c_query.as_ptr()
    };
    // SAFETY: the query NULL or live and used by this thread; the point NULL or 3
    // floats; the filter NULL or a filter; `out` NULL or one struct.
    let status = unsafe {
        navstar_query_distance_to_wall(
            query_ptr,
            opt_ptr(&point),
            radius,
            c_filter.as_ptr(),
            out.as_mut_ptr(),
        )
    };
    let message = check_status_and_message(F, status);
    let ok = (status as i32) >= 0;
    let c = out.written(usize::from(ok), F).first().copied();
    let mut faults: Vec<Fault> = [
        null_fault(out_null, "out_wall"),
        null_fault(query_null, "query"),
        point_fault(point, "point"),
        radius_fault(radius),
    ]
    .into_iter()
    .flatten()
    .collect();
    let filter = filter_fault(filter_in, &mut faults);
    if check_faults(F, status, &message, &faults) {
        return;
    }
    let (p, filter) = (Vec3::from(point.unwrap()), filter.unwrap());
    let rust = match query.distance_to_wall(p, radius, &filter) {
        Err(err) => {
            assert_eq!(status, query_status(&err), "Rust said {err}");
            return;
        }
        Ok(rust) => rust,
    };
    assert_eq!(status, OK, "{message}");
    let c = c.expect("out_wall written");
    let Some(w) = rust else {
        assert_eq!((c.found, c.polygon), (0, NAVSTAR_NO_POLYGON));
        assert_eq!(c.distance, f32::INFINITY);
        return;
    };
    assert_eq!((c.found, c.polygon), (1, w.polygon));
    assert_eq!(c.distance.to_bits(), w.distance.to_bits());
    assert_eq!(
        c.point.map(f32::to_bits),
        w.point.to_array().map(f32::to_bits)
    );
    assert_eq!(
        c.normal.map(f32::to_bits),
        w.normal.to_array().map(f32::to_bits)
    );
    // Independent checks: within the radius, a unit normal in the ground plane, the
    // point on a wall edge of its polygon, and no wall of the mesh nearer.
    let admitted = |q: u32| filter.admits(mesh.polygon_flags(q));
    assert!(admitted(w.polygon));
    assert!(w.distance <= radius, "{w:?} beyond {radius}");
    let up = mesh.up_axis();
    assert!((w.normal.length() - 1.0).abs() < 1e-3, "{w:?}");
    assert_eq!(up.height(w.normal), 0.0, "{w:?}");
    let center = up.ground(
        mesh.nearest_point(p, f32::INFINITY, Some(&filter))
            .unwrap()
            .point,
    );
    let tol = tolerance(mesh, &[p]);
    let walls = |polygon: u32| {
        let corners = mesh.polygon_vertices(polygon).to_vec();
        let n = corners.len();
        mesh.polygon_neighbours(polygon)
            .enumerate()
            .filter(|(_, across)| across.is_none_or(|q| !admitted(q)))
            .map(|(i, _)| {
                let at = |k: usize| up.ground(mesh.vertex(corners[k % n])).as_dvec2();
                (at(i), at(i + 1))
            })
            .collect::<Vec<_>>()
    };
    let distance = |q: navstar::glam::DVec2,
                    (a, b): (navstar::glam::DVec2, navstar::glam::DVec2)| {
        let e = b - a;
        let s = if e.length_squared() > 0.0 {
            ((q - a).dot(e) / e.length_squared()).clamp(0.0, 1.0)
        } else {
            0.0
        };
        (a + e * s).distance(q)
    };
    let on_wall = walls(w.polygon)
        .into_iter()
        .map(|edge| distance(up.ground(w.point).as_dvec2(), edge))
        .fold(f64::INFINITY, f64::min);
    assert!(
        on_wall <= f64::from(tol),
        "{w:?} is not on a wall of its polygon"
    );
    if mesh.polygon_count() <= 600 {
        let nearest = mesh
            .polygon_ids()
            .filter(|&q| admitted(q))
            .flat_map(walls)
            .map(|edge| distance(center.as_dvec2(), edge))
            .fold(f64::INFINITY, f64::min);
        assert!(
            f64::from(w.distance) >= nearest - f64::from(tol),
            "{w:?}: a wall of the mesh is only {nearest} away"
        );
    }
}

#[allow(clippy::too_many_arguments)]
fn random(
    b: &Built,
    query: &mut Query,
    seed: u64,
    around: Option<(Option<[f32; 3]>, f32)>,
    filter_in: &FilterIn,
    state_null: bool,
    point_null: bool,
    polygon_null: bool,
    handle_null: bool,
) {
    let mesh: &NavMesh = &b.rust;
    let c_query = b.c.query();
    let c_filter = CFilter::new(filter_in);
    let mut state = seed;
    let state_ptr = if state_null {
        std::ptr::null_mut()
    } else {
        &raw mut state
    };
    let mut out_point = Guarded::<[f32; 3]>::new(1, point_null);
    let mut out_polygon = Guarded::<u32>::new(1, polygon_null);
    let (function, status) = match around {
        None => {
            let mesh_ptr = if handle_null {
                std::ptr::null()
            } else {
                b.c.as_ptr()
            };
            // SAFETY: the mesh NULL or live; the filter NULL or a filter; the state NULL
            // or a u64; outputs NULL or one item.
            let status = unsafe {
                navstar_mesh_random_point(
                    mesh_ptr,
                    c_filter.as_ptr(),
                    state_ptr,
                    out_point.as_mut_ptr().cast(),
                    out_polygon.as_mut_ptr(),
                )
            };
            ("navstar_mesh_random_point", status)
        }
        Some((center, radius)) => {
            let query_ptr = if handle_null {
                std::ptr::null_mut()
            } else {
                c_query.as_ptr()
            };
            // SAFETY: the query NULL or live and used by this thread; the center NULL or
            // 3 floats; the filter NULL or a filter; the state NULL or a u64; outputs
            // NULL or one item.
            let status = unsafe {
                navstar_query_random_point_around(
                    query_ptr,
                    opt_ptr(&center),
                    radius,
                    c_filter.as_ptr(),
                    state_ptr,
                    out_point.as_mut_ptr().cast(),
                    out_polygon.as_mut_ptr(),
                )
            };
            ("navstar_query_random_point_around", status)
        }
    };
    let message = check_status_and_message(function, status);
    let ok = (status as i32) >= 0;
    let c_point = out_point
        .written(usize::from(ok), function)
        .first()
        .copied();
    let c_polygon = out_polygon
        .written(usize::from(ok), function)
        .first()
        .copied();
    let mut faults: Vec<Fault> = [
        null_fault(point_null, "out_point"),
        null_fault(state_null, "rng_state"),
        null_fault(handle_null, if around.is_some() { "query" } else { "mesh" }),
    ]
    .into_iter()
    .flatten()
    .collect();
    if let Some((center, radius)) = around {
        faults.extend(point_fault(center, "center"));
        faults.extend(radius_fault(radius));
    }
    let filter = filter_fault(filter_in, &mut faults);
    if check_faults(function, status, &message, &faults) {
        assert_eq!(state, seed, "{function}: the state changed after an error");
        return;
    }
    let filter = filter.unwrap();
    let mut rng = SplitMix64::new(seed);
    let rust = match around {
        None => mesh.random_point(&filter, &mut || rng.next_u64()),
        Some((center, radius)) => {
            query.random_point_around(Vec3::from(center.unwrap()), radius, &filter, &mut || {
                rng.next_u64()
            })
        }
    };
    let rust = match rust {
        Err(err) => {
            assert_eq!(status, query_status(&err), "Rust said {err}");
            assert_eq!(state, seed, "{function}: the state changed after an error");
            return;
        }
        Ok(rust) => rust,
    };
    assert_eq!(status, OK, "{message}");
    assert_eq!(state, rng.state, "{function}: not the state Rust reached");
    assert_eq!(
        rng.state,
        seed.wrapping_add(SplitMix64::GAMMA.wrapping_mul(4)),
        "four draws per point"
    );
    assert_eq!(
        c_point.expect("out_point written").map(f32::to_bits),
        rust.point.to_array().map(f32::to_bits)
    );
    if let Some(polygon) = c_polygon {
        assert_eq!(polygon, rust.polygon);
    }
    assert!(filter.admits(mesh.polygon_flags(rust.polygon)));
    let tol = tolerance(mesh, &[rust.point]);
    assert!(
        mesh.closest_point_on_polygon(rust.polygon, rust.point)
            .distance(rust.point)
            <= tol * 4.0,
        "{rust:?} is off its polygon"
    );
}

fuzz_target!(|input: MeshOps<Op>| {
    let Some(built) = input.mesh.build() else {
        return;
    };
    let mesh = &built.rust;
    let mut query = Query::new(mesh);
    for op in input.ops.iter().take(12) {
        match op {
            Op::Move {
                start_polygon,
                start,
                target,
                filter,
                capacity,
                visited_null,
                count_null,
                move_null,
                mesh_null,
            } => move_along(
                &built,
                start_polygon.map_or(NAVSTAR_NO_POLYGON, SmallU32::value),
                start.resolve(mesh),
                target.resolve(mesh),
                filter,
                ListBuffers {
                    capacity: u32::from(capacity % 8),
                    out_null: *visited_null,
                    count_null: *count_null,
                },
                *move_null,
                *mesh_null,
            ),
            Op::Wall {
                point,
                radius,
                filter,
                out_null,
                query_null,
            } => wall(
                &built,
                &mut query,
                point.resolve(mesh),
                radius.map_or(f32::INFINITY, Coord::value),
                filter,
                *out_null,
                *query_null,
            ),
            Op::Random {
                seed,
                around,
                filter,
                state_null,
                point_null,
                polygon_null,
                handle_null,
            } => random(
                &built,
                &mut query,
                *seed,
                around.map(|(center, radius)| {
                    (
                        center.resolve(mesh),
                        radius.map_or(f32::INFINITY, Coord::value),
                    )
                }),
                filter,
                *state_null,
                *point_null,
                *polygon_null,
                *handle_null,
            ),
        }
    }
});
