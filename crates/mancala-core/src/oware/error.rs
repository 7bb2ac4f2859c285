//! Every reason an Oware move, move text, game record or position is refused.

use core::fmt;

use thiserror::Error;

use super::moves::OwareMove;
use super::position::OwarePosition;
use crate::Side;

/// Why a move text could not be read: not a house number of one to three digits, 0..=255
/// (OW-9.5).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("malformed move `{}`: expected a house number", crate::Shortened(.0))]
pub struct MoveParseError(pub String);

/// Why a game record could not be read: its `index`-th move (1-based) is malformed (OW-9.5).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("move {index}: {source}")]
pub struct RecordError {
    /// 1-based index of the malformed move in the record.
    pub index: usize,
    /// The move's parse error.
    pub source: MoveParseError,
}

/// Why a move was refused by [`OwarePosition::play`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum IllegalReason {
    /// The game is over: no move is legal (OW-6).
    #[error("the game is over")]
    GameOver,
    /// The house number is not in 1..=h (OW-1.3).
    #[error("house {house} does not exist: houses are numbered 1..={houses}")]
    NoSuchHouse {
        /// The number given.
        house: u8,
        /// h, the houses per side.
        houses: u8,
    },
    /// The house holds no seed (OW-2.1).
    #[error("house {0} is empty")]
    EmptyHouse(u8),
    /// The opponent's row is empty and this house does not feed it (OW-5.1).
    #[error("house {0} does not feed the opponent, whose row is empty (OW-5.1)")]
    MustFeed(u8),
    /// The move is a grand slam, forbidden under `grand_slam=forbidden` (OW-4.2).
    #[error("house {0} is a grand slam, which grand_slam=forbidden does not allow (OW-4.2)")]
    GrandSlam(u8),
    /// The move leaves the opponent's row empty while another move does not, under
    /// `grand_slam=unless_only` (OW-5.3).
    #[error("house {0} leaves the opponent without seeds while another move does not (OW-5.3)")]
    Eradicates(u8),
}

/// An illegal move: the reason, the move, and the position it was tried on (unchanged).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("illegal move {mv}: {reason}")]
pub struct IllegalMove {
    /// Why the move is illegal.
    pub reason: IllegalReason,
    /// The refused move.
    pub mv: OwareMove,
    /// The position the move was tried on, as it was.
    pub position: OwarePosition,
}

/// A rule that ends the game on the position alone (OW-10.1), named in
/// [`PositionError::AlreadyOver`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PositionEnd {
    /// A player has captured more than half the seeds, or both exactly half (OW-6.1).
    Majority,
    /// The side to move has no legal move (OW-6.3).
    NoLegalMove,
}

impl fmt::Display for PositionEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PositionEnd::Majority => "the majority is reached (OW-6.1)",
            PositionEnd::NoLegalMove => "the side to move has no legal move (OW-6.3)",
        })
    }
}

/// Why a position could not be built or parsed (OW-9.2). Each variant names the bad part.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    /// The text does not have the `<counts> <side>` shape.
    #[error(
        "malformed position `{}`: expected `<2h+2 comma-separated counts> <S|N|->`",
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
        "count {slot}: `{}` is not a seed count 0..=255",
        crate::Shortened(text)
    )]
    BadCount {
        /// 1-based number of the count in notation order.
        slot: usize,
        /// The text found (its first 20 characters).
        text: String,
    },
    /// More than 255 seeds on the board.
    #[error("the position holds {0} seeds; at most 255 fit the board")]
    TooManySeeds(u32),
    /// An [`super::OwareLayout`] with seeds in a house past the rules' h.
    #[error("{side}'s house {house} holds seeds, but the board has {houses} houses a side")]
    BeyondBoard {
        /// The side.
        side: Side,
        /// The house, 1-based (above `houses`).
        house: u8,
        /// Houses per side of the rules, h.
        houses: u8,
    },
    /// A side to move in a position that a position-only rule has already ended (OW-9.2).
    #[error("{side} cannot be to move: the game is over, {end}")]
    AlreadyOver {
        /// The side said to move.
        side: Side,
        /// The rule that ends the game.
        end: PositionEnd,
    },
    /// A finished position (`-`) with seeds in houses that no end of these rules leaves there
    /// (OW-9.2: only `majority=stop` with the majority reached, or `cycle_score=split` with a
    /// repetition rule, keep seeds on the board).
    #[error("a finished position (`-`) with seeds in houses needs majority=stop with the majority reached, or cycle_score=split with a repetition rule (OW-9.2)")]
    SeedsAfterEnd,
}
