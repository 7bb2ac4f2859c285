//! `MancalaGame`: a game of any kind in progress — Kalah, Bao la Kete, Oware, Togyz Kumalak —
//! chosen by its rule set's text, with parse/print, drawing, legal moves, play (by move text or by index),
//! undo, side to move, outcome and perft. Moves are given and printed in each game's move
//! notation (`docs/notation.md`). The Kalah and Bao la Kete calls of earlier versions
//! (`mancala_kalah_*`, `mancala_bao_*`) are thin wrappers over the bodies here.

use std::ffi::c_char;

use mancala_core::{with_game, AnyError, AnyGame, Game, GameKind, GameRecord, Rules, Side};

use crate::handle::{self, Handle, Kind};
use crate::io;
use crate::rules::MancalaRules;
use crate::status::{guard, Error, MancalaStatus, Result};

/// Which game a rule set or a game is of.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MancalaGameKind {
    /// Kalah(m, n) with its options.
    Kalah = 0,
    /// Bao la Kete.
    Bao = 1,
    /// Oware (Abapa) and Awari.
    Oware = 2,
    /// Togyz Kumalak and Bestemshe.
    Togyz = 3,
}

impl From<GameKind> for MancalaGameKind {
    fn from(kind: GameKind) -> MancalaGameKind {
        match kind {
            GameKind::Kalah => MancalaGameKind::Kalah,
            GameKind::Bao => MancalaGameKind::Bao,
            GameKind::Oware => MancalaGameKind::Oware,
            GameKind::Togyz => MancalaGameKind::Togyz,
        }
    }
}

/// A side of the board, or none.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MancalaSide {
    /// South: moves first; slots 0..m are its houses, slot m its store.
    South = 0,
    /// North: moves second; slots m+1..2m its houses, slot 2m+1 its store.
    North = 1,
    /// No side: the game is over (as a side to move).
    None = 2,
}

impl From<Option<Side>> for MancalaSide {
    fn from(side: Option<Side>) -> Self {
        match side {
            Some(Side::South) => MancalaSide::South,
            Some(Side::North) => MancalaSide::North,
            None => MancalaSide::None,
        }
    }
}

/// How a game stands: still going on, or who won.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MancalaOutcome {
    /// The game is not over.
    Ongoing = 0,
    /// The game is over and South has more seeds.
    SouthWins = 1,
    /// The game is over and North has more seeds.
    NorthWins = 2,
    /// The game is over with equal seeds.
    Draw = 3,
}

/// Makes the struct `$ty` (a struct with the one field `game: AnyGame`) a handle of registry
/// kind `Kind::$kind` and a [`GameHandle`]: the same few lines for `MancalaGame`,
/// `MancalaKalah` and `MancalaBao`.
macro_rules! game_handle {
    ($ty:ident, $kind:ident) => {
        impl $crate::handle::Handle for $ty {
            const KIND: $crate::handle::Kind = $crate::handle::Kind::$kind;
        }

        impl $crate::game::GameHandle for $ty {
            fn wrap(game: mancala_core::AnyGame) -> Self {
                $ty { game }
            }
            fn game(&self) -> &mancala_core::AnyGame {
                &self.game
            }
            fn game_mut(&mut self) -> &mut mancala_core::AnyGame {
                &mut self.game
            }
        }
    };
}
pub(crate) use game_handle;

/// An opaque game of any kind: its current position, and every earlier position and move
/// back to the position it was made from (so that moves can be taken back).
///
/// Created by `mancala_game_new`, `mancala_game_parse`, `mancala_game_from_rules` or
/// `mancala_game_clone`; freed by `mancala_game_free`. Holds its own copy of its rules.
/// Functions taking a `const MancalaGame *` only read it and may run on several threads at
/// once; `mancala_game_play`, `mancala_game_play_index`, `mancala_game_undo` and
/// `mancala_game_free` need exclusive use of the handle.
pub struct MancalaGame {
    game: AnyGame,
}

game_handle!(MancalaGame, Game);

