//! An Awari database built by several processes together (`mancala-mpi egdb build --rules
//! awari`): each level's boards are cut into one index range a part, each part solves its
//! range, and the parts exchange what crosses the cuts.
//!
//! # The method
//!
//! The level solve of the one-process build ([`super::AwariDb::build`]: thresholds
//! t = n … 1, the sets W_t and L_t grown by predecessor counters), with the boards of the level shared out: part p owns the boards of
//! indexes `bounds[p]..bounds[p + 1]` ([`split`]), holds their e(x), state and value, and
//! every level below in full (a capture can reach any board of any lower level). At each
//! threshold a part seeds its own boards and processes what they resolve, as one process
//! does; when a resolved board's predecessor belongs to another part, the part sends it a
//! message (the predecessor's index, and whether the child entered W or L) instead of
//! updating it. Then the parts exchange their messages ([`Exchange::exchange`]), apply what
//! they received (which may resolve more boards and send more messages), and so on in
//! rounds until a round in which no part sent anything: the threshold is done everywhere.
//! After the last threshold the parts gather the level's values so that every part holds the
//! whole level for the levels above ([`Exchange::gather`]).
//!
//! # Why the result is the one-process result, byte for byte
//!
//! Each message is one step of the closure of `retro`'s proof: a child y entering W
//! decrements the counter of its predecessor x once (y is resolved once, by its owner, who
//! lists its predecessors once), and a child entering L puts x into W. The sets reached are
//! least fixed points of a monotone closure, which do not depend on the order in which the
//! steps are taken, nor on which process takes them; a threshold ends when no part can take
//! a step (every part's stack is empty and no message is in flight, which the round with no
//! message shows). So every board gets the value [`super::AwariDb::build`] gives it, and the
//! file written from the levels is the same file.

use std::ops::Range;

use rayon::prelude::*;

use super::board::H;
use super::rank::{level_len, rank_rows, LevelWalk};
use super::retro::{predecessors_g, Group, LevelStats, LevelTimes, CHUNK, GROUP};

/// State bit: the board's value is final.
const RESOLVED: u8 = 0x80;
/// State bits: inner moves whose child is not yet known to be in W (0..=6).
const COUNT: u8 = 0x07;
/// Message and stack bit: the board entered W (else L).
const WIN: u64 = 1 << 63;

/// How the parts of a build talk to each other (an MPI communicator in `mancala-mpi`; a
/// test runs parts on threads). Every part calls each method the same number of times in
/// the same order (collective operations).
pub trait Exchange {
    /// The number of parts (at least 1).
    fn parts(&self) -> usize;
    /// This part, `0..parts()`.
    fn part(&self) -> usize;
    /// Sends `out[q]` to part q (`out.len() == parts()`; `out[part()]` is empty) and returns
    /// every message sent to this part in the round, in any order, with the number of
    /// messages all parts sent in the round.
    fn exchange(&mut self, out: &[Vec<u64>]) -> (Vec<u64>, u64);
    /// Every part's share of a level, concatenated in part order: `mine` is this part's
    /// (`shares[part()]` bytes), `shares[q]` the bytes of part q.
    fn gather(&mut self, mine: &[u8], shares: &[usize]) -> Vec<u8>;
}

/// The index ranges of level `n` of `parts` parts: as equal as can be, in order, covering
/// the level. `None` when `n` is above [`super::MAX_SEEDS`] or `parts` is 0.
#[must_use]
pub fn split(n: u32, parts: usize) -> Option<Vec<Range<u64>>> {
    let len = level_len(n)?;
    if parts == 0 {
        return None;
    }
    let p = parts as u64;
    Some((0..p).map(|q| (len * q / p)..(len * (q + 1) / p)).collect())
}

