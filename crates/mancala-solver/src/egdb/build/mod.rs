//! The parallel build, layer by layer and, inside a layer, moment level by moment level
//! (algorithm and proof in the module docs of `egdb`, "Build"):
//!
//! * `rows.rs`: the rows of one player grouped by (seeds, moment), the blocks of a moment
//!   level and the walk over them in build order;
//! * `sow.rs`: the build's own sowing kernel, on the two rows as separate words;
//! * `target.rs`: where the entries are kept, one byte an entry in one buffer or the packed
//!   stream with the layer under construction apart, and how a finished layer is put in rank
//!   order;
//! * `level.rs`: [`LevelBuild`], the same build driven one moment level at a time from
//!   outside (`mancala-mpi`);
//! * this file: the evaluation of the positions of a level ([`Builder`], software-pipelined),
//!   the driver over the layers and levels, and the entry points ([`Egdb::build`] and its
//!   variants).

mod level;
mod rows;
mod sow;
mod target;
#[cfg(test)]
mod tests;

pub use level::{Level, LevelBuild};

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};

use mancala_core::kalah::{KalahOptions, KalahRules};
use rayon::prelude::*;

use super::packed::{Codec, PAD};
use super::{check_build, Egdb, EgdbError, Encoding};
use crate::board::Flags;
use crate::mem::{FrozenBytes, OutOfMemory, ZeroedBuf};
use crate::progress::BuildProgress;
use crate::rank::{binom_exact, layer_start, rank_space};
use rows::{level_blocks, own_and_rank, Block, Rows, Walk};
use sow::Sow;
use target::{Bytes, Packed, Target};

/// Not computed yet: the entry of value v is the byte v + 128 (excess-128), and no value is
/// −128 because |v| ≤ K ≤ 127. Only debug builds look at it: the order of the build makes
/// every entry a position reads final before it is read.
const UNKNOWN: u8 = 0;
/// Positions a work item covers (the last item of a level may be smaller).
const CHUNK: u64 = 1 << 12;
/// Positions prepared ahead.
const AHEAD: usize = 8;

#[inline(always)]
fn encode(v: i8) -> u8 {
    (i32::from(v) + 128) as u8
}

/// The entries during the build, in *slot* order: the rank order with, inside every window
/// of the positions that share the opponent's row and the own row's seed count, the own rows
/// in [`Rows`] order instead of rank order. The slot of a position is `index(own row) +
/// T(a, opponent's row)` where its rank is `R(own row) + T(a, opponent's row)`. In that order
/// the positions of one (sum, moment) group of own rows with one opponent's row are
/// contiguous, and so are the children reached by one in-layer move of one own row from a
/// group of opponent's rows: the build reads and writes whole cache lines. Only the layer
/// under construction is in slot order (its entry `slot − start`); when it is complete, the
/// [`Target`] puts it in rank order, and the children in the layers below are read by rank.
struct Builder<'a, const M: usize, T: Target> {
    sow: &'a Sow<M>,
    rows: &'a Rows,
    target: &'a T,
    /// The layer under construction, in slot order from its first entry.
    layer: &'a [AtomicU8],
    /// Its seed count and the rank of its first position.
    k: u32,
    start: u64,
}

/// A position prepared ahead of its evaluation: its slot and, for every move, what the
/// child's value is made of, with the child's entry already requested from memory (software
/// pipelining hides the memory latency). The children are sorted by where their entries
/// are, so that evaluating them takes no decision per child.
#[derive(Clone, Copy)]
struct Pre {
    slot: u64,
    /// Whether the position has a move (else it is a finished game, value 0).
    moves: bool,
    /// The best gain of the moves that end the game (`i32::MIN` when none does).
    over: i32,
    n_in: u8,
    n_below: u8,
    /// The in-layer children (no seed stored, the turn passes: value −v) when
    /// [`Target::APART`]: their slots less the layer's start.
    kids_in: [u64; 7],
    /// The children in lower layers: (rank, gain, +1 for an extra turn or −1 when the turn
    /// passes, seeds in the houses); when not [`Target::APART`], the in-layer children too,
    /// at their slots.
    kids_below: [(u64, i32, i32, u32); 7],
}

