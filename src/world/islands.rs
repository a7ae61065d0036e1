//! The islands of a world's snapshots, kept from one snapshot to the next.
//!
//! An island of the world is a set of the tiles' own islands (local islands) joined by
//! seams and by links between tiles. [`Islands`] keeps, per slot, the island of the
//! world of each local island of the tile there (the map a snapshot shares, one `Arc`
//! per slot) and the joins the tile had when it was last seen; per island of the world,
//! its members. A change updates only what it can reach:
//!
//! - a join that appeared (a tile added, a link attached) joins two islands: the one
//!   with fewer members is renumbered into the other (so a local island is renumbered
//!   O(log n) times over any sequence of joins);
//! - a join that went away, or a tile that left or was replaced, may split the islands
//!   it was part of: only those islands are taken apart and joined again from their
//!   members' joins (a union-find over their members, not over the world); when the
//!   change only took joins away (and no link between tiles is attached), searches
//!   from the ends of the joins that went find the pieces cut off instead
//!   ([`split`]), at the cost of those pieces, not of the island.
//!
//! Island numbers stay dense (`0..count`): a number freed takes the last island, whose
//! members are renumbered. Which number an island gets depends on the order of the
//! changes; which polygons share an island does not (the tests compare with a search
//! from scratch after random changes).

use std::collections::HashMap;
use std::sync::Arc;

use super::tile::{Tile, layer_of};

mod split;

/// One layer's islands, kept between snapshots (see the module's documentation).
#[derive(Default)]
pub(super) struct Islands {
    /// Per slot (as many as were ever seen): the tile's local islands and joins.
    slots: Vec<SlotIslands>,
    /// Per island of the world: its local islands as `(slot, local island)`.
    members: Vec<Vec<(u32, u32)>>,
    /// Per slot and local island: its node in the union-find of an update while it is
    /// pending, else `u32::MAX` (scratch kept between updates, so that finding a
    /// pending local island is one lookup).
    node: Vec<Vec<u32>>,
}

/// What [`Islands`] keeps of one slot.
#[derive(Default)]
struct SlotIslands {
    /// Per local island of the tile: its island of the world (empty for an empty slot).
    map: Arc<[u32]>,
    /// `[local island, other slot, its local island]` of every seam and link between
    /// tiles that joins the tile to another, sorted, as last seen.
    joins: Vec<[u32; 3]>,
}

/// The current joins of `tile` (a tile of `slots`, in the given layer): seams (both
/// directions are recorded by the tiles on each side) and links that leave it, sorted.
fn joins_of(slots: &[Option<Tile>], tile: &Tile, merged: bool) -> Vec<[u32; 3]> {
    let layer = layer_of(tile, merged);
    let local_island = |slot: u32, polygon: u32| {
        slots[slot as usize]
            .as_ref()
            .map_or(0, |t| layer_of(t, merged).island(polygon))
    };
    let mut joins = layer.stitched().island_links.clone();
    let before = joins.len();
    joins.extend(
        layer
            .links
            .island_joins(local_island, |polygon| layer.island(polygon)),
    );
    if joins.len() > before {
        joins.sort_unstable();
        joins.dedup();
    }
    joins
}

/// The number of local islands of `tile` in the given layer.
fn local_count(tile: &Tile, merged: bool) -> u32 {
    layer_of(tile, merged).mesh.data().tiles[0].island_map.len() as u32
}

impl Islands {
    /// The map of `slot`'s local islands to the islands of the world (empty for a slot
    /// without a tile), as of the last [`Islands::update`].
    pub fn map(&self, slot: usize) -> Arc<[u32]> {
        self.slots
            .get(slot)
            .map_or_else(|| Arc::from(Vec::new()), |s| s.map.clone())
    }

    /// The number of islands of the world, as of the last [`Islands::update`].
    pub fn count(&self) -> u32 {
        self.members.len() as u32
    }

    /// Brings the islands up to date with `slots` (one layer of them). `dirty` names
    /// every slot whose joins may have changed since the last update (stitched again,
    /// links attached or detached), `replaced` every slot whose tile came, went or was
    /// replaced (its local islands are new); slots may repeat. A slot named in neither
    /// must hold the same tile with the same joins as at the last update.
    ///
    /// Should a join name a local island that is not there (a change that was not
    /// marked: a bug, which debug builds report), the islands are built again from
    /// scratch rather than left wrong.
    pub fn update(
        &mut self,
        slots: &[Option<Tile>],
        merged: bool,
        dirty: &[u32],
        replaced: &[u32],
    ) {
        if !self.try_update(slots, merged, dirty, replaced) {
            *self = Islands::default();
            let all: Vec<u32> = (0..slots.len() as u32)
                .filter(|&s| slots[s as usize].is_some())
                .collect();
            self.try_update(slots, merged, &[], &all);
        }
    }

