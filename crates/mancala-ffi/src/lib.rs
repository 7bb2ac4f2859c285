//! # mancala-ffi — the C ABI of the mancala engine
//!
//! Built as `libmancala.so` / `libmancala.a` with the header `include/mancala.h` (generated
//! from this crate by a pinned cbindgen; a test fails when the committed header is stale).
//!
//! Conventions of every `mancala_*` function:
//!
//! * It returns a [`MancalaStatus`]; results go through out-pointers (the last arguments),
//!   written only when the status is `MANCALA_STATUS_OK` — the one exception is the "size
//!   needed" written on `MANCALA_STATUS_BUFFER_TOO_SMALL`.
//! * A NULL pointer argument gives `MANCALA_STATUS_NULL_POINTER` (the `_free` functions
//!   accept NULL as a no-op); a freed, foreign or wrongly typed handle gives
//!   `MANCALA_STATUS_INVALID_HANDLE` (the library keeps a registry of live handles and never
//!   dereferences one it did not hand out).
//! * After a failure, `mancala_last_error` gives a message (per thread), by the errno rule:
//!   a call that fails replaces the message, a call that succeeds never touches it (a
//!   `_free`, a getter, printing into a big enough buffer, `mancala_status_name`,
//!   `mancala_version*` and every other call alike), and `mancala_last_error` never changes
//!   it. So the message of a failure survives the clean-up and reporting calls that follow
//!   it, until the next failure on that thread; after a success it still describes an older
//!   failure (or is empty), so read it only when a call has failed.
//! * No Rust panic crosses the boundary: it becomes `MANCALA_STATUS_PANIC`.
//! * Strings in are NUL-terminated UTF-8 and only borrowed for the call; strings out are
//!   copied into caller buffers with their length.
//! * Thread safety: the library has no global mutable state except the (internally locked)
//!   handle registry and per-thread error messages. A handle may be read (`const` argument)
//!   from several threads at once, but must not be used by any other thread while one thread
//!   mutates (non-`const` argument) or frees it.
#![deny(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod awari;
pub mod bao;
mod cancel;
pub mod db;
pub mod egdb;
pub mod engine;
pub mod game;
mod handle;
pub mod io;
pub mod kalah;
pub mod progress;
pub mod rules;
pub mod solver;
pub mod status;

use std::ffi::c_char;

pub use awari::MancalaAwariDb;
pub use bao::MancalaBao;
pub use db::{MancalaDb, MancalaDbInfo};
pub use egdb::{MancalaEgdb, MancalaEgdbEncoding};
pub use engine::{MancalaEngine, MancalaEngineConfig, MancalaEngineResult};
pub use game::{MancalaGame, MancalaGameKind, MancalaOutcome, MancalaSide};
pub use kalah::MancalaKalah;
pub use progress::{
    MancalaBuildProgress, MancalaBuildProgressFn, MancalaSolvePhase, MancalaSolveProgress,
    MancalaSolveProgressFn,
};
pub use rules::MancalaRules;
pub use solver::{MancalaMoveValue, MancalaSolution, MancalaSolver, MancalaSolverConfig};
pub use status::MancalaStatus;

use status::guard;

/// Major version of the library this header belongs to (semantic versioning).
pub const MANCALA_VERSION_MAJOR: u32 = 0;
/// Minor version of the library this header belongs to.
pub const MANCALA_VERSION_MINOR: u32 = 2;
/// Patch version of the library this header belongs to.
pub const MANCALA_VERSION_PATCH: u32 = 0;

/// The most bytes a position's notation takes, its NUL included, for every board size and
/// every game: a buffer of this length always holds what `mancala_game_print` (and the
/// deprecated `mancala_kalah_print`, `mancala_bao_print`) write. 84 = the longest Bao la Kete notation (83 bytes: six two-digit
/// counts, both kuus standing and a reserved pit with blocked turns to come, `f2:7`) + 1;
/// the longest Kalah notation is 55 bytes (m = 7, one count of 100 and fifteen of 10, North to
/// move, ` swap`), the longest Oware notation 55 bytes too, the longest Togyz Kumalak notation
/// 65 bytes (twenty counts of 255 kumalaks in all, two tuzdyks and the side). Derived
/// from the grammars of `docs/notation.md` and the seed limits (255 seeds on a Kalah, Oware or
/// Togyz Kumalak board, 64 in Bao la Kete): the largest `mancala_core::Game::NOTATION_MAX_BYTES`
/// of the games.
pub const MANCALA_NOTATION_MAX: usize = 84;

