//! Mesh construction, stage by stage: the sizes and coordinates are checked and the
//! vertices welded ([`validate`], [`weld`]), each polygon is checked and wound
//! counter-clockwise (degenerate connectors get the winding their neighbours need:
//! [`connectors`]), then neighbours, portals, islands and the tables the searches read
//! are derived from shared edges ([`topology`]), and the spatial index is built. Every
//! rejection names its culprit. Uses the mesh's own types (`super`), `links`, `locate`,
//! and the lower layers (`alloc`, `error`, `filter`, `geometry`).

mod binary;
mod connectors;
mod incremental;
#[cfg(test)]
mod incremental_tests;
mod topology;
mod validate;
mod weld;

pub use binary::{BinaryError, FORMAT_VERSION};
pub(crate) use binary::{HEADER_LEN, Reader, open, record, seal};
pub(super) use incremental::{NO_SOURCE, Previous, rebuild};
#[cfg(any(test, debug_assertions))]
pub(super) use incremental::{first_difference, index_problem};
pub(crate) use topology::portal_of_slot;

use glam::Vec3;

use super::links::{self, OffMeshLink};
use super::{ElementTables, MeshData, PolygonIndex};
use crate::alloc::{try_collect, try_filled, try_vec_with_capacity};
use crate::error::MeshError;
use crate::filter::{DEFAULT_AREA, DEFAULT_FLAGS, MAX_AREAS};
use crate::geometry::{Aabb, UpAxis};
use connectors::{check_connector, is_collinear_triangle, orient_connectors};
use topology::{find_islands, join_islands_by_links, link_neighbours, wall_tables};
use validate::{check_vertices_finite, normalise_polygon, polygon_offsets};
use weld::weld_map;

/// Options for building a [`super::NavMesh`]: `MeshOptions::default()` (Y up, exact
/// welding, no connectors), changed with the `with_*` methods.
///
/// # Example
/// ```
/// use navstar::{MeshOptions, UpAxis};
///
/// let options = MeshOptions::default().with_up_axis(UpAxis::Z).with_weld_distance(0.01);
/// assert_eq!(options.up_axis, UpAxis::Z);
/// assert!(options.weld_vertices);
/// ```
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
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
    /// The radius of the agent the mesh was baked for, in world units (default 0: the
    /// polygons cover all the ground a point may walk). Must be finite and >= 0. A path
    /// query's [`PathOptions::agent_radius`](crate::PathOptions::agent_radius) is the
    /// agent's whole radius: the mesh is eroded by what it exceeds this one by, and
    /// agents no larger than this one walk the mesh as it is.
    pub agent_radius: f32,
}

impl Default for MeshOptions {
    fn default() -> Self {
        MeshOptions {
            up_axis: UpAxis::Y,
            weld_vertices: true,
            weld_distance: 0.0,
            allow_degenerate_connectors: false,
            agent_radius: 0.0,
        }
    }
}

impl MeshOptions {
    /// These options with another up axis ([`MeshOptions::up_axis`]).
    #[must_use]
    pub fn with_up_axis(self, up_axis: UpAxis) -> Self {
        MeshOptions { up_axis, ..self }
    }

    /// These options with welding on or off ([`MeshOptions::weld_vertices`]).
    #[must_use]
    pub fn with_weld_vertices(self, weld_vertices: bool) -> Self {
        MeshOptions {
            weld_vertices,
            ..self
        }
    }

    /// These options with another welding distance ([`MeshOptions::weld_distance`]).
    #[must_use]
    pub fn with_weld_distance(self, weld_distance: f32) -> Self {
        MeshOptions {
            weld_distance,
            ..self
        }
    }

    /// These options with another baked agent radius ([`MeshOptions::agent_radius`]).
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshOptions, NavMesh};
    ///
    /// let v = [Vec3::ZERO, Vec3::X, Vec3::new(1.0, 0.0, 1.0), Vec3::Z];
    /// let baked = MeshOptions::default().with_agent_radius(0.25);
    /// let mesh = NavMesh::from_polygons(&v, &[0, 1, 2, 3], &[4], &baked)?;
    /// assert_eq!(mesh.agent_radius(), 0.25);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn with_agent_radius(self, agent_radius: f32) -> Self {
        MeshOptions {
            agent_radius,
            ..self
        }
    }

    /// These options with degenerate connectors accepted or not
    /// ([`MeshOptions::allow_degenerate_connectors`]).
    #[must_use]
    pub fn with_allow_degenerate_connectors(self, allow_degenerate_connectors: bool) -> Self {
        MeshOptions {
            allow_degenerate_connectors,
            ..self
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
    if !(options.agent_radius.is_finite() && options.agent_radius >= 0.0) {
        return Err(MeshError::InvalidOption(
            "agent_radius must be finite and >= 0",
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
    let adjacency = link_neighbours(&poly_start, &corners)?;
    let walls = wall_tables(
        &poly_start,
        &corners,
        &adjacency.neighbours,
        &adjacency.twin,
        vertices.len(),
    )?;
    let neighbours = adjacency.neighbours;
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
    let (polygon_bounds, bounds) = polygon_bounds(vertices, &poly_start, &corners)?;
    let index = PolygonIndex::build(&polygon_bounds)?;
    let tables = ElementTables {
        vertices: try_collect(vertices.len(), vertices.iter().copied(), "vertices")?.into(),
        ground: ground.into(),
        poly_start: poly_start.into(),
        corners: corners.into(),
        neighbours: neighbours.into(),
        local_island: island.into(),
        portals: portals.into(),
        twin: adjacency.twin.into(),
        wall_vertex: walls.wall_vertex.into(),
        dead_end: walls.dead_end.into(),
        areas: areas.into(),
        flags: flags.into(),
    };
    one_tile_mesh(up, tables, (index, bounds, island_count), options, extras)
}

/// The one-tile mesh of finished `tables` (with their spatial index, bounds and island
/// count): the baked radius of `options` recorded, and the off-mesh links of `extras`
/// attached, their islands joined. The last step of [`build`] and of the incremental
/// builder.
pub(super) fn one_tile_mesh(
    up: UpAxis,
    tables: ElementTables,
    (index, bounds, island_count): (PolygonIndex, Aabb, u32),
    options: &MeshOptions,
    extras: &Extras<'_>,
) -> Result<MeshData, MeshError> {
    let mut mesh = MeshData::one_tile(up, tables, index, bounds, island_count)?;
    mesh.clearance.baked_radius = options.agent_radius;
    if !extras.links.is_empty() {
        mesh.links = links::attach(&mesh, extras.links)?;
        join_islands_by_links(&mut mesh)?;
    }
    Ok(mesh)
}

/// The box of each polygon, and the box of them all.
fn polygon_bounds(
    vertices: &[Vec3],
    poly_start: &[u32],
    corners: &[u32],
) -> Result<(Vec<Aabb>, Aabb), MeshError> {
    let polygon_count = poly_start.len() - 1;
    let boxes = try_collect(
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
    let all = boxes.iter().fold(Aabb::EMPTY, |a, &b| a.union(b));
    Ok((boxes, all))
}

fn polygon_areas(polygon_count: usize, areas: Option<&[u8]>) -> Result<Vec<u8>, MeshError> {
    let Some(areas) = areas else {
        return try_filled(polygon_count, DEFAULT_AREA, "areas");
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
) -> Result<Vec<crate::sync::AtomicU32>, MeshError> {
    use crate::sync::AtomicU32;
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
    try_collect(
        polygon_count,
        (0..polygon_count).map(|p| AtomicU32::new(initial(p))),
        "flags",
    )
}
