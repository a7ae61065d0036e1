//! Recast/Detour navigation meshes: one tile's data as `dtCreateNavMeshData` makes it,
//! and RecastDemo's multi-tile set files (`Sample::saveAll`), both usually saved as
//! `.bin`.
//!
//! A single tile becomes one [`NavMesh`] ([`load_detour_tile_bytes`]); a set file becomes
//! a [`World`] with one tile per Detour tile ([`load_detour_set_bytes`]), whose seams
//! navstar stitches itself. [`load_detour_bytes`] tells the two apart by their magic.
//!
//! What is taken from the data:
//!
//! * **Polygons**: the ground polygons, in Detour's order (navstar polygon `i` is Detour
//!   polygon `i` of its tile), with Detour's vertex positions (world units, Y up; the
//!   mesh is always built Y-up, whatever [`MeshOptions::up_axis`] says) and its winding
//!   reversed to navstar's. Neighbours are found again from shared edges.
//! * **Areas** (`dtPoly` area, 0 to 63) and **flags** (Detour's 16-bit flags, widened to
//!   navstar's 32 bits), per polygon.
//! * **Off-mesh connections** become [`OffMeshLink`]s: the two end points, one- or
//!   two-way, the connection's radius as the link's radius, its polygon's area and flags,
//!   and its length as its cost (as Detour costs it).
//! * **The agent the tile was baked for** (`walkableHeight`, `walkableRadius`,
//!   `walkableClimb`) as [`DetourAgent`]. navstar meshes have no baked radius, so it is
//!   returned beside the mesh, not stored in it.
//!
//! The links, detail meshes and bounding-volume tree are derived data and are not read
//! (only their sizes are checked). Detour's tile-grid neighbour codes are not used
//! either: shared edges inside a tile and seams between tiles are found from the
//! geometry.
//!
//! The bytes are never trusted: every count, offset and index is checked, an error
//! ([`DetourError`], inside [`LoadError::Detour`]) names the field and its byte offset,
//! and nothing panics, whatever the bytes. Only little-endian data of format version 7
//! with 6 corners per polygon (Detour's defaults) is read; tile data made with 64-bit
//! polygon references is recognised by its size.
//!
//! ```
//! use navstar::io::load_detour_bytes;
//! use navstar::MeshOptions;
//!
//! let Err(error) = load_detour_bytes(b"not a navmesh", &MeshOptions::default()) else {
//!     panic!("loaded");
//! };
//! assert!(error.to_string().contains("byte 0"), "{error}");
//!
//! // A tile set file with no tiles: the field and its offset are named.
//! let mut set = b"TESM".to_vec(); // 'MSET' as a little-endian int
//! set.extend_from_slice(&1i32.to_le_bytes()); // version
//! set.extend_from_slice(&[0; 32]); // no tiles, zero parameters
//! let Err(error) = load_detour_bytes(&set, &MeshOptions::default()) else {
//!     panic!("loaded");
//! };
//! assert_eq!(
//!     error.to_string(),
//!     "invalid Detour data: byte 8: NavMeshSetHeader::numTiles is 0: the set has no tiles"
//! );
//! ```

mod bytes;
mod set;
#[cfg(test)]
mod tests;
mod tile;

use glam::Vec3;

use bytes::Bytes;
pub use bytes::DetourError;
use set::{SET_MAGIC, read_set};
use tile::{RawTile, TILE_MAGIC, read_tile};

use super::LoadError;
use crate::UpAxis;
use crate::mesh::{MeshInput, MeshOptions, NavMesh, OffMeshLink};
use crate::world::{TileRef, World, WorldOptions};

/// The agent a Detour tile was baked for (`dtMeshHeader::walkableHeight`,
/// `walkableRadius`, `walkableClimb`), in world units. The walkable area was already
/// shrunk by `radius`, so paths on the mesh keep the agent's centre that far from walls.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct DetourAgent {
    /// Agent height.
    pub height: f32,
    /// Agent radius the walls were eroded by (the mesh's baked radius).
    pub radius: f32,
    /// Highest step the agent climbs.
    pub climb: f32,
}

