//! Builds the landmark table of a mesh (`mesh/landmarks`, which explains the bound): the
//! landmark points, chosen farthest-point, and per landmark one flood of the exact
//! search ([`ExactSearch::flood`]) giving each portal its smallest geodesic distance and
//! upper bounds of its ends' distances.

use glam::DVec2;

use crate::alloc::try_filled;
use std::sync::Arc;

use crate::mesh::landmarks::{
    LANDMARKS, Landmarks, NO_PORTAL, PortalRow, ROUNDING, distance_to_segment, portal_ends,
    round_down, round_up,
};
use crate::mesh::{MeshData, NO_NEIGHBOUR, NO_TWIN, Tiled};
use crate::search::exact::ExactSearch;

/// The landmark table of `mesh`, built on the first call for a plain mesh (see
/// `mesh/landmarks`); a world's snapshot has the table its world gave it (see
/// `World::prepare_landmarks`), never one built here on the query path. `None` when the
/// mesh gets none (off-mesh links, no portals, a flood that grew beyond its bound, a
/// snapshot without one).
pub(crate) fn table(mesh: &MeshData) -> Option<&Landmarks> {
    if mesh.tiles.len() != 1 || mesh.local_bits != 32 {
        return mesh.landmarks.get().and_then(|t| t.as_deref());
    }
    mesh.landmarks
        .get_or_init(|| build(mesh).map(Box::new))
        .as_deref()
}

/// At most this many flood nodes per corner slot (plus a constant) before giving up.
const FLOOD_NODES_PER_SLOT: usize = 64;

/// The table of `mesh` (see [`table`]): of a plain mesh or of a world's snapshot (its
/// tiles' slots numbered as the mesh numbers them, one chunk per tile).
pub(crate) fn build(mesh: &MeshData) -> Option<Landmarks> {
    if mesh.links.hop_count() > 0 {
        return None;
    }
    let what = "landmark table";
    // Number the portals, both slots of an edge sharing one.
    let mut chunks: Vec<Vec<u32>> = Vec::new();
    for t in 0..mesh.corners.chunk_count() {
        chunks.push(try_filled(mesh.corners.chunk(t).len(), NO_PORTAL, what).ok()?);
    }
    let at = |slot: usize| {
        let (tile, local) = mesh.split_id(slot as u32);
        (tile, local as usize)
    };
    let mut ends: Vec<(u32, u32)> = Vec::new();
    for p in mesh.polygon_ids() {
        for slot in mesh.corner_range(p) {
            let twin = mesh.twin[slot];
            if mesh.neighbours[slot] == NO_NEIGHBOUR || twin == NO_TWIN {
                continue;
            }
            let (tt, tl) = at(twin as usize);
            let shared = chunks[tt][tl];
            let (st, sl) = at(slot);
            chunks[st][sl] = if shared != NO_PORTAL {
                shared
            } else {
                ends.push(mesh.edge(p, slot));
                ends.len() as u32 - 1
            };
        }
    }
    if ends.is_empty() {
        return None;
    }
    let portal_of_slot =
        Tiled::from_chunks(chunks.into_iter().map(Arc::from).collect(), mesh.local_bits);
    // One row more: the row of portals the table knows nothing of.
    let mut rows = try_filled(ends.len() + 1, PortalRow::default(), what).ok()?;
    let mut end_hi = try_filled(ends.len() + 1, [[f32::INFINITY; 2]; LANDMARKS], what).ok()?;
    let mut points = Vec::new();
    let mut flood = Flood::new(mesh, ends.len())?;
    let ids: Vec<u32> = mesh.polygon_ids().collect();
    let islands = island_sizes(mesh);
    let mut covered = vec![false; islands.len()];
    // Per polygon (in the order of `ids`): its distance to the nearest landmark so far.
    let mut nearest = try_filled(ids.len(), f64::INFINITY, what).ok()?;
    for l in 0..LANDMARKS {
        let open = (0..islands.len())
            .filter(|&i| !covered[i])
            .max_by_key(|&i| (islands[i], std::cmp::Reverse(i)));
        // A polygon of the largest island without a landmark, while such an island is
        // large enough.
        let seed = open
            .filter(|&i| l == 0 || islands[i] * 2 * LANDMARKS >= ids.len())
            .and_then(|i| {
                covered[i] = true;
                ids.iter()
                    .copied()
                    .find(|&p| mesh.island(p) as usize == i && usable(mesh, p))
            });
        let home = match seed {
            Some(seed) => {
                // The polygon farthest from the seed.
                flood.run(mesh, &portal_of_slot, seed)?;
                farthest(ids.iter().copied().zip(flood.polygon_distances(
                    mesh,
                    &portal_of_slot,
                    &ids,
                )))
            }
            None => farthest(ids.iter().copied().zip(nearest.iter().copied())),
        };
        let Some(home) = home.filter(|&p| usable(mesh, p)) else {
            break;
        };
        let point = centroid(mesh, home);
        flood.run(mesh, &portal_of_slot, home)?;
        for (portal, row) in rows.iter_mut().take(ends.len()).enumerate() {
            let (lo, (a, b)) = (flood.lo[portal], ends[portal]);
            let [ha, hb] = flood.end_hi[portal];
            let length = mesh.ground[a as usize]
                .as_dvec2()
                .distance(mesh.ground[b as usize].as_dvec2());
            let hi = (ha + length).min(hb + length).min((ha + hb + length) / 2.0);
            row[l] = if lo.is_finite() { round_down(lo) } else { 0.0 };
            row[LANDMARKS + l] = round_up(hi);
        }
        for (ends, &[ha, hb]) in end_hi.iter_mut().zip(&flood.end_hi) {
            ends[l] = [round_up(ha), round_up(hb)];
        }
        for (near, d) in
            nearest
                .iter_mut()
                .zip(flood.polygon_distances(mesh, &portal_of_slot, &ids))
        {
            *near = near.min(d);
        }
        points.push((home, point));
    }
    if points.is_empty() {
        return None;
    }
    for (i, row) in rows.iter_mut().enumerate() {
        // Columns of missing landmarks, and the unknown row, give no bound.
        let from = if i == ends.len() { 0 } else { points.len() };
        for l in from..LANDMARKS {
            row[l] = 0.0;
            row[LANDMARKS + l] = f32::INFINITY;
        }
    }
    let slack = slack_of(&rows, &end_hi);
    Some(Landmarks {
        portal_of_slot,
        rows: Arc::from(rows),
        end_hi: Arc::from(end_hi),
        points,
        slack,
        new_ground: Arc::from([]),
        border: Arc::from([]),
    })
}

