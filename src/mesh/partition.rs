//! From a region of the ground plane to mesh polygons, shared by the eroded meshes of
//! `clearance/` and the obstacles carved by `carve.rs`: a constrained Delaunay
//! triangulation (`spade`, built in `partition_cdt.rs`) of the region's boundary rings
//! and of the original polygons' edges, so that every triangle lies in one original polygon and wholly inside or
//! outside the rings. Inside and outside are told by parity (crossing a ring edge flips
//! them, and the triangulation's outer face is outside every ring, so a face on the
//! convex hull is inside exactly when its hull edge is a ring edge: this holds where a
//! ring runs along the hull, as an eroded layer's region does along a seam); the caller
//! keeps the triangles inside ([`Keep::Inside`], an eroded region) or outside
//! ([`Keep::Outside`], the complement of obstacles). Points of the kept triangles closer
//! than [`CLOSE_POINTS`] become one (slivers that `f32` would flatten). Each kept
//! triangle takes the area and the surface height of the original polygon holding it
//! (a vertex per point and height, so that levels meeting in the ground plane stay
//! apart), and neighbouring triangles of one original polygon are then merged while
//! convex (the merge of the exact mode's copy).

use std::collections::{HashMap, VecDeque};

use glam::{DVec2, Vec2, Vec3};
use spade::handles::FixedVertexHandle;
use spade::{ConstrainedDelaunayTriangulation, Point2, Triangulation};

use crate::mesh::{MeshData, MeshInput, MeshOptions, NavMesh, coarse, partition_cdt};

/// Original polygons and the rings cut into them.
pub(crate) struct Region {
    /// Each original polygon: its id and its ground corners, counter-clockwise.
    pub polygons: Vec<(u32, Vec<DVec2>)>,
    /// Boundary rings (outer rings and holes; orientation does not matter to the
    /// triangulation).
    pub rings: Vec<Vec<DVec2>>,
}

/// How close (relative to the largest coordinate) two points must be to become one:
/// well above `i_overlay`'s snapping grid and spade's rounding, and as close as `f32`
/// corners can hardly tell apart.
pub(crate) const CLOSE_POINTS: f64 = 1e-6;

/// Which side of the rings [`triangulate`] keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Keep {
    /// What the rings enclose.
    Inside,
    /// What they leave out.
    Outside,
}

/// Why a region could not be cut into polygons.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PartitionError {
    /// The triangulation or the builder refused it (rounding to `f32` flattened too
    /// much, or the triangulation gave up).
    Failed,
    /// Two original polygons overlap in the ground plane (a mesh of several levels).
    Overlap,
}

/// Convex polygons merged from kept triangles, as mesh input.
#[derive(Default)]
pub(crate) struct Merged {
    /// Vertices of the triangles (world positions, heights from the original polygons).
    pub vertices: Vec<Vec3>,
    /// Corners of the merged polygons, polygon after polygon.
    pub indices: Vec<u32>,
    /// Corner count per merged polygon.
    pub sizes: Vec<u32>,
    /// Per merged polygon: the original polygon holding it.
    pub of_original: Vec<u32>,
}

/// Triangles of the region, each with the original polygon holding it.
pub(crate) struct Pieces {
    /// Ground positions of the triangulation's vertices.
    pub points: Vec<DVec2>,
    /// Three indices into `points` per triangle, counter-clockwise.
    pub triangles: Vec<[usize; 3]>,
    /// The original polygon of each triangle.
    pub owner: Vec<u32>,
}

/// Triangulates `region` and keeps the triangles on the `keep` side of its rings that
/// lie in an original polygon (see the module comment).
pub(crate) fn triangulate(region: &Region, keep: Keep) -> Result<Pieces, PartitionError> {
    // spade panics only on constraint configurations its own splitting should prevent;
    // should one happen anyway, the caller gets an error instead of a panic.
    std::panic::catch_unwind(|| triangulate_unguarded(region, keep))
        .unwrap_or(Err(PartitionError::Failed))
}

