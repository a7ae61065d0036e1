//! The landmark bound is admissible on random meshes with off-mesh links: from every
//! portal (and link arrival) it never exceeds the shortest way to the goal, measured by
//! the exact mode (itself checked against a visibility-graph oracle in `tests/paths`)
//! with the links added by Dijkstra over their ends; and with random flags, filters and
//! area costs, the exact mode's answer is the same with and without landmarks and the
//! default mode's paths stay complete and no shorter than the exact mode's.

use glam::Vec3;
use proptest::prelude::*;

use super::graph::NONE;
use crate::{MeshInput, MeshOptions, NavMesh, OffMeshLink, PathMode, PathOptions, PathStatus};
use crate::{Query, QueryFilter};

/// A random mesh: a `w x h` grid of jittered points, a triangle pair per walkable cell.
#[derive(Debug, Clone)]
struct Case {
    w: u32,
    h: u32,
    walkable: Vec<bool>,
    diagonal: Vec<bool>,
    jitter: Vec<(f32, f32)>,
    /// Links: (start cell, end cell, cost, both ways).
    links: Vec<(u32, u32, f32, bool)>,
    areas: Vec<u8>,
    flags: Vec<u32>,
    goals: Vec<u32>,
}

fn case() -> impl Strategy<Value = Case> {
    (3u32..7, 3u32..7).prop_flat_map(|(w, h)| {
        let cells = (w * h) as usize;
        let points = ((w + 1) * (h + 1)) as usize;
        (
            proptest::collection::vec(prop::bool::weighted(0.75), cells),
            proptest::collection::vec(any::<bool>(), cells),
            proptest::collection::vec((-0.25f32..0.25, -0.25f32..0.25), points),
            proptest::collection::vec((0..w * h, 0..w * h, 0.0f32..6.0, any::<bool>()), 0..3),
            proptest::collection::vec(0u8..3, 2 * cells),
            proptest::collection::vec(1u32..4, 2 * cells),
            proptest::collection::vec(0..w * h, 1..4),
        )
            .prop_map(
                move |(walkable, diagonal, jitter, links, areas, flags, goals)| Case {
                    w,
                    h,
                    walkable,
                    diagonal,
                    jitter,
                    links,
                    areas,
                    flags,
                    goals,
                },
            )
    })
}

impl Case {
    fn vertices(&self) -> Vec<Vec3> {
        let mut v = Vec::new();
        for j in 0..=self.h {
            for i in 0..=self.w {
                let (dx, dz) = self.jitter[(j * (self.w + 1) + i) as usize];
                v.push(Vec3::new(i as f32 + dx, 0.0, j as f32 + dz));
            }
        }
        v
    }

    fn indices(&self) -> Vec<u32> {
        let at = |i: u32, j: u32| j * (self.w + 1) + i;
        let mut indices = Vec::new();
        for j in 0..self.h {
            for i in 0..self.w {
                let c = (j * self.w + i) as usize;
                if !self.walkable[c] {
                    continue;
                }
                let (a, b, cc, d) = (at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1));
                if self.diagonal[c] {
                    indices.extend([a, b, cc, a, cc, d]);
                } else {
                    indices.extend([a, b, d, b, cc, d]);
                }
            }
        }
        indices
    }

    /// The centre of cell `c`, if walkable.
    fn centre(&self, c: u32) -> Option<Vec3> {
        self.walkable[c as usize]
            .then(|| Vec3::new((c % self.w) as f32 + 0.5, 0.0, (c / self.w) as f32 + 0.5))
    }

    fn links(&self) -> Vec<OffMeshLink> {
        self.links
            .iter()
            .filter_map(|&(a, b, cost, both)| {
                let (a, b) = (self.centre(a)?, self.centre(b)?);
                Some(
                    OffMeshLink::new(a, b)
                        .with_cost(cost)
                        .with_bidirectional(both)
                        .with_radius(0.5),
                )
            })
            .collect()
    }

    /// The mesh with the links, and the same geometry without them; `None` when the
    /// grid has no walkable cell.
    fn meshes(&self) -> Option<(NavMesh, NavMesh)> {
        let (vertices, indices) = (self.vertices(), self.indices());
        if indices.is_empty() {
            return None;
        }
        let n = indices.len() / 3;
        let links = self.links();
        let input = MeshInput::new(&vertices, &indices)
            .with_areas(&self.areas[..n])
            .with_flags(&self.flags[..n])
            .with_links(&links);
        let options = MeshOptions::default();
        let with = NavMesh::from_input(&input, &options).ok()?;
        let without = NavMesh::from_triangles(&vertices, &indices, &options).ok()?;
        Some((with, without))
    }
}

/// The exact shortest length from `a` to `b` over `mesh` (no links), infinite when
/// there is none.
fn exact(query: &mut Query, a: Vec3, b: Vec3) -> f32 {
    let options = PathOptions::default().with_mode(PathMode::Optimal);
    match query.find_path_vec(a, b, &options) {
        Ok(path) if path.status == PathStatus::Complete => path.length(),
        _ => f32::INFINITY,
    }
}

