//! Streaming while querying: writer threads add, remove and replace the tiles of a grid
//! map in random order while reader threads query the world's snapshots. The tiles are
//! sub-grids of one map, each in one of a few variants (some cells opened or blocked), so
//! every snapshot holds the mesh of a known grid: the cells of its tiles, the rest
//! blocked. Every answer on a snapshot is compared with the answer on the one-piece mesh
//! of that grid (built once per set of tiles and cached); polygon references kept from
//! earlier snapshots must resolve to the same polygon or be reported stale. At the end,
//! dropping the world and the snapshots must free every snapshot and every tile.
//!
//! `NAVSTAR_STRESS_SECONDS` sets how long the threads run (default 3),
//! `NAVSTAR_STRESS_SEED` the seed (default: from the clock; printed either way).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use glam::Vec3;
use navstar::{
    NavMesh, PathOptions, PathStatus, PolyRef, Query, QueryError, QueryFilter, TileRef,
    WeakNavMesh, World, WorldOptions,
};

use super::optimal;
use super::world::Map;
use crate::common::{Rng, ground_length};

/// Tile slots of the world; element ids are `slot << LOCAL_BITS | local`.
const MAX_TILES: u32 = 32;
const LOCAL_BITS: u32 = 32 - MAX_TILES.trailing_zeros();
/// The side of a tile, in cells.
const TILE: u32 = 6;
/// Variants of each tile's cells.
const VARIANTS: u8 = 3;
const WRITERS: u64 = 2;
const READERS: u64 = 2;

/// Which variant of each tile a snapshot holds (`None`: the tile is absent).
type Key = Vec<Option<u8>>;

/// The map, its tiles and their meshes.
struct Layout {
    map: Map,
    /// `(x0, z0)` of each tile.
    tiles: Vec<(u32, u32)>,
    /// `meshes[tile][variant]`; `None` when the variant has no walkable cell.
    meshes: Vec<Vec<Option<NavMesh>>>,
}

impl Layout {
    fn new(seed: u64) -> Layout {
        let map = Map::random(seed, 4 * TILE, 3 * TILE);
        let tiles: Vec<(u32, u32)> = (0..3)
            .flat_map(|z| (0..4).map(move |x| (x * TILE, z * TILE)))
            .collect();
        let mut layout = Layout {
            map,
            tiles,
            meshes: Vec::new(),
        };
        layout.meshes = (0..layout.tiles.len())
            .map(|t| {
                (0..VARIANTS)
                    .map(|v| {
                        let mut grid = layout.blocked();
                        layout.copy_tile(&mut grid, t, v);
                        let (x0, z0) = layout.tiles[t];
                        grid.mesh(x0, z0, TILE, TILE)
                    })
                    .collect()
            })
            .collect();
        layout
    }

    /// The map with every cell blocked.
    fn blocked(&self) -> Map {
        let mut map = self.map.clone();
        map.walkable.fill(false);
        map
    }

    /// Copies the cells of `tile` in `variant` into `grid`: variant 0 is the map's cells,
    /// variant 1 has every other cell of the tile's first row opened and the others
    /// blocked, variant 2 has the tile's middle 2 x 2 cells blocked and its last row open.
    fn copy_tile(&self, grid: &mut Map, tile: usize, variant: u8) {
        let (x0, z0) = self.tiles[tile];
        for dz in 0..TILE {
            for dx in 0..TILE {
                let c = ((z0 + dz) * self.map.width + x0 + dx) as usize;
                let middle = (2..4).contains(&dx) && (2..4).contains(&dz);
                grid.walkable[c] = match variant {
                    1 if dz == 0 => dx % 2 == 0,
                    2 if middle => false,
                    2 if dz == TILE - 1 => true,
                    _ => self.map.walkable[c],
                };
            }
        }
    }

    /// The grid of the tiles of `key`, and its one-piece mesh (`None` without a
    /// walkable cell).
    fn reference(&self, key: &Key) -> (Map, Option<NavMesh>) {
        let mut grid = self.blocked();
        for (tile, variant) in key.iter().enumerate() {
            if let Some(v) = variant {
                self.copy_tile(&mut grid, tile, *v);
            }
        }
        let mesh = grid.mesh(0, 0, grid.width, grid.height);
        (grid, mesh)
    }
}

