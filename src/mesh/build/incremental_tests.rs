//! The incremental builder against the full one: random grids of triangles in which a
//! random block of cells is cut again (fans round a new vertex in each cell, or the
//! cells whole), the polygons shuffled, must build to the very same mesh; refused
//! inputs must give the full builder's error.

use glam::Vec3;
use proptest::prelude::*;

use super::incremental::{NO_SOURCE, Previous, first_difference, index_problem, rebuild};
use super::{Extras, MeshOptions, PolygonSizes, build};
use crate::error::MeshError;
use crate::mesh::MeshData;

/// A `w` x `h` grid of unit cells, each two triangles (the diagonal chosen by `flip`),
/// Z up; a cell missing when `hole` says so.
fn grid(w: u32, h: u32, flip: &[bool], hole: &[bool]) -> (Vec<Vec3>, Vec<Vec<u32>>) {
    let vertices: Vec<Vec3> = (0..=h)
        .flat_map(|y| (0..=w).map(move |x| Vec3::new(x as f32, y as f32, 0.0)))
        .collect();
    let at = |x: u32, y: u32| y * (w + 1) + x;
    let mut polygons = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let c = (y * w + x) as usize;
            if hole[c % hole.len()] {
                continue;
            }
            let (a, b, cc, d) = (at(x, y), at(x + 1, y), at(x + 1, y + 1), at(x, y + 1));
            if flip[c % flip.len()] {
                polygons.push(vec![a, b, cc]);
                polygons.push(vec![a, cc, d]);
            } else {
                polygons.push(vec![a, b, d]);
                polygons.push(vec![b, cc, d]);
            }
        }
    }
    (vertices, polygons)
}

fn options() -> MeshOptions {
    MeshOptions::default()
        .with_up_axis(crate::UpAxis::Z)
        .with_weld_vertices(false)
}

fn full(vertices: &[Vec3], polygons: &[Vec<u32>]) -> Result<MeshData, MeshError> {
    let indices: Vec<u32> = polygons.concat();
    let sizes: Vec<u32> = polygons.iter().map(|p| p.len() as u32).collect();
    build(
        vertices,
        &indices,
        PolygonSizes::Listed(&sizes),
        &options(),
        &Extras::default(),
    )
}

fn again(
    old: &MeshData,
    source: &[u32],
    vertices: &[Vec3],
    polygons: &[Vec<u32>],
) -> Result<(MeshData, Vec<u32>), MeshError> {
    let indices: Vec<u32> = polygons.concat();
    let sizes: Vec<u32> = polygons.iter().map(|p| p.len() as u32).collect();
    rebuild(
        &Previous { mesh: old, source },
        vertices,
        &indices,
        &sizes,
        &options(),
        &Extras::default(),
    )
}

/// The grid with the triangles of the cells in `x0..x1` x `y0..y1` replaced: by four
/// triangles round a new centre vertex (`fan`), or by the cell as one square; then the
/// polygons in the order `shuffle` gives. Per polygon, the old polygon it is.
#[allow(clippy::too_many_arguments)]
fn recut(
    w: u32,
    old_vertices: &[Vec3],
    old_polygons: &[Vec<u32>],
    block: (u32, u32, u32, u32),
    fan: bool,
    shuffle: u64,
) -> (Vec<Vec3>, Vec<Vec<u32>>, Vec<u32>) {
    let (x0, x1, y0, y1) = block;
    let at = |x: u32, y: u32| y * (w + 1) + x;
    let in_block = |p: &[u32]| {
        let v = |i: u32| old_vertices[i as usize];
        let c = (v(p[0]) + v(p[1]) + v(p[2])) / 3.0;
        c.x > x0 as f32 && c.x < x1 as f32 && c.y > y0 as f32 && c.y < y1 as f32
    };
    let mut vertices = old_vertices.to_vec();
    let mut polygons: Vec<(Vec<u32>, u32)> = Vec::new();
    let mut cells = Vec::new();
    for (q, p) in (0u32..).zip(old_polygons) {
        if in_block(p) {
            let v = old_vertices[p[0] as usize].min(old_vertices[p[1] as usize]);
            let cell = (
                v.min(old_vertices[p[2] as usize]).x as u32,
                v.min(old_vertices[p[2] as usize]).y as u32,
            );
            if !cells.contains(&cell) {
                cells.push(cell);
            }
        } else {
            polygons.push((p.clone(), q));
        }
    }
    for &(x, y) in &cells {
        let ring = [at(x, y), at(x + 1, y), at(x + 1, y + 1), at(x, y + 1)];
        if fan {
            vertices.push(Vec3::new(x as f32 + 0.5, y as f32 + 0.5, 0.25));
            let c = vertices.len() as u32 - 1;
            for i in 0..4 {
                polygons.push((vec![ring[i], ring[(i + 1) % 4], c], NO_SOURCE));
            }
        } else {
            polygons.push((ring.to_vec(), NO_SOURCE));
        }
    }
    // A deterministic shuffle (Fisher-Yates with a small generator).
    let mut state = shuffle | 1;
    for i in (1..polygons.len()).rev() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        polygons.swap(i, (state % (i as u64 + 1)) as usize);
    }
    let (polygons, source) = polygons.into_iter().unzip();
    (vertices, polygons, source)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn a_recut_block_builds_to_the_full_builders_mesh(
        w in 2u32..12, h in 2u32..12,
        flip in prop::collection::vec(any::<bool>(), 1..20),
        hole in prop::collection::vec(prop::bool::weighted(0.15), 1..20),
        bx in 0.0f64..1.0, by in 0.0f64..1.0, bw in 0.0f64..1.0, bh in 0.0f64..1.0,
        fan in any::<bool>(), shuffle in any::<u64>(),
    ) {
        let (vertices, polygons) = grid(w, h, &flip, &hole);
        prop_assume!(!polygons.is_empty());
        let old = full(&vertices, &polygons).unwrap();
        let x0 = (bx * f64::from(w)) as u32;
        let y0 = (by * f64::from(h)) as u32;
        let x1 = (x0 + 1 + (bw * f64::from(w - x0)) as u32).min(w);
        let y1 = (y0 + 1 + (bh * f64::from(h - y0)) as u32).min(h);
        let (new_vertices, new_polygons, source) =
            recut(w, &vertices, &polygons, (x0, x1, y0, y1), fan, shuffle);
        prop_assume!(!new_polygons.is_empty());
        let expected = full(&new_vertices, &new_polygons).unwrap();
        let (built, kept) = again(&old, &source, &new_vertices, &new_polygons).unwrap();
        prop_assert_eq!(first_difference(&built, &expected), None);
        prop_assert_eq!(index_problem(&built), None);
        // Every polygon named by the caller is taken as kept (the full builder did not run).
        prop_assert_eq!(kept, source);
    }
}

