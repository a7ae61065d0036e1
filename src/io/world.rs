//! The world file: a [`World`] saved as its options and the binary images of its tiles
//! ([`World::to_bytes`], [`World::from_bytes`]).
//!
//! # Layout (version 3)
//!
//! The container of the mesh format (see [`NavMesh::to_bytes`]), with its own magic:
//!
//! * A 32-byte header: the magic `NAVWORLD`, the world format version (`u32`: 3), the
//!   number of records that follow (`u32`: two plus the number of tiles), the payload
//!   length in bytes (`u64`), the CRC-32 (IEEE) of the payload (`u32`) and a reserved
//!   `u32` (0).
//! * A `WRLD` record of 16 bytes: the up axis (`u32`: 0 for Y, 1 for Z), `max_tiles`
//!   (`u32`), `seam_tolerance` and `climb` (`f32`).
//! * A `GENS` record: for each slot ever used (at most `max_tiles`), the generation of
//!   the last tile put there (`u32`; 0 for none), so that references into tiles removed
//!   before saving stay stale after loading.
//! * One `TIMG` record per tile, by increasing slot: the slot and the generation
//!   (`u32` each), the tile as a whole mesh file (its own header and checksum: the mesh
//!   as it was added), then the current flags of its polygons (`u32` each), which may
//!   have changed since through the world's snapshots; then the links given with the
//!   tile that end on other tiles ([`World::add_tile_with_links`]): their number
//!   (`u32`) and each as given in 40 bytes (start and end: 3 `f32` each; radius and
//!   cost: `f32`; flags: `u32`; area: `u8`; two-way: `u8`, 0 or 1; two bytes 0); then
//!   the current flags of the tile's links (`u32` each: its own mesh's links, then
//!   those given with it), which may also have changed through the snapshots.
//!
//! Version 2 is the same without the links and their flags (the tiles' own links load
//! with the flags their meshes were built with); it still loads, as a world whose tiles
//! were given no links. Other versions are refused, naming the versions this library
//! reads. (Mesh files keep their own version, [`crate::FORMAT_VERSION`].)
//!
//! Each record is a 4-byte tag, a `u64` body length and the body, as in a mesh file.
//! Loading trusts nothing: the header and checksum are checked as for a mesh file, each
//! tile image is loaded as strictly as [`NavMesh::from_navstar_bytes`] loads a mesh
//! (its errors give byte offsets in the world file), and each tile goes back into its
//! slot with its generation, joined to its neighbours as [`World::add_tile`] joins
//! them, so that polygon references made before saving resolve in the loaded world.

use glam::Vec3;

use crate::mesh::{BinaryError, HEADER_LEN, Reader, open, record, seal};
use crate::{NavMesh, OffMeshLink, TileRef, UpAxis, World, WorldOptions};

