//! Reading a mesh back into caller buffers, for debug drawing and to turn the polygon
//! numbers that queries return into places: vertices, polygon corners, neighbours,
//! areas, flags, islands and bounds.
//!
//! Per-polygon arrays follow the order of `navstar_mesh_polygon_ids` (entry `i` belongs
//! to its `i`-th polygon), so that they work alike on meshes built from arrays (polygon
//! `i` is entry `i`) and on snapshots of worlds (whose polygon numbers encode their
//! tile). Vertices are numbered by their place in `navstar_mesh_vertices`: for a mesh
//! built from arrays that is the caller's numbering; for a snapshot, the tiles' vertices
//! tile after tile. Nothing here allocates: counts are computed before the items.

use super::boundary::{FfiError, Out, OutSlice, run};
use super::handle::{self, NavstarMesh};
use super::queries::NAVSTAR_NO_POLYGON;
use super::status::NavstarStatus;
use crate::{NavMesh, QueryError};

/// Writes the positions of every vertex of a mesh: xyz per vertex, world units.
///
/// * `out_vertices` (out): room for `capacity` points (`3 * capacity` floats); may be
///   NULL when `capacity` is 0 (to ask for the count alone).
/// * `out_count` (out): the number of vertices, `navstar_mesh_vertex_count(mesh)`.
///
/// Returns `NAVSTAR_BUFFER_TOO_SMALL` when they do not all fit: the first `capacity`
/// were written and `*out_count` holds the count. Vertices that welding merged, and
/// vertices no polygon uses, are listed too (the numbering is the one the mesh was
/// created with). For a snapshot of a world: every tile's vertices, tile after tile
/// (by slot), the numbering `navstar_mesh_polygon_corners` and
/// `navstar_mesh_interpolate` use.
///
/// # Safety
/// `mesh` must be NULL or a live mesh; `out_vertices` NULL or writable for
/// `3 * capacity` floats; `out_count` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_mesh_vertices(
    mesh: *const NavstarMesh,
    out_vertices: *mut f32,
    capacity: u32,
    out_count: *mut u32,
) -> NavstarStatus {
    run("navstar_mesh_vertices", || {
        let out = OutSlice::new(
            out_vertices.cast::<[f32; 3]>(),
            capacity,
            out_count,
            "out_vertices",
        )?;
        let mesh: &NavMesh = handle::borrow(mesh, "mesh")?;
        let count = mesh.vertex_count() as usize;
        // Slot after slot (empty slots list nothing; a world has at most 65536) until
        // every vertex is listed.
        let vertices = (0..1 << 16).flat_map(|slot| mesh.tile_vertices(slot).iter());
        Ok(out.write(Counted::new(
            vertices.take(count).map(|v| v.to_array()),
            count,
        )))
    })
}

/// Writes the number of corners of every polygon, in the order of
/// `navstar_mesh_polygon_ids`: with `navstar_mesh_polygon_corners` and
/// `navstar_mesh_vertices`, the arrays `navstar_mesh_create` takes.
///
/// * `out_sizes` (out): room for `capacity` counts; may be NULL when `capacity` is 0.
/// * `out_count` (out): the number of polygons.
///
/// Returns `NAVSTAR_BUFFER_TOO_SMALL` when they do not all fit: the first `capacity`
/// were written and `*out_count` holds the count.
///
/// # Safety
/// `mesh` must be NULL or a live mesh; `out_sizes` NULL or writable for `capacity`
/// counts; `out_count` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_mesh_polygon_sizes(
    mesh: *const NavstarMesh,
    out_sizes: *mut u32,
    capacity: u32,
    out_count: *mut u32,
) -> NavstarStatus {
    run("navstar_mesh_polygon_sizes", || {
        let out = OutSlice::new(out_sizes, capacity, out_count, "out_sizes")?;
        let mesh: &NavMesh = handle::borrow(mesh, "mesh")?;
        Ok(write_per_polygon(out, mesh, |p| {
            mesh.polygon_vertices(p).len() as u32
        }))
    })
}

