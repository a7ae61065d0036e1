//! Worlds of tiles through the C ABI: contract-checking wrappers over the `navstar_world_*`
//! functions, fuzzed grid tiles placed on a lattice (so that neighbours share border
//! lines and join at seams, wholly or in part), and a model of what a world holds.

use std::ptr::{self, NonNull};

use arbitrary::Arbitrary;
use navstar::ffi::{
    NavstarMesh, NavstarStatus, NavstarTileRef, NavstarWorld, NavstarWorldOptions,
    navstar_mesh_polygon_ids, navstar_mesh_polygon_points, navstar_mesh_polygon_ref,
    navstar_mesh_resolve_polygon_ref, navstar_world_add_tile, navstar_world_create,
    navstar_world_free, navstar_world_load_bytes, navstar_world_options_default,
    navstar_world_remove_tile, navstar_world_replace_tile, navstar_world_save,
    navstar_world_snapshot, navstar_world_tile_count, navstar_world_tiles,
};
use navstar::glam::Vec3;
use navstar::{NavMesh, PathOptions, PathStatus, Query};

use crate::{
    BUFFER_TOO_SMALL, CMesh, INVALID_ARGUMENT, INVALID_MESH, OK, OUT_OF_MEMORY, c_grid_create,
    check_status_and_message,
};

/// The stale-reference status.
pub const STALE_REFERENCE: NavstarStatus = NavstarStatus::NavstarErrorStaleReference;

/// Side of a lattice square, in world units: a tile of up to 4 x 4 unit cells sits in
/// one.
pub const LATTICE: f32 = 4.0;

/// A fuzzed tile: a grid of up to 4 x 4 unit cells with holes, in one square of a 3 x 3
/// lattice, raised a little (within the climb or not).
#[derive(Arbitrary, Debug, Clone)]
pub struct TileSpec {
    /// Lattice square, `x % 3` and `z % 3`.
    pub square: (u8, u8),
    /// Columns and rows, `1 + value % 4` each.
    pub size: (u8, u8),
    /// Bit `k`: cell `k` is a hole.
    pub holes: u16,
    /// Offset of the grid inside its square, in cells (`value % 2` each).
    pub shift: (u8, u8),
    /// Height of the tile, `value / 64` world units.
    pub height: i8,
}

impl TileSpec {
    /// Columns and rows.
    pub fn dims(&self) -> (u32, u32) {
        (
            1 + u32::from(self.size.0 % 4),
            1 + u32::from(self.size.1 % 4),
        )
    }

    /// The cells (`cells[z * width + x]`, 1 walkable), never all holes.
    pub fn cells(&self) -> Vec<u8> {
        let (w, h) = self.dims();
        let mut cells: Vec<u8> = (0..w * h)
            .map(|k| u8::from(self.holes & (1 << k) == 0))
            .collect();
        if cells.iter().all(|&c| c == 0) {
            cells[0] = 1;
        }
        cells
    }

    /// The world position of the grid's corner.
    pub fn origin(&self) -> [f32; 3] {
        let (w, h) = self.dims();
        let shift = |s: u8, n: u32| if n < 4 { f32::from(s % 2) } else { 0.0 };
        [
            f32::from(self.square.0 % 3) * LATTICE + shift(self.shift.0, w),
            f32::from(self.height) / 64.0,
            f32::from(self.square.1 % 3) * LATTICE + shift(self.shift.1, h),
        ]
    }

    /// The centres of the walkable cells, in world coordinates.
    pub fn centres(&self) -> Vec<[f32; 3]> {
        let (w, _) = self.dims();
        let [x0, y, z0] = self.origin();
        self.cells()
            .iter()
            .enumerate()
            .filter(|(_, c)| **c != 0)
            .map(|(k, _)| {
                let (x, z) = (k as u32 % w, k as u32 / w);
                [x0 + x as f32 + 0.5, y, z0 + z as f32 + 0.5]
            })
            .collect()
    }

    /// The tile as a mesh (`navstar_mesh_create_from_grid`, Y up, unit cells).
    pub fn build(&self) -> CMesh {
        let (w, h) = self.dims();
        let (status, mesh) =
            c_grid_create(Some(&self.cells()), w, h, 1.0, Some(&self.origin()), None);
        assert_eq!(status, OK, "a grid tile was refused");
        mesh.expect("a grid tile")
    }
}

/// An owned world handle, freed on drop.
pub struct CWorld(NonNull<NavstarWorld>);

impl Drop for CWorld {
    fn drop(&mut self) {
        // SAFETY: made by navstar_world_create or _load_bytes, freed only here.
        unsafe { navstar_world_free(self.0.as_ptr()) }
    }
}

