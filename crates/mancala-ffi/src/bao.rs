//! `MancalaBao`: a Bao la Kete game in progress, with moves in the notation of
//! `docs/rules/bao-la-kete.md` (`"F6>"`, `"F3L+"`, …): parse/print, legal moves, play/undo,
//! side to move, outcome and perft; thin wrappers over the bodies of `MancalaGame`
//! (`game.rs`).

use std::ffi::c_char;

use mancala_core::{AnyGame, GameKind};

use crate::game::{
    clone_body, legal_moves_body, new_of_kind_body, outcome_body, perft_body, play_text_body,
    print_body, side_to_move_body, undo_body, GameHandle, MancalaOutcome, MancalaSide,
};
use crate::handle::{self, Handle, Kind};
use crate::rules::MancalaRules;
use crate::status::MancalaStatus;

/// An opaque Bao la Kete game: its current position and every earlier position and move back
/// to the position it was made from (so that moves can be taken back). The older handle of a
/// Bao la Kete game, beside `MancalaGame` (any game); its calls are thin wrappers over the
/// same bodies.
///
/// Created by `mancala_bao_new`, `mancala_bao_parse` or `mancala_bao_clone`; freed by
/// `mancala_bao_free`. Holds its own copy of its rules. Functions taking a `const MancalaBao *`
/// only read it and may run on several threads at once; `mancala_bao_play`, `mancala_bao_undo`
/// and `mancala_bao_free` need exclusive use of the handle.
pub struct MancalaBao {
    game: AnyGame,
}

impl Handle for MancalaBao {
    const KIND: Kind = Kind::Bao;
}

impl GameHandle for MancalaBao {
    fn wrap(game: AnyGame) -> Self {
        MancalaBao { game }
    }
    fn game(&self) -> &AnyGame {
        &self.game
    }
    fn game_mut(&mut self) -> &mut AnyGame {
        &mut self.game
    }
}

/// Makes a new Bao la Kete game at the start position of `rules` (K-4.2: 6 seeds in the kuu,
/// 2 in F6 and F7, 22 in reserve for each side, unless the rules say otherwise):
/// `mancala_game_from_rules` with no position, for Bao la Kete rules only.
///
/// Ownership as `mancala_game_from_rules`; the handle is released with `mancala_bao_free`.
/// Thread safety: safe from any thread.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_INVALID_ARGUMENT` (the rules of another game),
/// `MANCALA_STATUS_NULL_POINTER` (`rules` or `out` NULL), `MANCALA_STATUS_INVALID_HANDLE` or
/// `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `out` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_bao_new(
    rules: *const MancalaRules,
    out: *mut *mut MancalaBao,
) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe { new_of_kind_body(GameKind::Bao, rules, None, out) }
}

/// Makes a new Bao la Kete game at the position `text` under `rules`:
/// `mancala_game_from_rules` with a position (which must not be NULL), for Bao la Kete rules
/// only. The notation is that of `docs/rules/bao-la-kete.md` (four rows of eight counts,
/// reserves, standing kuus, side to move, reserved pit, e.g.
/// `"0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 22,22 SN S -"`).
///
/// Ownership as `mancala_game_from_rules`; the handle is released with `mancala_bao_free`.
/// Thread safety: safe from any thread.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_BAD_POSITION` (malformed, not 64 seeds, a
/// standing kuu below 6, …), `MANCALA_STATUS_INVALID_UTF8` (`text`),
/// `MANCALA_STATUS_INVALID_ARGUMENT` (the rules of another game), `MANCALA_STATUS_NULL_POINTER`
/// (`rules`, `text` or `out` NULL), `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `text` must be NULL or NUL-terminated; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_bao_parse(
    rules: *const MancalaRules,
    text: *const c_char,
    out: *mut *mut MancalaBao,
) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe { new_of_kind_body(GameKind::Bao, rules, Some(text), out) }
}

/// `mancala_game_clone` for a `MancalaBao`: the copy is released with `mancala_bao_free`.
///
/// Thread safety: `game` is only read. Returns `MANCALA_STATUS_OK`,
/// `MANCALA_STATUS_NULL_POINTER`, `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`,
/// as `mancala_game_clone`.
///
/// # Safety
/// `out` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_bao_clone(
    game: *const MancalaBao,
    out: *mut *mut MancalaBao,
) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe { clone_body(game, out) }
}

/// `mancala_game_free` for a `MancalaBao`: NULL is a no-op; a handle that is not a live Bao
/// la Kete game is `MANCALA_STATUS_INVALID_HANDLE` and nothing is freed.
///
/// Thread safety: no other thread may be using `game`. Returns `MANCALA_STATUS_OK`,
/// `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `game` must be NULL or a pointer value (it is only dereferenced if it is a live handle).
#[no_mangle]
pub unsafe extern "C" fn mancala_bao_free(game: *mut MancalaBao) -> MancalaStatus {
    // SAFETY: the caller's contract: no other thread uses `game` (`free_entry` checks the rest).
    unsafe { handle::free_entry(game, "game") }
}

/// `mancala_game_print` for a `MancalaBao`: the position in the notation of
/// `docs/rules/bao-la-kete.md`.
///
/// Thread safety: `game` is only read. Returns `MANCALA_STATUS_OK`,
/// `MANCALA_STATUS_BUFFER_TOO_SMALL`, `MANCALA_STATUS_NULL_POINTER`,
/// `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`, as `mancala_game_print`.
///
/// # Safety
/// `buf` must be NULL or point to `len` writable bytes; `needed` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_bao_print(
    game: *const MancalaBao,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe { print_body(game, buf, len, needed, AnyGame::position_text) }
}

