//! Parallel MTD(f) driver (Plaat, Schaeffer, Pijls & de Bruin 1996) over a shared table.
//!
//! One searcher runs the sequence of null-window probes; inside each probe, nodes split their
//! younger brothers over the pool's threads (young brothers wait on rayon's work-stealing
//! `join`, [`super::search`]). Every bound a searcher stores or returns is proven, and a
//! node's value is combined from its children's proven bounds whatever order they finished
//! in, so the value and the best-move set are the same for any number of threads (only the
//! node count and time change). One thread searches node for node as the serial search.
//!
//! Before, every thread ran the whole probe sequence with its own move order, sharing results
//! through the table ("lazy SMP"); two threads gave only 1.3–1.5× one thread on Kalah(6,4)
//! (docs/performance-history.md, "Parallel search").

use std::sync::atomic::{AtomicUsize, Ordering};

use super::search::{Searcher, Shared};
use crate::board::Geometry;
use crate::tt::TranspositionTable;

/// What a driver run proved: `lower ≤ v ≤ upper`; `exact` when they meet.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Proven {
    pub lower: i32,
    pub upper: i32,
}

impl Proven {
    pub(crate) fn exact(&self) -> bool {
        self.lower == self.upper
    }
}

/// Everything a search thread needs, borrowed.
pub(crate) struct Ctx<'a, const M: usize, T: TranspositionTable> {
    pub g: &'a Geometry<M>,
    pub tt: &'a T,
    pub db: Option<(crate::egdb::Probe<'a>, u32)>,
    pub pool: &'a rayon::ThreadPool,
    /// Where each probe's proven bounds are published for progress reports.
    pub progress: Option<&'a super::progress::Board>,
}

impl<const M: usize, T: TranspositionTable> Ctx<'_, M, T> {
    /// MTD(f): null-window probes `f(searcher, β−1, β)` (f must be a fail-soft search of the
    /// value) from `guess` until `lower == upper`, within the starting interval
    /// `[lower, upper]`. One searcher drives the probes on the pool; the other threads join in
    /// at its split points (young brothers wait, [`super::search`]).
    pub(crate) fn mtd<F>(&self, shared: &Shared, lower: i32, upper: i32, guess: i32, f: F) -> Proven
    where
        F: Fn(&mut Searcher<'_, M, T>, i32, i32) -> i32 + Sync,
    {
        self.mtd_within(shared, lower, upper, (i32::MIN, i32::MAX), guess, f)
    }

    /// MTD(f) restricted to the open window `(alpha, beta)` (`alpha < beta`): the probes of
    /// [`Ctx::mtd`], each β clamped into `alpha + 1 ..= beta` as well as into the interval
    /// proven so far, until the value is exact, proven `≤ alpha`, or proven `≥ beta` (or a
    /// limit stops it). The window `(i32::MIN, i32::MAX)` is [`Ctx::mtd`] itself, probe for
    /// probe. A window narrower than the starting interval saves the probes outside it: a
    /// null window `(β − 1, β)` is one probe.
    pub(crate) fn mtd_within<F>(
        &self,
        shared: &Shared,
        lower: i32,
        upper: i32,
        (alpha, beta): (i32, i32),
        guess: i32,
        f: F,
    ) -> Proven
    where
        F: Fn(&mut Searcher<'_, M, T>, i32, i32) -> i32 + Sync,
    {
        debug_assert!(alpha < beta);
        self.pool.install(|| {
            let mut s = Searcher::new(self.g, self.tt, self.db, shared);
            let (mut lo, mut hi) = (lower, upper);
            let mut g = guess.clamp(lo, hi);
            // In the loop lo < hi, hi > alpha and lo < beta, so the clamp's range
            // max(lo + 1, alpha + 1) ..= min(hi, beta) is never empty.
            while lo < hi && hi > alpha && lo < beta {
                let probe = g.clamp(lo.max(alpha) + 1, hi.min(beta));
                let v = f(&mut s, probe - 1, probe);
                if s.aborted {
                    break;
                }
                if v < probe {
                    hi = v.max(lo);
                } else {
                    lo = v.min(hi);
                }
                if let Some(b) = self.progress {
                    b.narrow(lo, hi);
                }
                g = v;
            }
            s.finish();
            Proven {
                lower: lo,
                upper: hi,
            }
        })
    }

    /// A first guess for MTD(f): the heuristic estimate of `pos` to `depth` plies.
    pub(crate) fn guess(
        &self,
        shared: &Shared,
        pos: &mancala_core::kalah::KalahPosition,
        depth: u32,
    ) -> i32 {
        self.pool.install(|| {
            let mut s = Searcher::new(self.g, self.tt, self.db, shared);
            let v = s.estimate_pos(pos, depth);
            s.finish();
            v
        })
    }

    /// Null-window tests of several independent items at once: for each item `x` of
    /// `items`, whether `f(searcher, x, target − 1, target)` (a fail-soft search of the
    /// item's value) is at least `target`. The threads of the pool take the items in turn
    /// (one item is searched by one thread), so the answers are the same for any number of
    /// threads. `None` for an item whose test was stopped by a limit.
    pub(crate) fn at_least_each<X, F>(
        &self,
        shared: &Shared,
        target: i32,
        items: &[X],
        f: F,
    ) -> Vec<Option<bool>>
    where
        X: Sync,
        F: Fn(&mut Searcher<'_, M, T>, &X, i32, i32) -> i32 + Sync,
    {
        let next = AtomicUsize::new(0);
        let per_thread = self.pool.broadcast(|_| {
            let mut s = Searcher::new(self.g, self.tt, self.db, shared);
            let mut done = Vec::new();
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(x) = items.get(i) else { break };
                let v = f(&mut s, x, target - 1, target);
                done.push((i, (!s.aborted).then_some(v >= target)));
                if s.aborted {
                    break;
                }
            }
            s.finish();
            done
        });
        let mut out = vec![None; items.len()];
        for (i, r) in per_thread.into_iter().flatten() {
            out[i] = r;
        }
        out
    }

    /// One null-window test on the first thread only: whether `f`'s value is at least
    /// `target`. `None` when stopped by a limit.
    pub(crate) fn at_least<F>(&self, shared: &Shared, target: i32, f: F) -> Option<bool>
    where
        F: Fn(&mut Searcher<'_, M, T>, i32, i32) -> i32 + Sync,
    {
        self.pool.install(|| {
            let mut s = Searcher::new(self.g, self.tt, self.db, shared);
            let v = f(&mut s, target - 1, target);
            s.finish();
            (!s.aborted).then_some(v >= target)
        })
    }
}
