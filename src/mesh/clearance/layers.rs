//! Levels for erosion in the ground plane: the admitted polygons split into *layers*
//! whose polygons do not overlap there (a bridge and the road under it fall in
//! different layers), and for each layer what its erosion needs.
//!
//! Layers grow greedily along the mesh: a breadth-first walk over admitted neighbours
//! puts each polygon into the layer of the polygon it was reached from, or else into
//! the first layer with no polygon overlapping it, or else into a new layer. A mesh of
//! one level is one layer.
//!
//! An edge between two layers (a *seam*: a polygon edge whose admitted neighbour lies in
//! another layer) is not a wall. A disc near a seam reaches across it into the other
//! level, so the walls of the polygons beyond a seam, found by a walk from it over the
//! polygons within `2r` of it, count for the layer too, but only within `r` of the seam
//! (their bands are cut to a capsule round it): elsewhere the ground plane under or over
//! a layer belongs to other levels, whose walls a disc on this layer never touches.

use std::collections::{HashMap, HashSet, VecDeque};

use glam::DVec2;

use crate::mesh::{MeshData, NO_NEIGHBOUR};

/// What the erosion of one layer needs, in ground coordinates.
pub(super) struct LayerInput {
    /// The layer's polygons: id and corners, counter-clockwise.
    pub polygons: Vec<(u32, Vec<DVec2>)>,
    /// The walls of the layer's polygons (walkable side on the left).
    pub walls: Vec<(DVec2, DVec2)>,
    /// The walls of the other levels' polygons within `2r` of a seam (walkable side on
    /// the left): they count only within `r` of a seam.
    pub near_walls: Vec<(DVec2, DVec2)>,
    /// The layer's seams, as the layer's polygons list them.
    pub seams: Vec<(DVec2, DVec2)>,
    /// The polygons on either side of each seam: the layer's, then the other one.
    pub seam_polygons: Vec<[u32; 2]>,
}

/// An admitted polygon: id, ground corners, bounding box.
struct Shape {
    id: u32,
    corners: Vec<DVec2>,
    lo: DVec2,
    hi: DVec2,
}

/// The admitted polygons of a mesh split into layers.
pub(super) struct Layers {
    shapes: Vec<Shape>,
    /// Shape index of each admitted polygon id.
    index: HashMap<u32, usize>,
    /// Layer of each shape.
    layer: Vec<usize>,
    /// The shapes of each layer.
    members: Vec<Vec<usize>>,
    /// How many layers.
    pub count: usize,
}

/// A uniform grid of bounding boxes: the boxes in each cell.
struct BoxGrid {
    origin: DVec2,
    cell: f64,
    columns: usize,
    rows: usize,
    buckets: Vec<Vec<usize>>,
}

impl BoxGrid {
    /// The grid of `count` boxes `(lo, hi)`.
    fn new(boxes: impl Iterator<Item = (DVec2, DVec2)> + Clone, count: usize) -> BoxGrid {
        let (mut lo, mut hi) = (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY));
        for (a, b) in boxes.clone() {
            lo = lo.min(a);
            hi = hi.max(b);
        }
        if count == 0 {
            (lo, hi) = (DVec2::ZERO, DVec2::ONE);
        }
        let size = (hi - lo).max(DVec2::splat(1e-9));
        let side = (count as f64).sqrt().clamp(1.0, 1024.0);
        let cell = size.max_element() / side;
        let columns = (size.x / cell).ceil() as usize + 1;
        let rows = (size.y / cell).ceil() as usize + 1;
        let mut grid = BoxGrid {
            origin: lo,
            cell,
            columns,
            rows,
            buckets: vec![Vec::new(); columns * rows],
        };
        for (i, (a, b)) in boxes.enumerate() {
            for bucket in grid.cells(a, b) {
                grid.buckets[bucket].push(i);
            }
        }
        grid
    }

    fn cell_of(&self, q: DVec2) -> (usize, usize) {
        let at = (q - self.origin) / self.cell;
        (
            (at.x.max(0.0) as usize).min(self.columns - 1),
            (at.y.max(0.0) as usize).min(self.rows - 1),
        )
    }

    /// The buckets a box covers.
    fn cells(&self, lo: DVec2, hi: DVec2) -> impl Iterator<Item = usize> + use<> {
        let (c0, r0) = self.cell_of(lo);
        let (c1, r1) = self.cell_of(hi);
        let columns = self.columns;
        (r0..=r1).flat_map(move |row| (c0..=c1).map(move |column| row * columns + column))
    }
}

