//! # mancala-core
//!
//! Exact rules of mancala games on compact, bit-packed, `Copy` positions:
//!
//! * [`kalah`] — Kalah(m, n), m in 1..=7, with every variant of `docs/rules/kalah.md`
//!   (`empty_capture`, `end_when_no_move`, `discard_remaining`, `pie_rule`,
//!   `no_first_move_bonus`) and the rule-set and position notations;
//! * [`bao`] — Bao la Kete, the four-row Bao of Lamu, with every rule of
//!   `docs/rules/bao-la-kete.md` (Lamu defaults, the open readings of those rules as options);
//! * [`game`] — the [`Game`] trait both games implement, and generic [`game::perft`].
//!
//! ```
//! use mancala_core::kalah::{KalahMove, KalahPosition, KalahRules};
//! let start = KalahPosition::start("standard".parse::<KalahRules>().unwrap());
//! let next = start.play(KalahMove::House(3)).unwrap();
//! assert_eq!(next.to_string(), "4,4,0,5,5,5,1,4,4,4,4,4,4,0 S"); // extra turn
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod bao;
pub mod game;
pub mod kalah;
mod side;

pub use game::{Game, MoveList, Outcome};
pub use side::Side;
