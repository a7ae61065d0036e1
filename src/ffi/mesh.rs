//! Making and releasing mesh handles: from vertices and polygons, from a tile grid, and
//! the frame every mesh constructor shares.

use glam::Vec3;

use super::boundary::{
    FfiError, read_array, read_optional_array, read_point, read_points, run, run_void,
};
use super::handle::{self, HandleOut, NavstarMesh};
use super::options::NavstarMeshOptions;
use super::status::NavstarStatus;
use crate::{MeshOptions, NavMesh, TileGrid};

/// Builds a navigation mesh from vertices and convex polygons.
///
/// * `vertices` (in): `3 * vertex_count` floats, xyz per vertex, world units. May be
///   NULL only when `vertex_count` is 0.
/// * `indices` (in): the polygons' corner vertex indices, polygon after polygon:
///   `3 * polygon_count` entries when `polygon_sizes` is NULL, else their sum.
/// * `polygon_sizes` (in, optional): corners per polygon (each >= 3); NULL means every
///   polygon is a triangle.
/// * `options` (in, optional): NULL for defaults.
/// * `out_mesh` (out): receives the new mesh on success, NULL on any error. Release
///   it with `navstar_mesh_free`.
///
/// Polygons must be convex in the ground plane (collinear corners allowed), either
/// winding. Rejected input gives `NAVSTAR_ERROR_INVALID_MESH` with a message naming the
/// polygon, corner, vertex or edge. Nothing is leaked on error. The arrays are copied;
/// the caller may free them when the call returns.
///
/// # Safety
/// Each non-NULL pointer must point to as many readable elements as described above.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_mesh_create(
    vertices: *const f32,
    vertex_count: u32,
    indices: *const u32,
    polygon_sizes: *const u32,
    polygon_count: u32,
    options: *const NavstarMeshOptions,
    out_mesh: *mut *mut NavstarMesh,
) -> NavstarStatus {
    let arrays = PolygonArrays {
        vertices,
        vertex_count,
        indices,
        polygon_sizes,
        polygon_count,
    };
    create_mesh("navstar_mesh_create", options, out_mesh, |options| {
        let polygons = arrays.read("")?;
        Ok(match &polygons.sizes {
            None => NavMesh::from_triangles(&polygons.points, &polygons.indices, &options)?,
            Some(sizes) => {
                NavMesh::from_polygons(&polygons.points, &polygons.indices, sizes, &options)?
            }
        })
    })
}

/// Builds a navigation mesh from a tile grid: the walkable area is exactly the union of
/// the walkable cells, merged into large rectangles (cells touching only at a corner
/// are not connected).
///
/// * `cells` (in): `width * height` bytes, row after row (`cells[y * width + x]`);
///   non-zero means walkable. May be NULL only when the grid is empty.
/// * `cell_size` (in): side of a cell in world units, finite and > 0.
/// * `origin` (in, optional): 3 floats, the world position of the corner of cell (0, 0);
///   NULL means (0, 0, 0). Cell (x, y) covers `[x, x+1] * cell_size` along world x and
///   `[y, y+1] * cell_size` along world z (Y up) or world y (Z up, per `options`).
/// * `options`, `out_mesh`: as for `navstar_mesh_create`.
///
/// # Safety
/// Each non-NULL pointer must point to as many readable elements as described above;
/// `out_mesh` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_mesh_create_from_grid(
    cells: *const u8,
    width: u32,
    height: u32,
    cell_size: f32,
    origin: *const f32,
    options: *const NavstarMeshOptions,
    out_mesh: *mut *mut NavstarMesh,
) -> NavstarStatus {
    create_mesh(
        "navstar_mesh_create_from_grid",
        options,
        out_mesh,
        |options| {
            let cell_count = usize::try_from(u64::from(width) * u64::from(height))
                .map_err(|_| FfiError::invalid("width * height does not fit in memory"))?;
            let cells = read_array(cells, cell_count, "cells")?;
            let origin = if origin.is_null() {
                Vec3::ZERO
            } else {
                read_point(origin, "origin")?
            };
            let walkable: Vec<bool> = cells.iter().map(|&c| c != 0).collect();
            let grid = TileGrid {
                width,
                height,
                walkable: &walkable,
                cell_size,
                origin,
            };
            Ok(NavMesh::from_grid(&grid, &options)?)
        },
    )
}

