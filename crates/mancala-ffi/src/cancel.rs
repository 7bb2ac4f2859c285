//! The cancel request of a handle whose long calls (a best move, a solve) another thread may
//! stop: `mancala_engine_cancel` and `mancala_solver_cancel`.
//!
//! A call is *in progress* from the moment it is entered until it returns, including while it
//! still waits for the handle's lock behind another call or sets its search up. A cancel stops
//! every call in progress; the request is cleared when the last call in progress returns, so a
//! cancel made while none is in progress has no effect, neither now nor on a later call. (The
//! simpler "each call clears the flag when it starts" loses a cancel that arrives between the
//! call's entry and its start.)

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// The stop flag handed to the search, and the count of calls in progress that decides when
/// a request is taken and when it is cleared.
pub(crate) struct CancelGate {
    flag: Arc<AtomicBool>,
    /// Calls in progress; its lock also serialises setting and clearing the flag.
    calls: Mutex<u32>,
}

/// One call in progress ([`CancelGate::enter`]); its drop ends it.
pub(crate) struct CallInProgress<'a>(&'a CancelGate);

impl CancelGate {
    /// A gate with no call in progress and no request.
    pub(crate) fn new() -> CancelGate {
        CancelGate {
            flag: Arc::new(AtomicBool::new(false)),
            calls: Mutex::new(0),
        }
    }

    /// The flag the search polls (set while a cancel request stands).
    pub(crate) fn flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.flag)
    }

    /// Counts a call in progress until the returned value is dropped.
    pub(crate) fn enter(&self) -> CallInProgress<'_> {
        *self.calls.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        CallInProgress(self)
    }

    /// Asks every call in progress to stop; does nothing when none is.
    pub(crate) fn request(&self) {
        let calls = self.calls.lock().unwrap_or_else(|e| e.into_inner());
        if *calls > 0 {
            self.flag.store(true, Ordering::SeqCst);
        }
    }

    /// Calls in progress (tests).
    #[cfg(test)]
    pub(crate) fn in_progress(&self) -> u32 {
        *self.calls.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether a request stands (tests).
    #[cfg(test)]
    pub(crate) fn requested(&self) -> bool {
        self.flag.load(Ordering::SeqCst)
    }
}

impl Drop for CallInProgress<'_> {
    fn drop(&mut self) {
        let mut calls = self.0.calls.lock().unwrap_or_else(|e| e.into_inner());
        *calls -= 1;
        if *calls == 0 {
            self.0.flag.store(false, Ordering::SeqCst);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_holds_while_calls_are_in_progress_and_only_then() {
        let gate = CancelGate::new();
        gate.request();
        assert!(!gate.requested(), "no call in progress: nothing to stop");
        let a = gate.enter();
        let b = gate.enter();
        assert_eq!(gate.in_progress(), 2);
        gate.request();
        assert!(gate.requested());
        drop(a);
        assert!(gate.requested(), "one call is still in progress");
        drop(b);
        assert!(!gate.requested(), "cleared when the last call returns");
        assert_eq!(gate.in_progress(), 0);
    }
}
