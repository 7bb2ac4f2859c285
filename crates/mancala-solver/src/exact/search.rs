//! The exact search: fail-soft negamax alpha-beta on the future store difference.
//!
//! # Value and recursion
//!
//! `v(p)` is the best store difference the side to move can still gain from `p`. For a move
//! with immediate gain `g` (seeds into the mover's store, captures and the final sweep, minus
//! what the opponent receives):
//!
//! * the game ends: `g`;
//! * extra turn (same mover, no sign change): `g + v(child)`;
//! * the turn passes: `g − v(child)`.
//!
//! # Exact futility bound (proof)
//!
//! Let k be the seeds in the houses. A store never loses seeds and only the k seeds in the
//! houses can still move into a store, so the mover's future gain `a` and the opponent's `b`
//! satisfy `a, b ≥ 0` and `a + b ≤ k`, hence `−k ≤ v = a − b ≤ k`. Unless `discard_remaining`
//! removes seeds at the end, every seed ends in a store (the sweep gives the rest to the
//! owners), so `a + b = k` and `v ≡ k (mod 2)`: all values and bounds this search derives keep
//! that parity (a move's gain has the parity of the seeds leaving the houses), which lets the
//! MTD(f) driver step by two.
//!
//! The capture rule: the proof uses only "a store never loses seeds" and "only seeds in the
//! houses can still reach a store", which hold under both capture rules and every end rule,
//! so one bound serves all of them.
//!
//! # A sure seed: `v ≥ 2 − k` (proof)
//!
//! The lower bound is tighter whenever the player to move is sure to bank a seed with the move
//! it is about to make ([`sure_seed`]):
//!
//! * some house h (0-based from the mover's left) holds at least m − h seeds: sowing it drops
//!   a seed into the mover's store, which sowing never skips; or
//! * under `empty_capture`, always (the game is not over, so the mover has a non-empty house):
//!   let h be its rightmost non-empty house and s its seeds. If s ≥ m − h, as above. Otherwise
//!   the seeds fall into houses h + 1 … h + s, all empty before the move since h was the
//!   rightmost non-empty one, so the last seed lands in an own house that was empty and is
//!   banked, with the opposite seeds if any (docs/rules/kalah.md, `empty_capture`).
//!
//! Either way the mover can bank `a ≥ 1` seeds, and the opponent can then have at most the
//! other `k − 1`: `v ≥ 1 − (k − 1) = 2 − k`, which has the parity of k. This holds under every
//! end rule, `discard_remaining` included (seeds removed at the end reach neither store). The bound
//! tightens three places: a node whose window lies at or below `2 − k` is answered before its
//! children are generated; an extra-turn child (the same mover) is bounded below by
//! `gain − k_child + 2`; a child where the turn passes is bounded above by
//! `gain + k_child − 2`, the opponent's sure seed. With the standard capture rule a position
//! where no house reaches the store keeps `−k` (a last seed in an own empty house opposite an
//! empty one stays on the board, and the opponent may capture everything). Each child is thus
//! bounded by `gain ± k_child` (tightened by its sure seed) before it is searched, which cuts
//! moves that cannot reach the window.
//!
//! # Pruning and ordering
//!
//! * Transposition table probe (cut-offs from stored bounds, the stored best move first).
//! * Enhanced transposition cut-off (Plaat, Schaeffer, Pijls & de Bruin 1996): before
//!   searching, the children are looked up in the table and the database, and a child whose
//!   proven bound already refutes the window cuts at once.
//! * Move order ([`super::order`]): table move, captures of at least seven seeds, extra
//!   turns (rightmost house first, since sowing a house to the left of another extra-turn
//!   house would spoil it), then the other moves by immediate gain, ties broken by the solve's tie rule ([`TieRule`]: the fewest
//!   seeds left in the opponent's row, or the fewest extra turns left to the opponent and the
//!   house nearest the store, chosen from the root's seeds per house).
//! * Endgame database: a position with at most K seeds in the houses is answered exactly.
//!
//! # Parallel search: young brothers wait
//!
//! With several threads, a node with at least K + [`Shared::split_margin`] seeds searches
//! its eldest child alone; if that does not refute the window (the node is then most likely
//! an all-node, where every child must be searched), its younger brothers are searched in
//! parallel over rayon's work-stealing `join` (Feldmann, Monien, Mysliwietz & Vornberger,
//! "Distributed game-tree search", 1989). Each parallel child gets its own searcher under a
//! [`SplitPoint`]; a child that refutes the window sets the split point's flag, and every
//! searcher below it unwinds at its next check without storing anything. A node's value is
//! the maximum of its children's proven fail-soft bounds, whatever order they finish in, so
//! the value and the best moves are the same for any number of threads. With one thread
//! nothing splits and the search is node for node the serial one.

use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use mancala_core::kalah::{KalahMove, KalahPosition};
use mancala_core::Side;

use super::order::{kalah_order_score, TieRule};
use crate::board::{is_special, relative, Geometry, Kind};
use crate::egdb::Probe;
use crate::rank::rank;
use crate::tt::{Bounds, TranspositionTable, NO_MOVE};

/// State shared by every search thread of one solve.
pub(crate) struct Shared {
    /// Set to make every thread unwind (a limit or the cancel flag).
    pub stop: AtomicBool,
    /// Set when the stop came from a limit or the cancel flag (the result is then not exact).
    pub limited: AtomicBool,
    /// Nodes counted so far by all threads.
    pub nodes: AtomicU64,
    /// Stop after this many nodes.
    pub node_limit: u64,
    /// Stop at this instant.
    pub deadline: Option<Instant>,
    /// The caller's cancel flag.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Nodes with at least this many seeds more than the database holds search their
    /// younger brothers in parallel (when the pool has several threads).
    pub split_margin: u32,
    /// How moves of equal gain are ordered, chosen from the solve's root
    /// ([`TieRule::for_root`]).
    pub tie: TieRule,
}

