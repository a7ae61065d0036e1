//! A tile's chunks: the per-element tables of its slot in a snapshot (global ids), made
//! from its own mesh, its wall edges split along its seams ([`SplitTile`]) and the seams
//! filled in; and the wall vertices across seams (where a neighbour's wall ends at a
//! tile's vertex).

use std::sync::Arc;

use glam::{Vec2, Vec3};

use super::stitch::{SeamRules, SplitTile};
use super::stitched::{Seam, TileChunks};
use super::tile::Tile;
use crate::mesh::{NO_NEIGHBOUR, NO_TWIN, portal_of_slot};

/// The chunks of `tile` (in the slot whose first id is `base`) after `split`, with its
/// `seams` (local slots after splitting) joined.
///
/// A tile is composed again on every change that re-splits it, so the per-slot tables
/// are made run by run: the slots between two pieces added by splitting are the tile's
/// own slots moved on by the pieces before them, so each run takes its originals'
/// entries in one plain loop over both tables (the pieces added are pieces of walls).
/// Only the seams and the polygons they or the splits changed are patched afterwards.
pub(super) fn compose(tile: &Tile, split: &SplitTile, base: u32, seams: &[Seam]) -> TileChunks {
    let data = tile.mesh.data();
    let up = data.up;
    let own_vertices = data.vertices.chunk(0);
    let own_ground = data.ground.chunk(0);
    let (vertices, ground): (Arc<[Vec3]>, Arc<[Vec2]>) = if split.added.is_empty() {
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
    // The tile's own inner edges are never split (one piece each, at the first slot of
    // their original), so each takes its twin moved to that slot; walls stay walls
    // (`NO_NEIGHBOUR | base` is `NO_NEIGHBOUR`). Then the seams.
    let mut neighbours = per_slot(split, data.neighbours.as_single(), NO_NEIGHBOUR, |n| {
        base | n
    });
    let mut twin = per_slot(split, data.twin.as_single(), NO_TWIN, |t| {
        if t == NO_TWIN {
            NO_TWIN
        } else {
            base | split.first_slot[t as usize]
        }
    });
    for seam in seams {
        neighbours[seam.slot as usize] = seam.polygon;
        twin[seam.slot as usize] = seam.twin;
    }
    // The ends of the walls left after stitching (those across seams come later): a
    // corner is one when the slot that starts at it or the one before it is a wall.
    let mut wall_vertex = vec![false; vertices.len()];
    for w in split.poly_start.windows(2) {
        let range = w[0] as usize..w[1] as usize;
        let Some(&last) = neighbours[range.clone()].last() else {
            continue;
        };
        let mut before = last == NO_NEIGHBOUR;
        for (&corner, &neighbour) in split.corners[range.clone()].iter().zip(&neighbours[range]) {
            let wall = neighbour == NO_NEIGHBOUR;
            wall_vertex[corner as usize] |= wall | before;
            before = wall;
        }
    }
    let corners: Vec<u32> = split.corners.iter().map(|&v| base | v).collect();
    // A polygon neither split nor on a seam keeps the portals and dead-end flag of the
    // tile's own mesh; the others are found again (the pieces added by splitting are
    // in split polygons).
    let own_starts = data.poly_start.as_single();
    let mut portals = per_slot(split, data.portals.as_single(), [0, 0], |[a, b]| {
        [base | a, base | b]
    });
    let mut dead_end: Vec<bool> = data.dead_end.as_single().to_vec();
    let polygon_count = split.poly_start.len() - 1;
    let split_polygons = (0..polygon_count).filter(|&p| {
        split.poly_start[p + 1] - split.poly_start[p] != own_starts[p + 1] - own_starts[p]
    });
    let mut changed: Vec<u32> = split_polygons.map(|p| p as u32).collect();
    changed.extend(seams.iter().map(|seam| seam.owner));
    changed.sort_unstable();
    changed.dedup();
    for &p in &changed {
        let p = p as usize;
        let range = split.poly_start[p] as usize..split.poly_start[p + 1] as usize;
        let (corners, neighbours) = (&corners[range.clone()], &neighbours[range.clone()]);
        for (i, to) in portals[range].iter_mut().enumerate() {
            *to = portal_of_slot(corners, neighbours, i);
        }
        let mut across = neighbours.iter().filter(|&&n| n != NO_NEIGHBOUR);
        let first = across.next();
        dead_end[p] = across.all(|n| Some(n) == first);
    }
    let poly_start: Vec<u32> = split.poly_start.iter().map(|&s| base | s).collect();
    TileChunks {
        vertices,
        ground,
        poly_start: poly_start.into(),
        corners: corners.into(),
        neighbours: neighbours.into(),
        portals: portals.into(),
        twin: twin.into(),
        wall_vertex: wall_vertex.into(),
        dead_end: dead_end.into(),
    }
}

/// A per-slot table of the tile as `split`: each slot `map` of its original's entry in
/// `own` (the table of the tile's own mesh), each piece added by splitting `added`. The
/// slots are copied in runs, as [`split_tile`](super::stitch::split_tile) lays them out.
fn per_slot<T: Copy, U: Copy>(
    split: &SplitTile,
    own: &[T],
    added: U,
    map: impl Fn(T) -> U,
) -> Vec<U> {
    let mut table = Vec::with_capacity(split.corners.len());
    let mut from = 0;
    for &original in &split.cut_slots {
        let original = original as usize;
        if original >= from {
            table.extend(own[from..=original].iter().map(|&x| map(x)));
            from = original + 1;
        }
        table.push(added);
    }
    table.extend(own[from..].iter().map(|&x| map(x)));
    debug_assert_eq!(table.len(), split.corners.len());
    table
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
