//! Per-element tables stored in chunks, one chunk per tile slot.
//!
//! Every element id of a mesh (polygon, corner slot, vertex) is `tile << local_bits |
//! local`. A plain mesh is one tile with `local_bits = 32`: its ids are unchanged and all
//! its elements live in chunk 0. A [`Tiled`] table decodes such an id into its chunk and
//! the position inside it, so code that indexes `mesh.corners[slot]` works the same on a
//! single mesh and on a mesh assembled from tiles. Chunks are `Arc`s so that meshes
//! assembled from the same tiles share them.
//!
//! Also here: what a mesh keeps per tile ([`TileInfo`]: bounds, spatial index, counts,
//! island map), how a mesh is assembled from per-tile chunks
//! ([`MeshData::from_tiles`]), and the id arithmetic and checks on top of it.

use std::ops::{Index, Range};
use std::sync::{Arc, OnceLock};

use glam::{Vec2, Vec3};

use super::{Links, MeshData, PolygonIndex, PolygonStamps};
use crate::error::{MeshError, QueryError};
use crate::geometry::{Aabb, UpAxis};
use crate::sync::{AtomicU32, AtomicU64};

/// A per-element table split into chunks, one per tile slot (an empty slot is an empty
/// chunk). Element `i` is element `i & mask` of chunk `i >> shift`.
///
/// Chunk 0 is also kept inline (`first`): an id below its length is in it (ids of any
/// other chunk are at least `2^shift`, more than chunk 0 holds), so indexing a one-tile
/// table costs one comparison and one load, as indexing a `Vec` does; searches index
/// these tables in their innermost loops.
pub(crate) struct Tiled<T> {
    first: Arc<[T]>,
    chunks: Vec<Arc<[T]>>,
    /// `local_bits`: 32 for a single chunk (decoded in `u64`, so `i >> 32` is 0).
    shift: u32,
    /// `2^shift - 1`.
    mask: usize,
}

impl<T> Clone for Tiled<T> {
    fn clone(&self) -> Self {
        Tiled {
            first: Arc::clone(&self.first),
            chunks: self.chunks.clone(),
            shift: self.shift,
            mask: self.mask,
        }
    }
}

impl<T> std::fmt::Debug for Tiled<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let sizes: Vec<usize> = self.chunks.iter().map(|c| c.len()).collect();
        f.debug_struct("Tiled")
            .field("shift", &self.shift)
            .field("chunk_sizes", &sizes)
            .finish()
    }
}

impl<T> Default for Tiled<T> {
    fn default() -> Self {
        Tiled::single(Vec::new())
    }
}

impl<T> From<Vec<T>> for Tiled<T> {
    fn from(items: Vec<T>) -> Self {
        Tiled::single(items)
    }
}

impl<T> From<Arc<[T]>> for Tiled<T> {
    /// One chunk holding every element, shared as it is (no copy).
    fn from(items: Arc<[T]>) -> Self {
        Tiled::from_chunks(vec![items], 32)
    }
}

impl<T> Tiled<T> {
    /// One chunk holding every element (a plain mesh: ids unchanged).
    pub fn single(items: Vec<T>) -> Tiled<T> {
        Tiled::from_chunks(vec![Arc::from(items)], 32)
    }

    /// A table of the given chunks, element ids `chunk << shift | local`.
    ///
    /// # Panics
    /// If `shift` is above 32, or if a chunk holds more than `2^shift` elements (the
    /// builder of the chunks checks the counts and reports them as errors first).
    pub fn from_chunks(chunks: Vec<Arc<[T]>>, shift: u32) -> Tiled<T> {
        assert!(shift <= 32, "local bits {shift} above 32");
        let mask = ((1u64 << shift) - 1) as usize;
        assert!(
            chunks.iter().all(|c| c.len() as u64 <= 1u64 << shift),
            "a chunk holds more elements than its local bits number"
        );
        assert!(
            shift == 32 || (chunks.len() as u64) <= 1u64 << (32 - shift),
            "more chunks than tile bits number"
        );
        let first = chunks
            .first()
            .map_or_else(|| Arc::from(Vec::new()), Arc::clone);
        Tiled {
            first,
            chunks,
            shift,
            mask,
        }
    }

