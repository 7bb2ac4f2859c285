//! `MancalaKalah`: a Kalah game in progress (its current position and the moves that led to
//! it), with parse/print, legal moves as move codes, play/undo, side to move, extra turns,
//! the pie-rule swap, outcome and perft. The calls are thin wrappers over the bodies of
//! `MancalaGame` (`game.rs`), plus the Kalah-only ones (board slots, move codes, extra turn,
//! swap state).

use std::ffi::c_char;

use mancala_core::kalah::{self as core_kalah, KalahMove, KalahPosition};
use mancala_core::{AnyGame, GameKind, GameRecord};

use crate::game::{
    clone_body, new_of_kind_body, outcome_body, perft_body, print_body, side_to_move_body,
    undo_body, GameHandle,
};
use crate::handle::{self, Handle, Kind};
use crate::io;
use crate::rules::MancalaRules;
use crate::status::{guard, Error, MancalaStatus, Result};

pub use crate::game::{MancalaOutcome, MancalaSide};

/// The move code of the pie-rule swap (house moves are coded by their house number 1..=m).
pub const MANCALA_KALAH_SWAP: u8 = 255;
/// The most legal moves a Kalah position can have (7 houses and the swap): a move buffer of
/// this length is always large enough.
pub const MANCALA_KALAH_MAX_MOVES: usize = 8;
/// The most slots a Kalah board can have (2·7 houses and 2 stores): a board buffer of this
/// length is always large enough.
pub const MANCALA_KALAH_MAX_SLOTS: usize = 16;

/// An opaque Kalah game: its current position, and every earlier position and move back to
/// the position it was made from (so that moves can be taken back). The older handle of a
/// Kalah game, beside `MancalaGame` (any game, moves as text); its calls are thin wrappers
/// over the same bodies.
///
/// Created by `mancala_kalah_new`, `mancala_kalah_parse` or `mancala_kalah_clone`; freed by
/// `mancala_kalah_free`. Holds its own copy of its rules. Functions taking a `const
/// MancalaKalah *` only read it and may run on several threads at once; `mancala_kalah_play`,
/// `mancala_kalah_undo` and `mancala_kalah_free` need exclusive use of the handle.
pub struct MancalaKalah {
    game: AnyGame,
}

impl Handle for MancalaKalah {
    const KIND: Kind = Kind::Kalah;
}

impl GameHandle for MancalaKalah {
    fn wrap(game: AnyGame) -> Self {
        MancalaKalah { game }
    }
    fn game(&self) -> &AnyGame {
        &self.game
    }
    fn game_mut(&mut self) -> &mut AnyGame {
        &mut self.game
    }
}

impl MancalaKalah {
    /// The Kalah record (the constructors only make Kalah games).
    pub(crate) fn kalah(&self) -> Result<&GameRecord<KalahPosition>> {
        self.record()
    }

    pub(crate) fn position(&self) -> Result<&KalahPosition> {
        Ok(self.kalah()?.position())
    }
}

pub(crate) fn decode_move(mv: u8) -> KalahMove {
    if mv == MANCALA_KALAH_SWAP {
        KalahMove::Swap
    } else {
        KalahMove::House(mv)
    }
}

pub(crate) fn encode_move(mv: KalahMove) -> u8 {
    match mv {
        KalahMove::House(h) => h,
        KalahMove::Swap => MANCALA_KALAH_SWAP,
    }
}

fn illegal(e: core_kalah::IllegalMove) -> Error {
    Error::new(MancalaStatus::IllegalMove, e.to_string())
}

/// Makes a new Kalah game at the start position of `rules` (n seeds in every house, empty
/// stores, South to move): `mancala_game_from_rules` with no position, for Kalah rules only.
///
/// Ownership as `mancala_game_from_rules`; the handle is released with `mancala_kalah_free`.
/// Thread safety: safe from any thread.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_NULL_POINTER` (`rules` or `out` NULL),
/// `MANCALA_STATUS_INVALID_HANDLE` (`rules` not a live rule set),
/// `MANCALA_STATUS_INVALID_ARGUMENT` (the rules of another game) or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `out` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_kalah_new(
    rules: *const MancalaRules,
    out: *mut *mut MancalaKalah,
) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe { new_of_kind_body(GameKind::Kalah, rules, None, out) }
}

