//! Transposition tables: a fixed-size lock-free table sized in bytes, and an exact
//! DashMap-backed table without eviction.
//!
//! The lock-free storage (`Buckets`: zeroed huge-page memory, buckets of four entries of one
//! or more `AtomicU64` words, probe, replacement of the entry worth least, prefetch) is one
//! implementation under two entry formats: the exact search's [`LockFreeTable`] below (one
//! word: rank tag and proven bounds) and the playing engine's
//! table (`engine/tt.rs`, two words: 64-bit hash key and a
//! heuristic search's depth, bound, score and move).
//!
//! Both are keyed on the *rank* of the houses seen from the side to move (see the ranking in
//! the crate docs): the stores and the side's name do not enter the key, because a value is a
//! future store difference for the side to move and the rules are symmetric between the sides
//! once the opening (pie rule, first move) is over. An entry holds a proven interval
//! `[lower, upper]` for the value, the best move found and a measure of the work spent.
//!
//! # Lock-free table: exact keys without locks
//!
//! Each entry is one `AtomicU64`, so a reader never sees half of one writer's entry and half
//! of another's (no torn reads, unlike the two-word XOR trick). The key space holds
//! `C(k+2m, 2m) < 2^B` ranks; a bijection of `[0, 2^B)` (multiply by an odd constant modulo
//! 2^B, xor-shift, multiply again) scrambles the rank, its high bits choose a bucket of four
//! entries and its low `B − bucket_bits` bits are stored in the entry as the tag. Bucket and
//! tag together give back the rank, so a hit is never a different position: the table is lossy
//! (entries get replaced) but never wrong. The table grows past the requested size when a key
//! space is too large for the 37 tag bits (for example Kalah(7,7) from the start needs at least
//! 2^20 buckets, 32 MiB).
//!
//! Entry bits: `lower + 256` (9), `upper + 256` (9), best move (4; 15 = none), work
//! (5; ⌊log2 nodes⌋ of the search that proved it, for replacement), tag (37). An empty slot
//! is 0, which no entry can be because `lower + 256 ≥ 1`.

use std::sync::atomic::{AtomicU64, Ordering};

use dashmap::DashMap;

use crate::mem::{OutOfMemory, ZeroedBuf};

/// "No best move" in [`Bounds::best`].
pub const NO_MOVE: u8 = 15;

/// What a table knows about one position: the value lies in `lower..=upper` (seeds, for the
/// side to move), `best` is the mover's best house found (0-based, or [`NO_MOVE`]) and `work`
/// is ⌊log2⌋ of the nodes spent proving it (0..=31).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// Proven lower bound of the value, seeds (−255..=255).
    pub lower: i32,
    /// Proven upper bound of the value, seeds (−255..=255).
    pub upper: i32,
    /// Best house found, 0-based, or [`NO_MOVE`].
    pub best: u8,
    /// ⌊log2⌋ of the nodes that proved these bounds, capped at 31.
    pub work: u8,
}

impl Bounds {
    #[inline(always)]
    fn pack(self) -> u64 {
        let lo = (self.lower.clamp(-255, 255) + 256) as u64;
        let hi = (self.upper.clamp(-255, 255) + 256) as u64;
        lo | (hi << 9) | (u64::from(self.best & 15) << 18) | (u64::from(self.work.min(31)) << 22)
    }

    #[inline(always)]
    fn unpack(v: u64) -> Bounds {
        Bounds {
            lower: (v & 511) as i32 - 256,
            upper: ((v >> 9) & 511) as i32 - 256,
            best: ((v >> 18) & 15) as u8,
            work: ((v >> 22) & 31) as u8,
        }
    }

    /// The intersection of two proven intervals (both hold, so their intersection does); the
    /// best move and work of the more expensive proof.
    #[inline(always)]
    #[must_use]
    pub fn merge(self, other: Bounds) -> Bounds {
        let (main, aux) = if other.work >= self.work {
            (other, self)
        } else {
            (self, other)
        };
        Bounds {
            lower: self.lower.max(other.lower),
            upper: self.upper.min(other.upper),
            best: if main.best != NO_MOVE {
                main.best
            } else {
                aux.best
            },
            work: main.work,
        }
    }
}