    /// The chunk of tile slot `tile` (empty for an empty slot).
    #[inline]
    pub fn chunk(&self, tile: usize) -> &Arc<[T]> {
        &self.chunks[tile]
    }

    /// The chunk of tile slot `tile`, chunk 0 read without the chunk list (so a
    /// one-tile table pays one comparison); empty past the last chunk.
    #[inline]
    pub fn chunk_or_first(&self, tile: usize) -> &[T] {
        if tile == 0 {
            &self.first
        } else {
            self.chunks.get(tile).map_or(&[], |c| c)
        }
    }

    /// Chunk 0 (the only one of a one-tile table), read without the chunk list.
    #[inline]
    pub fn first_chunk(&self) -> &[T] {
        &self.first
    }

    /// The number of chunks (tile slots).
    #[inline]
    pub fn chunk_count(&self) -> usize {
        self.chunks.len()
    }

    /// The only chunk's elements: for code that walks a whole table of one tile
    /// (builders, the binary format, the merged copy, checks).
    ///
    /// # Panics
    /// If the table has more than one chunk.
    #[inline]
    pub fn as_single(&self) -> &[T] {
        assert_eq!(self.chunks.len(), 1, "a whole-table walk on a tiled table");
        &self.chunks[0]
    }

    /// The number of elements of all chunks together.
    pub fn total_len(&self) -> usize {
        self.chunks.iter().map(|c| c.len()).sum()
    }

    /// The chunk and the position in it of element `i`.
    #[inline]
    fn decode(&self, i: usize) -> (usize, usize) {
        (((i as u64) >> self.shift) as usize, i & self.mask)
    }

    /// Element `i`, not in chunk 0: out of line, so that the indexing inlined into the
    /// searches' loops stays one comparison (inlining the decoding everywhere cost about
    /// 10% more instructions in the exact mode on one-tile meshes).
    #[inline(never)]
    fn beyond_first(&self, i: usize) -> &T {
        let (tile, local) = self.decode(i);
        &self.chunks[tile][local]
    }

    /// Elements `range`, not in chunk 0 (see [`Tiled::beyond_first`]).
    #[inline(never)]
    fn range_beyond_first(&self, range: Range<usize>) -> &[T] {
        let (tile, local) = self.decode(range.start);
        let end = range.end - (range.start - local);
        &self.chunks[tile][local..end]
    }

    /// Element `i`, or `None` when its slot is empty or beyond its chunk.
    #[allow(
        dead_code,
        reason = "for the world of tiles, which checks ids it is given"
    )]
    #[inline]
    pub fn get(&self, i: usize) -> Option<&T> {
        if i < self.first.len() {
            return Some(&self.first[i]);
        }
        let (tile, local) = self.decode(i);
        self.chunks.get(tile)?.get(local)
    }

    /// Every element of every chunk, chunk after chunk.
    pub fn iter(&self) -> impl Iterator<Item = &T> + '_ {
        self.chunks.iter().flat_map(|c| c.iter())
    }
}

impl<T> Index<usize> for Tiled<T> {
    type Output = T;

    #[inline]
    fn index(&self, i: usize) -> &T {
        if i < self.first.len() {
            &self.first[i]
        } else {
            self.beyond_first(i)
        }
    }
}

impl<T> Index<Range<usize>> for Tiled<T> {
    type Output = [T];

    /// Both ends must lie in one chunk (a polygon's corners always do); the end may be
    /// one past the chunk's last element.
    #[inline]
    fn index(&self, range: Range<usize>) -> &[T] {
        if range.end <= self.first.len() {
            &self.first[range]
        } else {
            self.range_beyond_first(range)
        }
    }
}

