//! The navigation mesh: its data, how it is built ([`build`], [`grid`], [`links`]), and
//! everything derived from the mesh alone: neighbours, portals, islands, the edge tables
//! of the exact search, the spatial index ([`locate`]), the fans round a vertex, the
//! merged copy ([`coarse`]), and the queries that need no search (nearest point,
//! straight walks and raycasts, interpolation). May use `alloc`, `error`, `filter`,
//! `geometry`; never a search or a query.
//!
//! A [`NavMesh`] is a cheap handle (an `Arc`) to [`MeshData`]. Cloning it shares the
//! geometry; nothing in it changes after [`NavMesh::from_polygons`] returns, so it is
//! `Send + Sync` and any number of threads may query it at once.

#[cfg(test)]
mod assembled_tests;
mod build;
pub(crate) mod carve;
mod clearance;
mod coarse;
mod coarse_patch;
mod cut;
pub(crate) mod draft;
mod elements;
mod fan;
pub(crate) mod fast_lane;
mod flags;
mod grid;
mod input;
mod interpolate;
pub(crate) mod landmarks;
mod links;
mod locate;
mod locate_patch;
mod mesh_data;
mod obstacle;
mod partition;
mod partition_cdt;
mod raycast;
mod sample;
mod slide;
mod stamps;
mod tile_view;
mod tiled;
mod walk;

use std::ops::Range;
use std::sync::{Arc, OnceLock};

use glam::{Vec2, Vec3};

pub(crate) use build::portal_of_slot;
pub use build::{BinaryError, FORMAT_VERSION, MeshOptions};
pub(crate) use build::{HEADER_LEN, Reader, open, record, seal};
pub use clearance::{ARC_LENGTH_EXCESS, ARC_SEGMENTS};
pub(crate) use clearance::{ArcCentres, Clearance, ErodedMesh};
pub(crate) use coarse::CoarseMesh;
pub use cut::{CutTile, MAX_CUT_TILES, TileCut};
pub(crate) use fan::Fans;
pub use grid::TileGrid;
pub use input::MeshInput;
pub(crate) use landmarks::{GoalBounds, Landmarks};
pub use links::OffMeshLink;
pub(crate) use links::{LinkHop, Links, validate as validate_link};
pub(crate) use locate::PolygonIndex;
pub use obstacle::{CIRCLE_SEGMENTS, MAX_FOOTPRINT_CORNERS, Obstacle};
pub use raycast::{Raycast, WallHit};
pub use sample::RandomPoint;
pub(crate) use sample::pick_by_area;
pub(crate) use slide::CORNER_REACH;
pub use slide::{MAX_SURFACE_LEGS, SurfaceMove};
pub(crate) use stamps::{Moved, PolygonStamps};
pub(crate) use tile_view::TileView;
pub(crate) use tiled::{ElementTables, TileInfo, Tiled};
pub(crate) use walk::WalkEnd;

use crate::error::MeshError;
use crate::filter::QueryFilter;
use crate::geometry::{Aabb, UpAxis};
use crate::sync::{AtomicU32, AtomicU64};

/// [`MeshData::neighbours`] of a polygon edge that has no neighbour (a wall).
pub(crate) const NO_NEIGHBOUR: u32 = u32::MAX;

/// [`MeshData::twin`] of an edge without a neighbour.
pub(crate) const NO_TWIN: u32 = u32::MAX;

/// A navigation mesh: convex polygons that cover the walkable ground.
///
/// Polygons keep the indices the caller gave them (polygon `i` of the input is polygon
/// `i` here). Their corners are stored counter-clockwise in the ground plane, whatever
/// winding the input used. Cloning is cheap and shares the data.
#[derive(Clone)]
pub struct NavMesh {
    data: Arc<MeshData>,
}