/// A handle type that holds a game: `MancalaGame` (any game), and the older `MancalaKalah`
/// and `MancalaBao`, which hold a game of their kind only. The entry points of the three
/// families share the generic bodies below.
pub(crate) trait GameHandle: Handle + 'static {
    /// Wraps a game (of the handle's kind, for the older handles).
    fn wrap(game: AnyGame) -> Self;
    /// The game.
    fn game(&self) -> &AnyGame;
    /// The game, mutably.
    fn game_mut(&mut self) -> &mut AnyGame;

    /// The typed record of game `G` (`MANCALA_STATUS_INVALID_HANDLE` if the game is of
    /// another kind, which the constructors of the older handles never allow).
    fn record<G: Game>(&self) -> Result<&GameRecord<G>> {
        let kind = self.game().kind();
        with_game!(self.game(), g => (g as &dyn std::any::Any).downcast_ref::<GameRecord<G>>())
            .ok_or_else(|| wrong_kind::<G>(kind))
    }

    /// [`GameHandle::record`], mutably.
    fn record_mut<G: Game>(&mut self) -> Result<&mut GameRecord<G>> {
        let kind = self.game().kind();
        with_game!(self.game_mut(), g => (g as &mut dyn std::any::Any).downcast_mut::<GameRecord<G>>())
            .ok_or_else(|| wrong_kind::<G>(kind))
    }
}

fn wrong_kind<G: Game>(found: GameKind) -> Error {
    Error::new(
        MancalaStatus::InvalidHandle,
        format!(
            "the handle holds {} game, not {} game",
            found.with_article(),
            G::KIND.with_article()
        ),
    )
}

/// The status of a refused request on a game: a malformed or illegal move is
/// `MANCALA_STATUS_ILLEGAL_MOVE`, a bad position `MANCALA_STATUS_BAD_POSITION`, bad rules
/// `MANCALA_STATUS_BAD_RULES`, a move index out of range `MANCALA_STATUS_INVALID_ARGUMENT`.
pub(crate) fn any_error(e: AnyError) -> Error {
    let status = match e {
        AnyError::Rules(_) => MancalaStatus::BadRules,
        AnyError::Position { .. } => MancalaStatus::BadPosition,
        AnyError::MoveParse { .. } | AnyError::Illegal { .. } => MancalaStatus::IllegalMove,
        AnyError::MoveIndex { .. } => MancalaStatus::InvalidArgument,
    };
    Error::new(status, e.to_string())
}

/// Writes a new game handle to `out`.
pub(crate) fn new_game<H: GameHandle>(out: *mut *mut H, game: AnyGame) -> Result<()> {
    // SAFETY: every caller passes its own caller's `out`, NULL or writable by contract.
    unsafe { handle::write_new(out, "out", H::wrap(game)) }
}

/// A game at the start position of `rules`, or at `position` (notation of the rules' game)
/// when it is not NULL.
///
/// # Safety
/// `position` must be NULL or NUL-terminated.
pub(crate) unsafe fn start_game(rules: Rules, position: *const c_char) -> Result<AnyGame> {
    if position.is_null() {
        return Ok(AnyGame::new(rules));
    }
    // SAFETY: the caller's contract on `position`.
    let text = unsafe { io::in_str(position, "position") }?;
    AnyGame::parse(rules, text).map_err(any_error)
}

/// The body of the constructors of the older handles (`mancala_kalah_new`,
/// `mancala_bao_parse`, …): the rule set must be of game `kind` (else
/// `MANCALA_STATUS_INVALID_ARGUMENT`); the game starts at the start position, or at the
/// position `text` (argument `text`, which must then not be NULL) when `parse` is set.
///
/// # Safety
/// `text` must be NULL or NUL-terminated; `out` NULL or writable.
pub(crate) unsafe fn new_of_kind_body<H: GameHandle>(
    kind: GameKind,
    rules: *const MancalaRules,
    parse: Option<*const c_char>,
    out: *mut *mut H,
) -> MancalaStatus {
    guard(|| {
        io::out_ptr(out, "out")?;
        // SAFETY: registry-checked handle, only read.
        let rules = unsafe { handle::get(rules, "rules") }?.of_kind(kind)?;
        let game = match parse {
            None => AnyGame::new(rules),
            Some(text) => {
                // SAFETY: the caller's contract on `text`.
                let text = unsafe { io::in_str(text, "text") }?;
                AnyGame::parse(rules, text).map_err(any_error)?
            }
        };
        new_game(out, game)
    })
}

fn rules_of(text: &str) -> Result<Rules> {
    text.parse::<Rules>()
        .map_err(|e| Error::new(MancalaStatus::BadRules, e.to_string()))
}

/// Borrows a live game handle.
///
/// # Safety
/// As `handle::get`.
pub(crate) unsafe fn get<'a, H: GameHandle>(game: *const H) -> Result<&'a AnyGame> {
    // SAFETY: forwarded contract.
    Ok(unsafe { handle::get(game, "game") }?.game())
}

