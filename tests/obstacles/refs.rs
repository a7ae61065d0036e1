//! Polygon references across obstacle changes (issue 18): a reference to a polygon the
//! change does not touch resolves to that very polygon (same corners) in the new
//! snapshot, even when the tile is renumbered; a reference to a polygon that was cut, or
//! to a piece that is gone, is stale, never another polygon.

use glam::{Vec2, Vec3};
use navstar::{NavMesh, Obstacle, ObstacleId, PolyRef, QueryError, World, WorldOptions};
use proptest::prelude::*;

use crate::common::proptest_config;
use crate::{room, v};

/// The corner positions of polygon `p` of `mesh`, counter-clockwise from the smallest
/// (a carved tile built again may start a kept polygon at another corner).
fn corners(mesh: &NavMesh, p: u32) -> Vec<Vec3> {
    let mut c: Vec<Vec3> = mesh
        .polygon_vertices(p)
        .iter()
        .map(|&c| mesh.vertex(c))
        .collect();
    let bits = |q: &Vec3| q.to_array().map(f32::to_bits);
    if let Some(first) = (0..c.len()).min_by_key(|&i| bits(&c[i])) {
        c.rotate_left(first);
    }
    c
}

/// The ground area of `mesh` (shoelace over each polygon's corners).
pub(crate) fn area(mesh: &NavMesh) -> f64 {
    mesh.polygon_ids()
        .map(|p| {
            let c = corners(mesh, p);
            let n = c.len();
            (0..n)
                .map(|i| {
                    let (a, b) = (c[i], c[(i + 1) % n]);
                    f64::from(a.x) * f64::from(b.z) - f64::from(b.x) * f64::from(a.z)
                })
                .sum::<f64>()
                .abs()
                / 2.0
        })
        .sum()
}

/// The polygon of `mesh` under ground point `(x, z)`.
fn at(mesh: &NavMesh, x: f32, z: f32) -> u32 {
    mesh.nearest_point(v(x, z), 0.01, None).unwrap().polygon
}

/// A world of one tile, `tile`.
fn world_with(tile: &NavMesh) -> World {
    let world = World::new(&WorldOptions::default()).unwrap();
    world.add_tile(tile).unwrap();
    world
}

/// Whether `error` is a stale reference.
fn is_stale(error: &QueryError) -> bool {
    matches!(error, QueryError::StaleReference { .. })
}

#[test]
fn a_disc_in_one_room_leaves_the_other_rooms_references_alone() {
    // Three 4 x 4 rooms in a row, one polygon each; a disc in the first.
    let tile = room(12.0, 4.0, 3, 1);
    let world = world_with(&tile);
    let before = world.snapshot();
    let refs: Vec<PolyRef> = (0..3).map(|p| before.polygon_ref(p).unwrap()).collect();
    let disc = world
        .add_obstacle(&Obstacle::circle(Vec2::new(2.0, 2.0), 1.0).unwrap())
        .unwrap();
    let carved = world.snapshot();
    assert!(carved.polygon_count() > 3);
    // The cut room is stale; the others are the same polygons.
    assert!(is_stale(&carved.resolve(refs[0]).unwrap_err()));
    for p in [1, 2] {
        let now = carved.resolve(refs[p as usize]).unwrap();
        assert_eq!(corners(&carved, now), corners(&before, p));
    }
    // References made now work, and a piece's reference too.
    let piece = carved.polygon_ref(at(&carved, 0.5, 0.5)).unwrap();
    let far = carved.polygon_ref(at(&carved, 10.0, 2.0)).unwrap();
    assert_eq!(carved.resolve(far), Ok(at(&carved, 10.0, 2.0)));
    // A second disc in the last room: the first room's pieces and the middle room stay.
    world
        .add_obstacle(&Obstacle::circle(Vec2::new(10.0, 2.0), 1.0).unwrap())
        .unwrap();
    let twice = world.snapshot();
    let kept = twice.resolve(piece).unwrap();
    assert_eq!(corners(&twice, kept), corners(&carved, piece.polygon()));
    assert!(is_stale(&twice.resolve(far).unwrap_err()));
    let middle = twice.resolve(refs[1]).unwrap();
    assert_eq!(corners(&twice, middle), corners(&before, 1));
    // The first disc goes: its room comes back whole. Its pieces are stale, and so is the
    // reference to the room made before the disc came (its number named a piece since):
    // the room given back is a new polygon for references.
    world.remove_obstacle(disc).unwrap();
    let after = world.snapshot();
    assert!(is_stale(&after.resolve(piece).unwrap_err()));
    assert!(is_stale(&after.resolve(refs[0]).unwrap_err()));
    assert_eq!(
        corners(&after, after.resolve(refs[1]).unwrap()),
        corners(&before, 1)
    );
    // A reference made after the change works.
    let back = after.polygon_ref(at(&after, 2.0, 2.0)).unwrap();
    assert_eq!(
        corners(&after, after.resolve(back).unwrap()),
        corners(&before, 0)
    );
}

