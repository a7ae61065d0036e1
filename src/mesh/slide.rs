//! Moving along the surface: a straight walk towards a target that slides along the
//! walls it meets (collide and slide), for agents moved a little every frame.

use glam::{DVec2, Vec2, Vec3};

use super::{MeshData, NO_NEIGHBOUR, NavMesh, WalkEnd};
use crate::error::{Endpoint, QueryError};
use crate::filter::QueryFilter;

/// The most straight legs of one move: the first towards the target, and then one more
/// after each wall met (so a move slides along at most `MAX_LEGS - 1` walls, enough to
/// run along a wall into a corner and stop there).
pub const MAX_SURFACE_LEGS: usize = 4;

/// How near (relative to the coordinates' size, at least 1) a point must be to a corner
/// to count as at it: a path follower counts such a corner as reached, and a move that
/// starts that near the end of a wall and is stopped by it at once steps onto the corner
/// (along the wall) to go on past it.
pub(crate) const CORNER_REACH: f32 = 1e-4;

/// The answer of [`NavMesh::move_along_surface`].
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct SurfaceMove {
    /// Where the move ended, in world coordinates, with the height of `polygon`'s
    /// surface there.
    pub point: Vec3,
    /// The polygon the move ended in.
    pub polygon: u32,
    /// How many times the move met a wall, from 0 (straight to the target) to
    /// [`MAX_SURFACE_LEGS`] (each leg ended at a wall).
    pub walls: u32,
}

impl NavMesh {
    /// Moves from `start` towards `target` along the mesh surface, sliding along the
    /// walls met on the way (Detour's `moveAlongSurface`, the "collide and slide" of
    /// character controllers), and never leaving the polygons `filter` admits: edges
    /// without a neighbour and edges into refused polygons are walls.
    ///
    /// The move works in the ground plane. It walks straight towards the target; at a
    /// wall it keeps the part of the remaining motion along the wall (the projection on
    /// the wall's direction, so it never gains length) and walks that from just inside
    /// the wall (a few `f32` steps of the coordinates' size), up to
    /// [`MAX_SURFACE_LEGS`] legs. Every leg is a straight walk that stays on the mesh, so
    /// the end is reached by a walk no longer than the ground distance from start to
    /// target; in a corner the move stops in the corner. One exception: a start a hair off
    /// the end of a wall (within `1e-4` of the coordinates' size, the reach within which
    /// [`PathCorridor::corners`](crate::PathCorridor::corners) counts a corner as passed)
    /// that the wall stops at once, with nothing left to slide, first steps along the wall
    /// onto that end and walks on from there, so an agent steered past a corner gets round
    /// it. The end's height is that of the polygon reached.
    ///
    /// * `start_polygon`: the polygon the agent is in (the polygon of the last move);
    ///   `start` is then moved to that polygon's nearest point (3D), which is what it is
    ///   when it lies in it. `None` snaps `start` to the nearest admitted polygon at any
    ///   distance (a nearest-point search; per-frame callers pass the polygon instead).
    /// * `visited` is cleared and receives the polygons walked through, in order, without
    ///   repeating one twice in a row: the start polygon first, the end polygon last. It
    ///   allocates only to grow, so a vector kept between calls makes a move
    ///   allocation-free.
    ///
    /// Cost: one straight walk per leg, proportional to the polygons crossed; no search,
    /// no allocation in steady state (`cargo bench --bench agents` times it).
    ///
    /// # Errors
    /// [`QueryError::NonFinitePoint`] for a NaN or infinite point;
    /// [`QueryError::IndexOutOfRange`] when `start_polygon` is not a polygon of the mesh;
    /// [`QueryError::RefusedPolygon`] when `filter` refuses it; [`QueryError::NotOnMesh`]
    /// when the filter admits no polygon at all (`start_polygon` `None`).
    ///
    /// # Example
    /// ```
    /// # use navstar::{glam::Vec3, MeshOptions, NavMesh};
    /// # let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// # let vertices = [v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0), v(3.0, 0.0), v(0.0, 1.0), v(1.0, 1.0), v(2.0, 1.0), v(3.0, 1.0)];
    /// # let indices = [0, 1, 5, 4, /**/ 1, 2, 6, 5, /**/ 2, 3, 7, 6];
    /// # let mesh = NavMesh::from_polygons(&vertices, &indices, &[4, 4, 4], &MeshOptions::default())?;
    /// // `mesh`: three unit squares in a row along x, polygons 0, 1, 2 (y up).
    /// use navstar::QueryFilter;
    ///
    /// let filter = QueryFilter::default();
    /// let mut visited = Vec::new();
    /// // Straight on: no wall in the way.
    /// let moved = mesh.move_along_surface(Some(0), Vec3::new(0.5, 0.0, 0.5), Vec3::new(2.5, 0.0, 0.5), &filter, &mut visited)?;
    /// assert_eq!((moved.point, moved.polygon, moved.walls), (Vec3::new(2.5, 0.0, 0.5), 2, 0));
    /// assert_eq!(visited, [0, 1, 2]);
    /// // Towards a point beyond the wall z = 1: the move slides along it to x = 1.5.
    /// let moved = mesh.move_along_surface(Some(0), Vec3::new(0.5, 0.0, 0.5), Vec3::new(1.5, 0.0, 2.0), &filter, &mut visited)?;
    /// assert!(moved.point.distance(Vec3::new(1.5, 0.0, 1.0)) < 1e-5);
    /// assert_eq!((moved.polygon, moved.walls), (1, 1));
    /// assert_eq!(visited, [0, 1]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "slide")]
    #[doc(alias = "collide_and_slide")]
    pub fn move_along_surface(
        &self,
        start_polygon: Option<u32>,
        start: Vec3,
        target: Vec3,
        filter: &QueryFilter,
        visited: &mut Vec<u32>,
    ) -> Result<SurfaceMove, QueryError> {
        visited.clear();
        self.move_along_surface_with(start_polygon, start, target, filter, |p| visited.push(p))
    }

