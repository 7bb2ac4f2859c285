//! The solve of one level (every indexed board of n seeds) by retrograde analysis with
//! cycles: thresholds from n down to 1, attractors grown by predecessor counters.
//!
//! # The game inside a level
//!
//! Fix n and assume the values of every level below n are known. A board x of level n is
//! decided by its legal moves under the build's grand-slam rule (OW-4.2, OW-5; the board
//! module): a board whose mover has no seed is worth −n (OW-6.3); under `unless_only` a
//! board whose every move is eradicating is worth +n (the opponent is left without a move
//! and every seed left is the mover's); under the other rules a board whose mover has seeds
//! and no legal move is worth his row minus the opponent's (OW-6.3). Otherwise each legal
//! move either captures c > 0 seeds, reaching a known board y of level n − c and giving
//! `c − v(y)` (an **exit**; a grand slam of `all` reaches a board whose mover has no seed),
//! or captures nothing and stays in level n (OW-10.5; a grand slam of `none`, or of
//! `leave_last` ending in the opponent's house 1, is one), giving `−v(y)` for a board y of
//! level n (an **inner move**). Let `e(x)` be the best exit of x (−∞ without one; the fixed
//! cases count as one exit of their value). The rule only changes which moves there are and
//! what they capture: everything below holds for each.
//! Inside the level nothing is captured, so the game is a *terminal-payoff game*: a play
//! either takes an exit, and the mover at that moment gains its value, or stays in the level
//! for ever, which is scored 0 (cycles split evenly, OW-10.3).
//!
//! # The method
//!
//! For t = 1..=n let W_t be the boards of value ≥ t and L_t those of value ≤ −t (for the
//! mover). They are the least sets closed under
//!
//! ```text
//! x ∈ W_t  if  e(x) ≥ t, or x has an inner move to some y ∈ L_t;
//! x ∈ L_t  if  e(x) ≤ −t and every inner move of x goes to W_t.
//! ```
//!
//! The build computes them from t = n down to 1, growing W and L as t falls: W_t ⊇ W_{t+1}
//! and L_t ⊇ L_{t+1} (the conditions only weaken). For every board it keeps `e(x)` and a
//! counter of the inner moves whose child is not yet in W. At threshold t it **seeds** the
//! boards with e(x) = t (into W) and those whose counter is 0 with e(x) = −t (into L), then
//! **propagates**: a board y entering W_t decrements the counter of each predecessor x (a
//! board with an inner move to y, found by un-moving: [`predecessors_g`]), which enters L_t
//! when its counter reaches 0 and e(x) ≤ −t; a board y entering L_t puts each unresolved
//! predecessor into W_t. A board entering at threshold t has value exactly ±t (it was not in
//! W_{t+1} ∪ L_{t+1}). What no threshold reaches is worth 0.
//!
//! # Why this is the value (with endless play = 0), whatever the order of work
//!
//! *The sets are the least fixed points.* At threshold t, every step adds a board that the
//! closure rules force in, given boards already in: a seed satisfies the rule by e(x)
//! (for L: the counter 0 says every inner child is in W_{t'} ⊆ W_t); a propagated W board has
//! a child in L_t; a propagated L board has all its inner children in W_t and e(x) ≤ −t. So
//! everything added is in the least fixed point. Conversely, when the threshold ends no rule
//! can add a board: a board with e(x) ≥ t was seeded at threshold e(x) ≥ t (or entered
//! earlier); a board with a child in L_t was reached when that child was processed (every
//! board that enters is processed exactly once before the threshold ends: it is put on a
//! thread's stack or, when the stack is full, flagged and found by a rescan, repeated until no
//! flag remains); a board whose inner children are all in W_t has had its counter decremented
//! by each of them, so it entered when the last one did if e(x) ≤ −t then, or it is seeded at
//! threshold −e(x) ≥ t. A monotone closure reaches the same least fixed point in any order,
//! so the thread count and the interleaving change nothing: the result is deterministic.
//!
//! *The least fixed points are the value.* If x ∈ W_t, the mover wins at least t: order the
//! boards of W_t ∪ L_t by the step at which they entered; from x ∈ W_t the mover takes the
//! exit of value ≥ t or moves to the earlier y ∈ L_t that put x in; from y ∈ L_t every move
//! of the opponent takes an exit worth ≤ −t to him or goes to an earlier board of W_t. Each
//! step goes to an earlier board, so an exit is reached in finitely many moves, worth ≥ t to
//! the mover (the signs alternate with the turns). Symmetrically x ∈ L_t loses at least t.
//! If x ∉ W_t, the opponent keeps the mover below t: from a board outside W_t every exit is
//! < t and every inner move goes outside L_t; from a board outside L_t (with the opponent to
//! move, seen as the mover of that board) some move is an exit > −t or an inner move to a
//! board outside W_t (the complement of a least fixed point is closed under these "escape"
//! moves). Playing them, either the play stays in the level for ever — scored 0 < t — or an
//! exit is taken that is < t for the mover. So v(x) ≥ t ⟺ x ∈ W_t, and v(x) ≤ −t ⟺ x ∈ L_t;
//! a board in neither has value 0, which is the even split of endless play. The strategies
//! used are memoryless, so the value does not depend on the history, and a repetition scored
//! as an even split (OW-6.2) gives the same value as endless play (OW-10.3).
//!
//! *Inner moves and counters agree.* [`predecessors_g`] lists exactly the boards x with a
//! legal move capturing nothing to y, each once (two moves of one board never give
//! the same child: each empties its own house and the other move's house is not empty), and
//! the forward pass counts exactly those moves; a test checks the two against each other on
//! whole levels under every rule.
//!
//! # Memory
//!
//! Per board of the level: its value byte (holding e(x) until the board is resolved; the
//! level's entry afterwards) and a state byte (resolved, pending, the counter 0..=6), both in
//! huge-page anonymous memory; the levels below, one byte a board. So n = 30 needs
//! 2 · 2.74 GB + 7.06 GB ≈ 12.5 GB at the peak. Each thread's stack of boards to process
//! holds at most [`STACK_CAP`] entries (1 MiB).

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};

