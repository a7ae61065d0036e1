//! Fuzzes a world of tiles through the C ABI: sequences of `navstar_world_add_tile`,
//! `_remove_tile` and `_replace_tile` with small grid tiles on a 3 x 3 lattice (whole,
//! partial and T-shaped seams, heights within the climb or not, tiles on top of each
//! other), snapshots, queries on old and new snapshots, polygon references and
//! save/load round trips.
//!
//! A model holds the tiles present (slot, generation, polygon count) and every reference
//! ever handed out. Checks, besides each call's status and message rules:
//! * adding succeeds exactly when the world has a free slot; removing or replacing a
//!   present tile succeeds, and a removed, replaced or foreign reference is
//!   `NAVSTAR_ERROR_STALE_REFERENCE` (its message naming the slot) and changes nothing;
//!   replacing keeps the slot and raises the generation;
//! * every snapshot's polygon count is the sum of its tiles', `navstar_world_tiles`
//!   lists the model's tiles by slot, and the tile count agrees;
//! * a reference to any polygon of any snapshot resolves on that snapshot to the same
//!   polygon, and on the latest one exactly when its tile (slot and generation) is still
//!   present (no obstacle touches a polygon here), to a polygon of the same shape (its
//!   corners but those seams put on its edges), else it is stale;
//! * paths and nearest points between cell centres of present tiles, on old snapshots
//!   as on new ones, succeed (complete or partial) with finite corners, starting at the
//!   start;
//! * a saved world loads with the same tiles and saves to the same bytes;
//! * a tile that would lie on another on one level (an edge joining two tiles at once)
//!   may be refused (`NAVSTAR_ERROR_INVALID_ARGUMENT`, "must not overlap"), and then
//!   the world is unchanged;
//! * `navstar_world_prepare_landmarks` succeeds (and refuses a NULL world by name); on
//!   every snapshot, before and after it and after later changes (removals and
//!   additions keep the tables; new ground caps their bounds near it), a path's length
//!   with the landmark tables is the length without them;
//! * `navstar_world_prepare_fast_lane` succeeds (and refuses a NULL world by name); the
//!   snapshot taken after it answers exact-mode paths with the status and length of the
//!   snapshot taken just before (without the index, unless an earlier call left it);
//! * `navstar_world_add_mesh_tiles` with a tile's mesh cut at a fuzzed size gives as many
//!   tiles as `NavMesh::cut_into_tiles` in Rust, with their polygon counts; it adds
//!   nothing (and writes nothing) when the references do not fit, when the size is not
//!   finite and > 0 (`NAVSTAR_ERROR_INVALID_ARGUMENT` naming the tile size) or when the
//!   world has fewer free slots than tiles.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use navstar::ffi::{
    NAVSTAR_LANDMARKS_OFF, NAVSTAR_LANDMARKS_ON, NAVSTAR_PATH_OPTIMAL, NavstarPathOptions,
    NavstarStatus, NavstarTileRef, navstar_mesh_nearest_point, navstar_path_options_default,
    navstar_query_set_landmarks, navstar_world_add_mesh_tiles, navstar_world_prepare_fast_lane,
    navstar_world_prepare_landmarks,
};
use navstar::glam::Vec3;
use navstar::{MeshOptions, NavMesh, TileGrid};
use navstar_fuzz::world::{
    CWorld, STALE_REFERENCE, TileSpec, c_world_create, c_world_load, check_polygon_ids,
    polygon_ref, polygon_shape, resolve, world_options,
};
use navstar_fuzz::{
    BUFFER_TOO_SMALL, CMesh, INVALID_ARGUMENT, OK, PARTIAL_PATH, c_find_path,
    check_status_and_message,
};

