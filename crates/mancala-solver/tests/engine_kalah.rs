//! The engine against independently derived values: positions solved by hand, and an
//! exhaustive minimax written here (players, not signs: the first player maximises the final
//! store difference as seen from their own side, the second minimises it; a swap exchanges
//! the players' sides), on small boards with every variant.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use mancala_core::kalah::{KalahMove, KalahPosition, KalahRules};
use mancala_core::Side;
use mancala_solver::engine::{Engine, EngineError, Level, LevelPlayer, Limits, MAX_DEPTH, SEED};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn pos(rules: &str, text: &str) -> KalahPosition {
    KalahPosition::parse(rules.parse().unwrap(), text).unwrap()
}

fn small_engine() -> Engine<KalahPosition> {
    Engine::with_tt_bytes(1 << 20)
}

/// Final store difference from the first player's side under perfect play; `swapped` says
/// whether the first player now sits North.
fn minimax(
    p: &KalahPosition,
    swapped: bool,
    memo: &mut HashMap<(KalahPosition, bool), i32>,
) -> i32 {
    if let Some(o) = p.outcome() {
        return if swapped { -o.score } else { o.score };
    }
    if let Some(&v) = memo.get(&(*p, swapped)) {
        return v;
    }
    let side = p.side_to_move().unwrap();
    let first_to_move = (side == Side::South) != swapped;
    let values = p.legal_moves().into_iter().map(|mv| {
        let child = p.play(mv).unwrap();
        let sw = if mv == KalahMove::Swap {
            !swapped
        } else {
            swapped
        };
        minimax(&child, sw, memo)
    });
    let v = if first_to_move {
        values.max().unwrap()
    } else {
        values.min().unwrap()
    };
    memo.insert((*p, swapped), v);
    v
}

/// The exact value of `p` for the player to move, in seeds.
fn value_for_mover(p: &KalahPosition, memo: &mut HashMap<(KalahPosition, bool), i32>) -> i32 {
    // Take the player to move as the first player, sitting on the side to move.
    let swapped = p.side_to_move() == Some(Side::North);
    minimax(p, swapped, memo)
}

/// The value, for the player who moved, of playing `mv` in `p`.
fn value_of_move(
    p: &KalahPosition,
    mv: KalahMove,
    memo: &mut HashMap<(KalahPosition, bool), i32>,
) -> i32 {
    let swapped = p.side_to_move() == Some(Side::North);
    let child = p.play(mv).unwrap();
    let sw = if mv == KalahMove::Swap {
        !swapped
    } else {
        swapped
    };
    minimax(&child, sw, memo)
}

#[test]
fn hand_solved_capture_before_free_move() {
    // kalah(3,2), South [1,0,1] store 0, North [0,9,2] store 0, South to move.
    // * House 1: its seed lands in the empty S2 facing N2 (9): South takes 10. North's only
    //   move, house 3 (2 seeds), puts one in North's store and one in S1; North's row is then
    //   empty: South sweeps 1 + 1. Final 12 − 1 = +11.
    // * House 3: one seed into the store, an extra turn; then house 1 captures 10 (store 11)
    //   and South's row is empty: North sweeps 2. Final 11 − 2 = +9.
    let p = pos("kalah(3,2)", "1,0,1,0,0,9,2,0 S");
    let r = small_engine().search(&p, &Limits::depth(20)).unwrap();
    assert_eq!(r.best_move, KalahMove::House(1));
    assert_eq!(r.score, 11 * SEED);
    assert!(r.exact);
    assert_eq!(r.pv[0], KalahMove::House(1));
}

#[test]
fn hand_solved_free_move_first() {
    // kalah(3,2), South [0,1,1] store 0, North [3,0,0] store 5, South to move.
    // * House 3 first: its seed goes into the store, extra turn; house 2 then lands in the
    //   now-empty S3 facing N1 (3): capture 4. South's row is empty: game over, North sweeps
    //   nothing. Final 5 − 5 = 0.
    // * House 2 first: its seed lands in S3 (not empty): no capture, North to move with
    //   [3,0,0]: house 1 sows N2, N3, N-store: extra turn, then North's house 2 or 3...
    //   South ends with at most its 2 seeds: a loss. The engine must find house 3.
    let p = pos("kalah(3,2)", "0,1,1,0,3,0,0,5 S");
    let r = small_engine().search(&p, &Limits::depth(20)).unwrap();
    assert_eq!(r.best_move, KalahMove::House(3));
    assert_eq!(r.score, 0);
    assert!(r.exact);
    assert_eq!(r.pv[..2], [KalahMove::House(3), KalahMove::House(2)]);
    let mut memo = HashMap::new();
    assert!(value_of_move(&p, KalahMove::House(2), &mut memo) < 0);
}

