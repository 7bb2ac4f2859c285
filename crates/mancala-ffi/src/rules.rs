//! `MancalaRules`: the rule set of a game — Kalah (`kalah(6,4)+empty_capture`, `standard`,
//! `manchester`) or Bao la Kete (`bao-la-kete`, `bao-la-kete+first=N`, …).

use std::ffi::c_char;

use mancala_core::kalah::KalahRules;
use mancala_core::GameKind;

use crate::game::MancalaGameKind;
use crate::handle::{self, Handle, Kind};
use crate::io;
use crate::status::{guard, Error, MancalaStatus, Result};

/// A rule set of any game: the core's [`Rules`].
pub(crate) use mancala_core::Rules as AnyRules;

/// An opaque rule set: of Kalah (houses per row m, starting seeds n, variant options), of
/// Bao la Kete (the options of `docs/rules/bao-la-kete.md`), of Oware (the named rule sets
/// `oware`, `awari`, `oware-openspiel`, their board sizes and options of
/// `docs/rules/oware.md`) or of Togyz Kumalak (`togyz-kumalak`, `togyz-ludii`, `bestemshe`,
/// their sizes and options of `docs/rules/togyz-kumalak.md`).
///
/// Created by `mancala_rules_new`, freed by `mancala_rules_free`. Immutable once made, so one
/// rule set may be read from several threads at once. Games copy the rules they are made
/// with: a rule set may be freed while games made from it live on.
pub struct MancalaRules {
    pub(crate) rules: AnyRules,
}

impl MancalaRules {
    /// `INVALID_ARGUMENT`: "these are Bao la Kete rules; this call needs Kalah rules".
    fn wrong_game(&self, kind: GameKind) -> Error {
        Error::new(
            MancalaStatus::InvalidArgument,
            format!(
                "these are {} rules; this call needs {kind} rules",
                self.rules.kind()
            ),
        )
    }

    /// The rules, or `INVALID_ARGUMENT` when they are of another game than `kind`.
    pub(crate) fn of_kind(&self, kind: GameKind) -> Result<AnyRules> {
        if self.rules.kind() == kind {
            Ok(self.rules)
        } else {
            Err(self.wrong_game(kind))
        }
    }

    /// The Kalah rules, or `INVALID_ARGUMENT` for a rule set of another game.
    pub(crate) fn kalah(&self) -> Result<KalahRules> {
        self.rules
            .kalah()
            .ok_or_else(|| self.wrong_game(GameKind::Kalah))
    }
}

impl Handle for MancalaRules {
    const KIND: Kind = Kind::Rules;
}

/// Parses a rule-set string into a new rule set: Kalah (`"kalah(6,4)+empty_capture"`,
/// `"kalah(7,7)+pie_rule"`, `"standard"`, `"manchester"`; see `docs/rules/kalah.md`), Bao
/// la Kete (`"bao-la-kete"`, `"bao-la-kete+first=N+safari=choice"`; see
/// `docs/rules/bao-la-kete.md`), Oware (`"oware"`, `"awari"`, `"oware-openspiel"`,
/// `"oware(6,4)+grand_slam=forbidden"`; see `docs/rules/oware.md`) or Togyz Kumalak
/// (`"togyz-kumalak"`, `"bestemshe"`, `"togyz-kumalak(5,5)+tuzdyk=off"`; see
/// `docs/rules/togyz-kumalak.md`). `mancala_rules_game`
/// tells which.
///
/// Ownership: `text` is borrowed for the call only. On success `*out` is a new handle owned by
/// the caller, to be released with `mancala_rules_free`.
/// Thread safety: safe from any thread.
///
/// Returns:
/// - `MANCALA_STATUS_OK`: `*out` written.
/// - `MANCALA_STATUS_NULL_POINTER`: `text` or `out` is NULL.
/// - `MANCALA_STATUS_INVALID_UTF8`: `text` is not UTF-8.
/// - `MANCALA_STATUS_BAD_RULES`: malformed, unknown or duplicated option or bad option value;
///   for Kalah m outside 1..=7, n = 0, or 2·m·n > 255.
/// - `MANCALA_STATUS_PANIC`: internal error.
///
/// # Safety
/// `text` must be NULL or a NUL-terminated string; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_rules_new(
    text: *const c_char,
    out: *mut *mut MancalaRules,
) -> MancalaStatus {
    guard(|| {
        let out = io::out_ptr(out, "out")?;
        // SAFETY: the caller's contract on `text`.
        let text = unsafe { io::in_str(text, "text") }?;
        let bad = |e: &dyn std::fmt::Display| Error::new(MancalaStatus::BadRules, e.to_string());
        let rules = text.parse::<AnyRules>().map_err(|e| bad(&e))?;
        // SAFETY: `out` is NULL or writable by the caller's contract.
        unsafe { handle::write_new(out, "out", MancalaRules { rules }) }
    })
}

