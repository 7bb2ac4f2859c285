//! The text form of a [`Solution`]: the lines `mancala solve` and `mancala-mpi solve` print,
//! written once so that both commands print the same thing (the JSON form is in `json.rs`).

use core::fmt::Write;

use mancala_core::kalah::{KalahMove, KalahPosition};

use super::results::Solution;

fn moves_text(moves: &[KalahMove]) -> String {
    moves
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

impl Solution {
    /// The solution as `mancala solve` prints it, one `name  value` line each (every line
    /// ends with a newline): `rules`, `position`, `database` (when `database` names one),
    /// `value` (seeds; when the value is not proven, the bounds proven so far and why the
    /// search stopped: `stopped_by`, e.g. "stopped after 1000000 nodes"), `score` (the final
    /// store difference of the player to move, or of South once the game is over; bounds when
    /// not proven), `best moves` and `pv` (when proven and the game goes on), `swap` (a
    /// pie-rule decision: the swap's value against the best house move's), `nodes`, and
    /// `seconds` (wall time, with millions of nodes a second).
    ///
    /// `pos` must be the position this solution is of (it is printed, not checked).
    #[must_use]
    pub fn to_text(&self, pos: &KalahPosition, database: Option<&str>, stopped_by: &str) -> String {
        let mut out = String::new();
        // Writing to a String cannot fail.
        let _ = self.write_text(&mut out, pos, database, stopped_by);
        out
    }

    fn write_text(
        &self,
        out: &mut String,
        pos: &KalahPosition,
        database: Option<&str>,
        stopped_by: &str,
    ) -> core::fmt::Result {
        writeln!(out, "rules       {}", pos.rules())?;
        writeln!(out, "position    {pos}")?;
        if let Some(f) = database {
            writeln!(out, "database    {f}")?;
        }
        if self.exact {
            writeln!(out, "value       {:+}", self.value)?;
        } else {
            writeln!(
                out,
                "value       not proven ({stopped_by}); proven so far: between {:+} and {:+}",
                self.lower, self.upper
            )?;
        }
        if pos.is_over() {
            // Nobody is to move: the score is the final one, and there is no move or line.
            writeln!(
                out,
                "score       {:+} (the game is over: final margin of South)",
                self.score
            )?;
            writeln!(out, "best moves  none (the game is over)")?;
        } else if self.exact {
            writeln!(
                out,
                "score       {:+} (final margin of the player to move)",
                self.score
            )?;
            writeln!(out, "best moves  {}", moves_text(&self.best_moves))?;
            writeln!(out, "pv          {}", moves_text(&self.pv))?;
        } else {
            // Bounds only: no final score, best move or line is proven yet.
            let now = self.score - self.value;
            writeln!(
                out,
                "score       between {:+} and {:+} (final margin of the player to move)",
                now + self.lower,
                now + self.upper
            )?;
        }
        if let Some(c) = self.swap {
            let verdict = if c.swap_is_better {
                "better"
            } else {
                "not better"
            };
            match c.stay_value {
                Some(stay) => writeln!(
                    out,
                    "swap        {verdict} (swap {:+}, best house move {stay:+})",
                    c.swap_value
                )?,
                None => writeln!(
                    out,
                    "swap        {verdict} (swap {:+}, no house move)",
                    c.swap_value
                )?,
            }
        }
        writeln!(out, "nodes       {}", self.nodes)?;
        writeln!(
            out,
            "seconds     {:.3} ({:.2} M nodes/s)",
            self.seconds,
            self.nodes as f64 / self.seconds.max(1e-9) / 1e6
        )
    }
}

#[cfg(test)]
mod tests {
    use mancala_core::kalah::KalahPosition;

    use crate::{SolveOptions, Solver};

    /// Kalah(6,1): a first-player win by 2 (Irving, Donkers & Uiterwijk 2000), printed with
    /// the command's labels; Kalah(6,3) stopped after a thousand nodes prints the bounds and
    /// the reason given, and no move or line.
    #[test]
    fn a_proven_solve_prints_its_value_and_a_stopped_one_its_bounds() {
        let pos = KalahPosition::start("kalah(6,1)".parse().unwrap());
        let s = Solver::new()
            .threads(1)
            .solve(&pos, SolveOptions::new())
            .unwrap();
        let text = s.to_text(&pos, Some("db.egdb"), "unused");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "rules       kalah(6,1)");
        assert_eq!(lines[2], "database    db.egdb");
        assert_eq!(lines[3], "value       +2");
        assert_eq!(
            lines[4],
            "score       +2 (final margin of the player to move)"
        );
        assert!(lines[5].starts_with("best moves  ") && lines[6].starts_with("pv          "));
        assert_eq!(lines.len(), 9, "{text}");

        let pos = KalahPosition::start("kalah(6,3)".parse().unwrap());
        let stopped = Solver::new()
            .threads(1)
            .node_limit(Some(1000))
            .solve(&pos, SolveOptions::new())
            .unwrap();
        let text = stopped.to_text(&pos, None, "stopped after 1000 nodes");
        assert!(
            text.contains(
                "value       not proven (stopped after 1000 nodes); proven so far: between"
            ),
            "{text}"
        );
        assert!(!text.contains("database") && !text.contains("best moves") && !text.contains("pv"));
    }
}
