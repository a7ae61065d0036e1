//! Fuzzes `navstar_find_path` on fuzzed meshes: a grid of up to 8 x 8 jittered cells with
//! holes (so islands, dead ends and pinched corners), some cells split into triangles,
//! optional heights, Y or Z up, either winding, and optionally one vertex copy per
//! polygon corner (welded back by the builder). The mesh is built through the C ABI and
//! must be accepted (unless every cell is a hole: then it must be rejected as
//! `NAVSTAR_ERROR_INVALID_MESH`).
//!
//! Then one query object answers several queries with arbitrary points (on, near and far
//! from the mesh, NaN, infinite, NULL), options (any bytes and `struct_size`) and
//! capacities (0 with a NULL buffer included). Each answer is checked against the
//! contract (status in the documented order, `*out_count`, nothing written past
//! `capacity`, first point the snapped start, last the snapped goal or the reachable
//! point nearest to it, segments on the mesh), and bit for bit against the Rust API on
//! a mesh built from the same arrays with a fresh query: answers do not depend on the
//! query's history.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use navstar::ffi::{NAVSTAR_UP_Z, navstar_mesh_options_default};
use navstar::{MeshOptions, NavMesh, Query, UpAxis};
use navstar_fuzz::{
    GridSpec, INVALID_MESH, NULL_ARGUMENT, OK, PathOpts, PointIn, c_mesh_create, compare_query,
};

#[derive(Arbitrary, Debug)]
struct Query1 {
    start: PointIn,
    goal: PointIn,
    options: PathOpts,
    capacity: u8,
    out_points_null: bool,
}

#[derive(Arbitrary, Debug)]
struct Input {
    grid: GridSpec,
    queries: Vec<Query1>,
}

fuzz_target!(|input: Input| {
    let grid = &input.grid;
    let arrays = grid.arrays();
    let floats = arrays.floats();
    let mut options = navstar_mesh_options_default();
    let mut rust_options = MeshOptions::default();
    if grid.z_up {
        options.up_axis = NAVSTAR_UP_Z;
        rust_options.up_axis = UpAxis::Z;
    }
    let (status, cmesh) = c_mesh_create(
        Some(&floats),
        arrays.vertices.len() as u32,
        Some(&arrays.indices),
        (!grid.triangles).then_some(&arrays.sizes[..]),
        arrays.sizes.len() as u32,
        Some(&options),
    );
    if arrays.sizes.is_empty() {
        assert!(
            status == INVALID_MESH || (status == NULL_ARGUMENT && arrays.vertices.is_empty()),
            "an empty mesh gave {status:?}"
        );
        return;
    }
    assert_eq!(
        status,
        OK,
        "a valid grid was rejected: {}",
        navstar_fuzz::last_error()
    );
    let cmesh = cmesh.unwrap();
    let rmesh = if grid.triangles {
        NavMesh::from_triangles(&arrays.vertices, &arrays.indices, &rust_options)
    } else {
        NavMesh::from_polygons(
            &arrays.vertices,
            &arrays.indices,
            &arrays.sizes,
            &rust_options,
        )
    }
    .expect("the Rust API rejected what the C ABI accepted");
    assert_eq!(cmesh.polygon_count(), rmesh.polygon_count());

    let mut cquery = cmesh.query();
    for q in input.queries.iter().take(8) {
        // A fresh Rust query each time: the C query's history must not matter.
        let mut rquery = Query::new(&rmesh);
        compare_query(
            &mut cquery,
            &mut rquery,
            q.start.resolve(&rmesh),
            q.goal.resolve(&rmesh),
            &q.options,
            24 - u32::from(q.capacity % 25), // exhausted input (0) gives room for 24 points
            q.out_points_null,
        );
    }
});