/// A transposition table shared by the search threads. Keys are position ranks below
/// 2^[`TranspositionTable::key_bits`]; implementations must never return bounds stored for
/// another key.
pub trait TranspositionTable: Sync + Send {
    /// The bounds stored for `key`, if any.
    fn probe(&self, key: u64) -> Option<Bounds>;
    /// Hints that `key` will be probed soon (a cache prefetch; no effect on results).
    #[inline(always)]
    fn prefetch(&self, _key: u64) {}
    /// Records proven `bounds` for `key` (merged with what is there for the same key).
    fn store(&self, key: u64, bounds: Bounds);
    /// Where `key` lives in the table, as a number that [`TranspositionTable::prefetch_at`],
    /// [`TranspositionTable::probe_at`] and [`TranspositionTable::store_at`] take, so that a
    /// caller that looks a key up several times works out its place once. 0 only for the
    /// key 0. The default is the key itself, with the `*_at` methods the keyed ones; a table
    /// that overrides one of the four must override all of them.
    #[inline(always)]
    fn locate(&self, key: u64) -> u64 {
        key
    }
    /// [`TranspositionTable::prefetch`] of the key at `place` ([`TranspositionTable::locate`]).
    #[inline(always)]
    fn prefetch_at(&self, place: u64) {
        self.prefetch(place);
    }
    /// [`TranspositionTable::probe`] of the key at `place` ([`TranspositionTable::locate`]).
    #[inline(always)]
    fn probe_at(&self, place: u64) -> Option<Bounds> {
        self.probe(place)
    }
    /// [`TranspositionTable::store`] for the key at `place` ([`TranspositionTable::locate`]).
    #[inline(always)]
    fn store_at(&self, place: u64, bounds: Bounds) {
        self.store(place, bounds);
    }
    /// Forgets everything and prepares for keys below 2^`key_bits`.
    ///
    /// # Errors
    /// [`OutOfMemory`] when the table's memory cannot be had again (the table is then
    /// empty, of one bucket or none, and still safe to use).
    fn reset(&mut self, key_bits: u32) -> Result<(), OutOfMemory>;
    /// The key width the table is prepared for, bits.
    fn key_bits(&self) -> u32;
    /// Memory used, bytes.
    fn bytes(&self) -> usize;
}

const TAG_BITS: u32 = 37;

/// Entries a bucket (both tables).
pub(crate) const WAYS: usize = 4;

/// The storage shared by the solver's [`LockFreeTable`] and the engine's table
/// ([`crate::engine::tt::Table`]): a power of two of buckets of [`WAYS`] entries of `W`
/// `AtomicU64` words each, in zeroed anonymous (huge-page) memory ([`crate::mem::ZeroedBuf`]),
/// with probe, replacement and prefetch. The entry format is the caller's: it says through
/// closures which entry holds its key (`hit`) and how much an entry is worth keeping
/// (`worth`, 0 for an empty one); a store replaces the same key's entry, else the entry
/// worth least. Every word is read and written with relaxed atomics, so a table can be shared
/// by threads without locks; an entry of several words must detect torn reads itself (the
/// engine's table does, by the xor of key and data).
pub(crate) struct Buckets<const W: usize> {
    slots: ZeroedBuf<AtomicU64>,
    bucket_bits: u32,
}

impl<const W: usize> Buckets<W> {
    /// Bytes a bucket.
    pub(crate) const BUCKET_BYTES: usize = WAYS * W * 8;

    /// The largest `b` ≤ 40 with 2^`b` buckets in at most `bytes` bytes (0 when even one
    /// bucket is more).
    pub(crate) fn bits_for(bytes: usize) -> u32 {
        let mut bits = 0u32;
        while (Self::BUCKET_BYTES << (bits + 1)) <= bytes && bits < 40 {
            bits += 1;
        }
        bits
    }

