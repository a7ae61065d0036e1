//! Validation of a decoded tile: every table is checked against the polygons, as
//! strictly as the builder would have derived it, and the mesh is assembled from them.
//! The polygon tables ([`Polygons`]) are checked alike for the mesh and its merged copy
//! ([`super::merged`]); the spatial index and the links have files of their own.

use std::sync::{Arc, OnceLock};

use glam::{Vec2, Vec3};

use super::read::TileOptions;
use super::{BinaryError, Section, index, links, merged};
use crate::alloc::{try_collect, try_filled};
use crate::error::MeshError;
use crate::filter::MAX_AREAS;
use crate::geometry::{Aabb, UpAxis};
use crate::mesh::build::connectors::{check_connector, is_collinear_triangle};
use crate::mesh::build::polygon_bounds;
use crate::mesh::build::topology::{
    find_islands, join_islands_by_links, portal_of_slot, wall_tables,
};
use crate::mesh::build::validate::{Winding, check_polygon, check_vertices_finite};
use crate::mesh::links::Links;
use crate::mesh::{ElementTables, MeshData, NO_NEIGHBOUR, NO_TWIN, PolygonIndex, Tiled, next_in};
use crate::sync::AtomicU32;

/// The records of one section, with where they are in the file.
pub(super) struct Located<T> {
    pub items: Arc<[T]>,
    pub section: Section,
    /// File offset of the first record.
    pub offset: u64,
}

impl<T> Located<T> {
    /// An [`BinaryError::Invalid`] for record `record`.
    pub(super) fn invalid(&self, record: usize, reason: impl Into<String>) -> BinaryError {
        BinaryError::Invalid {
            section: self.section.name,
            record: record as u64,
            offset: self.offset + (record * self.section.record) as u64,
            reason: reason.into(),
        }
    }

    /// Refuses a section whose record count is not `expected`.
    pub(super) fn expect_len(&self, expected: usize, of: &str) -> Result<(), BinaryError> {
        if self.items.len() == expected {
            return Ok(());
        }
        Err(BinaryError::Layout {
            section: self.section.name,
            offset: self.offset,
            reason: format!(
                "holds {} records, but the mesh has {expected} {of}",
                self.items.len()
            ),
        })
    }
}

/// The decoded tables of a set of polygons over the tile's vertices (the tile's own,
/// or its merged copy's), not yet checked.
pub(super) struct Polygons {
    pub poly_start: Located<u32>,
    pub corners: Located<u32>,
    pub neighbours: Located<u32>,
    pub twin: Located<u32>,
    pub portals: Located<[u32; 2]>,
    pub nodes: Located<(Aabb, u32, u32)>,
    pub entries: Located<(u32, Aabb)>,
}

/// A decoded tile record, not yet checked.
pub(super) struct Tile {
    pub options: TileOptions,
    pub vertices: Located<Vec3>,
    pub polygons: Polygons,
    pub areas: Located<u8>,
    pub flags: Located<u32>,
    pub island: Located<u32>,
    pub links: Located<(f32, u8, [u8; 3], u32)>,
    pub hop_start: Located<u32>,
    pub hops: Located<(u32, Vec3, Vec3, u32)>,
    /// The merged copy's polygon of each polygon: empty when the file holds no copy.
    pub of_merged: Located<u32>,
    /// The merged copy's tables, when the file holds one.
    pub merged: Option<Polygons>,
    /// The fast lane's index, when the file holds one.
    pub lane: Option<super::lane::LaneTables>,
}

