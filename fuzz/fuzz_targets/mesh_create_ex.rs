//! Fuzzes `navstar_mesh_create_ex`: valid grid meshes with per-polygon areas (some >= 64)
//! and flags and up to 4 off-mesh links (ends on, near and far from the mesh, any cost,
//! radius, area and flags), then broken on purpose: any `struct_size`, NULL input or
//! arrays, vertex, polygon and link counts below what is given, zero, `UINT32_MAX` or
//! huge (huge only where the library must reject the count before reading), any mesh
//! options.
//!
//! Injected faults must give their documented error with a message naming the argument.
//! Otherwise the status and message must equal the Rust builder's on the same arrays
//! (`NavMesh::from_input`), and an accepted mesh must report the polygon and link
//! counts given, each polygon's area and flags as given (or the defaults for NULL
//! arrays), each link's flags; and paths on it through the C ABI must equal the Rust
//! API's and keep the path checker's promises.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use navstar::Query;
use navstar_fuzz::calls::{
    Fault, FlagTarget, NullOuts, c_set_flags, check_faults, polygon_info_checked,
};
use navstar_fuzz::input::{Extras, MeshArrays, c_mesh_create_ex, rust_link};
use navstar_fuzz::{
    Expect, GridSpec, INVALID_ARGUMENT, INVALID_MESH, MeshOpts, NULL_ARGUMENT, OK, PointIn,
    QueryOpts, SmallU32, compare_query, mesh_status,
};

/// A count relative to what is given.
#[derive(Arbitrary, Debug, Clone, Copy)]
enum Count {
    All,
    /// A few less.
    Fewer(u8),
    Zero,
    /// Beyond what can be given (only where it must be rejected before reading).
    Huge(u32),
}

/// Bits of `Input::nulls`: which pointers are NULL.
const NULL_INPUT: u8 = 1;
const NULL_VERTICES: u8 = 2;
const NULL_INDICES: u8 = 4;
const NULL_SIZES: u8 = 8;
const NULL_AREAS: u8 = 16;
const NULL_FLAGS: u8 = 32;
const NULL_LINKS: u8 = 64;

#[derive(Arbitrary, Debug)]
struct Input {
    grid: GridSpec,
    extras: Extras,
    /// `None`: the right size.
    struct_size: Option<SmallU32>,
    vertex_count: Count,
    polygon_count: Count,
    link_count: Count,
    /// `NULL_*` bits, used only when `broken` is set.
    nulls: u8,
    broken: bool,
    options: MeshOpts,
    queries: Vec<(PointIn, PointIn, QueryOpts)>,
}

fn fewer(all: u32, count: Count) -> u32 {
    match count {
        Count::All | Count::Huge(_) => all,
        Count::Fewer(k) => all.saturating_sub(u32::from(k % 8)),
        Count::Zero => 0,
    }
}