impl Shared {
    pub(crate) fn new(
        node_limit: Option<u64>,
        deadline: Option<Instant>,
        cancel: Option<Arc<AtomicBool>>,
    ) -> Shared {
        Shared {
            stop: AtomicBool::new(false),
            limited: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            node_limit: node_limit.unwrap_or(u64::MAX),
            deadline,
            cancel,
            split_margin: SPLIT_MARGIN,
            tie: TieRule::default(),
        }
    }
}

/// Nodes between two looks at the stop flags, serial search.
const CHECK_EVERY: u64 = 2048;
/// Nodes between two looks at the stop flags when the search splits (a sibling's cut-off
/// should stop the others soon).
const CHECK_EVERY_SPLIT: u64 = 256;

/// One split point of the young-brothers-wait search: set when one of the siblings searched
/// in parallel there refutes the window, so that the others stop. Linked to the split points
/// above it, whose cut-offs stop this one's searchers too.
pub(crate) struct SplitPoint<'a> {
    cut: AtomicBool,
    parent: Option<&'a SplitPoint<'a>>,
}

impl SplitPoint<'_> {
    /// Whether this split point or one above it was cut off.
    fn any_cut(&self) -> bool {
        let mut p = Some(self);
        while let Some(s) = p {
            if s.cut.load(Ordering::Relaxed) {
                return true;
            }
            p = s.parent;
        }
        false
    }
}

/// One thread's searcher.
pub(crate) struct Searcher<'a, const M: usize, T: TranspositionTable> {
    g: &'a Geometry<M>,
    tt: &'a T,
    db: Probe<'a>,
    db_max: u32,
    shared: &'a Shared,
    /// The split point this searcher works under (none for a root searcher).
    split: Option<&'a SplitPoint<'a>>,
    /// Nodes with at least this many seeds in the houses search their younger brothers in
    /// parallel; `u32::MAX` for a serial search.
    split_min_seeds: u32,
    check_every: u64,
    pending: u64,
    /// Nodes counted by this thread (all of them, flushed or not).
    count: u64,
    /// Set once this thread must unwind; every value computed after it is meaningless.
    pub aborted: bool,
    etc_min_seeds: u32,
    tt_min_seeds: u32,
    /// Debug builds: whether the child searched next is its parent's eldest searched (its
    /// entry cannot have changed since the parent read it; a younger brother's can).
    #[cfg(debug_assertions)]
    eldest: bool,
}

/// One child of a node: the [`crate::board::Child`] of playing house `h`, flattened so that its rank and
/// its bounds fit the same 48 bytes.
#[derive(Clone, Copy)]
struct Cand {
    /// The child's board ([`crate::board::Child::board`]).
    board: u128,
    /// Where the node looked the child up, else 0: its rank for a child the database
    /// holds, its place in the table ([`TranspositionTable::locate`]) for a child probed
    /// for an enhanced transposition cut-off, which is passed down to the child's search.
    key: u64,
    /// The move's immediate gain ([`crate::board::Child::gain`]).
    gain: i32,
    /// Seeds in the child's houses ([`crate::board::Child::seeds`]).
    seeds: u32,
    /// The child's upper bound for the mover, set by the bounding loop.
    hi: i32,
    /// Extra turn, turn passed or game over ([`crate::board::Child::kind`]).
    kind: Kind,
    /// The house played, 0-based.
    h: u8,
    /// The best move of the child's table entry as the node's enhanced transposition
    /// cut-off probe found it ([`NO_MOVE`] for no entry or none), or [`UNPROBED`] when the
    /// node did not probe the child.
    tt_move: u8,
}

/// [`Cand::tt_move`] and the `known` argument of [`Searcher::search`] of a child whose
/// table entry its parent has not read (or may have changed since): its search probes the
/// table itself.
const UNPROBED: u8 = 0xFF;

/// What the table says about a node ([`Searcher::probe_table`]).
enum Probed {
    /// Its bounds answer the window: the node's value.
    Cut(i32),
    /// The best move it stored ([`NO_MOVE`] for none).
    Move(u8),
}

/// The sort key of the child at index `i` (0..8) of the children's array, of ordering score
/// `score`: the score, offset to sort as an unsigned number, then `7 − i`, so that the larger
/// key is searched first and of equal scores the child generated first (house order). No
/// two children share a key.
#[inline(always)]
fn sort_key(score: i32, i: usize) -> u64 {
    (u64::from((score as u32) ^ 0x8000_0000) << 3) | (7 - i) as u64
}

/// The index in the children's array of the child of sort key `key` ([`sort_key`]).
#[inline(always)]
fn key_index(key: u64) -> usize {
    7 - (key & 7) as usize
}

/// Insertion sort of the first `n` sort keys ([`sort_key`]), largest first: the children's
/// order by ordering score, without moving their records.
#[inline(always)]
fn sort_keys(keys: &mut [u64; 8], n: usize) {
    for i in 1..n {
        let x = keys[i];
        let mut j = i;
        while j > 0 && keys[j - 1] < x {
            keys[j] = keys[j - 1];
            j -= 1;
        }
        keys[j] = x;
    }
}

/// The table entry of a node of `ki` seeds whose fail-soft value in the window
/// `(alpha, beta)` is `best` (house `best_move`) after `spent` nodes: a lower bound when
/// it reaches β, an upper bound when it does not pass α, else the exact value. Its work is
/// the bit length of `spent`.
#[inline(always)]
fn result_bounds(best: i32, best_move: u8, ki: i32, alpha: i32, beta: i32, spent: u64) -> Bounds {
    let work = (64 - spent.leading_zeros()) as u8;
    if best >= beta {
        Bounds {
            lower: best,
            upper: ki,
            best: best_move,
            work,
        }
    } else if best <= alpha {
        Bounds {
            lower: -ki,
            upper: best,
            best: NO_MOVE,
            work,
        }
    } else {
        Bounds {
            lower: best,
            upper: best,
            best: best_move,
            work,
        }
    }
}

