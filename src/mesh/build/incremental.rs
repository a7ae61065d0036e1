//! The builder's work redone only where a mesh changed: a mesh of one tile built again
//! from the tables of the mesh it replaces, when most of its polygons are polygons of
//! that mesh, corner for corner (an obstacle carved into a large tile changes a few
//! dozen polygons of thousands).
//!
//! The caller names, per new polygon, the polygon of the previous mesh with the very
//! same corners (vertex ids) or none. Such a *kept* polygon is not checked again, and
//! its edges keep their neighbours and twins, renumbered, except the edges whose two
//! ends are both corners of a *new* polygon: only those can pair differently, and they
//! are paired again together with the new polygons' edges, as the full builder pairs
//! them. Portals are copied for kept polygons whose edges all kept their pairing. The
//! tables that are cheap linear passes without hashing (ground positions, wall
//! vertices, dead ends, islands, boxes) and the polygon index are made as the full
//! builder makes them, so the result is the very mesh [`super::build`] makes of the
//! same input; whenever something does not hold (a vertex moved, a polygon that is not
//! valid, an edge used three times), the full builder runs instead and gives the
//! answer, or the error, it always gives.

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use glam::Vec3;

use super::connectors::is_collinear_triangle;
use super::topology::{find_islands, wall_tables};
use super::validate::{check_vertices_finite, normalise_polygon, polygon_offsets};
use super::{
    Extras, MeshOptions, PolygonSizes, one_tile_mesh, polygon_areas, polygon_bounds, polygon_flags,
    portal_of_slot,
};
use crate::error::MeshError;
use crate::mesh::{ElementTables, MeshData, NO_NEIGHBOUR, NO_TWIN, PolygonIndex, next_in};

/// In [`Previous::source`]: the polygon has no equal in the previous mesh.
pub(in crate::mesh) const NO_SOURCE: u32 = u32::MAX;

/// The mesh a new one replaces, and which new polygons are its polygons.
pub(in crate::mesh) struct Previous<'a> {
    /// The mesh replaced (one tile).
    pub mesh: &'a MeshData,
    /// Per polygon of the new input: the polygon of `mesh` with the very same corners
    /// (vertex ids, in the same order, at the same positions), or [`NO_SOURCE`]. A
    /// wrong entry is found and the polygon treated as new.
    pub source: &'a [u32],
}

/// Builds the mesh of the input as [`super::build`] does, redoing the work only round
/// the polygons that are not in `previous` (see the module comment). The same result,
/// or the same error, as [`super::build`], and per polygon the polygon of the previous
/// mesh it is (checked; all [`NO_SOURCE`] when the full builder ran).
///
/// # Errors
/// As [`super::build`].
pub(in crate::mesh) fn rebuild(
    previous: &Previous<'_>,
    vertices: &[Vec3],
    indices: &[u32],
    sizes: &[u32],
    options: &MeshOptions,
    extras: &Extras<'_>,
) -> Result<(MeshData, Vec<u32>), MeshError> {
    match try_rebuild(previous, vertices, indices, sizes, options, extras) {
        Some(Ok(built)) => Ok(built),
        // A failure is reported by the full builder, with its own culprit.
        Some(Err(_)) | None => Ok((
            super::build(
                vertices,
                indices,
                PolygonSizes::Listed(sizes),
                options,
                extras,
            )?,
            vec![NO_SOURCE; sizes.len()],
        )),
    }
}

