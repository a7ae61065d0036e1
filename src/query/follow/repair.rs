//! Changing the corridor ahead of the agent: repairing it where polygons were closed
//! (replanning only from the last admitted polygon before the break), and shortening it
//! where the agent can see further ahead.

use glam::Vec3;

use super::PathCorridor;
use super::loops::{cut_loops, has_repeats};
use crate::error::QueryError;
use crate::filter::QueryFilter;
use crate::query::{PathOptions, PathStatus, Query};

/// What [`PathCorridor::repair`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Repair {
    /// Every polygon of the corridor is admitted: nothing changed.
    Valid,
    /// Part of the corridor was refused; it was replanned from the last admitted polygon
    /// before the first refused one, and the first `kept` polygons of the old corridor
    /// (the agent's first) still start it. The target is where it was.
    Repaired {
        /// Polygons of the old corridor kept at its start (at least 1).
        kept: usize,
    },
    /// As [`Repair::Repaired`], but the target can no longer be reached along the mesh
    /// (it is cut off, or its own polygon was closed): the corridor now leads to the end
    /// of the path the search found (the reachable point nearest it), and the target
    /// moved there. Also when the way found takes an off-mesh link, which a corridor does
    /// not follow: the corridor then ends at the link's polygon, the target moved onto it
    /// ([`PathCorridor::target`]).
    CutOff {
        /// Polygons of the old corridor kept at its start (at least 1).
        kept: usize,
    },
}