/// Checks every table of `tile` and assembles the mesh.
pub(super) fn assemble(tile: Tile) -> Result<MeshData, BinaryError> {
    let vertices = tile.vertices.items;
    if vertices.len() >= u32::MAX as usize {
        return Err(MeshError::TooLarge("more than 2^32 - 1 vertices").into());
    }
    check_vertices_finite(&vertices)?;
    let up = tile.options.up;
    let ground: Arc<[Vec2]> = vertices.iter().map(|&v| up.ground(v)).collect();
    let polygons = check_polygons(tile.polygons, &vertices, &ground, tile.options.connectors)?;
    let polygon_count = polygons.poly_start.len() - 1;
    tile.areas.expect_len(polygon_count, "polygons")?;
    if let Some(p) = tile
        .areas
        .items
        .iter()
        .position(|&a| usize::from(a) >= MAX_AREAS)
    {
        return Err(tile.areas.invalid(p, "area id is not below 64"));
    }
    tile.flags.expect_len(polygon_count, "polygons")?;
    let links = links::check_links(
        &tile.links,
        &tile.hop_start,
        &tile.hops,
        &polygons,
        &vertices,
    )?;
    let flags = try_collect(
        polygon_count,
        tile.flags.items.iter().map(|&f| AtomicU32::new(f)),
        "flags",
    )?;
    let mut mesh = mesh_data(
        up,
        vertices.into(),
        ground.into(),
        polygons,
        tile.areas.items.into(),
        flags,
        links,
    )?;
    if mesh.links.count() > 0 {
        join_islands_by_links(&mut mesh)?;
    }
    let island = tile.island;
    island.expect_len(polygon_count, "polygons")?;
    if let Some(p) = (0..polygon_count).find(|&p| island.items[p] != mesh.island(p as u32)) {
        return Err(island.invalid(
            p,
            format!(
                "island {} disagrees with the polygons' connections (expected {})",
                island.items[p],
                mesh.island(p as u32)
            ),
        ));
    }
    if tile.options.island_count != mesh.island_count {
        return Err(BinaryError::Invalid {
            section: super::OPTIONS.name,
            record: 0,
            offset: 0,
            reason: format!(
                "island count {} disagrees with the polygons' connections (expected {})",
                tile.options.island_count, mesh.island_count
            ),
        });
    }
    let coarse = merged::check_merged(&mesh, tile.of_merged, tile.merged)?;
    mesh.coarse = OnceLock::from(coarse);
    if let Some(tables) = tile.lane {
        let lane = super::lane::check_lane(&mesh, tables)?;
        mesh.fast_lane = OnceLock::from(Some(Arc::new(lane)));
    }
    mesh.clearance.baked_radius = tile.options.baked_radius;
    Ok(mesh)
}

/// Polygon tables that passed every check, with what is derived from them.
pub(super) struct CheckedPolygons {
    pub poly_start: Arc<[u32]>,
    pub corners: Arc<[u32]>,
    pub neighbours: Arc<[u32]>,
    pub twin: Arc<[u32]>,
    pub portals: Arc<[[u32; 2]]>,
    pub index: PolygonIndex,
    pub bounds: Aabb,
    pub wall_vertex: Vec<bool>,
    pub dead_end: Vec<bool>,
    /// Islands by shared edges alone (links not yet joined).
    pub island: Vec<u32>,
    pub island_count: u32,
}

/// Checks polygon tables over `vertices` (with their `ground` positions), as the
/// builder would have derived them; `connectors`: whether degenerate connectors are
/// allowed.
pub(super) fn check_polygons(
    t: Polygons,
    vertices: &[Vec3],
    ground: &[Vec2],
    connectors: bool,
) -> Result<CheckedPolygons, BinaryError> {
    check_polygon_starts(&t)?;
    check_shapes(&t, ground, connectors)?;
    check_adjacency(&t)?;
    check_edges_unique(&t, vertices.len())?;
    check_portals(&t)?;
    let (poly_start, corners) = (t.poly_start.items, t.corners.items);
    let (polygon_bounds, bounds) = polygon_bounds(vertices, &poly_start, &corners)?;
    let index = index::check_index(&t.nodes, &t.entries, &polygon_bounds)?;
    let (neighbours, twin) = (t.neighbours.items, t.twin.items);
    let walls = wall_tables(&poly_start, &corners, &neighbours, &twin, vertices.len())?;
    let (island, island_count) = find_islands(&poly_start, &neighbours)?;
    Ok(CheckedPolygons {
        poly_start,
        corners,
        neighbours,
        twin,
        portals: t.portals.items,
        index,
        bounds,
        wall_vertex: walls.wall_vertex,
        dead_end: walls.dead_end,
        island,
        island_count,
    })
}