fn triangulate_unguarded(region: &Region, keep: Keep) -> Result<Pieces, PartitionError> {
    let input = partition_cdt::Input {
        polygons: &region.polygons,
        rings: &region.rings,
        close: CLOSE_POINTS,
    };
    let (cdt, boundary) = partition_cdt::triangulate(input)
        .map_err(|partition_cdt::Failed| PartitionError::Failed)?;
    let inside = inside_faces(&cdt, |u, v| boundary.contains(&partition_cdt::key(u, v)));
    let locator = Locator::new(&region.polygons);
    let mut index_of: HashMap<FixedVertexHandle, usize> = HashMap::new();
    let mut pieces = Pieces {
        points: Vec::new(),
        triangles: Vec::new(),
        owner: Vec::new(),
    };
    for face in cdt.inner_faces() {
        if inside[face.fix().index()] != Some(keep == Keep::Inside) {
            continue;
        }
        let vertices = face.vertices();
        let corners = vertices.map(|v| DVec2::new(v.position().x, v.position().y));
        let centre = (corners[0] + corners[1] + corners[2]) / 3.0;
        let owner = locator.locate(centre)?;
        let Some(owner) = owner else { continue };
        let triangle = vertices.map(|v| {
            *index_of.entry(v.fix()).or_insert_with(|| {
                pieces
                    .points
                    .push(DVec2::new(v.position().x, v.position().y));
                pieces.points.len() - 1
            })
        });
        pieces.triangles.push(triangle);
        pieces.owner.push(owner);
    }
    weld_close(&mut pieces);
    Ok(pieces)
}

/// Per face of `cdt` (by index): whether it lies inside the rings whose edges
/// `is_boundary` names (by their ends), told by parity from the outside in: the outer
/// face is outside every ring, so a face along the convex hull is inside when its hull
/// edge is a ring edge, and crossing a ring edge flips inside and outside.
pub(crate) fn inside_faces(
    cdt: &ConstrainedDelaunayTriangulation<Point2<f64>>,
    is_boundary: impl Fn(FixedVertexHandle, FixedVertexHandle) -> bool,
) -> Vec<Option<bool>> {
    let mut inside: Vec<Option<bool>> = vec![None; cdt.num_all_faces()];
    let mut queue = VecDeque::new();
    for face in cdt.inner_faces() {
        let hull_edge = face
            .adjacent_edges()
            .into_iter()
            .find(|e| e.rev().face().is_outer());
        if let Some(edge) = hull_edge {
            inside[face.fix().index()] = Some(is_boundary(edge.from().fix(), edge.to().fix()));
            queue.push_back(face.fix());
        }
    }
    while let Some(fixed) = queue.pop_front() {
        let face = cdt.face(fixed);
        let here = inside[fixed.index()].unwrap_or(false);
        for edge in face.adjacent_edges() {
            let Some(next) = edge.rev().face().as_inner() else {
                continue;
            };
            let flips = is_boundary(edge.from().fix(), edge.to().fix());
            if inside[next.fix().index()].is_none() {
                inside[next.fix().index()] = Some(here != flips);
                queue.push_back(next.fix());
            }
        }
    }
    inside
}

/// Makes the points of `pieces` that lie within [`CLOSE_POINTS`] of each other one, and
/// drops the triangles that collapse. The triangulation puts a vertex where two
/// constraints cross, and keeps a ring's own vertex that rounding left a hair off it:
/// the sliver between them would flatten in `f32` and leave a gap between the polygons
/// on either side of an original edge (meshes off the axes).
pub(crate) fn weld_close(pieces: &mut Pieces) {
    let scale = pieces
        .points
        .iter()
        .map(|q| q.abs().max_element())
        .fold(1.0, f64::max);
    let tol = CLOSE_POINTS * scale;
    let mut root: Vec<usize> = (0..pieces.points.len()).collect();
    let find = |root: &mut Vec<usize>, mut i: usize| {
        while root[i] != i {
            root[i] = root[root[i]];
            i = root[i];
        }
        i
    };
    // Cells of the tolerance's size: close points are in the same or neighbouring cells.
    let mut cells: HashMap<(i64, i64), Vec<usize>> = HashMap::new();
    let mut merged = false;
    for (i, q) in pieces.points.iter().enumerate() {
        let cell = ((q.x / tol).floor() as i64, (q.y / tol).floor() as i64);
        for dx in -1..=1 {
            for dy in -1..=1 {
                let Some(near) = cells.get(&(cell.0 + dx, cell.1 + dy)) else {
                    continue;
                };
                for &j in near {
                    if q.distance(pieces.points[j]) <= tol {
                        let (ri, rj) = (find(&mut root, i), find(&mut root, j));
                        if ri != rj {
                            root[ri.max(rj)] = ri.min(rj);
                            merged = true;
                        }
                    }
                }
            }
        }
        cells.entry(cell).or_default().push(i);
    }
    if !merged {
        return;
    }
    let mut kept = 0;
    for i in 0..pieces.triangles.len() {
        let t = pieces.triangles[i].map(|v| find(&mut root, v));
        if t[0] != t[1] && t[1] != t[2] && t[2] != t[0] {
            pieces.triangles[kept] = t;
            pieces.owner[kept] = pieces.owner[i];
            kept += 1;
        }
    }
    pieces.triangles.truncate(kept);
    pieces.owner.truncate(kept);
}

