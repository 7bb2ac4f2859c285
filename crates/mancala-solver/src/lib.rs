//! # mancala-solver
//!
//! Exact game-theoretic values of Kalah(m, n) positions under every rule option of
//! [`docs/rules/kalah.md`](mancala_core::docs::kalah_rules).
//!
//! * **Value**: the best store difference the player to move can still gain (future seeds
//!   into their store minus into the opponent's, final sweep included) with perfect play on
//!   both sides. It does not depend on the seeds already stored, so transpositions and
//!   database entries ignore the stores. An extra turn keeps the sign; a passed turn negates.
//! * **Search** ([`Solver`]): fail-soft negamax alpha-beta with MTD(f) null-window probes
//!   (Plaat, Schaeffer, Pijls & de Bruin, "Best-first fixed-depth minimax algorithms", 1996),
//!   enhanced transposition cut-offs, exact bounds from the seeds left, move ordering (table
//!   move, extra turns, captures), a lock-free or an exact transposition table ([`tt`]) and
//!   endgame-database probes, in parallel on a rayon pool (the value never depends on the
//!   number of threads). The approach follows Irving, Donkers & Uiterwijk, "Solving Kalah",
//!   ICGA Journal 23(3), 2000. [`Solver::solve_within`] searches a value only as far as a
//!   window `(lower, upper)` needs (exact inside it, otherwise a bound): what a caller's own
//!   alpha-beta above the solver asks, as `mancala-mpi`'s distributed solve does.
//! * **Endgame databases** ([`egdb`]): every position with at most K seeds in the houses,
//!   ranked with the combinatorial number system, built layer by layer in parallel, saved with
//!   a checked header and CRC-32 checksums; found in a folder by their headers
//!   ([`egdb::find_in`]), or built once and kept in a cache folder of the caller's choice
//!   ([`Cache`], opt-in).
//! * **Pie rule**: at the swap decision the solver gives the value of swapping and of the
//!   best house move ([`SwapChoice`]).
//! * **Playing engine** ([`engine`]): an anytime iterative-deepening alpha-beta with a
//!   heuristic evaluation for every game (Kalah with any m, n and options, Bao la Kete,
//!   Oware, Togyz Kumalak), strength levels 1–10, built on the parts above: the same lock-free table storage ([`tt`]), the Kalah
//!   move ordering of the exact search, and exact play from the endgame databases and an
//!   exact root solve where the budget allows.
//! * **Awari databases** ([`awari`]): the exact value of every Awari board with up to N
//!   seeds under the `awari` rules, by retrograde analysis with cycles (endless play = 0),
//!   one byte a board, with lookups of a board's and each move's value.
//! * **One API for exact values** ([`exact_values`]): the trait [`ExactValues`] of every
//!   source (the Kalah databases, the Awari databases, the solver), taking the game's own
//!   position; and every game's database files through one trait, [`Database`], with one
//!   policy for finding, caching and choosing them ([`egdb::choose()`]).
//!
//! Keys and database indices are the rank of the houses seen from the side to move: the
//! mover's houses `c_0..c_{m−1}` then the opponent's `c_m..c_{2m−1}`, rank
//! `Σ_i C(c_0 + … + c_i + i, i + 1)` (the combinatorial number system).
//!
//! ```
//! use mancala_core::kalah::{KalahPosition, KalahRules};
//! use mancala_solver::{SolveOptions, Solver};
//! // Kalah(6,1): a first-player win by 2 under both capture rules (Irving et al. 2000).
//! let rules: KalahRules = "kalah(6,1)".parse().unwrap();
//! let mut solver = Solver::new().threads(1);
//! let s = solver.solve(&KalahPosition::start(rules), SolveOptions::new()).unwrap();
//! assert_eq!(s.value, 2);
//! ```
//!
//! # Examples
//!
//! The value of every move of a position ([`Solver::analyse`]): the position's value is the
//! best of them, and the best moves of [`Solver::solve`] are the moves of that value.
//!
//! ```
//! use mancala_core::kalah::{KalahPosition, KalahRules};
//! use mancala_solver::{SolveOptions, Solver};
//!
//! let start = KalahPosition::start("kalah(4,3)".parse::<KalahRules>()?);
//! let mut solver = Solver::new().threads(1);
//! let solved = solver.solve(&start, SolveOptions::new())?;
//! let analysis = solver.analyse(&start, SolveOptions::new())?;
//! assert_eq!(analysis.moves.len(), 4);
//! assert!(solved.exact && analysis.moves.iter().all(|m| m.exact));
//! let best = analysis.moves.iter().map(|m| m.value).max();
//! assert_eq!(best, Some(solved.value));
//! for mv in &solved.best_moves {
//!     assert!(analysis.moves.iter().any(|m| m.mv == *mv && m.value == solved.value));
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! An endgame database ([`Egdb`]) of every position with at most K seeds in the houses,
//! C(K + 2m, 2m) of them, changes how fast the solver finds a value, never the value:
//!
//! ```
//! use std::sync::Arc;
//! use mancala_core::kalah::{KalahPosition, KalahRules};
//! use mancala_solver::{BuildOptions, Egdb, SolveOptions, Solver};
//!
//! let rules: KalahRules = "kalah(4,3)".parse()?;
//! let db = Egdb::build(&rules, 8, BuildOptions::new().threads(1))?;
//! assert_eq!(db.len(), 12_870); // C(16, 8): m = 4 houses a row, K = 8
//! let start = KalahPosition::start(rules);
//! let with = Solver::new().threads(1).database(Arc::new(db)).solve(&start, SolveOptions::new())?;
//! let without = Solver::new().threads(1).solve(&start, SolveOptions::new())?;
//! assert_eq!(with.value, without.value);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! An Awari database ([`awari::AwariDb`]) holds the exact value of every Awari board with at
//! most N seeds. A board lists the mover's houses 1..6, then the opponent's: here one seed in
//! the mover's house 6 and one in the opponent's house 1. The mover's only move sows into
//! that house, which then holds 2 seeds: captured, and the opponent, left with no seed, has
//! lost the rest of the game: +2.
//!
//! ```
//! use mancala_solver::awari::{AwariBoard, AwariDb};
//!
//! let db = AwariDb::build(6, 1)?;
//! let board = AwariBoard::new([0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0])?;
//! assert_eq!(db.board_value(&board)?, 2);
//! let moves = db.board_move_values(&board)?;
//! assert_eq!(moves.len(), 1);
//! assert_eq!((moves[0].0.house, moves[0].0.captured, moves[0].1), (6, 2, 2));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The playing engine ([`engine::LevelPlayer`]) plays a whole game of each game through a
//! [`GameRecord`](mancala_core::GameRecord), the searches seeing the game's history (Oware's
//! repetition rule): a player at level 3 (3 plies) against one at level 2.
//!
//! ```
//! use mancala_core::bao::BaoPosition;
//! use mancala_core::kalah::KalahPosition;
//! use mancala_core::oware::OwarePosition;
//! use mancala_core::togyz::TogyzPosition;
//! use mancala_core::{GameRecord, Side};
//! use mancala_solver::engine::{Evaluate, Level, LevelPlayer, Limits};
//!
//! fn play_out<G: Evaluate>(rules: &str) -> Result<GameRecord<G>, Box<dyn std::error::Error>> {
//!     let mut game = GameRecord::<G>::new(rules.parse()?);
//!     let mut south = LevelPlayer::<G>::new(Level::new(3)?, 1);
//!     let mut north = LevelPlayer::<G>::new(Level::new(2)?, 2);
//!     while !game.is_over() {
//!         let player = match game.position().side_to_move() {
//!             Some(Side::South) => &mut south,
//!             _ => &mut north,
//!         };
//!         let choice = player.choose_game(&game, Limits::default())?;
//!         game.play(choice.mv)?;
//!     }
//!     Ok(game)
//! }
//!
//! let kalah = play_out::<KalahPosition>("kalah(4,3)")?;
//! let bao = play_out::<BaoPosition>("bao-la-kete")?;
//! let oware = play_out::<OwarePosition>("awari")?;
//! let togyz = play_out::<TogyzPosition>("togyz-kumalak")?;
//! for outcome in [
//!     kalah.position().outcome(),
//!     bao.position().outcome(),
//!     oware.position().outcome(),
//!     togyz.position().outcome(),
//! ] {
//!     assert!(outcome.is_some());
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]
// A user copying an example gets no warning: the examples compile with warnings denied.
#![doc(test(attr(deny(warnings))))]

// The ground, shared by the wings (imports no wing).
mod board;
mod mem;
mod pool;
pub mod progress;
mod rank;
pub mod tt;
pub mod usage;

// The wings: exact search, endgame databases, playing engine, Awari databases, exact values.
pub mod awari;
pub mod egdb;
pub mod engine;
mod exact;
pub mod exact_values;

pub use egdb::{
    BuildOptions, Cache, CacheEvent, Cached, Database, Egdb, EgdbError, EgdbInfo, FolderScan,
    Found, RulesMismatch, SaveReport, Source,
};
pub use exact::{
    Analysis, MoveValue, Solution, SolutionJson, SolveError, SolveOptions, Solver, SwapChoice,
    SwapJson, TableKind, WindowSolution,
};
pub use exact_values::{ExactError, ExactGame, ExactValues};
pub use mem::{
    available_memory, available_memory_bytes, readable_bytes, tt_mb_refusal, AvailableMemory,
    MemoryBound, OutOfMemory, MAX_THREADS,
};
pub use progress::{BuildProgress, SolvePhase, SolveProgress};
pub use tt::{ExactTable, LockFreeTable, TranspositionTable};

/// The README's example, compiled and run as a doctest (`cargo test --doc`).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