/// The shortest way from `x` to `goal` walking (`walk`, the mesh without links) and
/// taking links (`hops`: from, to, cost), by Dijkstra over the link ends.
fn with_links(walk: &mut Query, hops: &[(Vec3, Vec3, f32)], x: Vec3, goal: Vec3) -> f32 {
    // Points: x, then each hop's start and end.
    let mut points = vec![x];
    for &(from, to, _) in hops {
        points.extend([from, to]);
    }
    let mut dist = vec![f32::INFINITY; points.len()];
    let mut done = vec![false; points.len()];
    dist[0] = 0.0;
    let mut best = exact(walk, x, goal);
    for _ in 0..points.len() {
        let Some(u) = (0..points.len())
            .filter(|&i| !done[i] && dist[i].is_finite())
            .min_by(|&a, &b| dist[a].total_cmp(&dist[b]))
        else {
            break;
        };
        done[u] = true;
        if u > 0 {
            best = best.min(dist[u] + exact(walk, points[u], goal));
        }
        for v in 1..points.len() {
            let mut d = dist[u] + exact(walk, points[u], points[v]);
            // Taking hop k: from its start (point 2k + 1) to its end (2k + 2).
            if v % 2 == 0 && u == v - 1 {
                d = d.min(dist[u] + hops[(v - 2) / 2].2);
            }
            if d < dist[v] {
                dist[v] = d;
            }
        }
    }
    best
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn the_bound_never_exceeds_the_shortest_way(case in case()) {
        let Some((mesh, plain)) = case.meshes() else { return Ok(()) };
        let data = mesh.data();
        let Some(table) = data.landmarks() else { return Ok(()) };
        let mut walk = Query::new(&plain);
        let hops: Vec<(Vec3, Vec3, f32)> = data
            .polygon_ids()
            .flat_map(|p| data.links.hops_from(p).iter())
            .map(|hop| (hop.from, hop.to, data.links.cost[hop.link as usize]))
            .collect();
        for &g in &case.goals {
            let Some(goal) = case.centre(g) else { continue };
            let goal = goal + Vec3::new(0.2, 0.0, -0.1);
            let Some(near) = mesh.nearest_point(goal, 0.5, None) else { continue };
            let bounds = table.goal([near.polygon]);
            let check = |walk: &mut Query, node: u32, points: &[Vec3]| -> Result<(), TestCaseError> {
                let h = table.remaining(&bounds, node);
                let shortest = points
                    .iter()
                    .map(|&x| with_links(walk, &hops, x, near.point))
                    .fold(f32::INFINITY, f32::min);
                prop_assert!(
                    h <= shortest + 1e-4 * (1.0 + shortest),
                    "node {node}: bound {h} above the shortest way {shortest} to {goal}"
                );
                Ok(())
            };
            for p in data.polygon_ids() {
                for slot in data.corner_range(p) {
                    let node = table.slot_node(slot);
                    if node == NONE || (data.twin[slot] as usize) < slot {
                        continue;
                    }
                    let (u, w) = data.edge(p, slot);
                    let (a, b) = (data.vertices[u as usize], data.vertices[w as usize]);
                    // Inside the portal: at its ends a walk could slip into polygons
                    // that touch it only at a corner, which no search connects.
                    let points: Vec<Vec3> = [0.01, 0.25, 0.5, 0.75, 0.99].iter().map(|&t| a.lerp(b, t)).collect();
                    check(&mut walk, node, &points)?;
                }
            }
            for (hop, &(_, to, _)) in hops.iter().enumerate() {
                check(&mut walk, table.hop_node(hop as u32), &[to])?;
            }
        }
    }

    #[test]
    fn answers_hold_with_flags_filters_and_costs(
        case in case(),
        exclude in 0u32..4,
        costs in proptest::collection::vec(0.5f32..4.0, 3),
    ) {
        let Some((mesh, _)) = case.meshes() else { return Ok(()) };
        let mut filter = QueryFilter::default().with_exclude_flags(exclude);
        for (area, &cost) in costs.iter().enumerate() {
            filter = filter.with_area_cost(area as u8, cost);
        }
        let mut on = Query::new(&mesh);
        on.set_landmarks(true);
        let mut off = Query::new(&mesh);
        off.set_landmarks(false);
        for pair in case.goals.windows(2) {
            let (Some(a), Some(b)) = (case.centre(pair[0]), case.centre(pair[1])) else { continue };
            let exact = PathOptions { filter: filter.clone(), ..PathOptions::default() }
                .with_mode(PathMode::Optimal);
            let (x, y) = (on.find_path_vec(a, b, &exact), off.find_path_vec(a, b, &exact));
            prop_assert_eq!(x.is_ok(), y.is_ok());
            if let (Ok(x), Ok(y)) = (&x, &y) {
                prop_assert_eq!(x.status, y.status);
                prop_assert!((x.length() - y.length()).abs() <= 1e-4 * (1.0 + y.length()),
                    "exact mode: {} with landmarks, {} without", x.length(), y.length());
            }
            let default = PathOptions { filter: filter.clone(), ..PathOptions::default() };
            let (x, y) = (on.find_path_vec(a, b, &default), off.find_path_vec(a, b, &default));
            prop_assert_eq!(x.is_ok(), y.is_ok());
            if let (Ok(x), Ok(y)) = (x, y) {
                prop_assert_eq!(x.status, y.status);
                // Both are paths over the same polygons: never below the cheapest.
                let floor = filter.min_cost() * exact_length(&mut off, a, b, &filter);
                if x.status == PathStatus::Complete {
                    prop_assert!(x.cost >= floor * (1.0 - 1e-4) - 1e-4, "cost {} below {}", x.cost, floor);
                }
            }
        }
    }
}

/// The exact mode's length from `a` to `b` under `filter` (0 when there is none: no
/// floor then).
fn exact_length(query: &mut Query, a: Vec3, b: Vec3, filter: &QueryFilter) -> f32 {
    let options = PathOptions {
        filter: filter.clone(),
        ..PathOptions::default()
    }
    .with_mode(PathMode::Optimal);
    match query.find_path_vec(a, b, &options) {
        Ok(path) if path.status == PathStatus::Complete => path.length(),
        _ => 0.0,
    }
}