/// The immutable contents of a [`NavMesh`]: per-element tables indexed by element id,
/// and a small table per tile.
///
/// Every element id (polygon, corner slot, vertex) is `tile << local_bits | local`; a
/// plain mesh is one tile with `local_bits = 32`, so its ids are `0..count`. The
/// per-element tables are [`Tiled`]: one chunk per tile slot, so query code indexes them
/// by id whatever the number of tiles. Code that walks a whole table (builders, the
/// binary format, the merged copy) works on a one-tile mesh and uses its single chunk;
/// query code walks polygons with [`MeshData::polygon_ids`].
pub(crate) struct MeshData {
    pub up: UpAxis,
    /// Bits of an element id that number the element inside its tile (32 for one tile).
    pub local_bits: u32,
    /// World positions as given (vertices welded away are kept but unused).
    pub vertices: Tiled<Vec3>,
    /// `vertices` projected onto the ground plane.
    pub ground: Tiled<Vec2>,
    /// Polygon `p` owns corners `poly_start[p]..poly_start[p + 1]` (global slot ids; a
    /// tile's chunk holds one entry more than its polygon count).
    pub poly_start: Tiled<u32>,
    /// Corner vertex ids, counter-clockwise in the ground plane.
    pub corners: Tiled<u32>,
    /// Per corner slot `i`: the polygon across the edge from corner `i` to the next
    /// corner, or [`NO_NEIGHBOUR`].
    pub neighbours: Tiled<u32>,
    /// Per polygon: its connected component inside its own tile (see
    /// [`MeshData::island`] for the island of the whole mesh).
    pub local_island: Tiled<u32>,
    /// The number of islands of the whole mesh.
    pub island_count: u32,
    /// The union of the tiles' bounds.
    pub bounds: Aabb,
    /// Per tile slot: bounds, spatial index, counts, generation, island map.
    pub tiles: Vec<TileInfo>,
    /// Per corner slot: the `[left, right]` vertices of the portal it belongs to.
    pub portals: Tiled<[u32; 2]>,
    /// Per corner slot: the slot of the same edge in the neighbouring polygon (walked
    /// the other way), or [`NO_TWIN`] for a wall.
    pub twin: Tiled<u32>,
    /// Per vertex: whether a wall (an edge without a neighbour) ends there. Over the
    /// whole mesh, a shortest path can bend only at such a vertex.
    pub wall_vertex: Tiled<bool>,
    /// Per polygon: whether it has at most one neighbouring polygon (a path entering
    /// it can only come back out the same way, so it matters only when it holds the
    /// goal).
    pub dead_end: Tiled<bool>,
    /// Area id of each polygon (below [`crate::MAX_AREAS`]).
    pub areas: Tiled<u8>,
    /// Run-time flags of each polygon: the only mutable state of a mesh. Queries read
    /// them with relaxed loads, each flag once per use, so a change made while a query
    /// runs is seen by it either wholly or not at all. Chunks are shared by every mesh
    /// assembled from the same tile, so a change is seen by all of them.
    pub flags: Tiled<AtomicU32>,
    /// Bumped after every change of `flags` (see [`MeshData::flags_generation`]);
    /// shared by the meshes that share flag chunks.
    pub flags_generation: Arc<AtomicU64>,
    /// Off-mesh links.
    pub links: Links,
    /// The merged copy for the exact mode, made on first use (see [`coarse`]).
    pub coarse: OnceLock<Option<Box<CoarseMesh>>>,
    /// The landmark table of the searches' estimates, made on first use (see
    /// [`landmarks`]).
    pub landmarks: OnceLock<Option<Box<Landmarks>>>,
    /// The fast lane's index of the exact mode, made on request or on first use (see
    /// [`fast_lane`]); shared by a world's snapshots of the same geometry.
    pub fast_lane: OnceLock<Option<Arc<fast_lane::FastLane>>>,
    /// The radius the mesh was baked for and its eroded copies for larger agents (see
    /// [`clearance`]).
    pub clearance: Clearance,
}

/// The answer of a nearest-point query.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NearestPoint {
    /// The polygon that holds the point.
    pub polygon: u32,
    /// The point on the mesh, in world coordinates.
    pub point: Vec3,
    /// 3D distance from the query point to `point`, in world units.
    pub distance: f32,
}

impl std::fmt::Debug for NavMesh {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NavMesh")
            .field("polygons", &self.polygon_count())
            .field("vertices", &self.vertex_count())
            .field("islands", &self.island_count())
            .finish()
    }
}