/// One part's boards of one level, under the grand-slam rule of code `G`.
pub(crate) struct Shard<const G: u8> {
    n: u32,
    range: Range<u64>,
    /// Where each part's range starts, and the level's length last.
    starts: Vec<u64>,
    /// e(x) until resolved, then the value.
    val: Vec<i8>,
    /// RESOLVED and the counter.
    state: Vec<u8>,
    /// Resolved boards whose predecessors are not listed yet: rows, WIN when in W.
    stack: Vec<(u64, u64)>,
    /// Messages to each part.
    out: Vec<Vec<u64>>,
    /// Scratch: predecessors of the board being processed.
    preds: Vec<u64>,
}

impl<const G: u8> Shard<G> {
    /// Part `part` of `ranges` (from [`split`]) of level `n` under the grand-slam rule of
    /// code `G`, with its forward pass done on the current rayon pool; `lower[k]` is level k
    /// in full.
    pub(crate) fn new(n: u32, ranges: &[Range<u64>], part: usize, lower: &[&[u8]]) -> Shard<G> {
        let range = ranges[part].clone();
        let len = (range.end - range.start) as usize;
        let mut val = vec![0i8; len];
        let mut state = vec![0u8; len];
        let chunk = CHUNK as usize;
        val.par_chunks_mut(chunk)
            .zip(state.par_chunks_mut(chunk))
            .enumerate()
            .for_each(|(c, (val, state))| {
                let lo = range.start + (c * chunk) as u64;
                let mut walk = LevelWalk::at(n, lo).expect("index in level");
                let mut group = Group::default();
                let mut i = 0;
                while i < val.len() {
                    let g = (val.len() - i).min(GROUP);
                    for k in 0..g {
                        group.add::<G>(k, n, walk.mover, walk.opp, lower);
                        walk.advance();
                    }
                    for k in 0..g {
                        let (e, inner) = group.finish(k, lower);
                        val[i + k] = e;
                        state[i + k] = inner;
                    }
                    i += g;
                }
            });
        let mut starts: Vec<u64> = ranges.iter().map(|r| r.start).collect();
        starts.push(ranges.last().map_or(0, |r| r.end));
        Shard {
            n,
            range,
            starts,
            val,
            state,
            stack: Vec::new(),
            out: vec![Vec::new(); ranges.len()],
            preds: Vec::with_capacity(2 * H),
        }
    }

    /// The part that owns board `r`.
    fn owner(&self, r: u64) -> usize {
        self.starts.partition_point(|&s| s <= r) - 1
    }

    /// Seeds threshold `t` on this part's boards and processes everything they resolve here.
    pub(crate) fn seed(&mut self, t: i8) {
        let mut walk = match LevelWalk::at(self.n, self.range.start) {
            Some(w) if self.range.start < self.range.end => w,
            _ => return,
        };
        for i in 0..self.val.len() {
            if i > 0 {
                walk.advance();
            }
            let st = self.state[i];
            if st & RESOLVED != 0 {
                continue;
            }
            let e = self.val[i];
            let win = if e == t {
                true
            } else if st & COUNT == 0 && e == -t {
                false
            } else {
                continue;
            };
            self.state[i] = RESOLVED;
            self.val[i] = if win { t } else { -t };
            self.stack
                .push((walk.mover | if win { WIN } else { 0 }, walk.opp));
            self.process(t);
        }
    }

    /// Applies the messages `inbox` (this part's boards whose child entered W or L) at
    /// threshold `t` and processes what they resolve.
    pub(crate) fn receive(&mut self, t: i8, inbox: &[u64]) {
        for &m in inbox {
            self.update(t, m & !WIN, m & WIN != 0);
        }
        self.process(t);
    }

    /// The messages of the round to each part, taken.
    pub(crate) fn take_out(&mut self) -> Vec<Vec<u64>> {
        let parts = self.out.len();
        std::mem::replace(&mut self.out, vec![Vec::new(); parts])
    }