/// Borrows a live game handle mutably.
///
/// # Safety
/// As `handle::get_mut`.
pub(crate) unsafe fn get_mut<'a, H: GameHandle>(game: *mut H) -> Result<&'a mut AnyGame> {
    // SAFETY: forwarded contract.
    Ok(unsafe { handle::get_mut(game, "game") }?.game_mut())
}

/// Makes a new game at the start position of the rule set `rules`, given in the rule-set
/// notation of `docs/notation.md`: `"standard"`, `"kalah(6,4)+empty_capture"`,
/// `"bao-la-kete"`. The text chooses the game.
///
/// Ownership: `rules` is only read during the call. On success `*out` is a new handle owned
/// by the caller, released with `mancala_game_free`.
/// Thread safety: safe from any thread.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_NULL_POINTER` (`rules` or `out` NULL),
/// `MANCALA_STATUS_INVALID_UTF8`, `MANCALA_STATUS_BAD_RULES` (the message says why and lists
/// the accepted forms) or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `rules` must be NULL or NUL-terminated; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_game_new(
    rules: *const c_char,
    out: *mut *mut MancalaGame,
) -> MancalaStatus {
    guard(|| {
        io::out_ptr(out, "out")?;
        // SAFETY: the caller's contract on `rules`.
        let rules = rules_of(unsafe { io::in_str(rules, "rules") }?)?;
        new_game(out, AnyGame::new(rules))
    })
}

/// Makes a new game of the rule set `rules` (as `mancala_game_new`) starting at `position`,
/// given in the position notation of the rules' game (`docs/notation.md`), e.g. Kalah
/// `"4,4,0,5,5,5,1,4,4,4,4,4,4,0 S"`.
///
/// Ownership: `rules` and `position` are only read during the call. On success `*out` is a
/// new handle owned by the caller, released with `mancala_game_free`.
/// Thread safety: safe from any thread.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_NULL_POINTER` (an argument NULL),
/// `MANCALA_STATUS_INVALID_UTF8`, `MANCALA_STATUS_BAD_RULES`, `MANCALA_STATUS_BAD_POSITION`
/// (malformed text, or a position the rules refuse; the message says which) or
/// `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `rules` and `position` must be NULL or NUL-terminated; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_game_parse(
    rules: *const c_char,
    position: *const c_char,
    out: *mut *mut MancalaGame,
) -> MancalaStatus {
    guard(|| {
        io::out_ptr(out, "out")?;
        // SAFETY: the caller's contract on `rules`.
        let rules = rules_of(unsafe { io::in_str(rules, "rules") }?)?;
        io::out_ptr(position.cast_mut(), "position")?;
        // SAFETY: the caller's contract on `position` (checked non-NULL above).
        let game = unsafe { start_game(rules, position) }?;
        new_game(out, game)
    })
}

/// Makes a new game of a rule set handle: at its start position when `position` is NULL,
/// otherwise at `position` in the notation of the rules' game.
///
/// Ownership: `rules` is only read (the game copies it; it may be freed afterwards);
/// `position` only during the call. On success `*out` is a new handle owned by the caller,
/// released with `mancala_game_free`.
/// Thread safety: safe from any thread.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_NULL_POINTER` (`rules` or `out` NULL),
/// `MANCALA_STATUS_INVALID_HANDLE` (`rules` not a live rule set), `MANCALA_STATUS_INVALID_UTF8`,
/// `MANCALA_STATUS_BAD_POSITION` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `position` must be NULL or NUL-terminated; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_game_from_rules(
    rules: *const MancalaRules,
    position: *const c_char,
    out: *mut *mut MancalaGame,
) -> MancalaStatus {
    guard(|| {
        io::out_ptr(out, "out")?;
        // SAFETY: registry-checked handle, only read.
        let rules = unsafe { handle::get(rules, "rules") }?.rules;
        // SAFETY: the caller's contract on `position`.
        let game = unsafe { start_game(rules, position) }?;
        new_game(out, game)
    })
}

// The generic bodies of the entry points of every game handle type (`MancalaGame`,
// `MancalaKalah`, `MancalaBao`): each entry point is one call to one of these.

/// The body of a `_clone`.
///
/// # Safety
/// `out` must be NULL or writable; no other thread may be mutating or freeing `game`.
pub(crate) unsafe fn clone_body<H: GameHandle>(game: *const H, out: *mut *mut H) -> MancalaStatus {
    // SAFETY: the caller's contract on `out`; `game` is only read.
    unsafe { handle::clone_entry(game, "game", out, |g| H::wrap(g.game().clone())) }
}

