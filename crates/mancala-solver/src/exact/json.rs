//! The JSON form of a [`Solution`]: one object, written by `mancala solve --json` and
//! `mancala-mpi solve --json` alike, so that both commands print the same thing.

use mancala_core::kalah::{KalahMove, KalahPosition};
use serde_json::{json, Value};

use super::results::Solution;

fn moves_text(moves: &[KalahMove]) -> Vec<String> {
    moves.iter().map(ToString::to_string).collect()
}

impl Solution {
    /// This solution of `pos` as one JSON object, the format of `mancala solve --json`
    /// (documented in `docs/notation.md`):
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
    pub fn to_json(&self, pos: &KalahPosition, database: Option<&str>) -> Value {
        let swap = self.swap.map(|c| {
            json!({
                "swap_value": c.swap_value,
                "stay_value": c.stay_value,
                "swap_is_better": c.swap_is_better,
            })
        });
        json!({
            "rules": pos.rules().to_string(),
            "position": pos.to_string(),
            "value": self.exact.then_some(self.value),
            "lower": self.lower,
            "upper": self.upper,
            "exact": self.exact,
            "score": self.exact.then_some(self.score),
            "best_moves": moves_text(&self.best_moves),
            "pv": moves_text(&self.pv),
            "swap": swap,
            "nodes": self.nodes,
            "seconds": self.seconds,
            "database": database,
        })
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
        let j = s.to_json(&pos, Some("db.egdb"));
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
        let j = stopped.to_json(&pos, None);
        assert!(j["value"].is_null() && j["score"].is_null() && j["database"].is_null());
        assert_eq!(j["exact"], false);
        assert!(j["lower"].as_i64().unwrap() <= 2 && j["upper"].as_i64().unwrap() >= 2);
    }
}