use rayon::prelude::*;

use super::board::{
    classify_g, fixed_value, has_empty, lane, Child, Class, GS_LEAVE_LAST, GS_NONE, H, HIGH,
};
use super::rank::{level_len, rank_rows, Block, LevelWalk, RowTable};
use crate::mem::{prefetch, prefetch_ptr, FrozenBytes, OutOfMemory, ZeroedBuf};
use std::cell::Cell;

/// State bit: the board's value is final.
const RESOLVED: u8 = 0x80;
/// State bit: resolved, but its predecessors are not processed yet (its thread's stack was
/// full); a rescan finds it.
const PENDING: u8 = 0x40;
/// State bits: inner moves whose child is not yet known to be in W (0..=6).
const COUNT: u8 = 0x07;
/// e(x) of a board without exit.
pub(crate) const NO_EXIT: i8 = i8::MIN;
/// Boards a work item of the forward pass and of a scan covers (a multiple of 8).
pub(crate) const CHUNK: u64 = 1 << 15;
/// The most entries of a thread's stack of resolved boards (16 bytes each).
pub(crate) const STACK_CAP: usize = 1 << 16;

/// The state bytes of a level, eight to a word so that a scan reads eight at once.
struct States<'a>(&'a [AtomicU64]);

impl States<'_> {
    #[inline(always)]
    fn word(&self, i: u64) -> (&AtomicU64, u32) {
        (&self.0[(i / 8) as usize], 8 * (i % 8) as u32)
    }

    /// Applies `f` to the state of board `i` atomically; the old state when `f` changed it.
    #[inline(always)]
    fn update(&self, i: u64, f: impl Fn(u8) -> Option<u8>) -> Option<u8> {
        let (w, sh) = self.word(i);
        w.fetch_update(Ordering::AcqRel, Ordering::Acquire, |x| {
            f((x >> sh) as u8).map(|b| (x & !(0xFF << sh)) | (u64::from(b) << sh))
        })
        .ok()
        .map(|x| (x >> sh) as u8)
    }

    /// Sets the pending bit of board `i` (after its value was written).
    #[inline(always)]
    fn set_pending(&self, i: u64) {
        let (w, sh) = self.word(i);
        w.fetch_or(u64::from(PENDING) << sh, Ordering::Release);
    }

    /// Clears the pending bit of board `i`; whether it was set.
    #[inline(always)]
    fn claim(&self, i: u64) -> bool {
        let (w, sh) = self.word(i);
        w.fetch_and(!(u64::from(PENDING) << sh), Ordering::AcqRel) & (u64::from(PENDING) << sh) != 0
    }
}

