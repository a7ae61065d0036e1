//! A corridor that follows a moving agent (after Detour's `dtPathCorridor`): the polygons
//! from the agent's position to its target, kept up to date as the agent moves along the
//! surface (polygons walked through are trimmed) and as the target moves, with the next
//! corners of the shortest way through it on demand.

mod details;
mod loops;
mod radius;
mod rejoin;
mod repair;

use glam::Vec3;

pub use repair::Repair;

use crate::corridor::funnel::{Portal, string_pull};
use crate::corridor::{CorridorStep, PathBuffer, PullScratch};
use crate::error::{Endpoint, QueryError};
use crate::filter::QueryFilter;
use crate::mesh::{CORNER_REACH, MeshData, NavMesh};
use loops::{cut_loops, has_repeats, merge_start};
use radius::AgentRadius;

/// How many polygons of the corridor ahead a move that left it may rejoin directly.
const SHORTCUT_LOOK_AHEAD: usize = 16;

/// A path corridor that follows an agent: its position, its target, and the chain of
/// neighbouring polygons between them, first the polygon of the position, last the
/// polygon of the target.
///
/// Build it from a path ([`PathCorridor::set_corridor`] with [`super::Query::corridor`]),
/// then each frame move the agent with [`PathCorridor::move_position`] (a
/// [`NavMesh::move_along_surface`] from the corridor's first polygon; the polygons walked
/// through replace the start of the corridor), read where to steer with
/// [`PathCorridor::corners`] (or [`PathCorridor::corners_with_details`] for their flags),
/// and check with [`PathCorridor::is_valid`] that no polygon ahead has been closed since
/// (flags change at run time); [`PathCorridor::repair`] replans only the part after the
/// break, and [`PathCorridor::optimize_visibility`] shortens the corridor when the agent
/// sees further ahead. For a disc-shaped agent, [`PathCorridor::set_agent_radius`] makes
/// the moves and the corners keep the radius from the walls. The
/// corridor keeps its own vectors: after the first frames it allocates nothing. One
/// agent, one thread at a time (`&mut self`); the mesh is shared.
///
/// # Example
/// ```
/// # use navstar::{glam::Vec3, MeshOptions, NavMesh};
/// # let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
/// # let vertices = [v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0), v(0.0, 1.0), v(1.0, 1.0), v(2.0, 1.0), v(0.0, 2.0), v(1.0, 2.0)];
/// # let indices = [0, 1, 4, 3, /**/ 1, 2, 5, 4, /**/ 3, 4, 7, 6];
/// # let mesh = NavMesh::from_polygons(&vertices, &indices, &[4, 4, 4], &MeshOptions::default())?;
/// // `mesh`: an L of three unit squares (y up): 1 = [1,2]x[0,1], 0 = [0,1]x[0,1], 2 = [0,1]x[1,2].
/// use navstar::{PathCorridor, PathOptions, Query, QueryFilter};
///
/// let (start, goal) = (Vec3::new(1.8, 0.0, 0.5), Vec3::new(0.5, 0.0, 1.8));
/// let mut query = Query::new(&mesh);
/// query.find_path(start, goal, &PathOptions::default())?;
/// let mut corridor = PathCorridor::new(&mesh, 1, start)?;
/// let polygons: Vec<u32> = query.corridor().collect();
/// corridor.set_corridor(goal, &polygons)?;
/// // Round the inner corner (1, 1) of the L.
/// assert_eq!(corridor.corners(4), [Vec3::new(1.0, 0.0, 1.0), goal]);
/// // A step towards the corner moves the agent into square 0: square 1 is trimmed.
/// let filter = QueryFilter::default();
/// corridor.move_position(Vec3::new(0.9, 0.0, 0.9), &filter)?;
/// assert_eq!(corridor.polygons(), [0, 2]);
/// assert_eq!(corridor.corners(4), [goal]);
/// assert!(corridor.is_valid(8, &filter));
/// mesh.set_polygon_flags(2, 0)?;
/// assert!(!corridor.is_valid(8, &filter));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct PathCorridor {
    mesh: NavMesh,
    position: Vec3,
    target: Vec3,
    polygons: Vec<u32>,
    /// Scratch: the polygons a move walked through, the portals and corners of the
    /// string pull.
    visited: Vec<u32>,
    portals: Vec<Portal>,
    corners: Vec<Vec3>,
    /// Scratch of the corners with details: the corridor as steps, the pull's memory
    /// and its answer; and a sorted copy of the polygons (loop checks).
    steps: Vec<CorridorStep>,
    pull: PullScratch,
    path: PathBuffer,
    sorted: Vec<u32>,
    /// The agent's radius, its eroded mesh and the scratch of its corners.
    agent: AgentRadius,
}

