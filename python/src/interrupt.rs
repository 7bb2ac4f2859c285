//! Long calls without the GIL, stopped by Ctrl-C.
//!
//! A solve, a database build, an engine search or a batch of playouts runs with the GIL
//! released (`Python::detach`), so other Python threads go on meanwhile. Python handles
//! Ctrl-C (SIGINT) by setting a flag that only Python code looks at; while Rust code runs,
//! nobody would. So the calling thread wakes up every [`TICK`] and asks Python to run its
//! pending signal handlers (`PyErr_CheckSignals`, through `Python::check_signals`, which
//! takes the GIL for that moment). When a handler raises (`KeyboardInterrupt` from the
//! default SIGINT handler, or whatever a user's handler raises), the work is asked to stop
//! through its cancel flag or callback, the call waits for it to end (a search stops within a
//! few thousand nodes), and the exception is raised to the caller. Python runs signal
//! handlers in the main thread only, so a call made from another thread is not interrupted
//! (as with any blocking call in Python).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// How often a long call looks for a pending signal (Ctrl-C): 50 ms, so a `KeyboardInterrupt`
/// is raised within a tenth of a second plus the time the work takes to stop.
pub const TICK: Duration = Duration::from_millis(50);

/// Runs the pending Python signal handlers from a thread that does not hold the GIL; the
/// exception a handler raised, if any.
pub fn pending_signal() -> Option<PyErr> {
    Python::attach(|py| py.check_signals().err())
}

/// Runs `work` on a helper thread with the GIL released, while the calling thread looks for
/// signals every [`TICK`]. When a signal handler raises, `cancel` is set (the work must look
/// at it and return soon) and, once `work` has returned, the handler's exception is the
/// result. A panic of `work` becomes a `RuntimeError` naming it (it never unwinds into
/// Python).
///
/// # Errors
/// The signal handler's exception (`KeyboardInterrupt`); `RuntimeError` when the helper
/// thread cannot start or `work` panicked.
pub fn run<R: Send>(
    py: Python<'_>,
    cancel: &AtomicBool,
    work: impl FnOnce() -> R + Send,
) -> PyResult<R> {
    let (result, interrupt) = py.detach(|| {
        let mut interrupt: Option<PyErr> = None;
        let (tx, rx) = mpsc::channel::<()>();
        let result = std::thread::scope(|s| {
            let handle = std::thread::Builder::new()
                .name("mancala-py".into())
                .spawn_scoped(s, move || {
                    let r = work();
                    let _ = tx.send(());
                    r
                })
                .map_err(|e| format!("cannot start a thread: {e}"))?;
            while let Err(RecvTimeoutError::Timeout) = rx.recv_timeout(TICK) {
                if interrupt.is_none() {
                    if let Some(e) = pending_signal() {
                        interrupt = Some(e);
                        cancel.store(true, Ordering::SeqCst);
                    }
                }
            }
            handle.join().map_err(|p| panic_message(&p))
        });
        (result, interrupt)
    });
    if let Some(e) = interrupt {
        return Err(e);
    }
    result.map_err(PyRuntimeError::new_err)
}

/// The text of a panic payload, for the `RuntimeError` that reports it.
pub fn panic_message(payload: &Box<dyn std::any::Any + Send>) -> String {
    let what = payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string());
    format!("internal error in the mancala library (please report it): {what}")
}
