//! The fast lane's offline parts on random meshes (grids of jittered quads with random
//! holes): hub label distances equal Dijkstra's over the corner graph for every pair of
//! corners, and the labels' next-corner entries unpack into a way along graph edges of
//! exactly that length.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use glam::Vec3;
use proptest::prelude::*;

use super::graph::{self, Graph};
use super::{corners, labels, order, sight};
use crate::mesh::WalkEnd;
use crate::mesh::fast_lane::HubLabel;
use crate::{MeshOptions, NavMesh};

/// A `w x h` grid of unit quads (the inner points moved by `jitter`), without the cells
/// of `holes`.
fn grid_mesh(w: u32, h: u32, holes: &[bool], jitter: &[(f32, f32)]) -> Option<NavMesh> {
    let mut vertices = Vec::new();
    for z in 0..=h {
        for x in 0..=w {
            let (dx, dz) = jitter[(z * (w + 1) + x) as usize];
            vertices.push(Vec3::new(x as f32 + dx, 0.0, z as f32 + dz));
        }
    }
    let id = |x: u32, z: u32| z * (w + 1) + x;
    let mut indices = Vec::new();
    for z in 0..h {
        for x in 0..w {
            if !holes[(z * w + x) as usize] {
                indices.extend([id(x, z), id(x, z + 1), id(x + 1, z + 1), id(x + 1, z)]);
            }
        }
    }
    let sizes = vec![4; indices.len() / 4];
    if sizes.is_empty() {
        return None;
    }
    NavMesh::from_polygons(&vertices, &indices, &sizes, &MeshOptions::default()).ok()
}

/// The arguments of [`grid_mesh`]: at most `max - 1` cells a side, each a hole with
/// probability `holes`, inner points moved by up to 0.15.
#[allow(clippy::type_complexity)]
fn grid(max: u32, holes: f64) -> impl Strategy<Value = (u32, u32, Vec<bool>, Vec<(f32, f32)>)> {
    (2u32..max, 2u32..max).prop_flat_map(move |(w, h)| {
        (
            Just(w),
            Just(h),
            proptest::collection::vec(prop::bool::weighted(holes), (w * h) as usize),
            proptest::collection::vec(
                (-0.15f32..0.15, -0.15f32..0.15),
                ((w + 1) * (h + 1)) as usize,
            ),
        )
    })
}

/// Dijkstra's distances over `graph` from `from`.
fn dijkstra(graph: &Graph, from: u32) -> Vec<f64> {
    let mut distance = vec![f64::INFINITY; graph.node_count()];
    let mut heap = BinaryHeap::new();
    distance[from as usize] = 0.0;
    heap.push(Reverse((0f64.to_bits(), from)));
    while let Some(Reverse((bits, u))) = heap.pop() {
        let d = f64::from_bits(bits);
        if d > distance[u as usize] {
            continue;
        }
        for (w, weight) in graph.edges(u) {
            if d + weight < distance[w as usize] {
                distance[w as usize] = d + weight;
                heap.push(Reverse(((d + weight).to_bits(), w)));
            }
        }
    }
    distance
}

