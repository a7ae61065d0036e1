//! The vertices seen from a point: a sweep of view cones through portals. From the
//! polygons whose closed area holds the point, every edge to a further polygon opens a
//! cone (the edge's angle as seen from the point); through each later polygon the cone
//! narrows to the part of the next edge it still sees, and ends when it closes. A
//! vertex of a polygon reached inside the cone (its borders included) is in straight
//! sight. Walls stop cones; the ground is the closed walkable region, so a sight line
//! may graze a corner. The cones form a tree (one per sequence of portals), so a
//! polygon seen round both sides of an obstacle is visited once per side. On a mesh of
//! several tiles, two cones about to enter one polygon whose windows meet are joined
//! into one ([`join`]): seams put vertices in sight that no wall ends at, and each would
//! otherwise split every cone passing it for good.

use std::ops::Range;

use glam::{DVec2, Vec2};

use crate::geometry::point_near_segment;
use crate::mesh::{MeshData, NO_NEIGHBOUR, NO_TWIN, next_in};
use crate::search::exact::polygons_at;

/// A cone to go on with: the polygon it enters, the corner slot of that polygon it
/// entered by, and its right and left borders (points the borders go through).
#[derive(Debug, Clone, Copy)]
struct Cone {
    polygon: u32,
    entry: usize,
    right: DVec2,
    left: DVec2,
    /// Whether the cone holds the way to the target (its cones are swept first).
    on_ray: bool,
}

/// Scratch of the sweeps (kept between sweeps: no allocation once grown).
#[derive(Debug, Default)]
pub(crate) struct Sight {
    stack: Vec<Cone>,
    start_set: Vec<u32>,
    /// On a mesh of several tiles: per tile slot, the dense number of its first corner
    /// slot (made again at each sweep: a few instructions per tile slot).
    dense: Vec<u32>,
}

/// The sweep gave up: more cones than its limit (a guard against pathological input;
/// callers fall back to a search or refuse to build).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TooManyCones;

impl Sight {
    /// The bytes held.
    pub fn bytes(&self) -> usize {
        self.stack.capacity() * std::mem::size_of::<Cone>()
            + (self.start_set.capacity() + self.dense.capacity()) * 4
    }

    /// Calls `seen(slot)` for a corner slot of every vertex of `mesh` in straight sight
    /// of ground point `s` (which lies in `polygon`), possibly several times (the slot
    /// names the vertex and the polygon it was seen in); expands at most `max_cones`
    /// cones. The slot is given by its dense number: its id on a mesh of one tile; on a
    /// mesh of several (a world's snapshot), its place in the slots numbered tile after
    /// tile (`corners::dense_slots`), so that per-slot tables stay plain `Vec`s. Returns
    /// whether ground point `target` is in sight too, when the polygons in `target_set`
    /// are all those whose closed area holds it (empty: no target); the cones toward it
    /// go first, and the sweep ends as soon as it is seen (the vertices seen are then
    /// only some of those in sight).
    #[inline(always)]
    pub fn sweep(
        &mut self,
        mesh: &MeshData,
        polygon: u32,
        s: DVec2,
        target: (&[u32], DVec2),
        max_cones: usize,
        seen: impl FnMut(usize),
    ) -> Result<bool, TooManyCones> {
        self.sweep_within(mesh, polygon, s, target, max_cones, seen, |_, _| true)
    }

