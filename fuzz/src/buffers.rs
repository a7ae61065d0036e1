//! Output buffers with guards: every 4-byte word starts as a sentinel nobody may write
//! (a NaN with a payload no computation produces, and as a `u32` an index no mesh has),
//! so that after a call the harness sees exactly which items were written.

use std::ptr;

use crate::{BUFFER_TOO_SMALL, NavstarStatus, check_status_and_message};

/// The sentinel word: NaN as an `f32`, an impossible index as a `u32`.
pub const SENTINEL_BITS: u32 = 0x7fc0_5eed;

/// Items to guard after the capacity.
const GUARD: usize = 4;

/// Output items made of 4-byte words (`u32`, `f32` and `#[repr(C)]` structs of them), so
/// that any bit pattern is a valid value.
///
/// # Safety
/// The type must have no padding and no field other than `u32`/`f32`-sized plain data.
pub unsafe trait Words: Copy {}

// SAFETY: plain 4-byte words, no padding.
unsafe impl Words for u32 {}
// SAFETY: as above.
unsafe impl Words for f32 {}
// SAFETY: three f32.
unsafe impl Words for [f32; 3] {}
// SAFETY: repr(C), three u32.
unsafe impl Words for navstar::ffi::NavstarCornerDetail {}
// SAFETY: repr(C), u32, u32, f32.
unsafe impl Words for navstar::ffi::NavstarReachedPolygon {}
// SAFETY: repr(C), u32, u32, 3 f32, f32.
unsafe impl Words for navstar::ffi::NavstarPathArc {}
// SAFETY: repr(C), u32, f32, 3 f32, 3 f32, u32.
unsafe impl Words for navstar::ffi::NavstarRaycastHit {}
// SAFETY: repr(C), 3 f32, u32, u32.
unsafe impl Words for navstar::ffi::NavstarSurfaceMove {}
// SAFETY: repr(C), u32, f32, 3 f32, 3 f32, u32.
unsafe impl Words for navstar::ffi::NavstarWallDistance {}

/// The words of an item.
pub fn words<T: Words>(item: &T) -> &[u32] {
    const { assert!(size_of::<T>().is_multiple_of(4) && align_of::<T>() >= 4) };
    // SAFETY: `Words` types are made of 4-byte words without padding (trait contract).
    unsafe { std::slice::from_raw_parts(ptr::from_ref(item).cast::<u32>(), size_of::<T>() / 4) }
}

/// An item whose every word is the sentinel.
pub fn sentinel<T: Words>() -> T {
    let mut item = std::mem::MaybeUninit::<T>::uninit();
    for k in 0..size_of::<T>() / 4 {
        // SAFETY: within the item; 4-byte words (trait contract).
        unsafe { item.as_mut_ptr().cast::<u32>().add(k).write(SENTINEL_BITS) };
    }
    // SAFETY: every byte written; any bit pattern is valid for `Words` types.
    unsafe { item.assume_init() }
}

/// Whether no word of `item` was written.
pub fn untouched<T: Words>(item: &T) -> bool {
    words(item).iter().all(|&w| w == SENTINEL_BITS)
}

/// An output array of `capacity` items plus a guard, all sentinels; or NULL.
pub struct Guarded<T: Words> {
    items: Vec<T>,
    capacity: u32,
    null: bool,
}

impl<T: Words> Guarded<T> {
    /// Room for `capacity` items, or NULL (`null`, with any `capacity`).
    pub fn new(capacity: u32, null: bool) -> Self {
        let len = if null { 0 } else { capacity as usize + GUARD };
        Guarded {
            items: vec![sentinel(); len],
            capacity,
            null,
        }
    }

    /// The capacity to pass.
    pub fn capacity(&self) -> u32 {
        self.capacity
    }

    /// The pointer to pass.
    pub fn as_mut_ptr(&mut self) -> *mut T {
        if self.null {
            ptr::null_mut()
        } else {
            self.items.as_mut_ptr()
        }
    }

    /// Checks that exactly the first `written` items were written (each of their words
    /// differs from the sentinel) and nothing after them, and returns them.
    #[track_caller]
    pub fn written(&self, written: usize, function: &str) -> &[T] {
        for (i, item) in self.items.iter().enumerate() {
            if i < written {
                assert!(
                    words(item).iter().all(|&w| w != SENTINEL_BITS),
                    "{function}: item {i} of {written} due was not (wholly) written"
                );
            } else {
                assert!(
                    untouched(item),
                    "{function}: item {i} written past the {written} items due (capacity {})",
                    self.capacity
                );
            }
        }
        &self.items[..written.min(self.items.len())]
    }
}

/// What a call that fills an array answered.
#[derive(Debug, Clone)]
pub struct ListAnswer<T> {
    /// The status.
    pub status: NavstarStatus,
    /// The thread's error message after the call.
    pub message: String,
    /// `*out_count`.
    pub count: u32,
    /// The items written: the first `min(count, capacity)`.
    pub items: Vec<T>,
}

/// The buffers of a call that fills an array.
#[derive(Debug, Clone, Copy, Default)]
pub struct ListBuffers {
    /// Room for this many items.
    pub capacity: u32,
    /// The array is NULL (with any capacity).
    pub out_null: bool,
    /// `out_count` is NULL.
    pub count_null: bool,
}

impl ListBuffers {
    /// Room for `capacity` items and a count, neither NULL.
    pub fn room(capacity: u32) -> Self {
        ListBuffers {
            capacity,
            ..ListBuffers::default()
        }
    }
}

/// Calls a function that writes up to `capacity` items and the full count, as
/// `call(out_items, capacity, out_count)`, and checks the rules they share: the status
/// and message rules; after an error `*out_count` is 0 and nothing is written; after a
/// success the first `min(count, capacity)` items are written and nothing after them,
/// and the status is `NAVSTAR_BUFFER_TOO_SMALL` exactly when `count > capacity`.
#[track_caller]
pub fn call_list<T: Words>(
    function: &str,
    buffers: ListBuffers,
    call: impl FnOnce(*mut T, u32, *mut u32) -> NavstarStatus,
) -> ListAnswer<T> {
    let capacity = buffers.capacity;
    let mut buffer = Guarded::<T>::new(capacity, buffers.out_null);
    let mut count: u32 = 0xdead_beef;
    let count_ptr = if buffers.count_null {
        ptr::null_mut()
    } else {
        ptr::from_mut(&mut count)
    };
    let status = call(buffer.as_mut_ptr(), capacity, count_ptr);
    let message = check_status_and_message(function, status);
    let written = if (status as i32) < 0 {
        if !buffers.count_null {
            assert_eq!(count, 0, "{function}: *out_count after {status:?}");
        }
        0
    } else {
        assert!(!buffers.count_null, "{function}: success without out_count");
        assert_eq!(
            status == BUFFER_TOO_SMALL,
            count > capacity,
            "{function}: status {status:?} with {count} items for capacity {capacity}"
        );
        count.min(capacity) as usize
    };
    ListAnswer {
        status,
        message,
        count: if (status as i32) < 0 { 0 } else { count },
        items: buffer.written(written, function).to_vec(),
    }
}
