//! Every reason a Kalah move, move text or position is refused.

use thiserror::Error;

use super::moves::KalahMove;
use super::position::KalahPosition;
use super::rules::KalahOption;
use crate::Side;

/// Why a move text could not be read (see [`KalahMove`]'s notation).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("malformed move `{}`: expected a house number or `swap`", crate::Shortened(.0))]
pub struct MoveParseError(pub String);

/// Why a move was refused by [`KalahPosition::play`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum IllegalReason {
    /// The game is over: no move is legal.
    #[error("the game is over")]
    GameOver,
    /// The house number is not in 1..=m.
    #[error("house {house} does not exist: houses are numbered 1..={houses}")]
    NoSuchHouse {
        /// The number given.
        house: u8,
        /// m, the houses per row.
        houses: u8,
    },
    /// The house holds no seed.
    #[error("house {0} is empty")]
    EmptyHouse(u8),
    /// A swap outside the one moment the pie rule offers it.
    #[error("a swap is allowed only as North's first action, under the pie rule")]
    SwapNotOffered,
}

/// An illegal move: the reason, the move, and the position it was tried on (unchanged).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("illegal move {mv}: {reason}")]
pub struct IllegalMove {
    /// Why the move is illegal.
    pub reason: IllegalReason,
    /// The refused move.
    pub mv: KalahMove,
    /// The position the move was tried on, as it was.
    pub position: KalahPosition,
}

/// Why a position could not be built or parsed. Each variant names the bad part.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    /// The text does not have the `<counts> <side> [swap]` shape.
    #[error("malformed position `{}`: expected `<2m+2 comma-separated counts> <S|N|-> [swap]`", crate::Shortened(.0))]
    Syntax(String),
    /// Not 2m + 2 slot counts for this board.
    #[error("a kalah({houses},·) position has {expected} slots (2m+2), got {got}")]
    SlotCount {
        /// m.
        houses: u8,
        /// 2m + 2.
        expected: usize,
        /// Counts given.
        got: usize,
    },
    /// A slot count that is not a number 0..=255.
    #[error(
        "slot {slot}: `{}` is not a seed count 0..=255",
        crate::Shortened(text)
    )]
    BadCount {
        /// 1-based slot number in notation order.
        slot: usize,
        /// The text found.
        text: String,
    },
    /// More than 255 seeds on the board.
    #[error("the position holds {0} seeds; at most 255 fit the board")]
    TooManySeeds(u32),
    /// A finished game (`-`) with seeds still in houses (the final sweep empties them).
    #[error("a finished position (`-`) must have every house empty after the final sweep")]
    SeedsAfterEnd,
    /// A game that should already have ended under these rules.
    #[error("this position cannot be reached with {side} to move: {why}")]
    ShouldHaveEnded {
        /// The side said to move.
        side: Side,
        /// Which end rule ends it.
        why: &'static str,
    },
    /// A [`super::KalahLayout`] with seeds in a house past the rules' m.
    #[error("{side}'s house {house} holds seeds, but the board has {houses} houses a row")]
    BeyondBoard {
        /// The side.
        side: Side,
        /// The house, 1-based (above `houses`).
        house: u8,
        /// Houses per row of the rules, m.
        houses: u8,
    },
    /// A `swap` token where the pie rule cannot offer one.
    #[error("`swap` is only offered under {} with North to move", KalahOption::PieRule.name())]
    SwapNotPossible,
}
