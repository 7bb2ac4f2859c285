//! Exact play of the engine (Kalah): endgame-database values inside the search, the exact
//! root solve, and the refusal of a database of other rules. Expected values come from the
//! exact solver's `analyse`/`solve` and from the independent brute-force minimax of
//! `mancala_reference::minimax`.

use std::sync::Arc;

use mancala_core::bao::{BaoPosition, BaoRules};
use mancala_core::kalah::{KalahPosition, KalahRules};
use mancala_core::Side;
use mancala_reference::minimax::Brute;
use mancala_solver::engine::{Engine, EngineError, Limits, SEED};
use mancala_solver::{BuildOptions, Egdb, SolveOptions, Solver};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Positions of random games of `rules` with at most `max_seeds` (and at least
/// `min_seeds`) seeds in the houses, past the opening, game not over.
fn endgames(rules: KalahRules, min_seeds: u32, max_seeds: u32, n: usize) -> Vec<KalahPosition> {
    let mut rng = StdRng::seed_from_u64(7);
    let mut out = Vec::new();
    for _ in 0..50 * n {
        if out.len() == n {
            break;
        }
        let mut p = KalahPosition::start(rules);
        while !p.is_over() && p.seeds_in_houses() > max_seeds {
            let moves = p.legal_moves();
            p = p.play(moves[rng.gen_range(0..moves.len())]).unwrap();
        }
        if !p.is_over()
            && p.seeds_in_houses() >= min_seeds
            && !p.is_first_move()
            && !p.swap_offered()
            && !p.in_opening_turn()
        {
            out.push(p);
        }
    }
    assert_eq!(out.len(), n, "not enough positions");
    out
}

fn mover_margin(p: &KalahPosition) -> i32 {
    match p.side_to_move() {
        Some(Side::North) => -p.store_difference(),
        _ => p.store_difference(),
    }
}

#[test]
fn database_positions_are_played_exactly() {
    let rules: KalahRules = "kalah(4,3)".parse().unwrap();
    let db = Arc::new(Egdb::build(&rules, 10, BuildOptions::new()).unwrap());
    let mut solver = Solver::new().threads(1).tt_bytes(1 << 20);
    let mut brute = Brute::new();
    for root_solve in [false, true] {
        let mut engine = Engine::with_tt_bytes(1 << 20)
            .with_database(db.clone(), &rules)
            .unwrap();
        engine.set_root_solve(root_solve);
        for p in endgames(rules, 4, 10, 40) {
            // A depth limit of 3: without the database the search could not be exact on
            // most of these positions (the games last longer than 3 plies).
            let limits = if root_solve {
                Limits::nodes(1 << 20)
            } else {
                Limits::depth(3)
            };
            let r = engine.search(&p, &limits).unwrap();
            assert!(r.exact, "{p} root_solve {root_solve}");
            let a = solver.analyse(&p, SolveOptions::new()).unwrap();
            let best = a.moves.iter().map(|m| m.value).max().unwrap();
            let chosen = a.moves.iter().find(|m| m.mv == r.best_move).unwrap();
            assert!(chosen.exact);
            assert_eq!(
                chosen.value, best,
                "{p}: {} is not a best move",
                r.best_move
            );
            // The score is the final store difference under best play.
            assert_eq!(r.score, SEED * (mover_margin(&p) + best), "{p}");
            assert_eq!(best, brute.value(&p), "{p}");
        }
    }
}

#[test]
fn database_leaves_make_a_shallow_search_exact() {
    // Without a database a depth-1 search of these positions is heuristic; with it, exact.
    let rules: KalahRules = "kalah(6,2)".parse().unwrap();
    let db = Arc::new(Egdb::build(&rules, 8, BuildOptions::new()).unwrap());
    let mut plain = Engine::with_tt_bytes(1 << 20);
    let mut with_db = Engine::with_tt_bytes(1 << 20)
        .with_database(db, &rules)
        .unwrap();
    let mut brute = Brute::new();
    let mut heuristic = 0;
    for p in endgames(rules, 6, 9, 30) {
        if !plain.search(&p, &Limits::depth(1)).unwrap().exact {
            heuristic += 1;
        }
        let r = with_db.search(&p, &Limits::depth(1)).unwrap();
        // At most K seeds: every child is in the database or a finished game. Above K, a
        // depth-1 search is exact when every move sows into a store.
        if p.seeds_in_houses() <= 8 {
            assert!(r.exact, "{p}");
        }
        if r.exact {
            assert_eq!(r.score, SEED * (mover_margin(&p) + brute.value(&p)), "{p}");
        }
    }
    assert!(heuristic > 10, "{heuristic}");
}

#[test]
fn just_above_the_database_the_root_is_solved() {
    let rules: KalahRules = "kalah(6,3)".parse().unwrap();
    let db = Arc::new(Egdb::build(&rules, 8, BuildOptions::new()).unwrap());
    let mut engine = Engine::with_tt_bytes(1 << 20)
        .with_database(db.clone(), &rules)
        .unwrap();
    let mut solver = Solver::new()
        .threads(1)
        .tt_bytes(4 << 20)
        .database(db.clone());
    for p in endgames(rules, 12, 16, 12) {
        // A generous node budget (a quarter of it for the solver).
        let r = engine.search(&p, &Limits::nodes(1 << 26)).unwrap();
        assert!(r.exact, "{p}");
        let s = solver.solve(&p, SolveOptions::new()).unwrap();
        assert!(s.exact);
        assert!(s.best_moves.contains(&r.best_move), "{p}: {}", r.best_move);
        assert_eq!(r.score, SEED * s.score, "{p}");
        assert_eq!(r.pv.first(), Some(&r.best_move));
        // The principal variation is legal and ends the game.
        let mut q = p;
        for &mv in &r.pv {
            q = q.play(mv).unwrap();
        }
        assert!(q.is_over(), "{p}");
    }
    // Without a database too (small board): the start of Kalah(4,2).
    let start = KalahPosition::start("kalah(4,2)".parse().unwrap());
    let r = Engine::with_tt_bytes(1 << 20)
        .search(&start, &Limits::nodes(1 << 24))
        .unwrap();
    let s = Solver::new()
        .threads(1)
        .solve(&start, SolveOptions::new())
        .unwrap();
    assert!(r.exact);
    assert!(s.best_moves.contains(&r.best_move));
    assert_eq!(r.score, SEED * s.score);
}

#[test]
fn tiny_budget_on_a_big_board_is_not_exact() {
    let rules = KalahRules::manchester();
    let db = Arc::new(Egdb::build(&rules, 4, BuildOptions::new()).unwrap());
    let mut engine = Engine::with_tt_bytes(1 << 20)
        .with_database(db, &rules)
        .unwrap();
    let p = KalahPosition::start(rules);
    for limits in [Limits::nodes(1000), Limits::nodes(1)] {
        let r = engine.search(&p, &limits).unwrap();
        assert!(p.play(r.best_move).is_ok());
        assert!(!r.exact);
    }
    // After the opening, too (98 seeds: far above the root-solve threshold).
    let q = p.play(p.legal_moves()[0]).unwrap();
    let q = q.play(q.legal_moves()[0]).unwrap();
    let r = engine.search(&q, &Limits::nodes(5000)).unwrap();
    assert!(q.play(r.best_move).is_ok());
    assert!(!r.exact);
}

#[test]
fn a_database_of_other_rules_is_refused() {
    let four: KalahRules = "kalah(4,3)".parse().unwrap();
    let db = Arc::new(Egdb::build(&four, 6, BuildOptions::new()).unwrap());
    // At configuration time.
    let six = KalahRules::standard();
    let err = Engine::<KalahPosition>::new()
        .with_database(db.clone(), &six)
        .err()
        .unwrap();
    assert!(matches!(err, EngineError::DatabaseMismatch { .. }), "{err}");
    let capture: KalahRules = "kalah(4,3)+empty_capture".parse().unwrap();
    assert!(Engine::<KalahPosition>::with_tt_bytes(1 << 16)
        .with_database(db.clone(), &capture)
        .is_err());
    // At search time, for an engine given the database without rules.
    let mut e = Engine::<KalahPosition>::with_tt_bytes(1 << 16);
    e.set_database(Some(db.clone()));
    let p = KalahPosition::start(six);
    assert!(matches!(
        e.search(&p, &Limits::depth(2)),
        Err(EngineError::DatabaseMismatch { .. })
    ));
    // The rules it serves still work on the same engine.
    let ok = KalahPosition::start(four);
    assert!(e.search(&ok, &Limits::depth(2)).is_ok());
    // The refusal names the database.
    e.set_database(Some(db));
    let err = e.search(&p, &Limits::depth(1)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the endgame database (kalah(4,·), K = 6) does not serve the rules of this position"
    );
    // A Bao engine has no database: its slot's type (`NoDatabase`) has no value, so a
    // Kalah database cannot be given to it (a type error); it searches without one.
    let mut b = Engine::<BaoPosition>::with_tt_bytes(1 << 16);
    b.set_database(None);
    let start = BaoPosition::start(BaoRules::LAMU);
    assert!(b.search(&start, &Limits::depth(1)).is_ok());
}
