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
    /// Per corner slot of the mesh, by its dense number ([`dense_slots`]): the corner
    /// of its vertex in its polygon's fan, or [`NO_CORNER`].
    pub node_of_slot: Vec<u32>,
    /// Per corner: its ground point.
    pub point: Vec<DVec2>,
    /// Per corner: the far ends of its two walls, or `None` when going round the fan
    /// failed (then never pruned).
    pub walls: Vec<Option<[DVec2; 2]>>,
    /// Per corner: a polygon of its fan.
    pub polygon: Vec<u32>,
}

/// Per tile slot of `mesh`: the dense number of its first corner slot (the slots
/// numbered tile after tile; on a mesh of one tile the dense number is the slot id).
pub(super) fn dense_slots(mesh: &MeshData) -> Vec<u32> {
    let mut prefix = Vec::with_capacity(mesh.corners.chunk_count());
    let mut total = 0u32;
    for t in 0..mesh.corners.chunk_count() {
        prefix.push(total);
        total += mesh.corners.chunk(t).len() as u32;
    }
    prefix
}

/// The corners of `mesh` (of any number of tiles).
pub(super) fn find(mesh: &MeshData) -> Corners {
    let ground = |v: u32| mesh.ground[v as usize].as_dvec2();
    let slots = mesh.corners.total_len();
    let mut corners = Corners {
        vertex: Vec::new(),
        node_of_slot: vec![NO_CORNER; slots],
        point: Vec::new(),
        walls: Vec::new(),
        polygon: Vec::new(),
    };
    let prefix = dense_slots(mesh);
    let dense = |slot: usize| {
        let (tile, local) = mesh.split_id(slot as u32);
        prefix[tile] as usize + local as usize
    };
    // Per dense slot: whether its fan was looked at.
    let mut done = vec![false; slots];
    // Several tiles: a wall cut at a tile border has a vertex there, on the wall's line
    // only up to `f32` rounding, which may bend it either way.
    let tiled = mesh.tiles.len() > 1;
    let mut fan = Vec::new();
    for p in mesh.polygon_ids() {
        for slot in mesh.corner_range(p) {
            let v = mesh.corners[slot];
            if done[dense(slot)] || !mesh.wall_vertex[v as usize] {
                continue;
            }
            let at = ground(v);
            // Across seams a fan's vertex has a copy per tile, up to the seam tolerance
            // apart, and the cut leaves wall pieces that short: a wall end that near
            // gives no direction to judge by. Such a corner is kept, and never pruned
            // (its walls unknown): a wrong direction dropped the corner a shortest path
            // bends round (seen: wall pieces of 8.6e-5 and 9.7e-4 at a cut corner).
            let near = 1e-4 * at.abs().max_element().max(1.0);
            let walls = go_round(mesh, p, slot, &mut fan)
                .filter(|ends| !tiled || ends.iter().all(|e| e.distance(at) > near));
            for &s in &fan {
                done[dense(s)] = true;
            }
            if let Some([from, to]) = walls
                && (at - from).perp_dot(to - at) >= 0.0
                && !(tiled && nearly_straight(from, at, to))
            {
                // The boundary goes straight on or turns left: no shortest path bends.
                continue;
            }
            let node = corners.vertex.len() as u32;
            for &s in &fan {
                corners.node_of_slot[dense(s)] = node;
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
