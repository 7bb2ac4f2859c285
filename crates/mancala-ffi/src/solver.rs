//! `MancalaSolver`: the exact Kalah solver (value, best moves, per-move analysis) with
//! threads, a transposition table sized in bytes, node and time limits, and a cancel call
//! that is safe from another thread.

use std::sync::Mutex;
use std::time::Duration;

use mancala_core::kalah::KalahPosition;
use mancala_core::AnyGame;
use mancala_solver::{SolveError, SolveOptions, Solver};

use crate::cancel::CancelGate;
use crate::db::MancalaDb;
use crate::egdb::MancalaEgdb;
use crate::game::{GameHandle, MancalaGame};
use crate::handle::{self, Handle, Kind};
use crate::io;
use crate::kalah::{encode_move, MancalaKalah, MANCALA_KALAH_MAX_MOVES};
use crate::progress::{self, MancalaSolveProgressFn, SolveHook};
use crate::status::{guard, Error, MancalaStatus, Result};

/// How to make a solver. All zero means: every available thread, a table sized to each
/// position solved (at most 64 MiB), no limit.
/// Sizes and limits may be changed later with `mancala_solver_set_limits`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MancalaSolverConfig {
    /// Search threads; 0 = every available core, at most 1024 (`mancala_solver_new`
    /// refuses more). The value found never depends on it.
    pub threads: u32,
    /// Size of the transposition table in bytes, the same for every position, but capped by
    /// what the position solved can use: rounded down to a power of two of 32-byte buckets,
    /// then at most one bucket a key (2^B buckets, B the smallest with C(seeds + 2m, 2m) ≤ 2^B
    /// for its seeds in the houses and m houses a row: 512 MiB for Kalah(4,3) from the start)
    /// and at most 2^40 buckets (32 TiB); more than asked when the key space needs it (at least
    /// 2^(B − 37) buckets: 32 MiB for Kalah(7,7) from the start). So a huge size (`UINT64_MAX`,
    /// 2^50) is accepted, a small position takes only what it can use, and a solve returns
    /// `MANCALA_STATUS_OUT_OF_MEMORY` only when the capped size cannot be had (2^45 for
    /// Kalah(6,4) from the start: 32 TiB). The engine's `MancalaEngineConfig.tt_bytes` is not
    /// capped by the position: the same huge value there gives `MANCALA_STATUS_OUT_OF_MEMORY`
    /// at the first search. 0 = sized to each position solved: 2^(ceil(seeds / 2) + 4) bytes
    /// for its seeds in the houses, from 4 MiB up to 64 MiB (4 MiB for Kalah(6,3), 64 MiB
    /// from 43 seeds on), and with a database of K seeds at most 2^(ceil((seeds - K) / 2) + 9)
    /// bytes (8 MiB for Kalah(6,4) with K = 20), so that a solve does not pay for memory that
    /// does not speed it up.
    pub tt_bytes: u64,
    /// Stop a solve after about this many positions (nodes); 0 = no limit.
    pub node_limit: u64,
    /// Stop a solve after about this many milliseconds of wall time; 0 = no limit.
    pub time_limit_ms: u64,
}