/// Checks the out-handle rules of a world constructor: non-NULL after success, NULL
/// after an error.
#[track_caller]
fn finish(function: &str, status: NavstarStatus, out: *mut NavstarWorld) -> Option<CWorld> {
    check_status_and_message(function, status);
    if status == OK {
        Some(CWorld(
            NonNull::new(out).expect("NAVSTAR_OK with a NULL world"),
        ))
    } else {
        assert!(
            out.is_null(),
            "{function} failed but *out_world is not NULL"
        );
        None
    }
}

/// `navstar_world_create`; `None` with the status on an error, which must be
/// `NAVSTAR_ERROR_INVALID_ARGUMENT` or `NAVSTAR_ERROR_OUT_OF_MEMORY`.
pub fn c_world_create(options: &NavstarWorldOptions) -> Result<CWorld, NavstarStatus> {
    let mut out: *mut NavstarWorld = NonNull::dangling().as_ptr();
    // SAFETY: a whole struct; `out` is writable.
    let status = unsafe { navstar_world_create(options, &mut out) };
    let world = finish("navstar_world_create", status, out);
    assert!(
        matches!(status, OK | INVALID_ARGUMENT | OUT_OF_MEMORY),
        "navstar_world_create: {status:?}"
    );
    world.ok_or(status)
}

/// `navstar_world_load_bytes`; `None` after a refusal, whose status must be
/// `NAVSTAR_ERROR_INVALID_MESH`, `NAVSTAR_ERROR_INVALID_ARGUMENT` or out of memory.
pub fn c_world_load(bytes: &[u8]) -> Option<CWorld> {
    let mut out: *mut NavstarWorld = NonNull::dangling().as_ptr();
    // SAFETY: `bytes` is readable for its length; `out` is writable.
    let status = unsafe { navstar_world_load_bytes(bytes.as_ptr(), bytes.len() as u32, &mut out) };
    let world = finish("navstar_world_load_bytes", status, out);
    assert!(
        matches!(status, OK | INVALID_MESH | INVALID_ARGUMENT | OUT_OF_MEMORY),
        "navstar_world_load_bytes: {status:?}"
    );
    world
}

/// The default options with `max_tiles` and the two tolerances set.
pub fn world_options(max_tiles: u32, seam_tolerance: f32, climb: f32) -> NavstarWorldOptions {
    NavstarWorldOptions {
        max_tiles,
        seam_tolerance,
        climb,
        ..navstar_world_options_default()
    }
}

/// A tile call's answer: the status, and the reference (zeroed on error).
#[track_caller]
fn tile_answer(
    function: &str,
    status: NavstarStatus,
    out: NavstarTileRef,
) -> (NavstarStatus, NavstarTileRef) {
    check_status_and_message(function, status);
    if status != OK {
        assert_eq!(
            out,
            NavstarTileRef::default(),
            "{function}: *out_tile not zeroed"
        );
    }
    (status, out)
}

impl CWorld {
    fn ptr(&self) -> *mut NavstarWorld {
        self.0.as_ptr()
    }

    /// The raw handle (for calls this module does not wrap).
    pub fn as_ptr(&self) -> *mut NavstarWorld {
        self.0.as_ptr()
    }

    /// `navstar_world_add_tile`.
    pub fn add(&self, tile: &CMesh) -> (NavstarStatus, NavstarTileRef) {
        let mut out = NavstarTileRef {
            world: 1,
            slot: 2,
            generation: 3,
        };
        // SAFETY: live handles; `out` is writable.
        let status = unsafe { navstar_world_add_tile(self.ptr(), tile.as_ptr(), &mut out) };
        tile_answer("navstar_world_add_tile", status, out)
    }

    /// `navstar_world_remove_tile`.
    pub fn remove(&self, tile: NavstarTileRef) -> NavstarStatus {
        // SAFETY: a live world.
        let status = unsafe { navstar_world_remove_tile(self.ptr(), tile) };
        check_status_and_message("navstar_world_remove_tile", status);
        status
    }

    /// `navstar_world_replace_tile`.
    pub fn replace(&self, tile: NavstarTileRef, mesh: &CMesh) -> (NavstarStatus, NavstarTileRef) {
        let mut out = tile;
        // SAFETY: live handles; `out` is writable.
        let status =
            unsafe { navstar_world_replace_tile(self.ptr(), tile, mesh.as_ptr(), &mut out) };
        tile_answer("navstar_world_replace_tile", status, out)
    }

    /// `navstar_world_snapshot`, which must succeed.
    pub fn snapshot(&self) -> CMesh {
        let mut out: *mut NavstarMesh = ptr::null_mut();
        // SAFETY: a live world; `out` is writable.
        let status = unsafe { navstar_world_snapshot(self.ptr(), &mut out) };
        check_status_and_message("navstar_world_snapshot", status);
        assert_eq!(status, OK);
        CMesh(NonNull::new(out).expect("a snapshot"))
    }

