//! The JSON form of a [`Solution`]: one object, written by `mancala solve --json` and
//! `mancala-mpi solve --json` alike, so that both commands print the same thing.

use core::fmt;

use mancala_core::kalah::{KalahMove, KalahPosition};
use serde::Serialize;

use super::results::Solution;

fn moves_text(moves: &[KalahMove]) -> Vec<String> {
    moves.iter().map(ToString::to_string).collect()
}

/// The JSON object of one solution, the format of `mancala solve --json` (documented in
/// `docs/notation.md`), as [`Solution::to_json`] makes it: a plain value that serializes
/// with serde (`serde_json::to_string`, or any other serde format), and whose `Display` is
/// the compact JSON text. The fields serialize in this order (alphabetical, as the command
/// has always printed them).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SolutionJson {
    /// The moves that keep the value (`"1"`…`"m"`, `"swap"`).
    pub best_moves: Vec<String>,
    /// The path of the endgame database used, or `None`.
    pub database: Option<String>,
    /// Whether the value is proven.
    pub exact: bool,
    /// Proven lower bound on the value, in seeds.
    pub lower: i32,
    /// Positions searched.
    pub nodes: u64,
    /// The position in the notation of `docs/notation.md`.
    pub position: String,
    /// The principal variation (move texts).
    pub pv: Vec<String>,
    /// The rule set in the notation of `docs/notation.md`.
    pub rules: String,
    /// The final store difference for the player to move, in seeds, when `exact`; else
    /// `None`.
    pub score: Option<i32>,
    /// Wall time of the solve, in seconds.
    pub seconds: f64,
    /// The pie-rule swap's values where the swap is offered, else `None`.
    pub swap: Option<SwapJson>,
    /// Proven upper bound on the value, in seeds.
    pub upper: i32,
    /// The value for the player to move, in seeds, when `exact`; else `None`.
    pub value: Option<i32>,
}

/// The `swap` member of [`SolutionJson`] (fields in alphabetical order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SwapJson {
    /// The value of declining the swap, in seeds; `None` when swapping is the only move.
    pub stay_value: Option<i32>,
    /// Whether swapping is better than the best house move.
    pub swap_is_better: bool,
    /// The value of swapping, in seeds.
    pub swap_value: i32,
}

impl fmt::Display for SolutionJson {
    /// The compact JSON text (one line).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = serde_json::to_string(self).map_err(|_| fmt::Error)?;
        f.write_str(&text)
    }
}

impl Solution {
    /// This solution of `pos` as the JSON object of `mancala solve --json` (documented in
    /// `docs/notation.md`): a [`SolutionJson`], which serializes with serde and prints as
    /// JSON text (`Display`), so that no JSON library is part of this crate's API.
    ///
    /// `rules` and `position` (the notation of `docs/notation.md`); `value` and `score`
    /// (seeds) only when the value is proven (`exact`), else `null`: a stopped solve has
    /// bounds, not a value; `lower` and `upper` (seeds, proven bounds); `exact`; `best_moves`
    /// and `pv` (move texts: `"1"`…`"m"`, `"swap"`); `swap`: `null`, or an object with
    /// `swap_value`, `stay_value` (`null` when swapping is the only move) and
    /// `swap_is_better`; `nodes`; `seconds` (wall time); `database`: the path of the
    /// endgame database used, or `null`.
    ///
    /// `pos` must be the position this solution is of (it is printed, not checked).
    #[must_use]
    pub fn to_json(&self, pos: &KalahPosition, database: Option<&str>) -> SolutionJson {
        SolutionJson {
            best_moves: moves_text(&self.best_moves),
            database: database.map(str::to_string),
            exact: self.exact,
            lower: self.lower,
            nodes: self.nodes,
            position: pos.to_string(),
            pv: moves_text(&self.pv),
            rules: pos.rules().to_string(),
            score: self.exact.then_some(self.score),
            seconds: self.seconds,
            swap: self.swap.map(|c| SwapJson {
                stay_value: c.stay_value,
                swap_is_better: c.swap_is_better,
                swap_value: c.swap_value,
            }),
            upper: self.upper,
            value: self.exact.then_some(self.value),
        }
    }
}

#[cfg(test)]
mod tests {
    use mancala_core::kalah::{KalahPosition, KalahRules};

    use crate::{SolveOptions, Solver};

    #[test]
    fn a_proven_solve_has_its_value_and_a_stopped_one_null() {
        // Kalah(6,1): a first-player win by 2 (Irving, Donkers & Uiterwijk 2000).
        let rules: KalahRules = "kalah(6,1)".parse().unwrap();
        let pos = KalahPosition::start(rules);
        let s = Solver::new()
            .threads(1)
            .solve(&pos, SolveOptions::new())
            .unwrap();
        let j = serde_json::to_value(s.to_json(&pos, Some("db.egdb"))).unwrap();
        assert_eq!(j["value"], 2);
        assert_eq!(j["score"], 2);
        assert_eq!(j["exact"], true);
        assert_eq!(j["rules"], "kalah(6,1)");
        assert_eq!(j["database"], "db.egdb");
        assert!(j["swap"].is_null());
        assert!(!j["best_moves"].as_array().unwrap().is_empty());

        // Kalah(6,3): +2 (Irving et al. 2000), millions of nodes: stopped after a thousand.
        let pos = KalahPosition::start("kalah(6,3)".parse().unwrap());
        let stopped = Solver::new()
            .threads(1)
            .node_limit(Some(1000))
            .solve(&pos, SolveOptions::new())
            .unwrap();
        let j = serde_json::to_value(stopped.to_json(&pos, None)).unwrap();
        assert!(j["value"].is_null() && j["score"].is_null() && j["database"].is_null());
        assert_eq!(j["exact"], false);
        assert!(j["lower"].as_i64().unwrap() <= 2 && j["upper"].as_i64().unwrap() >= 2);
    }
}