impl NavMesh {
    /// Builds a mesh from vertices and convex polygons of any size.
    ///
    /// * `vertices`: world positions.
    /// * `indices`: the corners of all polygons, polygon after polygon.
    /// * `polygon_sizes`: the number of corners of each polygon (each at least 3); their
    ///   sum must equal `indices.len()`.
    ///
    /// Polygons must be convex in the ground plane (collinear corners are allowed) and
    /// may use either winding. Two polygons are neighbours when they share an edge: the
    /// same two vertices, after welding (see [`MeshOptions`]).
    ///
    /// # Errors
    /// A [`MeshError`] naming the first offending polygon, corner, vertex or edge.
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshOptions, NavMesh};
    ///
    /// // Three unit squares in a row along x (y up); polygon 1 is the middle one.
    /// let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// let vertices = [v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0), v(3.0, 0.0), v(0.0, 1.0), v(1.0, 1.0), v(2.0, 1.0), v(3.0, 1.0)];
    /// let indices = [0, 1, 5, 4, /**/ 1, 2, 6, 5, /**/ 2, 3, 7, 6];
    /// let mesh = NavMesh::from_polygons(&vertices, &indices, &[4, 4, 4], &MeshOptions::default())?;
    /// assert_eq!((mesh.polygon_count(), mesh.island_count()), (3, 1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "new")]
    pub fn from_polygons(
        vertices: &[Vec3],
        indices: &[u32],
        polygon_sizes: &[u32],
        options: &MeshOptions,
    ) -> Result<NavMesh, MeshError> {
        NavMesh::from_input(
            &MeshInput::new(vertices, indices).with_polygon_sizes(polygon_sizes),
            options,
        )
    }

    /// Builds a mesh from a full description: polygons, their area ids and initial
    /// flags, and off-mesh links.
    ///
    /// # Errors
    /// As [`NavMesh::from_polygons`], plus [`MeshError::PolygonAttributeCount`],
    /// [`MeshError::AreaOutOfRange`], [`MeshError::InvalidLink`] and
    /// [`MeshError::LinkOffMesh`].
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshInput, MeshOptions, NavMesh, OffMeshLink};
    ///
    /// // Two unit squares 2 apart along x, joined by a one-way jump; the second is mud (area 1).
    /// let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// let vertices = [v(0.0, 0.0), v(1.0, 0.0), v(1.0, 1.0), v(0.0, 1.0), v(3.0, 0.0), v(4.0, 0.0), v(4.0, 1.0), v(3.0, 1.0)];
    /// let indices = [0, 1, 2, 3, /**/ 4, 5, 6, 7];
    /// let jump = OffMeshLink::new(v(0.9, 0.5), v(3.1, 0.5)).with_bidirectional(false);
    /// let links = [jump];
    /// let input = MeshInput::new(&vertices, &indices)
    ///     .with_polygon_sizes(&[4, 4])
    ///     .with_areas(&[0, 1])
    ///     .with_links(&links);
    /// let mesh = NavMesh::from_input(&input, &MeshOptions::default())?;
    /// assert_eq!((mesh.polygon_area(1), mesh.link_count()), (1, 1));
    /// // The link joins the two squares into one island.
    /// assert_eq!(mesh.island_count(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_input(input: &MeshInput<'_>, options: &MeshOptions) -> Result<NavMesh, MeshError> {
        let sizes = match input.polygon_sizes {
            Some(sizes) => build::PolygonSizes::Listed(sizes),
            None => build::PolygonSizes::Triangles,
        };
        let extras = build::Extras {
            areas: input.areas,
            flags: input.flags,
            links: input.links,
        };
        let data = build::build(input.vertices, input.indices, sizes, options, &extras)?;
        Ok(NavMesh {
            data: Arc::new(data),
        })
    }

    /// Builds a mesh of triangles: `indices` holds three vertex indices per triangle.
    ///
    /// # Errors
    /// As [`NavMesh::from_polygons`]; a length that is not a multiple of 3 is
    /// [`MeshError::IndexCountMismatch`].
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshOptions, NavMesh};
    ///
    /// // A unit square as two triangles.
    /// let vertices = [Vec3::ZERO, Vec3::X, Vec3::new(1.0, 0.0, 1.0), Vec3::Z];
    /// let mesh = NavMesh::from_triangles(&vertices, &[0, 1, 2, 0, 2, 3], &MeshOptions::default())?;
    /// assert_eq!(mesh.polygon_count(), 2);
    /// assert_eq!(mesh.polygon_neighbours(0).flatten().collect::<Vec<_>>(), [1]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_triangles(
        vertices: &[Vec3],
        indices: &[u32],
        options: &MeshOptions,
    ) -> Result<NavMesh, MeshError> {
        NavMesh::from_input(&MeshInput::new(vertices, indices), options)
    }

    /// The mesh of `data` (a snapshot a world assembled).
    pub(crate) fn from_data(data: Arc<MeshData>) -> NavMesh {
        NavMesh { data }
    }

    pub(crate) fn data(&self) -> &MeshData {
        &self.data
    }

    /// The shared contents (to count or weaken the references to them).
    pub(crate) fn shared(&self) -> &Arc<MeshData> {
        &self.data
    }

    /// Number of polygons.
    #[must_use]
    pub fn polygon_count(&self) -> u32 {
        self.data.polygon_count()
    }

    /// Number of vertices, in the numbering of the input the mesh was built from:
    /// welding merges vertices at one position but renumbers nothing, so welded and
    /// unused vertices still count (for a mesh from a tile grid: the corners of its
    /// merged rectangles). [`NavMesh::interpolate`] takes values in this numbering.
    #[must_use]
    pub fn vertex_count(&self) -> u32 {
        self.data.vertex_count()
    }

    /// Whether `polygon` is the id of a polygon of this mesh (for a mesh built from
    /// arrays: `polygon < polygon_count()`).
    #[must_use]
    pub fn contains_polygon(&self, polygon: u32) -> bool {
        self.data.contains_polygon(polygon)
    }

    /// The ids of every polygon, in increasing order: `0..polygon_count()` for a mesh
    /// built from arrays.
    pub fn polygon_ids(&self) -> impl Iterator<Item = u32> + '_ {
        self.data.polygon_ids()
    }

    /// Panics with a clear message unless `polygon` names a polygon of this mesh.
    #[track_caller]
    fn expect_polygon(&self, polygon: u32) {
        assert!(
            self.data.contains_polygon(polygon),
            "polygon {polygon} is not a polygon of this mesh ({} polygons)",
            self.polygon_count()
        );
    }

    /// Number of islands: sets of polygons connected to each other by shared edges.
    #[must_use]
    pub fn island_count(&self) -> u32 {
        self.data.island_count
    }

    /// The island (connected component, numbered from 0) of polygon `polygon`.
    ///
    /// # Panics
    /// If `polygon` is not a polygon of the mesh (`polygon >= polygon_count()` for a mesh
    /// built from arrays).
    #[must_use]
    pub fn island(&self, polygon: u32) -> u32 {
        self.expect_polygon(polygon);
        self.data.island(polygon)
    }

    /// The up axis the mesh was built with.
    #[must_use]
    pub fn up_axis(&self) -> UpAxis {
        self.data.up
    }

    /// The agent radius the mesh was baked for ([`MeshOptions::agent_radius`], world
    /// units; 0 for a world's snapshot).
    #[must_use]
    pub fn agent_radius(&self) -> f32 {
        self.data.clearance.baked_radius
    }

    /// The bytes held by the eroded copies of this mesh that queries with an
    /// [`agent_radius`](crate::PathOptions::agent_radius) have built so far (at most
    /// a few radii and filters are kept; see the README's "Several agent sizes on one
    /// mesh"). Counted from the copies' element counts.
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshOptions, NavMesh, PathOptions, Query};
    ///
    /// let v = [Vec3::ZERO, Vec3::new(4.0, 0.0, 0.0), Vec3::new(4.0, 0.0, 4.0), Vec3::new(0.0, 0.0, 4.0)];
    /// let mesh = NavMesh::from_polygons(&v, &[0, 1, 2, 3], &[4], &MeshOptions::default())?;
    /// assert_eq!(mesh.eroded_bytes(), 0);
    /// let options = PathOptions::default().with_agent_radius(0.5);
    /// Query::new(&mesh).find_path(Vec3::new(1.0, 0.0, 1.0), Vec3::new(3.0, 0.0, 3.0), &options)?;
    /// assert!(mesh.eroded_bytes() > 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn eroded_bytes(&self) -> usize {
        self.data.clearance.cached_bytes()
    }

    /// The bounding box of all polygons, in world coordinates.
    #[must_use]
    pub fn bounds(&self) -> Aabb {
        self.data.bounds
    }

    /// The point of the mesh nearest to `point` (3D distance) within `max_distance`
    /// world units, among the polygons `filter` admits (every polygon, whatever its
    /// flags, for `None`); `None` when no such polygon is that close. Logarithmic in the
    /// polygon count for compact queries.
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
    /// let above = Vec3::new(1.5, 2.0, 0.5);
    /// let nearest = mesh.nearest_point(above, f32::INFINITY, None).unwrap();
    /// assert_eq!((nearest.polygon, nearest.point, nearest.distance), (1, Vec3::new(1.5, 0.0, 0.5), 2.0));
    /// assert!(mesh.nearest_point(above, 1.0, None).is_none());
    /// // With the middle square closed, the default filter sends the point to an edge of a
    /// // neighbour.
    /// mesh.set_polygon_flags(1, 0)?;
    /// let open = mesh.nearest_point(above, f32::INFINITY, Some(&QueryFilter::default())).unwrap();
    /// assert_ne!(open.polygon, 1);
    /// assert_eq!(open.distance, 2.0f32.hypot(0.5));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    #[doc(alias = "sample_position")]
    #[doc(alias = "closest_point")]
    #[doc(alias = "find_nearest_poly")]
    pub fn nearest_point(
        &self,
        point: Vec3,
        max_distance: f32,
        filter: Option<&QueryFilter>,
    ) -> Option<NearestPoint> {
        let mesh = self.data();
        match filter {
            Some(filter) => {
                mesh.nearest_point(point, max_distance, |p| filter.admits(mesh.flags_of(p)))
            }
            None => mesh.nearest_point(point, max_distance, |_| true),
        }
    }

    /// The point of `polygon` nearest to `point` (3D distance).
    ///
    /// # Panics
    /// If `polygon` is not a polygon of the mesh (`polygon >= polygon_count()` for a mesh
    /// built from arrays).
    ///
    /// # Example
    /// ```
    /// # use navstar::{glam::Vec3, MeshOptions, NavMesh};
    /// # let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// # let vertices = [v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0), v(3.0, 0.0), v(0.0, 1.0), v(1.0, 1.0), v(2.0, 1.0), v(3.0, 1.0)];
    /// # let indices = [0, 1, 5, 4, /**/ 1, 2, 6, 5, /**/ 2, 3, 7, 6];
    /// # let mesh = NavMesh::from_polygons(&vertices, &indices, &[4, 4, 4], &MeshOptions::default())?;
    /// // `mesh`: three unit squares in a row along x, polygons 0, 1, 2 (y up).
    /// let p = mesh.closest_point_on_polygon(2, Vec3::new(0.5, 1.0, 0.5));
    /// assert_eq!(p, Vec3::new(2.0, 0.0, 0.5));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn closest_point_on_polygon(&self, polygon: u32, point: Vec3) -> Vec3 {
        self.expect_polygon(polygon);
        self.data.closest_point_on_polygon(polygon, point)
    }
}

/// The slot after `slot` among a polygon's corner slots `range`, wrapping round from
/// the last to the first ([`MeshData::next_slot`] when the range is at hand).
#[inline]
pub(crate) fn next_in(range: Range<usize>, slot: usize) -> usize {
    debug_assert!(range.contains(&slot));
    if slot + 1 == range.end {
        range.start
    } else {
        slot + 1
    }
}
