//! Checking a saved fast-lane index (see [`crate::mesh::fast_lane`]) against the mesh
//! it was saved with. Building the index again is what saving it spares, so the checks
//! are of consistency, each linear in the index's size (the labels' by a sort per
//! corner):
//! - every corner is a wall vertex of the searched mesh (the merged copy when there is
//!   one), named by the corner slots at that vertex that point at it, and its walls
//!   (which prune corners a path cannot bend round), when known, are the walls round
//!   that vertex;
//! - each corner's labels name distinct corners in the order the build makes, and
//!   include the corner itself at distance 0;
//! - each label's distance is the length of the step to its next corner plus that
//!   corner's distance to the same hub (so a path unpacked from the labels has the
//!   length they promise, and no step leads farther from the hub).
//!
//! A damaged index is refused; none of these checks can be passed by an index that
//! makes a query panic or loop.

use glam::DVec2;

use super::BinaryError;
use super::check::Located;
use crate::mesh::fast_lane::{FastLane, HubLabel, NO_CORNER, labels_in_order};
use crate::mesh::{MeshData, NO_NEIGHBOUR, NO_TWIN, next_in};

/// The decoded sections of a saved index, not yet checked.
pub(super) struct LaneTables {
    /// One record: flags (whether it is on the merged copy; three reserved bytes), the
    /// corner count, the corner graph's edge count.
    pub sizes: Located<([u8; 4], u32, u64)>,
    pub node_of_slot: Located<u32>,
    /// Per corner: its vertex, whether its walls are known (0 or 1), their far ends.
    pub corners: Located<(u32, u32, [DVec2; 2])>,
    pub label_start: Located<u32>,
    /// Per label: hub, next corner, distance.
    pub labels: Located<(u32, u32, f64)>,
}

/// The index of `mesh` from its decoded sections, checked.
pub(super) fn check_lane(mesh: &MeshData, tables: LaneTables) -> Result<FastLane, BinaryError> {
    let sizes = &tables.sizes;
    let [(flags, corner_count, edge_count)] = sizes.items[..] else {
        return Err(BinaryError::Layout {
            section: sizes.section.name,
            offset: sizes.offset,
            reason: format!("holds {} records instead of 0 or 1", sizes.items.len()),
        });
    };
    if flags[0] > 1 || flags[1..] != [0, 0, 0] {
        return Err(sizes.invalid(
            0,
            "the flags are neither 0 nor 1, or a reserved byte is not 0",
        ));
    }
    let on_coarse = flags[0] == 1;
    let coarse = mesh.coarse();
    if on_coarse != coarse.is_some() {
        return Err(sizes.invalid(
            0,
            if on_coarse {
                "the index is on the merged copy, but the mesh has none"
            } else {
                "the index is on the mesh, but the mesh has a merged copy"
            },
        ));
    }
    if mesh.links.hop_count() != 0 {
        return Err(sizes.invalid(0, "a mesh with off-mesh links has no index"));
    }
    let searched = coarse.map_or(mesh, |c| &c.mesh);
    let n = corner_count as usize;
    tables.corners.expect_len(n, "fast-lane corners")?;
    let most_edges = (n as u64).saturating_mul(n.saturating_sub(1) as u64) / 2;
    if edge_count > most_edges {
        return Err(sizes.invalid(0, format!("{edge_count} graph edges between {n} corners")));
    }
    let (vertex, point, walls) = check_corners(searched, &tables.corners)?;
    let node_of_slot = check_slots(searched, &tables, &vertex, &walls)?;
    let label_start = check_label_starts(&tables, n)?;
    let labels = check_labels(&tables, &label_start, &point)?;
    Ok(FastLane {
        on_coarse,
        vertex,
        node_of_slot,
        point,
        walls,
        label_start,
        labels,
        edge_count: edge_count as usize,
    })
}

