//! Several agent sizes on one mesh: the region a disc's centre may occupy, as a mesh of
//! its own (the *eroded mesh*), built on first use for each radius and filter and kept in
//! a small cache on the mesh. Both path modes, nearest points and the other queries run
//! on it unchanged, and map its polygons back to the original ones.
//!
//! * [`layers`]: the admitted polygons split into layers that do not overlap in the
//!   ground plane (a bridge and the road under it; a mesh of one level is one layer),
//!   and, per layer, its walls, its *seams* (edges into another layer, which are not
//!   walls) and the walls of the other levels within `2r` of its seams;
//! * [`region`]: each layer less a band of width `r` along its walls (and along the
//!   other levels' walls, within `r` of its seams only), with the round corners drawn
//!   outside the circle, so the region keeps at least `r` from every wall;
//! * [`pieces`]: each layer's constrained triangulation together with the original
//!   polygons' edges, each piece tagged with the original polygon holding it (the
//!   partition shared with carving, `mesh/partition.rs`);
//! * [`stitch`]: the layers' pieces joined, their points on each seam made one (they
//!   come from two computations and differ by rounding) and triangles split at the
//!   other side's points, so that the builder joins them across;
//! * [`pieces`] again: heights from the original polygons, triangles merged while convex
//!   within their original polygon (the shared partition again), and a [`NavMesh`] built
//!   by the normal builder;
//! * [`joined`]: the eroded mesh's polygons joined across the original polygons'
//!   borders (same area, one flat level), which the path searches run on: fewer,
//!   larger polygons to expand; either the pieces merged as they are, or each class of
//!   them triangulated anew without the original edges ([`recut`]) and merged, the
//!   originals under each joined polygon then found by overlap ([`overlap`]);
//! * here: the cache, keyed by the radius, and by the filter's flag masks and the mesh's
//!   flag generation when the filter refuses some polygon (refused polygons are walls),
//!   lock-free for readers: an `arc-swap` of an immutable list, copied on insert, bounded
//!   to [`CACHE_SIZE`] entries (the least recently used goes first).
//!
//! Works in the ground plane, layer by layer: within a layer the disc keeps `r` from
//! the layer's walls; across a seam it keeps `r` from the walls of the level beyond as
//! well, as far as they lie within `r` of the seam (a disc standing near the top of a
//! ramp reaches onto the deck, not onto the road under it). The walls of a level that
//! passes over or under a layer elsewhere never count for it. Where levels lie closer
//! than `r` to a seam in the ground plane (a road passing within `r` under the end of
//! a deck), the other level's walls count there too: the region may be smaller than the
//! true one, never larger. A world's snapshot is a [`NavMesh`] built anew for each change
//! of tiles, with a cache of its own, so erosion across tile borders is that of one mesh
//! and never stale. Off-mesh links are not part of the eroded mesh.

mod arcs;
mod joined;
#[cfg(test)]
mod joined_tests;
mod layers;
mod moves;
mod overlap;
mod pieces;
mod queries;
mod recut;
mod region;
mod stitch;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use arc_swap::ArcSwap;

pub(crate) use arcs::ArcCentres;

use super::{MeshData, NavMesh};
use crate::error::QueryError;
use crate::filter::QueryFilter;
pub(crate) use joined::Joined;

/// The sides of the regular polygon drawn round the disc at a convex wall corner (an
/// octagon): a turn of angle `a` round a corner is made of about `a * ARC_SEGMENTS / 2 pi`
/// path corners (2 for a right angle), each at `r / cos(pi / ARC_SEGMENTS)` (1.0824 `r`)
/// from the corner, so the path's chords keep at least `r` from it. The exact mode's path
/// is never longer than the true shortest path of a disc of radius
/// `r / cos(pi / ARC_SEGMENTS)`; round a corner turned through a whole number of the
/// octagon's sides it is longer than the true arc by at most
/// `a r (tan(pi / ARC_SEGMENTS) / (pi / ARC_SEGMENTS) - 1)` = 0.0548 `a r`
/// ([`ARC_LENGTH_EXCESS`]): 0.043 for a right-angle turn at `r` = 0.5. The octagon's
/// sides touch the circle facing the axes and the diagonals, so a gap between two corners
/// lined up along an axis or a diagonal is open down to exactly `2r`; at other angles
/// a gap of up to `2r / cos(pi / ARC_SEGMENTS)` (2.165 `r`) may be closed.
///
/// Fewer sides make fewer polygons in the eroded copy (a piece per side of the arc
/// next to a corner): 8 sides against the 32 of earlier versions cut the copy of
/// den312d from 1,320 polygons to 401 and its default-mode queries at radius 0.5 from 6.7
/// to 1.9 times the instructions of radius 0 (BENCHMARKS.md, "session 16").
pub const ARC_SEGMENTS: usize = 8;