#[test]
fn a_renumbered_polygon_is_followed() {
    // Four 4 x 4 rooms in a row; a box over the second room reaching into its neighbours:
    // the tile is left with 3 polygons, so the last room moves down from number 3.
    let tile = room(16.0, 4.0, 4, 1);
    let world = world_with(&tile);
    let before = world.snapshot();
    let refs: Vec<PolyRef> = (0..4).map(|p| before.polygon_ref(p).unwrap()).collect();
    let crate_box = Obstacle::rotated_box(Vec2::new(6.0, 2.0), Vec2::new(2.1, 2.5), 0.0).unwrap();
    let id = world.add_obstacle(&crate_box).unwrap();
    let carved = world.snapshot();
    assert_eq!(carved.polygon_count(), 3);
    let last = carved.resolve(refs[3]).unwrap();
    assert_ne!(last, 3);
    assert_eq!(corners(&carved, last), corners(&before, 3));
    for (p, &cut) in refs.iter().enumerate().take(3) {
        assert!(is_stale(&carved.resolve(cut).unwrap_err()), "polygon {p}");
    }
    // A reference made now to the moved room, and the old one, both survive the box's
    // removal (the room moves home, number 3).
    let now = carved.polygon_ref(last).unwrap();
    world.remove_obstacle(id).unwrap();
    let after = world.snapshot();
    assert_eq!(after.resolve(refs[3]), Ok(3));
    assert_eq!(after.resolve(now), Ok(3));
    assert_eq!(corners(&after, 3), corners(&before, 3));
}

#[test]
fn replacing_or_removing_the_tile_makes_every_reference_stale() {
    let tile = room(8.0, 4.0, 2, 1);
    let world = world_with(&tile);
    world
        .add_obstacle(&Obstacle::circle(Vec2::new(2.0, 2.0), 1.0).unwrap())
        .unwrap();
    let carved = world.snapshot();
    let refs: Vec<PolyRef> = carved
        .polygon_ids()
        .map(|p| carved.polygon_ref(p).unwrap())
        .collect();
    let (r, _) = world.tiles()[0].clone();
    let new = world.replace_tile(r, &tile).unwrap();
    let replaced = world.snapshot();
    assert!(
        refs.iter()
            .all(|&x| is_stale(&replaced.resolve(x).unwrap_err()))
    );
    let kept = replaced.polygon_ref(at(&replaced, 6.0, 2.0)).unwrap();
    world.remove_tile(new).unwrap();
    assert!(is_stale(&world.snapshot().resolve(kept).unwrap_err()));
}

/// A random obstacle inside a `size` room: `(kind, x, y, a, b, angle)` in unit fractions.
fn obstacle(kind: bool, x: f32, y: f32, a: f32, b: f32, angle: f32, size: Vec2) -> Obstacle {
    let center = Vec2::new(x * size.x, y * size.y);
    if kind {
        Obstacle::circle(center, 0.2 + a * 1.5).unwrap()
    } else {
        Obstacle::rotated_box(center, Vec2::new(0.1 + a * 1.5, 0.1 + b * 1.5), angle * 3.0).unwrap()
    }
}

/// Whether the footprint of `obstacle` comes within a margin of polygon `corners` (ground
/// boxes): what a change may touch.
fn near(obstacle: &Obstacle, corners: &[Vec3]) -> bool {
    let (lo, hi) = obstacle.footprint().iter().fold(
        (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY)),
        |(a, b), &q| (a.min(q), b.max(q)),
    );
    let (plo, phi) = corners.iter().fold(
        (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY)),
        |(a, b), q| (a.min(Vec2::new(q.x, q.z)), b.max(Vec2::new(q.x, q.z))),
    );
    let m = 1e-3;
    lo.x <= phi.x + m && lo.y <= phi.y + m && hi.x >= plo.x - m && hi.y >= plo.y - m
}

