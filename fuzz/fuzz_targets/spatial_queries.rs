//! Fuzzes the mesh queries that need no path search: `navstar_mesh_nearest_point`,
//! `navstar_mesh_raycast`, `navstar_mesh_interpolate` and `navstar_mesh_polygon_info`, on
//! meshes with areas and flags (`navstar_mesh_create_ex`), with any filter.
//!
//! Each answer must equal the Rust API's for the same input, bit for bit, and keep what
//! the docs promise, checked independently in f64: the nearest point is on an admitted
//! polygon at the brute-force distance, within `max_distance` (else
//! `NAVSTAR_ERROR_NOT_ON_MESH` with the outputs untouched); a raycast stops on the
//! admitted mesh at `t` along the ground segment from the snapped start, with a unit
//! wall normal in the ground plane when it hits, and `t = 1`, a zero normal and the end
//! reached when it does not, its walk staying on admitted polygons; interpolation of
//! data linear in the ground plane gives that linear function at the snapped point;
//! polygon info gives the areas and flags the mesh was built with. NULL arguments,
//! NaN/infinite points, bad distances, channel counts, value counts and filters give the
//! documented error with a message naming the argument; no output is written past its
//! size or after an error.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use navstar::glam::{DVec2, Vec3};
use navstar::{NavMesh, QueryFilter};
use navstar_fuzz::calls::{
    Fault, NullOuts, c_interpolate, c_nearest_point, c_raycast, check_faults, filter_fault,
    null_fault, point_fault, polygon_info_checked, same_raycast_hit,
};
use navstar_fuzz::input::{Built, CFilter};
use navstar_fuzz::{
    Coord, FilterIn, GroundMesh, INVALID_ARGUMENT, MeshOps, NULL_ARGUMENT, OK, PointIn, SmallU32,
    brute_force_distance, query_status, tolerance,
};

/// The channel count of an interpolation.
#[derive(Arbitrary, Debug, Clone, Copy)]
enum Channels {
    /// `c % 6` (0 is invalid).
    Few(u8),
    /// At least 2^31: never matches a value count (the buffers are NULL).
    Huge(u32),
}

/// The value count, relative to the right one (`vertex_count * channels`).
#[derive(Arbitrary, Debug, Clone, Copy)]
enum Count {
    Right,
    /// The right count plus this (wrapping at 0).
    Off(i8),
    /// `UINT32_MAX` (with NULL values).
    Max,
}

/// The per-vertex data.
#[derive(Arbitrary, Debug, Clone)]
enum Values {
    /// Channel `k` is `a x + b y + c` of the ground coordinates, `(a, b, c)` from the
    /// `k`-th triple (repeated).
    Linear(Vec<[i8; 3]>),
    /// Any values, repeated.
    Raw(Vec<Coord>),
    /// NULL.
    Null,
}

#[derive(Arbitrary, Debug)]
enum Op {
    Nearest {
        point: PointIn,
        /// `None`: infinity.
        max_distance: Option<Coord>,
        filter: FilterIn,
        nulls: NullOuts,
        mesh_null: bool,
    },
    Raycast {
        start: PointIn,
        end: PointIn,
        filter: FilterIn,
        out_null: bool,
        mesh_null: bool,
    },
    Interpolate {
        point: PointIn,
        channels: Channels,
        count: Count,
        values: Values,
        filter: FilterIn,
        out_null: bool,
        polygon_null: bool,
        mesh_null: bool,
    },
    Info {
        polygon: SmallU32,
        /// The flags and area outputs.
        nulls: NullOuts,
        mesh_null: bool,
    },
}

/// Whether `p` is on a polygon the filter admits (brute force, f64).
fn on_admitted(mesh: &NavMesh, filter: &QueryFilter, p: Vec3, tol: f32) -> bool {
    brute_force_distance(mesh, p, |q| filter.admits(mesh.polygon_flags(q))) <= f64::from(tol)
}