/// The world format version this library writes.
pub const WORLD_FORMAT_VERSION: u32 = 3;
/// The oldest world format version this library reads (without links between tiles).
const OLDEST_WORLD_VERSION: u32 = 2;
/// The bytes of a link given with a tile.
const LINK_LEN: usize = 40;

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
    /// The world in the navstar world format, version [`WORLD_FORMAT_VERSION`] (see
    /// [`World::from_bytes`]): its options and, slot by slot, each tile's slot,
    /// generation, binary image ([`NavMesh::to_bytes`] of the mesh it was added as), the
    /// current flags of its polygons, the links given with it that end on other tiles
    /// ([`World::add_tile_with_links`]) and the current flags of its links.
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
            for generation in self.saved_generations() {
                out.extend_from_slice(&generation.to_le_bytes());
            }
        });
        let tiles = self.saved_tiles();
        for saved in &tiles {
            let (tile, mesh) = (&saved.tile, &saved.mesh);
            record(&mut payload, TILE_IMAGE, |out| {
                out.extend_from_slice(&tile.slot().to_le_bytes());
                out.extend_from_slice(&tile.generation().to_le_bytes());
                // A tile is a mesh of one tile (the world checks it), which always saves.
                out.extend_from_slice(&mesh.to_bytes().unwrap_or_default());
                for flags in &saved.flags {
                    out.extend_from_slice(&flags.to_le_bytes());
                }
                write_links(out, &saved.links, &saved.link_flags);
            });
        }
        seal(
            WORLD_MAGIC,
            WORLD_FORMAT_VERSION,
            2 + tiles.len() as u32,
            &payload,
        )
    }

    /// Writes [`World::to_bytes`] to `writer`.
    ///
    /// # Errors
    /// The writer's error.
    pub fn write_to(&self, mut writer: impl std::io::Write) -> std::io::Result<()> {
        writer.write_all(&self.to_bytes())
    }

    /// Loads a world saved by [`World::to_bytes`]: the same options, and each tile in
    /// its slot with its generation and the links given with it, so that [`TileRef`]s,
    /// polygon references and link ids made before saving name the same tiles, polygons
    /// and links in the loaded world; polygon and link flags are as they were when it
    /// was saved. Files of world format version 2 (before links were saved) load too.
    ///
    /// The bytes are not trusted: the header and the checksum are checked as for a mesh
    /// file, every tile image as strictly as [`NavMesh::from_navstar_bytes`] checks a
    /// mesh, and the tiles are joined as [`World::add_tile`] joins them. Never panics.
    ///
    /// # Errors
    /// A [`BinaryError`] naming the section, the record and the byte offset (from the
    /// start of the world file) at fault; a tile the world refuses (another up axis, a
    /// slot beyond those the generations record lists or with another generation, slots
    /// out of order, a link it would refuse) is [`BinaryError::Invalid`] naming the
    /// tile's record; a world format version other than 2 or 3 is
    /// [`BinaryError::Layout`] of the header, naming the versions read.
    pub fn from_bytes(bytes: &[u8]) -> Result<World, BinaryError> {
        let versions = OLDEST_WORLD_VERSION..=WORLD_FORMAT_VERSION;
        let opened = open(bytes, WORLD_MAGIC, versions, |records| {
            (records < 2)
                .then(|| format!("a world file holds at least 2 records, this one says {records}"))
        });
        let (version, count, mut records) = match opened {
            Err(BinaryError::UnsupportedVersion { version, .. }) => {
                return Err(BinaryError::Layout {
                    section: "header",
                    offset: 8,
                    reason: format!(
                        "world format version {version}: this library reads versions \
                         {OLDEST_WORLD_VERSION} to {WORLD_FORMAT_VERSION}"
                    ),
                });
            }
            other => other?,
        };
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
            // A tile's generation is its slot's, or below it when obstacles were carved
            // into the tile since it was added (carving moves the slot's generation on).
            if tile.generation() == 0 || recorded.is_none_or(|g| g < tile.generation()) {
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
            let (image, after) = rest.split_at(image_len);
            let mesh = NavMesh::from_navstar_bytes(image)
                .map_err(|e| e.shifted(body.offset + TILE_PREFIX as u64))?;
            let needed = 4 * mesh.polygon_count() as usize;
            let fits = if version == OLDEST_WORLD_VERSION {
                after.len() == needed
            } else {
                after.len() >= needed
            };
            if !fits {
                return Err(invalid(format!(
                    "{} bytes follow the tile's image; its {} polygons need {needed} bytes of \
                     flags{}",
                    after.len(),
                    mesh.polygon_count(),
                    if version == OLDEST_WORLD_VERSION {
                        " and nothing more (version 2)"
                    } else {
                        ", then its links"
                    }
                )));
            }
            let (flags, links) = after.split_at(needed);
            let (links, link_flags) = if version == OLDEST_WORLD_VERSION {
                (Vec::new(), None)
            } else {
                let (links, link_flags) = read_links(links, mesh.link_count()).map_err(&invalid)?;
                (links, Some(link_flags))
            };
            world
                .restore_tile(tile, &mesh, &links)
                .map_err(|e| invalid(e.to_string()))?;
            let snapshot = world.snapshot();
            for (local, flags) in (0..).zip(flags.chunks_exact(4)) {
                let flags = u32::from_le_bytes([flags[0], flags[1], flags[2], flags[3]]);
                // The tile was just put in its slot: its polygons are the slot's
                // elements (its reference's generation may be below the slot's).
                let id = element_id(world.options().max_tiles, slot, local);
                snapshot
                    .set_polygon_flags(id, flags)
                    .map_err(|e| invalid(e.to_string()))?;
            }
            for (local, &flags) in (0..).zip(link_flags.iter().flatten()) {
                let link = element_id(world.options().max_tiles, slot, local);
                snapshot
                    .set_link_flags(link, flags)
                    .map_err(|e| invalid(e.to_string()))?;
            }
        }
        records.finish("world")?;
        Ok(world)
    }
}

