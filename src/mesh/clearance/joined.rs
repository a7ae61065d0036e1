//! The eroded mesh's polygons joined across the borders of the original polygons, for
//! the path searches: the eroded mesh itself keeps every piece inside one original
//! polygon (so that other queries can name it), which cuts the region along every
//! original border and makes the search expand about three pieces per original
//! polygon on the grid maps. Here neighbouring polygons are merged greedily while their
//! union stays convex (`mesh/coarse.rs`'s merge) when they share the area id and lie
//! on one flat level (their original polygons are flat, at the same height), so a
//! search over the joined copy prices every step as over the eroded mesh, and heights
//! inside a joined polygon are those of the original surface. The pieces of one such
//! class are first triangulated anew as one region (`recut.rs`), without the original
//! polygons' edges, and those triangles are merged; the originals under each polygon
//! are then found by overlap (`overlap.rs`).
//!
//! Flags need nothing here: an eroded mesh is built for one filter's view of the flags
//! (refused polygons are walls; `mod.rs` keys its cache by the flags' generation when
//! the filter refuses any), so every joined polygon is admitted exactly when the pieces
//! under it are.
//!
//! A path found over the joined copy names joined polygons; `query/eroded_corridor.rs`
//! walks it across the original mesh to name the original polygons it crosses, and
//! needs, per joined polygon, the original polygons under it ([`Joined::originals`]).

use glam::Vec3;

use super::{overlap, recut};
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
    /// The joined copy `mesh` with, per polygon, the original polygons under it (each
    /// once, ascending).
    fn new(mesh: NavMesh, lists: Vec<Vec<u32>>) -> Joined {
        let mut starts = Vec::with_capacity(lists.len() + 1);
        let mut originals = Vec::with_capacity(lists.iter().map(Vec::len).sum());
        starts.push(0);
        for list in lists {
            originals.extend_from_slice(&list);
            starts.push(originals.len() as u32);
        }
        Joined {
            mesh,
            starts,
            originals,
        }
    }

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
/// eroded mesh is then searched itself) or the joined mesh could not be built. Each
/// class of pieces (one area on one flat level) is triangulated anew without the
/// original polygons' edges ([`recut`]; a class whose triangles fail its checks keeps
/// its pieces) and merged while convex. Merging the pieces themselves, as earlier
/// versions did, left more polygons on the grid maps at radius 0.5 (den312d 273 against
/// 243, den520d 1,386 against 1,242), as the corners of original polygons inside the
/// region split it, and searches on it cost up to 4.5x more (BENCHMARKS.md, "session
/// 20").
pub(super) fn join(original: &MeshData, pieces: &NavMesh, of_original: &[u32]) -> Option<Joined> {
    let data = pieces.data();
    let level: Vec<Option<f32>> = of_original
        .iter()
        .map(|&p| flat_height(original, p))
        .collect();
    let joined = cut_anew(original, data, of_original, &level)?;
    (joined.mesh.data().polygon_count() < data.polygon_count()).then_some(joined)
}

/// The joined copy of the pieces cut anew class by class ([`recut`]): each class's
/// triangles merged greedily while convex.
fn cut_anew(
    original: &MeshData,
    data: &MeshData,
    of_original: &[u32],
    level: &[Option<f32>],
) -> Option<Joined> {
    let cut = recut::recut(original, data, of_original, level);
    let areas: Vec<u8> = cut
        .class
        .iter()
        .map(|&c| cut.class_area[c as usize])
        .collect();
    let triangles = build(data, &cut.vertices, &cut.indices, &cut.sizes, &areas)?;
    let (indices, sizes, of_triangle) = coarse::merge(triangles.data(), |p, q| {
        cut.class[p as usize] == cut.class[q as usize]
    });
    let mut joined_class = vec![0u32; sizes.len()];
    for (t, &m) in of_triangle.iter().enumerate() {
        joined_class[m as usize] = cut.class[t];
    }
    // Only the vertices the joined polygons use.
    let mut renumbered = vec![u32::MAX; cut.vertices.len()];
    let mut vertices = Vec::new();
    let indices: Vec<u32> = indices
        .iter()
        .map(|&v| {
            if renumbered[v as usize] == u32::MAX {
                renumbered[v as usize] = vertices.len() as u32;
                vertices.push(cut.vertices[v as usize]);
            }
            renumbered[v as usize]
        })
        .collect();
    let areas: Vec<u8> = joined_class
        .iter()
        .map(|&c| cut.class_area[c as usize])
        .collect();
    let mesh = build(data, &vertices, &indices, &sizes, &areas)?;
    let piece_class = cut.class_of_piece;
    let lists =
        overlap::originals_under(mesh.data(), &joined_class, data, &piece_class, of_original);
    Some(Joined::new(mesh, lists))
}

/// A mesh of `vertices` and the polygons `indices` / `sizes` with `areas`, in the ground
/// plane of `like`, its vertices as given (not welded).
fn build(
    like: &MeshData,
    vertices: &[Vec3],
    indices: &[u32],
    sizes: &[u32],
    areas: &[u8],
) -> Option<NavMesh> {
    let options = MeshOptions::default()
        .with_up_axis(like.up)
        .with_weld_vertices(false);
    NavMesh::from_input(
        &MeshInput::new(vertices, indices)
            .with_polygon_sizes(sizes)
            .with_areas(areas),
        &options,
    )
    .ok()
}