/// Makes a new Kalah game at the position `text` under `rules`: `mancala_game_from_rules`
/// with a position (which must not be NULL), for Kalah rules only. The notation is that of
/// `docs/rules/kalah.md`: `"<2m+2 comma-separated counts> <S|N|->"` with a trailing `" swap"`
/// when a pie-rule swap is on offer, e.g. `"4,4,0,5,5,5,1,4,4,4,4,4,4,0 S"`.
///
/// Ownership as `mancala_game_from_rules`; the handle is released with `mancala_kalah_free`.
/// Thread safety: safe from any thread.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_NULL_POINTER` (`rules`, `text` or `out`
/// NULL), `MANCALA_STATUS_INVALID_HANDLE`, `MANCALA_STATUS_INVALID_ARGUMENT` (the rules of
/// another game), `MANCALA_STATUS_INVALID_UTF8`, `MANCALA_STATUS_BAD_POSITION` (malformed
/// text, wrong slot count for the rules, a count over 255, over 255 seeds, or a position the
/// rules cannot reach, e.g. a row empty with the game not over) or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `text` must be NULL or NUL-terminated; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_kalah_parse(
    rules: *const MancalaRules,
    text: *const c_char,
    out: *mut *mut MancalaKalah,
) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe { new_of_kind_body(GameKind::Kalah, rules, Some(text), out) }
}

/// `mancala_game_clone` for a `MancalaKalah`: the copy is released with `mancala_kalah_free`.
///
/// Thread safety: `game` is only read. Returns `MANCALA_STATUS_OK`,
/// `MANCALA_STATUS_NULL_POINTER`, `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`,
/// as `mancala_game_clone`.
///
/// # Safety
/// `out` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_kalah_clone(
    game: *const MancalaKalah,
    out: *mut *mut MancalaKalah,
) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe { clone_body(game, out) }
}

/// `mancala_game_free` for a `MancalaKalah`: NULL is a no-op; a handle that is not a live
/// Kalah game is `MANCALA_STATUS_INVALID_HANDLE` and nothing is freed.
///
/// Thread safety: no other thread may be using `game`. Returns `MANCALA_STATUS_OK`,
/// `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `game` must be NULL or a pointer value (it is only dereferenced if it is a live handle).
#[no_mangle]
pub unsafe extern "C" fn mancala_kalah_free(game: *mut MancalaKalah) -> MancalaStatus {
    // SAFETY: the caller's contract: no other thread uses `game` (`free_entry` checks the rest).
    unsafe { handle::free_entry(game, "game") }
}

/// `mancala_game_print` for a `MancalaKalah`: the position in the notation of
/// `docs/rules/kalah.md` (`"4,4,0,5,5,5,1,4,4,4,4,4,4,0 S"`; side `-` once the game is over;
/// a trailing `" swap"` while a pie-rule swap is on offer).
///
/// Thread safety: `game` is only read. Returns `MANCALA_STATUS_OK`,
/// `MANCALA_STATUS_BUFFER_TOO_SMALL`, `MANCALA_STATUS_NULL_POINTER`,
/// `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`, as `mancala_game_print`.
///
/// # Safety
/// `buf` must be NULL or point to `len` writable bytes; `needed` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_kalah_print(
    game: *const MancalaKalah,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe { print_body(game, buf, len, needed, AnyGame::position_text) }
}

/// `mancala_game_draw` for a `MancalaKalah`: North's houses on top (`N1` on the right: each
/// player numbers from their own left), the stores at the ends (North's on the left), South's
/// houses below, then a status line (`South to move`, `North to move (may swap)`,
/// `game over: South wins (+4)`). The layout is documented in `mancala_core::kalah::draw`.
///
/// Thread safety: `game` is only read. Returns `MANCALA_STATUS_OK`,
/// `MANCALA_STATUS_BUFFER_TOO_SMALL`, `MANCALA_STATUS_NULL_POINTER`,
/// `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`, as `mancala_game_draw`.
///
/// # Safety
/// `buf` must be NULL or point to `len` writable bytes; `needed` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_kalah_draw(
    game: *const MancalaKalah,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe { print_body(game, buf, len, needed, AnyGame::drawing_text) }
}

/// `mancala_game_record_print` for a `MancalaKalah`: the moves played, comma-separated
/// (`"3,1,swap,6"`; empty when none).
///
/// Thread safety: `game` is only read. Returns `MANCALA_STATUS_OK`,
/// `MANCALA_STATUS_BUFFER_TOO_SMALL`, `MANCALA_STATUS_NULL_POINTER`,
/// `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`, as `mancala_game_record_print`.
///
/// # Safety
/// `buf` must be NULL or point to `len` writable bytes; `needed` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_kalah_record_print(
    game: *const MancalaKalah,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe { print_body(game, buf, len, needed, |g| g.moves_text().join(",")) }
}

