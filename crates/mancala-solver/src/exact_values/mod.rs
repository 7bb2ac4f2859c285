//! One API for every source of exact values, for every game ([`ExactValues`]): the Kalah
//! endgame databases ([`Egdb`](crate::Egdb)), the Awari databases
//! ([`AwariDb`](crate::awari::AwariDb), for Oware under the rule set `awari` and its
//! variants in the repetition rule) and the exact [`Solver`] (Kalah, by search). Each takes
//! the game's own position type; the grading of `mancala-bench`, the playing engine and the
//! front ends use only this trait. What a game adds for them is in [`ExactGame`]: its
//! database type, the seeds a database's K bounds, the seeds already stored, and how the
//! engine solves a root exactly.
//!
//! # Values
//!
//! A value is a store difference in seeds, from the point of view of the player to move:
//! what that player can still gain with best play on both sides, their future seeds minus
//! the opponent's (Kalah: into the stores, the final sweep included; Oware: the captures and
//! the final allotment, endless play split evenly, OW-10.3). The seeds already stored are
//! not part of it (a database entry is shared by every position with the same houses): the
//! final margin of the player to move is [`ExactGame::stored_margin`] plus the value. A move's
//! value is the same quantity for the player who makes it: the seeds the move stores or
//! captures, then the value of the position it leaves, negated when the turn passes.
//!
//! The algorithms behind the values are those of their sources: retrograde analysis layer by
//! layer for the Kalah databases (`egdb` module docs), retrograde analysis with cycles for
//! the Awari databases (`awari` module docs, after Romein & Bal, "Solving the game of
//! Awari using parallel retrograde analysis", IEEE Computer 36(10), 2003), and MTD(f)
//! alpha-beta for the solver (crate docs, after Irving, Donkers & Uiterwijk, "Solving
//! Kalah", ICGA Journal 23(3), 2000). The trait's shape follows shakmaty-syzygy's
//! `Tablebase<S>`: one interface for every variant, the variant's facts in a trait.

mod bao;
mod kalah;
mod oware;
mod togyz;

use std::sync::Arc;

use mancala_core::{Game, Side};
use thiserror::Error;

pub use crate::egdb::RulesMismatch;
use crate::egdb::{Database, NoDatabase};
use crate::{SolveError, Solver};

pub use kalah::ROOT_SOLVE_MAX_SEEDS;

/// Why a source of exact values gave no value. No call panics on a position it does not
/// hold: each refusal is one of these.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ExactError {
    /// The source does not hold the values of the position's rules (the rules that differ
    /// are named).
    #[error(transparent)]
    Rules(#[from] RulesMismatch),
    /// More seeds in the houses than the database holds.
    #[error("{} in the houses, more than the {max_seeds} the database holds", mancala_core::words::count(*seeds, "seed", "seeds"))]
    NotHeld {
        /// The position's seeds in the houses.
        seeds: u32,
        /// The database's K (Kalah) or N (Awari).
        max_seeds: u32,
    },
    /// An opening position (Kalah's first move, a pie-rule decision or an opening turn):
    /// the databases hold positions past the opening, whose values the houses alone give.
    #[error("an opening position (first move or pie-rule decision): the database holds positions past the opening")]
    Opening,
    /// The exact solver could not start (too many seeds, a database of other rules, no
    /// memory, no threads).
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// The exact solver's limits (nodes, time, cancel flag) stopped it before the value was
    /// proven.
    #[error("no exact value: a node or time limit stopped the solver first")]
    NotExact,
}

/// A source of exact values of positions of the game `G` (module docs: the values, their
/// units and their sources). Every method takes `&self` and may be called from several
/// threads at once (a solver serves one call at a time).
pub trait ExactValues<G: Game> {
    /// Ok when the source holds the values of positions played under `rules`.
    ///
    /// # Errors
    /// [`RulesMismatch`] naming the rules of `rules` that differ from those it holds.
    fn check_rules(&self, rules: &G::Rules) -> Result<(), RulesMismatch>;

