//! The obstacles of a world ([`ObstacleSet`]): those live, by id, and how each carved
//! tile is carved (the mesh it was added as, and where its pieces come from), so that
//! `obstacles` can carve it again and a saved world holds the tiles as added.

use std::collections::{BTreeMap, HashMap};

use glam::DVec2;

use super::tile::Tile;
use crate::mesh::{NavMesh, Obstacle};

/// A tile carved by obstacles.
pub(super) struct Carved {
    /// The mesh it was added as.
    pub original: NavMesh,
    /// Per polygon of the carved mesh: the polygon of `original` it comes from.
    pub of_original: Vec<u32>,
    /// Per polygon of `original`: its run-time flags when the tile was carved, kept for
    /// the polygons an obstacle covers whole (they have no piece to hold them), so that
    /// they come back with their flags when the obstacle goes.
    pub original_flags: Vec<u32>,
}

/// The obstacles of a world and the tiles they carve.
#[derive(Default)]
pub(super) struct ObstacleSet {
    /// The last id given.
    pub last_id: u64,
    pub live: BTreeMap<u64, Obstacle>,
    /// Per slot whose tile is carved.
    pub carved: HashMap<u32, Carved>,
}

impl ObstacleSet {
    /// The mesh the tile of `slot` was added as.
    pub fn added_mesh<'a>(&'a self, slot: u32, tile: &'a Tile) -> &'a NavMesh {
        self.carved.get(&slot).map_or(&tile.mesh, |c| &c.original)
    }

    /// The run-time flags of each polygon of the mesh the tile of `slot` was added as
    /// (numbered as added): for a carved polygon those of its first piece, for one an
    /// obstacle covers whole those it had when it was carved away.
    pub fn flags_as_added(&self, slot: u32, tile: &Tile) -> Vec<u32> {
        let Some(carved) = self.carved.get(&slot) else {
            return (0..tile.mesh.polygon_count())
                .map(|p| tile.flags_of(p))
                .collect();
        };
        let mut flags = carved.original_flags.clone();
        let mut seen = vec![false; flags.len()];
        for (p, &o) in (0u32..).zip(&carved.of_original) {
            if !std::mem::replace(&mut seen[o as usize], true) {
                flags[o as usize] = tile.flags_of(p);
            }
        }
        flags
    }

    /// Whether the tile of `slot` is carved now.
    pub fn is_carved(&self, slot: u32) -> bool {
        self.carved.contains_key(&slot)
    }

    /// Records how the tile of `slot` is carved now (`None`: not at all, or no tile).
    pub fn set_carved(&mut self, slot: u32, carved: Option<Carved>) {
        match carved {
            Some(c) => self.carved.insert(slot, c),
            None => self.carved.remove(&slot),
        };
    }

    /// The obstacles that may touch `mesh`: those whose footprint, grown by its baked
    /// radius, meets its bounds in the ground plane.
    pub fn near(&self, mesh: &NavMesh) -> Vec<&Obstacle> {
        self.live.values().filter(|o| comes_near(o, mesh)).collect()
    }
}

/// Whether `obstacle`, grown by the baked radius of `mesh`, meets its ground bounds.
pub(super) fn comes_near(obstacle: &Obstacle, mesh: &NavMesh) -> bool {
    let data = mesh.data();
    if data.polygon_count() == 0 {
        return false;
    }
    let (lo, hi) = (
        data.up.ground(data.bounds.min).as_dvec2(),
        data.up.ground(data.bounds.max).as_dvec2(),
    );
    let grown = obstacle.grown(data.clearance.baked_radius);
    let (a, b) = grown.iter().fold(
        (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY)),
        |(a, b), &q| (a.min(q), b.max(q)),
    );
    a.x <= hi.x && a.y <= hi.y && b.x >= lo.x && b.y >= lo.y
}
