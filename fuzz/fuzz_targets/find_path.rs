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
use navstar::glam::Vec3;
use navstar::{MeshOptions, NavMesh, Query, UpAxis};
use navstar_fuzz::{
    INVALID_MESH, NULL_ARGUMENT, OK, PathOpts, PointIn, c_mesh_create, compare_query,
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
    cols: u8,
    rows: u8,
    /// Bit `k % 64`: cell `k` is a hole.
    holes: u64,
    /// Bit `k % 64`: cell `k` is two triangles.
    split: u64,
    /// Bit `k % 64`: which diagonal splits cell `k`.
    diagonal: u64,
    /// Per vertex: moves in the ground plane and a height.
    jitter: Vec<[i8; 3]>,
    height_scale: u8,
    z_up: bool,
    reverse: bool,
    unwelded: bool,
    /// Every cell is two triangles and `polygon_sizes` is NULL.
    triangles: bool,
    queries: Vec<Query1>,
}

/// The arrays `navstar_mesh_create` takes.
struct Arrays {
    vertices: Vec<Vec3>,
    indices: Vec<u32>,
    sizes: Vec<u32>,
}

fn build_arrays(input: &Input) -> Arrays {
    let (cols, rows) = (
        1 + usize::from(input.cols % 8),
        1 + usize::from(input.rows % 8),
    );
    let grid_vertex = |i: usize, j: usize| {
        let k = j * (cols + 1) + i;
        let [jx, jy, jz] = input.jitter.get(k).copied().unwrap_or_default();
        let x = i as f32 + f32::from(jx) / 128.0 * 0.18;
        let z = j as f32 + f32::from(jz) / 128.0 * 0.18;
        let y = f32::from(jy) * f32::from(input.height_scale) / (128.0 * 256.0);
        if input.z_up {
            Vec3::new(x, z, y)
        } else {
            Vec3::new(x, y, z)
        }
    };
    let mut arrays = Arrays {
        vertices: Vec::new(),
        indices: Vec::new(),
        sizes: Vec::new(),
    };
    if !input.unwelded {
        for j in 0..=rows {
            for i in 0..=cols {
                arrays.vertices.push(grid_vertex(i, j));
            }
        }
    }
    let polygon = |arrays: &mut Arrays, corners: &[(usize, usize)]| {
        let mut ids: Vec<u32> = corners
            .iter()
            .map(|&(i, j)| {
                if input.unwelded {
                    arrays.vertices.push(grid_vertex(i, j));
                    arrays.vertices.len() as u32 - 1
                } else {
                    (j * (cols + 1) + i) as u32
                }
            })
            .collect();
        if input.reverse {
            ids.reverse();
        }
        arrays.indices.extend(&ids);
        arrays.sizes.push(ids.len() as u32);
    };
    for j in 0..rows {
        for i in 0..cols {
            let bit = 1u64 << ((j * cols + i) % 64);
            if input.holes & bit != 0 {
                continue;
            }
            let (a, b, c, d) = ((i, j), (i + 1, j), (i + 1, j + 1), (i, j + 1));
            if input.triangles || input.split & bit != 0 {
                if input.diagonal & bit != 0 {
                    polygon(&mut arrays, &[a, b, c]);
                    polygon(&mut arrays, &[a, c, d]);
                } else {
                    polygon(&mut arrays, &[a, b, d]);
                    polygon(&mut arrays, &[b, c, d]);
                }
            } else {
                polygon(&mut arrays, &[a, b, c, d]);
            }
        }
    }
    arrays
}

fuzz_target!(|input: Input| {
    let arrays = build_arrays(&input);
    let floats: Vec<f32> = arrays.vertices.iter().flat_map(|v| v.to_array()).collect();
    let mut options = navstar_mesh_options_default();
    let mut rust_options = MeshOptions::default();
    if input.z_up {
        options.up_axis = NAVSTAR_UP_Z;
        rust_options.up_axis = UpAxis::Z;
    }
    let (status, cmesh) = c_mesh_create(
        Some(&floats),
        arrays.vertices.len() as u32,
        Some(&arrays.indices),
        (!input.triangles).then_some(&arrays.sizes[..]),
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
    let rmesh = if input.triangles {
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
