//! The constrained triangulation under [`super::partition`]: a region's boundary rings
//! and its original polygons' edges in one `spade` triangulation, and which of its
//! edges lie on a ring.
//!
//! The rings go in first. They do not cross one another, so each ring segment becomes
//! constraint edges along the segment itself. The original polygons' edges follow, and
//! `spade` splits them where they cross a ring (and the ring's edge with them). Where
//! such a crossing comes out of floating point a hair off the ring, or the new edge
//! meets a sliver, `spade` may route the *new* constraint through a nearby vertex
//! instead of along its line: inserting the rings last once bent a ring segment through
//! a polygon corner 0.08 units away, and triangles outside the eroded region were kept.
//! A bent polygon edge only moves which original polygon holds a sliver; the rings, the
//! region's actual border, stay straight.
//!
//! Which edges lie on a ring is found afterwards, by walking each ring segment from
//! one end to the other along constraint edges (the splits of later constraints cut
//! it into several): the walk takes, at each vertex, the constraint edge pointing most
//! nearly at the segment's far end, and accepts it only when its end lies on the
//! segment within a rounding tolerance.

use std::collections::{HashMap, HashSet};

use glam::DVec2;
use spade::handles::FixedVertexHandle;
use spade::{ConstrainedDelaunayTriangulation, Point2, Triangulation};

/// The triangulation of a region's rings and original edges.
pub(super) type Cdt = ConstrainedDelaunayTriangulation<Point2<f64>>;

/// An undirected edge, its smaller handle first.
pub(super) type EdgeKey = (FixedVertexHandle, FixedVertexHandle);

/// The key of the edge between `u` and `v`.
pub(super) fn key(u: FixedVertexHandle, v: FixedVertexHandle) -> EdgeKey {
    (u.min(v), u.max(v))
}

/// What the triangulation is made of: the original polygons (corners in the ground
/// plane, counter-clockwise) and the boundary rings cut into them.
#[derive(Clone, Copy)]
pub(super) struct Input<'a> {
    /// The original polygons: an id (not read here) and the corners.
    pub polygons: &'a [(u32, Vec<DVec2>)],
    /// The boundary rings.
    pub rings: &'a [Vec<DVec2>],
    /// How close, relative to the largest coordinate, two points must be to count as
    /// one: the partition's tolerance for close points.
    pub close: f64,
}

/// Why the triangulation could not be made: `spade` refused a point, or a ring segment
/// could not be followed along constraint edges.
#[derive(Debug)]
pub(super) struct Failed;

/// Triangulates the rings and the original polygons' edges of `input`; returns the
/// triangulation and the set of its edges lying on a ring. The original edges go in
/// first; should a ring segment then not come out along its line, the triangulation is
/// made again with the rings first (see the module comment).
///
/// # Errors
/// [`Failed`] when `spade` refuses a point or a ring segment cannot be followed along
/// constraint edges in either order.
pub(super) fn triangulate(input: Input) -> Result<(Cdt, HashSet<EdgeKey>), Failed> {
    let scale = input
        .polygons
        .iter()
        .flat_map(|(_, corners)| corners)
        .chain(input.rings.iter().flatten())
        .map(|q| q.abs().max_element())
        .fold(1.0, f64::max);
    // How far a point may lie from an original corner and be taken for it, or off a ring
    // segment and still count as a point of it: the partition's tolerance for close
    // points (`i_overlay`'s snapping and crossings computed from `f32` corners land a
    // few times 1e-9 of the scale off).
    let tolerance = input.close * scale;
    let rings = snapped_rings(input, tolerance);
    build(input, &rings, tolerance, Order::EdgesFirst)
        .or_else(|_| build(input, &rings, tolerance, Order::RingsFirst))
}

/// The rings of `region` with every point within `tolerance` of an original polygon's
/// corner moved onto it: a ring running a hair off an original edge, from near one of
/// its ends to near the other, would cross it at a tiny angle, where `spade`'s splits
/// go astray. (The band along the walls is drawn wider than the radius by as much, so an
/// eroded region keeps its clearance.)
fn snapped_rings(region: Input, tolerance: f64) -> Vec<Vec<DVec2>> {
    let cell = |q: DVec2| {
        (
            (q.x / tolerance).floor() as i64,
            (q.y / tolerance).floor() as i64,
        )
    };
    let mut corners: HashMap<(i64, i64), Vec<DVec2>> = HashMap::new();
    for &q in region.polygons.iter().flat_map(|(_, corners)| corners) {
        corners.entry(cell(q)).or_default().push(q);
    }
    let snap = |q: DVec2| {
        let (x, y) = cell(q);
        let near = (-1..=1)
            .flat_map(|dx| (-1..=1).map(move |dy| (x + dx, y + dy)))
            .filter_map(|key| corners.get(&key))
            .flatten()
            .map(|&c| (c.distance(q), c))
            .filter(|&(distance, _)| distance <= tolerance)
            .min_by(|a, b| a.0.total_cmp(&b.0));
        near.map_or(q, |(_, c)| c)
    };
    region
        .rings
        .iter()
        .map(|ring| ring.iter().map(|&q| snap(q)).collect())
        .collect()
}