/// The result of `mancala_solver_solve_game` (or `mancala_solver_solve`). Values are in seeds, from the point of view of the
/// player to move: `value` is the store difference that player can still gain with perfect
/// play on both sides (future seeds into their store minus into the opponent's, final sweep
/// included).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MancalaSolution {
    /// The exact value when `exact`, otherwise the proven lower bound.
    pub value: i32,
    /// Proven lower bound of the value.
    pub lower: i32,
    /// Proven upper bound of the value.
    pub upper: i32,
    /// Whether the value is proven exactly (false after a node/time limit or a cancel).
    pub exact: bool,
    /// Final margin of the player to move with perfect play: their store now minus the
    /// opponent's, plus `value`. For a finished game: South's store minus North's.
    pub score: i32,
    /// How many entries of `best_moves` are used (0 unless `exact`; 0 for a finished game).
    pub best_move_count: u32,
    /// Every move that reaches the value (house numbers, or `MANCALA_KALAH_SWAP`), in legal-move
    /// order.
    pub best_moves: [u8; MANCALA_KALAH_MAX_MOVES],
    /// Whether the player to move may swap (pie rule) and the value is exact; then
    /// `swap_value` is set, and `stay_value` when `has_stay_value`.
    pub swap_offered: bool,
    /// The value of swapping (when `swap_offered`; 0 otherwise).
    pub swap_value: i32,
    /// The value of the best house move (when `has_stay_value`; 0 otherwise).
    pub stay_value: i32,
    /// Whether `stay_value` holds a value: `swap_offered` and the player to move has a house
    /// move. False when the swap is the only legal move (under `end_when_no_move` the swap is
    /// offered even when North's row is empty): there is then no house move to value.
    pub has_stay_value: bool,
    /// Whether swapping is strictly better than every house move (when `swap_offered`; true
    /// when there is no house move).
    pub swap_is_better: bool,
    /// Positions searched, all threads.
    pub nodes: u64,
    /// Wall time, seconds.
    pub seconds: f64,
}

/// One legal move with its value, as written by `mancala_solver_analyse_game` (or
/// `mancala_solver_analyse`; seeds, for the player to move, as `MancalaSolution::value`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MancalaMoveValue {
    /// The move: a house number 1..=m or `MANCALA_KALAH_SWAP`.
    pub mv: u8,
    /// Its value when `exact`, otherwise the proven lower bound.
    pub value: i32,
    /// Proven lower bound.
    pub lower: i32,
    /// Proven upper bound.
    pub upper: i32,
    /// Whether the value is exact.
    pub exact: bool,
}

/// An opaque exact Kalah solver. Its transposition table is kept between solves of positions
/// with the same rules.
///
/// Created by `mancala_solver_new`, freed by `mancala_solver_free`. Thread safety:
/// `mancala_solver_cancel` may be called from any thread at any time while the handle lives;
/// the other calls on one solver are serialised by an internal lock (a second solve waits for
/// the first). The solver must not be freed while another thread uses it.
pub struct MancalaSolver {
    solver: Mutex<Solver>,
    /// The cancel request of the calls in progress (`crate::cancel`).
    cancel: CancelGate,
    /// The progress callback of the solves (`mancala_solver_set_progress`).
    hook: Mutex<Option<SolveHook>>,
}

impl Handle for MancalaSolver {
    const KIND: Kind = Kind::Solver;
}

fn limits(solver: Solver, node_limit: u64, time_limit_ms: u64) -> Solver {
    solver
        .node_limit((node_limit > 0).then_some(node_limit))
        .time_limit((time_limit_ms > 0).then(|| Duration::from_millis(time_limit_ms)))
}

fn solve_error(e: SolveError) -> Error {
    let status = match e {
        SolveError::DatabaseMismatch { .. } => MancalaStatus::DatabaseMismatch,
        SolveError::OutOfMemory(_) => MancalaStatus::OutOfMemory,
        _ => MancalaStatus::SolveFailed,
    };
    Error::new(status, e.to_string())
}

impl MancalaSolver {
    /// Runs `f` on the solver; the call counts as in progress (a cancel stops it) from
    /// before it waits for the solver's lock until it returns.
    fn with_solver<T>(&self, f: impl FnOnce(&mut Solver) -> Result<T>) -> Result<T> {
        let _call = self.cancel.enter();
        let mut solver = self.solver.lock().unwrap_or_else(|e| e.into_inner());
        f(&mut solver)
    }