impl<'a, const M: usize, T: TranspositionTable> Searcher<'a, M, T> {
    pub(crate) fn new(
        g: &'a Geometry<M>,
        tt: &'a T,
        db: Option<(Probe<'a>, u32)>,
        shared: &'a Shared,
    ) -> Self {
        let (db, db_max) = match db {
            Some((d, k)) => (d, k),
            None => (Probe::NONE, 0),
        };
        let has_db = !db.is_empty();
        let db_max = if has_db { db_max } else { 0 };
        // Split only in a pool of several threads (one thread searches exactly as the serial
        // search does, node for node).
        let parallel = rayon::current_num_threads() > 1;
        let split_min_seeds = if parallel {
            db_max.saturating_add(shared.split_margin)
        } else {
            u32::MAX
        };
        Searcher {
            g,
            tt,
            db,
            db_max,
            shared,
            split: None,
            split_min_seeds,
            check_every: if parallel {
                CHECK_EVERY_SPLIT
            } else {
                CHECK_EVERY
            },
            pending: 0,
            count: 0,
            aborted: false,
            etc_min_seeds: ETC_MARGIN + if has_db { db_max } else { 0 },
            tt_min_seeds: TT_MIN_SEEDS,
            #[cfg(debug_assertions)]
            eldest: true,
        }
    }

    /// A searcher for one younger brother at split point `split` (same settings, own
    /// counters).
    fn spawn<'b>(&self, split: &'b SplitPoint<'b>) -> Searcher<'b, M, T>
    where
        'a: 'b,
    {
        Searcher {
            g: self.g,
            tt: self.tt,
            db: self.db,
            db_max: self.db_max,
            shared: self.shared,
            split: Some(split),
            split_min_seeds: self.split_min_seeds,
            check_every: self.check_every,
            pending: 0,
            count: 0,
            aborted: false,
            etc_min_seeds: self.etc_min_seeds,
            tt_min_seeds: self.tt_min_seeds,
            #[cfg(debug_assertions)]
            eldest: true,
        }
    }

    fn flush(&mut self) {
        let n = self.shared.nodes.fetch_add(self.pending, Ordering::Relaxed) + self.pending;
        self.pending = 0;
        if self.shared.stop.load(Ordering::Relaxed) || self.split.is_some_and(|s| s.any_cut()) {
            self.aborted = true;
            return;
        }
        let cancelled = self
            .shared
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed));
        let late = self.shared.deadline.is_some_and(|d| Instant::now() >= d);
        if cancelled || late || n >= self.shared.node_limit {
            self.shared.limited.store(true, Ordering::Relaxed);
            self.shared.stop.store(true, Ordering::Relaxed);
            self.aborted = true;
        }
    }

    /// The ordering score ([`kalah_order_score`]) of the child `c`, an extra turn or a turn
    /// passed.
    #[inline(always)]
    fn order_score(&self, c: &Cand) -> i32 {
        let (h, g) = (usize::from(c.h), c.gain);
        match c.kind {
            Kind::Switch => self.switch_score(h, g, c.board),
            Kind::Extra | Kind::Over => kalah_order_score(self.shared.tie, c.kind, h, g, 0, 0),
        }
    }

    /// The ordering score of playing house `h` for gain `g` when the turn passes to the
    /// opponent, whose board is `child` ([`kalah_order_score`] under the solve's tie rule).
    #[inline(always)]
    fn switch_score(&self, h: usize, g: i32, child: u128) -> i32 {
        let rule = self.shared.tie;
        let opp_extra = match rule {
            TieRule::NearStore => extra_turn_houses::<M>(child),
            TieRule::FewestGiven => 0,
        };
        kalah_order_score(rule, Kind::Switch, h, g, given::<M>(child), opp_extra)
    }

    /// Counts the remaining nodes into the shared counter.
    pub(crate) fn finish(&mut self) {
        self.shared.nodes.fetch_add(self.pending, Ordering::Relaxed);
        self.pending = 0;
    }

    #[inline(always)]
    fn db_value(&self, b: u128, k: u32) -> i32 {
        self.db.value(rank::<M>(b), k)
    }

    /// Fail-soft alpha-beta on the mover-relative board `b` holding `k` seeds in its houses
    /// (not a finished game): returns v' with `v' ≤ alpha ⇒ v ≤ v'`, `v' ≥ beta ⇒ v ≥ v'`,
    /// otherwise `v = v'`. After an abort the result is meaningless. `place` is where `b`
    /// lives in the table ([`TranspositionTable::locate`] of its rank) when the caller has
    /// worked it out, else 0 (no board with a seed has place 0): a parent that probed the
    /// table for this child passes its place down, and the probe has already brought the
    /// child's bucket into the cache. `known` is [`UNPROBED`], or the best move of the
    /// node's table entry ([`NO_MOVE`] for none) when the caller read that entry and nothing
    /// was stored since: the parent's enhanced transposition cut-off probe, passed to the
    /// first child it searches. The node then does not probe the table again: that entry
    /// cannot cut (a bound that answers this node's window refuted or skipped it in the
    /// parent), and its move is the one the probe would return. (With several threads
    /// another thread may have stored in between; the move is then only an ordering hint
    /// and the missed cut-off a search more, never a wrong value.)
    ///
    /// The steps: count the node; the bounds from the seeds left and the database; generate
    /// the children ([`Searcher::children`]); the table's bounds and move
    /// ([`Searcher::probe_table`]); each child's bounds known without a search, which may
    /// refute the window at once (kept in this loop: as a function of its own it cost 3 %
    /// more instructions); the other children by ordering score ([`sort_keys`]),
    /// searched in turn or, past the eldest, in parallel ([`Searcher::search_children`]);
    /// the result into the table ([`result_bounds`]).
    pub(crate) fn search(
        &mut self,
        b: u128,
        k: u32,
        place: u64,
        known: u8,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        if !self.count_node() {
            return 0;
        }
        let ki = k as i32;
        if ki <= alpha {
            return ki;
        }
        // The lowest value the mover can be held to: `2·sure − k` (module docs).
        let floor = 2 * sure_seed::<M>(b, self.g.flags.empty_capture) - ki;
        if floor >= beta {
            return floor;
        }
        if k <= self.db_max {
            return self.db_value(b, k);
        }
        let use_tt = k >= self.tt_min_seeds;
        let key = if place != 0 {
            place
        } else {
            let place = self.tt.locate(rank::<M>(b));
            if use_tt {
                self.tt.prefetch_at(place);
            }
            place
        };
        let etc = k >= self.etc_min_seeds;
        // Left uninitialised: only the first `n` records are written and read (filling all
        // eight 48-byte records cost 1 to 2 % of the instructions of a solve).
        let mut slots = [MaybeUninit::<Cand>::uninit(); 8];
        let cands = self.children(b, k, etc, &mut slots);
        let n = cands.len();
        let mut tt_move = known;
        if use_tt && known == UNPROBED {
            match self.probe_table(key, alpha, beta) {
                Probed::Cut(v) => return v,
                Probed::Move(h) => tt_move = h,
            }
        } else {
            // One thread: the probe left out for the parent's eldest child searched would not
            // have cut and would have given the move passed down (nothing was stored since
            // the parent read it).
            #[cfg(debug_assertions)]
            if use_tt && self.split_min_seeds == u32::MAX && self.eldest {
                let probed = self.probe_table(key, alpha, beta);
                debug_assert!(
                    matches!(probed, Probed::Move(h) if h == known),
                    "the parent's entry of its eldest child changed before its search"
                );
            }
        }
        let start_nodes = self.count;

        // Bounds of each child known without searching it: exact (game over, database),
        // from the table (enhanced transposition cut-off), or from its seeds.
        let mut best = i32::MIN;
        let mut best_move = NO_MOVE;
        let mut keys = [0u64; 8];
        let mut live = 0;
        // An index, not `iter_mut`: the iterator's form of this loop compiled to 3 % more
        // instructions a solve.
        #[allow(clippy::needless_range_loop)]
        for i in 0..n {
            // The fields, not the whole candidate: copies of the 48-byte record cost about
            // 8 % of the instructions of a solve. The children keep their places; their
            // order is that of the sort keys.
            let c = &cands[i];
            let (g, seeds, kind, board) = (c.gain, c.seeds, c.kind, c.board);
            let (ckey, h) = (c.key, c.h as usize);
            let ks = seeds as i32;
            let (lo, hi) = match kind {
                Kind::Over => (g, g),
                Kind::Extra => {
                    if seeds <= self.db_max {
                        let v = g + self.db.value(ckey, seeds);
                        (v, v)
                    } else {
                        // The mover moves again: its sure seed raises the child's floor.
                        let sure = 2 * sure_seed::<M>(board, self.g.flags.empty_capture);
                        let (mut lo, mut hi) = (g - ks + sure, g + ks);
                        if etc {
                            if let Some(e) = self.tt.probe_at(ckey) {
                                lo = lo.max(g + e.lower);
                                hi = hi.min(g + e.upper);
                                cands[i].tt_move = e.best;
                            } else {
                                cands[i].tt_move = NO_MOVE;
                            }
                        }
                        (lo, hi)
                    }
                }
                Kind::Switch => {
                    if seeds <= self.db_max {
                        let v = g - self.db.value(ckey, seeds);
                        (v, v)
                    } else {
                        // The opponent's sure seed lowers the child's ceiling for the mover.
                        let sure = 2 * sure_seed::<M>(board, self.g.flags.empty_capture);
                        let (mut lo, mut hi) = (g - ks, g + ks - sure);
                        if etc {
                            if let Some(e) = self.tt.probe_at(ckey) {
                                lo = lo.max(g - e.upper);
                                hi = hi.min(g - e.lower);
                                cands[i].tt_move = e.best;
                            } else {
                                cands[i].tt_move = NO_MOVE;
                            }
                        }
                        (lo, hi)
                    }
                }
            };
            if lo >= beta {
                // Proven refutation without a search (exact child or enhanced transposition
                // cut-off).
                if use_tt {
                    self.tt.store_at(
                        key,
                        Bounds {
                            lower: lo,
                            upper: ki,
                            best: h as u8,
                            work: 0,
                        },
                    );
                }
                return lo;
            }
            if lo == hi || hi <= alpha {
                // Nothing to search: the child's value is known, or cannot reach the window.
                if hi > best {
                    best = hi;
                    best_move = h as u8;
                }
                continue;
            }
            cands[i].hi = hi;
            keys[live] = sort_key(0, i);
            live += 1;
        }
        if live > 1 {
            // The ordering scores, only where there is an order to choose (a node cut by a
            // child's bound, or with one child left to search, needs none).
            for key in &mut keys[..live] {
                let i = key_index(*key);
                let c = &cands[i];
                let score = if c.h == tt_move {
                    i32::MAX
                } else {
                    self.order_score(c)
                };
                *key = sort_key(score, i);
            }
            sort_keys(&mut keys, live);
        }
        let Some((best, best_move)) =
            self.search_children(cands, &keys[..live], k, alpha, beta, best, best_move)
        else {
            return 0;
        };
        if use_tt {
            let spent = self.count - start_nodes;
            self.tt
                .store_at(key, result_bounds(best, best_move, ki, alpha, beta, spent));
        }
        best
    }

    /// Counts a node; at every `check_every`-th, flushes the count and looks at the stop
    /// flags and limits. `false` when this searcher must unwind.
    #[inline(always)]
    fn count_node(&mut self) -> bool {
        self.pending += 1;
        self.count += 1;
        if self.pending >= self.check_every {
            self.flush();
            if self.aborted {
                return false;
            }
        }
        true
    }

    /// Generates every child of `b` (holding `k` seeds in its houses) once into the first
    /// slots of `cands` (in house order) and returns them. The database entry of a child the
    /// database holds is requested from memory, and so is the table entry of a child worth
    /// probing when `etc` (enhanced transposition cut-offs at this node); such a child's
    /// `key` is its rank for the database, its place in the table
    /// ([`TranspositionTable::locate`]) for the table, 0 otherwise.
    #[inline(always)]
    fn children<'c>(
        &self,
        b: u128,
        k: u32,
        etc: bool,
        cands: &'c mut [MaybeUninit<Cand>; 8],
    ) -> &'c mut [Cand] {
        let mut n = 0;
        let mut mask = Geometry::<M>::move_mask(b);
        while mask != 0 {
            let h = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let c = self.g.play(b, k, h);
            let mut ckey = 0;
            if c.kind != Kind::Over {
                if c.seeds <= self.db_max {
                    ckey = rank::<M>(c.board);
                    self.db.prefetch(ckey);
                } else if etc {
                    ckey = self.tt.locate(rank::<M>(c.board));
                    self.tt.prefetch_at(ckey);
                }
            }
            cands[n].write(Cand {
                board: c.board,
                key: ckey,
                gain: c.gain,
                seeds: c.seeds,
                hi: 0,
                kind: c.kind,
                h: h as u8,
                tt_move: UNPROBED,
            });
            n += 1;
        }
        // SAFETY: the first `n` slots (n ≤ 8, one a house of at most M ≤ 8) were written
        // above, and `MaybeUninit<Cand>` has the layout of `Cand`; the slice borrows `cands`.
        unsafe { std::slice::from_raw_parts_mut(cands.as_mut_ptr().cast::<Cand>(), n) }
    }

    /// The table's entry for the node at place `key` ([`TranspositionTable::locate`]): a cut-off when its bounds already
    /// answer the window `(alpha, beta)` (or are exact), else the best move it stored
    /// ([`NO_MOVE`] when none).
    #[inline(always)]
    fn probe_table(&self, key: u64, alpha: i32, beta: i32) -> Probed {
        let Some(e) = self.tt.probe_at(key) else {
            return Probed::Move(NO_MOVE);
        };
        if e.lower >= beta {
            return Probed::Cut(e.lower);
        }
        if e.upper <= alpha {
            return Probed::Cut(e.upper);
        }
        if e.lower == e.upper {
            return Probed::Cut(e.lower);
        }
        Probed::Move(e.best)
    }

    /// Searches the children of `cands` in the order of their sort keys `keys` ([`sort_key`],
    /// each child with its upper bound in `hi`) in the window `(alpha, beta)` of a node of `k`
    /// seeds, from the best value
    /// `best` (house `best_move`) of the children not searched: the eldest alone, then,
    /// when the node is large enough and the eldest did not refute the window, the younger
    /// brothers in parallel ([`Searcher::split_search`]). Returns the node's fail-soft value
    /// and its house; `None` when this searcher must unwind.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn search_children(
        &mut self,
        cands: &[Cand],
        keys: &[u64],
        k: u32,
        alpha: i32,
        beta: i32,
        mut best: i32,
        mut best_move: u8,
    ) -> Option<(i32, u8)> {
        let mut a = alpha.max(best);
        let mut searched = 0;
        let n = keys.len();
        for (i, &key) in keys.iter().enumerate() {
            let c = &cands[key_index(key)];
            let hi = c.hi;
            if hi <= a {
                if hi > best {
                    best = hi;
                    best_move = c.h;
                }
                continue;
            }
            if searched > 0 && k >= self.split_min_seeds && i + 1 < n {
                // Young brothers wait (Feldmann, Monien, Mysliwietz & Vornberger 1989): the
                // eldest brother was searched alone and did not refute the window, so the
                // node is most likely an all-node; the younger brothers are searched in
                // parallel on the pool (rayon's work-stealing `join`).
                let (v, h) = self.split_search(cands, &keys[i..], a, beta)?;
                if v > best {
                    best = v;
                    best_move = h;
                }
                break;
            }
            // Every child the parent probed gets its entry as the parent read it: the
            // eldest's cannot have changed since; a younger brother's may, when an elder
            // brother's subtree stored that position (a transposition): its move is then an
            // older hint and a cut-off its own probe would have found becomes a search, with
            // the same value.
            #[cfg(debug_assertions)]
            {
                self.eldest = searched == 0;
            }
            searched += 1;
            let v = self.child_value(c, c.tt_move, a, beta);
            if self.aborted {
                return None;
            }
            if v > best {
                best = v;
                best_move = c.h;
                if v >= beta {
                    break;
                }
                if v > a {
                    a = v;
                }
            }
        }
        Some((best, best_move))
    }

    /// The fail-soft value, for the mover, of the child `c` searched in the window
    /// `(a, beta)`; `known` as in [`Searcher::search`].
    #[inline(always)]
    fn child_value(&mut self, c: &Cand, known: u8, a: i32, beta: i32) -> i32 {
        let g = c.gain;
        match c.kind {
            Kind::Extra => g + self.search(c.board, c.seeds, c.key, known, a - g, beta - g),
            Kind::Switch => g - self.search(c.board, c.seeds, c.key, known, g - beta, g - a),
            Kind::Over => g,
        }
    }

    /// Searches the children of `cands` of sort keys `rest` ([`sort_key`]) in parallel in the window `(a, beta)` at a new split
    /// point under this searcher's, and returns the best fail-soft value among them with its
    /// house (a child whose upper bound cannot pass `a` is not searched and counts with that
    /// bound, as in the serial loop); `None` when this searcher must unwind (a stop, or a
    /// cut-off above it). A child that refutes the window stops its siblings; their
    /// unfinished values are not used.
    fn split_search(
        &mut self,
        cands: &[Cand],
        rest: &[u64],
        a: i32,
        beta: i32,
    ) -> Option<(i32, u8)> {
        let sp = SplitPoint {
            cut: AtomicBool::new(false),
            parent: self.split,
        };
        let (v, h, nodes) = self.par_children(&sp, cands, rest, a, beta);
        self.count += nodes;
        if self.shared.stop.load(Ordering::Relaxed) || self.split.is_some_and(|s| s.any_cut()) {
            self.aborted = true;
            return None;
        }
        Some((v, h))
    }

    /// [`Searcher::split_search`]'s recursion: halves `rest` over `rayon::join`. Returns the
    /// best value, its house and the nodes searched.
    fn par_children(
        &self,
        sp: &SplitPoint<'_>,
        cands: &[Cand],
        rest: &[u64],
        a: i32,
        beta: i32,
    ) -> (i32, u8, u64) {
        if rest.len() == 1 {
            let c = &cands[key_index(rest[0])];
            let hi = c.hi;
            if hi <= a {
                // Cannot reach the window; its upper bound still bounds the node's value.
                return (hi, c.h, 0);
            }
            if sp.any_cut() {
                return (i32::MIN, NO_MOVE, 0);
            }
            let mut s = self.spawn(sp);
            let v = s.child_value(c, UNPROBED, a, beta);
            // Count the nodes and look at the limits and flags now: a brother's subtree may
            // be smaller than one check interval, and a search split everywhere (no
            // database) would otherwise never look at the deadline, the node limit or the
            // cancel flag.
            s.flush();
            if s.aborted {
                return (i32::MIN, NO_MOVE, s.count);
            }
            if v >= beta {
                sp.cut.store(true, Ordering::Relaxed);
            }
            return (v, c.h, s.count);
        }
        let (l, r) = rest.split_at(rest.len() / 2);
        let (x, y) = rayon::join(
            || self.par_children(sp, cands, l, a, beta),
            || self.par_children(sp, cands, r, a, beta),
        );
        let nodes = x.2 + y.2;
        if y.0 > x.0 {
            (y.0, y.1, nodes)
        } else {
            (x.0, x.1, nodes)
        }
    }

    /// A heuristic estimate (not a bound) of the value of `b`: alpha-beta to `depth` plies
    /// on the gains alone (a position's unknown future counts 0), exact where the database
    /// answers. Only used as the first guess of MTD(f).
    pub(crate) fn estimate(&mut self, b: u128, k: u32, depth: u32, alpha: i32, beta: i32) -> i32 {
        self.pending += 1;
        // The limits hold here too: a guess is ~10⁵ nodes, which at a short time budget (the
        // engine's root solve) or `--max-nodes 0` was most of the work.
        if self.pending >= self.check_every {
            self.flush();
        }
        if self.aborted {
            return 0;
        }
        if k <= self.db_max {
            return self.db_value(b, k);
        }
        if depth == 0 {
            return 0;
        }
        let mut best = i32::MIN;
        let mut a = alpha;
        let mut kids = [(0i32, 0u32, Kind::Over, 0u128, 0u32); 8];
        let mut n = 0;
        let mut mask = Geometry::<M>::move_mask(b);
        while mask != 0 {
            let h = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let c = self.g.play(b, k, h);
            let score = match c.kind {
                Kind::Switch => self.switch_score(h, c.gain, c.board),
                Kind::Extra | Kind::Over => {
                    kalah_order_score(self.shared.tie, c.kind, h, c.gain, 0, 0)
                }
            };
            kids[n] = (score, c.seeds, c.kind, c.board, c.gain as u32);
            n += 1;
        }
        kids[..n].sort_unstable_by_key(|x| -x.0);
        for &(_, seeds, kind, board, gain) in &kids[..n] {
            let g = gain as i32;
            let v = match kind {
                Kind::Over => g,
                Kind::Extra => g + self.estimate(board, seeds, depth - 1, a - g, beta - g),
                Kind::Switch => g - self.estimate(board, seeds, depth - 1, g - beta, g - a),
            };
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                if v >= beta {
                    break;
                }
                a = a.max(v);
            }
        }
        best
    }

    /// [`Searcher::estimate`] for a core position, for the player to move.
    pub(crate) fn estimate_pos(&mut self, pos: &KalahPosition, depth: u32) -> i32 {
        let Some(side) = pos.side_to_move() else {
            return 0;
        };
        if !is_special(pos) {
            let (b, k) = relative(pos, side);
            if self.g.is_terminal(b) {
                return 0;
            }
            return self.estimate(b, k, depth, -1000, 1000);
        }
        let mut best = i32::MIN;
        for mv in pos.legal_moves() {
            let child = pos.play_unchecked(mv);
            let v = match move_gain(pos, mv, &child) {
                (g, Next::Over) => g,
                (g, Next::Same) => g + self.estimate_pos(&child, depth),
                (g, Next::Other) => g - self.estimate_pos(&child, depth),
            };
            best = best.max(v);
        }
        best
    }

    /// Fail-soft value of a core position for the player to move (any position, including
    /// the opening states of `pie_rule` and `no_first_move_bonus`, which are searched on the
    /// core's positions without the table because their values depend on the stores).
    pub(crate) fn search_pos(&mut self, pos: &KalahPosition, alpha: i32, beta: i32) -> i32 {
        let Some(side) = pos.side_to_move() else {
            return 0;
        };
        if !is_special(pos) {
            let (b, k) = relative(pos, side);
            if self.g.is_terminal(b) {
                return 0;
            }
            return self.search(b, k, 0, UNPROBED, alpha, beta);
        }
        self.pending += 1;
        let mut best = i32::MIN;
        let mut a = alpha;
        let mut moves = pos.legal_moves();
        // Extra turns first, then the rest (the opening tree is small).
        moves.sort_by_key(|&mv| !pos.is_extra_turn(mv));
        for mv in moves {
            let v = self.move_value(pos, mv, a, beta);
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                if v >= beta {
                    break;
                }
                a = a.max(v);
            }
        }
        best
    }

    /// Fail-soft value, for the player to move at `pos`, of playing the legal move `mv`.
    pub(crate) fn move_value(
        &mut self,
        pos: &KalahPosition,
        mv: KalahMove,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let child = pos.play_unchecked(mv);
        // Every move alike, the swap included: the gain from the core's positions before and
        // after it (stores and final sweep), then the child's value with the sign of who
        // moves there (`move_gain`).
        match move_gain(pos, mv, &child) {
            (g, Next::Over) => g,
            (g, Next::Same) => g + self.search_pos(&child, alpha - g, beta - g),
            (g, Next::Other) => g - self.search_pos(&child, g - beta, g - alpha),
        }
    }
}

