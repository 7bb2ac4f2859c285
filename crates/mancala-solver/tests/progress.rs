//! Progress reports and cancels of `Solver::solve`, `Solver::analyse` and `Egdb::build` with
//! `SolveOptions::progress` and `BuildOptions::progress`: the reported bounds always hold the value (published for
//! Kalah(6,2): +6 and Kalah(6,3): +2, Rawlings 2015), the callback runs on the calling thread at most once an
//! interval, and a break stops the work.

use std::ops::ControlFlow;
use std::time::Duration;

use mancala_core::kalah::{KalahPosition, KalahRules};
use mancala_solver::{
    BuildOptions, Egdb, EgdbError, SolveOptions, SolvePhase, SolveProgress, Solver,
};

const INTERVAL: Duration = Duration::from_millis(10);

#[test]
fn the_reported_bounds_hold_the_published_value_and_only_tighten() {
    // Kalah(6,3) (about 2.6 M nodes), not a smaller board: the solve must last many intervals
    // for a report to be due, however fast the search and however loaded the machine.
    let rules: KalahRules = "kalah(6,3)".parse().unwrap();
    let start = KalahPosition::start(rules);
    let caller = std::thread::current().id();
    let mut seen: Vec<SolveProgress> = Vec::new();
    let s = Solver::new()
        .threads(2)
        .tt_bytes(16 << 20)
        .solve(
            &start,
            SolveOptions::new().progress(INTERVAL, &mut |p| {
                assert_eq!(std::thread::current().id(), caller, "on the calling thread");
                seen.push(*p);
                ControlFlow::Continue(())
            }),
        )
        .unwrap();
    assert!(s.exact);
    assert_eq!(s.value, 2);
    assert!(
        !seen.is_empty(),
        "a solve of {:.3} s made no report",
        s.seconds
    );
    // At most one report an interval (and one for the start of the first).
    assert!(seen.len() as f64 <= s.seconds / INTERVAL.as_secs_f64() + 1.0);
    let mut last = (i32::MIN, i32::MAX, 0u64);
    for p in &seen {
        assert!(p.lower <= 2 && 2 <= p.upper, "{p:?}");
        assert!(p.nodes >= last.2, "nodes only grow: {p:?}");
        if p.phase == SolvePhase::Value {
            assert!(
                p.lower >= last.0 && p.upper <= last.1,
                "only tighten: {p:?}"
            );
            // A probe tests a bound strictly inside what is proven: value ≥ t with
            // lower < t ≤ upper (a null window (t − 1, t), MTD(f)).
            if let Some(t) = p.testing {
                assert!(p.lower < t && t <= p.upper, "{p:?}");
            }
            last = (p.lower, p.upper, p.nodes);
        } else {
            assert_eq!((p.lower, p.upper), (2, 2), "the value is known: {p:?}");
            assert_eq!(p.testing, None, "no probe after the value: {p:?}");
            last.2 = p.nodes;
        }
    }
    assert!(s.nodes >= last.2);
}

#[test]
fn a_break_stops_the_solve_with_its_bounds() {
    // Kalah(6,4) from the start takes minutes: the first report cancels it.
    let start = KalahPosition::start(KalahRules::standard());
    let mut calls = 0;
    let s = Solver::new()
        .threads(2)
        .tt_bytes(1 << 20)
        .solve(
            &start,
            SolveOptions::new().progress(Duration::from_millis(50), &mut |_| {
                calls += 1;
                ControlFlow::Break(())
            }),
        )
        .unwrap();
    assert_eq!(calls, 1, "no call after the break");
    assert!(!s.exact);
    assert!(-48 <= s.lower && s.lower <= s.upper && s.upper <= 48);
    assert!(
        s.seconds < 10.0,
        "stopped soon after the break: {} s",
        s.seconds
    );
}

#[test]
fn an_analysis_reports_each_move_in_turn() {
    let rules: KalahRules = "kalah(6,2)".parse().unwrap();
    let start = KalahPosition::start(rules);
    let legal = start.legal_moves();
    let mut last_index = 0;
    let mut reports = 0;
    let a = Solver::new()
        .threads(1)
        .tt_bytes(1 << 20)
        .analyse(
            &start,
            SolveOptions::new().progress(INTERVAL, &mut |p| {
                let SolvePhase::Move { mv, index, count } = p.phase else {
                    panic!("an analysis reports moves: {p:?}");
                };
                assert_eq!(count, legal.len());
                assert_eq!(legal[index], mv);
                assert!(index >= last_index, "moves in legal order");
                assert!(p.lower <= p.upper);
                last_index = index;
                reports += 1;
                ControlFlow::Continue(())
            }),
        )
        .unwrap();
    assert!(
        reports > 0,
        "an analysis of {:.3} s made no report",
        a.seconds
    );
    let plain = Solver::new()
        .threads(1)
        .tt_bytes(1 << 20)
        .analyse(&start, SolveOptions::new())
        .unwrap();
    let values = |x: &mancala_solver::Analysis| x.moves.iter().map(|m| m.value).collect::<Vec<_>>();
    assert_eq!(values(&a), values(&plain));
    // The best move's value is the published value of the game.
    assert_eq!(a.moves.iter().map(|m| m.value).max(), Some(6));
}

#[test]
fn a_watched_build_equals_the_plain_build_and_a_break_cancels_it() {
    let rules: KalahRules = "kalah(6,2)".parse().unwrap();
    let mut last = 0;
    let mut calls = 0;
    let watched = Egdb::build(
        &rules,
        14,
        BuildOptions::new().threads(2).progress(INTERVAL, &mut |p| {
            assert!(p.done >= last && p.done <= p.total);
            assert_eq!(p.total, 9_657_700, "C(14 + 12, 12)");
            last = p.done;
            calls += 1;
            ControlFlow::Continue(())
        }),
    )
    .unwrap();
    let plain = Egdb::build(&rules, 14, BuildOptions::new()).unwrap();
    assert!(watched.payload() == plain.payload(), "same bytes");
    assert!(calls > 0, "a build of 9.7 M positions made no report");
    let cancelled = Egdb::build(
        &rules,
        14,
        BuildOptions::new()
            .threads(2)
            .progress(INTERVAL, &mut |_| ControlFlow::Break(())),
    );
    assert!(
        matches!(cancelled, Err(EgdbError::Cancelled)),
        "{cancelled:?}"
    );
}
