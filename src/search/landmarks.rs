//! Builds the landmark table of a mesh (`mesh/landmarks`, which explains the bound): the
//! landmark points, chosen farthest-point, and per landmark one flood of the exact
//! search ([`ExactSearch::flood`]) giving each portal its smallest geodesic distance and
//! upper bounds of its ends' distances.

use glam::DVec2;

use crate::alloc::try_filled;
use crate::mesh::landmarks::{
    LANDMARKS, Landmarks, NO_PORTAL, PortalRow, distance_to_segment, portal_ends, round_down,
    round_up,
};
use crate::mesh::{MeshData, NO_NEIGHBOUR, NO_TWIN};
use crate::search::exact::ExactSearch;

/// The landmark table of `mesh`, built on the first call (see `mesh/landmarks`); `None`
/// when the mesh gets none (a world's snapshot, off-mesh links, no portals, or a flood
/// that grew beyond its bound).
pub(crate) fn table(mesh: &MeshData) -> Option<&Landmarks> {
    mesh.landmarks
        .get_or_init(|| build(mesh).map(Box::new))
        .as_deref()
}

/// At most this many flood nodes per corner slot (plus a constant) before giving up.
const FLOOD_NODES_PER_SLOT: usize = 64;

/// The table of `mesh` (see [`table`]).
pub(crate) fn build(mesh: &MeshData) -> Option<Landmarks> {
    if mesh.tiles.len() != 1 || mesh.local_bits != 32 || mesh.links.hop_count() > 0 {
        return None;
    }
    let slots = mesh.corners.total_len();
    let polygons = mesh.polygon_count() as usize;
    let what = "landmark table";
    let mut table = Landmarks::empty(try_filled(slots, NO_PORTAL, what).ok()?);
    // Number the portals, both slots of an edge sharing one.
    let mut ends: Vec<(u32, u32)> = Vec::new();
    for p in 0..polygons as u32 {
        for slot in mesh.corner_range(p) {
            let twin = mesh.twin[slot];
            if mesh.neighbours[slot] == NO_NEIGHBOUR || twin == NO_TWIN {
                continue;
            }
            let shared = table.portal_of_slot[twin as usize];
            table.portal_of_slot[slot] = if shared != NO_PORTAL {
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
    table.rows = try_filled(ends.len(), PortalRow::default(), what).ok()?;
    table.end_hi = try_filled(ends.len(), [[f32::INFINITY; 2]; LANDMARKS], what).ok()?;
    let mut flood = Flood::new(mesh, ends.len())?;
    let islands = island_sizes(mesh);
    let mut covered = vec![false; islands.len()];
    // Per polygon: its distance to the nearest landmark so far.
    let mut nearest = try_filled(polygons, f64::INFINITY, what).ok()?;
    for l in 0..LANDMARKS {
        let open = (0..islands.len())
            .filter(|&i| !covered[i])
            .max_by_key(|&i| (islands[i], std::cmp::Reverse(i)));
        // A polygon of the largest island without a landmark, while such an island is
        // large enough.
        let seed = open
            .filter(|&i| l == 0 || islands[i] * 2 * LANDMARKS >= polygons)
            .and_then(|i| {
                covered[i] = true;
                (0..polygons as u32)
                    .find(|&p| mesh.local_island[p as usize] as usize == i && usable(mesh, p))
            });
        let home = match seed {
            Some(seed) => {
                // The polygon farthest from the seed.
                flood.run(mesh, &table.portal_of_slot, seed)?;
                farthest(flood.polygon_distances(mesh, &table.portal_of_slot))
            }
            None => farthest(
                nearest
                    .iter()
                    .copied()
                    .enumerate()
                    .map(|(p, d)| (p as u32, d)),
            ),
        };
        let Some(home) = home.filter(|&p| usable(mesh, p)) else {
            break;
        };
        let point = centroid(mesh, home);
        flood.run(mesh, &table.portal_of_slot, home)?;
        for (portal, row) in table.rows.iter_mut().enumerate() {
            let (lo, (a, b)) = (flood.lo[portal], ends[portal]);
            let [ha, hb] = flood.end_hi[portal];
            let length = mesh.ground[a as usize]
                .as_dvec2()
                .distance(mesh.ground[b as usize].as_dvec2());
            let hi = (ha + length).min(hb + length).min((ha + hb + length) / 2.0);
            row[l] = if lo.is_finite() { round_down(lo) } else { 0.0 };
            row[LANDMARKS + l] = round_up(hi);
        }
        for (ends, &[ha, hb]) in table.end_hi.iter_mut().zip(&flood.end_hi) {
            ends[l] = [round_up(ha), round_up(hb)];
        }
        for (p, d) in flood.polygon_distances(mesh, &table.portal_of_slot) {
            nearest[p as usize] = nearest[p as usize].min(d);
        }
        table.points.push((home, point));
    }
    if table.points.is_empty() {
        return None;
    }
    for row in &mut table.rows {
        // Columns of missing landmarks give no bound.
        for l in table.points.len()..LANDMARKS {
            row[l] = 0.0;
            row[LANDMARKS + l] = f32::INFINITY;
        }
    }
    table.set_slack();
    Some(table)
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
    fn run(&mut self, mesh: &MeshData, portal_of_slot: &[u32], home: u32) -> Option<()> {
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

    /// Per polygon: the smallest distance of its portals (0 for the home polygon,
    /// infinite where none was reached).
    fn polygon_distances<'a>(
        &'a self,
        mesh: &'a MeshData,
        portal_of_slot: &'a [u32],
    ) -> impl Iterator<Item = (u32, f64)> + 'a {
        (0..mesh.polygon_count()).map(move |p| {
            if p == self.home {
                return (p, 0.0);
            }
            let d = mesh
                .corner_range(p)
                .map(|slot| portal_of_slot[slot])
                .filter(|&portal| portal != NO_PORTAL)
                .map(|portal| self.lo[portal as usize])
                .fold(f64::INFINITY, f64::min);
            (p, d)
        })
    }
}

/// The number of polygons of each island.
fn island_sizes(mesh: &MeshData) -> Vec<usize> {
    let mut sizes = vec![0usize; mesh.island_count as usize];
    for p in 0..mesh.polygon_count() {
        if let Some(size) = sizes.get_mut(mesh.local_island[p as usize] as usize) {
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
    /// heuristic"). A mesh of several tiles (a world's snapshot), with off-mesh links or
    /// without portals gets none; its searches use the straight-line estimates alone.
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
