//! Fallible allocation: building a mesh from untrusted sizes reports
//! [`MeshError::OutOfMemory`] (naming what did not fit) instead of aborting the process.
//! The lowest layer, beside `geometry` and `error`: it uses only `error`.

use std::collections::HashMap;

use crate::error::MeshError;

/// An empty `Vec` with room for `n` items, or `OutOfMemory` instead of an abort.
pub(crate) fn try_vec_with_capacity<T>(n: usize, what: &'static str) -> Result<Vec<T>, MeshError> {
    let mut v = Vec::new();
    v.try_reserve_exact(n)
        .map_err(|_| MeshError::OutOfMemory(what))?;
    Ok(v)
}

/// `n` copies of `value`, or `OutOfMemory` instead of an abort.
pub(crate) fn try_filled<T: Clone>(
    n: usize,
    value: T,
    what: &'static str,
) -> Result<Vec<T>, MeshError> {
    let mut v = try_vec_with_capacity(n, what)?;
    v.resize(n, value);
    Ok(v)
}

/// Collects `items`, of which there are at most `n`, into a `Vec` allocated up front
/// with [`try_vec_with_capacity`], so that the collection itself never aborts.
pub(crate) fn try_collect<T>(
    n: usize,
    items: impl Iterator<Item = T>,
    what: &'static str,
) -> Result<Vec<T>, MeshError> {
    let mut v = try_vec_with_capacity(n, what)?;
    v.extend(items);
    debug_assert!(v.len() <= n, "try_collect: more than {n} items");
    Ok(v)
}

/// An empty hash map with room for `n` entries, or `OutOfMemory` instead of an abort.
pub(crate) fn try_map_with_capacity<K: std::hash::Hash + Eq, V>(
    n: usize,
    what: &'static str,
) -> Result<HashMap<K, V>, MeshError> {
    let mut map = HashMap::new();
    map.try_reserve(n)
        .map_err(|_| MeshError::OutOfMemory(what))?;
    Ok(map)
}
