//! Expanding a search node: projecting its interval through the polygon beyond it.

use glam::DVec2;

use super::ExactSearch;
use super::interval::{
    NONE, SIDE_TOLERANCE, SNAP, START, SearchNode, clip, cone_side, distance_to_segment, heuristic,
    orient, within_collinear,
};
use crate::geometry::point_near_line;
use crate::mesh::{MeshData, NO_NEIGHBOUR, NO_TWIN, TileView};

/// What the root of a node being expanded sees of its polygon.
#[derive(Clone, Copy)]
pub(super) struct Projection {
    pub root: u32,
    pub root_point: DVec2,
    pub g: f64,
}

/// An edge of the polygon being expanded, walked counter-clockwise: from vertex `u` to
/// vertex `w` (corner slot `slot`), with their ground-plane points, and the polygon
/// beyond it with the twin slot there (as `MeshData::neighbours` and `twin` of `slot`).
/// Seen walking out of the polygon through it, `w` is on the left and `u` on the right.
#[derive(Clone, Copy)]
pub(super) struct Edge {
    pub slot: usize,
    pub u: u32,
    pub w: u32,
    pub pu: DVec2,
    pub pw: DVec2,
    pub neighbour: u32,
    pub twin: u32,
}

impl Edge {
    /// The edge of corner slot `slot` of `polygon`, read from `view`, the view of
    /// `polygon`'s tile.
    #[inline]
    pub fn of(view: &TileView<'_>, polygon: u32, slot: usize) -> Edge {
        let (u, w) = view.edge(polygon, slot);
        let one = slot..slot + 1;
        Edge {
            slot,
            u,
            w,
            pu: view.point(u).as_dvec2(),
            pw: view.point(w).as_dvec2(),
            neighbour: view.neighbours(one.clone())[0],
            twin: view.twins(one)[0],
        }
    }
}

/// The edge from corner `local` (numbered from 0 at slot `start`) of a polygon whose
/// corners, neighbours and twins are `corners`, `neighbours` and `twins` (read from
/// `view`, the view of its tile) to the next corner.
#[inline(always)]
fn edge_of_corner(
    view: &TileView<'_>,
    start: usize,
    corners: &[u32],
    neighbours: &[u32],
    twins: &[u32],
    local: usize,
) -> Edge {
    let next = if local + 1 == corners.len() {
        0
    } else {
        local + 1
    };
    let (u, w) = (corners[local], corners[next]);
    Edge {
        slot: start + local,
        u,
        w,
        pu: view.point(u).as_dvec2(),
        pw: view.point(w).as_dvec2(),
        neighbour: neighbours[local],
        twin: twins[local],
    }
}

/// For a root on the line of `edge` but outside it: the end of the edge nearer the
/// root as the new root, if that end is the vertex itself (`u_whole`, `w_whole`: the
/// interval reaches that end).
fn collinear_turn(
    from: Projection,
    edge: &Edge,
    u_whole: bool,
    w_whole: bool,
) -> Option<Projection> {
    let Edge { u, w, pu, pw, .. } = *edge;
    let (du, dw) = (from.root_point.distance(pu), from.root_point.distance(pw));
    let (vertex, point, distance, whole) = if du <= dw {
        (u, pu, du, u_whole)
    } else {
        (w, pw, dw, w_whole)
    };
    whole.then_some(Projection {
        root: vertex,
        root_point: point,
        g: from.g + distance,
    })
}