#[test]
fn exact_values_match_minimax_on_small_boards() {
    let rule_sets = [
        "kalah(2,2)",
        "kalah(3,2)",
        "kalah(3,3)",
        "kalah(4,2)",
        "kalah(3,2)+empty_capture",
        "kalah(3,3)+pie_rule",
        "kalah(3,2)+pie_rule+no_first_move_bonus",
        "kalah(3,2)+end_when_no_move",
        "kalah(3,2)+discard_remaining",
        "kalah(2,3)+empty_capture+end_when_no_move+pie_rule",
    ];
    let mut rng = StdRng::seed_from_u64(7);
    let mut checked = 0;
    for rules in rule_sets {
        let rules: KalahRules = rules.parse().unwrap();
        let mut memo = HashMap::new();
        let mut engine = small_engine();
        for game in 0..6 {
            let mut p = KalahPosition::start(rules);
            // Random walk; search the positions along the way.
            let mut ply = 0;
            while !p.is_over() {
                if ply % 3 == game % 3 {
                    if game % 2 == 1 {
                        engine.clear();
                    }
                    let r = engine.search(&p, &Limits::depth(MAX_DEPTH)).unwrap();
                    let v = value_for_mover(&p, &mut memo);
                    assert!(r.exact, "{rules} {p}: not exact at depth {}", r.depth);
                    assert_eq!(r.score, v * SEED, "{rules} {p}");
                    assert_eq!(
                        value_of_move(&p, r.best_move, &mut memo),
                        v,
                        "{rules} {p}: {} is not a best move",
                        r.best_move
                    );
                    // The principal variation is a legal line starting with the best move.
                    assert_eq!(r.pv[0], r.best_move);
                    let mut q = p;
                    for &mv in &r.pv {
                        q = q.play(mv).unwrap();
                    }
                    checked += 1;
                }
                let moves = p.legal_moves();
                p = p.play(moves[rng.gen_range(0..moves.len())]).unwrap();
                ply += 1;
            }
        }
    }
    assert!(checked > 100, "{checked}");
}

#[test]
fn exact_at_the_swap_decision() {
    // Kalah(3,3) with the pie rule: after South's first turn North may swap. The engine's
    // value of the decision must equal minimax with the players exchanged.
    let rules: KalahRules = "kalah(3,3)+pie_rule+no_first_move_bonus".parse().unwrap();
    let start = KalahPosition::start(rules);
    let mut memo = HashMap::new();
    for mv in start.legal_moves() {
        let p = start.play(mv).unwrap();
        assert!(p.swap_offered());
        let r = small_engine()
            .search(&p, &Limits::depth(MAX_DEPTH))
            .unwrap();
        let v = value_for_mover(&p, &mut memo);
        assert_eq!(r.score, v * SEED, "after {mv}");
        let swap = value_of_move(&p, KalahMove::Swap, &mut memo);
        assert!(swap <= v);
        assert_eq!(value_of_move(&p, r.best_move, &mut memo), v);
    }
}

#[test]
fn tiny_budgets_still_return_a_legal_move() {
    let p = KalahPosition::start(KalahRules::manchester());
    let mut e = small_engine();
    for limits in [
        Limits::nodes(0),
        Limits::nodes(1),
        Limits::time(Duration::ZERO),
        Limits::default().with_cancel(Arc::new(AtomicBool::new(true))),
    ] {
        let r = e.search(&p, &limits).unwrap();
        assert!(p.play(r.best_move).is_ok());
        assert_eq!(r.depth, 1, "{limits:?}");
        assert!(!r.exact);
        assert!(r.nodes <= 1 + 8, "{}", r.nodes);
    }
    // 1 µs may outlast depth 1 on a fast machine; the clock is read every 1024 nodes, so the
    // search stops within the first 1024 nodes past it.
    let r = e
        .search(&p, &Limits::time(Duration::from_micros(1)))
        .unwrap();
    assert!(p.play(r.best_move).is_ok());
    assert!(r.nodes <= 2048, "{}", r.nodes);
    // A time budget beyond the clock's range is no deadline (and no panic).
    let r = e
        .search(&p, &Limits::time(Duration::MAX).with_depth(3))
        .unwrap();
    assert_eq!(r.depth, 3);
    // A node budget is kept to within one check.
    let r = e.search(&p, &Limits::nodes(5000)).unwrap();
    assert!(r.nodes <= 5000, "{}", r.nodes);
    assert!(r.depth >= 2);
}

