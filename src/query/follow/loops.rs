//! Keeping a corridor a simple chain: merging the polygons a move walked through into its
//! start, and cutting out the loops a chain may make.

/// Whether a polygon comes twice in `path` (sorted in `scratch`, which is overwritten).
pub(super) fn has_repeats(path: &[u32], scratch: &mut Vec<u32>) -> bool {
    scratch.clear();
    scratch.extend_from_slice(path);
    scratch.sort_unstable();
    scratch.windows(2).any(|pair| pair[0] == pair[1])
}

/// Cuts the loops that start in the first `head` polygons out of `path`, a chain of
/// neighbouring polygons: where a polygon comes twice, what lies between its two visits
/// is dropped (the chain goes on from the later
/// visit, so it stays a chain of neighbours). Without this a corridor that goes round and
/// back into a polygon (a move that slid round a vertex and back, or a caller's chain)
/// could never be trimmed past the loop: the agent is in the polygon's first visit, and
/// its corners lead it round the loop and back for ever.
///
/// Costs `head` scans of the path: callers pass the part that may repeat (the polygons a
/// move walked off the corridor through; the rest of a corridor has no loop).
pub(super) fn cut_loops(path: &mut Vec<u32>, head: usize) {
    let mut i = 0;
    while i < head.min(path.len()) {
        if let Some(later) = path[i + 1..].iter().rposition(|&q| q == path[i]) {
            path.drain(i..=i + later);
        }
        i += 1;
    }
}

/// Replaces the start of `path` by `visited` (the polygons walked through from
/// `path[0]`): from the last visited polygon that is on the path, back along the way
/// walked. Returns how many polygons walked off the path now start it: 0 when the walk
/// ended on the path (or stayed in its first polygon); else the path starts with the
/// way back.
pub(super) fn merge_start(path: &mut Vec<u32>, visited: &[u32]) -> usize {
    // The furthest polygon walked through that is on the path, and where on the path.
    let found = visited
        .iter()
        .enumerate()
        .rev()
        .find_map(|(i, p)| path.iter().position(|q| q == p).map(|j| (i, j)));
    let Some((i, j)) = found else {
        // Cannot happen: the walk starts at path[0]. Keep the path as it is.
        return 0;
    };
    // New start: visited[last] .. visited[i + 1] (walked back), then path[j..].
    let walked_off = &visited[i + 1..];
    path.drain(..j);
    path.splice(0..0, walked_off.iter().rev().copied());
    walked_off.len()
}
