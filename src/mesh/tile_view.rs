//! One tile's chunks of the tables the exact search reads, looked up once.
//!
//! Indexing a [`super::Tiled`] table by an id outside chunk 0 decodes the id and loads the
//! chunk on every lookup (out of line, see `Tiled::beyond_first`). On a world of tiles
//! almost every polygon is outside chunk 0, and expanding one search node reads a dozen
//! elements of the same tile (its polygon's corners, their points, its neighbours and
//! twins, the wall flags of its vertices). A [`TileView`] takes that tile's chunks once
//! per node; its lookups are then plain slice indexing by the local number (the id with
//! the tile bits masked off). On a mesh of one tile the view is the whole mesh.

use std::ops::Range;
use std::sync::atomic::Ordering;

use glam::Vec2;

use super::MeshData;
use crate::sync::AtomicU32;

/// The chunks of one tile slot of a mesh, indexed by element id (global ids of that
/// tile: the tile bits are masked off). Borrowed from the mesh; cheap to make (a few
/// loads per table), meant to live for one search node.
pub(crate) struct TileView<'a> {
    /// The tile slot.
    tile: usize,
    /// `local_bits` of the mesh.
    shift: u32,
    /// `2^local_bits - 1`.
    mask: usize,
    poly_start: &'a [u32],
    corners: &'a [u32],
    neighbours: &'a [u32],
    twin: &'a [u32],
    ground: &'a [Vec2],
    wall_vertex: &'a [bool],
    dead_end: &'a [bool],
    flags: &'a [AtomicU32],
}

impl MeshData {
    /// The view of the tile holding element id `id` (a polygon, slot or vertex id).
    ///
    /// # Panics
    /// If `id` names no tile slot of the mesh (ids from the mesh's own tables always do).
    #[inline(always)]
    pub fn tile_view(&self, id: u32) -> TileView<'_> {
        let (tile, _) = self.split_id(id);
        if tile == 0 {
            // Chunk 0 is kept inline in each table: no load of the chunk list (a mesh of
            // one tile pays nothing for the view).
            return TileView {
                tile,
                shift: self.local_bits,
                mask: ((1u64 << self.local_bits) - 1) as usize,
                poly_start: self.poly_start.first_chunk(),
                corners: self.corners.first_chunk(),
                neighbours: self.neighbours.first_chunk(),
                twin: self.twin.first_chunk(),
                ground: self.ground.first_chunk(),
                wall_vertex: self.wall_vertex.first_chunk(),
                dead_end: self.dead_end.first_chunk(),
                flags: self.flags.first_chunk(),
            };
        }
        TileView {
            tile,
            shift: self.local_bits,
            mask: ((1u64 << self.local_bits) - 1) as usize,
            poly_start: self.poly_start.chunk(tile),
            corners: self.corners.chunk(tile),
            neighbours: self.neighbours.chunk(tile),
            twin: self.twin.chunk(tile),
            ground: self.ground.chunk(tile),
            wall_vertex: self.wall_vertex.chunk(tile),
            dead_end: self.dead_end.chunk(tile),
            flags: self.flags.chunk(tile),
        }
    }

    /// [`MeshData::tile_view`], out of line: for a view needed only now and then (the
    /// tile across a seam), so that the code that asks for it stays small.
    #[inline(never)]
    pub fn tile_view_out_of_line(&self, id: u32) -> TileView<'_> {
        self.tile_view(id)
    }
}