    /// The update of this part's board `r` whose inner child entered W (`child_win`) or L;
    /// a board it resolves goes on the stack.
    fn update(&mut self, t: i8, r: u64, child_win: bool) {
        let i = (r - self.range.start) as usize;
        let st = self.state[i];
        if st & RESOLVED != 0 {
            return;
        }
        let entered_l = if child_win {
            // One inner move fewer outside W; the last one puts x in L_t if e(x) ≤ −t.
            debug_assert!(st & COUNT > 0, "counter underflow");
            if st & COUNT == 1 && self.val[i] <= -t {
                true
            } else {
                self.state[i] = st - 1;
                return;
            }
        } else {
            false
        };
        self.state[i] = RESOLVED;
        self.val[i] = if entered_l { -t } else { t };
        let w = LevelWalk::at(self.n, r).expect("index in level");
        self.stack
            .push((w.mover | if entered_l { 0 } else { WIN }, w.opp));
    }

    /// Lists the predecessors of every board on the stack: this part's are updated, the
    /// others' become messages.
    fn process(&mut self, t: i8) {
        while let Some((m, opp)) = self.stack.pop() {
            let win = m & WIN;
            let n = self.n;
            let mut preds = std::mem::take(&mut self.preds);
            preds.clear();
            predecessors_g::<G>(n, m & !WIN, opp, |xm, xo| preds.push(rank_rows(n, xm, xo)));
            for &r in &preds {
                if self.range.contains(&r) {
                    self.update(t, r, win != 0);
                } else {
                    let q = self.owner(r);
                    self.out[q].push(r | win);
                }
            }
            self.preds = preds;
        }
    }

    /// This part's values (unresolved boards are worth 0), one byte a board.
    pub(crate) fn finish(self) -> Vec<u8> {
        self.val
            .iter()
            .zip(&self.state)
            .map(|(&v, &s)| if s & RESOLVED == 0 { 0 } else { v as u8 })
            .collect()
    }
}

/// The counts of a whole level of values.
pub(crate) fn level_stats(n: u32, values: &[u8]) -> LevelStats {
    let mut s = LevelStats {
        seeds: n,
        ..LevelStats::default()
    };
    for &b in values {
        let v = b as i8;
        s.boards += 1;
        s.sum += i64::from(v);
        match v.signum() {
            1 => s.wins += 1,
            0 => s.draws += 1,
            _ => s.losses += 1,
        }
    }
    s
}

/// Solves level `n` under the grand-slam rule of code `G` as part `ex.part()` of
/// `ex.parts()`, given every level below in full;
/// the forward pass runs on `pool`, the rest (and every call of `ex`) on the calling thread;
/// returns the whole level (gathered from every part) and this part's times (`retro`
/// includes the exchanges; `rescans` is the number of exchange rounds).
pub(crate) fn solve_level_shared<const G: u8>(
    n: u32,
    lower: &[&[u8]],
    pool: &crate::pool::Pool,
    ex: &mut dyn Exchange,
) -> (Vec<u8>, LevelTimes) {
    let ranges = split(n, ex.parts()).expect("level within MAX_SEEDS, parts ≥ 1");
    let mut times = LevelTimes::default();
    let t0 = std::time::Instant::now();
    let part = ex.part();
    let mut shard = pool.install(|| Shard::<G>::new(n, &ranges, part, lower));
    times.forward = t0.elapsed().as_secs_f64();
    let t1 = std::time::Instant::now();
    for t in (1..=n as i8).rev() {
        shard.seed(t);
        loop {
            let out = shard.take_out();
            let (inbox, total) = ex.exchange(&out);
            times.rescans += 1;
            if total == 0 {
                break;
            }
            shard.receive(t, &inbox);
        }
    }
    let shares: Vec<usize> = ranges.iter().map(|r| (r.end - r.start) as usize).collect();
    let mine = shard.finish();
    let level = ex.gather(&mine, &shares);
    times.retro = t1.elapsed().as_secs_f64();
    (level, times)
}