impl PathCorridor {
    /// A corridor of one polygon, `polygon`, with the agent and its target both at
    /// `position` (moved onto the polygon). The corridor shares `mesh` (a cheap clone of
    /// its handle) and keeps its own scratch vectors.
    ///
    /// # Errors
    /// [`QueryError::IndexOutOfRange`] when `polygon` is not a polygon of `mesh`;
    /// [`QueryError::NonFinitePoint`] (the start) for a NaN or infinite `position`.
    pub fn new(mesh: &NavMesh, polygon: u32, position: Vec3) -> Result<PathCorridor, QueryError> {
        if !position.is_finite() {
            return Err(QueryError::NonFinitePoint(Endpoint::Start));
        }
        mesh.data().check_polygon(polygon)?;
        let position = mesh.closest_point_on_polygon(polygon, position);
        Ok(PathCorridor {
            mesh: mesh.clone(),
            position,
            target: position,
            polygons: vec![polygon],
            visited: Vec::new(),
            portals: Vec::new(),
            corners: Vec::new(),
            steps: Vec::new(),
            pull: PullScratch::default(),
            path: PathBuffer::default(),
            sorted: Vec::new(),
            agent: AgentRadius::default(),
        })
    }

    /// The agent's position (on the corridor's first polygon).
    #[must_use]
    pub fn position(&self) -> Vec3 {
        self.position
    }

    /// The target (on the corridor's last polygon).
    #[must_use]
    pub fn target(&self) -> Vec3 {
        self.target
    }

    /// The polygons from the agent to the target.
    #[must_use]
    pub fn polygons(&self) -> &[u32] {
        &self.polygons
    }

    /// Replaces the polygons ahead with `polygons` (a path's corridor,
    /// [`super::Query::corridor`]) leading to `target`. The first must be the polygon
    /// the agent is in (the corridor's first); the target is moved onto the last.
    ///
    /// # Errors
    /// [`QueryError::InvalidOption`] when `polygons` is empty, does not start at the
    /// agent's polygon, or is not a chain of neighbours (a path through an off-mesh link
    /// is followed one stretch at a time); [`QueryError::IndexOutOfRange`] for an id that
    /// is not a polygon of the mesh; [`QueryError::NonFinitePoint`] for the target. The
    /// corridor is unchanged on error.
    pub fn set_corridor(&mut self, target: Vec3, polygons: &[u32]) -> Result<(), QueryError> {
        if !target.is_finite() {
            return Err(QueryError::NonFinitePoint(Endpoint::Goal));
        }
        let mesh = self.mesh.data();
        for &polygon in polygons {
            mesh.check_polygon(polygon)?;
        }
        match polygons.first() {
            None => return Err(QueryError::InvalidOption("the corridor has no polygon")),
            Some(&first) if first != self.polygons[0] => {
                return Err(QueryError::InvalidOption(
                    "the corridor must start at the agent's polygon",
                ));
            }
            Some(_) => {}
        }
        if polygons
            .windows(2)
            .any(|pair| self.portal(pair[0], pair[1]).is_none())
        {
            return Err(QueryError::InvalidOption(
                "the corridor must be a chain of neighbouring polygons",
            ));
        }
        self.polygons.clear();
        self.polygons.extend_from_slice(polygons);
        if has_repeats(&self.polygons, &mut self.sorted) {
            let all = self.polygons.len();
            cut_loops(&mut self.polygons, all);
        }
        let last = *polygons.last().expect("checked not empty");
        self.target = self.mesh.closest_point_on_polygon(last, target);
        Ok(())
    }

    /// Moves the agent towards `position` along the surface
    /// ([`NavMesh::move_along_surface`] from the corridor's first polygon, sliding along
    /// walls and polygons `filter` refuses) and trims the corridor: the start is replaced
    /// by the polygons walked through, back to the furthest one that was in the corridor.
    /// Returns whether the agent is still on the corridor: true also when it stepped
    /// through a polygon beside the corridor that borders one of the next 16 polygons of
    /// the corridor (the corridor then goes on from there); false when it walked off
    /// it, the corridor then starting with the way back. With an agent radius
    /// ([`PathCorridor::set_agent_radius`]) the move is
    /// [`NavMesh::move_along_surface_for_agent`]: the disc never overlaps a wall.
    ///
    /// # Errors
    /// As [`NavMesh::move_along_surface`] (a non-finite point; the agent's polygon
    /// refused by `filter`), and as [`NavMesh::move_along_surface_for_agent`] with a
    /// radius.
    pub fn move_position(
        &mut self,
        position: Vec3,
        filter: &QueryFilter,
    ) -> Result<bool, QueryError> {
        let moved = self.mesh.move_along_surface_for_agent(
            Some(self.polygons[0]),
            self.position,
            position,
            filter,
            self.agent.radius,
            &mut self.visited,
        )?;
        self.position = moved.point;
        Ok(self.merge_moved())
    }

