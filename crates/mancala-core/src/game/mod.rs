//! The one game abstraction of the library: the [`Game`] trait every game's position type
//! implements, so that generic code (perft, random play, the engine, the command line, the C
//! and Python front ends) is written once for every game.
//!
//! * [`Game`] — rules type, start position, parse and print, drawing, legal moves, checked and
//!   unchecked play, outcome, side to move, and the hooks of the rules that depend on a game's
//!   history ([`HistoryRules`]);
//! * [`GameKind`] — which game a rule-set text names, decided once for every front end;
//! * [`GameRecord`] — a game in progress: its positions and moves, undo, the players' sides
//!   across a pie-rule swap, and the history rules (repetition, move limit) applied after
//!   every move, so that positions stay `Copy` and history-free;
//! * [`perft`] — generic perft over the trait.
//!
//! The design follows shakmaty's `Position` trait and `VariantPosition` enum, and the play
//! contracts of cozy-chess: a checked `play` whose error carries the unchanged position, and a
//! documented `play_unchecked` fast path that is never undefined behaviour.

use core::fmt;
use core::hash::Hash;
use core::str::FromStr;

use smallvec::SmallVec;

use crate::Side;

mod kind;
mod record;

pub use kind::GameKind;
pub(crate) use kind::{for_each_game, DidYouMean, KalahSyntax};
pub use record::{parse_moves, GameRecord, Player, RecordError};

/// A list of moves, inline up to 16 entries (Kalah never has more than 8 legal moves, Oware
/// never more than 8, so generating their moves never allocates).
pub type MoveList<M> = SmallVec<[M; 16]>;

/// How a finished game ended, from the board's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The side that won, or `None` for a draw.
    pub winner: Option<Side>,
    /// Final score, South minus North, in seeds (Kalah: store difference after the final
    /// sweep; Oware: South's final count minus North's, where an even split of the seeds left
    /// cancels out). Games scored only by win/loss (Bao la Kete) report +1 for a South win and
    /// −1 for a North win.
    pub score: i32,
}

impl Outcome {
    /// The outcome of a final score, South minus North: South wins above 0, North below, a
    /// draw at 0.
    #[must_use]
    pub const fn from_score(score: i32) -> Outcome {
        let winner = if score > 0 {
            Some(Side::South)
        } else if score < 0 {
            Some(Side::North)
        } else {
            None
        };
        Outcome { winner, score }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(side) => write!(f, "{side} wins ({:+})", self.score),
            None => write!(f, "draw ({:+})", self.score),
        }
    }
}

/// The rules of a game that depend on its history rather than on the position alone: they
/// are applied by [`GameRecord`] after every move, never by [`Game::play`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HistoryRules {
    /// The game ends when the position after a move has occurred this many times in the game
    /// (the start or set-up position counts once); `None`: no repetition rule.
    pub repetition: Option<u8>,
    /// The game ends once this many moves (plies) have been played since the start or set-up
    /// position; `None`: no move limit.
    pub move_limit: Option<u16>,
}

impl HistoryRules {
    /// No history rule (Kalah, Bao la Kete).
    pub const NONE: HistoryRules = HistoryRules {
        repetition: None,
        move_limit: None,
    };

    /// Whether there is no history rule at all.
    #[must_use]
    pub const fn is_none(self) -> bool {
        self.repetition.is_none() && self.move_limit.is_none()
    }
}

/// Which history rule ended a game (see [`HistoryRules`] and [`Game::end_by`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HistoryEnd {
    /// The position occurred [`HistoryRules::repetition`] times.
    Repetition,
    /// [`HistoryRules::move_limit`] moves were played.
    MoveLimit,
}

