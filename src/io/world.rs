//! The world file: a [`World`] saved as its options and the binary images of its tiles
//! ([`World::to_bytes`], [`World::from_bytes`]).
//!
//! # Layout (version 1)
//!
//! The container of the mesh format (see [`NavMesh::to_bytes`]), with its own magic:
//!
//! * A 32-byte header: the magic `NAVWORLD`, the format version (`u32`, the mesh
//!   format's), the number of records that follow (`u32`: two plus the number of
//!   tiles), the payload length in bytes (`u64`), the CRC-32 (IEEE) of the payload
//!   (`u32`) and a reserved `u32` (0).
//! * A `WRLD` record of 16 bytes: the up axis (`u32`: 0 for Y, 1 for Z), `max_tiles`
//!   (`u32`), `seam_tolerance` and `climb` (`f32`).
//! * A `GENS` record: for each slot ever used (at most `max_tiles`), the generation of
//!   the last tile put there (`u32`; 0 for none), so that references into tiles removed
//!   before saving stay stale after loading.
//! * One `TIMG` record per tile, by increasing slot: the slot and the generation
//!   (`u32` each), the tile as a whole mesh file (its own header and checksum: the mesh
//!   as it was added), then the current flags of its polygons (`u32` each), which may
//!   have changed since through the world's snapshots.
//!
//! Each record is a 4-byte tag, a `u64` body length and the body, as in a mesh file.
//! Loading trusts nothing: the header and checksum are checked as for a mesh file, each
//! tile image is loaded as strictly as [`NavMesh::from_navstar_bytes`] loads a mesh
//! (its errors give byte offsets in the world file), and each tile goes back into its
//! slot with its generation, joined to its neighbours as [`World::add_tile`] joins
//! them, so that polygon references made before saving resolve in the loaded world.

use crate::mesh::{BinaryError, HEADER_LEN, Reader, open, record, seal};
use crate::{NavMesh, PolyRef, TileRef, UpAxis, World, WorldOptions};

/// The first 8 bytes of a world file.
const WORLD_MAGIC: [u8; 8] = *b"NAVWORLD";
/// The tag of the world's options record.
const WORLD: [u8; 4] = *b"WRLD";
/// The tag of the slot generations record.
const GENERATIONS: [u8; 4] = *b"GENS";
/// The tag of a tile image record.
const TILE_IMAGE: [u8; 4] = *b"TIMG";
/// The length of the options record's body.
const OPTIONS_LEN: usize = 16;
/// The bytes of a tile image record before the tile's mesh file.
const TILE_PREFIX: usize = 8;