    /// 2^`bucket_bits` empty buckets, or [`OutOfMemory`].
    pub(crate) fn new(bucket_bits: u32) -> Result<Buckets<W>, OutOfMemory> {
        let len = 1usize
            .checked_shl(bucket_bits)
            .and_then(|b| b.checked_mul(WAYS * W))
            .ok_or(OutOfMemory::failed(usize::MAX))?;
        Ok(Buckets {
            slots: ZeroedBuf::new(len)?,
            bucket_bits,
        })
    }

    /// Touches the pages of the table from word `from` on (stores 0 into the first word of
    /// each 4 KiB, which a fresh table already holds), so that the first-touch cost of its
    /// memory (the kernel's zeroing, a huge page's compaction) is paid before a search rather
    /// than during it, one mebibyte at a time until `stop` says so (asked before each
    /// mebibyte). Returns the word where it stopped (the table's length when every page is
    /// touched), the `from` of the next call. Measured on the project's 2-core VM with a
    /// 225 MB database loaded: the first touches of a 16 MiB engine table took 50–100 ms of a
    /// 200 ms move budget (BENCHMARKS.md).
    pub(crate) fn touch(&self, from: usize, mut stop: impl FnMut() -> bool) -> usize {
        const WORDS_A_PAGE: usize = 4096 / std::mem::size_of::<AtomicU64>();
        const WORDS_A_MEBIBYTE: usize = 256 * WORDS_A_PAGE;
        let slots = self.slots.as_slice();
        let mut at = from.min(slots.len());
        while at < slots.len() {
            if stop() {
                return at;
            }
            let end = (at + WORDS_A_MEBIBYTE).min(slots.len());
            for w in slots[at..end].iter().step_by(WORDS_A_PAGE) {
                w.store(0, Ordering::Relaxed);
            }
            at = end;
        }
        at
    }

    /// Ordinary pages for the words from `from` on, not yet touched ([`ZeroedBuf`]'s
    /// `small_pages_from`): their first touches during a search then cost microseconds each.
    pub(crate) fn small_pages_from(&self, from: usize) {
        self.slots
            .small_pages_from(from.saturating_mul(std::mem::size_of::<AtomicU64>()));
    }

    /// An empty table of no bucket (a placeholder before the first [`Buckets::new`]).
    pub(crate) fn none() -> Buckets<W> {
        Buckets {
            slots: ZeroedBuf::empty(),
            bucket_bits: 0,
        }
    }

    /// log2 of the number of buckets.
    #[inline(always)]
    pub(crate) fn bucket_bits(&self) -> u32 {
        self.bucket_bits
    }

    /// Memory used, bytes.
    pub(crate) fn bytes(&self) -> usize {
        self.slots.as_slice().len() * 8
    }

    /// The words of `bucket`, or `None` when the table has no such bucket (a table of no
    /// memory, [`Buckets::none`]): the slice's own bounds check, so that a caller needs no
    /// test of its own for a table without memory.
    #[inline(always)]
    fn bucket(&self, bucket: usize) -> Option<&[AtomicU64]> {
        let base = bucket.wrapping_mul(WAYS * W);
        self.slots.as_slice().get(base..base.wrapping_add(WAYS * W))
    }

    #[inline(always)]
    fn load(entry: &[AtomicU64]) -> [u64; W] {
        core::array::from_fn(|j| entry[j].load(Ordering::Relaxed))
    }

    /// Hints the cache that `bucket` will be read soon (no effect on results; any bucket
    /// may be named, in the table or not, as a prefetch never faults).
    #[inline(always)]
    pub(crate) fn prefetch(&self, bucket: usize) {
        let words = self.slots.as_slice().as_ptr();
        crate::mem::prefetch_ptr(words.wrapping_add(bucket.wrapping_mul(WAYS * W)).cast());
    }

    /// The words of the first entry of `bucket` for which `hit` holds (`None` also when the
    /// table has no such bucket).
    #[inline(always)]
    pub(crate) fn probe(&self, bucket: usize, hit: impl Fn([u64; W]) -> bool) -> Option<[u64; W]> {
        for entry in self.bucket(bucket)?.chunks_exact(W) {
            let v = Self::load(entry);
            if hit(v) {
                return Some(v);
            }
        }
        None
    }