/// A grid of tiles and its one-piece mesh (`None` without a walkable cell).
type Reference = Arc<(Map, Option<NavMesh>)>;

/// What the writers put in each `(slot, generation)`: `(tile, variant)`.
type Registry = Mutex<HashMap<(u32, u32), (usize, u8)>>;

/// The state shared by the threads.
struct Shared {
    layout: Layout,
    world: World,
    registry: Registry,
    references: Mutex<HashMap<Key, Reference>>,
    stop: AtomicBool,
    /// Changes made, snapshots checked, kept references resolved and found stale.
    changes: AtomicU64,
    rounds: AtomicU64,
    resolved: AtomicU64,
    stale: AtomicU64,
}

impl Shared {
    /// The `(slot, generation)` of every tile of `snapshot`, by slot.
    fn tiles_of(snapshot: &NavMesh) -> Vec<(u32, u32)> {
        (0..MAX_TILES)
            .filter_map(|slot| {
                let r = snapshot.polygon_ref(slot << LOCAL_BITS).ok()?;
                Some((slot, r.generation()))
            })
            .collect()
    }

    /// The key of a snapshot holding `tiles`. A writer records a tile right after the
    /// call that put it returns, so a reader may see it first: it waits for the record.
    fn key(&self, tiles: &[(u32, u32)]) -> Key {
        let mut key = vec![None; self.layout.tiles.len()];
        let deadline = Instant::now() + Duration::from_secs(30);
        for tile in tiles {
            let (t, v) = loop {
                if let Some(&found) = self.registry.lock().unwrap().get(tile) {
                    break found;
                }
                assert!(Instant::now() < deadline, "tile {tile:?} never recorded");
                std::thread::yield_now();
            };
            assert!(
                key[t].is_none(),
                "tile {t} twice in one snapshot: {tiles:?}"
            );
            key[t] = Some(v);
        }
        key
    }

    fn reference(&self, key: &Key) -> Reference {
        if let Some(found) = self.references.lock().unwrap().get(key) {
            return Arc::clone(found);
        }
        // Built outside the lock: another reader may build the same one meanwhile.
        let built = Arc::new(self.layout.reference(key));
        let mut cache = self.references.lock().unwrap();
        Arc::clone(cache.entry(key.clone()).or_insert(built))
    }
}

