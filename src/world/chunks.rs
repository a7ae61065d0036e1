//! A tile's chunks: the per-element tables of its slot in a snapshot (global ids), made
//! from its own mesh, its wall edges split along its seams ([`SplitTile`]) and the seams
//! filled in; and the wall vertices across seams (where a neighbour's wall ends at a
//! tile's vertex).

use std::sync::Arc;

use glam::{Vec2, Vec3};

use super::compose::Tile;
use super::restitch::Seam;
use super::stitch::{SeamRules, SplitTile};
use crate::mesh::{NO_NEIGHBOUR, NO_TWIN, portal_of_slot};

/// One tile's chunks of the per-element tables that stitching changes (ids global). A
/// vertex is a wall vertex when a wall of the world ends at its point: a wall of its own
/// tile, or of a neighbour (whose vertex there is another, at the same point); where
/// seams join tiles all round a point, no wall ends there and no path bends there.
#[derive(Clone)]
pub(super) struct TileChunks {
    pub vertices: Arc<[Vec3]>,
    pub ground: Arc<[Vec2]>,
    pub poly_start: Arc<[u32]>,
    pub corners: Arc<[u32]>,
    pub neighbours: Arc<[u32]>,
    pub portals: Arc<[[u32; 2]]>,
    pub twin: Arc<[u32]>,
    pub wall_vertex: Arc<[bool]>,
    pub dead_end: Arc<[bool]>,
}

/// The chunks of `tile` (in the slot whose first id is `base`) after `split`, with its
/// `seams` (local slots after splitting) joined.
pub(super) fn compose(tile: &Tile, split: &SplitTile, base: u32, seams: &[Seam]) -> TileChunks {
    let data = tile.mesh.data();
    let up = data.up;
    let own_vertices = data.vertices.chunk(0);
    let own_ground = data.ground.chunk(0);
    let (vertices, ground) = if split.added.is_empty() {
        (own_vertices.clone(), own_ground.clone())
    } else {
        (
            own_vertices.iter().chain(&split.added).copied().collect(),
            own_ground
                .iter()
                .copied()
                .chain(split.added.iter().map(|&v| up.ground(v)))
                .collect(),
        )
    };
    let own_neighbours = data.neighbours.as_single();
    let own_twin = data.twin.as_single();
    let slot_count = split.corners.len();
    let mut neighbours = Vec::with_capacity(slot_count);
    let mut twin = Vec::with_capacity(slot_count);
    for (slot, &origin) in split.origin.iter().enumerate() {
        let o = origin as usize;
        // Only walls are split: an edge with a neighbour in the tile is one piece.
        if own_neighbours[o] != NO_NEIGHBOUR && split.first_slot[o] as usize == slot {
            neighbours.push(base | own_neighbours[o]);
            twin.push(base | split.first_slot[own_twin[o] as usize]);
        } else {
            neighbours.push(NO_NEIGHBOUR);
            twin.push(NO_TWIN);
        }
    }
    for seam in seams {
        neighbours[seam.slot as usize] = seam.polygon;
        twin[seam.slot as usize] = seam.twin;
    }
    // The ends of the walls left after stitching (those across seams come later).
    let mut wall_vertex = vec![false; vertices.len()];
    for w in split.poly_start.windows(2) {
        for slot in w[0] as usize..w[1] as usize {
            if neighbours[slot] == NO_NEIGHBOUR {
                let next = if slot + 1 == w[1] as usize {
                    w[0] as usize
                } else {
                    slot + 1
                };
                wall_vertex[split.corners[slot] as usize] = true;
                wall_vertex[split.corners[next] as usize] = true;
            }
        }
    }
    let corners: Vec<u32> = split.corners.iter().map(|&v| base | v).collect();
    // A polygon neither split nor on a seam keeps the portals and dead-end flag of the
    // tile's own mesh.
    let own_starts = data.poly_start.as_single();
    let own_portals = data.portals.as_single();
    let own_dead_end = data.dead_end.as_single();
    let polygon_count = split.poly_start.len() - 1;
    let mut changed: Vec<bool> = (0..polygon_count)
        .map(|p| split.poly_start[p + 1] - split.poly_start[p] != own_starts[p + 1] - own_starts[p])
        .collect();
    for seam in seams {
        changed[seam.owner as usize] = true;
    }
    let mut portals = Vec::with_capacity(slot_count);
    let mut dead_end = Vec::with_capacity(polygon_count);
    for (p, &changed) in changed.iter().enumerate() {
        if !changed {
            let own = own_starts[p] as usize..own_starts[p + 1] as usize;
            portals.extend(own_portals[own].iter().map(|&[a, b]| [base | a, base | b]));
            dead_end.push(own_dead_end[p]);
            continue;
        }
        let range = split.poly_start[p] as usize..split.poly_start[p + 1] as usize;
        let (corners, neighbours) = (&corners[range.clone()], &neighbours[range]);
        portals.extend((0..corners.len()).map(|i| portal_of_slot(corners, neighbours, i)));
        let mut across = neighbours.iter().filter(|&&n| n != NO_NEIGHBOUR);
        let first = across.next();
        dead_end.push(across.all(|n| Some(n) == first));
    }
    TileChunks {
        vertices,
        ground,
        poly_start: split.poly_start.iter().map(|&s| base | s).collect(),
        corners: corners.into(),
        neighbours: neighbours.into(),
        portals: portals.into(),
        twin: twin.into(),
        wall_vertex: wall_vertex.into(),
        dead_end: dead_end.into(),
    }
}