/// The length of the way from `from` to `hub` by the next-corner entries, checking
/// that each step is a graph edge.
fn unpacked_length(graph: &Graph, labels: &[&[HubLabel]], from: u32, hub: u32) -> f64 {
    let (mut at, mut length) = (from, 0.0);
    for _ in 0..=graph.node_count() {
        if at == hub {
            return length;
        }
        let label = labels[at as usize]
            .iter()
            .find(|l| l.hub == hub)
            .expect("the next corner has the hub's label");
        let weight = graph
            .edges(at)
            .find(|&(w, _)| w == label.toward)
            .map(|(_, d)| d)
            .expect("each step is an edge");
        length += weight;
        at = label.toward;
    }
    panic!("the way from {from} to hub {hub} does not end");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn label_distances_equal_dijkstra_on_random_meshes(
        (w, h, holes, jitter) in grid(14, 0.3)
    ) {
        let Some(mesh) = grid_mesh(w, h, &holes, &jitter) else { return Ok(()) };
        let data = mesh.data();
        let found = corners::find(data);
        let mut sweeps = sight::Sight::default();
        let graph = graph::build(data, &found, &mut sweeps, 1 << 20).expect("small mesh");
        let rank = order::hub_order(&graph);
        let graph = graph::renumbered(&graph, &rank);
        let (start, entries) = labels::build(&graph, usize::MAX).unwrap();
        let n = graph.node_count();
        // A budget below the labels' count gives none; at the count, the same labels.
        if !entries.is_empty() {
            prop_assert!(labels::build(&graph, entries.len() - 1).is_none());
            prop_assert_eq!(labels::build(&graph, entries.len()).map(|l| l.1.len()), Some(entries.len()));
        }
        let of = |u: usize| &entries[start[u] as usize..start[u + 1] as usize];
        let all: Vec<&[HubLabel]> = (0..n).map(of).collect();
        for u in 0..n {
            // Nearest hub first, each hub once.
            prop_assert!(all[u].windows(2).all(|p| p[0].distance <= p[1].distance));
            let mut hubs: Vec<u32> = all[u].iter().map(|l| l.hub).collect();
            hubs.sort_unstable();
            prop_assert!(hubs.windows(2).all(|p| p[0] < p[1]));
            let truth = dijkstra(&graph, u as u32);
            for v in 0..n {
                let by_labels = labels::query(all[u], all[v]);
                if truth[v].is_infinite() {
                    prop_assert!(by_labels.is_none(), "{u} {v} not connected");
                    continue;
                }
                let (d, hub) = by_labels.expect("connected corners share a hub");
                prop_assert!((d - truth[v]).abs() <= 1e-9 * (1.0 + truth[v]), "{u} {v}: {d} vs {}", truth[v]);
                let unpacked = unpacked_length(&graph, &all, u as u32, hub)
                    + unpacked_length(&graph, &all, v as u32, hub);
                prop_assert!((unpacked - d).abs() <= 1e-9 * (1.0 + d));
            }
        }
    }
}

/// A point inside polygon `p` of `data` (a convex combination of its corners, with
/// weights from `w`).
fn point_in(data: &crate::mesh::MeshData, p: u32, w: &[f64]) -> glam::DVec2 {
    let (ground, corners) = (data.ground.as_single(), data.corners.as_single());
    let range = data.corner_range(p);
    let weights: Vec<f64> = range.clone().map(|i| w[i % w.len()] + 0.05).collect();
    let sum: f64 = weights.iter().sum();
    range
        .zip(&weights)
        .map(|(i, &k)| ground[corners[i] as usize].as_dvec2() * (k / sum))
        .sum::<glam::DVec2>()
        .as_vec2()
        .as_dvec2()
}

