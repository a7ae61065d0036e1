//! Typed errors of the Rust API. Each variant maps to one C status code (see `ffi`).

use thiserror::Error;

/// Why a mesh was rejected by [`crate::NavMesh::from_polygons`] or a loader.
///
/// Every variant names the culprit (polygon, corner, vertex or edge) so that a tool can
/// point at it. Polygon and vertex numbers are 0-based indices into the caller's arrays.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum MeshError {
    /// The mesh has no polygons at all.
    #[error("the mesh has zero polygons")]
    NoPolygons,
    /// A vertex coordinate is NaN or infinite.
    #[error("vertex {vertex} has a non-finite coordinate ({value})")]
    NonFiniteVertex {
        /// Index of the offending vertex.
        vertex: u32,
        /// The offending coordinate value.
        value: f32,
    },
    /// A vertex coordinate is finite but larger in magnitude than 1e18, beyond which the
    /// f32 geometry of paths (products of coordinate differences) could overflow.
    #[error(
        "vertex {vertex} has a coordinate too large ({value}); coordinates must be within +-1e18"
    )]
    CoordinateTooLarge {
        /// Index of the offending vertex.
        vertex: u32,
        /// The offending coordinate value.
        value: f32,
    },
    /// A polygon lists fewer than 3 corners.
    #[error("polygon {polygon} has {size} vertices; at least 3 are needed")]
    TooFewVertices {
        /// Index of the offending polygon.
        polygon: u32,
        /// Number of corners it was given.
        size: u32,
    },
    /// The polygon sizes add up to more indices than were given.
    #[error("the polygon sizes need {needed} indices but {given} were given")]
    IndexCountMismatch {
        /// Sum of the polygon sizes.
        needed: u64,
        /// Length of the index array.
        given: u64,
    },
    /// A polygon refers to a vertex that does not exist.
    #[error(
        "polygon {polygon}, corner {corner}: vertex index {index} is out of range (vertex count {vertex_count})"
    )]
    IndexOutOfRange {
        /// Index of the offending polygon.
        polygon: u32,
        /// Corner number within the polygon.
        corner: u32,
        /// The out-of-range vertex index.
        index: u32,
        /// Number of vertices in the mesh.
        vertex_count: u32,
    },
    /// A polygon uses the same vertex twice (possibly after welding).
    #[error("polygon {polygon} repeats vertex {vertex}")]
    RepeatedVertex {
        /// Index of the offending polygon.
        polygon: u32,
        /// The repeated vertex (after welding).
        vertex: u32,
    },
    /// Two consecutive corners of a polygon are distinct vertices at the same position in
    /// the ground plane (weld them, or remove one).
    #[error(
        "polygon {polygon} has a zero-length edge: vertices {a} and {b} are at the same ground position"
    )]
    ZeroLengthEdge {
        /// Index of the offending polygon.
        polygon: u32,
        /// First vertex of the edge.
        a: u32,
        /// Second vertex of the edge.
        b: u32,
    },
    /// A degenerate connector (see [`crate::MeshOptions::allow_degenerate_connectors`])
    /// had two corners at one position, and welding merged them: the polygons on its two
    /// sides now share its edge and are joined already. Leave it out, or build without
    /// welding.
    #[error(
        "polygon {polygon} is a degenerate connector whose coincident corners were welded into vertex {vertex}; its neighbours are joined already: leave it out, or build with weld_vertices off"
    )]
    CollapsedConnector {
        /// Index of the connector.
        polygon: u32,
        /// The vertex its coincident corners became.
        vertex: u32,
    },
    /// A degenerate connector's neighbours need both windings: the polygons sharing its
    /// two shorter edges must lie on one side of its line, the one sharing its longest
    /// edge on the other.
    #[error(
        "polygon {polygon} is a degenerate connector touched from both sides of its line in a way one winding cannot serve: the polygons sharing its two shorter edges must lie on one side, the one sharing its longest edge on the other"
    )]
    ConnectorSides {
        /// Index of the connector.
        polygon: u32,
    },
    /// A polygon has (almost) zero area in the ground plane: a vertical wall, or all
    /// corners on one line.
    #[error(
        "polygon {polygon} has zero area in the ground plane (a triangle whose corners lie on one line is accepted as a degenerate connector when the mesh option allow_degenerate_connectors is set)"
    )]
    DegeneratePolygon {
        /// Index of the offending polygon.
        polygon: u32,
    },
    /// A polygon is not convex in the ground plane.
    #[error(
        "polygon {polygon} is not convex: it turns the wrong way at corner {corner} (vertex {vertex})"
    )]
    NonConvexPolygon {
        /// Index of the offending polygon.
        polygon: u32,
        /// Corner number within the polygon, in the caller's order.
        corner: u32,
        /// Vertex index at that corner.
        vertex: u32,
    },
    /// More than two polygons share one edge.
    #[error("edge ({a}, {b}) is shared by more than two polygons ({first}, {second}, {third})")]
    NonManifoldEdge {
        /// First vertex of the edge.
        a: u32,
        /// Second vertex of the edge.
        b: u32,
        /// The first polygon using the edge.
        first: u32,
        /// The second polygon using the edge.
        second: u32,
        /// The third polygon using the edge.
        third: u32,
    },
    /// Two polygons share an edge but lie on the same side of it (the surface folds over).
    #[error(
        "polygons {first} and {second} share edge ({a}, {b}) but overlap: both lie on the same side of it"
    )]
    FoldedEdge {
        /// First vertex of the edge.
        a: u32,
        /// Second vertex of the edge.
        b: u32,
        /// The first polygon using the edge.
        first: u32,
        /// The second polygon using the edge.
        second: u32,
    },
    /// An option value is out of range.
    #[error("invalid mesh option: {0}")]
    InvalidOption(&'static str),
    /// A per-polygon array (areas, flags) has the wrong length.
    #[error("{what} has {given} entries but the mesh has {expected} polygons")]
    PolygonAttributeCount {
        /// Which array ("areas", "flags").
        what: &'static str,
        /// The number of polygons.
        expected: u64,
        /// The array's length.
        given: u64,
    },
    /// A polygon's area id is not below [`crate::MAX_AREAS`].
    #[error("polygon {polygon} has area id {area}; area ids must be below 64")]
    AreaOutOfRange {
        /// Index of the offending polygon.
        polygon: u32,
        /// Its area id.
        area: u32,
    },
    /// An off-mesh link is malformed; the text says which field.
    #[error("off-mesh link {link}: {reason}")]
    InvalidLink {
        /// Index of the offending link.
        link: u32,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// An end of an off-mesh link is farther from every polygon than its attach radius.
    #[error(
        "off-mesh link {link}: its {end} point is {distance} units from the mesh, more than its radius {radius}"
    )]
    LinkOffMesh {
        /// Index of the offending link.
        link: u32,
        /// Which end ("start" or "end").
        end: &'static str,
        /// Distance from that end to the nearest polygon.
        distance: f32,
        /// The link's attach radius.
        radius: f32,
    },
    /// The mesh is too large for 32-bit indices.
    #[error("the mesh is too large: {0}")]
    TooLarge(&'static str),
    /// [`crate::NavMesh::cut_into_tiles`] refused: the tile size is not a finite
    /// positive number, cuts the mesh into more than [`crate::MAX_CUT_TILES`] tiles or
    /// finer than its coordinates can tell apart, or a tile could not be built.
    #[error("cannot cut the mesh into tiles of side {tile_size}: {reason}")]
    TileCut {
        /// The tile size asked for.
        tile_size: f32,
        /// What is wrong.
        reason: String,
    },
    /// Memory for the mesh could not be allocated.
    #[error("out of memory while building the mesh ({0})")]
    OutOfMemory(&'static str),
    /// Every tile slot of a [`crate::World`] holds a tile.
    #[error("the world is full: all {max_tiles} tile slots hold a tile")]
    WorldFull {
        /// The world's number of slots ([`crate::WorldOptions::max_tiles`]).
        max_tiles: u32,
    },
    /// A tile has more elements of one kind than a slot of its [`crate::World`] numbers
    /// (`2^local_bits - 1`; see [`crate::WorldOptions::max_tiles`]). The tile may be the
    /// one being added or a neighbour whose edges the new seams split.
    #[error("the tile in slot {slot} has {count} {what}; a tile of this world holds at most {max}")]
    TileTooLarge {
        /// The tile's slot.
        slot: u32,
        /// What there are too many of ("polygons", "vertices", "polygon corners").
        what: &'static str,
        /// How many the tile has.
        count: u64,
        /// How many a slot numbers.
        max: u64,
    },
    /// A wall edge would join two tiles at once: the tile in slot `slot` and the tiles in
    /// slots `others` lie on one another on one level (their edges meet it at the same
    /// place within the seam tolerance and the climb), which a world refuses, as it
    /// could not tell which one a path crosses into.
    #[error("the tile in slot {slot} would join the tiles in slots {} and {} along one edge: tiles on one level must not overlap", others[0], others[1])]
    OverlappingTiles {
        /// The tile whose edge would join twice.
        slot: u32,
        /// The two tiles it would join there.
        others: [u32; 2],
    },
    /// A [`crate::TileRef`] names no tile of the world: the tile was removed or replaced
    /// (or the reference comes from another world).
    #[error("{}", stale_message("tile", *.slot, *.generation, *.current))]
    StaleTile {
        /// The reference's slot.
        slot: u32,
        /// The reference's generation.
        generation: u32,
        /// The generation of the tile in that slot now, `None` when it is empty.
        current: Option<u32>,
    },
    /// An obstacle's footprint or height range is unusable (see [`crate::Obstacle`]);
    /// `corner` names the footprint corner at fault when there is one.
    #[error("obstacle{}: {reason}", corner.map_or_else(String::new, |c| format!(" footprint corner {c}")))]
    InvalidObstacle {
        /// The footprint corner at fault, if one is.
        corner: Option<u32>,
        /// What is wrong.
        reason: &'static str,
    },
    /// Carving obstacles into a tile failed: the cut region could not be split into
    /// convex polygons (the text says why). The world is unchanged.
    #[error("carving obstacles into the mesh failed: {0}")]
    CarveFailed(&'static str),
    /// An [`crate::ObstacleId`] names no obstacle of the world: it was removed (or the id
    /// comes from another world).
    #[error("obstacle {id} is not in the world (removed, or never added to it)")]
    StaleObstacle {
        /// The id.
        id: u64,
    },
}

/// Which end of a path request an error is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Endpoint {
    /// The start point.
    Start,
    /// The goal point.
    Goal,
}

/// The text of [`QueryError::NotOnMesh`]: an infinite distance means the filter admits
/// no polygon at all, which deserves its own words.
fn not_on_mesh_message(endpoint: Endpoint, distance: f32, max_distance: f32) -> String {
    if distance.is_finite() {
        format!(
            "the {endpoint} point is {distance} units from the mesh, more than the snap distance {max_distance}"
        )
    } else {
        format!("the {endpoint} point cannot be placed: the filter admits no polygon of the mesh")
    }
}

/// The text of [`MeshError::StaleTile`] and [`QueryError::StaleReference`].
fn stale_message(what: &str, slot: u32, generation: u32, current: Option<u32>) -> String {
    let now = match current {
        Some(current) => format!("holds generation {current}"),
        None => "is empty".to_owned(),
    };
    format!("stale {what} reference: tile slot {slot}, generation {generation}; the slot {now}")
}

impl std::fmt::Display for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Endpoint::Start => "start",
            Endpoint::Goal => "goal",
        })
    }
}

