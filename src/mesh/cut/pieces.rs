//! The pieces that fall in one tile, built into that tile's mesh: merged, straight wall
//! corners dropped.

use std::collections::HashMap;

use glam::Vec3;

use super::super::build::{self, Extras, MeshOptions, PolygonSizes};
use super::super::coarse::merge;
use super::super::links::OffMeshLink;
use super::super::{MeshData, MeshInput, NavMesh};
use super::points::{Key, Point};
use super::{NEAR_STEPS, STRAIGHT_HEIGHT_TOLERANCE};
use crate::error::MeshError;
use crate::geometry::UpAxis;

/// The pieces that fall in one tile, as mesh input.
#[derive(Default)]
pub(super) struct Pieces {
    index_of: HashMap<Key, u32>,
    vertices: Vec<Vec3>,
    indices: Vec<u32>,
    pub(super) sizes: Vec<u32>,
    areas: Vec<u8>,
    flags: Vec<u32>,
    pub(super) links: Vec<OffMeshLink>,
    connectors: bool,
}

impl Pieces {
    /// The tile's vertex for `key` (at `position` when new).
    fn vertex(&mut self, key: Key, position: impl FnOnce() -> Vec3) -> u32 {
        *self.index_of.entry(key).or_insert_with(|| {
            self.vertices.push(position());
            self.vertices.len() as u32 - 1
        })
    }

    pub(super) fn add_piece(&mut self, mesh: &MeshData, polygon: u32, piece: &[Point]) {
        for point in piece {
            let index = self.vertex(point.key, || match point.key {
                Key::Vertex(v) => mesh.vertices[v as usize],
                _ => mesh.up.place(point.ground, point.height),
            });
            self.indices.push(index);
        }
        self.close_polygon(mesh, polygon, piece.len());
    }

    /// A degenerate connector, whole.
    pub(super) fn add_connector(&mut self, mesh: &MeshData, polygon: u32) {
        let corners = &mesh.corners[mesh.corner_range(polygon)];
        for &v in corners {
            let index = self.vertex(Key::Vertex(v), || mesh.vertices[v as usize]);
            self.indices.push(index);
        }
        self.connectors = true;
        self.close_polygon(mesh, polygon, corners.len());
    }

    /// Per piece: its plane (unit normal, offset) and how far from it a point may be to
    /// lie on it.
    fn planes(&self) -> Vec<(glam::DVec3, f64, f64)> {
        let mut start = 0;
        self.sizes
            .iter()
            .map(|&n| {
                let corners = &self.indices[start..start + n as usize];
                start += n as usize;
                let point =
                    |i: usize| self.vertices[corners[i % corners.len()] as usize].as_dvec3();
                // Newell's normal: right for any planar polygon, whatever its corners.
                let mut normal = glam::DVec3::ZERO;
                let mut centre = glam::DVec3::ZERO;
                let mut extent = 0.0f64;
                for i in 0..corners.len() {
                    normal += point(i).cross(point(i + 1));
                    centre += point(i);
                    extent = extent.max(point(i).abs().max_element());
                }
                let normal = normal.normalize_or_zero();
                let centre = centre / corners.len() as f64;
                let tolerance = NEAR_STEPS * f64::from(f32::EPSILON) * extent.max(1.0);
                (normal, normal.dot(centre), tolerance)
            })
            .collect()
    }

    fn close_polygon(&mut self, mesh: &MeshData, polygon: u32, size: usize) {
        self.sizes.push(size as u32);
        self.areas.push(mesh.areas[polygon as usize]);
        self.flags.push(mesh.flags_of(polygon));
    }

