//! # navstar
//!
//! Navigation-mesh pathfinding for games: build a [`NavMesh`] from convex polygons, make a
//! [`Query`] per thread, and ask for paths. A path is found in two steps: A* over the
//! polygon graph gives a corridor, and the funnel algorithm pulls it tight into the
//! short, natural path an agent walks. [`PathMode::Optimal`] (in [`PathOptions::mode`])
//! instead returns the exact shortest path, by an any-angle search over the mesh.
//!
//! ```
//! use navstar::{NavMesh, MeshOptions, Query, PathOptions, PathStatus};
//! use glam::Vec3;
//!
//! // An L-shaped floor (y up) of three squares.
//! let vertices = [
//!     Vec3::new(0.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0), Vec3::new(2.0, 0.0, 0.0),
//!     Vec3::new(0.0, 0.0, 1.0), Vec3::new(1.0, 0.0, 1.0), Vec3::new(2.0, 0.0, 1.0),
//!     Vec3::new(0.0, 0.0, 2.0), Vec3::new(1.0, 0.0, 2.0),
//! ];
//! let indices = [0, 1, 4, 3, /**/ 1, 2, 5, 4, /**/ 3, 4, 7, 6];
//! let mesh = NavMesh::from_polygons(&vertices, &indices, &[4, 4, 4], &MeshOptions::default())?;
//!
//! let mut query = Query::new(&mesh);
//! let path = query.find_path(Vec3::new(1.8, 0.0, 0.5), Vec3::new(0.5, 0.0, 1.8), &PathOptions::default())?;
//! assert_eq!(path.status, PathStatus::Complete);
//! assert_eq!(path.corners, &[Vec3::new(1.8, 0.0, 0.5), Vec3::new(1.0, 0.0, 1.0), Vec3::new(0.5, 0.0, 1.8)]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Threads: a [`NavMesh`] is immutable and cheap to clone (`Arc`); share it freely. A
//! [`Query`] holds per-thread scratch memory and is used by one thread at a time.

#![deny(missing_docs)]

mod alloc;
mod corridor;
mod error;
#[cfg(feature = "capi")]
pub mod ffi;
mod filter;
mod geometry;
pub mod io;
mod mesh;
mod query;
mod random;
mod search;
mod sync;
mod world;

pub use corridor::{CornerDetail, CornerFlags, PathArc};
pub use error::{Endpoint, MeshError, QueryError};
pub use filter::{DEFAULT_AREA, DEFAULT_FLAGS, MAX_AREAS, QueryFilter};
pub use geometry::{Aabb, UpAxis};
pub use glam;
pub use mesh::{
    ARC_LENGTH_EXCESS, ARC_SEGMENTS, BinaryError, CIRCLE_SEGMENTS, CutTile, FORMAT_VERSION,
    MAX_CUT_TILES, MAX_FOOTPRINT_CORNERS, MAX_SURFACE_LEGS, MeshInput, MeshOptions, NavMesh,
    NearestPoint, Obstacle, OffMeshLink, RandomPoint, Raycast, SurfaceMove, TileCut, TileGrid,
    WallHit,
};
pub use query::{
    FAST_LANE_MIN_POLYGONS, LANDMARK_MIN_POLYGONS, MERGED_SEARCH_MIN_POLYGONS, NearestTarget,
    OwnedPath, Path, PathCorridor, PathMode, PathOptions, PathStatus, Query, Repair, SearchStats,
    SliceProgress, SliceStatus, WallDistance,
};
pub use random::SplitMix64;
pub use search::{FastLaneStats, ReachedPolygon, SearchStrategy};
pub use world::{ObstacleId, PolyRef, TileRef, WeakNavMesh, World, WorldOptions};