/// A uniform grid over the admitted polygons' boxes, to find the polygon holding a
/// point.
struct Locator<'a> {
    polygons: &'a [(u32, Vec<DVec2>)],
    origin: DVec2,
    cell: f64,
    columns: usize,
    rows: usize,
    buckets: Vec<Vec<usize>>,
}

impl<'a> Locator<'a> {
    fn new(polygons: &'a [(u32, Vec<DVec2>)]) -> Locator<'a> {
        let (mut lo, mut hi) = (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY));
        for q in polygons.iter().flat_map(|(_, c)| c) {
            lo = lo.min(*q);
            hi = hi.max(*q);
        }
        let size = (hi - lo).max(DVec2::splat(1e-9));
        let side = (polygons.len() as f64).sqrt().clamp(1.0, 1024.0);
        let cell = size.max_element() / side;
        let columns = (size.x / cell).ceil() as usize + 1;
        let rows = (size.y / cell).ceil() as usize + 1;
        let mut locator = Locator {
            polygons,
            origin: lo,
            cell,
            columns,
            rows,
            buckets: vec![Vec::new(); columns * rows],
        };
        for (i, (_, corners)) in polygons.iter().enumerate() {
            let (mut a, mut b) = (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY));
            for q in corners {
                a = a.min(*q);
                b = b.max(*q);
            }
            let (c0, r0) = locator.cell_of(a);
            let (c1, r1) = locator.cell_of(b);
            for row in r0..=r1 {
                for column in c0..=c1 {
                    locator.buckets[row * columns + column].push(i);
                }
            }
        }
        locator
    }

    fn cell_of(&self, q: DVec2) -> (usize, usize) {
        let at = (q - self.origin) / self.cell;
        (
            (at.x.max(0.0) as usize).min(self.columns - 1),
            (at.y.max(0.0) as usize).min(self.rows - 1),
        )
    }

    /// The polygon whose inside holds `q` deepest (the least signed distance to its
    /// edges, largest); `None` when none holds it. Two polygons that both hold `q` well
    /// inside overlap in the ground plane: levels the caller did not tell apart, which a
    /// cut in the ground plane cannot serve.
    fn locate(&self, q: DVec2) -> Result<Option<u32>, PartitionError> {
        let (column, row) = self.cell_of(q);
        let mut best: Option<(f64, u32)> = None;
        let mut holders = 0;
        for &i in &self.buckets[row * self.columns + column] {
            let (id, corners) = &self.polygons[i];
            let n = corners.len();
            let depth = (0..n)
                .map(|k| {
                    let (a, b) = (corners[k], corners[(k + 1) % n]);
                    let e = b - a;
                    let len = e.length();
                    if len == 0.0 {
                        f64::INFINITY
                    } else {
                        e.perp_dot(q - a) / len
                    }
                })
                .fold(f64::INFINITY, f64::min);
            let scale = corners
                .iter()
                .map(|c| c.abs().max_element())
                .fold(1.0, f64::max);
            if depth > 1e-9 * scale {
                holders += 1;
            }
            if depth > -1e-7 * scale && best.is_none_or(|(d, _)| depth > d) {
                best = Some((depth, *id));
            }
        }
        if holders > 1 {
            return Err(PartitionError::Overlap);
        }
        Ok(best.map(|(_, id)| id))
    }
}