fuzz_target!(|input: Input| {
    let full = MeshArrays::new(&input.grid, &input.extras);
    let floats = full.floats();
    let nulls = if input.broken { input.nulls } else { 0 };
    let null = |bit: u8| nulls & bit != 0;
    let triangles = full.triangles || null(NULL_SIZES);
    let mut c = full.c_input(&floats);
    if null(NULL_SIZES) {
        c.polygon_sizes = std::ptr::null();
    }
    let mut cut_input = full.clone();
    if null(NULL_AREAS) {
        c.areas = std::ptr::null();
        cut_input.areas = None;
    }
    if null(NULL_FLAGS) {
        c.flags = std::ptr::null();
        cut_input.flags = None;
    }
    // Counts: within what is given, or huge where the library rejects them first (and
    // then every array they size is NULL or never read).
    let mut huge_polygons = false;
    c.vertex_count = match input.vertex_count {
        Count::Huge(_) => u32::MAX,
        other => fewer(c.vertex_count, other),
    };
    c.polygon_count = match input.polygon_count {
        Count::Huge(x) if triangles => {
            huge_polygons = true;
            c.areas = std::ptr::null();
            c.flags = std::ptr::null();
            u32::MAX / 3 + 1 + x % (u32::MAX - u32::MAX / 3)
        }
        other => fewer(c.polygon_count, other),
    };
    let mut huge_links = false;
    c.link_count = match input.link_count {
        Count::Huge(x) => {
            huge_links = true;
            x | 0x1000_0000
        }
        other => fewer(c.link_count, other),
    };
    if null(NULL_VERTICES) {
        c.vertices = std::ptr::null();
    }
    if null(NULL_INDICES) {
        c.indices = std::ptr::null();
    }
    if null(NULL_LINKS) || huge_links {
        c.links = std::ptr::null();
    }
    if let Some(size) = input.struct_size {
        c.struct_size = size.value();
    }
    let options = input.options.to_c();
    // SAFETY: every non-NULL pointer covers its count, except counts the library must
    // reject before reading (vertex_count UINT32_MAX, an index total above UINT32_MAX),
    // whose other arrays are NULL.
    let answer = unsafe { c_mesh_create_ex((!null(NULL_INPUT)).then_some(&c), options.as_ref()) };

    let rust_options = match input.options.expected() {
        Expect::Accept(o) => Some(o),
        Expect::Reject => None,
        Expect::Unknown(_) => return,
    };
    let mut faults: Vec<Fault> = Vec::new();
    if rust_options.is_none() {
        faults.push((INVALID_ARGUMENT, "options"));
    }
    if null(NULL_INPUT) {
        faults.push((NULL_ARGUMENT, "input"));
    } else if c.struct_size as usize != size_of::<navstar::ffi::NavstarMeshInput>() {
        faults.push((INVALID_ARGUMENT, "struct_size"));
    } else {
        if c.vertex_count == u32::MAX {
            faults.push((INVALID_ARGUMENT, "vertex_count"));
        }
        if huge_polygons {
            faults.push((INVALID_ARGUMENT, "indices"));
        }
        if c.vertices.is_null() && c.vertex_count > 0 {
            faults.push((NULL_ARGUMENT, "vertices"));
        }
        if c.indices.is_null() && c.polygon_count > 0 {
            faults.push((NULL_ARGUMENT, "indices"));
        }
        if c.links.is_null() && c.link_count > 0 {
            faults.push((NULL_ARGUMENT, "links"));
        }
        if !c.links.is_null()
            && full.links[..c.link_count as usize]
                .iter()
                .any(|l| rust_link(l).is_none())
        {
            faults.push((INVALID_MESH, "link"));
        }
    }
    if check_faults(
        "navstar_mesh_create_ex",
        answer.status,
        &answer.message,
        &faults,
    ) {
        return;
    }
    let arrays = cut_input.cut(c.vertex_count, c.polygon_count, c.link_count, triangles);
    let rust_options = rust_options.unwrap();
    let rust = arrays
        .rust_mesh(&rust_options)
        .expect("link areas were checked above");
    let (cmesh, rmesh) = match rust {
        Err(e) => {
            assert_eq!(answer.status, mesh_status(&e), "Rust said {e}");
            assert_eq!(answer.message, format!("navstar_mesh_create_ex: {e}"));
            return;
        }
        Ok(rmesh) => {
            assert_eq!(answer.status, OK, "{}", answer.message);
            (answer.mesh.unwrap(), rmesh)
        }
    };
    // What an accepted mesh reports, checked against the input.
    assert_eq!(cmesh.polygon_count(), c.polygon_count);
    assert_eq!(rmesh.polygon_count(), c.polygon_count);
    assert_eq!(cmesh.link_count(), c.link_count);
    for p in 0..c.polygon_count.min(64) {
        let info = polygon_info_checked(&cmesh, p, false, NullOuts::default());
        assert_eq!(
            info,
            Some((Some(arrays.flags(p)), Some(u32::from(arrays.area(p))))),
            "polygon {p}"
        );
        assert_eq!(rmesh.polygon_flags(p), arrays.flags(p));
        assert_eq!(rmesh.polygon_area(p), arrays.area(p));
    }
    for (i, link) in arrays.links.iter().enumerate() {
        // Read a link's flags by setting them to what they are.
        let set = c_set_flags(Some(&cmesh), FlagTarget::Link, i as u32, link.flags, false);
        assert_eq!(set.status, OK, "{}", set.message);
        assert_eq!(set.value, Some(link.flags), "link {i}");
        assert_eq!(rmesh.link_flags(i as u32), link.flags);
    }
    let mut cquery = cmesh.query();
    for (start, goal, options) in input.queries.iter().take(3) {
        let mut rquery = Query::new(&rmesh);
        compare_query(
            &mut cquery,
            &mut rquery,
            start.resolve(&rmesh),
            goal.resolve(&rmesh),
            options,
            32,
            false,
        );
    }
});
