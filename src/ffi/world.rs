//! The world of tiles: making and releasing world handles, adding, removing and replacing
//! tiles, snapshots (mesh handles every query function takes), and polygon references
//! that name their tile's generation.

use std::sync::atomic::{AtomicU32, Ordering};

use super::boundary::{FfiError, Out, OutSlice, Versioned, put, read_versioned, run, run_void};
use super::handle::{self, HandleOut, NavstarMesh, NavstarWorld, WorldState};
use super::options::{NAVSTAR_UP_Y, NAVSTAR_UP_Z};
use super::status::NavstarStatus;
use crate::{NavMesh, PolyRef, TileRef, UpAxis, World, WorldOptions};

/// Options for `navstar_world_create`. Get defaults from `navstar_world_options_default()`
/// and change the fields you need; pass NULL for all defaults.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NavstarWorldOptions {
    /// `sizeof(NavstarWorldOptions)` as the caller was compiled; set by the default
    /// constructor.
    pub struct_size: u32,
    /// `NAVSTAR_UP_Y` (default) or `NAVSTAR_UP_Z`; every tile must have been built with
    /// the same up axis.
    pub up_axis: u32,
    /// How many tiles the world can hold at once: a power of two from 1 to 65536
    /// (default 1024). Each polygon of a tile then has `32 - log2(max_tiles)` bits for its
    /// number within the tile, so larger worlds allow smaller tiles.
    pub max_tiles: u32,
    /// How far apart (world units, in the ground plane) two wall edges of different tiles
    /// may be and still join as a seam (default 0.001). Finite and >= 0.
    pub seam_tolerance: f32,
    /// The largest height difference (world units) at the ends of a seam that still
    /// joins (default 0.25). Finite and >= 0.
    pub climb: f32,
}

/// The defaults, matching [`WorldOptions::default`].
impl Default for NavstarWorldOptions {
    fn default() -> Self {
        let d = WorldOptions::default();
        NavstarWorldOptions {
            struct_size: size_of::<NavstarWorldOptions>() as u32,
            up_axis: match d.up_axis {
                UpAxis::Y => NAVSTAR_UP_Y,
                UpAxis::Z => NAVSTAR_UP_Z,
            },
            max_tiles: d.max_tiles,
            seam_tolerance: d.seam_tolerance,
            climb: d.climb,
        }
    }
}

// SAFETY: #[repr(C)], starts with `struct_size: u32`, and made of u32/f32 only.
unsafe impl Versioned for NavstarWorldOptions {
    const OLDER_SIZES: &'static [usize] = &[];
    const DEFAULT_FUNCTION: &'static str = "navstar_world_options_default";
}

impl NavstarWorldOptions {
    /// Reads an optional options argument (NULL = defaults) into Rust options, rejecting
    /// an unknown up axis by name (the other values are the world's to check).
    fn read(ptr: *const NavstarWorldOptions) -> Result<WorldOptions, FfiError> {
        let raw = read_versioned(ptr, "options")?;
        let up_axis = match raw.up_axis {
            NAVSTAR_UP_Y => UpAxis::Y,
            NAVSTAR_UP_Z => UpAxis::Z,
            other => {
                return Err(FfiError::invalid(format!(
                    "options->up_axis is {other}; expected NAVSTAR_UP_Y (0) or NAVSTAR_UP_Z (1)"
                )));
            }
        };
        Ok(WorldOptions::default()
            .with_up_axis(up_axis)
            .with_max_tiles(raw.max_tiles)
            .with_seam_tolerance(raw.seam_tolerance)
            .with_climb(raw.climb))
    }
}

/// A tile of a world, as `navstar_world_add_tile` hands it out: which world, which slot,
/// and which filling of that slot. A reference to a tile that was removed or replaced
/// since is refused with `NAVSTAR_ERROR_STALE_REFERENCE`; one to a tile of another world
/// (or a zeroed one) too.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct NavstarTileRef {
    /// The world that made the reference (never 0 in a reference navstar made).
    pub world: u32,
    /// The tile's slot in the world, below `max_tiles`.
    pub slot: u32,
    /// How many times the slot had been filled when the tile was added (from 1).
    pub generation: u32,
}

