//! The checks of the `agent_spatial` target for the queries of agents that move, for a
//! disc-shaped agent: `navstar_mesh_move_along_surface_for_agent`,
//! `navstar_query_distance_to_wall_for_agent`, `navstar_mesh_random_point_for_agent` and
//! `navstar_query_random_point_around_for_agent`. Each answer must equal the Rust
//! API's bit for bit; at or below the baked radius the plain query's; and keep at least
//! the radius (less a rounding tolerance) from every wall, checked in f64 against the
//! mesh's own walls.

use arbitrary::Arbitrary;
use navstar::glam::Vec3;
use navstar::{NavMesh, Query, QueryError, QueryFilter, SplitMix64};

use crate::agent_calls::{c_move_for_agent, c_random_for_agent, c_wall_for_agent};
use crate::calls::{Fault, agent_faults, check_faults, null_fault, point_fault, radius_fault};
use crate::input::{Built, CFilter};
use crate::radius::{distance_to_walls, wall_tolerance, walls};
use crate::{
    BUFFER_TOO_SMALL, Coord, FilterIn, INVALID_ARGUMENT, ListBuffers, OK, PointIn, SmallU32,
    query_status,
};
use navstar::ffi::NAVSTAR_NO_POLYGON;

/// A move along the surface.
#[derive(Arbitrary, Debug)]
pub struct MoveIn {
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
}

/// A wall distance.
#[derive(Arbitrary, Debug)]
pub struct WallIn {
    point: PointIn,
    /// The search radius; `None`: infinity.
    radius: Option<Coord>,
    filter: FilterIn,
    out_null: bool,
    query_null: bool,
}

/// A random point.
#[derive(Arbitrary, Debug)]
pub struct RandomIn {
    seed: u64,
    /// `None`: over the whole mesh; else around a center within a radius (`None`:
    /// infinity).
    around: Option<(PointIn, Option<Coord>)>,
    filter: FilterIn,
    state_null: bool,
    point_null: bool,
    polygon_null: bool,
    handle_null: bool,
}

/// The ground distance from `p` to the walls of the polygons `filter` admits, and the
/// rounding tolerance of that check.
fn wall_gap(mesh: &NavMesh, filter: &QueryFilter, p: Vec3) -> (f64, f64) {
    let walls = walls(mesh, |q| filter.admits(mesh.polygon_flags(q)));
    let gap = distance_to_walls(&walls, mesh.up_axis().ground(p).as_dvec2());
    (gap, wall_tolerance(&walls))
}

/// Checks that `p` keeps the erosion (`radius` less the baked radius) from every wall.
fn check_clear(mesh: &NavMesh, filter: &QueryFilter, p: Vec3, radius: f32, what: &str) {
    let (gap, tol) = wall_gap(mesh, filter, p);
    let r = f64::from(radius - mesh.agent_radius());
    assert!(
        gap >= r - tol,
        "{what} {p} is {gap} from a wall, radius {r}"
    );
}

