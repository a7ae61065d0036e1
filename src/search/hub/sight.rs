//! The vertices seen from a point: a sweep of view cones through portals. From the
//! polygons whose closed area holds the point, every edge to a further polygon opens a
//! cone (the edge's angle as seen from the point); through each later polygon the cone
//! narrows to the part of the next edge it still sees, and ends when it closes. A
//! vertex of a polygon reached inside the cone (its borders included) is in straight
//! sight. Walls stop cones; the ground is the closed walkable region, so a sight line
//! may graze a corner. The cones form a tree (one per sequence of portals), so a
//! polygon seen round both sides of an obstacle is visited once per side.

use std::ops::Range;

use glam::{DVec2, Vec2};

use crate::geometry::point_near_segment;
use crate::mesh::{MeshData, NO_NEIGHBOUR, NO_TWIN, TileView, next_in};
use crate::search::exact::polygons_at;

/// A cone to go on with: the polygon it enters, the corner slot of that polygon it
/// entered by, and its right and left borders (points the borders go through).
#[derive(Debug, Clone, Copy)]
struct Cone {
    polygon: u32,
    entry: usize,
    right: DVec2,
    left: DVec2,
}

/// Scratch of the sweeps (kept between sweeps: no allocation once grown).
#[derive(Debug, Default)]
pub(crate) struct Sight {
    stack: Vec<Cone>,
    start_set: Vec<u32>,
}

/// The sweep gave up: more cones than its limit (a guard against pathological input;
/// callers fall back to a search or refuse to build).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TooManyCones;

impl Sight {
    /// The bytes held.
    pub fn bytes(&self) -> usize {
        self.stack.capacity() * std::mem::size_of::<Cone>() + self.start_set.capacity() * 4
    }

    /// Calls `seen(slot)` for a corner slot of every vertex of `mesh` in straight sight
    /// of ground point `s` (which lies in `polygon`), possibly several times (the slot
    /// names the vertex and the polygon it was seen in); expands at most `max_cones`
    /// cones. `mesh` may have several tiles (slots are global ids). Returns whether ground point `target` is
    /// in sight too, when the polygons in `target_set` are all those whose closed area
    /// holds it (empty: no target).
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
    pub fn sweep_within(
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
        if mesh.tiles.len() == 1 {
            // The tables as plain slices (one tile): no tile lookups in the loop.
            let one = OneTile {
                ground: mesh.ground.as_single(),
                corners: mesh.corners.as_single(),
                neighbours: mesh.neighbours.as_single(),
                twins: mesh.twin.as_single(),
                poly_start: mesh.poly_start.as_single(),
            };
            self.cones(|_| one, s, target, max_cones, seen, go_on)
        } else {
            // Several tiles: each polygon's tables through its tile's view; a cone
            // crosses a seam as any portal (seams are split so that their pieces pair
            // one to one, with twins across).
            self.cones(|p| mesh.tile_view(p), s, target, max_cones, seen, go_on)
        }
    }

    /// The sweep from `s` once its start set is known, reading each polygon's tables
    /// through `view(polygon)`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn cones<V: PolygonTables>(
        &mut self,
        view: impl Fn(u32) -> V,
        s: DVec2,
        (target_set, target): (&[u32], DVec2),
        max_cones: usize,
        mut seen: impl FnMut(usize),
        go_on: impl Fn(DVec2, DVec2) -> bool,
    ) -> Result<bool, TooManyCones> {
        self.stack.clear();
        let mut target_seen = self.start_set.iter().any(|p| target_set.contains(p));
        for &p in &self.start_set {
            let tables = view(p);
            let here = tables.range(p);
            for slot in here.clone() {
                seen(slot);
                let q = tables.neighbour(slot);
                let twin = tables.twin(slot);
                if q == NO_NEIGHBOUR || twin == NO_TWIN || self.start_set.contains(&q) {
                    continue;
                }
                let (a, b) = (
                    tables.ground(tables.corner(slot)),
                    tables.ground(tables.corner(next_in(here.clone(), slot))),
                );
                if point_near_segment(s, a, b) || orient(s, a, b) <= 0.0 {
                    continue;
                }
                self.stack.push(Cone {
                    polygon: q,
                    entry: twin as usize,
                    right: a,
                    left: b,
                });
            }
        }
        let mut cones = 0usize;
        while let Some(cone) = self.stack.pop() {
            cones += 1;
            if cones > max_cones {
                return Err(TooManyCones);
            }
            let p = cone.polygon;
            if !target_seen && target_set.contains(&p) {
                target_seen =
                    orient(s, cone.right, target) >= 0.0 && orient(s, cone.left, target) <= 0.0;
            }
            let tables = view(p);
            let here = tables.range(p);
            for slot in here.clone() {
                let point = tables.ground(tables.corner(slot));
                if orient(s, cone.right, point) >= 0.0 && orient(s, cone.left, point) <= 0.0 {
                    seen(slot);
                }
                if slot == cone.entry {
                    continue;
                }
                let q = tables.neighbour(slot);
                let twin = tables.twin(slot);
                if q == NO_NEIGHBOUR || twin == NO_TWIN {
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
                if orient(s, right, left) > 0.0 && go_on(a, b) {
                    self.stack.push(Cone {
                        polygon: q,
                        entry: twin as usize,
                        right,
                        left,
                    });
                }
            }
        }
        Ok(target_seen)
    }
}

/// What a sweep reads of one polygon, by global ids (the polygon's corner slots and
/// vertices, which lie in its tile).
trait PolygonTables {
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
}

/// The tables of a mesh of one tile, as plain slices (ids are positions).
#[derive(Clone, Copy)]
struct OneTile<'a> {
    ground: &'a [Vec2],
    corners: &'a [u32],
    neighbours: &'a [u32],
    twins: &'a [u32],
    poly_start: &'a [u32],
}

impl PolygonTables for OneTile<'_> {
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
}

impl PolygonTables for TileView<'_> {
    #[inline(always)]
    fn range(&self, p: u32) -> Range<usize> {
        self.corner_range(p)
    }
    #[inline(always)]
    fn corner(&self, slot: usize) -> u32 {
        TileView::corner(self, slot)
    }
    #[inline(always)]
    fn neighbour(&self, slot: usize) -> u32 {
        TileView::neighbour(self, slot)
    }
    #[inline(always)]
    fn twin(&self, slot: usize) -> u32 {
        TileView::twin(self, slot)
    }
    #[inline(always)]
    fn ground(&self, v: u32) -> DVec2 {
        self.point(v).as_dvec2()
    }
}

/// Twice the signed area of triangle `a b c` (positive when counter-clockwise).
#[inline]
fn orient(a: DVec2, b: DVec2, c: DVec2) -> f64 {
    (b - a).perp_dot(c - a)
}