    /// [`Islands::update`]; `false` when a join names a local island that is not there
    /// (the islands are then to be built again).
    fn try_update(
        &mut self,
        slots: &[Option<Tile>],
        merged: bool,
        dirty: &[u32],
        replaced: &[u32],
    ) -> bool {
        let mut consistent = true;
        if self.slots.len() < slots.len() {
            self.slots.resize_with(slots.len(), SlotIslands::default);
            self.node.resize_with(slots.len(), Vec::new);
        }
        let tile_at = |s: u32| slots.get(s as usize).and_then(Option::as_ref);
        let mut replaced = replaced.to_vec();
        replaced.sort_unstable();
        replaced.dedup();
        let is_replaced = |s: u32| replaced.binary_search(&s).is_ok();
        let mut dirty: Vec<u32> = dirty.iter().copied().filter(|&s| !is_replaced(s)).collect();
        dirty.sort_unstable();
        dirty.dedup();
        if let Some(consistent) = self.update_after_removal(slots, merged, &dirty, &replaced) {
            return consistent;
        }

        // The islands that may split: those of the tiles that left or were replaced, and
        // those of the ends of joins that went away.
        let mut split: Vec<u32> = Vec::new();
        for &r in &replaced {
            split.extend(self.slots[r as usize].map.iter().copied());
        }
        let mut fresh_joins: Vec<(u32, Vec<[u32; 3]>)> = Vec::with_capacity(dirty.len());
        for &d in &dirty {
            let Some(tile) = tile_at(d) else {
                debug_assert!(false, "a dirty slot {d} that was not replaced is empty");
                consistent = false;
                continue;
            };
            let now = joins_of(slots, tile, merged);
            let kept = &self.slots[d as usize];
            for old in &kept.joins {
                if now.binary_search(old).is_err() {
                    split.push(kept.map[old[0] as usize]);
                }
            }
            fresh_joins.push((d, now));
        }
        split.sort_unstable();
        split.dedup();

        // Their members, but for the local islands that are gone, and the local islands
        // of the tiles that came: these are taken apart (`pending`) and joined again.
        let mut pending: Vec<(u32, u32)> = Vec::new();
        for &k in &split {
            pending.extend(
                std::mem::take(&mut self.members[k as usize])
                    .into_iter()
                    .filter(|&(s, _)| !is_replaced(s)),
            );
        }
        for &r in &replaced {
            let entry = &mut self.slots[r as usize];
            match tile_at(r) {
                Some(tile) => {
                    let count = local_count(tile, merged);
                    pending.extend((0..count).map(|i| (r, i)));
                    entry.map = vec![u32::MAX; count as usize].into();
                    entry.joins = joins_of(slots, tile, merged);
                }
                None => *entry = SlotIslands::default(),
            }
        }
        for (d, now) in fresh_joins {
            self.slots[d as usize].joins = now;
        }
        for (n, &(s, i)) in pending.iter().enumerate() {
            let node = &mut self.node[s as usize];
            let count = self.slots[s as usize].map.len();
            if node.len() < count {
                node.resize(count, u32::MAX);
            }
            node[i as usize] = n as u32;
        }

        // A union-find over the pending local islands and the untouched islands of the
        // world they meet (each one node).
        let mut sets = Sets::default();
        sets.grow(pending.len());
        let mut outside: HashMap<u32, usize> = HashMap::new();
        let mut outside_ids: Vec<u32> = Vec::new();
        let mut node_of = |slot: u32, local: u32, sets: &mut Sets| -> usize {
            match self.node[slot as usize].get(local as usize) {
                Some(&n) if n != u32::MAX => return n as usize,
                _ => {}
            }
            let island = self.slots[slot as usize].map[local as usize];
            *outside.entry(island).or_insert_with(|| {
                outside_ids.push(island);
                sets.grow(1)
            })
        };
        // The joins of every pending local island, and every join of the dirty and new
        // tiles (a new join may join two untouched islands).
        let mut edges: Vec<[u32; 4]> = Vec::new();
        for &(s, i) in &pending {
            let joins = &self.slots[s as usize].joins;
            let from = joins.partition_point(|j| j[0] < i);
            edges.extend(
                joins[from..]
                    .iter()
                    .take_while(|j| j[0] == i)
                    .map(|&[own, other, theirs]| [s, own, other, theirs]),
            );
        }
        for &d in dirty.iter().chain(&replaced) {
            edges.extend(
                self.slots[d as usize]
                    .joins
                    .iter()
                    .map(|&[own, other, theirs]| [d, own, other, theirs]),
            );
        }
        for [s, own, other, theirs] in edges {
            let known = |slot: u32, local: u32| {
                self.slots
                    .get(slot as usize)
                    .is_some_and(|e| (local as usize) < e.map.len())
            };
            if !(known(s, own) && known(other, theirs)) {
                debug_assert!(false, "a join of slot {s} names a missing local island");
                consistent = false;
                continue;
            }
            let a = node_of(s, own, &mut sets);
            let b = node_of(other, theirs, &mut sets);
            sets.join(a, b);
        }

        // Each set of the union-find becomes one island: the largest untouched island in
        // it takes the others' members, or a new island is made.
        let mut group_of = vec![usize::MAX; sets.parent.len()];
        let mut groups: Vec<Group> = Vec::new();
        let mut group = |root: usize, groups: &mut Vec<_>| {
            if group_of[root] == usize::MAX {
                group_of[root] = groups.len();
                groups.push(Group::default());
            }
            group_of[root]
        };
        for (node, &island) in outside_ids.iter().enumerate() {
            let g = group(sets.root(pending.len() + node), &mut groups);
            groups[g].islands.push(island);
        }
        for (i, &member) in pending.iter().enumerate() {
            let g = group(sets.root(i), &mut groups);
            groups[g].members.push(member);
        }
        let mut emptied = split;
        for Group { islands, members } in groups {
            let target = match islands
                .iter()
                .copied()
                .max_by_key(|&k| (self.members[k as usize].len(), std::cmp::Reverse(k)))
            {
                Some(target) => {
                    for &k in islands.iter().filter(|&&k| k != target) {
                        let moved = std::mem::take(&mut self.members[k as usize]);
                        self.label(&moved, target);
                        self.members[target as usize].extend(moved);
                        emptied.push(k);
                    }
                    target
                }
                None => {
                    self.members.push(Vec::new());
                    self.members.len() as u32 - 1
                }
            };
            self.label(&members, target);
            self.members[target as usize].extend(members);
        }

        for &(s, i) in &pending {
            self.node[s as usize][i as usize] = u32::MAX;
        }

        self.free(emptied);
        consistent
    }