/// A mesh of one tile of checked polygons with the given attributes.
///
/// # Errors
/// [`MeshError::OutOfMemory`] if the island map cannot be allocated.
pub(super) fn mesh_data(
    up: UpAxis,
    vertices: Tiled<Vec3>,
    ground: Tiled<Vec2>,
    polygons: CheckedPolygons,
    areas: Tiled<u8>,
    flags: Vec<AtomicU32>,
    links: Links,
) -> Result<MeshData, MeshError> {
    let tables = ElementTables {
        vertices,
        ground,
        poly_start: polygons.poly_start.into(),
        corners: polygons.corners.into(),
        neighbours: polygons.neighbours.into(),
        local_island: polygons.island.into(),
        portals: polygons.portals.into(),
        twin: polygons.twin.into(),
        wall_vertex: polygons.wall_vertex.into(),
        dead_end: polygons.dead_end.into(),
        areas,
        flags: flags.into(),
    };
    let mut mesh = MeshData::one_tile(
        up,
        tables,
        polygons.index,
        polygons.bounds,
        polygons.island_count,
    )?;
    mesh.links = links;
    Ok(mesh)
}

/// Portals: each slot's is the run of edges to the same neighbour it belongs to.
fn check_portals(t: &Polygons) -> Result<(), BinaryError> {
    let (starts, corners, neighbours) =
        (&t.poly_start.items, &t.corners.items, &t.neighbours.items);
    t.portals.expect_len(corners.len(), "corner slots")?;
    for p in 0..starts.len() - 1 {
        let range = starts[p] as usize..starts[p + 1] as usize;
        for slot in range.clone() {
            let expected = portal_of_slot(
                &corners[range.clone()],
                &neighbours[range.clone()],
                slot - range.start,
            );
            if t.portals.items[slot] != expected {
                return Err(t
                    .portals
                    .invalid(slot, format!("portal should be {expected:?} (polygon {p})")));
            }
        }
    }
    Ok(())
}

/// Polygon offsets: start at 0, at least 3 corners each, end at the corner count.
fn check_polygon_starts(t: &Polygons) -> Result<(), BinaryError> {
    let starts = &t.poly_start;
    let corners = t.corners.items.len();
    if u32::try_from(corners).is_err() {
        return Err(MeshError::TooLarge("more than 2^32 - 1 polygon corners").into());
    }
    match &starts.items[..] {
        [] => return Err(starts.invalid(0, "the offsets list is empty")),
        [_] => return Err(MeshError::NoPolygons.into()),
        [first, ..] if *first != 0 => return Err(starts.invalid(0, "the first offset is not 0")),
        _ => {}
    }
    for (p, pair) in starts.items.windows(2).enumerate() {
        if pair[1] < pair[0] || pair[1] - pair[0] < 3 {
            return Err(starts.invalid(p + 1, format!("polygon {p} has fewer than 3 corners")));
        }
    }
    let last = starts.items.len() - 1;
    if starts.items[last] as usize != corners {
        return Err(starts.invalid(
            last,
            format!("the last offset is not the corner count {corners}"),
        ));
    }
    Ok(())
}

/// Corner indices in range; every polygon convex and counter-clockwise (or a degenerate
/// connector, when `connectors` allows them).
fn check_shapes(t: &Polygons, ground: &[Vec2], connectors: bool) -> Result<(), BinaryError> {
    let starts = &t.poly_start.items;
    let corners = &t.corners;
    let vertex_count = ground.len();
    if let Some(slot) = corners
        .items
        .iter()
        .position(|&v| v as usize >= vertex_count)
    {
        return Err(corners.invalid(
            slot,
            format!(
                "vertex index {} is out of range (vertex count {vertex_count})",
                corners.items[slot]
            ),
        ));
    }
    for p in 0..starts.len() - 1 {
        let range = starts[p] as usize..starts[p + 1] as usize;
        let own = &corners.items[range.clone()];
        if connectors && is_collinear_triangle(own, ground) {
            check_connector(p as u32, own, own, ground)?;
            continue;
        }
        if check_polygon(p as u32, own, ground)? == Winding::Clockwise {
            return Err(corners.invalid(
                range.start,
                format!("polygon {p} is wound clockwise in the ground plane"),
            ));
        }
    }
    Ok(())
}

