//! The C boundary's safety net: panic catching, the thread-local error message, and
//! one-line NULL checks.

use std::cell::RefCell;
use std::ffi::{CString, c_char};
use std::panic::{AssertUnwindSafe, catch_unwind};

use super::status::NavstarStatus;

/// An error on its way out through the C boundary: a status and a message.
#[derive(Debug)]
pub(crate) struct FfiError {
    pub status: NavstarStatus,
    pub message: String,
}

impl FfiError {
    pub fn new(status: NavstarStatus, message: impl Into<String>) -> FfiError {
        FfiError {
            status,
            message: message.into(),
        }
    }

    pub fn null(name: &str) -> FfiError {
        FfiError::new(
            NavstarStatus::NavstarErrorNullArgument,
            format!("{name} is NULL"),
        )
    }

    pub fn invalid(message: impl Into<String>) -> FfiError {
        FfiError::new(NavstarStatus::NavstarErrorInvalidArgument, message)
    }
}

impl From<crate::MeshError> for FfiError {
    fn from(e: crate::MeshError) -> Self {
        FfiError::new((&e).into(), e.to_string())
    }
}

impl From<crate::QueryError> for FfiError {
    fn from(e: crate::QueryError) -> Self {
        FfiError::new((&e).into(), e.to_string())
    }
}

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

/// Runs `body` as the body of the C function `function`: clears the thread's last error,
/// turns an `Err` into its status plus message, and a panic into
/// `NAVSTAR_ERROR_INTERNAL`. Nothing unwinds past this point.
pub(crate) fn run(
    function: &str,
    body: impl FnOnce() -> Result<NavstarStatus, FfiError>,
) -> NavstarStatus {
    set_last_error("");
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(status)) => status,
        Ok(Err(error)) => {
            set_last_error(&format!("{function}: {}", error.message));
            error.status
        }
        Err(payload) => {
            let what = panic_text(&*payload);
            set_last_error(&format!(
                "{function}: internal error (a bug in navstar, please report): {what}"
            ));
            NavstarStatus::NavstarErrorInternal
        }
    }
}

/// For functions that return nothing (the `*_free` functions): a panic is swallowed
/// after recording its message. Unlike [`run`] it leaves the last error message alone,
/// so a wrapper may free a handle and then read why the call before it failed.
pub(crate) fn run_void(function: &str, body: impl FnOnce()) {
    if let Err(payload) = catch_unwind(AssertUnwindSafe(body)) {
        set_last_error(&format!(
            "{function}: internal error (a bug in navstar, please report): {}",
            panic_text(&*payload)
        ));
    }
}

/// The text of a panic payload.
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string())
}

/// Stores the thread's last error message (interior NUL bytes become spaces).
pub(crate) fn set_last_error(message: &str) {
    let text = CString::new(message.replace('\0', " ")).unwrap_or_default();
    // `try_with` fails only while the thread is being torn down; then there is no reader.
    let _ = LAST_ERROR.try_with(|cell| *cell.borrow_mut() = text);
}

/// A pointer to the thread's last error message; valid until the next call that sets it.
pub(crate) fn last_error_ptr() -> *const c_char {
    static EMPTY: &std::ffi::CStr = c"";
    LAST_ERROR
        .try_with(|cell| cell.borrow().as_ptr())
        .unwrap_or(EMPTY.as_ptr())
}

/// Returns `Err(NULL_ARGUMENT)` naming `name` when `ptr` is NULL.
#[inline]
pub(crate) fn non_null<T>(ptr: *const T, name: &str) -> Result<*const T, FfiError> {
    if ptr.is_null() {
        Err(FfiError::null(name))
    } else {
        Ok(ptr)
    }
}

/// As [`non_null`] for mutable pointers.
#[inline]
pub(crate) fn non_null_mut<T>(ptr: *mut T, name: &str) -> Result<*mut T, FfiError> {
    if ptr.is_null() {
        Err(FfiError::null(name))
    } else {
        Ok(ptr)
    }
}