/// A position of a game of this library: what every front end needs, named once for every
/// game.
///
/// Positions are small `Copy` values that know their rules; [`Game::play`] returns a new
/// position. The rules that depend on a game's history (Oware's repetition rule and move
/// limit) are not part of a position: [`GameRecord`] applies them, through
/// [`Game::history_rules`] and [`Game::end_by`].
pub trait Game: Copy + Eq + Hash + fmt::Debug + fmt::Display + Send + Sync + 'static {
    /// The rules value of the game: `Display`/`FromStr` in the rule-set notation
    /// (`docs/notation.md`), `Default` = the game's default rule set.
    type Rules: Copy
        + Eq
        + Hash
        + fmt::Debug
        + fmt::Display
        + Default
        + FromStr<Err = Self::RulesError>
        + Send
        + Sync
        + 'static;
    /// Why a rule-set text was refused.
    type RulesError: std::error::Error + Clone + Send + Sync + 'static;
    /// A fully decided move: `Display`/`FromStr` in the game's move notation.
    type Move: Copy
        + Eq
        + Hash
        + fmt::Debug
        + fmt::Display
        + FromStr<Err = Self::MoveParseError>
        + Send
        + Sync
        + 'static;
    /// Why a move text was refused (malformed; legality is [`Game::Error`]).
    type MoveParseError: std::error::Error + Clone + Send + Sync + 'static;
    /// The error [`Game::play`] returns for an illegal move: the move, the reason and the
    /// unchanged position.
    type Error: std::error::Error + Clone + Send + Sync + 'static;
    /// Why a position text was refused by [`Game::parse`].
    type PositionError: std::error::Error + Clone + Send + Sync + 'static;
    /// The board drawn as text ([`Game::drawing`]).
    type Drawing: fmt::Display;

    /// Which game this is.
    const KIND: GameKind;

    /// The most bytes the notation of a position of this game takes (its `Display`, UTF-8,
    /// no NUL), over every rule set the game accepts: a buffer of this many bytes always
    /// holds it (the C API's `MANCALA_NOTATION_MAX` is the largest over the games, plus the
    /// NUL).
    const NOTATION_MAX_BYTES: usize;

    /// The start position of `rules`.
    fn start(rules: Self::Rules) -> Self;

    /// The rules this position is played under.
    fn rules(&self) -> Self::Rules;

    /// Parses a position in the game's notation (`docs/notation.md`) under `rules`; the
    /// `Display` of a position prints it. Never panics.
    ///
    /// # Errors
    /// The game's position error: malformed text, or a position the rules refuse.
    fn parse(rules: Self::Rules, text: &str) -> Result<Self, Self::PositionError>;

    /// The board drawn as text, as `mancala show` prints it. Never panics.
    fn drawing(&self) -> Self::Drawing;

    /// The side to move, or `None` once the game is over.
    fn side_to_move(&self) -> Option<Side>;

    /// Every legal move once, in a deterministic order; empty once the game is over.
    fn legal_moves(&self) -> MoveList<Self::Move>;

    /// Plays `mv`, returning the new position; an illegal move is an error and `self` is
    /// unchanged (it is `Copy`, so the caller still holds it).
    ///
    /// # Errors
    /// The game's move error when `mv` is not one of [`Game::legal_moves`].
    fn play(&self, mv: Self::Move) -> Result<Self, Self::Error>;

    /// Plays `mv` without checking it: the fast path for searches that generate their own
    /// legal moves.
    ///
    /// Contract: `mv` must be one of [`Game::legal_moves`]. Otherwise the result is an
    /// unspecified position (possibly one that breaks the rules) or a panic; never undefined
    /// behaviour. Debug builds may assert legality.
    #[must_use]
    fn play_unchecked(&self, mv: Self::Move) -> Self;

    /// The result once the game is over, `None` while it goes on.
    fn outcome(&self) -> Option<Outcome>;

    /// Whether the game is over.
    fn is_over(&self) -> bool {
        self.side_to_move().is_none()
    }

    /// The seeds the mover captured with `mv`, the legal move that led from `self` to
    /// `next` (the position [`Game::play`] returned), as a front end reports a move
    /// (`mancala play` prints `captures 7 seeds`); `Some(0)` when the move captured nothing.
    /// `None` when the capture cannot be told apart from the rest of the move: a move that
    /// sows nothing (the Kalah pie-rule swap), or a move that ends a game whose end puts the
    /// seeds left into the same counts as a capture (Kalah's sweep, Oware's allotment).
    ///
    /// Not part of the rules (a search never asks): every game says what its moves capture,
    /// so there is no default and a new game does not compile without it.
    fn captured_seeds(&self, mv: Self::Move, next: &Self) -> Option<u32>;

    /// Whether `mv` makes the two players exchange sides while the side to move stays (the
    /// Kalah pie-rule swap). `false` by default.
    fn swaps_players(&self, mv: Self::Move) -> bool {
        let _ = mv;
        false
    }

    /// Whether the move that led from `self` to `next` is **irreversible**: no position at
    /// or before `self` can occur again once `next` is reached, so the repetition rule of
    /// [`HistoryRules`] only needs the positions since the last irreversible move
    /// ([`GameRecord::since_irreversible`], the engine's search). `next` is the unfinished
    /// position [`Game::play`] returned. Default `false` (every move may be undone by later
    /// ones), always safe; Oware: a capture, since the seeds in the houses never increase and
    /// the captured counts are part of a position (OW-3, OW-6.2).
    fn is_irreversible(&self, next: &Self) -> bool {
        let _ = next;
        false
    }

    /// The rules of this game that depend on its history ([`HistoryRules::NONE`] by default).
    fn history_rules(&self) -> HistoryRules {
        HistoryRules::NONE
    }

    /// The finished position when the history rule `end` ends the game at this position
    /// (Oware: the seeds left allotted as the rule set says). Called by [`GameRecord`] only
    /// when [`Game::history_rules`] names that rule. Default: `*self`.
    #[must_use]
    fn end_by(&self, end: HistoryEnd) -> Self {
        let _ = end;
        *self
    }
}

/// Counts the move sequences of exactly `depth` plies from `pos` that do not reach a
/// finished game before their last ply (a finished game counts as a leaf only at the last
/// ply). Every counted ply is actually played. `perft(pos, 0) == 1`. History rules are not
/// applied (perft counts positions' moves).
///
/// Returns a count of leaf nodes (move sequences). This generic version goes through
/// [`Game::legal_moves`] and [`Game::play_unchecked`]; Kalah has a faster dedicated
/// [`crate::kalah::perft`].
pub fn perft<G: Game>(pos: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&mv| perft(&pos.play_unchecked(mv), depth - 1))
        .sum()
}
