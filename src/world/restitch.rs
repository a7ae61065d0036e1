//! Stitching tiles again after a change, touching only what the change can affect.
//!
//! A change (tiles of `changed` added, removed or replaced) can alter the seams of the
//! changed tiles' neighbours (`touched`). Each stitched tile keeps what it needs to be
//! left alone: its overlaps with each neighbour (a pure function of the two tiles'
//! geometry, so only pairs with a changed tile are found again), its seam slots, and its
//! wall vertices before those across seams. A tile is stitched again (split, chunks
//! composed) only when it overlaps a changed tile, before or after the change, or when
//! its seams towards a re-stitched tile would pair other slots than they do; every other
//! tile keeps its split and chunks, its twins patched where the slots across its seams
//! moved, and (for the changed tiles' neighbours) its wall vertices found again, since a
//! neighbour's wall may now end, or no longer end, at one of its vertices.
//!
//! The result equals stitching every tile from scratch (the tests compare both after
//! every step of random changes): the overlaps of a pair are always found from the lower
//! slot's side and paired in that order, whatever the order of the changes.

use std::borrow::Cow;
use std::sync::Arc;

use super::chunks::{compose, wall_ends, walls_across};
use super::state::State;
use super::stitch::{Overlap, SplitTile, overlaps, seam_pairs, split_tile};
use super::stitched::{Across, Seam, Stitched, TileChunks};
use super::tile::Tile;
use crate::error::MeshError;

/// A world keeps its tiles' merged layers (and its snapshots a merged copy for the
/// exact mode) while they hold at most this share of its polygons: below that, the copy
/// saves the exact search few nodes, and costs each change a second layer and each
/// exact query a second set of tables in the caches (a grid map cut into tiles merges
/// by well under 1%).
const MERGED_SHARE: f64 = 0.9;

/// What a tile that keeps its split gets from a change.
struct Kept {
    slot: u32,
    /// New twins and seams (the slots across some seams moved).
    twin: Option<(Arc<[u32]>, Vec<Seam>)>,
    /// New wall vertices.
    wall_vertex: Option<Arc<[bool]>>,
    /// The vertices where each neighbour's walls end, when some were found again.
    across: Option<Vec<Across>>,
}

/// What [`State::plan`] makes of a change in one layer.
struct Plan {
    /// The tiles stitched again, with what stitching made of them.
    stitched: Vec<(u32, Stitched)>,
    /// The other tiles whose chunks change.
    kept: Vec<Kept>,
}

/// No entry in a per-slot table of indices.
const NONE: usize = usize::MAX;

impl State {
    /// Refuses a change after which a slot would join two tiles: a slot of a re-stitched
    /// tile (of `again`, whose new seams are `seams`) paired twice, or a kept tile's slot
    /// (`kept_seams`) paired now with another tile than it is. That happens only where
    /// two tiles lie on one another on one level.
    fn check_single_joins(
        &self,
        again: &[u32],
        seams: &[Vec<Seam>],
        kept_seams: &[(u32, Seam)],
        merged: bool,
    ) -> Result<(), MeshError> {
        let tile_of = |polygon: u32| self.slot_of(polygon);
        for (&t, seams) in again.iter().zip(seams) {
            let mut by_slot: Vec<&Seam> = seams.iter().collect();
            by_slot.sort_unstable_by_key(|s| s.slot);
            if let Some(pair) = by_slot.windows(2).find(|w| w[0].slot == w[1].slot) {
                return Err(MeshError::OverlappingTiles {
                    slot: t,
                    others: [tile_of(pair[0].polygon), tile_of(pair[1].polygon)],
                });
            }
        }
        for &(u, seam) in kept_seams {
            let present = &self.layer(u, merged).stitched().seams;
            let at = present.partition_point(|s| s.slot < seam.slot);
            match present.get(at) {
                Some(s) if s.slot == seam.slot && tile_of(s.polygon) == tile_of(seam.polygon) => {}
                found => {
                    return Err(MeshError::OverlappingTiles {
                        slot: u,
                        others: [
                            found.map_or(tile_of(seam.polygon), |s| tile_of(s.polygon)),
                            tile_of(seam.polygon),
                        ],
                    });
                }
            }
        }
        Ok(())
    }
}