/// Which constraints go into the triangulation first.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Order {
    /// The original polygons' edges, then the rings.
    EdgesFirst,
    /// The rings, then the original polygons' edges.
    RingsFirst,
}

/// The triangulation of `region` with its constraints inserted in `order`, and its ring
/// edges.
fn build(
    region: Input,
    rings: &[Vec<DVec2>],
    tolerance: f64,
    order: Order,
) -> Result<(Cdt, HashSet<EdgeKey>), Failed> {
    let mut cdt = Cdt::new();
    let mut segments = Vec::new();
    if order == Order::EdgesFirst {
        add_edges(&mut cdt, region)?;
    }
    for ring in rings {
        let handles = insert_all(&mut cdt, ring)?;
        for i in 0..handles.len() {
            let (a, b) = (handles[i], handles[(i + 1) % handles.len()]);
            if a != b {
                cdt.add_constraint_and_split(a, b, |p| p);
                segments.push((a, b));
            }
        }
    }
    if order == Order::RingsFirst {
        add_edges(&mut cdt, region)?;
    }
    // Each edge as often as ring segments run along it: where two run along one edge
    // (rings touching along it), crossing it leaves the side as it was.
    let mut runs: HashMap<EdgeKey, usize> = HashMap::new();
    for (a, b) in segments {
        follow(&cdt, a, b, tolerance, &mut runs)?;
    }
    let boundary = runs
        .into_iter()
        .filter(|&(_, count)| count % 2 == 1)
        .map(|(edge, _)| edge)
        .collect();
    Ok((cdt, boundary))
}

/// Inserts `points` into `cdt`; returns their handles.
fn insert_all(cdt: &mut Cdt, points: &[DVec2]) -> Result<Vec<FixedVertexHandle>, Failed> {
    points
        .iter()
        .map(|q| cdt.insert(Point2::new(q.x, q.y)).map_err(|_| Failed))
        .collect()
}

/// Adds the edges of the original polygons of `region` (each shared edge once) as
/// constraints, split where they cross those already there.
fn add_edges(cdt: &mut Cdt, region: Input) -> Result<(), Failed> {
    let mut done: HashSet<EdgeKey> = HashSet::new();
    for (_, corners) in region.polygons {
        let handles = insert_all(cdt, corners)?;
        for i in 0..handles.len() {
            let (a, b) = (handles[i], handles[(i + 1) % handles.len()]);
            if a != b && done.insert(key(a, b)) {
                cdt.add_constraint_and_split(a, b, |p| p);
            }
        }
    }
    Ok(())
}

/// Counts in `runs` the constraint edges that make up the ring segment from `a` to
/// `b` (see the module comment).
fn follow(
    cdt: &Cdt,
    a: FixedVertexHandle,
    b: FixedVertexHandle,
    tolerance: f64,
    runs: &mut HashMap<EdgeKey, usize>,
) -> Result<(), Failed> {
    let at = |v: FixedVertexHandle| {
        let p = cdt.vertex(v).position();
        DVec2::new(p.x, p.y)
    };
    let (start, end) = (at(a), at(b));
    let length = start.distance(end);
    let unit = (end - start) / length;
    // Distance along the segment from `a`, and off its line.
    let along = |q: DVec2| (q - start).dot(unit);
    let off = |q: DVec2| (q - start).perp_dot(unit).abs();
    let mut visited = vec![a];
    let mut current = a;
    while current != b {
        let reached = along(at(current));
        // The constraint edges from here that stay on the segment and do not go back.
        let onward = cdt
            .vertex(current)
            .out_edges()
            .filter(|edge| cdt.is_constraint_edge(edge.as_undirected().fix()))
            .map(|edge| edge.to().fix())
            .filter(|&v| {
                let q = at(v);
                let t = along(q);
                off(q) <= tolerance
                    && t >= reached - tolerance
                    && t <= length + tolerance
                    && !visited.contains(&v)
            });
        // The far end itself when it is a neighbour (a crossing computed a hair beyond
        // it may be one too), or else the step that gets furthest.
        let mut best = None;
        for v in onward {
            if v == b {
                best = Some(v);
                break;
            }
            if best.is_none_or(|w| along(at(v)) > along(at(w))) {
                best = Some(v);
            }
        }
        let next = best.ok_or(Failed)?;
        *runs.entry(key(current, next)).or_default() += 1;
        visited.push(next);
        current = next;
    }
    Ok(())
}