/// Per corner: its vertex (a wall vertex of `searched`), its ground point, its walls.
#[allow(clippy::type_complexity)]
fn check_corners(
    searched: &MeshData,
    corners: &Located<(u32, u32, [DVec2; 2])>,
) -> Result<(Vec<u32>, Vec<DVec2>, Vec<Option<[DVec2; 2]>>), BinaryError> {
    let n = corners.items.len();
    let (mut vertex, mut point, mut walls) = (
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
    );
    for (c, &(v, known, ends)) in corners.items.iter().enumerate() {
        if v >= searched.vertex_count() || !searched.wall_vertex[v as usize] {
            return Err(corners.invalid(
                c,
                format!("vertex {v} is not a vertex of the mesh where a wall ends"),
            ));
        }
        let wall = match known {
            0 if ends == [DVec2::ZERO; 2] => None,
            1 if ends.iter().all(|e| e.is_finite()) => Some(ends),
            _ => {
                return Err(corners.invalid(
                    c,
                    "the walls are neither unknown (0, with zero ends) nor known (1, with \
                     finite ends)",
                ));
            }
        };
        vertex.push(v);
        point.push(searched.ground[v as usize].as_dvec2());
        walls.push(wall);
    }
    Ok((vertex, point, walls))
}

/// Per corner slot of `searched`: the corner at its vertex, or [`NO_CORNER`]; every
/// corner named by a slot, and its known walls those round its vertex.
fn check_slots(
    searched: &MeshData,
    tables: &LaneTables,
    vertex: &[u32],
    walls: &[Option<[DVec2; 2]>],
) -> Result<Vec<u32>, BinaryError> {
    let slots = &tables.node_of_slot;
    slots.expect_len(searched.corners.total_len(), "corner slots")?;
    let mut named = vec![false; vertex.len()];
    for (slot, &c) in slots.items.iter().enumerate() {
        if c == NO_CORNER {
            continue;
        }
        let Some(&v) = vertex.get(c as usize) else {
            return Err(slots.invalid(slot, format!("corner {c} of {}", vertex.len())));
        };
        if searched.corners[slot] != v {
            return Err(slots.invalid(
                slot,
                format!(
                    "names corner {c} at vertex {v}, but the slot's vertex is {}",
                    searched.corners[slot]
                ),
            ));
        }
        named[c as usize] = true;
    }
    if let Some(c) = named.iter().position(|&n| !n) {
        return Err(tables
            .corners
            .invalid(c, "no corner slot of the mesh names this corner"));
    }
    check_walls(searched, tables, walls)?;
    Ok(slots.items.to_vec())
}

/// Every known pair of walls is that of its corner's fan: among the slots naming the
/// corner, one's edge is a wall leaving the vertex toward the second end, and the
/// edge before one is a wall arriving from the first (a corner whose walls are not
/// known is never pruned, so any corner may have none).
fn check_walls(
    searched: &MeshData,
    tables: &LaneTables,
    walls: &[Option<[DVec2; 2]>],
) -> Result<(), BinaryError> {
    let node_of_slot = &tables.node_of_slot.items;
    let ground = |slot: usize| searched.ground[searched.corners[slot] as usize].as_dvec2();
    let wall =
        |slot: usize| searched.neighbours[slot] == NO_NEIGHBOUR || searched.twin[slot] == NO_TWIN;
    // Per corner: whether the leaving wall and the arriving wall were found.
    let mut found = vec![[false; 2]; walls.len()];
    for p in searched.polygon_ids() {
        let range = searched.corner_range(p);
        for slot in range.clone() {
            let c = node_of_slot[slot];
            let Some([arriving, leaving]) = walls.get(c as usize).copied().flatten() else {
                continue;
            };
            let next = next_in(range.clone(), slot);
            let before = if slot == range.start {
                range.end - 1
            } else {
                slot - 1
            };
            let seen = &mut found[c as usize];
            seen[0] |= wall(slot) && ground(next) == leaving;
            seen[1] |= wall(before) && ground(before) == arriving;
        }
    }
    match (0..walls.len()).find(|&c| walls[c].is_some() && found[c] != [true; 2]) {
        Some(c) => Err(tables
            .corners
            .invalid(c, "its walls are not the walls round its vertex")),
        None => Ok(()),
    }
}