impl State {
    /// Stitches again what the change of the tiles of `changed` can affect: `touched`,
    /// their neighbours (present; neighbour lists up to date), and the tiles with seams
    /// towards those. Nothing changes on error.
    ///
    /// # Errors
    /// [`MeshError::TileTooLarge`] when a tile, split, has more elements than a slot
    /// numbers.
    ///
    /// The merged layer is kept only while merging leaves at most [`MERGED_SHARE`] of
    /// the world's polygons (else the exact mode searches the tiles themselves, and
    /// changes cost one layer): the change that crosses that line stitches every
    /// tile's merged layer, once.
    pub(super) fn restitch(&mut self, touched: &[u32], changed: &[u32]) -> Result<(), MeshError> {
        let fine = self.plan(touched, changed, false)?;
        let keep = self.keeps_merged_layers();
        let merged = match (keep, self.merged_layer) {
            (false, _) => None,
            (true, true) => Some(self.plan(touched, changed, true)?),
            (true, false) => {
                let all = self.present();
                Some(self.plan(&all, &all, true)?)
            }
        };
        self.apply(fine, false);
        if let Some(plan) = merged {
            self.apply(plan, true);
        } else if self.merged_layer {
            for tile in self.slots.iter_mut().flatten() {
                if let Some(layer) = tile.merged.as_mut() {
                    layer.tile.stitched = None;
                }
            }
        }
        self.merged_layer = keep;
        Ok(())
    }

    /// Whether the world keeps merged layers: while merging leaves fewer polygons, and at
    /// most [`MERGED_SHARE`] of them. A tile whose merged layer is not made yet counts
    /// as merging to nothing: when even that leaves more than the share, the answer is
    /// no without making any; else every tile's layer is made and counted.
    fn keeps_merged_layers(&mut self) -> bool {
        let count = |t: &Tile| f64::from(t.mesh.polygon_count());
        let (all, least) = self.slots.iter().flatten().fold((0.0, 0.0), |(a, m), t| {
            let merged = t.merged.as_ref().map_or(0.0, |layer| count(&layer.tile));
            (a + count(t), m + merged)
        });
        if least > MERGED_SHARE * all {
            return false;
        }
        self.make_merged_layers();
        let merged: f64 = self
            .slots
            .iter()
            .flatten()
            .map(|t| count(&t.merged().tile))
            .sum();
        merged < all && merged <= MERGED_SHARE * all
    }

    /// The slots that hold a tile.
    fn present(&self) -> Vec<u32> {
        (0..self.slots.len() as u32)
            .filter(|&s| self.slots[s as usize].is_some())
            .collect()
    }

    /// What [`State::restitch`] makes of a change in one layer.
    fn plan(&self, touched: &[u32], changed: &[u32], merged: bool) -> Result<Plan, MeshError> {
        let rules = self.rules;
        let slot_count = self.slots.len();
        let mut is_changed = vec![false; slot_count];
        for &c in changed {
            is_changed[c as usize] = true;
        }
        // The overlaps of every pair with a changed tile present, found from the lower
        // slot's side; the other pairs' are kept by their tiles.
        let mut fresh: Vec<((u32, u32), Vec<Overlap>)> = Vec::new();
        for &c in changed.iter().filter(|&&c| self.holds(c)) {
            for &u in &self.tile(c).neighbours {
                if is_changed[u as usize] && u < c {
                    continue;
                }
                let (lo, hi) = (c.min(u), c.max(u));
                let list = overlaps(
                    &self.layer(lo, merged).shape(),
                    &self.layer(hi, merged).shape(),
                    &rules,
                );
                fresh.push(((lo, hi), list));
            }
        }
        fresh.sort_unstable_by_key(|(pair, _)| *pair);
        // The overlaps of tile `t` with its neighbour `u`, `t`'s edges as `a`.
        let between = |t: u32, u: u32| -> Cow<'_, [Overlap]> {
            let (lo, hi) = (t.min(u), t.max(u));
            if is_changed[t as usize] || is_changed[u as usize] {
                let Ok(i) = fresh.binary_search_by_key(&(lo, hi), |(pair, _)| *pair) else {
                    return Cow::Borrowed(&[]);
                };
                let list = &fresh[i].1;
                return if t == lo {
                    Cow::Borrowed(list)
                } else {
                    Cow::Owned(list.iter().map(mirror).collect())
                };
            }
            let kept = &self.layer(t, merged).stitched().overlaps;
            match kept.binary_search_by_key(&u, |(s, _)| *s) {
                Ok(i) => Cow::Borrowed(&kept[i].1),
                Err(_) => Cow::Borrowed(&[]),
            }
        };

