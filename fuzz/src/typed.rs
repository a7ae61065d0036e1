//! Typed fuzz input that hits the interesting values (NaN, infinities, extremes,
//! denormals, bad `struct_size`s) often: [`Coord`], [`SmallU32`], and the options
//! structs of the mesh constructors and of `navstar_find_path`.

use std::ptr;

use arbitrary::Arbitrary;
use navstar::ffi::{
    NAVSTAR_PATH_AUTO, NAVSTAR_PATH_FUNNEL, NAVSTAR_PATH_OPTIMAL, NavstarMeshOptions,
    NavstarPathOptions, navstar_mesh_options_default, navstar_path_options_default,
};
use navstar::{MeshOptions, PathMode, PathOptions, SearchStrategy, UpAxis};

/// Values a fuzzer rarely finds from random bits but that break geometry code.
const SPECIALS: [f32; 20] = [
    f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::MAX,
    f32::MIN,
    f32::MIN_POSITIVE,
    -f32::MIN_POSITIVE,
    1e-45, // the smallest denormal
    -1e-45,
    1.1754942e-38, // the largest denormal
    0.0,
    -0.0,
    1e30,
    -1e30,
    1e-30,
    16_777_216.0, // 2^24: above it, f32 has no odd integers
    -16_777_216.0,
    1e18,
    0.5,
    -0.5,
];

/// A coordinate or option value, biased towards small numbers and special values.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Coord {
    /// `whole + frac / 256`: ordinary small coordinates.
    Small(i8, u8),
    /// Any bit pattern (NaN payloads, huge, tiny).
    Raw(f32),
    /// One of a table of special values (NaN, infinities, extremes, denormals, -0).
    Special(u8),
}

impl Coord {
    /// The value as a float.
    pub fn value(self) -> f32 {
        match self {
            Coord::Small(whole, frac) => f32::from(whole) + f32::from(frac) / 256.0,
            Coord::Raw(v) => v,
            Coord::Special(i) => SPECIALS[usize::from(i) % SPECIALS.len()],
        }
    }
}

/// A `u32` that is usually small (enum values, counts), sometimes anything.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum SmallU32 {
    /// 0..=255.
    Small(u8),
    /// Any value.
    Any(u32),
}

impl SmallU32 {
    /// The value.
    pub fn value(self) -> u32 {
        match self {
            SmallU32::Small(v) => u32::from(v),
            SmallU32::Any(v) => v,
        }
    }
}

/// `struct_size` of the first published `NavstarMeshOptions` (API.md). Newer fields
/// are appended after it.
pub const MESH_OPTIONS_V1_SIZE: usize = 16;
/// The sizes of published `NavstarMeshOptions` versions older than the current one
/// (v1, then with `allow_degenerate_connectors`).
const MESH_OPTIONS_OLDER_SIZES: &[usize] = &[MESH_OPTIONS_V1_SIZE, 20];
/// `struct_size` of the first published `NavstarPathOptions`.
pub const PATH_OPTIONS_V1_SIZE: usize = 20;
/// The sizes of published `NavstarPathOptions` versions older than the current one
/// (v1, then with `mode`, then with the filter and `split_at_area_changes`, whose last 4
/// bytes were padding where `agent_radius` lies now).
pub(crate) const PATH_OPTIONS_OLDER_SIZES: &[usize] = &[PATH_OPTIONS_V1_SIZE, 24, 40];

/// The bytes of a `#[repr(C)]` options struct made only of `u32` and `f32` fields.
fn bytes_of<T: Copy>(value: &T) -> Vec<u8> {
    // SAFETY: the option structs are repr(C) with 4-byte fields only: no padding, every
    // byte initialised.
    unsafe { std::slice::from_raw_parts(ptr::from_ref(value).cast::<u8>(), size_of::<T>()) }
        .to_vec()
}

/// Overwrites the bytes of an options struct after its `struct_size` with `raw`
/// (repeated as needed); any bytes are valid for its `u32`/`f32` fields.
pub(crate) fn fill_after_size<T: Copy>(value: &mut T, raw: &[u8]) {
    if raw.is_empty() {
        return;
    }
    let mut bytes = bytes_of(value);
    for (i, b) in bytes[4..].iter_mut().enumerate() {
        *b = raw[i % raw.len()];
    }
    // SAFETY: as in `bytes_of`; exactly size_of::<T>() bytes are copied into `value`.
    unsafe {
        ptr::copy_nonoverlapping(
            bytes.as_ptr(),
            ptr::from_mut(value).cast::<u8>(),
            bytes.len(),
        )
    };
}

/// What the boundary must make of an options struct, judged from the fields of the
/// first published version only (so that the harness keeps working when fields are
/// appended).
#[derive(Debug, Clone)]
pub enum Expect<T> {
    /// Rejected with `NAVSTAR_ERROR_INVALID_ARGUMENT` (bad `struct_size` or enum value).
    Reject,
    /// Accepted as these Rust options (out-of-range values are left to the Rust API).
    Accept(T),
    /// The bytes of fields newer than the first version differ from their defaults: the
    /// harness cannot tell the outcome, only check the general rules.
    Unknown(T),
}

