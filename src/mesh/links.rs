//! Off-mesh links: ladders, jumps and teleporters that join two points of the mesh.
//!
//! A link is given by its two end points; at build each end is attached to the nearest
//! polygon within the link's radius. Every direction a link can be walked is a *hop*,
//! stored with the polygon it leaves from, so a search finds the hops out of a polygon
//! as a contiguous slice, like its edges.

use std::sync::atomic::Ordering;

use glam::Vec3;

use super::{MeshData, Tiled};
use crate::alloc::{try_collect, try_vec_with_capacity};
use crate::error::MeshError;
use crate::filter::{DEFAULT_AREA, DEFAULT_FLAGS, MAX_AREAS};
use crate::sync::AtomicU32;

/// An off-mesh link: a connection between two points of the mesh that is not walked
/// over polygons (a ladder, a jump, a teleporter).
///
/// Make one with [`OffMeshLink::new`] and change what you need with the `with_*` methods. A path through a
/// link goes to `start`, then continues from `end`; the path's corners there carry
/// [`crate::CornerFlags::LINK_START`] and [`crate::CornerFlags::LINK_END`] so an agent
/// can play the right animation.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct OffMeshLink {
    /// Where the link is entered (world coordinates).
    pub start: Vec3,
    /// Where it leaves (world coordinates).
    pub end: Vec3,
    /// Whether it can also be taken from `end` to `start` (default `true`).
    pub bidirectional: bool,
    /// The cost of taking it, in world length units, before the filter's multiplier for
    /// its `area` (default: the 3D distance between its ends). Finite and >= 0.
    pub cost: f32,
    /// Its area id, below [`MAX_AREAS`] (default 0).
    pub area: u8,
    /// Its initial flags (default 1); change them at run time with
    /// [`crate::NavMesh::set_link_flags`].
    pub flags: u32,
    /// How far (3D, world units) each end may be from the mesh; it is attached to the
    /// nearest point of the mesh within that distance. Finite and >= 0 (default 1).
    pub radius: f32,
}

impl OffMeshLink {
    /// A two-way link from `start` to `end` with the default cost, area, flags and radius.
    #[must_use]
    pub fn new(start: Vec3, end: Vec3) -> OffMeshLink {
        OffMeshLink {
            start,
            end,
            bidirectional: true,
            cost: start.distance(end),
            area: DEFAULT_AREA,
            flags: DEFAULT_FLAGS,
            radius: 1.0,
        }
    }

    /// This link, one-way or two-way ([`OffMeshLink::bidirectional`]).
    #[must_use]
    pub fn with_bidirectional(self, bidirectional: bool) -> Self {
        OffMeshLink {
            bidirectional,
            ..self
        }
    }

    /// This link with another cost ([`OffMeshLink::cost`]).
    #[must_use]
    pub fn with_cost(self, cost: f32) -> Self {
        OffMeshLink { cost, ..self }
    }

    /// This link in another area ([`OffMeshLink::area`]).
    #[must_use]
    pub fn with_area(self, area: u8) -> Self {
        OffMeshLink { area, ..self }
    }

    /// This link with other initial flags ([`OffMeshLink::flags`]).
    #[must_use]
    pub fn with_flags(self, flags: u32) -> Self {
        OffMeshLink { flags, ..self }
    }

    /// This link with another attachment radius ([`OffMeshLink::radius`]).
    #[must_use]
    pub fn with_radius(self, radius: f32) -> Self {
        OffMeshLink { radius, ..self }
    }
}

/// One direction of a link, leaving from a polygon.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct LinkHop {
    /// The link: its id in the mesh's link tables (for a mesh built from arrays, its
    /// index in the caller's link array).
    pub link: u32,
    /// Where the hop is entered: on the polygon it leaves from.
    pub from: Vec3,
    /// Where it arrives: on `to_polygon`.
    pub to: Vec3,
    /// The polygon it arrives in.
    pub to_polygon: u32,
}

/// The links of a mesh, as hops grouped by the polygon they leave from. Every table is
/// stored per tile ([`Tiled`]): link and hop ids follow the element-id scheme (`tile <<
/// local_bits | local`) like polygon ids, so a world builds the tables of a tile with the
/// tile and shares the others between snapshots.
#[derive(Debug, Default)]
pub(crate) struct Links {
    /// Hops out of polygon `p`: `hops[hop_start[p]..hop_start[p + 1]]` (global hop ids).
    /// A tile's chunk holds one entry more than its polygons, or none when no hop leaves
    /// the tile.
    pub hop_start: Tiled<u32>,
    /// Per hop id: the hop. A hop lives in the tile of the polygon it leaves from, so a
    /// two-way link between two tiles has a hop in each.
    pub hops: Tiled<LinkHop>,
    /// Per link id: cost (before the area multiplier).
    pub cost: Tiled<f32>,
    /// Per link id: area.
    pub area: Tiled<u8>,
    /// Per link id: run-time flags. A world's chunks are shared by every snapshot that
    /// holds the tile owning the link, so a change is seen by all of them.
    pub flags: Tiled<AtomicU32>,
}

impl Links {
    /// Number of links (of every tile).
    pub fn count(&self) -> u32 {
        self.cost.total_len() as u32
    }

    /// Number of hops (of every tile).
    pub fn hop_count(&self) -> usize {
        self.hops.total_len()
    }