/// Writes the corners of every polygon, polygon after polygon in the order of
/// `navstar_mesh_polygon_ids`, each polygon's counter-clockwise in the ground plane
/// (seen from above): vertex numbers, places in `navstar_mesh_vertices`.
///
/// * `out_corners` (out): room for `capacity` vertex numbers; may be NULL when
///   `capacity` is 0.
/// * `out_count` (out): the number of corners of all polygons (the sum of
///   `navstar_mesh_polygon_sizes`).
///
/// Returns `NAVSTAR_BUFFER_TOO_SMALL` when they do not all fit: the first `capacity`
/// were written and `*out_count` holds the count. A corner that welding merged names
/// the vertex it was merged into.
///
/// # Safety
/// `mesh` must be NULL or a live mesh; `out_corners` NULL or writable for `capacity`
/// numbers; `out_count` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_mesh_polygon_corners(
    mesh: *const NavstarMesh,
    out_corners: *mut u32,
    capacity: u32,
    out_count: *mut u32,
) -> NavstarStatus {
    run("navstar_mesh_polygon_corners", || {
        let out = OutSlice::new(out_corners, capacity, out_count, "out_corners")?;
        let mesh: &NavMesh = handle::borrow(mesh, "mesh")?;
        write_per_corner(out, mesh, |v, _| mesh.vertex_index(v))
    })
}

/// Writes, for every corner in the order of `navstar_mesh_polygon_corners`, the polygon
/// on the other side of the edge from that corner to the polygon's next corner (after
/// the last corner: the first): a polygon number as `navstar_mesh_polygon_ids` gives
/// them, or `NAVSTAR_NO_POLYGON` for a wall. Off-mesh links are not edges and are not
/// listed.
///
/// * `out_neighbours` (out): room for `capacity` polygon numbers; may be NULL when
///   `capacity` is 0.
/// * `out_count` (out): the number of corners of all polygons.
///
/// Returns `NAVSTAR_BUFFER_TOO_SMALL` when they do not all fit: the first `capacity`
/// were written and `*out_count` holds the count.
///
/// # Safety
/// `mesh` must be NULL or a live mesh; `out_neighbours` NULL or writable for `capacity`
/// numbers; `out_count` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_mesh_polygon_neighbours(
    mesh: *const NavstarMesh,
    out_neighbours: *mut u32,
    capacity: u32,
    out_count: *mut u32,
) -> NavstarStatus {
    run("navstar_mesh_polygon_neighbours", || {
        let out = OutSlice::new(out_neighbours, capacity, out_count, "out_neighbours")?;
        let mesh: &NavMesh = handle::borrow(mesh, "mesh")?;
        write_per_corner(out, mesh, |_, n| n.unwrap_or(NAVSTAR_NO_POLYGON))
    })
}

/// Writes the area id (0 to 63, fixed at build) of every polygon, in the order of
/// `navstar_mesh_polygon_ids`.
///
/// * `out_areas` (out): room for `capacity` ids; may be NULL when `capacity` is 0.
/// * `out_count` (out): the number of polygons.
///
/// Returns `NAVSTAR_BUFFER_TOO_SMALL` when they do not all fit: the first `capacity`
/// were written and `*out_count` holds the count.
///
/// # Safety
/// `mesh` must be NULL or a live mesh; `out_areas` NULL or writable for `capacity`
/// bytes; `out_count` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_mesh_polygon_areas(
    mesh: *const NavstarMesh,
    out_areas: *mut u8,
    capacity: u32,
    out_count: *mut u32,
) -> NavstarStatus {
    run("navstar_mesh_polygon_areas", || {
        let out = OutSlice::new(out_areas, capacity, out_count, "out_areas")?;
        let mesh: &NavMesh = handle::borrow(mesh, "mesh")?;
        Ok(write_per_polygon(out, mesh, |p| mesh.polygon_area(p)))
    })
}

