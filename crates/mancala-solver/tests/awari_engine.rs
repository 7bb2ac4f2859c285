//! The Oware engine with an Awari database (`docs/awari.md`, "The engine"): a root the
//! database holds is played by it (a move of the largest value, the exact score), and a
//! node-limited search is helped, not harmed, by exact leaves. The database itself is checked
//! against an independent brute force in `tests/awari_ref/`.

use std::sync::Arc;

use mancala_core::oware::{GrandSlam, OwareMove, OwarePosition, OwareRules};
use mancala_core::{GameRecord, Side};
use mancala_solver::awari::{AwariBoard, AwariDb};
use mancala_solver::engine::oware::RESULT;
use mancala_solver::engine::{Engine, EngineError, Evaluate, Limits, SEED};
use mancala_solver::ExactValues;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// A random `awari` position with `seeds` seeds in the houses, `side` to move, the rest of
/// the 48 seeds split between the stores at random.
fn random_position(rng: &mut StdRng, seeds: u32, side: Side) -> Option<OwarePosition> {
    let mut houses = [0u32; 12];
    for _ in 0..seeds {
        houses[rng.gen_range(0..12)] += 1;
    }
    let stores = 48 - seeds;
    let south = rng.gen_range(0..=stores);
    let s: Vec<String> = houses.iter().map(u32::to_string).collect();
    let text = format!(
        "{},{},{},{} {}",
        s[..6].join(","),
        south,
        s[6..].join(","),
        stores - south,
        if side == Side::South { "S" } else { "N" }
    );
    // A mover without a legal move is refused as a set-up position (the game is over).
    OwarePosition::parse(OwareRules::AWARI, &text).ok()
}

/// The twelve houses of `p` mover first (the order of `AwariBoard`, OW-10.4), written out
/// house by house from the position's own accessors.
fn board_of(p: &OwarePosition) -> AwariBoard {
    let me = p.side_to_move().unwrap();
    let mut h = [0u8; 12];
    for i in 0..6u8 {
        h[i as usize] = p.house(me, i + 1).unwrap();
        h[6 + i as usize] = p.house(me.opponent(), i + 1).unwrap();
    }
    AwariBoard::new(h).unwrap()
}

fn captured(p: &OwarePosition) -> i32 {
    let me = p.side_to_move().unwrap();
    i32::from(p.store(me)) - i32::from(p.store(me.opponent()))
}

/// At every root with at most N seeds the engine plays a move of the largest database value
/// and reports the exact score: SEED × (captured difference + value), whatever the budget.
#[test]
fn the_root_is_played_by_the_database() {
    let db = Arc::new(AwariDb::build(10, 0).unwrap());
    let mut engine = Engine::<OwarePosition>::with_tt_bytes(1 << 20)
        .with_database(db.clone(), &OwareRules::AWARI)
        .unwrap();
    let mut rng = StdRng::seed_from_u64(7);
    let mut checked = 0;
    for i in 0..400 {
        let seeds = 1 + i % 10;
        let side = if i % 2 == 0 { Side::South } else { Side::North };
        let Some(p) = random_position(&mut rng, seeds, side) else {
            continue;
        };
        if p.is_over() {
            continue;
        }
        let board = board_of(&p);
        let value = db.board_value(&board).unwrap();
        let moves = db.board_move_values(&board).unwrap();
        let best = moves.iter().map(|&(_, v)| v).max().unwrap();
        assert_eq!(best, value);
        for limits in [Limits::depth(1), Limits::nodes(500)] {
            let r = engine.search(&p, &limits).unwrap();
            assert!(r.exact, "{p}");
            assert_eq!(r.score, SEED * (captured(&p) + value), "{p}");
            let chosen = moves
                .iter()
                .find(|(m, _)| OwareMove(m.house) == r.best_move)
                .expect("a legal move");
            assert_eq!(chosen.1, best, "{p}: move {}", r.best_move);
        }
        checked += 1;
    }
    assert!(checked > 300, "{checked}");
}

