//! Fuzzes the queries for a disc-shaped agent: `navstar_mesh_nearest_point_for_agent`,
//! `navstar_mesh_raycast_for_agent`, `navstar_mesh_move_along_surface_for_agent`,
//! `navstar_query_distance_to_wall_for_agent`, `navstar_mesh_random_point_for_agent` and
//! `navstar_query_random_point_around_for_agent`, on meshes with areas and flags
//! (`navstar_mesh_create_ex`), with any filter and radius.
//!
//! Each answer must equal the Rust API's (`NavMesh::nearest_point_for_agent`,
//! `raycast_for_agent`, `move_along_surface_for_agent`, `random_point_for_agent`,
//! `Query::distance_to_wall_for_agent`, `random_point_around_for_agent`) for the same
//! input, bit for bit (the random points for the same seed, four draws each), and keep
//! what the docs promise,
//! checked independently in f64: radius 0 answers as the plain query; the nearest point
//! is on an admitted polygon within `max_distance`, at its stated distance, no nearer
//! than the plain nearest point, and at least the radius (less a rounding tolerance)
//! from every wall (edges of admitted polygons without an admitted neighbour); a raycast
//! stops on an admitted polygon at `t` in 0..=1 (1 when nothing was hit), at least the
//! radius from every wall; a move ends on an admitted polygon at least the radius from
//! every wall, its visited polygons (original ones) from the start polygon to the end
//! one; a wall distance is within the search radius, no more than the moved centre's
//! distance to the walls less the radius, its point at least the radius from every wall;
//! a random point lies on an admitted polygon at least the radius from every wall. At
//! or below the baked radius every answer is the plain query's. NULL arguments, non-finite points, bad distances, NaN,
//! infinite or negative radii and bad filters give the documented error with a message
//! naming the argument; no output is written after an error.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use navstar::glam::Vec3;
use navstar::{NavMesh, QueryFilter};
use navstar_fuzz::agent_calls::{c_nearest_point_for_agent, c_raycast_for_agent};
use navstar_fuzz::agent_moves::{MoveIn, RandomIn, WallIn, random, surface_move, wall};
use navstar_fuzz::calls::{
    Fault, NullOuts, agent_faults, check_faults, null_fault, point_fault, same_raycast_hit,
};
use navstar_fuzz::input::{Built, CFilter};
use navstar_fuzz::radius::{distance_to_walls, wall_tolerance, walls};
use navstar_fuzz::{
    Coord, FilterIn, INVALID_ARGUMENT, MeshOps, OK, PointIn, query_status, tolerance,
};

/// The agent radius.
#[derive(Arbitrary, Debug, Clone, Copy)]
enum RadiusIn {
    /// 0: the plain queries' answers.
    Zero,
    /// `t % 16` tenths of a unit.
    Tenths(u8),
    /// Any value (NaN, infinite, negative, huge).
    Raw(Coord),
}

impl RadiusIn {
    fn value(self) -> f32 {
        match self {
            RadiusIn::Zero => 0.0,
            RadiusIn::Tenths(t) => f32::from(t % 16) * 0.1,
            RadiusIn::Raw(c) => c.value(),
        }
    }
}

#[derive(Arbitrary, Debug)]
enum Op {
    Nearest {
        point: PointIn,
        /// `None`: infinity.
        max_distance: Option<Coord>,
        filter: FilterIn,
        radius: RadiusIn,
        nulls: NullOuts,
        mesh_null: bool,
    },
    Raycast {
        start: PointIn,
        end: PointIn,
        filter: FilterIn,
        radius: RadiusIn,
        out_null: bool,
        mesh_null: bool,
    },
    Move(MoveIn, RadiusIn),
    Wall(WallIn, RadiusIn),
    Random(RandomIn, RadiusIn),
}

/// Checks that the ground projection of `p` keeps `radius` from the walls of the
/// polygons `filter` admits.
fn check_clear(mesh: &NavMesh, filter: &QueryFilter, p: Vec3, radius: f32, what: &str) {
    if radius <= mesh.agent_radius() {
        return;
    }
    let walls = walls(mesh, |q| filter.admits(mesh.polygon_flags(q)));
    let gap = distance_to_walls(&walls, mesh.up_axis().ground(p).as_dvec2());
    let r = f64::from(radius - mesh.agent_radius());
    assert!(
        gap >= r - wall_tolerance(&walls),
        "{what} {p} is {gap} from a wall, radius {r}"
    );
}

