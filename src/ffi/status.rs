//! What the library reports: its version, the status code of every fallible call, the
//! name of each status, and the thread's last error message.

use std::cell::RefCell;
use std::ffi::{CStr, CString, c_char};

use crate::{MeshError, PathStatus, QueryError};

/// The result of every fallible navstar function. Values >= 0 are successes, values < 0
/// are errors; an error also sets the thread's last error message
/// (`navstar_last_error_message`). More codes may be added; these keep their values.
#[repr(i32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)]
pub enum NavstarStatus {
    /// Success.
    NavstarOk = 0,
    /// The goal is unreachable; the path leads to the reachable point closest to the goal.
    NavstarPartialPath = 1,
    /// The output did not fit: the first `capacity` items were written and `*out_count`
    /// holds the full count.
    NavstarBufferTooSmall = 2,
    /// Partial because a search stopped at the query's node limit
    /// (`NavstarQueryOptions::max_nodes`): the path leads to the point closest to the
    /// goal of the polygons reached before the limit (the goal may be reachable); a list
    /// of reachable polygons holds those found before it.
    NavstarPartialNodeLimit = 3,
    /// A required pointer was NULL.
    NavstarErrorNullArgument = -1,
    /// NaN/Inf coordinate, bad option value, bad count.
    NavstarErrorInvalidArgument = -2,
    /// Mesh input rejected; the message names the polygon/edge/vertex and the reason.
    NavstarErrorInvalidMesh = -3,
    /// Start or goal is farther from the mesh than the allowed snap distance.
    NavstarErrorNotOnMesh = -4,
    /// The goal is unreachable and partial paths were not allowed.
    NavstarErrorNoPath = -5,
    /// Memory could not be allocated (for example a mesh of billions of polygons).
    NavstarErrorOutOfMemory = -6,
    /// A tile or polygon reference names a tile that was removed or replaced since it
    /// was made (or a tile of another world); the message names the tile and both
    /// generations.
    NavstarErrorStaleReference = -7,
    /// A bug: a panic was caught at the boundary.
    NavstarErrorInternal = -100,
}

/// Every status with the name of its C constant: the one place these names are written
/// in Rust. A unit test checks it against the enum of the generated header.
const STATUS_NAMES: [(NavstarStatus, &CStr); 12] = [
    (NavstarStatus::NavstarOk, c"NAVSTAR_OK"),
    (NavstarStatus::NavstarPartialPath, c"NAVSTAR_PARTIAL_PATH"),
    (
        NavstarStatus::NavstarBufferTooSmall,
        c"NAVSTAR_BUFFER_TOO_SMALL",
    ),
    (
        NavstarStatus::NavstarPartialNodeLimit,
        c"NAVSTAR_PARTIAL_NODE_LIMIT",
    ),
    (
        NavstarStatus::NavstarErrorNullArgument,
        c"NAVSTAR_ERROR_NULL_ARGUMENT",
    ),
    (
        NavstarStatus::NavstarErrorInvalidArgument,
        c"NAVSTAR_ERROR_INVALID_ARGUMENT",
    ),
    (
        NavstarStatus::NavstarErrorInvalidMesh,
        c"NAVSTAR_ERROR_INVALID_MESH",
    ),
    (
        NavstarStatus::NavstarErrorNotOnMesh,
        c"NAVSTAR_ERROR_NOT_ON_MESH",
    ),
    (NavstarStatus::NavstarErrorNoPath, c"NAVSTAR_ERROR_NO_PATH"),
    (
        NavstarStatus::NavstarErrorOutOfMemory,
        c"NAVSTAR_ERROR_OUT_OF_MEMORY",
    ),
    (
        NavstarStatus::NavstarErrorStaleReference,
        c"NAVSTAR_ERROR_STALE_REFERENCE",
    ),
    (
        NavstarStatus::NavstarErrorInternal,
        c"NAVSTAR_ERROR_INTERNAL",
    ),
];

impl NavstarStatus {
    /// The status whose C value is `code`, if navstar has one.
    pub fn from_code(code: i32) -> Option<NavstarStatus> {
        STATUS_NAMES
            .iter()
            .map(|&(status, _)| status)
            .find(|&status| status as i32 == code)
    }

    /// The constant's name as written in C, NUL-terminated.
    pub fn c_name(self) -> &'static CStr {
        STATUS_NAMES
            .iter()
            .find(|&&(status, _)| status == self)
            .map(|&(_, name)| name)
            .expect("STATUS_NAMES has a row for every status")
    }

    /// The constant's name as written in C, for messages and logs.
    pub fn name(self) -> &'static str {
        self.c_name().to_str().expect("the status names are ASCII")
    }
}

/// The success status of a path: OK, PARTIAL_PATH, or PARTIAL_NODE_LIMIT.
impl From<PathStatus> for NavstarStatus {
    fn from(status: PathStatus) -> Self {
        match status {
            PathStatus::Complete => NavstarStatus::NavstarOk,
            PathStatus::Partial => NavstarStatus::NavstarPartialPath,
            PathStatus::NodeLimit => NavstarStatus::NavstarPartialNodeLimit,
        }
    }
}

