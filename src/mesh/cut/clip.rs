//! Clipping one polygon against the squares of the grid, and telling pieces worth
//! keeping from slivers and crumbs made by rounding.

use std::collections::HashMap;

use glam::{DVec2, Vec2};

use super::super::MeshData;
use super::grid::Grid;
use super::points::{Key, Point, Support, exact_crossing, rounding_step};
use super::{CRUMB_STEPS, MIN_RELATIVE_PIECE_AREA, NEAR_STEPS, PLANAR_TOLERANCE};

/// Clips one polygon of a mesh against the grid's squares.
pub(super) struct Clipper<'a> {
    mesh: &'a MeshData,
    grid: &'a Grid,
    polygon: u32,
    corners: &'a [u32],
}

impl<'a> Clipper<'a> {
    pub(super) fn new(mesh: &'a MeshData, grid: &'a Grid, polygon: u32) -> Clipper<'a> {
        Clipper {
            mesh,
            grid,
            polygon,
            corners: &mesh.corners[mesh.corner_range(polygon)],
        }
    }

    fn ground(&self, v: u32) -> Vec2 {
        self.mesh.ground[v as usize]
    }

    fn height(&self, v: u32) -> f32 {
        self.mesh.up.height(self.mesh.vertices[v as usize])
    }

    /// The polygon's box in the ground plane.
    pub(super) fn ground_box(&self) -> (Vec2, Vec2) {
        self.corners.iter().fold(
            (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY)),
            |(lo, hi), &v| (lo.min(self.ground(v)), hi.max(self.ground(v))),
        )
    }

    /// What is clipped of the polygon: the polygon itself when it is planar, else the
    /// triangles of its surface (the fan from its first corner), so that the pieces keep
    /// the surface exactly. Fan triangles without area are left out.
    pub(super) fn parts(&self) -> Vec<Vec<u32>> {
        let point = |v: u32| self.mesh.vertices[v as usize].as_dvec3();
        let corners = self.corners;
        let v0 = point(corners[0]);
        let extent = corners
            .iter()
            .map(|&v| (point(v) - v0).length())
            .fold(0.0, f64::max);
        let mut normal = glam::DVec3::ZERO;
        for pair in corners[1..].windows(2) {
            normal += (point(pair[0]) - v0).cross(point(pair[1]) - v0);
        }
        let normal = normal.normalize_or_zero();
        let planar = corners
            .iter()
            .all(|&v| normal.dot(point(v) - v0).abs() <= PLANAR_TOLERANCE * extent);
        if planar || corners.len() == 3 {
            return vec![corners.to_vec()];
        }
        corners[1..]
            .windows(2)
            .map(|pair| vec![corners[0], pair[0], pair[1]])
            .filter(|t| {
                let g: Vec<DVec2> = t.iter().map(|&v| self.ground(v).as_dvec2()).collect();
                doubled_area(&g) > 0.0
            })
            .collect()
    }

    /// Whether the polygon has no area in the ground plane (a degenerate connector).
    pub(super) fn is_connector(&self) -> bool {
        let points: Vec<DVec2> = self
            .corners
            .iter()
            .map(|&v| self.ground(v).as_dvec2())
            .collect();
        doubled_area(&points) <= 0.0
    }

    /// The piece of the polygon inside square `(column, row)`, counter-clockwise, or
    /// `None` when it has no area there.
    /// Points dropped for standing where another point of the piece stands are
    /// reported in `same`, as (kept, dropped).
    pub(super) fn clip(
        &self,
        part: &[u32],
        column: u32,
        row: u32,
        same: &mut Vec<(Key, Key)>,
    ) -> Option<Vec<Point>> {
        let n = part.len();
        let mut piece: Vec<Point> = (0..n)
            .map(|i| {
                let v = part[i];
                Point {
                    key: Key::Vertex(v),
                    ground: self.ground(v),
                    exact: self.ground(v).as_dvec2(),
                    height: self.height(v),
                    next: Support::Edge(v, part[(i + 1) % n]),
                }
            })
            .collect();
        for (axis, line, keep_above) in [
            (0, column, true),
            (0, column + 1, false),
            (1, row, true),
            (1, row + 1, false),
        ] {
            piece = self.clip_by(&piece, axis, line, keep_above);
            if piece.len() < 3 {
                return None;
            }
        }
        // Points made from different edges may round to one position (next to a
        // vertex outside the square): keep one, and name both alike in every piece.
        let mut i = 0;
        while piece.len() > 1 && i < piece.len() {
            let j = (i + 1) % piece.len();
            if piece[i].ground == piece[j].ground {
                same.push((piece[i].key, piece[j].key));
                piece.remove(j);
            } else {
                i += 1;
            }
        }
        collapse_crossings_at_vertices(&mut piece);
        is_solid(&piece).then_some(piece)
    }

    /// Notes, for each crossing of `piece` next to an end of its edge where the piece
    /// turns almost straight on (so that rounding the crossing to the wrong side of its
    /// edge would make the corner turn the wrong way), the side of the edge the piece
    /// lies on: `sides[key]` is 1 for the left of the edge from its lower vertex to its
    /// higher, -1 for the right, 0 when pieces on both sides need it.
    pub(super) fn note_sides(&self, piece: &[Point], sides: &mut HashMap<Key, i8>) {
        let n = piece.len();
        for (i, c) in piece.iter().enumerate() {
            let Key::Crossing { low, high, .. } = c.key else {
                continue;
            };
            for after in [true, false] {
                // `o, v, c` when the crossing comes after the vertex, `c, v, o` before.
                let (j, k) = if after {
                    ((i + n - 1) % n, (i + n - 2) % n)
                } else {
                    ((i + 1) % n, (i + 2) % n)
                };
                let Key::Vertex(v) = piece[j].key else {
                    continue;
                };
                if v != low && v != high {
                    continue;
                }
                let (vp, op, cp) = (piece[j].exact, piece[k].exact, c.exact);
                let (first, second) = if after {
                    (vp - op, cp - vp)
                } else {
                    (vp - cp, op - vp)
                };
                let sine = first.perp_dot(second) / (first.length() * second.length());
                let step = rounding_step(c.ground);
                if sine >= 4.0 * step / vp.distance(cp) + 1e-6 {
                    continue;
                }
                // The piece lies left of the way it walks the edge.
                let walks_up = (v == low) == after;
                let side = if walks_up { 1 } else { -1 };
                sides
                    .entry(c.key)
                    .and_modify(|s| {
                        if *s != side {
                            *s = 0;
                        }
                    })
                    .or_insert(side);
            }
        }
    }

    /// One step of Sutherland-Hodgman: the part of `piece` on the kept side of grid line
    /// `line` across `axis` (the points on the line are kept).
    fn clip_by(&self, piece: &[Point], axis: usize, line: u32, keep_above: bool) -> Vec<Point> {
        let value = self.grid.lines[axis][line as usize];
        let side = |p: &Point| {
            // -0.0 and 0.0 compare equal here, as they must.
            let s = p.ground[axis].partial_cmp(&value).map_or(0, |o| o as i8);
            if keep_above { s } else { -s }
        };
        let on_line = Support::Line { axis, line };
        let n = piece.len();
        let mut out = Vec::with_capacity(n + 2);
        for i in 0..n {
            let (current, next) = (piece[i], piece[(i + 1) % n]);
            let (sc, sn) = (side(&current), side(&next));
            if sc >= 0 {
                if sn < 0 && sc == 0 {
                    out.push(Point {
                        next: on_line,
                        ..current
                    });
                } else {
                    out.push(current);
                    if sn < 0 {
                        out.push(Point {
                            next: on_line,
                            ..self.crossing(current.next, axis, line)
                        });
                    }
                }
            } else if sn > 0 {
                out.push(Point {
                    next: current.next,
                    ..self.crossing(current.next, axis, line)
                });
            }
        }
        out
    }

    /// Where an edge on `support` crosses grid line `line` across `axis`.
    fn crossing(&self, support: Support, axis: usize, line: u32) -> Point {
        let value = self.grid.lines[axis][line as usize];
        match support {
            Support::Edge(a, b) => {
                // From the whole edge, its ends in a fixed order: the polygon across it
                // computes the same point.
                let (low, high) = (a.min(b), a.max(b));
                let (exact, t) = exact_crossing(self.mesh, low, high, axis, value);
                let mut ground = exact.as_vec2();
                ground[axis] = value;
                let (h0, h1) = (f64::from(self.height(low)), f64::from(self.height(high)));
                Point {
                    key: Key::Crossing {
                        low,
                        high,
                        axis: axis as u8,
                        line,
                    },
                    ground,
                    exact,
                    height: (h0 + (h1 - h0) * t) as f32,
                    next: support,
                }
            }
            Support::Line {
                axis: other,
                line: other_line,
            } => {
                debug_assert_ne!(other, axis, "parallel grid lines do not cross");
                let (column, row) = if axis == 0 {
                    (line, other_line)
                } else {
                    (other_line, line)
                };
                let ground = Vec2::new(
                    self.grid.lines[0][column as usize],
                    self.grid.lines[1][row as usize],
                );
                Point {
                    key: Key::Corner {
                        column,
                        row,
                        polygon: self.polygon,
                    },
                    ground,
                    exact: ground.as_dvec2(),
                    height: self.surface_height(ground),
                    next: support,
                }
            }
        }
    }

    /// The height of the polygon's surface (the fan of triangles from its first corner)
    /// at `ground`, from the triangle that holds it best.
    fn surface_height(&self, ground: Vec2) -> f32 {
        let p = ground.as_dvec2();
        let v0 = self.corners[0];
        let (g0, h0) = (self.ground(v0).as_dvec2(), f64::from(self.height(v0)));
        let mut best = (f64::NEG_INFINITY, h0);
        for pair in self.corners[1..].windows(2) {
            let (g1, g2) = (
                self.ground(pair[0]).as_dvec2(),
                self.ground(pair[1]).as_dvec2(),
            );
            let area = (g1 - g0).perp_dot(g2 - g0);
            if area <= 0.0 {
                continue;
            }
            let w1 = (p - g0).perp_dot(g2 - g0) / area;
            let w2 = (g1 - g0).perp_dot(p - g0) / area;
            let w0 = 1.0 - w1 - w2;
            let worst = w0.min(w1).min(w2);
            if worst > best.0 {
                let (h1, h2) = (
                    f64::from(self.height(pair[0])),
                    f64::from(self.height(pair[1])),
                );
                best = (worst, w0 * h0 + w1 * h1 + w2 * h2);
            }
        }
        best.1 as f32
    }
}