/// [`rebuild`], or `None` when the full builder must run (an input the incremental work
/// does not cover, or one the full builder refuses).
fn try_rebuild(
    previous: &Previous<'_>,
    vertices: &[Vec3],
    indices: &[u32],
    sizes: &[u32],
    options: &MeshOptions,
    extras: &Extras<'_>,
) -> Option<Result<(MeshData, Vec<u32>), MeshError>> {
    let old = previous.mesh;
    if old.tiles.len() != 1
        || old.local_bits != 32
        || options.weld_vertices
        || old.up != options.up_axis
        || !(options.agent_radius.is_finite() && options.agent_radius >= 0.0)
        || previous.source.len() != sizes.len()
        || sizes.is_empty()
        || u32::try_from(vertices.len()).is_err()
        || vertices.len() == u32::MAX as usize
    {
        return None;
    }
    let poly_start = polygon_offsets(indices.len(), &PolygonSizes::Listed(sizes)).ok()?;
    // The leading vertices that the previous mesh has at the same positions (a carved
    // tile's draft starts with the present tile's): checked when that mesh was built.
    let old_vertices = old.vertices.as_single();
    let same = old_vertices
        .iter()
        .zip(vertices)
        .take_while(|(a, b)| a == b)
        .count();
    check_vertices_finite(&vertices[same..]).ok()?;
    let up = options.up_axis;
    let ground: Vec<_> = vertices.iter().map(|&v| up.ground(v)).collect();
    let polygon_count = sizes.len();
    let (old_start, old_corners) = (old.poly_start.as_single(), old.corners.as_single());

    // Which polygons are kept (their source has the same corners at the same
    // positions), and the new number of each kept old polygon.
    let mut source = previous.source.to_vec();
    let mut new_of_old = vec![NO_SOURCE; old.polygon_count() as usize];
    let mut corners = indices.to_vec();
    for p in 0..polygon_count {
        let range = poly_start[p] as usize..poly_start[p + 1] as usize;
        let q = source[p];
        let same = (q as usize) < new_of_old.len() && new_of_old[q as usize] == NO_SOURCE && {
            let was =
                &old_corners[old_start[q as usize] as usize..old_start[q as usize + 1] as usize];
            was == &indices[range.clone()]
                && was.iter().all(|&v| {
                    (v as usize) < same
                        || ((v as usize) < vertices.len()
                            && old_vertices.get(v as usize) == Some(&vertices[v as usize]))
                })
        };
        if same {
            new_of_old[q as usize] = p as u32;
        } else {
            source[p] = NO_SOURCE;
        }
    }
    // The new polygons are checked and wound as the builder does; their corners are the
    // vertices round which edges may pair differently.
    let mut dirty = vec![false; vertices.len()];
    for p in 0..polygon_count {
        if source[p] != NO_SOURCE {
            continue;
        }
        let range = poly_start[p] as usize..poly_start[p + 1] as usize;
        if corners[range.clone()]
            .iter()
            .any(|&v| v as usize >= vertices.len())
        {
            return None;
        }
        if options.allow_degenerate_connectors
            && is_collinear_triangle(&corners[range.clone()], &ground)
        {
            return None; // connectors are oriented by their neighbours: the full builder
        }
        normalise_polygon(p as u32, &mut corners[range.clone()], &ground).ok()?;
        for &v in &corners[range] {
            dirty[v as usize] = true;
        }
    }
    if options.allow_degenerate_connectors
        && (0..polygon_count).any(|p| {
            let range = poly_start[p] as usize..poly_start[p + 1] as usize;
            is_collinear_triangle(&corners[range], &ground)
        })
    {
        return None;
    }

    // Neighbours and twins: kept where an edge cannot pair otherwise, paired again
    // (as `topology::link_neighbours` pairs) where both of its ends are dirty.
    let slot_count = corners.len();
    let mut neighbours = vec![NO_NEIGHBOUR; slot_count];
    let mut twin = vec![NO_TWIN; slot_count];
    let mut repaired = vec![false; polygon_count];
    let mut pending: Vec<u32> = Vec::new();
    let (old_neighbours, old_twin) = (old.neighbours.as_single(), old.twin.as_single());
    for p in 0..polygon_count {
        let (start, end) = (poly_start[p] as usize, poly_start[p + 1] as usize);
        let q = source[p];
        for slot in start..end {
            let (a, b) = (corners[slot], corners[next_in(start..end, slot)]);
            if q == NO_SOURCE || (dirty[a as usize] && dirty[b as usize]) {
                pending.push(slot as u32);
                repaired[p] = true;
                continue;
            }
            let old_slot = old_start[q as usize] as usize + (slot - start);
            let across = old_neighbours[old_slot];
            if across == NO_NEIGHBOUR {
                continue;
            }
            let to = new_of_old[across as usize];
            if to == NO_SOURCE {
                // Its neighbour went and no new polygon has this edge: a wall now.
                repaired[p] = true;
                continue;
            }
            let local = old_twin[old_slot] - old_start[across as usize];
            neighbours[slot] = to;
            twin[slot] = poly_start[to as usize] + local;
        }
    }
    pair_pending(&poly_start, &corners, &pending, &mut neighbours, &mut twin)?;
    if (0..slot_count).any(|s| twin[s] != NO_TWIN && twin[twin[s] as usize] != s as u32) {
        return None; // cannot happen for a valid previous mesh; the builder decides
    }

    let walls = wall_tables(&poly_start, &corners, &neighbours, &twin, vertices.len()).ok()?;
    let old_portals = old.portals.as_single();
    let mut portals = Vec::with_capacity(slot_count);
    for p in 0..polygon_count {
        let range = poly_start[p] as usize..poly_start[p + 1] as usize;
        if repaired[p] {
            for slot in range.clone() {
                portals.push(portal_of_slot(
                    &corners[range.clone()],
                    &neighbours[range.clone()],
                    slot - range.start,
                ));
            }
        } else {
            let from = old_start[source[p] as usize] as usize;
            portals.extend_from_slice(&old_portals[from..from + range.len()]);
        }
    }
    let built = finish(
        (&old.tiles[0].index, &new_of_old),
        up,
        vertices,
        ground,
        poly_start,
        corners,
        neighbours,
        twin,
        portals,
        walls,
        options,
        extras,
    );
    Some(built.map(|mesh| (mesh, source)))
}

