//! The [`Solver`]: configuration, and the calls `solve`, `solve_within`, `analyse` and
//! `estimate` (what each computes is in `jobs.rs`, the results in `results.rs`).

use std::ops::ControlFlow;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use mancala_core::kalah::{KalahPosition, KalahRules};

use super::jobs::{drive, finished, first_board, Job, Output};
use super::parallel::Ctx;
use super::results::{Analysis, Solution, SolveError, WindowSolution};
use super::search::Shared;
use crate::board::{Flags, Geometry};
use crate::egdb::Egdb;
use crate::progress::{self, SolveProgress};
use crate::rank::rank_space;
use crate::tt::{ExactTable, LockFreeTable, TranspositionTable};

/// Which transposition table the solver uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TableKind {
    /// [`LockFreeTable`]: fixed size in bytes, lossy, lock-free (the default).
    #[default]
    LockFree,
    /// [`ExactTable`]: a `DashMap` that keeps every entry (memory grows with the search).
    Exact,
}

/// An exact Kalah solver: configure it with the builder methods, then call
/// [`Solver::solve`] or [`Solver::analyse`] on any [`KalahPosition`] (any m, any rule options).
/// The transposition table is kept between calls on positions of the same rules.
///
/// ```
/// use mancala_core::kalah::{KalahPosition, KalahRules};
/// use mancala_solver::{SolveOptions, Solver};
/// let rules: KalahRules = "kalah(4,2)+empty_capture".parse().unwrap();
/// let mut solver = Solver::new().threads(1).tt_bytes(1 << 20);
/// let s = solver.solve(&KalahPosition::start(rules), SolveOptions::new()).unwrap();
/// assert!(s.exact);
/// assert_eq!(s.score, s.value);
/// ```
pub struct Solver {
    threads: usize,
    /// The table's size in bytes, or its largest size when `tt_sized`.
    tt_bytes: usize,
    /// Whether each call sizes the table to its position ([`Solver::sized_table_bytes`]), at most
    /// `tt_bytes`.
    tt_sized: bool,
    table_kind: TableKind,
    egdb: Option<Arc<Egdb>>,
    node_limit: Option<u64>,
    time_limit: Option<Duration>,
    cancel: Option<Arc<AtomicBool>>,
    split_margin: u32,
    /// The thread pool and the tables, made at the first call: behind a lock so that the
    /// solver also answers through a shared reference (as a source of exact values,
    /// `ExactValues`), one call at a time.
    state: Mutex<State>,
}

/// What a [`Solver`] makes at its first call and keeps between calls.
#[derive(Default)]
struct State {
    pool: Option<(usize, crate::pool::Pool)>,
    lock_free: Option<LockFreeTable>,
    exact: Option<ExactTable>,
    filled_for: Option<(u8, Flags)>,
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new()
    }
}

impl std::fmt::Debug for Solver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solver")
            .field("threads", &self.threads)
            .field("tt_bytes", &self.tt_bytes)
            .field("tt_sized", &self.tt_sized)
            .field("table", &self.table_kind)
            .field("egdb", &self.egdb.as_ref().map(|d| d.description()))
            .field("node_limit", &self.node_limit)
            .field("split_margin", &self.split_margin)
            .field("time_limit", &self.time_limit)
            .finish_non_exhaustive()
    }
}

/// The search's rule flags of `pos`'s rules (from the core's option table, `Flags::from`).
fn flags_of(pos: &KalahPosition) -> Flags {
    Flags::from(&pos.rules())
}

use crate::mem::MAX_THREADS;

/// The smallest table [`Solver::sized_table_bytes`] gives: 4 MiB (two huge pages).
const MIN_SIZED_TABLE_BYTES: usize = 4 << 20;

/// A progress callback of a call ([`SolveOptions::progress`]).
type Callback<'a> = &'a mut dyn FnMut(&SolveProgress) -> ControlFlow<()>;

/// Options of one call of the [`Solver`] ([`Solver::solve`], [`Solver::analyse`],
/// [`Solver::solve_within`]): progress reports. The default: none.
///
/// ```
/// use std::ops::ControlFlow;
/// use std::time::Duration;
/// use mancala_core::kalah::{KalahPosition, KalahRules};
/// use mancala_solver::{SolveOptions, SolveProgress, Solver};
/// let rules: KalahRules = "kalah(4,3)".parse().unwrap();
/// let mut bounds = Vec::new();
/// let mut watch = |p: &SolveProgress| {
///     bounds.push((p.lower, p.upper));
///     ControlFlow::Continue(())
/// };
/// let options = SolveOptions::new().progress(Duration::from_millis(10), &mut watch);
/// let s = Solver::new().threads(1).solve(&KalahPosition::start(rules), options).unwrap();
/// assert!(bounds.iter().all(|&(lo, hi)| lo <= s.value && s.value <= hi));
/// ```
#[derive(Default)]
pub struct SolveOptions<'a> {
    progress: Option<(Duration, Callback<'a>)>,
}

impl std::fmt::Debug for SolveOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SolveOptions")
            .field("progress", &self.progress.as_ref().map(|p| p.0))
            .finish()
    }
}

