//! Fuzzes obstacles of a world through the C ABI, against the same world driven through
//! the Rust API: random sequences of `navstar_world_add_obstacle`, `_move_obstacle` and
//! `_remove_obstacle` (polygons of any points, discs, boxes, height ranges, stale and
//! foreign references) on a small grid tile, with paths between.
//!
//! Checks, besides each call's status and message rules:
//! * a shape is refused (`NAVSTAR_ERROR_INVALID_ARGUMENT`, `*out_obstacle` zeroed)
//!   exactly when the Rust constructors refuse it; an accepted one gets the id the Rust
//!   world gives; a removed or never-made id is `NAVSTAR_ERROR_STALE_REFERENCE` in both;
//!   the obstacle counts agree;
//! * after every change the C snapshot has as many polygons as the Rust one, and every
//!   path is the same on both (status and corners, bit for bit);
//! * every path is valid on the world: each corner and 8 points along each segment lie
//!   on the snapshot (within a small tolerance), and a complete path ends at the goal;
//! * once every obstacle is removed the world has its original polygon count and gives
//!   the original answers to the paths asked;
//! * polygon references kept from every snapshot (C's `navstar_mesh_polygon_ref`) resolve
//!   alike in C and Rust on the latest, either to a polygon of the same corners or as
//!   stale (never to another polygon); a reference to a polygon of the tile as added
//!   stays valid while no change's region came near it (the polygons near a changed
//!   footprint, and again those near an obstacle near them).
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use navstar::ffi::{
    NAVSTAR_OBSTACLE_BOX, NAVSTAR_OBSTACLE_CIRCLE, NAVSTAR_OBSTACLE_POLYGON, NavstarObstacle,
    NavstarObstacleRef, navstar_obstacle_default, navstar_world_add_obstacle,
    navstar_world_move_obstacle, navstar_world_obstacle_count, navstar_world_options_default,
    navstar_world_remove_obstacle,
};
use navstar::glam::{Vec2, Vec3};
use navstar::{
    MeshOptions, NavMesh, Obstacle, ObstacleId, PathOptions, PathStatus, PolyRef, Query, TileGrid,
    World, WorldOptions,
};
use navstar_fuzz::world::{
    CWorld, STALE_REFERENCE, c_world_create, polygon_ref, polygon_shape, resolve,
};
use navstar_fuzz::{
    CMesh, INVALID_ARGUMENT, OK, c_find_path, c_grid_create, check_status_and_message,
};

#[derive(Arbitrary, Debug)]
struct Shape {
    kind: u8,
    x: u8,
    z: u8,
    a: u8,
    b: u8,
    angle: u8,
    points: Vec<(u8, u8)>,
    heights: Option<(i8, i8)>,
    nan: bool,
}

#[derive(Arbitrary, Debug)]
enum Op {
    Add(Shape),
    Move { pick: u8, stale: bool, shape: Shape },
    Remove { pick: u8, stale: bool },
    Foreign { pick: u8 },
    Path { from: (u8, u8), to: (u8, u8) },
}

#[derive(Arbitrary, Debug)]
struct Input {
    /// Walkable cells of an 8 x 8 grid of unit cells (bit per cell; 0 means all).
    cells: u64,
    ops: Vec<Op>,
}

const SIDE: u32 = 8;

/// A coordinate in the grid from a byte: 0 to 8 in steps of 1/32.
fn coord(v: u8) -> f32 {
    f32::from(v) / 32.0
}

impl Shape {
    /// The C struct and the Rust obstacle (or the Rust refusal). `points` must outlive
    /// the struct's use.
    fn both(
        &self,
        points: &mut Vec<f32>,
    ) -> (NavstarObstacle, Result<Obstacle, navstar::MeshError>) {
        let mut raw = navstar_obstacle_default();
        let (x, z) = (coord(self.x), coord(self.z));
        let size = |v: u8| f32::from(v) / 64.0;
        let rust = match self.kind % 3 {
            0 => {
                raw.shape = NAVSTAR_OBSTACLE_CIRCLE;
                raw.center = [x, z];
                raw.radius = if self.nan { f32::NAN } else { size(self.a) };
                Obstacle::circle(Vec2::new(x, z), raw.radius)
            }
            1 => {
                raw.shape = NAVSTAR_OBSTACLE_BOX;
                raw.center = [x, z];
                raw.half_extents = [size(self.a), size(self.b)];
                raw.angle = f32::from(self.angle) / 40.0;
                Obstacle::rotated_box(Vec2::new(x, z), Vec2::from(raw.half_extents), raw.angle)
            }
            _ => {
                raw.shape = NAVSTAR_OBSTACLE_POLYGON;
                points.clear();
                let mut footprint = Vec::new();
                for &(px, pz) in self.points.iter().take(300) {
                    let q = Vec2::new(coord(px), coord(pz));
                    points.extend([q.x, q.y]);
                    footprint.push(q);
                }
                raw.point_count = footprint.len() as u32;
                raw.points = points.as_ptr();
                if raw.point_count < 3 || footprint.len() > navstar::MAX_FOOTPRINT_CORNERS {
                    Err(navstar::MeshError::InvalidObstacle {
                        corner: None,
                        reason: "count",
                    })
                } else {
                    Obstacle::new(&footprint)
                }
            }
        };
        let rust = match self.heights {
            Some((low, high)) => {
                raw.bottom = f32::from(low) / 16.0;
                raw.top = f32::from(high) / 16.0;
                rust.and_then(|o| o.with_height_range(raw.bottom, raw.top))
            }
            None => rust,
        };
        (raw, rust)
    }
}