/// A single Detour tile, loaded: the mesh and the agent it was baked for.
#[derive(Debug, Clone)]
pub struct DetourMesh {
    /// The tile's polygons, areas, flags and off-mesh links, built Y-up.
    pub mesh: NavMesh,
    /// The agent the tile was baked for.
    pub agent: DetourAgent,
    /// The tile's place in Detour's grid: `dtMeshHeader::x`, `y`, `layer`.
    pub grid: [i32; 3],
}

/// The tile-grid parameters of a set file (`dtNavMeshParams`), kept for reference.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DetourParams {
    /// Where Detour's tile grid starts (world units).
    pub origin: Vec3,
    /// Width of a tile along x.
    pub tile_width: f32,
    /// Height of a tile along z.
    pub tile_height: f32,
    /// Detour's tile capacity.
    pub max_tiles: i32,
    /// Detour's polygon capacity per tile.
    pub max_polys: i32,
}

/// One tile of a loaded set file.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DetourTile {
    /// Its tile in the [`DetourWorld::world`].
    pub tile: TileRef,
    /// Its place in Detour's grid: `dtMeshHeader::x`, `y`, `layer`.
    pub grid: [i32; 3],
    /// The agent it was baked for.
    pub agent: DetourAgent,
}

/// A Detour set file, loaded: a world with one tile per Detour tile.
#[derive(Debug)]
pub struct DetourWorld {
    /// The tiles, stitched where their edges meet.
    pub world: World,
    /// The tiles in file order.
    pub tiles: Vec<DetourTile>,
    /// The file's tile-grid parameters.
    pub params: DetourParams,
}

impl DetourWorld {
    /// The largest agent radius of the tiles (0 without tiles).
    pub fn baked_radius(&self) -> f32 {
        self.tiles
            .iter()
            .map(|t| t.agent.radius)
            .fold(0.0, f32::max)
    }
}

/// Either kind of Detour data, as [`load_detour_bytes`] found it.
#[derive(Debug)]
pub enum DetourData {
    /// One tile's data.
    Tile(DetourMesh),
    /// A set file (boxed: a world is much larger than a tile's handle).
    Set(Box<DetourWorld>),
}

impl DetourData {
    /// The mesh to query: the tile's mesh, or a snapshot of the world (cheap: shares the
    /// data).
    pub fn mesh(&self) -> NavMesh {
        match self {
            DetourData::Tile(tile) => tile.mesh.clone(),
            DetourData::Set(set) => set.world.snapshot(),
        }
    }

    /// The agent radius the data was baked with (for a set, the largest of its tiles').
    pub fn baked_radius(&self) -> f32 {
        match self {
            DetourData::Tile(tile) => tile.agent.radius,
            DetourData::Set(set) => set.baked_radius(),
        }
    }
}

/// Loads Detour data of either kind, told apart by its first four bytes: one tile's
/// data (`DNAV`) with [`load_detour_tile_bytes`], or a set file (`MSET`) with
/// [`load_detour_set_bytes`] and [`WorldOptions::default`]. Never panics.
///
/// # Errors
/// [`LoadError::Detour`] naming the field and byte offset of the first thing wrong;
/// [`LoadError::Mesh`] when navstar's builder refuses a single tile's polygons.
pub fn load_detour_bytes(bytes: &[u8], options: &MeshOptions) -> Result<DetourData, LoadError> {
    let input = Bytes { bytes, base: 0 };
    match input.i32(0, &"the magic number")? {
        TILE_MAGIC => Ok(DetourData::Tile(load_detour_tile_bytes(bytes, options)?)),
        SET_MAGIC => Ok(DetourData::Set(Box::new(load_detour_set_bytes(
            bytes,
            options,
            &WorldOptions::default(),
        )?))),
        _ => Err(input
            .error(
                0,
                "the magic number is neither 'DNAV' (tile data) nor 'MSET' (a tile set)",
            )
            .into()),
    }
}

