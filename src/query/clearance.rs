//! Path queries for a disc-shaped agent ([`PathOptions::agent_radius`] above the mesh's
//! baked radius): the query runs on the mesh's eroded copy for that radius and filter
//! (`mesh/clearance`), then names the original polygons in its corridor.

use super::arc_turns::arc_turns;
use glam::Vec3;

use super::landmarks::LandmarkUse;
use super::{PathOptions, PathStatus, Query};
use crate::corridor::{CorridorStep, LAST_STEP};
use crate::error::QueryError;
use crate::filter::QueryFilter;
use crate::mesh::{ErodedMesh, NavMesh};
use crate::search::astar::ReachedPolygon;
use std::sync::Arc;

/// The options of the same query on an eroded mesh: no radius left to erode, and a
/// filter that keeps the area costs and admits every polygon (the eroded mesh holds
/// only the polygons the original filter admitted, with default flags).
pub(super) fn eroded_options(options: &PathOptions) -> PathOptions {
    PathOptions {
        agent_radius: 0.0,
        filter: QueryFilter {
            include_flags: u32::MAX,
            exclude_flags: 0,
            ..options.filter.clone()
        },
        ..options.clone()
    }
}

impl Query {
    /// The mesh eroded by `erosion > 0` for the filter of `options`.
    pub(super) fn eroded_mesh(
        &mut self,
        erosion: f32,
        options: &PathOptions,
    ) -> Result<Arc<ErodedMesh>, QueryError> {
        let admits_all = self.admits_every_polygon(&options.filter);
        self.mesh
            .data()
            .eroded(erosion, &options.filter, admits_all)
    }

    /// Switches landmarks by size to landmarks always, for searches on an eroded copy
    /// (see [`Query::on_mesh`]); returns the setting to restore afterwards.
    pub(super) fn landmarks_on_copy(&mut self) -> LandmarkUse {
        let landmarks = self.landmarks;
        if landmarks == LandmarkUse::BySize {
            self.landmarks = LandmarkUse::Always;
        }
        landmarks
    }

    /// Runs `run` with this query moved onto `mesh` (an eroded mesh or its joined copy;
    /// its per-mesh memory put aside), then moves it back.
    ///
    /// With landmarks by size (the default), the path searches there use the copy's
    /// landmark table whatever the copy's size: a copy serves every query of one radius
    /// and is built by the first of them, whose build costs several times the table's
    /// floods on the small copies (den312d: 41 and 14 million instructions); on den312d
    /// the table cuts an exact-mode query at radius 0.5 from 1.70 to 1.35 times the
    /// instructions of radius 0 (BENCHMARKS.md, "session 18").
    ///
    /// Whether the copy's polygons all pass a filter is remembered for the last copy
    /// (scanning its flags again on every query made an exact-mode query on Iron
    /// Harvest's copy at radius 0.5 cost 304,731 instructions instead of 272,576;
    /// BENCHMARKS.md, "Session 23").
    pub(super) fn on_mesh<T>(&mut self, mesh: &NavMesh, run: impl FnOnce(&mut Query) -> T) -> T {
        let original = std::mem::replace(&mut self.mesh, mesh.clone());
        let known = self
            .copy_admits_all
            .take()
            .filter(|(copy, _)| std::ptr::eq(copy.as_ptr(), Arc::as_ptr(mesh.shared())))
            .map(|(_, known)| known);
        let admits_all = std::mem::replace(&mut self.admits_all, known);
        let landmarks = self.landmarks_on_copy();
        let answer = run(self);
        self.mesh = original;
        let on_copy = std::mem::replace(&mut self.admits_all, admits_all);
        self.copy_admits_all = on_copy.map(|known| (Arc::downgrade(mesh.shared()), known));
        self.landmarks = landmarks;
        answer
    }

