//! The mesh read-back functions (`navstar_mesh_vertices`, `_polygon_sizes`,
//! `_polygon_corners`, `_polygon_neighbours`, `_polygon_areas`, `_polygon_flags`,
//! `_polygon_islands`, `_polygon_ids`, `_polygon_points`, `_bounds`, `_island_count`)
//! against the Rust accessors of the same mesh, with any capacity and NULL arguments.

use std::ptr;

use arbitrary::Arbitrary;
use navstar::NavMesh;
use navstar::ffi::{
    NAVSTAR_NO_POLYGON, NavstarMesh, NavstarStatus, navstar_mesh_bounds, navstar_mesh_island_count,
    navstar_mesh_polygon_areas, navstar_mesh_polygon_corners, navstar_mesh_polygon_flags,
    navstar_mesh_polygon_ids, navstar_mesh_polygon_islands, navstar_mesh_polygon_neighbours,
    navstar_mesh_polygon_points, navstar_mesh_polygon_sizes, navstar_mesh_vertices,
};

use crate::buffers::SENTINEL_BITS;
use crate::{
    BUFFER_TOO_SMALL, CMesh, INVALID_ARGUMENT, ListBuffers, NULL_ARGUMENT, OK, call_list,
    check_status_and_message,
};

/// A per-polygon or per-corner array of 32-bit values.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Array {
    /// `navstar_mesh_polygon_sizes`.
    Sizes,
    /// `navstar_mesh_polygon_corners`.
    Corners,
    /// `navstar_mesh_polygon_neighbours`.
    Neighbours,
    /// `navstar_mesh_polygon_flags`.
    Flags,
    /// `navstar_mesh_polygon_islands`.
    Islands,
    /// `navstar_mesh_polygon_ids`.
    Ids,
}

/// The arguments of one read-back call.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub struct Call {
    /// Room for `capacity % 300` items.
    pub capacity: u16,
    /// The buffer is NULL.
    pub out_null: bool,
    /// `out_count` is NULL.
    pub count_null: bool,
    /// The mesh is NULL.
    pub mesh_null: bool,
}

impl Call {
    fn buffers(self) -> ListBuffers {
        ListBuffers {
            capacity: u32::from(self.capacity % 300),
            out_null: self.out_null,
            count_null: self.count_null,
        }
    }

    fn mesh(self, mesh: &CMesh) -> *const NavstarMesh {
        if self.mesh_null {
            ptr::null()
        } else {
            mesh.as_ptr()
        }
    }

    /// The NULL argument the call must name, in the order the functions check them
    /// (`out_count`, the buffer, the mesh), if any.
    fn fault(self, buffer: &str) -> Option<String> {
        if self.count_null {
            Some("out_count is NULL".into())
        } else if self.out_null && self.buffers().capacity > 0 {
            Some(format!("{buffer} (with capacity > 0) is NULL"))
        } else if self.mesh_null {
            Some("mesh is NULL".into())
        } else {
            None
        }
    }
}

/// What the read-backs of `mesh` must give, from the Rust accessors, in the order of
/// its polygon ids.
pub struct Expected {
    vertices: Vec<[f32; 3]>,
    sizes: Vec<u32>,
    corners: Vec<u32>,
    neighbours: Vec<u32>,
    areas: Vec<u8>,
    flags: Vec<u32>,
    islands: Vec<u32>,
    ids: Vec<u32>,
}

impl Expected {
    /// Reads `mesh` through the Rust API (flags as they are now).
    pub fn of(mesh: &NavMesh) -> Expected {
        let ids: Vec<u32> = mesh.polygon_ids().collect();
        let corners = |value: &dyn Fn(u32, Option<u32>) -> u32| -> Vec<u32> {
            ids.iter()
                .flat_map(|&p| {
                    let vertices = mesh.polygon_vertices(p).iter();
                    vertices
                        .zip(mesh.polygon_neighbours(p))
                        .map(|(&v, n)| value(v, n))
                })
                .collect()
        };
        Expected {
            vertices: (0..1u32 << 16)
                .flat_map(|slot| mesh.tile_vertices(slot).iter().map(|v| v.to_array()))
                .collect(),
            sizes: ids
                .iter()
                .map(|&p| mesh.polygon_vertices(p).len() as u32)
                .collect(),
            corners: corners(&|v, _| mesh.vertex_index(v)),
            neighbours: corners(&|_, n| n.unwrap_or(NAVSTAR_NO_POLYGON)),
            areas: ids.iter().map(|&p| mesh.polygon_area(p)).collect(),
            flags: ids.iter().map(|&p| mesh.polygon_flags(p)).collect(),
            islands: ids.iter().map(|&p| mesh.island(p)).collect(),
            ids,
        }
    }