/// The height of the surface of `polygon` (a fan of triangles from its first corner)
/// at the ground point `q`: interpolated in the fan triangle holding it, or in the one
/// nearest to holding it.
fn height_at(mesh: &MeshData, polygon: u32, q: DVec2) -> f32 {
    let corners = &mesh.corners[mesh.corner_range(polygon)];
    let vertex = |v: u32| mesh.vertices[v as usize];
    let ground = |v: u32| mesh.ground[v as usize].as_dvec2();
    let (v0, g0) = (vertex(corners[0]), ground(corners[0]));
    let mut best: Option<(f64, f32)> = None;
    for pair in corners[1..].windows(2) {
        let (g1, g2) = (ground(pair[0]), ground(pair[1]));
        let area = (g1 - g0).perp_dot(g2 - g0);
        if area == 0.0 {
            continue;
        }
        let w1 = (q - g0).perp_dot(g2 - g0) / area;
        let w2 = (g1 - g0).perp_dot(q - g0) / area;
        let w0 = 1.0 - w1 - w2;
        let worst = w0.min(w1).min(w2);
        let h = |v: u32| f64::from(mesh.up.height(vertex(v)));
        let height = w0 * f64::from(mesh.up.height(v0)) + w1 * h(pair[0]) + w2 * h(pair[1]);
        if best.is_none_or(|(b, _)| worst > b) {
            best = Some((worst, height as f32));
        }
    }
    best.map_or(mesh.up.height(v0), |(_, h)| h)
}

/// The triangles of `pieces` (with their owners) without those too thin to keep
/// ([`too_thin`]), each such sliver's area given to the triangle across its longest
/// edge: that neighbour is split at the sliver's third corner, which lies next to that
/// edge, so the triangles on the sliver's two short edges share edges with the split
/// halves. Left out with nothing in its place, a sliver inside the region would part
/// its neighbours (a crack of walls a path must go round). A sliver whose longest edge
/// is on the region's boundary, or whose neighbour there is a sliver too or takes
/// corners on more than one edge, is left out as before (its area is below the
/// tolerance).
pub(crate) fn without_slivers(pieces: &Pieces) -> Vec<([usize; 3], u32)> {
    let triangles = &pieces.triangles;
    let q = |t: &[usize; 3]| t.map(|v| pieces.points[v]);
    let thin: Vec<bool> = triangles.iter().map(|t| too_thin(q(t))).collect();
    if !thin.contains(&true) {
        return triangles
            .iter()
            .copied()
            .zip(pieces.owner.iter().copied())
            .collect();
    }
    let mut across: HashMap<(usize, usize), usize> = HashMap::with_capacity(triangles.len() * 3);
    for (i, t) in triangles.iter().enumerate() {
        for k in 0..3 {
            across.insert((t[k], t[(k + 1) % 3]), i);
        }
    }
    // Per triangle taking sliver corners: the edge (its index k: from corner k to the
    // next) and the corners put on it.
    let mut taken: HashMap<usize, (usize, Vec<usize>)> = HashMap::new();
    let mut refused = vec![false; triangles.len()];
    for t in triangles
        .iter()
        .zip(&thin)
        .filter(|&(_, &th)| th)
        .map(|(t, _)| t)
    {
        let p = q(t);
        let k = (0..3)
            .max_by(|&a, &b| {
                let length = |k: usize| p[k].distance(p[(k + 1) % 3]);
                length(a).total_cmp(&length(b))
            })
            .unwrap_or(0);
        let (from, to, middle) = (t[k], t[(k + 1) % 3], t[(k + 2) % 3]);
        let Some(&n) = across.get(&(to, from)) else {
            continue;
        };
        if thin[n] {
            continue;
        }
        let edge = (0..3).find(|&e| triangles[n][e] == to).unwrap_or(0);
        let entry = taken.entry(n).or_insert((edge, Vec::new()));
        if entry.0 == edge {
            entry.1.push(middle);
        } else {
            refused[n] = true;
        }
    }
    let mut kept = Vec::with_capacity(triangles.len() + taken.len());
    for (i, (t, &owner)) in triangles.iter().zip(&pieces.owner).enumerate() {
        if thin[i] {
            continue;
        }
        match taken.get_mut(&i).filter(|_| !refused[i]) {
            None => kept.push((*t, owner)),
            Some((edge, corners)) => {
                // The corners in order along the edge, then a fan from the opposite
                // corner (all of them lie next to the edge, far from that corner).
                let (a, b, opposite) = (t[*edge], t[(*edge + 1) % 3], t[(*edge + 2) % 3]);
                let (pa, pb) = (pieces.points[a], pieces.points[b]);
                let along = |v: usize| (pieces.points[v] - pa).dot(pb - pa);
                corners.sort_by(|&x, &y| along(x).total_cmp(&along(y)));
                corners.dedup();
                let fan: Vec<[usize; 3]> = [a]
                    .iter()
                    .chain(corners.iter())
                    .zip(corners.iter().chain([&b]))
                    .map(|(&from, &to)| [from, to, opposite])
                    .collect();
                // A split that would make a sliver itself (a corner too near an end of
                // the edge) is not made: the sliver is left out as before.
                if fan.iter().any(|t| too_thin(q(t))) {
                    kept.push((*t, owner));
                } else {
                    kept.extend(fan.into_iter().map(|t| (t, owner)));
                }
            }
        }
    }
    kept
}

