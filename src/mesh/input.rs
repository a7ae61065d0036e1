//! [`MeshInput`]: the arrays a mesh is built from, borrowed from the caller.

use glam::Vec3;

use super::OffMeshLink;

/// Everything a mesh is built from. `MeshInput::new(vertices, indices)` describes a
/// triangle mesh with default areas and flags and no links; set the other fields to
/// change that.
// Serialize only: the arrays are borrowed, so a deserializer has nowhere to put them.
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct MeshInput<'a> {
    /// World positions.
    pub vertices: &'a [Vec3],
    /// The corners of all polygons, polygon after polygon.
    pub indices: &'a [u32],
    /// The number of corners of each polygon (each at least 3), or `None` for triangles.
    pub polygon_sizes: Option<&'a [u32]>,
    /// The area id of each polygon (below [`crate::MAX_AREAS`]), or `None` for area 0
    /// everywhere.
    pub areas: Option<&'a [u8]>,
    /// The initial flags of each polygon, or `None` for [`crate::DEFAULT_FLAGS`]
    /// everywhere.
    pub flags: Option<&'a [u32]>,
    /// Off-mesh links.
    pub links: &'a [OffMeshLink],
}

impl<'a> MeshInput<'a> {
    /// A triangle mesh: three indices per triangle, default areas and flags, no links.
    #[must_use]
    pub fn new(vertices: &'a [Vec3], indices: &'a [u32]) -> MeshInput<'a> {
        MeshInput {
            vertices,
            indices,
            ..Default::default()
        }
    }

    /// Polygons of the given sizes instead of triangles.
    #[must_use]
    pub fn with_polygon_sizes(self, polygon_sizes: &'a [u32]) -> Self {
        MeshInput {
            polygon_sizes: Some(polygon_sizes),
            ..self
        }
    }

    /// An area id per polygon.
    #[must_use]
    pub fn with_areas(self, areas: &'a [u8]) -> Self {
        MeshInput {
            areas: Some(areas),
            ..self
        }
    }

    /// Initial flags per polygon.
    #[must_use]
    pub fn with_flags(self, flags: &'a [u32]) -> Self {
        MeshInput {
            flags: Some(flags),
            ..self
        }
    }

    /// Off-mesh links.
    #[must_use]
    pub fn with_links(self, links: &'a [OffMeshLink]) -> Self {
        MeshInput { links, ..self }
    }
}
