//! The model checker over the world's publication of snapshots: with `RUSTFLAGS="--cfg
//! loom"` the world's lock, snapshot cell and flag atomics are loom's (src/sync.rs), and
//! each test below runs under every interleaving of its threads that loom tells apart.
//! They check that a reader sees the world before or after each change, whole (never
//! half a change), that snapshots and tile generations only move forward, and that flags
//! set through a snapshot survive a neighbour's change that re-stitches the tile.
//!
//! Run by scripts/test: `RUSTFLAGS="--cfg loom" cargo test --release --test loom`.
#![cfg(loom)]

use std::sync::Arc;

use glam::Vec3;
use loom::thread::{self, JoinHandle};
use navstar::{MeshOptions, NavMesh, World, WorldOptions};

/// Tile slots of the worlds; element ids are `slot << LOCAL_BITS | local`.
const MAX_TILES: u32 = 4;
const LOCAL_BITS: u32 = 32 - MAX_TILES.trailing_zeros();

/// The unit square `[x, x + 1] x [0, 1]` (y up) as one polygon, or as two triangles.
fn square(x: f32, triangles: bool) -> NavMesh {
    let v = [
        Vec3::new(x, 0.0, 0.0),
        Vec3::new(x + 1.0, 0.0, 0.0),
        Vec3::new(x + 1.0, 0.0, 1.0),
        Vec3::new(x, 0.0, 1.0),
    ];
    let options = MeshOptions::default();
    if triangles {
        NavMesh::from_triangles(&v, &[0, 2, 1, 0, 3, 2], &options).unwrap()
    } else {
        NavMesh::from_polygons(&v, &[0, 3, 2, 1], &[4], &options).unwrap()
    }
}

/// What a reader can see of a snapshot: its polygon and island counts, the generation
/// of the tile in each slot, and whether slots 0 and 1 are joined by a seam.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Seen {
    polygons: u32,
    islands: u32,
    generations: [Option<u32>; 2],
    joined: bool,
}

fn seen(snapshot: &NavMesh) -> Seen {
    let generation = |slot: u32| {
        let r = snapshot.polygon_ref(slot << LOCAL_BITS).ok()?;
        Some(r.generation())
    };
    let joined = snapshot.polygon_ids().any(|p| {
        snapshot
            .polygon_neighbours(p)
            .flatten()
            .any(|n| n >> LOCAL_BITS != p >> LOCAL_BITS)
    });
    Seen {
        polygons: snapshot.polygon_count(),
        islands: snapshot.island_count(),
        generations: [generation(0), generation(1)],
        joined,
    }
}

/// The position of `snapshot` in `states`, which must hold it.
fn state(states: &[Seen], snapshot: &NavMesh) -> usize {
    let s = seen(snapshot);
    states
        .iter()
        .position(|&t| t == s)
        .unwrap_or_else(|| panic!("a snapshot of no published world: {s:?}"))
}

/// The stack of each model thread: loom's default coroutine stack is too small for
/// building meshes in a debug build.
const STACK: usize = 4 << 20;

/// A model thread with a stack of [`STACK`] bytes.
fn spawn<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> JoinHandle<T> {
    thread::Builder::new().stack_size(STACK).spawn(f).unwrap()
}

/// Runs `body` under every interleaving loom tells apart, on a model thread of its own
/// (the model's first thread has a small stack that cannot be set).
fn model(body: impl Fn() + Send + Sync + 'static) {
    let body = Arc::new(body);
    loom::model(move || {
        let body = Arc::clone(&body);
        spawn(move || body()).join().unwrap();
    });
}

fn world() -> Arc<World> {
    let options = WorldOptions::default().with_max_tiles(MAX_TILES);
    Arc::new(World::new(&options).unwrap())
}

#[test]
fn a_reader_sees_each_published_world_whole_and_in_order() {
    // The worlds the writer publishes, in order: tile A, then B beside it (joined), then
    // A replaced by two triangles (generation 2).
    let states = [
        Seen {
            polygons: 1,
            islands: 1,
            generations: [Some(1), None],
            joined: false,
        },
        Seen {
            polygons: 2,
            islands: 1,
            generations: [Some(1), Some(1)],
            joined: true,
        },
        Seen {
            polygons: 3,
            islands: 1,
            generations: [Some(2), Some(1)],
            joined: true,
        },
    ];
    model(move || {
        let world = world();
        let a = world.add_tile(&square(0.0, false)).unwrap();
        let writer = {
            let world = Arc::clone(&world);
            spawn(move || {
                world.add_tile(&square(1.0, false)).unwrap();
                world.replace_tile(a, &square(0.0, true)).unwrap()
            })
        };
        let first = state(&states, &world.snapshot());
        let second = state(&states, &world.snapshot());
        assert!(first <= second, "snapshot {second} taken after {first}");
        let a = writer.join().unwrap();
        assert_eq!(a.generation(), 2);
        assert_eq!(state(&states, &world.snapshot()), 2);
    });
}

#[test]
fn concurrent_writers_publish_every_change_and_generations_grow() {
    // One writer adds B while another replaces A: whatever the order, every snapshot is
    // A (generation 1 or 2) with or without B, B never leaves once seen, and A's
    // generation never goes back.
    model(|| {
        let world = world();
        let a = world.add_tile(&square(0.0, false)).unwrap();
        let adder = {
            let world = Arc::clone(&world);
            spawn(move || world.add_tile(&square(1.0, false)).unwrap())
        };
        let replacer = {
            let world = Arc::clone(&world);
            spawn(move || world.replace_tile(a, &square(0.0, true)).unwrap())
        };
        let (first, second) = (seen(&world.snapshot()), seen(&world.snapshot()));
        for s in [first, second] {
            let a_polygons = match s.generations[0] {
                Some(1) => 1,
                Some(2) => 2,
                other => panic!("tile A in generation {other:?}: {s:?}"),
            };
            let b = s.generations[1].is_some();
            assert_eq!(s.polygons, a_polygons + u32::from(b), "{s:?}");
            assert_eq!((s.joined, s.islands), (b, 1), "{s:?}");
        }
        assert!(second.generations[0] >= first.generations[0]);
        assert!(second.generations[1] >= first.generations[1]);
        let (b, a) = (adder.join().unwrap(), replacer.join().unwrap());
        assert_eq!((b.slot(), b.generation(), a.generation()), (1, 1, 2));
        let last = seen(&world.snapshot());
        assert_eq!((last.polygons, last.generations), (3, [Some(2), Some(1)]));
    });
}

#[test]
fn flags_set_through_a_snapshot_survive_a_neighbour_being_added() {
    // Adding B re-stitches A (new chunks for its seam); A's flags are shared by every
    // snapshot that holds A, so a flag set through any of them is never lost.
    model(|| {
        let world = world();
        world.add_tile(&square(0.0, false)).unwrap();
        let writer = {
            let world = Arc::clone(&world);
            spawn(move || world.add_tile(&square(1.0, false)).unwrap())
        };
        let previous = world.snapshot().set_polygon_flags(0, 0x8).unwrap();
        assert_eq!(previous, navstar::DEFAULT_FLAGS);
        // The next snapshot, with or without B, sees the flag.
        assert_eq!(world.snapshot().polygon_flags(0), 0x8);
        writer.join().unwrap();
        let last = world.snapshot();
        assert_eq!((last.polygon_count(), last.polygon_flags(0)), (2, 0x8));
    });
}