/// How much longer than the true arc (per unit of radius and per radian turned) a path
/// round a convex wall corner may be: `tan(pi / ARC_SEGMENTS) / (pi / ARC_SEGMENTS) - 1`,
/// rounded up.
pub const ARC_LENGTH_EXCESS: f64 = 0.0548;

/// Eroded meshes kept per mesh.
pub(crate) const CACHE_SIZE: usize = 8;

/// The region a disc of some radius may occupy on a mesh, under some filter.
pub(crate) struct ErodedMesh {
    /// The eroded mesh: the original areas, default flags, no off-mesh links.
    pub mesh: NavMesh,
    /// Per polygon of `mesh`: the original polygon holding it.
    pub of_original: Vec<u32>,
    /// The wall corners a path on `mesh` may turn round.
    pub arcs: ArcCentres,
    /// `mesh`'s polygons joined across the original polygons' borders, which the path
    /// searches run on; `None` when nothing joins.
    pub joined: Option<Joined>,
}

impl ErodedMesh {
    /// The mesh the path searches run on: the joined copy when there is one, else the
    /// eroded mesh itself.
    pub fn search_mesh(&self) -> &NavMesh {
        self.joined.as_ref().map_or(&self.mesh, |j| &j.mesh)
    }
}

/// What an eroded mesh depends on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Key {
    /// The erosion's radius (`f32` bits).
    radius: u32,
    /// `(include, exclude, flag generation)` when the filter refuses some polygon;
    /// `None` when it admits every one.
    refusing: Option<(u32, u32, u64)>,
}

struct Entry {
    key: Key,
    built: Result<Arc<ErodedMesh>, QueryError>,
    last_use: AtomicU64,
}

/// The baked radius of a mesh and its cache of eroded meshes.
pub(crate) struct Clearance {
    /// The radius the mesh was baked for (world units, >= 0).
    pub baked_radius: f32,
    cache: ArcSwap<Vec<Arc<Entry>>>,
    clock: AtomicU64,
}

impl Clearance {
    /// No eroded meshes yet, for a mesh baked for `baked_radius`.
    pub fn new(baked_radius: f32) -> Clearance {
        Clearance {
            baked_radius,
            cache: ArcSwap::from_pointee(Vec::new()),
            clock: AtomicU64::new(0),
        }
    }

    /// The bytes of the eroded meshes kept (their polygon, corner and vertex tables, and
    /// the landmark tables built so far for their searches).
    pub fn cached_bytes(&self) -> usize {
        self.cache
            .load()
            .iter()
            .filter_map(|e| e.built.as_ref().ok())
            .map(|e| {
                approximate_bytes(e.mesh.data())
                    + e.of_original.len() * 4
                    + e.arcs.bytes()
                    + e.joined.as_ref().map_or(0, |j| {
                        approximate_bytes(j.mesh.data()) + j.list_bytes() + j.mesh.landmark_bytes()
                    })
            })
            .sum()
    }
}

impl MeshData {
    /// How far a query's `agent_radius` erodes this mesh: what it exceeds the baked
    /// radius by, 0 when it does not.
    pub fn erosion_for(&self, agent_radius: f32) -> f32 {
        (agent_radius - self.clearance.baked_radius).max(0.0)
    }

