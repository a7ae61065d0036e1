//! What the points of a clipped piece are: their names (so both sides of an edge agree),
//! the lines their edges lie on, and the f32 rounding of crossings.

use std::collections::HashMap;

use glam::{DVec2, Vec2};

use super::super::MeshData;

/// What a point of a piece is, so that the pieces on both sides of an edge name (and
/// compute) their shared points alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Key {
    /// A vertex of the mesh.
    Vertex(u32),
    /// Where the edge between mesh vertices `low < high` crosses grid line `line` across
    /// ground axis `axis`.
    Crossing {
        low: u32,
        high: u32,
        axis: u8,
        line: u32,
    },
    /// A corner of the grid inside a polygon (each polygon has its own: polygons stacked
    /// on several floors have it at their own heights).
    Corner { column: u32, row: u32, polygon: u32 },
}

/// One name for keys found at one position: each key's name is the root of its set
/// (union-find over the pairs of keys dropped for standing on one another).
pub(super) struct KeyNames {
    parent: HashMap<Key, Key>,
}

impl KeyNames {
    pub(super) fn new(same: &[(Key, Key)]) -> KeyNames {
        let mut names = KeyNames {
            parent: HashMap::new(),
        };
        for &(kept, dropped) in same {
            let (a, b) = (names.name(kept), names.name(dropped));
            if a != b {
                names.parent.insert(b, a);
            }
        }
        names
    }

    pub(super) fn name(&self, mut key: Key) -> Key {
        while let Some(&up) = self.parent.get(&key) {
            key = up;
        }
        key
    }
}

/// The line a piece's edge lies on: a mesh edge, or a grid line.
#[derive(Debug, Clone, Copy)]
pub(super) enum Support {
    Edge(u32, u32),
    Line { axis: usize, line: u32 },
}

/// A corner of a piece being clipped, with the line of the edge to the next corner.
#[derive(Debug, Clone, Copy)]
pub(super) struct Point {
    pub(super) key: Key,
    /// The position, rounded to f32 (a crossing's coordinate across its line is the
    /// line's own value).
    pub(super) ground: Vec2,
    /// The position before rounding.
    pub(super) exact: DVec2,
    pub(super) height: f32,
    pub(super) next: Support,
}

/// The f32 next to finite `x`, above it when `up`, else below.
pub(super) fn next_f32(x: f32, up: bool) -> f32 {
    if x == 0.0 {
        let tiny = f32::from_bits(1);
        return if up { tiny } else { -tiny };
    }
    let bits = x.to_bits();
    // Away from zero, the bits of the magnitude count up.
    f32::from_bits(if (x > 0.0) == up { bits + 1 } else { bits - 1 })
}

/// The spacing of f32 values near `p`.
pub(super) fn rounding_step(p: Vec2) -> f64 {
    f64::from(p.abs().max_element().max(f32::MIN_POSITIVE)) * f64::from(f32::EPSILON)
}

/// Where the edge between mesh vertices `low` and `high` crosses the line `axis` =
/// `value`, unrounded, and how far along the edge (0 at `low`).
pub(super) fn exact_crossing(
    mesh: &MeshData,
    low: u32,
    high: u32,
    axis: usize,
    value: f32,
) -> (DVec2, f64) {
    let (g0, g1) = (
        mesh.ground[low as usize].as_dvec2(),
        mesh.ground[high as usize].as_dvec2(),
    );
    let t = ((f64::from(value) - g0[axis]) / (g1[axis] - g0[axis])).clamp(0.0, 1.0);
    let mut exact = g0 + (g1 - g0) * t;
    exact[axis] = f64::from(value);
    (exact, t)
}

#[cfg(test)]
mod tests {
    use super::next_f32;

    #[test]
    fn next_f32_steps_one_value_either_way() {
        assert_eq!(next_f32(1.0, true), 1.0 + f32::EPSILON);
        assert_eq!(next_f32(1.0, false), 1.0 - f32::EPSILON / 2.0);
        assert_eq!(next_f32(-1.0, true), -1.0 + f32::EPSILON / 2.0);
        assert_eq!(next_f32(-1.0, false), -1.0 - f32::EPSILON);
        assert!(next_f32(0.0, true) > 0.0 && next_f32(0.0, false) < 0.0);
        assert_eq!(next_f32(next_f32(5078.452, true), false), 5078.452);
    }
}
