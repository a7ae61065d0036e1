//! What follows from shared edges: the neighbour across every edge, portals, islands
//! (joined by off-mesh links), and the edge tables of the exact search.

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use crate::alloc::{try_collect, try_filled, try_map_with_capacity};
use crate::error::MeshError;
use crate::mesh::{MeshData, NO_NEIGHBOUR, NO_TWIN, next_in};

/// Islands joined by a link (either direction) become one: a path may lead from one to
/// the other. Union-find over the island numbers, then renumbering from 0. Works on a
/// mesh of one tile: the map of its local islands changes.
pub(super) fn join_islands_by_links(mesh: &mut MeshData) -> Result<(), MeshError> {
    let count = mesh.island_count as usize;
    let mut parent: Vec<u32> = try_collect(count, 0..count as u32, "islands")?;
    fn root(parent: &mut [u32], mut i: u32) -> u32 {
        while parent[i as usize] != i {
            let up = parent[parent[i as usize] as usize];
            parent[i as usize] = up;
            i = up;
        }
        i
    }
    let island = mesh.local_island.as_single();
    for p in 0..mesh.polygon_count() {
        for hop in mesh.links.hops_from(p) {
            let a = root(&mut parent, island[p as usize]);
            let b = root(&mut parent, island[hop.to_polygon as usize]);
            if a != b {
                parent[a.max(b) as usize] = a.min(b);
            }
        }
    }
    let mut renumber = try_filled(count, u32::MAX, "islands")?;
    let mut next = 0u32;
    for i in 0..count as u32 {
        let r = root(&mut parent, i) as usize;
        if renumber[r] == u32::MAX {
            renumber[r] = next;
            next += 1;
        }
    }
    // The polygons keep their local islands; the tile's map sends each to its joined one.
    let map = try_collect(
        count,
        (0..count as u32).map(|i| renumber[root(&mut parent, i) as usize]),
        "islands",
    )?;
    mesh.tiles[0].island_map = map.into();
    mesh.island_count = next;
    Ok(())
}

/// The neighbours across the edges of a mesh, found from shared edges.
pub(super) struct Adjacency {
    /// Per corner slot: the polygon across its edge, or [`NO_NEIGHBOUR`].
    pub neighbours: Vec<u32>,
    /// Per corner slot: the slot of the same edge in that polygon, or [`NO_TWIN`].
    pub twin: Vec<u32>,
}

/// Finds the neighbour across every edge, and the slot of the edge there, with one
/// hash-map pass (expected O(n)).
pub(super) fn link_neighbours(poly_start: &[u32], corners: &[u32]) -> Result<Adjacency, MeshError> {
    struct EdgeUse {
        polygon: u32,
        slot: u32,
        from: u32,
        paired_with: u32,
    }
    let mut neighbours = try_filled(corners.len(), NO_NEIGHBOUR, "edge neighbours")?;
    let mut twin = try_filled(corners.len(), NO_TWIN, "edge twins")?;
    let mut edges: HashMap<(u32, u32), EdgeUse> = try_map_with_capacity(corners.len(), "edges")?;
    for p in 0..poly_start.len() - 1 {
        let (start, end) = (poly_start[p] as usize, poly_start[p + 1] as usize);
        for slot in start..end {
            let (a, b) = (corners[slot], corners[next_in(start..end, slot)]);
            match edges.entry((a.min(b), a.max(b))) {
                Entry::Vacant(e) => {
                    e.insert(EdgeUse {
                        polygon: p as u32,
                        slot: slot as u32,
                        from: a,
                        paired_with: NO_NEIGHBOUR,
                    });
                }
                Entry::Occupied(mut e) => {
                    let first = e.get_mut();
                    if first.paired_with != NO_NEIGHBOUR {
                        return Err(MeshError::NonManifoldEdge {
                            a,
                            b,
                            first: first.polygon,
                            second: first.paired_with,
                            third: p as u32,
                        });
                    }
                    if first.from == a {
                        return Err(MeshError::FoldedEdge {
                            a,
                            b,
                            first: first.polygon,
                            second: p as u32,
                        });
                    }
                    first.paired_with = p as u32;
                    // The first use walks the edge b -> a (it is not folded), this
                    // one a -> b: they are the two sides of one edge.
                    neighbours[first.slot as usize] = p as u32;
                    neighbours[slot] = first.polygon;
                    twin[first.slot as usize] = slot as u32;
                    twin[slot] = first.slot;
                }
            }
        }
    }
    debug_assert!(
        (0..corners.len())
            .all(|slot| twin[slot] == NO_TWIN || twin[twin[slot] as usize] == slot as u32),
        "edge twins are not mutual"
    );
    Ok(Adjacency { neighbours, twin })
}

