//! Known answers of obstacles on hand-made meshes: a disc walked round in a room, a box
//! that closes a corridor, heights that leave a floor alone, and bad input named.

use super::*;
use crate::navigator::Settings;
use navstar::glam::{Vec3, Vec3Swizzles};

use crate::test_meshes::room;

/// A corridor `[0, 5] x [0, 1]` of five unit squares.
fn corridor() -> Navigator {
    let mut vertices = Vec::new();
    for z in [0.0, 1.0] {
        for x in 0..=5 {
            vertices.push([x as f32, 0.0, z]);
        }
    }
    let squares: Vec<[i32; 4]> = (0..5).map(|i| [i, i + 1, i + 7, i + 6]).collect();
    let mut nav = Navigator::default();
    nav.build(
        vertices,
        squares.iter().map(|s| &s[..]),
        &Settings::default(),
    )
    .unwrap();
    nav
}

fn circle(x: f32, z: f32, radius: f32) -> ObstacleShape {
    ObstacleShape {
        position: [x, 0.0, z],
        vertices: Vec::new(),
        radius,
        height: 0.0,
    }
}

fn path(nav: &mut Navigator, from: [f32; 3], to: [f32; 3]) -> Vec<Vec3> {
    nav.find_path(from, to, &Settings::default())
        .unwrap()
        .to_vec()
}

/// The ground distance from `c` to the segment `a`-`b`.
fn distance_to_segment(c: Vec3, a: Vec3, b: Vec3) -> f32 {
    let (a, b, c) = (a.xz(), b.xz(), c.xz());
    let t = ((c - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
    (a + (b - a) * t).distance(c)
}

#[test]
fn a_disc_in_a_room_is_walked_round_and_forgotten_when_removed() {
    let mut nav = room();
    let (from, to) = ([1.0, 0.0, 5.0], [9.0, 0.0, 5.0]);
    let straight = path(&mut nav, from, to);
    assert_eq!(straight, [Vec3::from(from), Vec3::from(to)]);

    let id = nav.add_obstacle(&circle(5.0, 5.0, 1.0)).unwrap();
    assert!(id >= 0);
    assert_eq!((nav.obstacle_count(), nav.tile_count()), (1, 1));
    let round = path(&mut nav, from, to);
    assert!(round.len() > 2, "{round:?}");
    assert!(!nav.last_partial());
    for pair in round.windows(2) {
        let d = distance_to_segment(Vec3::new(5.0, 0.0, 5.0), pair[0], pair[1]);
        assert!(
            d >= 1.0 - 1e-4,
            "{pair:?} passes {d} from the disc's centre"
        );
    }
    let length: f32 = round.windows(2).map(|p| p[0].distance(p[1])).sum();
    assert!(length > 8.0 && length < 8.6, "{length}");

    nav.remove_obstacle(id).unwrap();
    assert_eq!(nav.obstacle_count(), 0);
    assert_eq!(path(&mut nav, from, to), straight);
}

#[test]
fn a_box_across_a_corridor_closes_it_until_moved_away() {
    let mut nav = corridor();
    let (from, to) = ([0.5, 0.0, 0.5], [4.5, 0.0, 0.5]);
    // A box 0.5 wide and 3 long, standing across the corridor at x = 2.5.
    let across = ObstacleShape {
        position: [2.5, 0.0, 0.5],
        vertices: vec![
            [-0.25, 0.0, -1.5],
            [0.25, 0.0, -1.5],
            [0.25, 0.0, 1.5],
            [-0.25, 0.0, 1.5],
        ],
        radius: 0.0,
        height: 2.0,
    };
    let id = nav.add_obstacle(&across).unwrap();
    let cut = path(&mut nav, from, to);
    assert!(nav.last_partial(), "{cut:?}");
    let end = *cut.last().unwrap();
    assert!((end.x - 2.25).abs() < 1e-4, "stops at the box: {end}");

    // Moved into the last square, beside the goal: the way is open again.
    let aside = ObstacleShape {
        position: [4.9, 0.0, 0.9],
        vertices: Vec::new(),
        radius: 0.05,
        height: 2.0,
    };
    nav.move_obstacle(id, &aside).unwrap();
    assert_eq!(path(&mut nav, from, to), [Vec3::from(from), Vec3::from(to)]);
    assert!(!nav.last_partial());
    assert_eq!(nav.obstacle_count(), 1);
}

#[test]
fn an_obstacle_above_the_floor_leaves_it_alone() {
    let mut nav = room();
    let (from, to) = ([1.0, 0.0, 5.0], [9.0, 0.0, 5.0]);
    let mut high = circle(5.0, 5.0, 1.0);
    high.position[1] = 3.0; // a lamp from y = 3 to 4
    high.height = 1.0;
    nav.add_obstacle(&high).unwrap();
    assert_eq!(path(&mut nav, from, to), [Vec3::from(from), Vec3::from(to)]);
    // Standing on the floor, it is walked round.
    high.position[1] = 0.0;
    nav.add_obstacle(&high).unwrap();
    assert!(path(&mut nav, from, to).len() > 2);
}

#[test]
fn bad_obstacles_are_refused_and_named() {
    let mut empty = Navigator::default();
    let message = empty.add_obstacle(&circle(0.0, 0.0, 1.0)).unwrap_err();
    assert!(message.contains("no mesh"), "{message}");
    assert_eq!(empty.last_error(), message);

    let mut nav = room();
    let mut tall = circle(5.0, 5.0, 1.0);
    tall.height = -1.0;
    let message = nav.add_obstacle(&tall).unwrap_err();
    assert!(message.contains("height -1"), "{message}");
    let message = nav.add_obstacle(&circle(5.0, 5.0, f32::NAN)).unwrap_err();
    assert!(message.contains("radius"), "{message}");
    let flat = ObstacleShape {
        position: [5.0, 0.0, 5.0],
        vertices: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0]],
        radius: 0.0,
        height: 0.0,
    };
    assert!(nav.add_obstacle(&flat).is_err());
    assert!(nav.remove_obstacle(-3).unwrap_err().contains("-3"));
    assert!(nav.remove_obstacle(12345).is_err());
    assert!(nav.move_obstacle(7, &circle(1.0, 1.0, 0.5)).is_err());
    assert_eq!(nav.obstacle_count(), 0);
    // The mesh still answers after the refusals, and the error is cleared by success.
    assert_eq!(path(&mut nav, [1.0, 0.0, 1.0], [2.0, 0.0, 1.0]).len(), 2);
    assert_eq!(nav.last_error(), "");
}
