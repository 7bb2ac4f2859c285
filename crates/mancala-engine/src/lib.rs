//! # mancala-engine
//!
//! An anytime game-playing engine for the games of `mancala-core`: it returns a good move
//! within a time or node budget on any board, including boards far too big to solve
//! (Kalah(6,6), Kalah(7,7)), with strength levels 1–10 for human opponents.
//!
//! * [`Engine`] — iterative-deepening negamax alpha-beta with principal-variation (null-window)
//!   search, a fixed-size transposition table ([`tt`]), and move ordering (table move, two
//!   killer moves a ply, then the static value of each child). It returns the best move of
//!   the last completed iteration when the budget ([`Limits`]: time, nodes, depth, a cancel
//!   flag) runs out, with the depth reached, the score, the principal variation, the node
//!   count and whether the result is **exact** (the last iteration reached only finished
//!   games, so the score is the game-theoretic value).
//! * [`Evaluate`] — what a game must provide to be searched: a heuristic value, the value of
//!   a finished game, a hash, and whether a move exchanges the players (the Kalah pie-rule
//!   swap). Implemented here for [`KalahPosition`](mancala_core::kalah::KalahPosition)
//!   ([`eval`] documents the terms) and for
//!   [`BaoPosition`](mancala_core::bao::BaoPosition) ([`bao`]: material, front row,
//!   threatened captures, kuu standing).
//! * [`Level`] and [`LevelPlayer`] — strength levels 1–10 mapped to depth limits, and for the
//!   weakest levels a controlled chance of playing a weaker move, reproducible from a seed.
//!
//! Sign convention: every score is relative to the **player** to move. A move after which
//! the same player moves again (a Kalah extra turn: `side_to_move` is the same before and
//! after) keeps the sign; any other move negates it, and so does the pie-rule swap, which
//! keeps the side to move but exchanges the players ([`Evaluate::swaps_players`]).
//!
//! ```
//! use std::time::Duration;
//! use mancala_core::kalah::{KalahPosition, KalahRules};
//! use mancala_engine::{Engine, Limits};
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
//! ## Why a separate crate (for now)
//!
//! The design (`DESIGN.md`, issue 7) puts the playing engine in `mancala-solver`, sharing the
//! solver's transposition table and move ordering. The solver is being written on another
//! branch and is not on `main` yet, so this engine has its own small table and ordering and
//! depends on `mancala-core` only. Once the solver lands, the lead may move the shared table
//! and ordering into it (and switch to exact play from the endgame databases); the public
//! API here ([`Engine`], [`Limits`], [`SearchResult`], [`Level`]) is meant to survive that
//! move unchanged.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod bao;
mod error;
pub mod eval;
mod level;
mod search;
pub mod tt;

pub use error::EngineError;
pub use eval::{Evaluate, DECISIVE, SEED, WIN};
pub use level::{Choice, Level, LevelPlayer};
pub use search::{Engine, Limits, SearchResult, DEFAULT_TT_BYTES, MAX_DEPTH};
