//! The pieces of every layer joined into one set of triangles (within each layer, the
//! partition has already made points closer than the tolerance one). Layers are eroded and
//! triangulated apart, so the points where their pieces meet along a seam (an edge
//! between two layers) come out of two computations and may differ by rounding, and a
//! point of one side may have no partner on the other. Here the points on each seam
//! within a rounding tolerance of each other become one (the mesh builder joins
//! triangles along shared vertex pairs only), and a triangle edge along a seam with a
//! point of the other side strictly inside it is split there, so that both sides of a
//! seam list the same points.

use std::collections::HashMap;

use glam::DVec2;

use crate::mesh::partition::{CLOSE_POINTS, Pieces};

/// How close (relative to the largest coordinate) two points of a seam must be to
/// become one: the partition's tolerance for the points of one layer.
const SEAM_TOLERANCE: f64 = CLOSE_POINTS;

/// Joins the pieces of all layers along `seams` (each given by its ground ends and the
/// polygons on either side).
pub(super) fn join(parts: Vec<Pieces>, seams: &[((DVec2, DVec2), [u32; 2])]) -> Pieces {
    let mut all = Pieces {
        points: Vec::new(),
        triangles: Vec::new(),
        owner: Vec::new(),
    };
    for part in parts {
        let base = all.points.len();
        all.points.extend(part.points);
        all.triangles
            .extend(part.triangles.iter().map(|t| t.map(|v| v + base)));
        all.owner.extend(part.owner);
    }
    if seams.is_empty() || all.points.is_empty() {
        return all;
    }
    let scale = all
        .points
        .iter()
        .map(|q| q.abs().max_element())
        .fold(1.0, f64::max);
    let tol = SEAM_TOLERANCE * scale;
    // The points of each polygon's pieces: a seam joins only the points of the two
    // polygons along it (other levels may pass over or under it in the ground plane).
    let mut points_of: HashMap<u32, Vec<usize>> = HashMap::new();
    for (triangle, &owner) in all.triangles.iter().zip(&all.owner) {
        points_of
            .entry(owner)
            .or_default()
            .extend_from_slice(triangle);
    }
    // The points of each seam: position along it (0 at `a`, 1 at `b`) and index.
    let on_seam: Vec<Vec<(f64, usize)>> = seams
        .iter()
        .map(|&((a, b), polygons)| {
            let along = b - a;
            let length2 = along.length_squared();
            let mut found: Vec<(f64, usize)> = polygons
                .iter()
                .filter_map(|p| points_of.get(p))
                .flatten()
                .filter_map(|&i| {
                    let q = all.points[i];
                    let t = if length2 > 0.0 {
                        ((q - a).dot(along) / length2).clamp(0.0, 1.0)
                    } else {
                        0.0
                    };
                    (q.distance(a + along * t) <= tol).then_some((t, i))
                })
                .collect();
            found.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
            found.dedup_by_key(|x| x.1);
            found
        })
        .collect();
    // Points of a seam within the tolerance of each other become one.
    let mut root: Vec<usize> = (0..all.points.len()).collect();
    let find = |root: &mut Vec<usize>, mut i: usize| {
        while root[i] != i {
            root[i] = root[root[i]];
            i = root[i];
        }
        i
    };
    for found in &on_seam {
        for pair in found.windows(2) {
            let (p, q) = (pair[0].1, pair[1].1);
            if all.points[p].distance(all.points[q]) <= tol {
                let (p, q) = (find(&mut root, p), find(&mut root, q));
                if p != q {
                    root[p.max(q)] = p.min(q);
                }
            }
        }
    }
    // Per seam, its distinct points in order; per point, its seams and place on them.
    let mut seams_of: HashMap<usize, Vec<(usize, f64)>> = HashMap::new();
    let mut along: Vec<Vec<(f64, usize)>> = Vec::with_capacity(seams.len());
    for (s, found) in on_seam.iter().enumerate() {
        let mut points: Vec<(f64, usize)> = found
            .iter()
            .map(|&(t, i)| (t, find(&mut root, i)))
            .collect();
        points.sort_by(|x, y| x.0.total_cmp(&y.0));
        let mut seen = Vec::new();
        points.retain(|&(_, i)| {
            let new = !seen.contains(&i);
            seen.push(i);
            new
        });
        for &(t, i) in &points {
            seams_of.entry(i).or_default().push((s, t));
        }
        along.push(points);
    }
    let mut work: Vec<([usize; 3], u32)> = Vec::with_capacity(all.triangles.len());
    for (triangle, &owner) in all.triangles.iter().zip(&all.owner) {
        let t = triangle.map(|v| find(&mut root, v));
        if t[0] != t[1] && t[1] != t[2] && t[2] != t[0] {
            work.push((t, owner));
        }
    }
    let (mut triangles, mut owner) = (Vec::new(), Vec::new());
    while let Some((t, o)) = work.pop() {
        match split_point(&t, &seams_of, &along) {
            Some((k, w)) => {
                let (u, v, opposite) = (t[k], t[(k + 1) % 3], t[(k + 2) % 3]);
                work.push(([u, w, opposite], o));
                work.push(([w, v, opposite], o));
            }
            None => {
                triangles.push(t);
                owner.push(o);
            }
        }
    }
    // Points merged away stay in the list, unused.
    Pieces {
        points: all.points,
        triangles,
        owner,
    }
}

/// An edge `k` of `triangle` (from corner `k` to the next) lying on a seam with a
/// point `w` of that seam strictly inside it.
fn split_point(
    triangle: &[usize; 3],
    seams_of: &HashMap<usize, Vec<(usize, f64)>>,
    along: &[Vec<(f64, usize)>],
) -> Option<(usize, usize)> {
    for k in 0..3 {
        let (u, v) = (triangle[k], triangle[(k + 1) % 3]);
        let (Some(at_u), Some(at_v)) = (seams_of.get(&u), seams_of.get(&v)) else {
            continue;
        };
        for &(s, tu) in at_u {
            let Some(&(_, tv)) = at_v.iter().find(|&&(seam, _)| seam == s) else {
                continue;
            };
            let (lo, hi) = (tu.min(tv), tu.max(tv));
            if let Some(&(_, w)) = along[s]
                .iter()
                .find(|&&(t, w)| t > lo && t < hi && w != u && w != v)
            {
                return Some((k, w));
            }
        }
    }
    None
}