const EMPTY_PRE: Pre = Pre {
    slot: 0,
    moves: false,
    over: i32::MIN,
    n_in: 0,
    n_below: 0,
    kids_in: [0; 7],
    kids_below: [(0, 0, 0, 0); 7],
};

impl<const M: usize, T: Target> Builder<'_, M, T> {
    /// Prepares the position (`own`, `opp`) of slot `slot` into `pre`, in place.
    #[inline(always)]
    fn prepare(&self, own: u64, opp: u64, slot: u64, pre: &mut Pre) {
        pre.slot = slot;
        pre.n_in = 0;
        pre.n_below = 0;
        pre.over = i32::MIN;
        pre.moves = !self.sow.flags.finished(own == 0, opp == 0);
        if !pre.moves {
            return;
        }
        // Bit h set for every non-empty house h.
        let mut x = own;
        x |= x >> 4;
        x |= x >> 2;
        x |= x >> 1;
        x &= 0x0101_0101_0101_0101;
        let mut mask = (x.wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32;
        while mask != 0 {
            let h = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let (c_own, c_opp, gain, sign) = self.sow.play(own, opp, h);
            // A child that keeps every seed in the houses (no seed stored, the game goes
            // on) is in this layer, at its slot; one that stores `gain` seeds has k − gain,
            // at its rank. Which one is chosen without a branch: the choice is as good as
            // random, and a mispredicted branch costs more than computing both.
            let over = sign == 0;
            let in_layer = !over && gain == 0;
            debug_assert!(!in_layer || sign == -1, "an in-layer move passes the turn");
            pre.over = pre.over.max(if over { gain } else { i32::MIN });
            let (r, t) = own_and_rank::<M>(c_own, c_opp);
            let slot = u64::from(self.rows.index_of[r]) + t;
            let rank = r as u64 + t;
            if T::APART {
                let index = slot.wrapping_sub(self.start);
                self.target
                    .prefetch_either(self.layer, in_layer, index, rank);
                let seeds = self.k.wrapping_sub(gain as u32);
                pre.kids_in[pre.n_in as usize] = index;
                pre.kids_below[pre.n_below as usize] = (rank, gain, sign, seeds);
                pre.n_in += u8::from(in_layer);
                pre.n_below += u8::from(!over && !in_layer);
            } else {
                // One buffer: an in-layer child is read like the others, at its slot, and so
                // is a child below the layer when the finished layers are in slot order.
                let index = if in_layer || !T::RANKED { slot } else { rank };
                self.target.prefetch_below(index);
                pre.kids_below[pre.n_below as usize] = (index, gain, sign, 0);
                pre.n_below += u8::from(!over);
            }
        }
    }

    /// The value of a prepared position (0 for a finished game, which has no move), from
    /// its children's final entries.
    #[inline(always)]
    fn finish(&self, pre: &Pre) -> i8 {
        if !pre.moves {
            return 0;
        }
        let mut best = pre.over;
        for &index in &pre.kids_in[..pre.n_in as usize] {
            best = best.max(-self.target.value_in(self.layer, index));
        }
        for &(rank, gain, sign, seeds) in &pre.kids_below[..pre.n_below as usize] {
            best = best.max(gain + sign * self.target.value_below(rank, seeds));
        }
        best as i8
    }

    /// Computes the positions `from..to` of the level made of `blocks`.
    fn run_chunk(&self, blocks: &[Block], from: u64, to: u64) {
        let mut walk = Walk::<M>::new(self.rows, blocks, from);
        // Software pipeline: position i is evaluated while the entries of positions
        // i+1..i+AHEAD are on their way from memory.
        let mut ring = [EMPTY_PRE; AHEAD];
        let count = (to - from) as usize;
        for pre in ring.iter_mut().take(count) {
            let (own, opp, slot) = walk.next();
            self.prepare(own, opp, slot, pre);
        }
        for i in 0..count {
            let at = i % AHEAD;
            let v = self.finish(&ring[at]);
            let entry = &self.layer[(ring[at].slot - self.start) as usize];
            debug_assert_eq!(entry.load(Ordering::Relaxed), UNKNOWN);
            entry.store(encode(v), Ordering::Relaxed);
            if i + AHEAD < count {
                let (own, opp, slot) = walk.next();
                self.prepare(own, opp, slot, &mut ring[at]);
            }
        }
    }
}

