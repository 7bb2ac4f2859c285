//! Bao la Kete, the four-row Bao of Lamu, with every rule of `../shared/rules/bao-la-kete.md`
//! (rule ids K-x.y are cited throughout) and the binding "Decisions for this project".
//!
//! * [`rules`] — [`BaoRules`]: the **\[RES\]** options with the Lamu defaults, notation
//!   `bao-la-kete[+name=value…]`;
//! * [`moves`] — [`BaoMove`]: start pit, direction and the mid-move choices (kichwa,
//!   stop/safari);
//! * [`position`] — [`BaoPosition`]: the packed 48-byte position, [`BaoPosition::play`],
//!   [`BaoPosition::legal_moves`] and the [`crate::Game`] implementation;
//! * [`notation`] — the position and move notation;
//! * [`error`] — illegal-move reasons (each with its K-id) and parse errors;
//! * private: `sow` (packed lanes, one lap), `capture` (K-6.3, K-6.4), `relay` (the course
//!   of a move, K-6.8, never-ending moves), `movegen` (legal moves), `hizi_zetu` (K-8.4).
//!
//! ```
//! use mancala_core::bao::{BaoMove, BaoPosition, BaoRules};
//! use mancala_core::Game;
//! let start = BaoPosition::start(BaoRules::LAMU);
//! assert_eq!(
//!     start.to_string(),
//!     "0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 22,22 SN S -"
//! );
//! let moves: Vec<String> = start.legal_moves().iter().map(|m| m.to_string()).collect();
//! assert_eq!(moves, ["F6>", "F6<", "F7>", "F7<"]);
//! let next = start.play("F7>".parse::<BaoMove>().unwrap()).unwrap();
//! assert_eq!(next.to_move(), mancala_core::Side::North);
//! ```
//!
//! # Readings taken where the rules file allows two
//!
//! * A move from a pit whose first lap captures is a capturing move even when it is illegal;
//!   when every capture is illegal (decision 8) such a move is not offered as a takata.
//! * The takata pit restrictions (K-7.2, K-8.2, K-8.3a) are about pit contents, not about the
//!   legality of the moves: while the kuu stands every mtaji takata starts from it, even if
//!   both directions are illegal (then the player has no legal move and loses).
//! * A capture that wins at once keeps the direction chosen for a mtaji move (it was a real
//!   choice before the first lap); only a nemo capture is then written as the bare pit
//!   (decision 9).
//! * Lap counting: in the nemo stage the seed from the reserve is lap 1 (K-6.6).
//! * The hizi zetu exemption "first lap from a kuu" covers the first sowing of the lifted
//!   kuu in a move that starts from the player's standing kuu.
//! * The lone-kichwa rule (K-6.7b, decision 6) applies to every move that starts from a
//!   kichwa that is the only occupied front pit.

pub mod error;
pub mod moves;
pub mod notation;
pub mod position;
pub mod rules;

mod capture;
mod hizi_zetu;
mod movegen;
mod relay;
mod sow;

pub use error::{IllegalMove, IllegalReason, MoveParseError, PositionError};
pub use moves::{BaoMove, Direction, Kichwa, KuuChoice, Pit};
pub use position::{BaoLayout, BaoPosition};
pub use rules::{BaoRules, BaoSetup, RulesError, SafariRule, DEFAULT_LAP_CAP, TOTAL_SEEDS};
