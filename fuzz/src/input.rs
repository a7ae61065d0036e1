//! Fuzz input for the entry points added after the first ones: meshes with areas, flags
//! and off-mesh links (`navstar_mesh_create_ex`), query filters, and path options that
//! carry a filter.

use std::ptr;

use arbitrary::Arbitrary;
use navstar::ffi::{
    NavstarMeshInput, NavstarMeshOptions, NavstarOffMeshLink, NavstarPathOptions,
    NavstarQueryFilter, navstar_mesh_create_ex, navstar_mesh_input_default,
    navstar_off_mesh_link_default, navstar_query_filter_default,
};
use navstar::glam::Vec3;
use navstar::{
    MAX_AREAS, MeshError, MeshInput, MeshOptions, NavMesh, OffMeshLink, PathOptions, QueryFilter,
    UpAxis,
};

use crate::grid::{Arrays, GridSpec};
use crate::{
    CMesh, Coord, Expect, INVALID_ARGUMENT, NavstarStatus, OK, PathOpts, PointIn, SmallU32,
    finish_create, last_error, mesh_status,
};

/// An area id from a byte: usually one of 8 small ids, sometimes one >= 64 (invalid).
fn area_of(b: u8) -> u8 {
    if b >= 250 { b } else { b % 8 }
}

/// Flags from a byte: 4 bits, so 0 (never admitted) and shared bits are common.
fn flags_of(b: u8) -> u32 {
    u32::from(b & 0x0f)
}

/// The `area` of an off-mesh link.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum LinkArea {
    /// Small ids, sometimes >= 64 (see `area_of`).
    Small(u8),
    /// Any value (>= 256 is rejected by the boundary itself).
    Any(u32),
}

/// An off-mesh link.
#[derive(Arbitrary, Debug, Clone)]
pub struct LinkIn {
    /// Its start (NULL: the origin).
    pub start: PointIn,
    /// Its end (NULL: the origin).
    pub end: PointIn,
    /// One-way.
    pub one_way: bool,
    /// `None`: `NAVSTAR_LINK_COST_DISTANCE`.
    pub cost: Option<Coord>,
    /// Its area id.
    pub area: LinkArea,
    /// Its flags (see `flags_of`).
    pub flags: u8,
    /// `None`: the default radius.
    pub radius: Option<Coord>,
}

impl LinkIn {
    /// The C struct, with end points placed on the polygons of `arrays`.
    pub fn to_c(&self, arrays: &Arrays) -> NavstarOffMeshLink {
        let mut c = navstar_off_mesh_link_default();
        c.start = self.start.resolve_in(arrays).unwrap_or_default();
        c.end = self.end.resolve_in(arrays).unwrap_or_default();
        c.bidirectional = u32::from(!self.one_way);
        if let Some(cost) = self.cost {
            c.cost = cost.value();
        }
        c.area = match self.area {
            LinkArea::Small(b) => u32::from(area_of(b)),
            LinkArea::Any(v) => v,
        };
        c.flags = flags_of(self.flags);
        if let Some(radius) = self.radius {
            c.radius = radius.value();
        }
        c
    }
}

/// The Rust form of a C link (as documented for `NavstarOffMeshLink`), or `None` when
/// its area does not fit the Rust type (the boundary rejects it).
pub fn rust_link(c: &NavstarOffMeshLink) -> Option<OffMeshLink> {
    let mut link = OffMeshLink::new(Vec3::from(c.start), Vec3::from(c.end));
    link.bidirectional = c.bidirectional != 0;
    if c.cost != navstar::ffi::NAVSTAR_LINK_COST_DISTANCE {
        link.cost = c.cost;
    }
    link.area = u8::try_from(c.area).ok()?;
    link.flags = c.flags;
    link.radius = c.radius;
    Some(link)
}

/// Per-polygon areas and flags and off-mesh links for a mesh.
#[derive(Arbitrary, Debug, Clone)]
pub struct Extras {
    /// Area ids, repeated over the polygons (see `area_of`); `None`: NULL.
    pub areas: Option<Vec<u8>>,
    /// Flags, repeated over the polygons (see `flags_of`); `None`: NULL.
    pub flags: Option<Vec<u8>>,
    /// Up to 4 links.
    pub links: Vec<LinkIn>,
}

/// Everything `navstar_mesh_create_ex` reads, owned.
#[derive(Debug, Clone, Default)]
pub struct MeshArrays {
    /// The geometry.
    pub arrays: Arrays,
    /// `polygon_sizes` is NULL (every polygon a triangle).
    pub triangles: bool,
    /// Area ids, or `None` for NULL.
    pub areas: Option<Vec<u8>>,
    /// Flags, or `None` for NULL.
    pub flags: Option<Vec<u32>>,
    /// Links.
    pub links: Vec<NavstarOffMeshLink>,
    /// Y or Z up.
    pub up_axis: UpAxis,
}