    /// The hops leaving `polygon` (none when its tile has no hops).
    #[inline]
    pub fn hops_from(&self, polygon: u32) -> &[LinkHop] {
        let p = polygon as usize;
        match self.hop_start.get(p) {
            Some(&start) => &self.hops[start as usize..self.hop_start[p + 1] as usize],
            None => &[],
        }
    }

    /// The current flags of `link`.
    #[inline]
    pub fn flags(&self, link: u32) -> u32 {
        self.flags[link as usize].load(Ordering::Relaxed)
    }

    /// Each link as attached, in link order: a link whose ends are the points where it
    /// was attached (on the mesh), with its cost, area, direction and current flags, and
    /// the polygons of its start and end. `polygons` are the ids of every polygon of the
    /// mesh. The radius is left at its default.
    pub fn attached(&self, polygons: impl Iterator<Item = u32>) -> Vec<AttachedLink> {
        let mut out: Vec<Option<AttachedLink>> = vec![None; self.count() as usize];
        for p in polygons {
            for hop in self.hops_from(p) {
                let slot = &mut out[hop.link as usize];
                match slot {
                    // The second hop of a link: it is two-way.
                    Some(seen) => seen.link.bidirectional = true,
                    None => {
                        let link = hop.link as usize;
                        *slot = Some(AttachedLink {
                            link: OffMeshLink::new(hop.from, hop.to)
                                .with_bidirectional(false)
                                .with_cost(self.cost[link])
                                .with_area(self.area[link])
                                .with_flags(self.flags(hop.link)),
                            start_polygon: p,
                            end_polygon: hop.to_polygon,
                        });
                    }
                }
            }
        }
        out.into_iter().flatten().collect()
    }
}

/// A link of a built mesh with the polygons its ends are attached to
/// ([`Links::attached`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct AttachedLink {
    /// The link, its ends where they were attached.
    pub link: OffMeshLink,
    /// The polygon holding `link.start`.
    pub start_polygon: u32,
    /// The polygon holding `link.end`.
    pub end_polygon: u32,
}

/// Validates `links` and attaches them to `mesh` (whose polygons and spatial index are
/// complete). Returns the hop table; the caller merges islands.
pub(super) fn attach(mesh: &MeshData, links: &[OffMeshLink]) -> Result<Links, MeshError> {
    if links.is_empty() {
        return Ok(Links::default());
    }
    if u32::try_from(links.len()).is_err() || links.len() > (u32::MAX / 4) as usize {
        return Err(MeshError::TooLarge("more than 2^30 off-mesh links"));
    }
    let mut hops: Vec<(u32, LinkHop)> = try_vec_with_capacity(2 * links.len(), "link hops")?;
    for (index, link) in links.iter().enumerate() {
        let index = index as u32;
        validate(index, link)?;
        let start = attach_end(mesh, index, link, link.start, "start")?;
        let end = attach_end(mesh, index, link, link.end, "end")?;
        hops.push((
            start.polygon,
            LinkHop {
                link: index,
                from: start.point,
                to: end.point,
                to_polygon: end.polygon,
            },
        ));
        if link.bidirectional {
            hops.push((
                end.polygon,
                LinkHop {
                    link: index,
                    from: end.point,
                    to: start.point,
                    to_polygon: start.polygon,
                },
            ));
        }
    }
    hops.sort_by_key(|&(polygon, hop)| (polygon, hop.link));
    let polygon_count = mesh.polygon_count() as usize;
    let mut hop_start = try_vec_with_capacity(polygon_count + 1, "link hop offsets")?;
    let mut next = 0usize;
    for p in 0..=polygon_count as u32 {
        while next < hops.len() && hops[next].0 < p {
            next += 1;
        }
        hop_start.push(next as u32);
    }
    Ok(Links {
        hop_start: hop_start.into(),
        hops: try_collect(hops.len(), hops.iter().map(|&(_, h)| h), "link hops")?.into(),
        cost: try_collect(links.len(), links.iter().map(|l| l.cost), "link costs")?.into(),
        area: try_collect(links.len(), links.iter().map(|l| l.area), "link areas")?.into(),
        flags: try_collect(
            links.len(),
            links.iter().map(|l| AtomicU32::new(l.flags)),
            "link flags",
        )?
        .into(),
    })
}

/// [`MeshError::InvalidLink`] naming `index` unless `link`'s points, cost, radius and area
/// are valid.
pub(crate) fn validate(index: u32, link: &OffMeshLink) -> Result<(), MeshError> {
    let invalid = |reason| {
        Err(MeshError::InvalidLink {
            link: index,
            reason,
        })
    };
    if !(link.start.is_finite() && link.end.is_finite()) {
        return invalid("an end point has a non-finite coordinate");
    }
    if !(link.cost.is_finite() && link.cost >= 0.0) {
        return invalid("cost must be finite and >= 0");
    }
    if !(link.radius.is_finite() && link.radius >= 0.0) {
        return invalid("radius must be finite and >= 0");
    }
    if usize::from(link.area) >= MAX_AREAS {
        return invalid("area must be below 64");
    }
    Ok(())
}

fn attach_end(
    mesh: &MeshData,
    index: u32,
    link: &OffMeshLink,
    point: Vec3,
    end: &'static str,
) -> Result<super::NearestPoint, MeshError> {
    mesh.nearest_point(point, link.radius, |_| true)
        .ok_or_else(|| MeshError::LinkOffMesh {
            link: index,
            end,
            distance: mesh
                .nearest_point(point, f32::INFINITY, |_| true)
                .map_or(f32::INFINITY, |n| n.distance),
            radius: link.radius,
        })
}