    /// [`Query::find_path`] for an agent whose radius exceeds the baked one by
    /// `erosion > 0`; `options` are validated.
    pub(super) fn path_with_radius(
        &mut self,
        start: Vec3,
        goal: Vec3,
        options: &PathOptions,
        erosion: f32,
    ) -> Result<PathStatus, QueryError> {
        let (eroded, moved) = self.agent_search_setup(goal, options, erosion)?;
        let inner = eroded_options(options);
        // A joined copy's corridor is walked again across the original polygons below:
        // the exact mode need not walk it on the copy.
        let ends_only = eroded.joined.is_some();
        let status = self.on_mesh(eroded.search_mesh(), |query| {
            query.corridor_ends_only = ends_only;
            let status = query.path_between(start, goal, &inner);
            query.corridor_ends_only = false;
            status
        })?;
        let status = if self.corridor_from_eroded(&eroded) {
            status
        } else {
            self.path_on_pieces(start, goal, &inner, &eroded)?
        };
        arc_turns(&eroded.arcs, &self.path.corners, &mut self.path.arcs);
        Ok(if moved { PathStatus::Partial } else { status })
    }

    /// The path from `start` to `goal` searched on `eroded`'s own pieces (each inside
    /// one original polygon) rather than its joined copy, its corridor renamed by the
    /// original polygons: the answer when the joined copy's path could not be walked
    /// across the original mesh ([`Query::corridor_from_eroded`]). `inner` are the
    /// options on the eroded mesh ([`eroded_options`]).
    pub(super) fn path_on_pieces(
        &mut self,
        start: Vec3,
        goal: Vec3,
        inner: &PathOptions,
        eroded: &ErodedMesh,
    ) -> Result<PathStatus, QueryError> {
        let stats = self.stats;
        let status = self.on_mesh(&eroded.mesh, |query| query.path_between(start, goal, inner))?;
        // The counts of both searches: the joined copy's, then this one.
        self.stats.expanded += stats.expanded;
        self.stats.searches += stats.searches;
        self.corridor_to_original(&eroded.of_original);
        Ok(status)
    }

    /// What a path search for an agent whose radius exceeds the baked one by `erosion`
    /// needs before it runs on the eroded mesh: that mesh, and whether the filter moves
    /// `goal` ([`Query::goal_moved_for_agent`]; the path is then partial).
    ///
    /// # Errors
    /// The eroded mesh's, and [`QueryError::NoPath`] for a goal the filter moves when
    /// partial paths are not allowed.
    pub(super) fn agent_search_setup(
        &mut self,
        goal: Vec3,
        options: &PathOptions,
        erosion: f32,
    ) -> Result<(Arc<ErodedMesh>, bool), QueryError> {
        let eroded = self.eroded_mesh(erosion, options)?;
        let moved = self.goal_moved_for_agent(goal, options);
        if moved && !options.allow_partial {
            return Err(QueryError::NoPath);
        }
        Ok((eroded, moved))
    }

    /// Whether the filter of `options` moves `goal` on this query's mesh (it lies in,
    /// above or below a polygon the filter refuses): such a goal cannot be reached, as
    /// without a radius; a goal too close to a wall only moves to where the disc fits,
    /// as a goal off the mesh moves onto it, and does not count.
    fn goal_moved_for_agent(&mut self, goal: Vec3, options: &PathOptions) -> bool {
        // A filter that admits every polygon moves no goal: no nearest point needed.
        goal.is_finite() && !self.admits_every_polygon(&options.filter) && {
            let mesh = self.mesh.data();
            let filter = &options.filter;
            match mesh.nearest_point(goal, f32::INFINITY, |p| filter.admits(mesh.flags_of(p))) {
                Some(snapped) => self.moved_by_filter(goal, &snapped, filter),
                None => false,
            }
        }
    }