/// The room polygon (a `cols` x `rows` grid cell of a `size` room) holding the polygon of
/// `corners`: the polygon it was cut from.
fn cell_of(corners: &[Vec3], size: Vec2, cols: u32, rows: u32) -> Vec<Vec3> {
    let centre = corners.iter().copied().sum::<Vec3>() / corners.len() as f32;
    let step = size / Vec2::new(cols as f32, rows as f32);
    let i = (centre.x / step.x).floor().clamp(0.0, cols as f32 - 1.0);
    let j = (centre.z / step.y).floor().clamp(0.0, rows as f32 - 1.0);
    let (x0, z0) = (i * step.x, j * step.y);
    vec![
        v(x0, z0),
        v(x0 + step.x, z0),
        v(x0 + step.x, z0 + step.y),
        v(x0, z0 + step.y),
    ]
}

/// A reference kept by the test: made on some snapshot, with its polygon's corners then.
struct Kept {
    reference: PolyRef,
    corners: Vec<Vec3>,
    /// The room polygon it was cut from (or is).
    cell: Vec<Vec3>,
    /// Whether a change since it was made came near that room polygon: the change may
    /// cut its pieces again.
    touched: bool,
}

proptest! {
    #![proptest_config(proptest_config(64))]

    /// After each add, move and remove, every reference kept from any earlier snapshot
    /// either resolves to a polygon with identical corners or is stale, and it is stale
    /// only if the room polygon it was cut from was in the region of a change since (near
    /// a changed footprint, or near an obstacle near the region: the change cut that
    /// polygon again, or gave it back); the rooms' polygons no obstacle ever came near
    /// always resolve.
    #[test]
    fn kept_references_name_their_polygon_or_are_stale(
        cols in 1u32..5,
        rows in 1u32..4,
        width in 4.0f32..14.0,
        depth in 4.0f32..10.0,
        steps in prop::collection::vec(
            (0u8..3, any::<u8>(), (any::<bool>(), 0.0f32..1.0, 0.0f32..1.0, 0.0f32..1.0, 0.0f32..1.0, 0.0f32..1.0)),
            1..7,
        ),
    ) {
        let size = Vec2::new(width, depth);
        let world = world_with(&room(width, depth, cols, rows));
        let first = world.snapshot();
        let mut kept: Vec<Kept> = first
            .polygon_ids()
            .map(|p| {
                let c = corners(&first, p);
                Kept { reference: first.polygon_ref(p).unwrap(), cell: cell_of(&c, size, cols, rows), corners: c, touched: false }
            })
            .collect();
        // The first snapshot's polygons and whether any obstacle ever came near each.
        let mut rooms: Vec<(PolyRef, Vec<Vec3>, bool)> =
            kept.iter().map(|k| (k.reference, k.corners.clone(), false)).collect();
        let mut live: Vec<(ObstacleId, Obstacle)> = Vec::new();
        for (op, pick, (kind, x, y, a, b, angle)) in steps {
            let shape = obstacle(kind, x, y, a, b, angle, size);
            // The footprints the change moves: the new one and the one it replaces.
            let mut changed = vec![shape.clone()];
            let done = match op {
                0 => world.add_obstacle(&shape).map(|id| live.push((id, shape.clone()))),
                _ if live.is_empty() => continue,
                1 => {
                    let i = usize::from(pick) % live.len();
                    changed.push(live[i].1.clone());
                    world.move_obstacle(live[i].0, &shape).map(|()| live[i].1 = shape.clone())
                }
                _ => {
                    let i = usize::from(pick) % live.len();
                    changed = vec![live[i].1.clone()];
                    world.remove_obstacle(live[i].0).map(|()| {
                        live.remove(i);
                    })
                }
            };
            // The room polygons the change cuts again: those near a changed footprint and,
            // again and again, those near an obstacle near one of them.
            let cells: Vec<Vec<Vec3>> = (0..rows)
                .flat_map(|j| (0..cols).map(move |i| (i, j)))
                .map(|(i, j)| {
                    let step = size / Vec2::new(cols as f32, rows as f32);
                    let centre = Vec2::new((i as f32 + 0.5) * step.x, (j as f32 + 0.5) * step.y);
                    cell_of(&[v(centre.x, centre.y)], size, cols, rows)
                })
                .collect();
            let mut region: Vec<bool> = cells
                .iter()
                .map(|c| done.is_ok() && changed.iter().any(|o| near(o, c)))
                .collect();
            loop {
                let grown: Vec<bool> = cells
                    .iter()
                    .enumerate()
                    .map(|(c, cell)| {
                        region[c]
                            || live.iter().any(|(_, o)| {
                                near(o, cell)
                                    && cells.iter().zip(&region).any(|(other, &r)| r && near(o, other))
                            })
                    })
                    .collect();
                if grown == region {
                    break;
                }
                region = grown;
            }
            let touched = |c: &[Vec3]| cells.iter().zip(&region).any(|(cell, &r)| r && cell == c);
            let now = world.snapshot();
            // The pieces kept and those cut again make the mesh a carve from scratch makes.
            let shapes: Vec<Obstacle> = live.iter().map(|(_, o)| o.clone()).collect();
            if let Ok(fresh) = room(width, depth, cols, rows).with_obstacles(&shapes) {
                prop_assert_eq!(now.island_count(), fresh.island_count());
                let (a, b) = (area(&now), area(&fresh));
                prop_assert!((a - b).abs() <= 1e-4 * b.max(1.0), "area {} against {}", a, b);
            }
            for k in &mut kept {
                k.touched |= touched(&k.cell);
                match now.resolve(k.reference) {
                    Ok(p) => prop_assert_eq!(corners(&now, p), k.corners.clone()),
                    Err(error) => {
                        prop_assert!(is_stale(&error), "{error}");
                        prop_assert!(k.touched, "stale, but no change came near {:?}", k.corners);
                    }
                }
            }
            for (reference, c, ever) in &mut rooms {
                *ever |= changed.iter().any(|o| near(o, c));
                if !*ever {
                    let p = now.resolve(*reference);
                    prop_assert!(p.is_ok(), "an untouched room polygon is stale: {p:?}");
                }
            }
            kept.extend(now.polygon_ids().map(|p| {
                let c = corners(&now, p);
                Kept {
                    reference: now.polygon_ref(p).unwrap(),
                    cell: cell_of(&c, size, cols, rows),
                    corners: c,
                    touched: false,
                }
            }));
        }
    }
}