impl World {
    /// The world in the navstar world format (see [`World::from_bytes`]): its options
    /// and, slot by slot, each tile's slot, generation, binary image
    /// ([`NavMesh::to_bytes`] of the mesh it was added as) and the current flags of its
    /// polygons.
    ///
    /// Not saved yet (version 1): the links given with a tile that end on other tiles
    /// ([`World::add_tile_with_links`]; [`World::tile_links`] lists them, to add them
    /// again after loading) and link flags changed through snapshots (a tile's own
    /// links load with the flags its mesh was built with).
    ///
    /// ```
    /// use navstar::{MeshOptions, NavMesh, TileGrid, World, WorldOptions};
    /// use navstar::glam::Vec3;
    ///
    /// let grid = |x: f32| TileGrid {
    ///     width: 2,
    ///     height: 2,
    ///     walkable: &[true; 4],
    ///     cell_size: 1.0,
    ///     origin: Vec3::new(x, 0.0, 0.0),
    /// };
    /// let world = World::new(&WorldOptions::default())?;
    /// world.add_tile(&NavMesh::from_grid(&grid(0.0), &MeshOptions::default())?)?;
    /// world.add_tile(&NavMesh::from_grid(&grid(2.0), &MeshOptions::default())?)?;
    /// let loaded = World::from_bytes(&world.to_bytes())?;
    /// assert_eq!(loaded.tile_count(), 2);
    /// assert_eq!(loaded.to_bytes(), world.to_bytes());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let options = self.options();
        let mut payload = Vec::new();
        record(&mut payload, WORLD, |out| {
            let up: u32 = match options.up_axis {
                UpAxis::Y => 0,
                UpAxis::Z => 1,
            };
            out.extend_from_slice(&up.to_le_bytes());
            out.extend_from_slice(&options.max_tiles.to_le_bytes());
            out.extend_from_slice(&options.seam_tolerance.to_le_bytes());
            out.extend_from_slice(&options.climb.to_le_bytes());
        });
        record(&mut payload, GENERATIONS, |out| {
            for generation in self.generations() {
                out.extend_from_slice(&generation.to_le_bytes());
            }
        });
        let tiles = self.tiles();
        // Taken after the list: a tile replaced in between keeps its own flags.
        let snapshot = self.snapshot();
        for (tile, mesh) in &tiles {
            record(&mut payload, TILE_IMAGE, |out| {
                out.extend_from_slice(&tile.slot().to_le_bytes());
                out.extend_from_slice(&tile.generation().to_le_bytes());
                // A tile is a mesh of one tile (the world checks it), which always saves.
                out.extend_from_slice(&mesh.to_bytes().unwrap_or_default());
                for local in 0..mesh.polygon_count() {
                    let flags = snapshot
                        .resolve(polygon_ref(options.max_tiles, *tile, local))
                        .map_or_else(
                            |_| mesh.polygon_flags(local),
                            |id| snapshot.polygon_flags(id),
                        );
                    out.extend_from_slice(&flags.to_le_bytes());
                }
            });
        }
        seal(WORLD_MAGIC, 2 + tiles.len() as u32, &payload)
    }

    /// Writes [`World::to_bytes`] to `writer`.
    ///
    /// # Errors
    /// The writer's error.
    pub fn write_to(&self, mut writer: impl std::io::Write) -> std::io::Result<()> {
        writer.write_all(&self.to_bytes())
    }

    /// Loads a world saved by [`World::to_bytes`]: the same options, and each tile in
    /// its slot with its generation, so that [`TileRef`]s and polygon references made
    /// before saving name the same tiles in the loaded world.
    ///
    /// The bytes are not trusted: the header and the checksum are checked as for a mesh
    /// file, every tile image as strictly as [`NavMesh::from_navstar_bytes`] checks a
    /// mesh, and the tiles are joined as [`World::add_tile`] joins them. Never panics.
    ///
    /// # Errors
    /// A [`BinaryError`] naming the section, the record and the byte offset (from the
    /// start of the world file) at fault; a tile the world refuses (another up axis, a
    /// slot beyond those the generations record lists or with another generation, slots
    /// out of order) is [`BinaryError::Invalid`] naming the tile's record.
    pub fn from_bytes(bytes: &[u8]) -> Result<World, BinaryError> {
        let (count, mut records) = open(bytes, WORLD_MAGIC, |records| {
            (records < 2)
                .then(|| format!("a world file holds at least 2 records, this one says {records}"))
        })?;
        let world = read_options(&mut records)?;
        let generations = read_generations(&mut records, &world)?;
        let mut previous_slot = None;
        for index in 0..count - 2 {
            let at = records.offset();
            let body = records.record(TILE_IMAGE, "tile image")?;
            let invalid = |reason: String| BinaryError::Invalid {
                section: "tile image",
                record: u64::from(index),
                offset: at,
                reason,
            };
            let Some((prefix, rest)) = body.bytes.split_first_chunk::<TILE_PREFIX>() else {
                return Err(invalid(format!(
                    "{} bytes are too few for a slot, a generation and a tile",
                    body.bytes.len()
                )));
            };
            let word = |at: usize| {
                u32::from_le_bytes([prefix[at], prefix[at + 1], prefix[at + 2], prefix[at + 3]])
            };
            let tile = TileRef::from_parts(word(0), word(4));
            let slot = tile.slot();
            if let Some(previous) = previous_slot.filter(|&previous| slot <= previous) {
                return Err(invalid(format!(
                    "slot {slot} comes after slot {previous}; slots must increase"
                )));
            }
            previous_slot = Some(slot);
            let recorded = generations.get(slot as usize).copied();
            if tile.generation() == 0 || recorded != Some(tile.generation()) {
                return Err(invalid(format!(
                    "slot {slot}, generation {}: the generations record has {} for the slot",
                    tile.generation(),
                    recorded.map_or("nothing".to_owned(), |g| g.to_string())
                )));
            }
            // The image is a whole mesh file, whose header says how long it is; the
            // flags of its polygons follow it.
            let image_len = rest.get(16..24).map_or(rest.len(), |b| {
                let payload = u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
                payload
                    .saturating_add(HEADER_LEN as u64)
                    .min(rest.len() as u64) as usize
            });
            let (image, flags) = rest.split_at(image_len);
            let mesh = NavMesh::from_navstar_bytes(image)
                .map_err(|e| e.shifted(body.offset + TILE_PREFIX as u64))?;
            if flags.len() as u64 != 4 * u64::from(mesh.polygon_count()) {
                return Err(invalid(format!(
                    "{} bytes of flags follow the tile's image; its {} polygons need {}",
                    flags.len(),
                    mesh.polygon_count(),
                    4 * u64::from(mesh.polygon_count())
                )));
            }
            world
                .restore_tile(tile, &mesh)
                .map_err(|e| invalid(e.to_string()))?;
            let snapshot = world.snapshot();
            for (local, flags) in (0..).zip(flags.chunks_exact(4)) {
                let flags = u32::from_le_bytes([flags[0], flags[1], flags[2], flags[3]]);
                snapshot
                    .resolve(polygon_ref(world.options().max_tiles, tile, local))
                    .and_then(|id| snapshot.set_polygon_flags(id, flags))
                    .map_err(|e| invalid(e.to_string()))?;
            }
        }
        records.finish("world")?;
        Ok(world)
    }
}

