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
/// Each table is allocated once, at its final size, as the `Arc` the snapshots share
/// (filled through `Arc::get_mut` while it is not yet shared): a tile is composed
/// again on every change that re-splits it, so copying each table from a `Vec` into
/// its `Arc` would cost about as much as making it.
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
    let own_neighbours = data.neighbours.as_single();
    let own_twin = data.twin.as_single();
    let slot_count = split.corners.len();
    // Every slot a wall, then the tile's own inner edges (never split: one piece each,
    // at the first slot of their original), then the seams.
    let mut neighbours = filled(NO_NEIGHBOUR, slot_count);
    let mut twin = filled(NO_TWIN, slot_count);
    {
        let neighbours = unique(&mut neighbours);
        let twin = unique(&mut twin);
        for (o, &neighbour) in own_neighbours.iter().enumerate() {
            if neighbour != NO_NEIGHBOUR {
                let slot = split.first_slot[o] as usize;
                neighbours[slot] = base | neighbour;
                twin[slot] = base | split.first_slot[own_twin[o] as usize];
            }
        }
        for seam in seams {
            neighbours[seam.slot as usize] = seam.polygon;
            twin[seam.slot as usize] = seam.twin;
        }
    }
    // The ends of the walls left after stitching (those across seams come later).
    let mut wall_vertex = filled(false, vertices.len());
    {
        let walls = unique(&mut wall_vertex);
        for w in split.poly_start.windows(2) {
            let range = w[0] as usize..w[1] as usize;
            let corners = &split.corners[range.clone()];
            for (i, &neighbour) in neighbours[range].iter().enumerate() {
                if neighbour == NO_NEIGHBOUR {
                    let next = if i + 1 == corners.len() { 0 } else { i + 1 };
                    walls[corners[i] as usize] = true;
                    walls[corners[next] as usize] = true;
                }
            }
        }
    }
    let corners: Arc<[u32]> = split.corners.iter().map(|&v| base | v).collect();
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
    let mut portals = filled([0, 0], slot_count);
    let mut dead_end = filled(false, polygon_count);
    {
        let portals = unique(&mut portals);
        let dead_ends = unique(&mut dead_end);
        for (p, &changed) in changed.iter().enumerate() {
            let range = split.poly_start[p] as usize..split.poly_start[p + 1] as usize;
            if !changed {
                let own = own_starts[p] as usize..own_starts[p + 1] as usize;
                for (to, &[a, b]) in portals[range].iter_mut().zip(&own_portals[own]) {
                    *to = [base | a, base | b];
                }
                dead_ends[p] = own_dead_end[p];
                continue;
            }
            let (corners, neighbours) = (&corners[range.clone()], &neighbours[range.clone()]);
            for (i, to) in portals[range].iter_mut().enumerate() {
                *to = portal_of_slot(corners, neighbours, i);
            }
            let mut across = neighbours.iter().filter(|&&n| n != NO_NEIGHBOUR);
            let first = across.next();
            dead_ends[p] = across.all(|n| Some(n) == first);
        }
    }
    TileChunks {
        vertices,
        ground,
        poly_start: split.poly_start.iter().map(|&s| base | s).collect(),
        corners,
        neighbours,
        portals,
        twin,
        wall_vertex,
        dead_end,
    }
}

/// A table of `len` copies of `value`, allocated once as its `Arc`.
fn filled<T: Copy>(value: T, len: usize) -> Arc<[T]> {
    std::iter::repeat_n(value, len).collect()
}

/// The elements of a table just made by [`filled`], not yet shared.
fn unique<T>(table: &mut Arc<[T]>) -> &mut [T] {
    Arc::get_mut(table).expect("a table just made is not shared")
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