    /// Renames the polygons of `self.corridor` (of an eroded mesh) by the original
    /// polygons holding them, each run of one original polygon as one step, and its
    /// exits by the original portals.
    pub(super) fn corridor_to_original(&mut self, of_original: &[u32]) {
        let mut kept = 0;
        for i in 0..self.corridor.len() {
            let polygon = of_original[self.corridor[i].polygon as usize];
            if kept > 0 && self.corridor[kept - 1].polygon == polygon {
                continue;
            }
            self.corridor[kept] = CorridorStep {
                polygon,
                exit: LAST_STEP,
            };
            kept += 1;
        }
        self.corridor.truncate(kept);
        self.link_corridor_exits();
    }
}

/// Scratch memory of the queries with an agent radius, kept by the [`Query`] so that
/// they allocate nothing in steady state.
#[derive(Debug, Default)]
pub(crate) struct AgentScratch {
    /// The goals of a nearest-target query that the filter does not move.
    goals: Vec<Vec3>,
    /// The index of each of them among the goals given.
    index: Vec<usize>,
    /// Per polygon of the eroded mesh reached by a flood: its parent
    /// ([`NO_PARENT`] for none).
    parent: Vec<u32>,
    /// Per original polygon: whether a flood already listed it.
    listed: Vec<bool>,
}

/// [`AgentScratch::parent`] of a polygon without one.
const NO_PARENT: u32 = u32::MAX;

impl Query {
    /// [`Query::find_nearest_target`] for an agent whose radius exceeds the baked one
    /// by `erosion > 0`; `options` and the goals' finiteness are checked.
    pub(super) fn nearest_target_with_radius(
        &mut self,
        start: Vec3,
        goals: &[Vec3],
        options: &PathOptions,
        erosion: f32,
    ) -> Result<usize, QueryError> {
        let eroded = self.eroded_mesh(erosion, options)?;
        // Goals in, above or below a refused polygon are skipped, as without a radius.
        let mut kept = std::mem::take(&mut self.agent.goals);
        let mut index = std::mem::take(&mut self.agent.index);
        kept.clear();
        index.clear();
        for (i, &goal) in goals.iter().enumerate() {
            let mesh = self.mesh.data();
            let filter = &options.filter;
            let snapped =
                mesh.nearest_point(goal, f32::INFINITY, |p| filter.admits(mesh.flags_of(p)));
            if snapped.is_some_and(|s| !self.moved_by_filter(goal, &s, filter)) {
                kept.push(goal);
                index.push(i);
            }
        }
        let inner = eroded_options(options);
        let found = self.on_mesh(&eroded.mesh, |query| {
            query.nearest_target(start, &kept, &inner)
        });
        let answer = found.map(|k| index[k]);
        self.agent.goals = kept;
        self.agent.index = index;
        let answer = answer?;
        arc_turns(&eroded.arcs, &self.path.corners, &mut self.path.arcs);
        self.corridor_to_original(&eroded.of_original);
        Ok(answer)
    }