    /// As [`NavMesh::move_along_surface`], giving each polygon walked through to
    /// `visit` (in order, never the same twice in a row) instead of a vector: for callers
    /// with buffers of their own.
    ///
    /// # Errors
    /// As [`NavMesh::move_along_surface`].
    ///
    /// # Example
    /// ```
    /// # use navstar::{glam::Vec3, MeshOptions, NavMesh};
    /// # let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// # let vertices = [v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0), v(3.0, 0.0), v(0.0, 1.0), v(1.0, 1.0), v(2.0, 1.0), v(3.0, 1.0)];
    /// # let indices = [0, 1, 5, 4, /**/ 1, 2, 6, 5, /**/ 2, 3, 7, 6];
    /// # let mesh = NavMesh::from_polygons(&vertices, &indices, &[4, 4, 4], &MeshOptions::default())?;
    /// // `mesh`: three unit squares in a row along x, polygons 0, 1, 2 (y up).
    /// let mut crossed = 0;
    /// let filter = navstar::QueryFilter::default();
    /// let moved = mesh.move_along_surface_with(None, Vec3::new(2.5, 1.0, 0.5), Vec3::new(-4.0, 0.0, 0.5), &filter, |_| crossed += 1)?;
    /// // Snapped down onto square 2, then along the row to the wall x = 0.
    /// assert_eq!((moved.point, moved.polygon, crossed), (Vec3::new(0.0, 0.0, 0.5), 0, 3));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn move_along_surface_with(
        &self,
        start_polygon: Option<u32>,
        start: Vec3,
        target: Vec3,
        filter: &QueryFilter,
        mut visit: impl FnMut(u32),
    ) -> Result<SurfaceMove, QueryError> {
        if !start.is_finite() {
            return Err(QueryError::NonFinitePoint(Endpoint::Start));
        }
        if !target.is_finite() {
            return Err(QueryError::NonFinitePoint(Endpoint::Goal));
        }
        let mesh = self.data();
        let (polygon, start) = match start_polygon {
            Some(polygon) => {
                mesh.check_polygon(polygon)?;
                let flags = mesh.flags_of(polygon);
                if !filter.admits(flags) {
                    return Err(QueryError::RefusedPolygon { polygon, flags });
                }
                (polygon, mesh.closest_point_on_polygon(polygon, start))
            }
            None => {
                let placed = self.place_anywhere(start, filter)?;
                (placed.polygon, placed.point)
            }
        };
        let up = mesh.up;
        let passable = |p: u32| filter.admits(mesh.flags_of(p));
        let (polygon, ground, walls) = slide(
            mesh,
            polygon,
            up.ground(start),
            up.ground(target),
            passable,
            &mut visit,
        );
        Ok(SurfaceMove {
            point: mesh.point_over(polygon, ground),
            polygon,
            walls,
        })
    }
}