    /// The exact value of `pos` for the player to move: the seeds they can still gain minus
    /// the opponent's with best play (module docs), 0 for a finished game.
    ///
    /// # Errors
    /// [`ExactError::Rules`] (other rules), [`ExactError::NotHeld`] (more seeds than a
    /// database holds), [`ExactError::Opening`] (a Kalah opening state, which the databases
    /// do not hold), [`ExactError::Solve`] and [`ExactError::NotExact`] (the solver).
    fn value_of(&self, pos: &G) -> Result<i32, ExactError>;

    /// Every legal move of `pos` with its exact value for the player to move, in the order
    /// of [`Game::legal_moves`] (module docs); no move for a finished game. The position's
    /// value is the largest.
    ///
    /// # Errors
    /// As [`ExactValues::value_of`].
    fn move_values_of(&self, pos: &G) -> Result<Vec<(G::Move, i32)>, ExactError>;

    /// The source's value of `pos` as an **estimate**, for a rule set whose values it does
    /// not hold exactly but which differs from its own only in rules that change values at
    /// the margin (for the Awari databases: an Oware rule set of six houses a side, whatever
    /// its grand-slam, majority and cycle rules, `docs/awari.md`); `None` where it has no
    /// value to offer. Default: the exact value where [`ExactValues::value_of`] gives one.
    fn estimate_of(&self, pos: &G) -> Option<i32> {
        self.value_of(pos).ok()
    }

    /// Ok when the source's values may serve as estimates ([`ExactValues::estimate_of`]) of
    /// positions played under `rules`: the rule sets it holds exactly and their neighbours
    /// (for an Oware database: the Oware rule sets of six houses a side with its grand-slam
    /// rule, whatever their majority, cycle, repetition and move-limit rules). Default: the
    /// rule sets it holds exactly ([`ExactValues::check_rules`]).
    ///
    /// # Errors
    /// [`RulesMismatch`] naming the rules of `rules` that rule the source out.
    fn check_estimate_rules(&self, rules: &G::Rules) -> Result<(), RulesMismatch> {
        self.check_rules(rules)
    }
}

/// A source shared behind an [`Arc`] (a database an engine and a program both hold).
impl<G: Game, T: ExactValues<G> + ?Sized> ExactValues<G> for Arc<T> {
    fn check_rules(&self, rules: &G::Rules) -> Result<(), RulesMismatch> {
        (**self).check_rules(rules)
    }
    fn value_of(&self, pos: &G) -> Result<i32, ExactError> {
        (**self).value_of(pos)
    }
    fn move_values_of(&self, pos: &G) -> Result<Vec<(G::Move, i32)>, ExactError> {
        (**self).move_values_of(pos)
    }
    fn estimate_of(&self, pos: &G) -> Option<i32> {
        (**self).estimate_of(pos)
    }
    fn check_estimate_rules(&self, rules: &G::Rules) -> Result<(), RulesMismatch> {
        (**self).check_estimate_rules(rules)
    }
}

/// A game database that cannot exist holds nothing: every method is unreachable.
impl<G: Game> ExactValues<G> for NoDatabase<G> {
    fn check_rules(&self, _: &G::Rules) -> Result<(), RulesMismatch> {
        self.never()
    }
    fn value_of(&self, _: &G) -> Result<i32, ExactError> {
        self.never()
    }
    fn move_values_of(&self, _: &G) -> Result<Vec<(G::Move, i32)>, ExactError> {
        self.never()
    }
}

/// What the exact values of a game need of it beyond [`Game`], written once a game: its
/// database type, the seeds a database bounds, the seeds already stored, and the exact
/// solve of the playing engine's root. Implemented for every game of the core.
pub trait ExactGame: Game {
    /// The database of the game's exact values ([`Egdb`](crate::Egdb) for Kalah,
    /// [`AwariDb`](crate::awari::AwariDb) for Oware, [`NoDatabase`] for Bao la Kete): the
    /// type of the engine's one database slot and of the generic database policy
    /// ([`crate::egdb::choose()`]).
    type Database: ExactValues<Self> + Database<Rules = Self::Rules>;