    /// The registered progress callback, if any.
    fn hook(&self) -> Option<SolveHook> {
        *self.hook.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Applies a builder method (which takes the solver by value) in place.
    fn rebuild(&self, f: impl FnOnce(Solver) -> Solver) {
        let mut solver = self.solver.lock().unwrap_or_else(|e| e.into_inner());
        let old = std::mem::take(&mut *solver);
        *solver = f(old);
    }
}

/// Makes a solver.
///
/// Ownership: `config` is only read. On success `*out` is a new handle owned by the caller,
/// released with `mancala_solver_free`. The table memory is taken at the first solve.
/// Thread safety: safe from any thread.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_NULL_POINTER` (`config` or `out` NULL),
/// `MANCALA_STATUS_INVALID_ARGUMENT` (`tt_bytes` does not fit the address space, or more
/// than 1024 `threads`, the most the library starts, as `mancala_db_build`) or
/// `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `config` must be NULL or point to a `MancalaSolverConfig`; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_solver_new(
    config: *const MancalaSolverConfig,
    out: *mut *mut MancalaSolver,
) -> MancalaStatus {
    guard(|| {
        let out = io::out_ptr(out, "out")?;
        if config.is_null() {
            return Err(Error::null("config"));
        }
        // SAFETY: non-NULL, points to a config by contract.
        let config = unsafe { *config };
        // Refused here rather than at every solve (`MANCALA_STATUS_SOLVE_FAILED`).
        crate::egdb::check_threads(config.threads)?;
        let mut solver = Solver::new();
        if config.threads > 0 {
            solver = solver.threads(config.threads as usize);
        }
        if config.tt_bytes > 0 {
            solver = solver.tt_bytes(io::table_bytes(config.tt_bytes)?);
        }
        let cancel = CancelGate::new();
        solver = limits(solver, config.node_limit, config.time_limit_ms).cancel_flag(cancel.flag());
        let handle = handle::into_handle(MancalaSolver {
            solver: Mutex::new(solver),
            cancel,
            hook: Mutex::new(None),
        });
        // SAFETY: checked non-NULL; writable by contract.
        unsafe { out.write(handle) };
        Ok(())
    })
}

/// Frees a solver. NULL is a no-op (`MANCALA_STATUS_OK`).
///
/// Ownership: the handle is invalid after this call; a database attached with
/// `mancala_solver_set_db` (or `mancala_solver_set_database`) is released by the solver (its own handle stays valid).
/// Thread safety: no other thread may be using `solver` (not even to cancel).
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `solver` must be NULL or a pointer value (it is only dereferenced if it is a live handle).
#[no_mangle]
pub unsafe extern "C" fn mancala_solver_free(solver: *mut MancalaSolver) -> MancalaStatus {
    // SAFETY: the caller's contract: no other thread uses `solver` (`free_entry` checks the rest).
    unsafe { handle::free_entry(solver, "solver") }
}

/// Sets the node and time limits of the next solves (0 = no limit). A solve that reaches a
/// limit returns bounds (`exact` false) instead of failing.
///
/// Thread safety: waits for a solve running on this solver to finish.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_NULL_POINTER`, `MANCALA_STATUS_INVALID_HANDLE`
/// or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `solver` must be NULL or a pointer value.
#[no_mangle]
pub unsafe extern "C" fn mancala_solver_set_limits(
    solver: *mut MancalaSolver,
    node_limit: u64,
    time_limit_ms: u64,
) -> MancalaStatus {
    guard(|| {
        // SAFETY: registry-checked handle (shared: the solver has its own lock).
        let solver = unsafe { handle::get(solver.cast_const(), "solver") }?;
        solver.rebuild(|s| limits(s, node_limit, time_limit_ms));
        Ok(())
    })
}

/// Attaches an endgame database: every later solve probes it for positions with at most its
/// K seeds in the houses. Solving a position of other rules then gives
/// `MANCALA_STATUS_DATABASE_MISMATCH`.
///
/// Ownership: the solver shares the database; the `MancalaEgdb` handle may be freed at any
/// time afterwards (the data lives until the solver is freed too).
/// Thread safety: waits for a solve running on this solver to finish; `db` is only read.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_NULL_POINTER` (`solver` or `db` NULL),
/// `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `solver` and `db` must be NULL or pointer values.
#[no_mangle]
#[deprecated(since = "0.3.0", note = "use mancala_solver_set_db; removed in 0.4.0")]
pub unsafe extern "C" fn mancala_solver_set_database(
    solver: *mut MancalaSolver,
    db: *const MancalaEgdb,
) -> MancalaStatus {
    guard(|| {
        // SAFETY: registry-checked handles.
        let solver = unsafe { handle::get(solver.cast_const(), "solver") }?;
        // SAFETY: registry-checked handle; by the caller's contract no other thread mutates or
        // frees `db` during the call.
        let db = unsafe { handle::get(db, "db") }?;
        let shared = db.shared();
        solver.rebuild(|s| s.database(shared));
        Ok(())
    })
}

