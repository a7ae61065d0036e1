//! Attaching the links between tiles again after a change (see `links` for how a world
//! keeps them): when tiles come and go near the end of a link given with a tile, the end
//! is attached again (or detached: then it has no hop), and the hop chunks of the tiles
//! whose hops change are rebuilt. The work follows the links near the change, not the
//! world (plus one pass over the ends of the world's links between tiles).

use std::collections::HashMap;
use std::sync::Arc;

use super::links::{CrossLink, End};
use super::state::State;
use super::tile::Tile;
use crate::error::MeshError;
use crate::geometry::Aabb;
use crate::mesh::LinkHop;

/// What a change does to the links: new ends, and new hop chunks for some tiles.
#[derive(Default)]
pub(super) struct LinkPlan {
    /// `(slot, link of its cross links, new end)`.
    ends: Vec<(u32, usize, Option<End>)>,
    /// New hop chunks.
    chunks: Vec<HopChunks>,
    /// The slots with a link whose end was attached in a changed slot: their island
    /// joins name that tile's local islands, which a replaced tile numbers anew, even
    /// where the end attaches again to the same polygon.
    rejoined: Vec<u32>,
}

/// A tile's new chunks of the hop tables.
struct HopChunks {
    slot: u32,
    hop_start: Arc<[u32]>,
    hops: Arc<[LinkHop]>,
}

