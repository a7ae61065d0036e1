//! Path queries for a disc-shaped agent ([`PathOptions::agent_radius`] above the mesh's
//! baked radius): the query runs on the mesh's eroded copy for that radius and filter
//! (`mesh/clearance`), then names the original polygons in its corridor.

use glam::Vec3;

use super::{PathOptions, PathStatus, Query};
use crate::corridor::{CorridorStep, LAST_STEP, StepKey};
use crate::error::QueryError;
use crate::filter::QueryFilter;
use crate::mesh::{ErodedMesh, NavMesh};
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

    /// Runs `run` with this query moved onto `mesh` (its per-mesh memory put aside),
    /// then moves it back.
    pub(super) fn on_mesh<T>(&mut self, mesh: &NavMesh, run: impl FnOnce(&mut Query) -> T) -> T {
        let original = std::mem::replace(&mut self.mesh, mesh.clone());
        let admits_all = self.admits_all.take();
        let answer = run(self);
        self.mesh = original;
        self.admits_all = admits_all;
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
        let eroded = self.eroded_mesh(erosion, options)?;
        // A goal in, above or below a polygon the filter refuses cannot be reached, as
        // without a radius; a goal too close to a wall only moves to where the disc
        // fits, as a goal off the mesh moves onto it.
        let moved = goal.is_finite() && {
            let mesh = self.mesh.data();
            let filter = &options.filter;
            match mesh.nearest_point(goal, f32::INFINITY, |p| filter.admits(mesh.flags_of(p))) {
                Some(snapped) => self.moved_by_filter(goal, &snapped, filter),
                None => false,
            }
        };
        if moved && !options.allow_partial {
            return Err(QueryError::NoPath);
        }
        let inner = eroded_options(options);
        let status = self.on_mesh(&eroded.mesh, |query| {
            query.path_between(start, goal, &inner)
        })?;
        self.corridor_to_original(&eroded.of_original);
        Ok(if moved { PathStatus::Partial } else { status })
    }

    /// Renames the polygons of `self.corridor` (of an eroded mesh) by the original
    /// polygons holding them, each run of one original polygon as one step, and its
    /// exits by the original portals.
    fn corridor_to_original(&mut self, of_original: &[u32]) {
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
        let mesh = self.mesh.data();
        for i in 1..kept {
            let (from, to) = (self.corridor[i - 1].polygon, self.corridor[i].polygon);
            if let Some(slot) = mesh
                .corner_range(from)
                .find(|&slot| mesh.neighbours[slot] == to)
            {
                self.corridor[i - 1].exit = slot as StepKey;
            }
        }
    }
}