/// Process-wide counter of world handles (0 is never used).
static NEXT_WORLD: AtomicU32 = AtomicU32::new(1);

impl WorldState {
    /// A new handle's state for `world`, with a fresh number.
    pub(crate) fn new(world: World) -> WorldState {
        let mut id = NEXT_WORLD.fetch_add(1, Ordering::Relaxed);
        if id == 0 {
            id = NEXT_WORLD.fetch_add(1, Ordering::Relaxed);
        }
        WorldState { world, id }
    }

    /// The C reference to `tile` of this world.
    pub(crate) fn c_ref(&self, tile: TileRef) -> NavstarTileRef {
        NavstarTileRef {
            world: self.id,
            slot: tile.slot(),
            generation: tile.generation(),
        }
    }

    /// The Rust reference a C reference names; one made by another world is
    /// `NAVSTAR_ERROR_STALE_REFERENCE`. `name` names the argument in messages.
    fn rust_ref(&self, tile: NavstarTileRef, name: &str) -> Result<TileRef, FfiError> {
        if tile.world != self.id {
            return Err(FfiError::new(
                NavstarStatus::NavstarErrorStaleReference,
                format!(
                    "{name} (slot {}, generation {}) was made by world {}, not by this world ({})",
                    tile.slot, tile.generation, tile.world, self.id
                ),
            ));
        }
        Ok(TileRef::from_parts(tile.slot, tile.generation))
    }
}

/// Creates an empty world.
///
/// * `options` (in, optional): NULL for defaults. A `max_tiles` that is not a power of
///   two from 1 to 65536, or a negative or non-finite tolerance, is
///   `NAVSTAR_ERROR_INVALID_ARGUMENT` naming the field.
/// * `out_world` (out): receives the world, or NULL on error. Release it with
///   `navstar_world_free`.
///
/// A world may be used by any number of threads at once: changes are made one at a
/// time, and `navstar_world_snapshot` never waits for them.
///
/// # Safety
/// `options` must be NULL or a readable struct of its `struct_size`; `out_world` NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_world_create(
    options: *const NavstarWorldOptions,
    out_world: *mut *mut NavstarWorld,
) -> NavstarStatus {
    run("navstar_world_create", || {
        let out_world = HandleOut::new(out_world, "out_world")?;
        let options = NavstarWorldOptions::read(options)?;
        out_world.give(WorldState::new(World::new(&options)?));
        Ok(NavstarStatus::NavstarOk)
    })
}

/// Releases a world. Snapshots taken from it stay valid (each is a mesh of its own).
/// NULL does nothing.
///
/// # Safety
/// `world` must be NULL or a pointer returned by `navstar_world_create` or
/// `navstar_world_load*` that was not freed yet, and not in use by another thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_world_free(world: *mut NavstarWorld) {
    run_void("navstar_world_free", || handle::free(world));
}

/// Adds a tile to a world: a mesh built as any other (its vertices in world
/// coordinates), joined to the tiles already present wherever a wall edge of one
/// overlaps a wall edge of the other (within `seam_tolerance` and `climb`). The mesh is
/// copied: the caller may free it afterwards.
///
/// * `tile` (in): the tile's mesh, built with the world's up axis.
/// * `out_tile` (out): the new tile's reference; zeroed on error.
///
/// A full world, a tile with more polygons (vertices, corners, links) than a slot of this
/// world numbers, a tile of another up axis, a snapshot of a world, or a tile lying on
/// another one on one level so that an edge would join two tiles at once ("must not
/// overlap"), is `NAVSTAR_ERROR_INVALID_ARGUMENT` with a message saying which. The world is then
/// unchanged. The tile's own off-mesh links (both ends on it) come with it.
///
/// # Safety
/// `world` and `tile` must be NULL or live handles; `out_tile` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_world_add_tile(
    world: *mut NavstarWorld,
    tile: *const NavstarMesh,
    out_tile: *mut NavstarTileRef,
) -> NavstarStatus {
    run("navstar_world_add_tile", || {
        let out_tile = tile_out(out_tile)?;
        let state = handle::borrow(world, "world")?;
        let mesh = handle::borrow(tile, "tile")?;
        let added = state.world.add_tile(mesh)?;
        out_tile.set(state.c_ref(added));
        Ok(NavstarStatus::NavstarOk)
    })
}

