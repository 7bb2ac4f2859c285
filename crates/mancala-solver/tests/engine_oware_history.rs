//! The engine under Oware's history rules (`docs/rules/oware.md`): a move that repeats a
//! position for the rule set's repetition count ends the game by the cycle rule (OW-6.2), and
//! a move made at the move limit ends it with each row to its owner (OW-6.4). Every position
//! and value below is traced by hand from the rules; the notation of a board of h houses is
//! `S1..Sh, South's store, N1..Nh, North's store, side` (OW-9).

use mancala_core::game::{parse_moves, Game, GameRecord, HistoryEnd};
use mancala_core::oware::{OwareMove, OwarePosition, OwareRules};
use mancala_core::Side;
use mancala_solver::engine::eval::Evaluate;
use mancala_solver::engine::{Engine, History, Level, LevelPlayer, Limits, MAX_DEPTH, SEED};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn position(rules: &str, text: &str) -> OwarePosition {
    <OwarePosition as Game>::parse(rules.parse::<OwareRules>().unwrap(), text).unwrap()
}

/// `oware-openspiel(3,3)` (the first repetition ends the game, each player takes his row;
/// 18 seeds in all). From `1,1,1,6,0,0,0,9 S` the moves 3 1 2 2 3 1 1 move single seeds one
/// house on (no sowing reaches 2 or 3 seeds in the opponent's row, so nothing is captured):
///
/// | ply | move | position after |
/// |---|---|---|
/// | 1 | S3 → N1 | `1,1,0,6,1,0,0,9 N` |
/// | 2 | N1 → N2 | `1,1,0,6,0,1,0,9 S` (A2) |
/// | 3 | S2 → S3 | `1,0,1,6,0,1,0,9 N` |
/// | 4 | N2 → N3 | `1,0,1,6,0,0,1,9 S` |
/// | 5 | S3 → N1 | `1,0,0,6,1,0,1,9 N` |
/// | 6 | N1 → N2 | `1,0,0,6,0,1,1,9 S` |
/// | 7 | S1 → S2 | `0,1,0,6,0,1,1,9 N` (R) |
///
/// In R North has two moves:
/// * N3: one seed into S1, giving `1,1,0,6,0,1,0,9 S` = A2 again: the game ends (OW-6.2),
///   South 6 + 2 = 8, North 9 + 1 = 10: **+2 seeds for North**;
/// * N2: one seed into N3 (`0,1,0,6,0,0,2,9 S`); South's only move S2 → S3
///   (`0,0,1,6,0,0,2,9 N`); North's only move N3 sows S1 and S2 (S2 then holds 1: no
///   capture), giving the start `1,1,1,6,0,0,0,9 S` again: the game ends, South 6 + 3 = 9,
///   North 9: **0**.
///
/// So with the game's history North must play N3 (value +2 seeds, exact).
fn cycle_game() -> GameRecord<OwarePosition> {
    let start = position("oware-openspiel(3,3)", "1,1,1,6,0,0,0,9 S");
    let moves = parse_moves::<OwarePosition>("3 1 2 2 3 1 1").unwrap();
    let game = GameRecord::replay(start, &moves).unwrap();
    assert_eq!(game.position().to_string(), "0,1,0,6,0,1,1,9 N");
    game
}

#[test]
fn the_engine_finds_the_repetition_that_wins() {
    let game = cycle_game();
    let mut engine = Engine::<OwarePosition>::with_tt_bytes(1 << 20);
    let r = engine.search_game(&game, &Limits::depth(20)).unwrap();
    assert_eq!(r.best_move, OwareMove(3));
    assert_eq!(r.score, 2 * SEED);
    assert!(r.exact, "{r:?}");
    // The other move is worth 0: searched alone, it scores the second line's cycle.
    let only_n2 = engine
        .search_history(
            game.position(),
            History::of(&game),
            &Limits::depth(20),
            &[OwareMove(2)],
        )
        .unwrap();
    assert_eq!((only_n2.best_move, only_n2.score), (OwareMove(2), 0));
    assert!(only_n2.exact);
}

#[test]
fn without_the_history_the_repetition_is_not_seen() {
    let game = cycle_game();
    let mut engine = Engine::<OwarePosition>::with_tt_bytes(1 << 20);
    let bare = engine.search(game.position(), &Limits::depth(4)).unwrap();
    // Four plies from R without history reach no end of the game: N3's line goes on
    // (`1,1,0,6,0,1,0,9 S` has moves), so the value is a heuristic one.
    assert!(!bare.exact, "{bare:?}");
    engine.clear();
    let with = engine.search_game(&game, &Limits::depth(4)).unwrap();
    assert!(with.exact, "{with:?}");
    assert_eq!(with.score, 2 * SEED);
}