/// Pairs the edges of the `pending` slots among themselves, as the full builder pairs
/// all edges: `None` for an edge used three times or twice the same way (the full
/// builder then names it).
fn pair_pending(
    poly_start: &[u32],
    corners: &[u32],
    pending: &[u32],
    neighbours: &mut [u32],
    twin: &mut [u32],
) -> Option<()> {
    // Per pending slot, its polygon: `pending` runs in slot order.
    let mut edges: HashMap<(u32, u32), (u32, u32, bool)> = HashMap::with_capacity(pending.len());
    let mut polygon = 0usize;
    for &slot in pending {
        while poly_start[polygon + 1] <= slot {
            polygon += 1;
        }
        let range = poly_start[polygon] as usize..poly_start[polygon + 1] as usize;
        let (a, b) = (
            corners[slot as usize],
            corners[next_in(range, slot as usize)],
        );
        match edges.entry((a.min(b), a.max(b))) {
            Entry::Vacant(e) => {
                e.insert((slot, polygon as u32, false));
            }
            Entry::Occupied(mut e) => {
                let (first, first_polygon, paired) = e.get_mut();
                if *paired || corners[*first as usize] == a {
                    return None;
                }
                *paired = true;
                neighbours[*first as usize] = polygon as u32;
                neighbours[slot as usize] = *first_polygon;
                twin[*first as usize] = slot;
                twin[slot as usize] = *first;
            }
        }
    }
    Some(())
}

/// The tables after the pairing, made as [`super::build`] makes them.
#[allow(clippy::too_many_arguments)]
fn finish(
    (old_index, new_of_old): (&PolygonIndex, &[u32]),
    up: crate::geometry::UpAxis,
    vertices: &[Vec3],
    ground: Vec<glam::Vec2>,
    poly_start: Vec<u32>,
    corners: Vec<u32>,
    neighbours: Vec<u32>,
    twin: Vec<u32>,
    portals: Vec<[u32; 2]>,
    walls: super::topology::WallTables,
    options: &MeshOptions,
    extras: &Extras<'_>,
) -> Result<MeshData, MeshError> {
    let polygon_count = poly_start.len() - 1;
    let areas = polygon_areas(polygon_count, extras.areas)?;
    let flags = polygon_flags(polygon_count, extras.flags)?;
    let (island, island_count) = find_islands(&poly_start, &neighbours)?;
    let (boxes, bounds) = polygon_bounds(vertices, &poly_start, &corners)?;
    let index = match PolygonIndex::patched(old_index, new_of_old, &boxes)? {
        Some(index) => index,
        None => PolygonIndex::build(&boxes)?,
    };
    let tables = ElementTables {
        vertices: vertices.to_vec().into(),
        ground: ground.into(),
        poly_start: poly_start.into(),
        corners: corners.into(),
        neighbours: neighbours.into(),
        local_island: island.into(),
        portals: portals.into(),
        twin: twin.into(),
        wall_vertex: walls.wall_vertex.into(),
        dead_end: walls.dead_end.into(),
        areas: areas.into(),
        flags: flags.into(),
    };
    one_tile_mesh(up, tables, (index, bounds, island_count), options, extras)
}