        // The tiles stitched again: the changed ones, and those that overlap a changed
        // tile before or after the change.
        let mut member = vec![NONE; slot_count];
        let mut again: Vec<u32> = Vec::new();
        for &t in touched {
            let overlapped = |c: &u32| {
                let layer = self.layer(t, merged);
                let before = layer.stitched.as_ref().is_some_and(|s| {
                    s.overlaps
                        .binary_search_by_key(c, |(slot, _)| *slot)
                        .is_ok()
                });
                before || (self.holds(*c) && !between(t, *c).is_empty())
            };
            if is_changed[t as usize] || changed.iter().any(overlapped) {
                member[t as usize] = again.len();
                again.push(t);
            }
        }

        let mut splits: Vec<SplitTile> = Vec::new();
        let (seams, island_links, kept_seams) = loop {
            for &t in &again[splits.len()..] {
                let tile = self.layer(t, merged);
                let mut own: Vec<((u32, u32), [glam::Vec2; 2])> = Vec::new();
                for &u in &self.tile(t).neighbours {
                    own.extend(between(t, u).iter().map(|o| (o.a, o.ends)));
                }
                let split = split_tile(&tile.shape(), own, &rules);
                self.check_size(t, tile, &split)?;
                splits.push(split);
            }
            let split_of = |slot: u32| match member[slot as usize] {
                NONE => &self.layer(slot, merged).stitched().split,
                j => &splits[j],
            };
            let mut seams: Vec<Vec<Seam>> = vec![Vec::new(); again.len()];
            let mut island_links: Vec<Vec<[u32; 3]>> = vec![Vec::new(); again.len()];
            // (slot of a tile kept, its seam) for the seams towards re-stitched tiles.
            let mut kept_seams: Vec<(u32, Seam)> = Vec::new();
            let mut kept: Vec<u32> = Vec::new();
            for (i, &t) in again.iter().enumerate() {
                for &u in &self.tile(t).neighbours {
                    let j = member[u as usize];
                    if j != NONE && j < i {
                        continue; // Paired from `u`'s side.
                    }
                    if j == NONE {
                        kept.push(u);
                    }
                    let (lo, hi) = (t.min(u), t.max(u));
                    let list = between(lo, hi);
                    if list.is_empty() {
                        continue;
                    }
                    let (a, b) = (self.layer(lo, merged), self.layer(hi, merged));
                    let pairs = seam_pairs(
                        (&a.shape(), split_of(lo)),
                        (&b.shape(), split_of(hi)),
                        &list,
                        &rules,
                    );
                    let (tile, other) = (self.layer(t, merged), self.layer(u, merged));
                    let (base_t, base_u) = (self.base(t), self.base(u));
                    for pair in pairs {
                        let ((t_slot, t_polygon), (u_slot, u_polygon)) = if t == lo {
                            ((pair.a_slot, pair.a_polygon), (pair.b_slot, pair.b_polygon))
                        } else {
                            ((pair.b_slot, pair.b_polygon), (pair.a_slot, pair.a_polygon))
                        };
                        let (island_t, island_u) =
                            (tile.island(t_polygon), other.island(u_polygon));
                        seams[i].push(Seam {
                            slot: t_slot,
                            owner: t_polygon,
                            polygon: base_u | u_polygon,
                            twin: base_u | u_slot,
                        });
                        island_links[i].push([island_t, u, island_u]);
                        let theirs = Seam {
                            slot: u_slot,
                            owner: u_polygon,
                            polygon: base_t | t_polygon,
                            twin: base_t | t_slot,
                        };
                        if j == NONE {
                            kept_seams.push((u, theirs));
                        } else {
                            seams[j].push(theirs);
                            island_links[j].push([island_u, t, island_t]);
                        }
                    }
                }
            }
            // A tile kept must pair the same slots with the same polygons of the
            // re-stitched tiles as before; one that does not is stitched again too.
            kept_seams.sort_unstable();
            kept.sort_unstable();
            kept.dedup();
            let mut grown = false;
            for &u in &kept {
                let new = kept_seams[kept_seams.partition_point(|(s, _)| *s < u)..]
                    .iter()
                    .take_while(|(s, _)| *s == u)
                    .map(|(_, seam)| (seam.slot, seam.polygon));
                let old = self
                    .layer(u, merged)
                    .stitched()
                    .seams
                    .iter()
                    .filter(|seam| member[self.slot_of(seam.polygon) as usize] != NONE)
                    .map(|seam| (seam.slot, seam.polygon));
                if !new.eq(old) {
                    member[u as usize] = again.len();
                    again.push(u);
                    grown = true;
                }
            }
            if !grown {
                break (seams, island_links, kept_seams);
            }
        };
        self.check_single_joins(&again, &seams, &kept_seams, merged)?;

