//! Obstacles carved into a one-tile mesh: the polygons a grown footprint overlaps (in
//! its height range) are cut and split back into convex polygons; the others are kept
//! as they are, with their corners, areas and flags.
//!
//! For each group of touched polygons joined by edges (one level of a multi-level mesh
//! at a time), the union of the grown footprints that touch it is computed with
//! `i_overlay`; the shared partition (`partition.rs`) triangulates the group's edges
//! together with that union's rings and keeps the triangles outside the rings, each in
//! the original polygon holding it, merged while convex within it. The pieces take the
//! original polygon's area and flags and their corners' heights from its surface; a
//! corner at an original corner is that very vertex, so the pieces join the kept
//! polygons round them. The whole tile is then built again by the normal builder.

use std::collections::HashMap;

use glam::{DVec2, Vec3};
use i_overlay::core::fill_rule::FillRule;
use i_overlay::core::overlay_rule::OverlayRule;
use i_overlay::float::overlay::FloatOverlay;

use super::obstacle::Obstacle;
use super::partition::{self, Keep, PartitionError, Pieces, Region};
use super::{MeshData, MeshInput, MeshOptions, NO_NEIGHBOUR, NavMesh};
use crate::error::MeshError;

/// A grown footprint and what tells quickly whether it meets a polygon.
struct Cut<'a> {
    obstacle: &'a Obstacle,
    shape: Vec<DVec2>,
    low: DVec2,
    high: DVec2,
}

/// `mesh` (one tile) with `obstacles` carved out and, per polygon of it, the polygon
/// of `mesh` it comes from; `None` when none of them touches a polygon.
///
/// # Errors
/// [`MeshError::CarveFailed`] when a cut region could not be split into polygons the
/// builder accepts (touched polygons that overlap in the ground plane, or a cut finer
/// than `f32` coordinates tell apart).
pub(crate) fn carve(
    mesh: &MeshData,
    obstacles: &[&Obstacle],
) -> Result<Option<(NavMesh, Vec<u32>)>, MeshError> {
    if obstacles.is_empty() {
        return Ok(None);
    }
    if mesh.tiles.len() != 1 || mesh.local_bits != 32 {
        return Err(MeshError::InvalidOption(
            "obstacles are carved into a mesh built on its own, not a snapshot of a world",
        ));
    }
    let radius = mesh.clearance.baked_radius;
    let cuts: Vec<Cut<'_>> = obstacles
        .iter()
        .map(|&obstacle| {
            let shape = obstacle.grown(radius);
            let low = shape
                .iter()
                .fold(DVec2::splat(f64::INFINITY), |a, &q| a.min(q));
            let high = shape
                .iter()
                .fold(DVec2::splat(f64::NEG_INFINITY), |a, &q| a.max(q));
            Cut {
                obstacle,
                shape,
                low,
                high,
            }
        })
        .collect();
    // Per polygon: the cuts touching it.
    let count = mesh.polygon_count() as usize;
    let mut touching: Vec<Vec<usize>> = vec![Vec::new(); count];
    let mut any = false;
    for p in 0..count as u32 {
        let corners = ground_corners(mesh, p);
        if area(&corners) <= 0.0 {
            continue; // a degenerate connector: no ground to cut
        }
        let (mut lo, mut hi) = (f32::INFINITY, f32::NEG_INFINITY);
        for &v in &mesh.corners[mesh.corner_range(p)] {
            let h = mesh.up.height(mesh.vertices[v as usize]);
            lo = lo.min(h);
            hi = hi.max(h);
        }
        for (i, cut) in cuts.iter().enumerate() {
            if cut.obstacle.meets_heights(lo, hi) && overlaps(cut, &corners) {
                touching[p as usize].push(i);
                any = true;
            }
        }
    }
    if !any {
        return Ok(None);
    }
    let mut pieces = Pieces {
        points: Vec::new(),
        triangles: Vec::new(),
        owner: Vec::new(),
    };
    for group in groups(mesh, &touching) {
        let mut used: Vec<usize> = group
            .iter()
            .flat_map(|&p| touching[p as usize].iter().copied())
            .collect();
        used.sort_unstable();
        used.dedup();
        let region = Region {
            polygons: group
                .iter()
                .map(|&p| (p, ground_corners(mesh, p)))
                .collect(),
            rings: union_rings(used.iter().map(|&i| &cuts[i].shape)),
        };
        let part = partition::triangulate(&region, Keep::Outside).map_err(failed)?;
        let base = pieces.points.len();
        pieces.points.extend(part.points);
        pieces
            .triangles
            .extend(part.triangles.iter().map(|t| t.map(|v| v + base)));
        pieces.owner.extend(part.owner);
    }
    let merged = partition::merge(mesh, &pieces).map_err(failed)?;
    rebuild(mesh, &touching, &merged).map(Some)
}