#[derive(Arbitrary, Debug)]
enum Op {
    Add(TileSpec),
    /// A tile's mesh added whole, cut into tiles of side `SIZES[size % 7]`; with
    /// `short`, first with room for one reference too few.
    AddCut {
        tile: TileSpec,
        size: u8,
        short: bool,
    },
    /// Removes the model's tile `pick % count`, or a stale reference.
    Remove {
        pick: u8,
        stale: bool,
    },
    Replace {
        pick: u8,
        stale: bool,
        tile: TileSpec,
    },
    /// A reference with another world's number.
    Foreign {
        pick: u8,
    },
    Snapshot,
    /// A path between two cell centres on snapshot `snapshot % count`.
    Path {
        snapshot: u8,
        from: u8,
        to: u8,
    },
    /// References to a polygon of an old snapshot, resolved on the latest.
    Refs {
        snapshot: u8,
        polygon: u16,
    },
    Save,
    /// `navstar_world_prepare_landmarks`, then a snapshot.
    PrepareLandmarks,
    /// A snapshot, `navstar_world_prepare_fast_lane`, another snapshot; paths between
    /// cell centres (picked from `pairs`) on both.
    PrepareFastLane {
        pairs: Vec<(u8, u8)>,
    },
}

#[derive(Arbitrary, Debug)]
struct Input {
    /// `max_tiles = 1 << (value % 5)`.
    max_tiles: u8,
    /// Seam tolerance and climb: `value / 256` world units.
    tolerance: u8,
    climb: u8,
    ops: Vec<Op>,
}

/// The tile sizes `AddCut` tries: whole cells (no cell centre on a tile border), and
/// sizes the cutter refuses.
const SIZES: [f32; 7] = [1.0, 2.0, 3.0, f32::NAN, 0.0, -1.0, f32::INFINITY];

/// A present tile of the model.
#[derive(Clone)]
struct Tile {
    reference: NavstarTileRef,
    /// The centres of its walkable cells.
    centres: Vec<[f32; 3]>,
    polygons: u32,
}

/// A snapshot and the tiles it holds.
struct Snapshot {
    mesh: CMesh,
    tiles: Vec<Tile>,
}

struct Model {
    world: CWorld,
    max_tiles: u32,
    tiles: Vec<Tile>,
    /// References that were removed or replaced.
    stale: Vec<NavstarTileRef>,
    snapshots: Vec<Snapshot>,
}

impl Model {
    /// Whether the call that gave `status` was refused because the tile would overlap
    /// another on one level (which the model does not predict); then the world must be
    /// as it was (`before`).
    fn refused_overlap(&self, status: NavstarStatus, before: &[NavstarTileRef]) -> bool {
        if status != INVALID_ARGUMENT || !navstar_fuzz::last_error().contains("must not overlap") {
            return false;
        }
        assert_eq!(
            self.world.tiles(),
            before,
            "a refused overlapping tile changed the world"
        );
        true
    }

    fn add(&mut self, spec: &TileSpec) {
        let mesh = spec.build();
        let before = self.world.tiles();
        let (status, reference) = self.world.add(&mesh);
        if self.refused_overlap(status, &before) {
            return;
        }
        if (self.tiles.len() as u32) < self.max_tiles {
            assert_eq!(status, OK, "adding to a world with room");
        } else {
            assert_eq!(status, INVALID_ARGUMENT, "adding to a full world");
            return;
        }
        assert!(reference.slot < self.max_tiles && reference.generation > 0);
        assert!(
            self.tiles
                .iter()
                .all(|t| t.reference.slot != reference.slot)
        );
        assert!(
            !self.stale.contains(&reference),
            "a reference was handed out twice"
        );
        self.tiles.push(Tile {
            reference,
            centres: spec.centres(),
            polygons: mesh.polygon_count(),
        });
    }

