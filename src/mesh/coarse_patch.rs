//! The merged copy of a mesh (`coarse.rs`) made from the copy of the mesh it replaces,
//! when most of its polygons are polygons of that mesh (a tile carved again by an
//! obstacle): a merged polygon of the old copy all of whose polygons are kept stays as
//! it is; the other polygons (the new ones, and the kept ones whose merged polygon lost
//! a member) are merged again among themselves with the same greedy merge, and the copy
//! is built with the incremental builder on the old copy's tables.
//!
//! The copy is not the one [`super::coarse::build_coarse`] would make of the new mesh
//! (the greedy merge depends on what was merged before) but has its properties: every
//! merged polygon is convex, at most [`super::coarse::MAX_CORNERS`] corners, exactly the
//! union of the polygons mapped to it, and built by the builder's checks. The exact
//! mode's answers do not depend on how the walkable region is cut.

use std::sync::Arc;

use super::build::{Extras, MeshOptions, NO_SOURCE, Previous, rebuild};
use super::coarse::{CoarseMesh, merge_some};
use super::{MeshData, Tiled};

/// The merged copy of `new` made from that of `old` (see the module comment), where
/// `source` gives per polygon of `new` the polygon of `old` with the very same corners
/// (or [`NO_SOURCE`]) and `new`'s vertices start with all of `old`'s. `None` when `old`
/// has no merged copy made yet, or none at all: `new` then makes its own on first use.
/// `Some(None)`: merging leaves `new` as it is (no copy, as the full merge decides).
pub(crate) fn patch(
    new: &MeshData,
    old: &MeshData,
    source: &[u32],
) -> Option<Option<Box<CoarseMesh>>> {
    let old_copy = old.coarse.get()?.as_deref()?;
    if new.tiles.len() != 1 || old.tiles.len() != 1 || source.len() != new.polygon_count() as usize
    {
        return None;
    }
    let old_of = old_copy.of_original.as_single();
    let merged_count = old_copy.mesh.polygon_count() as usize;
    // Per old merged polygon: how many of its polygons are not kept.
    let mut lost = vec![0u32; merged_count];
    let mut kept = vec![false; old.polygon_count() as usize];
    for &q in source {
        if q != NO_SOURCE {
            *kept.get_mut(q as usize)? = true;
        }
    }
    for (q, &m) in old_of.iter().enumerate() {
        if !kept[q] {
            lost[m as usize] += 1;
        }
    }
    let clean = |q: u32| q != NO_SOURCE && lost[old_of[q as usize] as usize] == 0;
    let members: Vec<u32> = (0..new.polygon_count())
        .filter(|&p| !clean(source[p as usize]))
        .collect();
    let (fresh, fresh_sizes, of_member) = merge_some(new, &members, |_, _| true);

    // The kept merged polygons first, in their order, then the fresh ones.
    let (old_starts, old_corners) = (
        old_copy.mesh.poly_start.as_single(),
        old_copy.mesh.corners.as_single(),
    );
    let mut renumber = vec![u32::MAX; merged_count];
    let (mut indices, mut sizes, mut merged_source) = (Vec::new(), Vec::new(), Vec::new());
    for (m, &gone) in lost.iter().enumerate() {
        if gone == 0 {
            renumber[m] = sizes.len() as u32;
            let range = old_starts[m] as usize..old_starts[m + 1] as usize;
            indices.extend_from_slice(&old_corners[range.clone()]);
            sizes.push(range.len() as u32);
            merged_source.push(m as u32);
        }
    }
    let first_fresh = sizes.len() as u32;
    indices.extend_from_slice(&fresh);
    sizes.extend_from_slice(&fresh_sizes);
    merged_source.resize(sizes.len(), NO_SOURCE);
    if sizes.len() == new.polygon_count() as usize {
        return Some(None);
    }
    let mut of_original = vec![0u32; new.polygon_count() as usize];
    for (p, entry) in (0u32..).zip(of_original.iter_mut()) {
        let q = source[p as usize];
        if clean(q) {
            *entry = renumber[old_of[q as usize] as usize];
        }
    }
    for (&p, &m) in members.iter().zip(&of_member) {
        of_original[p as usize] = first_fresh + m;
    }
    let mut options = MeshOptions::default().with_up_axis(new.up);
    options.weld_vertices = false;
    options.allow_degenerate_connectors = true;
    let (mesh, _) = rebuild(
        &Previous {
            mesh: &old_copy.mesh,
            source: &merged_source,
        },
        new.vertices.as_single(),
        &indices,
        &sizes,
        &options,
        &Extras::default(),
    )
    .ok()?;
    Some(Some(Box::new(CoarseMesh {
        mesh: Arc::new(mesh),
        of_original: Tiled::single(of_original),
    })))
}