/// A buffer of this many bytes always holds a board drawing (`mancala_game_draw`, and the
/// deprecated `mancala_kalah_draw`, `mancala_bao_draw`) with its NUL: the longest drawings (a
/// Kalah(7,·) board; a Bao la Kete board with a reserved pit and blocked turns to come; an
/// Oware(8,·) board) take under 400 bytes.
pub const MANCALA_DRAWING_MAX: usize = 512;

/// Gives the version of the library actually linked (compare with the `MANCALA_VERSION_*`
/// macros of the header you compiled against).
///
/// A success leaves the last-error message unchanged (as every success does: see
/// `mancala_last_error`).
///
/// Ownership: plain values. Thread safety: safe from any thread.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_NULL_POINTER` (any of the three pointers is
/// NULL; nothing is written) or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// Each pointer must be NULL or point to a writable `uint32_t`.
#[no_mangle]
pub unsafe extern "C" fn mancala_version(
    major: *mut u32,
    minor: *mut u32,
    patch: *mut u32,
) -> MancalaStatus {
    guard(|| {
        let major = io::out_ptr(major, "major")?;
        let minor = io::out_ptr(minor, "minor")?;
        let patch = io::out_ptr(patch, "patch")?;
        // SAFETY: checked non-NULL; writable by contract.
        unsafe {
            major.write(MANCALA_VERSION_MAJOR);
            minor.write(MANCALA_VERSION_MINOR);
            patch.write(MANCALA_VERSION_PATCH);
        }
        Ok(())
    })
}

/// Gives the version of the library actually linked as a static NUL-terminated string
/// (`"0.2.0"`). A success leaves the last-error message unchanged (as every success does:
/// see `mancala_last_error`).
///
/// Ownership: `*out` points to static storage owned by the library; never free it.
/// Thread safety: safe from any thread.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_NULL_POINTER` (`out` is NULL) or
/// `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `out` must be NULL or point to a writable `const char *`.
#[no_mangle]
pub unsafe extern "C" fn mancala_version_string(out: *mut *const c_char) -> MancalaStatus {
    guard(|| {
        let out = io::out_ptr(out, "out")?;
        const VERSION: &std::ffi::CStr = match std::ffi::CStr::from_bytes_with_nul(
            concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes(),
        ) {
            Ok(s) => s,
            Err(_) => panic!("version has a NUL"),
        };
        // SAFETY: checked non-NULL; writable by contract.
        unsafe { out.write(VERSION.as_ptr()) };
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every game of [`GameKind::ALL`](mancala_core::GameKind::ALL), each reached through a
    /// game record of its default rules ([`mancala_core::Rules::default_of`]), so that a new
    /// game is counted without an edit here.
    #[test]
    fn notation_max_is_the_longest_notation_of_every_game_and_its_nul() {
        use mancala_core::{with_game, AnyGame, Game, GameKind, GameRecord, Rules};
        fn longest<G: Game>(_: &GameRecord<G>) -> usize {
            G::NOTATION_MAX_BYTES
        }
        let longest = GameKind::ALL
            .iter()
            .map(|&kind| with_game!(&AnyGame::new(Rules::default_of(kind)), g => longest(g)))
            .max()
            .unwrap();
        assert_eq!(MANCALA_NOTATION_MAX, longest + 1);
        // The figure the documentation gives: Bao la Kete's 83 bytes.
        assert_eq!(longest, mancala_core::bao::NOTATION_MAX_BYTES);
    }

    #[test]
    fn version_macros_match_the_crate_version() {
        assert_eq!(
            MANCALA_VERSION_MAJOR.to_string(),
            env!("CARGO_PKG_VERSION_MAJOR")
        );
        assert_eq!(
            MANCALA_VERSION_MINOR.to_string(),
            env!("CARGO_PKG_VERSION_MINOR")
        );
        assert_eq!(
            MANCALA_VERSION_PATCH.to_string(),
            env!("CARGO_PKG_VERSION_PATCH")
        );
        let mut s = std::ptr::null();
        // SAFETY: `s` is a writable local.
        assert_eq!(unsafe { mancala_version_string(&mut s) }, MancalaStatus::Ok);
        // SAFETY: on success the library wrote a pointer to its static NUL-terminated version
        // string.
        let s = unsafe { std::ffi::CStr::from_ptr(s) };
        assert_eq!(s.to_str().unwrap(), env!("CARGO_PKG_VERSION"));
    }
}
