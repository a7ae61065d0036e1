//! A tile in a world: the mesh it was added as, its merged layer for the exact mode,
//! its neighbours, flags and links, and what stitching made of it ([`Stitched`]). The
//! world's state ([`super::state`]) keeps one per slot; the files above this one stitch,
//! link and compose them.

use std::sync::atomic::Ordering;
use std::sync::{Arc, OnceLock};

use super::border_cache::BorderCache;
use super::links::TileLinks;
use super::stitch::{Border, TileShape};
use super::stitched::Stitched;
use crate::mesh::{NavMesh, PolygonStamps};
use crate::sync::AtomicU32;

/// A tile in the world.
pub(super) struct Tile {
    /// The mesh it was added as (one tile: local ids).
    pub mesh: NavMesh,
    /// The generation of its slot when it was put there (that of its
    /// [`TileRef`](super::TileRef)).
    pub generation: u32,
    /// Since which generation of the slot each polygon number names its polygon (see
    /// [`PolyRef`](super::PolyRef)); obstacles renumber carved tiles.
    pub stamps: Arc<PolygonStamps>,
    /// Its walls and bounds, for stitching: found when first needed (a merged layer
    /// that is never stitched does without), or taken from the world's
    /// [`BorderCache`] when the same mesh was in the world before.
    border: OnceLock<Arc<Border>>,
    /// The slots of the tiles near it (kept by the tile itself, not its merged layer).
    pub neighbours: Vec<u32>,
    /// The world's copy of its flags, shared by every snapshot that holds it.
    pub flags: Arc<[AtomicU32]>,
    /// `None` until the tile is first stitched into the world.
    pub stitched: Option<Stitched>,
    /// The tile's layer for the exact mode: `None` in that layer itself, and in a tile
    /// until the world first may keep merged layers
    /// ([`State::make_merged_layers`](super::state::State::make_merged_layers)).
    pub merged: Option<Box<MergedLayer>>,
    /// Its off-mesh links: its own mesh's and those given with it (none in the merged
    /// layer: the exact mode takes no links).
    pub links: TileLinks,
}

/// A tile's layer for the exact mode: its merged copy, or the tile itself when its
/// polygons do not merge, stitched to the neighbours' layers like the tile.
pub(super) struct MergedLayer {
    pub tile: Tile,
    /// Per polygon of the tile (local id): the polygon of the layer holding it (global
    /// id).
    pub of_original: Arc<[u32]>,
}

impl MergedLayer {
    /// The merged layer of the tile of `mesh` (one tile: local ids) in the slot whose
    /// first id is `base`, put there with `generation`: the mesh's merged copy (made
    /// now unless the mesh has it), or the mesh itself when its polygons do not merge.
    pub fn of(mesh: &NavMesh, base: u32, generation: u32) -> Box<MergedLayer> {
        let data = mesh.data();
        let (copy, of_original) = match data.coarse() {
            Some(coarse) => (
                NavMesh::from_data(coarse.mesh.clone()),
                coarse.of_original.iter().map(|&m| base | m).collect(),
            ),
            None => (
                mesh.clone(),
                (0..data.polygon_count()).map(|p| base | p).collect(),
            ),
        };
        Box::new(MergedLayer {
            tile: Tile::layer(&copy, generation, TileLinks::none()),
            of_original,
        })
    }
}

impl Tile {
    /// A tile of `mesh` (checked) without its merged layer, not yet stitched.
    pub fn layer(mesh: &NavMesh, generation: u32, links: TileLinks) -> Tile {
        let data = mesh.data();
        let flags = data
            .flags
            .as_single()
            .iter()
            .map(|f| AtomicU32::new(f.load(Ordering::Relaxed)))
            .collect();
        Tile {
            mesh: mesh.clone(),
            generation,
            stamps: Arc::new(PolygonStamps::new(generation)),
            border: OnceLock::new(),
            neighbours: Vec::new(),
            flags,
            stitched: None,
            merged: None,
            links,
        }
    }

    /// The tile's walls and bounds ([`Border::of`] its mesh), made on first use.
    pub fn border(&self) -> &Border {
        self.shape().border()
    }

    /// Takes the grid the world kept for this tile's mesh, if any (see
    /// [`BorderCache`]), for it and its merged layer.
    pub fn reuse_border(&self, cache: &BorderCache) {
        let layers = std::iter::once(self).chain(self.merged.as_deref().map(|m| &m.tile));
        for tile in layers {
            if tile.border.get().is_none()
                && let Some(border) = cache.find(&tile.mesh)
            {
                let _ = tile.border.set(border);
            }
        }
    }

    /// The grid of the tile, if made or taken from the cache yet.
    #[cfg(test)]
    pub fn border_if_made(&self) -> Option<&Arc<Border>> {
        self.border.get()
    }

    /// Keeps the grids made for this tile and its merged layer in `cache`, for when
    /// the same mesh comes back.
    pub fn keep_border(&self, cache: &mut BorderCache) {
        let layers = std::iter::once(self).chain(self.merged.as_deref().map(|m| &m.tile));
        for tile in layers {
            if let Some(border) = tile.border.get() {
                cache.keep(&tile.mesh, Arc::clone(border));
            }
        }
    }

    /// The tile's geometry, for stitching.
    pub fn shape(&self) -> TileShape<'_> {
        let data = self.mesh.data();
        TileShape {
            vertices: data.vertices.as_single(),
            ground: data.ground.as_single(),
            poly_start: data.poly_start.as_single(),
            corners: data.corners.as_single(),
            neighbours: data.neighbours.as_single(),
            border: &self.border,
        }
    }

    /// The tile's merged layer (made by
    /// [`State::make_merged_layers`](super::state::State::make_merged_layers) before
    /// the world stitches or composes merged layers).
    pub fn merged(&self) -> &MergedLayer {
        self.merged
            .as_deref()
            .expect("the world made the tile's merged layer")
    }

    pub fn stitched(&self) -> &Stitched {
        self.stitched
            .as_ref()
            .expect("a tile in the world is stitched")
    }

    /// The world's current flags of `polygon` (local id).
    pub fn flags_of(&self, polygon: u32) -> u32 {
        self.flags[polygon as usize].load(Ordering::Relaxed)
    }

    /// Sets the world's flags of every polygon (local id) to `flags` of it (before the
    /// tile is published).
    pub fn set_flags(&self, flags: impl Fn(u32) -> u32) {
        for (p, f) in self.flags.iter().enumerate() {
            f.store(flags(p as u32), Ordering::Relaxed);
        }
    }

    /// The local island of `polygon` (local id).
    pub fn island(&self, polygon: u32) -> u32 {
        self.mesh.data().local_island.as_single()[polygon as usize]
    }
}

/// `tile` itself, or its merged layer.
pub(super) fn layer_of(tile: &Tile, merged: bool) -> &Tile {
    if merged { &tile.merged().tile } else { tile }
}
