//! The two searches over a mesh. [`astar`] finds a polygon corridor (A* and the other
//! strategies, with a funnel-state estimate per node), and floods the polygons within a
//! cost; [`exact`] finds the exact shortest path of the exact mode
//! ([`crate::PathMode::Optimal`]) by an any-angle search over intervals of edges;
//! [`hub`] is the exact mode's optional index (the fast lane). All
//! keep their scratch memory between queries and read the mesh, never write it. May use
//! `corridor`, `mesh`, `world`, `filter`, `geometry`, `alloc`, `error` (`world_tables.rs`
//! fills a world's landmark tables, `world_lane.rs` builds a world's fast-lane index).

pub(crate) mod astar;
pub(crate) mod exact;
pub(crate) mod hub;
pub(crate) mod landmarks;
pub(crate) mod map;
mod world_lane;
mod world_tables;

pub use astar::{ReachedPolygon, SearchStrategy};
pub use hub::FastLaneStats;
