//! The landmark ("differential") heuristic's table: per portal and landmark point `L`,
//! the smallest geodesic distance `lo_L` from `L` to a point of the portal and an upper
//! bound `hi_L` of the largest; per vertex an upper bound of its distance. From these a
//! search gets a lower bound of the length still to go from any point of a portal to the
//! goal. The distances are measured by floods of the exact search (built in
//! `search/landmarks`, which fills this table; the mesh layer only stores it and does
//! the arithmetic).
//!
//! **Why it is a lower bound.** `d` is the shortest length over the mesh in the ground
//! plane (every polygon admitted, no off-mesh links): a metric, so for a point `x` of
//! portal `X` and the goal `g`, `d(x, g) >= d(L, g) - d(L, x)` and `d(x, g) >= d(L, x) -
//! d(L, g)`. With `lo_L(X) <= d(L, x) <= hi_L(X)` and `lo_L(g) <= d(L, g) <= hi_L(g)`,
//! `d(x, g) >= max(lo_L(g) - hi_L(X), lo_L(X) - hi_L(g))`. For the goal (in polygon `G`,
//! convex): a way from `L` outside `G` enters `G` last through a portal `p` of `G`, so
//! `d(L, g) >= min_p (lo_L(p) + |g, p|)`; and `d(L, g) <= d(L, e) + |e g|` for every
//! end `e` of a portal of `G`. For a portal `[a, b]`, every point is within `t` of `a`
//! and `|ab| - t` of `b` along it, so `hi_L = min(h_a + |ab|, h_b + |ab|, (h_a + h_b +
//! |ab|) / 2)` with `h_a`, `h_b` upper bounds of its ends' distances *as points of the
//! portal*: the searches connect polygons only through edges, so a vertex where
//! polygons touch only at a corner is as far as the way round (`d` is the length of the
//! shortest path crossing from polygon to polygon through edges).
//!
//! **What keeps it valid.** Closing polygons (flags), filters and area costs >= 1 (scaled
//! by the smallest cost) only make a query's paths longer than `d`. Off-mesh links would
//! make them shorter: a mesh with links gets no table (its searches use the
//! straight-line estimates alone), nor does a mesh without portals. A mesh's geometry
//! never changes (a carved or re-tiled mesh is a new mesh with a table of its own). A
//! world's snapshot has the table its world built (`World::prepare_landmarks`) or kept
//! while the world's ground lies within the ground it was measured on (`carry.rs`:
//! removals, carving, and additions of ground it knows). New ground (a tile the table
//! never measured) keeps it too, with every bound capped for the goal by the goal's
//! distance to that ground ([`Landmarks::new_ground`]; see `carry.rs` for why).
//!
//! **Cost.** `16 * LANDMARKS` bytes per portal (half of it read only for a goal) and 4
//! per corner slot (see [`Landmarks::bytes`]); built by one exact flood per landmark (and
//! one per island that gets a landmark) on the first search that uses it, or by
//! [`crate::NavMesh::prepare_landmarks`].

#[cfg(test)]
mod admissible_tests;
mod carry;
#[cfg(test)]
mod tests;

use std::sync::Arc;

use glam::DVec2;

pub(crate) use carry::UnknownChunks;

use crate::mesh::{MeshData, Tiled};

/// The number of landmarks per table.
pub(crate) const LANDMARKS: usize = 8;

/// No portal (a wall slot).
pub(crate) const NO_PORTAL: u32 = u32::MAX;

/// Relative allowance for rounding (the distances are measured in `f64`, stored in
/// `f32`, and searches add `f32` lengths), times the longest distance in the table.
pub(crate) const ROUNDING: f64 = 1e-5;

/// One portal's distances: `lo` then `hi` per landmark (one cache line).
pub(crate) type PortalRow = [f32; 2 * LANDMARKS];