#[test]
fn the_level_player_and_the_players_see_the_history() {
    let game = cycle_game();
    let mut player =
        LevelPlayer::with_engine(Engine::with_tt_bytes(1 << 20), Level::new(10).unwrap(), 1);
    let c = player.choose_game(&game, Limits::depth(12)).unwrap();
    assert_eq!(c.mv, OwareMove(3));
    let mut players = mancala_solver::engine::Players::new(Level::new(10).unwrap(), 1, 1 << 20);
    let c = players.choose_game(&game, Limits::depth(12)).unwrap();
    assert_eq!((c.mv, c.search.score), (OwareMove(3), 2 * SEED));
}

/// `0,0,0,0,1,5,18,0,0,0,0,1,3,20 S` (48 seeds), South to move:
/// * 5: one seed into S6 (6 seeds), own row, no capture; rows South 6, North 4;
/// * 6: five seeds into N1..N5 (1, 1, 1, 1, 2: N5 held 1), N5's 2 captured (N4 holds 1: the
///   chain stops; N6's 3 stay, so no grand slam); South 20, rows South 1, North 7.
///
/// At the move limit each player takes his row (OW-6.4): after 5, 18 + 6 = 24 against
/// 20 + 4 = 24, **0**; after 6, 20 + 1 = 21 against 20 + 7 = 27, −6. Without a limit, at
/// depth 1 the evaluation (`engine/oware.rs`: 100 a captured seed and the weights `FITTED`
/// of the board's terms) gives, for North to move, after 5 (North 0,0,0,0,1,3, South
/// 0,0,0,0,0,6): stores +200, North's seeds −35 − 3·36, South's +6·32, North's house of 1
/// −59, no capture of one sowing either way, empty houses 4·(−204) + 5·225: +499, so −499
/// for South; after 6 (North 1,1,1,1,0,3, South 0,0,0,0,1,0): stores 0, North's seeds
/// 20 + 7 − 8 − 26 − 3·36, South's +28, houses of 1: 4·(−59) + 64, no capture, empty houses
/// −204 + 5·225: +662, so −662 for South: 5, with −499.
const LIMIT_POSITION: &str = "0,0,0,0,1,5,18,0,0,0,0,1,3,20 S";

#[test]
fn at_the_move_limit_the_rows_count() {
    let mut engine = Engine::<OwarePosition>::with_tt_bytes(1 << 20);
    // The limit reached by this move: a set-up position and a limit of 1 ply.
    let p = position("oware+move_limit=1", LIMIT_POSITION);
    let r = engine.search(&p, &Limits::depth(1)).unwrap();
    assert_eq!((r.best_move, r.score), (OwareMove(5), 0));
    assert!(r.exact);
    // The same through a history: 4 plies played, a limit of 5.
    let p = position("oware+move_limit=5", LIMIT_POSITION);
    let r = engine
        .search_history(
            &p,
            History {
                earlier: &[],
                plies: 4,
            },
            &Limits::depth(3),
            &[],
        )
        .unwrap();
    assert_eq!((r.best_move, r.score), (OwareMove(5), 0));
    assert!(r.exact);
    // One ply before the limit's reach the game goes on after either move (4 plies of 5):
    // the search of depth 1 is not exact, and its score is the best of the two moves by the
    // evaluation of the position each leaves (negated: the opponent moves there), with no
    // end of the game counted in.
    engine.clear();
    let r = engine
        .search_history(
            &p,
            History {
                earlier: &[],
                plies: 3,
            },
            &Limits::depth(1),
            &[],
        )
        .unwrap();
    let by_move: Vec<(OwareMove, i32)> = [OwareMove(5), OwareMove(6)]
        .into_iter()
        .map(|m| {
            let child = p.play(m).unwrap();
            assert!(!child.is_over());
            (m, -child.evaluate())
        })
        .collect();
    let best = by_move.iter().map(|&(_, v)| v).max().unwrap();
    assert_eq!(r.score, best);
    assert!(by_move.contains(&(r.best_move, best)));
    assert!(!r.exact);
}

