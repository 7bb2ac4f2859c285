//! The core's Kalah option table (`KalahOption::TABLE`) against the rules as the core plays
//! them, valued by the plain minimax of `mancala_reference::minimax::Brute` (independent of
//! the solver): an option marked `changes_database` changes the value of some position past
//! the opening, and an option not so marked changes none, so a database built without it
//! serves rule sets with it (`docs/rules/kalah.md`, "Options": `pie_rule` and `no_first_move_bonus` only act
//! on the first turns).

use std::collections::HashSet;

use mancala_core::kalah::{KalahOption, KalahOptions, KalahPosition, KalahRules};
use mancala_reference::minimax::Brute;

/// Every position reachable from the start of `rules` (which have no opening option).
fn reachable(rules: KalahRules) -> Vec<KalahPosition> {
    let mut seen = HashSet::new();
    let mut stack = vec![KalahPosition::start(rules)];
    let mut out = Vec::new();
    while let Some(p) = stack.pop() {
        if !seen.insert((p.slots().to_vec(), p.side_to_move())) {
            continue;
        }
        out.push(p);
        for mv in p.legal_moves() {
            stack.push(p.play_unchecked(mv));
        }
    }
    out
}

fn past_opening(p: &KalahPosition) -> bool {
    p.side_to_move().is_some() && !(p.is_first_move() || p.swap_offered() || p.in_opening_turn())
}

#[test]
fn changes_database_says_which_options_change_values_past_the_opening() {
    let base = KalahRules::new(3, 2, KalahOptions::NONE).unwrap();
    let positions = reachable(base);
    assert!(positions.len() > 100, "{} positions", positions.len());
    for option in KalahOption::ALL {
        let with = base.with_options(KalahOptions::of(&[option]));
        let (mut plain, mut other) = (Brute::new(), Brute::new());
        let mut compared = 0;
        let mut differ = 0;
        for p in &positions {
            // The same houses and stores under the other rules, where they are a position.
            let Ok(q) = KalahPosition::new(with, &p.slots(), p.side_to_move(), false) else {
                continue;
            };
            if !past_opening(p) || !past_opening(&q) {
                continue;
            }
            compared += 1;
            if plain.value(p) != other.value(&q) {
                differ += 1;
            }
        }
        assert!(compared > 100, "{option:?}: {compared} positions compared");
        assert_eq!(
            differ > 0,
            option.changes_database(),
            "{option:?}: {differ} of {compared} values differ"
        );
        // `changes_values`: some position's value differs, past the opening or at the start
        // (the opening options act there).
        let start_differs = Brute::new().value(&KalahPosition::start(base))
            != Brute::new().value(&KalahPosition::start(with));
        assert_eq!(
            differ > 0 || start_differs,
            option.changes_values(),
            "{option:?}: values at the start differ: {start_differs}"
        );
    }
}
