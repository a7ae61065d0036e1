//! A coarser copy of a mesh for the exact mode: neighbouring polygons merged
//! greedily while the union stays convex (the Hertel-Mehlhorn idea: remove a shared
//! edge when both of its ends stay convex corners). The interval search of the exact
//! mode expands one node per polygon it crosses, so fewer, larger polygons mean fewer
//! nodes; the exact shortest path does not depend on how the walkable region is cut.
//!
//! The default mode searches it too (`query/merged.rs`): A* over the merged polygons
//! finds a corridor, and a second A* over the mesh's own polygons, kept inside it, gives
//! the path in the mesh's ids.
//!
//! The copy has its own (default) flags and areas and no off-mesh links: it is used only
//! for queries whose filter admits every polygon of the mesh (and, in the default mode,
//! prices every area the same, on a mesh without links), where none of that matters.
//! Built once per mesh, on the first such query, and shared by all threads. Memory: the
//! merged mesh's tables plus one `u32` per original polygon (`of_original`).

use std::ops::Index;
use std::sync::Arc;

use glam::{DVec2, Vec2};

use super::build::{self, Extras, MeshOptions, PolygonSizes};
use super::{MeshData, NO_NEIGHBOUR, Tiled};

/// Merged polygons get at most this many corners: an expansion visits every edge of its
/// polygon, so huge polygons would trade node count for work per node.
pub(crate) const MAX_CORNERS: usize = 12;

/// The merged mesh and where each original polygon went. A world's snapshot composes
/// its copy from its tiles' copies, stitched like the tiles themselves: its ids are
/// element ids of the world (`tile << local_bits | local`).
pub(crate) struct CoarseMesh {
    /// The merged polygons (shared: a tile's copy is a mesh of the world's coarse layer).
    pub mesh: Arc<MeshData>,
    /// Per original polygon: the merged polygon holding it.
    pub of_original: Tiled<u32>,
}

impl MeshData {
    /// The merged copy of this mesh, made on the first call; `None` if merging left
    /// nothing to gain or the copy could not be built (the exact mode then searches
    /// this mesh itself). A mesh of several tiles has none unless its assembler set one
    /// (a world's snapshot has its tiles' copies stitched together).
    pub(crate) fn coarse(&self) -> Option<&CoarseMesh> {
        self.coarse.get_or_init(|| build_coarse(self)).as_deref()
    }
}

/// The merged copy of `mesh`, or `None` if merging leaves nothing to gain or the copy
/// could not be built.
pub(crate) fn build_coarse(mesh: &MeshData) -> Option<Box<CoarseMesh>> {
    if mesh.tiles.len() != 1 {
        // A mesh assembled from tiles gets its copy composed from the tiles' own copies
        // by whoever assembles it; without one the exact mode searches the mesh itself.
        return None;
    }
    let (indices, sizes, of_original) = merge(mesh, |_, _| true);
    if sizes.len() == mesh.polygon_count() as usize {
        return None;
    }
    let mut options = MeshOptions::default().with_up_axis(mesh.up);
    options.weld_vertices = false;
    options.allow_degenerate_connectors = true;
    let coarse = build::build(
        mesh.vertices.as_single(),
        &indices,
        PolygonSizes::Listed(&sizes),
        &options,
        &Extras::default(),
    )
    .ok()?;
    Some(Box::new(CoarseMesh {
        mesh: Arc::new(coarse),
        of_original: Tiled::single(of_original),
    }))
}

/// Whether polygon `p` has an area (counter-clockwise, positive): degenerate connectors
/// have none, and stay as they are.
fn is_solid(mesh: &MeshData, p: u32) -> bool {
    has_area(&mesh.corners[mesh.corner_range(p)], &mesh.ground)
}

/// Whether the polygon of `corners` (with `ground` positions) has a positive area.
fn has_area<G: Index<usize, Output = Vec2> + ?Sized>(corners: &[u32], ground: &G) -> bool {
    let point = |v: u32| ground[v as usize].as_dvec2();
    let n = corners.len();
    (0..n)
        .map(|i| point(corners[i]).perp_dot(point(corners[(i + 1) % n])))
        .sum::<f64>()
        > 0.0
}