/// The body of a call that prints something of a game into the caller's buffer.
///
/// # Safety
/// `buf` must be NULL or point to `len` writable bytes; `needed` NULL or writable.
pub(crate) unsafe fn print_body<H: GameHandle>(
    game: *const H,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
    text: impl FnOnce(&AnyGame) -> String,
) -> MancalaStatus {
    // SAFETY: the caller's buffer contract; `game` is only read.
    unsafe { handle::print_entry(game, "game", buf, len, needed, |g| text(g.game())) }
}

/// The body of the legal-moves-as-text calls: the moves joined by spaces, and their count.
///
/// # Safety
/// `buf` must be NULL or point to `len` writable bytes; `needed` and `count` NULL or writable.
pub(crate) unsafe fn legal_moves_body<H: GameHandle>(
    game: *const H,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
    count: *mut usize,
) -> MancalaStatus {
    guard(|| {
        let count = io::out_ptr(count, "count")?;
        // SAFETY: registry-checked handle; only read.
        let game = unsafe { get(game) }?;
        let moves = game.legal_moves_text();
        // SAFETY: the caller's buffer contract: `buf` is NULL or holds `len` writable bytes,
        // `needed` NULL or writable.
        unsafe { io::write_str(&moves.join(" "), buf, len, needed, "buf") }?;
        // SAFETY: checked non-NULL.
        unsafe { count.write(moves.len()) };
        Ok(())
    })
}

/// The body of the play-by-text calls.
///
/// # Safety
/// `mv` must be NULL or NUL-terminated; exclusive use of `game`.
pub(crate) unsafe fn play_text_body<H: GameHandle>(
    game: *mut H,
    mv: *const c_char,
) -> MancalaStatus {
    guard(|| {
        // SAFETY: registry-checked handle; exclusive use by contract.
        let game = unsafe { get_mut(game) }?;
        // SAFETY: the caller's contract on `mv`.
        let text = unsafe { io::in_str(mv, "mv") }?;
        game.play_text(text).map_err(any_error)
    })
}

/// The body of the undo calls.
///
/// # Safety
/// Exclusive use of `game`.
pub(crate) unsafe fn undo_body<H: GameHandle>(game: *mut H) -> MancalaStatus {
    guard(|| {
        // SAFETY: registry-checked handle; exclusive use by contract.
        let game = unsafe { get_mut(game) }?;
        match game.undo() {
            Some(_) => Ok(()),
            None => Err(Error::new(
                MancalaStatus::NothingToUndo,
                "no move has been played since the game's first position",
            )),
        }
    })
}

/// The body of the side-to-move calls.
///
/// # Safety
/// `side` must be NULL or writable.
pub(crate) unsafe fn side_to_move_body<H: GameHandle>(
    game: *const H,
    side: *mut MancalaSide,
) -> MancalaStatus {
    guard(|| {
        let side = io::out_ptr(side, "side")?;
        // SAFETY: registry-checked handle; only read.
        let game = unsafe { get(game) }?;
        // SAFETY: `side` was checked non-NULL above and is writable by the caller's contract.
        unsafe { side.write(game.side_to_move().into()) };
        Ok(())
    })
}

/// The body of the outcome calls: the outcome, and the final score South minus North once
/// the game is over; while it goes on, the store difference so far for a `MancalaKalah`
/// (as `mancala_kalah_outcome` documents it) and 0 for the other handles.
///
/// # Safety
/// `outcome` and `score` must be NULL or writable.
pub(crate) unsafe fn outcome_body<H: GameHandle>(
    game: *const H,
    outcome: *mut MancalaOutcome,
    score: *mut i32,
) -> MancalaStatus {
    guard(|| {
        let outcome = io::out_ptr(outcome, "outcome")?;
        let score = io::out_ptr(score, "score")?;
        // SAFETY: registry-checked handle; only read.
        let game = unsafe { get(game) }?;
        let (o, s) = match game.outcome() {
            None => {
                let so_far = match game {
                    AnyGame::Kalah(g) if H::KIND == Kind::Kalah => g.position().store_difference(),
                    AnyGame::Kalah(_) | AnyGame::Bao(_) | AnyGame::Oware(_) | AnyGame::Togyz(_) => {
                        0
                    }
                };
                (MancalaOutcome::Ongoing, so_far)
            }
            Some(o) => (
                match o.winner {
                    Some(Side::South) => MancalaOutcome::SouthWins,
                    Some(Side::North) => MancalaOutcome::NorthWins,
                    None => MancalaOutcome::Draw,
                },
                o.score,
            ),
        };
        // SAFETY: both checked non-NULL above, writable by the caller's contract.
        unsafe {
            outcome.write(o);
            score.write(s);
        }
        Ok(())
    })
}

