//! The engine's transposition table: the solver's lock-free bucket storage
//! ([`crate::tt`], shared with the exact search's [`LockFreeTable`](crate::tt::LockFreeTable))
//! with entries for a heuristic search.
//!
//! An entry is two 64-bit words, `key ^ data` and `data` (Hyatt and Mann, "A lock-less
//! transposition table implementation for parallel search chess engines", ICGA Journal 25(1),
//! 2002): a reader recomputes the key from the two words, so an entry torn by two concurrent
//! writers, or one of another position, is a miss, and the full 64-bit key is checked. The
//! data word holds the value (score units, mate distances made relative to the node), the
//! depth it was searched to (plies), the bound type, whether the search under it was
//! **complete** (reached only finished games or exact database values, so the value is exact
//! at any depth), the best move as an index into the position's
//! [`legal_moves`](mancala_core::Game::legal_moves) list (deterministic for every game of the
//! core, so the table needs no knowledge of the move type), and the search generation that
//! stored it. Four entries make a 64-byte bucket; a store replaces the entry of the same key
//! (unless it would lose depth), else the entry worth least: one of an older search first,
//! then the shallowest (a complete entry counts as deepest).

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::Instant;

use crate::mem::OutOfMemory;
use crate::tt::{Buckets, WAYS};

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
    /// The position's 64-bit hash ([`crate::engine::Evaluate::hash_key`]).
    pub key: u64,
    /// The value, in score units, relative to the player to move.
    pub value: i32,
    /// Depth searched under this entry, in plies.
    pub depth: u8,
    /// The bound type of `value`.
    pub bound: Bound,
    /// Whether the search under this entry reached only finished games and positions valued
    /// exactly by the endgame database (exact at any depth).
    pub complete: bool,
    /// The best move's index in the position's legal move list.
    pub best: u8,
}

const OCCUPIED: u64 = 1 << 63;
const COMPLETE: u64 = 1 << 42;

/// Entries of the smallest table (16 KiB).
pub const MIN_SLOTS: usize = 1 << 10;

/// The table: a power of two of 64-byte buckets of four 16-byte entries, indexed by the high
/// bits of the key. Stores take `&self`: the table may be shared by threads.
pub struct Table {
    buckets: Buckets<2>,
    /// The words of `buckets` whose pages [`Table::touch`] has touched (a prefix).
    touched: usize,
    /// log2 of the bucket count asked for (`buckets` holds no bucket until
    /// [`Table::allocate`]).
    bits: u32,
    generation: AtomicU32,
}

impl Table {
    /// A table of at most `bytes` bytes (rounded down to a power of two of 64-byte buckets,
    /// at least [`MIN_SLOTS`] entries). The memory is taken by [`Table::allocate`] (the
    /// engine does it at its first search, where a failure is an error, not an abort); until
    /// then the table remembers nothing.
    #[must_use]
    pub fn new(bytes: usize) -> Table {
        Table {
            buckets: Buckets::none(),
            touched: 0,
            bits: Buckets::<2>::bits_for(bytes).max(MIN_BUCKET_BITS),
            generation: AtomicU32::new(0),
        }
    }

    /// Takes the table's memory if it has not got it yet: fresh zero pages of the system,
    /// each taken at its first touch ([`Table::touch`], or a search's store).
    ///
    /// # Errors
    /// [`OutOfMemory`] when neither an anonymous map nor the heap has room (the table then
    /// stays without memory and remembers nothing; a later call tries again).
    pub fn allocate(&mut self) -> Result<(), OutOfMemory> {
        if !self.allocated() {
            self.buckets = Buckets::new(self.bits)?;
            self.touched = 0;
        }
        Ok(())
    }

