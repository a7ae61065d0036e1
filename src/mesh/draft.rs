//! A tile's polygons between the carve and the builder ([`Draft`]): the polygons no
//! obstacle touches, the pieces of those it cuts, and (when a world carves a tile again)
//! the pieces a change keeps, each with the polygon of the mesh as added it comes from,
//! so that the caller chooses their order before the mesh is built.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use glam::Vec3;

use super::build::{Extras, NO_SOURCE, PolygonSizes, Previous, build, rebuild};
#[cfg(debug_assertions)]
use super::build::{first_difference, index_problem};
use super::coarse_patch;
use super::obstacle::Obstacle;
use super::partition::Merged;
use super::{MeshData, MeshOptions, NavMesh, OffMeshLink};
use crate::error::MeshError;

/// The tile as it is before a change of its obstacles: the change keeps its pieces where
/// it does not cut again.
pub(crate) struct Present<'a> {
    /// The tile's mesh now (one tile).
    pub mesh: &'a MeshData,
    /// Per polygon of `mesh`: the polygon of the mesh as added it comes from.
    pub of_original: &'a [u32],
    /// The obstacles the change adds or takes away (a move: both footprints).
    pub changed: &'a [&'a Obstacle],
}

/// Twice the signed ground area of polygon `p` (no allocation).
fn polygon_area(mesh: &MeshData, p: u32) -> f64 {
    let corners = &mesh.corners[mesh.corner_range(p)];
    let point = |i: usize| mesh.ground[corners[i] as usize].as_dvec2();
    let n = corners.len();
    (0..n)
        .map(|i| point(i).perp_dot(point(if i + 1 == n { 0 } else { i + 1 })))
        .sum()
}

/// A tile's polygons before they are built into a mesh: the untouched polygons as they
/// were (in their order), then the pieces, each with the polygon of the original mesh
/// it comes from, so that a caller may choose their order ([`Draft::build`]).
pub(crate) struct Draft {
    vertices: Vec<Vec3>,
    /// Per polygon: the start of its corners in `indices` (one more entry at the end).
    starts: Vec<usize>,
    indices: Vec<u32>,
    /// Per polygon: the polygon of the original mesh it comes from.
    pub of_original: Vec<u32>,
    /// Per polygon: the polygon of the present tile with the very same corners (vertex
    /// ids, the same positions), or [`NO_SOURCE`]; all [`NO_SOURCE`] when the draft
    /// was not made against the present tile.
    source: Vec<u32>,
    /// Whether the vertices start with the present tile's, all at their numbers (so
    /// that its polygons are the draft's, vertex for vertex); else the original mesh's.
    on_present: bool,
    areas: Vec<u8>,
    flags: Vec<u32>,
    /// Whether a polygon is a degenerate connector.
    degenerate: bool,
    /// The original mesh's links, each end where it was attached (radius 1e-3, for the
    /// heights of the pieces: an end the cut took away does not attach elsewhere, and
    /// the link is left out).
    links: Vec<OffMeshLink>,
    options: MeshOptions,
}

impl Draft {
    /// Every polygon of `mesh` (one tile) as it is (the numbering's tests).
    #[cfg(test)]
    pub fn uncut(mesh: &MeshData) -> Draft {
        let cut = vec![false; mesh.polygon_count() as usize];
        Draft::of(mesh, &cut, &Merged::default(), None)
    }

    /// Every polygon of `mesh` (one tile) as it is, on its own vertices, noting which
    /// are polygons of `present` as they are (for the numbering).
    pub fn uncut_against(mesh: &MeshData, present: &Present<'_>) -> Draft {
        let cut = vec![false; mesh.polygon_count() as usize];
        let mut draft = Draft::of(mesh, &cut, &Merged::default(), Some(present));
        // The mesh as added uses none of the present tile's own vertices.
        draft.vertices.truncate(mesh.vertices.as_single().len());
        draft.on_present = false;
        draft
    }

