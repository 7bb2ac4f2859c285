//! [`LevelBuild`]: the build driven from outside one moment level at a time, for a caller
//! that shares each level between processes (`mancala-mpi`).

use std::sync::atomic::{AtomicU8, Ordering};

use mancala_core::kalah::KalahRules;
use rayon::prelude::*;

use super::rows::{level_blocks, Block, Rows, Walk};
use super::sow::Sow;
use super::target::{layer_to_rank_order, Bytes};
use super::{Builder, CHUNK, UNKNOWN};
use crate::board::Flags;
use crate::egdb::{check_build, decode, Egdb, EgdbError, Encoding};
use crate::mem::ZeroedBuf;
use crate::rank::layer_start;

/// One moment level of one layer of a [`LevelBuild`]: the positions with `k` seeds in the
/// houses and moment `moment` (module docs of [`crate::egdb`]), in the build's walk order.
/// Its positions are numbered `0..len()` in that order; they are grouped by the seeds in the
/// mover's row, increasing ([`Level::by_own_seeds`]).
pub struct Level {
    k: u32,
    moment: u32,
    blocks: Vec<Block>,
}

impl Level {
    /// The layer: seeds in the houses of every position of the level.
    #[must_use]
    pub fn layer(&self) -> u32 {
        self.k
    }

    /// The moment φ of every position of the level (module docs of [`crate::egdb`]).
    #[must_use]
    pub fn moment(&self) -> u32 {
        self.moment
    }

    /// Positions in the level.
    #[must_use]
    pub fn len(&self) -> u64 {
        self.blocks.last().map_or(0, |b| b.end)
    }

    /// Whether the level has no position.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The level as consecutive runs of positions of one seed count in the mover's row:
    /// `(seeds in the mover's row, positions)`, in walk order, the seed counts increasing, no
    /// run empty. The runs add up to [`Level::len`]. A distributed build uses them to cost a
    /// share of the level (a position's work grows with the moves it has, so with its
    /// mover's seeds).
    #[must_use]
    pub fn by_own_seeds(&self) -> Vec<(u32, u64)> {
        let mut runs: Vec<(u32, u64)> = Vec::new();
        let mut before = 0;
        for b in &self.blocks {
            let n = b.end - before;
            before = b.end;
            match runs.last_mut() {
                Some((a, count)) if *a == b.a => *count += n,
                _ => runs.push((b.a, n)),
            }
        }
        runs
    }
}

/// A database build driven from outside, one moment level at a time, for a caller that
/// shares each level between processes (the `mancala-mpi` command): every process holds all
/// the entries, computes its share of a level ([`LevelBuild::compute`]), sends its share's
/// values to the others ([`LevelBuild::export`]) and takes theirs in
/// ([`LevelBuild::import`]) before the next level. The order of the levels is the one of
/// [`Egdb::build`](Egdb::build): layers k = 0, 1, …, K, and in each layer the moments
/// from (m − 1)·k down to 0 ([`LevelBuild::levels`]); an in-layer move always reaches a
/// higher moment, so a level reads only the layers below and the higher levels of its own
/// layer (module docs of [`crate::egdb`]). Finished layers can be saved and loaded back
/// ([`LevelBuild::layer_entries`], [`LevelBuild::load_layer`]) to resume a build.
/// [`LevelBuild::finish`] gives the same [`Egdb`], byte for byte, as
/// [`Egdb::build`](Egdb::build) of the same rules and K.
///
/// Nothing checks that the caller keeps the order: computing a level before the levels it
/// reads gives wrong entries (debug builds assert), never undefined behaviour.
pub struct LevelBuild {
    rules: KalahRules,
    max_seeds: u32,
    flags: Flags,
    rows: Rows,
    buf: ZeroedBuf<AtomicU8>,
}

impl std::fmt::Debug for LevelBuild {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "LevelBuild({}, K = {})", self.rules, self.max_seeds)
    }
}

