//! Walking a straight segment across the mesh, polygon by polygon, in the ground plane.

use glam::{DVec2, Vec2};

use super::{MeshData, NO_NEIGHBOUR};

/// How far (as a fraction of the edge) an exit point may lie beyond an edge's ends and
/// still count as on the edge.
const EDGE_TOLERANCE: f64 = 1e-9;

/// The parameter at which the segment `from + d * t` leaves the inner half-plane of the
/// counter-clockwise edge `a -> b`, or `None` when it runs along or into it.
#[inline]
fn exit_parameter(a: DVec2, b: DVec2, from: DVec2, d: DVec2) -> Option<f64> {
    // Outward normal of a counter-clockwise edge: to the right of a -> b.
    let edge = b - a;
    let normal = DVec2::new(edge.y, -edge.x);
    let den = normal.dot(d);
    (den > 0.0).then(|| normal.dot(a - from) / den)
}

/// Polygons of at most this many corners keep their edges' exit parameters on the
/// stack between the walk's two passes over the edges (larger ones compute them again).
const CACHED_EDGES: usize = 32;

/// What the choice of a convex polygon's exit edge needs besides the candidates: the
/// segment `from + d * t`, the polygon walked from (`previous`), each edge `i`'s ground
/// points (`edge_at(i)`) and the polygon across it (`neighbour_at(i)`), and which
/// polygons the walk may enter (`passable`).
struct ExitSide<'a, E, N, P> {
    from: DVec2,
    d: DVec2,
    previous: u32,
    edge_at: E,
    neighbour_at: N,
    passable: &'a P,
}

impl<E, N, P> ExitSide<'_, E, N, P>
where
    E: Fn(usize) -> (DVec2, DVec2),
    N: Fn(usize) -> u32,
    P: Fn(u32) -> bool,
{
    /// The exit edge of the polygon left at parameter `t_exit` (< 1) of the segment:
    /// among `candidates` (each edge `i` with an exit parameter `t`, in increasing `i`),
    /// the edges left at (about) `t_exit`, the one holding the exit point, preferring
    /// one that leads on (a neighbour other than `previous` that `passable` admits) when
    /// the point is a vertex; `None` when no edge qualifies (a NaN parameter).
    #[inline(always)]
    fn choose(&self, candidates: impl Iterator<Item = (usize, f64)>, t_exit: f64) -> Option<usize> {
        let exit_point = self.from + self.d * t_exit;
        let mut exit_slot = None;
        let mut best = (true, true, f64::INFINITY);
        for (i, t) in candidates {
            if (t - t_exit).abs() > 1e-9 * (1.0 + t_exit.abs()) {
                continue;
            }
            let (a, b) = (self.edge_at)(i);
            let edge = b - a;
            let s = (exit_point - a).dot(edge) / edge.length_squared();
            let outside = (-s).max(s - 1.0).max(0.0);
            let neighbour = (self.neighbour_at)(i);
            let leads_on = neighbour != NO_NEIGHBOUR
                && neighbour != self.previous
                && (self.passable)(neighbour);
            let key = (outside > EDGE_TOLERANCE, !leads_on, outside);
            if key < best {
                best = key;
                exit_slot = Some(i);
            }
        }
        exit_slot
    }
}

/// Where a straight walk ended.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum WalkEnd {
    /// The segment's end lies in this polygon, reached without leaving the mesh.
    Reached(u32),
    /// The segment leaves the mesh through a wall at parameter `t` (0..1) of the segment.
    Blocked {
        polygon: u32,
        t: f64,
        wall_slot: usize,
    },
}

impl MeshData {
    /// Follows the segment `from -> to` (ground plane) from polygon `start`, which must
    /// hold `from`. Each step leaves the current convex polygon through the edge where the
    /// segment exits it (Cyrus-Beck clipping). Collinear corners make several edges share
    /// one line and so one exit parameter: the exit is the edge whose extent holds the
    /// exit point. When the segment passes exactly through a vertex, an edge that leads
    /// on is preferred over a wall. The walk is conservative: numerical doubt ends it as
    /// `Blocked`, never as a false `Reached`.
    ///
    /// An edge into a polygon for which `passable` is false counts as a wall.
    pub fn walk_straight(
        &self,
        start: u32,
        from: Vec2,
        to: Vec2,
        passable: impl Fn(u32) -> bool,
    ) -> WalkEnd {
        self.walk_straight_through(start, from, to, passable, |_, _| {})
    }