    /// The mesh eroded by `radius > 0` (finite) for `filter`; `admits_all` tells whether
    /// the filter admits every polygon now. Built on the first call for its key and
    /// kept; later calls load it without a lock.
    pub fn eroded(
        &self,
        radius: f32,
        filter: &QueryFilter,
        admits_all: bool,
    ) -> Result<Arc<ErodedMesh>, QueryError> {
        debug_assert!(radius > 0.0 && radius.is_finite());
        let key = Key {
            radius: radius.to_bits(),
            refusing: (!admits_all).then(|| {
                (
                    filter.include_flags,
                    filter.exclude_flags,
                    self.flags_generation(),
                )
            }),
        };
        let clearance = &self.clearance;
        let now = clearance.clock.fetch_add(1, Ordering::Relaxed);
        if let Some(entry) = clearance.cache.load().iter().find(|e| e.key == key) {
            entry.last_use.store(now, Ordering::Relaxed);
            return entry.built.clone();
        }
        let built = if admits_all {
            self.erode(radius, |_| true)
        } else {
            self.erode(radius, |p| filter.admits(self.flags_of(p)))
        };
        let entry = Arc::new(Entry {
            key,
            built: built.map(Arc::new),
            last_use: AtomicU64::new(now),
        });
        clearance.cache.rcu(|list| {
            if list.iter().any(|e| e.key == key) {
                return Arc::clone(list);
            }
            let mut list: Vec<Arc<Entry>> = list.iter().cloned().collect();
            if list.len() >= CACHE_SIZE {
                let oldest = (0..list.len())
                    .min_by_key(|&i| list[i].last_use.load(Ordering::Relaxed))
                    .unwrap_or(0);
                list.remove(oldest);
            }
            list.push(Arc::clone(&entry));
            Arc::new(list)
        });
        // Another thread may have built the same key first: answer with the kept one
        // (or with this one, should a burst of other keys have evicted both).
        let entry = clearance
            .cache
            .load()
            .iter()
            .find(|e| e.key == key)
            .cloned()
            .unwrap_or(entry);
        entry.built.clone()
    }

    /// Builds the eroded mesh of the polygons `admitted` accepts: each layer eroded and
    /// triangulated on its own, the pieces joined along the seams, one mesh built.
    fn erode(&self, radius: f32, admitted: impl Fn(u32) -> bool) -> Result<ErodedMesh, QueryError> {
        let r = f64::from(radius);
        let layers = layers::Layers::new(self, &admitted);
        let mut parts = Vec::with_capacity(layers.count);
        let mut seams = Vec::new();
        let mut centres = Vec::new();
        for layer in 0..layers.count {
            let input = layers.input(self, layer, r);
            seams.extend(
                input
                    .seams
                    .iter()
                    .copied()
                    .zip(input.seam_polygons.iter().copied()),
            );
            let (region, grounds) = region::erode(input, r);
            ArcCentres::lift_layer(self, &region.polygons, &grounds, &mut centres);
            parts.push(pieces::triangulate(&region)?);
        }
        let pieces = stitch::join(parts, &seams);
        if pieces.triangles.is_empty() {
            return Err(QueryError::ClearanceUnavailable(
                "agent_radius: no point of the mesh keeps that distance from its walls",
            ));
        }
        let (mesh, of_original) = pieces::build_mesh(self, &pieces)?;
        let joined = joined::join(self, &mesh, &of_original);
        // The mesh the path searches run on (the joined copy when there is one) gets its
        // own landmark table, built by the first search that uses it (by default on
        // copies of any size, `query/clearance.rs`): one exact flood per landmark over
        // the copy, from a third of the copy's own build on den312d to twice it on
        // Berlin_0_256 (BENCHMARKS.md, "session 18"). It measures distances within the eroded region itself, so its
        // bounds are those of the region's own metric: admissible, and tighter than the
        // original mesh's (whose distances are never longer). The pieces themselves,
        // searched only when a joined path cannot be walked across the original mesh,
        // get none.
        if joined.is_some() {
            let _ = mesh.data().landmarks.set(None);
        }
        Ok(ErodedMesh {
            mesh,
            of_original,
            arcs: ArcCentres::new(centres, radius, self.up),
            joined,
        })
    }
}

/// The bytes of a one-tile mesh's main tables (vertices, corner slots, polygons and the
/// spatial index), counted from their element counts.
fn approximate_bytes(mesh: &MeshData) -> usize {
    let (vertices, slots, polygons) = (
        mesh.vertex_count() as usize,
        mesh.corners.total_len(),
        mesh.polygon_count() as usize,
    );
    // Per vertex: position, ground point, wall flag; per slot: corner, neighbour,
    // portal, twin; per polygon: start, island, dead end, area, flags, index entry.
    vertices * 21 + slots * 20 + polygons * 46
}