    /// The polygons of `mesh` that are not `cut`, and the `merged` pieces. With
    /// `present` (whose vertices start with those of `mesh`, as every carved tile's
    /// do), the draft takes the present tile's vertices, so that its polygons keep
    /// their vertex numbers, and notes which of its polygons are the present tile's.
    pub(super) fn of(
        mesh: &MeshData,
        cut: &[bool],
        merged: &Merged,
        present: Option<&Present<'_>>,
    ) -> Draft {
        let own = mesh.vertices.as_single();
        let present = present.filter(|p| {
            let theirs = p.mesh.vertices.as_single();
            theirs.len() >= own.len() && theirs[..own.len()] == *own
        });
        let mut draft = Draft {
            vertices: present
                .map_or(own, |p| p.mesh.vertices.as_single())
                .to_vec(),
            starts: vec![0],
            indices: Vec::new(),
            of_original: Vec::new(),
            source: Vec::new(),
            on_present: present.is_some(),
            areas: Vec::new(),
            flags: Vec::new(),
            degenerate: false,
            links: mesh
                .links
                .attached(0..mesh.polygon_count())
                .into_iter()
                .map(|a| a.link.with_radius(1e-3))
                .collect(),
            options: MeshOptions::default()
                .with_up_axis(mesh.up)
                .with_weld_vertices(false)
                .with_agent_radius(mesh.clearance.baked_radius),
        };
        // At most every polygon kept and every piece: the tables are allocated once (a
        // tile of some thousands of polygons otherwise grows each a dozen times).
        let polygons = cut.len() + merged.sizes.len();
        draft.starts.reserve(polygons);
        draft.of_original.reserve(polygons);
        draft.source.reserve(polygons);
        draft.areas.reserve(polygons);
        draft.flags.reserve(polygons);
        draft
            .indices
            .reserve(mesh.corners.as_single().len() + merged.indices.len());
        // Per original polygon: the one present polygon it is, if it is there whole.
        let whole = present.map(|p| sole_pieces(p, mesh.polygon_count() as usize));
        let source_of = |p: u32| match (&whole, present) {
            (Some(whole), Some(present)) => {
                let q = whole[p as usize];
                let now = present.mesh;
                if q != NO_SOURCE
                    && now.corners[now.corner_range(q)] == mesh.corners[mesh.corner_range(p)]
                {
                    q
                } else {
                    NO_SOURCE
                }
            }
            _ => NO_SOURCE,
        };
        // The polygons not cut, run by run of consecutive ones.
        let mut p = 0;
        while p < cut.len() {
            if cut[p] {
                p += 1;
                continue;
            }
            let end = cut[p..]
                .iter()
                .position(|&c| c)
                .map_or(cut.len(), |n| p + n);
            let run = p as u32..end as u32;
            if !draft.degenerate {
                draft.degenerate = run.clone().any(|q| polygon_area(mesh, q) <= 0.0);
            }
            draft.push_run(mesh, run, source_of);
            p = end;
        }
        // A piece's corner at a corner of its original polygon is that vertex; the others
        // are new, one per merged vertex.
        let mut new_vertex: HashMap<u32, u32> = HashMap::new();
        let mut start = 0;
        for (piece, &size) in merged.sizes.iter().enumerate() {
            let owner = merged.of_original[piece];
            let own = &mesh.corners[mesh.corner_range(owner)];
            let mut corners = Vec::with_capacity(size as usize);
            for &v in &merged.indices[start..start + size as usize] {
                let position = merged.vertices[v as usize];
                let ground = mesh.up.ground(position);
                let original = own
                    .iter()
                    .copied()
                    .find(|&c| mesh.ground[c as usize] == ground);
                corners.push(match original {
                    Some(c) => c,
                    None => *new_vertex.entry(v).or_insert_with(|| {
                        draft.vertices.push(position);
                        draft.vertices.len() as u32 - 1
                    }),
                });
            }
            start += size as usize;
            draft.push(&corners, mesh, owner, NO_SOURCE);
        }
        draft
    }