/// What a mesh keeps per tile slot rather than per element.
#[allow(
    dead_code,
    reason = "`slot_count` and `generation` are for the world of tiles"
)]
pub(crate) struct TileInfo {
    /// The box of the tile's polygons ([`Aabb::EMPTY`] for an empty slot).
    pub bounds: Aabb,
    /// The spatial index over the tile's own polygons; its leaves hold local ids.
    pub index: Arc<PolygonIndex>,
    /// The number of polygons, vertices and corner slots of the tile (0 for an empty
    /// slot).
    pub polygon_count: u32,
    /// See `polygon_count`.
    pub vertex_count: u32,
    /// See `polygon_count`.
    pub slot_count: u32,
    /// Bumped each time the slot is filled (0 for a plain mesh).
    pub generation: u32,
    /// Per island local to the tile ([`MeshData::local_island`]): the island of the
    /// whole mesh.
    pub island_map: Arc<[u32]>,
    /// Since which generation each polygon number names its polygon (for polygon
    /// references, [`crate::PolyRef`]).
    pub stamps: Arc<PolygonStamps>,
}

impl TileInfo {
    /// An empty tile slot.
    #[allow(dead_code, reason = "for the world of tiles")]
    ///
    /// # Errors
    /// [`MeshError::OutOfMemory`] if the empty index cannot be allocated.
    pub fn empty() -> Result<TileInfo, MeshError> {
        Ok(TileInfo {
            bounds: Aabb::EMPTY,
            index: Arc::new(PolygonIndex::build(&[])?),
            polygon_count: 0,
            vertex_count: 0,
            slot_count: 0,
            generation: 0,
            island_map: Arc::from(Vec::new()),
            stamps: Arc::default(),
        })
    }
}

/// The per-element tables of a mesh, in chunks: what [`MeshData::from_tiles`] assembles a
/// mesh from. For one tile, every table has a single chunk (`Vec::into` makes one).
pub(crate) struct ElementTables {
    /// See [`MeshData::vertices`].
    pub vertices: Tiled<Vec3>,
    /// See [`MeshData::ground`].
    pub ground: Tiled<Vec2>,
    /// See [`MeshData::poly_start`].
    pub poly_start: Tiled<u32>,
    /// See [`MeshData::corners`].
    pub corners: Tiled<u32>,
    /// See [`MeshData::neighbours`].
    pub neighbours: Tiled<u32>,
    /// See [`MeshData::local_island`].
    pub local_island: Tiled<u32>,
    /// See [`MeshData::portals`].
    pub portals: Tiled<[u32; 2]>,
    /// See [`MeshData::twin`].
    pub twin: Tiled<u32>,
    /// See [`MeshData::wall_vertex`].
    pub wall_vertex: Tiled<bool>,
    /// See [`MeshData::dead_end`].
    pub dead_end: Tiled<bool>,
    /// See [`MeshData::areas`].
    pub areas: Tiled<u8>,
    /// See [`MeshData::flags`].
    pub flags: Tiled<AtomicU32>,
}

impl MeshData {
    /// A mesh of one tile (ids `0..count`, `local_bits = 32`) from its tables (one chunk
    /// each), its bounds and spatial index; every island maps to itself.
    ///
    /// # Errors
    /// [`MeshError::OutOfMemory`] if the island map cannot be allocated.
    pub fn one_tile(
        up: UpAxis,
        tables: ElementTables,
        index: PolygonIndex,
        bounds: Aabb,
        island_count: u32,
    ) -> Result<MeshData, MeshError> {
        let tile = TileInfo {
            bounds,
            index: Arc::new(index),
            polygon_count: (tables.poly_start.total_len().max(1) - 1) as u32,
            vertex_count: tables.vertices.total_len() as u32,
            slot_count: tables.corners.total_len() as u32,
            generation: 0,
            island_map: crate::alloc::try_collect::<u32>(
                island_count as usize,
                0..island_count,
                "islands",
            )?
            .into(),
            stamps: Arc::default(),
        };
        Ok(MeshData::from_tiles(
            up,
            32,
            tables,
            vec![tile],
            island_count,
            Links::default(),
            Arc::new(AtomicU64::new(0)),
        ))
    }