        let mut chunks: Vec<TileChunks> = again
            .iter()
            .zip(&splits)
            .zip(&seams)
            .map(|((&t, split), seams)| compose(self.layer(t, merged), split, self.base(t), seams))
            .collect();
        let own_walls: Vec<Arc<[bool]>> = chunks.iter().map(|c| c.wall_vertex.clone()).collect();
        // Wall vertices across seams: of the re-stitched tiles and of the changed tiles'
        // other neighbours (a wall of a neighbour may now end at one of their vertices).
        let others: Vec<u32> = touched
            .iter()
            .copied()
            .filter(|&t| member[t as usize] == NONE)
            .collect();
        let tables_of = |slot: u32| match member[slot as usize] {
            NONE => {
                let stitched = self.layer(slot, merged).stitched();
                (&stitched.split, &stitched.chunks)
            }
            j => (&splits[j], &chunks[j]),
        };
        // Per neighbour of `t` (whose own chunks are `own`), the points where its walls
        // end near `t` and the vertices of `t` there. An entry of `before` (what `t` had)
        // holds while the neighbour keeps the tables it was found with: all of it when
        // `t` kept its own tables too (`t_kept`), else its points.
        let across_of = |t: u32, own: &TileChunks, before: &[Across], t_kept: bool| {
            let tile = self.layer(t, merged);
            let split = tables_of(t).0;
            let mut again = false;
            let lists: Vec<Across> = self
                .tile(t)
                .neighbours
                .iter()
                .map(|&u| {
                    let (split_u, tables_u) = tables_of(u);
                    let same =
                        |k: &&Across| k.slot == u && Arc::ptr_eq(&k.walls_of, &tables_u.neighbours);
                    let kept = before.iter().find(same);
                    if let Some(k) = kept.filter(|_| t_kept) {
                        return k.clone();
                    }
                    again = true;
                    let mut ends = match kept {
                        Some(k) => k.ends.clone(),
                        None => {
                            let mut points = Vec::new();
                            wall_ends(
                                self.layer(u, merged),
                                split_u,
                                tables_u,
                                tile.border().bounds(),
                                rules.tolerance,
                                &mut points,
                            );
                            points
                        }
                    };
                    let mut found = Vec::new();
                    walls_across(tile, split, own, &mut ends, &rules, &mut found);
                    found.sort_unstable();
                    found.dedup();
                    Across {
                        slot: u,
                        walls_of: Arc::clone(&tables_u.neighbours),
                        ends,
                        found,
                    }
                })
                .collect();
            (lists, again)
        };
        let across: Vec<Vec<Across>> = again
            .iter()
            .zip(&chunks)
            .map(|(&t, own)| {
                let layer = self.layer(t, merged);
                let before = layer.stitched.as_ref().map_or(&[][..], |s| &s.across[..]);
                across_of(t, own, before, false).0
            })
            .collect();
        let mut kept: Vec<Kept> = Vec::new();
        for &t in &others {
            let stitched = self.layer(t, merged).stitched();
            let own = TileChunks {
                wall_vertex: stitched.own_walls.clone(),
                ..stitched.chunks.clone()
            };
            let (lists, found_again) = across_of(t, &own, &stitched.across, true);
            if !found_again && lists.len() == stitched.across.len() {
                continue; // Every neighbour's walls as before.
            }
            let mut walls = stitched.own_walls.to_vec();
            for v in lists.iter().flat_map(|list| &list.found) {
                walls[*v] = true;
            }
            let wall_vertex = (walls[..] != stitched.chunks.wall_vertex[..]).then(|| walls.into());
            kept.push(Kept {
                slot: t,
                twin: None,
                wall_vertex,
                across: Some(lists),
            });
        }
        for (chunks, across) in chunks.iter_mut().zip(&across) {
            if across.iter().any(|list| !list.found.is_empty()) {
                let mut walls = chunks.wall_vertex.to_vec();
                for v in across.iter().flat_map(|list| &list.found) {
                    walls[*v] = true;
                }
                chunks.wall_vertex = walls.into();
            }
        }

