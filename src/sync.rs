//! The synchronisation types of meshes and worlds, in one place so that the model checker
//! can swap them: the standard library's (and `arc-swap`'s) normally, loom's when built
//! with `--cfg loom` (tests/loom.rs runs the world's publication protocol under loom's
//! exhaustive scheduler).
//!
//! Immutable data shared between snapshots stays in `std::sync::Arc`: loom follows the
//! orderings of the atomics, the lock and the snapshot cell, which carry every change
//! from writers to readers.

#[cfg(loom)]
pub(crate) use loom::sync::atomic::{AtomicU32, AtomicU64};
#[cfg(loom)]
pub(crate) use loom::sync::{Mutex, MutexGuard};
#[cfg(not(loom))]
pub(crate) use std::sync::atomic::{AtomicU32, AtomicU64};
#[cfg(not(loom))]
pub(crate) use std::sync::{Mutex, MutexGuard};

use std::sync::Arc;

/// The cell that holds a world's last published snapshot: writers store a new one,
/// readers load the current one without a lock (`arc-swap`).
pub(crate) struct SnapshotCell<T> {
    #[cfg(not(loom))]
    current: arc_swap::ArcSwap<T>,
    /// Under loom, the contract of `arc-swap` (every load returns one whole value that
    /// was stored, the last one before it or a later one) as a lock loom can schedule.
    #[cfg(loom)]
    current: loom::sync::RwLock<Arc<T>>,
}

impl<T> SnapshotCell<T> {
    /// A cell holding `value`.
    pub(crate) fn new(value: T) -> SnapshotCell<T> {
        SnapshotCell {
            #[cfg(not(loom))]
            current: arc_swap::ArcSwap::from_pointee(value),
            #[cfg(loom)]
            current: loom::sync::RwLock::new(Arc::new(value)),
        }
    }

    /// The value stored last.
    pub(crate) fn load(&self) -> Arc<T> {
        #[cfg(not(loom))]
        return self.current.load_full();
        #[cfg(loom)]
        return Arc::clone(&self.current.read().unwrap_or_else(|e| e.into_inner()));
    }

    /// Replaces the value; loads that start after this returns see `value` or a later
    /// one.
    pub(crate) fn store(&self, value: Arc<T>) {
        #[cfg(not(loom))]
        self.current.store(value);
        #[cfg(loom)]
        {
            *self.current.write().unwrap_or_else(|e| e.into_inner()) = value;
        }
    }
}
