//! Values of whole games: every Kalah(m,n) with m·n ≤ 9 in both capture rules against the
//! independent brute force, the pie rule, and the published table for n ≤ 3
//! (Irving, Donkers & Uiterwijk 2000; Rawlings 2015).

use mancala_core::kalah::{KalahMove, KalahPosition, KalahRules};
use mancala_reference::minimax::Brute;
use mancala_solver::{SolveOptions, Solver};

fn solve(rules: &str, threads: usize) -> mancala_solver::Solution {
    let rules: KalahRules = rules.parse().unwrap();
    Solver::new()
        .threads(threads)
        .tt_bytes(4 << 20)
        .solve(&KalahPosition::start(rules), SolveOptions::new())
        .unwrap()
}

#[test]
fn small_games_equal_brute_force() {
    for m in 1..=7u32 {
        for n in 1..=9u32 {
            if m * n > 9 {
                continue;
            }
            for capture in ["", "+empty_capture"] {
                let text = format!("kalah({m},{n}){capture}");
                let rules: KalahRules = text.parse().unwrap();
                let start = KalahPosition::start(rules);
                // Plain minimax where it is quick, the memoised alpha-beta of the test's own
                // for the largest boards.
                let expected = if m * n <= 6 || m <= 4 {
                    Brute::new().value(&start)
                } else {
                    Brute::new().value_ab(&start)
                };
                let s = solve(&text, 1);
                assert!(s.exact, "{text}");
                assert_eq!(s.value, expected, "{text}");
                assert_eq!(s.score, expected, "{text}: nothing stored at the start");
            }
        }
    }
}

#[test]
fn pie_rule_and_first_move_options_equal_brute_force() {
    for text in [
        "kalah(3,2)+pie_rule",
        "kalah(3,2)+pie_rule+empty_capture",
        "kalah(3,3)+pie_rule+no_first_move_bonus",
        "kalah(4,2)+pie_rule",
        "kalah(2,3)+no_first_move_bonus",
        "kalah(3,2)+pie_rule+end_when_no_move+discard_remaining",
    ] {
        let rules: KalahRules = text.parse().unwrap();
        let start = KalahPosition::start(rules);
        let mut brute = Brute::new();
        let s = solve(text, 2);
        assert_eq!(s.value, brute.value(&start), "{text}");
        // Every position where North may swap: the swap choice and both values.
        for mv in start.legal_moves() {
            let mut p = start.play(mv).unwrap();
            // Finish South's opening turn with the lowest house each time.
            while p.side_to_move() == start.side_to_move() {
                let next = p.legal_moves()[0];
                p = p.play(next).unwrap();
            }
            if !p.swap_offered() {
                continue;
            }
            let sol = Solver::new()
                .threads(1)
                .solve(&p, SolveOptions::new())
                .unwrap();
            let values = brute.move_values(&p);
            let swap = values
                .iter()
                .find(|(m, _)| *m == KalahMove::Swap)
                .unwrap()
                .1;
            let stay = values
                .iter()
                .filter(|(m, _)| *m != KalahMove::Swap)
                .map(|x| x.1)
                .max()
                .unwrap();
            let choice = sol.swap.expect("swap offered");
            assert_eq!(choice.swap_value, swap, "{text} {p}");
            assert_eq!(choice.stay_value, Some(stay), "{text} {p}");
            assert_eq!(choice.swap_is_better, swap > stay);
            assert_eq!(sol.value, swap.max(stay));
        }
    }
}

#[test]
fn published_values_up_to_three_seeds() {
    // (rules, value): Irving et al. 2000 (empty capture), Rawlings 2015 (both rules).
    for (rules, value) in [
        ("kalah(6,1)+empty_capture", 2),
        ("kalah(6,1)", 2),
        ("kalah(6,2)+empty_capture", 10),
        ("kalah(6,2)", 6),
        ("kalah(6,3)+empty_capture", 2),
        ("kalah(6,3)", 2),
    ] {
        let s = solve(rules, 2);
        assert!(s.exact, "{rules}");
        assert_eq!(s.value, value, "{rules}");
    }
}

#[test]
fn same_value_with_one_and_two_threads() {
    for rules in ["kalah(5,3)+empty_capture", "kalah(4,4)", "kalah(6,2)"] {
        let one = solve(rules, 1);
        let two = solve(rules, 2);
        assert_eq!(one.value, two.value, "{rules}");
        assert_eq!(one.best_moves, two.best_moves, "{rules}");
    }
}