fn nearest(
    b: &Built,
    point: Option<[f32; 3]>,
    max_distance: f32,
    filter_in: &FilterIn,
    radius: f32,
    nulls: NullOuts,
    mesh_null: bool,
) {
    let mesh = &b.rust;
    let c_filter = CFilter::new(filter_in);
    let answer = c_nearest_point_for_agent(
        (!mesh_null).then_some(&b.c),
        point,
        max_distance,
        &c_filter,
        radius,
        nulls,
    );
    let mut faults: Vec<Fault> = [null_fault(mesh_null, "mesh"), point_fault(point, "point")]
        .into_iter()
        .flatten()
        .collect();
    if max_distance.is_nan() || max_distance < 0.0 {
        faults.push((INVALID_ARGUMENT, "max_distance"));
    }
    let filter = agent_faults(filter_in, radius, &mut faults);
    const F: &str = "navstar_mesh_nearest_point_for_agent";
    if check_faults(F, answer.status, &answer.message, &faults) {
        return;
    }
    let (p, filter) = (Vec3::from(point.unwrap()), filter.unwrap());
    let n = match mesh.nearest_point_for_agent(p, max_distance, Some(&filter), radius) {
        Err(err) => {
            assert_eq!(answer.status, query_status(&err), "Rust said {err}");
            assert!(
                answer.message.contains("agent_radius"),
                "{}",
                answer.message
            );
            return;
        }
        Ok(None) => {
            assert_eq!(
                answer.status,
                navstar_fuzz::NOT_ON_MESH,
                "{}",
                answer.message
            );
            return;
        }
        Ok(Some(n)) => n,
    };
    assert_eq!(answer.status, OK, "{}", answer.message);
    let bits = |v: Vec3| v.to_array().map(f32::to_bits);
    if let Some(q) = answer.point {
        assert_eq!(q.map(f32::to_bits), bits(n.point));
    }
    if let Some(polygon) = answer.polygon {
        assert_eq!(polygon, n.polygon);
    }
    if let Some(d) = answer.distance {
        assert_eq!(d.to_bits(), n.distance.to_bits());
    }
    // Independent checks.
    let plain = mesh.nearest_point(p, f32::INFINITY, Some(&filter));
    if radius <= mesh.agent_radius() {
        assert_eq!(Some(n), plain, "radius {radius} at most the baked one");
        return;
    }
    let plain = plain.expect("a point for an agent, but none for a point");
    let tol = tolerance(mesh, &[p]);
    assert!(
        filter.admits(mesh.polygon_flags(n.polygon)),
        "polygon {} is refused",
        n.polygon
    );
    assert!(n.distance <= max_distance, "{n:?} beyond {max_distance}");
    assert!(
        n.distance >= plain.distance - tol,
        "{n:?} nearer than the plain {plain:?}"
    );
    let own = n.point.as_dvec3().distance(p.as_dvec3());
    assert!(
        n.distance.is_infinite() || (f64::from(n.distance) - own).abs() <= f64::from(tol),
        "{n:?} is not its distance from {p}"
    );
    check_clear(mesh, &filter, n.point, radius, "the nearest point");
}

fn raycast(
    b: &Built,
    start: Option<[f32; 3]>,
    end: Option<[f32; 3]>,
    filter_in: &FilterIn,
    radius: f32,
    out_null: bool,
    mesh_null: bool,
) {
    let mesh = &b.rust;
    let c_filter = CFilter::new(filter_in);
    let answer = c_raycast_for_agent(
        (!mesh_null).then_some(&b.c),
        start,
        end,
        &c_filter,
        radius,
        out_null,
    );
    let mut faults: Vec<Fault> = [
        null_fault(out_null, "out_hit"),
        null_fault(mesh_null, "mesh"),
        point_fault(start, "start"),
        point_fault(end, "end"),
    ]
    .into_iter()
    .flatten()
    .collect();
    let filter = agent_faults(filter_in, radius, &mut faults);
    const F: &str = "navstar_mesh_raycast_for_agent";
    if check_faults(F, answer.status, &answer.message, &faults) {
        return;
    }
    let (s, e, filter) = (
        Vec3::from(start.unwrap()),
        Vec3::from(end.unwrap()),
        filter.unwrap(),
    );
    let Some(hit) = same_raycast_hit(&answer, mesh.raycast_for_agent(s, e, &filter, radius)) else {
        return;
    };
    // Independent checks.
    if radius <= mesh.agent_radius() {
        let plain = mesh
            .raycast(s, e, &filter)
            .expect("the plain raycast failed");
        assert_eq!(
            (
                hit.t.to_bits(),
                hit.point.to_array().map(f32::to_bits),
                hit.polygon
            ),
            (
                plain.t.to_bits(),
                plain.point.to_array().map(f32::to_bits),
                plain.polygon
            )
        );
        return;
    }
    assert!(
        filter.admits(mesh.polygon_flags(hit.polygon)),
        "{hit:?}: a refused polygon"
    );
    assert!((0.0..=1.0).contains(&hit.t), "{hit:?}");
    if hit.hit.is_none() {
        assert_eq!(hit.t, 1.0, "{hit:?}");
    }
    check_clear(mesh, &filter, hit.point, radius, "the raycast's stop");
}

fuzz_target!(|input: MeshOps<Op>| {
    let Some(built) = input.mesh.build() else {
        return;
    };
    let mesh = &built.rust;
    let mut query = navstar::Query::new(mesh);
    for op in input.ops.iter().take(6) {
        match op {
            Op::Nearest {
                point,
                max_distance,
                filter,
                radius,
                nulls,
                mesh_null,
            } => nearest(
                &built,
                point.resolve(mesh),
                max_distance.map_or(f32::INFINITY, Coord::value),
                filter,
                radius.value(),
                *nulls,
                *mesh_null,
            ),
            Op::Raycast {
                start,
                end,
                filter,
                radius,
                out_null,
                mesh_null,
            } => raycast(
                &built,
                start.resolve(mesh),
                end.resolve(mesh),
                filter,
                radius.value(),
                *out_null,
                *mesh_null,
            ),
            Op::Move(op, radius) => surface_move(&built, op, radius.value()),
            Op::Wall(op, radius) => wall(&built, &mut query, op, radius.value()),
            Op::Random(op, radius) => random(&built, &mut query, op, radius.value()),
        }
    }
});
