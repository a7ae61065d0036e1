//! The vertices seen from a point: a sweep of view cones through portals. From the
//! polygons whose closed area holds the point, every edge to a further polygon opens a
//! cone (the edge's angle as seen from the point); through each later polygon the cone
//! narrows to the part of the next edge it still sees, and ends when it closes. A
//! vertex of a polygon reached inside the cone (its borders included) is in straight
//! sight. Walls stop cones; the ground is the closed walkable region, so a sight line
//! may graze a corner. The cones form a tree (one per sequence of portals), so a
//! polygon seen round both sides of an obstacle is visited once per side.

use glam::DVec2;

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
    /// cones. `mesh` is a mesh of one tile. Returns whether ground point `target` is
    /// in sight too, when the polygons in `target_set` are all those whose closed area
    /// holds it (empty: no target); the cones toward it go first, and the sweep ends
    /// as soon as it is seen (the vertices seen are then only some of those in sight).
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
        (target_set, target): (&[u32], DVec2),
        max_cones: usize,
        mut seen: impl FnMut(usize),
        go_on: impl Fn(DVec2, DVec2) -> bool,
    ) -> Result<bool, TooManyCones> {
        // The tables as plain slices (one tile): no tile lookups in the loop.
        let (ground, corners) = (mesh.ground.as_single(), mesh.corners.as_single());
        let (neighbours, twins) = (mesh.neighbours.as_single(), mesh.twin.as_single());
        let poly_start = mesh.poly_start.as_single();
        let ground = |v: u32| ground[v as usize].as_dvec2();
        let range = |p: u32| poly_start[p as usize] as usize..poly_start[p as usize + 1] as usize;
        polygons_at(mesh, &|_| true, polygon, s, &mut self.start_set);
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
            let here = range(p);
            for slot in here.clone() {
                seen(slot);
                let q = neighbours[slot];
                if q == NO_NEIGHBOUR || twins[slot] == NO_TWIN || self.start_set.contains(&q) {
                    continue;
                }
                let (a, b) = (
                    ground(corners[slot]),
                    ground(corners[next_in(here.clone(), slot)]),
                );
                if point_near_segment(s, a, b) || orient(s, a, b) <= 0.0 {
                    continue;
                }
                let cone = Cone {
                    polygon: q,
                    entry: twins[slot] as usize,
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
            let here = range(p);
            for slot in here.clone() {
                let point = ground(corners[slot]);
                if orient(s, cone.right, point) >= 0.0 && orient(s, cone.left, point) <= 0.0 {
                    seen(slot);
                }
                if slot == cone.entry {
                    continue;
                }
                let q = neighbours[slot];
                if q == NO_NEIGHBOUR || twins[slot] == NO_TWIN {
                    continue;
                }
                let a = point;
                let b = ground(corners[next_in(here.clone(), slot)]);
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
                    entry: twins[slot] as usize,
                    right,
                    left,
                    on_ray: cone.on_ray && holds_ray(right, left),
                };
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

/// Twice the signed area of triangle `a b c` (positive when counter-clockwise).
#[inline]
fn orient(a: DVec2, b: DVec2, c: DVec2) -> f64 {
    (b - a).perp_dot(c - a)
}