        // Twins of the kept tiles' seams towards re-stitched tiles, where those moved.
        for run in kept_seams.chunk_by(|a, b| a.0 == b.0) {
            let slot = run[0].0;
            let stitched = self.layer(slot, merged).stitched();
            if run
                .iter()
                .all(|(_, seam)| stitched.chunks.twin[seam.slot as usize] == seam.twin)
            {
                continue;
            }
            let mut twin = stitched.chunks.twin.to_vec();
            let mut seams = stitched.seams.clone();
            for &(_, seam) in run {
                twin[seam.slot as usize] = seam.twin;
                let at = seams.partition_point(|s| s.slot < seam.slot);
                seams[at].twin = seam.twin;
            }
            let entry = match kept.iter().position(|k| k.slot == slot) {
                Some(k) => &mut kept[k],
                None => {
                    kept.push(Kept {
                        slot,
                        twin: None,
                        wall_vertex: None,
                        across: None,
                    });
                    kept.last_mut().expect("just pushed")
                }
            };
            entry.twin = Some((twin.into(), seams));
        }

        let stitched = again
            .iter()
            .zip(splits)
            .zip(chunks)
            .zip(own_walls.into_iter().zip(across))
            .zip(seams.into_iter().zip(island_links))
            .map(
                |((((&t, split), chunks), (own_walls, across)), (mut seams, mut links))| {
                    seams.sort_unstable();
                    links.sort_unstable();
                    links.dedup();
                    let overlaps = self
                        .tile(t)
                        .neighbours
                        .iter()
                        .filter_map(|&u| {
                            let list = between(t, u);
                            (!list.is_empty()).then(|| (u, list.into_owned()))
                        })
                        .collect::<Vec<_>>();
                    let mut overlaps = overlaps;
                    overlaps.sort_unstable_by_key(|(u, _)| *u);
                    let stitched = Stitched {
                        split,
                        chunks,
                        island_links: links,
                        overlaps,
                        seams,
                        own_walls,
                        across,
                    };
                    (t, stitched)
                },
            )
            .collect();
        Ok(Plan { stitched, kept })
    }

    /// Puts what [`State::plan`] made into the tiles' layer.
    fn apply(&mut self, plan: Plan, merged: bool) {
        for (t, stitched) in plan.stitched {
            self.island_dirty.push(t);
            self.layer_mut(t, merged).stitched = Some(stitched);
        }
        for kept in plan.kept {
            let stitched = self
                .layer_mut(kept.slot, merged)
                .stitched
                .as_mut()
                .expect("a kept tile is stitched");
            if let Some((twin, seams)) = kept.twin {
                stitched.chunks.twin = twin;
                stitched.seams = seams;
            }
            if let Some(walls) = kept.wall_vertex {
                stitched.chunks.wall_vertex = walls;
            }
            if let Some(across) = kept.across {
                stitched.across = across;
            }
        }
    }

    /// Stitches every tile again from scratch (tests compare it with what the changes
    /// made step by step).
    #[cfg(test)]
    pub fn restitch_all(&mut self) -> Result<(), MeshError> {
        let all = self.present();
        self.restitch(&all, &all)
    }

    /// The slot of element id `id`.
    fn slot_of(&self, id: u32) -> u32 {
        (u64::from(id) >> self.local_bits) as u32
    }

    /// [`MeshError::TileTooLarge`] unless the split tile's elements fit in a slot.
    fn check_size(&self, slot: u32, tile: &Tile, split: &SplitTile) -> Result<(), MeshError> {
        let max = (1u64 << self.local_bits) - 1;
        let data = tile.mesh.data();
        let counts = [
            ("polygons", u64::from(data.polygon_count())),
            (
                "vertices",
                data.vertices.as_single().len() as u64 + split.added.len() as u64,
            ),
            ("polygon corners", split.corners.len() as u64),
        ];
        for (what, count) in counts {
            if count > max {
                return Err(MeshError::TileTooLarge {
                    slot,
                    what,
                    count,
                    max,
                });
            }
        }
        Ok(())
    }
}

/// `overlap` seen from its other tile.
fn mirror(overlap: &Overlap) -> Overlap {
    Overlap {
        a: overlap.b,
        b: overlap.a,
        ends: overlap.ends,
    }
}