/// Calls `f(mover, opp)` for every board x of level `n` (rows of x's mover and opponent)
/// with a legal move capturing nothing to the board y = (`y_mover`, `y_opp`) under the
/// grand-slam rule of code `G`, each such board once, and only indexed ones (x's opponent
/// has an empty house, OW-11.1).
///
/// Un-moving: after the move, the houses are (x's mover's row = y's opponent's, x's
/// opponent's row = y's mover's). For each empty house i of the former (the origin is empty
/// after every move, OW-2.3) and each s = 1, 2, … the s seeds are taken back from the s
/// houses after i that received them (the origin skipped, laps included) while every house
/// has a seed to give; the move of s seeds from i captured nothing when its last house is
/// x's own or holds neither 2 nor 3 after the whole sowing, that is in y (OW-3.1, OW-3.3,
/// OW-3.4), or when it is a grand slam (the houses of y's mover up to the last all hold 2 or
/// 3, those after it none, OW-4.1) and the rule's grand slam captures nothing: under `none`
/// always, under `leave_last` when the last house is the opponent's house 1. The move is
/// legal when y's mover has a seed: it is not eradicating (OW-5.3), and it fed x's opponent
/// if his row was empty (OW-5.1); a move that captures nothing is no grand slam under the
/// other rules (`forbidden` forbids only those). With y's mover empty no move that captures
/// nothing is legal (an empty opponent left unfed), and none is counted forward.
#[inline]
pub(crate) fn predecessors_g<const G: u8>(
    n: u32,
    y_mover: u64,
    y_opp: u64,
    mut f: impl FnMut(u64, u64),
) {
    if y_mover == 0 {
        return;
    }
    for i in 0..H {
        if lane(y_opp, i) != 0 {
            continue;
        }
        let (mut own, mut opp) = (y_opp, y_mover);
        for s in 1..=u64::from(n) {
            let d = ((s - 1) % 11 + 1) as usize;
            let cell = (i + d) % 12;
            if cell < H {
                if lane(own, cell) == 0 {
                    break;
                }
                own -= 1 << (8 * cell);
            } else {
                let l = cell - H;
                if lane(opp, l) == 0 {
                    break;
                }
                opp -= 1 << (8 * l);
                // The count after the whole sowing decides the capture (OW-3.3).
                let k = lane(y_mover, l);
                if (k == 2 || k == 3) && !slam_kept::<G>(y_mover, l) {
                    continue;
                }
            }
            if has_empty(opp) {
                f(own | (s << (8 * i)), opp);
            }
        }
    }
}

/// Whether a sowing that left the opponent's row `row` with its last seed in lane `l`
/// (holding 2 or 3) is a grand slam that captures nothing under the rule of code `G`.
#[inline(always)]
fn slam_kept<const G: u8>(row: u64, l: usize) -> bool {
    if G != GS_NONE && G != GS_LEAVE_LAST {
        return false;
    }
    if G == GS_LEAVE_LAST && l != 0 {
        return false;
    }
    // Lanes 0..=l hold 2 or 3 each, the lanes after l nothing.
    let upto = (1u64 << (8 * l + 8)) - 1;
    let is23 = super::board::zero_lanes((row & 0x0000_FEFE_FEFE_FEFE) ^ 0x0000_0202_0202_0202);
    row & !upto == 0 && is23 & HIGH & upto == HIGH & upto
}

/// Boards of the forward pass whose lower-level reads are requested together.
pub(crate) const GROUP: usize = 16;

/// The forward pass's group of boards: for each, e(x) so far (the fixed cases), its inner
/// moves, and its captures' children (level, index, seeds captured). The levels below are
/// `lower` (entry r of `lower[k]` is the value of the board of index r of level k, an `i8`).
pub(crate) struct Group {
    fixed: [i8; GROUP],
    inner: [u8; GROUP],
    caps: [[(u32, u64, u32); H]; GROUP],
    ncaps: [u8; GROUP],
}

impl Default for Group {
    fn default() -> Self {
        Group {
            fixed: [NO_EXIT; GROUP],
            inner: [0; GROUP],
            caps: [[(0, 0, 0); H]; GROUP],
            ncaps: [0; GROUP],
        }
    }
}