/// The final margin (the mover's final seeds minus the opponent's) of `pos` under best play
/// by both, with the positions since the last capture in `path` (`pos` last): a plain
/// minimax over the whole game tree written from the rules alone, independent of the engine.
/// A move to a position of `path` is the first repetition (`repetition=2`, OW-6.2) and ends
/// the game by [`Game::end_by`]; a capture starts a new `path` (captured counts are part of
/// a position, so nothing before it can recur). `cycles` counts the repetitions met.
fn brute_force(pos: &OwarePosition, path: &mut Vec<OwarePosition>, cycles: &mut u64) -> i32 {
    let me = pos.side_to_move().unwrap();
    let mut best = i32::MIN;
    for &mv in pos.legal_moves().iter() {
        let mut child = pos.play(mv).unwrap();
        let capture = pos.is_irreversible(&child);
        if !child.is_over() && !capture && path.contains(&child) {
            child = child.end_by(HistoryEnd::Repetition);
            *cycles += 1;
        }
        let v = if let Some(o) = child.outcome() {
            if me == Side::South {
                o.score
            } else {
                -o.score
            }
        } else if capture {
            -brute_force(&child, &mut vec![child], cycles)
        } else {
            path.push(child);
            let v = -brute_force(&child, path, cycles);
            path.pop();
            v
        };
        best = best.max(v);
    }
    best
}

/// Under the first-repetition rule with own rows (the rules of `oware+repetition=2`) the
/// engine scores every cycle exactly and plays for it: on 150 random positions of
/// `oware(2,2)+repetition=2` with 2 to 5 seeds in the houses, a search to the end (iterative
/// deepening stops once every line is finished) gives the exact score of the brute force
/// above, and its move keeps that score: it never loses a cycle it could have scored, nor
/// repeats into a worse end than it could have had.
#[test]
fn every_cycle_is_scored_as_a_brute_force_scores_it() {
    let mut cycles = 0;
    let mut unproven = 0;
    for (rules, houses, seeds, count) in [
        ("oware(2,2)+repetition=2", 2, 2..=5u32, 150),
        ("oware(3,2)+repetition=2", 3, 3..=3u32, 30),
    ] {
        let rules: OwareRules = rules.parse().unwrap();
        let total = 2 * houses * 2;
        let mut rng = StdRng::seed_from_u64(5);
        let mut checked = 0;
        while checked < count {
            let n = rng.gen_range(seeds.clone());
            let mut board = vec![0u32; 2 * houses as usize];
            let cells = board.len();
            for _ in 0..n {
                board[rng.gen_range(0..cells)] += 1;
            }
            let south = rng.gen_range(0..=(total - n) / 2);
            let row = |r: &[u32]| r.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
            let side = if rng.gen_bool(0.5) { "S" } else { "N" };
            let h = houses as usize;
            let text = format!(
                "{},{south},{},{} {side}",
                row(&board[..h]),
                row(&board[h..]),
                total - n - south
            );
            let Ok(pos) = <OwarePosition as Game>::parse(rules, &text) else {
                continue;
            };
            if pos.is_over() {
                continue;
            }
            let mut engine = Engine::<OwarePosition>::with_tt_bytes(1 << 16);
            let r = engine.search(&pos, &Limits::depth(MAX_DEPTH)).unwrap();
            if !r.exact {
                // A line longer than the deepest search: not proven, not compared.
                unproven += 1;
                continue;
            }
            let exact = brute_force(&pos, &mut vec![pos], &mut cycles);
            assert_eq!(r.score, exact * SEED, "{text}: {r:?}");
            let after = pos.play(r.best_move).unwrap();
            let mut more = 0;
            let kept = if let Some(o) = after.outcome() {
                if pos.side_to_move() == Some(Side::South) {
                    o.score
                } else {
                    -o.score
                }
            } else if pos.is_irreversible(&after) {
                -brute_force(&after, &mut vec![after], &mut more)
            } else {
                -brute_force(&after, &mut vec![pos, after], &mut more)
            };
            assert_eq!(kept, exact, "{text}: {:?}", r.best_move);
            checked += 1;
        }
    }
    // A position where a table keyed by the position alone reused a value searched along
    // another line, where other positions could recur (exact 0 instead of +2 seeds).
    let rules: OwareRules = "oware(3,2)+repetition=2".parse().unwrap();
    let pos = <OwarePosition as Game>::parse(rules, "1,0,1,3,0,0,2,5 N").unwrap();
    let r = Engine::<OwarePosition>::with_tt_bytes(1 << 16)
        .search(&pos, &Limits::depth(MAX_DEPTH))
        .unwrap();
    assert!(r.exact);
    assert_eq!(
        r.score,
        brute_force(&pos, &mut vec![pos], &mut cycles) * SEED
    );
    assert_eq!(r.score, 2 * SEED);
    eprintln!("{cycles} cycles met by the brute force; {unproven} positions not proven");
    assert!(cycles > 1000, "{cycles}");
}