/// Copies the 2m + 2 seed counts of the current board into `slots`, in notation order:
/// South's houses 1..m, South's store, North's houses 1..m, North's store.
/// `MANCALA_KALAH_MAX_SLOTS` (16) entries always suffice.
///
/// Ownership: `slots` belongs to the caller. Thread safety: `game` is only read.
///
/// Returns:
/// - `MANCALA_STATUS_OK`: `*count` = 2m + 2 entries written.
/// - `MANCALA_STATUS_BUFFER_TOO_SMALL`: `*count` = 2m + 2; `slots` untouched (`slots` may be
///   NULL when `len` is 0).
/// - `MANCALA_STATUS_NULL_POINTER`: `game` or `count` NULL, or `slots` NULL with `len` > 0.
/// - `MANCALA_STATUS_INVALID_HANDLE`, `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `slots` must be NULL or point to `len` writable bytes; `count` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_kalah_board(
    game: *const MancalaKalah,
    slots: *mut u8,
    len: usize,
    count: *mut usize,
) -> MancalaStatus {
    guard(|| {
        // SAFETY: registry-checked handle; caller's buffer contract.
        let game = unsafe { handle::get(game, "game") }?;
        // SAFETY: the caller's buffer contract: `slots` is NULL or holds `len` writable entries,
        // `count` NULL or writable.
        unsafe { io::write_slice(&game.position()?.slots(), slots, len, count, "slot") }
    })
}

/// Copies the legal moves of the current position into `moves`: the mover's non-empty houses
/// (1..=m) in increasing order, then `MANCALA_KALAH_SWAP` when the pie rule offers it. None
/// once the game is over. `MANCALA_KALAH_MAX_MOVES` (8) entries always suffice.
///
/// Ownership: `moves` belongs to the caller. Thread safety: `game` is only read.
///
/// Returns:
/// - `MANCALA_STATUS_OK`: `*count` = number of moves written (0 when the game is over).
/// - `MANCALA_STATUS_BUFFER_TOO_SMALL`: `*count` = number of legal moves; `moves` untouched
///   (`moves` may be NULL when `len` is 0).
/// - `MANCALA_STATUS_NULL_POINTER`: `game` or `count` NULL, or `moves` NULL with `len` > 0.
/// - `MANCALA_STATUS_INVALID_HANDLE`, `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `moves` must be NULL or point to `len` writable bytes; `count` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_kalah_legal_moves(
    game: *const MancalaKalah,
    moves: *mut u8,
    len: usize,
    count: *mut usize,
) -> MancalaStatus {
    guard(|| {
        // SAFETY: registry-checked handle; caller's buffer contract.
        let game = unsafe { handle::get(game, "game") }?;
        let legal: Vec<u8> = game
            .position()?
            .legal_moves()
            .into_iter()
            .map(encode_move)
            .collect();
        // SAFETY: the caller's buffer contract: `moves` is NULL or holds `len` writable entries,
        // `count` NULL or writable.
        unsafe { io::write_slice(&legal, moves, len, count, "move") }
    })
}

/// Plays `mv` (a house number 1..=m of the mover, or `MANCALA_KALAH_SWAP`) on the current
/// position. After an extra turn the same side is to move again (see
/// `mancala_kalah_side_to_move`).
///
/// Thread safety: needs exclusive use of `game`.
///
/// Returns:
/// - `MANCALA_STATUS_OK`: played.
/// - `MANCALA_STATUS_ILLEGAL_MOVE`: the game is over, the house does not exist or is empty,
///   or a swap is not on offer; the game is unchanged.
/// - `MANCALA_STATUS_NULL_POINTER`, `MANCALA_STATUS_INVALID_HANDLE`, `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// No other thread may use `game` during the call.
#[no_mangle]
pub unsafe extern "C" fn mancala_kalah_play(game: *mut MancalaKalah, mv: u8) -> MancalaStatus {
    guard(|| {
        // SAFETY: registry-checked handle; exclusive use by contract.
        let game = unsafe { handle::get_mut(game, "game") }?;
        game.record_mut::<KalahPosition>()?
            .play(decode_move(mv))
            .map_err(illegal)?;
        Ok(())
    })
}

/// `mancala_game_undo` for a `MancalaKalah`: takes back the last move played on this handle
/// (back to the position it was made or parsed from, not further).
///
/// Thread safety: needs exclusive use of `game`. Returns `MANCALA_STATUS_OK`,
/// `MANCALA_STATUS_NOTHING_TO_UNDO` (unchanged), `MANCALA_STATUS_NULL_POINTER`,
/// `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// No other thread may use `game` during the call.
#[no_mangle]
pub unsafe extern "C" fn mancala_kalah_undo(game: *mut MancalaKalah) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe { undo_body(game) }
}