/// Releases a mesh. Queries made from it stay valid (they hold their own reference).
/// NULL does nothing.
///
/// # Safety
/// `mesh` must be NULL or a pointer returned by `navstar_mesh_create` that was not
/// freed yet.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_mesh_free(mesh: *mut NavstarMesh) {
    run_void("navstar_mesh_free", || handle::free(mesh));
}

/// The number of polygons of a mesh (0 for NULL).
///
/// # Safety
/// `mesh` must be NULL or a live mesh.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_mesh_polygon_count(mesh: *const NavstarMesh) -> u32 {
    handle::get(mesh).map_or(0, NavMesh::polygon_count)
}

/// The number of vertices of a mesh (0 for NULL): the `vertex_count` it was created
/// with, in the caller's numbering. Welding merges vertices at one position but keeps
/// this numbering: welded and unused input vertices still count. For a mesh made by
/// `navstar_mesh_create_from_grid`, the corners of the rectangles the grid was merged
/// into. `navstar_mesh_interpolate` takes one set of values per vertex in this
/// numbering.
///
/// # Safety
/// `mesh` must be NULL or a live mesh.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_mesh_vertex_count(mesh: *const NavstarMesh) -> u32 {
    handle::get(mesh).map_or(0, NavMesh::vertex_count)
}

/// The shared frame of the mesh constructors, run as the body of the C function
/// `function`: sets `*out_mesh` to NULL, reads the options (NULL = defaults), calls
/// `build`, and on success hands the new mesh out through `*out_mesh`.
pub(crate) fn create_mesh(
    function: &str,
    options: *const NavstarMeshOptions,
    out_mesh: *mut *mut NavstarMesh,
    build: impl FnOnce(MeshOptions) -> Result<NavMesh, FfiError>,
) -> NavstarStatus {
    run(function, || {
        let out_mesh = HandleOut::new(out_mesh, "out_mesh")?;
        let options = NavstarMeshOptions::read(options)?;
        out_mesh.give(build(options)?);
        Ok(NavstarStatus::NavstarOk)
    })
}

/// The caller's vertex and polygon arrays, as `navstar_mesh_create` and
/// `NavstarMeshInput` pass them.
#[derive(Clone, Copy)]
pub(crate) struct PolygonArrays {
    pub vertices: *const f32,
    pub vertex_count: u32,
    pub indices: *const u32,
    pub polygon_sizes: *const u32,
    pub polygon_count: u32,
}

/// [`PolygonArrays`] copied into Rust memory.
pub(crate) struct Polygons {
    pub points: Vec<Vec3>,
    pub indices: Vec<u32>,
    /// Corners per polygon; `None`: every polygon is a triangle.
    pub sizes: Option<Vec<u32>>,
}

impl PolygonArrays {
    /// Checks the counts and copies the arrays; `prefix` goes before each field name in
    /// messages (`"input->"` for a `NavstarMeshInput`).
    pub fn read(self, prefix: &str) -> Result<Polygons, FfiError> {
        if self.vertex_count == u32::MAX {
            return Err(FfiError::invalid(format!(
                "{prefix}vertex_count is UINT32_MAX; at most UINT32_MAX - 1 vertices are supported"
            )));
        }
        let sizes = read_optional_array(
            self.polygon_sizes,
            self.polygon_count as usize,
            &format!("{prefix}polygon_sizes"),
        )?;
        let index_count: u64 = match &sizes {
            None => 3 * u64::from(self.polygon_count),
            Some(sizes) => sizes.iter().map(|&s| u64::from(s)).sum(),
        };
        if index_count > u64::from(u32::MAX) {
            return Err(FfiError::invalid(format!(
                "the polygons need {index_count} indices; at most UINT32_MAX are supported"
            )));
        }
        let points = read_points(
            self.vertices,
            self.vertex_count,
            &format!("{prefix}vertices"),
        )?;
        let indices = read_array(
            self.indices,
            index_count as usize,
            &format!("{prefix}indices"),
        )?;
        Ok(Polygons {
            points,
            indices,
            sizes,
        })
    }
}