impl MeshArrays {
    /// The arrays of a grid with these extras.
    pub fn new(grid: &GridSpec, extras: &Extras) -> MeshArrays {
        let arrays = grid.arrays();
        let n = arrays.sizes.len();
        let cycle = |v: &Vec<u8>, i: usize| v.get(i % v.len().max(1)).copied().unwrap_or(0);
        let areas = extras
            .areas
            .as_ref()
            .map(|v| (0..n).map(|i| area_of(cycle(v, i))).collect());
        let flags = extras
            .flags
            .as_ref()
            .map(|v| (0..n).map(|i| flags_of(cycle(v, i))).collect());
        let links = extras
            .links
            .iter()
            .take(4)
            .map(|l| l.to_c(&arrays))
            .collect();
        MeshArrays {
            triangles: grid.triangles,
            up_axis: if grid.z_up { UpAxis::Z } else { UpAxis::Y },
            arrays,
            areas,
            flags,
            links,
        }
    }

    /// The vertices as floats (keep them alive while the input points to them).
    pub fn floats(&self) -> Vec<f32> {
        self.arrays.floats()
    }

    /// The C input pointing into `self` and `floats`, counts from the array lengths.
    pub fn c_input(&self, floats: &[f32]) -> NavstarMeshInput {
        let mut c = navstar_mesh_input_default();
        c.vertex_count = (floats.len() / 3) as u32;
        c.vertices = floats.as_ptr();
        c.indices = self.arrays.indices.as_ptr();
        c.polygon_sizes = if self.triangles {
            ptr::null()
        } else {
            self.arrays.sizes.as_ptr()
        };
        c.polygon_count = self.arrays.sizes.len() as u32;
        c.areas = self.areas.as_ref().map_or(ptr::null(), |a| a.as_ptr());
        c.flags = self.flags.as_ref().map_or(ptr::null(), |f| f.as_ptr());
        c.link_count = self.links.len() as u32;
        c.links = if self.links.is_empty() {
            ptr::null()
        } else {
            self.links.as_ptr()
        };
        c
    }

    /// The mesh options of the C call (the up axis).
    pub fn c_options(&self) -> NavstarMeshOptions {
        let mut c = navstar::ffi::navstar_mesh_options_default();
        c.up_axis = match self.up_axis {
            UpAxis::Y => navstar::ffi::NAVSTAR_UP_Y,
            UpAxis::Z => navstar::ffi::NAVSTAR_UP_Z,
        };
        c
    }

    /// Builds the same mesh with the Rust API; `None` when a link's area does not fit
    /// (see [`rust_link`]).
    pub fn rust_mesh(&self, options: &MeshOptions) -> Option<Result<NavMesh, MeshError>> {
        let links: Vec<OffMeshLink> = self.links.iter().map(rust_link).collect::<Option<_>>()?;
        let mut input = MeshInput::new(&self.arrays.vertices, &self.arrays.indices);
        if !self.triangles {
            input = input.with_polygon_sizes(&self.arrays.sizes);
        }
        input.areas = self.areas.as_deref();
        input.flags = self.flags.as_deref();
        input.links = &links;
        Some(NavMesh::from_input(&input, options))
    }

    /// What the library reads of these arrays given these counts (each at most the
    /// count of the arrays) and `polygon_sizes` NULL or not: the vertex, polygon and
    /// link prefixes, and with `triangles` the first `3 * polygon_count` indices.
    pub fn cut(
        &self,
        vertex_count: u32,
        polygon_count: u32,
        link_count: u32,
        triangles: bool,
    ) -> MeshArrays {
        let pc = polygon_count as usize;
        let (indices, sizes) = if triangles {
            (self.arrays.indices[..3 * pc].to_vec(), vec![3; pc])
        } else {
            let sizes = self.arrays.sizes[..pc].to_vec();
            let total = sizes.iter().sum::<u32>() as usize;
            (self.arrays.indices[..total].to_vec(), sizes)
        };
        MeshArrays {
            arrays: Arrays {
                vertices: self.arrays.vertices[..vertex_count as usize].to_vec(),
                indices,
                sizes,
            },
            triangles,
            areas: self.areas.as_ref().map(|a| a[..pc].to_vec()),
            flags: self.flags.as_ref().map(|f| f[..pc].to_vec()),
            links: self.links[..link_count as usize].to_vec(),
            up_axis: self.up_axis,
        }
    }

    /// The area id the mesh must give polygon `p`.
    pub fn area(&self, p: u32) -> u8 {
        self.areas.as_ref().map_or(0, |a| a[p as usize])
    }

    /// The initial flags the mesh must give polygon `p`.
    pub fn flags(&self, p: u32) -> u32 {
        self.flags
            .as_ref()
            .map_or(navstar::DEFAULT_FLAGS, |f| f[p as usize])
    }
}

