//! Kalah's exact values: the endgame databases ([`Egdb`]) and the exact [`Solver`] as
//! [`ExactValues`], and Kalah as an [`ExactGame`] (its engine root solved by the solver).

use mancala_core::kalah::{KalahMove, KalahPosition, KalahRules};

use super::{
    move_values_by_children, ExactError, ExactGame, ExactValues, Root, RootSolution, RulesMismatch,
};
use crate::egdb::{Database, Egdb, Miss};
use crate::{SolveOptions, Solver};

/// Kalah positions with at most this many seeds in the houses more than the database's K
/// (K = 0 without a database) are first tried with the exact solver at the root of an
/// engine search that has a time or node budget and no depth limit
/// ([`crate::engine::Engine::search_moves`], [`ExactGame::solve_root`]).
///
/// Measured (single-threaded solver, 16 MiB table, no database, shared 2-core machine, six
/// positions of random Kalah(6,4) and Kalah(6,6) games each): around 25 seeds a solve takes
/// 2–250 ms, around 30 seeds 7–520 ms, around 35 seeds 0.02–6 s, around 40 seeds 0.1–32 s.
/// With the usual budgets (0.1–1 s a move, a quarter of it for the solver) positions up to
/// about 30 seeds are solved often enough to be worth the try; above, the quarter of the
/// budget would mostly be lost.
pub const ROOT_SOLVE_MAX_SEEDS: u32 = 30;

/// The endgame database's value of a position (seeds, for the side to move): one lookup.
impl ExactValues<KalahPosition> for Egdb {
    fn check_rules(&self, rules: &KalahRules) -> Result<(), RulesMismatch> {
        self.serves_rules(rules)
    }

    #[inline]
    fn value_of(&self, pos: &KalahPosition) -> Result<i32, ExactError> {
        match self.lookup(pos) {
            Ok(v) => Ok(v),
            Err(Miss::Over) => Ok(0),
            Err(Miss::Seeds(seeds)) => Err(ExactError::NotHeld {
                seeds,
                max_seeds: self.max_seeds(),
            }),
            Err(Miss::Rules(m)) => Err(ExactError::Rules(m)),
            Err(Miss::Opening) => Err(ExactError::Opening),
        }
    }

    fn move_values_of(&self, pos: &KalahPosition) -> Result<Vec<(KalahMove, i32)>, ExactError> {
        // The position itself must be one the database holds (its children then are).
        self.value_of(pos)?;
        move_values_by_children(pos, |child| self.value_of(child))
    }
}

/// The exact solver's values ([`Solver::solve_within`] of the whole window for a value,
/// [`Solver::analyse`] for the moves), with its configuration (threads, table, database,
/// limits). Through a shared reference the calls take turns.
impl ExactValues<KalahPosition> for Solver {
    /// Any Kalah rules without a database; with one, the rules it serves.
    fn check_rules(&self, rules: &KalahRules) -> Result<(), RulesMismatch> {
        match self.attached_database() {
            Some(db) => db.serves_rules(rules),
            None => Ok(()),
        }
    }

    fn value_of(&self, pos: &KalahPosition) -> Result<i32, ExactError> {
        self.value_shared(pos)?.ok_or(ExactError::NotExact)
    }

    fn move_values_of(&self, pos: &KalahPosition) -> Result<Vec<(KalahMove, i32)>, ExactError> {
        let a = self.analyse_shared(pos)?;
        if a.moves.iter().any(|m| !m.exact) {
            return Err(ExactError::NotExact);
        }
        Ok(a.moves.iter().map(|m| (m.mv, m.value)).collect())
    }
}

impl ExactGame for KalahPosition {
    type Database = Egdb;

    #[inline]
    fn house_seeds(&self) -> u32 {
        self.seeds_in_houses()
    }

    #[inline]
    fn stored_margin(&self) -> i32 {
        self.mover_store_difference()
    }

    /// Runs [`Solver::solve`] with the engine's database when at most
    /// [`ROOT_SOLVE_MAX_SEEDS`] seeds (or the database's K plus that many, with a database)
    /// are in the houses; plays the first move of the solver's principal variation (one of
    /// its best moves). The database's own values are not played directly: the solver reads
    /// them, and gives the whole line.
    fn solve_root(&self, root: Root<'_, Self>) -> Result<RootSolution<KalahMove>, u64> {
        let Some(solver) = root.solver else {
            return Err(0);
        };
        let db_seeds = root.database.map_or(0, |d| d.max_seeds());
        if self.seeds_in_houses() > db_seeds + ROOT_SOLVE_MAX_SEEDS {
            return Err(0);
        }
        solver.attach(root.database.cloned());
        let s = solver.solve(self, SolveOptions::new()).map_err(|_| 0u64)?;
        let Some(&best_move) = s.pv.first() else {
            return Err(s.nodes);
        };
        if !s.exact || !s.best_moves.contains(&best_move) {
            return Err(s.nodes);
        }
        Ok(RootSolution {
            best_move,
            score: s.score,
            pv: s.pv,
            nodes: s.nodes,
        })
    }
}
