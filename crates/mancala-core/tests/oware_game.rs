//! Oware through the one game API: [`Game`] for `OwarePosition` and the generic
//! [`GameRecord`] applying the history rules (OW-6.2 repetition, OW-6.4 move limit) — the
//! repetition examples X14, X14a, X15 of `docs/rules/oware.md`, the move limit, undo across a
//! history end, and the generic perft (OW-11.4).

use mancala_core::game::{perft, Game, GameKind, GameRecord, HistoryEnd};
use mancala_core::oware::{parse_moves, OwareMove, OwarePosition, OwareRules};
use mancala_core::Side;

fn record(rules: &str, start: &str) -> GameRecord<OwarePosition> {
    let r: OwareRules = rules.parse().unwrap();
    GameRecord::from_position(<OwarePosition as Game>::parse(r, start).unwrap())
}

fn finals(p: &OwarePosition) -> (u32, u32) {
    (
        p.final_half_seeds(Side::South).unwrap(),
        p.final_half_seeds(Side::North).unwrap(),
    )
}

#[test]
fn the_trait_is_the_inherent_api() {
    assert_eq!(OwarePosition::KIND, GameKind::Oware);
    let start = <OwarePosition as Game>::start(OwareRules::default());
    assert_eq!(start.to_string(), "4,4,4,4,4,4,0,4,4,4,4,4,4,0 S");
    assert_eq!(Game::rules(&start), OwareRules::default());
    assert_eq!(Game::legal_moves(&start).len(), 6);
    let h = Game::history_rules(&start);
    assert_eq!((h.repetition, h.move_limit), (Some(3), None));
    // OW-11.4 through the generic perft.
    for r in [OwareRules::OWARE, OwareRules::AWARI, OwareRules::OPENSPIEL] {
        let s = <OwarePosition as Game>::start(r);
        let counts: Vec<u64> = (1..=5).map(|d| perft(&s, d)).collect();
        assert_eq!(counts, [6, 36, 190, 1014, 5219]);
    }
}

// X14: the first repetition ends an oware-openspiel game, own rows: 24–24.
#[test]
fn x14_first_repetition_under_oware_openspiel() {
    let moves = parse_moves("1 1 2 2 3 3 4 4 5 5 6 6").unwrap();
    let mut game = record("oware-openspiel", "1,0,0,0,0,0,23,1,0,0,0,0,0,23 S");
    for (i, mv) in moves.iter().enumerate() {
        let p = *game.play(*mv).unwrap();
        assert_eq!(p.is_over(), i == moves.len() - 1, "ply {}", i + 1);
    }
    assert_eq!(
        game.position().to_string(),
        "0,0,0,0,0,0,24,0,0,0,0,0,0,24 -"
    );
    assert_eq!(game.ended_by(), Some(HistoryEnd::Repetition));
    assert_eq!(finals(game.position()), (48, 48));
    // Undo takes the end back: the start position is to move again, occurring once.
    assert_eq!(game.undo(), Some(OwareMove(6)));
    assert!(!game.is_over());
    assert_eq!(game.ended_by(), None);
}

// X14a: under oware the same moves bring the start position back a second time; the game
// goes on until a third occurrence.
#[test]
fn x14a_third_occurrence_under_oware() {
    let moves = parse_moves("1 1 2 2 3 3 4 4 5 5 6 6").unwrap();
    let start = "1,0,0,0,0,0,23,1,0,0,0,0,0,23 S";
    let mut game = record("oware", start);
    for mv in &moves {
        game.play(*mv).unwrap();
    }
    assert_eq!(game.position().to_string(), start);
    assert_eq!(game.occurrences(game.position()), 2);
    for mv in &moves {
        game.play(*mv).unwrap();
    }
    assert_eq!(
        game.position().to_string(),
        "0,0,0,0,0,0,24,0,0,0,0,0,0,24 -"
    );
    assert_eq!(game.ended_by(), Some(HistoryEnd::Repetition));
}

// X15: the third occurrence of the start position ends an awari game; the 3 seeds are split.
#[test]
fn x15_split_under_awari() {
    let moves = parse_moves("2 5 5 6 6 1 1 2 3 3 4 4 2 5 5 6 6 1 3 2 1 3 4 4").unwrap();
    let mut game = record("awari", "0,1,0,0,1,0,22,0,0,0,0,1,0,23 S");
    for (i, mv) in moves.iter().enumerate() {
        let p = *game.play(*mv).unwrap();
        assert_eq!(p.is_over(), i == moves.len() - 1, "ply {}", i + 1);
    }
    assert_eq!(
        game.position().to_string(),
        "0,1,0,0,1,0,22,0,0,0,0,1,0,23 -"
    );
    assert_eq!(finals(game.position()), (47, 49));
    assert_eq!(game.position().outcome().unwrap().score, -1);
}

// OW-6.4: the limit of 2 plies, own rows (X1, then North's house 6 sowing S1..S4).
#[test]
fn move_limit_through_the_record() {
    let r: OwareRules = "oware+move_limit=2".parse().unwrap();
    let mut game = GameRecord::<OwarePosition>::new(r);
    game.play(OwareMove(3)).unwrap();
    assert!(!game.is_over());
    game.play(OwareMove(6)).unwrap();
    assert_eq!(
        game.position().to_string(),
        "0,0,0,0,0,0,27,0,0,0,0,0,0,21 -"
    );
    assert_eq!(game.ended_by(), Some(HistoryEnd::MoveLimit));
    assert!(game.play(OwareMove(1)).is_err());
}

// OW-6.2: only positions since the last capture can repeat, so the record keeps those. From
// X4's position: South 6 (1 seed into N1, which holds 4: no capture), North 4 (1 seed into
// N5), then South 5 sows S6, N1, N2 and captures N2's 2 seeds (N1 holds 5: the chain stops).
#[test]
fn positions_since_the_last_capture() {
    let mut game = record("oware", "0,0,0,0,3,1,18,3,1,2,1,0,0,19 S");
    for mv in parse_moves("6 4").unwrap() {
        game.play(mv).unwrap();
    }
    assert_eq!(game.since_irreversible().len(), 3);
    assert_eq!(game.plies(), 2);
    game.play(OwareMove(5)).unwrap();
    assert_eq!(
        game.position().to_string(),
        "0,0,0,0,0,1,20,5,0,2,0,1,0,19 N"
    );
    assert_eq!(game.since_irreversible(), &[*game.position()]);
    // Taking the capture back gives the three positions before it again.
    game.undo();
    assert_eq!(game.since_irreversible().len(), 3);
    assert_eq!(game.since_irreversible()[0], *game.start());
    // A position before the capture is still counted by `occurrences` (once).
    assert_eq!(game.occurrences(&game.start().clone()), 1);
}
