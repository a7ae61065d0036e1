//! The eroded layers through the shared partition (`mesh/partition.rs`): each layer's
//! region triangulated together with its original polygons' edges, keeping the pieces
//! inside the region (each tagged with the original polygon holding it), and, once
//! `stitch.rs` has joined the layers' pieces, the merged polygons built into a mesh with
//! the original areas and default flags.

use crate::error::QueryError;
use crate::mesh::partition::{self, Keep, PartitionError, Pieces, Region};
use crate::mesh::{MeshData, MeshInput, MeshOptions, NavMesh};

/// The message of a region the triangulation could not handle.
const FAILED: &str = "agent_radius: the eroded region could not be triangulated";

/// The error of a query whose eroded mesh could not be made.
fn refused(error: PartitionError) -> QueryError {
    QueryError::ClearanceUnavailable(match error {
        PartitionError::Failed => FAILED,
        PartitionError::Overlap => {
            "agent_radius: polygons of one layer overlap in the ground plane; the mesh's \
             levels could not be told apart"
        }
    })
}

/// The pieces of one layer's eroded `region`: its triangles inside the region, each with
/// the original polygon holding it.
pub(super) fn triangulate(region: &Region) -> Result<Pieces, QueryError> {
    partition::triangulate(region, Keep::Inside).map_err(refused)
}

/// The eroded mesh of `pieces` (all layers, joined): merged polygons with the areas of
/// their original polygons and default flags, and the original polygon of each of its
/// polygons.
pub(super) fn build_mesh(
    original: &MeshData,
    pieces: &Pieces,
) -> Result<(NavMesh, Vec<u32>), QueryError> {
    let merged = partition::merge(original, pieces).map_err(refused)?;
    if merged.sizes.is_empty() {
        return Err(QueryError::ClearanceUnavailable(FAILED));
    }
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
