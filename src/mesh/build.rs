//! Mesh construction: validation, vertex welding, winding normalisation, adjacency from
//! shared edges, islands and the spatial index. Every rejection names its culprit.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};

use glam::{DVec2, Vec2, Vec3};

use super::links::{self, Links, OffMeshLink};
use super::{MeshData, NO_NEIGHBOUR, PolygonIndex};
use crate::error::MeshError;
use crate::filter::{DEFAULT_AREA, DEFAULT_FLAGS, MAX_AREAS};
use crate::geometry::{Aabb, UpAxis};

/// Options for building a [`super::NavMesh`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct MeshOptions {
    /// Which axis is up (default [`UpAxis::Y`]).
    pub up_axis: UpAxis,
    /// Merge vertices that are within `weld_distance` of each other before finding
    /// neighbours (default `true`). Meshes exported with one vertex per face corner need it.
    pub weld_vertices: bool,
    /// Largest distance, in world units, at which two vertices are merged (default 0:
    /// only vertices at exactly the same position). Must be finite and >= 0.
    pub weld_distance: f32,
    /// Accept degenerate connectors (default `false`: they are
    /// [`MeshError::DegeneratePolygon`]). A connector is a triangle of zero area in the
    /// ground plane, its three corners distinct vertices on one line (two of them may
    /// share a position): a walkable line that joins the polygons along its edges, as
    /// adventure games join walk areas. Paths cross it or run along it. See the README's
    /// "Degenerate connectors" for the cases and the limits.
    pub allow_degenerate_connectors: bool,
}

impl Default for MeshOptions {
    fn default() -> Self {
        MeshOptions {
            up_axis: UpAxis::Y,
            weld_vertices: true,
            weld_distance: 0.0,
            allow_degenerate_connectors: false,
        }
    }
}

impl MeshOptions {
    /// Default options with the given up axis.
    pub fn with_up_axis(up_axis: UpAxis) -> Self {
        MeshOptions {
            up_axis,
            ..Default::default()
        }
    }
}

/// How the index array is divided into polygons.
pub(super) enum PolygonSizes<'a> {
    /// Three indices per polygon.
    Triangles,
    /// The size of each polygon.
    Listed(&'a [u32]),
}

/// Largest coordinate magnitude accepted for a vertex. Path geometry is computed in f32;
/// within this bound, products of coordinate differences (cross products, squared
/// lengths) stay far from overflowing (`12 * (2e18)^2 < 3.4e38`).
const MAX_COORDINATE: f32 = 1e18;

/// Sine of the largest inward turn still accepted as convex (collinear corners pass).
const CONVEXITY_TOLERANCE: f64 = 1e-6;
/// Smallest |area| accepted, relative to the squared longest edge.
const MIN_RELATIVE_AREA: f64 = 1e-12;

/// Per-polygon attributes and links, besides the geometry.
#[derive(Default)]
pub(super) struct Extras<'a> {
    /// Area id per polygon (default [`DEFAULT_AREA`]).
    pub areas: Option<&'a [u8]>,
    /// Initial flags per polygon (default [`DEFAULT_FLAGS`]).
    pub flags: Option<&'a [u32]>,
    pub links: &'a [OffMeshLink],
}

