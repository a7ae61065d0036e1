//! The incremental path on one big tile: a world carves again only the region of each
//! change and keeps the other polygons (pieces included) as they are. After every step
//! of random adds, moves and removes, its snapshot must equal a carve from scratch of
//! the room with the obstacles live at that step (`NavMesh::with_obstacles`): the same
//! walkable area, the same number of islands and the same island relations between
//! random points, and the same exact-mode lengths between them.

use glam::{Vec2, Vec3};
use navstar::{NavMesh, Obstacle, PathMode, PathOptions, PathStatus, Query, World, WorldOptions};
use proptest::prelude::*;

use crate::common::proptest_config;
use crate::refs::area;
use crate::{room, v};

/// A random obstacle inside a `size` room: `(kind, x, y, a, b, angle)` in unit fractions.
fn obstacle(kind: bool, x: f32, y: f32, a: f32, b: f32, angle: f32, size: Vec2) -> Obstacle {
    let center = Vec2::new(x * size.x, y * size.y);
    if kind {
        Obstacle::circle(center, 0.2 + a * 1.2).unwrap()
    } else {
        Obstacle::rotated_box(center, Vec2::new(0.1 + a, 0.1 + b), angle * 3.0).unwrap()
    }
}

/// The polygon under ground point `p` of `mesh`, when `p` is on it.
fn on(mesh: &NavMesh, p: Vec3) -> Option<u32> {
    mesh.nearest_point(p, 1e-4, None)
        .filter(|n| n.point.distance(p) < 1e-5)
        .map(|n| n.polygon)
}

