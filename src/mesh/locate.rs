//! A bounding-volume hierarchy over polygon boxes: nearest-point queries in logarithmic
//! time for compact queries, without allocating.

use glam::{Vec2, Vec3};

use crate::alloc::{try_collect, try_vec_with_capacity};
use crate::error::MeshError;
use crate::geometry::{Aabb, UpAxis};

/// Polygons per leaf.
const LEAF_SIZE: usize = 4;
/// Median splits halve the polygon count at each level, so 2^32 polygons need < 40 levels.
pub(crate) const MAX_DEPTH: usize = 64;

/// A BVH over the polygons' 3D bounding boxes. Nodes are stored depth-first: an inner
/// node's left child directly follows it, its right child is at `right_or_first`.
pub(crate) struct PolygonIndex {
    pub(crate) nodes: Vec<Node>,
    pub(crate) polygons: Vec<u32>,
    /// The box of each entry of `polygons`, so that a leaf skips polygons farther than
    /// the best found without computing their closest points.
    pub(crate) polygon_bounds: Vec<Aabb>,
}

/// A node of the [`PolygonIndex`].
pub(crate) struct Node {
    pub(crate) bounds: Aabb,
    /// Inner node: index of the right child. Leaf: first entry in `polygons`.
    pub(crate) right_or_first: u32,
    /// 0 for an inner node, else the number of polygons in the leaf.
    pub(crate) count: u32,
}

impl PolygonIndex {
    /// Builds the hierarchy by median splits along the longest axis of the centres.
    ///
    /// # Errors
    /// [`MeshError::OutOfMemory`] if the nodes do not fit in memory.
    pub fn build(polygon_bounds: &[Aabb]) -> Result<PolygonIndex, MeshError> {
        let n = polygon_bounds.len();
        // Median splits of more than LEAF_SIZE items leave at least 2 items on each
        // side, so (for n >= 2) every leaf holds 2 or more polygons: at most n / 2 leaves
        // and n - 1 nodes. Reserving n nodes up front means the pushes never reallocate.
        let mut index = PolygonIndex {
            nodes: try_vec_with_capacity(n.max(1), "polygon index")?,
            polygons: Vec::new(),
            polygon_bounds: Vec::new(),
        };
        let mut items = try_collect(n, 0..n as u32, "polygon index")?;
        // The centres once, not at every comparison of every level's median split.
        let centres = try_collect(
            n,
            polygon_bounds.iter().map(|b| b.center()),
            "polygon index",
        )?;
        index.build_node(polygon_bounds, &centres, &mut items, 0);
        debug_assert!(index.nodes.len() <= n.max(1));
        index.polygon_bounds = try_collect(
            n,
            items.iter().map(|&p| polygon_bounds[p as usize]),
            "polygon index",
        )?;
        index.polygons = items;
        Ok(index)
    }

    /// Builds the node of `items` (their boxes `boxes`, centres `centres`, by polygon),
    /// the first of which is entry `first` of `polygons`; returns its id. An inner node's
    /// box is the union of its children's, so each box is folded once, in its leaf.
    fn build_node(
        &mut self,
        boxes: &[Aabb],
        centres: &[Vec3],
        items: &mut [u32],
        first: u32,
    ) -> u32 {
        let id = self.nodes.len() as u32;
        if items.len() <= LEAF_SIZE {
            let bounds = items
                .iter()
                .fold(Aabb::EMPTY, |b, &p| b.union(boxes[p as usize]));
            self.nodes.push(Node {
                bounds,
                right_or_first: first,
                count: items.len() as u32,
            });
            return id;
        }
        self.nodes.push(Node {
            bounds: Aabb::EMPTY,
            right_or_first: 0,
            count: 0,
        });
        let spread = Aabb::from_points(items.iter().map(|&p| centres[p as usize]));
        let extent = spread.max - spread.min;
        let axis = if extent.x >= extent.y && extent.x >= extent.z {
            0
        } else if extent.y >= extent.z {
            1
        } else {
            2
        };
        let mid = items.len() / 2;
        items.select_nth_unstable_by(mid, |&a, &b| {
            centres[a as usize][axis].total_cmp(&centres[b as usize][axis])
        });
        let (left, right) = items.split_at_mut(mid);
        let left_id = self.build_node(boxes, centres, left, first);
        let right_id = self.build_node(boxes, centres, right, first + mid as u32);
        let bounds = self.nodes[left_id as usize]
            .bounds
            .union(self.nodes[right_id as usize].bounds);
        let node = &mut self.nodes[id as usize];
        node.right_or_first = right_id;
        node.bounds = bounds;
        id
    }

