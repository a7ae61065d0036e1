//! Queries for agents that move: moving along the surface, the distance to the nearest
//! wall, random points (over the mesh and around a point).

use super::boundary::{FfiError, Out, OutCount, put, read_point, read_value, run};
use super::clearance::read_agent_radius;
use super::filter::{NavstarQueryFilter, read_filter};
use super::handle::{self, NavstarMesh, NavstarQuery};
use super::queries::NAVSTAR_NO_POLYGON;
use super::status::NavstarStatus;
use crate::{QueryError, RandomPoint, SplitMix64, WallDistance};

/// The most straight legs of one `navstar_mesh_move_along_surface`: the first towards
/// the target, then one along each wall met.
pub const NAVSTAR_MAX_SURFACE_LEGS: u32 = 4;

const _: () = assert!(NAVSTAR_MAX_SURFACE_LEGS as usize == crate::MAX_SURFACE_LEGS);

/// The answer of `navstar_mesh_move_along_surface`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NavstarSurfaceMove {
    /// Where the move ended (xyz, with the height of `polygon` there).
    pub point: [f32; 3],
    /// The polygon the move ended in: pass it as `start_polygon` of the next move.
    pub polygon: u32,
    /// How many times the move met a wall, 0 (straight to the target) to
    /// `NAVSTAR_MAX_SURFACE_LEGS`.
    pub walls: u32,
}

/// The answer of `navstar_query_distance_to_wall`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NavstarWallDistance {
    /// 1 when a wall lies within the radius, else 0 (and the fields below are
    /// `INFINITY`, zeros and `NAVSTAR_NO_POLYGON`).
    pub found: u32,
    /// The ground-plane distance from the (snapped) point to the wall.
    pub distance: f32,
    /// The nearest point of the wall (xyz, with the edge's height there).
    pub point: [f32; 3],
    /// The wall edge's unit normal in the ground plane, pointing into the walkable side
    /// (at a corner the point lies behind this edge from, the unit direction from the
    /// corner to the point).
    pub normal: [f32; 3],
    /// The polygon whose edge the wall is.
    pub polygon: u32,
}

/// Moves from `start` towards `target` along the mesh, sliding along the walls met
/// (Detour's moveAlongSurface): edges without a neighbour and edges into polygons the
/// filter refuses stop the straight walk, which then goes on along the wall with what is
/// left of the motion, at most `NAVSTAR_MAX_SURFACE_LEGS` straight legs. The walk is
/// never longer than the ground distance from start to target. No search; cheap enough
/// for every agent every frame.
///
/// * `start_polygon` (in): the polygon the agent is in (the `polygon` of its last move),
///   or `NAVSTAR_NO_POLYGON` to snap `start` to the nearest admitted polygon.
/// * `start`, `target` (in): 3 floats each.
/// * `filter` (in, optional): NULL for the default filter.
/// * `out_move` (out): where the move ended.
/// * `out_visited` (out): room for `capacity` polygon numbers, the polygons walked
///   through in order (start polygon first, end polygon last, none twice in a row);
///   NULL only with `capacity` 0.
/// * `out_count` (out): how many polygons were walked through.
///
/// `NAVSTAR_BUFFER_TOO_SMALL` when they do not fit: the first `capacity` are written, and
/// `out_move` is still the full answer. A `start_polygon` that is not a polygon of the
/// mesh, or that the filter refuses, is `NAVSTAR_ERROR_INVALID_ARGUMENT` naming it.
///
/// # Safety
/// `mesh` NULL or live; `start`, `target` NULL or 3 readable floats; `filter` NULL or
/// readable; `out_move` NULL or writable; `out_visited` NULL or `capacity` writable
/// `uint32_t`; `out_count` NULL or writable.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn navstar_mesh_move_along_surface(
    mesh: *const NavstarMesh,
    start_polygon: u32,
    start: *const f32,
    target: *const f32,
    filter: *const NavstarQueryFilter,
    out_move: *mut NavstarSurfaceMove,
    out_visited: *mut u32,
    capacity: u32,
    out_count: *mut u32,
) -> NavstarStatus {
    surface_move(
        "navstar_mesh_move_along_surface",
        SurfaceMoveArgs {
            mesh,
            start_polygon,
            start,
            target,
            filter,
            agent_radius: None,
        },
        out_move,
        (out_visited, capacity, out_count),
    )
}

