//! Bao la Kete, the four-row Bao of Lamu, with every rule of `docs/rules/bao-la-kete.md`
//! (rule ids K-x.y are cited throughout) and the binding "Decisions for this project".
//!
//! * [`rules`] — [`BaoRules`]: the **\[RES\]** options with the Lamu defaults, notation
//!   `bao-la-kete[+name=value…]`;
//! * [`moves`] — [`BaoMove`]: start pit, direction and the mid-move choices (kichwa,
//!   stop/safari);
//! * [`position`] — [`BaoPosition`]: the packed 48-byte position, [`BaoPosition::play`],
//!   [`BaoPosition::legal_moves`] and the [`crate::Game`] implementation;
//! * [`notation`] — the position and move notation;
//! * [`draw`] — [`BaoDrawing`], the board drawn as text;
//! * [`error`] — illegal-move reasons (each with its K-id) and parse errors;
//! * private: `sow` (packed lanes, one lap), `capture` (K-6.3, K-6.4), `relay` (the course
//!   of a move, K-6.8, never-ending moves), `movegen` (legal moves), `hizi_zetu` (K-8.4).
//!
//! ```
//! use mancala_core::bao::{BaoMove, BaoPosition, BaoRules};
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
//! # Readings taken where the rules allow two
//!
//! * Decision 8: a move from a pit whose first lap captures is a capturing move (K-6.5) even
//!   when it is illegal; when every capture is illegal such a move is not offered as a
//!   takata (the takata moves are the non-capturing candidates).
//! * The takata pit restrictions (K-7.2, K-8.2, K-8.3a) are about pit contents, not about the
//!   legality of the moves: while the kuu stands every mtaji takata starts from it, even if
//!   both directions are illegal (the player then has no legal move and loses, K-10.2).
//! * Decision 9: a capture that wins at once keeps the direction chosen for a mtaji move (it
//!   was chosen before the first lap); a winning nemo capture is the bare pit, no kichwa.
//! * Lap counting (K-10.4): in the nemo stage the seed from the reserve is lap 1 (K-6.6);
//!   the sowing of the lifted pit (takata) or of the first captured seeds is lap 2.
//! * The hizi zetu exemption "first lap from a kuu" (decision 5) covers the first sowing of
//!   the lifted kuu in a move started from the player's standing kuu (mtaji lap 1; lap 2 of
//!   a nemo takata from the kuu); a nemo capture into the kuu sows from a kichwa and is not
//!   exempt.
//! * The hizi zetu trigger (K-8.4) is evaluated after the move with neither side blocked or
//!   bound to capture; "takes its first capture from h" means the target of the move's first
//!   capture. A new block replaces an older reserved pit (whose duty is then void: the
//!   trigger requires that the other side has no capture). With `must_capture_reserved=off`
//!   the reserved pit clears after the blocked turn.
//! * The lone-kichwa rule (K-6.7b, decision 6) applies to every move started from a kichwa
//!   that is the only occupied front pit. (It is also the only way a lap can end with the
//!   mover's front row empty, so K-6.7b's lap-end check never fires on its own.)
//! * A3: the six-seed rule triggers on a lone kuu holding exactly 6 (K-7.4), ≥ 7 is taxed
//!   (K-7.3). It is not an option: its Zanzibar alternative (and A3's reading (i), which
//!   would also need history) leaves a standing kuu with fewer than 6 seeds, a state the rules
//!   file does not define for Lamu (see [`rules`]).
//! * `first_mtaji_takata_from_kuu=off` (K-8.3a): a mtaji takata lap ending in a standing kuu
//!   ends the move (K-7.5's takata rule, K-6.8 step 3).
//! * `block_duration` > 1 (K-8.4, A8): the block holds on the blocked player's next
//!   `block_duration` turns, the blocker's duty on each of its turns in between and after,
//!   and a capture of the pit ends the reservation (see [`BaoRules::block_duration`]).
//! * The stage is the mover's: nemo while its reserve is not empty (K-5.1), so positions
//!   with unequal reserves are accepted.
//! * A move that needs no choice is refused when it carries one (decision 9): e.g. `F2>+`
//!   when safari is forced.

pub mod draw;
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

pub use draw::BaoDrawing;
pub use error::{IllegalMove, IllegalReason, MoveParseError, PositionError};
pub use moves::{BaoMove, Direction, Kichwa, KuuChoice, Pit};
pub use notation::NOTATION_MAX_BYTES;
pub use position::{BaoLayout, BaoPosition};
pub use rules::{
    BaoOption, BaoRules, BaoSetup, RulesError, SafariRule, DEFAULT_LAP_CAP, MAX_BLOCK_DURATION,
    TOTAL_SEEDS,
};

/// Perft of a Bao la Kete position to `depth` plies, in leaf nodes: the generic
/// [`crate::game::perft`] (every counted ply played; `perft(p, 0) == 1`). Each game's module
/// has its `perft`, which [`AnyGame::perft`](crate::AnyGame::perft) calls.
#[must_use]
pub fn perft(position: &BaoPosition, depth: u32) -> u64 {
    crate::game::perft(position, depth)
}