    /// Touches the pages of the allocated table not touched yet, a mebibyte at a time, until
    /// every page is touched, the clock reaches `until` or `cancel` is set (looked at before
    /// each mebibyte), so that the kernel's first-touch work (zeroing, a huge page's
    /// compaction) is done before a search rather than during it, within the share of its
    /// budget the caller gives. The pages it stops before are asked for as ordinary 4 KiB
    /// pages, not huge ones: a search that stores into them then pays microseconds a first
    /// touch, not the zeroing (or compaction) of a 2 MiB page, which over the 1024 nodes
    /// between two looks at the clock overran a 100 ms budget by up to 0.8 s with a 4 GiB
    /// table. A later call goes on where this one stopped. Returns whether every page is
    /// touched.
    pub fn touch(&mut self, until: Option<Instant>, cancel: Option<&AtomicBool>) -> bool {
        let stop = || {
            until.is_some_and(|t| Instant::now() >= t)
                || cancel.is_some_and(|c| c.load(Ordering::Relaxed))
        };
        self.touched = self.buckets.touch(self.touched, stop);
        let all = self.touched == self.buckets.bytes() / 8;
        if !all {
            self.buckets.small_pages_from(self.touched);
        }
        all
    }

    /// Whether the table has its memory (a table has at least one bucket once allocated).
    #[inline(always)]
    fn allocated(&self) -> bool {
        self.buckets.bytes() != 0
    }

    /// Number of entries (once allocated).
    #[cfg(test)]
    fn len(&self) -> usize {
        WAYS << self.bits
    }

    /// Size in bytes (once allocated).
    #[must_use]
    pub fn bytes(&self) -> usize {
        Buckets::<2>::BUCKET_BYTES << self.bits
    }

    /// Empties every entry (gives the memory back; the next [`Table::allocate`] takes fresh
    /// zero pages).
    pub fn clear(&mut self) {
        self.buckets = Buckets::none();
        self.touched = 0;
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: entries stored from now on are preferred over older ones when a
    /// bucket is full.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> usize {
        let bits = self.buckets.bucket_bits();
        if bits == 0 {
            0
        } else {
            (key >> (64 - bits)) as usize
        }
    }

    /// The entry stored for `key`, if any.
    #[inline]
    #[must_use]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        // A table without memory has no bucket: the buckets' probe finds nothing.
        self.buckets
            .probe(self.bucket(key), |[x, d]| d != 0 && x ^ d == key)
            .map(|[_, d]| unpack(key, d))
    }

    /// Stores `e`. An entry of the same key is replaced, except a deeper (or complete) one by
    /// a shallower incomplete one; otherwise the bucket's entry worth least goes (an empty
    /// one, then one of an older search, then the shallowest).
    #[inline]
    pub fn store(&self, e: Entry) {
        let generation = u64::from(self.generation.load(Ordering::Relaxed) as u8);
        let key = e.key;
        let Some((slot, old)) = self.buckets.slot_for(
            self.bucket(key),
            |[x, d]| d != 0 && x ^ d == key,
            |[_, d]| {
                if d == 0 {
                    return 0;
                }
                let depth = if d & COMPLETE != 0 {
                    255
                } else {
                    (d >> 32) & 0xFF
                };
                let fresh = if (d >> 51) & 0xFF == generation {
                    256
                } else {
                    0
                };
                1 + depth + fresh
            },
        ) else {
            // A table without memory has no bucket: nothing is stored.
            return;
        };
        if let Some([_, d]) = old {
            let old = unpack(key, d);
            if !e.complete && (old.complete || old.depth > e.depth) {
                return;
            }
        }
        let bound = match e.bound {
            Bound::Exact => 0,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        let d = OCCUPIED
            | u64::from(e.value as u32)
            | u64::from(e.depth) << 32
            | bound << 40
            | if e.complete { COMPLETE } else { 0 }
            | u64::from(e.best) << 43
            | generation << 51;
        slot[0].store(key ^ d, Ordering::Relaxed);
        slot[1].store(d, Ordering::Relaxed);
    }
}

const MIN_BUCKET_BITS: u32 = (MIN_SLOTS / WAYS).trailing_zeros();

