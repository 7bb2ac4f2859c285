//! Progress callbacks of the long calls: `mancala_solver_set_progress` (for
//! `mancala_solver_solve` and `mancala_solver_analyse`) and `mancala_egdb_build_progress`.
//!
//! The callback is called on the thread that made the call, never on a search thread, at most
//! once every `interval_ms` milliseconds (10 at least) while the work runs and never after it
//! ended (a call shorter than the interval makes none). Returning non-zero cancels: a solve
//! then returns `MANCALA_STATUS_OK` with the bounds proven so far (`exact` false), a build
//! returns `MANCALA_STATUS_CANCELLED`. The callback must not unwind (C++ exceptions) into the
//! library, and must not call the solver it reports on (its lock is held).

use std::ffi::{c_int, c_void};
use std::ops::ControlFlow;
use std::time::Duration;

use mancala_solver::{BuildProgress, SolvePhase, SolveProgress};

use crate::kalah::encode_move;

/// What a solve is doing when `MancalaSolveProgress` is taken.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MancalaSolvePhase {
    /// Proving the value of the position (MTD(f) probes): `lower` and `upper` tighten.
    Value = 0,
    /// The value is known (`lower == upper`); testing which moves reach it.
    BestMoves = 1,
    /// The value is known; valuing the pie-rule swap against the best house move.
    Swap = 2,
    /// The value is known; following value-keeping moves to the end of the game.
    PrincipalVariation = 3,
    /// `mancala_solver_analyse_game` (or `mancala_solver_analyse`): proving the value of move `mv` (number `index` from 0 of
    /// `count` legal moves); `lower` and `upper` are its bounds.
    Move = 4,
}

/// A snapshot of a running solve or analysis, handed to a `MancalaSolveProgressFn`. Values
/// in seeds, for the player to move, as `MancalaSolution`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MancalaSolveProgress {
    /// What the solve is doing.
    pub phase: MancalaSolvePhase,
    /// Proven lower bound of the value being searched (the value itself after
    /// `MANCALA_SOLVE_PHASE_VALUE`).
    pub lower: i32,
    /// Proven upper bound of that value.
    pub upper: i32,
    /// Positions searched so far, all threads (nodes).
    pub nodes: u64,
    /// Wall time since the call started, seconds.
    pub seconds: f64,
    /// `MANCALA_SOLVE_PHASE_MOVE`: the move being valued (house 1..=m or
    /// `MANCALA_KALAH_SWAP`); otherwise 0.
    pub mv: u8,
    /// `MANCALA_SOLVE_PHASE_MOVE`: its index in the legal-move order, from 0; otherwise 0.
    pub index: u32,
    /// `MANCALA_SOLVE_PHASE_MOVE`: legal moves in all; otherwise 0.
    pub count: u32,
    /// Whether an MTD(f) null-window probe is running (phases `MANCALA_SOLVE_PHASE_VALUE` and
    /// `MANCALA_SOLVE_PHASE_MOVE` only); then `testing` is the bound it tests.
    pub probing: bool,
    /// With `probing`: the running probe ends by proving value ≥ `testing` (`lower` rises) or
    /// value < `testing` (`upper` falls); always `lower < testing <= upper`. Otherwise 0.
    pub testing: i32,
}

/// A snapshot of a running database build, handed to a `MancalaBuildProgressFn`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MancalaBuildProgress {
    /// Entries (positions, or Awari boards) computed so far.
    pub done: u64,
    /// Entries in the whole database: C(K + 2m, 2m) for a Kalah database of m houses a side
    /// and K seeds; for an Awari database of N seeds, its boards, the sum over the levels
    /// n = 0..=N of C(n + 11, 11) − C(n + 5, 11) (`docs/awari.md`).
    pub total: u64,
    /// Wall time since the build started, seconds.
    pub seconds: f64,
}

/// A solve's progress callback: `progress` is valid only during the call; `user_data` is
/// what was registered. Return 0 to go on, non-zero to cancel.
pub type MancalaSolveProgressFn = Option<
    unsafe extern "C" fn(progress: *const MancalaSolveProgress, user_data: *mut c_void) -> c_int,
>;

/// A database build's progress callback: `progress` is valid only during the call;
/// `user_data` is what was passed. Return 0 to go on, non-zero to cancel.
pub type MancalaBuildProgressFn = Option<
    unsafe extern "C" fn(progress: *const MancalaBuildProgress, user_data: *mut c_void) -> c_int,
>;

/// A registered solve callback. The user data is kept as an address: the library never
/// dereferences it, it only hands it back on the calling thread.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SolveHook {
    pub(crate) f: unsafe extern "C" fn(*const MancalaSolveProgress, *mut c_void) -> c_int,
    pub(crate) user_data: usize,
    pub(crate) interval: Duration,
}

/// The interval of a callback, from milliseconds (0 = the library's shortest, 10 ms).
pub(crate) fn interval(ms: u32) -> Duration {
    Duration::from_millis(u64::from(ms)).max(mancala_solver::progress::MIN_INTERVAL)
}

impl SolveHook {
    /// Calls the C callback with `p`; a non-zero answer breaks.
    pub(crate) fn call(&self, p: &SolveProgress) -> ControlFlow<()> {
        let (phase, mv, index, count) = match p.phase {
            SolvePhase::Value => (MancalaSolvePhase::Value, 0, 0, 0),
            SolvePhase::BestMoves => (MancalaSolvePhase::BestMoves, 0, 0, 0),
            SolvePhase::Swap => (MancalaSolvePhase::Swap, 0, 0, 0),
            SolvePhase::PrincipalVariation => (MancalaSolvePhase::PrincipalVariation, 0, 0, 0),
            SolvePhase::Move { mv, index, count } => (
                MancalaSolvePhase::Move,
                encode_move(mv),
                index as u32,
                count as u32,
            ),
        };
        let c = MancalaSolveProgress {
            phase,
            lower: p.lower,
            upper: p.upper,
            nodes: p.nodes,
            seconds: p.seconds,
            mv,
            index,
            count,
            probing: p.testing.is_some(),
            testing: p.testing.unwrap_or(0),
        };
        // SAFETY: the caller registered `f` for this use; `c` lives across the call.
        let r = unsafe { (self.f)(&c, self.user_data as *mut c_void) };
        if r == 0 {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    }
}

/// Calls a C build callback with `p`; a non-zero answer breaks.
pub(crate) fn call_build(
    f: unsafe extern "C" fn(*const MancalaBuildProgress, *mut c_void) -> c_int,
    user_data: *mut c_void,
    p: &BuildProgress,
) -> ControlFlow<()> {
    let c = MancalaBuildProgress {
        done: p.done,
        total: p.total,
        seconds: p.seconds,
    };
    // SAFETY: the caller passed `f` for this use; `c` lives across the call.
    if unsafe { f(&c, user_data) } == 0 {
        ControlFlow::Continue(())
    } else {
        ControlFlow::Break(())
    }
}
