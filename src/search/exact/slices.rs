//! The exact search in slices: begun once, then advanced by at most a given number of
//! node expansions per call, taking the nodes in the same order as one call that runs to
//! the end (so the answer is the same, bit for bit), or ended early with the best path
//! found so far.

use glam::{DVec2, Vec3};

use super::ExactSearch;
use super::interval::NONE;
use crate::filter::QueryFilter;
use crate::mesh::{MeshData, NearestPoint};

/// Where an exact search is after [`ExactSearch::begin`] or a slice of
/// [`ExactSearch::advance`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ExactStep {
    /// The shortest path is written.
    Found,
    /// No way over admitted polygons (or the search gave up): fall back to the default
    /// mode.
    NotFound,
    /// The search goes on.
    InProgress,
}

impl ExactSearch {
    /// Begins a search for the shortest path from `start` to `target` (both snapped
    /// onto polygons `filter` admits, on one island) over the polygons `filter` admits
    /// (`None` for every polygon: the caller knows the filter refuses none): the ends'
    /// polygons and the nodes from the start. `Found` (the path in `out`) when the ends
    /// share a polygon; `NotFound` when no node leaves the start. Go on with
    /// [`ExactSearch::advance`]; `NotFound` there means no such path exists (the filter
    /// cuts the way, or only an off-mesh link leads there) or the search gave up (it
    /// never should): the caller then falls back to the default mode. With `landmarks`,
    /// the estimates also use the mesh's landmark table (built on first use), which
    /// changes only how many nodes are expanded, never the answer.
    pub fn begin(
        &mut self,
        mesh: &MeshData,
        start: &NearestPoint,
        target: &NearestPoint,
        filter: Option<&QueryFilter>,
        landmarks: bool,
        out: &mut Vec<Vec3>,
    ) -> ExactStep {
        let up = mesh.up;
        self.runs = self.runs.wrapping_add(1);
        self.following = None;
        self.admits_all = filter.is_none();
        if let Some(filter) = filter {
            self.include_flags = filter.include_flags;
            self.exclude_flags = filter.exclude_flags;
        }
        let admits_all = self.admits_all;
        self.start = up.ground(start.point).as_dvec2();
        self.target = up.ground(target.point).as_dvec2();
        self.start_world = start.point;
        self.target_world = target.point;
        self.forget_search();
        let (include, exclude) = (self.include_flags, self.exclude_flags);
        let admitted = |p: u32| admits_all || super::admits(mesh, include, exclude, p);
        super::polygons_at(
            mesh,
            &admitted,
            start.polygon,
            self.start,
            &mut self.start_set,
        );
        super::polygons_at(
            mesh,
            &admitted,
            target.polygon,
            self.target,
            &mut self.target_set,
        );
        self.goal = if landmarks {
            crate::search::landmarks::table(mesh)
                .map(|table| table.goal(mesh, self.target_set.iter().copied(), self.target))
        } else {
            None
        };
        out.clear();
        if self.start_set.iter().any(|p| self.target_set.contains(p)) {
            out.extend([start.point, target.point]);
            return ExactStep::Found;
        }
        self.push_start_nodes(mesh);
        self.flush_fresh();
        if self.open.is_empty() {
            return ExactStep::NotFound;
        }
        ExactStep::InProgress
    }

