//! The islands after a change that only takes joins away (tiles removed, seams gone),
//! found by searching from the cut instead of taking whole islands apart.
//!
//! When joins only go, an island of the world can only fall into pieces, and every
//! piece but one holds an end of a join that went (the island was connected before).
//! One search starts at each such end; the searches run a step each in turn, merge
//! where they meet, and stop as soon as at most one group of them is still going. Each
//! group that ran out is a whole piece and becomes an island of its own; the group
//! still going (or, when all ran out, the largest) keeps the island's number. The work
//! is that of the pieces cut off, not of the island (but for one pass over the island's
//! member list that drops the members moved out, a lookup each): removing a tile from a
//! large island that stays whole but for a few local islands costs those few.
//!
//! The searches follow the joins each local island records. Seams are recorded on both
//! sides, links between tiles only on their start's side; so this path is taken only
//! while no link between tiles is attached in the layer (one look at each slot), and the
//! general update of [`Islands::update`] runs otherwise.

use super::{Islands, SlotIslands, joins_of};
use crate::world::tile::{Tile, layer_of};

/// One search of [`Islands::update_after_removal`]: the local islands it found (in
/// order) and those still to look across.
struct Search {
    found: Vec<(u32, u32)>,
    stack: Vec<(u32, u32)>,
}

