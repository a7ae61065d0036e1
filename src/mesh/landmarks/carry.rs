//! A table kept for a later state of the world it was built on: the tiles whose slots
//! and portals are those of the build keep their rows, the others' slots point to the
//! row that bounds nothing, and ground the table never measured caps the bounds near it.
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
//! ground within the reference's.
//!
//! **New ground.** A tile whose ground the reference did not have (a tile never
//! measured, an obstacle the reference had carved taken away) may open a shortcut, so
//! `d0 <= d` fails for paths that touch it. Say `N` is the union of the tiles that do
//! not lie within the reference, inside the ground-plane boxes `B` of those tiles
//! ([`Landmarks::new_ground`]). A shortest path now from `x` to `g` either avoids `N`:
//! it then runs over tiles that lie within the reference, joined where reference tiles
//! joined, so it is a path of the reference and at least `d0(x, g)`, at least the
//! bound. Or it touches `N` at some point `p` inside a box of `B`: its length is then at
//! least `|p g|`, at least the distance `c` from `g` to the nearest box. And when `g`
//! lies in a polygon with rows (its tile kept them), the path leaves the tiles without
//! rows (all of `N` is in them) for the last time through a portal `B` with a row on
//! their border ([`Landmarks::border`]), after which it runs over tiles with rows, a
//! path of the reference: from a point `b` of `B` it is at least `d0(b, g)`, at least
//! the bound from `B` to `g` and `|b g|`; so `c` may be the larger of the box distance
//! and the smallest of those over the border. So `d(x, g) >= min(bound, c)`, and every
//! bound towards `g` is capped at `c` (made once per goal in [`Landmarks::goal`], one
//! `min` per bound in [`Landmarks::remaining`]). A goal far from the new ground keeps
//! its bounds whole; one inside it gets none. Rows are never rewritten, so keeping the
//! table costs work in proportion to the tiles without rows, not to the world.
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

use glam::DVec2;

use super::{Landmarks, MAX_BORDER, NO_HOME, NO_PORTAL, portal_ends};
use crate::alloc::try_filled;
use crate::mesh::{MeshData, NO_NEIGHBOUR, Tiled};

/// Per tile slot: the last chunk of unknown rows made for it, which later snapshots
/// reuse while the slot's tile has as many slots (so a change does not fill them again
/// for every tile changed before).
#[derive(Default)]
pub(crate) struct UnknownChunks(Vec<Option<Arc<[u32]>>>);

impl Landmarks {
    /// This table for `mesh`, a later state of the mesh it was built on whose ground
    /// lies within the ground the table was measured on (see the module note), where
    /// tile slot `t` has the very slots and portals it had exactly when `kept(t)`; the
    /// other slots' unknown chunks are taken from `unknown` or made and left there;
    /// `new_ground` holds the boxes of the tiles whose ground does not lie within the
    /// measured ground (see the module note). `None` when out of memory.
    pub(crate) fn carried(
        &self,
        mesh: &MeshData,
        kept: impl Fn(usize) -> bool,
        unknown: &mut UnknownChunks,
        new_ground: Arc<[[DVec2; 2]]>,
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
        let mut table = Landmarks {
            portal_of_slot: Tiled::from_chunks(chunks, shift),
            rows: Arc::clone(&self.rows),
            end_hi: Arc::clone(&self.end_hi),
            points,
            slack: self.slack,
            new_ground,
            border: Arc::from([]),
        };
        if !table.new_ground.is_empty() {
            table.border =
                table.border_portals(mesh, |t| t < self.portal_of_slot.chunk_count() && kept(t));
        }
        Some(table)
    }

    /// The portals with a row (in tiles `kept` says) whose other side lies in a tile
    /// without rows, with their ends in the ground plane; none when more than
    /// [`MAX_BORDER`] (see [`Landmarks::border`]). Work in proportion to the tiles
    /// without rows.
    fn border_portals(
        &self,
        mesh: &MeshData,
        kept: impl Fn(usize) -> bool,
    ) -> Arc<[(u32, [DVec2; 2])]> {
        let unknown = self.unknown();
        let ground = |v: u32| mesh.ground[v as usize].as_dvec2();
        let mut border = Vec::new();
        for (t, tile) in mesh.tiles.iter().enumerate().filter(|&(t, _)| !kept(t)) {
            let base = mesh.tile_base(t);
            for p in (0..tile.polygon_count).map(|local| base | local) {
                for slot in mesh.corner_range(p) {
                    let q = mesh.neighbours[slot];
                    if q == NO_NEIGHBOUR || !kept(mesh.split_id(q).0) {
                        continue;
                    }
                    for across in mesh.corner_range(q) {
                        let portal = self.portal_of_slot[across];
                        if mesh.neighbours[across] != p || portal == NO_PORTAL || portal == unknown
                        {
                            continue;
                        }
                        if border.len() == MAX_BORDER {
                            return Arc::from([]);
                        }
                        let (a, b) = portal_ends(mesh, q, across);
                        border.push((portal, [ground(a), ground(b)]));
                    }
                }
            }
        }
        Arc::from(border)
    }
}
