//! The fast lane's index (an End-Point-Search-like index for the exact mode): the
//! convex wall corners of one mesh where a shortest path can bend, and hub labels of
//! the shortest distances between them over their visibility graph. Stored here, one per
//! mesh, built on request by `search/hub/` (`NavMesh::prepare_fast_lane`) and read by
//! queries without locks; it depends on the mesh's geometry only (never on flags), and
//! a query uses it only when its answer is the exact mode's (see `search/hub/`).

use glam::DVec2;

/// No corner: the entry of `node_of_slot` for a corner slot where no path bends.
pub(crate) const NO_CORNER: u32 = u32::MAX;

/// One hub label entry of a corner: the shortest distance from the corner to `hub`
/// over the corner graph, and the next corner on that way.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct HubLabel {
    /// The hub (a corner id; corners are numbered in hub order, most important first).
    pub hub: u32,
    /// The next corner from the labelled corner toward the hub (the corner itself when
    /// it is the hub).
    pub toward: u32,
    /// Ground-plane distance to the hub, in mesh units.
    pub distance: f64,
}

/// The index: corners and their labels, over `searched` (the mesh's merged copy when
/// `on_coarse`, else the mesh itself).
pub(crate) struct FastLane {
    /// Whether the corners are vertices of the merged copy (`MeshData::coarse`).
    pub on_coarse: bool,
    /// Per corner: its vertex in the searched mesh.
    pub vertex: Vec<u32>,
    /// Per corner slot of the searched mesh, by its dense number (the slot id itself on
    /// a mesh of one tile; on several, the slots numbered tile after tile, as the
    /// sweeps report them): the corner of its vertex on its polygon's side (a vertex
    /// where walkable regions touch at a point is one corner per region), or
    /// [`NO_CORNER`].
    pub node_of_slot: Vec<u32>,
    /// Per corner: its ground-plane point.
    pub point: Vec<DVec2>,
    /// Per corner: the far ends of its two walls (a segment through the corner can be
    /// part of a taut path only if it leaves both on one side), or `None` when not
    /// known (never pruned).
    pub walls: Vec<Option<[DVec2; 2]>>,
    /// Corner `c` owns labels `label_start[c]..label_start[c + 1]`, nearest hub first.
    pub label_start: Vec<u32>,
    pub labels: Vec<HubLabel>,
    /// The number of (undirected) edges of the corner visibility graph.
    pub edge_count: usize,
}

impl FastLane {
    /// The number of corners.
    pub fn corner_count(&self) -> usize {
        self.vertex.len()
    }

    /// The labels of corner `c`, nearest hub first.
    #[inline]
    pub fn labels_of(&self, c: u32) -> &[HubLabel] {
        let c = c as usize;
        &self.labels[self.label_start[c] as usize..self.label_start[c + 1] as usize]
    }

    /// Whether a straight segment from `from` to corner `c` leaves both walls of `c` on
    /// one side (or is not known to cross between them): only then can a shortest path
    /// bend at `c` after (or before) that segment.
    #[inline]
    pub fn taut_at(&self, c: u32, from: DVec2) -> bool {
        taut(self.point[c as usize], self.walls[c as usize], from)
    }

    /// The bytes held.
    pub fn bytes(&self) -> usize {
        self.vertex.capacity() * 4
            + self.node_of_slot.capacity() * 4
            + self.point.capacity() * std::mem::size_of::<DVec2>()
            + self.walls.capacity() * std::mem::size_of::<Option<[DVec2; 2]>>()
            + self.label_start.capacity() * 4
            + self.labels.capacity() * std::mem::size_of::<HubLabel>()
    }
}

/// Whether label `next` may follow label `first` in one corner's list, in the order the
/// build makes them (nearest hub first, ties in hub order).
pub(crate) fn labels_in_order(first: &HubLabel, next: &HubLabel) -> bool {
    first.distance < next.distance || (first.distance == next.distance && first.hub < next.hub)
}

/// Whether a straight segment from `from` to a corner at `point` whose walls end at
/// `walls` leaves both walls on one side (`None`: not known, true). A wall within
/// 1e-6 of the line, relative to the coordinates' size, counts as on it, which keeps
/// the corner: points are `f32`, so an end snapped onto a wall lies off its line by
/// up to half a unit in the last place of its coordinates; a kept corner costs time,
/// never a wrong answer.
#[inline]
pub(crate) fn taut(point: DVec2, walls: Option<[DVec2; 2]>, from: DVec2) -> bool {
    let Some([a, b]) = walls else {
        return true;
    };
    let d = point - from;
    let (da, db) = (a - point, b - point);
    let (sa, sb) = (d.perp_dot(da), d.perp_dot(db));
    let scale = 1e-6 * point.abs().max(from.abs()).max_element().max(1.0);
    let (ta, tb) = (scale * da.length(), scale * db.length());
    !((sa > ta && sb < -tb) || (sa < -ta && sb > tb))
}
