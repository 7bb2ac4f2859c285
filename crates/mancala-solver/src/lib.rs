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
//!   heuristic evaluation for Kalah (any m, n, options) and Bao la Kete, strength levels
//!   1–10, built on the parts above: the same lock-free table storage ([`tt`]), the Kalah
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
#![deny(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]

// The ground, shared by the wings (imports no wing).
mod board;
mod mem;
mod pool;
pub mod progress;
mod rank;
pub mod tt;

// The wings: exact search, endgame databases, playing engine, Awari databases, exact values.
pub mod awari;
pub mod egdb;
pub mod engine;
mod exact;
pub mod exact_values;

pub use egdb::{
    available_memory_bytes, BuildOptions, Cache, CacheEvent, Cached, Database, Egdb, EgdbError,
    EgdbInfo, FolderScan, Found, RulesMismatch, SaveReport, Source,
};
pub use exact::{
    Analysis, MoveValue, Solution, SolutionJson, SolveError, SolveOptions, Solver, SwapChoice,
    SwapJson, TableKind, WindowSolution,
};
pub use exact_values::{ExactError, ExactGame, ExactValues};
pub use mem::{OutOfMemory, MAX_THREADS};
pub use progress::{BuildProgress, SolvePhase, SolveProgress};
pub use tt::{ExactTable, LockFreeTable, TranspositionTable};

/// The README's example, compiled and run as a doctest (`cargo test --doc`).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