/// Attaches a database of exact values (`MancalaDb`) to the solver, as the deprecated
/// `mancala_solver_set_database` does: every later solve probes it for positions with at
/// most its K seeds in the houses. The solver solves Kalah, so the database must be a Kalah
/// one. Solving a position of other rules then gives `MANCALA_STATUS_DATABASE_MISMATCH`.
///
/// Ownership: the solver shares the database; the `MancalaDb` handle may be freed at any time
/// afterwards (the data lives until the solver is freed too).
/// Thread safety: waits for a solve running on this solver to finish; `db` is only read.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_DATABASE_MISMATCH` (a database of another
/// game than Kalah; the solver is unchanged), `MANCALA_STATUS_NULL_POINTER` (`solver` or
/// `db` NULL), `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `solver` and `db` must be NULL or pointer values.
#[no_mangle]
pub unsafe extern "C" fn mancala_solver_set_db(
    solver: *mut MancalaSolver,
    db: *const MancalaDb,
) -> MancalaStatus {
    guard(|| {
        // SAFETY: registry-checked handles.
        let solver = unsafe { handle::get(solver.cast_const(), "solver") }?;
        // SAFETY: registry-checked handle; by the caller's contract no other thread mutates or
        // frees `db` during the call.
        let db = unsafe { handle::get(db, "db") }?;
        let shared = db.shared::<KalahPosition>().ok_or_else(|| {
            Error::new(
                MancalaStatus::DatabaseMismatch,
                "the exact solver solves Kalah: it takes a Kalah database",
            )
        })?;
        solver.rebuild(|s| s.database(shared));
        Ok(())
    })
}

/// Registers (or, with `callback` NULL, removes) the progress callback of the later calls of
/// `mancala_solver_solve_game` and `mancala_solver_analyse_game` (and of the deprecated
/// `mancala_solver_solve` and `mancala_solver_analyse`) on `solver`. While such a call runs,
/// `callback(&progress, user_data)` is called on the calling thread (never on a search
/// thread) every `interval_ms` milliseconds (0 or less than 10: every 10 ms), never after the
/// call ended, so a call shorter than the interval makes none. `progress` holds the phase, the
/// proven bounds on the value (the MTD(f) window closing, for `MANCALA_SOLVE_PHASE_VALUE`),
/// the nodes and the seconds so far. A non-zero return cancels the call as
/// `mancala_solver_cancel` does: it returns `MANCALA_STATUS_OK` with the bounds proven so far
/// (`exact` false); the callback is not called again during that call.
///
/// Ownership: the library keeps `callback` and `user_data` (never dereferenced, only handed
/// back) until they are replaced or the solver is freed. The callback must not call
/// functions on this solver (their lock is held) and must not unwind into the library.
/// Thread safety: waits for a solve running on this solver to finish; `user_data` is handed
/// back on the threads that make those calls.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_NULL_POINTER` (`solver` NULL),
/// `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `solver` must be NULL or a pointer value; `callback` NULL or a function of that type.
#[no_mangle]
pub unsafe extern "C" fn mancala_solver_set_progress(
    solver: *mut MancalaSolver,
    callback: MancalaSolveProgressFn,
    user_data: *mut std::ffi::c_void,
    interval_ms: u32,
) -> MancalaStatus {
    guard(|| {
        // SAFETY: registry-checked handle.
        let solver = unsafe { handle::get(solver.cast_const(), "solver") }?;
        // Wait for a running solve, as the other setters do.
        let _lock = solver.solver.lock().unwrap_or_else(|e| e.into_inner());
        *solver.hook.lock().unwrap_or_else(|e| e.into_inner()) = callback.map(|f| SolveHook {
            f,
            user_data: user_data as usize,
            interval: progress::interval(interval_ms),
        });
        Ok(())
    })
}