/// The landmark table of one mesh.
pub(crate) struct Landmarks {
    /// Per corner slot: its portal's index (both slots of a portal share it),
    /// [`NO_PORTAL`] for a wall, or [`Landmarks::unknown`] where the table knows
    /// nothing (a tile of a world changed after the table was built). One chunk per
    /// tile, as the mesh's own per-slot tables.
    pub(crate) portal_of_slot: Tiled<u32>,
    /// Per portal: `lo_L` (0 where `L` does not reach it) then `hi_L` (infinite there).
    /// The last row is [`Landmarks::unknown`]'s: 0 and infinite throughout.
    pub(crate) rows: Arc<[PortalRow]>,
    /// Per portal and landmark: upper bounds of the distances of its two ends as points
    /// of the portal (a vertex where polygons touch only at a corner has a distance per
    /// side), in the order of the portal's lower slot; infinite where unknown. Read only
    /// when a goal's bounds are made.
    pub(crate) end_hi: Arc<[[[f32; 2]; LANDMARKS]]>,
    /// Per landmark: its polygon and point (ground plane); fewer than [`LANDMARKS`] on
    /// tiny meshes (the missing ones' columns give no bound). The polygon is
    /// [`NO_HOME`] once its tile changed.
    pub(crate) points: Vec<(u32, DVec2)>,
    /// The absolute allowance subtracted from every bound.
    pub(crate) slack: f32,
    /// Ground-plane boxes (low and high corners) holding all the ground the table was
    /// not measured on (tiles of a world added after the build): a path that touches
    /// such ground is at least as long as the goal's distance to its box, which caps
    /// every bound towards that goal (`carry.rs`). Empty for a table of the mesh as it
    /// is.
    pub(crate) new_ground: Arc<[[DVec2; 2]]>,
    /// With new ground: the portals with a row on the border of the tiles without rows
    /// (which hold all new ground), and their ends (ground plane). A path that touches
    /// new ground and ends in a polygon with rows leaves the tiles without rows last
    /// through one of them, so its length is at least the bound from one of them to
    /// the goal (`carry.rs`); empty when there is no new ground, or more than
    /// [`MAX_BORDER`] of them (the boxes alone cap the bounds then).
    pub(crate) border: Arc<[(u32, [DVec2; 2])]>,
}

/// The most border portals a table with new ground looks at per goal (see
/// [`Landmarks::border`]).
pub(crate) const MAX_BORDER: usize = 4096;

/// A landmark whose polygon is gone: no polygon is its home.
pub(crate) const NO_HOME: u32 = u32::MAX;

/// What a search towards one goal needs from a table: per landmark bounds of the goal's
/// distance, and the allowance.
#[derive(Debug, Clone, Copy)]
pub(crate) struct GoalBounds {
    lo: [f32; LANDMARKS],
    hi: [f32; LANDMARKS],
    slack: f32,
    /// No bound exceeds this: the goal's distance to the nearest box of
    /// [`Landmarks::new_ground`] (infinite when there is none).
    cap: f32,
}

impl Landmarks {
    /// The portal number of the row that bounds nothing (0 and infinite for every
    /// landmark): slots of tiles that changed after the table was built point to it.
    #[inline(always)]
    pub(crate) fn unknown(&self) -> u32 {
        self.rows.len() as u32 - 1
    }

    /// The bytes the table holds.
    pub(crate) fn bytes(&self) -> usize {
        4 * self.portal_of_slot.total_len()
            + std::mem::size_of::<PortalRow>() * self.rows.len()
            + std::mem::size_of::<[[f32; 2]; LANDMARKS]>() * self.end_hi.len()
            + std::mem::size_of::<(u32, DVec2)>() * self.points.len()
    }

    /// The portal of corner slot `slot` ([`NO_PORTAL`] for a wall).
    #[inline(always)]
    pub(crate) fn slot_node(&self, slot: usize) -> u32 {
        self.portal_of_slot[slot]
    }

    /// The portals of the corner slots of tile slot `tile`, indexed by the slot's
    /// position in its tile ([`crate::mesh::TileView::local`]): what
    /// [`Landmarks::slot_node`] reads, looked up once per search node. Empty for a tile
    /// the table has no chunk for.
    #[inline(always)]
    pub(crate) fn slot_nodes_of_tile(&self, tile: usize) -> &[u32] {
        self.portal_of_slot.chunk_or_first(tile)
    }

    /// The node of the arrival point of link hop `hop`: none (a mesh with links gets no
    /// table).
    #[inline(always)]
    pub(crate) fn hop_node(&self, _hop: u32) -> u32 {
        NO_PORTAL
    }

