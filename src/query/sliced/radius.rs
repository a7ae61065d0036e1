//! Sliced searches for an agent radius above the baked one, as [`Query::find_path`]
//! runs them: on the eroded mesh's search mesh (its joined copy when it has one), the
//! path's corridor walked across the mesh's own polygons once the search has ended;
//! when that walk fails, a second search on the eroded pieces themselves, begun at
//! once and sliced like the first (so `finish_path` does no search of its own once
//! the slices are done), its counts added to the first's.

use std::sync::Arc;

use glam::Vec3;

use super::{SlicedState, Stage};
use crate::error::QueryError;
use crate::mesh::{ErodedMesh, NavMesh};
use crate::query::arc_turns::arc_turns;
use crate::query::clearance::eroded_options;
use crate::query::{PathOptions, PathStatus, Query};

/// A sliced search for an agent radius: on the eroded copy of the mesh the query began
/// on, as [`Query::find_path`] runs it.
pub(super) struct RadiusSlice {
    /// The mesh the query began on, whose flags [`crate::SliceProgress::flags_changed`]
    /// watches and whose polygons the corridor is given in.
    pub(super) original: NavMesh,
    /// The eroded copy, whose search mesh ([`ErodedMesh::search_mesh`]) is searched.
    eroded: Arc<ErodedMesh>,
    /// The start and goal asked for, for the search on the eroded pieces when the
    /// path found cannot be walked across `original` (as `find_path` falls back).
    asked: (Vec3, Vec3),
    /// Whether the filter moved the goal on `original` (the path is then partial).
    moved: bool,
    /// Which search runs, and whether the corridor is already in `original`'s polygons.
    stage: RadiusStage,
}

/// Where a radius search is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RadiusStage {
    /// Searching the eroded search mesh (or answered there, the corridor not walked).
    Searching,
    /// Answered on the search mesh; the corridor walked across the original polygons.
    Walked,
    /// Searching (or answered on) the eroded pieces, after the walk failed.
    OnPieces,
}

impl RadiusSlice {
    /// Whether the search runs on the eroded mesh's joined copy, whose corridor is
    /// walked again across the original polygons once it has answered.
    pub(super) fn on_joined_copy(&self) -> bool {
        self.stage == RadiusStage::Searching && self.eroded.joined.is_some()
    }
}

impl Query {
    /// [`Query::begin_path`] for an agent whose radius exceeds the baked one by
    /// `erosion > 0` (`options` validated): the search begun on the eroded mesh with the
    /// options [`Query::find_path`] gives it there, and the goal's move by the filter
    /// judged on the mesh itself, as `find_path` judges it.
    pub(super) fn begin_sliced_for_agent(
        &mut self,
        start: Vec3,
        goal: Vec3,
        options: &PathOptions,
        erosion: f32,
    ) -> Result<SlicedState, QueryError> {
        let (eroded, moved) = self.agent_search_setup(goal, options, erosion)?;
        let original = self.mesh.clone();
        let inner = eroded_options(options);
        let mut state = self.on_mesh(eroded.search_mesh(), |query| {
            query.begin_sliced(start, goal, &inner)
        })?;
        mark_moved(&mut state, moved);
        state.generation = original.data().flags_generation();
        state.radius = Some(RadiusSlice {
            original,
            eroded,
            asked: (start, goal),
            moved,
            stage: RadiusStage::Searching,
        });
        self.settle_radius(&mut state);
        Ok(state)
    }

    /// Once the search on the eroded search mesh has answered: walks its corridor
    /// across the original polygons, or, when that fails, begins the search on the
    /// eroded pieces in `state`'s place (its counts added to the first search's). Does
    /// nothing for other states.
    pub(super) fn settle_radius(&mut self, state: &mut SlicedState) {
        let Some(radius) = &mut state.radius else {
            return;
        };
        if radius.stage != RadiusStage::Searching || !matches!(state.stage, Stage::Answered(Ok(_)))
        {
            return;
        }
        // The answer is in the sliced buffers: walk it there.
        self.swap_answer();
        let walked = self.on_mesh(&radius.original, |query| {
            query.corridor_from_eroded(&radius.eroded)
        });
        self.swap_answer();
        if walked {
            radius.stage = RadiusStage::Walked;
            return;
        }
        let (start, goal) = radius.asked;
        let inner = eroded_options(&state.options);
        let eroded = Arc::clone(&radius.eroded);
        let pieces = self.on_mesh(&eroded.mesh, |query| {
            query.begin_sliced(start, goal, &inner)
        });
        let Some(mut radius) = state.radius.take() else {
            return;
        };
        radius.stage = RadiusStage::OnPieces;
        let joined = state.stats;
        match pieces {
            Ok(pieces) => {
                *state = pieces;
                mark_moved(state, radius.moved);
                state.generation = radius.original.data().flags_generation();
            }
            Err(e) => state.stage = Stage::Answered(Err(e)),
        }
        state.stats.expanded += joined.expanded;
        state.stats.searches += joined.searches;
        state.radius = Some(radius);
    }

    /// [`Query::finish_path`]'s part for an agent radius, once the answer is in the
    /// query's last path: its corridor in the mesh's own polygons (walked, renamed from
    /// the pieces, or, for a search finished early, walked now with the search on the
    /// pieces as `find_path`'s fallback) and the turns round wall corners. `Some` when
    /// that fallback gave the answer.
    pub(super) fn finish_radius(
        &mut self,
        state: &SlicedState,
    ) -> Option<Result<PathStatus, QueryError>> {
        let radius = state.radius.as_ref()?;
        let mut answer = None;
        match radius.stage {
            RadiusStage::Walked => {}
            RadiusStage::OnPieces => self.on_mesh(&radius.original, |query| {
                query.corridor_to_original(&radius.eroded.of_original);
            }),
            RadiusStage::Searching => {
                let walked = self.on_mesh(&radius.original, |query| {
                    query.corridor_from_eroded(&radius.eroded)
                });
                if !walked && matches!(state.stage, Stage::Answered(Ok(_))) {
                    let (start, goal) = radius.asked;
                    let inner = eroded_options(&state.options);
                    let on_pieces = self.on_mesh(&radius.original, |query| {
                        query.path_on_pieces(start, goal, &inner, &radius.eroded)
                    });
                    answer = Some(on_pieces.map(|status| state.final_status(status)));
                }
            }
        }
        arc_turns(&radius.eroded.arcs, &self.path.corners, &mut self.path.arcs);
        answer
    }

    /// Exchanges the query's last path and corridor with the sliced search's buffers.
    fn swap_answer(&mut self) {
        std::mem::swap(&mut self.path, &mut self.sliced.path);
        std::mem::swap(&mut self.corridor, &mut self.sliced.corridor);
    }
}

/// Marks `state` as moved by the filter on the original mesh when `moved` (an answer
/// already there becomes partial).
fn mark_moved(state: &mut SlicedState, moved: bool) {
    if moved {
        state.moved = true;
        if let Stage::Answered(Ok(status)) = &mut state.stage {
            *status = PathStatus::Partial;
        }
    }
}
