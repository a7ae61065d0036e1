//! RecastDemo's multi-tile set file (`Sample::saveAll`), read into its tiles.
//!
//! Layout (little-endian): a 40-byte header (`int` magic 'MSET', `int` version 1, `int`
//! tile count, then `dtNavMeshParams`: origin as 3 floats, tile width and height, `int`
//! max tiles, `int` max polygons per tile), then per tile an 8-byte header (32-bit tile
//! reference, `int` data size) followed by that many bytes of tile data
//! ([`super::tile`]). Only 32-bit tile references (Detour's default build) are read.

use glam::Vec3;

use super::DetourParams;
use super::bytes::{Bytes, DetourError};
use super::tile::{RawTile, read_tile};

/// `NavMeshSetHeader::magic`: 'M' 'S' 'E' 'T' as a little-endian `int`.
pub(super) const SET_MAGIC: i32 = i32::from_be_bytes(*b"MSET");
const SET_VERSION: i32 = 1;
const SET_HEADER_SIZE: usize = 40;
const TILE_HEADER_SIZE: usize = 8;

/// Reads a whole set file: its parameters and its tiles in file order.
pub(super) fn read_set(file: Bytes<'_>) -> Result<(DetourParams, Vec<RawTile>), DetourError> {
    let magic = file.i32(0, &"NavMeshSetHeader::magic")?;
    if magic != SET_MAGIC {
        return Err(file.error(
            0,
            "NavMeshSetHeader::magic is not 'MSET': not a Detour tile set",
        ));
    }
    let version = file.i32(4, &"NavMeshSetHeader::version")?;
    if version != SET_VERSION {
        return Err(file.error(
            4,
            format!("NavMeshSetHeader::version is {version}; only version {SET_VERSION} is read"),
        ));
    }
    let tile_count = file.count(8, &"NavMeshSetHeader::numTiles")?;
    let params = DetourParams {
        origin: Vec3::new(
            file.finite(12, &"dtNavMeshParams::orig[0]")?,
            file.finite(16, &"dtNavMeshParams::orig[1]")?,
            file.finite(20, &"dtNavMeshParams::orig[2]")?,
        ),
        tile_width: file.non_negative(24, &"dtNavMeshParams::tileWidth")?,
        tile_height: file.non_negative(28, &"dtNavMeshParams::tileHeight")?,
        max_tiles: file.i32(32, &"dtNavMeshParams::maxTiles")?,
        max_polys: file.i32(36, &"dtNavMeshParams::maxPolys")?,
    };
    if tile_count == 0 {
        return Err(file.error(8, "NavMeshSetHeader::numTiles is 0: the set has no tiles"));
    }
    // Each tile takes at least its 8-byte header: a count the file cannot hold is refused
    // before anything is reserved for it.
    let room = (file.bytes.len().saturating_sub(SET_HEADER_SIZE)) / TILE_HEADER_SIZE;
    if tile_count > room {
        return Err(file.error(
            8,
            format!(
                "NavMeshSetHeader::numTiles is {tile_count}, more than the file's bytes can hold"
            ),
        ));
    }
    let mut tiles = Vec::new();
    tiles
        .try_reserve(tile_count)
        .map_err(|_| file.error(8, "out of memory for the tiles"))?;
    let mut at = SET_HEADER_SIZE;
    for t in 0..tile_count {
        let size_at = at + 4;
        let size = file.count(size_at, &format_args!("tile {t} dataSize"))?;
        if size == 0 {
            return Err(file.error(size_at, format!("tile {t} dataSize is 0")));
        }
        let start = at + TILE_HEADER_SIZE;
        let data = start
            .checked_add(size)
            .and_then(|end| file.bytes.get(start..end))
            .ok_or_else(|| {
                file.error(
                    size_at,
                    format!("tile {t} dataSize is {size}, past the end of the file"),
                )
            })?;
        let tile = read_tile(Bytes {
            bytes: data,
            base: file.base + start as u64,
        })
        .map_err(|e| DetourError {
            message: format!("tile {t}: {}", e.message),
            ..e
        })?;
        tiles.push(tile);
        at = start + size;
    }
    if at != file.bytes.len() {
        return Err(file.error(
            at,
            format!("{} bytes after the last tile", file.bytes.len() - at),
        ));
    }
    Ok((params, tiles))
}