    /// Where to store an entry in `bucket`: the words of the entry for which `hit` holds,
    /// with its current content, or else the entry of least `worth` (the first of equal
    /// ones) and `None`. The caller writes the new entry's words. `None` when the table has
    /// no such bucket (nothing to store into).
    #[inline(always)]
    pub(crate) fn slot_for(
        &self,
        bucket: usize,
        hit: impl Fn([u64; W]) -> bool,
        worth: impl Fn([u64; W]) -> u64,
    ) -> Option<(&[AtomicU64], Option<[u64; W]>)> {
        let b = self.bucket(bucket)?;
        let mut victim = 0;
        let mut least = u64::MAX;
        for (i, entry) in b.chunks_exact(W).enumerate() {
            let v = Self::load(entry);
            if hit(v) {
                return Some((entry, Some(v)));
            }
            let w = worth(v);
            if w < least {
                least = w;
                victim = i;
            }
        }
        Some((&b[victim * W..victim * W + W], None))
    }
}

/// The fixed-size lock-free table (module docs): buckets of four `AtomicU64` entries
/// (`Buckets`, module docs), replacement of the entry with the least work.
pub struct LockFreeTable {
    buckets: Buckets<1>,
    requested_bytes: usize,
    key_bits: u32,
    /// The scrambling's constants for `key_bits` ([`Scramble`]), set with it.
    scramble: Scramble,
}

/// The constants of [`LockFreeTable::scramble`] for one key width and bucket count, computed
/// once when the table is (re)built rather than at every probe.
#[derive(Clone, Copy, Debug, Default)]
struct Scramble {
    /// `2^key_bits − 1`.
    mask: u64,
    /// The xor-shift's distance, `⌈key_bits / 2⌉` (at least 1).
    fold: u32,
    /// Bits of the tag, `key_bits − bucket_bits`.
    tag_bits: u32,
}

impl Scramble {
    fn new(key_bits: u32, bucket_bits: u32) -> Scramble {
        Scramble {
            mask: if key_bits >= 64 {
                u64::MAX
            } else {
                (1u64 << key_bits) - 1
            },
            fold: key_bits.div_ceil(2).max(1),
            tag_bits: key_bits - bucket_bits,
        }
    }
}

impl LockFreeTable {
    /// A table of about `bytes` bytes (rounded down to a power of two of 32-byte buckets, at
    /// least one bucket), prepared for keys below 2^`key_bits`: grown when the key space needs
    /// more buckets than that (see the module docs), and capped at one bucket a key
    /// (2^`key_bits` buckets) and at 2^40 buckets, so a huge `bytes` takes only what the keys
    /// can use.
    ///
    /// # Errors
    /// [`OutOfMemory`] when neither an anonymous map nor the heap has room for it.
    pub fn new(bytes: usize, key_bits: u32) -> Result<LockFreeTable, OutOfMemory> {
        let mut t = LockFreeTable {
            buckets: Buckets::none(),
            requested_bytes: bytes,
            key_bits: 0,
            scramble: Scramble::default(),
        };
        t.reset(key_bits)?;
        Ok(t)
    }

    /// The size asked for at [`LockFreeTable::new`], bytes (the table itself may be smaller,
    /// rounded down to a power of two of buckets, or larger, when the key space needs it:
    /// [`TranspositionTable::bytes`]).
    #[must_use]
    pub fn requested_bytes(&self) -> usize {
        self.requested_bytes
    }

    /// The scrambled key: a bijection of `[0, 2^key_bits)` that keeps 0 at 0.
    #[inline(always)]
    fn scramble(&self, key: u64) -> u64 {
        let Scramble { mask, fold, .. } = self.scramble;
        let mut x = key.wrapping_mul(0x9E37_79B9_7F4A_7C15) & mask;
        x ^= x >> fold;
        x.wrapping_mul(0xD6E8_FEB8_6659_FD93) & mask
    }