/// Adds a whole mesh to a world as tiles: the mesh is cut into square tiles of side
/// `tile_size` on a grid from the low corner of its bounds (in the ground plane; each
/// polygon clipped at the squares, its area and current flags kept, pieces merged while
/// convex inside a tile), and every tile is added with the off-mesh links between them,
/// published at once: a snapshot taken meanwhile has all of the tiles or none. For an
/// engine that bakes one large mesh and wants to stream it in parts, or obstacles that
/// rebuild one tile rather than the whole mesh.
///
/// * `mesh` (in): the mesh, built with the world's up axis (not a snapshot of a world).
///   It is copied: the caller may free it afterwards.
/// * `tile_size` (in): the side of a tile in world units, finite and > 0.
/// * `out_tiles` (out): room for `capacity` tile references, written in the grid's row
///   order; may be NULL when `capacity` is 0.
/// * `out_count` (out): the number of tiles the cut gives.
///
/// Nothing is added unless every reference fits: with fewer than `*out_count` places
/// the result is `NAVSTAR_BUFFER_TOO_SMALL` and the world is unchanged (call with NULL
/// and 0 to learn the count). A tile size that is not finite and > 0 or too fine for the
/// mesh, a mesh of another up axis or a snapshot, or fewer free slots than tiles, is
/// `NAVSTAR_ERROR_INVALID_ARGUMENT` with a message saying which; the world is then
/// unchanged.
///
/// # Safety
/// `world` and `mesh` must be NULL or live handles; `out_tiles` NULL or writable for
/// `capacity` references; `out_count` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_world_add_mesh_tiles(
    world: *mut NavstarWorld,
    mesh: *const NavstarMesh,
    tile_size: f32,
    out_tiles: *mut NavstarTileRef,
    capacity: u32,
    out_count: *mut u32,
) -> NavstarStatus {
    run("navstar_world_add_mesh_tiles", || {
        let out = OutSlice::new(out_tiles, capacity, out_count, "out_tiles")?;
        let state = handle::borrow(world, "world")?;
        let mesh = handle::borrow(mesh, "mesh")?;
        let cut = mesh.cut_into_tiles(tile_size)?;
        if !out.fits(cut.tiles.len()) {
            return Ok(out.too_small(cut.tiles.len()));
        }
        let added = state.world.add_tiles(&cut)?;
        Ok(out.write(added.into_iter().map(|tile| state.c_ref(tile))))
    })
}

/// Removes a tile from a world. Snapshots taken before keep it; the next snapshot does
/// not have it, and references into it are stale from then on.
///
/// A tile that was already removed or replaced, a reference from another world, or one
/// navstar never made (a slot beyond `max_tiles`, a zeroed struct), is
/// `NAVSTAR_ERROR_STALE_REFERENCE`, naming the slot and both generations; the world is
/// then unchanged.
///
/// # Safety
/// `world` must be NULL or a live world.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_world_remove_tile(
    world: *mut NavstarWorld,
    tile: NavstarTileRef,
) -> NavstarStatus {
    run("navstar_world_remove_tile", || {
        let state = handle::borrow(world, "world")?;
        state.world.remove_tile(state.rust_ref(tile, "tile")?)?;
        Ok(NavstarStatus::NavstarOk)
    })
}