    /// Adds the pieces `present` has of the polygons of `mesh` (the mesh as added) that
    /// are `kept`, vertex for vertex: a corner at a corner of its original polygon is that
    /// vertex, the others are new, one per position.
    pub(super) fn keep(&mut self, mesh: &MeshData, present: &Present<'_>, kept: &[bool]) {
        let now = present.mesh;
        let mut new_vertex: HashMap<[u32; 3], u32> = HashMap::new();
        for (piece, &owner) in present.of_original.iter().enumerate() {
            if !kept.get(owner as usize).copied().unwrap_or(false) {
                continue;
            }
            if self.on_present {
                // The present tile's vertices: the piece as it is.
                let corners = &now.corners[now.corner_range(piece as u32)];
                self.push(corners, mesh, owner, piece as u32);
                continue;
            }
            let own = &mesh.corners[mesh.corner_range(owner)];
            let corners: Vec<u32> = now.corners[now.corner_range(piece as u32)]
                .iter()
                .map(|&v| {
                    let position = now.vertices[v as usize];
                    let ground = now.ground[v as usize];
                    match own
                        .iter()
                        .copied()
                        .find(|&c| mesh.ground[c as usize] == ground)
                    {
                        Some(c) => c,
                        None => *new_vertex
                            .entry(position.to_array().map(f32::to_bits))
                            .or_insert_with(|| {
                                self.vertices.push(position);
                                self.vertices.len() as u32 - 1
                            }),
                    }
                })
                .collect();
            self.push(&corners, mesh, owner, NO_SOURCE);
        }
    }

    /// Renumbers the vertices after the first `original` (those of the mesh as added)
    /// when most of them are no corner any more: a draft made on the present tile's
    /// vertices keeps those of pieces that went, and a tile carved again and again
    /// would grow without end. The draft is then built from scratch (its polygons no
    /// longer have the present tile's vertex numbers).
    pub(super) fn drop_unused_vertices(&mut self, original: usize) {
        let extra = self.vertices.len().saturating_sub(original);
        let mut used = vec![false; extra];
        for &v in &self.indices {
            if let Some(u) = (v as usize).checked_sub(original) {
                used[u] = true;
            }
        }
        let in_use = used.iter().filter(|&&u| u).count();
        if extra <= 2 * in_use + 1024 {
            return;
        }
        let mut renumber = vec![u32::MAX; extra];
        let mut kept = original;
        for (u, &in_use) in used.iter().enumerate() {
            if in_use {
                renumber[u] = kept as u32;
                self.vertices[kept] = self.vertices[original + u];
                kept += 1;
            }
        }
        self.vertices.truncate(kept);
        for v in &mut self.indices {
            if let Some(u) = (*v as usize).checked_sub(original) {
                *v = renumber[u];
            }
        }
        self.on_present = false;
        self.source.fill(NO_SOURCE);
    }

    /// Adds a polygon of `corners` that comes from polygon `owner` of `mesh`.
    /// `source`: the present polygon with the same corners, or [`NO_SOURCE`].
    fn push(&mut self, corners: &[u32], mesh: &MeshData, owner: u32, source: u32) {
        self.indices.extend_from_slice(corners);
        self.starts.push(self.indices.len());
        self.of_original.push(owner);
        self.source.push(source);
        self.areas.push(mesh.areas[owner as usize]);
        self.flags.push(mesh.flags_of(owner));
    }

    /// Adds the polygons `run` of `mesh` as they are (each its own original), with
    /// `source` giving the present polygon each one is, or [`NO_SOURCE`]: what
    /// [`Draft::push`] does for each, with the tables copied run-wise.
    fn push_run(&mut self, mesh: &MeshData, run: Range<u32>, source: impl Fn(u32) -> u32) {
        let (first, last) = (run.start as usize, run.end as usize);
        let starts = &mesh.poly_start.as_single()[first..=last];
        let from = starts[0] as usize;
        let base = self.indices.len();
        self.indices
            .extend_from_slice(&mesh.corners.as_single()[from..starts[last - first] as usize]);
        self.starts
            .extend(starts[1..].iter().map(|&s| base + s as usize - from));
        self.of_original.extend(run.clone());
        self.source.extend(run.clone().map(source));
        self.areas
            .extend_from_slice(&mesh.areas.as_single()[first..last]);
        self.flags.extend(run.map(|p| mesh.flags_of(p)));
    }