    /// Drops the islands of `emptied` (no members left; may repeat), keeping numbers
    /// dense: each takes the last island, from the highest down (so the last is never
    /// one still to be freed).
    fn free(&mut self, mut emptied: Vec<u32>) {
        emptied.sort_unstable();
        emptied.dedup();
        for &k in emptied.iter().rev() {
            debug_assert!(self.members[k as usize].is_empty());
            let last = self.members.len() as u32 - 1;
            let moved = self.members.pop().expect("an island to free");
            if k != last {
                self.label(&moved, k);
                self.members[k as usize] = moved;
            }
        }
    }

    /// Sets the island of the world of each of `members` to `island`.
    fn label(&mut self, members: &[(u32, u32)], island: u32) {
        for &(s, i) in members {
            Arc::make_mut(&mut self.slots[s as usize].map)[i as usize] = island;
        }
    }
}

/// One set of the union-find of [`Islands::update`]: the untouched islands of the world
/// in it and the pending local islands.
#[derive(Default)]
struct Group {
    islands: Vec<u32>,
    members: Vec<(u32, u32)>,
}

/// Disjoint sets of `0..n`, union by size with path halving.
#[derive(Default)]
struct Sets {
    parent: Vec<usize>,
    size: Vec<u32>,
}

impl Sets {
    /// Adds `n` sets of one; returns the first.
    fn grow(&mut self, n: usize) -> usize {
        let first = self.parent.len();
        self.parent.extend(first..first + n);
        self.size.resize(first + n, 1);
        first
    }

    /// The representative of `i`'s set.
    fn root(&mut self, mut i: usize) -> usize {
        while self.parent[i] != i {
            let up = self.parent[self.parent[i]];
            self.parent[i] = up;
            i = up;
        }
        i
    }

    /// Joins the sets of `a` and `b`, the smaller under the larger.
    fn join(&mut self, a: usize, b: usize) {
        let (a, b) = (self.root(a), self.root(b));
        if a == b {
            return;
        }
        let (big, small) = if self.size[a] >= self.size[b] {
            (a, b)
        } else {
            (b, a)
        };
        self.parent[small] = big;
        self.size[big] += self.size[small];
    }
}
