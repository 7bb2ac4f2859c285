//! Kalah(m, n) with every variant of `docs/rules/kalah.md`.
//!
//! * [`rules`] — the rules value and the rule-set notation;
//! * [`position`] — the bit-packed position, sowing, captures, the end of the game, perft;
//! * [`record`] — game records and the players' sides across a pie-rule swap;
//! * [`manchester`] — the Manchester engine–agent protocol: messages and an agent's session.

pub mod manchester;
pub mod position;
pub mod record;
pub mod rules;
mod tables;

pub use position::{
    perft, IllegalMove, IllegalReason, KalahMove, KalahPosition, MoveParseError, PositionError,
};
pub use record::{parse_moves, KalahGame, Player, RecordError};
pub use rules::{
    KalahOption, KalahOptionInfo, KalahOptions, KalahRules, RulesError, MAX_HOUSES, MAX_TOTAL_SEEDS,
};