    /// The polygon ids.
    pub fn ids(&self) -> &[u32] {
        &self.ids
    }
}

/// Checks a list answer: an error naming `fault`, or the prefix and the count of `want`.
#[track_caller]
fn check_list<T: PartialEq + std::fmt::Debug>(
    function: &str,
    call: Call,
    fault: Option<String>,
    answer: (NavstarStatus, String, u32, Vec<T>),
    want: &[T],
) {
    let (status, message, count, items) = answer;
    match fault {
        Some(fault) => {
            assert_eq!(status, NULL_ARGUMENT, "{function}: {message}");
            assert_eq!(message, format!("{function}: {fault}"));
        }
        None => {
            assert_eq!(count as usize, want.len(), "{function}: count");
            let capacity = usize::from(call.capacity % 300);
            let status_due = if want.len() > capacity {
                BUFFER_TOO_SMALL
            } else {
                OK
            };
            assert_eq!(status, status_due, "{function}");
            assert_eq!(
                &items[..],
                &want[..want.len().min(capacity)],
                "{function}: items"
            );
        }
    }
}

/// One call of a 32-bit read-back against `expected`.
pub fn check_array(mesh: &CMesh, expected: &Expected, array: Array, call: Call) {
    type Read = unsafe extern "C" fn(*const NavstarMesh, *mut u32, u32, *mut u32) -> NavstarStatus;
    let (function, buffer, read, want): (&str, &str, Read, &[u32]) = match array {
        Array::Sizes => (
            "navstar_mesh_polygon_sizes",
            "out_sizes",
            navstar_mesh_polygon_sizes,
            &expected.sizes,
        ),
        Array::Corners => (
            "navstar_mesh_polygon_corners",
            "out_corners",
            navstar_mesh_polygon_corners,
            &expected.corners,
        ),
        Array::Neighbours => (
            "navstar_mesh_polygon_neighbours",
            "out_neighbours",
            navstar_mesh_polygon_neighbours,
            &expected.neighbours,
        ),
        Array::Flags => (
            "navstar_mesh_polygon_flags",
            "out_flags",
            navstar_mesh_polygon_flags,
            &expected.flags,
        ),
        Array::Islands => (
            "navstar_mesh_polygon_islands",
            "out_islands",
            navstar_mesh_polygon_islands,
            &expected.islands,
        ),
        Array::Ids => (
            "navstar_mesh_polygon_ids",
            "out_ids",
            navstar_mesh_polygon_ids,
            &expected.ids,
        ),
    };
    if want.contains(&SENTINEL_BITS) {
        return; // a value the guard cannot tell from an unwritten word
    }
    let mesh_ptr = call.mesh(mesh);
    // SAFETY: the buffers come from call_list (NULL or room for `capacity`); the mesh
    // is NULL or live.
    let a = call_list::<u32>(function, call.buffers(), |out, capacity, count| unsafe {
        read(mesh_ptr, out, capacity, count)
    });
    check_list(
        function,
        call,
        call.fault(buffer),
        (a.status, a.message, a.count, a.items),
        want,
    );
}

/// One call of `navstar_mesh_vertices` against `expected`.
pub fn check_vertices(mesh: &CMesh, expected: &Expected, call: Call) {
    let function = "navstar_mesh_vertices";
    let mesh_ptr = call.mesh(mesh);
    // SAFETY: as in check_array; a point is 3 floats.
    let a = call_list::<[f32; 3]>(function, call.buffers(), |out, capacity, count| unsafe {
        navstar_mesh_vertices(mesh_ptr, out.cast(), capacity, count)
    });
    let bits = |points: &[[f32; 3]]| -> Vec<[u32; 3]> {
        points.iter().map(|p| p.map(f32::to_bits)).collect()
    };
    let answer = (a.status, a.message, a.count, bits(&a.items));
    check_list(
        function,
        call,
        call.fault("out_vertices"),
        answer,
        &bits(&expected.vertices),
    );
}