/// The body of the perft calls.
///
/// # Safety
/// `nodes` must be NULL or writable.
pub(crate) unsafe fn perft_body<H: GameHandle>(
    game: *const H,
    depth: u32,
    nodes: *mut u64,
) -> MancalaStatus {
    guard(|| {
        let nodes = io::out_ptr(nodes, "nodes")?;
        // SAFETY: registry-checked handle; only read.
        let game = unsafe { get(game) }?;
        let n = game.perft(depth);
        // SAFETY: `nodes` was checked non-NULL above and is writable by the caller's contract.
        unsafe { nodes.write(n) };
        Ok(())
    })
}

/// Makes an independent copy of a game (current position and history).
///
/// Ownership: `game` is only read. On success `*out` is a new handle owned by the caller,
/// released with `mancala_game_free`.
/// Thread safety: `game` is only read.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_NULL_POINTER` (`game` or `out` NULL),
/// `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `out` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_game_clone(
    game: *const MancalaGame,
    out: *mut *mut MancalaGame,
) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe { clone_body(game, out) }
}

/// Frees a game. NULL is a no-op (`MANCALA_STATUS_OK`).
///
/// Ownership: the handle is invalid after this call.
/// Thread safety: no other thread may be using `game`.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_INVALID_HANDLE` (already freed or not a game;
/// nothing is freed) or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `game` must be NULL or a pointer value (it is only dereferenced if it is a live handle).
#[no_mangle]
pub unsafe extern "C" fn mancala_game_free(game: *mut MancalaGame) -> MancalaStatus {
    // SAFETY: the caller's contract: no other thread uses `game` (`free_entry` checks the rest).
    unsafe { handle::free_entry(game, "game") }
}

/// Tells which game a game handle plays.
///
/// Thread safety: `game` is only read.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_NULL_POINTER` (`game` or `kind` NULL),
/// `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `kind` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_game_kind(
    game: *const MancalaGame,
    kind: *mut MancalaGameKind,
) -> MancalaStatus {
    guard(|| {
        let kind = io::out_ptr(kind, "kind")?;
        // SAFETY: registry-checked handle, only read.
        let game = unsafe { get(game) }?;
        // SAFETY: `kind` was checked non-NULL above and is writable by the caller's contract.
        unsafe { kind.write(game.kind().into()) };
        Ok(())
    })
}

/// Prints the game's rule set in the rule-set notation (`"kalah(6,4)"`, `"bao-la-kete"`)
/// into `buf` as a NUL-terminated string.
///
/// Ownership: `buf` belongs to the caller. Thread safety: `game` is only read.
///
/// Returns `MANCALA_STATUS_OK` (`*needed` = bytes written, NUL included),
/// `MANCALA_STATUS_BUFFER_TOO_SMALL` (`*needed` = size needed; `buf` untouched),
/// `MANCALA_STATUS_NULL_POINTER`, `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `buf` must be NULL or point to `len` writable bytes; `needed` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_game_rules_print(
    game: *const MancalaGame,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe { print_body(game, buf, len, needed, |g| g.rules().to_string()) }
}

/// Prints the current position in the notation of its game (`docs/notation.md`; side `-`
/// once the game is over) into `buf` as a NUL-terminated string. `MANCALA_NOTATION_MAX`
/// bytes always suffice.
///
/// Ownership: `buf` belongs to the caller. Thread safety: `game` is only read.
///
/// Returns `MANCALA_STATUS_OK` (`*needed` = bytes written, NUL included),
/// `MANCALA_STATUS_BUFFER_TOO_SMALL` (`*needed` = size needed; `buf` untouched; `buf` may be
/// NULL when `len` is 0), `MANCALA_STATUS_NULL_POINTER` (`game` or `needed` NULL, or `buf`
/// NULL with `len` > 0), `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `buf` must be NULL or point to `len` writable bytes; `needed` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_game_print(
    game: *const MancalaGame,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe { print_body(game, buf, len, needed, AnyGame::position_text) }
}

