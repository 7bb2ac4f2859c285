//! Progress reports of long work: a call of the solver ([`SolveOptions::progress`]: a solve,
//! an analysis, a value within a window) and a database build ([`BuildOptions::progress`]).
//!
//! The work runs on a helper thread (which drives the rayon pool as before); the *calling*
//! thread waits for it and, every `interval` (at least [`MIN_INTERVAL`]), reads a snapshot
//! and hands it to the caller's callback. The callback therefore runs on the caller's own
//! thread, never on a search thread, at most once an interval, and never after the work has
//! ended. Returning [`ControlFlow::Break`] cancels the work: a solve then returns its bounds
//! (as after a limit), a build returns [`EgdbError::Cancelled`]; the callback is not called
//! again.
//!
//! The solver's snapshot is published by the MTD(f) driver after every null-window probe
//! (each probe proves a bound, Plaat et al. 1996), so the reported interval only ever shrinks
//! and always holds the value. A probe of a large position can run for minutes; meanwhile
//! the snapshot says which bound the running probe tests ([`SolveProgress::testing`]), and
//! its node count grows.
//!
//! [`SolveOptions::progress`]: crate::SolveOptions::progress
//! [`BuildOptions::progress`]: crate::BuildOptions::progress
//! [`EgdbError::Cancelled`]: crate::EgdbError::Cancelled

use std::ops::ControlFlow;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use mancala_core::kalah::KalahMove;

/// The shortest interval between two progress callbacks (10 ms); a shorter one asked for is
/// raised to it.
pub const MIN_INTERVAL: Duration = Duration::from_millis(10);

/// What a solve is doing when a [`SolveProgress`] is taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolvePhase {
    /// Proving the value of the position (MTD(f) probes); `lower`/`upper` tighten.
    Value,
    /// The value is known; testing which moves reach it.
    BestMoves,
    /// The value is known; the values of swapping and of the best house move (pie rule).
    Swap,
    /// The value is known; following value-keeping moves to the end of the game.
    PrincipalVariation,
    /// [`Solver::analyse`](crate::Solver::analyse): proving the value of move
    /// `index` (0-based) of `count` legal moves; `lower`/`upper` are that move's bounds.
    Move {
        /// The move being valued.
        mv: KalahMove,
        /// Its index in the legal-move order, from 0.
        index: usize,
        /// Legal moves in all.
        count: usize,
    },
}

/// A snapshot of a running solve, handed to the progress callback.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolveProgress {
    /// What the solve is doing.
    pub phase: SolvePhase,
    /// Proven lower bound of the value being searched (seeds, for the player to move; see
    /// [`Solution`](crate::Solution)). In the phases after [`SolvePhase::Value`], the value.
    pub lower: i32,
    /// Proven upper bound of that value (seeds). `lower == upper` once it is exact.
    pub upper: i32,
    /// Positions searched so far, all threads and phases (nodes).
    pub nodes: u64,
    /// Wall time since the solve started (seconds).
    pub seconds: f64,
    /// In [`SolvePhase::Value`] and [`SolvePhase::Move`]: the bound the running MTD(f)
    /// null-window probe tests (seeds): it ends by proving `value ≥ testing` (`lower` rises
    /// to at least `testing`) or `value < testing` (`upper` falls below it). `None` before the
    /// first probe, between two probes and in the other phases; always
    /// `lower < testing ≤ upper`. With several threads, the latest probe started.
    pub testing: Option<i32>,
}

/// A snapshot of a running database build, handed to the progress callback.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BuildProgress {
    /// Entries (positions) computed so far.
    pub done: u64,
    /// Entries in the whole database, C(K + 2m, 2m).
    pub total: u64,
    /// Wall time since the build started (seconds).
    pub seconds: f64,
}

/// Runs `work` on a helper thread while the calling thread calls `tick` every `interval`
/// (at least [`MIN_INTERVAL`]) until `work` ends; the first `tick` that breaks calls
/// `cancel` and ends the ticking. Returns `work`'s result (a panic in it resumes here).
///
/// # Errors
/// The system's error when the helper thread cannot be started (then nothing ran).
pub(crate) fn watch<R: Send>(
    interval: Duration,
    work: impl FnOnce() -> R + Send,
    mut tick: impl FnMut() -> ControlFlow<()>,
    cancel: impl FnOnce(),
) -> std::io::Result<R> {
    let interval = interval.max(MIN_INTERVAL);
    let (tx, rx) = mpsc::channel::<()>();
    std::thread::scope(|s| {
        let handle = std::thread::Builder::new()
            .name("mancala-watched".into())
            .spawn_scoped(s, move || {
                let r = work();
                // The receiver also sees the end when `work` panics (the sender is dropped).
                let _ = tx.send(());
                r
            })?;
        let mut cancel = Some(cancel);
        while let Err(RecvTimeoutError::Timeout) = rx.recv_timeout(interval) {
            if cancel.is_some() && tick().is_break() {
                if let Some(c) = cancel.take() {
                    c();
                }
            }
        }
        match handle.join() {
            Ok(r) => Ok(r),
            Err(p) => std::panic::resume_unwind(p),
        }
    })
}