/// Replaces a tile by another mesh in one step (the slot is never seen empty): the next
/// snapshot has the new tile, joined to its neighbours, and references into the old one
/// are stale.
///
/// * `tile` (in): the tile to replace; refused as by `navstar_world_remove_tile`.
/// * `mesh` (in): the new tile, as for `navstar_world_add_tile`.
/// * `out_tile` (out): the new tile's reference (same slot, next generation); zeroed on
///   error, when the world is unchanged.
///
/// # Safety
/// `world` and `mesh` must be NULL or live handles; `out_tile` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_world_replace_tile(
    world: *mut NavstarWorld,
    tile: NavstarTileRef,
    mesh: *const NavstarMesh,
    out_tile: *mut NavstarTileRef,
) -> NavstarStatus {
    run("navstar_world_replace_tile", || {
        let out_tile = tile_out(out_tile)?;
        let state = handle::borrow(world, "world")?;
        let old = state.rust_ref(tile, "tile")?;
        let mesh = handle::borrow(mesh, "mesh")?;
        let new = state.world.replace_tile(old, mesh)?;
        out_tile.set(state.c_ref(new));
        Ok(NavstarStatus::NavstarOk)
    })
}

/// The world as it is now, as a mesh: every query function takes it (paths across
/// tiles, nearest point, raycast, flags, ...). It never changes: later changes to the
/// world make new snapshots, and the tiles this one holds stay alive until it is freed.
/// Taking one never waits for a change in progress. Polygon numbers of a snapshot encode
/// the tile (`navstar_mesh_polygon_ref` turns them into references that outlive it).
///
/// * `out_mesh` (out): the snapshot, or NULL on error. Release it with
///   `navstar_mesh_free`.
///
/// # Safety
/// `world` must be NULL or a live world; `out_mesh` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_world_snapshot(
    world: *const NavstarWorld,
    out_mesh: *mut *mut NavstarMesh,
) -> NavstarStatus {
    run("navstar_world_snapshot", || {
        let out_mesh = HandleOut::new(out_mesh, "out_mesh")?;
        let state = handle::borrow(world, "world")?;
        out_mesh.give(state.world.snapshot());
        Ok(NavstarStatus::NavstarOk)
    })
}

/// The number of tiles in a world now (0 for NULL).
///
/// # Safety
/// `world` must be NULL or a live world.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_world_tile_count(world: *const NavstarWorld) -> u32 {
    handle::get(world).map_or(0, |state| state.world.tile_count())
}

/// The references of the tiles in a world now, by slot: for a world just loaded, or to
/// walk every tile.
///
/// * `out_tiles` (out): room for `capacity` references; may be NULL when `capacity` is
///   0 (to ask for the count alone).
/// * `out_count` (out): the number of tiles.
///
/// Returns `NAVSTAR_BUFFER_TOO_SMALL` when they do not all fit: the first `capacity`
/// were written and `*out_count` holds the count.
///
/// # Safety
/// `world` must be NULL or a live world; `out_tiles` NULL or writable for `capacity`
/// references; `out_count` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_world_tiles(
    world: *const NavstarWorld,
    out_tiles: *mut NavstarTileRef,
    capacity: u32,
    out_count: *mut u32,
) -> NavstarStatus {
    run("navstar_world_tiles", || {
        let out = OutSlice::new(out_tiles, capacity, out_count, "out_tiles")?;
        let state = handle::borrow(world, "world")?;
        let tiles: Vec<NavstarTileRef> = state
            .world
            .tiles()
            .into_iter()
            .map(|(tile, _)| state.c_ref(tile))
            .collect();
        Ok(out.write(tiles.into_iter()))
    })
}

