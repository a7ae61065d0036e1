//! Checking the saved spatial index (see [`crate::mesh::locate`]) against the polygons'
//! boxes.

use glam::Vec3;

use super::BinaryError;
use super::check::Located;
use crate::alloc::{try_collect, try_filled};
use crate::error::MeshError;
use crate::geometry::Aabb;
use crate::mesh::PolygonIndex;
use crate::mesh::locate::{MAX_DEPTH, Node};

/// The spatial index: entries are a permutation of the polygons with their exact boxes;
/// nodes are stored depth-first, every leaf takes the next entries, every box contains
/// its children's, and the tree is shallow enough for the search's fixed stack.
pub(super) fn check_index(
    nodes: &Located<(Aabb, u32, u32)>,
    entries: &Located<(u32, Aabb)>,
    polygon_bounds: &[Aabb],
) -> Result<PolygonIndex, BinaryError> {
    let polygon_count = polygon_bounds.len();
    entries.expect_len(polygon_count, "polygons")?;
    let mut seen = try_filled(polygon_count, false, "index entries")?;
    for (i, &(p, bounds)) in entries.items.iter().enumerate() {
        if p as usize >= polygon_count || seen[p as usize] {
            return Err(entries.invalid(i, format!("polygon {p} is out of range or repeated")));
        }
        seen[p as usize] = true;
        if bounds != polygon_bounds[p as usize] {
            return Err(entries.invalid(i, format!("box is not the box of polygon {p}")));
        }
    }
    if nodes.items.is_empty() || nodes.items.len() > polygon_count.max(1) {
        return Err(BinaryError::Layout {
            section: nodes.section.name,
            offset: nodes.offset,
            reason: format!("{} nodes for {polygon_count} polygons", nodes.items.len()),
        });
    }
    let contains = |outer: Aabb, inner: Aabb| {
        outer.min.cmple(inner.min).all() && outer.max.cmpge(inner.max).all()
    };
    // Depth-first order: the stack holds (node, depth, parent box) of nodes to visit;
    // each must be the next node of the array.
    let mut next_node = 0usize;
    let mut next_entry = 0usize;
    let mut stack = Vec::new();
    let whole = Aabb {
        min: Vec3::NEG_INFINITY,
        max: Vec3::INFINITY,
    };
    stack.push((0u32, 0usize, whole));
    while let Some((id, depth, parent)) = stack.pop() {
        let i = id as usize;
        if i != next_node || i >= nodes.items.len() {
            return Err(nodes.invalid(
                next_node.min(nodes.items.len() - 1),
                "nodes are not in depth-first order",
            ));
        }
        next_node += 1;
        let (bounds, right_or_first, count) = nodes.items[i];
        if !contains(parent, bounds) {
            return Err(nodes.invalid(i, "box is not inside its parent's"));
        }
        if depth + 2 >= MAX_DEPTH {
            return Err(nodes.invalid(i, "the tree is too deep"));
        }
        if count > 0 {
            let first = right_or_first as usize;
            let end = first.saturating_add(count as usize);
            if first != next_entry || end > polygon_count {
                return Err(nodes.invalid(i, "leaf does not hold the next entries"));
            }
            for &(_, entry) in &entries.items[first..end] {
                if !contains(bounds, entry) {
                    return Err(nodes.invalid(i, "box does not contain its polygons"));
                }
            }
            next_entry = end;
            continue;
        }
        let right = right_or_first;
        if right as usize <= i + 1 {
            return Err(nodes.invalid(i, format!("right child {right} is not after the left")));
        }
        stack
            .try_reserve(2)
            .map_err(|_| MeshError::OutOfMemory("index nodes"))?;
        stack.push((right, depth + 1, bounds));
        stack.push((id + 1, depth + 1, bounds));
    }
    if next_node != nodes.items.len() || next_entry != polygon_count {
        return Err(nodes.invalid(
            next_node.min(nodes.items.len() - 1),
            "the tree does not cover every node and entry",
        ));
    }
    Ok(PolygonIndex {
        nodes: try_collect(
            nodes.items.len(),
            nodes
                .items
                .iter()
                .map(|&(bounds, right_or_first, count)| Node {
                    bounds,
                    right_or_first,
                    count,
                }),
            "index nodes",
        )?,
        polygons: try_collect(
            polygon_count,
            entries.items.iter().map(|e| e.0),
            "index entries",
        )?,
        polygon_bounds: try_collect(
            polygon_count,
            entries.items.iter().map(|e| e.1),
            "index entries",
        )?,
    })
}