/// The error of a cut that could not be split into polygons.
fn failed(error: PartitionError) -> MeshError {
    MeshError::CarveFailed(match error {
        PartitionError::Failed => "the cut region could not be triangulated",
        PartitionError::Overlap => {
            "an obstacle touches polygons that overlap in the ground plane on one level"
        }
    })
}

/// The ground corners of polygon `p`, counter-clockwise.
fn ground_corners(mesh: &MeshData, p: u32) -> Vec<DVec2> {
    mesh.corners[mesh.corner_range(p)]
        .iter()
        .map(|&v| mesh.ground[v as usize].as_dvec2())
        .collect()
}

/// Twice the signed area of a ring.
fn area(ring: &[DVec2]) -> f64 {
    let n = ring.len();
    (0..n).map(|i| ring[i].perp_dot(ring[(i + 1) % n])).sum()
}

/// Whether the convex `polygon` and the cut meet (touching counts), by separating axes.
fn overlaps(cut: &Cut<'_>, polygon: &[DVec2]) -> bool {
    let (lo, hi) = polygon.iter().fold(
        (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY)),
        |(a, b), &q| (a.min(q), b.max(q)),
    );
    if hi.x < cut.low.x || hi.y < cut.low.y || lo.x > cut.high.x || lo.y > cut.high.y {
        return false;
    }
    // Counter-clockwise rings: `-perp` of an edge points out. Separated when every
    // point of the other shape lies strictly beyond some edge's line.
    let separated_by = |ring: &[DVec2], other: &[DVec2]| {
        let n = ring.len();
        (0..n).any(|i| {
            let (a, b) = (ring[i], ring[(i + 1) % n]);
            let outward = -(b - a).perp();
            other.iter().all(|&q| (q - a).dot(outward) > 0.0)
        })
    };
    !(separated_by(polygon, &cut.shape) || separated_by(&cut.shape, polygon))
}

/// The touched polygons in groups joined by edges between touched polygons, each group
/// in ascending order.
fn groups(mesh: &MeshData, touching: &[Vec<usize>]) -> Vec<Vec<u32>> {
    let mut group_of: Vec<Option<usize>> = vec![None; touching.len()];
    let mut out: Vec<Vec<u32>> = Vec::new();
    for start in 0..touching.len() {
        if touching[start].is_empty() || group_of[start].is_some() {
            continue;
        }
        let g = out.len();
        let mut members = vec![start as u32];
        group_of[start] = Some(g);
        let mut at = 0;
        while at < members.len() {
            let p = members[at];
            at += 1;
            for slot in mesh.corner_range(p) {
                let q = mesh.neighbours[slot];
                if q != NO_NEIGHBOUR
                    && !touching[q as usize].is_empty()
                    && group_of[q as usize].is_none()
                {
                    group_of[q as usize] = Some(g);
                    members.push(q);
                }
            }
        }
        members.sort_unstable();
        out.push(members);
    }
    out
}

/// The boundary rings of the union of `shapes` (`i_overlay`).
fn union_rings<'a>(shapes: impl Iterator<Item = &'a Vec<DVec2>>) -> Vec<Vec<DVec2>> {
    let subject: Vec<Vec<[f64; 2]>> = shapes
        .map(|s| s.iter().map(|q| q.to_array()).collect())
        .collect();
    FloatOverlay::with_subj(&subject)
        .overlay(OverlayRule::Subject, FillRule::NonZero)
        .into_iter()
        .flatten()
        .map(|ring| ring.into_iter().map(DVec2::from).collect::<Vec<_>>())
        .filter(|ring| ring.len() >= 3)
        .collect()
}

