//! Checking the saved merged copy of a mesh (see [`crate::mesh::coarse`]): a mesh of its
//! own, checked as strictly as the mesh itself, whose every polygon is exactly the union
//! of the polygons mapped to it. A file without a copy is accepted only when the
//! builder would have made none.

use std::sync::Arc;

use super::BinaryError;
use super::check::{CheckedPolygons, Located, Polygons, check_polygons, mesh_data};
use crate::alloc::{try_collect, try_filled};
use crate::filter::{DEFAULT_AREA, DEFAULT_FLAGS};
use crate::mesh::build::connectors::is_collinear_triangle;
use crate::mesh::coarse::{MAX_CORNERS, build_coarse, merges_nothing};
use crate::mesh::{CoarseMesh, Links, MeshData, NO_NEIGHBOUR};
use crate::sync::AtomicU32;

/// The merged copy of `mesh` from its decoded tables (`of_merged` empty and `tables`
/// `None` when the file holds none), checked.
pub(super) fn check_merged(
    mesh: &MeshData,
    of_merged: Located<u32>,
    tables: Option<Polygons>,
) -> Result<Option<Box<CoarseMesh>>, BinaryError> {
    let Some(tables) = tables else {
        // Cheap in the usual case (no two neighbours merge); else the builder decides.
        let nothing = merges_nothing(
            mesh.poly_start.as_single(),
            mesh.corners.as_single(),
            mesh.neighbours.as_single(),
            mesh.twin.as_single(),
            mesh.ground.as_single(),
        );
        if nothing || build_coarse(mesh).is_none() {
            return Ok(None);
        }
        return Err(BinaryError::Layout {
            section: of_merged.section.name,
            offset: of_merged.offset,
            reason: "the file holds no merged copy, but the mesh's polygons merge".into(),
        });
    };
    let polygon_count = mesh.polygon_count() as usize;
    of_merged.expect_len(polygon_count, "polygons")?;
    let starts = (tables.poly_start.section.name, tables.poly_start.offset);
    let merged = check_polygons(
        tables,
        mesh.vertices.as_single(),
        mesh.ground.as_single(),
        true,
    )?;
    let count = merged.poly_start.len() - 1;
    if count >= polygon_count {
        return Err(BinaryError::Layout {
            section: starts.0,
            offset: starts.1,
            reason: format!("{count} merged polygons for {polygon_count} polygons"),
        });
    }
    if let Some(p) = of_merged.items.iter().position(|&g| g as usize >= count) {
        return Err(of_merged.invalid(
            p,
            format!("merged polygon {} is out of range", of_merged.items[p]),
        ));
    }
    check_cover(mesh, &of_merged, &merged)?;
    let copy = mesh_data(
        mesh.up,
        // The copy shares the mesh's vertices.
        mesh.vertices.clone(),
        mesh.ground.clone(),
        merged,
        try_filled(count, DEFAULT_AREA, "areas")?.into(),
        try_collect(
            count,
            (0..count).map(|_| AtomicU32::new(DEFAULT_FLAGS)),
            "flags",
        )?,
        Links::default(),
    )?;
    Ok(Some(Box::new(CoarseMesh {
        mesh: Arc::new(copy),
        of_original: Arc::clone(&of_merged.items).into(),
    })))
}

/// Each merged polygon is the union of the polygons mapped to it: its edges are exactly
/// their edges that do not lead to another of them (so its boundary is theirs, and it
/// holds nothing else); a polygon alone keeps its corners (a degenerate connector may be
/// wound the other way); a merged polygon of several has at most [`MAX_CORNERS`].
fn check_cover(
    mesh: &MeshData,
    of_merged: &Located<u32>,
    merged: &CheckedPolygons,
) -> Result<(), BinaryError> {
    let count = merged.poly_start.len() - 1;
    let polygon_count = of_merged.items.len();
    // The polygons of each merged polygon: a counting sort.
    let mut group_start = try_filled(count + 2, 0u32, "merged groups")?;
    for &g in of_merged.items.iter() {
        group_start[g as usize + 2] += 1;
    }
    for g in 2..count + 2 {
        group_start[g] += group_start[g - 1];
    }
    let mut members = try_filled(polygon_count, 0u32, "merged groups")?;
    for (p, &g) in of_merged.items.iter().enumerate() {
        let fill = &mut group_start[g as usize + 1];
        members[*fill as usize] = p as u32;
        *fill += 1;
    }
    // Per vertex: the corner after it in the merged polygon being checked (or none).
    const NONE: u32 = u32::MAX;
    let mut after = try_filled(mesh.vertices.as_single().len(), NONE, "merged corners")?;
    for g in 0..count {
        let held = &members[group_start[g] as usize..group_start[g + 1] as usize];
        let corners =
            &merged.corners[merged.poly_start[g] as usize..merged.poly_start[g + 1] as usize];
        let first = held.first().map_or(0, |&p| p as usize);
        if let [p] = held {
            let own = &mesh.corners[mesh.corner_range(*p)];
            let flipped_connector =
                is_collinear_triangle(own, mesh.ground.as_single()) && own.iter().rev().eq(corners);
            if own != corners && !flipped_connector {
                return Err(of_merged.invalid(
                    first,
                    format!("merged polygon {g} holds only polygon {p} but has other corners"),
                ));
            }
            continue;
        }
        if corners.len() > MAX_CORNERS {
            return Err(of_merged.invalid(
                first,
                format!("merged polygon {g} has more than {MAX_CORNERS} corners"),
            ));
        }
        for (i, &v) in corners.iter().enumerate() {
            after[v as usize] = corners[(i + 1) % corners.len()];
        }
        let mut boundary = 0;
        for &p in held {
            for slot in mesh.corner_range(p) {
                let n = mesh.neighbours[slot];
                if n != NO_NEIGHBOUR && of_merged.items[n as usize] as usize == g {
                    continue;
                }
                let (a, b) = mesh.edge(p, slot);
                if after[a as usize] != b {
                    return Err(of_merged.invalid(
                        p as usize,
                        format!(
                            "edge ({a}, {b}) of polygon {p} is not an edge of merged polygon {g}"
                        ),
                    ));
                }
                // Each edge of the merged polygon borders one polygon.
                after[a as usize] = NONE;
                boundary += 1;
            }
        }
        if boundary != corners.len() {
            return Err(of_merged.invalid(
                first,
                format!("merged polygon {g} is not the union of its polygons"),
            ));
        }
        for &v in corners {
            after[v as usize] = NONE;
        }
    }
    Ok(())
}