impl ExactSearch {
    /// Generates the successors of node `index` (and the target node if its polygon
    /// holds the target).
    pub(super) fn expand(&mut self, mesh: &MeshData, index: u32) {
        let node = self.nodes[index as usize];
        let polygon = node.polygon;
        // Everything read below but the neighbours' own tables is in the polygon's tile.
        let view = mesh.tile_view(polygon);
        let range = view.corner_range(polygon);
        let n = range.len();
        let k = node.slot as usize - range.start;
        let corners = view.corners(range.clone());
        let neighbours = view.neighbours(range.clone());
        let twins = view.twins(range.clone());
        // Corners are numbered from 0 at the polygon's first slot; `k` is the entry edge.
        let after = |local: usize| if local + 1 == n { 0 } else { local + 1 };
        let point = |v: u32| view.point(v).as_dvec2();
        // The edge from corner `local` to the next one.
        let edge_from =
            |local: usize| edge_of_corner(&view, range.start, corners, neighbours, twins, local);
        let (a0, a1) = (corners[k], corners[after(k)]);
        let (e0, e1) = (point(a0), point(a1));
        // An end of the interval at a vertex is this polygon's corner there, and a root
        // at that end is that corner too. Across a seam between tiles of a world the
        // interval was made from the other tile's copy of the vertex, whose point may
        // differ from this tile's by rounding (a wall split at a T-junction, each tile's
        // own rounding of its border). The interval's ends and root are moved onto this
        // polygon's corners: with the other copy's points, the ray through an end could
        // pass a rounding outside the corner and cut a sliver off the next edge that the
        // root sees from behind, and a root a rounding off the corner would not see the
        // polygon whole. In one mesh the points are already equal.
        let right = if node.right_vertex == a1 {
            e1
        } else {
            node.right
        };
        let left = if node.left_vertex == a0 {
            e0
        } else {
            node.left
        };
        let root = if node.root_point == node.right && node.right_vertex == a1 {
            e1
        } else if node.root_point == node.left && node.left_vertex == a0 {
            e0
        } else {
            node.root_point
        };
        let node = SearchNode {
            right,
            left,
            root_point: root,
            ..node
        };
        // A root on the entry edge itself (a vertex root going round its fan) sees the
        // whole polygon.
        let degenerate = orient(e0, e1, root) == 0.0 && within_collinear(root, e0, e1);
        let target = self.target;
        if self.target_set.contains(&polygon) {
            let (turn, f) = if degenerate {
                (NONE, node.g + root.distance(target))
            } else {
                match cone_side(root, node.left, node.right, target) {
                    0 => (NONE, node.g + root.distance(target)),
                    -1 => (
                        node.right_vertex,
                        node.g + root.distance(node.right) + node.right.distance(target),
                    ),
                    _ => (
                        node.left_vertex,
                        node.g + root.distance(node.left) + node.left.distance(target),
                    ),
                }
            };
            let straight = cone_side(root, node.left, node.right, target) == 0;
            if degenerate || straight || turn != NONE {
                self.push(SearchNode {
                    polygon: NONE,
                    slot: turn,
                    g: f,
                    f,
                    parent: index,
                    ..node
                });
            }
        }
        let same = Projection {
            root: node.root,
            root_point: root,
            g: node.g,
        };
        if degenerate {
            let mut local = k;
            for _ in 1..n {
                local = after(local);
                let edge = edge_from(local);
                self.emit(mesh, &view, index, &edge, 0.0, 1.0, same);
            }
            return;
        }
        let (dr, dl) = (node.right - root, node.left - root);
        let right_turn = (node.right_vertex == a1
            && self.is_corner(mesh, &view, a1, range.start + after(k)))
        .then(|| Projection {
            root: a1,
            root_point: e1,
            g: node.g + root.distance(e1),
        });
        let left_turn = (node.left_vertex == a0
            && self.is_corner(mesh, &view, a0, range.start + k))
        .then(|| Projection {
            root: a0,
            root_point: e0,
            g: node.g + root.distance(e0),
        });
        let mut local = k;
        for _ in 1..n {
            local = after(local);
            let neighbour = neighbours[local];
            if neighbour == NO_NEIGHBOUR
                || twins[local] == NO_TWIN
                || !self.admitted(mesh, neighbour)
            {
                continue;
            }
            let edge = edge_from(local);
            let (pu, pw) = (edge.pu, edge.pw);
            let (ru, rw) = (dr.perp_dot(pu - root), dr.perp_dot(pw - root));
            let (lu, lw) = (dl.perp_dot(pu - root), dl.perp_dot(pw - root));
            // Seen from the root: left of the right ray and right of the left ray.
            let (mut lo, mut hi) = (0.0, 1.0);
            clip(&mut lo, &mut hi, ru, rw);
            clip(&mut lo, &mut hi, -lu, -lw);
            self.emit(mesh, &view, index, &edge, lo, hi, same);
            if let Some(turn) = right_turn {
                let (mut lo, mut hi) = (0.0, 1.0);
                clip(&mut lo, &mut hi, -ru, -rw);
                self.emit(mesh, &view, index, &edge, lo, hi, turn);
            }
            if let Some(turn) = left_turn {
                let (mut lo, mut hi) = (0.0, 1.0);
                clip(&mut lo, &mut hi, lu, lw);
                self.emit(mesh, &view, index, &edge, lo, hi, turn);
            }
        }
    }

