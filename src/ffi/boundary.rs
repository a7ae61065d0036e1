//! Crossing the C boundary: the panic net around every export, the error type that
//! leaves through it, and every read of the caller's memory and write into it (arrays,
//! points, versioned option structs, single outputs, output arrays with a count).
//!
//! The pointer helpers here are safe functions that trust their pointer arguments the
//! way the calling export's `# Safety` section lets them: they are called only with
//! pointers the export received from its C caller, who promised what that section says
//! (NULL, or valid for the described number of elements). That promise is the one
//! argument behind each `unsafe` block below, so the exports need none of their own.

use std::panic::{AssertUnwindSafe, catch_unwind};

use glam::Vec3;

use super::status::{NavstarStatus, set_last_error};

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

    pub fn out_of_memory(message: impl Into<String>) -> FfiError {
        FfiError::new(NavstarStatus::NavstarErrorOutOfMemory, message)
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

/// Returns `Err(NULL_ARGUMENT)` naming `name` when `ptr` is NULL.
#[inline]
pub(crate) fn non_null<T>(ptr: *const T, name: &str) -> Result<*const T, FfiError> {
    if ptr.is_null() {
        Err(FfiError::null(name))
    } else {
        Ok(ptr)
    }
}

/// Copies `count` elements from a caller's array into a Vec, failing cleanly (NULL or
/// out of memory) instead of aborting. NULL is accepted when `count` is 0.
pub(crate) fn read_array<T: Copy>(
    ptr: *const T,
    count: usize,
    name: &str,
) -> Result<Vec<T>, FfiError> {
    if count == 0 {
        return Ok(Vec::new());
    }
    let ptr = non_null(ptr, name)?;
    let mut out: Vec<T> = Vec::new();
    out.try_reserve_exact(count).map_err(|_| {
        FfiError::out_of_memory(format!(
            "cannot allocate a copy of {count} elements of {name}"
        ))
    })?;
    // SAFETY: the export's caller promised `count` readable elements at `ptr` (module
    // doc); the destination has the capacity. The copy is bytewise, so the caller's
    // array needs no particular alignment.
    unsafe {
        std::ptr::copy_nonoverlapping(
            ptr.cast::<u8>(),
            out.as_mut_ptr().cast::<u8>(),
            count * size_of::<T>(),
        );
        out.set_len(count);
    }
    Ok(out)
}

/// As [`read_array`] for an optional array: NULL gives `None`.
pub(crate) fn read_optional_array<T: Copy>(
    ptr: *const T,
    count: usize,
    name: &str,
) -> Result<Option<Vec<T>>, FfiError> {
    if ptr.is_null() {
        Ok(None)
    } else {
        read_array(ptr, count, name).map(Some)
    }
}

/// Reads `count` xyz points (`3 * count` floats), as given (not checked for finiteness).
pub(crate) fn read_points(ptr: *const f32, count: u32, name: &str) -> Result<Vec<Vec3>, FfiError> {
    let floats = read_array(ptr, 3 * count as usize, name)?;
    Ok(floats.chunks_exact(3).map(Vec3::from_slice).collect())
}

/// Reads an xyz point, rejecting NULL and non-finite values by name. Allocates nothing.
pub(crate) fn read_point(ptr: *const f32, name: &str) -> Result<Vec3, FfiError> {
    let ptr = non_null(ptr, name)?;
    // SAFETY: non-NULL, and the export's caller promised 3 readable floats (module
    // doc); read_unaligned tolerates any alignment.
    let point = Vec3::from_array(unsafe { ptr.cast::<[f32; 3]>().read_unaligned() });
    if !point.is_finite() {
        return Err(FfiError::invalid(format!(
            "{name} has a non-finite coordinate ({point})"
        )));
    }
    Ok(point)
}

/// Reads one value of a plain type (integers, floats) from a required pointer,
/// rejecting NULL by name. Allocates nothing.
pub(crate) fn read_value<T: Copy>(ptr: *const T, name: &str) -> Result<T, FfiError> {
    let ptr = non_null(ptr, name)?;
    // SAFETY: non-NULL, and the export's caller promised a readable value (module doc);
    // read_unaligned tolerates any alignment.
    Ok(unsafe { ptr.read_unaligned() })
}

/// A C struct that starts with a `u32 struct_size` and may grow at its end, so that
/// programs built against an older header keep working.
///
/// # Safety
/// The type is `#[repr(C)]`, starts with a `u32` size field, and any bytes read from a
/// caller (integers, floats, raw pointers) make a valid value.
pub(crate) unsafe trait Versioned: Copy + Default {
    /// The sizes of the earlier published versions, accepted besides the current size:
    /// the fields they do not cover keep their defaults.
    const OLDER_SIZES: &'static [usize];
    /// The C function that fills in the defaults, named in messages.
    const DEFAULT_FUNCTION: &'static str;
}

/// Reads a caller's versioned struct; NULL gives the defaults.
///
/// The current size and the older published sizes are accepted. Any other size is
/// rejected: a larger one means the caller was built against a newer navstar (its extra
/// options would be silently ignored), and one between versions would cut a field (a
/// pointer) in half.
pub(crate) fn read_versioned<T: Versioned>(ptr: *const T, name: &str) -> Result<T, FfiError> {
    if ptr.is_null() {
        return Ok(T::default());
    }
    // SAFETY: the export's caller promised a readable struct (module doc), which starts
    // with a u32 `struct_size` (`Versioned`); read_unaligned tolerates any alignment.
    let size = unsafe { ptr.cast::<u32>().read_unaligned() } as usize;
    if size != size_of::<T>() && !T::OLDER_SIZES.contains(&size) {
        return Err(FfiError::invalid(format!(
            "{name}->struct_size is {size}; expected {} (initialise it with {}())",
            size_of::<T>(),
            T::DEFAULT_FUNCTION
        )));
    }
    let mut value = T::default();
    // SAFETY: `size` bytes are readable at `ptr` (the caller's promise for a struct of
    // that size) and fit in `value` (checked above); any bytes make a valid T
    // (`Versioned`).
    unsafe { std::ptr::copy_nonoverlapping(ptr.cast::<u8>(), (&raw mut value).cast::<u8>(), size) };
    Ok(value)
}

/// Writes `items` to the caller's array at `out`, one after another. The caller of this
/// function has checked that the array has room for every item given.
pub(crate) fn write_array<T>(out: *mut T, items: impl Iterator<Item = T>) {
    for (i, item) in items.enumerate() {
        // SAFETY: the export's caller promised room for the items (module doc) and the
        // caller of this function passes no more than that room; write_unaligned
        // tolerates any alignment.
        unsafe { out.add(i).write_unaligned(item) };
    }
}

/// Stores `value` in an optional output; NULL means the caller does not want it.
pub(crate) fn put<T>(out: *mut T, value: T) {
    if !out.is_null() {
        write_array(out, std::iter::once(value));
    }
}

/// A required output of one value.
pub(crate) struct Out<T>(*mut T);

impl<T> Out<T> {
    /// Checks a required output pointer: NULL is NULL_ARGUMENT naming `name`.
    pub fn required(ptr: *mut T, name: &str) -> Result<Out<T>, FfiError> {
        non_null(ptr, name)?;
        Ok(Out(ptr))
    }

    /// Stores `value`.
    pub fn set(&self, value: T) {
        put(self.0, value);
    }
}

/// A caller's output array (room for `capacity` items, and the full count at
/// `out_count`) whose count is checked but whose items pointer is not yet: for exports
/// that check other arguments in between. [`OutCount::check_room`] makes it an
/// [`OutSlice`].
pub(crate) struct OutCount<T> {
    items: *mut T,
    capacity: u32,
    count: Out<u32>,
}

impl<T> OutCount<T> {
    /// Checks `out_count` (required; set to 0 at once, so that it is 0 on any error).
    pub fn new(items: *mut T, capacity: u32, out_count: *mut u32) -> Result<Self, FfiError> {
        OutCount::named(items, capacity, out_count, "out_count")
    }

    /// As [`OutCount::new`] for an export whose count output is called `count_name`
    /// (named in the error when it is NULL).
    pub fn named(
        items: *mut T,
        capacity: u32,
        out_count: *mut u32,
        count_name: &str,
    ) -> Result<Self, FfiError> {
        let count = Out::required(out_count, count_name)?;
        count.set(0);
        Ok(OutCount {
            items,
            capacity,
            count,
        })
    }

    /// The items pointer may be NULL only when the capacity is 0 (asking for the count
    /// alone); `name` names it in the error.
    pub fn check_room(self, name: &str) -> Result<OutSlice<T>, FfiError> {
        if self.items.is_null() && self.capacity > 0 {
            return Err(FfiError::null(&format!("{name} (with capacity > 0)")));
        }
        Ok(OutSlice(self))
    }
}

/// A caller's output array filled one item at a time ([`OutSlice::stream`]): the
/// first `capacity` items are written, all are counted.
pub(crate) struct OutStream<T> {
    out: OutCount<T>,
    count: u32,
}

impl<T> OutStream<T> {
    /// Writes `item` after the ones before it if there is room, and counts it.
    pub fn push(&mut self, item: T) {
        if self.count < self.out.capacity {
            // Below the capacity, so within the caller's array (not NULL: check_room).
            write_array(
                self.out.items.wrapping_add(self.count as usize),
                std::iter::once(item),
            );
        }
        self.count = self.count.saturating_add(1);
    }

    /// Sets the full count: `NAVSTAR_BUFFER_TOO_SMALL` when the items did not all fit,
    /// else `NAVSTAR_OK`.
    pub fn finish(self) -> NavstarStatus {
        self.out.count.set(self.count);
        if self.count > self.out.capacity {
            NavstarStatus::NavstarBufferTooSmall
        } else {
            NavstarStatus::NavstarOk
        }
    }
}

/// A caller's output array with both pointers checked, ready for [`OutSlice::write`].
pub(crate) struct OutSlice<T>(OutCount<T>);

impl<T> OutSlice<T> {
    /// [`OutCount::new`] then [`OutCount::check_room`], for exports that check their
    /// output array first.
    pub fn new(
        items: *mut T,
        capacity: u32,
        out_count: *mut u32,
        name: &str,
    ) -> Result<Self, FfiError> {
        OutCount::new(items, capacity, out_count)?.check_room(name)
    }

    /// An [`OutStream`] over the array, for items that come one at a time.
    pub fn stream(self) -> OutStream<T> {
        OutStream {
            out: self.0,
            count: 0,
        }
    }

    /// Whether `count` items fit in the array.
    pub fn fits(&self, count: usize) -> bool {
        count <= self.0.capacity as usize
    }

    /// Writes no item, only the full `count` of those that did not fit
    /// (`NAVSTAR_BUFFER_TOO_SMALL`): for exports that change nothing unless every
    /// result fits.
    pub fn too_small(self, count: usize) -> NavstarStatus {
        self.0.count.set(u32::try_from(count).unwrap_or(u32::MAX));
        NavstarStatus::NavstarBufferTooSmall
    }

    /// Writes the first `capacity` of `items` and their full count:
    /// `NAVSTAR_BUFFER_TOO_SMALL` when they do not all fit, else `NAVSTAR_OK`.
    pub fn write(self, items: impl ExactSizeIterator<Item = T>) -> NavstarStatus {
        let OutCount {
            items: out,
            capacity,
            count: out_count,
        } = self.0;
        let count = items.len();
        // NULL only with capacity 0 (check_room), when nothing is taken.
        write_array(out, items.take(capacity as usize));
        out_count.set(count as u32);
        if count > capacity as usize {
            NavstarStatus::NavstarBufferTooSmall
        } else {
            NavstarStatus::NavstarOk
        }
    }
}