pub(super) fn build(
    vertices: &[Vec3],
    indices: &[u32],
    sizes: PolygonSizes<'_>,
    options: &MeshOptions,
    extras: &Extras<'_>,
) -> Result<MeshData, MeshError> {
    if !(options.weld_distance.is_finite() && options.weld_distance >= 0.0) {
        return Err(MeshError::InvalidOption(
            "weld_distance must be finite and >= 0",
        ));
    }
    if u32::try_from(vertices.len()).is_err() || vertices.len() == u32::MAX as usize {
        return Err(MeshError::TooLarge("more than 2^32 - 1 vertices"));
    }
    let poly_start = polygon_offsets(indices.len(), &sizes)?;
    let polygon_count = poly_start.len() - 1;
    if polygon_count == 0 {
        return Err(MeshError::NoPolygons);
    }
    check_vertices_finite(vertices)?;
    let weld = if options.weld_vertices {
        weld_map(vertices, options.weld_distance)?
    } else {
        Vec::new()
    };
    let canonical = |v: u32| if weld.is_empty() { v } else { weld[v as usize] };

    let up = options.up_axis;
    let ground = try_collect(
        vertices.len(),
        vertices.iter().map(|&v| up.ground(v)),
        "ground positions",
    )?;
    let mut corners = try_vec_with_capacity(indices.len(), "polygon corners")?;
    let mut connectors = Vec::new();
    for p in 0..polygon_count {
        let range = poly_start[p] as usize..poly_start[p + 1] as usize;
        let first = corners.len();
        for (corner, &index) in indices[range].iter().enumerate() {
            if index as usize >= vertices.len() {
                return Err(MeshError::IndexOutOfRange {
                    polygon: p as u32,
                    corner: corner as u32,
                    index,
                    vertex_count: vertices.len() as u32,
                });
            }
            corners.push(canonical(index));
        }
        if options.allow_degenerate_connectors && is_collinear_triangle(&corners[first..], &ground)
        {
            let range = poly_start[p] as usize..poly_start[p + 1] as usize;
            check_connector(p as u32, &corners[first..], &indices[range], &ground)?;
            connectors
                .try_reserve(1)
                .map_err(|_| MeshError::OutOfMemory("connectors"))?;
            connectors.push(p as u32);
        } else {
            normalise_polygon(p as u32, &mut corners[first..], &ground)?;
        }
    }
    if !connectors.is_empty() {
        orient_connectors(&poly_start, &mut corners, &connectors)?;
    }
    let neighbours = link_neighbours(&poly_start, &corners)?;
    let portals = try_collect(
        corners.len(),
        (0..polygon_count)
            .flat_map(|p| {
                let range = poly_start[p] as usize..poly_start[p + 1] as usize;
                range.clone().map(move |slot| (range.clone(), slot))
            })
            .map(|(range, slot)| {
                portal_of_slot(
                    &corners[range.clone()],
                    &neighbours[range.clone()],
                    slot - range.start,
                )
            }),
        "portals",
    )?;
    let areas = polygon_areas(polygon_count, extras.areas)?;
    let flags = polygon_flags(polygon_count, extras.flags)?;
    let (island, island_count) = find_islands(&poly_start, &neighbours)?;
    let polygon_bounds = try_collect(
        polygon_count,
        (0..polygon_count).map(|p| {
            Aabb::from_points(
                corners[poly_start[p] as usize..poly_start[p + 1] as usize]
                    .iter()
                    .map(|&v| vertices[v as usize]),
            )
        }),
        "polygon bounds",
    )?;
    let bounds = polygon_bounds.iter().fold(Aabb::EMPTY, |a, &b| a.union(b));
    let index = PolygonIndex::build(&polygon_bounds)?;
    let mut mesh = MeshData {
        up,
        vertices: try_collect(vertices.len(), vertices.iter().copied(), "vertices")?,
        ground,
        poly_start,
        corners,
        neighbours,
        island,
        island_count,
        bounds,
        index,
        portals,
        areas,
        flags,
        flags_generation: std::sync::atomic::AtomicU64::new(0),
        links: Links::default(),
        coarse: std::sync::OnceLock::new(),
    };
    if !extras.links.is_empty() {
        mesh.links = links::attach(&mesh, extras.links)?;
        join_islands_by_links(&mut mesh)?;
    }
    Ok(mesh)
}

fn polygon_areas(polygon_count: usize, areas: Option<&[u8]>) -> Result<Vec<u8>, MeshError> {
    let Some(areas) = areas else {
        let mut all = try_vec_with_capacity(polygon_count, "areas")?;
        all.resize(polygon_count, DEFAULT_AREA);
        return Ok(all);
    };
    if areas.len() != polygon_count {
        return Err(MeshError::PolygonAttributeCount {
            what: "areas",
            expected: polygon_count as u64,
            given: areas.len() as u64,
        });
    }
    if let Some(polygon) = areas.iter().position(|&a| usize::from(a) >= MAX_AREAS) {
        return Err(MeshError::AreaOutOfRange {
            polygon: polygon as u32,
            area: u32::from(areas[polygon]),
        });
    }
    try_collect(polygon_count, areas.iter().copied(), "areas")
}