#[test]
fn time_budget_and_cancel_flag_stop_the_search() {
    // Kalah(7,7) cannot be solved in these budgets.
    let p = KalahPosition::start(KalahRules::manchester());
    let mut e = small_engine();
    let t = Instant::now();
    let r = e
        .search(&p, &Limits::time(Duration::from_millis(50)))
        .unwrap();
    assert!(
        t.elapsed() < Duration::from_millis(1000),
        "{:?}",
        t.elapsed()
    );
    // (At least depth 1 always; deeper unless the machine stalls the test for 25 ms.)
    assert!(r.depth >= 1 && !r.exact);
    assert!(p.play(r.best_move).is_ok());

    let cancel = Arc::new(AtomicBool::new(false));
    let flag = cancel.clone();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(50));
        flag.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    let t = Instant::now();
    let r = e
        .search(&p, &Limits::default().with_cancel(cancel))
        .unwrap();
    stopper.join().unwrap();
    assert!(
        t.elapsed() < Duration::from_millis(2000),
        "{:?}",
        t.elapsed()
    );
    assert!(p.play(r.best_move).is_ok());
}

#[test]
fn bad_requests_are_errors() {
    let mut e = small_engine();
    let over = pos("standard", "0,0,0,0,0,0,30,0,0,0,0,0,0,18 -");
    assert_eq!(
        e.search(&over, &Limits::depth(3)),
        Err(EngineError::GameOver)
    );
    let p = KalahPosition::start(KalahRules::standard());
    assert_eq!(e.search(&p, &Limits::default()), Err(EngineError::NoLimit));
    assert_eq!(e.search(&p, &Limits::depth(0)), Err(EngineError::Depth(0)));
    assert_eq!(
        e.search(&p, &Limits::depth(MAX_DEPTH + 1)),
        Err(EngineError::Depth(MAX_DEPTH + 1))
    );
    assert_eq!(Level::new(0), Err(EngineError::Level(0)));
    assert_eq!(Level::new(11), Err(EngineError::Level(11)));
    assert_eq!(
        EngineError::Level(11).to_string(),
        "level 11 is out of range: levels are 1..=10"
    );
}

#[test]
fn fixed_depth_searches_are_deterministic() {
    let p = pos("standard", "5,0,6,1,5,5,3,4,5,0,6,5,1,2 N");
    let a = small_engine().search(&p, &Limits::depth(9)).unwrap();
    let b = small_engine().search(&p, &Limits::depth(9)).unwrap();
    assert_eq!(
        (a.best_move, a.score, &a.pv, a.nodes),
        (b.best_move, b.score, &b.pv, b.nodes)
    );
    assert_eq!(a.depth, 9);
}

fn random_positions(n: usize, seed: u64) -> Vec<KalahPosition> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let mut p = KalahPosition::start(KalahRules::standard());
        let plies = rng.gen_range(0..30);
        for _ in 0..plies {
            if p.is_over() {
                break;
            }
            let moves = p.legal_moves();
            p = p.play(moves[rng.gen_range(0..moves.len())]).unwrap();
        }
        if !p.is_over() && p.legal_moves().len() > 1 {
            out.push(p);
        }
    }
    out
}

#[test]
fn levels_are_reproducible_from_a_seed() {
    let positions = random_positions(300, 11);
    let run = |level: u32, seed: u64| -> Vec<(KalahMove, bool)> {
        let mut player = LevelPlayer::with_engine(small_engine(), Level::new(level).unwrap(), seed);
        positions
            .iter()
            .map(|p| {
                let c = player.choose(p, Duration::from_secs(10)).unwrap();
                assert!(p.play(c.mv).is_ok());
                assert_eq!(c.weaker, c.mv != c.search.best_move);
                (c.mv, c.weaker)
            })
            .collect()
    };
    let a = run(2, 42);
    assert_eq!(a, run(2, 42));
    assert_ne!(a, run(2, 43));
    // Level 2 plays a weaker move with probability 0.3: 300 draws, standard deviation 0.026.
    let weaker = a.iter().filter(|c| c.1).count() as f64 / a.len() as f64;
    assert!((0.2..0.4).contains(&weaker), "{weaker}");
    // Level 5 never does.
    assert!(run(5, 42).iter().all(|c| !c.1));
}