/// The numbers of every polygon of a mesh, in increasing order: `0` to
/// `navstar_mesh_polygon_count(mesh) - 1` for a mesh built from arrays; for a snapshot of
/// a world, whose polygon numbers encode their tile (`slot << local_bits | local`,
/// `local_bits = 32 - log2(max_tiles)`), the numbers of the tiles it holds.
///
/// * `out_ids` (out): room for `capacity` numbers; may be NULL when `capacity` is 0 (to
///   ask for the count alone).
/// * `out_count` (out): the number of polygons.
///
/// Returns `NAVSTAR_BUFFER_TOO_SMALL` when they do not all fit: the first `capacity`
/// were written and `*out_count` holds the count.
///
/// # Safety
/// `mesh` must be NULL or a live mesh; `out_ids` NULL or writable for `capacity`
/// numbers; `out_count` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_mesh_polygon_ids(
    mesh: *const NavstarMesh,
    out_ids: *mut u32,
    capacity: u32,
    out_count: *mut u32,
) -> NavstarStatus {
    run("navstar_mesh_polygon_ids", || {
        let out = OutSlice::new(out_ids, capacity, out_count, "out_ids")?;
        let mesh: &NavMesh = handle::borrow(mesh, "mesh")?;
        let ids: Vec<u32> = mesh.polygon_ids().collect();
        Ok(out.write(ids.into_iter()))
    })
}

/// A reference to polygon `polygon` of a mesh that stays meaningful after the mesh is
/// gone: it names the polygon and the generation of its tile slot, so that
/// `navstar_mesh_resolve_polygon_ref` on a later snapshot of the same world finds the
/// polygon again, or reports it stale. Obstacles added, moved or removed leave the
/// references of the polygons they do not cut valid. (A plain mesh is a world of one
/// tile.)
///
/// * `out_ref` (out): the reference; 0 on error.
///
/// A polygon number the mesh does not have is `NAVSTAR_ERROR_INVALID_ARGUMENT`.
///
/// # Safety
/// `mesh` must be NULL or a live mesh; `out_ref` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_mesh_polygon_ref(
    mesh: *const NavstarMesh,
    polygon: u32,
    out_ref: *mut u64,
) -> NavstarStatus {
    run("navstar_mesh_polygon_ref", || {
        let out_ref = Out::required(out_ref, "out_ref")?;
        out_ref.set(0);
        let mesh: &NavMesh = handle::borrow(mesh, "mesh")?;
        out_ref.set(mesh.polygon_ref(polygon)?.0);
        Ok(NavstarStatus::NavstarOk)
    })
}

/// The polygon number, in this mesh, of a reference made by `navstar_mesh_polygon_ref`
/// (on this mesh or on an earlier snapshot of the same world): the same polygon, with
/// the same corners; its number is the same unless obstacles renumbered its tile.
///
/// * `out_polygon` (out, optional): the polygon number; `NAVSTAR_NO_POLYGON` on error.
///
/// A reference to a tile that this mesh does not hold, or holds in another generation
/// (it was removed or replaced), to a polygon an obstacle cut since (or a piece cut
/// again or gone), or made on a later snapshot, is `NAVSTAR_ERROR_STALE_REFERENCE`,
/// naming the tile and both generations, never another polygon; a reference beyond the
/// tile's polygons is `NAVSTAR_ERROR_INVALID_ARGUMENT`.
///
/// # Safety
/// `mesh` must be NULL or a live mesh; `out_polygon` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_mesh_resolve_polygon_ref(
    mesh: *const NavstarMesh,
    polygon_ref: u64,
    out_polygon: *mut u32,
) -> NavstarStatus {
    run("navstar_mesh_resolve_polygon_ref", || {
        put(out_polygon, super::queries::NAVSTAR_NO_POLYGON);
        let mesh: &NavMesh = handle::borrow(mesh, "mesh")?;
        put(out_polygon, mesh.resolve(PolyRef(polygon_ref))?);
        Ok(NavstarStatus::NavstarOk)
    })
}

/// Checks a required tile output and zeroes it at once, so that it is zero on error.
fn tile_out(out_tile: *mut NavstarTileRef) -> Result<Out<NavstarTileRef>, FfiError> {
    let out = Out::required(out_tile, "out_tile")?;
    out.set(NavstarTileRef::default());
    Ok(out)
}
