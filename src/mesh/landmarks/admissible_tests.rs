//! The landmark bound is admissible on random meshes: from points all along every
//! portal it never exceeds the shortest way to a random goal point, measured by the
//! exact mode (itself checked against a visibility-graph oracle in `tests/paths`); a
//! mesh with off-mesh links gets no table; and with random flags, filters and area
//! costs (on meshes with and without links), the exact mode's answer is the same with
//! and without landmarks and the default mode's paths keep their status and are never
//! cheaper than the smallest cost times the exact length.

use glam::Vec3;
use proptest::prelude::*;

use super::NO_PORTAL as NONE;
use crate::{MeshInput, MeshOptions, NavMesh, OffMeshLink, PathMode, PathOptions, PathStatus};
use crate::{Query, QueryFilter};
use glam::Vec2;

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
    /// One square per walkable cell instead of two jittered triangles (ways then reach
    /// a portal's points through the inside of a polygon without crossing the portal).
    quads: bool,
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
            any::<bool>(),
        )
            .prop_map(
                move |(walkable, diagonal, jitter, links, areas, flags, goals, quads)| Case {
                    w,
                    h,
                    walkable,
                    diagonal,
                    jitter,
                    links,
                    areas,
                    flags,
                    goals,
                    quads,
                },
            )
    })
}

impl Case {
    fn vertices(&self) -> Vec<Vec3> {
        let mut v = Vec::new();
        for j in 0..=self.h {
            for i in 0..=self.w {
                let (dx, dz) = if self.quads {
                    (0.0, 0.0)
                } else {
                    self.jitter[(j * (self.w + 1) + i) as usize]
                };
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
                if self.quads {
                    indices.extend([a, b, cc, d]);
                } else if self.diagonal[c] {
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

    /// The mesh with the links, and the same mesh (areas and flags) without them;
    /// `None` when the grid has no walkable cell.
    fn meshes(&self) -> Option<(NavMesh, NavMesh)> {
        let (vertices, indices) = (self.vertices(), self.indices());
        if indices.is_empty() {
            return None;
        }
        let corners = if self.quads { 4 } else { 3 };
        let n = indices.len() / corners;
        let sizes = vec![corners as u32; n];
        let links = self.links();
        let input = MeshInput::new(&vertices, &indices)
            .with_polygon_sizes(&sizes)
            .with_areas(&self.areas[..n])
            .with_flags(&self.flags[..n])
            .with_links(&links);
        let options = MeshOptions::default();
        let with = NavMesh::from_input(&input, &options).ok()?;
        let input = MeshInput::new(&vertices, &indices)
            .with_polygon_sizes(&sizes)
            .with_areas(&self.areas[..n])
            .with_flags(&self.flags[..n]);
        let without = NavMesh::from_input(&input, &options).ok()?;
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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn the_bound_never_exceeds_the_shortest_way(case in case(), offset in (-0.3f32..0.3, -0.3f32..0.3)) {
        let Some((linked, mesh)) = case.meshes() else { return Ok(()) };
        // A mesh with off-mesh links gets no table (links could be shortcuts).
        if linked.data().links.hop_count() > 0 {
            prop_assert!(!linked.prepare_landmarks());
        }
        let data = mesh.data();
        let Some(table) = crate::search::landmarks::table(data) else { return Ok(()) };
        let mut walk = Query::new(&mesh);
        for &g in &case.goals {
            let Some(goal) = case.centre(g) else { continue };
            let goal = goal + Vec3::new(offset.0, 0.0, offset.1);
            let Some(near) = mesh.nearest_point(goal, 0.5, None) else { continue };
            let point = Vec2::new(near.point.x, near.point.z).as_dvec2();
            let bounds = table.goal(data, [near.polygon], point);
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
                    let h = table.remaining(&bounds, node);
                    let shortest = [0.01, 0.25, 0.5, 0.75, 0.99]
                        .iter()
                        .map(|&t| exact(&mut walk, a.lerp(b, t), near.point))
                        .fold(f32::INFINITY, f32::min);
                    prop_assert!(
                        h <= shortest + 1e-4 * (1.0 + shortest),
                        "portal {node}: bound {h} above the shortest way {shortest} to {goal}"
                    );
                }
            }
        }
    }

    #[test]
    fn answers_hold_with_flags_filters_and_costs(
        case in case(),
        exclude in 0u32..4,
        costs in proptest::collection::vec(0.5f32..4.0, 3),
    ) {
        let Some((linked, plain)) = case.meshes() else { return Ok(()) };
        for mesh in [&plain, &linked] {
        let mut filter = QueryFilter::default().with_exclude_flags(exclude);
        for (area, &cost) in costs.iter().enumerate() {
            filter = filter.with_area_cost(area as u8, cost);
        }
        let mut on = Query::new(mesh);
        on.set_landmarks(true);
        let mut off = Query::new(mesh);
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
                // Both are paths over the same polygons: never below the cheapest
                // (off-mesh links may be cheaper than walking).
                let floor = filter.min_cost() * exact_length(&mut off, a, b, &filter);
                if x.status == PathStatus::Complete && std::ptr::eq(mesh, &plain) {
                    prop_assert!(x.cost >= floor * (1.0 - 1e-4) - 1e-4, "cost {} below {}", x.cost, floor);
                }
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