/// Draws the current position as text (several lines, no trailing newline), as the
/// `mancala show` command prints it, into `buf` as a NUL-terminated string.
/// `MANCALA_DRAWING_MAX` bytes always suffice.
///
/// Ownership: `buf` belongs to the caller. Thread safety: `game` is only read.
///
/// Returns `MANCALA_STATUS_OK` (`*needed` = bytes written, NUL included),
/// `MANCALA_STATUS_BUFFER_TOO_SMALL` (`*needed` = size needed; `buf` untouched),
/// `MANCALA_STATUS_NULL_POINTER`, `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `buf` must be NULL or point to `len` writable bytes; `needed` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_game_draw(
    game: *const MancalaGame,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe { print_body(game, buf, len, needed, AnyGame::drawing_text) }
}

/// Prints the moves played since the game's first position, in the game's move notation
/// separated by commas (`"3,1,swap,6"`; empty when none), into `buf` as a NUL-terminated
/// string.
///
/// Ownership: `buf` belongs to the caller. Thread safety: `game` is only read.
///
/// Returns `MANCALA_STATUS_OK` (`*needed` = bytes written, NUL included),
/// `MANCALA_STATUS_BUFFER_TOO_SMALL` (`*needed` = size needed; `buf` untouched),
/// `MANCALA_STATUS_NULL_POINTER`, `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `buf` must be NULL or point to `len` writable bytes; `needed` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_game_record_print(
    game: *const MancalaGame,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe { print_body(game, buf, len, needed, |g| g.moves_text().join(",")) }
}

/// Writes the legal moves of the current position, in the game's move notation separated by
/// single spaces (`"1 2 3 4 5 6"`, `"F5> F6< F7<"`; empty once the game is over), into `buf`
/// as a NUL-terminated string, and their number to `*count`. The order is the game's
/// (`mancala_game_play_index` numbers the moves in it from 0).
///
/// Ownership: `buf` belongs to the caller. Thread safety: `game` is only read.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_BUFFER_TOO_SMALL` (`*needed` = size needed;
/// `buf` and `*count` untouched), `MANCALA_STATUS_NULL_POINTER` (`game`, `needed` or `count`
/// NULL, or `buf` NULL with `len` > 0), `MANCALA_STATUS_INVALID_HANDLE` or
/// `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `buf` must be NULL or point to `len` writable bytes; `needed` and `count` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_game_legal_moves(
    game: *const MancalaGame,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
    count: *mut usize,
) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe { legal_moves_body(game, buf, len, needed, count) }
}

/// Plays a move given in the game's move notation (Kalah `"3"` or `"swap"`, Bao la Kete
/// `"F5>"`; surrounding white space and letter case as `docs/notation.md` allows).
///
/// Thread safety: needs exclusive use of `game`.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_NULL_POINTER` (`game` or `mv` NULL),
/// `MANCALA_STATUS_INVALID_HANDLE`, `MANCALA_STATUS_INVALID_UTF8`,
/// `MANCALA_STATUS_ILLEGAL_MOVE` (malformed, or not legal here, the game over included; the
/// message says why and the game is unchanged) or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `mv` must be NULL or NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn mancala_game_play(
    game: *mut MancalaGame,
    mv: *const c_char,
) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe { play_text_body(game, mv) }
}

/// Plays the legal move at `index` (0-based) in the order of `mancala_game_legal_moves`, and
/// writes its text into `buf` (NUL-terminated) when `buf` is not NULL: the call of a program
/// that picks moves by number (random play, a policy over move indices).
///
/// Thread safety: needs exclusive use of `game`.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_NULL_POINTER` (`game` NULL, or `buf` not NULL
/// with `needed` NULL), `MANCALA_STATUS_INVALID_HANDLE`, `MANCALA_STATUS_INVALID_ARGUMENT`
/// (`index` at or beyond the number of legal moves; the game is unchanged),
/// `MANCALA_STATUS_BUFFER_TOO_SMALL` (the move's text does not fit; nothing is played) or
/// `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `buf` must be NULL or point to `len` writable bytes; `needed` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_game_play_index(
    game: *mut MancalaGame,
    index: usize,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> MancalaStatus {
    guard(|| {
        // SAFETY: registry-checked handle; exclusive use by contract.
        let game = unsafe { get_mut(game) }?;
        let moves = game.legal_moves_text();
        let text = moves.get(index).ok_or_else(|| {
            any_error(AnyError::MoveIndex {
                index,
                count: moves.len(),
            })
        })?;
        if !buf.is_null() {
            // The text first, so that a buffer too small plays nothing.
            // SAFETY: the caller's buffer contract.
            unsafe { io::write_str(text, buf, len, needed, "buf") }?;
        }
        game.play_index(index).map_err(any_error)?;
        Ok(())
    })
}