    fn add_cut(&mut self, spec: &TileSpec, size: u8, short: bool) {
        let mesh = spec.build();
        let tile_size = SIZES[usize::from(size) % SIZES.len()];
        // The same mesh in Rust, cut there: the C answer must agree.
        let (width, height) = spec.dims();
        let walkable: Vec<bool> = spec.cells().iter().map(|&c| c != 0).collect();
        let grid = TileGrid {
            width,
            height,
            walkable: &walkable,
            cell_size: 1.0,
            origin: Vec3::from(spec.origin()),
        };
        let rust = NavMesh::from_grid(&grid, &MeshOptions::default()).expect("a grid tile");
        let cut = rust.cut_into_tiles(tile_size).ok();
        let before = self.world.tiles();
        let marker = NavstarTileRef {
            world: 5,
            slot: 6,
            generation: 7,
        };
        let call = |capacity: usize| {
            let mut out = vec![marker; capacity + 1];
            let mut count = u32::MAX;
            // SAFETY: live handles; `out` has room for `capacity` references; `count` is
            // writable.
            let status = unsafe {
                navstar_world_add_mesh_tiles(
                    self.world.as_ptr(),
                    mesh.as_ptr(),
                    tile_size,
                    out.as_mut_ptr(),
                    capacity as u32,
                    &mut count,
                )
            };
            check_status_and_message("navstar_world_add_mesh_tiles", status);
            assert_eq!(out[capacity], marker, "wrote past the capacity");
            out.truncate(capacity);
            (status, count, out)
        };
        let Some(cut) = cut else {
            let (status, _, out) = call(16);
            assert_eq!(status, INVALID_ARGUMENT, "a refused tile size was accepted");
            let message = navstar_fuzz::last_error();
            assert!(message.contains("tile size"), "{message}");
            assert!(out.iter().all(|&r| r == marker), "wrote after an error");
            assert_eq!(
                self.world.tiles(),
                before,
                "a refused cut changed the world"
            );
            return;
        };
        let n = cut.tiles.len();
        if short && n > 0 {
            let (status, count, out) = call(n - 1);
            assert_eq!((status, count as usize), (BUFFER_TOO_SMALL, n));
            assert!(
                out.iter().all(|&r| r == marker),
                "wrote when they did not fit"
            );
            assert_eq!(
                self.world.tiles(),
                before,
                "a short buffer changed the world"
            );
        }
        let (status, count, out) = call(n);
        if self.tiles.len() + n > self.max_tiles as usize {
            assert_eq!(status, INVALID_ARGUMENT, "a full world took the cut");
            assert_eq!(
                self.world.tiles(),
                before,
                "a refused cut changed the world"
            );
            return;
        }
        if self.refused_overlap(status, &before) {
            return;
        }
        assert_eq!(
            (status, count as usize),
            (OK, n),
            "{}",
            navstar_fuzz::last_error()
        );
        for (reference, tile) in out.iter().zip(&cut.tiles) {
            assert!(reference.slot < self.max_tiles && reference.generation > 0);
            assert!(
                !self.stale.contains(reference),
                "a reference was handed out twice"
            );
            let inside = |c: &[f32; 3]| {
                (tile.min.x..tile.max.x).contains(&c[0]) && (tile.min.y..tile.max.y).contains(&c[2])
            };
            self.tiles.push(Tile {
                reference: *reference,
                centres: spec.centres().into_iter().filter(inside).collect(),
                polygons: tile.mesh.polygon_count(),
            });
        }
    }

    /// A stale reference (if any was made), or the present tile `pick`.
    fn pick(&self, pick: u8, stale: bool) -> Option<(usize, NavstarTileRef)> {
        if stale && !self.stale.is_empty() {
            let r = self.stale[usize::from(pick) % self.stale.len()];
            return Some((usize::MAX, r));
        }
        let i = usize::from(pick) % self.tiles.len().max(1);
        self.tiles.get(i).map(|t| (i, t.reference))
    }

    fn check_refused(
        &self,
        status: NavstarStatus,
        reference: NavstarTileRef,
        before: &[NavstarTileRef],
    ) {
        assert_eq!(status, STALE_REFERENCE, "a stale reference was accepted");
        let message = navstar_fuzz::last_error();
        assert!(
            message.contains(&format!("slot {}", reference.slot)),
            "{message}"
        );
        assert_eq!(
            self.world.tiles(),
            before,
            "a refused call changed the world"
        );
    }

