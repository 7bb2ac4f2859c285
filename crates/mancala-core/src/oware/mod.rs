//! Oware (Abapa) and Awari with every rule option of `docs/rules/oware.md` (rule ids OW-n.m).
//!
//! * [`rules`] — [`OwareRules`]: board size h = 1..=8, s seeds a house (2·h·s ≤ 255), the
//!   options `grand_slam`, `majority`, `repetition`, `cycle_score`, `move_limit` (OW-8) in one
//!   table ([`OwareOption::TABLE`]), the named rule sets `oware` (default), `awari` and
//!   `oware-openspiel` (OW-7), and the rule-set notation;
//! * [`position`] — [`OwarePosition`], the bit-packed `Copy` position, its legal moves and
//!   `play`; the sowing, capture chain, grand slam and end rules after a move in `sow.rs`,
//!   the legal-move rules (must feed, forbidden and eradicating moves) in `legal.rs`;
//! * [`moves`], [`notation`], [`error`] — [`OwareMove`] and game records, the position
//!   notation (OW-9), every refusal;
//! * [`layout`] — [`OwareLayout`], an unvalidated position, checked into an [`OwarePosition`];
//! * [`history`] — the history rules (repetition, move limit, OW-10.2): what a game record
//!   ([`crate::GameRecord`]) needs from a history-free position;
//! * [`draw`] — [`OwareDrawing`], the board drawn as text;
//! * [`perft()`] — move-sequence counts (OW-11.4).
//!
//! ```
//! use mancala_core::oware::{OwareMove, OwarePosition, OwareRules};
//! let start = OwarePosition::start(OwareRules::default());
//! assert_eq!(start.to_string(), "4,4,4,4,4,4,0,4,4,4,4,4,4,0 S");
//! let next = start.play(OwareMove(3)).unwrap(); // OW-12, X1
//! assert_eq!(next.to_string(), "4,4,0,5,5,5,0,5,4,4,4,4,4,0 N");
//! ```

pub mod draw;
pub mod error;
pub mod history;
pub mod layout;
pub mod moves;
pub mod notation;
pub mod position;
pub mod rules;

// `impl Game for OwarePosition`, over the inherent methods of the same names.
mod game;
mod legal;
mod perft;
mod sow;
mod tables;

/// The former second path of [`crate::HistoryEnd`], which every game shares.
#[deprecated(
    since = "0.3.0",
    note = "use `mancala_core::HistoryEnd`; this path goes in 0.4.0"
)]
pub type HistoryEnd = crate::game::HistoryEnd;

/// The former second path of [`crate::HistoryRules`], which every game shares.
#[deprecated(
    since = "0.3.0",
    note = "use `mancala_core::HistoryRules`; this path goes in 0.4.0"
)]
pub type HistoryRules = crate::game::HistoryRules;
pub use draw::OwareDrawing;
pub use error::{
    IllegalMove, IllegalReason, MoveParseError, PositionEnd, PositionError, RecordError,
};
pub use layout::OwareLayout;
pub use moves::{parse_moves, OwareMove};
pub use notation::NOTATION_MAX_BYTES;
pub use perft::perft;
pub use position::OwarePosition;
pub use rules::{
    AcceptedValues, CycleScore, GrandSlam, Majority, OptionValue, OwareOption, OwareOptionInfo,
    OwareRuleSet, OwareRules, RulesError, MAX_HOUSES, MAX_TOTAL_SEEDS,
};