/// The allowance for rounding: [`ROUNDING`] times the longest finite distance in the
/// table.
fn slack_of(rows: &[PortalRow], end_hi: &[[[f32; 2]; LANDMARKS]]) -> f32 {
    let longest = rows
        .iter()
        .flat_map(|r| r[LANDMARKS..].iter())
        .chain(end_hi.iter().flatten().flatten())
        .copied()
        .filter(|d| d.is_finite())
        .fold(0.0f32, f32::max);
    (ROUNDING * f64::from(longest)) as f32 + f32::MIN_POSITIVE
}

/// One landmark's flood and the distances read from it.
struct Flood {
    search: ExactSearch,
    /// Per portal: the smallest distance of its points (infinite where not reached).
    lo: Vec<f64>,
    /// Per portal: upper bounds of its ends' distances, as points of the portal, in the
    /// order of [`portal_ends`] (infinite where unknown).
    end_hi: Vec<[f64; 2]>,
    /// The polygon flooded from.
    home: u32,
    max_nodes: usize,
}

impl Flood {
    /// The scratch of floods over `mesh` with `portals` portals; `None` when out of
    /// memory.
    fn new(mesh: &MeshData, portals: usize) -> Option<Flood> {
        let what = "landmark flood";
        Some(Flood {
            search: ExactSearch::new(usize::MAX),
            lo: try_filled(portals, f64::INFINITY, what).ok()?,
            end_hi: try_filled(portals, [f64::INFINITY; 2], what).ok()?,
            home: 0,
            max_nodes: FLOOD_NODES_PER_SLOT.saturating_mul(mesh.corners.total_len()) + 65_536,
        })
    }

    /// Floods from the centroid of polygon `home` (portals numbered by
    /// `portal_of_slot`); `None` when the flood grew too large.
    fn run(&mut self, mesh: &MeshData, portal_of_slot: &Tiled<u32>, home: u32) -> Option<()> {
        let point = centroid(mesh, home);
        self.home = home;
        self.lo.fill(f64::INFINITY);
        self.end_hi.fill([f64::INFINITY; 2]);
        let ground = |v: u32| mesh.ground[v as usize].as_dvec2();
        for slot in mesh.corner_range(home) {
            // The home polygon's portals are seen straight (convex polygon).
            let portal = portal_of_slot[slot];
            if portal != NO_PORTAL {
                let (a, b) = portal_ends(mesh, home, slot);
                let (pa, pb) = (ground(a), ground(b));
                let p = portal as usize;
                self.lo[p] = self.lo[p].min(distance_to_segment(point, pa, pb));
                self.end_hi[p] = [point.distance(pa), point.distance(pb)];
            }
        }
        if !self.search.flood(mesh, point, home, self.max_nodes) {
            return None;
        }
        // Every point `x` of a polygon `P` (its boundary included) is seen along its
        // shortest way by a node entering `P` (the search's completeness: it finds the
        // shortest way to a target anywhere in `P`), whose value there is `g + |r x|`
        // with `r` its root. So for a portal `X` of `P`, `g + |r, X|` minimised over the
        // nodes entering a polygon of `X` is at most the distance of every point of
        // `X`. (A node on `X` itself is not enough: a way may reach a point of `X`
        // through the inside of `P` without crossing `X`.)
        for node in self.search.flooded() {
            let r = node.root_point;
            // Ways into the polygon: to an end of the interval, then straight (the
            // polygon is convex).
            let to_right = node.g + r.distance(node.right);
            let to_left = node.g + r.distance(node.left);
            for slot in mesh.corner_range(node.polygon) {
                let portal = portal_of_slot[slot];
                if portal == NO_PORTAL {
                    continue;
                }
                let p = portal as usize;
                let (a, b) = portal_ends(mesh, node.polygon, slot);
                let (pa, pb) = (ground(a), ground(b));
                let value = node.g + distance_to_segment(r, pa, pb);
                self.lo[p] = self.lo[p].min(value);
                for (end, pv) in self.end_hi[p].iter_mut().zip([pa, pb]) {
                    let via =
                        (to_right + node.right.distance(pv)).min(to_left + node.left.distance(pv));
                    *end = end.min(via);
                }
            }
        }
        Some(())
    }