/// The id of element `local` (polygon, link, ...) of `slot` in the snapshots of a world
/// of `max_tiles` slots: `slot << local_bits | local`, `local_bits = 32 -
/// log2(max_tiles)`.
fn element_id(max_tiles: u32, slot: u32, local: u32) -> u32 {
    let local_bits = 32 - max_tiles.trailing_zeros();
    (u64::from(slot) << local_bits) as u32 | local
}

/// Appends the links given with a tile and the current flags of all its links (see the
/// module's layout).
fn write_links(out: &mut Vec<u8>, links: &[OffMeshLink], flags: &[u32]) {
    out.extend_from_slice(&(links.len() as u32).to_le_bytes());
    for link in links {
        let floats = [
            link.start.x,
            link.start.y,
            link.start.z,
            link.end.x,
            link.end.y,
            link.end.z,
            link.radius,
            link.cost,
        ];
        for f in floats {
            out.extend_from_slice(&f.to_le_bytes());
        }
        out.extend_from_slice(&link.flags.to_le_bytes());
        out.extend_from_slice(&[link.area, u8::from(link.bidirectional), 0, 0]);
    }
    for f in flags {
        out.extend_from_slice(&f.to_le_bytes());
    }
}

/// Reads what [`write_links`] wrote for a tile whose own mesh has `own` links: the
/// links given with it and the current flags of all its links. The links themselves
/// are checked when the tile goes back into the world.
fn read_links(bytes: &[u8], own: u32) -> Result<(Vec<OffMeshLink>, Vec<u32>), String> {
    let Some((count, rest)) = bytes.split_first_chunk::<4>() else {
        return Err(format!(
            "{} bytes after the polygon flags are too few for the number of links",
            bytes.len()
        ));
    };
    let count = u32::from_le_bytes(*count);
    let all = u64::from(own) + u64::from(count);
    let needed = u64::from(count) * LINK_LEN as u64 + 4 * all;
    if rest.len() as u64 != needed {
        return Err(format!(
            "{} bytes follow the number of links; {count} links given with the tile and \
             the flags of its {all} links need {needed}",
            rest.len()
        ));
    }
    let (given, flags) = rest.split_at(count as usize * LINK_LEN);
    let mut links = Vec::with_capacity(count as usize);
    for (index, raw) in given.chunks_exact(LINK_LEN).enumerate() {
        let word = |at: usize| u32::from_le_bytes([raw[at], raw[at + 1], raw[at + 2], raw[at + 3]]);
        let float = |at: usize| f32::from_bits(word(at));
        let point = |at: usize| Vec3::new(float(at), float(at + 4), float(at + 8));
        let bidirectional = match raw[37] {
            0 => false,
            1 => true,
            other => {
                return Err(format!(
                    "link {index} given with the tile: its direction byte is {other}, not 0 or 1"
                ));
            }
        };
        if raw[38..] != [0, 0] {
            return Err(format!(
                "link {index} given with the tile: its reserved bytes are not 0"
            ));
        }
        let mut link = OffMeshLink::new(point(0), point(12));
        link.radius = float(24);
        link.cost = float(28);
        link.flags = word(32);
        link.area = raw[36];
        link.bidirectional = bidirectional;
        links.push(link);
    }
    let flags = flags
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    Ok((links, flags))
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