/// Fuzzes `navstar_mesh_move_along_surface_for_agent`.
pub fn surface_move(b: &Built, op: &MoveIn, radius: f32) {
    const F: &str = "navstar_mesh_move_along_surface_for_agent";
    let mesh = &b.rust;
    let start_polygon = op.start_polygon.map_or(NAVSTAR_NO_POLYGON, SmallU32::value);
    let (start, target) = (op.start.resolve(mesh), op.target.resolve(mesh));
    let buffers = ListBuffers {
        capacity: u32::from(op.capacity % 8),
        out_null: op.visited_null,
        count_null: op.count_null,
    };
    let c_filter = CFilter::new(&op.filter);
    let answer = c_move_for_agent(
        (!op.mesh_null).then_some(&b.c),
        start_polygon,
        start,
        target,
        &c_filter,
        radius,
        buffers,
        op.move_null,
    );
    let list = &answer.list;
    let mut faults: Vec<Fault> = [
        null_fault(buffers.count_null, "out_count"),
        null_fault(op.move_null, "out_move"),
        null_fault(op.mesh_null, "mesh"),
        point_fault(start, "start"),
        point_fault(target, "target"),
        null_fault(buffers.out_null && buffers.capacity > 0, "out_visited"),
    ]
    .into_iter()
    .flatten()
    .collect();
    let filter = agent_faults(&op.filter, radius, &mut faults);
    if start_polygon != NAVSTAR_NO_POLYGON && !mesh.contains_polygon(start_polygon) {
        faults.push((INVALID_ARGUMENT, "start_polygon"));
    }
    if check_faults(F, list.status, &list.message, &faults) {
        return;
    }
    let (s, t, filter) = (
        Vec3::from(start.unwrap()),
        Vec3::from(target.unwrap()),
        filter.unwrap(),
    );
    let polygon = (start_polygon != NAVSTAR_NO_POLYGON).then_some(start_polygon);
    let mut visited = Vec::new();
    let rust = match mesh.move_along_surface_for_agent(polygon, s, t, &filter, radius, &mut visited)
    {
        Err(err) => {
            assert_eq!(list.status, query_status(&err), "Rust said {err}");
            if let QueryError::RefusedPolygon { .. } = err {
                assert!(list.message.contains("start_polygon"), "{}", list.message);
            }
            return;
        }
        Ok(rust) => rust,
    };
    let fits = visited.len() <= buffers.capacity as usize;
    let want = if fits { OK } else { BUFFER_TOO_SMALL };
    assert_eq!(list.status, want, "{}", list.message);
    assert_eq!(list.count as usize, visited.len());
    assert_eq!(list.items, visited[..list.items.len()]);
    let c = answer.moved.expect("out_move written");
    let bits = |v: Vec3| v.to_array().map(f32::to_bits);
    assert_eq!(c.point.map(f32::to_bits), bits(rust.point));
    assert_eq!((c.polygon, c.walls), (rust.polygon, rust.walls));
    // Independent checks.
    if radius <= mesh.agent_radius() {
        let mut plain_visited = Vec::new();
        let plain = mesh
            .move_along_surface(polygon, s, t, &filter, &mut plain_visited)
            .expect("the plain move failed");
        assert_eq!((rust, &visited), (plain, &plain_visited));
        return;
    }
    assert!(filter.admits(mesh.polygon_flags(rust.polygon)), "{rust:?}");
    assert!(rust.walls <= navstar::MAX_SURFACE_LEGS as u32);
    assert_eq!(visited.last(), Some(&rust.polygon));
    assert!(visited.windows(2).all(|w| w[0] != w[1]), "{visited:?}");
    assert!(
        visited.iter().all(|&p| mesh.contains_polygon(p)),
        "{visited:?}"
    );
    // The end keeps the radius unless the disc fits nowhere in the start polygon (the
    // move is then the plain one): checked when the start, on its polygon, is clear.
    let clear_start = polygon.is_none_or(|p| {
        let on = mesh.closest_point_on_polygon(p, s);
        let (gap, tol) = wall_gap(mesh, &filter, on);
        gap >= 1.005 * f64::from(radius - mesh.agent_radius()) + tol
    });
    if clear_start {
        check_clear(mesh, &filter, rust.point, radius, "the move's end");
    }
}

/// Fuzzes `navstar_query_distance_to_wall_for_agent`.
pub fn wall(b: &Built, query: &mut Query, op: &WallIn, radius: f32) {
    const F: &str = "navstar_query_distance_to_wall_for_agent";
    let mesh = &b.rust;
    let c_query = b.c.query();
    let point = op.point.resolve(mesh);
    let search = op.radius.map_or(f32::INFINITY, Coord::value);
    let c_filter = CFilter::new(&op.filter);
    let answer = c_wall_for_agent(
        (!op.query_null).then_some(&c_query),
        point,
        search,
        &c_filter,
        radius,
        op.out_null,
    );
    let mut faults: Vec<Fault> = [
        null_fault(op.out_null, "out_wall"),
        null_fault(op.query_null, "query"),
        point_fault(point, "point"),
        radius_fault(search),
    ]
    .into_iter()
    .flatten()
    .collect();
    let filter = agent_faults(&op.filter, radius, &mut faults);
    if check_faults(F, answer.status, &answer.message, &faults) {
        return;
    }
    let (p, filter) = (Vec3::from(point.unwrap()), filter.unwrap());
    let rust = match query.distance_to_wall_for_agent(p, search, &filter, radius) {
        Err(err) => {
            assert_eq!(answer.status, query_status(&err), "Rust said {err}");
            return;
        }
        Ok(rust) => rust,
    };
    assert_eq!(answer.status, OK, "{}", answer.message);
    let c = answer.value.expect("out_wall written");
    let Some(w) = rust else {
        assert_eq!((c.found, c.polygon), (0, NAVSTAR_NO_POLYGON));
        assert_eq!(c.distance, f32::INFINITY);
        return;
    };
    let bits = |v: Vec3| v.to_array().map(f32::to_bits);
    assert_eq!((c.found, c.polygon), (1, w.polygon));
    assert_eq!(c.distance.to_bits(), w.distance.to_bits());
    assert_eq!(c.point.map(f32::to_bits), bits(w.point));
    assert_eq!(c.normal.map(f32::to_bits), bits(w.normal));
    // Independent checks.
    if radius <= mesh.agent_radius() {
        let plain = query.distance_to_wall(p, search, &filter).unwrap();
        assert_eq!(Some(w), plain);
        return;
    }
    assert!(filter.admits(mesh.polygon_flags(w.polygon)), "{w:?}");
    assert!(w.distance <= search, "{w:?} beyond {search}");
    assert!((w.normal.length() - 1.0).abs() < 1e-3, "{w:?}");
    check_clear(mesh, &filter, w.point, radius, "the wall point");
    // The centre moved to where the disc fits is at most its distance to the walls less
    // the erosion from the eroded boundary.
    let centre = mesh
        .nearest_point_for_agent(p, f32::INFINITY, Some(&filter), radius)
        .unwrap()
        .expect("a wall, but no place where the disc fits");
    let (gap, tol) = wall_gap(mesh, &filter, centre.point);
    let r = f64::from(radius - mesh.agent_radius());
    assert!(
        f64::from(w.distance) <= gap - r + tol,
        "{w:?}: the centre {} is only {gap} from a wall",
        centre.point
    );
}