impl PathCorridor {
    /// Repairs the corridor after polygons on it were closed (their flags changed, so
    /// `options.filter` refuses them), searching with `query` (`options` as in
    /// [`Query::find_path`]) in two tries:
    ///
    /// 1. **Rejoin**: a search from the agent to the first polygon of the old corridor
    ///    after its last refused one (to the middle of that polygon's portal into the
    ///    next, or to the target when it is the last), bounded by 256 node expansions
    ///    (as counted by [`crate::SearchStats::expanded`], through
    ///    [`Query::begin_path`]). When it finds a complete way there, the corridor
    ///    becomes that way followed by the old corridor's tail after it: only the
    ///    closed part was replanned.
    /// 2. **Replan**: else the corridor is kept up to the last admitted polygon before
    ///    the first refused one and searched from there to the target: from the middle
    ///    of the portal into that polygon (from the agent's position when it is the
    ///    agent's polygon), moved a hair inside it so that the search starts in it.
    ///
    /// Either way, a loop the new way makes with kept polygons is cut. With an agent
    /// radius ([`PathCorridor::set_agent_radius`]) both searches use it
    /// (`options.agent_radius` is replaced by the corridor's): the way found keeps the
    /// radius from every wall and refused polygon exactly as [`Query::find_path`] with
    /// that radius does, and a door narrower than the disc is not taken.
    ///
    /// Cost: nothing but a scan of the flags when the corridor is valid; else one
    /// bounded search, and one path query when it does not rejoin. Any sliced search in
    /// progress on `query` is cancelled.
    ///
    /// # Errors
    /// [`QueryError::InvalidOption`] when `query` searches another mesh than the
    /// corridor's; [`QueryError::RefusedPolygon`] when the filter refuses the agent's own
    /// polygon (nothing of the corridor can be kept: move the agent out first, or plan a
    /// new path); the errors of [`Query::find_path`]. The corridor is unchanged on error.
    ///
    /// # Example
    /// ```
    /// # use navstar::{glam::Vec3, MeshOptions, NavMesh};
    /// # let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// # let vertices: Vec<Vec3> = (0..3).flat_map(|z| (0..4).map(move |x| v(x as f32, z as f32))).collect();
    /// # let indices: Vec<u32> = (0..2).flat_map(|r| (0..3).flat_map(move |c| { let a = r * 4 + c; [a, a + 1, a + 5, a + 4] })).collect();
    /// # let mesh = NavMesh::from_polygons(&vertices, &indices, &[4; 6], &MeshOptions::default())?;
    /// // `mesh`: two rows of three unit squares (y up): 0 1 2 along z in [0,1], 3 4 5 above.
    /// use navstar::{PathCorridor, PathOptions, Query, Repair};
    ///
    /// let mut corridor = PathCorridor::new(&mesh, 0, Vec3::new(0.5, 0.0, 0.5))?;
    /// corridor.set_corridor(Vec3::new(2.5, 0.0, 0.5), &[0, 1, 2])?;
    /// let (mut query, options) = (Query::new(&mesh), PathOptions::default());
    /// assert_eq!(corridor.repair(&mut query, &options)?, Repair::Valid);
    /// // Square 1 closes: the corridor goes round it through the upper row.
    /// mesh.set_polygon_flags(1, 0)?;
    /// assert_eq!(corridor.repair(&mut query, &options)?, Repair::Repaired { kept: 1 });
    /// assert_eq!(corridor.polygons(), [0, 3, 4, 5, 2]);
    /// assert_eq!(corridor.target(), Vec3::new(2.5, 0.0, 0.5));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn repair(
        &mut self,
        query: &mut Query,
        options: &PathOptions,
    ) -> Result<Repair, QueryError> {
        if !std::ptr::eq(query.mesh().data(), self.mesh.data()) {
            return Err(QueryError::InvalidOption(
                "the query searches another mesh than the corridor's",
            ));
        }
        let filter = &options.filter;
        let first = self.polygons[0];
        let flags = self.mesh.polygon_flags(first);
        if !filter.admits(flags) {
            return Err(QueryError::RefusedPolygon {
                polygon: first,
                flags,
            });
        }
        let Some(broken) = self
            .polygons
            .iter()
            .position(|&p| !filter.admits(self.mesh.polygon_flags(p)))
        else {
            return Ok(Repair::Valid);
        };
        // The search keeps the corridor's radius, as a path query with it does.
        let with_radius;
        let options = if options.agent_radius == self.agent.radius {
            options
        } else {
            with_radius = PathOptions {
                agent_radius: self.agent.radius,
                ..options.clone()
            };
            &with_radius
        };
        if let Some(kept) = self.rejoin(query, options)? {
            return Ok(Repair::Repaired { kept });
        }
        self.replan(query, options, broken - 1)
    }

    /// Replans from polygon `anchor` of the corridor (the last admitted one before the
    /// first refused one) to the target, keeping the corridor up to `anchor`.
    fn replan(
        &mut self,
        query: &mut Query,
        options: &PathOptions,
        anchor: usize,
    ) -> Result<Repair, QueryError> {
        let filter = &options.filter;
        let from = if anchor == 0 {
            self.position
        } else {
            let portal = self
                .portal(self.polygons[anchor - 1], self.polygons[anchor])
                .expect("the corridor is a chain of neighbours");
            (portal.left_world + portal.right_world) * 0.5
        };
        let start = self.inside(self.polygons[anchor], from);
        let path = query.find_path(start, self.target, options)?;
        let status = path.status;
        let end = *path.corners.last().expect("a path has corners");
        self.found_corridor(query, anchor, start, end, filter)?;
        // A corridor follows no off-mesh link: a way that takes one ends where it starts.
        let taken_link = self.visited.windows(2).position(|pair| {
            self.mesh
                .polygon_neighbours(pair[0])
                .all(|n| n != Some(pair[1]))
        });
        if let Some(k) = taken_link {
            self.visited.truncate(k + 1);
        }
        let at = self.joined_at(anchor)?;
        self.polygons.truncate(at);
        self.polygons.extend_from_slice(&self.visited);
        if has_repeats(&self.polygons, &mut self.sorted) {
            let all = self.polygons.len();
            cut_loops(&mut self.polygons, all);
        }
        let last = *self.polygons.last().expect("a corridor has a polygon");
        let kept = at.min(self.polygons.len()).max(1);
        // Reached: complete, and not to a goal the filter moved (a closed target polygon).
        let reach = 1e-4 * self.target.abs().max_element().max(1.0);
        if taken_link.is_none()
            && status == PathStatus::Complete
            && end.distance(self.target) <= reach
        {
            self.target = self.mesh.closest_point_on_polygon(last, self.target);
            Ok(Repair::Repaired { kept })
        } else {
            let end = if taken_link.is_some() {
                self.target
            } else {
                end
            };
            self.target = self.mesh.closest_point_on_polygon(last, end);
            Ok(Repair::CutOff { kept })
        }
    }

    /// Puts the corridor of `query`'s last path (from `start`, in polygon `anchor` of
    /// the corridor or beside it, to `end`) into `self.visited`: the query's corridor,
    /// or when it was answered without a search (in direct sight) the polygons of the
    /// straight walk (the disc's with a radius).
    pub(super) fn found_corridor(
        &mut self,
        query: &Query,
        anchor: usize,
        start: Vec3,
        end: Vec3,
        filter: &QueryFilter,
    ) -> Result<(), QueryError> {
        self.visited.clear();
        self.visited.extend(query.corridor());
        if self.visited.is_empty() {
            self.mesh.move_along_surface_for_agent(
                Some(self.polygons[anchor]),
                start,
                end,
                filter,
                self.agent.radius,
                &mut self.visited,
            )?;
        }
        Ok(())
    }

    /// Where the polygons found (`self.visited`, searched from polygon `anchor` of the
    /// corridor) join the corridor's start: the last of its first `anchor + 1` polygons
    /// that is the first found (the corridor is kept before it); or, when the search
    /// started in a neighbour of polygon `anchor` (an agent radius moves the start to
    /// where the disc fits), right after `anchor`.
    ///
    /// # Errors
    /// [`QueryError::InvalidOption`] when the search started elsewhere (overlapping
    /// polygons).
    pub(super) fn joined_at(&self, anchor: usize) -> Result<usize, QueryError> {
        let head = self.visited[0];
        if let Some(at) = self.polygons[..=anchor].iter().rposition(|&p| p == head) {
            return Ok(at);
        }
        if self.portal(self.polygons[anchor], head).is_some() {
            return Ok(anchor + 1);
        }
        Err(QueryError::InvalidOption(
            "the repair's search did not start on the corridor (overlapping polygons)",
        ))
    }

    /// Shortens the corridor when the agent can see `next` (a corner or any point ahead,
    /// typically the second or a later one of [`PathCorridor::corners`]): when the
    /// straight walk from the position to `next` over polygons `filter` admits meets no
    /// wall, the corridor up to the last polygon of that walk that is on it is replaced
    /// by the polygons walked through (Detour's `optimizePathVisibility`). Returns
    /// whether the corridor changed. Call it now and then (every few frames), not for
    /// every corner: it is a straight walk. With an agent radius
    /// ([`PathCorridor::set_agent_radius`]) the walk is the disc's
    /// ([`crate::NavMesh::move_along_surface_for_agent`]): the corridor is shortened
    /// only when the disc can go straight to `next` keeping the radius from every wall
    /// (and from the polygons `filter` refuses).
    ///
    /// # Errors
    /// [`QueryError::NonFinitePoint`] for a NaN or infinite `next`;
    /// [`QueryError::RefusedPolygon`] when `filter` refuses the agent's polygon; with a
    /// radius, as [`crate::NavMesh::move_along_surface_for_agent`].
    ///
    /// # Example
    /// ```
    /// # use navstar::{glam::Vec3, MeshOptions, NavMesh};
    /// # let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// # let vertices: Vec<Vec3> = (0..3).flat_map(|z| (0..4).map(move |x| v(x as f32, z as f32))).collect();
    /// # let indices: Vec<u32> = (0..2).flat_map(|r| (0..3).flat_map(move |c| { let a = r * 4 + c; [a, a + 1, a + 5, a + 4] })).collect();
    /// # let mesh = NavMesh::from_polygons(&vertices, &indices, &[4; 6], &MeshOptions::default())?;
    /// // `mesh`: two rows of three unit squares (y up): 0 1 2 along z in [0,1], 3 4 5 above.
    /// use navstar::{PathCorridor, QueryFilter};
    ///
    /// // A roundabout corridor: up, along the upper row, and down again.
    /// let mut corridor = PathCorridor::new(&mesh, 0, Vec3::new(0.5, 0.0, 0.5))?;
    /// corridor.set_corridor(Vec3::new(2.5, 0.0, 0.5), &[0, 3, 4, 5, 2])?;
    /// let filter = QueryFilter::default();
    /// assert!(corridor.optimize_visibility(Vec3::new(2.5, 0.0, 0.5), &filter)?);
    /// assert_eq!(corridor.polygons(), [0, 1, 2]);
    /// assert!(!corridor.optimize_visibility(Vec3::new(2.5, 0.0, 0.5), &filter)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn optimize_visibility(
        &mut self,
        next: Vec3,
        filter: &QueryFilter,
    ) -> Result<bool, QueryError> {
        let moved = self.mesh.move_along_surface_for_agent(
            Some(self.polygons[0]),
            self.position,
            next,
            filter,
            self.agent.radius,
            &mut self.visited,
        )?;
        if moved.walls != 0 {
            return Ok(false);
        }
        // The last polygon walked through that is on the corridor, and where on it.
        let found = self
            .visited
            .iter()
            .enumerate()
            .rev()
            .find_map(|(i, p)| self.polygons.iter().position(|q| q == p).map(|j| (i, j)));
        let Some((i, j)) = found else {
            return Ok(false);
        };
        if i >= j {
            // The walk is no shorter a chain to that polygon: keep the corridor.
            return Ok(false);
        }
        self.polygons.splice(..j, self.visited[..i].iter().copied());
        cut_loops(&mut self.polygons, i + 1);
        Ok(true)
    }

    /// `point` (on or near `polygon`) moved onto `polygon` and a hair towards its
    /// centre, so that a search snapping it starts in `polygon` even when the point is
    /// on an edge or vertex it shares with others.
    pub(super) fn inside(&self, polygon: u32, point: Vec3) -> Vec3 {
        let mesh = self.mesh.data();
        let range = mesh.corner_range(polygon);
        let count = range.len() as f32;
        let centre = mesh.corners[range]
            .iter()
            .map(|&v| mesh.vertices[v as usize])
            .sum::<Vec3>()
            / count;
        let on = self.mesh.closest_point_on_polygon(polygon, point);
        on + (centre - on) * 1e-3
    }
}
