//! Adds and removes random discs on a level carved as ONE tile, for profiling the cost of
//! an obstacle change on a large tile (run under a profiler that counts instructions).
//! Usage: `cargo run --release --example obstacle_cost -- MESH N [RADIUS]`.

use navstar::io::load_mesh_file;
use navstar::{MeshOptions, Obstacle, QueryFilter, SplitMix64, World, WorldOptions};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).map_or("data/arena.mesh", String::as_str);
    let runs: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(10);
    let radius: f32 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1.0);
    let mesh = load_mesh_file(std::path::Path::new(path), &MeshOptions::default())
        .expect("the level loads");
    let up = mesh.up_axis();
    let world = World::new(&WorldOptions::default().with_up_axis(up)).expect("a world");
    world.add_tile(&mesh).expect("the level is a tile");
    let mut rng = SplitMix64::new(0x0b57ac1e);
    let filter = QueryFilter::default();
    for _ in 0..runs {
        let p = mesh
            .random_point(&filter, &mut || rng.next_u64())
            .expect("the level has area")
            .point;
        let disc = Obstacle::circle(up.ground(p), radius).expect("a disc");
        let id = world.add_obstacle(&disc).expect("the disc is carved");
        world.remove_obstacle(id).expect("the disc is removed");
    }
    println!(
        "{} polygons after {runs} adds and removes",
        world.snapshot().polygon_count()
    );
}
