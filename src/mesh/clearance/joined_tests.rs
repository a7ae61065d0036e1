//! The joined copy of an eroded mesh (`joined.rs`) against the eroded mesh itself, on
//! random grids of unit cells (some blocked, some of another area id): the same
//! admissible region (equal areas, and every point of the plane at the same distance
//! from both), each piece under exactly one joined polygon whose list of originals
//! holds the piece's original polygon and whose area id is the piece's, and exact-mode
//! path lengths that do not change.

use glam::{Vec2, Vec3};
use proptest::prelude::*;

use crate::filter::QueryFilter;
use crate::mesh::{MeshData, MeshInput, MeshOptions, NavMesh};
use crate::{PathMode, PathOptions, Query};

/// A grid of `width` x `height` unit cells (Y up, x and z in the ground plane), one
/// square polygon per open cell of `open`, with area id 1 where `marked`, else 0.
fn grid(width: usize, height: usize, open: &[bool], marked: &[bool]) -> Option<NavMesh> {
    let vertex = |x: usize, z: usize| (z * (width + 1) + x) as u32;
    let vertices: Vec<Vec3> = (0..=height)
        .flat_map(|z| (0..=width).map(move |x| Vec3::new(x as f32, 0.0, z as f32)))
        .collect();
    let (mut indices, mut sizes, mut areas) = (Vec::new(), Vec::new(), Vec::new());
    for z in 0..height {
        for x in 0..width {
            if open[z * width + x] {
                indices.extend([
                    vertex(x, z),
                    vertex(x + 1, z),
                    vertex(x + 1, z + 1),
                    vertex(x, z + 1),
                ]);
                sizes.push(4);
                areas.push(u8::from(marked[z * width + x]));
            }
        }
    }
    let input = MeshInput::new(&vertices, &indices)
        .with_polygon_sizes(&sizes)
        .with_areas(&areas);
    NavMesh::from_input(&input, &MeshOptions::default()).ok()
}

/// The ground-plane area of polygon `p` of `mesh`.
fn area(mesh: &MeshData, p: u32) -> f64 {
    let corners = &mesh.corners[mesh.corner_range(p)];
    let g = |v: u32| mesh.ground[v as usize].as_dvec2();
    (1..corners.len() - 1)
        .map(|i| (g(corners[i]) - g(corners[0])).perp_dot(g(corners[i + 1]) - g(corners[0])) / 2.0)
        .sum()
}

/// The centroid of polygon `p`'s corners in the ground plane.
fn centre(mesh: &MeshData, p: u32) -> Vec2 {
    let corners = &mesh.corners[mesh.corner_range(p)];
    corners
        .iter()
        .map(|&v| mesh.ground[v as usize])
        .sum::<Vec2>()
        / corners.len() as f32
}

/// The least signed distance of `q` inside polygon `p`'s edges (negative outside).
fn depth(mesh: &MeshData, p: u32, q: Vec2) -> f32 {
    mesh.corner_range(p)
        .map(|slot| {
            let (a, b) = mesh.edge(p, slot);
            let (a, b) = (mesh.ground[a as usize], mesh.ground[b as usize]);
            (b - a).perp_dot(q - a) / (b - a).length()
        })
        .fold(f32::INFINITY, f32::min)
}