/// The seeds in the opponent's row after a move whose child board `child` is oriented for
/// the opponent (a [`Kind::Switch`] child): the child's own row.
#[inline(always)]
fn given<const M: usize>(child: u128) -> u32 {
    crate::board::lane_sum(child & Geometry::<M>::OWN)
}

/// The houses of the player to move on `b` that hold exactly the seeds of an extra turn
/// (house h, 0-based from the left, with m − h seeds: its last seed falls into the store).
#[inline(always)]
fn extra_turn_houses<const M: usize>(b: u128) -> u32 {
    // Lane h of `EXTRA` holds m − h; a lane of `b` equal to it xors to a zero byte, counted
    // by the carry-free zero-byte test (each byte's high bit set iff the byte is 0). Lanes
    // past the row are forced non-zero.
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let extra = (0..M).fold(0u64, |acc, h| acc | (((M - h) as u64) << (8 * h)));
    let outside = !(Geometry::<M>::OWN as u64) & 0x8080_8080_8080_8080;
    let x = ((b as u64) ^ extra) | outside;
    let zero = !(((x & LOW7) + LOW7) | x | LOW7);
    // The count of the high bits, summed into the top byte by one multiplication (at most
    // eight ones, so no byte carries): cheaper than `count_ones` without a `popcnt`
    // instruction in the baseline target.
    (((zero >> 7).wrapping_mul(0x0101_0101_0101_0101)) >> 56) as u32
}

