//! The fast lane: an optional index that answers the exact mode's queries
//! ([`crate::PathMode::Optimal`]) without the interval search, after End Point Search
//! (Shen, Cheema, Harabor and Stuckey, IJCAI 2020) with hub labels in place of its
//! first-move table (as Euclidean Hub Labeling, Du, Shen and Cheema, AAAI 2023, labels
//! the same graph). Offline, per mesh: the corners where a shortest path can bend
//! ([`corners`]), the visibility graph between them ([`graph`], sight lines by
//! [`sight`]), and hub labels of its distances ([`labels`]). Online ([`online`]): the
//! corners seen from the start and from the goal, joined through the labels.
//!
//! The index is built on the mesh's merged copy when it has one (fewer polygons for the
//! sweeps; the walkable region, and so every answer, is the same), for a mesh without
//! off-mesh links: one piece, or a world's snapshot of several tiles (sweeps and fans
//! cross seams as any portal; `World::prepare_fast_lane` builds it, never a query). It depends on the geometry only; a query uses it
//! only where it gives the exact mode's own answer: the filter admits every polygon, no
//! node limit (an agent radius searches the eroded copy, which gets an index of its
//! own), and the two ends not in sight of each
//! other (the caller answers that with the segment). Otherwise, or when it finds no
//! way, the exact search runs as before.

mod corners;
mod graph;
mod labels;
mod online;
mod order;
mod sight;
#[cfg(test)]
mod tests;

use std::sync::Arc;

use crate::NavMesh;
use crate::mesh::MeshData;
use crate::mesh::fast_lane::FastLane;

pub(crate) use online::{LaneAnswer, LaneScratch};

/// Each sweep of the build may expand at most this many cones per polygon of the mesh
/// (a guard against pathological input; the build then gives no index).
const BUILD_CONES_PER_POLYGON: usize = 64;

/// The most cones one sweep of a query may expand, on a mesh of `polygons` polygons.
pub(crate) fn query_cone_limit(polygons: u32) -> usize {
    BUILD_CONES_PER_POLYGON * polygons as usize + 4096
}

/// Hub labels per polygon of the mesh the index may hold in all; a graph whose labels
/// take more gets no index (the maze512 benchmark map's would take 388 per polygon and
/// 250 MB, built in 10 s; the other benchmark maps take 44-86).
const LABELS_PER_POLYGON: usize = 128;

/// What an index may cost: `Unbounded` for [`NavMesh::prepare_fast_lane`] (the caller
/// asked for it), `Default` for the build a query makes on first use, which gives up
/// on meshes of more than [`DEFAULT_MAX_CORNERS`] corners before the costly part.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Budget {
    Unbounded,
    Default,
}

/// The most corners of an index built on first use: its build grows with the corners
/// times what each one sees (the benchmark maps: 912-2,423 corners in 0.02-0.11 s;
/// maze512: 49,154 in 9.6 s).
pub(crate) const DEFAULT_MAX_CORNERS: usize = 16_384;

/// The index of `mesh` (of one tile or several: a world's snapshot) within `budget`:
/// `None` for a mesh with off-mesh links, when a sweep gave up, or when the budget is
/// exceeded.
pub(crate) fn build(mesh: &MeshData, budget: Budget) -> Option<FastLane> {
    if mesh.links.hop_count() != 0 {
        return None;
    }
    let coarse = mesh.coarse();
    let searched = coarse.map_or(mesh, |c| &c.mesh);
    let found = corners::find(searched);
    if budget == Budget::Default && found.vertex.len() > DEFAULT_MAX_CORNERS {
        return None;
    }
    let mut sight = sight::Sight::default();
    let limit = query_cone_limit(searched.polygon_count());
    let graph = graph::build(searched, &found, &mut sight, limit).ok()?;
    let rank = order::hub_order(&graph);
    let graph = graph::renumbered(&graph, &rank);
    let label_budget = match budget {
        Budget::Unbounded => usize::MAX,
        Budget::Default => LABELS_PER_POLYGON * mesh.polygon_count() as usize,
    };
    let (label_start, labels) = labels::build(&graph, label_budget)?;
    let n = found.vertex.len();
    let mut node_of_slot = found.node_of_slot;
    for c in &mut node_of_slot {
        if *c != crate::mesh::fast_lane::NO_CORNER {
            *c = rank[*c as usize];
        }
    }
    let mut lane = FastLane {
        on_coarse: coarse.is_some(),
        vertex: vec![0; n],
        node_of_slot,
        point: vec![glam::DVec2::ZERO; n],
        walls: vec![None; n],
        label_start,
        labels,
        edge_count: graph.target.len() / 2,
    };
    for (old, &new) in rank.iter().enumerate() {
        let new = new as usize;
        lane.vertex[new] = found.vertex[old];
        lane.point[new] = found.point[old];
        lane.walls[new] = found.walls[old];
    }
    Some(lane)
}

