//! Fuzzes `navstar_mesh_create` through the C ABI: arbitrary vertex and polygon counts
//! (all of the buffers, fewer, zero, `UINT32_MAX`, index totals above `UINT32_MAX`),
//! indices (in and out of range), polygon sizes (small, zero, huge), coordinates (NaN,
//! infinities, huge, denormal, -0) and options (any bytes, any `struct_size`).
//!
//! The harness keeps the caller's side of the contract (a pointer covers what its count
//! promises) except where the library must reject the count before reading. It checks
//! the status against the documented validation order and against the Rust builder on
//! the same data, the message and `*out_mesh` rules, what any accepted mesh must satisfy
//! (at least one polygon, every size >= 3, every index in range, every vertex finite),
//! and then runs a few queries on an accepted mesh through both APIs.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use navstar::glam::Vec3;
use navstar::{NavMesh, Query};
use navstar_fuzz::{
    Coord, Expect, INVALID_ARGUMENT, MeshOpts, NULL_ARGUMENT, OK, PathOpts, PointIn, c_mesh_create,
    compare_query, mesh_status,
};

/// How a count relates to the data provided.
#[derive(Arbitrary, Debug, Clone, Copy)]
enum Count {
    /// Everything provided.
    All,
    /// A few less than provided.
    Fewer(u8),
    /// Zero.
    Zero,
    /// `UINT32_MAX` (only where the library rejects it before reading).
    Max,
    /// A count above `UINT32_MAX / 3` triangles (rejected before reading).
    Huge(u32),
}

/// A vertex index or polygon size: usually small, sometimes anything.
#[derive(Arbitrary, Debug, Clone, Copy)]
enum Num {
    Small(u8),
    Any(u32),
}

impl Num {
    fn value(self) -> u32 {
        match self {
            Num::Small(v) => u32::from(v),
            Num::Any(v) => v,
        }
    }
}

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
    vertices: Vec<[Coord; 3]>,
    vertex_count: Count,
    indices: Vec<Num>,
    /// `None`: triangles (`polygon_sizes == NULL`).
    sizes: Option<Vec<Num>>,
    polygon_count: Count,
    options: MeshOpts,
    vertices_null: bool,
    indices_null: bool,
    queries: Vec<Query1>,
}

fuzz_target!(|input: Input| {
    let floats: Vec<f32> = input.vertices.iter().flatten().map(|c| c.value()).collect();
    let provided = input.vertices.len() as u32;
    let vertex_count = match input.vertex_count {
        Count::All | Count::Huge(_) => provided,
        Count::Fewer(k) => provided.saturating_sub(u32::from(k)),
        Count::Zero => 0,
        Count::Max => u32::MAX,
    };
    let indices: Vec<u32> = input.indices.iter().map(|n| n.value()).collect();
    let sizes: Option<Vec<u32>> = input
        .sizes
        .as_ref()
        .map(|s| s.iter().map(|n| n.value()).collect());
    // The polygon count, and the index total it implies.
    let (polygon_count, needed) = match &sizes {
        None => {
            let all = (indices.len() / 3) as u32;
            let count = match input.polygon_count {
                Count::All => all,
                Count::Fewer(k) => all.saturating_sub(u32::from(k)),
                Count::Zero => 0,
                Count::Max => u32::MAX,
                Count::Huge(x) => u32::MAX / 3 + 1 + x % (u32::MAX - u32::MAX / 3),
            };
            (count, 3 * u64::from(count))
        }
        Some(sizes) => {
            let all = sizes.len() as u32;
            let mut count = match input.polygon_count {
                Count::All | Count::Max | Count::Huge(_) => all,
                Count::Fewer(k) => all.saturating_sub(u32::from(k)),
                Count::Zero => 0,
            };
            // prefix[n]: the index total of the first n polygons.
            let prefix: Vec<u64> = std::iter::once(0)
                .chain(sizes.iter().scan(0u64, |sum, &s| {
                    *sum += u64::from(s);
                    Some(*sum)
                }))
                .collect();
            // Keep the contract: shrink to a prefix whose indices are all provided,
            // unless the total is beyond UINT32_MAX (rejected before reading).
            let total = |n: u32| prefix[n as usize];
            while total(count) <= u64::from(u32::MAX) && total(count) > indices.len() as u64 {
                count -= 1;
            }
            (count, total(count))
        }
    };
    let options = input.options.to_c();
    let (status, mesh) = c_mesh_create(
        (!input.vertices_null).then_some(&floats[..]),
        vertex_count,
        (!input.indices_null).then_some(&indices[..]),
        sizes.as_deref(),
        polygon_count,
        options.as_ref(),
    );

    // The documented validation order: options, counts, NULL pointers, then the builder.
    let rust_options = match input.options.expected() {
        Expect::Accept(o) => Some(o),
        Expect::Reject => None,
        // Newer option fields: only the general rules (checked in c_mesh_create).
        Expect::Unknown(_) => return,
    };
    let boundary =
        if rust_options.is_none() || vertex_count == u32::MAX || needed > u64::from(u32::MAX) {
            Some(INVALID_ARGUMENT)
        } else if (input.vertices_null && vertex_count > 0) || (input.indices_null && needed > 0) {
            Some(NULL_ARGUMENT)
        } else {
            None
        };
    if let Some(expected) = boundary {
        assert_eq!(status, expected);
        return;
    }
    let rust_options = rust_options.unwrap();
    let points: Vec<Vec3> = floats[..3 * vertex_count as usize]
        .chunks_exact(3)
        .map(Vec3::from_slice)
        .collect();
    let used = &indices[..needed as usize];
    let rust = match &sizes {
        None => NavMesh::from_triangles(&points, used, &rust_options),
        Some(s) => {
            NavMesh::from_polygons(&points, used, &s[..polygon_count as usize], &rust_options)
        }
    };
    match &rust {
        Ok(_) => assert_eq!(status, OK),
        Err(e) => {
            assert_eq!(status, mesh_status(e), "the Rust builder said {e}");
            return;
        }
    }
    // What an accepted mesh must satisfy, checked independently of the builder.
    assert!(polygon_count > 0, "a mesh without polygons was accepted");
    if let Some(s) = &sizes {
        assert!(s[..polygon_count as usize].iter().all(|&n| n >= 3));
    }
    assert!(
        used.iter().all(|&i| i < vertex_count),
        "an index out of range was accepted"
    );
    assert!(
        points.iter().all(|p| p.is_finite()),
        "a non-finite vertex was accepted"
    );
    assert!(rust_options.weld_distance.is_finite() && rust_options.weld_distance >= 0.0);
    let (cmesh, rmesh) = (mesh.unwrap(), rust.unwrap());
    assert_eq!(cmesh.polygon_count(), polygon_count);
    assert_eq!(rmesh.polygon_count(), polygon_count);

    let mut cquery = cmesh.query();
    drop(cmesh); // the query keeps the mesh alive
    let mut rquery = Query::new(&rmesh);
    for q in input.queries.iter().take(4) {
        compare_query(
            &mut cquery,
            &mut rquery,
            q.start.resolve(&rmesh),
            q.goal.resolve(&rmesh),
            &q.options,
            16 - u32::from(q.capacity % 17),
            q.out_points_null,
        );
    }
});