/// Crossings a few f32 steps from an end of their edge in the piece: the short edge
/// between them has no reliable direction, so the crossing is left out (the piece runs
/// from the vertex straight on). Every piece holding both points decides alike.
fn collapse_crossings_at_vertices(piece: &mut Vec<Point>) {
    let mut i = 0;
    while piece.len() > 3 && i < piece.len() {
        let n = piece.len();
        let near_end = match piece[i].key {
            Key::Crossing { low, high, .. } => [(i + n - 1) % n, (i + 1) % n].iter().any(|&j| {
                matches!(piece[j].key, Key::Vertex(v) if v == low || v == high)
                    && piece[j].exact.distance(piece[i].exact)
                        <= NEAR_STEPS * rounding_step(piece[i].ground)
            }),
            _ => false,
        };
        if near_end {
            piece.remove(i);
        } else {
            i += 1;
        }
    }
}

/// Whether a piece has at least 3 corners, no two consecutive ones at one position, an
/// area (it is no sliver, see [`MIN_RELATIVE_PIECE_AREA`]), and a size: a crumb a few
/// f32 steps across (a polygon reaching past a grid corner by next to nothing) could
/// join no neighbouring tile and would stand alone as an island of its own.
pub(super) fn is_solid(piece: &[Point]) -> bool {
    let n = piece.len();
    if n < 3 || (0..n).any(|i| piece[i].ground == piece[(i + 1) % n].ground) {
        return false;
    }
    let points: Vec<DVec2> = piece.iter().map(|p| p.ground.as_dvec2()).collect();
    let (lo, hi) = points.iter().fold(
        (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY)),
        |(lo, hi), &p| (lo.min(p), hi.max(p)),
    );
    if (hi - lo).max_element() <= CRUMB_STEPS * rounding_step(piece[0].ground) {
        return false;
    }
    let longest = (0..n)
        .map(|i| points[i].distance_squared(points[(i + 1) % n]))
        .fold(0.0, f64::max);
    doubled_area(&points) > longest * MIN_RELATIVE_PIECE_AREA
}

/// Twice the signed area of a polygon.
fn doubled_area(points: &[DVec2]) -> f64 {
    let n = points.len();
    (0..n)
        .map(|i| points[i].perp_dot(points[(i + 1) % n]))
        .sum()
}
