//! The eroded mesh cut anew for the path searches (`joined.rs`): the pieces of one
//! *class* (one area id on one flat level) are one region, whose boundary (walls, and
//! borders with pieces of other classes) alone is triangulated: not the original
//! polygons' edges, whose corners inside the region (where three or four original
//! polygons meet) no merge of the pieces can remove, so that the merge while convex
//! that follows finds larger polygons.
//!
//! Every class's triangles are checked before they are used: their area must be the
//! class's pieces' area, the sides without a twin as long as the class's boundary (no
//! crack), and every border side must come out as an edge of them with the eroded
//! mesh's own vertices (so that the builder links it to the class beyond). A class that
//! fails keeps its pieces as they are, as do classes of one piece and the pieces of
//! original polygons that are not flat.

use std::collections::{HashMap, HashSet};

use glam::{DVec2, Vec3};
use spade::handles::FixedVertexHandle;
use spade::{ConstrainedDelaunayTriangulation, Point2, Triangulation};

use crate::mesh::partition::{self, PartitionError, Pieces};
use crate::mesh::{MeshData, NO_NEIGHBOUR};

/// Polygons for the first merge of `joined.rs`: the class of each, and the tag that the
/// first merge keeps together.
pub(super) struct Recut {
    /// The eroded mesh's vertices, then the new ones (at their class's height).
    pub vertices: Vec<Vec3>,
    /// Corners, polygon after polygon (counter-clockwise).
    pub indices: Vec<u32>,
    /// Corner count per polygon.
    pub sizes: Vec<u32>,
    /// Per polygon: its class (joined polygons never mix classes).
    pub class: Vec<u32>,
    /// Per class: its area id.
    pub class_area: Vec<u8>,
    /// Per piece of the eroded mesh: its class.
    pub class_of_piece: Vec<u32>,
}

/// A class of pieces: its members, and its height when its level is flat.
struct Class {
    members: Vec<u32>,
    height: Option<f32>,
}

/// The classes of the eroded mesh `pieces`, whose piece `k` lies in original polygon
/// `of_original[k]`, with `level` the height of each piece's flat original (`None` when
/// it is not flat): pieces of one area and heights within a relative 1e-6 form one
/// class; a piece of a polygon that is not flat is a class with the other pieces of its
/// polygon.
fn classes(original: &MeshData, of_original: &[u32], level: &[Option<f32>]) -> Vec<Class> {
    let mut flat: Vec<(u8, f32, u32)> = Vec::new();
    let mut by_polygon: HashMap<u32, Vec<u32>> = HashMap::new();
    for (k, &p) in (0u32..).zip(of_original) {
        match level[k as usize] {
            Some(h) => flat.push((original.areas[p as usize], h, k)),
            None => by_polygon.entry(p).or_default().push(k),
        }
    }
    flat.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)).then(a.2.cmp(&b.2)));
    let mut classes: Vec<Class> = Vec::new();
    let mut first: Option<(u8, f32)> = None;
    for (area, h, k) in flat {
        let same = first.is_some_and(|(a, h0)| {
            a == area && (h - h0).abs() <= 1e-6 * (1.0 + h.abs().max(h0.abs()))
        });
        if !same {
            first = Some((area, h));
            classes.push(Class {
                members: Vec::new(),
                height: Some(h),
            });
        }
        if let Some(class) = classes.last_mut() {
            class.members.push(k);
        }
    }
    let mut rest: Vec<(u32, Vec<u32>)> = by_polygon.into_iter().collect();
    rest.sort_unstable_by_key(|(p, _)| *p);
    classes.extend(rest.into_iter().map(|(_, members)| Class {
        members,
        height: None,
    }));
    classes
}

