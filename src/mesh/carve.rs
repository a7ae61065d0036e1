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

use glam::DVec2;
use i_overlay::core::fill_rule::FillRule;
use i_overlay::core::overlay_rule::OverlayRule;
use i_overlay::float::overlay::FloatOverlay;

pub(crate) use super::draft::{Draft, Present};
use super::obstacle::Obstacle;
use super::partition::{self, Keep, PartitionError, Pieces, Region};
use super::{MeshData, NO_NEIGHBOUR, NavMesh};
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
    match draft(mesh, obstacles, None)? {
        Some(draft) => draft
            .build(&(0..draft.len() as u32).collect::<Vec<_>>(), None)
            .map(Some),
        None => Ok(None),
    }
}

/// The polygons of `mesh` (one tile) with `obstacles` carved out, not yet built (see
/// [`Draft`]); `None` when none of them touches a polygon.
///
/// With `present`, only the *region of the change* is cut again: the polygons a changed
/// footprint overlaps, and with them every polygon cut by an obstacle that cuts one of
/// the region (an obstacle cuts all its polygons together). The other cut polygons keep
/// the pieces they have in `present`, vertex for vertex; no cut crosses an edge between
/// them and the region, so the two sides still meet corner to corner.
///
/// # Errors
/// As [`carve`].
pub(crate) fn draft(
    mesh: &MeshData,
    obstacles: &[&Obstacle],
    present: Option<&Present<'_>>,
) -> Result<Option<Draft>, MeshError> {
    if obstacles.is_empty() {
        return Ok(None);
    }
    if mesh.tiles.len() != 1 || mesh.local_bits != 32 {
        return Err(MeshError::InvalidOption(
            "obstacles are carved into a mesh built on its own, not a snapshot of a world",
        ));
    }
    let radius = mesh.clearance.baked_radius;
    let changed = present.map_or(&[][..], |p| p.changed);
    let cuts: Vec<Cut<'_>> = obstacles
        .iter()
        .chain(changed)
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
    // Per polygon: the cuts touching it (the obstacles'), and whether a changed
    // footprint overlaps it.
    let count = mesh.polygon_count() as usize;
    let mut touching: Vec<Vec<usize>> = vec![Vec::new(); count];
    let mut hit = vec![present.is_none(); count];
    let mut any = false;
    for p in candidates(mesh, &cuts) {
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
                if i < obstacles.len() {
                    touching[p as usize].push(i);
                    any = true;
                } else {
                    hit[p as usize] = true;
                }
            }
        }
    }
    if !any {
        return Ok(None);
    }
    let recut = region(&touching, hit, obstacles.len());
    // The cut polygons outside the region keep their pieces.
    let kept: Vec<bool> = (0..count)
        .map(|p| !recut[p] && !touching[p].is_empty())
        .collect();
    for (p, t) in touching.iter_mut().enumerate() {
        if kept[p] {
            t.clear();
        }
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
    let cut: Vec<bool> = (0..count)
        .map(|p| kept[p] || !touching[p].is_empty())
        .collect();
    let mut draft = Draft::of(mesh, &cut, &merged, present);
    if let Some(present) = present {
        draft.keep(mesh, present, &kept);
    }
    draft.drop_unused_vertices(mesh.vertices.as_single().len());
    Ok(Some(draft))
}

/// The polygons of `mesh` (one tile) whose boxes meet the box of a cut, ascending:
/// found with the tile's polygon index, not by testing every polygon. The boxes are
/// grown by a few `f32` steps so that rounding the cuts' `f64` boxes loses no polygon
/// they touch; the exact tests follow.
fn candidates(mesh: &MeshData, cuts: &[Cut<'_>]) -> Vec<u32> {
    let index = &mesh.tiles[0].index;
    let mut found = Vec::new();
    for cut in cuts {
        let (low, high) = (cut.low.as_vec2(), cut.high.as_vec2());
        let margin = low.abs().max(high.abs()).max_element() * 1e-6 + 1e-6;
        index.meeting_ground(
            mesh.up,
            low - glam::Vec2::splat(margin),
            high + glam::Vec2::splat(margin),
            &mut found,
        );
    }
    found.sort_unstable();
    found.dedup();
    found
}

/// The region of a change: the polygons `hit` by a changed footprint and, again and
/// again, every polygon touched by a cut (of `cuts`) that touches one of the region.
fn region(touching: &[Vec<usize>], mut hit: Vec<bool>, cuts: usize) -> Vec<bool> {
    let mut by_cut: Vec<Vec<usize>> = vec![Vec::new(); cuts];
    for (p, t) in touching.iter().enumerate() {
        for &i in t {
            by_cut[i].push(p);
        }
    }
    let mut queue: Vec<usize> = (0..hit.len()).filter(|&p| hit[p]).collect();
    let mut done = vec![false; cuts];
    while let Some(p) = queue.pop() {
        for &i in &touching[p] {
            if !std::mem::replace(&mut done[i], true) {
                for &q in &by_cut[i] {
                    if !std::mem::replace(&mut hit[q], true) {
                        queue.push(q);
                    }
                }
            }
        }
    }
    hit
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
pub(super) fn ground_corners(mesh: &MeshData, p: u32) -> Vec<DVec2> {
    mesh.corners[mesh.corner_range(p)]
        .iter()
        .map(|&v| mesh.ground[v as usize].as_dvec2())
        .collect()
}

/// Twice the signed area of a ring.
pub(super) fn area(ring: &[DVec2]) -> f64 {
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