    /// The bucket and the tag of the scrambled key `x` ([`LockFreeTable::scramble`]).
    #[inline(always)]
    fn split(&self, x: u64) -> (usize, u64) {
        let tag_bits = self.scramble.tag_bits;
        // `x < 2^key_bits` and `tag_bits ≤ key_bits ≤ 62`: with no bucket bits the shift
        // gives bucket 0.
        let bucket = (x >> tag_bits) as usize;
        let tag = x & ((1u64 << tag_bits) - 1);
        (bucket, tag)
    }
}

impl TranspositionTable for LockFreeTable {
    #[inline(always)]
    fn prefetch(&self, key: u64) {
        self.prefetch_at(self.scramble(key));
    }

    #[inline]
    fn probe(&self, key: u64) -> Option<Bounds> {
        self.probe_at(self.scramble(key))
    }

    #[inline]
    fn store(&self, key: u64, bounds: Bounds) {
        self.store_at(self.scramble(key), bounds);
    }

    /// The scrambled key (module docs): its high bits are the bucket, its low bits the tag.
    #[inline(always)]
    fn locate(&self, key: u64) -> u64 {
        self.scramble(key)
    }

    // A table of no memory (a failed reset, key_bits 0) has no bucket: its probes find
    // nothing and its stores store nothing (`Buckets::bucket`'s bounds check), whatever
    // bucket the place names.

    #[inline(always)]
    fn prefetch_at(&self, place: u64) {
        let (bucket, _) = self.split(place);
        self.buckets.prefetch(bucket);
    }

    #[inline]
    fn probe_at(&self, place: u64) -> Option<Bounds> {
        let (bucket, tag) = self.split(place);
        self.buckets
            .probe(bucket, |[v]| v != 0 && v >> 27 == tag)
            .map(|[v]| Bounds::unpack(v))
    }

    #[inline(always)]
    fn store_at(&self, place: u64, bounds: Bounds) {
        let (bucket, tag) = self.split(place);
        let Some((slot, old)) = self.buckets.slot_for(
            bucket,
            |[v]| v != 0 && v >> 27 == tag,
            |[v]| if v == 0 { 0 } else { ((v >> 22) & 31) + 1 },
        ) else {
            return;
        };
        let bounds = match old {
            Some([v]) => Bounds::unpack(v).merge(bounds),
            None => bounds,
        };
        slot[0].store(bounds.pack() | (tag << 27), Ordering::Relaxed);
    }

    fn reset(&mut self, key_bits: u32) -> Result<(), OutOfMemory> {
        let key_bits = key_bits.clamp(1, 62);
        let mut bucket_bits = Buckets::<1>::bits_for(self.requested_bytes);
        // Enough buckets for the tag to fit, and never more buckets than keys.
        bucket_bits = bucket_bits.max(key_bits.saturating_sub(TAG_BITS));
        bucket_bits = bucket_bits.min(key_bits);
        // A fresh anonymous map: zero pages until touched, huge pages where offered.
        self.buckets = Buckets::none();
        // A failed reset leaves no bucket and key_bits 0: `probe` and `store` then find no
        // bucket at any place and remember nothing (never a wrong answer, never an
        // out-of-bounds index).
        match Buckets::new(bucket_bits) {
            Ok(b) => {
                self.buckets = b;
                self.key_bits = key_bits;
                self.scramble = Scramble::new(key_bits, bucket_bits);
                Ok(())
            }
            Err(e) => {
                self.key_bits = 0;
                Err(e)
            }
        }
    }

    fn key_bits(&self) -> u32 {
        self.key_bits
    }

    fn bytes(&self) -> usize {
        self.buckets.bytes()
    }
}

/// The exact table: a `DashMap` from rank to bounds that never evicts (memory grows with the
/// positions searched). Offered for small proofs and as the reference the benches compare the
/// lock-free table with.
pub struct ExactTable {
    map: DashMap<u64, u32>,
    key_bits: u32,
}

impl ExactTable {
    /// An empty table.
    #[must_use]
    pub fn new() -> ExactTable {
        ExactTable {
            map: DashMap::new(),
            key_bits: 62,
        }
    }

