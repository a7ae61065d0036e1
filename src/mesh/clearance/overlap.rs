//! Which original polygons lie under each joined polygon (`joined.rs`), when the joined
//! polygons are cut anew rather than merged from the eroded pieces: every eroded piece
//! lies in one original polygon, so the originals under a joined polygon are those of
//! the pieces it overlaps. Both are convex, so two of them overlap unless an edge of one
//! has the other wholly on its outer side (separating axes); pieces that only touch it
//! within a hair count as under it too, which can only lengthen the list (the corridor
//! walk of `query/eroded_corridor.rs` needs every original a path in the joined polygon
//! can be in, and takes the deepest holder of a point among them).

use glam::DVec2;

use crate::mesh::MeshData;

/// Per joined polygon of `joined`, the originals under it (each once, ascending): the
/// originals `of_original` of the pieces of `pieces` that overlap it and whose class
/// (`piece_class`) is its own (`joined_class`).
pub(super) fn originals_under(
    joined: &MeshData,
    joined_class: &[u32],
    pieces: &MeshData,
    piece_class: &[u32],
    of_original: &[u32],
) -> Vec<Vec<u32>> {
    let polygon = |mesh: &MeshData, p: u32| -> Vec<DVec2> {
        mesh.corners[mesh.corner_range(p)]
            .iter()
            .map(|&v| mesh.ground[v as usize].as_dvec2())
            .collect()
    };
    let boxes: Vec<(DVec2, DVec2)> = (0..pieces.polygon_count())
        .map(|k| bounds(&polygon(pieces, k)))
        .collect();
    let (lo, hi) = boxes.iter().fold(
        (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY)),
        |(lo, hi), b| (lo.min(b.0), hi.max(b.1)),
    );
    let scale = lo.abs().max(hi.abs()).max_element().max(1.0);
    let size = (hi - lo).max(DVec2::splat(1e-9));
    let across = (boxes.len() as f64).sqrt().clamp(1.0, 1024.0);
    let cell = size.max_element() / across;
    let columns = (size.x / cell).ceil() as usize + 1;
    let rows = (size.y / cell).ceil() as usize + 1;
    let cell_of = |q: DVec2| {
        let at = (q - lo) / cell;
        (
            (at.x.max(0.0) as usize).min(columns - 1),
            (at.y.max(0.0) as usize).min(rows - 1),
        )
    };
    let mut buckets: Vec<Vec<u32>> = vec![Vec::new(); columns * rows];
    for (k, &(a, b)) in (0u32..).zip(&boxes) {
        let ((c0, r0), (c1, r1)) = (cell_of(a), cell_of(b));
        for row in r0..=r1 {
            for column in c0..=c1 {
                buckets[row * columns + column].push(k);
            }
        }
    }
    let tolerance = 1e-9 * scale;
    let mut seen = vec![u32::MAX; boxes.len()];
    (0..joined.polygon_count())
        .map(|j| {
            let shape = polygon(joined, j);
            let (a, b) = bounds(&shape);
            let ((c0, r0), (c1, r1)) = (cell_of(a), cell_of(b));
            let mut under = Vec::new();
            for row in r0..=r1 {
                for column in c0..=c1 {
                    for &k in &buckets[row * columns + column] {
                        if seen[k as usize] == j
                            || piece_class[k as usize] != joined_class[j as usize]
                        {
                            continue;
                        }
                        seen[k as usize] = j;
                        if overlap(&shape, &polygon(pieces, k), tolerance) {
                            under.push(of_original[k as usize]);
                        }
                    }
                }
            }
            under.sort_unstable();
            under.dedup();
            under
        })
        .collect()
}

/// The corners of `points`' bounding box.
fn bounds(points: &[DVec2]) -> (DVec2, DVec2) {
    points.iter().fold(
        (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY)),
        |(lo, hi), &q| (lo.min(q), hi.max(q)),
    )
}

/// Whether the convex counter-clockwise polygons `a` and `b` overlap or come within
/// `tolerance` of each other.
pub(super) fn overlap(a: &[DVec2], b: &[DVec2], tolerance: f64) -> bool {
    !separates(a, b, tolerance) && !separates(b, a, tolerance)
}

/// Whether an edge of `a` has all of `b` beyond `tolerance` on its outer side.
fn separates(a: &[DVec2], b: &[DVec2], tolerance: f64) -> bool {
    (0..a.len()).any(|i| {
        let (p, q) = (a[i], a[(i + 1) % a.len()]);
        let edge = q - p;
        let length = edge.length();
        length > 0.0
            && b.iter()
                .all(|&x| edge.perp_dot(x - p) < -tolerance * length)
    })
}

#[cfg(test)]
mod tests {
    use glam::DVec2;

    use super::overlap;

    fn square(x: f64, y: f64, side: f64) -> Vec<DVec2> {
        [(x, y), (x + side, y), (x + side, y + side), (x, y + side)]
            .map(|(x, y)| DVec2::new(x, y))
            .to_vec()
    }

    #[test]
    fn squares_overlap_touch_or_lie_apart() {
        assert!(overlap(&square(0., 0., 2.), &square(1., 1., 2.), 1e-9));
        // Touching along an edge counts (the list may only grow).
        assert!(overlap(&square(0., 0., 1.), &square(1., 0., 1.), 1e-9));
        assert!(!overlap(&square(0., 0., 1.), &square(1.1, 0., 1.), 1e-9));
        // A triangle beside the square's corner, apart only along the diagonal.
        let triangle = [(1.6, 0.5), (2.5, 1.6), (0.5, 2.5)].map(|(x, y)| DVec2::new(x, y));
        assert!(!overlap(&square(0., 0., 1.), &triangle, 1e-9));
        assert!(overlap(&square(0., 0., 1.5), &triangle, 1e-9));
    }
}
