//! The table from a mesh element (a corner slot, a link hop, a polygon, a vertex) to the
//! search state kept for it: open addressing with linear probing over a power-of-two
//! number of buckets, each stamped with the generation that wrote it, so that starting a
//! new search costs nothing per element of the mesh and nothing per bucket. Its memory
//! follows the number of elements a search touches, not the size of the mesh.

/// The id of a mesh element in a [`NodeMap`]: a polygon, vertex or corner slot id
/// (`u32`), or a search node's [`crate::corridor::StepKey`] (`u64`: corner slots and
/// link hops in separate halves).
pub(crate) trait ElementKey: Copy + Eq + Default {
    /// The key as a number, for hashing.
    fn wide(self) -> u64;
}

impl ElementKey for u32 {
    #[inline(always)]
    fn wide(self) -> u64 {
        u64::from(self)
    }
}

impl ElementKey for u64 {
    #[inline(always)]
    fn wide(self) -> u64 {
        self
    }
}

/// One bucket: the key and value stored there, valid while `stamp` equals the map's
/// generation.
#[derive(Clone, Copy, Default)]
struct Bucket<K> {
    stamp: u32,
    key: K,
    value: u32,
}

/// The smallest number of buckets once the map holds anything.
const MIN_BUCKETS: usize = 64;

/// Consecutive keys that share a block of buckets (a power of two, below
/// [`MIN_BUCKETS`]).
const GROUP: usize = 8;

/// A map from an [`ElementKey`] to `u32` (an index into a node array), emptied in O(1)
/// by [`NodeMap::clear`].
pub(crate) struct NodeMap<K = u32> {
    buckets: Vec<Bucket<K>>,
    /// Buckets written in this generation are live.
    generation: u32,
    /// Live entries.
    len: usize,
}

/// Where a key lives, or would go: the bucket index, and whether it is there.
#[derive(Clone, Copy)]
pub(crate) enum Slot {
    /// The key is in the map with this value.
    Found(u32),
    /// The key is not in the map; [`NodeMap::insert_at`] with this bucket adds it.
    Vacant(usize),
}

impl<K> Default for NodeMap<K> {
    fn default() -> Self {
        NodeMap {
            buckets: Vec::new(),
            generation: 0,
            len: 0,
        }
    }
}