/// Classifies a caller's struct: `struct_size` must be the current size or that of an
/// older published version (`older_sizes`); fields not covered keep their defaults.
/// `decode` makes the Rust options from the fields in the first `decoded` bytes (given
/// `struct_size`); fields after those that differ from their defaults make the outcome
/// unknown.
fn classify<T: Copy, R>(
    c: &T,
    defaults: &T,
    older_sizes: &[usize],
    decoded: usize,
    decode: impl FnOnce(usize) -> Option<R>,
) -> Expect<R> {
    let bytes = bytes_of(c);
    let size = u32::from_ne_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) as usize;
    if size != size_of::<T>() && !older_sizes.contains(&size) {
        return Expect::Reject;
    }
    let Some(rust) = decode(size) else {
        return Expect::Reject;
    };
    let decoded = decoded.min(size);
    if bytes[decoded..size] != bytes_of(defaults)[decoded..size] {
        Expect::Unknown(rust)
    } else {
        Expect::Accept(rust)
    }
}

/// The `options` argument of the mesh constructors.
#[derive(Arbitrary, Debug, Clone)]
pub enum MeshOpts {
    /// NULL: defaults.
    Null,
    /// `navstar_mesh_options_default()`.
    Default,
    /// Defaults with fuzzed fields (`struct_size` right).
    Fields {
        /// `up_axis`: 0 and 1 are valid.
        up_axis: SmallU32,
        /// `weld_vertices`: any non-zero value means yes.
        weld_vertices: u32,
        /// `weld_distance`: finite and >= 0 is valid.
        weld_distance: Coord,
        /// `allow_degenerate_connectors`: any non-zero value means yes.
        allow_degenerate_connectors: bool,
    },
    /// Any bytes after a fuzzed `struct_size`.
    Raw {
        /// `struct_size`: the current size and those of older versions are valid.
        struct_size: SmallU32,
        /// The bytes of the other fields (repeated to fill the struct).
        bytes: Vec<u8>,
    },
}

impl MeshOpts {
    /// The struct to pass, or `None` for NULL.
    pub fn to_c(&self) -> Option<NavstarMeshOptions> {
        let mut c = navstar_mesh_options_default();
        match self {
            MeshOpts::Null => return None,
            MeshOpts::Default => {}
            MeshOpts::Fields {
                up_axis,
                weld_vertices,
                weld_distance,
                allow_degenerate_connectors,
            } => {
                c.up_axis = up_axis.value();
                c.weld_vertices = *weld_vertices;
                c.weld_distance = weld_distance.value();
                c.allow_degenerate_connectors = u32::from(*allow_degenerate_connectors);
            }
            MeshOpts::Raw { struct_size, bytes } => {
                fill_after_size(&mut c, bytes);
                c.struct_size = struct_size.value();
            }
        }
        Some(c)
    }

    /// What the boundary makes of these options; see [`Expect`]. An invalid weld
    /// distance is left to the builder.
    pub fn expected(&self) -> Expect<MeshOptions> {
        let Some(c) = self.to_c() else {
            return Expect::Accept(MeshOptions::default());
        };
        classify(
            &c,
            &navstar_mesh_options_default(),
            MESH_OPTIONS_OLDER_SIZES,
            size_of::<NavstarMeshOptions>(),
            |size| {
                let up = match c.up_axis {
                    0 => UpAxis::Y,
                    1 => UpAxis::Z,
                    _ => return None,
                };
                let mut options = MeshOptions::default().with_up_axis(up);
                options.weld_vertices = c.weld_vertices != 0;
                options.weld_distance = c.weld_distance;
                // A struct of the first version's size has no such field.
                options.allow_degenerate_connectors =
                    size > MESH_OPTIONS_V1_SIZE && c.allow_degenerate_connectors != 0;
                // Nor one of the second's: a baked radius (checked by the builder).
                if size == size_of::<NavstarMeshOptions>() {
                    options.agent_radius = c.agent_radius;
                }
                Some(options)
            },
        )
    }
}

