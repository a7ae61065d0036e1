//! From the eroded region to mesh polygons: a constrained Delaunay triangulation
//! (`spade`) of the region's boundary and of the original polygons' edges, so that every
//! triangle lies in one original polygon and wholly inside or outside the region. The
//! triangles inside are told by parity (crossing a boundary edge of the region flips
//! inside and outside), each takes the area and the surface height of the original
//! polygon holding it, and neighbouring triangles of one original polygon are then
//! merged while convex (the merge of the exact mode's copy).

use std::collections::{HashMap, HashSet, VecDeque};

use glam::{DVec2, Vec2, Vec3};
use spade::handles::FixedVertexHandle;
use spade::{ConstrainedDelaunayTriangulation, Point2, Triangulation};

use super::region::ErodedRegion;
use crate::error::QueryError;
use crate::mesh::{MeshData, MeshInput, MeshOptions, NavMesh, coarse};

/// Triangles of the region, each with the original polygon holding it.
pub(super) struct Pieces {
    /// Ground positions of the triangulation's vertices.
    pub points: Vec<DVec2>,
    /// Three indices into `points` per triangle, counter-clockwise.
    pub triangles: Vec<[usize; 3]>,
    /// The original polygon of each triangle.
    pub owner: Vec<u32>,
}

/// The message of a mesh the triangulation could not handle.
const FAILED: &str = "agent_radius: the eroded region could not be triangulated";

/// Triangulates `region` (see the module comment).
pub(super) fn triangulate(region: &ErodedRegion) -> Result<Pieces, QueryError> {
    // spade panics only on constraint configurations its own splitting should prevent;
    // should one happen anyway, the query gets an error instead of a panic.
    std::panic::catch_unwind(|| triangulate_unguarded(region))
        .unwrap_or(Err(QueryError::ClearanceUnavailable(FAILED)))
}

fn triangulate_unguarded(region: &ErodedRegion) -> Result<Pieces, QueryError> {
    let mut cdt = ConstrainedDelaunayTriangulation::<Point2<f64>>::new();
    let insert = |cdt: &mut ConstrainedDelaunayTriangulation<Point2<f64>>, q: DVec2| {
        cdt.insert(Point2::new(q.x, q.y))
            .map_err(|_| QueryError::ClearanceUnavailable(FAILED))
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
    // Parity from one face: one on the convex hull, inside or outside the region as a
    // crossing count over the rings tells (a layer's hull may run along a seam, which
    // the region reaches), then across the triangulation, flipping at the region's
    // boundary.
    let mut inside: Vec<Option<bool>> = vec![None; cdt.num_all_faces()];
    let mut queue = VecDeque::new();
    let seed = cdt.inner_faces().find(|face| {
        face.adjacent_edges()
            .iter()
            .any(|e| e.rev().face().is_outer())
    });
    if let Some(face) = seed {
        let corners = face
            .vertices()
            .map(|v| DVec2::new(v.position().x, v.position().y));
        let centre = (corners[0] + corners[1] + corners[2]) / 3.0;
        inside[face.fix().index()] = Some(in_rings(&region.rings, centre));
        queue.push_back(face.fix());
    }
    while let Some(fixed) = queue.pop_front() {
        let face = cdt.face(fixed);
        let here = inside[fixed.index()].unwrap_or(false);
        for edge in face.adjacent_edges() {
            let Some(next) = edge.rev().face().as_inner() else {
                continue;
            };
            let (u, v) = (edge.from().fix(), edge.to().fix());
            let flips = boundary.contains(&(u.min(v), u.max(v)));
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
        if inside[face.fix().index()] != Some(true) {
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

/// Whether `q` lies inside the region bounded by `rings` (even-odd: outer rings and
/// holes alike).
fn in_rings(rings: &[Vec<DVec2>], q: DVec2) -> bool {
    let mut inside = false;
    for ring in rings {
        for (k, &a) in ring.iter().enumerate() {
            let b = ring[(k + 1) % ring.len()];
            if (a.y > q.y) != (b.y > q.y) {
                let x = a.x + (q.y - a.y) / (b.y - a.y) * (b.x - a.x);
                if q.x < x {
                    inside = !inside;
                }
            }
        }
    }
    inside
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
    /// inside overlap in the ground plane, which the split into layers rules out
    /// (`layers.rs`); should it happen anyway, the query gets an error.
    fn locate(&self, q: DVec2) -> Result<Option<u32>, QueryError> {
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
            return Err(QueryError::ClearanceUnavailable(
                "agent_radius: polygons of one layer overlap in the ground plane; the \
                 mesh's levels could not be told apart",
            ));
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

/// The eroded mesh of `pieces`: merged triangles with the areas of their original
/// polygons and default flags, and the original polygon of each of its polygons.
pub(super) fn build_mesh(
    original: &MeshData,
    pieces: &Pieces,
) -> Result<(NavMesh, Vec<u32>), QueryError> {
    let up = original.up;
    // A vertex per point and height: each triangle takes the heights of its original
    // polygon's surface at its corners. Neighbouring polygons agree along their shared
    // edges (up to rounding, within `same`), so their triangles share the vertex; where
    // polygons of different levels meet in the ground plane (in one layer, or a cliff),
    // the heights differ and so do the vertices. Points of different layers are
    // different points unless joined on a seam (`stitch.rs`).
    let same = |a: f32, b: f32| (a - b).abs() <= 1e-4 * (1.0 + a.abs().max(b.abs()));
    let mut at_point: Vec<Vec<(f32, u32)>> = vec![Vec::new(); pieces.points.len()];
    let mut vertices: Vec<Vec3> = Vec::new();
    // Triangles that rounding to f32 flattens are left out.
    let mut indices = Vec::with_capacity(pieces.triangles.len() * 3);
    let mut owners = Vec::with_capacity(pieces.triangles.len());
    for (triangle, &owner) in pieces.triangles.iter().zip(&pieces.owner) {
        let g: [Vec2; 3] = triangle.map(|v| pieces.points[v].as_vec2());
        if (g[1] - g[0]).perp_dot(g[2] - g[0]) <= 0.0 {
            continue;
        }
        for &v in triangle {
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
    let areas: Vec<u8> = owners.iter().map(|&p| original.areas[p as usize]).collect();
    let options = MeshOptions::default().with_up_axis(up);
    let failed = |_| QueryError::ClearanceUnavailable(FAILED);
    let triangles = NavMesh::from_input(
        &MeshInput::new(&vertices, &indices).with_areas(&areas),
        &options,
    )
    .map_err(failed)?;
    let (indices, sizes, of_triangle) = coarse::merge(triangles.data(), |p, q| {
        owners[p as usize] == owners[q as usize]
    });
    let mut of_original = vec![0; sizes.len()];
    for (triangle, &merged) in of_triangle.iter().enumerate() {
        of_original[merged as usize] = owners[triangle];
    }
    let areas: Vec<u8> = of_original
        .iter()
        .map(|&p| original.areas[p as usize])
        .collect();
    let mesh = NavMesh::from_input(
        &MeshInput::new(triangles.data().vertices.as_single(), &indices)
            .with_polygon_sizes(&sizes)
            .with_areas(&areas),
        &options.with_weld_vertices(false),
    )
    .map_err(failed)?;
    Ok((mesh, of_original))
}
