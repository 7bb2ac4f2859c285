//! `MancalaRules`: a Kalah rule set (`kalah(6,4)+empty_capture`, `standard`, `manchester`).

use std::ffi::c_char;

use mancala_core::kalah::KalahRules;

use crate::handle::{self, Handle, Kind};
use crate::io;
use crate::status::{guard, Error, MancalaStatus};

/// An opaque Kalah rule set: houses per row m, starting seeds n, variant options.
///
/// Created by `mancala_rules_new`, freed by `mancala_rules_free`. Immutable once made, so one
/// rule set may be read from several threads at once. Positions copy the rules they are made
/// with: a rule set may be freed while positions made from it live on.
pub struct MancalaRules {
    pub(crate) rules: KalahRules,
}

impl Handle for MancalaRules {
    const KIND: Kind = Kind::Rules;
}

/// Parses a rule-set string (`"kalah(6,4)+empty_capture"`, `"kalah(7,7)+pie_rule"`,
/// `"standard"`, `"manchester"`; see `shared/rules/kalah.md`) into a new rule set.
///
/// Ownership: `text` is borrowed for the call only. On success `*out` is a new handle owned by
/// the caller, to be released with `mancala_rules_free`.
/// Thread safety: safe from any thread.
///
/// Returns:
/// - `MANCALA_STATUS_OK`: `*out` written.
/// - `MANCALA_STATUS_NULL_POINTER`: `text` or `out` is NULL.
/// - `MANCALA_STATUS_INVALID_UTF8`: `text` is not UTF-8.
/// - `MANCALA_STATUS_BAD_RULES`: malformed, unknown or duplicated option, m outside 1..=7,
///   n = 0, or 2·m·n > 255.
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
        let rules = text
            .parse::<KalahRules>()
            .map_err(|e| Error::new(MancalaStatus::BadRules, e.to_string()))?;
        // SAFETY: checked non-NULL; writable by contract.
        unsafe { out.write(handle::into_handle(MancalaRules { rules })) };
        Ok(())
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
    // SAFETY: the registry refuses handles that are not live.
    guard(|| unsafe { handle::free(rules, "rules") })
}

/// Prints a rule set in the rule-set notation (`"standard"`, `"kalah(7,7)+pie_rule"`, …) into
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
    guard(|| {
        // SAFETY: registry-checked handle; caller's buffer contract.
        let rules = unsafe { handle::get(rules, "rules") }?;
        unsafe { io::write_str(&rules.rules.to_string(), buf, len, needed) }
    })
}

/// Gives the board size of a rule set: houses per row m (1..=7) and starting seeds per house
/// n.
///
/// Thread safety: `rules` is only read.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_NULL_POINTER` (any pointer NULL; nothing
/// written), `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
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
        let rules = unsafe { handle::get(rules, "rules") }?;
        unsafe {
            houses.write(rules.rules.houses());
            seeds.write(rules.rules.seeds());
        }
        Ok(())
    })
}