/// What the exact search reads about walls: per vertex, whether a wall (an edge
/// without a neighbour) ends there, the only places where a shortest path over the whole
/// mesh can bend; per polygon, whether it has at most one neighbouring polygon (a
/// path entering it can only leave the way it came, so it matters only when it holds
/// the goal).
pub(super) struct WallTables {
    pub wall_vertex: Vec<bool>,
    pub dead_end: Vec<bool>,
}

/// Derives the [`WallTables`] from the corners and their twins, in one pass.
pub(super) fn wall_tables(
    poly_start: &[u32],
    corners: &[u32],
    neighbours: &[u32],
    twin: &[u32],
    vertex_count: usize,
) -> Result<WallTables, MeshError> {
    let polygon_count = poly_start.len() - 1;
    let mut wall_vertex = try_filled(vertex_count, false, "wall vertices")?;
    let mut dead_end = try_filled(polygon_count, true, "dead ends")?;
    for (p, dead) in dead_end.iter_mut().enumerate() {
        let (start, end) = (poly_start[p] as usize, poly_start[p + 1] as usize);
        let mut first = NO_NEIGHBOUR;
        for slot in start..end {
            if twin[slot] == NO_TWIN {
                let (a, b) = (corners[slot], corners[next_in(start..end, slot)]);
                wall_vertex[a as usize] = true;
                wall_vertex[b as usize] = true;
                continue;
            }
            let neighbour = neighbours[slot];
            if first == NO_NEIGHBOUR {
                first = neighbour;
            } else if neighbour != first {
                *dead = false;
            }
        }
    }
    Ok(WallTables {
        wall_vertex,
        dead_end,
    })
}

/// Labels connected components with an explicit stack (no recursion).
pub(super) fn find_islands(
    poly_start: &[u32],
    neighbours: &[u32],
) -> Result<(Vec<u32>, u32), MeshError> {
    let polygon_count = poly_start.len() - 1;
    let mut island = try_filled(polygon_count, u32::MAX, "islands")?;
    let mut count = 0u32;
    let mut stack = Vec::new();
    for seed in 0..polygon_count {
        if island[seed] != u32::MAX {
            continue;
        }
        island[seed] = count;
        stack.push(seed as u32);
        while let Some(p) = stack.pop() {
            let range = poly_start[p as usize] as usize..poly_start[p as usize + 1] as usize;
            for &n in &neighbours[range] {
                if n != NO_NEIGHBOUR && island[n as usize] == u32::MAX {
                    island[n as usize] = count;
                    stack
                        .try_reserve(1)
                        .map_err(|_| MeshError::OutOfMemory("islands"))?;
                    stack.push(n);
                }
            }
        }
        count += 1;
    }
    Ok((island, count))
}

/// The portal that corner slot `local` of a polygon (with `corners` and their
/// `neighbours`) belongs to, as `[left, right]` vertices seen walking out through it.
///
/// Two convex polygons meet along one segment, but with collinear corners that segment
/// may be several edges (two polygons of a merged grid sharing a long side). The portal
/// is the whole run of consecutive edges leading to the same neighbour, so that paths may
/// cross it anywhere, not only on the edge the search happened to take. For a wall it is
/// the edge itself.
pub(crate) fn portal_of_slot(corners: &[u32], neighbours: &[u32], local: usize) -> [u32; 2] {
    let n = corners.len();
    let neighbour = neighbours[local];
    let same = |i: usize| neighbour != NO_NEIGHBOUR && neighbours[i] == neighbour;
    // The slots before and after `i`, wrapping round (no division: this runs per slot).
    let before = |i: usize| if i == 0 { n - 1 } else { i - 1 };
    let after = |i: usize| if i + 1 == n { 0 } else { i + 1 };
    let (mut first, mut last) = (local, local);
    let mut run = 1;
    while run < n && same(before(first)) {
        first = before(first);
        run += 1;
    }
    while run < n && same(after(last)) {
        last = after(last);
        run += 1;
    }
    // Corners run counter-clockwise, so the interior is on the left of a -> b; facing
    // out through the edge, b is on the walker's left and a on the right.
    [corners[after(last)], corners[first]]
}