    /// Entries stored.
    #[must_use]
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether no entry is stored.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

impl Default for ExactTable {
    fn default() -> Self {
        ExactTable::new()
    }
}

impl TranspositionTable for ExactTable {
    fn probe(&self, key: u64) -> Option<Bounds> {
        self.map.get(&key).map(|v| Bounds::unpack(u64::from(*v)))
    }

    fn store(&self, key: u64, bounds: Bounds) {
        self.map
            .entry(key)
            .and_modify(|v| *v = Bounds::unpack(u64::from(*v)).merge(bounds).pack() as u32)
            .or_insert(bounds.pack() as u32);
    }

    fn reset(&mut self, key_bits: u32) -> Result<(), OutOfMemory> {
        self.map.clear();
        self.key_bits = key_bits;
        Ok(())
    }

    fn key_bits(&self) -> u32 {
        self.key_bits
    }

    fn bytes(&self) -> usize {
        // Key, value and DashMap's per-entry overhead, an estimate.
        self.map.len() * 24
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lock_free_never_confuses_keys() {
        // A tiny table over a 12-bit key space: every key keeps its own bounds or none.
        let t = LockFreeTable::new(64, 12).unwrap();
        for key in 0..4096u64 {
            let v = (key % 200) as i32 - 100;
            t.store(
                key,
                Bounds {
                    lower: v,
                    upper: v,
                    best: (key % 7) as u8,
                    work: (key % 31) as u8,
                },
            );
        }
        for key in 0..4096u64 {
            if let Some(b) = t.probe(key) {
                assert_eq!(b.lower, (key % 200) as i32 - 100);
                assert_eq!(b.best, (key % 7) as u8);
            }
        }
    }

    #[test]
    fn a_table_without_memory_remembers_nothing() {
        // The state a failed reset leaves (no bucket, key_bits 0) under the scrambling of a
        // table of 2^14 buckets, so that the places name buckets the table does not have:
        // every store is dropped, every probe finds nothing, nothing indexes out of bounds.
        let mut t = LockFreeTable::new(1 << 19, 20).unwrap();
        t.buckets = Buckets::none();
        t.key_bits = 0;
        let exact = Bounds {
            lower: 3,
            upper: 3,
            best: 1,
            work: 5,
        };
        for key in (1..1u64 << 20).step_by(997) {
            let place = t.locate(key);
            t.prefetch_at(place);
            t.store_at(place, exact);
            assert_eq!(t.probe_at(place), None, "key {key}");
            t.store(key, exact);
            assert_eq!(t.probe(key), None, "key {key}");
        }
        assert_eq!(t.bytes(), 0);
    }

    #[test]
    fn a_place_stands_for_its_key() {
        // A 12-bit key space in 8 buckets: the places of the 4,096 keys are distinct and
        // below 2^12, 0 only for the key 0, and storing or probing at a key's place is
        // storing or probing at the key.
        let t = LockFreeTable::new(256, 12).unwrap();
        let mut seen = std::collections::HashSet::new();
        for key in 0..4096u64 {
            let place = t.locate(key);
            assert_eq!(place == 0, key == 0, "key {key}");
            assert!(place < 4096 && seen.insert(place), "key {key}");
        }
        let bounds = |key: u64| Bounds {
            lower: (key % 100) as i32 - 50,
            upper: 60,
            best: (key % 6) as u8,
            work: 3,
        };
        for key in 1..4096u64 {
            t.store_at(t.locate(key), bounds(key));
        }
        for key in 1..4096u64 {
            let got = t.probe(key);
            assert_eq!(got, t.probe_at(t.locate(key)), "key {key}");
            if let Some(b) = got {
                assert_eq!(b, bounds(key), "key {key}");
            }
        }
        // The last store always has its entry.
        assert_eq!(t.probe(4095), Some(bounds(4095)));
    }

    #[test]
    fn merge_intersects() {
        let a = Bounds {
            lower: -3,
            upper: 10,
            best: 2,
            work: 4,
        };
        let b = Bounds {
            lower: 1,
            upper: 20,
            best: NO_MOVE,
            work: 9,
        };
        let m = a.merge(b);
        assert_eq!((m.lower, m.upper, m.best, m.work), (1, 10, 2, 9));
    }
}
