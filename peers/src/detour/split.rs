//! Navstar polygons cut into convex pieces of at most [`super::MAX_VERTS_PER_POLYGON`]
//! corners for Detour, with the pieces' neighbours found again from shared edges.

use navstar::NavMesh;
use navstar::glam::DVec2;

use super::NO_NEIGHBOUR;

/// The corner lists and neighbour links of the polygons handed to Detour.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SplitPolygons {
    /// Corner vertex indices of each piece, counter-clockwise in the ground plane.
    pub pieces: Vec<Vec<u32>>,
    /// For each piece and edge (from corner `i` to `i + 1`), the neighbouring piece or
    /// [`NO_NEIGHBOUR`].
    pub neighbours: Vec<Vec<u32>>,
    /// The navstar polygon each piece came from.
    pub source: Vec<u32>,
}

/// Twice the signed area of a polygon given by ground points.
pub(super) fn area2(points: impl Iterator<Item = DVec2> + Clone) -> f64 {
    let first = points.clone().next();
    let mut area = 0.0;
    let mut prev = None;
    for p in points {
        if let Some(q) = prev {
            area += DVec2::perp_dot(q, p);
        }
        prev = Some(p);
    }
    if let (Some(last), Some(first)) = (prev, first) {
        area += DVec2::perp_dot(last, first);
    }
    area
}

/// Cuts a convex polygon (corner indices into `ground`) into convex pieces of at most
/// `max_corners` corners, cutting along diagonals roughly in half each time, and never
/// making a piece of (almost) zero area when a better diagonal exists.
pub fn split_convex(corners: &[u32], ground: &[DVec2], max_corners: usize) -> Vec<Vec<u32>> {
    assert!(max_corners >= 3, "pieces need at least 3 corners");
    let n = corners.len();
    if n <= max_corners {
        return vec![corners.to_vec()];
    }
    let at = |i: usize| corners[i % n];
    let piece = |from: usize, to: usize| -> Vec<u32> { (from..=to).map(at).collect() };
    let area = |piece: &[u32]| area2(piece.iter().map(|&v| ground[v as usize])).abs();
    let scale = corners
        .iter()
        .map(|&v| ground[v as usize])
        .fold((DVec2::MAX, DVec2::MIN), |(lo, hi), p| {
            (lo.min(p), hi.max(p))
        });
    let tolerance = 1e-9 * (scale.1 - scale.0).length_squared();
    let half = n / 2;
    let mut best: Option<(Vec<u32>, Vec<u32>)> = None;
    for start in 0..n {
        let a = piece(start, start + half);
        let b = piece(start + half, start + n);
        let (area_a, area_b) = (area(&a), area(&b));
        if area_a > tolerance && area_b > tolerance {
            best = Some((a, b));
            break;
        }
        if best.is_none() {
            best = Some((a, b));
        }
    }
    let (a, b) = best.expect("a polygon with more than 3 corners has a diagonal");
    let mut out = split_convex(&a, ground, max_corners);
    out.extend(split_convex(&b, ground, max_corners));
    out
}

/// Cuts every polygon of `mesh` into pieces of at most `max_corners` corners (see
/// [`split_convex`]) and links the pieces across shared edges.
pub fn split_mesh(mesh: &NavMesh, max_corners: usize) -> SplitPolygons {
    let up = mesh.up_axis();
    let ground: Vec<DVec2> = mesh
        .vertices()
        .iter()
        .map(|&v| up.ground(v).as_dvec2())
        .collect();
    let mut split = SplitPolygons::default();
    for p in 0..mesh.polygon_count() {
        for piece in split_convex(mesh.polygon_vertices(p), &ground, max_corners) {
            split.pieces.push(piece);
            split.source.push(p);
        }
    }
    // Directed edge (a, b) -> piece. Corner lists of one mesh run the same way, so a
    // shared edge appears as (a, b) in one piece and (b, a) in the other.
    let mut edges = std::collections::HashMap::with_capacity(split.pieces.len() * 4);
    for (i, piece) in split.pieces.iter().enumerate() {
        for j in 0..piece.len() {
            edges.insert((piece[j], piece[(j + 1) % piece.len()]), i as u32);
        }
    }
    for (i, piece) in split.pieces.iter().enumerate() {
        let source = split.source[i];
        let corners = mesh.polygon_vertices(source);
        let links: Vec<Option<u32>> = mesh.polygon_neighbours(source).collect();
        let mut neighbours = Vec::with_capacity(piece.len());
        for j in 0..piece.len() {
            let (a, b) = (piece[j], piece[(j + 1) % piece.len()]);
            // Is (a, b) an edge of the navstar polygon, and if so, what is across it?
            let slot = corners
                .iter()
                .position(|&c| c == a)
                .filter(|&k| corners[(k + 1) % corners.len()] == b);
            let neighbour = match slot {
                // An original edge: follow navstar's link, to the piece of that polygon.
                Some(k) => match links[k] {
                    None => NO_NEIGHBOUR,
                    Some(across) => edges
                        .get(&(b, a))
                        .copied()
                        .filter(|&other| split.source[other as usize] == across)
                        .unwrap_or(NO_NEIGHBOUR),
                },
                // A cut diagonal: the sibling piece on the other side.
                None => edges.get(&(b, a)).copied().unwrap_or(NO_NEIGHBOUR),
            };
            neighbours.push(neighbour);
        }
        split.neighbours.push(neighbours);
    }
    split
}
