//! Status codes, the thread-local last-error message, and the guard every entry point runs
//! its body in (no panic crosses the C boundary).

use std::cell::RefCell;
use std::ffi::{c_char, c_int, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The result of every `mancala_*` call. `MANCALA_STATUS_OK` (0) is success; every other
/// value is a failure, and then no out-pointer was written (except the documented "size
/// needed" of `MANCALA_STATUS_BUFFER_TOO_SMALL`) and `mancala_last_error` describes it.
///
/// New codes may be appended in later versions; existing values never change.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MancalaStatus {
    /// Success.
    Ok = 0,
    /// A pointer argument that must not be NULL was NULL.
    NullPointer = 1,
    /// A handle argument is not a live handle of the expected type: already freed, never
    /// created by this library, or a handle of another type.
    InvalidHandle = 2,
    /// A string argument is not valid UTF-8.
    InvalidUtf8 = 3,
    /// An argument is out of its documented range (for example a side that is not a
    /// `MancalaSide` value).
    InvalidArgument = 4,
    /// A rule-set string could not be parsed or names an unsupported board.
    BadRules = 5,
    /// A position string could not be parsed or is not a valid position of its rules.
    BadPosition = 6,
    /// The move is not legal in the position (game over, no such house, empty house, swap not
    /// offered).
    IllegalMove = 7,
    /// The caller's buffer is too small; the size needed was written to the "needed" /
    /// "count" out-pointer.
    BufferTooSmall = 8,
    /// `mancala_game_undo` (or the deprecated `mancala_kalah_undo`, `mancala_bao_undo`) on a
    /// game with no move to take back.
    NothingToUndo = 9,
    /// A Rust panic was caught inside the library (a bug in the library; please report it).
    /// The handles passed to the call are left in a valid state.
    Panic = 10,
    /// A solve could not start: too many seeds in the houses to solve exactly, or the search
    /// threads could not be started.
    SolveFailed = 11,
    /// An endgame database does not serve the rules asked for (other m or other
    /// value-relevant options).
    DatabaseMismatch = 12,
    /// A file could not be read or written (the message names the file and the system error).
    IoError = 13,
    /// A file is not a valid endgame database: bad magic, unknown format version, truncated,
    /// inconsistent header, checksum mismatch or an entry out of range.
    CorruptFile = 14,
    /// The memory asked for (a transposition table's `tt_bytes`, or an endgame database's
    /// entries) could not be had. Nothing was changed; a smaller size may fit.
    OutOfMemory = 15,
    /// The call was cancelled by its progress callback (a database build); nothing was kept.
    Cancelled = 16,
    /// A save that does not overwrite (`mancala_db_save`, `mancala_db_save_over` with
    /// `overwrite` false) found a file at its path that holds another database, or no
    /// database: nothing was written, the file is as it was, and the message names it and
    /// what it holds. `mancala_db_save_over` with `overwrite` true writes over it.
    FileExists = 17,
}

impl MancalaStatus {
    /// The name of the status as it appears in the header (`MANCALA_STATUS_OK`, …).
    #[must_use]
    pub const fn name(self) -> &'static CStr {
        match self {
            MancalaStatus::Ok => c"MANCALA_STATUS_OK",
            MancalaStatus::NullPointer => c"MANCALA_STATUS_NULL_POINTER",
            MancalaStatus::InvalidHandle => c"MANCALA_STATUS_INVALID_HANDLE",
            MancalaStatus::InvalidUtf8 => c"MANCALA_STATUS_INVALID_UTF8",
            MancalaStatus::InvalidArgument => c"MANCALA_STATUS_INVALID_ARGUMENT",
            MancalaStatus::BadRules => c"MANCALA_STATUS_BAD_RULES",
            MancalaStatus::BadPosition => c"MANCALA_STATUS_BAD_POSITION",
            MancalaStatus::IllegalMove => c"MANCALA_STATUS_ILLEGAL_MOVE",
            MancalaStatus::BufferTooSmall => c"MANCALA_STATUS_BUFFER_TOO_SMALL",
            MancalaStatus::NothingToUndo => c"MANCALA_STATUS_NOTHING_TO_UNDO",
            MancalaStatus::Panic => c"MANCALA_STATUS_PANIC",
            MancalaStatus::SolveFailed => c"MANCALA_STATUS_SOLVE_FAILED",
            MancalaStatus::DatabaseMismatch => c"MANCALA_STATUS_DATABASE_MISMATCH",
            MancalaStatus::IoError => c"MANCALA_STATUS_IO_ERROR",
            MancalaStatus::CorruptFile => c"MANCALA_STATUS_CORRUPT_FILE",
            MancalaStatus::OutOfMemory => c"MANCALA_STATUS_OUT_OF_MEMORY",
            MancalaStatus::Cancelled => c"MANCALA_STATUS_CANCELLED",
            MancalaStatus::FileExists => c"MANCALA_STATUS_FILE_EXISTS",
        }
    }
}

/// Every status, in numeric order: for Rust callers and tests that must follow the list as
/// it grows (the fuzz bodies check `mancala_status_name` against it). Not part of the C API.
#[must_use]
pub fn all_statuses() -> &'static [MancalaStatus] {
    &ALL_STATUSES
}