/// Why a path query failed.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum QueryError {
    /// A point has a NaN or infinite coordinate.
    #[error("the {0} point has a non-finite coordinate")]
    NonFinitePoint(Endpoint),
    /// An option value is out of range; the text names the option.
    #[error("invalid path option: {0}")]
    InvalidOption(&'static str),
    /// The point is farther from the mesh than the allowed snap distance.
    #[error("{}", not_on_mesh_message(*.endpoint, *.distance, *.max_distance))]
    NotOnMesh {
        /// Which point.
        endpoint: Endpoint,
        /// Its distance to the nearest point of the mesh (infinite when no polygon is usable).
        distance: f32,
        /// The allowed snap distance.
        max_distance: f32,
    },
    /// The goal cannot be reached and partial paths were not allowed.
    #[error("the goal is unreachable from the start")]
    NoPath,
    /// The query's scratch memory could not be allocated.
    #[error("out of memory for the query's search scratch")]
    OutOfMemory,
    /// A query with an agent radius cannot be answered on this mesh; the text says why
    /// and names `agent_radius` (a mesh where no point keeps that distance from the
    /// walls, or whose eroded copy could not be built).
    #[error("{0}")]
    ClearanceUnavailable(&'static str),
    /// A filter's area cost is not finite and positive.
    #[error("the filter's cost of area {area} is {cost}; costs must be finite and > 0")]
    InvalidAreaCost {
        /// The area id.
        area: u8,
        /// The offending cost.
        cost: f32,
    },
    /// A polygon or link index is out of range; the text names the argument.
    #[error("{what} {index} is out of range (count {count})")]
    IndexOutOfRange {
        /// What the index names ("polygon", "link", ...).
        what: &'static str,
        /// The offending index.
        index: u32,
        /// How many there are.
        count: u32,
    },
    /// A polygon given as where a query starts is refused by the query's filter.
    #[error("the start polygon {polygon} is refused by the filter (its flags are {flags:#x})")]
    RefusedPolygon {
        /// The polygon.
        polygon: u32,
        /// Its flags when the query read them.
        flags: u32,
    },
    /// A random point was asked of polygons with no area: the filter admits none (or
    /// only degenerate connectors) where the query looked.
    #[error("no polygon with an area is admitted by the filter where the random point was asked")]
    NoAdmittedArea,
    /// A [`crate::PolyRef`] names a polygon that is no longer in the world: its tile was
    /// removed or replaced since the reference was made, or an obstacle cut the polygon
    /// (or the piece it was) since; or the reference was made on a later snapshot.
    #[error("{}", stale_message("polygon", *.slot, *.generation, *.current))]
    StaleReference {
        /// The tile slot of the polygon.
        slot: u32,
        /// The reference's generation.
        generation: u32,
        /// The generation of the tile in that slot now, `None` when it is empty.
        current: Option<u32>,
    },
    /// A sliced path search was advanced or finished (`Query::advance_path`,
    /// `Query::finish_path`) with none in progress: never begun, or already finished or
    /// cancelled.
    #[error("no sliced path search is in progress on this query: call begin_path first")]
    NoSlicedPath,
    /// Another search ran on the query between the slices of a sliced path search and
    /// used its scratch memory: the sliced search is lost; begin it again.
    #[error(
        "the sliced path search was interrupted: another search ran on this query since begin_path; begin it again"
    )]
    SlicedPathInterrupted,
}
