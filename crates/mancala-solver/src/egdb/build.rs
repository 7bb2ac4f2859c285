//! The parallel layer-by-layer build (algorithm in the module docs of `egdb`).

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use mancala_core::kalah::{KalahOption, KalahOptions};
use rayon::prelude::*;

use crate::board::{binom_exact, next_parts, unrank_layer, Child, Flags, Geometry, Kind};
use crate::mem::{FrozenBytes, OutOfMemory, ZeroedBuf};
use crate::search::prefetch;

/// Not computed yet: the entry of value v is the byte v + 128 (excess-128), and no value is
/// −128 because |v| ≤ K ≤ 127.
const UNKNOWN: u8 = 0;
/// Positions a work item covers.
const CHUNK: u64 = 1 << 14;

#[inline(always)]
fn encode(v: i8) -> u8 {
    (i32::from(v) + 128) as u8
}

struct Builder<'a, const M: usize> {
    g: Geometry<M>,
    data: &'a [AtomicU8],
}

/// A position prepared ahead of its evaluation: its children and every rank, with the
/// entries already requested from memory (software pipelining hides the memory latency).
#[derive(Clone, Copy)]
struct Pre {
    rank: u64,
    n: u8,
    kids: [(Child, u64); 7],
}

const EMPTY_PRE: Pre = Pre {
    rank: 0,
    n: 0,
    kids: [(
        Child {
            board: 0,
            gain: 0,
            seeds: 0,
            kind: Kind::Over,
        },
        0,
    ); 7],
};

/// Positions prepared ahead.
const AHEAD: usize = 8;

impl<const M: usize> Builder<'_, M> {
    /// Prepares the position `b` of rank `rank` into `pre`, in place.
    #[inline(always)]
    fn prepare(&self, b: u128, rank: u64, pre: &mut Pre) {
        pre.rank = rank;
        pre.n = 0;
        prefetch(&self.data[rank as usize]);
        if self.g.is_terminal(b) {
            return;
        }
        let mut mask = Geometry::<M>::move_mask(b);
        while mask != 0 {
            let h = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let c = self.g.play(b, h);
            let mut r = 0;
            if c.kind != Kind::Over {
                r = Geometry::<M>::rank(c.board);
                prefetch(&self.data[r as usize]);
            }
            pre.kids[pre.n as usize] = (c, r);
            pre.n += 1;
        }
    }

    /// The value of a prepared position (0 for a finished game, which has no child).
    fn finish(&self, pre: &Pre) -> i8 {
        if pre.n == 0 {
            return 0;
        }
        let mut best = i32::MIN;
        for &(c, r) in &pre.kids[..pre.n as usize] {
            let v = match c.kind {
                Kind::Over => c.gain,
                Kind::Extra => c.gain + i32::from(self.get(c.board, r)),
                Kind::Switch => c.gain - i32::from(self.get(c.board, r)),
            };
            best = best.max(v);
        }
        best as i8
    }

    /// The value of `b` (mover to move), computing unknown in-layer children first.
    fn compute(&self, b: u128) -> i8 {
        if self.g.is_terminal(b) {
            return 0;
        }
        let mut best = i32::MIN;
        let mut mask = Geometry::<M>::move_mask(b);
        while mask != 0 {
            let h = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let c = self.g.play(b, h);
            let v = match c.kind {
                Kind::Over => c.gain,
                Kind::Extra => c.gain + i32::from(self.get(c.board, Geometry::<M>::rank(c.board))),
                Kind::Switch => c.gain - i32::from(self.get(c.board, Geometry::<M>::rank(c.board))),
            };
            best = best.max(v);
        }
        best as i8
    }

    /// The entry of `b` (of rank `rank`), computed first if it is an unknown in-layer one.
    #[inline]
    fn get(&self, b: u128, rank: u64) -> i8 {
        let slot = &self.data[rank as usize];
        let v = slot.load(Ordering::Relaxed);
        if v != UNKNOWN {
            return (i32::from(v) - 128) as i8;
        }
        // Only an in-layer child can be unknown: the layers below are complete.
        let v = self.compute(b);
        slot.store(encode(v), Ordering::Relaxed);
        v
    }
}

fn run<const M: usize>(
    flags: Flags,
    max_seeds: u32,
    data: &[AtomicU8],
    progress: Option<&(dyn Fn(u64, u64) + Sync)>,
) {
    let builder = Builder::<M> {
        g: Geometry::<M>::new(flags),
        data,
    };
    let total = data.len() as u64;
    let done = AtomicU64::new(0);
    let d = 2 * M as u64;
    for k in 0..=max_seeds {
        let start = if k == 0 {
            0
        } else {
            binom_exact(u64::from(k) + d - 1, d) as u64
        };
        let len = binom_exact(u64::from(k) + d - 1, d - 1) as u64;
        let chunks = len.div_ceil(CHUNK);
        (0..chunks).into_par_iter().for_each(|c| {
            let from = c * CHUNK;
            let to = (from + CHUNK).min(len);
            let mut parts = [0u8; 16];
            let parts = &mut parts[..2 * M];
            unrank_layer(M, k, from, parts);
            // Software pipeline: position i is evaluated while the entries of positions
            // i+1..i+AHEAD are on their way from memory.
            let mut ring = [EMPTY_PRE; AHEAD];
            let count = (to - from) as usize;
            let base = start + from;
            for (i, slot) in ring.iter_mut().enumerate().take(count) {
                builder.prepare(Geometry::<M>::from_parts(parts), base + i as u64, slot);
                next_parts(parts);
            }
            for i in 0..count {
                let at = i % AHEAD;
                let slot = &builder.data[ring[at].rank as usize];
                if slot.load(Ordering::Relaxed) == UNKNOWN {
                    let v = builder.finish(&ring[at]);
                    slot.store(encode(v), Ordering::Relaxed);
                }
                if i + AHEAD < count {
                    let b = Geometry::<M>::from_parts(parts);
                    builder.prepare(b, base + (i + AHEAD) as u64, &mut ring[at]);
                    next_parts(parts);
                }
            }
            let n = done.fetch_add(to - from, Ordering::Relaxed) + (to - from);
            if let Some(p) = progress {
                p(n, total);
            }
        });
    }
}

/// Builds the entries (rank order, excess-128 bytes) of the database of m houses, the given
/// value-relevant options and K = `max_seeds`, `total` = C(K+2m, 2m) entries.
pub(super) fn build(
    m: usize,
    options: KalahOptions,
    max_seeds: u32,
    total: u64,
    progress: Option<&(dyn Fn(u64, u64) + Sync)>,
) -> Result<FrozenBytes, OutOfMemory> {
    let flags = Flags {
        empty_capture: options.has(KalahOption::EmptyCapture),
        end_when_no_move: options.has(KalahOption::EndWhenNoMove),
        discard: options.has(KalahOption::DiscardRemaining),
    };
    let buf = ZeroedBuf::<AtomicU8>::new(total as usize)?;
    let data = buf.as_slice();
    match m {
        1 => run::<1>(flags, max_seeds, data, progress),
        2 => run::<2>(flags, max_seeds, data, progress),
        3 => run::<3>(flags, max_seeds, data, progress),
        4 => run::<4>(flags, max_seeds, data, progress),
        5 => run::<5>(flags, max_seeds, data, progress),
        6 => run::<6>(flags, max_seeds, data, progress),
        _ => run::<7>(flags, max_seeds, data, progress),
    }
    Ok(buf.freeze())
}