impl Group {
    /// Board k of the group: its moves under the grand-slam rule of code `G`, and a
    /// prefetch of each capture's child.
    #[inline(always)]
    pub(crate) fn add<const G: u8>(
        &mut self,
        k: usize,
        n: u32,
        own: u64,
        opp: u64,
        lower: &[&[u8]],
    ) {
        let mut ch = [Child {
            mover: 0,
            opp: 0,
            captured: 0,
        }; H];
        self.ncaps[k] = 0;
        self.inner[k] = 0;
        self.fixed[k] = NO_EXIT;
        match classify_g::<G>(own, opp, &mut ch) {
            Class::Moves(mask) => {
                for (i, c) in ch.iter().enumerate() {
                    if mask & (1 << i) == 0 {
                        continue;
                    }
                    if c.captured == 0 {
                        self.inner[k] += 1;
                    } else {
                        let level = n - c.captured;
                        let r = rank_rows(level, c.mover, c.opp);
                        prefetch_ptr(lower[level as usize].as_ptr().wrapping_add(r as usize));
                        self.caps[k][self.ncaps[k] as usize] = (level, r, c.captured);
                        self.ncaps[k] += 1;
                    }
                }
            }
            class => {
                // Terminal, every move eradicating, or no legal move: a fixed value.
                self.fixed[k] = fixed_value(class, n, own, opp).unwrap_or(0) as i8;
            }
        }
    }

    /// e(x) and the inner moves of board k.
    #[inline(always)]
    pub(crate) fn finish(&self, k: usize, lower: &[&[u8]]) -> (i8, u8) {
        let mut e = self.fixed[k];
        for &(level, r, c) in &self.caps[k][..self.ncaps[k] as usize] {
            let v = lower[level as usize][r as usize] as i8;
            e = e.max(c as i8 - v);
        }
        (e, self.inner[k])
    }
}

/// The counts of a solved level.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LevelStats {
    /// Seeds on the board (the level n).
    pub seeds: u32,
    /// Boards in the level (indexed ones, OW-11.1).
    pub boards: u64,
    /// Boards worth more than 0 to the mover.
    pub wins: u64,
    /// Boards worth 0.
    pub draws: u64,
    /// Boards worth less than 0 to the mover.
    pub losses: u64,
    /// The sum of the values, seeds.
    pub sum: i64,
}

/// One line of the counts, as the commands print them after each level: `level 12: 1339702
/// boards, 712315 wins, 196942 draws, 430445 losses for the mover, mean +1.3314`.
impl core::fmt::Display for LevelStats {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        use mancala_core::words::count;
        write!(
            f,
            "level {:>2}: {}, {}, {}, {} for the mover, mean {:+.4}",
            self.seeds,
            count(self.boards, "board", "boards"),
            count(self.wins, "win", "wins"),
            count(self.draws, "draw", "draws"),
            count(self.losses, "loss", "losses"),
            self.mean()
        )
    }
}

impl LevelStats {
    /// The mean value of the level's boards to the mover, seeds (0 for an empty level).
    #[must_use]
    pub fn mean(&self) -> f64 {
        if self.boards == 0 {
            0.0
        } else {
            self.sum as f64 / self.boards as f64
        }
    }
}

/// Time spent on a level, seconds of wall time.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LevelTimes {
    /// The forward pass: every board's moves, exits e(x) and inner-move counter.
    pub forward: f64,
    /// The thresholds: seeding scans and propagation.
    pub retro: f64,
    /// Scans of the level that found a board left pending by a full stack.
    pub rescans: u32,
}

