//! The exact solver wing: the game-theoretic value of a Kalah position, proven by search.
//!
//! * `solver.rs`: [`Solver`], its configuration (threads, table, limits, database) and its
//!   calls `solve`, `solve_within` (a value searched only as far as a window needs),
//!   `analyse` (with [`SolveOptions`]) and `estimate`;
//! * `jobs.rs`: what each call computes over the driver (the solve's value, best moves,
//!   pie-rule choice and principal variation; the analysis; the window; the estimate);
//! * `results.rs`: the result types and [`SolveError`];
//! * `parallel.rs`: the MTD(f) driver (Plaat, Schaeffer, Pijls & de Bruin 1996), a sequence
//!   of null-window probes run by every thread of a rayon pool over one shared table;
//! * `search.rs`: the fail-soft negamax alpha-beta of one probe, with enhanced transposition
//!   cut-offs, exact bounds from the seeds left and database probes;
//! * `order.rs`: the Kalah move ordering, also used by the engine's Kalah hint;
//! * `json.rs`: [`Solution::to_json`], the JSON object of `mancala solve --json`;
//! * `progress.rs`: the board the driver publishes its proven interval on.
//!
//! It stands on the shared ground (`board.rs`, [`crate::tt`], `mem.rs`, [`crate::progress`])
//! and reads endgame databases only through [`crate::egdb`]'s lookup API ([`Egdb`](crate::Egdb)
//! and its `Probe`: the value of an entry from its rank and seed count, in either entry
//! encoding); neither the ground nor the database wing imports it.

mod jobs;
mod json;
mod order;
mod parallel;
mod progress;
mod results;
mod search;
mod solver;
mod text;

pub use json::{SolutionJson, SwapJson};
pub(crate) use order::{kalah_order_score, TieRule};
pub use results::{Analysis, MoveValue, Solution, SolveError, SwapChoice, WindowSolution};
pub use solver::{SolveOptions, Solver, TableKind};