    /// As [`MeshData::walk_straight`], calling `left(polygon, t)` each time the walk
    /// leaves a polygon for the next one, at parameter `t` (0..1, never decreasing) of
    /// the segment.
    pub fn walk_straight_through(
        &self,
        start: u32,
        from: Vec2,
        to: Vec2,
        passable: impl Fn(u32) -> bool,
        mut left: impl FnMut(u32, f64),
    ) -> WalkEnd {
        let (from, to) = (from.as_dvec2(), to.as_dvec2());
        let d = to - from;
        // How far back (as a parameter of the segment) an exit may lie before the entry:
        // the ends are f32 points, snapped onto edges up to rounding, so a start on a
        // portal may sit a few ulps outside its polygon.
        let scale = from.abs().max(to.abs()).max_element().max(1.0);
        let slack = scale * f64::from(f32::EPSILON) * 8.0 / d.length().max(f64::MIN_POSITIVE);
        let mut polygon = start;
        let mut previous = NO_NEIGHBOUR;
        let mut t_enter = 0.0f64;
        for _ in 0..=self.polygon_count() {
            // The polygon's tile, looked up once: its corners, points and neighbours
            // are all in it (on a world of tiles, a lookup by global id decodes it).
            let view = self.tile_view(polygon);
            let range = view.corner_range(polygon);
            let n = range.len();
            let corners = view.corners(range.clone());
            let point = |i: usize| view.point(corners[i]).as_dvec2();
            let exits = ExitSide {
                from,
                d,
                previous,
                edge_at: |i: usize| (point(i), point(if i + 1 == n { 0 } else { i + 1 })),
                neighbour_at: |i: usize| view.neighbour(range.start + i),
                passable: &passable,
            };
            // The exit parameter: the first edge half-plane the segment leaves; then the
            // exit edge among the edges left there.
            let mut t_exit = f64::INFINITY;
            let local_slot = if n <= CACHED_EDGES {
                // One pass reading each corner's point once, each edge's parameter kept
                // (`some`: the edges that have one) for the second pass.
                let mut parameters = [0.0f64; CACHED_EDGES];
                let mut some = 0u64;
                let mut a = point(0);
                for (i, exit) in parameters[..n].iter_mut().enumerate() {
                    let b = point(if i + 1 == n { 0 } else { i + 1 });
                    if let Some(t) = exit_parameter(a, b, from, d) {
                        *exit = t;
                        some |= 1 << i;
                        // As `t_exit.min(t)` (a NaN `t` is passed over) without its
                        // NaN handling: this runs for every forward edge walked.
                        if t < t_exit {
                            t_exit = t;
                        }
                    }
                    a = b;
                }
                if t_exit >= 1.0 {
                    return WalkEnd::Reached(polygon);
                }
                let mut bits = some;
                let candidates = std::iter::from_fn(|| {
                    (bits != 0).then(|| {
                        let i = bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        (i, parameters[i])
                    })
                });
                exits.choose(candidates, t_exit)
            } else {
                let exit_at = |i: usize| {
                    let (a, b) = (exits.edge_at)(i);
                    exit_parameter(a, b, from, d)
                };
                for i in 0..n {
                    if let Some(t) = exit_at(i)
                        && t < t_exit
                    {
                        t_exit = t;
                    }
                }
                if t_exit >= 1.0 {
                    return WalkEnd::Reached(polygon);
                }
                exits.choose((0..n).filter_map(|i| exit_at(i).map(|t| (i, t))), t_exit)
            };
            let exit_slot = local_slot.map_or(usize::MAX, |i| range.start + i);
            let neighbour = view.neighbour(exit_slot);
            if neighbour == NO_NEIGHBOUR || !passable(neighbour) || t_exit < t_enter - slack {
                return WalkEnd::Blocked {
                    polygon,
                    t: t_exit.max(0.0),
                    wall_slot: exit_slot,
                };
            }
            left(polygon, t_exit.max(t_enter).clamp(0.0, 1.0));
            t_enter = t_exit;
            previous = polygon;
            polygon = neighbour;
        }
        WalkEnd::Blocked {
            polygon,
            t: t_enter,
            wall_slot: usize::MAX,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::WalkEnd;
    use crate::mesh::{MeshInput, MeshOptions, NavMesh};
    use glam::{Vec2, Vec3};

    /// A strip of `columns` unit squares along x (ground x, z), each one polygon whose
    /// bottom and top sides are cut into `pieces` collinear edges: `2 * pieces + 2`
    /// corners per polygon.
    fn strip(columns: usize, pieces: usize) -> NavMesh {
        let row = columns * pieces + 1;
        let mut vertices = Vec::new();
        for z in [0.0, 1.0] {
            for j in 0..row {
                vertices.push(Vec3::new(j as f32 / pieces as f32, 0.0, z));
            }
        }
        let (mut indices, mut sizes) = (Vec::new(), Vec::new());
        for k in 0..columns {
            let first = (k * pieces) as u32;
            let bottom = (0..=pieces as u32).map(|i| first + i);
            let top = (0..=pieces as u32).rev().map(|i| row as u32 + first + i);
            indices.extend(bottom.chain(top));
            sizes.push(2 * pieces as u32 + 2);
        }
        let input = MeshInput::new(&vertices, &indices).with_polygon_sizes(&sizes);
        NavMesh::from_input(&input, &MeshOptions::default()).unwrap()
    }

    /// The polygons a walk left, with the parameters, and where it ended.
    fn walk(mesh: &NavMesh, from: Vec2, to: Vec2) -> (Vec<(u32, f64)>, WalkEnd) {
        let data = mesh.data();
        // Polygon k is column k (x from k to k + 1).
        let start = data.polygon_ids().nth(from.x.floor() as usize).unwrap();
        let mut left = Vec::new();
        let end = data.walk_straight_through(start, from, to, |_| true, |p, t| left.push((p, t)));
        (left, end)
    }

    /// Polygons of few corners (their exit parameters kept between the two passes) and
    /// of many (computed again) are crossed alike: the polygons left in order, at the
    /// parameter where the segment meets each column's side, and a segment leaving the
    /// strip is blocked at the strip's side.
    #[test]
    fn polygons_of_few_and_many_corners_are_walked_alike() {
        let (few, many) = (strip(4, 2), strip(4, 24));
        assert!(many.data().corner_range(0).len() > super::CACHED_EDGES);
        assert!(few.data().corner_range(0).len() <= super::CACHED_EDGES);
        let ids: Vec<u32> = few.data().polygon_ids().collect();
        let cases = [
            (Vec2::new(0.3, 0.2), Vec2::new(3.7, 0.9), Some(3)),
            (Vec2::new(3.9, 0.5), Vec2::new(0.1, 0.45), Some(0)),
            (Vec2::new(1.25, 0.1), Vec2::new(2.5, 0.95), Some(2)),
            (Vec2::new(0.5, 0.5), Vec2::new(2.5, 1.5), None),
        ];
        for (from, to, end_column) in cases {
            let (left_few, end_few) = walk(&few, from, to);
            let (left_many, end_many) = walk(&many, from, to);
            assert_eq!(left_few, left_many, "{from} -> {to}");
            // One polygon left per column side crossed (the blocked segment leaves
            // the strip in column 1).
            let last = end_column.unwrap_or(1) as f32;
            let columns = (last - from.x.floor()).abs() as usize;
            assert_eq!(left_few.len(), columns, "{from} -> {to}: {left_few:?}");
            assert_eq!(
                std::mem::discriminant(&end_few),
                std::mem::discriminant(&end_many)
            );
            // Each column's side x = k + 1 (or k going back) is met at its parameter.
            for &(polygon, t) in &left_few {
                let k = ids.iter().position(|&q| q == polygon).unwrap() as f32;
                let side = if to.x > from.x { k + 1.0 } else { k };
                let expected = f64::from((side - from.x) / (to.x - from.x));
                assert!(
                    (t - expected).abs() < 1e-6,
                    "{from} -> {to}: {t} {expected}"
                );
            }
            match (end_column, end_few, end_many) {
                (Some(column), WalkEnd::Reached(a), WalkEnd::Reached(b)) => {
                    assert_eq!(a, ids[column]);
                    assert_eq!(b, ids[column]);
                }
                (
                    None,
                    WalkEnd::Blocked {
                        polygon: a, t: ta, ..
                    },
                    WalkEnd::Blocked {
                        polygon: b, t: tb, ..
                    },
                ) => {
                    // Leaves through the top (z = 1) at t = 0.5, in column 1.
                    assert_eq!((a, b), (ids[1], ids[1]));
                    assert!((ta - 0.5).abs() < 1e-6 && (tb - 0.5).abs() < 1e-6);
                }
                other => panic!("{from} -> {to}: {other:?}"),
            }
        }
    }
}