    /// `navstar_world_tile_count`.
    pub fn tile_count(&self) -> u32 {
        // SAFETY: a live world.
        unsafe { navstar_world_tile_count(self.ptr()) }
    }

    /// `navstar_world_tiles`, asked for the count first (with a buffer one short when
    /// there are tiles, to check the too-small rule).
    pub fn tiles(&self) -> Vec<NavstarTileRef> {
        let mut count = 0u32;
        // SAFETY: NULL with capacity 0 asks for the count.
        let status = unsafe { navstar_world_tiles(self.ptr(), ptr::null_mut(), 0, &mut count) };
        check_status_and_message("navstar_world_tiles", status);
        assert_eq!(status, if count == 0 { OK } else { BUFFER_TOO_SMALL });
        let mut out = vec![NavstarTileRef::default(); count as usize + 1];
        let room = count.saturating_sub(1);
        let mut again = 0;
        // SAFETY: `out` has room for more than `room` references.
        let status = unsafe { navstar_world_tiles(self.ptr(), out.as_mut_ptr(), room, &mut again) };
        assert_eq!(again, count);
        assert_eq!(status, if count == 0 { OK } else { BUFFER_TOO_SMALL });
        assert_eq!(
            out[room as usize],
            NavstarTileRef::default(),
            "wrote past the capacity"
        );
        // SAFETY: `out` has room for `count` references.
        let status =
            unsafe { navstar_world_tiles(self.ptr(), out.as_mut_ptr(), count, &mut again) };
        assert_eq!((status, again), (OK, count));
        out.truncate(count as usize);
        out
    }

    /// `navstar_world_save`, with the too-small rule checked on a buffer one byte short.
    pub fn save(&self) -> Vec<u8> {
        let mut size = 0u32;
        // SAFETY: NULL with capacity 0 asks for the size.
        let status = unsafe { navstar_world_save(self.ptr(), ptr::null_mut(), 0, &mut size) };
        check_status_and_message("navstar_world_save", status);
        assert_eq!(status, BUFFER_TOO_SMALL);
        let mut bytes = vec![0xa5u8; size as usize + 1];
        let mut again = 0u32;
        // SAFETY: `bytes` has room for `size - 1` bytes and more.
        let status =
            unsafe { navstar_world_save(self.ptr(), bytes.as_mut_ptr(), size - 1, &mut again) };
        assert_eq!((status, again), (BUFFER_TOO_SMALL, size));
        assert_eq!(bytes[size as usize - 1], 0xa5, "wrote past the capacity");
        // SAFETY: `bytes` has room for `size` bytes.
        let status =
            unsafe { navstar_world_save(self.ptr(), bytes.as_mut_ptr(), size, &mut again) };
        assert_eq!((status, again), (OK, size));
        bytes.truncate(size as usize);
        bytes
    }
}

/// `navstar_mesh_polygon_ref` on a mesh.
pub fn polygon_ref(mesh: &CMesh, polygon: u32) -> (NavstarStatus, u64) {
    let mut out = u64::MAX;
    // SAFETY: a live mesh; `out` is writable.
    let status = unsafe { navstar_mesh_polygon_ref(mesh.as_ptr(), polygon, &mut out) };
    check_status_and_message("navstar_mesh_polygon_ref", status);
    if status != OK {
        assert_eq!(out, 0, "*out_ref not zeroed");
    }
    (status, out)
}

/// `navstar_mesh_polygon_ids` on a mesh, checked: asked with no room it reports the
/// count (`NAVSTAR_BUFFER_TOO_SMALL` unless there are none), with room for all it writes
/// `expected` numbers in increasing order, each of which has a reference that resolves
/// back to it.
pub fn check_polygon_ids(mesh: &CMesh, expected: u32) -> Vec<u32> {
    let mut count = u32::MAX;
    // SAFETY: a live mesh; no room asked, so `out_ids` may be NULL; `count` is writable.
    let status =
        unsafe { navstar_mesh_polygon_ids(mesh.as_ptr(), std::ptr::null_mut(), 0, &mut count) };
    check_status_and_message("navstar_mesh_polygon_ids", status);
    let asked_alone = if expected == 0 {
        crate::OK
    } else {
        crate::BUFFER_TOO_SMALL
    };
    assert_eq!(
        (status, count),
        (asked_alone, expected),
        "polygon ids asked with no room"
    );
    let mut ids = vec![u32::MAX; expected as usize];
    // SAFETY: a live mesh; `ids` has room for `expected` numbers; `count` is writable.
    let status =
        unsafe { navstar_mesh_polygon_ids(mesh.as_ptr(), ids.as_mut_ptr(), expected, &mut count) };
    check_status_and_message("navstar_mesh_polygon_ids", status);
    assert_eq!((status, count), (crate::OK, expected), "polygon ids");
    assert!(
        ids.windows(2).all(|w| w[0] < w[1]),
        "polygon ids not increasing: {ids:?}"
    );
    for &id in &ids {
        let (status, reference) = polygon_ref(mesh, id);
        assert_eq!(
            status,
            crate::OK,
            "polygon {id} listed but has no reference"
        );
        assert_eq!(resolve(mesh, reference), (crate::OK, id), "polygon {id}");
    }
    ids
}