/// Asserts that `world`'s snapshot equals `room` carved from scratch by `live`.
fn same_as_from_scratch(
    world: &World,
    room: &NavMesh,
    live: &[Obstacle],
    ends: &[(f32, f32, f32, f32)],
    size: Vec2,
) -> Result<(), TestCaseError> {
    let snapshot = world.snapshot();
    let scratch = match room.with_obstacles(live) {
        Ok(mesh) => mesh,
        // Everything covered: the world keeps what it can; nothing to compare.
        Err(navstar::MeshError::CarveFailed(_)) => return Ok(()),
        Err(e) => return Err(TestCaseError::fail(format!("from scratch: {e}"))),
    };
    let (a, b) = (area(&snapshot), area(&scratch));
    prop_assert!((a - b).abs() <= 1e-4 * b.max(1.0), "area {} vs {}", a, b);
    prop_assert_eq!(snapshot.island_count(), scratch.island_count());
    let options = PathOptions::default().with_mode(PathMode::Optimal);
    let (mut q1, mut q2) = (Query::new(&snapshot), Query::new(&scratch));
    for &(sx, sy, tx, ty) in ends {
        let (s, t) = (v(sx * size.x, sy * size.y), v(tx * size.x, ty * size.y));
        let (Some(s1), Some(t1), Some(s2), Some(t2)) = (
            on(&snapshot, s),
            on(&snapshot, t),
            on(&scratch, s),
            on(&scratch, t),
        ) else {
            continue; // an end on no polygon (or on a cut's boundary) of one of them
        };
        let joined = snapshot.island(s1) == snapshot.island(t1);
        prop_assert_eq!(
            joined,
            scratch.island(s2) == scratch.island(t2),
            "{} -> {}",
            s,
            t
        );
        let (p1, p2) = (
            q1.find_path(s, t, &options).unwrap(),
            q2.find_path(s, t, &options).unwrap(),
        );
        prop_assert_eq!(p1.status, p2.status, "{} -> {}", s, t);
        if p1.status == PathStatus::Complete {
            let (l1, l2) = (p1.length(), p2.length());
            prop_assert!(
                (l1 - l2).abs() <= 1e-4 * l2.max(1.0),
                "{} -> {}: {} vs {}",
                s,
                t,
                l1,
                l2
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(proptest_config(48))]
    #[test]
    fn each_change_equals_a_carve_from_scratch_on_one_big_tile(
        width in 8u32..24, depth in 8u32..24, cols in 4u32..14, rows in 4u32..14,
        steps in prop::collection::vec(
            (0u8..4, any::<bool>(), 0.0f32..1.0, 0.0f32..1.0, 0.0f32..1.0, 0.0f32..1.0, 0.0f32..1.0, any::<prop::sample::Index>()),
            1..10),
        ends in prop::collection::vec((0.0f32..1.0, 0.0f32..1.0, 0.0f32..1.0, 0.0f32..1.0), 8),
    ) {
        let size = Vec2::new(width as f32, depth as f32);
        let mesh = room(size.x, size.y, cols, rows);
        let world = World::new(&WorldOptions::default()).unwrap();
        world.add_tile(&mesh).unwrap();
        let mut live: Vec<(navstar::ObstacleId, Obstacle)> = Vec::new();
        for &(op, kind, x, y, a, b, angle, pick) in &steps {
            let shape = obstacle(kind, x, y, a, b, angle, size);
            match op {
                // Remove or move one of the live obstacles (when there is one).
                0 if !live.is_empty() => {
                    let (id, _) = live.remove(pick.index(live.len()));
                    world.remove_obstacle(id).unwrap();
                }
                1 if !live.is_empty() => {
                    let i = pick.index(live.len());
                    if world.move_obstacle(live[i].0, &shape).is_err() {
                        continue; // a cut that cannot be split: the world is unchanged
                    }
                    live[i].1 = shape;
                }
                _ => match world.add_obstacle(&shape) {
                    Ok(id) => live.push((id, shape)),
                    Err(_) => continue, // refused: the world is unchanged
                },
            }
            let shapes: Vec<Obstacle> = live.iter().map(|(_, o)| o.clone()).collect();
            same_as_from_scratch(&world, &mesh, &shapes, &ends, size)?;
        }
    }
}

/// A `width` x `depth` room (Y up) of `cols` x `rows` cells, each cut into two triangles
/// along the diagonal `flip` picks: a mesh whose merged copy merges much, so that the
/// copy kept from the present tile's matters.
fn triangle_room(width: f32, depth: f32, cols: u32, rows: u32, flip: &[bool]) -> NavMesh {
    let mut vertices = Vec::new();
    for j in 0..=rows {
        for i in 0..=cols {
            vertices.push(v(
                width * i as f32 / cols as f32,
                depth * j as f32 / rows as f32,
            ));
        }
    }
    let at = |i: u32, j: u32| j * (cols + 1) + i;
    let mut indices = Vec::new();
    for j in 0..rows {
        for i in 0..cols {
            let (a, b, c, d) = (at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1));
            if flip[((j * cols + i) as usize) % flip.len()] {
                indices.extend([a, b, c, a, c, d]);
            } else {
                indices.extend([a, b, d, b, c, d]);
            }
        }
    }
    NavMesh::from_triangles(&vertices, &indices, &navstar::MeshOptions::default()).unwrap()
}

proptest! {
    #![proptest_config(proptest_config(24))]
    /// Discs added one by one, then removed in another order, on one tile of triangles:
    /// after every change the tile (built from the present tile's tables, its merged
    /// copy and polygon index kept where its polygons are) equals a carve from scratch.
    #[test]
    fn discs_added_then_removed_on_a_tile_of_triangles_equal_a_carve_from_scratch(
        cols in 6u32..16, rows in 6u32..16,
        flip in prop::collection::vec(any::<bool>(), 1..16),
        discs in prop::collection::vec((0.0f32..1.0, 0.0f32..1.0, 0.0f32..1.0), 1..8),
        order in prop::collection::vec(any::<prop::sample::Index>(), 8),
        ends in prop::collection::vec((0.0f32..1.0, 0.0f32..1.0, 0.0f32..1.0, 0.0f32..1.0), 6),
    ) {
        let mut order = order.iter().cycle();
        let pick = |live: usize| order.next().unwrap().index(live);
        discs_then_removed(cols, rows, &flip, &discs, pick, &ends)?;
    }
}

/// The case of the property test above: `discs` (unit fractions of the room: centre and
/// radius) added one by one to a `cols` x `rows` tile of triangles split along `flip`'s
/// diagonals, then removed one by one (`pick` of the number live: which to remove); after every change the world's tile
/// must equal a carve from scratch, with `ends` as in [`same_as_from_scratch`].
fn discs_then_removed(
    cols: u32,
    rows: u32,
    flip: &[bool],
    discs: &[(f32, f32, f32)],
    mut pick: impl FnMut(usize) -> usize,
    ends: &[(f32, f32, f32, f32)],
) -> Result<(), TestCaseError> {
    let size = Vec2::new(cols as f32 * 1.5, rows as f32 * 1.5);
    let mesh = triangle_room(size.x, size.y, cols, rows, flip);
    let world = World::new(&WorldOptions::default()).unwrap();
    world.add_tile(&mesh).unwrap();
    let mut live: Vec<(navstar::ObstacleId, Obstacle)> = Vec::new();
    for &(x, y, r) in discs {
        let disc = obstacle(true, x, y, r * 0.8, 0.0, 0.0, size);
        if let Ok(id) = world.add_obstacle(&disc) {
            live.push((id, disc));
        }
        let shapes: Vec<Obstacle> = live.iter().map(|(_, o)| o.clone()).collect();
        same_as_from_scratch(&world, &mesh, &shapes, ends, size)?;
    }
    while !live.is_empty() {
        let i = pick(live.len());
        let (id, _) = live.remove(i);
        world.remove_obstacle(id).unwrap();
        let shapes: Vec<Obstacle> = live.iter().map(|(_, o)| o.clone()).collect();
        same_as_from_scratch(&world, &mesh, &shapes, ends, size)?;
    }
    // The last one gone: the very mesh as added.
    prop_assert_eq!(world.snapshot().polygon_count(), mesh.polygon_count());
    Ok(())
}

/// A case of the discs property test: columns, rows, diagonals, two discs, and the
/// ends of the one pair of points it checks besides five at the corner.
type FoundCase = (
    u32,
    u32,
    &'static [bool],
    [(f32, f32, f32); 2],
    (f32, f32, f32, f32),
);

/// Cases the property test above found. A disc's corner a hair (about `1e-5`) off the
/// diagonal of a split cell leaves a sliver triangle between that diagonal and the disc's
/// side; the merge of the pieces left it out when a second disc far away made the pieces'
/// largest coordinate larger, and the polygons on either side of the diagonal were no
/// longer joined (a carve from scratch split off an island, or its paths went round),
/// while the world, which kept the first disc's pieces, had them joined.
#[test]
fn a_sliver_by_a_diagonal_stays_when_a_disc_is_cut_far_away() {
    let none = [(0.0, 0.0, 0.0, 0.0); 5];
    let cases: [FoundCase; 7] = [
        (
            12,
            7,
            &[true],
            [(0.03474947, 0.112324774, 0.48853144), (0.6158973, 0.0, 0.0)],
            (0.0, 0.0, 0.0, 0.0),
        ),
        (
            12,
            13,
            &[false],
            [
                (0.3859607, 0.0036371488, 0.21025087),
                (0.70343983, 0.0, 0.0),
            ],
            (0.0, 0.0, 0.0, 0.0),
        ),
        (
            6,
            12,
            &[false],
            [(0.0, 0.67365193, 0.0), (0.10695186, 0.20065777, 0.91677475)],
            (0.0, 0.0, 0.0, 0.0),
        ),
        (
            9,
            13,
            &[false],
            [(0.99898344, 0.04170292, 0.38049293), (0.0, 0.9970655, 0.0)],
            (0.0, 0.0, 0.0, 0.0),
        ),
        (
            14,
            6,
            &[false],
            [(0.76336306, 0.0, 0.0), (0.2816837, 0.5253438, 0.23498379)],
            (0.99509555, 0.0, 0.0, 0.5266843),
        ),
        (
            15,
            6,
            &[false, false, true, false, false, false, false],
            [(0.38917902, 0.88845664, 0.753386), (0.58854014, 0.0, 0.0)],
            (0.4034579, 0.7050206, 0.0, 0.0),
        ),
        (
            11,
            13,
            &[true],
            [(0.0, 0.9636865, 0.0), (0.41582632, 0.4776057, 0.5039779)],
            (0.0, 0.6776433, 0.9970337, 0.31434864),
        ),
    ];
    for (i, (cols, rows, flip, discs, end)) in cases.into_iter().enumerate() {
        let mut ends = none.to_vec();
        ends.push(end);
        if let Err(e) = discs_then_removed(cols, rows, flip, &discs, |_| 0, &ends) {
            panic!("case {i}: {e}");
        }
    }
}

/// A tile carved again and again keeps the present tile's vertex numbers, so vertices of
/// pieces that went stay unused in it for a while; they are dropped before they outnumber
/// twice the used new vertices plus 1024, and the tile still equals a carve from scratch.
#[test]
fn vertices_of_pieces_that_went_do_not_pile_up() {
    let size = Vec2::new(20.0, 20.0);
    let mesh = room(size.x, size.y, 10, 10);
    let original = mesh.vertex_count() as usize;
    let world = World::new(&WorldOptions::default()).unwrap();
    world.add_tile(&mesh).unwrap();
    // One obstacle stays (the tile is never given back whole), one moves round.
    let fixed = Obstacle::circle(Vec2::new(2.0, 2.0), 0.7).unwrap();
    world.add_obstacle(&fixed).unwrap();
    let disc = |i: u32| {
        let t = i as f32 * 0.61;
        Obstacle::circle(Vec2::new(10.0 + 6.0 * t.cos(), 10.0 + 6.0 * t.sin()), 1.3).unwrap()
    };
    let moving = world.add_obstacle(&disc(0)).unwrap();
    let (mut dropped, mut last) = (false, world.snapshot().vertex_count());
    for i in 1..120 {
        world.move_obstacle(moving, &disc(i)).unwrap();
        let snapshot = world.snapshot();
        let count = snapshot.vertex_count() as usize;
        let mut used = vec![false; count];
        for p in snapshot.polygon_ids() {
            for &v in snapshot.polygon_vertices(p) {
                used[v as usize] = true;
            }
        }
        let used_new = used[original..].iter().filter(|&&u| u).count();
        assert!(
            count - original <= 2 * used_new + 1024,
            "step {i}: {count} vertices, {used_new} new ones used"
        );
        dropped |= (count as u32) < last;
        last = count as u32;
    }
    assert!(dropped, "the unused vertices were never dropped");
    let live = [fixed, disc(119)];
    let ends = [(0.1, 0.1, 0.9, 0.9), (0.5, 0.05, 0.5, 0.95)];
    same_as_from_scratch(&world, &mesh, &live, &ends, size).unwrap();
}