/// A ground box (low and high corners).
type GroundBox = (Vec2, Vec2);

/// A path asked before the obstacles: its ends and its answer (status and corners, as
/// bits).
type Asked = (Vec3, Vec3, (PathStatus, Vec<[u32; 3]>));

fn ground_box(points: impl Iterator<Item = Vec2>) -> GroundBox {
    points.fold(
        (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY)),
        |(a, b), q| (a.min(q), b.max(q)),
    )
}

/// Whether two ground boxes come within 1e-3 of each other.
fn boxes_meet(a: GroundBox, b: GroundBox) -> bool {
    let m = 1e-3;
    a.0.x <= b.1.x + m && a.0.y <= b.1.y + m && b.0.x <= a.1.x + m && b.0.y <= a.1.y + m
}

fn footprint_box(o: &Obstacle) -> GroundBox {
    ground_box(o.footprint().iter().copied())
}

/// At most this many references are kept (those of the tile as added always).
const MAX_KEPT: usize = 400;

/// Polygon references kept across the changes, checked after each.
struct Refs {
    /// Each reference and the shape of its polygon when it was made.
    kept: Vec<(u64, Vec<[u32; 3]>)>,
    /// The polygons of the tile as added: reference, ground box, and whether a change's
    /// region came near it since.
    originals: Vec<(u64, GroundBox, bool)>,
}

impl Refs {
    fn new(c: &CMesh, rust: &NavMesh) -> Refs {
        let mut refs = Refs {
            kept: Vec::new(),
            originals: Vec::new(),
        };
        for p in rust.polygon_ids() {
            let (status, reference) = polygon_ref(c, p);
            assert_eq!(status, OK);
            assert_eq!(rust.polygon_ref(p).map(|r| r.0), Ok(reference));
            let corners = rust.polygon_vertices(p).iter().map(|&v| {
                let q = rust.vertex(v);
                Vec2::new(q.x, q.z)
            });
            refs.originals.push((reference, ground_box(corners), false));
            refs.kept.push((reference, polygon_shape(c, p)));
        }
        refs
    }

    /// A change of the `changed` footprints, with the `live` obstacles after it: marks the
    /// polygons of the tile as added in its region.
    fn changed(&mut self, changed: &[Obstacle], live: &[Obstacle]) {
        let mut region: Vec<bool> = self
            .originals
            .iter()
            .map(|&(_, b, _)| changed.iter().any(|o| boxes_meet(footprint_box(o), b)))
            .collect();
        loop {
            let grown: Vec<bool> = (0..region.len())
                .map(|i| {
                    region[i]
                        || live.iter().any(|o| {
                            let f = footprint_box(o);
                            boxes_meet(f, self.originals[i].1)
                                && (0..region.len())
                                    .any(|j| region[j] && boxes_meet(f, self.originals[j].1))
                        })
                })
                .collect();
            if grown == region {
                break;
            }
            region = grown;
        }
        for (original, touched) in self.originals.iter_mut().zip(region) {
            original.2 |= touched;
        }
    }

    /// Resolves every kept reference on the latest snapshot, in C and in Rust, and keeps
    /// references to its polygons.
    fn check(&mut self, c: &CMesh, rust: &NavMesh) {
        for (reference, shape) in &self.kept {
            let (status, found) = resolve(c, *reference);
            match rust.resolve(PolyRef(*reference)) {
                Ok(p) => {
                    assert_eq!((status, found), (OK, p), "C and Rust resolve apart");
                    assert_eq!(
                        &polygon_shape(c, p),
                        shape,
                        "a reference found another polygon"
                    );
                }
                Err(error) => {
                    assert!(
                        matches!(error, navstar::QueryError::StaleReference { .. }),
                        "{error}"
                    );
                    assert_eq!(status, STALE_REFERENCE);
                    let untouched = self
                        .originals
                        .iter()
                        .any(|&(r, _, touched)| r == *reference && !touched);
                    assert!(
                        !untouched,
                        "a polygon no change came near is stale: {error}"
                    );
                }
            }
        }
        let room = MAX_KEPT.saturating_sub(self.kept.len());
        for p in c.polygon_ids().into_iter().take(room.min(48)) {
            let (status, reference) = polygon_ref(c, p);
            assert_eq!(status, OK);
            self.kept.push((reference, polygon_shape(c, p)));
        }
    }
}

