//! Which vertices of a mesh are corners of the fast lane: the places where a shortest
//! path may bend. The exact search bends only where a wall ends
//! (`MeshData::wall_vertex`). Round such a vertex the polygons form fans (several where
//! walkable regions touch only at the vertex, which no path crosses), each between a
//! wall arriving at the vertex and a wall leaving it (walked with the ground on the
//! left, as the polygons' corners run); a fan is a corner when the boundary turns
//! right there (its ground spans more than a half turn; elsewhere a shortest path
//! never bends). A corner is one fan of one vertex, known by its polygons' corner
//! slots.

use glam::DVec2;

use crate::mesh::fast_lane::NO_CORNER;
use crate::mesh::{MeshData, NO_NEIGHBOUR, NO_TWIN};

/// At most this many polygons are visited going round one vertex.
const MAX_FAN: usize = 1024;

/// The corners of one mesh (of one tile).
pub(super) struct Corners {
    /// Per corner: its vertex.
    pub vertex: Vec<u32>,
    /// Per corner slot of the mesh: the corner of its vertex in its polygon's fan, or
    /// [`NO_CORNER`].
    pub node_of_slot: Vec<u32>,
    /// Per corner: its ground point.
    pub point: Vec<DVec2>,
    /// Per corner: the far ends of its two walls, or `None` when going round the fan
    /// failed (then never pruned).
    pub walls: Vec<Option<[DVec2; 2]>>,
    /// Per corner: a polygon of its fan.
    pub polygon: Vec<u32>,
}

/// The corners of `mesh` (a mesh of one tile).
pub(super) fn find(mesh: &MeshData) -> Corners {
    let ground = |v: u32| mesh.ground[v as usize].as_dvec2();
    let slots = mesh.corners.as_single().len();
    let mut corners = Corners {
        vertex: Vec::new(),
        node_of_slot: vec![NO_CORNER; slots],
        point: Vec::new(),
        walls: Vec::new(),
        polygon: Vec::new(),
    };
    // Per slot: whether its fan was looked at.
    let mut done = vec![false; slots];
    let mut fan = Vec::new();
    for p in 0..mesh.polygon_count() {
        for slot in mesh.corner_range(p) {
            let v = mesh.corners[slot];
            if done[slot] || !mesh.wall_vertex[v as usize] {
                continue;
            }
            let walls = go_round(mesh, p, slot, &mut fan);
            for &s in &fan {
                done[s] = true;
            }
            let at = ground(v);
            if let Some([from, to]) = walls
                && (at - from).perp_dot(to - at) >= 0.0
            {
                // The boundary goes straight on or turns left: no shortest path bends.
                continue;
            }
            let node = corners.vertex.len() as u32;
            for &s in &fan {
                corners.node_of_slot[s] = node;
            }
            corners.vertex.push(v);
            corners.point.push(at);
            corners.walls.push(walls);
            corners.polygon.push(p);
        }
    }
    corners
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