/// Takes back the last move.
///
/// Thread safety: needs exclusive use of `game`.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_NOTHING_TO_UNDO` (no move since the game's
/// first position; nothing changes), `MANCALA_STATUS_NULL_POINTER`,
/// `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `game` must be NULL or a pointer value (it is only dereferenced if it is a live handle).
#[no_mangle]
pub unsafe extern "C" fn mancala_game_undo(game: *mut MancalaGame) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe { undo_body(game) }
}

/// Tells whose move it is: `MANCALA_SIDE_SOUTH`, `MANCALA_SIDE_NORTH`, or `MANCALA_SIDE_NONE`
/// once the game is over.
///
/// Thread safety: `game` is only read.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_NULL_POINTER` (`game` or `side` NULL),
/// `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `side` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_game_side_to_move(
    game: *const MancalaGame,
    side: *mut MancalaSide,
) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe { side_to_move_body(game, side) }
}

/// Tells how the game stands: `MANCALA_OUTCOME_ONGOING`, or who won, with the final score,
/// South's seeds minus North's (Kalah: store difference after the final sweep; Bao la Kete:
/// +1 for a South win, −1 for a North win). While the game goes on `*score` is 0.
///
/// Thread safety: `game` is only read.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_NULL_POINTER` (`game`, `outcome` or `score`
/// NULL), `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `outcome` and `score` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_game_outcome(
    game: *const MancalaGame,
    outcome: *mut MancalaOutcome,
    score: *mut i32,
) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe { outcome_body(game, outcome, score) }
}

/// Counts the move sequences of exactly `depth` plies from the current position (perft; a
/// finished game counts only at the last ply; `depth` 0 gives 1). History rules are not
/// applied.
///
/// Thread safety: `game` is only read. Long for large depths: the count grows about 4–6
/// times a ply.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_NULL_POINTER` (`game` or `nodes` NULL),
/// `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `nodes` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_game_perft(
    game: *const MancalaGame,
    depth: u32,
    nodes: *mut u64,
) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe { perft_body(game, depth, nodes) }
}

/// The most counts `mancala_game_board` writes for any game (Togyz Kumalak: 2·9 houses and 2
/// kazans): a buffer of this length is always large enough.
pub const MANCALA_GAME_MAX_SLOTS: usize = 20;

/// The seed counts of the board of `game`, in the order of its position notation
/// (`docs/notation.md`), or `None` for a game whose board is not a row of counts a side.
fn board_counts(game: &AnyGame) -> Result<Vec<u32>> {
    let counts: Vec<u8> = match game {
        AnyGame::Kalah(g) => g.position().slots().to_vec(),
        AnyGame::Oware(g) => g.position().counts().to_vec(),
        AnyGame::Togyz(g) => {
            let p = g.position();
            let mut out = Vec::new();
            for side in [Side::South, Side::North] {
                out.extend((1..=p.rules().houses()).map(|h| p.house(side, h)));
                out.push(p.kazan(side));
            }
            out
        }
        AnyGame::Bao(_) => {
            return Err(Error::new(
                MancalaStatus::InvalidArgument,
                "a Bao la Kete board (four rows, kuus and reserves) is not one row of counts a side: print it with mancala_game_print",
            ))
        }
    };
    Ok(counts.into_iter().map(u32::from).collect())
}

/// Copies the seed counts of the current board of `game` into `slots`, in the order of the
/// game's position notation (`docs/notation.md`):
/// - Kalah: South's houses 1..m, South's store, North's houses 1..m, North's store
///   (2m + 2 counts);
/// - Oware: South's houses 1..h, South's captured seeds, North's houses 1..h, North's
///   captured seeds (2h + 2);
/// - Togyz Kumalak: South's houses 1..h, South's kazan, North's houses 1..h, North's kazan
///   (2h + 2; the tuzdyks are in the notation printed by `mancala_game_print`);
/// - Bao la Kete: refused (four rows of eight pits, the kuus and the reserves are not one
///   row of counts a side; `mancala_game_print` gives the whole position).
///
/// `MANCALA_GAME_MAX_SLOTS` (20) entries always suffice. Replaces `mancala_kalah_board`.
///
/// Ownership: `slots` belongs to the caller. Thread safety: `game` is only read.
///
/// Returns `MANCALA_STATUS_OK` (`*count` = counts written), `MANCALA_STATUS_BUFFER_TOO_SMALL`
/// (`*count` = counts needed; `slots` untouched; `slots` may be NULL when `len` is 0),
/// `MANCALA_STATUS_INVALID_ARGUMENT` (a Bao la Kete game; nothing written),
/// `MANCALA_STATUS_NULL_POINTER` (`game` or `count` NULL, or `slots` NULL with `len` > 0),
/// `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `slots` must be NULL or point to `len` writable `uint32_t`; `count` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_game_board(
    game: *const MancalaGame,
    slots: *mut u32,
    len: usize,
    count: *mut usize,
) -> MancalaStatus {
    guard(|| {
        // SAFETY: registry-checked handle.
        let game = unsafe { handle::get(game, "game") }?;
        let counts = board_counts(game.game())?;
        // SAFETY: the caller's buffer contract: `slots` is NULL or holds `len` writable
        // entries, `count` NULL or writable.
        unsafe { io::write_slice(&counts, slots, len, count, "slots", ("slot", "slots")) }
    })
}