/// Loads one tile's data (`dtCreateNavMeshData`'s output, all of it) as a mesh, built
/// Y-up with `options` (their up axis is ignored). Never panics.
///
/// # Errors
/// [`LoadError::Detour`] naming the field and byte offset of the first thing wrong;
/// [`LoadError::Mesh`] when navstar's builder refuses the polygons (it numbers them as
/// Detour does) or an off-mesh link whose end is not within its radius of the tile.
pub fn load_detour_tile_bytes(
    bytes: &[u8],
    options: &MeshOptions,
) -> Result<DetourMesh, LoadError> {
    let raw = read_tile(Bytes { bytes, base: 0 })?;
    let mesh = build_tile(&raw, options, &raw.links)?;
    Ok(DetourMesh {
        mesh,
        agent: raw.agent,
        grid: raw.grid,
    })
}

/// Loads a RecastDemo set file as a world: every tile built Y-up with `options`, added
/// in file order with its off-mesh links (a link may end on another tile). The world
/// takes `world_options` with Y up, at least as many slots as tiles (the next power of
/// two), and a climb of at least the largest `walkableClimb` of the tiles, so that
/// tiles meet where Detour would link them. Never panics.
///
/// # Errors
/// [`LoadError::Detour`] naming the field and byte offset of the first thing wrong, or
/// the tile navstar refused (with the builder's reason); [`LoadError::Mesh`] for world
/// options that are not valid.
pub fn load_detour_set_bytes(
    bytes: &[u8],
    options: &MeshOptions,
    world_options: &WorldOptions,
) -> Result<DetourWorld, LoadError> {
    let (params, raw_tiles) = read_set(Bytes { bytes, base: 0 })?;
    let slots = u32::try_from(raw_tiles.len())
        .ok()
        .and_then(|n| n.max(1).checked_next_power_of_two())
        .filter(|&n| n <= 1 << 16)
        .ok_or_else(|| DetourError {
            offset: 8,
            message: format!("{} tiles, more than a world holds (65536)", raw_tiles.len()),
        })?;
    let climb = raw_tiles
        .iter()
        .map(|t| t.agent.climb)
        .fold(world_options.climb, f32::max);
    let world_options = world_options
        .clone()
        .with_up_axis(UpAxis::Y)
        .with_max_tiles(world_options.max_tiles.max(slots))
        .with_climb(climb);
    let world = World::new(&world_options)?;
    let mut tiles = Vec::with_capacity(raw_tiles.len());
    for (t, raw) in raw_tiles.iter().enumerate() {
        let refused = |e: &dyn std::fmt::Display| DetourError {
            offset: raw.offset,
            message: format!("tile {t}: navstar refused it: {e}"),
        };
        let mesh = build_tile(raw, options, &[]).map_err(|e| refused(&e))?;
        let tile = world
            .add_tile_with_links(&mesh, &raw.links)
            .map_err(|e| refused(&e))?;
        tiles.push(DetourTile {
            tile,
            grid: raw.grid,
            agent: raw.agent,
        });
    }
    Ok(DetourWorld {
        world,
        tiles,
        params,
    })
}

/// Builds one tile's polygons with `links`.
fn build_tile(
    raw: &RawTile,
    options: &MeshOptions,
    links: &[OffMeshLink],
) -> Result<NavMesh, LoadError> {
    let input = MeshInput::new(&raw.vertices, &raw.indices)
        .with_polygon_sizes(&raw.sizes)
        .with_areas(&raw.areas)
        .with_flags(&raw.flags)
        .with_links(links);
    let options = options.clone().with_up_axis(UpAxis::Y);
    Ok(NavMesh::from_input(&input, &options)?)
}