    /// The bounds of goal `point` (ground plane), which lies in every polygon of
    /// `polygons` of `mesh` (a goal on an edge or vertex may be in several; each gives
    /// bounds, the tightest are kept).
    pub(crate) fn goal(
        &self,
        mesh: &MeshData,
        polygons: impl IntoIterator<Item = u32>,
        point: DVec2,
    ) -> GoalBounds {
        let mut lo = [0.0f32; LANDMARKS];
        let mut hi = [f32::INFINITY; LANDMARKS];
        let ground = |v: u32| mesh.ground[v as usize].as_dvec2();
        let unknown = self.unknown();
        // Whether every polygon of the goal has rows (its tile kept them); read only
        // for the cap, so only where there is new ground.
        let capped = !self.new_ground.is_empty();
        let mut with_rows = true;
        for polygon in polygons {
            with_rows &= !capped
                || mesh
                    .corner_range(polygon)
                    .all(|slot| self.portal_of_slot[slot] != unknown);
            for (l, &(home, at)) in self.points.iter().enumerate() {
                let (mut low, mut high) = (f64::INFINITY, f64::INFINITY);
                if home == polygon {
                    low = 0.0;
                    high = at.distance(point);
                }
                for slot in mesh.corner_range(polygon) {
                    let portal = self.portal_of_slot[slot];
                    if portal == NO_PORTAL {
                        continue;
                    }
                    let (a, b) = portal_ends(mesh, polygon, slot);
                    let (pa, pb) = (ground(a), ground(b));
                    let [ha, hb] = self.end_hi[portal as usize][l];
                    let h = (f64::from(ha) + pa.distance(point))
                        .min(f64::from(hb) + pb.distance(point));
                    high = high.min(h);
                    let gap = distance_to_segment(point, pa, pb);
                    low = low.min(f64::from(self.rows[portal as usize][l]) + gap);
                }
                if low.is_finite() {
                    lo[l] = lo[l].max(round_down(low));
                }
                hi[l] = hi[l].min(round_up(high));
            }
        }
        let mut goal = GoalBounds {
            lo,
            hi,
            slack: self.slack,
            cap: f32::INFINITY,
        };
        if capped {
            goal.cap = self.cap(with_rows, point, &goal);
        }
        goal
    }

    /// The length below which no path that touches new ground reaches goal `point`
    /// (whose bounds are `goal` without a cap), less the allowance: at least its
    /// distance to the nearest box of new ground, and the smallest bound from a border
    /// portal (see `carry.rs`); infinite (no cap) for a goal not all of whose polygons
    /// have rows (`with_rows`), whose bounds are below its distance to its polygon's
    /// edges.
    fn cap(&self, with_rows: bool, point: DVec2, goal: &GoalBounds) -> f32 {
        let boxes = self
            .new_ground
            .iter()
            .map(|&[low, high]| point.clamp(low, high).distance(point))
            .fold(f64::INFINITY, f64::min);
        if !with_rows {
            // A goal in a polygon without rows has no bound larger than its distance to
            // its polygon's edges, which every path from outside crosses.
            return f32::INFINITY;
        }
        let border = if !self.border.is_empty() {
            self.border
                .iter()
                .map(|&(portal, [a, b])| {
                    let bound = f64::from(self.remaining_uncapped(goal, portal));
                    bound.max(distance_to_segment(point, a, b))
                })
                .fold(f64::INFINITY, f64::min)
        } else {
            0.0
        };
        (round_down(boxes.max(border)) - self.slack).max(0.0)
    }

    /// A lower bound of the length of any path from a point of portal `portal` to the
    /// goal of `goal`; 0 for [`NO_PORTAL`].
    #[inline(always)]
    pub(crate) fn remaining(&self, goal: &GoalBounds, portal: u32) -> f32 {
        if portal == NO_PORTAL {
            return 0.0;
        }
        smaller(self.remaining_uncapped(goal, portal), goal.cap)
    }