/// Writes the current flags of every polygon (as `navstar_mesh_set_polygon_flags` left
/// them), in the order of `navstar_mesh_polygon_ids`. Another thread changing flags
/// meanwhile may or may not be seen, polygon by polygon.
///
/// * `out_flags` (out): room for `capacity` flag words; may be NULL when `capacity` is 0.
/// * `out_count` (out): the number of polygons.
///
/// Returns `NAVSTAR_BUFFER_TOO_SMALL` when they do not all fit: the first `capacity`
/// were written and `*out_count` holds the count.
///
/// # Safety
/// `mesh` must be NULL or a live mesh; `out_flags` NULL or writable for `capacity`
/// words; `out_count` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_mesh_polygon_flags(
    mesh: *const NavstarMesh,
    out_flags: *mut u32,
    capacity: u32,
    out_count: *mut u32,
) -> NavstarStatus {
    run("navstar_mesh_polygon_flags", || {
        let out = OutSlice::new(out_flags, capacity, out_count, "out_flags")?;
        let mesh: &NavMesh = handle::borrow(mesh, "mesh")?;
        Ok(write_per_polygon(out, mesh, |p| mesh.polygon_flags(p)))
    })
}

/// Writes the island of every polygon (its set of polygons joined by shared edges and
/// off-mesh links, numbered from 0 below `navstar_mesh_island_count`), in the order of
/// `navstar_mesh_polygon_ids`. Two polygons on different islands never have a path
/// between them; islands ignore flags.
///
/// * `out_islands` (out): room for `capacity` numbers; may be NULL when `capacity` is 0.
/// * `out_count` (out): the number of polygons.
///
/// Returns `NAVSTAR_BUFFER_TOO_SMALL` when they do not all fit: the first `capacity`
/// were written and `*out_count` holds the count.
///
/// # Safety
/// `mesh` must be NULL or a live mesh; `out_islands` NULL or writable for `capacity`
/// numbers; `out_count` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_mesh_polygon_islands(
    mesh: *const NavstarMesh,
    out_islands: *mut u32,
    capacity: u32,
    out_count: *mut u32,
) -> NavstarStatus {
    run("navstar_mesh_polygon_islands", || {
        let out = OutSlice::new(out_islands, capacity, out_count, "out_islands")?;
        let mesh: &NavMesh = handle::borrow(mesh, "mesh")?;
        Ok(write_per_polygon(out, mesh, |p| mesh.island(p)))
    })
}

/// The number of islands of a mesh (0 for NULL): see `navstar_mesh_polygon_islands`.
///
/// # Safety
/// `mesh` must be NULL or a live mesh.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_mesh_island_count(mesh: *const NavstarMesh) -> u32 {
    handle::get(mesh).map_or(0, NavMesh::island_count)
}

/// The bounding box of all polygons of a mesh, world units.
///
/// * `out_min`, `out_max` (out): 3 floats each, the smallest and the largest x, y and z
///   of the polygons' corners. A snapshot of an empty world has no polygons: its box is
///   empty, min `+INFINITY` and max `-INFINITY` on every axis.
///
/// # Safety
/// `mesh` must be NULL or a live mesh; `out_min` and `out_max` NULL or writable for 3
/// floats.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_mesh_bounds(
    mesh: *const NavstarMesh,
    out_min: *mut f32,
    out_max: *mut f32,
) -> NavstarStatus {
    run("navstar_mesh_bounds", || {
        let out_min = Out::required(out_min.cast::<[f32; 3]>(), "out_min")?;
        let out_max = Out::required(out_max.cast::<[f32; 3]>(), "out_max")?;
        let mesh: &NavMesh = handle::borrow(mesh, "mesh")?;
        let bounds = mesh.bounds();
        out_min.set(bounds.min.to_array());
        out_max.set(bounds.max.to_array());
        Ok(NavstarStatus::NavstarOk)
    })
}