/// Builds every layer into `target`; `false` when cancelled.
fn run<const M: usize, T: Target>(
    flags: Flags,
    max_seeds: u32,
    target: &T,
    chunk: u64,
    progress: Option<&(dyn Fn(u64, u64) + Sync)>,
    cancel: Option<&AtomicBool>,
) -> Result<bool, OutOfMemory> {
    let cancelled = || cancel.is_some_and(|c| c.load(Ordering::Relaxed));
    let rows = Rows::new(M, max_seeds);
    let sow = Sow::<M>::new(flags);
    let total = layer_start(M, max_seeds + 1);
    let done = AtomicU64::new(0);
    let mut blocks = Vec::new();
    for k in 0..=max_seeds {
        let (start, end) = (layer_start(M, k), layer_start(M, k + 1));
        let layer = target.layer(k, start, end)?;
        let builder = Builder::<M, T> {
            sow: &sow,
            rows: &rows,
            target,
            layer: layer.as_slice(),
            k,
            start,
        };
        let mut in_layer = 0;
        // Every in-layer child has a larger moment than its parent (module docs): the levels
        // from the top down.
        for level in (0..=(M as u32 - 1) * k).rev() {
            level_blocks::<M>(&rows, k, level, &mut blocks);
            let len = blocks.last().map_or(0, |b| b.end);
            in_layer += len;
            let blocks = &blocks[..];
            if cancelled() {
                return Ok(false);
            }
            let run_chunk = |c: u64| {
                if cancelled() {
                    return;
                }
                let from = c * chunk;
                let to = (from + chunk).min(len);
                builder.run_chunk(blocks, from, to);
                let n = done.fetch_add(to - from, Ordering::Relaxed) + (to - from);
                if let Some(p) = progress {
                    p(n, total);
                }
            };
            let chunks = len.div_ceil(chunk);
            if chunks == 1 {
                run_chunk(0);
            } else {
                (0..chunks).into_par_iter().for_each(run_chunk);
            }
        }
        debug_assert_eq!(in_layer, end - start);
        if cancelled() {
            // A chunk of the last level may have been skipped.
            return Ok(false);
        }
        debug_assert!(layer
            .as_slice()
            .iter()
            .all(|x| x.load(Ordering::Relaxed) != UNKNOWN));
        target.finish_layer::<M>(&rows, k, start, layer);
    }
    Ok(true)
}

/// Builds the payload of the database of m houses, the given value-relevant options and K =
/// `max_seeds` (`total` = C(K+2m, 2m) entries) in `encoding`: the one-byte entries in rank
/// order, or the packed payload followed by its [`PAD`] zero bytes. `None` when `cancel` was
/// set before the build ended (checked before every work item).
///
/// Memory: one byte an entry for [`Encoding::Byte`]; for [`Encoding::Packed`], the packed
/// payload plus one byte an entry of the largest layer, [`build_memory`].
pub(super) fn build(
    m: usize,
    options: KalahOptions,
    max_seeds: u32,
    total: u64,
    encoding: Encoding,
    progress: Option<&(dyn Fn(u64, u64) + Sync)>,
    cancel: Option<&AtomicBool>,
) -> Result<Option<FrozenBytes>, OutOfMemory> {
    build_in_chunks(
        m, options, max_seeds, total, encoding, CHUNK, progress, cancel,
    )
}

/// Peak memory of [`build`], bytes: the payload, and for [`Encoding::Packed`] the layer
/// under construction at one byte an entry (the largest, layer K) and the padding.
pub(super) fn build_memory(
    m: usize,
    options: KalahOptions,
    max_seeds: u32,
    total: u64,
) -> [u64; 2] {
    let codec = Codec::new(max_seeds, options);
    let top = total
        - if max_seeds == 0 {
            0
        } else {
            binom_exact(u64::from(max_seeds) + 2 * m as u64 - 1, 2 * m as u64) as u64
        };
    [total, packed_words(&codec, total) * 8 + top]
}

