//! Validation of a decoded tile: every table is checked against the polygons, as
//! strictly as the builder would have derived it, and the mesh is assembled from them.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, AtomicU64};

use glam::Vec3;

use super::read::TileOptions;
use super::{BinaryError, Section};
use crate::alloc::{try_collect, try_filled};
use crate::error::MeshError;
use crate::filter::MAX_AREAS;
use crate::geometry::Aabb;
use crate::mesh::build::connectors::{check_connector, is_collinear_triangle};
use crate::mesh::build::polygon_bounds;
use crate::mesh::build::topology::{
    Adjacency, find_islands, join_islands_by_links, portal_of_slot, wall_tables,
};
use crate::mesh::build::validate::{check_vertices_finite, normalise_polygon};
use crate::mesh::links::{LinkHop, Links};
use crate::mesh::locate::{MAX_DEPTH, Node};
use crate::mesh::{MeshData, NO_NEIGHBOUR, NO_TWIN, PolygonIndex, next_in};

/// The records of one section, with where they are in the file.
pub(super) struct Located<T> {
    pub items: Vec<T>,
    pub section: Section,
    /// File offset of the first record.
    pub offset: u64,
}

impl<T> Located<T> {
    /// An [`BinaryError::Invalid`] for record `record`.
    fn invalid(&self, record: usize, reason: impl Into<String>) -> BinaryError {
        BinaryError::Invalid {
            section: self.section.name,
            record: record as u64,
            offset: self.offset + (record * self.section.record) as u64,
            reason: reason.into(),
        }
    }