impl<'a> SolveOptions<'a> {
    /// No progress reports.
    #[must_use]
    pub fn new() -> SolveOptions<'a> {
        SolveOptions::default()
    }

    /// Progress reports: `callback` is called on the calling thread every `interval` (at
    /// least [`progress::MIN_INTERVAL`]) while the call runs, with the phase, the proven
    /// bounds, the nodes and the seconds so far ([`SolveProgress`]); never once the call has
    /// ended (a call shorter than `interval` makes no report). Returning
    /// [`ControlFlow::Break`] stops the search as a limit would. The search runs on a helper
    /// thread meanwhile (module [`progress`]); what it finds is the same as without reports.
    #[must_use]
    pub fn progress(
        mut self,
        interval: Duration,
        callback: &'a mut dyn FnMut(&SolveProgress) -> ControlFlow<()>,
    ) -> SolveOptions<'a> {
        self.progress = Some((interval, callback));
        self
    }
}

impl Solver {
    /// Plies of the heuristic search ([`Solver::estimate`]) that gives the MTD(f) of
    /// [`Solver::solve`] its first guess, under every rule set without empty capture
    /// ([`Solver::guess_depth`]).
    pub const GUESS_DEPTH: u32 = super::jobs::GUESS_DEPTH;

    /// The first guess's depth, in plies, under empty capture ([`Solver::guess_depth`]):
    /// measured to search fewer nodes there (docs/performance-history.md, "The first guess's
    /// depth").
    pub const GUESS_DEPTH_EMPTY_CAPTURE: u32 = super::jobs::GUESS_DEPTH_EMPTY_CAPTURE;

    /// The depth, in plies, of the estimate that [`Solver::solve`] starts its MTD(f) from
    /// on positions of `rules`: [`Solver::GUESS_DEPTH_EMPTY_CAPTURE`] when `rules` has
    /// empty capture, [`Solver::GUESS_DEPTH`] otherwise.
    #[must_use]
    pub fn guess_depth(rules: KalahRules) -> u32 {
        super::jobs::guess_depth(rules)
    }

    /// The largest table a solver sizes by itself ([`Solver::new`]'s default): 64 MiB.
    pub const DEFAULT_TT_BYTES: usize = 64 << 20;

    /// The transposition table, in bytes, that a solve of a position with `seeds` seeds in the
    /// houses gets when no size was given ([`Solver::tt_bytes_at_most`], the default), searched
    /// with a database of `database_seeds` seeds (0 for none): 2^e bytes with
    /// e = min(⌈`seeds`/2⌉ + 4, ⌈(`seeds` − `database_seeds`)/2⌉ + 9), at least 4 MiB, at most
    /// `max_bytes` (which wins over the 4 MiB).
    ///
    /// The rule follows the solves of this project's measurements (docs/performance-history.md,
    /// "Move ordering" and "A table sized to the problem"): from the start position and without
    /// a database, the solves of most boards searched 3 to 6 · 2^(seeds/2) nodes (Kalah(6,3)
    /// empty capture, 36 seeds: 851,123 nodes; Kalah(5,5) empty capture, 50 seeds: 132 M), so
    /// the table holds about one entry (8 bytes) for two nodes. A larger table searches a few
    /// per cent fewer nodes but costs more time: the kernel zeroes every page of a table at its
    /// first touch, a solve touches all of them, and fewer of its probes hit the cache
    /// (Kalah(6,3) empty capture: 890,812 nodes and 0.15 s of CPU with 4 MiB, 851,770 nodes and
    /// 0.19 s with 16 MiB). Without a database a large solve gets the whole cap: Kalah(6,4)
    /// (48 seeds) and everything larger.
    ///
    /// A database answers the positions near the end, where most of the table's entries would
    /// be, and its own reads compete with the table's for the cache: with one, a table far
    /// smaller than the cap is faster. Kalah(6,4) with the 20-seed database, one thread (measured
    /// before the search's sure-seed bound, which changed the counts a little):
    /// 9,480,866 nodes and 1.7–1.9 s of CPU with 8 MiB (the size this rule gives), 8,851,799
    /// nodes and 2.2–2.4 s with 64 MiB, and standard capture 4.8–5.2 s with 8 MiB against
    /// 5.9–6.4 s with 256 MiB (docs/performance-history.md).
    ///
    /// ```
    /// use mancala_solver::Solver;
    /// assert_eq!(Solver::sized_table_bytes(36, 0, 256 << 20), 4 << 20); // Kalah(6,3)
    /// assert_eq!(Solver::sized_table_bytes(42, 0, 256 << 20), 32 << 20); // Kalah(7,3)
    /// assert_eq!(Solver::sized_table_bytes(48, 0, 256 << 20), 256 << 20); // Kalah(6,4): the cap
    /// assert_eq!(Solver::sized_table_bytes(48, 20, 256 << 20), 8 << 20); // with K = 20
    /// assert_eq!(Solver::sized_table_bytes(12, 0, 256 << 20), 4 << 20); // at least 4 MiB
    /// assert_eq!(Solver::sized_table_bytes(12, 0, 1 << 20), 1 << 20); // never above the cap
    /// ```
    #[must_use]
    pub fn sized_table_bytes(seeds: u32, database_seeds: u32, max_bytes: usize) -> usize {
        let without = seeds.div_ceil(2).saturating_add(4);
        let with = seeds
            .saturating_sub(database_seeds)
            .div_ceil(2)
            .saturating_add(9);
        let exp = without.min(with);
        let want = 1usize.checked_shl(exp).unwrap_or(usize::MAX);
        want.max(MIN_SIZED_TABLE_BYTES).min(max_bytes)
    }

