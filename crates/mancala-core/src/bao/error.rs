//! The errors of the Bao la Kete module: illegal moves (each naming the broken rule and its
//! K-id), and notation that cannot be read.

use thiserror::Error;

use super::moves::BaoMove;
use super::position::BaoPosition;
use crate::Side;

/// Why a move is illegal. Each variant's message ends with the id of the rule it breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Error)]
pub enum IllegalReason {
    /// The game is over: the side to move has an empty front row or no legal move.
    #[error("the game is over (K-10.1, K-10.2)")]
    GameOver,
    /// The start pit is reserved by hizi zetu for this turn.
    #[error("the pit is blocked by hizi zetu this turn (K-8.4)")]
    BlockedPit,
    /// A nemo move must put its seed into a front pit.
    #[error("in the nemo stage a move starts in the front row (K-7.2)")]
    NemoBackRow,
    /// A nemo move may not put its seed into an empty pit.
    #[error("the seed may not go into an empty pit (K-7.1)")]
    NemoEmptyPit,
    /// A nemo takata may not start in a standing kuu unless it is the only occupied front pit.
    #[error("the seed may not go into the kuu while another front pit is occupied (K-7.2)")]
    NemoKuuNotAlone,
    /// With the kuu destroyed, a nemo takata may not start in a singleton while a front pit
    /// holds two or more.
    #[error("the seed may not go into a singleton while a front pit holds two or more (K-7.2)")]
    NemoSingleton,
    /// A mtaji move must start from a pit of two or more seeds.
    #[error("a mtaji move starts from a pit holding at least two seeds (K-8.2)")]
    TooFewSeeds,
    /// The first mtaji takata must start from the standing kuu.
    #[error("while the kuu stands a mtaji takata must start from it (K-8.3a)")]
    KuuFirst,
    /// A mtaji takata may start in the back row only if no front pit holds two or more.
    #[error(
        "a mtaji takata starts in the back row only when no front pit holds two or more (K-8.2)"
    )]
    FrontRowFirst,
    /// A (legal) capturing move exists, so a takata is not allowed.
    #[error("a capture is available and must be played (K-6.9)")]
    CaptureRequired,
    /// The pit reserved by hizi zetu can be captured, so the capture must take it.
    #[error("the pit reserved by hizi zetu must be captured (K-8.4)")]
    ReservedPitMustBeCaptured,
    /// A lone kichwa must be sown towards the centre.
    #[error("a lone kichwa must be sown towards the centre (K-6.7b)")]
    LoneKichwa,
    /// The move leaves the mover's front row empty at the end of a lap.
    #[error("the move empties the mover's front row (K-6.7b)")]
    EmptiesFrontRow,
    /// The move never ends (a repeated in-move state, or more laps than the lap cap).
    #[error("the move never ends (K-10.4)")]
    NeverEnding,
    /// The move needs a direction.
    #[error("the move needs a direction (K-7.2, K-8.1, K-8.2)")]
    DirectionRequired,
    /// A nemo capture has no direction of its own: the kichwa decides it.
    #[error("a nemo capture takes no direction; the kichwa decides it (K-6.4)")]
    DirectionNotOffered,
    /// The first capture of a nemo move from a central pit needs a kichwa.
    #[error("the first central capture of a nemo move needs a kichwa L or R (K-6.4)")]
    KichwaRequired,
    /// No kichwa choice arises in this move.
    #[error("this move offers no kichwa choice (K-6.4, decision 9)")]
    KichwaNotOffered,
    /// A capturing lap ends in the kuu and the move needs stop or safari.
    #[error("a capturing lap ends in the kuu: choose stop or safari (K-7.5, K-8.3b)")]
    KuuChoiceRequired,
    /// No stop/safari choice arises in this move.
    #[error("this move offers no stop/safari choice (K-7.5, K-8.3b, decision 9)")]
    KuuChoiceNotOffered,
}