#[test]
fn level_table() {
    let l = Level::new(1).unwrap();
    assert_eq!((l.max_depth(), l.weaker_move_probability()), (Some(1), 0.5));
    let l = Level::new(9).unwrap();
    assert_eq!(
        (l.max_depth(), l.weaker_move_probability()),
        (Some(14), 0.0)
    );
    assert_eq!(Level::MAX.max_depth(), None);
    let limits = Level::new(3).unwrap().limits(Duration::from_millis(7));
    assert_eq!(
        (limits.depth, limits.time),
        (Some(3), Some(Duration::from_millis(7)))
    );
}

/// Plays one game; `engine_first` puts the engine on South. Returns the engine's final
/// store difference. The engine plays on a node budget, so the test does not depend on the
/// machine's load.
fn engine_vs_random(engine_first: bool, seed: u64, nodes: u64) -> i32 {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut player = LevelPlayer::with_engine(small_engine(), Level::MAX, seed);
    let engine_side = if engine_first {
        Side::South
    } else {
        Side::North
    };
    let mut p = KalahPosition::start(KalahRules::standard());
    while let Some(side) = p.side_to_move() {
        let mv = if side == engine_side {
            player.choose_within(&p, Limits::nodes(nodes)).unwrap().mv
        } else {
            let moves = p.legal_moves();
            moves[rng.gen_range(0..moves.len())]
        };
        p = p.play(mv).unwrap();
    }
    let s = p.outcome().unwrap().score;
    if engine_first {
        s
    } else {
        -s
    }
}

#[test]
fn level_10_beats_a_random_mover() {
    for g in 0..4 {
        let d = engine_vs_random(g % 2 == 0, g, 20_000);
        assert!(d > 0, "game {g}: {d}");
    }
}

#[test]
fn deeper_search_beats_shallower_from_the_same_openings() {
    // Level 6 (depth 6) against level 2 (depth 2, 30 % weaker moves), sides alternated.
    let mut total = 0;
    for g in 0..4u64 {
        let strong_first = g % 2 == 0;
        let mut strong = LevelPlayer::with_engine(small_engine(), Level::new(6).unwrap(), g);
        let mut weak = LevelPlayer::with_engine(small_engine(), Level::new(2).unwrap(), g);
        let mut p = KalahPosition::start(KalahRules::standard());
        while let Some(side) = p.side_to_move() {
            let strong_to_move = (side == Side::South) == strong_first;
            let player = if strong_to_move {
                &mut strong
            } else {
                &mut weak
            };
            p = p
                .play(player.choose(&p, Duration::from_secs(10)).unwrap().mv)
                .unwrap();
        }
        let s = p.outcome().unwrap().score;
        total += if strong_first { s } else { -s };
    }
    assert!(total > 0, "{total}");
}

#[test]
fn restricted_search_chooses_among_the_given_moves() {
    // The hand-solved position: house 1 wins by 11, house 3 by 9.
    let p = pos("kalah(3,2)", "1,0,1,0,0,9,2,0 S");
    let mut e = small_engine();
    let r = e
        .search_moves(&p, &Limits::depth(20), &[KalahMove::House(3)])
        .unwrap();
    assert_eq!(
        (r.best_move, r.score, r.exact),
        (KalahMove::House(3), 900, true)
    );
    // Illegal moves in the list are ignored; none legal is an error.
    let r = e
        .search_moves(
            &p,
            &Limits::depth(20),
            &[KalahMove::House(2), KalahMove::House(1)],
        )
        .unwrap();
    assert_eq!((r.best_move, r.score), (KalahMove::House(1), 1100));
    assert_eq!(
        e.search_moves(&p, &Limits::depth(20), &[KalahMove::Swap]),
        Err(EngineError::NoRootMove)
    );
    // The restricted search left no wrong value behind for the unrestricted one.
    let r = e.search(&p, &Limits::depth(20)).unwrap();
    assert_eq!((r.best_move, r.score), (KalahMove::House(1), 1100));
}

/// The engine's documentation says it is `Send` and `Sync`.
#[test]
fn the_engine_is_send_and_sync() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Engine<KalahPosition>>();
    send_sync::<Engine<mancala_core::bao::BaoPosition>>();
    send_sync::<mancala_solver::engine::LevelPlayer<KalahPosition>>();
}