    /// The seeds in the houses (not in a store): what a database's K bounds.
    fn house_seeds(&self) -> u32;

    /// The seeds the player to move has stored (Kalah) or captured (Oware) minus the
    /// opponent's so far; South's minus North's once the game is over. The final margin of
    /// the player to move is this plus the position's value.
    fn stored_margin(&self) -> i32;

    /// The exact result at the root of an engine search, when it can be had: by default a
    /// move of the largest value from the engine's database when it holds the position
    /// (ties to the first in [`Game::legal_moves`] order; the line is that move; no node
    /// searched). Kalah solves it with the exact [`Solver`] instead, with the database.
    ///
    /// # Errors
    /// `Err(nodes)`: no proven result (none to be had, or the budget ran out), with the
    /// nodes spent.
    fn solve_root(&self, root: Root<'_, Self>) -> Result<RootSolution<Self::Move>, u64> {
        let db = root.database.ok_or(0u64)?;
        let values = db.move_values_of(self).map_err(|_| 0u64)?;
        let (best_move, value) = values
            .iter()
            .copied()
            .fold(None, |best: Option<(Self::Move, i32)>, (m, v)| match best {
                Some((_, b)) if b >= v => best,
                _ => Some((m, v)),
            })
            .ok_or(0u64)?;
        Ok(RootSolution {
            best_move,
            score: self.stored_margin() + value,
            pv: vec![best_move],
            nodes: 0,
        })
    }
}

/// What the engine offers [`ExactGame::solve_root`].
pub struct Root<'a, G: ExactGame> {
    /// The engine's database, when it has one and the game's history cannot change the
    /// database's value of the root (`docs/awari.md`, "The engine").
    pub database: Option<&'a Arc<G::Database>>,
    /// The engine's exact solver (one thread, a table sized to its share of the budget, that
    /// share of the time and node limits, the search's cancel flag), when the search may
    /// solve its root: a time or node budget, no depth limit, no history rule, no restricted
    /// root move, the root solve turned on.
    pub solver: Option<&'a mut Solver>,
}

/// A proven result of [`ExactGame::solve_root`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootSolution<M> {
    /// A best move.
    pub best_move: M,
    /// The final margin of the player to move with best play, seeds
    /// ([`ExactGame::stored_margin`] plus the value).
    pub score: i32,
    /// A line from the root, starting with `best_move`.
    pub pv: Vec<M>,
    /// Nodes searched.
    pub nodes: u64,
}

/// Each legal move of `pos` with its value from `value`, the values of the positions the
/// moves leave (module docs): the seeds the move stores or captures plus the child's value,
/// negated when the turn passes; a child that ends the game is worth its final margin. For
/// the sources that look up positions, not moves (the Kalah databases).
pub(crate) fn move_values_by_children<G: ExactGame>(
    pos: &G,
    value: impl Fn(&G) -> Result<i32, ExactError>,
) -> Result<Vec<(G::Move, i32)>, ExactError> {
    let Some(side) = pos.side_to_move() else {
        return Ok(Vec::new());
    };
    let before = pos.stored_margin();
    pos.legal_moves()
        .into_iter()
        .map(|mv| {
            if pos.swaps_players(mv) {
                return Err(ExactError::Opening);
            }
            let child = pos.play_unchecked(mv);
            let margin = match child.side_to_move() {
                None => {
                    let score = child.outcome().map_or(0, |o| o.score);
                    if side == Side::South {
                        score
                    } else {
                        -score
                    }
                }
                Some(next) => {
                    let margin = child.stored_margin() + value(&child)?;
                    if next == side {
                        margin
                    } else {
                        -margin
                    }
                }
            };
            Ok((mv, margin - before))
        })
        .collect()
}
