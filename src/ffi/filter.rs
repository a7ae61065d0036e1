//! The C form of [`QueryFilter`]: which polygons and links a query may use, and the
//! cost of each area.

use super::boundary::{FfiError, Versioned, read_versioned};
use crate::{MAX_AREAS, QueryFilter};

/// The number of area ids (areas are numbered 0..63).
pub const NAVSTAR_MAX_AREAS: u32 = 64;

const _: () = assert!(NAVSTAR_MAX_AREAS as usize == MAX_AREAS);

/// A query filter. Get defaults from `navstar_query_filter_default()` (every area costs
/// 1, every polygon or link with any flag set is usable) and change what you need.
///
/// A polygon or link is usable when its flags share a bit with `include_flags` and none
/// with `exclude_flags`. Walking through area `a` costs the walked length times
/// `area_costs[a]`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NavstarQueryFilter {
    /// `sizeof(NavstarQueryFilter)` as the caller was compiled; set by the default
    /// constructor.
    pub struct_size: u32,
    /// Items must have at least one of these flags (default: all bits).
    pub include_flags: u32,
    /// Items must have none of these flags (default 0).
    pub exclude_flags: u32,
    /// Cost multiplier per area id: finite and > 0 (default 1).
    pub area_costs: [f32; 64],
}

/// The defaults, matching [`QueryFilter::default`].
impl Default for NavstarQueryFilter {
    fn default() -> Self {
        let d = QueryFilter::default();
        NavstarQueryFilter {
            struct_size: size_of::<NavstarQueryFilter>() as u32,
            include_flags: d.include_flags,
            exclude_flags: d.exclude_flags,
            area_costs: d.area_costs,
        }
    }
}

// SAFETY: #[repr(C)], starts with `struct_size: u32`, and made of u32/f32 only.
unsafe impl Versioned for NavstarQueryFilter {
    /// One version so far.
    const OLDER_SIZES: &'static [usize] = &[];
    const DEFAULT_FUNCTION: &'static str = "navstar_query_filter_default";
}

impl NavstarQueryFilter {
    /// Converts to the Rust filter, rejecting bad costs by area.
    pub(crate) fn to_rust(self, name: &str) -> Result<QueryFilter, FfiError> {
        let filter = QueryFilter {
            area_costs: self.area_costs,
            include_flags: self.include_flags,
            exclude_flags: self.exclude_flags,
        };
        filter
            .validate()
            .map_err(|e| FfiError::invalid(format!("{name}: {e}")))?;
        Ok(filter)
    }
}

/// Reads an optional filter argument named `name`: NULL gives the default filter.
pub(crate) fn read_filter(
    ptr: *const NavstarQueryFilter,
    name: &str,
) -> Result<QueryFilter, FfiError> {
    read_versioned(ptr, name)?.to_rust(name)
}