/// Whether two convex polygons (corners counter-clockwise) overlap by more than `eps`
/// in every direction of their edges (separating axes): polygons that only touch along
/// an edge or at a point do not.
fn overlap(a: &[DVec2], b: &[DVec2], eps: f64) -> bool {
    let project = |corners: &[DVec2], axis: DVec2| {
        corners
            .iter()
            .map(|q| q.dot(axis))
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
                (lo.min(x), hi.max(x))
            })
    };
    for corners in [a, b] {
        for k in 0..corners.len() {
            let edge = corners[(k + 1) % corners.len()] - corners[k];
            let length = edge.length();
            if length == 0.0 {
                continue;
            }
            let axis = edge.perp() / length;
            let (a0, a1) = project(a, axis);
            let (b0, b1) = project(b, axis);
            if a1.min(b1) - a0.max(b0) <= eps {
                return false;
            }
        }
    }
    true
}

impl Layers {
    /// Splits the polygons of `mesh` that `admitted` accepts into layers (see the module
    /// comment).
    pub fn new(mesh: &MeshData, admitted: &impl Fn(u32) -> bool) -> Layers {
        let shapes: Vec<Shape> = mesh
            .polygon_ids()
            .filter(|&p| admitted(p))
            .map(|id| {
                let corners: Vec<DVec2> = mesh.corners[mesh.corner_range(id)]
                    .iter()
                    .map(|&v| mesh.ground[v as usize].as_dvec2())
                    .collect();
                let lo = corners
                    .iter()
                    .fold(DVec2::splat(f64::INFINITY), |m, q| m.min(*q));
                let hi = corners
                    .iter()
                    .fold(DVec2::splat(f64::NEG_INFINITY), |m, q| m.max(*q));
                Shape {
                    id,
                    corners,
                    lo,
                    hi,
                }
            })
            .collect();
        let index: HashMap<u32, usize> =
            shapes.iter().enumerate().map(|(i, s)| (s.id, i)).collect();
        let scale = shapes
            .iter()
            .map(|s| s.lo.abs().max(s.hi.abs()).max_element())
            .fold(1.0, f64::max);
        let eps = 1e-7 * scale;
        let grid = BoxGrid::new(shapes.iter().map(|s| (s.lo, s.hi)), shapes.len());
        let mut layer = vec![usize::MAX; shapes.len()];
        let mut count = 0;
        let overlaps_layer = |layer: &[usize], i: usize, c: usize| {
            let s = &shapes[i];
            grid.cells(s.lo, s.hi).any(|bucket| {
                grid.buckets[bucket].iter().any(|&j| {
                    let t = &shapes[j];
                    j != i
                        && layer[j] == c
                        && s.lo.cmplt(t.hi).all()
                        && t.lo.cmplt(s.hi).all()
                        && overlap(&s.corners, &t.corners, eps)
                })
            })
        };
        let mut queue = VecDeque::new();
        for start in 0..shapes.len() {
            if layer[start] != usize::MAX {
                continue;
            }
            queue.push_back((start, None));
            while let Some((i, from)) = queue.pop_front() {
                if layer[i] != usize::MAX {
                    continue;
                }
                let chosen = from
                    .into_iter()
                    .chain(0..count)
                    .find(|&c| !overlaps_layer(&layer, i, c))
                    .unwrap_or(count);
                count = count.max(chosen + 1);
                layer[i] = chosen;
                for slot in mesh.corner_range(shapes[i].id) {
                    if let Some(&j) = index.get(&mesh.neighbours[slot])
                        && layer[j] == usize::MAX
                    {
                        queue.push_back((j, Some(chosen)));
                    }
                }
            }
        }
        let mut members = vec![Vec::new(); count];
        for (i, &l) in layer.iter().enumerate() {
            members[l].push(i);
        }
        Layers {
            shapes,
            index,
            layer,
            members,
            count,
        }
    }

