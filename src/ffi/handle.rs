//! The opaque handles of the C ABI and who owns what behind them.
//!
//! C sees `NavstarMesh *`, `NavstarQuery *`, `NavstarCorridor *` and `NavstarWorld *` as opaque pointers. Behind each is a Rust
//! value allocated by this module: [`Handle`] ties each opaque type to its Rust type and
//! to how that value is owned, so the compiler rejects mixing them up (freeing a shared
//! mesh as if it had one owner, or lending out a mesh mutably). A mesh is shared
//! ([`Shared`], an `Arc`: any number of threads may read it); a query has one owner
//! ([`Boxed`], a `Box`: one thread at a time, so it may be borrowed mutably). A world
//! has one owner too, but is only ever borrowed shared: the Rust `World` serializes its
//! writers itself, so any number of threads may use one.
//!
//! The helpers trust their pointers as the boundary helpers do (see `boundary.rs`): each
//! is NULL or a live handle of its type, as the calling export's `# Safety` section
//! makes the C caller promise.

use std::sync::Arc;

use super::boundary::{FfiError, Out};
use crate::{NavMesh, PathStatus, Query, World};

/// An immutable navigation mesh, shared by any number of threads. Create with
/// `navstar_mesh_create`, release with `navstar_mesh_free`.
pub struct NavstarMesh {
    _opaque: [u8; 0],
}

/// Per-thread path query state over one mesh. Use from one thread at a time. Holds its
/// own reference to the mesh, so the mesh may be freed first.
pub struct NavstarQuery {
    _opaque: [u8; 0],
}

/// A world of tiles: add, remove and replace tiles while other threads query snapshots
/// of it. Create with `navstar_world_create`, release with `navstar_world_free`.
pub struct NavstarWorld {
    _opaque: [u8; 0],
}

/// A path corridor that follows one agent (`PathCorridor`). Create with
/// `navstar_corridor_create`, release with `navstar_corridor_free`. Use from one thread
/// at a time; holds its own reference to the mesh, so the mesh may be freed first.
pub struct NavstarCorridor {
    _opaque: [u8; 0],
}

/// What a `NavstarWorld` handle holds.
pub(crate) struct WorldState {
    /// The world.
    pub world: World,
    /// This handle's number, never 0, unique in the process: the tile references it
    /// hands out carry it, so that a reference into another world is refused.
    pub id: u32,
}

/// What a `NavstarQuery` handle holds.
pub(crate) struct QueryState {
    /// The search state, with its own reference to the mesh.
    pub query: Query,
    /// The status of the last path call on this handle, when it gave a path.
    pub last_path: Option<PathStatus>,
}

/// How the value behind a handle is owned.
pub(crate) trait Ownership {
    /// Moves `value` to the heap and gives up ownership of it as a raw pointer.
    fn into_raw<T>(value: T) -> *mut T;

    /// Drops the value behind a pointer made by [`Ownership::into_raw`] (for a shared
    /// value: one owner's share of it).
    ///
    /// # Safety
    /// `ptr` comes from `into_raw` of the same ownership and is released once.
    unsafe fn release<T>(ptr: *mut T);
}

/// One owner: the handle is a `Box`.
pub(crate) enum Boxed {}

/// Shared, reference-counted: the handle is an `Arc`.
pub(crate) enum Shared {}

impl Ownership for Boxed {
    fn into_raw<T>(value: T) -> *mut T {
        Box::into_raw(Box::new(value))
    }

    unsafe fn release<T>(ptr: *mut T) {
        // SAFETY: made by Box::into_raw and released once (this function's contract).
        drop(unsafe { Box::from_raw(ptr) });
    }
}

impl Ownership for Shared {
    fn into_raw<T>(value: T) -> *mut T {
        Arc::into_raw(Arc::new(value)).cast_mut()
    }

    unsafe fn release<T>(ptr: *mut T) {
        // SAFETY: made by Arc::into_raw; this releases the one count it stood for
        // (this function's contract).
        drop(unsafe { Arc::from_raw(ptr.cast_const()) });
    }
}

/// An opaque C handle type: which Rust value is behind it and how that is owned.
pub(crate) trait Handle {
    /// The Rust value behind the handle.
    type Rust;
    /// How the handle owns it.
    type Ownership: Ownership;
}

impl Handle for NavstarMesh {
    type Rust = NavMesh;
    type Ownership = Shared;
}

impl Handle for NavstarQuery {
    type Rust = QueryState;
    type Ownership = Boxed;
}

impl Handle for NavstarCorridor {
    type Rust = crate::PathCorridor;
    type Ownership = Boxed;
}

impl Handle for NavstarWorld {
    type Rust = WorldState;
    type Ownership = Boxed;
}

/// The value behind a handle, or `None` for NULL.
pub(crate) fn get<'a, H: Handle>(handle: *const H) -> Option<&'a H::Rust> {
    // SAFETY: NULL or a live handle of type H (module doc), which points to the H::Rust
    // that `into_handle` moved to the heap; only shared access is taken.
    unsafe { handle.cast::<H::Rust>().as_ref() }
}

/// The value behind a handle; NULL is NULL_ARGUMENT naming `name`.
pub(crate) fn borrow<'a, H: Handle>(handle: *const H, name: &str) -> Result<&'a H::Rust, FfiError> {
    get(handle).ok_or_else(|| FfiError::null(name))
}

/// The value behind a handle with one owner, for changing it; NULL is NULL_ARGUMENT
/// naming `name`.
pub(crate) fn borrow_mut<'a, H: Handle<Ownership = Boxed>>(
    handle: *mut H,
    name: &str,
) -> Result<&'a mut H::Rust, FfiError> {
    // SAFETY: NULL or a live handle of type H (module doc), which points to the boxed
    // H::Rust; the caller uses it from this thread only, so the access is exclusive.
    unsafe { handle.cast::<H::Rust>().as_mut() }.ok_or_else(|| FfiError::null(name))
}

/// Releases a handle (its owner's share of it); NULL does nothing.
pub(crate) fn free<H: Handle>(handle: *mut H) {
    if !handle.is_null() {
        // SAFETY: a live handle of type H (module doc), made by `into_handle` with the
        // same ownership; the caller frees it once.
        unsafe { H::Ownership::release(handle.cast::<H::Rust>()) };
    }
}

/// The out-pointer through which an export hands out a new handle.
pub(crate) struct HandleOut<H>(Out<*mut H>);

impl<H: Handle> HandleOut<H> {
    /// Checks `out` (NULL is NULL_ARGUMENT naming `name`) and sets `*out` to NULL at
    /// once, so that it is NULL on any error.
    pub fn new(out: *mut *mut H, name: &str) -> Result<Self, FfiError> {
        let out = Out::required(out, name)?;
        out.set(std::ptr::null_mut());
        Ok(HandleOut(out))
    }

    /// Moves `value` behind a new handle and stores that in `*out`; the caller releases
    /// it with the `*_free` function of its type.
    pub fn give(self, value: H::Rust) {
        self.0.set(H::Ownership::into_raw(value).cast::<H>());
    }
}
