//! The default mode's search over the mesh's merged copy: A* first over the merged
//! polygons (fewer, larger: fewer nodes to expand), then again over the mesh's own
//! polygons, kept to those inside the merged corridor. The second pass gives the
//! corridor, corners and details in the mesh's own polygon ids, as a search of the
//! whole mesh would; it expands only the polygons of a narrow region.
//!
//! The merged copy is the one the exact mode searches (`mesh/coarse.rs`, built once
//! per mesh or composed per world snapshot from its tiles' copies). It has no flags,
//! areas or off-mesh links of its own, so it is used only when it cannot change what
//! is allowed or what things cost: the filter admits every polygon (checked against the
//! flags' generation, so run-time flag changes are seen), every area costs the same,
//! the mesh has no off-mesh links, and the search is plain A* towards one target. In
//! every other case, or when either pass finds no way, the whole mesh is searched as
//! before, so answers never depend on the copy for their validity.

use super::Query;
use crate::mesh::MeshData;
use crate::search::astar::{SearchOutcome, SearchRequest, SearchStrategy, Target, Within};
use crate::search::map::Slot;

impl Query {
    /// Whether path queries in the default mode search the mesh's merged copy first
    /// (see [`Query::set_merged_search`]). On by default.
    ///
    /// # Example
    /// ```
    /// # use navstar::{glam::Vec3, MeshOptions, NavMesh};
    /// # let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// # let vertices = [v(0.0, 0.0), v(1.0, 0.0), v(1.0, 1.0), v(0.0, 1.0)];
    /// # let mesh = NavMesh::from_polygons(&vertices, &[0, 1, 2, 0, 2, 3], &[3, 3], &MeshOptions::default())?;
    /// use navstar::Query;
    ///
    /// let mut query = Query::new(&mesh);
    /// assert!(query.merged_search());
    /// query.set_merged_search(false);
    /// assert!(!query.merged_search());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn merged_search(&self) -> bool {
        self.merged_search
    }

    /// Turns the default mode's search over the merged copy on or off for this query.
    ///
    /// When on, a default-mode path query whose filter admits every polygon, with every
    /// area at the same cost, on a mesh without off-mesh links, first finds a corridor
    /// over the mesh's merged copy (neighbouring polygons joined while convex), then
    /// searches the mesh's own polygons inside that corridor only. Paths may differ
    /// slightly from those of a search over the whole mesh (both are approximations of
    /// the shortest path; the exact mode is unaffected); corridors and details name
    /// the mesh's own polygons either way. Off, every query searches the whole mesh.
    /// The merged copy is built on first use (shared by all queries of the mesh).
    ///
    /// # Example
    /// ```
    /// # use navstar::{glam::Vec3, MeshOptions, NavMesh};
    /// # let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// # let vertices = [v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0), v(0.0, 1.0), v(1.0, 1.0), v(2.0, 1.0), v(0.0, 2.0), v(1.0, 2.0)];
    /// # let indices = [0, 1, 4, 3, /**/ 1, 2, 5, 4, /**/ 3, 4, 7, 6];
    /// # let mesh = NavMesh::from_polygons(&vertices, &indices, &[4, 4, 4], &MeshOptions::default())?;
    /// // `mesh`: an L of three unit squares (y up): 1 = [1,2]x[0,1], 0 = [0,1]x[0,1], 2 = [0,1]x[1,2].
    /// use navstar::{PathOptions, Query};
    ///
    /// let (from, to) = (Vec3::new(1.8, 0.0, 0.5), Vec3::new(0.5, 0.0, 1.8));
    /// let mut query = Query::new(&mesh);
    /// let merged = query.find_path_vec(from, to, &PathOptions::default())?;
    /// query.set_merged_search(false);
    /// let whole = query.find_path_vec(from, to, &PathOptions::default())?;
    /// // The same path round the inner corner, and the corridor in the mesh's own ids.
    /// assert_eq!(merged.corners, whole.corners);
    /// assert_eq!(query.corridor().collect::<Vec<_>>(), [1, 0, 2]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_merged_search(&mut self, on: bool) {
        self.merged_search = on;
    }

    /// The corridor search of a default-mode path query into `self.corridor`: over the
    /// merged copy when it may be used (see the module documentation), else over the
    /// whole mesh.
    pub(super) fn search_corridor(
        &mut self,
        mesh: &MeshData,
        request: &SearchRequest<'_>,
    ) -> SearchOutcome {
        if let Some(outcome) = self.search_merged(mesh, request) {
            return outcome;
        }
        let outcome = self.search.search(mesh, request, &mut self.corridor);
        self.stats.add(self.search.expanded());
        outcome
    }

    /// The two passes over the merged copy; `None` when the copy may not be used, or a
    /// pass found no way (the caller then searches the whole mesh).
    fn search_merged(
        &mut self,
        mesh: &MeshData,
        request: &SearchRequest<'_>,
    ) -> Option<SearchOutcome> {
        let usable = self.merged_search
            && request.within.is_none()
            && request.strategy == SearchStrategy::AStar
            && request.targets.len() == 1
            && request.filter.is_uniform()
            && mesh.links.hop_count() == 0;
        if !usable || !self.admits_every_polygon(request.filter) {
            return None;
        }
        let coarse = mesh.coarse()?;
        let goal = request.targets[0];
        let targets = [Target {
            polygon: coarse.of_original[goal.polygon as usize],
            point: goal.point,
        }];
        let merged = SearchRequest {
            start_polygon: coarse.of_original[request.start_polygon as usize],
            targets: &targets,
            ..*request
        };
        let outcome = self
            .search
            .search(&coarse.mesh, &merged, &mut self.merged_corridor);
        self.stats.add(self.search.expanded());
        if !matches!(outcome, SearchOutcome::Reached { .. }) {
            return None;
        }
        self.merged_region.clear();
        for step in &self.merged_corridor {
            if let Slot::Vacant(bucket) = self.merged_region.find(step.polygon)
                && !self.merged_region.insert_at(bucket, step.polygon, 0)
            {
                return None;
            }
        }
        let within = SearchRequest {
            within: Some(Within {
                of_original: &coarse.of_original,
                merged: &self.merged_region,
            }),
            ..*request
        };
        let outcome = self.search.search(mesh, &within, &mut self.corridor);
        self.stats.add(self.search.expanded());
        matches!(outcome, SearchOutcome::Reached { .. }).then_some(outcome)
    }
}
