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

use glam::Vec3;

use crate::mesh::carve::Draft;
use crate::mesh::{Moved, NavMesh, PolygonStamps};

/// Writes into `out` what tells two polygons of one tile from the same original polygon
/// apart: its corner positions (bits), from the smallest on.
fn ring_key(corners: impl Iterator<Item = Vec3>, out: &mut Vec<[u32; 3]>) {
    out.clear();
    out.extend(corners.map(|p| p.to_array().map(f32::to_bits)));
    if let Some(first) = (0..out.len()).min_by_key(|&i| out[i]) {
        out.rotate_left(first);
    }
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
    let count = draft.len();
    // The present polygons by the original polygon they come from, each in ascending
    // order (a counting sort: linear in the tile, no hashing of corner lists).
    let owners: Vec<u32> = (0..data.polygon_count()).map(&old_original).collect();
    let span = owners
        .iter()
        .chain(draft.of_original.iter())
        .max()
        .map_or(0, |&m| m as usize + 1);
    let mut first = vec![0u32; span + 1];
    for &o in &owners {
        first[o as usize + 1] += 1;
    }
    for i in 0..span {
        first[i + 1] += first[i];
    }
    let mut by_owner = vec![0u32; owners.len()];
    let mut fill = first.clone();
    for (p, &o) in owners.iter().enumerate() {
        by_owner[fill[o as usize] as usize] = p as u32;
        fill[o as usize] += 1;
    }
    let mut taken = vec![false; owners.len()];
    let (mut wanted, mut candidate) = (Vec::new(), Vec::new());
    // Per polygon of the draft: its number in the present tile, if it is there (the
    // lowest present number of the same original polygon with the same corners).
    let kept: Vec<Option<u32>> = (0..count)
        .map(|i| {
            let owner = draft.of_original[i] as usize;
            // A polygon the draft took from the present tile as it is (the same vertices:
            // no other present polygon of its original has its corners).
            if let Some(q) = draft.present_polygon(i)
                && !taken[q as usize]
                && owners[q as usize] as usize == owner
            {
                taken[q as usize] = true;
                return Some(q);
            }
            ring_key(draft.corners(i), &mut wanted);
            let same = by_owner[first[owner] as usize..first[owner + 1] as usize]
                .iter()
                .copied()
                .find(|&p| {
                    if taken[p as usize] {
                        return false;
                    }
                    let corners = data.corners[data.corner_range(p)]
                        .iter()
                        .map(|&v| data.vertices[v as usize]);
                    ring_key(corners, &mut candidate);
                    candidate == wanted
                })?;
            taken[same as usize] = true;
            Some(same)
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

#[cfg(test)]
mod tests {
    use glam::Vec3;

    use super::*;
    use crate::mesh::MeshOptions;

    /// Three unit squares in a row (y up), in the order `order` of their x.
    fn squares(order: [u32; 3]) -> NavMesh {
        let v = |x: u32, z: u32| Vec3::new(x as f32, 0.0, z as f32);
        let vertices: Vec<Vec3> = (0..4).flat_map(|x| [v(x, 0), v(x, 1)]).collect();
        let indices: Vec<u32> = order
            .iter()
            .flat_map(|&x| [2 * x, 2 * x + 1, 2 * x + 3, 2 * x + 2])
            .collect();
        NavMesh::from_polygons(&vertices, &indices, &[4; 3], &MeshOptions::default()).unwrap()
    }

    #[test]
    fn the_same_polygons_in_place_are_unchanged() {
        let mesh = squares([0, 1, 2]);
        let draft = Draft::uncut(mesh.data());
        let numbering = number(true, &mesh, |p| p, &PolygonStamps::new(1), &draft, 2);
        assert!(numbering.unchanged);
        assert_eq!(numbering.order, [0, 1, 2]);
        assert_eq!(numbering.stamps, PolygonStamps::new(1));
    }

    #[test]
    fn polygons_kept_elsewhere_move_home_with_their_moves_recorded() {
        // Now: square 2 at number 0, square 0 at number 2 (stamped 3 and 4).
        let now = squares([2, 1, 0]);
        let mut stamps = PolygonStamps::new(1);
        stamps.born = vec![3, 1, 4];
        let added = squares([0, 1, 2]);
        let draft = Draft::uncut(added.data());
        let numbering = number(true, &now, |p| 2 - p, &stamps, &draft, 5);
        assert!(!numbering.unchanged);
        assert_eq!(numbering.order, [0, 1, 2]);
        let moved = |from, to, born| Moved {
            generation: 5,
            from,
            to,
            born,
        };
        assert_eq!(numbering.stamps.moves, [moved(2, 0, 4), moved(0, 2, 3)]);
        assert_eq!(numbering.stamps.born, [5, 1, 5]);
        // A reference to square 2 made at generation 3 follows it home.
        assert_eq!(numbering.stamps.resolve(3, 0, 5, 3), Some(2));
    }

    #[test]
    fn carved_polygons_keep_their_numbers_and_new_ones_fill_the_free_ones() {
        // The tile now holds squares 0 and 2 only (numbers 0 and 1); the draft has all
        // three, in the order of the mesh as added: square 1 is new and takes number 2.
        let all = squares([0, 1, 2]);
        let vertices: Vec<Vec3> = (0..4)
            .flat_map(|x| [Vec3::new(x as f32, 0.0, 0.0), Vec3::new(x as f32, 0.0, 1.0)])
            .collect();
        let now = NavMesh::from_polygons(
            &vertices,
            &[0, 1, 3, 2, 4, 5, 7, 6],
            &[4, 4],
            &MeshOptions::default(),
        )
        .unwrap();
        let draft = Draft::uncut(all.data());
        let numbering = number(false, &now, |p| 2 * p, &PolygonStamps::new(1), &draft, 2);
        assert_eq!(numbering.order, [0, 2, 1]);
        assert_eq!(numbering.stamps.born, [1, 1, 2]);
        assert!(numbering.stamps.moves.is_empty());
        assert!(!numbering.unchanged);
    }
}