/// Other Oware rule sets: the database is refused (their values differ, OW-10.4).
#[test]
fn other_rule_sets_are_refused() {
    let db = Arc::new(AwariDb::build(4, 1).unwrap());
    for rules in [OwareRules::OWARE, OwareRules::OPENSPIEL] {
        assert!(Engine::<OwarePosition>::with_tt_bytes(1 << 16)
            .with_database(db.clone(), &rules)
            .is_err());
        let mut e = Engine::<OwarePosition>::with_tt_bytes(1 << 16);
        e.set_database(Some(db.clone()));
        let start = OwarePosition::start(rules);
        assert!(e.search(&start, &Limits::depth(2)).is_err());
    }
}

/// When a position of the stretch since the last capture has occurred twice already (the
/// repetition rule, OW-6.2, ends the game at its third occurrence), the root is searched,
/// not taken from the database: the history could change its value. A fresh root is played
/// by the database (no node searched).
#[test]
fn a_repeated_history_is_searched() {
    let db = Arc::new(AwariDb::build(6, 1).unwrap());
    let mut engine = Engine::<OwarePosition>::with_tt_bytes(1 << 20)
        .with_database(db, &OwareRules::AWARI)
        .unwrap();
    let mut rng = StdRng::seed_from_u64(3);
    let mut found = 0;
    for _ in 0..3_000 {
        let seeds = rng.gen_range(2..=6);
        let Some(start) = random_position(&mut rng, seeds, Side::South) else {
            continue;
        };
        if start.is_over() {
            continue;
        }
        let mut game = GameRecord::from_position(start);
        let fresh = engine.search_game(&game, &Limits::depth(2)).unwrap();
        assert_eq!(fresh.nodes, 0, "a fresh root is played by the database");
        for _ in 0..40 {
            if game.is_over() {
                break;
            }
            let moves = game.position().legal_moves();
            let mv = moves[rng.gen_range(0..moves.len())];
            game.play(mv).unwrap();
            if game.is_over() {
                break;
            }
            let root = *game.position();
            let stretch = game.since_irreversible();
            let twice = stretch[..stretch.len() - 1]
                .iter()
                .any(|p| *p != root && stretch.iter().filter(|q| *q == p).count() >= 2);
            if twice {
                let r = engine.search_game(&game, &Limits::depth(2)).unwrap();
                assert!(r.nodes > 0, "a repeated history is searched");
                found += 1;
                break;
            }
        }
    }
    assert!(found > 0, "no game with a repeated stretch found");
}

/// A node-limited search with the database (N = 8) chooses moves at least as good, summed
/// over endgames of 10–12 seeds, as without it, judged by the exact values of a database of
/// 12 seeds. The engine plays for the result first (`engine/oware.rs`, "Scores"), so a move
/// is judged by the result it leads to under best play: +1, 0 or −1 as the seeds stored
/// plus the move's exact value (OW-10.3) is positive, zero or negative.
#[test]
fn a_node_limited_search_is_not_worse_with_the_database() {
    let small = Arc::new(AwariDb::build(8, 0).unwrap());
    let judge = AwariDb::build(12, 0).unwrap();
    let mut rng = StdRng::seed_from_u64(11);
    let (mut with, mut without, mut optimal) = (0i64, 0i64, 0i64);
    let mut positions = 0;
    while positions < 60 {
        let seeds = rng.gen_range(10..=12);
        let Some(p) = random_position(&mut rng, seeds, Side::South) else {
            continue;
        };
        if p.is_over() || p.legal_moves().len() < 2 {
            continue;
        }
        let stored = i64::from(p.store(Side::South)) - i64::from(p.store(Side::North));
        let moves = judge.board_move_values(&board_of(&p)).unwrap();
        let result_of = |m: OwareMove| {
            moves
                .iter()
                .find(|(x, _)| OwareMove(x.house) == m)
                .map(|&(_, v)| (stored + i64::from(v)).signum())
                .unwrap()
        };
        let limits = Limits::nodes(3_000);
        let mut a = Engine::<OwarePosition>::with_tt_bytes(1 << 20)
            .with_database(small.clone(), &OwareRules::AWARI)
            .unwrap();
        let mut b = Engine::<OwarePosition>::with_tt_bytes(1 << 20);
        with += result_of(a.search(&p, &limits).unwrap().best_move);
        without += result_of(b.search(&p, &limits).unwrap().best_move);
        optimal += moves
            .iter()
            .map(|&(_, v)| (stored + i64::from(v)).signum())
            .max()
            .unwrap();
        positions += 1;
    }
    eprintln!("summed results over {positions} endgames: with {with}, without {without}, optimal {optimal}");
    assert!(with >= without, "with {with} < without {without}");
}