    /// The largest table sized to the position ([`Solver::tt_bytes_at_most`]) that the
    /// commands give a solve when no size is given (`mancala solve` and `mancala analyse`
    /// without `--tt-mb`, each rank of `mancala-mpi solve` without `--tt-mb`): 256 MiB. Half
    /// the memory available lowers it ([`Solver::sized_table_cap`]).
    pub const SIZED_TT_MAX_BYTES: usize = 256 << 20;

    /// The cap, in bytes, of the table sized to the position ([`Solver::tt_bytes_at_most`])
    /// that the commands give a solve when no size is given, with `available_bytes` bytes of
    /// memory available ([`crate::available_memory_bytes`]; `None` where it cannot be read):
    /// [`Solver::SIZED_TT_MAX_BYTES`] (256 MiB) or half of `available_bytes` (rounded down),
    /// the smaller; 256 MiB when `available_bytes` is `None`. The table a position then gets
    /// is [`Solver::sized_table_bytes`] under this cap.
    ///
    /// ```
    /// use mancala_solver::Solver;
    /// assert_eq!(Solver::sized_table_cap(None), 256 << 20);
    /// assert_eq!(Solver::sized_table_cap(Some(8 << 30)), 256 << 20); // 8 GiB available
    /// assert_eq!(Solver::sized_table_cap(Some(300 << 20)), 150 << 20); // half of 300 MiB
    /// ```
    #[must_use]
    pub fn sized_table_cap(available_bytes: Option<u64>) -> usize {
        let half = available_bytes.map_or(usize::MAX, |bytes| {
            usize::try_from(bytes / 2).unwrap_or(usize::MAX)
        });
        Solver::SIZED_TT_MAX_BYTES.min(half)
    }

    /// Whether `pos` is small enough to solve exactly: its positions must have keys below 2^62,
    /// C(seeds + 2m, 2m) for its seeds in the houses on m houses a row. Every solve checks it
    /// first; a caller checks it here before reading or building a database for the position
    /// (which would be of no use).
    ///
    /// # Errors
    /// [`SolveError::TooLarge`] with the seeds in the houses and m.
    ///
    /// ```
    /// use mancala_core::kalah::{KalahOptions, KalahPosition, KalahRules};
    /// use mancala_solver::{SolveError, Solver};
    /// let start = |m, n| KalahPosition::start(KalahRules::new(m, n, KalahOptions::NONE).unwrap());
    /// assert!(Solver::check_size(&start(6, 6)).is_ok());
    /// // 252 seeds on 14 houses: C(266, 14) is above 2^62.
    /// assert_eq!(
    ///     Solver::check_size(&start(7, 18)),
    ///     Err(SolveError::TooLarge { seeds: 252, houses: 7 })
    /// );
    /// ```
    pub fn check_size(pos: &KalahPosition) -> Result<(), SolveError> {
        let houses = pos.rules().houses();
        let seeds = pos.seeds_in_houses();
        rank_space(houses as usize, seeds)
            .map(|_| ())
            .ok_or(SolveError::TooLarge { seeds, houses })
    }

    /// The largest table sized to the position ([`Solver::tt_bytes_at_most`]) that a solve
    /// under a time limit of `limit` gets, in bytes: 64 MiB for each second of the limit, at
    /// least 4 MiB (the floor of [`Solver::sized_table_bytes`]). The kernel zeroes each page of
    /// a table at its first touch, and a search touches nearly all of them in its first
    /// thousand nodes, before it first looks at the clock: 0.15–0.6 s of system time for
    /// 256 MiB on the two-core machine of the measurements (docs/performance-history.md,
    /// "Huge pages for the database"), which a limit of 0.2 s cannot hold. A search of one
    /// thread fills about 4 bytes of table a node at some 5 M nodes a second, 20 MB a second,
    /// so this cap leaves room for three threads. A size given ([`Solver::tt_bytes`]) is kept
    /// whatever the limit.
    ///
    /// ```
    /// use mancala_solver::Solver;
    /// use std::time::Duration;
    /// assert_eq!(Solver::sized_table_cap_within(Duration::from_millis(200)), 13_421_772); // 0.2 · 64 MiB
    /// assert_eq!(Solver::sized_table_cap_within(Duration::from_secs(4)), 256 << 20);
    /// assert_eq!(Solver::sized_table_cap_within(Duration::ZERO), 4 << 20);
    /// assert_eq!(Solver::sized_table_cap_within(Duration::MAX), usize::MAX);
    /// ```
    #[must_use]
    pub fn sized_table_cap_within(limit: Duration) -> usize {
        let bytes = limit.as_secs_f64() * f64::from(64u32 << 20);
        // `as` saturates: a limit of centuries is no cap.
        (bytes as usize).max(MIN_SIZED_TABLE_BYTES)
    }

    /// A solver with every available thread, a lock-free table sized to each position solved
    /// (at most [`Solver::DEFAULT_TT_BYTES`], 64 MiB; [`Solver::tt_bytes_at_most`]), no database and
    /// no limit.
    #[must_use]
    pub fn new() -> Solver {
        Solver {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            tt_bytes: Solver::DEFAULT_TT_BYTES,
            tt_sized: true,
            table_kind: TableKind::LockFree,
            egdb: None,
            node_limit: None,
            time_limit: None,
            cancel: None,
            split_margin: super::search::SPLIT_MARGIN,
            state: Mutex::new(State::default()),
        }
    }

    /// Search threads (at least 1; a solve with more than [`MAX_THREADS`] is refused with
    /// [`SolveError::Threads`] before any thread starts). The value never depends on it.
    #[must_use]
    pub fn threads(mut self, threads: usize) -> Solver {
        self.threads = threads.max(1);
        self
    }