    /// Per polygon of `ids` (in that order): the smallest distance of its portals (0
    /// for the home polygon, infinite where none was reached).
    fn polygon_distances<'a>(
        &'a self,
        mesh: &'a MeshData,
        portal_of_slot: &'a Tiled<u32>,
        ids: &'a [u32],
    ) -> impl Iterator<Item = f64> + 'a {
        ids.iter().map(move |&p| {
            if p == self.home {
                return 0.0;
            }
            mesh.corner_range(p)
                .map(|slot| portal_of_slot[slot])
                .filter(|&portal| portal != NO_PORTAL)
                .map(|portal| self.lo[portal as usize])
                .fold(f64::INFINITY, f64::min)
        })
    }
}

/// The number of polygons of each island.
fn island_sizes(mesh: &MeshData) -> Vec<usize> {
    let mut sizes = vec![0usize; mesh.island_count as usize];
    for p in mesh.polygon_ids() {
        if let Some(size) = sizes.get_mut(mesh.island(p) as usize) {
            *size += 1;
        }
    }
    sizes
}

/// The polygon with the largest finite distance (the first on ties), if any.
fn farthest(distances: impl Iterator<Item = (u32, f64)>) -> Option<u32> {
    let mut best: Option<(u32, f64)> = None;
    for (p, d) in distances {
        if d.is_finite() && best.is_none_or(|(_, b)| d > b) {
            best = Some((p, d));
        }
    }
    best.map(|(p, _)| p)
}

/// The mean of the corners of `polygon` in the ground plane: strictly inside it when it
/// has an area.
fn centroid(mesh: &MeshData, polygon: u32) -> DVec2 {
    let range = mesh.corner_range(polygon);
    let n = range.len().max(1) as f64;
    range
        .map(|slot| mesh.ground[mesh.corners[slot] as usize].as_dvec2())
        .sum::<DVec2>()
        / n
}

/// Whether a landmark may stand in `polygon`: its centroid keeps clear of its edges (a
/// polygon with an area; a start on an edge would leave that edge's portal unmeasured).
fn usable(mesh: &MeshData, polygon: u32) -> bool {
    let c = centroid(mesh, polygon);
    let ground = |v: u32| mesh.ground[v as usize].as_dvec2();
    let (mut shortest, mut longest) = (f64::INFINITY, 0.0f64);
    for slot in mesh.corner_range(polygon) {
        let (u, w) = mesh.edge(polygon, slot);
        shortest = shortest.min(distance_to_segment(c, ground(u), ground(w)));
        longest = longest.max(ground(u).distance(ground(w)));
    }
    shortest > 1e-6 * longest
}

impl crate::NavMesh {
    /// Builds the mesh's landmark table now, if it has none yet (and the merged copy
    /// the searches use on large meshes, with its own table), and tells whether the
    /// mesh has one. Path searches of queries that use landmarks
    /// ([`crate::Query::set_landmarks`]) build them on their first use otherwise (once
    /// per mesh, shared by every thread, on the thread of that query: call this at load
    /// time to keep the cost off the query path). The table sharpens the estimates of
    /// both path modes with geodesic distances from a few landmark points, and stays
    /// valid under flag changes, filters and area costs (see the README's "Landmark
    /// heuristic"). A mesh with off-mesh links or without portals gets none; its
    /// searches use the straight-line estimates alone. On a world's snapshot this builds
    /// nothing and tells whether the snapshot has tables: a world builds them with
    /// [`crate::World::prepare_landmarks`].
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, MeshOptions, NavMesh};
    ///
    /// let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// // Two unit squares side by side: one portal.
    /// let vertices = [v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0), v(2.0, 1.0), v(1.0, 1.0), v(0.0, 1.0)];
    /// let mesh = NavMesh::from_polygons(&vertices, &[0, 1, 4, 5, 1, 2, 3, 4], &[4, 4], &MeshOptions::default())?;
    /// assert_eq!(mesh.landmark_bytes(), 0);
    /// assert!(mesh.prepare_landmarks());
    /// assert!(mesh.landmark_bytes() > 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn prepare_landmarks(&self) -> bool {
        if let Some(coarse) = self.data().coarse() {
            table(&coarse.mesh);
        }
        table(self.data()).is_some()
    }
}