/// The eroded mesh `pieces` (piece `k` in original polygon `of_original[k]`, `level` the
/// height of its original when flat) cut anew class by class (see the module
/// documentation).
pub(super) fn recut(
    original: &MeshData,
    pieces: &MeshData,
    of_original: &[u32],
    level: &[Option<f32>],
) -> Recut {
    let classes = classes(original, of_original, level);
    let mut class_of = vec![0u32; of_original.len()];
    for (c, class) in (0u32..).zip(&classes) {
        for &k in &class.members {
            class_of[k as usize] = c;
        }
    }
    let mut out = Recut {
        vertices: pieces.vertices.as_single().to_vec(),
        indices: Vec::new(),
        sizes: Vec::new(),
        class: Vec::new(),
        class_area: classes
            .iter()
            .map(|c| original.areas[of_original[c.members[0] as usize] as usize])
            .collect(),
        class_of_piece: Vec::new(),
    };
    for (c, class) in (0u32..).zip(&classes) {
        let done = match class.height {
            Some(h) if class.members.len() > 1 => {
                let sides = sides_of(pieces, &class.members, |q| class_of[q as usize] == c);
                let sides = join_straight_walls(&sides);
                cut_class(pieces, &sides, h, c, &mut out)
            }
            _ => false,
        };
        if !done {
            for &k in &class.members {
                let corners = &pieces.corners[pieces.corner_range(k)];
                out.indices.extend_from_slice(corners);
                out.sizes.push(corners.len() as u32);
                out.class.push(c);
            }
        }
    }
    out.class_of_piece = class_of;
    out
}

/// One side of a class's boundary, the class on its left.
#[derive(Debug, Clone, Copy)]
struct Side {
    /// Where the side starts (ground plane).
    from: DVec2,
    /// Where it ends.
    to: DVec2,
    /// Whether it is a wall (nothing beyond it); otherwise a border with a piece of
    /// another class beyond.
    wall: bool,
}

/// A side of a class's boundary, with the eroded mesh's vertices at its ends.
#[derive(Debug, Clone, Copy)]
struct ClassSide {
    side: Side,
    ends: (u32, u32),
}

/// The sides of the pieces `members` of `mesh` that have no neighbour, or one that
/// `inside` refuses (a border).
fn sides_of(mesh: &MeshData, members: &[u32], inside: impl Fn(u32) -> bool) -> Vec<ClassSide> {
    let point = |v: u32| mesh.ground[v as usize].as_dvec2();
    let mut sides = Vec::new();
    for &k in members {
        for slot in mesh.corner_range(k) {
            let q = mesh.neighbours[slot];
            if q != NO_NEIGHBOUR && inside(q) {
                continue;
            }
            let (a, b) = mesh.edge(k, slot);
            sides.push(ClassSide {
                side: Side {
                    from: point(a),
                    to: point(b),
                    wall: q == NO_NEIGHBOUR,
                },
                ends: (a, b),
            });
        }
    }
    sides
}