/// Whether the last move of `record` left the same side to move (an extra turn: Kalah's last
/// seed in the mover's store), not by a swap of sides, with the game not over.
fn extra_turn_of<G: Game>(record: &GameRecord<G>) -> bool {
    let (positions, moves) = (record.positions(), record.moves());
    let (Some(&mv), [.., before, after]) = (moves.last(), positions) else {
        return false;
    };
    !record.is_over()
        && !before.swaps_players(mv)
        && after.side_to_move().is_some()
        && after.side_to_move() == before.side_to_move()
}

/// Tells whether the last move played in `game` gave its player an extra turn: the same side
/// is to move again, not because of a pie-rule swap, and the game is not over (Kalah: the
/// last seed landed in the mover's store). False before the first move and after an undo
/// back to the start; always false in games without extra turns (Oware, Togyz Kumalak, Bao
/// la Kete). Replaces `mancala_kalah_extra_turn` (which asks about a move before playing
/// it: play it here, then ask, and `mancala_game_undo` to take it back).
///
/// Thread safety: `game` is only read.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_NULL_POINTER` (`game` or `extra_turn` NULL;
/// nothing written), `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `extra_turn` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_game_extra_turn(
    game: *const MancalaGame,
    extra_turn: *mut bool,
) -> MancalaStatus {
    guard(|| {
        let extra_turn = io::out_ptr(extra_turn, "extra_turn")?;
        // SAFETY: registry-checked handle.
        let game = unsafe { handle::get(game, "game") }?;
        let extra = with_game!(game.game(), g => extra_turn_of(g));
        // SAFETY: checked non-NULL; writable by the caller's contract.
        unsafe { extra_turn.write(extra) };
        Ok(())
    })
}

/// Tells whether the side to move may swap sides now (Kalah's pie rule: North's first move,
/// the move text `"swap"`), and whether the players have exchanged sides (an odd number of
/// swaps in the game's history). Games without a pie rule (Oware, Togyz Kumalak, Bao la
/// Kete) write false to both. Replaces `mancala_kalah_swap_state`.
///
/// Thread safety: `game` is only read.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_NULL_POINTER` (any pointer NULL; nothing
/// written), `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `offered` and `swapped` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_game_swap_state(
    game: *const MancalaGame,
    offered: *mut bool,
    swapped: *mut bool,
) -> MancalaStatus {
    guard(|| {
        let offered = io::out_ptr(offered, "offered")?;
        let swapped = io::out_ptr(swapped, "swapped")?;
        // SAFETY: registry-checked handle.
        let game = unsafe { handle::get(game, "game") }?.game();
        let on_offer = match game {
            AnyGame::Kalah(g) => g.position().swap_offered(),
            AnyGame::Bao(_) | AnyGame::Oware(_) | AnyGame::Togyz(_) => false,
        };
        // SAFETY: both checked non-NULL above; writable by the caller's contract.
        unsafe {
            offered.write(on_offer);
            swapped.write(game.swapped());
        }
        Ok(())
    })
}

#[cfg(test)]
mod board_tests {
    use super::MANCALA_GAME_MAX_SLOTS;

    /// The largest board of a row of counts a side: the most houses of each game, two rows
    /// and two stores.
    #[test]
    fn max_slots_is_the_largest_board() {
        let most = [
            mancala_core::kalah::MAX_HOUSES,
            mancala_core::oware::MAX_HOUSES,
            mancala_core::togyz::MAX_HOUSES,
        ]
        .into_iter()
        .max()
        .unwrap();
        assert_eq!(MANCALA_GAME_MAX_SLOTS, 2 * usize::from(most) + 2);
    }
}