/// Words of the packed stream of `total` entries: the payload rounded up to a word, and
/// one word more (read past the last entry, and the [`PAD`] bytes).
fn packed_words(codec: &Codec, total: u64) -> u64 {
    codec.payload_bytes(total).div_ceil(8) + 2
}

/// [`build`] with work items of `chunk` positions.
#[allow(clippy::too_many_arguments)]
fn build_in_chunks(
    m: usize,
    options: KalahOptions,
    max_seeds: u32,
    total: u64,
    encoding: Encoding,
    chunk: u64,
    progress: Option<&(dyn Fn(u64, u64) + Sync)>,
    cancel: Option<&AtomicBool>,
) -> Result<Option<FrozenBytes>, OutOfMemory> {
    let flags = Flags::from(options);
    macro_rules! each_m {
        ($target:expr) => {{
            let t = $target;
            match m {
                1 => run::<1, _>(flags, max_seeds, t, chunk, progress, cancel),
                2 => run::<2, _>(flags, max_seeds, t, chunk, progress, cancel),
                3 => run::<3, _>(flags, max_seeds, t, chunk, progress, cancel),
                4 => run::<4, _>(flags, max_seeds, t, chunk, progress, cancel),
                5 => run::<5, _>(flags, max_seeds, t, chunk, progress, cancel),
                6 => run::<6, _>(flags, max_seeds, t, chunk, progress, cancel),
                _ => run::<7, _>(flags, max_seeds, t, chunk, progress, cancel),
            }
        }};
    }
    match encoding {
        // `Egdb::build` refuses the compact encoding before it gets here.
        Encoding::Byte | Encoding::Compact => {
            let buf = ZeroedBuf::<AtomicU8>::new(total as usize)?;
            let done = each_m!(&Bytes::<true> {
                data: buf.as_slice()
            })?;
            Ok(done.then(|| buf.freeze()))
        }
        Encoding::Packed => {
            let codec = Codec::new(max_seeds, options);
            let words = ZeroedBuf::<AtomicU64>::new(packed_words(&codec, total) as usize)?;
            let done = each_m!(&Packed {
                words: words.as_slice(),
                codec: &codec,
            })?;
            let len = codec.payload_bytes(total) as usize + PAD;
            Ok(done.then(|| words.freeze_bytes(len)))
        }
    }
}

/// The refusal of the compact encoding, which Kalah databases do not have.
pub(crate) fn no_compact() -> EgdbError {
    EgdbError::NoSuchEncoding {
        encoding: Encoding::Compact,
        database: "a Kalah database",
    }
}

/// A progress callback of a build ([`BuildOptions::progress`]).
type Callback<'a> = &'a mut dyn FnMut(&BuildProgress) -> ControlFlow<()>;

/// How [`Egdb::build`] builds: the entry encoding, the threads and progress reports. The
/// default: one byte an entry, on the current rayon pool, no reports.
///
/// ```
/// use std::ops::ControlFlow;
/// use std::time::Duration;
/// use mancala_solver::egdb::{BuildOptions, Egdb, Encoding};
/// let rules = "kalah(3,2)".parse().unwrap();
/// let mut reports = 0;
/// let mut count = |_: &mancala_solver::BuildProgress| {
///     reports += 1;
///     ControlFlow::Continue(())
/// };
/// let options = BuildOptions::new()
///     .encoding(Encoding::Packed)
///     .threads(2)
///     .progress(Duration::from_millis(100), &mut count);
/// let db = Egdb::build(&rules, 6, options).unwrap();
/// assert_eq!(db.len(), 924); // C(6 + 6, 6)
/// ```
#[derive(Default)]
pub struct BuildOptions<'a> {
    encoding: Encoding,
    threads: Option<usize>,
    progress: Option<(std::time::Duration, Callback<'a>)>,
}

impl std::fmt::Debug for BuildOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BuildOptions")
            .field("encoding", &self.encoding)
            .field("threads", &self.threads)
            .field("progress", &self.progress.as_ref().map(|p| p.0))
            .finish()
    }
}