/// Asks every solve or analysis in progress on `solver` (on other threads) to stop soon; each
/// then returns `MANCALA_STATUS_OK` with the bounds proven so far (`exact` false).
///
/// A call is in progress from the moment `mancala_solver_solve_game` or
/// `mancala_solver_analyse_game` (or the deprecated `mancala_solver_solve`,
/// `mancala_solver_analyse`) is entered until it returns, including while it still waits for the solver's lock behind
/// another call: a cancel made then always stops it. The request is cleared when the last call
/// in progress returns, so a cancel made while no call is in progress has no effect, neither
/// now nor on a later call.
///
/// Thread safety: safe from any thread, concurrently with a solve on the same handle; the
/// handle must not be freed meanwhile. Does not wait for a solve (it takes only a short
/// internal lock that no solve holds while it runs).
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_NULL_POINTER`, `MANCALA_STATUS_INVALID_HANDLE`
/// or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `solver` must be NULL or a pointer value.
#[no_mangle]
pub unsafe extern "C" fn mancala_solver_cancel(solver: *const MancalaSolver) -> MancalaStatus {
    guard(|| {
        // SAFETY: registry-checked handle; only the cancel gate is touched.
        let solver = unsafe { handle::get(solver, "solver") }?;
        solver.cancel.request();
        Ok(())
    })
}

/// Solves the current position of `game`: exact value, final score, every best move, the
/// pie-rule choice when a swap is offered, nodes and time — or, after a limit or a cancel,
/// the bounds proven so far (`exact` false). The work grows quickly with the seeds on the
/// board (Kalah(6,4) from the start takes minutes and gigabytes; endgames are instant).
///
/// Ownership: `game` is only read; `*out` is a plain struct owned by the caller.
/// Thread safety: `game` is only read; the call holds the solver's lock until it returns
/// (`mancala_solver_cancel` from another thread stops it).
///
/// Returns:
/// - `MANCALA_STATUS_OK`: `*out` written (also when stopped by a limit or a cancel).
/// - `MANCALA_STATUS_SOLVE_FAILED`: too many seeds to solve exactly, or threads could not
///   start.
/// - `MANCALA_STATUS_DATABASE_MISMATCH`: the attached database is for other rules.
/// - `MANCALA_STATUS_OUT_OF_MEMORY`: the transposition table (`tt_bytes`) does not fit in
///   memory; nothing was searched.
/// - `MANCALA_STATUS_NULL_POINTER` (`solver`, `game` or `out` NULL),
///   `MANCALA_STATUS_INVALID_HANDLE`, `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `out` must be NULL or writable.
#[no_mangle]
#[deprecated(
    since = "0.3.0",
    note = "use mancala_solver_solve_game with a MancalaGame; removed in 0.4.0"
)]
pub unsafe extern "C" fn mancala_solver_solve(
    solver: *mut MancalaSolver,
    game: *const MancalaKalah,
    out: *mut MancalaSolution,
) -> MancalaStatus {
    guard(|| {
        let out = io::out_ptr(out, "out")?;
        // SAFETY: registry-checked handles.
        let solver = unsafe { handle::get(solver.cast_const(), "solver") }?;
        // SAFETY: registry-checked handle; by the caller's contract no other thread mutates or
        // frees `game` during the call.
        let game = unsafe { handle::get(game, "game") }?;
        let pos = *game.position()?;
        // SAFETY: `out` checked non-NULL; writable by the caller's contract.
        unsafe { solve_body(solver, &pos, out) }
    })
}

