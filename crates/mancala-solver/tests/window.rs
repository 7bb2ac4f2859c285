//! `Solver::solve_within`: for random positions of Kalah(4,3) and Kalah(6,3) (both capture
//! rules, and the pie rule's opening) and random windows, the bounds hold the exact value
//! that `Solver::solve` gives on a fresh solver (an independent full search: its own
//! table, its best-move proofs), answer the window as the contract says, and the node count
//! at one thread is the same in every run; limits and the cancel flag give true bounds.

use std::ops::ControlFlow;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use mancala_core::kalah::{KalahPosition, KalahRules};
use mancala_solver::{SolveError, SolveOptions, Solver, WindowSolution};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// A position `plies` random moves from the start of `rules` (the game still on).
fn random_position(rules: &str, plies: usize, rng: &mut StdRng) -> KalahPosition {
    let rules: KalahRules = rules.parse().unwrap();
    loop {
        let mut p = KalahPosition::start(rules);
        for _ in 0..plies {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            p = p.play(moves[rng.gen_range(0..moves.len())]).unwrap();
        }
        if !p.is_over() {
            return p;
        }
    }
}

/// The contract of `solve_within(pos, a, b)` for a position of exact value `v`.
fn check(w: &WindowSolution, v: i32, a: i32, b: i32, what: &str) {
    assert!(w.settled, "{what}: ({a}, {b}) not settled: {w:?}");
    assert!(
        w.lower <= v && v <= w.upper,
        "{what}: ({a}, {b}) gave {w:?}, value {v}"
    );
    assert!(
        w.lower == w.upper || w.upper <= a || w.lower >= b,
        "{what}: ({a}, {b}) gave {w:?}, which answers nothing"
    );
    if a < v && v < b {
        assert_eq!(w.exact(), Some(v), "{what}: ({a}, {b}) holds {v}");
    }
}

/// Windows around `v`: null windows on both sides of it and at it, windows holding it,
/// below it, above it, and random ones.
fn windows(v: i32, rng: &mut StdRng) -> Vec<(i32, i32)> {
    let mut w = vec![
        (v - 1, v),
        (v, v + 1),
        (v - 2, v - 1),
        (v + 1, v + 2),
        (v - 3, v + 3),
        (v - 9, v - 4),
        (v + 4, v + 9),
        (i32::MIN, i32::MAX),
        (i32::MIN, v),
        (v, i32::MAX),
    ];
    for _ in 0..6 {
        let a = rng.gen_range(-30..30);
        let b = a + rng.gen_range(1..12);
        w.push((a, b));
    }
    w
}