fn polygon_flags(
    polygon_count: usize,
    flags: Option<&[u32]>,
) -> Result<Box<[std::sync::atomic::AtomicU32]>, MeshError> {
    use std::sync::atomic::AtomicU32;
    if let Some(flags) = flags
        && flags.len() != polygon_count
    {
        return Err(MeshError::PolygonAttributeCount {
            what: "flags",
            expected: polygon_count as u64,
            given: flags.len() as u64,
        });
    }
    let initial = |p: usize| flags.map_or(DEFAULT_FLAGS, |f| f[p]);
    Ok(try_collect(
        polygon_count,
        (0..polygon_count).map(|p| AtomicU32::new(initial(p))),
        "flags",
    )?
    .into_boxed_slice())
}

/// Islands joined by a link (either direction) become one: a path may lead from one to
/// the other. Union-find over the island numbers, then renumbering from 0.
fn join_islands_by_links(mesh: &mut MeshData) -> Result<(), MeshError> {
    let count = mesh.island_count as usize;
    let mut parent: Vec<u32> = try_collect(count, 0..count as u32, "islands")?;
    fn root(parent: &mut [u32], mut i: u32) -> u32 {
        while parent[i as usize] != i {
            let up = parent[parent[i as usize] as usize];
            parent[i as usize] = up;
            i = up;
        }
        i
    }
    for p in 0..mesh.polygon_count() {
        for hop in mesh.links.hops_from(p) {
            let a = root(&mut parent, mesh.island[p as usize]);
            let b = root(&mut parent, mesh.island[hop.to_polygon as usize]);
            if a != b {
                parent[a.max(b) as usize] = a.min(b);
            }
        }
    }
    let mut renumber = try_collect(count, std::iter::repeat_n(u32::MAX, count), "islands")?;
    let mut next = 0u32;
    for i in 0..count as u32 {
        let r = root(&mut parent, i) as usize;
        if renumber[r] == u32::MAX {
            renumber[r] = next;
            next += 1;
        }
    }
    for island in &mut mesh.island {
        *island = renumber[root(&mut parent, *island) as usize];
    }
    mesh.island_count = next;
    Ok(())
}

/// An empty `Vec` with room for `n` items, or `OutOfMemory` instead of an abort.
pub(super) fn try_vec_with_capacity<T>(n: usize, what: &'static str) -> Result<Vec<T>, MeshError> {
    let mut v = Vec::new();
    v.try_reserve_exact(n)
        .map_err(|_| MeshError::OutOfMemory(what))?;
    Ok(v)
}

/// Collects `items`, of which there are at most `n`, into a `Vec` allocated up front
/// with [`try_vec_with_capacity`], so that the collection itself never aborts.
pub(super) fn try_collect<T>(
    n: usize,
    items: impl Iterator<Item = T>,
    what: &'static str,
) -> Result<Vec<T>, MeshError> {
    let mut v = try_vec_with_capacity(n, what)?;
    v.extend(items);
    debug_assert!(v.len() <= n, "try_collect: more than {n} items");
    Ok(v)
}

/// An empty hash map with room for `n` entries, or `OutOfMemory` instead of an abort.
fn try_map_with_capacity<K: std::hash::Hash + Eq, V>(
    n: usize,
    what: &'static str,
) -> Result<HashMap<K, V>, MeshError> {
    let mut map = HashMap::new();
    map.try_reserve(n)
        .map_err(|_| MeshError::OutOfMemory(what))?;
    Ok(map)
}

fn polygon_offsets(index_count: usize, sizes: &PolygonSizes<'_>) -> Result<Vec<u32>, MeshError> {
    if u32::try_from(index_count).is_err() {
        return Err(MeshError::TooLarge("more than 2^32 - 1 polygon corners"));
    }
    match sizes {
        PolygonSizes::Triangles => {
            if index_count % 3 != 0 {
                return Err(MeshError::IndexCountMismatch {
                    needed: index_count.next_multiple_of(3) as u64,
                    given: index_count as u64,
                });
            }
            let mut offsets = try_vec_with_capacity(index_count / 3 + 1, "polygon offsets")?;
            offsets.extend((0..=index_count / 3).map(|p| (p * 3) as u32));
            Ok(offsets)
        }
        PolygonSizes::Listed(sizes) => {
            let mut offsets = try_vec_with_capacity(sizes.len() + 1, "polygon offsets")?;
            offsets.push(0u32);
            let mut total: u64 = 0;
            for (p, &size) in sizes.iter().enumerate() {
                if size < 3 {
                    return Err(MeshError::TooFewVertices {
                        polygon: p as u32,
                        size,
                    });
                }
                total += u64::from(size);
                if total > index_count as u64 {
                    let needed = total + sizes[p + 1..].iter().map(|&s| u64::from(s)).sum::<u64>();
                    return Err(MeshError::IndexCountMismatch {
                        needed,
                        given: index_count as u64,
                    });
                }
                offsets.push(total as u32);
            }
            if total != index_count as u64 {
                return Err(MeshError::IndexCountMismatch {
                    needed: total,
                    given: index_count as u64,
                });
            }
            Ok(offsets)
        }
    }
}