/// The label offsets: `n + 1` of them, from 0, never decreasing, ending at the label
/// count.
fn check_label_starts(tables: &LaneTables, n: usize) -> Result<Vec<u32>, BinaryError> {
    let starts = &tables.label_start;
    starts.expect_len(n + 1, "fast-lane corners (plus one)")?;
    let items = &starts.items;
    if items[0] != 0 {
        return Err(starts.invalid(0, "the first offset is not 0"));
    }
    if let Some(i) = (1..items.len()).find(|&i| items[i] < items[i - 1]) {
        return Err(starts.invalid(i, "the offsets decrease"));
    }
    let count = tables.labels.items.len();
    if items[n] as usize != count {
        return Err(starts.invalid(
            n,
            format!(
                "the last offset is {}, but there are {count} labels",
                items[n]
            ),
        ));
    }
    Ok(items.to_vec())
}

/// The labels, each checked in its corner's list and against its next corner's label
/// for the same hub.
fn check_labels(
    tables: &LaneTables,
    label_start: &[u32],
    point: &[DVec2],
) -> Result<Vec<HubLabel>, BinaryError> {
    let located = &tables.labels;
    let n = point.len();
    let labels: Vec<HubLabel> = located
        .items
        .iter()
        .map(|&(hub, toward, distance)| HubLabel {
            hub,
            toward,
            distance,
        })
        .collect();
    let range = |c: usize| label_start[c] as usize..label_start[c + 1] as usize;
    // Per hub: the last corner (plus one) whose list named it.
    let mut named_by = vec![0u32; n];
    for c in 0..n {
        let mut has_itself = false;
        for i in range(c) {
            let label = labels[i];
            let (hub, toward) = (label.hub as usize, label.toward as usize);
            let fault = if hub >= n || toward >= n {
                Some(format!("hub {hub} or next corner {toward} of {n} corners"))
            } else if !(label.distance.is_finite() && label.distance >= 0.0) {
                Some(format!(
                    "distance {} is not finite and >= 0",
                    label.distance
                ))
            } else if named_by[hub] == c as u32 + 1 {
                Some(format!("corner {c} has two labels for hub {hub}"))
            } else if i > range(c).start && !labels_in_order(&labels[i - 1], &label) {
                Some(format!("corner {c}'s labels are out of order"))
            } else if (hub == c) != (toward == c) || (hub == c && label.distance != 0.0) {
                Some(format!(
                    "corner {c}'s label for hub {hub} goes through corner {toward} at \
                     distance {}",
                    label.distance
                ))
            } else {
                None
            };
            if let Some(reason) = fault {
                return Err(located.invalid(i, reason));
            }
            named_by[hub] = c as u32 + 1;
            has_itself |= hub == c;
        }
        if !has_itself {
            return Err(tables
                .label_start
                .invalid(c, format!("corner {c} has no label for itself")));
        }
    }
    // Each corner's labels by hub, for looking up the next corner's label.
    let mut by_hub: Vec<(u32, f64)> = labels.iter().map(|l| (l.hub, l.distance)).collect();
    for c in 0..n {
        by_hub[range(c)].sort_unstable_by_key(|&(hub, _)| hub);
    }
    for c in 0..n {
        for i in range(c) {
            let label = labels[i];
            if label.hub as usize == c {
                continue;
            }
            let next = label.toward as usize;
            let list = &by_hub[range(next)];
            let Ok(at) = list.binary_search_by_key(&label.hub, |&(hub, _)| hub) else {
                return Err(located.invalid(
                    i,
                    format!("its next corner {next} has no label for hub {}", label.hub),
                ));
            };
            let rest = list[at].1;
            let step = point[c].distance(point[next]);
            let expected = step + rest;
            if rest > label.distance || (label.distance - expected).abs() > 1e-9 * (1.0 + expected)
            {
                return Err(located.invalid(
                    i,
                    format!(
                        "distance {} to hub {} is not the step to corner {next} ({step}) plus \
                         its distance ({rest})",
                        label.distance, label.hub
                    ),
                ));
            }
        }
    }
    Ok(labels)
}