/// Fuzzes `navstar_mesh_random_point_for_agent` and
/// `navstar_query_random_point_around_for_agent`.
pub fn random(b: &Built, query: &mut Query, op: &RandomIn, radius: f32) {
    let mesh = &b.rust;
    let c_query = b.c.query();
    let around = op.around.map(|(center, search)| {
        (
            center.resolve(mesh),
            search.map_or(f32::INFINITY, Coord::value),
        )
    });
    let c_filter = CFilter::new(&op.filter);
    let mut state = op.seed;
    let answer = c_random_for_agent(
        (!op.handle_null).then_some(&b.c),
        (!op.handle_null).then_some(&c_query),
        around,
        &c_filter,
        radius,
        (!op.state_null).then_some(&mut state),
        op.point_null,
        op.polygon_null,
    );
    let function = answer.function;
    let handle = if around.is_some() { "query" } else { "mesh" };
    let mut faults: Vec<Fault> = [
        null_fault(op.point_null, "out_point"),
        null_fault(op.state_null, "rng_state"),
        null_fault(op.handle_null, handle),
    ]
    .into_iter()
    .flatten()
    .collect();
    if let Some((center, search)) = around {
        faults.extend(point_fault(center, "center"));
        faults.extend(radius_fault(search));
    }
    let filter = agent_faults(&op.filter, radius, &mut faults);
    if check_faults(function, answer.status, &answer.message, &faults) {
        assert_eq!(
            state, op.seed,
            "{function}: the state changed after an error"
        );
        return;
    }
    let filter = filter.unwrap();
    let mut rng = SplitMix64::new(op.seed);
    let drawn = match around {
        None => mesh.random_point_for_agent(&filter, radius, &mut || rng.next_u64()),
        Some((center, search)) => query.random_point_around_for_agent(
            Vec3::from(center.unwrap()),
            search,
            &filter,
            radius,
            &mut || rng.next_u64(),
        ),
    };
    let rust = match drawn {
        Err(err) => {
            assert_eq!(answer.status, query_status(&err), "Rust said {err}");
            assert_eq!(
                state, op.seed,
                "{function}: the state changed after an error"
            );
            return;
        }
        Ok(rust) => rust,
    };
    assert_eq!(answer.status, OK, "{}", answer.message);
    assert_eq!(state, rng.state, "{function}: not the state Rust reached");
    assert_eq!(
        rng.state,
        op.seed.wrapping_add(SplitMix64::GAMMA.wrapping_mul(4)),
        "four draws per point"
    );
    let c_point = answer.point.expect("out_point written");
    assert_eq!(
        c_point.map(f32::to_bits),
        rust.point.to_array().map(f32::to_bits)
    );
    if let Some(polygon) = answer.polygon {
        assert_eq!(polygon, rust.polygon);
    }
    // Independent checks.
    if radius <= mesh.agent_radius() {
        let mut rng = SplitMix64::new(op.seed);
        let plain = match around {
            None => mesh.random_point(&filter, &mut || rng.next_u64()),
            Some((center, search)) => {
                let center = Vec3::from(center.unwrap());
                query.random_point_around(center, search, &filter, &mut || rng.next_u64())
            }
        };
        assert_eq!(Ok(rust), plain);
        return;
    }
    assert!(filter.admits(mesh.polygon_flags(rust.polygon)), "{rust:?}");
    check_clear(mesh, &filter, rust.point, radius, "the random point");
}