/// The body of `mancala_solver_solve` and `mancala_solver_solve_game`: solves `pos` and
/// writes the solution to `out`.
///
/// # Safety
/// `out` must be non-NULL and writable.
unsafe fn solve_body(
    solver: &MancalaSolver,
    pos: &KalahPosition,
    out: *mut MancalaSolution,
) -> Result<()> {
    let pos = *pos;
    {
        let hook = solver.hook();
        let s = solver.with_solver(|s| {
            match hook {
                None => s.solve(&pos, SolveOptions::new()),
                Some(h) => s.solve(
                    &pos,
                    SolveOptions::new().progress(h.interval, &mut |p| h.call(p)),
                ),
            }
            .map_err(solve_error)
        })?;
        let mut best_moves = [0u8; MANCALA_KALAH_MAX_MOVES];
        let count = s.best_moves.len().min(MANCALA_KALAH_MAX_MOVES);
        for (slot, &mv) in best_moves.iter_mut().zip(&s.best_moves) {
            *slot = encode_move(mv);
        }
        let result = MancalaSolution {
            value: s.value,
            lower: s.lower,
            upper: s.upper,
            exact: s.exact,
            score: s.score,
            best_move_count: count as u32,
            best_moves,
            swap_offered: s.swap.is_some(),
            swap_value: s.swap.map_or(0, |c| c.swap_value),
            stay_value: s.swap.and_then(|c| c.stay_value).unwrap_or(0),
            has_stay_value: s.swap.is_some_and(|c| c.stay_value.is_some()),
            swap_is_better: s.swap.is_some_and(|c| c.swap_is_better),
            nodes: s.nodes,
            seconds: s.seconds,
        };
        // SAFETY: checked non-NULL by the caller; writable by contract.
        unsafe { out.write(result) };
        Ok(())
    }
}

/// Gives the value of every legal move of the current position of `game` (the swap
/// included when offered), in `mancala_kalah_legal_moves` order, into `moves`.
/// `MANCALA_KALAH_MAX_MOVES` (8) entries always suffice. Limits and cancel work as in
/// `mancala_solver_solve` (then `exact` is false for the moves not finished).
///
/// Ownership: `game` is only read; `moves` belongs to the caller.
/// Thread safety: as `mancala_solver_solve`.
///
/// Returns:
/// - `MANCALA_STATUS_OK`: `*count` = legal moves written (0 for a finished game).
/// - `MANCALA_STATUS_BUFFER_TOO_SMALL`: `*count` = legal moves; nothing searched (`moves`
///   may be NULL when `len` is 0).
/// - `MANCALA_STATUS_SOLVE_FAILED`, `MANCALA_STATUS_DATABASE_MISMATCH`,
///   `MANCALA_STATUS_OUT_OF_MEMORY`: as `mancala_solver_solve`.
/// - `MANCALA_STATUS_NULL_POINTER` (`solver`, `game` or `count` NULL, or `moves` NULL with
///   `len` > 0), `MANCALA_STATUS_INVALID_HANDLE`, `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `moves` must be NULL or point to `len` writable entries; `count` NULL or writable.
#[no_mangle]
#[deprecated(
    since = "0.3.0",
    note = "use mancala_solver_analyse_game with a MancalaGame; removed in 0.4.0"
)]
pub unsafe extern "C" fn mancala_solver_analyse(
    solver: *mut MancalaSolver,
    game: *const MancalaKalah,
    moves: *mut MancalaMoveValue,
    len: usize,
    count: *mut usize,
) -> MancalaStatus {
    guard(|| {
        // SAFETY: registry-checked handles; caller's buffer contract.
        let solver = unsafe { handle::get(solver.cast_const(), "solver") }?;
        // SAFETY: registry-checked handle; by the caller's contract no other thread mutates or
        // frees `game` during the call.
        let game = unsafe { handle::get(game, "game") }?;
        let pos = *game.position()?;
        // SAFETY: the caller's buffer contract.
        unsafe { analyse_body(solver, &pos, moves, len, count) }
    })
}