/// Whether merging leaves a mesh of one tile as it is (so that it has no merged copy):
/// no two neighbouring polygons have a convex union. The first merge of [`merge`]
/// joins two of the polygons themselves, so this is exact, and much cheaper than
/// merging. Takes the mesh's tables as plain slices.
pub(crate) fn merges_nothing(
    poly_start: &[u32],
    corners: &[u32],
    neighbours: &[u32],
    twin: &[u32],
    ground: &[Vec2],
) -> bool {
    let point = |v: u32| ground[v as usize].as_dvec2();
    let range = |p: u32| poly_start[p as usize] as usize..poly_start[p as usize + 1] as usize;
    for p in 0..(poly_start.len() - 1) as u32 {
        let here = range(p);
        for slot in here.clone() {
            let q = neighbours[slot];
            if q == NO_NEIGHBOUR || q < p {
                continue;
            }
            let there = range(q);
            let j = twin[slot] as usize - there.start;
            let (a_cycle, b_cycle) = (&corners[here.clone()], &corners[there]);
            // The union test first: it refuses most pairs, and costs less than the areas.
            if unites_convex(a_cycle, b_cycle, slot - here.start, j, &point)
                && has_area(a_cycle, ground)
                && has_area(b_cycle, ground)
            {
                return false;
            }
        }
    }
    true
}

/// Greedy merging: the corners and sizes of the merged polygons, and the merged polygon
/// of each original one. Two neighbouring polygons `p` and `q` are merged only when
/// `joinable(p, q)` holds (the tile cutter keeps areas and flags apart with it).
pub(super) fn merge(
    mesh: &MeshData,
    joinable: impl Fn(u32, u32) -> bool,
) -> (Vec<u32>, Vec<u32>, Vec<u32>) {
    let all: Vec<u32> = (0..mesh.polygon_count()).collect();
    merge_some(mesh, &all, joinable)
}

/// [`merge`] of the polygons `members` (ascending) alone: only edges between two of
/// them are removed. The merged polygon of each member, in the order of `members`.
pub(super) fn merge_some(
    mesh: &MeshData,
    members: &[u32],
    joinable: impl Fn(u32, u32) -> bool,
) -> (Vec<u32>, Vec<u32>, Vec<u32>) {
    let count = members.len();
    // Per polygon of the mesh: its place in `members`, or `u32::MAX`.
    let mut place = vec![u32::MAX; mesh.polygon_count() as usize];
    for (i, &p) in (0u32..).zip(members) {
        place[p as usize] = i;
    }
    let point = |v: u32| mesh.ground[v as usize].as_dvec2();
    let mut cycles: Vec<Vec<u32>> = members
        .iter()
        .map(|&p| mesh.corners[mesh.corner_range(p)].to_vec())
        .collect();
    let solid: Vec<bool> = members.iter().map(|&p| is_solid(mesh, p)).collect();
    let mut group: Vec<u32> = (0..count as u32).collect();
    let find = |group: &mut Vec<u32>, mut p: u32| {
        while group[p as usize] != p {
            let up = group[group[p as usize] as usize];
            group[p as usize] = up;
            p = up;
        }
        p
    };
    // Longest shared edges first: removing them leaves the short ones as the borders
    // of the merged polygons.
    let mut shared: Vec<(f64, u32, usize)> = Vec::with_capacity(
        members
            .iter()
            .map(|&p| mesh.corner_range(p).len())
            .sum::<usize>()
            / 2,
    );
    for (i, &p) in (0u32..).zip(members) {
        let range = mesh.corner_range(p);
        for slot in range.clone() {
            let q = mesh.neighbours[slot];
            if q == NO_NEIGHBOUR || q < p || place[q as usize] == u32::MAX {
                continue;
            }
            if !solid[i as usize] || !solid[place[q as usize] as usize] || !joinable(p, q) {
                continue;
            }
            let (a, b) = mesh.edge(p, slot);
            let length = point(a).distance_squared(point(b));
            shared.push((length, i, slot));
        }
    }
    shared.sort_unstable_by(|a, b| b.0.total_cmp(&a.0));
    for &(_, i, slot) in &shared {
        let p = members[i as usize];
        let j = place[mesh.neighbours[slot] as usize];
        let (gp, gq) = (find(&mut group, i), find(&mut group, j));
        if gp == gq {
            continue;
        }
        let (a, b) = mesh.edge(p, slot);
        if let Some(union) = convex_union(&cycles[gp as usize], &cycles[gq as usize], a, b, &point)
        {
            cycles[gp as usize] = union;
            cycles[gq as usize] = Vec::new();
            group[gq as usize] = gp;
        }
    }
    let mut merged_id = vec![u32::MAX; count];
    let mut indices = Vec::with_capacity(cycles.iter().map(Vec::len).sum());
    let mut sizes = Vec::new();
    for i in 0..count {
        if find(&mut group, i as u32) == i as u32 {
            merged_id[i] = sizes.len() as u32;
            indices.extend_from_slice(&cycles[i]);
            sizes.push(cycles[i].len() as u32);
        }
    }
    let of_member = (0..count as u32)
        .map(|i| merged_id[find(&mut group, i) as usize])
        .collect();
    (indices, sizes, of_member)
}