/// The vertices a sweep from `s` (in polygon `p`) sees, with the given edge bound, and
/// whether it sees `t` (in polygon `q`).
fn seen_within(
    data: &crate::mesh::MeshData,
    (p, s): (u32, glam::DVec2),
    (q, t): (u32, glam::DVec2),
    go_on: impl Fn(glam::DVec2, glam::DVec2) -> bool,
) -> (std::collections::BTreeSet<u32>, bool) {
    let mut target_set = Vec::new();
    crate::search::exact::polygons_at(data, &|_| true, q, t, &mut target_set);
    let corners = data.corners.as_single();
    let mut seen = std::collections::BTreeSet::new();
    let mut sweeps = sight::Sight::default();
    let in_sight = sweeps
        .sweep_within(
            data,
            p,
            s,
            (&[], t),
            1 << 20,
            |slot| {
                seen.insert(corners[slot]);
            },
            go_on,
        )
        .expect("small mesh");
    let sees_t = sweeps
        .sweep(data, p, s, (&target_set, t), 1 << 20, |_| {})
        .expect("small mesh");
    assert!(!in_sight, "no target given");
    (seen, sees_t)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The queries' bound on the sweeps (no cone goes on past an edge as far, from the
    /// start and the goal together, as the bound) never loses a vertex in sight whose
    /// straight way from the start on to the goal is shorter than the bound; the sweep
    /// toward a target (which stops when it sees it) tells direct sight as the straight
    /// walk across the polygons does.
    #[test]
    fn a_bounded_sweep_keeps_every_vertex_within_the_bound(
        (w, h, holes, jitter) in grid(12, 0.25),
        ends in (any::<u32>(), any::<u32>(), proptest::collection::vec(0.0f64..1.0, 4..9)),
        slack in 1.0f64..1.6,
    ) {
        let Some(mesh) = grid_mesh(w, h, &holes, &jitter) else { return Ok(()) };
        let data = mesh.data();
        let n = data.polygon_count();
        let (p, q) = (ends.0 % n, ends.1 % n);
        let (s, t) = (point_in(data, p, &ends.2), point_in(data, q, &ends.2[1..]));
        let (all, sees_t) = seen_within(data, (p, s), (q, t), |_, _| true);
        let bound = s.distance(t) * slack + 0.1;
        let (kept, _) = seen_within(data, (p, s), (q, t), |a, b| {
            super::online::beyond_within(s, t, a, b, bound)
        });
        let ground = data.ground.as_single();
        for v in all {
            let at = ground[v as usize].as_dvec2();
            if s.distance(at) + at.distance(t) < bound * (1.0 - 1e-12) {
                prop_assert!(kept.contains(&v), "vertex {v} at {at} lost: {s} -> {t}, bound {bound}");
            }
        }
        // Direct sight, by the straight walk across the polygons (points inside
        // polygons, at random: no grazing).
        let walk = data.walk_straight(p, s.as_vec2(), t.as_vec2(), |_| true);
        let walk_sees = matches!(walk, WalkEnd::Reached(r) if r == q);
        prop_assert_eq!(sees_t, walk_sees, "{} -> {}", s, t);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The label scans' early stops (spreading up to the bound, joining up to the first
    /// hub too far for the least spread) lose no way below the bound: every hub reached
    /// below the bound by the full spread has the same best, and the join equals the
    /// full scan of every label against every spread entry whenever that is below both
    /// bounds, and is never shorter than it.
    #[test]
    fn the_label_scans_stop_early_without_losing_a_way(
        (w, h, holes, jitter) in grid(12, 0.25),
        spread in proptest::collection::vec((any::<u32>(), 0.0f64..3.0), 1..8),
        joined in proptest::collection::vec((any::<u32>(), 0.0f64..3.0), 1..8),
        bounds in (1.0f64..30.0, 1.0f64..30.0),
    ) {
        let Some(mesh) = grid_mesh(w, h, &holes, &jitter) else { return Ok(()) };
        let Some(lane) = super::build(mesh.data(), super::Budget::Unbounded) else {
            return Ok(());
        };
        let n = lane.corner_count();
        if n == 0 {
            return Ok(());
        }
        let (spread_bound, limit) = bounds;
        // Every spread entry, unpruned: per hub the least `a + label`.
        let mut full = vec![f64::INFINITY; n];
        let mut scratch = super::LaneScratch::default();
        scratch.next_sweep(n);
        for &(c, a) in &spread {
            let c = c % n as u32;
            for l in lane.labels_of(c) {
                let x = a + l.distance;
                full[l.hub as usize] = full[l.hub as usize].min(x);
            }
            scratch.spread(&lane, c, a, spread_bound);
        }
        // Every hub the full spread reaches below the bound has the same best.
        for (hub, &x) in full.iter().enumerate() {
            if x < spread_bound {
                prop_assert_eq!(scratch.best_to(hub as u32), x, "hub {}", hub);
            }
        }
        for &(c, d) in &joined {
            let c = c % n as u32;
            let truth = lane
                .labels_of(c)
                .iter()
                .map(|l| full[l.hub as usize] + l.distance + d)
                .fold(f64::INFINITY, f64::min);
            let found = scratch.join(&lane, c, d, limit);
            if truth < spread_bound.min(limit) {
                prop_assert_eq!(found.map(|f| f.0), Some(truth), "corner {}", c);
            }
            if let Some((length, _)) = found {
                prop_assert!(length >= truth && length < limit);
            }
        }
    }
}

/// The ground points (as bits, to compare exactly) of the vertices a sweep from `s` (in
/// polygon `p` of `data`, of any number of tiles) reports.
fn seen_points(
    data: &crate::mesh::MeshData,
    p: u32,
    s: glam::DVec2,
) -> std::collections::BTreeSet<(u32, u32)> {
    // Per dense slot number (as the sweep reports them): its vertex's ground point.
    let prefix = corners::dense_slots(data);
    let mut point_of = vec![(0, 0); data.corners.total_len()];
    for q in data.polygon_ids() {
        for slot in data.corner_range(q) {
            let (tile, local) = data.split_id(slot as u32);
            let at = data.ground[data.corners[slot] as usize];
            point_of[prefix[tile] as usize + local as usize] = (at.x.to_bits(), at.y.to_bits());
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    let mut sweeps = sight::Sight::default();
    let in_sight = sweeps
        .sweep(data, p, s, (&[], s), 1 << 20, |slot| {
            seen.insert(point_of[slot]);
        })
        .expect("small mesh");
    assert!(!in_sight, "no target given");
    seen
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// On a world of tiles, where seams put vertices in sight that no wall ends at (cut
    /// points, T-junctions between tiles merged each on its own) and walls end exactly
    /// at seams (holes of whole cells, tile sides of whole cells), the sweep (which joins
    /// cones split at such vertices) sees exactly the vertices of the one piece that a
    /// sweep on the piece sees. The grid is not jittered, so the cut moves no wall.
    #[test]
    fn a_sweep_across_seams_sees_what_the_one_piece_sees(
        (w, h, holes, _) in grid(14, 0.35),
        side in prop::sample::select(vec![1.0f32, 1.5, 2.0, 3.0]),
        ends in (any::<u32>(), proptest::collection::vec(0.0f64..1.0, 4..9)),
    ) {
        let flat = vec![(0.0, 0.0); ((w + 1) * (h + 1)) as usize];
        let Some(mesh) = grid_mesh(w, h, &holes, &flat) else { return Ok(()) };
        let world = crate::World::new(&crate::WorldOptions::default()).unwrap();
        world.add_mesh_in_tiles(&mesh, side).unwrap();
        let snapshot = world.snapshot();
        let (piece, tiled) = (mesh.data(), snapshot.data());
        prop_assume!(tiled.tiles.len() > 1);
        let p = ends.0 % piece.polygon_count();
        let s = point_in(piece, p, &ends.1);
        let at = Vec3::new(s.x as f32, 0.0, s.y as f32);
        let q = snapshot.nearest_point(at, 1e-3, None).expect("on the world").polygon;
        let on_piece = seen_points(piece, p, s);
        let on_world = seen_points(tiled, q, s);
        // The vertices of both (the world keeps every vertex of the piece its tiles'
        // polygons still have).
        let on_both: std::collections::BTreeSet<(u32, u32)> = tiled
            .polygon_ids()
            .flat_map(|q| tiled.corner_range(q))
            .map(|slot| tiled.ground[tiled.corners[slot] as usize])
            .map(|v| (v.x.to_bits(), v.y.to_bits()))
            .collect();
        for v in piece.ground.as_single() {
            let key = (v.x.to_bits(), v.y.to_bits());
            if !on_both.contains(&key) {
                continue;
            }
            prop_assert_eq!(
                on_piece.contains(&key),
                on_world.contains(&key),
                "vertex {} from {} (side {})", v, s, side
            );
        }
    }
}