/// Calls `$f::<M>(args)` with the const `M` = the build's m (1..=7).
macro_rules! with_m {
    ($m:expr, $f:ident, $($arg:expr),*) => {
        match $m {
            1 => $f::<1>($($arg),*),
            2 => $f::<2>($($arg),*),
            3 => $f::<3>($($arg),*),
            4 => $f::<4>($($arg),*),
            5 => $f::<5>($($arg),*),
            6 => $f::<6>($($arg),*),
            _ => $f::<7>($($arg),*),
        }
    };
}

impl LevelBuild {
    /// An empty build (every entry unknown) of the database of `rules` (its m and
    /// value-relevant options) and K = `max_seeds`: C(K+2m, 2m) bytes of memory.
    ///
    /// # Errors
    /// [`EgdbError::Unsupported`] when K > 127 or the database would exceed
    /// [`MAX_ENTRIES`](crate::egdb::MAX_ENTRIES) entries,
    /// [`EgdbError::MoreSeedsThanTheGame`] when K is above the seeds of the game of `rules`
    /// (2·m·n), [`EgdbError::OutOfMemory`] when its
    /// entries do not fit in memory.
    pub fn new(rules: &KalahRules, max_seeds: u32) -> Result<LevelBuild, EgdbError> {
        let m = rules.houses();
        let total = check_build(rules, max_seeds)?;
        let options = rules.options().database_relevant();
        let buf = ZeroedBuf::<AtomicU8>::new(total as usize)?;
        Ok(LevelBuild {
            rules: *rules,
            max_seeds,
            flags: Flags::from(options),
            rows: Rows::new(m as usize, max_seeds),
            buf,
        })
    }

    /// K: the largest layer.
    #[must_use]
    pub fn max_seeds(&self) -> u32 {
        self.max_seeds
    }

    /// Entries of the whole database, C(K+2m, 2m).
    #[must_use]
    pub fn total(&self) -> u64 {
        self.buf.as_slice().len() as u64
    }

    fn m(&self) -> usize {
        self.rules.houses() as usize
    }

    /// The levels of layer `k` (0..=K) in the order they must be computed: moments
    /// (m − 1)·k down to 0. Empty levels are left out.
    #[must_use]
    pub fn levels(&self, k: u32) -> Vec<Level> {
        let top = (self.m() as u32 - 1) * k;
        (0..=top)
            .rev()
            .map(|moment| {
                let mut blocks = Vec::new();
                with_m!(self.m(), level_blocks, &self.rows, k, moment, &mut blocks);
                Level { k, moment, blocks }
            })
            .filter(|l| !l.is_empty())
            .collect()
    }

    /// The entries of layer `k` occupy `range` of [`LevelBuild::layer_entries`]'s order: the
    /// ranks of the positions with k seeds in the houses, `[C(k+2m−1, 2m), C(k+2m, 2m))`.
    #[must_use]
    pub fn layer_range(&self, k: u32) -> std::ops::Range<u64> {
        layer_start(self.m(), k)..layer_start(self.m(), k + 1)
    }