/// The body of `mancala_solver_analyse` and `mancala_solver_analyse_game`.
///
/// # Safety
/// `moves` must be NULL or point to `len` writable entries; `count` NULL or writable.
unsafe fn analyse_body(
    solver: &MancalaSolver,
    pos: &KalahPosition,
    moves: *mut MancalaMoveValue,
    len: usize,
    count: *mut usize,
) -> Result<()> {
    let pos = *pos;
    {
        let legal = pos.legal_moves().len();
        if len < legal || count.is_null() || (moves.is_null() && len > 0) {
            // The buffer checks first, before a possibly long search.
            let placeholder = vec![MancalaMoveValue::default(); legal];
            // SAFETY: the caller's buffer contract: `moves` is NULL or holds `len` writable
            // entries, `count` NULL or writable.
            return unsafe {
                io::write_slice(
                    &placeholder,
                    moves,
                    len,
                    count,
                    "moves",
                    ("move value", "move values"),
                )
            };
        }
        let hook = solver.hook();
        let analysis = solver.with_solver(|s| {
            match hook {
                None => s.analyse(&pos, SolveOptions::new()),
                Some(h) => s.analyse(
                    &pos,
                    SolveOptions::new().progress(h.interval, &mut |p| h.call(p)),
                ),
            }
            .map_err(solve_error)
        })?;
        let values: Vec<MancalaMoveValue> = analysis
            .moves
            .iter()
            .map(|m| MancalaMoveValue {
                mv: encode_move(m.mv),
                value: m.value,
                lower: m.lower,
                upper: m.upper,
                exact: m.exact,
            })
            .collect();
        // SAFETY: the caller's buffer contract: `moves` is NULL or holds `len` writable entries,
        // `count` NULL or writable.
        unsafe {
            io::write_slice(
                &values,
                moves,
                len,
                count,
                "moves",
                ("move value", "move values"),
            )
        }
    }
}

/// The Kalah position of `game`, or `MANCALA_STATUS_INVALID_ARGUMENT` for a game of another
/// kind (the solver is Kalah's).
fn kalah_position(game: &MancalaGame) -> Result<KalahPosition> {
    match game.game() {
        AnyGame::Kalah(g) => Ok(*g.position()),
        other => Err(Error::new(
            MancalaStatus::InvalidArgument,
            format!(
                "the exact solver solves Kalah positions, not {} game (Oware: a database, mancala_db_value)",
                other.kind().with_article()
            ),
        )),
    }
}

/// `mancala_solver_solve` for a `MancalaGame`: solves the current position of the Kalah game
/// `game` exactly and writes the result to `out` (moves as Kalah move codes: the house
/// number of the move text, `MANCALA_KALAH_SWAP` for `"swap"`). Limits (`mancala_solver_set_limits`),
/// cancel (`mancala_solver_cancel`) and progress (`mancala_solver_set_progress`) apply. Replaces `mancala_solver_solve`.
///
/// Thread safety: `game` is only read; the call holds the solver's lock until it returns
/// (`mancala_solver_cancel` from another thread stops it).
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_INVALID_ARGUMENT` (a game other than Kalah;
/// nothing searched or written), `MANCALA_STATUS_SOLVE_FAILED`,
/// `MANCALA_STATUS_DATABASE_MISMATCH`, `MANCALA_STATUS_OUT_OF_MEMORY` (as
/// `mancala_solver_solve`), `MANCALA_STATUS_NULL_POINTER` (`solver`, `game` or `out` NULL),
/// `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `out` must be NULL or writable; no other thread may change `game` during the call.
#[no_mangle]
pub unsafe extern "C" fn mancala_solver_solve_game(
    solver: *mut MancalaSolver,
    game: *const MancalaGame,
    out: *mut MancalaSolution,
) -> MancalaStatus {
    guard(|| {
        let out = io::out_ptr(out, "out")?;
        // SAFETY: registry-checked handles; the caller's contract on `game`.
        let (solver, game) = unsafe {
            (
                handle::get(solver.cast_const(), "solver")?,
                handle::get(game, "game")?,
            )
        };
        let pos = kalah_position(game)?;
        // SAFETY: `out` checked non-NULL; writable by the caller's contract.
        unsafe { solve_body(solver, &pos, out) }
    })
}