/// Solves level `n` under the grand-slam rule of code `G` given the levels below
/// (`lower[k]` for k < n): its values, one byte a board in index order (the value as an
/// `i8`), with the level's counts and times. Runs on the current rayon pool.
/// [`OutOfMemory`] when the level's two bytes a board cannot be had.
pub(crate) fn solve_level<const G: u8>(
    n: u32,
    lower: &[&[u8]],
    table: &RowTable,
) -> Result<(FrozenBytes, LevelStats, LevelTimes), OutOfMemory> {
    let len = level_len(n).expect("level within MAX_SEEDS");
    let val_buf = ZeroedBuf::<AtomicU8>::new(len as usize)?;
    let state_buf = ZeroedBuf::<AtomicU64>::new(len.div_ceil(8) as usize)?;
    let val = val_buf.as_slice();
    let states = States(state_buf.as_slice());
    let chunks = len.div_ceil(CHUNK);
    let mut times = LevelTimes::default();

    // Forward pass.
    let t0 = std::time::Instant::now();
    (0..chunks).into_par_iter().for_each(|c| {
        let lo = c * CHUNK;
        let hi = (lo + CHUNK).min(len);
        let mut walk = LevelWalk::at(n, lo).expect("index in level");
        let mut word = 0u64;
        let mut group = Group::default();
        let mut i = lo;
        while i < hi {
            // A group of boards: their captures' children are requested first, then read.
            let g = (hi - i).min(GROUP as u64) as usize;
            for k in 0..g {
                group.add::<G>(k, n, walk.mover, walk.opp, lower);
                walk.advance();
            }
            for k in 0..g {
                let (e, inner) = group.finish(k, lower);
                let i = i + k as u64;
                val[i as usize].store(e as u8, Ordering::Relaxed);
                word |= u64::from(inner) << (8 * (i % 8));
                if i % 8 == 7 || i + 1 == hi {
                    // Boards past the level's end are resolved for ever.
                    for k in (i % 8 + 1)..8 {
                        word |= u64::from(RESOLVED) << (8 * k);
                    }
                    states.0[(i / 8) as usize].store(word, Ordering::Relaxed);
                    word = 0;
                }
            }
            i += g as u64;
        }
    });
    times.forward = t0.elapsed().as_secs_f64();

    // Thresholds.
    let t1 = std::time::Instant::now();
    let solver = Level::<G> {
        n,
        table,
        val,
        states: &states,
        overflow: AtomicBool::new(false),
    };
    for t in (1..=n as i8).rev() {
        loop {
            solver.overflow.store(false, Ordering::Relaxed);
            (0..chunks)
                .into_par_iter()
                .for_each_init(Scratch::default, |scratch, c| {
                    solver.scan(t, c * CHUNK, ((c + 1) * CHUNK).min(len), scratch);
                });
            if !solver.overflow.load(Ordering::Relaxed) {
                break;
            }
            times.rescans += 1;
        }
    }
    times.retro = t1.elapsed().as_secs_f64();

    // Unresolved boards are worth 0; counts.
    let stats = (0..chunks)
        .into_par_iter()
        .map(|c| {
            let lo = c * CHUNK;
            let hi = (lo + CHUNK).min(len);
            let mut s = LevelStats::default();
            for i in lo..hi {
                let st =
                    (states.0[(i / 8) as usize].load(Ordering::Relaxed) >> (8 * (i % 8))) as u8;
                let v = if st & RESOLVED == 0 {
                    val[i as usize].store(0, Ordering::Relaxed);
                    0
                } else {
                    val[i as usize].load(Ordering::Relaxed) as i8
                };
                s.boards += 1;
                s.sum += i64::from(v);
                match v.signum() {
                    1 => s.wins += 1,
                    0 => s.draws += 1,
                    _ => s.losses += 1,
                }
            }
            s
        })
        .reduce(LevelStats::default, |a, b| LevelStats {
            seeds: 0,
            boards: a.boards + b.boards,
            wins: a.wins + b.wins,
            draws: a.draws + b.draws,
            losses: a.losses + b.losses,
            sum: a.sum + b.sum,
        });
    drop(state_buf);
    Ok((val_buf.freeze(), LevelStats { seeds: n, ..stats }, times))
}

/// One level's threshold phase under the grand-slam rule of code `G`.
struct Level<'a, const G: u8> {
    n: u32,
    table: &'a RowTable,
    val: &'a [AtomicU8],
    states: &'a States<'a>,
    /// Whether a stack overflowed in this scan (a board was left pending).
    overflow: AtomicBool,
}

/// A resolved board to process: its rows, bit 63 of the mover's row set when it entered W.
type Entry = (u64, u64);
const WIN: u64 = 1 << 63;

/// Predecessors processed together: their state words are requested as they are found.
const BATCH: usize = 16;

/// A thread's working memory: the stack of resolved boards to process and the
/// predecessors of a batch (index, rows, bit 63 of the mover's row set when the child is
/// in W).
#[derive(Default)]
struct Scratch {
    stack: Vec<Entry>,
    preds: Vec<(u64, u64, u64)>,
}