    /// Assembles a mesh from per-tile chunks: what a world of tiles publishes as a
    /// snapshot. `tables` hold one chunk per tile slot (an empty chunk for an empty slot;
    /// each `poly_start` chunk one entry more than the tile's polygons unless the slot is
    /// empty), element ids `tile << local_bits | local`, and every id stored in a table
    /// (corners, neighbours, twins, portals, `poly_start`) is such a global id: seam slots
    /// already point into the neighbouring tile. `tiles` has one entry per slot, with the
    /// counts, bounds and spatial index of that tile's chunks and the map from its local
    /// islands to the `island_count` islands of the whole mesh. `links` are the hops
    /// between polygons of the assembled mesh (global ids); `flags_generation` is shared
    /// by the meshes whose flag chunks are shared. The merged copy of the exact mode
    /// starts unset; for more than one tile the exact mode then searches the mesh itself.
    ///
    /// The caller checks what builders check for one tile (element counts below
    /// `2^local_bits`, valid ids); debug builds assert the table shapes.
    pub fn from_tiles(
        up: UpAxis,
        local_bits: u32,
        tables: ElementTables,
        tiles: Vec<TileInfo>,
        island_count: u32,
        links: Links,
        flags_generation: Arc<AtomicU64>,
    ) -> MeshData {
        debug_assert!((1..=32).contains(&local_bits));
        debug_assert_eq!(tables.poly_start.chunk_count(), tiles.len());
        debug_assert!(tiles.iter().enumerate().all(|(t, info)| {
            let starts = tables.poly_start.chunk(t).len();
            starts == info.polygon_count as usize + 1 || (info.polygon_count == 0 && starts == 0)
        }));
        let bounds = tiles
            .iter()
            .fold(Aabb::EMPTY, |b, tile| b.union(tile.bounds));
        MeshData {
            up,
            local_bits,
            vertices: tables.vertices,
            ground: tables.ground,
            poly_start: tables.poly_start,
            corners: tables.corners,
            neighbours: tables.neighbours,
            local_island: tables.local_island,
            island_count,
            bounds,
            tiles,
            portals: tables.portals,
            twin: tables.twin,
            wall_vertex: tables.wall_vertex,
            dead_end: tables.dead_end,
            areas: tables.areas,
            flags: tables.flags,
            flags_generation,
            links,
            coarse: OnceLock::new(),
            landmarks: OnceLock::new(),
            fast_lane: OnceLock::new(),
            clearance: super::Clearance::new(0.0),
        }
    }

    /// The tile slot and the local number of element id `id`.
    #[inline]
    pub fn split_id(&self, id: u32) -> (usize, u32) {
        let tile = (u64::from(id) >> self.local_bits) as usize;
        let local = (u64::from(id) & ((1u64 << self.local_bits) - 1)) as u32;
        (tile, local)
    }

    /// The id of element 0 of tile slot `tile`.
    #[inline]
    pub fn tile_base(&self, tile: usize) -> u32 {
        ((tile as u64) << self.local_bits) as u32
    }

    /// Whether `polygon` names a polygon of this mesh (its tile slot is filled and its
    /// local number below the tile's polygon count).
    #[inline]
    pub fn contains_polygon(&self, polygon: u32) -> bool {
        let (tile, local) = self.split_id(polygon);
        self.tiles
            .get(tile)
            .is_some_and(|t| local < t.polygon_count)
    }

    /// [`QueryError::IndexOutOfRange`] unless [`MeshData::contains_polygon`] holds.
    pub fn check_polygon(&self, polygon: u32) -> Result<(), QueryError> {
        if self.contains_polygon(polygon) {
            Ok(())
        } else {
            Err(QueryError::IndexOutOfRange {
                what: "polygon",
                index: polygon,
                count: self.polygon_count(),
            })
        }
    }

    /// The place of vertex `v` in the numbering that runs through the tiles' vertices
    /// tile after tile (`0..vertex_count()`; `v` itself for a mesh of one tile): what
    /// per-vertex arrays given by callers are indexed by.
    #[inline]
    pub fn vertex_index(&self, v: u32) -> usize {
        if self.tiles.len() == 1 {
            return v as usize;
        }
        let (tile, local) = self.split_id(v);
        let before: usize = self.tiles[..tile]
            .iter()
            .map(|t| t.vertex_count as usize)
            .sum();
        before + local as usize
    }

