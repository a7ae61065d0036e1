//! The polygon index of a mesh made from the index of the mesh it replaces, when most
//! polygons are kept (a tile carved again by an obstacle): the entries of kept polygons
//! are renumbered in place, and only the smallest subtree holding every entry of a
//! polygon that went is built again, over its kept entries and the new polygons; its
//! ancestors' boxes are refitted. The tree is not the one [`PolygonIndex::build`] makes
//! of the new boxes, but has its properties: every polygon once, every entry with its
//! polygon's box, every node's box the union of what is below it, leaves of at most
//! four entries (see [`PolygonIndex::check`]).

use super::locate::{MAX_DEPTH, Node, PolygonIndex};
use crate::error::MeshError;
use crate::geometry::Aabb;

/// In `new_of_old`: the old polygon is not in the new mesh.
const GONE: u32 = u32::MAX;

impl PolygonIndex {
    /// The index of a mesh whose polygons have boxes `boxes`, made from `old`, the
    /// index of the mesh it replaces: `new_of_old` gives per old polygon its number in
    /// the new mesh (or `u32::MAX`), and the polygons no old one maps to are new. `None`
    /// when patching would not pay (no polygon went, or the subtree to build again holds
    /// most of the tree) or would make the tree too deep: build the index instead.
    ///
    /// # Errors
    /// [`MeshError::OutOfMemory`] if the tables do not fit in memory.
    pub fn patched(
        old: &PolygonIndex,
        new_of_old: &[u32],
        boxes: &[Aabb],
    ) -> Result<Option<PolygonIndex>, MeshError> {
        let n = old.polygons.len();
        if old.nodes.is_empty() || n != new_of_old.len() {
            return Ok(None);
        }
        // The entries of polygons that went, as a range of entries.
        let gone = |e: usize| new_of_old[old.polygons[e] as usize] == GONE;
        let Some(low) = (0..n).find(|&e| gone(e)) else {
            return Ok(None);
        };
        let high = (0..n).rev().find(|&e| gone(e)).unwrap_or(low);
        // The lowest node whose entries cover low..=high, and the path to it.
        let mut path: Vec<u32> = Vec::new();
        let (mut id, mut start, mut end) = (0u32, 0usize, n);
        loop {
            let node = &old.nodes[id as usize];
            if node.count > 0 {
                break;
            }
            let split = old.first_entry(node.right_or_first);
            if high < split {
                path.push(id);
                (id, end) = (id + 1, split);
            } else if low >= split {
                path.push(id);
                (id, start) = (node.right_or_first, split);
            } else {
                break;
            }
        }
        if path.len() + 1 >= MAX_DEPTH / 2 || 2 * (end - start) > n {
            return Ok(None);
        }
        // The new polygons, and the kept ones of the subtree.
        let mut is_new = vec![true; boxes.len()];
        for &to in new_of_old {
            if to != GONE {
                *is_new.get_mut(to as usize).ok_or(MeshError::InvalidOption(
                    "a polygon index patch names a polygon beyond the mesh",
                ))? = false;
            }
        }
        let mut items: Vec<u32> = (start..end)
            .map(|e| new_of_old[old.polygons[e] as usize])
            .filter(|&p| p != GONE)
            .collect();
        items.extend((0..boxes.len() as u32).filter(|&p| is_new[p as usize]));
        if items.is_empty() {
            return Ok(None);
        }
        let item_boxes: Vec<Aabb> = items.iter().map(|&p| boxes[p as usize]).collect();
        let sub = PolygonIndex::build(&item_boxes)?;
        if path.len() + sub.depth() >= MAX_DEPTH - 1 {
            return Ok(None);
        }

        // Nodes: those before the subtree, its new nodes, those after; ids and entry
        // numbers after the subtree shift.
        let old_end = old.subtree_end(id);
        let node_shift = sub.nodes.len() as i64 - (old_end - id as usize) as i64;
        let entry_shift = items.len() as i64 - (end - start) as i64;
        let moved = |v: u32, past: usize, by: i64| {
            if v as usize >= past {
                (v as i64 + by) as u32
            } else {
                v
            }
        };
        let mut nodes = Vec::with_capacity((old.nodes.len() as i64 + node_shift) as usize);
        let shift = |node: &Node| Node {
            bounds: node.bounds,
            right_or_first: if node.count > 0 {
                moved(node.right_or_first, end, entry_shift)
            } else {
                moved(node.right_or_first, old_end, node_shift)
            },
            count: node.count,
        };
        nodes.extend(old.nodes[..id as usize].iter().map(shift));
        nodes.extend(sub.nodes.iter().map(|node| Node {
            bounds: node.bounds,
            right_or_first: node.right_or_first + if node.count > 0 { start as u32 } else { id },
            count: node.count,
        }));
        nodes.extend(old.nodes[old_end..].iter().map(shift));
        let renumber = |e: usize| new_of_old[old.polygons[e] as usize];
        let mut polygons = Vec::with_capacity(boxes.len());
        polygons.extend((0..start).map(renumber));
        polygons.extend(sub.polygons.iter().map(|&i| items[i as usize]));
        polygons.extend((end..n).map(renumber));
        let polygon_bounds = polygons.iter().map(|&p| boxes[p as usize]).collect();
        let mut index = PolygonIndex {
            nodes,
            polygons,
            polygon_bounds,
        };
        // The ancestors' boxes, from the lowest up.
        for &a in path.iter().rev() {
            let right = index.nodes[a as usize].right_or_first as usize;
            let bounds = index.nodes[a as usize + 1]
                .bounds
                .union(index.nodes[right].bounds);
            index.nodes[a as usize].bounds = bounds;
        }
        Ok(Some(index))
    }

