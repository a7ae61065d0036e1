//! Criterion benchmark of the agent queries on the bundled mesh `data/arena.mesh`: the
//! cost of one call of each, for an agent moved every frame.
//!
//! * `move_along_surface/step`: an agent at a random point of the mesh moves 0.5 units
//!   (a frame's step of a fast runner) in a random direction, from the polygon it is in;
//!   walls on the way are slid along.
//! * `move_along_surface/snap`: the same with the start snapped (no polygon given).
//! * `distance_to_wall/2`: the nearest wall within 2 units of a random point.
//! * `random_point_around/3` and `random_point/mesh` (O(polygons)).
//!
//! Agents: 1000 random points (fixed seed). One criterion iteration is one call, cycling
//! through the agents, so the reported time is the time per call.
//!
//! Run: `cargo bench --bench agents`.

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use navstar::glam::Vec3;
use navstar::io::load_mesh_file;
use navstar::{MeshOptions, Query, QueryFilter, SplitMix64};

fn benches(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mesh = load_mesh_file(&root.join("data/arena.mesh"), &MeshOptions::default())
        .expect("data/arena.mesh loads");
    let filter = QueryFilter::default();
    let mut rng = SplitMix64::new(0x5eed);
    // Agents: random points of the mesh, each with its polygon and a step to take.
    let agents: Vec<(u32, Vec3, Vec3)> = (0..1000)
        .map(|_| {
            let at = mesh
                .random_point(&filter, &mut || rng.next_u64())
                .expect("the mesh has area");
            let angle = rng.next_f64() as f32 * std::f32::consts::TAU;
            let step = Vec3::new(angle.cos(), 0.0, angle.sin()) * 0.5;
            (at.polygon, at.point, at.point + step)
        })
        .collect();
    let mut visited = Vec::new();
    let mut i = 0usize;
    c.bench_function("move_along_surface/step", |b| {
        b.iter(|| {
            let (polygon, from, to) = agents[i % agents.len()];
            i += 1;
            black_box(
                mesh.move_along_surface(Some(polygon), from, to, &filter, &mut visited)
                    .map(|m| m.point),
            )
        })
    });
    c.bench_function("move_along_surface/snap", |b| {
        b.iter(|| {
            let (_, from, to) = agents[i % agents.len()];
            i += 1;
            black_box(
                mesh.move_along_surface(None, from, to, &filter, &mut visited)
                    .map(|m| m.point),
            )
        })
    });
    let mut query = Query::new(&mesh);
    c.bench_function("distance_to_wall/2", |b| {
        b.iter(|| {
            let (_, at, _) = agents[i % agents.len()];
            i += 1;
            black_box(
                query
                    .distance_to_wall(at, 2.0, &filter)
                    .map(|w| w.is_some()),
            )
        })
    });
    c.bench_function("random_point_around/3", |b| {
        b.iter(|| {
            let (_, at, _) = agents[i % agents.len()];
            i += 1;
            black_box(
                query
                    .random_point_around(at, 3.0, &filter, &mut || rng.next_u64())
                    .map(|p| p.polygon),
            )
        })
    });
    c.bench_function("random_point/mesh", |b| {
        b.iter(|| {
            black_box(
                mesh.random_point(&filter, &mut || rng.next_u64())
                    .map(|p| p.polygon),
            )
        })
    });
}

criterion_group! {
    name = agents;
    config = Criterion::default().sample_size(30).measurement_time(std::time::Duration::from_secs(2));
    targets = benches
}
criterion_main!(agents);