    /// Pushes the node for the part `lo..hi` (0 at `u`, 1 at `w`) of `edge` of the
    /// polygon being expanded (whose tile is `view`), seen from `from`.
    #[allow(
        clippy::too_many_arguments,
        reason = "the search's hot path: the tile view is passed, not looked up again"
    )]
    #[inline(always)]
    pub(super) fn emit(
        &mut self,
        mesh: &MeshData,
        view: &TileView<'_>,
        parent: u32,
        edge: &Edge,
        mut lo: f64,
        mut hi: f64,
        from: Projection,
    ) {
        // The checks that turn most parts away (an empty part, mostly: the part of an
        // edge beyond a ray), made where the part is cut, before any call.
        if lo < SNAP {
            lo = 0.0;
        }
        if hi > 1.0 - SNAP {
            hi = 1.0;
        }
        let neighbour = edge.neighbour;
        if hi <= lo || neighbour == NO_NEIGHBOUR || edge.twin == NO_TWIN {
            return;
        }
        // The neighbour's tile: the same as the polygon's but across a seam.
        let across;
        let there = if view.holds(neighbour) {
            view
        } else {
            across = mesh.tile_view_out_of_line(neighbour);
            &across
        };
        if (there.dead_end(neighbour) && !self.flooding && !self.target_set.contains(&neighbour))
            || !self.admitted_in(there, neighbour)
        {
            return;
        }
        self.emit_part(mesh, view, there, parent, edge, lo, hi, from);
    }

    /// [`Self::emit`] for a part `lo..hi` that is not empty, snapped to the edge's ends,
    /// of an edge into a neighbour that the search may enter, whose tile is `there`.
    #[allow(
        clippy::too_many_arguments,
        reason = "the search's hot path: the tile view is passed, not looked up again"
    )]
    #[inline(never)]
    fn emit_part(
        &mut self,
        mesh: &MeshData,
        view: &TileView<'_>,
        there: &TileView<'_>,
        parent: u32,
        edge: &Edge,
        lo: f64,
        hi: f64,
        from: Projection,
    ) {
        let Edge {
            slot,
            u,
            pu,
            pw,
            neighbour,
            twin,
            ..
        } = *edge;
        let mut from = from;
        let mut parent = parent;
        let parent_root = if parent == NONE {
            START
        } else {
            self.nodes[parent as usize].root
        };
        // The start lies within the rounding tolerance of every polygon of its start set
        // (see `polygons_at`), so possibly a few ulps beyond the line of an edge of one:
        // it then sees that edge along its line, as a start exactly on the line does.
        let side = orient(pu, pw, from.root_point);
        let collinear = side == 0.0
            || (from.root == START && side < 0.0 && point_near_line(from.root_point, pu, pw));
        if collinear && !within_collinear(from.root_point, pu, pw) {
            // The root sees this edge only along its line (collinear corners): the path
            // runs along the line to the nearer end and may bend there.
            let Some(turn) = collinear_turn(from, edge, lo == 0.0, hi == 1.0) else {
                return;
            };
            // A corner slot at the turning vertex: `u` starts this edge here, `w`
            // starts its twin in the neighbour.
            let turn_slot = if turn.root == u { slot } else { twin as usize };
            if !self.is_corner(mesh, view, turn.root, turn_slot) {
                return;
            }
            if from.root != parent_root {
                // The path bent at `from.root` already: keep that corner in the chain
                // with a node that is never expanded.
                if !self.accept_root(from.root, from.g) {
                    return;
                }
                let index = self.nodes.len() as u32;
                self.nodes.push(SearchNode {
                    root: from.root,
                    root_point: from.root_point,
                    polygon: NONE,
                    slot: NONE,
                    g: from.g,
                    f: f64::INFINITY,
                    parent,
                    ..self.nodes[parent as usize]
                });
                parent = index;
            }
            from = turn;
        } else if from.root == START && self.start_set.contains(&neighbour) {
            // A polygon holding the start is seen whole from the start node.
            return;
        }
        let root = from.root_point;
        let degenerate = orient(pu, pw, root) == 0.0;
        if degenerate && from.root < START && !self.first_fan_visit(neighbour, root, from.g) {
            // The root is a corner of `neighbour` and has seen it whole already: going
            // round a closed fan again would never end.
            return;
        }
        let right = if lo == 0.0 { pu } else { pu.lerp(pw, lo) };
        let left = if hi == 1.0 { pw } else { pu.lerp(pw, hi) };
        // The interval's end vertices as the neighbour numbers them (its expansion
        // compares them with its own corners): the ends of the twin edge, which runs the
        // other way. In one mesh they are `w` and `u`; across a seam between tiles of a
        // world each tile has its own vertices there.
        let (twin_w, twin_u) = there.edge(neighbour, twin as usize);
        let parent_root = if parent == NONE {
            START
        } else {
            self.nodes[parent as usize].root
        };
        if from.root != parent_root && !self.accept_root(from.root, from.g) {
            return;
        }
        // Seen from the root, the interval runs counter-clockwise from its right end to
        // its left end: the root lies on the near side of the edge's line (it sees the
        // edge through the convex polygon being expanded), or on the line itself, up to
        // the rounding of the mesh's f32 vertices when it lies on that line (collinear
        // corners at angles that f32 cannot hold exactly).
        debug_assert!(
            degenerate || {
                let (near, far) = (root.distance(right), root.distance(left));
                let scale = root
                    .abs()
                    .max(right.abs())
                    .max(left.abs())
                    .max_element()
                    .max(1.0);
                let slack = SIDE_TOLERANCE * near * far
                    + 4.0 * f64::from(f32::EPSILON) * scale * (near + far);
                orient(root, right, left) >= -slack
            },
            "interval seen clockwise from its root: {root} {right} {left}"
        );
        let mut h = if self.flooding {
            super::flood::flood_value(root, right, left)
        } else if degenerate {
            root.distance(self.target)
        } else {
            heuristic(root, left, right, self.target)
        };
        if let Some(goal) = &self.goal
            && let Some(Some(table)) = mesh.landmarks.get()
        {
            // Any path through the interval walks to it, then on from its portal.
            let ahead = table.remaining(goal, table.slot_node(twin as usize));
            h = h.max(distance_to_segment(root, right, left) + f64::from(ahead));
        }
        self.push(SearchNode {
            root: from.root,
            root_point: root,
            left,
            right,
            left_vertex: if hi == 1.0 { twin_w } else { NONE },
            right_vertex: if lo == 0.0 { twin_u } else { NONE },
            polygon: neighbour,
            slot: twin,
            g: from.g,
            f: from.g + h,
            parent,
        });
    }
}
