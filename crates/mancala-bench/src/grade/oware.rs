//! Grading Oware players under any six-house Oware rule set against an Oware database.
//!
//! The Oware databases hold the rule sets whose values depend on the board and the side to
//! move alone: `majority=off`, cycles split evenly, no move limit, one database a grand-slam
//! rule (`docs/oware-databases.md`). A position of another six-house rule set — Abapa
//! (`oware`), `oware-openspiel`, a repetition rule, a move limit — is valued by its
//! *neighbour*: the same rule set without the majority end, with cycles split and no move
//! limit. The neighbour has the same legal moves in every position that is not over (the
//! majority end, the cycle score and the move limit decide when and how a game ends, not
//! which moves are legal), so every move has a value; the values are the neighbour's, and a
//! move can be best under one rule set and not the other. [`caveat`] says so in a report.

use mancala_core::oware::{CycleScore, Majority, OwarePosition, OwareRules};
use mancala_solver::exact_values::ExactValues;

use super::{GradeError, Valued};

/// The rule set whose database values the positions of `rules`: `rules` itself when an
/// Oware database holds it, else its neighbour without the majority end, with cycles split
/// and no move limit (`oware+majority=off+cycle_score=split` for `oware`) when a database
/// holds that; `None` when none does (a number of houses other than six).
pub fn valued_rules(rules: OwareRules) -> Option<OwareRules> {
    if mancala_solver::awari::check_rules(&rules).is_ok() {
        return Some(rules);
    }
    let neighbour = rules
        .with_majority(Majority::Off)
        .with_cycle_score(CycleScore::Split)
        .with_move_limit(None)
        .ok()?;
    mancala_solver::awari::check_rules(&neighbour)
        .is_ok()
        .then_some(neighbour)
}

/// The caveat of a report on positions of `rules` valued under `valued` ([`valued_rules`]):
/// `None` when they are the same rule set, else one line naming both.
pub fn caveat(rules: OwareRules, valued: OwareRules) -> Option<String> {
    (rules != valued).then(|| {
        format!(
            "the values are those of {valued} (no majority end, cycles split evenly), not of {rules}: a move can be best under one and not the other"
        )
    })
}

/// Where the exact values of a report on Oware positions come from, as its `database` line
/// says it (`mancala grade`, `mancala solve --rules awari`, Python's `GradeReport.database`):
/// `FILE (levels 0..=N)` for a database read from `file`, `built in memory for this run
/// (levels 0..=N, not kept)` for one built for the run (`file` `None`); N is `max_seeds`, the
/// database's largest level.
///
/// ```
/// use mancala_bench::grade::oware::database_line;
/// assert_eq!(database_line(None, 12), "built in memory for this run (levels 0..=12, not kept)");
/// ```
pub fn database_line(file: Option<&std::path::Path>, max_seeds: u32) -> String {
    match file {
        Some(p) => format!("{} (levels 0..={max_seeds})", p.display()),
        None => format!("built in memory for this run (levels 0..={max_seeds}, not kept)"),
    }
}

/// Values the positions `positions` with `values`, a source of exact values of the rule set
/// `valued` (a database of [`valued_rules`] of their rule set). A position of `valued`
/// itself is valued as [`valued`](super::valued) does. A position of another rule set whose
/// [`valued_rules`] is `valued` is valued as the position of `valued` with the same houses,
/// stores and side to move, and graded as itself; if it is over under its own rules (a
/// player has passed half the seeds) it has no move to grade and is left out. `progress`
/// gets the index, among the positions kept, of each one valued.
///
/// # Errors
/// The first error of [`valued`](super::valued): [`GradeError::Finished`] for a finished
/// position of `valued`, [`GradeError::Exact`] for a rule set `values` does not hold (one
/// whose [`valued_rules`] is not `valued`) or a position with more seeds than it holds.
pub fn value_positions<V: ExactValues<OwarePosition> + ?Sized>(
    positions: &[OwarePosition],
    valued: OwareRules,
    values: &V,
    mut progress: impl FnMut(usize),
) -> Result<Vec<Valued<OwarePosition>>, GradeError> {
    let mut out = Vec::with_capacity(positions.len());
    for p in positions {
        let neighbour = if p.rules() == valued || valued_rules(p.rules()) != Some(valued) {
            None
        } else if p.is_over() {
            continue;
        } else {
            OwarePosition::parse(valued, &p.to_string()).ok()
        };
        let v = match neighbour {
            Some(q) => Valued {
                position: *p,
                ..super::valued(values, &q)?
            },
            // Its own rules: valued as itself, or refused with the rules that differ.
            None => super::valued(values, p)?,
        };
        progress(out.len());
        out.push(v);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(text: &str) -> OwareRules {
        match text.parse::<mancala_core::Rules>().unwrap() {
            mancala_core::Rules::Oware(r) => r,
            other => panic!("{other} is not Oware"),
        }
    }

    #[test]
    fn a_held_rule_set_is_its_own_and_abapa_has_its_neighbour() {
        for own in ["awari", "oware+majority=off+cycle_score=split"] {
            assert_eq!(valued_rules(rules(own)), Some(rules(own)), "{own}");
            assert_eq!(caveat(rules(own), rules(own)), None);
        }
        // Abapa, its first-repetition form and one with a move limit: the rule set without
        // the majority end, with cycles split and no move limit (OW-10); the repetition rule
        // stays (the databases hold every one).
        for (abapa, neighbour) in [
            ("oware", "oware+majority=off+cycle_score=split"),
            (
                "oware+move_limit=200",
                "oware+majority=off+cycle_score=split",
            ),
            (
                "oware+repetition=2",
                "oware+repetition=2+majority=off+cycle_score=split",
            ),
        ] {
            let neighbour = rules(neighbour);
            assert_eq!(valued_rules(rules(abapa)), Some(neighbour), "{abapa}");
            let c = caveat(rules(abapa), neighbour).unwrap();
            assert!(c.contains("not of oware"), "{c}");
        }
        assert_eq!(valued_rules(rules("oware(5,4)")), None);
    }
}