/// 1 when the player to move on `b` (mover-relative, a game not over) is sure to bank a seed
/// with its next move, else 0 (module docs, "A sure seed"): under `empty_capture` always;
/// otherwise when some house h (0-based from the left) holds at least m − h seeds, so that
/// sowing it drops a seed into the store.
#[inline(always)]
fn sure_seed<const M: usize>(b: u128, empty_capture: bool) -> i32 {
    if empty_capture {
        return 1;
    }
    // Lane h gets 128 − (m − h) added to its low seven bits: its high bit is then set iff
    // the lane holds at least m − h seeds (a lane of 128 seeds or more has it set already).
    // No carry crosses a lane (at most 127 + 127).
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let add = (0..M).fold(0u64, |acc, h| acc | (((128 - (M - h)) as u64) << (8 * h)));
    let own = (b & Geometry::<M>::OWN) as u64;
    i32::from((own | ((own & LOW7) + add)) & HIGH & (Geometry::<M>::OWN as u64) != 0)
}

/// Enhanced transposition cut-offs are tried at nodes with at least this many seeds more
/// than the database holds (below, probing every child costs more than it saves).
const ETC_MARGIN: u32 = 8;
/// The default of [`Shared::split_margin`]: young brothers are searched in parallel at nodes
/// with at least this many seeds more than the database holds. Below, subtrees are too small
/// for a split to pay (docs/performance-history.md, "Parallel search").
pub(crate) const SPLIT_MARGIN: u32 = 8;

