//! The engine under Oware's history rules (`docs/rules/oware.md`): a move that repeats a
//! position for the rule set's repetition count ends the game by the cycle rule (OW-6.2), and
//! a move made at the move limit ends it with each row to its owner (OW-6.4). Every position
//! and value below is traced by hand from the rules; the notation of a board of h houses is
//! `S1..Sh, South's store, N1..Nh, North's store, side` (OW-9).

use mancala_core::game::{parse_moves, Game, GameRecord};
use mancala_core::oware::{OwareMove, OwarePosition, OwareRules};
use mancala_solver::engine::{Engine, History, Level, LevelPlayer, Limits, SEED};

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
/// depth 1 the evaluation (`engine/oware.rs`: 100 a captured seed, 25 a seed in the row, 50
/// an exposed house of 1 or 2, for North to move) gives after 5: North +200 (stores 20−18)
/// −50 (rows 4−6) −50 (North's exposed N5, South none) = +100, so −100 for South; after 6:
/// 0 (20−20) +150 (rows 7−1) +50·(1 − 4) (South's S5 against N1..N4) = 0, so 0 for South: 6.
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
    // One ply before the limit's reach the game goes on: the heuristic at depth 1 prefers 6.
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
    assert_eq!((r.best_move, r.score), (OwareMove(6), 0));
    assert!(!r.exact);
}