#[test]
fn bounds_hold_the_solved_value_and_answer_the_window() {
    let mut rng = StdRng::seed_from_u64(17);
    let mut checked = 0;
    for (rules, count, plies) in [
        ("kalah(4,3)", 12, 0..8),
        ("kalah(4,3)+empty_capture", 12, 0..8),
        ("kalah(6,3)", 4, 10..16),
        ("kalah(6,3)+empty_capture", 4, 10..16),
        ("kalah(3,3)+pie_rule", 6, 0..3),
    ] {
        for _ in 0..count {
            let plies = rng.gen_range(plies.clone());
            let pos = random_position(rules, plies, &mut rng);
            let v = Solver::new()
                .threads(1)
                .tt_bytes(8 << 20)
                .solve(&pos, SolveOptions::new())
                .unwrap();
            assert!(v.exact);
            let v = v.value;
            // One solver kept over all the windows (its table reused), a fresh one each
            // time, and two threads splitting at every node.
            let mut kept = Solver::new().threads(1).tt_bytes(4 << 20);
            for (a, b) in windows(v, &mut rng) {
                let what = format!("{rules} {pos}");
                check(
                    &kept.solve_within(&pos, a, b, SolveOptions::new()).unwrap(),
                    v,
                    a,
                    b,
                    &what,
                );
                let mut fresh = Solver::new().threads(1).tt_bytes(1 << 20);
                check(
                    &fresh.solve_within(&pos, a, b, SolveOptions::new()).unwrap(),
                    v,
                    a,
                    b,
                    &what,
                );
                let mut two = Solver::new().threads(2).split_margin(1).tt_bytes(1 << 16);
                check(
                    &two.solve_within(&pos, a, b, SolveOptions::new()).unwrap(),
                    v,
                    a,
                    b,
                    &what,
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 38 * 16);
}

#[test]
fn nodes_at_one_thread_are_the_same_every_run() {
    let mut rng = StdRng::seed_from_u64(5);
    let pos = random_position("kalah(6,3)+empty_capture", 6, &mut rng);
    let calls = [(-1, 0), (3, 4), (-5, 5), (i32::MIN, i32::MAX), (0, 1)];
    let run = || {
        let mut s = Solver::new().threads(1).tt_bytes(2 << 20);
        calls
            .iter()
            .map(|&(a, b)| {
                let w = s.solve_within(&pos, a, b, SolveOptions::new()).unwrap();
                (w.lower, w.upper, w.nodes)
            })
            .collect::<Vec<_>>()
    };
    let first = run();
    assert!(first.iter().all(|&(_, _, n)| n > 0), "{first:?}");
    assert_eq!(first, run());
    // A null window asked again on the same solver is answered from its table: fewer nodes.
    let mut s = Solver::new().threads(1).tt_bytes(2 << 20);
    let once = s.solve_within(&pos, 0, 1, SolveOptions::new()).unwrap();
    let again = s.solve_within(&pos, 0, 1, SolveOptions::new()).unwrap();
    assert_eq!((once.lower, once.upper), (again.lower, again.upper));
    assert!(again.nodes < once.nodes, "{once:?} then {again:?}");
}

#[test]
fn limits_and_cancel_give_true_bounds() {
    let mut rng = StdRng::seed_from_u64(9);
    let pos = random_position("kalah(6,3)", 4, &mut rng);
    let v = Solver::new()
        .threads(1)
        .solve(&pos, SolveOptions::new())
        .unwrap()
        .value;
    let k = pos.seeds_in_houses() as i32;
    // A node limit far below what the window needs: stopped, bounds still true.
    let w = Solver::new()
        .threads(1)
        .node_limit(Some(3000))
        .solve_within(&pos, i32::MIN, i32::MAX, SolveOptions::new())
        .unwrap();
    assert!(!w.settled, "{w:?}");
    assert!(w.lower <= v && v <= w.upper, "{w:?}");
    assert!(w.nodes < 10_000, "{w:?}");
    // Cancelled before it starts: the bounds of the seeds left, a check's worth of nodes.
    let flag = Arc::new(AtomicBool::new(true));
    let w = Solver::new()
        .threads(1)
        .cancel_flag(flag)
        .solve_within(&pos, v - 1, v, SolveOptions::new())
        .unwrap();
    assert!(!w.settled, "{w:?}");
    assert_eq!((w.lower, w.upper), (-k, k), "{w:?}");
    // The progress callback stops it as a limit would.
    let mut calls = 0;
    let w = Solver::new()
        .threads(1)
        .tt_bytes(1 << 16)
        .solve_within(
            &random_position("kalah(6,4)", 2, &mut rng),
            i32::MIN,
            i32::MAX,
            SolveOptions::new().progress(Duration::from_millis(10), &mut |p| {
                calls += 1;
                assert!(p.lower <= p.upper);
                ControlFlow::Break(())
            }),
        )
        .unwrap();
    assert_eq!(calls, 1);
    assert!(!w.settled, "{w:?}");
    // Watched without a break: the unwatched answer, node for node.
    let plain = Solver::new()
        .threads(1)
        .solve_within(&pos, v - 3, v + 1, SolveOptions::new())
        .unwrap();
    let watched = Solver::new()
        .threads(1)
        .solve_within(
            &pos,
            v - 3,
            v + 1,
            SolveOptions::new().progress(Duration::from_millis(10), &mut |_| {
                ControlFlow::Continue(())
            }),
        )
        .unwrap();
    assert_eq!(
        (plain.lower, plain.upper, plain.nodes),
        (watched.lower, watched.upper, watched.nodes)
    );
}

#[test]
fn empty_windows_finished_games_and_windows_beyond_the_board() {
    let rules: KalahRules = "kalah(4,3)".parse().unwrap();
    let start = KalahPosition::start(rules);
    let mut s = Solver::new().threads(1);
    assert_eq!(
        s.solve_within(&start, 2, 2, SolveOptions::new()),
        Err(SolveError::EmptyWindow { lower: 2, upper: 2 })
    );
    assert!(matches!(
        s.solve_within(&start, 3, -1, SolveOptions::new()),
        Err(SolveError::EmptyWindow { .. })
    ));
    let msg = s
        .solve_within(&start, 3, -1, SolveOptions::new())
        .unwrap_err()
        .to_string();
    assert_eq!(
        msg,
        "the window (3, -1) is empty: its lower end must be below its upper end"
    );
    // 24 seeds in the houses: every value lies in −24..=24, so these need no search.
    let w = s.solve_within(&start, 24, 30, SolveOptions::new()).unwrap();
    assert_eq!((w.upper, w.settled, w.nodes), (24, true, 0), "{w:?}");
    let w = s
        .solve_within(&start, -40, -24, SolveOptions::new())
        .unwrap();
    assert_eq!((w.lower, w.settled, w.nodes), (-24, true, 0), "{w:?}");
    let over = KalahPosition::parse(rules, "0,0,0,0,12,0,0,0,0,12 -").unwrap();
    let w = s.solve_within(&over, 5, 6, SolveOptions::new()).unwrap();
    assert_eq!((w.exact(), w.settled, w.nodes), (Some(0), true, 0), "{w:?}");
}

/// `Solver::estimate` searched deeper than the game can last is the exact value (the
/// heuristic counts a position's unknown future as 0, and there is none left); the node
/// count is the same every run, and a finished game is 0 with no node.
#[test]
fn an_estimate_deeper_than_the_game_is_the_value() {
    let mut rng = StdRng::seed_from_u64(3);
    for rules in [
        "kalah(3,2)",
        "kalah(3,2)+empty_capture",
        "kalah(2,2)+pie_rule",
    ] {
        for _ in 0..5 {
            let pos = random_position(rules, rng.gen_range(0..4), &mut rng);
            let v = Solver::new()
                .threads(1)
                .solve(&pos, SolveOptions::new())
                .unwrap()
                .value;
            // 200 plies: far longer than a game of 12 seeds on these boards lasts (were
            // it cut off, a line's unknown rest would count 0 and the test could fail).
            let (e, n) = Solver::new().threads(1).estimate(&pos, 200).unwrap();
            assert_eq!(e, v, "{rules} {pos}");
            assert_eq!(
                Solver::new().threads(1).estimate(&pos, 200).unwrap(),
                (e, n)
            );
        }
    }
    let over = KalahPosition::parse("kalah(3,2)".parse().unwrap(), "0,0,0,7,0,0,0,5 -").unwrap();
    assert_eq!(Solver::new().estimate(&over, 10).unwrap(), (0, 0));
}