impl From<&MeshError> for NavstarStatus {
    fn from(error: &MeshError) -> Self {
        match error {
            MeshError::InvalidOption(_)
            | MeshError::TooLarge(_)
            | MeshError::WorldFull { .. }
            | MeshError::TileTooLarge { .. }
            | MeshError::OverlappingTiles { .. }
            | MeshError::InvalidObstacle { .. }
            | MeshError::TileCut { .. } => NavstarStatus::NavstarErrorInvalidArgument,
            MeshError::StaleTile { .. } | MeshError::StaleObstacle { .. } => {
                NavstarStatus::NavstarErrorStaleReference
            }
            MeshError::OutOfMemory(_) => NavstarStatus::NavstarErrorOutOfMemory,
            _ => NavstarStatus::NavstarErrorInvalidMesh,
        }
    }
}

impl From<&QueryError> for NavstarStatus {
    fn from(error: &QueryError) -> Self {
        match error {
            QueryError::NonFinitePoint(_)
            | QueryError::InvalidOption(_)
            | QueryError::InvalidAreaCost { .. }
            | QueryError::IndexOutOfRange { .. }
            | QueryError::RefusedPolygon { .. }
            | QueryError::ClearanceUnavailable(_)
            | QueryError::NoSlicedPath
            | QueryError::SlicedPathInterrupted => NavstarStatus::NavstarErrorInvalidArgument,
            QueryError::StaleReference { .. } => NavstarStatus::NavstarErrorStaleReference,
            QueryError::NotOnMesh { .. } | QueryError::NoAdmittedArea => {
                NavstarStatus::NavstarErrorNotOnMesh
            }
            QueryError::NoPath => NavstarStatus::NavstarErrorNoPath,
            QueryError::OutOfMemory => NavstarStatus::NavstarErrorOutOfMemory,
        }
    }
}

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

/// Stores the thread's last error message (interior NUL bytes become spaces).
pub(crate) fn set_last_error(message: &str) {
    let text = CString::new(message.replace('\0', " ")).unwrap_or_default();
    // `try_with` fails only while the thread is being torn down; then there is no reader.
    let _ = LAST_ERROR.try_with(|cell| *cell.borrow_mut() = text);
}

/// The library version as `(major << 16) | (minor << 8) | patch`.
#[unsafe(no_mangle)]
pub extern "C" fn navstar_version() -> u32 {
    const fn parse(s: &str) -> u32 {
        let bytes = s.as_bytes();
        let mut value = 0u32;
        let mut i = 0;
        while i < bytes.len() {
            value = value * 10 + (bytes[i] - b'0') as u32;
            i += 1;
        }
        value
    }
    const VERSION: u32 = (parse(env!("CARGO_PKG_VERSION_MAJOR")) << 16)
        | (parse(env!("CARGO_PKG_VERSION_MINOR")) << 8)
        | parse(env!("CARGO_PKG_VERSION_PATCH"));
    VERSION
}

/// The message of the last error on this thread: never NULL, "" when the last call
/// succeeded. The text names the function and the culprit. Valid until the next
/// navstar call on this thread; copy it to keep it.
#[unsafe(no_mangle)]
pub extern "C" fn navstar_last_error_message() -> *const c_char {
    LAST_ERROR
        .try_with(|cell| cell.borrow().as_ptr())
        .unwrap_or(c"".as_ptr())
}

/// The name of a status constant ("NAVSTAR_OK", ...), or "unknown status" for a value
/// navstar never returns. The string is static: never freed, never NULL.
#[unsafe(no_mangle)]
pub extern "C" fn navstar_status_name(status: i32) -> *const c_char {
    NavstarStatus::from_code(status)
        .map_or(c"unknown status", NavstarStatus::c_name)
        .as_ptr()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The header's `enum NavstarStatus` (generated from the Rust enum) and the name
    /// table agree: every constant of the header has its row, with its value.
    #[test]
    fn name_table_covers_the_header_enum() {
        let header =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/include/navstar.h"))
                .expect("include/navstar.h is readable");
        let body = header
            .split_once("enum NavstarStatus")
            .and_then(|(_, rest)| rest.split_once('{'))
            .and_then(|(_, rest)| rest.split_once('}'))
            .map(|(body, _)| body)
            .expect("the header declares enum NavstarStatus");
        let constants: Vec<(String, i32)> = body
            .lines()
            .filter_map(|line| {
                let (name, value) = line.trim().trim_end_matches(',').split_once(" = ")?;
                Some((name.to_string(), value.parse().ok()?))
            })
            .collect();
        assert_eq!(constants.len(), STATUS_NAMES.len(), "{constants:?}");
        for (name, value) in constants {
            let status = NavstarStatus::from_code(value)
                .unwrap_or_else(|| panic!("{name} = {value} has no row"));
            assert_eq!(status.name(), name);
        }
        assert_eq!(NavstarStatus::from_code(12345), None);
    }
}