/// Every status, in numeric order.
pub(crate) const ALL_STATUSES: [MancalaStatus; 18] = [
    MancalaStatus::Ok,
    MancalaStatus::NullPointer,
    MancalaStatus::InvalidHandle,
    MancalaStatus::InvalidUtf8,
    MancalaStatus::InvalidArgument,
    MancalaStatus::BadRules,
    MancalaStatus::BadPosition,
    MancalaStatus::IllegalMove,
    MancalaStatus::BufferTooSmall,
    MancalaStatus::NothingToUndo,
    MancalaStatus::Panic,
    MancalaStatus::SolveFailed,
    MancalaStatus::DatabaseMismatch,
    MancalaStatus::IoError,
    MancalaStatus::CorruptFile,
    MancalaStatus::OutOfMemory,
    MancalaStatus::Cancelled,
    MancalaStatus::FileExists,
];

/// A failed call: the status to return and the message for `mancala_last_error`.
#[derive(Debug)]
pub(crate) struct Error {
    pub(crate) status: MancalaStatus,
    pub(crate) message: String,
}

impl Error {
    pub(crate) fn new(status: MancalaStatus, message: impl Into<String>) -> Error {
        Error {
            status,
            message: message.into(),
        }
    }

    pub(crate) fn null(arg: &str) -> Error {
        Error::new(
            MancalaStatus::NullPointer,
            format!("argument `{arg}` is NULL"),
        )
    }
}

pub(crate) type Result<T> = std::result::Result<T, Error>;

thread_local! {
    static LAST_ERROR: RefCell<String> = const { RefCell::new(String::new()) };
}

/// The last-error message of the calling thread (empty when none), for `mancala_last_error`.
pub(crate) fn last_error() -> String {
    LAST_ERROR.with(|e| e.borrow().clone())
}

fn set_last_error(message: String) {
    LAST_ERROR.with(|e| *e.borrow_mut() = message);
}

/// Runs the body of an entry point: catches any panic, and on a failure (an error or a
/// caught panic) records the last-error message and turns it into the status. A success
/// leaves the message as it was: the errno rule of `mancala_last_error`, the same for every
/// entry point.
pub(crate) fn guard(body: impl FnOnce() -> Result<()>) -> MancalaStatus {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => MancalaStatus::Ok,
        Ok(Err(e)) => {
            set_last_error(e.message);
            e.status
        }
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_string());
            set_last_error(format!("internal error (panic caught): {what}"));
            MancalaStatus::Panic
        }
    }
}

/// Gives the name of a status code (`"MANCALA_STATUS_ILLEGAL_MOVE"`, …) as a static
/// NUL-terminated string.
///
/// A success leaves the last-error message unchanged, as every successful call does (see
/// `mancala_last_error`), so an error handler can print both the name and the message of a
/// failure in either order.
///
/// Ownership: `*out` points to static storage owned by the library; never free it.
/// Thread safety: safe from any thread.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_NULL_POINTER` (`out` is NULL),
/// `MANCALA_STATUS_INVALID_ARGUMENT` (`status` is not a `MancalaStatus` value) or
/// `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `out` must be NULL or point to a writable `const char *`.
#[no_mangle]
pub unsafe extern "C" fn mancala_status_name(
    status: c_int,
    out: *mut *const c_char,
) -> MancalaStatus {
    guard(|| {
        if out.is_null() {
            return Err(Error::null("out"));
        }
        let s = usize::try_from(status)
            .ok()
            .and_then(|i| ALL_STATUSES.get(i))
            .ok_or_else(|| {
                Error::new(
                    MancalaStatus::InvalidArgument,
                    format!("{status} is not a MancalaStatus value"),
                )
            })?;
        let name = s.name();
        // SAFETY: checked non-NULL; the caller's contract makes it writable.
        unsafe { out.write(name.as_ptr()) };
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_a_status_and_a_message_that_a_success_keeps() {
        let status = guard(|| panic!("boom"));
        assert_eq!(status, MancalaStatus::Panic);
        let msg = LAST_ERROR.with(|e| e.borrow().clone());
        assert_eq!(msg, "internal error (panic caught): boom");
        // The errno rule: a success never changes the message, a failure replaces it.
        assert_eq!(guard(|| Ok(())), MancalaStatus::Ok);
        assert_eq!(
            LAST_ERROR.with(|e| e.borrow().clone()),
            "internal error (panic caught): boom"
        );
        let status = guard(|| Err(Error::null("x")));
        assert_eq!(status, MancalaStatus::NullPointer);
        assert_eq!(
            LAST_ERROR.with(|e| e.borrow().clone()),
            "argument `x` is NULL"
        );
    }

    #[test]
    fn names_match_numbering() {
        for (i, s) in ALL_STATUSES.iter().enumerate() {
            assert_eq!(*s as usize, i);
            let mut out = std::ptr::null();
            // SAFETY: `out` is a writable local.
            let st = unsafe { mancala_status_name(i as c_int, &mut out) };
            assert_eq!(st, MancalaStatus::Ok);
            // SAFETY: on success `out` points to a static NUL-terminated name.
            let name = unsafe { std::ffi::CStr::from_ptr(out) };
            assert_eq!(name, s.name());
        }
    }
}