#[inline]
fn unpack(key: u64, d: u64) -> Entry {
    let bound = match (d >> 40) & 3 {
        0 => Bound::Exact,
        1 => Bound::Lower,
        _ => Bound::Upper,
    };
    Entry {
        key,
        value: d as u32 as i32,
        depth: (d >> 32) as u8,
        bound,
        complete: d & COMPLETE != 0,
        best: (d >> 43) as u8,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first touches stop at the deadline or the cancel flag, before the next mebibyte,
    /// and a later call goes on where the last one stopped; entries stored meanwhile stay.
    #[test]
    fn the_first_touches_stop_at_the_deadline_or_the_cancel_flag() {
        let mut t = Table::new(4 << 20);
        t.allocate().unwrap();
        let e = Entry {
            key: 0x1234_5678_9abc_def1,
            value: -7,
            depth: 3,
            bound: Bound::Lower,
            complete: false,
            best: 2,
        };
        t.store(e);
        let set = AtomicBool::new(true);
        assert!(!t.touch(None, Some(&set)));
        assert_eq!(t.touched, 0);
        assert!(!t.touch(Some(Instant::now()), None));
        assert_eq!(t.touched, 0);
        // Stopped after its first mebibyte by the flag it sets itself.
        let mut calls = 0;
        t.touched = t.buckets.touch(0, || {
            calls += 1;
            calls > 1
        });
        assert_eq!(t.touched * 8, 1 << 20);
        assert!(t.touch(None, Some(&AtomicBool::new(false))));
        assert_eq!(t.touched * 8, t.bytes());
        assert!(t.touch(None, None));
        assert_eq!(t.probe(e.key), Some(e));
        t.clear();
        assert_eq!(t.touched, 0);
    }

    #[test]
    fn sizes_round_down_to_a_power_of_two() {
        assert_eq!(Table::new(0).bytes(), 16 * MIN_SLOTS);
        assert_eq!(Table::new(0).len(), MIN_SLOTS);
        assert_eq!(Table::new(1 << 20).len(), 1 << 16);
        assert_eq!(Table::new(3 << 20).len(), 1 << 17);
    }

    #[test]
    fn store_probe_and_replacement() {
        let mut t = Table::new(0);
        t.allocate().unwrap();
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
        t.allocate().unwrap();
        assert_eq!(t.probe(12345), None);
    }

    fn entry(key: u64, depth: u8) -> Entry {
        Entry {
            key,
            value: i32::from(depth) * -1000,
            depth,
            bound: Bound::Exact,
            complete: false,
            best: depth,
        }
    }

    #[test]
    fn full_bucket_keeps_the_deepest_and_the_newest() {
        // Keys whose high bits are equal share a bucket of four.
        let mut t = Table::new(0);
        t.allocate().unwrap();
        let keys: Vec<u64> = (1..=5u64).collect();
        for (i, &k) in keys[..4].iter().enumerate() {
            t.store(entry(k, 10 + i as u8));
        }
        // A fifth key evicts the shallowest (depth 10).
        t.store(entry(keys[4], 3));
        assert_eq!(t.probe(keys[0]), None);
        for (i, &k) in keys[1..].iter().enumerate() {
            let d = if i == 3 { 3 } else { 11 + i as u8 };
            assert_eq!(t.probe(k), Some(entry(k, d)));
        }
        // After a new search, an entry of the old one goes before a fresh shallow one.
        t.new_search();
        t.store(entry(100, 1));
        t.store(entry(101, 1));
        assert_eq!(t.probe(100), Some(entry(100, 1)));
        assert_eq!(t.probe(101), Some(entry(101, 1)));
        assert_eq!(t.probe(keys[4]), None, "old depth 3 evicted first");
    }

    #[test]
    fn shared_between_threads() {
        // Writers racing on one bucket: every hit is an entry stored for its key.
        let mut t = Table::new(0);
        t.allocate().unwrap();
        std::thread::scope(|s| {
            for w in 0..2u64 {
                let t = &t;
                s.spawn(move || {
                    // Fewer under Miri, which runs each store thousands of times slower.
                    let n = if cfg!(miri) { 500 } else { 20_000u64 };
                    for i in 0..n {
                        let k = (i % 64) * 2 + w;
                        t.store(entry(k, (k % 200) as u8));
                    }
                });
            }
        });
        for k in 0..128u64 {
            if let Some(e) = t.probe(k) {
                assert_eq!(e, entry(k, (k % 200) as u8));
            }
        }
    }
}