/// `mancala_game_side_to_move` for a `MancalaKalah`. After an extra turn the same side is to
/// move again.
///
/// Thread safety: `game` is only read. Returns `MANCALA_STATUS_OK`,
/// `MANCALA_STATUS_NULL_POINTER` (`game` or `side` NULL), `MANCALA_STATUS_INVALID_HANDLE` or
/// `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `side` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_kalah_side_to_move(
    game: *const MancalaKalah,
    side: *mut MancalaSide,
) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe { side_to_move_body(game, side) }
}

/// Tells whether playing `mv` now would give the mover an extra turn (the last seed lands in
/// the mover's store and the game does not end). Always false for the swap.
///
/// Thread safety: `game` is only read.
///
/// Returns:
/// - `MANCALA_STATUS_OK`: `*extra_turn` written.
/// - `MANCALA_STATUS_ILLEGAL_MOVE`: `mv` is not legal here.
/// - `MANCALA_STATUS_NULL_POINTER` (`game` or `extra_turn` NULL),
///   `MANCALA_STATUS_INVALID_HANDLE`, `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `extra_turn` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_kalah_extra_turn(
    game: *const MancalaKalah,
    mv: u8,
    extra_turn: *mut bool,
) -> MancalaStatus {
    guard(|| {
        let extra_turn = io::out_ptr(extra_turn, "extra_turn")?;
        // SAFETY: registry-checked handle.
        let game = unsafe { handle::get(game, "game") }?;
        let pos = game.position()?;
        let mv = decode_move(mv);
        let next = pos.play(mv).map_err(illegal)?;
        let extra = mv != KalahMove::Swap && next.side_to_move() == pos.side_to_move();
        // SAFETY: checked non-NULL.
        unsafe { extra_turn.write(extra) };
        Ok(())
    })
}

/// Tells whether the side to move (North, under the pie rule) may play `MANCALA_KALAH_SWAP`
/// now, and whether a swap has been played in this game's history (the players then play the
/// other sides than they started on).
///
/// Thread safety: `game` is only read.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_NULL_POINTER` (any pointer NULL; nothing
/// written), `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `offered` and `swapped` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_kalah_swap_state(
    game: *const MancalaKalah,
    offered: *mut bool,
    swapped: *mut bool,
) -> MancalaStatus {
    guard(|| {
        let offered = io::out_ptr(offered, "offered")?;
        let swapped = io::out_ptr(swapped, "swapped")?;
        // SAFETY: registry-checked handle; out-pointers checked non-NULL.
        let game = unsafe { handle::get(game, "game") }?.kalah()?;
        // SAFETY: every out-pointer written here was checked non-NULL above (`io::out_ptr`) and is
        // writable by the caller's contract.
        unsafe {
            offered.write(game.position().swap_offered());
            swapped.write(game.swapped());
        }
        Ok(())
    })
}

/// Gives the outcome and the score: `*outcome` is `MANCALA_OUTCOME_ONGOING` while the game
/// goes on, else who won; `*score` is the store difference South minus North in seeds (the
/// final score once the game is over, after the end-of-game sweep; the current difference
/// while it goes on).
///
/// Thread safety: `game` is only read.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_NULL_POINTER` (any pointer NULL; nothing
/// written), `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `outcome` and `score` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_kalah_outcome(
    game: *const MancalaKalah,
    outcome: *mut MancalaOutcome,
    score: *mut i32,
) -> MancalaStatus {
    // SAFETY: forwarded contract. While the game goes on, the store difference so far.
    unsafe {
        outcome_body(game, outcome, score, |g| match g {
            AnyGame::Kalah(g) => g.position().store_difference(),
            _ => 0,
        })
    }
}

/// `mancala_game_perft` for a `MancalaKalah`: an extra turn is its own ply, a swap is a ply.
/// From the start of Kalah(6,4): depth 1 → 6, depth 2 → 35. The work grows about 6 times a
/// ply; the call cannot be interrupted.
///
/// Thread safety: `game` is only read; several perfts may run on one handle at once. Returns
/// `MANCALA_STATUS_OK`, `MANCALA_STATUS_NULL_POINTER` (`game` or `nodes` NULL),
/// `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `nodes` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_kalah_perft(
    game: *const MancalaKalah,
    depth: u32,
    nodes: *mut u64,
) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe { perft_body(game, depth, nodes) }
}
