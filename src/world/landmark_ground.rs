//! Whether a world's ground still lies within the ground its landmark tables were
//! measured on ([`Reference`]): the tables stay valid exactly while it does (see
//! `mesh/landmarks/carry.rs`), whatever the changes were (tiles removed, added back,
//! replaced by an equal mesh, obstacles added, moved, removed).
//!
//! Tile by tile: a tile now lies within the reference when its mesh has the very ground
//! of a tile of the reference (the same mesh, or one with the same vertices and
//! polygons), in its slot or in any other (a tile streamed back goes into the lowest
//! free slot, not always its own; slots do not change ground), or the mesh it was added
//! as has the ground of an uncarved reference tile (carving only takes ground away);
//! and a tile that lay within stays so while changes only take ground away (carved
//! further). Tiles that each lie within reference tiles meet at seams those had too
//! (seams follow from the tiles' walls), so the world's ground and the edges joining it
//! lie within the reference's.

use std::collections::HashMap;

use glam::DVec2;

use super::state::State;
use super::tile::Tile;
use crate::mesh::{MeshData, NavMesh};

/// Whether a change may add walkable ground.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Change {
    /// Tiles removed or carved: only ground taken away.
    Shrinks,
    /// Tiles added or replaced, obstacles moved or removed: each tile changed is
    /// looked at again (does it lie within the ground the tables were measured on?).
    MayGrow,
}

/// What meshes of the same ground share: polygon and vertex counts and the bits of the
/// low corner of their bounds.
type ShapeKey = (u32, u32, [u32; 3]);

/// The key of `mesh`.
fn key_of(mesh: &NavMesh) -> ShapeKey {
    let data = mesh.data();
    let min = data.bounds.min;
    (
        data.polygon_count(),
        data.vertices.total_len() as u32,
        [min.x.to_bits(), min.y.to_bits(), min.z.to_bits()],
    )
}

/// The ground a world's landmark tables were measured on, and how each tile of the world
/// now stands against it.
pub(super) struct Reference {
    /// Per slot of the world the tables were measured on: its tile there.
    tiles: Vec<Option<ReferenceTile>>,
    /// The slots of `tiles` by the key of their mesh (and, for an uncarved one, that is
    /// the mesh it was added as).
    by_key: HashMap<ShapeKey, Vec<u32>>,
    /// Per slot now: the tile's mesh when last looked at, and whether its ground lies
    /// within the reference tile's (the mesh is held, so its address is not reused).
    seen: Vec<Option<(NavMesh, bool)>>,
}

/// A tile of the world the tables were measured on.
struct ReferenceTile {
    /// Its mesh in the world (carved, if it was).
    mesh: NavMesh,
    /// Whether it was not carved (so `mesh` is the mesh it was added as, and any carving
    /// of that mesh lies within it).
    uncarved: bool,
}

impl Reference {
    /// The world of `state` as the reference.
    pub fn of(state: &State) -> Reference {
        let tiles: Vec<Option<ReferenceTile>> = (0u32..)
            .zip(&state.slots)
            .map(|(slot, tile)| {
                tile.as_ref().map(|t| ReferenceTile {
                    mesh: t.mesh.clone(),
                    uncarved: !state.obstacles.is_carved(slot),
                })
            })
            .collect();
        let seen = tiles
            .iter()
            .map(|t| t.as_ref().map(|t| (t.mesh.clone(), true)))
            .collect();
        let mut by_key: HashMap<ShapeKey, Vec<u32>> = HashMap::new();
        for (slot, tile) in (0u32..).zip(&tiles) {
            if let Some(tile) = tile {
                by_key.entry(key_of(&tile.mesh)).or_default().push(slot);
            }
        }
        Reference {
            tiles,
            by_key,
            seen,
        }
    }