impl<'a> BuildOptions<'a> {
    /// The defaults: [`Encoding::Byte`], the current rayon pool, no progress reports.
    #[must_use]
    pub fn new() -> BuildOptions<'a> {
        BuildOptions::default()
    }

    /// The entry encoding of the database (default [`Encoding::Byte`]). The values are the
    /// same in either encoding. [`Encoding::Packed`] is built layer by layer: the finished
    /// layers are kept packed, and only the layer under construction takes one byte an
    /// entry, so that the build needs [`Egdb::build_memory`] bytes, not one byte a position.
    #[must_use]
    pub fn encoding(mut self, encoding: Encoding) -> BuildOptions<'a> {
        self.encoding = encoding;
        self
    }

    /// Builds on a pool of its own of `threads` threads (0 = every core; more than
    /// [`crate::MAX_THREADS`] is refused with [`EgdbError::Threads`]). Without it the build
    /// runs on the current rayon pool, or, with progress reports, on a pool of every core.
    #[must_use]
    pub fn threads(mut self, threads: usize) -> BuildOptions<'a> {
        self.threads = Some(threads);
        self
    }

    /// Progress reports: `callback` is called on the calling thread every `interval` (at
    /// least [`MIN_INTERVAL`](crate::progress::MIN_INTERVAL)) while the build runs (on a
    /// helper thread meanwhile), with the entries done and in all and the seconds so far
    /// ([`BuildProgress`]); never once the build has ended. Returning
    /// [`ControlFlow::Break`] stops the build within one work item per thread
    /// ([`EgdbError::Cancelled`]).
    #[must_use]
    pub fn progress(
        mut self,
        interval: std::time::Duration,
        callback: &'a mut dyn FnMut(&BuildProgress) -> ControlFlow<()>,
    ) -> BuildOptions<'a> {
        self.progress = Some((interval, callback));
        self
    }
}

impl<'a> BuildOptions<'a> {
    /// The encoding, the threads and the progress reports asked for, for the builds of
    /// other games' databases (`AwariDb`'s [`Database::build`](crate::egdb::Database)).
    pub(crate) fn into_parts(
        self,
    ) -> (
        Encoding,
        Option<usize>,
        Option<(std::time::Duration, Callback<'a>)>,
    ) {
        (self.encoding, self.threads, self.progress)
    }
}

impl Egdb {
    /// Builds the database of `rules` (its m and value-relevant options) for every position
    /// with at most `max_seeds` seeds in the houses, as `options` say (encoding, threads,
    /// progress reports: [`BuildOptions`]). The entries are the same whatever the threads
    /// and the reports.
    ///
    /// # Errors
    /// [`EgdbError::Unsupported`] when K > 127 or the database would exceed
    /// [`MAX_ENTRIES`](super::MAX_ENTRIES) entries, [`EgdbError::MoreSeedsThanTheGame`] when K
    /// is above the seeds of the game of `rules` (2·m·n), [`EgdbError::OutOfMemory`] when its
    /// entries do not fit in memory (checked before any work: [`Egdb::build_memory`] against
    /// the memory available), [`EgdbError::Cancelled`] after a
    /// [`ControlFlow::Break`] of the progress callback, [`EgdbError::Threads`] when the pool
    /// or the helper thread of the reports cannot start, or for more than
    /// [`crate::MAX_THREADS`] threads.
    pub fn build(
        rules: &KalahRules,
        max_seeds: u32,
        options: BuildOptions<'_>,
    ) -> Result<Egdb, EgdbError> {
        let m = rules.houses();
        let total = check_build(rules, max_seeds)?;
        if options.encoding == Encoding::Compact {
            return Err(no_compact());
        }
        // Refused before any work, as `mancala egdb build` refuses it (the same check).
        super::choose::build_fits_memory(Egdb::build_memory(rules, max_seeds, options.encoding)?)?;
        let relevant = rules.options().database_relevant();
        let BuildOptions {
            encoding,
            threads,
            progress,
        } = options;
        let data = match (threads, progress) {
            (None, None) => build(m as usize, relevant, max_seeds, total, encoding, None, None)?,
            (threads, progress) => {
                let threads = threads.unwrap_or(0);
                if threads > crate::mem::MAX_THREADS {
                    return Err(EgdbError::Threads(format!(
                        "{threads} threads asked for, at most {}",
                        crate::mem::MAX_THREADS
                    )));
                }
                let pool = crate::pool::Pool::new(threads, "mancala-egdb")
                    .map_err(|e| EgdbError::Threads(e.to_string()))?;
                let run = |count: Option<&(dyn Fn(u64, u64) + Sync)>,
                           cancel: Option<&AtomicBool>| {
                    pool.install(|| {
                        build(
                            m as usize, relevant, max_seeds, total, encoding, count, cancel,
                        )
                    })
                };
                match progress {
                    None => run(None, None)?,
                    Some((interval, callback)) => {
                        watched(total, interval, callback, |count, cancel| {
                            run(Some(count), Some(cancel))
                        })?
                    }
                }
            }
        }
        .ok_or(EgdbError::Cancelled)?;
        Ok(Egdb::built(rules, max_seeds, encoding, data))
    }