/// `mancala_solver_analyse` for a `MancalaGame`: the value of every legal move of the current
/// position of the Kalah game `game`, in the order of `mancala_game_legal_moves` (each `mv`
/// the Kalah move code of the move text: its house number, `MANCALA_KALAH_SWAP` for
/// `"swap"`). `MANCALA_KALAH_MAX_MOVES` (8) entries always suffice. Limits, cancel and progress
/// as in `mancala_solver_solve_game`. Replaces `mancala_solver_analyse`.
///
/// Ownership: `game` is only read; `moves` belongs to the caller.
/// Thread safety: as `mancala_solver_solve_game`.
///
/// Returns `MANCALA_STATUS_OK` (`*count` = legal moves written, 0 for a finished game),
/// `MANCALA_STATUS_BUFFER_TOO_SMALL` (`*count` = legal moves; nothing searched; `moves` may
/// be NULL when `len` is 0), `MANCALA_STATUS_INVALID_ARGUMENT` (a game other than Kalah;
/// nothing searched or written), `MANCALA_STATUS_SOLVE_FAILED`,
/// `MANCALA_STATUS_DATABASE_MISMATCH`, `MANCALA_STATUS_OUT_OF_MEMORY` (as
/// `mancala_solver_solve`), `MANCALA_STATUS_NULL_POINTER` (`solver`, `game` or `count` NULL,
/// or `moves` NULL with `len` > 0), `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `moves` must be NULL or point to `len` writable entries; `count` NULL or writable; no
/// other thread may change `game` during the call.
#[no_mangle]
pub unsafe extern "C" fn mancala_solver_analyse_game(
    solver: *mut MancalaSolver,
    game: *const MancalaGame,
    moves: *mut MancalaMoveValue,
    len: usize,
    count: *mut usize,
) -> MancalaStatus {
    guard(|| {
        // SAFETY: registry-checked handles; the caller's contract on `game`.
        let (solver, game) = unsafe {
            (
                handle::get(solver.cast_const(), "solver")?,
                handle::get(game, "game")?,
            )
        };
        let pos = kalah_position(game)?;
        // SAFETY: the caller's buffer contract.
        unsafe { analyse_body(solver, &pos, moves, len, count) }
    })
}

/// Forgets every entry of the solver's transposition table (frees its memory until the next
/// solve).
///
/// Thread safety: waits for a solve running on this solver to finish.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_NULL_POINTER`, `MANCALA_STATUS_INVALID_HANDLE`
/// or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `solver` must be NULL or a pointer value.
#[no_mangle]
pub unsafe extern "C" fn mancala_solver_clear_table(solver: *mut MancalaSolver) -> MancalaStatus {
    guard(|| {
        // SAFETY: registry-checked handle.
        let solver = unsafe { handle::get(solver.cast_const(), "solver") }?;
        solver.with_solver(|s| {
            s.clear_table();
            Ok(())
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_core::kalah::{KalahPosition, KalahRules};

    /// The race of a cancel made right after a solve was launched on another thread, before
    /// that solve took the solver's lock: the cancel must stop it. The lock is held here while
    /// the solving thread waits for it, so the cancel certainly comes first.
    #[test]
    #[cfg_attr(miri, ignore = "a search of thousands of nodes")]
    fn a_cancel_before_the_solve_takes_the_lock_stops_it() {
        let cancel = CancelGate::new();
        let s = MancalaSolver {
            solver: Mutex::new(
                Solver::new()
                    .threads(1)
                    .tt_bytes(1 << 20)
                    .cancel_flag(cancel.flag()),
            ),
            cancel,
            hook: Mutex::new(None),
        };
        // Kalah(6,4) from the start takes minutes without a database: a lost cancel shows as
        // a long test, the node limit of two million ends it anyway.
        let start = KalahPosition::start(KalahRules::standard());
        std::thread::scope(|sc| {
            let held = s.solver.lock().unwrap();
            let job = sc.spawn(|| {
                s.with_solver(|solver| {
                    let mut limited = std::mem::take(solver).node_limit(Some(2_000_000));
                    let r = limited
                        .solve(&start, SolveOptions::new())
                        .map_err(solve_error);
                    *solver = limited;
                    r
                })
            });
            while s.cancel.in_progress() == 0 {
                std::thread::yield_now();
            }
            s.cancel.request();
            drop(held);
            let solution = job.join().unwrap().unwrap();
            assert!(!solution.exact);
            assert!(
                solution.nodes < 2_000_000,
                "stopped by the cancel, not the limit"
            );
        });
        assert!(!s.cancel.requested(), "the request ended with the call");
    }
}
