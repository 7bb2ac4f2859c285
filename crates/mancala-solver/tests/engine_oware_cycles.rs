//! The engine never loses to a cycle it could have scored, on the full Oware board: under
//! `oware+repetition=2` (Abapa with the first repetition ending the game, each player taking
//! the seeds of his own row, OW-6.2) a search from a game with a history before its root
//! plays a repetition that wins where every other move does worse, and avoids one that
//! ends worse than another move.
//! The expected values come from a brute force over the game tree with the history, written
//! from the rules alone (the own-row allotment computed here, not by the library's
//! `end_by`), independent of the engine.

use mancala_core::game::{Game, GameRecord};
use mancala_core::oware::{OwareMove, OwarePosition, OwareRules};
use mancala_core::Side;
use mancala_solver::engine::{Engine, Limits, MAX_DEPTH, SEED};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// South's final seeds minus North's when a repetition ends the game at `pos`: each player
/// takes the seeds of his own row (OW-6.2, `cycle_score=own_row`).
fn own_rows_margin(pos: &OwarePosition) -> i32 {
    let count = |side: Side| {
        i32::from(pos.store(side)) + pos.houses(side).iter().map(|&s| i32::from(s)).sum::<i32>()
    };
    count(Side::South) - count(Side::North)
}

/// The final margin for the player to move at `pos` under best play by both, with `path`
/// the positions since the last capture (`pos` last): a move to a position of `path` is the
/// first repetition and ends the game with the rows to their owners; a capture starts a new
/// path (captured counts are part of a position, nothing before it can recur).
fn brute_force(pos: &OwarePosition, path: &mut Vec<OwarePosition>) -> i32 {
    let me = pos.side_to_move().unwrap();
    let sign = if me == Side::South { 1 } else { -1 };
    let mut best = i32::MIN;
    for &mv in pos.legal_moves().iter() {
        best = best.max(move_value(pos, mv, path, sign));
    }
    best
}

/// The value of `mv` at `pos` for its mover (`sign`: 1 for South, −1 for North), as
/// [`brute_force`] values it.
fn move_value(pos: &OwarePosition, mv: OwareMove, path: &mut Vec<OwarePosition>, sign: i32) -> i32 {
    let child = pos.play(mv).unwrap();
    if let Some(o) = child.outcome() {
        return sign * o.score;
    }
    let capture = child.store(Side::South) != pos.store(Side::South)
        || child.store(Side::North) != pos.store(Side::North);
    if capture {
        return -brute_force(&child, &mut vec![child]);
    }
    if path.contains(&child) {
        return sign * own_rows_margin(&child);
    }
    path.push(child);
    let v = -brute_force(&child, path);
    path.pop();
    v
}

/// Whether `mv` at `pos` repeats a position of `path` (and so ends the game).
fn repeats(pos: &OwarePosition, mv: OwareMove, path: &[OwarePosition]) -> bool {
    let child = pos.play(mv).unwrap();
    !child.is_over() && path.contains(&child)
}

/// Games checked.
const COUNT: u32 = 300;

/// Random games of `oware+repetition=2` with 2 or 3 seeds in the houses and up to 60 plies
/// played without a capture before the root (up to the first position where a move repeats
/// one): the engine's search of the game (to the end of every line) has the brute force's
/// value, its move keeps it, and among these games are
/// both a repetition that wins where every other move does worse, and a repetition that ends
/// worse than another move, each played or avoided as it must be.
#[test]
fn the_engine_plays_the_cycles_a_brute_force_plays() {
    let rules: OwareRules = "oware+repetition=2".parse().unwrap();
    let mut rng = StdRng::seed_from_u64(43);
    let (mut checked, mut winning_cycles, mut losing_cycles) = (0, 0, 0);
    let mut tries = 0;
    while checked < COUNT && tries < 100_000 {
        tries += 1;
        let n = rng.gen_range(2..=3u32);
        let mut board = [0u32; 12];
        for _ in 0..n {
            board[rng.gen_range(0..12)] += 1;
        }
        // Stores of at most 24 each (a store above 24 would have ended the game).
        let south = rng.gen_range(24 - n..=24);
        // Stores close together, so that the rows decide the result.
        let north = 48 - n - south;
        let row = |r: &[u32]| r.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
        let side = if rng.gen_bool(0.5) { "S" } else { "N" };
        let text = format!(
            "{},{south},{},{north} {side}",
            row(&board[..6]),
            row(&board[6..])
        );
        let Ok(start) = <OwarePosition as Game>::parse(rules, &text) else {
            continue;
        };
        if start.is_over() {
            continue;
        }
        // A history before the root: random plies while nothing is captured or repeated,
        // up to the first position where a move would repeat one (at most 60 plies).
        let mut game = GameRecord::from_position(start);
        for _ in 0..60 {
            let p = *game.position();
            let path = game.since_irreversible();
            if p.legal_moves().iter().any(|&m| repeats(&p, m, path)) {
                break;
            }
            let moves = p.legal_moves();
            let mv = moves[rng.gen_range(0..moves.len())];
            let c = p.play(mv).unwrap();
            if c.is_over() || p.is_irreversible(&c) || game.since_irreversible().contains(&c) {
                break;
            }
            game.play(mv).unwrap();
        }
        let pos = *game.position();
        let path = game.since_irreversible().to_vec();
        let moves = pos.legal_moves();
        let sign = if pos.side_to_move() == Some(Side::South) {
            1
        } else {
            -1
        };
        let values: Vec<i32> = moves
            .iter()
            .map(|&mv| move_value(&pos, mv, &mut path.clone(), sign))
            .collect();
        let best = *values.iter().max().unwrap();
        let mut engine = Engine::<OwarePosition>::with_tt_bytes(1 << 16);
        let r = engine
            .search_game(&game, &Limits::depth(MAX_DEPTH))
            .unwrap();
        if !r.exact {
            continue;
        }
        assert_eq!(r.score, best * SEED, "{game:?}: {r:?}");
        let chosen = moves.iter().position(|&m| m == r.best_move).unwrap();
        assert_eq!(values[chosen], best, "{game:?}: {:?}", r.best_move);
        for (i, &mv) in moves.iter().enumerate() {
            if !repeats(&pos, mv, &path) {
                continue;
            }
            let others_worse = (0..moves.len()).all(|j| j == i || values[j] < values[i]);
            if values[i] > 0 && others_worse {
                // The cycle wins and every other move does worse: the engine repeats.
                assert_eq!(r.best_move, mv, "{game:?}");
                winning_cycles += 1;
            }
            if values[i] < best {
                // The cycle ends worse than the best move: the engine avoids it.
                assert_ne!(r.best_move, mv, "{game:?}");
                losing_cycles += 1;
            }
        }
        checked += 1;
    }
    eprintln!(
        "{checked} games checked in {tries} tries: {winning_cycles} winning cycles played, {losing_cycles} losing cycles avoided"
    );
    assert_eq!(checked, COUNT);
    assert!(winning_cycles > 0 && losing_cycles > 0);
}