/// `navstar_mesh_resolve_polygon_ref` on a mesh.
pub fn resolve(mesh: &CMesh, reference: u64) -> (NavstarStatus, u32) {
    let mut out = 12345u32;
    // SAFETY: a live mesh; `out` is writable.
    let status = unsafe { navstar_mesh_resolve_polygon_ref(mesh.as_ptr(), reference, &mut out) };
    check_status_and_message("navstar_mesh_resolve_polygon_ref", status);
    if status != OK {
        assert_eq!(out, navstar::ffi::NAVSTAR_NO_POLYGON);
    }
    (status, out)
}

/// The shape of polygon `polygon` of a mesh (`navstar_mesh_polygon_points`): its corners
/// without those lying on the line of their neighbours (seams insert such corners where
/// another tile's edge ends), as bits, from the smallest on; what a reference to the
/// polygon must find again.
pub fn polygon_shape(mesh: &CMesh, polygon: u32) -> Vec<[u32; 3]> {
    let mut points = vec![[0.0f32; 3]; 64];
    let mut count = 0u32;
    // SAFETY: a live mesh; `points` holds 64 points, `count` is writable.
    let status = unsafe {
        navstar_mesh_polygon_points(
            mesh.as_ptr(),
            polygon,
            points.as_mut_ptr().cast::<f32>(),
            64,
            &mut count,
        )
    };
    check_status_and_message("navstar_mesh_polygon_points", status);
    assert_eq!(status, OK, "{}", crate::last_error());
    points.truncate(count as usize);
    let n = points.len();
    let ground = |i: usize| {
        let p = points[i % n];
        (f64::from(p[0]), f64::from(p[2]))
    };
    let mut shape: Vec<[u32; 3]> = (0..n)
        .filter(|&i| {
            let (a, b, c) = (ground(i + n - 1), ground(i), ground(i + 1));
            let cross = (b.0 - a.0) * (c.1 - b.1) - (b.1 - a.1) * (c.0 - b.0);
            let scale = ((b.0 - a.0).hypot(b.1 - a.1)) * ((c.0 - b.0).hypot(c.1 - b.1));
            cross.abs() > 1e-6 * scale
        })
        .map(|i| points[i].map(f32::to_bits))
        .collect();
    if let Some(first) = (0..shape.len()).min_by_key(|&i| shape[i]) {
        shape.rotate_left(first);
    }
    shape
}

/// Runs a few paths on a snapshot of a world between points of its polygons (picked by
/// `picks`) and checks each answer: found (complete, partial or, with a filter-free
/// search between islands, never refused), with finite corners, starting at the start.
/// (Snapshots number their polygons by tile, so points come from
/// `closest_point_on_polygon`, not from vertex arrays.)
pub fn check_snapshot_paths(snapshot: &NavMesh, picks: &[u8]) {
    let ids: Vec<u32> = snapshot.polygon_ids().collect();
    assert_eq!(ids.len() as u32, snapshot.polygon_count());
    if ids.is_empty() {
        return;
    }
    let centre = {
        let b = snapshot.bounds();
        (b.min + b.max) * 0.5
    };
    let mut query = Query::new(snapshot);
    for pick in picks.chunks_exact(4).take(4) {
        let id =
            |k: usize| ids[usize::from(u16::from_le_bytes([pick[k], pick[k + 1]])) % ids.len()];
        let (a, b) = (id(0), id(2));
        let start = snapshot.closest_point_on_polygon(a, centre);
        let goal = snapshot.closest_point_on_polygon(b, centre + Vec3::ONE);
        let path = query
            .find_path(start, goal, &PathOptions::default())
            .unwrap_or_else(|e| panic!("a path between polygons {a} and {b}: {e}"));
        let corners = &path.corners;
        assert!(corners.len() >= 2 && corners.iter().all(|c| c.is_finite()));
        let tol = 1e-4 * start.abs().max_element().max(1.0);
        assert!(
            corners[0].distance(start) <= tol,
            "starts at {}, not {start}",
            corners[0]
        );
        if path.status == PathStatus::Complete {
            let last = corners[corners.len() - 1];
            assert!(last.distance(goal) <= tol, "ends at {last}, not {goal}");
        }
    }
}
