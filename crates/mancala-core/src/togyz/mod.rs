//! Togyz Kumalak (Toguz Korgool), the nine-house mancala of Kazakhstan and Kyrgyzstan, with
//! every rule option of `docs/rules/togyz-kumalak.md` (rule ids TK-n.m).
//!
//! * [`rules`] — [`TogyzRules`]: board size h = 1..=9, s kumalaks a house (2·h·s ≤ 255), the
//!   options `tuzdyk`, `tuzdyk_last`, `majority`, `empty_row`, `move_limit` (TK-8) in one
//!   table ([`TogyzOption::TABLE`]), the named rule sets `togyz-kumalak` (default),
//!   `togyz-ludii` and `bestemshe` (TK-7), and the rule-set notation;
//! * [`position`] — [`TogyzPosition`], the bit-packed `Copy` position (a `u128` a row),
//!   sowing with the first kumalak back into the origin (TK-2), the even capture (TK-3), the
//!   tuzdyk (TK-4) and the ends of the game (TK-6); [`TogyzLayout`], an unvalidated
//!   position; [`perft()`] (TK-11.1);
//! * [`moves`], [`notation`], [`error`] — [`TogyzMove`], the position notation with both
//!   tuzdyks (TK-9), every refusal;
//! * [`draw`] — [`TogyzDrawing`], the board drawn as text.
//!
//! ```
//! use mancala_core::togyz::{perft, TogyzMove, TogyzPosition, TogyzRules};
//! let start = TogyzPosition::start(TogyzRules::default());
//! assert_eq!(start.to_string(), "9,9,9,9,9,9,9,9,9,0,9,9,9,9,9,9,9,9,9,0 -,- S");
//! assert_eq!(perft(&start, 3), 613); // TK-11.1
//! let next = start.play(TogyzMove(9)).unwrap(); // TK-12, X1: N8 reaches 10, captured
//! assert_eq!(next.kazan(mancala_core::Side::South), 10);
//! ```

pub mod draw;
pub mod error;
pub mod moves;
pub mod notation;
pub mod position;
pub mod rules;

// `impl Game for TogyzPosition`, over the inherent methods of the same names.
mod game;

pub use draw::TogyzDrawing;
pub use error::{IllegalMove, IllegalReason, MoveParseError, PositionEnd, PositionError};
pub use moves::TogyzMove;
pub use notation::NOTATION_MAX_BYTES;
pub use position::{perft, TogyzLayout, TogyzPosition};
pub use rules::{
    OptionText, RulesError, TogyzOption, TogyzOptionInfo, TogyzRuleSet, TogyzRules, MAX_HOUSES,
    MAX_TOTAL_KUMALAKS,
};