#[cfg(test)]
mod tests {
    use glam::Vec3;

    use crate::mesh::{MeshData, NO_NEIGHBOUR, NO_TWIN};
    use crate::{MeshOptions, NavMesh, TileGrid, UpAxis};

    /// Checks the edge tables against their definitions, found the slow way: the twin
    /// of a slot is the neighbour's slot walking the same edge backwards; a wall vertex
    /// ends an edge without one; a dead end has at most one neighbouring polygon.
    fn check_tables(mesh: &MeshData) {
        let mut wall = vec![false; mesh.vertices.as_single().len()];
        for p in 0..mesh.polygon_count() {
            let mut others = Vec::new();
            for slot in mesh.corner_range(p) {
                let (a, b) = mesh.edge(p, slot);
                let n = mesh.neighbours[slot];
                let expected = if n == NO_NEIGHBOUR {
                    NO_TWIN
                } else {
                    mesh.corner_range(n)
                        .find(|&j| mesh.edge(n, j) == (b, a))
                        .map_or(NO_TWIN, |j| j as u32)
                };
                assert_eq!(mesh.twin[slot], expected, "twin of slot {slot}");
                if expected == NO_TWIN {
                    wall[a as usize] = true;
                    wall[b as usize] = true;
                } else if !others.contains(&n) {
                    others.push(n);
                }
            }
            assert_eq!(mesh.dead_end[p as usize], others.len() <= 1, "polygon {p}");
        }
        assert_eq!(mesh.wall_vertex.as_single(), wall);
    }

    /// A mesh of the cells marked `.` (rows top to bottom), merged into rectangles.
    fn grid_mesh(rows: &[&str]) -> NavMesh {
        let walkable: Vec<bool> = rows
            .iter()
            .flat_map(|r| r.bytes().map(|c| c == b'.'))
            .collect();
        let grid = TileGrid {
            width: rows[0].len() as u32,
            height: rows.len() as u32,
            walkable: &walkable,
            cell_size: 1.0,
            origin: Vec3::ZERO,
        };
        NavMesh::from_grid(&grid, &MeshOptions::default().with_up_axis(UpAxis::Z)).unwrap()
    }

    #[test]
    fn edge_tables_match_their_definitions() {
        // T-junctions (collinear corners), a hole, and the merged copy.
        let mesh = grid_mesh(&["......", ".##.#.", ".#..#.", "......", "#.####"]);
        check_tables(mesh.data());
        if let Some(coarse) = mesh.data().coarse() {
            check_tables(&coarse.mesh);
        }
        // Two columns joined by a cell below: the columns are dead ends, the cell not.
        let mesh = grid_mesh(&[".#.", "..."]);
        check_tables(mesh.data());
        let dead = |p: u32| mesh.data().dead_end[p as usize];
        assert_eq!((0..mesh.polygon_count()).filter(|&p| dead(p)).count(), 2);
        assert_eq!(mesh.polygon_count(), 3);
        // Four triangles round an inner vertex (2), which ends no wall.
        let vertices = [
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(2.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 1.0),
            Vec3::new(0.0, 0.0, 2.0),
            Vec3::new(2.0, 0.0, 2.0),
        ];
        let indices = [0, 1, 2, 1, 4, 2, 4, 3, 2, 3, 0, 2];
        let mesh = NavMesh::from_triangles(&vertices, &indices, &MeshOptions::default()).unwrap();
        check_tables(mesh.data());
        assert!(!mesh.data().wall_vertex[2]);
        assert!(mesh.data().wall_vertex[0]);
        assert!(!mesh.data().dead_end.iter().any(|&d| d));
    }
}
