//! Building a mesh with areas, flags and off-mesh links, and changing flags at run time.

use glam::Vec3;

use super::boundary::{
    FfiError, Versioned, non_null, put, read_array, read_optional_array, read_versioned, run,
};
use super::handle::{self, NavstarMesh};
use super::mesh::{PolygonArrays, create_mesh};
use super::options::NavstarMeshOptions;
use super::status::NavstarStatus;
use crate::{MeshInput, NavMesh, OffMeshLink, QueryError};

/// `NavstarOffMeshLink::cost` meaning "the 3D distance between the link's ends".
pub const NAVSTAR_LINK_COST_DISTANCE: f32 = -1.0;

/// An off-mesh link (ladder, jump, teleporter) for `NavstarMeshInput::links`. Start from
/// `navstar_off_mesh_link_default()`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NavstarOffMeshLink {
    /// Where the link is entered (xyz, world units).
    pub start: [f32; 3],
    /// Where it leaves (xyz, world units).
    pub end: [f32; 3],
    /// Non-zero (default 1): it can also be taken from `end` to `start`.
    pub bidirectional: u32,
    /// The cost of taking it, in world length units, before the filter's multiplier for
    /// its area; finite and >= 0, or `NAVSTAR_LINK_COST_DISTANCE` (default) for the 3D
    /// distance between its ends.
    pub cost: f32,
    /// Its area id, below `NAVSTAR_MAX_AREAS` (default 0).
    pub area: u32,
    /// Its initial flags (default 1).
    pub flags: u32,
    /// How far (3D, world units) each end may be from the mesh; it attaches to the
    /// nearest point within that distance. Default 1.
    pub radius: f32,
}

/// Everything `navstar_mesh_create_ex` builds a mesh from. Start from
/// `navstar_mesh_input_default()` and set the arrays; the library copies them and keeps
/// no pointer after the call.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct NavstarMeshInput {
    /// `sizeof(NavstarMeshInput)`; set by the default constructor.
    pub struct_size: u32,
    /// Number of vertices.
    pub vertex_count: u32,
    /// `3 * vertex_count` floats, xyz per vertex.
    pub vertices: *const f32,
    /// Corner vertex indices, polygon after polygon.
    pub indices: *const u32,
    /// Corners per polygon (each >= 3), or NULL: every polygon is a triangle.
    pub polygon_sizes: *const u32,
    /// Number of polygons.
    pub polygon_count: u32,
    /// Number of entries of `links`.
    pub link_count: u32,
    /// Area id per polygon (`polygon_count` bytes, each below `NAVSTAR_MAX_AREAS`), or
    /// NULL: area 0 everywhere.
    pub areas: *const u8,
    /// Initial flags per polygon (`polygon_count` entries), or NULL: 1 everywhere.
    pub flags: *const u32,
    /// `link_count` off-mesh links, or NULL when `link_count` is 0.
    pub links: *const NavstarOffMeshLink,
}

// SAFETY: the pointers are only read during `navstar_mesh_create_ex`, by the calling
// thread; the struct itself is plain data.
unsafe impl Send for NavstarMeshInput {}
// SAFETY: as above.
unsafe impl Sync for NavstarMeshInput {}

/// A link with the defaults of [`OffMeshLink::new`]: two-way, cost = distance, area 0,
/// flags 1, radius 1, both ends at the origin.
impl Default for NavstarOffMeshLink {
    fn default() -> Self {
        let d = OffMeshLink::new(Vec3::ZERO, Vec3::ZERO);
        NavstarOffMeshLink {
            start: [0.0; 3],
            end: [0.0; 3],
            bidirectional: u32::from(d.bidirectional),
            cost: NAVSTAR_LINK_COST_DISTANCE,
            area: u32::from(d.area),
            flags: d.flags,
            radius: d.radius,
        }
    }
}

/// An empty input: all counts 0, all pointers NULL, `struct_size` set.
impl Default for NavstarMeshInput {
    fn default() -> Self {
        NavstarMeshInput {
            struct_size: size_of::<NavstarMeshInput>() as u32,
            vertex_count: 0,
            vertices: std::ptr::null(),
            indices: std::ptr::null(),
            polygon_sizes: std::ptr::null(),
            polygon_count: 0,
            link_count: 0,
            areas: std::ptr::null(),
            flags: std::ptr::null(),
            links: std::ptr::null(),
        }
    }
}

// SAFETY: #[repr(C)], starts with `struct_size: u32`, and made of u32 and raw pointers,
// for which any bits are a valid value.
unsafe impl Versioned for NavstarMeshInput {
    /// One version so far.
    const OLDER_SIZES: &'static [usize] = &[];
    const DEFAULT_FUNCTION: &'static str = "navstar_mesh_input_default";
}