/// Rejects NaN, infinite and too large (see [`MAX_COORDINATE`]) coordinates.
fn check_vertices_finite(vertices: &[Vec3]) -> Result<(), MeshError> {
    for (i, v) in vertices.iter().enumerate() {
        if let Some(&value) = v.to_array().iter().find(|c| !c.is_finite()) {
            return Err(MeshError::NonFiniteVertex {
                vertex: i as u32,
                value,
            });
        }
        if let Some(&value) = v.to_array().iter().find(|c| c.abs() > MAX_COORDINATE) {
            return Err(MeshError::CoordinateTooLarge {
                vertex: i as u32,
                value,
            });
        }
    }
    Ok(())
}

/// Maps every vertex to the lowest-numbered vertex within `distance` of it (greedy, in
/// index order). Uses a hash grid with cells of `distance`, so it is linear in practice.
fn weld_map(vertices: &[Vec3], distance: f32) -> Result<Vec<u32>, MeshError> {
    let mut map = try_vec_with_capacity(vertices.len(), "vertex welding")?;
    if distance == 0.0 {
        let mut seen: HashMap<[u32; 3], u32> =
            try_map_with_capacity(vertices.len(), "vertex welding")?;
        for (i, v) in vertices.iter().enumerate() {
            // `+ 0.0` folds -0.0 into 0.0 so that both weld.
            let key = (*v + Vec3::ZERO).to_array().map(f32::to_bits);
            map.push(*seen.entry(key).or_insert(i as u32));
        }
        return Ok(map);
    }
    let cell = |v: Vec3| (v / distance).floor().as_ivec3();
    let mut grid: HashMap<glam::IVec3, Vec<u32>> =
        try_map_with_capacity(vertices.len(), "vertex welding")?;
    for (i, &v) in vertices.iter().enumerate() {
        let c = cell(v);
        let mut target = i as u32;
        'search: for dx in -1..=1 {
            for dy in -1..=1 {
                for dz in -1..=1 {
                    // Wrapping: a huge ratio saturates the cell to i32::MAX, and its
                    // neighbour must not overflow (candidates are checked by distance).
                    let near = c.wrapping_add(glam::IVec3::new(dx, dy, dz));
                    if let Some(bucket) = grid.get(&near) {
                        if let Some(&r) = bucket
                            .iter()
                            .find(|&&r| vertices[r as usize].distance(v) <= distance)
                        {
                            target = r;
                            break 'search;
                        }
                    }
                }
            }
        }
        if target == i as u32 {
            let bucket = grid.entry(c).or_default();
            bucket
                .try_reserve(1)
                .map_err(|_| MeshError::OutOfMemory("vertex welding"))?;
            bucket.push(target);
        }
        map.push(target);
    }
    Ok(map)
}