    /// The memory, bytes, that building the database of `rules` and K = `max_seeds` in
    /// `encoding` takes at its peak (the entries; besides them the build holds tables of a
    /// few MiB): C(K+2m, 2m) for [`Encoding::Byte`]; for [`Encoding::Packed`] the packed
    /// payload plus one byte for every position of layer K (the largest), C(K+2m−1, 2m−1).
    /// For m = 6, K = 30: 11.1 GB one byte an entry; 6.9 GB + 4.1 GB packed.
    ///
    /// # Errors
    /// [`EgdbError::Unsupported`] and [`EgdbError::MoreSeedsThanTheGame`] as [`Egdb::build`].
    pub fn build_memory(
        rules: &KalahRules,
        max_seeds: u32,
        encoding: Encoding,
    ) -> Result<u64, EgdbError> {
        let m = rules.houses();
        let total = check_build(rules, max_seeds)?;
        let options = rules.options().database_relevant();
        let [byte, packed] = build_memory(m as usize, options, max_seeds, total);
        Ok(match encoding {
            Encoding::Byte => byte,
            Encoding::Packed => packed,
            Encoding::Compact => return Err(no_compact()),
        })
    }

    /// The database of `rules` and K = `max_seeds` holding the freshly built `data` in
    /// `encoding`.
    fn built(rules: &KalahRules, max_seeds: u32, encoding: Encoding, data: FrozenBytes) -> Egdb {
        let options = rules.options().database_relevant();
        Egdb {
            houses: rules.houses(),
            max_seeds,
            options,
            rules: rules.to_string(),
            entries: rank_space(rules.houses() as usize, max_seeds).unwrap_or(0),
            codec: (encoding == Encoding::Packed).then(|| Codec::new(max_seeds, options)),
            data,
        }
    }
}

/// Runs `work(count, cancel)`, a build of `total` entries that calls `count(done, total)`
/// as it goes and stops when `cancel` is set, on a helper thread, while the calling thread
/// reports its progress to `callback` every `interval`; a [`ControlFlow::Break`] sets
/// `cancel`.
fn watched(
    total: u64,
    interval: std::time::Duration,
    callback: Callback<'_>,
    work: impl FnOnce(&(dyn Fn(u64, u64) + Sync), &AtomicBool) -> Result<Option<FrozenBytes>, OutOfMemory>
        + Send,
) -> Result<Option<FrozenBytes>, EgdbError> {
    let t0 = std::time::Instant::now();
    let done = AtomicU64::new(0);
    let cancel = AtomicBool::new(false);
    let count = |n: u64, _: u64| {
        done.fetch_max(n, Ordering::Relaxed);
    };
    Ok(crate::progress::watch(
        interval,
        || work(&count, &cancel),
        || {
            callback(&BuildProgress {
                done: done.load(Ordering::Relaxed),
                total,
                seconds: t0.elapsed().as_secs_f64(),
            })
        },
        || cancel.store(true, Ordering::Relaxed),
    )
    .map_err(|e| EgdbError::Threads(e.to_string()))??)
}
