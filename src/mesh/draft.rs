//! A tile's polygons between the carve and the builder ([`Draft`]): the polygons no
//! obstacle touches, the pieces of those it cuts, and (when a world carves a tile again)
//! the pieces a change keeps, each with the polygon of the mesh as added it comes from,
//! so that the caller chooses their order before the mesh is built.

use std::collections::HashMap;

use glam::Vec3;

use super::carve::{Present, area, ground_corners};
use super::partition::Merged;
use super::{MeshData, MeshInput, MeshOptions, NavMesh, OffMeshLink};
use crate::error::MeshError;

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
    /// Every polygon of `mesh` (one tile) as it is.
    pub fn uncut(mesh: &MeshData) -> Draft {
        let cut = vec![false; mesh.polygon_count() as usize];
        Draft::of(mesh, &cut, &Merged::default())
    }

    /// The polygons of `mesh` that are not `cut`, and the `merged` pieces.
    pub(super) fn of(mesh: &MeshData, cut: &[bool], merged: &Merged) -> Draft {
        let mut draft = Draft {
            vertices: mesh.vertices.as_single().to_vec(),
            starts: vec![0],
            indices: Vec::new(),
            of_original: Vec::new(),
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
        for p in 0..cut.len() as u32 {
            if cut[p as usize] {
                continue;
            }
            draft.degenerate |= area(&ground_corners(mesh, p)) <= 0.0;
            draft.push(&mesh.corners[mesh.corner_range(p)], mesh, p);
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
            draft.push(&corners, mesh, owner);
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
            self.push(&corners, mesh, owner);
        }
    }

    /// Adds a polygon of `corners` that comes from polygon `owner` of `mesh`.
    fn push(&mut self, corners: &[u32], mesh: &MeshData, owner: u32) {
        self.indices.extend_from_slice(corners);
        self.starts.push(self.indices.len());
        self.of_original.push(owner);
        self.areas.push(mesh.areas[owner as usize]);
        self.flags.push(mesh.flags_of(owner));
    }

    /// The number of polygons.
    pub fn len(&self) -> usize {
        self.of_original.len()
    }

    /// The corner positions of polygon `p`.
    pub fn corners(&self, p: usize) -> impl Iterator<Item = Vec3> + '_ {
        self.indices[self.starts[p]..self.starts[p + 1]]
            .iter()
            .map(|&v| self.vertices[v as usize])
    }

    /// The mesh of the polygons in `order` (polygon `i` of the mesh is polygon
    /// `order[i]` of the draft; each once), and per polygon of it, the polygon of the
    /// original mesh it comes from.
    ///
    /// # Errors
    /// [`MeshError::CarveFailed`] when there are no polygons or the builder refuses them.
    pub fn build(&self, order: &[u32]) -> Result<(NavMesh, Vec<u32>), MeshError> {
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
        let options = self
            .options
            .clone()
            .with_allow_degenerate_connectors(self.degenerate);
        let mut links = self.links.clone();
        loop {
            let built = NavMesh::from_input(
                &MeshInput::new(&self.vertices, &indices)
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
}