/// The tile again: the untouched polygons as they were (in their order), then the
/// pieces, with the original areas, flags, links and options; and per polygon, the
/// polygon of `mesh` it comes from.
fn rebuild(
    mesh: &MeshData,
    touching: &[Vec<usize>],
    merged: &partition::Merged,
) -> Result<(NavMesh, Vec<u32>), MeshError> {
    let mut of_original = Vec::new();
    let mut vertices: Vec<Vec3> = mesh.vertices.as_single().to_vec();
    let mut indices = Vec::new();
    let mut sizes = Vec::new();
    let mut areas = Vec::new();
    let mut flags = Vec::new();
    let mut degenerate = false;
    for p in 0..touching.len() as u32 {
        if !touching[p as usize].is_empty() {
            continue;
        }
        let corners = &mesh.corners[mesh.corner_range(p)];
        degenerate |= area(&ground_corners(mesh, p)) <= 0.0;
        indices.extend_from_slice(corners);
        of_original.push(p);
        sizes.push(corners.len() as u32);
        areas.push(mesh.areas[p as usize]);
        flags.push(mesh.flags_of(p));
    }
    // A piece's corner at a corner of its original polygon is that vertex; the others
    // are new, one per merged vertex.
    let mut new_vertex: HashMap<u32, u32> = HashMap::new();
    let mut start = 0;
    for (piece, &size) in merged.sizes.iter().enumerate() {
        let owner = merged.of_original[piece];
        let own = &mesh.corners[mesh.corner_range(owner)];
        for &v in &merged.indices[start..start + size as usize] {
            let position = merged.vertices[v as usize];
            let ground = mesh.up.ground(position);
            let original = own
                .iter()
                .copied()
                .find(|&c| mesh.ground[c as usize] == ground);
            let index = match original {
                Some(c) => c,
                None => *new_vertex.entry(v).or_insert_with(|| {
                    vertices.push(position);
                    vertices.len() as u32 - 1
                }),
            };
            indices.push(index);
        }
        start += size as usize;
        of_original.push(owner);
        sizes.push(size);
        areas.push(mesh.areas[owner as usize]);
        flags.push(mesh.flags_of(owner));
    }
    if sizes.is_empty() {
        return Err(MeshError::CarveFailed("the obstacles cover the whole mesh"));
    }
    // The links, each end where it was attached (radius 1e-3, for the heights of the
    // pieces: an end the cut took away does not attach elsewhere, and the link is left
    // out).
    let mut links: Vec<_> = mesh
        .links
        .attached(0..mesh.polygon_count())
        .into_iter()
        .map(|a| a.link.with_radius(1e-3))
        .collect();
    let options = MeshOptions::default()
        .with_up_axis(mesh.up)
        .with_weld_vertices(false)
        .with_agent_radius(mesh.clearance.baked_radius)
        .with_allow_degenerate_connectors(degenerate);
    loop {
        let built = NavMesh::from_input(
            &MeshInput::new(&vertices, &indices)
                .with_polygon_sizes(&sizes)
                .with_areas(&areas)
                .with_flags(&flags)
                .with_links(&links),
            &options,
        );
        match built {
            Ok(carved) => return Ok((carved, of_original)),
            Err(MeshError::LinkOffMesh { link, .. }) if (link as usize) < links.len() => {
                links.remove(link as usize);
            }
            Err(_) => {
                return Err(MeshError::CarveFailed(
                    "the carved polygons could not be built into a mesh",
                ));
            }
        }
    }
}

impl NavMesh {
    /// A copy of this mesh with `obstacles` carved out: every polygon a footprint grown
    /// by the mesh's baked agent radius ([`NavMesh::agent_radius`]) overlaps within the
    /// obstacle's height range loses that footprint, and what is left is split into
    /// convex polygons with the original polygon's area and flags. Untouched polygons
    /// keep their corners, areas and flags, but polygon ids change (untouched polygons
    /// first, in their order, then the pieces); with no polygon touched the mesh itself
    /// is returned (shared). Off-mesh links keep their ends where they were attached; a
    /// link with an end inside a cut is left out. For obstacles that come and go while threads query, use a
    /// [`crate::World`] ([`crate::World::add_obstacle`]).
    ///
    /// # Errors
    /// [`MeshError::InvalidOption`] when the mesh is a world's snapshot (carve the world
    /// instead); [`MeshError::CarveFailed`] when a cut could not be split into
    /// polygons, or the obstacles cover every polygon.
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::{Vec2, Vec3}, MeshOptions, NavMesh, Obstacle, PathOptions, Query};
    ///
    /// // A 10 x 10 room with a 2 x 2 crate in the middle.
    /// let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// let room = NavMesh::from_polygons(&[v(0.0, 0.0), v(10.0, 0.0), v(10.0, 10.0), v(0.0, 10.0)], &[0, 1, 2, 3], &[4], &MeshOptions::default())?;
    /// let crate_box = Obstacle::rotated_box(Vec2::new(5.0, 5.0), Vec2::ONE, 0.0)?;
    /// let carved = room.with_obstacles(&[crate_box])?;
    /// assert!(carved.polygon_count() > 1);
    /// let mut query = Query::new(&carved);
    /// let path = query.find_path(v(5.0, 1.0), v(5.0, 9.0), &PathOptions::default())?;
    /// assert_eq!(path.corners.len(), 4); // round two corners of the crate
    /// assert!((path.length() - 2.0 * 10f32.sqrt() - 2.0).abs() < 1e-4);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_obstacles(&self, obstacles: &[Obstacle]) -> Result<NavMesh, MeshError> {
        let data = self.data();
        if data.tiles.len() != 1 || data.local_bits != 32 {
            return Err(MeshError::InvalidOption(
                "with_obstacles carves a mesh built on its own; a world's snapshot is carved with World::add_obstacle",
            ));
        }
        let refs: Vec<&Obstacle> = obstacles.iter().collect();
        Ok(carve(data, &refs)?.map_or_else(|| self.clone(), |(carved, _)| carved))
    }
}