/// `sides` (a class's boundary) with the walls that go straight on joined into one
/// side: where one wall side arrives at a vertex and one wall side leaves it, no other
/// side of the class touches the vertex, and the vertex lies exactly (in `f64`) on the
/// line of the joined side, between its ends, it is left out of the boundary. The
/// region is the same; only its boundary has fewer vertices.
///
/// Such vertices are where the original polygons' edges crossed a straight eroded wall
/// along an axis: they split the copy's polygons' sides into more portals for the
/// sweeps to cross (Iron Harvest at radius 0.5, the exact mode: 272,576 to 249,941
/// instructions per query). Vertices within [`partition::CLOSE_POINTS`] of the line (rounded off
/// it) are kept: leaving them out too made the queries dearer (279,604; BENCHMARKS.md,
/// "Session 23"). Border sides keep their ends (the builder links the class beyond
/// through them).
fn join_straight_walls(sides: &[ClassSide]) -> Vec<ClassSide> {
    // Per vertex: the sides leaving it (the first one's index, and how many), and how
    // many arrive.
    let mut leaving: HashMap<u32, (usize, u32)> = HashMap::with_capacity(sides.len());
    let mut arriving: HashMap<u32, u32> = HashMap::with_capacity(sides.len());
    for (i, s) in sides.iter().enumerate() {
        leaving.entry(s.ends.0).or_insert((i, 0)).1 += 1;
        *arriving.entry(s.ends.1).or_insert(0) += 1;
    }
    // The wall side leaving the end of wall side `i` when they are the only two sides
    // there and point the same way.
    let next_wall = |i: usize| -> Option<usize> {
        let s = &sides[i];
        let v = s.ends.1;
        let &(j, count) = leaving.get(&v)?;
        let t = &sides[j];
        let (d, e) = (s.side.to - s.side.from, t.side.to - t.side.from);
        (s.side.wall
            && t.side.wall
            && count == 1
            && arriving.get(&v) == Some(&1)
            && j != i
            && d.dot(e) > 0.0)
            .then_some(j)
    };
    // Per side: whether a side goes on into it (it is not the first of a chain).
    let mut continued = vec![false; sides.len()];
    for i in 0..sides.len() {
        if let Some(j) = next_wall(i) {
            continued[j] = true;
        }
    }
    let mut joined = Vec::with_capacity(sides.len());
    let mut taken = vec![false; sides.len()];
    let mut dropped: Vec<DVec2> = Vec::new();
    // Chains from their first side, then what is left (rings of such sides).
    let firsts = (0..sides.len()).filter(|&i| !continued[i]);
    for first in firsts.chain(0..sides.len()) {
        if taken[first] {
            continue;
        }
        taken[first] = true;
        let mut side = sides[first];
        dropped.clear();
        let mut at = first;
        while let Some(j) = next_wall(at).filter(|&j| !taken[j]) {
            taken[j] = true;
            let (from, to) = (side.side.from, sides[j].side.to);
            dropped.push(side.side.to);
            if dropped.iter().all(|&q| on_segment(q, from, to)) {
                side.side.to = to;
                side.ends.1 = sides[j].ends.1;
            } else {
                joined.push(side);
                side = sides[j];
                dropped.clear();
            }
            at = j;
        }
        joined.push(side);
    }
    joined
}

/// Whether `q` lies exactly on the line through `a` and `b`, strictly between them.
fn on_segment(q: DVec2, a: DVec2, b: DVec2) -> bool {
    let d = b - a;
    (q - a).perp_dot(d) == 0.0 && (q - a).dot(d) > 0.0 && (b - q).dot(d) > 0.0
}