    /// [`Sight::sweep`], not going on past an edge `a b` (beyond the polygons holding
    /// `s`) for which `go_on(a, b)` is false: what lies beyond is not wanted.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub fn sweep_within(
        &mut self,
        mesh: &MeshData,
        polygon: u32,
        s: DVec2,
        target: (&[u32], DVec2),
        max_cones: usize,
        mut seen: impl FnMut(usize),
        go_on: impl Fn(DVec2, DVec2) -> bool,
    ) -> Result<bool, TooManyCones> {
        if mesh.tiles.len() != 1 {
            // Through `dyn` callbacks: one copy of the several-tile sweep for every caller
            // that does not tell the two apart (the index's build, tests).
            let seen: &mut dyn FnMut(usize) = &mut seen;
            let go_on: &dyn Fn(DVec2, DVec2) -> bool = &go_on;
            return self.sweep_on_tiles(mesh, polygon, s, target, max_cones, seen, go_on);
        }
        self.sweep_one_tile(mesh, polygon, s, target, max_cones, seen, go_on)
    }

    /// [`Sight::sweep_within`] on `mesh`, a mesh of several tiles when `TILED`, else of
    /// one: callers that tell the two apart once (the online query) keep the one-tile
    /// code free of the several-tile sweep, which otherwise changes what the compiler
    /// inlines there (about 2 % more instructions per query), and get a several-tile
    /// sweep of their own with their callbacks inlined (through `dyn` calls, they took
    /// about 4 % of a query's instructions on den520d in tiles of side 32).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub fn sweep_tiled<const TILED: bool>(
        &mut self,
        mesh: &MeshData,
        polygon: u32,
        s: DVec2,
        target: (&[u32], DVec2),
        max_cones: usize,
        seen: impl FnMut(usize),
        go_on: impl Fn(DVec2, DVec2) -> bool,
    ) -> Result<bool, TooManyCones> {
        if TILED {
            self.sweep_on_tiles(mesh, polygon, s, target, max_cones, seen, go_on)
        } else {
            self.sweep_one_tile(mesh, polygon, s, target, max_cones, seen, go_on)
        }
    }

    /// [`Sight::sweep_within`] on a mesh of one tile.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn sweep_one_tile(
        &mut self,
        mesh: &MeshData,
        polygon: u32,
        s: DVec2,
        target: (&[u32], DVec2),
        max_cones: usize,
        seen: impl FnMut(usize),
        go_on: impl Fn(DVec2, DVec2) -> bool,
    ) -> Result<bool, TooManyCones> {
        polygons_at(mesh, &|_| true, polygon, s, &mut self.start_set);
        // The tables as plain slices (one tile): no tile lookups in the loop.
        let one = OneTile {
            ground: mesh.ground.as_single(),
            corners: mesh.corners.as_single(),
            neighbours: mesh.neighbours.as_single(),
            twins: mesh.twin.as_single(),
            poly_start: mesh.poly_start.as_single(),
        };
        self.cones(one, s, target, max_cones, seen, go_on)
    }

    /// [`Sight::sweep_within`] on a mesh of several tiles, out of line, so that the
    /// one-tile sweep inlined into its callers stays as small as before. Each polygon's
    /// tables are read through its tile's chunks; a
    /// cone crosses a seam as any portal (seams are split so that their pieces pair one
    /// to one, with twins across).
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn sweep_on_tiles(
        &mut self,
        mesh: &MeshData,
        polygon: u32,
        s: DVec2,
        target: (&[u32], DVec2),
        max_cones: usize,
        seen: impl FnMut(usize),
        go_on: impl Fn(DVec2, DVec2) -> bool,
    ) -> Result<bool, TooManyCones> {
        polygons_at(mesh, &|_| true, polygon, s, &mut self.start_set);
        let mut dense = std::mem::take(&mut self.dense);
        dense.clear();
        let mut total = 0u32;
        for t in 0..mesh.corners.chunk_count() {
            dense.push(total);
            total += mesh.corners.chunk(t).len() as u32;
        }
        let swept = self.cones(Tiles::new(mesh, &dense), s, target, max_cones, seen, go_on);
        self.dense = dense;
        swept
    }

    /// The sweep from `s` once its start set is known, reading each polygon's tables
    /// through `tables` (entered at each polygon).
    #[inline(always)]
    fn cones<T: PolygonTables>(
        &mut self,
        mut tables: T,
        s: DVec2,
        (target_set, target): (&[u32], DVec2),
        max_cones: usize,
        mut seen: impl FnMut(usize),
        go_on: impl Fn(DVec2, DVec2) -> bool,
    ) -> Result<bool, TooManyCones> {
        self.stack.clear();
        if self.start_set.iter().any(|p| target_set.contains(p)) {
            return Ok(true);
        }
        // Whether the ray from `s` toward the target lies inside the cone from `right`
        // to `left`.
        let aims = !target_set.is_empty();
        let holds_ray = |right: DVec2, left: DVec2| {
            orient(s, right, target) >= 0.0 && orient(s, left, target) <= 0.0
        };
        let mut toward = None;
        for &p in &self.start_set {
            tables.enter(p);
            let here = tables.range(p);
            for slot in here.clone() {
                seen(tables.dense(slot));
                let q = tables.neighbour(slot);
                if q == NO_NEIGHBOUR || tables.twin(slot) == NO_TWIN || self.start_set.contains(&q)
                {
                    continue;
                }
                let (a, b) = (
                    tables.ground(tables.corner(slot)),
                    tables.ground(tables.corner(next_in(here.clone(), slot))),
                );
                if point_near_segment(s, a, b) || orient(s, a, b) <= 0.0 {
                    continue;
                }
                let cone = Cone {
                    polygon: q,
                    entry: tables.twin(slot) as usize,
                    right: a,
                    left: b,
                    on_ray: aims && holds_ray(a, b),
                };
                push(&mut self.stack, cone, &mut toward);
            }
        }
        self.stack.extend(toward);
        let mut cones = 0usize;
        while let Some(cone) = self.stack.pop() {
            cones += 1;
            if cones > max_cones {
                return Err(TooManyCones);
            }
            let p = cone.polygon;
            if cone.on_ray && target_set.contains(&p) {
                return Ok(true);
            }
            let mut toward = None;
            tables.enter(p);
            let here = tables.range(p);
            for slot in here.clone() {
                let point = tables.ground(tables.corner(slot));
                if orient(s, cone.right, point) >= 0.0 && orient(s, cone.left, point) <= 0.0 {
                    seen(tables.dense(slot));
                }
                if slot == cone.entry {
                    continue;
                }
                let q = tables.neighbour(slot);
                if q == NO_NEIGHBOUR || tables.twin(slot) == NO_TWIN {
                    continue;
                }
                let a = point;
                let b = tables.ground(tables.corner(next_in(here.clone(), slot)));
                if orient(s, a, b) <= 0.0 {
                    // An edge facing `s`: the cone came in through the polygon's front.
                    continue;
                }
                // The edge runs from right to left as seen from `s` (corners run
                // counter-clockwise): narrow the cone to it.
                let right = if orient(s, cone.right, a) > 0.0 {
                    a
                } else {
                    cone.right
                };
                let left = if orient(s, cone.left, b) < 0.0 {
                    b
                } else {
                    cone.left
                };
                // Closed, or nothing wanted past the edge.
                if orient(s, right, left) <= 0.0 || !go_on(a, b) {
                    continue;
                }
                let next = Cone {
                    polygon: q,
                    entry: tables.twin(slot) as usize,
                    right,
                    left,
                    on_ray: cone.on_ray && holds_ray(right, left),
                };
                if T::JOIN_CONES && join(&mut self.stack, next, s) {
                    continue;
                }
                push(&mut self.stack, next, &mut toward);
            }
            self.stack.extend(toward);
        }
        Ok(false)
    }
}