/// The arguments of a move along the surface as the C calls take them;
/// `agent_radius` `None` for the plain move.
pub(super) struct SurfaceMoveArgs {
    pub mesh: *const NavstarMesh,
    pub start_polygon: u32,
    pub start: *const f32,
    pub target: *const f32,
    pub filter: *const NavstarQueryFilter,
    pub agent_radius: Option<f32>,
}

/// The body of `navstar_mesh_move_along_surface` and
/// `navstar_mesh_move_along_surface_for_agent` (`name` in the last error): the
/// arguments checked in the order of their documentation, the move (the disc's with an
/// agent radius), the polygons walked through streamed into `out`.
pub(super) fn surface_move(
    name: &'static str,
    args: SurfaceMoveArgs,
    out_move: *mut NavstarSurfaceMove,
    (out_visited, capacity, out_count): (*mut u32, u32, *mut u32),
) -> NavstarStatus {
    run(name, || {
        let out = OutCount::new(out_visited, capacity, out_count)?;
        let out_move = Out::required(out_move, "out_move")?;
        let mesh = handle::borrow(args.mesh, "mesh")?;
        let start = read_point(args.start, "start")?;
        let target = read_point(args.target, "target")?;
        let agent_radius = args.agent_radius.map(read_agent_radius).transpose()?;
        let filter = read_filter(args.filter, "filter")?;
        let start_polygon =
            (args.start_polygon != NAVSTAR_NO_POLYGON).then_some(args.start_polygon);
        if let Some(polygon) = start_polygon
            && !mesh.contains_polygon(polygon)
        {
            return Err(FfiError::invalid(format!(
                "start_polygon {polygon} is not a polygon of the mesh ({} polygons; NAVSTAR_NO_POLYGON snaps the start)",
                mesh.polygon_count()
            )));
        }
        let mut visited = out.check_room("out_visited")?.stream();
        let visit = |p| visited.push(p);
        let moved = match agent_radius {
            None => mesh.move_along_surface_with(start_polygon, start, target, &filter, visit),
            Some(radius) => mesh.move_along_surface_for_agent_with(
                start_polygon,
                start,
                target,
                &filter,
                radius,
                visit,
            ),
        }
        .map_err(|e| match e {
            QueryError::RefusedPolygon { polygon, flags } => FfiError::invalid(format!(
                "start_polygon {polygon} is refused by the filter (its flags are {flags:#x})"
            )),
            e => FfiError::from(e),
        })?;
        out_move.set(NavstarSurfaceMove {
            point: moved.point.to_array(),
            polygon: moved.polygon,
            walls: moved.walls,
        });
        Ok(visited.finish())
    })
}

/// The nearest wall within `radius` of `point` (Detour's findDistanceToWall, Unity's
/// FindClosestEdge). Walls are the edges of admitted polygons without a neighbour or
/// into a polygon the filter refuses. `point` is first moved to the nearest admitted
/// polygon (any distance); the search walks from there across portals within the best
/// distance so far, never the whole mesh.
///
/// * `radius` (in): >= 0, world units; INFINITY searches the whole walkable area around.
/// * `filter` (in, optional): NULL for the default filter.
/// * `out_wall` (out): the answer; `found` is 0 when no wall lies within `radius`
///   (still `NAVSTAR_OK`).
///
/// # Safety
/// `query` NULL or a live query not used by another thread; `point` NULL or 3 readable
/// floats; `filter` NULL or readable; `out_wall` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_query_distance_to_wall(
    query: *mut NavstarQuery,
    point: *const f32,
    radius: f32,
    filter: *const NavstarQueryFilter,
    out_wall: *mut NavstarWallDistance,
) -> NavstarStatus {
    run("navstar_query_distance_to_wall", || {
        let out_wall = Out::required(out_wall, "out_wall")?;
        let state = handle::borrow_mut(query, "query")?;
        let point = read_point(point, "point")?;
        check_radius(radius)?;
        let filter = read_filter(filter, "filter")?;
        let wall = state.query.distance_to_wall(point, radius, &filter)?;
        out_wall.set(wall_answer(wall));
        Ok(NavstarStatus::NavstarOk)
    })
}