fn c_add(
    world: &CWorld,
    raw: &NavstarObstacle,
) -> (navstar::ffi::NavstarStatus, NavstarObstacleRef) {
    let mut out = NavstarObstacleRef {
        world: 5,
        reserved: 5,
        id: 5,
    };
    // SAFETY: a live world; a whole struct whose points (a polygon's) are readable;
    // `out` is writable.
    let status = unsafe { navstar_world_add_obstacle(world.as_ptr(), raw, &mut out) };
    check_status_and_message("navstar_world_add_obstacle", status);
    if status != OK {
        assert_eq!(
            out,
            NavstarObstacleRef::default(),
            "*out_obstacle not zeroed"
        );
    }
    (status, out)
}

/// The answer of a path on both sides, checked equal and valid; returns the corners.
fn path(c: &CMesh, rust: &NavMesh, from: Vec3, to: Vec3) -> (PathStatus, Vec<[u32; 3]>) {
    let mut query = Query::new(rust);
    let options = PathOptions::default();
    let mut c_query = c.query();
    let answer = c_find_path(
        &mut c_query,
        Some(from.to_array()),
        Some(to.to_array()),
        None,
        64,
        false,
    );
    let bits = |points: &[Vec3]| -> Vec<[u32; 3]> {
        points
            .iter()
            .map(|p| p.to_array().map(f32::to_bits))
            .collect()
    };
    match query.find_path(from, to, &options) {
        Ok(path) => {
            let corners = path.corners.to_vec();
            assert_eq!(
                answer.status,
                navstar::ffi::NavstarStatus::from(path.status)
            );
            let n = (answer.count as usize).min(64);
            if n == corners.len() {
                assert_eq!(
                    bits(&answer.points[..n]),
                    bits(&corners),
                    "C and Rust paths differ"
                );
            }
            // Valid on the world: corners and points along segments are on the mesh.
            for w in corners.windows(2) {
                for k in 0..=8 {
                    let q = w[0].lerp(w[1], k as f32 / 8.0);
                    let near = rust
                        .nearest_point(q, 1.0, None)
                        .expect("a point of the path off the mesh");
                    assert!(
                        near.point.distance(q) < 1e-3,
                        "{q} is {} off the mesh",
                        near.point.distance(q)
                    );
                }
            }
            if path.status == PathStatus::Complete {
                let goal = rust.nearest_point(to, f32::INFINITY, None).unwrap().point;
                assert!(corners.last().unwrap().distance(goal) < 1e-3);
            }
            (path.status, bits(&corners))
        }
        Err(error) => {
            assert_eq!(answer.status, navstar::ffi::NavstarStatus::from(&error));
            (PathStatus::Partial, Vec::new())
        }
    }
}