impl State {
    /// The link changes after the tiles of `changed` were added, removed or replaced
    /// (the slots hold what they hold after the change; `regions` are the bounds of
    /// what was there before and what is there now; `gone` is the tile taken out, if
    /// any). Computed in full, applied by [`State::apply_links`].
    ///
    /// # Errors
    /// [`MeshError::TileTooLarge`] when a tile would have more link hops than a slot
    /// numbers.
    pub(super) fn plan_links(
        &self,
        changed: &[u32],
        regions: &[Aabb],
        gone: Option<&Tile>,
    ) -> Result<LinkPlan, MeshError> {
        let mut plan = LinkPlan::default();
        let mut dirty: Vec<u32> = changed.iter().copied().filter(|&s| self.holds(s)).collect();
        if let Some(gone) = gone {
            dirty.extend(gone.links.ends.iter().flatten().map(|e| e.slot));
        }
        // The ends that may move: of the changed tiles' own links, those attached in a
        // changed slot, those near a changed region.
        let mut new_ends: HashMap<(u32, usize), Option<End>> = HashMap::new();
        for (slot, tile) in self.present_tiles() {
            let fresh = changed.contains(&slot);
            for (i, (link, end)) in tile.links.cross.iter().zip(&tile.links.ends).enumerate() {
                let near = |b: &Aabb| b.distance_squared(link.end) <= link.radius * link.radius;
                let into_changed = end.is_some_and(|e| changed.contains(&e.slot));
                if into_changed {
                    plan.rejoined.push(slot);
                }
                let moved = fresh || into_changed || regions.iter().any(near);
                if !moved {
                    continue;
                }
                let now = self.attach_end(slot, link);
                if fresh || now != *end {
                    dirty.push(slot);
                    dirty.extend(end.iter().chain(&now).map(|e| e.slot));
                    plan.ends.push((slot, i, now));
                    new_ends.insert((slot, i), now);
                }
            }
        }
        dirty.sort_unstable();
        dirty.dedup();
        dirty.retain(|&s| self.holds(s));
        if dirty.is_empty() {
            return Ok(plan);
        }
        let end_of = |slot: u32, tile: &Tile, i: usize| match new_ends.get(&(slot, i)) {
            Some(&end) => end,
            None => tile.links.ends[i],
        };
        // The links of every tile whose end is in a dirty tile: their ways back.
        let mut incoming: HashMap<u32, Vec<(u32, usize, End)>> = HashMap::new();
        for (slot, tile) in self.present_tiles() {
            for (i, link) in tile.links.cross.iter().enumerate() {
                if let Some(end) = end_of(slot, tile, i)
                    && link.bidirectional
                    && dirty.binary_search(&end.slot).is_ok()
                {
                    incoming.entry(end.slot).or_default().push((slot, i, end));
                }
            }
        }
        for &t in &dirty {
            let tile = self.tile(t);
            let base = self.base(t);
            let data = tile.mesh.data();
            let links = &tile.links;
            let mut hops: Vec<(u32, LinkHop)> = Vec::new();
            for p in 0..data.polygon_count() {
                for hop in data.links.hops_from(p) {
                    let hop = LinkHop {
                        link: base | hop.link,
                        to_polygon: base | hop.to_polygon,
                        ..*hop
                    };
                    hops.push((p, hop));
                }
            }
            for (i, link) in links.cross.iter().enumerate() {
                if let Some(end) = end_of(t, tile, i) {
                    let hop = LinkHop {
                        link: base | (links.own_count + i as u32),
                        from: link.start,
                        to: end.point,
                        to_polygon: self.base(end.slot) | end.polygon,
                    };
                    hops.push((link.start_polygon, hop));
                }
            }
            for &(u, i, end) in incoming.get(&t).map_or(&[][..], Vec::as_slice) {
                let owner = self.tile(u);
                let link = &owner.links.cross[i];
                let hop = LinkHop {
                    link: self.base(u) | (owner.links.own_count + i as u32),
                    from: end.point,
                    to: link.start,
                    to_polygon: self.base(u) | link.start_polygon,
                };
                hops.push((end.polygon, hop));
            }
            let max = self.max_elements();
            if hops.len() as u64 > max {
                return Err(MeshError::TileTooLarge {
                    slot: t,
                    what: "off-mesh link hops",
                    count: hops.len() as u64,
                    max,
                });
            }
            if hops.is_empty() {
                plan.chunks.push(HopChunks {
                    slot: t,
                    hop_start: Arc::from(Vec::new()),
                    hops: Arc::from(Vec::new()),
                });
                continue;
            }
            hops.sort_by_key(|&(polygon, hop)| (polygon, hop.link));
            let mut hop_start = Vec::with_capacity(data.polygon_count() as usize + 1);
            let mut next = 0usize;
            for p in 0..=data.polygon_count() {
                while next < hops.len() && hops[next].0 < p {
                    next += 1;
                }
                hop_start.push(base | next as u32);
            }
            let hops: Vec<LinkHop> = hops.into_iter().map(|(_, hop)| hop).collect();
            plan.chunks.push(HopChunks {
                slot: t,
                hop_start: hop_start.into(),
                hops: hops.into(),
            });
        }
        Ok(plan)
    }

    /// Applies what [`State::plan_links`] computed.
    pub(super) fn apply_links(&mut self, plan: LinkPlan) {
        self.island_dirty.extend(plan.rejoined);
        for (slot, i, end) in plan.ends {
            self.island_dirty.push(slot);
            self.tile_mut(slot).links.ends[i] = end;
        }
        for chunks in plan.chunks {
            let links = &mut self.tile_mut(chunks.slot).links;
            links.hop_start = chunks.hop_start;
            links.hops = chunks.hops;
        }
    }

    /// Where the end of `link` (given with the tile of `slot`) attaches now: the nearest
    /// point of another tile within its radius.
    fn attach_end(&self, slot: u32, link: &CrossLink) -> Option<End> {
        let limit = link.radius * link.radius;
        let mut best: Option<(End, f32)> = None;
        for (other, tile) in self.present_tiles() {
            let data = tile.mesh.data();
            if other == slot || data.bounds.distance_squared(link.end) > limit {
                continue;
            }
            if let Some(n) = data.nearest_point(link.end, link.radius, |_| true)
                && best.is_none_or(|(_, d)| n.distance < d)
            {
                let end = End {
                    slot: other,
                    polygon: n.polygon,
                    point: n.point,
                };
                best = Some((end, n.distance));
            }
        }
        best.map(|(end, _)| end)
    }
}