/// Under Abapa (`oware`) the Oware database of `grand_slam=none` (its neighbour,
/// `oware+majority=off+cycle_score=split`) is no exact source, but the engine can take its
/// values as the evaluation (`Engine::set_estimates`): a depth-1 search then scores each
/// move by the database's value of the board it leaves (`SEED` × (stored seeds + value),
/// for the opponent, negated), never as exact, and the database is refused as the exact
/// one. Where a capture leaves a board whose margin m (stores + value) exceeds the seeds in
/// the houses S, the result is decided whatever a cycle changes (`docs/oware-databases.md`,
/// "Abapa"): the value then carries the result bonus (`engine::oware::RESULT`). The Awari
/// database (`grand_slam=unless_only`, another grand-slam rule) is refused as the
/// evaluation.
#[test]
fn the_neighbour_database_is_the_evaluation_under_abapa() {
    let db = Arc::new(AwariDb::build_until_under(GrandSlam::None, 8, 0, |_| true).unwrap());
    assert!(Engine::<OwarePosition>::with_tt_bytes(1 << 20)
        .with_database(db.clone(), &OwareRules::OWARE)
        .is_err());
    let awari = Arc::new(AwariDb::build(4, 0).unwrap());
    let start = OwarePosition::start(OwareRules::OWARE);
    let mut refused = Engine::<OwarePosition>::with_tt_bytes(1 << 20);
    refused.set_estimates(Some(awari));
    assert!(matches!(
        refused.search(&start, &Limits::depth(1)),
        Err(EngineError::DatabaseMismatch { .. })
    ));
    let mut rng = StdRng::seed_from_u64(3);
    let (mut checked, mut decided) = (0, 0);
    while checked < 60 {
        let seeds = rng.gen_range(4..=9);
        let Some(p) = random_position(&mut rng, seeds, Side::South) else {
            continue;
        };
        // Half the positions with South's store at 22 to 24 (North's the rest, at most
        // 24): captures that decide the result are then common.
        let mut text = p.to_string();
        if checked % 2 == 0 {
            let f: Vec<&str> = text.split(',').collect();
            let south = rng.gen_range(22..=24u32);
            let north = 48 - seeds - south;
            text = format!(
                "{},{south},{},{north} S",
                f[..6].join(","),
                f[7..13].join(",")
            );
        }
        let Ok(p) = OwarePosition::parse(OwareRules::OWARE, &text) else {
            continue;
        };
        if p.is_over() {
            continue;
        }
        // Each move: a finished game by its result score, else the database's value of the
        // board left (at most 8 seeds: every capture leaves fewer), for North, negated.
        let mut best = i32::MIN;
        let mut all_over = true;
        for &m in p.legal_moves().iter() {
            let c = p.play(m).unwrap();
            all_over &= c.is_over();
            let v = if c.is_over() {
                Evaluate::final_value(&c, Side::South)
            } else {
                match db.estimate_of(&c) {
                    Some(v) => {
                        let north =
                            i32::from(c.store(Side::North)) - i32::from(c.store(Side::South));
                        let margin = north + v;
                        let capture = c.store(Side::South) != p.store(Side::South);
                        if capture && margin.abs() > c.seeds_in_houses() as i32 {
                            decided += 1;
                            -(SEED * margin + RESULT * margin.signum())
                        } else {
                            -SEED * margin
                        }
                    }
                    None => -c.evaluate(),
                }
            };
            best = best.max(v);
        }
        let mut engine = Engine::<OwarePosition>::with_tt_bytes(1 << 20);
        engine.set_estimates(Some(db.clone()));
        let r = engine.search(&p, &Limits::depth(1)).unwrap();
        assert_eq!(r.score, OwarePosition::reported_score(best), "{p}");
        // Exact only where every move ends the game.
        assert_eq!(r.exact, all_over, "{p}");
        checked += 1;
    }
    assert!(decided > 0);
}
