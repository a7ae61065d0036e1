//! The islands of a snapshot: a union-find over every tile's own islands, joined where
//! seams and links between tiles join them.

use super::compose::{Tile, layer_of};

/// Per slot (up to the last tile), the island of the whole world of each of the tile's
/// own islands, and the number of islands. Islands are numbered in the order they are
/// first met, slot after slot, so the numbers depend only on the tiles and their seams.
/// Union by size with path halving: each find walks a short chain, whatever the order
/// of the joins.
pub(super) fn island_maps(slots: &[Option<Tile>], merged: bool) -> (Vec<Vec<u32>>, u32) {
    let island_count =
        |tile: &Tile| layer_of(tile, merged).mesh.data().tiles[0].island_map.len() as u32;
    let mut offsets = Vec::with_capacity(slots.len());
    let mut total = 0u32;
    for tile in slots {
        offsets.push(total);
        total += tile.as_ref().map_or(0, island_count);
    }
    let mut sets = Sets::new(total);
    for (slot, tile) in slots.iter().enumerate() {
        let Some(tile) = tile else { continue };
        let layer = layer_of(tile, merged);
        let local_island = |slot: u32, polygon: u32| {
            slots[slot as usize]
                .as_ref()
                .map_or(0, |t| layer_of(t, merged).island(polygon))
        };
        let joins = layer
            .links
            .island_joins(local_island, |polygon| layer.island(polygon));
        // Each tile records the islands its seams join in both directions: joined
        // once, from the lower slot.
        let seams = layer
            .stitched()
            .island_links
            .iter()
            .copied()
            .filter(|&[_, other, _]| other as usize > slot);
        for [own, other, theirs] in seams.chain(joins) {
            sets.join(offsets[slot] + own, offsets[other as usize] + theirs);
        }
    }
    let mut renumber = vec![u32::MAX; total as usize];
    let mut next = 0u32;
    let maps = slots
        .iter()
        .enumerate()
        .map(|(slot, tile)| {
            let Some(tile) = tile else { return Vec::new() };
            (0..island_count(tile))
                .map(|i| {
                    let r = sets.root(offsets[slot] + i) as usize;
                    if renumber[r] == u32::MAX {
                        renumber[r] = next;
                        next += 1;
                    }
                    renumber[r]
                })
                .collect()
        })
        .collect();
    (maps, next)
}

/// Disjoint sets of `0..n`.
struct Sets {
    parent: Vec<u32>,
    size: Vec<u32>,
}

impl Sets {
    fn new(n: u32) -> Sets {
        Sets {
            parent: (0..n).collect(),
            size: vec![1; n as usize],
        }
    }

    /// The representative of `i`'s set.
    fn root(&mut self, mut i: u32) -> u32 {
        while self.parent[i as usize] != i {
            let up = self.parent[self.parent[i as usize] as usize];
            self.parent[i as usize] = up;
            i = up;
        }
        i
    }

    /// Joins the sets of `a` and `b`, the smaller under the larger.
    fn join(&mut self, a: u32, b: u32) {
        let (a, b) = (self.root(a), self.root(b));
        if a == b {
            return;
        }
        let (big, small) = if self.size[a as usize] >= self.size[b as usize] {
            (a, b)
        } else {
            (b, a)
        };
        self.parent[small as usize] = big;
        self.size[big as usize] += self.size[small as usize];
    }
}
