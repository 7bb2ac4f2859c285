//! Transposition tables: a fixed-size lock-free table sized in bytes, and an exact
//! DashMap-backed table without eviction.
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

use crate::mem::ZeroedBuf;

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
    /// Forgets everything and prepares for keys below 2^`key_bits`.
    fn reset(&mut self, key_bits: u32);
    /// The key width the table is prepared for, bits.
    fn key_bits(&self) -> u32;
    /// Memory used, bytes.
    fn bytes(&self) -> usize;
}

const TAG_BITS: u32 = 37;
const WAYS: usize = 4;

/// The fixed-size lock-free table (module docs): buckets of four `AtomicU64` entries,
/// replacement of the entry with the least work.
pub struct LockFreeTable {
    slots: ZeroedBuf<AtomicU64>,
    requested_bytes: usize,
    bucket_bits: u32,
    key_bits: u32,
}

impl LockFreeTable {
    /// A table of about `bytes` bytes (rounded down to a power of two of 32-byte buckets, at
    /// least one bucket), prepared for keys below 2^`key_bits` (grown when the key space needs
    /// more buckets than that, see the module docs).
    #[must_use]
    pub fn new(bytes: usize, key_bits: u32) -> LockFreeTable {
        let mut t = LockFreeTable {
            slots: ZeroedBuf::new(0),
            requested_bytes: bytes,
            bucket_bits: 0,
            key_bits: 0,
        };
        t.reset(key_bits);
        t
    }

    #[inline(always)]
    fn locate(&self, key: u64) -> (usize, u64) {
        let kb = self.key_bits;
        let mask = if kb >= 64 { u64::MAX } else { (1u64 << kb) - 1 };
        let mut x = key.wrapping_mul(0x9E37_79B9_7F4A_7C15) & mask;
        x ^= x >> kb.div_ceil(2).max(1);
        x = x.wrapping_mul(0xD6E8_FEB8_6659_FD93) & mask;
        let tag_bits = kb - self.bucket_bits;
        let bucket = if self.bucket_bits == 0 {
            0
        } else {
            (x >> tag_bits) as usize
        };
        let tag = x & ((1u64 << tag_bits) - 1);
        (bucket * WAYS, tag)
    }
}

impl TranspositionTable for LockFreeTable {
    #[inline(always)]
    fn prefetch(&self, key: u64) {
        // Not under Miri, which does not implement the intrinsic (no effect on results).
        #[cfg(all(target_arch = "x86_64", not(miri)))]
        {
            let (base, _) = self.locate(key);
            let p = self.slots.as_slice()[base..].as_ptr();
            // SAFETY: SSE is part of the x86_64 baseline; a prefetch never faults, and `p`
            // points into the table anyway.
            unsafe {
                core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(p.cast());
            }
        }
        #[cfg(any(not(target_arch = "x86_64"), miri))]
        let _ = key;
    }

    #[inline]
    fn probe(&self, key: u64) -> Option<Bounds> {
        let (base, tag) = self.locate(key);
        for slot in &self.slots.as_slice()[base..base + WAYS] {
            let v = slot.load(Ordering::Relaxed);
            if v != 0 && v >> 27 == tag {
                return Some(Bounds::unpack(v));
            }
        }
        None
    }

    #[inline]
    fn store(&self, key: u64, bounds: Bounds) {
        let (base, tag) = self.locate(key);
        let bucket = &self.slots.as_slice()[base..base + WAYS];
        let mut victim = 0;
        let mut least = u64::MAX;
        for (i, slot) in bucket.iter().enumerate() {
            let v = slot.load(Ordering::Relaxed);
            if v != 0 && v >> 27 == tag {
                let merged = Bounds::unpack(v).merge(bounds);
                slot.store(merged.pack() | (tag << 27), Ordering::Relaxed);
                return;
            }
            let work = if v == 0 { 0 } else { ((v >> 22) & 31) + 1 };
            if work < least {
                least = work;
                victim = i;
            }
        }
        bucket[victim].store(bounds.pack() | (tag << 27), Ordering::Relaxed);
    }

    fn reset(&mut self, key_bits: u32) {
        let key_bits = key_bits.clamp(1, 62);
        let mut bucket_bits = 0u32;
        while (32usize << (bucket_bits + 1)) <= self.requested_bytes && bucket_bits < 40 {
            bucket_bits += 1;
        }
        // Enough buckets for the tag to fit, and never more buckets than keys.
        bucket_bits = bucket_bits.max(key_bits.saturating_sub(TAG_BITS));
        bucket_bits = bucket_bits.min(key_bits);
        let len = WAYS << bucket_bits;
        // A fresh anonymous map: zero pages until touched, huge pages where offered.
        self.slots = ZeroedBuf::new(0);
        self.slots = ZeroedBuf::new(len);
        self.bucket_bits = bucket_bits;
        self.key_bits = key_bits;
    }

    fn key_bits(&self) -> u32 {
        self.key_bits
    }

    fn bytes(&self) -> usize {
        self.slots.as_slice().len() * 8
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

    fn reset(&mut self, key_bits: u32) {
        self.map.clear();
        self.key_bits = key_bits;
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
        let t = LockFreeTable::new(64, 12);
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