fuzz_target!(|input: Input| {
    let cells: Vec<u8> = (0..SIDE * SIDE)
        .map(|i| u8::from(input.cells == 0 || input.cells >> i & 1 == 1))
        .collect();
    let walkable: Vec<bool> = cells.iter().map(|&c| c == 1).collect();
    let grid = TileGrid {
        width: SIDE,
        height: SIDE,
        walkable: &walkable,
        cell_size: 1.0,
        origin: Vec3::ZERO,
    };
    let Ok(tile) = NavMesh::from_grid(&grid, &MeshOptions::default()) else {
        return;
    };
    let (status, c_tile) = c_grid_create(Some(&cells), SIDE, SIDE, 1.0, Some(&[0.0; 3]), None);
    assert_eq!(status, OK);
    let c_tile = c_tile.unwrap();
    let rust = World::new(&WorldOptions::default()).unwrap();
    rust.add_tile(&tile).unwrap();
    let world = c_world_create(&navstar_world_options_default()).unwrap();
    assert_eq!(world.add(&c_tile).0, OK);
    let other = c_world_create(&navstar_world_options_default()).unwrap();
    let original = rust.snapshot().polygon_count();

    let mut live: Vec<NavstarObstacleRef> = Vec::new();
    let mut removed: Vec<NavstarObstacleRef> = Vec::new();
    let mut asked: Vec<Asked> = Vec::new();
    let mut points = Vec::new();
    let mut refs = Refs::new(&world.snapshot(), &rust.snapshot());
    for op in input.ops.iter().take(24) {
        let mut changed: Vec<Obstacle> = Vec::new();
        match op {
            Op::Add(shape) => {
                let (raw, obstacle) = shape.both(&mut points);
                let (status, id) = c_add(&world, &raw);
                match obstacle {
                    Err(_) => assert_eq!(status, INVALID_ARGUMENT),
                    Ok(obstacle) => match rust.add_obstacle(&obstacle) {
                        Ok(rust_id) => {
                            assert_eq!(status, OK);
                            assert_eq!(id.id, rust_id.0);
                            live.push(id);
                            changed.push(obstacle);
                        }
                        Err(error) => assert_eq!(status, navstar::ffi::NavstarStatus::from(&error)),
                    },
                }
            }
            Op::Move { pick, stale, shape } => {
                let target = if *stale || live.is_empty() {
                    removed.get(*pick as usize % removed.len().max(1)).copied()
                } else {
                    Some(live[*pick as usize % live.len()])
                };
                let Some(target) = target else { continue };
                let (raw, obstacle) = shape.both(&mut points);
                // SAFETY: a live world; a whole struct with readable points.
                let status = unsafe { navstar_world_move_obstacle(world.as_ptr(), target, &raw) };
                check_status_and_message("navstar_world_move_obstacle", status);
                let is_live = live.contains(&target);
                match obstacle {
                    _ if !is_live => assert_eq!(status, STALE_REFERENCE),
                    Err(_) => assert_eq!(status, INVALID_ARGUMENT),
                    Ok(obstacle) => match (
                        rust.obstacle(ObstacleId(target.id)),
                        rust.move_obstacle(ObstacleId(target.id), &obstacle),
                    ) {
                        (before, Ok(())) => {
                            assert_eq!(status, OK);
                            changed.extend([before.unwrap(), obstacle]);
                        }
                        (_, Err(error)) => {
                            assert_eq!(status, navstar::ffi::NavstarStatus::from(&error))
                        }
                    },
                }
            }
            Op::Remove { pick, stale } => {
                let (target, is_live) = if *stale || live.is_empty() {
                    match removed.get(*pick as usize % removed.len().max(1)) {
                        Some(&r) => (r, false),
                        None => continue,
                    }
                } else {
                    (live.swap_remove(*pick as usize % live.len()), true)
                };
                // SAFETY: a live world.
                let status = unsafe { navstar_world_remove_obstacle(world.as_ptr(), target) };
                check_status_and_message("navstar_world_remove_obstacle", status);
                if is_live {
                    assert_eq!(status, OK);
                    changed.push(rust.obstacle(ObstacleId(target.id)).unwrap());
                    rust.remove_obstacle(ObstacleId(target.id)).unwrap();
                    removed.push(target);
                } else {
                    assert_eq!(status, STALE_REFERENCE);
                }
            }
            Op::Foreign { pick } => {
                let Some(&target) = live.get(*pick as usize % live.len().max(1)) else {
                    continue;
                };
                // SAFETY: a live world (another one).
                let status = unsafe { navstar_world_remove_obstacle(other.as_ptr(), target) };
                check_status_and_message("navstar_world_remove_obstacle", status);
                assert_eq!(status, STALE_REFERENCE);
            }
            Op::Path { from, to } => {
                let at = |(a, b): (u8, u8)| Vec3::new(coord(a), 0.0, coord(b));
                let (from, to) = (at(*from), at(*to));
                let answer = path(&world.snapshot(), &rust.snapshot(), from, to);
                if live.is_empty() {
                    asked.push((from, to, answer));
                }
            }
        }
        // SAFETY: a live world.
        assert_eq!(
            unsafe { navstar_world_obstacle_count(world.as_ptr()) } as usize,
            rust.obstacle_count()
        );
        assert_eq!(
            world.snapshot().polygon_count(),
            rust.snapshot().polygon_count()
        );
        let live_now: Vec<Obstacle> = live
            .iter()
            .map(|r| rust.obstacle(ObstacleId(r.id)).unwrap())
            .collect();
        refs.changed(&changed, &live_now);
        refs.check(&world.snapshot(), &rust.snapshot());
    }
    // Everything removed: the world as it was.
    for target in live.drain(..) {
        // SAFETY: a live world.
        let status = unsafe { navstar_world_remove_obstacle(world.as_ptr(), target) };
        assert_eq!(status, OK);
        rust.remove_obstacle(ObstacleId(target.id)).unwrap();
    }
    assert_eq!(rust.snapshot().polygon_count(), original);
    assert_eq!(world.snapshot().polygon_count(), original);
    for (from, to, answer) in asked {
        assert_eq!(path(&world.snapshot(), &rust.snapshot(), from, to), answer);
    }
});
