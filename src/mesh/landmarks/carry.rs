//! A table kept for a later state of the world it was built on, while that world's
//! ground lies within the ground the table was measured on: the tiles whose slots and
//! portals are those of the build keep their rows, the others' slots point to the row
//! that bounds nothing.
//!
//! **Why the bounds still hold.** The table bounds `d0`, the distances of the world it
//! was built on (its *reference*): for a point `x` of a portal with a row and a goal
//! `g`, the bound is at most `d0(x, g)` (see the module above). Say the world now has
//! ground that lies within the reference's: every tile present is a tile of the
//! reference (in its slot or another: slot numbers do not change ground), or a mesh with
//! the same vertices and polygons, or a carving of one of those, and (for a tile the
//! reference had carved) not less carved. Then every polygon
//! now lies in a polygon of the reference, and two polygons now join through an edge
//! only where their reference polygons did (inside a tile, carved pieces join across
//! the edges of the polygons they come from; between tiles, seams follow from the
//! tiles' walls, which lie on the reference tiles' walls). So every path now is a path
//! of the reference, and `d0 <= d`: the bound is at most the distance now. The ways
//! there came and went do not matter: a tile removed and added back, replaced by an
//! equal mesh, an obstacle added after the build then moved or removed all leave the
//! ground within the reference's; only new ground (a tile whose ground the reference did
//! not have, an obstacle the reference had carved taken away) may open a shortcut and
//! make a bound too large, and the world drops the table then (`world/landmarks.rs`).
//!
//! A row is only used where it was measured: a tile's slots keep their rows when its
//! stitched tables (polygons, corners, positions, neighbours, portals) are those of the
//! build, so its portals are the reference's portals and a goal in its polygons is
//! entered through the very portals it was in the reference (the goal's bounds, as on
//! the reference, hold for `d0`). Every other tile (removed, carved, stitched again to
//! changed neighbours, or new) gets the unknown row on all its slots (0 and infinite: no
//! bound from its portals, and a goal in it gets no landmark bound), and a landmark
//! standing in it loses its home polygon (whose number a new polygon may take). A tile
//! stitched again as it was (a neighbour streamed out and back in) gets its rows back.

use std::sync::Arc;

use super::{Landmarks, NO_HOME};
use crate::alloc::try_filled;
use crate::mesh::{MeshData, Tiled};

/// Per tile slot: the last chunk of unknown rows made for it, which later snapshots
/// reuse while the slot's tile has as many slots (so a change does not fill them again
/// for every tile changed before).
#[derive(Default)]
pub(crate) struct UnknownChunks(Vec<Option<Arc<[u32]>>>);

impl Landmarks {
    /// This table for `mesh`, a later state of the mesh it was built on whose ground
    /// lies within the ground the table was measured on (see the module note), where
    /// tile slot `t` has the very slots and portals it had exactly when `kept(t)`; the
    /// other slots' unknown chunks are taken from `unknown` or made and left there.
    /// `None` when out of memory.
    pub(crate) fn carried(
        &self,
        mesh: &MeshData,
        kept: impl Fn(usize) -> bool,
        unknown: &mut UnknownChunks,
    ) -> Option<Landmarks> {
        let row = self.unknown();
        let count = mesh.corners.chunk_count();
        if unknown.0.len() < count {
            unknown.0.resize(count, None);
        }
        let chunks = (0..count)
            .map(|t| {
                if t < self.portal_of_slot.chunk_count() && kept(t) {
                    return Some(Arc::clone(self.portal_of_slot.chunk(t)));
                }
                let slots = mesh.corners.chunk(t).len();
                match &unknown.0[t] {
                    Some(chunk) if chunk.len() == slots => Some(Arc::clone(chunk)),
                    _ => {
                        let chunk: Arc<[u32]> =
                            try_filled(slots, row, "landmark table").ok()?.into();
                        unknown.0[t] = Some(Arc::clone(&chunk));
                        Some(chunk)
                    }
                }
            })
            .collect::<Option<Vec<_>>>()?;
        let shift = mesh.local_bits;
        let points = self
            .points
            .iter()
            .map(|&(home, at)| {
                let tile = mesh.split_id(home).0;
                (if kept(tile) { home } else { NO_HOME }, at)
            })
            .collect();
        Some(Landmarks {
            portal_of_slot: Tiled::from_chunks(chunks, shift),
            rows: Arc::clone(&self.rows),
            end_hi: Arc::clone(&self.end_hi),
            points,
            slack: self.slack,
        })
    }
}