/// Builds a navigation mesh with per-polygon areas and flags and off-mesh links.
///
/// * `input` (in): the arrays (see `NavstarMeshInput`); copied, not kept.
/// * `options` (in, optional): NULL for defaults.
/// * `out_mesh` (out): the new mesh, or NULL on any error.
///
/// Errors as for `navstar_mesh_create`, plus `NAVSTAR_ERROR_INVALID_MESH` naming the
/// polygon with an area id >= `NAVSTAR_MAX_AREAS`, or the off-mesh link that is malformed
/// or too far from the mesh.
///
/// # Safety
/// `input` NULL or a readable `NavstarMeshInput` whose non-NULL pointers point to the
/// counts of elements described there; `options` NULL or readable; `out_mesh` NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_mesh_create_ex(
    input: *const NavstarMeshInput,
    options: *const NavstarMeshOptions,
    out_mesh: *mut *mut NavstarMesh,
) -> NavstarStatus {
    create_mesh("navstar_mesh_create_ex", options, out_mesh, |options| {
        let input = read_versioned(non_null(input, "input")?, "input")?;
        let polygons = PolygonArrays {
            vertices: input.vertices,
            vertex_count: input.vertex_count,
            indices: input.indices,
            polygon_sizes: input.polygon_sizes,
            polygon_count: input.polygon_count,
        }
        .read("input->")?;
        let count = input.polygon_count as usize;
        let areas = read_optional_array(input.areas, count, "input->areas")?;
        let flags = read_optional_array(input.flags, count, "input->flags")?;
        let links = read_array(input.links, input.link_count as usize, "input->links")?
            .iter()
            .enumerate()
            .map(|(i, l)| link_to_rust(i, l))
            .collect::<Result<Vec<_>, _>>()?;
        let mut mesh_input = MeshInput::new(&polygons.points, &polygons.indices).with_links(&links);
        mesh_input.polygon_sizes = polygons.sizes.as_deref();
        mesh_input.areas = areas.as_deref();
        mesh_input.flags = flags.as_deref();
        Ok(NavMesh::from_input(&mesh_input, &options)?)
    })
}

/// Converts link `index` of a `NavstarMeshInput`; an area id beyond a byte is
/// `NAVSTAR_ERROR_INVALID_MESH` naming the link (the mesh build checks the rest).
fn link_to_rust(index: usize, link: &NavstarOffMeshLink) -> Result<OffMeshLink, FfiError> {
    let (start, end) = (Vec3::from(link.start), Vec3::from(link.end));
    let mut rust = OffMeshLink::new(start, end);
    rust.bidirectional = link.bidirectional != 0;
    if link.cost != NAVSTAR_LINK_COST_DISTANCE {
        rust.cost = link.cost;
    }
    rust.area = u8::try_from(link.area).map_err(|_| {
        FfiError::new(
            NavstarStatus::NavstarErrorInvalidMesh,
            format!("off-mesh link {index}: area must be below 64"),
        )
    })?;
    rust.flags = link.flags;
    rust.radius = link.radius;
    Ok(rust)
}

/// Changes the flags of a polygon while other threads may query the mesh (a door
/// closes: clear a bit your filters include). No lock; each query sees the old or the
/// new flags.
///
/// * `out_previous` (out, optional): the flags before the change.
///
/// Returns `NAVSTAR_ERROR_INVALID_ARGUMENT` naming the polygon when it is out of range.
///
/// # Safety
/// `mesh` NULL or a live mesh; `out_previous` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_mesh_set_polygon_flags(
    mesh: *const NavstarMesh,
    polygon: u32,
    flags: u32,
    out_previous: *mut u32,
) -> NavstarStatus {
    set_flags("navstar_mesh_set_polygon_flags", mesh, out_previous, |m| {
        m.set_polygon_flags(polygon, flags)
    })
}

/// Reads the current flags and the area id of a polygon.
///
/// * `out_flags`, `out_area` (out, optional): its flags and area id.
///
/// # Safety
/// `mesh` NULL or a live mesh; each out pointer NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_mesh_polygon_info(
    mesh: *const NavstarMesh,
    polygon: u32,
    out_flags: *mut u32,
    out_area: *mut u32,
) -> NavstarStatus {
    run("navstar_mesh_polygon_info", || {
        let mesh = handle::borrow(mesh, "mesh")?;
        if !mesh.contains_polygon(polygon) {
            return Err(QueryError::IndexOutOfRange {
                what: "polygon",
                index: polygon,
                count: mesh.polygon_count(),
            }
            .into());
        }
        put(out_flags, mesh.polygon_flags(polygon));
        put(out_area, u32::from(mesh.polygon_area(polygon)));
        Ok(NavstarStatus::NavstarOk)
    })
}

/// Changes the flags of an off-mesh link (by its index in `NavstarMeshInput::links`),
/// with the same guarantees as `navstar_mesh_set_polygon_flags`.
///
/// # Safety
/// `mesh` NULL or a live mesh; `out_previous` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_mesh_set_link_flags(
    mesh: *const NavstarMesh,
    link: u32,
    flags: u32,
    out_previous: *mut u32,
) -> NavstarStatus {
    set_flags("navstar_mesh_set_link_flags", mesh, out_previous, |m| {
        m.set_link_flags(link, flags)
    })
}

/// The number of off-mesh links of a mesh (0 for NULL).
///
/// # Safety
/// `mesh` must be NULL or a live mesh.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn navstar_mesh_link_count(mesh: *const NavstarMesh) -> u32 {
    handle::get(mesh).map_or(0, NavMesh::link_count)
}

/// The body of the flag setters, run as the C function `function`: `set` changes the
/// flags of one item of the mesh and returns the previous ones, which go to the
/// optional `out_previous`.
fn set_flags(
    function: &str,
    mesh: *const NavstarMesh,
    out_previous: *mut u32,
    set: impl FnOnce(&NavMesh) -> Result<u32, QueryError>,
) -> NavstarStatus {
    run(function, || {
        let previous = set(handle::borrow(mesh, "mesh")?)?;
        put(out_previous, previous);
        Ok(NavstarStatus::NavstarOk)
    })
}