impl TileView<'_> {
    /// Whether element id `id` lies in this view's tile.
    #[inline]
    pub fn holds(&self, id: u32) -> bool {
        ((u64::from(id)) >> self.shift) as usize == self.tile
    }

    /// The tile slot of this view.
    #[inline]
    pub fn tile(&self) -> usize {
        self.tile
    }

    /// The position of id `id` (an element of this tile) in this tile's chunks.
    #[inline]
    pub fn local(&self, id: usize) -> usize {
        id & self.mask
    }

    /// The corner slots (global ids) of `polygon`, as [`MeshData::corner_range`].
    #[inline]
    pub fn corner_range(&self, polygon: u32) -> Range<usize> {
        let p = self.local(polygon as usize);
        self.poly_start[p] as usize..self.poly_start[p + 1] as usize
    }

    /// The corner vertices of slots `range` (global slot ids of this tile).
    #[inline]
    pub fn corners(&self, range: Range<usize>) -> &[u32] {
        let start = self.local(range.start);
        &self.corners[start..start + range.len()]
    }

    /// The corner vertex of slot `slot` (a global slot id of this tile), as
    /// `MeshData::corners[slot]`.
    #[inline]
    pub fn corner(&self, slot: usize) -> u32 {
        self.corners[self.local(slot)]
    }

    /// The neighbour across slot `slot` (a global slot id of this tile), as
    /// `MeshData::neighbours[slot]`.
    #[inline]
    pub fn neighbour(&self, slot: usize) -> u32 {
        self.neighbours[self.local(slot)]
    }

    /// The neighbours of slots `range`, as [`MeshData::neighbours`].
    #[inline]
    pub fn neighbours(&self, range: Range<usize>) -> &[u32] {
        let start = self.local(range.start);
        &self.neighbours[start..start + range.len()]
    }

    /// The twins of slots `range`, as [`MeshData::twin`].
    #[inline]
    pub fn twins(&self, range: Range<usize>) -> &[u32] {
        let start = self.local(range.start);
        &self.twin[start..start + range.len()]
    }

    /// The edge of slot `slot` of `polygon`, as [`MeshData::edge`].
    #[inline]
    pub fn edge(&self, polygon: u32, slot: usize) -> (u32, u32) {
        let range = self.corner_range(polygon);
        let next = if slot + 1 == range.end {
            range.start
        } else {
            slot + 1
        };
        (
            self.corners[self.local(slot)],
            self.corners[self.local(next)],
        )
    }

    /// The ground point of vertex `v`, as [`MeshData::ground`].
    #[inline]
    pub fn point(&self, v: u32) -> Vec2 {
        self.ground[self.local(v as usize)]
    }

    /// Whether a wall ends at vertex `v`, as [`MeshData::wall_vertex`].
    #[inline]
    pub fn wall_vertex(&self, v: u32) -> bool {
        self.wall_vertex[self.local(v as usize)]
    }

    /// Whether `polygon` is a dead end, as [`MeshData::dead_end`].
    #[inline]
    pub fn dead_end(&self, polygon: u32) -> bool {
        self.dead_end[self.local(polygon as usize)]
    }

    /// The current flags of `polygon`, as [`MeshData::flags_of`].
    #[inline]
    pub fn flags_of(&self, polygon: u32) -> u32 {
        self.flags[self.local(polygon as usize)].load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use crate::mesh::{MeshOptions, NavMesh};
    use crate::{MeshInput, World, WorldOptions};
    use glam::Vec3;

    /// Every lookup of a view equals the mesh's own, on a one-piece mesh and on a world
    /// of several tiles (ids outside chunk 0).
    fn views_agree(mesh: &crate::mesh::MeshData) {
        for polygon in mesh.polygon_ids() {
            let view = mesh.tile_view(polygon);
            assert!(view.holds(polygon));
            let range = mesh.corner_range(polygon);
            assert_eq!(view.corner_range(polygon), range);
            assert_eq!(view.corners(range.clone()), &mesh.corners[range.clone()]);
            assert_eq!(
                view.neighbours(range.clone()),
                &mesh.neighbours[range.clone()]
            );
            assert_eq!(view.twins(range.clone()), &mesh.twin[range.clone()]);
            assert_eq!(view.dead_end(polygon), mesh.dead_end[polygon as usize]);
            assert_eq!(view.flags_of(polygon), mesh.flags_of(polygon));
            for slot in range {
                assert_eq!(view.edge(polygon, slot), mesh.edge(polygon, slot));
                assert_eq!(view.corner(slot), mesh.corners[slot]);
                assert_eq!(view.neighbour(slot), mesh.neighbours[slot]);
                let v = mesh.corners[slot];
                assert!(view.holds(v) && view.holds(slot as u32));
                assert_eq!(view.point(v), mesh.ground[v as usize]);
                assert_eq!(view.wall_vertex(v), mesh.wall_vertex[v as usize]);
            }
        }
    }

    fn strip(x0: f32, columns: usize) -> NavMesh {
        let mut vertices = Vec::new();
        for i in 0..=columns {
            let x = x0 + i as f32;
            vertices.push(Vec3::new(x, 0.0, 0.0));
            vertices.push(Vec3::new(x, 0.0, 1.0));
        }
        let mut indices = Vec::new();
        for i in 0..columns as u32 {
            let (a, b, c, d) = (2 * i, 2 * i + 2, 2 * i + 3, 2 * i + 1);
            indices.extend_from_slice(&[a, b, c, a, c, d]);
        }
        NavMesh::from_input(
            &MeshInput::new(&vertices, &indices),
            &MeshOptions::default(),
        )
        .unwrap()
    }

    #[test]
    fn a_view_reads_what_the_mesh_reads() {
        views_agree(strip(0.0, 5).data());
        let world = World::new(&WorldOptions::default()).unwrap();
        for t in 0..4 {
            world.add_tile(&strip(5.0 * t as f32, 5)).unwrap();
        }
        let snapshot = world.snapshot();
        assert!(snapshot.data().tiles.len() >= 4);
        views_agree(snapshot.data());
    }

    #[test]
    fn a_view_holds_only_its_tile() {
        let world = World::new(&WorldOptions::default()).unwrap();
        world.add_tile(&strip(0.0, 2)).unwrap();
        world.add_tile(&strip(2.0, 2)).unwrap();
        let snapshot = world.snapshot();
        let mesh = snapshot.data();
        let ids: Vec<u32> = mesh.polygon_ids().collect();
        let (first, last) = (ids[0], ids[ids.len() - 1]);
        assert_ne!(mesh.split_id(first).0, mesh.split_id(last).0);
        assert!(!mesh.tile_view(first).holds(last));
        assert!(!mesh.tile_view(last).holds(first));
    }
}
