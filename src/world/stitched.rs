//! What stitching made of a tile in one layer ([`Stitched`]): its split, its chunks
//! ([`TileChunks`]), the islands its seams join and what `restitch` keeps to leave it
//! alone on later changes (its overlaps, seam slots ([`Seam`]) and own wall vertices).

use std::sync::Arc;

use glam::{Vec2, Vec3};

use super::stitch::{Overlap, SplitTile};

/// What stitching made of a tile in one layer.
pub(super) struct Stitched {
    pub split: SplitTile,
    pub chunks: TileChunks,
    /// `[local island, other tile's slot, its local island]` for every pair of islands
    /// joined by a seam (both directions are recorded, one by each tile).
    pub island_links: Vec<[u32; 3]>,
    /// Per neighbour slot the tile overlaps (only those), the overlaps with the tile's
    /// edges as `a`, in the order they were found from the lower slot's side.
    pub overlaps: Vec<(u32, Vec<Overlap>)>,
    /// The tile's seam slots, by slot.
    pub seams: Vec<Seam>,
    /// `chunks.wall_vertex` before the walls of neighbours were added: the ends of the
    /// tile's own walls left after stitching.
    pub own_walls: Arc<[bool]>,
    /// Per neighbour: the tile's vertices where a wall of that neighbour ends (what
    /// `chunks.wall_vertex` adds to `own_walls`), kept so that a change finds again only
    /// those of the neighbours it re-stitched.
    pub across: Vec<Across>,
}

/// Where the walls of one neighbour end near a tile, and the tile's vertices there, as
/// of that neighbour's stitching.
#[derive(Clone)]
pub(super) struct Across {
    /// The neighbour's slot.
    pub slot: u32,
    /// The neighbour's `chunks.neighbours` when they were found: they hold as long as
    /// the neighbour keeps that table (stitching it again makes a new one; holding it
    /// keeps its address from being reused).
    pub walls_of: Arc<[u32]>,
    /// The points (in the ground plane, with their heights) where the neighbour's walls
    /// end near the tile, sorted along x: they hold while the neighbour keeps its
    /// tables, even when the tile is stitched again.
    pub ends: Vec<(glam::Vec2, f32)>,
    /// The tile's vertices (local ids) at those points, sorted.
    pub found: Vec<usize>,
}

/// A seam slot of a tile: its local slot (after splitting) and the polygon that owns it
/// (local id), the polygon across it and that polygon's slot (global ids).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Seam {
    pub slot: u32,
    pub owner: u32,
    pub polygon: u32,
    pub twin: u32,
}

/// One tile's chunks of the per-element tables that stitching changes (ids global). A
/// vertex is a wall vertex when a wall of the world ends at its point: a wall of its own
/// tile, or of a neighbour (whose vertex there is another, at the same point); where
/// seams join tiles all round a point, no wall ends there and no path bends there.
#[derive(Clone)]
pub(super) struct TileChunks {
    pub vertices: Arc<[Vec3]>,
    pub ground: Arc<[Vec2]>,
    pub poly_start: Arc<[u32]>,
    pub corners: Arc<[u32]>,
    pub neighbours: Arc<[u32]>,
    pub portals: Arc<[[u32; 2]]>,
    pub twin: Arc<[u32]>,
    pub wall_vertex: Arc<[bool]>,
    pub dead_end: Arc<[bool]>,
}