/// Whether the counter-clockwise triangle of ground points `q` is too thin to keep
/// (see [`merge`]): its area within the tolerance of its own coordinates, or none left
/// once rounded to `f32`.
pub(crate) fn too_thin(q: [DVec2; 3]) -> bool {
    let scale = q.iter().map(|p| p.abs().max_element()).fold(1.0, f64::max);
    let longest = (0..3)
        .map(|k| q[k].distance(q[(k + 1) % 3]))
        .fold(0.0, f64::max);
    if (q[1] - q[0]).perp_dot(q[2] - q[0]) <= CLOSE_POINTS * scale * longest {
        return true;
    }
    let g: [Vec2; 3] = q.map(|p| p.as_vec2());
    (g[1] - g[0]).perp_dot(g[2] - g[0]) <= 0.0
}

/// The kept triangles of `pieces` merged while convex within each original polygon of
/// `original`, with heights from the original polygons; triangles that rounding to
/// `f32` flattens are left out.
pub(crate) fn merge(original: &MeshData, pieces: &Pieces) -> Result<Merged, PartitionError> {
    let up = original.up;
    // A vertex per point and height: each triangle takes the heights of its original
    // polygon's surface at its corners. Neighbouring polygons agree along their shared
    // edges (up to rounding, within `same`), so their triangles share the vertex; where
    // polygons of different levels meet in the ground plane (a cliff, or layers joined
    // by the caller), the heights differ and so do the vertices.
    let same = |a: f32, b: f32| (a - b).abs() <= 1e-4 * (1.0 + a.abs().max(b.abs()));
    let mut at_point: Vec<Vec<(f32, u32)>> = vec![Vec::new(); pieces.points.len()];
    let mut vertices: Vec<Vec3> = Vec::new();
    let mut indices = Vec::with_capacity(pieces.triangles.len() * 3);
    let mut owners = Vec::with_capacity(pieces.triangles.len());
    // Triangles thinner than the tolerance (points a weld or rounding left on one line,
    // whose `f32` area may still come out positive) are left out as well: such a
    // triangle would lie along its neighbours' edges and share one with two of them;
    // its area goes to its neighbour across its longest edge ([`without_slivers`]), so
    // no crack opens between the polygons on either side. The tolerance scales with the triangle's own coordinates, where `f32` rounds it:
    // scaled by the farthest point of all the pieces, it left out real slivers (a ring's
    // corner a hundred `f32` steps off an original edge), cutting the polygons on either
    // side apart, and only when some cut far away made the pieces larger.
    for (triangle, owner) in without_slivers(pieces) {
        for &v in &triangle {
            let h = height_at(original, owner, pieces.points[v]);
            let index = match at_point[v].iter().find(|&&(k, _)| same(k, h)) {
                Some(&(_, index)) => index,
                None => {
                    let index = vertices.len() as u32;
                    vertices.push(up.place(pieces.points[v].as_vec2(), h));
                    at_point[v].push((h, index));
                    index
                }
            };
            indices.push(index);
        }
        owners.push(owner);
    }
    if owners.is_empty() {
        return Ok(Merged {
            vertices: Vec::new(),
            indices: Vec::new(),
            sizes: Vec::new(),
            of_original: Vec::new(),
        });
    }
    let options = MeshOptions::default().with_up_axis(up);
    let triangles = NavMesh::from_input(&MeshInput::new(&vertices, &indices), &options)
        .map_err(|_| PartitionError::Failed)?;
    let (indices, sizes, of_triangle) = coarse::merge(triangles.data(), |p, q| {
        owners[p as usize] == owners[q as usize]
    });
    let mut of_original = vec![0; sizes.len()];
    for (triangle, &merged) in of_triangle.iter().enumerate() {
        of_original[merged as usize] = owners[triangle];
    }
    Ok(Merged {
        vertices: triangles.data().vertices.as_single().to_vec(),
        indices,
        sizes,
        of_original,
    })
}