/// Frees a rule set made by `mancala_rules_new`. NULL is a no-op (`MANCALA_STATUS_OK`).
///
/// Ownership: the handle is invalid after this call. Positions made from it are not affected.
/// Thread safety: no other thread may be using `rules`.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_INVALID_HANDLE` (already freed or not a rule
/// set; nothing is freed) or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `rules` must be NULL or a pointer value (it is only dereferenced if it is a live handle).
#[no_mangle]
pub unsafe extern "C" fn mancala_rules_free(rules: *mut MancalaRules) -> MancalaStatus {
    // SAFETY: the caller's contract: no other thread uses `rules` (`free_entry` checks the rest).
    unsafe { handle::free_entry(rules, "rules") }
}

/// Prints a rule set in the rule-set notation (`"standard"`, `"kalah(7,7)+pie_rule"`,
/// `"bao-la-kete"`, …) into
/// `buf` as a NUL-terminated string. Printing and parsing again gives the same rule set.
///
/// Ownership: `buf` belongs to the caller. Thread safety: `rules` is only read.
///
/// Returns:
/// - `MANCALA_STATUS_OK`: written; `*needed` = bytes written, NUL included.
/// - `MANCALA_STATUS_BUFFER_TOO_SMALL`: `*needed` = size needed, NUL included; `buf` untouched
///   (`buf` may be NULL when `len` is 0).
/// - `MANCALA_STATUS_NULL_POINTER`: `rules` or `needed` is NULL, or `buf` is NULL with
///   `len` > 0.
/// - `MANCALA_STATUS_INVALID_HANDLE`: `rules` is not a live rule set.
/// - `MANCALA_STATUS_PANIC`: internal error.
///
/// # Safety
/// `buf` must be NULL or point to `len` writable bytes; `needed` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_rules_print(
    rules: *const MancalaRules,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> MancalaStatus {
    // SAFETY: the caller's buffer contract; `rules` is only read.
    unsafe { handle::print_entry(rules, "rules", buf, len, needed, |r| r.rules.to_string()) }
}

/// Gives the board size of a Kalah rule set: houses per row m (1..=7) and starting seeds per
/// house n.
///
/// Thread safety: `rules` is only read.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_INVALID_ARGUMENT` (a rule set of another
/// game: Bao la Kete, Oware, Togyz Kumalak),
/// `MANCALA_STATUS_NULL_POINTER` (any pointer NULL; nothing written),
/// `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `houses` and `seeds` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_rules_size(
    rules: *const MancalaRules,
    houses: *mut u8,
    seeds: *mut u8,
) -> MancalaStatus {
    guard(|| {
        let houses = io::out_ptr(houses, "houses")?;
        let seeds = io::out_ptr(seeds, "seeds")?;
        // SAFETY: registry-checked handle; out-pointers checked non-NULL.
        let rules = unsafe { handle::get(rules, "rules") }?.kalah()?;
        // SAFETY: every out-pointer written here was checked non-NULL above (`io::out_ptr`) and is
        // writable by the caller's contract.
        unsafe {
            houses.write(rules.houses());
            seeds.write(rules.seeds());
        }
        Ok(())
    })
}

/// Tells which game a rule set is for: `MANCALA_GAME_KIND_KALAH`, `MANCALA_GAME_KIND_BAO`,
/// `MANCALA_GAME_KIND_OWARE` or `MANCALA_GAME_KIND_TOGYZ`.
///
/// Thread safety: `rules` is only read.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_NULL_POINTER` (`rules` or `game` NULL),
/// `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `game` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_rules_game(
    rules: *const MancalaRules,
    game: *mut MancalaGameKind,
) -> MancalaStatus {
    guard(|| {
        let game = io::out_ptr(game, "game")?;
        // SAFETY: registry-checked handle; `game` checked non-NULL.
        let rules = unsafe { handle::get(rules, "rules") }?;
        let which = MancalaGameKind::from(rules.rules.kind());
        // SAFETY: `game` was checked non-NULL above and is writable by the caller's contract.
        unsafe { game.write(which) };
        Ok(())
    })
}
