//! Recast-style merged polygons for the Detour comparison: neighbouring polygons of a
//! navstar mesh joined greedily while the union stays convex and has at most
//! [`MAX_MERGED_CORNERS`] corners, the longest shared edge first, as Recast's
//! `rcBuildPolyMesh` merges the triangles of each region (there per region and with
//! strict convexity after contour simplification; here over the whole mesh, and a
//! straight angle counts as convex because grid meshes keep collinear corners that
//! neighbours share). Only polygons of the same area and flags merge, and only across
//! exactly one shared edge.

use std::collections::{BinaryHeap, HashMap};

use navstar::glam::DVec2;
use navstar::{MeshError, MeshOptions, NavMesh};

/// Most corners of a merged polygon: Detour's `DT_VERTS_PER_POLYGON` and RecastDemo's
/// `maxVertsPerPoly`.
pub const MAX_MERGED_CORNERS: usize = 6;

/// The corner lists of the merged polygons of `mesh` (counter-clockwise in the ground
/// plane, as navstar's), at most `max_corners` each.
pub fn merged_polygons(mesh: &NavMesh, max_corners: usize) -> Vec<Vec<u32>> {
    let up = mesh.up_axis();
    let ground: Vec<DVec2> = mesh
        .vertices()
        .iter()
        .map(|&v| up.ground(v).as_dvec2())
        .collect();
    let mut polys: Vec<Option<Vec<u32>>> = (0..mesh.polygon_count())
        .map(|p| Some(mesh.polygon_vertices(p).to_vec()))
        .collect();
    let kind: Vec<(u8, u32)> = (0..mesh.polygon_count())
        .map(|p| (mesh.polygon_area(p), mesh.polygon_flags(p)))
        .collect();
    // Directed edge (a, b) -> the polygon having it.
    let mut owner: HashMap<(u32, u32), u32> = HashMap::new();
    for (p, corners) in polys.iter().enumerate() {
        let corners = corners.as_ref().expect("all alive");
        for i in 0..corners.len() {
            owner.insert((corners[i], corners[(i + 1) % corners.len()]), p as u32);
        }
    }
    // Candidate merges by squared shared-edge length, longest first. Entries go stale
    // as polygons merge; each is checked again when popped.
    let mut heap: BinaryHeap<(u64, u32, u32)> = BinaryHeap::new();
    let push_candidates = |p: u32,
                           polys: &[Option<Vec<u32>>],
                           owner: &HashMap<(u32, u32), u32>,
                           heap: &mut BinaryHeap<(u64, u32, u32)>| {
        let corners = polys[p as usize].as_ref().expect("alive");
        for i in 0..corners.len() {
            let (a, b) = (corners[i], corners[(i + 1) % corners.len()]);
            if let Some(&q) = owner.get(&(b, a))
                && q != p
                && kind[q as usize] == kind[p as usize]
                && union(
                    corners,
                    polys[q as usize].as_ref().expect("alive"),
                    &ground,
                    max_corners,
                )
                .is_some()
            {
                let length = ground[a as usize].distance_squared(ground[b as usize]);
                heap.push((length.to_bits(), p.min(q), p.max(q)));
            }
        }
    };
    for p in 0..polys.len() as u32 {
        push_candidates(p, &polys, &owner, &mut heap);
    }
    while let Some((_, p, q)) = heap.pop() {
        let (Some(a), Some(b)) = (&polys[p as usize], &polys[q as usize]) else {
            continue;
        };
        let Some(merged) = union(a, b, &ground, max_corners) else {
            continue;
        };
        for i in 0..merged.len() {
            owner.insert((merged[i], merged[(i + 1) % merged.len()]), p);
        }
        polys[p as usize] = Some(merged);
        polys[q as usize] = None;
        push_candidates(p, &polys, &owner, &mut heap);
    }
    polys.into_iter().flatten().collect()
}

/// The convex union of polygons `a` and `b` when they share exactly one edge and the
/// union has at most `max_corners` corners; `None` otherwise.
fn union(a: &[u32], b: &[u32], ground: &[DVec2], max_corners: usize) -> Option<Vec<u32>> {
    let (na, nb) = (a.len(), b.len());
    if na + nb - 2 > max_corners {
        return None;
    }
    let mut shared = None;
    for i in 0..na {
        let (x, y) = (a[i], a[(i + 1) % na]);
        for j in 0..nb {
            if b[j] == y && b[(j + 1) % nb] == x {
                if shared.is_some() {
                    return None;
                }
                shared = Some((i, j));
            }
        }
    }
    let (i, j) = shared?;
    // a's corners from the end of the shared edge round to its start, then b's corners
    // strictly between the shared edge's ends.
    let mut out: Vec<u32> = (1..=na).map(|k| a[(i + k) % na]).collect();
    out.extend((2..nb).map(|k| b[(j + k) % nb]));
    let n = out.len();
    for k in 0..n {
        let (p, c, q) = (
            ground[out[(k + n - 1) % n] as usize],
            ground[out[k] as usize],
            ground[out[(k + 1) % n] as usize],
        );
        let (u, v) = (c - p, q - c);
        let cross = u.perp_dot(v);
        // A right turn, or a reversal, breaks convexity.
        if cross < 0.0 || (cross == 0.0 && u.dot(v) <= 0.0) {
            return None;
        }
    }
    Some(out)
}