/// The collide-and-slide walk from `from` (in `polygon`) towards `to`, in the ground
/// plane: the polygon and position reached, and the number of walls slid along. Calls
/// `visit` with `polygon` and then with each polygon entered (never twice in a row).
fn slide(
    mesh: &MeshData,
    mut polygon: u32,
    mut from: Vec2,
    mut to: Vec2,
    passable: impl Fn(u32) -> bool + Copy,
    visit: &mut impl FnMut(u32),
) -> (u32, Vec2, u32) {
    visit(polygon);
    let mut last = polygon;
    // How far inside a wall each slide starts: enough f32 steps of the coordinates' size
    // that the rounding of the slide's end cannot put the wall ahead of it.
    let scale = from.abs().max(to.abs()).max_element().max(1.0);
    let skin = f64::from(scale) * f64::from(f32::EPSILON) * 16.0;
    let mut walls = 0;
    for leg in 1..=MAX_SURFACE_LEGS {
        // A start within rounding of a corner starts at the corner exactly, so that a leg
        // along a wall from it (a path's corner steered past) runs exactly along the wall.
        if let Some(corner) = mesh.corners[mesh.corner_range(polygon)]
            .iter()
            .map(|&v| mesh.ground[v as usize])
            .find(|c| c.as_dvec2().distance(from.as_dvec2()) <= skin)
        {
            from = corner;
        }
        let (way, steps) = leg_start(mesh, polygon, from, to, passable, skin);
        for &p in &way[..steps] {
            polygon = p;
            visit(polygon);
            last = polygon;
        }
        let end = mesh.walk_straight_through(polygon, from, to, passable, |left, _| {
            if left != last {
                visit(left);
                last = left;
            }
        });
        let (stopped_in, t, wall_slot) = match end {
            WalkEnd::Reached(reached) => {
                polygon = reached;
                from = to;
                break;
            }
            WalkEnd::Blocked {
                polygon,
                t,
                wall_slot,
            } => (polygon, t.clamp(0.0, 1.0), wall_slot),
        };
        if stopped_in != last {
            visit(stopped_in);
            last = stopped_in;
        }
        polygon = stopped_in;
        let (a, b) = (from.as_dvec2(), to.as_dvec2());
        let hit = a + (b - a) * t;
        if wall_slot == usize::MAX {
            // The walk gave up (not on a valid mesh): stay where it stopped.
            from = hit.as_vec2();
            break;
        }
        walls += 1;
        let (ea, eb) = mesh.edge(polygon, wall_slot);
        let (ea, eb) = (
            mesh.ground[ea as usize].as_dvec2(),
            mesh.ground[eb as usize].as_dvec2(),
        );
        let along = (eb - ea).normalize_or_zero();
        // Corners run counter-clockwise: the walkable side is left of the edge.
        let inward = along.perp();
        let hit = onto_edge(hit, ea, eb);
        let rest = along * (b - hit).dot(along);
        from = hit.as_vec2();
        if leg < MAX_SURFACE_LEGS && rest.length() <= skin && (hit - a).length() <= skin {
            // Stopped where it stood, with nothing to slide: a start a hair off the end of
            // the wall (a corner the corridor counts as reached, `CORNER_REACH`) heading past
            // it. Step along the wall onto that corner and walk the leg again from there,
            // where the polygons round the corner can take it.
            let reach = f64::from(scale) * f64::from(CORNER_REACH);
            if let Some(corner) = [ea, eb]
                .into_iter()
                .filter(|c| c.distance(hit) > skin && c.distance(hit) <= reach)
                .min_by(|c, d| c.distance(hit).total_cmp(&d.distance(hit)))
            {
                from = corner.as_vec2();
                continue;
            }
        }
        if leg == MAX_SURFACE_LEGS || rest.length() <= skin || along == DVec2::ZERO {
            // Stop on the wall: a slide not walked is not taken.
            break;
        }
        let inside = hit + inward * skin;
        from = inside.as_vec2();
        to = (inside + rest).as_vec2();
    }
    if polygon != last {
        visit(polygon);
    }
    (polygon, from, walls)
}