/// Writer `w`: changes the tiles `t` with `t % WRITERS == w` at random until told to
/// stop.
fn write(shared: &Shared, w: u64, seed: u64) {
    let mut rng = Rng(seed ^ (w + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let count = shared.layout.tiles.len();
    let mine: Vec<usize> = (0..count).filter(|t| *t as u64 % WRITERS == w).collect();
    let mut present: Vec<Option<TileRef>> = vec![None; count];
    let record = |r: TileRef, t: usize, v: u8| {
        let old = shared
            .registry
            .lock()
            .unwrap()
            .insert((r.slot(), r.generation()), (t, v));
        assert!(
            old.is_none(),
            "slot {} generation {} reused",
            r.slot(),
            r.generation()
        );
    };
    while !shared.stop.load(Ordering::Relaxed) {
        let t = mine[rng.below(mine.len() as u32) as usize];
        let v = rng.below(u32::from(VARIANTS)) as u8;
        let mesh = shared.layout.meshes[t][v as usize].as_ref();
        match (present[t], mesh) {
            (Some(r), Some(mesh)) if rng.below(2) == 0 => {
                let new = shared.world.replace_tile(r, mesh).unwrap();
                assert_eq!(new.slot(), r.slot());
                assert!(new.generation() > r.generation());
                record(new, t, v);
                present[t] = Some(new);
            }
            (Some(r), _) => {
                shared.world.remove_tile(r).unwrap();
                // Removed: every later change of it is refused.
                assert!(shared.world.remove_tile(r).is_err());
                present[t] = None;
            }
            (None, Some(mesh)) => {
                let r = shared.world.add_tile(mesh).unwrap();
                record(r, t, v);
                present[t] = Some(r);
            }
            (None, None) => continue,
        }
        shared.changes.fetch_add(1, Ordering::Relaxed);
        std::thread::yield_now();
    }
}

/// A polygon reference kept by a reader: where its polygon is, as closest points to a
/// few probes (split corners that stitching adds along an edge do not move them).
struct Kept {
    reference: PolyRef,
    shape: [Vec3; 5],
}

/// The closest points of `polygon` to an inner point and to four points far outside
/// the map.
fn shape(mesh: &NavMesh, polygon: u32, inner: Vec3) -> [Vec3; 5] {
    let far = [
        (-50.0, -50.0),
        (100.0, -50.0),
        (100.0, 100.0),
        (-50.0, 100.0),
    ];
    let mut out = [inner; 5];
    out[0] = mesh.closest_point_on_polygon(polygon, inner);
    for (o, (x, z)) in out[1..].iter_mut().zip(far) {
        *o = mesh.closest_point_on_polygon(polygon, Vec3::new(x, 0.0, z));
    }
    out
}

fn near(a: Vec3, b: Vec3) -> bool {
    a.distance(b) <= 1e-4 * (1.0 + a.length())
}

/// Reader `r`: checks snapshots until told to stop; returns a weak reference to every
/// snapshot it took.
fn read(shared: &Shared, r: u64, seed: u64) -> Vec<WeakNavMesh> {
    let mut rng = Rng(seed ^ (r + 1).wrapping_mul(0xc2b2_ae3d_27d4_eb4f));
    let mut query: Option<Query> = None;
    let mut kept: Vec<Kept> = Vec::new();
    let mut taken = Vec::new();
    let mut whole_query: Option<Query> = None;
    while !shared.stop.load(Ordering::Relaxed) {
        let snapshot = shared.world.snapshot();
        taken.push(snapshot.downgrade());
        let tiles = Shared::tiles_of(&snapshot);
        let key = shared.key(&tiles);
        check_kept(shared, &snapshot, &tiles, &mut kept);
        let reference = shared.reference(&key);
        let (grid, whole) = (&reference.0, reference.1.as_ref());
        let Some(whole) = whole else {
            assert_eq!(snapshot.polygon_count(), 0, "{key:?}");
            continue;
        };
        let query = match &mut query {
            Some(q) => {
                q.set_mesh(&snapshot);
                q
            }
            None => query.insert(Query::new(&snapshot)),
        };
        let on_whole = match &mut whole_query {
            Some(q) => {
                q.set_mesh(whole);
                q
            }
            None => whole_query.insert(Query::new(whole)),
        };
        let context = format!("reader {r}, tiles {key:?}");
        assert_eq!(snapshot.island_count(), whole.island_count(), "{context}");
        for _ in 0..3 {
            let (s, t) = (grid.point(&mut rng), grid.point(&mut rng));
            let context = format!("{context}: {s} -> {t}");
            let mut pair = Pair {
                grid,
                snapshot: &snapshot,
                query,
                whole,
                on_whole,
            };
            pair.compare_paths(s, t, &context);
            pair.compare_spatial(s, t, &context);
            // Keep a reference to the start's polygon for later snapshots.
            let nearest = snapshot.nearest_point(s, 1.0, None).expect("on the mesh");
            if kept.len() < 64 {
                kept.push(Kept {
                    reference: snapshot.polygon_ref(nearest.polygon).unwrap(),
                    shape: shape(&snapshot, nearest.polygon, s),
                });
            }
        }
        shared.rounds.fetch_add(1, Ordering::Relaxed);
    }
    taken
}

/// Each kept reference resolves in `snapshot` to a polygon of the same shape when its
/// tile is there in the same generation, and is stale otherwise; stale ones are
/// dropped.
fn check_kept(shared: &Shared, snapshot: &NavMesh, tiles: &[(u32, u32)], kept: &mut Vec<Kept>) {
    kept.retain(|k| {
        let slot = k.reference.polygon() >> LOCAL_BITS;
        let present = tiles.contains(&(slot, k.reference.generation()));
        match snapshot.resolve(k.reference) {
            Ok(polygon) => {
                assert!(present, "{:?} resolved in {tiles:?}", k.reference);
                assert_eq!(polygon, k.reference.polygon());
                let now = shape(snapshot, polygon, k.shape[0]);
                assert!(
                    now.iter().zip(&k.shape).all(|(a, b)| near(*a, *b)),
                    "{:?} names another polygon: {:?} then {now:?}",
                    k.reference,
                    k.shape
                );
                shared.resolved.fetch_add(1, Ordering::Relaxed);
                true
            }
            Err(QueryError::StaleReference {
                slot: s,
                generation,
                current,
            }) => {
                assert!(!present, "{:?} stale in {tiles:?}", k.reference);
                assert_eq!((s, generation), (slot, k.reference.generation()));
                let now = tiles.iter().find(|t| t.0 == slot).map(|t| t.1);
                assert_eq!(current, now);
                shared.stale.fetch_add(1, Ordering::Relaxed);
                false
            }
            Err(e) => panic!("{:?}: {e}", k.reference),
        }
    });
}

/// A snapshot and the one-piece mesh of its tiles, each with a query.
struct Pair<'a> {
    grid: &'a Map,
    snapshot: &'a NavMesh,
    query: &'a mut Query,
    whole: &'a NavMesh,
    on_whole: &'a mut Query,
}

impl Pair<'_> {
    /// Both path modes from `s` to `t`: the same status as on the one-piece mesh, the same
    /// exact-mode length, default-mode paths on walkable cells and no shorter than the
    /// exact one.
    fn compare_paths(&mut self, s: Vec3, t: Vec3, context: &str) {
        let Pair {
            grid,
            query,
            whole,
            on_whole,
            ..
        } = self;
        let exact = query.find_path(s, t, &optimal()).unwrap().to_owned_path();
        let expected = on_whole
            .find_path(s, t, &optimal())
            .unwrap()
            .to_owned_path();
        assert_eq!(exact.status, expected.status, "{context}");
        let up = whole.up_axis();
        let length = ground_length(up, &exact.corners);
        let expected_length = ground_length(up, &expected.corners);
        assert!(
            (length - expected_length).abs() <= 1e-4 * expected_length.max(1.0),
            "{context}: exact length {length} on the snapshot, {expected_length} on one piece"
        );
        let default = query.find_path(s, t, &PathOptions::default()).unwrap();
        assert_eq!(default.status, expected.status, "{context}");
        for corners in [default.corners, &exact.corners[..]] {
            assert!(
                corners.windows(2).all(|w| grid.clear(w[0], w[1])),
                "{context}: path off the walkable cells: {corners:?}"
            );
        }
        if expected.status == PathStatus::Complete {
            let default_length = ground_length(up, default.corners);
            assert!(
                default_length >= expected_length - 1e-4 * expected_length.max(1.0),
                "{context}: default length {default_length} < {expected_length}"
            );
        }
    }

    /// Nearest point, raycast and reachable polygons from `s` (towards `t`) against the
    /// one-piece mesh.
    fn compare_spatial(&mut self, s: Vec3, t: Vec3, context: &str) {
        let Pair {
            snapshot,
            query,
            whole,
            on_whole,
            ..
        } = self;
        // A point anywhere near the map, walkable or not.
        let probe = Vec3::new(s.x + 0.7 * (t.z - s.z), 0.3, t.z - 0.4 * (t.x - s.x));
        let (a, b) = (
            snapshot.nearest_point(probe, f32::INFINITY, None),
            whole.nearest_point(probe, f32::INFINITY, None),
        );
        let (a, b) = (a.expect(context), b.expect(context));
        assert!(
            (a.distance - b.distance).abs() <= 1e-4,
            "{context}: nearest point to {probe}: {a:?} on the snapshot, {b:?} on one piece"
        );
        assert!(near(
            snapshot.closest_point_on_polygon(a.polygon, a.point),
            a.point
        ));

        let filter = QueryFilter::default();
        let (a, b) = (
            snapshot.raycast(s, t, &filter).unwrap(),
            whole.raycast(s, t, &filter).unwrap(),
        );
        assert_eq!(a.hit.is_some(), b.hit.is_some(), "{context}: {a:?} {b:?}");
        assert!(
            (a.t - b.t).abs() <= 1e-4 && near(a.point, b.point),
            "{context}: raycast {a:?} on the snapshot, {b:?} on one piece"
        );

        // Everything reachable from s: the goal's polygon is reached on both or on neither.
        let reached = |query: &mut Query, mesh: &NavMesh| {
            let goal = mesh
                .nearest_point(t, 1.0, None)
                .expect("on the mesh")
                .polygon;
            let all = query
                .reachable_polygons(s, f32::INFINITY, &filter, 1.0)
                .unwrap();
            let hit = all.iter().any(|r| r.polygon == goal);
            (hit, mesh.island(all[0].polygon) == mesh.island(goal))
        };
        let (on_snapshot, on_one) = (reached(query, snapshot), reached(on_whole, whole));
        assert_eq!(
            on_snapshot.0, on_snapshot.1,
            "{context}: flood and islands differ"
        );
        assert_eq!(on_snapshot, on_one, "{context}: reachable");
    }
}

