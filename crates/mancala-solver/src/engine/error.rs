//! The engine's error type.

use thiserror::Error;

/// Why the engine refused a request. No engine call panics on bad input; each refusal is one
/// of these.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum EngineError {
    /// The transposition table's memory could not be had (the engine's table size, see
    /// [`crate::engine::Engine::with_tt_bytes`]); a smaller table may fit.
    #[error("the transposition table does not fit in memory: {0}")]
    OutOfMemory(#[from] crate::OutOfMemory),
    /// The position is a finished game: there is no move to choose.
    #[error("the game is over: there is no move to search")]
    GameOver,
    /// A strength level outside 1..=10.
    #[error("level {0} is out of range: levels are 1..=10")]
    Level(u32),
    /// A depth limit outside 1..=[`crate::engine::MAX_DEPTH`] plies.
    #[error("depth limit {0} is out of range: 1..={max} plies", max = crate::engine::MAX_DEPTH)]
    Depth(u32),
    /// A restricted search ([`crate::engine::Engine::search_moves`]) was given moves of which none
    /// is legal in the position.
    #[error("none of the moves to choose from is legal in this position")]
    NoRootMove,
    /// No budget at all (no time, node or depth limit and no cancel flag): the search could
    /// run for longer than the age of the universe on a big board.
    #[error("no budget: give a time, node or depth limit, or a cancel flag")]
    NoLimit,
    /// The engine's endgame database ([`crate::engine::Engine::set_database`]) does not hold
    /// positions of the rules searched (another m, other value-relevant options, or another
    /// game).
    #[error("the endgame database ({database}) does not serve the rules of this position")]
    DatabaseMismatch {
        /// What the database serves ([`crate::Egdb::description`]).
        database: String,
    },
}