/// Checks one polygon (no repeated vertex, non-zero area, convex, simple) and reverses
/// it in place when it is clockwise. Works in f64 so that thin slivers are judged right.
fn normalise_polygon(polygon: u32, corners: &mut [u32], ground: &[Vec2]) -> Result<(), MeshError> {
    check_distinct_corners(polygon, corners)?;
    let point = |v: u32| ground[v as usize].as_dvec2();
    let n = corners.len();
    let mut area2 = 0.0f64;
    let mut longest2 = 0.0f64;
    for i in 0..n {
        let (a, b) = (point(corners[i]), point(corners[(i + 1) % n]));
        area2 += a.perp_dot(b);
        longest2 = longest2.max((b - a).length_squared());
    }
    if area2.is_nan() || area2.abs() <= longest2 * MIN_RELATIVE_AREA {
        return Err(MeshError::DegeneratePolygon { polygon });
    }
    check_edge_lengths(polygon, corners, ground)?;
    let reversed = area2 < 0.0;
    if reversed {
        corners.reverse();
    }
    // Every turn must be a left turn (or straight on), and the turns must add up to one
    // full revolution: that rules out reflex corners and self-overlapping stars.
    let mut turning = 0.0f64;
    for i in 0..n {
        let (a, b, c) = (
            point(corners[(i + n - 1) % n]),
            point(corners[i]),
            point(corners[(i + 1) % n]),
        );
        let (e1, e2): (DVec2, DVec2) = (b - a, c - b);
        let cross = e1.perp_dot(e2);
        let scale = e1.length() * e2.length();
        if cross < -CONVEXITY_TOLERANCE * scale || scale == 0.0 {
            let corner = if reversed {
                (n - 1 - i) as u32
            } else {
                i as u32
            };
            return Err(MeshError::NonConvexPolygon {
                polygon,
                corner,
                vertex: corners[i],
            });
        }
        // A U-turn (the polygon doubles back along itself: a zero-width spike) has a
        // cross product of about 0 with either sign; count it as a half turn to the
        // left, so that a spike's two U-turns add up to a full extra revolution and the
        // polygon is rejected below instead of its U-turns cancelling out.
        let dot = e1.dot(e2);
        turning += if dot < 0.0 { cross.abs() } else { cross }.atan2(dot);
    }
    if (turning - std::f64::consts::TAU).abs() > 1e-3 {
        return Err(MeshError::NonConvexPolygon {
            polygon,
            corner: 0,
            vertex: corners[0],
        });
    }
    Ok(())
}

/// Whether `corners` are three points on one line in the ground plane (to the same
/// relative tolerance under which [`normalise_polygon`] calls a polygon degenerate).
fn is_collinear_triangle(corners: &[u32], ground: &[Vec2]) -> bool {
    if corners.len() != 3 {
        return false;
    }
    let [a, b, c] = [0, 1, 2].map(|i| ground[corners[i] as usize].as_dvec2());
    let area2 = (b - a).perp_dot(c - a);
    let longest2 = (b - a)
        .length_squared()
        .max((c - b).length_squared())
        .max((a - c).length_squared());
    area2.abs() <= longest2 * MIN_RELATIVE_AREA
}

/// Checks a degenerate connector: three distinct vertices (`corners`, after welding;
/// `given` as the caller wrote them) that are not all at one point.
fn check_connector(
    polygon: u32,
    corners: &[u32],
    given: &[u32],
    ground: &[Vec2],
) -> Result<(), MeshError> {
    if let Err(repeated) = check_distinct_corners(polygon, corners) {
        let welded = given[0] != given[1] && given[1] != given[2] && given[2] != given[0];
        return Err(match repeated {
            MeshError::RepeatedVertex { vertex, .. } if welded => {
                MeshError::CollapsedConnector { polygon, vertex }
            }
            other => other,
        });
    }
    let point = |i: usize| ground[corners[i] as usize];
    if point(0) == point(1) && point(1) == point(2) {
        return Err(MeshError::DegeneratePolygon { polygon });
    }
    Ok(())
}