fn seconds() -> f64 {
    std::env::var("NAVSTAR_STRESS_SECONDS")
        .ok()
        .map_or(3.0, |s| s.parse().expect("NAVSTAR_STRESS_SECONDS: seconds"))
}

fn seed() -> u64 {
    std::env::var("NAVSTAR_STRESS_SEED").ok().map_or_else(
        || {
            let now = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH);
            now.unwrap().as_nanos() as u64
        },
        |s| s.parse().expect("NAVSTAR_STRESS_SEED: a number"),
    )
}

#[test]
fn queries_on_snapshots_answer_as_one_piece_while_tiles_change() {
    let (seconds, seed) = (seconds(), seed());
    println!("stress: seed {seed} (NAVSTAR_STRESS_SEED), {seconds} s (NAVSTAR_STRESS_SECONDS)");
    let layout = Layout::new(seed);
    let tile_meshes: Vec<WeakNavMesh> = layout
        .meshes
        .iter()
        .flatten()
        .flatten()
        .map(NavMesh::downgrade)
        .collect();
    let options = WorldOptions::default().with_max_tiles(MAX_TILES);
    let shared = Shared {
        layout,
        world: World::new(&options).unwrap(),
        registry: Mutex::default(),
        references: Mutex::default(),
        stop: AtomicBool::new(false),
        changes: AtomicU64::new(0),
        rounds: AtomicU64::new(0),
        resolved: AtomicU64::new(0),
        stale: AtomicU64::new(0),
    };
    let start = Instant::now();
    let snapshots: Vec<WeakNavMesh> = std::thread::scope(|scope| {
        let shared = &shared;
        let writers: Vec<_> = (0..WRITERS)
            .map(|w| scope.spawn(move || write(shared, w, seed)))
            .collect();
        let readers: Vec<_> = (0..READERS)
            .map(|r| scope.spawn(move || read(shared, r, seed)))
            .collect();
        std::thread::sleep(Duration::from_secs_f64(seconds));
        shared.stop.store(true, Ordering::Relaxed);
        writers.into_iter().for_each(|w| w.join().unwrap());
        readers
            .into_iter()
            .flat_map(|r| r.join().unwrap())
            .collect()
    });
    let count = |c: &AtomicU64| c.load(Ordering::Relaxed);
    let (changes, rounds) = (count(&shared.changes), count(&shared.rounds));
    let (resolved, stale) = (count(&shared.resolved), count(&shared.stale));
    println!(
        "stress: {changes} changes, {rounds} snapshots checked, {resolved} kept references resolved, {stale} stale, {} one-piece meshes, in {:.1} s",
        shared.references.lock().unwrap().len(),
        start.elapsed().as_secs_f64()
    );
    assert!(
        changes >= 10 && rounds >= 4,
        "too little done to check anything"
    );
    assert!(
        resolved > 0 && stale > 0,
        "kept references never checked both ways"
    );

    // No leak: once the world and the meshes of the test are dropped, no snapshot and
    // no tile mesh is alive.
    let Shared {
        layout,
        world,
        references,
        ..
    } = shared;
    let last = world.snapshot().downgrade();
    assert!(last.is_alive(), "the world holds its last snapshot");
    drop((world, references, layout));
    assert!(!last.is_alive(), "the last snapshot outlives the world");
    let alive = snapshots.iter().filter(|s| s.is_alive()).count();
    assert_eq!(
        alive,
        0,
        "{alive} of {} snapshots still alive",
        snapshots.len()
    );
    let alive = tile_meshes.iter().filter(|s| s.is_alive()).count();
    assert_eq!(alive, 0, "{alive} tile meshes still alive");
}