/// The most polygons round a point that [`leg_start`] tries.
const FAN_LIMIT: usize = 16;

/// The polygon to walk a leg from `from` towards `to` in: `polygon`, unless `from` lies
/// on its boundary (within `skin`) and the walk from it is blocked at once, while the
/// walk from another polygon round `from` (reached across passable edges through `from`:
/// the fan of a vertex, or the polygon across a portal) is not. That is a point on a
/// vertex or a portal heading out past it, where the polygon the last leg ended in is not
/// the one the next leg can start in. When every walk is stopped at once, the polygon
/// whose wall is the most nearly along the motion (the slide along it keeps the most).
/// Tries at most [`FAN_LIMIT`] polygons.
fn leg_start(
    mesh: &MeshData,
    polygon: u32,
    from: Vec2,
    to: Vec2,
    passable: impl Fn(u32) -> bool + Copy,
    skin: f64,
) -> ([u32; FAN_LIMIT], usize) {
    let stay = ([polygon; FAN_LIMIT], 0);
    let point = from.as_dvec2();
    let near_edge = |p: u32, slot: usize| {
        let (a, b) = mesh.edge(p, slot);
        let (a, b) = (
            mesh.ground[a as usize].as_dvec2(),
            mesh.ground[b as usize].as_dvec2(),
        );
        onto_edge(point, a, b).distance(point) <= skin
    };
    if !mesh
        .corner_range(polygon)
        .any(|slot| near_edge(polygon, slot))
    {
        return stay;
    }
    let motion = to.as_dvec2() - point;
    let length = motion.length();
    // `None` when the walk from `p` gets under way; else how head-on the wall that stops
    // it at once meets the motion (0: along it, so a slide keeps all of it; 1: square on).
    let blocked = |p: u32| match mesh.walk_straight(p, from, to, passable) {
        WalkEnd::Reached(_) => None,
        WalkEnd::Blocked { t, .. } if t * length > skin => None,
        WalkEnd::Blocked {
            polygon, wall_slot, ..
        } => Some(if wall_slot == usize::MAX || length == 0.0 {
            1.0
        } else {
            let (a, b) = mesh.edge(polygon, wall_slot);
            let edge = mesh.ground[b as usize].as_dvec2() - mesh.ground[a as usize].as_dvec2();
            (edge.perp().normalize_or_zero().dot(motion) / length).abs()
        }),
    };
    let Some(mut best_loss) = blocked(polygon) else {
        return stay;
    };
    let mut best = 0;
    // Breadth first over the polygons round the point, in a fixed-size queue: the first
    // whose walk gets under way, else the one whose wall takes least of the motion.
    let mut fan = [polygon; FAN_LIMIT];
    // The entry each polygon of the fan was reached from.
    let mut parent = [0usize; FAN_LIMIT];
    let (mut len, mut next) = (1, 0);
    let mut found = None;
    'search: while next < len {
        let at = next;
        let p = fan[at];
        next += 1;
        for slot in mesh.corner_range(p) {
            let n = mesh.neighbours[slot];
            if n == NO_NEIGHBOUR || !passable(n) || fan[..len].contains(&n) || !near_edge(p, slot) {
                continue;
            }
            if len == FAN_LIMIT {
                break 'search;
            }
            fan[len] = n;
            parent[len] = at;
            len += 1;
            match blocked(n) {
                None => {
                    found = Some(len - 1);
                    break 'search;
                }
                Some(loss) if loss < best_loss => (best, best_loss) = (len - 1, loss),
                Some(_) => {}
            }
        }
    }
    let Some(end) = found.or((best > 0).then_some(best)) else {
        return stay;
    };
    // The way from `polygon` to the chosen one, across the fan's edges.
    let mut way = [polygon; FAN_LIMIT];
    let mut steps = 0;
    let mut at = end;
    while at != 0 {
        way[steps] = fan[at];
        steps += 1;
        at = parent[at];
    }
    way[..steps].reverse();
    (way, steps)
}

/// `p` moved onto segment `a..b` (its nearest point there).
fn onto_edge(p: DVec2, a: DVec2, b: DVec2) -> DVec2 {
    let ab = b - a;
    let len2 = ab.length_squared();
    if len2 <= 0.0 {
        return a;
    }
    a + ab * ((p - a).dot(ab) / len2).clamp(0.0, 1.0)
}