/// Gives each connector the winding its neighbours need: a neighbour walks a shared
/// edge one way, the connector the other. A connector has no area, so either winding
/// fits it; one whose neighbours need both is refused. Connectors next to connectors
/// take their winding from the first one wound (breadth-first, linear time); a group of
/// connectors that touches no polygon keeps the winding of its first member.
fn orient_connectors(
    poly_start: &[u32],
    corners: &mut [u32],
    connectors: &[u32],
) -> Result<(), MeshError> {
    let oom = |_| MeshError::OutOfMemory("connector edges");
    let mut directed: HashSet<(u32, u32)> = HashSet::new();
    directed.try_reserve(corners.len()).map_err(oom)?;
    let mut next_connector = connectors.iter().peekable();
    for p in 0..poly_start.len() - 1 {
        if next_connector.next_if(|&&c| c == p as u32).is_some() {
            continue;
        }
        let (start, end) = (poly_start[p] as usize, poly_start[p + 1] as usize);
        for slot in start..end {
            let next = if slot + 1 == end { start } else { slot + 1 };
            directed.insert((corners[slot], corners[next]));
        }
    }
    let edges_of = |corners: &[u32], polygon: u32| {
        let first = poly_start[polygon as usize] as usize;
        let c = &corners[first..first + 3];
        [(c[0], c[1]), (c[1], c[2]), (c[2], c[0])]
    };
    // Which connectors use each undirected edge (at most two on a manifold mesh; a third
    // is reported by the neighbour search later).
    let mut users: HashMap<(u32, u32), [u32; 2]> = HashMap::new();
    users.try_reserve(3 * connectors.len()).map_err(oom)?;
    for (i, &polygon) in connectors.iter().enumerate() {
        for (a, b) in edges_of(corners, polygon) {
            let entry = users
                .entry((a.min(b), a.max(b)))
                .or_insert([NO_NEIGHBOUR; 2]);
            if entry[0] == NO_NEIGHBOUR {
                entry[0] = i as u32;
            } else {
                entry[1] = i as u32;
            }
        }
    }
    let mut wound = try_vec_with_capacity(connectors.len(), "connector edges")?;
    wound.resize(connectors.len(), false);
    let mut queue = std::collections::VecDeque::new();
    queue.try_reserve(connectors.len()).map_err(oom)?;
    // Winds connector `i` against the edges known so far; false when nothing decides.
    let wind = |i: usize, corners: &mut [u32], directed: &mut HashSet<(u32, u32)>, seed: bool| {
        let polygon = connectors[i];
        let edges = edges_of(corners, polygon);
        let same = edges.iter().filter(|e| directed.contains(e)).count();
        let opposite = edges
            .iter()
            .filter(|&&(a, b)| directed.contains(&(b, a)))
            .count();
        match (same, opposite) {
            (0, 0) if !seed => return Ok(false),
            (0, _) => {}
            (_, 0) => {
                let first = poly_start[polygon as usize] as usize;
                corners[first..first + 3].reverse();
            }
            _ => return Err(MeshError::ConnectorSides { polygon }),
        }
        directed.extend(edges_of(corners, polygon));
        Ok(true)
    };
    for seed_pass in [false, true] {
        for start in 0..connectors.len() {
            if wound[start] || !wind(start, corners, &mut directed, seed_pass)? {
                continue;
            }
            wound[start] = true;
            queue.push_back(start);
            while let Some(i) = queue.pop_front() {
                for (a, b) in edges_of(corners, connectors[i]) {
                    for j in users[&(a.min(b), a.max(b))] {
                        let j = j as usize;
                        if j != NO_NEIGHBOUR as usize
                            && !wound[j]
                            && wind(j, corners, &mut directed, false)?
                        {
                            wound[j] = true;
                            queue.push_back(j);
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

/// Rejects a polygon that uses a vertex twice. Sorts a copy for large polygons so that a
/// face of many corners costs O(n log n), not O(n^2).
fn check_distinct_corners(polygon: u32, corners: &[u32]) -> Result<(), MeshError> {
    const SMALL: usize = 16;
    let repeated = if corners.len() <= SMALL {
        corners
            .iter()
            .enumerate()
            .find(|&(i, v)| corners[..i].contains(v))
            .map(|(_, &v)| v)
    } else {
        let mut sorted = try_collect(corners.len(), corners.iter().copied(), "polygon corners")?;
        sorted.sort_unstable();
        sorted.windows(2).find(|w| w[0] == w[1]).map(|w| w[0])
    };
    if let Some(vertex) = repeated {
        return Err(MeshError::RepeatedVertex { polygon, vertex });
    }
    Ok(())
}

/// Rejects consecutive corners that are distinct vertices at the same ground position
/// (a zero-length edge), once the polygon is known to have an area.
fn check_edge_lengths(polygon: u32, corners: &[u32], ground: &[Vec2]) -> Result<(), MeshError> {
    let n = corners.len();
    for i in 0..n {
        let (a, b) = (corners[i], corners[(i + 1) % n]);
        if ground[a as usize] == ground[b as usize] {
            return Err(MeshError::ZeroLengthEdge { polygon, a, b });
        }
    }
    Ok(())
}

/// Finds the neighbour across every edge with one hash-map pass (expected O(n)).
fn link_neighbours(poly_start: &[u32], corners: &[u32]) -> Result<Vec<u32>, MeshError> {
    struct EdgeUse {
        polygon: u32,
        slot: u32,
        from: u32,
        paired_with: u32,
    }
    let mut neighbours = try_vec_with_capacity(corners.len(), "edge neighbours")?;
    neighbours.resize(corners.len(), NO_NEIGHBOUR);
    let mut edges: HashMap<(u32, u32), EdgeUse> = try_map_with_capacity(corners.len(), "edges")?;
    for p in 0..poly_start.len() - 1 {
        let (start, end) = (poly_start[p] as usize, poly_start[p + 1] as usize);
        for slot in start..end {
            let a = corners[slot];
            let b = corners[if slot + 1 == end { start } else { slot + 1 }];
            match edges.entry((a.min(b), a.max(b))) {
                Entry::Vacant(e) => {
                    e.insert(EdgeUse {
                        polygon: p as u32,
                        slot: slot as u32,
                        from: a,
                        paired_with: NO_NEIGHBOUR,
                    });
                }
                Entry::Occupied(mut e) => {
                    let first = e.get_mut();
                    if first.paired_with != NO_NEIGHBOUR {
                        return Err(MeshError::NonManifoldEdge {
                            a,
                            b,
                            first: first.polygon,
                            second: first.paired_with,
                            third: p as u32,
                        });
                    }
                    if first.from == a {
                        return Err(MeshError::FoldedEdge {
                            a,
                            b,
                            first: first.polygon,
                            second: p as u32,
                        });
                    }
                    first.paired_with = p as u32;
                    neighbours[first.slot as usize] = p as u32;
                    neighbours[slot] = first.polygon;
                }
            }
        }
    }
    Ok(neighbours)
}

/// Labels connected components with an explicit stack (no recursion).
fn find_islands(poly_start: &[u32], neighbours: &[u32]) -> Result<(Vec<u32>, u32), MeshError> {
    let polygon_count = poly_start.len() - 1;
    let mut island = try_vec_with_capacity(polygon_count, "islands")?;
    island.resize(polygon_count, u32::MAX);
    let mut count = 0u32;
    let mut stack = Vec::new();
    for seed in 0..polygon_count {
        if island[seed] != u32::MAX {
            continue;
        }
        island[seed] = count;
        stack.push(seed as u32);
        while let Some(p) = stack.pop() {
            let range = poly_start[p as usize] as usize..poly_start[p as usize + 1] as usize;
            for &n in &neighbours[range] {
                if n != NO_NEIGHBOUR && island[n as usize] == u32::MAX {
                    island[n as usize] = count;
                    stack
                        .try_reserve(1)
                        .map_err(|_| MeshError::OutOfMemory("islands"))?;
                    stack.push(n);
                }
            }
        }
        count += 1;
    }
    Ok((island, count))
}

/// The portal that corner slot `local` of a polygon (with `corners` and their
/// `neighbours`) belongs to, as `[left, right]` vertices seen walking out through it.
///
/// Two convex polygons meet along one segment, but with collinear corners that segment
/// may be several edges (two polygons of a merged grid sharing a long side). The portal
/// is the whole run of consecutive edges leading to the same neighbour, so that paths may
/// cross it anywhere, not only on the edge the search happened to take. For a wall it is
/// the edge itself.
pub(super) fn portal_of_slot(corners: &[u32], neighbours: &[u32], local: usize) -> [u32; 2] {
    let n = corners.len();
    let neighbour = neighbours[local];
    let same = |i: usize| neighbour != NO_NEIGHBOUR && neighbours[i] == neighbour;
    let (mut first, mut last) = (local, local);
    let mut run = 1;
    while run < n && same((first + n - 1) % n) {
        first = (first + n - 1) % n;
        run += 1;
    }
    while run < n && same((last + 1) % n) {
        last = (last + 1) % n;
        run += 1;
    }
    // Corners run counter-clockwise, so the interior is on the left of a -> b; facing
    // out through the edge, b is on the walker's left and a on the right.
    [corners[(last + 1) % n], corners[first]]
}
