//! What the searches of the last query did: [`SearchStats`], read with
//! [`Query::last_search_stats`].

use super::Query;

/// Counts of the work done by the searches of the last path query of a [`Query`]
/// ([`Query::find_path`], [`Query::find_path_vec`], [`Query::find_nearest_target`]) or
/// reachability flood ([`Query::reachable_polygons`]). Zero when the answer needed no
/// search (start and goal in one polygon, or in direct sight). A query that tries several
/// searches (the fans round a pinched start or goal, the goals of a nearest-target query
/// in the exact mode, a fallback from the exact mode to the default mode) sums them.
///
/// Counting costs one add per expanded node; it is always on.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Search nodes expanded: taken from the open list and given their successors. In
    /// the default mode (A*) a node is a way into a polygon (one of its entry portals or
    /// an off-mesh link's end), so this is close to Detour's count of polygons visited;
    /// in the exact mode it is an interval node (a window of a polygon's edge seen from
    /// a corner), counted also when followed at once along a chain of polygons.
    pub expanded: u64,
    /// Searches run (A* searches, floods and exact-mode searches).
    pub searches: u32,
}

impl SearchStats {
    /// Adds one search that expanded `expanded` nodes.
    pub(super) fn add(&mut self, expanded: u32) {
        self.expanded += u64::from(expanded);
        self.searches += 1;
    }
}

impl Query {
    /// Forgets the counts of the last query: a C path call refused before it searches
    /// (a bad argument) counted nothing.
    #[cfg(feature = "capi")]
    pub(crate) fn forget_search_stats(&mut self) {
        self.stats = SearchStats::default();
    }

    /// What the searches of the last query did (see [`SearchStats`]); all zero before the
    /// first query. Cheap to call: it reads counters the searches keep anyway.
    ///
    /// # Example
    /// ```
    /// # use navstar::{glam::Vec3, MeshOptions, NavMesh};
    /// # let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// # let vertices = [v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0), v(0.0, 1.0), v(1.0, 1.0), v(2.0, 1.0), v(0.0, 2.0), v(1.0, 2.0)];
    /// # let indices = [0, 1, 4, 3, /**/ 1, 2, 5, 4, /**/ 3, 4, 7, 6];
    /// # let mesh = NavMesh::from_polygons(&vertices, &indices, &[4, 4, 4], &MeshOptions::default())?;
    /// // `mesh`: an L of three unit squares (y up): 1 = [1,2]x[0,1], 0 = [0,1]x[0,1], 2 = [0,1]x[1,2].
    /// use navstar::{PathMode, PathOptions, Query};
    ///
    /// let mut query = Query::new(&mesh);
    /// // The funnel mode's searches (the default runs the exact mode here).
    /// let funnel = PathOptions::default().with_mode(PathMode::Funnel);
    /// // The merged copy forced on (three polygons are below its size threshold).
    /// query.set_merged_search(true);
    /// let (from, to) = (Vec3::new(1.8, 0.0, 0.5), Vec3::new(0.5, 0.0, 1.8));
    /// // Round the inner corner: a search over the merged copy (squares 1 and 0 are one
    /// // rectangle there: 1 node expanded), then one over the squares inside that
    /// // corridor (2 nodes: the start square and the middle one).
    /// query.find_path(from, to, &funnel)?;
    /// let stats = query.last_search_stats();
    /// assert_eq!((stats.searches, stats.expanded), (2, 3));
    /// // The whole mesh alone: one search, 2 nodes.
    /// query.set_merged_search(false);
    /// query.find_path(from, to, &funnel)?;
    /// let stats = query.last_search_stats();
    /// assert_eq!((stats.searches, stats.expanded), (1, 2));
    /// // In one square: no search at all.
    /// query.find_path(Vec3::new(0.2, 0.0, 0.2), Vec3::new(0.8, 0.0, 0.8), &funnel)?;
    /// assert_eq!(query.last_search_stats(), Default::default());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn last_search_stats(&self) -> SearchStats {
        self.stats
    }
}