    /// The tile: the pieces merged, straight wall corners dropped, unused vertices
    /// left out.
    pub(super) fn build(self, up: UpAxis) -> Result<NavMesh, MeshError> {
        let options = MeshOptions::default()
            .with_up_axis(up)
            .with_weld_vertices(false)
            .with_allow_degenerate_connectors(self.connectors);
        let pieces = build::build(
            &self.vertices,
            &self.indices,
            PolygonSizes::Listed(&self.sizes),
            &options,
            &Extras::default(),
        )?;
        let planes = self.planes();
        let starts: Vec<usize> = self
            .sizes
            .iter()
            .scan(0, |at, &n| {
                let start = *at;
                *at += n as usize;
                Some(start)
            })
            .collect();
        let on_plane = |plane: (glam::DVec3, f64, f64), q: usize| {
            let (normal, offset, tolerance) = plane;
            self.indices[starts[q]..starts[q] + self.sizes[q] as usize]
                .iter()
                .all(|&v| {
                    (normal.dot(self.vertices[v as usize].as_dvec3()) - offset).abs() <= tolerance
                })
        };
        // Pieces of one area and flags, on one plane: the merged polygon's surface is
        // theirs.
        let same_kind = |p: u32, q: u32| {
            let (p, q) = (p as usize, q as usize);
            self.areas[p] == self.areas[q]
                && self.flags[p] == self.flags[q]
                && on_plane(planes[p], q)
                && on_plane(planes[q], p)
        };
        let (indices, sizes, of_piece) = merge(&pieces, same_kind);
        let mut areas = vec![0; sizes.len()];
        let mut flags = vec![0; sizes.len()];
        for (piece, &merged) in of_piece.iter().enumerate() {
            areas[merged as usize] = self.areas[piece];
            flags[merged as usize] = self.flags[piece];
        }
        let mut cycles = Vec::with_capacity(sizes.len());
        let mut start = 0;
        for &size in &sizes {
            cycles.push(indices[start..start + size as usize].to_vec());
            start += size as usize;
        }
        drop_straight_wall_corners(&pieces, &mut cycles);
        // Only the vertices still used, in order of first use.
        let mut new_index = vec![u32::MAX; self.vertices.len()];
        let mut vertices = Vec::new();
        let mut indices = Vec::with_capacity(indices.len());
        for &v in cycles.iter().flatten() {
            if new_index[v as usize] == u32::MAX {
                new_index[v as usize] = vertices.len() as u32;
                vertices.push(self.vertices[v as usize]);
            }
            indices.push(new_index[v as usize]);
        }
        let sizes: Vec<u32> = cycles.iter().map(|c| c.len() as u32).collect();
        let input = MeshInput::new(&vertices, &indices)
            .with_polygon_sizes(&sizes)
            .with_areas(&areas)
            .with_flags(&flags)
            .with_links(&self.links);
        NavMesh::from_input(&input, &options)
    }
}

/// Drops from `cycles` (polygons over `mesh`'s vertices, counter-clockwise) the corners
/// that only one polygon uses (both their edges are walls) and where the wall runs
/// straight on in the ground plane, its height too: after merging, the tile border's
/// corners that only joined two merged pieces. Every polygon keeps at least 3 corners.
fn drop_straight_wall_corners(mesh: &MeshData, cycles: &mut [Vec<u32>]) {
    let vertex_count = cycles.iter().flatten().max().map_or(0, |&v| v as usize + 1);
    let mut uses = vec![0u32; vertex_count];
    for &v in cycles.iter().flatten() {
        uses[v as usize] += 1;
    }
    let straight = |a: u32, v: u32, b: u32| {
        let ground = |v: u32| mesh.ground[v as usize].as_dvec2();
        let height = |v: u32| f64::from(mesh.up.height(mesh.vertices[v as usize]));
        let (ga, gv, gb) = (ground(a), ground(v), ground(b));
        let (d1, d2) = (gv - ga, gb - gv);
        if d1.perp_dot(d2) != 0.0 || d1.dot(d2) <= 0.0 {
            return false;
        }
        let length = ga.distance(gb);
        let t = d1.length() / length;
        let expected = height(a) + (height(b) - height(a)) * t;
        (height(v) - expected).abs() <= STRAIGHT_HEIGHT_TOLERANCE * length
    };
    for cycle in cycles.iter_mut() {
        let mut i = 0;
        while cycle.len() > 3 && i < cycle.len() {
            let n = cycle.len();
            let (a, v, b) = (cycle[(i + n - 1) % n], cycle[i], cycle[(i + 1) % n]);
            if uses[v as usize] == 1 && straight(a, v, b) {
                cycle.remove(i);
                // The corner before may be straight now.
                i = i.saturating_sub(1);
            } else {
                i += 1;
            }
        }
    }
}