    /// Where the search splits its work over the threads: nodes with at least `seeds` seeds
    /// in the houses more than the database holds (more than 0 without one) search their
    /// younger brothers in parallel once the eldest has not refuted the window (young brothers
    /// wait; see the `parallel` module). Default 8, the best measured on Kalah(6,4) with a
    /// 20-seed database (docs/performance-history.md, "Parallel search"); smaller splits more often, with more
    /// overhead. Neither the value nor the best moves depend on it; with one thread it has no
    /// effect.
    #[must_use]
    pub fn split_margin(mut self, seeds: u32) -> Solver {
        self.split_margin = seeds;
        self
    }

    /// Size of the lock-free table, bytes, the same whatever the position (not sized to it as
    /// [`Solver::tt_bytes_at_most`] does), but capped by what the position can use: rounded
    /// down to a power of two of 32-byte buckets, then at most one bucket a key of the
    /// position's key space (2^B buckets for C(seeds + 2m, 2m) ≤ 2^B ranks: 512 MiB for
    /// Kalah(4,3) from the start) and at most 2^40 buckets (32 TiB), and more than asked when
    /// the key space needs it (see [`LockFreeTable::new`]). So `usize::MAX` solves a small
    /// position; [`SolveError::OutOfMemory`] comes only when the capped size cannot be had.
    #[must_use]
    pub fn tt_bytes(mut self, bytes: usize) -> Solver {
        self.tt_bytes = bytes;
        self.tt_sized = false;
        self.state_mut().lock_free = None;
        self
    }

    /// A lock-free table sized to each position solved, at most `max_bytes` bytes: the size
    /// [`Solver::sized_table_bytes`] gives for the position's seeds in the houses and the
    /// database's (4 MiB for Kalah(6,3), 36 seeds; without a database the whole `max_bytes`
    /// from 43 seeds on when it is 64 MiB; 8 MiB for Kalah(6,4) with a 20-seed database), made
    /// at the first call and made again, larger and empty, when a later call needs a larger
    /// one (a smaller position keeps the larger table and what it holds). This is the
    /// default, with `max_bytes` = [`Solver::DEFAULT_TT_BYTES`]. Under a time limit
    /// ([`Solver::time_limit`]) the size is also at most [`Solver::sized_table_cap_within`]
    /// the limit (64 MiB a second), so that the kernel's zeroing of the table's pages does not
    /// overrun a short limit. The table's size changes the nodes
    /// searched, never the value, the best moves or the principal variation.
    #[must_use]
    pub fn tt_bytes_at_most(mut self, max_bytes: usize) -> Solver {
        self.tt_bytes = max_bytes;
        self.tt_sized = true;
        self.state_mut().lock_free = None;
        self
    }

    /// Which table to use.
    #[must_use]
    pub fn table(mut self, kind: TableKind) -> Solver {
        self.table_kind = kind;
        self
    }

    /// An endgame database probed for every position with at most its K seeds in the houses.
    /// It must match the rules of the positions solved ([`SolveError::DatabaseMismatch`]).
    #[must_use]
    pub fn database(mut self, db: Arc<Egdb>) -> Solver {
        self.egdb = Some(db);
        self
    }

    /// The endgame database set with [`Solver::database`], if any.
    #[must_use]
    pub fn attached_database(&self) -> Option<&Arc<Egdb>> {
        self.egdb.as_ref()
    }

    /// Stop after about this many nodes in all (checked every 2048 nodes a thread, so a few
    /// thousand more may be searched); `None` = no limit. The limit holds for the whole call:
    /// a solve's value, best moves and principal variation together, and an analysis's
    /// moves together (the first moves may use it all, the later ones then keep their
    /// starting bounds). The first guess of MTD(f) counts too.
    #[must_use]
    pub fn node_limit(mut self, nodes: Option<u64>) -> Solver {
        self.node_limit = nodes;
        self
    }

    /// Stop after about this much wall time; `None` = no limit, as is a time too large for
    /// the clock (`Duration::MAX`).
    #[must_use]
    pub fn time_limit(mut self, limit: Option<Duration>) -> Solver {
        self.time_limit = limit;
        self
    }

    /// A flag another thread may set to stop the search; the solve then returns its bounds.
    #[must_use]
    pub fn cancel_flag(mut self, flag: Arc<AtomicBool>) -> Solver {
        self.cancel = Some(flag);
        self
    }

    /// Forgets every table entry.
    pub fn clear_table(&mut self) {
        let state = self.state_mut();
        state.lock_free = None;
        state.exact = None;
        state.filled_for = None;
    }

    /// The state, without locking (no other reference exists).
    fn state_mut(&mut self) -> &mut State {
        self.state.get_mut().unwrap_or_else(PoisonError::into_inner)
    }