    /// The layer of the admitted neighbour across `slot`, `None` for a wall.
    fn layer_across(&self, mesh: &MeshData, slot: usize) -> Option<usize> {
        let neighbour = mesh.neighbours[slot];
        if neighbour == NO_NEIGHBOUR {
            return None;
        }
        self.index.get(&neighbour).map(|&j| self.layer[j])
    }

    /// The ground ends of the edge of `slot` of shape `i`.
    fn edge(&self, mesh: &MeshData, i: usize, slot: usize) -> (DVec2, DVec2) {
        let (a, b) = mesh.edge(self.shapes[i].id, slot);
        (
            mesh.ground[a as usize].as_dvec2(),
            mesh.ground[b as usize].as_dvec2(),
        )
    }

    /// What the erosion by `r` of layer `l` needs (see the module comment).
    pub fn input(&self, mesh: &MeshData, l: usize, r: f64) -> LayerInput {
        let mut input = LayerInput {
            polygons: Vec::new(),
            walls: Vec::new(),
            near_walls: Vec::new(),
            seams: Vec::new(),
            seam_polygons: Vec::new(),
        };
        // Per seam: its ends and the shape beyond it.
        let mut beyond = Vec::new();
        for &i in &self.members[l] {
            let shape = &self.shapes[i];
            for slot in mesh.corner_range(shape.id) {
                match self.layer_across(mesh, slot) {
                    None => input.walls.push(self.edge(mesh, i, slot)),
                    Some(other) if other != l => {
                        let seam = self.edge(mesh, i, slot);
                        input.seams.push(seam);
                        input.seam_polygons.push([shape.id, mesh.neighbours[slot]]);
                        beyond.push((seam, self.index[&mesh.neighbours[slot]]));
                    }
                    Some(_) => {}
                }
            }
            input.polygons.push((shape.id, shape.corners.clone()));
        }
        let margin = 2.0 * r * 1.01;
        let mut near: HashSet<(usize, usize)> = HashSet::new();
        let mut visited: HashSet<usize> = HashSet::new();
        let mut queue = VecDeque::new();
        for ((a, b), first) in beyond {
            let (lo, hi) = (a.min(b) - margin, a.max(b) + margin);
            visited.clear();
            queue.push_back(first);
            visited.insert(first);
            while let Some(i) = queue.pop_front() {
                for slot in mesh.corner_range(self.shapes[i].id) {
                    match self.layer_across(mesh, slot) {
                        None => {
                            if near.insert((i, slot)) {
                                input.near_walls.push(self.edge(mesh, i, slot));
                            }
                        }
                        Some(other) if other != l => {
                            let j = self.index[&mesh.neighbours[slot]];
                            let s = &self.shapes[j];
                            if s.lo.cmple(hi).all() && lo.cmple(s.hi).all() && visited.insert(j) {
                                queue.push_back(j);
                            }
                        }
                        Some(_) => {}
                    }
                }
            }
        }
        input
    }
}

#[cfg(test)]
mod tests {
    use glam::{DVec2, Vec3};

    use super::{Layers, overlap};
    use crate::mesh::{MeshOptions, NavMesh};

