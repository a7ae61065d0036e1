//! Which vertices of a mesh are corners of the fast lane: the places where a shortest
//! path may bend. The exact search bends only where a wall ends
//! (`MeshData::wall_vertex`). Round such a vertex the polygons form fans (several where
//! walkable regions touch only at the vertex, which no path crosses), each between a
//! wall arriving at the vertex and a wall leaving it (walked with the ground on the
//! left, as the polygons' corners run); a fan is a corner when the boundary turns
//! right there (its ground spans more than a half turn; elsewhere a shortest path
//! never bends). A corner is one fan of one vertex, known by its polygons' corner
//! slots.
//!
//! On a mesh of several tiles (a world's snapshot) the fans go across seams like any
//! portal (a seam's edges are split so that their pieces pair one to one, with twins),
//! and `wall_vertex` is the world's (a vertex is a wall vertex when a wall of the
//! joined ground ends at its point, in its tile or a neighbour's; a border vertex
//! where ground goes on across the seam is not): the corners are those of the joined
//! walkable area, found by the exact search's rule.

use glam::DVec2;

use crate::mesh::fast_lane::NO_CORNER;
use crate::mesh::{MeshData, NO_NEIGHBOUR, NO_TWIN};

/// At most this many polygons are visited going round one vertex.
const MAX_FAN: usize = 1024;

/// The corners of one mesh.
pub(super) struct Corners {
    /// Per corner: its vertex.
    pub vertex: Vec<u32>,
    /// Per tile slot, per corner slot of the tile (its local number): the corner of its
    /// vertex in its polygon's fan, or [`NO_CORNER`].
    pub node_of_slot: Vec<Vec<u32>>,
    /// `local_bits` of the mesh's ids.
    pub local_bits: u32,
    /// Per corner: its ground point.
    pub point: Vec<DVec2>,
    /// Per corner: the far ends of its two walls, or `None` when going round the fan
    /// failed (then never pruned).
    pub walls: Vec<Option<[DVec2; 2]>>,
    /// Per corner: a polygon of its fan.
    pub polygon: Vec<u32>,
}

impl Corners {
    /// The corner of corner slot `slot` (a global id of the mesh), or [`NO_CORNER`].
    #[inline]
    pub fn node_at(&self, slot: usize) -> u32 {
        let (tile, local) = split(self.local_bits, slot);
        self.node_of_slot[tile][local]
    }
}

/// The tile slot and local number of global id `id` of a mesh with `local_bits`.
#[inline]
fn split(local_bits: u32, id: usize) -> (usize, usize) {
    let id = id as u64;
    (
        (id >> local_bits) as usize,
        (id & ((1u64 << local_bits) - 1)) as usize,
    )
}

/// The corners of `mesh` (of any number of tiles).
pub(super) fn find(mesh: &MeshData) -> Corners {
    let ground = |v: u32| mesh.ground[v as usize].as_dvec2();
    let tiles = mesh.corners.chunk_count();
    let mut corners = Corners {
        vertex: Vec::new(),
        node_of_slot: (0..tiles)
            .map(|t| vec![NO_CORNER; mesh.corners.chunk(t).len()])
            .collect(),
        local_bits: mesh.local_bits,
        point: Vec::new(),
        walls: Vec::new(),
        polygon: Vec::new(),
    };
    // Per tile slot, per local slot: whether its fan was looked at.
    let mut done: Vec<Vec<bool>> = (0..tiles)
        .map(|t| vec![false; mesh.corners.chunk(t).len()])
        .collect();
    let bits = mesh.local_bits;
    // Several tiles: a wall cut at a tile border has a vertex there, on the wall's line
    // only up to `f32` rounding, which may bend it either way.
    let tiled = mesh.tiles.len() > 1;
    let mut fan = Vec::new();
    for p in mesh.polygon_ids() {
        for slot in mesh.corner_range(p) {
            let v = mesh.corners[slot];
            let (tile, local) = split(bits, slot);
            if done[tile][local] || !mesh.wall_vertex[v as usize] {
                continue;
            }
            let walls = go_round(mesh, p, slot, &mut fan);
            for &s in &fan {
                let (tile, local) = split(bits, s);
                done[tile][local] = true;
            }
            let at = ground(v);
            if let Some([from, to]) = walls
                && (at - from).perp_dot(to - at) >= 0.0
                && !(tiled && nearly_straight(from, at, to))
            {
                // The boundary goes straight on or turns left: no shortest path bends.
                continue;
            }
            let node = corners.vertex.len() as u32;
            for &s in &fan {
                let (tile, local) = split(bits, s);
                corners.node_of_slot[tile][local] = node;
            }
            corners.vertex.push(v);
            corners.point.push(at);
            corners.walls.push(walls);
            corners.polygon.push(p);
        }
    }
    corners
}

/// Whether `at` lies within 1e-6 (relative to the coordinates' size) of the line
/// through `from` and `to`: a wall bent there by rounding only. Such a vertex is kept
/// as a corner on a mesh of several tiles, where cutting a wall at a tile border puts a
/// vertex on it: rounded off the line to the right, it is a (barely) reflex corner
/// that blocks sight lines grazing the wall, which the exact search goes round; kept,
/// it costs some corners, never a wrong answer.
fn nearly_straight(from: DVec2, at: DVec2, to: DVec2) -> bool {
    let scale = 1e-6
        * from
            .abs()
            .max(at.abs())
            .max(to.abs())
            .max_element()
            .max(1.0);
    let d = to - from;
    (at - from).perp_dot(d).abs() <= scale * d.length()
}

/// The corner slots of the fan round the vertex of `slot` (of polygon `p`) into `fan`,
/// and the far ends of the wall arriving at the vertex and of the wall leaving it;
/// `None` when the fan closes up (no wall) or is too large.
fn go_round(mesh: &MeshData, p: u32, slot: usize, fan: &mut Vec<usize>) -> Option<[DVec2; 2]> {
    let ground = |v: u32| mesh.ground[v as usize].as_dvec2();
    fan.clear();
    fan.push(slot);
    // Counter-clockwise: the edge of a slot leaves the vertex; across it, the twin
    // arrives at the vertex and the slot after it leaves it again.
    let (mut polygon, mut at) = (p, slot);
    let mut leaving = None;
    for _ in 0..MAX_FAN {
        let (q, twin) = (mesh.neighbours[at], mesh.twin[at]);
        if q == NO_NEIGHBOUR || twin == NO_TWIN {
            leaving = Some(ground(mesh.corners[mesh.next_slot(polygon, at)]));
            break;
        }
        (polygon, at) = (q, mesh.next_slot(q, twin as usize));
        if at == slot {
            return None;
        }
        fan.push(at);
    }
    // Clockwise: the edge before a slot arrives at the vertex; across it, the twin
    // leaves the vertex from the slot that holds it.
    let (mut polygon, mut at) = (p, slot);
    let mut arriving = None;
    for _ in 0..MAX_FAN {
        let before = previous_slot(mesh, polygon, at);
        let (q, twin) = (mesh.neighbours[before], mesh.twin[before]);
        if q == NO_NEIGHBOUR || twin == NO_TWIN {
            arriving = Some(ground(mesh.corners[before]));
            break;
        }
        (polygon, at) = (q, twin as usize);
        fan.push(at);
    }
    Some([arriving?, leaving?])
}

/// The corner slot before `slot` in polygon `p`.
fn previous_slot(mesh: &MeshData, p: u32, slot: usize) -> usize {
    let range = mesh.corner_range(p);
    if slot == range.start {
        range.end - 1
    } else {
        slot - 1
    }
}