    /// The state, locked for one call. A call that panicked (a bug) left it poisoned: its
    /// tables are then dropped, never trusted.
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|poisoned| {
            self.state.clear_poison();
            let mut state = poisoned.into_inner();
            *state = State::default();
            state
        })
    }

    /// The endgame database attached, replaced by `db` (or removed).
    pub(crate) fn attach(&mut self, db: Option<Arc<Egdb>>) {
        self.egdb = db;
    }

    /// Solves `pos` exactly (or within the limits): value, final score, every best move, a
    /// principal variation, the pie-rule choice when a swap is offered, nodes and time.
    /// `options` may ask for progress reports ([`SolveOptions::progress`]); a solve that the
    /// progress callback stops holds the bounds proven so far, `exact` false when the value
    /// was not proven yet. The value found is the same with or without reports.
    ///
    /// # Errors
    /// [`SolveError::TooLarge`], [`SolveError::DatabaseMismatch`], [`SolveError::Threads`]
    /// (also when the helper thread of the reports cannot start),
    /// [`SolveError::OutOfMemory`].
    pub fn solve(
        &mut self,
        pos: &KalahPosition,
        options: SolveOptions<'_>,
    ) -> Result<Solution, SolveError> {
        match self.run(pos, Job::Solve, options.progress)? {
            Output::Solved(s) => Ok(s),
            _ => unreachable!("solve job"),
        }
    }

    /// The value of every legal move of `pos` (for the player to move, seeds), the swap
    /// included when offered. A finished game has no move. With progress reports
    /// ([`SolveOptions::progress`]) the phase is
    /// [`SolvePhase::Move`](crate::SolvePhase::Move) with the bounds of the move being valued;
    /// after a [`ControlFlow::Break`] the move being valued keeps its bounds and the later
    /// moves their starting interval (`exact` false).
    ///
    /// # Errors
    /// As [`Solver::solve`].
    pub fn analyse(
        &mut self,
        pos: &KalahPosition,
        options: SolveOptions<'_>,
    ) -> Result<Analysis, SolveError> {
        match self.run(pos, Job::Analyse, options.progress)? {
            Output::Analysed(a) => Ok(a),
            _ => unreachable!("analyse job"),
        }
    }

    /// The value of `pos` for the player to move (seeds, as [`Solution::value`]) searched
    /// only as far as the open window `(lower, upper)` needs: proven bounds
    /// `lower' ≤ value ≤ upper'` such that the value is exact (`lower' == upper'`), or proven
    /// at most `lower` (`upper' ≤ lower`), or proven at least `upper` (`lower' ≥ upper`).
    /// A value strictly inside the window is therefore always exact; one outside it is only
    /// bounded (fail-soft: the bound may be tighter than the window's end). Best moves, the
    /// principal variation and the pie-rule choice are not searched (use [`Solver::solve`]).
    ///
    /// The algorithm is the MTD(f) driver of [`Solver::solve`] (Plaat, Schaeffer, Pijls &
    /// de Bruin 1996) restricted to the window: null-window probes, each β chosen inside the
    /// window (and inside the interval proven so far), until the window is answered. A null
    /// window `(β − 1, β)` is one probe, which answers "is the value at least β?"; the window
    /// `(i32::MIN, i32::MAX)` proves the exact value with the probes of [`Solver::solve`]'s
    /// value (its first guess included), without the rest of `solve`'s work. A window with
    /// at most two values to test starts from no heuristic guess (the guess costs nodes that
    /// so few probes do not repay). The transposition table is kept between calls on
    /// positions of the same rules, as for `solve`, so a position probed again with another
    /// window reuses what the earlier probes proved. At one thread the nodes searched are the
    /// same in every run.
    ///
    /// Limits ([`Solver::node_limit`], [`Solver::time_limit`]), the cancel flag and the
    /// progress callback of `options` ([`SolveOptions::progress`], phase
    /// [`SolvePhase::Value`](crate::SolvePhase::Value) with the bounds proven so far) hold
    /// for the call; a search they stop returns the bounds proven so far with `settled`
    /// false unless they already answer the window. A finished game is exact, 0, with no
    /// node searched. A window beyond the position's
    /// possible values (±seeds in the houses, more under the opening rules) is answered by
    /// that bound alone, with no node searched.
    ///
    /// # Errors
    /// [`SolveError::EmptyWindow`] when `lower ≥ upper`; otherwise as [`Solver::solve`].
    pub fn solve_within(
        &mut self,
        pos: &KalahPosition,
        lower: i32,
        upper: i32,
        options: SolveOptions<'_>,
    ) -> Result<WindowSolution, SolveError> {
        if lower >= upper {
            return Err(SolveError::EmptyWindow { lower, upper });
        }
        match self.run(pos, Job::Window(lower, upper), options.progress)? {
            Output::Windowed(w) => Ok(w),
            _ => unreachable!("window job"),
        }
    }

    /// A heuristic estimate (not a bound) of the value of `pos` for the player to move
    /// (seeds, as [`Solution::value`]): alpha-beta `depth` plies deep on the moves' gains
    /// alone (a position's unknown future counts 0), exact where the endgame database holds
    /// the position. [`Solver::solve`] starts its MTD(f) from this estimate at
    /// [`Solver::guess_depth`] plies; a caller driving MTD(f) itself (as `mancala-mpi`'s
    /// distributed solve does over its tree) starts from the same guess. It uses no table.
    ///
    /// Returns the estimate and the nodes searched (a finished game: 0 and 0). The limits
    /// and the cancel flag hold; a stopped estimate is 0.
    ///
    /// # Errors
    /// As [`Solver::solve`].
    pub fn estimate(&mut self, pos: &KalahPosition, depth: u32) -> Result<(i32, u64), SolveError> {
        match self.run(pos, Job::Estimate(depth), None)? {
            Output::Estimated(v, nodes) => Ok((v, nodes)),
            _ => unreachable!("estimate job"),
        }
    }

    /// [`Solver::analyse`] without progress reports, through a shared reference: the
    /// state is locked for the call (another call through the same solver waits for it).
    ///
    /// # Errors
    /// As [`Solver::analyse`].
    pub(crate) fn analyse_shared(&self, pos: &KalahPosition) -> Result<Analysis, SolveError> {
        match self.run(pos, Job::Analyse, None)? {
            Output::Analysed(a) => Ok(a),
            _ => unreachable!("analyse job"),
        }
    }

    /// The exact value of `pos` through a shared reference ([`Solver::solve_within`] of the
    /// whole window, without progress reports): `None` when a limit stopped it first.
    ///
    /// # Errors
    /// As [`Solver::solve`].
    pub(crate) fn value_shared(&self, pos: &KalahPosition) -> Result<Option<i32>, SolveError> {
        match self.run(pos, Job::Window(i32::MIN, i32::MAX), None)? {
            Output::Windowed(w) => Ok(w.exact()),
            _ => unreachable!("window job"),
        }
    }

    /// Runs `job` on `pos` (the one call of every public call), with the state locked for
    /// its duration.
    fn run(
        &self,
        pos: &KalahPosition,
        job: Job,
        watch: Option<(Duration, Callback<'_>)>,
    ) -> Result<Output, SolveError> {
        let t0 = Instant::now();
        if pos.is_over() {
            return Ok(finished(pos, job, t0));
        }
        let mut state = self.lock();
        let state = &mut *state;
        let flags = self.prepare(state, pos)?;
        let m = pos.rules().houses();
        let seeds = pos.seeds_in_houses();
        let board = watch.is_some().then(|| first_board(pos, job, t0));
        let board = board.as_ref();
        // `spent`: nodes already searched by this call, so that the node limit holds for the
        // whole call (every move of an analysis, the value and the best moves of a solve),
        // as the time limit does.
        let shared = |spent: u64| {
            let mut sh = Shared::new(
                self.node_limit.map(|n| n.saturating_sub(spent)),
                // A limit beyond what an `Instant` can hold (`Duration::MAX`) is no limit.
                self.time_limit.and_then(|d| t0.checked_add(d)),
                self.cancel.clone(),
            );
            sh.split_margin = self.split_margin;
            sh.tie = super::order::TieRule::for_root(m as usize, seeds);
            let sh = Arc::new(sh);
            if let Some(b) = board {
                b.attach(&sh);
            }
            sh
        };
        let pool = &state.pool.as_ref().expect("pool built above").1;
        let db = self.egdb.as_ref().map(|d| (d.probe(), d.max_seeds()));
        let lock_free = state.lock_free.as_ref();
        let exact = state.exact.as_ref();
        let table_kind = self.table_kind;
        macro_rules! go {
            ($m:literal) => {{
                let g = Geometry::<$m>::new(flags);
                match table_kind {
                    TableKind::LockFree => {
                        let tt = lock_free.expect("table built above");
                        let ctx = Ctx {
                            g: &g,
                            tt,
                            db,
                            pool,
                            progress: board,
                        };
                        drive(&ctx, pos, job, &shared, t0)
                    }
                    TableKind::Exact => {
                        let tt = exact.expect("table built above");
                        let ctx = Ctx {
                            g: &g,
                            tt,
                            db,
                            pool,
                            progress: board,
                        };
                        drive(&ctx, pos, job, &shared, t0)
                    }
                }
            }};
        }
        let work = move || match m {
            1 => go!(1),
            2 => go!(2),
            3 => go!(3),
            4 => go!(4),
            5 => go!(5),
            6 => go!(6),
            _ => go!(7),
        };
        match (watch, board) {
            (Some((interval, callback)), Some(b)) => {
                progress::watch(interval, work, || callback(&b.snapshot()), || b.cancel())
                    .map_err(|e| SolveError::Threads(e.to_string()))
            }
            _ => Ok(work()),
        }
    }

    /// Checks that `pos` (not a finished game) can be searched with this configuration (its
    /// key space, the database's rules, the number of threads) and gets the thread pool and
    /// the table ready for its rules; returns the search's rule flags.
    fn prepare(&self, state: &mut State, pos: &KalahPosition) -> Result<Flags, SolveError> {
        let rules = pos.rules();
        let m = rules.houses();
        let seeds = pos.seeds_in_houses();
        let space =
            rank_space(m as usize, seeds).ok_or(SolveError::TooLarge { seeds, houses: m })?;
        let key_bits = (64 - space.saturating_sub(1).leading_zeros()).max(1);
        let flags = flags_of(pos);
        if let Some(db) = &self.egdb {
            if !db.serves(&rules) {
                return Err(SolveError::DatabaseMismatch {
                    database: db.description(),
                    position: rules.to_string(),
                });
            }
        }
        if self.threads > MAX_THREADS {
            // rayon would start threads until the system refuses (seen: 2,738 threads for a
            // request of 2^40 from Python, the machine unusable for minutes).
            return Err(SolveError::Threads(format!(
                "{} threads asked for, at most {MAX_THREADS}",
                self.threads
            )));
        }
        if state.pool.as_ref().map(|p| p.0) != Some(self.threads) {
            // The old pool, if any, first: its threads end before the new ones start.
            state.pool = None;
            let pool = crate::pool::Pool::new(self.threads, "mancala-solver")
                .map_err(|e| SolveError::Threads(e.to_string()))?;
            state.pool = Some((self.threads, pool));
        }
        let bytes = if self.tt_sized {
            let database_seeds = self.egdb.as_ref().map_or(0, |d| d.max_seeds());
            let cap = self.time_limit.map_or(self.tt_bytes, |limit| {
                self.tt_bytes.min(Solver::sized_table_cap_within(limit))
            });
            Solver::sized_table_bytes(seeds, database_seeds, cap)
        } else {
            self.tt_bytes
        };
        self.prepare_table(state, m, flags, key_bits, bytes)?;
        Ok(flags)
    }

    /// Gets the table ready for positions of m = `m` and the rule `flags` with keys of
    /// `key_bits` bits and a lock-free table of `bytes` bytes: made on first use, made again
    /// when it was asked smaller than `bytes`, emptied when the rules changed or the keys grew
    /// (an entry of other rules would be a wrong value).
    fn prepare_table(
        &self,
        state: &mut State,
        m: u8,
        flags: Flags,
        key_bits: u32,
        bytes: usize,
    ) -> Result<(), SolveError> {
        let fresh = state.filled_for != Some((m, flags));
        match self.table_kind {
            TableKind::LockFree => {
                if state
                    .lock_free
                    .as_ref()
                    .is_some_and(|t| t.requested_bytes() < bytes)
                {
                    // The old table first: its memory is given back before the new one's.
                    state.lock_free = None;
                }
                if state.lock_free.is_none() {
                    state.lock_free = Some(LockFreeTable::new(bytes, key_bits)?);
                }
                if let Some(t) = &mut state.lock_free {
                    if fresh || key_bits > t.key_bits() {
                        if let Err(e) = t.reset(key_bits.max(t.key_bits())) {
                            // Never keep a table without memory: the next solve tries again.
                            state.lock_free = None;
                            state.filled_for = None;
                            return Err(e.into());
                        }
                    }
                }
            }
            TableKind::Exact => {
                let t = state.exact.get_or_insert_with(ExactTable::new);
                if fresh {
                    t.reset(62)?;
                }
            }
        }
        state.filled_for = Some((m, flags));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::search::Searcher;
    use mancala_core::kalah::KalahMove;

    /// Without a size and a database, the table follows the position's seeds in the houses:
    /// 2^(⌈seeds/2⌉ + 4) bytes, at least 4 MiB, at most the cap (the rule of `Solver::sized_table_bytes`,
    /// worked out by hand below), made again larger for a larger position and kept for a
    /// smaller one; a size given is kept whatever the position.
    #[test]
    fn the_table_is_sized_to_the_position_unless_a_size_is_given() {
        fn table_after(s: &mut Solver, rules: &str) -> Option<usize> {
            let pos = KalahPosition::start(rules.parse().unwrap());
            s.solve(&pos, SolveOptions::new()).unwrap();
            s.state_mut().lock_free.as_ref().map(|t| t.bytes())
        }
        let mut s = Solver::new().threads(1).node_limit(Some(1000));
        // Kalah(4,2): 16 seeds, 2^(8 + 4) bytes, raised to 4 MiB; Kalah(6,3): 36 seeds,
        // 2^(18 + 4) bytes = 4 MiB.
        assert_eq!(table_after(&mut s, "kalah(4,2)"), Some(4 << 20));
        assert_eq!(table_after(&mut s, "kalah(6,3)"), Some(4 << 20));
        // Kalah(7,3): 42 seeds, 2^(21 + 4) bytes = 32 MiB, kept for a smaller position.
        assert_eq!(table_after(&mut s, "kalah(7,3)"), Some(32 << 20));
        assert_eq!(table_after(&mut s, "kalah(4,2)"), Some(32 << 20));
        // Kalah(6,4): 48 seeds, 2^28 bytes, held to the default cap of 64 MiB.
        assert_eq!(table_after(&mut s, "kalah(6,4)"), Some(64 << 20));
        // Kalah(5,3): 30 seeds, 2^(15 + 4) = 512 KiB, raised to 4 MiB, under a cap of 8 MiB;
        // Kalah(6,4) held to that cap; a cap below 4 MiB wins over the floor.
        let mut s = Solver::new().threads(1).node_limit(Some(1000));
        s = s.tt_bytes_at_most(8 << 20);
        assert_eq!(table_after(&mut s, "kalah(5,3)"), Some(4 << 20));
        assert_eq!(table_after(&mut s, "kalah(6,4)"), Some(8 << 20));
        let mut s = Solver::new().threads(1).node_limit(Some(1000));
        s = s.tt_bytes_at_most(1 << 20);
        assert_eq!(table_after(&mut s, "kalah(4,2)"), Some(1 << 20));
        // With a database of 12 seeds, Kalah(6,4) (48 seeds) gets 2^(⌈36/2⌉ + 9) = 128 MiB
        // under a cap of 256 MiB, where it would get 2^(24 + 4) = 256 MiB without.
        let rules = "kalah(6,4)".parse().unwrap();
        let db = Arc::new(Egdb::build(&rules, 12, crate::egdb::BuildOptions::new()).unwrap());
        let mut s = Solver::new().threads(1).node_limit(Some(1000));
        s = s.tt_bytes_at_most(256 << 20);
        assert_eq!(table_after(&mut s, "kalah(6,4)"), Some(256 << 20));
        let mut s = Solver::new()
            .threads(1)
            .node_limit(Some(1000))
            .tt_bytes_at_most(256 << 20)
            .database(db);
        assert_eq!(table_after(&mut s, "kalah(6,4)"), Some(128 << 20));
        // Under a time limit the cap is 64 MiB a second of it: Kalah(6,4) gets
        // 0.1 · 64 MiB = 6.7 MiB, rounded down to a power of two of buckets, 4 MiB; with a
        // limit of 10 s the default cap of 64 MiB; a size given is kept whatever the limit.
        let limited = |secs: f64| {
            Solver::new()
                .threads(1)
                .node_limit(Some(1000))
                .time_limit(Some(Duration::from_secs_f64(secs)))
        };
        assert_eq!(table_after(&mut limited(0.1), "kalah(6,4)"), Some(4 << 20));
        assert_eq!(
            table_after(&mut limited(10.0), "kalah(6,4)"),
            Some(64 << 20)
        );
        let mut s = limited(0.1).tt_bytes(32 << 20);
        assert_eq!(table_after(&mut s, "kalah(6,4)"), Some(32 << 20));
        // A size given is kept: 1 MiB for Kalah(6,4), 8 MiB for Kalah(4,2).
        let mut s = Solver::new()
            .threads(1)
            .node_limit(Some(1000))
            .tt_bytes(1 << 20);
        assert_eq!(table_after(&mut s, "kalah(6,4)"), Some(1 << 20));
        let mut s = Solver::new()
            .threads(1)
            .node_limit(Some(1000))
            .tt_bytes(8 << 20);
        assert_eq!(table_after(&mut s, "kalah(4,2)"), Some(8 << 20));
    }

    /// The commands' cap of a table sized to the position, worked out by hand from its rule
    /// (256 MiB, or half the memory available when that is smaller), and the tables the
    /// positions then get (2^(⌈seeds/2⌉ + 4) bytes, at least 4 MiB, under the cap).
    #[test]
    fn the_commands_cap_is_256_mib_or_half_the_memory_available() {
        const MIB: usize = 1 << 20;
        assert_eq!(Solver::SIZED_TT_MAX_BYTES, 268_435_456);
        assert_eq!(Solver::sized_table_cap(None), 268_435_456);
        assert_eq!(Solver::sized_table_cap(Some(u64::MAX)), 268_435_456);
        // 512 MiB available: half is exactly the cap; 1 byte less: half rounded down.
        assert_eq!(Solver::sized_table_cap(Some(536_870_912)), 268_435_456);
        assert_eq!(Solver::sized_table_cap(Some(536_870_911)), 268_435_455);
        assert_eq!(Solver::sized_table_cap(Some(100 << 20)), 50 * MIB);
        assert_eq!(Solver::sized_table_cap(Some(1)), 0);
        assert_eq!(Solver::sized_table_cap(Some(0)), 0);
        // Kalah(6,4), 48 seeds: 2^28 bytes = 256 MiB wanted, the cap with 8 GiB, 150 MiB with
        // 300 MiB available; Kalah(6,3), 36 seeds: 2^22 bytes = 4 MiB either way; Kalah(4,2),
        // 16 seeds: 2^12 bytes raised to 4 MiB, but held to 3 MiB with 6 MiB available.
        let cap = |avail: u64| Solver::sized_table_cap(Some(avail));
        assert_eq!(Solver::sized_table_bytes(48, 0, cap(8 << 30)), 256 * MIB);
        assert_eq!(Solver::sized_table_bytes(48, 0, cap(300 << 20)), 150 * MIB);
        assert_eq!(Solver::sized_table_bytes(36, 0, cap(8 << 30)), 4 * MIB);
        assert_eq!(Solver::sized_table_bytes(36, 0, cap(300 << 20)), 4 * MIB);
        assert_eq!(Solver::sized_table_bytes(16, 0, cap(6 << 20)), 3 * MIB);
    }

    /// The heuristic estimate (MTD(f)'s first guess) searched deeper than the game lasts is
    /// the exact value: at `1,0,0,0 N swap` of Kalah(1,1) with the pie rule, the swap ends
    /// the game at `0,1,0,0 -`, and the decider, now holding South, is +1 (the rules
    /// engine's final stores).
    #[test]
    fn estimate_scores_a_swap_that_ends_the_game() {
        let rules = "kalah(1,1)+pie_rule+end_when_no_move".parse().unwrap();
        let p = KalahPosition::parse(rules, "1,0,0,0 N swap").unwrap();
        assert_eq!(p.play(KalahMove::Swap).unwrap().to_string(), "0,1,0,0 -");
        let g = Geometry::<1>::new(flags_of(&p));
        let tt = ExactTable::new();
        let sh = Shared::new(None, None, None);
        let mut s = Searcher::new(&g, &tt, None, &sh);
        assert_eq!(s.estimate_pos(&p, 8), 1);
        // kalah(2,1)+pie_rule+end_when_no_move, `0,1,2,1,0,0 N swap` (by hand, final stores):
        // North's house 1 sows its seed into North's house 2 (facing South's empty house 1:
        // no capture); South sows house 2 into the store (extra turn) and, the row empty, the
        // game ends, North's seed swept to North: 3 to 1, North's margin −2, value 0 from −2.
        // Swapping instead, the decider holds South and the same moves follow: 3 to 1, margin
        // +2, value +2 − (−2) = +4, the best move.
        let rules = "kalah(2,1)+pie_rule+end_when_no_move".parse().unwrap();
        let p = KalahPosition::parse(rules, "0,1,2,1,0,0 N swap").unwrap();
        let g = Geometry::<2>::new(flags_of(&p));
        let mut s = Searcher::new(&g, &tt, None, &sh);
        assert_eq!(s.estimate_pos(&p, 40), 4);
    }
}