/// Appends to `points` the points (in the ground plane, and their heights) where the
/// walls of `tile` (stitched as `split` into `chunks`) end, within `margin` of `bounds`.
/// Only pieces of the tile's own walls can be walls after stitching.
pub(super) fn wall_ends(
    tile: &Tile,
    split: &SplitTile,
    chunks: &TileChunks,
    bounds: [Vec2; 2],
    margin: f32,
    points: &mut Vec<(Vec2, f32)>,
) {
    let up = tile.mesh.data().up;
    let (lo, hi) = (
        bounds[0] - Vec2::splat(margin),
        bounds[1] + Vec2::splat(margin),
    );
    let near = |&(p, _): &(Vec2, f32)| p.cmpge(lo).all() && p.cmple(hi).all();
    let corner = |slot: u32| {
        let v = split.corners[slot as usize] as usize;
        (chunks.ground[v], up.height(chunks.vertices[v]))
    };
    for (original, polygon) in tile.border().walls_near(bounds, margin) {
        let end = split.poly_start[polygon as usize + 1];
        let mut slot = split.first_slot[original as usize];
        while slot < end && split.origin[slot as usize] == original {
            if chunks.neighbours[slot as usize] == NO_NEIGHBOUR {
                let next = if slot + 1 == end {
                    split.poly_start[polygon as usize]
                } else {
                    slot + 1
                };
                points.extend([corner(slot), corner(next)].into_iter().filter(near));
            }
            slot += 1;
        }
    }
}

/// Appends to `found` the local ids of the vertices of `tile` (stitched as `split` into
/// `chunks`) that are not wall vertices of their own tile but lie at one of `points` (the
/// wall ends of one neighbour, with their heights): within twice the seam tolerance in
/// the ground plane (the two ends of a seam may each be off by the tolerance) and within
/// the climb in height. Sorts `points`.
pub(super) fn walls_across(
    tile: &Tile,
    split: &SplitTile,
    chunks: &TileChunks,
    points: &mut [(Vec2, f32)],
    rules: &SeamRules,
    found: &mut Vec<usize>,
) {
    if points.is_empty() {
        return;
    }
    points.sort_by(|a, b| a.0.x.total_cmp(&b.0.x));
    let reach = 2.0 * rules.tolerance;
    let bounds = points
        .iter()
        .fold([Vec2::INFINITY, Vec2::NEG_INFINITY], |[lo, hi], &(p, _)| {
            [lo.min(p), hi.max(p)]
        });
    let at_a_point = |v: usize| {
        let (p, h) = (chunks.ground[v], rules.up.height(chunks.vertices[v]));
        let first = points.partition_point(|q| q.0.x < p.x - reach);
        points[first..]
            .iter()
            .take_while(|q| q.0.x <= p.x + reach)
            .any(|q| q.0.distance(p) <= reach && (q.1 - h).abs() <= rules.climb)
    };
    // Only the vertices of the tile's own walls can lie on a neighbour's.
    for (original, polygon) in tile.border().walls_near(bounds, reach) {
        let end = split.poly_start[polygon as usize + 1];
        let mut slot = split.first_slot[original as usize];
        while slot < end && split.origin[slot as usize] == original {
            let v = split.corners[slot as usize] as usize;
            if !chunks.wall_vertex[v] && at_a_point(v) {
                found.push(v);
            }
            slot += 1;
        }
        // The last piece's far end: the first corner of the next original slot.
        let next = if slot == end {
            split.poly_start[polygon as usize]
        } else {
            slot
        };
        let v = split.corners[next as usize] as usize;
        if !chunks.wall_vertex[v] && at_a_point(v) {
            found.push(v);
        }
    }
}