    /// Refuses a section whose record count is not `expected`.
    fn expect_len(&self, expected: usize, of: &str) -> Result<(), BinaryError> {
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

/// A decoded tile record, not yet checked.
pub(super) struct Tile {
    pub options: TileOptions,
    pub vertices: Located<Vec3>,
    pub poly_start: Located<u32>,
    pub corners: Located<u32>,
    pub areas: Located<u8>,
    pub flags: Located<u32>,
    pub neighbours: Located<u32>,
    pub twin: Located<u32>,
    pub portals: Located<[u32; 2]>,
    pub island: Located<u32>,
    pub nodes: Located<(Aabb, u32, u32)>,
    pub entries: Located<(u32, Aabb)>,
    pub links: Located<(f32, u8, [u8; 3], u32)>,
    pub hop_start: Located<u32>,
    pub hops: Located<(u32, Vec3, Vec3, u32)>,
}

/// Checks every table of `tile` and assembles the mesh.
pub(super) fn assemble(tile: Tile) -> Result<MeshData, BinaryError> {
    let vertices = &tile.vertices.items;
    if vertices.len() >= u32::MAX as usize {
        return Err(MeshError::TooLarge("more than 2^32 - 1 vertices").into());
    }
    check_vertices_finite(vertices)?;
    let up = tile.options.up;
    let ground = try_collect(
        vertices.len(),
        vertices.iter().map(|&v| up.ground(v)),
        "ground positions",
    )?;
    check_polygon_starts(&tile)?;
    let poly_start = &tile.poly_start.items;
    let corners = &tile.corners.items;
    let polygon_count = poly_start.len() - 1;
    check_shapes(&tile, &ground)?;
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
    check_adjacency(&tile)?;
    check_edges_unique(&tile)?;
    let neighbours = &tile.neighbours.items;
    tile.portals.expect_len(corners.len(), "corner slots")?;
    for p in 0..polygon_count {
        let range = poly_start[p] as usize..poly_start[p + 1] as usize;
        for slot in range.clone() {
            let expected = portal_of_slot(
                &corners[range.clone()],
                &neighbours[range.clone()],
                slot - range.start,
            );
            if tile.portals.items[slot] != expected {
                return Err(tile
                    .portals
                    .invalid(slot, format!("portal should be {expected:?} (polygon {p})")));
            }
        }
    }
    let (polygon_bounds, bounds) = polygon_bounds(vertices, poly_start, corners)?;
    let index = check_index(&tile, &polygon_bounds)?;
    let links = check_links(&tile)?;

    let Tile {
        options,
        vertices,
        poly_start,
        corners,
        areas,
        flags,
        neighbours,
        twin,
        portals,
        island,
        ..
    } = tile;
    let adjacency = Adjacency {
        neighbours: neighbours.items,
        twin: twin.items,
    };
    let walls = wall_tables(
        &poly_start.items,
        &corners.items,
        &adjacency,
        vertices.items.len(),
    )?;
    let (computed_island, island_count) = find_islands(&poly_start.items, &adjacency.neighbours)?;
    let mut mesh = MeshData {
        up,
        vertices: vertices.items,
        ground,
        poly_start: poly_start.items,
        corners: corners.items,
        neighbours: adjacency.neighbours,
        island: computed_island,
        island_count,
        bounds,
        index,
        portals: portals.items,
        twin: adjacency.twin,
        wall_vertex: walls.wall_vertex,
        dead_end: walls.dead_end,
        areas: areas.items,
        flags: try_collect(
            polygon_count,
            flags.items.iter().map(|&f| AtomicU32::new(f)),
            "flags",
        )?
        .into_boxed_slice(),
        flags_generation: AtomicU64::new(0),
        links,
        coarse: OnceLock::new(),
    };
    if mesh.links.count() > 0 {
        join_islands_by_links(&mut mesh)?;
    }
    island.expect_len(polygon_count, "polygons")?;
    if let Some(p) = (0..polygon_count).find(|&p| island.items[p] != mesh.island[p]) {
        return Err(island.invalid(
            p,
            format!(
                "island {} disagrees with the polygons' connections (expected {})",
                island.items[p], mesh.island[p]
            ),
        ));
    }
    if options.island_count != mesh.island_count {
        return Err(BinaryError::Invalid {
            section: super::OPTIONS.name,
            record: 0,
            offset: 0,
            reason: format!(
                "island count {} disagrees with the polygons' connections (expected {})",
                options.island_count, mesh.island_count
            ),
        });
    }
    Ok(mesh)
}

/// Polygon offsets: start at 0, at least 3 corners each, end at the corner count.
fn check_polygon_starts(tile: &Tile) -> Result<(), BinaryError> {
    let starts = &tile.poly_start;
    let corners = tile.corners.items.len();
    if u32::try_from(corners).is_err() {
        return Err(MeshError::TooLarge("more than 2^32 - 1 polygon corners").into());
    }
    match starts.items.as_slice() {
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
/// connector, when the tile allows them).
fn check_shapes(tile: &Tile, ground: &[glam::Vec2]) -> Result<(), BinaryError> {
    let starts = &tile.poly_start.items;
    let corners = &tile.corners;
    let vertex_count = tile.vertices.items.len();
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
    let mut scratch = Vec::new();
    for p in 0..starts.len() - 1 {
        let range = starts[p] as usize..starts[p + 1] as usize;
        let own = &corners.items[range.clone()];
        if tile.options.connectors && is_collinear_triangle(own, ground) {
            check_connector(p as u32, own, own, ground)?;
            continue;
        }
        scratch.clear();
        scratch
            .try_reserve(own.len())
            .map_err(|_| MeshError::OutOfMemory("polygon corners"))?;
        scratch.extend_from_slice(own);
        normalise_polygon(p as u32, &mut scratch, ground)?;
        if scratch != own {
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
fn check_adjacency(tile: &Tile) -> Result<(), BinaryError> {
    let starts = &tile.poly_start.items;
    let corners = &tile.corners.items;
    let (neighbours, twins) = (&tile.neighbours, &tile.twin);
    neighbours.expect_len(corners.len(), "corner slots")?;
    twins.expect_len(corners.len(), "corner slots")?;
    let polygon_count = starts.len() - 1;
    for p in 0..polygon_count {
        let range = starts[p] as usize..starts[p + 1] as usize;
        for slot in range.clone() {
            let (n, t) = (neighbours.items[slot], twins.items[slot]);
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
/// Edges are bucketed by their smaller vertex (a counting sort, linear time).
fn check_edges_unique(tile: &Tile) -> Result<(), BinaryError> {
    let starts = &tile.poly_start.items;
    let corners = &tile.corners.items;
    let twins = &tile.twin.items;
    let vertex_count = tile.vertices.items.len();
    let mut bucket_start = try_filled(vertex_count + 1, 0u32, "edge buckets")?;
    let edge = |p: usize, slot: usize| {
        let range = starts[p] as usize..starts[p + 1] as usize;
        let (a, b) = (corners[slot], corners[next_in(range, slot)]);
        (a.min(b), a.max(b))
    };
    for p in 0..starts.len() - 1 {
        for slot in starts[p] as usize..starts[p + 1] as usize {
            bucket_start[edge(p, slot).0 as usize + 1] += 1;
        }
    }
    for v in 0..vertex_count {
        bucket_start[v + 1] += bucket_start[v];
    }
    let mut fill = try_collect(
        vertex_count,
        bucket_start[..vertex_count].iter().copied(),
        "edge buckets",
    )?;
    let mut entries = try_filled(corners.len(), (0u32, 0u32), "edge buckets")?;
    for p in 0..starts.len() - 1 {
        for slot in starts[p] as usize..starts[p + 1] as usize {
            let (low, high) = edge(p, slot);
            entries[fill[low as usize] as usize] = (high, slot as u32);
            fill[low as usize] += 1;
        }
    }
    for v in 0..vertex_count {
        let bucket = &mut entries[bucket_start[v] as usize..bucket_start[v + 1] as usize];
        bucket.sort_unstable();
        for pair in bucket.windows(2) {
            let ((h0, s0), (h1, s1)) = (pair[0], pair[1]);
            if h0 == h1 && twins[s0 as usize] != s1 {
                return Err(tile.neighbours.invalid(
                    s1 as usize,
                    format!("edge ({v}, {h0}) is also used by slot {s0} without being its twin"),
                ));
            }
        }
    }
    Ok(())
}

/// The spatial index: entries are a permutation of the polygons with their exact boxes;
/// nodes are stored depth-first, every leaf takes the next entries, every box contains
/// its children's, and the tree is shallow enough for the search's fixed stack.
fn check_index(tile: &Tile, polygon_bounds: &[Aabb]) -> Result<PolygonIndex, BinaryError> {
    let (nodes, entries) = (&tile.nodes, &tile.entries);
    let polygon_count = polygon_bounds.len();
    entries.expect_len(polygon_count, "polygons")?;
    let mut seen = try_filled(polygon_count, false, "index entries")?;
    for (i, &(p, bounds)) in entries.items.iter().enumerate() {
        if p as usize >= polygon_count || seen[p as usize] {
            return Err(entries.invalid(i, format!("polygon {p} is out of range or repeated")));
        }
        seen[p as usize] = true;
        if bounds != polygon_bounds[p as usize] {
            return Err(entries.invalid(i, format!("box is not the box of polygon {p}")));
        }
    }
    if nodes.items.is_empty() || nodes.items.len() > polygon_count.max(1) {
        return Err(BinaryError::Layout {
            section: nodes.section.name,
            offset: nodes.offset,
            reason: format!("{} nodes for {polygon_count} polygons", nodes.items.len()),
        });
    }
    let contains = |outer: Aabb, inner: Aabb| {
        outer.min.cmple(inner.min).all() && outer.max.cmpge(inner.max).all()
    };
    // Depth-first order: the stack holds (node, depth, parent box) of nodes to visit;
    // each must be the next node of the array.
    let mut next_node = 0usize;
    let mut next_entry = 0usize;
    let mut stack = Vec::new();
    let whole = Aabb {
        min: Vec3::NEG_INFINITY,
        max: Vec3::INFINITY,
    };
    stack.push((0u32, 0usize, whole));
    while let Some((id, depth, parent)) = stack.pop() {
        let i = id as usize;
        if i != next_node || i >= nodes.items.len() {
            return Err(nodes.invalid(
                next_node.min(nodes.items.len() - 1),
                "nodes are not in depth-first order",
            ));
        }
        next_node += 1;
        let (bounds, right_or_first, count) = nodes.items[i];
        if !contains(parent, bounds) {
            return Err(nodes.invalid(i, "box is not inside its parent's"));
        }
        if depth + 2 >= MAX_DEPTH {
            return Err(nodes.invalid(i, "the tree is too deep"));
        }
        if count > 0 {
            let first = right_or_first as usize;
            let end = first.saturating_add(count as usize);
            if first != next_entry || end > polygon_count {
                return Err(nodes.invalid(i, "leaf does not hold the next entries"));
            }
            for &(_, entry) in &entries.items[first..end] {
                if !contains(bounds, entry) {
                    return Err(nodes.invalid(i, "box does not contain its polygons"));
                }
            }
            next_entry = end;
            continue;
        }
        let right = right_or_first;
        if right as usize <= i + 1 {
            return Err(nodes.invalid(i, format!("right child {right} is not after the left")));
        }
        stack
            .try_reserve(2)
            .map_err(|_| MeshError::OutOfMemory("index nodes"))?;
        stack.push((right, depth + 1, bounds));
        stack.push((id + 1, depth + 1, bounds));
    }
    if next_node != nodes.items.len() || next_entry != polygon_count {
        return Err(nodes.invalid(
            next_node.min(nodes.items.len() - 1),
            "the tree does not cover every node and entry",
        ));
    }
    Ok(PolygonIndex {
        nodes: try_collect(
            nodes.items.len(),
            nodes
                .items
                .iter()
                .map(|&(bounds, right_or_first, count)| Node {
                    bounds,
                    right_or_first,
                    count,
                }),
            "index nodes",
        )?,
        polygons: try_collect(
            polygon_count,
            entries.items.iter().map(|e| e.0),
            "index entries",
        )?,
        polygon_bounds: try_collect(
            polygon_count,
            entries.items.iter().map(|e| e.1),
            "index entries",
        )?,
    })
}

/// Links and their hops: valid costs and areas; hops grouped by the polygon they leave
/// from, in link order; each link has its forward hop and, when two-way, the mirror one;
/// each hop's ends lie on their polygons.
fn check_links(tile: &Tile) -> Result<Links, BinaryError> {
    let (links, starts, hops) = (&tile.links, &tile.hop_start, &tile.hops);
    let polygon_count = tile.poly_start.items.len() - 1;
    for (i, &(cost, area, reserved, _)) in links.items.iter().enumerate() {
        if !(cost.is_finite() && cost >= 0.0) {
            return Err(links.invalid(i, "cost must be finite and >= 0"));
        }
        if usize::from(area) >= MAX_AREAS || reserved != [0; 3] {
            return Err(links.invalid(i, "area is not below 64 or a reserved byte is not 0"));
        }
    }
    if links.items.is_empty() {
        starts.expect_len(0, "links")?;
        hops.expect_len(0, "links")?;
        return Ok(Links::default());
    }
    if links.items.len() > (u32::MAX / 4) as usize {
        return Err(MeshError::TooLarge("more than 2^30 off-mesh links").into());
    }
    starts.expect_len(polygon_count + 1, "polygons (plus one)")?;
    if starts.items[0] != 0 || starts.items[polygon_count] as usize != hops.items.len() {
        return Err(starts.invalid(0, "offsets do not run from 0 to the hop count"));
    }
    let mut per_link = try_filled(links.items.len(), 0u8, "link hops")?;
    let vertices = &tile.vertices.items;
    let corners = &tile.corners.items;
    let poly_start = &tile.poly_start.items;
    let on_polygon = |p: u32, point: Vec3| {
        let range = poly_start[p as usize] as usize..poly_start[p as usize + 1] as usize;
        let poly = &corners[range];
        let v0 = vertices[poly[0] as usize];
        let nearest = poly[1..]
            .windows(2)
            .map(|w| {
                crate::geometry::closest_point_on_triangle(
                    point,
                    v0,
                    vertices[w[0] as usize],
                    vertices[w[1] as usize],
                )
                .distance(point)
            })
            .fold(f32::INFINITY, f32::min);
        nearest <= 1e-3 * (1.0 + point.abs().max_element())
    };
    for p in 0..polygon_count {
        let (from, to) = (starts.items[p] as usize, starts.items[p + 1] as usize);
        if to < from || to > hops.items.len() {
            return Err(starts.invalid(p + 1, "offsets decrease or pass the hop count"));
        }
        let mut previous = None;
        for h in from..to {
            let (link, start, end, to_polygon) = hops.items[h];
            if link as usize >= links.items.len() || to_polygon as usize >= polygon_count {
                return Err(hops.invalid(h, "link or polygon out of range"));
            }
            // A two-way link with both ends in one polygon has two hops there.
            if previous.is_some_and(|l| l > link) {
                return Err(hops.invalid(h, "hops of a polygon are not in link order"));
            }
            previous = Some(link);
            let ends_on_polygons = start.is_finite()
                && end.is_finite()
                && on_polygon(p as u32, start)
                && on_polygon(to_polygon, end);
            if !ends_on_polygons {
                return Err(hops.invalid(h, "an end is not on its polygon"));
            }
            per_link[link as usize] += 1;
        }
    }
    // A two-way link's second hop mirrors its first.
    let mut first_hop: Vec<Option<(u32, LinkHop)>> =
        try_filled(links.items.len(), None, "link hops")?;
    for p in 0..polygon_count {
        for h in starts.items[p] as usize..starts.items[p + 1] as usize {
            let (link, from, to, to_polygon) = hops.items[h];
            let hop = LinkHop {
                link,
                from,
                to,
                to_polygon,
            };
            match first_hop[link as usize] {
                None => first_hop[link as usize] = Some((p as u32, hop)),
                Some((q, other)) => {
                    if other.to_polygon != p as u32
                        || to_polygon != q
                        || other.from != to
                        || other.to != from
                    {
                        return Err(hops
                            .invalid(h, format!("does not mirror the other hop of link {link}")));
                    }
                }
            }
        }
    }
    if let Some(link) = per_link.iter().position(|&n| n == 0 || n > 2) {
        return Err(links.invalid(link, "has no hop, or more than two"));
    }
    Ok(Links {
        hop_start: starts.items.clone(),
        hops: try_collect(
            hops.items.len(),
            hops.items
                .iter()
                .map(|&(link, from, to, to_polygon)| LinkHop {
                    link,
                    from,
                    to,
                    to_polygon,
                }),
            "link hops",
        )?,
        cost: try_collect(
            links.items.len(),
            links.items.iter().map(|l| l.0),
            "link costs",
        )?,
        area: try_collect(
            links.items.len(),
            links.items.iter().map(|l| l.1),
            "link areas",
        )?,
        flags: try_collect(
            links.items.len(),
            links.items.iter().map(|l| AtomicU32::new(l.3)),
            "link flags",
        )?
        .into_boxed_slice(),
    })
}