    /// The ids of every polygon of every tile, tile after tile.
    pub fn polygon_ids(&self) -> impl Iterator<Item = u32> + '_ {
        self.tiles.iter().enumerate().flat_map(move |(t, tile)| {
            let base = self.tile_base(t);
            (0..tile.polygon_count).map(move |local| base | local)
        })
    }

    /// The island (connected component of the whole mesh) of `polygon`.
    #[inline]
    pub fn island(&self, polygon: u32) -> u32 {
        let (tile, _) = self.split_id(polygon);
        self.tiles[tile].island_map[self.local_island[polygon as usize] as usize]
    }

    /// The polygon whose point returned by `closest` is nearest to `p`, within squared
    /// distance `limit_sq`, over the tiles whose bounds are that close, each through its
    /// spatial index. Returns the polygon (global id), the point and the squared distance;
    /// of polygons equally near, the first its tile's index finds in the lowest tile slot.
    ///
    /// The tile whose bounds are nearest `p` is searched first: its answer bounds the
    /// others, which are then mostly skipped by their bounds (searched in slot order, the
    /// first tile's answer would bound nothing and every tile would be searched).
    pub fn nearest_polygon(
        &self,
        p: Vec3,
        limit_sq: f32,
        closest: impl Fn(u32) -> Option<Vec3>,
    ) -> Option<(u32, Vec3, f32)> {
        if let [tile] = self.tiles.as_slice() {
            // A world with no tile has one empty slot, whose index has no leaf.
            if tile.polygon_count == 0 {
                return None;
            }
            return tile.index.nearest(p, limit_sq, closest);
        }
        let mut first = None;
        let mut first_sq = f32::INFINITY;
        for (t, tile) in self.tiles.iter().enumerate() {
            let d = tile.bounds.distance_squared(p);
            if tile.polygon_count != 0 && (first.is_none() || d < first_sq) {
                (first, first_sq) = (Some(t), d);
            }
        }
        let first = first?;
        // The best so far and its tile slot (ties go to the lower slot, as if the tiles
        // were searched in slot order).
        let mut best: Option<(u32, Vec3, f32, usize)> = None;
        let mut best_sq = limit_sq;
        let order = std::iter::once(first).chain((0..self.tiles.len()).filter(|&t| t != first));
        for t in order {
            let tile = &self.tiles[t];
            if tile.polygon_count == 0 || tile.bounds.distance_squared(p) > best_sq {
                continue;
            }
            let base = self.tile_base(t);
            if let Some((local, q, d)) = tile.index.nearest(p, best_sq, |l| closest(base | l))
                && best.is_none_or(|(_, _, bd, bt)| d < bd || (d == bd && t < bt))
            {
                best_sq = d;
                best = Some((base | local, q, d, t));
            }
        }
        best.map(|(polygon, q, d, _)| (polygon, q, d))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_keeps_ids() {
        let t = Tiled::single(vec![10, 11, 12, 13]);
        assert_eq!((t[0], t[3]), (10, 13));
        assert_eq!(&t[1..4], &[11, 12, 13]);
        assert_eq!(t.get(4), None);
        assert_eq!((t.chunk_count(), t.total_len()), (1, 4));
        assert_eq!(t.as_single(), &[10, 11, 12, 13]);
    }

    #[test]
    fn chunks_decode_tile_and_local() {
        // 4 tile slots of 2^30 ids each; slot 1 is empty.
        let t = Tiled::from_chunks(
            vec![
                Arc::from(vec![1, 2]),
                Arc::from(vec![]),
                Arc::from(vec![5, 6, 7]),
            ],
            30,
        );
        let b2 = 2 << 30;
        assert_eq!((t[0], t[1], t[b2], t[b2 + 2]), (1, 2, 5, 7));
        assert_eq!(&t[b2 + 1..b2 + 3], &[6, 7]);
        assert_eq!(t.get(2), None);
        assert_eq!(t.get(1 << 30), None);
        assert_eq!(t.get(3 << 30), None);
        assert_eq!((t.chunk(2).len(), t.chunk_count()), (3, 3));
        assert_eq!(t.iter().copied().sum::<i32>(), 21);
    }

    #[test]
    #[should_panic(expected = "index out of bounds")]
    fn an_id_in_an_empty_slot_panics_on_index() {
        let t = Tiled::from_chunks(vec![Arc::from(vec![1]), Arc::from(vec![])], 31);
        let _ = t[1 << 31];
    }
}