fn nearest(
    b: &Built,
    point: Option<[f32; 3]>,
    max_distance: f32,
    filter_in: &FilterIn,
    nulls: NullOuts,
    mesh_null: bool,
) {
    let mesh = &b.rust;
    let c_filter = CFilter::new(filter_in);
    let answer = c_nearest_point(
        (!mesh_null).then_some(&b.c),
        point,
        max_distance,
        &c_filter,
        nulls,
    );
    let mut faults: Vec<Fault> = [null_fault(mesh_null, "mesh"), point_fault(point, "point")]
        .into_iter()
        .flatten()
        .collect();
    if max_distance.is_nan() || max_distance < 0.0 {
        faults.push((INVALID_ARGUMENT, "max_distance"));
    }
    let filter = filter_fault(filter_in, &mut faults);
    const F: &str = "navstar_mesh_nearest_point";
    if check_faults(F, answer.status, &answer.message, &faults) {
        return;
    }
    let (p, filter) = (Vec3::from(point.unwrap()), filter.unwrap());
    let tol = tolerance(mesh, &[p]);
    let admitted = |q: u32| filter.admits(mesh.polygon_flags(q));
    let brute = brute_force_distance(mesh, p, admitted);
    let Some(n) = mesh.nearest_point(p, max_distance, Some(&filter)) else {
        assert_eq!(
            answer.status,
            navstar_fuzz::NOT_ON_MESH,
            "{}",
            answer.message
        );
        assert!(
            brute >= f64::from(max_distance) * (1.0 - 1e-4) - f64::from(tol),
            "nothing within {max_distance} of {p}, but an admitted polygon is {brute} away"
        );
        return;
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
    assert!(admitted(n.polygon), "polygon {} is refused", n.polygon);
    assert!(n.distance <= max_distance, "{n:?} beyond {max_distance}");
    // A distance beyond f32's range is infinite in f32; compare it as such.
    let brute_f32 = if brute > f64::from(f32::MAX) {
        f64::INFINITY
    } else {
        brute
    };
    assert!(
        f64::from(n.distance) == brute_f32
            || (f64::from(n.distance) - brute).abs() <= f64::from(tol),
        "{n:?}: the nearest admitted polygon is {brute} away"
    );
    let own = n.point.as_dvec3().distance(p.as_dvec3());
    let own_f32 = if own > f64::from(f32::MAX) {
        f64::INFINITY
    } else {
        own
    };
    assert!(
        f64::from(n.distance) == own_f32 || (f64::from(n.distance) - own).abs() <= f64::from(tol),
        "{n:?} is not its distance from {p}"
    );
    assert!(
        on_admitted(mesh, &filter, n.point, tol),
        "{n:?} is off the mesh"
    );
}

fn raycast(
    b: &Built,
    start: Option<[f32; 3]>,
    end: Option<[f32; 3]>,
    filter_in: &FilterIn,
    out_null: bool,
    mesh_null: bool,
) {
    let mesh = &b.rust;
    let c_filter = CFilter::new(filter_in);
    let answer = c_raycast(
        (!mesh_null).then_some(&b.c),
        start,
        end,
        &c_filter,
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
    let filter = filter_fault(filter_in, &mut faults);
    if check_faults(
        "navstar_mesh_raycast",
        answer.status,
        &answer.message,
        &faults,
    ) {
        return;
    }
    let (s, e, filter) = (
        Vec3::from(start.unwrap()),
        Vec3::from(end.unwrap()),
        filter.unwrap(),
    );
    let Some(hit) = same_raycast_hit(&answer, mesh.raycast(s, e, &filter)) else {
        return;
    };
    // Independent checks.
    let tol = tolerance(mesh, &[s, e]);
    let admitted = |q: u32| filter.admits(mesh.polygon_flags(q));
    assert!(admitted(hit.polygon), "{hit:?}: a refused polygon");
    assert!((0.0..=1.0).contains(&hit.t), "{hit:?}");
    let up = mesh.up_axis();
    if let Some(wall) = hit.hit {
        let n = wall.normal;
        assert!((n.length() - 1.0).abs() < 1e-3, "{hit:?}: normal not unit");
        assert_eq!(
            n.to_array()[up_index(mesh)],
            0.0,
            "{hit:?}: normal not in the ground plane"
        );
    } else {
        assert_eq!(hit.t, 1.0, "{hit:?}");
    }
    assert!(
        on_admitted(mesh, &filter, hit.point, tol),
        "{hit:?}: off the mesh"
    );
    let from = mesh
        .nearest_point(s, f32::INFINITY, Some(&filter))
        .expect("a raycast answered without an admitted polygon");
    let (g0, g1) = (up.ground(from.point).as_dvec2(), up.ground(e).as_dvec2());
    let want: DVec2 = g0 + (g1 - g0) * f64::from(hit.t);
    let got = up.ground(hit.point).as_dvec2();
    assert!(
        got.distance(want) <= f64::from(tol) * 4.0,
        "{hit:?}: stopped at {got}, {} from t along the ground segment ({want})",
        got.distance(want)
    );
    if mesh.polygon_count() <= 600 {
        let stop = if hit.hit.is_some() { hit.point } else { e };
        GroundMesh::new(mesh, admitted).check_segment(from.point, stop, tol);
    }
}

/// The index of the up coordinate.
fn up_index(mesh: &NavMesh) -> usize {
    match mesh.up_axis() {
        navstar::UpAxis::Y => 1,
        navstar::UpAxis::Z => 2,
    }
}

#[allow(clippy::too_many_arguments)]
fn interpolate(
    b: &Built,
    point: Option<[f32; 3]>,
    channels: Channels,
    count: Count,
    values_in: &Values,
    filter_in: &FilterIn,
    out_null: bool,
    polygon_null: bool,
    mesh_null: bool,
) {
    let mesh = &b.rust;
    // Values are numbered by the input's vertices (welded and unused ones included).
    let vertex_count = b.c.vertex_count();
    assert_eq!(vertex_count, b.input.arrays.vertices.len() as u32);
    assert_eq!(vertex_count, mesh.vertex_count());
    let (channels, out_null) = match channels {
        Channels::Few(c) => (u32::from(c % 6), out_null),
        // The output must hold `channels` floats unless NULL.
        Channels::Huge(c) => (c | 0x8000_0000, true),
    };
    let right = u64::from(vertex_count) * u64::from(channels);
    let value_count = match count {
        Count::Right => right.min(u64::from(u32::MAX)) as u32,
        Count::Off(k) => (right as i64 + i64::from(k)).clamp(0, i64::from(u32::MAX)) as u32,
        Count::Max => u32::MAX,
    };
    // The values: `value_count` floats, or NULL when that many cannot be provided.
    let (values, coefficients): (Option<Vec<f32>>, Vec<[f32; 3]>) = match values_in {
        _ if value_count > 1 << 16 => (None, Vec::new()),
        Values::Null => (None, Vec::new()),
        Values::Linear(triples) => {
            let triples: Vec<[f32; 3]> = if triples.is_empty() {
                vec![[1.0, 2.0, 3.0]]
            } else {
                triples.iter().map(|t| t.map(f32::from)).collect()
            };
            let coefficients: Vec<[f32; 3]> = (0..channels as usize)
                .map(|k| triples[k % triples.len()])
                .collect();
            let up = mesh.up_axis();
            let values = (0..value_count as usize)
                .map(|i| {
                    let (v, k) = (i / channels.max(1) as usize, i % channels.max(1) as usize);
                    let g = up.ground(mesh.vertices()[v.min(vertex_count as usize - 1)]);
                    let [a, b, c] = coefficients.get(k).copied().unwrap_or_default();
                    a * g.x + b * g.y + c
                })
                .collect();
            (Some(values), coefficients)
        }
        Values::Raw(raw) => {
            let values = (0..value_count as usize)
                .map(|i| raw.get(i % raw.len().max(1)).map_or(0.5, |c| c.value()))
                .collect();
            (Some(values), Vec::new())
        }
    };
    let c_filter = CFilter::new(filter_in);
    let answer = c_interpolate(
        (!mesh_null).then_some(&b.c),
        point,
        values.as_deref(),
        value_count,
        channels,
        &c_filter,
        out_null,
        polygon_null,
    );
    let mut faults: Vec<Fault> = [null_fault(mesh_null, "mesh"), point_fault(point, "point")]
        .into_iter()
        .flatten()
        .collect();
    if channels == 0 {
        faults.push((INVALID_ARGUMENT, "channels"));
    }
    if u64::from(value_count) != right {
        faults.push((INVALID_ARGUMENT, "value_count"));
    }
    if out_null {
        faults.push((NULL_ARGUMENT, "out_values"));
    }
    if values.is_none() && value_count > 0 {
        faults.push((NULL_ARGUMENT, "values"));
    }
    let filter = filter_fault(filter_in, &mut faults);
    if check_faults(
        "navstar_mesh_interpolate",
        answer.status,
        &answer.message,
        &faults,
    ) {
        return;
    }
    let (p, filter, values) = (Vec3::from(point.unwrap()), filter.unwrap(), values.unwrap());
    let mut want = vec![0.0f32; channels as usize];
    let polygon = match mesh.interpolate(p, &values, channels as usize, &mut want, &filter) {
        Err(err) => {
            assert_eq!(answer.status, query_status(&err), "Rust said {err}");
            return;
        }
        Ok(polygon) => polygon,
    };
    assert_eq!(answer.status, OK, "{}", answer.message);
    let got = answer.values.unwrap();
    assert_eq!(
        got.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
        want.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
    );
    if let Some(q) = answer.polygon {
        assert_eq!(q, polygon);
    }
    // Independent checks: the polygon of the snapped point, and linear data reproduced.
    let at = mesh
        .nearest_point(p, f32::INFINITY, Some(&filter))
        .expect("an interpolation without an admitted polygon");
    assert_eq!(
        polygon, at.polygon,
        "not the polygon of the nearest admitted point"
    );
    let g = mesh.up_axis().ground(at.point).as_dvec2();
    for (k, [a, b, c]) in coefficients.iter().enumerate() {
        let exact = f64::from(*a) * g.x + f64::from(*b) * g.y + f64::from(*c);
        let size = (f64::from(a.abs()) + f64::from(b.abs())) * (1.0 + g.abs().max_element());
        let tol = 1e-3 * (size + f64::from(c.abs()) + 1.0);
        assert!(
            (f64::from(got[k]) - exact).abs() <= tol,
            "channel {k}: {} where the linear data is {exact} at {g}",
            got[k]
        );
    }
}

fn info(b: &Built, polygon: u32, nulls: NullOuts, mesh_null: bool) {
    let Some((flags, area)) = polygon_info_checked(&b.c, polygon, mesh_null, nulls) else {
        return;
    };
    if let Some(f) = flags {
        assert_eq!(f, b.input.flags(polygon));
        assert_eq!(f, b.rust.polygon_flags(polygon));
    }
    if let Some(a) = area {
        assert_eq!(a, u32::from(b.input.area(polygon)));
        assert_eq!(a, u32::from(b.rust.polygon_area(polygon)));
    }
}

fuzz_target!(|input: MeshOps<Op>| {
    let Some(built) = input.mesh.build() else {
        return;
    };
    let mesh = &built.rust;
    for op in input.ops.iter().take(12) {
        match op {
            Op::Nearest {
                point,
                max_distance,
                filter,
                nulls,
                mesh_null,
            } => nearest(
                &built,
                point.resolve(mesh),
                max_distance.map_or(f32::INFINITY, Coord::value),
                filter,
                *nulls,
                *mesh_null,
            ),
            Op::Raycast {
                start,
                end,
                filter,
                out_null,
                mesh_null,
            } => raycast(
                &built,
                start.resolve(mesh),
                end.resolve(mesh),
                filter,
                *out_null,
                *mesh_null,
            ),
            Op::Interpolate {
                point,
                channels,
                count,
                values,
                filter,
                out_null,
                polygon_null,
                mesh_null,
            } => interpolate(
                &built,
                point.resolve(mesh),
                *channels,
                *count,
                values,
                filter,
                *out_null,
                *polygon_null,
                *mesh_null,
            ),
            Op::Info {
                polygon,
                nulls,
                mesh_null,
            } => info(&built, polygon.value(), *nulls, *mesh_null),
        }
    }
});
