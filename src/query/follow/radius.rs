//! A corridor that follows a disc-shaped agent: its moves slide along the walls moved in
//! by the radius, and its corners are those of the way through the mesh's eroded copy
//! that stays within the corridor's polygons.

use std::sync::Arc;

use glam::Vec3;

use super::{PathCorridor, portal_of};
use crate::corridor::funnel::{Portal, string_pull};
use crate::error::QueryError;
use crate::mesh::{ErodedMesh, MeshData, NO_NEIGHBOUR};
use crate::search::map::NodeMap;

/// The radius of a corridor's agent, the eroded mesh for it and the scratch of the
/// corners through that mesh. Clones share the eroded mesh and start with empty scratch.
#[derive(Default)]
pub(super) struct AgentRadius {
    /// The agent's whole radius (world units, >= 0).
    pub radius: f32,
    /// The mesh eroded for the radius (every polygon admitted); `None` at or below the
    /// baked radius.
    eroded: Option<Arc<ErodedMesh>>,
    /// Scratch of the search through the eroded pieces: each piece reached and the
    /// index (in `queue`) of the piece it was reached from.
    parents: NodeMap<u32>,
    queue: Vec<u32>,
    /// The chain of pieces from the position's to the target's.
    pub(super) chain: Vec<u32>,
}

impl Clone for AgentRadius {
    fn clone(&self) -> Self {
        AgentRadius {
            radius: self.radius,
            eroded: self.eroded.clone(),
            ..AgentRadius::default()
        }
    }
}

impl std::fmt::Debug for AgentRadius {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AgentRadius")
            .field("radius", &self.radius)
            .field("eroded", &self.eroded.is_some())
            .finish()
    }
}

