//! The results of the exact solver's calls ([`Solution`], [`Analysis`], [`WindowSolution`],
//! [`SwapChoice`], [`MoveValue`]) and why a call could not start ([`SolveError`]).

use mancala_core::kalah::KalahMove;
use thiserror::Error;

/// Why a solve could not start. A solve that runs never fails: limits give bounds instead.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SolveError {
    /// Too many seeds in the houses for exact keys: C(seeds + 2m, 2m) must stay below 2^62.
    #[error("{seeds} seeds in the houses of a {houses}-house board are too many to solve exactly")]
    TooLarge {
        /// Seeds in the houses.
        seeds: u32,
        /// m.
        houses: u8,
    },
    /// The configured endgame database was built for other rules.
    #[error("the endgame database is for {database}, the position is played under {position}")]
    DatabaseMismatch {
        /// The database's rule key.
        database: String,
        /// The position's rules.
        position: String,
    },
    /// The thread pool could not be built, or more than [`MAX_THREADS`](crate::MAX_THREADS) threads were asked
    /// for ([`Solver::threads`](crate::Solver::threads)).
    #[error("cannot start the search threads: {0}")]
    Threads(String),
    /// The transposition table's memory ([`Solver::tt_bytes`](crate::Solver::tt_bytes), or more when the key space
    /// needs it) could not be had. Nothing was searched; a smaller table may work.
    #[error("the transposition table does not fit in memory: {0}")]
    OutOfMemory(#[from] crate::OutOfMemory),
    /// [`Solver::solve_within`](crate::Solver::solve_within) was given a window `(lower, upper)` with `lower ≥ upper`,
    /// which holds no value. Nothing was searched.
    #[error("the window ({lower}, {upper}) is empty: its lower end must be below its upper end")]
    EmptyWindow {
        /// The window's lower end (seeds).
        lower: i32,
        /// The window's upper end (seeds).
        upper: i32,
    },
}

/// The result of [`Solver::solve`](crate::Solver::solve).
///
/// Values are from the point of view of the *player* to move, in seeds: `value` is the store
/// difference that player can still gain with perfect play on both sides (future seeds into
/// their store minus into the opponent's, the final sweep included), `score` is their final
/// margin (their store minus the opponent's at the end). After a pie-rule swap the player's
/// store is the one of the side they take over.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// The exact value when `exact`, otherwise `lower` (seeds).
    pub value: i32,
    /// Proven lower bound of the value (seeds).
    pub lower: i32,
    /// Proven upper bound of the value (seeds).
    pub upper: i32,
    /// Whether the value is proven exactly (false after a node/time limit or a cancel).
    pub exact: bool,
    /// Final margin of the player to move with perfect play: their store now minus the
    /// opponent's, plus `value` (seeds). For a finished game: South's store minus North's.
    pub score: i32,
    /// Every move that reaches the value (empty unless `exact`).
    pub best_moves: Vec<KalahMove>,
    /// A principal variation: moves from the position to the end of the game, each keeping
    /// the value (empty unless `exact`).
    pub pv: Vec<KalahMove>,
    /// Under `pie_rule`, when the player to move may swap: the value of swapping and of the
    /// best house move, if there is one (`None` unless `exact`).
    pub swap: Option<SwapChoice>,
    /// Positions searched, all threads and phases (nodes).
    pub nodes: u64,
    /// Wall time, seconds.
    pub seconds: f64,
}

/// The result of [`Solver::solve_within`](crate::Solver::solve_within): proven bounds of a position's value, for a window.
///
/// Values are as in [`Solution::value`]: the store difference the player to move can still
/// gain with perfect play (seeds). `lower ≤ value ≤ upper` always holds (both are proven).
/// When `settled`, the bounds answer the window `(a, b)` that was asked: the value is exact
/// (`lower == upper`), or proven at most `a` (`upper ≤ a`), or proven at least `b`
/// (`lower ≥ b`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WindowSolution {
    /// Proven lower bound of the value (seeds).
    pub lower: i32,
    /// Proven upper bound of the value (seeds).
    pub upper: i32,
    /// Whether the window is answered (always, unless a node or time limit, the cancel flag
    /// or the progress callback stopped the search first; the bounds are then what was
    /// proven before it stopped, still true).
    pub settled: bool,
    /// Positions searched (nodes), all threads.
    pub nodes: u64,
    /// Wall time, seconds.
    pub seconds: f64,
}

impl WindowSolution {
    /// The exact value (seeds), when the bounds meet.
    #[must_use]
    pub fn exact(&self) -> Option<i32> {
        (self.lower == self.upper).then_some(self.lower)
    }
}

/// The pie-rule decision at a position where the swap is offered (values for the deciding
/// player, seeds, as in [`Solution`]).
///
/// `stay_value` is an `Option` (a breaking change: it was an `i32` that held `i32::MIN` when
/// the swap was the only legal move).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SwapChoice {
    /// The value of swapping (seeds).
    pub swap_value: i32,
    /// The value of the best house move (not swapping), seeds; `None` when the deciding
    /// player has no house move (under `end_when_no_move` the swap is offered even when
    /// North's row is empty, and the swap is then the only legal move).
    pub stay_value: Option<i32>,
    /// Whether swapping is strictly better than every house move (`true` when there is no
    /// house move: the swap is then the only move).
    pub swap_is_better: bool,
}

/// One move of [`Analysis`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveValue {
    /// The move.
    pub mv: KalahMove,
    /// Its value for the player to move (seeds); the lower bound when not `exact`.
    pub value: i32,
    /// Proven lower bound (seeds).
    pub lower: i32,
    /// Proven upper bound (seeds).
    pub upper: i32,
    /// Whether the value is exact.
    pub exact: bool,
}

/// The result of [`Solver::analyse`](crate::Solver::analyse): the value of every legal move.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// Every legal move in [`KalahPosition::legal_moves`](mancala_core::kalah::KalahPosition::legal_moves) order, with its value.
    pub moves: Vec<MoveValue>,
    /// Positions searched (nodes).
    pub nodes: u64,
    /// Wall time, seconds.
    pub seconds: f64,
}
