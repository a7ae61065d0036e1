//! Status codes of the C ABI and the mapping from the Rust error types.

use crate::error::{MeshError, QueryError};

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
    /// A bug: a panic was caught at the boundary.
    NavstarErrorInternal = -100,
}

impl NavstarStatus {
    /// The constant's name as written in C, for messages and logs.
    pub fn name(self) -> &'static str {
        match self {
            NavstarStatus::NavstarOk => "NAVSTAR_OK",
            NavstarStatus::NavstarPartialPath => "NAVSTAR_PARTIAL_PATH",
            NavstarStatus::NavstarBufferTooSmall => "NAVSTAR_BUFFER_TOO_SMALL",
            NavstarStatus::NavstarErrorNullArgument => "NAVSTAR_ERROR_NULL_ARGUMENT",
            NavstarStatus::NavstarErrorInvalidArgument => "NAVSTAR_ERROR_INVALID_ARGUMENT",
            NavstarStatus::NavstarErrorInvalidMesh => "NAVSTAR_ERROR_INVALID_MESH",
            NavstarStatus::NavstarErrorNotOnMesh => "NAVSTAR_ERROR_NOT_ON_MESH",
            NavstarStatus::NavstarErrorNoPath => "NAVSTAR_ERROR_NO_PATH",
            NavstarStatus::NavstarErrorOutOfMemory => "NAVSTAR_ERROR_OUT_OF_MEMORY",
            NavstarStatus::NavstarErrorInternal => "NAVSTAR_ERROR_INTERNAL",
        }
    }
}

impl From<&MeshError> for NavstarStatus {
    fn from(error: &MeshError) -> Self {
        match error {
            MeshError::InvalidOption(_) | MeshError::TooLarge(_) => {
                NavstarStatus::NavstarErrorInvalidArgument
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
            | QueryError::IndexOutOfRange { .. } => NavstarStatus::NavstarErrorInvalidArgument,
            QueryError::NotOnMesh { .. } => NavstarStatus::NavstarErrorNotOnMesh,
            QueryError::NoPath => NavstarStatus::NavstarErrorNoPath,
            QueryError::OutOfMemory => NavstarStatus::NavstarErrorOutOfMemory,
        }
    }
}