/// The group (representative search) of search `i`, with path halving.
fn root(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

impl Islands {
    /// [`Islands::update`] when the change only took joins away: the tiles of
    /// `replaced` (sorted, no repeats) all left, and no slot of `dirty` (sorted, no
    /// repeats, none replaced) has a join it did not have. `None` (and nothing changed)
    /// when that is not so, or when a link between tiles is attached in the layer;
    /// `Some(false)` when a join names a local island that is not there.
    pub(super) fn update_after_removal(
        &mut self,
        slots: &[Option<Tile>],
        merged: bool,
        dirty: &[u32],
        replaced: &[u32],
    ) -> Option<bool> {
        let tile_at = |s: u32| slots.get(s as usize).and_then(Option::as_ref);
        if replaced.iter().any(|&r| tile_at(r).is_some()) {
            return None;
        }
        let linked = |tile: &Tile| {
            layer_of(tile, merged)
                .links
                .island_joins(|_, _| 0, |_| 0)
                .next()
                .is_some()
        };
        if slots.iter().flatten().any(linked) {
            return None;
        }
        let is_replaced = |s: u32| replaced.binary_search(&s).is_ok();
        // The joins of the dirty slots now; the ends of those that went start searches.
        let mut fresh = Vec::with_capacity(dirty.len());
        let mut seeds: Vec<(u32, u32)> = Vec::new();
        for &d in dirty {
            let now = joins_of(slots, tile_at(d)?, merged);
            let old = &self.slots[d as usize].joins;
            let mut kept = old.iter();
            for join in &now {
                // `now` must be a subsequence of `old` (both sorted).
                loop {
                    let old_join = kept.next()?;
                    if old_join == join {
                        break;
                    }
                    seeds.extend([(d, old_join[0]), (old_join[1], old_join[2])]);
                }
            }
            seeds.extend(kept.flat_map(|j| [(d, j[0]), (j[1], j[2])]));
            fresh.push((d, now));
        }
        for &r in replaced {
            let joins = &self.slots[r as usize].joins;
            seeds.extend(joins.iter().map(|j| (j[1], j[2])));
        }
        seeds.retain(|&(s, _)| !is_replaced(s));
        let known = |slots: &[SlotIslands], (s, i): (u32, u32)| {
            slots
                .get(s as usize)
                .is_some_and(|e| (i as usize) < e.map.len())
        };
        if !seeds.iter().all(|&seed| known(&self.slots, seed)) {
            return None;
        }

        // The islands that may fall apart: those of the tiles that left and of the
        // ends of the joins that went.
        let mut split: Vec<u32> = seeds
            .iter()
            .map(|&(s, i)| self.slots[s as usize].map[i as usize])
            .collect();
        for &r in replaced {
            split.extend(self.slots[r as usize].map.iter().copied());
            self.slots[r as usize] = SlotIslands::default();
        }
        for (d, now) in fresh {
            self.slots[d as usize].joins = now;
        }
        split.sort_unstable();
        split.dedup();
        // The seeds by island, taken before any piece is renumbered.
        let mut seeds: Vec<(u32, u32, u32)> = seeds
            .into_iter()
            .map(|(s, i)| (self.slots[s as usize].map[i as usize], s, i))
            .collect();
        seeds.sort_unstable();
        seeds.dedup();
        let mut consistent = true;
        let mut emptied = Vec::new();
        for &island in &split {
            let from = seeds.partition_point(|&(k, _, _)| k < island);
            let own_seeds: Vec<(u32, u32)> = seeds[from..]
                .iter()
                .take_while(|&&(k, _, _)| k == island)
                .map(|&(_, s, i)| (s, i))
                .collect();
            consistent &= self.split_island(island, &own_seeds);
            let members = &mut self.members[island as usize];
            let slots_now = &self.slots;
            members.retain(|&(s, i)| {
                !is_replaced(s) && slots_now[s as usize].map[i as usize] == island
            });
            if members.is_empty() {
                emptied.push(island);
            }
        }
        self.free(emptied);
        Some(consistent)
    }

    /// Searches island `island` of the world from `seeds` (its local islands at the
    /// ends of joins that went) and gives each piece cut off from the rest a number of
    /// its own (the members of `island` are left to be pruned by the caller). `false`
    /// when a join names a local island that is not there.
    fn split_island(&mut self, island: u32, seeds: &[(u32, u32)]) -> bool {
        if seeds.len() < 2 {
            // One end (or none) of the cut in this island: what is left of it is whole.
            return true;
        }
        let mut consistent = true;
        let mut searches: Vec<Search> = Vec::with_capacity(seeds.len());
        let mut parent: Vec<usize> = (0..seeds.len()).collect();
        for (k, &(s, i)) in seeds.iter().enumerate() {
            mark(&mut self.node, &self.slots, (s, i), k as u32);
            searches.push(Search {
                found: vec![(s, i)],
                stack: vec![(s, i)],
            });
        }
        let mut going: Vec<usize> = Vec::new();
        loop {
            going.clear();
            for (k, search) in searches.iter().enumerate() {
                if !search.stack.is_empty() {
                    let group = root(&mut parent, k);
                    if !going.contains(&group) {
                        going.push(group);
                    }
                }
            }
            if going.len() <= 1 {
                break;
            }
            for (k, search) in searches.iter_mut().enumerate() {
                let Some((s, i)) = search.stack.pop() else {
                    continue;
                };
                let (table, node) = (&self.slots, &mut self.node);
                let joins = &table[s as usize].joins;
                let first = joins.partition_point(|j| j[0] < i);
                for &[_, o, t] in joins[first..].iter().take_while(|j| j[0] == i) {
                    let there = table
                        .get(o as usize)
                        .and_then(|e| e.map.get(t as usize).copied());
                    if there != Some(island) {
                        debug_assert!(false, "a join of slot {s} leaves its island");
                        consistent = false;
                        continue;
                    }
                    match node[o as usize].get(t as usize).copied() {
                        Some(other) if other != u32::MAX => {
                            let (a, b) = (root(&mut parent, k), root(&mut parent, other as usize));
                            parent[a.max(b)] = a.min(b);
                        }
                        _ => {
                            mark(node, table, (o, t), k as u32);
                            search.found.push((o, t));
                            search.stack.push((o, t));
                        }
                    }
                }
            }
        }
        // The groups that ran out are whole pieces; the one still going keeps the
        // number, or, when all ran out, the largest.
        let mut sizes: Vec<(usize, usize)> = Vec::new(); // (group, members found)
        for (k, search) in searches.iter().enumerate() {
            let group = root(&mut parent, k);
            match sizes.iter_mut().find(|(g, _)| *g == group) {
                Some((_, n)) => *n += search.found.len(),
                None => sizes.push((group, search.found.len())),
            }
        }
        let keeper = going.first().copied().unwrap_or_else(|| {
            sizes
                .iter()
                .max_by_key(|&&(g, n)| (n, std::cmp::Reverse(g)))
                .map_or(0, |&(g, _)| g)
        });
        for search in &searches {
            for &(s, i) in &search.found {
                self.node[s as usize][i as usize] = u32::MAX;
            }
        }
        for &(group, _) in &sizes {
            if group == keeper {
                continue;
            }
            let number = self.members.len() as u32;
            let mut piece = Vec::new();
            for (k, search) in searches.iter_mut().enumerate() {
                if root(&mut parent, k) == group {
                    piece.append(&mut search.found);
                }
            }
            self.label(&piece, number);
            self.members.push(piece);
        }
        consistent
    }
}

/// Marks local island `i` of slot `s` as found by search `k` in `node` (the scratch
/// of [`Islands`] by slot, cleared by the caller).
fn mark(node: &mut [Vec<u32>], slots: &[SlotIslands], (s, i): (u32, u32), k: u32) {
    let count = slots[s as usize].map.len();
    let node = &mut node[s as usize];
    if node.len() < count {
        node.resize(count, u32::MAX);
    }
    node[i as usize] = k;
}
