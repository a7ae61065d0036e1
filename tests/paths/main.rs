//! Paths and the queries around them, through the Rust API:
//!
//! * `answers`: what a path query answers at the edges of its contract (where a partial
//!   path ends, costs in the exact mode, goals the filter moves, links at the ends);
//! * `known`: hand-made meshes whose shortest paths were worked out by hand;
//! * `homotopy`: the default mode keeps the short route where two cross one long portal
//!   (a piece of a benchmark city map);
//! * `exact`: the exact mode (`PathMode::Optimal`) against the visibility-graph oracle of
//!   `tests/common` and the reference lengths of the shared scenario files;
//! * `properties`: random meshes, every path checked by the independent checker;
//! * `merged`: the default mode's search over the merged copy against the whole mesh;
//! * `connectors`: degenerate connector triangles that stitch T-junctions;
//! * `queries`: area costs, run-time flags, off-mesh links, search strategies, path
//!   details, the nearest of several goals and the bounded flood;
//! * `spatial`: nearest point, raycast and interpolation on the mesh;
//! * `agents`: moving along the surface and the distance to walls;
//! * `follow`: the corridor that follows an agent (`PathCorridor`);
//! * `corridor_repair`: that corridor changed ahead of the agent: corner details, repair
//!   after polygons close, shortening by sight;
//! * `random_points`: random points by area, over the mesh and around a point;
//! * `sliced`: time-sliced path searches against the one-shot query;
//! * `threads`: one mesh shared by several threads;
//! * `tighten`: the default mode's corridor swapped round inner vertices its path bends
//!   at (straight paths across a convex room of many polygons);
//! * `stress`: queries on a world's snapshots while other threads change its tiles;
//! * `world`: a world of tiles cut from a grid map against the map's one-piece mesh;
//! * `world_fast_lane`: a world's fast-lane index against the one-piece mesh and the
//!   oracle, dropped by tile changes, seen only with its own geometry.

mod agents;
mod answers;
#[path = "../common/mod.rs"]
mod common;
mod connectors;
mod corridor_rejoin;
mod corridor_repair;
mod exact;
mod exact_corridor;
mod fast_lane;
mod follow;
mod homotopy;
mod known;
mod merged;
mod node_limit;
mod properties;
mod queries;
mod random_points;
mod sliced;
mod spatial;
mod stress;
mod threads;
mod tighten;
mod world;
mod world_fast_lane;
mod world_landmarks;

use glam::Vec3;
use navstar::{PathMode, PathOptions};

/// The default options with the exact mode.
/// The funnel mode (A* and the funnel), whatever the default is.
fn funnel() -> PathOptions {
    PathOptions::default().with_mode(PathMode::Funnel)
}

fn optimal() -> PathOptions {
    let mut options = PathOptions::default();
    options.mode = PathMode::Optimal;
    options
}

/// The length of a polyline.
fn length(corners: &[Vec3]) -> f32 {
    corners.windows(2).map(|w| w[0].distance(w[1])).sum()
}