/// One call of `navstar_mesh_polygon_areas` against `expected`: a byte buffer with its
/// own guard (area ids are below 64, so 0xff is never written).
pub fn check_areas(mesh: &CMesh, expected: &Expected, call: Call) {
    let function = "navstar_mesh_polygon_areas";
    let buffers = call.buffers();
    let mut buffer = vec![0xffu8; buffers.capacity as usize + 8];
    let mut count = 0xdead_beef_u32;
    let out = if call.out_null {
        ptr::null_mut()
    } else {
        buffer.as_mut_ptr()
    };
    let count_ptr = if call.count_null {
        ptr::null_mut()
    } else {
        ptr::from_mut(&mut count)
    };
    // SAFETY: the buffer is NULL or has room for `capacity` bytes; the mesh NULL or live.
    let status =
        unsafe { navstar_mesh_polygon_areas(call.mesh(mesh), out, buffers.capacity, count_ptr) };
    let message = check_status_and_message(function, status);
    let written = if (status as i32) < 0 {
        if !call.count_null {
            assert_eq!(count, 0, "{function}: *out_count after an error");
        }
        0
    } else {
        count.min(buffers.capacity) as usize
    };
    assert!(
        buffer[written..].iter().all(|&b| b == 0xff),
        "{function}: written past {written}"
    );
    let answer = (
        status,
        message,
        if (status as i32) < 0 { 0 } else { count },
        buffer[..written].to_vec(),
    );
    check_list(
        function,
        call,
        call.fault("out_areas"),
        answer,
        &expected.areas,
    );
}

/// One call of `navstar_mesh_polygon_points` for `polygon`, against the Rust corners.
pub fn check_points(mesh: &CMesh, rust: &NavMesh, polygon: u32, call: Call) {
    let function = "navstar_mesh_polygon_points";
    let mesh_ptr = call.mesh(mesh);
    // SAFETY: as in check_vertices.
    let a = call_list::<[f32; 3]>(function, call.buffers(), |out, capacity, count| unsafe {
        navstar_mesh_polygon_points(mesh_ptr, polygon, out.cast(), capacity, count)
    });
    let fault = call.fault("out_points");
    if fault.is_none() && !rust.contains_polygon(polygon) {
        assert_eq!(a.status, INVALID_ARGUMENT, "{}", a.message);
        assert!(
            a.message.contains(&format!("polygon {polygon}")),
            "{}",
            a.message
        );
        return;
    }
    let want: Vec<[u32; 3]> = if rust.contains_polygon(polygon) {
        rust.polygon_vertices(polygon)
            .iter()
            .map(|&v| rust.vertex(v).to_array().map(f32::to_bits))
            .collect()
    } else {
        Vec::new()
    };
    let got: Vec<[u32; 3]> = a.items.iter().map(|p| p.map(f32::to_bits)).collect();
    check_list(
        function,
        call,
        fault,
        (a.status, a.message, a.count, got),
        &want,
    );
}

/// `navstar_mesh_bounds` (any output NULL) and `navstar_mesh_island_count` against the
/// Rust mesh.
pub fn check_bounds(mesh: &CMesh, rust: &NavMesh, min_null: bool, max_null: bool, mesh_null: bool) {
    let function = "navstar_mesh_bounds";
    let (mut min, mut max) = (
        [f32::from_bits(SENTINEL_BITS); 3],
        [f32::from_bits(SENTINEL_BITS); 3],
    );
    let min_ptr = if min_null {
        ptr::null_mut()
    } else {
        min.as_mut_ptr()
    };
    let max_ptr = if max_null {
        ptr::null_mut()
    } else {
        max.as_mut_ptr()
    };
    let mesh_ptr = if mesh_null {
        ptr::null()
    } else {
        mesh.as_ptr()
    };
    // SAFETY: each output NULL or 3 writable floats; the mesh NULL or live.
    let status = unsafe { navstar_mesh_bounds(mesh_ptr, min_ptr, max_ptr) };
    let message = check_status_and_message(function, status);
    let fault = [
        (min_null, "out_min"),
        (max_null, "out_max"),
        (mesh_null, "mesh"),
    ]
    .into_iter()
    .find(|(null, _)| *null);
    if let Some((_, name)) = fault {
        assert_eq!(status, NULL_ARGUMENT);
        assert_eq!(message, format!("{function}: {name} is NULL"));
        let untouched = |p: &[f32; 3]| p.iter().all(|f| f.to_bits() == SENTINEL_BITS);
        assert!(
            untouched(&min) && untouched(&max),
            "{function} wrote on error"
        );
    } else {
        assert_eq!(status, OK);
        let b = rust.bounds();
        assert_eq!(min.map(f32::to_bits), b.min.to_array().map(f32::to_bits));
        assert_eq!(max.map(f32::to_bits), b.max.to_array().map(f32::to_bits));
    }
    // SAFETY: a live mesh, and NULL.
    unsafe {
        assert_eq!(
            navstar_mesh_island_count(mesh.as_ptr()),
            rust.island_count()
        );
        assert_eq!(navstar_mesh_island_count(ptr::null()), 0);
    }
}
