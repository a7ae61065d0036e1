//! The corridor that follows an agent (`PathCorridor`) in the C ABI: created from a
//! polygon list or a query's last path, moved, read back as corners with their flags,
//! checked, repaired and shortened.

use super::boundary::{FfiError, Out, OutSlice, read_array, read_point, run, run_void};
use super::filter::{NavstarQueryFilter, read_filter};
use super::handle::{self, HandleOut, NavstarCorridor, NavstarMesh, NavstarQuery};
use super::status::NavstarStatus;
use crate::{NavMesh, PathCorridor, PathOptions, QueryError, Repair};

/// `navstar_corridor_repair` found every polygon admitted: nothing changed.
pub const NAVSTAR_REPAIR_VALID: u32 = 0;
/// `navstar_corridor_repair` replanned the part after the first refused polygon.
pub const NAVSTAR_REPAIR_REPAIRED: u32 = 1;
/// `navstar_corridor_repair` found the target cut off: the corridor leads to the
/// reachable point nearest it, and the target moved there.
pub const NAVSTAR_REPAIR_CUT_OFF: u32 = 2;

/// A corridor of polygons from `start` (in `polygons[0]`) to `target` (moved onto the
/// last polygon), a chain of neighbours (a polygon listed twice: the loop between is cut).
///
/// * `mesh` (in): the corridor keeps its own reference to it.
/// * `polygons` (in): `count` polygon numbers, `count` >= 1.
/// * `start`, `target` (in): 3 floats each; `start` is moved onto `polygons[0]`.
/// * `out_corridor` (out): the corridor, or NULL on error; release it with
///   `navstar_corridor_free`. One thread at a time.
///
/// A polygon that is not a polygon of the mesh, an empty list or one that is not a
/// chain of neighbours is `NAVSTAR_ERROR_INVALID_ARGUMENT` naming it.
///
/// # Safety
/// `mesh` NULL or live; `polygons` NULL or `count` readable `uint32_t`; `start`,
/// `target` NULL or 3 readable floats; `out_corridor` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_corridor_create(
    mesh: *const NavstarMesh,
    polygons: *const u32,
    count: u32,
    start: *const f32,
    target: *const f32,
    out_corridor: *mut *mut NavstarCorridor,
) -> NavstarStatus {
    run("navstar_corridor_create", || {
        let out = HandleOut::new(out_corridor, "out_corridor")?;
        let mesh = handle::borrow(mesh, "mesh")?;
        if count == 0 {
            return Err(FfiError::invalid(
                "polygons: count is 0 (a corridor needs one)",
            ));
        }
        let polygons = read_array(polygons, count as usize, "polygons")?;
        let start = read_point(start, "start")?;
        let target = read_point(target, "target")?;
        out.give(build(mesh, &polygons, start, target)?);
        Ok(NavstarStatus::NavstarOk)
    })
}

/// A corridor along the last path `query` found (its polygon corridor), from `start`
/// to `target` (normally that path's first and last corners).
///
/// `NAVSTAR_ERROR_INVALID_ARGUMENT` when the last path has no corridor (it failed, or
/// rounding defeated the walk of its corners over the mesh; use
/// `navstar_corridor_create` with the polygons of another walk then).
///
/// # Safety
/// `query` NULL or a live query not used by another thread; `start`, `target` NULL or
/// 3 readable floats; `out_corridor` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_corridor_create_from_query(
    query: *const NavstarQuery,
    start: *const f32,
    target: *const f32,
    out_corridor: *mut *mut NavstarCorridor,
) -> NavstarStatus {
    run("navstar_corridor_create_from_query", || {
        let out = HandleOut::new(out_corridor, "out_corridor")?;
        let query = &handle::borrow(query, "query")?.query;
        let start = read_point(start, "start")?;
        let target = read_point(target, "target")?;
        let polygons: Vec<u32> = query.corridor().collect();
        if polygons.is_empty() {
            return Err(FfiError::invalid(
                "query: its last path has no corridor (it failed, or its corners could not be walked over the mesh)",
            ));
        }
        out.give(build(query.mesh(), &polygons, start, target)?);
        Ok(NavstarStatus::NavstarOk)
    })
}