/// What `navstar_mesh_create_ex` answered.
pub struct ExAnswer {
    /// The status.
    pub status: NavstarStatus,
    /// The message.
    pub message: String,
    /// The mesh, after success.
    pub mesh: Option<CMesh>,
}

/// Calls `navstar_mesh_create_ex` and checks its out-parameter and message rules.
///
/// # Safety
/// `input` must keep the caller's contract: each non-NULL pointer covers what its count
/// promises (or the count is one the library rejects before reading).
pub unsafe fn c_mesh_create_ex(
    input: Option<&NavstarMeshInput>,
    options: Option<&NavstarMeshOptions>,
) -> ExAnswer {
    let mut out = ptr::NonNull::dangling().as_ptr();
    // SAFETY: forwarded from this function's contract; `out` is writable.
    let status = unsafe {
        navstar_mesh_create_ex(
            input.map_or(ptr::null(), ptr::from_ref),
            options.map_or(ptr::null(), ptr::from_ref),
            &mut out,
        )
    };
    let mesh = finish_create("navstar_mesh_create_ex", status, out);
    ExAnswer {
        status,
        message: last_error(),
        mesh,
    }
}

/// A fuzzed mesh with areas, flags and links, built through both APIs.
#[derive(Arbitrary, Debug, Clone)]
pub struct MeshSpec {
    /// The geometry.
    pub grid: GridSpec,
    /// Areas, flags, links.
    pub extras: Extras,
}

/// The input of the targets that run a sequence of operations on one fuzzed mesh.
#[derive(Arbitrary, Debug, Clone)]
pub struct MeshOps<Op> {
    /// The mesh.
    pub mesh: MeshSpec,
    /// The operations (each target runs the first few).
    pub ops: Vec<Op>,
}

/// A mesh built through both APIs from the same arrays.
pub struct Built {
    /// What it was built from.
    pub input: MeshArrays,
    /// The C mesh.
    pub c: CMesh,
    /// The Rust mesh.
    pub rust: NavMesh,
}

impl MeshSpec {
    /// Builds the mesh through `navstar_mesh_create_ex` and the Rust API; checks that
    /// both agree (status, message, polygon and link counts). `None` when it is rejected.
    pub fn build(&self) -> Option<Built> {
        let input = MeshArrays::new(&self.grid, &self.extras);
        let floats = input.floats();
        let c_input = input.c_input(&floats);
        let c_options = input.c_options();
        // SAFETY: every pointer covers the count set from its own array.
        let answer = unsafe { c_mesh_create_ex(Some(&c_input), Some(&c_options)) };
        let options = MeshOptions::default().with_up_axis(input.up_axis);
        let Some(rust) = input.rust_mesh(&options) else {
            assert_eq!(answer.status, crate::INVALID_MESH, "{}", answer.message);
            assert!(answer.message.contains("link"), "{}", answer.message);
            return None;
        };
        match rust {
            Ok(rust) => {
                assert_eq!(answer.status, OK, "{}", answer.message);
                let c = answer.mesh.unwrap();
                assert_eq!(c.polygon_count(), rust.polygon_count());
                assert_eq!(c.link_count(), rust.link_count());
                assert_eq!(rust.link_count(), input.links.len() as u32);
                Some(Built { input, c, rust })
            }
            Err(e) => {
                assert_eq!(answer.status, mesh_status(&e), "Rust said {e}");
                assert_eq!(answer.message, format!("navstar_mesh_create_ex: {e}"));
                None
            }
        }
    }
}

/// A query filter argument.
#[derive(Arbitrary, Debug, Clone)]
pub enum FilterIn {
    /// NULL: the default filter.
    Null,
    /// Include and exclude masks over 4 flag bits, valid costs.
    Masks {
        /// Include mask (255: all bits).
        include: u8,
        /// Exclude mask (bit 4 off: none).
        exclude: u8,
        /// Costs of some areas, each `0.25 + b / 32`.
        costs: Vec<(u8, u8)>,
    },
    /// Any costs (NaN, 0, negative, infinite included).
    Costs {
        /// Costs of some areas.
        costs: Vec<(u8, Coord)>,
    },
    /// Any bytes after a fuzzed `struct_size`.
    Raw {
        /// `struct_size`: only the current size is valid.
        struct_size: SmallU32,
        /// The other bytes (repeated to fill the struct).
        bytes: Vec<u8>,
    },
}