    /// The first entry of the subtree of node `id`.
    fn first_entry(&self, mut id: u32) -> usize {
        while self.nodes[id as usize].count == 0 {
            id += 1;
        }
        self.nodes[id as usize].right_or_first as usize
    }

    /// The node after the subtree of node `id` (depth-first order).
    fn subtree_end(&self, mut id: u32) -> usize {
        while self.nodes[id as usize].count == 0 {
            id = self.nodes[id as usize].right_or_first;
        }
        id as usize + 1
    }

    /// The number of levels of the tree (1 for a single leaf).
    fn depth(&self) -> usize {
        let mut deepest = 0;
        let mut stack = vec![(0u32, 1usize)];
        while let Some((id, level)) = stack.pop() {
            deepest = deepest.max(level);
            let node = &self.nodes[id as usize];
            if node.count == 0 {
                stack.push((id + 1, level + 1));
                stack.push((node.right_or_first, level + 1));
            }
        }
        deepest
    }

    /// Checks the index against the boxes of the mesh's polygons: every polygon in one
    /// entry, with its box; leaves of one to four entries; every node's box the union of
    /// its entries' or children's; children after their parent; depth below
    /// [`MAX_DEPTH`]. The first failure, named.
    #[cfg(any(test, debug_assertions))]
    pub(crate) fn check(&self, boxes: &[Aabb]) -> Result<(), String> {
        let mut seen = vec![false; boxes.len()];
        if self.polygons.len() != boxes.len() || self.polygon_bounds.len() != boxes.len() {
            return Err(format!(
                "{} entries for {} polygons",
                self.polygons.len(),
                boxes.len()
            ));
        }
        for (e, &p) in self.polygons.iter().enumerate() {
            match seen.get_mut(p as usize) {
                Some(s) if !*s => *s = true,
                _ => return Err(format!("entry {e}: polygon {p} twice or beyond the mesh")),
            }
            if self.polygon_bounds[e] != boxes[p as usize] {
                return Err(format!("entry {e}: not the box of polygon {p}"));
            }
        }
        let mut covered = vec![false; self.polygons.len()];
        let mut stack = vec![(0u32, 1usize)];
        while let Some((id, level)) = stack.pop() {
            if level >= MAX_DEPTH {
                return Err(format!("node {id} at depth {level}"));
            }
            let node = self.nodes.get(id as usize).ok_or(format!("no node {id}"))?;
            let union = if node.count > 0 {
                let first = node.right_or_first as usize;
                if node.count > 4 || first + node.count as usize > self.polygons.len() {
                    return Err(format!("leaf {id}: entries {first} + {}", node.count));
                }
                for c in &mut covered[first..first + node.count as usize] {
                    if std::mem::replace(c, true) {
                        return Err(format!("leaf {id}: an entry of another leaf"));
                    }
                }
                self.polygon_bounds[first..first + node.count as usize]
                    .iter()
                    .fold(Aabb::EMPTY, |b, &c| b.union(c))
            } else {
                let right = node.right_or_first;
                if right <= id + 1 || right as usize >= self.nodes.len() {
                    return Err(format!("node {id}: right child {right}"));
                }
                stack.push((id + 1, level + 1));
                stack.push((right, level + 1));
                self.nodes[id as usize + 1]
                    .bounds
                    .union(self.nodes[right as usize].bounds)
            };
            if union != node.bounds {
                return Err(format!("node {id}: its box is not the union below it"));
            }
        }
        if let Some(e) = covered.iter().position(|&c| !c) {
            return Err(format!("entry {e} is in no leaf"));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use glam::Vec3;
    use proptest::prelude::*;

    use super::*;

    /// A box of side `size` at `(x, z)`.
    fn cell(x: f32, z: f32, size: f32) -> Aabb {
        Aabb::from_points([Vec3::new(x, 0.0, z), Vec3::new(x + size, 0.5, z + size)])
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]
        #[test]
        fn a_patched_index_is_valid_and_finds_what_a_built_one_finds(
            side in 3u32..40,
            gone in prop::collection::vec(any::<prop::sample::Index>(), 1..20),
            fresh in prop::collection::vec((0.0f32..40.0, 0.0f32..40.0, 0.1f32..2.0), 0..30),
            probes in prop::collection::vec((-5.0f32..45.0, -5.0f32..45.0), 10),
        ) {
            let old_boxes: Vec<Aabb> = (0..side * side)
                .map(|i| cell((i % side) as f32, (i / side) as f32, 1.0))
                .collect();
            let old = PolygonIndex::build(&old_boxes).unwrap();
            // Some polygons go (near each other: a block of the grid), the others keep
            // their boxes under new numbers (reversed), new ones come after them.
            let first = gone[0].index(old_boxes.len());
            let (x0, z0) = (first % side as usize, first / side as usize);
            let mut new_of_old = vec![0u32; old_boxes.len()];
            for g in &gone {
                let d = g.index(9);
                let (x, z) = ((x0 + d % 3).min(side as usize - 1), (z0 + d / 3).min(side as usize - 1));
                new_of_old[x + z * side as usize] = GONE;
            }
            let kept: Vec<usize> = (0..old_boxes.len()).filter(|&p| new_of_old[p] != GONE).collect();
            let mut boxes = Vec::new();
            for (i, &p) in kept.iter().enumerate().rev() {
                new_of_old[p] = (kept.len() - 1 - i) as u32;
            }
            boxes.resize(kept.len(), Aabb::EMPTY);
            for &p in &kept {
                boxes[new_of_old[p] as usize] = old_boxes[p];
            }
            boxes.extend(fresh.iter().map(|&(x, z, s)| cell(x, z, s)));
            prop_assume!(!boxes.is_empty());
            let Some(patched) = PolygonIndex::patched(&old, &new_of_old, &boxes).unwrap() else {
                return Ok(()); // most of the tree: built again instead
            };
            prop_assert_eq!(patched.check(&boxes), Ok(()));
            let built = PolygonIndex::build(&boxes).unwrap();
            for &(x, z) in &probes {
                let p = Vec3::new(x, 0.25, z);
                let closest = |q: u32| Some(p.clamp(boxes[q as usize].min, boxes[q as usize].max));
                let a = patched.nearest(p, f32::INFINITY, closest).map(|(_, _, d)| d);
                let b = built.nearest(p, f32::INFINITY, closest).map(|(_, _, d)| d);
                prop_assert_eq!(a, b);
            }
        }
    }

    #[test]
    fn an_index_with_nothing_gone_or_most_gone_is_built_again() {
        let boxes: Vec<Aabb> = (0..64)
            .map(|i| cell((i % 8) as f32, (i / 8) as f32, 1.0))
            .collect();
        let old = PolygonIndex::build(&boxes).unwrap();
        let same: Vec<u32> = (0..64).collect();
        assert!(
            PolygonIndex::patched(&old, &same, &boxes)
                .unwrap()
                .is_none()
        );
        // The first and the last polygon go: the subtree to build again is the tree.
        let most: Vec<u32> = (0..64u32)
            .map(|p| if p == 0 || p == 63 { GONE } else { p - 1 })
            .collect();
        assert!(
            PolygonIndex::patched(&old, &most, &boxes[1..63])
                .unwrap()
                .is_none()
        );
    }

    #[test]
    fn the_check_names_a_broken_index() {
        let boxes: Vec<Aabb> = (0..16).map(|i| cell(i as f32, 0.0, 1.0)).collect();
        let mut index = PolygonIndex::build(&boxes).unwrap();
        assert_eq!(index.check(&boxes), Ok(()));
        index.nodes[0].bounds = cell(0.0, 0.0, 1.0);
        assert!(index.check(&boxes).unwrap_err().contains("node 0"));
        let mut index = PolygonIndex::build(&boxes).unwrap();
        index.polygons.swap(0, 1);
        assert!(index.check(&boxes).is_err());
    }
}