    fn square(x: f64, y: f64, side: f64) -> Vec<DVec2> {
        [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
            .map(|(u, v)| DVec2::new(x + u * side, y + v * side))
            .to_vec()
    }

    #[test]
    fn polygons_touching_along_an_edge_or_a_corner_do_not_overlap() {
        let eps = 1e-7;
        assert!(!overlap(
            &square(0.0, 0.0, 1.0),
            &square(1.0, 0.0, 1.0),
            eps
        ));
        assert!(!overlap(
            &square(0.0, 0.0, 1.0),
            &square(1.0, 1.0, 1.0),
            eps
        ));
        assert!(overlap(&square(0.0, 0.0, 1.0), &square(0.5, 0.5, 1.0), eps));
        assert!(overlap(&square(0.0, 0.0, 4.0), &square(1.0, 1.0, 1.0), eps));
        // A triangle whose hypotenuse passes beside the square's corner.
        let triangle = [
            DVec2::new(1.2, 0.0),
            DVec2::new(3.0, 0.0),
            DVec2::new(1.2, 1.8),
        ];
        assert!(!overlap(&square(0.0, 0.0, 1.0), &triangle, eps));
        assert!(overlap(&square(0.5, 0.0, 1.0), &triangle, eps));
    }

    /// A floor of `n` squares `[k, k + 1] x [0, 3]` (Y up), and with `deck`: a ramp
    /// `[n, n + 2] x [0, 1]` up to height 2, a landing `[n + 2, n + 3] x [0, 3]` and a
    /// deck `[1, n + 2] x [2, 3]` back over the floor.
    fn floor_and_deck(n: usize, deck: bool) -> NavMesh {
        let mut vertices = Vec::new();
        let mut indices = Vec::new();
        let mut sizes = Vec::new();
        let mut polygon = |corners: &[(f32, f32, f32)]| {
            let base = vertices.len() as u32;
            vertices.extend(corners.iter().map(|&(x, y, z)| Vec3::new(x, y, z)));
            indices.extend(base..base + corners.len() as u32);
            sizes.push(corners.len() as u32);
        };
        for k in 0..n {
            let x = k as f32;
            polygon(&[(x, 0., 0.), (x + 1., 0., 0.), (x + 1., 0., 3.), (x, 0., 3.)]);
        }
        if deck {
            let x = n as f32;
            polygon(&[(x, 0., 0.), (x + 2., 2., 0.), (x + 2., 2., 1.), (x, 0., 1.)]);
            polygon(&[
                (x + 2., 2., 0.),
                (x + 3., 2., 0.),
                (x + 3., 2., 3.),
                (x + 2., 2., 3.),
                (x + 2., 2., 2.),
                (x + 2., 2., 1.),
            ]);
            polygon(&[
                (1., 2., 2.),
                (x + 2., 2., 2.),
                (x + 2., 2., 3.),
                (1., 2., 3.),
            ]);
        }
        let options = MeshOptions::default().with_weld_distance(1e-6);
        NavMesh::from_polygons(&vertices, &indices, &sizes, &options).unwrap()
    }

    #[test]
    fn one_level_is_one_layer_and_a_deck_over_it_another() {
        let flat = floor_and_deck(4, false);
        assert_eq!(Layers::new(flat.data(), &|_| true).count, 1);
        let stacked = floor_and_deck(4, true);
        let mesh = stacked.data();
        let layers = Layers::new(mesh, &|_| true);
        assert_eq!(layers.count, 2);
        let deck = layers.index[&6];
        assert_eq!(layers.layer[deck], 1);
        assert!((0..6).all(|p| layers.layer[layers.index[&p]] == 0));
        // The deck's layer has one seam, onto the landing, which is not a wall; the
        // landing's walls near it are near walls; the floor's walls under the deck are
        // neither.
        let r = 0.25;
        let input = layers.input(mesh, 1, r);
        assert_eq!(input.seams.len(), 1);
        assert_eq!(input.seam_polygons, vec![[6, 5]]);
        assert_eq!(input.walls.len(), 3);
        assert_eq!(input.near_walls.len(), 4);
        assert!(
            input
                .near_walls
                .iter()
                .all(|(a, b)| a.x >= 6.0 && b.x >= 6.0)
        );
        // Without the landing (refused), the deck is alone: no seam, four walls.
        let input = Layers::new(mesh, &|p| p != 5).input(mesh, 1, r);
        assert!(input.seams.is_empty() && input.near_walls.is_empty());
        assert_eq!(input.walls.len(), 4);
    }
}