impl<const G: u8> Level<'_, G> {
    /// Scans boards `lo..hi` at threshold `t`: seeds, pending boards, and everything they
    /// resolve in turn.
    fn scan(&self, t: i8, lo: u64, hi: u64, scratch: &mut Scratch) {
        let mut block: Option<Block> = None;
        let mut at = |i: u64| -> (u64, u64) {
            let b = match block {
                Some(b) if b.start <= i && i < b.end => b,
                Some(b) if b.end <= i && i < b.end + 64 => {
                    let mut b = b;
                    while b.end <= i {
                        b = b.next(self.n);
                    }
                    block = Some(b);
                    b
                }
                _ => {
                    let b = Block::of(self.n, i);
                    block = Some(b);
                    b
                }
            };
            (self.table.get(b.a, i - b.start), b.opp)
        };
        for wi in lo / 8..hi.div_ceil(8) {
            let word = self.states.0[wi as usize].load(Ordering::Acquire);
            if word & 0xC0C0_C0C0_C0C0_C0C0 == 0x8080_8080_8080_8080 {
                continue;
            }
            for k in 0..8 {
                let st = (word >> (8 * k)) as u8;
                let i = wi * 8 + k;
                if st & RESOLVED == 0 {
                    let e = self.val[i as usize].load(Ordering::Relaxed) as i8;
                    let seed = if e == t {
                        true
                    } else if st & COUNT == 0 && e == -t {
                        false
                    } else {
                        continue;
                    };
                    if self
                        .states
                        .update(i, |s| (s & RESOLVED == 0).then_some(RESOLVED))
                        .is_some()
                    {
                        let (mover, opp) = at(i);
                        self.process(t, (mover | if seed { WIN } else { 0 }, opp), scratch);
                    }
                } else if st & PENDING != 0 && self.states.claim(i) {
                    let win = self.val[i as usize].load(Ordering::Relaxed) as i8 > 0;
                    let (mover, opp) = at(i);
                    self.process(t, (mover | if win { WIN } else { 0 }, opp), scratch);
                }
            }
        }
    }

    /// Processes a resolved board and everything its predecessors resolve: boards are taken
    /// from the stack [`BATCH`] at a time, their predecessors listed (and their state words
    /// requested), then updated.
    fn process(&self, t: i8, first: Entry, scratch: &mut Scratch) {
        let Scratch { stack, preds } = scratch;
        stack.push(first);
        while !stack.is_empty() {
            preds.clear();
            for _ in 0..BATCH {
                let Some((m, opp)) = stack.pop() else { break };
                let win = m & WIN;
                predecessors_g::<G>(self.n, m & !WIN, opp, |xm, xo| {
                    let r = rank_rows(self.n, xm, xo);
                    prefetch(&self.states.0[(r / 8) as usize]);
                    if win == 0 {
                        // x enters W unless it is resolved already: its value is written.
                        prefetch(&self.val[r as usize]);
                    }
                    preds.push((r, xm | win, xo));
                });
            }
            for &(r, xm, xo) in preds.iter() {
                let win = xm & WIN != 0;
                let xm = xm & !WIN;
                let resolved = if win {
                    // x's move to y is worth −t: one inner move fewer outside W. When it was
                    // the last, x enters L_t if its best exit is ≤ −t.
                    let enters = Cell::new(false);
                    self.states.update(r, |s| {
                        if s & RESOLVED != 0 {
                            return None;
                        }
                        debug_assert!(s & COUNT > 0, "counter underflow");
                        let last = s & COUNT == 1
                            && self.val[r as usize].load(Ordering::Relaxed) as i8 <= -t;
                        enters.set(last);
                        Some(if last { RESOLVED } else { s - 1 })
                    });
                    enters.get()
                } else {
                    // x's move to y is worth t: x enters W_t.
                    self.states
                        .update(r, |s| (s & RESOLVED == 0).then_some(RESOLVED))
                        .is_some()
                };
                if resolved {
                    let v = if win { -t } else { t };
                    self.val[r as usize].store(v as u8, Ordering::Relaxed);
                    if stack.len() < STACK_CAP {
                        stack.push((xm | if win { 0 } else { WIN }, xo));
                    } else {
                        self.states.set_pending(r);
                        self.overflow.store(true, Ordering::Relaxed);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::awari::board::{play_g, with_grand_slam};
    use crate::awari::rank::rank_rows;

    /// Every inner move found forward (legal, capturing nothing) is found by un-moving from
    /// its child, and nothing else is, each once, under every grand-slam rule; the walk and
    /// the ranking agree on every index.
    #[test]
    fn predecessors_are_the_inner_moves() {
        for g in mancala_core::oware::GrandSlam::ALL {
            with_grand_slam!(g, G => inner_moves_agree::<G>());
        }
    }

    fn inner_moves_agree<const G: u8>() {
        for n in 0..=9 {
            let len = level_len(n).unwrap();
            let mut forward = HashSet::new();
            let mut walk = LevelWalk::at(n, 0).unwrap();
            for r in 0..len {
                assert_eq!(walk.index(), r);
                assert_eq!(rank_rows(n, walk.mover, walk.opp), r, "level {n}");
                let mut ch = [Child {
                    mover: 0,
                    opp: 0,
                    captured: 0,
                }; H];
                if let Class::Moves(mask) = classify_g::<G>(walk.mover, walk.opp, &mut ch) {
                    for (i, c) in ch.iter().enumerate() {
                        if mask & (1 << i) != 0 && c.captured == 0 {
                            assert_eq!(*c, play_g::<G>(walk.mover, walk.opp, i));
                            let y = rank_rows(n, c.mover, c.opp);
                            assert!(forward.insert((r, y)));
                        }
                    }
                }
                assert_eq!(walk.advance(), r + 1 < len);
            }
            let mut backward = HashSet::new();
            let mut walk = LevelWalk::at(n, 0).unwrap();
            loop {
                let y = walk.index();
                predecessors_g::<G>(n, walk.mover, walk.opp, |xm, xo| {
                    let x = rank_rows(n, xm, xo);
                    assert!(backward.insert((x, y)), "twice: {x} -> {y}");
                });
                if !walk.advance() {
                    break;
                }
            }
            let extra: Vec<_> = backward.difference(&forward).take(3).collect();
            let missing: Vec<_> = forward.difference(&backward).take(3).collect();
            assert!(
                extra.is_empty() && missing.is_empty(),
                "rule {G}, level {n}: extra {:?} missing {:?}",
                extra
                    .iter()
                    .map(|e| (
                        crate::awari::rank::unrank(n, e.0),
                        crate::awari::rank::unrank(n, e.1)
                    ))
                    .collect::<Vec<_>>(),
                missing
                    .iter()
                    .map(|e| (
                        crate::awari::rank::unrank(n, e.0),
                        crate::awari::rank::unrank(n, e.1)
                    ))
                    .collect::<Vec<_>>()
            );
        }
    }

    /// The inner children of a board, as (rank of child).
    fn inner_children<const G: u8>(n: u32, mover: u64, opp: u64) -> Vec<u64> {
        let mut ch = [Child {
            mover: 0,
            opp: 0,
            captured: 0,
        }; H];
        match classify_g::<G>(mover, opp, &mut ch) {
            Class::Moves(mask) => (0..H)
                .filter(|&i| mask & (1 << i) != 0 && ch[i].captured == 0)
                .map(|i| rank_rows(n, ch[i].mover, ch[i].opp))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// On sampled boards of every level up to 48 (sowings of several laps), under every
    /// grand-slam rule: each inner move x → y is found among y's predecessors, and each
    /// predecessor x of y has an inner move to y; no predecessor twice.
    #[test]
    fn predecessors_agree_on_sampled_boards_of_every_level() {
        for g in mancala_core::oware::GrandSlam::ALL {
            with_grand_slam!(g, G => sampled_agree::<G>());
        }
    }

    fn sampled_agree<const G: u8>() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for n in 10..=crate::awari::MAX_SEEDS {
            let len = level_len(n).unwrap();
            for _ in 0..3000 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let w = LevelWalk::at(n, seed % len).unwrap();
                let x = w.index();
                for y in inner_children::<G>(n, w.mover, w.opp) {
                    let yw = LevelWalk::at(n, y).unwrap();
                    let mut found = 0;
                    predecessors_g::<G>(n, yw.mover, yw.opp, |xm, xo| {
                        found += u32::from(rank_rows(n, xm, xo) == x);
                    });
                    assert_eq!(found, 1, "level {n}: {x} -> {y}");
                }
                let mut preds = HashSet::new();
                predecessors_g::<G>(n, w.mover, w.opp, |xm, xo| {
                    assert!(inner_children::<G>(n, xm, xo).contains(&x), "level {n}");
                    assert!(preds.insert(rank_rows(n, xm, xo)));
                });
            }
        }
    }
}
