//! Degenerate connectors (see [`crate::MeshOptions::allow_degenerate_connectors`]):
//! recognising them, checking them, and giving each the winding its neighbours need.

use std::collections::{HashMap, HashSet};

use glam::Vec2;

use super::validate::{MIN_RELATIVE_AREA, check_distinct_corners};
use crate::alloc::try_filled;
use crate::error::MeshError;
use crate::mesh::{NO_NEIGHBOUR, next_in};

/// Whether `corners` are three points on one line in the ground plane (to the same relative
/// tolerance under which [`normalise_polygon`](super::validate::normalise_polygon) calls a
/// polygon degenerate).
pub(super) fn is_collinear_triangle(corners: &[u32], ground: &[Vec2]) -> bool {
    if corners.len() != 3 {
        return false;
    }
    let [a, b, c] = [0, 1, 2].map(|i| ground[corners[i] as usize].as_dvec2());
    let area2 = (b - a).perp_dot(c - a);
    let longest2 = (b - a)
        .length_squared()
        .max((c - b).length_squared())
        .max((a - c).length_squared());
    area2.abs() <= longest2 * MIN_RELATIVE_AREA
}

/// Checks a degenerate connector: three distinct vertices (`corners`, after welding;
/// `given` as the caller wrote them) that are not all at one point.
pub(super) fn check_connector(
    polygon: u32,
    corners: &[u32],
    given: &[u32],
    ground: &[Vec2],
) -> Result<(), MeshError> {
    if let Err(repeated) = check_distinct_corners(polygon, corners) {
        let welded = given[0] != given[1] && given[1] != given[2] && given[2] != given[0];
        return Err(match repeated {
            MeshError::RepeatedVertex { vertex, .. } if welded => {
                MeshError::CollapsedConnector { polygon, vertex }
            }
            other => other,
        });
    }
    let point = |i: usize| ground[corners[i] as usize];
    if point(0) == point(1) && point(1) == point(2) {
        return Err(MeshError::DegeneratePolygon { polygon });
    }
    Ok(())
}

/// Gives each connector the winding its neighbours need: a neighbour walks a shared
/// edge one way, the connector the other. A connector has no area, so either winding
/// fits it; one whose neighbours need both is refused. Connectors next to connectors
/// take their winding from the first one wound (breadth-first, linear time); a group of
/// connectors that touches no polygon keeps the winding of its first member.
pub(super) fn orient_connectors(
    poly_start: &[u32],
    corners: &mut [u32],
    connectors: &[u32],
) -> Result<(), MeshError> {
    let oom = |_| MeshError::OutOfMemory("connector edges");
    let mut directed: HashSet<(u32, u32)> = HashSet::new();
    directed.try_reserve(corners.len()).map_err(oom)?;
    let mut next_connector = connectors.iter().peekable();
    for p in 0..poly_start.len() - 1 {
        if next_connector.next_if(|&&c| c == p as u32).is_some() {
            continue;
        }
        let (start, end) = (poly_start[p] as usize, poly_start[p + 1] as usize);
        for slot in start..end {
            directed.insert((corners[slot], corners[next_in(start..end, slot)]));
        }
    }
    let edges_of = |corners: &[u32], polygon: u32| {
        let first = poly_start[polygon as usize] as usize;
        let c = &corners[first..first + 3];
        [(c[0], c[1]), (c[1], c[2]), (c[2], c[0])]
    };
    // Which connectors use each undirected edge (at most two on a manifold mesh; a third
    // is reported by the neighbour search later).
    let mut users: HashMap<(u32, u32), [u32; 2]> = HashMap::new();
    users.try_reserve(3 * connectors.len()).map_err(oom)?;
    for (i, &polygon) in connectors.iter().enumerate() {
        for (a, b) in edges_of(corners, polygon) {
            let entry = users
                .entry((a.min(b), a.max(b)))
                .or_insert([NO_NEIGHBOUR; 2]);
            if entry[0] == NO_NEIGHBOUR {
                entry[0] = i as u32;
            } else {
                entry[1] = i as u32;
            }
        }
    }
    let mut wound = try_filled(connectors.len(), false, "connector edges")?;
    let mut queue = std::collections::VecDeque::new();
    queue.try_reserve(connectors.len()).map_err(oom)?;
    // Winds connector `i` against the edges known so far; false when nothing decides.
    let wind = |i: usize, corners: &mut [u32], directed: &mut HashSet<(u32, u32)>, seed: bool| {
        let polygon = connectors[i];
        let edges = edges_of(corners, polygon);
        let same = edges.iter().filter(|e| directed.contains(e)).count();
        let opposite = edges
            .iter()
            .filter(|&&(a, b)| directed.contains(&(b, a)))
            .count();
        match (same, opposite) {
            (0, 0) if !seed => return Ok(false),
            (0, _) => {}
            (_, 0) => {
                let first = poly_start[polygon as usize] as usize;
                corners[first..first + 3].reverse();
            }
            _ => return Err(MeshError::ConnectorSides { polygon }),
        }
        directed.extend(edges_of(corners, polygon));
        Ok(true)
    };
    for seed_pass in [false, true] {
        for start in 0..connectors.len() {
            if wound[start] || !wind(start, corners, &mut directed, seed_pass)? {
                continue;
            }
            wound[start] = true;
            queue.push_back(start);
            while let Some(i) = queue.pop_front() {
                for (a, b) in edges_of(corners, connectors[i]) {
                    for j in users[&(a.min(b), a.max(b))] {
                        let j = j as usize;
                        if j != NO_NEIGHBOUR as usize
                            && !wound[j]
                            && wind(j, corners, &mut directed, false)?
                        {
                            wound[j] = true;
                            queue.push_back(j);
                        }
                    }
                }
            }
        }
    }
    Ok(())
}