    /// Goes on with the search begun by [`ExactSearch::begin`] on the same `mesh` for at
    /// most `max_expansions` node expansions; returns where it is and the expansions
    /// made. A slice may end in the middle of a chain of single successors (followed
    /// without the open list): the next slice goes on with it, so the nodes are
    /// expanded in the same order however the search is sliced. `Found` writes the path
    /// into `out`.
    pub fn advance(
        &mut self,
        mesh: &MeshData,
        max_expansions: u32,
        out: &mut Vec<Vec3>,
    ) -> (ExactStep, u32) {
        let limit = 8 * mesh.corners.total_len() + 65_536;
        let max_nodes = self.max_nodes;
        let mut used = 0u32;
        loop {
            let mut index = match self.following.take() {
                Some(index) => index,
                None => {
                    let Some(entry) = self.open.pop() else {
                        return (ExactStep::NotFound, used);
                    };
                    let node = self.nodes[entry.node as usize];
                    if node.polygon == NONE {
                        let (start, target) = (self.start_world, self.target_world);
                        self.write_path(mesh, entry.node, start, target, out);
                        return (ExactStep::Found, used);
                    }
                    if self.pruned(&node) {
                        continue;
                    }
                    entry.node
                }
            };
            // Expand the node, and go on at once with its successor while it has only
            // one (Polyanya's intermediate pruning: no open-list traffic along a chain
            // of polygons). Target nodes always go through the open list.
            loop {
                if used >= max_expansions {
                    self.following = Some(index);
                    return (ExactStep::InProgress, used);
                }
                if self.nodes.len() >= max_nodes {
                    return (ExactStep::NotFound, used);
                }
                if self.nodes.len() > limit {
                    debug_assert!(false, "exact search gave up: {} nodes", self.nodes.len());
                    return (ExactStep::NotFound, used);
                }
                used += 1;
                self.expand(mesh, index);
                let &[only] = self.fresh.as_slice() else {
                    break;
                };
                let next = self.nodes[only as usize];
                if next.polygon == NONE || self.pruned(&next) {
                    break;
                }
                self.fresh.clear();
                index = only;
            }
            self.flush_fresh();
        }
    }

    /// The path to the best node reached so far by a search still in progress, into
    /// `out`: to the target along the cheapest way into it found (not proven the
    /// shortest) when there is one, else along the way to the node whose interval comes
    /// closest to the target, ending at that interval's point closest to it. Returns
    /// whether the path reaches the target.
    pub fn partial(&self, mesh: &MeshData, out: &mut Vec<Vec3>) -> bool {
        let (start, target) = (self.start_world, self.target_world);
        let best_target = (0..self.nodes.len() as u32)
            .filter(|&i| self.nodes[i as usize].polygon == NONE)
            .min_by(|&a, &b| {
                let (a, b) = (&self.nodes[a as usize], &self.nodes[b as usize]);
                a.f.total_cmp(&b.f)
            });
        if let Some(last) = best_target {
            self.write_path(mesh, last, start, target, out);
            return true;
        }
        let mut best: Option<(f64, u32, DVec2)> = None;
        for (i, node) in self.nodes.iter().enumerate() {
            let near = closest_on_segment(self.target, node.left, node.right);
            let d = near.distance_squared(self.target);
            if best.is_none_or(|(b, _, _)| d < b) {
                best = Some((d, i as u32, near));
            }
        }
        out.clear();
        let Some((_, last, near)) = best else {
            out.extend([start, start]);
            return false;
        };
        // The interval's point on its edge, with the edge's heights.
        let node = &self.nodes[last as usize];
        let (a, b) = mesh.edge(node.polygon, node.slot as usize);
        let (va, vb) = (mesh.vertices[a as usize], mesh.vertices[b as usize]);
        let (ga, gb) = (
            mesh.ground[a as usize].as_dvec2(),
            mesh.ground[b as usize].as_dvec2(),
        );
        let along = (gb - ga).length_squared();
        let t = if along > 0.0 {
            ((near - ga).dot(gb - ga) / along).clamp(0.0, 1.0)
        } else {
            0.0
        };
        out.push(va.lerp(vb, t as f32));
        let mut previous = NONE;
        let mut at = last;
        while at != NONE {
            let node = &self.nodes[at as usize];
            if node.root != previous {
                out.push(if node.root == super::interval::START {
                    start
                } else {
                    mesh.vertices[node.root as usize]
                });
                previous = node.root;
            }
            at = node.parent;
        }
        if previous != super::interval::START {
            out.push(start);
        }
        out.reverse();
        out.dedup();
        if out.len() < 2 {
            out.push(out[0]);
        }
        false
    }

    /// Searches begun with this scratch so far.
    pub fn runs(&self) -> u64 {
        self.runs
    }
}

/// The point of segment `a..b` closest to `p`.
fn closest_on_segment(p: DVec2, a: DVec2, b: DVec2) -> DVec2 {
    let ab = b - a;
    let along = ab.length_squared();
    if along == 0.0 {
        return a;
    }
    a + ab * ((p - a).dot(ab) / along).clamp(0.0, 1.0)
}
