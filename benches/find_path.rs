//! Criterion benchmark of `Query::find_path` (A* + funnel) on real meshes.
//!
//! Meshes: `data/arena.mesh` (bundled) and, when `../shared/data` is present,
//! `arena-merged.mesh`. Queries: 1000 random pairs of points on the mesh (fixed seed),
//! the same for every run. One criterion iteration is one query, cycling through the
//! list, so the reported time is the time per query.
//!
//! Run: `cargo bench --bench find_path`.

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use navstar::glam::Vec3;
use navstar::io::load_mesh_file;
use navstar::{MeshOptions, NavMesh, PathOptions, Query};

/// A small deterministic generator (xorshift64*), so the queries are the same every run.
struct Rng(u64);

impl Rng {
    fn next_f32(&mut self) -> f32 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        ((self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 40) as f32) / (1u64 << 24) as f32
    }
}

/// Random points on the mesh: a random point of the bounding box snapped to the mesh.
fn random_queries(mesh: &NavMesh, count: usize, seed: u64) -> Vec<(Vec3, Vec3)> {
    let mut rng = Rng(seed);
    let bounds = mesh.bounds();
    let mut point = || {
        let t = Vec3::new(rng.next_f32(), rng.next_f32(), rng.next_f32());
        let p = bounds.min + (bounds.max - bounds.min) * t;
        mesh.nearest_point(p, f32::INFINITY, None)
            .expect("a mesh has polygons")
            .point
    };
    (0..count).map(|_| (point(), point())).collect()
}

fn bench_mesh(c: &mut Criterion, name: &str, path: &Path) {
    let Ok(mesh) = load_mesh_file(path, &MeshOptions::default()) else {
        eprintln!("skipping {name}: {} could not be loaded", path.display());
        return;
    };
    let queries = random_queries(&mesh, 1000, 0x5eed);
    let mut query = Query::new(&mesh);
    let options = PathOptions::default();
    let mut i = 0usize;
    c.bench_function(&format!("find_path/{name}/random"), |b| {
        b.iter(|| {
            let (start, goal) = queries[i % queries.len()];
            i += 1;
            black_box(
                query
                    .find_path(start, goal, &options)
                    .map(|p| p.corners.len()),
            )
        })
    });
}

fn benches(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    bench_mesh(c, "arena", &root.join("data/arena.mesh"));
    bench_mesh(
        c,
        "arena-merged",
        &root.join("../shared/data/mesh/arena-merged.mesh"),
    );
}

criterion_group! {
    name = find_path;
    config = Criterion::default().sample_size(50);
    targets = benches
}
criterion_main!(find_path);