    /// [`merge_start`] of the last move's polygons into the corridor's start; when the
    /// move left the corridor (through a polygon beside it, round a vertex), and the
    /// polygon it ended in borders one of the next [`SHORTCUT_LOOK_AHEAD`] polygons of the
    /// old corridor, the corridor goes on from there instead of back the way walked.
    fn merge_moved(&mut self) -> bool {
        let old_len = self.polygons.len();
        let walked_off = merge_start(&mut self.polygons, &self.visited);
        if walked_off == 0 {
            return true;
        }
        let end = self.polygons[0];
        let back = self.polygons.len() - old_len.min(self.polygons.len());
        let ahead = (back + 1..self.polygons.len()).take(SHORTCUT_LOOK_AHEAD);
        if let Some(k) = ahead
            .rev()
            .find(|&k| self.portal(end, self.polygons[k]).is_some())
        {
            self.polygons.drain(1..k);
            cut_loops(&mut self.polygons, 1);
            return true;
        }
        cut_loops(&mut self.polygons, walked_off);
        false
    }

    /// Moves the target towards `target` along the surface from the corridor's last
    /// polygon, extending or trimming the end of the corridor as the agent's start is
    /// in [`PathCorridor::move_position`]. Returns whether the new target's polygon was
    /// already on the corridor. With an agent radius the target moves as the disc's
    /// centre ([`NavMesh::move_along_surface_for_agent`]).
    ///
    /// # Errors
    /// As [`NavMesh::move_along_surface`], and as
    /// [`NavMesh::move_along_surface_for_agent`] with a radius.
    pub fn move_target(&mut self, target: Vec3, filter: &QueryFilter) -> Result<bool, QueryError> {
        let last = *self.polygons.last().expect("a corridor has a polygon");
        let moved = self.mesh.move_along_surface_for_agent(
            Some(last),
            self.target,
            target,
            filter,
            self.agent.radius,
            &mut self.visited,
        )?;
        self.target = moved.point;
        self.polygons.reverse();
        let walked_off = merge_start(&mut self.polygons, &self.visited);
        cut_loops(&mut self.polygons, walked_off);
        self.polygons.reverse();
        Ok(walked_off == 0)
    }

    /// Whether the first `look_ahead` polygons of the corridor are all still admitted by
    /// `filter` (their flags change at run time: a door closes). When it is false, plan
    /// a new path from [`PathCorridor::position`], or [`PathCorridor::repair`] it.
    #[must_use]
    pub fn is_valid(&self, look_ahead: usize, filter: &QueryFilter) -> bool {
        self.polygons
            .iter()
            .take(look_ahead)
            .all(|&p| filter.admits(self.mesh.polygon_flags(p)))
    }

    /// The next corners (at most `max`) of the shortest way from the position to the
    /// target through the corridor, in the ground plane, with the heights of the mesh;
    /// the position itself is not listed, nor corners within `1e-4` (relative to the
    /// coordinates' size, at least 1) of it in the ground plane (a corner the agent has
    /// reached up to rounding: steer for the next one); the target is listed (last) when
    /// it is among the first `max`. Empty only when the agent stands on the target. With
    /// an agent radius ([`PathCorridor::set_agent_radius`]) the way keeps the radius from
    /// the mesh's walls, and the target listed is the nearest point of the target's
    /// polygon where the disc fits.
    pub fn corners(&mut self, max: usize) -> &[Vec3] {
        let up = self.mesh.up_axis();
        if !self.pull_for_agent() {
            self.portals.clear();
            self.portals
                .push(Portal::point(up.ground(self.position), self.position));
            for i in 1..self.polygons.len() {
                let portal = self
                    .portal(self.polygons[i - 1], self.polygons[i])
                    .expect("the corridor is a chain of neighbours");
                self.portals.push(portal);
            }
            self.portals
                .push(Portal::point(up.ground(self.target), self.target));
            string_pull(&self.portals, &mut self.corners);
        }
        // The first corner is the position; corners reached up to rounding are skipped.
        let here = up.ground(self.position);
        let reached = CORNER_REACH * here.abs().max_element().max(1.0);
        let first = self.corners[1..]
            .iter()
            .position(|&c| up.ground(c).distance(here) > reached)
            .map_or(self.corners.len(), |k| k + 1);
        let end = self.corners.len().min(first.saturating_add(max));
        &self.corners[first..end]
    }

    /// The portal from `from` into `to` as the agent crosses it, if they are neighbours.
    fn portal(&self, from: u32, to: u32) -> Option<Portal> {
        portal_of(self.mesh.data(), from, to)
    }
}

/// The portal of `mesh` from `from` into `to` as an agent crosses it, if they are
/// neighbours.
fn portal_of(mesh: &MeshData, from: u32, to: u32) -> Option<Portal> {
    let slot = mesh
        .corner_range(from)
        .find(|&slot| mesh.neighbours[slot] == to)?;
    let (left, right) = mesh.portal_vertices(from, slot);
    let (left_world, right_world) = (mesh.vertices[left as usize], mesh.vertices[right as usize]);
    Some(Portal {
        left: mesh.up.ground(left_world),
        right: mesh.up.ground(right_world),
        left_world,
        right_world,
    })
}