/// The reference to polygon `local` of `tile` in a world of `max_tiles` slots: element
/// ids of a snapshot are `slot << local_bits | local`, `local_bits = 32 - log2(max_tiles)`.
fn polygon_ref(max_tiles: u32, tile: TileRef, local: u32) -> PolyRef {
    let local_bits = 32 - max_tiles.trailing_zeros();
    let id = (u64::from(tile.slot()) << local_bits) as u32 | local;
    PolyRef(u64::from(tile.generation()) << 32 | u64::from(id))
}

/// Reads the `GENS` record and gives `world` its slot generations.
fn read_generations(records: &mut Reader<'_>, world: &World) -> Result<Vec<u32>, BinaryError> {
    let body = records.record(GENERATIONS, "slot generations")?;
    let max_tiles = world.options().max_tiles;
    if body.bytes.len() % 4 != 0 || body.bytes.len() as u64 > 4 * u64::from(max_tiles) {
        return Err(BinaryError::Layout {
            section: "slot generations",
            offset: body.offset,
            reason: format!(
                "length {} is not a whole number of 4-byte generations, at most {max_tiles}",
                body.bytes.len()
            ),
        });
    }
    let generations: Vec<u32> = body
        .bytes
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    world
        .set_generations(&generations)
        .map_err(|e| BinaryError::Invalid {
            section: "slot generations",
            record: 0,
            offset: body.offset,
            reason: e.to_string(),
        })?;
    Ok(generations)
}

/// Reads the `WRLD` record and makes the empty world it describes.
fn read_options(records: &mut Reader<'_>) -> Result<World, BinaryError> {
    let body = records.record(WORLD, "world options")?;
    let invalid = |at: u64, reason: String| BinaryError::Invalid {
        section: "world options",
        record: 0,
        offset: body.offset + at,
        reason,
    };
    let Ok(raw) = <&[u8; OPTIONS_LEN]>::try_from(body.bytes) else {
        return Err(BinaryError::Layout {
            section: "world options",
            offset: body.offset,
            reason: format!("holds {} bytes instead of {OPTIONS_LEN}", body.bytes.len()),
        });
    };
    let word = |at: usize| u32::from_le_bytes([raw[at], raw[at + 1], raw[at + 2], raw[at + 3]]);
    let up_axis = match word(0) {
        0 => UpAxis::Y,
        1 => UpAxis::Z,
        other => {
            return Err(invalid(
                0,
                format!("the up axis is {other}, neither 0 (Y) nor 1 (Z)"),
            ));
        }
    };
    let options = WorldOptions::default()
        .with_up_axis(up_axis)
        .with_max_tiles(word(4))
        .with_seam_tolerance(f32::from_bits(word(8)))
        .with_climb(f32::from_bits(word(12)));
    World::new(&options).map_err(|e| invalid(4, e.to_string()))
}
