//! The eroded mesh from its region: the shared partition (`mesh/partition.rs`) keeps the
//! triangles inside the region and merges them within each original polygon; here they
//! become a mesh with the original areas and default flags.

use super::region;
use crate::error::QueryError;
use crate::mesh::partition::{self, Keep, PartitionError};
use crate::mesh::{MeshData, MeshInput, MeshOptions, NavMesh};

/// The message of a region the triangulation could not handle.
const FAILED: &str = "agent_radius: the eroded region could not be triangulated";

/// The error of a query whose eroded mesh could not be made.
fn refused(error: PartitionError) -> QueryError {
    QueryError::ClearanceUnavailable(match error {
        PartitionError::Failed => FAILED,
        PartitionError::Overlap => {
            "agent_radius: polygons overlap in the ground plane (a mesh of several \
             levels); a radius is supported on single-level meshes only"
        }
    })
}

/// The mesh of the polygons of `original` that `admitted` accepts, eroded by `radius`,
/// and the original polygon of each of its polygons.
pub(super) fn eroded_mesh(
    original: &MeshData,
    radius: f64,
    admitted: impl Fn(u32) -> bool,
) -> Result<(NavMesh, Vec<u32>), QueryError> {
    let region = region::erode(original, radius, admitted);
    let pieces = partition::triangulate(&region, Keep::Inside).map_err(refused)?;
    if pieces.triangles.is_empty() {
        return Err(QueryError::ClearanceUnavailable(
            "agent_radius: no point of the mesh keeps that distance from its walls",
        ));
    }
    let merged = partition::merge(original, &pieces).map_err(refused)?;
    let areas: Vec<u8> = merged
        .of_original
        .iter()
        .map(|&p| original.areas[p as usize])
        .collect();
    let options = MeshOptions::default()
        .with_up_axis(original.up)
        .with_weld_vertices(false);
    let mesh = NavMesh::from_input(
        &MeshInput::new(&merged.vertices, &merged.indices)
            .with_polygon_sizes(&merged.sizes)
            .with_areas(&areas),
        &options,
    )
    .map_err(|_| QueryError::ClearanceUnavailable(FAILED))?;
    Ok((mesh, merged.of_original))
}