impl<K: ElementKey> NodeMap<K> {
    /// Empties the map: O(1) (the stamps of every bucket are wiped once every 2^32
    /// calls, when the generation wraps round).
    pub fn clear(&mut self) {
        self.len = 0;
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.buckets.fill(Bucket::default());
            self.generation = 1;
        }
    }

    /// The bytes held by the buckets.
    pub fn bytes(&self) -> usize {
        self.buckets.capacity() * std::mem::size_of::<Bucket<K>>()
    }

    /// The first bucket to probe for `key`. Keys come in runs (the corner slots of one
    /// polygon are consecutive), so each run of [`GROUP`] keys goes to one block of
    /// consecutive buckets (one or two cache lines), placed by Fibonacci hashing of the
    /// run's number (the high bits of the product spread neighbouring runs over the
    /// table).
    #[inline(always)]
    fn home(&self, key: K) -> usize {
        let bits = self.buckets.len().trailing_zeros();
        let key = key.wide();
        let group = key / GROUP as u64;
        let block = (group.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize;
        (block & !(GROUP - 1)) | (key as usize & (GROUP - 1))
    }

    /// The value of `key`, if the map holds it.
    #[inline]
    pub fn get(&self, key: K) -> Option<u32> {
        match self.find(key) {
            Slot::Found(value) => Some(value),
            Slot::Vacant(_) => None,
        }
    }

    /// Looks `key` up: its value, or the bucket where it would be inserted.
    #[inline]
    pub fn find(&self, key: K) -> Slot {
        if self.buckets.is_empty() {
            return Slot::Vacant(usize::MAX);
        }
        let mask = self.buckets.len() - 1;
        let mut at = self.home(key);
        loop {
            let bucket = &self.buckets[at];
            if bucket.stamp != self.generation {
                return Slot::Vacant(at);
            }
            if bucket.key == key {
                return Slot::Found(bucket.value);
            }
            at = (at + 1) & mask;
        }
    }

    /// Adds `key` with `value` at the bucket [`NodeMap::find`] returned for it (no other
    /// insertion in between). Grows the table when it is half full; `false` when that
    /// memory cannot be allocated (the map is then unchanged).
    #[inline]
    pub fn insert_at(&mut self, bucket: usize, key: K, value: u32) -> bool {
        if 2 * (self.len + 1) > self.buckets.len() {
            if !self.grow() {
                return false;
            }
            return self.insert(key, value);
        }
        self.buckets[bucket] = Bucket {
            stamp: self.generation,
            key,
            value,
        };
        self.len += 1;
        true
    }

    /// Adds `key` (not in the map) with `value`; `false` when out of memory.
    pub fn insert(&mut self, key: K, value: u32) -> bool {
        match self.find(key) {
            Slot::Found(_) => {
                debug_assert!(false, "key inserted twice");
                true
            }
            Slot::Vacant(bucket) => self.insert_at(bucket, key, value),
        }
    }

    /// Doubles the buckets (at least [`MIN_BUCKETS`]) and moves the live entries over.
    #[cold]
    fn grow(&mut self) -> bool {
        let size = (self.buckets.len() * 2).max(MIN_BUCKETS);
        let mut buckets = Vec::new();
        if buckets.try_reserve_exact(size).is_err() {
            return false;
        }
        buckets.resize(size, Bucket::default());
        let old = std::mem::replace(&mut self.buckets, buckets);
        let generation = self.generation;
        self.generation = 1;
        self.len = 0;
        for bucket in old.into_iter().filter(|b| b.stamp == generation) {
            if let Slot::Vacant(at) = self.find(bucket.key) {
                self.buckets[at] = Bucket { stamp: 1, ..bucket };
                self.len += 1;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_what_was_inserted_until_cleared() {
        let mut map = NodeMap::default();
        assert_eq!(map.get(7), None);
        for key in 0..10_000u32 {
            assert!(map.insert(key * 3, key));
        }
        assert_eq!(map.len, 10_000);
        for key in 0..10_000u32 {
            assert_eq!(map.get(key * 3), Some(key));
            assert_eq!(map.get(key * 3 + 1), None);
        }
        let bytes = map.bytes();
        map.clear();
        assert_eq!(map.len, 0);
        assert_eq!(map.get(3), None);
        assert!(map.insert(u32::MAX, 5));
        assert_eq!(map.get(u32::MAX), Some(5));
        assert_eq!(map.bytes(), bytes, "clearing keeps the buckets");
    }

    #[test]
    fn survives_the_generation_wrapping_round() {
        let mut map: NodeMap = NodeMap::default();
        map.insert(1, 1);
        map.generation = u32::MAX;
        map.insert(2, 2);
        map.clear();
        assert_eq!(map.get(1), None);
        assert_eq!(map.get(2), None);
        map.insert(1, 9);
        assert_eq!(map.get(1), Some(9));
    }

    #[test]
    fn wide_keys_differing_only_above_32_bits_are_apart() {
        let mut map: NodeMap<u64> = NodeMap::default();
        for key in 0..1000u64 {
            assert!(map.insert(key, 1));
            assert!(map.insert(key | 1 << 32, 2));
        }
        assert_eq!(map.get(999), Some(1));
        assert_eq!(map.get(999 | 1 << 32), Some(2));
        assert_eq!(map.get(1000 | 1 << 32), None);
        assert!(map.insert(u64::MAX - 1, 3));
        assert_eq!(
            (map.get(u64::MAX - 1), map.get(u64::from(u32::MAX) - 1)),
            (Some(3), None)
        );
    }
}
