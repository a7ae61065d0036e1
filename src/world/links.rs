//! Off-mesh links in a world of tiles: the links of each tile's own mesh (both ends in
//! the tile), and links given with a tile whose end lies in another tile
//! ([`crate::World::add_tile_with_links`]).
//!
//! A link belongs to the tile it was given with: its id in a snapshot is `slot <<
//! local_bits | local`, the tile's own mesh links first, then the links given with it, and
//! its cost, area and run-time flags live in that tile's chunks (the flags shared by every
//! snapshot that holds the tile). A hop lives in the tile of the polygon it leaves from:
//! the forward hop of a link in its own tile, the way back of a two-way link in the tile
//! its end is attached to. The end of a link given with a tile is attached to the nearest
//! polygon of another tile present within the link's radius, and attached again when tiles
//! come and go near it (`relink`).

use std::sync::Arc;
use std::sync::atomic::Ordering;

use glam::Vec3;

use crate::error::MeshError;
use crate::mesh::{LinkHop, NavMesh, OffMeshLink, validate_link};
use crate::sync::AtomicU32;

/// A link given with a tile, its start attached to the tile.
#[derive(Debug, Clone, Copy)]
pub(super) struct CrossLink {
    /// The polygon holding the start (local id).
    pub start_polygon: u32,
    /// The start, where it was attached.
    pub start: Vec3,
    /// The end, as given.
    pub end: Vec3,
    pub radius: f32,
    pub bidirectional: bool,
}

/// Where the end of a link between tiles is attached.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct End {
    /// The tile slot.
    pub slot: u32,
    /// The polygon (local id in the tile of `slot`).
    pub polygon: u32,
    /// The point on it.
    pub point: Vec3,
}

/// A tile's links as the world keeps them.
pub(super) struct TileLinks {
    /// The links given with the tile, as given (to hand back to the caller).
    pub given: Vec<OffMeshLink>,
    /// The number of links of the tile's own mesh: those of `given` follow them.
    pub own_count: u32,
    /// `given`, attached at their start.
    pub cross: Vec<CrossLink>,
    /// Per link of `cross`: where its end is attached now.
    pub ends: Vec<Option<End>>,
    /// Per link id of the tile (own, then given): cost, area and run-time flags (the
    /// world's copy, shared by every snapshot holding the tile).
    pub cost: Arc<[f32]>,
    /// See `cost`.
    pub area: Arc<[u8]>,
    /// See `cost`.
    pub flags: Arc<[AtomicU32]>,
    /// The tile's chunks of the hop tables (global ids): empty when no hop leaves it.
    pub hop_start: Arc<[u32]>,
    /// See `hop_start`.
    pub hops: Arc<[LinkHop]>,
}

impl TileLinks {
    /// The links of `mesh` and `given` (whose starts must lie on `mesh`), for a tile of a
    /// world whose slots number `max` elements; no end of `given` attached yet.
    ///
    /// # Errors
    /// [`MeshError::InvalidLink`] and [`MeshError::LinkOffMesh`] (the index is that in
    /// `given`) as when a mesh is built; [`MeshError::TileTooLarge`] when the tile has
    /// more links than a slot numbers.
    pub fn new(
        mesh: &NavMesh,
        given: &[OffMeshLink],
        slot: u32,
        max: u64,
    ) -> Result<TileLinks, MeshError> {
        let data = mesh.data();
        let own = &data.links;
        let own_count = own.count();
        let count = u64::from(own_count) + given.len() as u64;
        if count > max {
            return Err(MeshError::TileTooLarge {
                slot,
                what: "off-mesh links",
                count,
                max,
            });
        }
        let mut cross = Vec::with_capacity(given.len());
        for (index, link) in given.iter().enumerate() {
            let index = index as u32;
            validate_link(index, link)?;
            let start = data
                .nearest_point(link.start, link.radius, |_| true)
                .ok_or_else(|| MeshError::LinkOffMesh {
                    link: index,
                    end: "start",
                    distance: data
                        .nearest_point(link.start, f32::INFINITY, |_| true)
                        .map_or(f32::INFINITY, |n| n.distance),
                    radius: link.radius,
                })?;
            cross.push(CrossLink {
                start_polygon: start.polygon,
                start: start.point,
                end: link.end,
                radius: link.radius,
                bidirectional: link.bidirectional,
            });
        }
        let cost: Vec<f32> = own
            .cost
            .as_single()
            .iter()
            .copied()
            .chain(given.iter().map(|l| l.cost))
            .collect();
        let area: Vec<u8> = own
            .area
            .as_single()
            .iter()
            .copied()
            .chain(given.iter().map(|l| l.area))
            .collect();
        let flags: Vec<AtomicU32> = own
            .flags
            .as_single()
            .iter()
            .map(|f| f.load(Ordering::Relaxed))
            .chain(given.iter().map(|l| l.flags))
            .map(AtomicU32::new)
            .collect();
        Ok(TileLinks {
            given: given.to_vec(),
            own_count,
            ends: vec![None; cross.len()],
            cross,
            cost: cost.into(),
            area: area.into(),
            flags: flags.into(),
            hop_start: Arc::from(Vec::new()),
            hops: Arc::from(Vec::new()),
        })
    }

    /// No links (the merged layer of a tile).
    pub fn none() -> TileLinks {
        TileLinks {
            given: Vec::new(),
            own_count: 0,
            cross: Vec::new(),
            ends: Vec::new(),
            cost: Arc::from(Vec::new()),
            area: Arc::from(Vec::new()),
            flags: Arc::from(Vec::new()),
            hop_start: Arc::from(Vec::new()),
            hops: Arc::from(Vec::new()),
        }
    }

    /// `[local island of the start, end slot, local island of the end]` of every link
    /// between tiles whose end is attached (`island(slot, polygon)` gives the local
    /// island of a polygon).
    pub fn island_joins<'a>(
        &'a self,
        island: impl Fn(u32, u32) -> u32 + 'a,
        own_island: impl Fn(u32) -> u32 + 'a,
    ) -> impl Iterator<Item = [u32; 3]> + 'a {
        self.cross
            .iter()
            .zip(&self.ends)
            .filter_map(move |(link, end)| {
                let end = end.as_ref()?;
                Some([
                    own_island(link.start_polygon),
                    end.slot,
                    island(end.slot, end.polygon),
                ])
            })
    }
}