/// Pushes `cone` on `stack`, or keeps it in `toward` (to be pushed last, so swept
/// first) when it holds the ray toward the target.
#[inline]
fn push(stack: &mut Vec<Cone>, cone: Cone, toward: &mut Option<Cone>) {
    if cone.on_ray {
        if let Some(other) = toward.replace(cone) {
            stack.push(other);
        }
    } else {
        stack.push(cone);
    }
}

/// How many of the cones last pushed [`join`] looks through.
const JOIN_REACH: usize = 4;

/// Joins `cone` with a cone among the last [`JOIN_REACH`] waiting on `stack` that
/// enters the same polygon and whose window (as seen from `s`) meets or overlaps
/// `cone`'s, their union narrower than a half turn; tells whether it did (then `cone`
/// is not to be pushed). Exact: what a cone does in a convex polygon depends on its
/// window only (every ray of either window reaches the polygon; a vertex of the
/// polygon inside the union is seen, an edge facing away is crossed by the rays of the
/// union within its angle; the entry edges face `s`, so none is crossed back), so one
/// cone of the union does what the two did. Two cones split at a vertex in sight that
/// no wall ends at (a seam's cut point, a T-junction) meet again this way when one
/// crosses into the polygon the other is about to enter.
#[inline]
fn join(stack: &mut [Cone], cone: Cone, s: DVec2) -> bool {
    let reach = stack.len().saturating_sub(JOIN_REACH);
    for other in stack[reach..].iter_mut().rev() {
        if other.polygon != cone.polygon {
            continue;
        }
        // `cone` on the left of `other`, or on its right: the union's two borders.
        let union = if meets(s, *other, cone) {
            (other.right, cone.left)
        } else if meets(s, cone, *other) {
            (cone.right, other.left)
        } else {
            continue;
        };
        if orient(s, union.0, union.1) <= 0.0 {
            continue;
        }
        (other.right, other.left) = union;
        other.on_ray |= cone.on_ray;
        return true;
    }
    false
}