#[cfg(test)]
mod tests {
    use glam::{DVec2, Vec3};

    use super::{Keep, Region, merge, triangulate};
    use crate::mesh::{MeshOptions, NavMesh};

    /// A ramp `[0, 4] x [0, 4]` (Y up) rising from height 0 at `x = 0` to 2 at `x = 4`,
    /// and the region of its ground square (a ring along the hull) less a triangular
    /// hole.
    fn ramp() -> (NavMesh, Region) {
        let vertices = [(0., 0., 0.), (4., 2., 0.), (4., 2., 4.), (0., 0., 4.)]
            .map(|(x, y, z)| Vec3::new(x, y, z));
        let mesh = NavMesh::from_polygons(&vertices, &[0, 1, 2, 3], &[4], &MeshOptions::default())
            .unwrap();
        let square: Vec<DVec2> = [(0., 0.), (4., 0.), (4., 4.), (0., 4.)]
            .map(|(x, y)| DVec2::new(x, y))
            .to_vec();
        let hole = [(1., 1.), (1., 2.), (2., 1.)].map(|(x, y)| DVec2::new(x, y));
        let region = Region {
            polygons: vec![(0, square.clone())],
            rings: vec![square, hole.to_vec()],
        };
        (mesh, region)
    }

    fn area(points: &[DVec2], triangles: &[[usize; 3]]) -> f64 {
        triangles
            .iter()
            .map(|t| (points[t[1]] - points[t[0]]).perp_dot(points[t[2]] - points[t[0]]) / 2.0)
            .sum()
    }

    #[test]
    fn a_ring_along_the_hull_keeps_its_inside_and_heights_follow_the_slope() {
        let (mesh, region) = ramp();
        let inside = triangulate(&region, Keep::Inside).unwrap();
        assert!((area(&inside.points, &inside.triangles) - 15.5).abs() < 1e-9);
        assert!(inside.owner.iter().all(|&p| p == 0));
        let outside = triangulate(&region, Keep::Outside).unwrap();
        assert!((area(&outside.points, &outside.triangles) - 0.5).abs() < 1e-9);
        let merged = merge(mesh.data(), &inside).unwrap();
        assert!(merged.of_original.iter().all(|&p| p == 0));
        // Every vertex, the hole's corners included, lies on the ramp's surface.
        assert!(merged.vertices.len() >= 7, "{:?}", merged.vertices);
        for v in &merged.vertices {
            assert!((v.y - v.x / 2.0).abs() < 1e-5, "{v}");
        }
    }

    #[test]
    fn points_closer_than_the_tolerance_become_one() {
        let (_, mut region) = ramp();
        // The square as two polygons split at `x = 2`, and the hole's corner a hair
        // beyond that edge (as `i_overlay`'s rounding leaves it): the edge crosses the
        // hole's sides a hair from its corner, and those points become one.
        let rectangle = |x: f64| {
            [(x, 0.), (x + 2., 0.), (x + 2., 4.), (x, 4.)]
                .map(|(x, y)| DVec2::new(x, y))
                .to_vec()
        };
        region.polygons = vec![(0, rectangle(0.0)), (1, rectangle(2.0))];
        region.rings[1][2] = DVec2::new(2.0 + 1e-9, 1.0);
        let inside = triangulate(&region, Keep::Inside).unwrap();
        let mut used: Vec<usize> = inside.triangles.iter().flatten().copied().collect();
        used.sort_unstable();
        used.dedup();
        for (k, &i) in used.iter().enumerate() {
            for &j in &used[k + 1..] {
                let (p, q) = (inside.points[i], inside.points[j]);
                assert!(p.distance(q) > 1e-6, "{p} {q}");
            }
        }
        assert!((area(&inside.points, &inside.triangles) - 15.5).abs() < 1e-6);
    }
}