    fn remove(&mut self, pick: u8, stale: bool) {
        let Some((i, reference)) = self.pick(pick, stale) else {
            return;
        };
        let before = self.world.tiles();
        let status = self.world.remove(reference);
        if i == usize::MAX {
            return self.check_refused(status, reference, &before);
        }
        assert_eq!(status, OK);
        self.tiles.remove(i);
        self.stale.push(reference);
    }

    fn replace(&mut self, pick: u8, stale: bool, spec: &TileSpec) {
        let Some((i, reference)) = self.pick(pick, stale) else {
            return;
        };
        let mesh = spec.build();
        let before = self.world.tiles();
        let (status, new) = self.world.replace(reference, &mesh);
        if i == usize::MAX {
            return self.check_refused(status, reference, &before);
        }
        if self.refused_overlap(status, &before) {
            return;
        }
        assert_eq!(status, OK);
        assert_eq!((new.world, new.slot), (reference.world, reference.slot));
        assert!(new.generation > reference.generation);
        self.stale.push(reference);
        self.tiles[i] = Tile {
            reference: new,
            centres: spec.centres(),
            polygons: mesh.polygon_count(),
        };
    }

    fn foreign(&self, pick: u8) {
        let Some((_, mut reference)) = self.pick(pick, false) else {
            return;
        };
        reference.world = reference.world.wrapping_add(1 + u32::from(pick));
        let before = self.world.tiles();
        let status = self.world.remove(reference);
        self.check_refused(status, reference, &before);
    }

    /// The model's references by slot.
    fn listed(&self) -> Vec<NavstarTileRef> {
        let mut refs: Vec<_> = self.tiles.iter().map(|t| t.reference).collect();
        refs.sort_by_key(|r| r.slot);
        refs
    }

    fn snapshot(&mut self) {
        let mesh = self.world.snapshot();
        let polygons: u32 = self.tiles.iter().map(|t| t.polygons).sum();
        assert_eq!(mesh.polygon_count(), polygons, "snapshot polygons");
        check_polygon_ids(&mesh, polygons);
        assert_eq!(self.world.tile_count(), self.tiles.len() as u32);
        assert_eq!(self.world.tiles(), self.listed());
        if self.snapshots.len() == 4 {
            self.snapshots.remove(0);
        }
        self.snapshots.push(Snapshot {
            mesh,
            tiles: self.tiles.clone(),
        });
    }

    /// Prepares the world's fast lane between two snapshots, and compares exact paths
    /// on them between the cell centres `pairs` pick.
    fn prepare_fast_lane(&mut self, pairs: &[(u8, u8)]) {
        self.snapshot();
        let mut has = 7u32;
        // SAFETY: a live world; `has` writable.
        let status = unsafe { navstar_world_prepare_fast_lane(self.world.as_ptr(), &mut has) };
        check_status_and_message("navstar_world_prepare_fast_lane", status);
        assert!(status == OK && has <= 1, "{status:?} {has}");
        // SAFETY: NULL is refused by name.
        let status = unsafe { navstar_world_prepare_fast_lane(std::ptr::null(), &mut has) };
        check_status_and_message("navstar_world_prepare_fast_lane", status);
        assert!(navstar_fuzz::last_error().contains("world"));
        self.snapshot();
        let [.., before, after] = self.snapshots.as_slice() else {
            unreachable!("two snapshots were just taken");
        };
        let centres: Vec<[f32; 3]> = after.tiles.iter().flat_map(|t| t.centres.clone()).collect();
        if centres.is_empty() {
            return;
        }
        let options = NavstarPathOptions {
            mode: NAVSTAR_PATH_OPTIMAL,
            ..navstar_path_options_default()
        };
        let (mut searched, mut indexed) = (before.mesh.query(), after.mesh.query());
        for &(from, to) in pairs.iter().take(8) {
            let start = centres[usize::from(from) % centres.len()];
            let goal = centres[usize::from(to) % centres.len()];
            let answer = |query: &mut navstar_fuzz::CQuery| {
                let a = c_find_path(query, Some(start), Some(goal), Some(&options), 64, false);
                let length: f32 = a.points.windows(2).map(|w| w[0].distance(w[1])).sum();
                (a.status, length)
            };
            let (a, b) = (answer(&mut searched), answer(&mut indexed));
            assert_eq!(a.0, b.0, "status before and after the fast lane");
            assert!(
                a.0 != OK || (a.1 - b.1).abs() <= 1e-3 * (1.0 + a.1),
                "length {} before the fast lane, {} after",
                a.1,
                b.1
            );
        }
    }