    /// Finds the polygon whose closest point to `p` is nearest, among those for which
    /// `closest` returns a point, within squared distance `limit_sq`. Returns the polygon,
    /// the point and the squared distance.
    pub fn nearest(
        &self,
        p: Vec3,
        limit_sq: f32,
        closest: impl Fn(u32) -> Option<Vec3>,
    ) -> Option<(u32, Vec3, f32)> {
        let mut best: Option<(u32, Vec3, f32)> = None;
        let mut best_sq = limit_sq;
        let mut stack = [0u32; MAX_DEPTH];
        let mut depth = 1usize;
        while depth > 0 {
            depth -= 1;
            let node = &self.nodes[stack[depth] as usize];
            if node.bounds.distance_squared(p) > best_sq {
                continue;
            }
            if node.count > 0 {
                let first = node.right_or_first as usize;
                let entries = first..first + node.count as usize;
                for (&polygon, bounds) in self.polygons[entries.clone()]
                    .iter()
                    .zip(&self.polygon_bounds[entries])
                {
                    if bounds.distance_squared(p) > best_sq {
                        continue;
                    }
                    if let Some(q) = closest(polygon) {
                        let d = q.distance_squared(p);
                        if d <= best_sq && best.is_none_or(|(_, _, bd)| d < bd) {
                            best_sq = d;
                            best = Some((polygon, q, d));
                            if d == 0.0 {
                                // Nothing is nearer, and ties keep the first found.
                                return best;
                            }
                        }
                    }
                }
                continue;
            }
            let left = stack[depth] + 1;
            let right = node.right_or_first;
            let dl = self.nodes[left as usize].bounds.distance_squared(p);
            let dr = self.nodes[right as usize].bounds.distance_squared(p);
            // Push the farther child first so the nearer one is searched first.
            let (near, far) = if dl <= dr {
                (left, right)
            } else {
                (right, left)
            };
            stack[depth] = far;
            stack[depth + 1] = near;
            depth += 2;
        }
        best
    }
}

impl PolygonIndex {
    /// Appends to `out` every polygon whose box meets the ground-plane rectangle
    /// `low..=high` (touching counts), projected with `up`; in no particular order.
    pub fn meeting_ground(&self, up: UpAxis, low: Vec2, high: Vec2, out: &mut Vec<u32>) {
        let meets = |b: &Aabb| {
            let (lo, hi) = (up.ground(b.min), up.ground(b.max));
            lo.x <= high.x && lo.y <= high.y && hi.x >= low.x && hi.y >= low.y
        };
        if self.nodes.is_empty() {
            return;
        }
        let mut stack = [0u32; MAX_DEPTH];
        let mut depth = 1usize;
        while depth > 0 {
            depth -= 1;
            let id = stack[depth];
            let node = &self.nodes[id as usize];
            if !meets(&node.bounds) {
                continue;
            }
            if node.count > 0 {
                let first = node.right_or_first as usize;
                let entries = first..first + node.count as usize;
                for (&polygon, bounds) in self.polygons[entries.clone()]
                    .iter()
                    .zip(&self.polygon_bounds[entries])
                {
                    if meets(bounds) {
                        out.push(polygon);
                    }
                }
                continue;
            }
            // The left child follows its parent; the right one is named.
            stack[depth] = id + 1;
            stack[depth + 1] = node.right_or_first;
            depth += 2;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_nearest_box_among_many() {
        let boxes: Vec<Aabb> = (0..1000)
            .map(|i| {
                let c = Vec3::new((i % 40) as f32, 0.0, (i / 40) as f32);
                Aabb::from_points([c, c + Vec3::new(0.5, 0.0, 0.5)])
            })
            .collect();
        let index = PolygonIndex::build(&boxes).unwrap();
        let p = Vec3::new(10.2, 0.0, 7.3);
        let closest = |poly: u32| {
            let b = boxes[poly as usize];
            Some(p.clamp(b.min, b.max))
        };
        let (poly, q, d) = index.nearest(p, f32::INFINITY, closest).unwrap();
        assert_eq!(poly, 7 * 40 + 10);
        assert_eq!(q, Vec3::new(10.2, 0.0, 7.3));
        assert_eq!(d, 0.0);
        assert!(
            index
                .nearest(Vec3::new(100.0, 0.0, 100.0), 1.0, closest)
                .is_none()
        );
    }

    #[test]
    fn finds_every_box_meeting_a_ground_rectangle() {
        // Boxes of assorted sizes, on both up axes; rectangles touching, inside, outside.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % 10_000) as f32 / 100.0
        };
        for up in [UpAxis::Y, UpAxis::Z] {
            let boxes: Vec<Aabb> = (0..300)
                .map(|_| {
                    let (x, z, w, h) = (next(), next(), next() / 20.0, next() / 20.0);
                    let height = next();
                    Aabb::from_points([
                        up.place(Vec2::new(x, z), height),
                        up.place(Vec2::new(x + w, z + h), height + 1.0),
                    ])
                })
                .collect();
            let index = PolygonIndex::build(&boxes).unwrap();
            for _ in 0..50 {
                let low = Vec2::new(next(), next());
                let high = low + Vec2::new(next() / 5.0, next() / 5.0);
                let mut found = Vec::new();
                index.meeting_ground(up, low, high, &mut found);
                found.sort_unstable();
                let expected: Vec<u32> = (0..boxes.len() as u32)
                    .filter(|&p| {
                        let b = boxes[p as usize];
                        let (lo, hi) = (up.ground(b.min), up.ground(b.max));
                        lo.x <= high.x && lo.y <= high.y && hi.x >= low.x && hi.y >= low.y
                    })
                    .collect();
                assert_eq!(found, expected);
            }
            // A rectangle touching a box's corner finds it.
            let b = boxes[0];
            let corner = up.ground(b.max);
            let mut found = Vec::new();
            index.meeting_ground(up, corner, corner + Vec2::ONE, &mut found);
            assert!(found.contains(&0));
        }
    }
}
