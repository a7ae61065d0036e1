//! Adds and removes random discs on a level carved as ONE tile (or cut into tiles of side
//! TILE when given), for profiling the cost of an obstacle change on a large tile (run
//! under a profiler that counts instructions).
//! Usage: `cargo run --release --example obstacle_cost -- MESH N [RADIUS [TILE]]`.

use navstar::io::load_mesh_file;
use navstar::{MeshOptions, Obstacle, QueryFilter, SplitMix64, World, WorldOptions};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).map_or("data/arena.mesh", String::as_str);
    let runs: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(10);
    let radius: f32 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1.0);
    let tile: Option<f32> = args.get(4).and_then(|s| s.parse().ok());
    let mesh = load_mesh_file(std::path::Path::new(path), &MeshOptions::default())
        .expect("the level loads");
    let up = mesh.up_axis();
    let world = match tile {
        None => {
            let world = World::new(&WorldOptions::default().with_up_axis(up)).expect("a world");
            world.add_tile(&mesh).expect("the level is a tile");
            world
        }
        Some(side) => {
            // As many slots as the bench gives the same tiles.
            let count = mesh
                .cut_into_tiles(side)
                .expect("the level cuts")
                .tiles
                .len();
            let options = WorldOptions::default()
                .with_up_axis(up)
                .with_max_tiles((count as u32).next_power_of_two());
            let world = World::new(&options).expect("a world");
            world
                .add_mesh_in_tiles(&mesh, side)
                .expect("the tiles join");
            world
        }
    };
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