/// Sizes of a mesh's fast-lane index ([`NavMesh::fast_lane_stats`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FastLaneStats {
    /// Corners where a shortest path may bend (the graph's nodes).
    pub corners: usize,
    /// Undirected edges of the corner visibility graph.
    pub edges: usize,
    /// Hub label entries over all corners.
    pub labels: usize,
    /// Bytes held by the index.
    pub bytes: usize,
}

impl NavMesh {
    /// Builds the mesh's fast-lane index for the exact mode, if it has none yet, and
    /// tells whether it has one, with no limit on its size (a query builds one on first
    /// use on meshes of at least [`crate::FAST_LANE_MIN_POLYGONS`] polygons, within a
    /// budget: see [`crate::Query::set_fast_lane`]). Queries ([`crate::Query`]) then
    /// answer exact-mode paths (and the default [`crate::PathMode::Auto`] where it runs
    /// the exact mode) from the index when their filter admits every polygon and they
    /// have no node limit, with the same lengths as the exact search (an agent radius
    /// searches an eroded copy, which gets its own index on first use);
    /// [`crate::Query::set_fast_lane`] turns that off per query. A mesh with off-mesh
    /// links gets none. A world's snapshot gets one here for itself alone (sight lines
    /// and distances across seams); [`crate::World::prepare_fast_lane`] gives one to
    /// the world's later snapshots of the same geometry, and queries never build one
    /// on a snapshot. The index depends on the geometry only, so flag
    /// changes never make it wrong (a query whose filter refuses a polygon searches as
    /// before). Build time grows with the corners times what each sees; memory: see
    /// [`NavMesh::fast_lane_stats`]. Thread-safe; the first caller builds, others wait.
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshOptions, NavMesh, PathMode, PathOptions, Query};
    ///
    /// let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// // An L of three unit squares: the path bends round the inner corner (1, 1).
    /// let vertices = [v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0), v(2.0, 1.0), v(1.0, 1.0), v(0.0, 1.0), v(1.0, 2.0), v(0.0, 2.0)];
    /// let indices = [0, 1, 4, 5, /**/ 1, 2, 3, 4, /**/ 5, 4, 6, 7];
    /// let mesh = NavMesh::from_polygons(&vertices, &indices, &[4; 3], &MeshOptions::default())?;
    /// assert!(mesh.prepare_fast_lane());
    /// assert_eq!(mesh.fast_lane_stats().map(|s| s.corners), Some(1));
    /// let mut query = Query::new(&mesh);
    /// let options = PathOptions::default().with_mode(PathMode::Optimal);
    /// let path = query.find_path(v(1.8, 0.5), v(0.5, 1.8), &options)?;
    /// assert_eq!(path.corners[1], v(1.0, 1.0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn prepare_fast_lane(&self) -> bool {
        self.data()
            .fast_lane
            .get_or_init(|| build(self.data(), Budget::Unbounded).map(Arc::new))
            .is_some()
    }

    /// The sizes of the mesh's fast-lane index, or `None` before
    /// [`NavMesh::prepare_fast_lane`] built one.
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshOptions, NavMesh};
    ///
    /// let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// let mesh = NavMesh::from_polygons(&[v(0.0, 0.0), v(1.0, 0.0), v(1.0, 1.0), v(0.0, 1.0)], &[0, 1, 2, 3], &[4], &MeshOptions::default())?;
    /// assert_eq!(mesh.fast_lane_stats(), None);
    /// assert!(mesh.prepare_fast_lane());
    /// // A convex room: no corner where a path bends.
    /// assert_eq!(mesh.fast_lane_stats().map(|s| s.corners), Some(0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn fast_lane_stats(&self) -> Option<FastLaneStats> {
        let lane = self.data().fast_lane.get()?.as_deref()?;
        Some(FastLaneStats {
            corners: lane.corner_count(),
            edges: lane.edge_count,
            labels: lane.labels.len(),
            bytes: lane.bytes(),
        })
    }
}