/// Writes the corner positions of polygon `polygon` (a number from
/// `navstar_mesh_polygon_ids`, a path corridor or any query), counter-clockwise in the
/// ground plane: xyz per corner, world units. What debug drawing and a corridor's
/// places need, one polygon at a time.
///
/// * `out_points` (out): room for `capacity` points; may be NULL when `capacity` is 0.
/// * `out_count` (out): the number of corners of the polygon.
///
/// Returns `NAVSTAR_BUFFER_TOO_SMALL` when they do not all fit: the first `capacity`
/// were written and `*out_count` holds the count. A polygon number the mesh does not
/// have is `NAVSTAR_ERROR_INVALID_ARGUMENT` naming it.
///
/// # Safety
/// `mesh` must be NULL or a live mesh; `out_points` NULL or writable for `3 * capacity`
/// floats; `out_count` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_mesh_polygon_points(
    mesh: *const NavstarMesh,
    polygon: u32,
    out_points: *mut f32,
    capacity: u32,
    out_count: *mut u32,
) -> NavstarStatus {
    run("navstar_mesh_polygon_points", || {
        let out = OutSlice::new(
            out_points.cast::<[f32; 3]>(),
            capacity,
            out_count,
            "out_points",
        )?;
        let mesh: &NavMesh = handle::borrow(mesh, "mesh")?;
        if !mesh.contains_polygon(polygon) {
            return Err(QueryError::IndexOutOfRange {
                what: "polygon",
                index: polygon,
                count: mesh.polygon_count(),
            }
            .into());
        }
        let corners = mesh.polygon_vertices(polygon);
        Ok(out.write(corners.iter().map(|&v| mesh.vertex(v).to_array())))
    })
}

/// Writes one value per polygon, `value(polygon)`, in the order of the polygon ids.
fn write_per_polygon<T>(
    out: OutSlice<T>,
    mesh: &NavMesh,
    value: impl Fn(u32) -> T,
) -> NavstarStatus {
    let items = mesh.polygon_ids().map(value);
    out.write(Counted::new(items, mesh.polygon_count() as usize))
}

/// Writes one value per corner, `value(vertex, neighbour)` from the corner's vertex id
/// and the polygon across the edge that starts at it, polygon after polygon in the order
/// of the polygon ids. The count is computed first, so nothing is collected.
fn write_per_corner(
    out: OutSlice<u32>,
    mesh: &NavMesh,
    value: impl Fn(u32, Option<u32>) -> u32,
) -> Result<NavstarStatus, FfiError> {
    let count: u64 = mesh
        .polygon_ids()
        .map(|p| mesh.polygon_vertices(p).len() as u64)
        .sum();
    let count = u32::try_from(count).map_err(|_| {
        FfiError::invalid(format!(
            "the mesh has {count} corners, more than a count (UINT32_MAX) can report"
        ))
    })?;
    let items = mesh.polygon_ids().flat_map(|p| {
        let corners = mesh.polygon_vertices(p).iter();
        corners
            .zip(mesh.polygon_neighbours(p))
            .map(|(&v, n)| value(v, n))
    });
    Ok(out.write(Counted::new(items, count as usize)))
}

/// An iterator whose length is known in advance, so that [`OutSlice::write`] can report
/// the count without collecting the items.
struct Counted<I> {
    items: I,
    left: usize,
}

impl<I> Counted<I> {
    fn new(items: I, len: usize) -> Self {
        Counted { items, left: len }
    }
}

impl<I: Iterator> Iterator for Counted<I> {
    type Item = I::Item;

    fn next(&mut self) -> Option<I::Item> {
        let item = self.items.next()?;
        self.left = self.left.saturating_sub(1);
        Some(item)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl<I: Iterator> ExactSizeIterator for Counted<I> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counted_reports_the_given_length() {
        let items = Counted::new((0..5).filter(|x| x % 2 == 0), 3);
        assert_eq!(items.len(), 3);
        assert_eq!(items.collect::<Vec<_>>(), [0, 2, 4]);
    }
}