/// Neighbours and twins: a wall on both or neither, a twin inside its neighbour, pointing
/// back, over the same edge walked the other way.
fn check_adjacency(t: &Polygons) -> Result<(), BinaryError> {
    let starts = &t.poly_start.items;
    let corners = &t.corners.items;
    let (neighbours, twins) = (&t.neighbours, &t.twin);
    neighbours.expect_len(corners.len(), "corner slots")?;
    twins.expect_len(corners.len(), "corner slots")?;
    let polygon_count = starts.len() - 1;
    for p in 0..polygon_count {
        let range = starts[p] as usize..starts[p + 1] as usize;
        for slot in range.clone() {
            let (n, t) = (neighbours.items[slot], twins.items[slot]);
            // A twin checked before, pointing back here: that check covered this slot
            // too (its neighbour, polygon and edge), so skip the reads it made.
            if (t as usize) < slot && twins.items[t as usize] as usize == slot {
                continue;
            }
            if n == NO_NEIGHBOUR || t == NO_TWIN {
                if n != t {
                    return Err(neighbours
                        .invalid(slot, "a wall in one of the neighbour and twin tables only"));
                }
                continue;
            }
            if n as usize >= polygon_count || n as usize == p {
                return Err(neighbours.invalid(slot, format!("neighbour {n} is out of range")));
            }
            let there = starts[n as usize] as usize..starts[n as usize + 1] as usize;
            if !there.contains(&(t as usize)) {
                return Err(twins.invalid(slot, format!("twin {t} is not a slot of polygon {n}")));
            }
            let t = t as usize;
            let back = twins.items[t] as usize == slot && neighbours.items[t] as usize == p;
            let same_edge = corners[slot] == corners[next_in(there.clone(), t)]
                && corners[next_in(range.clone(), slot)] == corners[t];
            if !(back && same_edge) {
                return Err(twins.invalid(
                    slot,
                    format!("slot {t} of polygon {n} is not the same edge pointing back"),
                ));
            }
        }
    }
    Ok(())
}

/// No edge (pair of vertices) is used by more than the two slots the adjacency pairs:
/// the builder would have paired two walls over one edge, and refused a third use.
/// Edges are bucketed by their smaller vertex (a counting sort, linear time); buckets
/// are small (a few edges per vertex) and scanned pair by pair, large ones sorted.
fn check_edges_unique(t: &Polygons, vertex_count: usize) -> Result<(), BinaryError> {
    const SMALL: usize = 16;
    let starts = &t.poly_start.items;
    let corners = &t.corners.items;
    let twins = &t.twin.items;
    let mut bucket_start = try_filled(vertex_count + 2, 0u32, "edge buckets")?;
    for_each_edge(starts, corners, |low, _, _| {
        bucket_start[low as usize + 2] += 1
    });
    for v in 2..vertex_count + 2 {
        bucket_start[v] += bucket_start[v - 1];
    }
    // Filling bucket `v` advances `bucket_start[v + 1]` from the start of bucket `v` to
    // its end, after which `bucket_start[v]..bucket_start[v + 1]` is bucket `v`.
    let mut entries = try_filled(corners.len(), (0u32, 0u32), "edge buckets")?;
    for_each_edge(starts, corners, |low, high, slot| {
        let fill = &mut bucket_start[low as usize + 1];
        entries[*fill as usize] = (high, slot);
        *fill += 1;
    });
    for v in 0..vertex_count {
        let bucket = &mut entries[bucket_start[v] as usize..bucket_start[v + 1] as usize];
        let pair = if bucket.len() <= SMALL {
            (1..bucket.len()).find_map(|j| {
                let other = bucket[..j].iter().find(|e| e.0 == bucket[j].0)?;
                (twins[other.1 as usize] != bucket[j].1).then_some((*other, bucket[j]))
            })
        } else {
            bucket.sort_unstable();
            bucket.windows(2).find_map(|w| {
                (w[0].0 == w[1].0 && twins[w[0].1 as usize] != w[1].1).then_some((w[0], w[1]))
            })
        };
        if let Some(((high, s0), (_, s1))) = pair {
            return Err(t.neighbours.invalid(
                s1 as usize,
                format!("edge ({v}, {high}) is also used by slot {s0} without being its twin"),
            ));
        }
    }
    Ok(())
}

/// Calls `each(low, high, slot)` for every edge, its two vertices in increasing order.
#[inline(always)]
fn for_each_edge(starts: &[u32], corners: &[u32], mut each: impl FnMut(u32, u32, u32)) {
    for p in 0..starts.len() - 1 {
        let (start, end) = (starts[p] as usize, starts[p + 1] as usize);
        // Backwards from the last slot, whose edge ends at the first corner.
        let mut a = corners[start];
        for slot in (start..end).rev() {
            let b = a;
            a = corners[slot];
            each(a.min(b), a.max(b), slot as u32);
        }
    }
}
