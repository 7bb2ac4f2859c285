//! Kalah(m, n) with every variant of `docs/rules/kalah.md`.
//!
//! * [`rules`] — the rules value and the rule-set notation;
//! * [`position`] — the bit-packed position, its state and legal moves; the move rules
//!   (sowing, extra turn, capture, end of the game) in `sow.rs`, perft in `perft.rs`;
//! * [`moves`], [`notation`], [`error`] — [`KalahMove`], the position notation, every refusal;
//! * [`layout`] — [`KalahLayout`], an unvalidated position, checked into a [`KalahPosition`];
//! * [`draw`] — [`KalahDrawing`], the board drawn as text.

pub mod draw;
pub mod error;
pub mod layout;
pub mod moves;
pub mod notation;
pub mod position;
pub mod rules;

mod perft;
mod sow;
mod tables;

pub use draw::KalahDrawing;
pub use error::{IllegalMove, IllegalReason, MoveParseError, PositionError};
pub use layout::KalahLayout;
pub use moves::KalahMove;
pub use notation::NOTATION_MAX_BYTES;
pub use perft::perft;
pub use position::KalahPosition;
pub use rules::{
    KalahOption, KalahOptionInfo, KalahOptions, KalahRules, RulesError, MAX_HOUSES, MAX_TOTAL_SEEDS,
};
