//! Criterion benchmark of loading a saved mesh (`io::load_navstar_bytes`) against
//! building the same mesh from its arrays (`NavMesh::from_polygons`), on the largest
//! benchmark map (`maze512-1-0.map`, about 40,000 polygons) and the Polyanya scene
//! `scene_mp_2p_01.mesh`, both read from `../shared/data` (skipped when absent).
//!
//! Run: `cargo bench --bench load`.

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use navstar::io::{PolygonSoup, load_mesh_file, load_navstar_bytes};
use navstar::{MeshOptions, NavMesh};

const MAPS: &[&str] = &[
    "../shared/data/grid/maze512-1-0.map",
    "../shared/data/mesh/scene_mp_2p_01.mesh",
];

fn load(c: &mut Criterion) {
    for &path in MAPS {
        let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
        if !file.exists() {
            eprintln!("skipping {path}: not found");
            continue;
        }
        let mesh = load_mesh_file(&file, &MeshOptions::default()).expect("the map loads");
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let soup = PolygonSoup::from_mesh(&mesh);
        let options = MeshOptions::default().with_up_axis(mesh.up_axis());
        let bytes = mesh.to_bytes().unwrap();
        let mut group = c.benchmark_group(name);
        group.sample_size(20);
        group.bench_function("build from arrays", |b| {
            b.iter(|| {
                NavMesh::from_polygons(&soup.vertices, &soup.indices, &soup.polygon_sizes, &options)
                    .unwrap()
            })
        });
        group.bench_function("load .navstar bytes", |b| {
            b.iter(|| load_navstar_bytes(black_box(&bytes)).unwrap())
        });
        group.finish();
    }
}

criterion_group!(benches, load);
criterion_main!(benches);
