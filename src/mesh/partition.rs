//! From a region of the ground plane to mesh polygons, shared by the eroded meshes of
//! `clearance/` and the obstacles carved by `carve.rs`: a constrained Delaunay
//! triangulation (`spade`) of the region's boundary rings and of the original polygons'
//! edges, so that every triangle lies in one original polygon and wholly inside or
//! outside the rings. Inside and outside are told by parity (crossing a ring edge flips
//! them, and the triangulation's outer face is outside every ring); the caller keeps the
//! triangles inside ([`Keep::Inside`], an eroded region) or outside ([`Keep::Outside`],
//! the complement of obstacles). Each kept triangle takes the area and the surface
//! height of the original polygon holding it, and neighbouring triangles of one original
//! polygon are then merged while convex (the merge of the exact mode's copy).

use std::collections::{HashMap, HashSet, VecDeque};

use glam::{DVec2, Vec2, Vec3};
use spade::handles::FixedVertexHandle;
use spade::{ConstrainedDelaunayTriangulation, Point2, Triangulation};

use crate::mesh::{MeshData, MeshInput, MeshOptions, NavMesh, coarse};

/// Original polygons and the rings cut into them.
pub(crate) struct Region {
    /// Each original polygon: its id and its ground corners, counter-clockwise.
    pub polygons: Vec<(u32, Vec<DVec2>)>,
    /// Boundary rings (outer rings and holes; orientation does not matter to the
    /// triangulation).
    pub rings: Vec<Vec<DVec2>>,
}

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
    let mut cdt = ConstrainedDelaunayTriangulation::<Point2<f64>>::new();
    let insert = |cdt: &mut ConstrainedDelaunayTriangulation<Point2<f64>>, q: DVec2| {
        cdt.insert(Point2::new(q.x, q.y))
            .map_err(|_| PartitionError::Failed)
    };
    // The original edges first (each shared edge once), then the region's boundary,
    // whose pieces are remembered: later constraints never split them, as the
    // boundary rings do not cross.
    let mut done: HashSet<(FixedVertexHandle, FixedVertexHandle)> = HashSet::new();
    for (_, corners) in &region.polygons {
        let handles = corners
            .iter()
            .map(|&q| insert(&mut cdt, q))
            .collect::<Result<Vec<_>, _>>()?;
        for i in 0..handles.len() {
            let (a, b) = (handles[i], handles[(i + 1) % handles.len()]);
            if a != b && done.insert((a.min(b), a.max(b))) {
                cdt.add_constraint_and_split(a, b, |p| p);
            }
        }
    }
    let mut boundary: HashSet<(FixedVertexHandle, FixedVertexHandle)> = HashSet::new();
    for ring in &region.rings {
        let handles = ring
            .iter()
            .map(|&q| insert(&mut cdt, q))
            .collect::<Result<Vec<_>, _>>()?;
        for i in 0..handles.len() {
            let (a, b) = (handles[i], handles[(i + 1) % handles.len()]);
            if a == b {
                continue;
            }
            for edge in cdt.add_constraint_and_split(a, b, |p| p) {
                let edge = cdt.directed_edge(edge);
                let (u, v) = (edge.from().fix(), edge.to().fix());
                boundary.insert((u.min(v), u.max(v)));
            }
        }
    }
    // Parity from the outside in: the outer face is outside every ring, so a face
    // along the convex hull is inside when its hull edge is a ring edge.
    let is_boundary =
        |u: FixedVertexHandle, v: FixedVertexHandle| boundary.contains(&(u.min(v), u.max(v)));
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
    Ok(pieces)
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
    /// inside overlap in the ground plane: a mesh of several levels, which erosion in
    /// the ground plane cannot serve.
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
        let w1 = (q - g0).perp_dot(g2 - g0) / -area;
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

/// The kept triangles of `pieces` merged while convex within each original polygon of
/// `original`, with heights from the original polygons; triangles that rounding to
/// `f32` flattens are left out.
pub(crate) fn merge(original: &MeshData, pieces: &Pieces) -> Result<Merged, PartitionError> {
    let up = original.up;
    // One height per vertex, from the first triangle that uses it: on a single-level
    // mesh neighbouring polygons agree along their shared edges.
    let mut heights: Vec<Option<f32>> = vec![None; pieces.points.len()];
    for (triangle, &owner) in pieces.triangles.iter().zip(&pieces.owner) {
        for &v in triangle {
            if heights[v].is_none() {
                heights[v] = Some(height_at(original, owner, pieces.points[v]));
            }
        }
    }
    let vertices: Vec<Vec3> = pieces
        .points
        .iter()
        .zip(&heights)
        .map(|(q, h)| up.place(q.as_vec2(), h.unwrap_or(0.0)))
        .collect();
    let mut indices = Vec::with_capacity(pieces.triangles.len() * 3);
    let mut owners = Vec::with_capacity(pieces.triangles.len());
    for (triangle, &owner) in pieces.triangles.iter().zip(&pieces.owner) {
        let g: [Vec2; 3] = triangle.map(|v| up.ground(vertices[v]));
        if (g[1] - g[0]).perp_dot(g[2] - g[0]) > 0.0 {
            indices.extend(triangle.map(|v| v as u32));
            owners.push(owner);
        }
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