/// Whether window `left_one` begins inside window `right_one` or at its left border
/// (as seen from `s`, both narrower than a half turn) and ends beyond it, so that the
/// two make one window from `right_one`'s right border to `left_one`'s left.
#[inline]
fn meets(s: DVec2, right_one: Cone, left_one: Cone) -> bool {
    orient(s, right_one.right, left_one.right) >= 0.0
        && orient(s, left_one.right, right_one.left) >= 0.0
        && orient(s, right_one.left, left_one.left) >= 0.0
}

/// What a sweep reads of the polygon it is in, by global ids (the polygon's corner
/// slots and vertices, which lie in its tile).
trait PolygonTables {
    /// Whether a cone into a polygon is joined with one waiting to enter it whose window
    /// meets its own ([`join`]).
    const JOIN_CONES: bool;
    /// Makes the tables those of polygon `p`'s tile.
    fn enter(&mut self, p: u32);
    /// The corner slots of polygon `p`.
    fn range(&self, p: u32) -> Range<usize>;
    /// The vertex of corner slot `slot`.
    fn corner(&self, slot: usize) -> u32;
    /// The polygon across the edge of `slot`, or [`NO_NEIGHBOUR`].
    fn neighbour(&self, slot: usize) -> u32;
    /// The slot of the same edge in the neighbour, or [`NO_TWIN`].
    fn twin(&self, slot: usize) -> u32;
    /// The ground point of vertex `v`.
    fn ground(&self, v: u32) -> DVec2;
    /// The dense number of corner slot `slot` (see [`Sight::sweep`]).
    fn dense(&self, slot: usize) -> usize;
}

/// The tables of one tile as plain slices, indexed by local numbers (`id & mask`; for a
/// mesh of one tile the mask keeps every bit, so ids are positions).
#[derive(Clone, Copy)]
struct OneTile<'a> {
    ground: &'a [Vec2],
    corners: &'a [u32],
    neighbours: &'a [u32],
    twins: &'a [u32],
    poly_start: &'a [u32],
}