    /// Looks at the tiles of `state` after a change of kind `change` (only the slots
    /// whose mesh changed are compared again) and tells whether every tile present lies
    /// within the reference.
    pub fn update(&mut self, state: &State, change: Change) -> bool {
        if self.seen.len() < state.slots.len() {
            self.seen.resize_with(state.slots.len(), || None);
        }
        let mut within = true;
        let (tiles, by_key) = (&self.tiles, &self.by_key);
        for (slot, seen) in (0u32..).zip(self.seen.iter_mut()) {
            let Some(tile) = state.slots.get(slot as usize).and_then(Option::as_ref) else {
                *seen = None;
                continue;
            };
            let changed = !seen
                .as_ref()
                .is_some_and(|(mesh, _)| same_data(mesh, &tile.mesh));
            if changed {
                let still = match (change, seen.as_ref()) {
                    // Carved further (the slot's tile was not replaced by a removal).
                    (Change::Shrinks, Some(&(_, was))) => was,
                    _ => lies_within(
                        tiles,
                        by_key,
                        slot,
                        tile,
                        state.obstacles.added_mesh(slot, tile),
                    ),
                };
                *seen = Some((tile.mesh.clone(), still));
            }
            within &= seen.as_ref().is_some_and(|&(_, w)| w);
        }
        within
    }

    /// The ground-plane boxes (low and high corners) of the tiles of `state` whose
    /// ground does not lie within the reference, as last [`Reference::update`]d.
    pub fn new_ground(&self, state: &State) -> Vec<[DVec2; 2]> {
        (0u32..)
            .zip(&self.seen)
            .filter(|(_, seen)| seen.as_ref().is_some_and(|&(_, within)| !within))
            .filter_map(|(slot, _)| state.slots.get(slot as usize)?.as_ref())
            .map(|tile| {
                let data = tile.mesh.data();
                let (a, b) = (
                    data.up.ground(data.bounds.min),
                    data.up.ground(data.bounds.max),
                );
                [a.min(b).as_dvec2(), a.max(b).as_dvec2()]
            })
            .collect()
    }
}

/// Whether `tile` (in `slot`, added as `added`) lies within a tile of the reference of
/// `tiles` (indexed by `by_key`): that of its slot first, then those of its mesh's key.
fn lies_within(
    tiles: &[Option<ReferenceTile>],
    by_key: &HashMap<ShapeKey, Vec<u32>>,
    slot: u32,
    tile: &Tile,
    added: &NavMesh,
) -> bool {
    let reference = |s: u32| tiles.get(s as usize).and_then(Option::as_ref);
    if reference(slot).is_some_and(|r| r.holds(tile, added)) {
        return true;
    }
    let mut keys = vec![key_of(&tile.mesh)];
    if !std::ptr::eq(added.data(), tile.mesh.data()) {
        keys.push(key_of(added));
    }
    keys.iter()
        .filter_map(|k| by_key.get(k))
        .flatten()
        .filter_map(|&s| reference(s))
        .any(|r| r.holds(tile, added))
}

impl ReferenceTile {
    /// Whether `tile` (added as `added`) lies within this tile.
    fn holds(&self, tile: &Tile, added: &NavMesh) -> bool {
        same_ground(&self.mesh, &tile.mesh) || (self.uncarved && same_ground(&self.mesh, added))
    }
}

/// Whether `a` and `b` are the very same mesh.
fn same_data(a: &NavMesh, b: &NavMesh) -> bool {
    std::ptr::eq(a.data(), b.data())
}

/// Whether the meshes `a` and `b` (tiles: one chunk each) cover the very same ground:
/// the same mesh, or the same vertices and polygons.
pub(super) fn same_ground(a: &NavMesh, b: &NavMesh) -> bool {
    if same_data(a, b) {
        return true;
    }
    let (a, b): (&MeshData, &MeshData) = (a.data(), b.data());
    let one_chunk = |d: &MeshData| d.tiles.len() == 1 && d.local_bits == 32;
    one_chunk(a)
        && one_chunk(b)
        && a.poly_start.as_single() == b.poly_start.as_single()
        && a.corners.as_single() == b.corners.as_single()
        && a.vertices.as_single() == b.vertices.as_single()
}