impl PathCorridor {
    /// Sets the radius of the agent the corridor follows (world units, its whole radius,
    /// the mesh's baked radius included; 0 at first). Above the baked radius,
    /// [`PathCorridor::move_position`] and [`PathCorridor::move_target`] slide the disc's
    /// centre along the walls moved in by the radius
    /// ([`NavMesh::move_along_surface_for_agent`](crate::NavMesh::move_along_surface_for_agent):
    /// the disc never overlaps a wall of the polygons the filter admits), and
    /// [`PathCorridor::corners`] are those of the shortest way for the disc's centre
    /// through the part of the corridor where the disc fits, keeping the radius from the
    /// mesh's walls (edges without a neighbour; polygons closed at run time are not
    /// walls for the corners, [`PathCorridor::is_valid`] reports them). When the disc
    /// cannot get from the position to the target within the corridor's polygons, the
    /// corners are those without a radius. [`PathCorridor::corners_with_details`] pulls
    /// the same way, [`PathCorridor::repair`] searches with the radius (as
    /// [`PathOptions::agent_radius`](crate::PathOptions::agent_radius) does) and
    /// [`PathCorridor::optimize_visibility`] shortens the corridor only along a straight
    /// walk of the disc that meets no wall. Builds the
    /// mesh's eroded copy for the radius (kept by the corridor, so later frames look
    /// nothing up).
    ///
    /// # Errors
    /// [`QueryError::InvalidOption`] for a radius that is NaN, infinite or negative, and
    /// [`QueryError::ClearanceUnavailable`] when no point of the mesh keeps that distance
    /// from its walls. The corridor is unchanged on error.
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshOptions, NavMesh, PathCorridor, PathOptions, Query, QueryFilter};
    ///
    /// // An L of 2 x 2 squares (y up): 0 = [0,2]x[0,2], 1 = [2,4]x[0,2], 2 = [0,2]x[2,4];
    /// // the inner corner (2, 2).
    /// let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// let vertices = [v(0.0, 0.0), v(2.0, 0.0), v(4.0, 0.0), v(0.0, 2.0), v(2.0, 2.0), v(4.0, 2.0), v(0.0, 4.0), v(2.0, 4.0)];
    /// let mesh = NavMesh::from_polygons(&vertices, &[0, 1, 4, 3, 1, 2, 5, 4, 3, 4, 7, 6], &[4, 4, 4], &MeshOptions::default())?;
    /// let (start, goal) = (v(3.0, 1.0), v(1.0, 3.0));
    /// let mut query = Query::new(&mesh);
    /// query.find_path(start, goal, &PathOptions::default().with_agent_radius(0.5))?;
    /// let polygons: Vec<u32> = query.corridor().collect();
    /// let mut corridor = PathCorridor::new(&mesh, 1, start)?;
    /// corridor.set_corridor(goal, &polygons)?;
    /// corridor.set_agent_radius(0.5)?;
    /// // The corners round the inner corner keep 0.5 from it.
    /// let corners = corridor.corners(64).to_vec();
    /// assert!(corners.len() > 2);
    /// assert!(corners.iter().all(|c| c.distance(v(2.0, 2.0)) >= 0.5));
    /// assert_eq!(*corners.last().unwrap(), goal);
    /// // A move into the wall z = 0 stops 0.5 short of it.
    /// corridor.move_position(v(3.0, -1.0), &QueryFilter::default())?;
    /// assert!((corridor.position().z - 0.5).abs() < 1e-4);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_agent_radius(&mut self, agent_radius: f32) -> Result<(), QueryError> {
        let eroded = self.mesh.eroded_for(agent_radius, None)?;
        self.agent = AgentRadius {
            radius: agent_radius,
            eroded,
            ..std::mem::take(&mut self.agent)
        };
        Ok(())
    }

    /// The radius of the agent the corridor follows ([`PathCorridor::set_agent_radius`]).
    #[must_use]
    pub fn agent_radius(&self) -> f32 {
        self.agent.radius
    }

    /// Whether the corridor's corners keep an agent radius (one above the mesh's baked
    /// radius was set).
    #[cfg(feature = "capi")]
    pub(crate) fn corners_keep_a_radius(&self) -> bool {
        self.agent.eroded.is_some()
    }

    /// Fills `self.corners` with the string pull through the eroded pieces of the
    /// corridor, from the position to the target (both moved onto the pieces); false
    /// (nothing done) without an eroded mesh, or when no chain of pieces of the
    /// corridor's polygons joins them.
    pub(super) fn pull_for_agent(&mut self) -> bool {
        let Some((eroded, from, to)) = self.chain_for_agent() else {
            return false;
        };
        let mesh = eroded.mesh.data();
        let up = mesh.up;
        self.portals.clear();
        self.portals.push(Portal::point(up.ground(from), from));
        for pair in self.agent.chain.windows(2) {
            match portal_of(mesh, pair[0], pair[1]) {
                Some(portal) => self.portals.push(portal),
                None => return false,
            }
        }
        self.portals.push(Portal::point(up.ground(to), to));
        string_pull(&self.portals, &mut self.corners);
        true
    }

    /// The chain of eroded pieces of the corridor's polygons from the position's piece
    /// to the target's (in `self.agent.chain`), with the eroded mesh and the position
    /// and target moved onto those pieces; `None` without an eroded mesh, or when no
    /// such chain joins them.
    pub(super) fn chain_for_agent(&mut self) -> Option<(Arc<ErodedMesh>, Vec3, Vec3)> {
        let eroded = self.agent.eroded.clone()?;
        let (first, last) = (self.polygons[0], *self.polygons.last().expect("not empty"));
        let (start, from) = nearest_piece(&eroded, first, self.position)?;
        let (goal, to) = nearest_piece(&eroded, last, self.target)?;
        self.sorted.clear();
        self.sorted.extend_from_slice(&self.polygons);
        self.sorted.sort_unstable();
        if !self.chain_of_pieces(&eroded, start, goal) {
            return None;
        }
        Some((eroded, from, to))
    }

    /// Breadth first from piece `start` to piece `goal` across the eroded mesh's
    /// neighbours whose original polygon is in the corridor (`self.sorted`); the chain
    /// goes into `self.agent.chain`. False when `goal` is not reached or memory runs out.
    fn chain_of_pieces(&mut self, eroded: &ErodedMesh, start: u32, goal: u32) -> bool {
        let mesh: &MeshData = eroded.mesh.data();
        let agent = &mut self.agent;
        agent.parents.clear();
        agent.queue.clear();
        agent.queue.push(start);
        if !agent.parents.insert(start, u32::MAX) {
            return false;
        }
        let mut next = 0;
        let mut found = start == goal;
        while next < agent.queue.len() && !found {
            let piece = agent.queue[next];
            for slot in mesh.corner_range(piece) {
                let n = mesh.neighbours[slot];
                if n == NO_NEIGHBOUR
                    || agent.parents.get(n).is_some()
                    || self
                        .sorted
                        .binary_search(&eroded.of_original[n as usize])
                        .is_err()
                {
                    continue;
                }
                if !agent.parents.insert(n, next as u32) {
                    return false;
                }
                agent.queue.push(n);
                if n == goal {
                    found = true;
                    break;
                }
            }
            next += 1;
        }
        if !found {
            return false;
        }
        agent.chain.clear();
        let mut at = goal;
        loop {
            agent.chain.push(at);
            match agent.parents.get(at) {
                Some(parent) if parent != u32::MAX => at = agent.queue[parent as usize],
                _ => break,
            }
        }
        agent.chain.reverse();
        true
    }
}

/// The piece of original polygon `polygon` nearest `point`, and that nearest point.
fn nearest_piece(eroded: &ErodedMesh, polygon: u32, point: Vec3) -> Option<(u32, Vec3)> {
    eroded
        .mesh
        .data()
        .nearest_point(point, f32::INFINITY, |p| {
            eroded.of_original[p as usize] == polygon
        })
        .map(|near| (near.polygon, near.point))
}