/// A navstar mesh of the merged polygons of `mesh` (same vertices, up axis; default
/// areas and flags): what Detour gets for its "merged polygons" row.
///
/// # Errors
/// The builder's error if the merged polygons do not make a valid mesh.
pub fn merged_mesh(mesh: &NavMesh, max_corners: usize) -> Result<NavMesh, MeshError> {
    let polygons = merged_polygons(mesh, max_corners);
    let sizes: Vec<u32> = polygons.iter().map(|p| p.len() as u32).collect();
    let indices: Vec<u32> = polygons.into_iter().flatten().collect();
    let mut options = MeshOptions::default().with_up_axis(mesh.up_axis());
    options.weld_vertices = false;
    NavMesh::from_polygons(mesh.vertices(), &indices, &sizes, &options)
}

#[cfg(test)]
mod tests {
    use super::*;
    use navstar::glam::Vec3;

    /// An n x n grid of unit squares, each cut into two triangles (y up).
    fn triangulated_grid(n: u32) -> NavMesh {
        let mut vertices = Vec::new();
        for z in 0..=n {
            for x in 0..=n {
                vertices.push(Vec3::new(x as f32, 0.0, z as f32));
            }
        }
        let id = |x: u32, z: u32| z * (n + 1) + x;
        let mut indices = Vec::new();
        for z in 0..n {
            for x in 0..n {
                indices.extend([id(x, z), id(x + 1, z), id(x + 1, z + 1)]);
                indices.extend([id(x, z), id(x + 1, z + 1), id(x, z + 1)]);
            }
        }
        let sizes = vec![3; indices.len() / 3];
        NavMesh::from_polygons(&vertices, &indices, &sizes, &MeshOptions::default()).unwrap()
    }

    #[test]
    fn merges_triangles_into_convex_polygons_of_at_most_six_corners() {
        let mesh = triangulated_grid(6);
        let merged = merged_mesh(&mesh, MAX_MERGED_CORNERS).unwrap();
        // Each pair of triangles makes a square at least (72 triangles).
        assert!(merged.polygon_count() <= 36, "{}", merged.polygon_count());
        let area = |m: &NavMesh| -> f64 {
            (0..m.polygon_count())
                .map(|p| {
                    let c: Vec<DVec2> = m
                        .polygon_vertices(p)
                        .iter()
                        .map(|&v| m.up_axis().ground(m.vertices()[v as usize]).as_dvec2())
                        .collect();
                    for k in 0..c.len() {
                        let (a, b, d) = (c[k], c[(k + 1) % c.len()], c[(k + 2) % c.len()]);
                        assert!((b - a).perp_dot(d - b) >= 0.0, "not convex: {c:?}");
                    }
                    (1..c.len() - 1)
                        .map(|i| (c[i] - c[0]).perp_dot(c[i + 1] - c[0]) / 2.0)
                        .sum::<f64>()
                })
                .sum()
        };
        for p in 0..merged.polygon_count() {
            assert!(merged.polygon_vertices(p).len() <= MAX_MERGED_CORNERS);
        }
        assert!((area(&merged) - area(&mesh)).abs() < 1e-9);
    }

    #[test]
    fn refuses_a_concave_union() {
        // An L of three unit squares: the two arms merge with the corner square only one
        // at a time (the whole L is not convex).
        let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
        let vertices = [
            v(0.0, 0.0),
            v(1.0, 0.0),
            v(2.0, 0.0),
            v(0.0, 1.0),
            v(1.0, 1.0),
            v(2.0, 1.0),
            v(0.0, 2.0),
            v(1.0, 2.0),
        ];
        let indices = [0, 1, 4, 3, 1, 2, 5, 4, 3, 4, 7, 6];
        let mesh = NavMesh::from_polygons(&vertices, &indices, &[4, 4, 4], &MeshOptions::default())
            .unwrap();
        assert_eq!(merged_polygons(&mesh, MAX_MERGED_CORNERS).len(), 2);
        assert_eq!(
            merged_polygons(&mesh, 4).len(),
            3,
            "a merged pair has 6 corners"
        );
    }

    #[test]
    fn detour_counts_the_polygons_it_visits_on_both_meshes() {
        use crate::detour::{DetourMesh, DetourQuery};
        let mesh = triangulated_grid(8);
        let merged = merged_mesh(&mesh, MAX_MERGED_CORNERS).unwrap();
        let (start, goal) = ([0.2, 0.0, 0.3], [7.7, 0.0, 7.6]);
        let mut counts = Vec::new();
        for m in [&mesh, &merged] {
            let detour = DetourMesh::from_navmesh(m, &Default::default()).unwrap();
            let mut query = DetourQuery::new(&detour).unwrap();
            assert_eq!(query.last_node_count(), 0);
            let path = query.find_path(start, goal).unwrap();
            let end = path[path.len() - 1];
            assert!((end[0] - goal[0]).abs() < 1e-2 && (end[2] - goal[2]).abs() < 1e-2);
            let count = query.last_node_count();
            assert!(count >= 2 && count <= m.polygon_count() as usize, "{count}");
            counts.push(count);
        }
        assert!(counts[1] < counts[0], "{counts:?}");
    }
}
