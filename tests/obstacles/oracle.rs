//! The exact mode on carved meshes against an independent oracle: random rectangular
//! rooms (made of several rectangles) with random boxes and discs, the walkable region
//! computed apart with `geo`'s booleans (room minus obstacles), and its exact shortest
//! path by a visibility graph (`tests/common/clearance_oracle`). The lengths agree within
//! 1e-3 relative; where the oracle finds no path, navstar's is partial.

use geo::{BooleanOps, LineString, MultiPolygon, Polygon};
use glam::{DVec2, Vec2};
use navstar::{Obstacle, PathMode, PathOptions, PathStatus, Query, World, WorldOptions};
use proptest::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::clearance_oracle::{Region, VisibilityOracle, point_segment_distance};
use crate::common::proptest_config;
use crate::{room, v};

/// A random obstacle: `(kind, x, y, a, b, angle)` in unit fractions of the room.
fn obstacle(kind: bool, x: f32, y: f32, a: f32, b: f32, angle: f32, size: Vec2) -> Obstacle {
    let center = Vec2::new(x * size.x, y * size.y);
    if kind {
        Obstacle::circle(center, 0.2 + a * 1.8).unwrap()
    } else {
        Obstacle::rotated_box(center, Vec2::new(0.1 + a * 2.0, 0.1 + b * 2.0), angle * 3.0).unwrap()
    }
}

fn polygon(corners: &[Vec2]) -> Polygon<f64> {
    let ring: Vec<(f64, f64)> = corners
        .iter()
        .map(|q| (f64::from(q.x), f64::from(q.y)))
        .collect();
    Polygon::new(LineString::from(ring), vec![])
}

/// Queries compared with the oracle, and those of them it found a path for.
static COMPARED: AtomicUsize = AtomicUsize::new(0);
static REACHED: AtomicUsize = AtomicUsize::new(0);

proptest! {
    #![proptest_config(proptest_config(300))]
    #[test]
    fn exact_lengths_match_the_visibility_graph(
        width in 4u32..16, depth in 4u32..16, cols in 1u32..5, rows in 1u32..5,
        obstacles in prop::collection::vec(
            (any::<bool>(), 0.0f32..1.0, 0.0f32..1.0, 0.0f32..1.0, 0.0f32..1.0, 0.0f32..1.0), 1..5),
        ends in prop::collection::vec((0.0f32..1.0, 0.0f32..1.0, 0.0f32..1.0, 0.0f32..1.0), 6),
        through_world in any::<bool>(),
    ) {
        let size = Vec2::new(width as f32, depth as f32);
        let mesh = room(size.x, size.y, cols, rows);
        let obstacles: Vec<Obstacle> = obstacles
            .iter()
            .map(|&(k, x, y, a, b, angle)| obstacle(k, x, y, a, b, angle, size))
            .collect();
        // The oracle's region: the room minus the footprints, with geo.
        let room_shape = MultiPolygon::new(vec![polygon(&[Vec2::ZERO, Vec2::new(size.x, 0.0), size, Vec2::new(0.0, size.y)])]);
        let cut = obstacles
            .iter()
            .fold(MultiPolygon::new(vec![]), |acc, o| acc.union(&polygon(o.footprint())));
        let free = room_shape.difference(&cut);
        if free.0.is_empty() {
            return Ok(()); // everything covered: nothing to ask
        }
        let region = Region::from_shape(free);
        let oracle = VisibilityOracle::new(&region);
        let carved = if through_world {
            let world = World::new(&WorldOptions::default()).unwrap();
            world.add_tile(&mesh).unwrap();
            for o in &obstacles {
                world.add_obstacle(o).unwrap();
            }
            world.snapshot()
        } else {
            match mesh.with_obstacles(&obstacles) {
                Ok(m) => m,
                Err(e) => return Err(TestCaseError::fail(format!("carve failed: {e}"))),
            }
        };
        let mut query = Query::new(&carved);
        let options = PathOptions::default().with_mode(PathMode::Optimal);
        let margin = |q: DVec2| region.walls().map(|(a, b)| point_segment_distance(q, a, b)).fold(f64::INFINITY, f64::min);
        for &(sx, sy, tx, ty) in &ends {
            let s = DVec2::new(f64::from(sx * size.x), f64::from(sy * size.y));
            let t = DVec2::new(f64::from(tx * size.x), f64::from(ty * size.y));
            // Points well inside the free region (away from the cut's boundary, where
            // snapping would decide).
            if !oracle.contains(s) || !oracle.contains(t) || margin(s) < 0.01 || margin(t) < 0.01 {
                continue;
            }
            let (s3, t3) = (v(s.x as f32, s.y as f32), v(t.x as f32, t.y as f32));
            let path = query.find_path(s3, t3, &options).unwrap();
            COMPARED.fetch_add(1, Ordering::Relaxed);
            match oracle.shortest(s, t) {
                Some(expected) => {
                    REACHED.fetch_add(1, Ordering::Relaxed);
                    prop_assert_eq!(path.status, PathStatus::Complete, "{} -> {}", s, t);
                    let got = f64::from(path.length());
                    prop_assert!(
                        (got - expected).abs() <= 1e-3 * expected.max(1.0),
                        "{} -> {}: navstar {} oracle {}", s, t, got, expected
                    );
                }
                None => prop_assert_eq!(path.status, PathStatus::Partial, "{} -> {}", s, t),
            }
        }
    }
}

#[test]
fn the_oracle_test_compares_many_paths() {
    // Run the property (its configured number of cases) and check it did not skip
    // most queries: at least one in three asked was compared, most of them reachable.
    exact_lengths_match_the_visibility_graph();
    let (compared, reached) = (
        COMPARED.load(Ordering::Relaxed),
        REACHED.load(Ordering::Relaxed),
    );
    eprintln!("{compared} queries compared, {reached} reachable");
    assert!(
        compared >= 100 && reached * 2 >= compared,
        "{compared} compared, {reached} reached"
    );
}
