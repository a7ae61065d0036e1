//! Paths without a search: the start and goal in one polygon, or in direct sight over
//! polygons of the cheapest area, when no off-mesh link could do better.

use glam::Vec3;

use super::PathOptions;
use crate::filter::QueryFilter;
use crate::mesh::{MeshData, NearestPoint, WalkEnd};

/// The cost of walking straight from `start` to `target`, when that is the best path:
/// the segment stays on polygons the filter admits, all of the cheapest area, and no
/// off-mesh link could do better. `None` when a search is needed.
pub(super) fn direct_cost(
    mesh: &MeshData,
    start: &NearestPoint,
    target: &NearestPoint,
    options: &PathOptions,
) -> Option<f32> {
    let filter = &options.filter;
    let length = start.point.distance(target.point);
    let cost = if start.polygon == target.polygon {
        // Within one convex polygon the segment is the corridor's pulled path.
        filter.cost(mesh.areas[start.polygon as usize]) * length
    } else {
        let scale = filter.min_cost();
        let cheapest = |p: u32| filter.cost(mesh.areas[p as usize]) == scale;
        if !cheapest(start.polygon)
            || options.split_at_area_changes
            || !in_direct_sight(mesh, start, target, |p| {
                filter.admits(mesh.flags_of(p)) && cheapest(p)
            })
        {
            return None;
        }
        scale * length
    };
    (!link_may_be_cheaper(mesh, start.point, target.point, filter, cost)).then_some(cost)
}

/// Whether some admitted off-mesh link could give a path from `start` to `target`
/// cheaper than `cost`: walking to its start and from its end at the smallest area cost,
/// plus its own cost, is a lower bound of any path through it.
fn link_may_be_cheaper(
    mesh: &MeshData,
    start: Vec3,
    target: Vec3,
    filter: &QueryFilter,
    cost: f32,
) -> bool {
    let scale = filter.min_cost();
    mesh.links.hops.iter().any(|hop| {
        let link = hop.link as usize;
        filter.admits(mesh.links.flags(hop.link))
            && scale * (start.distance(hop.from) + hop.to.distance(target))
                + mesh.links.cost[link] * filter.cost(mesh.links.area[link])
                < cost
    })
}

/// Whether the straight segment from `start` to `target` stays on polygons for which
/// `passable` holds.
pub(super) fn in_direct_sight(
    mesh: &MeshData,
    start: &NearestPoint,
    target: &NearestPoint,
    passable: impl Fn(u32) -> bool,
) -> bool {
    let up = mesh.up;
    match mesh.walk_straight(
        start.polygon,
        up.ground(start.point),
        up.ground(target.point),
        passable,
    ) {
        WalkEnd::Reached(polygon) if polygon == target.polygon => true,
        // A target on a shared edge or vertex belongs to several polygons, and the walk
        // may end in another one than the snap chose. It counts if it holds the target
        // point itself (in 3D: a polygon of another storey above or below the target
        // does not).
        WalkEnd::Reached(polygon) => {
            let scale = target.point.abs().max_element().max(1.0);
            let tolerance = scale * f32::EPSILON * 8.0;
            mesh.closest_point_on_polygon(polygon, target.point)
                .distance_squared(target.point)
                <= tolerance * tolerance
        }
        WalkEnd::Blocked { .. } => false,
    }
}
