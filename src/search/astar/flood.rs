//! The reachability flood: Dijkstra's order over the same nodes, without a target,
//! bounded by a cost, listing each polygon when it is first closed.

use glam::Vec3;

use super::open::SearchStrategy;
use super::{AStar, Context, NONE};
use crate::filter::QueryFilter;
use crate::mesh::MeshData;
use crate::search::map::Slot;

/// A polygon reached by [`crate::Query::reachable_polygons`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReachedPolygon {
    /// The polygon.
    pub polygon: u32,
    /// The cost of the cheapest way into it found, in cost units (world length times
    /// area costs).
    pub cost: f32,
    /// The polygon it is entered from; `None` for the start polygon.
    pub parent: Option<u32>,
}

impl AStar {
    /// Lists the polygons reachable from `start` (in `start_polygon`) at a cost of at most
    /// `max_cost`, cheapest first, with the cost of the cheapest way found into each (a
    /// lower bound of the walked cost, exact where the way in is straight) and the
    /// polygon it was entered from.
    pub fn flood(
        &mut self,
        mesh: &MeshData,
        start_polygon: u32,
        start: Vec3,
        filter: &QueryFilter,
        max_cost: f32,
        out: &mut Vec<ReachedPolygon>,
    ) {
        out.clear();
        let ctx = Context {
            targets: &[],
            filter,
            strategy: SearchStrategy::Dijkstra,
            weight: 0.0,
            scale: filter.min_cost(),
            uniform: filter.is_uniform(),
            sampled: false,
            max_cost,
            needs_cost: true,
            within: None,
            alternates: false,
            landmarks: None,
        };
        self.listed.clear();
        self.begin(mesh, &ctx, start_polygon, start);
        let mut reopen_budget = super::element_count(mesh);
        while let Some(entry) = self.open.pop() {
            let index = entry.node;
            let node = self.nodes[index as usize];
            if node.closed || entry.estimate != node.estimate {
                continue;
            }
            self.nodes[index as usize].closed = true;
            if let Slot::Vacant(bucket) = self.listed.find(node.polygon)
                && self.listed.insert_at(bucket, node.polygon, 0)
            {
                let parent =
                    (node.parent != NONE).then(|| self.nodes[node.parent as usize].polygon);
                out.push(ReachedPolygon {
                    polygon: node.polygon,
                    cost: node.cost,
                    parent,
                });
            }
            self.expanded = self.expanded.saturating_add(1);
            self.expand(mesh, &ctx, index, &mut reopen_budget);
            if self.cut {
                // The node limit: the list holds the polygons found so far.
                break;
            }
        }
    }
}