/// The table is used at nodes with at least this many seeds in the houses.
const TT_MIN_SEEDS: u32 = 0;

/// Who moves after a move, as seen by the player who made it ([`move_gain`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Next {
    /// The game is over: the move's gain (final sweep included) is its whole value.
    Over,
    /// The same player moves again (extra turn): value `gain + v(child)`.
    Same,
    /// The other player moves: value `gain − v(child)`.
    Other,
}

/// The immediate gain, in seeds, of the legal move `mv` from `pos` (game on) to
/// `child = pos.play(mv)` for the player who makes it, and who moves in `child`.
///
/// The gain is read off the core's own positions before and after the move: the seeds the
/// player's store gains minus the seeds the opponent's store gains, the captures and the
/// final sweep included, whatever the move. Only which side the player holds afterwards is
/// the move's own: a house move keeps it, the pie-rule swap hands the player the other side
/// and its store (`docs/rules/kalah.md`, option `pie_rule`: the players exchange sides and stores, the
/// side to move stays, so the other player moves next unless the swap ends the game). The
/// swap's gain is thus `2·(South's store − North's store)`, plus the final sweep when the
/// swap ends the game (under `end_when_no_move` the swap is offered even when North's row is
/// empty, and the game ends as soon as the swap leaves the side to move without a seed to
/// sow). `(0, Next::Over)` for a finished `pos`.
pub(crate) fn move_gain(pos: &KalahPosition, mv: KalahMove, child: &KalahPosition) -> (i32, Next) {
    let Some(side) = pos.side_to_move() else {
        return (0, Next::Over);
    };
    let held = match mv {
        KalahMove::Swap => side.opponent(),
        KalahMove::House(_) => side,
    };
    let store = |p: &KalahPosition, s: Side| i32::from(p.store(s));
    let gain = (store(child, held) - store(pos, side))
        - (store(child, held.opponent()) - store(pos, side.opponent()));
    let next = match child.side_to_move() {
        None => Next::Over,
        Some(s) if s == held => Next::Same,
        Some(_) => Next::Other,
    };
    (gain, next)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{lane, relative};
    use mancala_core::kalah::{KalahOption, KalahOptions, KalahRules};
    use mancala_reference::minimax::Brute;
    use proptest::prelude::*;

    /// Kalah(m,1) with the value-changing options (`changes_database` in the core's option
    /// table) whose bits are set in `bits`.
    fn rules(m: u32, bits: u8) -> KalahRules {
        let mut o = KalahOptions::NONE;
        let options = KalahOption::TABLE.iter().filter(|row| row.changes_database);
        for (i, row) in options.enumerate() {
            if bits & (1 << i) != 0 {
                o = o.with(row.option);
            }
        }
        KalahRules::new(m, 1, o).expect("rules")
    }

    /// `sure_seed` for a core position, for its player to move.
    fn sure_of(pos: &KalahPosition) -> i32 {
        let side = pos.side_to_move().expect("game on");
        let (b, _) = relative(pos, side);
        let ec = pos.rules().options().has(KalahOption::EmptyCapture);
        match pos.rules().houses() {
            1 => sure_seed::<1>(b, ec),
            2 => sure_seed::<2>(b, ec),
            3 => sure_seed::<3>(b, ec),
            4 => sure_seed::<4>(b, ec),
            _ => sure_seed::<5>(b, ec),
        }
    }

    /// A random position of a game not over: m = 1…5 houses, up to 4 seeds a house (2 from
    /// m = 4), any value-changing options, either side to move.
    fn position() -> impl Strategy<Value = KalahPosition> {
        let subsets = 1u8
            << KalahOption::TABLE
                .iter()
                .filter(|row| row.changes_database)
                .count();
        (1u32..=5, 0..subsets, any::<bool>())
            .prop_flat_map(|(m, bits, north)| {
                let max = if m >= 4 { 2u8 } else { 4 };
                (
                    Just(m),
                    Just(bits),
                    Just(north),
                    proptest::collection::vec(0u8..=max, 2 * m as usize),
                )
            })
            .prop_filter_map("the game must be on", |(m, bits, north, h)| {
                let m = m as usize;
                let mut slots = h[..m].to_vec();
                slots.push(0);
                slots.extend_from_slice(&h[m..]);
                slots.push(0);
                let side = if north { Side::North } else { Side::South };
                KalahPosition::new(rules(m as u32, bits), &slots, Some(side), false)
                    .ok()
                    .filter(|p| !p.is_over())
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 400, .. ProptestConfig::default() })]

        /// The sure seed against the rules: whenever `sure_seed` says so, one of the mover's
        /// legal moves (played by the core) raises its store, and the exhaustive minimax
        /// value of the position is at least 2 − k; without `empty_capture` it says so
        /// exactly when a house h holds at least m − h seeds (a plain loop over the houses).
        #[test]
        fn a_sure_seed_is_banked_and_bounds_the_value(pos in position()) {
            let side = pos.side_to_move().unwrap();
            let m = pos.rules().houses() as usize;
            let (b, k) = relative(&pos, side);
            let sure = sure_of(&pos);
            let ec = pos.rules().options().has(KalahOption::EmptyCapture);
            let reaches = (0..m).any(|h| lane(b, h) as usize >= m - h);
            prop_assert_eq!(sure, i32::from(ec || reaches), "{}", pos);
            if sure == 1 {
                let banks = pos.legal_moves().iter().any(|&mv| {
                    pos.play(mv).unwrap().store(side) > pos.store(side)
                });
                prop_assert!(banks, "{}", pos);
                let v = Brute::new().value(&pos);
                prop_assert!(v >= 2 - k as i32, "{}: value {} below 2 − {}", pos, v, k);
            }
        }
    }

    /// Without `empty_capture` the sure seed needs a house that reaches the store: a position
    /// of the standard rule where none does and the mover is held below 2 − k exists (found
    /// by exhaustive minimax over Kalah(2,·) and (3,·) positions of up to 2 seeds a house).
    #[test]
    fn without_a_house_reaching_the_store_the_floor_stays_minus_k() {
        let mut found = false;
        'search: for m in 2..=3usize {
            let r = KalahRules::new(m as u32, 1, KalahOptions::NONE).unwrap();
            for code in 0..3u32.pow(2 * m as u32) {
                let mut h = Vec::new();
                let mut c = code;
                for _ in 0..2 * m {
                    h.push((c % 3) as u8);
                    c /= 3;
                }
                let mut slots = h[..m].to_vec();
                slots.push(0);
                slots.extend_from_slice(&h[m..]);
                slots.push(0);
                let Ok(pos) = KalahPosition::new(r, &slots, Some(Side::South), false) else {
                    continue;
                };
                if pos.is_over() || sure_of(&pos) == 1 {
                    continue;
                }
                let k = pos.seeds_in_houses() as i32;
                if Brute::new().value(&pos) < 2 - k {
                    found = true;
                    break 'search;
                }
            }
        }
        assert!(found);
    }

    /// The zero-byte count against a plain loop over the houses, on boards of random lanes
    /// (0..=8 seeds a house, so that the counts m − h hit often) for every m.
    #[test]
    fn extra_turn_houses_counts_the_houses_of_an_extra_turn() {
        fn check<const M: usize>(rng: &mut u64) {
            for _ in 0..20_000 {
                let mut b = 0u128;
                for lane in 0..(2 * M + 1) {
                    *rng ^= *rng << 13;
                    *rng ^= *rng >> 7;
                    *rng ^= *rng << 17;
                    let v = if lane == M { 0 } else { (*rng % 9) as u128 };
                    b |= v << (8 * lane);
                }
                let plain = (0..M)
                    .filter(|&h| crate::board::lane(b, h) as usize == M - h)
                    .count() as u32;
                assert_eq!(extra_turn_houses::<M>(b), plain, "m = {M}, board {b:#x}");
            }
        }
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        check::<1>(&mut rng);
        check::<2>(&mut rng);
        check::<3>(&mut rng);
        check::<4>(&mut rng);
        check::<5>(&mut rng);
        check::<6>(&mut rng);
        check::<7>(&mut rng);
    }
}
