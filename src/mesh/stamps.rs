//! Per-polygon stamps of a tile: since which generation of its slot each local polygon
//! number names the polygon it names now, and where polygons moved to when their tile was
//! renumbered. They let a polygon reference ([`crate::PolyRef`]) made before an obstacle
//! was carved into the tile name the same polygon afterwards when the carve did not
//! change it, and be refused (stale) when it did: a number never silently names another
//! polygon.

/// The most renumberings a tile remembers; a reference that needs an older one is stale.
pub(crate) const MAX_MOVES: usize = 1024;

/// A polygon that kept its shape but got another number when its tile was carved again
/// (the tile shrank below its old number).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Moved {
    /// The generation of the slot from which it has its new number.
    pub generation: u32,
    /// Its local number before.
    pub from: u32,
    /// Its local number from `generation` on.
    pub to: u32,
    /// The generation since which `from` named it.
    pub born: u32,
}

/// The stamps of one tile (see the module's documentation).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct PolygonStamps {
    /// The generation of the slot from which the tile is there: references made before
    /// name another tile.
    pub since: u32,
    /// Per local polygon: the generation since which its number names it (never below
    /// `since`); empty when every polygon has its number since `since`.
    pub born: Vec<u32>,
    /// The renumberings, oldest first (at most [`MAX_MOVES`]).
    pub moves: Vec<Moved>,
}

impl PolygonStamps {
    /// Stamps of a tile whose polygons all have their numbers since `since`.
    pub fn new(since: u32) -> PolygonStamps {
        PolygonStamps {
            since,
            born: Vec::new(),
            moves: Vec::new(),
        }
    }

    /// The generation since which local polygon `local` has its number.
    pub fn born(&self, local: u32) -> u32 {
        self.born.get(local as usize).copied().unwrap_or(self.since)
    }

    /// The local number now (the tile's slot at generation `current`, with `count`
    /// polygons) of the polygon that was local `local` at generation `generation`, if it
    /// is still there unchanged; `None` when it is gone, was cut, or the reference is of
    /// another tile of the slot.
    pub fn resolve(&self, generation: u32, local: u32, current: u32, count: u32) -> Option<u32> {
        if generation < self.since || generation > current {
            return None;
        }
        let (mut generation, mut local) = (generation, local);
        // Each step moves to a strictly later generation: at most one per move.
        for _ in 0..=self.moves.len() {
            if local < count && self.born(local) <= generation {
                return Some(local);
            }
            // The polygon that held `local` at `generation` and moved since.
            let moved = self
                .moves
                .iter()
                .find(|m| m.from == local && m.born <= generation && generation < m.generation)?;
            (generation, local) = (moved.generation, moved.to);
        }
        None
    }

    /// Records the renumberings of one change, `moved`, dropping the oldest beyond
    /// [`MAX_MOVES`] (those of the change are all kept).
    pub fn record(&mut self, moved: Vec<Moved>) {
        let keep = MAX_MOVES.max(moved.len());
        self.moves.extend(moved);
        let excess = self.moves.len().saturating_sub(keep);
        self.moves.drain(..excess);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_tile_resolves_between_its_generation_and_now() {
        let stamps = PolygonStamps::new(3);
        assert_eq!(stamps.resolve(3, 1, 5, 2), Some(1));
        assert_eq!(stamps.resolve(5, 1, 5, 2), Some(1));
        assert_eq!(stamps.resolve(2, 1, 5, 2), None); // another tile
        assert_eq!(stamps.resolve(6, 1, 5, 2), None); // from a later snapshot
        assert_eq!(stamps.resolve(3, 2, 5, 2), None); // no such polygon
    }

    #[test]
    fn a_renumbered_polygon_is_refused_and_a_moved_one_followed() {
        // Generation 4: polygon 0 cut (its number now a piece's), polygon 3 moved to 1.
        let mut stamps = PolygonStamps::new(1);
        stamps.born = vec![4, 4, 1];
        stamps.record(vec![Moved {
            generation: 4,
            from: 3,
            to: 1,
            born: 1,
        }]);
        assert_eq!(stamps.resolve(2, 0, 4, 3), None);
        assert_eq!(stamps.resolve(4, 0, 4, 3), Some(0));
        assert_eq!(stamps.resolve(2, 2, 4, 3), Some(2));
        assert_eq!(stamps.resolve(2, 3, 4, 3), Some(1));
        // What polygon 1 was before generation 4 is gone.
        assert_eq!(stamps.resolve(3, 1, 4, 3), None);
        // Moved again at 6, from 1 to 0.
        stamps.born = vec![6, 6, 1];
        stamps.record(vec![Moved {
            generation: 6,
            from: 1,
            to: 0,
            born: 4,
        }]);
        assert_eq!(stamps.resolve(2, 3, 6, 3), Some(0));
        assert_eq!(stamps.resolve(5, 1, 6, 3), Some(0));
        assert_eq!(stamps.resolve(5, 0, 6, 3), None);
    }

    #[test]
    fn the_oldest_moves_are_forgotten() {
        let mut stamps = PolygonStamps::new(1);
        let moved = |g: u32| Moved {
            generation: g,
            from: 0,
            to: 0,
            born: g - 1,
        };
        for g in 2..MAX_MOVES as u32 + 12 {
            stamps.record(vec![moved(g)]);
        }
        assert_eq!(stamps.moves.len(), MAX_MOVES);
        assert_eq!(stamps.moves[0], moved(12));
        // One change's moves are kept whole.
        stamps.record((0..MAX_MOVES as u32 + 5).map(|_| moved(5000)).collect());
        assert_eq!(stamps.moves.len(), MAX_MOVES + 5);
    }
}