    /// Like [`Query::reachable_polygons`], for an agent of radius `agent_radius` (world
    /// units): the flood runs on the region where the disc fits (its centre at least
    /// the radius from every wall, the start moved there as by [`Query::find_path`]), so
    /// the costs are those of the disc's centre, and a polygon is listed when the disc
    /// can reach part of it. Each polygon is listed once, with the cost of the cheapest
    /// way into the part of it the disc may use, and its parent is the original polygon
    /// that way comes from. At or below the mesh's baked radius this is
    /// [`Query::reachable_polygons`].
    ///
    /// # Errors
    /// As [`Query::reachable_polygons`], [`QueryError::InvalidOption`] for a radius that
    /// is NaN, infinite or negative, and [`QueryError::ClearanceUnavailable`].
    ///
    /// # Example
    /// ```
    /// # use navstar::{glam::Vec3, MeshOptions, NavMesh};
    /// # let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// # let vertices = [v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0), v(3.0, 0.0), v(0.0, 1.0), v(1.0, 1.0), v(2.0, 1.0), v(3.0, 1.0)];
    /// # let indices = [0, 1, 5, 4, /**/ 1, 2, 6, 5, /**/ 2, 3, 7, 6];
    /// # let mesh = NavMesh::from_polygons(&vertices, &indices, &[4, 4, 4], &MeshOptions::default())?;
    /// // `mesh`: three unit squares in a row along x, polygons 0, 1, 2 (y up).
    /// use navstar::{Query, QueryFilter};
    ///
    /// let mut query = Query::new(&mesh);
    /// // A disc of radius 0.25 starts at x = 0.25 (moved off the wall x = 0) and can
    /// // go as far as x = 2.75; with a budget of 1.5 it gets into squares 0 and 1 only.
    /// let reached = query.reachable_polygons_for_agent(Vec3::new(0.0, 0.0, 0.5), 1.5, &QueryFilter::default(), f32::INFINITY, 0.25)?;
    /// let listed: Vec<(u32, Option<u32>)> = reached.iter().map(|r| (r.polygon, r.parent)).collect();
    /// assert_eq!(listed, [(0, None), (1, Some(0))]);
    /// assert!((reached[1].cost - 0.75).abs() < 1e-5);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn reachable_polygons_for_agent(
        &mut self,
        start: Vec3,
        max_cost: f32,
        filter: &QueryFilter,
        max_snap_distance: f32,
        agent_radius: f32,
    ) -> Result<&[ReachedPolygon], QueryError> {
        let options = PathOptions::default()
            .with_filter(filter.clone())
            .with_agent_radius(agent_radius);
        options.validate()?;
        let erosion = self.mesh.data().erosion_for(agent_radius);
        if erosion == 0.0 {
            return self.reachable_polygons(start, max_cost, filter, max_snap_distance);
        }
        if max_cost.is_nan() || max_cost < 0.0 {
            return Err(QueryError::InvalidOption(
                "max_cost must be >= 0 (infinity allowed)",
            ));
        }
        super::options::validate_snap_distance(max_snap_distance)?;
        let eroded = self.eroded_mesh(erosion, &options)?;
        let inner = eroded_options(&options);
        self.on_mesh(&eroded.mesh, |query| {
            query.flood_from(start, max_cost, &inner.filter, max_snap_distance)
        })?;
        self.reached_to_original(&eroded);
        Ok(&self.reached)
    }

    /// Renames the polygons of `self.reached` (of `eroded`) by the original ones: the
    /// first (cheapest) piece of each original polygon stands for it, and its parent is
    /// the first original polygon other than its own up its chain of parents.
    fn reached_to_original(&mut self, eroded: &ErodedMesh) {
        let scratch = &mut self.agent;
        let pieces = eroded.mesh.polygon_count() as usize;
        if scratch.parent.len() < pieces {
            scratch.parent.resize(pieces, NO_PARENT);
        }
        let originals = self
            .mesh
            .data()
            .polygon_ids()
            .last()
            .map_or(0, |p| p as usize + 1);
        if scratch.listed.len() < originals {
            scratch.listed.resize(originals, false);
        }
        for reached in &self.reached {
            scratch.parent[reached.polygon as usize] = reached.parent.unwrap_or(NO_PARENT);
        }
        let of = |piece: u32| eroded.of_original[piece as usize];
        let mut kept = 0;
        for i in 0..self.reached.len() {
            let reached = self.reached[i];
            let polygon = of(reached.polygon);
            if scratch.listed[polygon as usize] {
                continue;
            }
            scratch.listed[polygon as usize] = true;
            let mut parent = reached.parent;
            while let Some(p) = parent.filter(|&p| of(p) == polygon) {
                parent = Some(scratch.parent[p as usize]).filter(|&q| q != NO_PARENT);
            }
            self.reached[kept] = ReachedPolygon {
                polygon,
                cost: reached.cost,
                parent: parent.map(of),
            };
            kept += 1;
        }
        self.reached.truncate(kept);
        for reached in &self.reached {
            scratch.listed[reached.polygon as usize] = false;
        }
        for piece in scratch.parent.iter_mut().take(pieces) {
            *piece = NO_PARENT;
        }
    }
}