/// The union of counter-clockwise convex polygons `a_cycle` (with edge `a -> b`) and
/// `b_cycle` (with edge `b -> a`), if they share only that edge, it stays convex at
/// both ends, and it has at most [`MAX_CORNERS`] corners.
fn convex_union(
    a_cycle: &[u32],
    b_cycle: &[u32],
    a: u32,
    b: u32,
    point: &impl Fn(u32) -> DVec2,
) -> Option<Vec<u32>> {
    let (n, m) = (a_cycle.len(), b_cycle.len());
    if n + m - 2 > MAX_CORNERS {
        return None;
    }
    let i = (0..n).find(|&i| a_cycle[i] == a && a_cycle[(i + 1) % n] == b)?;
    let j = (0..m).find(|&j| b_cycle[j] == b && b_cycle[(j + 1) % m] == a)?;
    if !unites_convex(a_cycle, b_cycle, i, j, point) {
        return None;
    }
    // a_cycle from b round to a, then b_cycle strictly between a and b.
    let mut union = Vec::with_capacity(n + m - 2);
    union.extend((0..n).map(|k| a_cycle[(i + 1 + k) % n]));
    union.extend((0..m - 2).map(|k| b_cycle[(j + 2 + k) % m]));
    Some(union)
}

/// Whether [`convex_union`] joins `a_cycle` and `b_cycle` over the edge from corner `i`
/// of `a_cycle`, corner `j` of `b_cycle` being the same edge walked the other way: the
/// union has at most [`MAX_CORNERS`] corners, turns left (or goes straight on) at
/// both ends of the edge, and the cycles share no other corner.
fn unites_convex(
    a_cycle: &[u32],
    b_cycle: &[u32],
    i: usize,
    j: usize,
    point: &impl Fn(u32) -> DVec2,
) -> bool {
    let (n, m) = (a_cycle.len(), b_cycle.len());
    if n + m - 2 > MAX_CORNERS {
        return false;
    }
    let (a, b) = (a_cycle[i], b_cycle[j]);
    let left_turn = |p: u32, v: u32, q: u32| {
        let (p, v, q) = (point(p), point(v), point(q));
        (v - p).perp_dot(q - v) >= 0.0
    };
    // Corner `k` of a cycle of `len` corners, for `k < 2 * len` (no division: loading
    // a mesh tries every pair of neighbours).
    let at = |cycle: &[u32], k: usize| cycle[if k >= cycle.len() { k - cycle.len() } else { k }];
    // At a: from a_cycle's corner before a to b_cycle's corner after a.
    let before_a = at(a_cycle, i + n - 1);
    let after_a = at(b_cycle, j + 2);
    // At b: from b_cycle's corner before b to a_cycle's corner after b.
    let before_b = at(b_cycle, j + m - 1);
    let after_b = at(a_cycle, i + 2);
    // The turns first: they refuse most pairs, and cost less than the shared corners.
    left_turn(before_a, a, after_a)
        && left_turn(before_b, b, after_b)
        && a_cycle.iter().filter(|v| b_cycle.contains(v)).count() == 2
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::Ordering::Relaxed;

    use glam::Vec3;

    use crate::{MeshOptions, NavMesh};

    /// A 4 x 3 grid of squares, each cut into two triangles.
    fn triangulated_grid() -> NavMesh {
        let (cols, rows) = (4u32, 3u32);
        let vertices: Vec<Vec3> = (0..=rows)
            .flat_map(|z| (0..=cols).map(move |x| Vec3::new(x as f32, 0.0, z as f32)))
            .collect();
        let at = |x: u32, z: u32| z * (cols + 1) + x;
        let mut indices = Vec::new();
        for z in 0..rows {
            for x in 0..cols {
                indices.extend([at(x, z), at(x + 1, z), at(x + 1, z + 1)]);
                indices.extend([at(x, z), at(x + 1, z + 1), at(x, z + 1)]);
            }
        }
        NavMesh::from_triangles(&vertices, &indices, &MeshOptions::default()).unwrap()
    }

    #[test]
    fn merges_triangles_into_fewer_convex_polygons_covering_the_same_ground() {
        let mesh = triangulated_grid();
        let data = mesh.data();
        let coarse = data.coarse().expect("a triangulated grid merges");
        let merged = coarse.mesh.polygon_count();
        assert!(merged < 24 / 2 + 1, "24 triangles became {merged} polygons");
        // Same area, and each triangle's centre lies in its merged polygon.
        let area = |m: &crate::mesh::MeshData, p: u32| {
            let c = &m.corners[m.corner_range(p)];
            let n = c.len();
            (0..n)
                .map(|i| m.ground[c[i] as usize].perp_dot(m.ground[c[(i + 1) % n] as usize]))
                .sum::<f32>()
                / 2.0
        };
        let total: f32 = (0..merged).map(|p| area(&coarse.mesh, p)).sum();
        assert!((total - 12.0).abs() < 1e-4, "merged area {total}");
        for p in 0..data.polygon_count() {
            let centre = data.corners[data.corner_range(p)]
                .iter()
                .map(|&v| data.vertices[v as usize])
                .sum::<Vec3>()
                / 3.0;
            let q = coarse.of_original[p as usize];
            let closest = coarse.mesh.closest_point_on_polygon(q, centre);
            assert!(closest.distance(centre) < 1e-5, "triangle {p} not in {q}");
        }
        // Merged polygons keep at most MAX_CORNERS corners and stay one island.
        assert!((0..merged).all(|p| coarse.mesh.corner_range(p).len() <= super::MAX_CORNERS));
        assert_eq!(coarse.mesh.island_count, 1);
    }

    #[test]
    fn a_loaded_mesh_has_the_saved_merged_copy_at_once() {
        let mesh = triangulated_grid();
        let loaded = NavMesh::from_navstar_bytes(&mesh.to_bytes().unwrap()).unwrap();
        let built = mesh.data().coarse().expect("a triangulated grid merges");
        let saved = loaded.data().coarse.get().expect("set by the loader");
        let saved = saved.as_deref().expect("a copy");
        assert_eq!(saved.of_original.as_single(), built.of_original.as_single());
        let (a, b) = (&saved.mesh, &built.mesh);
        let one = |m: &'static str, x: &[u32], y: &[u32]| assert_eq!(x, y, "{m}");
        one(
            "poly_start",
            a.poly_start.as_single(),
            b.poly_start.as_single(),
        );
        one("corners", a.corners.as_single(), b.corners.as_single());
        one(
            "neighbours",
            a.neighbours.as_single(),
            b.neighbours.as_single(),
        );
        one("twin", a.twin.as_single(), b.twin.as_single());
        assert_eq!(a.portals.as_single(), b.portals.as_single());
        let islands = |m: &crate::mesh::MeshData| {
            (0..m.polygon_count())
                .map(|p| m.island(p))
                .collect::<Vec<_>>()
        };
        assert_eq!((islands(a), a.island_count), (islands(b), b.island_count));
        assert_eq!(a.wall_vertex.as_single(), b.wall_vertex.as_single());
        assert_eq!(a.dead_end.as_single(), b.dead_end.as_single());
        assert_eq!(
            (a.areas.as_single(), a.bounds),
            (b.areas.as_single(), b.bounds)
        );
        assert_eq!(a.tiles[0].index.polygons, b.tiles[0].index.polygons);
        assert!(
            a.flags
                .iter()
                .zip(b.flags.iter())
                .all(|(x, y)| x.load(Relaxed) == y.load(Relaxed))
        );
        // A mesh whose polygons do not merge loads knowing it has no copy.
        let grid = crate::TileGrid {
            width: 3,
            height: 2,
            walkable: &[true, false, true, true, true, true],
            cell_size: 1.0,
            origin: Vec3::ZERO,
        };
        let mesh = NavMesh::from_grid(&grid, &MeshOptions::default()).unwrap();
        let loaded = NavMesh::from_navstar_bytes(&mesh.to_bytes().unwrap()).unwrap();
        assert!(matches!(loaded.data().coarse.get(), Some(None)));
        assert!(mesh.data().coarse().is_none());
    }

    #[test]
    fn a_mesh_that_cannot_merge_has_no_copy() {
        // Two triangles whose union is not convex (an arrow head).
        let vertices = [
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(2.0, 0.0, 1.0),
            Vec3::new(0.0, 0.0, 2.0),
            Vec3::new(0.5, 0.0, 1.0),
        ];
        let mesh = NavMesh::from_triangles(&vertices, &[0, 1, 3, 3, 1, 2], &MeshOptions::default())
            .unwrap();
        assert!(mesh.data().coarse().is_none());
    }
}