/// Checks that `copy` is a merged copy of `mesh`: fewer polygons, each of at most
/// [`super::coarse::MAX_CORNERS`] corners, each the union of the polygons mapped to it
/// (the same area, and every member's centre inside it, the merged polygons being
/// convex); the first failure, named. Run after every patch in debug builds.
#[cfg(any(test, debug_assertions))]
pub(crate) fn check_copy(mesh: &MeshData, copy: &CoarseMesh) -> Result<(), String> {
    use glam::DVec2;
    let merged = &copy.mesh;
    let of = copy.of_original.as_single();
    let count = merged.polygon_count() as usize;
    if count >= mesh.polygon_count() as usize || of.len() != mesh.polygon_count() as usize {
        return Err(format!(
            "{count} merged polygons for {}",
            mesh.polygon_count()
        ));
    }
    let ring = |m: &MeshData, p: u32| -> Vec<DVec2> {
        m.corners[m.corner_range(p)]
            .iter()
            .map(|&v| m.ground[v as usize].as_dvec2())
            .collect()
    };
    let area = |r: &[DVec2]| -> f64 {
        (0..r.len())
            .map(|i| r[i].perp_dot(r[(i + 1) % r.len()]))
            .sum::<f64>()
            / 2.0
    };
    let mut member_area = vec![0.0f64; count];
    for (p, &m) in (0u32..).zip(of) {
        let Some(total) = member_area.get_mut(m as usize) else {
            return Err(format!("polygon {p} maps to merged polygon {m} of {count}"));
        };
        let corners = ring(mesh, p);
        *total += area(&corners);
        let centre = corners.iter().copied().sum::<DVec2>() / corners.len() as f64;
        let outer = ring(merged, m);
        let scale = outer
            .iter()
            .map(|q| q.abs().max_element())
            .fold(1.0, f64::max);
        let inside = (0..outer.len()).all(|i| {
            let (a, b) = (outer[i], outer[(i + 1) % outer.len()]);
            (b - a).perp_dot(centre - a) >= -1e-9 * scale * scale
        });
        if !inside {
            return Err(format!("polygon {p} is not inside merged polygon {m}"));
        }
    }
    for m in 0..count as u32 {
        let corners = ring(merged, m);
        if corners.len() > super::coarse::MAX_CORNERS {
            return Err(format!("merged polygon {m} has {} corners", corners.len()));
        }
        let (a, b) = (area(&corners), member_area[m as usize]);
        if (a - b).abs() > 1e-9 * a.abs().max(1.0) {
            return Err(format!("merged polygon {m}: area {a}, its polygons {b}"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use glam::Vec3;

    use super::*;
    use crate::mesh::coarse::build_coarse;
    use crate::{MeshOptions, NavMesh};

    /// A 4 x 4 grid of unit cells, two triangles each (Y up).
    fn triangles() -> NavMesh {
        let vertices: Vec<Vec3> = (0..25)
            .map(|i| Vec3::new((i % 5) as f32, 0.0, (i / 5) as f32))
            .collect();
        let mut indices = Vec::new();
        for y in 0..4u32 {
            for x in 0..4u32 {
                let a = y * 5 + x;
                indices.extend([a, a + 5, a + 6, a, a + 6, a + 1]);
            }
        }
        NavMesh::from_triangles(&vertices, &indices, &MeshOptions::default()).unwrap()
    }

    #[test]
    fn a_copy_with_every_polygon_kept_is_the_present_copy() {
        let mesh = triangles();
        let data = mesh.data();
        let copy = data.coarse().expect("triangles merge");
        let source: Vec<u32> = (0..mesh.polygon_count()).collect();
        let patched = patch(data, data, &source).unwrap().unwrap();
        assert_eq!(check_copy(data, &patched), Ok(()));
        assert_eq!(
            patched.mesh.corners.as_single(),
            copy.mesh.corners.as_single()
        );
        assert_eq!(
            patched.of_original.as_single(),
            copy.of_original.as_single()
        );
    }

    #[test]
    fn a_copy_with_new_polygons_merges_them_again_and_covers_the_mesh() {
        let mesh = triangles();
        let data = mesh.data();
        data.coarse().expect("triangles merge");
        // Polygons 0 to 5 taken as new: their merged polygons are merged again.
        let source: Vec<u32> = (0..mesh.polygon_count())
            .map(|p| if p < 6 { NO_SOURCE } else { p })
            .collect();
        let patched = patch(data, data, &source).unwrap().unwrap();
        assert_eq!(check_copy(data, &patched), Ok(()));
        assert!(patched.mesh.polygon_count() < mesh.polygon_count());
        // No copy made yet: nothing to patch from.
        let fresh = triangles();
        assert!(patch(fresh.data(), fresh.data(), &source).is_none());
    }

    #[test]
    fn the_check_names_a_copy_that_does_not_cover_its_polygons() {
        let mesh = triangles();
        let data = mesh.data();
        let copy = build_coarse(data).unwrap();
        assert_eq!(check_copy(data, &copy), Ok(()));
        let mut wrong: Vec<u32> = copy.of_original.as_single().to_vec();
        let other = (wrong[0] + 1) % copy.mesh.polygon_count();
        wrong[0] = other;
        let broken = CoarseMesh {
            mesh: copy.mesh.clone(),
            of_original: Tiled::single(wrong),
        };
        assert!(check_copy(data, &broken).is_err());
    }
}