    fn path(&self, snapshot: u8, from: u8, to: u8) {
        let Some(s) = self
            .snapshots
            .get(usize::from(snapshot) % self.snapshots.len().max(1))
        else {
            return;
        };
        let centres: Vec<[f32; 3]> = s.tiles.iter().flat_map(|t| t.centres.clone()).collect();
        if centres.is_empty() {
            return;
        }
        let start = centres[usize::from(from) % centres.len()];
        let goal = centres[usize::from(to) % centres.len()];
        let mut query = s.mesh.query();
        let mut lengths = Vec::new();
        for mode in [NAVSTAR_LANDMARKS_OFF, NAVSTAR_LANDMARKS_ON] {
            // SAFETY: a live query of this thread.
            let status = unsafe { navstar_query_set_landmarks(query.as_ptr(), mode) };
            assert_eq!(status, OK);
            let answer = c_find_path(&mut query, Some(start), Some(goal), None, 64, false);
            let length: f32 = answer.points.windows(2).map(|w| w[0].distance(w[1])).sum();
            lengths.push((answer.status, length));
        }
        assert_eq!(
            lengths[0].0, lengths[1].0,
            "status with and without landmarks"
        );
        assert!(
            lengths[0].0 != OK
                || (lengths[0].1 - lengths[1].1).abs() <= 1e-3 * (1.0 + lengths[0].1),
            "length {} without landmarks, {} with",
            lengths[0].1,
            lengths[1].1
        );
        let answer = c_find_path(&mut query, Some(start), Some(goal), None, 64, false);
        assert!(
            matches!(answer.status, OK | PARTIAL_PATH),
            "a path between cell centres: {:?} {}",
            answer.status,
            navstar_fuzz::last_error()
        );
        let corners = &answer.points;
        assert!(corners.len() >= 2);
        assert!(
            corners[0].distance(start.into()) <= 1e-3,
            "the path starts at {}, not {start:?}",
            corners[0]
        );
        let mut point = [0f32; 3];
        let (mut polygon, mut distance) = (0u32, f32::NAN);
        // SAFETY: a live mesh; 3 floats in and out; outputs writable.
        let status = unsafe {
            navstar_mesh_nearest_point(
                s.mesh.as_ptr(),
                goal.as_ptr(),
                1.0,
                std::ptr::null(),
                point.as_mut_ptr(),
                &mut polygon,
                &mut distance,
            )
        };
        check_status_and_message("navstar_mesh_nearest_point", status);
        assert_eq!(status, OK);
        assert!(distance <= 1e-3 && s.mesh.polygon_ids().binary_search(&polygon).is_ok());
    }

