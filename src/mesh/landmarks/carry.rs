//! A table kept for a later state of the world it was built on: a world whose tiles were
//! removed or carved since keeps the table, with the changed tiles' slots pointing to the
//! row that bounds nothing.
//!
//! **Why the bounds still hold.** The table bounds the old world's distances `d_old`:
//! `remaining(x, g) <= d_old(x, g)`. Removing a tile or carving holes into one takes
//! walkable ground away and adds none, so every path of the new world is a path of the
//! old one and `d_old <= d_new`. A tile whose slots or portals changed (removed, carved,
//! or stitched again at a seam) is unknown to the table: its slots get the unknown row (0
//! and infinite: no bound from its portals, and a goal in it gets no landmark bound), and
//! a landmark standing in it loses its home polygon (whose number a new polygon may
//! take). A change that may add ground (a tile added or replaced, an obstacle moved or
//! removed) must drop the table instead: it could open a shortcut.

use std::sync::Arc;

use super::{Landmarks, NO_HOME};
use crate::alloc::try_filled;
use crate::mesh::{MeshData, Tiled};

impl Landmarks {
    /// This table for `mesh`, a later state of the mesh it was built on with nothing
    /// added (see the module note), where tile slot `t` kept the very slots and portals
    /// it had exactly when `kept(t)`. `None` when out of memory.
    pub(crate) fn carried(
        &self,
        mesh: &MeshData,
        kept: impl Fn(usize) -> bool,
    ) -> Option<Landmarks> {
        let unknown = self.unknown();
        let chunks = (0..mesh.corners.chunk_count())
            .map(|t| {
                if t < self.portal_of_slot.chunk_count() && kept(t) {
                    Some(Arc::clone(self.portal_of_slot.chunk(t)))
                } else {
                    let slots = mesh.corners.chunk(t).len();
                    try_filled(slots, unknown, "landmark table")
                        .ok()
                        .map(Arc::from)
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
