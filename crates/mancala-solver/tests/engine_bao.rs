//! The engine on Bao la Kete against independently derived values: a win in one from the
//! rules (`docs/rules/bao-la-kete.md`, TC-14), and forced wins within three plies found by an
//! exhaustive search written here (win/loss only, no evaluation), on positions from random games.

use mancala_core::bao::{BaoMove, BaoPosition, BaoRules};
use mancala_core::Side;
use mancala_solver::engine::{Engine, Level, LevelPlayer, Limits, DECISIVE, WIN};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn engine() -> Engine<BaoPosition> {
    Engine::with_tt_bytes(1 << 20)
}

/// Whether the side to move in `p` can force a win within `plies` plies (its own moves
/// included), by plain exhaustive search.
fn forced_win(p: &BaoPosition, plies: u32) -> bool {
    let Some(me) = p.side_to_move() else {
        return false;
    };
    if plies == 0 {
        return false;
    }
    p.legal_moves().into_iter().any(|mv| {
        let c = p.play(mv).unwrap();
        match c.side_to_move() {
            None => c.outcome().unwrap().winner == Some(me),
            Some(_) => {
                plies >= 3
                    && c.legal_moves().into_iter().all(|r| {
                        let d = c.play(r).unwrap();
                        match d.side_to_move() {
                            None => d.outcome().unwrap().winner == Some(me),
                            Some(_) => forced_win(&d, plies - 2),
                        }
                    })
            }
        }
    })
}

#[test]
fn tc14_win_in_one() {
    // docs/rules/bao-la-kete.md TC-14: South's F4 captures North's last front-row seeds and wins at
    // once.
    let p: BaoPosition =
        "0,0,0,1,0,0,0,0/5,0,0,0,0,0,0,0/0,0,0,0,3,0,0,0/53,0,0,0,0,0,0,0 1,1 - S -"
            .parse()
            .unwrap();
    let r = engine().search(&p, &Limits::depth(5)).unwrap();
    assert_eq!(r.best_move, "F4".parse::<BaoMove>().unwrap());
    assert_eq!(r.score, WIN - 1);
    assert!(r.exact);
    assert!(r.is_decisive());
}

/// The positions of `games` random games: every position of the last 40 plies of each game
/// (where the wins are) and every 7th before.
fn random_game_positions(games: u64) -> Vec<BaoPosition> {
    let mut out = Vec::new();
    for g in 0..games {
        let mut rng = StdRng::seed_from_u64(g);
        let mut p = BaoPosition::start(BaoRules::LAMU);
        let mut game = Vec::new();
        while !p.is_over() {
            game.push(p);
            let moves = p.legal_moves();
            p = p.play(moves[rng.gen_range(0..moves.len())]).unwrap();
        }
        let n = game.len();
        out.extend(
            game.into_iter()
                .enumerate()
                .filter(|(i, _)| i % 7 == 0 || i + 40 >= n)
                .map(|(_, p)| p),
        );
    }
    out
}

#[test]
fn forced_wins_within_three_plies_agree_with_exhaustive_search() {
    let positions = random_game_positions(6);
    let mut wins = 0;
    let mut e = engine();
    for p in &positions {
        let truth = forced_win(p, 3);
        let r = e.search(p, &Limits::depth(3)).unwrap();
        assert!(p.play(r.best_move).is_ok());
        assert_eq!(r.score > DECISIVE, truth, "{p}: engine {} ", r.score);
        if truth {
            wins += 1;
            // The move chosen wins too: after it the opponent cannot avoid a loss within
            // one more move of ours.
            let c = p.play(r.best_move).unwrap();
            let me = p.side_to_move().unwrap();
            let still_wins = match c.side_to_move() {
                None => c.outcome().unwrap().winner == Some(me),
                Some(_) => c.legal_moves().into_iter().all(|reply| {
                    let d = c.play(reply).unwrap();
                    match d.outcome() {
                        Some(o) => o.winner == Some(me),
                        None => forced_win(&d, 1),
                    }
                }),
            };
            assert!(still_wins, "{p}: {} does not win", r.best_move);
        }
    }
    println!(
        "{} positions, {wins} forced wins within 3 plies",
        positions.len()
    );
    assert!(
        wins >= 3,
        "only {wins} forced wins among the sampled positions"
    );
}

#[test]
fn engine_beats_a_random_mover_at_bao() {
    for g in 0..2u64 {
        let engine_side = if g % 2 == 0 { Side::South } else { Side::North };
        let mut player = LevelPlayer::with_engine(engine(), Level::MAX, g);
        let mut rng = StdRng::seed_from_u64(100 + g);
        let mut p = BaoPosition::start(BaoRules::LAMU);
        let mut plies = 0;
        while let Some(side) = p.side_to_move() {
            let mv = if side == engine_side {
                player.choose_within(&p, Limits::nodes(3000)).unwrap().mv
            } else {
                let moves = p.legal_moves();
                moves[rng.gen_range(0..moves.len())]
            };
            p = p.play(mv).unwrap();
            plies += 1;
            assert!(plies < 2000, "game {g} does not end");
        }
        assert_eq!(p.outcome().unwrap().winner, Some(engine_side), "game {g}");
    }
}
