//! The promise of a path for an agent radius (`agent_radius` above the mesh's baked
//! radius), checked independently of how the library finds it: at least two finite
//! corners, and every segment at least the radius (less a rounding tolerance) from every
//! wall, in the ground plane. A wall is an edge of an admitted polygon without a
//! neighbour or whose neighbour the filter refuses.

use navstar::glam::DVec2;
use navstar::{NavMesh, PathOptions};

use crate::Answer;

/// Whether `options` ask `mesh` for an eroded search.
pub fn applies(mesh: &NavMesh, options: &PathOptions) -> bool {
    options.agent_radius.is_finite() && options.agent_radius > mesh.agent_radius()
}

/// The distance from `p` to the segment `a..b`.
fn point_segment(p: DVec2, a: DVec2, b: DVec2) -> f64 {
    let e = b - a;
    let len2 = e.length_squared();
    let t = if len2 > 0.0 {
        ((p - a).dot(e) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (a + e * t).distance(p)
}

/// The distance between the segments `a..b` and `c..d` (0 when they cross).
fn segment_segment(a: DVec2, b: DVec2, c: DVec2, d: DVec2) -> f64 {
    let side = |p: DVec2, q: DVec2, r: DVec2| (q - p).perp_dot(r - p);
    let (d1, d2, d3, d4) = (side(a, b, c), side(a, b, d), side(c, d, a), side(c, d, b));
    if d1 * d2 < 0.0 && d3 * d4 < 0.0 {
        return 0.0;
    }
    point_segment(a, c, d)
        .min(point_segment(b, c, d))
        .min(point_segment(c, a, b))
        .min(point_segment(d, a, b))
}

/// Checks a path answer for an agent radius (errors are compared with the C ABI's by
/// the caller; they promise nothing more here).
pub fn check_clearance(mesh: &NavMesh, options: &PathOptions, answer: &Answer) {
    let Ok((corners, _)) = answer else { return };
    assert!(corners.len() >= 2, "{corners:?}");
    assert!(corners.iter().all(|c| c.is_finite()), "{corners:?}");
    let up = mesh.up_axis();
    let walls = walls(mesh, |p| options.filter.admits(mesh.polygon_flags(p)));
    let r = f64::from(options.agent_radius - mesh.agent_radius());
    let tolerance = wall_tolerance(&walls);
    for w in corners.windows(2) {
        let (a, b) = (up.ground(w[0]).as_dvec2(), up.ground(w[1]).as_dvec2());
        for &(u, v) in &walls {
            let gap = segment_segment(a, b, u, v);
            assert!(
                gap >= r - tolerance,
                "segment {a} - {b} comes {gap} from the wall {u} - {v}, radius {r}"
            );
        }
    }
}

/// The walls of the polygons `admitted` accepts, in the ground plane: their edges
/// without a neighbour or whose neighbour is refused.
pub fn walls(mesh: &NavMesh, admitted: impl Fn(u32) -> bool) -> Vec<(DVec2, DVec2)> {
    let up = mesh.up_axis();
    let g = |v: u32| up.ground(mesh.vertex(v)).as_dvec2();
    let mut walls = Vec::new();
    for p in mesh.polygon_ids().filter(|&p| admitted(p)) {
        let vertices = mesh.polygon_vertices(p);
        for (i, n) in mesh.polygon_neighbours(p).enumerate() {
            if n.is_none_or(|n| !admitted(n)) {
                walls.push((g(vertices[i]), g(vertices[(i + 1) % vertices.len()])));
            }
        }
    }
    walls
}

/// The rounding tolerance of clearance checks against `walls`.
pub fn wall_tolerance(walls: &[(DVec2, DVec2)]) -> f64 {
    let extent = walls
        .iter()
        .flat_map(|&(a, b)| [a.abs().max_element(), b.abs().max_element()])
        .fold(1.0, f64::max);
    1e-4 + 1e-5 * extent
}

/// The distance from the ground point `p` to the nearest of `walls` (infinite when
/// there is none).
pub fn distance_to_walls(walls: &[(DVec2, DVec2)], p: DVec2) -> f64 {
    walls
        .iter()
        .map(|&(a, b)| point_segment(p, a, b))
        .fold(f64::INFINITY, f64::min)
}
