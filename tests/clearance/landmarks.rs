//! The landmark table of the mesh a disc's path searches run on (the eroded mesh's
//! joined copy, `mesh/clearance/mod.rs`): built by the first search that uses it (the
//! eroded bytes grow), and it never changes an answer: the exact mode's lengths and
//! statuses with the table are those without it, on random jittered grids with random
//! area costs and radii, and on den520d's scenario at radius 0.5 (the default uses the
//! copy's table).

use std::fs::File;
use std::io::BufReader;
use std::path::Path;

use glam::Vec3;
use navstar::io::{parse_movingai_map, parse_scenario};
use navstar::{MeshInput, MeshOptions, NavMesh, PathMode, PathOptions, Query, QueryFilter};

use crate::common::{Rng, point_in_polygon, seeded_grid};

const GRID_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/grid");

/// Asserts that the exact mode answers `from -> to` alike with the landmarks of `on`
/// and without those of `off`; returns whether the answer was a path.
#[track_caller]
fn assert_same_answer(
    on: &mut Query,
    off: &mut Query,
    from: Vec3,
    to: Vec3,
    options: &PathOptions,
    context: &str,
) -> bool {
    let (x, y) = (
        on.find_path_vec(from, to, options),
        off.find_path_vec(from, to, options),
    );
    assert_eq!(x.is_ok(), y.is_ok(), "{context}: {x:?} against {y:?}");
    let (Ok(x), Ok(y)) = (x, y) else {
        return false;
    };
    assert_eq!(x.status, y.status, "{context}");
    assert!(
        (x.length() - y.length()).abs() <= 1e-4 * (1.0 + y.length()),
        "{context}: {} with landmarks, {} without",
        x.length(),
        y.length()
    );
    true
}

#[test]
fn landmarks_on_eroded_copies_never_change_the_exact_answer() {
    let seed = match crate::common::proptest_config(1).rng_seed {
        proptest::test_runner::RngSeed::Fixed(seed) => seed,
        _ => unreachable!("proptest_config fixes the seed"),
    };
    let (mut answered, mut built) = (0, 0);
    for case in 0..24u64 {
        let mut rng = Rng(seed.wrapping_add(case));
        let soup = seeded_grid(rng.next_u64(), 12, 12);
        let areas: Vec<u8> = soup.sizes.iter().map(|_| rng.below(3) as u8).collect();
        let input = MeshInput::new(&soup.vertices, &soup.indices)
            .with_polygon_sizes(&soup.sizes)
            .with_areas(&areas);
        let mesh = NavMesh::from_input(&input, &MeshOptions::default()).unwrap();
        let r = 0.1 + 0.3 * rng.unit();
        let mut filter = QueryFilter::default();
        for area in 0..3u8 {
            filter = filter.with_area_cost(area, 1.0 + 2.0 * rng.unit());
        }
        let options = PathOptions::default()
            .with_mode(PathMode::Optimal)
            .with_agent_radius(r)
            .with_filter(filter);
        // The default: the copy's table, although these copies are far below
        // `LANDMARK_MIN_POLYGONS` polygons.
        let mut on = Query::new(&mesh);
        let mut off = Query::new(&mesh);
        off.set_landmarks(false);
        let polygons = mesh.polygon_count();
        let point = |rng: &mut Rng| {
            let polygon = rng.below(polygons);
            point_in_polygon(&mesh, polygon, rng.unit(), rng.unit(), rng.unit())
        };
        // The copy is made by the first search; its table only by a search using it.
        let (a, b) = (point(&mut rng), point(&mut rng));
        let _ = off.find_path_vec(a, b, &options);
        let without_table = mesh.eroded_bytes();
        let _ = on.find_path_vec(a, b, &options);
        built += usize::from(mesh.eroded_bytes() > without_table);
        for k in 0..30 {
            let (a, b) = (point(&mut rng), point(&mut rng));
            let context = format!("case {case} pair {k} at r = {r}: {a} -> {b}");
            answered += usize::from(assert_same_answer(
                &mut on, &mut off, a, b, &options, &context,
            ));
        }
    }
    eprintln!("eroded copies with landmarks: {answered} answers alike, {built} of 24 tables");
    assert!(answered >= 24 * 30 / 2, "{answered} answered");
    assert!(built >= 12, "{built} of 24 copies got a table");
}

#[test]
fn den520d_at_half_a_cell_answers_alike_with_the_copy_s_landmarks() {
    let path = Path::new(GRID_DIR).join("den520d.map");
    let map = parse_movingai_map(BufReader::new(File::open(&path).unwrap())).unwrap();
    let mesh = map.to_mesh(&MeshOptions::default()).unwrap();
    let scen = Path::new(GRID_DIR).join("den520d.map.scen");
    let problems = parse_scenario(BufReader::new(File::open(&scen).unwrap())).unwrap();
    let options = PathOptions::default()
        .with_mode(PathMode::Optimal)
        .with_agent_radius(0.5);
    // The default: the copy's table, whatever its size (for the searches: the fast
    // lane, which answers without one, is off in this test).
    let mut on = Query::new(&mesh);
    let mut off = Query::new(&mesh);
    on.set_fast_lane(false);
    off.set_fast_lane(false);
    off.set_landmarks(false);
    let mut answered = 0;
    let mut without_table = None;
    for (i, problem) in problems.iter().enumerate().step_by(8) {
        let (s, t) = (problem.grid_start(), problem.grid_goal());
        if without_table.is_none() {
            let _ = off.find_path_vec(s, t, &options).unwrap();
            without_table = Some(mesh.eroded_bytes());
        }
        let context = format!("den520d problem {i}: {s} -> {t}");
        answered += usize::from(assert_same_answer(
            &mut on, &mut off, s, t, &options, &context,
        ));
    }
    assert_eq!(answered, problems.len().div_ceil(8));
    eprintln!(
        "den520d at 0.5: eroded copies {} bytes without the landmark table, {} with it",
        without_table.unwrap(),
        mesh.eroded_bytes()
    );
    assert!(
        mesh.eroded_bytes() > without_table.unwrap(),
        "the default built no table on den520d's joined copy"
    );
}
