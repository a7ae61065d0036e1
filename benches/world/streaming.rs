//! Table 4 of the world bench: long exact-mode queries after streaming, with the
//! landmark tables the world kept, without tables, and with tables built again (see the
//! bench's module note).

use std::hint::black_box;
use std::time::{Duration, Instant};

use navstar::{NavMesh, PathMode, PathOptions, PathStatus, Query, glam::Vec3};

use super::{change_world, load_average, micros, moved, percentile, prepare};

/// Long exact-mode queries: pairs of polygon centres of the tiles `meshes` (world
/// coordinates) in one copy of the maze and at least 300 apart along the ground,
/// picked by a fixed sequence.
fn long_pairs(meshes: &[NavMesh], count: usize) -> Vec<(Vec3, Vec3)> {
    let mut k: u64 = 1;
    let mut next = || {
        k = k
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (k >> 33) as usize
    };
    let mut point = || {
        let mesh = &meshes[next() % meshes.len()];
        let corners = mesh.polygon_vertices(next() as u32 % mesh.polygon_count());
        let v = mesh.vertices();
        (
            mesh.up_axis(),
            corners.iter().map(|&c| v[c as usize]).sum::<Vec3>() / corners.len() as f32,
        )
    };
    let mut pairs = Vec::new();
    while pairs.len() < count {
        let ((up, s), (_, t)) = (point(), point());
        let (a, b) = (up.ground(s), up.ground(t));
        // The copies of the maze are apart (walls all round): both in one copy.
        let same_copy = (a / 512.0).floor() == (b / 512.0).floor();
        if same_copy && (a - b).length() >= 300.0 {
            pairs.push((s, t));
        }
    }
    pairs
}

/// The long queries on `mesh` with landmarks `on` or off: the nodes expanded, the
/// median time, the number of complete paths.
fn run_long_queries(mesh: &NavMesh, pairs: &[(Vec3, Vec3)], on: bool) -> (u64, Duration, usize) {
    let options = PathOptions::default().with_mode(PathMode::Optimal);
    let mut query = Query::new(mesh);
    query.set_landmarks(on);
    let (mut expanded, mut complete) = (0, 0);
    let mut times = Vec::new();
    for &(s, t) in pairs {
        let start = Instant::now();
        let path = query.find_path(s, t, &options).expect("the points snap");
        complete += usize::from(path.status == PathStatus::Complete);
        times.push(start.elapsed());
        expanded += query.last_search_stats().expanded;
    }
    times.sort_unstable();
    (expanded, percentile(&times, 0.5), complete)
}

// One function per kind of table, so that callgrind counts each apart
// (`--toggle-collect='*long_queries_*'`, then `callgrind_annotate --inclusive=yes`); each
// names itself to `black_box`, so that the linker does not fold two into one.
#[inline(never)]
fn long_queries_kept(mesh: &NavMesh, pairs: &[(Vec3, Vec3)]) -> (u64, Duration, usize) {
    black_box("kept");
    run_long_queries(mesh, pairs, true)
}

#[inline(never)]
fn long_queries_without(mesh: &NavMesh, pairs: &[(Vec3, Vec3)]) -> (u64, Duration, usize) {
    black_box("without");
    run_long_queries(mesh, pairs, false)
}

#[inline(never)]
fn long_queries_fresh(mesh: &NavMesh, pairs: &[(Vec3, Vec3)]) -> (u64, Duration, usize) {
    black_box("fresh");
    run_long_queries(mesh, pairs, true)
}

pub(super) fn streaming_queries(quick: bool) {
    let Some((world, mut tiles, _)) = change_world() else {
        return;
    };
    prepare(&world);
    let mut present = vec![true; tiles.len()];
    let mut k: u64 = 7;
    let mut steps = Vec::new();
    for step in 0..10 {
        // Remove a tile, add one back, replace one by an equal mesh built again, in turn.
        let mut pick = |want: bool| loop {
            k = k
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let i = (k >> 33) as usize % tiles.len();
            if present[i] == want {
                return i;
            }
        };
        let what = match step % 3 {
            0 => {
                let i = pick(true);
                world.remove_tile(tiles[i].0).expect("the tile is there");
                present[i] = false;
                format!("remove tile {i}")
            }
            1 => {
                let i = pick(false);
                tiles[i].0 = world.add_tile(&tiles[i].1).expect("the tile fits again");
                present[i] = true;
                format!("add back tile {i}")
            }
            _ => {
                let i = pick(true);
                let again = moved(&tiles[i].1, Vec3::ZERO);
                tiles[i].0 = world
                    .replace_tile(tiles[i].0, &again)
                    .expect("an equal mesh replaces it");
                format!("replace tile {i} by an equal mesh")
            }
        };
        steps.push(what);
    }
    let kept = world.snapshot();
    println!();
    println!("Steps: {}.", steps.join(", "));
    println!(
        "Tables kept: {} bytes ({} tiles absent).",
        world.landmark_bytes(),
        present.iter().filter(|&&p| !p).count()
    );
    let meshes: Vec<NavMesh> = tiles.iter().map(|(_, m)| m.clone()).collect();
    let pairs = long_pairs(&meshes, if quick { 10 } else { 40 });
    let rows = [
        ("kept through the steps", long_queries_kept(&kept, &pairs)),
        ("none", long_queries_without(&kept, &pairs)),
    ];
    prepare(&world);
    let fresh = world.snapshot();
    let fresh_row = (
        "built again after the steps",
        long_queries_fresh(&fresh, &pairs),
    );
    println!(
        "{} long exact-mode queries; load average {}.",
        pairs.len(),
        load_average()
    );
    println!();
    println!("| tables | nodes expanded | median µs | complete |");
    println!("|---|---:|---:|---:|");
    for (name, (expanded, median, complete)) in rows.into_iter().chain([fresh_row]) {
        println!(
            "| {name} | {expanded} | {:.0} | {complete} |",
            micros(median)
        );
    }
}