fn check(
    width: usize,
    height: usize,
    open: &[bool],
    marked: &[bool],
    r: f32,
    samples: &[(f32, f32)],
) {
    let Some(mesh) = grid(width, height, open, marked) else {
        return;
    };
    let Ok(eroded) = mesh.data().eroded(r, &QueryFilter::default(), true) else {
        return;
    };
    let Some(joined) = &eroded.joined else {
        return;
    };
    let (pieces, copy) = (eroded.mesh.data(), joined.mesh.data());
    assert!(copy.polygon_count() < pieces.polygon_count());
    let total = |m: &MeshData| m.polygon_ids().map(|p| area(m, p)).sum::<f64>();
    assert!((total(pieces) - total(copy)).abs() < 1e-5 * total(pieces).max(1.0));
    // Each piece lies under one joined polygon, which lists its original and has its area.
    for k in pieces.polygon_ids() {
        let c = centre(pieces, k);
        let under: Vec<u32> = copy
            .polygon_ids()
            .filter(|&j| depth(copy, j, c) > -1e-5)
            .collect();
        assert!(
            !under.is_empty(),
            "piece {k} at {c} is under no joined polygon"
        );
        let original = eroded.of_original[k as usize];
        assert!(
            under
                .iter()
                .any(|&j| joined.originals(j).contains(&original)
                    && copy.areas[j as usize] == mesh.data().areas[original as usize]),
            "piece {k} (of original {original}) at {c}: joined {under:?}"
        );
    }
    // The same region: every sample point is as far from one as from the other.
    let (fine, coarse) = (&eroded.mesh, &joined.mesh);
    for &(x, z) in samples {
        let q = Vec3::new(x * width as f32, 0.0, z * height as f32);
        let a = fine
            .nearest_point(q, f32::INFINITY, None)
            .map(|n| n.distance);
        let b = coarse
            .nearest_point(q, f32::INFINITY, None)
            .map(|n| n.distance);
        let (a, b) = (a.unwrap(), b.unwrap());
        assert!(
            (a - b).abs() < 1e-4,
            "{q}: {a} from the pieces, {b} from the joined copy"
        );
    }
    // Exact lengths do not depend on the cut.
    let exact = PathOptions::default().with_mode(PathMode::Optimal);
    let (mut on_fine, mut on_coarse) = (Query::new(fine), Query::new(coarse));
    for pair in samples.windows(2) {
        let at = |(x, z): (f32, f32)| Vec3::new(x * width as f32, 0.0, z * height as f32);
        let (s, t) = (at(pair[0]), at(pair[1]));
        let ends = |p: &crate::Path<'_>| (p.corners[0], p.corners[p.corners.len() - 1]);
        let a = on_fine
            .find_path(s, t, &exact)
            .map(|p| (p.status, p.length(), ends(&p)));
        let b = on_coarse
            .find_path(s, t, &exact)
            .map(|p| (p.status, p.length(), ends(&p)));
        match (a, b) {
            // A sample outside the region snaps to its nearest point, at the same
            // distance from both; where two points tie, the two may pick different
            // ones, and their paths join different ends.
            (Ok((_, _, (fa, ta))), Ok((_, _, (fb, tb))))
                if fa.distance(fb) > 1e-4 || ta.distance(tb) > 1e-4 => {}
            (Ok((sa, la, _)), Ok((sb, lb, _))) => {
                assert_eq!(sa, sb, "{s} -> {t}");
                assert!(
                    (la - lb).abs() < 1e-4 * la.max(1.0),
                    "{s} -> {t}: {la} and {lb}"
                );
            }
            (a, b) => assert_eq!(a.is_ok(), b.is_ok(), "{s} -> {t}: {a:?} and {b:?}"),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x1017),
        ..ProptestConfig::with_cases(48)
    })]

    #[test]
    fn joined_copy_is_the_eroded_region_cut_differently(
        width in 3usize..9,
        height in 3usize..9,
        cells in prop::collection::vec((0u8..10, 0u8..10), 64),
        r in prop::sample::select(vec![0.2f32, 0.3, 0.5]),
        samples in prop::collection::vec((0.0f32..1.0, 0.0f32..1.0), 12),
    ) {
        let open: Vec<bool> = cells.iter().map(|&(o, _)| o >= 2).collect();
        let marked: Vec<bool> = cells.iter().map(|&(_, m)| m == 0).collect();
        check(width, height, &open, &marked, r, &samples);
    }
}

#[test]
fn an_open_row_of_cells_joins_into_one_polygon_listing_all_of_them() {
    let mesh = grid(4, 1, &[true; 4], &[false; 4]).unwrap();
    let eroded = mesh
        .data()
        .eroded(0.25, &QueryFilter::default(), true)
        .unwrap();
    assert_eq!(eroded.mesh.polygon_count(), 4);
    let joined = eroded.joined.as_ref().expect("the four pieces join");
    assert_eq!(joined.mesh.polygon_count(), 1);
    assert_eq!(joined.originals(0), [0, 1, 2, 3]);
    // A cell of another area id stays apart.
    let mesh = grid(4, 1, &[true; 4], &[false, true, false, false]).unwrap();
    let eroded = mesh
        .data()
        .eroded(0.25, &QueryFilter::default(), true)
        .unwrap();
    let joined = eroded.joined.as_ref().expect("the last two pieces join");
    assert_eq!(joined.mesh.polygon_count(), 3);
}

#[test]
fn a_block_of_four_cells_joins_into_one_polygon_across_its_inner_corner() {
    // The four pieces meet at the cells' shared corner (1, 1), inside the region: no
    // merge of the pieces removes it (two of them share two edges with the other
    // two), but the region triangulated anew is one square.
    let mesh = grid(2, 2, &[true; 4], &[false; 4]).unwrap();
    let eroded = mesh
        .data()
        .eroded(0.25, &QueryFilter::default(), true)
        .unwrap();
    assert_eq!(eroded.mesh.polygon_count(), 4);
    let joined = eroded.joined.as_ref().expect("the pieces join");
    assert_eq!(joined.mesh.polygon_count(), 1);
    assert_eq!(joined.originals(0), [0, 1, 2, 3]);
    assert!((area(joined.mesh.data(), 0) - 1.5 * 1.5).abs() < 1e-4);
}

#[test]
fn straight_walls_crossed_by_original_edges_keep_no_vertex_on_them() {
    // Four cells in a row, eroded by 0.25: the region is the rectangle from (0.25,
    // 0.25) to (3.75, 0.75), whose two long walls the cells' edges cross at x = 1, 2
    // and 3. The recut leaves those points out: one polygon of four corners.
    let mesh = grid(4, 1, &[true; 4], &[false; 4]).unwrap();
    let eroded = mesh
        .data()
        .eroded(0.25, &QueryFilter::default(), true)
        .unwrap();
    let joined = eroded.joined.as_ref().expect("the four pieces join");
    let copy = joined.mesh.data();
    assert_eq!(copy.polygon_count(), 1);
    let mut corners: Vec<(f32, f32)> = copy.corners[copy.corner_range(0)]
        .iter()
        .map(|&v| (copy.ground[v as usize].x, copy.ground[v as usize].y))
        .collect();
    corners.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let expected = [(0.25, 0.25), (0.25, 0.75), (3.75, 0.25), (3.75, 0.75)];
    assert_eq!(corners.len(), 4, "{corners:?}");
    for (c, e) in corners.iter().zip(expected) {
        assert!(
            (c.0 - e.0).abs() < 1e-5 && (c.1 - e.1).abs() < 1e-5,
            "{corners:?}"
        );
    }
}