    /// [`Landmarks::remaining`] before the goal's cap.
    #[inline(always)]
    fn remaining_uncapped(&self, goal: &GoalBounds, portal: u32) -> f32 {
        let row = &self.rows[portal as usize];
        let (lo, hi) = row.split_at(LANDMARKS);
        let mut h = 0.0f32;
        for l in 0..LANDMARKS {
            h = larger(larger(h, goal.lo[l] - hi[l]), lo[l] - goal.hi[l]);
        }
        larger(h - goal.slack, 0.0)
    }
}

/// The larger of `a` and `b`, `b` when either is NaN (never here: the table's bounds
/// are finite or infinite, and `lo - hi` never meets two infinities). One `maxss`,
/// where `f32::max` checks for NaN first: [`Landmarks::remaining`] runs once per
/// search node, and `f32::max` cost about 5 % of the exact search's instructions.
#[inline(always)]
fn larger(a: f32, b: f32) -> f32 {
    if a > b { a } else { b }
}

/// The smaller of `a` and `b` (one `minss`, as [`larger`]).
#[inline(always)]
fn smaller(a: f32, b: f32) -> f32 {
    if a < b { a } else { b }
}

/// The vertices of the portal of corner slot `slot` of `polygon` in the order of the
/// portal's lower slot (the order of [`Landmarks::end_hi`]).
#[inline]
pub(crate) fn portal_ends(mesh: &MeshData, polygon: u32, slot: usize) -> (u32, u32) {
    let (u, w) = mesh.edge(polygon, slot);
    if (mesh.twin[slot] as usize) < slot {
        (w, u)
    } else {
        (u, w)
    }
}

/// The distance from `p` to the segment `a..b`.
#[inline]
pub(crate) fn distance_to_segment(p: DVec2, a: DVec2, b: DVec2) -> f64 {
    let d = b - a;
    let len2 = d.length_squared();
    let t = if len2 > 0.0 {
        ((p - a).dot(d) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    p.distance(a + d * t)
}

/// `x` as an `f32` at most `x` (within a step).
#[inline]
pub(crate) fn round_down(x: f64) -> f32 {
    let y = x as f32;
    if f64::from(y) > x {
        // At least one step down (`f32::next_down` needs a newer Rust).
        y - (y.abs() * f32::EPSILON).max(f32::MIN_POSITIVE)
    } else {
        y
    }
}

/// `x` as an `f32` at least `x` (within a step).
#[inline]
pub(crate) fn round_up(x: f64) -> f32 {
    let y = x as f32;
    if f64::from(y) < x {
        y + (y.abs() * f32::EPSILON).max(f32::MIN_POSITIVE)
    } else {
        y
    }
}

impl super::NavMesh {
    /// The bytes held by the mesh's landmark tables (its own and its merged copy's): 0
    /// until built (by the first path search of a query with landmarks on, or by
    /// [`NavMesh::prepare_landmarks`](crate::NavMesh::prepare_landmarks)) or when the
    /// mesh gets none (off-mesh links, no portals). About `16 * 8` bytes per portal and
    /// 4 per corner.
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshOptions, NavMesh};
    ///
    /// let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// // Three unit squares in a row: two portals.
    /// let vertices = [v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0), v(3.0, 0.0), v(3.0, 1.0), v(2.0, 1.0), v(1.0, 1.0), v(0.0, 1.0)];
    /// let indices = [0, 1, 6, 7, /**/ 1, 2, 5, 6, /**/ 2, 3, 4, 5];
    /// let mesh = NavMesh::from_polygons(&vertices, &indices, &[4; 3], &MeshOptions::default())?;
    /// assert_eq!(mesh.landmark_bytes(), 0);
    /// assert!(mesh.prepare_landmarks());
    /// // Two portals with 8 landmark bounds each (two numbers), and the lookup tables.
    /// assert!(mesh.landmark_bytes() >= 2 * 8 * 8);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn landmark_bytes(&self) -> usize {
        let of = |data: &MeshData| {
            data.landmarks
                .get()
                .and_then(|t| t.as_deref())
                .map_or(0, Landmarks::bytes)
        };
        let coarse = self
            .data()
            .coarse
            .get()
            .and_then(|c| c.as_deref())
            .map_or(0, |c| of(&c.mesh));
        of(self.data()) + coarse
    }
}