/// The corridor of `polygons`, with the culprit named on error.
fn build(
    mesh: &NavMesh,
    polygons: &[u32],
    start: glam::Vec3,
    target: glam::Vec3,
) -> Result<PathCorridor, FfiError> {
    if let Some((i, &p)) = polygons
        .iter()
        .enumerate()
        .find(|&(_, &p)| !mesh.contains_polygon(p))
    {
        return Err(FfiError::invalid(format!(
            "polygons[{i}] = {p} is not a polygon of the mesh ({} polygons)",
            mesh.polygon_count()
        )));
    }
    let mut corridor = PathCorridor::new(mesh, polygons[0], start)?;
    corridor
        .set_corridor(target, polygons)
        .map_err(|e| match e {
            QueryError::InvalidOption(why) => FfiError::invalid(format!("polygons: {why}")),
            e => FfiError::from(e),
        })?;
    Ok(corridor)
}

/// Releases a corridor. NULL does nothing.
///
/// # Safety
/// `corridor` NULL or a corridor not freed yet and not in use by another thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_corridor_free(corridor: *mut NavstarCorridor) {
    run_void("navstar_corridor_free", || handle::free(corridor));
}

/// Moves the agent towards `position` along the surface (sliding along walls and
/// polygons `filter` refuses) and trims the corridor (`PathCorridor::move_position`).
///
/// * `out_on_corridor` (out, optional): 1 when the agent is still on the corridor, 0
///   when it walked off it (the corridor then starts with the way back).
///
/// A refused agent polygon is `NAVSTAR_ERROR_INVALID_ARGUMENT`.
///
/// # Safety
/// `corridor` NULL or live, not used by another thread; `position` NULL or 3 readable
/// floats; `filter` NULL or readable; `out_on_corridor` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_corridor_move_position(
    corridor: *mut NavstarCorridor,
    position: *const f32,
    filter: *const NavstarQueryFilter,
    out_on_corridor: *mut u32,
) -> NavstarStatus {
    run("navstar_corridor_move_position", || {
        let corridor = handle::borrow_mut(corridor, "corridor")?;
        let position = read_point(position, "position")?;
        let filter = read_filter(filter, "filter")?;
        let on = corridor.move_position(position, &filter)?;
        super::boundary::put(out_on_corridor, u32::from(on));
        Ok(NavstarStatus::NavstarOk)
    })
}

/// Sets the radius of the agent the corridor follows (`PathCorridor::set_agent_radius`;
/// world units, finite, >= 0, the agent's whole radius; 0 at creation). Above the mesh's
/// baked radius, `navstar_corridor_move_position` and `navstar_corridor_move_target`
/// slide the disc's centre along the walls moved in by the radius (as
/// `navstar_mesh_move_along_surface_for_agent`), `navstar_corridor_corners` gives the
/// corners of the way that keeps the radius from the mesh's walls within the corridor's
/// polygons (the corners without a radius when the disc cannot get through them; with
/// `split_at_area_changes` 1 the same way, with its area changes),
/// `navstar_corridor_repair` searches with the radius, and `navstar_corridor_optimize`
/// shortens only along the disc's clear straight walk. Builds the mesh's eroded copy for
/// the radius.
///
/// `NAVSTAR_ERROR_INVALID_ARGUMENT` for a NaN, infinite or negative `agent_radius`, or
/// one that no point of the mesh fits; the corridor is then unchanged.
///
/// # Safety
/// `corridor` NULL or live, not used by another thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_corridor_set_agent_radius(
    corridor: *mut NavstarCorridor,
    agent_radius: f32,
) -> NavstarStatus {
    run("navstar_corridor_set_agent_radius", || {
        let corridor = handle::borrow_mut(corridor, "corridor")?;
        let agent_radius = super::clearance::read_agent_radius(agent_radius)?;
        corridor.set_agent_radius(agent_radius)?;
        Ok(NavstarStatus::NavstarOk)
    })
}

/// Moves the target towards `target` along the surface from the corridor's last
/// polygon, extending or trimming its end (`PathCorridor::move_target`).
///
/// * `out_on_corridor` (out, optional): 1 when the new target's polygon was already on
///   the corridor.
///
/// # Safety
/// As `navstar_corridor_move_position`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_corridor_move_target(
    corridor: *mut NavstarCorridor,
    target: *const f32,
    filter: *const NavstarQueryFilter,
    out_on_corridor: *mut u32,
) -> NavstarStatus {
    run("navstar_corridor_move_target", || {
        let corridor = handle::borrow_mut(corridor, "corridor")?;
        let target = read_point(target, "target")?;
        let filter = read_filter(filter, "filter")?;
        let on = corridor.move_target(target, &filter)?;
        super::boundary::put(out_on_corridor, u32::from(on));
        Ok(NavstarStatus::NavstarOk)
    })
}

