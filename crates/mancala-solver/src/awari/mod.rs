//! Exact Oware databases: the value of every board with up to N seeds under each Oware rule
//! set whose values depend on the board and the side to move alone — no majority end,
//! endless play split evenly, no move limit (OW-10.3) — one database for each grand-slam
//! rule (OW-4.2): `awari` (`unless_only`: a grand slam legal only when every move
//! eradicates, OW-7.2), `oware+majority=off+cycle_score=split` (`none`: Abapa's grand slam,
//! which captures nothing, and its must-feed rule), and `all`, `forbidden`, `leave_last`;
//! by retrograde analysis with cycles. The type keeps the name [`AwariDb`] it has had since
//! it held `awari` alone; [`AwariDb::grand_slam`] says which database it is.
//!
//! * [`board`](AwariBoard): the mover-first twelve-house board and the move rules on two
//!   words of 8-bit lanes (sowing skipping the origin, the capture chain, the legality of
//!   OW-5 under each grand-slam rule, chosen at compile time).
//! * [`rank`]: the per-level index of the boards whose player who has just moved has an
//!   empty house, `C(n+11,11) − C(n+5,11)` of them (OW-11.1): a bijection built from the
//!   combinatorial number system on each row, with an incremental walk for sweeps.
//! * `retro`: the solve of one level, thresholds t = n … 1 whose win and loss sets are
//!   grown as attractors by predecessor counters; the proof that the result is the game
//!   value with endless play = 0, independent of the order of work, is in its module docs
//!   (and `docs/awari.md`).
//! * [`AwariDb`]: the levels 0..=N in memory, one byte a board; [`AwariDb::board_value`]
//!   and [`AwariDb::board_move_values`] (the oracle: each legal move's value is the seeds it
//!   captures minus the value of the board it leaves). An Oware position is valued through
//!   [`ExactValues`](crate::exact_values::ExactValues) (`value_of`, `move_values_of`), which
//!   takes it mover first and checks its rule set ([`check_rules_for`]: the database's
//!   grand-slam rule with `majority=off`, `cycle_score=split`, any repetition rule and seeds
//!   a house).
//! * Files: [`AwariDb::save`], [`AwariDb::open`], [`AwariDb::info`], in the checked format
//!   of the Kalah endgame databases ([`crate::egdb`]) with the database's rule set in the
//!   header (`awari`, [`FILE_RULES`], for the Awari files; `awari+grand_slam=none`, … for
//!   the others); errors are [`crate::EgdbError`]s. As one of the games'
//!   databases ([`crate::egdb::Database`], `database.rs`) they are found in folders, kept
//!   in a [`crate::Cache`] (N = [`DEFAULT_MAX_SEEDS`] by default) and chosen for a command
//!   by the generic policy of [`crate::egdb`].
//!
//! ```
//! use mancala_solver::awari::{AwariBoard, AwariDb};
//! // OW-11.3: under `awari` this 2-seed board is worth +2 to the mover (South's house 6
//! // holds 1, North's house 1 holds 1: the grand slam is South's only move).
//! let db = AwariDb::build(4, 1).unwrap();
//! let board: AwariBoard = "0 0 0 0 0 1 1 0 0 0 0 0".parse().unwrap();
//! assert_eq!(db.board_value(&board).unwrap(), 2);
//! // The same board as an Oware position, 23 seeds captured by each side: no board to
//! // build by hand.
//! use mancala_core::oware::{OwareMove, OwarePosition, OwareRules};
//! use mancala_solver::ExactValues;
//! let p = OwarePosition::parse(OwareRules::AWARI, "0,0,0,0,0,1,23,1,0,0,0,0,0,23 S").unwrap();
//! assert_eq!(db.value_of(&p).unwrap(), 2);
//! assert_eq!(db.move_values_of(&p).unwrap(), vec![(OwareMove(6), 2)]);
//! // Under Abapa's grand slam (`grand_slam=none`: it captures nothing) the same board is
//! // worth −2: North cannot feed South and keeps the two seeds of his row (OW-6.3).
//! use mancala_core::oware::GrandSlam;
//! let abapa = AwariDb::build_until_under(GrandSlam::None, 4, 1, |_| true).unwrap();
//! let rules: OwareRules = "oware+majority=off+cycle_score=split".parse().unwrap();
//! let p = OwarePosition::parse(rules, "0,0,0,0,0,1,23,1,0,0,0,0,0,23 S").unwrap();
//! assert_eq!(abapa.value_of(&p).unwrap(), -2);
//! // Each database serves its own rule set only.
//! assert!(db.value_of(&p).is_err());
//! ```

mod board;
mod cache;
mod compact;
mod database;
mod db;
mod file;
pub mod rank;
mod retro;
pub mod shard;

use thiserror::Error;

pub use board::{AwariBoard, AwariMove, MAX_SEEDS};
pub use cache::DEFAULT_MAX_SEEDS;
pub use database::{check_rules, check_rules_for, unserved, values_carry_over};
pub use db::{AwariDb, LevelReport};
pub use file::{average_bits, bits_per_entry, entries_to, serves, AwariInfo, FILE_RULES};
pub use retro::{LevelStats, LevelTimes};
pub use shard::{split, Exchange};

use crate::mem::OutOfMemory;

/// What can go wrong with an Oware database board or database.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum AwariError {
    /// A board or a build asked for more seeds than the game has.
    #[error("{seeds} seeds, at most {max}")]
    TooManySeeds {
        /// The seeds asked for.
        seeds: u32,
        /// The most allowed ([`MAX_SEEDS`]).
        max: u32,
    },
    /// A board with more seeds than the database holds.
    #[error("a board of {}, the database holds at most {max}", mancala_core::words::count(*seeds, "seed", "seeds"))]
    NotBuilt {
        /// The board's seeds.
        seeds: u32,
        /// The database's largest level.
        max: u32,
    },
    /// The house is not a legal move of the board (no such house, empty, or eradicating
    /// while another move is not, OW-5.3).
    #[error("house {house} is not a legal move")]
    IllegalMove {
        /// The house asked for, 1..=6.
        house: u8,
    },
    /// A board text that is not twelve counts of 0..=48.
    #[error("bad board: {0}")]
    Parse(String),
    /// The build was stopped by its caller ([`AwariDb::build_until`]) between two levels.
    #[error("the build was cancelled")]
    Cancelled,
    /// The build's threads could not be started.
    #[error("cannot start the build threads: {0}")]
    Threads(String),
    /// A level's memory could not be had.
    #[error(transparent)]
    OutOfMemory(#[from] OutOfMemory),
}