#[test]
fn a_wrong_source_is_taken_as_a_new_polygon() {
    let (vertices, polygons) = grid(3, 3, &[true, false], &[false]);
    let old = full(&vertices, &polygons).unwrap();
    // Every polygon claims to be old polygon 0; and the order is reversed.
    let reversed: Vec<Vec<u32>> = polygons.iter().rev().cloned().collect();
    let source = vec![0; reversed.len()];
    let (built, kept) = again(&old, &source, &vertices, &reversed).unwrap();
    let expected = full(&vertices, &reversed).unwrap();
    assert_eq!(first_difference(&built, &expected), None);
    // Only the polygon that is old polygon 0 is kept.
    let last = reversed.len() - 1;
    assert_eq!(kept.iter().filter(|&&q| q != NO_SOURCE).count(), 1);
    assert_eq!(kept[last], 0);
    // A moved vertex makes its polygons new.
    let mut moved = vertices.clone();
    moved[5].z = 1.0;
    let source: Vec<u32> = (0..polygons.len() as u32).collect();
    let (built, kept) = again(&old, &source, &moved, &polygons).unwrap();
    assert_eq!(
        first_difference(&built, &full(&moved, &polygons).unwrap()),
        None
    );
    assert!(kept.contains(&NO_SOURCE));
}

#[test]
fn refused_input_gets_the_full_builders_error() {
    let (vertices, polygons) = grid(3, 2, &[true], &[false]);
    let old = full(&vertices, &polygons).unwrap();
    let source: Vec<u32> = (0..polygons.len() as u32).collect();
    // A new polygon that overlaps a kept one's edge the same way: a folded edge.
    let mut folded = polygons.clone();
    folded.push(polygons[0].clone());
    let mut with_new = source.clone();
    with_new.push(NO_SOURCE);
    let error = again(&old, &with_new, &vertices, &folded)
        .err()
        .expect("refused");
    assert_eq!(error, full(&vertices, &folded).err().expect("refused"));
    // A new polygon that is not convex.
    let mut bent = polygons.clone();
    bent[0] = vec![0, 1, 5, 4, 8];
    let mut fresh = source.clone();
    fresh[0] = NO_SOURCE;
    let error = again(&old, &fresh, &vertices, &bent)
        .err()
        .expect("refused");
    assert_eq!(error, full(&vertices, &bent).err().expect("refused"));
    // A corner out of range.
    bent[0] = vec![0, 1, 99];
    let error = again(&old, &fresh, &vertices, &bent)
        .err()
        .expect("refused");
    assert!(matches!(error, MeshError::IndexOutOfRange { .. }));
    assert_eq!(error, full(&vertices, &bent).err().expect("refused"));
}

/// Only the vertices after those the previous mesh has at the same positions are
/// checked again: a vertex that is not finite there, whether added after them or in
/// place of one of them, gets the full builder's error.
#[test]
fn a_vertex_not_finite_after_the_kept_ones_gets_the_full_builders_error() {
    let (vertices, polygons) = grid(3, 2, &[true], &[false]);
    let old = full(&vertices, &polygons).unwrap();
    let source: Vec<u32> = (0..polygons.len() as u32).collect();
    let mut added = vertices.clone();
    added.push(Vec3::new(f32::NAN, 0.0, 0.0));
    let error = again(&old, &source, &added, &polygons)
        .err()
        .expect("refused");
    assert!(matches!(
        error,
        MeshError::NonFiniteVertex { vertex: 12, .. }
    ));
    // (NaN is not equal to itself: the errors are compared as they print.)
    let expected = full(&added, &polygons).err().expect("refused");
    assert_eq!(format!("{error:?}"), format!("{expected:?}"));
    let mut replaced = vertices.clone();
    replaced[5].x = f32::INFINITY;
    let error = again(&old, &source, &replaced, &polygons)
        .err()
        .expect("refused");
    assert_eq!(error, full(&replaced, &polygons).err().expect("refused"));
    // Past the vertices kept, the rest are still checked, here and not only in polygons.
    let mut far = vertices.clone();
    far.push(Vec3::new(1e30, 0.0, 0.0));
    let error = again(&old, &source, &far, &polygons)
        .err()
        .expect("refused");
    assert!(matches!(error, MeshError::CoordinateTooLarge { .. }));
}