    fn refs(&self, snapshot: u8, polygon: u16) {
        let Some(s) = self
            .snapshots
            .get(usize::from(snapshot) % self.snapshots.len().max(1))
        else {
            return;
        };
        // A snapshot's polygon numbers are `slot << local_bits | local`: sparse.
        let ids = s.mesh.polygon_ids();
        if ids.is_empty() {
            assert_eq!(polygon_ref(&s.mesh, u32::from(polygon)).0, INVALID_ARGUMENT);
            return;
        }
        if ids.binary_search(&u32::from(polygon)).is_err() {
            assert_eq!(polygon_ref(&s.mesh, u32::from(polygon)).0, INVALID_ARGUMENT);
        }
        let polygon = ids[usize::from(polygon) % ids.len()];
        let (status, reference) = polygon_ref(&s.mesh, polygon);
        assert_eq!(status, OK, "{}", navstar_fuzz::last_error());
        assert_eq!(resolve(&s.mesh, reference), (OK, polygon));
        let latest = self.snapshots.last().expect("a snapshot");
        // The polygon's tile: the reference is the generation, then the polygon number,
        // whose top bits are the slot (below 32 - log2(max_tiles) bits of local number).
        let generation = (reference >> 32) as u32;
        let local_bits = 32 - self.max_tiles.trailing_zeros();
        let slot = ((reference & 0xffff_ffff) >> local_bits) as u32;
        let owner = s
            .tiles
            .iter()
            .find(|t| t.reference.slot == slot)
            .expect("a polygon of a snapshot is in one of its tiles");
        assert_eq!(owner.reference.generation, generation);
        let present = latest.tiles.iter().any(|l| l.reference == owner.reference);
        let (status, found) = resolve(&latest.mesh, reference);
        if present {
            assert_eq!(status, OK, "a reference into a present tile is refused");
            assert_eq!(polygon_ref(&latest.mesh, found), (OK, reference));
            assert_eq!(
                polygon_shape(&latest.mesh, found),
                polygon_shape(&s.mesh, polygon),
                "a reference found another polygon"
            );
        } else {
            assert_eq!(
                status, STALE_REFERENCE,
                "a reference into a tile that is gone"
            );
            let message = navstar_fuzz::last_error();
            assert!(message.contains(&generation.to_string()), "{message}");
        }
    }

    fn save(&self) {
        let bytes = self.world.save();
        let loaded: CWorld = c_world_load(&bytes).expect("a saved world loads");
        let key = |r: &NavstarTileRef| (r.slot, r.generation);
        let want: Vec<_> = self.listed().iter().map(key).collect();
        let got: Vec<_> = loaded.tiles().iter().map(key).collect();
        assert_eq!(got, want);
        assert_eq!(loaded.save(), bytes, "a loaded world saves differently");
        let polygons: u32 = self.tiles.iter().map(|t| t.polygons).sum();
        assert_eq!(loaded.snapshot().polygon_count(), polygons);
    }
}

fuzz_target!(|input: Input| {
    let max_tiles = 1u32 << (input.max_tiles % 5);
    let options = world_options(
        max_tiles,
        f32::from(input.tolerance) / 256.0,
        f32::from(input.climb) / 256.0,
    );
    let world = c_world_create(&options).expect("valid options were refused");
    let mut model = Model {
        world,
        max_tiles,
        tiles: Vec::new(),
        stale: Vec::new(),
        snapshots: Vec::new(),
    };
    model.snapshot();
    for op in input.ops.iter().take(24) {
        match op {
            Op::Add(spec) => model.add(spec),
            Op::AddCut { tile, size, short } => model.add_cut(tile, *size, *short),
            Op::Remove { pick, stale } => model.remove(*pick, *stale),
            Op::Replace { pick, stale, tile } => model.replace(*pick, *stale, tile),
            Op::Foreign { pick } => model.foreign(*pick),
            Op::Snapshot => model.snapshot(),
            Op::Path { snapshot, from, to } => model.path(*snapshot, *from, *to),
            Op::Refs { snapshot, polygon } => model.refs(*snapshot, *polygon),
            Op::Save => model.save(),
            Op::PrepareLandmarks => {
                let mut has = 7u32;
                // SAFETY: a live world; `has` writable.
                let status =
                    unsafe { navstar_world_prepare_landmarks(model.world.as_ptr(), &mut has) };
                check_status_and_message("navstar_world_prepare_landmarks", status);
                assert!(status == OK && has <= 1, "{status:?} {has}");
                // SAFETY: NULL is refused by name.
                let status = unsafe { navstar_world_prepare_landmarks(std::ptr::null(), &mut has) };
                check_status_and_message("navstar_world_prepare_landmarks", status);
                assert!(navstar_fuzz::last_error().contains("world"));
                model.snapshot();
            }
            Op::PrepareFastLane { pairs } => model.prepare_fast_lane(pairs),
        }
    }
    model.snapshot();
});
