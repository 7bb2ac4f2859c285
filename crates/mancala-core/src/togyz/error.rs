//! Every reason a Togyz Kumalak move, move text, game record or position is refused.

use core::fmt;

use thiserror::Error;

use super::moves::TogyzMove;
use super::position::TogyzPosition;
use crate::Side;

/// Why a move text could not be read: not a house number of one to three digits, 0..=255
/// (TK-9.5).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("malformed move `{}`: expected a house number", crate::Shortened(.0))]
pub struct MoveParseError(pub String);

/// Why a move was refused by [`TogyzPosition::play`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum IllegalReason {
    /// The game is over: no move is legal (TK-6).
    #[error("the game is over")]
    GameOver,
    /// The house number is not in 1..=h (TK-1.3).
    #[error("house {house} does not exist: houses are numbered 1..={houses}")]
    NoSuchHouse {
        /// The number given.
        house: u8,
        /// h, the houses a side.
        houses: u8,
    },
    /// The house holds no kumalak (TK-5.1), as a house that is the opponent's tuzdyk always
    /// does (TK-5.2).
    #[error("house {0} is empty")]
    EmptyHouse(u8),
}

/// An illegal move: the reason, the move, and the position it was tried on (unchanged).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("illegal move {mv}: {reason}")]
pub struct IllegalMove {
    /// Why the move is illegal.
    pub reason: IllegalReason,
    /// The refused move.
    pub mv: TogyzMove,
    /// The position the move was tried on, as it was.
    pub position: TogyzPosition,
}

/// A rule that ends the game on the position alone (TK-9.3), named in
/// [`PositionError::AlreadyOver`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PositionEnd {
    /// The side to move has no kumalak in his row (TK-6.1).
    EmptyRow,
    /// Under `empty_row=after_move`, the side that has just moved has no kumalak (TK-6.1).
    EmptyRowAfterMove,
    /// A kazan holds more than half the kumalaks, or both exactly half (TK-6.2).
    Majority,
}

impl fmt::Display for PositionEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PositionEnd::EmptyRow => "the side to move has no kumalak (TK-6.1)",
            PositionEnd::EmptyRowAfterMove => {
                "the side that has just moved has no kumalak, which ends the game under empty_row=after_move (TK-6.1)"
            }
            PositionEnd::Majority => "a kazan holds the majority (TK-6.2)",
        })
    }
}

/// Why a position could not be built or parsed (TK-9.2, TK-9.3). Each variant names the bad
/// part.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    /// The text does not have the `<counts> <tuzdyks> <side>` shape.
    #[error(
        "malformed position `{}`: expected `<2h+2 comma-separated counts> <tuzdyk,tuzdyk> <S|N|->`",
        crate::Shortened(.0)
    )]
    Syntax(String),
    /// Not 2h + 2 counts for this board.
    #[error("a position of {houses} houses a side has {expected} counts (2h+2), got {got}")]
    CountNumber {
        /// h.
        houses: u8,
        /// 2h + 2.
        expected: usize,
        /// Counts given.
        got: usize,
    },
    /// A count that is not a number 0..=255 of one to three digits.
    #[error(
        "count {slot}: `{}` is not a kumalak count 0..=255",
        crate::Shortened(text)
    )]
    BadCount {
        /// 1-based number of the count in notation order.
        slot: usize,
        /// The text found (its first 20 characters).
        text: String,
    },
    /// More than 255 kumalaks on the board.
    #[error("the position holds {0} kumalaks; at most 255 fit the board")]
    TooManyKumalaks(u32),
    /// A house past the rules' h holds kumalaks (from a [`super::TogyzLayout`]).
    #[error("{side}'s house {house} holds kumalaks, but the board has {houses} houses a side")]
    BeyondBoard {
        /// The side.
        side: Side,
        /// The house, 1-based (above `houses`).
        house: u8,
        /// h.
        houses: u8,
    },
    /// A tuzdyk entry that is not `-` or a house 1..=h.
    #[error(
        "{side}'s tuzdyk `{}` is not `-` or a house 1..={houses}",
        crate::Shortened(text)
    )]
    BadTuzdyk {
        /// The owner.
        side: Side,
        /// The entry found.
        text: String,
        /// h.
        houses: u8,
    },
    /// A tuzdyk under `tuzdyk=off`.
    #[error("{0} owns a tuzdyk, but these rules have tuzdyk=off (TK-9.2)")]
    TuzdykOff(Side),
    /// A tuzdyk on the opponent's house h under `tuzdyk_last=forbidden`.
    #[error("{0}'s tuzdyk is on the opponent's last house, which tuzdyk_last=forbidden does not allow (TK-4.1)")]
    TuzdykOnLast(Side),
    /// Both tuzdyks have the same number.
    #[error("both tuzdyks are numbered {0}; they never share a number (TK-4.2)")]
    TuzdykSameNumber(u8),
    /// A tuzdyk house that holds kumalaks.
    #[error("{owner}'s tuzdyk, {side}'s house {house}, holds kumalaks; a tuzdyk is always empty (TK-4.4)")]
    TuzdykNotEmpty {
        /// The tuzdyk's owner.
        owner: Side,
        /// The row it is in (the owner's opponent).
        side: Side,
        /// Its house number.
        house: u8,
    },
    /// A side to move in a position that a position-only rule has already ended (TK-9.3).
    #[error("{side} cannot be to move: the game is over, {end}")]
    AlreadyOver {
        /// The side said to move.
        side: Side,
        /// The rule that ends the game.
        end: PositionEnd,
    },
    /// A finished position (`-`) with kumalaks in houses but no majority reached under
    /// `majority=stop` (TK-9.3).
    #[error("a finished position (`-`) with kumalaks in houses needs majority=stop with the majority reached (TK-9.3)")]
    KumalaksAfterEnd,
}