impl PolygonTables for OneTile<'_> {
    const JOIN_CONES: bool = false;
    #[inline(always)]
    fn enter(&mut self, _: u32) {}
    #[inline(always)]
    fn range(&self, p: u32) -> Range<usize> {
        self.poly_start[p as usize] as usize..self.poly_start[p as usize + 1] as usize
    }
    #[inline(always)]
    fn corner(&self, slot: usize) -> u32 {
        self.corners[slot]
    }
    #[inline(always)]
    fn neighbour(&self, slot: usize) -> u32 {
        self.neighbours[slot]
    }
    #[inline(always)]
    fn twin(&self, slot: usize) -> u32 {
        self.twins[slot]
    }
    #[inline(always)]
    fn ground(&self, v: u32) -> DVec2 {
        self.ground[v as usize].as_dvec2()
    }
    #[inline(always)]
    fn dense(&self, slot: usize) -> usize {
        slot
    }
}

/// The tables of a mesh of several tiles: the chunks of the tile last entered (loaded
/// again only when a cone crosses into another tile), indexed by local numbers.
struct Tiles<'a> {
    mesh: &'a MeshData,
    /// Per tile slot: the dense number of its first corner slot.
    dense: &'a [u32],
    /// The tile entered (`usize::MAX` before the first).
    tile: usize,
    /// The dense number of the entered tile's first corner slot.
    first_slot: usize,
    mask: usize,
    chunks: OneTile<'a>,
}

impl<'a> Tiles<'a> {
    fn new(mesh: &'a MeshData, dense: &'a [u32]) -> Tiles<'a> {
        Tiles {
            mesh,
            dense,
            tile: usize::MAX,
            first_slot: 0,
            mask: ((1u64 << mesh.local_bits) - 1) as usize,
            chunks: OneTile {
                ground: &[],
                corners: &[],
                neighbours: &[],
                twins: &[],
                poly_start: &[],
            },
        }
    }

    /// Loads the chunks of tile slot `tile`.
    #[inline(never)]
    fn load(&mut self, tile: usize) {
        let mesh = self.mesh;
        self.tile = tile;
        self.first_slot = self.dense[tile] as usize;
        self.chunks = OneTile {
            ground: mesh.ground.chunk_or_first(tile),
            corners: mesh.corners.chunk_or_first(tile),
            neighbours: mesh.neighbours.chunk_or_first(tile),
            twins: mesh.twin.chunk_or_first(tile),
            poly_start: mesh.poly_start.chunk_or_first(tile),
        };
    }
}

impl PolygonTables for Tiles<'_> {
    // Seams put lines of vertices in sight that no wall ends at; each splits the cones
    // passing it (den520d in tiles of side 32: 3.2 times the piece's cones).
    const JOIN_CONES: bool = true;
    #[inline(always)]
    fn enter(&mut self, p: u32) {
        let tile = self.mesh.split_id(p).0;
        if tile != self.tile {
            self.load(tile);
        }
    }
    #[inline(always)]
    fn range(&self, p: u32) -> Range<usize> {
        // Entries of `poly_start` are global slot ids.
        self.chunks.range(p & self.mask as u32)
    }
    #[inline(always)]
    fn corner(&self, slot: usize) -> u32 {
        self.chunks.corner(slot & self.mask)
    }
    #[inline(always)]
    fn neighbour(&self, slot: usize) -> u32 {
        self.chunks.neighbour(slot & self.mask)
    }
    #[inline(always)]
    fn twin(&self, slot: usize) -> u32 {
        self.chunks.twin(slot & self.mask)
    }
    #[inline(always)]
    fn ground(&self, v: u32) -> DVec2 {
        self.chunks.ground(v & self.mask as u32)
    }
    #[inline(always)]
    fn dense(&self, slot: usize) -> usize {
        self.first_slot + (slot & self.mask)
    }
}

/// Twice the signed area of triangle `a b c` (positive when counter-clockwise).
#[inline]
fn orient(a: DVec2, b: DVec2, c: DVec2) -> f64 {
    (b - a).perp_dot(c - a)
}
