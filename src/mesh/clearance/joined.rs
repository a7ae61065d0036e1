//! The eroded mesh's polygons joined across the borders of the original polygons, for
//! the path searches: the eroded mesh itself keeps every piece inside one original
//! polygon (so that other queries can name it), which cuts the region along every
//! original border and makes the search expand about three pieces per original
//! polygon on the grid maps. Here neighbouring pieces are merged greedily while their
//! union stays convex (`mesh/coarse.rs`'s merge) when they share the area id and lie
//! on one flat level (their original polygons are flat, at the same height), so a
//! search over the joined copy prices every step as over the eroded mesh, and heights
//! inside a joined polygon are those of the original surface.
//!
//! Flags need nothing here: an eroded mesh is built for one filter's view of the flags
//! (refused polygons are walls; `mod.rs` keys its cache by the flags' generation when
//! the filter refuses any), so every joined polygon is admitted exactly when the pieces
//! under it are.
//!
//! A path found over the joined copy names joined polygons; `query/eroded_corridor.rs`
//! walks it across the original mesh to name the original polygons it crosses, and
//! needs, per joined polygon, the original polygons under it ([`Joined::originals`]).

use crate::mesh::coarse;
use crate::mesh::{MeshData, MeshInput, MeshOptions, NavMesh};

/// The eroded mesh's polygons joined across original borders (see the module
/// documentation).
pub(crate) struct Joined {
    /// The joined polygons, with the areas of the pieces under them and default flags.
    pub mesh: NavMesh,
    /// Per joined polygon `j`: `originals[starts[j]..starts[j + 1]]` are the original
    /// polygons under it (each once, in increasing order).
    starts: Vec<u32>,
    /// See [`Joined::starts`].
    originals: Vec<u32>,
}

impl Joined {
    /// The original polygons under joined polygon `joined` (of [`Joined::mesh`]).
    pub fn originals(&self, joined: u32) -> &[u32] {
        let j = joined as usize;
        &self.originals[self.starts[j] as usize..self.starts[j + 1] as usize]
    }

    /// The bytes of the list of original polygons per joined polygon.
    pub fn list_bytes(&self) -> usize {
        (self.starts.len() + self.originals.len()) * 4
    }
}

/// The height of original polygon `p` when all its corners lie at one height (within
/// a relative 1e-6), else `None`.
fn flat_height(original: &MeshData, p: u32) -> Option<f32> {
    let corners = &original.corners[original.corner_range(p)];
    let height = |v: u32| original.up.height(original.vertices[v as usize]);
    let h0 = height(corners[0]);
    let tolerance = 1e-6 * (1.0 + h0.abs());
    corners
        .iter()
        .all(|&v| (height(v) - h0).abs() <= tolerance)
        .then_some(h0)
}

/// The pieces of `pieces` (the eroded mesh, whose polygon `k` lies in original polygon
/// `of_original[k]`) joined across original borders; `None` when nothing joins (the
/// eroded mesh is then searched itself) or the joined mesh could not be built.
pub(super) fn join(original: &MeshData, pieces: &NavMesh, of_original: &[u32]) -> Option<Joined> {
    let data = pieces.data();
    let count = data.polygon_count() as usize;
    let level: Vec<Option<f32>> = of_original
        .iter()
        .map(|&p| flat_height(original, p))
        .collect();
    let joinable = |p: u32, q: u32| {
        let (a, b) = (of_original[p as usize], of_original[q as usize]);
        a == b
            || (original.areas[a as usize] == original.areas[b as usize]
                && match (level[p as usize], level[q as usize]) {
                    (Some(x), Some(y)) => (x - y).abs() <= 1e-6 * (1.0 + x.abs().max(y.abs())),
                    _ => false,
                })
    };
    let (indices, sizes, of_piece) = coarse::merge(data, joinable);
    if sizes.len() == count {
        return None;
    }
    let mut areas = vec![0u8; sizes.len()];
    let mut lists: Vec<Vec<u32>> = vec![Vec::new(); sizes.len()];
    for (piece, &joined) in of_piece.iter().enumerate() {
        let p = of_original[piece];
        areas[joined as usize] = original.areas[p as usize];
        lists[joined as usize].push(p);
    }
    let mut starts = Vec::with_capacity(sizes.len() + 1);
    let mut originals = Vec::with_capacity(count);
    starts.push(0);
    for mut list in lists {
        list.sort_unstable();
        list.dedup();
        originals.extend_from_slice(&list);
        starts.push(originals.len() as u32);
    }
    let options = MeshOptions::default()
        .with_up_axis(data.up)
        .with_weld_vertices(false);
    let mesh = NavMesh::from_input(
        &MeshInput::new(data.vertices.as_single(), &indices)
            .with_polygon_sizes(&sizes)
            .with_areas(&areas),
        &options,
    )
    .ok()?;
    Some(Joined {
        mesh,
        starts,
        originals,
    })
}