/// `mancala_game_draw` for a `MancalaBao`: North's reserve, North's back row `b` and front row
/// `f` (North's pit k in column 9 − k), a rule, South's front row `F` and back row `B` (pit k
/// in column k), the pit numbers, South's reserve, then a status line (`South to move`, the
/// pit reserved by hizi zetu, or `game over: …`). A standing kuu is marked `*`. The layout is
/// documented in `mancala_core::bao::draw`.
///
/// Thread safety: `game` is only read. Returns `MANCALA_STATUS_OK`,
/// `MANCALA_STATUS_BUFFER_TOO_SMALL`, `MANCALA_STATUS_NULL_POINTER`,
/// `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`, as `mancala_game_draw`.
///
/// # Safety
/// `buf` must be NULL or point to `len` writable bytes; `needed` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_bao_draw(
    game: *const MancalaBao,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe { print_body(game, buf, len, needed, AnyGame::drawing_text) }
}

/// `mancala_game_legal_moves` for a `MancalaBao`: the moves in the notation of
/// `docs/rules/bao-la-kete.md`, separated by single spaces (`"F6> F6< F7> F7<"` at the start),
/// pits `F1..F8, B1..B8` in turn, clockwise first.
///
/// Thread safety: `game` is only read. Returns `MANCALA_STATUS_OK`,
/// `MANCALA_STATUS_BUFFER_TOO_SMALL` (`buf` untouched, `*count` not written),
/// `MANCALA_STATUS_NULL_POINTER`, `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`,
/// as `mancala_game_legal_moves`.
///
/// # Safety
/// `buf` must be NULL or point to `len` writable bytes; `needed` and `count` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_bao_legal_moves(
    game: *const MancalaBao,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
    count: *mut usize,
) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe { legal_moves_body(game, buf, len, needed, count) }
}

/// `mancala_game_play` for a `MancalaBao`: the move in the notation of
/// `docs/rules/bao-la-kete.md` (`"F6>"`, `"F3L+"`, …) must be one of the legal moves exactly
/// as `mancala_bao_legal_moves` writes it (with every choice the position requires).
///
/// Thread safety: needs exclusive use of `game`. Returns `MANCALA_STATUS_OK`,
/// `MANCALA_STATUS_ILLEGAL_MOVE` (malformed, or not legal here: the message names the rule it
/// breaks; the game is unchanged), `MANCALA_STATUS_INVALID_UTF8`,
/// `MANCALA_STATUS_NULL_POINTER`, `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `mv` must be NULL or NUL-terminated; no other thread may use `game` during the call.
#[no_mangle]
pub unsafe extern "C" fn mancala_bao_play(
    game: *mut MancalaBao,
    mv: *const c_char,
) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe { play_text_body(game, mv) }
}

/// `mancala_game_undo` for a `MancalaBao`: takes back the last move played on this handle
/// (back to the position it was made or parsed from, not further).
///
/// Thread safety: needs exclusive use of `game`. Returns `MANCALA_STATUS_OK`,
/// `MANCALA_STATUS_NOTHING_TO_UNDO`, `MANCALA_STATUS_NULL_POINTER`,
/// `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// No other thread may use `game` during the call.
#[no_mangle]
pub unsafe extern "C" fn mancala_bao_undo(game: *mut MancalaBao) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe { undo_body(game) }
}

/// `mancala_game_record_print` for a `MancalaBao`: the moves played, comma-separated
/// (`"F7>,F6<"`; empty when none).
///
/// Thread safety: `game` is only read. Returns `MANCALA_STATUS_OK`,
/// `MANCALA_STATUS_BUFFER_TOO_SMALL`, `MANCALA_STATUS_NULL_POINTER`,
/// `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`, as `mancala_game_record_print`.
///
/// # Safety
/// `buf` must be NULL or point to `len` writable bytes; `needed` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_bao_record_print(
    game: *const MancalaBao,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe { print_body(game, buf, len, needed, |g| g.moves_text().join(",")) }
}

/// `mancala_game_side_to_move` for a `MancalaBao`: `MANCALA_SIDE_NONE` once the game is over
/// (a front row emptied, or no legal move).
///
/// Thread safety: `game` is only read. Returns `MANCALA_STATUS_OK`,
/// `MANCALA_STATUS_NULL_POINTER` (`game` or `side` NULL), `MANCALA_STATUS_INVALID_HANDLE` or
/// `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `side` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_bao_side_to_move(
    game: *const MancalaBao,
    side: *mut MancalaSide,
) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe { side_to_move_body(game, side) }
}

/// `mancala_game_outcome` for a `MancalaBao`: `MANCALA_OUTCOME_ONGOING` with `*score` 0 while
/// the game goes on; once it is over the winner (Bao la Kete has no draw) with `*score` +1 for
/// a South win and −1 for a North win.
///
/// Thread safety: `game` is only read. Returns `MANCALA_STATUS_OK`,
/// `MANCALA_STATUS_NULL_POINTER` (any pointer NULL; nothing written),
/// `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `outcome` and `score` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_bao_outcome(
    game: *const MancalaBao,
    outcome: *mut MancalaOutcome,
    score: *mut i32,
) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe { outcome_body(game, outcome, score, |_| 0) }
}

/// `mancala_game_perft` for a `MancalaBao`. From the Lamu start: depth 1 → 4. The work grows
/// exponentially with `depth`; the call cannot be interrupted.
///
/// Thread safety: `game` is only read. Returns `MANCALA_STATUS_OK`,
/// `MANCALA_STATUS_NULL_POINTER` (`game` or `nodes` NULL), `MANCALA_STATUS_INVALID_HANDLE` or
/// `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `nodes` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_bao_perft(
    game: *const MancalaBao,
    depth: u32,
    nodes: *mut u64,
) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe { perft_body(game, depth, nodes) }
}