/// The first table in which `a` and `b` (meshes of one tile) differ, or `None` when they
/// are the same mesh but for the polygon index (which [`rebuild`] may patch instead of
/// building: see [`index_problem`]): what [`rebuild`] promises against the full
/// builder (checked after every incremental build in debug builds, and by the tests).
#[cfg(any(test, debug_assertions))]
pub(crate) fn first_difference(a: &MeshData, b: &MeshData) -> Option<&'static str> {
    use std::sync::atomic::Ordering;
    let flags = |m: &MeshData| -> Vec<u32> {
        m.flags
            .as_single()
            .iter()
            .map(|f| f.load(Ordering::Relaxed))
            .collect()
    };
    let checks: [(&'static str, bool); 17] = [
        ("up axis", a.up == b.up && a.local_bits == b.local_bits),
        ("vertices", a.vertices.as_single() == b.vertices.as_single()),
        ("ground", a.ground.as_single() == b.ground.as_single()),
        (
            "poly_start",
            a.poly_start.as_single() == b.poly_start.as_single(),
        ),
        ("corners", a.corners.as_single() == b.corners.as_single()),
        (
            "neighbours",
            a.neighbours.as_single() == b.neighbours.as_single(),
        ),
        ("twin", a.twin.as_single() == b.twin.as_single()),
        ("portals", a.portals.as_single() == b.portals.as_single()),
        (
            "wall_vertex",
            a.wall_vertex.as_single() == b.wall_vertex.as_single(),
        ),
        ("dead_end", a.dead_end.as_single() == b.dead_end.as_single()),
        (
            "islands",
            a.local_island.as_single() == b.local_island.as_single()
                && a.island_count == b.island_count
                && a.tiles[0].island_map == b.tiles[0].island_map,
        ),
        ("areas", a.areas.as_single() == b.areas.as_single()),
        ("flags", flags(a) == flags(b)),
        (
            "bounds",
            a.bounds == b.bounds && a.tiles[0].bounds == b.tiles[0].bounds,
        ),
        (
            // The same links and hops; a link end on an edge shared by two polygons
            // may attach to either, as the polygon index finds them (it may be patched).
            "links",
            a.links.count() == b.links.count() && a.links.hop_count() == b.links.hop_count(),
        ),
        (
            "counts",
            a.tiles[0].polygon_count == b.tiles[0].polygon_count
                && a.tiles[0].vertex_count == b.tiles[0].vertex_count
                && a.tiles[0].slot_count == b.tiles[0].slot_count,
        ),
        (
            "baked radius",
            a.clearance.baked_radius.to_bits() == b.clearance.baked_radius.to_bits(),
        ),
    ];
    checks.iter().find(|(_, same)| !same).map(|&(name, _)| name)
}

/// What is wrong with the polygon index of `mesh` (one tile), if anything: see
/// [`PolygonIndex::check`], against the boxes of its polygons.
#[cfg(any(test, debug_assertions))]
pub(crate) fn index_problem(mesh: &MeshData) -> Option<String> {
    let (boxes, _) = polygon_bounds(
        mesh.vertices.as_single(),
        mesh.poly_start.as_single(),
        mesh.corners.as_single(),
    )
    .ok()?;
    mesh.tiles[0].index.check(&boxes).err()
}