impl FilterIn {
    /// The struct to pass, or `None` for NULL.
    pub fn to_c(&self) -> Option<NavstarQueryFilter> {
        let mut c = navstar_query_filter_default();
        match self {
            FilterIn::Null => return None,
            FilterIn::Masks {
                include,
                exclude,
                costs,
            } => {
                c.include_flags = if *include == 255 {
                    u32::MAX
                } else {
                    u32::from(include & 0x0f)
                };
                c.exclude_flags = if exclude & 0x10 != 0 {
                    u32::from(exclude & 0x0f)
                } else {
                    0
                };
                for &(area, b) in costs.iter().take(8) {
                    c.area_costs[usize::from(area) % MAX_AREAS] = 0.25 + f32::from(b) / 32.0;
                }
            }
            FilterIn::Costs { costs } => {
                for &(area, cost) in costs.iter().take(8) {
                    c.area_costs[usize::from(area) % MAX_AREAS] = cost.value();
                }
            }
            FilterIn::Raw { struct_size, bytes } => {
                crate::fill_after_size(&mut c, bytes);
                c.struct_size = struct_size.value();
            }
        }
        Some(c)
    }

    /// The filter the library must use, or `None` when the boundary rejects the struct
    /// by its `struct_size` (only the current size is published). Costs are not judged.
    pub fn rust(&self) -> Option<QueryFilter> {
        let Some(c) = self.to_c() else {
            return Some(QueryFilter::default());
        };
        (c.struct_size as usize == size_of::<NavstarQueryFilter>()).then(|| {
            let mut filter = QueryFilter::default()
                .with_include_flags(c.include_flags)
                .with_exclude_flags(c.exclude_flags);
            filter.area_costs = c.area_costs;
            filter
        })
    }

    /// The filter, or the error the boundary must give for it as a `filter` argument
    /// (`NAVSTAR_ERROR_INVALID_ARGUMENT` for a bad size or cost).
    pub fn checked(&self) -> Result<QueryFilter, NavstarStatus> {
        match self.rust() {
            Some(f) if f.validate().is_ok() => Ok(f),
            _ => Err(INVALID_ARGUMENT),
        }
    }
}

/// A filter as the C functions take it: the struct (boxed, so its address is stable)
/// or NULL.
pub struct CFilter(Option<Box<NavstarQueryFilter>>);

impl CFilter {
    /// The filter of `input`.
    pub fn new(input: &FilterIn) -> CFilter {
        CFilter(input.to_c().map(Box::new))
    }

    /// The pointer to pass.
    pub fn as_ptr(&self) -> *const NavstarQueryFilter {
        self.0.as_deref().map_or(ptr::null(), ptr::from_ref)
    }
}

/// Path options with a filter.
#[derive(Arbitrary, Debug, Clone)]
pub struct QueryOpts {
    /// The options.
    pub path: PathOpts,
    /// Their filter (ignored when `path` is NULL or too old to have the field).
    pub filter: FilterIn,
}

/// Path options as the C functions take them, with the filter they point to.
pub struct COptions {
    options: Option<NavstarPathOptions>,
    _filter: CFilter,
}

impl COptions {
    /// Options without a filter (`None`: NULL).
    pub fn without_filter(options: Option<NavstarPathOptions>) -> COptions {
        COptions {
            options,
            _filter: CFilter(None),
        }
    }

    /// The options, or `None` for NULL.
    pub fn get(&self) -> Option<&NavstarPathOptions> {
        self.options.as_ref()
    }

    /// The pointer to pass.
    pub fn as_ptr(&self) -> *const NavstarPathOptions {
        self.options.as_ref().map_or(ptr::null(), ptr::from_ref)
    }
}

/// Whether options of this `struct_size` have the `filter` field: the current version
/// and the third (40 bytes), which brought it.
fn has_filter(c: &NavstarPathOptions) -> bool {
    let size = c.struct_size as usize;
    size == size_of::<NavstarPathOptions>() || size == crate::PATH_OPTIONS_OLDER_SIZES[2]
}

impl QueryOpts {
    /// The C options (NULL for [`PathOpts::Null`]).
    pub fn to_c(&self) -> COptions {
        let filter = CFilter::new(&self.filter);
        let mut options = self.path.to_c();
        if let Some(c) = options.as_mut() {
            c.filter = filter.as_ptr();
        }
        COptions {
            options,
            _filter: filter,
        }
    }

    /// What the boundary makes of these options; see [`PathOpts::expected`]. The filter
    /// applies when the struct has the field; a filter of a bad `struct_size` is a
    /// rejection; its costs are left to the Rust validation.
    pub fn expected(&self) -> Expect<PathOptions> {
        let applies = self.path.to_c().as_ref().is_some_and(has_filter);
        let with_filter = |mut o: PathOptions| {
            if applies {
                o.filter = self.filter.rust()?;
            }
            Some(o)
        };
        match self.path.expected() {
            Expect::Reject => Expect::Reject,
            Expect::Accept(o) => with_filter(o).map_or(Expect::Reject, Expect::Accept),
            Expect::Unknown(o) => with_filter(o).map_or(Expect::Reject, Expect::Unknown),
        }
    }
}
