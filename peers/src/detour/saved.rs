//! Detour's data as files: each tile's bytes as `dtCreateNavMeshData` made them, and
//! all tiles in the layout of RecastDemo's set files (`Sample::saveAll`: a header of
//! magic 'MSET', version 1, tile count and `dtNavMeshParams`, then per tile its
//! reference, its size and its bytes; all little-endian, as on the machines that run
//! these tests).

use super::{DetourMesh, sys};

/// The tiles' bytes of a [`DetourMesh`], kept as they were added.
pub(super) struct SavedTiles {
    params: sys::dtNavMeshParams,
    tiles: Vec<(sys::dtTileRef, Vec<u8>)>,
}

impl SavedTiles {
    pub(super) fn new(params: sys::dtNavMeshParams) -> Self {
        SavedTiles {
            params,
            tiles: Vec::new(),
        }
    }

    pub(super) fn push(&mut self, tile_ref: sys::dtTileRef, data: Vec<u8>) {
        self.tiles.push((tile_ref, data));
    }
}

impl DetourMesh {
    /// Each tile's data, as `dtCreateNavMeshData` made it, in the order the tiles were
    /// added.
    pub fn tile_data(&self) -> impl Iterator<Item = &[u8]> + '_ {
        self.saved.tiles.iter().map(|(_, data)| data.as_slice())
    }

    /// All tiles in RecastDemo's set file layout (what `Sample::saveAll` writes for
    /// this mesh).
    pub fn set_file(&self) -> Vec<u8> {
        let saved = &self.saved;
        let p = &saved.params;
        let mut out = Vec::new();
        int(&mut out, i32::from_be_bytes(*b"MSET"));
        int(&mut out, 1);
        int(&mut out, saved.tiles.len() as i32);
        for v in p.orig.iter().chain([&p.tileWidth, &p.tileHeight]) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        int(&mut out, p.maxTiles);
        int(&mut out, p.maxPolys);
        for (tile_ref, data) in &saved.tiles {
            out.extend_from_slice(&tile_ref.to_le_bytes());
            int(&mut out, data.len() as i32);
            out.extend_from_slice(data);
        }
        out
    }
}

/// Appends a little-endian `int`.
fn int(out: &mut Vec<u8>, v: i32) {
    out.extend_from_slice(&v.to_le_bytes());
}