    /// Computes the positions `from..to` of `level` (walk order) on the current rayon pool,
    /// in work items of a few thousand positions. Every layer below `level`'s and every
    /// earlier level of its layer must be complete (computed or imported) in this build.
    ///
    /// # Panics
    /// When `from > to` or `to > level.len()` (a caller's bug, not bad input).
    pub fn compute(&self, level: &Level, from: u64, to: u64) {
        assert!(
            from <= to && to <= level.len(),
            "positions out of the level"
        );
        fn go<const M: usize>(b: &LevelBuild, level: &Level, from: u64, to: u64) {
            let sow = Sow::<M>::new(b.flags);
            let data = b.buf.as_slice();
            // Every layer in slot order in one buffer: the layer under construction is its
            // part `start..end`, and a child anywhere is read at its slot.
            let range = b.layer_range(level.k);
            let builder = Builder::<M, Bytes<'_, false>> {
                sow: &sow,
                rows: &b.rows,
                target: &Bytes { data },
                layer: &data[range.start as usize..range.end as usize],
                k: level.k,
                start: range.start,
            };
            let chunks = (to - from).div_ceil(CHUNK);
            let run = |c: u64| {
                let lo = from + c * CHUNK;
                builder.run_chunk(&level.blocks, lo, (lo + CHUNK).min(to));
            };
            if chunks <= 1 {
                (0..chunks).for_each(run);
            } else {
                (0..chunks).into_par_iter().for_each(run);
            }
        }
        with_m!(self.m(), go, self, level, from, to);
    }

    /// Appends to `out` the entries of the positions `from..to` of `level`, in walk order
    /// (one excess-128 byte each, see [`decode`]).
    ///
    /// # Panics
    /// As [`LevelBuild::compute`].
    pub fn export(&self, level: &Level, from: u64, to: u64, out: &mut Vec<u8>) {
        assert!(
            from <= to && to <= level.len(),
            "positions out of the level"
        );
        fn go<const M: usize>(
            b: &LevelBuild,
            level: &Level,
            from: u64,
            to: u64,
            out: &mut Vec<u8>,
        ) {
            if from == to {
                return;
            }
            let data = b.buf.as_slice();
            let mut walk = Walk::<M>::new(&b.rows, &level.blocks, from);
            out.extend((from..to).map(|_| data[walk.next().2 as usize].load(Ordering::Relaxed)));
        }
        with_m!(self.m(), go, self, level, from, to, out);
    }

    /// Stores `entries`, the values of the positions `from..from + entries.len()` of `level`
    /// in walk order, as [`LevelBuild::export`] gave them (from another process).
    ///
    /// # Panics
    /// When the positions are not all in the level.
    pub fn import(&self, level: &Level, from: u64, entries: &[u8]) {
        let to = from + entries.len() as u64;
        assert!(to <= level.len(), "positions out of the level");
        fn go<const M: usize>(b: &LevelBuild, level: &Level, from: u64, entries: &[u8]) {
            if entries.is_empty() {
                return;
            }
            let data = b.buf.as_slice();
            let mut walk = Walk::<M>::new(&b.rows, &level.blocks, from);
            for &e in entries {
                data[walk.next().2 as usize].store(e, Ordering::Relaxed);
            }
        }
        with_m!(self.m(), go, self, level, from, entries);
    }

    /// The entries of layer `k` as they are held during the build (the ranks of
    /// [`LevelBuild::layer_range`], permuted inside each window of positions sharing the
    /// opponent's row and the mover's seed count: the module docs of [`crate::egdb`] call it
    /// slot order), for a checkpoint that [`LevelBuild::load_layer`] reads back.
    #[must_use]
    pub fn layer_entries(&self, k: u32) -> Vec<u8> {
        let r = self.layer_range(k);
        self.buf.as_slice()[r.start as usize..r.end as usize]
            .iter()
            .map(|x| x.load(Ordering::Relaxed))
            .collect()
    }

    /// Stores layer `k` from a checkpoint ([`LevelBuild::layer_entries`] of a build of the
    /// same rules and K).
    ///
    /// # Errors
    /// [`EgdbError::Header`] when `entries` has not the layer's length, and
    /// [`EgdbError::BadEntry`] (with the entry's index in the build's order) when an entry is
    /// outside −k..=k: such a checkpoint is not used.
    pub fn load_layer(&self, k: u32, entries: &[u8]) -> Result<(), EgdbError> {
        let r = self.layer_range(k);
        if entries.len() as u64 != r.end - r.start {
            return Err(EgdbError::Header(format!(
                "layer {k} holds {} entries, not {}",
                entries.len(),
                r.end - r.start
            )));
        }
        if let Some(i) = entries
            .iter()
            .position(|&e| e == UNKNOWN || decode(e).unsigned_abs() > k)
        {
            return Err(EgdbError::BadEntry {
                rank: r.start + i as u64,
                seeds: k,
                value: decode(entries[i]),
            });
        }
        let data = &self.buf.as_slice()[r.start as usize..r.end as usize];
        for (x, &e) in data.iter().zip(entries) {
            x.store(e, Ordering::Relaxed);
        }
        Ok(())
    }

    /// The database, once every level of every layer is complete: the entries put back in
    /// rank order (on the current rayon pool), the same bytes as
    /// [`Egdb::build`](Egdb::build)'s.
    #[must_use]
    pub fn finish(self) -> Egdb {
        let data = self.buf.as_slice();
        debug_assert!(data.iter().all(|x| x.load(Ordering::Relaxed) != UNKNOWN));
        fn to_rank_order<const M: usize>(rows: &Rows, max_seeds: u32, data: &[AtomicU8]) {
            for k in 0..=max_seeds {
                layer_to_rank_order::<M>(rows, k, data);
            }
        }
        with_m!(self.m(), to_rank_order, &self.rows, self.max_seeds, data);
        Egdb::built(
            &self.rules,
            self.max_seeds,
            Encoding::Byte,
            self.buf.freeze(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::LevelBuild;
    use crate::egdb::{BuildOptions, Egdb};

    /// A build shared between two [`LevelBuild`]s (each level cut in three, the middle
    /// third computed by the other and exchanged), with one of them replaced halfway by a
    /// third one resumed from layer checkpoints, gives the entries of the one-piece build
    /// (which `every_entry_equals_a_plain_minimax` checks against a plain minimax).
    #[test]
    fn a_build_shared_by_levels_equals_the_whole_build() {
        let sizes: &[(usize, u32)] = if cfg!(miri) {
            &[(2, 3)]
        } else {
            &[(1, 12), (3, 8), (6, 6)]
        };
        for &(m, k) in sizes {
            for bits in [0u32, 1, 6] {
                // n = 6: at least K seeds in the game (2·m·n ≥ K) for every size here.
                let mut text = format!("kalah({m},6)");
                for (bit, name) in [
                    (1, "empty_capture"),
                    (2, "end_when_no_move"),
                    (4, "discard_remaining"),
                ] {
                    if bits & bit != 0 {
                        text.push('+');
                        text.push_str(name);
                    }
                }
                let rules: mancala_core::kalah::KalahRules = text.parse().unwrap();
                let whole = Egdb::build(&rules, k, BuildOptions::new()).unwrap();
                let a = LevelBuild::new(&rules, k).unwrap();
                let mut b = LevelBuild::new(&rules, k).unwrap();
                assert_eq!(a.total(), whole.len() as u64);
                let mut exported = Vec::new();
                for layer in 0..=k {
                    if layer == k / 2 {
                        // B is lost; C takes its place from A's checkpoints of the layers so far.
                        let c = LevelBuild::new(&rules, k).unwrap();
                        for j in 0..layer {
                            c.load_layer(j, &a.layer_entries(j)).unwrap();
                        }
                        b = c;
                    }
                    for level in a.levels(layer) {
                        let n = level.len();
                        assert_eq!(level.by_own_seeds().iter().map(|r| r.1).sum::<u64>(), n);
                        let (x, y) = (n / 3, 2 * n / 3);
                        a.compute(&level, y, n);
                        a.compute(&level, 0, x);
                        b.compute(&level, x, y);
                        exported.clear();
                        b.export(&level, x, y, &mut exported);
                        a.import(&level, x, &exported);
                        for (from, to) in [(0, x), (y, n)] {
                            exported.clear();
                            a.export(&level, from, to, &mut exported);
                            b.import(&level, from, &exported);
                        }
                    }
                }
                let a_layers: Vec<Vec<u8>> = (0..=k).map(|j| a.layer_entries(j)).collect();
                let (a, b) = (a.finish(), b.finish());
                assert_eq!(a.payload(), whole.payload(), "{text} K = {k}");
                assert_eq!(b.payload(), whole.payload(), "{text} K = {k}");
                // A checkpoint with an impossible value is refused.
                let c = LevelBuild::new(&rules, k).unwrap();
                let mut bad = a_layers[1].clone();
                bad[0] = 128 + 3;
                assert!(c.load_layer(1, &bad).is_err());
                assert!(c.load_layer(1, &a_layers[2]).is_err());
            }
        }
    }
}
