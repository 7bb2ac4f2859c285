//! The solver's progress board: where the MTD(f) driver ([`super::parallel`]) publishes the
//! proven interval after every null-window probe and where a cancel from the progress
//! callback of a call ([`SolveOptions::progress`](crate::SolveOptions::progress)) is posted. The public snapshot
//! types and the watching loop are in the shared [`crate::progress`].

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::search::Shared;
use crate::progress::{SolvePhase, SolveProgress};

/// Where the solver's driver publishes its progress and where a cancel is posted.
pub(crate) struct Board {
    t0: Instant,
    state: Mutex<State>,
    /// The running phase's shared search state (its node counter and stop flags).
    current: Mutex<Option<Arc<Shared>>>,
    /// Nodes of the finished phases.
    nodes_before: AtomicU64,
    cancelled: AtomicBool,
}

struct State {
    phase: SolvePhase,
    lower: i32,
    upper: i32,
    testing: Option<i32>,
}

impl Board {
    /// A board in `phase`, whose value lies in `[lower, upper]`, from `t0` on.
    pub(crate) fn new(t0: Instant, phase: SolvePhase, lower: i32, upper: i32) -> Board {
        Board {
            t0,
            state: Mutex::new(State {
                phase,
                lower,
                upper,
                testing: None,
            }),
            current: Mutex::new(None),
            nodes_before: AtomicU64::new(0),
            cancelled: AtomicBool::new(false),
        }
    }

    /// A new phase, with the interval its value is known to lie in (seeds).
    pub(crate) fn phase(&self, phase: SolvePhase, lower: i32, upper: i32) {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        *s = State {
            phase,
            lower,
            upper,
            testing: None,
        };
    }

    /// A null-window probe of the current [`SolvePhase::Value`] or [`SolvePhase::Move`]
    /// phase starts: it tests whether the value is at least `beta` (seeds).
    pub(crate) fn probing(&self, beta: i32) {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        // A probe of another thread may already have proven more than this one tests.
        let open = s.lower < beta && beta <= s.upper;
        if open && matches!(s.phase, SolvePhase::Value | SolvePhase::Move { .. }) {
            s.testing = Some(beta);
        }
    }

    /// A probe proved `lower ≤ v ≤ upper` for the value of the current [`SolvePhase::Value`]
    /// or [`SolvePhase::Move`] phase; merged with what is already proven.
    pub(crate) fn narrow(&self, lower: i32, upper: i32) {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if matches!(s.phase, SolvePhase::Value | SolvePhase::Move { .. }) {
            s.lower = s.lower.max(lower);
            s.upper = s.upper.min(upper);
            // The probe that tested `testing` (or another) has settled it.
            if s.testing.is_some_and(|t| t <= s.lower || t > s.upper) {
                s.testing = None;
            }
        }
    }

    /// Makes `sh` the running search's shared state (stopped at once after a cancel).
    pub(crate) fn attach(&self, sh: &Arc<Shared>) {
        let mut cur = self.current.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(old) = cur.take() {
            self.nodes_before
                .fetch_add(old.nodes.load(Ordering::Relaxed), Ordering::Relaxed);
        }
        if self.cancelled.load(Ordering::SeqCst) {
            stop(sh);
        }
        *cur = Some(Arc::clone(sh));
    }

    /// Stops the running search and every later phase, as a limit would.
    pub(crate) fn cancel(&self) {
        self.cancelled.store(true, Ordering::SeqCst);
        if let Some(sh) = &*self.current.lock().unwrap_or_else(|e| e.into_inner()) {
            stop(sh);
        }
    }

    pub(crate) fn snapshot(&self) -> SolveProgress {
        let running = self
            .current
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
            .map_or(0, |sh| sh.nodes.load(Ordering::Relaxed));
        let s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        SolveProgress {
            phase: s.phase,
            lower: s.lower,
            upper: s.upper,
            nodes: self.nodes_before.load(Ordering::Relaxed) + running,
            seconds: self.t0.elapsed().as_secs_f64(),
            testing: s.testing,
        }
    }
}

/// Ends a search as a limit does: `limited` first, so the driver keeps the stop.
fn stop(sh: &Shared) {
    sh.limited.store(true, Ordering::SeqCst);
    sh.stop.store(true, Ordering::SeqCst);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The probe target follows MTD(f) on a value of +8 from the full interval of Kalah(6,4):
    /// a probe for ≥ +8 succeeds (lower = +8), a probe for ≥ +9 fails (upper = +8).
    #[test]
    fn the_probe_target_is_shown_until_its_probe_settles_it() {
        let b = Board::new(Instant::now(), SolvePhase::Value, -48, 48);
        assert_eq!(b.snapshot().testing, None, "no probe yet");
        b.probing(8);
        assert_eq!(b.snapshot().testing, Some(8));
        b.narrow(8, 48);
        let s = b.snapshot();
        assert_eq!((s.lower, s.upper, s.testing), (8, 48, None));
        // A probe another thread started on an older interval tests nothing new.
        b.probing(3);
        assert_eq!(b.snapshot().testing, None);
        b.probing(9);
        assert_eq!(b.snapshot().testing, Some(9));
        b.narrow(-48, 8);
        let s = b.snapshot();
        assert_eq!((s.lower, s.upper, s.testing), (8, 8, None));
        // After the value, no probe is shown.
        b.phase(SolvePhase::BestMoves, 8, 8);
        b.probing(8);
        assert_eq!(b.snapshot().testing, None);
    }
}