/// The `options` argument of `navstar_find_path`.
#[derive(Arbitrary, Debug, Clone)]
pub enum PathOpts {
    /// NULL: defaults.
    Null,
    /// `navstar_path_options_default()`.
    Default,
    /// Defaults with fuzzed fields (`struct_size` right).
    Fields {
        /// `strategy`: 0 to 4 are valid.
        strategy: SmallU32,
        /// `heuristic_weight`: finite and >= 0 is valid.
        heuristic_weight: Coord,
        /// `max_snap_distance`: >= 0 (infinity allowed) is valid.
        max_snap_distance: Coord,
        /// `allow_partial`.
        allow_partial: bool,
        /// `mode`: 0, 1 and 2 are valid.
        mode: SmallU32,
        /// `split_at_area_changes`.
        split_at_area_changes: bool,
        /// `agent_radius`: finite and >= 0 is valid.
        agent_radius: Coord,
    },
    /// Valid options with a finite snap distance, partial paths off or on, any mode.
    Snap {
        /// `max_snap_distance`.
        max_snap_distance: Coord,
        /// `allow_partial`.
        allow_partial: bool,
        /// `mode % 3`: `NAVSTAR_PATH_FUNNEL`, `NAVSTAR_PATH_OPTIMAL` or `NAVSTAR_PATH_AUTO`.
        mode: u8,
        /// `split_at_area_changes`.
        split_at_area_changes: bool,
        /// `agent_radius`: `radius % 8` tenths of a unit (0 half the time).
        radius: u8,
    },
    /// Any bytes after a fuzzed `struct_size`.
    Raw {
        /// `struct_size`: the current size and those of older versions are valid.
        struct_size: SmallU32,
        /// The bytes of the other fields (repeated to fill the struct).
        bytes: Vec<u8>,
    },
}

impl PathOpts {
    /// The struct to pass, or `None` for NULL.
    pub fn to_c(&self) -> Option<NavstarPathOptions> {
        let mut c = navstar_path_options_default();
        match self {
            PathOpts::Null => return None,
            PathOpts::Default => {}
            PathOpts::Fields {
                strategy,
                heuristic_weight,
                max_snap_distance,
                allow_partial,
                mode,
                split_at_area_changes,
                agent_radius,
            } => {
                c.strategy = strategy.value();
                c.heuristic_weight = heuristic_weight.value();
                c.max_snap_distance = max_snap_distance.value();
                c.allow_partial = u32::from(*allow_partial);
                c.mode = mode.value();
                c.split_at_area_changes = u32::from(*split_at_area_changes);
                c.agent_radius = agent_radius.value();
            }
            PathOpts::Snap {
                max_snap_distance,
                allow_partial,
                mode,
                split_at_area_changes,
                radius,
            } => {
                if radius % 16 >= 8 {
                    c.agent_radius = f32::from(radius % 8) * 0.1;
                }
                c.max_snap_distance = max_snap_distance.value().abs();
                c.allow_partial = u32::from(*allow_partial);
                c.mode = [NAVSTAR_PATH_FUNNEL, NAVSTAR_PATH_OPTIMAL, NAVSTAR_PATH_AUTO]
                    [usize::from(mode % 3)];
                c.split_at_area_changes = u32::from(*split_at_area_changes);
            }
            PathOpts::Raw { struct_size, bytes } => {
                fill_after_size(&mut c, bytes);
                c.struct_size = struct_size.value();
                // A pointer made of arbitrary bytes breaks the caller contract (it must be
                // NULL or point to a filter), so the raw bytes never reach this field.
                c.filter = std::ptr::null();
            }
        }
        Some(c)
    }

    /// What the boundary makes of these options (with `filter` NULL); see [`Expect`].
    /// Out-of-range values are left to the Rust validation. Every field of the current
    /// struct is decoded; a struct of an older size gets the defaults of the fields it
    /// lacks.
    pub fn expected(&self) -> Expect<PathOptions> {
        let Some(c) = self.to_c() else {
            return Expect::Accept(PathOptions::default());
        };
        classify(
            &c,
            &navstar_path_options_default(),
            PATH_OPTIONS_OLDER_SIZES,
            size_of::<NavstarPathOptions>(),
            |size| {
                let strategy = match c.strategy {
                    0 => SearchStrategy::AStar,
                    1 => SearchStrategy::Dijkstra,
                    2 => SearchStrategy::GreedyBestFirst,
                    3 => SearchStrategy::BreadthFirst,
                    4 => SearchStrategy::DepthFirst,
                    _ => return None,
                };
                let mut options = PathOptions::default();
                options.strategy = strategy;
                options.heuristic_weight = c.heuristic_weight;
                options.max_snap_distance = c.max_snap_distance;
                options.allow_partial = c.allow_partial != 0;
                if size >= PATH_OPTIONS_OLDER_SIZES[1] {
                    options.mode = match c.mode {
                        NAVSTAR_PATH_FUNNEL => PathMode::Funnel,
                        NAVSTAR_PATH_OPTIMAL => PathMode::Optimal,
                        NAVSTAR_PATH_AUTO => PathMode::Auto,
                        _ => return None,
                    };
                }
                if size >= PATH_OPTIONS_OLDER_SIZES[2] {
                    options.split_at_area_changes = c.split_at_area_changes != 0;
                }
                if size == size_of::<NavstarPathOptions>() {
                    if c.reserved != 0 {
                        return None;
                    }
                    // Out-of-range radii are left to the Rust validation.
                    options.agent_radius = c.agent_radius;
                }
                Some(options)
            },
        )
    }
}