impl IllegalReason {
    /// The id of the rule the move breaks (the first one when several are cited).
    #[must_use]
    pub const fn rule_id(self) -> &'static str {
        match self {
            IllegalReason::GameOver => "K-10.1",
            IllegalReason::BlockedPit | IllegalReason::ReservedPitMustBeCaptured => "K-8.4",
            IllegalReason::NemoBackRow
            | IllegalReason::NemoKuuNotAlone
            | IllegalReason::NemoSingleton
            | IllegalReason::DirectionRequired => "K-7.2",
            IllegalReason::NemoEmptyPit => "K-7.1",
            IllegalReason::TooFewSeeds | IllegalReason::FrontRowFirst => "K-8.2",
            IllegalReason::KuuFirst => "K-8.3a",
            IllegalReason::CaptureRequired => "K-6.9",
            IllegalReason::LoneKichwa | IllegalReason::EmptiesFrontRow => "K-6.7b",
            IllegalReason::NeverEnding => "K-10.4",
            IllegalReason::DirectionNotOffered
            | IllegalReason::KichwaRequired
            | IllegalReason::KichwaNotOffered => "K-6.4",
            IllegalReason::KuuChoiceRequired | IllegalReason::KuuChoiceNotOffered => "K-7.5",
        }
    }
}

/// An illegal move: the reason, the move, and the position it was tried on (unchanged).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("illegal move {mv}: {reason}")]
pub struct IllegalMove {
    /// Why the move is illegal.
    pub reason: IllegalReason,
    /// The refused move.
    pub mv: BaoMove,
    /// The position the move was tried on, as it was.
    pub position: BaoPosition,
}

/// Why a move text could not be read (grammar in [`super::notation`]).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("malformed move `{}`: expected <F|B><1-8>[<|>][L|R][+|.]", crate::Shortened(.0))]
pub struct MoveParseError(pub String);

/// Why a position could not be built or parsed. Each variant names the bad part.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    /// The text does not have the shape of the position notation.
    #[error("malformed position `{}`: expected `<F>/<B>/<f>/<b> <res S>,<res N> <SN|S|N|-> <S|N> <-|Fk|fk>[:n]`", crate::Shortened(.0))]
    Syntax(String),
    /// A pit or reserve count that is not a number 0..=64.
    #[error("`{}` is not a seed count 0..=64", crate::Shortened(.0))]
    BadCount(String),
    /// The seeds on the board and in the reserves do not total 64 (K-4.1).
    #[error("the position holds {0} seeds; a Bao position holds 64 (K-4.1)")]
    SeedTotal(u32),
    /// A standing kuu with fewer than 6 seeds (K-9).
    #[error("{0}'s kuu stands with fewer than 6 seeds (K-9)")]
    KuuBelowSix(Side),
    /// The front row of the side not to move is empty: the game would have ended with the
    /// other side to move (K-10.1).
    #[error("{0} is not to move but its front row is empty (K-10.1)")]
    WaitingSideFrontEmpty(Side),
    /// A finished game (the side to move has an empty front row) with a reserved pit
    /// (decision 9).
    #[error("a game won by emptying a front row has no reserved pit (decision 9)")]
    ReservedAfterWin,
    /// A reserved pit that hizi zetu cannot reserve: the owner's standing kuu, a blocker with
    /// seeds in reserve, for a block of the side to move a pit its exceptions exempt, for the
    /// blocker's duty rules without it (K-8.4, decision 10).
    #[error("hizi zetu cannot reserve pit {pit} of {owner} here (K-8.4)")]
    ImpossibleReservedPit {
        /// The owner of the pit.
        owner: Side,
        /// The front pit number 1..=8.
        pit: u8,
    },
    /// More blocked turns to come than the rules' `block_duration` allows, or some without a
    /// reserved pit (K-8.4, A8).
    #[error("{0} blocked turns to come is impossible under these rules (K-8.4, A8)")]
    BlockTurnsLeft(u8),
}