#[test]
fn a_saved_world_refuses_the_references_made_on_carved_polygons() {
    // Two tiles; a disc carves the first. Obstacles are not saved: the loaded world has
    // the first tile as added, so every reference made on its carved polygons is stale
    // there (never another polygon), while the second tile's references still resolve.
    let world = World::new(&WorldOptions::default()).unwrap();
    world.add_tile(&room(8.0, 4.0, 2, 1)).unwrap();
    let other = NavMesh::from_polygons(
        &[v(8.0, 0.0), v(12.0, 0.0), v(12.0, 4.0), v(8.0, 4.0)],
        &[0, 1, 2, 3],
        &[4],
        &navstar::MeshOptions::default(),
    )
    .unwrap();
    world.add_tile(&other).unwrap();
    world
        .add_obstacle(&Obstacle::circle(Vec2::new(2.0, 2.0), 1.0).unwrap())
        .unwrap();
    let carved = world.snapshot();
    let refs: Vec<PolyRef> = carved
        .polygon_ids()
        .map(|p| carved.polygon_ref(p).unwrap())
        .collect();
    let far = carved.polygon_ref(at(&carved, 10.0, 2.0)).unwrap();
    let saved = world.to_bytes();
    let reloaded = World::from_bytes(&saved).unwrap();
    let loaded = reloaded.snapshot();
    for &r in refs.iter().filter(|r| r.polygon() >> 22 == 0) {
        assert!(is_stale(&loaded.resolve(r).unwrap_err()));
    }
    let found = loaded.resolve(far).unwrap();
    assert_eq!(corners(&loaded, found), corners(&carved, far.polygon()));
    // The loaded world saves to the same bytes, and again after another round: the
    // carved slot moved on once, when it was saved carved.
    let again = reloaded.to_bytes();
    assert_eq!(again, saved);
    assert_eq!(World::from_bytes(&again).unwrap().to_bytes(), saved);
    // References made on the loaded world resolve after one more round.
    let kept = loaded.polygon_ref(at(&loaded, 2.0, 0.5)).unwrap();
    let next = World::from_bytes(&again).unwrap().snapshot();
    let found = next.resolve(kept).unwrap();
    assert_eq!(corners(&next, found), corners(&loaded, kept.polygon()));
}

#[test]
fn a_world_saved_after_its_obstacles_went_saves_the_same_bytes_when_loaded() {
    let world = world_with(&room(8.0, 4.0, 2, 1));
    let id = world
        .add_obstacle(&Obstacle::circle(Vec2::new(2.0, 2.0), 1.0).unwrap())
        .unwrap();
    world.remove_obstacle(id).unwrap();
    let snapshot = world.snapshot();
    let kept = snapshot.polygon_ref(at(&snapshot, 2.0, 2.0)).unwrap();
    let saved = world.to_bytes();
    let loaded = World::from_bytes(&saved).unwrap();
    assert_eq!(loaded.to_bytes(), saved);
    // The tile is as added on both sides: a reference made after the obstacle went
    // names the same polygon in the loaded world.
    let after = loaded.snapshot();
    let found = after.resolve(kept).unwrap();
    assert_eq!(corners(&after, found), corners(&snapshot, kept.polygon()));
}
