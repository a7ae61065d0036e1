//! The polygon numbers of a tile carved again by obstacles, chosen so that polygon
//! references ([`super::PolyRef`]) survive what the change did not touch.
//!
//! The new polygons (a [`Draft`]) are matched with the tile's present ones: a polygon
//! that comes from the same original polygon with the same corners, at the same
//! positions, is the same polygon and keeps its number and its stamp (the generation
//! since which the number names it). The others (new pieces, polygons given back when an
//! obstacle goes) take the numbers left free, lowest first, stamped with the new
//! generation, so that older references to those numbers are stale. When the tile has
//! fewer polygons than before, a kept polygon whose number is beyond the new count moves
//! down into a free number, and the move is recorded ([`Moved`]) so that its older
//! references follow it. When the last obstacle near the tile goes, the tile takes back
//! the mesh it was added as, polygon for polygon: the polygons kept at other numbers
//! move home, recorded the same way.

use std::collections::HashMap;

use glam::Vec3;

use crate::mesh::carve::Draft;
use crate::mesh::{Moved, NavMesh, PolygonStamps};

/// What tells two polygons of one tile apart: the original polygon each comes from and
/// its corner positions (bits), from the smallest on.
type Key = (u32, Vec<[u32; 3]>);

fn key(owner: u32, corners: impl Iterator<Item = Vec3>) -> Key {
    let mut bits: Vec<[u32; 3]> = corners.map(|p| p.to_array().map(f32::to_bits)).collect();
    if let Some(first) = (0..bits.len()).min_by_key(|&i| bits[i]) {
        bits.rotate_left(first);
    }
    (owner, bits)
}

/// The numbers of a tile's new polygons.
pub(super) struct Numbering {
    /// Per polygon of the new tile: the polygon of the draft it is.
    pub order: Vec<u32>,
    /// The new tile's stamps.
    pub stamps: PolygonStamps,
    /// Whether every polygon keeps its number and there is no other: the tile is
    /// polygon for polygon what it was.
    pub unchanged: bool,
}

/// Numbers the polygons of `draft` for the slot whose tile now is `old` (one tile; per
/// polygon, `old_original` gives the original polygon it comes from), stamped `stamps`,
/// the new polygons stamped `generation` (the slot's next). `uncut`: the draft is the
/// mesh as added, whose order the tile takes back (the polygons kept elsewhere move).
pub(super) fn number(
    uncut: bool,
    old: &NavMesh,
    old_original: impl Fn(u32) -> u32,
    stamps: &PolygonStamps,
    draft: &Draft,
    generation: u32,
) -> Numbering {
    let data = old.data();
    let mut present: HashMap<Key, Vec<u32>> = HashMap::new();
    for p in (0..data.polygon_count()).rev() {
        let corners = data.corners[data.corner_range(p)]
            .iter()
            .map(|&v| data.vertices[v as usize]);
        present
            .entry(key(old_original(p), corners))
            .or_default()
            .push(p);
    }
    let count = draft.len();
    // Per polygon of the draft: its number in the present tile, if it is there.
    let kept: Vec<Option<u32>> = (0..count)
        .map(|i| {
            present
                .get_mut(&key(draft.of_original[i], draft.corners(i)))
                .and_then(Vec::pop)
        })
        .collect();
    let mut order: Vec<Option<u32>> = vec![None; count];
    let mut born = vec![generation; count];
    let mut moves = Vec::new();
    let moved = |from: u32, to: usize| Moved {
        generation,
        from,
        to: to as u32,
        born: stamps.born(from),
    };
    if uncut {
        // The mesh as added, polygon for polygon: kept polygons elsewhere move home.
        for (i, &number) in kept.iter().enumerate() {
            order[i] = Some(i as u32);
            match number {
                Some(n) if n as usize == i => born[i] = stamps.born(n),
                Some(n) => moves.push(moved(n, i)),
                None => {}
            }
        }
    } else {
        for (i, &number) in kept.iter().enumerate() {
            if let Some(n) = number.filter(|&n| (n as usize) < count) {
                order[n as usize] = Some(i as u32);
                born[n as usize] = stamps.born(n);
            }
        }
        // Kept polygons beyond the new count first, then the new ones, into the free
        // numbers.
        let movers = (0..count).filter(|&i| kept[i].is_some_and(|n| n as usize >= count));
        let fresh = (0..count).filter(|&i| kept[i].is_none());
        let free: Vec<usize> = (0..count).filter(|&n| order[n].is_none()).collect();
        for (i, n) in movers.chain(fresh).zip(free) {
            order[n] = Some(i as u32);
            if let Some(from) = kept[i] {
                moves.push(moved(from, n));
            }
        }
    }
    let order: Vec<u32> = order.into_iter().map(|i| i.unwrap_or_default()).collect();
    let unchanged = count == data.polygon_count() as usize
        && kept
            .iter()
            .enumerate()
            .all(|(i, &n)| n.is_some_and(|n| order[n as usize] == i as u32));
    let mut next = PolygonStamps {
        since: stamps.since,
        born: if born.iter().all(|&b| b == stamps.since) {
            Vec::new()
        } else {
            born
        },
        moves: stamps.moves.clone(),
    };
    next.record(moves);
    Numbering {
        order,
        stamps: next,
        unchanged,
    }
}