/// The agent's position and the target (3 floats each).
///
/// # Safety
/// `corridor` NULL or live; `out_position`, `out_target` NULL or 3 writable floats.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_corridor_position(
    corridor: *const NavstarCorridor,
    out_position: *mut f32,
    out_target: *mut f32,
) -> NavstarStatus {
    run("navstar_corridor_position", || {
        let corridor = handle::borrow(corridor, "corridor")?;
        let out_position = Out::required(out_position.cast::<[f32; 3]>(), "out_position")?;
        let out_target = Out::required(out_target.cast::<[f32; 3]>(), "out_target")?;
        out_position.set(corridor.position().to_array());
        out_target.set(corridor.target().to_array());
        Ok(NavstarStatus::NavstarOk)
    })
}

/// The corridor's polygons, the agent's first, the target's last.
///
/// `NAVSTAR_BUFFER_TOO_SMALL` when they do not fit in `capacity`: the first `capacity`
/// are written and `out_count` is the full count.
///
/// # Safety
/// `corridor` NULL or live; `out_polygons` NULL or `capacity` writable `uint32_t`;
/// `out_count` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_corridor_polygons(
    corridor: *const NavstarCorridor,
    out_polygons: *mut u32,
    capacity: u32,
    out_count: *mut u32,
) -> NavstarStatus {
    run("navstar_corridor_polygons", || {
        let out = OutSlice::new(out_polygons, capacity, out_count, "out_polygons")?;
        let corridor = handle::borrow(corridor, "corridor")?;
        Ok(out.write(corridor.polygons().iter().copied()))
    })
}

/// The corners of the way from the agent to the target through the corridor
/// (`PathCorridor::corners_with_details`): the cheapest under `filter`'s area costs,
/// with a corner where the way passes into another area when `split_at_area_changes` is
/// 1; the agent's position is not listed, the target is (last, flagged
/// `NAVSTAR_CORNER_END`).
///
/// * `out_points` (out): room for `capacity` corners, 3 floats each.
/// * `out_flags` (out, optional): room for `capacity` `NAVSTAR_CORNER_*` bit sets.
/// * `out_count` (out): the number of corners.
///
/// `NAVSTAR_BUFFER_TOO_SMALL` when they do not fit: the first `capacity` are written
/// (steer for the first), `out_count` is the full count.
///
/// # Safety
/// `corridor` NULL or live, not used by another thread; `filter` NULL or readable;
/// `out_points` NULL or `3 * capacity` writable floats; `out_flags` NULL or `capacity`
/// writable `uint32_t`; `out_count` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_corridor_corners(
    corridor: *mut NavstarCorridor,
    filter: *const NavstarQueryFilter,
    split_at_area_changes: u32,
    out_points: *mut f32,
    out_flags: *mut u32,
    capacity: u32,
    out_count: *mut u32,
) -> NavstarStatus {
    run("navstar_corridor_corners", || {
        let points = OutSlice::new(
            out_points.cast::<[f32; 3]>(),
            capacity,
            out_count,
            "out_points",
        )?;
        let corridor = handle::borrow_mut(corridor, "corridor")?;
        let filter = read_filter(filter, "filter")?;
        if split_at_area_changes > 1 {
            return Err(FfiError::invalid(format!(
                "split_at_area_changes is {split_at_area_changes} (0 or 1)"
            )));
        }
        if split_at_area_changes == 0 && corridor.corners_keep_a_radius() {
            // The corners of the disc's way: none but the last (the target) is flagged,
            // as without a radius when areas are not split.
            let corners = corridor.corners(usize::MAX);
            if !out_flags.is_null() {
                let end = u32::from(crate::CornerFlags::END.bits());
                let last = corners.len().saturating_sub(1);
                super::boundary::write_array(
                    out_flags,
                    (0..corners.len())
                        .take(capacity as usize)
                        .map(|k| if k == last { end } else { 0 }),
                );
            }
            return Ok(points.write(corners.iter().map(|c| c.to_array())));
        }
        let options = PathOptions::default()
            .with_filter(filter)
            .with_split_at_area_changes(split_at_area_changes == 1);
        let (corners, details) = corridor.corners_with_details(usize::MAX, &options);
        if !out_flags.is_null() {
            super::boundary::write_array(
                out_flags,
                details
                    .iter()
                    .take(capacity as usize)
                    .map(|d| u32::from(d.flags.bits())),
            );
        }
        Ok(points.write(corners.iter().map(|c| c.to_array())))
    })
}

