//! The default mode's choice of corridor where two routes cross one long portal: a piece
//! of the Moving AI map Berlin_0_256 (columns 0-71, rows 0-175, public benchmark data,
//! in `berlin_crop.map`), whose grid mesh has long one-cell strips. One route reaches a
//! strip's long side with its wedge wide open from an apex far behind, so its estimate
//! looks cheaper than the short route's, which arrives at the other end of the same
//! portal; keeping one route per portal lost the short one and the path went round the
//! far side of a block, 1.43 times the shortest (173.98 against 121.91).

use crate::funnel;
use glam::Vec3;
use navstar::io::{MeshFormat, load_mesh};
use navstar::{MeshOptions, PathMode, Query};

const MAP: &str = include_str!("berlin_crop.map");

#[test]
fn the_short_route_through_a_long_portal_is_kept() {
    let mesh = load_mesh(
        MAP.as_bytes(),
        MeshFormat::MovingAiMap,
        &MeshOptions::default(),
    )
    .expect("the map loads");
    let (start, goal) = (Vec3::new(1.5, 144.5, 0.0), Vec3::new(50.5, 168.5, 0.0));
    let mut query = Query::new(&mesh);
    let exact = query
        .find_path_vec(start, goal, &funnel().with_mode(PathMode::Optimal))
        .expect("a path")
        .length();
    // The shortest path: round (5, 147), (58, 118), (59, 118), (65, 124), (65, 125),
    // (55, 160) after the start's cell corners (2, 146), (3, 147).
    assert!((exact - 121.914).abs() < 1e-2, "exact length {exact}");
    for merged in [true, false] {
        query.set_merged_search(merged);
        let path = query.find_path_vec(start, goal, &funnel()).expect("a path");
        // The default mode takes the same side of every block: the same length.
        assert!(
            path.length() <= exact * 1.001,
            "merged search {merged}: default length {} against the shortest {exact}",
            path.length()
        );
        assert!(
            path.corners
                .iter()
                .any(|c| c.distance(Vec3::new(58.0, 118.0, 0.0)) < 1e-3)
        );
    }
}
