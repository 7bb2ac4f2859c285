//! A small fixed-size transposition table (one always-replace slot per index), after the lossy
//! table of Pons' Connect 4 solver (`DESIGN.md`, conventions).
//!
//! An entry is 16 bytes: the full 64-bit key, the value (score units, mate distances made
//! relative to the node), the depth it was searched to (plies), the bound type, whether the
//! search under it was **complete** (reached only finished games, so the value is exact at
//! any depth), and the best move as an index into the position's
//! [`legal_moves`](mancala_core::Game::legal_moves) list (deterministic for every game of the
//! core), so the table needs no knowledge of the move type.

/// What an entry's value says about the true value of its position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The value is the searched value.
    Exact,
    /// The true value is at least the stored one (the search failed high).
    Lower,
    /// The true value is at most the stored one (the search failed low).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The position's 64-bit hash ([`crate::Evaluate::hash_key`]).
    pub key: u64,
    /// The value, in score units, relative to the player to move.
    pub value: i32,
    /// Depth searched under this entry, in plies.
    pub depth: u8,
    /// The bound type of `value`.
    pub bound: Bound,
    /// Whether the search under this entry reached only finished games (exact at any depth).
    pub complete: bool,
    /// The best move's index in the position's legal move list.
    pub best: u8,
}

const OCCUPIED: u8 = 1 << 7;
const COMPLETE: u8 = 1 << 6;

#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    value: i32,
    depth: u8,
    flags: u8,
    best: u8,
}

/// The table: a power-of-two number of 16-byte slots, indexed by the low bits of the key.
pub struct Table {
    slots: Vec<Slot>,
    mask: usize,
}

/// Smallest table, in slots (16 KiB).
pub const MIN_SLOTS: usize = 1 << 10;

impl Table {
    /// A table of at most `bytes` bytes (rounded down to a power of two of 16-byte slots, at
    /// least [`MIN_SLOTS`] slots).
    #[must_use]
    pub fn new(bytes: usize) -> Table {
        let wanted = (bytes / core::mem::size_of::<Slot>()).max(MIN_SLOTS);
        let n = if wanted.is_power_of_two() {
            wanted
        } else {
            wanted.next_power_of_two() >> 1
        };
        Table {
            slots: vec![Slot::default(); n],
            mask: n - 1,
        }
    }

    /// Number of slots.
    #[must_use]
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Always `false`: a table has at least [`MIN_SLOTS`] slots.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Size in bytes.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.slots.len() * core::mem::size_of::<Slot>()
    }

    /// Empties every slot.
    pub fn clear(&mut self) {
        self.slots.fill(Slot::default());
    }

    /// The entry stored for `key`, if its slot holds that key.
    #[inline]
    #[must_use]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let s = self.slots[key as usize & self.mask];
        if s.flags & OCCUPIED == 0 || s.key != key {
            return None;
        }
        let bound = match s.flags & 3 {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Entry {
            key,
            value: s.value,
            depth: s.depth,
            bound,
            complete: s.flags & COMPLETE != 0,
            best: s.best,
        })
    }

    /// Stores `e`, replacing whatever the slot held, except a deeper (or complete) entry of
    /// the same key, which a shallower incomplete one does not overwrite.
    #[inline]
    pub fn store(&mut self, e: Entry) {
        let slot = &mut self.slots[e.key as usize & self.mask];
        if slot.flags & OCCUPIED != 0
            && slot.key == e.key
            && !e.complete
            && (slot.flags & COMPLETE != 0 || slot.depth > e.depth)
        {
            return;
        }
        let bound = match e.bound {
            Bound::Exact => 0,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        *slot = Slot {
            key: e.key,
            value: e.value,
            depth: e.depth,
            flags: OCCUPIED | bound | if e.complete { COMPLETE } else { 0 },
            best: e.best,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_round_down_to_a_power_of_two() {
        assert_eq!(core::mem::size_of::<Slot>(), 16);
        assert_eq!(Table::new(0).len(), MIN_SLOTS);
        assert_eq!(Table::new(1 << 20).len(), 1 << 16);
        assert_eq!(Table::new(3 << 20).len(), 1 << 17);
    }

    #[test]
    fn store_probe_and_replacement() {
        let mut t = Table::new(0);
        let e = Entry {
            key: 12345,
            value: -7,
            depth: 5,
            bound: Bound::Lower,
            complete: false,
            best: 3,
        };
        assert_eq!(t.probe(12345), None);
        t.store(e);
        assert_eq!(t.probe(12345), Some(e));
        // Another key in the same slot is not mistaken for it.
        assert_eq!(t.probe(12345 + MIN_SLOTS as u64), None);
        // A shallower result for the same key does not replace a deeper one.
        t.store(Entry { depth: 2, ..e });
        assert_eq!(t.probe(12345).unwrap().depth, 5);
        // A complete one does.
        let c = Entry {
            depth: 1,
            complete: true,
            bound: Bound::Exact,
            ..e
        };
        t.store(c);
        assert_eq!(t.probe(12345), Some(c));
        t.clear();
        assert_eq!(t.probe(12345), None);
    }
}