/// A random point of the polygons the filter admits, uniform by ground-plane area
/// (Detour's findRandomPoint). O(polygons) per call (two passes over the flags and
/// areas), no allocation.
///
/// * `rng_state` (in/out): the state of the SplitMix64 generator: set it to a seed
///   once, then pass it back each call; each point advances it by exactly 4 steps. The
///   same seed gives the same points, here and in Rust (`navstar::SplitMix64`).
/// * `out_point` (out): 3 floats, on the polygon's surface.
/// * `out_polygon` (out, optional): its polygon.
///
/// `NAVSTAR_ERROR_NOT_ON_MESH` when the filter admits no polygon with an area (the
/// state is then left as it was).
///
/// # Safety
/// `mesh` NULL or live; `filter` NULL or readable; `rng_state` NULL or readable and
/// writable; `out_point` NULL or 3 writable floats; `out_polygon` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_mesh_random_point(
    mesh: *const NavstarMesh,
    filter: *const NavstarQueryFilter,
    rng_state: *mut u64,
    out_point: *mut f32,
    out_polygon: *mut u32,
) -> NavstarStatus {
    run("navstar_mesh_random_point", || {
        random_point_answer(rng_state, out_point, out_polygon, |rng| {
            let mesh = handle::borrow(mesh, "mesh")?;
            let filter = read_filter(filter, "filter")?;
            Ok(mesh.random_point(&filter, &mut || rng.next_u64())?)
        })
    })
}

/// A random point of the polygons around `center` (Detour's findRandomPointAroundCircle,
/// with its semantics): `center` is moved to the nearest admitted polygon; the region
/// grows from that polygon across every edge into an admitted polygon whose segment
/// comes within `radius` of the center; a polygon of the region is drawn by ground area,
/// then a point uniform within it. The point's polygon touches the circle, but the
/// point itself may lie outside it.
///
/// * `radius` (in): >= 0; INFINITY takes the whole connected walkable area.
/// * `rng_state`, `out_point`, `out_polygon`: as for `navstar_mesh_random_point`.
///
/// # Safety
/// `query` NULL or a live query not used by another thread; `center` NULL or 3
/// readable floats; `filter` NULL or readable; `rng_state` NULL or readable and
/// writable; `out_point` NULL or 3 writable floats; `out_polygon` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_query_random_point_around(
    query: *mut NavstarQuery,
    center: *const f32,
    radius: f32,
    filter: *const NavstarQueryFilter,
    rng_state: *mut u64,
    out_point: *mut f32,
    out_polygon: *mut u32,
) -> NavstarStatus {
    run("navstar_query_random_point_around", || {
        random_point_answer(rng_state, out_point, out_polygon, |rng| {
            let state = handle::borrow_mut(query, "query")?;
            let center = read_point(center, "center")?;
            check_radius(radius)?;
            let filter = read_filter(filter, "filter")?;
            Ok(state
                .query
                .random_point_around(center, radius, &filter, &mut || rng.next_u64())?)
        })
    })
}

/// The part shared by the random-point calls: `out_point` checked, a SplitMix64 made
/// from `rng_state`, the point `draw`n with it (the other arguments read there), then
/// the point, its polygon and the generator's state written back (the state is left
/// as it was on an error).
pub(super) fn random_point_answer(
    rng_state: *mut u64,
    out_point: *mut f32,
    out_polygon: *mut u32,
    draw: impl FnOnce(&mut SplitMix64) -> Result<RandomPoint, FfiError>,
) -> Result<NavstarStatus, FfiError> {
    let out_point = Out::required(out_point.cast::<[f32; 3]>(), "out_point")?;
    let mut rng = SplitMix64::new(read_value(rng_state, "rng_state")?);
    let point = draw(&mut rng)?;
    out_point.set(point.point.to_array());
    put(out_polygon, point.polygon);
    put(rng_state, rng.state);
    Ok(NavstarStatus::NavstarOk)
}

/// The C answer for the nearest wall `wall` (`found` 0 for none).
pub(super) fn wall_answer(wall: Option<WallDistance>) -> NavstarWallDistance {
    match wall {
        Some(wall) => NavstarWallDistance {
            found: 1,
            distance: wall.distance,
            point: wall.point.to_array(),
            normal: wall.normal.to_array(),
            polygon: wall.polygon,
        },
        None => NavstarWallDistance {
            found: 0,
            distance: f32::INFINITY,
            point: [0.0; 3],
            normal: [0.0; 3],
            polygon: NAVSTAR_NO_POLYGON,
        },
    }
}

/// `radius` must be a number >= 0 (INFINITY allowed).
pub(super) fn check_radius(radius: f32) -> Result<(), FfiError> {
    if radius.is_nan() || radius < 0.0 {
        return Err(FfiError::invalid(format!(
            "radius is {radius}; it must be >= 0 (INFINITY allowed)"
        )));
    }
    Ok(())
}