    /// The number of polygons.
    pub fn len(&self) -> usize {
        self.of_original.len()
    }

    /// The polygon of the present tile that polygon `p` is, vertex for vertex, if the
    /// draft took it from there as it is (see [`Draft::of`], [`Draft::uncut_against`]).
    pub fn present_polygon(&self, p: usize) -> Option<u32> {
        Some(self.source[p]).filter(|&q| q != NO_SOURCE)
    }

    /// The corner positions of polygon `p`.
    pub fn corners(&self, p: usize) -> impl Iterator<Item = Vec3> + '_ {
        self.indices[self.starts[p]..self.starts[p + 1]]
            .iter()
            .map(|&v| self.vertices[v as usize])
    }

    /// The mesh of the polygons in `order` (polygon `i` of the mesh is polygon
    /// `order[i]` of the draft; each once), and per polygon of it, the polygon of the
    /// original mesh it comes from. `present`: the tile the mesh replaces, whose
    /// tables the build reuses where its polygons are kept (the draft must have been
    /// made against it, see [`Draft::of`]); the mesh is the same either way.
    ///
    /// # Errors
    /// [`MeshError::CarveFailed`] when there are no polygons or the builder refuses them.
    pub fn build(
        &self,
        order: &[u32],
        present: Option<&MeshData>,
    ) -> Result<(NavMesh, Vec<u32>), MeshError> {
        if order.is_empty() {
            return Err(MeshError::CarveFailed("the obstacles cover the whole mesh"));
        }
        let mut indices = Vec::with_capacity(self.indices.len());
        let mut sizes = Vec::with_capacity(order.len());
        for &p in order {
            let corners = &self.indices[self.starts[p as usize]..self.starts[p as usize + 1]];
            indices.extend_from_slice(corners);
            sizes.push(corners.len() as u32);
        }
        let pick = |table: &[u8]| order.iter().map(|&p| table[p as usize]).collect::<Vec<_>>();
        let areas = pick(&self.areas);
        let flags: Vec<u32> = order.iter().map(|&p| self.flags[p as usize]).collect();
        let of_original = order
            .iter()
            .map(|&p| self.of_original[p as usize])
            .collect();
        let source: Vec<u32> = match present {
            Some(_) if self.on_present => order.iter().map(|&p| self.source[p as usize]).collect(),
            _ => vec![NO_SOURCE; order.len()],
        };
        let options = self
            .options
            .clone()
            .with_allow_degenerate_connectors(self.degenerate);
        let mut links = self.links.clone();
        loop {
            let extras = Extras {
                areas: Some(&areas),
                flags: Some(&flags),
                links: &links,
            };
            let built = match present {
                Some(mesh) if self.on_present => rebuild(
                    &Previous {
                        mesh,
                        source: &source,
                    },
                    &self.vertices,
                    &indices,
                    &sizes,
                    &options,
                    &extras,
                ),
                _ => build(
                    &self.vertices,
                    &indices,
                    PolygonSizes::Listed(&sizes),
                    &options,
                    &extras,
                )
                .map(|mesh| (mesh, Vec::new())),
            };
            match built {
                Ok((carved, kept)) => {
                    #[cfg(debug_assertions)]
                    if present.is_some() && self.on_present {
                        let full = build(
                            &self.vertices,
                            &indices,
                            PolygonSizes::Listed(&sizes),
                            &options,
                            &extras,
                        )
                        .expect("the full builder accepts what the incremental one built");
                        assert_eq!(
                            first_difference(&carved, &full),
                            None,
                            "the incremental build differs from the full builder"
                        );
                        assert_eq!(index_problem(&carved), None, "the patched polygon index");
                    }
                    if let Some(previous) = present.filter(|_| !kept.is_empty()) {
                        // The merged copy from the present tile's, where it keeps polygons.
                        if let Some(copy) = coarse_patch::patch(&carved, previous, &kept) {
                            #[cfg(debug_assertions)]
                            if let Some(copy) = &copy {
                                coarse_patch::check_copy(&carved, copy)
                                    .expect("the patched merged copy covers the polygons");
                                assert_eq!(
                                    index_problem(&copy.mesh),
                                    None,
                                    "the merged copy's index"
                                );
                            }
                            let _ = carved.coarse.set(copy);
                        }
                    }
                    return Ok((NavMesh::from_data(Arc::new(carved)), of_original));
                }
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
}

/// Per polygon of the mesh as added (`count` of them): the one polygon of the present
/// tile that comes from it, or [`NO_SOURCE`] when it has none or several (pieces).
fn sole_pieces(present: &Present<'_>, count: usize) -> Vec<u32> {
    const SEVERAL: u32 = NO_SOURCE - 1;
    let mut sole = vec![NO_SOURCE; count];
    for (p, &o) in (0u32..).zip(present.of_original) {
        if let Some(entry) = sole.get_mut(o as usize) {
            *entry = if *entry == NO_SOURCE { p } else { SEVERAL };
        }
    }
    for entry in &mut sole {
        if *entry == SEVERAL {
            *entry = NO_SOURCE;
        }
    }
    sole
}

#[cfg(test)]
mod tests {
    use glam::Vec3;

    use super::{Draft, Present};
    use crate::mesh::partition::Merged;
    use crate::mesh::{MeshInput, MeshOptions, NavMesh};

    /// A row of `n` unit squares (y up), square `i` with area `i % 3` and flags `1 << i`.
    fn row(n: u32) -> NavMesh {
        let v = |x: u32, z: u32| Vec3::new(x as f32, 0.0, z as f32);
        let vertices: Vec<Vec3> = (0..=n).flat_map(|x| [v(x, 0), v(x, 1)]).collect();
        let indices: Vec<u32> = (0..n)
            .flat_map(|x| [2 * x, 2 * x + 1, 2 * x + 3, 2 * x + 2])
            .collect();
        let sizes = vec![4; n as usize];
        let areas: Vec<u8> = (0..n).map(|i| (i % 3) as u8).collect();
        let flags: Vec<u32> = (0..n).map(|i| 1 << i).collect();
        let input = MeshInput::new(&vertices, &indices)
            .with_polygon_sizes(&sizes)
            .with_areas(&areas)
            .with_flags(&flags);
        NavMesh::from_input(&input, &MeshOptions::default()).unwrap()
    }

    /// The polygons no cut touches are taken as they are, in runs between the cut ones:
    /// each with its corners, area, flags and original, and (made against the tile
    /// itself) the present polygon it is.
    #[test]
    fn the_polygons_not_cut_are_taken_as_they_are() {
        let mesh = row(9);
        let data = mesh.data();
        let cut = [false, true, false, false, true, true, false, false, true];
        let identity: Vec<u32> = (0..9).collect();
        let present = Present {
            mesh: data,
            of_original: &identity,
            changed: &[],
        };
        for against in [None, Some(&present)] {
            let draft = Draft::of(data, &cut, &Merged::default(), against);
            let kept: Vec<u32> = (0..9).filter(|&p| !cut[p as usize]).collect();
            assert_eq!(draft.of_original, kept);
            for (i, &p) in kept.iter().enumerate() {
                let corners: Vec<Vec3> = draft.corners(i).collect();
                let expected: Vec<Vec3> = data.corners[data.corner_range(p)]
                    .iter()
                    .map(|&v| data.vertices[v as usize])
                    .collect();
                assert_eq!(corners, expected, "polygon {p}");
                assert_eq!(draft.areas[i], mesh.polygon_area(p));
                assert_eq!(draft.flags[i], mesh.polygon_flags(p));
                assert_eq!(draft.present_polygon(i), against.map(|_| p));
            }
            let order: Vec<u32> = (0..kept.len() as u32).collect();
            let (built, of_original) = draft.build(&order, None).unwrap();
            assert_eq!(of_original, kept);
            assert_eq!(built.polygon_count(), 5);
            assert!(!draft.degenerate);
        }
    }
}