/// Whether the first `look_ahead` polygons of the corridor are all admitted by
/// `filter` (`out_valid` 1) or one was closed since (0).
///
/// # Safety
/// `corridor` NULL or live; `filter` NULL or readable; `out_valid` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_corridor_is_valid(
    corridor: *const NavstarCorridor,
    look_ahead: u32,
    filter: *const NavstarQueryFilter,
    out_valid: *mut u32,
) -> NavstarStatus {
    run("navstar_corridor_is_valid", || {
        let out_valid = Out::required(out_valid, "out_valid")?;
        let corridor = handle::borrow(corridor, "corridor")?;
        let filter = read_filter(filter, "filter")?;
        out_valid.set(u32::from(corridor.is_valid(look_ahead as usize, &filter)));
        Ok(NavstarStatus::NavstarOk)
    })
}

/// Repairs the corridor after polygons on it were closed (`PathCorridor::repair`): a
/// search with `query` from the agent back onto the corridor past its last refused
/// polygon (bounded to 256 expansions), keeping the rest; else it keeps the corridor up
/// to the last admitted polygon before the first refused one and searches from there to
/// the target. With `navstar_corridor_set_agent_radius` both searches keep the radius.
///
/// * `query` (in/out): a query of the corridor's mesh.
/// * `out_outcome` (out): `NAVSTAR_REPAIR_VALID`, `_REPAIRED` or `_CUT_OFF`.
/// * `out_kept` (out, optional): polygons of the old corridor kept at its start (0 when
///   valid).
///
/// A query of another mesh, or the agent's own polygon refused, is
/// `NAVSTAR_ERROR_INVALID_ARGUMENT`; the corridor is then unchanged.
///
/// # Safety
/// `corridor` and `query` NULL or live, neither used by another thread; `filter` NULL
/// or readable; `out_outcome`, `out_kept` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_corridor_repair(
    corridor: *mut NavstarCorridor,
    query: *mut NavstarQuery,
    filter: *const NavstarQueryFilter,
    out_outcome: *mut u32,
    out_kept: *mut u32,
) -> NavstarStatus {
    run("navstar_corridor_repair", || {
        let out_outcome = Out::required(out_outcome, "out_outcome")?;
        let corridor = handle::borrow_mut(corridor, "corridor")?;
        let query = &mut handle::borrow_mut(query, "query")?.query;
        let filter = read_filter(filter, "filter")?;
        let options = PathOptions::default().with_filter(filter);
        let outcome = corridor.repair(query, &options).map_err(|e| match e {
            QueryError::InvalidOption(why) => FfiError::invalid(format!("query: {why}")),
            QueryError::RefusedPolygon { polygon, flags } => FfiError::invalid(format!(
                "corridor: the agent's polygon {polygon} is refused by the filter (flags {flags:#x}): plan a new path"
            )),
            e => FfiError::from(e),
        })?;
        let (code, kept) = match outcome {
            Repair::Repaired { kept } => (NAVSTAR_REPAIR_REPAIRED, kept),
            Repair::CutOff { kept } => (NAVSTAR_REPAIR_CUT_OFF, kept),
            _ => (NAVSTAR_REPAIR_VALID, 0),
        };
        out_outcome.set(code);
        super::boundary::put(out_kept, u32::try_from(kept).unwrap_or(u32::MAX));
        Ok(NavstarStatus::NavstarOk)
    })
}

/// Shortens the corridor when the agent sees `next` (a point ahead, typically a later
/// corner): the straight walk to it replaces the corridor up to the last of its
/// polygons on it, when that is a shorter chain (`PathCorridor::optimize_visibility`).
///
/// * `out_changed` (out, optional): 1 when the corridor changed.
///
/// # Safety
/// `corridor` NULL or live, not used by another thread; `next` NULL or 3 readable
/// floats; `filter` NULL or readable; `out_changed` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_corridor_optimize(
    corridor: *mut NavstarCorridor,
    next: *const f32,
    filter: *const NavstarQueryFilter,
    out_changed: *mut u32,
) -> NavstarStatus {
    run("navstar_corridor_optimize", || {
        let corridor = handle::borrow_mut(corridor, "corridor")?;
        let next = read_point(next, "next")?;
        let filter = read_filter(filter, "filter")?;
        let changed = corridor.optimize_visibility(next, &filter)?;
        super::boundary::put(out_changed, u32::from(changed));
        Ok(NavstarStatus::NavstarOk)
    })
}
