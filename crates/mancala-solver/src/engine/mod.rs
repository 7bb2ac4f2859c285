//! # The playing engine
//!
//! An anytime game-playing engine for the games of `mancala-core`: it returns a good move
//! within a time or node budget on any board, including boards far too big to solve
//! (Kalah(6,6), Kalah(7,7)), with strength levels 1–10 for human opponents, and plays
//! exactly where the solver can.
//!
//! * [`Engine`] — iterative-deepening negamax alpha-beta with principal-variation (null-window)
//!   search, a fixed-size transposition table (`tt.rs`), and move ordering (table move, two
//!   killer moves a ply, the game's ordering hint, then the static value of each child). It
//!   returns the best move of the last completed iteration when the budget ([`Limits`]: time,
//!   nodes, depth, a cancel flag) runs out, with the depth reached, the score, the principal
//!   variation, the node count and whether the result is **exact** (proven: the last
//!   iteration reached only finished games and database positions, or the root was solved).
//! * **Exact play**: with a database of the game (one slot, typed by the game:
//!   [`Engine::set_database`], [`Engine::with_database`]; the Kalah endgame databases, the
//!   Awari databases for Oware) every position it holds is valued exactly during the search,
//!   through the one exact-values trait ([`crate::ExactValues`]); and the root is first
//!   offered to the game's exact root solve ([`crate::ExactGame::solve_root`]): an Oware
//!   root the database holds is played by it, and a Kalah root, when the budget has a time
//!   or node limit and the position is small enough ([`ROOT_SOLVE_MAX_SEEDS`] seeds above
//!   the database's K), is given to the exact [`Solver`](crate::Solver) with a quarter of
//!   the budget; a proven result is played as it is (`exact` = true), otherwise the
//!   heuristic search gets the rest.
//! * **Estimates**: a database of a neighbouring rule set (for Oware Abapa the Oware database
//!   of `grand_slam=none`) can serve as the evaluation of the positions it holds
//!   ([`Engine::set_estimates`]), never taken as exact.
//! * [`Evaluate`] — what a game must provide to be searched: a heuristic value, the value of
//!   a finished game, a hash, whether a move exchanges the players (the Kalah pie-rule
//!   swap), and an optional hook for move ordering; its supertrait
//!   [`ExactGame`](crate::ExactGame) gives the exact side.
//!   Implemented here for [`KalahPosition`](mancala_core::kalah::KalahPosition)
//!   ([`eval`] documents the terms) and for
//!   [`BaoPosition`](mancala_core::bao::BaoPosition) ([`bao`]: material, front row,
//!   threatened captures, kuu standing), [`OwarePosition`](mancala_core::oware::OwarePosition)
//!   ([`oware`]) and [`TogyzPosition`](mancala_core::togyz::TogyzPosition) ([`togyz`]:
//!   kazans, tuzdyks, rows, odd houses).
//! * [`Players`] — one [`LevelPlayer`] a game behind one engine object, for front ends that
//!   serve every game (the C API, the Python package).
//! * [`Level`] and [`LevelPlayer`] — strength levels 1–10 mapped to depth limits of the
//!   heuristic search, and for the weakest levels a controlled chance of playing a weaker
//!   move, reproducible from a seed.
//!
//! Sign convention: every score is relative to the **player** to move. A move after which
//! the same player moves again (a Kalah extra turn: `side_to_move` is the same before and
//! after) keeps the sign; any other move negates it, and so does the pie-rule swap, which
//! keeps the side to move but exchanges the players ([`mancala_core::Game::swaps_players`]).
//!
//! ```
//! use std::time::Duration;
//! use mancala_core::kalah::{KalahPosition, KalahRules};
//! use mancala_solver::engine::{Engine, Limits};
//!
//! let start = KalahPosition::start(KalahRules::standard());
//! let mut engine = Engine::new();
//! let result = engine
//!     .search(&start, &Limits::time(Duration::from_millis(20)))
//!     .unwrap();
//! assert!(start.play(result.best_move).is_ok());
//! assert!(result.depth >= 1);
//! ```
//!
//! ## Place in the solver crate
//!
//! The engine is a module of `mancala-solver` (`docs/architecture.md`) because it shares
//! the exact search's parts rather than copying them:
//!
//! * the lock-free bucket storage of the transposition tables ([`crate::tt`]): the exact
//!   search's [`LockFreeTable`](crate::LockFreeTable) and the engine's `tt::Table` are two
//!   entry formats over one implementation;
//! * the Kalah move ordering (`exact/order.rs`: extra turns rightmost first, then immediate
//!   gain), used by the exact search and, for the extra turns, by the engine's
//!   [`Evaluate::order_hint`] for Kalah (the other moves by the static value, which includes
//!   the immediate gain);
//! * the sources of exact values ([`crate::exact_values`]: the databases and the exact
//!   [`Solver`](crate::Solver)) for exact play.
//!
//! The engine's files: `search/` (the search: [`Engine`], [`Limits`], [`SearchResult`] in
//! `search/mod.rs`, the tree walk of one iteration in `search/tree.rs`),
//! `eval.rs` ([`Evaluate`] and the Kalah evaluation), `bao.rs`, `oware.rs` and `togyz.rs` (the
//! Bao la Kete, Oware and Togyz Kumalak evaluations),
//! `tt.rs` (the engine's table entries), `level.rs` (levels), `error.rs` ([`EngineError`]).
#![forbid(unsafe_code)]

pub mod bao;
mod database;
mod error;
pub mod eval;
mod level;
pub mod oware;
mod players;
mod search;
pub mod togyz;
pub(crate) mod tt;

pub use crate::exact_values::ROOT_SOLVE_MAX_SEEDS;
pub use database::{
    any_database, database_of, move_values_in, record_of, value_in, AnyDatabase, LookupError,
};
pub use error::EngineError;
pub use eval::{Evaluate, DECISIVE, SEED, WIN};
pub use level::{Choice, Level, LevelPlayer};
pub use players::Players;
pub use search::{Engine, History, Limits, SearchResult, DEFAULT_TT_BYTES, MAX_DEPTH};