/// Triangulates one class (bounded by `sides`, at height `h`, number `class`), appending
/// the triangles to `out`; false (and `out` as it was) when they fail the checks of the
/// module documentation.
fn cut_class(pieces: &MeshData, sides: &[ClassSide], h: f32, class: u32, out: &mut Recut) -> bool {
    let boundary: Vec<Side> = sides.iter().map(|s| s.side).collect();
    let Ok(triangles) = triangulate(&boundary) else {
        return false;
    };
    // The eroded mesh's vertex at each side's ends, by ground position.
    let key = |q: DVec2| ((q.x as f32).to_bits(), (q.y as f32).to_bits());
    let mut vertex_at: HashMap<(u32, u32), u32> = HashMap::with_capacity(sides.len());
    for s in sides {
        vertex_at.insert(key(s.side.from), s.ends.0);
        vertex_at.insert(key(s.side.to), s.ends.1);
    }
    let kept_vertices = out.vertices.len();
    let mut index_of: Vec<Option<u32>> = vec![None; triangles.points.len()];
    let mut corners: Vec<[u32; 3]> = Vec::with_capacity(triangles.triangles.len());
    let mut area = 0.0;
    // Slivers go, their area to the triangle across their longest edge (no crack).
    for (t, _) in partition::without_slivers(&triangles) {
        let q = t.map(|i| triangles.points[i]);
        area += (q[1] - q[0]).perp_dot(q[2] - q[0]) / 2.0;
        corners.push(t.map(|i| {
            *index_of[i].get_or_insert_with(|| {
                let p = triangles.points[i];
                // Points that `f32` makes one are one vertex (the triangles between
                // them are too thin and left out), so no crack opens between them.
                *vertex_at.entry(key(p)).or_insert_with(|| {
                    out.vertices.push(pieces.up.place(p.as_vec2(), h));
                    out.vertices.len() as u32 - 1
                })
            })
        }));
    }
    let expected: f64 = sides
        .iter()
        .map(|s| s.side.from.perp_dot(s.side.to) / 2.0)
        .sum();
    let edges: HashSet<(u32, u32)> = corners
        .iter()
        .flat_map(|c| [(c[0], c[1]), (c[1], c[2]), (c[2], c[0])])
        .collect();
    let borders_kept = sides
        .iter()
        .filter(|s| !s.side.wall)
        .all(|s| edges.contains(&s.ends));
    // No crack: the sides without a twin are as long as the class's boundary.
    let point = |v: u32| pieces.up.ground(out.vertices[v as usize]).as_dvec2();
    let open: f64 = edges
        .iter()
        .filter(|&&(a, b)| !edges.contains(&(b, a)))
        .map(|&(a, b)| point(a).distance(point(b)))
        .sum();
    let perimeter: f64 = sides.iter().map(|s| s.side.from.distance(s.side.to)).sum();
    if !borders_kept
        || (area - expected).abs() > 1e-6 * expected.abs().max(1.0)
        || (open - perimeter).abs() > 1e-6 * perimeter.max(1.0)
    {
        out.vertices.truncate(kept_vertices);
        return false;
    }
    for c in &corners {
        out.indices.extend_from_slice(c);
        out.sizes.push(3);
        out.class.push(class);
    }
    true
}

/// The constrained Delaunay triangulation of the region bounded by `sides` (the region
/// on their left): its triangles inside the region.
fn triangulate(sides: &[Side]) -> Result<Pieces, PartitionError> {
    // As in the partition, spade's panics become an error.
    std::panic::catch_unwind(|| triangulate_unguarded(sides)).unwrap_or(Err(PartitionError::Failed))
}

fn triangulate_unguarded(sides: &[Side]) -> Result<Pieces, PartitionError> {
    let mut cdt = ConstrainedDelaunayTriangulation::<Point2<f64>>::new();
    let mut boundary: HashSet<(FixedVertexHandle, FixedVertexHandle)> = HashSet::new();
    for side in sides {
        let mut insert = |q: DVec2| {
            cdt.insert(Point2::new(q.x, q.y))
                .map_err(|_| PartitionError::Failed)
        };
        let (a, b) = (insert(side.from)?, insert(side.to)?);
        if a == b {
            continue;
        }
        for edge in cdt.add_constraint_and_split(a, b, |p| p) {
            let edge = cdt.directed_edge(edge);
            let (u, v) = (edge.from().fix(), edge.to().fix());
            boundary.insert((u.min(v), u.max(v)));
        }
    }
    let inside = partition::inside_faces(&cdt, |u, v| boundary.contains(&(u.min(v), u.max(v))));
    let mut index_of: HashMap<FixedVertexHandle, usize> = HashMap::new();
    let mut pieces = Pieces {
        points: Vec::new(),
        triangles: Vec::new(),
        owner: Vec::new(),
    };
    for triangle in cdt.inner_faces() {
        if inside[triangle.fix().index()] != Some(true) {
            continue;
        }
        let corners = triangle.vertices().map(|v| {
            *index_of.entry(v.fix()).or_insert_with(|| {
                pieces
                    .points
                    .push(DVec2::new(v.position().x, v.position().y));
                pieces.points.len() - 1
            })
        });
        pieces.triangles.push(corners);
        pieces.owner.push(0);
    }
    partition::weld_close(&mut pieces);
    Ok(pieces)
}
